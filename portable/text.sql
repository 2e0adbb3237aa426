-- comb_ext SQL edition: the short text forms of uuids and uid8s (docs/ids-that-do-not-tell-their-age.md).
-- comb_text/comb_parse (base32hex and Crockford base32 of any uuid), typeid_text/typeid_parse/typeid_prefix
-- (TypeID), uid8_text/uid8_parse (13 Crockford digits of a bigint, its sign bit flipped). The compiled
-- edition's names and signatures (src/families/text.rs), the same text, and the same errors: SQLSTATE,
-- message and hint (src/rules/text.rs is the reference; tests/portable_ids.py diff compares them).
-- Every reference to this edition's own objects is @extschema@.name; built-in functions are pg_catalog.name.
-- As in ids.sql: the SQL functions (inlined into the caller's query) spell every operator
-- OPERATOR(pg_catalog.x), the PL/pgSQL ones run with search_path = pg_catalog, pg_temp, and every call of
-- this edition's own functions is an exact match of their argument types (literals cast), so nothing
-- planted in @extschema@ takes a call (tests/portable_planting.py).
--
-- Speed: the functions of the interface are PL/pgSQL, whose statements are planned once per session;
-- they check text with one regular expression and compute with the helpers below, which are single
-- expressions the planner inlines (a SQL function called from another one that is not inlined is planned
-- again at every call). The detailed error (which position, why) is worked out only once text is refused.
--
-- How the bits are handled: a uuid's 32 hex digits are cut into pieces of 15 hex digits (60 bits, a
-- bigint, 12 base32 digits) and a byte (2 hex digits, 2 base32 digits) at the end where the two zero bits are:
--   crockford  2 zero bits + 128 bits:  byte 0 (digits 1-2), hex 3-17 (digits 3-14), hex 18-32 (digits 15-26)
--   base32hex  128 bits + 2 zero bits:  hex 1-15 (digits 1-12), hex 16-30 (digits 13-24), byte 15 (digits 25-26)
-- Letters are mapped with translate(), never upper()/lower(), whose results depend on the locale, and
-- spelled out in regular expressions, never as ranges; caller text is compared under COLLATE "C".

-- ---- internal helpers (names start with _text_; not part of the interface) --------------------

