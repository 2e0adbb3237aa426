--
-- comb_in_range(id, lower, upper, format): the embedded time in [lower, upper), served by an
-- index on id alone (uuid_ops for the postgresql formats, uuid_sqlserver_ops for sqlserver,
-- legacy and ticks, uuid_binary_ops for binary and binary_sqldatetime) through the planner support
-- function; the same rows without an index.
--
SET TimeZone = 'UTC';

-- Scattered data over two days in every format, plus values exactly on the bounds. The times come
-- from md5, not random(), whose generator differs between majors: the counts below are the same
-- on every one. (comb_uuid(t, f) draws random bits, but the bits after the time never move it.)
CREATE TABLE ir AS
SELECT f, comb_uuid(t, f) AS id, t
FROM unnest(enum_range(NULL::comb_format)) f,
     LATERAL (SELECT '2024-03-01 00:00+00'::timestamptz
                     + (('x' || substr(md5(i || '/' || f), 1, 12))::bit(48)::bigint % 172800000000) * interval '1 microsecond' AS t
              FROM generate_series(1, 20000) i) g;
INSERT INTO ir
SELECT f, comb_uuid(t, f), t
FROM unnest(enum_range(NULL::comb_format)) f,
     unnest(ARRAY['2024-03-01 12:00:00+00', '2024-03-02 06:30:00.5+00', '2024-03-02 06:30:00.499+00',
                  '2024-03-01 11:59:59.999999+00']::timestamptz[]) t;

-- Sequential scan: the same rows as the plain filter on comb_timestamp.
SELECT f,
       count(*) FILTER (WHERE comb_in_range(id, '2024-03-01 12:00+00', '2024-03-02 06:30:00.5+00', f)) AS in_range,
       count(*) FILTER (WHERE comb_timestamp(id, f) >= '2024-03-01 12:00+00'
                          AND comb_timestamp(id, f) < '2024-03-02 06:30:00.5+00') AS by_timestamp,
       count(*) FILTER (WHERE comb_in_range(id, '2024-03-01 12:00+00', '2024-03-02 06:30:00.5+00', f)
                          IS DISTINCT FROM (comb_timestamp(id, f) >= '2024-03-01 12:00+00'
                                            AND comb_timestamp(id, f) < '2024-03-02 06:30:00.5+00')) AS disagreements
FROM ir GROUP BY f ORDER BY f;

-- One table per order, with the index users already have on their key.
CREATE TABLE ir_pg AS SELECT id, f FROM ir WHERE f = 'postgresql';
CREATE INDEX ON ir_pg (id);
CREATE TABLE ir_pgdt AS SELECT id, f FROM ir WHERE f = 'postgresql_sqldatetime';
CREATE INDEX ON ir_pgdt (id);
CREATE TABLE ir_ss AS SELECT id, f FROM ir WHERE f = 'sqlserver';
CREATE INDEX ON ir_ss (id uuid_sqlserver_ops);
CREATE TABLE ir_legacy AS SELECT id, f FROM ir WHERE f = 'legacy';
CREATE INDEX ON ir_legacy (id uuid_sqlserver_ops);
CREATE TABLE ir_ticks AS SELECT id, f FROM ir WHERE f = 'ticks';
CREATE INDEX ON ir_ticks (id uuid_sqlserver_ops);
CREATE TABLE ir_binary AS SELECT id, f FROM ir WHERE f = 'binary';
CREATE INDEX ON ir_binary (id uuid_binary_ops);
CREATE TABLE ir_bindt AS SELECT id, f FROM ir WHERE f = 'binary_sqldatetime';
CREATE INDEX ON ir_bindt (id uuid_binary_ops);
-- VACUUM too, so the visibility map (and so the plan) never depends on whether autovacuum got there first.
VACUUM ANALYZE ir_pg, ir_pgdt, ir_ss, ir_legacy, ir_ticks, ir_binary, ir_bindt;

