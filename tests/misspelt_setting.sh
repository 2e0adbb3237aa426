#!/usr/bin/env bash
# A misspelt comb_ext setting in postgresql.conf is reported in the server log when the library
# loads, instead of being kept silently: comb_ext reserves its prefix (MarkGUCPrefixReserved on
# PostgreSQL 15+, EmitWarningsOnPlaceholders on 13 and 14; src/postgres/compat.rs).
#   bash tests/misspelt_setting.sh WORK_DIR       (expects comb_ext installed; port COMB_EXT_TEST_PORT + 6, default 54336)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
DIR=$1
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 6))
cluster_stop "$DIR"
rm -rf "$DIR"
trap 'cluster_stop "$DIR"' EXIT
cluster_start "$DIR" "$PORT" "shared_preload_libraries = 'comb_ext'" "comb_ext.sno_partiton = 5" "comb_ext.sno_partition = 6"
line=$(grep -E 'WARNING: .*"comb_ext\.sno_partiton"' "$DIR/server.log" | head -n1 || true)
[ -n "$line" ] || { cat "$DIR/server.log" >&2; echo "misspelt setting: no WARNING in the server log" >&2; exit 1; }
echo "misspelt setting: the server log says: ${line#*WARNING:  }"
# The correctly spelt one is applied.
value=$(cluster_psql "$DIR" "$PORT" -d postgres -qAt -c "SHOW comb_ext.sno_partition")
[ "$value" = 6 ] || { echo "misspelt setting: comb_ext.sno_partition is $value, expected 6" >&2; exit 1; }
