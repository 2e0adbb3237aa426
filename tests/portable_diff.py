"""Differential test of the COMB family: the SQL edition (portable/comb.sql) against the compiled one,
both installed in one database, in two schemas. Every case goes through both; outputs must be equal,
and where one raises an error the other must raise the same SQLSTATE with the same message.

Command line:
    /var/cache/comb_ext/venv/bin/python tests/portable_diff.py CONNINFO COMPILED_SCHEMA PORTABLE_SCHEMA [COUNT] \
        [--seed 1] [--install]
CONNINFO is a libpq connection string; the compiled edition is installed in COMPILED_SCHEMA and the
SQL edition in PORTABLE_SCHEMA (--install, for development, (re)creates both: CREATE EXTENSION
comb_ext, and portable/comb.sql); COUNT (default 100000) is the cases of each kind. Prints one
summary line starting "portable_diff:" and exits 1 on any difference.

What is compared, with COUNT cases of each kind (generated in Python from the seed, loaded with COPY
and run as set-based statements, so the cost is the functions' and not round trips):
- time cases (time, 16 random bytes, format): comb_stamp, comb_floor, comb_range_bound, comb_uuid(ts,
  format) and comb_in_range. Times: uniform over and around each clock's range, its ends and unit
  edges to the microsecond (sqldatetime midnights, day 65535, 2079-06-07; uuidv7 past .NET's end to its
  last instant, 10889-08-02 05:31:50.655), ±infinity, NULL, and
  finite times whose microseconds since 1970 do not fit a bigint.
- uuid cases (16 bytes, format): comb_timestamp (strict and not), comb_is_ticks, SQL Server order (the compiled
  #<# and uuid_sqlserver_cmp against the SQL edition's, which go through uuid_sqlserver_key), the binary formats'
  order (~<~ and uuid_binary_cmp, through uuid_binary_key) and
  comb_in_range with bounds from the time cases. Half the uuids are random bytes, half hold a
  time field at or near its valid limits with random bytes elsewhere.
comb_uuid(ts, format) draws its random bytes inside each edition, so "the same random bytes" is
checked through the compiled output O: the SQL edition's deterministic core _comb_at(random, position,
format), fed O as its random bytes, must give back O bit for bit (time, fraction bits, fixed bits all
as the compiled edition wrote them); and the SQL edition's own comb_uuid(ts, format) output P must be
a fixed point of _comb_at too and decode, in the compiled edition, to the same time as O.
"""

import argparse
import io
import os
import random
import sys
import time

import psycopg

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORMATS = ["postgresql", "sqlserver", "legacy", "binary", "postgresql_sqldatetime", "binary_sqldatetime", "ticks", "uuidv7"]
CLOCK = {"postgresql": 0, "sqlserver": 0, "binary": 0, "uuidv7": 3,
         "legacy": 1, "postgresql_sqldatetime": 1, "binary_sqldatetime": 1, "ticks": 2}
US_PER_DAY = 86_400_000_000
SQL_EPOCH = -2_208_988_800_000_000
SQL_LAST = 3_453_321_600_000_000  # 2079-06-07 00:00:00, the sqldatetime clock's last instant
DOTNET_MIN = -62_135_596_800_000_000
DOTNET_END = 253_402_300_800_000_000
V7_LAST = (2**48 - 1) * 1000  # 10889-08-02 05:31:50.655, PostgreSQL 18's last time for a UUIDv7
RANGES = {0: (0, DOTNET_END), 1: (SQL_EPOCH, SQL_LAST + 1), 2: (DOTNET_MIN, DOTNET_END), 3: (0, V7_LAST + 1)}
# timestamptz's own limits, in unix µs: 4714-11-24 BC and 294276-12-31 23:59:59.999999.
# (A margin of a few months inside each, as to_timestamp goes through float8 there.)
TS_MIN = -210_866_803_200_000_000 + 10**13
TS_MAX = 9_223_371_331_200_000_000 + 946_684_800_000_000 - 10**13
I64_MAX = 2**63 - 1
SPECIALS = ["infinity", "-infinity"]


