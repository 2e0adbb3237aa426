--
-- Calls written with literals mean what PostgreSQL's parser makes of them (docs/guarantees.md#names-on-the-search_path):
-- a quoted format is the enum constant, a quoted time is a timestamptz constant read once when the
-- statement is parsed, fixed in stored expressions (index predicates, views, policies) and the same in
-- every session, whatever its TimeZone and DateStyle. 0.6.0 before its release read quoted times per
-- session, through overloads that took text there; none is left (the last query here checks the catalog).
--
CREATE TABLE literal_calls (id uuid);
INSERT INTO literal_calls
SELECT comb_uuid('2024-03-01 12:00+00'::timestamptz + i * interval '1 s', 'binary') FROM generate_series(1, 2000) i;
CREATE INDEX literal_calls_enum ON literal_calls (comb_timestamp(id, 'binary'::comb_format));
ANALYZE literal_calls;
SET enable_seqscan = off;
-- The literal form, against the index made with the enum.
EXPLAIN (COSTS OFF) SELECT count(*) FROM literal_calls WHERE comb_timestamp(id, 'binary') < '2024-03-01 12:00:10+00';
SELECT count(*) FROM literal_calls WHERE comb_timestamp(id, 'binary') < '2024-03-01 12:00:10+00';
DROP INDEX literal_calls_enum;
-- The other way round: an index made with the literal, a query with the enum.
CREATE INDEX literal_calls_text ON literal_calls (comb_timestamp(id, 'binary'));
EXPLAIN (COSTS OFF) SELECT count(*) FROM literal_calls WHERE comb_timestamp(id, 'binary'::comb_format) < '2024-03-01 12:00:10+00';
RESET enable_seqscan;
DROP TABLE literal_calls;
-- A label that is no format is the enum's own 22P02, at parse time; a text value is not a format.
SELECT regress_error($$SELECT comb_timestamp(comb_uuid(), 'nosuchformat')$$);
SELECT regress_error($$SELECT uid8_new('nosuchmode')$$);
SELECT regress_error($$SELECT comb_timestamp('018cc820-db2e-4000-9318-2b65fb840cd1', f) FROM (VALUES ('binary'::text)) v(f)$$);
SELECT comb_timestamp('018cc820-db2e-4000-9318-2b65fb840cd1', f::comb_format) FROM (VALUES ('postgresql'), ('binary')) v(f);
-- A quoted time is a constant of the parse: comb_in_range's bounds are the typed call's constants.
SET TimeZone = 'UTC';
CREATE TABLE literal_ranges (id uuid PRIMARY KEY);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM literal_ranges WHERE comb_in_range(id, '2024-03-01 12:00:05', '2024-03-01 12:00:10');
RESET enable_seqscan;
DROP TABLE literal_ranges;
EXPLAIN (VERBOSE, COSTS OFF) SELECT comb_floor('2024-01-01'), sno_floor('2024-01-01'), muid_floor('2024-01-01');
-- Where two functions take different types at one argument, PostgreSQL's rules choose for an untyped value:
-- muid_pack's time is a bigint of µs or a timestamptz, and a quoted time goes to the bigint (cast it).
SELECT regress_error($$SELECT muid_pack('2024-01-01', 5)$$);
SELECT muid_pack('2024-01-01'::timestamptz, 5) = muid_pack(1704067200000000, 5) AS cast_to_timestamptz;
SELECT regress_error($$SELECT comb_floor('not a time')$$);

-- The same stored expressions read from sessions in three time zones and two date styles. Rows at each
-- hour from 2024-05-31 12:00 to 2024-06-01 12:00 UTC; the window [2024-06-01, 2024-06-02) read in UTC
-- holds the 13 from 00:00 to 12:00. Each object below is made in UTC, then used elsewhere.
CREATE TABLE literal_times (id uuid);
INSERT INTO literal_times
SELECT comb_uuid('2024-05-31 12:00+00'::timestamptz + h * interval '1 hour', 'uuidv7') FROM generate_series(0, 24) h;
CREATE INDEX literal_times_june ON literal_times (id) WHERE id >= comb_floor('2024-06-01', 'uuidv7');
CREATE VIEW june_rows AS
    SELECT count(*) AS rows FROM literal_times
    WHERE id >= comb_floor('2024-06-01', 'uuidv7') AND id < comb_floor('2024-06-02', 'uuidv7');
ALTER TABLE literal_times ENABLE ROW LEVEL SECURITY;
CREATE POLICY june ON literal_times FOR SELECT
    USING (comb_in_range(id, '2024-06-01', '2024-06-02', 'uuidv7'));
