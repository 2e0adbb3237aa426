#!/usr/bin/env python3
"""Driver of benches/ids.sh: runs the measurements through psql and pgbench against the cluster
the shell script started, prints progress, and writes the Markdown report and the SVG plot.
Standard library only."""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

# Primary keys compared by the insert benchmark: (name, column definition).
KEYS = [
    ("bigserial", "bigserial"),
    ("comb_uuid()", "uuid DEFAULT comb_uuid()"),
    ("sno_new()", "sno DEFAULT sno_new()"),
    ("uid8_new('time_sequential')", "bigint DEFAULT uid8_new('time_sequential')"),
    ("uuid7-shaped (SQL)", "uuid DEFAULT bench_uuid7()"),
    ("gen_random_uuid()", "uuid DEFAULT gen_random_uuid()"),
    ("uid8_new('spread')", "bigint DEFAULT uid8_new('spread')"),
]

# Generators compared by cost per call.
GENERATORS = [
    ("gen_random_uuid()", "gen_random_uuid()"),
    ("nextval()", "nextval('bench_seq')"),
    ("comb_uuid()", "comb_uuid()"),
] + [
    (f"comb_uuid('{f}')", f"comb_uuid('{f}'::comb_format)")
    for f in ["sqlserver", "legacy", "binary", "postgresql_sqldatetime", "binary_sqldatetime", "ticks"]
] + [
    ("sno_new()", "sno_new()"),
    ("muid_new()", "muid_new()"),
    ("uid8_new('spread')", "uid8_new('spread')"),
    ("uid8_new('time_sequential')", "uid8_new('time_sequential')"),
]

# A time-prefixed uuid, random within its millisecond: the shape of UUIDv7 without a counter.
UUID7_SQL = """
CREATE FUNCTION bench_uuid7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
    SELECT encode(set_byte(overlay(uuid_send(gen_random_uuid())
                                   PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
                                   FROM 1 FOR 6),
                           6, (get_byte(uuid_send(gen_random_uuid()), 6) & 15) | 112), 'hex')::uuid
$$;
"""

BATCHES = 20
PGBENCH_BATCH = 1000


def log(message):
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


class Cluster:
    def __init__(self, host, port, bin_dir):
        self.host, self.port, self.bin = host, port, bin_dir

    def command(self, program, *args):
        return ["sudo", "-u", "postgres", os.path.join(self.bin, program), "-h", self.host, "-p", str(self.port), *args]

    def sql(self, text, db="bench"):
        out = subprocess.run(self.command("psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", db),
                             input=text, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"psql failed: {out.stderr}\n{text[:500]}")
        return out.stdout.strip()

    def timed_script(self, text, db="bench"):
        """Runs statements with \\timing and returns the server round-trip ms of each."""
        out = subprocess.run(self.command("psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", db),
                             input="\\timing on\n" + text, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"psql failed: {out.stderr}")
        return [float(line.split()[1]) for line in out.stdout.splitlines() if line.startswith("Time: ")]


def execution_ms(cluster, query):
    plan = json.loads(cluster.sql(f"EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) {query}"))
    return plan[0]["Execution Time"]


def settle_muid(cluster):
    """Waits until muid's timeline is back at the clock. Bursts run it ahead, by at most 2 s, and a
    call past that waits for the clock (README: "Gink muids"): each timing starts at the clock, so
    that it times the calls, not the bound after the burst before it."""
    cluster.sql("SELECT pg_sleep(greatest(0, extract(epoch FROM muid_timestamp(muid_new()) - clock_timestamp())))")


def settle_uid8(cluster):
    """Waits out uid8's run-ahead (comb_ext.uid8_run_ahead, 2 s): a session's IDs run up to 2 s ahead of the
    clock, and a new session's start past the last millisecond issued on the generator id it claims, so a
    timing right after another would time the bound."""
    cluster.sql("SELECT pg_sleep(2.05)")


