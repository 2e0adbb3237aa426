--
-- comb_ext_marks(): each generator's mark on disk (comb_ext/ in the data directory) next to the
-- clock. Every value a generator has returned lies below its mark: a value is returned only once
-- a mark on disk covers it, and the file only ever moves ahead.
--
CREATE TEMP TABLE made AS
SELECT 'sno' AS family, sno_time(sno_new()) AS at
UNION ALL SELECT 'muid', muid_timestamp(muid_new())
UNION ALL SELECT 'uid8', uid8_timestamp(uid8_new());
SELECT m.family, m.file, made.at < m.mark AS value_below_mark, m.mark - m.ahead = m.clock AS ahead_is_mark_minus_clock,
       array_length(m.record, 1) AS record_values, m.problem
FROM comb_ext_marks() m JOIN made USING (family)
ORDER BY m.family;
-- Columns and types, as monitoring queries use them.
SELECT pg_get_function_result('comb_ext_marks()'::regprocedure);

-- The identity settings are checked against where the data directory runs (comb_ext/identity,
-- written by CREATE EXTENSION): nothing is refused on the server they were set on.
SELECT * FROM comb_ext_identity() ORDER BY setting;
SELECT (pg_stat_file('comb_ext/identity')).size > 0 AS identity_recorded,
       pg_read_file('comb_ext/identity') ~ '^identity v1 [0-9]+ [0-9a-f]{32} [0-9]+ [0-9]+ - - -\n$' AS nothing_pending;
