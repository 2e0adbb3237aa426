-- Every object of the extension carries a comment (\dT+, \df+ and pg_description show them).

COMMENT ON TYPE comb_format IS
  'Where a COMB keeps its time and which clock it uses: postgresql (default, unix ms in bytes 0-5), sqlserver (unix ms in bytes 10-15), legacy (SQL Server datetime in bytes 10-15), binary (unix ms in .NET ToByteArray bytes 0-5), postgresql_sqldatetime, binary_sqldatetime, ticks (.NET DateTime.Ticks for SQL Server order), uuidv7 (RFC 9562 version 7, as PostgreSQL 18''s uuidv7())';

COMMENT ON FUNCTION comb_uuid() IS
  'New COMB uuid (postgresql format) from the wall clock; the bits after the millisecond hold its fraction, so values of all sessions sort by time, and values made by one session strictly increase';
COMMENT ON FUNCTION comb_uuid(comb_format) IS
  'New COMB uuid in the given format from the wall clock; values made by one session strictly increase in the format''s own order';
COMMENT ON FUNCTION comb_uuid(text) IS
  'New COMB uuid in the format named by the text (lets comb_uuid(''sqlserver'') resolve without a cast)';
COMMENT ON FUNCTION comb_uuid(timestamptz, comb_format) IS
  'New COMB uuid carrying the given time: random bytes stamped with it, the bits after the time unit holding its fraction (RT.Comb Create(DateTime))';
COMMENT ON FUNCTION comb_stamp(uuid, timestamptz, comb_format) IS
  'The uuid with the time written over the format''s time bytes, every other bit kept but the ticks marker and the uuidv7 version and variant (RT.Comb Create(Guid, DateTime))';
COMMENT ON FUNCTION comb_timestamp(uuid, comb_format) IS
  'The time embedded in a COMB: the first microsecond of its clock unit (for uuidv7 the millisecond, as uuid_extract_timestamp; a uuid that is not version 7 is an error)';
COMMENT ON FUNCTION comb_floor(timestamptz, comb_format) IS
  'Smallest uuid, in the format''s order, whose comb_timestamp is at or after the time: a range-scan bound';
COMMENT ON FUNCTION comb_is_ticks(uuid) IS
  'Seed 001''s IsComb check: true when the high nibble of string byte 7 (.NET byte 6) is 0xC';
COMMENT ON FUNCTION comb_range_bound(timestamptz, comb_format) IS
  'comb_floor for range scans: times the format cannot hold map to the lowest or highest uuid, so open-ended ranges work';
COMMENT ON FUNCTION comb_range_lower(timestamptz, timestamptz, comb_format) IS
  'Lower bound of comb_in_range(id, lower, upper, format) in the format''s order (comb_range_bound of lower); NULL when either time is NULL';
COMMENT ON FUNCTION comb_range_upper(timestamptz, timestamptz, comb_format) IS
  'Upper (exclusive) bound of comb_in_range(id, lower, upper, format) in the format''s order (comb_range_bound of upper); NULL when either time is NULL';
COMMENT ON FUNCTION comb_in_range(uuid, timestamptz, timestamptz, comb_format) IS
  'True when the COMB''s time lies in [lower, upper); the planner rewrites it as id >= lower bound AND id < upper bound in the format''s order, so btree and BRIN indexes on id (uuid_ops for postgresql formats and uuidv7, uuid_sqlserver_ops for sqlserver, legacy, ticks) and range partitioning on id serve it';
COMMENT ON FUNCTION comb_in_range_support(internal) IS
  'Planner support for comb_in_range: rewrites it as comparisons in the format''s btree operator family (SupportRequestSimplify)';

COMMENT ON FUNCTION uuid_sqlserver_cmp(uuid, uuid) IS
  'Compares uuids as SQL Server compares uniqueidentifier (bytes 10-15, 8-9, 7-6, 5-4, 3-0): -1, 0 or 1';
