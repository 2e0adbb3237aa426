-- comb_ext 0.5.0 -> 0.6.0
--
-- comb_ext_identity(): the identity settings checked against where the data directory runs
-- (comb_ext/identity replaces 0.5.0's comb_ext/origin; docs/guarantees.md). The short text forms:
-- comb_text/comb_parse, typeid_text/typeid_parse/typeid_prefix, uid8_text/uid8_parse
-- (docs/ids-that-do-not-tell-their-age.md). Keyed masking: comb_mask/comb_unmask, muid_mask/muid_unmask,
-- sno_mask/sno_unmask, uid8_mask/uid8_unmask (the same page). One-argument bounds and decoders for
-- partitioning tools: comb_floor_<format>, comb_timestamp_<format>, muid_floor, uid8_floor
-- (docs/partitioning.md). Then the overloads that take text for uuid, sno and bytea arguments
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
