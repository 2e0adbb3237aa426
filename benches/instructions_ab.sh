#!/usr/bin/env bash
# Benchmark (not a test): the instructions each generator call executes in two builds of comb_ext,
# A/B, counted by valgrind (callgrind) in a single-user backend. Unlike a timing, the count does not
# move with the machine's load, so it separates differences of a few percent that the timings of
# benches/generation_ab.sh cannot on a busy machine. It overstates paths taken once per unit of
# time (a mark's write ahead, the muid pace's refresh once a millisecond): under valgrind a call
# takes about 50 times longer, so those paths come 50 times more often per call.
#   bash benches/instructions_ab.sh STAGE_A STAGE_B
# Stages as for benches/generation_ab.sh (`cargo pgrx package --out-dir STAGE`, a release build),
# installed into $PG_CONFIG's server by rename. Per call: the difference between runs of N1 and N2
# calls, less the same for a constant expression (the series and count(*) around each call).
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
STAGE_A=$1
STAGE_B=$2
N1=20000
N2=120000
DIR=${COMB_EXT_BENCH_DIR:-/tmp/comb_ext_bench_instructions}
if ! command -v valgrind >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends valgrind >/dev/null
fi

ab_begin "$DIR"
# A cluster with the extension created in it (with B's library: the SQL installed is the newer),
# then stopped: the single-user backend runs on it, calling the generators both libraries have.
ab_install_library "$STAGE_B"
cluster_start "$DIR" 54346 "jit = off" >/dev/null
cluster_psql "$DIR" 54346 -d postgres -qAt -c "CREATE EXTENSION comb_ext"
cluster_stop "$DIR"

# Instructions of one single-user backend running count(EXPR) over N rows, start to end.
instructions() {
    local expression=$1 rows=$2 out
    out=$(mktemp /tmp/comb_ext_callgrind.XXXXXX)
    chown postgres "$out"
    echo "SELECT count($expression) FROM generate_series(1, $rows)" |
        sudo -u postgres valgrind --tool=callgrind --callgrind-out-file="$out" \
            "$("$PG_CONFIG" --bindir)/postgres" --single -D "$DIR" -c jit=off postgres >/dev/null 2>&1
    awk '/^(summary|totals):/ {print $2; exit}' "$out"
    rm -f "$out"
}
per_call() {
    local a b
    a=$(instructions "$1" $N1)
    b=$(instructions "$1" $N2)
    echo "($b - $a) / ($N2 - $N1)" | bc -l
}

# The mode typed: from 0.6.0 a literal resolves to uid8_new(text), which an older library lacks.
GENERATORS=("comb_uuid()" "sno_new()" "muid_new()" "uid8_new()" "uid8_new('time_sequential'::uid8_mode)")
# Other expressions instead, one per line: COMB_EXT_AB_EXPRESSIONS=$'comb_uuid(\'ticks\'::comb_format)\n...'
if [ -n "${COMB_EXT_AB_EXPRESSIONS:-}" ]; then
    mapfile -t GENERATORS <<<"$COMB_EXT_AB_EXPRESSIONS"
fi
declare -A A B
for side in A B; do
    stage=$STAGE_A
    [ $side = B ] && stage=$STAGE_B
    ab_install_library "$stage"
    base=$(per_call "1")
    for g in "${GENERATORS[@]}"; do
        value=$(echo "$(per_call "$g") - $base" | bc -l)
        if [ $side = A ]; then A[$g]=$value; else B[$g]=$value; fi
    done
done
echo "| generator | A instructions/call | B instructions/call | B / A |"
echo "|---|---|---|---|"
for g in "${GENERATORS[@]}"; do
    printf '| `%s` | %.0f | %.0f | %.3f |\n' "$g" "${A[$g]}" "${B[$g]}" "$(echo "${B[$g]} / ${A[$g]}" | bc -l)"
done