COMMENT ON FUNCTION uuid_sqlserver_lt(uuid, uuid) IS 'Implements #<#: less than in SQL Server order';
COMMENT ON FUNCTION uuid_sqlserver_le(uuid, uuid) IS 'Implements #<=#: less than or equal in SQL Server order';
COMMENT ON FUNCTION uuid_sqlserver_ge(uuid, uuid) IS 'Implements #>=#: greater than or equal in SQL Server order';
COMMENT ON FUNCTION uuid_sqlserver_gt(uuid, uuid) IS 'Implements #>#: greater than in SQL Server order';
COMMENT ON FUNCTION uuid_sqlserver_key(uuid) IS
  'The uuid whose native order is SQL Server''s order of id (its bytes 10-15, 8-9, 7-6, 5-4, 3-0): for expression indexes, ORDER BY and partition bounds without the operator class, as in the SQL edition';
COMMENT ON FUNCTION uuid_binary_key(uuid) IS
  'The uuid whose native order is the binary formats'' order of id (.NET ToByteArray bytes: 3-0, 5-4, 7-6, 8-15), as in the SQL edition';
COMMENT ON FUNCTION uuid_sqlserver_sortsupport(internal) IS
  'Sort support for uuid_sqlserver_ops, with abbreviated keys';
COMMENT ON OPERATOR #<# (uuid, uuid) IS 'less than in SQL Server uniqueidentifier order';
COMMENT ON OPERATOR #<=# (uuid, uuid) IS 'less than or equal in SQL Server uniqueidentifier order';
COMMENT ON OPERATOR #>=# (uuid, uuid) IS 'greater than or equal in SQL Server uniqueidentifier order';
COMMENT ON OPERATOR #># (uuid, uuid) IS 'greater than in SQL Server uniqueidentifier order';
COMMENT ON OPERATOR CLASS uuid_sqlserver_ops USING btree IS
  'SQL Server uniqueidentifier order for uuid (non-default): CREATE INDEX ... (id uuid_sqlserver_ops)';
COMMENT ON OPERATOR FAMILY uuid_sqlserver_ops USING btree IS
  'SQL Server uniqueidentifier order for uuid';

COMMENT ON TYPE sno IS
  'sno ID (muyo/sno): 10 bytes, 4 ms time units since 2010 with a tick-tock bit, metabyte, 2-byte partition, 2-byte sequence; text is 16 base32 characters of 23456789abcdefghijklmnopqrstuvwx; byte order is time order';
COMMENT ON FUNCTION sno_in(cstring) IS 'Text input of sno: exactly 16 characters of 23456789abcdefghijklmnopqrstuvwx';
COMMENT ON FUNCTION sno_out(sno) IS 'Text output of sno: 16 base32 characters';
COMMENT ON FUNCTION sno_recv(internal) IS 'Binary input of sno: the 10 raw bytes';
COMMENT ON FUNCTION sno_send(sno) IS 'Binary output of sno: the 10 raw bytes';
COMMENT ON FUNCTION sno_new(integer) IS
  'New sno with the given metabyte (0-255) from the server-wide generator: unique across all sessions of the server, partition from comb_ext.sno_partition; one session''s values strictly increase unless the system clock steps back';
COMMENT ON FUNCTION sno_time(sno) IS 'The time of a sno: the start of its 4 ms unit';
COMMENT ON FUNCTION sno_meta(sno) IS 'The metabyte of a sno (0-255)';
COMMENT ON FUNCTION sno_partition(sno) IS 'The partition of a sno (0-65535)';
COMMENT ON FUNCTION sno_sequence(sno) IS 'The sequence number of a sno (0-65535)';
COMMENT ON FUNCTION sno_tick(sno) IS 'The tick-tock bit of a sno: toggled each time its generator saw the clock step back';
COMMENT ON FUNCTION sno_from_parts(timestamptz, integer, integer, integer, boolean) IS
  'sno with every field given (sno NewWithTime): time 2010-01-01 to 2079-09-07 15:47:35.551999+00 floored to 4 ms, meta 0-255, partition 0-65535, sequence 0-65535, tick bit';
