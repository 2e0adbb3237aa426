--
-- comb_in_range is rewritten by its planner support function (SupportRequestSimplify) into
-- id >= bound AND id < bound in the operators of the format's order, so partition pruning (at plan
-- time for constants, at executor start for now() and parameters) and BRIN indexes serve it, in
-- uuid's order, in SQL Server's (uuid_sqlserver_ops) and in .NET ToByteArray's (uuid_binary_ops). Results equal the row-by-row definition,
-- NULLs included.
--
SET TimeZone = 'UTC';

-- Yearly partitions bounded by comb_floor, 2023 to 2025, and one from 2026 on (now() lies in it).
CREATE TABLE by_year (id uuid NOT NULL, t timestamptz) PARTITION BY RANGE (id);
CREATE TABLE by_year_sqlserver (id uuid NOT NULL, t timestamptz) PARTITION BY RANGE (id uuid_sqlserver_ops);
CREATE TABLE by_year_binary (id uuid NOT NULL, t timestamptz) PARTITION BY RANGE (id uuid_binary_ops);
DO $$
DECLARE y int;
BEGIN
    FOR y IN 2023..2025 LOOP
        EXECUTE format('CREATE TABLE by_year_%s PARTITION OF by_year FOR VALUES FROM (%L) TO (%L)', y,
                       comb_floor(make_timestamptz(y, 1, 1, 0, 0, 0, 'UTC')), comb_floor(make_timestamptz(y + 1, 1, 1, 0, 0, 0, 'UTC')));
        EXECUTE format('CREATE TABLE by_year_sqlserver_%s PARTITION OF by_year_sqlserver FOR VALUES FROM (%L) TO (%L)', y,
                       comb_floor(make_timestamptz(y, 1, 1, 0, 0, 0, 'UTC'), 'sqlserver'),
                       comb_floor(make_timestamptz(y + 1, 1, 1, 0, 0, 0, 'UTC'), 'sqlserver'));
        EXECUTE format('CREATE TABLE by_year_binary_%s PARTITION OF by_year_binary FOR VALUES FROM (%L) TO (%L)', y,
                       comb_floor(make_timestamptz(y, 1, 1, 0, 0, 0, 'UTC'), 'binary'),
                       comb_floor(make_timestamptz(y + 1, 1, 1, 0, 0, 0, 'UTC'), 'binary'));
    END LOOP;
END $$;
CREATE TABLE by_year_later PARTITION OF by_year FOR VALUES FROM (comb_floor('2026-01-01 00:00+00')) TO (MAXVALUE);
CREATE TABLE by_year_sqlserver_later PARTITION OF by_year_sqlserver
    FOR VALUES FROM (comb_floor('2026-01-01 00:00+00', 'sqlserver')) TO (MAXVALUE);
CREATE TABLE by_year_binary_later PARTITION OF by_year_binary
    FOR VALUES FROM (comb_floor('2026-01-01 00:00+00', 'binary')) TO (MAXVALUE);
-- Every 5 hours 7 minutes 3 s through the three years, rows on the edges of the query below, and
-- the last day.
INSERT INTO by_year
SELECT comb_uuid(t), t FROM generate_series('2023-01-01 00:00+00', '2025-12-31 23:59:59+00', interval '5 h 7 min 3 s') t
UNION ALL
SELECT comb_uuid(t), t FROM unnest('{2024-03-01 00:00+00, 2024-04-01 00:00+00, 2024-03-31 23:59:59.999+00}'::timestamptz[]) t
UNION ALL
SELECT comb_uuid(t), t FROM generate_series(now() - interval '1 day', now(), interval '1 h') t;
INSERT INTO by_year_sqlserver SELECT comb_uuid(t, 'sqlserver'), t FROM by_year;
INSERT INTO by_year_binary SELECT comb_uuid(t, 'binary'), t FROM by_year;
ANALYZE by_year, by_year_sqlserver, by_year_binary;

