#!/usr/bin/env bash
# Copies onto a new volume are recognised (docs/guarantees.md, the copy signals). Each data directory here is the
# first directory made on a freshly made ext4 file system (a loop-mounted image), so a copy made onto another
# fresh one gets the source's inode number: 0.6.0 before its release took such a copy for its source and
# repeated ids (uid8 21,908 of 160,000; sno 42,460 and muid every value with explicit identities). The copy's
# directory has a new birth time, which no copying tool sets.
#   1. explicit identities (sno_partition 21, medallion 777, uid8_cluster_id 2): cp -a of the stopped source
#      onto a fresh volume, started beside it: uid8_new, sno_new and muid_new refuse there (55000), the source
#      goes on;
#   2. default identities: pg_basebackup of the running source onto a fresh volume, started as a primary beside
#      it: uid8_new refuses (55000);
#   3. benign: the source's volume unmounted and mounted again on another loop device (a new device number, as
#      after a reboot), and its data directory renamed within its volume (mv): nothing refused;
#   4. as 1., on fresh xfs and btrfs volumes (each skipped, with a line saying so, without its mkfs tool).
# Each copy's inode number must equal its source's (else the situation is not the one to test: FAILED).
# Skipped, with a line saying so, where loop devices cannot be mounted.
#   bash tests/new_volume.sh [work dir]     (expects comb_ext installed; ports COMB_EXT_TEST_PORT + 62, + 63)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
WORK=${1:-/tmp/comb_ext_new_volume}
SOURCE_PORT=$((${COMB_EXT_TEST_PORT:-54330} + 62))
COPY_PORT=$((${COMB_EXT_TEST_PORT:-54330} + 63))
status=0
mounts=()
clusters=()

cleanup() {
    local c m
    for c in "${clusters[@]}"; do cluster_stop "$c" 2>/dev/null || true; done
    for m in "${mounts[@]}"; do umount "$m" 2>/dev/null || true; done
}
cleanup
trap cleanup EXIT
for m in "$WORK"/vol-*; do [ -d "$m" ] && umount "$m" 2>/dev/null || true; done
rm -rf "$WORK"
mkdir -p "$WORK"

# volume NAME [TYPE]: a fresh file system (ext4 unless TYPE says xfs or btrfs), loop-mounted at $WORK/vol-NAME
# (owned by postgres); a sparse image, 320 MB for xfs (its least), 160 MB otherwise.
volume() {
    local image="$WORK/$1.img" dir="$WORK/vol-$1" type=${2:-ext4}
    truncate -s "$([ "$type" = xfs ] && echo 320M || echo 160M)" "$image"
    case $type in
        ext4) mkfs.ext4 -q -F "$image" ;;
        xfs) mkfs.xfs -q -f "$image" ;;
        btrfs) mkfs.btrfs -q -f "$image" >/dev/null ;;
    esac
    mkdir -p "$dir"
    mount -o loop "$image" "$dir"
    mounts+=("$dir")
    chown postgres:postgres "$dir"
}
if ! { truncate -s 8M "$WORK/probe.img" && mkfs.ext4 -q -F "$WORK/probe.img" && mkdir -p "$WORK/probe" &&
       mount -o loop "$WORK/probe.img" "$WORK/probe" && umount "$WORK/probe"; } 2>/dev/null; then
    echo "new_volume: SKIPPED: loop devices cannot be mounted here (needs root and /dev/loop-control)"
    exit 0
fi
rm -rf "$WORK/probe" "$WORK/probe.img"

