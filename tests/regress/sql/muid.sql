--
-- Gink muids stored as uuid: pack, unpack, text, the -1 sentinel, every error, and muid_new with
-- its medallion setting in one session.
--
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';

-- The spec's example: 1642579230975519 µs, medallion 0x1BFC71B112D, offset 11.
SELECT muid_pack(1642579230975519, 1923190821165, 11) AS id,
       muid_text(muid_pack(1642579230975519, 1923190821165, 11)) AS text;
SELECT * FROM muid_unpack('5d5eac79-3e61-f1bf-c71b-112d0000000b');
SELECT muid_timestamp('5d5eac79-3e61-f1bf-c71b-112d0000000b'),
       muid_timestamp_us('5d5eac79-3e61-f1bf-c71b-112d0000000b'),
       muid_medallion('5d5eac79-3e61-f1bf-c71b-112d0000000b'),
       muid_offset('5d5eac79-3e61-f1bf-c71b-112d0000000b');
-- The time as timestamptz; the offset defaults to 0; negative offsets are two's complement and
-- sort after the positive ones (uuid order is the field order with the offset unsigned).
SELECT muid_text(muid_pack('2022-01-19 08:00:30.975519+00'::timestamptz, 1923190821165)) AS from_time,
       muid_text(muid_pack(0, 0, -1)) AS minus_one,
       muid_pack(0, 0, -1) > muid_pack(0, 0, 2147483647) AS negative_sorts_last;

-- Gink's -1 sentinel is all bits set, both ways; as a time it is infinity.
SELECT muid_pack(-1, -1, -1) AS sentinel, muid_text(muid_pack(-1, -1, -1)),
       (muid_unpack(muid_pack(-1, -1, -1))).*, muid_timestamp(muid_pack(-1, 5)),
       muid_pack('infinity'::timestamptz, 5) = muid_pack(-1, 5) AS infinity_is_the_sentinel;
-- The largest values: 2^52-1 and 2^44-1 are those same bits.
SELECT muid_pack(4503599627370495, 17592186044415) = muid_pack(-1, -1) AS all_bits_set,
       muid_text(muid_pack(4503599627370494, 17592186044414, 2147483647)) AS largest_values;

-- Out of range: 22003 naming the field and range; times outside 1970..2112: 22008.
SELECT regress_error('SELECT muid_pack(4503599627370496, 1)');
SELECT regress_error('SELECT muid_pack(-2, 1)');
SELECT regress_error('SELECT muid_pack(0, 17592186044416)');
SELECT regress_error('SELECT muid_pack(0, -2)');
SELECT regress_error('SELECT muid_pack(0, 0, (2 ^ 32)::int)');  -- the offset is an integer
SELECT regress_error($$SELECT muid_pack('1969-12-31 23:59:59.999999+00'::timestamptz, 1)$$);
SELECT regress_error($$SELECT muid_pack('2112-09-17 23:53:47.370495+00'::timestamptz, 1)$$);
SELECT regress_error($$SELECT muid_pack('-infinity'::timestamptz, 1)$$);
SELECT muid_text(muid_pack('2112-09-17 23:53:47.370494+00'::timestamptz, 1)) AS last_time;

-- Text: canonical in either case, the spec's short forms; nothing else.
SELECT muid_parse('5D5EAC793E61F-1BFC71B112D-0000000B') = muid_parse('5d5eac793e61f-1bfc71b112d-0000000b') AS either_case,
       muid_text(muid_parse('5D5EAC793E61F-1BFC71B112D')) AS without_offset,
       muid_text(muid_parse('5D5EAC793E61F')) AS time_only;
SELECT t, regress_error(format('SELECT muid_parse(%L)', t))
FROM (VALUES ('05D5EAC793E61F-1BFC71B112D-000000B'), ('5D5E_AC793E61-1BFC71B112D-0000000B'),
             ('0x5D5EAC793E6-1BFC71B112D-0000000B'), ('-5D5EAC793E61-1BFC71B112D-0000000B'),
             (' 5D5EAC793E61F-1BFC71B112D-0000000B'), ('5D5EAC793E61F-1BFC71B112D-0000000B '),
             ('5D5EAC793E61F-1BFC71B112D-'), ('5D5EAC793E61F1BFC71B112D0000000B'),
             ('5d5eac79-3e61-f1bf-c71b-112d0000000b'), ('5D5EAC793E61G-1BFC71B112D-0000000B'), ('')) v(t);

-- muid_new: this server's medallion, the given offset, the wall clock in µs.
SELECT clock_timestamp() AS before \gset
SELECT muid_new() AS fresh \gset
SELECT clock_timestamp() AS after \gset
SELECT muid_timestamp(:'fresh') BETWEEN :'before' AND :'after' AS time_is_now,
       muid_offset(muid_new(-7)) AS offset;
-- Unset, the medallion is folded from the system identifier, the timeline and a number drawn at
-- every server start, in the range nodes draw from; the same for every session of one start.
SELECT muid_medallion(muid_new()) BETWEEN 1099511627776 AND 2199023255551 AS in_node_range,
       muid_medallion(muid_new()) = (SELECT m FROM dblink(format('dbname=%s host=%s port=%s', current_database(),
           current_setting('unix_socket_directories'), current_setting('port')), 'SELECT muid_medallion(muid_new())') AS t(m bigint))
       AS another_session_has_the_same;
SET comb_ext.medallion = '0x1BFC71B112D';
SELECT muid_medallion(muid_new()) AS hex_medallion;
SET comb_ext.medallion = '1923190821166';
SELECT muid_medallion(muid_new()) AS decimal_medallion;
SELECT regress_error($$SET comb_ext.medallion = 'abc'$$);
SELECT regress_error($$SET comb_ext.medallion = '17592186044415'$$);
SELECT regress_error($$SET comb_ext.medallion = '-1'$$);
RESET comb_ext.medallion;
SELECT name, context FROM pg_settings WHERE name = 'comb_ext.medallion';
CREATE ROLE regress_muid_user;
SET ROLE regress_muid_user;
SELECT regress_error($$SET comb_ext.medallion = '5'$$);
SELECT muid_new() IS NOT NULL AS anyone_may_generate;
RESET ROLE;
DROP ROLE regress_muid_user;

-- 100,000 from one statement: timestamps strictly increase, so the muids do too.
CREATE TEMP TABLE made AS SELECT n, muid_new() AS id FROM generate_series(1, 100000) n;
SELECT count(DISTINCT id) AS distinct_ids,
       bool_and(muid_timestamp_us(id) > muid_timestamp_us(previous)) FILTER (WHERE n > 1) AS timestamps_increase,
       bool_and(id > previous) FILTER (WHERE n > 1) AS strictly_increasing
FROM (SELECT n, id, lag(id) OVER (ORDER BY n) AS previous FROM made) s;
