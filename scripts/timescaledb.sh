#!/usr/bin/env bash
# TimescaleDB, built once per PostgreSQL server from the upstream source inside Debian's own source package and
# installed into that server (for docs/partitioning.md and its tests: hypertables keyed by the time inside an id).
#   bash scripts/timescaledb.sh build NN      build and install into NN's server unless done; print the version
#   bash scripts/timescaledb.sh available NN  exit 0 when NN's server is there, the pinned release supports NN and
#                                             the source is cached or can be fetched; else one line saying why, exit 1
#   bash scripts/timescaledb.sh fetch NN      (internal) only download and verify NN's tarball; print its path
# NN's server is scripts/pg.sh's (the system 15, or the cached 13, 17, 18) unless PG_CONFIG is set in the
# environment: then that server, whatever its major (a relocated copy, a session's own build).
# Source: timescaledb_VERSION+dfsg.orig.tar.xz, upstream's release without its tsl/ directory (the parts under the
# Timescale License, which Debian leaves out), fetched by URL from the pool of the mirror this machine's apt already
# uses and checked against a pinned SHA-256, as scripts/pg.sh fetches PostgreSQL. So the build is the Apache-2.0
# edition (APACHE_ONLY): hypertables and chunk exclusion, no compression, continuous aggregates or policies.
# Cache: the tarball and the built trees under $COMB_EXT_CACHE/src (default /var/cache/comb_ext/src); a marker
# .timescaledb-VERSION beside the installed library says which release that server has.
set -euo pipefail
# Read before common.sh gives PG_CONFIG its default (the system 15): set here means "this server".
GIVEN_PG_CONFIG=${PG_CONFIG:-}
source "$(dirname "$0")/lib/common.sh"

CACHE=${COMB_EXT_CACHE:-/var/cache/comb_ext}
# First choice first: version, SHA-256 of timescaledb_VERSION+dfsg.orig.tar.xz, the PostgreSQL majors the release
# builds against (its CMakeLists.txt refuses others). 2.19.3 is trixie's, checksum from trixie's Sources index (its
# InRelease signature checked by apt against debian-archive-keyring) and equal to the pool file's, 2026-11-26.
# Sid's 2.31.0 (Sources: 24e1ec78667361e88e1d29307ffbdd99608e54396c06471888aa531d836699a0, PostgreSQL 18 only in
# Debian) was listed but the pool answered 404 for it that day; it is not pinned until it can be fetched and run.
RELEASES="
2.19.3 09fd11191768c220b071f61a108df9bd1df5522fbe4e7c2229f30f69b195454a 14 17
"

debian_mirror() { bash "$REPO/scripts/pg.sh" mirror; }

pg_config_for() {
    if [ -n "$GIVEN_PG_CONFIG" ]; then echo "$GIVEN_PG_CONFIG"; else bash "$REPO/scripts/pg.sh" pg_config "$1"; fi
}

# The pinned releases that build against major $1, "VERSION SHA256" a line, first choice first.
releases_for() { awk -v m="$1" 'NF == 4 && m >= $3 && m <= $4 { print $1, $2 }' <<<"$RELEASES"; }

# Fetch the first pinned release for major $1 the pool has with its pinned checksum (or find it cached); print
# "VERSION TARBALL". One line on stderr when none can be had.
fetch() {
    local major=$1 dir="$CACHE/src" mirror version sha file log reason tried=""
    mkdir -p "$dir"
    while read -r version sha <&3; do
        file="$dir/timescaledb_$version+dfsg.orig.tar.xz"
        if [ -f "$file" ] && echo "$sha  $file" | sha256sum -c --status; then
            echo "$version $file"
            return
        fi
        mirror=${mirror:-$(debian_mirror)} || return 1
        log="$dir/timescaledb_$version.download.log"
        if reason=$(pool_download "$mirror/pool/main/t/timescaledb/${file##*/}" "$file.part" "$sha" "$log"); then
            mv -f "$file.part" "$file"
            [ -z "$tried" ] || echo "timescaledb: using $version; could not fetch $tried" >&2
            echo "$version $file"
            return
        fi
        tried+="${tried:+, }$version ($reason)"
    done 3< <(releases_for "$major")
    echo "timescaledb: no pinned release could be fetched from ${mirror:-the Debian mirror}/pool/main/t/timescaledb/: $tried" >&2
    return 1
}

