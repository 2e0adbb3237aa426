#!/usr/bin/env bash
# uid8's run-ahead at its limits on a real server (docs/uid8.md, "Running ahead of the clock"). One session
# holding one generator id (64 IDs a millisecond) makes IDs in statements of 20,000 until its next ID lies
# 1.9 s past the clock, then 100,000 more; each row records clock_timestamp() right after its uid8_new.
#  - the bound: no ID more than comb_ext.uid8_run_ahead past the clock it was made at, and the bound was
#    reached (so the burst went past the old cap of 64 IDs a millisecond of the clock); the same at a bound of
#    300 ms; at 0 (upstream's wait) no ID past its clock;
#  - a hand-over: the session ends 1.9 s ahead and a new one pins its generator id at once: every ID of
#    it lies past every ID of the first;
#  - a restart: the postmaster killed (-9) right after a burst 1.9 s ahead: the first IDs after it lie
#    past every ID before;
#  - the clock set back an hour (faketime) under a session 1.9 s ahead: it goes on past its last ID;
#  - the library renamed over itself under the running server (as a package upgrade does): a new backend
#    does not run ahead (no ID past its clock) and logs why; after a restart it runs ahead again.
# No value twice over all of it.
#   bash tests/uid8_run_ahead.sh WORK_DIR      (expects comb_ext installed; port COMB_EXT_TEST_PORT + 52)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=$1
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 52))
dir="$WORK/cluster"
offset="$WORK/faketime.rc"
mkdir -p "$WORK"
chown postgres:postgres "$WORK"
cluster_stop "$dir"
rm -rf "$dir"
trap 'cluster_stop "$dir"' EXIT
echo "+0" >"$offset"
chmod 644 "$offset"
cluster_start "$dir" "$PORT" >/dev/null
cluster_stop "$dir"
start() { cluster_start_faketime "$dir" "$PORT" "$offset"; }
start
psql_() { cluster_psql "$dir" "$PORT" -d postgres -qAt "$@"; }
psql_ <<'SQL'
CREATE EXTENSION comb_ext;
CREATE TABLE made (n bigint GENERATED ALWAYS AS IDENTITY, run text NOT NULL DEFAULT current_setting('test.run'),
                   pid int DEFAULT pg_backend_pid(), id bigint, made_at timestamptz);
