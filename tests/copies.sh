#!/usr/bin/env bash
# Copies of a data directory run beside their source with default settings: every copy shares the
# source's system identifier, and these share its timeline too, so only the random number drawn at
# each server start sets their derived sno partition and muid medallion apart.
#   1. cp -a of a stopped server, both started;
#   2. pg_basebackup without -R of a running server, started as a primary (crash-recovery style,
#      timeline 1, as a disk snapshot is);
#   3. two clones of one primary, both promoted (both on timeline 2).
# Each server runs SESSIONS sessions of sno_new() and muid_new() at once: no value twice. uid8_new,
# whose cluster id cannot be drawn (4 bits), refuses (55000) on every copy until its
# comb_ext.uid8_cluster_id is set to another value after the copy was found (a new data directory
# inode or machine id, a new system identifier or timeline: comb_ext/identity); touching
# postgresql.conf, ALTER SYSTEM of another setting or of the sno partition lifts nothing; then no
# value twice either. 4. Copies of servers where no generator, sno and muid only, or all ran:
# uid8_new refused on each copy. A control sets an equal
# explicit sno partition on a source and its copy: then values repeat, so the test sees repeats
# when they happen.
#   bash tests/copies.sh WORK_DIR [SESSIONS] [PER_SESSION]   (expects comb_ext installed; ports COMB_EXT_TEST_PORT + 26 .. + 29)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=$1
SESSIONS=${2:-8}
PER_SESSION=${3:-10000}
BASE=$((${COMB_EXT_TEST_PORT:-54330} + 26))
source_dir="$WORK/source"
servers=()
mkdir -p "$WORK/out"
chown -R postgres:postgres "$WORK"
cleanup() { for d in "$WORK"/*/; do if [ -f "$d/PG_VERSION" ]; then cluster_stop "${d%/}"; fi; done; }
cleanup
trap cleanup EXIT
rm -rf "$source_dir" "$WORK"/copy* "$WORK"/clone* "$WORK/out"/*

port_of() { sed -n 's/^port = //p' "$1/postgresql.conf" | tail -n1; }
# A copy's postgresql.conf is its source's: later lines give it its own port and socket.
own_port() { echo "port = $2" >>"$1/postgresql.conf"; echo "unix_socket_directories = '$1'" >>"$1/postgresql.conf"; }
start() { as_postgres "$PGBIN/pg_ctl" -D "$1" -l "$1/server.log" -w -t 60 start >/dev/null; }
sql() { local dir=$1; shift; cluster_psql "$dir" "$(port_of "$dir")" -d postgres -qAt "$@"; }

# generate LABEL EXPRESSION DIR...: SESSIONS sessions of EXPRESSION on each server at once; prints
# "made repeated errors" over all of them.
generate() {
    local label=$1 expression=$2 pids=() dir s
    shift 2
    rm -f "$WORK/out/$label".*
    for dir in "$@"; do
        for s in $(seq 1 "$SESSIONS"); do
            sql "$dir" -v VERBOSITY=sqlstate -c "COPY (SELECT $expression FROM generate_series(1, $PER_SESSION)) TO STDOUT" \
                >"$WORK/out/$label.$(basename "$dir").$s.out" 2>"$WORK/out/$label.$(basename "$dir").$s.err" &
            pids+=($!)
        done
    done
    for s in "${pids[@]}"; do wait "$s" || true; done
    echo "$(cat "$WORK/out/$label".*.out | wc -l) $(cat "$WORK/out/$label".*.out | sort | uniq -d | wc -l) $(cat "$WORK/out/$label".*.err | sort | uniq -c | sed 's/^ *//' | tr '\n' ';')"
}

