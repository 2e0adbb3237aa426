#!/usr/bin/env bash
# scripts/install.sh replaces every installed file by rename, never in place: a reinstall under a
# session that has the library mapped gives each file a new inode, the session goes on calling the
# generators, and no backend dies (a library rewritten in place under a backend can SIGBUS it).
#   bash tests/atomic_install.sh WORK_DIR     (expects comb_ext installed by scripts/install.sh with
#                                             the same PG_CONFIG and CARGO_TARGET_DIR, so the reinstall
#                                             builds nothing; port COMB_EXT_TEST_PORT + 60, default 54390)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=$1
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 60))
VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' "$REPO/Cargo.toml" | head -n1)
libdir=$("$PG_CONFIG" --pkglibdir)
extdir="$("$PG_CONFIG" --sharedir)/extension"
files=("$libdir/comb_ext.so" "$extdir/comb_ext.control" "$extdir/comb_ext--$VERSION.sql")
for f in "$REPO"/sql/comb_ext--*--*.sql; do files+=("$extdir/$(basename "$f")"); done

mkdir -p "$WORK"
chown postgres:postgres "$WORK"
cluster="$WORK/cluster"
cluster_stop "$cluster"
rm -rf "$cluster"
# shellcheck disable=SC2317  # run by the trap
cleanup() {
    [ -n "${SESSION_PID:-}" ] && kill "$SESSION_PID" 2>/dev/null
    # A fast shutdown can hang if a crash made the server start recovering.
    cluster_stop "$cluster" || as_postgres "$PGBIN/pg_ctl" -D "$cluster" -m immediate -w stop >/dev/null
}
trap cleanup EXIT
cluster_start "$cluster" "$PORT"
sql() { cluster_psql "$cluster" "$PORT" -d postgres -qAt -c "$1"; }

# One psql session held open across the reinstall, fed one statement at a time.
coproc SESSION { cluster_psql "$cluster" "$PORT" -d postgres -qAt 2>"$WORK/session.err"; }
# bash unsets SESSION_PID once the coprocess has ended, which it may have by the wait at the end.
session_pid=$SESSION_PID
# ask SQL: run SQL in the held session and print its output; fails if the session is gone.
ask() {
    local line out=()
    # bash unsets SESSION when psql has exited.
    if [ -z "${SESSION[1]:-}" ] || ! printf '%s\n\\echo --done--\n' "$1" >&"${SESSION[1]}"; then
        echo "atomic_install: the held session is gone: $(cat "$WORK/session.err")" >&2
        return 1
    fi
    while IFS= read -r -t 60 line <&"${SESSION[0]}"; do
        [ "$line" = "--done--" ] && { printf '%s\n' "${out[@]}"; return 0; }
        out+=("$line")
    done
    echo "atomic_install: no answer from the held session: $(cat "$WORK/session.err")" >&2
    return 1
}
calls="SELECT pg_backend_pid(), comb_uuid() IS NOT NULL, sno_new() IS NOT NULL, muid_new() IS NOT NULL;"

ask "CREATE EXTENSION comb_ext;" >/dev/null
before=$(ask "$calls")
pid=${before%%|*}
grep -q "/comb_ext.so" "/proc/$pid/maps" || { echo "atomic_install: backend $pid has not mapped comb_ext.so" >&2; exit 1; }
started=$(sql "SELECT pg_postmaster_start_time()")
postmaster=$(head -n1 "$cluster/postmaster.pid")
declare -A inode
for f in "${files[@]}"; do inode[$f]=$(stat -c %i "$f"); done
echo "atomic_install: backend $pid has comb_ext.so mapped (inode ${inode[${files[0]}]}): $before"

bash "$REPO/scripts/install.sh" --pg-config "$PG_CONFIG" >/dev/null

status=0
for f in "${files[@]}"; do
    now=$(stat -c %i "$f")
    if [ "$now" = "${inode[$f]}" ]; then
        echo "atomic_install: $f was rewritten in place (inode $now kept), not renamed over" >&2
        status=1
    fi
done
[ $status -eq 0 ] && echo "atomic_install: ${#files[@]} files reinstalled, each with a new inode (comb_ext.so: ${inode[${files[0]}]} -> $(stat -c %i "${files[0]}"))"
after=$(ask "$calls") || status=1
echo "atomic_install: the same session after the reinstall: ${after:-no answer}"
[ "$after" = "$pid|t|t|t" ] || { echo "atomic_install: expected $pid|t|t|t" >&2; status=1; }
fresh=$(sql "SELECT comb_uuid() IS NOT NULL, sno_new() IS NOT NULL, muid_new() IS NOT NULL") || status=1
[ "$fresh" = "t|t|t" ] || { echo "atomic_install: a new session: '$fresh'" >&2; status=1; }
if [ "$(sql "SELECT pg_postmaster_start_time()")" != "$started" ] ||
    [ "$(head -n1 "$cluster/postmaster.pid")" != "$postmaster" ]; then
    echo "atomic_install: the postmaster restarted or does not answer" >&2
    status=1
fi
if grep -E "terminated by signal|reinitializing" "$cluster/server.log" >&2; then
    echo "atomic_install: a backend crashed (server log above)" >&2
    status=1
fi
[ $status -eq 0 ] && echo "atomic_install: a new session works too; postmaster $postmaster up since $started, no backend crashed"
# End of input ends the session.
if [ -n "${SESSION[1]:-}" ]; then
    fd=${SESSION[1]}
    exec {fd}>&-
    wait "$session_pid" || true
fi
exit $status
