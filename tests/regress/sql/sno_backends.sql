--
-- Uniqueness across sessions: four sessions each make 100,000 snos at the same time, on the same
-- partition and sequence pool. Zero duplicates, and each session's values strictly increase.
-- Then the same with a pool of four per 4 ms unit, where sessions must wait for each other.
--
SET TimeZone = 'UTC';
CREATE TABLE sno_drawn (phase int, session int, n int, id sno, at timestamptz);

SELECT regress_concurrently(4, 'SET comb_ext.sno_partition = 7',
    'INSERT INTO sno_drawn SELECT 1, %s, n, sno_new(), clock_timestamp() FROM generate_series(1, 100000) n');
SELECT regress_concurrently(4, 'SET comb_ext.sno_partition = 7; SET comb_ext.sno_sequence_max = 3',
    'INSERT INTO sno_drawn SELECT 2, %s, n, sno_new(), clock_timestamp() FROM generate_series(1, 250) n');

SELECT phase, count(*) AS made, count(DISTINCT id) AS distinct_ids, count(DISTINCT session) AS sessions,
       bool_and(sno_partition(id) = 7) AS partition_7,
       bool_and(sno_sequence(id) <= CASE phase WHEN 2 THEN 3 ELSE 65535 END) AS sequences_in_bounds
FROM sno_drawn GROUP BY phase ORDER BY phase;

-- Each session's values strictly increase (bytea order, PostgreSQL's own comparison).
SELECT phase, count(*) FILTER (WHERE id::bytea <= previous::bytea) AS out_of_order
FROM (SELECT phase, id, lag(id) OVER (PARTITION BY phase, session ORDER BY n) AS previous FROM sno_drawn) s
GROUP BY phase ORDER BY phase;

-- The sessions really ran at the same time: every session started before any finished.
SELECT phase, max(started) < min(finished) AS all_sessions_overlapped
FROM (SELECT phase, session, min(at) AS started, max(at) AS finished FROM sno_drawn GROUP BY phase, session) s
GROUP BY phase ORDER BY phase;

DROP TABLE sno_drawn;
