--
-- A column holding ids of two kinds after comb_ext_adopt (docs/adopting.md, "Old and new ids in one column"):
-- comb_timestamp(id, format, strict => false) and comb_timestamp_<format>(id, false) are NULL for an id that
-- holds no time of the format, where the strict forms fail; comb_in_range and the floors are ranges of the
-- uuid order, so an old id inside the range is selected unless the query rechecks.
--
SET TimeZone = 'UTC';

-- Old version 4 ids, written out so the output is fixed: the first one's 48 leading bits spell
-- 1780272000000 (0x019e807aec00), the millisecond 2026-06-01 00:00:00 UTC; its last 6 bytes, read as
-- SQL Server's datetime, hold a time of day of 0x456789ab 1/300 s, past one day (25,920,000).
CREATE TABLE mixed (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), note text NOT NULL);
INSERT INTO mixed VALUES
    ('019e807a-ec00-4abc-8def-0123456789ab', 'v4 spelling 2026-06-01'),
    ('ffffffff-ffff-4fff-bfff-ffffffffffff', 'v4 highest'),
    ('00000000-0000-4000-8000-000000000000', 'v4 lowest');
SELECT changed FROM comb_ext_adopt('mixed', 'id', 'uuidv7');
-- New ids: two stamped with known times, one from the adopted default.
INSERT INTO mixed VALUES
    (comb_uuid('2026-03-01 12:00:00.123+00', 'uuidv7'), 'v7 2026-03-01'),
    (comb_uuid('2025-12-31 23:59:59.999+00', 'uuidv7'), 'v7 2025-12-31');
INSERT INTO mixed (note) VALUES ('v7 default');

-- The strict form fails on the first old id; the non-strict forms, positional or named, decode the rest.
SELECT regress_error($$SELECT comb_timestamp(id, 'uuidv7') FROM mixed$$);
SELECT regress_error($$SELECT comb_timestamp(id, 'uuidv7', strict => true) FROM mixed$$);
SELECT note,
       comb_timestamp(id, 'uuidv7', false) AS uuidv7,
       comb_timestamp(id, 'uuidv7', strict => false) IS NOT DISTINCT FROM comb_timestamp_uuidv7(id, false) AS same
FROM mixed WHERE note <> 'v7 default' ORDER BY note;
SELECT comb_timestamp(id, 'uuidv7', false) > '2026-01-01+00' AS default_decodes FROM mixed WHERE note = 'v7 default';

-- Formats with no version of their own tell nothing apart: an old id whose bytes spell a time decodes to it.
-- NULL only where the bytes are no time of the clock (past 9999, or a time of day past one day).
SELECT note,
       comb_timestamp(id, 'postgresql', false) AS postgresql,
       comb_timestamp(id, 'legacy', false) AS legacy,
       comb_timestamp_legacy(id, false) IS NOT DISTINCT FROM comb_timestamp(id, 'legacy', false) AS same
FROM mixed WHERE note LIKE 'v4%' ORDER BY note;
SELECT regress_error($$SELECT comb_timestamp('019e807a-ec00-4abc-8def-0123456789ab'::uuid, 'legacy')$$);
SELECT regress_error($$SELECT comb_timestamp_postgresql('ffffffff-ffff-4fff-bfff-ffffffffffff')$$);
-- NULL in, NULL out, as in the strict form.
SELECT comb_timestamp(NULL::uuid, 'uuidv7', false) IS NULL AS null_id,
       comb_timestamp(gen_random_uuid(), 'uuidv7', NULL) IS NULL AS null_strict;

-- A range in uuid order holds the old id whose bits spell a time in it: comb_in_range and the floors select
-- it, the strict decoder fails on it, and a recheck with the non-strict one leaves it out. The index still
-- serves the range.
SELECT count(*) FILTER (WHERE comb_in_range(id, '2026-01-01+00', '2027-01-01+00', 'uuidv7')) AS in_range,
       count(*) FILTER (WHERE id >= comb_floor('2026-01-01+00', 'uuidv7') AND id < comb_floor('2027-01-01+00', 'uuidv7'))
           AS by_floors,
       count(*) FILTER (WHERE comb_in_range(id, '2026-01-01+00', '2027-01-01+00', 'uuidv7')
                          AND comb_timestamp(id, 'uuidv7', false) IS NOT NULL) AS rechecked,
       string_agg(note, ', ' ORDER BY note) FILTER (WHERE comb_in_range(id, '2026-01-01+00', '2027-01-01+00', 'uuidv7')
                                                      AND comb_timestamp(id, 'uuidv7', false) IS NULL) AS old_inside
FROM mixed WHERE note <> 'v7 default';
SET enable_seqscan = off;
SELECT regress_explain($$SELECT note FROM mixed WHERE comb_in_range(id, '2026-01-01+00', '2027-01-01+00', 'uuidv7')
                                               AND comb_timestamp(id, 'uuidv7', false) IS NOT NULL$$);
-- An index on the decoded time: the strict form cannot be built over the mixed column, the non-strict one can,
-- and a query on the same expression uses it.
SELECT regress_error($$CREATE INDEX mixed_strict_time ON mixed (comb_timestamp(id, 'uuidv7'))$$);
CREATE INDEX mixed_time ON mixed (comb_timestamp(id, 'uuidv7', false));
SELECT regress_explain($$SELECT note FROM mixed WHERE comb_timestamp(id, 'uuidv7', false) = '2026-03-01 12:00:00.123+00'$$);
SELECT note FROM mixed WHERE comb_timestamp(id, 'uuidv7', false) = '2026-03-01 12:00:00.123+00';
RESET enable_seqscan;

