#!/usr/bin/env bash
# uid8 generator ids cannot be hoarded: 200 sessions each make a bulk of uid8_new (claiming extra
# ids while it runs) and then stay connected, idle, as a connection pool keeps them. Each holds one
# id afterwards, not up to comb_ext.uid8_generators_per_session (16, which would be 3,200 ids: all
# 2,048 of the cluster id), and a new session's first uid8_new succeeds. The ids are server-wide,
# so the new session is in another database, as another role.
#   bash tests/uid8_hoarding.sh WORK_DIR    (expects comb_ext installed; port COMB_EXT_TEST_PORT + 22, default 54352)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
DIR=$1
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 22))
SESSIONS=200
harness_cluster "$DIR" "$PORT" "max_connections = 230"
sql() { local db=$1; shift; cluster_psql "$DIR" "$PORT" -d "$db" -qAt "$@"; }
sql postgres -c "CREATE DATABASE hoarder" -c "CREATE DATABASE newcomer" -c "CREATE ROLE newcomer LOGIN"
sql hoarder -c "CREATE EXTENSION comb_ext" -c "CREATE EXTENSION dblink"
sql newcomer -c "CREATE EXTENSION comb_ext"

# One driver session opens the 200 sessions through dblink and keeps them open (idle) until it
# ends. Each makes 30,000 ids in one transaction (about 30 ms: it fills milliseconds, so claims
# more ids), reports how many it held inside the transaction and how many after it.
coproc DRIVER { sql hoarder 2>&1; }
# bash unsets DRIVER_PID once the coprocess has ended, which it may have by the wait below.
driver_pid=$DRIVER_PID
cat >&"${DRIVER[1]}" <<SQL
CREATE TEMP TABLE held (session int, during int, after int);
DO \$\$
DECLARE
    conninfo text := format('dbname=hoarder host=%s port=%s user=postgres', current_setting('unix_socket_directories'), current_setting('port'));
    held_by_me text := \$q\$SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = 0 AND objsubid = 8 AND pid = pg_backend_pid()\$q\$;
    s int;
    during int;
    after int;
BEGIN
    FOR s IN 1..$SESSIONS LOOP
        PERFORM dblink_connect('s' || s, conninfo);
        SELECT n INTO during FROM dblink('s' || s, 'BEGIN; SELECT count(uid8_new(''time_sequential'')) FROM generate_series(1, 30000); ' || held_by_me) AS t(n int);
        PERFORM dblink_exec('s' || s, 'COMMIT');
        SELECT n INTO after FROM dblink('s' || s, held_by_me) AS t(n int);
        INSERT INTO held VALUES (s, during, after);
    END LOOP;
END \$\$;
SELECT 'report', count(*), max(during), count(*) FILTER (WHERE during > 1), max(after),
       (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = 0 AND objsubid = 8)
FROM held;
SQL
report=""
while read -r line <&"${DRIVER[0]}"; do
    case $line in report*) report=$line; break ;; *ERROR*) echo "$line" >&2; break ;; esac
done
IFS='|' read -r _ sessions most_during sessions_past_one most_after held_now <<<"$report"
# The newcomer, in its own database and as its own role, while the 200 stay connected.
newcomer=$(cluster_psql "$DIR" "$PORT" -d newcomer -U newcomer -qAt -v ON_ERROR_STOP=0 -c "SELECT uid8_new() IS NOT NULL" 2>&1 || true)
echo "uid8 hoarding: $sessions idle sessions after a bulk of 30,000 each: up to $most_during ids held during it ($sessions_past_one sessions past one), at most $most_after each after it, $held_now held in all; a new session in another database: $newcomer"
exec {DRIVER[1]}>&-
wait "$driver_pid" 2>/dev/null || true
[ "$sessions" = "$SESSIONS" ] && [ "$sessions_past_one" -gt 0 ] && [ "$most_after" = 1 ] &&
    [ "$held_now" -le "$SESSIONS" ] && [ "$newcomer" = t ] || { echo "uid8 hoarding: FAILED" >&2; exit 1; }
echo "uid8 hoarding: passed"
