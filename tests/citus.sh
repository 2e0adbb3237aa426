#!/usr/bin/env bash
# comb_ext on a real Citus cluster: a coordinator and two workers on Unix sockets, all with
# shared_preload_libraries = 'citus,comb_ext'. Every generator is the default of a distributed table's
# key (comb_uuid in each sortable format and uuidv7, sno_new, muid_new, uid8_new in both modes; comb_uuid
# and sno_new also of reference tables). 8 sessions on the coordinator and 2 on each worker (Citus syncs
# its metadata, so workers take distributed writes) insert at once through single-row INSERTs, multi-row
# INSERTs, COPY and INSERT ... SELECT (repartitioned: the defaults are evaluated on the workers). Every
# key is a primary key, so a value made twice anywhere in the cluster would fail its insert; and every
# row must arrive. Twice: with the default settings (each node derives its identity), then with
# explicit per-node settings set from the coordinator in one statement. Then the plans: colocated
# joins on sno keys, comb_in_range and sno_floor ranges as index scans on the shards, range-partitioned
# distributed tables pruned, and SQL Server order across shards with uuid_sqlserver_ops.
# Last, readers in id order through the coordinator (tests/watermark_harness.py --distributed): ids
# made on the coordinator, transactions across shards committed on the workers by two-phase commit,
# W taken on the coordinator: no committed row skipped, for each family; and the control, W taken on
# a worker (W is per node), which must skip rows.
#   bash tests/citus.sh [work dir] [harness seconds per family, default 10]
#                                   (PG_CONFIG of a 17 or 18 build with Citus installed, comb_ext
#                                    installed; ports COMB_EXT_TEST_PORT + 12, + 13, + 14; the venv
#                                    scripts/setup.sh makes, with psycopg)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=${1:-/tmp/comb_ext_citus}
WATERMARK_SECONDS=${2:-10}
# No psycopg is a failure, not a skip: the readers' property would go untested.
need_psycopg citus
BASE_PORT=$((${COMB_EXT_TEST_PORT:-54330} + 12))
COORDINATOR_SESSIONS=8
WORKER_SESSIONS=2
mkdir -p "$WORK"
chown postgres:postgres "$WORK"
nodes=(0 1 2)
node_dir() { echo "$WORK/node$1"; }
node_port() { echo $((BASE_PORT + $1)); }
on() { local n=$1; shift; cluster_psql "$(node_dir "$n")" "$(node_port "$n")" -d postgres "$@"; }
cleanup() { for n in "${nodes[@]}"; do cluster_stop "$(node_dir "$n")"; done; }
cleanup
trap cleanup EXIT
for n in "${nodes[@]}"; do
    rm -rf "$(node_dir "$n")"
    cluster_start "$(node_dir "$n")" "$(node_port "$n")" "shared_preload_libraries = 'citus,comb_ext'" \
        "max_connections = 200" "citus.shard_count = 4" "max_prepared_transactions = 100" >/dev/null
    on "$n" -qAt -c "CREATE EXTENSION citus"
done
on 0 -qAt -c "CREATE EXTENSION comb_ext" \
    -c "SELECT citus_set_coordinator_host('$(node_dir 0)', $(node_port 0))" \
    -c "SELECT citus_add_node('$(node_dir 1)', $(node_port 1))" \
    -c "SELECT citus_add_node('$(node_dir 2)', $(node_port 2))" >/dev/null
echo "Citus $(on 0 -qAt -c "SELECT extversion FROM pg_extension WHERE extname = 'citus'") on PostgreSQL $(on 0 -qAt -c "SHOW server_version"):" \
     "$(on 0 -qAt -c "SELECT count(*) FROM pg_dist_node") nodes, comb_ext" \
     "$(on 0 -qAt -c "SELECT string_agg(result, ' ') FROM run_command_on_all_nodes(\$\$SELECT extversion FROM pg_extension WHERE extname = 'comb_ext'\$\$)") on each"

# table|key type|default|kind
TABLES=("comb_postgresql|uuid|comb_uuid('postgresql')|distributed" "comb_sqlserver|uuid|comb_uuid('sqlserver')|distributed"
        "comb_legacy|uuid|comb_uuid('legacy')|distributed"
        "comb_postgresql_sqldatetime|uuid|comb_uuid('postgresql_sqldatetime')|distributed"
        "comb_ticks|uuid|comb_uuid('ticks')|distributed" "comb_uuidv7|uuid|comb_uuid('uuidv7')|distributed"
        "sno_keys|sno|sno_new()|distributed" "muid_keys|uuid|muid_new()|distributed"
        "uid8_spread|bigint|uid8_new('spread')|distributed" "uid8_time_sequential|bigint|uid8_new('time_sequential')|distributed"
        "ref_comb|uuid|comb_uuid()|reference" "ref_sno|sno|sno_new()|reference")
