#!/usr/bin/env python3
"""Driver of benches/peers.sh: comb_ext's generators beside pgEdge snowflake, pg_uuidv7 and PostgreSQL's own,
in the cluster the shell script started. Per-call cost (benches/ids.py's measure_generation), bulk inserts from
1 and 8 pgbench clients, and a PNG chart when matplotlib is there. The psql plumbing is benches/ids.py's."""

import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ids import Cluster, log, measure_generation, pgbench_seconds, settle_muid, settle_uid8  # noqa: E402

PGBENCH_BATCH = 1000
CLIENTS = (1, 8)


def generators(major, peers):
    """(name, SQL expression) of every generator timed per call, PostgreSQL's own first."""
    out = [("nextval()", "nextval('bench_seq')")]
    if "snowflake" in peers:
        out.append(("snowflake.nextval()", "snowflake.nextval('bench_flake'::regclass)"))
    out.append(("gen_random_uuid()", "gen_random_uuid()"))
    if major >= 18:
        out.append(("uuidv7()", "uuidv7()"))
    if "pg_uuidv7" in peers:
        out.append(("uuid_generate_v7()", "uuid_generate_v7()"))
    out += [
        ("comb_uuid()", "comb_uuid()"),
        ("comb_uuid('uuidv7')", "comb_uuid('uuidv7'::comb_format)"),
        ("comb_uuid('sqlserver')", "comb_uuid('sqlserver'::comb_format)"),
        ("muid_new()", "muid_new()"),
        ("sno_new()", "sno_new()"),
        ("uid8_new('time_sequential')", "uid8_new('time_sequential')"),
        ("uid8_new('spread')", "uid8_new('spread')"),
    ]
    return out


# comb_format's labels but 'postgresql', comb_uuid()'s default (src/families/comb.rs).
COMB_FORMATS = ("sqlserver", "legacy", "binary", "postgresql_sqldatetime", "binary_sqldatetime", "ticks", "uuidv7")


# The formats whose keys go in a uuid_sqlserver_ops index (the column definitions below end so).
SQLSERVER_ORDER = tuple(f"comb_uuid('{f}'::comb_format)" for f in ("sqlserver", "legacy", "ticks"))
# The formats whose keys go in a uuid_binary_ops index: .NET's ToByteArray bytes compared raw.
BINARY_ORDER = tuple(f"comb_uuid('{f}'::comb_format)" for f in ("binary", "binary_sqldatetime"))


def keys(major, peers):
    """(name, column definition, owner: 'postgres', 'comb_ext' or a peer) of every key loaded in bulk."""
    out = [("bigserial", "bigserial", "postgres")]
    if "snowflake" in peers:
        # A sequence whose nextval is snowflake's, as snowflake's docs set a key up.
        out.append(("snowflake.nextval()", "bigint DEFAULT snowflake.nextval('kt_flake'::regclass)", "snowflake"))
    out.append(("gen_random_uuid()", "uuid DEFAULT gen_random_uuid()", "postgres"))
    if major >= 18:
        out.append(("uuidv7()", "uuid DEFAULT uuidv7()", "postgres"))
    if "pg_uuidv7" in peers:
        out.append(("uuid_generate_v7()", "uuid DEFAULT uuid_generate_v7()", "pg_uuidv7"))
    out += [
        ("comb_uuid()", "uuid DEFAULT comb_uuid()", "comb_ext"),
    ]
    # Every other format (comb_uuid() is 'postgresql'): issue 42 holds each to bigserial's bulk time.
    out += [(f"comb_uuid('{f}')", f"uuid DEFAULT comb_uuid('{f}'::comb_format)", "comb_ext") for f in COMB_FORMATS]
    out += [
        ("muid_new()", "uuid DEFAULT muid_new()", "comb_ext"),
        ("sno_new()", "sno DEFAULT sno_new()", "comb_ext"),
        ("uid8_new('time_sequential')", "bigint DEFAULT uid8_new('time_sequential')", "comb_ext"),
        ("uid8_new('spread')", "bigint DEFAULT uid8_new('spread')", "comb_ext"),
    ]
    return out


