#!/usr/bin/env python3
"""Driver of benches/portable.sh: the SQL edition's comb_uuid() against gen_random_uuid(), uuidv7()
(PostgreSQL 18) and the compiled comb_uuid(): generation cost, a bulk insert against bigserial, and
leaf density under 8 pgbench clients. Every ratio is against a baseline measured in the same run.
Standard library only (reuses benches/ids.py and benches/keys.py)."""

import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ids import Cluster, log, measure_generation  # noqa: E402
from keys import PGBENCH_BATCH, concurrent_load  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "portable"))
from build import expand_macros  # noqa: E402  (the sources' @define macros, as the edition is built)
# Not the edition: bounds on any SQL-only generator (benches/portable_reference.sql).
REFERENCES = [("reference: stateless, gen_random_uuid()", "reference.stateless_comb()"),
              ("reference: sha256 pool (not shipped)", "reference.sha256_pool_comb()")]
FORMATS = ["postgresql", "sqlserver", "legacy", "binary", "postgresql_sqldatetime", "binary_sqldatetime", "ticks", "uuidv7"]
# Where each format's values sort by time: the column's own uuid order, or an index on a key.
KEY_INDEX = {"sqlserver": "portable.uuid_sqlserver_key(id)", "legacy": "portable.uuid_sqlserver_key(id)",
             "ticks": "portable.uuid_sqlserver_key(id)", "binary": "portable.uuid_binary_key(id)",
             "binary_sqldatetime": "portable.uuid_binary_key(id)"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--major", type=int, required=True)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--calls", type=int, default=200_000)
    parser.add_argument("--out", required=True)
    parser.add_argument("--baseline-name", default="the file given", help="how the report names --baseline")
    parser.add_argument("--baseline", help="another portable/comb.sql (e.g. an older commit's), measured as 'baseline'")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    work = f"{args.host}/work"
    subprocess.run(["sudo", "-u", "postgres", "mkdir", "-p", work], check=True)
    cluster = Cluster(args.host, args.port, args.bin)
    cluster.sql("CREATE DATABASE bench", db="postgres")
    with open(os.path.join(REPO, "portable", "comb.sql")) as source:
        edition = expand_macros(source.read()).replace("@extschema@", "portable")
    with open(os.path.join(REPO, "benches", "portable_reference.sql")) as source:
        reference_generators = source.read()
    cluster.sql("CREATE SCHEMA compiled; CREATE EXTENSION comb_ext SCHEMA compiled; CREATE EXTENSION pgstattuple; "
                "CREATE SCHEMA portable;\n" + edition + "\nCREATE SCHEMA reference;\n" + reference_generators)
    if args.baseline:
        with open(args.baseline) as source:
            cluster.sql("CREATE SCHEMA baseline;\n" + expand_macros(source.read()).replace("@extschema@", "baseline"))
    version = cluster.sql("SELECT version()").split(" on ")[0]
    has_uuidv7 = cluster.sql("SELECT to_regprocedure('uuidv7()') IS NOT NULL") == "t"
    log(version)
    started = time.monotonic()

    # 1. Generation cost.
    generators = [("gen_random_uuid()", "gen_random_uuid()")]
    if has_uuidv7:
        generators.append(("uuidv7()", "uuidv7()"))
    generators.append(("compiled comb_uuid()", "compiled.comb_uuid()"))
    generators.append(("SQL edition comb_uuid()", "portable.comb_uuid()"))
    generators += [(f"SQL edition comb_uuid('{f}')", f"portable.comb_uuid('{f}'::portable.comb_format)") for f in FORMATS[1:]]
    generators += REFERENCES
    if args.baseline:
        generators.append(("baseline comb_uuid()", "baseline.comb_uuid()"))
    log(f"1. generation: {args.calls:,} calls × {len(generators)} generators × 5 rounds")
    base, ns = measure_generation(cluster, args.calls, generators=generators)
    reference = "uuidv7()" if has_uuidv7 else "gen_random_uuid()"
    lines = [
        f"# The SQL edition of the COMB family (PostgreSQL {args.major})",
        "",
        f"Produced by `bash benches/portable.sh {args.major} {args.rows} {args.calls}` on "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs, {version}, a throwaway cluster "
        "with default settings but `jit = off`; the SQL edition (portable/comb.sql) in schema `portable`, the compiled "
        "edition (release build) in schema `compiled`"
        + (f"; `baseline` is the SQL edition of `{args.baseline_name}`" if args.baseline else "")
        + ". Every ratio is against a baseline measured in this run; no timing here is a pass/fail test.",
        "",
        "## 1. Generation cost",
        "",
        f"`SELECT count(f()) FROM generate_series(1, {args.calls:,})`, median server execution time (EXPLAIN ANALYZE) of "
        f"5 rounds (order rotated each round), net of `count(*)` over the same series in the same round (median {base:.0f} ms). The `reference` "
        "rows are not the edition (see section 2).",
        "",
        f"| generator | ns per call | × {reference} | × gen_random_uuid() | × compiled comb_uuid() |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, value in ns.items():
        lines.append(f"| `{name}` | {value:.0f} | {value / ns[reference]:.2f} | {value / ns['gen_random_uuid()']:.2f} | "
                     f"{value / ns['compiled comb_uuid()']:.2f} |")
        log(f"  {name}: {value:.0f} ns per call")

    # 2. Bulk insert from one session.
    columns = [("bigserial", "bigserial PRIMARY KEY", "")]
    if has_uuidv7:
        columns.append(("uuidv7()", "uuid PRIMARY KEY DEFAULT uuidv7()", ""))
    columns += [("compiled comb_uuid()", "uuid PRIMARY KEY DEFAULT compiled.comb_uuid()", ""),
                ("SQL edition comb_uuid()", "uuid PRIMARY KEY DEFAULT portable.comb_uuid()", ""),
                ("SQL edition comb_uuid('sqlserver')", "uuid NOT NULL DEFAULT portable.comb_uuid('sqlserver'::portable.comb_format)",
                 "CREATE UNIQUE INDEX bulk_t_id ON bulk_t (portable.uuid_sqlserver_key(id));")]
    columns += [(name, f"uuid PRIMARY KEY DEFAULT {call}", "") for name, call in REFERENCES]
    if args.baseline:
        columns.append(("baseline comb_uuid()", "uuid PRIMARY KEY DEFAULT baseline.comb_uuid()", ""))
    rounds = 5
    log(f"2. bulk insert: {args.rows:,} rows, {rounds} rounds × {len(columns)} keys")
    runs = {name: [] for name, _, _ in columns}
    for r in range(rounds):
        for name, column, index in columns[r % len(columns):] + columns[: r % len(columns)]:
            cluster.sql(f"DROP TABLE IF EXISTS bulk_t; CREATE TABLE bulk_t (id {column}, payload text NOT NULL); {index} CHECKPOINT;")
            runs[name] += cluster.timed_script(f"INSERT INTO bulk_t (payload) SELECT 'x' FROM generate_series(1, {args.rows});\n")
            log(f"  {name}: {runs[name][-1] / 1000:.2f} s")
    cluster.sql("DROP TABLE bulk_t")
    medians = {name: statistics.median(ms) for name, ms in runs.items()}
    serial = medians["bigserial"]
    lines += [
        "",
        "## 2. Bulk insert",
        "",
        f"`INSERT INTO t (payload) SELECT 'x' FROM generate_series(1, {args.rows:,})` from one session into a fresh "
        f"`(id <key>, payload text)`, median of {rounds} rounds (order rotated), psql's `\\timing`. The `sqlserver` row "
        "keeps its values in SQL Server order with `CREATE UNIQUE INDEX ... (portable.uuid_sqlserver_key(id))`. The "
        "two `reference` rows are not the edition (benches/portable_reference.sql): the floor of any SQL generator that "
        "draws from `gen_random_uuid()` per call (comb_uuid()'s bytes without its session state), and a keyed sha256 "
        "pool in a setting, not shipped as a rollback after a clock step back gives the same values again.",
        "",
        "| key | seconds (median) | rounds | × bigserial |",
        "|---|---:|---|---:|",
    ]
    for name, _, _ in columns:
        lines.append(f"| `{name}` | {medians[name] / 1000:.2f} | {', '.join(f'{v / 1000:.2f}' for v in runs[name])} | "
                     f"{medians[name] / serial:.2f} |")
    bulk_ratio = medians["SQL edition comb_uuid()"] / serial

    # 3. Leaf density, 1 and 8 clients, loads of ROWS rows in transactions of 1000 (as benches/keys.sh).
    script = os.path.join(work, "portable_insert.sql")
    with open(script, "w") as f:
        f.write(f"INSERT INTO kt (payload) SELECT 'x' FROM generate_series(1, {PGBENCH_BATCH});\n")
    os.chmod(script, 0o644)

    def pk(column):
        return f"CREATE TABLE kt (id {column}, payload text NOT NULL, CONSTRAINT kt_id PRIMARY KEY (id))"

    keys = [("bigserial", pk("bigserial"), "bigint PRIMARY KEY")]
    if has_uuidv7:
        keys.append(("uuidv7()", pk("uuid DEFAULT uuidv7()"), "uuid PRIMARY KEY"))
    keys.append(("compiled comb_uuid()", pk("uuid DEFAULT compiled.comb_uuid()"), "uuid PRIMARY KEY"))
    for fmt in FORMATS:
        default = f"portable.comb_uuid('{fmt}'::portable.comb_format)"
        if fmt in KEY_INDEX:
            keys.append((f"SQL edition comb_uuid('{fmt}')",
                         f"CREATE TABLE kt (id uuid NOT NULL DEFAULT {default}, payload text NOT NULL); "
                         f"CREATE UNIQUE INDEX kt_id ON kt ({KEY_INDEX[fmt]})", f"UNIQUE ({KEY_INDEX[fmt].replace('portable.', '')})"))
        else:
            keys.append((f"SQL edition comb_uuid('{fmt}')", pk(f"uuid DEFAULT {default}"), "uuid PRIMARY KEY"))
    clients = [1, 8]
    log(f"3. leaf density: {len(keys)} keys × clients {clients}, {args.rows:,} rows per load")
    results = {}
    for c_index, c in enumerate(clients):
        order = keys[c_index % len(keys):] + keys[: c_index % len(keys)]
        for name, create, _ in order:
            results[(name, c)] = r = concurrent_load(cluster, create, c, args.rows, script)
            log(f"  {name}, {c} clients: {r[0]:,} rows in {r[1]:.1f} s, leaf density {r[2]:.1f}%")
    lines += [
        "",
        "## 3. Leaf density",
        "",
        f"As benches/keys.sh: a fresh table `(id <key>, payload text)` loaded by `pgbench -n -c C -j C -t N/C` where each "
        f"transaction is `INSERT INTO t (payload) SELECT 'x' FROM generate_series(1, {PGBENCH_BATCH})` ({args.rows:,} rows "
        "per load), then `pgstatindex(...)`.avg_leaf_density of the key's index; load seconds are pgbench's wall time. The "
        "SQL edition's formats not sorted by PostgreSQL's uuid order are indexed on their key function.",
        "",
        "| key | index | " + " | ".join(f"density, {c} client{'s' if c > 1 else ''}" for c in clients)
        + " | " + " | ".join(f"seconds, {c} client{'s' if c > 1 else ''} (× bigserial)" for c in clients) + " |",
        "|---|---|" + "---:|" * (2 * len(clients)),
    ]
    for name, _, kind in keys:
        cells = [f"{results[(name, c)][2]:.1f}" for c in clients]
        cells += [f"{results[(name, c)][1]:.1f} ({results[(name, c)][1] / results[('bigserial', c)][1]:.2f})" for c in clients]
        lines.append(f"| `{name}` | {kind} | " + " | ".join(cells) + " |")

    targets = [("SQL edition `comb_uuid()` bulk insert ≤ 2.0 × bigserial's time", f"{bulk_ratio:.2f}", bulk_ratio <= 2.0)]
    for name, _, _ in keys:
        if name.startswith("SQL edition"):
            density = results[(name, 8)][2]
            targets.append((f"`{name}` leaf density at 8 clients ≥ 89%", f"{density:.1f}%", density >= 89.0))
    lines += ["", "## Targets", "", "| target | measured | met |", "|---|---:|---|"]
    lines += [f"| {t} | {m} | {'yes' if ok else '**no**'} |" for t, m, ok in targets]
    lines += ["", "Bulk insert of the reference generators in this run (× bigserial): "
              + "; ".join(f"{name} {medians[name] / serial:.2f}" for name, _ in REFERENCES) + "."]
    lines += ["", f"Run time: {time.monotonic() - started:.0f} s."]
    path = os.path.join(args.out, f"portable-pg{args.major}.md")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    log(f"wrote {path}")
    for t, m, ok in targets:
        log(f"  {'met' if ok else 'NOT MET'}: {t}: {m}")


if __name__ == "__main__":
    main()
