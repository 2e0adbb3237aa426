#!/usr/bin/env bash
# A package upgrade under a running server that does not preload comb_ext: sessions that loaded the
# 0.4.0 library keep it, new sessions load this one, and both must draw from one generator per
# family (the shared-memory structs keep their names and layouts: docs/upgrading.md, "Upgrading the package
# under a running server"). 0.4.0 (commit ed3c08e) is built from the repo's history and installed
# by rename into the server's directories; 8 sessions load it and stay open; this build is installed
# with scripts/install.sh; 8 new sessions load it. /proc/PID/maps must show the old sessions on the
# old file (deleted, its inode) and the new ones on the new file. Then all 16 sessions generate at
# once, 20,000 values each, for sno_new(), muid_new(), uid8_new('spread') and
# uid8_new('time_sequential'): no value may appear twice. This build is left installed.
#   bash tests/upgrade_in_place.sh WORK_DIR [--build-only]
#     (expects `scripts/pg.sh pgrx-init` to have run; builds 0.4.0 and 0.3.0 in
#     $COMB_EXT_TARGET/old-VERSION-pgNN-lt (default target/), then with --build-only stops there; port
#     COMB_EXT_TEST_PORT + 30, default 54360)
# The control (shows the test can fail): COMB_EXT_INPLACE_OLD_STAGE=DIR installs the `cargo pgrx
# package --out-dir` tree in DIR as the old library instead of 0.4.0. Built by hand from 0.4.0 with
# the sno and muid structs renamed, the two versions keep two generators each and repeat values:
#   git archive ed3c08e | tar -x -C /tmp/v && cd /tmp/v &&
#   sed -i 's/generator v2/generator vX/; s/timeline v2/timeline vX/' src/families/sno.rs src/families/muid.rs &&
#   cargo pgrx package --pg-config "$PG_CONFIG" --debug --out-dir /tmp/v-stage
#   COMB_EXT_INPLACE_OLD_STAGE=/tmp/v-stage bash tests/upgrade_in_place.sh /tmp/w   (fails: sno, muid)
# Then 0.3.0 (commit 5cd2866) beside this build, uid8 only: 0.3.0's sno and muid structs are refused
# both ways (the #[pg_test] an_older_layout_in_the_server_is_refused_whichever_attached_first), but its
# uid8_new keeps nothing in shared memory, so nothing tells its sessions from 0.4.0's and later ones'
# and it is not refused. It takes the same lock for a generator id as this version
# (src/families/uid8.rs, lock_tag), and both versions start an id after the millisecond they claim
# it in and never issue ahead of a clock that does not step back: an id passes from one to the other
# without a repeat. 8 sessions on 0.3.0 and 8 on this build all pin generator id 5 and take turns on it
# (640 IDs, then pg_advisory_unlock_all()), 100 attempts each; an attempt while another session
# holds it fails with 55P03, the only error allowed. No ID twice, and the id passed between the
# versions at least 10 times. The control: COMB_EXT_INPLACE_OLD3_STAGE=DIR, a 0.3.0 whose lock differs:
#   git archive 5cd2866 | tar -x -C /tmp/v3 && cd /tmp/v3 && sed -i 's/locktag_field4: 8/locktag_field4: 9/' src/uid8.rs &&
#   cargo pgrx package --pg-config "$PG_CONFIG" --debug --out-dir /tmp/v3-stage   (its own target directory)
#   COMB_EXT_INPLACE_OLD3_STAGE=/tmp/v3-stage bash tests/upgrade_in_place.sh /tmp/w   (fails: uid8 hand-over)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=$1
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 30))
RELEASE=ed3c08e # 0.4.0
RELEASE_UID8=5cd2866 # 0.3.0: uid8 beside this build
SESSIONS=8      # per library
PER_SESSION=${COMB_EXT_INPLACE_PER_SESSION:-20000}
major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
library="$("$PG_CONFIG" --pkglibdir)/comb_ext.so"
cluster="$WORK/cluster"
mkdir -p "$WORK"
chown postgres:postgres "$WORK"

