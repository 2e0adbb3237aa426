#!/usr/bin/env bash
# The test command, in two tiers (tests/README.md lists every step, its tier and its time):
#   bash scripts/test.sh [MAJOR...]           the full gate (.ci/run): default 15 and 18
#   bash scripts/test.sh --quick [MAJOR...]   the edit loop: default 15, about 10 minutes with the servers built
# Full gate: every suite on each major given, each major in a lane of its own (servers, ports, work
# directories and PGRX_HOME apart), at most COMB_EXT_LANES lanes at once (default 3), so that one lane's
# compiles and CPU-bound suites fill the time another spends waiting on restarts, clock steps and soaks.
# Each major's soaks (the SQL edition, the watermark readers, Citus) run in a soak lane beside its lane, on
# the build that lane installs (soak_lane).
# Once, in a lane of its own at the lowest priority (background): the lint gate (cargo fmt, cargo clippy, the
# adapters' layers, the docs' links), the loom model of the watermark slots, masking over a million ids, then
# fuzzing. TimescaleDB on its major (14-17) even when that major is not given: comb_ext is then installed there
# for that test alone, in a background lane too.
# Each major: the Rust unit and property tests of src/rules, conformance on tests/vectors, the #[pg_test]s,
# pg_regress against a throwaway cluster running the extension exactly as users install it, names on the
# search_path, text forms, masking, the SQL edition, pg_dump/pg_restore, sqlsmith (20,000 queries split
# among the majors), uniqueness and memory, uid8's claims and shares, standbys, the event matrix, clock
# steps, damaged marks, watermarks, stalls, restarts, uid8's and muid's run-ahead, Citus (16-18, when its source is
# beside the repo), pg_partman (14+), TimescaleDB (14-17) and the Debian package.
# Quick tier: the lint gate, cargo pgrx test (rules, properties, conformance, #[pg_test]s), pg_regress, the
# names test, and one short cell of each harness class (an event-matrix row, one watermark family, one
# restart, one clock step, the SQL edition's differential on a sample).
# Both end with a summary table, the wall time of the whole run and of each lane, the three longest
# steps, and "test: N passed, N failed" (lanes). Each step's ==> line carries its start time (UTC).
# Builds go to $COMB_EXT_TARGET (default $COMB_EXT_CACHE/target, beside the cached servers), so a fresh
# clone compiles only comb_ext itself; remove that directory for a cold build.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

TIER=full
MAJORS=()
for arg in "$@"; do
    case $arg in
        --quick) TIER=quick ;;
        [0-9][0-9]) MAJORS+=("$arg") ;;
        *) sed -n '2,4p' "$0" >&2; exit 2 ;;
    esac
