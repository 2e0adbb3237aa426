--
-- Bad input: an ERROR with its SQLSTATE and a message naming the value and the valid range.
--
SET TimeZone = 'UTC';

-- Times outside each clock (22008).
SELECT f, t, regress_error(format('SELECT comb_stamp(%L, %L, %L)', '00000000-0000-4000-8000-000000000000', t, f))
FROM (VALUES ('postgresql', '1969-12-31 23:59:59.999999+00'),
             ('sqlserver', '10000-01-01 00:00:00+00'),
             ('binary', 'infinity'),
             ('legacy', '1899-12-31 23:59:59.999999+00'),
             ('postgresql_sqldatetime', '2079-06-07 00:00:00.000001+00'),
             ('binary_sqldatetime', '-infinity'),
             ('ticks', '0001-01-01 00:00:00+00 BC'),
             ('ticks', '10000-01-01 00:00:00+00')) v(f, t);
SELECT regress_error($$SELECT comb_uuid('1960-01-01'::timestamptz)$$);
SELECT regress_error($$SELECT comb_floor('9999-12-31 23:59:59.9995+00')$$);
SELECT regress_error($$SELECT comb_floor('1850-01-01', 'legacy')$$);
SELECT regress_error($$SELECT comb_floor('2079-06-07 00:00:00.000001+00', 'postgresql_sqldatetime')$$);

-- Values that do not hold a time the format defines (22008), never wrapped.
SELECT regress_error($$SELECT comb_timestamp('ffffffff-ffff-4000-8000-000000000000')$$);
SELECT regress_error($$SELECT comb_timestamp('00000000-0000-0000-0000-000080000000', 'legacy')$$);
SELECT regress_error($$SELECT comb_timestamp('00000000-0000-0000-0000-0000018b8201', 'legacy')$$);
SELECT regress_error($$SELECT comb_timestamp('00000000-0000-0000-ffff-ffffffffffff', 'ticks')$$);

-- A format name that is not one (22P02 from the text overload and from the enum).
SELECT regress_error($$SELECT comb_uuid('mysql')$$);
SELECT regress_error($$SELECT comb_uuid('2024-01-01')$$);
SELECT regress_error($$SELECT comb_timestamp(gen_random_uuid(), 'mysql')$$);

-- NULLs: every function is strict.
SELECT comb_uuid(NULL::comb_format) IS NULL, comb_timestamp(NULL) IS NULL,
       comb_stamp(NULL, now()) IS NULL, comb_floor(NULL) IS NULL, comb_is_ticks(NULL) IS NULL;
