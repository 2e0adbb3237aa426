#!/usr/bin/env bash
# Command one: install what is missing, build and install comb_ext into the local PostgreSQL 15,
# start a throwaway cluster of its own, create the extension and show it working.
# Safe to run again: it reuses the cluster and rebuilds the demo table.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

DEMO_DIR=${COMB_EXT_DEMO_DIR:-/tmp/comb_ext_demo}
DEMO_PORT=${COMB_EXT_DEMO_PORT:-54329}

bash "$REPO/scripts/setup.sh"

say "building and installing comb_ext (release) into $($PG_CONFIG --pkglibdir)"
bash "$REPO/scripts/install.sh" --release --pg-config "$PG_CONFIG"

say "starting a throwaway cluster in $DEMO_DIR (Unix socket only, port $DEMO_PORT)"
cluster_start "$DEMO_DIR" "$DEMO_PORT"

say "demo, in a database of its own (comb_ext_demo, made afresh each run)"
cluster_psql "$DEMO_DIR" "$DEMO_PORT" -d postgres -q \
    -c "DROP DATABASE IF EXISTS comb_ext_demo WITH (FORCE)" -c "CREATE DATABASE comb_ext_demo"
cluster_psql "$DEMO_DIR" "$DEMO_PORT" -d comb_ext_demo -e <<'SQL'
CREATE EXTENSION comb_ext;
CREATE TABLE orders (
    id      uuid PRIMARY KEY DEFAULT comb_uuid(),
    item    text NOT NULL
);
INSERT INTO orders (item) VALUES ('tea');
SELECT pg_sleep(0.01);
INSERT INTO orders (item) VALUES ('coffee'), ('cake');
SELECT id, item, comb_timestamp(id) AS inserted_at FROM orders ORDER BY id;
SELECT comb_uuid('sqlserver') AS sqlserver_comb,
       comb_timestamp(comb_uuid('legacy'), 'legacy') AS legacy_time;
CREATE TABLE events (
    id      sno PRIMARY KEY DEFAULT sno_new(),
    what    text NOT NULL
);
INSERT INTO events (what) VALUES ('signup'), ('login');
INSERT INTO events (id, what) VALUES (sno_new(7), 'payment');
SELECT id, what, sno_time(id), sno_meta(id) AS meta, sno_partition(id) AS partition,
       sno_sequence(id) AS seq, pg_column_size(id) AS bytes
FROM events ORDER BY id;
SQL

cat <<MSG

comb_ext is installed and the demo cluster is running.
  connect:  psql -h $DEMO_DIR -p $DEMO_PORT -U postgres comb_ext_demo
  stop:     sudo -u postgres $PGBIN/pg_ctl -D $DEMO_DIR -m fast stop
  remove:   rm -rf $DEMO_DIR   (after stopping)
MSG
