"""Behaviour of the SQL edition's COMB family (portable/comb.sql) that no vector covers, in a database
without the compiled extension: the generator (per-session order in every format, the fraction bits,
each value's bits as the deterministic core _comb_at writes them, the session state and a clock that
stepped back, rolled-back transactions, two sessions interleaving by time, parallel plans), the
comb_uuid(text) overload, NULLs, and comb_in_range and the SQL Server key in EXPLAIN: inlined into
comparisons served by a btree index, an expression index on uuid_sqlserver_key(id) and partition
pruning at plan time and at executor start. On PostgreSQL 18, uuidv7 against the server's own
uuidv7() and uuid_extract_timestamp().

Command line:
    /var/cache/comb_ext/venv/bin/python tests/portable_comb_behaviour.py CONNINFO SCHEMA [COUNT] [--install]
CONNINFO is a libpq connection string; SCHEMA is where the SQL edition is installed (--install
(re)creates it from portable/comb.sql, for development); COUNT (default 5000: about 6 s) is the values per
format the generator checks make. The role needs TEMP (it makes temporary tables). Prints one summary line starting
"portable_comb_behaviour:" and exits 1 on any failure.
"""

import argparse
import os
import sys
import time

import psycopg

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORMATS = ["postgresql", "sqlserver", "legacy", "binary", "postgresql_sqldatetime", "binary_sqldatetime", "ticks", "uuidv7"]
SQLDT = ("legacy", "postgresql_sqldatetime", "binary_sqldatetime")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("conninfo")
    parser.add_argument("schema")
    parser.add_argument("count", type=int, nargs="?", default=5_000)
    parser.add_argument("--install", action="store_true")
    args = parser.parse_args()
    s = args.schema
    started = time.monotonic()

    def connect():
        conn = psycopg.connect(args.conninfo, autocommit=True)
        conn.execute("SET client_min_messages = warning")
        conn.execute("SET TimeZone = 'UTC'")
        return conn

    conn = connect()
    if args.install:
        conn.execute(f"DROP SCHEMA IF EXISTS {s} CASCADE")
        conn.execute(f"CREATE SCHEMA {s}")
        with open(os.path.join(REPO, "portable", "comb.sql")) as source:
            conn.execute(source.read().replace("@extschema@", s))
    major = int(conn.execute("SELECT current_setting('server_version_num')::int / 10000").fetchone()[0])
    failures, passed, notes = [], [0], []

    def check(name, query, expected, params=None, on=None):
        got = (on or conn).execute(query, params).fetchone()
        got = got[0] if len(got) == 1 else tuple(got)
        if got != expected:
            failures.append(f"  {name}: expected {expected!r}, got {got!r}")
        else:
            passed[0] += 1
        return got

    def sqlstate(statement, on=None):
        try:
            (on or conn).execute(statement)
            return "accepted"
        except psycopg.Error as error:
            return error.sqlstate

    # Keys whose native order is each format's order.
    def key(fmt, expr):
        if fmt in ("sqlserver", "legacy", "ticks"):
            return f"{s}.uuid_sqlserver_key({expr})"
        if fmt in ("binary", "binary_sqldatetime"):
            return f"{s}.uuid_binary_key({expr})"
        return expr

    # A value's position on its clock, read back from its bits (units * 4096 + counter; ticks).
    def position(fmt, expr):
        hi, lo = f"{s}._comb_hi({expr})", f"{s}._comb_lo({expr})"
        counter = {"postgresql": f"({hi} & 4095)", "postgresql_sqldatetime": f"({hi} & 4095)", "uuidv7": f"({hi} & 4095)",
                   "sqlserver": f"(({lo} >> 50) & 4095)", "legacy": f"(({lo} >> 50) & 4095)",
                   "binary": f"((({hi} & 255) << 4) | (({hi} >> 8) & 15))",
                   "binary_sqldatetime": f"((({hi} & 255) << 4) | (({hi} >> 8) & 15))"}
        ts = f"{s}.comb_timestamp({expr}, '{fmt}')"
        if fmt == "ticks":
            # The ticks are written whole: bytes 10-15 then 8-9.
            return f"((({lo} & 281474976710655) << 16) | (({lo} >> 48) & 65535))"
        units = f"({s}._comb_position('t', {s}._comb_us({ts}), '{fmt}') >> 12)"
        return f"({units} * 4096 + {counter[fmt]})"

    # --- Generator: per format, COUNT values in one statement, then the same across statements.
    # comb_uuid() has a path of its own: checked as a format of its own (its values are postgresql's).
    for fmt, call in [(f, f"{s}.comb_uuid('{f}'::{s}.comb_format)") for f in FORMATS] + [("postgresql", f"{s}.comb_uuid()")]:
        conn.execute("DROP TABLE IF EXISTS g")
        conn.execute(f"""CREATE TEMP TABLE g AS
                         SELECT n, clock_timestamp() AS before, {call} AS id, clock_timestamp() AS after
                         FROM generate_series(1, %s) n""", [args.count])
        conn.execute(f"INSERT INTO g SELECT {args.count} + n, clock_timestamp(), {call}, clock_timestamp() "
                     f"FROM generate_series(1, 3) n")
        label = fmt if "::" in call else "comb_uuid()"
        total = args.count + 3
        check(f"{label}: strictly increasing in the format's order",
              f"SELECT count(*) FILTER (WHERE prev < k) FROM (SELECT {key(fmt, 'id')} AS k, "
              f"lag({key(fmt, 'id')}) OVER (ORDER BY n) AS prev FROM g) x", total - 1)
        # The decoded time is the clock unit of a reading between the ones around the call, or
        # later when the counter borrowed the next unit (at most the values made in a unit).
        unit = "interval '1 ms'" if fmt not in SQLDT else "interval '3334 microseconds'"
        if fmt == "ticks":
            unit = "interval '1 microsecond'"
        check(f"{label}: decodes to the time it was made",
              f"""SELECT count(*) FROM g WHERE {s}.comb_timestamp(id, '{fmt}') > before - {unit}
                                           AND {s}.comb_timestamp(id, '{fmt}') <= after + {unit} * 2""", total)
        # Every bit where _comb_at (the deterministic core, compared with the compiled edition by
        # tests/portable_diff.py) puts it: the value is a fixed point of _comb_at at its own position.
        check(f"{label}: each value is _comb_at of its own bits and position",
              f"SELECT count(*) FROM g WHERE {s}._comb_at(id, {position(fmt, 'id')}, '{fmt}') = id", total)
        # Time and counter together are the clock's position (units * 4096 + the fraction of the unit
        # in 1/4096; ticks for ticks): never before the clock reading taken before the call, and
        # after the one taken after it only when calls within one 1/4096 step took the next one.
        check(f"{label}: the position is the clock's, read during the call",
              f"""SELECT count(*) FILTER (WHERE {position(fmt, 'id')} >= {s}._comb_position('t', {s}._comb_us(before), '{fmt}')),
                         count(*) FILTER (WHERE {position(fmt, 'id')} <= {s}._comb_position('t', {s}._comb_us(after), '{fmt}'))
                           >= count(*) * 0.9
                  FROM g""", (total, True))
        check(f"{label}: no two values share a position", f"SELECT count(DISTINCT {position(fmt, 'id')}) FROM g", total)

    # --- Session state: the last position per format lives in comb_portable.next_<format>.
    check("state setting holds the last position + 1",
          f"""SELECT ({s}._comb_hi(id) >> 16) * 4096 + ({s}._comb_hi(id) & 4095) + 1
                     = current_setting('comb_portable.next_postgresql')::bigint
              FROM (SELECT {s}.comb_uuid() AS id) x""", True)
    # A clock that stepped back an hour is, to the generator, a last position an hour ahead: values
    # go on from it, strictly increasing, carrying the later time, until the clock passes it.
    ahead = conn.execute(f"""SELECT {s}._comb_position('t', {s}._comb_us(clock_timestamp() + interval '1 hour'), 'sqlserver')"""
                         ).fetchone()[0]
    conn.execute("SELECT set_config('comb_portable.next_sqlserver', %s, false)", [str(ahead + 1)])
    check("after a step back: values go on from the last one",
          f"""SELECT bool_and(k > lag_k OR lag_k IS NULL) AND bool_and(comb_timestamp >= now() + interval '59 minutes')
              FROM (SELECT {s}.uuid_sqlserver_key(id) AS k, lag({s}.uuid_sqlserver_key(id)) OVER (ORDER BY n) AS lag_k,
                           {s}.comb_timestamp(id, 'sqlserver') AS comb_timestamp
                    FROM (SELECT n, {s}.comb_uuid('sqlserver') AS id FROM generate_series(1, 5000) n) g) x""", True)
    check("after a step back: 5000 values took 5000 consecutive positions from the last",
          "SELECT current_setting('comb_portable.next_sqlserver')::bigint - %s", 5000, [ahead + 1])
    # comb_uuid()'s own path hands such a call to comb_uuid(format).
    ahead = conn.execute(f"""SELECT {s}._comb_position('t', {s}._comb_us(clock_timestamp() + interval '1 hour'), 'postgresql')"""
                         ).fetchone()[0]
    conn.execute("SELECT set_config('comb_portable.next_postgresql', %s, false)", [str(ahead + 1)])
    check("after a step back: comb_uuid() goes on from the last one too",
          f"""SELECT array_agg(({s}._comb_hi(id) >> 16) * 4096 + ({s}._comb_hi(id) & 4095) - %s ORDER BY n)
              FROM (SELECT n, {s}.comb_uuid() AS id FROM generate_series(1, 3) n) g""", [1, 2, 3], [ahead])
    # The counter runs out after 4096 values of one unit and borrows the next (ticks: next tick).
    at_top = conn.execute(f"SELECT ({s}._comb_position('t', {s}._comb_us(clock_timestamp() + interval '1 hour'), 'legacy') | 4095) - 1"
                          ).fetchone()[0]
    conn.execute("SELECT set_config('comb_portable.next_legacy', %s, false)", [str(at_top + 1)])
    check("counter at its top: the next unit",
          f"""SELECT array_agg(({s}._comb_position('t', {s}._comb_us({s}.comb_timestamp(id, 'legacy')), 'legacy') >> 12)
                               - (%s::bigint >> 12) ORDER BY n)
              FROM (SELECT n, {s}.comb_uuid('legacy') AS id FROM generate_series(1, 3) n) g""", [0, 1, 1], [at_top])
    # The end of the clock: the last unit's counter exhausted is 22008, naming the last unit.
    conn.execute("SELECT set_config('comb_portable.next_binary', %s, false)", [str(253_402_300_799_999 * 4096 + 4095 + 1)])
    check("past the clock's last unit: 22008", "SELECT %s", "22008", [sqlstate(f"SELECT {s}.comb_uuid('binary')")])
    # Back to the clock for the checks below.
    conn.execute("SELECT set_config('comb_portable.next_postgresql', %s, false)", [str(253_402_300_799_999 * 4096 + 4095 + 1)])
    check("past the clock's last unit: 22008 from comb_uuid() too", "SELECT %s", "22008", [sqlstate(f"SELECT {s}.comb_uuid()")])
    conn.execute("RESET comb_portable.next_binary; RESET comb_portable.next_sqlserver; RESET comb_portable.next_legacy; "
                 "RESET comb_portable.next_postgresql")
    # Settings follow transactions: the state of a rolled-back transaction is gone, and a setting
    # first made in one reads '' afterwards; generation goes on from the clock either way.
    with connect() as other:
        other.execute("BEGIN")
        other.execute(f"SELECT {s}.comb_uuid('binary_sqldatetime')")
        other.execute("ROLLBACK")
        check("after a rolled-back first use: the setting reads ''",
              "SELECT current_setting('comb_portable.next_binary_sqldatetime', true)", "", on=other)
        check("after a rolled-back first use: generation works",
              f"SELECT {s}.comb_uuid('binary_sqldatetime') IS NOT NULL", True, on=other)

    # --- Two sessions alternating: values of both sort in the order they were made.
    with connect() as a, connect() as b:
        made = []
        for i in range(400):
            made.append((a if i % 2 == 0 else b).execute(f"SELECT {s}.comb_uuid()::text").fetchone()[0])
        check("two sessions alternating: sorted by value = order made", "SELECT %s::uuid[] = array(SELECT unnest(%s::uuid[]) ORDER BY 1)",
              True, [made, made])

    # --- Parallel plans: comb_uuid is PARALLEL UNSAFE (set_config is refused in parallel mode), so a
    # query that would run in parallel runs serially and works.
    parallel_setting = "debug_parallel_query" if major >= 16 else "force_parallel_mode"
    with connect() as p:
        p.execute(f"SET {parallel_setting} = on")
        check("comb_uuid under a forced parallel plan", "SELECT %s", "accepted",
              [sqlstate(f"SELECT count({s}.comb_uuid('uuidv7')) FROM generate_series(1, 1000)", on=p)])
    # comb_uuid(ts, format) keeps no state: PARALLEL SAFE, as in the compiled edition.
    check("comb_uuid(), (format), (text) PARALLEL UNSAFE; comb_uuid(ts, format) PARALLEL SAFE",
          f"""SELECT string_agg(p.oid::regprocedure::text || ' ' || p.proparallel::text, ', ' ORDER BY p.oid::regprocedure::text)
              FROM pg_proc p WHERE p.pronamespace = '{s}'::regnamespace AND p.proname = 'comb_uuid'""",
          ", ".join(sorted([f"{s}.comb_uuid() u", f"{s}.comb_uuid(text) u", f"{s}.comb_uuid({s}.comb_format) u",
                            f"{s}.comb_uuid(timestamp with time zone,{s}.comb_format) s"])))

    # --- The text overload and NULLs.
    check("comb_uuid('sqlserver') resolves to the text overload", f"SELECT {s}.comb_uuid('sqlserver') IS NOT NULL", True)
    check("comb_uuid('mysql'): 22P02", "SELECT %s", "22P02", [sqlstate(f"SELECT {s}.comb_uuid('mysql')")])
    check("NULL in, NULL out",
          f"""SELECT {s}.comb_uuid(NULL::{s}.comb_format) IS NULL AND {s}.comb_uuid(NULL::text) IS NULL
                 AND {s}.comb_uuid(NULL::timestamptz) IS NULL AND {s}.comb_timestamp(NULL) IS NULL
                 AND {s}.comb_stamp(NULL, now()) IS NULL AND {s}.comb_floor(NULL) IS NULL AND {s}.comb_is_ticks(NULL) IS NULL
                 AND {s}.comb_in_range(NULL, now(), now()) IS NULL AND {s}.comb_in_range(gen_random_uuid(), NULL, now()) IS NULL
                 AND {s}.comb_in_range(gen_random_uuid(), now(), NULL) IS NULL
                 AND {s}.comb_in_range(gen_random_uuid(), now(), now(), NULL) IS NULL
                 AND {s}.uuid_sqlserver_key(NULL) IS NULL""", True)
    # With an empty search_path every function still finds what it uses (all of it qualified).
    with connect() as e:
        e.execute("SET search_path = ''")
        check("with search_path = '' everything runs",
              f"""SELECT {s}.comb_timestamp({s}.comb_uuid(), 'postgresql') IS NOT NULL
                     AND {s}.comb_in_range({s}.comb_uuid('ticks'), now() - interval '1 h', now() + interval '1 h', 'ticks')
                     AND {s}.comb_stamp(pg_catalog.gen_random_uuid(), now(), 'binary') IS NOT NULL
                     AND {s}.comb_floor(now(), 'legacy') IS NOT NULL
                     AND {s}.comb_uuid(now(), 'uuidv7') IS NOT NULL""", True, on=e)

    # --- comb_in_range in EXPLAIN: inlined into comparisons, with constant bounds for constant times.
    conn.execute("DROP TABLE IF EXISTS ev, ev_s, ev_p, ev_ps CASCADE")
    conn.execute(f"""CREATE TEMP TABLE ev AS SELECT {s}.comb_uuid(t) AS id, t FROM generate_series(
                     '2024-01-01 00:00+00'::timestamptz, '2025-12-31 00:00+00', interval '37 min') t""")
    conn.execute(f"CREATE TEMP TABLE ev_s AS SELECT {s}.comb_uuid(t, 'sqlserver') AS id, t FROM ev")
    conn.execute("CREATE INDEX ON ev (id)")
    conn.execute(f"CREATE INDEX ev_s_key ON ev_s ({s}.uuid_sqlserver_key(id))")
    conn.execute("ANALYZE ev, ev_s")
    lo, hi = "'2024-03-01 00:00+00'", "'2024-03-02 00:00+00'"

    def plan(query, settings=""):
        with conn.transaction() as tx:
            if settings:
                conn.execute(settings)
            lines = [r[0] for r in conn.execute("EXPLAIN (COSTS OFF) " + query)]
            raise psycopg.Rollback(tx)  # the settings go with it
        return "\n".join(lines)

    def plan_has(name, query, needles, forbidden=(), settings=""):
        text = plan(query, settings)
        missing = [n for n in needles if n not in text] + [f"not {f}" for f in forbidden if f in text]
        if missing:
            failures.append(f"  {name}: plan lacks {missing}:\n{text}")
        else:
            passed[0] += 1
        return text

    floor_lo = conn.execute(f"SELECT {s}.comb_floor({lo})::text").fetchone()[0]
    shown = plan_has("comb_in_range (postgresql) is an index range scan with constant bounds",
                     f"SELECT count(*) FROM ev WHERE {s}.comb_in_range(id, {lo}, {hi})",
                     ["Index", f"(id >= '{floor_lo}'::uuid)", "(id < '"], ["comb_in_range"], "SET LOCAL enable_seqscan = off")
    notes.append("EXPLAIN comb_in_range(id, lo, hi):\n" + shown)
    key_lo = conn.execute(f"SELECT {s}.uuid_sqlserver_key({s}.comb_floor({lo}, 'sqlserver'))::text").fetchone()[0]
    shown = plan_has("comb_in_range (sqlserver) uses the uuid_sqlserver_key index",
                     f"SELECT count(*) FROM ev_s WHERE {s}.comb_in_range(id, {lo}, {hi}, 'sqlserver')",
                     ["ev_s_key", f"({s}.uuid_sqlserver_key(id) >= '{key_lo}'::uuid)"], ["comb_in_range"],
                     "SET LOCAL enable_seqscan = off")
    notes.append("EXPLAIN comb_in_range(id, lo, hi, 'sqlserver'):\n" + shown)
    plan_has("#>=# uses the uuid_sqlserver_key index",
             f"SELECT count(*) FROM ev_s WHERE id OPERATOR({s}.#>=#) {s}.comb_floor({lo}, 'sqlserver')",
             ["ev_s_key", f"{s}.uuid_sqlserver_key(id) >="], [], "SET LOCAL enable_seqscan = off")
    plan_has("ORDER BY uuid_sqlserver_key(id) reads the index",
             f"SELECT id FROM ev_s ORDER BY {s}.uuid_sqlserver_key(id) LIMIT 5", ["Index Scan using ev_s_key"], ["Sort"],
             "SET LOCAL enable_seqscan = off")
    for fmt, table in (("postgresql", "ev"), ("sqlserver", "ev_s")):
        check(f"comb_in_range ({fmt}): the rows of the definition",
              f"""SELECT (SELECT count(*) FROM {table} WHERE {s}.comb_in_range(id, {lo}, {hi}, '{fmt}'))
                         = (SELECT count(*) FROM {table} WHERE {s}.comb_timestamp(id, '{fmt}') >= {lo}
                                                          AND {s}.comb_timestamp(id, '{fmt}') < {hi})
                     AND (SELECT count(*) FROM {table} WHERE {s}.comb_in_range(id, {lo}, {hi}, '{fmt}')) > 0""", True)
    check("NOT comb_in_range with a NULL bound selects nothing (NULL, as the compiled strict call)",
          f"SELECT count(*) FROM ev WHERE NOT {s}.comb_in_range(id, NULL, {hi})", 0)

    # Partitions by year on id, and on uuid_sqlserver_key(id): pruned at plan time for constants, at
    # executor start for now().
    conn.execute("CREATE TEMP TABLE ev_p (id uuid NOT NULL, t timestamptz) PARTITION BY RANGE (id)")
    conn.execute(f"CREATE TEMP TABLE ev_ps (id uuid NOT NULL, t timestamptz) PARTITION BY RANGE ({s}.uuid_sqlserver_key(id))")
    for y in (2024, 2025):
        conn.execute(f"""CREATE TEMP TABLE ev_p_{y} PARTITION OF ev_p FOR VALUES
                         FROM ({s}.comb_floor('{y}-01-01 00:00+00')) TO ({s}.comb_floor('{y + 1}-01-01 00:00+00'))""")
        conn.execute(f"""CREATE TEMP TABLE ev_ps_{y} PARTITION OF ev_ps FOR VALUES
                         FROM ({s}.uuid_sqlserver_key({s}.comb_floor('{y}-01-01 00:00+00', 'sqlserver')))
                         TO ({s}.uuid_sqlserver_key({s}.comb_floor('{y + 1}-01-01 00:00+00', 'sqlserver')))""")
    conn.execute(f"CREATE TEMP TABLE ev_p_later PARTITION OF ev_p FOR VALUES FROM ({s}.comb_floor('2026-01-01 00:00+00')) TO (MAXVALUE)")
    conn.execute(f"""CREATE TEMP TABLE ev_ps_later PARTITION OF ev_ps FOR VALUES
                     FROM ({s}.uuid_sqlserver_key({s}.comb_floor('2026-01-01 00:00+00', 'sqlserver'))) TO (MAXVALUE)""")
    conn.execute("INSERT INTO ev_p SELECT * FROM ev")
    conn.execute("INSERT INTO ev_ps SELECT * FROM ev_s")
    conn.execute(f"INSERT INTO ev_p SELECT {s}.comb_uuid(), now()")
    conn.execute(f"INSERT INTO ev_ps SELECT {s}.comb_uuid('sqlserver'), now()")
    conn.execute("ANALYZE ev_p, ev_ps")
    for fmt, table in (("postgresql", "ev_p"), ("sqlserver", "ev_ps")):
        shown = plan_has(f"partitions on {fmt}: pruned at plan time",
                         f"SELECT count(*) FROM {table} WHERE {s}.comb_in_range(id, {lo}, {hi}, '{fmt}')",
                         [f"{table}_2024"], [f"{table}_2025", f"{table}_later"])
        notes.append(f"EXPLAIN pruned ({fmt}):\n" + shown)
        shown = plan_has(f"partitions on {fmt}: pruned at executor start for now()",
                         f"SELECT count(*) FROM {table} WHERE {s}.comb_in_range(id, now() - interval '1 day', now() + interval '1 s', '{fmt}')",
                         ["Subplans Removed: 2", f"{table}_later", f"{s}.comb_range_lower("])
        notes.append(f"EXPLAIN run-time pruning ({fmt}):\n" + shown)
        check(f"partitions on {fmt}: now() range finds the row made now",
              f"SELECT count(*) FROM {table} WHERE {s}.comb_in_range(id, now() - interval '1 day', now() + interval '1 s', '{fmt}')", 1)

    # --- PostgreSQL 18: its uuidv7() and ours read alike.
    if major >= 18:
        check("PostgreSQL 18: uuid_extract_timestamp of ours = comb_timestamp, version 7",
              f"""SELECT count(*) FILTER (WHERE uuid_extract_timestamp(u) = {s}.comb_timestamp(u, 'uuidv7')
                                         AND uuid_extract_version(u) = 7)
                  FROM (SELECT {s}.comb_uuid('uuidv7') AS u FROM generate_series(1, 10000)
                        UNION ALL SELECT {s}.comb_uuid('1970-01-01 00:00+00'::timestamptz + i * interval '11 h 33 min 12.345678 s', 'uuidv7')
                        FROM generate_series(0, 9999) i) x""", 20000)
        check("PostgreSQL 18: comb_timestamp of uuidv7() = uuid_extract_timestamp",
              f"""SELECT count(*) FILTER (WHERE {s}.comb_timestamp(u, 'uuidv7') = uuid_extract_timestamp(u))
                  FROM (SELECT uuidv7(shift) AS u FROM unnest('{{0, -20 years, 1 ms, 70 years}}'::interval[]) shift,
                        generate_series(1, 2500)) x""", 10000)
    else:
        notes.append(f"SKIPPED on PostgreSQL {major}: no uuidv7()/uuid_extract_timestamp() before 18 to compare with")

    for line in failures:
        print(line)
    if os.environ.get("PORTABLE_SHOW_PLANS"):
        print("\n\n".join(notes))
    for note in notes:
        if note.startswith("SKIPPED"):
            print(note)
    print(f"portable_comb_behaviour: {passed[0]} checks passed, {len(failures)} failed, against schema {s} on PostgreSQL "
          f"{major} ({args.count:,} values per format) in {time.monotonic() - started:.1f} s")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
