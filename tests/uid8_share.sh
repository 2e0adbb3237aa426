#!/usr/bin/env bash
# uid8 generator ids: one role cannot take the ids others need for their first call (issue 30).
# 170 sessions of an unprivileged role idle in transaction mid-bulk, a newcomer role in another
# database and a superuser get a first id, the hoarding role is refused past its share with 53400,
# the counts follow ids let go, and with the share lifted the reserve still serves a role holding none
# (tests/uid8_share.py says what is checked).
#   bash tests/uid8_share.sh WORK_DIR    (expects comb_ext installed and psycopg in the venv
#   scripts/setup.sh makes; port COMB_EXT_TEST_PORT + 44, default 54374)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
DIR=${1:?usage: tests/uid8_share.sh WORK_DIR}
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 44))

need_psycopg "uid8 share"

# At most about 980 at once: 170 hoarders, up to 300 more bulks, about 380 first ids up to the
# reserve, about 120 roles' first ids, the others.
harness_cluster "$DIR" "$PORT" "max_connections = 1000"
sql() { local db=$1; shift; cluster_psql "$DIR" "$PORT" -d "$db" -qAt "$@"; }
sql postgres -c "DO \$\$ BEGIN FOR n IN 1..130 LOOP EXECUTE format('CREATE ROLE late%s LOGIN', n); END LOOP; END \$\$"
sql postgres -c "CREATE DATABASE hoarder" -c "CREATE DATABASE newcomer" \
    -c "CREATE ROLE hoarder LOGIN" -c "CREATE ROLE newcomer LOGIN" -c "CREATE ROLE second LOGIN" -c "CREATE ROLE late LOGIN" \
    -c "CREATE EXTENSION comb_ext"
sql hoarder -c "CREATE EXTENSION comb_ext"
sql newcomer -c "CREATE EXTENSION comb_ext"
"$PYTHON" "$REPO/tests/uid8_share.py" "$DIR" "$PORT"
