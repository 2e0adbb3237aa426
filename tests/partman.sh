#!/usr/bin/env bash
# Partitioning by the time inside an id with pg_partman (issue 33; docs/partitioning.md): builds
# pg_partman into the server (scripts/partman.sh, cached), starts a cluster of its own and runs
# tests/partman.py, which says what is checked. Skips, with one line saying why, when pg_partman cannot be had
# for this server (a major below 14, or no pinned source in the Debian pool and none cached). The test command
# runs it on 15 and 18.
#   bash tests/partman.sh WORK_DIR   (PG_CONFIG of the server, comb_ext installed in it; port
#                                     COMB_EXT_TEST_PORT + 48, default 54378; psycopg in the venv scripts/setup.sh makes)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
DIR=${1:?usage: tests/partman.sh WORK_DIR}
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 48))

need_psycopg "partman"
major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
# PG_CONFIG is passed on explicitly: scripts/partman.sh then installs into this server, whatever its major.
if ! reason=$(PG_CONFIG=$PG_CONFIG bash "$REPO/scripts/partman.sh" available "$major" 2>&1); then
    echo "partman: skipped on PostgreSQL $major: ${reason:-pg_partman is not available}"
    exit 0
fi
version=$(PG_CONFIG=$PG_CONFIG bash "$REPO/scripts/partman.sh" build "$major")

cluster_stop "$DIR"
rm -rf "$DIR"
trap 'cluster_stop "$DIR"' EXIT
cluster_start "$DIR" "$PORT"
cluster_psql "$DIR" "$PORT" -d postgres -qAt -c "CREATE DATABASE partman"
# Each extension in a schema of its own, so that every name the test uses is qualified.
cluster_psql "$DIR" "$PORT" -d partman -qAt -c "CREATE SCHEMA partman" -c "CREATE EXTENSION pg_partman SCHEMA partman" \
    -c "CREATE SCHEMA ids" -c "CREATE EXTENSION comb_ext SCHEMA ids"
say "pg_partman $version, PostgreSQL $(cluster_psql "$DIR" "$PORT" -d partman -qAt -c "SHOW server_version")"
"$PYTHON" "$REPO/tests/partman.py" "$DIR" "$PORT" partman
