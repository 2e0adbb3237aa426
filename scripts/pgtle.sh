#!/usr/bin/env bash
# pg_tle (AWS Trusted Language Extensions), built once per PostgreSQL major from the source tarball
# beside the repo (../shared/third_party/pg_tle-VERSION.tar.gz, or $COMB_EXT_PGTLE_TARBALL) and
# installed into that major's server (scripts/pg.sh: the cached build, or for 15 the system server's
# /usr/lib/postgresql/15, as CI does). Used to install comb_ext's SQL edition the way managed
# services' users do (tests/portable.sh). A server must preload it: shared_preload_libraries = 'pg_tle'.
#   bash scripts/pgtle.sh build NN      build and install unless done; fails if the tarball is missing
#   bash scripts/pgtle.sh available NN  exit 0 when NN's server is there and the tarball is there
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

CACHE=${COMB_EXT_CACHE:-/var/cache/comb_ext}
VERSION=1.5.3-2f4b7b3
TARBALL=${COMB_EXT_PGTLE_TARBALL:-$REPO/../shared/third_party/pg_tle-$VERSION.tar.gz}

available() {
    [ -f "$TARBALL" ] && bash "$REPO/scripts/pg.sh" pg_config "$1" >/dev/null 2>&1
}

build() {
    local major=$1 pg_config libdir src
    available "$major" || { echo "pg_tle $VERSION: no tarball at $TARBALL, or no PostgreSQL $major build" >&2; return 1; }
    pg_config=$(bash "$REPO/scripts/pg.sh" pg_config "$major")
    libdir=$("$pg_config" --pkglibdir)
    # A marker beside the installed library: the library alone could be another pg_tle version's.
    [ -f "$libdir/pg_tle.so" ] && [ -f "$libdir/.pg_tle-$VERSION" ] && return 0
    # The server headers include gssapi's (PostgreSQL built with GSSAPI, as Debian's is).
    if ! dpkg-query -W -f='${Status}' libkrb5-dev 2>/dev/null | grep -q "install ok installed"; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends libkrb5-dev >&2 ||
            { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends libkrb5-dev >&2; }
    fi
    say "building pg_tle $VERSION for PostgreSQL $major (under a minute, once)" >&2
    src="$CACHE/src/pg_tle-$VERSION-pg$major"
    rm -rf "$src"
    mkdir -p "$src"
    tar -xzf "$TARBALL" -C "$src" --strip-components=1
    # pg_tle's guc-file.l needs flex; a server built without it (16's wheel: FLEX is empty in its
    # Makefile.global) names none, so the machine's is named here.
    local flex
    flex=$(command -v flex) || { echo "pg_tle needs flex (apt-get install flex)" >&2; return 1; }
    (
        cd "$src"
        make -j"${COMB_EXT_BUILD_JOBS:-$(nproc)}" PG_CONFIG="$pg_config" FLEX="$flex" >make.log 2>&1
        make PG_CONFIG="$pg_config" FLEX="$flex" install >install.log 2>&1
    ) || { echo "pg_tle build failed; logs in $src" >&2; return 1; }
    touch "$libdir/.pg_tle-$VERSION"
}

case ${1:-} in
    build) build "${2:?major}" ;;
    available) available "${2:?major}" ;;
    *) echo "usage: bash scripts/pgtle.sh build|available MAJOR" >&2; exit 2 ;;
esac
