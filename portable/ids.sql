-- comb_ext SQL edition: sno, muid and uid8 without compiled code (docs/portable.md).
-- Every name here has the compiled edition's signature (src/families/sno.rs, src/families/muid.rs, src/families/uid8.rs) and
-- gives the same bits; every input the compiled edition rejects raises the same SQLSTATE.
-- Generators: muid_new, with a timeline per install kept in a sequence (docs/portable.md says
-- what it guarantees); not sno_new, uid8_new or the watermarks (docs/portable.md says why).
-- Every reference to this edition's own objects is @extschema@.name: CREATE EXTENSION and pg_tle
-- substitute it, portable/build.py does for the psql installer. muid_new's two relations are
-- @stateschema@.name: the psql installer can put them in a schema of their own, which callers
-- cannot name (docs/portable.md, "Threat model"); elsewhere it is @extschema@.
-- Inside the bodies, built-in functions and types are written pg_catalog.name (resolved when a
-- call runs, through the caller's search_path otherwise), and the SQL functions (inlined into the
-- caller's query, so without a SET search_path) spell every operator OPERATOR(pg_catalog.x): a bare
-- operator resolves through the caller's search_path, where an operator planted in @extschema@ on
-- the exact types (sno, uid8_mode, or any type when @extschema@ comes before pg_catalog) would win.
-- (OPERATOR() spellings all bind alike, left to right: every grouping is in parentheses.) NULLIF,
-- BETWEEN and IN look = < > up by name, so they are written as comparisons.
-- Every call of this edition's own functions is an exact match of the declared argument types
-- (literals and sno values are cast, defaulted arguments passed): PostgreSQL prefers an exact
-- match, so an overload planted in @extschema@ by a role with CREATE there cannot take the call
-- (tests/portable_planting.py).

-- ---- internal helpers --------------------------------------------------------------------------

-- Raises an error with the SQLSTATE, message and hint given; never returns. Not polymorphic (an
-- overload of a concrete type would be the better match for a polymorphic argument): typed text,
-- and _ids_raise_bigint, _ids_raise_uuid and _ids_raise_sno below for the CASE arms of functions of
-- those types (a cast of the text in each arm would be set up again at every call of a function
-- that is not inlined). IMMUTABLE so the functions calling it stay IMMUTABLE; every caller passes
-- the offending value in the message, so it is never folded to a constant ahead of its arm.
CREATE FUNCTION @extschema@._ids_raise(code text, message text, hint text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
BEGIN
    IF hint IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = code, MESSAGE = message;
    END IF;
    RAISE EXCEPTION USING ERRCODE = code, MESSAGE = message, HINT = hint;
END
$$;

CREATE FUNCTION @extschema@._ids_raise_bigint(code text, message text, hint text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$ BEGIN PERFORM @extschema@._ids_raise(code, message, hint); RETURN NULL; END $$;

CREATE FUNCTION @extschema@._ids_raise_uuid(code text, message text, hint text) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$ BEGIN PERFORM @extschema@._ids_raise(code, message, hint); RETURN NULL; END $$;

-- Microseconds since 1970 of a finite timestamptz, exactly on every major (extract() returns
-- double precision on 13, which cannot hold a whole date's µs): whole days, then the time of day.
-- Callers check the range first, so the product cannot overflow.
CREATE FUNCTION @extschema@._ids_unix_us(ts timestamptz) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT (((ts AT TIME ZONE 'UTC')::pg_catalog.date OPERATOR(pg_catalog.-) pg_catalog.date '1970-01-01')::bigint OPERATOR(pg_catalog.*) 86400000000)
     OPERATOR(pg_catalog.+) pg_catalog.round(extract(epoch FROM (ts AT TIME ZONE 'UTC')::time) OPERATOR(pg_catalog.*) 1000000)::bigint
$$;

-- The timestamptz of µs since 1970; exact up to 2^53 µs (year 2255), past every time the three
-- formats hold (sno: 2079, uid8: 2109, muid: 2112).
CREATE FUNCTION @extschema@._ids_from_unix_us(us bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT pg_catalog.timestamptz 'epoch' OPERATOR(pg_catalog.+) (us OPERATOR(pg_catalog.*) interval '1 microsecond') $$;

-- ---- sno -------------------------------------------------------------------------------------

-- sno's text form: 16 characters of 23456789abcdefghijklmnopqrstuvwx, which is also the compiled
-- type's text input and output. Collation "C" makes text order byte order, which for this
-- alphabet (ascending in ASCII) is the order of the 10 bytes, so = < > ORDER BY, min/max and btree
-- indexes agree with the compiled type. Bad text raises 22P02 as the compiled type's input does.
CREATE DOMAIN @extschema@.sno AS text COLLATE "C"
    CONSTRAINT sno_text CHECK (
        CASE WHEN VALUE IS NULL OR VALUE OPERATOR(pg_catalog.~) '^[2-9a-x]{16}$' THEN true
        ELSE @extschema@._ids_raise('22P02'::pg_catalog.text, pg_catalog.format('invalid input syntax for type sno: "%s"', VALUE),
            'A sno is 16 characters of 23456789abcdefghijklmnopqrstuvwx (lower case).'::pg_catalog.text)::boolean
        END);

CREATE FUNCTION @extschema@._ids_raise_sno(code text, message text, hint text) RETURNS @extschema@.sno
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$ BEGIN PERFORM @extschema@._ids_raise(code, message, hint); RETURN NULL; END $$;

-- The 5 bits of one sno character: '2'..'9' (ASCII 50-57) are 0-7, 'a'..'x' (97-120) are 8-31.
CREATE FUNCTION @extschema@._sno_digit(c text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT ((pg_catalog.ascii(c) OPERATOR(pg_catalog.-) 50)
        OPERATOR(pg_catalog.-) (39 OPERATOR(pg_catalog.*) (pg_catalog.ascii(c) OPERATOR(pg_catalog.>) 57)::integer))::bigint
$$;

-- The 40-bit number of the 8 sno characters from position start (1: bytes 0-4, 9: bytes 5-9).
-- Written out, not a loop: a plain expression is inlined into the caller's query.
CREATE FUNCTION @extschema@._sno_half(id text, start integer) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT (@extschema@._sno_digit(pg_catalog.substr(id, start, 1)) OPERATOR(pg_catalog.<<) 35)
     OPERATOR(pg_catalog.|) (@extschema@._sno_digit(pg_catalog.substr(id, start OPERATOR(pg_catalog.+) 1, 1)) OPERATOR(pg_catalog.<<) 30)
     OPERATOR(pg_catalog.|) (@extschema@._sno_digit(pg_catalog.substr(id, start OPERATOR(pg_catalog.+) 2, 1)) OPERATOR(pg_catalog.<<) 25)
     OPERATOR(pg_catalog.|) (@extschema@._sno_digit(pg_catalog.substr(id, start OPERATOR(pg_catalog.+) 3, 1)) OPERATOR(pg_catalog.<<) 20)
     OPERATOR(pg_catalog.|) (@extschema@._sno_digit(pg_catalog.substr(id, start OPERATOR(pg_catalog.+) 4, 1)) OPERATOR(pg_catalog.<<) 15)
     OPERATOR(pg_catalog.|) (@extschema@._sno_digit(pg_catalog.substr(id, start OPERATOR(pg_catalog.+) 5, 1)) OPERATOR(pg_catalog.<<) 10)
     OPERATOR(pg_catalog.|) (@extschema@._sno_digit(pg_catalog.substr(id, start OPERATOR(pg_catalog.+) 6, 1)) OPERATOR(pg_catalog.<<) 5)
     OPERATOR(pg_catalog.|) (@extschema@._sno_digit(pg_catalog.substr(id, start OPERATOR(pg_catalog.+) 7, 1)) OPERATOR(pg_catalog.<<) 0)
$$;

-- The 8 sno characters of a 40-bit number.
CREATE FUNCTION @extschema@._sno_chars(half bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT pg_catalog.substr('23456789abcdefghijklmnopqrstuvwx', ((half OPERATOR(pg_catalog.>>) 35) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr('23456789abcdefghijklmnopqrstuvwx', ((half OPERATOR(pg_catalog.>>) 30) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr('23456789abcdefghijklmnopqrstuvwx', ((half OPERATOR(pg_catalog.>>) 25) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr('23456789abcdefghijklmnopqrstuvwx', ((half OPERATOR(pg_catalog.>>) 20) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr('23456789abcdefghijklmnopqrstuvwx', ((half OPERATOR(pg_catalog.>>) 15) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr('23456789abcdefghijklmnopqrstuvwx', ((half OPERATOR(pg_catalog.>>) 10) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr('23456789abcdefghijklmnopqrstuvwx', ((half OPERATOR(pg_catalog.>>) 5) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
    OPERATOR(pg_catalog.||) pg_catalog.substr('23456789abcdefghijklmnopqrstuvwx', ((half OPERATOR(pg_catalog.>>) 0) OPERATOR(pg_catalog.&) 31)::integer OPERATOR(pg_catalog.+) 1, 1)
$$;

-- The sno of its fields: bytes 0-4 are the 4 ms units since 2010 and the tick bit, 5 the meta,
-- 6-7 the partition, 8-9 the sequence (src/rules/sno.rs).
CREATE FUNCTION @extschema@._sno_encode(units bigint, tick boolean, meta integer, partition integer, sequence integer)
RETURNS @extschema@.sno
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT (@extschema@._sno_chars((units OPERATOR(pg_catalog.<<) 1) OPERATOR(pg_catalog.|) tick::integer::bigint)
     OPERATOR(pg_catalog.||) @extschema@._sno_chars(((meta::bigint OPERATOR(pg_catalog.<<) 32) OPERATOR(pg_catalog.|) (partition::bigint OPERATOR(pg_catalog.<<) 16))
                                   OPERATOR(pg_catalog.|) sequence::bigint))::@extschema@.sno
$$;

CREATE FUNCTION @extschema@.sno_to_bytea(id @extschema@.sno) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT pg_catalog.substr(pg_catalog.int8send(@extschema@._sno_half(id::pg_catalog.text, 1)), 4)
       OPERATOR(pg_catalog.||) pg_catalog.substr(pg_catalog.int8send(@extschema@._sno_half(id::pg_catalog.text, 9)), 4)
$$;

CREATE FUNCTION @extschema@.sno_from_bytea(bytes bytea) RETURNS @extschema@.sno
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT CASE WHEN pg_catalog.length(bytes) OPERATOR(pg_catalog.=) 10 THEN
    (@extschema@._sno_chars(('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(bytes, 1, 5), 'hex'))::bit(40)::bigint)
     OPERATOR(pg_catalog.||) @extschema@._sno_chars(('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(bytes, 6, 5), 'hex'))::bit(40)::bigint))::@extschema@.sno
ELSE @extschema@._ids_raise_sno('22P03'::pg_catalog.text,
    pg_catalog.format('invalid sno: bytea of %s bytes: a sno is exactly 10 bytes', pg_catalog.length(bytes)), NULL::pg_catalog.text)
END
$$;

-- The time of a sno: the first µs of its 4 ms unit.
CREATE FUNCTION @extschema@.sno_time(id @extschema@.sno) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT @extschema@._ids_from_unix_us(1262304000000000
    OPERATOR(pg_catalog.+) ((@extschema@._sno_half(id::pg_catalog.text, 1) OPERATOR(pg_catalog.>>) 1) OPERATOR(pg_catalog.*) 4000))
$$;

CREATE FUNCTION @extschema@.sno_tick(id @extschema@.sno) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT (@extschema@._sno_half(id::pg_catalog.text, 1) OPERATOR(pg_catalog.&) 1) OPERATOR(pg_catalog.=) 1 $$;

CREATE FUNCTION @extschema@.sno_meta(id @extschema@.sno) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT (@extschema@._sno_half(id::pg_catalog.text, 9) OPERATOR(pg_catalog.>>) 32)::integer $$;

CREATE FUNCTION @extschema@.sno_partition(id @extschema@.sno) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT ((@extschema@._sno_half(id::pg_catalog.text, 9) OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 65535)::integer $$;

CREATE FUNCTION @extschema@.sno_sequence(id @extschema@.sno) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT (@extschema@._sno_half(id::pg_catalog.text, 9) OPERATOR(pg_catalog.&) 65535)::integer $$;

-- sno's NewWithTime with every field given. The time is checked first (22008), then meta,
-- partition and sequence (22003), in the compiled edition's order. sno's range is 2010-01-01 to
-- the last µs of unit 2^39-1 (3461327255551999 µs since 1970).
CREATE FUNCTION @extschema@.sno_from_parts(ts timestamptz, meta integer, partition integer, sequence integer,
    tick boolean DEFAULT false)
RETURNS @extschema@.sno
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT CASE
    WHEN f.units IS NULL THEN
        @extschema@._ids_raise_sno('22008'::pg_catalog.text, pg_catalog.format('sno_from_parts: timestamp %s is out of range for sno: valid range is 2010-01-01 00:00:00+00 to 2079-09-07 03:47:35.551999+00', ts),
            NULL::pg_catalog.text)
    WHEN (meta OPERATOR(pg_catalog.<) 0) OR (meta OPERATOR(pg_catalog.>) 255) THEN
        @extschema@._ids_raise_sno('22003'::pg_catalog.text, pg_catalog.format('sno_from_parts: meta %s is out of range: valid range is 0 to 255', meta), NULL::pg_catalog.text)
    WHEN (partition OPERATOR(pg_catalog.<) 0) OR (partition OPERATOR(pg_catalog.>) 65535) THEN
        @extschema@._ids_raise_sno('22003'::pg_catalog.text, pg_catalog.format('sno_from_parts: partition %s is out of range: valid range is 0 to 65535', partition), NULL::pg_catalog.text)
    WHEN (sequence OPERATOR(pg_catalog.<) 0) OR (sequence OPERATOR(pg_catalog.>) 65535) THEN
        @extschema@._ids_raise_sno('22003'::pg_catalog.text, pg_catalog.format('sno_from_parts: sequence %s is out of range: valid range is 0 to 65535', sequence), NULL::pg_catalog.text)
    ELSE @extschema@._sno_encode(f.units, tick, meta, partition, sequence)
END
-- The 4 ms units since 2010, NULL outside sno's range. In a subquery (kept by OFFSET 0) so that
-- _sno_encode gets a plain column and _sno_chars is inlined: with the whole expression as its
-- argument it is not, and this function (never inlined: timestamptz + interval is STABLE) would
-- parse and plan _sno_chars again at every call.
FROM (SELECT CASE WHEN (ts OPERATOR(pg_catalog.>=) pg_catalog.timestamptz '2010-01-01 00:00:00+00')
                       AND (ts OPERATOR(pg_catalog.<=) @extschema@._ids_from_unix_us(3461327255551999))
                  THEN (@extschema@._ids_unix_us(ts) OPERATOR(pg_catalog.-) 1262304000000000) OPERATOR(pg_catalog./) 4000 END
      OFFSET 0) AS f(units)
$$;

-- The smallest sno whose sno_time is at or after ts, for range scans:
-- id >= sno_floor(lower) AND id < sno_floor(upper). Any time before 2010 gives the smallest sno;
-- a time past the start of the last unit (3461327255548000 µs since 1970) has none (22008).
CREATE FUNCTION @extschema@.sno_floor(ts timestamptz) RETURNS @extschema@.sno
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT CASE
    WHEN ts OPERATOR(pg_catalog.<=) pg_catalog.timestamptz '2010-01-01 00:00:00+00' THEN '2222222222222222'::@extschema@.sno
    WHEN f.units IS NULL THEN
        @extschema@._ids_raise_sno('22008'::pg_catalog.text, pg_catalog.format('sno_floor: no sno has a time at or after %s: the last is 2079-09-07 03:47:35.548+00', ts),
            NULL::pg_catalog.text)
    ELSE @extschema@._sno_encode(f.units, false, 0, 0, 0)
END
-- Units rounded up: the first whole unit at or after ts; NULL past the last. A subquery, as in
-- sno_from_parts, so that _sno_chars is inlined.
FROM (SELECT CASE WHEN (ts OPERATOR(pg_catalog.>) pg_catalog.timestamptz '2010-01-01 00:00:00+00')
                       AND (ts OPERATOR(pg_catalog.<=) @extschema@._ids_from_unix_us(3461327255548000))
                  THEN ((@extschema@._ids_unix_us(ts) OPERATOR(pg_catalog.-) 1262304000000000) OPERATOR(pg_catalog.+) 3999) OPERATOR(pg_catalog./) 4000 END
      OFFSET 0) AS f(units)
$$;

-- Comparison and min/max of two snos, as the compiled edition's support functions (text order
-- under collation "C" is byte order). pg_catalog has no sno operator: OPERATOR(pg_catalog.<) takes
-- text's, with the domain's collation "C"; least and greatest use the type's btree order, found
-- by type, not by name.
CREATE FUNCTION @extschema@.sno_cmp(a @extschema@.sno, b @extschema@.sno) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT CASE WHEN a OPERATOR(pg_catalog.<) b THEN -1 WHEN a OPERATOR(pg_catalog.>) b THEN 1 ELSE 0 END $$;

CREATE FUNCTION @extschema@.sno_eq(a @extschema@.sno, b @extschema@.sno) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT a OPERATOR(pg_catalog.=) b $$;
CREATE FUNCTION @extschema@.sno_ne(a @extschema@.sno, b @extschema@.sno) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT a OPERATOR(pg_catalog.<>) b $$;
CREATE FUNCTION @extschema@.sno_lt(a @extschema@.sno, b @extschema@.sno) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT a OPERATOR(pg_catalog.<) b $$;
CREATE FUNCTION @extschema@.sno_le(a @extschema@.sno, b @extschema@.sno) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT a OPERATOR(pg_catalog.<=) b $$;
CREATE FUNCTION @extschema@.sno_gt(a @extschema@.sno, b @extschema@.sno) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT a OPERATOR(pg_catalog.>) b $$;
CREATE FUNCTION @extschema@.sno_ge(a @extschema@.sno, b @extschema@.sno) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT a OPERATOR(pg_catalog.>=) b $$;
CREATE FUNCTION @extschema@.sno_smaller(a @extschema@.sno, b @extschema@.sno) RETURNS @extschema@.sno
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT least(a, b) $$;
CREATE FUNCTION @extschema@.sno_larger(a @extschema@.sno, b @extschema@.sno) RETURNS @extschema@.sno
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT greatest(a, b) $$;

-- ---- muid (Gink), stored as uuid: 52 bits timestamp, 44 bits medallion, 32 bits offset ---------

-- The 32 hex digits of a uuid.
CREATE FUNCTION @extschema@._muid_hex(id uuid) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT pg_catalog.replace(id::pg_catalog.text, '-', '') $$;

-- Gink's timestamp field (52 bits).
CREATE FUNCTION @extschema@._muid_timestamp_field(id uuid) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT ('x' OPERATOR(pg_catalog.||) pg_catalog.substr(@extschema@._muid_hex(id), 1, 13))::bit(52)::bigint $$;

-- Gink's timestamp: µs since 1970, or -1 for the sentinel: the field + 1 wraps to 0 at all 52 bits
-- set (one evaluation of the field, where a CASE would take two).
CREATE FUNCTION @extschema@.muid_timestamp_us(id uuid) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT ((@extschema@._muid_timestamp_field(id) OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.&) 4503599627370495) OPERATOR(pg_catalog.-) 1
$$;

-- The timestamp as a timestamptz; the -1 sentinel is 'infinity'. (Not inlined, as timestamptz +
-- interval is STABLE: the FROM keeps it to one decoding of the field.)
CREATE FUNCTION @extschema@.muid_timestamp(id uuid) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT CASE WHEN us OPERATOR(pg_catalog.=) -1 THEN pg_catalog.timestamptz 'infinity' ELSE @extschema@._ids_from_unix_us(us) END
FROM (SELECT @extschema@.muid_timestamp_us(id)) AS field(us)
$$;

-- The medallion (the node), or -1 when all 44 bits are set (the field + 1 wraps to 0).
CREATE FUNCTION @extschema@.muid_medallion(id uuid) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT ((('x' OPERATOR(pg_catalog.||) pg_catalog.substr(@extschema@._muid_hex(id), 14, 11))::bit(44)::bigint OPERATOR(pg_catalog.+) 1)
        OPERATOR(pg_catalog.&) 17592186044415) OPERATOR(pg_catalog.-) 1
$$;

-- The offset: the low 32 bits as a signed integer.
CREATE FUNCTION @extschema@.muid_offset(id uuid) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT ('x' OPERATOR(pg_catalog.||) pg_catalog.substr(@extschema@._muid_hex(id), 25, 8))::bit(32)::integer $$;

-- Canonical text: 34 characters, upper case, TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO.
CREATE FUNCTION @extschema@.muid_text(id uuid) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT pg_catalog.upper(pg_catalog.substr(h, 1, 13) OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||) pg_catalog.substr(h, 14, 11)
                        OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||) pg_catalog.substr(h, 25, 8))
FROM (SELECT @extschema@._muid_hex(id)) AS hex(h)
$$;

-- A muid from canonical text (either case) or the spec's short forms TTTTTTTTTTTTT-MMMMMMMMMMM and
-- TTTTTTTTTTTTT (the missing fields are 0); anything else is 22P02.
CREATE FUNCTION @extschema@.muid_parse(text text) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT CASE WHEN text OPERATOR(pg_catalog.~) '^[0-9A-Fa-f]{13}(-[0-9A-Fa-f]{11}(-[0-9A-Fa-f]{8})?)?$' THEN
    pg_catalog.rpad(pg_catalog.replace(text, '-', ''), 32, '0')::pg_catalog.uuid
ELSE @extschema@._ids_raise_uuid('22P02'::pg_catalog.text, pg_catalog.format('invalid input syntax for a muid: "%s"', text),
    'A muid is TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO in hex (13, 11 and 8 digits), or TTTTTTTTTTTTT-MMMMMMMMMMM, or TTTTTTTTTTTTT.'::pg_catalog.text
    )
END
$$;

-- The muid of three fields in range (muid_pack checks them); -1 gives all bits set.
CREATE FUNCTION @extschema@._muid_compose("timestamp" bigint, medallion bigint, "offset" integer) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT (pg_catalog.lpad(pg_catalog.to_hex("timestamp" OPERATOR(pg_catalog.&) 4503599627370495), 13, '0')
        OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(medallion OPERATOR(pg_catalog.&) 17592186044415), 11, '0')
        OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex("offset"), 8, '0'))::pg_catalog.uuid
$$;

-- A muid of its three fields (Gink's Muid(timestamp, medallion, offset)); -1 is Gink's sentinel,
-- all bits set. The timestamp is checked first, then the medallion (22003).
CREATE FUNCTION @extschema@.muid_pack("timestamp" bigint, medallion bigint, "offset" integer DEFAULT 0) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT CASE
    WHEN ("timestamp" OPERATOR(pg_catalog.<) -1) OR ("timestamp" OPERATOR(pg_catalog.>) 4503599627370495) THEN
        @extschema@._ids_raise_uuid('22003'::pg_catalog.text, pg_catalog.format('muid_pack: timestamp %s is out of range: valid range is 0 to 4503599627370495, or -1 (Gink''s sentinel, all bits set)', "timestamp"),
            NULL::pg_catalog.text)
    WHEN (medallion OPERATOR(pg_catalog.<) -1) OR (medallion OPERATOR(pg_catalog.>) 17592186044415) THEN
        @extschema@._ids_raise_uuid('22003'::pg_catalog.text, pg_catalog.format('muid_pack: medallion %s is out of range: valid range is 0 to 17592186044415, or -1 (Gink''s sentinel, all bits set)', medallion),
            NULL::pg_catalog.text)
    ELSE @extschema@._muid_compose("timestamp", medallion, "offset")
END
$$;

-- muid_pack with the time as a timestamptz, 1970-01-01 to 4503599627370494 µs after it;
-- 'infinity' is Gink's -1 sentinel. Other times are 22008. Never inlined (timestamptz + interval is
-- STABLE): it does not call muid_pack(bigint, ...), which is not inlined either and would be parsed
-- and planned again at every call; its µs come from a subquery (OFFSET 0 keeps it), NULL outside
-- the range.
CREATE FUNCTION @extschema@.muid_pack("timestamp" timestamptz, medallion bigint, "offset" integer DEFAULT 0) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT CASE
    WHEN f.us IS NULL THEN
        @extschema@._ids_raise_uuid('22008'::pg_catalog.text, pg_catalog.format('muid_pack: timestamp %s is out of range for a muid: valid range is 1970-01-01 00:00:00+00 to 2112-09-17 23:53:47.370494+00 (4503599627370494 µs), or infinity for Gink''s -1 sentinel', "timestamp"),
            NULL::pg_catalog.text)
    WHEN (medallion OPERATOR(pg_catalog.<) -1) OR (medallion OPERATOR(pg_catalog.>) 17592186044415) THEN
        @extschema@._ids_raise_uuid('22003'::pg_catalog.text, pg_catalog.format('muid_pack: medallion %s is out of range: valid range is 0 to 17592186044415, or -1 (Gink''s sentinel, all bits set)', medallion),
            NULL::pg_catalog.text)
    ELSE @extschema@._muid_compose(f.us, medallion, "offset")
END
FROM (SELECT CASE
          -- (-1)::bigint, not -1::bigint, which is the operator - applied to 1::bigint.
          WHEN "timestamp" OPERATOR(pg_catalog.=) pg_catalog.timestamptz 'infinity' THEN (-1)::bigint
          WHEN ("timestamp" OPERATOR(pg_catalog.>=) pg_catalog.timestamptz 'epoch')
               AND ("timestamp" OPERATOR(pg_catalog.<=) @extschema@._ids_from_unix_us(4503599627370494)) THEN
              @extschema@._ids_unix_us("timestamp")
      END
      OFFSET 0) AS f(us)
$$;

-- The three fields as one record.
CREATE FUNCTION @extschema@.muid_unpack(id uuid, OUT "timestamp" bigint, OUT medallion bigint, OUT "offset" integer)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT @extschema@.muid_timestamp_us(id), @extschema@.muid_medallion(id), @extschema@.muid_offset(id) $$;

-- ---- muid_new: a timeline per install, in a sequence -----------------------------------------------

-- The last timestamp this install's muid_new issued, µs since 1970 (-1: none yet). A sequence,
-- because it is not transactional: a rollback does not take it back, and its changes are visible to
-- every session at once. Only muid_new writes it, holding the lock on _muid_state, so that reading
-- it and moving it on are one step.
CREATE SEQUENCE @stateschema@._muid_timeline AS bigint MINVALUE -1 MAXVALUE 4503599627370495 START WITH -1 NO CYCLE;

-- This install's state, one row, which only the installing role can change: `install`, drawn at
-- install time, sets two installs of one database apart; `medallion` is the one the owner pinned
-- with muid_set_medallion (NULL: derived, see _muid_medallion). The table is also what muid_new
-- locks: no other role can take a lock on it that conflicts with SHARE UPDATE EXCLUSIVE (LOCK
-- TABLE checks privileges first; what parsing a statement takes without privileges, ACCESS SHARE,
-- ROW SHARE, ROW EXCLUSIVE, does not conflict with it), where an advisory lock is anyone's to take.
-- (A role that can name it can still queue a request for a stronger lock before PostgreSQL checks
-- its privileges, CREATE RULE for one, and every later request waits behind that one: hence the
-- state schema that callers cannot name.)
CREATE TABLE @stateschema@._muid_state (
    install uuid NOT NULL DEFAULT pg_catalog.gen_random_uuid(),
    medallion bigint,
    single boolean NOT NULL DEFAULT true PRIMARY KEY CHECK (single)
);
INSERT INTO @stateschema@._muid_state (install) VALUES (pg_catalog.gen_random_uuid());

-- This install's medallion: the pinned one, else 0x10000000000 | 40 bits of a SHA-256 of the
-- cluster's system identifier, the server's start time, the database and the install, all in
-- binary form (no text output, so no TimeZone or DateStyle can change it). The start time sets
-- apart copies of a data directory once started (as the compiled edition's draw at each start
-- does); the database and the install, timelines that are each their own. Runs as muid_new's
-- owner (it is only called from there).
CREATE FUNCTION @extschema@._muid_medallion() RETURNS bigint
LANGUAGE plpgsql STABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    pinned bigint;
    install uuid;
    system_identifier bigint := 0;
BEGIN
    SELECT s.medallion, s.install INTO pinned, install FROM @stateschema@._muid_state AS s;
    IF pinned IS NOT NULL THEN
        RETURN pinned;
    END IF;
    BEGIN
        system_identifier := (SELECT c.system_identifier FROM pg_catalog.pg_control_system() AS c);
    EXCEPTION WHEN insufficient_privilege THEN
        -- A service that hides pg_control_system(): the start time, database and install still set
        -- timelines apart.
        NULL;
    END;
    RETURN 1099511627776 | ('x' || pg_catalog.encode(pg_catalog.substr(pg_catalog.sha256(
        pg_catalog.int8send(system_identifier)
        || pg_catalog.timestamptz_send(pg_catalog.pg_postmaster_start_time())
        || pg_catalog.int8send((SELECT d.oid FROM pg_catalog.pg_database AS d
                                WHERE d.datname = pg_catalog.current_database())::bigint)
        || pg_catalog.uuid_send(install)), 1, 5), 'hex'))::pg_catalog.bit(40)::bigint;
END
$$;

-- Pins this install's medallion (0 to 17592186044414, as the compiled edition's comb_ext.medallion;
-- NULL goes back to the derived one) and returns it. An UPDATE of _muid_state as the caller: only
-- the installing role (or one it granted UPDATE) can run it, so no session, and no setting left on a
-- pooled connection, can change what muid_new writes.
CREATE FUNCTION @extschema@.muid_set_medallion(medallion bigint) RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF medallion < 0 OR medallion > 17592186044414 THEN
        RAISE EXCEPTION USING ERRCODE = '22023',
            MESSAGE = pg_catalog.format('muid_set_medallion: medallion %s is out of range: valid range is 0 to 17592186044414 (0xFFFFFFFFFFE)', medallion),
            HINT = 'Nodes draw theirs from 0x10000000000 to 0x1FFFFFFFFFF; NULL goes back to the derived medallion.';
    END IF;
    UPDATE @stateschema@._muid_state SET medallion = muid_set_medallion.medallion;
    RETURN @extschema@._muid_medallion();
END
$$;

-- A new muid of this install's medallion. Its timestamp is the wall clock in µs, or one past the
-- last one this install issued if the clock has not moved past it (a burst, a clock set back, a
-- restart after one), so no two calls share one: each reads and moves the timeline holding a SHARE
-- UPDATE EXCLUSIVE lock on _muid_state, taken in a subtransaction that is then rolled back on
-- purpose: the rollback lets go of the lock at once (and on any error or cancel), while the
-- sequence keeps its new value. Bursts run at most 2 s ahead of the clock; past that a call waits
-- for it, holding nothing.
-- SECURITY DEFINER: callers need no privilege on the timeline or the state, so none of them can
-- move the timeline back or lock it; its search_path is fixed for the same reason.
CREATE FUNCTION @extschema@.muid_new("offset" integer DEFAULT 0) RETURNS uuid
LANGUAGE plpgsql STRICT VOLATILE PARALLEL UNSAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    medallion constant bigint := @extschema@._muid_medallion();
    now_us bigint;
    next bigint;
    timeline regclass;
BEGIN
    LOOP
        BEGIN
            LOCK TABLE @stateschema@._muid_state IN SHARE UPDATE EXCLUSIVE MODE;
            now_us := @extschema@._ids_unix_us(pg_catalog.clock_timestamp());
            SELECT t.tableoid, greatest(now_us, t.last_value + 1) INTO timeline, next FROM @stateschema@._muid_timeline AS t;
            IF next >= 4503599627370495 THEN
                RAISE EXCEPTION USING ERRCODE = '22008',
                    MESSAGE = 'muid_new: the system clock is past the last muid timestamp (4503599627370494 µs since 1970)';
            END IF;
            IF next <= now_us + 2000000 THEN
                PERFORM pg_catalog.setval(timeline, next);
            ELSE
                next := NULL;
            END IF;
            -- Roll the subtransaction back: that lets go of the lock; the sequence keeps its value.
            RAISE EXCEPTION USING ERRCODE = 'CMB00';
        EXCEPTION WHEN SQLSTATE 'CMB00' THEN
            NULL;
        END;
        IF next IS NOT NULL THEN
            RETURN @extschema@.muid_pack(next, medallion, "offset");
        END IF;
        PERFORM pg_catalog.pg_sleep(0.01);
    END LOOP;
END
$$;

-- ---- uid8 (LableOrg/java-uniqueid), stored as bigint -------------------------------------------

CREATE TYPE @extschema@.uid8_mode AS ENUM ('spread', 'time_sequential');

-- The 64 bits of a bigint in reverse order (spread mode stores the timestamp's bits reversed in
-- the top 42).
CREATE FUNCTION @extschema@._uid8_reverse(v bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT pg_catalog.reverse(v::bit(64)::pg_catalog.text)::bit(64)::bigint $$;

CREATE FUNCTION @extschema@.uid8_mode(id bigint) RETURNS @extschema@.uid8_mode
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT (CASE WHEN ((id OPERATOR(pg_catalog.>>) 12) OPERATOR(pg_catalog.&) 1) OPERATOR(pg_catalog.=) 1 THEN 'time_sequential' ELSE 'spread' END)::@extschema@.uid8_mode
$$;

-- The timestamp in ms since 1970: the top 42 bits, reversed in spread mode.
CREATE FUNCTION @extschema@._uid8_timestamp_ms(id bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT CASE WHEN ((id OPERATOR(pg_catalog.>>) 12) OPERATOR(pg_catalog.&) 1) OPERATOR(pg_catalog.=) 1
            THEN (id OPERATOR(pg_catalog.>>) 22) OPERATOR(pg_catalog.&) 4398046511103
       ELSE @extschema@._uid8_reverse(id) OPERATOR(pg_catalog.&) 4398046511103 END
$$;

CREATE FUNCTION @extschema@.uid8_timestamp(id bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT @extschema@._ids_from_unix_us(@extschema@._uid8_timestamp_ms(id) OPERATOR(pg_catalog.*) 1000) $$;

CREATE FUNCTION @extschema@.uid8_sequence(id bigint) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT ((id OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 63)::integer $$;

-- The generator id's 11 bits sit in three places: 3 high bits at 13-15 (above the mode bit at 12),
-- then 4 at 8-11 and 4 at 4-7.
CREATE FUNCTION @extschema@.uid8_generator(id bigint) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT ((((id OPERATOR(pg_catalog.>>) 13) OPERATOR(pg_catalog.&) 7) OPERATOR(pg_catalog.<<) 8)
        OPERATOR(pg_catalog.|) (((id OPERATOR(pg_catalog.>>) 8) OPERATOR(pg_catalog.&) 15) OPERATOR(pg_catalog.<<) 4)
        OPERATOR(pg_catalog.|) ((id OPERATOR(pg_catalog.>>) 4) OPERATOR(pg_catalog.&) 15))::integer
$$;

CREATE FUNCTION @extschema@.uid8_cluster(id bigint) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT (id OPERATOR(pg_catalog.&) 15)::integer $$;

-- The library's Blueprint with every field given. Fields are checked in the compiled edition's
-- order: timestamp_ms, sequence, generator, cluster (22003).
CREATE FUNCTION @extschema@.uid8_from_parts(timestamp_ms bigint, sequence integer, generator integer, cluster integer,
    mode @extschema@.uid8_mode DEFAULT 'spread')
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT CASE
    WHEN (timestamp_ms OPERATOR(pg_catalog.<) 0) OR (timestamp_ms OPERATOR(pg_catalog.>) 4398046511103) THEN
        @extschema@._ids_raise_bigint('22003'::pg_catalog.text, pg_catalog.format('uid8_from_parts: timestamp_ms %s is out of range: valid range is 0 to 4398046511103', timestamp_ms), NULL::pg_catalog.text)
    WHEN (sequence OPERATOR(pg_catalog.<) 0) OR (sequence OPERATOR(pg_catalog.>) 63) THEN
        @extschema@._ids_raise_bigint('22003'::pg_catalog.text, pg_catalog.format('uid8_from_parts: sequence %s is out of range: valid range is 0 to 63', sequence), NULL::pg_catalog.text)
    WHEN (generator OPERATOR(pg_catalog.<) 0) OR (generator OPERATOR(pg_catalog.>) 2047) THEN
        @extschema@._ids_raise_bigint('22003'::pg_catalog.text, pg_catalog.format('uid8_from_parts: generator %s is out of range: valid range is 0 to 2047', generator), NULL::pg_catalog.text)
    WHEN (cluster OPERATOR(pg_catalog.<) 0) OR (cluster OPERATOR(pg_catalog.>) 15) THEN
        @extschema@._ids_raise_bigint('22003'::pg_catalog.text, pg_catalog.format('uid8_from_parts: cluster %s is out of range: valid range is 0 to 15', cluster), NULL::pg_catalog.text)
    ELSE
        -- (The mode compared as enums: pg_catalog's anyenum =, with the value cast.)
        (CASE WHEN mode OPERATOR(pg_catalog.=) 'time_sequential'::@extschema@.uid8_mode THEN timestamp_ms OPERATOR(pg_catalog.<<) 22
              ELSE @extschema@._uid8_reverse(timestamp_ms) END)
        OPERATOR(pg_catalog.|) (sequence::bigint OPERATOR(pg_catalog.<<) 16)
        OPERATOR(pg_catalog.|) ((generator OPERATOR(pg_catalog.>>) 8)::bigint OPERATOR(pg_catalog.<<) 13)
        OPERATOR(pg_catalog.|) ((mode OPERATOR(pg_catalog.=) 'time_sequential'::@extschema@.uid8_mode)::integer::bigint OPERATOR(pg_catalog.<<) 12)
        OPERATOR(pg_catalog.|) (((generator OPERATOR(pg_catalog.>>) 4) OPERATOR(pg_catalog.&) 15)::bigint OPERATOR(pg_catalog.<<) 8)
        OPERATOR(pg_catalog.|) ((generator OPERATOR(pg_catalog.&) 15)::bigint OPERATOR(pg_catalog.<<) 4)
        OPERATOR(pg_catalog.|) cluster::bigint
END
$$;

-- The 8 bytes of an ID, big-endian (the library's byte form).
CREATE FUNCTION @extschema@.uid8_to_bytea(id bigint) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT pg_catalog.int8send(id) $$;

CREATE FUNCTION @extschema@.uid8_from_bytea(bytes bytea) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT CASE WHEN pg_catalog.length(bytes) OPERATOR(pg_catalog.=) 8 THEN ('x' OPERATOR(pg_catalog.||) pg_catalog.encode(bytes, 'hex'))::bit(64)::bigint
ELSE @extschema@._ids_raise_bigint('22P03'::pg_catalog.text, pg_catalog.format('invalid uid8: bytea of %s bytes: an ID is exactly 8 bytes', pg_catalog.length(bytes)), NULL::pg_catalog.text)
END
$$;
