#!/usr/bin/env bash
# The system clock set back twice under a running server (libfaketime reading its offset from a
# file, so the steps happen while the server runs; the monotonic clock is left alone, as a real
# clock step leaves it). The first step back: sno_new goes on at once with the tick-tock bit
# toggled. The second, into the same past: sno_new would have to wait until the clock passes the
# values already issued; with comb_ext.max_clock_wait = 2s it fails with 55000 after about 2 s,
# issuing nothing, and names how far the clock is behind. No sno is made twice.
# Before that, uid8: a session holding generator id 7 makes IDs for about 2 s and ends; the clock is
# set back 4 s, into the milliseconds it used (2.5 s pass while the step takes hold); a new session claims id 7 and makes IDs. The new
# holder starts after the old one's last millisecond (the server's high-water per id), not at the
# clock: no ID is made twice. Then within one session: the id let go by pg_advisory_unlock_all() and
# by DISCARD ALL while the clock is set back into the milliseconds the session used; re-claimed, it
# goes on after them.
#   bash tests/clock_step.sh [work dir]      (expects comb_ext installed; port COMB_EXT_TEST_PORT + 10)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=${1:-/tmp/comb_ext_clock_step}
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 10))
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
cluster_start_faketime "$dir" "$PORT" "$offset"
cluster_psql "$dir" "$PORT" -d postgres -qAt -c "CREATE EXTENSION comb_ext"

snos() { cluster_psql "$dir" "$PORT" -d postgres -qAt -c "SELECT sno_new()::text FROM generate_series(1, 20000)"; }
server_time() { cluster_psql "$dir" "$PORT" -d postgres -qAt -c "SELECT to_char(clock_timestamp(), 'HH24:MI:SS')"; }
step() { echo "$1" >"$offset"; sleep 2.5; }   # libfaketime re-reads the file when a whole second has passed

uid8s() {
    cluster_psql "$dir" "$PORT" -d postgres -qAt -c "SET comb_ext.uid8_generator_id = 7" \
        -c "SELECT uid8_new('time_sequential') FROM generate_series(1, $1)"
}
uid8s 128000 >"$WORK/uid8_first_holder.txt"   # 64 a millisecond on one id: 2 s
echo "server clock $(server_time): 128000 uid8s on generator id 7 from a session that ended"
step "-4"
uid8s 32000 >"$WORK/uid8_second_holder.txt"
echo "server clock $(server_time) (set back 4 s): 32000 uid8s on generator id 7 from a new session"
uid8_made=$(cat "$WORK/uid8_first_holder.txt" "$WORK/uid8_second_holder.txt" | wc -l)
uid8_distinct=$(cat "$WORK/uid8_first_holder.txt" "$WORK/uid8_second_holder.txt" | sort -u | wc -l)
first_last=$(cluster_psql "$dir" "$PORT" -d postgres -qAt -c "SELECT uid8_timestamp($(tail -1 "$WORK/uid8_first_holder.txt"))")
second_first=$(cluster_psql "$dir" "$PORT" -d postgres -qAt -c "SELECT uid8_timestamp($(head -1 "$WORK/uid8_second_holder.txt"))")
echo "uid8: $uid8_made made, $uid8_distinct distinct; first holder's last ms $first_last, second holder's first $second_first"
# The same within one session, the id let go by pg_advisory_unlock_all() and by DISCARD ALL (what
# poolers send) while the clock is set back 3 s, so that it reads inside the second of milliseconds
# the session used (about 0.5 s behind the last): the session re-claims the id and goes on after its
# last millisecond. (Inside psql, \! changes the offset and waits for it to take hold.)
reclaim() {
    local release=$1 generator=$2 offset_after=$3
    cluster_psql "$dir" "$PORT" -d postgres -qAt -c "SET comb_ext.uid8_generator_id = $generator" \
        -c "SELECT uid8_new('time_sequential') FROM generate_series(1, 64000)" \
        -c "\\! echo '$offset_after' > '$offset'; sleep 2.5" -c "$release" \
        -c "SELECT 'clock ' || (extract(epoch FROM clock_timestamp()) * 1000)::bigint" \
        -c "SET comb_ext.uid8_generator_id = $generator" \
        -c "SELECT uid8_new('time_sequential') FROM generate_series(1, 32000)" | grep -v '^$'
}
step "+0"
reclaim "SELECT pg_advisory_unlock_all()" 8 "-3" >"$WORK/uid8_unlock_all.txt"
reclaim "DISCARD ALL" 9 "-6" >"$WORK/uid8_discard_all.txt"
for file in uid8_unlock_all uid8_discard_all; do
    clock_ms=$(grep '^clock ' "$WORK/$file.txt" | cut -d' ' -f2)
    grep -v '^clock ' "$WORK/$file.txt" >"$WORK/$file.ids"
    made=$(wc -l <"$WORK/$file.ids")
    distinct=$(sort -u "$WORK/$file.ids" | wc -l)
    # How far the clock read behind the last millisecond used before the release (IDs of one
    # session increase: the 64,000th is the last).
    behind_ms=$(cluster_psql "$dir" "$PORT" -d postgres -qAt -c "
        SELECT (extract(epoch FROM uid8_timestamp($(sed -n 64000p "$WORK/$file.ids"))) * 1000)::bigint - $clock_ms")
    echo "uid8, one session, $file with the clock $behind_ms ms behind at the re-claim: $made made, $distinct distinct"
    [ "$made" -eq 96000 ] && [ "$distinct" -eq 96000 ] && [ "$behind_ms" -gt 0 ] && [ "$behind_ms" -lt 1000 ] || { echo "FAILED: $file"; reclaim_failed=1; }
done
step "+0"

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
status=${reclaim_failed:-0}
[ "$uid8_made" -eq 160000 ] && [ "$uid8_distinct" -eq 160000 ] || { echo "FAILED: a uid8 was made twice after the re-claim"; status=1; }
[[ "$second_first" > "$first_last" ]] || { echo "FAILED: the new holder started before the old one's last millisecond"; status=1; }
[ "$made" -eq 40000 ] && [ "$distinct" -eq 40000 ] || { echo "FAILED: a sno was made twice or missing"; status=1; }
[ "$issued_after_second" -eq 0 ] || { echo "FAILED: a value was issued after the second step"; status=1; }
echo "$error" | grep -q "ERROR:  55000: sno_new: the system clock is" || { echo "FAILED: not the 55000 clock error"; status=1; }
[ "$first_ms" -lt 1500 ] || { echo "FAILED: the first step back made sno_new wait"; status=1; }
[ "$second_ms" -ge 2000 ] && [ "$second_ms" -lt 6000 ] || { echo "FAILED: the wait was not bounded by 2 s"; status=1; }
exit $status
