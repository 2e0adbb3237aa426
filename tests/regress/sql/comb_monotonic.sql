--
-- 100,000 comb_uuid() values made in one statement strictly increase in their format's own
-- order (regress_order_key, written independently in setup.sql), for every format; so do values
-- made in consecutive transactions.
--
SET TimeZone = 'UTC';
CREATE TEMP TABLE made (f comb_format, n int, id uuid);
INSERT INTO made
SELECT f, n, id
FROM unnest(enum_range(NULL::comb_format)) f,
     LATERAL (SELECT n, comb_uuid(f) AS id FROM generate_series(1, 100000) n) g;

SELECT f, count(*) AS made, count(DISTINCT id) AS distinct_ids,
       bool_and(key > previous_key) FILTER (WHERE n > 1) AS strictly_increasing
FROM (SELECT f, n, id, regress_order_key(id, f) AS key,
             lag(regress_order_key(id, f)) OVER (PARTITION BY f ORDER BY n) AS previous_key
      FROM made) s
GROUP BY f ORDER BY f;

-- Decoded times never go backwards either.
SELECT f, bool_and(t >= previous_t) FILTER (WHERE n > 1) AS times_non_decreasing
FROM (SELECT f, n, comb_timestamp(id, f) AS t,
             lag(comb_timestamp(id, f)) OVER (PARTITION BY f ORDER BY n) AS previous_t
      FROM made) s
GROUP BY f ORDER BY f;

-- Across transactions of the same session.
CREATE TEMP TABLE across (f comb_format, step int, id uuid);
BEGIN;
INSERT INTO across SELECT f, 1, comb_uuid(f) FROM unnest(enum_range(NULL::comb_format)) f;
COMMIT;
BEGIN;
INSERT INTO across SELECT f, 2, comb_uuid(f) FROM unnest(enum_range(NULL::comb_format)) f;
COMMIT;
SELECT a.f, regress_order_key(a.id, a.f) < regress_order_key(b.id, b.f) AS increasing
FROM across a JOIN across b ON a.f = b.f AND a.step = 1 AND b.step = 2
ORDER BY a.f;

-- Random bits: values stamped with one fixed time do not repeat.
SELECT count(*) AS made, count(DISTINCT id) AS distinct_ids
FROM (SELECT comb_uuid('2020-02-02 02:02:02+00'::timestamptz, f) id
      FROM unnest(enum_range(NULL::comb_format)) f, generate_series(1, 20000)) s;
