#!/usr/bin/env python3
"""Driver of benches/keys.sh: dense keys under concurrency. Runs the measurements through psql and
pgbench against the cluster the shell script started, prints progress, and writes the Markdown report
and the SVG plot. Standard library only; the psql plumbing is benches/ids.py's."""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ids import Cluster, log, measure_generation, pgbench_seconds  # noqa: E402

PGBENCH_BATCH = 1000
# Any time inside every clock's range (sqldatetime ends in 2079); day 50 of the range table's 100.
RANGE_START = "2025-01-01 00:00:00+00"
RANGE_DAY = "2025-02-20 00:00:00+00"
PARTITIONS = 10

# 300 times in increasing order, far enough apart that every time byte changes: a format whose values
# come out increasing under an order sorts by time in that order.
ORDER_PROBE = """
SELECT coalesce(bool_and(id > prev), false), coalesce(bool_and(uuid_sqlserver_cmp(id, prev) > 0), false),
       coalesce(bool_and(uuid_binary_cmp(id, prev) > 0), false) FROM (
    SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM (
        SELECT n, comb_uuid('2001-01-01 00:00+00'::timestamptz + n * interval '3 days 7:13:17.123457', '{f}'::comb_format) AS id
        FROM generate_series(1, 300) n) v) w
WHERE prev IS NOT NULL"""


def scaled(n, scale, least=1000):
    return max(int(round(n * scale)), least)


def comb_formats(cluster):
    """Every comb_format label, and the order its values sort by time in: 'uuid' (PostgreSQL's),
    'sqlserver' (uuid_sqlserver_ops), 'binary' (uuid_binary_ops: .NET's ToByteArray bytes), or None."""
    labels = cluster.sql("SELECT unnest(enum_range(NULL::comb_format))").split()
    orders = {}
    for f in labels:
        by_uuid, by_sqlserver, by_binary = cluster.sql(ORDER_PROBE.format(f=f)).split("|")
        orders[f] = ("uuid" if by_uuid == "t" else "sqlserver" if by_sqlserver == "t"
                     else "binary" if by_binary == "t" else None)
    return orders


def explain_median(cluster, query, settings="", runs=5):
    """Median EXPLAIN (ANALYZE) execution time of `runs` runs after one warm-up, and the last plan's lines."""
    times, plan = [], []
    for _ in range(runs + 1):
        plan = cluster.sql(f"{settings}EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) {query}").splitlines()
        times.append(float(re.search(r"Execution Time: ([0-9.]+) ms", "\n".join(plan)).group(1)))
    return statistics.median(times[1:]), plan


# --- 1. Generation cost ---------------------------------------------------------------------------

def section_generation(cluster, args, has_uuidv7, orders):
    generators = [("uuidv7()", "uuidv7()")] if has_uuidv7 else []
    generators += [("gen_random_uuid()", "gen_random_uuid()"), ("nextval()", "nextval('bench_seq')")]
    generators += [(f"comb_uuid('{f}')", f"comb_uuid('{f}'::comb_format)") for f in orders]
    generators += [("sno_new()", "sno_new()"), ("muid_new()", "muid_new()"), ("uid8_new('spread')", "uid8_new('spread')")]
    generators += [("uid8_new('time_sequential')", "uid8_new('time_sequential')")]
    calls = scaled(2_000_000, args.scale)
    log(f"1. generation: {len(generators)} generators × {calls:,} calls, 5 rounds")
    base_ms, ns = measure_generation(cluster, calls, 5, generators)
    reference = "uuidv7()" if has_uuidv7 else "gen_random_uuid()"
    lines = [
        "## 1. Generation cost",
        "",
        f"`SELECT count(f()) FROM generate_series(1, {calls:,})`, median server execution time (EXPLAIN ANALYZE) of 5 rounds "
        f"(order rotated each round), net of `count(*)` over the same series in the same round (median {base_ms:.0f} ms).",
    ]
    if not has_uuidv7:
        lines += ["", f"PostgreSQL {args.major} has no `uuidv7()` (it came in 18): the reference is `gen_random_uuid()`."]
    lines += ["", f"| generator | ns per call | × {reference} |", "|---|---:|---:|"]
    for name, _ in generators:
        lines.append(f"| `{name}` | {ns[name]:.0f} | {ns[name] / ns[reference]:.2f} |")
    for name, value in ns.items():
        log(f"  {name}: {value:.0f} ns per call")
    targets = []
    if has_uuidv7:
        for f in orders:
            ratio = ns[f"comb_uuid('{f}')"] / ns["uuidv7()"]
            targets.append((f"`comb_uuid('{f}')` generation cost ≤ 0.15 × `uuidv7()`'s", f"{ratio:.2f}", ratio <= 0.15))
    return lines, targets