# build_release COMMIT VERSION: the package tree of an earlier release, in $WORK/stage-VERSION. A
# target directory per release (cargo pgrx package takes target/debug/libcomb_ext.so, which a build
# that finds the release fresh does not write again: two releases in one directory would package
# each other's library). A fixed source path, so cargo's fingerprints hold and a re-run builds nothing; tar
# keeps the commit's mtimes.
# A new target directory starts from the dependencies this lane's own debug build made ($CARGO_TARGET_DIR, under
# cargo's lock, comb_ext's own files left out): the releases pin the same dependencies, and with every crate's
# debug info as line tables (this tree's [profile.dev.package."*"], which the releases' Cargo.toml lacks, given
# here for their whole build) cargo finds them fresh. Measured on 15: 0.4.0's build took 5 s instead of 67 s
# at full speed (101 crates); from nothing it was one of three builds in 15's soak lane's 17 minutes. 0.3.0
# starts from 0.4.0's, whose Cargo.lock is the same.
OLD_PROFILE=(env CARGO_PROFILE_DEV_DEBUG=line-tables-only CARGO_PROFILE_DEV_BUILD_OVERRIDE_DEBUG=line-tables-only)
seed_target() {
    local target=$1 from=${CARGO_TARGET_DIR:-}/debug
    [ -n "${CARGO_TARGET_DIR:-}" ] && [ -f "$from/.cargo-lock" ] || return 0
    mkdir -p "$target/debug/deps"
    # shellcheck disable=SC2016 # expanded by the inner shell
    flock "$from/.cargo-lock" bash -c 'cp -a "$1/build" "$1/.fingerprint" "$2/debug/" &&
        find "$1/deps" -mindepth 1 -maxdepth 1 ! -name "*comb_ext*" -exec cp -a -t "$2/debug/deps" {} +' _ "$from" "$target"
    rm -rf "$target"/debug/.fingerprint/comb_ext-* "$target"/debug/build/comb_ext-*
}
build_release() {
    local commit=$1 version=$2 targets target source_dir started
    targets="${COMB_EXT_TARGET:-$REPO/target}"
    # "-lt": built with OLD_PROFILE; the directories of full debug info before it are not reused.
    rm -rf "$targets/old-$version-pg$major"
    target="$targets/old-$version-pg$major-lt"
    if [ ! -d "$target" ] && [ -d "$targets/old-0.4.0-pg$major-lt" ]; then
        cp -a "$targets/old-0.4.0-pg$major-lt" "$target"
    elif [ ! -d "$target" ]; then
        seed_target "$target"
    fi
    source_dir="$target/source"
    rm -rf "$source_dir"
    mkdir -p "$source_dir"
    git -C "$REPO" archive "$commit" | tar -x -C "$source_dir"
    rm -rf "$WORK/stage-$version"
    started=$(date +%s)
    (cd "$source_dir" && CARGO_TARGET_DIR="$target" "${OLD_PROFILE[@]}" cargo pgrx package --pg-config "$PG_CONFIG" --debug \
        --out-dir "$WORK/stage-$version" >"$WORK/build-$version.log" 2>&1) || { tail -n 30 "$WORK/build-$version.log" >&2; exit 1; }
    echo "upgrade_in_place: $version ($commit) built for PostgreSQL $major in $target ($(($(date +%s) - started)) s)"
}
old_stage=${COMB_EXT_INPLACE_OLD_STAGE:-}
if [ -z "$old_stage" ]; then
    build_release "$RELEASE" 0.4.0
    old_stage="$WORK/stage-0.4.0"
fi
old3_stage=${COMB_EXT_INPLACE_OLD3_STAGE:-}
if [ -z "$old3_stage" ]; then
    build_release "$RELEASE_UID8" 0.3.0
    old3_stage="$WORK/stage-0.3.0"
fi
for stage in "$old_stage" "$old3_stage"; do
    [ -f "$stage$library" ] || { echo "upgrade_in_place: no $library in $stage" >&2; exit 1; }
done
[ "${2:-}" != --build-only ] || exit 0
# This build first, so the reinstall under the old sessions only renames (and another test's new
# sessions meet the old library for as short a time as can be).
bash "$REPO/scripts/install.sh" --pg-config "$PG_CONFIG" >/dev/null

# install_stage DIR: every file of a package tree renamed into place beside its target, as dpkg
# and scripts/install.sh do (the library last).
install_stage() {
    local stage=$1 f dest tmp
    while IFS= read -r -d '' f; do
        dest=${f#"$stage"}
        tmp=$(mktemp "$(dirname "$dest")/.$(basename "$dest").XXXXXX")
        cp "$f" "$tmp"
        case $dest in *.so) chmod 0755 "$tmp" ;; *) chmod 0644 "$tmp" ;; esac
        mv -fT "$tmp" "$dest"
    done < <(find "$stage" -type f ! -name '*.so' -print0 | sort -z; find "$stage" -type f -name '*.so' -print0)
}

