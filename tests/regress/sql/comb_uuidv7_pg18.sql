--
-- The uuidv7 comb_format against PostgreSQL 18's own uuidv7(), uuid_extract_timestamp() and
-- uuid_extract_version(), both ways. Before 18 those functions do not exist: the alternative
-- output (comb_uuidv7_pg18_1.out) says so and nothing else.
--
SET TimeZone = 'UTC';
SELECT current_setting('server_version_num')::int >= 180000 AS pg18 \gset
\if :pg18
-- Ours read by PostgreSQL: 100,000 from the wall clock and 100,000 over 1970-2100.
SELECT count(*) AS values,
       count(*) FILTER (WHERE uuid_extract_timestamp(u) = comb_timestamp(u, 'uuidv7')) AS same_ms,
       count(*) FILTER (WHERE uuid_extract_version(u) = 7) AS version_7
FROM (SELECT comb_uuid('uuidv7') AS u FROM generate_series(1, 100000)
      UNION ALL
      SELECT comb_uuid('1970-01-01 00:00+00'::timestamptz + i * interval '11 h 33 min 12.345678 s', 'uuidv7')
      FROM generate_series(0, 99999) i) s;

-- PostgreSQL's read by ours: uuidv7() and uuidv7(interval), shifted back and forth.
SELECT shift, count(*) AS values,
       count(*) FILTER (WHERE comb_timestamp(u, 'uuidv7') = uuid_extract_timestamp(u)) AS same_ms
FROM (VALUES (interval '0'), ('-20 years'), ('-1 day -0.5 ms'), ('1 ms'), ('70 years 3 days')) v(shift),
     LATERAL (SELECT uuidv7(shift) AS u FROM generate_series(1, 20000)) g
GROUP BY shift ORDER BY shift;

-- Mixed in one column, made alternately by one session: sorted by value, they come back in the
-- order they were made, except that ours and PostgreSQL's made within one 1/4096 ms step tie on
-- time and fraction and are ordered by their random bits (so neighbours may swap).
CREATE TEMP TABLE mixed AS
SELECT i, CASE WHEN i % 2 = 0 THEN uuidv7() ELSE comb_uuid('uuidv7') END AS u
FROM generate_series(1, 100000) i;
SELECT count(*) AS values, max(displacement) <= 2 AS at_most_neighbours_swap,
       count(*) FILTER (WHERE displacement > 0) < count(*) / 10 AS swaps_under_10_percent
FROM (SELECT abs(i - row_number() OVER (ORDER BY u)) AS displacement FROM mixed) s;
-- And a range scan of the mixed column picks both kinds by time.
CREATE INDEX ON mixed (u);
SELECT count(*) = (SELECT count(*) FROM mixed) AS all_in_range,
       count(*) FILTER (WHERE i % 2 = 0) AS postgresql_made
FROM mixed WHERE comb_in_range(u, now() - interval '1 hour', clock_timestamp() + interval '1 ms', 'uuidv7');

-- PostgreSQL 18's whole range (uuid.c: 1970-01-01 to UUIDV7_MAX_TIMESTAMP, 2^48 - 1 ms, which is
-- 10889-08-02 05:31:50.655 UTC), past .NET's end of 9999: the edges read alike both ways.
SET DateStyle = 'ISO, YMD';
SELECT u, uuid_extract_timestamp(u) AS postgresql, comb_timestamp(u, 'uuidv7') AS ours
FROM (VALUES ('ffffffff-ffff-7fff-bfff-ffffffffffff'::uuid), ('ffffffff-ffff-7000-8000-000000000000'),
             ('e677d21f-dc00-7000-8000-000000000000'), ('e677d21f-dbff-7fff-bfff-ffffffffffff'),
             ('00000000-0000-7000-8000-000000000000')) v(u);
-- Ours made over the last 10,000 days of the range, to its last instant, read by PostgreSQL.
SELECT count(*) AS values,
       count(*) FILTER (WHERE uuid_extract_timestamp(u) = date_trunc('milliseconds', t)) AS same_ms
FROM (SELECT t, comb_uuid(t, 'uuidv7') AS u
      FROM (SELECT '10889-08-02 05:31:50.655+00'::timestamptz - i * interval '1 day 0.3456 ms' AS t
            FROM generate_series(0, 9999) i) g) s;
-- PostgreSQL's made in year 10889 (a minute before the end) and past 9999, read by ours.
SELECT count(*) AS values,
       count(*) FILTER (WHERE comb_timestamp(u, 'uuidv7') = uuid_extract_timestamp(u)) AS same_ms,
       count(*) FILTER (WHERE extract(year FROM comb_timestamp(u, 'uuidv7')) IN (10000, 10889)) AS past_9999
FROM (SELECT uuidv7(shift) AS u
      FROM (VALUES ('10889-08-02 05:30:50+00'::timestamptz - now()), ('10000-01-01 00:00+00'::timestamptz - now())) v(shift),
           generate_series(1, 5000)) g;
-- Both refuse the same times: past the end, before 1970 and infinity are 22008.
SELECT regress_error($$SELECT uuidv7('10889-08-03 00:00+00'::timestamptz - now())$$) AS postgresql,
       regress_error($$SELECT comb_uuid('10889-08-03 00:00+00'::timestamptz, 'uuidv7')$$) AS ours;
SELECT regress_error($$SELECT uuidv7('1969-12-31 00:00+00'::timestamptz - now())$$) AS postgresql,
       regress_error($$SELECT comb_uuid('1969-12-31 00:00+00'::timestamptz, 'uuidv7')$$) AS ours;
SELECT regress_error($$SELECT uuidv7('infinity'::interval)$$) AS postgresql,
       regress_error($$SELECT comb_uuid('infinity'::timestamptz, 'uuidv7')$$) AS ours;
\else
\echo 'PostgreSQL before 18: no uuidv7(), uuid_extract_timestamp() or uuid_extract_version() to compare with'
\endif
