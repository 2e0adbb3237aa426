#!/usr/bin/env bash
# Citus, built once per PostgreSQL major from the source tarball beside the repo
# (../shared/third_party/citus-VERSION.tar.gz, or $COMB_EXT_CITUS_TARBALL) and installed into that
# major's cached server (scripts/pg.sh), so it is cached with it. Citus 14 supports PostgreSQL 16-18.
#   bash scripts/citus.sh build NN     build and install unless done; fails if the tarball is missing
#   bash scripts/citus.sh available NN exit 0 when NN is a major Citus can run on and the tarball is there
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

CACHE=${COMB_EXT_CACHE:-/var/cache/comb_ext}
VERSION=14.0.1
TARBALL=${COMB_EXT_CITUS_TARBALL:-$REPO/../shared/third_party/citus-$VERSION.tar.gz}

# 16 from 16.5 on: Citus 14's columnar calls systable_inplace_update_begin, which 16.5 brought back to 16 (16's
# wheel is 16.2, where the build fails on it).
available() {
    local pg_config minor
    case $1 in 16 | 17 | 18) ;; *) return 1 ;; esac
    [ -f "$TARBALL" ] && pg_config=$(bash "$REPO/scripts/pg.sh" pg_config "$1" 2>/dev/null) || return 1
    minor=$("$pg_config" --version | sed -E 's/^PostgreSQL [0-9]+\.([0-9]+).*/\1/')
    [ "$1" != 16 ] || [ "$minor" -ge 5 ]
}

build() {
    local major=$1 pg_config prefix src
    available "$major" || { echo "Citus $VERSION: no tarball at $TARBALL, or no PostgreSQL $major build" >&2; return 1; }
    pg_config=$(bash "$REPO/scripts/pg.sh" pg_config "$major")
    prefix=$("$pg_config" --bindir)/..
    [ -f "$prefix/.citus-$VERSION" ] && return 0
    local packages=(libcurl4-openssl-dev liblz4-dev libzstd-dev) missing=() p
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 ||
            { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2; }
    fi
    say "building Citus $VERSION for PostgreSQL $major (about 2 minutes, once)" >&2
    src="$CACHE/src/citus-$VERSION-pg$major"
    rm -rf "$src"
    mkdir -p "$src"
    tar -xzf "$TARBALL" -C "$src" --strip-components=1
    (
        cd "$src"
        ./configure PG_CONFIG="$pg_config" >configure.log 2>&1
        make -j"$(nproc)" >make.log 2>&1
        make install >install.log 2>&1
    ) || { echo "Citus build failed; logs in $src" >&2; return 1; }
    touch "$prefix/.citus-$VERSION"
}

case ${1:-} in
    build) build "${2:?major}" ;;
    available) available "${2:?major}" ;;
    *) echo "usage: bash scripts/citus.sh build|available MAJOR" >&2; exit 2 ;;
esac