# place DIR: the data directory's inode number and birth time (ns)
place() { stat -c '%i %W' "$1"; }
# expect_state DIR PORT WHAT EXPRESSION STATE: EXPRESSION's SQLSTATE (or "ok") must be STATE
expect_state() {
    local dir=$1 port=$2 what=$3 expression=$4 want=$5 out state message
    out=$(cluster_psql "$dir" "$port" -d postgres -qAt -v VERBOSITY=verbose -c "SELECT $expression" 2>&1 >/dev/null) || true
    state=$(sed -n 's/^ERROR:  \([0-9A-Z]\{5\}\): .*/\1/p' <<<"$out" | head -1)
    message=$(sed -n 's/^ERROR:  [0-9A-Z]\{5\}: //p' <<<"$out" | head -1)
    state=${state:-ok}
    printf '  %-48s %s\n' "$what: $expression" "$state${message:+ ($message)}" | cut -c1-200
    if [ "$state" != "$want" ]; then
        echo "FAILED: $what: $expression gave $state, not $want"
        status=1
    fi
}
# same_inode NAME SOURCE_DIR COPY_DIR: the inode numbers must match (the situation to test)
same_inode() {
    local source copy
    source=$(place "$2") copy=$(place "$3")
    echo "  $1: source inode and birth time $source, copy $copy"
    if [ "${source%% *}" != "${copy%% *}" ]; then
        echo "FAILED: $1: the copy's inode number differs from its source's: not the situation to test"
        status=1
    fi
}
settings=("shared_preload_libraries = 'comb_ext'" "max_wal_senders = 4" "wal_level = replica")
all_generators() {
    local dir=$1 port=$2 what=$3 want=$4 uid8_want=${5:-$4}
    expect_state "$dir" "$port" "$what" "uid8_new()" "$uid8_want"
    expect_state "$dir" "$port" "$what" "uid8_new('time_sequential')" "$uid8_want"
    expect_state "$dir" "$port" "$what" "sno_new()" "$want"
    expect_state "$dir" "$port" "$what" "muid_new()" "$want"
    expect_state "$dir" "$port" "$what" "comb_uuid()" ok
}

echo "1. explicit identities, cp -a of the stopped source onto a fresh volume"
volume a1
volume b1
src="$WORK/vol-a1/data" copy="$WORK/vol-b1/data"
clusters+=("$src" "$copy")
cluster_start "$src" "$SOURCE_PORT" "${settings[@]}" "comb_ext.sno_partition = 21" "comb_ext.medallion = '777'" \
    "comb_ext.uid8_cluster_id = 2" >/dev/null
cluster_psql "$src" "$SOURCE_PORT" -d postgres -qAt -c "CREATE EXTENSION comb_ext"
all_generators "$src" "$SOURCE_PORT" "source" ok
cluster_stop "$src"
as_postgres cp -a "$src" "$copy"
printf '%s\n' "port = $COPY_PORT" "unix_socket_directories = '$copy'" >>"$copy/postgresql.conf"
same_inode "cp -a" "$src" "$copy"
cluster_start "$src" "$SOURCE_PORT" >/dev/null
cluster_start "$copy" "$COPY_PORT" >/dev/null
all_generators "$copy" "$COPY_PORT" "copy" 55000
all_generators "$src" "$SOURCE_PORT" "source beside it" ok
cluster_stop "$copy"

echo "2. default identities, pg_basebackup of the running source onto a fresh volume, started as a primary"
volume a2
volume c2
src2="$WORK/vol-a2/data" backup="$WORK/vol-c2/data"
clusters+=("$src2" "$backup")
cluster_stop "$src"
cluster_start "$src2" "$SOURCE_PORT" "${settings[@]}" >/dev/null
cluster_psql "$src2" "$SOURCE_PORT" -d postgres -qAt -c "CREATE EXTENSION comb_ext"
all_generators "$src2" "$SOURCE_PORT" "source" ok
as_postgres "$PGBIN/pg_basebackup" -h "$src2" -p "$SOURCE_PORT" -U postgres -D "$backup" -X stream 2>&1 | { grep -v "skipping special file" || true; }
printf '%s\n' "port = $COPY_PORT" "unix_socket_directories = '$backup'" >>"$backup/postgresql.conf"
same_inode "pg_basebackup" "$src2" "$backup"
cluster_start "$backup" "$COPY_PORT" >/dev/null
# Derived sno partitions and muid medallions differ by their start's draw; uid8's cluster id cannot.
all_generators "$backup" "$COPY_PORT" "restored backup" ok 55000
all_generators "$src2" "$SOURCE_PORT" "source beside it" ok
cluster_stop "$backup"
cluster_stop "$src2"