declare -A FD PID
NAMES=()
old_installed=0
# shellcheck disable=SC2317  # run by the trap
cleanup() {
    local name fd
    # End of input ends a session.
    for name in "${!FD[@]}"; do
        fd=${FD[$name]}
        exec {fd}>&-
    done
    cluster_stop "$cluster" || as_postgres "$PGBIN/pg_ctl" -D "$cluster" -m immediate -w stop >/dev/null
    # Never leave the old release installed: the rest of the test command runs after this.
    [ "$old_installed" -eq 0 ] || bash "$REPO/scripts/install.sh" --pg-config "$PG_CONFIG" >/dev/null
}
cluster_stop "$cluster"
trap cleanup EXIT
rm -rf "$cluster" "$WORK/sessions" "$WORK/out"
mkdir -p "$WORK/sessions" "$WORK/out"
chown postgres:postgres "$WORK/out"
cluster_start "$cluster" "$PORT" "max_connections = 40"

# A session is a psql reading statements from a FIFO that this script holds open; its output and
# errors go to files. \echo MARKER after a batch says the batch is done. An error does not end the
# session, so the other values are still counted (and the error fails the test at the end).
open_session() {
    local name=$1 fd
    mkfifo "$WORK/sessions/$name.in"
    PGAPPNAME="inplace_$name" cluster_psql "$cluster" "$PORT" -d postgres -qAt -v ON_ERROR_STOP=0 <"$WORK/sessions/$name.in" \
        >"$WORK/sessions/$name.log" 2>"$WORK/sessions/$name.err" &
    PID[$name]=$!
    exec {fd}>"$WORK/sessions/$name.in"
    FD[$name]=$fd
}
# end_sessions: closes every session's input, which ends it, and waits for them.
end_sessions() {
    local name fd
    for name in "${!FD[@]}"; do
        fd=${FD[$name]}
        exec {fd}>&-
        unset "FD[$name]"
    done
    wait
}
send() {
    kill -0 "${PID[$1]}" 2>/dev/null || { echo "upgrade_in_place: session $1 has ended: $(cat "$WORK/sessions/$1.err")" >&2; return 1; }
    printf '%s\n' "$2" >&"${FD[$1]}"
}
# await NAME MARKER: until the session has printed MARKER (10 minutes at most).
await() {
    for _ in $(seq 1 6000); do
        grep -qx -- "$2" "$WORK/sessions/$1.log" && return 0
        kill -0 "${PID[$1]}" 2>/dev/null || { echo "upgrade_in_place: session $1 has ended: $(cat "$WORK/sessions/$1.err")" >&2; return 1; }
        sleep 0.1
    done
    echo "upgrade_in_place: session $1 did not print $2" >&2
    return 1
}
sql() { cluster_psql "$cluster" "$PORT" -d postgres -qAt -c "$1"; }
pid_of() { sql "SELECT pid FROM pg_stat_activity WHERE application_name = 'inplace_$1'"; }
# mapped PID: the inode of the comb_ext.so the backend has mapped, and "(deleted)" if it was renamed over.
mapped() { grep -F "$library" "/proc/$1/maps" | awk '{print $5, $7}' | sort -u; }
# The first call of each generator attaches its struct in this library.
FIRST_CALLS="SELECT comb_uuid() IS NOT NULL, sno_new() IS NOT NULL, muid_new() IS NOT NULL, uid8_new('spread') IS NOT NULL, uid8_new('time_sequential') IS NOT NULL;"

# sessions_on_this_library PREFIX: SESSIONS sessions named PREFIX1.., each with its first calls
# made (so its backend has loaded the library installed now), and ready.
sessions_on_this_library() {
    local s
    for s in $(seq 1 "$SESSIONS"); do
        open_session "$1$s"
        NAMES+=("$1$s")
        send "$1$s" "$FIRST_CALLS"$'\n\\echo ready'
    done
    for s in $(seq 1 "$SESSIONS"); do await "$1$s" ready; done
}

# check_sessions OLD_PREFIX OLD_INODE NEW_INODE FIRST_CALLS_ANSWER: each session of NAMES answered
# its first calls, and its backend has mapped the old library's file (deleted) or the new one's.
check_sessions() {
    local name pid want status=0
    for name in "${NAMES[@]}"; do
        if [ "$(sed -n 1p "$WORK/sessions/$name.log")" != "$4" ]; then
            echo "upgrade_in_place: session $name's first calls: $(cat "$WORK/sessions/$name.log" "$WORK/sessions/$name.err")" >&2
            status=1
        fi
        pid=$(pid_of "$name")
        want="$3 "
        [ "${name#"$1"}" != "$name" ] && want="$2 (deleted)"
        if [ "$(mapped "$pid")" != "$want" ]; then
            echo "upgrade_in_place: session $name (backend $pid) has mapped '$(mapped "$pid")', expected '$want'" >&2
            status=1
        fi
    done
    [ $status -eq 0 ] || exit 1
    echo "upgrade_in_place: $SESSIONS backends have the old comb_ext.so mapped (inode $2, deleted), $SESSIONS the new one (inode $3)"
}

