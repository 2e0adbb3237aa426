#!/usr/bin/env bash
# Command two: every test, on each PostgreSQL major given (default: 15, the system server, and 18,
# built once from Debian's source package by scripts/pg.sh). For each major: the Rust unit and
# property tests of src/rules, the conformance tests on tests/vectors (rules-level and in-server), the
# #[pg_test]s, the pg_regress suite in tests/regress against a throwaway cluster running the
# extension exactly as users install it, pg_dump/pg_restore, sqlsmith's random queries, uniqueness and memory under load, uid8
# generator ids claimed at bulk speed and shared fairly between roles and databases, the misspelt-setting warning, standbys, clock steps, restarts,
# the bound on muid's run-ahead, a Citus cluster (17 and 18, when Citus's source is beside the
# repo), partitioning by the time in the id with pg_partman (14 and later) and TimescaleDB (14-17), and the
# Debian package. TimescaleDB on 17 even when 17 is not among the majors: PostgreSQL 17 is then built (cached)
# and comb_ext installed in it for that test alone. Once: the lint gate (cargo fmt, cargo clippy) and fuzzing.
#   bash scripts/test.sh [MAJOR...]          e.g. bash scripts/test.sh 13 15 17 18 (scripts/matrix.sh)
# Ends with a table of each major's result and wall time, and "test: N passed, N failed" (majors).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