def measure_generation(cluster, calls, repeats=5, generators=GENERATORS):
    """Server execution time of count(f()) over generate_series, net of count(*) in the same round: the median
    over the rounds of each round's difference, so that drift between rounds (this machine's count(*) has read
    114 and 155 ms in two runs a day apart) stays out of it. generators: (name, SQL expression) pairs
    (benches/keys.py passes its own)."""
    queries = [("count(*)", f"SELECT count(*) FROM generate_series(1, {calls})")] + [
        (name, f"SELECT count({expr}) FROM generate_series(1, {calls})") for name, expr in generators
    ]
    runs = {name: [] for name, _ in queries}
    for r in range(repeats):
        # Rotate the order each round, so drift in the machine's speed hits every query alike.
        order = queries[r % len(queries):] + queries[: r % len(queries)]
        for name, query in order:
            if "muid_new" in query:
                settle_muid(cluster)
            if "uid8_new" in query:
                settle_uid8(cluster)
            runs[name].append(execution_ms(cluster, query))
        log(f"generation round {r + 1}/{repeats} done")
    bases = runs.pop("count(*)")
    net = {name: statistics.median(m - b for m, b in zip(ms, bases)) for name, ms in runs.items()}
    return statistics.median(bases), {name: max(ms, 0.0) * 1e6 / calls for name, ms in net.items()}


def pgbench_seconds(cluster, clients, transactions, script, what):
    """Wall time of `pgbench -n -c clients -j clients -t transactions -f script` on the bench database; a
    failed transaction (a duplicate key among them) stops the run with pgbench's words."""
    start = time.monotonic()
    out = subprocess.run(cluster.command("pgbench", "-n", "-c", str(clients), "-j", str(clients), "-t", str(transactions),
                                         "-f", script, "bench"), capture_output=True, text=True)
    seconds = time.monotonic() - start
    if out.returncode != 0:
        sys.exit(f"pgbench failed ({what}, {clients} clients): {out.stderr}")
    return seconds


def load_table(cluster, index, name, column, rows):
    table = f"bench_{index}"
    cluster.sql(f"DROP TABLE IF EXISTS {table}; CREATE TABLE {table} (id {column} PRIMARY KEY, payload text NOT NULL); CHECKPOINT;")
    lsn = cluster.sql("SELECT pg_current_wal_lsn()")
    batch = rows // BATCHES
    script = "".join(
        f"INSERT INTO {table} (payload) SELECT 'payload ' || n FROM generate_series(1, {batch}) n;\n" for _ in range(BATCHES)
    )
    batch_ms = cluster.timed_script(script)
    wal = int(cluster.sql(f"SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '{lsn}')").split(".")[0])
    stats = cluster.sql(
        f"SELECT pg_relation_size('{table}'), pg_relation_size('{table}_pkey'), "
        f"(pgstatindex('{table}_pkey')).avg_leaf_density FROM {table} LIMIT 1"
    ).split("|")
    result = {
        "key": name,
        "rows": batch * BATCHES,
        "seconds": sum(batch_ms) / 1000,
        "batch_ms": batch_ms,
        "batch": batch,
        "wal_bytes": wal,
        "table_bytes": int(stats[0]),
        "index_bytes": int(stats[1]),
        "leaf_density": float(stats[2]),
    }
    log(f"{name}: {result['rows']:,} rows in {result['seconds']:.1f} s, index {result['index_bytes'] / 2**20:.0f} MiB, "
        f"leaf density {result['leaf_density']:.1f}%")
    return result


