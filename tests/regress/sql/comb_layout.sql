--
-- Where each format puts its time, with values worked out by hand: docs/formats-reference.md.
--
SET TimeZone = 'UTC';
SELECT enum_range(NULL::comb_format);

-- 2024-01-02 03:04:05.678+00 is 1704164645678 ms since 1970 = 0x018cc820db2e.
SELECT f, comb_stamp('11111111-2222-4333-8444-555555555555', '2024-01-02 03:04:05.678+00', f)
FROM unnest(ARRAY['postgresql', 'sqlserver', 'binary']::comb_format[]) f;

-- Same instant on the sqldatetime clock: day 45291 since 1900-01-01 = 0xb0eb; 11045.678 s after
-- midnight = 3313703.4 units of 1/300 s, truncated to 3313703 = 0x00329027.
SELECT f, comb_stamp('11111111-2222-4333-8444-555555555555', '2024-01-02 03:04:05.678+00', f)
FROM unnest(ARRAY['legacy', 'postgresql_sqldatetime', 'binary_sqldatetime']::comb_format[]) f;

-- Ticks: 638397614456780000 = 0x08dc0b3f7b2734e0, bytes 10-15 then 8-9, marker 0xC in byte 7.
SELECT comb_stamp('11111111-2222-4333-8444-555555555555', '2024-01-02 03:04:05.678+00', 'ticks');
SELECT comb_is_ticks(comb_stamp('11111111-2222-4333-8444-555555555555', '2024-01-02 03:04:05.678+00', 'ticks')),
       comb_is_ticks('11111111-2222-4333-8444-555555555555');

-- Decoding: the first microsecond of the clock unit.
SELECT f, comb_timestamp(comb_stamp(gen_random_uuid(), '2024-01-02 03:04:05.678999+00', f), f)
FROM unnest(enum_range(NULL::comb_format)) f;

-- 1/300 s units start on fractional microseconds; each decodes to the first whole one after.
SELECT t300, comb_timestamp(('00000000-0000-0000-0000-0000' || lpad(to_hex(t300), 8, '0'))::uuid, 'legacy')
FROM unnest(ARRAY[0, 1, 2, 3, 299, 300, 25919999, 25920000]) t300;

-- comb_floor: the smallest value whose time is at or after the argument, in the format's order.
SELECT comb_floor('2024-01-02 03:04:05.678+00'), comb_floor('2024-01-02 03:04:05.6781+00'),
       comb_floor('2024-01-02 03:04:05.678+00', 'sqlserver');
SELECT comb_timestamp(comb_floor(t)) >= t AS at_or_after,
       comb_timestamp(comb_floor(t)) - t < interval '1 ms' AS within_one_unit
FROM (SELECT '2024-01-02 03:04:05.6781+00'::timestamptz t) s;

-- comb_uuid(ts) stamps the given time on random bits with v4 version and variant.
SELECT comb_timestamp(comb_uuid('2001-02-03 04:05:06.789+00'::timestamptz)),
       comb_timestamp(comb_uuid('2001-02-03 04:05:06.789+00'::timestamptz, 'legacy'), 'legacy');
SELECT count(DISTINCT id) AS distinct_ids,
       bool_and(substr(id::text, 15, 1) = '4') AS version_4,
       bool_and(substr(id::text, 20, 1) IN ('8', '9', 'a', 'b')) AS rfc_variant
FROM (SELECT comb_uuid('2001-02-03 04:05:06.789+00'::timestamptz) id FROM generate_series(1, 1000)) s;

-- Edges of each clock's range.
SELECT comb_stamp('00000000-0000-4000-8000-000000000000', '1970-01-01 00:00:00+00'),
       comb_stamp('00000000-0000-4000-8000-000000000000', '9999-12-31 23:59:59.999999+00');
SELECT comb_stamp('00000000-0000-4000-8000-000000000000', '1900-01-01 00:00:00+00', 'legacy'),
       comb_stamp('00000000-0000-4000-8000-000000000000', '2079-06-06 23:59:59.999999+00', 'legacy');
SELECT comb_stamp('00000000-0000-4000-8000-000000000000', '0001-01-01 00:00:00+00', 'ticks'),
       comb_stamp('00000000-0000-4000-8000-000000000000', '9999-12-31 23:59:59.999999+00', 'ticks');

-- Untyped literals resolve: a format name, or an explicit timestamptz.
SELECT comb_timestamp(comb_uuid('sqlserver'), 'sqlserver') > '2020-01-01' AS named_format,
       comb_timestamp(comb_uuid('2020-01-01 00:00+00'::timestamptz)) AS given_time;
