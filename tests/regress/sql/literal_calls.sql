--
-- Calls written with literals (docs/guarantees.md#names-on-the-search_path). A literal format resolves
-- to the function's text twin, which the planner turns into the call 0.5.0 made (the enum constant):
-- an expression index made either way serves a query written either way, and the value is the same.
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
-- Which function a literal call resolves to, and the same value as the typed call.
SELECT 'comb_timestamp(uuid,text)'::regprocedure IS NOT NULL AS twin_exists,
       comb_timestamp('018cc820-db2e-4000-9318-2b65fb840cd1', 'postgresql')
         = comb_timestamp('018cc820-db2e-4000-9318-2b65fb840cd1'::uuid, 'postgresql'::comb_format) AS same_value,
       uid8_from_parts(1704164645678, 0, 1, 2, 'time_sequential')
         = uid8_from_parts(1704164645678::bigint, 0, 1, 2, 'time_sequential'::uid8_mode) AS same_uid8;
-- A constant that is not a label: the twin runs and raises what the enum's input raises.
SELECT regress_error($$SELECT comb_timestamp(comb_uuid(), 'nosuchformat')$$);
SELECT regress_error($$SELECT uid8_new('nosuchmode')$$);
-- A label that is not a constant: the twin reads it at run time.
SELECT comb_timestamp('018cc820-db2e-4000-9318-2b65fb840cd1', f) FROM (VALUES ('postgresql'), ('binary')) v(f);
-- A quoted time is read at plan time, with the session's TimeZone, as the parser read it when no
-- overload took text there: comb_in_range's bounds are the constants of the typed call (plan-time
-- pruning and index bounds alike), and every call of constants folds to the typed call's value.
SET TimeZone = 'UTC';
CREATE TABLE literal_ranges (id uuid PRIMARY KEY);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM literal_ranges WHERE comb_in_range(id, '2024-03-01 12:00:05', '2024-03-01 12:00:10');
EXPLAIN (COSTS OFF) SELECT count(*) FROM literal_ranges WHERE comb_in_range(id, '2024-03-01 12:00:05'::timestamptz, '2024-03-01 12:00:10'::timestamptz);
RESET enable_seqscan;
DROP TABLE literal_ranges;
EXPLAIN (VERBOSE, COSTS OFF) SELECT comb_floor('2024-01-01'), sno_floor('2024-01-01'), muid_pack('2024-01-01', 5);
SELECT comb_floor('2024-01-01') = comb_floor('2024-01-01'::timestamptz) AS same_floor,
       sno_floor('2024-01-01') = sno_floor('2024-01-01'::timestamptz) AS same_sno_floor,
       comb_stamp('018cc820-db2e-4000-9318-2b65fb840cd1', '2024-01-02')
         = comb_stamp('018cc820-db2e-4000-9318-2b65fb840cd1'::uuid, '2024-01-02'::timestamptz) AS same_stamp;
-- A time that does not parse raises timestamptz's own error, as an untyped literal did.
SELECT regress_error($$SELECT comb_floor('not a time')$$);
-- Not a constant: the overload casts at run time.
SELECT comb_floor(t) = comb_floor(t::timestamptz) AS same_at_run_time FROM (VALUES ('2024-01-01'::text)) v(t);
RESET TimeZone;
DROP TABLE literal_calls;
