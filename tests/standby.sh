#!/usr/bin/env bash
# A primary and a streaming standby made from it with pg_basebackup -R (so the standby has the
# primary's system identifier and configuration files), 8 sessions on each generating at the same
# time with every generator. On the standby sno_new, muid_new and uid8_new refuse with SQLSTATE
# 25006 (their identity would be the primary's), and so do the watermarks; comb_uuid works on both. No value may be made twice
# across the two servers, and the standby must make no value of a refused generator.
# Then the standby is promoted (pg_promote()) while its source still runs: a clone turned primary on
# a new timeline. Its derived sno partition and muid medallion fold the timeline in, so they differ
# from the source's. Settings it copied cannot be told from deliberate ones: muid_new with an
# explicit medallion and uid8_new refuse (55000) until they are set apart; then 8 sessions
# on each server make no value twice.
#   bash tests/standby.sh [work dir]     (expects comb_ext installed; ports COMB_EXT_TEST_PORT + 8, + 9)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=${1:-/tmp/comb_ext_standby}
PRIMARY_PORT=$((${COMB_EXT_TEST_PORT:-54330} + 8))
STANDBY_PORT=$((${COMB_EXT_TEST_PORT:-54330} + 9))
SESSIONS=8
PER_SESSION=${COMB_EXT_STANDBY_PER_SESSION:-20000}
primary="$WORK/primary"
standby="$WORK/standby"
mkdir -p "$WORK"
chown postgres:postgres "$WORK"
cleanup() { cluster_stop "$standby"; cluster_stop "$primary"; }
cleanup
trap cleanup EXIT
rm -rf "$primary" "$standby" "$WORK/out"
mkdir -p "$WORK/out"
chown postgres:postgres "$WORK/out"

cluster_start "$primary" "$PRIMARY_PORT" "wal_level = replica" "max_wal_senders = 4" "max_connections = 120" >/dev/null
cluster_psql "$primary" "$PRIMARY_PORT" -d postgres -qAt -c "CREATE EXTENSION comb_ext"
# An explicit muid medallion, which the copy inherits. (LOAD first: before 17, ALTER SYSTEM knows a
# module's settings only once the module is loaded.)
cluster_psql "$primary" "$PRIMARY_PORT" -d postgres -qAt -c "LOAD 'comb_ext'" \
    -c "ALTER SYSTEM SET comb_ext.medallion = '0x10000000001'" -c "SELECT pg_reload_conf()" >/dev/null
as_postgres "$PGBIN/pg_basebackup" -h "$primary" -p "$PRIMARY_PORT" -U postgres -D "$standby" -R -X stream
# The copy's postgresql.conf is the primary's: later lines give the standby its own port and socket.
echo "port = $STANDBY_PORT" >>"$standby/postgresql.conf"
echo "unix_socket_directories = '$standby'" >>"$standby/postgresql.conf"
as_postgres "$PGBIN/pg_ctl" -D "$standby" -l "$standby/server.log" -w -t 60 start >/dev/null
for _ in $(seq 1 60); do
    [ "$(cluster_psql "$standby" "$STANDBY_PORT" -d postgres -qAt -c "SELECT pg_is_in_recovery()" 2>/dev/null)" = t ] && break
    sleep 1
done
identifiers=$(for d in "$primary" "$standby"; do as_postgres "$PGBIN/pg_controldata" "$d" | grep 'Database system identifier'; done | sort -u | wc -l)
echo "standby in recovery; system identifiers of the two: $identifiers distinct"
[ "$identifiers" -eq 1 ]

# label|expression|refused on the standby (1) or not (0)
GENERATORS=("comb|comb_uuid()::text|0" "comb_sqlserver|comb_uuid('sqlserver')::text|0" "sno|sno_new()::text|1"
            "muid|muid_new()::text|1" "uid8_spread|uid8_new('spread')::text|1"
            "uid8_time_sequential|uid8_new('time_sequential')::text|1")
# Every generator, SESSIONS sessions on each server at once; each session's output (and errors) in a file.
generate_on_both() {
    rm -f "$WORK/out/"*
    local pids=() spec label expression server dir port s
    for spec in "${GENERATORS[@]}"; do
        IFS='|' read -r label expression _ <<<"$spec"
        for server in primary standby; do
            dir=$primary port=$PRIMARY_PORT
            [ $server = standby ] && dir=$standby port=$STANDBY_PORT
            for s in $(seq 1 $SESSIONS); do
                cluster_psql "$dir" "$port" -d postgres -qAt -v VERBOSITY=sqlstate \
                    -c "COPY (SELECT $expression FROM generate_series(1, $PER_SESSION)) TO STDOUT" \
                    >"$WORK/out/$label.$server.$s.out" 2>"$WORK/out/$label.$server.$s.err" &
                pids+=($!)
            done
        done
    done
    for s in "${pids[@]}"; do wait "$s" || true; done
}
generate_on_both

