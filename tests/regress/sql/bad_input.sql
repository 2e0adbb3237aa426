--
-- Every text-input function and every function with range limits, fed malformed and
-- out-of-range input: each gives an ERROR with the expected SQLSTATE, and the server stays up
-- (no backend crash: the postmaster's start time and this session survive).
--
SELECT pg_postmaster_start_time() AS started \gset
CREATE TEMP TABLE bad_input (statement text, expected text);
INSERT INTO bad_input VALUES
    -- COMB formats and times
    ($$SELECT 'nope'::comb_format$$, '22P02'),
    ($$SELECT comb_uuid('nope')$$, '22P02'),
    ($$SELECT comb_uuid('1960-01-01'::timestamptz)$$, '22008'),
    ($$SELECT comb_uuid('infinity'::timestamptz, 'sqlserver')$$, '22008'),
    ($$SELECT comb_uuid('1899-12-31'::timestamptz, 'legacy')$$, '22008'),
    ($$SELECT comb_uuid('2079-06-07 00:00:00.000001+00'::timestamptz, 'legacy')$$, '22008'),
    ($$SELECT comb_stamp(gen_random_uuid(), '-infinity', 'ticks')$$, '22008'),
    ($$SELECT comb_floor('10000-01-01'::timestamptz)$$, '22008'),
    ($$SELECT comb_timestamp('ffffffff-ffff-ffff-ffff-ffffffffffff', 'legacy')$$, '22008'),
    ($$SELECT comb_timestamp('ffffffff-ffff-4fff-bfff-ffffffffffff')$$, '22008'),
    -- sno
    ($$SELECT ''::sno$$, '22P02'),
    ($$SELECT 'brpk4q72xwf2m63L'::sno$$, '22P02'),
    ($$SELECT 'brpk4q72xwf2m631'::sno$$, '22P02'),
    ($$SELECT 'brpk4q72xwf2m63l '::sno$$, '22P02'),
    ($$SELECT repeat('x', 10000)::sno$$, '22P02'),
    ($$SELECT E'brpk4q72xwf2m6\u00e9'::sno$$, '22P02'),
    ($$SELECT '\x00'::bytea::sno$$, '22P03'),
    ($$SELECT ''::bytea::sno$$, '22P03'),
    ($$SELECT sno_new(256)$$, '22003'),
    ($$SELECT sno_new(-2147483648)$$, '22003'),
    ($$SELECT sno_from_parts('2009-12-31 23:59:59.999999+00', 0, 0, 0)$$, '22008'),
    ($$SELECT sno_from_parts('infinity', 0, 0, 0)$$, '22008'),
    ($$SELECT sno_from_parts('2020-01-01', 2147483647, 0, 0)$$, '22003'),
    ($$SELECT sno_from_parts('2020-01-01', 0, -1, 0)$$, '22003'),
    ($$SELECT sno_from_parts('2020-01-01', 0, 0, 65536)$$, '22003'),
    ($$SELECT sno_floor('infinity')$$, '22008'),
    ($$SET comb_ext.sno_partition = 65536$$, '22023'),
    ($$SET comb_ext.sno_sequence_min = -1$$, '22023'),
    ($$SET comb_ext.sno_sequence_max = 'x'$$, '22023'),
    -- muid
    ($$SELECT muid_parse('')$$, '22P02'),
    ($$SELECT muid_parse('5d5eac79-3e61-f1bf-c71b-112d0000000b')$$, '22P02'),
    ($$SELECT muid_parse('0x5D5EAC793E6-1BFC71B112D-0000000B')$$, '22P02'),
    ($$SELECT muid_parse('+5D5EAC793E61-1BFC71B112D-0000000B')$$, '22P02'),
    ($$SELECT muid_parse(repeat('F', 10000))$$, '22P02'),
    ($$SELECT muid_parse(E'5D5EAC793E61\u00c9-1BFC71B112D-0000000B')$$, '22P02'),
    ($$SELECT muid_pack(4503599627370496, 0)$$, '22003'),
    ($$SELECT muid_pack(-9223372036854775808, 0)$$, '22003'),
    ($$SELECT muid_pack(0, 17592186044416)$$, '22003'),
    ($$SELECT muid_pack(0, -2)$$, '22003'),
    ($$SELECT muid_pack('1969-12-31'::timestamptz, 0)$$, '22008'),
    ($$SELECT muid_pack('-infinity'::timestamptz, 0)$$, '22008'),
    ($$SET comb_ext.medallion = '0x'$$, '22023'),
    ($$SET comb_ext.medallion = '-5'$$, '22023'),
    ($$SET comb_ext.medallion = '99999999999999999999999'$$, '22023'),
    -- uid8
    ($$SELECT 'nope'::uid8_mode$$, '22P02'),
    ($$SELECT uid8_new('nope')$$, '22P02'),
    ($$SELECT uid8_from_parts(-1, 0, 0, 0)$$, '22003'),
    ($$SELECT uid8_from_parts(9223372036854775807, 0, 0, 0)$$, '22003'),
    ($$SELECT uid8_from_parts(0, 64, 0, 0)$$, '22003'),
    ($$SELECT uid8_from_parts(0, 0, -1, 0)$$, '22003'),
    ($$SELECT uid8_from_parts(0, 0, 2048, 0)$$, '22003'),
    ($$SELECT uid8_from_parts(0, 0, 0, 16)$$, '22003'),
    ($$SELECT uid8_from_bytea('\x')$$, '22P03'),
    ($$SELECT uid8_from_bytea('\x000000000000000000')$$, '22P03'),
    ($$SET comb_ext.uid8_cluster_id = 16$$, '22023'),
    ($$SET comb_ext.uid8_generator_id = 2048$$, '22023'),
    ($$SET comb_ext.uid8_generator_id = -2$$, '22023'),
    ($$SET comb_ext.uid8_generators_per_session = 0$$, '22023'),
    ($$SET comb_ext.uid8_generators_per_session = 2049$$, '22023'),
    ($$SET comb_ext.uid8_generator_share = 0$$, '22023'),
    ($$SET comb_ext.uid8_generator_share = 2049$$, '22023'),
    ($$SET comb_ext.uid8_run_ahead = -1$$, '22023'),
    ($$SET comb_ext.uid8_run_ahead = '2001ms'$$, '22023'),
    ($$SET comb_ext.max_clock_wait = '50ms'$$, '22023'),
    ($$SET comb_ext.max_clock_wait = '2h'$$, '22023'),
    -- text forms
    ($$SELECT comb_text(gen_random_uuid(), 'base64')$$, '22023'),
    ($$SELECT comb_parse('', 'crockford')$$, '22P02'),
    ($$SELECT comb_parse(repeat('Z', 10000), 'crockford')$$, '22P02'),
    ($$SELECT comb_parse(repeat(E'\u00e9', 26), 'base32hex')$$, '22P02'),
    ($$SELECT comb_parse('ZZZZZZZZZZZZZZZZZZZZZZZZZZ', 'crockford')$$, '22P02'),
    ($$SELECT comb_parse('VVVVVVVVVVVVVVVVVVVVVVVVVV', 'base32hex')$$, '22P02'),
    ($$SELECT comb_parse('00000000000000000000000000', '')$$, '22023'),
    ($$SELECT typeid_text(gen_random_uuid(), repeat('a', 64))$$, '22023'),
    ($$SELECT typeid_parse(repeat('a', 10000) || '_00000000000000000000000000')$$, '22P02'),
    ($$SELECT typeid_parse('_')$$, '22P02'),
    ($$SELECT typeid_parse('')$$, '22P02'),
    ($$SELECT typeid_parse('a_00000000000000000000000000', '_')$$, '22023'),
    ($$SELECT uid8_parse('')$$, '22P02'),
    ($$SELECT uid8_parse('ZZZZZZZZZZZZZ')$$, '22P02');

CREATE FUNCTION pg_temp.sqlstate_of(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE statement;
    RETURN 'no error';
EXCEPTION WHEN others THEN
    RETURN SQLSTATE;
END $$;

-- Mismatches (none expected), then the count.
SELECT statement, expected, pg_temp.sqlstate_of(statement) AS got
FROM bad_input WHERE pg_temp.sqlstate_of(statement) IS DISTINCT FROM expected;
SELECT count(*) AS inputs_checked FROM bad_input;
-- Still the same server, and this session still works.
SELECT pg_postmaster_start_time() = :'started' AS no_restart, 1 AS alive;
