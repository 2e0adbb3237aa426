"""Keyed masking on a server (docs/ids-that-do-not-tell-their-age.md#masking), run by tests/masking.sh:

    python tests/masking.py main CONNINFO KEY1_HEX KEY2_HEX CONTROL_HEX [--short|--long]
    python tests/masking.py calls CONNINFO KEY1_HEX
    python tests/masking.py refused CONNINFO SQLSTATE KEY_HEX...
    python tests/masking.py grep LOG... -- KEY_HEX... -- CONTROL_HEX

CONNINFO is a superuser's, to a database with comb_ext, on a server that preloads it with
comb_ext.mask_key = '1:KEY1_HEX, 2:KEY2_HEX'. No key of the setting is ever sent to the server: the checks
compute what the server must give with python-uuidv47 (uuidv47's own C) under the key, and CONTROL_HEX (a key
not in the setting) is the one passed as bytea.

main:    a. uuidv47 live: comb_uuid('uuidv7') ids masked by the server (default key, key id 2, CONTROL_HEX as
            bytea) equal python_uuidv47.encode under that key, and python_uuidv47's façades unmask to the ids;
         b. key secrecy for a plain role, a pg_read_all_settings + pg_monitor role and the superuser: SHOW,
            current_setting, pg_settings, SHOW ALL, pg_file_settings, SET, ALTER SYSTEM; no answer or error
            holds the key in any spelling;
         c. errors: unknown key id, keys of 15 and 17 bytes (22023), uuids that are no façade or no id of the
            format (22P02), with no key material in them;
         d. statistics of the masks of N consecutive ids of each family from one session (N = 10^6; --short
            10^5, --long 10^7): Spearman's rank correlation between the time order and the masked order, and
            each output bit's frequency (the fixed version and variant bits aside). The bounds are 0.01 and
            0.5 +- 0.005 at 10^6, 10 standard deviations of a true permutation, scaled to stay 10 at other N;
         e. lookups through comb_unmask, uid8_unmask and sno_unmask use the primary key's index (EXPLAIN, a
            literal and a prepared statement's parameter, custom and generic plans).
calls:   after a restart: masks still agree with uuidv47 under KEY1_HEX, and the errors again (for the log).
refused: every setting-form function gives SQLSTATE and its message names comb_ext.mask_key and no key.
grep:    0 hits for every spelling of every KEY_HEX in the logs, and at least one of CONTROL_HEX (the control).

Prints one line per check and exits 1 on any failure.
"""
import collections
import math
import random
import re
import sys
import time
import uuid

import psycopg
import python_uuidv47

failures = []
SPREAD_AT_A_MILLION = {"rho": 0.01, "bit": 0.005}


