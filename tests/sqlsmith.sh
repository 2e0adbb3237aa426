#!/usr/bin/env bash
# sqlsmith (random SQL over everything in the catalog, the extension's functions, operators and
# types included) against a database with comb_ext and tables using every type. Passes when the
# server never crashed: same postmaster start time, and no "terminated by signal" in its log.
#   bash tests/sqlsmith.sh [queries (default 100000)] [seed]
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
QUERIES=${1:-100000}
SEED=${2:-1}
DIR=${COMB_EXT_SQLSMITH_DIR:-/tmp/comb_ext_sqlsmith}
PORT=${COMB_EXT_SQLSMITH_PORT:-54336}

command -v sqlsmith >/dev/null || apt-get install -y sqlsmith >/dev/null
cluster_stop "$DIR"
rm -rf "$DIR"
# Random queries can be slow or huge: cut them off; the run is about crashes, not answers.
cluster_start "$DIR" "$PORT" "statement_timeout = '1s'" "log_min_error_statement = 'panic'" >/dev/null
trap 'cluster_stop "$DIR"' EXIT
cluster_psql "$DIR" "$PORT" -d postgres -qAt <<'SQL'
CREATE EXTENSION comb_ext;
CREATE TABLE every_type AS
SELECT n, comb_uuid() AS comb, comb_uuid('sqlserver') AS comb_ss,
       (enum_range(NULL::comb_format))[n % 7 + 1] AS format, sno_new() AS s, muid_new() AS m,
       uid8_new() AS u, (enum_range(NULL::uid8_mode))[n % 2 + 1] AS mode,
       muid_text(muid_new()) AS muid_text, sno_new()::text AS sno_text
FROM generate_series(1, 2000) n;
CREATE INDEX ON every_type (comb_ss uuid_sqlserver_ops);
CREATE INDEX ON every_type (s);
CREATE INDEX ON every_type USING hash (s);
ANALYZE every_type;
SQL
started=$(cluster_psql "$DIR" "$PORT" -d postgres -qAt -c "SELECT pg_postmaster_start_time()")
say "sqlsmith: $QUERIES queries, seed $SEED"
as_postgres sqlsmith --target="host=$DIR port=$PORT dbname=postgres user=postgres" \
    --max-queries="$QUERIES" --seed="$SEED" --exclude-catalog > "$DIR/sqlsmith.out" 2>&1 || true
tail -5 "$DIR/sqlsmith.out" | tr -d '\r'
now=$(cluster_psql "$DIR" "$PORT" -d postgres -qAt -c "SELECT pg_postmaster_start_time()")
crashes=$(grep -c "terminated by signal\|was terminated by exception" "$DIR/server.log" || true)
echo "sqlsmith: $QUERIES queries, server crashes: $crashes, restarted: $([ "$started" = "$now" ] && echo no || echo yes)"
[ "$crashes" -eq 0 ] && [ "$started" = "$now" ]
