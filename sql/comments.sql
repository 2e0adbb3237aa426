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
