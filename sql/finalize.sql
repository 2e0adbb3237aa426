-- Runs once every object of the extension exists: a comment on each (\dT+, \df+ and
-- pg_description show them), then the overloads that take untyped literals.

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
COMMENT ON FUNCTION comb_floor_postgresql(timestamptz) IS
  'comb_floor(ts, ''postgresql'') with one argument, for tools that take a function name and no format (pg_partman''s p_time_encoder)';
COMMENT ON FUNCTION comb_timestamp_postgresql(uuid) IS
  'comb_timestamp(id, ''postgresql'') with one argument, for tools that take a function name and no format (pg_partman''s p_time_decoder through its text overload, TimescaleDB''s partition_func)';
COMMENT ON FUNCTION comb_floor_sqlserver(timestamptz) IS
  'comb_floor(ts, ''sqlserver'') with one argument, for tools that take a function name and no format (pg_partman''s p_time_encoder)';
COMMENT ON FUNCTION comb_timestamp_sqlserver(uuid) IS
  'comb_timestamp(id, ''sqlserver'') with one argument, for tools that take a function name and no format (pg_partman''s p_time_decoder through its text overload, TimescaleDB''s partition_func)';
COMMENT ON FUNCTION comb_floor_legacy(timestamptz) IS
  'comb_floor(ts, ''legacy'') with one argument, for tools that take a function name and no format (pg_partman''s p_time_encoder)';
COMMENT ON FUNCTION comb_timestamp_legacy(uuid) IS
  'comb_timestamp(id, ''legacy'') with one argument, for tools that take a function name and no format (pg_partman''s p_time_decoder through its text overload, TimescaleDB''s partition_func)';
COMMENT ON FUNCTION comb_floor_binary(timestamptz) IS
  'comb_floor(ts, ''binary'') with one argument, for tools that take a function name and no format (pg_partman''s p_time_encoder)';
COMMENT ON FUNCTION comb_timestamp_binary(uuid) IS
  'comb_timestamp(id, ''binary'') with one argument, for tools that take a function name and no format (pg_partman''s p_time_decoder through its text overload, TimescaleDB''s partition_func)';
COMMENT ON FUNCTION comb_floor_postgresql_sqldatetime(timestamptz) IS
  'comb_floor(ts, ''postgresql_sqldatetime'') with one argument, for tools that take a function name and no format (pg_partman''s p_time_encoder)';
COMMENT ON FUNCTION comb_timestamp_postgresql_sqldatetime(uuid) IS
  'comb_timestamp(id, ''postgresql_sqldatetime'') with one argument, for tools that take a function name and no format (pg_partman''s p_time_decoder through its text overload, TimescaleDB''s partition_func)';
COMMENT ON FUNCTION comb_floor_binary_sqldatetime(timestamptz) IS
  'comb_floor(ts, ''binary_sqldatetime'') with one argument, for tools that take a function name and no format (pg_partman''s p_time_encoder)';
COMMENT ON FUNCTION comb_timestamp_binary_sqldatetime(uuid) IS
  'comb_timestamp(id, ''binary_sqldatetime'') with one argument, for tools that take a function name and no format (pg_partman''s p_time_decoder through its text overload, TimescaleDB''s partition_func)';
COMMENT ON FUNCTION comb_floor_ticks(timestamptz) IS
  'comb_floor(ts, ''ticks'') with one argument, for tools that take a function name and no format (pg_partman''s p_time_encoder)';
COMMENT ON FUNCTION comb_timestamp_ticks(uuid) IS
  'comb_timestamp(id, ''ticks'') with one argument, for tools that take a function name and no format (pg_partman''s p_time_decoder through its text overload, TimescaleDB''s partition_func)';
COMMENT ON FUNCTION comb_floor_uuidv7(timestamptz) IS
  'comb_floor(ts, ''uuidv7'') with one argument, for tools that take a function name and no format (pg_partman''s p_time_encoder)';
COMMENT ON FUNCTION comb_timestamp_uuidv7(uuid) IS
  'comb_timestamp(id, ''uuidv7'') with one argument, for tools that take a function name and no format (pg_partman''s p_time_decoder through its text overload, TimescaleDB''s partition_func)';
