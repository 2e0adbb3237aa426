#!/usr/bin/env bash
# Benchmark (not a test): a key's leaf density in two builds of comb_ext, A/B, the builds alternated
# round by round on one preloaded server, so that both meet the same machine. One load of
# benches/keys.sh's second section moves by several points from run to run with 2 clients; the rounds
# here show that spread beside the difference between the builds.
#   bash benches/density_ab.sh STAGE_A STAGE_B [rounds] [clients...]
# Stages as for benches/instructions_ab.sh (`cargo pgrx package --out-dir STAGE`, a release build),
# installed into $PG_CONFIG's server by rename and put back at the end. Each load: a fresh table
# `(id bigint DEFAULT KEY PRIMARY KEY, payload text)`, 1,000,000 rows by `pgbench -n -c C -j C` in
# transactions of `INSERT ... SELECT 'x' FROM generate_series(1, 1000)` (benches/keys.sh's), then
# pgstatindex's avg_leaf_density and the index's size. KEY: COMB_EXT_AB_KEY, by default
# uid8_new('time_sequential'::uid8_mode) (typed: older libraries lack uid8_new(text)).
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
STAGE_A=${1:?usage: bash benches/density_ab.sh STAGE_A STAGE_B [rounds] [clients...]}
STAGE_B=${2:?usage: bash benches/density_ab.sh STAGE_A STAGE_B [rounds] [clients...]}
ROUNDS=${3:-3}
shift $(($# < 3 ? $# : 3))
CLIENTS=("$@")
[ ${#CLIENTS[@]} -gt 0 ] || CLIENTS=(2 4 8)
KEY=${COMB_EXT_AB_KEY:-"uid8_new('time_sequential'::uid8_mode)"}
DIR=${COMB_EXT_BENCH_DIR:-/tmp/comb_ext_bench_density}
PORT=${COMB_EXT_BENCH_PORT:-54347}

ab_begin "$DIR"
# The extension created with B's library (the SQL installed is the newer), pgstattuple beside it.
ab_install_library "$STAGE_B"
cluster_start "$DIR" "$PORT" "shared_preload_libraries = 'comb_ext'" "jit = off" >/dev/null
cluster_psql "$DIR" "$PORT" -d postgres -qAt -c "CREATE EXTENSION comb_ext" -c "CREATE EXTENSION pgstattuple"
script=$(mktemp /tmp/comb_ext_density.XXXXXX.sql)
chmod 644 "$script"
echo "INSERT INTO kt (payload) SELECT 'x' FROM generate_series(1, 1000);" >"$script"

# One load from $1 clients: "density MiB".
load() {
    local clients=$1
    cluster_psql "$DIR" "$PORT" -d postgres -qAt -c "DROP TABLE IF EXISTS kt" \
        -c "CREATE TABLE kt (id bigint NOT NULL DEFAULT $KEY, payload text NOT NULL)" \
        -c "ALTER TABLE kt ADD CONSTRAINT kt_id PRIMARY KEY (id)" >/dev/null
    as_postgres "$PGBIN/pgbench" -h "$DIR" -p "$PORT" -U postgres -n -c "$clients" -j "$clients" \
        -t $((1000 / clients)) -f "$script" postgres >/dev/null
    cluster_psql "$DIR" "$PORT" -d postgres -qAt -F ' ' -c "SELECT round((pgstatindex('kt_id')).avg_leaf_density::numeric, 1),
        round(pg_relation_size('kt_id') / 1048576.0, 1)"
}

declare -A density size
for round in $(seq 1 "$ROUNDS"); do
    for side in A B; do
        stage=$STAGE_A
        [ $side = B ] && stage=$STAGE_B
        cluster_stop "$DIR"
        ab_install_library "$stage"
        cluster_start "$DIR" "$PORT" >/dev/null
        for c in "${CLIENTS[@]}"; do
            read -r d m < <(load "$c")
            density[$side,$c]+="$d "
            size[$side,$c]+="$m "
            echo "round $round, $side, $c clients: leaf density $d%, index $m MiB" >&2
        done
    done
done
rm -f "$script"

median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
echo "Key \`$KEY\`, $ROUNDS rounds, PostgreSQL $("$PG_CONFIG" --version | awk '{print $2}'):"
echo
echo "| clients | A leaf density % (median; rounds) | B leaf density % (median; rounds) | A index MiB | B index MiB |"
echo "|---:|---|---|---:|---:|"
for c in "${CLIENTS[@]}"; do
    printf '| %s | %s; %s | %s; %s | %s | %s |\n' "$c" \
        "$(median <<<"${density[A,$c]}")" "${density[A,$c]% }" "$(median <<<"${density[B,$c]}")" "${density[B,$c]% }" \
        "$(median <<<"${size[A,$c]}")" "$(median <<<"${size[B,$c]}")"
done
