#!/usr/bin/env bash
# sqlsmith (random SQL over everything in the catalog, the extension's functions, operators and
# types included) against a database with comb_ext and a table holding every type and every enum
# label. Passes only when all of these hold:
#   - sqlsmith ran to the end and its own closing stats say it ran every query asked for;
#   - some queries succeeded, and they called comb_ext's functions (pg_stat_user_functions, with
#     track_functions = 'all'), so the run reached the extension and was not all errors;
#   - no backend crashed: sqlsmith saw no broken connection ("C" in its progress line), the server
#     log has no "terminated by signal/exception", and the postmaster kept its pid and start time.
#   bash tests/sqlsmith.sh WORK_DIR [queries (default 20000)] [seed (default 1)]
#   (expects comb_ext installed; port COMB_EXT_TEST_PORT + 42, default 54372; installs the Debian
#   package sqlsmith when missing)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
DIR=${1:?work dir}
QUERIES=${2:-20000}
SEED=${3:-1}
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 42))

command -v sqlsmith >/dev/null ||
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends sqlsmith >/dev/null ||
    { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends sqlsmith >/dev/null; }
cluster_stop "$DIR"
rm -rf "$DIR"
# Random queries can be slow or huge: cut them off; the run is about crashes, not answers.
cluster_start "$DIR" "$PORT" "statement_timeout = '1s'" "log_min_error_statement = 'panic'" "track_functions = 'all'"
trap 'cluster_stop "$DIR"' EXIT
sql() { cluster_psql "$DIR" "$PORT" -d postgres -qAt "$@"; }
# Every comb_format and uid8_mode label, whatever their number, so generated queries meet them all.
sql <<'SQL'
-- The setup is not under the 1 s cut-off: CREATE EXTENSION's generated overloads took longer on a loaded machine.
SET statement_timeout = 0;
CREATE EXTENSION comb_ext;
CREATE TABLE every_type AS
SELECT n, comb_uuid() AS comb, comb_uuid('sqlserver') AS comb_ss,
       formats[n % array_length(formats, 1) + 1] AS format, sno_new() AS s, muid_new() AS m,
       uid8_new() AS u, modes[n % array_length(modes, 1) + 1] AS mode,
       muid_text(muid_new()) AS muid_text, sno_new()::text AS sno_text
FROM generate_series(1, 2000) n,
     LATERAL (SELECT enum_range(NULL::comb_format) AS formats, enum_range(NULL::uid8_mode) AS modes) labels;
CREATE INDEX ON every_type (comb_ss uuid_sqlserver_ops);
CREATE INDEX ON every_type (s);
CREATE INDEX ON every_type USING hash (s);
ANALYZE every_type;
SQL
labels=$(sql -c "SELECT count(DISTINCT format) = array_length(enum_range(NULL::comb_format), 1)
                        AND count(DISTINCT mode) = array_length(enum_range(NULL::uid8_mode), 1) FROM every_type")
[ "$labels" = t ] || { echo "FAILED: every_type does not hold every enum label"; exit 1; }
# The calls made so far (the table above) are not the run's.
sql -c "SELECT pg_stat_reset()" >/dev/null
before=$(sql -c "SELECT pg_postmaster_start_time()")
postmaster=$(head -n1 "$DIR/postmaster.pid")

say "sqlsmith: $QUERIES queries, seed $SEED, port $PORT"
started=$(date +%s)
status=0
as_postgres sqlsmith --target="host=$DIR port=$PORT dbname=postgres user=postgres" \
    --max-queries="$QUERIES" --seed="$SEED" --exclude-catalog --verbose >"$DIR/sqlsmith.out" 2>&1 || status=$?
seconds=$(($(date +%s) - started))
# --verbose: progress lines of one character per query ('.' ran, 'e' an error, 'S' a syntax
# error, 't' timed out, 'C' the connection broke, i.e. a backend died), and "queries: N" in each stats report, the last
# one at exit.
progress=$(grep -E '^[.etSC]+$' "$DIR/sqlsmith.out" | tr -d '\n' || true)
ran=$(grep -oE '^queries: [0-9]+' "$DIR/sqlsmith.out" | tail -n1 | awk '{print $2}')
succeeded=$(tr -cd '.' <<<"$progress" | wc -c)
broken=$(tr -cd 'C' <<<"$progress" | wc -c)
sql -c "SELECT pg_stat_force_next_flush()" >/dev/null 2>&1 || true # 15+: the stats of this session only; the others' are flushed at exit
sleep 1
read -r functions calls <<<"$(sql -F ' ' -c "SELECT count(*), coalesce(sum(calls), 0) FROM pg_stat_user_functions f
    JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = f.funcid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'comb_ext'")"
after=$(sql -c "SELECT pg_postmaster_start_time()")
crashes=$(grep -cE "terminated by signal|terminated by exception" "$DIR/server.log" || true)
echo "sqlsmith: exit status $status, $ran of $QUERIES queries in $seconds s, $succeeded succeeded, $broken broken connections;" \
    "$functions comb_ext functions called $calls times; server crashes: $crashes;" \
    "postmaster pid $postmaster -> $(head -n1 "$DIR/postmaster.pid"), start time $([ "$before" = "$after" ] && echo unchanged || echo CHANGED)"
failed=0
[ "$status" -eq 0 ] || { echo "FAILED: sqlsmith exited with $status"; tail -n5 "$DIR/sqlsmith.out"; failed=1; }
[ "${ran:-0}" -eq "$QUERIES" ] || { echo "FAILED: sqlsmith ran ${ran:-no} queries, not $QUERIES"; failed=1; }
[ "$succeeded" -gt 0 ] || { echo "FAILED: no query succeeded"; failed=1; }
[ "$functions" -gt 0 ] && [ "$calls" -gt 0 ] || { echo "FAILED: the queries never called comb_ext"; failed=1; }
[ "$broken" -eq 0 ] && [ "$crashes" -eq 0 ] || { echo "FAILED: a backend crashed"; grep -E "terminated by" "$DIR/server.log" | head -n5; failed=1; }
[ "$before" = "$after" ] && [ "$postmaster" = "$(head -n1 "$DIR/postmaster.pid")" ] ||
    { echo "FAILED: the postmaster restarted"; failed=1; }
[ $failed -eq 0 ] && echo "sqlsmith: passed"
exit $failed
