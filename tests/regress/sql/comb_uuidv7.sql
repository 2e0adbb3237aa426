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
-- Times before the clock's start, as for the postgresql format (the end is PostgreSQL 18's: below).
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

SET DateStyle = 'ISO, YMD';
-- PostgreSQL 18's range, not RT.Comb's: 1970-01-01 to the 48-bit field's last millisecond,
-- 2^48 - 1 ms = 10889-08-02 05:31:50.655 UTC (uuid.c's UUIDV7_MAX_TIMESTAMP), inclusive.
-- The largest v7 and the smallest of that millisecond decode to it, as uuid_extract_timestamp reads
-- them; 10000-01-01 (253402300800000 ms = 0xe677d21fdc00), past .NET's DateTime, is a time too.
SELECT comb_timestamp('ffffffff-ffff-7fff-bfff-ffffffffffff', 'uuidv7') AS largest,
       comb_timestamp('ffffffff-ffff-7000-8000-000000000000', 'uuidv7') AS last_ms,
       comb_timestamp('e677d21f-dc00-7000-8000-000000000000', 'uuidv7') AS year_10000,
       comb_timestamp('e677d21f-dbff-7fff-bfff-ffffffffffff', 'uuidv7') AS last_ms_of_9999;
-- The last instant encodes in every function, with fraction 0; so does 10000-01-01.
SELECT substr(comb_uuid('10889-08-02 05:31:50.655+00'::timestamptz, 'uuidv7')::text, 1, 19) AS generated,
       comb_stamp('00000000-0000-0000-0000-000000000000', '10889-08-02 05:31:50.655+00', 'uuidv7') AS stamped,
       comb_floor('10889-08-02 05:31:50.655+00', 'uuidv7') AS floor_at_the_end,
       comb_floor('10889-08-02 05:31:50.654001+00', 'uuidv7') AS floor_inside_the_ms_before,
       comb_stamp('00000000-0000-0000-0000-000000000000', '10000-01-01 00:00+00', 'uuidv7') AS year_10000;
-- Range bounds: the end's own bound, and past it the all-ones uuid, so the largest v7 is in a range
-- from its time and not in one from the next microsecond.
SELECT comb_range_bound('10889-08-02 05:31:50.655+00', 'uuidv7') AS at_the_end,
       comb_range_bound('10889-08-02 05:31:50.655001+00', 'uuidv7') AS past_the_end,
       comb_in_range('ffffffff-ffff-7fff-bfff-ffffffffffff', '10889-08-02 05:31:50.655+00', 'infinity', 'uuidv7') AS from_the_end,
       comb_in_range('ffffffff-ffff-7fff-bfff-ffffffffffff', '10889-08-02 05:31:50.655001+00', 'infinity', 'uuidv7') AS from_past_it,
       comb_in_range('ffffffff-ffff-7fff-bfff-ffffffffffff', '9999-12-31', '10889-08-02 05:31:50.655+00', 'uuidv7') AS before_the_end;
-- One microsecond past the end, ±infinity and before 1970 are 22008, naming the value and the
-- range, with PostgreSQL 18's reason as the DETAIL.
SELECT regress_error($$SELECT comb_uuid('10889-08-02 05:31:50.655001+00'::timestamptz, 'uuidv7')$$);
SELECT regress_error($$SELECT comb_stamp('00000000-0000-0000-0000-000000000000', '10889-08-02 05:31:50.656+00', 'uuidv7')$$);
SELECT regress_error($$SELECT comb_floor('10889-08-02 05:31:50.655001+00', 'uuidv7')$$);
SELECT regress_error($$SELECT comb_uuid('-infinity'::timestamptz, 'uuidv7')$$);
SELECT comb_uuid('infinity'::timestamptz, 'uuidv7');
-- The other unix formats keep RT.Comb's range, to the end of .NET's DateTime.
SELECT regress_error($$SELECT comb_timestamp('e677d21f-dc00-4000-8000-000000000000', 'postgresql')$$);
SELECT regress_error($$SELECT comb_stamp('00000000-0000-0000-0000-000000000000', '10000-01-01 00:00+00', 'binary')$$);
SELECT comb_timestamp(comb_stamp('00000000-0000-0000-0000-000000000000', '9999-12-31 23:59:59.999999+00', 'postgresql')) AS postgresql_last_ms;