def settle(cluster, column):
    """Each load starts with the run-ahead generators back at the clock (ids.py's settle_*), so that it times
    the load, not the bound left by the one before."""
    if "uid8_new" in column:
        settle_uid8(cluster)
    if "muid_new" in column:
        settle_muid(cluster)


def bulk_load(cluster, column, clients, rows, script):
    """A fresh table kt (id <column> PRIMARY KEY, payload text) loaded by `clients` pgbench clients in
    transactions of PGBENCH_BATCH rows. Returns seconds, rows, distinct ids, index bytes, leaf density and,
    for uid8, how far the newest id's time was ahead of the clock when the load ended."""
    # The SQL Server formats keep their time where SQL Server sorts first, the binary formats where .NET's
    # ToByteArray bytes do: keyed as docs/comb.md says, NOT NULL with a unique uuid_sqlserver_ops or
    # uuid_binary_ops index (a PRIMARY KEY takes only the default order, which sees them as random).
    key = ("CREATE UNIQUE INDEX kt_id ON kt (id uuid_sqlserver_ops);" if column.endswith(SQLSERVER_ORDER)
           else "CREATE UNIQUE INDEX kt_id ON kt (id uuid_binary_ops);" if column.endswith(BINARY_ORDER)
           else "ALTER TABLE kt ADD CONSTRAINT kt_id PRIMARY KEY (id);")
    cluster.sql("DROP TABLE IF EXISTS kt; DROP SEQUENCE IF EXISTS kt_flake; CREATE SEQUENCE kt_flake; "
                f"CREATE TABLE kt (id {column} NOT NULL, payload text NOT NULL); {key} CHECKPOINT;")
    settle(cluster, column)
    seconds = pgbench_seconds(cluster, clients, max(round(rows / PGBENCH_BATCH / clients), 1), script, column)
    ahead, density = "NULL", "NULL"
    if cluster.sql("SELECT count(*) FROM pg_extension WHERE extname = 'pgstattuple'") == "1":
        density = "(pgstatindex('kt_id')).avg_leaf_density"
    if "uid8_new" in column:
        # now(): when this statement began, right after pgbench's end (clock_timestamp() would read the
        # clock after the scan of the table).
        ahead = "extract(epoch FROM max(uid8_timestamp(id)) - now()) * 1000"
    loaded, distinct, index_bytes, density, ahead_ms = cluster.sql(
        f"SELECT count(*), count(DISTINCT id), pg_relation_size('kt_id'), {density}, {ahead} FROM kt").split("|")
    return {
        "seconds": seconds,
        "rows": int(loaded),
        "duplicates": int(loaded) - int(distinct),
        "index_bytes": int(index_bytes),
        "leaf_density": float(density) if density else float("nan"),
        "ahead_ms": float(ahead_ms) if ahead_ms else None,
    }


def insert_script(work):
    script = os.path.join(work, "peers_insert.sql")
    with open(script, "w") as f:
        f.write(f"INSERT INTO kt (payload) SELECT 'x' FROM generate_series(1, {PGBENCH_BATCH});\n")
    os.chmod(script, 0o644)
    return script


# The keys of issue 42's bulk targets against bigserial and snowflake, loaded again in rounds with bigserial, one right after another.
PAIRED = ("uid8_new('time_sequential')", "uid8_new('spread')", "snowflake.nextval()")
# The keys of its 1-session bulk targets (section 2), paired from one client only.
PAIRED_ONE_CLIENT = ("sno_new()", "muid_new()", "comb_uuid()", *(f"comb_uuid('{f}')" for f in COMB_FORMATS))


# 8-client loads on 2 CPUs range about three times as wide as 1-client ones (stop 56's runs: uid8 against
# bigserial 0.80-1.43 from 8 clients, 0.87-1.15 from 1), so they get three times the rounds.
EIGHT_CLIENT_ROUNDS = 3