# --- 2. Leaf density against clients --------------------------------------------------------------

def section_keys(has_uuidv7, orders):
    """(name, CREATE statements of table kt with index kt_id, index kind, sortable comb format?)"""
    def pk(column):
        return f"CREATE TABLE kt (id {column}, payload text NOT NULL, CONSTRAINT kt_id PRIMARY KEY (id))"

    keys = [("bigserial", pk("bigserial"), "bigint PRIMARY KEY", False)]
    if has_uuidv7:
        keys.append(("uuidv7()", pk("uuid DEFAULT uuidv7()"), "uuid PRIMARY KEY", False))
    for f, order in orders.items():
        default = f"comb_uuid('{f}'::comb_format)"
        if order == "uuid":
            keys.append((f"comb_uuid('{f}')", pk(f"uuid DEFAULT {default}"), "uuid PRIMARY KEY", True))
        elif order in ("sqlserver", "binary"):
            keys.append((f"comb_uuid('{f}')",
                         f"CREATE TABLE kt (id uuid NOT NULL DEFAULT {default}, payload text NOT NULL); "
                         f"CREATE UNIQUE INDEX kt_id ON kt (id uuid_{order}_ops)",
                         f"uuid, UNIQUE (id uuid_{order}_ops)", True))
    keys.append(("sno_new()", pk("sno DEFAULT sno_new()"), "sno PRIMARY KEY", False))
    keys.append(("uid8_new('time_sequential')", pk("bigint DEFAULT uid8_new('time_sequential')"), "bigint PRIMARY KEY", False))
    return keys


def concurrent_load(cluster, create, clients, rows, script):
    """A fresh table kt loaded by `clients` pgbench clients; (rows, seconds, leaf density of kt_id)."""
    cluster.sql(f"DROP TABLE IF EXISTS kt; {create}; CHECKPOINT;")
    seconds = pgbench_seconds(cluster, clients, max(round(rows / PGBENCH_BATCH / clients), 1), script, create)
    density = float(cluster.sql("SELECT (pgstatindex('kt_id')).avg_leaf_density"))
    loaded = int(cluster.sql("SELECT count(*) FROM kt"))
    cluster.sql("DROP TABLE kt")
    return loaded, seconds, density


def section_density(cluster, args, keys, work):
    rows = scaled(1_000_000, args.scale)
    script = os.path.join(work, "keys_insert.sql")
    with open(script, "w") as f:
        f.write(f"INSERT INTO kt (payload) SELECT 'x' FROM generate_series(1, {PGBENCH_BATCH});\n")
    os.chmod(script, 0o644)
    log(f"2. leaf density: {len(keys)} keys × clients {args.clients}, {rows:,} rows per load")
    results = {}  # (key, clients) -> (rows, seconds, density)
    for c_index, clients in enumerate(args.clients):
        # Rotate the keys' order at each client count, so drift in the machine's speed hits every key alike.
        order = keys[c_index % len(keys):] + keys[: c_index % len(keys)]
        for name, create, _, _ in order:
            results[(name, clients)] = r = concurrent_load(cluster, create, clients, rows, script)
            log(f"  {name}, {clients} clients: {r[0]:,} rows in {r[1]:.1f} s, leaf density {r[2]:.1f}%")
    return results


