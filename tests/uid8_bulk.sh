#!/usr/bin/env bash
# uid8_new('time_sequential') at bulk speed from real sessions: 8 pgbench sessions on one server,
# each making IDs as fast as it can (so each fills milliseconds and claims more generator ids).
# The rows record the backend's pid and an identity column, which numbers each session's rows in
# the order it made them. No value may appear twice, each session's values must strictly increase,
# and no session may hold more than comb_ext.uid8_generators_per_session ids in a transaction (at
# least one must have claimed a second, or the test did not test the claims; at each transaction's
# end a session lets go of all but one). Then one session alone makes 10 transactions of PER_STATEMENT ids: in
# each after the first, the first full millisecond claims back at once the ids the last one ended with, so
# all LIMIT are in use two milliseconds after it at the latest (the next one when the clock has not moved on
# meanwhile; before 0.6.0, one more id a millisecond: three after it at the earliest). Alone, as ids another
# session ran ahead on are usable only past its last millisecond.
#   bash tests/uid8_bulk.sh [work dir]      (expects comb_ext installed; port COMB_EXT_TEST_PORT + 6, default 54336)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=${1:-/tmp/comb_ext_uid8_bulk}
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 6))
SESSIONS=8
PER_SESSION=${COMB_EXT_UID8_BULK_PER_SESSION:-50000}
PER_STATEMENT=5000
LIMIT=4
mkdir -p "$WORK"
chown postgres:postgres "$WORK"
dir="$WORK/cluster"
cluster_stop "$dir"
rm -rf "$dir"
trap 'cluster_stop "$dir"' EXIT
# A low limit, so that the sessions reach it and go on waiting there.
cluster_start "$dir" "$PORT" "comb_ext.uid8_generators_per_session = $LIMIT" "max_connections = 20" >/dev/null
cluster_psql "$dir" "$PORT" -d postgres -qAt -c "CREATE EXTENSION comb_ext" \
    -c "CREATE UNLOGGED TABLE drawn (n bigint GENERATED ALWAYS AS IDENTITY, pid int, xact bigint, id bigint)"

script="$WORK/insert.sql"
echo "INSERT INTO drawn (pid, xact, id) SELECT pg_backend_pid(), txid_current(), uid8_new('time_sequential') FROM generate_series(1, $PER_STATEMENT);" > "$script"
chmod 644 "$script"
started=$(date +%s.%N)
as_postgres "$PGBIN/pgbench" -h "$dir" -p "$PORT" -U postgres -n -c $SESSIONS -j 2 -t $((PER_SESSION / PER_STATEMENT)) \
    -f "$script" postgres >/dev/null
seconds=$(echo "$(date +%s.%N) - $started" | bc)

read -r made distinct sessions out_of_order most_ids most_per_ms <<<"$(cluster_psql "$dir" "$PORT" -d postgres -qAt -F ' ' <<'SQL'
SELECT (SELECT count(*) FROM drawn),
       (SELECT count(DISTINCT id) FROM drawn),
       (SELECT count(DISTINCT pid) FROM drawn),
       (SELECT count(*) FILTER (WHERE id <= previous)
        FROM (SELECT id, lag(id) OVER (PARTITION BY pid ORDER BY n) AS previous FROM drawn) s),
       (SELECT max(c) FROM (SELECT count(DISTINCT uid8_generator(id)) AS c FROM drawn GROUP BY pid, xact) s),
       (SELECT max(c) FROM (SELECT count(*) AS c FROM drawn GROUP BY pid, uid8_timestamp(id)) s);
SQL
)"
# One session alone, 10 transactions.
transactions=()
for _ in $(seq 10); do transactions+=(-c "$(cat "$script")"); done
cluster_psql "$dir" "$PORT" -d postgres -qAt -c "TRUNCATE drawn" "${transactions[@]}"
read -r later_xacts slow_claim_back <<<"$(cluster_psql "$dir" "$PORT" -d postgres -qAt -F ' ' <<SQL
SELECT count(*), count(*) FILTER (WHERE coalesce(all_in_use, 99) > first_full + 2)
FROM (SELECT xact, min(ms_rank) FILTER (WHERE made = 64 * generators) AS first_full,
             min(ms_rank) FILTER (WHERE generators = $LIMIT) AS all_in_use
      FROM (SELECT xact, ms_rank, count(DISTINCT uid8_generator(id)) AS generators, count(*) AS made
            FROM (SELECT xact, id, dense_rank() OVER (PARTITION BY xact ORDER BY uid8_timestamp(id)) AS ms_rank,
                         dense_rank() OVER (ORDER BY xact) AS xact_rank FROM drawn) r
            WHERE xact_rank > 1 GROUP BY xact, ms_rank) m
      GROUP BY xact) s
WHERE first_full IS NOT NULL;
SQL
)"
expected=$((SESSIONS * PER_SESSION))
echo "uid8 bulk: $SESSIONS sessions x $PER_SESSION = $made values (expected $expected) in $seconds s, $((made - distinct)) duplicated,"
echo "  $out_of_order out of order within a session, at most $most_ids generator ids in a transaction (limit $LIMIT) and $most_per_ms values in one ms per session,"
echo "  one session alone: $slow_claim_back of $later_xacts later transactions with a full millisecond without all $LIMIT generator ids in use two milliseconds after it"
[ "$made" -eq "$expected" ] && [ "$distinct" -eq "$made" ] && [ "$sessions" -eq "$SESSIONS" ] &&
    [ "$out_of_order" -eq 0 ] && [ "$most_ids" -ge 2 ] && [ "$most_ids" -le "$LIMIT" ] && [ "$most_per_ms" -le $((LIMIT * 64)) ] &&
    [ "$later_xacts" -ge 5 ] && [ "$slow_claim_back" -eq 0 ] ||
    { echo "uid8 bulk: FAILED" >&2; exit 1; }
