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
#   bash tests/upgrade_in_place.sh WORK_DIR   (expects `scripts/pg.sh pgrx-init` to have run; builds
#                                             0.4.0 in $COMB_EXT_TARGET/old-0.4.0-pgNN (default target/); port COMB_EXT_TEST_PORT
#                                             + 30, default 54360)
# The control (shows the test can fail): COMB_EXT_INPLACE_OLD_STAGE=DIR installs the `cargo pgrx
# package --out-dir` tree in DIR as the old library instead of 0.4.0. Built by hand from 0.4.0 with
# the sno and muid structs renamed, the two versions keep two generators each and repeat values:
#   git archive ed3c08e | tar -x -C /tmp/v && cd /tmp/v &&
#   sed -i 's/generator v2/generator vX/; s/timeline v2/timeline vX/' src/families/sno.rs src/families/muid.rs &&
#   cargo pgrx package --pg-config "$PG_CONFIG" --debug --out-dir /tmp/v-stage
#   COMB_EXT_INPLACE_OLD_STAGE=/tmp/v-stage bash tests/upgrade_in_place.sh /tmp/w   (fails: sno, muid)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=$1
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 30))
RELEASE=ed3c08e # 0.4.0
SESSIONS=8      # per library
PER_SESSION=${COMB_EXT_INPLACE_PER_SESSION:-20000}
major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
library="$("$PG_CONFIG" --pkglibdir)/comb_ext.so"
cluster="$WORK/cluster"
mkdir -p "$WORK"
chown postgres:postgres "$WORK"

old_stage=${COMB_EXT_INPLACE_OLD_STAGE:-}
if [ -z "$old_stage" ]; then
    # A fixed source path, so cargo's fingerprints hold and a re-run builds nothing; tar keeps the
    # commit's mtimes.
    target="${COMB_EXT_TARGET:-$REPO/target}/old-0.4.0-pg$major"
    source_dir="$target/source"
    rm -rf "$source_dir"
    mkdir -p "$source_dir"
    git -C "$REPO" archive "$RELEASE" | tar -x -C "$source_dir"
    old_stage="$WORK/stage-0.4.0"
    rm -rf "$old_stage"
    started=$(date +%s)
    (cd "$source_dir" && CARGO_TARGET_DIR="$target" cargo pgrx package --pg-config "$PG_CONFIG" --debug \
        --out-dir "$old_stage" >"$WORK/build-0.4.0.log" 2>&1) || { tail -n 30 "$WORK/build-0.4.0.log" >&2; exit 1; }
    echo "upgrade_in_place: 0.4.0 ($RELEASE) built for PostgreSQL $major in $target ($(($(date +%s) - started)) s)"
fi
[ -f "$old_stage$library" ] || { echo "upgrade_in_place: no $library in $old_stage" >&2; exit 1; }
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

status=0
for name in "${NAMES[@]}"; do
    if [ "$(sed -n 1p "$WORK/sessions/$name.log")" != "t|t|t|t|t" ]; then
        echo "upgrade_in_place: session $name's first calls: $(cat "$WORK/sessions/$name.log" "$WORK/sessions/$name.err")" >&2
        status=1
    fi
    pid=$(pid_of "$name")
    want="$new_inode "
    [ "${name#old}" != "$name" ] && want="$old_inode (deleted)"
    if [ "$(mapped "$pid")" != "$want" ]; then
        echo "upgrade_in_place: session $name (backend $pid) has mapped '$(mapped "$pid")', expected '$want'" >&2
        status=1
    fi
done
[ $status -eq 0 ] || exit 1
echo "upgrade_in_place: $SESSIONS backends have the old comb_ext.so mapped (inode $old_inode, deleted), $SESSIONS the new one (inode $new_inode)"

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
for name in "${!FD[@]}"; do
    fd=${FD[$name]}
    exec {fd}>&-
    unset "FD[$name]"
done
wait
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
exit $status