-- Statements of 20,000 until the next ID lies `target` past the clock (or a minute passed), then `more`.
CREATE FUNCTION burst(target interval, more int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE started timestamptz := clock_timestamp();
BEGIN
    LOOP
        INSERT INTO made (id, made_at) SELECT uid8_new('time_sequential'), clock_timestamp() FROM generate_series(1, 20000);
        EXIT WHEN uid8_timestamp(uid8_new('time_sequential')) - clock_timestamp() >= target
               OR clock_timestamp() - started > interval '60 s';
    END LOOP;
    INSERT INTO made (id, made_at) SELECT uid8_new('time_sequential'), clock_timestamp() FROM generate_series(1, more);
END $$;
-- Per run: IDs, distinct, the most any ID lay past the clock it was made at (ms), out of order in a session.
CREATE FUNCTION report(r text) RETURNS TABLE (ids bigint, distinct_ids bigint, most_ahead_ms numeric, out_of_order bigint)
LANGUAGE sql AS $$
    SELECT count(*), count(DISTINCT id),
           round((extract(epoch FROM max(uid8_timestamp(id) - made_at)) * 1000)::numeric, 1), -- extract is double on 13
           count(*) FILTER (WHERE id <= previous)
    FROM (SELECT *, lag(id) OVER (PARTITION BY pid ORDER BY n) AS previous FROM made WHERE run = r) s
$$;
SQL
session() { # RUN SETTINGS-AND-SQL...
    local run=$1
    shift
    psql_ -c "SET test.run = '$run'" -c "SET comb_ext.uid8_generators_per_session = 1" "$@" >/dev/null
}
report() { psql_ -F ' ' -c "SELECT * FROM report('$1')"; }
failed=0
check() { # WHAT CONDITION
    if eval "$2"; then echo "  ok: $1"; else echo "  FAILED: $1"; failed=1; fi
}

echo "uid8 run-ahead: the bound"
session bound2000 -c "SELECT burst('1900 ms', 100000)"
read -r ids distinct ahead disorder <<<"$(report bound2000)"
echo "  default (2 s): $ids IDs, $distinct distinct, at most $ahead ms past the clock, $disorder out of order"
check "at most 2,000 ms past the clock, and the bound reached (1,900 ms or more)" \
    "awk 'BEGIN { exit !($ahead <= 2000 && $ahead >= 1900) }' && [ $distinct -eq $ids ] && [ $disorder -eq 0 ]"
session bound300 -c "SET comb_ext.uid8_run_ahead = 300" -c "SELECT burst('290 ms', 100000)"
read -r ids distinct ahead disorder <<<"$(report bound300)"
echo "  300 ms: $ids IDs, $distinct distinct, at most $ahead ms past the clock, $disorder out of order"
check "at most 300 ms past the clock, and the bound reached" \
    "awk 'BEGIN { exit !($ahead <= 300 && $ahead >= 290) }' && [ $distinct -eq $ids ] && [ $disorder -eq 0 ]"
session bound0 -c "SET comb_ext.uid8_run_ahead = 0" \
    -c "INSERT INTO made (id, made_at) SELECT uid8_new('time_sequential'), clock_timestamp() FROM generate_series(1, 50000)"
read -r ids distinct ahead disorder <<<"$(report bound0)"
echo "  0 (upstream's wait): $ids IDs, $distinct distinct, at most $ahead ms past the clock"
check "no ID past the clock it was made at" "awk 'BEGIN { exit !($ahead <= 0) }' && [ $distinct -eq $ids ]"

echo "uid8 run-ahead: a generator id handed over 1.9 s ahead of the clock"
session handover-a -c "SET comb_ext.uid8_generator_id = 7" -c "SELECT burst('1900 ms', 0)"
session handover-b -c "SET comb_ext.uid8_generator_id = 7" \
    -c "INSERT INTO made (id, made_at) SELECT uid8_new('time_sequential'), clock_timestamp() FROM generate_series(1, 20000)"
read -r past ahead_left <<<"$(psql_ -F ' ' -c "SELECT (SELECT min(id) FROM made WHERE run = 'handover-b') > (SELECT max(id) FROM made WHERE run = 'handover-a'),
    round(extract(epoch FROM (SELECT uid8_timestamp(max(id)) FROM made WHERE run = 'handover-a') - (SELECT min(made_at) FROM made WHERE run = 'handover-b')) * 1000)")"
echo "  the first session's last ID lay $ahead_left ms past the clock at the second's first"
check "the new holder's IDs all lie past the old holder's, which lay ahead of its clock" "[ $past = t ] && [ $ahead_left -gt 0 ]"

echo "uid8 run-ahead: kill -9 of the postmaster right after a burst 1.9 s ahead"
session restart-before -c "SELECT burst('1900 ms', 0)"
cluster_kill9 "$dir" >/dev/null
# Started with the clock 30 s back, so the IDs before the kill still lie ahead of it (a start takes
# seconds here): the mark on disk alone keeps the IDs after it past them.
echo "-30" >"$offset"
start
session restart-after -c "INSERT INTO made (id, made_at) SELECT uid8_new('time_sequential'), clock_timestamp() FROM generate_series(1, 20000)"
read -r past ahead_left <<<"$(psql_ -F ' ' -c "SELECT (SELECT min(uid8_timestamp(id)) FROM made WHERE run = 'restart-after') > (SELECT max(uid8_timestamp(id)) FROM made WHERE run <> 'restart-after'),
    round(extract(epoch FROM (SELECT max(uid8_timestamp(id)) FROM made WHERE run = 'restart-before') - (SELECT min(made_at) FROM made WHERE run = 'restart-after')) * 1000)")"
# Restarted again at the real clock: a server started with its clock behind the library's install (here
# within 30 s) keeps the run-ahead off, as a library installed after the start would.
echo "+0" >"$offset"
cluster_stop "$dir"
start
echo "  the last ID before the kill lay $ahead_left ms past the clock of the first ID after the restart"
check "every ID after the restart lies past every ID before it, which lay ahead of its clock" "[ $past = t ] && [ $ahead_left -gt 0 ]"

echo "uid8 run-ahead: the clock set back an hour under a session 1.9 s ahead"
# shellcheck disable=SC2016 # \! runs the step inside the session
session step -c "SELECT burst('1900 ms', 0)" -c "\\! sh -c 'echo -3600 > $offset; sleep 2.5'" \
    -c "INSERT INTO made (id, made_at) SELECT uid8_new('time_sequential'), clock_timestamp() FROM generate_series(1, 100000)"
echo "+0" >"$offset"
sleep 2.5
read -r ids distinct _ disorder <<<"$(report step)"
# The IDs made after the step: their clock reads half an hour or more before the first ID's.
read -r stepped behind <<<"$(psql_ -F ' ' -c "SELECT count(*), round(extract(epoch FROM min(uid8_timestamp(id) - made_at)))
    FROM made WHERE run = 'step' AND made_at < (SELECT made_at FROM made WHERE run = 'step' ORDER BY n LIMIT 1) - interval '30 min'")"
echo "  $ids IDs, $distinct distinct, $disorder out of order; $stepped made after the step, each at least $behind s past its clock"
check "the session went on past its last ID, no value twice" "[ $distinct -eq $ids ] && [ $disorder -eq 0 ] && [ $stepped -gt 0 ] && [ $behind -ge 3599 ]"

echo "uid8 run-ahead: the library renamed over itself under the running server"
library="$("$PG_CONFIG" --pkglibdir)/comb_ext.so"
logged_before=$(grep -c "uid8_new waits for the clock in this backend instead of running ahead of it" "$dir/server.log" || true)
cp -p "$library" "$library.uid8_run_ahead" && mv -f "$library.uid8_run_ahead" "$library"
session renamed -c "INSERT INTO made (id, made_at) SELECT uid8_new('time_sequential'), clock_timestamp() FROM generate_series(1, 100000)"
read -r ids distinct ahead _ <<<"$(report renamed)"
logged=$(($(grep -c "uid8_new waits for the clock in this backend instead of running ahead of it" "$dir/server.log" || true) - logged_before))
echo "  a new backend: $ids IDs, at most $ahead ms past the clock; $logged LOG lines saying why"
check "no ID past the clock, and the LOG says why" "awk 'BEGIN { exit !($ahead <= 0) }' && [ $logged -ge 1 ]"
cluster_stop "$dir"
start
session restarted -c "SELECT burst('500 ms', 0)"
read -r ids distinct ahead _ <<<"$(report restarted)"
echo "  after a restart: $ids IDs, at most $ahead ms past the clock"
check "it runs ahead again" "awk 'BEGIN { exit !($ahead >= 500) }'"

read -r ids distinct <<<"$(psql_ -F ' ' -c "SELECT count(*), count(DISTINCT id) FROM made")"
echo "uid8 run-ahead: $ids IDs over every run, $distinct distinct"
check "no value twice" "[ $distinct -eq $ids ]"
[ $failed -eq 0 ] || { echo "uid8 run-ahead: FAILED" >&2; exit 1; }
echo "uid8 run-ahead: passed"