def by_clients(args, keys, kind_header, cell):
    """A Markdown table: a row per key (with its index kind when kind_header is set), a column per client count."""
    head = ["key"] + ([kind_header] if kind_header else []) + [f"{c} client{'s' if c > 1 else ''}" for c in args.clients]
    lines = ["| " + " | ".join(head) + " |", "|---|" + ("---|" if kind_header else "") + "---:|" * len(args.clients)]
    for name, _, kind, _ in keys:
        cells = [f"`{name}`"] + ([kind] if kind_header else []) + [cell(name, c) for c in args.clients]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def section_density_report(args, keys, orders, results):
    left_out = [f for f, order in orders.items() if order is None]
    loaded = sorted({r[0] for r in results.values()})
    lines = [
        "## 2. Leaf density against clients",
        "",
        f"For each key and client count C: a fresh table `(id <key>, payload text)`, loaded by `pgbench -n -c C -j C -t N/C` "
        f"where each transaction is `INSERT INTO t (payload) SELECT 'x' FROM generate_series(1, {PGBENCH_BATCH})` "
        f"({', '.join(f'{n:,}' for n in loaded)} rows per load; N/C is rounded), then "
        "`pgstatindex(...)`.avg_leaf_density of the key's index. Load time is pgbench's wall time.",
        "",
        "Keys: the comb formats come from `enum_range(NULL::comb_format)`; each is sorted by time either in PostgreSQL's "
        "`uuid` order (a `uuid PRIMARY KEY`), in SQL Server's (`CREATE UNIQUE INDEX ... (id uuid_sqlserver_ops)`) or in "
        ".NET's `ToByteArray` bytes' (`... (id uuid_binary_ops)`), "
        "found by generating values at increasing times. "
        + (f"Left out: {', '.join(f'`{f}`' for f in left_out)}, which sort by time in none of these orders, so their "
           "index would be filled at random."
           if left_out else "No format was left out."),
        "",
        "Leaf density %:",
        "",
        *by_clients(args, keys, "index", lambda name, c: f"{results[(name, c)][2]:.1f}"),
        "",
        "Load seconds (× bigserial at the same client count):",
        "",
        *by_clients(args, keys, None,
                    lambda name, c: f"{results[(name, c)][1]:.2f} ({results[(name, c)][1] / results[('bigserial', c)][1]:.2f})"),
    ]
    lines += ["", f"![leaf density against clients](leaf_density-pg{args.major}.svg)"]
    targets = []
    if 8 in args.clients:
        serial = results[("bigserial", 8)][2]
        lines += ["", f"Target: every sortable comb format at 8 clients ≥ 89% leaf density and within one point of "
                  f"bigserial's ({serial:.1f}%)."]
        for name, _, _, sortable in keys:
            if sortable:
                density = results[(name, 8)][2]
                targets.append((f"`{name}` leaf density at 8 clients ≥ 89% and ≥ bigserial's − 1 ({serial:.1f} − 1)",
                                f"{density:.1f}%", density >= 89.0 and density >= serial - 1.0))
    return lines, targets


COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
          "#393b79", "#637939"]