failures=0
# check SCENARIO SOURCE COPY...: sno and muid on every server at once, none repeated. uid8_new
# refuses (55000) on every copy while the source goes on; once each copy has its own
# comb_ext.uid8_cluster_id (ALTER SYSTEM), none repeated.
check() {
    local scenario=$1 label expression made repeated errors copy n=0
    shift
    for spec in "sno|sno_new()::text" "muid|muid_new()::text"; do
        IFS='|' read -r label expression <<<"$spec"
        read -r made repeated errors <<<"$(generate "$label" "$expression" "$@")"
        echo "copies: $scenario: $label: $made made on $# servers, $repeated repeated${errors:+, errors: $errors}"
        [ "$made" -eq $(($# * SESSIONS * PER_SESSION)) ] && [ "$repeated" -eq 0 ] || failures=$((failures + 1))
    done
    echo "copies: $scenario: derived identities (sno partition, muid medallion): $(for d in "$@"; do sql "$d" -F ' ' -c "SELECT sno_partition(sno_new()), muid_medallion(muid_new())"; done | tr '\n' ';')"
    read -r made repeated errors <<<"$(generate uid8 "uid8_new()::text" "$@")"
    local refusals
    refusals=$(cat "$WORK/out/uid8".*.err | grep -c "^ERROR:  55000" || true)
    echo "copies: $scenario: uid8: $made made (by the source), $refusals of $((($# - 1) * SESSIONS)) sessions on the copies refused (55000), $repeated repeated"
    [ "$made" -eq $((SESSIONS * PER_SESSION)) ] && [ "$refusals" -eq $((($# - 1) * SESSIONS)) ] && [ "$repeated" -eq 0 ] ||
        failures=$((failures + 1))
    # Writes to the configuration that do not set the cluster id apart lift nothing (0.5.0 compared
    # file times: each of these let 5,770-13,083 uid8 values repeat).
    for write in "touch postgresql.conf" "ALTER SYSTEM SET work_mem = '5MB'" "ALTER SYSTEM SET comb_ext.sno_partition = 4242"; do
        for copy in "${@:2}"; do
            if [ "$write" = "touch postgresql.conf" ]; then touch "$copy/postgresql.conf"; else sql "$copy" -c "LOAD 'comb_ext'" -c "$write" >/dev/null; fi
            sql "$copy" -c "SELECT pg_reload_conf()" >/dev/null
        done
        sleep 1
        refused_after=0
        for copy in "${@:2}"; do
            out=$(sql "$copy" -v ON_ERROR_STOP=0 -v VERBOSITY=sqlstate -c "SELECT uid8_new()" 2>&1 || true)
            if grep -q "^ERROR:  55000" <<<"$out"; then refused_after=$((refused_after + 1)); fi
        done
        echo "copies: $scenario: after $write on each copy: uid8_new refused on $refused_after of $(($# - 1))"
        [ "$refused_after" -eq $(($# - 1)) ] || failures=$((failures + 1))
    done
    for copy in "${@:2}"; do
        sql "$copy" -c "ALTER SYSTEM RESET work_mem" -c "ALTER SYSTEM RESET comb_ext.sno_partition" >/dev/null
        n=$((n + 1))
        sql "$copy" -c "LOAD 'comb_ext'" -c "ALTER SYSTEM SET comb_ext.uid8_cluster_id = $n" -c "SELECT pg_reload_conf()" >/dev/null
    done
    sleep 1
    read -r made repeated errors <<<"$(generate uid8 "uid8_new()::text" "$@")"
    echo "copies: $scenario: uid8 after ALTER SYSTEM SET comb_ext.uid8_cluster_id on each copy: $made made on $# servers, $repeated repeated${errors:+, errors: $errors}"
    [ "$made" -eq $(($# * SESSIONS * PER_SESSION)) ] && [ "$repeated" -eq 0 ] || failures=$((failures + 1))
}

cluster_start "$source_dir" "$BASE" "wal_level = replica" "max_wal_senders = 6" "max_connections = 60" >/dev/null
sql "$source_dir" -c "CREATE EXTENSION comb_ext" -c "SELECT sno_new(), muid_new(), uid8_new()" >/dev/null

# 1. cp -a of the stopped source.
cluster_stop "$source_dir"
cp -a "$source_dir" "$WORK/copy"
own_port "$WORK/copy" $((BASE + 1))
start "$source_dir"
start "$WORK/copy"
check "cp -a of a stopped server" "$source_dir" "$WORK/copy"
# The control: an equal explicit identity on both repeats values, and the check sees it.
for d in "$source_dir" "$WORK/copy"; do
    sql "$d" -c "LOAD 'comb_ext'" -c "ALTER SYSTEM SET comb_ext.sno_partition = 77" -c "SELECT pg_reload_conf()" >/dev/null
done
sleep 1
read -r made repeated _ <<<"$(generate control "sno_new()::text" "$source_dir" "$WORK/copy")"
echo "copies: control, one explicit sno partition on both: $made made, $repeated repeated (must be more than 0)"
[ "$repeated" -gt 0 ] || failures=$((failures + 1))
for d in "$source_dir" "$WORK/copy"; do
    sql "$d" -c "ALTER SYSTEM RESET comb_ext.sno_partition" -c "SELECT pg_reload_conf()" >/dev/null
done
cluster_stop "$WORK/copy"

# 2. pg_basebackup without -R, started as a primary beside its running source.
as_postgres "$PGBIN/pg_basebackup" -h "$source_dir" -p "$BASE" -U postgres -D "$WORK/copy_nor" -X stream
own_port "$WORK/copy_nor" $((BASE + 1))
start "$WORK/copy_nor"
check "pg_basebackup without -R, started as a primary" "$source_dir" "$WORK/copy_nor"
cluster_stop "$WORK/copy_nor"

# 3. Two clones of the source, both promoted beside it.
for n in 1 2; do
    as_postgres "$PGBIN/pg_basebackup" -h "$source_dir" -p "$BASE" -U postgres -D "$WORK/clone$n" -R -X stream
    own_port "$WORK/clone$n" $((BASE + 1 + n))
    start "$WORK/clone$n"
done
for n in 1 2; do sql "$WORK/clone$n" -c "SELECT pg_promote()" >/dev/null; done
check "two clones of one primary, both promoted" "$source_dir" "$WORK/clone1" "$WORK/clone2"

# 4. A copy is recognised whichever generators ran before it: none (CREATE EXTENSION only), only
#    sno_new and muid_new, or all. 0.5.0 recorded where the data directory was only when uid8_new
#    ran, so the first two let uid8 values repeat (15,939 and 6,990 in the review's run).
for ran in "none" "sno_new(), muid_new()" "sno_new(), muid_new(), uid8_new()"; do
    rm -rf "$WORK/subset" "$WORK/subset_copy"
    cluster_start "$WORK/subset" $((BASE + 1)) >/dev/null
    sql "$WORK/subset" -c "CREATE EXTENSION comb_ext" >/dev/null
    [ "$ran" = none ] || sql "$WORK/subset" -c "SELECT $ran" >/dev/null
    cluster_stop "$WORK/subset"
    cp -a "$WORK/subset" "$WORK/subset_copy"
    own_port "$WORK/subset_copy" $((BASE + 2))
    start "$WORK/subset"
    start "$WORK/subset_copy"
    source_ok=$(sql "$WORK/subset" -c "SELECT uid8_new() IS NOT NULL")
    copy_out=$(sql "$WORK/subset_copy" -v ON_ERROR_STOP=0 -v VERBOSITY=sqlstate -c "SELECT uid8_new()" 2>&1 || true)
    echo "copies: cp -a of a server where $ran ran: uid8_new on the source: $source_ok; on the copy: $copy_out"
    [ "$source_ok" = t ] && grep -q "^ERROR:  55000" <<<"$copy_out" || failures=$((failures + 1))
    cluster_stop "$WORK/subset"
    cluster_stop "$WORK/subset_copy"
done

[ "$failures" -eq 0 ] || { echo "copies: $failures failures" >&2; exit 1; }
echo "copies: passed"
