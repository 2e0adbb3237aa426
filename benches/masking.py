"""Benchmark (not a test): ns per call of every mask and unmask (docs/ids-that-do-not-tell-their-age.md#masking),
with the setting's key and with a key passed as bytea, next to the family's generator, gen_random_uuid() and,
on PostgreSQL 18, uuidv7(), all measured in the same run.

    python benches/masking.py CONNINFO [--rows N] [--out FILE]

The server must preload comb_ext with comb_ext.mask_key set (benches/masking.sh does both). Each figure is, as in
benches/text_forms.py, the median server execution time (EXPLAIN ANALYZE, TIMING OFF) of SELECT count(f(x)) over
N rows (1,000,000 by default) over 5 rounds in rotated order, net of count(x) over the same rows, divided by N.
Nothing here asserts a time.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from text_forms import bench_connection, emit, measure  # noqa: E402  (one way of timing and reporting for both benches)

KEY = "'\\x00112233445566778899aabbccddeeff'::bytea"
# (family, generator, [(call, expression)]): id holds comb_uuid('uuidv7') ids, f7 their façades, and so on.
FAMILIES = [
    ("comb uuidv7", "comb_uuid('uuidv7')", [
        ("comb_mask(id, 'uuidv7')", "comb_mask(id, 'uuidv7')"),
        ("comb_mask(id, 'uuidv7', key)", f"comb_mask(id, 'uuidv7', {KEY})"),
        ("comb_unmask(id, 'uuidv7')", "comb_unmask(f7, 'uuidv7')"),
        ("comb_unmask(id, 'uuidv7', key)", f"comb_unmask(f7k, 'uuidv7', {KEY})"),
    ]),
    ("comb postgresql", "comb_uuid()", [
        ("comb_mask(id)", "comb_mask(pg)"),
        ("comb_mask(id, 'postgresql', key)", f"comb_mask(pg, 'postgresql', {KEY})"),
        ("comb_unmask(id)", "comb_unmask(fpg)"),
        ("comb_unmask(id, 'postgresql', key)", f"comb_unmask(fpgk, 'postgresql', {KEY})"),
    ]),
    ("muid", "muid_new()", [
        ("muid_mask(id)", "muid_mask(mu)"),
        ("muid_mask(id, key)", f"muid_mask(mu, {KEY})"),
        ("muid_unmask(id)", "muid_unmask(mu)"),
        ("muid_unmask(id, key)", f"muid_unmask(mu, {KEY})"),
    ]),
    ("sno", "sno_new()", [
        ("sno_mask(id)", "sno_mask(sn)"),
        ("sno_mask(id, key)", f"sno_mask(sn, {KEY})"),
        ("sno_unmask(id)", "sno_unmask(sn)"),
        ("sno_unmask(id, key)", f"sno_unmask(sn, {KEY})"),
    ]),
    ("uid8", "uid8_new()", [
        ("uid8_mask(id)", "uid8_mask(u8)"),
        ("uid8_mask(id, key)", f"uid8_mask(u8, {KEY})"),
        ("uid8_unmask(id)", "uid8_unmask(u8)"),
        ("uid8_unmask(id, key)", f"uid8_unmask(u8, {KEY})"),
    ]),
]


def make_table(conn, rows):
    conn.execute("DROP TABLE IF EXISTS mask_bench")
    conn.execute(f"""
        CREATE UNLOGGED TABLE mask_bench AS
        SELECT id, comb_mask(id, 'uuidv7') AS f7, comb_mask(id, 'uuidv7', {KEY}) AS f7k,
               pg, comb_mask(pg) AS fpg, comb_mask(pg, 'postgresql', {KEY}) AS fpgk, mu, sn, u8
        FROM (SELECT comb_uuid('uuidv7') AS id, comb_uuid() AS pg, muid_new() AS mu, sno_new() AS sn,
                     uid8_new() AS u8 FROM generate_series(1, {rows})) AS ids""")
    conn.execute("VACUUM ANALYZE mask_bench")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("conninfo")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--out", help="write the table (markdown) here too")
    args = parser.parse_args()
    started = time.monotonic()
    with bench_connection(args.conninfo) as conn:
        version = conn.execute("SELECT version()").fetchone()[0].split(" on ")[0]
        has_uuidv7 = conn.execute("SELECT to_regprocedure('pg_catalog.uuidv7()') IS NOT NULL").fetchone()[0]
        make_table(conn, args.rows)
        calls = [("gen_random_uuid()", "gen_random_uuid()")] + ([("uuidv7()", "uuidv7()")] if has_uuidv7 else [])
        for _, generator, masks in FAMILIES:
            calls += [(generator, generator)] + masks
        # count(id) is the baseline every figure is net of: reading a row and counting it.
        ns = measure(conn, "mask_bench", args.rows, [(n, e.replace("{", "{{").replace("}", "}}")) for n, e in calls], "")
        conn.execute("DROP TABLE mask_bench")
    base = ns["gen_random_uuid()"]
    lines = [f"Masking, ns per call ({version}; {args.rows:,} rows, median of 5 rounds net of count(id); "
             "benches/masking.py)", "",
             "| call | ns per call | × the family's generator | × gen_random_uuid() |"
             + (" × uuidv7() |" if has_uuidv7 else ""),
             "|---|---:|---:|---:|" + ("---:|" if has_uuidv7 else "")]

    def row(name, family_ns):
        ratio = lambda b: f"{ns[name] / b:.2f}" if b else ""
        extra = f" {ratio(ns['uuidv7()'])} |" if has_uuidv7 else ""
        return f"| `{name}` | {ns[name]:,.0f} | {ratio(family_ns)} | {ratio(base)} |{extra}"

    lines.append(row("gen_random_uuid()", None))
    if has_uuidv7:
        lines.append(row("uuidv7()", None))
    for _, generator, masks in FAMILIES:
        lines.append(row(generator, None))
        lines += [row(name, ns[generator]) for name, _ in masks]
    emit(lines, args.out, started)


if __name__ == "__main__":
    main()