-- Every decoder with a `strict` argument, from the catalog: the same volatility, strictness and parallel
-- safety as its strict form, NULL exactly where the strict form fails, the same time elsewhere. The ids:
-- 400 from md5 with every version and variant, 400 COMBs of each format, 20 values every format holds.
CREATE TEMP TABLE decoder_ids AS
SELECT md5(i::text)::uuid AS id FROM generate_series(1, 400) i
UNION ALL
SELECT comb_uuid('2024-03-01+00'::timestamptz + i * interval '1 hour 7 minutes', f)
FROM unnest(enum_range(NULL::comb_format)) f, generate_series(1, 400) i
UNION ALL
SELECT comb_floor('2024-03-01+00'::timestamptz + i * interval '1 day', f)
FROM unnest(enum_range(NULL::comb_format)) f, generate_series(1, 20) i;
SELECT p.oid::regprocedure AS with_strict,
       s.oid::regprocedure AS strict_form,
       (p.provolatile, p.proisstrict, p.proparallel) = (s.provolatile, s.proisstrict, s.proparallel) AS same_marking
FROM pg_proc p
JOIN pg_proc s ON s.proname = p.proname AND s.pronamespace = p.pronamespace
               AND s.pronargs = p.pronargs - 1
               AND array_to_string(s.proargtypes::oid[], ' ') = array_to_string((p.proargtypes::oid[])[0:p.pronargs - 2], ' ')
WHERE p.pronamespace = (SELECT extnamespace FROM pg_extension WHERE extname = 'comb_ext')
  AND 'strict' = ANY (p.proargnames)
ORDER BY p.oid::regprocedure::text COLLATE "C";
CREATE FUNCTION pg_temp.decoder_disagreements(decoder regprocedure) RETURNS TABLE (calls bigint, nulls bigint, disagreements bigint)
LANGUAGE plpgsql AS $$
DECLARE
    name text := (SELECT proname FROM pg_proc WHERE oid = decoder);
    formats comb_format[] := CASE WHEN name = 'comb_timestamp' THEN enum_range(NULL::comb_format)
                                  ELSE ARRAY[substr(name, length('comb_timestamp_') + 1)::comb_format] END;
    format comb_format;
    row_id uuid;
    strict_time timestamptz;
    strict_failed boolean;
    lenient_time timestamptz;
    format_arg text;
BEGIN
    calls := 0; nulls := 0; disagreements := 0;
    FOREACH format IN ARRAY formats LOOP
        format_arg := CASE WHEN name = 'comb_timestamp' THEN ', ' || quote_literal(format) ELSE '' END;
        FOR row_id IN SELECT id FROM decoder_ids LOOP
            BEGIN
                EXECUTE format('SELECT %s($1%s)', name, format_arg) INTO strict_time USING row_id;
                strict_failed := false;
            EXCEPTION WHEN invalid_text_representation OR datetime_field_overflow THEN
                strict_failed := true;
            END;
            EXECUTE format('SELECT %s($1%s, strict => false)', name, format_arg) INTO lenient_time USING row_id;
            calls := calls + 1;
            nulls := nulls + (lenient_time IS NULL)::int;
            IF (lenient_time IS NULL) <> strict_failed OR (NOT strict_failed AND lenient_time <> strict_time) THEN
                disagreements := disagreements + 1;
            END IF;
        END LOOP;
    END LOOP;
    RETURN NEXT;
END $$;
SELECT p.oid::regprocedure AS decoder, d.calls, d.nulls > 0 AS some_null, d.disagreements
FROM pg_proc p, pg_temp.decoder_disagreements(p.oid) d
WHERE p.pronamespace = (SELECT extnamespace FROM pg_extension WHERE extname = 'comb_ext')
  AND 'strict' = ANY (p.proargnames)
ORDER BY p.oid::regprocedure::text COLLATE "C";

-- uid8 decodes every bigint, so an old sequence value reads as an id of either mode by its bit 12, the mode bit:
-- 1 and 1,000,000,000 (bit 12 clear) as spread ids, whose time is their bits 63-22 reversed: 0 for 1
-- (1970-01-01 00:00:00), 2^34 + 2^35 + 2^36 + 2^38 + 2^39 + 2^40 ms for 1,000,000,000 (2034-10-14 02:07:12.896); a
-- value with bit 12 set, as a time_sequential id of its bits 63-22 in ms. What tells them apart is
-- the value: comb_ext_adopt refuses a column unless every old value is below uid8_floor(now()), and every
-- new id is at or above the floor of the time it was made, so `id >= uid8_floor(<adoption time>)` is the new ids.
CREATE TABLE mixed_uid8 (id bigserial PRIMARY KEY, note text NOT NULL);
INSERT INTO mixed_uid8 (note) VALUES ('old 1');
SELECT setval('mixed_uid8_id_seq', 999999999);
INSERT INTO mixed_uid8 (note) VALUES ('old 1000000000');
SELECT date_trunc('milliseconds', now()) AS adopted_at \gset
SELECT changed FROM comb_ext_adopt('mixed_uid8', 'id', 'uid8');
INSERT INTO mixed_uid8 (note) SELECT 'new' FROM generate_series(1, 100);
SELECT note, uid8_timestamp(id) FROM mixed_uid8 WHERE note LIKE 'old%' ORDER BY id;
SELECT count(*) FILTER (WHERE id >= uid8_floor(:'adopted_at')) AS at_or_above_floor,
       count(*) FILTER (WHERE id >= uid8_floor(:'adopted_at') AND note = 'new') AS new_ones
FROM mixed_uid8;

DROP TABLE mixed, mixed_uid8;
