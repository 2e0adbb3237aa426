#!/usr/bin/env bash
# Issue 21's watermark property under attack: for each id family (comb_uuid(), sno_new(), muid_new(),
# uid8_new('time_sequential')) 16 writers commit, roll back, use savepoints and prepared
# transactions while 2 readers poll `id > $last AND id < W ORDER BY id` with W from the family's
# watermark function; every committed id must reach every reader once, in order
# (tests/watermark_harness.py). Then the control: the same with W read off the clock, which must
# skip rows, or the harness has not shown it can see a skip.
# Then 2PC churn: every transaction prepared and at once committed, CHURN cycles for comb_uuid()
# and a quarter of that for each other family, with the readers polling (0.5.0 skipped rows so).
#   bash tests/watermark.sh WORK_DIR [SECONDS [CHURN]] [--quick]   (each family SECONDS, default 60;
#   CHURN default 100000; the control
#   COMB_EXT_WATERMARK_CONTROL_SECONDS each, default 15; expects comb_ext installed and psycopg in
#   the venv scripts/setup.sh makes; port COMB_EXT_TEST_PORT + 36, default 54366)
# --quick is the quick cell, not the full run: one family, comb_uuid(), for SECONDS (default 10),
# CHURN 2PC cycles of it (default 2000) and its control (default 5 s); no sno, muid or uid8.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
take_quick "$@"
set -- "${ARGS[@]}"
WORK=${1:?usage: tests/watermark.sh WORK_DIR [SECONDS [CHURN]] [--quick]}
if [ "$QUICK" = 1 ]; then
    SECONDS_EACH=${2:-10}
    CHURN=${3:-2000}
    CONTROL_SECONDS=${COMB_EXT_WATERMARK_CONTROL_SECONDS:-5}
    FAMILIES=(comb)
    echo "watermark --quick: THE QUICK CELL ONLY, not the full run: comb_uuid() for $SECONDS_EACH s, $CHURN 2PC churn cycles and its control ($CONTROL_SECONDS s); sno, muid and uid8 not run"
else
    SECONDS_EACH=${2:-60}
    CHURN=${3:-100000}
    CONTROL_SECONDS=${COMB_EXT_WATERMARK_CONTROL_SECONDS:-15}
    FAMILIES=(comb sno muid uid8)
fi
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 36))

need_psycopg "watermark"

mkdir -p "$WORK"
chown postgres:postgres "$WORK"
dir="$WORK/cluster"
cluster_stop "$dir"
rm -rf "$dir"
trap 'cluster_stop "$dir"' EXIT
# 16 writers, 2 readers, the resolver and the checks: 20 sessions; up to 16 prepared at once.
cluster_start "$dir" "$PORT" "max_prepared_transactions = 20" "max_connections = 60"
cluster_psql "$dir" "$PORT" -d postgres -qAt -c "CREATE EXTENSION comb_ext"
dsn="host=$dir port=$PORT user=postgres dbname=postgres"

failed=()
run() {
    local label=$1
    shift
    say "$label"
    "$PYTHON" "$REPO/tests/watermark_harness.py" --dsn "$dsn" "$@" || failed+=("$label")
}
for family in "${FAMILIES[@]}"; do
    run "$family: W from its watermark function, $SECONDS_EACH s" --family "$family" --mode watermark --seconds "$SECONDS_EACH"
done
for family in "${FAMILIES[@]}"; do
    cycles=$CHURN
    [ "$family" = comb ] || cycles=$((CHURN / 4))
    run "2PC churn, $family: $cycles PREPARE / COMMIT PREPARED cycles, W from its watermark function" \
        --family "$family" --mode watermark --churn --cycles "$cycles" --seconds 600
done
for family in "${FAMILIES[@]}"; do
    run "control, $family: W from the clock, $CONTROL_SECONDS s, must skip rows" \
        --family "$family" --mode clock --seconds "$CONTROL_SECONDS" --expect-skips
done

if [ ${#failed[@]} -gt 0 ]; then
    printf 'watermark: FAILED: %s\n' "${failed[@]}" >&2
    exit 1
fi
if [ "$QUICK" = 1 ]; then
    echo "watermark --quick (comb_uuid() only): it kept every committed row, under 2PC churn too, and the control skipped rows"
else
    echo "watermark: every family kept every committed row, under 2PC churn too, and the control skipped rows"
fi
