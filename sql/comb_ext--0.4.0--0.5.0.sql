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
