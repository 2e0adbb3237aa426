--
-- Watermarks (docs/reading-in-order.md: "Reading rows in id order"): ids made after a watermark are not below it; an
-- open transaction that made ids holds the watermark at or below its earliest id, and is shown by
-- comb_watermark_holders(); when it ends, the watermark passes its ids.
--
SELECT comb_watermark() <= comb_uuid() AS comb_after,
       sno_watermark() <= sno_new() AS sno_after,
       muid_watermark() <= muid_new() AS muid_after,
       uid8_watermark() <= uid8_new('time_sequential') AS uid8_after,
       comb_watermark('uuidv7') <= comb_uuid('uuidv7') AS uuidv7_after,
       comb_watermark('sqlserver') #<=# comb_uuid('sqlserver') AS sqlserver_after;

-- A second session makes one id of each family in an open transaction.
SELECT format('host=%s port=%s dbname=%s', current_setting('unix_socket_directories'), current_setting('port'), current_database()) AS conn \gset
SELECT dblink_connect('holder', :'conn');
SELECT dblink_exec('holder', 'BEGIN');
CREATE TEMP TABLE held AS
SELECT * FROM dblink('holder', $$SELECT pg_backend_pid(), comb_uuid(), sno_new(), muid_new(), uid8_new('time_sequential')$$)
    AS t(pid int, comb uuid, sno sno, muid uuid, uid8 bigint);
SELECT comb_watermark() <= comb AS comb_held, sno_watermark() <= sno AS sno_held,
       muid_watermark() <= muid AS muid_held, uid8_watermark() <= uid8 AS uid8_held
FROM held;
SELECT h.family, h.pid = held.pid AS holder, h.prepared_xid
FROM comb_watermark_holders() h, held WHERE h.pid = held.pid ORDER BY h.family;
SELECT dblink_exec('holder', 'COMMIT');
-- A uid8 may lie up to comb_ext.uid8_run_ahead (2 s) past the clock (its generator id's last holder
-- in uid8_bulk ran ahead), and the watermark passes it once the clock has too: wait for that.
DO $$ BEGIN
    WHILE clock_timestamp() < (SELECT uid8_timestamp(uid8) FROM held) + interval '1 ms' LOOP
        PERFORM pg_sleep(0.005);
    END LOOP;
END $$;
-- Past the ids' clock units (a sno's is 4 ms).
SELECT pg_sleep(0.01);
SELECT comb_watermark() > comb AS comb_passed, sno_watermark() > sno AS sno_passed,
       muid_watermark() > muid AS muid_passed, uid8_watermark() > uid8 AS uid8_passed
FROM held;
SELECT count(*) AS holders_left FROM comb_watermark_holders() h, held WHERE h.pid = held.pid;

-- An aborted transaction lets go too.
SELECT dblink_exec('holder', 'BEGIN');
SELECT count(*) AS made FROM dblink('holder', 'SELECT sno_new()::text') AS t(id text);
SELECT count(*) AS holding FROM comb_watermark_holders() h, held WHERE h.pid = held.pid;
SELECT dblink_exec('holder', 'ROLLBACK');
SELECT count(*) AS after_rollback FROM comb_watermark_holders() h, held WHERE h.pid = held.pid;
SELECT dblink_disconnect('holder');

-- A PREPARE that fails (max_prepared_transactions is 0 on this server) after ids were made leaves
-- no file behind: 0.5.0 wrote comb_ext/prepared/<xid> before PREPARE's own checks and kept it,
-- one file per failed PREPARE, for any role.
SELECT count(*) AS prepared_files_before FROM pg_ls_dir('comb_ext/prepared', true, false);
-- (Terse: the hint's wording differs between majors.)
\set VERBOSITY terse
BEGIN;
SELECT comb_uuid() IS NOT NULL AS made, sno_new() IS NOT NULL AS made_sno;
PREPARE TRANSACTION 'regress_watermark_fails';
BEGIN;
SELECT muid_new() IS NOT NULL AS made;
PREPARE TRANSACTION 'regress_watermark_fails_again';
\set VERBOSITY default
SELECT count(*) AS prepared_files_after FROM pg_ls_dir('comb_ext/prepared', true, false);
SELECT count(*) AS holders_after FROM comb_watermark_holders() WHERE pid = pg_backend_pid();

-- A transaction in another database does not hold this one's watermarks back, nor show among its
-- holders: a reader's rows are in its own database.
CREATE DATABASE regress_watermark_other;
SELECT format('host=%s port=%s dbname=regress_watermark_other', current_setting('unix_socket_directories'), current_setting('port')) AS other \gset
SELECT dblink_connect('other', :'other');
SELECT dblink_exec('other', 'CREATE EXTENSION comb_ext');
SELECT dblink_exec('other', 'BEGIN');
CREATE TEMP TABLE held_elsewhere AS
SELECT * FROM dblink('other', $$SELECT pg_backend_pid(), comb_uuid(), sno_new()$$) AS t(pid int, comb uuid, sno sno);
-- Here, it holds nothing back; there, it does.
SELECT pg_sleep(0.01);
SELECT comb_watermark() > comb AS comb_passed_here, sno_watermark() > sno AS sno_passed_here,
       (SELECT count(*) FROM comb_watermark_holders() h WHERE h.pid = e.pid) AS shown_here
FROM held_elsewhere e;
SELECT * FROM dblink('other', $$SELECT count(*) FROM comb_watermark_holders() WHERE pid = pg_backend_pid()$$)
    AS t(families_shown_there bigint);
SELECT dblink_exec('other', 'COMMIT');
SELECT dblink_disconnect('other');
DROP DATABASE regress_watermark_other;

-- Another role sees that a session holds, and since when only as pg_stat_activity would show it.
CREATE ROLE regress_watermark_reader;
SELECT dblink_connect('holder', :'conn');
SELECT dblink_exec('holder', 'BEGIN');
CREATE TEMP TABLE holder_now AS SELECT * FROM dblink('holder', 'SELECT pg_backend_pid(), comb_uuid()') AS t(pid int, id uuid);
GRANT SELECT ON holder_now TO regress_watermark_reader;
SET ROLE regress_watermark_reader;
SELECT family, held_since IS NULL AS time_hidden FROM comb_watermark_holders() h
WHERE h.pid = (SELECT pid FROM holder_now);
RESET ROLE;
SELECT family, held_since IS NULL AS time_hidden FROM comb_watermark_holders() h
WHERE h.pid = (SELECT pid FROM holder_now);
SELECT dblink_exec('holder', 'COMMIT');
SELECT dblink_disconnect('holder');
DROP TABLE holder_now;
DROP ROLE regress_watermark_reader;
