-- comb_ext 0.1.0 -> 0.2.0: adds the sno type and functions, Gink muids and 8-byte unique IDs.
-- Nothing of 0.1.0 changes. The objects below are those of the 0.2.0 install script that 0.1.0
-- lacks, in the same order (tests/regress/sql/upgrade.sql checks that an updated 0.1.0 install
-- and a fresh 0.2.0 one have the same objects, definitions and comments).
\echo Use "ALTER EXTENSION comb_ext UPDATE TO '0.2.0'" to load this file. \quit

-- creates:
--   Type(sno::Sno)

CREATE TYPE sno;

-- uid8_mode
CREATE TYPE uid8_mode AS ENUM (
	'spread',
	'time_sequential'
);

-- comb_ext::muid::muid_medallion
CREATE  FUNCTION "muid_medallion"(
	"id" uuid /* Uuid */
) RETURNS bigint /* i64 */
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'muid_medallion_wrapper';

-- comb_ext::muid::muid_new
CREATE  FUNCTION "muid_new"(
	"offset" INT DEFAULT 0 /* i32 */
) RETURNS uuid /* Uuid */
STRICT VOLATILE PARALLEL RESTRICTED
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'muid_new_wrapper';

-- comb_ext::muid::muid_offset
CREATE  FUNCTION "muid_offset"(
	"id" uuid /* Uuid */
) RETURNS INT /* i32 */
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'muid_offset_wrapper';

-- comb_ext::muid::muid_pack
CREATE  FUNCTION "muid_pack"(
	"timestamp" bigint, /* i64 */
	"medallion" bigint, /* i64 */
	"offset" INT DEFAULT 0 /* i32 */
) RETURNS uuid /* Uuid */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'muid_pack_wrapper';

-- comb_ext::muid::muid_pack
CREATE  FUNCTION "muid_pack"(
	"timestamp" timestamp with time zone, /* TimestampWithTimeZone */
	"medallion" bigint, /* i64 */
	"offset" INT DEFAULT 0 /* i32 */
) RETURNS uuid /* Uuid */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'muid_pack_time_wrapper';

-- comb_ext::muid::muid_parse
CREATE  FUNCTION "muid_parse"(
	"text" TEXT /* & str */
) RETURNS uuid /* Uuid */
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'muid_parse_wrapper';

-- comb_ext::muid::muid_text
CREATE  FUNCTION "muid_text"(
	"id" uuid /* Uuid */
) RETURNS TEXT /* String */
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'muid_text_wrapper';

-- comb_ext::muid::muid_timestamp
CREATE  FUNCTION "muid_timestamp"(
	"id" uuid /* Uuid */
) RETURNS timestamp with time zone /* TimestampWithTimeZone */
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'muid_timestamp_wrapper';

-- comb_ext::muid::muid_timestamp_us
CREATE  FUNCTION "muid_timestamp_us"(
	"id" uuid /* Uuid */
) RETURNS bigint /* i64 */
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'muid_timestamp_us_wrapper';

-- requires:
--   muid::muid_timestamp_us
--   muid::muid_medallion
--   muid::muid_offset

-- muid_unpack: the three fields as one record, from the accessors (src/muid.rs). A plain SQL
-- function, so the planner inlines it.
CREATE FUNCTION muid_unpack(id uuid, OUT "timestamp" bigint, OUT medallion bigint, OUT "offset" integer)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT @extschema@.muid_timestamp_us(id), @extschema@.muid_medallion(id), @extschema@.muid_offset(id) $$;

-- comb_ext::sno::sno_in
CREATE  FUNCTION "sno_in"(
	"input" cstring /* & CStr */
) RETURNS sno /* Sno */
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_in_wrapper';

-- comb_ext::sno::sno_out
CREATE  FUNCTION "sno_out"(
	"id" sno /* Sno */
) RETURNS cstring /* CString */
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_out_wrapper';

-- comb_ext::sno::sno_recv
CREATE  FUNCTION "sno_recv"(
	"buf" internal /* Internal */
) RETURNS sno /* Sno */
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_recv_wrapper';

-- comb_ext::sno::sno_send
CREATE  FUNCTION "sno_send"(
	"id" sno /* Sno */
) RETURNS bytea /* Vec < u8 > */
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_send_wrapper';

-- requires:
--   sno_shell
--   sno::sno_in
--   sno::sno_out
--   sno::sno_recv
--   sno::sno_send

-- sno: a fixed-length 10-byte base type (not a varlena), passed by reference, byte-aligned.
-- Its I/O functions are created against the shell type first (src/sno.rs).
CREATE TYPE sno (
    INTERNALLENGTH = 10,
    INPUT = sno_in,
    OUTPUT = sno_out,
    RECEIVE = sno_recv,
    SEND = sno_send,
    ALIGNMENT = char,
    STORAGE = plain
);

-- comb_ext::sno::sno_hash
-- requires:
--   sno_type
CREATE  FUNCTION "sno_hash"(
	"id" sno /* Sno */
) RETURNS INT /* i32 */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_hash_wrapper';

