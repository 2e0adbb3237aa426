#!/usr/bin/env bash
# The slot hand-over at PREPARE against a watermark scan stopped half-way with gdb, in a real
# server, for comb and sno (tests/watermark_interleaving.py says how; 0.5.0 fails it). Skips, with a
# line saying so, where gdb or ptrace is unavailable. The control: 0.5.0's comb_ext.so installed in
# this build's place and COMB_EXT_VERSION=0.5.0 (CREATE EXTENSION ... VERSION) fails it (W2 passes b's id).
#   bash tests/watermark_interleaving.sh WORK_DIR   (expects comb_ext installed and psycopg in the venv
#   scripts/setup.sh makes; port COMB_EXT_TEST_PORT + 42, default 54372)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=${1:?usage: tests/watermark_interleaving.sh WORK_DIR}
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 42))
dir="$WORK/cluster"

if ! command -v gdb >/dev/null; then
    echo "watermark_interleaving: SKIPPED: no gdb on this machine"
    exit 0
fi
mkdir -p "$WORK"
chown postgres:postgres "$WORK"
cluster_stop "$dir"
rm -rf "$dir"
trap 'cluster_stop "$dir"' EXIT
# One prepared transaction's process: every PREPARE takes over the same slot.
cluster_start "$dir" "$PORT" "shared_preload_libraries = 'comb_ext'" "max_prepared_transactions = 1" >/dev/null
cluster_psql "$dir" "$PORT" -d postgres -qAt -c "CREATE EXTENSION comb_ext${COMB_EXT_VERSION:+ VERSION '$COMB_EXT_VERSION'}"
for family in comb sno; do
    "$PYTHON" "$REPO/tests/watermark_interleaving.py" --dsn "host=$dir port=$PORT user=postgres dbname=postgres" \
        --work "$WORK/$family" --family "$family"
done