CREATE ROLE regress_literal_reader;
GRANT SELECT ON literal_times TO regress_literal_reader;
-- The predicate and the policy as stored: timestamptz constants, shown here in UTC.
SELECT pg_get_indexdef('literal_times_june'::regclass);
SELECT pg_get_expr(polqual, polrelid) FROM pg_policy WHERE polname = 'june';
-- Rows added from the other zones: the partial index takes what its stored predicate says.
SET TimeZone = 'America/Los_Angeles';
INSERT INTO literal_times SELECT comb_uuid('2024-06-01 13:00+00', 'uuidv7');
SET TimeZone = 'Asia/Tokyo';
SET DateStyle = 'SQL, DMY';
INSERT INTO literal_times SELECT comb_uuid('2024-06-01 14:00+00', 'uuidv7');
RESET DateStyle;
CREATE EXTENSION amcheck;
SELECT bt_index_check('literal_times_june', heapallindexed => true);
-- Every zone and style: the partial index's scan, the sequential scan, the view and the policy answer the
-- same (15 rows in the window; the policy's reader sees them and no other). The queries name the time
-- with its offset, so they mean one instant in every zone; the stored objects were made in UTC.
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM literal_times WHERE id >= comb_floor('2024-06-01 00:00+00', 'uuidv7');
RESET enable_seqscan;
RESET enable_bitmapscan;
CREATE FUNCTION literal_counts(OUT zone text, OUT style text, OUT by_index bigint, OUT by_seqscan bigint,
                               OUT by_view bigint, OUT by_policy bigint)
LANGUAGE plpgsql AS $$
BEGIN
    zone := current_setting('TimeZone');
    style := current_setting('DateStyle');
    SET LOCAL enable_seqscan = off;
    SET LOCAL enable_bitmapscan = off;
    SELECT count(*) INTO by_index FROM literal_times WHERE id >= comb_floor('2024-06-01 00:00+00', 'uuidv7');
    SET LOCAL enable_seqscan = on;
    SET LOCAL enable_indexscan = off;
    SET LOCAL enable_indexonlyscan = off;
    SELECT count(*) INTO by_seqscan FROM literal_times WHERE id >= comb_floor('2024-06-01 00:00+00', 'uuidv7');
    SELECT rows INTO by_view FROM june_rows;
    SET LOCAL ROLE regress_literal_reader;
    SELECT count(*) INTO by_policy FROM literal_times;
END $$;
SET TimeZone = 'UTC';
SELECT * FROM literal_counts();
SET TimeZone = 'America/Los_Angeles';
SELECT * FROM literal_counts();
SET TimeZone = 'Asia/Tokyo';
SET DateStyle = 'SQL, DMY';
SELECT * FROM literal_counts();
RESET DateStyle;
-- The reader setting its own zone reads the window the policy was made with, no wider.
SET ROLE regress_literal_reader;
SET TimeZone = 'Pacific/Kiritimati';
SELECT count(*) AS policy_rows, min(comb_timestamp(id, 'uuidv7')) AT TIME ZONE 'UTC' AS first_utc,
       max(comb_timestamp(id, 'uuidv7')) AT TIME ZONE 'UTC' AS last_utc FROM literal_times;
RESET ROLE;
-- A prepared statement with an untyped parameter where a time goes: the parameter is a timestamptz, read
-- in the zone of each EXECUTE as the typed parameter is, in custom and in generic plans alike.
PREPARE untyped_time AS SELECT comb_floor($1, 'uuidv7') = comb_floor($1::timestamptz, 'uuidv7') AS same,
                               comb_floor($1, 'uuidv7') = comb_floor('2024-06-01 00:00+00', 'uuidv7') AS utc_midnight;
SELECT parameter_types FROM pg_prepared_statements WHERE name = 'untyped_time';
SET plan_cache_mode = force_generic_plan;
SET TimeZone = 'UTC';
EXECUTE untyped_time('2024-06-01');
SET TimeZone = 'America/Los_Angeles';
EXECUTE untyped_time('2024-06-01');
SET TimeZone = 'UTC';
EXECUTE untyped_time('2024-06-01');
RESET plan_cache_mode;
DEALLOCATE untyped_time;
RESET TimeZone;
DROP FUNCTION literal_counts();
DROP TABLE literal_times CASCADE;
DROP ROLE regress_literal_reader;
DROP EXTENSION amcheck;

-- No function of the extension takes text or integer where another of its name takes a timestamptz, an enum
-- or a bigint (the overloads that remain take text for uuid, sno and bytea, and each calls its original), but
-- comb_uuid(text), since 0.1.0: comb_uuid('sqlserver') names a format (docs/comb.md).
SELECT p.oid::regprocedure AS takes_text_for_a_time_an_enum_or_a_bigint
FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'comb_ext'
WHERE EXISTS (SELECT FROM pg_proc o
              WHERE o.proname = p.proname AND o.pronamespace = p.pronamespace AND o.pronargs = p.pronargs
                AND o.oid <> p.oid
                AND EXISTS (SELECT FROM generate_series(0, p.pronargs - 1) i
                            WHERE p.proargtypes[i] IN ('text'::regtype, 'int4'::regtype)
                              AND (o.proargtypes[i] IN ('timestamptz'::regtype, 'int8'::regtype)
                                   OR o.proargtypes[i] IN (SELECT enumtypid FROM pg_enum))))
ORDER BY 1::text;
