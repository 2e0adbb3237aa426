--
-- The uuidv7 comb_format: RFC 9562 UUIDv7 laid out as PostgreSQL 18's uuidv7(): unix ms in bytes
-- 0-5, version 7, 12 bits of the millisecond's fraction, variant 10, 62 random bits. Works with
-- every COMB function on every major (uuidv7_pg18 compares it with PostgreSQL 18's own).
--
SET TimeZone = 'UTC';

-- 2024-01-02 03:04:05.6785+00 is 1704164645678 ms = 0x018cc820db2e, and half a millisecond more:
-- fraction 2048 of 4096 = 0x800.
SELECT substr(comb_uuid('2024-01-02 03:04:05.6785+00'::timestamptz, 'uuidv7')::text, 1, 19) AS generated,
       comb_stamp('00000000-0000-0000-0000-000000000000', '2024-01-02 03:04:05.6785+00', 'uuidv7') AS stamped,
       comb_floor('2024-01-02 03:04:05.678+00', 'uuidv7') AS floor_at_the_ms,
       comb_floor('2024-01-02 03:04:05.6785+00', 'uuidv7') AS floor_inside_the_ms,
       comb_range_bound('infinity', 'uuidv7') AS open_upper;
SELECT comb_timestamp('018cc820-db2e-7800-8000-000000000000', 'uuidv7'),
       comb_timestamp(comb_floor('2024-01-02 03:04:05.6785+00', 'uuidv7'), 'uuidv7') AS floor_decodes;

-- Every generated value is a v7 with the RFC variant, from the wall clock and from given times.
SELECT count(*) AS values,
       count(*) FILTER (WHERE substr(u::text, 15, 1) = '7' AND substr(u::text, 20, 1) IN ('8', '9', 'a', 'b')) AS v7_rfc
FROM (SELECT comb_uuid('uuidv7') AS u FROM generate_series(1, 10000)
      UNION ALL SELECT comb_uuid(t, 'uuidv7')
      FROM (SELECT '1970-01-01 00:00+00'::timestamptz + i * interval '1 day 1.234567 s' t FROM generate_series(0, 9999) i) g
      UNION ALL SELECT comb_stamp(gen_random_uuid(), now(), 'uuidv7') FROM generate_series(1, 100)) s;

-- A uuid that is not a version 7 uuid is not a uuidv7 value: 22P02, naming it.
SELECT regress_error($$SELECT comb_timestamp('018cc820-db2e-4800-8000-000000000000', 'uuidv7')$$);
SELECT regress_error($$SELECT comb_timestamp('018cc820-db2e-7800-c000-000000000000', 'uuidv7')$$);
SELECT regress_error($$SELECT comb_timestamp('00000000-0000-0000-0000-000000000000', 'uuidv7')$$);
-- Times the clock cannot hold, as for the postgresql format.
SELECT regress_error($$SELECT comb_uuid('1969-12-31 23:59:59+00'::timestamptz, 'uuidv7')$$);

-- Range scans on uuid's own order (a primary key on a uuidv7 column).
CREATE TABLE v7 (id uuid PRIMARY KEY, t timestamptz);
INSERT INTO v7 SELECT comb_uuid(t, 'uuidv7'), t
FROM (SELECT '2024-03-01 00:00+00'::timestamptz + i * interval '8.64 s' AS t FROM generate_series(0, 9999) i) g;
VACUUM ANALYZE v7;
EXPLAIN (COSTS OFF) SELECT count(*) FROM v7 WHERE comb_in_range(id, '2024-03-01 12:00+00', '2024-03-01 13:00+00', 'uuidv7');
SELECT count(*) AS by_range,
       (SELECT count(*) FROM v7 WHERE t >= '2024-03-01 12:00+00' AND t < '2024-03-01 13:00+00') AS by_time
FROM v7 WHERE comb_in_range(id, '2024-03-01 12:00+00', '2024-03-01 13:00+00', 'uuidv7');
DROP TABLE v7;
