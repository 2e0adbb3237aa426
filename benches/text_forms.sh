#!/usr/bin/env bash
# Benchmark (not a test): ns per call of each text form (comb_text, comb_parse, typeid_text, typeid_parse,
# uid8_text, uid8_parse) next to uuid_out, uuid_in, int8out and int8in, in the compiled edition (release
# build) and the SQL edition, on a throwaway cluster of PostgreSQL MAJOR. Writes
# benches/results/text_forms-pgMAJOR.md.
#   bash benches/text_forms.sh MAJOR [rows (default 1000000)]
set -euo pipefail
MAJOR=${1:?usage: bash benches/text_forms.sh MAJOR [rows]}
ROWS=${2:-1000000}
PG_CONFIG=$(bash "$(dirname "$0")/../scripts/pg.sh" pg_config "$MAJOR")
export PG_CONFIG
source "$(dirname "$0")/../scripts/lib/common.sh"

DIR=${COMB_EXT_BENCH_DIR:-/tmp/comb_ext_bench_text}
PORT=${COMB_EXT_BENCH_PORT:-54344}
bench_cluster "$DIR" "$PORT" "jit = off"
cluster_psql "$DIR" "$PORT" -qAt -d postgres -c "CREATE DATABASE bench"
cluster_psql "$DIR" "$PORT" -qAt -d bench -c "CREATE EXTENSION comb_ext" -c "CREATE SCHEMA ids"
cluster_psql "$DIR" "$PORT" -qAt -d bench -c "SET search_path = ids" -f "$REPO/portable/dist/comb_ext_install.sql" 2>/dev/null
"${COMB_EXT_VENV:-${COMB_EXT_CACHE:-/var/cache/comb_ext}/venv}/bin/python" "$REPO/benches/text_forms.py" \
    "host=$DIR port=$PORT user=postgres dbname=bench" --rows "$ROWS" --sql-edition ids \
    --out "$REPO/benches/results/text_forms-pg$MAJOR.md"
