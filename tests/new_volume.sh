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
#   4. as 1., on fresh xfs and btrfs volumes (each skipped, with a line saying so, without its mkfs tool);
#   5. a block-level clone of the source's volume image, with explicit sno partition and medallion: on this
#      machine, alone, not recognised (it goes on: one of the two runs at a time); started beside the running
#      source, every value it must not go on with is held by the source and refused on the clone (the message
#      names the running server); started in a mount namespace with another /etc/machine-id, then an empty one:
#      recognised and refused;
#   6. two containers on overlayfs over one image holding a data directory with explicit identities: each
#      refused; one set apart and restarted goes on.
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
for m in "$WORK"/container* "$WORK"/vol-*; do [ -d "$m" ] && umount "$m" 2>/dev/null || true; done
rm -rf "$WORK"
mkdir -p "$WORK"

# volume NAME [TYPE [SIZE]]: a fresh file system (ext4 unless TYPE says xfs or btrfs), loop-mounted at
# $WORK/vol-NAME (owned by postgres); a sparse image of SIZE, else 320 MB for xfs (its least), 160 MB otherwise.
volume() {
    local image="$WORK/$1.img" dir="$WORK/vol-$1" type=${2:-ext4}
    truncate -s "${3:-$([ "$type" = xfs ] && echo 320M || echo 160M)}" "$image"
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
# expect_state DIR PORT WHAT EXPRESSION STATE: EXPRESSION's SQLSTATE (or "ok") must be STATE, and an error's
# message must hold $MESSAGE_WANT if it is set
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
    elif [ "$state" != ok ] && [ -n "${MESSAGE_WANT:-}" ] && [[ "$message" != *"$MESSAGE_WANT"* ]]; then
        echo "FAILED: $what: $expression's message does not say \"$MESSAGE_WANT\""
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

# explicit_source DIR WHAT PARTITION MEDALLION CLUSTER_ID: a server made at DIR with those explicit identities, the
# extension created and every generator run there, then stopped
explicit_source() {
    cluster_start "$1" "$SOURCE_PORT" "${settings[@]}" "comb_ext.sno_partition = $3" "comb_ext.medallion = '$4'" \
        "comb_ext.uid8_cluster_id = $5" >/dev/null
    clusters+=("$1")
    cluster_psql "$1" "$SOURCE_PORT" -d postgres -qAt -c "CREATE EXTENSION comb_ext"
    all_generators "$1" "$SOURCE_PORT" "$2" ok
    cluster_stop "$1"
}

echo "1. explicit identities, cp -a of the stopped source onto a fresh volume"
volume a1
volume b1
src="$WORK/vol-a1/data" copy="$WORK/vol-b1/data"
clusters+=("$copy")
explicit_source "$src" "source" 21 777 2
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
    clusters+=("$copy3")
    explicit_source "$src3" "$type source" 22 778 3
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
echo "5. a block-level clone of the source's volume (its image copied, mounted on another loop device)"
# Everything the copy signals read is the source's. Alone on this machine (the source stopped) the clone goes on:
# one of the two runs at a time. Beside the running source, the values a copy must not go on with (uid8's cluster
# id, the explicit sno partition and medallion) are held by whichever server took them first, here the source
# (src/server/live_copies.rs: a file per value in /dev/shm naming the server's postmaster), and refused on the
# clone while the source runs. Started where /etc/machine-id reads otherwise (another machine: a mount namespace
# with another file bound over it), or reads nothing (a container without one), the clone is recognised.
cluster_stop "$src"
printf '%s\n' "comb_ext.sno_partition = 21" "comb_ext.medallion = '777'" >>"$src/postgresql.conf"
umount "$WORK/vol-a1"
cp --sparse=always "$WORK/a1.img" "$WORK/clone.img"
mount -o loop "$WORK/a1.img" "$WORK/vol-a1"
mkdir -p "$WORK/vol-clone"
mount -o loop "$WORK/clone.img" "$WORK/vol-clone"
mounts+=("$WORK/vol-clone")
clone="$WORK/vol-clone/moved"
clusters+=("$clone")
printf '%s\n' "port = $COPY_PORT" "unix_socket_directories = '$clone'" >>"$clone/postgresql.conf"
echo "  source inode and birth time $(place "$src"), clone $(place "$clone")"
cluster_start "$clone" "$COPY_PORT" >/dev/null
all_generators "$clone" "$COPY_PORT" "block clone, this machine, alone" ok
cluster_stop "$clone"
cluster_start "$src" "$SOURCE_PORT" >/dev/null
all_generators "$src" "$SOURCE_PORT" "source, its clone stopped" ok
cluster_start "$clone" "$COPY_PORT" >/dev/null
MESSAGE_WANT="another server on this machine (postmaster pid $(head -1 "$src/postmaster.pid"))" \
    all_generators "$clone" "$COPY_PORT" "block clone beside the running source" 55000
all_generators "$src" "$SOURCE_PORT" "source beside its block clone" ok
cluster_stop "$clone"
cluster_stop "$src"
# start_with_machine_id DIR FILE: the cluster's postmaster in a mount namespace where FILE is /etc/machine-id
start_with_machine_id() {
    unshare --mount --propagation private -- sh -c 'mount --bind "$1" /etc/machine-id &&
        exec sudo -u postgres -H -- "$2/pg_ctl" -D "$3" -l "$3/server.log" -w start' _ "$2" "$PGBIN" "$1" >/dev/null
}
echo 0123456789abcdef0123456789abcdef >"$WORK/other-machine-id"
: >"$WORK/no-machine-id"
chmod 644 "$WORK/other-machine-id" "$WORK/no-machine-id"
if [ "$(tr -d '[:space:]' </etc/machine-id 2>/dev/null | wc -c)" != 32 ]; then
    echo "  another machine: SKIPPED: this machine has no /etc/machine-id to stand in for"
else
    for id in other no; do
        start_with_machine_id "$clone" "$WORK/$id-machine-id"
        all_generators "$clone" "$COPY_PORT" "block clone, $id machine id" 55000
        cluster_stop "$clone"
    done
fi
cluster_start "$src" "$SOURCE_PORT" >/dev/null
all_generators "$src" "$SOURCE_PORT" "source after its clone ran" ok
cluster_stop "$src"

echo "6. containers started from one image holding a data directory (overlayfs: the image below, a layer per container)"
# The image is a stopped data directory where the extension ran, with explicit identities. Each container's
# writes copy the directory up into its own layer, whose birth time is the container's: each is recognised;
# a container's restart keeps its layer, and the values set in it then hold.
# On a fresh volume of their own: overlayfs takes no upper layer on some file systems (an overlay root, in CI).
volume layers ext4 600M
image="$WORK/vol-layers/image"
as_postgres mkdir -p "$image"
explicit_source "$image/data" "image" 23 779 4
# container N: its port (the image's server is stopped from here on)
container_port() { [ "$1" = 1 ] && echo "$COPY_PORT" || echo "$SOURCE_PORT"; }
for c in 1 2; do
    layer="$WORK/vol-layers/container$c"
    mkdir -p "$layer/upper" "$layer/work" "$WORK/container$c"
    mount -t overlay overlay -o "lowerdir=$image,upperdir=$layer/upper,workdir=$layer/work" "$WORK/container$c"
    mounts=("$WORK/container$c" "${mounts[@]}")  # unmounted before the volume under it
    data="$WORK/container$c/data"
    clusters+=("$data")
    printf '%s\n' "port = $(container_port $c)" "unix_socket_directories = '$data'" >>"$data/postgresql.conf"
    cluster_start "$data" "$(container_port $c)" >/dev/null
    echo "  container $c: image inode and birth time $(place "$image/data"), container $(place "$data")"
done
for c in 1 2; do
    all_generators "$WORK/container$c/data" "$(container_port $c)" "container $c" 55000
done
data="$WORK/container1/data"
cluster_psql "$data" "$COPY_PORT" -d postgres -qAt -c "ALTER SYSTEM SET comb_ext.sno_partition = 31" \
    -c "ALTER SYSTEM SET comb_ext.medallion = '791'" -c "ALTER SYSTEM SET comb_ext.uid8_cluster_id = 11" >/dev/null
cluster_stop "$data"
cluster_start "$data" "$COPY_PORT" >/dev/null
all_generators "$data" "$COPY_PORT" "container 1 restarted after its values were set apart" ok
for c in 1 2; do cluster_stop "$WORK/container$c/data"; done
[ "$status" = 0 ] && echo "new_volume: passed"
exit $status