MAJORS=("$@")
[ ${#MAJORS[@]} -gt 0 ] || MAJORS=(15 18)
WORK=${COMB_EXT_TEST_DIR:-/tmp/comb_ext_test}
PORT=${COMB_EXT_TEST_PORT:-54330}
FUZZ_SECONDS=${COMB_EXT_FUZZ_SECONDS:-20}

bash "$REPO/scripts/setup.sh"
cd "$REPO"
mkdir -p "$WORK"
chown postgres:postgres "$WORK"

say "lint: cargo fmt --check and cargo clippy -D warnings (extension and fuzz workspace)"
cargo fmt --check
(cd fuzz && cargo fmt --check)
CARGO_TARGET_DIR="$REPO/target/pg15" PGRX_PG_CONFIG_PATH=$(bash scripts/pg.sh pg_config 15) \
    cargo clippy --all-targets --features "pg15 pg_test" --no-default-features -- -D warnings
(cd fuzz && cargo clippy --all-targets -- -D warnings)
python3 tests/module_layers.py  # families -> server -> postgres, no cycle among the adapters
bash scripts/check_links.sh  # every relative link and #anchor of the docs resolves (no network)

say "the watermark slot protocol under the loom model checker: every interleaving of a writer, a PREPARE's hand-over and a watermark's scans (and 0.5.0's scan, which it must catch)"
# Only src/rules is built under --cfg loom (no pgrx, no PostgreSQL), in a target dir of its own.
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR="$REPO/target/loom" \
    cargo test --release --no-default-features --lib rules::watermark::loom -- --nocapture 2>&1 |
    grep -Ev '^ +[0-9]+: |^note: |^stack backtrace:'

say "masking: unmask(mask(x)) = x and no shared mask over 10^6 random ids per family and key (release)"
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR="$REPO/target/loom" \
    cargo test --release --no-default-features --lib rules::mask -- --include-ignored

# TimescaleDB's pinned release builds against 14-17: its test runs on 17 whatever the majors.
TIMESCALEDB_MAJOR=17
timescaledb_only=yes
for major in "${MAJORS[@]}"; do [ "$major" != "$TIMESCALEDB_MAJOR" ] || timescaledb_only=no; done
say "PostgreSQL servers: ${MAJORS[*]}$([ $timescaledb_only = no ] || echo " and $TIMESCALEDB_MAJOR (TimescaleDB only)")"
declare -A PG_CONFIGS
servers=("${MAJORS[@]}")
[ $timescaledb_only = no ] || servers+=("$TIMESCALEDB_MAJOR")
for major in "${servers[@]}"; do
    PG_CONFIGS[$major]=$(bash scripts/pg.sh build "$major")
    echo "PostgreSQL $major: ${PG_CONFIGS[$major]} ($("${PG_CONFIGS[$major]}" --version))"
done
bash scripts/pg.sh pgrx-init

# Point the scripts at major $1's server, and cargo at a target directory of that major's own.
use_server() {
    export PG_CONFIG=${PG_CONFIGS[$1]}
    PGBIN=$("$PG_CONFIG" --bindir)
    export PGBIN
    export CARGO_TARGET_DIR="$REPO/target/pg$1"
}

timescaledb_step() {
    say "[pg$1] partitioning by the time in the id with TimescaleDB: a hypertable per family through partition_func (uid8 also by integer partitioning), rows in the right chunk, the chunks each recommended one-day form reads, TimescaleDB's own wrong results pinned"
    bash "$REPO/tests/timescaledb.sh" "$WORK/timescaledb$1"
}

# One major, start to end; its output also goes to $WORK/pgNN.log.
run_major() {
    local major=$1
    use_server "$major"
    local cluster="$WORK/cluster$major" results="$REPO/target/regress/pg$major"
    cluster_stop "$cluster"
    rm -rf "$cluster"
    trap 'cluster_stop "'"$cluster"'"' EXIT

    say "[pg$major] cargo pgrx test: rules unit/property tests, conformance, #[pg_test]s"
    cargo pgrx test "pg$major" --runas postgres --pgdata "$WORK/pgrx-data-$major"

    say "[pg$major] installing the extension as users get it (no test schema)"
    bash "$REPO/scripts/install.sh" --pg-config "$PG_CONFIG" >/dev/null
    # Earlier releases' install scripts, as a server that ran them has them: the upgrade test starts there.
    install -m 644 "$REPO"/tests/upgrade/comb_ext--*.sql "$("$PG_CONFIG" --sharedir)/extension/"

    say "[pg$major] reinstalled under a session that has the library mapped: every file renamed over, the session goes on"
    bash "$REPO/tests/atomic_install.sh" "$WORK/atomic_install$major"

    say "[pg$major] pg_regress suite (tests/regress) on a throwaway cluster, port $PORT"
    # Preloaded, so the suite also shows the library is safe to load before the postmaster forks.
    cluster_start "$cluster" "$PORT" "shared_preload_libraries = 'comb_ext'"
    rm -rf "$results"
    mkdir -p "$results"
    local status=0
    "$(dirname "$("$PG_CONFIG" --pgxs)")/../test/regress/pg_regress" \
        --bindir="$PGBIN" --host="$cluster" --port="$PORT" --user=postgres --dbname=comb_ext_regress \
        --inputdir="$REPO/tests/regress" --outputdir="$results" \
        --schedule="$REPO/tests/regress/schedule" || status=$?
    if [ $status -ne 0 ]; then
        [ -f "$results/regression.diffs" ] && cat "$results/regression.diffs"
        return $status
    fi

    say "[pg$major] names on the search_path, generated from the catalog: every function, every set of its arguments written as literals, the overload that call prefers planted after the extension's schema and in it, called by a superuser and through a SECURITY DEFINER wrapper; the control (no overloads) must run planted functions"
    "${COMB_EXT_VENV:-${COMB_EXT_CACHE:-/var/cache/comb_ext}/venv}/bin/python" "$REPO/tests/name_resolution.py" "$cluster" "$PORT"

    say "[pg$major] text forms against Python's base64.b32hexencode and python-ulid: 100,000 uuids and bigints both ways, their order, every bad character at every position"
    cluster_psql "$cluster" "$PORT" -qAt -d postgres -c "DROP DATABASE IF EXISTS text_forms" -c "CREATE DATABASE text_forms"
    cluster_psql "$cluster" "$PORT" -qAt -d text_forms -c "CREATE EXTENSION comb_ext"
    "${COMB_EXT_VENV:-${COMB_EXT_CACHE:-/var/cache/comb_ext}/venv}/bin/python" "$REPO/tests/text_forms.py" \
        "host=$cluster port=$PORT user=postgres dbname=text_forms" public
    cluster_psql "$cluster" "$PORT" -qAt -d postgres -c "DROP DATABASE text_forms"

    # In full on 15, on 10^5 ids elsewhere (the statistics scale their bounds to the count).
    local masking_size=--short
    [ "$major" = 15 ] && masking_size=
    say "[pg$major] keyed masking on its own servers: comb_mask equal to python-uuidv47 on 10,000 ids each way, the key unseen by every role and in no server log (a key passed as bytea is: the control), no key / malformed / not preloaded refused, rank correlation and bit balance of $([ -n "$masking_size" ] && echo 10^5 || echo 10^6) masked ids per family, lookups through unmask use the primary key"
    bash "$REPO/tests/masking.sh" "$WORK/masking$major" $masking_size

    say "[pg$major] pg_dump / pg_restore round trip"
    bash "$REPO/tests/dump_restore.sh" "$cluster" "$PORT"

    say "[pg$major] the SQL edition (portable/): psql -f and pg_tle installs by a role with only CREATE on one schema, tests/vectors, uninstall, differential against the compiled edition"
    bash "$REPO/tests/portable.sh" "$WORK/portable$major" "$major"

    say "[pg$major] a misspelt comb_ext setting in postgresql.conf is reported"
    bash "$REPO/tests/misspelt_setting.sh" "$WORK/misspelt$major"

    say "[pg$major] sqlsmith: 20,000 random queries over the catalog and comb_ext; every one run, comb_ext called, no backend crashed, the postmaster never restarted"
    bash "$REPO/tests/sqlsmith.sh" "$WORK/sqlsmith$major" 20000

    say "[pg$major] uniqueness under load across three clusters, and a backend's memory over 10 million calls"
    bash "$REPO/tests/uniqueness.sh" "$WORK/uniqueness$major"

    say "[pg$major] uid8_new at bulk speed: 8 sessions filling milliseconds, each claiming more generator ids"
    bash "$REPO/tests/uid8_bulk.sh" "$WORK/uid8_bulk$major"

    say "[pg$major] uid8 generator ids are not hoarded: 200 idle sessions after bulk inserts hold one id each, a new session in another database gets one"
    bash "$REPO/tests/uid8_hoarding.sh" "$WORK/uid8_hoarding$major"

    say "[pg$major] uid8 generator ids are shared fairly: 170 sessions of one role idle in transaction mid-bulk, another role in another database and a superuser get a first id, the role is refused past its share (53400)"
    bash "$REPO/tests/uid8_share.sh" "$WORK/uid8_share$major"

    say "[pg$major] a streaming standby (pg_basebackup -R) beside its primary: identity-based generators refuse, no value twice"
    bash "$REPO/tests/standby.sh" "$WORK/standby$major"

    # In full on 15 (which has more slack), reduced on the other majors.
    matrix_size=--short
    [ "$major" = 15 ] && matrix_size=
    say "[pg$major] the event matrix ($([ -n "$matrix_size" ] && echo reduced || echo full)): every generator after cp -a, a file copy of a running server during a backup, one backup restored twice, two promoted clones, failovers with the new primary's clock 1 s, 4 s and 60 s behind (faketime), pg_upgrade --copy and --link, then each kind of configuration write and the new values; copies of servers where each subset of generators ran: 0 duplicates or the documented refusal (55000)"
    "${COMB_EXT_VENV:-${COMB_EXT_CACHE:-/var/cache/comb_ext}/venv}/bin/python" "$REPO/tests/event_matrix.py" \
        "$WORK/event_matrix$major" --pg-config "$PG_CONFIG" --port-base $((PORT + 70)) $matrix_size

    say "[pg$major] the clock set back under a running server and during waits (faketime): steps go on or wait only for values issued, one into the far past fails after comb_ext.max_clock_wait"
    bash "$REPO/tests/clock_step.sh" "$WORK/clock_step$major"

    say "[pg$major] damaged marks on disk (values past the format or a day past the clock, a dangling link) are refused with XX001, nothing spins"
    bash "$REPO/tests/damaged_marks.sh" "$WORK/damaged_marks$major"

    # The harness at full length on 18, shorter on the other majors (it is timing-free, so only
    # its reach changes).
    watermark_seconds=15 churn_cycles=25000
    [ "$major" = 18 ] && watermark_seconds=60 churn_cycles=100000
    say "[pg$major] readers following ids in order with the watermarks: 16 writers (savepoints, rollbacks, 2PC, long transactions), 2 readers, $watermark_seconds s per family; 2PC churn, $churn_cycles cycles for comb and a quarter for each other family; no committed row skipped; the control (W from the clock) skips"
    COMB_EXT_WATERMARK_CONTROL_SECONDS=5 bash "$REPO/tests/watermark.sh" "$WORK/watermark$major" "$watermark_seconds" "$churn_cycles"

    say "[pg$major] watermarks through crashes and clock steps: a killed backend's ids, prepared transactions across a postmaster kill -9 until COMMIT/ROLLBACK PREPARED, the clock set back an hour between polls (faketime)"
    bash "$REPO/tests/watermark_crash.sh" "$WORK/watermark_crash$major"

    say "[pg$major] prepared transactions' records of watermark holdings: at most one per prepared transaction, none from a failed PREPARE; per database; after a restart, a deleted, out-of-range or damaged record holds W at 1970 until the transaction ends"
    bash "$REPO/tests/watermark_prepared.sh" "$WORK/watermark_prepared$major"

    say "[pg$major] a disk that stalls every fsync of the marks for 10 s: generation goes on up to the mark written ahead, waits are cancelled within a second, nothing past the mark on disk after a kill -9"
    bash "$REPO/tests/stall.sh" "$WORK/stall$major"

    say "[pg$major] a backend ends while its thread writes a stalled mark and its pid is reused: the family goes on (the backend waited for its thread)"
    bash "$REPO/tests/writer_exit.sh" "$WORK/writer_exit$major"

    say "[pg$major] the clock two days ahead and back under a running server (faketime): no value twice; after a restart every generator refuses (XX001) until the marks are recovered"
    bash "$REPO/tests/forward_jump.sh" "$WORK/forward_jump$major"

    say "[pg$major] clean, kill -9 and crash restarts with the clock set back 1 s, 1 min and 1 h across them (faketime): no value twice"
    bash "$REPO/tests/restart.sh" "$WORK/restart$major"

    say "[pg$major] quick restarts in a row: muid and the watermarks' floor stay where the first restart put them (0.5.0 crept 0.8 s a restart)"
    bash "$REPO/tests/quick_restarts.sh" "$WORK/quick_restarts$major"

    # A release build: in a debug build one session's calls come slower than one a µs, and never
    # run ahead of the clock. The tests after this one do not depend on the build's profile.
    if [ "$major" = 18 ]; then
        say "[pg$major] a burst of muid_new() runs the timeline at most 2 s ahead of the clock, seen from another database; after a restart and a clock set back an hour it goes on ahead at once (release build)"
        bash "$REPO/scripts/install.sh" --release --pg-config "$PG_CONFIG" >/dev/null
        bash "$REPO/tests/muid_run_ahead.sh" "$WORK/muid_run_ahead$major"
    else
        say "[pg$major] the bound on muid's run-ahead: run on 18 only, with a release build"
    fi

    if [ "$major" = 15 ]; then
        say "[pg$major] a PREPARE that takes over a prepared transaction's slot while gdb holds a watermark scan half-way (comb, sno): W passes no id of it while it is prepared (0.5.0 passed it); skipped without gdb or ptrace"
        bash "$REPO/tests/watermark_interleaving.sh" "$WORK/watermark_interleaving$major"
    else
        say "[pg$major] the watermark scan interleaved with gdb: run on 15 only"
    fi

    if [ "$major" = 15 ]; then
        say "[pg$major] 0.4.0 and this build under one running server (upgrade without a restart): 8 + 8 sessions, one generator per family, no value twice"
        bash "$REPO/tests/upgrade_in_place.sh" "$WORK/upgrade_in_place$major"
    else
        say "[pg$major] 0.4.0 and this build under one running server: run on 15 only"
    fi

    if bash "$REPO/scripts/citus.sh" available "$major"; then
        say "[pg$major] Citus: a coordinator and two workers, every generator as a distributed key, 12 sessions on three nodes, plans on the shards, readers in id order through the coordinator (10 s per family)"
        bash "$REPO/scripts/citus.sh" build "$major"
        bash "$REPO/tests/citus.sh" "$WORK/citus$major"
        echo "citus: passed"
    else
        say "[pg$major] Citus: not run here (Citus 14 runs on 17 and 18, from ../shared/third_party/citus-14.0.1.tar.gz)"
        echo "citus: not run on $major"
    fi
    cluster_stop "$cluster"

    say "[pg$major] partitioning by the time in the id with pg_partman (docs/partitioning.md): a set per family and format (encoder/decoder pairs, integer partitioning, by hand), 3 days of rows and the generators' own in the right child, retention, the default partition emptied, one day's range reads one child, the encoders' names planted on the search_path never called"
    bash "$REPO/tests/partman.sh" "$WORK/partman$major"

    timescaledb_step "$major"

    say "[pg$major] the Debian package: its files at this major's paths (15: installed with apt-get and used)"
    bash "$REPO/tests/package.sh" "$major" "$WORK/package$major"
}

# "N checks passed", "not run: why" or FAILED, from a partitioning test's closing line in a log.
partitioning_result() {
    local tool=$1 log=$2 line
    line=$(grep -E "^$tool: " "$log" | tail -n1 || true)
    case $line in
        *" checks passed") echo "${line#"$tool: "}" ;;
        *": skipped on "*) echo "not run (${line#*: skipped on })" ;;
        *) echo FAILED ;;
    esac
}