-- Constant bounds: one partition at plan time, scanned with constant bounds.
\set lo '2024-03-01 00:00+00'
\set hi '2024-04-01 00:00+00'
EXPLAIN (COSTS OFF) SELECT count(*) FROM by_year WHERE comb_in_range(id, :'lo', :'hi');
EXPLAIN (COSTS OFF) SELECT count(*) FROM by_year_sqlserver WHERE comb_in_range(id, :'lo', :'hi', 'sqlserver');
EXPLAIN (COSTS OFF) SELECT count(*) FROM by_year_binary WHERE comb_in_range(id, :'lo', :'hi', 'binary');
-- The same rows as the definition: the time embedded lies in [lo, hi).
SELECT (SELECT count(*) FROM by_year WHERE comb_in_range(id, :'lo', :'hi')) AS pruned,
       (SELECT count(*) FROM by_year WHERE comb_timestamp(id) >= :'lo' AND comb_timestamp(id) < :'hi') AS by_definition,
       (SELECT count(*) FROM by_year_sqlserver WHERE comb_in_range(id, :'lo', :'hi', 'sqlserver')) AS pruned_sqlserver,
       (SELECT count(*) FROM by_year_binary WHERE comb_in_range(id, :'lo', :'hi', 'binary')) AS pruned_binary,
       (SELECT count(*) FROM by_year WHERE t >= :'lo' AND t < :'hi') AS by_stored_time;

-- now(): pruned when the executor starts (Subplans Removed), in each order.
EXPLAIN (COSTS OFF) SELECT count(*) FROM by_year WHERE comb_in_range(id, now() - interval '1 day', now());
EXPLAIN (COSTS OFF) SELECT count(*) FROM by_year_sqlserver WHERE comb_in_range(id, now() - interval '1 day', now(), 'sqlserver');
EXPLAIN (COSTS OFF) SELECT count(*) FROM by_year_binary WHERE comb_in_range(id, now() - interval '1 day', now(), 'binary');

-- Parameters of a generic plan: pruned at executor start too.
SET plan_cache_mode = force_generic_plan;
PREPARE in_range(timestamptz, timestamptz) AS SELECT count(*) FROM by_year WHERE comb_in_range(id, $1, $2);
EXPLAIN (COSTS OFF) EXECUTE in_range(:'lo', :'hi');
EXECUTE in_range(:'lo', :'hi');
-- A NULL bound: the call is NULL whatever id is, and so is the rewrite (NOT of it selects nothing).
PREPARE not_in_range(timestamptz, timestamptz) AS SELECT count(*) FROM by_year WHERE NOT comb_in_range(id, $1, $2);
EXECUTE not_in_range(NULL, :'hi');
EXECUTE not_in_range(:'lo', NULL);
RESET plan_cache_mode;
SELECT count(*) FILTER (WHERE comb_in_range(id, NULL, :'hi') IS NULL) = count(*) AS null_lower_is_null,
       count(*) FILTER (WHERE (NOT comb_in_range(id, :'lo', NULL)) IS NULL) = count(*) AS null_upper_is_null
FROM by_year;
-- Bounds that are not constants, evaluated per row, give the definition's answer too.
SELECT count(*) FILTER (WHERE comb_in_range(id, t - interval '1 s', t + interval '1 s')) AS around_own_time,
       count(*) FILTER (WHERE comb_in_range(id, t + interval '1 s', t + interval '2 s')) AS after_own_time,
       count(*) AS rows
FROM by_year WHERE t < '2026-01-01';
EXPLAIN (COSTS OFF) SELECT id FROM by_year_2024 WHERE comb_in_range(id, t - interval '1 s', t + interval '1 s');
-- Volatile bounds are not duplicated into two comparisons: the call stays as it is.
EXPLAIN (COSTS OFF) SELECT id FROM by_year_2024 WHERE comb_in_range(id, clock_timestamp() - interval '1 day', clock_timestamp());
-- The binary formats sort in .NET byte order (uuid_binary_ops), not the partition key's: their
-- comparisons prune nothing here and filter row by row.
EXPLAIN (COSTS OFF) SELECT id FROM by_year_2024 WHERE comb_in_range(id, :'lo', :'hi', 'binary');

-- BRIN (minmax) on id: a 1% range of 200,000 rows in time order reads few block ranges.
CREATE TABLE brin_ids (id uuid, payload int);
INSERT INTO brin_ids
SELECT comb_uuid('2024-01-01 00:00+00'::timestamptz + i * interval '43.2 s'), i FROM generate_series(0, 199999) i;
CREATE INDEX brin_ids_id ON brin_ids USING brin (id);
ANALYZE brin_ids;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM brin_ids WHERE comb_in_range(id, '2024-02-01 00:00+00', '2024-02-01 24:00+00');
RESET enable_seqscan;
SELECT count(*) AS by_brin,
       (SELECT count(*) FROM brin_ids WHERE payload * interval '43.2 s' >= '31 days' AND payload * interval '43.2 s' < '32 days') AS by_time
FROM brin_ids WHERE comb_in_range(id, '2024-02-01 00:00+00', '2024-02-01 24:00+00');
DROP TABLE brin_ids, by_year, by_year_sqlserver, by_year_binary;
