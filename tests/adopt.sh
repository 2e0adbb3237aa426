#!/usr/bin/env bash
# comb_ext_adopt under load (docs/adopting.md): tables with a foreign-key child and 100,000 rows adopted while 8
# sessions insert into both, and the control that must be caught (tests/adopt.py says what is checked); then
# docs/adopting.md's backfill recipe, run as the page writes it while 8 sessions insert (tests/backfill.py).
#   bash tests/adopt.sh WORK_DIR    (expects comb_ext installed and psycopg in the venv scripts/setup.sh makes;
#   port COMB_EXT_TEST_PORT + 100, default 54430)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
DIR=${1:?usage: tests/adopt.sh WORK_DIR}
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 100))

need_psycopg "adopt"

harness_cluster "$DIR" "$PORT"
cluster_psql "$DIR" "$PORT" -d postgres -qAt -c "CREATE EXTENSION comb_ext"
"$PYTHON" "$REPO/tests/adopt.py" "$DIR" "$PORT"
"$PYTHON" "$REPO/tests/backfill.py" "$DIR" "$PORT"
