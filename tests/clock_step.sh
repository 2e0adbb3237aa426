#!/usr/bin/env bash
# The system clock set back twice under a running server (libfaketime reading its offset from a
# file, so the steps happen while the server runs; the monotonic clock is left alone, as a real
# clock step leaves it). The first step back: sno_new goes on at once with the tick-tock bit
# toggled. The second, into the same past: sno_new would have to wait until the clock passes the
# values already issued; with comb_ext.max_clock_wait = 2s it fails with 55000 after about 2 s,
# issuing nothing, and names how far the clock is behind. No sno is made twice.
#   bash tests/clock_step.sh [work dir]      (expects comb_ext installed; port COMB_EXT_TEST_PORT + 10)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=${1:-/tmp/comb_ext_clock_step}
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 10))
LIBFAKETIME=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1
dir="$WORK/cluster"
offset="$WORK/faketime.rc"
mkdir -p "$WORK"
chown postgres:postgres "$WORK"
cluster_stop "$dir"
rm -rf "$dir"
trap 'cluster_stop "$dir"' EXIT

echo "+0" >"$offset"
chmod 644 "$offset"
cluster_start "$dir" "$PORT" "shared_preload_libraries = 'comb_ext'" >/dev/null
cluster_stop "$dir"
# pg_ctl -w does not return under faketime: start with -W and poll.
as_postgres env LD_PRELOAD="$LIBFAKETIME" FAKETIME_TIMESTAMP_FILE="$offset" FAKETIME_CACHE_DURATION=1 \
    FAKETIME_DONT_FAKE_MONOTONIC=1 "$PGBIN/pg_ctl" -D "$dir" -l "$dir/server.log" -W start >/dev/null
for _ in $(seq 1 60); do "$PGBIN/pg_isready" -q -h "$dir" -p "$PORT" && break; sleep 0.5; done
cluster_psql "$dir" "$PORT" -d postgres -qAt -c "CREATE EXTENSION comb_ext"

snos() { cluster_psql "$dir" "$PORT" -d postgres -qAt -c "SELECT sno_new()::text FROM generate_series(1, 20000)"; }
server_time() { cluster_psql "$dir" "$PORT" -d postgres -qAt -c "SELECT to_char(clock_timestamp(), 'HH24:MI:SS')"; }
step() { echo "$1" >"$offset"; sleep 1.5; }   # libfaketime re-reads the file every second

snos >"$WORK/before.txt"
echo "server clock $(server_time), real $(date -u +%T): 20000 snos"
step "-30"
started=$(date +%s%N)
snos >"$WORK/after_first_step.txt"
first_ms=$((($(date +%s%N) - started) / 1000000))
echo "server clock $(server_time) (set back 30 s): 20000 snos in $first_ms ms"
step "-90"
started=$(date +%s%N)
set +e
error=$(cluster_psql "$dir" "$PORT" -d postgres -qAt -v VERBOSITY=verbose \
    -c "SET comb_ext.max_clock_wait = '2s'" -c "SELECT sno_new()::text" 2>&1 >"$WORK/after_second_step.txt")
set -e
second_ms=$((($(date +%s%N) - started) / 1000000))
echo "server clock $(server_time) (set back 90 s): after $second_ms ms: $(echo "$error" | head -1)"

made=$(cat "$WORK/before.txt" "$WORK/after_first_step.txt" | wc -l)
distinct=$(cat "$WORK/before.txt" "$WORK/after_first_step.txt" "$WORK/after_second_step.txt" | sort -u | wc -l)
issued_after_second=$(wc -l <"$WORK/after_second_step.txt")
echo "snos: $made made, $distinct distinct; issued after the second step: $issued_after_second"
status=0
[ "$made" -eq 40000 ] && [ "$distinct" -eq 40000 ] || { echo "FAILED: a sno was made twice or missing"; status=1; }
[ "$issued_after_second" -eq 0 ] || { echo "FAILED: a value was issued after the second step"; status=1; }
echo "$error" | grep -q "ERROR:  55000: sno_new: the system clock is" || { echo "FAILED: not the 55000 clock error"; status=1; }
[ "$first_ms" -lt 1500 ] || { echo "FAILED: the first step back made sno_new wait"; status=1; }
[ "$second_ms" -ge 2000 ] && [ "$second_ms" -lt 6000 ] || { echo "FAILED: the wait was not bounded by 2 s"; status=1; }
exit $status
