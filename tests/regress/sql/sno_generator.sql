--
-- sno_new in one session: the server-wide generator, its settings and its errors.
--
SET TimeZone = 'UTC';

-- The generator lives in shared memory (reserved at start here: this cluster preloads comb_ext).
-- 0.3.0's name is taken for a struct of 0 bytes, so a 0.3.0 library cannot run a second generator.
SELECT sno_new() IS NOT NULL AS generated;
SELECT name, size > 0 AS has_space FROM pg_shmem_allocations WHERE name LIKE 'comb_ext sno%' ORDER BY name;

-- 100,000 values from one statement are distinct and strictly increase (checked in bytea order,
-- PostgreSQL's own), with sequences restarting at 0 in each new 4 ms unit.
CREATE TEMP TABLE made AS SELECT n, sno_new() AS id FROM generate_series(1, 100000) n;
SELECT count(*) AS made, count(DISTINCT id) AS distinct_ids,
       bool_and(id::bytea > previous::bytea) FILTER (WHERE n > 1) AS strictly_increasing,
       bool_and(sno_sequence(id) = 0) FILTER (WHERE n > 1 AND sno_time(id) > sno_time(previous))
         AS sequence_restarts_each_unit
FROM (SELECT n, id, lag(id) OVER (ORDER BY n) AS previous FROM made) s;

-- Its time is the wall clock's, floored to 4 ms.
SELECT clock_timestamp() AS before \gset
SELECT sno_new() AS fresh \gset
SELECT clock_timestamp() AS after \gset
SELECT sno_time(:'fresh') <= :'after'::timestamptz
       AND sno_time(:'fresh') > :'before'::timestamptz - interval '4 ms' AS time_is_now,
       extract(microseconds FROM sno_time(:'fresh'))::bigint % 4000 = 0 AS floored_to_4_ms;

-- The metabyte is the argument; 0..255 only.
SELECT sno_meta(sno_new()) AS default_meta, sno_meta(sno_new(200)) AS meta;
SELECT regress_error('SELECT sno_new(256)');
SELECT regress_error('SELECT sno_new(-1)');

-- Partition: by default folded from the system identifier, the timeline and a number drawn at
-- every server start (so it changes across restarts, as upstream's does), the same for every call
-- and session of one start; else the setting.
SELECT count(DISTINCT sno_partition(sno_new())) AS default_partitions_in_one_session FROM generate_series(1, 1000);
SELECT sno_partition(sno_new()) = (SELECT p FROM dblink(format('dbname=%s host=%s port=%s', current_database(),
           current_setting('unix_socket_directories'), current_setting('port')), 'SELECT sno_partition(sno_new())') AS t(p int))
       AS another_session_has_the_same;
SET comb_ext.sno_partition = 4660;
SELECT sno_partition(sno_new()) AS partition;
SELECT regress_error('SET comb_ext.sno_partition = 65536');
RESET comb_ext.sno_partition;

-- Sequence sharding: with bounds 1000..1003 only four values fit in a unit; the fifth waits for
-- the next unit instead of repeating or failing.
SET comb_ext.sno_sequence_min = 1000;
SET comb_ext.sno_sequence_max = 1003;
CREATE TEMP TABLE sharded AS SELECT n, sno_new() AS id FROM generate_series(1, 20) n;
SELECT count(DISTINCT id) AS distinct_ids, min(sno_sequence(id)) AS lowest, max(sno_sequence(id)) AS highest,
       count(DISTINCT sno_time(id)) >= 5 AS spread_over_at_least_5_units,
       bool_and(id::bytea > previous::bytea) FILTER (WHERE n > 1) AS strictly_increasing
FROM (SELECT n, id, lag(id) OVER (ORDER BY n) AS previous FROM sharded) s;
-- A pool below sno's minimum of four is refused, naming both settings.
SET comb_ext.sno_sequence_max = 1002;
SELECT regress_error('SELECT sno_new()');
SET comb_ext.sno_sequence_min = 2000;
SELECT regress_error('SELECT sno_new()');
RESET comb_ext.sno_sequence_min;
RESET comb_ext.sno_sequence_max;

-- The settings that decide uniqueness across servers are for superusers only.
SELECT name, context FROM pg_settings WHERE name LIKE 'comb_ext.sno%' ORDER BY name;
CREATE ROLE regress_sno_user;
SET ROLE regress_sno_user;
SELECT regress_error('SET comb_ext.sno_partition = 1');
SELECT regress_error('SET comb_ext.sno_sequence_min = 1');
SELECT regress_error('SET comb_ext.sno_sequence_max = 100');
SELECT sno_new() IS NOT NULL AS anyone_may_generate;
RESET ROLE;
DROP ROLE regress_sno_user;

-- A waiting sno_new can be cancelled: a pool of four per 4 ms and a statement timeout.
SET comb_ext.sno_sequence_max = 3;
SET statement_timeout = '50ms';
SELECT count(sno_new()) FROM generate_series(1, 1000000);
RESET statement_timeout;
RESET comb_ext.sno_sequence_max;