-- comb_ext::sno::sno_larger
-- requires:
--   sno_type
CREATE  FUNCTION "sno_larger"(
	"a" sno, /* Sno */
	"b" sno /* Sno */
) RETURNS sno /* Sno */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_larger_wrapper';

-- comb_ext::sno::sno_hash_extended
-- requires:
--   sno_type
CREATE  FUNCTION "sno_hash_extended"(
	"id" sno, /* Sno */
	"seed" bigint /* i64 */
) RETURNS bigint /* i64 */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_hash_extended_wrapper';

-- comb_ext::sno::sno_ge
-- requires:
--   sno_type
CREATE  FUNCTION "sno_ge"(
	"a" sno, /* Sno */
	"b" sno /* Sno */
) RETURNS bool /* bool */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_ge_wrapper';

-- comb_ext::sno::sno_eq
-- requires:
--   sno_type
CREATE  FUNCTION "sno_eq"(
	"a" sno, /* Sno */
	"b" sno /* Sno */
) RETURNS bool /* bool */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_eq_wrapper';

-- comb_ext::sno::sno_le
-- requires:
--   sno_type
CREATE  FUNCTION "sno_le"(
	"a" sno, /* Sno */
	"b" sno /* Sno */
) RETURNS bool /* bool */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_le_wrapper';

-- comb_ext::sno::sno_partition
-- requires:
--   sno_type
CREATE  FUNCTION "sno_partition"(
	"id" sno /* Sno */
) RETURNS INT /* i32 */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_partition_wrapper';

-- comb_ext::sno::sno_meta
-- requires:
--   sno_type
CREATE  FUNCTION "sno_meta"(
	"id" sno /* Sno */
) RETURNS INT /* i32 */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_meta_wrapper';

-- comb_ext::sno::sno_from_parts
-- requires:
--   sno_type
CREATE  FUNCTION "sno_from_parts"(
	"ts" timestamp with time zone, /* TimestampWithTimeZone */
	"meta" INT, /* i32 */
	"partition" INT, /* i32 */
	"sequence" INT, /* i32 */
	"tick" bool DEFAULT false /* bool */
) RETURNS sno /* Sno */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_from_parts_wrapper';

-- comb_ext::sno::sno_floor
-- requires:
--   sno_type
CREATE  FUNCTION "sno_floor"(
	"ts" timestamp with time zone /* TimestampWithTimeZone */
) RETURNS sno /* Sno */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_floor_wrapper';

-- comb_ext::sno::sno_lt
-- requires:
--   sno_type
CREATE  FUNCTION "sno_lt"(
	"a" sno, /* Sno */
	"b" sno /* Sno */
) RETURNS bool /* bool */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_lt_wrapper';

-- comb_ext::sno::sno_new
-- requires:
--   sno_type
CREATE  FUNCTION "sno_new"(
	"meta" INT DEFAULT 0 /* i32 */
) RETURNS sno /* Sno */
STRICT VOLATILE PARALLEL RESTRICTED 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_new_wrapper';

-- comb_ext::sno::sno_from_bytea
-- requires:
--   sno_type
CREATE  FUNCTION "sno_from_bytea"(
	"bytes" bytea /* & [u8] */
) RETURNS sno /* Sno */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_from_bytea_wrapper';

-- comb_ext::sno::sno_gt
-- requires:
--   sno_type
CREATE  FUNCTION "sno_gt"(
	"a" sno, /* Sno */
	"b" sno /* Sno */
) RETURNS bool /* bool */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_gt_wrapper';

-- comb_ext::sno::sno_ne
-- requires:
--   sno_type
CREATE  FUNCTION "sno_ne"(
	"a" sno, /* Sno */
	"b" sno /* Sno */
) RETURNS bool /* bool */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_ne_wrapper';

-- comb_ext::sno::sno_cmp
-- requires:
--   sno_type
CREATE  FUNCTION "sno_cmp"(
	"a" sno, /* Sno */
	"b" sno /* Sno */
) RETURNS INT /* i32 */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_cmp_wrapper';

-- comb_ext::sno::sno_sequence
-- requires:
--   sno_type
CREATE  FUNCTION "sno_sequence"(
	"id" sno /* Sno */
) RETURNS INT /* i32 */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_sequence_wrapper';

-- comb_ext::sno::sno_smaller
-- requires:
--   sno_type
CREATE  FUNCTION "sno_smaller"(
	"a" sno, /* Sno */
	"b" sno /* Sno */
) RETURNS sno /* Sno */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_smaller_wrapper';

-- comb_ext::sno::sno_sortsupport
-- requires:
--   sno_type
CREATE  FUNCTION "sno_sortsupport"(
	"ssup" internal /* Internal */
) RETURNS void
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_sortsupport_wrapper';

-- comb_ext::sno::sno_tick
-- requires:
--   sno_type
CREATE  FUNCTION "sno_tick"(
	"id" sno /* Sno */
) RETURNS bool /* bool */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_tick_wrapper';

