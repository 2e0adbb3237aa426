-- comb_ext 0.3.0 -> 0.4.0
--
-- The uuidv7 comb_format (RFC 9562 UUIDv7 laid out as PostgreSQL 18's uuidv7()), and a planner
-- rewrite of comb_in_range into comparisons, which partition pruning and BRIN indexes read: its
-- bounds are comb_range_lower/comb_range_upper when the times are not constants.
-- (ADD VALUE may run inside the update's transaction: nothing below uses the new label.)
ALTER TYPE comb_format ADD VALUE 'uuidv7';

CREATE FUNCTION comb_range_lower("lower" timestamptz, "upper" timestamptz, "format" comb_format) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c AS 'MODULE_PATHNAME', 'comb_range_lower_wrapper';

CREATE FUNCTION comb_range_upper("lower" timestamptz, "upper" timestamptz, "format" comb_format) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c AS 'MODULE_PATHNAME', 'comb_range_upper_wrapper';

COMMENT ON TYPE comb_format IS
  'Where a COMB keeps its time and which clock it uses: postgresql (default, unix ms in bytes 0-5), sqlserver (unix ms in bytes 10-15), legacy (SQL Server datetime in bytes 10-15), binary (unix ms in .NET ToByteArray bytes 0-5), postgresql_sqldatetime, binary_sqldatetime, ticks (.NET DateTime.Ticks for SQL Server order), uuidv7 (RFC 9562 version 7, as PostgreSQL 18''s uuidv7())';
COMMENT ON FUNCTION comb_uuid() IS
  'New COMB uuid (postgresql format) from the wall clock; the bits after the millisecond hold its fraction, so values of all sessions sort by time, and values made by one session strictly increase';
COMMENT ON FUNCTION comb_uuid(timestamptz, comb_format) IS
  'New COMB uuid carrying the given time: random bytes stamped with it, the bits after the time unit holding its fraction (RT.Comb Create(DateTime))';
COMMENT ON FUNCTION comb_stamp(uuid, timestamptz, comb_format) IS
  'The uuid with the time written over the format''s time bytes, every other bit kept but the ticks marker and the uuidv7 version and variant (RT.Comb Create(Guid, DateTime))';
COMMENT ON FUNCTION comb_timestamp(uuid, comb_format) IS
  'The time embedded in a COMB: the first microsecond of its clock unit (for uuidv7 the millisecond, as uuid_extract_timestamp; a uuid that is not version 7 is an error)';
COMMENT ON FUNCTION comb_range_lower(timestamptz, timestamptz, comb_format) IS
  'Lower bound of comb_in_range(id, lower, upper, format) in the format''s order (comb_range_bound of lower); NULL when either time is NULL';
COMMENT ON FUNCTION comb_range_upper(timestamptz, timestamptz, comb_format) IS
  'Upper (exclusive) bound of comb_in_range(id, lower, upper, format) in the format''s order (comb_range_bound of upper); NULL when either time is NULL';
COMMENT ON FUNCTION comb_in_range(uuid, timestamptz, timestamptz, comb_format) IS
  'True when the COMB''s time lies in [lower, upper); the planner rewrites it as id >= lower bound AND id < upper bound in the format''s order, so btree and BRIN indexes on id (uuid_ops for postgresql formats and uuidv7, uuid_sqlserver_ops for sqlserver, legacy, ticks) and range partitioning on id serve it';
COMMENT ON FUNCTION comb_in_range_support(internal) IS
  'Planner support for comb_in_range: rewrites it as comparisons in the format''s btree operator family (SupportRequestSimplify)';
