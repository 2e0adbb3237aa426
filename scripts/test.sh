#!/usr/bin/env bash
# Command two: every test. Rust unit and property tests of src/core, the conformance tests on
# ../shared/vectors (core-level and in-server), the #[pg_test]s, then the pg_regress suite in
# tests/regress against a throwaway cluster running the extension exactly as users install it.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

WORK=${COMB_EXT_TEST_DIR:-/tmp/comb_ext_test}
PORT=${COMB_EXT_TEST_PORT:-54330}
CLUSTER="$WORK/cluster"
RESULTS="$REPO/target/regress"

bash "$REPO/scripts/setup.sh"
cd "$REPO"

# initdb refuses root: the pgrx test cluster runs as postgres, in a directory it owns.
mkdir -p "$WORK"
chown postgres:postgres "$WORK"
cluster_stop "$CLUSTER"
rm -rf "$CLUSTER"
trap 'cluster_stop "$CLUSTER"' EXIT

say "cargo pgrx test: core unit/property tests, conformance, #[pg_test]s"
cargo pgrx test pg15 --runas postgres --pgdata "$WORK/pgrx-data"

say "installing the extension as users get it (no test schema)"
cargo pgrx install --pg-config "$PG_CONFIG" >/dev/null
# The previous release's install script, as a server that ran it has it: the upgrade test starts there.
install -m 644 "$REPO/tests/upgrade/comb_ext--0.1.0.sql" "$($PG_CONFIG --sharedir)/extension/"

say "pg_regress suite (tests/regress) on a throwaway cluster, port $PORT"
# Preloaded, so the suite also shows the library is safe to load before the postmaster forks.
cluster_start "$CLUSTER" "$PORT" "shared_preload_libraries = 'comb_ext'"
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
status=0
"$($PG_CONFIG --pgxs | xargs dirname)/../test/regress/pg_regress" \
    --host="$CLUSTER" --port="$PORT" --user=postgres --dbname=comb_ext_regress \
    --inputdir="$REPO/tests/regress" --outputdir="$RESULTS" \
    --schedule="$REPO/tests/regress/schedule" || status=$?
if [ $status -ne 0 ]; then
    [ -f "$RESULTS/regression.diffs" ] && cat "$RESULTS/regression.diffs"
    exit $status
fi

say "pg_dump / pg_restore round trip"
bash "$REPO/tests/dump_restore.sh" "$CLUSTER" "$PORT"

say "uniqueness under load across three clusters, and a backend's memory over 10 million calls"
bash "$REPO/tests/uniqueness.sh" "$WORK/uniqueness"

say "fuzzing every parser and decoder of src/core, 60 s each"
bash "$REPO/tests/fuzz.sh" 60