COMMENT ON FUNCTION sno_floor(timestamptz) IS
  'Smallest sno whose sno_time is at or after the time (the smallest sno for any time before 2010): a range-scan bound';
COMMENT ON FUNCTION sno_to_bytea(sno) IS 'The 10 bytes of a sno (the sno::bytea cast)';
COMMENT ON FUNCTION sno_from_bytea(bytea) IS 'sno from exactly 10 bytes (the bytea::sno cast)';
COMMENT ON FUNCTION sno_cmp(sno, sno) IS 'Btree comparison of sno (byte order = time order): -1, 0 or 1';
COMMENT ON FUNCTION sno_eq(sno, sno) IS 'Implements = for sno';
COMMENT ON FUNCTION sno_ne(sno, sno) IS 'Implements <> for sno';
COMMENT ON FUNCTION sno_lt(sno, sno) IS 'Implements < for sno';
COMMENT ON FUNCTION sno_le(sno, sno) IS 'Implements <= for sno';
COMMENT ON FUNCTION sno_gt(sno, sno) IS 'Implements > for sno';
COMMENT ON FUNCTION sno_ge(sno, sno) IS 'Implements >= for sno';
COMMENT ON FUNCTION sno_smaller(sno, sno) IS 'The smaller of two snos (state function of min(sno))';
COMMENT ON FUNCTION sno_larger(sno, sno) IS 'The larger of two snos (state function of max(sno))';
COMMENT ON FUNCTION sno_hash(sno) IS 'Hash of a sno, for hash indexes and hash joins';
COMMENT ON FUNCTION sno_hash_extended(sno, bigint) IS 'Seeded hash of a sno, for hash partitioning';
COMMENT ON FUNCTION sno_sortsupport(internal) IS 'Sort support for sno_ops, with abbreviated keys';
COMMENT ON OPERATOR = (sno, sno) IS 'equal';
COMMENT ON OPERATOR <> (sno, sno) IS 'not equal';
COMMENT ON OPERATOR < (sno, sno) IS 'less than (earlier, for the same metabyte and partition)';
COMMENT ON OPERATOR <= (sno, sno) IS 'less than or equal';
COMMENT ON OPERATOR > (sno, sno) IS 'greater than';
COMMENT ON OPERATOR >= (sno, sno) IS 'greater than or equal';
COMMENT ON OPERATOR CLASS sno_ops USING btree IS 'Default btree class of sno: byte order, which is time order';
COMMENT ON OPERATOR FAMILY sno_ops USING btree IS 'Byte order of sno';
COMMENT ON OPERATOR CLASS sno_hash_ops USING hash IS 'Default hash class of sno';
COMMENT ON OPERATOR FAMILY sno_hash_ops USING hash IS 'Hashing of sno';
COMMENT ON AGGREGATE min(sno) IS 'Smallest sno';
COMMENT ON AGGREGATE max(sno) IS 'Largest sno';
COMMENT ON CAST (sno AS bytea) IS 'The 10 raw bytes';
COMMENT ON CAST (bytea AS sno) IS 'sno from exactly 10 bytes';

COMMENT ON FUNCTION muid_new(integer) IS
  'New Gink muid (as uuid) with this server''s medallion (comb_ext.medallion) and the given offset; timestamps are µs from the wall clock, strictly increasing across all sessions of the server';
COMMENT ON FUNCTION muid_pack(bigint, bigint, integer) IS
  'Gink muid from its fields: timestamp 0..2^52-1 µs since 1970, medallion 0..2^44-1 (-1 for either: Gink''s all-bits sentinel), offset any integer (two''s complement)';
COMMENT ON FUNCTION muid_pack(timestamptz, bigint, integer) IS
  'Gink muid with the time given as timestamptz (1970 to 2112-09-17; infinity is the -1 sentinel)';
