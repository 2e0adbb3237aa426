"""Conformance of the SQL edition's COMB family (portable/comb.sql) with every COMB entry of
tests/vectors/, in a database without the compiled extension: RT.Comb 4.0.3's create.json,
decode.json and sqlguid_order.json, and seed 001's ticks.json (the same checks as tests/pg/comb.rs
and tests/pg/sqlserver_order.rs make of the compiled edition).

Command line:
    /var/cache/comb_ext/venv/bin/python tests/portable_comb_vectors.py CONNINFO SCHEMA [--install]
CONNINFO is a libpq connection string ("host=/tmp/x port=5432 user=u dbname=d"); SCHEMA is where the
SQL edition is installed (--install (re)creates that schema from portable/comb.sql first, for
development). Prints one summary line starting "portable_comb_vectors:" and exits 1 on any failure.
"""

import argparse
import json
import os
import sys

import psycopg

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VECTORS = os.environ.get("COMB_EXT_VECTORS", os.path.join(REPO, "tests", "vectors"))
# RT.Comb combos -> comb_format labels (tests/vectors/README.md).
COMBOS = """CASE e->>'combo' WHEN 'pg_unix' THEN 'postgresql' WHEN 'sql_unix' THEN 'sqlserver'
                             WHEN 'sql_sqldt' THEN 'legacy' WHEN 'bin_unix' THEN 'binary'
                             WHEN 'pg_sqldt' THEN 'postgresql_sqldatetime'
                             WHEN 'bin_sqldt' THEN 'binary_sqldatetime' END"""
