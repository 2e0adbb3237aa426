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
