"""comb_ext's SQL edition (portable/ids.sql, portable/text.sql, portable/mask.sql): sno, muid, uid8, the text forms, masking.

  python tests/portable_ids.py vectors CONNINFO SCHEMA
      every entry of tests/vectors/{sno,muid,uid8,text,typeid}, and uuidv47's SipHash and demo vectors,
      against the SQL edition installed in SCHEMA
  python tests/portable_ids.py generator CONNINFO OWNER_CONNINFO SCHEMA SESSIONS CALLS
      muid_new from SESSIONS sessions at once, CALLS each, a quarter in transactions rolled back: no
      timestamp twice, each session's strictly increasing; a cancel while another session holds the
      timeline's lock leaves no lock behind; a timeline set 10 s ahead makes calls wait (cancelled);
      prints the highest timestamp issued, for the restart check. CONNINFO's role calls muid_new;
      OWNER_CONNINFO's (the installer's) moves the timeline, as a clock step back would
  python tests/portable_ids.py timeline CONNINFO SCHEMA AT_LEAST
      after a crash restart: the timeline is at or past AT_LEAST, and muid_new goes on past it
  python tests/portable_ids.py diff CONNINFO COMPILED_SCHEMA PORTABLE_SCHEMA CASES [SEED]
      CASES random inputs per function through both editions (one database, two schemas): every
      result and every SQLSTATE must be equal (for the text forms, every message and hint too)

Expected values come from the vectors (the original libraries' outputs), never from the code under
test; the differential test holds the compiled edition as the reference. Exits 1 on any difference.
"""
import json
import os
import pathlib
import random
import sys
import time
import uuid

import psycopg

VECTORS = pathlib.Path(__file__).resolve().parent / "vectors"
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        if len(failures) <= 20:
            print("  DIFFERENCE:", what)


def outcome(cur, sql, params=()):
    """('ok', first column) or ('error', SQLSTATE), the statement in a savepoint of its own."""
    try:
        with cur.connection.transaction():
            cur.execute(sql, params)
            return "ok", cur.fetchone()[0]
    except psycopg.Error as e:
        return "error", e.sqlstate


def load(path):
    return json.loads((VECTORS / path).read_text())


# ---- vectors ------------------------------------------------------------------------------------

