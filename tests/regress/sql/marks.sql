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
       pg_read_file('comb_ext/identity') ~ '^identity v3 [0-9]+ [0-9]+ [0-9a-f]{32} [0-9]+ [0-9]+ - - -\n$' AS nothing_pending;

-- Every file the extension keeps in comb_ext/ has its row, whatever it is: listed from the
-- directory, not from a list of names (a write's temporary file, `.name.pid.n.tmp`, is not kept).
SELECT comb_watermark() IS NOT NULL AS watermark_taken;
SELECT f AS file_without_a_row
FROM (SELECT 'comb_ext/' || f AS f FROM pg_ls_dir('comb_ext') f WHERE f <> 'prepared' AND f NOT LIKE '.%'
      UNION ALL SELECT 'comb_ext/prepared/' || f FROM pg_ls_dir('comb_ext/prepared', true, false) f WHERE f NOT LIKE '.%') kept
WHERE f NOT IN (SELECT file FROM comb_ext_marks());
SELECT family, file, problem FROM comb_ext_marks() WHERE family IN ('watermark', 'identity') ORDER BY family;