status=0
for spec in "${GENERATORS[@]}"; do
    IFS='|' read -r label _ refused <<<"$spec"
    made_primary=$(cat "$WORK/out/$label.primary."*.out | wc -l)
    made_standby=$(cat "$WORK/out/$label.standby."*.out | wc -l)
    refusals=$(cat "$WORK/out/$label.standby."*.err | grep -c '^ERROR:  25006' || true)
    duplicated=$(cat "$WORK/out/$label."*.out | sort | uniq -d | wc -l)
    errors_primary=$(cat "$WORK/out/$label.primary."*.err | wc -l)
    echo "$label: primary made $made_primary, standby made $made_standby, standby refusals (25006) $refusals of $SESSIONS sessions, duplicated across both $duplicated"
    expected_standby=$((SESSIONS * PER_SESSION))
    [ "$refused" = 1 ] && expected_standby=0
    if [ "$made_primary" -ne $((SESSIONS * PER_SESSION)) ] || [ "$errors_primary" -ne 0 ] ||
       [ "$made_standby" -ne "$expected_standby" ] || [ "$duplicated" -ne 0 ] ||
       { [ "$refused" = 1 ] && [ "$refusals" -ne $SESSIONS ]; }; then
        echo "FAILED: $label"
        cat "$WORK/out/$label."*.err | sort | uniq -c | head -5
        status=1
    fi
done
# What a user sees.
cluster_psql "$standby" "$STANDBY_PORT" -d postgres -qAt -v ON_ERROR_STOP=0 -c "SELECT sno_new()" 2>&1 | head -2 || true
# Watermarks refuse there too: the primary's open transactions are not the standby's to see.
watermark_refusals=$(cluster_psql "$standby" "$STANDBY_PORT" -d postgres -qAt -v ON_ERROR_STOP=0 -v VERBOSITY=verbose \
    -c "SELECT comb_watermark()" -c "SELECT sno_watermark()" -c "SELECT muid_watermark()" -c "SELECT uid8_watermark()" 2>&1 |
    grep -c '^ERROR:  25006' || true)
echo "standby: $watermark_refusals of 4 watermark functions refused with 25006"
[ "$watermark_refusals" = 4 ] || { echo "FAILED: watermarks on the standby" >&2; status=1; }

# The clone promoted while its source runs.
cluster_psql "$standby" "$STANDBY_PORT" -d postgres -qAt -c "SELECT pg_promote()" >/dev/null
# Its explicit medallion and its uid8 cluster id are the source's (the derived sno partition folds
# the timeline in, and differs): muid_new and uid8_new refuse (55000) until each is set to another
# value; sno_new goes on. Once set apart, nothing is refused.
refusals() {
    cluster_psql "$standby" "$STANDBY_PORT" -d postgres -qAt -v ON_ERROR_STOP=0 -v VERBOSITY=verbose \
        -c "SELECT sno_new()" -c "SELECT muid_new()" -c "SELECT uid8_new()" -c "SELECT uid8_new('time_sequential')" \
        2>&1 >/dev/null | grep '^ERROR' || true
}
refused=$(refusals)
echo "promoted clone, first calls:"
echo "$refused" | cut -c1-160
cluster_psql "$standby" "$STANDBY_PORT" -d postgres -qAt -c "LOAD 'comb_ext'" \
    -c "ALTER SYSTEM SET comb_ext.uid8_cluster_id = 1" -c "ALTER SYSTEM SET comb_ext.medallion = '0x10000000002'" \
    -c "SELECT pg_reload_conf()" >/dev/null
refused_after=$(refusals)
echo "after ALTER SYSTEM of both: $(echo "$refused_after" | grep -c ERROR || true) refusals"
if [ "$(echo "$refused" | grep -c 'ERROR:  55000: muid_new: .*promoted since comb_ext.medallion')" -ne 1 ] ||
   [ "$(echo "$refused" | grep -c 'ERROR:  55000: uid8_new: .*promoted since comb_ext.uid8_cluster_id')" -ne 2 ] ||
   [ "$(echo "$refused" | grep -c ERROR)" -ne 3 ] || [ -n "$refused_after" ]; then
    echo "FAILED: the promoted clone's refusals"
    status=1
fi
identity="SELECT pg_is_in_recovery(), (SELECT timeline_id FROM pg_control_checkpoint()), sno_partition(sno_new()), muid_unpack(muid_new())"
echo "source: $(cluster_psql "$primary" "$PRIMARY_PORT" -d postgres -qAt -F ' ' -c "$identity")"
echo "promoted clone: $(cluster_psql "$standby" "$STANDBY_PORT" -d postgres -qAt -F ' ' -c "CHECKPOINT" -c "$identity")"
generate_on_both
for spec in "${GENERATORS[@]}"; do
    IFS='|' read -r label _ _ <<<"$spec"
    made=$(cat "$WORK/out/$label."*.out | wc -l)
    duplicated=$(cat "$WORK/out/$label."*.out | sort | uniq -d | wc -l)
    errors=$(cat "$WORK/out/$label."*.err | wc -l)
    echo "after promotion, $label: both made $made, duplicated across both $duplicated, errors $errors"
    if [ "$made" -ne $((2 * SESSIONS * PER_SESSION)) ] || [ "$duplicated" -ne 0 ] || [ "$errors" -ne 0 ]; then
        echo "FAILED: $label after promotion"
        cat "$WORK/out/$label."*.err | sort | uniq -c | head -5
        status=1
    fi
done
exit $status