def concurrent_phase(cluster, index, name, rows, work):
    """The same number of rows again, from 2 pgbench clients inserting batches of 1,000."""
    table = f"bench_{index}"
    path = os.path.join(work, f"insert_{index}.sql")
    with open(path, "w") as f:
        f.write(f"INSERT INTO {table} (payload) SELECT 'payload ' || n FROM generate_series(1, {PGBENCH_BATCH}) n;\n")
    os.chmod(path, 0o644)
    transactions = max(rows // (2 * PGBENCH_BATCH), 1)
    cluster.sql("CHECKPOINT")
    lsn = cluster.sql("SELECT pg_current_wal_lsn()")
    start = time.monotonic()
    out = subprocess.run(cluster.command("pgbench", "-n", "-c", "2", "-j", "2", "-t", str(transactions), "-f", path, "bench"),
                         capture_output=True, text=True)
    seconds = time.monotonic() - start
    if out.returncode != 0:
        sys.exit(f"pgbench failed: {out.stderr}")
    wal = int(cluster.sql(f"SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '{lsn}')").split(".")[0])
    density = float(cluster.sql(f"SELECT (pgstatindex('{table}_pkey')).avg_leaf_density"))
    index_bytes = int(cluster.sql(f"SELECT pg_relation_size('{table}_pkey')"))
    rows_done = transactions * 2 * PGBENCH_BATCH
    log(f"{name}, 2 clients: {rows_done:,} rows in {seconds:.1f} s, leaf density {density:.1f}%")
    return {"rows": rows_done, "seconds": seconds, "wal_bytes": wal, "leaf_density": density, "index_bytes": index_bytes}


COLORS = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d"]


def svg_plot(loads, path):
    """Insert throughput (rows/s) of each batch against rows already in the table."""
    width, height, left, right, top, bottom = 900, 500, 80, 250, 40, 60
    plot_w, plot_h = width - left - right, height - top - bottom
    max_rows = max(r["rows"] for r in loads)
    series = []
    for r in loads:
        points = [(i * r["batch"], r["batch"] / (ms / 1000)) for i, ms in enumerate(r["batch_ms"])]
        series.append((r["key"], points))
    max_rate = max(rate for _, pts in series for _, rate in pts) * 1.1
    x = lambda v: left + v / max_rows * plot_w
    y = lambda v: top + plot_h - v / max_rate * plot_h
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="24" font-size="15">Insert throughput against rows already in the table (batches of {loads[0]["batch"]:,})</text>']
    for i in range(6):
        rate = max_rate * i / 5
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(rate):.1f}" y2="{y(rate):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 8}" y="{y(rate) + 4:.1f}" text-anchor="end">{rate / 1000:.0f}k</text>')
        rows = max_rows * i / 5
        out.append(f'<text x="{x(rows):.1f}" y="{top + plot_h + 18}" text-anchor="middle">{rows / 1e6:.1f}M</text>')
    out.append(f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}" stroke="black"/>')
    out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{top + plot_h}" y2="{top + plot_h}" stroke="black"/>')
    out.append(f'<text x="{left + plot_w / 2}" y="{height - 15}" text-anchor="middle">rows already in the table</text>')
    out.append(f'<text x="20" y="{top + plot_h / 2}" transform="rotate(-90 20 {top + plot_h / 2})" text-anchor="middle">rows per second</text>')
    for n, (name, points) in enumerate(series):
        color = COLORS[n % len(COLORS)]
        coords = " ".join(f"{x(a):.1f},{y(b):.1f}" for a, b in points)
        out.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{coords}"/>')
        ly = top + 10 + n * 20
        out.append(f'<line x1="{left + plot_w + 15}" x2="{left + plot_w + 40}" y1="{ly}" y2="{ly}" stroke="{color}" stroke-width="3"/>')
        out.append(f'<text x="{left + plot_w + 46}" y="{ly + 4}">{name}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def mib(n):
    return f"{n / 2**20:.1f}"


def report(args, version, base_ms, generation, loads, concurrent, path):
    by_key = {r["key"]: r for r in loads}
    serial = by_key["bigserial"]
    random_ns = generation["gen_random_uuid()"]
    lines = [
        "# comb_ext benchmark report",
        "",
        f"Produced by `bash benches/ids.sh {args.rows} {args.calls}` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"{os.cpu_count()} CPUs, {version}, a throwaway cluster with default settings (release build of comb_ext, not preloaded).",
        "",
        "## Generation cost",
        "",
        f"`SELECT count(f()) FROM generate_series(1, {args.calls:,})`, median server execution time of 5 rounds (order rotated "
        f"each round), net of `count(*)` over the same series in the same round (median {base_ms:.0f} ms).",
        "",
        "| generator | ns per call | × gen_random_uuid() | × nextval() |",
        "|---|---:|---:|---:|",
    ]
    for name, _ in GENERATORS:
        ns = generation[name]
        lines.append(f"| `{name}` | {ns:.0f} | {ns / random_ns:.2f} | {ns / generation['nextval()']:.2f} |")
    lines += [
        "",
        f"## Bulk insert: {loads[0]['rows']:,} rows",
        "",
        f"Into `(id <key> PRIMARY KEY, payload text)`, key from its DEFAULT, in {BATCHES} statements of {loads[0]['batch']:,} rows "
        "from one session (time: sum of the statements' round trips). WAL from `pg_current_wal_lsn()`, sizes from "
        "`pg_relation_size`, leaf density from `pgstatindex`.",
        "",
        "| key | seconds | × bigserial | WAL MiB | table MiB | index MiB | leaf density % |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in loads:
        lines.append(f"| `{r['key']}` | {r['seconds']:.1f} | {r['seconds'] / serial['seconds']:.2f} | {mib(r['wal_bytes'])} | "
                     f"{mib(r['table_bytes'])} | {mib(r['index_bytes'])} | {r['leaf_density']:.1f} |")
    lines += [
        "",
        f"## Second phase: {concurrent[0]['rows']:,} more rows from 2 concurrent pgbench clients",
        "",
        f"`pgbench -n -c 2 -j 2`, each transaction one `INSERT ... SELECT` of {PGBENCH_BATCH:,} rows, into the tables above.",
        "",
        "| key | seconds | × bigserial | rows/s | WAL MiB | index MiB | leaf density % |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    serial2 = concurrent[0]
    for r, c in zip(loads, concurrent):
        lines.append(f"| `{r['key']}` | {c['seconds']:.1f} | {c['seconds'] / serial2['seconds']:.2f} | {c['rows'] / c['seconds']:,.0f} | "
                     f"{mib(c['wal_bytes'])} | {mib(c['index_bytes'])} | {c['leaf_density']:.1f} |")
    comb = by_key["comb_uuid()"]
    checks = [
        ("`comb_uuid()` bulk insert time ≤ 1.15 × bigserial's", comb["seconds"] / serial["seconds"], 1.15),
        ("`comb_uuid()` primary-key leaf density ≥ 89%", comb["leaf_density"], 89.0),
        ("`comb_uuid()` net generation cost ≤ 0.5 × gen_random_uuid()'s", generation["comb_uuid()"] / random_ns, 0.5),
        ("`sno_new()` net generation cost ≤ nextval()'s", generation["sno_new()"] / generation["nextval()"], 1.0),
    ]
    lines += ["", "## Targets", "", "| target | measured | met |", "|---|---:|---|"]
    for text, value, limit in checks:
        met = value >= limit if "density" in text else value <= limit
        lines.append(f"| {text} | {value:.2f} | {'yes' if met else 'no'} |")
    lines += ["", "## Insert throughput as the table grows", "", "![insert throughput](insert_throughput.svg)", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--calls", type=int, default=2_000_000)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    work = f"{args.host}/work"
    subprocess.run(["sudo", "-u", "postgres", "mkdir", "-p", work], check=True)
    cluster = Cluster(args.host, args.port, args.bin)
    cluster.sql("CREATE DATABASE bench", db="postgres")
    cluster.sql("CREATE EXTENSION comb_ext; CREATE EXTENSION pgstattuple; CREATE SEQUENCE bench_seq;" + UUID7_SQL)
    version = cluster.sql("SELECT version()").split(" on ")[0]

    log(f"generation: {len(GENERATORS)} generators × {args.calls:,} calls")
    base_ms, generation = measure_generation(cluster, args.calls)
    for name, ns in generation.items():
        log(f"  {name}: {ns:.0f} ns per call")

    loads = [load_table(cluster, i, name, column, args.rows) for i, (name, column) in enumerate(KEYS)]
    concurrent = [concurrent_phase(cluster, i, name, args.rows, work) for i, (name, _) in enumerate(KEYS)]

    svg_plot(loads, os.path.join(args.out, "insert_throughput.svg"))
    report(args, version, base_ms, generation, loads, concurrent, os.path.join(args.out, "report.md"))
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"generation_ns": generation, "loads": loads, "concurrent": concurrent}, f, indent=1)
    log(f"report: {os.path.join(args.out, 'report.md')}")


if __name__ == "__main__":
    main()
