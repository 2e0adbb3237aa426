"""Benchmark (not a test): ns per call of each text form (docs/ids-that-do-not-tell-their-age.md), next to
PostgreSQL's own uuid_out / uuid_in and int8out / int8in, in the compiled edition and, when installed, the
SQL edition.

    python benches/text_forms.py CONNINFO [--rows N] [--sql-edition SCHEMA] [--out FILE]

The database at CONNINFO must have comb_ext on its search_path. Each figure is the median server execution
time (EXPLAIN ANALYZE, TIMING OFF) of SELECT count(f(x)) over N rows of a table of random ids and their texts
(N = 1,000,000 by default; 100,000 for the SQL edition), over 5 rounds in rotated order, net of count(x) over
the same rows, divided by N. Nothing here asserts a time.
"""
import argparse
import json
import statistics
import time

import psycopg

COMPILED = [
    ("uuid_out (id::text)", "id::text"),
    ("comb_text(id, 'base32hex')", "{s}comb_text(id, 'base32hex')"),
    ("comb_text(id, 'crockford')", "{s}comb_text(id, 'crockford')"),
    ("typeid_text(id, 'order')", "{s}typeid_text(id, 'order')"),
    ("uuid_in (text::uuid)", "canonical::uuid"),
    ("comb_parse(text, 'base32hex')", "{s}comb_parse(base32hex, 'base32hex')"),
    ("comb_parse(text, 'crockford')", "{s}comb_parse(crockford, 'crockford')"),
    ("typeid_parse(text, 'order')", "{s}typeid_parse(typeid, 'order')"),
    ("int8out (i::text)", "i::text"),
    ("uid8_text(i)", "{s}uid8_text(i)"),
    ("int8in (text::bigint)", "decimal::bigint"),
    ("uid8_parse(text)", "{s}uid8_parse(uid8)"),
]


def execution_ms(conn, query):
    plan = conn.execute(f"EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) {query}").fetchone()[0]
    if isinstance(plan, str):
        plan = json.loads(plan)
    return plan[0]["Execution Time"]


def measure(conn, table, rows, forms, schema, repeats=5):
    queries = [("baseline", f"SELECT count(id) FROM {table}")] + [
        (name, f"SELECT count({expr.format(s=schema + '.' if schema else '')}) FROM {table}") for name, expr in forms
    ]
    runs = {name: [] for name, _ in queries}
    for r in range(repeats):
        order = queries[r % len(queries):] + queries[: r % len(queries)]
        for name, query in order:
            runs[name].append(execution_ms(conn, query))
    medians = {name: statistics.median(ms) for name, ms in runs.items()}
    base = medians.pop("baseline")
    return {name: max(ms - base, 0.0) * 1e6 / rows for name, ms in medians.items()}


def make_table(conn, table, rows):
    conn.execute(f"DROP TABLE IF EXISTS {table}")
    conn.execute(f"""
        CREATE UNLOGGED TABLE {table} AS
        SELECT id, id::text AS canonical, comb_text(id, 'base32hex') AS base32hex, comb_text(id, 'crockford') AS crockford,
               typeid_text(id, 'order') AS typeid, i, i::text AS decimal, uid8_text(i) AS uid8
        FROM (SELECT gen_random_uuid() AS id, ('x' || md5(n::text))::bit(64)::bigint AS i
              FROM generate_series(1, {rows}) n) AS ids""")
    conn.execute(f"VACUUM ANALYZE {table}")


def bench_connection(conninfo):
    """A connection whose timings are the calls' own: no JIT, no parallel workers."""
    conn = psycopg.connect(conninfo, autocommit=True)
    conn.execute("SET jit = off")
    conn.execute("SET max_parallel_workers_per_gather = 0")
    return conn


def emit(lines, out, started):
    """Prints the report's lines, writes them to out too when given, and the run's wall time."""
    text = "\n".join(lines) + "\n"
    print(text)
    if out:
        with open(out, "w") as f:
            f.write(text)
    print(f"({time.monotonic() - started:.0f} s)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("conninfo")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--sql-edition", metavar="SCHEMA", help="also time the SQL edition installed in SCHEMA")
    parser.add_argument("--out", help="write the table (markdown) here too")
    args = parser.parse_args()
    started = time.monotonic()
    with bench_connection(args.conninfo) as conn:
        version = conn.execute("SELECT version()").fetchone()[0].split(" on ")[0]
        make_table(conn, "text_bench", args.rows)
        compiled = measure(conn, "text_bench", args.rows, COMPILED, "")
        portable = {}
        if args.sql_edition:
            sql_rows = min(args.rows, 100_000)
            conn.execute(f"CREATE UNLOGGED TABLE text_bench_sql AS SELECT * FROM text_bench LIMIT {sql_rows}")
            conn.execute("VACUUM ANALYZE text_bench_sql")
            portable = measure(conn, "text_bench_sql", sql_rows, [f for f in COMPILED if "{s}" in f[1]], args.sql_edition)
            conn.execute("DROP TABLE text_bench_sql")
        conn.execute("DROP TABLE text_bench")
    lines = [f"Text forms, ns per call ({version}; {args.rows:,} rows, median of 5 rounds net of count(id); "
             f"benches/text_forms.py)", "",
             "| call | compiled | SQL edition |", "|---|---:|---:|"]
    for name, _ in COMPILED:
        sql = portable.get(name)
        lines.append(f"| `{name}` | {compiled[name]:,.0f} | {'' if sql is None else f'{sql:,.0f}'} |")
    emit(lines, args.out, started)


if __name__ == "__main__":
    main()