install_stage "$old_stage"
old_installed=1
old_inode=$(stat -c %i "$library")
sql "CREATE EXTENSION comb_ext"
sessions_on_this_library old

bash "$REPO/scripts/install.sh" --pg-config "$PG_CONFIG" >/dev/null
old_installed=0
new_inode=$(stat -c %i "$library")
sessions_on_this_library new
echo "upgrade_in_place: old library inode $old_inode ($(basename "$old_stage")), this build's inode $new_inode"
check_sessions old "$old_inode" "$new_inode" "t|t|t|t|t"
status=0

# Every session of a round waits on an advisory lock the controller holds, so all 16 start together.
open_session ctl
GENERATORS=("sno|sno_new()" "muid|muid_new()" "uid8_spread|uid8_new('spread')"
            "uid8_time_sequential|uid8_new('time_sequential')")
for spec in "${GENERATORS[@]}"; do
    IFS='|' read -r label expression <<<"$spec"
    send ctl $'SELECT pg_advisory_lock(7366, 30);\n\\echo '"locked-$label"
    await ctl "locked-$label"
    for name in "${NAMES[@]}"; do
        send "$name" "\\o /dev/null
SELECT pg_advisory_lock_shared(7366, 30);
SELECT pg_advisory_unlock_shared(7366, 30);
\\o $WORK/out/$label.$name
SELECT $expression FROM generate_series(1, $PER_SESSION);
\\o
\\echo done-$label"
    done
    for _ in $(seq 1 600); do
        waiting=$(sql "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 7366 AND objid = 30 AND NOT granted")
        [ "$waiting" -eq ${#NAMES[@]} ] && break
        sleep 0.1
    done
    [ "$waiting" -eq ${#NAMES[@]} ] || { echo "upgrade_in_place: $waiting of ${#NAMES[@]} sessions at the start of $label" >&2; exit 1; }
    send ctl $'SELECT pg_advisory_unlock(7366, 30);'
    for name in "${NAMES[@]}"; do await "$name" "done-$label"; done
done

for spec in "${GENERATORS[@]}"; do
    IFS='|' read -r label _ <<<"$spec"
    made=$(cat "$WORK/out/$label".* | wc -l)
    repeated=$(cat "$WORK/out/$label".* | sort | uniq -d | wc -l)
    old_new=$(cat "$WORK/out/$label".old* | sort -u | comm -12 - <(cat "$WORK/out/$label".new* | sort -u) | wc -l)
    echo "$label: $made values from $SESSIONS old + $SESSIONS new sessions, $repeated repeated ($old_new made by both an old and a new session)"
    if [ "$made" -ne $((2 * SESSIONS * PER_SESSION)) ] || [ "$repeated" -ne 0 ]; then
        echo "FAILED: $label" >&2
        status=1
    fi
done
if cat "$WORK/sessions/"*.err | grep . >&2; then
    echo "upgrade_in_place: errors in the sessions (above)" >&2
    status=1
fi
if grep -E "terminated by signal|reinitializing" "$cluster/server.log" >&2; then
    echo "upgrade_in_place: a backend crashed (server log above)" >&2
    status=1
fi

# The restart that completes the upgrade: the old sessions end, and the first call of each family
# reads both versions' marks (0.4.0's comb_ext/sno and the others, this version's sno.mark and the
# others) before it takes the generator's lock, and resumes past both. Nothing made before repeats.
# 0.4.0's file is removed by a start that finds this version's covering it: no file is written under
# the lock, so the first write ahead after this restart makes the new file cover the old, and the
# next restart removes the old.
end_sessions
cluster_stop "$cluster"
before=$(cd "$cluster/comb_ext" && ls | tr '\n' ' ')
cluster_start "$cluster" "$PORT"
for spec in "${GENERATORS[@]}"; do
    IFS='|' read -r label expression <<<"$spec"
    sql "COPY (SELECT $expression FROM generate_series(1, $PER_SESSION)) TO STDOUT" >"$WORK/out/$label.after"
    repeated=$(cat "$WORK/out/$label".* | sort | uniq -d | wc -l)
    echo "$label after the restart: $PER_SESSION more values, $repeated repeated"
    [ "$repeated" -eq 0 ] || { echo "FAILED: $label after the restart" >&2; status=1; }
done
cluster_stop "$cluster"
cluster_start "$cluster" "$PORT"
for spec in "${GENERATORS[@]}"; do
    IFS='|' read -r label expression <<<"$spec"
    sql "SELECT $expression" >/dev/null
done
after=$(cd "$cluster/comb_ext" && ls | tr '\n' ' ')
echo "upgrade_in_place: comb_ext/ held ${before}before the restart, ${after}after a second one"
# This version's marks are there, 0.4.0's are gone (other files, like the watermarks' floor, may be).
for family in sno muid uid8; do
    case " $after" in *" $family.mark "*) ;; *) echo "FAILED: no $family.mark after the restart" >&2; status=1 ;; esac
    case " $after" in *" $family "*) echo "FAILED: 0.4.0's $family was not folded in" >&2; status=1 ;; esac
done

# ---- 0.3.0's uid8_new beside this build (the header says why it is not refused) ----
ROUNDS=100
NAMES=()
FIRST_CALLS="SELECT uid8_new('spread') IS NOT NULL, uid8_new('time_sequential') IS NOT NULL;"
install_stage "$old3_stage"
old_installed=1
old3_inode=$(stat -c %i "$library")
sessions_on_this_library v3_
bash "$REPO/scripts/install.sh" --pg-config "$PG_CONFIG" >/dev/null
old_installed=0
new_inode=$(stat -c %i "$library")
sessions_on_this_library now_
check_sessions v3_ "$old3_inode" "$new_inode" "t|t"
turn="SELECT uid8_new('time_sequential') FROM generate_series(1, 640);
SELECT pg_advisory_unlock_all();
SELECT pg_sleep(0.02);"
for name in "${NAMES[@]}"; do
    : >"$WORK/sessions/$name.err"
    send "$name" "SET comb_ext.uid8_generator_id = 5;
\\o $WORK/out/handover.$name
$(for _ in $(seq 1 $ROUNDS); do echo "$turn"; done)
\\o
\\echo done-handover"
done
for name in "${NAMES[@]}"; do await "$name" done-handover; done
end_sessions
# Each turn that held the id wrote 640 IDs; sorted, the turns' first IDs give the order in which the
# sessions held it (time_sequential IDs of one generator id sort by time).
for name in "${NAMES[@]}"; do
    grep -v '^$' "$WORK/out/handover.$name" >"$WORK/out/handover.$name.ids" || true
    awk -v who="${name%%_*}" 'NR % 640 == 1 { print $1, who }' "$WORK/out/handover.$name.ids"
done | sort -n >"$WORK/out/handover.turns"
made=$(cat "$WORK/out/handover."*.ids | wc -l)
distinct=$(cat "$WORK/out/handover."*.ids | sort -u | wc -l)
turns_v3=$(grep -c ' v3$' "$WORK/out/handover.turns" || true)
turns_now=$(grep -c ' now$' "$WORK/out/handover.turns" || true)
passes=$(awk 'NR > 1 && $2 != last { n++ } { last = $2 } END { print n + 0 }' "$WORK/out/handover.turns")
refused=$(cat "$WORK/sessions/"*.err | grep -c "generator id 5 of cluster id 0 is held by another session" || true)
other_errors=$(cat "$WORK/sessions/"*.err | grep -v -e "generator id 5 of cluster id 0 is held by another session" \
    -e "HINT:  Pin another comb_ext.uid8_generator_id" || true)
echo "uid8 with 0.3.0 beside this build, all on generator id 5: $made IDs in $turns_v3 turns of 0.3.0's sessions and $turns_now of this build's, the id passed between the versions $passes times, $refused attempts refused with 55P03; $distinct distinct"
if [ "$made" -ne "$distinct" ] || [ "$made" -ne $(((turns_v3 + turns_now) * 640)) ]; then
    echo "FAILED: uid8 hand-over between 0.3.0 and this build repeated an ID" >&2
    status=1
fi
[ "$passes" -ge 10 ] || { echo "FAILED: the id passed between the versions only $passes times (at least 10 needed for the test to mean anything)" >&2; status=1; }
[ -z "$other_errors" ] || { echo "FAILED: errors other than 55P03 in the sessions: $other_errors" >&2; status=1; }
if grep -E "terminated by signal|reinitializing" "$cluster/server.log" >&2; then
    echo "upgrade_in_place: a backend crashed (server log above)" >&2
    status=1
fi
exit $status
