#!/usr/bin/env bash
# Uniqueness under load, across sessions and across servers: three clusters side by side, each
# with its own sno partition, muid medallion and uid8 cluster id (postgresql.conf), each running
# 8 pgbench sessions at once per generator. Then, in each cluster at once, two sessions per uid8 mode
# each make BULK ids in one statement, one with up to 16 generator ids (1,024 ids a millisecond: a release
# build's session outruns them), one with 2 (128 a millisecond: a debug build's outruns them too), so they
# run ahead of the clock; no id may be more than comb_ext.uid8_run_ahead ahead of the clock read after it. The merged output of all three must hold no value twice. Then a backend's memory
# over 10 million generator calls.
#   bash tests/uniqueness.sh [work dir]      (expects comb_ext installed; ports COMB_EXT_TEST_PORT + 3..5, default 54333-54335)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=${1:-/tmp/comb_ext_uniqueness}
PORT_BASE=${COMB_EXT_TEST_PORT:-54330}
PER_SESSION=${COMB_EXT_UNIQUENESS_PER_SESSION:-5000}
BULK=${COMB_EXT_UNIQUENESS_BULK:-100000}
UID8_MODES=(spread time_sequential)
mkdir -p "$WORK"
chown postgres:postgres "$WORK"

clusters=()
cleanup() { for c in "${clusters[@]}"; do cluster_stop "$c"; done; }
trap cleanup EXIT

# label=expression
GENERATORS=("comb=comb_uuid()::text" "sno=sno_new()::text" "muid=muid_new()::text"
            "uid8_spread=uid8_new('spread')::text" "uid8_time_sequential=uid8_new('time_sequential')::text")
: > "$WORK/all.txt"
for i in 1 2 3; do
    dir="$WORK/cluster$i"
    port=$((PORT_BASE + 2 + i))
    cluster_stop "$dir"
    rm -rf "$dir"
    clusters+=("$dir")
    cluster_start "$dir" "$port" "comb_ext.sno_partition = $i" "comb_ext.medallion = '$((0x10000000000 + i))'" \
        "comb_ext.uid8_cluster_id = $i" "max_connections = 30" >/dev/null
    cluster_psql "$dir" "$port" -d postgres -qAt -c "CREATE EXTENSION comb_ext" \
        -c "CREATE TABLE drawn (generator text, id text)" -c "CREATE TABLE bulk (mode text, id bigint, at timestamptz)"
done

# The three clusters' loads run at the same time; within each, 8 sessions per generator.
load() {
    local dir=$1 port=$2 g script
    for g in "${GENERATORS[@]}"; do
        script="$WORK/insert_${port}_${g%%=*}.sql"
        echo "INSERT INTO drawn SELECT '${g%%=*}', ${g#*=} FROM generate_series(1, 500);" > "$script"
        chmod 644 "$script"
        as_postgres "$PGBIN/pgbench" -h "$dir" -p "$port" -U postgres -n -c 8 -j 2 -t $((PER_SESSION / 500)) \
            -f "$script" postgres >/dev/null
    done
}
pids=()
for i in 1 2 3; do
    load "$WORK/cluster$i" $((PORT_BASE + 2 + i)) &
    pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done

# uid8 in bulk: 2 sessions per mode in each cluster (16 and 2 generator ids), all 12 at once, each id with the clock read after it;
# checked for duplicates with the pgbench load's ids of its mode.
pids=()
for i in 1 2 3; do
    for mode in "${UID8_MODES[@]}"; do
        for ids in 16 2; do
            cluster_psql "$WORK/cluster$i" $((PORT_BASE + 2 + i)) -d postgres -qAt \
                -c "SET comb_ext.uid8_generators_per_session = $ids" \
                -c "INSERT INTO bulk SELECT '$mode', uid8_new('$mode'), clock_timestamp() FROM generate_series(1, $BULK)" &
            pids+=($!)
        done
    done
