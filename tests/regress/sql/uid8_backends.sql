--
-- uid8_new across sessions: four sessions make 50,000 IDs each at the same time, in each mode,
-- with one cluster id. Each session holds its own generator ids: zero duplicates.
--
CREATE TABLE uid8_drawn (session int, n int, mode uid8_mode, id bigint, at timestamptz);
SELECT regress_concurrently(4, 'SET comb_ext.uid8_cluster_id = 3',
    $$INSERT INTO uid8_drawn SELECT %1$s, n, m, uid8_new(m), clock_timestamp()
      FROM unnest(ARRAY['spread', 'time_sequential']::uid8_mode[]) m, generate_series(1, 50000) n$$);

SELECT mode, count(*) AS made, count(DISTINCT id) AS distinct_ids, count(DISTINCT session) AS sessions,
       bool_and(uid8_cluster(id) = 3) AS cluster_3, bool_and(uid8_mode(id) = mode) AS mode_bit
FROM uid8_drawn GROUP BY mode ORDER BY mode;
-- Each session holds 1 to comb_ext.uid8_generators_per_session (16) generator ids of its own.
SELECT count(*) FILTER (WHERE generator_ids BETWEEN 1 AND 16) AS sessions_within_the_setting
FROM (SELECT session, count(DISTINCT uid8_generator(id)) AS generator_ids FROM uid8_drawn GROUP BY session) s;
SELECT count(*) AS ids_made_twice FROM (SELECT id FROM uid8_drawn GROUP BY id HAVING count(*) > 1) d;
-- TIME_SEQUENTIAL ids of one session strictly increase.
SELECT count(*) FILTER (WHERE id <= previous) AS out_of_order
FROM (SELECT id, lag(id) OVER (PARTITION BY session ORDER BY n) AS previous
      FROM uid8_drawn WHERE mode = 'time_sequential') s;
SELECT max(started) < min(finished) AS all_sessions_overlapped
FROM (SELECT session, min(at) AS started, max(at) AS finished FROM uid8_drawn GROUP BY session) s;
DROP TABLE uid8_drawn;