# run_logged NAME LOG COMMAND...: the command in a subshell under set -e, its output also to LOG; NAME goes
# into passed or failed, and result and seconds say how it went.
run_logged() {
    local name=$1 log=$2 started
    shift 2
    started=$(date +%s)
    # Not in an if: there bash would ignore set -e inside the command.
    set +e
    (set -e; "$@") 2>&1 | tee "$log"
    local status=${PIPESTATUS[0]}
    set -e
    if [ "$status" -eq 0 ]; then
        passed+=("$name")
        result=passed
    else
        failed+=("$name")
        result=FAILED
    fi
    seconds=$(($(date +%s) - started))
}

passed=()
failed=()
summary=()
for major in "${MAJORS[@]}"; do
    log="$WORK/pg$major.log"
    run_logged "$major" "$log" run_major "$major"
    # Counts from the runners' own closing lines.
    rust=$(grep -E '^test result: ' "$log" | awk '{p += $4; f += $6} END {printf "%d passed, %d failed", p, f}' || true)
    regress=$(grep -E 'tests passed|tests failed|All [0-9]+ tests' "$log" | tail -n1 | sed 's/^[# ]*//' || true)
    citus=$(grep -E '^citus: ' "$log" | tail -n1 | sed 's/^citus: //' || true)
    summary+=("$(printf '| %s | %s | %s | %s | %s | %s | %s | %d min %02d s |' "$major" "$result" "$rust" "${regress:-none}" "${citus:-FAILED}" \
        "$(partitioning_result partman "$log")" "$(partitioning_result timescaledb "$log")" $((seconds / 60)) $((seconds % 60)))")