def svg_density(args, keys, results, path):
    """Line chart: x = clients (evenly spaced), y = leaf density %, one line per key."""
    width, height, left, right, top, bottom = 900, 500, 70, 300, 40, 60
    plot_w, plot_h = width - left - right, height - top - bottom
    lowest = min(results[(name, c)][2] for name, *_ in keys for c in args.clients)
    y_min = min(5 * int((lowest - 2) // 5), 85)
    steps = max(len(args.clients) - 1, 1)
    inset = 40  # keeps the first and last points off the axes
    x = lambda i: left + inset + (i / steps if len(args.clients) > 1 else 0.5) * (plot_w - 2 * inset)
    y = lambda v: top + plot_h - (v - y_min) / (100 - y_min) * plot_h
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="24" font-size="15">Index leaf density against concurrent inserting clients (PostgreSQL {args.major})</text>']
    for v in range(y_min, 101, 5):
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 8}" y="{y(v) + 4:.1f}" text-anchor="end">{v}%</text>')
    for i, c in enumerate(args.clients):
        out.append(f'<text x="{x(i):.1f}" y="{top + plot_h + 18}" text-anchor="middle">{c}</text>')
    out.append(f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}" stroke="black"/>')
    out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{top + plot_h}" y2="{top + plot_h}" stroke="black"/>')
    out.append(f'<text x="{left + plot_w / 2}" y="{height - 15}" text-anchor="middle">pgbench clients inserting at once</text>')
    out.append(f'<text x="20" y="{top + plot_h / 2}" transform="rotate(-90 20 {top + plot_h / 2})" text-anchor="middle">'
               'average leaf density</text>')
    for n, (name, *_) in enumerate(keys):
        color = COLORS[n % len(COLORS)]
        points = [(x(i), y(results[(name, c)][2])) for i, c in enumerate(args.clients)]
        out.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{" ".join(f"{a:.1f},{b:.1f}" for a, b in points)}"/>')
        out += [f'<circle cx="{a:.1f}" cy="{b:.1f}" r="3" fill="{color}"/>' for a, b in points]
        ly = top + 10 + n * 20
        out.append(f'<line x1="{left + plot_w + 15}" x2="{left + plot_w + 40}" y1="{ly}" y2="{ly}" stroke="{color}" stroke-width="3"/>')
        out.append(f'<text x="{left + plot_w + 46}" y="{ly + 4}">{name.replace("&", "&amp;")}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


# --- 3. uid8 bulk insert --------------------------------------------------------------------------

def section_uid8_bulk(cluster, args):
    rows = scaled(2_000_000, args.scale)
    columns = [("bigserial", "bigserial"), ("uid8_new('time_sequential')", "bigint DEFAULT uid8_new('time_sequential')")]
    log(f"3. uid8 bulk: {rows:,} rows, 3 rounds")
    runs = {name: [] for name, _ in columns}
    for r in range(3):
        for name, column in columns[r % 2:] + columns[: r % 2]:
            cluster.sql(f"DROP TABLE IF EXISTS bulk_t; CREATE TABLE bulk_t (id {column} PRIMARY KEY, payload text NOT NULL); CHECKPOINT;")
            runs[name] += cluster.timed_script(f"INSERT INTO bulk_t (payload) SELECT 'x' FROM generate_series(1, {rows});\n")
            log(f"  {name}: {runs[name][-1] / 1000:.2f} s")
    cluster.sql("DROP TABLE bulk_t")
    serial, uid8 = (statistics.median(runs[name]) for name, _ in columns)
    ratio = uid8 / serial
    lines = [
        "## 3. uid8 bulk insert",
        "",
        f"`INSERT INTO t (payload) SELECT 'x' FROM generate_series(1, {rows:,})` from one session into a fresh "
        "`(id <key> PRIMARY KEY, payload text)`, median of 3 rounds (order alternated), psql's `\\timing`.",
        "",
        "| key | seconds (median) | rounds | × bigserial |",
        "|---|---:|---|---:|",
    ]
    for (name, _), ms in zip(columns, (serial, uid8)):
        lines.append(f"| `{name}` | {ms / 1000:.2f} | {', '.join(f'{v / 1000:.2f}' for v in runs[name])} | {ms / serial:.2f} |")
    return lines, [("`uid8_new('time_sequential')` bulk insert ≤ 1.5 × bigserial's time", f"{ratio:.2f}", ratio <= 1.5)]


# --- 4. Time-range query --------------------------------------------------------------------------

def fill_range_table(cluster, table, rows):
    cluster.sql(f"INSERT INTO {table} SELECT comb_uuid('{RANGE_START}'::timestamptz + (n - 1) * (interval '100 days' / {rows})), n "
                f"FROM generate_series(1, {rows}) n")


def plan_block(title, ms, plan):
    return [f"{title}: median {ms:.2f} ms", "", "```", *plan, "```", ""]


def section_range(cluster, args):
    rows = scaled(10_000_000, args.scale)
    day = f"timestamptz '{RANGE_DAY}'"
    in_range = f"comb_in_range(id, {day}, {day} + interval '1 day')"
    by_row = f"comb_timestamp(id) >= {day} AND comb_timestamp(id) < {day} + interval '1 day'"
    by_floor = f"id >= comb_floor({day}) AND id < comb_floor({day} + interval '1 day')"
    no_index = "SET enable_indexscan = off; SET enable_indexonlyscan = off; SET enable_bitmapscan = off; "
    log(f"4. time range: {rows:,} rows over 100 days")
    cluster.sql("DROP TABLE IF EXISTS range_t; CREATE TABLE range_t (id uuid NOT NULL, payload int NOT NULL)")
    fill_range_table(cluster, "range_t", rows)
    cluster.sql("ALTER TABLE range_t ADD CONSTRAINT range_t_pkey PRIMARY KEY (id); VACUUM ANALYZE range_t")

    counts = {}

    def measure(label, table, where, settings=""):
        query = f"SELECT count(*) FROM {table} WHERE {where}"
        counts[label] = int(cluster.sql(f"{settings}{query}"))
        ms, plan = explain_median(cluster, query, settings)
        log(f"  {label}: {ms:.2f} ms")
        return ms, plan

    btree = measure("btree", "range_t", in_range)
    seq = measure("seq", "range_t", by_row, no_index)
    cluster.sql("ALTER TABLE range_t DROP CONSTRAINT range_t_pkey; CREATE INDEX range_t_brin ON range_t USING brin (id); "
                "VACUUM ANALYZE range_t")
    brin = measure("brin", "range_t", in_range)
    brin_floor = measure("brin_floor", "range_t", by_floor)
    cluster.sql("DROP TABLE range_t")

    bounds = [cluster.sql(f"SELECT comb_floor('{RANGE_START}'::timestamptz + interval '{100 // PARTITIONS * i} days')")
              for i in range(1, PARTITIONS)]
    edges = ["MINVALUE"] + [f"'{b}'" for b in bounds] + ["MAXVALUE"]
    cluster.sql("DROP TABLE IF EXISTS range_p; CREATE TABLE range_p (id uuid NOT NULL, payload int NOT NULL) PARTITION BY RANGE (id);"
                + "".join(f"CREATE TABLE range_p_{i} PARTITION OF range_p FOR VALUES FROM ({edges[i]}) TO ({edges[i + 1]});"
                          for i in range(PARTITIONS)))
    fill_range_table(cluster, "range_p", rows)
    cluster.sql("ALTER TABLE range_p ADD PRIMARY KEY (id); VACUUM ANALYZE range_p")
    part = measure("partitioned", "range_p", in_range)
    part_floor = measure("partitioned_floor", "range_p", by_floor)
    cluster.sql("DROP TABLE range_p")

    def touched(plan):
        return len(set(re.findall(r" on (range_p_\d+)", "\n".join(plan))))

    expected = rows // 100
    ratio = seq[0] / btree[0]
    lines = [
        "## 4. Time-range query",
        "",
        f"A table `(id uuid PRIMARY KEY, payload int)` of {rows:,} rows, `id` = `comb_uuid(ts)` with `ts` running evenly over "
        f"100 days from {RANGE_START} (1 day = 1% of the rows). Query: `SELECT count(*) FROM t WHERE {in_range}` "
        f"(day 50). Times: EXPLAIN (ANALYZE, TIMING OFF) execution time, median of 5 after one warm-up. "
        f"Counts: {', '.join(f'{k} {v:,}' for k, v in counts.items())} (expected about {expected:,})"
        + (". **The counts differ: some plan returns wrong rows.**" if len(set(counts.values())) > 1 else "."),
        "",
        "| plan | median ms | × faster than the sequential scan | partitions in the plan |",
        "|---|---:|---:|---:|",
        f"| btree: `comb_in_range` | {btree[0]:.2f} | {seq[0] / btree[0]:.1f} | |",
        f"| sequential scan of the row-by-row definition | {seq[0]:.2f} | 1.0 | |",
        f"| BRIN instead of the btree: `comb_in_range` | {brin[0]:.2f} | {seq[0] / brin[0]:.1f} | |",
        f"| BRIN, bounds written out with `comb_floor` | {brin_floor[0]:.2f} | {seq[0] / brin_floor[0]:.1f} | |",
        f"| {PARTITIONS} range partitions (btree each): `comb_in_range` | {part[0]:.2f} | {seq[0] / part[0]:.1f} | "
        f"{touched(part[1])} of {PARTITIONS} |",
        f"| {PARTITIONS} range partitions, bounds written out with `comb_floor` | {part_floor[0]:.2f} | "
        f"{seq[0] / part_floor[0]:.1f} | {touched(part_floor[1])} of {PARTITIONS} |",
        "",
        f"The sequential scan: `{by_row}` with enable_indexscan, enable_indexonlyscan and enable_bitmapscan off "
        "(parallel query as the server's defaults allow). BRIN: the btree dropped, `CREATE INDEX ... USING brin (id)` "
        f"(default pages_per_range). Partitions: `PARTITION BY RANGE (id)`, bounds `comb_floor()` of every {100 // PARTITIONS}th "
        "day, a primary key on the parent; \"partitions in the plan\" counts the partitions EXPLAIN shows a scan of. "
        "The written-out bounds are for reference (what the planner can do with plain comparisons).",
        "",
        "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF), last run of each:",
        "",
        *plan_block("btree, `comb_in_range`", *btree),
        *plan_block("sequential scan", *seq),
        *plan_block("BRIN, `comb_in_range`", *brin),
        *plan_block("BRIN, written-out bounds", *brin_floor),
        *plan_block("partitioned, `comb_in_range`", *part),
        *plan_block("partitioned, written-out bounds", *part_floor),
    ]
    return lines, [("`comb_in_range` btree range scan ≥ 50 × faster than the sequential scan", f"{ratio:.1f}×", ratio >= 50)]


# --- Report ---------------------------------------------------------------------------------------

def command_line(args):
    env = [f"{name}={value}" for name, value, default in [
        ("COMB_EXT_BENCH_SECTIONS", ",".join(map(str, args.sections)), "1,2,3,4"),
        ("COMB_EXT_BENCH_KEYS", args.keys, ""),
        ("COMB_EXT_BENCH_CLIENTS", ",".join(map(str, args.clients)), "1,2,4,8")] if value != default]
    return " ".join(env + ["bash", "benches/keys.sh", str(args.major), f"{args.scale:g}"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--major", type=int, required=True)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--sections", type=lambda s: [int(v) for v in s.split(",") if v], default=[1, 2, 3, 4])
    parser.add_argument("--keys", default="", help="regex: section 2 keys whose name matches (bigserial always runs)")
    parser.add_argument("--clients", type=lambda s: [int(v) for v in s.split(",") if v], default=[1, 2, 4, 8])
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    work = f"{args.host}/work"
    subprocess.run(["sudo", "-u", "postgres", "mkdir", "-p", work], check=True)
    cluster = Cluster(args.host, args.port, args.bin)
    cluster.sql("CREATE DATABASE bench", db="postgres")
    cluster.sql("CREATE EXTENSION comb_ext; CREATE EXTENSION pgstattuple; CREATE SEQUENCE bench_seq;")
    version = cluster.sql("SELECT version()").split(" on ")[0]
    has_uuidv7 = cluster.sql("SELECT to_regprocedure('uuidv7()') IS NOT NULL") == "t"
    orders = comb_formats(cluster)
    log(f"{version}; comb formats and their order: {orders}")

    started = time.monotonic()
    lines = [
        f"# Dense keys under concurrency (PostgreSQL {args.major})",
        "",
        f"Produced by `{command_line(args)}` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs, "
        f"{version}, a throwaway cluster with default settings but `jit = off` (release build of comb_ext, not preloaded). "
        "Every ratio is against a baseline measured in this run; no timing here is a pass/fail test.",
    ]
    if args.scale != 1 or args.sections != [1, 2, 3, 4] or args.keys or args.clients != [1, 2, 4, 8]:
        lines += ["", f"**Development run (scale {args.scale:g}, sections {args.sections}): not a result to quote.**"]
    targets = []
    if 1 in args.sections:
        section, found = section_generation(cluster, args, has_uuidv7, orders)
        lines += [""] + section
        targets += found
    if 2 in args.sections:
        keys = [k for k in section_keys(has_uuidv7, orders) if k[0] == "bigserial" or re.search(args.keys, k[0])]
        results = section_density(cluster, args, keys, work)
        section, found = section_density_report(args, keys, orders, results)
        svg_density(args, keys, results, os.path.join(args.out, f"leaf_density-pg{args.major}.svg"))
        lines += [""] + section
        targets += found
    if 3 in args.sections:
        section, found = section_uid8_bulk(cluster, args)
        lines += [""] + section
        targets += found
    if 4 in args.sections:
        section, found = section_range(cluster, args)
        lines += [""] + section
        targets += found
    lines += ["", "## 5. Targets", "", "| target | measured | met |", "|---|---:|---|"]
    lines += [f"| {text} | {value} | {'yes' if met else 'no'} |" for text, value, met in targets] or ["| (none in the sections run) | | |"]
    lines += ["", f"Run time: {(time.monotonic() - started) / 60:.1f} min.", ""]
    path = os.path.join(args.out, f"keys-pg{args.major}.md")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    log(f"report: {path}")


if __name__ == "__main__":
    main()
