#!/usr/bin/env bash
# CREATE INDEX on N snos made in one burst (sno_new(): thousands share each 4 ms unit, so the
# abbreviated keys, bytes 0-7, rarely differ), as inserted (already in order) and shuffled, against N
# scattered ones (random times, metabytes, partitions and sequences), with trace_sort's own account
# of each sort. Median of ROUNDS builds, each sort in memory and in one process.
#   bash benches/sno_sort.sh [N] [ROUNDS]          (default 10,000,000 and 3; port 54341)
# COMB_EXT_BENCH_INSTALLED=1 measures the comb_ext already installed (to compare with another build).
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
N=${1:-10000000}
ROUNDS=${2:-3}
DIR=${COMB_EXT_BENCH_DIR:-/tmp/comb_ext_bench_sort}
PORT=54341
settings=("shared_buffers = '2GB'" "maintenance_work_mem = '4GB'" "max_parallel_maintenance_workers = 0"
          "trace_sort = on" "log_min_messages = log" "jit = off")
if [ "${COMB_EXT_BENCH_INSTALLED:-0}" = 1 ]; then
    cluster_stop "$DIR"
    rm -rf "$DIR"
    cluster_start "$DIR" "$PORT" "${settings[@]}"
    trap "cluster_stop '$DIR'" EXIT
else
    bench_cluster "$DIR" "$PORT" "${settings[@]}"
fi
sql() { cluster_psql "$DIR" "$PORT" -d postgres -qAt "$@"; }

say "making $N burst and $N scattered snos"
sql -c "CREATE EXTENSION IF NOT EXISTS comb_ext" \
    -c "DROP TABLE IF EXISTS burst, burst_shuffled, scattered" \
    -c "CREATE TABLE burst AS SELECT sno_new() AS s FROM generate_series(1, $N)" \
    -c "CREATE TABLE burst_shuffled AS SELECT s FROM burst ORDER BY random()" \
    -c "CREATE TABLE scattered AS SELECT sno_from_parts('2010-01-01 00:00+00'::timestamptz + random() * interval '60 years',
            (random() * 255)::int, (random() * 65535)::int, (random() * 65535)::int) AS s FROM generate_series(1, $N)" \
    -c "VACUUM ANALYZE burst, burst_shuffled, scattered" -c "CHECKPOINT"
sql -c "SELECT 'burst: ' || count(DISTINCT substring(sno_to_bytea(s) FROM 1 FOR 8)) || ' distinct 8-byte prefixes' FROM burst"
version=$(sql -c "SELECT extversion FROM pg_extension WHERE extname = 'comb_ext'")

for table in burst burst_shuffled scattered; do
    times=()
    for round in $(seq "$ROUNDS"); do
        log_start=$(wc -c <"$DIR/server.log")
        ms=$(sql -c '\timing on' -c "CREATE INDEX ${table}_s ON $table (s)" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
        sql -c "DROP INDEX ${table}_s"
        times+=("$ms")
        trace=$(tail -c +"$((log_start + 1))" "$DIR/server.log" | grep -E "abbrev|sort of worker -1 ended" | sed 's/^.*LOG:  //' || true)
    done
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((ROUNDS + 1) / 2))p")
    echo "comb_ext $version, CREATE INDEX on $N $table snos: median $median ms of ${times[*]}"
    echo "  trace_sort (last round): $(echo "$trace" | tr '\n' ' ')"
done