done

# TimescaleDB on its major when the suite does not run there: comb_ext installed (debug build) and the test.
run_timescaledb_only() {
    local major=$1
    use_server "$major"
    say "[pg$major] comb_ext installed for TimescaleDB alone (the rest of the suite runs on $major in scripts/matrix.sh)"
    bash "$REPO/scripts/install.sh" --pg-config "$PG_CONFIG" >/dev/null
    timescaledb_step "$major"
}

if [ $timescaledb_only = yes ]; then
    log="$WORK/pg$TIMESCALEDB_MAJOR-timescaledb.log"
    run_logged "$TIMESCALEDB_MAJOR (TimescaleDB)" "$log" run_timescaledb_only "$TIMESCALEDB_MAJOR"
    summary+=("$(printf '| %s | %s | not run | not run | not run | not run (TimescaleDB only) | %s | %d min %02d s |' "$TIMESCALEDB_MAJOR (TimescaleDB only)" "$result" \
        "$(partitioning_result timescaledb "$log")" $((seconds / 60)) $((seconds % 60)))")
fi

say "fuzzing every parser and decoder of src/rules, $FUZZ_SECONDS s each"
fuzz_status=0
CARGO_TARGET_DIR="$REPO/fuzz/target" bash "$REPO/tests/fuzz.sh" "$FUZZ_SECONDS" || fuzz_status=$?

say "summary"
echo "| major | result | cargo pgrx test | pg_regress | Citus | pg_partman | TimescaleDB | wall time |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${summary[@]}"
[ $fuzz_status -eq 0 ] && echo "fuzz: passed" || echo "fuzz: FAILED"
echo "test: ${#passed[@]} passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ] && [ $fuzz_status -eq 0 ]