-- comb_ext::sno::sno_time
-- requires:
--   sno_type
CREATE  FUNCTION "sno_time"(
	"id" sno /* Sno */
) RETURNS timestamp with time zone /* TimestampWithTimeZone */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_time_wrapper';

-- comb_ext::sno::sno_to_bytea
-- requires:
--   sno_type
CREATE  FUNCTION "sno_to_bytea"(
	"id" sno /* Sno */
) RETURNS bytea /* Vec < u8 > */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'sno_to_bytea_wrapper';

-- requires:
--   sno_type
--   sno::sno_eq
--   sno::sno_ne
--   sno::sno_lt
--   sno::sno_le
--   sno::sno_gt
--   sno::sno_ge
--   sno::sno_cmp
--   sno::sno_sortsupport
--   sno::sno_hash
--   sno::sno_hash_extended
--   sno::sno_smaller
--   sno::sno_larger
--   sno::sno_to_bytea
--   sno::sno_from_bytea

-- Comparison operators, default btree and hash operator classes, min/max, and bytea casts for
-- sno. Byte order is time order, so the btree class is plain byte order.

CREATE OPERATOR = (
    LEFTARG = sno, RIGHTARG = sno, FUNCTION = sno_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = sno, RIGHTARG = sno, FUNCTION = sno_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = sno, RIGHTARG = sno, FUNCTION = sno_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = sno, RIGHTARG = sno, FUNCTION = sno_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = sno, RIGHTARG = sno, FUNCTION = sno_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = sno, RIGHTARG = sno, FUNCTION = sno_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS sno_ops DEFAULT FOR TYPE sno USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 sno_cmp(sno, sno),
    FUNCTION 2 sno_sortsupport(internal);

CREATE OPERATOR CLASS sno_hash_ops DEFAULT FOR TYPE sno USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 sno_hash(sno),
    FUNCTION 2 sno_hash_extended(sno, bigint);

CREATE AGGREGATE min(sno) (
    SFUNC = sno_smaller, STYPE = sno, COMBINEFUNC = sno_smaller, SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(sno) (
    SFUNC = sno_larger, STYPE = sno, COMBINEFUNC = sno_larger, SORTOP = >, PARALLEL = SAFE
);

CREATE CAST (sno AS bytea) WITH FUNCTION sno_to_bytea(sno);
CREATE CAST (bytea AS sno) WITH FUNCTION sno_from_bytea(bytea);

-- comb_ext::uid8::uid8_cluster
CREATE  FUNCTION "uid8_cluster"(
	"id" bigint /* i64 */
) RETURNS INT /* i32 */
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'uid8_cluster_wrapper';

-- comb_ext::uid8::uid8_from_bytea
CREATE  FUNCTION "uid8_from_bytea"(
	"bytes" bytea /* & [u8] */
) RETURNS bigint /* i64 */
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'uid8_from_bytea_wrapper';

-- comb_ext::uid8::uid8_from_parts
CREATE  FUNCTION "uid8_from_parts"(
	"timestamp_ms" bigint, /* i64 */
	"sequence" INT, /* i32 */
	"generator" INT, /* i32 */
	"cluster" INT, /* i32 */
	"mode" uid8_mode DEFAULT 'spread' /* uid8_mode */
) RETURNS bigint /* i64 */
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'uid8_from_parts_wrapper';

-- comb_ext::uid8::uid8_generator
CREATE  FUNCTION "uid8_generator"(
	"id" bigint /* i64 */
) RETURNS INT /* i32 */
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'uid8_generator_wrapper';

-- comb_ext::uid8::uid8_mode
CREATE  FUNCTION "uid8_mode"(
	"id" bigint /* i64 */
) RETURNS uid8_mode /* uid8_mode */
IMMUTABLE STRICT PARALLEL SAFE 
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'uid8_mode_of_wrapper';

-- comb_ext::uid8::uid8_new
CREATE  FUNCTION "uid8_new"(
	"mode" uid8_mode DEFAULT 'spread' /* uid8_mode */
) RETURNS bigint /* i64 */
STRICT VOLATILE PARALLEL RESTRICTED
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'uid8_new_wrapper';

-- comb_ext::uid8::uid8_sequence
CREATE  FUNCTION "uid8_sequence"(
	"id" bigint /* i64 */
) RETURNS INT /* i32 */
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'uid8_sequence_wrapper';

-- comb_ext::uid8::uid8_timestamp
CREATE  FUNCTION "uid8_timestamp"(
	"id" bigint /* i64 */
) RETURNS timestamp with time zone /* TimestampWithTimeZone */
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'uid8_timestamp_wrapper';

-- comb_ext::uid8::uid8_to_bytea
CREATE  FUNCTION "uid8_to_bytea"(
	"id" bigint /* i64 */
) RETURNS bytea /* Vec < u8 > */
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c /* Rust */
AS 'MODULE_PATHNAME', 'uid8_to_bytea_wrapper';

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
