--
-- muid_new across sessions: four sessions make 50,000 muids each at the same time with one
-- medallion. Timestamps come from one server-wide timeline: zero duplicates (of muids and of
-- timestamps), and each session's values strictly increase.
--
CREATE TABLE muid_drawn (session int, n int, id uuid, at timestamptz);
SELECT regress_concurrently(4, $$SET comb_ext.medallion = '0x1BFC71B112D'$$,
    'INSERT INTO muid_drawn SELECT %s, n, muid_new(), clock_timestamp() FROM generate_series(1, 50000) n');

SELECT count(*) AS made, count(DISTINCT id) AS distinct_ids,
       count(DISTINCT muid_timestamp_us(id)) AS distinct_timestamps,
       count(DISTINCT session) AS sessions, bool_and(muid_medallion(id) = 1923190821165) AS one_medallion
FROM muid_drawn;
SELECT count(*) FILTER (WHERE id <= previous) AS out_of_order
FROM (SELECT id, lag(id) OVER (PARTITION BY session ORDER BY n) AS previous FROM muid_drawn) s;
SELECT max(started) < min(finished) AS all_sessions_overlapped
FROM (SELECT session, min(at) AS started, max(at) AS finished FROM muid_drawn GROUP BY session) s;
DROP TABLE muid_drawn;