def measure_pairs(cluster, key_list, rows, pairs, work):
    """`pairs` rounds from 1 client and EIGHT_CLIENT_ROUNDS times as many from 8, each a load of bigserial and one of each PAIRED key right after one
    another (the order rotated each round), and from 1 client a load of each PAIRED_ONE_CLIENT key right beside one
    of bigserial (bigserial first in even pairs, second in odd ones). This machine's speed drifts between loads
    minutes apart (stop 51: one key's loads 1.85 to 2.68 s), which the rotated medians above carry into their
    ratios; loads in a row see nearly the same machine. Returns ((key name, clients) -> [its time / bigserial's, one
    per round], (uid8 key name, clients) -> [its time / snowflake's in the same round])."""
    script = insert_script(work)
    columns = {name: column for name, column, _ in key_list}
    ratios, vs_flake = {}, {}

    def loads(clients, names):
        return {n: bulk_load(cluster, columns[n], clients, rows, script)["seconds"] for n in names}

    for p in range(pairs * EIGHT_CLIENT_ROUNDS):
        for clients in (c for c in CLIENTS if c > 1 or p < pairs):
            group = ["bigserial"] + [name for name in PAIRED if name in columns]
            shift = p % len(group)
            seconds = loads(clients, group[shift:] + group[:shift])
            singles = [name for name in PAIRED_ONE_CLIENT if name in columns] if clients == 1 else []
            for name in singles:
                order = ["bigserial", name]
                seconds.update(loads(clients, order if p % 2 == 0 else order[::-1]))
                ratios.setdefault((name, clients), []).append(seconds[name] / seconds["bigserial"])
                log(f"  pair {p + 1}, {clients} client(s), {name}: {seconds[name]:.2f} s, bigserial "
                    f"{seconds['bigserial']:.2f} s: {ratios[(name, clients)][-1]:.3f} × bigserial")
            for name in group[1:]:
                ratios.setdefault((name, clients), []).append(seconds[name] / seconds["bigserial"])
                line = f"  round {p + 1}, {clients} client(s), {name}: {seconds[name]:.2f} s: {ratios[(name, clients)][-1]:.3f} × bigserial"
                if name.startswith("uid8_new") and "snowflake.nextval()" in seconds:
                    vs_flake.setdefault((name, clients), []).append(seconds[name] / seconds["snowflake.nextval()"])
                    line += f", {vs_flake[(name, clients)][-1]:.3f} × snowflake"
                log(line)
    return ratios, vs_flake


def measure_bulk(cluster, key_list, rows, rounds, work):
    script = insert_script(work)
    runs = {}  # (key, clients) -> [result]
    for r in range(rounds):
        for clients in CLIENTS:
            # Rotate the keys each round, so drift in the machine's speed hits every key alike.
            shift = (r * len(CLIENTS) + clients) % len(key_list)
            for name, column, _ in key_list[shift:] + key_list[:shift]:
                result = bulk_load(cluster, column, clients, rows, script)
                runs.setdefault((name, clients), []).append(result)
                log(f"  round {r + 1}, {clients} client(s), {name}: {result['rows']:,} rows in {result['seconds']:.2f} s, "
                    f"leaf density {result['leaf_density']:.1f}%, duplicates {result['duplicates']}")
    summary = {}
    for key, results in runs.items():
        summary[key] = {
            "seconds": statistics.median(x["seconds"] for x in results),
            "rows": results[-1]["rows"],
            "duplicates": sum(x["duplicates"] for x in results),
            "index_bytes": results[-1]["index_bytes"],
            "leaf_density": statistics.median(x["leaf_density"] for x in results),
            "ahead_ms": max((x["ahead_ms"] for x in results if x["ahead_ms"] is not None), default=None),
        }
    return summary


