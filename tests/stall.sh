#!/usr/bin/env bash
# A stalled disk under the marks (docs/guarantees.md: "Marks on disk"): the server runs with an LD_PRELOAD shim
# (tests/shims/stall_fsync.c) that, once a flag file is there, makes every fsync under comb_ext/
# take 10 s, as a network volume or a paused cloud disk would. Then, for sno, muid and uid8:
# - generation goes on until it reaches the mark on disk during the stall (written one to two
#   seconds ahead), and waits there;
# - the backends then waiting are cancelled by pg_cancel_backend within a second, and a statement
#   timeout ends such a wait as well;
# - after a kill -9 of a backend during the stall (a crash restart), every value issued before lies
#   below the mark on disk;
# - with the disk back, generation goes on, and no value was issued twice.
#   bash tests/stall.sh WORK_DIR    (expects comb_ext installed; port COMB_EXT_TEST_PORT + 34, default 54364)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=$1
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 34))
dir="$WORK/cluster"
flag="$WORK/stall"
shim="$WORK/stall_fsync.so"
FAMILIES=(sno muid uid8)
mkdir -p "$WORK"
chown postgres:postgres "$WORK"
rm -f "$flag"
cluster_stop "$dir"
rm -rf "$dir"
trap 'rm -f "$flag"; cluster_stop "$dir"' EXIT
cc -shared -fPIC -O2 -o "$shim" "$REPO/tests/shims/stall_fsync.c" -ldl
chmod 755 "$shim"
cluster_start "$dir" "$PORT" >/dev/null
cluster_stop "$dir"
as_postgres env LD_PRELOAD="$shim" COMB_EXT_STALL_FLAG="$flag" \
    "$PGBIN/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 start >/dev/null
sql() { cluster_psql "$dir" "$PORT" -d postgres -qAt "$@"; }
fail() { echo "stall: FAILED: $*" >&2; exit 1; }
now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$2 - $1:.3f}')"; }

# Each row: the value, and where it stands in its family's mark (sno: 4 ms units since 2010 and
# the tick; muid: µs since 1970; uid8: ms since 1970).
sql -c "CREATE EXTENSION comb_ext" -c "
CREATE TABLE made (family text, id text, position bigint, tick boolean, made_at timestamptz DEFAULT clock_timestamp());
CREATE PROCEDURE generate(family text, seconds float8) LANGUAGE plpgsql AS \$\$
DECLARE
    stop timestamptz := clock_timestamp() + make_interval(secs => seconds);
BEGIN
    WHILE clock_timestamp() < stop LOOP
        IF family = 'sno' THEN
            INSERT INTO made (family, id, position, tick)
            SELECT family, s::text, (extract(epoch FROM sno_time(s) - '2010-01-01 00:00:00+00') * 250)::bigint, sno_tick(s)
            FROM (SELECT sno_new() AS s FROM generate_series(1, 50)) x;
        ELSIF family = 'muid' THEN
            INSERT INTO made (family, id, position)
            SELECT family, m::text, muid_timestamp_us(m) FROM (SELECT muid_new() AS m FROM generate_series(1, 50)) x;
        ELSE
            INSERT INTO made (family, id, position)
            SELECT family, u::text, (extract(epoch FROM uid8_timestamp(u)) * 1000)::bigint
            FROM (SELECT uid8_new() AS u FROM generate_series(1, 50)) x;
        END IF;
        COMMIT;
    END LOOP;
END \$\$"
for family in "${FAMILIES[@]}"; do sql -c "CALL generate('$family', 0.5)"; done

# Start generators for every family in the background (application_name stall_FAMILY).
start_generators() {
    for family in "${FAMILIES[@]}"; do
        (PGAPPNAME="stall_$family" cluster_psql "$dir" "$PORT" -d postgres -qAt -c "CALL generate('$family', $1)" \
            >/dev/null 2>&1 || true) &
    done
}
waiting() {
    sql -c "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'stall_%' AND state = 'active' AND wait_event_type = 'Extension'"
}

# All three generate at once, then stop, and the disk stalls 0.3 s later. Each generator goes on
# until its mark on disk (one to two seconds ahead when the writes stopped; a write still under way
# then may complete and add to it), then waits: all three are waiting within a few seconds, and no
# write completes during the stall, so the marks read then are the ones that held them back.
start_generators 0.7
wait
sleep 0.3
echo 10 >"$flag"
chmod 644 "$flag"
stall_began=$(now)
start_generators 12
# Waiting for a mark, not for the next millisecond (uid8 waits for one after every 64 ids of a
# millisecond): all three wait, and none has stored a value for 0.6 s.
progress() { sql -c "SELECT string_agg(family || ' ' || n, ' ' ORDER BY family) FROM (SELECT family, count(*) AS n FROM made WHERE made_at >= to_timestamp($stall_began) GROUP BY family) x"; }
last_progress=$(progress)
previous_same=""
held_back=""
for _ in $(seq 1 27); do
    sleep 0.3
    waiting_now=$(waiting)
    now_progress=$(progress)
    if [ "$waiting_now" = 3 ] && [ "$now_progress" = "$last_progress" ] && [ -n "$previous_same" ]; then
        held_back=yes
        break
    fi
    previous_same=$([ "$now_progress" = "$last_progress" ] && echo yes || true)
    last_progress=$now_progress