DEPARTURE = "e->'tags' ?| array['ms_not_floor', 'day_rollover_quirk']"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("conninfo")
    parser.add_argument("schema")
    parser.add_argument("--install", action="store_true")
    args = parser.parse_args()
    s = args.schema
    conn = psycopg.connect(args.conninfo, autocommit=True)
    conn.execute("SET client_min_messages = warning")
    conn.execute("SET TimeZone = 'UTC'")
    if args.install:
        conn.execute(f"DROP SCHEMA IF EXISTS {s} CASCADE")
        conn.execute(f"CREATE SCHEMA {s}")
        with open(os.path.join(REPO, "portable", "comb.sql")) as source:
            conn.execute(source.read().replace("@extschema@", s))
    failures = []

    def check(name, query, expected):
        got = conn.execute(query).fetchone()
        got = got[0] if len(got) == 1 else tuple(got)
        if got != expected:
            failures.append(f"  {name}: expected {expected!r}, got {got!r}")
        return got

    # No compiled code: no comb_ext here, and every function of the edition is SQL or PL/pgSQL.
    check("comb_ext is not installed in this database",
          "SELECT count(*) FROM pg_extension WHERE extname = 'comb_ext'", 0)
    check("the edition's functions are all LANGUAGE sql or plpgsql",
          f"""SELECT count(*) FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
              WHERE p.pronamespace = '{s}'::regnamespace AND l.lanname NOT IN ('sql', 'plpgsql')""", 0)

    def load(relative):
        with open(os.path.join(VECTORS, relative)) as f:
            data = json.load(f)
        conn.execute("DROP TABLE IF EXISTS rows")
        conn.execute(f"""
            CREATE TEMP TABLE rows AS
            SELECT e, ({COMBOS})::{s}.comb_format AS f,
                   to_timestamp(((e->>'timestamp_unix_us')::bigint / 1000000)::float8)
                     + ((e->>'timestamp_unix_us')::bigint %% 1000000) * interval '1 microsecond' AS ts
            FROM jsonb_array_elements(%s::jsonb) e""", [json.dumps(data)])
        return len(data)

    def failing(condition):
        """Entries for which `condition` does not hold (false or NULL), as text; None when every one passes."""
        return f"SELECT string_agg(e::text, E'\\n') FROM rows WHERE ({condition}) IS NOT TRUE"

    conn.execute("""
        CREATE FUNCTION pg_temp.sqlstate(statement text) RETURNS text LANGUAGE plpgsql AS $f$
        BEGIN EXECUTE statement; RETURN 'accepted';
        EXCEPTION WHEN others THEN RETURN SQLSTATE; END $f$""")
    conn.execute("""
        CREATE FUNCTION pg_temp.from_unix_us(us numeric) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $f$
        SELECT to_timestamp(div(us, 1000000)::float8) + mod(us, 1000000)::int * interval '1 microsecond' $f$""")
    counted = {}

    # create.json: comb_stamp reproduces RT.Comb's Create(Guid, DateTime), but where RT.Comb's
    # double arithmetic lands one unit off floor(t / unit) (the documented departure): there ours
    # differs, decodes to the start of t's own unit, and RT.Comb's decodes elsewhere.
    counted["create.json"] = load("rtcomb/create.json")
    stamp = f"{s}.comb_stamp((e->>'base_guid')::uuid, ts, f)"
    check("create.json: 345 entries", "SELECT count(*) FROM rows", 345)
    check("create.json: exact entries", failing(f"{DEPARTURE} OR {stamp} = (e->>'comb')::uuid"), None)
    check("create.json: departures", failing(f"""NOT ({DEPARTURE}) OR ({stamp} <> (e->>'comb')::uuid
          AND {s}.comb_timestamp({stamp}, f) <= ts AND {s}.comb_timestamp({stamp}, f) > ts - interval '1 ms'
          AND {s}.comb_timestamp((e->>'comb')::uuid, f) <> {s}.comb_timestamp({stamp}, f))"""), None)
    departures = check("create.json: some departures", f"SELECT count(*) > 0 FROM rows WHERE {DEPARTURE}", True)

    # decode.json: where RT.Comb throws we raise 22008; elsewhere the same µs, or for the
    # sqldatetime clock the first whole µs of the 1/300 s unit (RT.Comb's value or 1 µs after).
    counted["decode.json"] = load("rtcomb/decode.json")
    check("decode.json: 594 entries", "SELECT count(*) FROM rows", 594)
    decode = f"format('SELECT {s}.comb_timestamp(%L::uuid, %L::{s}.comb_format)', e->>'comb', f)"
    check("decode.json: rejected entries raise 22008",
          failing(f"(e->>'ok')::bool OR pg_temp.sqlstate({decode}) = '22008'"), None)
    check("decode.json: some rejected entries", "SELECT count(*) > 0 FROM rows WHERE NOT (e->>'ok')::bool", True)
    decoded = f"{s}.comb_timestamp((e->>'comb')::uuid, f) - pg_temp.from_unix_us((e->>'decoded_unix_us')::numeric)"
    check("decode.json: decoded times", failing(f"""NOT (e->>'ok')::bool OR {decoded} = interval '0'
          OR ({decoded} = interval '1 microsecond' AND f IN ('legacy', 'postgresql_sqldatetime', 'binary_sqldatetime'))"""),
          None)

    # ticks.json: seed 001's IsComb, and the ticks floored to the µs (62135596800 s from 0001-01-01
    # to 1970-01-01).
    counted["ticks.json"] = load("ticks.json")
    check("ticks.json: 100 entries", "SELECT count(*) FROM rows", 100)
    check("ticks.json: comb_is_ticks and comb_timestamp", failing(f"""
          {s}.comb_is_ticks((e->>'comb')::uuid) = (e->>'is_comb')::bool
          AND {s}.comb_timestamp((e->>'comb')::uuid, 'ticks')
              = pg_temp.from_unix_us(div((e->>'ticks')::numeric, 10) - 62135596800000000)"""), None)
    # Writing the decoded time back reproduces the value where no sub-µs ticks were lost.
    check("ticks.json: comb_stamp of the decoded time", failing(f"""
          (e->>'ticks')::numeric % 10 <> 0
          OR {s}.comb_stamp((e->>'comb')::uuid, {s}.comb_timestamp((e->>'comb')::uuid, 'ticks'), 'ticks') = (e->>'comb')::uuid"""),
          None)
    check("ticks.json: some whole-µs entries", "SELECT count(*) > 0 FROM rows WHERE (e->>'ticks')::numeric % 10 = 0", True)

    # sqlguid_order.json: 600 uuids in SqlGuid order. Shuffled, they come back in that order when
    # sorted by uuid_sqlserver_key, and each neighbour pair compares as less through the operators
    # and uuid_sqlserver_cmp.
    with open(os.path.join(VECTORS, "rtcomb/sqlguid_order.json")) as f:
        order = json.load(f)
    counted["sqlguid_order.json"] = len(order)
    conn.execute("DROP TABLE IF EXISTS ordered")
    conn.execute("""CREATE TEMP TABLE ordered AS
                    SELECT u::uuid AS id, n FROM jsonb_array_elements_text(%s::jsonb) WITH ORDINALITY AS v(u, n)""",
                 [json.dumps(order)])
    check("sqlguid_order.json: 600 uuids", "SELECT count(*) FROM ordered", 600)
    check("sqlguid_order.json: sorted by uuid_sqlserver_key",
          f"""SELECT array_agg(n ORDER BY {s}.uuid_sqlserver_key(id)) = array_agg(n ORDER BY n)
              FROM (SELECT * FROM ordered ORDER BY md5(id::text)) shuffled""", True)
    check("sqlguid_order.json: neighbours compare as less (#<#, #<=#, not #>=#, not #>#, cmp -1)",
          f"""SELECT count(*) FILTER (WHERE a.id OPERATOR({s}.#<#) b.id AND a.id OPERATOR({s}.#<=#) b.id
                                      AND NOT a.id OPERATOR({s}.#>=#) b.id AND NOT a.id OPERATOR({s}.#>#) b.id
                                      AND {s}.uuid_sqlserver_cmp(a.id, b.id) = -1
                                      AND {s}.uuid_sqlserver_cmp(b.id, a.id) = 1)
              FROM ordered a JOIN ordered b ON b.n = a.n + 1""", 599)

    for line in failures:
        print(line)
    entries = ", ".join(f"{name} {n}" for name, n in counted.items())
    print(f"portable_comb_vectors: {sum(counted.values())} vector entries ({entries}) against schema {s}: "
          f"{'all pass' if not failures else f'{len(failures)} checks FAILED'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
