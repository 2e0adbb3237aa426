--
-- uid8_new at bulk speed: a session that has used a millisecond's 64 sequence numbers on every
-- generator id it holds claims one more, up to comb_ext.uid8_generators_per_session (16 by
-- default), which is usable from the next millisecond on. TIME_SEQUENTIAL IDs of one session
-- still strictly increase: within a millisecond, sequence s goes to every id in ascending order
-- before s + 1.
--
SET comb_ext.uid8_cluster_id = 5;
SHOW comb_ext.uid8_generators_per_session;
SELECT regress_error('SET comb_ext.uid8_generators_per_session = 0');
SELECT regress_error('SET comb_ext.uid8_generators_per_session = 2049');

-- The identity column numbers the rows in the order uid8_new made them (both are evaluated
-- row by row in the INSERT's one projection).
CREATE TABLE uid8_bulk (n bigint GENERATED ALWAYS AS IDENTITY, id bigint);
CREATE FUNCTION pg_temp.bulk_report() RETURNS TABLE (made bigint, distinct_ids bigint, generator_ids bigint,
        out_of_order bigint, cluster_5 bool, ids_first_used_after_the_first_ms bigint, locks_match bool,
        every_id_used_held bool)
LANGUAGE sql AS $$
    WITH g AS (SELECT uid8_generator(id) AS generator, min(uid8_timestamp(id)) AS first_used
               FROM uid8_bulk GROUP BY 1)
    SELECT (SELECT count(*) FROM uid8_bulk),
           (SELECT count(DISTINCT id) FROM uid8_bulk),
           (SELECT count(*) FROM g),
           (SELECT count(*) FILTER (WHERE id <= previous)
            FROM (SELECT id, lag(id) OVER (ORDER BY n) AS previous FROM uid8_bulk) s),
           (SELECT bool_and(uid8_cluster(id) = 5) FROM uid8_bulk),
           (SELECT count(*) FROM g WHERE first_used > (SELECT min(first_used) FROM g)),
           -- pg_locks shows exactly the ids used (objid = cluster * 2048 + generator).
           (SELECT array_agg(objid::text::int - 5 * 2048 ORDER BY objid) FROM pg_locks
            WHERE locktype = 'advisory' AND database = 0 AND objsubid = 8 AND pid = pg_backend_pid())
           = (SELECT array_agg(generator ORDER BY generator) FROM g),
           -- Every id used is held (it may hold more: one claimed for a millisecond the statement did not reach).
           (SELECT array_agg(objid::text::int - 5 * 2048) FROM pg_locks
            WHERE locktype = 'advisory' AND database = 0 AND objsubid = 8 AND pid = pg_backend_pid())
           @> (SELECT array_agg(generator) FROM g)
$$;

-- 100,000 in one statement: more than one id (a row takes far less than the 1/64 ms one id
-- allows), at most 16. Only the first id is used in the first millisecond: every other one
-- joins in a later millisecond than its claim. The extra ids are held until the transaction
-- ends, then the session keeps only its lowest (an idle session holds one id).
BEGIN;
INSERT INTO uid8_bulk (id) SELECT uid8_new('time_sequential') FROM generate_series(1, 100000);
SELECT made, distinct_ids, generator_ids > 1 AS more_than_one_id, generator_ids <= 16 AS at_most_16,
       out_of_order, cluster_5, ids_first_used_after_the_first_ms = generator_ids - 1 AS later_ids_join_later,
       locks_match
FROM pg_temp.bulk_report();
COMMIT;
SELECT min(uid8_generator(id)) AS lowest_id FROM uid8_bulk \gset
SELECT array_agg(objid::text::int - 5 * 2048) = ARRAY[:lowest_id] AS only_the_lowest_held_after_commit
FROM pg_locks WHERE locktype = 'advisory' AND database = 0 AND objsubid = 8 AND pid = pg_backend_pid();
-- The same after a rollback, and the next transaction claims extra ids again.
BEGIN;
SELECT count(uid8_new('time_sequential')) FROM generate_series(1, 100000);
SELECT count(*) > 1 AS extra_ids_held FROM pg_locks
WHERE locktype = 'advisory' AND database = 0 AND objsubid = 8 AND pid = pg_backend_pid();
-- The lowest id held now: a lower one than the first transaction's may have been claimed as an extra,
-- freed meanwhile by a session that ended (a backend exits after its client has gone).
SELECT min(objid::text::int - 5 * 2048) AS lowest_id FROM pg_locks
WHERE locktype = 'advisory' AND database = 0 AND objsubid = 8 AND pid = pg_backend_pid() \gset
ROLLBACK;
SELECT array_agg(objid::text::int - 5 * 2048) = ARRAY[:lowest_id] AS only_the_lowest_held_after_rollback
FROM pg_locks WHERE locktype = 'advisory' AND database = 0 AND objsubid = 8 AND pid = pg_backend_pid();

-- Lowered to 1, the session lets go of all but its lowest id and makes 64 IDs a millisecond on
-- it, waiting past them.
SET comb_ext.uid8_generators_per_session = 1;
TRUNCATE uid8_bulk;
INSERT INTO uid8_bulk (id) SELECT uid8_new('time_sequential') FROM generate_series(1, 20000);
SELECT made, distinct_ids, generator_ids, out_of_order, cluster_5, locks_match,
       (SELECT min(uid8_generator(id)) FROM uid8_bulk) = :lowest_id AS kept_the_lowest,
       (SELECT max(c) FROM (SELECT count(*) AS c FROM uid8_bulk GROUP BY uid8_timestamp(id)) m) AS most_in_one_ms
FROM pg_temp.bulk_report();

-- A pinned id is the only one, whatever the setting.
SET comb_ext.uid8_generators_per_session = 2048;
SET comb_ext.uid8_generator_id = 2000;
TRUNCATE uid8_bulk;
INSERT INTO uid8_bulk (id) SELECT uid8_new('time_sequential') FROM generate_series(1, 20000);
SELECT made, distinct_ids, generator_ids, out_of_order, locks_match,
       (SELECT min(uid8_generator(id)) FROM uid8_bulk) AS generator
FROM pg_temp.bulk_report();
RESET comb_ext.uid8_generator_id;

-- pg_advisory_unlock_all() (as DISCARD ALL) lets go of every id; the next calls claim again. With no
-- limit in reach the session goes on claiming as it runs ahead of the clock's pace, so it may end the
-- statement holding an id claimed for a millisecond it did not reach: every id used is held.
SELECT pg_advisory_unlock_all();
TRUNCATE uid8_bulk;
BEGIN;
INSERT INTO uid8_bulk (id) SELECT uid8_new('time_sequential') FROM generate_series(1, 100000);
SELECT made, distinct_ids, generator_ids > 1 AS more_than_one_id, generator_ids <= 2048 AS at_most_the_setting,
       out_of_order, every_id_used_held
FROM pg_temp.bulk_report();
COMMIT;

-- A new cluster id lets go of every id of the old one.
SET comb_ext.uid8_cluster_id = 6;
SELECT uid8_cluster(uid8_new()) AS cluster;
SELECT (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = 0 AND objsubid = 8
        AND pid = pg_backend_pid() AND objid::text::int / 2048 = 5) AS held_of_cluster_5,
       (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = 0 AND objsubid = 8
        AND pid = pg_backend_pid() AND objid::text::int / 2048 = 6) AS held_of_cluster_6;

-- Only superusers change the setting.
CREATE ROLE regress_uid8_bulk_user;
SET ROLE regress_uid8_bulk_user;
SELECT regress_error('SET comb_ext.uid8_generators_per_session = 4');
RESET ROLE;
DROP ROLE regress_uid8_bulk_user;
DROP TABLE uid8_bulk;
RESET comb_ext.uid8_generators_per_session;
RESET comb_ext.uid8_cluster_id;