echo "3. benign: the source's volume mounted again on another loop device, and its data directory renamed"
before=$(place "$src")
device_before=$(stat -c '%d' "$src")
umount "$WORK/vol-a1"
# Another loop device first, so the volume comes back on a new one (a reboot may renumber devices).
spare=$(losetup -f)
losetup "$spare" "$WORK/b1.img" 2>/dev/null || true
mount -o loop "$WORK/a1.img" "$WORK/vol-a1"
after=$(place "$src")
echo "  remounted: inode and birth time $before -> $after, device $device_before -> $(stat -c '%d' "$src")"
cluster_start "$src" "$SOURCE_PORT" >/dev/null
all_generators "$src" "$SOURCE_PORT" "remounted" ok
cluster_stop "$src"
losetup -d "$spare" 2>/dev/null || true
as_postgres mv "$src" "$WORK/vol-a1/moved"
src="$WORK/vol-a1/moved"
clusters+=("$src")
printf '%s\n' "unix_socket_directories = '$src'" >>"$src/postgresql.conf"
cluster_start "$src" "$SOURCE_PORT" >/dev/null
all_generators "$src" "$SOURCE_PORT" "renamed within its volume" ok
cluster_stop "$src"
echo "4. explicit identities, cp -a of the stopped source onto a fresh volume, on xfs and btrfs"
# Their inode numbers: a fresh btrfs starts every volume's at 257, xfs's follow its layout; either way the copy's
# directory has a new birth time (xfs's and btrfs's statx report it), the signal that recognises it.
for type in xfs btrfs; do
    if ! command -v "mkfs.$type" >/dev/null || ! grep -qw "$type" /proc/filesystems; then
        echo "  $type: SKIPPED: no mkfs.$type or no $type in this kernel (scripts/setup.sh installs ${type}progs)"
        continue
    fi
    volume "${type}a" "$type"
    volume "${type}b" "$type"
    src3="$WORK/vol-${type}a/data" copy3="$WORK/vol-${type}b/data"
    clusters+=("$src3" "$copy3")
    cluster_start "$src3" "$SOURCE_PORT" "${settings[@]}" "comb_ext.sno_partition = 22" "comb_ext.medallion = '778'" \
        "comb_ext.uid8_cluster_id = 3" >/dev/null
    cluster_psql "$src3" "$SOURCE_PORT" -d postgres -qAt -c "CREATE EXTENSION comb_ext"
    all_generators "$src3" "$SOURCE_PORT" "$type source" ok
    cluster_stop "$src3"
    as_postgres cp -a "$src3" "$copy3"
    printf '%s\n' "port = $COPY_PORT" "unix_socket_directories = '$copy3'" >>"$copy3/postgresql.conf"
    echo "  $type: source inode and birth time $(place "$src3"), copy $(place "$copy3")"
    if [ "$(place "$copy3" | cut -d' ' -f2)" = 0 ]; then
        echo "FAILED: $type: no birth time reported: not the situation to test"
        status=1
    fi
    cluster_start "$src3" "$SOURCE_PORT" >/dev/null
    cluster_start "$copy3" "$COPY_PORT" >/dev/null
    all_generators "$copy3" "$COPY_PORT" "$type copy" 55000
    all_generators "$src3" "$SOURCE_PORT" "$type source beside it" ok
    cluster_stop "$copy3"
    cluster_stop "$src3"
done
[ "$status" = 0 ] && echo "new_volume: passed"
exit $status
