#!/usr/bin/env bash
# Benchmark (not a test): inserts through a Citus coordinator into a distributed table keyed by
# bigserial (the baseline), PostgreSQL 18's uuidv7(), comb_uuid() and sno_new(). 8 pgbench clients
# each insert single rows for a fixed time; rounds alternate the keys. Reports rows per second as a
# ratio to bigserial's in the same run, and the average leaf density of the shards' primary keys
# (pgstatindex on every shard). A coordinator and two workers on Unix sockets, release build of
# comb_ext, Citus built by scripts/citus.sh; writes benches/results/citus-pg18.md.
#   bash benches/citus.sh [seconds per key and round, default 20] [rounds, default 3]
# COMB_EXT_BENCH_SHARDS: shards per table (default 8). COMB_EXT_BENCH_PG_CONFIG: another PostgreSQL 18
# install with Citus (default: the cached build of scripts/pg.sh).
# COMB_EXT_BENCH_OUT (report directory), COMB_EXT_BENCH_DIR and COMB_EXT_BENCH_PORT (cluster
# directory and first port; default /tmp/comb_ext_bench_citus, 54345) as in keys.sh.
set -euo pipefail
MAJOR=18
SECONDS_PER_RUN=${1:-20}
ROUNDS=${2:-3}
CLIENTS=8
# Fewer shards than Citus's default 32, so each shard's index holds enough rows for its leaf density to say
# something (with 32, most shards' primary keys are a few pages, dominated by the half-full last one).
SHARDS=${COMB_EXT_BENCH_SHARDS:-8}
PG_CONFIG=${COMB_EXT_BENCH_PG_CONFIG:-$(bash "$(dirname "$0")/../scripts/pg.sh" pg_config "$MAJOR")}
export PG_CONFIG
source "$(dirname "$0")/../scripts/lib/common.sh"
DIR=${COMB_EXT_BENCH_DIR:-/tmp/comb_ext_bench_citus}
BASE_PORT=${COMB_EXT_BENCH_PORT:-54345}
OUT=${COMB_EXT_BENCH_OUT:-$REPO/benches/results}

bash "$REPO/scripts/setup.sh"
[ -n "${COMB_EXT_BENCH_PG_CONFIG:-}" ] || bash "$REPO/scripts/citus.sh" build "$MAJOR"
say "installing comb_ext (release build)"
bash "$REPO/scripts/install.sh" --release --pg-config "$PG_CONFIG" >/dev/null
nodes=(0 1 2)
on() { local n=$1; shift; cluster_psql "$DIR/node$n" $((BASE_PORT + n)) -d postgres "$@"; }
cleanup() { for n in "${nodes[@]}"; do cluster_stop "$DIR/node$n"; done; }
cleanup
trap cleanup EXIT
mkdir -p "$DIR"
chown postgres:postgres "$DIR"
for n in "${nodes[@]}"; do
    rm -rf "${DIR:?}/node$n"
    cluster_start "$DIR/node$n" $((BASE_PORT + n)) "shared_preload_libraries = 'citus,comb_ext'" "max_connections = 200" \
        "jit = off" "citus.shard_count = $SHARDS" >/dev/null
    on "$n" -qAt -c "CREATE EXTENSION citus"
done
on 0 -qAt -c "CREATE EXTENSION comb_ext" -c "CREATE EXTENSION pgstattuple" \
    -c "SELECT citus_set_coordinator_host('$DIR/node0', $BASE_PORT)" \
    -c "SELECT citus_add_node('$DIR/node1', $((BASE_PORT + 1)))" -c "SELECT citus_add_node('$DIR/node2', $((BASE_PORT + 2)))" >/dev/null

# name|key column
KEYS=("bigserial|id bigserial PRIMARY KEY" "uuidv7()|id uuid PRIMARY KEY DEFAULT uuidv7()"
      "comb_uuid()|id uuid PRIMARY KEY DEFAULT comb_uuid()" "sno_new()|id sno PRIMARY KEY DEFAULT sno_new()")
table_of() { echo "kt_$1"; }
echo "INSERT INTO :table (payload) VALUES ('a row of some forty characters of payload');" >"$DIR/insert.sql"
chmod 644 "$DIR/insert.sql"
declare -A ROWS_PER_S DENSITY
for round in $(seq 1 "$ROUNDS"); do
    for i in "${!KEYS[@]}"; do
        # Each round starts the keys at a different one.
        k=$(((i + round - 1) % ${#KEYS[@]}))
        IFS='|' read -r name column <<<"${KEYS[$k]}"
        table=$(table_of "$k")
        on 0 -qAt -c "DROP TABLE IF EXISTS $table" -c "CREATE TABLE $table ($column, payload text)" \
            -c "SELECT create_distributed_table('$table', 'id')" >/dev/null
        tps=$("$PGBIN/pgbench" -n -h "$DIR/node0" -p "$BASE_PORT" -U postgres -c $CLIENTS -j $CLIENTS -T "$SECONDS_PER_RUN" \
            -D table="$table" -f "$DIR/insert.sql" postgres 2>/dev/null | awk '/^tps = / {print $3}')
        rows=$(on 0 -qAt -c "SELECT count(*) FROM $table")
        density=$(on 0 -qAt -c "SELECT round(avg(result::numeric), 1) FROM run_command_on_shards('$table', \$\$
            SELECT avg_leaf_density FROM pgstatindex((SELECT indexrelid::regclass FROM pg_index WHERE indrelid = '%s'::regclass AND indisprimary))\$\$)")
        ROWS_PER_S[$k]="${ROWS_PER_S[$k]:-} $tps"
        DENSITY[$k]="$density"
        echo "round $round: $name: $tps rows/s ($rows rows), shard PK leaf density $density%"
    done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
base=$(echo "${ROWS_PER_S[0]}" | median)
mkdir -p "$OUT"
{
    echo "# Inserts through a Citus coordinator (PostgreSQL $(on 0 -qAt -c "SHOW server_version"), Citus $(on 0 -qAt -c "SELECT extversion FROM pg_extension WHERE extname = 'citus'"))"
    echo
    echo "Produced by \`bash benches/citus.sh $SECONDS_PER_RUN $ROUNDS\` on $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs: a coordinator"
    echo "and two workers on one machine (Unix sockets), $SHARDS shards per table (\`citus.shard_count\`), $CLIENTS pgbench clients"
    echo "each inserting single rows through the coordinator for"
    echo "$SECONDS_PER_RUN s per key and round, $ROUNDS rounds with the keys' order rotated. Rows per second is the median"
    echo "of the rounds; density is pgstatindex's avg_leaf_density over every shard's primary key after the last round."
    echo
    echo "| key | rows/s (median) | rounds | × bigserial | shard PK leaf density |"
    echo "|---|---:|---|---:|---:|"
    for k in "${!KEYS[@]}"; do
        IFS='|' read -r name _ <<<"${KEYS[$k]}"
        m=$(echo "${ROWS_PER_S[$k]}" | median)
        printf '| `%s` | %.0f | %s | %.2f | %s%% |\n' "$name" "$m" "$(echo "${ROWS_PER_S[$k]}" | xargs printf '%.0f\n' | paste -sd, | sed 's/,/, /g')" \
            "$(awk -v m="$m" -v b="$base" 'BEGIN {print m / b}')" "${DENSITY[$k]}"
    done
} >"$OUT/citus-pg$MAJOR.md"
cat "$OUT/citus-pg$MAJOR.md"
