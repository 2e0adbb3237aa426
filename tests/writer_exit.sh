#!/usr/bin/env bash
# A backend that ends while its thread writes a mark never leaves the family stuck, even when its
# pid is reused. The server runs with tests/shims/stall_fsync.c, so a mark's fsync takes STALL s
# once the flag file is there. A session runs muid_new() until its thread's write stalls, and is
# then terminated (pg_terminate_backend); its pid is then given to another process
# (as root, through /proc/sys/kernel/ns_last_pid), as a busy machine may do. Another session's
# muid_new() must then succeed within STALL + 5 s. Before 0.6.0 the thread died with its backend
# mid-write, the family's plan kept naming that pid, `kill(pid, 0)` found the new process alive,
# and every muid_new() of the server waited for a write that never ended; now the ending backend
# waits for its thread first (a before_shmem_exit callback).
#   bash tests/writer_exit.sh WORK_DIR    (expects comb_ext installed; port COMB_EXT_TEST_PORT + 46;
#                                          root, for ns_last_pid; skips with a line without it)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=$1
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 46))
STALL=4
dir="$WORK/cluster"
flag="$WORK/stall"
shim="$WORK/stall_fsync.so"
if [ ! -w /proc/sys/kernel/ns_last_pid ]; then
    echo "writer exit: SKIPPED: /proc/sys/kernel/ns_last_pid is not writable here (root in the host's pid namespace needed to reuse a pid)"
    exit 0
fi
mkdir -p "$WORK"
chown postgres:postgres "$WORK"
rm -f "$flag"
cluster_stop "$dir"
rm -rf "$dir"
reuser=""
trap 'rm -f "$flag"; [ -n "$reuser" ] && kill "$reuser" 2>/dev/null; cluster_stop "$dir"' EXIT
cc -shared -fPIC -O2 -o "$shim" "$REPO/tests/shims/stall_fsync.c" -ldl
chmod 755 "$shim"
cluster_start "$dir" "$PORT" >/dev/null
cluster_stop "$dir"
as_postgres env LD_PRELOAD="$shim" COMB_EXT_STALL_FLAG="$flag" \
    "$PGBIN/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 start >/dev/null
sql() { cluster_psql "$dir" "$PORT" -d postgres -qAt "$@"; }
sql -c "CREATE EXTENSION comb_ext" -c "SELECT count(muid_new()) FROM generate_series(1, 1000)" >/dev/null

# The writer: issues until a write of its thread stalls (a mark covers about 2 s). Seen from /proc,
# not from pg_stat_activity's wait event: the wait is 1 ms naps, and on a loaded machine the backend
# spends them runnable with no wait event, so polls missed it for 20 s (a gate run of 2026-11-27). The
# thread ("comb_ext mark", one a write) alive at 50 looks 20 ms apart is a stalled write: unstalled,
# a write takes milliseconds, once a window.
echo "$STALL" >"$flag"
chown postgres:postgres "$flag"
sql -c "SELECT count(muid_new()) FROM generate_series(1, 100000000)" >/dev/null 2>&1 &
driver=$!
writer=""
for _ in $(seq 1 200); do
    writer=$(sql -c "SELECT pid FROM pg_stat_activity WHERE query LIKE '%generate_series(1, 100000000)%' AND pid <> pg_backend_pid()")
    [ -n "$writer" ] && break
    sleep 0.05
done
[ -n "$writer" ] || { echo "writer exit: FAILED: the writing session did not start" >&2; exit 1; }
looks=0
for _ in $(seq 1 1000); do
    if grep -qx "comb_ext mark" /proc/"$writer"/task/*/comm 2>/dev/null; then looks=$((looks + 1)); else looks=0; fi
    [ $looks -ge 50 ] && break
    sleep 0.02
done
[ $looks -ge 50 ] || { echo "writer exit: FAILED: the writing session's thread never stalled in a write" >&2; exit 1; }
waiting=$(sql -c "SELECT count(*) FROM pg_stat_activity WHERE pid = $writer AND wait_event_type = 'Extension'")
echo "writer exit: session $writer's thread stalled in a write for 1 s; the session waiting for it at that moment: $waiting"
terminated_at=$(date +%s.%N)
sql -c "SELECT pg_terminate_backend($writer)" >/dev/null
rm -f "$flag"
wait "$driver" 2>/dev/null || true
# The pid, once free, to a process that lives on.
for _ in $(seq 1 200); do kill -0 "$writer" 2>/dev/null || break; sleep 0.05; done
gone_at=$(date +%s.%N)
echo $((writer - 1)) >/proc/sys/kernel/ns_last_pid
sleep 600 &
reuser=$!
[ "$reuser" = "$writer" ] || echo "writer exit: the pid went to $reuser, not $writer (another process took it first); the check below still runs"
started=$(date +%s.%N)
result=$(sql -c "SET statement_timeout = '$((STALL + 5))s'" -c "SELECT muid_new() IS NOT NULL" 2>&1 || true)
took=$(python3 -c "print(f'{$(date +%s.%N) - $started:.2f}')")
lived=$(python3 -c "print(f'{$gone_at - $terminated_at:.2f}')")
echo "writer exit: the terminated writer's process lived $lived s more (its write stalled $STALL s); pid $writer reused by $reuser; another session's muid_new(): $result in $took s"
[ "$result" = t ] || { echo "writer exit: FAILED: muid_new() after the writer's exit: $result" >&2; exit 1; }
