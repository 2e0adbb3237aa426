-- comb_ext, SQL edition: keyed masking (src/rules/mask.rs is the reference), under a key passed as 16
-- bytes: uuidv47's construction on each COMB format's time field, and 8-round SipHash Feistel networks
-- over whole muids, snos and uid8s. The compiled edition's setting forms (the default key, a key id) are
-- not here: a setting the SQL edition could read is one every role can read or set (docs/portable.md).
--
-- SipHash-2-4 over bigint: <<, >>, &, | and # never raise (int8shl drops the bits shifted out), so
-- they are 64-bit words as they are; only + checks overflow, and the adds go through SIP_ADD.
-- Cost decides the shape: the hash runs 8 times a Feistel mask, and a SET clause costs about 1 µs a
-- call (uid8_mask 44 µs with it, 37 without, on PostgreSQL 15), so _mask_siphash has none and writes
-- every operator OPERATOR(pg_catalog.x) instead; it calls no function.

-- a + b modulo 2^64: 2 * (a >> 1 + b >> 1 + the carry of their low bits) + (their low bits' sum mod 2);
-- the inner sum is within a bigint (the arithmetic shifts halve both), the final << wraps. Every operator
-- is OPERATOR(pg_catalog.x), as in the inlined SQL bodies: _mask_siphash runs without a SET clause (below);
-- those all bind alike, left to right, hence the parentheses.
-- @define SIP_ADD(a, b) ((((a OPERATOR(pg_catalog.>>) 1) OPERATOR(pg_catalog.+) (b OPERATOR(pg_catalog.>>) 1) OPERATOR(pg_catalog.+) ((a OPERATOR(pg_catalog.&) b) OPERATOR(pg_catalog.&) 1)) OPERATOR(pg_catalog.<<) 1) OPERATOR(pg_catalog.|) ((a OPERATOR(pg_catalog.#) b) OPERATOR(pg_catalog.&) 1))
-- x rotated left by n bits: the arithmetic >> drags the sign along, hence the mask of the n bits it brings.
-- @define SIP_ROTL(x, n) ((x OPERATOR(pg_catalog.<<) n) OPERATOR(pg_catalog.|) ((x OPERATOR(pg_catalog.>>) (64 OPERATOR(pg_catalog.-) n)) OPERATOR(pg_catalog.&) ((1::bigint OPERATOR(pg_catalog.<<) n) OPERATOR(pg_catalog.-) 1)))
-- The bytes of x in the reverse order: a big-endian byte string read as a little-endian word.
-- @define BYTES_REVERSED(x) (((x OPERATOR(pg_catalog.>>) 56) OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.|) (((x OPERATOR(pg_catalog.>>) 48) OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 8) OPERATOR(pg_catalog.|) (((x OPERATOR(pg_catalog.>>) 40) OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|) (((x OPERATOR(pg_catalog.>>) 32) OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 24) OPERATOR(pg_catalog.|) (((x OPERATOR(pg_catalog.>>) 24) OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 32) OPERATOR(pg_catalog.|) (((x OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 40) OPERATOR(pg_catalog.|) (((x OPERATOR(pg_catalog.>>) 8) OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 48) OPERATOR(pg_catalog.|) ((x OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 56))
-- The little-endian 64-bit word at `offset` of a bytea (a key's k0 and k1).
-- @define LE_WORD(bytes, offset) ((pg_catalog.get_byte(bytes, offset OPERATOR(pg_catalog.+) 0)::bigint OPERATOR(pg_catalog.<<) 0) OPERATOR(pg_catalog.|) (pg_catalog.get_byte(bytes, offset OPERATOR(pg_catalog.+) 1)::bigint OPERATOR(pg_catalog.<<) 8) OPERATOR(pg_catalog.|) (pg_catalog.get_byte(bytes, offset OPERATOR(pg_catalog.+) 2)::bigint OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|) (pg_catalog.get_byte(bytes, offset OPERATOR(pg_catalog.+) 3)::bigint OPERATOR(pg_catalog.<<) 24) OPERATOR(pg_catalog.|) (pg_catalog.get_byte(bytes, offset OPERATOR(pg_catalog.+) 4)::bigint OPERATOR(pg_catalog.<<) 32) OPERATOR(pg_catalog.|) (pg_catalog.get_byte(bytes, offset OPERATOR(pg_catalog.+) 5)::bigint OPERATOR(pg_catalog.<<) 40) OPERATOR(pg_catalog.|) (pg_catalog.get_byte(bytes, offset OPERATOR(pg_catalog.+) 6)::bigint OPERATOR(pg_catalog.<<) 48) OPERATOR(pg_catalog.|) (pg_catalog.get_byte(bytes, offset OPERATOR(pg_catalog.+) 7)::bigint OPERATOR(pg_catalog.<<) 56))

-- SipHash-2-4 under (k0, k1) of a message of under 16 bytes, as little-endian words: m0, its first 8
-- bytes (NULL for a message under 8), and `last`, the rest with the length in the top byte
-- (length << 56 | ...).
CREATE FUNCTION @extschema@._mask_siphash(k0 bigint, k1 bigint, m0 bigint, last bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    -- The initial state: the key XOR "somepseudorandomlygeneratedbytes", and the first word taken in.
    v0 bigint := k0 OPERATOR(pg_catalog.#) 8317987319222330741;
    v1 bigint := k1 OPERATOR(pg_catalog.#) 7237128888997146477;
    v2 bigint := k0 OPERATOR(pg_catalog.#) 7816392313619706465;
    v3 bigint := (k1 OPERATOR(pg_catalog.#) 8387220255154660723) OPERATOR(pg_catalog.#) coalesce(m0, last);
    -- Two rounds per word (m0, then last), then four to finish: a one-word message skips m0's two.
    first_round constant integer := CASE WHEN m0 IS NULL THEN 3 ELSE 1 END;
BEGIN
    FOR round IN first_round..8 LOOP
        v0 := @SIP_ADD(v0, v1);
        v1 := @SIP_ROTL(v1, 13) OPERATOR(pg_catalog.#) v0;
        v0 := @SIP_ROTL(v0, 32);
        v2 := @SIP_ADD(v2, v3);
        v3 := @SIP_ROTL(v3, 16) OPERATOR(pg_catalog.#) v2;
        v0 := @SIP_ADD(v0, v3);
        v3 := @SIP_ROTL(v3, 21) OPERATOR(pg_catalog.#) v0;
        v2 := @SIP_ADD(v2, v1);
        v1 := @SIP_ROTL(v1, 17) OPERATOR(pg_catalog.#) v2;
        v2 := @SIP_ROTL(v2, 32);
        IF round OPERATOR(pg_catalog.=) 2 THEN
            v0 := v0 OPERATOR(pg_catalog.#) m0;
            v3 := v3 OPERATOR(pg_catalog.#) last;
        ELSIF round OPERATOR(pg_catalog.=) 4 THEN
            v0 := v0 OPERATOR(pg_catalog.#) last;
            v2 := v2 OPERATOR(pg_catalog.#) 255;
        END IF;
    END LOOP;
    RETURN ((v0 OPERATOR(pg_catalog.#) v1) OPERATOR(pg_catalog.#) v2) OPERATOR(pg_catalog.#) v3;
END $$;

-- 22023 for a key that is not 16 bytes (mask_key::explicit_key): the message names its length, never its bytes.
CREATE FUNCTION @extschema@._mask_refuse_key(fn text, key bytea) RETURNS void
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = pg_catalog.format('%s: a key is 16 bytes, not %s', fn, pg_catalog.length(key)),
        HINT = '16 bytes: k0 then k1, each a little-endian 64-bit integer, as uuidv47 lays a key out.';
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
        PERFORM @extschema@._mask_refuse_key(fn, key);
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
        -- Masking's errors name neither the id nor its time: the value masking hides.
        RAISE EXCEPTION USING ERRCODE = '22P02',
            MESSAGE = pg_catalog.format('%s: the id is not a comb_format %s value: %s', fn, format, problem),
            HINT = 'comb_mask takes a COMB of the format: version 4 and variant bits 10 (uuidv7: version 7; ticks: the marker c as the third group''s third hex digit) and a time the format holds.';
    END IF;
    IF NOT unmask THEN
        problem := @extschema@._comb_field_problem(@COMB_TIME_FIELD(format, hi, lo), clock);
        IF problem IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = '22008',
                MESSAGE = pg_catalog.format('%s: the id is not a comb_format %s value: its time field holds no time the format holds', fn, format);
        END IF;
    END IF;
    -- The message, as little-endian words: string bytes 6-15 (postgresql, uuidv7 and .NET orders: the
    -- time is in 0-5), 0-9 (sqlserver order: the time in 10-15) or 0-7 (ticks: the time in 8-15), with
    -- the version nibble (byte 6) and variant bits (byte 8), or ticks' marker (byte 7), cleared; outside
    -- the UUIDv7 layout (postgresql, uuidv7), the 12 bits after the time field too (sqlserver order: the
    -- low 6 of byte 8 and the high 6 of byte 9; the others: the low nibble of byte 6 and byte 7).
    h := @extschema@._mask_siphash(@LE_WORD(key, 0), @LE_WORD(key, 8),
        CASE WHEN format = 'ticks' THEN @BYTES_REVERSED(hi & ~240)
             WHEN format IN ('sqlserver', 'legacy') THEN @BYTES_REVERSED(hi & ~61440)
             WHEN format IN ('postgresql', 'uuidv7') THEN ((hi >> 8) & 15) | ((hi & 255) << 8) | (@BYTES_REVERSED(lo & 4611686018427387903) << 16)
             ELSE @BYTES_REVERSED(lo & 4611686018427387903) << 16 END,
        CASE WHEN format = 'ticks' THEN 8::bigint << 56
             WHEN format IN ('sqlserver', 'legacy') THEN (10::bigint << 56) | (@BYTES_REVERSED(lo & 1125899906842623) & 65535)
             ELSE (10::bigint << 56) | ((@BYTES_REVERSED(lo) >> 48) & 65535) END);
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
    -- The 12 bits after the time field, but in the UUIDv7 layout (where uuidv47 leaves them) and ticks
    -- (which has none): XORed with the hash's bits 48-59, most significant first.
    IF format = 'postgresql_sqldatetime' THEN
        hi := hi # ((h >> 48) & 4095);
    ELSIF format IN ('binary', 'binary_sqldatetime') THEN
        hi := hi # (((h >> 52) & 255) | (((h >> 48) & 15) << 8));
    ELSIF format IN ('sqlserver', 'legacy') THEN
        lo := lo # (((h >> 48) & 4095) << 50);
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
                -- Not the unmasked field itself: an error must not decrypt for whoever sends ids.
                MESSAGE = pg_catalog.format('%s: uuid %s is not a masked comb_format %s value under this key: it unmasks to no time the format holds',
                                            fn, id, format),
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

-- The Feistel network of a family (rules::mask::Feistel) on an id's halves, high first, each of
-- half_bits (32 uid8, 40 sno, 64 muid; a 64-bit half is a bigint's 64 bits, sign included); `tag` the
-- family's (1 muid, 2 sno, 3 uid8). Round r's function of a half: SipHash-2-4 of (tag, r, the half's
-- bytes big-endian), its low half_bits bits. Unmasking runs the rounds backwards. The result is the
-- id's text (a uuid's, a sno's, a bigint's), which the callers cast: one expression each, which the
-- planner inlines, where an array of the halves would take a query.
CREATE FUNCTION @extschema@._mask_feistel(fn text, high bigint, low bigint, half_bits integer, tag integer, key bytea,
                                          unmask boolean) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    half_mask constant bigint := CASE WHEN half_bits = 64 THEN -1 ELSE (1::bigint << half_bits) - 1 END;
    k0 bigint;
    k1 bigint;
    round integer;
    -- The half a round hashes, its bytes reversed into a little-endian word's low bytes, and the result.
    reversed bigint;
    f bigint;
    swap bigint;
BEGIN
    IF pg_catalog.length(key) <> 16 THEN
        PERFORM @extschema@._mask_refuse_key(fn, key);
    END IF;
    k0 := @LE_WORD(key, 0);
    k1 := @LE_WORD(key, 8);
    FOR step IN 0..7 LOOP
        round := CASE WHEN unmask THEN 7 - step ELSE step END;
        reversed := CASE WHEN unmask THEN high ELSE low END << (64 - half_bits);
        reversed := @BYTES_REVERSED(reversed);
        -- The message ('F' = 70, tag, round, half): 3 + half_bits / 8 bytes; a muid half's 11 and a sno
        -- half's 8 make two words (the second of a sno's holds only the length), a uid8 half's 7 one.
        f := @extschema@._mask_siphash(k0, k1,
            CASE WHEN half_bits <> 32 THEN 70 | (tag << 8) | (round << 16) | (reversed << 24) END,
            CASE half_bits WHEN 64 THEN (11::bigint << 56) | ((reversed >> 40) & 16777215)
                           WHEN 40 THEN 8::bigint << 56
                           ELSE (7::bigint << 56) | 70 | (tag << 8) | (round << 16) | (reversed << 24) END) & half_mask;
        IF unmask THEN
            swap := low # f;   -- (high, low) := (low ^ F(high), high)
            low := high;
            high := swap;
        ELSE
            swap := high # f;  -- (high, low) := (low, high ^ F(low))
            high := low;
            low := swap;
        END IF;
    END LOOP;
    RETURN CASE half_bits
        WHEN 64 THEN pg_catalog.lpad(pg_catalog.to_hex(high), 16, '0') || pg_catalog.lpad(pg_catalog.to_hex(low), 16, '0')
        WHEN 40 THEN @extschema@._sno_chars(high) || @extschema@._sno_chars(low)
        ELSE ((high << 32) | low)::text END;
END $$;

-- The masked form of a muid (or any uuid) under `key`: another uuid, from which nothing of the muid
-- can be read without the key; muid_unmask gives the muid back. Every uuid is some uuid's mask.
CREATE FUNCTION @extschema@.muid_mask(id uuid, key bytea) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@._mask_feistel('muid_mask'::text, @extschema@._comb_hi(id), @extschema@._comb_lo(id), 64, 1, key, false)::pg_catalog.uuid
$$;
CREATE FUNCTION @extschema@.muid_unmask(id uuid, key bytea) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@._mask_feistel('muid_unmask'::text, @extschema@._comb_hi(id), @extschema@._comb_lo(id), 64, 1, key, true)::pg_catalog.uuid
$$;

-- The masked form of a sno under `key`: another sno; sno_unmask gives it back.
CREATE FUNCTION @extschema@.sno_mask(id @extschema@.sno, key bytea) RETURNS @extschema@.sno
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@._mask_feistel('sno_mask'::text, @extschema@._sno_half(id::pg_catalog.text, 1),
                                     @extschema@._sno_half(id::pg_catalog.text, 9), 40, 2, key, false)::@extschema@.sno
$$;
CREATE FUNCTION @extschema@.sno_unmask(id @extschema@.sno, key bytea) RETURNS @extschema@.sno
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@._mask_feistel('sno_unmask'::text, @extschema@._sno_half(id::pg_catalog.text, 1),
                                     @extschema@._sno_half(id::pg_catalog.text, 9), 40, 2, key, true)::@extschema@.sno
$$;

-- The masked form of a bigint (a uid8 or any other) under `key`; uid8_unmask gives it back.
CREATE FUNCTION @extschema@.uid8_mask(id bigint, key bytea) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@._mask_feistel('uid8_mask'::text, (id OPERATOR(pg_catalog.>>) 32) OPERATOR(pg_catalog.&) 4294967295,
                                     id OPERATOR(pg_catalog.&) 4294967295, 32, 3, key, false)::bigint
$$;
CREATE FUNCTION @extschema@.uid8_unmask(id bigint, key bytea) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@._mask_feistel('uid8_unmask'::text, (id OPERATOR(pg_catalog.>>) 32) OPERATOR(pg_catalog.&) 4294967295,
                                     id OPERATOR(pg_catalog.&) 4294967295, 32, 3, key, true)::bigint
$$;
