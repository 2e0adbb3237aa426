#!/usr/bin/env bash
# Benchmark (not a test): what each ID generator costs to call, and what it does to a table and
# its primary key as rows pour in, against PostgreSQL's own gen_random_uuid(), nextval() and
# bigserial, all in one run on a throwaway cluster with default settings. Writes
# benches/results/report.md and benches/results/insert_throughput.svg.
#   bash benches/ids.sh [rows (default 2000000)] [generation calls (default 2000000)]
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"

ROWS=${1:-2000000}
CALLS=${2:-2000000}
DIR=${COMB_EXT_BENCH_DIR:-/tmp/comb_ext_bench_ids}
PORT=${COMB_EXT_BENCH_PORT:-54332}

bench_cluster "$DIR" "$PORT"

python3 "$REPO/benches/ids.py" --host "$DIR" --port "$PORT" --bin "$PGBIN" \
    --rows "$ROWS" --calls "$CALLS" --out "$REPO/benches/results"
