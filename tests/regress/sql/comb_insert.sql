--
-- DEFAULT comb_uuid() with INSERT, COPY and under parallel query.
--
SET TimeZone = 'UTC';
CREATE TABLE orders (
    id   uuid PRIMARY KEY DEFAULT comb_uuid(),
    seq  int NOT NULL
);
INSERT INTO orders (seq) SELECT g FROM generate_series(1, 5000) g;
COPY orders (seq) FROM STDIN;
5001
5002
5003
\.
INSERT INTO orders (seq) VALUES (5004), (5005);

-- Insertion order is key order: the primary key only ever grows at its right edge.
SELECT count(*) AS rows,
       bool_and(id > previous_id) FILTER (WHERE previous_id IS NOT NULL) AS ids_follow_insert_order
FROM (SELECT id, lag(id) OVER (ORDER BY seq) AS previous_id FROM orders) s;

CREATE TABLE legacy_orders (
    id   uuid PRIMARY KEY DEFAULT comb_uuid('legacy'),
    seq  int NOT NULL
);
INSERT INTO legacy_orders (seq) SELECT g FROM generate_series(1, 1000) g;
SELECT bool_and(comb_timestamp(id, 'legacy') BETWEEN now() - interval '1 minute' AND clock_timestamp())
       AS times_are_the_inserts
FROM legacy_orders;

-- comb_uuid() is PARALLEL RESTRICTED: it runs in the leader, above the Gather, so a session's
-- values still increase; the decoders are PARALLEL SAFE and run in the workers.
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
ANALYZE orders;
EXPLAIN (COSTS OFF, VERBOSE) SELECT comb_uuid(), seq FROM orders WHERE seq > 10;
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders WHERE comb_timestamp(id) > '2020-01-01';
SELECT count(*) FROM orders WHERE comb_timestamp(id) > '2020-01-01';
CREATE TEMP TABLE from_parallel AS
SELECT row_number() OVER () AS n, id FROM (SELECT comb_uuid() AS id FROM orders WHERE seq > 10) s;
SELECT count(*) AS made,
       bool_and(id > previous_id) FILTER (WHERE previous_id IS NOT NULL) AS increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS previous_id FROM from_parallel) s;
RESET ALL;

DROP TABLE orders, legacy_orders;