def vectors(conninfo, schema):
    with psycopg.connect(conninfo, autocommit=True) as conn:
        cur = conn.cursor()
        cur.execute("SELECT pg_catalog.set_config('search_path', %s, false)", (schema,))
        cur.execute("SET TimeZone = 'UTC'")
        counts = {}

        # sno/encode.json: the 10 bytes and the text, both ways.
        entries = load("sno/encode.json")
        for e in entries:
            check(outcome(cur, "SELECT sno_from_bytea(%s)::text", (bytes.fromhex(e["hex"]),)) == ("ok", e["string"]), f"sno encode {e}")
            check(outcome(cur, "SELECT sno_to_bytea(%s::sno)", (e["string"],)) == ("ok", bytes.fromhex(e["hex"])), f"sno decode {e}")
        counts["sno/encode.json"] = len(entries)

        # sno/components.json: built from its fields (time floored to µs), and decoded back.
        entries = load("sno/components.json")
        for e in entries:
            i = e["input"]
            us = i["unix_ns"] // 1000
            got = outcome(cur, "SELECT sno_from_parts(timestamptz 'epoch' + %s * interval '1 microsecond', %s, %s, %s, %s)::text",
                          (us, i["meta"], i["partition"], i["sequence"], i["tick"] == 1))
            check(got == ("ok", e["string"]), f"sno_from_parts {e['case']}: {got} != {e['string']}")
            check(outcome(cur, "SELECT sno_from_bytea(%s)::text", (bytes.fromhex(e["hex"]),)) == ("ok", e["string"]), f"sno hex {e['case']}")
            cur.execute("SELECT (extract(epoch FROM sno_time(s)) * 1000)::bigint, sno_meta(s), sno_partition(s), sno_sequence(s), sno_tick(s)::int"
                        " FROM (SELECT %s::sno AS s) AS x", (e["string"],))
            check(cur.fetchone() == (e["time_unix_ms"], e["meta"], e["partition"], e["sequence"], e["tick_bit"]), f"sno fields {e['case']}")
        counts["sno/components.json"] = len(entries)

        # sno/decode_invalid.json: every one is rejected as sno text with 22P02. Those that are not
        # valid UTF-8 text (or hold a NUL) cannot be text in a UTF-8 database at all: the server
        # refuses them (22021) before either edition sees them; that refusal is checked instead.
        entries = load("sno/decode_invalid.json")
        not_text = 0
        for e in entries:
            raw = bytes.fromhex(e["input_hex"])
            try:
                text = raw.decode("utf-8")
                if "\x00" in text:
                    raise ValueError
            except (UnicodeDecodeError, ValueError):
                not_text += 1
                check(outcome(cur, "SELECT pg_catalog.convert_from(%s, 'UTF8')", (raw,))[0] == "error", f"server takes {e}")
                continue
            check(outcome(cur, "SELECT %s::sno::text", (text,)) == ("error", "22P02"), f"sno text accepted {e}")
        counts["sno/decode_invalid.json"] = len(entries)
        print(f"  sno/decode_invalid.json: {len(entries) - not_text} rejected as sno text (22P02); {not_text} are not UTF-8 text: refused by the server (22021) before any sno input")

        m = load("muid/vectors.json")
        for e in m["valid"]:
            i = e["input"]
            offset = (i["offset"] + 2**31) % 2**32 - 2**31  # Gink keeps the low 32 bits
            got = outcome(cur, "SELECT muid_pack(%s::bigint, %s::bigint, %s)::text", (i["timestamp"], i["medallion"], offset))
            check(got == ("ok", e["uuid"]), f"muid_pack {e}: {got}")
            check(outcome(cur, "SELECT muid_text(%s::uuid)", (e["uuid"],)) == ("ok", e["canonical"]), f"muid_text {e}")
            check(outcome(cur, "SELECT muid_parse(%s)::text", (e["canonical"],)) == ("ok", e["uuid"]), f"muid_parse {e}")
            cur.execute("SELECT muid_timestamp_us(u), muid_medallion(u), muid_offset(u), (muid_unpack(u)).\"offset\", "
                        "muid_timestamp(u) = CASE WHEN muid_timestamp_us(u) = -1 THEN 'infinity' ELSE timestamptz 'epoch' + muid_timestamp_us(u) * interval '1 microsecond' END "
                        "FROM (SELECT %s::uuid AS u) AS x", (e["uuid"],))
            theirs = e["muid"]
            t_off = (theirs["offset"] + 2**31) % 2**32 - 2**31
            check(cur.fetchone() == (theirs["timestamp"], theirs["medallion"], t_off, t_off, True), f"muid fields {e}")
        counts["muid valid"] = len(m["valid"])
        for e in m["rejected_construct"]:
            i = e["input"]
            if isinstance(i["timestamp"], int) and -2**31 <= i["offset"] < 2**31:
                got = outcome(cur, "SELECT muid_pack(%s::bigint, %s::bigint, %s::integer)::text", (i["timestamp"], i["medallion"], i["offset"]))
                check(got == ("error", "22003"), f"muid_pack accepts {e}: {got}")
            else:
                # A float timestamp or an offset outside integer does not reach muid_pack: the cast refuses it.
                got = outcome(cur, "SELECT muid_pack(%s::text::bigint, %s::bigint, %s::text::integer)::text", (str(i["timestamp"]), i["medallion"], str(i["offset"])))
                check(got[0] == "error", f"muid_pack accepts {e}: {got}")
        counts["muid rejected_construct"] = len(m["rejected_construct"])
        for e in m["parse_string"]:
            s = e["string"]
            groups = s.split("-")
            spec = [len(g) for g in groups] in ([13, 11, 8], [13, 11], [13]) and all(c in "0123456789abcdefABCDEF" for g in groups for c in g)
            got = outcome(cur, "SELECT muid_parse(%s)::text", (s,))
            if spec:
                check(got[0] == "ok", f"muid_parse refuses {e}")
                if e["accepted"]:
                    check(got[1].replace("-", "") == e["bytes_hex"], f"muid_parse {e}: {got}")
            else:
                check(got == ("error", "22P02"), f"muid_parse accepts {e}: {got}")
        counts["muid parse_string"] = len(m["parse_string"])

        u = load("uid8/vectors.json")
        for e in u["vectors"]:
            i, d = e["input"], e["decoded"]
            mode = "time_sequential" if i["mode"] == "TIME_SEQUENTIAL" else "spread"
            got = outcome(cur, "SELECT uid8_from_parts(%s, %s, %s, %s, %s)", (i["timestamp"], i["sequence"], i["generator_id"], i["cluster_id"], mode))
            check(got == ("ok", e["int64"]), f"uid8_from_parts {e}: {got}")
            cur.execute("SELECT uid8_to_bytea(x), uid8_from_bytea(%s), (extract(epoch FROM uid8_timestamp(x)) * 1000)::bigint, uid8_sequence(x), uid8_generator(x), uid8_cluster(x), uid8_mode(x)::text"
                        " FROM (SELECT %s::bigint AS x) AS v", (bytes.fromhex(e["bytes_hex"]), e["int64"]))
            dmode = "time_sequential" if d["mode"] == "TIME_SEQUENTIAL" else "spread"
            check(cur.fetchone() == (bytes.fromhex(e["bytes_hex"]), e["int64"], d["timestamp"], d["sequence"], d["generator_id"], d["cluster_id"], dmode), f"uid8 fields {e}")
        counts["uid8 vectors"] = len(u["vectors"])
        for e in u["rejected"]:
            i = e["input"]
            if "bytes_hex" in i:
                got = outcome(cur, "SELECT uid8_from_bytea(%s)", (bytes.fromhex(i["bytes_hex"]),))
                check(got == ("error", "22P03"), f"uid8_from_bytea accepts {e}: {got}")
            else:
                got = outcome(cur, "SELECT uid8_from_parts(%s, %s, %s, %s)", (i.get("timestamp", 0), i.get("sequence", 0), i.get("generator_id", 0), i.get("cluster_id", 0)))
                check(got == ("error", "22003"), f"uid8_from_parts accepts {e}: {got}")
        counts["uid8 rejected"] = len(u["rejected"])

        # text/uuid.json (Python's base64, python-ulid) and text/uid8.json: both ways, either case.
        entries = load("text/uuid.json")
        for e in entries:
            for encoding in ("base32hex", "crockford"):
                got = outcome(cur, "SELECT comb_text(%s::uuid, %s)", (e["uuid"], encoding))
                check(got == ("ok", e[encoding]), f"comb_text {encoding} {e}: {got}")
                for text in (e[encoding], e[encoding].lower()):
                    got = outcome(cur, "SELECT comb_parse(%s, %s)::text", (text, encoding))
                    check(got == ("ok", e["uuid"]), f"comb_parse {encoding} {text}: {got}")
        counts["text/uuid.json"] = len(entries)
        entries = load("text/uid8.json")
        for e in entries:
            check(outcome(cur, "SELECT uid8_text(%s::bigint)", (e["int64"],)) == ("ok", e["text"]), f"uid8_text {e}")
            check(outcome(cur, "SELECT uid8_parse(%s)", (e["text"].lower(),)) == ("ok", e["int64"]), f"uid8_parse {e}")
        counts["text/uid8.json"] = len(entries)

        # The TypeID spec's vectors (tests/vectors/typeid/, PROVENANCE.md): valid ones both ways, invalid
        # ones refused with 22P02 by every parser.
        entries = load("typeid/valid.json")
        for e in entries:
            check(outcome(cur, "SELECT typeid_text(%s::uuid, %s)", (e["uuid"], e["prefix"])) == ("ok", e["typeid"]), f"typeid_text {e}")
            check(outcome(cur, "SELECT typeid_parse(%s)::text", (e["typeid"],)) == ("ok", e["uuid"]), f"typeid_parse {e}")
            check(outcome(cur, "SELECT typeid_parse(%s, %s)::text", (e["typeid"], e["prefix"])) == ("ok", e["uuid"]), f"typeid_parse expected {e}")
            check(outcome(cur, "SELECT typeid_prefix(%s)", (e["typeid"],)) == ("ok", e["prefix"]), f"typeid_prefix {e}")
        counts["typeid/valid.json"] = len(entries)
        entries = load("typeid/invalid.json")
        for e in entries:
            for sql, params in (("SELECT typeid_parse(%s)", (e["typeid"],)), ("SELECT typeid_prefix(%s)", (e["typeid"],)),
                                ("SELECT typeid_parse(%s, 'prefix')", (e["typeid"],))):
                got = outcome(cur, sql, params)
                check(got == ("error", "22P02"), f"{sql} accepts {e}: {got}")
        counts["typeid/invalid.json"] = len(entries)

        # Masking (portable/mask.sql): SipHash-2-4 against uuidv47's tests.c (key 00..0f, message 00, 01, ...
        # of 8 to 12 bytes: the lengths a one-word-plus-tail hash takes), then its demo vector both ways.
        for length, expected in UUIDV47_SIPHASH.items():
            message = bytes(range(length))
            got = outcome(cur, "SELECT _mask_siphash(%s, %s, %s, %s)",
                          (le_word(bytes(range(8))), le_word(bytes(range(8, 16))), le_word(message[:8]),
                           length << 56 | int.from_bytes(message[8:], "little")))
            check(got == ("ok", le_word(bytes.fromhex(expected))), f"siphash of {length} bytes: {got} != {expected}")
        counts["uuidv47 siphash"] = len(UUIDV47_SIPHASH)
        check(outcome(cur, "SELECT comb_mask(%s::uuid, 'uuidv7', %s)::text", (UUIDV47_DEMO[0], UUIDV47_DEMO_KEY))
              == ("ok", UUIDV47_DEMO[1]), "uuidv47 demo vector masked")
        check(outcome(cur, "SELECT comb_unmask(%s::uuid, 'uuidv7', %s)::text", (UUIDV47_DEMO[1], UUIDV47_DEMO_KEY))
              == ("ok", UUIDV47_DEMO[0]), "uuidv47 demo vector unmasked")
        counts["uuidv47 demo"] = 1
        # Every format and the Feistel networks (tests/vectors/mask/: an independent implementation of the
        # construction as documented), both ways.
        file = load("mask/mask.json")
        for e in file["comb"]:
            key = bytes.fromhex(e["key"])
            check(outcome(cur, "SELECT comb_mask(%s::uuid, %s, %s)::text", (e["id"], e["format"], key)) == ("ok", e["facade"]),
                  f"comb_mask {e}")
            check(outcome(cur, "SELECT comb_unmask(%s::uuid, %s, %s)::text", (e["facade"], e["format"], key)) == ("ok", e["id"]),
                  f"comb_unmask {e}")
        counts["mask comb"] = len(file["comb"])
        for e in file["feistel"]:
            key = bytes.fromhex(e["key"])
            # sno through its bytea functions: the SQL edition's sno is a domain over its text.
            arg, result = {"muid": ("%s::uuid", "{}::text"), "sno": ("sno_from_bytea(%s)", "sno_to_bytea({})"),
                           "uid8": ("%s::bigint", "{}")}[e["family"]]
            literal = {"muid": lambda h: str(uuid.UUID(h)), "sno": lambda h: bytes.fromhex(h),
                       "uid8": lambda h: int.from_bytes(bytes.fromhex(h), "big", signed=True)}[e["family"]]
            for function, given, wanted in ((f"{e['family']}_mask", e["id"], e["masked"]), (f"{e['family']}_unmask", e["masked"], e["id"])):
                got = outcome(cur, "SELECT " + result.format(f"{function}({arg}, %s)"), (literal(given), key))
                check(got == ("ok", literal(wanted)), f"{function} {e}: {got}")
        counts["mask feistel"] = len(file["feistel"])
    print("  entries: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    # The vector files' sizes, as the Rust conformance tests pin them: a file cut short fails here.
    expected = {"sno/encode.json": 167, "sno/components.json": 86, "sno/decode_invalid.json": 163, "muid valid": 167,
                "muid rejected_construct": 5, "muid parse_string": 10, "uid8 vectors": 167, "uid8 rejected": 7,
                "text/uuid.json": 415, "text/uid8.json": 333, "typeid/valid.json": 9, "typeid/invalid.json": 21,
                "uuidv47 siphash": 5, "uuidv47 demo": 1, "mask comb": 384, "mask feistel": 180}
    check(counts == expected, f"vector counts {counts} != {expected}")


# uuidv47's tests.c (stateless-me/uuidv47): SipHash-2-4 under key 00..0f of the message 00, 01, ... of
# each length, as little-endian bytes. The SQL edition hashes 8 to 15 bytes (one word and a tail), so
# the vectors of those lengths; tests.c has 0 to 12.
UUIDV47_SIPHASH = {8: "6224939a79f5f593", 9: "b0e4a90bdf82009e", 10: "f3b9dd94c5bb5d7a", 11: "a7ad6b22462fb3f4",
                   12: "fbe50e86bc8f1e75"}
# uuidv47's demo.c: a uuidv7 and its façade under k0 = 0x0123456789abcdef, k1 = 0xfedcba9876543210.
UUIDV47_DEMO = ("018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f", "2463c780-7fca-4def-8c3f-7b1a2c4d5e6f")
UUIDV47_DEMO_KEY = bytes.fromhex("efcdab89674523011032547698badcfe")


def le_word(b):
    """8 bytes as the little-endian word, as a signed bigint."""
    return int.from_bytes(b, "little", signed=True)


# ---- muid_new ------------------------------------------------------------------------------------

def generator(conninfo, owner_conninfo, schema, sessions, calls):
    import threading
    results = [None] * sessions
    errors = []

    def session(i):
        try:
            with psycopg.connect(conninfo, autocommit=True) as conn:
                cur = conn.cursor()
                got = []
                for batch in range(calls // 250):
                    rolled_back = batch % 4 == 3
                    try:
                        with conn.transaction():
                            cur.execute(f"SELECT {schema}.muid_timestamp_us({schema}.muid_new(%s)) FROM pg_catalog.generate_series(1, 250)", (i,))
                            got += [r[0] for r in cur.fetchall()]
                            if rolled_back:
                                raise psycopg.Rollback()
                    except psycopg.Rollback:
                        pass
                results[i] = got
        except Exception as e:  # reported below
            errors.append(f"session {i}: {e}")

    started = time.monotonic()
    threads = [threading.Thread(target=session, args=(i,)) for i in range(sessions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    check(not errors, f"muid_new sessions failed: {errors}")
    every = [v for r in results if r for v in r]
    check(len(every) == sessions * (calls // 250) * 250, f"muid_new: {len(every)} values")
    check(len(set(every)) == len(every), f"muid_new: {len(every) - len(set(every))} timestamps twice")
    check(all(r and all(a < b for a, b in zip(r, r[1:])) for r in results), "muid_new: a session's timestamps not strictly increasing")
    print(f"  muid_new: {len(every)} values from {sessions} sessions at once (a quarter in transactions rolled back), "
          f"{len(set(every))} distinct, each session's increasing, {elapsed:.1f} s ({elapsed / max(len(every), 1) * 1e6:.0f} µs a value)")

    with psycopg.connect(owner_conninfo, autocommit=True) as holder, psycopg.connect(conninfo, autocommit=True) as waiter:
        h, w = holder.cursor(), waiter.cursor()
        # The owner holds the lock muid_new takes, in an open transaction: the caller waits, is
        # cancelled, and holds no lock afterwards.
        h.execute("BEGIN")
        h.execute(f"LOCK TABLE {schema}._muid_state IN SHARE UPDATE EXCLUSIVE MODE")
        w.execute("SET statement_timeout = '300ms'")
        got = outcome(w, f"SELECT {schema}.muid_new()")
        check(got == ("error", "57014"), f"muid_new behind a held lock: {got}, expected a cancel (57014)")
        h.execute("COMMIT")
        w.execute("SELECT count(*) FROM pg_catalog.pg_locks AS l WHERE l.pid = pg_catalog.pg_backend_pid() AND (l.locktype = 'advisory' "
                  "OR l.relation IN (SELECT c.oid FROM pg_catalog.pg_class AS c WHERE c.relnamespace = %s::pg_catalog.regnamespace))", (schema,))
        check(w.fetchone()[0] == 0, "muid_new left a lock behind after a cancel")
        check(outcome(w, f"SELECT {schema}.muid_new() IS NOT NULL") == ("ok", True), "muid_new after a cancel")
        print("  muid_new cancelled while another session held the timeline's lock (57014): no lock left behind, the next call works")

        # The timeline 10 s ahead of the clock (as after the clock was set back): calls wait for the
        # clock, and are cancelled; one 1 s ahead goes on at once, one past the last.
        h.execute(f"SELECT {schema}._ids_unix_us(pg_catalog.clock_timestamp())")
        now = h.fetchone()[0]
        h.execute(f"SELECT pg_catalog.setval('{schema}._muid_timeline', %s)", (now + 10_000_000,))
        got = outcome(w, f"SELECT {schema}.muid_new()")
        check(got == ("error", "57014"), f"muid_new 10 s behind its timeline: {got}, expected a wait, cancelled (57014)")
        h.execute(f"SELECT pg_catalog.setval('{schema}._muid_timeline', %s)", (now + 1_000_000,))
        got = outcome(w, f"SELECT {schema}.muid_timestamp_us({schema}.muid_new())")
        check(got == ("ok", now + 1_000_001), f"muid_new 1 s behind its timeline: {got}, expected {now + 1_000_001}")
        print("  muid_new with the timeline 10 s ahead waits (cancelled at 300 ms); 1 s ahead it goes on, one µs past the last")
        h.execute(f"SELECT last_value FROM {schema}._muid_timeline")
        print(f"  highest timestamp issued: {h.fetchone()[0]}")


def timeline(conninfo, schema, at_least):
    with psycopg.connect(conninfo, autocommit=True) as conn:
        cur = conn.cursor()
        cur.execute(f"SELECT last_value FROM {schema}._muid_timeline")
        last = cur.fetchone()[0]
        check(last >= at_least, f"timeline after a crash: {last}, below {at_least} issued before it")
        cur.execute(f"SELECT {schema}.muid_timestamp_us({schema}.muid_new())")
        next_value = cur.fetchone()[0]
        check(next_value > at_least, f"muid_new after a crash: {next_value}, not past {at_least}")
        print(f"  after a crash restart: timeline at {last} (issued before: {at_least}), next muid_new {next_value}")


# ---- differential -------------------------------------------------------------------------------

# Per function: (SQL call with {s} for the schema and a..e for the input columns, their types).
# (OFFSET 0 keeps a subquery's value computed once, not pulled up into each decoder's call.)
FUNCTIONS = {
    "sno_from_parts": ("{s}.sno_from_parts(a, b, c, d, e)::text", "timestamptz, integer, integer, integer, boolean"),
    "sno_floor": ("{s}.sno_floor(a)::text", "timestamptz"),
    "sno_text": ("a::{s}.sno::text", "text"),
    "sno_from_bytea": ("{s}.sno_from_bytea(a)::text", "bytea"),
    "sno_decode": ("pg_catalog.concat_ws(' ', {s}.sno_time(x), {s}.sno_meta(x), {s}.sno_partition(x), {s}.sno_sequence(x), {s}.sno_tick(x), {s}.sno_to_bytea(x), {s}.sno_cmp(x, y), {s}.sno_lt(x, y), {s}.sno_smaller(x, y)) FROM (SELECT {s}.sno_from_bytea(a) AS x, {s}.sno_from_bytea(b) AS y OFFSET 0) AS v", "bytea, bytea"),
    "muid_pack": ("{s}.muid_pack(a, b, c)::text", "bigint, bigint, integer"),
    "muid_pack_time": ("{s}.muid_pack(a, b, c)::text", "timestamptz, bigint, integer"),
    "muid_parse": ("{s}.muid_parse(a)::text", "text"),
    "muid_decode": ("pg_catalog.concat_ws(' ', {s}.muid_timestamp_us(a), {s}.muid_timestamp(a), {s}.muid_medallion(a), {s}.muid_offset(a), {s}.muid_text(a), {s}.muid_unpack(a))", "uuid"),
    "uid8_from_parts": ("{s}.uid8_from_parts(a, b, c, d, e::text::{s}.uid8_mode)", "bigint, integer, integer, integer, text"),
    "uid8_from_bytea": ("{s}.uid8_from_bytea(a)", "bytea"),
    "uid8_decode": ("pg_catalog.concat_ws(' ', {s}.uid8_timestamp(a), {s}.uid8_sequence(a), {s}.uid8_generator(a), {s}.uid8_cluster(a), {s}.uid8_mode(a), {s}.uid8_to_bytea(a))", "bigint"),
    "comb_text": ("{s}.comb_text(a, b)", "uuid, text"),
    "comb_parse": ("{s}.comb_parse(a, b)::text", "text, text"),
    "typeid_text": ("{s}.typeid_text(a, b)", "uuid, text"),
    "typeid_parse": ("{s}.typeid_parse(a)::text || ' ' || {s}.typeid_prefix(a)", "text"),
    "typeid_parse_expected": ("{s}.typeid_parse(a, b)::text", "text, text"),
    "uid8_text": ("{s}.uid8_text(a)", "bigint"),
    "uid8_parse": ("{s}.uid8_parse(a)::text", "text"),
    "comb_mask": ("{s}.comb_mask(a, b::{s}.comb_format, c)::text", "uuid, text, bytea"),
    "comb_unmask": ("{s}.comb_unmask(a, b::{s}.comb_format, c)::text", "uuid, text, bytea"),
    # Real façades: what comb_mask makes, unmasked again.
    "comb_mask_both_ways": ("{s}.comb_unmask({s}.comb_mask(a, b::{s}.comb_format, c), b::{s}.comb_format, c)::text", "uuid, text, bytea"),
    # The Feistel families: each id masked, and unmasked back (the result shows both).
    "muid_mask": ("{s}.muid_mask(a, b)::text || ' ' || {s}.muid_unmask({s}.muid_mask(a, b), b)::text || ' ' || {s}.muid_unmask(a, b)::text", "uuid, bytea"),
    "sno_mask": ("{s}.sno_mask(x, b)::text || ' ' || {s}.sno_unmask({s}.sno_mask(x, b), b)::text || ' ' || {s}.sno_unmask(x, b)::text FROM (SELECT {s}.sno_from_bytea(a) AS x OFFSET 0) AS v", "bytea, bytea"),
    "uid8_mask": ("{s}.uid8_mask(a, b)::text || ' ' || {s}.uid8_unmask({s}.uid8_mask(a, b), b)::text || ' ' || {s}.uid8_unmask(a, b)::text", "bigint, bytea"),
}
# COMB_EXT_DIFF_ONLY=name,name runs only those (while working on them); the test command runs all.
ONLY = [n for n in os.environ.get("COMB_EXT_DIFF_ONLY", "").split(",") if n]
# Functions whose errors must agree in message and hint as well as SQLSTATE: the text forms name the first
# bad position, and both editions word it alike.
MESSAGES = {"comb_text", "comb_parse", "typeid_text", "typeid_parse", "typeid_parse_expected", "uid8_parse",
            "comb_mask", "comb_unmask", "comb_mask_both_ways", "muid_mask", "sno_mask", "uid8_mask"}

SNO_ALPHABET = "23456789abcdefghijklmnopqrstuvwx"


def pick(rng, choices):
    """One of (weight, maker) pairs."""
    total = sum(w for w, _ in choices)
    x = rng.uniform(0, total)
    for w, make in choices:
        x -= w
        if x <= 0:
            return make()
    return choices[-1][1]()


def int_in(rng, lo, hi, edge_lo, edge_hi):
    """Mostly in [lo, hi], sometimes on or just past an edge, sometimes anywhere in the type."""
    return pick(rng, [(80, lambda: rng.randint(lo, hi)),
                      (10, lambda: rng.choice([lo, hi, lo - 1, hi + 1])),
                      (10, lambda: rng.randint(edge_lo, edge_hi))])


def timestamp(rng, lo_us, hi_us):
    """µs since 1970 as timestamptz text: mostly in [lo, hi], or an edge, or anywhere PostgreSQL holds."""
    return pick(rng, [
        (80, lambda: rng.randint(lo_us, hi_us)),
        (10, lambda: rng.choice([lo_us, hi_us, lo_us - 1, hi_us + 1, lo_us + 1, hi_us - 1])),
        # Anywhere PostgreSQL holds (its range is 4714-11-24 BC to 294276 AD, in µs since 1970
        # -210866803200000000 to 9224318015999999999, past bigint), and the extremes.
        (8, lambda: rng.randint(-210866803200000000 + 10**6, 9200000000000000000)),
        (2, lambda: rng.choice(["infinity", "-infinity", "294276-12-31 23:59:59.999999+00", "4714-11-24 00:00:00+00 BC"])),
    ])


def ts_text(v):
    if isinstance(v, str):
        return v
    # Exact: whole seconds as an epoch offset, then the µs.
    return f"epoch:{v}"


def inputs(rng, name, cases):
    rows = []
    u32 = lambda: rng.getrandbits(32) - 2**31
    for _ in range(cases):
        if name == "sno_from_parts":
            rows.append((ts_text(timestamp(rng, 1262304000000000, 3461327255551999)),
                         int_in(rng, 0, 255, -2**31, 2**31 - 1), int_in(rng, 0, 65535, -2**31, 2**31 - 1),
                         int_in(rng, 0, 65535, -2**31, 2**31 - 1), rng.random() < 0.5))
        elif name == "sno_floor":
            rows.append((ts_text(timestamp(rng, 1262304000000000, 3461327255548000)),))
        elif name == "sno_text":
            good = "".join(rng.choice(SNO_ALPHABET) for _ in range(16))
            rows.append((pick(rng, [
                (60, lambda: good),
                (15, lambda: good[:rng.randint(0, 15)] + rng.choice("01yzAXZ-_ !\u00e9") + good[rng.randint(0, 16):]),
                (10, lambda: good.upper()),
                (15, lambda: "".join(rng.choice(SNO_ALPHABET + "01yz") for _ in range(rng.choice([15, 16, 17])))),
            ]),))
        elif name == "sno_from_bytea":
            rows.append((rng.randbytes(pick(rng, [(90, lambda: 10), (10, lambda: rng.randint(0, 20))])),))
        elif name == "sno_decode":
            rows.append((rng.randbytes(10), rng.randbytes(10)))
        elif name == "muid_pack":
            rows.append((int_in(rng, -1, 2**52 - 1, -2**63, 2**63 - 1), int_in(rng, -1, 2**44 - 1, -2**63, 2**63 - 1), u32()))
        elif name == "muid_pack_time":
            rows.append((ts_text(timestamp(rng, 0, 2**52 - 2)), int_in(rng, -1, 2**44 - 1, -2**63, 2**63 - 1), u32()))
        elif name == "muid_parse":
            t, m, o = rng.getrandbits(52), rng.getrandbits(44), rng.getrandbits(32)
            good = f"{t:013X}-{m:011X}-{o:08X}"
            rows.append((pick(rng, [
                (40, lambda: good if rng.random() < 0.5 else good.lower()),
                (10, lambda: good[:27]),
                (10, lambda: good[:13]),
                (25, lambda: (lambda k: good[:k] + rng.choice("G-x_ 0") + good[k + 1:])(rng.randrange(len(good)))),
                (15, lambda: good[:rng.randrange(len(good))]),
            ]),))
        elif name == "muid_decode":
            # Random, or the sentinels' edges: all bits set in timestamp and/or medallion.
            rows.append((str(uuid.UUID(bytes=rng.randbytes(16))) if rng.random() < 0.95
                         else rng.choice(["ffffffff-ffff-ffff-ffff-ffffffffffff", "00000000-0000-0000-0000-000000000000",
                                          "ffffffff-ffff-f000-0000-000000000000", "00000000-0000-0fff-ffff-ffff00000000",
                                          "ffffffff-ffff-efff-ffff-ffff00000000"]),))
        elif name == "uid8_from_parts":
            rows.append((int_in(rng, 0, 2**42 - 1, -2**63, 2**63 - 1), int_in(rng, 0, 63, -2**31, 2**31 - 1),
                         int_in(rng, 0, 2047, -2**31, 2**31 - 1), int_in(rng, 0, 15, -2**31, 2**31 - 1),
                         rng.choice(["spread", "time_sequential"])))
        elif name == "uid8_from_bytea":
            rows.append((rng.randbytes(pick(rng, [(90, lambda: 8), (10, lambda: rng.randint(0, 16))])),))
        elif name == "uid8_decode":
            rows.append((rng.getrandbits(64) - 2**63,))
        elif name == "comb_text":
            rows.append((random_uuid(rng), pick(rng, [(90, lambda: rng.choice(ENCODINGS)), (10, lambda: rng.choice(BAD_ENCODINGS))])))
        elif name == "comb_parse":
            encoding = rng.choice(ENCODINGS)
            rows.append((mutated(rng, uuid_text(random_uuid(rng), encoding), encoding),
                         pick(rng, [(97, lambda: encoding), (3, lambda: rng.choice(BAD_ENCODINGS))])))
        elif name == "typeid_text":
            rows.append((random_uuid(rng), typeid_prefix(rng)))
        elif name in ("typeid_parse", "typeid_parse_expected"):
            prefix = typeid_prefix(rng, valid=rng.random() < 0.9)
            suffix = mutated(rng, uuid_text(random_uuid(rng), "crockford").lower(), "typeid")
            text = pick(rng, [(70, lambda: (prefix + "_" if prefix else "") + suffix),
                              (10, lambda: "_" + suffix), (10, lambda: prefix + "_"), (10, lambda: rng.choice(TYPEID_SPEC_STRINGS))])
            expected = pick(rng, [(60, lambda: prefix), (20, lambda: typeid_prefix(rng)), (10, lambda: ""),
                                  (10, lambda: typeid_prefix(rng, valid=False))])
            rows.append((text, expected) if name == "typeid_parse_expected" else (text,))
        elif name == "uid8_text":
            rows.append((pick(rng, [(90, lambda: rng.getrandbits(64) - 2**63), (10, lambda: rng.choice([-2**63, -1, 0, 1, 2**63 - 1]))]),))
        elif name == "uid8_parse":
            rows.append((mutated(rng, uid8_text(rng.getrandbits(64) - 2**63), "uid8"),))
        elif name in ("comb_mask", "comb_unmask", "comb_mask_both_ways"):
            label = pick(rng, [(95, lambda: rng.choice(COMB_FORMATS)), (5, lambda: rng.choice(["UUIDv7", "", "ticks ", "v7"]))])
            form = label if label in COMB_FORMATS else rng.choice(COMB_FORMATS)
            key = rng.randbytes(pick(rng, [(95, lambda: 16), (5, lambda: rng.choice([0, 8, 15, 17, 32]))]))
            rows.append((comb_like(rng, form, facade=name == "comb_unmask"), label, key))
        elif name in ("muid_mask", "sno_mask", "uid8_mask"):
            key = rng.randbytes(pick(rng, [(95, lambda: 16), (5, lambda: rng.choice([0, 8, 15, 17, 32]))]))
            value = {"muid_mask": lambda: random_uuid(rng), "sno_mask": lambda: rng.randbytes(10),
                     "uid8_mask": lambda: pick(rng, [(90, lambda: rng.getrandbits(64) - 2**63), (10, lambda: rng.choice([-2**63, -1, 0, 1, 2**63 - 1]))])}[name]()
            rows.append((value, key))
    return rows


COMB_FORMATS = ["postgresql", "sqlserver", "legacy", "binary", "postgresql_sqldatetime", "binary_sqldatetime", "ticks", "uuidv7"]


def comb_like(rng, form, facade):
    """A uuid for comb_mask (or, facade, comb_unmask) in `form`: mostly with the fixed bits it takes
    and a time field its clock holds, sometimes a field past it, sometimes any uuid."""
    b = bytearray(rng.randbytes(16))
    if rng.random() < 0.1:
        return random_uuid(rng)
    if rng.random() < 0.9:
        if form == "ticks":
            b[7] = 0xC0 | (b[7] & 0x0F)
        else:
            b[6] = (7 if form == "uuidv7" and not facade else 4) << 4 | (b[6] & 0x0F)
            b[8] = 0x80 | (b[8] & 0x3F)
    if rng.random() < 0.85:
        if form == "ticks":
            field, positions = rng.randint(0, 3155378975999999999), [10, 11, 12, 13, 14, 15, 8, 9]
        else:
            if form.endswith("sqldatetime") or form == "legacy":
                field = rng.randint(0, 65535) << 32 | rng.choice([rng.randint(0, 25920000), 25920000, 25920001])
            else:
                field = rng.randint(0, 2**48 - 1 if form == "uuidv7" else rng.choice([253402300799999, 253402300800000]))
            positions = {"sqlserver": [10, 11, 12, 13, 14, 15], "legacy": [10, 11, 12, 13, 14, 15],
                         "binary": [3, 2, 1, 0, 5, 4], "binary_sqldatetime": [3, 2, 1, 0, 5, 4]}.get(form, [0, 1, 2, 3, 4, 5])
        for i, position in enumerate(positions):
            b[position] = field >> (8 * (len(positions) - 1 - i)) & 255
    return str(uuid.UUID(bytes=bytes(b)))


# ---- inputs of the text forms (the reference is the compiled edition; these only make cases) -----

ENCODINGS = ["base32hex", "crockford"]
BAD_ENCODINGS = ["ulid", "Crockford", "BASE32HEX", "", "base32", "base32hex ", "hex"]
BASE32HEX_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUV"
CROCKFORD_DIGITS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
# Characters no form takes, and letters only some take.
STRANGERS = "-_ =./:@[`{~\t\né€😀ʼ" + "WXYZwxyzUuIiLlOo"
TYPEID_SPEC_STRINGS = [e["typeid"] for name in ("valid", "invalid") for e in load(f"typeid/{name}.json")]


def random_uuid(rng):
    return pick(rng, [(90, lambda: str(uuid.UUID(bytes=rng.randbytes(16)))),
                      (10, lambda: rng.choice(["00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
                                               "80000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000001"]))])


def uuid_text(u, encoding):
    v = uuid.UUID(u).int
    if encoding == "base32hex":
        return "".join(BASE32HEX_DIGITS[(v << 2 >> (125 - 5 * i)) & 31] for i in range(26))
    return "".join(CROCKFORD_DIGITS[(v >> (125 - 5 * i)) & 31] for i in range(26))


def uid8_text(i):
    u = (i % 2**64) ^ (1 << 63)
    return "".join(CROCKFORD_DIGITS[(u >> (60 - 5 * k)) & 31] for k in range(13))


def mutated(rng, good, form):
    """`good` as is, in the other case, with aliases, or broken: a character replaced, a length changed, the
    first digit past its top, a base32hex last digit with low bits, garbage."""
    digits = BASE32HEX_DIGITS if form == "base32hex" else CROCKFORD_DIGITS
    at = rng.randrange(len(good))
    return pick(rng, [
        (35, lambda: good),
        (10, lambda: good.lower() if form != "typeid" else good.upper()),
        (5, lambda: "".join(rng.choice([c, c.lower(), c.upper()]) for c in good)),
        (5, lambda: good.replace("1", rng.choice("IiLl")).replace("0", rng.choice("Oo"))),
        (15, lambda: good[:at] + rng.choice(STRANGERS) + good[at + 1:]),
        (5, lambda: good[:at] + rng.choice(digits) + good[at:]),
        (5, lambda: good[:at] + good[at + 1:]),
        (5, lambda: rng.choice("89ABCDEFGHJKMNPQRSTVWXYZabcz") + good[1:]),
        (5, lambda: good[:-1] + rng.choice(digits)),
        (5, lambda: good + "=" * rng.choice([0, 6])),
        (5, lambda: "".join(rng.choice(digits + STRANGERS) for _ in range(rng.choice([0, 1, 12, 13, 25, 26, 27])))),
    ])


def typeid_prefix(rng, valid=None):
    """A TypeID prefix: mostly valid (empty, short, underscores inside, 63 letters), or broken."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    good = lambda: pick(rng, [
        (10, lambda: ""),
        (60, lambda: "".join(rng.choice(letters) for _ in range(rng.randint(1, 12)))),
        (20, lambda: rng.choice(letters) + "".join(rng.choice(letters + "__") for _ in range(rng.randint(0, 10))) + rng.choice(letters)),
        (10, lambda: "".join(rng.choice(letters) for _ in range(63))),
    ])
    if valid is None:
        valid = rng.random() < 0.8
    if valid:
        return good()
    base = good() or "user"
    at = rng.randrange(len(base))
    return pick(rng, [
        (25, lambda: base[:at] + rng.choice("ABZ09.-é ") + base[at + 1:]),
        (15, lambda: "_" + base),
        (15, lambda: base + "_"),
        (10, lambda: "_"),
        (10, lambda: "".join(rng.choice(letters) for _ in range(64))),
        (10, lambda: base.upper()),
        (15, lambda: base[:at] + "_" + base[at:]),
    ])


def diff(conninfo, compiled, portable, cases, seed):
    rng = random.Random(seed)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        cur = conn.cursor()
        cur.execute("SET TimeZone = 'UTC'")
        cur.execute("CREATE TEMP TABLE diff_input (n integer, a text, b text, c text, d text, e text)")
        # Same names and signatures: every public function of the SQL edition exists in the compiled
        # one with the same argument names, types and defaults and the same result (the schema aside).
        cur.execute("""
            SELECT p.proname, pg_catalog.replace(pg_catalog.pg_get_function_arguments(p.oid), n.nspname || '.', ''),
                   pg_catalog.replace(pg_catalog.pg_get_function_result(p.oid), n.nspname || '.', '')
            FROM pg_catalog.pg_proc AS p JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
            WHERE n.nspname = %s AND p.proname NOT LIKE '\\_%%' AND p.proname <> ALL (%s) ORDER BY 1, 2""", (portable, SQL_ONLY))
        ours = cur.fetchall()
        missing = []
        for name, arguments, result in ours:
            cur.execute("""
                SELECT count(*) FROM pg_catalog.pg_proc AS p JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
                WHERE n.nspname = %s AND p.proname = %s
                  AND pg_catalog.replace(pg_catalog.pg_get_function_arguments(p.oid), n.nspname || '.', '') = %s
                  AND pg_catalog.replace(pg_catalog.pg_get_function_result(p.oid), n.nspname || '.', '') = %s""",
                        (compiled, name, arguments, result))
            if cur.fetchone()[0] != 1:
                missing.append(f"{name}({arguments}) -> {result}")
        check(not missing, f"signatures the compiled edition does not have: {missing}")
        print(f"  signatures: {len(ours) - len(missing)} of {len(ours)} public functions of the SQL edition have the compiled edition's arguments, defaults and result")
        total_cases = total_errors = 0
        for name, (call, types) in FUNCTIONS.items():
            if ONLY and name not in ONLY:
                continue
            started = time.monotonic()
            types = [t.strip() for t in types.split(",")]
            rows = inputs(rng, name, cases)
            cur.execute("TRUNCATE diff_input")
            with cur.copy("COPY diff_input (n, a, b, c, d, e) FROM STDIN") as copy:
                for n, row in enumerate(rows):
                    cells = []
                    for t, v in zip(types, row):
                        if t == "bytea":
                            v = "\\x" + v.hex()
                        elif t == "timestamptz" and isinstance(v, str) and v.startswith("epoch:"):
                            v = v  # turned into a timestamptz exactly in SQL below
                        cells.append(str(v).lower() if isinstance(v, bool) else str(v))
                    cells += [None] * (5 - len(cells))
                    copy.write_row([n] + cells)
            # Typed columns: "epoch:N" timestamps become 'epoch' + N µs (exact below 2^53 µs, year 2255; beyond, both editions get the same rounded value).
            casts = []
            for col, t in zip("abcde", types):
                if t == "timestamptz":
                    casts.append(f"CASE WHEN {col} LIKE 'epoch:%' THEN timestamptz 'epoch' + pg_catalog.substr({col}, 7)::bigint * interval '1 microsecond' ELSE {col}::timestamptz END AS {col}")
                else:
                    casts.append(f"{col}::{t} AS {col}")
            # One function per side, each call in a savepoint (BEGIN ... EXCEPTION): the result or 'ERROR sqlstate'.
            for side, schema in (("c", compiled), ("p", portable)):
                body = call.format(s=schema)
                select = f"SELECT {body}" if " FROM " in body else f"SELECT {body}"
                params = ", ".join(f"{col} {t}" for col, t in zip("abcde", types))
                # Enum input names the type with its schema where that is not on the search_path (here
                # neither is): the schemas' names aside, the messages must agree.
                error = (f"'ERROR ' || SQLSTATE || ': ' || pg_catalog.replace(SQLERRM, 'enum {schema}.', 'enum ') || ' HINT: ' || coalesce(hint, '')"
                         if name in MESSAGES else "'ERROR ' || SQLSTATE")
                cur.execute(f"""CREATE OR REPLACE FUNCTION pg_temp.try_{side}({params}) RETURNS text LANGUAGE plpgsql AS $f$
                    DECLARE r text; hint text;
                    BEGIN
                        {select} INTO r;
                        RETURN coalesce(r, 'NULL');
                    EXCEPTION WHEN OTHERS THEN
                        GET STACKED DIAGNOSTICS hint = PG_EXCEPTION_HINT;
                        RETURN {error};
                    END $f$""")
            args = ", ".join(c for c, _ in zip("abcde", types))
            # Out-of-range timestamps fail already in the input cast ('epoch' + huge): such rows are
            # made NULL first and counted apart; the functions are STRICT in both editions.
            cur.execute(f"""
                WITH typed AS (SELECT n, {', '.join(casts)} FROM diff_input),
                     results AS (SELECT n, pg_temp.try_c({args}) AS c, pg_temp.try_p({args}) AS p FROM typed)
                SELECT count(*), count(*) FILTER (WHERE c IS DISTINCT FROM p), count(*) FILTER (WHERE c LIKE 'ERROR%'),
                       pg_catalog.string_agg(DISTINCT CASE WHEN c LIKE 'ERROR%' THEN pg_catalog.substr(c, 1, 11) END, ','),
                       (pg_catalog.array_agg(pg_catalog.format('%s: compiled %s, sql %s', n, c, p)) FILTER (WHERE c IS DISTINCT FROM p))[1:5]
                FROM results""")
            n, differences, errors, codes, examples = cur.fetchone()
            total_cases += n
            total_errors += errors
            elapsed = time.monotonic() - started
            print(f"  {name}: {n} cases, {differences} differences, {errors} errors in both ({codes or 'none'}), {elapsed:.1f} s")
            check(differences == 0, f"{name}: {differences} differences, e.g. {examples}")
            check(n == cases, f"{name}: {n} cases run of {cases}")
        check(not ONLY or set(ONLY) <= set(FUNCTIONS), f"COMB_EXT_DIFF_ONLY names no function: {ONLY}")
        print(f"  total: {total_cases} cases, {total_errors} of them errors")
        medallion_settings(cur, compiled, portable, rng)


# Functions only the SQL edition has: the compiled edition's medallion is the superuser setting
# comb_ext.medallion, which the SQL edition cannot trust (any session can set a placeholder).
SQL_ONLY = ["muid_set_medallion"]


def medallion_settings(cur, compiled, portable, rng):
    """The medallions the compiled edition's setting accepts are the ones muid_set_medallion pins, and
    muid_new writes the pinned one: edges and random integers around the range, SQLSTATEs compared."""
    values = [-2**63, -2, -1, 0, 1, 2**40, 2**44 - 3, 2**44 - 2, 2**44 - 1, 2**44, 2**63 - 1]
    values += [rng.randrange(-2**45, 2**45) for _ in range(200)] + [rng.randrange(2**44 - 1000, 2**44 + 1000) for _ in range(100)]
    differences = 0
    cur.execute(f"SELECT {compiled}.muid_pack(0, 0) IS NOT NULL")  # the library loaded: its setting checked, not a placeholder
    for v in values:
        compiled_result = outcome(cur, "SELECT pg_catalog.set_config('comb_ext.medallion', %s, false)", (str(v),))
        cur.execute("RESET comb_ext.medallion")
        sql_result = outcome(cur, f"SELECT {portable}.muid_medallion({portable}.muid_new()) = %s::bigint "
                                  f"FROM (SELECT {portable}.muid_set_medallion(%s::bigint)) AS pinned", (v, v))
        ok_c, ok_p = compiled_result[0] == "ok", sql_result == ("ok", True)
        same = (ok_c and ok_p) or (not ok_c and sql_result[0] == "error" and compiled_result[1] == sql_result[1])
        if not same:
            differences += 1
            check(False, f"medallion {v}: compiled setting {compiled_result}, muid_set_medallion {sql_result}")
    cur.execute(f"SELECT {portable}.muid_set_medallion(NULL) IS NOT NULL")
    accepted = sum(1 for v in values if 0 <= v <= 2**44 - 2)
    print(f"  medallion settings: {len(values)} values ({accepted} in range), the compiled setting and muid_set_medallion "
          f"(then muid_new's medallion) agree on {len(values) - differences}, SQLSTATEs included")


def main():
    started = time.monotonic()
    if len(sys.argv) >= 4 and sys.argv[1] == "vectors":
        vectors(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 7 and sys.argv[1] == "generator":
        generator(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]))
    elif len(sys.argv) == 5 and sys.argv[1] == "timeline":
        timeline(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif len(sys.argv) >= 6 and sys.argv[1] == "diff":
        diff(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]) if len(sys.argv) > 6 else 22)
    else:
        sys.exit(__doc__)
    print(f"  {'FAILED' if failures else 'passed'}: {len(failures)} differences, {time.monotonic() - started:.1f} s")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
