#!/usr/bin/env bash
# Benchmark (not a test): dense keys under concurrency. What each generator costs per call, how full
# each key's index stays when 1, 2, 4 and 8 pgbench clients insert at once, uid8_new() in a bulk insert,
# and comb_in_range() as an index range scan (btree, BRIN, range partitions) against a sequential scan.
# Every ratio is against a baseline measured in the same run (bigserial, uuidv7() or gen_random_uuid(),
# the sequential scan); no timing is a pass/fail test. Throwaway cluster of PostgreSQL MAJOR with the
# release build of comb_ext installed; writes benches/results/keys-pgMAJOR.md and
# benches/results/leaf_density-pgMAJOR.svg.
#   bash benches/keys.sh MAJOR [scale]      (MAJOR 15 or 18; scale 1 = 1 M rows per load, 10 M in the range table)
# For development (a run at scale 0.05 takes a few minutes):
#   COMB_EXT_BENCH_SECTIONS=1,2,3,4   which sections to run (default all)
#   COMB_EXT_BENCH_KEYS=REGEX         keys of section 2 whose name matches (bigserial, the baseline, always runs)
#   COMB_EXT_BENCH_CLIENTS=1,2,4,8    client counts of section 2
#   COMB_EXT_BENCH_OUT=DIR            where the report and plot go (default benches/results)
#   COMB_EXT_BENCH_DIR, COMB_EXT_BENCH_PORT   the cluster's directory and port (default /tmp/comb_ext_bench_keys, 54342)
# Cargo's CARGO_TARGET_DIR is honoured by the build, as everywhere.
set -euo pipefail
MAJOR=${1:?usage: bash benches/keys.sh MAJOR [scale]}
SCALE=${2:-1}
PG_CONFIG=$(bash "$(dirname "$0")/../scripts/pg.sh" pg_config "$MAJOR")
export PG_CONFIG
source "$(dirname "$0")/../scripts/lib/common.sh"

DIR=${COMB_EXT_BENCH_DIR:-/tmp/comb_ext_bench_keys}
PORT=${COMB_EXT_BENCH_PORT:-54342}
OUT=${COMB_EXT_BENCH_OUT:-$REPO/benches/results}

# JIT off: it would add its compile time to the sequential scans of section 4, not measure them.
bench_cluster "$DIR" "$PORT" "jit = off"

python3 "$REPO/benches/keys.py" --host "$DIR" --port "$PORT" --bin "$PGBIN" --major "$MAJOR" --scale "$SCALE" \
    --sections "${COMB_EXT_BENCH_SECTIONS:-1,2,3,4}" --keys "${COMB_EXT_BENCH_KEYS:-}" \
    --clients "${COMB_EXT_BENCH_CLIENTS:-1,2,4,8}" --out "$OUT"
