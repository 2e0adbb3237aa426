#!/usr/bin/env bash
# Benchmark (not a test): ns per call of every mask and unmask, with the setting's key and with a bytea key,
# next to each family's generator, gen_random_uuid() and (on 18) uuidv7(), on a throwaway cluster of
# PostgreSQL MAJOR with a random key. Installs the release build. Writes benches/results/masking-pgMAJOR.md.
#   bash benches/masking.sh MAJOR [rows (default 1000000)]
set -euo pipefail
MAJOR=${1:?usage: bash benches/masking.sh MAJOR [rows]}
ROWS=${2:-1000000}
PG_CONFIG=${PG_CONFIG:-$(bash "$(dirname "$0")/../scripts/pg.sh" pg_config "$MAJOR")}
export PG_CONFIG
source "$(dirname "$0")/../scripts/lib/common.sh"

DIR=${COMB_EXT_BENCH_DIR:-/tmp/comb_ext_bench_masking}
PORT=${COMB_EXT_BENCH_PORT:-54346}
KEY=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
bench_cluster "$DIR" "$PORT" "jit = off" "shared_preload_libraries = 'comb_ext'" "comb_ext.mask_key = '1:$KEY'"
cluster_psql "$DIR" "$PORT" -qAt -d postgres -c "CREATE DATABASE bench"
cluster_psql "$DIR" "$PORT" -qAt -d bench -c "CREATE EXTENSION comb_ext"
"${COMB_EXT_VENV:-${COMB_EXT_CACHE:-/var/cache/comb_ext}/venv}/bin/python" "$REPO/benches/masking.py" \
    "host=$DIR port=$PORT user=postgres dbname=bench" --rows "$ROWS" --out "$REPO/benches/results/masking-pg$MAJOR.md"

# The constructions alone, without PostgreSQL's call (uuidv47 reports its C's encode and decode so): built
# without pgrx, as the loom step builds src/rules.
say "masking: the constructions without PostgreSQL (benches/mask_rules.rs)"
{
    echo
    RUSTFLAGS="--cfg rules_only" CARGO_TARGET_DIR="$REPO/target/loom" \
        cargo bench --quiet --no-default-features --bench mask_rules 2>/dev/null
} | tee -a "$REPO/benches/results/masking-pg$MAJOR.md"