COMMENT ON FUNCTION comb_timestamp(uuid, comb_format, boolean) IS
  'comb_timestamp(id, format), except that with strict false an id that holds no time of the format (a uuid that is not version 7 read as uuidv7, a field no clock value has) is NULL, not an error: for columns that also hold ids of other kinds';
COMMENT ON FUNCTION comb_timestamp_postgresql(uuid, boolean) IS
  'comb_timestamp(id, ''postgresql'', strict) with the format in its name';
COMMENT ON FUNCTION comb_timestamp_sqlserver(uuid, boolean) IS
  'comb_timestamp(id, ''sqlserver'', strict) with the format in its name';
COMMENT ON FUNCTION comb_timestamp_legacy(uuid, boolean) IS
  'comb_timestamp(id, ''legacy'', strict) with the format in its name';
COMMENT ON FUNCTION comb_timestamp_binary(uuid, boolean) IS
  'comb_timestamp(id, ''binary'', strict) with the format in its name';
COMMENT ON FUNCTION comb_timestamp_postgresql_sqldatetime(uuid, boolean) IS
  'comb_timestamp(id, ''postgresql_sqldatetime'', strict) with the format in its name';
COMMENT ON FUNCTION comb_timestamp_binary_sqldatetime(uuid, boolean) IS
  'comb_timestamp(id, ''binary_sqldatetime'', strict) with the format in its name';
COMMENT ON FUNCTION comb_timestamp_ticks(uuid, boolean) IS
  'comb_timestamp(id, ''ticks'', strict) with the format in its name';
COMMENT ON FUNCTION comb_timestamp_uuidv7(uuid, boolean) IS
  'comb_timestamp(id, ''uuidv7'', strict) with the format in its name';
COMMENT ON FUNCTION comb_is_ticks(uuid) IS
  'Seed 001''s IsComb check: true when the high nibble of string byte 7 (.NET byte 6) is 0xC';
COMMENT ON FUNCTION comb_range_bound(timestamptz, comb_format) IS
  'comb_floor for range scans: times the format cannot hold map to the lowest or highest uuid, so open-ended ranges work';
COMMENT ON FUNCTION comb_range_lower(timestamptz, timestamptz, comb_format) IS
  'Lower bound of comb_in_range(id, lower, upper, format) in the format''s order (comb_range_bound of lower); NULL when either time is NULL';
COMMENT ON FUNCTION comb_range_upper(timestamptz, timestamptz, comb_format) IS
  'Upper (exclusive) bound of comb_in_range(id, lower, upper, format) in the format''s order (comb_range_bound of upper); NULL when either time is NULL';
COMMENT ON FUNCTION comb_in_range(uuid, timestamptz, timestamptz, comb_format) IS
  'True when the COMB''s time lies in [lower, upper); the planner rewrites it as id >= lower bound AND id < upper bound in the format''s order, so btree and BRIN indexes on id (uuid_ops for postgresql formats and uuidv7, uuid_sqlserver_ops for sqlserver, legacy, ticks, uuid_binary_ops for binary, binary_sqldatetime) and range partitioning on id serve it';
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
  'The uuid whose native order is the binary formats'' order of id (.NET ToByteArray bytes: 3-0, 5-4, 7-6, 8-15): for expression indexes, ORDER BY and partition bounds without the operator class, as in the SQL edition';
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

COMMENT ON FUNCTION uuid_binary_cmp(uuid, uuid) IS
  'Compares uuids as the binary formats'' order does (.NET ToByteArray bytes 3-0, 5-4, 7-6, 8-15 compared raw): -1, 0 or 1';
COMMENT ON FUNCTION uuid_binary_lt(uuid, uuid) IS 'Implements ~<~: less than in the binary formats'' order';
COMMENT ON FUNCTION uuid_binary_le(uuid, uuid) IS 'Implements ~<=~: less than or equal in the binary formats'' order';
COMMENT ON FUNCTION uuid_binary_ge(uuid, uuid) IS 'Implements ~>=~: greater than or equal in the binary formats'' order';
COMMENT ON FUNCTION uuid_binary_gt(uuid, uuid) IS 'Implements ~>~: greater than in the binary formats'' order';
COMMENT ON FUNCTION uuid_binary_sortsupport(internal) IS
  'Sort support for uuid_binary_ops, with abbreviated keys';