def check(ok, what):
    print(("  ok    " if ok else "  FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)


def key_parts(key_hex):
    key = bytes.fromhex(key_hex)
    return int.from_bytes(key[:8], "little"), int.from_bytes(key[8:], "little")


def spellings(key_hex):
    """Every way a log or a message could show the key: its bytes in hex (as set, and byte-reversed), k0 and
    k1 in hex and in decimal (unsigned and signed)."""
    k0, k1 = key_parts(key_hex)
    words = {key_hex, bytes.fromhex(key_hex)[::-1].hex()}
    for k in (k0, k1):
        words |= {f"{k:016x}", f"{k:x}", str(k), str(k - 2**64 if k >= 2**63 else k)}
    # A word under 8 characters would match by chance; the test keys are random, so none is.
    return {w.lower() for w in words if len(w) >= 8}


def holds_key(text, keys):
    text = (text or "").lower()
    return [w for key in keys for w in spellings(key) if w in text]


def uuidv47_encode(key_hex, ids):
    python_uuidv47.set_keys(*key_parts(key_hex))
    return [python_uuidv47.encode(i) for i in ids]


def uuidv47_round_trip(cur, keys, control, count):
    key1, key2 = keys
    cur.execute("SELECT comb_uuid('uuidv7')::text FROM generate_series(1, %s)", (count,))
    ids = [r[0] for r in cur.fetchall()]
    cur.execute("CREATE TEMP TABLE v7 (n int, id uuid)")
    with cur.copy("COPY v7 FROM STDIN") as copy:
        for n, i in enumerate(ids):
            copy.write_row((n, i))
    for label, key_sql, params, key_hex in (
        ("the setting's default key (key id 1)", "", (), key1),
        ("key id 2", ", 2", (), key2),
        ("a bytea key", ", %s::bytea", (bytes.fromhex(control),), control),
    ):
        cur.execute(f"SELECT comb_mask(id, 'uuidv7'{key_sql})::text FROM v7 ORDER BY n", params)
        server = [r[0] for r in cur.fetchall()]
        expected = uuidv47_encode(key_hex, ids)
        same = sum(s == e for s, e in zip(server, expected))
        check(same == count, f"a. comb_mask(id, 'uuidv7') under {label} = python_uuidv47.encode for {same:,} of {count:,} comb_uuid('uuidv7') ids")
        cur.execute("CREATE TEMP TABLE facades (n int, facade uuid)")
        with cur.copy("COPY facades FROM STDIN") as copy:
            for n, f in enumerate(expected):
                copy.write_row((n, f))
        cur.execute(f"SELECT count(*) FILTER (WHERE comb_unmask(f.facade, 'uuidv7'{key_sql}) = v7.id) FROM facades f JOIN v7 USING (n)", params)
        back = cur.fetchone()[0]
        check(back == count, f"a. python_uuidv47's façades unmask under {label} to the ids: {back:,} of {count:,}")
        cur.execute("DROP TABLE facades")
    cur.execute("DROP TABLE v7")


def outcome(conn, sql, params=()):
    """(SQLSTATE or None, the rows or the error's message, detail and hint)."""
    try:
        with conn.cursor() as cur:
            cur.execute(sql, params)
            return None, repr(cur.fetchall()) if cur.description else ""
    except psycopg.Error as e:
        d = e.diag
        return e.sqlstate, " | ".join(filter(None, (d.message_primary, d.message_detail, d.message_hint, d.context)))


SECRECY_PROBES = [
    "SHOW comb_ext.mask_key",
    "SELECT current_setting('comb_ext.mask_key')",
    "SELECT current_setting('comb_ext.mask_key', true)",
    "SELECT * FROM pg_settings WHERE name LIKE 'comb_ext%%'",
    "SHOW ALL",
    "SELECT * FROM pg_file_settings WHERE name LIKE 'comb_ext%%'",
    "SELECT * FROM pg_show_all_file_settings() WHERE name LIKE 'comb_ext%%'",
    "SET comb_ext.mask_key = '9:00000000000000000000000000000000'",
    "SELECT set_config('comb_ext.mask_key', '9:00000000000000000000000000000000', false)",
    "ALTER SYSTEM SET comb_ext.mask_key = '9:00000000000000000000000000000000'",
    "ALTER SYSTEM RESET comb_ext.mask_key",
    "ALTER ROLE CURRENT_USER SET comb_ext.mask_key = '9:00000000000000000000000000000000'",
    "SELECT comb_mask('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f'::uuid, 'uuidv7', 99)",
]


def key_secrecy(conninfo, keys):
    with psycopg.connect(conninfo, autocommit=True) as su:
        su.execute("DROP ROLE IF EXISTS mask_plain")
        su.execute("DROP ROLE IF EXISTS mask_monitor")
        su.execute("CREATE ROLE mask_plain LOGIN")
        su.execute("CREATE ROLE mask_monitor LOGIN IN ROLE pg_read_all_settings, pg_monitor")
        state, text = outcome(su, "SHOW comb_ext.mask_key")
        check(state is None and text == "[('(hidden)',)]", f"b. the superuser's SHOW comb_ext.mask_key gives {text}")
        state, text = outcome(su, "SELECT count(*) FROM pg_settings WHERE name = 'comb_ext.mask_key'")
        check(text == "[(0,)]", f"b. pg_settings has no comb_ext.mask_key row, even for the superuser: {text}")
        for role in ("mask_plain", "mask_monitor", "postgres"):
            with psycopg.connect(conninfo + f" user={role}", autocommit=True) as conn:
                for probe in SECRECY_PROBES:
                    # The superuser may change the setting, and reads postgresql.conf's lines, the key's too,
                    # in pg_file_settings: the boundary the docs state, checked as such. No other role may.
                    if role == "postgres" and "file_settings" in probe:
                        state, text = outcome(conn, probe)
                        check(state is None and holds_key(text, keys),
                              f"b. the superuser reads the key's line in {probe}, as the docs say: {state or 'ok'}")
                        continue
                    if role == "postgres" and probe.startswith(("ALTER", "SET", "SELECT set_config")):
                        continue
                    state, text = outcome(conn, probe)
                    leaked = holds_key(text, keys)
                    changes = probe.startswith(("SET", "ALTER", "SELECT set_config"))
                    check(not leaked and (state is not None or not changes),
                          f"b. {role}: {probe} -> {state or 'ok'}, {len(leaked)} spellings of a key in "
                          f"{len(text)} characters: {text[:100]}")
        su.execute("DROP ROLE mask_plain")
        su.execute("DROP ROLE mask_monitor")


def error_cases(conn, keys, control):
    v7 = "018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f"
    cases = [
        (f"SELECT comb_mask('{v7}'::uuid, 'uuidv7', 3)", "22023", "key id 3"),
        (f"SELECT comb_unmask('{v7}'::uuid, 'uuidv7', -1)", "22023", "key id -1"),
        ("SELECT uid8_mask(1, 2147483647)", "22023", "key id 2147483647"),
        (f"SELECT comb_mask('{v7}'::uuid, 'uuidv7', '\\x{control[:30]}'::bytea)", "22023", "16 bytes, not 15"),
        (f"SELECT comb_mask('{v7}'::uuid, 'uuidv7', '\\x{control}00'::bytea)", "22023", "16 bytes, not 17"),
        ("SELECT sno_unmask(sno_new(), '\\x'::bytea)", "22023", "16 bytes, not 0"),
        (f"SELECT comb_unmask('{v7}'::uuid, 'uuidv7')", "22P02", "version 7"),
        ("SELECT comb_mask('018f2d9f-9a2a-4def-8c3f-7b1a2c4d5e6f'::uuid, 'uuidv7')", "22P02", "version 4"),
        ("SELECT comb_unmask('018f2d9f-9a2a-4def-0c3f-7b1a2c4d5e6f'::uuid)", "22P02", "variant bits 00"),
        ("SELECT comb_mask('018f2d9f-9a2a-1def-8c3f-7b1a2c4d5e6f'::uuid, 'sqlserver')", "22P02", "version 1"),
    ]
    for sql, sqlstate, mentions in cases:
        state, text = outcome(conn, sql)
        leaked = holds_key(text, keys)
        check(state == sqlstate and mentions in text and not leaked,
              f"c. {sql} -> {state} (expected {sqlstate}, naming '{mentions}', no key): {text[:120]}")


# Bits are numbered from the first byte's top bit. A COMB generator writes the clock's fraction of its unit
# (12 bits, docs/comb.md) in the free bits right after the time field in the format's order. In the UUIDv7
# layout (uuidv7, postgresql) masking hides the time field only, as uuidv47 does (its rand_a is that
# fraction), so there these bits are the generator's, and are printed apart, not held to the band; the other
# formats mask them with the time field, and they are held to it like every other bit.
FRACTION_AFTER_BYTES_0_5 = list(range(52, 64))  # byte 6's low nibble, byte 7
FAMILIES = [
    # label, generator, mask, bytes of the mask, width in bits, the generator's fraction bits
    ("comb uuidv7", "comb_uuid('uuidv7')", "comb_mask(id, 'uuidv7')", "uuid_send(m)", 128, FRACTION_AFTER_BYTES_0_5),
    ("comb postgresql", "comb_uuid('postgresql')", "comb_mask(id, 'postgresql')", "uuid_send(m)", 128,
     FRACTION_AFTER_BYTES_0_5),
    ("comb sqlserver", "comb_uuid('sqlserver')", "comb_mask(id, 'sqlserver')", "uuid_send(m)", 128, []),
    ("comb binary", "comb_uuid('binary')", "comb_mask(id, 'binary')", "uuid_send(m)", 128, []),
    ("muid", "muid_new()", "muid_mask(id)", "uuid_send(m)", 128, []),
    ("sno", "sno_new()", "sno_mask(id)", "sno_to_bytea(m)", 80, []),
    # 'spread' (the default) is not in time order as a bigint; 'time_sequential' is, so the rank check bites.
    ("uid8 time_sequential", "uid8_new('time_sequential')", "uid8_mask(id)", "int8send(m)", 64, []),
    ("uid8 spread", "uid8_new('spread')", "uid8_mask(id)", "int8send(m)", 64, []),
]
UUID_FIXED = {48: 0, 49: 1, 50: 0, 51: 0, 64: 1, 65: 0}  # version 4, variant 10


def bit_frequencies(cur, query, width):
    """Frequency of each bit (0 = the first byte's top bit) of the values (bytea) of query, read in chunks."""
    size = width // 8
    histograms = [collections.Counter() for _ in range(size)]
    pending = b""
    with cur.copy(f"COPY ({query}) TO STDOUT") as copy:
        for chunk in copy:
            # Whole lines only, so every blob starts at a value's first byte.
            pending += bytes(chunk)
            lines, _, pending = pending.rpartition(b"\n")
            blob = bytes.fromhex(lines.decode())
            for byte in range(size):
                histograms[byte].update(blob[byte::size])
    n = sum(histograms[0].values())
    return [sum(c for v, c in histograms[byte].items() if v >> (7 - bit) & 1) / n
            for byte in range(size) for bit in range(8)]


def statistics(cur, count):
    scale = math.sqrt(1_000_000 / count)
    rho_bound, bit_bound = SPREAD_AT_A_MILLION["rho"] * scale, SPREAD_AT_A_MILLION["bit"] * scale
    print(f"  d. {count:,} consecutive ids per family; bounds |rho| <= {rho_bound:.4f}, bits 0.5 +- {bit_bound:.4f}")
    for label, generator, mask, as_bytes, width, fraction in FAMILIES:
        started = time.monotonic()
        cur.execute("DROP TABLE IF EXISTS masked")
        # n is the order of generation, the ids' time order; the id and its mask come from one session.
        cur.execute(f"CREATE TEMP TABLE masked AS SELECT n, m FROM (SELECT n, {mask} AS m FROM "
                    f"(SELECT n, {generator} AS id FROM generate_series(1, %s) n) g) s", (count,))
        cur.execute("SELECT corr(n, r)::float8 FROM (SELECT n, row_number() OVER (ORDER BY m) AS r FROM masked) s")
        rho = cur.fetchone()[0]
        freqs = bit_frequencies(cur, f"SELECT encode({as_bytes}, 'hex') FROM masked", width)
        fixed = UUID_FIXED if label.startswith("comb") else {}
        fixed_ok = all(freqs[b] == v for b, v in fixed.items())
        free = [(abs(f - 0.5), b, f) for b, f in enumerate(freqs) if b not in fixed and b not in fraction]
        worst = max(free)
        outside = sorted(b for d, b, f in free if d > bit_bound)
        seconds = time.monotonic() - started
        check(abs(rho) <= rho_bound, f"d. {label}: Spearman rho (time order vs masked order) = {rho:+.5f}")
        check(fixed_ok, f"d. {label}: the fixed bits {sorted(fixed)} are fixed in every mask")
        check(not outside, f"d. {label}: worst of {len(free)} masked or random bits: bit {worst[1]} at {worst[2]:.5f}; "
              f"outside the band: {outside or 'none'} ({seconds:.1f} s)")
        if fraction:
            kept = [(abs(freqs[b] - 0.5), b, freqs[b]) for b in fraction]
            print(f"  note  d. {label}: the generator's clock fraction, bits {fraction[0]}-{fraction[-1]}, unmasked "
                  f"by the construction: worst bit {max(kept)[1]} at {max(kept)[2]:.5f}; outside the band: "
                  f"{sorted(b for d, b, f in kept if d > bit_bound) or 'none'}", flush=True)
    cur.execute("DROP TABLE masked")


def lookups(conn):
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE t_uuid (id uuid PRIMARY KEY, payload int)")
    cur.execute("CREATE TEMP TABLE t_uid8 (id bigint PRIMARY KEY, payload int)")
    cur.execute("CREATE TEMP TABLE t_sno (id sno PRIMARY KEY, payload int)")
    cur.execute("INSERT INTO t_uuid SELECT comb_uuid('uuidv7'), n FROM generate_series(1, 10000) n")
    cur.execute("INSERT INTO t_uid8 SELECT uid8_new(), n FROM generate_series(1, 10000) n")
    cur.execute("INSERT INTO t_sno SELECT sno_new(), n FROM generate_series(1, 10000) n")
    cur.execute("ANALYZE t_uuid, t_uid8, t_sno")
    cur.execute("SELECT comb_mask(id, 'uuidv7') FROM t_uuid LIMIT 1")
    uuid_facade = cur.fetchone()[0]
    cur.execute("SELECT uid8_mask(id) FROM t_uid8 LIMIT 1")
    uid8_masked = cur.fetchone()[0]
    cur.execute("SELECT sno_mask(id)::text FROM t_sno LIMIT 1")
    sno_masked = cur.fetchone()[0]
    for table, typ, unmask, value in (
        ("t_uuid", "uuid", "comb_unmask($1, 'uuidv7')", str(uuid_facade)),
        ("t_uid8", "bigint", "uid8_unmask($1)", str(uid8_masked)),
        ("t_sno", "sno", "sno_unmask($1)", sno_masked),
    ):
        literal = unmask.replace("$1", f"'{value}'::{typ}")
        plans = {}
        cur.execute(f"EXPLAIN (COSTS OFF) SELECT * FROM {table} WHERE id = {literal}")
        plans["a literal"] = "\n".join(r[0] for r in cur.fetchall())
        cur.execute(f"PREPARE q_{table}({typ}) AS SELECT * FROM {table} WHERE id = {unmask}")
        for mode in ("force_custom_plan", "force_generic_plan"):
            cur.execute(f"SET plan_cache_mode = {mode}")
            cur.execute(f"EXPLAIN (COSTS OFF) EXECUTE q_{table}('{value}')")
            plans[f"a parameter, {mode}"] = "\n".join(r[0] for r in cur.fetchall())
        cur.execute("RESET plan_cache_mode")
        cur.execute(f"EXECUTE q_{table}('{value}')")
        found = cur.fetchall()
        check(len(found) == 1, f"e. {table}: the masked id finds its row through {unmask}")
        for how, plan in plans.items():
            uses_pk = re.search(rf"Index (Only )?Scan using {table}_pkey on {table}", plan) is not None
            check(uses_pk, f"e. {table}, {how}: " + plan.splitlines()[0].strip())
    cur.execute("DROP TABLE t_uuid, t_uid8, t_sno")


def main_checks(conninfo, key1, key2, control, mode):
    keys = [key1, key2]
    count = {"--short": 100_000, "--long": 10_000_000}.get(mode, 1_000_000)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        uuidv47_round_trip(conn.cursor(), keys, control, 10_000)
        key_secrecy(conninfo, keys)
        error_cases(conn, keys, control)
        statistics(conn.cursor(), count)
        lookups(conn)


def calls(conninfo, key1):
    with psycopg.connect(conninfo, autocommit=True) as conn:
        cur = conn.cursor()
        cur.execute("SELECT comb_uuid('uuidv7')::text FROM generate_series(1, 1000)")
        ids = [r[0] for r in cur.fetchall()]
        cur.execute("SELECT comb_mask(i::uuid, 'uuidv7')::text FROM unnest(%s::text[]) i", (ids,))
        same = sum(s == e for (s,), e in zip(cur.fetchall(), uuidv47_encode(key1, ids)))
        check(same == 1000, f"after the restart, comb_mask agrees with uuidv47 under key 1: {same} of 1000")
        for sql in ("SELECT muid_unmask(muid_mask(muid_new()))", "SELECT sno_mask(sno_new(), 2)",
                    "SELECT uid8_unmask(uid8_new(), 7)", "SELECT comb_unmask(comb_uuid('uuidv7'), 'uuidv7')"):
            outcome(conn, sql)


def refused(conninfo, sqlstate, keys):
    v7 = "'018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f'::uuid"
    calls_ = [f"SELECT comb_mask({v7}, 'uuidv7')", f"SELECT comb_unmask({v7})", f"SELECT comb_mask({v7}, 'uuidv7', 1)",
              f"SELECT muid_mask({v7})", f"SELECT muid_unmask({v7}, 2)", "SELECT sno_mask(sno_new())",
              "SELECT sno_unmask(sno_new(), 1)", "SELECT uid8_mask(1)", "SELECT uid8_unmask(1, 1)"]
    with psycopg.connect(conninfo, autocommit=True) as conn:
        for sql in calls_:
            state, text = outcome(conn, sql)
            # A malformed setting's error names the entry at fault (tests/masking.sh spoils entry 2).
            names = ["comb_ext.mask_key"] + (["entry 2"] if sqlstate == "22023" else [])
            check(state == sqlstate and all(n in text for n in names) and not holds_key(text, keys),
                  f"{sql} -> {state} (expected {sqlstate}, naming {' and '.join(names)}, no key): {text[:150]}")


def grep(logs, keys, control):
    text = "".join(open(path, encoding="utf-8", errors="replace").read() for path in logs).lower()
    lines = text.count("\n")
    for key in keys:
        hits = {w: text.count(w) for w in spellings(key)}
        check(sum(hits.values()) == 0, f"b. {lines:,} log lines: {sum(hits.values())} hits for key {key[:4]}..'s "
              f"{len(hits)} spellings (hex, byte-reversed hex, k0 and k1 in hex and decimal)")
    hits = sum(text.count(w) for w in spellings(control))
    check(hits > 0, f"b. control: the same grep finds the key passed as bytea in logged statements: {hits} hits")


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    if args[0] == "main" and len(args) in (5, 6):
        main_checks(*args[1:5], args[5] if len(args) == 6 else "")
    elif args[0] == "calls" and len(args) == 3:
        calls(args[1], args[2])
    elif args[0] == "refused" and len(args) >= 4:
        refused(args[1], args[2], args[3:])
    elif args[0] == "grep" and args.count("--") == 2:
        first, second = args.index("--"), len(args) - 1 - args[::-1].index("--")
        grep(args[1:first], args[first + 1:second], args[second + 1])
    else:
        sys.exit(__doc__)
    print(f"masking {args[0]}: {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
