--
-- One-argument bounds and decoders for partitioning tools (docs/partitioning.md): pg_partman calls
-- p_time_encoder with one untyped literal and p_time_decoder with text; TimescaleDB calls a
-- partition_func of the column's type. comb_floor_<format>/comb_timestamp_<format> are comb_floor and
-- comb_timestamp of one format; muid_floor and uid8_floor are the bounds of those families. Expected
-- muid and uid8 values are worked out by hand from the layouts (docs/muid.md, docs/uid8.md):
--   muid: µs since 1970 in the top 52 bits; 2026-11-25 00:00:00 UTC = 1795564800000000 µs
--         = 0x6610e8213400 0 << 76 -> 6610e821-3400-0000-0000-000000000000
--   uid8: the first time_sequential id of a ms, (ms << 22) | 4096 (the mode bit); 2026-11-25 00:00:00
--         UTC = 1795564800000 ms -> 7531144622899200000 + 4096 = 7531144622899204096; a day of ids is
--         86400000 << 22 = 362387865600000, so a UTC midnight's floor is 4096 past a multiple of it
--
SET TimeZone = 'UTC';

-- Every one of them: one argument, immutable, strict, parallel safe; each decoder also takes text (the
-- overload that casts and calls it), the bounds take only timestamptz.
SELECT p.oid::regprocedure AS function, p.provolatile, p.proisstrict, p.proparallel, l.lanname
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.proname ~ '^(comb_floor_|comb_timestamp_|muid_floor$|uid8_floor$)'
  AND p.pronamespace = 'public'::regnamespace
ORDER BY p.oid::regprocedure::text COLLATE "C";

-- The per-format functions agree with the two-argument ones over each format's range: times on
-- clock-unit edges and in between, and the ids made at those times.
WITH formats(fmt, lo, hi) AS (VALUES
        ('postgresql', '1970-01-01', '9999-12-31'), ('sqlserver', '1970-01-01', '9999-12-31'),
        ('binary', '1970-01-01', '9999-12-31'), ('uuidv7', '1970-01-01', '9999-12-31'),
        ('legacy', '1900-01-01', '2079-06-06'), ('postgresql_sqldatetime', '1900-01-01', '2079-06-06'),
        ('binary_sqldatetime', '1900-01-01', '2079-06-06'), ('ticks', '0001-01-01', '9999-12-31')),
times AS (
    SELECT fmt, t
    FROM formats, LATERAL (
        SELECT lo::timestamptz + (hi::timestamptz - lo::timestamptz) * (i / 997.0) + i * interval '1.0003 ms' AS t
        FROM generate_series(0, 996) i) g),
checked AS (
    SELECT fmt, t,
           CASE fmt
               WHEN 'postgresql' THEN comb_floor_postgresql(t) WHEN 'sqlserver' THEN comb_floor_sqlserver(t)
               WHEN 'legacy' THEN comb_floor_legacy(t) WHEN 'binary' THEN comb_floor_binary(t)
               WHEN 'postgresql_sqldatetime' THEN comb_floor_postgresql_sqldatetime(t)
               WHEN 'binary_sqldatetime' THEN comb_floor_binary_sqldatetime(t)
               WHEN 'ticks' THEN comb_floor_ticks(t) WHEN 'uuidv7' THEN comb_floor_uuidv7(t) END AS floor_one,
           comb_floor(t, fmt::comb_format) AS floor_two,
           comb_uuid(t, fmt::comb_format) AS id
    FROM times)
SELECT fmt, count(*) AS times,
       count(*) FILTER (WHERE floor_one IS DISTINCT FROM floor_two) AS floor_differs,
       count(*) FILTER (WHERE CASE fmt
               WHEN 'postgresql' THEN comb_timestamp_postgresql(id) WHEN 'sqlserver' THEN comb_timestamp_sqlserver(id)
               WHEN 'legacy' THEN comb_timestamp_legacy(id) WHEN 'binary' THEN comb_timestamp_binary(id)
               WHEN 'postgresql_sqldatetime' THEN comb_timestamp_postgresql_sqldatetime(id)
               WHEN 'binary_sqldatetime' THEN comb_timestamp_binary_sqldatetime(id)
               WHEN 'ticks' THEN comb_timestamp_ticks(id) WHEN 'uuidv7' THEN comb_timestamp_uuidv7(id) END
           IS DISTINCT FROM comb_timestamp(id, fmt::comb_format)) AS timestamp_differs