COMMENT ON OPERATOR ~<~ (uuid, uuid) IS 'less than in .NET Guid.ToByteArray() byte order (the binary formats'')';
COMMENT ON OPERATOR ~<=~ (uuid, uuid) IS 'less than or equal in .NET Guid.ToByteArray() byte order (the binary formats'')';
COMMENT ON OPERATOR ~>=~ (uuid, uuid) IS 'greater than or equal in .NET Guid.ToByteArray() byte order (the binary formats'')';
COMMENT ON OPERATOR ~>~ (uuid, uuid) IS 'greater than in .NET Guid.ToByteArray() byte order (the binary formats'')';
COMMENT ON OPERATOR CLASS uuid_binary_ops USING btree IS
  '.NET Guid.ToByteArray() byte order for uuid, the binary formats'' (non-default): CREATE INDEX ... (id uuid_binary_ops)';
COMMENT ON OPERATOR FAMILY uuid_binary_ops USING btree IS
  '.NET Guid.ToByteArray() byte order for uuid';

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
COMMENT ON FUNCTION muid_floor(timestamptz) IS
  'Smallest muid whose muid_timestamp is at or after the time (medallion and offset 0): a range-scan and partition bound, pg_partman''s p_time_encoder';
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
COMMENT ON FUNCTION uid8_floor(timestamptz) IS
  'Smallest time_sequential uid8 whose uid8_timestamp is at or after the time (sequence, generator and cluster 0): a range-scan and partition bound';
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
  'Bound for readers that follow comb_uuid() keys in order: every row with an id below it that ever commits is visible to a read started after this call, and no id made after it is below it. Take it in one statement and read in the next (SELECT comb_watermark() AS w; then WHERE id > last AND id < w ORDER BY id, with #<# for the sqlserver formats): WHERE id < comb_watermark() in the read itself can skip rows, as its snapshot is older than the call';
COMMENT ON FUNCTION sno_watermark() IS
  'Bound for readers that follow sno_new() keys in order: every row with an id below it that ever commits is visible to a read started after this call, and no id made after it is below it. Take it in one statement and read in the next (docs/reading-in-order.md): in the read itself it can skip rows, as its snapshot is older than the call';
COMMENT ON FUNCTION muid_watermark() IS
  'Bound for readers that follow muid_new() keys in order: every row with an id below it that ever commits is visible to a read started after this call, and no id made after it is below it. Take it in one statement and read in the next (docs/reading-in-order.md): in the read itself it can skip rows, as its snapshot is older than the call';
COMMENT ON FUNCTION uid8_watermark() IS
  'Bound for readers that follow uid8_new(''time_sequential'') keys in order: every row with an id below it that ever commits is visible to a read started after this call, and no id made after it is below it. Take it in one statement and read in the next (docs/reading-in-order.md): in the read itself it can skip rows, as its snapshot is older than the call';
COMMENT ON FUNCTION comb_watermark_holders() IS
  'The open transactions (pid) and prepared ones (prepared_xid) that hold watermarks back, per family, with the time of their earliest id';

COMMENT ON FUNCTION comb_ext_identity() IS
  'The settings that set this server''s ids apart (sno partition, medallion, uid8 cluster id), and whether the generator using each refuses until it is set to another value, after a copy of the data directory, a pg_upgrade or a promotion; records where the data directory runs';
-- Where this server runs, so that a copy made before any generator has run is recognised.
SELECT count(*) FROM comb_ext_identity();