def chart(key_list, bulk, path, title):
    """Bulk-insert time (1 and 8 clients) and index size per generator, as horizontal bars."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("peers: chart skipped: no matplotlib in this Python (benches/peers.sh installs it into a venv)")
        return False
    names = [name for name, _, _ in key_list]
    colors = {"postgres": "#7f7f7f", "comb_ext": "#1b9e77", "snowflake": "#d95f02", "pg_uuidv7": "#7570b3"}
    bar_colors = [colors[owner] for _, _, owner in key_list]
    fig, axes = plt.subplots(1, 3, figsize=(15, 0.45 * len(names) + 1.8), sharey=True)
    y = list(range(len(names)))
    for ax, clients in zip(axes, CLIENTS):
        ax.barh(y, [bulk[(n, clients)]["seconds"] for n in names], color=bar_colors)
        ax.axvline(bulk[("bigserial", clients)]["seconds"], color="black", linestyle=":", linewidth=1)
        ax.set_xlabel(f"seconds, {clients} client{'s' if clients > 1 else ''} (dotted: bigserial)")
    axes[2].barh(y, [bulk[(n, 1)]["index_bytes"] / 2**20 for n in names], color=bar_colors)
    axes[2].set_xlabel("primary-key index, MiB")
    axes[0].set_yticks(y, names)
    axes[0].invert_yaxis()
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in colors.values()]
    fig.legend(handles, list(colors), loc="upper right", ncols=4, frameon=False)
    fig.suptitle(title, x=0.01, ha="left")
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def report(args, version, peers, calls, base_ms, ns, key_list, bulk, has_chart, pairs, vs_flake):
    nextval = ns["nextval()"]
    flake = ns.get("snowflake.nextval()")
    serial = {c: bulk[("bigserial", c)]["seconds"] for c in CLIENTS}
    flake_bulk = {c: bulk[("snowflake.nextval()", c)]["seconds"] for c in CLIENTS} if flake else None
    command = f"bash benches/peers.sh {args.major} {args.rows} {args.calls} {args.rounds}" + (f" {args.pairs}" if args.pairs else "")
    lines = [
        f"# comb_ext beside its peers on PostgreSQL {args.major}",
        "",
        f"Produced by `{command}` (with `COMB_EXT_SNOWFLAKE_SRC` and `COMB_EXT_PG_UUIDV7_SRC` set) on "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs, {version}; a throwaway cluster, "
        "comb_ext's release build preloaded, `snowflake.node = 1`, JIT off, `synchronous_commit = off` (each load times its inserts, not the disk's flushes). Peers built here with PGXS: "
        + (", ".join(f"{p} {peers[p]}" for p in peers) or "none") + ".",
        "",
        "## Cost per call",
        "",
        f"`SELECT count(f()) FROM generate_series(1, {calls:,})`: median server execution time (EXPLAIN ANALYZE) of 5 "
        f"rounds, order rotated each round, net of `count(*)` over the same series in the same round (median {base_ms:.0f} ms). uid8 and muid "
        "start each timing back at the clock (they run ahead of it by at most 2 s).",
        "",
        "| generator | ns per call | × nextval() |" + (" × snowflake |" if flake else ""),
        "|---|---:|---:|" + ("---:|" if flake else ""),
    ]
    for name, _ in generators(args.major, peers):
        row = f"| `{name}` | {ns[name]:.0f} | {ns[name] / nextval:.2f} |"
        lines.append(row + (f" {ns[name] / flake:.2f} |" if flake else ""))
    lines += [
        "",
        f"## Bulk inserts of {args.rows:,} rows",
        "",
        f"A fresh table `(id <key> PRIMARY KEY, payload text)` for each load (the SQL Server formats `sqlserver`, "
        "`legacy` and `ticks`: `NOT NULL` and a unique `uuid_sqlserver_ops` index; the `binary` formats, whose order "
        "is .NET's `ToByteArray` for `binary(16)` columns elsewhere: `NOT NULL` and a unique `uuid_binary_ops` "
        "index; as docs/comb.md keys them), the key from its DEFAULT, loaded by "
        f"`pgbench -n -c N -j N` in transactions of one `INSERT ... SELECT` of {PGBENCH_BATCH:,} rows; wall time of "
        f"pgbench, median of {args.rounds} rounds (keys rotated each round). Index size from the last 1-client load, "
        "leaf density (`pgstatindex`) the median over the 1-client loads. Duplicates: `count(*) - count(DISTINCT id)` "
        "summed over every load (a duplicate would also fail its transaction against the primary key, and stop the run). "
        "Ahead: for uid8, the most any load's newest id was ahead of the clock when the load ended (negative: behind it).",
        "",
        "| key | 1 client s | × bigserial |" + (" × snowflake |" if flake else "") + " 8 clients s | × bigserial |"
        + (" × snowflake |" if flake else "") + " index MiB | leaf density % | duplicates | ahead ms |",
        "|---|---:|---:|" + ("---:|" if flake else "") + "---:|---:|" + ("---:|" if flake else "") + "---:|---:|---:|---:|",
    ]
    for name, _, _ in key_list:
        cells = [f"`{name}`"]
        for c in CLIENTS:
            s = bulk[(name, c)]["seconds"]
            cells += [f"{s:.2f}", f"{s / serial[c]:.2f}"] + ([f"{s / flake_bulk[c]:.2f}"] if flake else [])
        one = bulk[(name, 1)]
        dups = sum(bulk[(name, c)]["duplicates"] for c in CLIENTS)
        ahead = max((bulk[(name, c)]["ahead_ms"] for c in CLIENTS if bulk[(name, c)]["ahead_ms"] is not None), default=None)
        cells += [f"{one['index_bytes'] / 2**20:.1f}", "n/a" if one["leaf_density"] != one["leaf_density"] else f"{one['leaf_density']:.1f}", str(dups),
                  "" if ahead is None else f"{ahead:.0f}"]
        lines.append("| " + " | ".join(cells) + " |")
    if pairs:
        rounds = {c: len(pairs[(PAIRED[0], c)]) for c in CLIENTS if (PAIRED[0], c) in pairs}
        lines += [
            "",
            "## Bulk inserts paired with bigserial",
            "",
            f"Rounds of loads as above, {' and '.join(f'{n} from {c} client(s)' for c, n in rounds.items())} (8-client "
            "loads range wider), each a load of bigserial, snowflake and uid8 in both "
            "modes right after one another (the order rotated each round), and from 1 client the keys of the 1-session "
            "targets (sno, muid, every COMB format) each right beside a load of bigserial (bigserial first in every other "
            "pair): each load's ratio to bigserial's, and uid8's to snowflake's, in the same round, so that the machine's "
            "drift between loads minutes apart stays out of them. Medians of the rounds, and the range.",
            "",
            "| key | clients | × bigserial, median | range | × snowflake, median | range |",
            "|---|---:|---:|---|---:|---|",
        ]
        for (name, clients), ratios in pairs.items():
            flake = vs_flake.get((name, clients))
            flake_cells = f"{statistics.median(flake):.3f} | {min(flake):.3f} to {max(flake):.3f}" if flake else " | "
            lines.append(f"| `{name}` | {clients} | {statistics.median(ratios):.3f} | {min(ratios):.3f} to {max(ratios):.3f} | {flake_cells} |")
    targets = []  # (target, measured, met)

    def ratio_target(text, value, limit=1.0):
        targets.append((text, f"{value:.2f}", value <= limit))

    uid8 = "uid8_new('time_sequential')"
    if flake:
        for mode in ("time_sequential", "spread"):
            ratio_target(f"`uid8_new('{mode}')` cost per call ≤ 1.0 × snowflake's", ns[f"uid8_new('{mode}')"] / flake)
        for c in CLIENTS:
            ratio_target(f"uid8 bulk insert, {c} client(s), ≤ 1.0 × snowflake's", bulk[(uid8, c)]["seconds"] / flake_bulk[c])
    for c in CLIENTS:
        ratio_target(f"uid8 bulk insert, {c} client(s), ≤ 1.0 × bigserial's", bulk[(uid8, c)]["seconds"] / serial[c])
    for c in CLIENTS:
        if (uid8, c) in pairs:
            paired = statistics.median(pairs[(uid8, c)])
            ratio_target(f"uid8 bulk insert, {c} client(s), paired, ≤ 1.0 × bigserial's", paired)
            if (uid8, c) in vs_flake:
                ratio_target(f"uid8 bulk insert, {c} client(s), paired, ≤ 1.0 × snowflake's",
                             statistics.median(vs_flake[(uid8, c)]))
    comb_ns = ns["comb_uuid()"]
    targets.append(("`comb_uuid()` cost per call ≤ 60 ns, or ≤ 0.35 × nextval()'s",
                    f"{comb_ns:.0f} ns, {comb_ns / nextval:.2f} ×", comb_ns <= 60 or comb_ns / nextval <= 0.35))
    for name in ("sno_new()", "muid_new()", "comb_uuid()", *(f"comb_uuid('{f}')" for f in COMB_FORMATS), uid8):
        ratio_target(f"`{name}` 1-client bulk insert ≤ 1.0 × bigserial's", bulk[(name, 1)]["seconds"] / serial[1])
        if (name, 1) in pairs and name != uid8:  # uid8's paired rows are above
            ratio_target(f"`{name}` 1-client bulk insert, paired, ≤ 1.0 × bigserial's", statistics.median(pairs[(name, 1)]))
    lines += ["", "## Targets (issue 42)", "", "| target | measured | met |", "|---|---:|---|"]
    for text, measured, met in targets:
        lines.append(f"| {text} | {measured} | {'yes' if met else 'no'} |")
    if has_chart:
        lines += ["", "## Chart", "", f"![bulk-insert time and index size per generator](peers-pg{args.major}.png)"]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--major", type=int, required=True)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--calls", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=0, help="rounds of the PAIRED keys and bigserial in a row (and of each PAIRED_ONE_CLIENT key beside bigserial)")
    parser.add_argument("--peers", default="", help="comma-separated 'name tag' of the peers built")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    peers = dict(p.split(" ", 1) for p in args.peers.split(",") if p.strip())
    os.makedirs(args.out, exist_ok=True)
    work = f"{args.host}/work"
    subprocess.run(["sudo", "-u", "postgres", "mkdir", "-p", work], check=True)
    cluster = Cluster(args.host, args.port, args.bin)
    cluster.sql("CREATE DATABASE bench", db="postgres")
    setup = "CREATE EXTENSION comb_ext; CREATE SEQUENCE bench_seq;"
    if cluster.sql("SELECT count(*) FROM pg_available_extensions WHERE name = 'pgstattuple'") == "1":
        setup += "CREATE EXTENSION pgstattuple;"
    else:
        print("peers: leaf density skipped: this server has no pgstattuple (contrib)")
    if "snowflake" in peers:
        setup += "CREATE EXTENSION snowflake; CREATE SEQUENCE bench_flake;"
    if "pg_uuidv7" in peers:
        setup += "CREATE EXTENSION pg_uuidv7;"
    cluster.sql(setup)
    version = cluster.sql("SELECT version()").split(" on ")[0]

    gens = generators(args.major, peers)
    log(f"cost per call: {len(gens)} generators × {args.calls:,} calls, 5 rounds")
    base_ms, ns = measure_generation(cluster, args.calls, 5, gens)
    for name, value in ns.items():
        log(f"  {name}: {value:.0f} ns per call ({value / ns['nextval()']:.2f} × nextval())")

    key_list = keys(args.major, peers)
    log(f"bulk inserts: {len(key_list)} keys × clients {CLIENTS} × {args.rounds} rounds, {args.rows:,} rows each")
    bulk = measure_bulk(cluster, key_list, args.rows, args.rounds, work)
    pairs, vs_flake = {}, {}
    if args.pairs:
        log(f"bulk inserts paired with bigserial: {args.pairs} rounds of bigserial, {', '.join(PAIRED)} in a row from 1 and 8 "
            f"clients, and pairs of bigserial and each of {', '.join(PAIRED_ONE_CLIENT)} from 1")
        pairs, vs_flake = measure_pairs(cluster, key_list, args.rows, args.pairs, work)

    png = os.path.join(args.out, f"peers-pg{args.major}.png")
    has_chart = chart(key_list, bulk, png, f"Bulk inserts of {args.rows:,} rows and index size, {version}")
    text = report(args, version, peers, args.calls, base_ms, ns, key_list, bulk, has_chart, pairs, vs_flake)
    path = os.path.join(args.out, f"peers-pg{args.major}.md")
    with open(path, "w") as f:
        f.write(text)
    print(text)
    log(f"report: {path}")


if __name__ == "__main__":
    main()
