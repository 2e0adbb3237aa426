#!/usr/bin/env bash
# Benchmark (not a test): sorting N random uuids (default 2,000,000) by uuid_sqlserver_ops
# (ORDER BY id USING #<#) against PostgreSQL's native uuid order, in the same run on the same
# table, on a throwaway cluster. Prints each timing, the medians and their ratio.
#   bash benches/sqlserver_order.sh [rows] [repeats]
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"

ROWS=${1:-2000000}
REPEATS=${2:-7}
DIR=${COMB_EXT_BENCH_DIR:-/tmp/comb_ext_bench}
PORT=${COMB_EXT_BENCH_PORT:-54331}

# Both sorts fit in memory, run in one process, and read the table from shared buffers.
bench_cluster "$DIR" "$PORT" "shared_buffers = '512MB'" "work_mem = '1GB'" "max_parallel_workers_per_gather = 0" "jit = off"
psql_q() { cluster_psql "$DIR" "$PORT" -d postgres -qAt "$@"; }

say "loading $ROWS random uuids"
psql_q <<SQL
CREATE EXTENSION comb_ext;
CREATE TABLE ids AS SELECT gen_random_uuid() AS id FROM generate_series(1, $ROWS);
VACUUM ANALYZE ids;
CREATE EXTENSION IF NOT EXISTS pg_prewarm;
SELECT pg_prewarm('ids') > 0;
SQL

native="SELECT count(*) FROM (SELECT id FROM ids ORDER BY id OFFSET 0) s"
sqlserver="SELECT count(*) FROM (SELECT id FROM ids ORDER BY id USING #<# OFFSET 0) s"
say "plans"
psql_q -c "EXPLAIN (COSTS OFF) $native" -c "EXPLAIN (COSTS OFF) $sqlserver"

# Milliseconds of one run, as the server measures it (EXPLAIN ANALYZE without per-row timing).
run_ms() {
    psql_q -c "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON, FORMAT JSON) $1" \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["Execution Time"])'
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

say "timing $REPEATS alternating runs of each (ms)"
run_ms "$native" >/dev/null   # warm-up
run_ms "$sqlserver" >/dev/null
native_runs=()
sqlserver_runs=()
for i in $(seq 1 "$REPEATS"); do
    native_runs+=("$(run_ms "$native")")
    sqlserver_runs+=("$(run_ms "$sqlserver")")
    printf '  run %d: native %8.1f   sqlserver %8.1f\n' "$i" "${native_runs[-1]}" "${sqlserver_runs[-1]}"
done
native_median=$(printf '%s\n' "${native_runs[@]}" | median)
sqlserver_median=$(printf '%s\n' "${sqlserver_runs[@]}" | median)
printf '\nrows %d   median native ORDER BY id: %.1f ms   median ORDER BY id USING #<#: %.1f ms   ratio %.3f (target <= 1.3)\n' \
    "$ROWS" "$native_median" "$sqlserver_median" "$(python3 -c "print($sqlserver_median / $native_median)")"
