#!/usr/bin/env bash
# Hypertables keyed by the time inside an id with TimescaleDB (issue 33; docs/partitioning.md): builds
# TimescaleDB into the server (scripts/timescaledb.sh, cached), starts a cluster of its own with timescaledb and
# comb_ext preloaded and runs tests/timescaledb.py, which says what is checked. Skips, with one line saying why,
# when TimescaleDB cannot be had for this server (no pinned release for its major, or no pinned source in the
# Debian pool and none cached). The test command runs it on 17 (and on 15; 18 has no release in the pool).
#   bash tests/timescaledb.sh WORK_DIR   (PG_CONFIG of the server, comb_ext installed in it; port
#                                         COMB_EXT_TEST_PORT + 49, default 54379; psycopg in the venv scripts/setup.sh makes)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
DIR=${1:?usage: tests/timescaledb.sh WORK_DIR}
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 49))

need_psycopg "timescaledb"
major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
# PG_CONFIG is passed on explicitly: scripts/timescaledb.sh then installs into this server, whatever its major.
if ! reason=$(PG_CONFIG=$PG_CONFIG bash "$REPO/scripts/timescaledb.sh" available "$major" 2>&1); then
    echo "timescaledb: skipped on PostgreSQL $major: ${reason:-TimescaleDB is not available}"
    exit 0
fi
version=$(PG_CONFIG=$PG_CONFIG bash "$REPO/scripts/timescaledb.sh" build "$major")

cluster_stop "$DIR"
rm -rf "$DIR"
trap 'cluster_stop "$DIR"' EXIT
# TimescaleDB must be preloaded; telemetry off, as the build has none and nothing here may call out.
cluster_start "$DIR" "$PORT" "shared_preload_libraries = 'timescaledb,comb_ext'" "timescaledb.telemetry_level = off"
cluster_psql "$DIR" "$PORT" -d postgres -qAt -c "CREATE DATABASE tsdb"
cluster_psql "$DIR" "$PORT" -d tsdb -qAt -c "CREATE EXTENSION timescaledb" -c "CREATE SCHEMA ids" \
    -c "CREATE EXTENSION comb_ext SCHEMA ids" >/dev/null
say "timescaledb $version, PostgreSQL $(cluster_psql "$DIR" "$PORT" -d tsdb -qAt -c "SHOW server_version")"
"$PYTHON" "$REPO/tests/timescaledb.py" "$DIR" "$PORT" tsdb