SINGLE=20 MULTI=10 MULTI_ROWS=10 COPY_ROWS=500 SELECT_ROWS=1000

{
    echo "CREATE TABLE src (k int); SELECT create_distributed_table('src', 'k');"
    echo "INSERT INTO src SELECT g FROM generate_series(1, $SELECT_ROWS) g;"
    for spec in "${TABLES[@]}"; do
        IFS='|' read -r table type default kind <<<"$spec"
        echo "CREATE TABLE $table (id $type PRIMARY KEY DEFAULT $default, via text NOT NULL);"
        if [ "$kind" = reference ]; then
            echo "SELECT create_reference_table('$table');"
        else
            echo "SELECT create_distributed_table('$table', 'id');"
        fi
    done
} | on 0 -qAt >/dev/null

# The statements one session runs against every table: single-row and multi-row INSERTs, a COPY, and
# (distributed tables) an INSERT ... SELECT from the distributed table src.
session_script() {
    local origin=$1 spec table kind i j
    for spec in "${TABLES[@]}"; do
        IFS='|' read -r table _ _ kind <<<"$spec"
        for i in $(seq 1 $SINGLE); do echo "INSERT INTO $table (via) VALUES ('$origin single');"; done
        for i in $(seq 1 $MULTI); do
            printf "INSERT INTO %s (via) VALUES " "$table"
            for j in $(seq 1 $MULTI_ROWS); do printf "('%s multi')%s" "$origin" "$([ "$j" -lt $MULTI_ROWS ] && echo , || echo ';')"; done
            echo
        done
        echo "COPY $table (via) FROM STDIN;"
        for i in $(seq 1 $COPY_ROWS); do echo "$origin copy"; done
        echo '\.'
        [ "$kind" = reference ] || echo "INSERT INTO $table (via) SELECT '$origin insert_select' FROM src;"
    done
}

status=0
# round LABEL: every session at once; then every table must hold exactly the rows inserted (a
# duplicate key would have failed an insert), with no error in any session.
round() {
    local label=$1 pids=() n s origin spec table kind
    rm -rf "$WORK/out"
    mkdir -p "$WORK/out"
    for n in "${nodes[@]}"; do
        local sessions=$WORKER_SESSIONS
        [ "$n" = 0 ] && sessions=$COORDINATOR_SESSIONS
        for s in $(seq 1 "$sessions"); do
            origin="node$n.$s"
            session_script "$origin" >"$WORK/out/$origin.sql"
            on "$n" -qAt -v ON_ERROR_STOP=0 -f "$WORK/out/$origin.sql" >/dev/null 2>"$WORK/out/$origin.err" &
            pids+=($!)
        done
    done
    for s in "${pids[@]}"; do wait "$s" || true; done
    local sessions_total=$((COORDINATOR_SESSIONS + 2 * WORKER_SESSIONS))
    local errors
    errors=$(cat "$WORK/out/"*.err | grep -c ERROR || true)
    echo "$label: $sessions_total sessions (coordinator $COORDINATOR_SESSIONS, each worker $WORKER_SESSIONS), errors $errors"
    [ "$errors" -eq 0 ] || { cat "$WORK/out/"*.err | grep ERROR | sort | uniq -c | head -5; status=1; }
    for spec in "${TABLES[@]}"; do
        IFS='|' read -r table _ _ kind <<<"$spec"
        local per_session=$((SINGLE + MULTI * MULTI_ROWS + COPY_ROWS))
        [ "$kind" = reference ] || per_session=$((per_session + SELECT_ROWS))
        local expected=$((sessions_total * per_session)) result
        result=$(on 0 -qAt -F ' ' -c "SELECT count(*), count(DISTINCT id) FROM $table")
        printf '  %-28s %-10s %s rows, %s distinct ids (expected %s)\n' "$table" "$kind" ${result% *} ${result#* } "$expected"
        [ "$result" = "$expected $expected" ] || { echo "FAILED: $table in $label"; status=1; }
    done
    # Where the values were made: identities per origin, for the families that carry one.
    echo "  sno partitions by where the insert ran: $(on 0 -qAt -F ' ' -c "
        SELECT string_agg(format('%s: %s', o, p), '; ' ORDER BY o) FROM (
            SELECT split_part(via, '.', 1) || CASE WHEN via LIKE '%insert_select' THEN ' insert_select' ELSE '' END AS o,
                   string_agg(DISTINCT sno_partition(id)::text, ',') AS p FROM sno_keys GROUP BY 1) x")"
    echo "  uid8 cluster ids by where the insert ran: $(on 0 -qAt -F ' ' -c "
        SELECT string_agg(format('%s: %s', o, p), '; ' ORDER BY o) FROM (
            SELECT split_part(via, '.', 1) || CASE WHEN via LIKE '%insert_select' THEN ' insert_select' ELSE '' END AS o,
                   string_agg(DISTINCT uid8_cluster(id)::text, ',') AS p FROM uid8_time_sequential GROUP BY 1) x")"
}

echo "each node's identity, in one statement from the coordinator:"
on 0 -qAt -F ' ' -c "SELECT nodeid, result FROM run_command_on_all_nodes(\$\$
    SELECT format('sno partition %s, muid medallion %s, uid8 cluster id %s',
                  sno_partition(sno_new()), muid_medallion(muid_new()), uid8_cluster(uid8_new()))\$\$) ORDER BY nodeid"
