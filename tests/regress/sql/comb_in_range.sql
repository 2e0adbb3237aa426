--
-- comb_in_range(id, lower, upper, format): the embedded time in [lower, upper), served by an
-- index on id alone (uuid_ops for the postgresql formats, uuid_sqlserver_ops for sqlserver,
-- legacy and ticks) through the planner support function; the same rows without an index.
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
-- VACUUM too, so the visibility map (and so the plan) never depends on whether autovacuum got there first.
VACUUM ANALYZE ir_pg, ir_pgdt, ir_ss, ir_legacy, ir_ticks;

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
             ('ir_ss', 'sqlserver'), ('ir_legacy', 'legacy'), ('ir_ticks', 'ticks')) t(tbl, f),
     (VALUES ('2024-03-01 12:00+00'::timestamptz, '2024-03-02 06:30:00.5+00'::timestamptz),
             ('2024-03-01 11:59:59.999999+00', '2024-03-02 06:30:00.499+00'),
             ('-infinity', '2024-03-01 12:00+00'),
             ('2024-03-02 06:30:00.5+00', 'infinity'),
             ('1800-01-01', '2024-03-01 00:00+00')) b(lo, hi)
ORDER BY 1, lo;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- For the binary formats no btree order serves the time; an expression index does.
CREATE TABLE ir_bin AS SELECT id FROM ir WHERE f = 'binary';
CREATE INDEX ir_bin_time ON ir_bin (comb_timestamp(id, 'binary'));
VACUUM ANALYZE ir_bin;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ir_bin
WHERE comb_timestamp(id, 'binary') >= '2024-03-01 12:00+00' AND comb_timestamp(id, 'binary') < '2024-03-01 13:00+00';
RESET enable_seqscan;

DROP TABLE ir, ir_pg, ir_pgdt, ir_ss, ir_legacy, ir_ticks, ir_bin;

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
