#!/usr/bin/env bash
# Watermarks (comb_watermark, sno_watermark, muid_watermark, uid8_watermark) across crashes,
# prepared transactions and a clock step back, for all four families (uid8 as time_sequential),
# on one server whose wall clock libfaketime shifts (offset 0 until the third case):
# 1. A transaction that made ids and stays open holds every W at or below its ids, and
#    comb_watermark_holders() shows its pid per family. A kill -9 of its backend (the postmaster
#    then restarts every backend: crash recovery) ends it: W passes the clock again, no row of it
#    exists and nothing holds W back.
# 2. Two prepared transactions that made ids (tables with the generators as DEFAULT) hold W at or
#    below their ids, with their prepared_xid in comb_watermark_holders() and a file each in
#    comb_ext/prepared/, and still do after a kill -9 of the postmaster and all its processes and a
#    start, and after a crash (kill -9 of a backend) then; comb_watermark_holders() must show them
#    after a start even when asked before any watermark function. COMMIT PREPARED of the first lets
#    W pass its ids (the second still holds W back), and a reader following
#    `id > last AND id < W ORDER BY id` then sees them; ROLLBACK PREPARED of the second releases W;
#    comb_ext/prepared/ is empty at the end.
# 3. W1 taken, the clock stepped back an hour, ids made by a session that made ids before and by a
#    new one, W2 taken: every id made after W1 is >= W1, W2 >= W1, and W goes on rising (at half
#    speed, behind the floor) in polls 1 s apart. Two sessions then commit (and roll back) a few
#    thousand rows per family while the reader polls: it sees every committed row once, in order.
# The reader follows every family from the start of the script to the end; whatever it read must
# be exactly the committed rows, in id order.
#   bash tests/watermark_crash.sh WORK_DIR   (expects comb_ext installed; port COMB_EXT_TEST_PORT + 38, default 54368)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
source "$REPO/scripts/lib/watermark_families.sh"
WORK=${1:?usage: tests/watermark_crash.sh WORK_DIR}
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 38))
dir="$WORK/cluster"
offset="$WORK/faketime.rc"
declare -A LAST=()
started=$(date +%s%N)

mkdir -p "$WORK"
chown postgres:postgres "$WORK"
cluster_stop "$dir"
rm -rf "$dir"
rm -f "$WORK"/seen.* "$WORK"/case*.*
jobs_started=()
cleanup() {
    local pid
    for pid in "${jobs_started[@]}"; do kill "$pid" 2>/dev/null || true; done
    cluster_stop "$dir"
}
trap cleanup EXIT