done
if [ ${#MAJORS[@]} -eq 0 ]; then
    if [ $TIER = quick ]; then MAJORS=(15); else MAJORS=(15 18); fi
fi
WORK=${COMB_EXT_TEST_DIR:-/tmp/comb_ext_test}
PORT=${COMB_EXT_TEST_PORT:-54330}
CACHE=${COMB_EXT_CACHE:-/var/cache/comb_ext}
TARGET=${COMB_EXT_TARGET:-$CACHE/target}
FUZZ_SECONDS=${COMB_EXT_FUZZ_SECONDS:-20}
LANES=${COMB_EXT_LANES:-3}
VENV_PYTHON="${COMB_EXT_VENV:-$CACHE/venv}/bin/python"
# Compiles run at a lower priority than the servers under test, so a lane's build does not starve another
# lane's timed waits.
NICE=(nice -n 10)
GATE_STARTED=$(date +%s)

bash "$REPO/scripts/setup.sh" --packages
cd "$REPO"
# The Debian packages the lanes' steps would each install when missing, in one apt-get before the lanes
# start: two lanes' apt-gets at once would fail on dpkg's lock.
# (npm, which scripts/pg.sh needs for 16, is not among them: where nodejs ships it, Debian's npm conflicts.)
lane_packages=(sqlsmith lintian cmake libkrb5-dev libcurl4-openssl-dev liblz4-dev libzstd-dev
    bison flex uuid-dev libssl-dev zlib1g-dev bzip2 make gcc)
missing=()
for p in "${lane_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ $TIER = full ] && [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]} (the lanes' steps need them)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null ||
        { apt-get update -q >/dev/null &&
          DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; }
fi
mkdir -p "$WORK" "$TARGET"
chown postgres:postgres "$WORK"
rm -f "$WORK"/steps-*.tsv "$WORK"/lane-*.log "$WORK"/lane-*.ended "$WORK"/installed-* "$WORK"/server-build-*.log
# From nothing, the servers built from Debian's source (minutes each) start building now, beside cargo-pgrx's
# install, instead of after it in their lanes; a lane that needs one waits on scripts/pg.sh's lock for it.
# Not niced: from nothing, 18's server build, then its cargo pgrx test build, is the gate's critical path.
# 16 (unpacked from a wheel, a minute) stays in its lane: its pip would race setup's venv.
if [ $TIER = full ]; then
    for major in "${MAJORS[@]}"; do
        [ "$major" = 15 ] || [ "$major" = 16 ] || bash scripts/pg.sh pg_config "$major" >/dev/null 2>&1 ||
            bash scripts/pg.sh build "$major" >"$WORK/server-build-$major.log" 2>&1 &
    done
fi
bash "$REPO/scripts/setup.sh"

# step TEXT: the ==> line, and the step's start in this lane's steps file (for the three longest steps).
step() {
    say "$*"
    [ -z "${STEPS_FILE:-}" ] || printf '%s\t%s\n' "$(date +%s)" "$*" >>"$STEPS_FILE"
}

# The majors that run the whole suite; sqlsmith's queries are split among them.
FULL_MAJORS=("${MAJORS[@]}")
SQLSMITH_QUERIES=$((20000 / ${#FULL_MAJORS[@]}))

# Each lane gets its own block of 200 ports (every test takes its ports from COMB_EXT_TEST_PORT): the majors',
# TimescaleDB's, then the soak lanes'.
port_base_of() {
    local i=0 m
    for m in "${MAJORS[@]}" 16 17 "${MAJORS[@]/%/-soaks}"; do
        [ "$m" = "$1" ] && { echo $((PORT + 200 * i)); return; }
        i=$((i + 1))
    done
}

# Point the scripts at major $1's server (building or unpacking it when it is not cached), cargo at a target
# directory of that major's own, pgrx at a PGRX_HOME that knows only that major (so lanes never rewrite each
# other's), and the tests at the ports of lane $2 (default: the major's).
use_server() {
    local major=$1 lane=${2:-$1}
    PG_CONFIG=$(bash "$REPO/scripts/pg.sh" build "$major")
    export PG_CONFIG
    echo "PostgreSQL $major: $PG_CONFIG ($("$PG_CONFIG" --version))"
    PGBIN=$("$PG_CONFIG" --bindir)
    export PGBIN
    export CARGO_TARGET_DIR="$TARGET/pg$major"
    export COMB_EXT_TARGET="$TARGET"
    export PGRX_HOME="$WORK/pgrx-home-$major"
    mkdir -p "$PGRX_HOME"
    [ -f "$PGRX_HOME/config.toml" ] && grep -qF "\"$PG_CONFIG\"" "$PGRX_HOME/config.toml" ||
        cargo pgrx init "--pg$major" "$PG_CONFIG" >/dev/null
    export COMB_EXT_TEST_PORT
    COMB_EXT_TEST_PORT=$(port_base_of "$lane")
}

# The lane waits on another from now until its next step: a record "(wait)" in its steps file ends the step
# before, and the longest steps leave the wait out.
waiting() { [ -z "${STEPS_FILE:-}" ] || printf '%s\t(wait)\n' "$(date +%s)" >>"$STEPS_FILE"; }

# The lint gate and the checks that need no server.
lint() {
    step "lint: cargo fmt --check and cargo clippy -D warnings (extension and fuzz workspace); the adapters' layers; the docs' links"
    cargo fmt --check
    (cd fuzz && cargo fmt --check)
    # Every build of this lane (clippy, the fuzz workspace, the fuzzers) against 15, named here: without it pgrx's
    # bindings read ~/.pgrx/config.toml, which a new machine lacks and an old one may list servers since removed.
    PGRX_PG_CONFIG_PATH=$(bash scripts/pg.sh pg_config 15)
    export PGRX_PG_CONFIG_PATH
    # In a target directory of its own: in 15's, the 15 lane's first build waited on cargo's lock for the whole
    # of clippy's (8 min from nothing), which costs the gate more than building bindgen's bindings twice.
    CARGO_TARGET_DIR="$TARGET/clippy" \
        "${NICE[@]}" cargo clippy --all-targets --features "pg15 pg_test" --no-default-features -- -D warnings
    # The fuzz workspace as tests/fuzz.sh builds it (rules only), in a target dir of its own.
    (cd fuzz && RUSTFLAGS="--cfg rules_only" CARGO_TARGET_DIR="$TARGET/fuzz-clippy" "${NICE[@]}" cargo clippy --all-targets -- -D warnings)
    python3 tests/module_layers.py  # families -> server -> postgres, no cycle among the adapters
    bash scripts/check_links.sh     # every relative link and #anchor of the docs resolves (no network)
}

once_lane() {
    # cargo-fuzz's install beside the lint gate: from nothing it came last, in the gate's last minutes, when this
    # lane ran alone and its compiles had the two cores to themselves (63f2621: 13:55:49 to 13:59:28 for it, the
    # fuzzers' build and their runs).
    bash "$REPO/tests/fuzz.sh" --install-only >"$WORK/cargo-fuzz-install.log" 2>&1 &
    local fuzz_installer=$!
    lint

    step "the watermark slot protocol under the loom model checker: every interleaving of a writer, a PREPARE's hand-over and a watermark's scans (and 0.5.0's scan, which it must catch)"
    # Only src/rules is built under --cfg rules_only (no pgrx, no PostgreSQL), in a target dir of its own.
    RUSTFLAGS="--cfg rules_only --cfg loom" CARGO_TARGET_DIR="$TARGET/loom" \
        "${NICE[@]}" cargo test --release --no-default-features --lib rules::watermark::loom -- --nocapture 2>&1 |
        grep -Ev '^ +[0-9]+: |^note: |^stack backtrace:'

    step "masking: unmask(mask(x)) = x and no shared mask over 10^6 random ids per family and key (release)"
    RUSTFLAGS="--cfg rules_only --cfg loom" CARGO_TARGET_DIR="$TARGET/loom" \
        "${NICE[@]}" cargo test --release --no-default-features --lib rules::mask -- --include-ignored

    step "fuzzing every parser and decoder of src/rules, $FUZZ_SECONDS s each"
    wait "$fuzz_installer" || { cat "$WORK/cargo-fuzz-install.log"; return 1; }
    CARGO_TARGET_DIR="$TARGET/fuzz" "${NICE[@]}" bash "$REPO/tests/fuzz.sh" "$FUZZ_SECONDS"
    echo "fuzz: passed (7 targets, $FUZZ_SECONDS s each)"
}

timescaledb_step() {
    step "[pg$1] partitioning by the time in the id with TimescaleDB: a hypertable per family through partition_func (uid8 also by integer partitioning), rows in the right chunk, the chunks each recommended one-day form reads, TimescaleDB's own wrong results pinned"
    bash "$REPO/tests/timescaledb.sh" "$WORK/timescaledb$1"
}

# Both tiers' lanes start so: major $1's server, a cluster of the lane's own ($cluster, left running for the
# steps after), cargo pgrx test, the install as users get it, pg_regress and the names test.
core_steps() {
    local major=$1
    use_server "$major"
    # Globals of the lane's subshell: the lane's later steps use them.
    cluster="$WORK/cluster$major" results="$TARGET/regress/pg$major"
    cluster_stop "$cluster"
    rm -rf "$cluster"
    trap 'cluster_stop "'"$cluster"'"' EXIT
    step "[pg$major] cargo pgrx test: rules unit/property tests, conformance, #[pg_test]s"
    "${NICE[@]}" cargo pgrx test "pg$major" --runas postgres --pgdata "$WORK/pgrx-data-$major"

    step "[pg$major] installing the extension as users get it (no test schema; a ${COMB_EXT_PROFILE:-debug} build)"
    "${NICE[@]}" bash "$REPO/scripts/install.sh" --pg-config "$PG_CONFIG" >/dev/null
    # Earlier releases' install scripts, as a server that ran them has them: the upgrade test starts there.
    install -m 644 "$REPO"/tests/upgrade/comb_ext--*.sql "$("$PG_CONFIG" --sharedir)/extension/"
    touch "$WORK/installed-$major"  # the major's soak lane starts on this build

    if [ $TIER = full ]; then
        step "[pg$major] reinstalled under a session that has the library mapped: every file renamed over, the session goes on"
        bash "$REPO/tests/atomic_install.sh" "$WORK/atomic_install$major"
    fi

    step "[pg$major] pg_regress suite (tests/regress) on a throwaway cluster, port $COMB_EXT_TEST_PORT"
    # Preloaded, so the suite also shows the library is safe to load before the postmaster forks.
    cluster_start "$cluster" "$COMB_EXT_TEST_PORT" "shared_preload_libraries = 'comb_ext'"
    rm -rf "$results"
    mkdir -p "$results"
    local status=0
    "$(dirname "$("$PG_CONFIG" --pgxs)")/../test/regress/pg_regress" \
        --bindir="$PGBIN" --host="$cluster" --port="$COMB_EXT_TEST_PORT" --user=postgres --dbname=comb_ext_regress \
        --inputdir="$REPO/tests/regress" --outputdir="$results" \
        --schedule="$REPO/tests/regress/schedule" || status=$?
    if [ $status -ne 0 ]; then
        [ -f "$results/regression.diffs" ] && cat "$results/regression.diffs"
        return $status
    fi

    step "[pg$major] names on the search_path, generated from the catalog: every function and argument written as a quoted literal, NULL, an untyped and a smallint parameter means what the typed call means; the docs' check query at its boundary; the control (CREATE granted on the path) must see planted functions take calls"
    "$VENV_PYTHON" "$REPO/tests/name_resolution.py" "$cluster" "$COMB_EXT_TEST_PORT"
}

# The quick tier's lane: the core, then one short cell of each harness class.
quick_lane() {
    local major=$1
    core_steps "$major"
    cluster_stop "$cluster"

    step "[pg$major] quick cell: one event-matrix row (cp -a of a stopped server, every generator, each configuration write)"
    "$VENV_PYTHON" "$REPO/tests/event_matrix.py" "$WORK/event_matrix$major" --pg-config "$PG_CONFIG" \
        --port-base $((COMB_EXT_TEST_PORT + 70)) --quick

    step "[pg$major] quick cell: watermarks, one family (comb_uuid()) for 10 s with 2,000 2PC churn cycles, and the control"
    bash "$REPO/tests/watermark.sh" "$WORK/watermark$major" --quick

    step "[pg$major] quick cell: one restart with the clock set back (faketime)"
    bash "$REPO/tests/restart.sh" "$WORK/restart$major" --quick

    step "[pg$major] quick cell: one clock step back under a running server (faketime)"
    bash "$REPO/tests/clock_step.sh" "$WORK/clock_step$major" --quick

    step "[pg$major] quick cell: the SQL edition installed by an unprivileged role, its vectors, the differential against the compiled edition on a sample"
    bash "$REPO/tests/portable.sh" "$WORK/portable$major" "$major" --quick
}

# One major, start to end, in the full gate. The build under test is a debug build (debug assertions and
# overflow checks in every suite; pg_regress's comb_order also needs calls slower than 1/4096 ms, which a
# release build is not); then the release build, for muid's run-ahead and the package. cargo pgrx test's build
# has the pg_test feature, so it cannot be the one installed: three compiles a major.
full_lane() {
    local major=$1
    core_steps "$major"

    step "[pg$major] text forms against Python's base64.b32hexencode and python-ulid: 100,000 uuids and bigints both ways, their order, every bad character at every position"
    cluster_psql "$cluster" "$COMB_EXT_TEST_PORT" -qAt -d postgres -c "DROP DATABASE IF EXISTS text_forms" -c "CREATE DATABASE text_forms"
    cluster_psql "$cluster" "$COMB_EXT_TEST_PORT" -qAt -d text_forms -c "CREATE EXTENSION comb_ext"
    "$VENV_PYTHON" "$REPO/tests/text_forms.py" "host=$cluster port=$COMB_EXT_TEST_PORT user=postgres dbname=text_forms" public
    cluster_psql "$cluster" "$COMB_EXT_TEST_PORT" -qAt -d postgres -c "DROP DATABASE text_forms"

    # In full on 15, on 10^5 ids elsewhere (the statistics scale their bounds to the count).
    local masking_size=--short
    [ "$major" = 15 ] && masking_size=
    step "[pg$major] keyed masking on its own servers: comb_mask equal to python-uuidv47 on 10,000 ids each way, the key unseen by every role and in no server log (a key passed as bytea is: the control), no key / malformed / not preloaded refused, rank correlation and bit balance of $([ -n "$masking_size" ] && echo 10^5 || echo 10^6) masked ids per family, lookups through unmask use the primary key"
    bash "$REPO/tests/masking.sh" "$WORK/masking$major" $masking_size

    step "[pg$major] pg_dump / pg_restore round trip"
    bash "$REPO/tests/dump_restore.sh" "$cluster" "$COMB_EXT_TEST_PORT"
    cluster_stop "$cluster"

    step "[pg$major] a misspelt comb_ext setting in postgresql.conf is reported"
    bash "$REPO/tests/misspelt_setting.sh" "$WORK/misspelt$major"

    step "[pg$major] sqlsmith: $SQLSMITH_QUERIES random queries over the catalog and comb_ext (seed $major; 20,000 split among ${FULL_MAJORS[*]}); every one run, comb_ext called, no backend crashed, the postmaster never restarted"
    bash "$REPO/tests/sqlsmith.sh" "$WORK/sqlsmith$major" "$SQLSMITH_QUERIES" "$major"

    step "[pg$major] uniqueness under load across three clusters, uid8 in bulk past what its generator ids make a millisecond (never past its run-ahead bound), and a backend's memory over 10 million calls"
    bash "$REPO/tests/uniqueness.sh" "$WORK/uniqueness$major"

    step "[pg$major] uid8_new at bulk speed: 8 sessions filling milliseconds, each claiming more generator ids; one session's later transactions claim theirs back at once"
    bash "$REPO/tests/uid8_bulk.sh" "$WORK/uid8_bulk$major"

    step "[pg$major] uid8 generator ids are not hoarded: 200 idle sessions after bulk inserts hold one id each, a new session in another database gets one"
    bash "$REPO/tests/uid8_hoarding.sh" "$WORK/uid8_hoarding$major"

    step "[pg$major] uid8 generator ids are shared fairly: 170 sessions of one role idle in transaction mid-bulk, another role in another database and a superuser get a first id, the role is refused past its share (53400)"
    bash "$REPO/tests/uid8_share.sh" "$WORK/uid8_share$major"

    step "[pg$major] comb_ext_adopt under load: a bigserial, an identity and a gen_random_uuid() key with a foreign-key child and 100,000 rows adopted while 8 sessions insert: no insert failed, no id twice, every later insert a new id above every old one, the child's key valid; the control (a spread default set by hand) caught"
    bash "$REPO/tests/adopt.sh" "$WORK/adopt$major"

    step "[pg$major] a streaming standby (pg_basebackup -R) beside its primary: identity-based generators refuse, no value twice"
    bash "$REPO/tests/standby.sh" "$WORK/standby$major"

    step "[pg$major] copies onto a new volume (loop-mounted fresh ext4, the source's inode number): cp -a with explicit identities and pg_basebackup with default ones recognised by the directory's birth time (55000); the volume remounted on another loop device and the directory renamed: nothing refused; cp -a onto xfs and btrfs; a block-level clone (alone here it goes on; beside its running source refused, the values held by the source; recognised under another or no /etc/machine-id); two overlayfs containers of one image: each recognised"
    bash "$REPO/tests/new_volume.sh" "$WORK/new_volume$major"

    step "[pg$major] active-active logical replication (16 and later): two primaries subscribed to each other with origin = none, 4 + 4 writers, every generator as a key, each server its own uid8 cluster id: no id made on both, every row on both, no apply error or conflict; the control (one uid8 cluster id and generator id on both) conflicts"
    "$VENV_PYTHON" "$REPO/tests/active_active.py" "$WORK/active_active$major" --pg-config "$PG_CONFIG" \
        --port-base $((COMB_EXT_TEST_PORT + 64))

    # In full on 15 (which has more slack), reduced on the other majors.
    local matrix_size=--short
    [ "$major" = 15 ] && matrix_size=
    step "[pg$major] the event matrix ($([ -n "$matrix_size" ] && echo reduced || echo full)): every generator after cp -a, a file copy of a running server during a backup, one backup restored twice, two promoted clones, failovers with the new primary's clock 1 s, 4 s and 60 s behind (faketime), pg_upgrade --copy and --link, then each kind of configuration write and the new values; copies of servers where each subset of generators ran; explicit values in the configuration file, a database's, a role's, first seen from a session with derived ones: 0 duplicates or the documented refusal (55000)"
    "$VENV_PYTHON" "$REPO/tests/event_matrix.py" "$WORK/event_matrix$major" --pg-config "$PG_CONFIG" \
        --port-base $((COMB_EXT_TEST_PORT + 70)) $matrix_size

    step "[pg$major] the clock set back under a running server and during waits (faketime): steps go on or wait only for values issued, one into the far past fails after comb_ext.max_clock_wait"
    bash "$REPO/tests/clock_step.sh" "$WORK/clock_step$major"

    step "[pg$major] damaged marks on disk (values past the format or a day past the clock, a dangling link) are refused with XX001, nothing spins"
    bash "$REPO/tests/damaged_marks.sh" "$WORK/damaged_marks$major"

    step "[pg$major] watermarks through crashes and clock steps: a killed backend's ids, prepared transactions across a postmaster kill -9 until COMMIT/ROLLBACK PREPARED, the clock set back an hour between polls (faketime)"
    bash "$REPO/tests/watermark_crash.sh" "$WORK/watermark_crash$major"

    step "[pg$major] prepared transactions' records of watermark holdings: at most one per prepared transaction, none from a failed PREPARE; per database; after a restart, a deleted, out-of-range or damaged record holds W at 1970 until the transaction ends"
    bash "$REPO/tests/watermark_prepared.sh" "$WORK/watermark_prepared$major"

    step "[pg$major] a disk that stalls every fsync of the marks for 10 s: generation goes on up to the mark written ahead, waits are cancelled within a second, nothing past the mark on disk after a kill -9"
    bash "$REPO/tests/stall.sh" "$WORK/stall$major"

    step "[pg$major] a full disk under the marks (a tmpfs): calls fail with 58030, no temporary file left, writes tried about once per 100 ms, not per call; dead processes' temporary files removed after a restart"
    bash "$REPO/tests/disk_full.sh" "$WORK/disk_full$major"

    step "[pg$major] a backend ends while its thread writes a stalled mark and its pid is reused: the family goes on (the backend waited for its thread)"
    bash "$REPO/tests/writer_exit.sh" "$WORK/writer_exit$major"

    step "[pg$major] the clock two days ahead and back under a running server (faketime): no value twice; after a restart every generator refuses (XX001) until the marks are recovered"
    bash "$REPO/tests/forward_jump.sh" "$WORK/forward_jump$major"

    step "[pg$major] clean, kill -9 and crash restarts with the clock set back 1 s, 1 min and 1 h across them (faketime): no value twice"
    bash "$REPO/tests/restart.sh" "$WORK/restart$major"

    step "[pg$major] quick restarts in a row: muid and the watermarks' floor stay where the first restart put them (0.5.0 crept 0.8 s a restart)"
    bash "$REPO/tests/quick_restarts.sh" "$WORK/quick_restarts$major"

    if [ "$major" = 15 ]; then
        step "[pg$major] a PREPARE that takes over a prepared transaction's slot while gdb holds a watermark scan half-way (comb, sno): W passes no id of it while it is prepared (0.5.0 passed it); skipped without gdb or ptrace"
        bash "$REPO/tests/watermark_interleaving.sh" "$WORK/watermark_interleaving$major"

    else
        echo "the watermark scan interleaved with gdb, and 0.4.0 beside this build: run on 15 only"
    fi

    step "[pg$major] partitioning by the time in the id with pg_partman (docs/partitioning.md): a set per family and format (encoder/decoder pairs, integer partitioning, by hand), 3 days of rows and the generators' own in the right child, retention, the default partition emptied, one day's range reads one child, the encoders' names planted on the search_path never called"
    bash "$REPO/tests/partman.sh" "$WORK/partman$major"

    timescaledb_step "$major"

    # The release build replaces the debug build under test: not installed before the soak lane is done with
    # it, but compiled now, while the soak lane mostly waits on its readers' timings; the install below then
    # finds it built.
    step "[pg$major] the release build, compiled beside the soak lane (installed when it ends)"
    (cd "$REPO" && "${NICE[@]}" cargo pgrx package --pg-config "$PG_CONFIG" --out-dir "$WORK/release-ahead$major" >/dev/null)
    rm -rf "$WORK/release-ahead$major"
    say "lane $major waits for its soak lane to end before installing the release build"
    waiting
    until [ -e "$WORK/lane-$major-soaks.ended" ]; do sleep 2; done

    # After the soak lane: this installs 0.4.0's library for a while, and a soak's new session would load it
    # (seen: "could not find function sno_watermark_wrapper").
    if [ "$major" = 15 ]; then
        step "[pg$major] 0.4.0 and this build under one running server (upgrade without a restart): 8 + 8 sessions, one generator per family, no value twice"
        bash "$REPO/tests/upgrade_in_place.sh" "$WORK/upgrade_in_place$major"
    fi

    step "[pg$major] the release build, installed: uid8's run-ahead, muid's (18) and the package use it"
    COMB_EXT_PROFILE=release "${NICE[@]}" bash "$REPO/scripts/install.sh" --pg-config "$PG_CONFIG" >/dev/null

    # A release build, so that one session's IDs outrun the 64 a millisecond of one generator id by far even on
    # a loaded machine (a debug build's calls, a few µs each, can come slower than one per 15.6 µs under load).
    step "[pg$major] uid8 running ahead of the clock at its bounds (2 s, 300 ms, 0): never past the bound and the bound reached; a generator id handed over 1.9 s ahead; kill -9 right after a burst; the clock set back an hour; the library renamed under the running server stops it, with a LOG (release build)"
    bash "$REPO/tests/uid8_run_ahead.sh" "$WORK/uid8_run_ahead$major"

    # A release build: in a debug build one session's calls come slower than one a µs and never run ahead.
    if [ "$major" = 18 ]; then
        step "[pg$major] a burst of muid_new() runs the timeline at most 2 s ahead of the clock, seen from another database; after a restart and a clock set back an hour it goes on ahead at once (release build)"
        bash "$REPO/tests/muid_run_ahead.sh" "$WORK/muid_run_ahead$major"
    else
        echo "the bound on muid's run-ahead: run on 18 only"
    fi

    step "[pg$major] the Debian package from that release build: its files at this major's paths (15: installed with apt-get and used)"
    "${NICE[@]}" bash "$REPO/tests/package.sh" "$major" "$WORK/package$major"
}

# The major's long soaks, in a lane beside the major's own (not counted in COMB_EXT_LANES: it sleeps until
# that lane has installed the debug build, then overlaps that lane's steps), on a port block of its own.
soak_lane() {
    local major=$1
    say "lane $major-soaks waits for lane $major to install the extension"
    waiting
    until [ -e "$WORK/installed-$major" ]; do
        [ -e "$WORK/lane-$major.ended" ] && { echo "lane $major ended before it installed the extension"; return 1; }
        sleep 2
    done
    use_server "$major" "$major-soaks"

    step "[pg$major] the SQL edition (portable/): psql -f and pg_tle installs by a role with only CREATE on one schema, tests/vectors, uninstall, differential against the compiled edition"
    bash "$REPO/tests/portable.sh" "$WORK/portable$major" "$major"

    # The harness at full length on 18, shorter on the other majors (it is timing-free, so only its reach changes).
    # On 15 instead, 18's lane ended first and ran its release-build muid_run_ahead.sh beside 15's long soaks and
    # release build, too slowly to run ahead (the cached gate on f89bd81 failed there); from nothing, 18's own
    # lane is the critical path either way.
    local watermark_seconds=15 churn_cycles=25000
    [ "$major" = 18 ] && watermark_seconds=60 churn_cycles=100000
    step "[pg$major] readers following ids in order with the watermarks: 16 writers (savepoints, rollbacks, 2PC, long transactions), 2 readers, $watermark_seconds s per family; 2PC churn, $churn_cycles cycles for comb and a quarter for each other family; no committed row skipped; the control (W from the clock) skips"
    COMB_EXT_WATERMARK_CONTROL_SECONDS=5 bash "$REPO/tests/watermark.sh" "$WORK/watermark$major" "$watermark_seconds" "$churn_cycles"

    if bash "$REPO/scripts/citus.sh" available "$major"; then
        step "[pg$major] Citus: a coordinator and two workers, every generator as a distributed key, 12 sessions on three nodes, plans on the shards, readers in id order through the coordinator (10 s per family)"
        "${NICE[@]}" bash "$REPO/scripts/citus.sh" build "$major"
        bash "$REPO/tests/citus.sh" "$WORK/citus$major"
        echo "citus: passed"
    else
        echo "citus: not run on $major (Citus 14 runs on 16.5 and later 16s, 17 and 18, from ../shared/third_party/citus-14.0.1.tar.gz; 16 here is 16.2)"
    fi

    # Builds the major's lane makes after this lane ends, made here once the soaks are done, while that lane
    # may still run its suite (from nothing, 15's soak lane ended 15 minutes before 15's lane, which then
    # built both): the release build (one target for both lanes: cargo's lock lets one build it and the
    # other find it made) and, on 15, the earlier releases tests/upgrade_in_place.sh installs.
    step "[pg$major] compiled ahead for lane $major: the release build$([ "$major" = 15 ] && echo ", 0.4.0 and 0.3.0 for the in-place upgrade")"
    (cd "$REPO" && "${NICE[@]}" cargo pgrx package --pg-config "$PG_CONFIG" --out-dir "$WORK/release-ahead-soaks$major" >/dev/null)
    rm -rf "$WORK/release-ahead-soaks$major"
    if [ "$major" = 15 ]; then
        "${NICE[@]}" bash "$REPO/tests/upgrade_in_place.sh" "$WORK/upgrade_in_place$major" --build-only
    fi
}

# TimescaleDB on its major when the suite does not run there: comb_ext installed (debug build) and the test.
timescaledb_lane() {
    local major=$1
    use_server "$major"
    step "[pg$major] comb_ext installed for TimescaleDB alone (the rest of the suite runs on $major in scripts/matrix.sh)"
    "${NICE[@]}" bash "$REPO/scripts/install.sh" --pg-config "$PG_CONFIG" >/dev/null
    timescaledb_step "$major"
}

# background COMMAND...: a lane off the critical path (lint, loom, masking, fuzzing; TimescaleDB alone on 16), all of
# it (builds, servers, fuzzers) at the lowest priority, so it takes only the CPU the majors' lanes leave: from
# nothing, its builds had the same share of the 2 cores as 18's server and cargo pgrx test builds, the critical
# path. It has no timed check, and is not counted among COMB_EXT_LANES.
background() {
    renice -n 19 -p "$BASHPID" >/dev/null
    "$@"
}

# Lanes: NAME|FUNCTION ARGS, run at most LANES at once, each in a subshell under set -e with its output in
# $WORK/lane-NAME.log, printed whole when it ends.
lanes=()
if [ $TIER = quick ]; then
    lanes+=("lint|background lint")
    for major in "${MAJORS[@]}"; do lanes+=("$major|quick_lane $major"); done
else
    for major in "${MAJORS[@]}"; do lanes+=("$major|full_lane $major"); done
    lanes+=("once|background once_lane")
    # TimescaleDB's pinned release builds against 14-17: its test runs in the lane of each major given there, and
    # on 16 in a lane of its own (comb_ext installed for it alone) when fewer than two are given: 16 is unpacked
    # from a wheel, not built, so this costs a minute and a debug build.
    timescaledb_majors=0
    for major in "${MAJORS[@]}"; do
        if [ "$major" -ge 14 ] && [ "$major" -le 17 ]; then timescaledb_majors=$((timescaledb_majors + 1)); fi
    done
    if [ $timescaledb_majors -lt 2 ] && ! grep -qx 16 <(printf '%s\n' "${MAJORS[@]}"); then
        lanes+=("16-timescaledb|background timescaledb_lane 16")
    fi
fi
declare -A LANE_OF_PID=() LANE_STARTED=() LANE_RESULT=() LANE_SECONDS=() LANE_COUNTED=() COMPANION=()
# Each major's soak lane starts with the major's lane and is not counted among COMB_EXT_LANES (see soak_lane).
if [ $TIER = full ]; then
    for major in "${MAJORS[@]}"; do COMPANION[$major]="$major-soaks|soak_lane $major"; done
fi
running=0
started_lanes=()
passed=()
failed=()

start_lane() {
    local name=${1%%|*} command=${1#*|} counted=${2:-1}
    [[ $command != "background "* ]] || counted=0
    say "lane $name started: $command"
    (
        set -e
        STEPS_FILE="$WORK/steps-$name.tsv"
        # shellcheck disable=SC2086 # the command's words
        $command
    ) >"$WORK/lane-$name.log" 2>&1 &
    LANE_OF_PID[$!]=$name
    LANE_STARTED[$name]=$(date +%s)
    LANE_COUNTED[$name]=$counted
    started_lanes+=("$name")
    running=$((running + counted))
    [ -z "${COMPANION[$name]:-}" ] || start_lane "${COMPANION[$name]}" 0
}

finish_lane() {
    local pid=$1 status=$2 name=${LANE_OF_PID[$1]}
    unset "LANE_OF_PID[$pid]"
    running=$((running - LANE_COUNTED[$name]))
    touch "$WORK/lane-$name.ended"
    LANE_SECONDS[$name]=$(($(date +%s) - LANE_STARTED[$name]))
    printf '%s\t%s\n' "$(date +%s)" "(end)" >>"$WORK/steps-$name.tsv"
    if [ "$status" -eq 0 ]; then LANE_RESULT[$name]=passed; passed+=("$name"); else LANE_RESULT[$name]=FAILED; failed+=("$name"); fi
    say "lane $name ${LANE_RESULT[$name]} in $((LANE_SECONDS[$name] / 60)) min $((LANE_SECONDS[$name] % 60)) s; its log ($WORK/lane-$name.log):"
    cat "$WORK/lane-$name.log"
    say "end of lane $name's log (${LANE_RESULT[$name]})"
}

next=0
while [ $next -lt ${#lanes[@]} ] || [ ${#LANE_OF_PID[@]} -gt 0 ]; do
    while [ $next -lt ${#lanes[@]} ] && [ $running -lt "$LANES" ]; do
        start_lane "${lanes[next]}"
        next=$((next + 1))
    done
    status=0
    wait -n -p done_pid "${!LANE_OF_PID[@]}" || status=$?
    finish_lane "$done_pid" "$status"
done

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
minutes() { printf '%d min %02d s' $(($1 / 60)) $(($1 % 60)); }

say "summary ($TIER tier)"
echo "| lane | result | cargo pgrx test | pg_regress | Citus | pg_partman | TimescaleDB | wall time |"
echo "|---|---|---|---|---|---|---|---|"
for name in "${started_lanes[@]}"; do
    log="$WORK/lane-$name.log"
    case $name in
        once | lint)
            printf '| %s | %s | | | | | | %s |\n' "$name (lint$([ "$name" = once ] && echo ", loom, masking, fuzz"))" \
                "${LANE_RESULT[$name]}" "$(minutes "${LANE_SECONDS[$name]}")" ;;
        *-soaks)
            printf '| %s | %s | | | | | | %s |\n' "${name%-soaks} (soaks: the SQL edition, watermarks, Citus)" \
                "${LANE_RESULT[$name]}" "$(minutes "${LANE_SECONDS[$name]}")" ;;
        *-timescaledb)
            printf '| %s | %s | not run | not run | not run | not run (TimescaleDB only) | %s | %s |\n' \
                "${name%-timescaledb} (TimescaleDB only)" "${LANE_RESULT[$name]}" "$(partitioning_result timescaledb "$log")" \
                "$(minutes "${LANE_SECONDS[$name]}")" ;;
        *)
            # Counts from the runners' own closing lines.
            rust=$(grep -E '^test result: ' "$log" | awk '{p += $4; f += $6} END {printf "%d passed, %d failed", p, f}' || true)
            regress=$(grep -E 'tests passed|tests failed|All [0-9]+ tests' "$log" | tail -n1 | sed 's/^[# ]*//' || true)
            if [ $TIER = quick ]; then
                citus="not run (quick)" partman="not run (quick)" timescaledb="not run (quick)"
            else
                # Citus runs in the major's soak lane.
                citus=$(grep -hE '^citus: ' "$WORK/lane-$name-soaks.log" 2>/dev/null | tail -n1 | sed 's/^citus: //' || true)
                partman=$(partitioning_result partman "$log") timescaledb=$(partitioning_result timescaledb "$log")
            fi
            printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "${LANE_RESULT[$name]}" "$rust" "${regress:-none}" \
                "${citus:-FAILED}" "$partman" "$timescaledb" "$(minutes "${LANE_SECONDS[$name]}")" ;;
    esac
done
grep -h '^fuzz: ' "$WORK/lane-once.log" 2>/dev/null || [ $TIER = quick ] || echo "fuzz: FAILED"
echo "wall time: $(minutes $(($(date +%s) - GATE_STARTED))) for the $TIER tier; lanes: $(for n in "${started_lanes[@]}"; do
    printf '%s %s; ' "$n" "$(minutes "${LANE_SECONDS[$n]}")"; done | sed 's/; $//')"
echo "the three longest steps:"
# awk, not head: head's early exit would end sort with SIGPIPE, which pipefail makes the run's status (141).
for n in "${started_lanes[@]}"; do
    # A record "(wait)" ends the step before it: time spent waiting on another lane is no step's.
    awk -F'\t' -v lane="$n" 'NR > 1 && s != "(wait)" { printf "%d\t%s\t%s\n", $1 - t, lane, s } { t = $1; s = $2 }' "$WORK/steps-$n.tsv" 2>/dev/null
done | sort -rn | awk 'NR <= 3' | while IFS=$'\t' read -r s lane text; do
    echo "  $(minutes "$s")  [$lane] ${text:0:150}"
done
# A failed lane's step and its log's last lines once more, at the very end: CI may keep only the output's tail.
for name in "${failed[@]}"; do
    last_step=$(awk -F'\t' '$2 != "(wait)" && $2 != "(end)" { s = $2 } END { print (s == "" ? "(before its first step)" : s) }' "$WORK/steps-$name.tsv" 2>/dev/null)
    echo "lane $name FAILED in its step: ${last_step:0:200}"
    tail -n 40 "$WORK/lane-$name.log" | sed "s/^/  [$name] /"
done
echo "test: ${#passed[@]} passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
