--
-- 8-byte unique IDs as bigint: layout by hand, errors, settings, and how a session claims,
-- keeps and gives back its generator id.
--
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';

-- Layout worked out by hand (docs/formats-reference.md): TIME_SEQUENTIAL is ts << 22 with the mode bit (bit 12);
-- SPREAD reverses the timestamp's 64 bits, so ms 1 sets the sign bit.
SELECT uid8_from_parts(1, 0, 0, 0, 'time_sequential') = ((1::bigint << 22) | (1 << 12)) AS time_sequential_layout,
       uid8_from_parts(1, 0, 0, 0) AS spread_ms_1,
       uid8_to_bytea(uid8_from_parts(0, 42, 1475, 9)) AS fields_bytes;
SELECT id, uid8_timestamp(id), uid8_sequence(id), uid8_generator(id), uid8_cluster(id), uid8_mode(id)
FROM (VALUES (uid8_from_parts(1700000000123, 63, 2047, 15)),
             (uid8_from_parts(1700000000123, 63, 2047, 15, 'time_sequential')),
             (uid8_from_parts(4398046511103, 0, 0, 0, 'time_sequential'))) v(id);
-- TIME_SEQUENTIAL ids turn negative as a signed bigint from 2039-09-07 (bit 63 = ts bit 41).
SELECT uid8_from_parts(2199023255551, 0, 0, 0, 'time_sequential') > 0 AS before_2039,
       uid8_from_parts(2199023255552, 0, 0, 0, 'time_sequential') < 0 AS from_2039,
       to_timestamp(2199023255552 / 1000.0) AS turns_negative_at;

-- Every field is checked (22003, naming it and its range); bytea is exactly 8 bytes (22P03).
SELECT regress_error('SELECT uid8_from_parts(-1, 0, 0, 0)');
SELECT regress_error('SELECT uid8_from_parts(4398046511104, 0, 0, 0)');
SELECT regress_error('SELECT uid8_from_parts(0, 64, 0, 0)');
SELECT regress_error('SELECT uid8_from_parts(0, -1, 0, 0)');
SELECT regress_error('SELECT uid8_from_parts(0, 0, 2048, 0)');
SELECT regress_error('SELECT uid8_from_parts(0, 0, 0, 16)');
SELECT regress_error($$SELECT uid8_from_bytea('\x00000000000000')$$);
SELECT regress_error($$SELECT uid8_from_bytea('\x000000000000000000')$$);

-- uid8_new: the wall clock in ms, the cluster id setting, this session's generator id. A first id
-- is usable from the millisecond after its claim, and its millisecond may lie up to
-- comb_ext.uid8_run_ahead (2 s) past the clock instead of waiting; at 0 it is the clock's.
SHOW comb_ext.uid8_run_ahead;
SELECT clock_timestamp() AS before \gset
SELECT uid8_new() AS fresh \gset
SELECT clock_timestamp() AS after \gset
SELECT uid8_timestamp(:fresh) BETWEEN date_trunc('milliseconds', :'before'::timestamptz)
       AND :'after'::timestamptz + current_setting('comb_ext.uid8_run_ahead')::interval AS within_the_run_ahead;
SET comb_ext.uid8_run_ahead = 0;
SELECT pg_advisory_unlock_all();
SELECT clock_timestamp() AS before \gset
SELECT uid8_new() AS fresh \gset
SELECT clock_timestamp() AS after \gset
RESET comb_ext.uid8_run_ahead;
SELECT uid8_timestamp(:fresh) BETWEEN date_trunc('milliseconds', :'before'::timestamptz) AND :'after' AS time_is_now,
       uid8_mode(:fresh) AS default_mode, uid8_mode(uid8_new('time_sequential')) AS mode,
       uid8_cluster(:fresh) AS cluster;
SET comb_ext.uid8_cluster_id = 9;
SELECT uid8_cluster(uid8_new()) AS cluster;
SELECT regress_error('SET comb_ext.uid8_cluster_id = 16');

-- The generator id is held as an advisory lock of the extension's own (database 0, objsubid 8).
-- With comb_ext.uid8_generators_per_session = 1 (uid8_bulk covers more), it is the same for
-- every call of the session.
SET comb_ext.uid8_generators_per_session = 1;
SELECT count(DISTINCT uid8_generator(id)) AS generator_ids, count(DISTINCT id) AS distinct_ids,
       bool_and(id > previous) FILTER (WHERE n > 1) AS time_sequential_increasing
FROM (SELECT n, id, lag(id) OVER (ORDER BY n) AS previous
      FROM (SELECT n, uid8_new('time_sequential') AS id FROM generate_series(1, 5000) n) g) s;
SELECT count(*) AS locks_held FROM pg_locks
WHERE locktype = 'advisory' AND database = 0 AND objsubid = 8 AND pid = pg_backend_pid()
  AND objid::text::int = (uid8_generator(uid8_new()) | (9 << 11));
-- An ERROR does not release it; pg_advisory_unlock_all() does, and the next call claims again.
SELECT regress_error('SELECT 1 / 0');
SELECT count(*) AS still_held FROM pg_locks WHERE locktype = 'advisory' AND database = 0 AND objsubid = 8 AND pid = pg_backend_pid();
SELECT pg_advisory_unlock_all();
SELECT count(*) AS released FROM pg_locks WHERE locktype = 'advisory' AND database = 0 AND objsubid = 8 AND pid = pg_backend_pid();
SELECT uid8_new() IS NOT NULL AS claimed_again,
       (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = 0 AND objsubid = 8 AND pid = pg_backend_pid()) AS held;