-- The 12 digits of the low 60 bits of v, most significant first, from a 32-character alphabet.
CREATE FUNCTION @extschema@._text_chars12(v bigint, alphabet text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT pg_catalog.substr(alphabet, ((v OPERATOR(pg_catalog.>>) 55) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr(alphabet, ((v OPERATOR(pg_catalog.>>) 50) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr(alphabet, ((v OPERATOR(pg_catalog.>>) 45) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr(alphabet, ((v OPERATOR(pg_catalog.>>) 40) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr(alphabet, ((v OPERATOR(pg_catalog.>>) 35) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr(alphabet, ((v OPERATOR(pg_catalog.>>) 30) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr(alphabet, ((v OPERATOR(pg_catalog.>>) 25) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr(alphabet, ((v OPERATOR(pg_catalog.>>) 20) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr(alphabet, ((v OPERATOR(pg_catalog.>>) 15) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr(alphabet, ((v OPERATOR(pg_catalog.>>) 10) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr(alphabet, ((v OPERATOR(pg_catalog.>>) 5) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr(alphabet, ((v OPERATOR(pg_catalog.>>) 0) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
$$;

-- The value of the digit at position p of t (already in the alphabet's case, aliases resolved).
CREATE FUNCTION @extschema@._text_digit(t text, p integer, alphabet text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT (pg_catalog.strpos(alphabet, pg_catalog.substr(t, p, 1)) OPERATOR(pg_catalog.-) 1)::bigint $$;

-- The 60 bits of the 12 digits of t from position start.
CREATE FUNCTION @extschema@._text_value12(t text, start integer, alphabet text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT (@extschema@._text_digit(t, start, alphabet) OPERATOR(pg_catalog.<<) 55)
     OPERATOR(pg_catalog.|) (@extschema@._text_digit(t, start OPERATOR(pg_catalog.+) 1, alphabet) OPERATOR(pg_catalog.<<) 50)
     OPERATOR(pg_catalog.|) (@extschema@._text_digit(t, start OPERATOR(pg_catalog.+) 2, alphabet) OPERATOR(pg_catalog.<<) 45)
     OPERATOR(pg_catalog.|) (@extschema@._text_digit(t, start OPERATOR(pg_catalog.+) 3, alphabet) OPERATOR(pg_catalog.<<) 40)
     OPERATOR(pg_catalog.|) (@extschema@._text_digit(t, start OPERATOR(pg_catalog.+) 4, alphabet) OPERATOR(pg_catalog.<<) 35)
     OPERATOR(pg_catalog.|) (@extschema@._text_digit(t, start OPERATOR(pg_catalog.+) 5, alphabet) OPERATOR(pg_catalog.<<) 30)
     OPERATOR(pg_catalog.|) (@extschema@._text_digit(t, start OPERATOR(pg_catalog.+) 6, alphabet) OPERATOR(pg_catalog.<<) 25)
     OPERATOR(pg_catalog.|) (@extschema@._text_digit(t, start OPERATOR(pg_catalog.+) 7, alphabet) OPERATOR(pg_catalog.<<) 20)
     OPERATOR(pg_catalog.|) (@extschema@._text_digit(t, start OPERATOR(pg_catalog.+) 8, alphabet) OPERATOR(pg_catalog.<<) 15)
     OPERATOR(pg_catalog.|) (@extschema@._text_digit(t, start OPERATOR(pg_catalog.+) 9, alphabet) OPERATOR(pg_catalog.<<) 10)
     OPERATOR(pg_catalog.|) (@extschema@._text_digit(t, start OPERATOR(pg_catalog.+) 10, alphabet) OPERATOR(pg_catalog.<<) 5)
     OPERATOR(pg_catalog.|) (@extschema@._text_digit(t, start OPERATOR(pg_catalog.+) 11, alphabet) OPERATOR(pg_catalog.<<) 0)
$$;

-- The 26 Crockford digits of a uuid (2 zero bits, then the 128) from its byte 0 (b0) and the 60 bits of
-- hex digits 3-17 (hi) and 18-32 (lo), in `alphabet` (upper case for ULID text, lower case for TypeID).
-- (The callers pass variables: an inlined helper repeats an argument's expression at each use.)
CREATE FUNCTION @extschema@._text_crockford(b0 integer, hi bigint, lo bigint, alphabet text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT pg_catalog.substr(alphabet, (b0 OPERATOR(pg_catalog.>>) 5) OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr(alphabet, (b0 OPERATOR(pg_catalog.&) 31) OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) @extschema@._text_chars12(hi, alphabet) OPERATOR(pg_catalog.||) @extschema@._text_chars12(lo, alphabet)
$$;

-- The 26 base32hex digits of a uuid (the 128 bits, then 2 zero bits) from the 60 bits of hex digits
-- 1-15 (hi) and 16-30 (lo) and its byte 15 (b15).
CREATE FUNCTION @extschema@._text_base32hex(hi bigint, lo bigint, b15 integer) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT @extschema@._text_chars12(hi, '0123456789ABCDEFGHIJKLMNOPQRSTUV'::pg_catalog.text)
    OPERATOR(pg_catalog.||) @extschema@._text_chars12(lo, '0123456789ABCDEFGHIJKLMNOPQRSTUV'::pg_catalog.text)
    OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', (b15 OPERATOR(pg_catalog.>>) 3) OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', ((b15 OPERATOR(pg_catalog.&) 7) OPERATOR(pg_catalog.<<) 2) OPERATOR(pg_catalog.+) 1, 1)
$$;

-- Crockford text in upper case with its aliases read (I and L are 1, O is 0), for _text_digit.
CREATE FUNCTION @extschema@._text_crockford_canonical(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT pg_catalog.translate(t, 'abcdefghjkmnpqrstvwxyzILOilo', 'ABCDEFGHJKMNPQRSTVWXYZ110110') $$;

-- The uuid of 26 valid Crockford digits, in upper case with the aliases read (_text_crockford_canonical).
CREATE FUNCTION @extschema@._text_from_crockford(c text) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT (pg_catalog.lpad(pg_catalog.to_hex((@extschema@._text_digit(c, 1, '0123456789ABCDEFGHJKMNPQRSTVWXYZ'::pg_catalog.text) OPERATOR(pg_catalog.<<) 5)
                                          OPERATOR(pg_catalog.|) @extschema@._text_digit(c, 2, '0123456789ABCDEFGHJKMNPQRSTVWXYZ'::pg_catalog.text)), 2, '0')
     OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(@extschema@._text_value12(c, 3, '0123456789ABCDEFGHJKMNPQRSTVWXYZ'::pg_catalog.text)), 15, '0')
     OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(@extschema@._text_value12(c, 15, '0123456789ABCDEFGHJKMNPQRSTVWXYZ'::pg_catalog.text)), 15, '0'))::pg_catalog.uuid
$$;

-- The uuid of 26 valid base32hex digits in upper case.
CREATE FUNCTION @extschema@._text_from_base32hex(c text) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT (pg_catalog.lpad(pg_catalog.to_hex(@extschema@._text_value12(c, 1, '0123456789ABCDEFGHIJKLMNOPQRSTUV'::pg_catalog.text)), 15, '0')
     OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(@extschema@._text_value12(c, 13, '0123456789ABCDEFGHIJKLMNOPQRSTUV'::pg_catalog.text)), 15, '0')
     OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex((@extschema@._text_digit(c, 25, '0123456789ABCDEFGHIJKLMNOPQRSTUV'::pg_catalog.text) OPERATOR(pg_catalog.<<) 3)
                                          OPERATOR(pg_catalog.|) (@extschema@._text_digit(c, 26, '0123456789ABCDEFGHIJKLMNOPQRSTUV'::pg_catalog.text) OPERATOR(pg_catalog.>>) 2)), 2, '0'))::pg_catalog.uuid
$$;

-- Why t is not the digits of `form` ('base32hex', 'crockford', 'typeid': a TypeID's suffix, 'uid8'), or
-- NULL: its length, else its first bad character: a first digit past the top bits (7 for 128 bits, F for
-- 64), a character that is no digit, a base32hex last digit with bits past the 128. Positions count from
-- `offset` + 1 (a TypeID's suffix: after the prefix and its _). The same words as src/rules/text.rs.
CREATE FUNCTION @extschema@._text_error(t text, form text, "offset" integer) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    len constant integer := CASE form WHEN 'uid8' THEN 13 ELSE 26 END;
    -- The form's digits (Crockford's with its aliases, in either case; TypeID's: lower case only).
    digits constant text := CASE form
        WHEN 'base32hex' THEN '0123456789ABCDEFGHIJKLMNOPQRSTUVabcdefghijklmnopqrstuv'
        WHEN 'typeid' THEN '0123456789abcdefghjkmnpqrstvwxyz'
        ELSE '0123456789ABCDEFGHIJKLMNOPQRSTVWXYZabcdefghijklmnopqrstvwxyz' END;
    name constant text := CASE form
        WHEN 'base32hex' THEN 'base32hex digit'
        WHEN 'typeid' THEN 'TypeID suffix digit (0-9 and a-z but i, l, o, u; lower case)'
        ELSE 'Crockford base32 digit' END;
    -- The first digits that fit: every digit (base32hex), 0-7 (128 bits), 0-F (64), with the aliases.
    firsts constant text := CASE form
        WHEN 'base32hex' THEN '0123456789ABCDEFGHIJKLMNOPQRSTUVabcdefghijklmnopqrstuv'
        WHEN 'typeid' THEN '01234567'
        WHEN 'uid8' THEN '0123456789ABCDEFabcdefIiLlOo'
        ELSE '01234567IiLlOo' END;
    top constant text := CASE form WHEN 'uid8' THEN 'F' ELSE '7' END;
    first constant text := substr(t, 1, 1);
    bad integer;
BEGIN
    IF length(t) <> len THEN
        RETURN format('%s characters, expected %s', length(t), len);
    END IF;
    -- A first digit past the top bits is the first bad character, wherever the next one is.
    IF strpos(digits, first) > 0 AND strpos(firsts, first) = 0 THEN
        RETURN format('"%s" at position %s is above %s, the largest first digit', first, "offset" + 1, top);
    END IF;
    bad := length(substring(t, '^[' || digits || ']*')) + 1;
    IF bad <= len THEN
        RETURN format('"%s" at position %s is not a %s', substr(t, bad, 1), "offset" + bad, name);
    END IF;
    IF form = 'base32hex' AND strpos('048CGKOScgkos', substr(t, 26, 1)) = 0 THEN
        RETURN format('"%s" at position %s sets bits past the 128 of a uuid: the last digit is one of 048CGKOS',
                      substr(t, 26, 1), "offset" + 26);
    END IF;
    RETURN NULL;
END
$$;

-- Why p is not a TypeID prefix (at most 63 characters of a-z and _, beginning and ending with a letter,
-- or empty), or NULL: its length, else the first character that breaks the rule.
CREATE FUNCTION @extschema@._typeid_prefix_error(p text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    n constant integer := length(p);
    bad integer;
BEGIN
    IF n > 63 THEN
        RETURN format('a prefix of %s characters, expected at most 63', n);
    ELSIF n = 0 THEN
        RETURN NULL;
    ELSIF strpos('abcdefghijklmnopqrstuvwxyz', substr(p, 1, 1)) = 0 THEN
        RETURN format('"%s" at position 1 is not a lower-case letter (a prefix begins and ends with one)', substr(p, 1, 1));
    END IF;
    -- The first character that is neither a letter nor _; the last may not be _ either.
    bad := length(substring(p, '^[abcdefghijklmnopqrstuvwxyz_]*')) + 1;
    IF bad < n THEN
        RETURN format('"%s" at position %s is not a lower-case letter or _', substr(p, bad, 1), bad);
    ELSIF bad = n OR substr(p, n, 1) = '_' THEN
        RETURN format('"%s" at position %s is not a lower-case letter (a prefix begins and ends with one)', substr(p, n, 1), n);
    END IF;
    RETURN NULL;
END
$$;

-- Why t is not a TypeID, or NULL, in the TypeID spec's order: the separator (its last _), the prefix
-- before it, then the 26 digits after it.
CREATE FUNCTION @extschema@._typeid_error(t text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    k constant integer := CASE WHEN strpos(t, '_') = 0 THEN 0 ELSE length(t) - strpos(reverse(t), '_') + 1 END;
    prefix_error text;
BEGIN
    IF k = 1 THEN
        RETURN '"_" at position 1 is a separator without a prefix (no prefix, no _)';
    ELSIF k > 1 THEN
        prefix_error := @extschema@._typeid_prefix_error(substr(t, 1, k - 1));
        IF prefix_error IS NOT NULL THEN
            RETURN prefix_error;
        END IF;
    END IF;
    IF length(t) - k <> 26 THEN
        RETURN format('a suffix of %s characters, expected 26', length(t) - k);
    END IF;
    RETURN @extschema@._text_error(substr(t, k + 1), 'typeid'::pg_catalog.text, k);
END
$$;

-- ---- uuids: base32hex and Crockford -----------------------------------------------------------

-- The 26 digits of a uuid in `encoding` (base32hex or crockford), upper case.
CREATE FUNCTION @extschema@.comb_text(id uuid, encoding text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    h constant text := encode(uuid_send(id), 'hex');
    b integer;
    hi bigint;
    lo bigint;
BEGIN
    IF encoding = 'crockford' THEN
        b := ('x' || substr(h, 1, 2))::bit(8)::integer;
        hi := ('x' || substr(h, 3, 15))::bit(60)::bigint;
        lo := ('x' || substr(h, 18, 15))::bit(60)::bigint;
        RETURN @extschema@._text_crockford(b, hi, lo, '0123456789ABCDEFGHJKMNPQRSTVWXYZ'::pg_catalog.text);
    ELSIF encoding = 'base32hex' THEN
        hi := ('x' || substr(h, 1, 15))::bit(60)::bigint;
        lo := ('x' || substr(h, 16, 15))::bit(60)::bigint;
        b := ('x' || substr(h, 31, 2))::bit(8)::integer;
        RETURN @extschema@._text_base32hex(hi, lo, b);
    END IF;
    RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = format('comb_text: unknown encoding "%s": valid values are base32hex, crockford', encoding);
END
$$;

-- The uuid of 26 digits in `encoding`, either case (crockford: I and L are 1, O is 0).
CREATE FUNCTION @extschema@.comb_parse(text text, encoding text) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t constant text := comb_parse.text COLLATE "C";
    c text;
BEGIN
    IF encoding = 'crockford' THEN
        IF t ~ '^[01234567IiLlOo][0123456789ABCDEFGHIJKLMNOPQRSTVWXYZabcdefghijklmnopqrstvwxyz]{25}$' THEN
            -- (A variable: an inlined helper would repeat the argument's expression at each use.)
            c := @extschema@._text_crockford_canonical(t);
            RETURN @extschema@._text_from_crockford(c);
        END IF;
        RAISE EXCEPTION USING ERRCODE = '22P02',
            MESSAGE = format('comb_parse: invalid crockford text "%s": %s', t, @extschema@._text_error(t, 'crockford'::pg_catalog.text, 0)),
            HINT = 'A crockford uuid is 26 digits of 0123456789ABCDEFGHJKMNPQRSTVWXYZ in either case (I and L read as 1, O as 0), the first at most 7.';
    ELSIF encoding = 'base32hex' THEN
        IF t ~ '^[0123456789ABCDEFGHIJKLMNOPQRSTUVabcdefghijklmnopqrstuv]{25}[048CGKOScgkos]$' THEN
            c := translate(t, 'abcdefghijklmnopqrstuv', 'ABCDEFGHIJKLMNOPQRSTUV');
            RETURN @extschema@._text_from_base32hex(c);
        END IF;
        RAISE EXCEPTION USING ERRCODE = '22P02',
            MESSAGE = format('comb_parse: invalid base32hex text "%s": %s', t, @extschema@._text_error(t, 'base32hex'::pg_catalog.text, 0)),
            HINT = 'A base32hex uuid is 26 digits of 0123456789ABCDEFGHIJKLMNOPQRSTUV in either case, the last one of 048CGKOS, as PostgreSQL 19''s rtrim(encode(id::bytea, ''base32hex''), ''='') writes it.';
    END IF;
    RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = format('comb_parse: unknown encoding "%s": valid values are base32hex, crockford', encoding);
END
$$;

-- ---- TypeID (jetify-com/typeid spec 0.3.0) ----------------------------------------------------

-- prefix, _, and the uuid's 26 Crockford digits in lower case; no _ for an empty prefix.
CREATE FUNCTION @extschema@.typeid_text(id uuid, prefix text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    p constant text := prefix COLLATE "C";
    h constant text := encode(uuid_send(id), 'hex');
    b integer;
    hi bigint;
    lo bigint;
BEGIN
    IF p = '' OR p ~ '^[abcdefghijklmnopqrstuvwxyz]([abcdefghijklmnopqrstuvwxyz_]{0,61}[abcdefghijklmnopqrstuvwxyz])?$' THEN
        b := ('x' || substr(h, 1, 2))::bit(8)::integer;
        hi := ('x' || substr(h, 3, 15))::bit(60)::bigint;
        lo := ('x' || substr(h, 18, 15))::bit(60)::bigint;
        RETURN CASE WHEN p = '' THEN '' ELSE p || '_' END
            || @extschema@._text_crockford(b, hi, lo, '0123456789abcdefghjkmnpqrstvwxyz'::pg_catalog.text);
    END IF;
    RAISE EXCEPTION USING ERRCODE = '22023',
        MESSAGE = format('typeid_text: invalid TypeID prefix "%s": %s', p, @extschema@._typeid_prefix_error(p)),
        HINT = 'A TypeID prefix is at most 63 characters of a-z and _ that begins and ends with a letter, or empty.';
END
$$;

-- The uuid of a valid TypeID (its last 26 characters), or the 22P02 of an invalid one, naming `caller`.
CREATE FUNCTION @extschema@._typeid_uuid(t text, caller text) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c text;
BEGIN
    IF (t COLLATE "C") ~ '^([abcdefghijklmnopqrstuvwxyz]([abcdefghijklmnopqrstuvwxyz_]{0,61}[abcdefghijklmnopqrstuvwxyz])?_)?[01234567][0123456789abcdefghjkmnpqrstvwxyz]{25}$' THEN
        c := @extschema@._text_crockford_canonical(substr(t, length(t) - 25));
        RETURN @extschema@._text_from_crockford(c);
    END IF;
    RAISE EXCEPTION USING ERRCODE = '22P02',
        MESSAGE = format('%s: invalid TypeID "%s": %s', caller, t, @extschema@._typeid_error(t COLLATE "C")),
        HINT = 'A TypeID is a prefix of at most 63 characters of a-z and _ that begins and ends with a letter, then _, then 26 digits of 0123456789abcdefghjkmnpqrstvwxyz, the first at most 7; without a prefix, the 26 digits alone.';
END
$$;

-- The uuid of a TypeID of any prefix.
CREATE FUNCTION @extschema@.typeid_parse(text text) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $$ BEGIN RETURN @extschema@._typeid_uuid(typeid_parse.text, 'typeid_parse'::pg_catalog.text); END $$;

-- The uuid of a TypeID whose prefix is expected_prefix ('' for none): the argument is checked first
-- (22023), then the text, then its prefix (22P02).
CREATE FUNCTION @extschema@.typeid_parse(text text, expected_prefix text) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    expected constant text := expected_prefix COLLATE "C";
    id uuid;
    found text;
BEGIN
    IF expected <> '' AND expected !~ '^[abcdefghijklmnopqrstuvwxyz]([abcdefghijklmnopqrstuvwxyz_]{0,61}[abcdefghijklmnopqrstuvwxyz])?$' THEN
        RAISE EXCEPTION USING ERRCODE = '22023',
            MESSAGE = format('typeid_parse: invalid TypeID prefix "%s": %s', expected, @extschema@._typeid_prefix_error(expected)),
            HINT = 'A TypeID prefix is at most 63 characters of a-z and _ that begins and ends with a letter, or empty.';
    END IF;
    id := @extschema@._typeid_uuid(typeid_parse.text, 'typeid_parse'::pg_catalog.text);
    -- Valid: the prefix is all but the last 27 characters (26 digits and _), or nothing.
    found := substr(typeid_parse.text COLLATE "C", 1, greatest(length(typeid_parse.text) - 27, 0));
    IF found = expected THEN
        RETURN id;
    END IF;
    RAISE EXCEPTION USING ERRCODE = '22P02',
        MESSAGE = format('typeid_parse: invalid TypeID "%s": the prefix is "%s", expected "%s"', typeid_parse.text, found, expected),
        HINT = 'A TypeID is a prefix of at most 63 characters of a-z and _ that begins and ends with a letter, then _, then 26 digits of 0123456789abcdefghjkmnpqrstvwxyz, the first at most 7; without a prefix, the 26 digits alone.';
END
$$;

-- The prefix of a valid TypeID ('' for none).
CREATE FUNCTION @extschema@.typeid_prefix(text text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM @extschema@._typeid_uuid(typeid_prefix.text, 'typeid_prefix'::pg_catalog.text);
    RETURN substr(typeid_prefix.text, 1, greatest(length(typeid_prefix.text) - 27, 0));
END
$$;

-- ---- uid8: 13 Crockford digits of the bigint with its sign bit flipped ------------------------

CREATE FUNCTION @extschema@.uid8_text(id bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT pg_catalog.substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ',
           (((id OPERATOR(pg_catalog.#) '-9223372036854775808'::bigint) OPERATOR(pg_catalog.>>) 60) OPERATOR(pg_catalog.&) 15)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) @extschema@._text_chars12((id OPERATOR(pg_catalog.#) '-9223372036854775808'::bigint) OPERATOR(pg_catalog.&) 1152921504606846975,
                                                      '0123456789ABCDEFGHJKMNPQRSTVWXYZ'::pg_catalog.text)
$$;

-- The bigint of 13 Crockford digits, either case: the first digit's top bit is the sign bit flipped,
-- so (first # 8) - 16 when that is 8 or more, times 2^60, plus the low 60 bits.
CREATE FUNCTION @extschema@.uid8_parse(text text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t constant text := uid8_parse.text COLLATE "C";
    c text;
    first bigint;
BEGIN
    IF t !~ '^[0123456789ABCDEFabcdefIiLlOo][0123456789ABCDEFGHIJKLMNOPQRSTVWXYZabcdefghijklmnopqrstvwxyz]{12}$' THEN
        RAISE EXCEPTION USING ERRCODE = '22P02',
            MESSAGE = format('uid8_parse: invalid uid8 text "%s": %s', t, @extschema@._text_error(t, 'uid8'::pg_catalog.text, 0)),
            HINT = 'A uid8 text is 13 digits of 0123456789ABCDEFGHJKMNPQRSTVWXYZ in either case (I and L read as 1, O as 0), the first at most F.';
    END IF;
    c := @extschema@._text_crockford_canonical(t);
    first := @extschema@._text_digit(c, 1, '0123456789ABCDEFGHJKMNPQRSTVWXYZ'::pg_catalog.text) # 8;
    RETURN (first - 16 * (first >= 8)::integer) * 1152921504606846976
         + @extschema@._text_value12(c, 2, '0123456789ABCDEFGHJKMNPQRSTVWXYZ'::pg_catalog.text);
END
$$;
