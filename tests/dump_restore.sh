#!/usr/bin/env bash
# pg_dump / pg_restore round trip of tables using every type, enum and operator class of the
# extension (an index with uuid_sqlserver_ops included), and of tables comb_ext_adopt brought over, checked row for
# row (their defaults and the detached sequence too), with every restored btree index verified by amcheck against
# its operator class; the adopted tables then make new ids.
#   bash tests/dump_restore.sh CLUSTER_DIR PORT     (a running cluster with comb_ext installed)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
DIR=$1
PORT=$2
DUMP="$DIR/regress_dump.custom"
sql() { local db=$1; shift; cluster_psql "$DIR" "$PORT" -d "$db" -qAt "$@"; }

sql postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS regress_dump" -c "DROP DATABASE IF EXISTS regress_restored" \
    -c "CREATE DATABASE regress_dump" -c "CREATE DATABASE regress_restored"
sql regress_dump <<'SQL'
CREATE EXTENSION comb_ext;
CREATE TABLE every_type (
    n        int PRIMARY KEY,
    comb     uuid NOT NULL DEFAULT comb_uuid(),
    comb_ss  uuid NOT NULL DEFAULT comb_uuid('sqlserver'),
    format   comb_format NOT NULL,
    s        sno NOT NULL DEFAULT sno_new(),
    m        uuid NOT NULL DEFAULT muid_new(),
    u        bigint NOT NULL DEFAULT uid8_new('time_sequential'),
    mode     uid8_mode NOT NULL
);
CREATE UNIQUE INDEX every_type_comb_ss ON every_type (comb_ss uuid_sqlserver_ops);
CREATE UNIQUE INDEX every_type_s ON every_type (s);
CREATE INDEX every_type_s_hash ON every_type USING hash (s);
CREATE UNIQUE INDEX every_type_u ON every_type (u);
-- Built again by pg_restore with an empty search_path: uid8_mode must not find its type by name.
CREATE INDEX every_type_u_mode ON every_type (uid8_mode(u));
INSERT INTO every_type (n, format, mode)
SELECT n, (enum_range(NULL::comb_format))[n % 7 + 1], (enum_range(NULL::uid8_mode))[n % 2 + 1]
FROM generate_series(1, 20000) n;
INSERT INTO every_type (n, comb, format, s, mode)
SELECT 20000 + n, comb_uuid(f), f, sno_from_parts('2030-01-01'::timestamptz + n * interval '1 second', n % 256, n, n), 'spread'
FROM generate_series(1, 7) n, LATERAL (SELECT (enum_range(NULL::comb_format))[n] AS f) x;
CREATE TABLE sno_parted (id sno PRIMARY KEY, n int) PARTITION BY HASH (id);
CREATE TABLE sno_parted_0 PARTITION OF sno_parted FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE sno_parted_1 PARTITION OF sno_parted FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE sno_parted_2 PARTITION OF sno_parted FOR VALUES WITH (MODULUS 3, REMAINDER 2);
INSERT INTO sno_parted SELECT s, n FROM every_type;
-- Tables brought over by comb_ext_adopt (docs/adopting.md): old and new ids, the detached sequence.
CREATE TABLE adopted_serial (id bigserial PRIMARY KEY, n int);
INSERT INTO adopted_serial (n) SELECT n FROM generate_series(1, 100) n;
SELECT changed FROM comb_ext_adopt('adopted_serial', 'id', 'uid8') \g /dev/null
INSERT INTO adopted_serial (n) SELECT n FROM generate_series(101, 200) n;
CREATE TABLE adopted_uuid (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int);
INSERT INTO adopted_uuid (n) SELECT n FROM generate_series(1, 100) n;
SELECT changed FROM comb_ext_adopt('adopted_uuid', 'id', 'uuidv7') \g /dev/null
INSERT INTO adopted_uuid (n) SELECT n FROM generate_series(101, 200) n;
SQL

as_postgres "$PGBIN/pg_dump" -h "$DIR" -p "$PORT" -U postgres -Fc -f "$DUMP" regress_dump
as_postgres "$PGBIN/pg_restore" -h "$DIR" -p "$PORT" -U postgres --exit-on-error -d regress_restored "$DUMP"

# Row for row, in text form, ordered by the key; partitions each in their own order.
dump_rows() {
    sql "$1" -c "COPY (SELECT * FROM every_type ORDER BY n) TO STDOUT" \
        -c "COPY (SELECT tableoid::regclass, * FROM sno_parted ORDER BY n) TO STDOUT" \
        -c "COPY (SELECT * FROM adopted_serial ORDER BY n) TO STDOUT" -c "COPY (SELECT * FROM adopted_uuid ORDER BY n) TO STDOUT" \
        -c "SELECT c.relname, pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d JOIN pg_class c ON c.oid = d.adrelid
            WHERE c.relname LIKE 'adopted%' ORDER BY 1" \
        -c "SELECT pg_get_serial_sequence('adopted_serial', 'id') IS NULL, last_value FROM adopted_serial_id_seq"
}
before=$(dump_rows regress_dump)
after=$(dump_rows regress_restored)
if [ "$before" != "$after" ]; then
    diff <(echo "$before") <(echo "$after") | head -20
    echo "dump/restore: restored rows differ" >&2
    exit 1
fi
rows=$(echo "$after" | wc -l)

# Every restored btree index agrees with its operator class (amcheck), and the uuid_sqlserver_ops
# index still serves its order.
checked=$(sql regress_restored <<'SQL'
CREATE EXTENSION amcheck;
SELECT count(bt_index_check(c.oid, true))
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
WHERE a.amname = 'btree' AND c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace;
SQL
)
plan=$(sql regress_restored -c "SET enable_seqscan = off" -c "EXPLAIN (COSTS OFF) SELECT comb_ss FROM every_type ORDER BY comb_ss USING #<#")
case "$plan" in
    *every_type_comb_ss*) ;;
    *) echo "dump/restore: the uuid_sqlserver_ops index does not serve its order: $plan" >&2; exit 1 ;;
esac
# The adopted tables' defaults survived (compared above) and still make their ids in the restored database.
adopted=$(sql regress_restored -c "INSERT INTO adopted_serial (n) VALUES (201) RETURNING uid8_mode(id) = 'time_sequential' AND id > (SELECT max(id) FROM adopted_serial WHERE n <= 100)" \
    -c "INSERT INTO adopted_uuid (n) VALUES (201) RETURNING get_byte(uuid_send(id), 6) >> 4 = 7" | tr '\n' ' ')
[ "$adopted" = "t t " ] || { echo "dump/restore: an adopted table's default did not make its id after the restore ($adopted)" >&2; exit 1; }
sql postgres -c "DROP DATABASE regress_dump" -c "DROP DATABASE regress_restored"
rm -f "$DUMP"
echo "dump/restore: $rows rows identical after pg_restore, the adopted tables' defaults and detached sequence with them; $checked btree indexes pass amcheck; the adopted tables make new ids"