EXPLAIN (COSTS OFF) SELECT id FROM ir_pg
WHERE comb_in_range(id, '2024-03-01 12:00+00', '2024-03-01 13:00+00');
EXPLAIN (COSTS OFF) SELECT id FROM ir_pgdt
WHERE comb_in_range(id, '2024-03-01 12:00+00', '2024-03-01 13:00+00', 'postgresql_sqldatetime');
EXPLAIN (COSTS OFF) SELECT id FROM ir_ss
WHERE comb_in_range(id, '2024-03-01 12:00+00', '2024-03-01 13:00+00', 'sqlserver');
EXPLAIN (COSTS OFF) SELECT id FROM ir_legacy
WHERE comb_in_range(id, '2024-03-01 12:00+00', '2024-03-01 13:00+00', 'legacy');
EXPLAIN (COSTS OFF) SELECT id FROM ir_ticks
WHERE comb_in_range(id, now() - interval '1 hour', now(), 'ticks');
EXPLAIN (COSTS OFF) SELECT id FROM ir_binary
WHERE comb_in_range(id, '2024-03-01 12:00+00', '2024-03-01 13:00+00', 'binary');
-- A format whose order the index does not sort in gets no index condition.
EXPLAIN (COSTS OFF) SELECT id FROM ir_ss
WHERE comb_in_range(id, '2024-03-01 12:00+00', '2024-03-01 13:00+00', 'postgresql');

-- Index scans return exactly the rows of the comb_timestamp filter, bounds included.
SET enable_seqscan = off;
SET enable_bitmapscan = off;
CREATE FUNCTION pg_temp.check(tbl regclass, f comb_format, lo timestamptz, hi timestamptz) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE by_index bigint; by_filter bigint; plan text;
BEGIN
    EXECUTE format('EXPLAIN (COSTS OFF) SELECT id FROM %s WHERE comb_in_range(id, %L, %L, %L)', tbl, lo, hi, f) INTO plan;
    EXECUTE format('SELECT count(*) FROM %s WHERE comb_in_range(id, %L, %L, %L)', tbl, lo, hi, f) INTO by_index;
    EXECUTE format('SELECT count(*) FROM %s WHERE comb_timestamp(id, %L) >= %L AND comb_timestamp(id, %L) < %L', tbl, f, lo, f, hi) INTO by_filter;
    -- No index serves comb_timestamp(id, f) here, so this is a sequential scan and a filter.
    RETURN format('%s %s rows, filter %s', CASE WHEN plan LIKE 'Index%' THEN 'index' ELSE 'NO INDEX' END, by_index,
                  CASE WHEN by_index = by_filter THEN 'agrees' ELSE 'DISAGREES: ' || by_filter END);
END $$;
SELECT tbl, lo, hi, pg_temp.check(tbl, f, lo, hi)
FROM (VALUES ('ir_pg'::regclass, 'postgresql'::comb_format), ('ir_pgdt', 'postgresql_sqldatetime'),
             ('ir_ss', 'sqlserver'), ('ir_legacy', 'legacy'), ('ir_ticks', 'ticks'),
             ('ir_binary', 'binary'), ('ir_bindt', 'binary_sqldatetime')) t(tbl, f),
     (VALUES ('2024-03-01 12:00+00'::timestamptz, '2024-03-02 06:30:00.5+00'::timestamptz),
             ('2024-03-01 11:59:59.999999+00', '2024-03-02 06:30:00.499+00'),
             ('-infinity', '2024-03-01 12:00+00'),
             ('2024-03-02 06:30:00.5+00', 'infinity'),
             ('1800-01-01', '2024-03-01 00:00+00')) b(lo, hi)
ORDER BY 1, lo;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- An expression index on the time serves the binary formats too (as it does any format).
CREATE TABLE ir_bin AS SELECT id FROM ir WHERE f = 'binary';
CREATE INDEX ir_bin_time ON ir_bin (comb_timestamp(id, 'binary'));
VACUUM ANALYZE ir_bin;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ir_bin
WHERE comb_timestamp(id, 'binary') >= '2024-03-01 12:00+00' AND comb_timestamp(id, 'binary') < '2024-03-01 13:00+00';
RESET enable_seqscan;

DROP TABLE ir, ir_pg, ir_pgdt, ir_ss, ir_legacy, ir_ticks, ir_binary, ir_bindt, ir_bin;

-- A midnight has two sqldatetime encodings: the day's time of day 0 and the previous day's
-- 25,920,000 (valid, as in SQL Server). The range bound is the smaller one, so both are in range,
-- row by row (the format from a column: the function itself) and through the index.
CREATE TABLE ir_midnight (f comb_format, id uuid);
INSERT INTO ir_midnight VALUES
    ('legacy', '00000000-0000-0000-0000-0000018b8200'),            -- day 0, 25,920,000: 1900-01-02 00:00
    ('legacy', '00000000-0000-0000-0000-000100000000'),            -- day 1, 0: the same time
    ('legacy', '00000000-0000-0000-0000-0000018b81ff'),            -- day 0, 25,919,999: before it
    ('postgresql_sqldatetime', '0000018b-8200-0000-0000-000000000000'),
    ('postgresql_sqldatetime', '00010000-0000-0000-0000-000000000000'),
    ('postgresql_sqldatetime', '0000018b-81ff-0000-0000-000000000000');