done
for pid in "${pids[@]}"; do wait "$pid"; done
for i in 1 2 3; do
    # uid8_timestamp is the id's millisecond, at most the bound past the clock's millisecond when it was made,
    # which is at or before the clock read after it.
    read -r past ahead most < <(cluster_psql "$WORK/cluster$i" $((PORT_BASE + 2 + i)) -d postgres -qAt -F ' ' -c "
        SELECT count(*) FILTER (WHERE uid8_timestamp(id) > at + current_setting('comb_ext.uid8_run_ahead')::interval),
               count(*) FILTER (WHERE uid8_timestamp(id) > at),
               coalesce(round(extract(epoch FROM max(uid8_timestamp(id) - at)) * 1000), 0)
        FROM bulk")
    echo "  cluster $i: $((4 * BULK)) uid8s in bulk, $ahead ahead of the clock read after them (at most $most ms), $past past comb_ext.uid8_run_ahead"
    [ "$past" -eq 0 ] || { echo "uniqueness: FAILED, a uid8 ran past comb_ext.uid8_run_ahead" >&2; exit 1; }
done

for i in 1 2 3; do
    cluster_psql "$WORK/cluster$i" $((PORT_BASE + 2 + i)) -d postgres -qAt -c "COPY drawn TO STDOUT" \
        -c "COPY (SELECT 'uid8_' || mode, id::text FROM bulk) TO STDOUT" >> "$WORK/all.txt"
done

total=$(wc -l < "$WORK/all.txt")
expected=$((3 * ${#GENERATORS[@]} * 8 * PER_SESSION + 3 * 2 * ${#UID8_MODES[@]} * BULK))
duplicates=$(sort "$WORK/all.txt" | uniq -d | wc -l)
echo "uniqueness: 3 clusters x (${#GENERATORS[@]} generators x 8 sessions x $PER_SESSION + ${#UID8_MODES[@]} uid8 modes x 2 sessions x $BULK in bulk) = $total values (expected $expected), $duplicates duplicated"
for g in "${GENERATORS[@]}"; do
    label=${g%%=*}
    echo "  $label: $(grep -c "^$label	" "$WORK/all.txt") values, $(grep "^$label	" "$WORK/all.txt" | sort | uniq -d | wc -l) duplicated"
done
[ "$total" -eq "$expected" ] && [ "$duplicates" -eq 0 ] || { echo "uniqueness: FAILED" >&2; exit 1; }

# A backend's resident memory over 10 million calls (after a warm-up of the same statements' size,
# so work_mem's buffers are already at their largest): 3 million each of comb_uuid, sno_new and muid_new, and 1 million uid8_new.
dir=${clusters[0]}
port=$((PORT_BASE + 3))
rss=$(cluster_psql "$dir" "$port" -d postgres -qAt <<'SQL'
\o /dev/null
SELECT count(comb_uuid()) + count(sno_new()) + count(muid_new()) FROM generate_series(1, 3000000);
SELECT count(uid8_new()) FROM generate_series(1, 100000);
SELECT pg_backend_pid() AS pid \gset
\setenv BACKEND_PID :pid
\! grep VmRSS /proc/$BACKEND_PID/status | awk '{print $2}'
SELECT count(comb_uuid()) FROM generate_series(1, 3000000);
SELECT count(sno_new()) FROM generate_series(1, 3000000);
SELECT count(muid_new()) FROM generate_series(1, 3000000);
SELECT count(uid8_new()) FROM generate_series(1, 1000000);
\! grep VmRSS /proc/$BACKEND_PID/status | awk '{print $2}'
SQL
)
before=$(echo "$rss" | sed -n 1p)
after=$(echo "$rss" | sed -n 2p)
[ -n "$before" ] && [ -n "$after" ] || { echo "memory: could not read the backend's RSS" >&2; exit 1; }
echo "memory: backend RSS $before kB before and $after kB after 10,000,000 generator calls ($((after - before)) kB)"
[ $((after - before)) -lt 4096 ] || { echo "memory: FAILED, grew by more than 4 MiB" >&2; exit 1; }
