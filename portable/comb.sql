-- comb_ext, SQL edition: the COMB family in plain SQL and PL/pgSQL, for servers that load no compiled
-- extension. Same names, signatures, bits and SQLSTATEs as the compiled edition (src/rules/comb.rs is
-- the reference; docs/portable-comb.md lists what differs and why).
--
-- @extschema@ is the schema the edition is installed in: the assembly substitutes it, and CREATE
-- EXTENSION (pg_tle) does so natively. Everything else is qualified with pg_catalog, so no caller's
-- search_path can change what runs. Every call of the edition's own functions passes exactly the
-- declared argument types (literals cast: 'comb_floor'::text, NULL::integer, 0::bigint; defaulted
-- arguments given), as PostgreSQL takes an exact match first: an overload planted in @extschema@ by
-- a role with CREATE there (comb_floor(text, ...), _comb_compose(integer, ...)) never takes the call
-- (tests/portable_planting.py). PL/pgSQL functions run with search_path = pg_catalog, pg_temp
-- (but the two key functions, which use no operator and are called once per index entry); the SQL
-- functions are inlined by the planner, which a SET clause would prevent, so they spell every
-- operator out as OPERATOR(pg_catalog.x) (and, as those all bind alike, parenthesize every group).
--
-- How the 16 bytes are handled: a uuid is two bigints, hi (string bytes 0-7) and lo (bytes 8-15),
-- read through uuid_send and written back through to_hex (which prints a negative bigint as its 64
-- bits). Clock arithmetic is integer arithmetic on bigint, exact on every major (13-18): no float, no
-- extract(epoch), which is a float8 on 13.
--
-- Constants, in unix microseconds unless said otherwise (src/rules/comb.rs, src/rules/time.rs):
--   946684800000000        PostgreSQL's epoch, 2000-01-01
--   -2208988800000000      1900-01-01, day 0 of SQL Server datetime
--   -62135596800000000     0001-01-01, .NET DateTime's start
--   253402300800000000     10000-01-01, .NET DateTime's end (exclusive)
--   3453321600000001       end (exclusive) of the sqldatetime clock: 2079-06-07 00:00:00 is its last instant
--   25920000               1/300 s units in a day
--   1698693120000          65536 * 25920000: the sqldatetime clock's last unit (day 65535, time of day 25920000)
--   253402300799999        the unix clock's last millisecond
--   281474976710655        2^48 - 1: the uuidv7 clock's last millisecond, 10889-08-02 05:31:50.655, and
--   281474976710655001     end (exclusive) of the uuidv7 clock: that millisecond's first µs is its last
--                          instant, as in PostgreSQL 18's uuidv7(interval) (UUIDV7_MAX_TIMESTAMP)
--   3155378975999999999    the ticks clock's last tick