q() { cluster_psql "$dir" "$PORT" -d postgres -qAt "$@"; }
failures=0
fail() { echo "  FAILED: $*"; failures=$((failures + 1)); }
# check LABEL SQL: SQL returns one row, a boolean and a figure; the figure is printed, and a false
# (or an error) is a failure.
check() {
    local out ok detail
    if ! out=$(q -F $'\t' -c "$2" 2>&1); then
        fail "$1: $out"
        return
    fi
    ok=${out%%$'\t'*}
    detail=${out#*$'\t'}
    if [ "$ok" = t ]; then echo "  $1: $detail"; else fail "$1: $detail"; fi
}
# ms TIMESTAMP_EXPR: the SQL for TIMESTAMP_EXPR - clock_timestamp() in whole ms (shown only). A W that
# must be at the clock is checked against statement_timestamp(), read before the watermark is taken:
# clock_timestamp() is read after it, and a loaded machine can pause the backend in between (167 ms, in
# a gate run from nothing).
ms() { echo "round(extract(epoch FROM ($1) - clock_timestamp()) * 1000)"; }
ready_count() { grep -c "database system is ready to accept connections" "$dir/server.log" || true; }
# crash PID: kill -9 of backend PID; waits until the postmaster has restarted every backend and
# the server is ready again.
crash() {
    local before resets
    before=$(ready_count)
    resets=$(grep -c "all server processes terminated; reinitializing" "$dir/server.log" || true)
    kill -9 "$1"
    for _ in $(seq 1 300); do
        [ "$(ready_count)" -gt "$before" ] && break
        sleep 0.1
    done
    cluster_wait_ready "$dir" "$PORT" || fail "no server after the crash"
    if [ "$(grep -c "all server processes terminated; reinitializing" "$dir/server.log" || true)" -gt "$resets" ]; then
        echo "  kill -9 of backend $1: the postmaster restarted every backend (crash recovery)"
    else
        fail "no crash recovery in the server log after the kill -9 of $1"
    fi
}

echo "+0" >"$offset"
chmod 644 "$offset"
cluster_start "$dir" "$PORT" "shared_preload_libraries = 'comb_ext'" "max_prepared_transactions = 10" >/dev/null
cluster_stop "$dir"
cluster_start_faketime "$dir" "$PORT" "$offset"
q -c "CREATE EXTENSION comb_ext" -c "
CREATE TABLE t_comb (id uuid PRIMARY KEY DEFAULT comb_uuid(), phase text NOT NULL);
CREATE TABLE t_sno (id sno PRIMARY KEY DEFAULT sno_new(), phase text NOT NULL);
CREATE TABLE t_muid (id uuid PRIMARY KEY DEFAULT muid_new(), phase text NOT NULL);
CREATE TABLE t_uid8 (id bigint PRIMARY KEY DEFAULT uid8_new('time_sequential'), phase text NOT NULL);
CREATE TABLE marks (label text PRIMARY KEY, comb uuid, sno sno, muid uuid, uid8 bigint, taken timestamptz DEFAULT clock_timestamp());"
# insert_rows PHASE N: N rows in every family's table, one statement (one transaction unless in one).
insert_rows() {
    local f
    for f in "${FAMILIES[@]}"; do printf "INSERT INTO t_%s (phase) SELECT '%s' FROM generate_series(1, %d);" "$f" "$1" "$2"; done
}
take_marks() {
    q -c "INSERT INTO marks (label, comb, sno, muid, uid8) SELECT '$1', comb_watermark(), sno_watermark(), muid_watermark(), uid8_watermark()"
}

# The reader: per family, W first, then (a later statement, so a later snapshot) the rows past the
# last one read and below W, in id order, appended to seen.FAMILY.
reader_poll() {
    local f script="" out cond last
    for f in "${FAMILIES[@]}"; do script+="SELECT ${WFN[$f]}::text AS w_$f \\gset"$'\n'; done
    for f in "${FAMILIES[@]}"; do
        cond=""
        if [ -n "${LAST[$f]:-}" ]; then cond="id > '${LAST[$f]}'::${TYPE[$f]} AND "; fi
        script+="SELECT '$f', id::text FROM t_$f WHERE ${cond}id < :'w_$f'::${TYPE[$f]} ORDER BY id;"$'\n'
    done
    out=$(q <<<"$script")
    for f in "${FAMILIES[@]}"; do
        awk -F'|' -v f="$f" '$1 == f { print $2 }' <<<"$out" >>"$WORK/seen.$f"
        last=$(awk -F'|' -v f="$f" '$1 == f { l = $2 } END { print l }' <<<"$out")
        if [ -n "$last" ]; then LAST[$f]=$last; fi
    done
}
seen() { if [ -f "$WORK/seen.$1" ]; then wc -l <"$WORK/seen.$1"; else echo 0; fi; }
committed() { q -c "SELECT count(*) FROM t_$1"; }
# reader_catch_up: poll until the reader has read every committed row of every family (at most 30
# polls); CATCH_UP_POLLS is how many it took. (Not in a subshell: the reader's state is the shell's.)
reader_catch_up() {
    local polls=0 f behind
    while :; do
        reader_poll
        polls=$((polls + 1))
        behind=0
        for f in "${FAMILIES[@]}"; do [ "$(seen "$f")" -eq "$(committed "$f")" ] || behind=1; done
        [ "$behind" -eq 0 ] || [ "$polls" -ge 30 ] && break
        sleep 0.2
    done
    CATCH_UP_POLLS=$polls
}
# reader_verify LABEL: what the reader read is exactly the committed rows, in id order.
reader_verify() {
    local f
    for f in "${FAMILIES[@]}"; do
        q -c "SELECT id::text FROM t_$f ORDER BY id" >"$WORK/committed.$f"
        if cmp -s "$WORK/committed.$f" "$WORK/seen.$f"; then
            echo "  reader, $f: read $(seen "$f") rows, every committed row once, in id order ($1)"
        else
            fail "reader, $f: read $(seen "$f") rows, $(wc -l <"$WORK/committed.$f") committed; first difference: $(diff "$WORK/committed.$f" "$WORK/seen.$f" | sed -n 2p) ($1)"
        fi
    done
}

say "1. an open transaction that made ids of every family, then a kill -9 of its backend"
q >"$WORK/case1.out" 2>&1 <<EOF &
BEGIN;
SELECT pg_backend_pid() \g $WORK/case1.pid
INSERT INTO t_comb (phase) VALUES ('killed') RETURNING id \g $WORK/case1.comb
INSERT INTO t_sno (phase) VALUES ('killed') RETURNING id \g $WORK/case1.sno
INSERT INTO t_muid (phase) VALUES ('killed') RETURNING id \g $WORK/case1.muid
INSERT INTO t_uid8 (phase) VALUES ('killed') RETURNING id \g $WORK/case1.uid8
SELECT pg_sleep(120);
EOF
session=$!
jobs_started+=("$session")
for _ in $(seq 1 100); do
    [ -s "$WORK/case1.uid8" ] && break
    sleep 0.1
done
[ -s "$WORK/case1.uid8" ] || { cat "$WORK/case1.out"; fail "the open transaction made no ids"; exit 1; }
victim=$(cat "$WORK/case1.pid")
declare -A KILLED=()
for f in "${FAMILIES[@]}"; do KILLED[$f]=$(cat "$WORK/case1.$f"); done
q -c "INSERT INTO t_comb (phase) VALUES ('committed_meanwhile')"
sleep 1
echo "  backend $victim made ${KILLED[comb]} ${KILLED[sno]} ${KILLED[muid]} ${KILLED[uid8]} a second ago, still open"
for f in "${FAMILIES[@]}"; do
    check "held, $f" "SELECT w <= '${KILLED[$f]}'::${TYPE[$f]}, format('W %s (%s ms from the clock) <= the open id', w, $(ms "${TIMEFN[$f]}(w)")) FROM (SELECT ${WFN[$f]} AS w) x"
done
check "holders" "SELECT count(*) = 4 AND bool_and(pid = $victim AND prepared_xid IS NULL), string_agg(format('%s pid %s since %s ms', family, pid, $(ms held_since)), '; ' ORDER BY family) FROM comb_watermark_holders()"
crash "$victim"
wait "$session" 2>/dev/null || true
for f in "${FAMILIES[@]}"; do
    check "released, $f" "SELECT w > '${KILLED[$f]}'::${TYPE[$f]} AND ${TIMEFN[$f]}(w) >= statement_timestamp() - interval '50 ms', format('W %s (%s ms from the clock) > the killed id; rows of the killed transaction: %s', w, $(ms "${TIMEFN[$f]}(w)"), (SELECT count(*) FROM t_$f WHERE phase = 'killed' OR id = '${KILLED[$f]}'::${TYPE[$f]})) FROM (SELECT ${WFN[$f]} AS w) x"
    check "no row of the killed transaction, $f" "SELECT count(*) = 0, count(*) || ' rows' FROM t_$f WHERE phase = 'killed'"
done
check "no holders" "SELECT count(*) = 0, count(*) || ' holders' FROM comb_watermark_holders()"
reader_catch_up

say "2. prepared transactions across a kill -9 of the postmaster, then COMMIT PREPARED and ROLLBACK PREPARED"
q -c "$(insert_rows before 5)"
reader_catch_up
echo "  reader: caught up in $CATCH_UP_POLLS polls"
# prepare GID: a transaction that makes 3 ids of every family and is prepared as GID; prints
# "family id" lines.
prepare() {
    local f returning=()
    for f in "${FAMILIES[@]}"; do
        returning+=(-c "INSERT INTO t_$f (phase) SELECT '$1' FROM generate_series(1, 3) RETURNING '$f ' || id::text")
    done
    q -c "BEGIN" "${returning[@]}" -c "PREPARE TRANSACTION '$1'"
}
prepare wm_commit >"$WORK/case2.commit"
sleep 0.1
prepare wm_rollback >"$WORK/case2.rollback"
q -c "$(insert_rows after_prepare 3)"
declare -A FIRST_COMMIT=() LAST_COMMIT=() FIRST_ROLLBACK=() LAST_ROLLBACK=()
for f in "${FAMILIES[@]}"; do
    FIRST_COMMIT[$f]=$(awk -v f="$f" '$1 == f { print $2; exit }' "$WORK/case2.commit")
    LAST_COMMIT[$f]=$(awk -v f="$f" '$1 == f { l = $2 } END { print l }' "$WORK/case2.commit")
    FIRST_ROLLBACK[$f]=$(awk -v f="$f" '$1 == f { print $2; exit }' "$WORK/case2.rollback")
    LAST_ROLLBACK[$f]=$(awk -v f="$f" '$1 == f { l = $2 } END { print l }' "$WORK/case2.rollback")
done
echo "  prepared: wm_commit ($(wc -l <"$WORK/case2.commit") ids), wm_rollback ($(wc -l <"$WORK/case2.rollback") ids); 3 rows a family committed after them"
# holders_prepared WHEN: comb_watermark_holders() shows both prepared transactions, every family.
holders_prepared() {
    check "holders ($1)" "SELECT count(*) = 8 AND bool_and(pid IS NULL) AND (SELECT array_agg(transaction::text::bigint ORDER BY transaction::text::bigint) FROM pg_prepared_xacts WHERE gid LIKE 'wm_%') = array_agg(DISTINCT prepared_xid ORDER BY prepared_xid), coalesce(string_agg(DISTINCT format('prepared_xid %s (%s)', prepared_xid, (SELECT gid FROM pg_prepared_xacts WHERE transaction::text::bigint = prepared_xid)), ', ') || ', ', '') || count(*) || ' rows (families: ' || coalesce(string_agg(DISTINCT family, ' '), 'none') || ')' FROM comb_watermark_holders()"
}
# held_by_prepared WHEN: both prepared transactions hold every W back. comb_watermark_holders() is
# asked first too: after a start it must show them before any watermark was taken.
held_by_prepared() {
    local f
    holders_prepared "$1, asked first"
    for f in "${FAMILIES[@]}"; do
        check "held by wm_commit, $f ($1)" "SELECT w <= '${FIRST_COMMIT[$f]}'::${TYPE[$f]}, format('W %s (%s ms from the clock) <= its first id %s', w, $(ms "${TIMEFN[$f]}(w)"), '${FIRST_COMMIT[$f]}') FROM (SELECT ${WFN[$f]} AS w) x"
    done
    holders_prepared "$1"
    local files
    files=$(find "$dir/comb_ext/prepared" -type f 2>/dev/null | wc -l)
    if [ "$files" -eq 2 ]; then
        echo "  comb_ext/prepared ($1): $(for file in "$dir"/comb_ext/prepared/*; do printf '%s: %s; ' "$(basename "$file")" "$(cat "$file")"; done)"
    else
        fail "comb_ext/prepared holds $files files, not 2 ($1)"
    fi
    reader_poll
    for f in "${FAMILIES[@]}"; do
        [ "$(seen "$f")" -eq "$(q -c "SELECT count(*) FROM t_$f WHERE phase <> 'after_prepare'")" ] ||
            fail "reader, $f: read $(seen "$f") rows, past the prepared transactions' ids ($1)"
    done
}
held_by_prepared "before the crash"
read -r postmaster children < <(cluster_kill9 "$dir")
echo "  kill -9 of the postmaster $postmaster and its $children processes; starting again"
cluster_start_faketime "$dir" "$PORT" "$offset"
check "prepared after the restart" "SELECT count(*) = 2, string_agg(gid || ' xid ' || transaction, ', ') FROM pg_prepared_xacts"
held_by_prepared "after the restart"
# And a crash (the postmaster stays, shared memory is made again): a kill -9 of an idle backend.
q -c "SELECT pg_sleep(60)" >/dev/null 2>&1 &
session=$!
jobs_started+=("$session")
victim=""
while [ -z "$victim" ]; do
    victim=$(q -c "SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'")
done
crash "$victim"
wait "$session" 2>/dev/null || true
held_by_prepared "after a crash"
q -c "COMMIT PREPARED 'wm_commit'"
for f in "${FAMILIES[@]}"; do
    check "after COMMIT PREPARED, $f" "SELECT w > '${LAST_COMMIT[$f]}'::${TYPE[$f]} AND w <= '${FIRST_ROLLBACK[$f]}'::${TYPE[$f]}, format('W %s (%s ms from the clock): past wm_commit''s ids, still held by wm_rollback''s', w, $(ms "${TIMEFN[$f]}(w)")) FROM (SELECT ${WFN[$f]} AS w) x"
done
reader_poll
for f in "${FAMILIES[@]}"; do
    check "reader after COMMIT PREPARED, $f" "SELECT $(seen "$f") = count(*) AND '${LAST[$f]:-}' = '${LAST_COMMIT[$f]}', format('read %s rows, up to the last of wm_commit', $(seen "$f")) FROM t_$f WHERE phase <> 'after_prepare'"
done
q -c "ROLLBACK PREPARED 'wm_rollback'"
for f in "${FAMILIES[@]}"; do
    check "after ROLLBACK PREPARED, $f" "SELECT w > '${LAST_ROLLBACK[$f]}'::${TYPE[$f]} AND w > (SELECT id FROM t_$f ORDER BY id DESC LIMIT 1) AND ${TIMEFN[$f]}(w) >= statement_timestamp() - interval '50 ms', format('W %s (%s ms from the clock); rows of wm_rollback: %s', w, $(ms "${TIMEFN[$f]}(w)"), (SELECT count(*) FROM t_$f WHERE phase = 'wm_rollback')) FROM (SELECT ${WFN[$f]} AS w) x WHERE NOT EXISTS (SELECT FROM t_$f WHERE phase = 'wm_rollback')"
done
check "no holders" "SELECT count(*) = 0, count(*) || ' holders' FROM comb_watermark_holders()"
reader_catch_up
echo "  reader: caught up in $CATCH_UP_POLLS polls"
reader_verify "after the prepared transactions"
left=$(find "$dir/comb_ext/prepared" -type f 2>/dev/null | wc -l)
if [ "$left" -eq 0 ]; then echo "  comb_ext/prepared: empty"; else fail "comb_ext/prepared still holds $left files: $(ls "$dir/comb_ext/prepared")"; fi

say "3. the clock stepped back an hour between two watermarks"
# One session makes ids, takes W1, has the clock stepped back (and waits for it to take hold),
# makes ids again; then a new session makes ids; then W2.
q -c "$(insert_rows old_before 10)" -c "INSERT INTO marks (label, comb, sno, muid, uid8) SELECT 'w1', comb_watermark(), sno_watermark(), muid_watermark(), uid8_watermark()" \
    -c "\\! echo -3600 > '$offset'; sleep 2.5" -c "$(insert_rows old_after 10)"
q -c "$(insert_rows new_after 10)"
take_marks w2
check "the clock" "SELECT clock_timestamp() < comb_timestamp(comb) - interval '3500 s', format('server clock %s s from W1''s time', round(extract(epoch FROM clock_timestamp() - comb_timestamp(comb)))) FROM marks WHERE label = 'w1'"
for f in "${FAMILIES[@]}"; do
    check "after the step, $f" "SELECT count(*) FILTER (WHERE t.id < w1.$f) = 0 AND w2.$f >= w1.$f, format('%s ids made after W1 (old session %s, new %s): %s below W1, the lowest %s ms past it; W2 - W1 %s ms', count(*), count(*) FILTER (WHERE phase = 'old_after'), count(*) FILTER (WHERE phase = 'new_after'), count(*) FILTER (WHERE t.id < w1.$f), round(extract(epoch FROM ${TIMEFN[$f]}((SELECT id FROM t_$f WHERE phase IN ('old_after', 'new_after') ORDER BY id LIMIT 1)) - ${TIMEFN[$f]}(w1.$f)) * 1000), round(extract(epoch FROM ${TIMEFN[$f]}(w2.$f) - ${TIMEFN[$f]}(w1.$f)) * 1000)) FROM t_$f t, marks w1, marks w2 WHERE w1.label = 'w1' AND w2.label = 'w2' AND t.phase IN ('old_after', 'new_after') GROUP BY w1.$f, w2.$f"
done
for i in 1 2 3 4; do
    sleep 1
    take_marks "poll$i"
done
for f in "${FAMILIES[@]}"; do
    check "advancing, $f" "SELECT bool_and(rise > 0), 'W rose by ' || string_agg(rise || ' ms', ', ' ORDER BY label) || ' in polls 1 s apart' FROM (SELECT label, round(extract(epoch FROM ${TIMEFN[$f]}($f) - ${TIMEFN[$f]}(lag($f) OVER (ORDER BY taken))) * 1000) AS rise FROM marks WHERE label LIKE 'poll%' OR label = 'w2') x WHERE rise IS NOT NULL"
done
reader_catch_up
echo "  reader: caught up in $CATCH_UP_POLLS polls"
# Two sessions commit 40 transactions of 50 rows a family each (every fifth rolled back) while the
# reader polls.
writer() {
    q -c "DO \$\$ BEGIN FOR i IN 1..40 LOOP
        $(insert_rows "stepped_$1" 50)
        IF i % 5 = 0 THEN ROLLBACK; ELSE COMMIT; END IF;
        PERFORM pg_sleep(0.01);
    END LOOP; END \$\$"
}
writer 1 >"$WORK/case3.writer1" 2>&1 &
w1=$!
writer 2 >"$WORK/case3.writer2" 2>&1 &
w2=$!
jobs_started+=("$w1" "$w2")
polls=0
while kill -0 "$w1" 2>/dev/null || kill -0 "$w2" 2>/dev/null; do
    reader_poll
    polls=$((polls + 1))
done
wait "$w1" || fail "writer 1: $(cat "$WORK/case3.writer1")"
wait "$w2" || fail "writer 2: $(cat "$WORK/case3.writer2")"
reader_catch_up
echo "  reader: $polls polls while the writers ran, then caught up in $CATCH_UP_POLLS polls"
for f in "${FAMILIES[@]}"; do
    check "writers, $f" "SELECT n = 3200 AND lowest >= w1, format('%s rows committed by the two sessions, the lowest %s ms past W1', n, round(extract(epoch FROM ${TIMEFN[$f]}(lowest) - ${TIMEFN[$f]}(w1)) * 1000)) FROM (SELECT count(*) AS n, (SELECT id FROM t_$f WHERE phase LIKE 'stepped_%' ORDER BY id LIMIT 1) AS lowest, (SELECT $f FROM marks WHERE label = 'w1') AS w1 FROM t_$f WHERE phase LIKE 'stepped_%') x"
done
reader_verify "after the step back"
check "no holders" "SELECT count(*) = 0, count(*) || ' holders' FROM comb_watermark_holders()"

elapsed=$((($(date +%s%N) - started) / 1000000))
if [ "$failures" -gt 0 ]; then
    echo "watermark_crash: $failures FAILED, in $elapsed ms" >&2
    exit 1
fi
echo "watermark_crash: every check passed, in $elapsed ms"
