#!/usr/bin/env bash
# The system clock set back twice under a running server (libfaketime reading its offset from a
# file, so the steps happen while the server runs; the monotonic clock is left alone, as a real
# clock step leaves it). The first step back: sno_new goes on at once with the tick-tock bit
# toggled. The second, into the same past and before where the first one went on: sno_new would
# have to wait until the clock passes the values already issued; with comb_ext.max_clock_wait = 2s
# it fails with 55000 after about 2 s, issuing nothing, and names how far the clock is behind.
# Then steps while calls wait for the clock (sno at 4 a unit: an hour back, then 10 ms; uid8 on one
# id: an hour back) and restarts an hour back then a second further: no 55000. No value twice.
# Before that, uid8: a session holding generator id 7 makes IDs for about 2 s and ends; the clock is
# set back 4 s, into the milliseconds it used (2.5 s pass while the step takes hold); a new session claims id 7 and makes IDs. The new
# holder starts after the old one's last millisecond (the server's high-water per id), not at the
# clock: no ID is made twice. Then within one session: the id let go by pg_advisory_unlock_all() and
# by DISCARD ALL while the clock is set back into the milliseconds the session used; re-claimed, it
# goes on after them.
#   bash tests/clock_step.sh [work dir] [--quick]   (expects comb_ext installed; port COMB_EXT_TEST_PORT + 10)
# --quick is the quick cell, not the full run: the first step back (sno_new goes on at once) and the
# second (it fails with 55000 after max_clock_wait, issuing nothing); no sno twice. No uid8 re-claims,
# no steps during waits, no restarts.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
take_quick "$@"
set -- "${ARGS[@]}"
WORK=${1:-/tmp/comb_ext_clock_step}
[ "$QUICK" = 1 ] && echo "clock_step --quick: THE QUICK CELL ONLY, not the full run: sno_new across the first step back (30 s) and the second (90 s, must fail after max_clock_wait); uid8 re-claims, steps during waits and restarts not run"
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
step() { faketime_step "$offset" "$1"; }