-- The rules that the generators, written out for speed, share with the helpers: each is written once
-- here and expanded where it is used (portable/build.py, "@define"). Every operator is
-- OPERATOR(pg_catalog.x), as they are expanded into inlined SQL too; those all bind alike, left to
-- right, hence the parentheses.
-- The clock of a format: 0 unix ms, 1 sqldatetime, 2 ticks, 3 unix ms over PostgreSQL 18's range for
-- uuidv7 (Clock::UnixUuidV7): clocks 0 and 3 differ only in their end, so every rule below but the
-- range takes 3 where it takes 0 (as the ELSE of a test of 1 and 2).
-- @define COMB_CLOCK(format) CASE WHEN format OPERATOR(pg_catalog.=) ANY ('{legacy,postgresql_sqldatetime,binary_sqldatetime}'::@extschema@.comb_format[]) THEN 1 WHEN format OPERATOR(pg_catalog.=) 'ticks'::@extschema@.comb_format THEN 2 WHEN format OPERATOR(pg_catalog.=) 'uuidv7'::@extschema@.comb_format THEN 3 ELSE 0 END
-- [start, end) of a clock, in unix µs.
-- @define COMB_RANGE_START(clock) CASE WHEN clock OPERATOR(pg_catalog.=) 1 THEN -2208988800000000::bigint WHEN clock OPERATOR(pg_catalog.=) 2 THEN -62135596800000000::bigint ELSE 0::bigint END
-- @define COMB_RANGE_END(clock) CASE WHEN clock OPERATOR(pg_catalog.=) 1 THEN 3453321600000001::bigint WHEN clock OPERATOR(pg_catalog.=) 3 THEN 281474976710655001::bigint ELSE 253402300800000000::bigint END
-- The position of a time `since` µs after its clock's start: units * 4096 + the time's fraction of
-- its unit in 1/4096 (RFC 9562 method 3, as PostgreSQL 18's uuidv7()), or the ticks for the ticks
-- clock (its fraction has no bits); each floor(since * 4096 / unit): unix floor(µs * 512 / 125), in
-- numeric, as µs * 512 overflows a bigint after year 2540; sqldatetime floor(µs * 768 / 625), as
-- 1/300 s is 10000/3 µs (at most 4.4e18 over the whole clock); ticks µs * 10.
-- @define COMB_POSITION(clock, since) CASE WHEN clock OPERATOR(pg_catalog.=) 1 THEN (since OPERATOR(pg_catalog.*) 768) OPERATOR(pg_catalog./) 625 WHEN clock OPERATOR(pg_catalog.=) 2 THEN since OPERATOR(pg_catalog.*) 10 ELSE pg_catalog.div(since::pg_catalog.numeric OPERATOR(pg_catalog.*) 512, 125)::bigint END
-- The field the sqldatetime clock writes for a unit: day << 32 | 1/300 s of the day, the last unit as
-- day 65535's 25920000 (day 65536 does not fit two bytes).
-- @define COMB_SQLDATETIME_FIELD(units) CASE WHEN units OPERATOR(pg_catalog.=) 1698693120000 THEN (65535::bigint OPERATOR(pg_catalog.<<) 32) OPERATOR(pg_catalog.|) 25920000 ELSE ((units OPERATOR(pg_catalog./) 25920000) OPERATOR(pg_catalog.<<) 32) OPERATOR(pg_catalog.|) (units OPERATOR(pg_catalog.%) 25920000) END

-- The time field of a COMB (hi, lo: string bytes 0-7 and 8-15) as one integer, most significant byte
-- first: bytes 0-5, 10-15, .NET's 3, 2, 1, 0, 5, 4, or ticks' 10-15 then 8-9 (Format::time_positions).
-- @define COMB_TIME_FIELD(format, hi, lo) CASE WHEN format OPERATOR(pg_catalog.=) ANY ('{postgresql,postgresql_sqldatetime,uuidv7}'::@extschema@.comb_format[]) THEN (hi OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 281474976710655 WHEN format OPERATOR(pg_catalog.=) ANY ('{sqlserver,legacy}'::@extschema@.comb_format[]) THEN lo OPERATOR(pg_catalog.&) 281474976710655 WHEN format OPERATOR(pg_catalog.=) ANY ('{binary,binary_sqldatetime}'::@extschema@.comb_format[]) THEN (((hi OPERATOR(pg_catalog.>>) 32) OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 40) OPERATOR(pg_catalog.|) (((hi OPERATOR(pg_catalog.>>) 40) OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 32) OPERATOR(pg_catalog.|) (((hi OPERATOR(pg_catalog.>>) 48) OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 24) OPERATOR(pg_catalog.|) (((hi OPERATOR(pg_catalog.>>) 56) OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|) (((hi OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 8) OPERATOR(pg_catalog.|) ((hi OPERATOR(pg_catalog.>>) 24) OPERATOR(pg_catalog.&) 255) ELSE ((lo OPERATOR(pg_catalog.&) 281474976710655) OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|) ((lo OPERATOR(pg_catalog.>>) 48) OPERATOR(pg_catalog.&) 65535) END
-- A sqldatetime field (day << 32 | 1/300 s of the day) as 1/300 s units since 1900; other clocks' fields are units.
-- @define COMB_UNITS(field, clock) CASE WHEN clock OPERATOR(pg_catalog.=) 1 THEN ((field OPERATOR(pg_catalog.>>) 32) OPERATOR(pg_catalog.*) 25920000) OPERATOR(pg_catalog.+) (field OPERATOR(pg_catalog.&) 4294967295) ELSE field END

CREATE TYPE @extschema@.comb_format AS ENUM (
    'postgresql', 'sqlserver', 'legacy', 'binary', 'postgresql_sqldatetime', 'binary_sqldatetime', 'ticks', 'uuidv7'
);

-- ---------------------------------------------------------------------------------------------
-- Internal helpers (names start with _comb_; not part of the interface).

-- The timestamptz of a unix µs count, exactly, for any µs timestamptz holds: whole multiples of 128 s
-- through to_timestamp, and the rest as an interval of microseconds. to_timestamp computes
-- rint((s - 946684800) * 10^6) in float8; with s and 946684800 both multiples of 128 the product is
-- (an integer below 2^53) * 2^13, which float8 holds exactly.
CREATE FUNCTION @extschema@._comb_ts(us bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    -- OPERATOR() spellings all bind alike, left to right: every grouping is in parentheses.
    SELECT pg_catalog.to_timestamp(((us OPERATOR(pg_catalog./) 128000000) OPERATOR(pg_catalog.*) 128)::pg_catalog.float8)
           OPERATOR(pg_catalog.+) ((us OPERATOR(pg_catalog.%) 128000000) OPERATOR(pg_catalog.*) pg_catalog.interval '1 microsecond')
$$;

-- Unix µs of a timestamptz, or NULL where the compiled edition has none: ±infinity, and the finite
-- times after year 294246 whose µs since 1970 do not fit a bigint. (timestamptz_send is the exact
-- int64 of µs since 2000.)
CREATE FUNCTION @extschema@._comb_us(ts timestamptz) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    pg_us bigint := ('x' || pg_catalog.encode(pg_catalog.timestamptz_send(ts), 'hex'))::pg_catalog.bit(64)::bigint;
BEGIN
    IF pg_us = (-9223372036854775807 - 1) OR pg_us > 9223372036854775807 - 946684800000000 THEN
        RETURN NULL;
    END IF;
    RETURN pg_us + 946684800000000;
END $$;

-- The clock of a format (COMB_CLOCK): 0 unix ms, 1 sqldatetime, 2 ticks, 3 unix ms to year 10889.
CREATE FUNCTION @extschema@._comb_clock(format @extschema@.comb_format) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @COMB_CLOCK(format)
$$;

-- [start, end) of a clock, and its range as the messages spell it.
CREATE FUNCTION @extschema@._comb_range_start(clock integer) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    -- Searched CASE with OPERATOR(pg_catalog.=): a simple CASE would look = up in the caller's search_path.
    SELECT @COMB_RANGE_START(clock)
$$;
CREATE FUNCTION @extschema@._comb_range_end(clock integer) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @COMB_RANGE_END(clock)
$$;
CREATE FUNCTION @extschema@._comb_range_text(clock integer) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT CASE
        WHEN clock OPERATOR(pg_catalog.=) 0 THEN '1970-01-01 00:00:00 UTC to 9999-12-31 23:59:59.999999 UTC'
        WHEN clock OPERATOR(pg_catalog.=) 1 THEN '1900-01-01 00:00:00 UTC to 2079-06-07 00:00:00 UTC'
        WHEN clock OPERATOR(pg_catalog.=) 3 THEN '1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC'
        ELSE '0001-01-01 00:00:00 UTC to 9999-12-31 23:59:59.999999 UTC' END
$$;

-- The last unit of a clock (for sqldatetime, 2079-06-07 00:00:00, and for uuidv7, 10889-08-02
-- 05:31:50.655, one microsecond long).
CREATE FUNCTION @extschema@._comb_max_units(clock integer) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT CASE WHEN clock OPERATOR(pg_catalog.=) 0 THEN 253402300799999 WHEN clock OPERATOR(pg_catalog.=) 1 THEN 1698693120000
                WHEN clock OPERATOR(pg_catalog.=) 3 THEN 281474976710655 ELSE 3155378975999999999 END
$$;

-- 22008 for a time outside the format's clock; `shown` is the time as the session shows it. uuidv7's
-- range is PostgreSQL 18's, and its DETAIL says so (Clock::range_detail).
CREATE FUNCTION @extschema@._comb_out_of_range(fn text, shown text, format @extschema@.comb_format) RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    message constant text := pg_catalog.format('%s: timestamp %s is out of range for comb_format %s: valid range is %s',
        fn, shown, format, @extschema@._comb_range_text(@extschema@._comb_clock(format)));
BEGIN
    IF format = 'uuidv7' THEN
        RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = message,
            DETAIL = 'UUID version 7 holds 48 bits of milliseconds since 1970-01-01, so it supports timestamps from '
                     '1970-01-01 to 10889-08-02 05:31:50.655 UTC, as PostgreSQL 18''s uuidv7(interval) does; '
                     'infinite timestamps are not supported.';
    END IF;
    RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = message;
END $$;

-- The unix µs of `ts` for `fn`, or 22008 where it has none (±infinity).
CREATE FUNCTION @extschema@._comb_finite_us(fn text, ts timestamptz, format @extschema@.comb_format) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    us bigint := @extschema@._comb_us(ts);
BEGIN
    IF us IS NULL THEN
        PERFORM @extschema@._comb_out_of_range(fn, ts::text, format);
    END IF;
    RETURN us;
END $$;

-- Position of unix µs `us` on the format's clock (COMB_POSITION); 22008 outside the clock's range.
CREATE FUNCTION @extschema@._comb_position(fn text, us bigint, format @extschema@.comb_format) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    clock constant integer := @extschema@._comb_clock(format);
    since bigint;
BEGIN
    IF us < @extschema@._comb_range_start(clock) OR us >= @extschema@._comb_range_end(clock) THEN
        PERFORM @extschema@._comb_out_of_range(fn, @extschema@._comb_ts(us)::text, format);
    END IF;
    since := us - @extschema@._comb_range_start(clock);
    RETURN @COMB_POSITION(clock, since);
END $$;

-- The first whole microsecond of a unit (Clock::unix_us): for sqldatetime, the 1/300 s rounded up.
CREATE FUNCTION @extschema@._comb_unit_us(units bigint, clock integer) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT CASE
        WHEN clock OPERATOR(pg_catalog.=) 1 THEN (-2208988800000000
            OPERATOR(pg_catalog.+) ((units OPERATOR(pg_catalog./) 25920000) OPERATOR(pg_catalog.*) 86400000000))
            OPERATOR(pg_catalog.+) ((((units OPERATOR(pg_catalog.%) 25920000) OPERATOR(pg_catalog.*) 10000) OPERATOR(pg_catalog.+) 2) OPERATOR(pg_catalog./) 3)
        WHEN clock OPERATOR(pg_catalog.=) 2 THEN -62135596800000000 OPERATOR(pg_catalog.+) (units OPERATOR(pg_catalog./) 10)
        ELSE units OPERATOR(pg_catalog.*) 1000 END
$$;

-- The field a clock writes for a unit: the unit, or COMB_SQLDATETIME_FIELD.
CREATE FUNCTION @extschema@._comb_field(units bigint, clock integer) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT CASE
        WHEN clock OPERATOR(pg_catalog.<>) 1 THEN units
        ELSE @COMB_SQLDATETIME_FIELD(units) END
$$;

-- The 16 bytes `hi` (string bytes 0-7) and `lo` (8-15) with `field` written at the format's time
-- bytes, the 12-bit `counter` (unless NULL) in the free bits that sort right after them, and, when
-- `fixed`, the format's fixed bits set: version 4 (7 for uuidv7) and variant 10, or the ticks marker
-- 0xC in the high nibble of byte 7. Layouts (src/rules/comb.rs, Format::time_positions and
-- counter_slots):
--   postgresql formats, uuidv7: time bytes 0-5; counter in byte 6's low nibble and byte 7
--   sqlserver, legacy: time bytes 10-15; counter in byte 8's low 6 bits and byte 9's high 6 bits
--   binary formats: time bytes 3,2,1,0,5,4; counter's high 8 bits in byte 7, low 4 in byte 6's low nibble
--   ticks: 64-bit ticks in bytes 10-15 then 8-9; no counter
CREATE FUNCTION @extschema@._comb_compose(hi bigint, lo bigint, field bigint, counter integer, fixed boolean,
                                          format @extschema@.comb_format) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    CASE format
    WHEN 'postgresql', 'postgresql_sqldatetime', 'uuidv7' THEN
        hi := (field << 16) | (hi & 65535);
        IF counter IS NOT NULL THEN
            hi := (hi & ~4095::bigint) | counter;
        END IF;
    WHEN 'sqlserver', 'legacy' THEN
        lo := (lo & ~281474976710655::bigint) | field;
        IF counter IS NOT NULL THEN
            lo := (lo & ~(4095::bigint << 50)) | (counter::bigint << 50);
        END IF;
    WHEN 'binary', 'binary_sqldatetime' THEN
        hi := (((field >> 16) & 255) << 56) | (((field >> 24) & 255) << 48) | (((field >> 32) & 255) << 40)
            | (((field >> 40) & 255) << 32) | ((field & 255) << 24) | (((field >> 8) & 255) << 16) | (hi & 65535);
        IF counter IS NOT NULL THEN
            hi := (hi & ~4095::bigint) | ((counter & 15) << 8) | (counter >> 4);
        END IF;
    WHEN 'ticks' THEN
        lo := ((field & 65535) << 48) | (field >> 16);
    END CASE;
    IF fixed THEN
        IF format = 'ticks' THEN
            hi := (hi & ~240::bigint) | 192;
        ELSE
            hi := (hi & ~61440::bigint) | (CASE WHEN format = 'uuidv7' THEN 28672 ELSE 16384 END);
            lo := (lo & 4611686018427387903) | (1::bigint << 63);
        END IF;
    END IF;
    RETURN (pg_catalog.lpad(pg_catalog.to_hex(hi), 16, '0') || pg_catalog.lpad(pg_catalog.to_hex(lo), 16, '0'))::pg_catalog.uuid;
END $$;

-- String bytes 0-7 and 8-15 of a uuid as bigints.
CREATE FUNCTION @extschema@._comb_hi(id uuid) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT ('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(pg_catalog.uuid_send(id), 1, 8), 'hex'))::pg_catalog.bit(64)::bigint
$$;
CREATE FUNCTION @extschema@._comb_lo(id uuid) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT ('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(pg_catalog.uuid_send(id), 9, 8), 'hex'))::pg_catalog.bit(64)::bigint
$$;

-- `random` with the format's fixed bits set, then the unit and fraction of `pos` written: RT.Comb
-- Create(DateTime) with the fraction (rules::comb::at). The deterministic core of comb_uuid(ts, format),
-- and what tests/portable_diff.py compares with the compiled edition.
CREATE FUNCTION @extschema@._comb_at(random uuid, pos bigint, format @extschema@.comb_format) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    clock constant integer := @extschema@._comb_clock(format);
BEGIN
    IF clock = 2 THEN
        RETURN @extschema@._comb_compose(@extschema@._comb_hi(random), @extschema@._comb_lo(random),
                                         pos, NULL::integer, true, format);
    END IF;
    RETURN @extschema@._comb_compose(@extschema@._comb_hi(random), @extschema@._comb_lo(random),
                                     @extschema@._comb_field(pos >> 12, clock), (pos & 4095)::integer, true, format);
END $$;

-- 16 random bytes from the server's CSPRNG (gen_random_uuid, PostgreSQL 13+). Its fixed bits (byte 6's
-- high nibble, byte 8's top two) are bits every format but ticks overwrites anyway; ticks keeps byte 6
-- whole, so its high nibble takes the low nibble of byte 9, which ticks overwrites.
CREATE FUNCTION @extschema@._comb_random(format @extschema@.comb_format) RETURNS uuid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    random uuid := pg_catalog.gen_random_uuid();
    text_form text;
BEGIN
    IF format <> 'ticks' THEN
        RETURN random;
    END IF;
    text_form := random::text;
    -- Byte 6 is text characters 15-16, byte 9 characters 22-23.
    RETURN (pg_catalog.substr(text_form, 1, 14) || pg_catalog.substr(text_form, 23, 1)
            || pg_catalog.substr(text_form, 16))::pg_catalog.uuid;
END $$;

-- ---------------------------------------------------------------------------------------------
-- Generation.

-- New COMB in `format` from the wall clock. The session's last position + 1 per format is kept in the
-- placeholder setting comb_portable.next_<format> (any role can set one): the next position is the
-- clock's, or the last + 1 when the clock's is not past it (two calls within 1/4096 of a unit, or a
-- clock that stepped back), which carries into the next unit when the counter runs out, exactly as
-- rules::comb::Generator. Settings follow transactions: a rolled-back transaction or savepoint takes
-- the position back with it (docs/portable-comb.md). PARALLEL UNSAFE, not RESTRICTED: set_config is
-- refused while a parallel plan runs, even in the leader.
CREATE FUNCTION @extschema@.comb_uuid(format @extschema@.comb_format) RETURNS uuid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    -- Everything is written out here rather than called, and in few statements, as this runs once
    -- a row: the clock, its range, the position and the field are the helpers' own rules (the
    -- @COMB_ macros, expanded by portable/build.py); the bytes are laid out as text here and as two
    -- bigints in _comb_compose, and tests/portable_comb_behaviour.py checks every value against
    -- _comb_at of its own bits.
    -- The wall clock in unix µs (timestamptz_send: µs since 2000 as 8 bytes).
    now_us constant bigint := ('x' || pg_catalog.encode(pg_catalog.timestamptz_send(pg_catalog.clock_timestamp()), 'hex'))::pg_catalog.bit(64)::bigint
                              + 946684800000000;
    clock constant integer := @COMB_CLOCK(format);
    -- The clock's position (NULL outside the clock's range).
    pos bigint := CASE WHEN now_us >= @COMB_RANGE_START(clock) AND now_us < @COMB_RANGE_END(clock)
                       THEN @COMB_POSITION(clock, now_us - @COMB_RANGE_START(clock)) END;
    setting constant text := 'comb_portable.next_' || format::text;
    -- The lowest position not taken (the last value's + 1); 0 when unset, or '' (a setting first made
    -- in a transaction that rolled back reads '').
    next_free constant bigint := pg_catalog.concat('0', pg_catalog.current_setting(setting, true))::bigint;
    field bigint;
    r text;
BEGIN
    IF pos IS NULL THEN
        PERFORM @extschema@._comb_position('comb_uuid'::text, now_us, format);  -- raises 22008
    END IF;
    IF next_free > pos THEN
        pos := next_free;
        field := CASE WHEN clock = 2 THEN pos ELSE pos >> 12 END;
        IF field > @extschema@._comb_max_units(clock) THEN
            PERFORM @extschema@._comb_out_of_range('comb_uuid'::text,
                @extschema@._comb_ts(@extschema@._comb_unit_us(field - 1, clock))::text, format);
        END IF;
    END IF;
    -- An assignment, not PERFORM: PERFORM runs a whole query, about 1 µs more.
    r := pg_catalog.set_config(setting, (pos + 1)::text, false);
    field := CASE WHEN clock <> 1 THEN pos >> 12 ELSE @COMB_SQLDATETIME_FIELD(pos >> 12) END;
    r := pg_catalog.gen_random_uuid()::text;  -- xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx
    RETURN (CASE
        -- Bytes 0-5 the time, then the version nibble and the 12-bit counter; bytes 8-15 random
        -- (gen_random_uuid's byte 8 already has variant 10).
        WHEN format IN ('postgresql', 'postgresql_sqldatetime', 'uuidv7') THEN
            pg_catalog.lpad(pg_catalog.to_hex((field << 16) | (CASE WHEN format = 'uuidv7' THEN 28672 ELSE 16384 END) | (pos & 4095)), 16, '0')
            || pg_catalog.substr(r, 19)
        -- Bytes 0-7 random (version 4 in byte 6); byte 8 variant 10 and the counter's high 6 bits,
        -- byte 9 its low 6 bits and 2 random bits; bytes 10-15 the time.
        WHEN format IN ('sqlserver', 'legacy') THEN
            pg_catalog.substr(r, 1, 19) || pg_catalog.lpad(pg_catalog.to_hex((1::bigint << 63) | ((pos & 4095) << 50)
                | ((('x' || pg_catalog.substr(r, 23, 1))::pg_catalog.bit(4)::integer & 3)::bigint << 48) | field), 16, '0')
        -- binary: the time's bytes in .NET order 3, 2, 1, 0, 5, 4; byte 6 version 4 and the counter's
        -- low 4 bits, byte 7 its high 8 bits; bytes 8-15 random.
        WHEN format IN ('binary', 'binary_sqldatetime') THEN
            pg_catalog.lpad(pg_catalog.to_hex((((field >> 16) & 255) << 56) | (((field >> 24) & 255) << 48)
                | (((field >> 32) & 255) << 40) | (((field >> 40) & 255) << 32) | ((field & 255) << 24)
                | (((field >> 8) & 255) << 16) | 16384 | ((pos & 15) << 8) | ((pos & 4095) >> 4)), 16, '0')
            || pg_catalog.substr(r, 19)
        -- ticks: bytes 0-5 random; byte 6 random (its high nibble from byte 9, which the time
        -- overwrites); byte 7 the marker 0xC and a random nibble; the ticks in bytes 10-15 then 8-9.
        ELSE
            pg_catalog.substr(r, 1, 14) || pg_catalog.substr(r, 23, 1) || pg_catalog.substr(r, 16, 1) || 'c'
            || pg_catalog.substr(r, 18, 1) || pg_catalog.lpad(pg_catalog.to_hex(((pos & 65535) << 48) | (pos >> 16)), 16, '0')
        END)::pg_catalog.uuid;
END $$;

-- The unix clock's range and positions as domains, whose checks raise comb_uuid's 22008 errors: a
-- cast to them is the range check of comb_uuid() below, which can then be one expression.
CREATE FUNCTION @extschema@._comb_unix_clock_refused(us bigint) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    PERFORM @extschema@._comb_position('comb_uuid'::text, us, 'postgresql'::@extschema@.comb_format);  -- raises for any time outside
    RETURN false;
END $$;
CREATE DOMAIN @extschema@._comb_unix_clock AS bigint CHECK (
    CASE WHEN VALUE OPERATOR(pg_catalog.>=) 0 AND VALUE OPERATOR(pg_catalog.<) 253402300800000000 THEN true
         ELSE @extschema@._comb_unix_clock_refused(VALUE) END);
CREATE FUNCTION @extschema@._comb_unix_position_refused(pos bigint) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    PERFORM @extschema@._comb_out_of_range('comb_uuid'::text, @extschema@._comb_ts(@extschema@._comb_unit_us((pos >> 12) - 1, 0))::text,
                                           'postgresql'::@extschema@.comb_format);
    RETURN false;
END $$;
-- 1037935824076799999: the last position of the unix clock, 253402300799999 * 4096 + 4095.
CREATE DOMAIN @extschema@._comb_unix_position AS bigint CHECK (
    CASE WHEN VALUE OPERATOR(pg_catalog.<=) 1037935824076799999 THEN true ELSE @extschema@._comb_unix_position_refused(VALUE) END);

-- The default format, the one most keys use, as one expression the planner inlines (about 1.5 µs a
-- call less than PL/pgSQL): the clock read once, its position floor(µs * 4096 / 1000) (numeric, as
-- µs * 512 overflows a bigint after year 2540), the greater of it and the setting's next free
-- position, written back + 1; the setting's text (position + 1) gives the value. Its bytes are built
-- as bytes, not text (text functions count characters, which costs more in a multibyte database):
-- bytes 0-7 are the position's 60 bits as a bit string with the version 0100 put in after the 48 of
-- the millisecond, bytes 8-15 are gen_random_uuid()'s (variant 10 already set), and the 32 hex
-- digits are read as the uuid. concat('0', setting): 0 when the setting is unset or ''. Same rule
-- and bits as comb_uuid(format).
CREATE FUNCTION @extschema@.comb_uuid() RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL UNSAFE AS $$
    SELECT (pg_catalog.encode(pg_catalog.int8send(pg_catalog.overlay((
                pg_catalog.set_config('comb_portable.next_postgresql',
                    ((GREATEST(
                        @COMB_POSITION(0,
                            ((('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.timestamptz_send(pg_catalog.clock_timestamp()), 'hex'))
                                 ::pg_catalog.bit(64)::bigint OPERATOR(pg_catalog.+) 946684800000000)
                               ::@extschema@._comb_unix_clock)::bigint),
                        pg_catalog.concat('0', pg_catalog.current_setting('comb_portable.next_postgresql', true))::bigint
                      )::@extschema@._comb_unix_position)::bigint OPERATOR(pg_catalog.+) 1)::pg_catalog.text,
                    false)::bigint OPERATOR(pg_catalog.-) 1)::pg_catalog.bit(60), '0100'::pg_catalog.bit(4), 49, 0)::bigint), 'hex')
            OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substring(pg_catalog.uuid_send(pg_catalog.gen_random_uuid()), 9), 'hex'))
           ::pg_catalog.uuid
$$;

-- comb_uuid('sqlserver') without a cast: PostgreSQL cannot choose between comb_format and timestamptz
-- for an untyped literal, but prefers a text candidate.
CREATE FUNCTION @extschema@.comb_uuid(format text) RETURNS uuid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF format NOT IN ('postgresql', 'sqlserver', 'legacy', 'binary', 'postgresql_sqldatetime', 'binary_sqldatetime',
                      'ticks', 'uuidv7') THEN
        RAISE EXCEPTION USING ERRCODE = '22P02',
            MESSAGE = pg_catalog.format('comb_uuid: "%s" is not a comb_format: valid values are postgresql, sqlserver, legacy, binary, postgresql_sqldatetime, binary_sqldatetime, ticks, uuidv7', format),
            HINT = 'To stamp a given time, pass a timestamptz: comb_uuid(''2024-01-01 12:00+00''::timestamptz).';
    END IF;
    RETURN @extschema@.comb_uuid(format::@extschema@.comb_format);
END $$;

-- New COMB for a given time (RT.Comb Create(DateTime)): random bytes with `ts`, and its fraction of
-- the clock unit in the counter bits.
CREATE FUNCTION @extschema@.comb_uuid(ts timestamptz, format @extschema@.comb_format DEFAULT 'postgresql') RETURNS uuid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    RETURN @extschema@._comb_at(@extschema@._comb_random(format),
        @extschema@._comb_position('comb_uuid'::text, @extschema@._comb_finite_us('comb_uuid'::text, ts, format), format), format);
END $$;

-- ---------------------------------------------------------------------------------------------
-- Stamping and decoding.

-- `base` with `ts` written over the format's time bytes (RT.Comb Create(Guid, DateTime)); every other
-- bit kept but the ticks marker and uuidv7's version and variant, which are set.
CREATE FUNCTION @extschema@.comb_stamp(base uuid, ts timestamptz, format @extschema@.comb_format DEFAULT 'postgresql')
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    clock constant integer := @extschema@._comb_clock(format);
    pos constant bigint := @extschema@._comb_position('comb_stamp'::text, @extschema@._comb_finite_us('comb_stamp'::text, ts, format), format);
BEGIN
    RETURN @extschema@._comb_compose(@extschema@._comb_hi(base), @extschema@._comb_lo(base),
        @extschema@._comb_field(CASE WHEN clock = 2 THEN pos ELSE pos >> 12 END, clock), NULL::integer,
        format IN ('ticks', 'uuidv7'), format);
END $$;

-- Why a time field (COMB_TIME_FIELD) is no time of its clock, as CombError::InvalidField says it, or
-- NULL when it is one.
CREATE FUNCTION @extschema@._comb_field_problem(field bigint, clock integer) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF clock = 1 AND (field & 4294967295) > 25920000 THEN
        RETURN pg_catalog.format('embedded time of day %s (1/300 s units) exceeds one day, 25920000', field & 4294967295);
    END IF;
    -- A ticks field above 2^63 is a negative bigint: past the range as well.
    IF @COMB_UNITS(field, clock)
       NOT BETWEEN 0 AND @extschema@._comb_max_units(clock) THEN
        RETURN CASE clock
            WHEN 0 THEN pg_catalog.format('embedded %s ms since 1970 is past 9999-12-31 23:59:59.999 UTC (at most 253402300799999)', field)
            WHEN 1 THEN pg_catalog.format('embedded time of day %s (1/300 s units) exceeds one day, 25920000', field & 4294967295)
            ELSE pg_catalog.format('embedded %s ticks are past 9999-12-31 23:59:59.9999999 UTC (at most 3155378975999999999)',
                                   CASE WHEN field < 0 THEN field::numeric + 18446744073709551616 ELSE field::numeric END) END;
    END IF;
    RETURN NULL;
END $$;

-- The time embedded in a COMB: the first microsecond of its clock unit.
CREATE FUNCTION @extschema@.comb_timestamp(id uuid, format @extschema@.comb_format DEFAULT 'postgresql')
RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    clock constant integer := @extschema@._comb_clock(format);
    hi constant bigint := @extschema@._comb_hi(id);
    lo constant bigint := @extschema@._comb_lo(id);
    version integer;
    variant integer;
    field bigint;
    units bigint;
    problem text;
BEGIN
    IF format = 'uuidv7' THEN
        version := ((hi >> 12) & 15)::integer;
        variant := ((lo >> 62) & 3)::integer;
        IF version <> 7 OR variant <> 2 THEN
            problem := CASE WHEN version <> 7
                THEN pg_catalog.format('its version nibble is %s, an RFC 9562 UUIDv7''s is 7 (variant %s, of 10)',
                                       pg_catalog.to_hex(version), pg_catalog.lpad((variant::bit(2))::text, 2, '0'))
                ELSE pg_catalog.format('its variant bits are %s, an RFC 9562 UUIDv7''s are 10 (with version 7)',
                                       (variant::bit(2))::text) END;
            RAISE EXCEPTION USING ERRCODE = '22P02',
                MESSAGE = pg_catalog.format('comb_timestamp: uuid %s is not a comb_format uuidv7 value: %s', id, problem),
                HINT = 'A uuidv7 value has version nibble 7 (the 13th hex digit) and variant bits 10.';
        END IF;
    END IF;
    field := @COMB_TIME_FIELD(format, hi, lo);
    units := @COMB_UNITS(field, clock);
    -- A ticks field above 2^63 is a negative bigint: past the range as well.
    IF (clock = 1 AND (field & 4294967295) > 25920000) OR units < 0 OR units > @extschema@._comb_max_units(clock) THEN
        RAISE EXCEPTION USING ERRCODE = '22008',
            MESSAGE = pg_catalog.format('comb_timestamp: uuid %s does not hold a valid %s COMB: %s', id, format,
                                        @extschema@._comb_field_problem(field, clock));
    END IF;
    RETURN @extschema@._comb_ts(@extschema@._comb_unit_us(units, clock));
END $$;

-- comb_timestamp(id, format), except that with strict false an id that holds no time of the format (a uuid
-- that is not version 7 read as uuidv7, a field no clock value has) is NULL, not an error. No DEFAULT:
-- comb_timestamp(id, format) would then match both forms.
CREATE FUNCTION @extschema@.comb_timestamp(id uuid, format @extschema@.comb_format, strict boolean)
RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    clock constant integer := @extschema@._comb_clock(format);
    hi constant bigint := @extschema@._comb_hi(id);
    lo constant bigint := @extschema@._comb_lo(id);
    field bigint;
BEGIN
    IF strict THEN
        RETURN @extschema@.comb_timestamp(id, format);
    END IF;
    IF format = 'uuidv7' AND (((hi >> 12) & 15) <> 7 OR ((lo >> 62) & 3) <> 2) THEN
        RETURN NULL;
    END IF;
    field := @COMB_TIME_FIELD(format, hi, lo);
    IF @extschema@._comb_field_problem(field, clock) IS NOT NULL THEN
        RETURN NULL;
    END IF;
    RETURN @extschema@._comb_ts(@extschema@._comb_unit_us(@COMB_UNITS(field, clock), clock));
END $$;

-- The smallest uuid, in the format's order, whose comb_timestamp is at or after `ts`.
CREATE FUNCTION @extschema@.comb_floor(ts timestamptz, format @extschema@.comb_format DEFAULT 'postgresql') RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    clock constant integer := @extschema@._comb_clock(format);
    us constant bigint := @extschema@._comb_finite_us('comb_floor'::text, ts, format);
    pos constant bigint := @extschema@._comb_position('comb_floor'::text, us, format);
    units bigint := CASE WHEN clock = 2 THEN pos ELSE pos >> 12 END;
    field bigint;
BEGIN
    IF @extschema@._comb_unit_us(units, clock) < us THEN
        units := units + 1;
        IF units > @extschema@._comb_max_units(clock) THEN
            RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = pg_catalog.format(
                'comb_floor: no comb_format %s value has a time at or after %s: valid range is %s to %s',
                format, @extschema@._comb_ts(us), @extschema@._comb_ts(@extschema@._comb_range_start(clock)),
                @extschema@._comb_ts(@extschema@._comb_unit_us(@extschema@._comb_max_units(clock), clock)));
        END IF;
    END IF;
    IF clock = 1 AND units > 0 AND units % 25920000 = 0 THEN
        -- A midnight's smaller encoding: the previous day's time of day 25920000 (valid, as in SQL
        -- Server); 2079-06-07 00:00:00 has only that one.
        field := ((units / 25920000 - 1) << 32) | 25920000;
    ELSE
        field := @extschema@._comb_field(units, clock);
    END IF;
    RETURN @extschema@._comb_compose(0::bigint, 0::bigint, field, NULL::integer, format = 'uuidv7', format);
END $$;

-- Seed 001's IsComb: string byte 7 has its two high bits set (high nibble 0xC for every ticks COMB).
CREATE FUNCTION @extschema@.comb_is_ticks(id uuid) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT (@extschema@._comb_hi(id) OPERATOR(pg_catalog.&) 192) OPERATOR(pg_catalog.=) 192
$$;

-- ---------------------------------------------------------------------------------------------
-- SQL Server order and the binary formats' order, without operator classes (CREATE OPERATOR CLASS
-- needs a superuser).

-- The uuid whose native (byte) order is SQL Server's uniqueidentifier order of `id`: its bytes
-- rearranged most significant first, 10-15, 8-9, 7, 6, 5, 4, 3, 2, 1, 0 (SqlGuid). IMMUTABLE, for an
-- expression index: CREATE UNIQUE INDEX ON t (@extschema@.uuid_sqlserver_key(id)). PL/pgSQL, not
-- SQL, so that it is not inlined: the index expression and the plans keep its name.
CREATE FUNCTION @extschema@.uuid_sqlserver_key(id uuid) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    t constant pg_catalog.text := id::pg_catalog.text;  -- xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx: byte 0 at 1, 4 at 10, 6 at 15, 8 at 20, 10 at 25
BEGIN
    RETURN pg_catalog.concat(pg_catalog.substr(t, 25, 12), pg_catalog.substr(t, 20, 4),
        pg_catalog.substr(t, 17, 2), pg_catalog.substr(t, 15, 2), pg_catalog.substr(t, 12, 2), pg_catalog.substr(t, 10, 2),
        pg_catalog.substr(t, 7, 2), pg_catalog.substr(t, 5, 2), pg_catalog.substr(t, 3, 2), pg_catalog.substr(t, 1, 2))::pg_catalog.uuid;
END $$;

-- The binary formats' order (.NET ToByteArray bytes compared raw): bytes 3, 2, 1, 0, 5, 4, 7, 6, 8-15.
-- The compiled edition's operator class uuid_binary_ops sorts in it; here an expression index on this.
CREATE FUNCTION @extschema@.uuid_binary_key(id uuid) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    t constant pg_catalog.text := id::pg_catalog.text;
BEGIN
    RETURN pg_catalog.concat(pg_catalog.substr(t, 7, 2), pg_catalog.substr(t, 5, 2), pg_catalog.substr(t, 3, 2),
        pg_catalog.substr(t, 1, 2), pg_catalog.substr(t, 12, 2), pg_catalog.substr(t, 10, 2),
        pg_catalog.substr(t, 17, 2), pg_catalog.substr(t, 15, 2), pg_catalog.substr(t, 20))::pg_catalog.uuid;
END $$;

-- The comparison functions and operators of the compiled edition. As inlinable SQL, `a #<# b`
-- becomes uuid_sqlserver_key(a) < uuid_sqlserver_key(b), which an index on uuid_sqlserver_key(id)
-- serves. (ORDER BY ... USING #<# needs an operator class: ORDER BY uuid_sqlserver_key(id) instead.)
CREATE FUNCTION @extschema@.uuid_sqlserver_cmp(a uuid, b uuid) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT pg_catalog.sign(pg_catalog.uuid_cmp(@extschema@.uuid_sqlserver_key(a), @extschema@.uuid_sqlserver_key(b)))::integer
$$;
CREATE FUNCTION @extschema@.uuid_sqlserver_lt(a uuid, b uuid) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@.uuid_sqlserver_key(a) OPERATOR(pg_catalog.<) @extschema@.uuid_sqlserver_key(b)
$$;
CREATE FUNCTION @extschema@.uuid_sqlserver_le(a uuid, b uuid) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@.uuid_sqlserver_key(a) OPERATOR(pg_catalog.<=) @extschema@.uuid_sqlserver_key(b)
$$;
CREATE FUNCTION @extschema@.uuid_sqlserver_ge(a uuid, b uuid) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@.uuid_sqlserver_key(a) OPERATOR(pg_catalog.>=) @extschema@.uuid_sqlserver_key(b)
$$;
CREATE FUNCTION @extschema@.uuid_sqlserver_gt(a uuid, b uuid) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@.uuid_sqlserver_key(a) OPERATOR(pg_catalog.>) @extschema@.uuid_sqlserver_key(b)
$$;
CREATE OPERATOR @extschema@.#<# (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = @extschema@.uuid_sqlserver_lt,
    COMMUTATOR = OPERATOR(@extschema@.#>#), NEGATOR = OPERATOR(@extschema@.#>=#),
    RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR @extschema@.#<=# (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = @extschema@.uuid_sqlserver_le,
    COMMUTATOR = OPERATOR(@extschema@.#>=#), NEGATOR = OPERATOR(@extschema@.#>#),
    RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR @extschema@.#>=# (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = @extschema@.uuid_sqlserver_ge,
    COMMUTATOR = OPERATOR(@extschema@.#<=#), NEGATOR = OPERATOR(@extschema@.#<#),
    RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
CREATE OPERATOR @extschema@.#># (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = @extschema@.uuid_sqlserver_gt,
    COMMUTATOR = OPERATOR(@extschema@.#<#), NEGATOR = OPERATOR(@extschema@.#<=#),
    RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);

-- The same for the binary formats' order: `a ~<~ b` becomes uuid_binary_key(a) < uuid_binary_key(b).
CREATE FUNCTION @extschema@.uuid_binary_cmp(a uuid, b uuid) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT pg_catalog.sign(pg_catalog.uuid_cmp(@extschema@.uuid_binary_key(a), @extschema@.uuid_binary_key(b)))::integer
$$;
CREATE FUNCTION @extschema@.uuid_binary_lt(a uuid, b uuid) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@.uuid_binary_key(a) OPERATOR(pg_catalog.<) @extschema@.uuid_binary_key(b)
$$;
CREATE FUNCTION @extschema@.uuid_binary_le(a uuid, b uuid) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@.uuid_binary_key(a) OPERATOR(pg_catalog.<=) @extschema@.uuid_binary_key(b)
$$;
CREATE FUNCTION @extschema@.uuid_binary_ge(a uuid, b uuid) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@.uuid_binary_key(a) OPERATOR(pg_catalog.>=) @extschema@.uuid_binary_key(b)
$$;
CREATE FUNCTION @extschema@.uuid_binary_gt(a uuid, b uuid) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@.uuid_binary_key(a) OPERATOR(pg_catalog.>) @extschema@.uuid_binary_key(b)
$$;
CREATE OPERATOR @extschema@.~<~ (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = @extschema@.uuid_binary_lt,
    COMMUTATOR = OPERATOR(@extschema@.~>~), NEGATOR = OPERATOR(@extschema@.~>=~),
    RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR @extschema@.~<=~ (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = @extschema@.uuid_binary_le,
    COMMUTATOR = OPERATOR(@extschema@.~>=~), NEGATOR = OPERATOR(@extschema@.~>~),
    RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR @extschema@.~>=~ (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = @extschema@.uuid_binary_ge,
    COMMUTATOR = OPERATOR(@extschema@.~<=~), NEGATOR = OPERATOR(@extschema@.~<~),
    RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
CREATE OPERATOR @extschema@.~>~ (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = @extschema@.uuid_binary_gt,
    COMMUTATOR = OPERATOR(@extschema@.~<~), NEGATOR = OPERATOR(@extschema@.~<=~),
    RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);

-- ---------------------------------------------------------------------------------------------
-- Time ranges.

-- comb_floor, with times the format cannot hold mapped past the matching end of its order (all zero
-- or all one bytes), so that open-ended ranges work ('-infinity', 'infinity', a bound before 1970).
CREATE FUNCTION @extschema@.comb_range_bound(ts timestamptz, format @extschema@.comb_format) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    clock constant integer := @extschema@._comb_clock(format);
    us constant bigint := @extschema@._comb_us(ts);
BEGIN
    IF us IS NULL THEN
        -- -infinity, or past every clock (infinity and the years after 294246).
        RETURN CASE WHEN ts = '-infinity' THEN '00000000-0000-0000-0000-000000000000'::uuid
                    ELSE 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid END;
    ELSIF us < @extschema@._comb_range_start(clock) THEN
        RETURN '00000000-0000-0000-0000-000000000000'::uuid;
    ELSIF us >= @extschema@._comb_range_end(clock)
          -- After the start of the last unit (unix: the last ms; ticks cannot be): no value's time is there or later.
          OR us > @extschema@._comb_unit_us(@extschema@._comb_max_units(clock), clock) THEN
        RETURN 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid;
    END IF;
    RETURN @extschema@.comb_floor(ts, format);
END $$;

-- The bounds of comb_in_range(id, lower, upper, format): NULL when either time is, so that the
-- comparisons are NULL exactly when the compiled edition's strict call is.
-- PL/pgSQL: a strict SQL function that ignores a parameter is never inlined, and run as SQL it would
-- be slower.
CREATE FUNCTION @extschema@.comb_range_lower(lower timestamptz, upper timestamptz, format @extschema@.comb_format) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    RETURN @extschema@.comb_range_bound(lower, format);
END $$;
CREATE FUNCTION @extschema@.comb_range_upper(lower timestamptz, upper timestamptz, format @extschema@.comb_format) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    RETURN @extschema@.comb_range_bound(upper, format);
END $$;

-- True when the time embedded in `id` lies in [lower, upper). An inlinable SQL function: the planner
-- replaces the call with its body, comparisons of id (or of its order key) against the bounds, and
-- with a constant format the CASE folds to one arm, so a btree index on id (postgresql formats,
-- uuidv7), on uuid_sqlserver_key(id) (sqlserver, legacy, ticks) or on uuid_binary_key(id) (binary
-- formats) serves it, as does partition pruning on those keys; constant times give constant bounds
-- (plan-time pruning), now() run-time pruning. Not declared STRICT, as PostgreSQL inlines a strict
-- function only if its body is strict, and AND is not; the body is NULL exactly when an argument is.
CREATE FUNCTION @extschema@.comb_in_range(id uuid, lower timestamptz, upper timestamptz,
                                          format @extschema@.comb_format DEFAULT 'postgresql') RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
        WHEN format OPERATOR(pg_catalog.=) ANY ('{sqlserver,legacy,ticks}'::@extschema@.comb_format[]) THEN
            @extschema@.uuid_sqlserver_key(id) OPERATOR(pg_catalog.>=) @extschema@.uuid_sqlserver_key(@extschema@.comb_range_lower(lower, upper, format))
            AND @extschema@.uuid_sqlserver_key(id) OPERATOR(pg_catalog.<) @extschema@.uuid_sqlserver_key(@extschema@.comb_range_upper(lower, upper, format))
        WHEN format OPERATOR(pg_catalog.=) ANY ('{binary,binary_sqldatetime}'::@extschema@.comb_format[]) THEN
            @extschema@.uuid_binary_key(id) OPERATOR(pg_catalog.>=) @extschema@.uuid_binary_key(@extschema@.comb_range_lower(lower, upper, format))
            AND @extschema@.uuid_binary_key(id) OPERATOR(pg_catalog.<) @extschema@.uuid_binary_key(@extschema@.comb_range_upper(lower, upper, format))
        ELSE
            id OPERATOR(pg_catalog.>=) @extschema@.comb_range_lower(lower, upper, format)
            AND id OPERATOR(pg_catalog.<) @extschema@.comb_range_upper(lower, upper, format)
    END
$$;
