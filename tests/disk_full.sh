#!/usr/bin/env bash
# A full disk under the marks (docs/guarantees.md: "Marks on disk"): comb_ext/ is a 256 kB tmpfs,
# filled once every family has its first marks. Then, for sno, muid and uid8, 3 s of calls
# (tests/disk_full.py, which counts the files created in comb_ext/ with inotify):
# - calls fail with 58030 once the mark written ahead is used up, naming the file and the error;
# - no temporary file is left behind (0.6.0 at 2e93f6b: one per failed write), and files are
#   created at most about once per 100 ms back-off, not on every call;
# - with space again, the next calls succeed.
# Then temporary files of dead processes (in comb_ext/ and comb_ext/prepared/) are removed when the
# restarted server first generates and takes a watermark; a live process's is kept.
#   bash tests/disk_full.sh WORK_DIR    (expects comb_ext installed and psycopg in the venv
#   scripts/setup.sh makes; mounts a tmpfs, so runs as root; port COMB_EXT_TEST_PORT + 56, default 54386)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=${1:?usage: tests/disk_full.sh WORK_DIR}
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 56))
dir="$WORK/cluster"
small="$WORK/small"

need_psycopg "disk_full"
cluster_stop "$dir"
mountpoint -q "$small" && umount "$small"
rm -rf "$WORK"
mkdir -p "$WORK" "$small"
chown postgres:postgres "$WORK"
trap 'cluster_stop "$dir"; mountpoint -q "$small" && umount "$small"' EXIT
mount -t tmpfs -o size=256k,mode=700 tmpfs "$small"
chown postgres:postgres "$small"
cluster_start "$dir" "$PORT" "shared_preload_libraries = 'comb_ext'" "max_prepared_transactions = 2" >/dev/null
cluster_stop "$dir"
ln -s "$small" "$dir/comb_ext"
chown -h postgres:postgres "$dir/comb_ext"
cluster_start "$dir" "$PORT" >/dev/null
sql() { cluster_psql "$dir" "$PORT" -d postgres -qAt "$@"; }
sql -c "CREATE EXTENSION comb_ext" \
    -c "SELECT sno_new(), muid_new(), uid8_new(), comb_watermark()" \
    -c "BEGIN" -c "SELECT comb_uuid(), comb_watermark()" -c "PREPARE TRANSACTION 'kept'" >/dev/null

"$PYTHON" "$REPO/tests/disk_full.py" "$dir" "$PORT" "$small"

say "temporary files of dead processes are removed at the first use after a restart, a live one's is kept"
cluster_stop "$dir"
# pid_max is at most 2^22: these pids belong to no process.
dead=(".sno.mark.4194305.0.tmp" ".muid.mark.4194306.1.tmp" ".uid8.mark.4194307.2.tmp" "prepared/.123.4194308.0.tmp")
as_postgres mkdir -p "$small/prepared"
for name in "${dead[@]}"; do as_postgres touch "$small/$name"; done
live=".sno.mark.1.0.tmp"  # pid 1 is alive: a write under way as far as the check can tell
as_postgres touch "$small/$live"
cluster_start "$dir" "$PORT" >/dev/null
sql -c "SELECT sno_new(), muid_new(), uid8_new(), comb_watermark()" >/dev/null
failures=0
for name in "${dead[@]}"; do
    if [ -e "$small/$name" ]; then
        echo "  FAILED: comb_ext/$name is still there"
        failures=$((failures + 1))
    fi
done
[ -e "$small/$live" ] || { echo "  FAILED: comb_ext/$live (a live pid's) was removed"; failures=$((failures + 1)); }
echo "  left in comb_ext/: $(cd "$small" && find . -name '*.tmp' | sort | tr '\n' ' ')"
sql -c "ROLLBACK PREPARED 'kept'" >/dev/null
if [ $failures -gt 0 ]; then
    echo "disk_full: FAILED ($failures checks after the restart)"
    exit 1
fi
echo "disk_full: passed"