# Not in the quick cell: uid8 re-claims after a step back.
if [ "$QUICK" = 0 ]; then
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
    # Under load the release and the clock reading can come later than planned, so the clock may
    # not read inside the used second: each attempt that misses takes a new generator id and moves
    # the step by what it missed by (aiming at 500 ms behind), up to 4 attempts; every attempt's
    # IDs must still be distinct.
    reclaim_inside() {
        local release=$1 generator=$2 offset_s=$3 file=$4 attempt clock_ms made distinct behind_ms
        for attempt in 1 2 3 4; do
            step "+0"
            reclaim "$release" "$generator" "$offset_s" >"$WORK/$file.txt"
            clock_ms=$(grep '^clock ' "$WORK/$file.txt" | cut -d' ' -f2)
            grep -v '^clock ' "$WORK/$file.txt" >"$WORK/$file.ids"
            made=$(wc -l <"$WORK/$file.ids")
            distinct=$(sort -u "$WORK/$file.ids" | wc -l)
            # How far the clock read behind the last millisecond used before the release (IDs of
            # one session increase: the 64,000th is the last).
            behind_ms=$(cluster_psql "$dir" "$PORT" -d postgres -qAt -c "
                SELECT (extract(epoch FROM uid8_timestamp($(sed -n 64000p "$WORK/$file.ids"))) * 1000)::bigint - $clock_ms")
            echo "uid8, one session, $file (attempt $attempt: generator id $generator, clock set back $offset_s s) with the clock $behind_ms ms behind at the re-claim: $made made, $distinct distinct"
            [ "$made" -eq 96000 ] && [ "$distinct" -eq 96000 ] || { echo "FAILED: $file made an ID twice or missed one"; reclaim_failed=1; return; }
            [ "$behind_ms" -gt 0 ] && [ "$behind_ms" -lt 1000 ] && return
            offset_s=$(awk -v o="$offset_s" -v b="$behind_ms" 'BEGIN { printf "%.3f", o - (500 - b) / 1000 }')
            generator=$((generator + 2))
        done
        echo "FAILED: $file: the clock never read inside the used second in 4 attempts"
        reclaim_failed=1
    }
    reclaim_inside "SELECT pg_advisory_unlock_all()" 8 "-3" uid8_unlock_all
    reclaim_inside "DISCARD ALL" 9 "-3" uid8_discard_all
    step "+0"
fi

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

# The quick cell ends here, with the checks of the two steps (the same as at the end of the full run).
if [ "$QUICK" = 1 ]; then
    made=$(cat "$WORK/before.txt" "$WORK/after_first_step.txt" | wc -l)
    distinct=$(cat "$WORK/before.txt" "$WORK/after_first_step.txt" "$WORK/after_second_step.txt" | sort -u | wc -l)
    issued_after_second=$(wc -l <"$WORK/after_second_step.txt")
    echo "snos: $made made, $distinct distinct; issued after the second step: $issued_after_second"
    status=0
    [ "$made" -eq 40000 ] && [ "$distinct" -eq 40000 ] || { echo "FAILED: a sno was made twice or missing"; status=1; }
    [ "$issued_after_second" -eq 0 ] || { echo "FAILED: a value was issued after the second step"; status=1; }
    grep -q "ERROR:  55000: sno_new: the last value issued (or the mark reserved before a restart) is [0-9.]* s ahead of the system clock" <<<"$error" || { echo "FAILED: not the 55000 clock error"; status=1; }
    [ "$first_ms" -lt 1500 ] || { echo "FAILED: the first step back made sno_new wait"; status=1; }
    [ "$second_ms" -ge 2000 ] && [ "$second_ms" -lt 6000 ] || { echo "FAILED: the wait was not bounded by 2 s"; status=1; }
    [ "$status" = 0 ] && echo "clock_step --quick: passed (the quick cell only)"
    exit $status
fi

# Steps of the clock while calls wait for it, each a failure with 55000 before: a wait now returns
# to the generator when the clock moves back. The clock first jumps an hour ahead of everything.
# sno with a pool of 4 a unit (comb_ext.sno_sequence_max = 3) makes at most 1000 a second and waits
# for the next unit most of the time: 7000 take at least 7 s. While they run the clock steps back an
# hour (the tick toggles at once), then 10 ms more, into units both ticks used: the wait lasts
# until the last unit issued (10 ms), not until the hour-old unit the other tick reached.
step "+3600"
started=$(date +%s%N)
cluster_psql "$dir" "$PORT" -d postgres -qAt -c "SET comb_ext.sno_sequence_max = 3" \
    -c "SELECT sno_new()::text FROM generate_series(1, 7000)" >"$WORK/sno_waits.txt" 2>"$WORK/sno_waits.err" &
pid=$!
sleep 2
echo "+0" >"$offset"
sleep 2.5
echo "-0.01" >"$offset"
wait $pid || true
sno_waits_ms=$((($(date +%s%N) - started) / 1000000))
sno_waits_made=$(wc -l <"$WORK/sno_waits.txt")
# The tick bit is the low bit of the 8th character's 5-bit group.
sno_waits_ticks=$(awk '{ print (index("23456789abcdefghijklmnopqrstuvwx", substr($0, 8, 1)) - 1) % 2 }' \
    "$WORK/sno_waits.txt" | sort -u | wc -l)
echo "server clock $(server_time): sno, 4 a unit, the clock set back 1 h then 10 ms while it ran: $sno_waits_made made in $sno_waits_ms ms, both ticks: $([ "$sno_waits_ticks" -eq 2 ] && echo yes || echo no) $(head -1 "$WORK/sno_waits.err")"
# uid8 on one generator id (comb_ext.uid8_generators_per_session = 1): 64 a millisecond, so 384,000
# take 6 s on an honest clock, waiting for the next millisecond most of the time. The clock steps
# back an hour while they run: the session goes on ahead of the clock, from its last millisecond.
started=$(date +%s%N)
cluster_psql "$dir" "$PORT" -d postgres -qAt -c "SET comb_ext.uid8_generators_per_session = 1" \
    -c "SELECT uid8_new() FROM generate_series(1, 384000)" >"$WORK/uid8_waits.txt" 2>"$WORK/uid8_waits.err" &
pid=$!
sleep 2
echo "-3600.01" >"$offset"
wait $pid || true
uid8_waits_ms=$((($(date +%s%N) - started) / 1000000))
uid8_waits_made=$(wc -l <"$WORK/uid8_waits.txt")
uid8_waits_distinct=$(sort -u "$WORK/uid8_waits.txt" | wc -l)
echo "server clock $(server_time): uid8, one id, the clock set back 1 h while it ran: $uid8_waits_made made, $uid8_waits_distinct distinct, in $uid8_waits_ms ms $(head -1 "$WORK/uid8_waits.err")"
# Restarts with the clock set back: an hour ahead, then an hour back (the tick toggles at once),
# then 2 s further back (the restart takes about a second, which leaves the clock behind the
# values of the run before), into units both ticks may have used: the third start waits only for
# the mark the second one reserved (a second or two), not for the hour-old unit the other tick
# reached.
restart_at() { cluster_stop "$dir"; echo "$1" >"$offset"; cluster_start_faketime "$dir" "$PORT" "$offset"; }
restart_snos() { cluster_psql "$dir" "$PORT" -d postgres -qAt -c "SELECT sno_new()::text FROM generate_series(1, 2000)"; }
: >"$WORK/sno_restarts.txt"
: >"$WORK/sno_restarts.err"
for at in "+7200" "+3600" "+3598"; do
    restart_at "$at"
    started=$(date +%s%N)
    restart_snos >>"$WORK/sno_restarts.txt" 2>>"$WORK/sno_restarts.err" || true
    echo "server clock $(server_time) (restarted at $at s): 2000 snos in $((($(date +%s%N) - started) / 1000000)) ms $(head -1 "$WORK/sno_restarts.err")"
done
sno_restarts_made=$(wc -l <"$WORK/sno_restarts.txt")

made=$(cat "$WORK/before.txt" "$WORK/after_first_step.txt" | wc -l)
distinct=$(cat "$WORK/before.txt" "$WORK/after_first_step.txt" "$WORK/after_second_step.txt" | sort -u | wc -l)
issued_after_second=$(wc -l <"$WORK/after_second_step.txt")
echo "snos: $made made, $distinct distinct; issued after the second step: $issued_after_second"
all_snos=$(cat "$WORK/before.txt" "$WORK/after_first_step.txt" "$WORK/sno_waits.txt" "$WORK/sno_restarts.txt" | wc -l)
all_snos_distinct=$(cat "$WORK/before.txt" "$WORK/after_first_step.txt" "$WORK/sno_waits.txt" "$WORK/sno_restarts.txt" | sort -u | wc -l)
echo "snos of the whole run: $all_snos made, $all_snos_distinct distinct"
status=${reclaim_failed:-0}
[ "$uid8_made" -eq 160000 ] && [ "$uid8_distinct" -eq 160000 ] || { echo "FAILED: a uid8 was made twice after the re-claim"; status=1; }
[[ "$second_first" > "$first_last" ]] || { echo "FAILED: the new holder started before the old one's last millisecond"; status=1; }
[ "$made" -eq 40000 ] && [ "$distinct" -eq 40000 ] || { echo "FAILED: a sno was made twice or missing"; status=1; }
[ "$issued_after_second" -eq 0 ] || { echo "FAILED: a value was issued after the second step"; status=1; }
grep -q "ERROR:  55000: sno_new: the last value issued (or the mark reserved before a restart) is [0-9.]* s ahead of the system clock" <<<"$error" || { echo "FAILED: not the 55000 clock error"; status=1; }
[ "$sno_waits_made" -eq 7000 ] && [ ! -s "$WORK/sno_waits.err" ] || { echo "FAILED: sno failed when the clock stepped back during its waits"; status=1; }
[ "$sno_waits_ticks" -eq 2 ] || { echo "FAILED: sno did not toggle its tick at the step back"; status=1; }
[ "$sno_waits_ms" -ge 6500 ] || { echo "FAILED: the sno run ended before the 10 ms step took hold"; status=1; }
[ "$uid8_waits_made" -eq 384000 ] && [ "$uid8_waits_distinct" -eq 384000 ] && [ ! -s "$WORK/uid8_waits.err" ] || { echo "FAILED: uid8 failed or repeated when the clock stepped back during its waits"; status=1; }
[ "$sno_restarts_made" -eq 6000 ] && [ ! -s "$WORK/sno_restarts.err" ] || { echo "FAILED: sno failed after the restarts with the clock set back"; status=1; }
[ "$all_snos" -eq "$all_snos_distinct" ] || { echo "FAILED: a sno was made twice"; status=1; }
[ "$first_ms" -lt 1500 ] || { echo "FAILED: the first step back made sno_new wait"; status=1; }
[ "$second_ms" -ge 2000 ] && [ "$second_ms" -lt 6000 ] || { echo "FAILED: the wait was not bounded by 2 s"; status=1; }
exit $status
