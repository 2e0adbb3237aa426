#!/usr/bin/env bash
# Benchmark (not a test): comb_ext's generators beside their peers in one server. pgEdge snowflake 2.6.0 and
# fboulnois/pg_uuidv7 1.6.0 are built from their sources with PGXS, next to PostgreSQL's own nextval(),
# bigserial, gen_random_uuid() and (on 18) uuidv7(). It prints and writes per-call cost, bulk inserts of 10^6
# rows from 1 and 8 pgbench clients (time, index size, leaf density, duplicates), every figure also as a ratio
# against nextval() or bigserial from the same run, and a chart (matplotlib, PNG) of insert time and index
# size per generator. Writes benches/results/peers-pgMAJOR.md and peers-pgMAJOR.png.
#   bash benches/peers.sh MAJOR [rows (default 1000000)] [calls (default 1000000)] [rounds (default 3)] [pairs (default 0)]
# pairs: that many rounds from 1 client, and three times as many from 8 (their loads range wider), of loads of bigserial,
# snowflake and uid8 (both modes) one right after another,
# and their ratios: to bigserial, and uid8's to snowflake, within each round.
# The peers' sources: nothing is downloaded here (no network but the package registries), so each comes from
#   COMB_EXT_SNOWFLAKE_SRC   a source tree of pgEdge/snowflake, or a git directory holding tag v2.6.0
#   COMB_EXT_PG_UUIDV7_SRC   a source tree of fboulnois/pg_uuidv7, or a git directory holding tag v1.6.0
# and a peer whose variable is unset or whose build fails is skipped with one line saying so.
# matplotlib 3.10.7 comes from PyPI into a venv of its own (COMB_EXT_CACHE/bench-venv); without it the chart is
# skipped with one line. The cluster: COMB_EXT_BENCH_DIR, COMB_EXT_BENCH_PORT (default /tmp/comb_ext_bench_peers,
# 54352), comb_ext preloaded, snowflake.node = 1, JIT off.
set -euo pipefail
MAJOR=${1:?usage: bash benches/peers.sh MAJOR [rows] [calls] [rounds] [pairs]}
ROWS=${2:-1000000}
CALLS=${3:-1000000}
ROUNDS=${4:-3}
PAIRS=${5:-0}
PG_CONFIG=$(bash "$(dirname "$0")/../scripts/pg.sh" pg_config "$MAJOR")
export PG_CONFIG
source "$(dirname "$0")/../scripts/lib/common.sh"

DIR=${COMB_EXT_BENCH_DIR:-/tmp/comb_ext_bench_peers}
PORT=${COMB_EXT_BENCH_PORT:-54352}
OUT=${COMB_EXT_BENCH_OUT:-$REPO/benches/results}
CACHE=${COMB_EXT_CACHE:-/var/cache/comb_ext}
BUILD=$(mktemp -d /tmp/comb_ext_peers.XXXXXX)
trap 'rm -rf "$BUILD"' EXIT

# build_peer NAME VARIABLE TAG: builds and installs a peer for this PG_CONFIG; prints "NAME VERSION" when it
# is in place, or one line saying why it was skipped (on stderr) and nothing on stdout.
build_peer() {
    local name=$1 variable=$2 tag=$3 src=${!2:-}
    if [ -z "$src" ]; then
        echo "peers: $name skipped: $variable is not set (a source tree, or a git directory holding $tag)" >&2
        return 0
    fi
    local tree=$BUILD/$name
    mkdir -p "$tree"
    if [ -f "$src/Makefile" ]; then
        cp -a "$src/." "$tree/"
    elif git --git-dir="$src" rev-parse -q --verify "$tag^{commit}" >/dev/null 2>&1; then
        git --git-dir="$src" archive "$tag" | tar -x -C "$tree"
    else
        echo "peers: $name skipped: $src is neither a source tree nor a git directory holding $tag" >&2
        return 0
    fi
    if ! make -C "$tree" USE_PGXS=1 PG_CONFIG="$PG_CONFIG" >"$BUILD/$name.log" 2>&1 ||
        ! make -C "$tree" USE_PGXS=1 PG_CONFIG="$PG_CONFIG" install >>"$BUILD/$name.log" 2>&1; then
        echo "peers: $name skipped: its build failed on PostgreSQL $MAJOR:" >&2
        tail -n 5 "$BUILD/$name.log" >&2
        return 0
    fi
    echo "$name $tag"
}

say "building the peers with PGXS for PostgreSQL $MAJOR"
PEERS=$(build_peer snowflake COMB_EXT_SNOWFLAKE_SRC v2.6.0; build_peer pg_uuidv7 COMB_EXT_PG_UUIDV7_SRC v1.6.0)
echo "${PEERS:-peers: none built}"

venv=$CACHE/bench-venv
if ! "$venv/bin/python" -c 'import matplotlib' 2>/dev/null; then
    say "installing matplotlib 3.10.7 into $venv"
    { /usr/bin/python3 -m venv "$venv" && "$venv/bin/pip" install -q 'matplotlib==3.10.7'; } ||
        echo "peers: matplotlib could not be installed; the chart will be skipped" >&2
fi
python=$venv/bin/python
[ -x "$python" ] || python=/usr/bin/python3

# synchronous_commit off: a load's 1,000 commits would otherwise each wait for a WAL flush, whose latency on a
# shared disk varies more between loads than the generators differ; every key pays the same flushes.
bench_cluster "$DIR" "$PORT" "shared_preload_libraries = 'comb_ext'" "snowflake.node = 1" "jit = off" \
    "max_wal_size = '4GB'" "checkpoint_timeout = '30min'" "synchronous_commit = off"

"$python" "$REPO/benches/peers.py" --host "$DIR" --port "$PORT" --bin "$PGBIN" --major "$MAJOR" \
    --rows "$ROWS" --calls "$CALLS" --rounds "$ROUNDS" --pairs "$PAIRS" --peers "$(echo "$PEERS" | tr '\n' ',')" --out "$OUT"
