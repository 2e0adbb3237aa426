-- comb_ext, SQL edition: keyed masking of COMB uuids (src/rules/mask.rs is the reference): uuidv47's
-- construction on each format's time field, under a key passed as 16 bytes. The compiled edition's
-- setting forms (the default key, a key id) are not here: a setting the SQL edition could read is one
-- every role can read or set (docs/portable.md).
--
-- SipHash-2-4 over bigint: <<, >>, &, | and # never raise (int8shl drops the bits shifted out), so
-- they are 64-bit words as they are; only + checks overflow, and the adds go through SIP_ADD.

-- a + b modulo 2^64: 2 * (a >> 1 + b >> 1 + the carry of their low bits) + (their low bits' sum mod 2);
-- the inner sum is within a bigint (the arithmetic shifts halve both), the final << wraps. PL/pgSQL
-- bodies only (they run with search_path = pg_catalog).
-- @define SIP_ADD(a, b) ((((a >> 1) + (b >> 1) + (a & b & 1)) << 1) | ((a # b) & 1))
-- x rotated left by n bits: the arithmetic >> drags the sign along, hence the mask of the n bits it brings.
-- @define SIP_ROTL(x, n) ((x << n) | ((x >> (64 - n)) & ((1::bigint << n) - 1)))
-- The little-endian 64-bit word at `offset` of a bytea (a key's k0 and k1).
-- @define LE_WORD(bytes, offset) ((pg_catalog.get_byte(bytes, offset)::bigint) | (pg_catalog.get_byte(bytes, offset + 1)::bigint << 8) | (pg_catalog.get_byte(bytes, offset + 2)::bigint << 16) | (pg_catalog.get_byte(bytes, offset + 3)::bigint << 24) | (pg_catalog.get_byte(bytes, offset + 4)::bigint << 32) | (pg_catalog.get_byte(bytes, offset + 5)::bigint << 40) | (pg_catalog.get_byte(bytes, offset + 6)::bigint << 48) | (pg_catalog.get_byte(bytes, offset + 7)::bigint << 56))

-- SipHash-2-4 under (k0, k1) of a message of 8 to 15 bytes: its first 8 as the little-endian word m0,
-- and `last`, the rest little-endian with the length in the top byte (length << 56 | ...).
CREATE FUNCTION @extschema@._mask_siphash(k0 bigint, k1 bigint, m0 bigint, last bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    -- The initial state: the key XOR "somepseudorandomlygeneratedbytes".
    v0 bigint := k0 # 8317987319222330741;
    v1 bigint := k1 # 7237128888997146477;
    v2 bigint := k0 # 7816392313619706465;
    v3 bigint := k1 # 8387220255154660723 # m0;
BEGIN
    -- Two rounds per word (m0, last), then four to finish: eight SipRounds, written once.
    FOR round IN 1..8 LOOP
        v0 := @SIP_ADD(v0, v1);
        v1 := @SIP_ROTL(v1, 13) # v0;
        v0 := @SIP_ROTL(v0, 32);
        v2 := @SIP_ADD(v2, v3);
        v3 := @SIP_ROTL(v3, 16) # v2;
        v0 := @SIP_ADD(v0, v3);
        v3 := @SIP_ROTL(v3, 21) # v0;
        v2 := @SIP_ADD(v2, v1);
        v1 := @SIP_ROTL(v1, 17) # v2;
        v2 := @SIP_ROTL(v2, 32);
        IF round = 2 THEN
            v0 := v0 # m0;
            v3 := v3 # last;
        ELSIF round = 4 THEN
            v0 := v0 # last;
            v2 := v2 # 255;
        END IF;
    END LOOP;
    RETURN v0 # v1 # v2 # v3;
END $$;

-- comb_mask (unmask false) or comb_unmask (true) of `id` in `format` under `key`, for `fn`'s errors
-- (rules::mask::mask_comb, unmask_comb). The hash is of the bytes outside the time field, fixed bits
-- cleared, which masking leaves alone; so the same hash, XORed in again, undoes it.
CREATE FUNCTION @extschema@._comb_mask(fn text, id uuid, format @extschema@.comb_format, key bytea, unmask boolean)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    hi bigint := @extschema@._comb_hi(id);
    lo bigint := @extschema@._comb_lo(id);
    version constant integer := ((hi >> 12) & 15)::integer;
    variant constant integer := ((lo >> 62) & 3)::integer;
    -- The version the id must have: uuidv7's 7 for an id to mask, 4 for every other (and every façade).
    expected constant integer := CASE WHEN format = 'uuidv7' AND NOT unmask THEN 7 ELSE 4 END;
    clock constant integer := @extschema@._comb_clock(format);
    problem text;
    h bigint;
BEGIN
    IF pg_catalog.length(key) <> 16 THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = pg_catalog.format('%s: a key is 16 bytes, not %s', fn, pg_catalog.length(key)),
            HINT = '16 bytes: k0 then k1, each a little-endian 64-bit integer, as uuidv47 lays a key out.';
    END IF;
    IF format = 'ticks' THEN
        IF (hi & 240) <> 192 THEN
            problem := pg_catalog.format('its marker (the third group''s third hex digit) is %s, where the ticks format has c',
                                         pg_catalog.to_hex((hi >> 4) & 15));
        END IF;
    ELSIF version <> expected OR variant <> 2 THEN
        problem := pg_catalog.format('it has version %s and variant bits %s, where %s', version, (variant::bit(2))::text,
            CASE WHEN unmask THEN 'a masked id has version 4 and variant bits 10'
                 ELSE pg_catalog.format('the format has version %s and variant bits 10', expected) END);
    END IF;
    IF problem IS NOT NULL THEN
        IF unmask THEN
            RAISE EXCEPTION USING ERRCODE = '22P02',
                MESSAGE = pg_catalog.format('%s: uuid %s is not a masked comb_format %s value under this key: %s', fn, id, format, problem),
                HINT = 'comb_mask makes masked values; each unmasks only in the format and under the key that made it.';
        END IF;
        RAISE EXCEPTION USING ERRCODE = '22P02',
            MESSAGE = pg_catalog.format('%s: uuid %s is not a comb_format %s value: %s', fn, id, format, problem),
            HINT = 'comb_mask takes a COMB of the format: version 4 and variant bits 10 (uuidv7: version 7; ticks: the marker c as the third group''s third hex digit) and a time the format holds.';
    END IF;
    IF NOT unmask THEN
        problem := @extschema@._comb_field_problem(@COMB_TIME_FIELD(format, hi, lo), clock);
        IF problem IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = '22008',
                MESSAGE = pg_catalog.format('%s: uuid %s does not hold a valid %s COMB: %s', fn, id, format, problem);
        END IF;
    END IF;
    -- The message, as little-endian words: string bytes 6-15 (postgresql, uuidv7 and .NET orders: the
    -- time is in 0-5), 0-9 (sqlserver order: the time in 10-15) or 0-7 (ticks: the time in 8-15), with
    -- the version nibble (byte 6) and variant bits (byte 8), or ticks' marker (byte 7), cleared.
    h := @extschema@._mask_siphash(@LE_WORD(key, 0), @LE_WORD(key, 8),
        CASE WHEN format = 'ticks' THEN
                 ((hi >> 56) & 255) | (((hi >> 48) & 255) << 8) | (((hi >> 40) & 255) << 16) | (((hi >> 32) & 255) << 24)
                 | (((hi >> 24) & 255) << 32) | (((hi >> 16) & 255) << 40) | (((hi >> 8) & 255) << 48) | ((hi & 15) << 56)
             WHEN format IN ('sqlserver', 'legacy') THEN
                 ((hi >> 56) & 255) | (((hi >> 48) & 255) << 8) | (((hi >> 40) & 255) << 16) | (((hi >> 32) & 255) << 24)
                 | (((hi >> 24) & 255) << 32) | (((hi >> 16) & 255) << 40) | (((hi >> 8) & 15) << 48) | ((hi & 255) << 56)
             ELSE
                 ((hi >> 8) & 15) | ((hi & 255) << 8) | (((lo >> 56) & 63) << 16) | (((lo >> 48) & 255) << 24)
                 | (((lo >> 40) & 255) << 32) | (((lo >> 32) & 255) << 40) | (((lo >> 24) & 255) << 48) | (((lo >> 16) & 255) << 56) END,
        CASE WHEN format = 'ticks' THEN 8::bigint << 56
             WHEN format IN ('sqlserver', 'legacy') THEN (10::bigint << 56) | ((lo >> 56) & 63) | (((lo >> 48) & 255) << 8)
             ELSE (10::bigint << 56) | ((lo >> 8) & 255) | ((lo & 255) << 8) END);
    -- The hash's low bits XORed into the time field, most significant first (COMB_TIME_FIELD's order).
    IF format IN ('postgresql', 'postgresql_sqldatetime', 'uuidv7') THEN
        hi := hi # (h << 16);
    ELSIF format IN ('sqlserver', 'legacy') THEN
        lo := lo # (h & 281474976710655);
    ELSIF format IN ('binary', 'binary_sqldatetime') THEN
        hi := hi # ((((h >> 16) & 255) << 56) | (((h >> 24) & 255) << 48) | (((h >> 32) & 255) << 40)
                    | (((h >> 40) & 255) << 32) | ((h & 255) << 24) | (((h >> 8) & 255) << 16));
    ELSE
        lo := lo # (((h & 65535) << 48) | ((h >> 16) & 281474976710655));
    END IF;
    -- The version: 4 on a façade, uuidv7's 7 back on an unmasked one (ticks keeps its marker, and the
    -- variant bits are 10 on both sides).
    IF format = 'uuidv7' THEN
        hi := (hi & ~61440) | CASE WHEN unmask THEN 28672 ELSE 16384 END;
    END IF;
    IF unmask THEN
        problem := @extschema@._comb_field_problem(@COMB_TIME_FIELD(format, hi, lo), clock);
        IF problem IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = '22P02',
                MESSAGE = pg_catalog.format('%s: uuid %s is not a masked comb_format %s value under this key: it unmasks to no time of the format (%s)',
                                            fn, id, format, problem),
                HINT = 'comb_mask makes masked values; each unmasks only in the format and under the key that made it.';
        END IF;
    END IF;
    RETURN (pg_catalog.lpad(pg_catalog.to_hex(hi), 16, '0') || pg_catalog.lpad(pg_catalog.to_hex(lo), 16, '0'))::pg_catalog.uuid;
END $$;

-- The masked form of a COMB of `format` under `key` (16 bytes: k0 then k1, each little-endian): the
-- time field hidden, version 4. For uuidv7, uuidv47's façade.
CREATE FUNCTION @extschema@.comb_mask(id uuid, format @extschema@.comb_format, key bytea) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@._comb_mask('comb_mask'::text, id, format, key, false)
$$;

-- The COMB of `format` a masked value stands for under `key`. A uuid that no COMB of the format masks
-- to under it is 22P02.
CREATE FUNCTION @extschema@.comb_unmask(id uuid, format @extschema@.comb_format, key bytea) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@._comb_mask('comb_unmask'::text, id, format, key, true)
$$;

-- The same with the format as text, as the compiled edition has them: an untyped literal picks these.
-- A label that is no comb_format fails in the cast, with enum input's own 22P02, as in the compiled one.
CREATE FUNCTION @extschema@.comb_mask(id uuid, format text, key bytea) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@._comb_mask('comb_mask'::text, id, format::@extschema@.comb_format, key, false)
$$;
CREATE FUNCTION @extschema@.comb_unmask(id uuid, format text, key bytea) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@._comb_mask('comb_unmask'::text, id, format::@extschema@.comb_format, key, true)
$$;