-- The short text forms (docs/ids-that-do-not-tell-their-age.md#short-text-forms-that-sort).
COMMENT ON FUNCTION comb_text(uuid, text) IS
  'The uuid as 26 base32 digits, upper case, that sort as the uuid under COLLATE "C": encoding base32hex (RFC 4648, as PostgreSQL 19''s rtrim(encode(id::bytea, ''base32hex''), ''='')) or crockford (ULID text); another encoding is 22023';
COMMENT ON FUNCTION comb_parse(text, text) IS
  'The uuid of 26 base32hex or crockford digits in either case (crockford: I and L read as 1, O as 0); bad text is 22P02 naming the first bad position, or the length';
COMMENT ON FUNCTION typeid_text(uuid, text) IS
  'The TypeID of the uuid (jetify-com/typeid spec 0.3.0): prefix, _, and 26 lower-case Crockford digits; an empty prefix gives the digits alone; a prefix that is not at most 63 characters of a-z and _, beginning and ending with a letter, is 22023';
COMMENT ON FUNCTION typeid_parse(text) IS
  'The uuid of a TypeID of any prefix, by the TypeID spec''s rules; bad text is 22P02 naming the first bad position';
COMMENT ON FUNCTION typeid_parse(text, text) IS
  'The uuid of a TypeID whose prefix is expected_prefix ('''' for none); another prefix, or bad text, is 22P02';
COMMENT ON FUNCTION typeid_prefix(text) IS
  'The prefix of a valid TypeID ('''' for none); bad text is 22P02';
COMMENT ON FUNCTION uid8_text(bigint) IS
  'The bigint as 13 upper-case Crockford digits of its 64 bits with the sign bit flipped, so that under COLLATE "C" the texts sort as the bigints do';
COMMENT ON FUNCTION uid8_parse(text) IS
  'The bigint of 13 Crockford digits in either case (I and L read as 1, O as 0; the first at most F); bad text is 22P02 naming the first bad position, or the length';

-- Keyed masking (docs/ids-that-do-not-tell-their-age.md#masking).
COMMENT ON FUNCTION comb_mask(uuid, comb_format) IS
  'The masked form of a COMB (uuidv47 construction on the format''s time field; for uuidv7 uuidv47''s own façade): a v4-looking uuid, under the default key of comb_ext.mask_key';
COMMENT ON FUNCTION comb_mask(uuid, comb_format, integer) IS
  'comb_mask under the key with this key id in comb_ext.mask_key';
COMMENT ON FUNCTION comb_mask(uuid, comb_format, bytea) IS
  'comb_mask under a key given as 16 bytes (k0 then k1, each little-endian, as uuidv47): immutable; a key written into a statement can reach the server log';
COMMENT ON FUNCTION comb_unmask(uuid, comb_format) IS
  'The COMB a masked uuid stands for, under the default key of comb_ext.mask_key; 22P02 for a uuid no COMB of the format masks to';
COMMENT ON FUNCTION comb_unmask(uuid, comb_format, integer) IS
  'comb_unmask under the key with this key id in comb_ext.mask_key';
COMMENT ON FUNCTION comb_unmask(uuid, comb_format, bytea) IS
  'comb_unmask under a key given as 16 bytes: immutable';
COMMENT ON FUNCTION muid_mask(uuid) IS
  'The masked form of a muid (an 8-round SipHash Feistel network over its 128 bits), under the default key of comb_ext.mask_key';
COMMENT ON FUNCTION muid_mask(uuid, integer) IS 'muid_mask under the key with this key id in comb_ext.mask_key';
COMMENT ON FUNCTION muid_mask(uuid, bytea) IS 'muid_mask under a key given as 16 bytes: immutable';
COMMENT ON FUNCTION muid_unmask(uuid) IS 'The muid a masked uuid stands for, under the default key of comb_ext.mask_key';
COMMENT ON FUNCTION muid_unmask(uuid, integer) IS 'muid_unmask under the key with this key id in comb_ext.mask_key';
COMMENT ON FUNCTION muid_unmask(uuid, bytea) IS 'muid_unmask under a key given as 16 bytes: immutable';
COMMENT ON FUNCTION sno_mask(sno) IS
  'The masked form of a sno (an 8-round SipHash Feistel network over its 80 bits), under the default key of comb_ext.mask_key';
COMMENT ON FUNCTION sno_mask(sno, integer) IS 'sno_mask under the key with this key id in comb_ext.mask_key';
COMMENT ON FUNCTION sno_mask(sno, bytea) IS 'sno_mask under a key given as 16 bytes: immutable';
COMMENT ON FUNCTION sno_unmask(sno) IS 'The sno a masked sno stands for, under the default key of comb_ext.mask_key';
COMMENT ON FUNCTION sno_unmask(sno, integer) IS 'sno_unmask under the key with this key id in comb_ext.mask_key';
COMMENT ON FUNCTION sno_unmask(sno, bytea) IS 'sno_unmask under a key given as 16 bytes: immutable';
COMMENT ON FUNCTION uid8_mask(bigint) IS
  'The masked form of a bigint (an 8-round SipHash Feistel network over its 64 bits), under the default key of comb_ext.mask_key';
COMMENT ON FUNCTION uid8_mask(bigint, integer) IS 'uid8_mask under the key with this key id in comb_ext.mask_key';
COMMENT ON FUNCTION uid8_mask(bigint, bytea) IS 'uid8_mask under a key given as 16 bytes: immutable';
COMMENT ON FUNCTION uid8_unmask(bigint) IS 'The bigint a masked bigint stands for, under the default key of comb_ext.mask_key';
COMMENT ON FUNCTION uid8_unmask(bigint, integer) IS 'uid8_unmask under the key with this key id in comb_ext.mask_key';
COMMENT ON FUNCTION uid8_unmask(bigint, bytea) IS 'uid8_unmask under a key given as 16 bytes: immutable';

-- Overloads for literals of the types whose input is a fixed reading of text (docs/guarantees.md#names-on-the-search_path):
-- for every function of the extension and every uuid, sno or bytea argument, an overload that takes
-- text there, in every combination, at each number of arguments its defaults allow. Tools that pass
-- text call them (pg_partman gives its p_time_decoder the control column's value as text); an untyped
-- quoted literal or parameter there resolves to them, and a quoted bytea key (integer or bytea) is not
-- ambiguous. Each casts its arguments and calls the function it stands for, every name
-- schema-qualified: the casts are immutable, so a call of literals folds to the constants the parser
-- would have made, and the call inside checks EXECUTE on that function, so a REVOKE on it covers its
-- overloads. None for timestamptz (its input reads TimeZone and DateStyle, which would change what a
-- stored expression means from session to session), none for bigint (an int4 one made smallint
-- arguments ambiguous), none for the enums (a literal label is read by the enum's input when parsed).
-- Generated from the catalog, so a function added later is covered; it creates only what is
-- missing, so an update script runs it again. Nothing here is substituted into a string: the
-- schema is read from pg_extension and every name quoted by quote_ident or %I.
DO $literal_overloads$
DECLARE
    extension_oid pg_catalog.oid;
    schema_name pg_catalog.text;
    source record;
    types pg_catalog.oid[];
    variant pg_catalog.oid[];
    varied pg_catalog.int4[];
    arity pg_catalog.int4;
    mask pg_catalog.int4;
    i pg_catalog.int4;
    j pg_catalog.int4;
    signature pg_catalog.oid[];
    parameters pg_catalog.text[];
    arguments pg_catalog.text[];
    argument pg_catalog.text;
    volatility "char";
    existing pg_catalog.oid;
    statement pg_catalog.text;
    created pg_catalog.oid;
    marker CONSTANT pg_catalog.text := 'For untyped literals: ';
BEGIN
    SELECT e.oid, pg_catalog.quote_ident(n.nspname) INTO STRICT extension_oid, schema_name
    FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
    WHERE e.extname OPERATOR(pg_catalog.=) 'comb_ext';
    FOR source IN
        SELECT p.oid, p.proname, ARRAY(SELECT pg_catalog.unnest(p.proargtypes)) AS types, p.pronargs, p.pronargdefaults,
               p.provolatile, p.proparallel, p.proisstrict, p.prorettype, p.proargnames
        FROM pg_catalog.pg_proc p
        JOIN pg_catalog.pg_depend d ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
             AND d.objid OPERATOR(pg_catalog.=) p.oid
             AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
             AND d.refobjid OPERATOR(pg_catalog.=) extension_oid AND d.deptype OPERATOR(pg_catalog.=) 'e'
        WHERE p.prokind OPERATOR(pg_catalog.=) 'f' AND NOT p.proretset AND p.pronargs OPERATOR(pg_catalog.>) 0
          -- not a type's I/O, support or sort function (internal and cstring are pseudo-types: no literal fills them)
          AND NOT EXISTS (SELECT FROM pg_catalog.pg_type ty
                          WHERE ty.typtype OPERATOR(pg_catalog.=) 'p'
                            AND (ty.oid OPERATOR(pg_catalog.=) ANY (p.proargtypes::pg_catalog.oid[])
                                 OR ty.oid OPERATOR(pg_catalog.=) p.prorettype))
          -- not an overload made here, by an earlier run
          AND NOT pg_catalog.starts_with(COALESCE(pg_catalog.obj_description(p.oid, 'pg_proc'), ''), marker)
        ORDER BY p.oid
    LOOP
        -- The one alternative each argument type has for a literal, or 0 for none.
        types := source.types;
        variant := ARRAY(
            SELECT CASE
                WHEN t OPERATOR(pg_catalog.=) ANY (ARRAY['pg_catalog.uuid', 'pg_catalog.bytea']::pg_catalog.regtype[]::pg_catalog.oid[])
                     OR (SELECT ty.typtype OPERATOR(pg_catalog.=) 'b' AND ty.typcategory OPERATOR(pg_catalog.=) 'U'
                         FROM pg_catalog.pg_type ty WHERE ty.oid OPERATOR(pg_catalog.=) t)
                    THEN 'pg_catalog.text'::pg_catalog.regtype::pg_catalog.oid
                ELSE 0::pg_catalog.oid
            END
            FROM pg_catalog.unnest(types) WITH ORDINALITY AS a(t, n) ORDER BY n);
        FOR arity IN (source.pronargs OPERATOR(pg_catalog.-) source.pronargdefaults) .. source.pronargs LOOP
            CONTINUE WHEN arity OPERATOR(pg_catalog.<) 1;
            varied := ARRAY(SELECT n FROM pg_catalog.generate_series(1, arity) n
                            WHERE variant[n] OPERATOR(pg_catalog.<>) 0::pg_catalog.oid ORDER BY n);
            CONTINUE WHEN pg_catalog.cardinality(varied) OPERATOR(pg_catalog.=) 0;
            FOR mask IN 1 .. (1 OPERATOR(pg_catalog.<<) pg_catalog.cardinality(varied)) OPERATOR(pg_catalog.-) 1 LOOP
                signature := types[1:arity];
                volatility := source.provolatile;
                arguments := ARRAY(SELECT pg_catalog.format('$%s', n) FROM pg_catalog.generate_series(1, arity) n ORDER BY n);
                FOR j IN 1 .. pg_catalog.cardinality(varied) LOOP
                    CONTINUE WHEN mask OPERATOR(pg_catalog.&) (1 OPERATOR(pg_catalog.<<) (j OPERATOR(pg_catalog.-) 1)) OPERATOR(pg_catalog.=) 0;
                    i := varied[j];
                    signature[i] := variant[i];
                    SELECT pg_catalog.format('$%s::%I.%I', i, tn.nspname, ty.typname) INTO STRICT argument
                    FROM pg_catalog.pg_type ty JOIN pg_catalog.pg_namespace tn ON tn.oid OPERATOR(pg_catalog.=) ty.typnamespace
                    WHERE ty.oid OPERATOR(pg_catalog.=) types[i];
                    arguments[i] := argument;
                    -- Parsing text is as volatile as the type's input function (immutable for these).
                    IF variant[i] OPERATOR(pg_catalog.=) 'pg_catalog.text'::pg_catalog.regtype::pg_catalog.oid THEN
                        SELECT CASE WHEN f.provolatile OPERATOR(pg_catalog.=) 'v' OR volatility OPERATOR(pg_catalog.=) 'v' THEN 'v'
                                    WHEN f.provolatile OPERATOR(pg_catalog.=) 's' OR volatility OPERATOR(pg_catalog.=) 's' THEN 's'
                                    ELSE 'i' END
                        INTO STRICT volatility
                        FROM pg_catalog.pg_type ty JOIN pg_catalog.pg_proc f ON f.oid OPERATOR(pg_catalog.=) ty.typinput
                        WHERE ty.oid OPERATOR(pg_catalog.=) types[i];
                    END IF;
                END LOOP;
                SELECT p.oid INTO existing FROM pg_catalog.pg_proc p
                WHERE p.proname OPERATOR(pg_catalog.=) source.proname
                  AND p.pronamespace OPERATOR(pg_catalog.=) (SELECT extnamespace FROM pg_catalog.pg_extension
                                                             WHERE oid OPERATOR(pg_catalog.=) extension_oid)
                  AND p.proargtypes OPERATOR(pg_catalog.=) pg_catalog.array_to_string(signature, ' ')::pg_catalog.oidvector;
                IF FOUND THEN
                    -- comb_uuid(text) names a format; a function of someone else's is refused.
                    CONTINUE WHEN EXISTS (SELECT FROM pg_catalog.pg_depend d
                        WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                          AND d.objid OPERATOR(pg_catalog.=) existing
                          AND d.refobjid OPERATOR(pg_catalog.=) extension_oid AND d.deptype OPERATOR(pg_catalog.=) 'e');
                    RAISE EXCEPTION 'comb_ext: function %.%(%) exists and is not the extension''s', schema_name,
                        pg_catalog.quote_ident(source.proname), (SELECT pg_catalog.string_agg(pg_catalog.format_type(t, NULL), ', ')
                                                                 FROM pg_catalog.unnest(signature) t)
                        USING ERRCODE = 'duplicate_function', HINT = 'Drop it, or create the extension in a schema of its own.';
                END IF;
                parameters := ARRAY(
                    SELECT pg_catalog.concat_ws(' ', pg_catalog.quote_ident(NULLIF(source.proargnames[n], '')),
                                                pg_catalog.format('%I.%I', tn.nspname, ty.typname))
                    FROM pg_catalog.generate_series(1, arity) n
                    JOIN pg_catalog.pg_type ty ON ty.oid OPERATOR(pg_catalog.=) signature[n]
                    JOIN pg_catalog.pg_namespace tn ON tn.oid OPERATOR(pg_catalog.=) ty.typnamespace
                    ORDER BY n);
                SELECT pg_catalog.format(
                    'CREATE FUNCTION %s.%I(%s) RETURNS %I.%I LANGUAGE sql %s %s PARALLEL %s AS %L',
                    schema_name, source.proname, pg_catalog.array_to_string(parameters, ', '),
                    rn.nspname, rt.typname,
                    CASE volatility WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE' ELSE 'VOLATILE' END,
                    CASE WHEN source.proisstrict THEN 'STRICT' ELSE 'CALLED ON NULL INPUT' END,
                    CASE source.proparallel WHEN 's' THEN 'SAFE' WHEN 'r' THEN 'RESTRICTED' ELSE 'UNSAFE' END,
                    pg_catalog.format('SELECT %s.%I(%s)', schema_name, source.proname, pg_catalog.array_to_string(arguments, ', ')))
                INTO STRICT statement
                FROM pg_catalog.pg_type rt JOIN pg_catalog.pg_namespace rn ON rn.oid OPERATOR(pg_catalog.=) rt.typnamespace
                WHERE rt.oid OPERATOR(pg_catalog.=) source.prorettype;
                EXECUTE statement;
                SELECT p.oid INTO STRICT created FROM pg_catalog.pg_proc p
                WHERE p.proname OPERATOR(pg_catalog.=) source.proname
                  AND p.pronamespace OPERATOR(pg_catalog.=) (SELECT extnamespace FROM pg_catalog.pg_extension
                                                             WHERE oid OPERATOR(pg_catalog.=) extension_oid)
                  AND p.proargtypes OPERATOR(pg_catalog.=) pg_catalog.array_to_string(signature, ' ')::pg_catalog.oidvector;
                EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s IS %L', created::pg_catalog.regprocedure,
                    marker OPERATOR(pg_catalog.||) 'casts its arguments and calls ' OPERATOR(pg_catalog.||)
                    (source.oid::pg_catalog.regprocedure)::pg_catalog.text);
            END LOOP;
        END LOOP;
    END LOOP;
END
$literal_overloads$;
