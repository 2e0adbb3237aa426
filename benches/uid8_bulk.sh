#!/usr/bin/env bash
# uid8_new('time_sequential') against bigserial for a bulk insert from one session, at several
# settings of comb_ext.uid8_generators_per_session: one statement
#   INSERT INTO t (payload) SELECT 'x' FROM generate_series(1, rows)
# into (id <key> PRIMARY KEY, payload text), key from its DEFAULT, timed by psql's \timing. Each
# round uses a fresh table and a fresh session (so the session's claims start from one id) after
# a CHECKPOINT; the keys take turns within a round. Prints each key's median over the rounds.
#   PG_CONFIG=... bash benches/uid8_bulk.sh [rows] [rounds] [settings...]   (defaults 2000000, 3, 1 8 16 32)
# Builds and installs a release build, and starts a throwaway cluster in /tmp/comb_ext_bench_uid8
# (port COMB_EXT_TEST_PORT + 7, default 54337; Unix socket only), stopped at the end.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
ROWS=${1:-2000000}
ROUNDS=${2:-3}
shift $(($# < 2 ? $# : 2))
SETTINGS=("$@")
[ ${#SETTINGS[@]} -gt 0 ] || SETTINGS=(1 8 16 32)
DIR=${COMB_EXT_BENCH_DIR:-/tmp/comb_ext_bench_uid8}
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 7))
bench_cluster "$DIR" "$PORT" "max_wal_size = '4GB'" "checkpoint_timeout = '30min'"
cluster_psql "$DIR" "$PORT" -d postgres -qAt -c "CREATE EXTENSION IF NOT EXISTS comb_ext"

# key label -> "column type and default|session setup"
labels=(bigserial)
declare -A KEYS=([bigserial]="bigserial|")
for s in "${SETTINGS[@]}"; do
    labels+=("uid8_$s")
    KEYS[uid8_$s]="bigint DEFAULT uid8_new('time_sequential')|SET comb_ext.uid8_generators_per_session = $s;"
done

declare -A TIMES GENERATORS
for round in $(seq 1 "$ROUNDS"); do
    for label in "${labels[@]}"; do
        key=${KEYS[$label]%%|*}
        setup=${KEYS[$label]#*|}
        cluster_psql "$DIR" "$PORT" -d postgres -qAt -c "DROP TABLE IF EXISTS t" \
            -c "CREATE TABLE t (id $key PRIMARY KEY, payload text)" -c "CHECKPOINT"
        out=$(cluster_psql "$DIR" "$PORT" -d postgres -qAt <<SQL
$setup
\\timing on
INSERT INTO t (payload) SELECT 'x' FROM generate_series(1, $ROWS);
\\timing off
SELECT count(DISTINCT CASE WHEN '$label' = 'bigserial' THEN 0 ELSE uid8_generator(id) END) FROM t;
SQL
)
        ms=$(echo "$out" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
        TIMES[$label]+="$ms "
        GENERATORS[$label]=$(echo "$out" | tail -n1)
        echo "round $round: $label ${ms} ms" >&2
    done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
base=$(echo "${TIMES[bigserial]}" | median)
echo "| key | comb_ext.uid8_generators_per_session | median ms ($ROUNDS rounds) | × bigserial | generator ids used (last round) |"
echo "|---|---:|---:|---:|---:|"
for label in "${labels[@]}"; do
    m=$(echo "${TIMES[$label]}" | median)
    setting=${label#uid8_}
    [ "$label" = bigserial ] && setting="" && key="bigserial" || key="uid8_new('time_sequential')"
    [ "$label" = bigserial ] && ids="" || ids=${GENERATORS[$label]}
    printf '| `%s` | %s | %.0f | %.2f | %s |\n' "$key" "$setting" "$m" "$(echo "$m / $base" | bc -l)" "$ids"
done