def edge_times(rng):
    """Times on and next to every edge the clocks have: per clock, and all of them."""
    last_unit = {0: DOTNET_END - 1000, 1: SQL_LAST, 2: DOTNET_END - 1, 3: V7_LAST}
    per_clock = {}
    for clock, (start, end) in RANGES.items():
        per_clock[clock] = [start, start - 1, end - 1, end, last_unit[clock], last_unit[clock] + 1]
    per_clock[1] += [SQL_LAST - 3_333, SQL_LAST - 3_334, SQL_LAST - US_PER_DAY]
    # sqldatetime midnights and 1/300 s unit starts (fractional µs: 3333.33...).
    for _ in range(20):
        midnight = SQL_EPOCH + rng.randrange(0, 65_536) * US_PER_DAY
        per_clock[1] += [midnight, midnight + 3_333, midnight + 3_334, midnight + 6_666, midnight + 6_667]
    # Millisecond edges near now and at the start of the unix clock.
    now = int(time.time() * 1_000_000)
    per_clock[0] += [now - now % 1000, 0, 1, 999, 1000]
    # uuidv7 runs past .NET's end: RT.Comb's end and the last millisecond before PostgreSQL 18's.
    per_clock[3] += [now - now % 1000, DOTNET_END - 1000, DOTNET_END - 1, DOTNET_END, V7_LAST - 1000, V7_LAST - 1]
    every = sorted(set(sum(per_clock.values(), [])))
    # Past the bigint of µs since 1970 (the compiled edition treats these as having no µs).
    every += [I64_MAX - 946_684_800_000_000, I64_MAX - 946_684_800_000_000 + 1, TS_MAX, TS_MIN]
    return per_clock, every


def random_time(rng, clock, edges):
    per_clock, every = edges
    pick = rng.random()
    start, end = RANGES[clock]
    nudge = rng.choice([0, 0, 0, -1, 1, -2, 2, rng.randrange(-4000, 4000)])
    if pick < 0.3:
        return rng.randrange(start - US_PER_DAY, end + US_PER_DAY)
    if pick < 0.45:
        return rng.randrange(DOTNET_MIN - 10**16, DOTNET_END + 10**16)
    if pick < 0.7:
        return rng.choice(per_clock[clock]) + nudge
    if pick < 0.85:
        return rng.choice(every) + nudge
    if pick < 0.97:
        now = int(time.time() * 1_000_000)
        return now + rng.randrange(-10**15, 10**15)
    return rng.randrange(TS_MIN, TS_MAX + 1)


def time_cases(rng, count):
    """Rows: case, format, µs (NULL for a special), special text, random bytes, second time µs."""
    edges = edge_times(rng)
    rows = []
    for case in range(count):
        fmt = rng.choice(FORMATS) if rng.random() > 0.005 else None
        clock = CLOCK[fmt] if fmt else rng.randrange(4)
        us, special = random_time(rng, clock, edges), None
        roll = rng.random()
        if roll < 0.01:
            us, special = None, rng.choice(SPECIALS)
        elif roll < 0.013:
            us = None  # NULL time
        us = None if us is None else min(max(us, TS_MIN), TS_MAX)
        kind = rng.random()
        raw = bytes(16) if kind < 0.03 else b"\xff" * 16 if kind < 0.06 else rng.randbytes(16)
        # The second bound of comb_in_range: near the first, anywhere, infinite or NULL.
        roll = rng.random()
        if us is not None and roll < 0.6:
            us2, special2 = us + rng.choice([0, 1, -1, 1000, 3_334, US_PER_DAY, rng.randrange(-10**12, 10**12)]), None
        elif roll < 0.9:
            us2, special2 = random_time(rng, clock, edges), None
        elif roll < 0.98:
            us2, special2 = None, rng.choice(SPECIALS)
        else:
            us2, special2 = None, None
        us2 = None if us2 is None else min(max(us2, TS_MIN), TS_MAX)
        rows.append((case, fmt, us, special, raw.hex(), us2, special2))
    return rows


def field_value(rng, clock):
    """A time field at or near the clock's limits, or anywhere in it."""
    if clock in (0, 3):
        top = 253_402_300_799_999  # every 48-bit field is a uuidv7 time; past this none is a postgresql one
        return rng.choice([top, top + 1, 0, 2**48 - 1, 2**48 - 2, rng.randrange(0, top), rng.randrange(top, 2**48)])
    if clock == 1:
        day = rng.choice([0, 65_535, 65_534, rng.randrange(65_536)])
        t300 = rng.choice([25_920_000, 25_920_001, 25_919_999, 0, 2**32 - 1, rng.randrange(25_920_000)])
        return day << 32 | t300
    top = 3_155_378_975_999_999_999
    return rng.choice([top, top + 1, 0, 2**64 - 1, rng.randrange(0, top), rng.randrange(top, 2**64)])


