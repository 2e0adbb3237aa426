#!/usr/bin/env bash
# Keyed masking on servers (tests/masking.py says what each step checks): uuidv47 live, the key's secrecy
# (every role's view of the setting, and a grep of every server log for the key after masks, errors, a
# reload, a changed value reloaded, and a restart), the errors of a server without the key, with a
# malformed one and without the library preloaded, the statistics of masked ids, and index lookups.
#   bash tests/masking.sh WORK_DIR [--short|--long]     (expects comb_ext installed; ports COMB_EXT_TEST_PORT + 48 and + 49)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=$1
MODE=${2:-}
MAIN=$WORK/masking PLAIN=$WORK/masking_errors
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 48)) PORT2=$((${COMB_EXT_TEST_PORT:-54330} + 49))
PY="${COMB_EXT_VENV:-${COMB_EXT_CACHE:-/var/cache/comb_ext}/venv}/bin/python"
T="$REPO/tests/masking.py"
cluster_stop "$MAIN"
cluster_stop "$PLAIN"
rm -rf "$MAIN" "$PLAIN"
trap 'cluster_stop "$MAIN"; cluster_stop "$PLAIN"' EXIT

# Fresh random keys each run: a hit in a log cannot be an accident of a fixed key.
key() { od -An -N16 -tx1 /dev/urandom | tr -d ' \n'; }
KEY1=$(key) KEY2=$(key) CONTROL=$(key) CHANGED=$(key) MALFORMED=$(key)
LOGGING=("log_min_messages = debug5" "log_statement = 'all'" "log_error_verbosity = verbose" "log_min_error_statement = debug5")

say "masking: a server with comb_ext.mask_key = '1:<key 1>, 2:<key 2>', everything logged, port $PORT"
cluster_start "$MAIN" "$PORT" "shared_preload_libraries = 'comb_ext'" "comb_ext.mask_key = '1:$KEY1, 2:$KEY2'" "${LOGGING[@]}"
cluster_psql "$MAIN" "$PORT" -qAt -d postgres -c "CREATE DATABASE masking"
cluster_psql "$MAIN" "$PORT" -qAt -d masking -c "CREATE EXTENSION comb_ext"
CONN="host=$MAIN port=$PORT user=postgres dbname=masking"
"$PY" "$T" main "$CONN" "$KEY1" "$KEY2" "$CONTROL" $MODE

say "masking: a reload, then a changed key reloaded (refused until a restart), then a restart"
cluster_psql "$MAIN" "$PORT" -qAt -d postgres -c "SELECT pg_reload_conf()" >/dev/null
cp "$MAIN/postgresql.conf" "$MAIN/postgresql.conf.orig"
echo "comb_ext.mask_key = '1:$CHANGED'" >>"$MAIN/postgresql.conf"
cluster_psql "$MAIN" "$PORT" -qAt -d postgres -c "SELECT pg_reload_conf()" >/dev/null
sleep 1
grep -q 'comb_ext.mask_key" cannot be changed without restarting' "$MAIN/server.log" \
    || { echo "masking: the reload of a changed key was not refused in the log" >&2; exit 1; }
cp "$MAIN/postgresql.conf.orig" "$MAIN/postgresql.conf"
as_postgres "$PGBIN/pg_ctl" -D "$MAIN" -l "$MAIN/server.log" -w -t 60 restart >/dev/null
"$PY" "$T" calls "$CONN" "$KEY1"
cluster_stop "$MAIN"

say "masking: servers without the key, with a malformed one and without the library preloaded, port $PORT2"
cluster_start "$PLAIN" "$PORT2" "shared_preload_libraries = 'comb_ext'" "${LOGGING[@]}"
cluster_psql "$PLAIN" "$PORT2" -qAt -d postgres -c "CREATE EXTENSION comb_ext"
CONN2="host=$PLAIN port=$PORT2 user=postgres dbname=postgres"
echo "  not set:"
"$PY" "$T" refused "$CONN2" 55000 "$KEY1"
cluster_stop "$PLAIN"
# Entry 2 lacks a digit; entry 1 is a whole key, which no message may show.
echo "comb_ext.mask_key = '1:$MALFORMED, 2:${MALFORMED:1}'" >>"$PLAIN/postgresql.conf"
cluster_start "$PLAIN" "$PORT2"
echo "  malformed:"
"$PY" "$T" refused "$CONN2" 22023 "$MALFORMED"
cluster_stop "$PLAIN"
sed -i "s/^shared_preload_libraries = 'comb_ext'$/shared_preload_libraries = ''/" "$PLAIN/postgresql.conf"
cluster_start "$PLAIN" "$PORT2"
echo "  not preloaded:"
"$PY" "$T" refused "$CONN2" 55000 "$MALFORMED"
cluster_stop "$PLAIN"

say "masking: no key in any server log; the key passed as bytea is there (the control)"
"$PY" "$T" grep "$MAIN/server.log" "$PLAIN/server.log" -- "$KEY1" "$KEY2" "$CHANGED" "$MALFORMED" -- "$CONTROL"