SELECT f, id, comb_timestamp(id, f), comb_in_range(id, '1900-01-02 00:00+00', 'infinity', f) AS in_range
FROM ir_midnight ORDER BY f, id;
SELECT comb_floor('1900-01-02 00:00+00', 'legacy') AS legacy_floor,
       comb_floor('1900-01-02 00:00+00', 'postgresql_sqldatetime') AS postgresql_sqldatetime_floor;
CREATE INDEX ON ir_midnight (id uuid_sqlserver_ops);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM ir_midnight WHERE comb_in_range(id, '1900-01-02 00:00+00', 'infinity', 'legacy');
SELECT id FROM ir_midnight WHERE comb_in_range(id, '1900-01-02 00:00+00', 'infinity', 'legacy') ORDER BY id USING #<#;
RESET enable_seqscan;
DROP TABLE ir_midnight;

-- The end of the sqldatetime clock (docs/comb.md, "Formats"): 2079-06-07 00:00:00, the midnight ending
-- day 65535, the last day two bytes hold, is the clock's last instant. Its one encoding is day
-- 65535 with time of day 25,920,000; comb_floor of any time after 2079-06-06 23:59:59.996667 (the
-- first whole µs of day 65535's last 1/300 s, 25,919,999 * 10000 / 3 µs into the day) up to it is
-- that value with zero bytes elsewhere; a bound after it is all one bytes. So comb_in_range(id, lo,
-- hi, f) is lo <= comb_timestamp(id, f) < hi here too.
CREATE TABLE ir_end (f comb_format, id uuid);
INSERT INTO ir_end VALUES
    ('legacy', '00000000-0000-4000-8000-ffff018b8200'),              -- day 65535, 25,920,000: 2079-06-07 00:00
    ('legacy', '00000000-0000-4000-8000-ffff018b81ff'),              -- day 65535, 25,919,999: 2079-06-06 23:59:59.996667
    ('legacy', '00000000-0000-4000-8000-ffff00000000'),              -- day 65535, 0: 2079-06-06 00:00
    ('legacy', '00000000-0000-4000-8000-fffe018b8200'),              -- day 65534, 25,920,000: 2079-06-06 00:00
    ('postgresql_sqldatetime', 'ffff018b-8200-4000-8000-000000000000'),
    ('postgresql_sqldatetime', 'ffff018b-81ff-4000-8000-000000000000'),
    ('postgresql_sqldatetime', 'ffff0000-0000-4000-8000-000000000000'),
    ('postgresql_sqldatetime', 'fffe018b-8200-4000-8000-000000000000'),
    -- binary_sqldatetime: the field's bytes at string bytes 3,2,1,0,5,4.
    ('binary_sqldatetime', '8b01ffff-0082-4000-8000-000000000000'),
    ('binary_sqldatetime', '8b01ffff-ff81-4000-8000-000000000000'),
    ('binary_sqldatetime', '0000ffff-0000-4000-8000-000000000000'),
    ('binary_sqldatetime', '8b01feff-0082-4000-8000-000000000000');
-- Row by row (the format from a column: no rewrite).
SELECT f, id, comb_timestamp(id, f),
       comb_in_range(id, '2079-06-01 00:00+00', '2079-06-07 00:00+00', f) AS before_the_end,
       comb_in_range(id, '2079-06-07 00:00+00', 'infinity', f) AS from_the_end,
       comb_in_range(id, '2079-06-06 23:59:59.996668+00', 'infinity', f) AS from_inside_the_last_unit,
       comb_in_range(id, '2079-06-07 00:00:00.000001+00', 'infinity', f) AS after_the_end
FROM ir_end ORDER BY f, comb_timestamp(id, f), id;
-- Every pair of bounds around the edge, row by row, against the definition.
SELECT f, count(*) AS checks,
       count(*) FILTER (WHERE comb_in_range(id, lo, hi, f)
                        IS DISTINCT FROM (comb_timestamp(id, f) >= lo AND comb_timestamp(id, f) < hi)) AS disagreements
FROM ir_end,
     unnest('{-infinity, 2079-06-06 00:00+00, 2079-06-06 23:59:59.996666+00, 2079-06-06 23:59:59.996667+00,
              2079-06-06 23:59:59.996668+00, 2079-06-06 23:59:59.999999+00, 2079-06-07 00:00+00,
              2079-06-07 00:00:00.000001+00, 2079-06-08 00:00+00, infinity}'::timestamptz[]) lo,
     unnest('{-infinity, 2079-06-06 00:00+00, 2079-06-06 23:59:59.996666+00, 2079-06-06 23:59:59.996667+00,
              2079-06-06 23:59:59.996668+00, 2079-06-06 23:59:59.999999+00, 2079-06-07 00:00+00,
              2079-06-07 00:00:00.000001+00, 2079-06-08 00:00+00, infinity}'::timestamptz[]) hi
GROUP BY f ORDER BY f;
-- The bounds themselves, and the instant written by comb_stamp.
SELECT f, comb_floor('2079-06-06 23:59:59.996667+00', f) AS last_unit_start,
       comb_floor('2079-06-06 23:59:59.996668+00', f) AS inside_it,
       comb_floor('2079-06-07 00:00+00', f) AS the_end,
       comb_range_bound('2079-06-07 00:00:00.000001+00', f) AS after_the_end
FROM unnest('{legacy, postgresql_sqldatetime, binary_sqldatetime}'::comb_format[]) f;
SELECT f, comb_stamp('00000000-0000-4000-8000-000000000000', '2079-06-07 00:00+00', f) AS stamped,
       comb_timestamp(comb_uuid('2079-06-07 00:00+00'::timestamptz, f), f) AS generated
FROM unnest('{legacy, postgresql_sqldatetime, binary_sqldatetime}'::comb_format[]) f;
-- The index path: constant bounds become constant comparisons, the same rows.
CREATE TABLE ir_end_legacy AS SELECT id FROM ir_end WHERE f = 'legacy';
CREATE INDEX ON ir_end_legacy (id uuid_sqlserver_ops);
CREATE TABLE ir_end_pgdt AS SELECT id FROM ir_end WHERE f = 'postgresql_sqldatetime';
CREATE INDEX ON ir_end_pgdt (id);
CREATE TABLE ir_end_bindt AS SELECT id FROM ir_end WHERE f = 'binary_sqldatetime';
CREATE INDEX ON ir_end_bindt (id uuid_binary_ops);
VACUUM ANALYZE ir_end_legacy, ir_end_pgdt, ir_end_bindt;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM ir_end_legacy WHERE comb_in_range(id, '2079-06-07 00:00+00', 'infinity', 'legacy');
SELECT id FROM ir_end_legacy WHERE comb_in_range(id, '2079-06-07 00:00+00', 'infinity', 'legacy');
SELECT id FROM ir_end_legacy WHERE comb_in_range(id, '2079-06-01 00:00+00', '2079-06-07 00:00+00', 'legacy') ORDER BY id USING #<#;
EXPLAIN (COSTS OFF) SELECT id FROM ir_end_pgdt WHERE comb_in_range(id, '2079-06-07 00:00+00', 'infinity', 'postgresql_sqldatetime');
SELECT id FROM ir_end_pgdt WHERE comb_in_range(id, '2079-06-07 00:00+00', 'infinity', 'postgresql_sqldatetime');
SELECT id FROM ir_end_pgdt WHERE comb_in_range(id, '2079-06-01 00:00+00', '2079-06-07 00:00+00', 'postgresql_sqldatetime') ORDER BY id;
-- Every pair of bounds through the index (pg_temp.check above: the plan, and the count against
-- the comb_timestamp filter).
SELECT tbl, lo, hi, pg_temp.check(tbl, f, lo, hi)
FROM (VALUES ('ir_end_legacy'::regclass, 'legacy'::comb_format), ('ir_end_pgdt', 'postgresql_sqldatetime'),
             ('ir_end_bindt', 'binary_sqldatetime')) t(tbl, f),
     unnest('{-infinity, 2079-06-06 23:59:59.996667+00, 2079-06-06 23:59:59.996668+00, 2079-06-07 00:00+00,
              2079-06-07 00:00:00.000001+00}'::timestamptz[]) lo,
     unnest('{2079-06-06 23:59:59.996667+00, 2079-06-06 23:59:59.996668+00, 2079-06-07 00:00+00,
              2079-06-07 00:00:00.000001+00, infinity}'::timestamptz[]) hi
WHERE lo < hi
ORDER BY 1, 2, 3;
RESET enable_seqscan;
RESET enable_bitmapscan;
DROP TABLE ir_end, ir_end_legacy, ir_end_pgdt, ir_end_bindt;