def place(fmt, field, raw):
    """`raw` with `field` at the format's time bytes (the layout table of README "Formats")."""
    b = bytearray(raw)
    if fmt == "ticks":
        f = field.to_bytes(8, "big")
        b[10:16], b[8:10] = f[:6], f[6:]
        return bytes(b)
    f = field.to_bytes(6, "big")
    if fmt in ("postgresql", "postgresql_sqldatetime", "uuidv7"):
        b[0:6] = f
    elif fmt in ("sqlserver", "legacy"):
        b[10:16] = f
    else:
        b[3], b[2], b[1], b[0], b[5], b[4] = f
    return bytes(b)


def uuid_cases(rng, count):
    rows = []
    for case in range(count):
        fmt = rng.choice(FORMATS) if rng.random() > 0.005 else None
        raw = rng.randbytes(16)
        if fmt and rng.random() < 0.5:
            raw = place(fmt, field_value(rng, CLOCK[fmt]), raw)
            if fmt == "uuidv7" and rng.random() < 0.7:
                # Mostly well-formed v7, else a wrong version or variant.
                b = bytearray(raw)
                b[6] = 0x70 | (b[6] & 0x0F)
                b[8] = 0x80 | (b[8] & 0x3F)
                raw = bytes(b)
        roll = rng.random()
        if roll < 0.5:
            # The same bytes but one or two, so that any byte can decide the order.
            b = bytearray(raw)
            for _ in range(rng.choice([1, 1, 2])):
                b[rng.randrange(16)] = rng.randrange(256)
            other = bytes(b)
        elif roll < 0.6:
            other = raw
        else:
            other = rng.randbytes(16)
        rows.append((case, fmt, raw.hex(), other.hex()))
    return rows


WRAPPER = """
CREATE FUNCTION pg_temp.{name}({args}) RETURNS text LANGUAGE plpgsql AS $f$
BEGIN
    RETURN ({body})::text;
EXCEPTION WHEN others THEN
    RETURN 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
END $f$;
"""