available() {
    local major=$1 pg_config
    [ -n "$(releases_for "$major" 2>/dev/null)" ] ||
        { echo "timescaledb: no pinned release supports PostgreSQL $major (pinned: $(awk 'NF == 4 { printf "%s%s for %s-%s", sep, $1, $3, $4; sep = ", " }' <<<"$RELEASES"))" >&2; return 1; }
    pg_config=$(pg_config_for "$major") && [ -x "$pg_config" ] ||
        { echo "timescaledb: no PostgreSQL $major server here (scripts/pg.sh build $major)" >&2; return 1; }
    fetch "$major" >/dev/null
}

# cmake is the one build tool PostgreSQL's own build does not need; installed the way scripts/pg.sh installs
# PostgreSQL's build dependencies.
ensure_cmake() {
    command -v cmake >/dev/null && return
    say "installing cmake" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends cmake >&2 ||
        { DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 &&
          DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends cmake >&2; }
}

build() {
    local major=$1 pg_config fetched version tarball libdir src tag
    available "$major" || return 1
    pg_config=$(pg_config_for "$major")
    fetched=$(fetch "$major")
    read -r version tarball <<<"$fetched"
    libdir=$("$pg_config" --pkglibdir)
    # A marker beside the installed library: the library alone could be another release's.
    if [ -f "$libdir/timescaledb-$version.so" ] && [ -f "$libdir/.timescaledb-$version" ]; then
        echo "$version"
        return 0
    fi
    ensure_cmake
    # One tree per server: a server given by PG_CONFIG is named by its path, so it never shares the tree
    # (and its object files, built against its headers) with the standard server of the same major.
    tag=pg$major
    [ -z "$GIVEN_PG_CONFIG" ] || tag+=-$(printf '%s' "$pg_config" | sha256sum | cut -c1-8)
    src="$CACHE/src/timescaledb-$version-$tag"
    say "building timescaledb $version for $("$pg_config" --version) (a few minutes, once)" >&2
    rm -rf "$src"
    mkdir -p "$src"
    tar -xJf "$tarball" -C "$src" --strip-components=1
    # Debian's flags (debian/rules of 2.19.3+dfsg-1+deb13u1): no telemetry, which would call home from a
    # background worker; APACHE_ONLY, as tsl/ is not in the tarball. Its own tests are not built: they need
    # a PostgreSQL source tree and Perl modules, and are not what is tested here.
    # A server built without OpenSSL (16's wheel) refuses TimescaleDB's default; it then does without, as its
    # bootstrap offers.
    local openssl=()
    "$pg_config" --configure | grep -q -- '--with-openssl' || openssl=(-DUSE_OPENSSL=0)
    (
        cd "$src"
        BUILD_FORCE_REMOVE=true ./bootstrap -DPG_CONFIG="$pg_config" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
            -DAPACHE_ONLY=ON -DSEND_TELEMETRY_DEFAULT=OFF -DUSE_TELEMETRY=OFF "${openssl[@]}" \
            -DREGRESS_CHECKS=OFF -DTAP_CHECKS=OFF -DWARNINGS_AS_ERRORS=OFF >bootstrap.log 2>&1
        make -C build -j"${COMB_EXT_BUILD_JOBS:-$(nproc)}" >make.log 2>&1
        make -C build install >install.log 2>&1
    ) || { echo "timescaledb $version build failed; logs in $src" >&2; return 1; }
    [ -f "$libdir/timescaledb-$version.so" ] ||
        { echo "timescaledb $version installed no $libdir/timescaledb-$version.so; logs in $src" >&2; return 1; }
    rm -f "$libdir"/.timescaledb-*
    touch "$libdir/.timescaledb-$version"
    echo "$version"
}

case ${1:-} in
    build) build "${2:?major}" ;;
    available) available "${2:?major}" ;;
    fetch) fetch "${2:?major}" ;;
    *) sed -n '2,14p' "$0" >&2; exit 2 ;;
esac