FROM checked GROUP BY fmt ORDER BY fmt;

-- As pg_partman calls them: the encoder with an untyped literal, the decoder with text.
SELECT comb_floor_uuidv7('2026-11-25 00:00:00+00') AS encoder_uuidv7,
       comb_floor_sqlserver('2026-11-25 00:00:00+00') AS encoder_sqlserver,
       comb_timestamp_uuidv7('01a21000-8800-7000-8000-000000000000'::text) AS decoder_uuidv7,
       comb_timestamp_sqlserver('00000000-0000-0000-0000-01a210008800') AS decoder_sqlserver;

-- Errors name the function called.
SELECT regress_error($$SELECT comb_floor_legacy('1899-12-31 23:59:59+00')$$);
SELECT regress_error($$SELECT comb_floor_uuidv7('infinity')$$);
SELECT regress_error($$SELECT comb_timestamp_uuidv7('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')$$);
SELECT regress_error($$SELECT comb_timestamp_postgresql('ffffffff-ffff-4fff-bfff-ffffffffffff')$$);

-- TimescaleDB takes partition_func as a regproc: the name alone is ambiguous (the text overload), the
-- signature is not.
SELECT regress_error($$SELECT 'comb_timestamp_uuidv7'::regproc$$);
SELECT 'comb_timestamp_uuidv7(uuid)'::regprocedure::regproc AS partition_func;

-- muid_floor: the smallest muid of the time's µs (medallion and offset 0).
SELECT muid_floor('2026-11-25 00:00:00+00') AS midnight,
       muid_floor('2026-11-25 12:34:56.789012+00') AS inside_a_day,
       muid_floor('2026-11-25 00:00:00+00') = muid_pack('2026-11-25 00:00:00+00'::timestamptz, 0, 0) AS equals_pack;
SELECT muid_floor('-infinity') AS minus_infinity, muid_floor('1969-12-31 23:59:59+00') AS before_1970,
       muid_floor('2112-09-17 23:53:47.370494+00') AS last_us, muid_floor('2112-09-17 23:53:47.370495+00') AS past_last,
       muid_floor('infinity') AS infinity, muid_timestamp(muid_floor('infinity')) AS its_time;
-- Every muid of an earlier µs is below the floor, every one of its µs at or above it.
SELECT muid_pack('2026-11-25 12:34:56.789011+00'::timestamptz, -1, -1) < muid_floor('2026-11-25 12:34:56.789012+00') AS earlier_below,
       muid_pack('2026-11-25 12:34:56.789012+00'::timestamptz, 0, 0) >= muid_floor('2026-11-25 12:34:56.789012+00') AS same_at_or_above,
       muid_timestamp(muid_floor('2026-11-25 12:34:56.789012+00')::text) AS decoded_through_the_text_overload;

-- uid8_floor: the first time_sequential id of the first millisecond at or after the time.
SELECT uid8_floor('2026-11-25 00:00:00+00') AS midnight,
       uid8_floor('2026-11-25 00:00:00+00') % 362387865600000 AS modulo_a_day_of_ids,
       uid8_floor('2026-11-25 00:00:00.0005+00') AS half_a_ms_later,
       uid8_floor('2026-11-25 00:00:00.001+00') AS one_ms_later,
       uid8_floor('-infinity') AS minus_infinity, uid8_floor('1960-01-01+00') AS before_1970,
       uid8_floor('2039-09-07 15:47:35.551+00') AS last_ms;
SELECT uid8_from_parts(1795564799999, 63, 2047, 15, 'time_sequential') < uid8_floor('2026-11-25 00:00:00+00') AS earlier_below,
       uid8_from_parts(1795564800000, 0, 0, 0, 'time_sequential') = uid8_floor('2026-11-25 00:00:00+00') AS first_id,
       uid8_mode(uid8_floor('2026-11-25 00:00:00+00')) AS mode,
       uid8_timestamp(uid8_floor('2026-11-25 00:00:00.0005+00')) AS its_time;
SELECT regress_error($$SELECT uid8_floor('2039-09-07 15:47:35.551001+00')$$);
SELECT regress_error($$SELECT uid8_floor('infinity')$$);