def wrappers(schema, tag):
    """Error-capturing wrappers around one edition's functions: the value as text, or its error."""
    f = f"f::{schema}.comb_format"
    calls = {
        "stamp": ("b uuid, t timestamptz, f text", f"{schema}.comb_stamp(b, t, {f})"),
        "floor": ("t timestamptz, f text", f"{schema}.comb_floor(t, {f})"),
        "bound": ("t timestamptz, f text", f"{schema}.comb_range_bound(t, {f})"),
        "at": ("t timestamptz, f text", f"{schema}.comb_uuid(t, {f})"),
        "decode": ("u uuid, f text", f"{schema}.comb_timestamp(u, {f})"),
        "decode_lenient": ("u uuid, f text", f"{schema}.comb_timestamp(u, {f}, strict => false)"),
        "in_range": ("u uuid, l timestamptz, h timestamptz, f text", f"{schema}.comb_in_range(u, l, h, {f})"),
    }
    return "".join(WRAPPER.format(name=f"{tag}_{name}", args=args, body=body) for name, (args, body) in calls.items())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("conninfo")
    parser.add_argument("compiled_schema")
    parser.add_argument("portable_schema")
    parser.add_argument("count", type=int, nargs="?", default=100_000, help="cases of each kind (default 100000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--install", action="store_true",
                        help="(re)create both schemas: CREATE EXTENSION comb_ext in one, portable/comb.sql in the other")
    args = parser.parse_args()
    c, p = args.compiled_schema, args.portable_schema
    started = time.monotonic()
    rng = random.Random(args.seed)

    conn = psycopg.connect(args.conninfo, autocommit=True)
    conn.execute("SET client_min_messages = warning")
    if args.install:
        conn.execute("DROP EXTENSION IF EXISTS comb_ext CASCADE")
        conn.execute(f"DROP SCHEMA IF EXISTS {c} CASCADE")
        conn.execute(f"DROP SCHEMA IF EXISTS {p} CASCADE")
        conn.execute(f"CREATE SCHEMA {c}")
        conn.execute(f"CREATE EXTENSION comb_ext SCHEMA {c}")
        conn.execute(f"CREATE SCHEMA {p}")
        with open(os.path.join(REPO, "portable", "comb.sql")) as source:
            conn.execute(source.read().replace("@extschema@", p))
    # Messages name times as the session shows them: both editions read the same settings.
    conn.execute("SET TimeZone = 'UTC'")
    conn.execute("SET DateStyle = 'ISO, YMD'")
    conn.execute(wrappers(c, "c") + wrappers(p, "p"))
    conn.execute("""
        CREATE FUNCTION pg_temp.from_us(us numeric, special text) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $f$
            SELECT CASE WHEN special IS NOT NULL THEN special::timestamptz
                        ELSE to_timestamp(div(us, 1000000)::float8) + mod(us, 1000000)::int * interval '1 microsecond' END $f$""")

    times = time_cases(rng, args.count)
    uuids = uuid_cases(rng, args.count)
    conn.execute("CREATE TEMP TABLE tc (i int, f text, us numeric, special text, raw text, us2 numeric, special2 text)")
    conn.execute("CREATE TEMP TABLE uc (i int, f text, raw text, other text)")
    with conn.cursor() as cur:
        with cur.copy("COPY tc FROM STDIN") as copy:
            for row in times:
                copy.write_row(row)
        with cur.copy("COPY uc FROM STDIN") as copy:
            for row in uuids:
                copy.write_row(row)
    conn.execute("""
        CREATE TEMP TABLE t AS
        SELECT i, f, pg_temp.from_us(us, special) AS ts, pg_temp.from_us(us2, special2) AS ts2, raw::uuid AS base,
               (us IS NULL AND special IS NULL) AS null_time
        FROM tc""")
    conn.execute("CREATE TEMP TABLE u AS SELECT i, f, raw::uuid AS id, other::uuid AS other FROM uc")

    # Each row: the case, what is compared, the compiled result, the SQL edition's.
    checks = {
        "comb_stamp": "SELECT i, pg_temp.c_stamp(base, ts, f), pg_temp.p_stamp(base, ts, f) FROM t",
        "comb_floor": "SELECT i, pg_temp.c_floor(ts, f), pg_temp.p_floor(ts, f) FROM t",
        "comb_range_bound": "SELECT i, pg_temp.c_bound(ts, f), pg_temp.p_bound(ts, f) FROM t",
        # Ids with a time 1 ms after the lower bound where the format holds one, and the raw bytes.
        "comb_in_range": """
            WITH s AS (SELECT *, pg_temp.c_stamp(base, CASE WHEN ts < '294000-01-01' THEN ts + interval '1 ms' END, f) AS near
                       FROM t)
            SELECT i, pg_temp.c_in_range(id, ts, ts2, f), pg_temp.p_in_range(id, ts, ts2, f)
            FROM (SELECT i, f, ts, ts2, CASE WHEN near IS NULL OR near LIKE 'ERROR%' THEN base ELSE near::uuid END AS id FROM s
                  UNION ALL SELECT i, f, ts, ts2, base FROM t) ids""",
        "comb_timestamp": "SELECT i, pg_temp.c_decode(id, f), pg_temp.p_decode(id, f) FROM u",
        "comb_timestamp strict => false": "SELECT i, pg_temp.c_decode_lenient(id, f), pg_temp.p_decode_lenient(id, f) FROM u",
        "comb_is_ticks": f"SELECT i, {c}.comb_is_ticks(id)::text, {p}.comb_is_ticks(id)::text FROM u",
        "uuid_sqlserver_cmp": f"SELECT i, {c}.uuid_sqlserver_cmp(id, other)::text, {p}.uuid_sqlserver_cmp(id, other)::text FROM u",
        "#<# #<=# #>=# #>#": f"""
            SELECT i, concat_ws(' ', id OPERATOR({c}.#<#) other, id OPERATOR({c}.#<=#) other,
                                     id OPERATOR({c}.#>=#) other, id OPERATOR({c}.#>#) other),
                      concat_ws(' ', id OPERATOR({p}.#<#) other, id OPERATOR({p}.#<=#) other,
                                     id OPERATOR({p}.#>=#) other, id OPERATOR({p}.#>#) other) FROM u""",
        "uuid_binary_cmp": f"SELECT i, {c}.uuid_binary_cmp(id, other)::text, {p}.uuid_binary_cmp(id, other)::text FROM u",
        "~<~ ~<=~ ~>=~ ~>~": f"""
            SELECT i, concat_ws(' ', id OPERATOR({c}.~<~) other, id OPERATOR({c}.~<=~) other,
                                     id OPERATOR({c}.~>=~) other, id OPERATOR({c}.~>~) other),
                      concat_ws(' ', id OPERATOR({p}.~<~) other, id OPERATOR({p}.~<=~) other,
                                     id OPERATOR({p}.~>=~) other, id OPERATOR({p}.~>~) other) FROM u""",
        "comb_in_range (uuids)": """
            SELECT u.i, pg_temp.c_in_range(u.id, t.ts, t.ts2, u.f), pg_temp.p_in_range(u.id, t.ts, t.ts2, u.f) FROM u JOIN t USING (i)""",
    }
    differences, compared, errors, first = 0, 0, 0, []
    timings = {}
    for name, query in checks.items():
        began = time.monotonic()
        for i, compiled, portable in conn.execute(query):
            compared += 1
            errors += compiled is not None and compiled.startswith("ERROR")
            if compiled != portable:
                differences += 1
                if len(first) < 20:
                    first.append(f"  {name} case {i}: compiled {compiled!r}, portable {portable!r}")
        timings[name] = time.monotonic() - began

    # comb_uuid(ts, format): errors must agree; values through _comb_at (see the docstring).
    began = time.monotonic()
    query = f"""
        SELECT i, f, ts, pg_temp.c_at(ts, f) AS compiled, pg_temp.p_at(ts, f) AS portable FROM t"""
    rows = conn.execute(f"""
        WITH made AS ({query})
        SELECT i, compiled, portable,
               CASE WHEN compiled LIKE 'ERROR%' OR compiled IS NULL THEN NULL ELSE
                   {p}._comb_at(compiled::uuid, {p}._comb_position('comb_uuid', {p}._comb_us(ts), f::{p}.comb_format), f::{p}.comb_format)::text
                   || ' ' || {p}._comb_at(portable::uuid, {p}._comb_position('comb_uuid', {p}._comb_us(ts), f::{p}.comb_format), f::{p}.comb_format)::text
                   || ' ' || ({c}.comb_timestamp(compiled::uuid, f::{c}.comb_format) = {c}.comb_timestamp(portable::uuid, f::{c}.comb_format))::text
               END AS check
        FROM made""").fetchall()
    for i, compiled, portable, check in rows:
        compared += 1
        if compiled is None or compiled.startswith("ERROR"):
            errors += compiled is not None
            ok = compiled == portable
        else:
            ok = check == f"{compiled} {portable} true"
        if not ok:
            differences += 1
            if len(first) < 20:
                first.append(f"  comb_uuid(ts, format) case {i}: compiled {compiled!r}, portable {portable!r}, check {check!r}")
    timings["comb_uuid(ts, format)"] = time.monotonic() - began

    # Fixed statements whose errors carry a hint or a detail too: SQLSTATE, message, detail and hint must agree.
    fixed = ["SELECT {s}.comb_uuid('mysql')", "SELECT {s}.comb_uuid('2024-01-01')", "SELECT {s}.comb_uuid('')",
             "SELECT {s}.comb_timestamp(gen_random_uuid(), 'mysql')",
             "SELECT {s}.comb_timestamp('01a20df2-18e2-48ed-bc1a-3a01a2b626cc', 'uuidv7')",
             "SELECT {s}.comb_timestamp('01a20df2-18e2-78ed-3c1a-3a01a2b626cc', 'uuidv7')",
             "SELECT {s}.comb_timestamp('01a20df2-18e2-f8ed-fc1a-3a01a2b626cc', 'uuidv7')",
             "SELECT {s}.comb_floor('9999-12-31 23:59:59.9995+00')", "SELECT {s}.comb_floor('infinity', 'ticks')",
             "SELECT {s}.comb_uuid('-infinity'::timestamptz, 'legacy')",
             "SELECT {s}.comb_uuid('10889-08-02 05:31:50.655001+00'::timestamptz, 'uuidv7')",
             "SELECT {s}.comb_floor('infinity', 'uuidv7')", "SELECT {s}.comb_stamp(gen_random_uuid(), '1969-12-31 23:59:59.999999+00', 'uuidv7')"]

    def outcome(statement, schema):
        """(SQLSTATE, message, detail, hint) of the statement's error, the type's schema left out of the message."""
        try:
            with conn.transaction():
                return ("ok", str(conn.execute(statement.format(s=schema)).fetchone()[0]))
        except psycopg.Error as error:
            return (error.sqlstate, error.diag.message_primary.replace(f"{schema}.", ""), error.diag.message_detail,
                    error.diag.message_hint)

    for statement in fixed:
        compared += 1
        compiled, portable = outcome(statement, c), outcome(statement, p)
        errors += compiled[0] != "ok"
        if compiled[0] == "ok" or compiled != portable:
            differences += 1
            first.append(f"  {statement}: compiled {compiled!r}, portable {portable!r}")

    for line in first:
        print(line)
    detail = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in timings.items())
    print(f"portable_diff: {args.count:,} time cases and {args.count:,} uuids (seed {args.seed}), {compared:,} comparisons "
          f"({errors:,} of them errors, SQLSTATE and message): {differences} differences in {time.monotonic() - started:.1f} s "
          f"[{detail}]")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