done
all_waiting_after=$(elapsed "$stall_began" "$(now)")
declare -A mark_at_stall
for family in "${FAMILIES[@]}"; do
    read -r _ _ _ mark_at_stall[$family] _ <"$dir/comb_ext/$family.mark"
done
cancel_sent=$(now)
sql -c "SELECT count(pg_cancel_backend(pid)) FROM pg_stat_activity WHERE application_name LIKE 'stall_%'" >/dev/null
for _ in $(seq 1 100); do
    [ "$(sql -c "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'stall_%' AND state = 'active'")" = 0 ] && break
    sleep 0.02
done
cancelled_in=$(elapsed "$cancel_sent" "$(now)")
wait
echo "stall: fsync under comb_ext/ takes 10 s from $(date -d "@$stall_began" +%T.%N | cut -c1-12); $waiting_now of 3 generators waited for a mark $all_waiting_after s later; pg_cancel_backend freed them in $cancelled_in s"
[ -n "$held_back" ] || fail "the generators were not all held back $all_waiting_after s into the stall ($waiting_now of 3 waiting, values made: $now_progress)"
python3 -c "import sys; sys.exit(0 if $cancelled_in < 1 else 1)" || fail "cancelling took $cancelled_in s"
# Each went on up to the mark on disk during the stall (its reserve: whatever of the two windows
# written ahead the time since the last write left), and not past it.
declare -A seconds=([sno]=0.004 [muid]=0.000001 [uid8]=0.001) epoch=([sno]=1262304000 [muid]=0 [uid8]=0)
for family in "${FAMILIES[@]}"; do
    read -r rows last went_on <<<"$(sql -F ' ' -c "SELECT count(*), max(position), round((extract(epoch FROM max(made_at)) - $stall_began)::numeric, 3) FROM made WHERE family = '$family' AND made_at >= to_timestamp($stall_began)")"
    mark=${mark_at_stall[$family]}
    reserve=$(python3 -c "print(f'{$mark * ${seconds[$family]} + ${epoch[$family]} - $stall_began:.3f}')")
    short=$(python3 -c "print(f'{($mark - $last) * ${seconds[$family]}:.3f}')")
    echo "stall: $family had $reserve s of marks on disk in reserve; went on for $went_on s ($rows values), to $short s short of the mark, then waited"
    [ "$last" -lt "$mark" ] || fail "$family issued $last during the stall, past the mark on disk $mark"
    python3 -c "import sys; sys.exit(0 if $short <= 0.2 and $reserve >= 0.4 else 1)" ||
        fail "$family stopped $short s short of its mark ($reserve s in reserve)"
done

# A statement timeout ends a wait too (the write under way is still stalled).
timeout_began=$(now)
timed_out=$(sql -v ON_ERROR_STOP=0 -c "SET statement_timeout = '500ms'" -c "SELECT muid_new()" 2>&1 || true)
timeout_took=$(elapsed "$timeout_began" "$(now)")
echo "stall: muid_new with statement_timeout = 500ms during the stall: \"$(echo "$timed_out" | head -1)\" after $timeout_took s"
case $timed_out in *"canceling statement due to statement timeout"*) ;; *) fail "statement_timeout did not end the wait" ;; esac
python3 -c "import sys; sys.exit(0 if $timeout_took < 1.5 else 1)" || fail "the statement timeout took $timeout_took s"

# A crash during the stall: generators wait, a write is under way, and a backend is killed.
start_generators 30
sleep 1.5
# The newest: a session of the round before may still be ending, waiting for its stalled write.
victim=$(sql -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'stall_muid' ORDER BY backend_start DESC LIMIT 1")
[ -n "$victim" ] || fail "no generator to kill"
kill -9 "$victim"
wait
rm -f "$flag"
cluster_wait_ready "$dir" "$PORT" || fail "the server did not come back after the crash"
for family in "${FAMILIES[@]}"; do
    mark=$(cat "$dir/comb_ext/$family.mark")
    read -r _ _ _ reserved _ drifts <<<"$mark"
    case $family in
        sno) condition="tick = ($drifts % 2 = 1)" ;;
        *) condition="true" ;;
    esac
    last=$(sql -c "SELECT max(position) FROM made WHERE family = '$family' AND $condition")
    echo "stall: after a kill -9 during the stall, $family.mark holds \"$mark\"; the last value issued stands at $last ($((reserved - last)) below it)"
    [ "$last" -lt "$reserved" ] || fail "$family issued $last, not below its mark $reserved"
done

# The disk is back: generation goes on, and nothing was issued twice.
for family in "${FAMILIES[@]}"; do sql -c "CALL generate('$family', 0.5)"; done
read -r rows distinct <<<"$(sql -F ' ' -c "SELECT count(*), count(DISTINCT (family, id)) FROM made")"
echo "stall: $rows values in all, $distinct distinct"
[ "$rows" = "$distinct" ] || fail "$((rows - distinct)) values repeated"
echo "stall: passed"
