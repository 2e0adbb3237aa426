#!/usr/bin/env bash
# Benchmark (not a test): generation cost of two builds of comb_ext in one run, A/B, on one throwaway
# cluster (not preloaded; each measurement in a new session, which loads whichever library is
# installed then). For each generator, ns of the backend's CPU time per call net of count(*) over
# the same series, median of ROUNDS alternating rounds (A, B, A, B, ...), and the ratio B/A. CALLS
# stays under 2,000,000, the µs muid's timeline may run ahead of the clock: past it muid_new waits
# for the clock, which is the bound working, not the cost of a call.
#   bash benches/generation_ab.sh STAGE_A STAGE_B [ROUNDS] [CALLS]
# A stage is what `cargo pgrx package --pg-config "$PG_CONFIG" --out-dir STAGE` writes (a release
# build). For 0.4.0 against this tree, on the system PostgreSQL 15:
#   git archive ed3c08e | tar -x -C /tmp/old && (cd /tmp/old && cargo pgrx package --pg-config "$PG_CONFIG" --out-dir /tmp/old-stage)
#   cargo pgrx package --pg-config "$PG_CONFIG" --out-dir /tmp/new-stage
#   bash benches/generation_ab.sh /tmp/old-stage /tmp/new-stage
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
STAGE_A=$1
STAGE_B=$2
ROUNDS=${3:-5}
CALLS=${4:-1000000}
DIR=${COMB_EXT_BENCH_DIR:-/tmp/comb_ext_bench_ab}
PORT=${COMB_EXT_BENCH_PORT:-54344}
# Installs a stage's files by rename (running backends keep what they mapped).
install_stage() {
    local stage=$1 f dest tmp
    while IFS= read -r -d '' f; do
        dest=${f#"$stage"}
        tmp=$(mktemp "$(dirname "$dest")/.ab.XXXXXX")
        cp "$f" "$tmp"
        chmod 0644 "$tmp"
        case $dest in *.so) chmod 0755 "$tmp" ;; esac
        mv -fT "$tmp" "$dest"
    done < <(find "$stage" -type f -print0)
}
ab_begin "$DIR"
cluster_start "$DIR" "$PORT" "jit = off" >/dev/null
install_stage "$STAGE_A"
cluster_psql "$DIR" "$PORT" -d postgres -qAt -c "CREATE EXTENSION comb_ext"

GENERATORS=("comb_uuid()" "sno_new()" "muid_new()" "uid8_new()" "uid8_new('time_sequential')")
# ns per call of each generator, net of count(*), in one new session.
measure() {
    cluster_psql "$DIR" "$PORT" -d postgres -qAt <<SQL
CREATE TEMP TABLE t (f text, ns float8);
-- The backend's own CPU time (ns), from the kernel's scheduler statistics: unlike the wall clock,
-- it leaves out the time other processes on the machine take the CPU from it.
CREATE FUNCTION pg_temp.cpu_ns() RETURNS float8 LANGUAGE sql
    AS \$f\$ SELECT split_part(pg_catalog.pg_read_file('/proc/self/schedstat'), ' ', 1)::float8 \$f\$;
DO \$\$
DECLARE
    cpu0 bigint;
    f text;
    base float8;
BEGIN
    PERFORM count(*) FROM generate_series(1, $CALLS);
    cpu0 := pg_temp.cpu_ns();
    PERFORM count(*) FROM generate_series(1, $CALLS);
    base := pg_temp.cpu_ns() - cpu0;
    FOREACH f IN ARRAY ARRAY[$(printf "'%s'," "${GENERATORS[@]//\'/\'\'}" | sed 's/,$//')] LOOP
        -- muid's timeline back at the clock: bursts run it up to 2 s ahead, and a call past that
        -- waits (README: "Gink muids"), so each timing starts there and times the calls.
        PERFORM pg_sleep(greatest(0, extract(epoch FROM muid_timestamp(muid_new()) - clock_timestamp())));
        EXECUTE format('SELECT count(%s) FROM generate_series(1, 1000)', f);
        cpu0 := pg_temp.cpu_ns();
        EXECUTE format('SELECT count(%s) FROM generate_series(1, $CALLS)', f);
        INSERT INTO t VALUES (f, (pg_temp.cpu_ns() - cpu0 - base) / $CALLS);
    END LOOP;
END \$\$;
SELECT f || '|' || round(ns::numeric, 1) FROM t;
SQL
}
results=$(mktemp)
for round in $(seq 1 "$ROUNDS"); do
    for side in A B; do
        stage=$STAGE_A
        [ $side = B ] && stage=$STAGE_B
        install_stage "$stage"
        measure | sed "s/^/$side|/" >>"$results"
    done
done
echo "| generator | A ns/call | B ns/call | B / A |"
echo "|---|---|---|---|"
for g in "${GENERATORS[@]}"; do
    median() { grep -F "$1|$g|" "$results" | cut -d'|' -f3 | sort -n | awk '{v[NR]=$1} END {print v[int((NR + 1) / 2)]}'; }
    a=$(median A)
    b=$(median B)
    printf '| `%s` | %s | %s | %s |\n' "$g" "$a" "$b" "$(echo "scale=3; $b / $a" | bc)"
done
rm -f "$results"
