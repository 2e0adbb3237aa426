-- comb_ext 0.4.0 -> 0.5.0
--
-- comb_ext_marks(): the high-water marks of sno_new, muid_new and uid8_new on disk, next to the
-- clock. (The library writes its marks ahead, off the generators' locks, into comb_ext/sno.mark and
-- the others; the first start of a server on it folds 0.4.0's files in. Nothing in the catalog
-- depends on that.)
CREATE FUNCTION comb_ext_marks() RETURNS TABLE (
    "family" text,
    "file" text,
    "mark" timestamptz,
    "clock" timestamptz,
    "ahead" interval,
    "record" bigint[],
    "problem" text
)
STRICT VOLATILE PARALLEL SAFE
LANGUAGE c AS 'MODULE_PATHNAME', 'comb_ext_marks_wrapper';

COMMENT ON FUNCTION comb_ext_marks() IS
  'The high-water marks of sno_new, muid_new and uid8_new on disk (comb_ext/ in the data directory) next to the wall clock: the time each reserves up to, how far ahead of the clock, the values, and why a start would refuse one';

-- Watermarks for readers that follow ids in order (docs/reading-in-order.md: "Reading rows in id order").
CREATE FUNCTION comb_watermark("format" comb_format DEFAULT 'postgresql') RETURNS uuid
STRICT VOLATILE PARALLEL RESTRICTED
LANGUAGE c AS 'MODULE_PATHNAME', 'comb_watermark_wrapper';

CREATE FUNCTION sno_watermark() RETURNS sno
STRICT VOLATILE PARALLEL RESTRICTED
LANGUAGE c AS 'MODULE_PATHNAME', 'sno_watermark_wrapper';

CREATE FUNCTION muid_watermark() RETURNS uuid
STRICT VOLATILE PARALLEL RESTRICTED
LANGUAGE c AS 'MODULE_PATHNAME', 'muid_watermark_wrapper';

CREATE FUNCTION uid8_watermark() RETURNS bigint
STRICT VOLATILE PARALLEL RESTRICTED
LANGUAGE c AS 'MODULE_PATHNAME', 'uid8_watermark_wrapper';

CREATE FUNCTION comb_watermark_holders() RETURNS TABLE (
    "pid" integer,
    "family" text,
    "held_since" timestamptz,
    "prepared_xid" bigint
)
STRICT VOLATILE PARALLEL SAFE
LANGUAGE c AS 'MODULE_PATHNAME', 'comb_watermark_holders_wrapper';

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

-- Key functions whose native uuid order is SQL Server's, or the binary formats': the SQL edition
-- (portable/) has them too, for indexes and ORDER BY without an operator class.
CREATE FUNCTION uuid_sqlserver_key("id" uuid) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_sqlserver_key_wrapper';

CREATE FUNCTION uuid_binary_key("id" uuid) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_binary_key_wrapper';

COMMENT ON FUNCTION uuid_sqlserver_key(uuid) IS
  'The uuid whose native order is SQL Server''s order of id (its bytes 10-15, 8-9, 7-6, 5-4, 3-0): for expression indexes, ORDER BY and partition bounds without the operator class, as in the SQL edition';
COMMENT ON FUNCTION uuid_binary_key(uuid) IS
  'The uuid whose native order is the binary formats'' order of id (.NET ToByteArray bytes: 3-0, 5-4, 7-6, 8-15), as in the SQL edition';
