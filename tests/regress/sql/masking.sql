--
-- Keyed masking (docs/ids-that-do-not-tell-their-age.md#masking): comb_mask/comb_unmask,
-- muid_mask/muid_unmask, sno_mask/sno_unmask, uid8_mask/uid8_unmask. Keys are passed here as bytea:
-- this cluster has no comb_ext.mask_key (tests/masking.py runs servers that have one).
--

-- uuidv47's demo (stateless-me/uuidv47 demo.c): key k0 = 0x0123456789abcdef, k1 = 0xfedcba9876543210,
-- laid out as 16 bytes, k0 then k1, each little-endian.
\set demo '\'\\xefcdab89674523011032547698badcfe\'::bytea'
SELECT comb_mask('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', 'uuidv7', :demo) AS facade,
       comb_unmask('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f', 'uuidv7', :demo) AS v7,
       comb_mask('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', 'uuidv7'::comb_format, :demo) AS facade_enum;
-- PostgreSQL 18's whole v7 range, its last millisecond too, masks and unmasks.
SELECT comb_unmask(comb_mask(u, 'uuidv7', :demo), 'uuidv7', :demo) = u AS round_trip
FROM (VALUES ('ffffffff-ffff-7fff-bfff-ffffffffffff'::uuid), ('00000000-0000-7000-8000-000000000000')) AS v(u);

-- Every format: the façade reads as a v4 (ticks keeps its marker c, and the id's own version and
-- variant bits, 4 and 10 here, since its time field covers byte 8), hides the time field, and unmasks
-- to the id.
SELECT f AS format,
       comb_unmask(comb_mask(id, f, :demo), f, :demo) = id AS round_trip,
       substr(comb_mask(id, f, :demo)::text, 15, 1) AS version,
       substr(comb_mask(id, f, :demo)::text, 20, 1) IN ('8', '9', 'a', 'b') AS variant_10,
       CASE f WHEN 'ticks' THEN substr(comb_mask(id, f, :demo)::text, 17, 1) END AS ticks_marker,
       comb_mask(id, f, :demo) <> id AS masked,
       comb_timestamp(comb_unmask(comb_mask(id, f, :demo), f, :demo), f) = comb_timestamp(id, f) AS time_back
FROM unnest(enum_range(NULL::comb_format)) AS f,
     LATERAL (SELECT comb_stamp('00112233-4455-4677-8899-aabbccddeeff', '2024-01-02 03:04:05.678+00', f) AS id) AS s
ORDER BY f;

-- muid, sno, uid8: a permutation of the whole id, of the same type; every value is some id's mask.
SELECT muid_unmask(muid_mask(m, :demo), :demo) = m AS muid,
       sno_unmask(sno_mask(s, :demo), :demo) = s AS sno,
       uid8_unmask(uid8_mask(i, :demo), :demo) = i AS uid8,
       muid_mask(m, :demo) <> m AND sno_mask(s, :demo) <> s AND uid8_mask(i, :demo) <> i AS all_masked
FROM (VALUES (muid_pack(1700000000000000, 4660, 1), sno_from_parts('2024-01-02 03:04:05.678+00', 1, 2, 3, false),
              uid8_from_parts(1704164645678, 0, 1, 2, 'time_sequential'))) AS v(m, s, i);
SELECT uid8_unmask(uid8_mask(i, :demo), :demo) = i AS edges
FROM (VALUES (-9223372036854775808), (-1), (0), (1), (9223372036854775807)) AS v(i);
-- Another key, another permutation; each family its own under one key.
SELECT uid8_mask(1, :demo) <> uid8_mask(1, '\x00000000000000000000000000000000'::bytea) AS keys_differ,
       uid8_unmask(uid8_mask(1, :demo), '\x00000000000000000000000000000000'::bytea) <> 1 AS wrong_key;

-- The bytea forms are immutable: a lookup by a masked id folds to a constant the primary key serves.
CREATE TABLE masked_orders (id uuid PRIMARY KEY, item text);
INSERT INTO masked_orders SELECT comb_uuid(now() - g * interval '1 ms', 'uuidv7'), 'item ' || g FROM generate_series(1, 1000) g;
ANALYZE masked_orders;
EXPLAIN (COSTS OFF)
SELECT item FROM masked_orders WHERE id = comb_unmask('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f', 'uuidv7', :demo);
SELECT count(*) AS found FROM masked_orders o
WHERE o.id = comb_unmask((SELECT comb_mask(id, 'uuidv7', :demo) FROM masked_orders ORDER BY id OFFSET 500 LIMIT 1), 'uuidv7', :demo);
DROP TABLE masked_orders;

-- Volatility: the setting forms are stable (the key is the server's), the key forms immutable.
SELECT p.oid::regprocedure AS function, p.provolatile AS volatility
FROM pg_proc p JOIN pg_extension e ON e.extnamespace = p.pronamespace AND e.extname = 'comb_ext'
WHERE p.proname ~ '_(un)?mask$' AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'c')
ORDER BY p.oid::regprocedure::text COLLATE "C";

-- NULL in, NULL out.
SELECT comb_mask(NULL, 'uuidv7', :demo) IS NULL AND comb_unmask(NULL::uuid, 'uuidv7', :demo) IS NULL
       AND uid8_mask(1, NULL::bytea) IS NULL AND sno_unmask(NULL::sno, :demo) IS NULL AND muid_mask(NULL::uuid, 1) IS NULL AS all_null;

-- Errors. An id that is not of the format (a v4 as uuidv7, a v7 as a façade): 22P02. comb_mask's
-- errors name neither the id nor its time (the value masking hides).
\set VERBOSITY verbose
SELECT comb_mask('018f2d9f-9a2a-4def-8c3f-7b1a2c4d5e6f', 'uuidv7', :demo);
SELECT comb_unmask('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', 'uuidv7', :demo);
SELECT comb_mask('018f2d9f-9a2a-4def-cc3f-7b1a2c4d5e6f', 'sqlserver', :demo);
SELECT comb_mask('00112233-4455-6677-8899-aabbccddeeff', 'ticks', :demo);
-- A façade that unmasks to no time of the format (a sqldatetime time of day past one day): 22P02,
-- without the unmasked value.
SELECT comb_unmask('ffffffff-ffff-4fff-bfff-ffffffffffff', 'postgresql_sqldatetime', :demo);
-- A time the format does not hold (sqldatetime's time of day past a day): 22008, as comb_timestamp says it,
-- without the id or its fields.
SELECT comb_mask('00000000-0000-4000-8000-0000ffffffff', 'legacy', :demo);
-- A key of another length: 22023, naming the length and never the bytes.
SELECT comb_mask(comb_uuid('uuidv7'), 'uuidv7', '\x0011'::bytea);
SELECT uid8_unmask(1, decode(repeat('ab', 17), 'hex'));
-- The setting forms with no comb_ext.mask_key: 55000 naming the setting.
SELECT comb_mask(comb_uuid());
SELECT uid8_unmask(1, 1);
\set VERBOSITY default
-- An unknown format: the enum's input rejects it when the statement is parsed (its source line differs
-- between majors, so not in verbose form).
SELECT regress_error($$SELECT comb_mask(comb_uuid(), 'ulid', '\x00'::bytea)$$);
-- A superuser sees the setting as empty (unset); it never shows a value.
SHOW comb_ext.mask_key;
SELECT name FROM pg_settings WHERE name = 'comb_ext.mask_key';