round "default settings"

# Explicit identities, one per node (from its Citus group id), each set from the coordinator in one
# statement: master_run_on_worker runs a different command on each node.
set_per_node() {
    on 0 -qAt -c "SELECT bool_and(success) FROM (
        SELECT array_agg(nodename) AS hosts, array_agg(nodeport) AS ports,
               array_agg(format('ALTER SYSTEM SET $1 = %s', $2 + groupid)) AS commands FROM pg_dist_node) nodes,
        master_run_on_worker(hosts, ports, commands, false)"
}
[ "$(set_per_node comb_ext.sno_partition 1000)$(set_per_node comb_ext.medallion 2000)$(set_per_node comb_ext.uid8_cluster_id 10)" = ttt ] ||
    { echo "FAILED: ALTER SYSTEM on every node"; status=1; }
on 0 -qAt -c "SELECT count(*) FROM run_command_on_all_nodes('SELECT pg_reload_conf()')" >/dev/null
sleep 1
echo "each node's identity after the explicit settings:"
on 0 -qAt -F ' ' -c "SELECT nodeid, result FROM run_command_on_all_nodes(\$\$
    SELECT format('sno partition %s, muid medallion %s, uid8 cluster id %s',
                  sno_partition(sno_new()), muid_medallion(muid_new()), uid8_cluster(uid8_new()))\$\$) ORDER BY nodeid"
for spec in "${TABLES[@]}"; do
    IFS='|' read -r table _ _ _ <<<"$spec"
    on 0 -qAt -c "TRUNCATE $table" >/dev/null
