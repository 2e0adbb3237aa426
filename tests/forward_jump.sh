#!/usr/bin/env bash
# The clock jumps two days ahead under a running server and comes back (libfaketime, as in
# tests/clock_step.sh). What happens, as "Marks on disk" in docs/guarantees.md says:
# - while it runs, nothing repeats: muid_new goes on from the values made ahead (ahead of the
#   clock), sno_new toggles its tick-tock bit and goes on at the clock, and uid8_new goes on from
#   them on a generator id that made them, at the clock on another;
# - after a restart every generator's mark lies more than a day past the clock, so each refuses with
#   XX001 naming its file, issuing nothing, and comb_ext_marks() shows each mark and why (a jump of
#   less than a day resumes: muid and uid8 then run ahead of the clock until it catches up);
# - the documented recovery (stop, remove the marks when no stored value lies past the clock, start)
#   brings every generator back at the clock.
#   bash tests/forward_jump.sh WORK_DIR    (expects comb_ext installed; port COMB_EXT_TEST_PORT + 24, default 54354)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=$1
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 24))
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
cluster_psql "$dir" "$PORT" -d postgres -qAt -c "CREATE EXTENSION comb_ext" \
    -c "CREATE TABLE made (family text, id text, at timestamptz, made_at timestamptz)"
cluster_stop "$dir"
cluster_start_faketime "$dir" "$PORT" "$offset"
sql() { cluster_psql "$dir" "$PORT" -d postgres -qAt "$@"; }
step() { faketime_step "$offset" "$1"; }
generate() {
    sql -c "INSERT INTO made SELECT 'sno', s::text, sno_time(s), clock_timestamp() FROM (SELECT sno_new() AS s FROM generate_series(1, 20000)) x" \
        -c "INSERT INTO made SELECT 'muid', m::text, muid_timestamp(m), clock_timestamp() FROM (SELECT muid_new() AS m FROM generate_series(1, 20000)) x" \
        -c "INSERT INTO made SELECT 'uid8', u::text, uid8_timestamp(u), clock_timestamp() FROM (SELECT uid8_new('time_sequential') AS u FROM generate_series(1, 20000)) x"
}
# How far ahead of the (faked) clock at generation the values of each family are, in hours.
ahead() {
    sql -F ' ' -c "SELECT family, round((extract(epoch FROM max(at - made_at)) / 3600)::numeric, 1) FROM made WHERE true $1 GROUP BY 1 ORDER BY 1" | tr '\n' ' '
}
failures=0
step "+172800"
generate
echo "forward jump: clock $(sql -c "SELECT to_char(clock_timestamp(), 'YYYY-MM-DD HH24:MI')") (two days ahead): 20,000 of each made"
step "+0"
started=$(sql -c "SELECT clock_timestamp()")
generate
echo "forward jump: clock $(sql -c "SELECT to_char(clock_timestamp(), 'YYYY-MM-DD HH24:MI')") (back): 20,000 more of each; hours ahead of the clock: $(ahead "AND made_at BETWEEN '$started' AND '$started'::timestamptz + interval '1 hour'")"
read -r repeated made <<<"$(sql -F ' ' -c "SELECT count(*) - count(DISTINCT (family, id)), count(*) FROM made")"
echo "forward jump: $made values, $repeated repeated"
[ "$repeated" = 0 ] && [ "$made" = 120000 ] || { echo "forward jump: values repeated or missing" >&2; failures=$((failures + 1)); }
# muid went on from the values made ahead; sno went on at the clock in its other tick.
sql -c "SELECT bool_and(at > made_at + interval '47 hours') FROM made WHERE family = 'muid' AND made_at BETWEEN '$started' AND '$started'::timestamptz + interval '1 hour'" | grep -qx t ||
    { echo "forward jump: muid did not go on from the values made ahead" >&2; failures=$((failures + 1)); }
sql -c "SELECT bool_and(abs(extract(epoch FROM at - made_at)) < 60) FROM made WHERE family = 'sno' AND made_at BETWEEN '$started' AND '$started'::timestamptz + interval '1 hour'" | grep -qx t ||
    { echo "forward jump: sno did not go on at the clock" >&2; failures=$((failures + 1)); }

# A restart: the marks are more than a day past the clock.
as_postgres "$PGBIN/pg_ctl" -D "$dir" -m fast -w stop >/dev/null
cluster_start_faketime "$dir" "$PORT" "$offset"
for call in "sno_new()" "muid_new()" "uid8_new()"; do
    out=$(sql -v ON_ERROR_STOP=0 -v VERBOSITY=verbose -c "SELECT $call" 2>&1 || true)
    line=$(grep -m1 -o 'ERROR:  XX001: .*' <<<"$out" | cut -c1-150 || true)
    echo "forward jump: after a restart, $call: ${line:-$out}"
    [ -n "$line" ] || failures=$((failures + 1))
done
# comb_ext_marks() shows them next to the clock, and why each is refused (sno's reservation went
# on at the clock in its other tick; its highest unit before the step back is the one ahead).
marks=$(sql -F ' ' -c "SELECT family, round((extract(epoch FROM ahead) / 3600)::numeric, 1), problem IS NOT NULL FROM comb_ext_marks() ORDER BY family" | tr '\n' ' ')
echo "forward jump: comb_ext_marks() after the restart (family, hours ahead, refused): $marks"
[ "$(sql -c "SELECT count(*) FILTER (WHERE problem LIKE '%at most a day past the clock%'), count(*) FILTER (WHERE family <> 'sno' AND ahead > interval '47 hours') FROM comb_ext_marks()")" = "3|2" ] ||
    { echo "forward jump: comb_ext_marks() does not show the marks ahead and refused" >&2; failures=$((failures + 1)); }
# The recovery: no stored value lies past the clock here except the ones made ahead, which this
# test keeps nowhere else; so the marks go, and the generators start from the clock.
as_postgres "$PGBIN/pg_ctl" -D "$dir" -m fast -w stop >/dev/null
rm -f "$dir"/comb_ext/sno.mark "$dir"/comb_ext/muid.mark "$dir"/comb_ext/uid8.mark
cluster_start_faketime "$dir" "$PORT" "$offset"
sql -c "DELETE FROM made" >/dev/null
generate
echo "forward jump: after removing the marks, hours ahead of the clock: $(ahead "")"
sql -c "SELECT bool_and(abs(extract(epoch FROM at - made_at)) < 60) FROM made" | grep -qx t ||
    { echo "forward jump: generators did not come back to the clock" >&2; failures=$((failures + 1)); }
as_postgres "$PGBIN/pg_ctl" -D "$dir" -m fast -w stop >/dev/null
[ "$failures" -eq 0 ] || { echo "forward jump: $failures failures" >&2; exit 1; }
echo "forward jump: passed"
