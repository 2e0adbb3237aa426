-- Every object of the extension carries a comment (\dT+, \df+ and pg_description show them).

COMMENT ON TYPE comb_format IS
  'Where a COMB keeps its time and which clock it uses: postgresql (default, unix ms in bytes 0-5), sqlserver (unix ms in bytes 10-15), legacy (SQL Server datetime in bytes 10-15), binary (unix ms in .NET ToByteArray bytes 0-5), postgresql_sqldatetime, binary_sqldatetime, ticks (.NET DateTime.Ticks for SQL Server order)';

COMMENT ON FUNCTION comb_uuid() IS
  'New COMB uuid (postgresql format) from the wall clock; values made by one session strictly increase';
COMMENT ON FUNCTION comb_uuid(comb_format) IS
  'New COMB uuid in the given format from the wall clock; values made by one session strictly increase in the format''s own order';
COMMENT ON FUNCTION comb_uuid(text) IS
  'New COMB uuid in the format named by the text (lets comb_uuid(''sqlserver'') resolve without a cast)';
COMMENT ON FUNCTION comb_uuid(timestamptz, comb_format) IS
  'New COMB uuid carrying the given time: random bytes stamped with it (RT.Comb Create(DateTime))';
COMMENT ON FUNCTION comb_stamp(uuid, timestamptz, comb_format) IS
  'The uuid with the time written over the format''s time bytes, every other bit kept (RT.Comb Create(Guid, DateTime))';
COMMENT ON FUNCTION comb_timestamp(uuid, comb_format) IS
  'The time embedded in a COMB: the first microsecond of its clock unit';
COMMENT ON FUNCTION comb_floor(timestamptz, comb_format) IS
  'Smallest uuid, in the format''s order, whose comb_timestamp is at or after the time: a range-scan bound';
COMMENT ON FUNCTION comb_is_ticks(uuid) IS
  'Seed 001''s IsComb check: true when the high nibble of string byte 7 (.NET byte 6) is 0xC';
COMMENT ON FUNCTION comb_range_bound(timestamptz, comb_format) IS
  'comb_floor for range scans: times the format cannot hold map to the lowest or highest uuid, so open-ended ranges work';
COMMENT ON FUNCTION comb_in_range(uuid, timestamptz, timestamptz, comb_format) IS
  'True when the COMB''s time lies in [lower, upper); an index on the id (uuid_ops for postgresql formats, uuid_sqlserver_ops for sqlserver, legacy, ticks) serves it as a range scan';
COMMENT ON FUNCTION comb_in_range_support(internal) IS
  'Planner support for comb_in_range: supplies the index range conditions';

COMMENT ON FUNCTION uuid_sqlserver_cmp(uuid, uuid) IS
  'Compares uuids as SQL Server compares uniqueidentifier (bytes 10-15, 8-9, 7-6, 5-4, 3-0): -1, 0 or 1';
COMMENT ON FUNCTION uuid_sqlserver_lt(uuid, uuid) IS 'Implements #<#: less than in SQL Server order';
COMMENT ON FUNCTION uuid_sqlserver_le(uuid, uuid) IS 'Implements #<=#: less than or equal in SQL Server order';
COMMENT ON FUNCTION uuid_sqlserver_ge(uuid, uuid) IS 'Implements #>=#: greater than or equal in SQL Server order';
COMMENT ON FUNCTION uuid_sqlserver_gt(uuid, uuid) IS 'Implements #>#: greater than in SQL Server order';
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