-- Pinning: comb_ext.uid8_generator_id claims exactly that id; another session cannot take it
-- while this one lives, and can once it has ended.
SET comb_ext.uid8_generator_id = 1234;
SELECT uid8_generator(uid8_new()) AS pinned;
SELECT dblink_connect('other', format('dbname=%s host=%s port=%s', current_database(),
                      current_setting('unix_socket_directories'), current_setting('port')));
SELECT * FROM dblink('other', $$SELECT pg_backend_pid()$$) AS t(pid int) \gset other_
SELECT regress_error(format('SELECT * FROM dblink(%L, %L) AS t(id bigint)', 'other',
       'SET comb_ext.uid8_cluster_id = 9; SET comb_ext.uid8_generator_id = 1234; SELECT uid8_new()'));
SELECT * FROM dblink('other', $$SET comb_ext.uid8_cluster_id = 9; SET comb_ext.uid8_generator_id = 1235; SELECT uid8_generator(uid8_new())$$) AS t(generator int);
-- Unpinned again, the session keeps the id it holds.
RESET comb_ext.uid8_generator_id;
SELECT uid8_generator(uid8_new()) AS kept;
-- Once the other session has ended, its id is free.
SELECT dblink_disconnect('other');
CREATE FUNCTION pg_temp.wait_until_gone(p int) RETURNS bool LANGUAGE plpgsql AS $$
BEGIN
    LOOP
        PERFORM pg_stat_clear_snapshot();
        EXIT WHEN NOT EXISTS (SELECT FROM pg_stat_activity WHERE pid = p);
        PERFORM pg_sleep(0.01);
    END LOOP;
    RETURN true;
END $$;
SELECT pg_temp.wait_until_gone(:other_pid);
SET comb_ext.uid8_generator_id = 1235;
SELECT uid8_generator(uid8_new()) AS taken_over;
RESET comb_ext.uid8_generator_id;

-- An id let go in the middle of a millisecond (pg_advisory_unlock_all() inside a transaction) and
-- taken at once by another session. A session checks that it still holds an id at the first id of
-- each millisecond on it, so it finishes the millisecond it is in; the other session starts past
-- that millisecond (the high-water of each id), so no value is made twice. This session's next
-- millisecond finds the id gone: pinned, it fails with 55P03. Its ids run half a second ahead of
-- the clock (64 a millisecond on one id), so the steps between stay inside one millisecond; it
-- fills its millisecond (sequence 63) first, so the next one holds exactly the 10 + 20 ids below.
SET comb_ext.uid8_generator_id = 1300;
BEGIN;
CREATE TEMP TABLE handed_over AS
    SELECT 'here' AS side, uid8_new('time_sequential') AS id FROM generate_series(1, 64 * 500);
DO $$
DECLARE next bigint;
BEGIN
    LOOP
        next := uid8_new('time_sequential');
        INSERT INTO handed_over VALUES ('here', next);
        EXIT WHEN uid8_sequence(next) = 63;
    END LOOP;
END $$;
INSERT INTO handed_over SELECT 'here', uid8_new('time_sequential') FROM generate_series(1, 10);
SELECT uid8_timestamp(max(id)) > clock_timestamp() + interval '200 ms' AS ran_ahead FROM handed_over;
SELECT pg_advisory_unlock_all();
SELECT dblink_connect('taker', format('dbname=%s host=%s port=%s', current_database(),
                      current_setting('unix_socket_directories'), current_setting('port')));
INSERT INTO handed_over SELECT 'there', id FROM dblink('taker', $$SET comb_ext.uid8_cluster_id = 9;
    SET comb_ext.uid8_generator_id = 1300; SELECT uid8_new('time_sequential') FROM generate_series(1, 100)$$) AS t(id bigint);
INSERT INTO handed_over SELECT 'here', uid8_new('time_sequential') FROM generate_series(1, 20);
SELECT count(*) = (SELECT count(DISTINCT id) FROM handed_over) AS distinct_ids,
       count(*) FILTER (WHERE side = 'here' AND uid8_timestamp(id) = (SELECT max(uid8_timestamp(id)) FROM handed_over WHERE side = 'here')) AS in_the_last_millisecond,
       max(id) FILTER (WHERE side = 'here') < min(id) FILTER (WHERE side = 'there') AS taker_starts_past_it,
       min(uid8_timestamp(id)) FILTER (WHERE side = 'there') - max(uid8_timestamp(id)) FILTER (WHERE side = 'here') AS taker_starts_at
FROM handed_over;
SELECT regress_error($$SELECT uid8_new('time_sequential') FROM generate_series(1, 64)$$);
ROLLBACK;
SELECT dblink_disconnect('taker');
RESET comb_ext.uid8_generator_id;

-- Only superusers change the settings.
SELECT name, context FROM pg_settings WHERE name LIKE 'comb_ext.uid8%' ORDER BY name;
CREATE ROLE regress_uid8_user;
SET ROLE regress_uid8_user;
SELECT regress_error('SET comb_ext.uid8_cluster_id = 1');
SELECT regress_error('SET comb_ext.uid8_generator_id = 1');
SELECT regress_error('SET comb_ext.uid8_generators_per_session = 4');
SELECT regress_error('SET comb_ext.uid8_generator_share = 2048');
SELECT uid8_new() IS NOT NULL AS anyone_may_generate;
-- The run-ahead is the session's own pace: any role sets it.
SET comb_ext.uid8_run_ahead = 0;
RESET comb_ext.uid8_run_ahead;
RESET ROLE;
DROP ROLE regress_uid8_user;
RESET comb_ext.uid8_cluster_id;
RESET comb_ext.uid8_generators_per_session;
