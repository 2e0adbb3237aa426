#!/usr/bin/env bash
# Benchmark (not a test): the SQL edition's COMB generator (portable/comb.sql) against
# gen_random_uuid(), PostgreSQL 18's uuidv7() and the compiled comb_uuid(), as ratios measured in one
# run: ns per call, a bulk insert against bigserial, and primary-key leaf density with 8 pgbench
# clients (measured as benches/keys.sh does). Throwaway cluster of PostgreSQL MAJOR with the release
# build of comb_ext installed (for the comparison; the SQL edition is loaded from portable/comb.sql
# into schema `portable`, the compiled one is created in schema `compiled`). Writes
# benches/results/portable-pgMAJOR.md.
#   bash benches/portable.sh MAJOR [rows (default 1000000)] [generation calls (default 200000)]
#   COMB_EXT_BENCH_DIR, COMB_EXT_BENCH_PORT   the cluster's directory and port (default /tmp/comb_ext_bench_portable, 54344)
#   COMB_EXT_BENCH_OUT                        where the report goes (default benches/results)
#   COMB_EXT_PORTABLE_BASELINE=COMMIT         also measure that commit's portable/comb.sql as `baseline`
#                                             (an A/B of the SQL edition in one run)
set -euo pipefail
MAJOR=${1:?usage: bash benches/portable.sh MAJOR [rows] [calls]}
ROWS=${2:-1000000}
CALLS=${3:-200000}
PG_CONFIG=${PG_CONFIG:-$(bash "$(dirname "$0")/../scripts/pg.sh" pg_config "$MAJOR")}
export PG_CONFIG
source "$(dirname "$0")/../scripts/lib/common.sh"

DIR=${COMB_EXT_BENCH_DIR:-/tmp/comb_ext_bench_portable}
PORT=${COMB_EXT_BENCH_PORT:-54344}
OUT=${COMB_EXT_BENCH_OUT:-$REPO/benches/results}

bench_cluster "$DIR" "$PORT" "jit = off"

baseline=()
if [ -n "${COMB_EXT_PORTABLE_BASELINE:-}" ]; then
    git -C "$REPO" show "$COMB_EXT_PORTABLE_BASELINE:portable/comb.sql" > "$DIR/baseline_comb.sql"
    baseline=(--baseline "$DIR/baseline_comb.sql" --baseline-name "$(git -C "$REPO" rev-parse --short "$COMB_EXT_PORTABLE_BASELINE")")
fi
python3 "$REPO/benches/portable.py" --host "$DIR" --port "$PORT" --bin "$PGBIN" --major "$MAJOR" \
    --rows "$ROWS" --calls "$CALLS" --out "$OUT" "${baseline[@]}"
