--
-- The short text forms (docs/ids-that-do-not-tell-their-age.md#short-text-forms-that-sort):
-- comb_text/comb_parse (base32hex, crockford), typeid_text/typeid_parse/typeid_prefix, uid8_text/uid8_parse.
-- Values worked out from the bit layouts, order against the ids' own, every error with its SQLSTATE,
-- every bad character at every position, and an index lookup through a parse.
--

-- Edges: all zero, all one, one bit at each end. base32hex's last digit carries 3 bits then two zero
-- bits (the 1 bit is 4, "4"); Crockford's first digit carries 3 bits after two zero bits (at most "7").
SELECT u, comb_text(u, 'base32hex') AS base32hex, comb_text(u, 'crockford') AS crockford, typeid_text(u, 'user') AS typeid
FROM (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), ('ffffffff-ffff-ffff-ffff-ffffffffffff'),
             ('80000000-0000-0000-0000-000000000000'), ('00000000-0000-0000-0000-000000000001')) AS v(u);
-- The ULID spec's example text, and TypeID's valid-uuidv7 vector.
SELECT comb_parse('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'crockford') AS ulid_example,
       typeid_text('01890a5d-ac96-774b-bcce-b302099a8057', 'prefix') AS typeid_vector;

-- Either case; Crockford reads I and L as 1 and O as 0 (comb_text writes the canonical form back).
SELECT comb_text(comb_parse('01arz3ndektsv4rrffq69g5fav', 'crockford'), 'crockford') AS lower,
       comb_text(comb_parse('O1ARZ3NDEKTSV4RRFFQ69G5FAV', 'crockford'), 'crockford') AS o_for_0,
       comb_parse('0IiLl111111111111111111111', 'crockford') = comb_parse('01111111111111111111111111', 'crockford') AS i_l_for_1,
       comb_parse('05b3sellqfb7cj31tusp60ltbc', 'base32hex') = comb_parse('05B3SELLQFB7CJ31TUSP60LTBC', 'base32hex') AS base32hex_lower;

-- uid8: the sign bit flipped, 13 digits; negative ids begin 0-7, the others 8-F.
SELECT i, uid8_text(i) AS text, uid8_parse(uid8_text(i)) = i AS round_trip
FROM (VALUES (-9223372036854775808), (-1), (0), (1), (9223372036854775807), (uid8_from_parts(1704164645678, 0, 1, 2, 'time_sequential'))) AS v(i);

-- TypeID prefixes: empty means no separator; underscores inside; 63 characters at most.
SELECT typeid_text('00000000-0000-0000-0000-000000000001', '') AS no_prefix,
       typeid_text('00000000-0000-0000-0000-000000000001', 'a_b__c') AS underscores,
       length(typeid_text('00000000-0000-0000-0000-000000000001', repeat('x', 63))) AS longest;
SELECT typeid_parse('pre_fix_00000000000000000000000000') AS any_prefix,
       typeid_prefix('pre_fix_00000000000000000000000000') AS prefix,
       typeid_prefix('00000000000000000000000000') AS empty_prefix,
       typeid_parse('00000000000000000000000001', '') AS expected_none,
       typeid_parse('user_00000000000000000000000001', 'user') AS expected_user;

-- NULL in, NULL out (every function is strict).
SELECT comb_text(NULL, 'crockford') IS NULL AND comb_parse(NULL, 'crockford') IS NULL AND comb_parse('0', NULL) IS NULL
       AND typeid_text(NULL, 'x') IS NULL AND typeid_parse(NULL) IS NULL AND typeid_parse('x', NULL) IS NULL
       AND typeid_prefix(NULL) IS NULL AND uid8_text(NULL::bigint) IS NULL AND uid8_parse(NULL) IS NULL AS all_null;

-- 20,000 random uuids and bigints (and the edges): every form parses back, and under COLLATE "C"
-- the texts sort as the ids do (a TypeID of one prefix too).
CREATE TEMP TABLE ids AS
SELECT gen_random_uuid() AS u, ('x' || md5(random()::text))::bit(64)::bigint AS i
FROM generate_series(1, 20000);
INSERT INTO ids VALUES ('00000000-0000-0000-0000-000000000000', -9223372036854775808),
                       ('ffffffff-ffff-ffff-ffff-ffffffffffff', 9223372036854775807), (NULL, 0), (NULL, -1);
SELECT count(*) FILTER (WHERE comb_parse(comb_text(u, 'base32hex'), 'base32hex') = u) AS base32hex,
       count(*) FILTER (WHERE comb_parse(lower(comb_text(u, 'base32hex')), 'base32hex') = u) AS base32hex_lower,
       count(*) FILTER (WHERE comb_parse(comb_text(u, 'crockford'), 'crockford') = u) AS crockford,
       count(*) FILTER (WHERE comb_parse(lower(comb_text(u, 'crockford')), 'crockford') = u) AS crockford_lower,
       count(*) FILTER (WHERE typeid_parse(typeid_text(u, 'order_line'), 'order_line') = u) AS typeid,
       count(*) FILTER (WHERE typeid_text(u, 'k') = 'k_' || lower(comb_text(u, 'crockford'))) AS typeid_is_crockford,
       count(*) FILTER (WHERE length(comb_text(u, 'base32hex')) = 26 AND length(comb_text(u, 'crockford')) = 26) AS width_26
FROM ids WHERE u IS NOT NULL;
SELECT count(*) FILTER (WHERE uid8_parse(uid8_text(i)) = i) AS uid8,
       count(*) FILTER (WHERE uid8_parse(lower(uid8_text(i))) = i) AS uid8_lower,
       count(*) FILTER (WHERE length(uid8_text(i)) = 13) AS width_13
FROM ids;
-- Ranks in id order and in text order: equal for every row.
SELECT count(*) FILTER (WHERE by_id <> by_base32hex) AS base32hex_misplaced,
       count(*) FILTER (WHERE by_id <> by_crockford) AS crockford_misplaced,
       count(*) FILTER (WHERE by_id <> by_typeid) AS typeid_misplaced
FROM (SELECT row_number() OVER (ORDER BY u) AS by_id,
             row_number() OVER (ORDER BY comb_text(u, 'base32hex') COLLATE "C") AS by_base32hex,
             row_number() OVER (ORDER BY comb_text(u, 'crockford') COLLATE "C") AS by_crockford,
             row_number() OVER (ORDER BY typeid_text(u, 'user') COLLATE "C") AS by_typeid
      FROM ids WHERE u IS NOT NULL) AS r;
SELECT count(*) FILTER (WHERE by_id <> by_text) AS uid8_misplaced, count(*) FILTER (WHERE i < 0) > 0 AS has_negatives
FROM (SELECT i, row_number() OVER (ORDER BY i) AS by_id, row_number() OVER (ORDER BY uid8_text(i) COLLATE "C") AS by_text
      FROM ids) AS r;

-- Errors: an unknown encoding (22023, naming the valid ones); the wrong length (22P02, naming it and the
-- expected one); a character that is no digit, a first digit too large, base32hex bits past 128
-- (22P02, naming the first bad position).
SELECT regress_error($$SELECT comb_text(gen_random_uuid(), 'ulid')$$);
SELECT regress_error($$SELECT comb_parse('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'Crockford')$$);
SELECT regress_error($$SELECT comb_parse('01ARZ3NDEKTSV4RRFFQ69G5FA', 'crockford')$$);
SELECT regress_error($$SELECT comb_parse('', 'base32hex')$$);
SELECT regress_error($$SELECT comb_parse('01ARZ3NDEKTSV4RRFFQ69G5FAV0', 'crockford')$$);
SELECT regress_error($$SELECT comb_parse('01ARZ3NDEKTSV4RRFFQ69G5FAU', 'crockford')$$);
SELECT regress_error($$SELECT comb_parse('01ARZ3-DEKTSV4RRFFQ69G5FAV', 'crockford')$$);
SELECT regress_error($$SELECT comb_parse('01ARZ3NDEKTSV4RRFFQ69G5FAé', 'crockford')$$);
SELECT regress_error($$SELECT comb_parse('8ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'crockford')$$);
SELECT regress_error($$SELECT comb_parse('05B3SELLQFB7CJ31TUSP60LTBW', 'base32hex')$$);
SELECT regress_error($$SELECT comb_parse('05B3SELLQFB7CJ31TUSP60LTBD', 'base32hex')$$);
SELECT regress_error($$SELECT comb_parse('05B3SELLQFB7CJ31TUSP60LTBC======', 'base32hex')$$);
SELECT regress_error($$SELECT uid8_parse('G000000000000')$$);
SELECT regress_error($$SELECT uid8_parse('800000000000')$$);
SELECT regress_error($$SELECT uid8_parse('8000000000U00')$$);
-- TypeID: the spec's rules for the prefix and the first suffix digit; its suffix is lower case only.
SELECT regress_error($$SELECT typeid_text(gen_random_uuid(), 'User')$$);
SELECT regress_error($$SELECT typeid_text(gen_random_uuid(), '_user')$$);
SELECT regress_error($$SELECT typeid_text(gen_random_uuid(), 'user_')$$);
SELECT regress_error($$SELECT typeid_text(gen_random_uuid(), 'us3r')$$);
SELECT regress_error(format('SELECT typeid_text(gen_random_uuid(), %L)', repeat('x', 64)));
SELECT regress_error($$SELECT typeid_parse('prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz')$$);
SELECT regress_error($$SELECT typeid_parse('prefix_0123456789ABCDEFGHJKMNPQRS')$$);
SELECT regress_error($$SELECT typeid_parse('prefix_i23456789ol23456789oi23456')$$);
SELECT regress_error($$SELECT typeid_parse('prefix__00000000000000000000000000')$$);
SELECT regress_error($$SELECT typeid_parse('_00000000000000000000000000')$$);
SELECT regress_error($$SELECT typeid_parse('prefix_')$$);
SELECT regress_error($$SELECT typeid_parse('user_00000000000000000000000001', 'order')$$);
SELECT regress_error($$SELECT typeid_parse('00000000000000000000000001', 'order')$$);
SELECT regress_error($$SELECT typeid_parse('user_00000000000000000000000001', 'Order')$$);
SELECT regress_error($$SELECT typeid_prefix('PREFIX_00000000000000000000000000')$$);

-- Every bad character at every position: 22P02 naming that position, for each form. The bad
-- characters: punctuation, space, control characters, non-ASCII (2, 3 and 4 bytes), and the letters
-- each form leaves out (base32hex: W-Z; Crockford: U; TypeID: upper case and i, l, o, u). Not _ in a
-- TypeID's suffix: the last _ is the separator, so the prefix would take the digits before it.
CREATE FUNCTION pg_temp.position_of_error(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE statement;
    RETURN 'accepted';
EXCEPTION WHEN others THEN
    RETURN SQLSTATE || ' ' || coalesce(substring(SQLERRM FROM 'at position (\d+)'), 'none');
END $$;
CREATE TEMP TABLE bad_characters (form text, c text);
INSERT INTO bad_characters SELECT f, c
FROM unnest(ARRAY['base32hex', 'crockford', 'typeid', 'uid8']) AS f,
     unnest(ARRAY['-', '_', ' ', '=', '.', '/', ':', '@', '[', '`', '{', '~', E'\t', E'\n', 'é', '€', '😀']) AS c
WHERE NOT (f = 'typeid' AND c = '_');
INSERT INTO bad_characters SELECT 'base32hex', c FROM unnest(ARRAY['W', 'X', 'Y', 'Z', 'w', 'x', 'y', 'z']) AS c;
INSERT INTO bad_characters SELECT f, c FROM unnest(ARRAY['crockford', 'uid8']) AS f, unnest(ARRAY['U', 'u']) AS c;
INSERT INTO bad_characters SELECT 'typeid', c
FROM unnest(regexp_split_to_array('ABCDEFGHJKMNPQRSTVWXYZIiLlOoUu', '')) AS c;
CREATE TEMP TABLE bad_cases AS
SELECT b.form, p, b.c,
       CASE b.form WHEN 'typeid' THEN 'user_' ELSE '' END
       || overlay(good PLACING b.c FROM p FOR 1) AS text,
       CASE b.form WHEN 'typeid' THEN p + 5 ELSE p END AS expected
FROM bad_characters b
JOIN (VALUES ('base32hex', comb_text('5a5a5a5a-5a5a-5a5a-5a5a-5a5a5a5a5a5a', 'base32hex')),
             ('crockford', comb_text('5a5a5a5a-5a5a-5a5a-5a5a-5a5a5a5a5a5a', 'crockford')),
             ('typeid', lower(comb_text('5a5a5a5a-5a5a-5a5a-5a5a-5a5a5a5a5a5a', 'crockford'))),
             ('uid8', uid8_text(6510615555426900570))) AS g(form, good) ON g.form = b.form
CROSS JOIN LATERAL generate_series(1, length(good)) AS p;
SELECT form, count(*) AS cases,
       count(*) FILTER (WHERE outcome = '22P02 ' || expected) AS refused_at_that_position,
       string_agg(DISTINCT outcome, ', ') FILTER (WHERE outcome <> '22P02 ' || expected) AS otherwise
FROM (SELECT form, expected, pg_temp.position_of_error(
          CASE form WHEN 'base32hex' THEN format('SELECT comb_parse(%L, %L)', text, form)
                    WHEN 'crockford' THEN format('SELECT comb_parse(%L, %L)', text, form)
                    WHEN 'typeid' THEN format('SELECT typeid_parse(%L)', text)
                    ELSE format('SELECT uid8_parse(%L)', text) END) AS outcome
      FROM bad_cases) AS o
GROUP BY form ORDER BY form;

-- A parse in a lookup is folded to a constant: the primary key's index serves it.
CREATE TEMP TABLE orders (id uuid PRIMARY KEY, n int);
INSERT INTO orders SELECT gen_random_uuid(), n FROM generate_series(1, 1000) n;
ANALYZE orders;
EXPLAIN (COSTS OFF) SELECT n FROM orders WHERE id = comb_parse('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'crockford');
EXPLAIN (COSTS OFF) SELECT n FROM orders WHERE id = typeid_parse('order_01h455vb4pex5vsknk084sn02q', 'order');
PREPARE by_text(text) AS SELECT n FROM orders WHERE id = comb_parse($1, 'crockford');
EXPLAIN (COSTS OFF) EXECUTE by_text('01ARZ3NDEKTSV4RRFFQ69G5FAV');
SELECT n FROM orders, LATERAL (SELECT comb_text(id, 'crockford') AS t) x WHERE comb_parse(t, 'crockford') <> id;
