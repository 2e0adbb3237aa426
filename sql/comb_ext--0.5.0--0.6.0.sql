-- comb_ext 0.5.0 -> 0.6.0
--
-- comb_ext_identity(): the identity settings checked against where the data directory runs
-- (comb_ext/identity replaces 0.5.0's comb_ext/origin; docs/guarantees.md). The short text forms:
-- comb_text/comb_parse, typeid_text/typeid_parse/typeid_prefix, uid8_text/uid8_parse
-- (docs/ids-that-do-not-tell-their-age.md). Keyed masking: comb_mask/comb_unmask, muid_mask/muid_unmask,
-- sno_mask/sno_unmask, uid8_mask/uid8_unmask (the same page). One-argument bounds and decoders for
-- partitioning tools: comb_floor_<format>, comb_timestamp_<format>, muid_floor, uid8_floor
-- (docs/partitioning.md). The forms of comb_timestamp and comb_timestamp_<format> with a `strict` argument
-- (docs/adopting.md). comb_ext_adopt, which moves an existing table's key to comb_ext ids
-- (docs/adopting.md; the text of sql/adopt.sql). The operator class uuid_binary_ops, .NET ToByteArray order
-- for the binary formats (docs/comb.md). Then the overloads that take text for uuid, sno and bytea arguments
-- (docs/guarantees.md#names-on-the-search_path), made by the same block as a fresh install's finalize.sql
-- runs (scripts/test.sh's upgrade test compares the two catalogs object by object).

CREATE FUNCTION "comb_ext_identity"() RETURNS TABLE (
	"setting" TEXT,
	"refused" bool
)
STRICT VOLATILE PARALLEL UNSAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_ext_identity_wrapper';














-- The short text forms of uuids (base32hex, Crockford, TypeID) and of uid8 bigints.
CREATE FUNCTION "comb_parse"(
	"text" TEXT,
	"encoding" TEXT
) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_parse_wrapper';

CREATE FUNCTION "comb_text"(
	"id" uuid,
	"encoding" TEXT
) RETURNS TEXT
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_text_wrapper';

CREATE FUNCTION "typeid_parse"(
	"text" TEXT
) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'typeid_parse_any_wrapper';

CREATE FUNCTION "typeid_parse"(
	"text" TEXT,
	"expected_prefix" TEXT
) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'typeid_parse_expected_wrapper';

CREATE FUNCTION "typeid_prefix"(
	"text" TEXT
) RETURNS TEXT
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'typeid_prefix_wrapper';

CREATE FUNCTION "typeid_text"(
	"id" uuid,
	"prefix" TEXT
) RETURNS TEXT
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'typeid_text_wrapper';

CREATE FUNCTION "uid8_parse"(
	"text" TEXT
) RETURNS bigint
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'uid8_parse_wrapper';

CREATE FUNCTION "uid8_text"(
	"id" bigint
) RETURNS TEXT
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'uid8_text_wrapper';

-- Keyed masking of every family (docs/ids-that-do-not-tell-their-age.md#masking).
CREATE FUNCTION "comb_mask"(
	"id" uuid,
	"format" comb_format DEFAULT 'postgresql'
) RETURNS uuid
STRICT STABLE PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_mask_wrapper';

CREATE FUNCTION "comb_mask"(
	"id" uuid,
	"format" comb_format,
	"key" bytea
) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_mask_key_wrapper';

CREATE FUNCTION "comb_mask"(
	"id" uuid,
	"format" comb_format,
	"key_id" INT
) RETURNS uuid
STRICT STABLE PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_mask_key_id_wrapper';




CREATE FUNCTION "comb_unmask"(
	"id" uuid,
	"format" comb_format DEFAULT 'postgresql'
) RETURNS uuid
STRICT STABLE PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_unmask_wrapper';

CREATE FUNCTION "comb_unmask"(
	"id" uuid,
	"format" comb_format,
	"key" bytea
) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_unmask_key_wrapper';

CREATE FUNCTION "comb_unmask"(
	"id" uuid,
	"format" comb_format,
	"key_id" INT
) RETURNS uuid
STRICT STABLE PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_unmask_key_id_wrapper';




CREATE FUNCTION "muid_mask"(
	"id" uuid
) RETURNS uuid
STRICT STABLE PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'muid_mask_wrapper';

CREATE FUNCTION "muid_mask"(
	"id" uuid,
	"key" bytea
) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'muid_mask_key_wrapper';

CREATE FUNCTION "muid_mask"(
	"id" uuid,
	"key_id" INT
) RETURNS uuid
STRICT STABLE PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'muid_mask_key_id_wrapper';

CREATE FUNCTION "muid_unmask"(
	"id" uuid
) RETURNS uuid
STRICT STABLE PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'muid_unmask_wrapper';

CREATE FUNCTION "muid_unmask"(
	"id" uuid,
	"key" bytea
) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'muid_unmask_key_wrapper';

CREATE FUNCTION "muid_unmask"(
	"id" uuid,
	"key_id" INT
) RETURNS uuid
STRICT STABLE PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'muid_unmask_key_id_wrapper';

CREATE FUNCTION "sno_mask"(
	"id" sno,
	"key_id" INT
) RETURNS sno
STRICT STABLE PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'sno_mask_key_id_wrapper';

CREATE FUNCTION "sno_mask"(
	"id" sno
) RETURNS sno
STRICT STABLE PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'sno_mask_wrapper';

CREATE FUNCTION "sno_mask"(
	"id" sno,
	"key" bytea
) RETURNS sno
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'sno_mask_key_wrapper';

CREATE FUNCTION "sno_unmask"(
	"id" sno
) RETURNS sno
STRICT STABLE PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'sno_unmask_wrapper';

CREATE FUNCTION "sno_unmask"(
	"id" sno,
	"key" bytea
) RETURNS sno
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'sno_unmask_key_wrapper';

CREATE FUNCTION "sno_unmask"(
	"id" sno,
	"key_id" INT
) RETURNS sno
STRICT STABLE PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'sno_unmask_key_id_wrapper';

CREATE FUNCTION "uid8_mask"(
	"id" bigint
) RETURNS bigint
STRICT STABLE PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'uid8_mask_wrapper';

CREATE FUNCTION "uid8_mask"(
	"id" bigint,
	"key" bytea
) RETURNS bigint
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'uid8_mask_key_wrapper';

CREATE FUNCTION "uid8_mask"(
	"id" bigint,
	"key_id" INT
) RETURNS bigint
STRICT STABLE PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'uid8_mask_key_id_wrapper';

CREATE FUNCTION "uid8_unmask"(
	"id" bigint
) RETURNS bigint
STRICT STABLE PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'uid8_unmask_wrapper';

CREATE FUNCTION "uid8_unmask"(
	"id" bigint,
	"key" bytea
) RETURNS bigint
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'uid8_unmask_key_wrapper';

CREATE FUNCTION "uid8_unmask"(
	"id" bigint,
	"key_id" INT
) RETURNS bigint
STRICT STABLE PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'uid8_unmask_key_id_wrapper';

-- One-argument bounds and decoders for partitioning tools (docs/partitioning.md): comb_floor_<format>,
-- comb_timestamp_<format>, muid_floor, uid8_floor.
CREATE FUNCTION "comb_floor_postgresql"(
	"ts" timestamp with time zone
) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_floor_postgresql_wrapper';

CREATE FUNCTION "comb_timestamp_postgresql"(
	"id" uuid
) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_timestamp_postgresql_wrapper';

CREATE FUNCTION "comb_floor_sqlserver"(
	"ts" timestamp with time zone
) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_floor_sqlserver_wrapper';

CREATE FUNCTION "comb_timestamp_sqlserver"(
	"id" uuid
) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_timestamp_sqlserver_wrapper';

CREATE FUNCTION "comb_floor_legacy"(
	"ts" timestamp with time zone
) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_floor_legacy_wrapper';

CREATE FUNCTION "comb_timestamp_legacy"(
	"id" uuid
) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_timestamp_legacy_wrapper';

CREATE FUNCTION "comb_floor_binary"(
	"ts" timestamp with time zone
) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_floor_binary_wrapper';

CREATE FUNCTION "comb_timestamp_binary"(
	"id" uuid
) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_timestamp_binary_wrapper';

CREATE FUNCTION "comb_floor_postgresql_sqldatetime"(
	"ts" timestamp with time zone
) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_floor_postgresql_sqldatetime_wrapper';

CREATE FUNCTION "comb_timestamp_postgresql_sqldatetime"(
	"id" uuid
) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_timestamp_postgresql_sqldatetime_wrapper';

CREATE FUNCTION "comb_floor_binary_sqldatetime"(
	"ts" timestamp with time zone
) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_floor_binary_sqldatetime_wrapper';

CREATE FUNCTION "comb_timestamp_binary_sqldatetime"(
	"id" uuid
) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_timestamp_binary_sqldatetime_wrapper';

CREATE FUNCTION "comb_floor_ticks"(
	"ts" timestamp with time zone
) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_floor_ticks_wrapper';

CREATE FUNCTION "comb_timestamp_ticks"(
	"id" uuid
) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_timestamp_ticks_wrapper';

CREATE FUNCTION "comb_floor_uuidv7"(
	"ts" timestamp with time zone
) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_floor_uuidv7_wrapper';

CREATE FUNCTION "comb_timestamp_uuidv7"(
	"id" uuid
) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_timestamp_uuidv7_wrapper';

CREATE FUNCTION "muid_floor"(
	"ts" timestamp with time zone
) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'muid_floor_wrapper';

CREATE FUNCTION "uid8_floor"(
	"ts" timestamp with time zone
) RETURNS bigint
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'uid8_floor_wrapper';

COMMENT ON FUNCTION comb_ext_identity() IS
  'The settings that set this server''s ids apart (sno partition, medallion, uid8 cluster id), and whether the generator using each refuses until it is set to another value, after a copy of the data directory, a pg_upgrade or a promotion; records where the data directory runs';
-- The decoders' forms with a `strict` argument: NULL, with strict false, for an id that holds no time of the
-- format (docs/adopting.md#old-and-new-ids-in-one-column).
CREATE FUNCTION "comb_timestamp"(
	"id" uuid,
	"format" comb_format,
	"strict" bool
) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_timestamp_with_strict_wrapper';

CREATE FUNCTION "comb_timestamp_postgresql"(
	"id" uuid,
	"strict" bool
) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_timestamp_postgresql_with_strict_wrapper';

CREATE FUNCTION "comb_timestamp_sqlserver"(
	"id" uuid,
	"strict" bool
) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_timestamp_sqlserver_with_strict_wrapper';

CREATE FUNCTION "comb_timestamp_legacy"(
	"id" uuid,
	"strict" bool
) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_timestamp_legacy_with_strict_wrapper';

CREATE FUNCTION "comb_timestamp_binary"(
	"id" uuid,
	"strict" bool
) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_timestamp_binary_with_strict_wrapper';

CREATE FUNCTION "comb_timestamp_postgresql_sqldatetime"(
	"id" uuid,
	"strict" bool
) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_timestamp_postgresql_sqldatetime_with_strict_wrapper';

CREATE FUNCTION "comb_timestamp_binary_sqldatetime"(
	"id" uuid,
	"strict" bool
) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_timestamp_binary_sqldatetime_with_strict_wrapper';

CREATE FUNCTION "comb_timestamp_ticks"(
	"id" uuid,
	"strict" bool
) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_timestamp_ticks_with_strict_wrapper';

CREATE FUNCTION "comb_timestamp_uuidv7"(
	"id" uuid,
	"strict" bool
) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'comb_timestamp_uuidv7_with_strict_wrapper';

-- Where this server runs, so that a copy made before any generator has run is recognised.
SELECT count(*) FROM comb_ext_identity();

-- The watermarks' comments: the read must come in a statement after the call (0.5.0's said otherwise).
COMMENT ON FUNCTION comb_watermark(comb_format) IS
  'Bound for readers that follow comb_uuid() keys in order: every row with an id below it that ever commits is visible to a read started after this call, and no id made after it is below it. Take it in one statement and read in the next (SELECT comb_watermark() AS w; then WHERE id > last AND id < w ORDER BY id, with #<# for the sqlserver formats): WHERE id < comb_watermark() in the read itself can skip rows, as its snapshot is older than the call';
COMMENT ON FUNCTION sno_watermark() IS
  'Bound for readers that follow sno_new() keys in order: every row with an id below it that ever commits is visible to a read started after this call, and no id made after it is below it. Take it in one statement and read in the next (docs/reading-in-order.md): in the read itself it can skip rows, as its snapshot is older than the call';
COMMENT ON FUNCTION muid_watermark() IS
  'Bound for readers that follow muid_new() keys in order: every row with an id below it that ever commits is visible to a read started after this call, and no id made after it is below it. Take it in one statement and read in the next (docs/reading-in-order.md): in the read itself it can skip rows, as its snapshot is older than the call';
COMMENT ON FUNCTION uid8_watermark() IS
  'Bound for readers that follow uid8_new(''time_sequential'') keys in order: every row with an id below it that ever commits is visible to a read started after this call, and no id made after it is below it. Take it in one statement and read in the next (docs/reading-in-order.md): in the read itself it can skip rows, as its snapshot is older than the call';

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
COMMENT ON FUNCTION muid_floor(timestamptz) IS
  'Smallest muid whose muid_timestamp is at or after the time (medallion and offset 0): a range-scan and partition bound, pg_partman''s p_time_encoder';
COMMENT ON FUNCTION uid8_floor(timestamptz) IS
  'Smallest time_sequential uid8 whose uid8_timestamp is at or after the time (sequence, generator and cluster 0): a range-scan and partition bound';

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

-- comb_ext_adopt: new rows of an existing table take comb_ext ids, old rows keep theirs (docs/adopting.md).
-- Hand-written, as the rest of sql/: every name in it is pg_catalog's (its search_path is pg_catalog and
-- pg_temp, in that order) or the extension's own, written with @extschema@; the defaults it writes name the
-- extension's schema too, so an insert's search_path never picks another function.
CREATE FUNCTION @extschema@.comb_ext_adopt(tbl regclass, col name, generator text, dry_run boolean DEFAULT false)
RETURNS TABLE (
    relation regclass,
    column_name name,
    adopted_generator text,
    old_default text,
    new_default text,
    sequence text,
    lock text,
    restore text,
    changed boolean
)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $adopt$
DECLARE
    generators CONSTANT text := 'uid8, uid8 spread, muid, sno, or a comb_format label (postgresql, sqlserver, legacy, '
        'binary, postgresql_sqldatetime, binary_sqldatetime, ticks, uuidv7)';
    -- Old values below this cannot equal a uid8 spread id: its bits 63 to 22 are its bit-reversed
    -- millisecond, never all 0 after 1970-01-01 00:00:00.000.
    spread_clear CONSTANT bigint := 4194304;
    wanted regtype;
    expression text;
    kind char;
    owner oid;
    att record;
    old_expr text;
    seq regclass;
    seq_last bigint;
    key_found boolean;
    citus_method text;
    seq_distributed boolean := false;
    bad record;
    top bigint;
    bottom bigint;
    floor_now bigint;
    target text;
    column_sql text;
BEGIN
    IF tbl IS NULL OR col IS NULL OR generator IS NULL OR dry_run IS NULL THEN
        RAISE EXCEPTION 'comb_ext_adopt: every argument must be given: table, column, generator and dry_run are not NULL'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    CASE
        WHEN generator = 'uid8' THEN
            wanted := 'bigint';
            expression := '@extschema@.uid8_new(''time_sequential''::@extschema@.uid8_mode)';
        WHEN generator = 'uid8 spread' THEN
            wanted := 'bigint';
            expression := '@extschema@.uid8_new(''spread''::@extschema@.uid8_mode)';
        WHEN generator = 'muid' THEN
            wanted := 'uuid';
            expression := '@extschema@.muid_new(0)';
        WHEN generator = 'sno' THEN
            wanted := '@extschema@.sno'::regtype;
            expression := '@extschema@.sno_new(0)';
        WHEN generator = ANY (enum_range(NULL::@extschema@.comb_format)::text[]) THEN
            wanted := 'uuid';
            expression := format('@extschema@.comb_uuid(%L::@extschema@.comb_format)', generator);
        ELSE
            RAISE EXCEPTION 'comb_ext_adopt: generator "%" is not one comb_ext_adopt sets', generator
                USING ERRCODE = 'invalid_parameter_value', HINT = 'The generators: ' || generators || '.';
    END CASE;
    -- The SQL edition (docs/portable.md) runs this same function and has no uid8 or sno generator. What is
    -- there is read from what the extension comb_ext itself holds, never from names anyone could create.
    IF generator IN ('uid8', 'uid8 spread', 'sno') AND NOT EXISTS (
        SELECT FROM pg_catalog.pg_proc p
        JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.objid = p.oid
                                    AND d.deptype = 'e'
        JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'comb_ext'
        WHERE p.pronamespace = '@extschema@'::pg_catalog.regnamespace
          AND p.proname = CASE generator WHEN 'sno' THEN 'sno_new' ELSE 'uid8_new' END) THEN
        RAISE EXCEPTION 'comb_ext_adopt: generator "%" is not in this edition of comb_ext: the SQL edition makes COMBs and muids', generator
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'Adopt a comb_format label or muid, or install the compiled edition for uid8 and sno.';
    END IF;

    SELECT c.relkind, c.relowner INTO kind, owner FROM pg_catalog.pg_class c WHERE c.oid = tbl;
    IF kind IS NULL THEN
        RAISE EXCEPTION 'comb_ext_adopt: relation with OID % does not exist', tbl::oid USING ERRCODE = 'undefined_table';
    END IF;
    target := tbl::text;  -- schema-qualified: the search_path is pg_catalog's alone
    IF kind NOT IN ('r', 'p') THEN
        RAISE EXCEPTION 'comb_ext_adopt: % is not a table', target USING ERRCODE = 'wrong_object_type',
            HINT = 'comb_ext_adopt sets the default of a table''s key column (a partitioned table''s reaches its partitions).';
    END IF;
    IF NOT pg_catalog.pg_has_role(current_user, owner, 'USAGE') THEN
        RAISE EXCEPTION 'comb_ext_adopt: must be owner of table % to adopt its column %', target, quote_ident(col)
            USING ERRCODE = 'insufficient_privilege',
            HINT = 'Run it as the table''s owner, or as a member of the owning role.';
    END IF;

    SELECT a.attnum, a.atttypid, a.attidentity, a.attgenerated INTO att
    FROM pg_catalog.pg_attribute a
    WHERE a.attrelid = tbl AND a.attname = col AND a.attnum > 0 AND NOT a.attisdropped;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'comb_ext_adopt: table % has no column %', target, quote_ident(col) USING ERRCODE = 'undefined_column';
    END IF;
    column_sql := format('%s.%I', target, col);
    IF att.attgenerated <> '' THEN
        RAISE EXCEPTION 'comb_ext_adopt: column % is a generated column: its values are computed, not defaulted', column_sql
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    IF att.atttypid <> wanted THEN
        RAISE EXCEPTION 'comb_ext_adopt: column % is of type %, and generator % makes %', column_sql,
                format_type(att.atttypid, NULL), generator, wanted
            USING ERRCODE = 'datatype_mismatch',
            HINT = CASE WHEN wanted = 'bigint'::regtype AND att.atttypid IN ('integer'::regtype, 'smallint'::regtype)
                        THEN 'Change the column to bigint first (ALTER TABLE ... ALTER COLUMN ... TYPE bigint rewrites the table under an ACCESS EXCLUSIVE lock), and every column whose foreign key references it.'
                        ELSE 'Choose a generator of the column''s type: ' || generators || '.' END;
    END IF;

    -- A key: the only column of a valid, non-partial unique index (a primary key or a unique constraint).
    SELECT EXISTS (
        SELECT FROM pg_catalog.pg_index i
        WHERE i.indrelid = tbl AND i.indisunique AND i.indisvalid AND i.indpred IS NULL AND i.indexprs IS NULL
          AND i.indnkeyatts = 1 AND i.indkey[0] = att.attnum) INTO key_found;
    IF NOT key_found THEN
        RAISE EXCEPTION 'comb_ext_adopt: column % is not a key: no primary key or unique index has it as its only column', column_sql
            USING ERRCODE = 'object_not_in_prerequisite_state',
            HINT = 'comb_ext_adopt sets the default of a key column, which a unique index keeps free of duplicates. Add the primary key or a unique index (CREATE UNIQUE INDEX CONCURRENTLY) first.';
    END IF;

    -- Every column whose foreign key references this one must hold the new ids.
    SELECT con.conname, con.conrelid::regclass AS child, a.attname, a.atttypid INTO bad
    FROM pg_catalog.pg_constraint con
    JOIN pg_catalog.pg_attribute a ON a.attrelid = con.conrelid
        AND a.attnum = con.conkey[pg_catalog.array_position(con.confkey, att.attnum)]
    WHERE con.contype = 'f' AND con.confrelid = tbl AND att.attnum = ANY (con.confkey) AND a.atttypid <> wanted
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'comb_ext_adopt: foreign key % of % references column % from its column %, of type %, which cannot hold % ids',
                quote_ident(bad.conname), bad.child::text, column_sql, quote_ident(bad.attname), format_type(bad.atttypid, NULL), generator
            USING ERRCODE = 'datatype_mismatch',
            HINT = format('Change %s.%I to %s first (a rewrite of that table).', bad.child::text, bad.attname, wanted);
    END IF;

    -- A partition key: new ids would fall outside the partitions' bounds.
    IF EXISTS (SELECT FROM pg_catalog.pg_partitioned_table p WHERE p.partrelid = tbl AND att.attnum = ANY (p.partattrs::int2[]))
       OR EXISTS (SELECT FROM pg_catalog.pg_inherits h
                  JOIN pg_catalog.pg_partitioned_table p ON p.partrelid = h.inhparent
                  JOIN pg_catalog.pg_attribute pa ON pa.attrelid = h.inhparent AND pa.attname = col
                  WHERE h.inhrelid = tbl AND pa.attnum = ANY (p.partattrs::int2[])) THEN
        RAISE EXCEPTION 'comb_ext_adopt: column % is a partition key: new ids would fall outside the partitions'' bounds', column_sql
            USING ERRCODE = 'object_not_in_prerequisite_state',
            HINT = 'Create partitions for the new ids'' range first (docs/partitioning.md), then set the default with ALTER TABLE on the partitioned table.';
    END IF;

    -- Citus refuses ALTER TABLE on a distribution column, which a distributed table's key alone must be; the
    -- table goes back to the coordinator for the adoption, and out again.
    IF pg_catalog.to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL THEN
        EXECUTE 'SELECT partmethod::text FROM pg_catalog.pg_dist_partition WHERE logicalrelid = $1' INTO citus_method USING tbl;
        IF citus_method IS NOT NULL THEN
            RAISE EXCEPTION 'comb_ext_adopt: % is a Citus % table, whose key''s default Citus does not let ALTER TABLE change', target,
                    CASE citus_method WHEN 'n' THEN 'reference' ELSE 'distributed' END
                USING ERRCODE = 'feature_not_supported',
                HINT = format('Adopt it on the coordinator as a local table, then distribute it again (both move the table''s rows): SELECT undistribute_table(%1$L); SELECT * FROM comb_ext_adopt(%1$L, %2$L, %3$L); SELECT %4$s; (undistribute_table takes cascade_via_foreign_keys => true where foreign keys tie it to other Citus tables: distribute those again too).',
                    target, col, generator,
                    CASE citus_method WHEN 'n' THEN format('create_reference_table(%L)', target)
                         ELSE format('create_distributed_table(%L, %L)', target, col) END);
        END IF;
    END IF;

    IF att.attidentity = 'a' THEN
        RAISE EXCEPTION 'comb_ext_adopt: column % is GENERATED ALWAYS AS IDENTITY: after adoption inserts could name the column, which it now forbids', column_sql
            USING ERRCODE = 'object_not_in_prerequisite_state',
            HINT = format('If inserts naming the column are acceptable, first: ALTER TABLE %s ALTER COLUMN %I SET GENERATED BY DEFAULT;', target, col);
    END IF;

    SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid) INTO old_expr
    FROM pg_catalog.pg_attrdef d WHERE d.adrelid = tbl AND d.adnum = att.attnum;
    seq := pg_catalog.pg_get_serial_sequence(target, col)::regclass;
    IF seq IS NOT NULL THEN
        seq_last := pg_catalog.pg_sequence_last_value(seq);
        -- Citus refuses to alter a sequence it has distributed (one a distributed table used, even once the
        -- table is local again): such a sequence stays owned by the column.
        IF pg_catalog.to_regclass('pg_catalog.pg_dist_object') IS NOT NULL THEN
            EXECUTE 'SELECT EXISTS (SELECT FROM pg_catalog.pg_dist_object WHERE classid = ''pg_catalog.pg_class''::pg_catalog.regclass AND objid = $1)'
                INTO seq_distributed USING seq;
        END IF;
    END IF;

    IF NOT dry_run THEN
        -- The lock ALTER COLUMN ... SET DEFAULT takes anyway, taken before the values are read, so no row
        -- comes in between; held to the end of the caller's transaction.
        EXECUTE format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', target);
    END IF;
    IF generator IN ('uid8', 'uid8 spread') THEN
        -- Forced row-level security would hide rows from the owner's max() too.
        IF EXISTS (SELECT FROM pg_catalog.pg_class c WHERE c.oid = tbl AND c.relrowsecurity AND c.relforcerowsecurity) THEN
            RAISE EXCEPTION 'comb_ext_adopt: table % forces row-level security, so its owner may not see every value of column %', target, column_sql
                USING ERRCODE = 'object_not_in_prerequisite_state',
                HINT = format('Adopt it with the policies lifted for the owner: ALTER TABLE %s NO FORCE ROW LEVEL SECURITY; then FORCE again.', target);
        END IF;
        EXECUTE format('SELECT max(%1$I), min(%1$I) FROM %2$s', col, target) INTO top, bottom;
        floor_now := @extschema@.uid8_floor(pg_catalog.clock_timestamp());
        IF generator = 'uid8' AND top >= floor_now THEN
            RAISE EXCEPTION 'comb_ext_adopt: column % holds values up to %, not below the first uid8 the generator issues now, %: new ids would not sort after the old ones', column_sql, top, floor_now
                USING ERRCODE = 'object_not_in_prerequisite_state',
                HINT = 'Old values must be below uid8_floor(now()). Keep them in another column, or keep the column''s generator.';
        END IF;
        IF generator = 'uid8 spread' AND (top >= spread_clear OR bottom < 0) THEN
            RAISE EXCEPTION 'comb_ext_adopt: column % holds values from % to %, and a uid8 spread id can equal a value outside 0 to %', column_sql, bottom, top, spread_clear - 1
                USING ERRCODE = 'object_not_in_prerequisite_state',
                HINT = 'Spread ids scatter over the whole bigint range: adopt ''uid8'' (time_sequential), whose ids sort after the old ones, as a primary key''s should.';
        END IF;
    END IF;

    relation := tbl;
    column_name := col;
    adopted_generator := generator;
    old_default := CASE WHEN att.attidentity = 'd' THEN 'GENERATED BY DEFAULT AS IDENTITY' ELSE old_expr END;
    new_default := expression;
    lock := 'ACCESS EXCLUSIVE on ' || target || CASE WHEN kind = 'p' THEN ' and its partitions' ELSE '' END
        || ', to the end of the transaction';
    IF old_expr = expression AND att.attidentity = '' THEN
        -- Adopted already: nothing to change.
        sequence := NULL;
        restore := NULL;
        changed := false;
        IF dry_run THEN lock := 'none (dry run)'; END IF;
        RETURN NEXT;
        RETURN;
    END IF;

    IF att.attidentity = 'd' THEN
        sequence := format('%s: dropped with the identity (PostgreSQL drops an identity''s sequence with it); its last value %s',
                           seq::text, coalesce(seq_last::text, 'none (never used)'));
        restore := format('ALTER TABLE %1$s ALTER COLUMN %2$I DROP DEFAULT, ALTER COLUMN %2$I ADD GENERATED BY DEFAULT AS IDENTITY (START WITH %3$s);',
                          target, col, coalesce(seq_last + 1, 1));
    ELSIF seq IS NOT NULL AND seq_distributed THEN
        sequence := format('%s: kept, still owned by the column (Citus does not let a distributed sequence be altered); its last value %s',
                           seq::text, coalesce(seq_last::text, 'none (never used)'));
        restore := format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s;', target, col, old_expr);
    ELSIF seq IS NOT NULL THEN
        sequence := format('%s: no longer owned by the column (a DROP TABLE leaves it), kept; its last value %s',
                           seq::text, coalesce(seq_last::text, 'none (never used)'));
        restore := format('ALTER TABLE %1$s ALTER COLUMN %2$I SET DEFAULT %3$s; ALTER SEQUENCE %4$s OWNED BY %1$s.%2$I;',
                          target, col, old_expr, seq::text);
    ELSE
        sequence := NULL;
        restore := CASE WHEN old_expr IS NULL THEN format('ALTER TABLE %s ALTER COLUMN %I DROP DEFAULT;', target, col)
                        ELSE format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s;', target, col, old_expr) END;
    END IF;

    IF dry_run THEN
        lock := 'none (dry run); adopting takes ' || lock;
        changed := false;
        RETURN NEXT;
        RETURN;
    END IF;
    IF att.attidentity = 'd' THEN
        EXECUTE format('ALTER TABLE %s ALTER COLUMN %I DROP IDENTITY', target, col);
    ELSIF seq IS NOT NULL AND NOT seq_distributed THEN
        EXECUTE format('ALTER SEQUENCE %s OWNED BY NONE', seq::text);
    END IF;
    EXECUTE format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s', target, col, expression);
    changed := true;
    RETURN NEXT;
END
$adopt$;

COMMENT ON FUNCTION @extschema@.comb_ext_adopt(regclass, name, text, boolean) IS
  'Makes new rows of an existing table take comb_ext ids: sets the key column''s default (dropping a BY DEFAULT identity, detaching a serial''s sequence), after checks; old values stay. Returns what it changed and the statements that restore it; dry_run changes nothing (docs/adopting.md)';

-- uuid_binary_ops: .NET Guid.ToByteArray() order for uuid, the binary formats' (docs/comb.md), as
-- sql/sqlserver_order.sql creates it; comb_in_range now rewrites the binary formats into its operators.
CREATE FUNCTION "uuid_binary_lt"(
	"a" uuid,
	"b" uuid
) RETURNS bool
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'uuid_binary_lt_wrapper';
CREATE FUNCTION "uuid_binary_le"(
	"a" uuid,
	"b" uuid
) RETURNS bool
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'uuid_binary_le_wrapper';
CREATE FUNCTION "uuid_binary_ge"(
	"a" uuid,
	"b" uuid
) RETURNS bool
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'uuid_binary_ge_wrapper';
CREATE FUNCTION "uuid_binary_gt"(
	"a" uuid,
	"b" uuid
) RETURNS bool
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'uuid_binary_gt_wrapper';
CREATE FUNCTION "uuid_binary_sortsupport"(
	"ssup" internal
) RETURNS void
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c
AS 'MODULE_PATHNAME', 'uuid_binary_sortsupport_wrapper';
CREATE FUNCTION uuid_binary_cmp(a uuid, b uuid) RETURNS integer
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_binary_cmp';

CREATE OPERATOR ~<~ (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_binary_lt,
    COMMUTATOR = ~>~, NEGATOR = ~>=~, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR ~<=~ (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_binary_le,
    COMMUTATOR = ~>=~, NEGATOR = ~>~, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR ~>=~ (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_binary_ge,
    COMMUTATOR = ~<=~, NEGATOR = ~<~, RESTRICT = scalargesel, JOIN = scalargejoinsel
);
CREATE OPERATOR ~>~ (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_binary_gt,
    COMMUTATOR = ~<~, NEGATOR = ~<=~, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);

CREATE OPERATOR CLASS uuid_binary_ops FOR TYPE uuid USING btree AS
    OPERATOR 1 ~<~,
    OPERATOR 2 ~<=~,
    OPERATOR 3 = (uuid, uuid),
    OPERATOR 4 ~>=~,
    OPERATOR 5 ~>~,
    FUNCTION 1 uuid_binary_cmp(uuid, uuid),
    FUNCTION 2 uuid_binary_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);

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
COMMENT ON FUNCTION comb_in_range(uuid, timestamptz, timestamptz, comb_format) IS
  'True when the COMB''s time lies in [lower, upper); the planner rewrites it as id >= lower bound AND id < upper bound in the format''s order, so btree and BRIN indexes on id (uuid_ops for postgresql formats and uuidv7, uuid_sqlserver_ops for sqlserver, legacy, ticks, uuid_binary_ops for binary, binary_sqldatetime) and range partitioning on id serve it';
COMMENT ON FUNCTION uuid_binary_key(uuid) IS
  'The uuid whose native order is the binary formats'' order of id (.NET ToByteArray bytes: 3-0, 5-4, 7-6, 8-15): for expression indexes, ORDER BY and partition bounds without the operator class, as in the SQL edition';

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
