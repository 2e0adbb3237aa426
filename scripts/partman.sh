#!/usr/bin/env bash
# pg_partman, built once per PostgreSQL server from the upstream tarball inside Debian's own source package and
# installed into that server (for docs/partitioning.md and its tests: partitioning by the time inside an id).
#   bash scripts/partman.sh build NN      build and install into NN's server unless done; print the version
#   bash scripts/partman.sh available NN  exit 0 when NN's server is there, pg_partman supports NN and the
#                                         source is cached or can be fetched; else one line saying why, exit 1
#   bash scripts/partman.sh fetch         (internal) only download and verify the tarball; print its path
# NN's server is scripts/pg.sh's (the system 15, or the cached 13, 17, 18) unless PG_CONFIG is set in the
# environment: then that server, whatever its major (a relocated copy, a session's own build).
# COMB_EXT_PARTMAN_VERSION=V takes only the pinned release V (to try the fallback on purpose).
# Source: pg-partman_VERSION.orig.tar.gz (upstream's v VERSION tag), fetched by URL from the pool of the mirror
# this machine's apt already uses and checked against a pinned SHA-256, as scripts/pg.sh fetches PostgreSQL.
# Cache: the tarball and the built trees under $COMB_EXT_CACHE/src (default /var/cache/comb_ext/src); a marker
# .pg_partman-VERSION beside the installed library says which release that server has.
set -euo pipefail
# Read before common.sh gives PG_CONFIG its default (the system 15): set here means "this server".
GIVEN_PG_CONFIG=${PG_CONFIG:-}
source "$(dirname "$0")/lib/common.sh"

CACHE=${COMB_EXT_CACHE:-/var/cache/comb_ext}
# First choice first: version, SHA-256 of pg-partman_VERSION.orig.tar.gz. 5.5.0 is sid's: it quotes the
# p_time_encoder/p_time_decoder names it splices into its dynamic SQL (CVE-2026-61781, -61817, -61818; before,
# the text went in verbatim) and fixes other injections (docs/partitioning.md). Trixie's 5.2.4 is the fallback
# for when the pool no longer has sid's file; it lacks those fixes. Both checksums are from the Sources indexes of
# sid and trixie (their InRelease signatures checked by apt against debian-archive-keyring), 2026-11-26.
RELEASES="
5.5.0 c68287705dcb17aaaecfcb50e5057392eb91d150f9719d02d3a38e23437778a3
5.2.4 462464d83389ef20256b982960646a1572341c0beb09eeff32b4a69f04e31b76
"
# pg_partman 5.x needs PostgreSQL 14 or later.
MIN_MAJOR=14

debian_mirror() { bash "$REPO/scripts/pg.sh" mirror; }

pg_config_for() {
    if [ -n "$GIVEN_PG_CONFIG" ]; then echo "$GIVEN_PG_CONFIG"; else bash "$REPO/scripts/pg.sh" pg_config "$1"; fi
}

# Fetch the first pinned release the pool has with its pinned checksum (or find it cached); print
# "VERSION TARBALL". One line on stderr when none can be had.
fetch() {
    local dir="$CACHE/src" mirror version sha file log reason tried="" releases
    releases=$(awk -v want="${COMB_EXT_PARTMAN_VERSION:-}" 'NF == 2 && (want == "" || $1 == want)' <<<"$RELEASES")
    [ -n "$releases" ] ||
        { echo "pg_partman: $COMB_EXT_PARTMAN_VERSION is not pinned (pinned: $(awk 'NF == 2 { printf "%s ", $1 }' <<<"$RELEASES"))" >&2; return 1; }
    mkdir -p "$dir"
    while read -r version sha <&3; do
        file="$dir/pg-partman_$version.orig.tar.gz"
        if [ -f "$file" ] && echo "$sha  $file" | sha256sum -c --status; then
            echo "$version $file"
            return
        fi
        mirror=${mirror:-$(debian_mirror)} || return 1
        log="$dir/pg-partman_$version.download.log"
        if reason=$(pool_download "$mirror/pool/main/p/pg-partman/${file##*/}" "$file.part" "$sha" "$log"); then
            mv -f "$file.part" "$file"
            [ -z "$tried" ] || echo "pg_partman: using $version; could not fetch $tried" >&2
            echo "$version $file"
            return
        fi
        tried+="${tried:+, }$version ($reason)"
    done 3<<<"$releases"
    echo "pg_partman: no pinned release could be fetched from ${mirror:-the Debian mirror}/pool/main/p/pg-partman/: $tried" >&2
    return 1
}

available() {
    local major=$1 pg_config
    [ "$major" -ge "$MIN_MAJOR" ] 2>/dev/null ||
        { echo "pg_partman: PostgreSQL $major is not supported (5.x needs $MIN_MAJOR or later)" >&2; return 1; }
    pg_config=$(pg_config_for "$major") && [ -x "$pg_config" ] ||
        { echo "pg_partman: no PostgreSQL $major server here (scripts/pg.sh build $major)" >&2; return 1; }
    fetch >/dev/null
}

build() {
    local major=$1 pg_config fetched version tarball libdir src tag
    available "$major" || return 1
    pg_config=$(pg_config_for "$major")
    fetched=$(fetch)
    read -r version tarball <<<"$fetched"
    libdir=$("$pg_config" --pkglibdir)
    # A marker beside the installed library: the library alone could be another release's.
    if [ -f "$libdir/pg_partman_bgw.so" ] && [ -f "$libdir/.pg_partman-$version" ]; then
        echo "$version"
        return 0
    fi
    # One tree per server: a server given by PG_CONFIG is named by its path, so it never shares the tree
    # (and its object files, built against its headers) with the standard server of the same major.
    tag=pg$major
    [ -z "$GIVEN_PG_CONFIG" ] || tag+=-$(printf '%s' "$pg_config" | sha256sum | cut -c1-8)
    src="$CACHE/src/pg_partman-$version-$tag"
    say "building pg_partman $version for $("$pg_config" --version) (under a minute, once)" >&2
    rm -rf "$src"
    mkdir -p "$src"
    tar -xzf "$tarball" -C "$src" --strip-components=1
    (
        cd "$src"
        make -j"${COMB_EXT_BUILD_JOBS:-$(nproc)}" PG_CONFIG="$pg_config" >make.log 2>&1
        make PG_CONFIG="$pg_config" install >install.log 2>&1
    ) || { echo "pg_partman $version build failed; logs in $src" >&2; return 1; }
    rm -f "$libdir"/.pg_partman-*
    touch "$libdir/.pg_partman-$version"
    echo "$version"
}

case ${1:-} in
    build) build "${2:?major}" ;;
    available) available "${2:?major}" ;;
    fetch) fetch ;;
    *) sed -n '2,15p' "$0" >&2; exit 2 ;;
esac