COMMENT ON FUNCTION muid_unpack(uuid) IS 'The three fields of a muid: timestamp (µs since 1970, -1 for the sentinel), medallion, offset';
COMMENT ON FUNCTION muid_timestamp(uuid) IS 'The time of a muid (µs); the -1 sentinel is infinity';
COMMENT ON FUNCTION muid_timestamp_us(uuid) IS 'The timestamp field of a muid as Gink''s integer: µs since 1970, or -1 for the sentinel';
COMMENT ON FUNCTION muid_medallion(uuid) IS 'The medallion (node) of a muid, or -1 for the sentinel';
COMMENT ON FUNCTION muid_offset(uuid) IS 'The offset of a muid (signed 32 bits)';
COMMENT ON FUNCTION muid_text(uuid) IS 'Canonical muid text: 34 upper-case characters, TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO';
COMMENT ON FUNCTION muid_parse(text) IS
  'muid from canonical text in either case, or the short forms TTTTTTTTTTTTT-MMMMMMMMMMM and TTTTTTTTTTTTT (missing fields are 0)';

COMMENT ON TYPE uid8_mode IS
  'Layout of an 8-byte unique ID: spread (timestamp bit-reversed, inserts spread over the whole index; the library default) or time_sequential (timestamp in the top bits, inserts at the right edge)';
COMMENT ON FUNCTION uid8_new(uid8_mode) IS
  'New 8-byte unique ID as bigint: wall-clock ms, up to 64 per ms, this session''s generator id (claimed on first use, held until the session ends), cluster id from comb_ext.uid8_cluster_id';
COMMENT ON FUNCTION uid8_timestamp(bigint) IS 'The time of an 8-byte unique ID (ms)';
COMMENT ON FUNCTION uid8_sequence(bigint) IS 'The sequence number (0-63) of an 8-byte unique ID';
COMMENT ON FUNCTION uid8_generator(bigint) IS 'The generator id (0-2047) of an 8-byte unique ID';
COMMENT ON FUNCTION uid8_cluster(bigint) IS 'The cluster id (0-15) of an 8-byte unique ID';
COMMENT ON FUNCTION uid8_mode(bigint) IS 'The mode of an 8-byte unique ID, from its mode bit';
COMMENT ON FUNCTION uid8_from_parts(bigint, integer, integer, integer, uid8_mode) IS
  '8-byte unique ID from its fields: timestamp_ms 0..2^42-1, sequence 0..63, generator 0..2047, cluster 0..15';
COMMENT ON FUNCTION uid8_to_bytea(bigint) IS 'The 8 bytes of an ID, big-endian (the library''s byte form)';
COMMENT ON FUNCTION uid8_from_bytea(bytea) IS 'ID from exactly 8 bytes, big-endian';
COMMENT ON FUNCTION comb_ext_marks() IS
  'The high-water marks of sno_new, muid_new and uid8_new on disk (comb_ext/ in the data directory) next to the wall clock: the time each reserves up to, how far ahead of the clock, the values, and why a start would refuse one';
COMMENT ON FUNCTION comb_watermark(comb_format) IS
  'Bound for readers that follow comb_uuid() keys in order: every row with an id below it that ever commits is visible to a read started after this call, and no id made after it is below it; read WHERE id > last AND id < comb_watermark() ORDER BY id (#<# and the SQL Server order for the sqlserver formats)';
COMMENT ON FUNCTION sno_watermark() IS
  'Bound for readers that follow sno_new() keys in order: every row with an id below it that ever commits is visible to a read started after this call, and no id made after it is below it';
COMMENT ON FUNCTION muid_watermark() IS
  'Bound for readers that follow muid_new() keys in order: every row with an id below it that ever commits is visible to a read started after this call, and no id made after it is below it';
COMMENT ON FUNCTION uid8_watermark() IS
  'Bound for readers that follow uid8_new(''time_sequential'') keys in order: every row with an id below it that ever commits is visible to a read started after this call, and no id made after it is below it';
COMMENT ON FUNCTION comb_watermark_holders() IS
  'The open transactions (pid) and prepared ones (prepared_xid) that hold watermarks back, per family, with the time of their earliest id';
