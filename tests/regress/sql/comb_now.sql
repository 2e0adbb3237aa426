--
-- comb_uuid() reads the wall clock at each call (not the transaction start): its time lies
-- between clock_timestamp() read just before and just after, give or take one clock unit.
--
SET TimeZone = 'UTC';
BEGIN;
SELECT pg_sleep(0.05);
SELECT f,
       comb_timestamp(id, f) >= t0 - unit AND comb_timestamp(id, f) <= t1 AS within_the_call,
       comb_timestamp(id, f) > now() + interval '40 ms' AS after_transaction_start
FROM (SELECT f, clock_timestamp() t0, comb_uuid(f) id, clock_timestamp() t1,
             CASE WHEN f::text LIKE '%sqldatetime' OR f = 'legacy' THEN interval '3.34 ms'
                  ELSE interval '1 ms' END AS unit
      FROM unnest(enum_range(NULL::comb_format)) f) s;
COMMIT;
