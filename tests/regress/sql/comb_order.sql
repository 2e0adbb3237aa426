--
-- Order across sessions: the bits right after each format's time unit carry the time's fraction of
-- the unit (RFC 9562 method 3, as PostgreSQL 18's uuidv7()), so values from concurrent sessions
-- interleave in real time, and the btree of a primary key is filled at its right edge.
--
SET TimeZone = 'UTC';

-- The fraction, exactly: 0.5 ms into a millisecond is 2048 of 4096, in the 12 bits after the time
-- (uuidv7's rand_a; the postgresql placement's low nibble of byte 6 and byte 7; the sqlserver
-- placement's bytes 8-9 around the variant bits; the rest of those bytes is random). sqldatetime:
-- 5000 µs after midnight is half of the second 1/300 s unit. Ticks count 100 ns from a µs clock: no fraction bits.
SELECT f, substr(u::text, 15, 1) AS version,
       CASE WHEN f IN ('sqlserver', 'legacy')
            THEN ((get_byte(uuid_send(u), 8) & 63) << 6) | (get_byte(uuid_send(u), 9) >> 2)
            ELSE ((get_byte(uuid_send(u), 6) & 15) << 8) | get_byte(uuid_send(u), 7) END AS fraction_of_4096
FROM (VALUES ('postgresql'::comb_format, '2024-01-02 03:04:05.6785+00'::timestamptz),
             ('uuidv7', '2024-01-02 03:04:05.6785+00'), ('sqlserver', '2024-01-02 03:04:05.6785+00'),
             ('postgresql_sqldatetime', '2024-01-02 00:00:00.005+00'), ('legacy', '2024-01-02 00:00:00.005+00')) v(f, t),
     LATERAL comb_uuid(t, f) u
ORDER BY f;

-- The fraction of the wall clock: each value lies between its neighbours' clock readings. The
-- 60 bits of millisecond and fraction, read back as µs, are within the readings' µs (rounded down
-- to the 1/4096 ms step).
CREATE TEMP TABLE bracketed AS
SELECT f, before, comb_uuid(f) AS id, clock_timestamp() AS after
FROM unnest(ARRAY['postgresql', 'uuidv7']::comb_format[]) f,
     LATERAL (SELECT clock_timestamp() AS before FROM generate_series(1, 2000)) g;
SELECT f, count(*) AS values,
       count(*) FILTER (WHERE stamp_us >= floor(extract(epoch FROM before) * 1e6) - 1
                          AND stamp_us <= extract(epoch FROM after) * 1e6) AS within_readings
FROM (SELECT f, before, after,
             ('x' || substr(replace(id::text, '-', ''), 1, 12))::bit(48)::bigint * 1000
             + ('x' || substr(replace(id::text, '-', ''), 14, 3))::bit(12)::int * 1000 / 4096.0 AS stamp_us
      FROM bracketed) s
GROUP BY f ORDER BY f;

-- Four sessions at once, 20,000 values each per format, each row with its clock reading.
-- Read in the format's order (regress_order_key), the clock should not go back by more than the
-- time between the generator call and the clock_timestamp() call next to it: count the adjacent
-- pairs where it goes back by more than 100 µs. The reference is a key with the same millisecond
-- and random bits after it (comb_stamp of a v4 uuid), as the counters were before: sessions then
-- interleave at random within the millisecond.
CREATE TABLE order_made (f text, session int, id uuid, at timestamptz);
DO $$
DECLARE f text;
BEGIN
    FOR f IN SELECT unnest(enum_range(NULL::comb_format))::text UNION ALL SELECT 'random within the ms' LOOP
        PERFORM regress_concurrently(4, 'SET TimeZone = ''UTC''',
            format('INSERT INTO order_made SELECT %L, %%s, %s, clock_timestamp() FROM generate_series(1, 20000)',
                   f, CASE WHEN f = 'random within the ms' THEN 'comb_stamp(gen_random_uuid(), clock_timestamp())'
                           ELSE format('comb_uuid(%L)', f) END));
    END LOOP;
END $$;
SELECT f, count(*) AS values, count(DISTINCT session) AS sessions,
       count(DISTINCT session) FILTER (WHERE session <> previous_session) > 1 AS sessions_interleave,
       round(100.0 * count(*) FILTER (WHERE at < previous_at - interval '100 microseconds') / count(*), 1)
           < CASE WHEN f = 'random within the ms' THEN 100 ELSE 1 END AS clock_goes_back_in_under_1_percent,
       count(*) FILTER (WHERE at < previous_at - interval '100 microseconds') > count(*) / 10
           AS reference_goes_back_in_over_10_percent
FROM (SELECT f, session, at,
             lag(at) OVER w AS previous_at, lag(session) OVER w AS previous_session
      FROM order_made
      WINDOW w AS (PARTITION BY f ORDER BY regress_order_key(id, CASE WHEN f = 'random within the ms'
                                                                THEN 'postgresql' ELSE f END::comb_format))) s
GROUP BY f ORDER BY f;
DROP TABLE order_made;