done
round "explicit per-node settings"
expected_partitions="node0: 1000; node0 insert_select: 1001,1002; node1: 1001; node1 insert_select: 1001,1002; node2: 1002; node2 insert_select: 1001,1002"
actual_partitions=$(on 0 -qAt -c "
    SELECT string_agg(format('%s: %s', o, p), '; ' ORDER BY o) FROM (
        SELECT split_part(via, '.', 1) || CASE WHEN via LIKE '%insert_select' THEN ' insert_select' ELSE '' END AS o,
               string_agg(DISTINCT sno_partition(id)::text, ',' ORDER BY sno_partition(id)::text) AS p FROM sno_keys GROUP BY 1) x")
[ "$actual_partitions" = "$expected_partitions" ] || { echo "FAILED: sno partitions by origin: $actual_partitions"; status=1; }

# The control: every node on uid8 cluster id 0 and generator id 5 (what nothing must configure), one
# session on each worker at once, into a table without a unique key: both make the same IDs. So the
# rounds above would have seen a value made twice across nodes.
on 0 -qAt -c "SELECT bool_and(success) FROM run_command_on_all_nodes('ALTER SYSTEM SET comb_ext.uid8_cluster_id = 0')" \
    -c "SELECT bool_and(success) FROM run_command_on_all_nodes('ALTER SYSTEM SET comb_ext.uid8_generator_id = 5')" \
    -c "SELECT bool_and(success) FROM run_command_on_all_nodes('SELECT pg_reload_conf()')" \
    -c "CREATE TABLE uid8_control (id bigint NOT NULL DEFAULT uid8_new('time_sequential'), via text)" \
    -c "SELECT create_distributed_table('uid8_control', 'id')" >/dev/null
sleep 1
for n in 1 2; do
    on "$n" -qAt -c "INSERT INTO uid8_control (via) SELECT 'control' FROM generate_series(1, 64000)" >/dev/null &
done
wait
control=$(on 0 -qAt -F ' ' -c "SELECT count(*), count(*) - count(DISTINCT id) FROM uid8_control")
echo "control, both workers on uid8 cluster id 0 and generator id 5: ${control% *} made, ${control#* } made twice"
[ "${control#* }" -gt 0 ] || { echo "FAILED: the control made no duplicate: the rounds could not have seen one"; status=1; }
on 0 -qAt -c "SELECT bool_and(success) FROM run_command_on_all_nodes('ALTER SYSTEM RESET ALL')" \
    -c "SELECT bool_and(success) FROM run_command_on_all_nodes('SELECT pg_reload_conf()')" >/dev/null

# Plans. check NAME CONDITION: CONDITION is a shell test on the variables set just before.
check() { if eval "$2"; then echo "  ok: $1"; else echo "  FAILED: $1"; status=1; fi; }
echo "plans on the distributed tables:"
on 0 -qAt >/dev/null <<'SQL'
CREATE TABLE orders (id sno PRIMARY KEY DEFAULT sno_new(), note text);
SELECT create_distributed_table('orders', 'id');
CREATE TABLE order_lines (order_id sno NOT NULL, line int NOT NULL, PRIMARY KEY (order_id, line));
SELECT create_distributed_table('order_lines', 'order_id', colocate_with => 'orders');
WITH o AS (INSERT INTO orders (note) SELECT 'n' FROM generate_series(1, 1000) RETURNING id)
INSERT INTO order_lines SELECT id, l FROM o, generate_series(1, 3) l;
CREATE UNIQUE INDEX comb_sqlserver_order ON comb_sqlserver (id uuid_sqlserver_ops);
CREATE TABLE events (id uuid NOT NULL DEFAULT comb_uuid(), note text) PARTITION BY RANGE (id);
CREATE TABLE events_d1 PARTITION OF events FOR VALUES FROM (comb_floor('2026-01-01')) TO (comb_floor('2026-01-02'));
CREATE TABLE events_d2 PARTITION OF events FOR VALUES FROM (comb_floor('2026-01-02')) TO (comb_floor('2026-01-03'));
CREATE TABLE events_d3 PARTITION OF events FOR VALUES FROM (comb_floor('2026-01-03')) TO (comb_floor('2026-01-04'));
SELECT create_distributed_table('events', 'id');
INSERT INTO events (id) SELECT comb_uuid(t) FROM generate_series('2026-01-01'::timestamptz, '2026-01-03 23:59', '1 min') t;
ANALYZE;
SQL
plan=$(on 0 -qAt -c "EXPLAIN (COSTS OFF) SELECT count(*) FROM orders o JOIN order_lines l ON l.order_id = o.id")
joined=$(on 0 -qAt -c "SELECT count(*) FROM orders o JOIN order_lines l ON l.order_id = o.id")
colocations=$(on 0 -qAt -c "SELECT count(DISTINCT colocationid) FROM pg_dist_partition WHERE logicalrelid IN ('orders'::regclass, 'order_lines'::regclass)")
check "sno-keyed tables colocated ($colocations colocation group), joined shard by shard on the workers ($joined rows)" \
    '[ "$colocations" = 1 ] && [ "$joined" = 3000 ] && grep -q "Task Count: 4" <<<"$plan" && grep -qE "(Hash|Merge) Join|Nested Loop" <<<"$plan" && ! grep -qi repartition <<<"$plan"'
# A 2 ms window in the middle of the data.
t=$(on 0 -qAt -c "SELECT comb_timestamp(id) FROM comb_postgresql ORDER BY id OFFSET 9000 LIMIT 1")
window="'$t'::timestamptz, '$t'::timestamptz + interval '2 ms'"
plan=$(on 0 -qAt -c "EXPLAIN (COSTS OFF) SELECT count(*) FROM comb_postgresql WHERE comb_in_range(id, $window)")
in_range=$(on 0 -qAt -c "SELECT count(*) FROM comb_postgresql WHERE comb_in_range(id, $window)")
row_by_row=$(on 0 -qAt -c "SELECT count(*) FROM comb_postgresql WHERE comb_timestamp(id) >= '$t' AND comb_timestamp(id) < '$t'::timestamptz + interval '2 ms'")
check "comb_in_range: an index scan on every shard ($in_range rows; $row_by_row row by row)" \
    '[ "$in_range" = "$row_by_row" ] && [ "$in_range" -gt 0 ] && grep -q "Index Only Scan using comb_postgresql_pkey" <<<"$plan" && grep -q "Index Cond: ((id >= comb_range_lower" <<<"$plan"'
plan=$(on 0 -qAt -c "EXPLAIN (COSTS OFF) SELECT count(*) FROM comb_sqlserver WHERE comb_in_range(id, $window, 'sqlserver')")
check "comb_in_range in SQL Server order: an index scan on every shard's uuid_sqlserver_ops index" \
    'grep -q "using comb_sqlserver_order" <<<"$plan" && grep -q "Index Cond: ((id #>=# comb_range_lower" <<<"$plan"'
plan=$(on 0 -qAt -c "EXPLAIN (COSTS OFF) SELECT count(*) FROM sno_keys WHERE id >= sno_floor('$t') AND id < sno_floor('$t'::timestamptz + interval '8 ms')")
check "sno_floor range: an index scan on every shard" \
    'grep -q "Index Cond: ((id >= " <<<"$plan" && grep -q "sno_keys_pkey" <<<"$plan"'
plan=$(on 0 -qAt -c "EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE comb_in_range(id, '2026-01-02', '2026-01-03')")
day=$(on 0 -qAt -c "SELECT count(*) FROM events WHERE comb_in_range(id, '2026-01-02', '2026-01-03')")
check "range-partitioned distributed table: one partition of three scanned ($day rows)" \
    '[ "$day" = 1440 ] && grep -q "events_d2_" <<<"$plan" && ! grep -qE "events_d[13]_" <<<"$plan"'
plan=$(on 0 -qAt -c "EXPLAIN (COSTS OFF) SELECT id FROM comb_sqlserver ORDER BY id USING #<# LIMIT 200")
same=$(on 0 -qAt -c "CREATE TEMP TABLE local_ids AS SELECT id FROM comb_sqlserver" -c "
    SELECT array(SELECT id FROM comb_sqlserver ORDER BY id USING #<# LIMIT 200)
         = array(SELECT id FROM local_ids ORDER BY id USING #<# LIMIT 200),
           (SELECT bool_and(t >= previous) FROM (SELECT comb_timestamp(id, 'sqlserver') AS t,
                lag(comb_timestamp(id, 'sqlserver'), 1, '-infinity') OVER (ORDER BY id USING #<#) AS previous
                FROM comb_sqlserver) x)")
check "ORDER BY id USING #<# across shards: each shard's index, merged on the coordinator, in time order ($same)" \
    '[ "$same" = "t|t" ] && grep -q "Sort Key: remote_scan.id USING #<#" <<<"$plan" && grep -q "Index Only Scan using comb_sqlserver_order" <<<"$plan"'

echo "comb_ext_adopt on a distributed table (docs/adopting.md#replicas-and-clusters):"
adopted=$(on 0 -qAt <<'SQL'
CREATE TABLE adopted (id bigserial PRIMARY KEY, note text);
SELECT create_distributed_table('adopted', 'id') \g /dev/null
INSERT INTO adopted (note) SELECT 'old' FROM generate_series(1, 100);
DO $$
DECLARE hint text;
BEGIN
    PERFORM comb_ext_adopt('adopted', 'id', 'uid8');
    RAISE EXCEPTION 'comb_ext_adopt did not refuse a distributed table';
EXCEPTION WHEN feature_not_supported THEN
    GET STACKED DIAGNOSTICS hint = PG_EXCEPTION_HINT;
    IF hint NOT LIKE '%undistribute_table(''public.adopted'')%create_distributed_table(''public.adopted'', ''id'')%' THEN
        RAISE EXCEPTION 'not the recipe: %', hint;
    END IF;
END $$;
-- The recipe of the hint.
SELECT undistribute_table('public.adopted') \g /dev/null
SELECT changed FROM comb_ext_adopt('public.adopted', 'id', 'uid8') \g /dev/null
SELECT create_distributed_table('public.adopted', 'id') \g /dev/null
INSERT INTO adopted (note) SELECT 'new' FROM generate_series(1, 100);
-- Read into the coordinator first: Citus pushes no subquery of a target list down.
WITH rows AS MATERIALIZED (SELECT id, note FROM adopted), old AS (SELECT max(id) AS top FROM rows WHERE note = 'old')
SELECT count(*) FILTER (WHERE note = 'new' AND uid8_mode(id) = 'time_sequential' AND id > old.top)
       || ' ' || count(*) - count(DISTINCT id)
       || ' ' || (SELECT count(*) FROM pg_dist_partition WHERE logicalrelid = 'adopted'::regclass)
FROM rows, old GROUP BY old.top;
SQL
)
check "refused (0A000) with the recipe in its hint; the recipe (undistribute_table, comb_ext_adopt, create_distributed_table) gives the new rows uid8 ids above the old ($adopted: new rows so made, ids twice, distributed again)" \
    '[ "$adopted" = "100 0 1" ]'
adopted=$(on 0 -qAt <<'SQL'
CREATE TABLE adopted_ref (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), note text);
SELECT create_reference_table('adopted_ref') \g /dev/null
INSERT INTO adopted_ref (note) SELECT 'old' FROM generate_series(1, 10);
DO $$
DECLARE hint text;
BEGIN
    PERFORM comb_ext_adopt('adopted_ref', 'id', 'uuidv7');
    RAISE EXCEPTION 'comb_ext_adopt did not refuse a reference table';
EXCEPTION WHEN feature_not_supported THEN
    GET STACKED DIAGNOSTICS hint = PG_EXCEPTION_HINT;
    IF hint NOT LIKE '%undistribute_table(''public.adopted_ref'')%create_reference_table(''public.adopted_ref'')%' THEN
        RAISE EXCEPTION 'not the recipe: %', hint;
    END IF;
END $$;
SELECT undistribute_table('public.adopted_ref') \g /dev/null
SELECT changed FROM comb_ext_adopt('public.adopted_ref', 'id', 'uuidv7') \g /dev/null
SELECT create_reference_table('public.adopted_ref') \g /dev/null
INSERT INTO adopted_ref (note) SELECT 'new' FROM generate_series(1, 10);
WITH rows AS MATERIALIZED (SELECT id, note FROM adopted_ref)
SELECT count(*) FILTER (WHERE note = 'new' AND comb_timestamp(id, 'uuidv7', false) IS NOT NULL)
       || ' ' || count(*) FILTER (WHERE note = 'old' AND comb_timestamp(id, 'uuidv7', false) IS NULL)
       || ' ' || (SELECT partmethod::text FROM pg_dist_partition WHERE logicalrelid = 'adopted_ref'::regclass)
FROM rows;
SQL
)
check "a reference table too: refused (0A000) with its recipe (undistribute_table, comb_ext_adopt, create_reference_table); then the new rows are version 7 and the old ones NULL under comb_timestamp(id, 'uuidv7', false) ($adopted: new v7, old NULL, partmethod)" \
    '[ "$adopted" = "10 10 n" ]'

echo "readers following ids in order through the coordinator ($WATERMARK_SECONDS s per family):"
dsn() { echo "host=$(node_dir "$1") port=$(node_port "$1") user=postgres dbname=postgres"; }
for family in comb sno muid uid8; do
    if "$PYTHON" "$REPO/tests/watermark_harness.py" --dsn "$(dsn 0)" --distributed --family "$family" \
        --seconds "$WATERMARK_SECONDS" | sed 's/^/    /'; then
        echo "  ok: $family: ids made on the coordinator, W from the coordinator, no committed row skipped"
    else
        echo "  FAILED: $family: a reader through the coordinator skipped rows or the run failed"
        status=1
    fi
done
if "$PYTHON" "$REPO/tests/watermark_harness.py" --dsn "$(dsn 0)" --distributed --family muid --seconds 5 \
    --bound-dsn "$(dsn 1)" --expect-skips | sed 's/^/    /'; then
    echo "  ok: the control, W taken on a worker: rows skipped (W is per node)"
else
    echo "  FAILED: the control, W taken on a worker, skipped nothing: the harness has not shown it can see a skip"
    status=1
fi

exit $status
