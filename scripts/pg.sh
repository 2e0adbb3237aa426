#!/usr/bin/env bash
# PostgreSQL servers of every major we test, built once into a cache outside the repo and reused.
#   bash scripts/pg.sh build NN       build major NN (13, 17, 18) unless cached; print its pg_config
#   bash scripts/pg.sh pg_config NN   print NN's pg_config if it is there (15: the system server), else fail
#   bash scripts/pg.sh available      the majors whose pg_config is there now, one a line
#   bash scripts/pg.sh pgrx-init      point cargo pgrx at every available major (downloads nothing)
# Sources are Debian's own source packages (13 from bullseye, 17 from trixie, 18 from sid), fetched with
# apt-get source from the mirror this machine's apt already uses, through a private apt state in the cache:
# the machine's own apt configuration is not touched. Cache: $COMB_EXT_CACHE (default /var/cache/comb_ext).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

CACHE=${COMB_EXT_CACHE:-/var/cache/comb_ext}
BUILT_MAJORS=(13 17 18)

suite_of() {
    case $1 in
        13) echo bullseye ;;
        17) echo trixie ;;
        18) echo sid ;;
        *) echo "major $1 is not built here (built: ${BUILT_MAJORS[*]}; 15 is the system server)" >&2; return 1 ;;
    esac
}

pg_config_of() {
    if [ "$1" = 15 ]; then echo /usr/lib/postgresql/15/bin/pg_config; else echo "$CACHE/pg$1/bin/pg_config"; fi
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

# apt-get with a sources list and state of our own: deb-src lines only, nothing the machine installs changes.
private_apt() {
    local dir="$CACHE/apt"
    apt-get -q -o Dir::Etc::SourceList="$dir/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
        -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" -o APT::Sandbox::User=root "$@"
}

fetch_source() {
    local major=$1 suite dir="$CACHE/apt" mirror
    suite=$(suite_of "$major")
    mirror=$(debian_mirror)
    mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
    local line="deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main"
    if ! grep -qxF "$line" "$dir/sources.list" 2>/dev/null; then
        echo "$line" >>"$dir/sources.list"
        rm -f "$dir/updated"
    fi
    if [ ! -f "$dir/updated" ]; then
        private_apt update >&2
        touch "$dir/updated"
    fi
    rm -rf "$CACHE/src/pg$major"
    mkdir -p "$CACHE/src/pg$major"
    # Upstream's source as Debian ships it, without Debian's patches: those move the install into
    # /usr/lib/postgresql/NN, outside the cache.
    (cd "$CACHE/src/pg$major" && private_apt source --download-only --only-source "postgresql-$major" >&2 &&
        dpkg-source --skip-patches -x ./*.dsc >&2)
}

install_build_deps() {
    local packages=(bison flex uuid-dev libssl-dev zlib1g-dev dpkg-dev make gcc "$@") missing=() p
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

build() {
    local major=$1 prefix="$CACHE/pg$1" src
    [ "$major" = 15 ] && { pg_config_of 15; return; }
    suite_of "$major" >/dev/null
    if [ -x "$prefix/bin/pg_config" ] && [ -f "$prefix/.complete" ]; then
        pg_config_of "$major"
        return
    fi
    install_build_deps
    say "building PostgreSQL $major from Debian's source package into $prefix (several minutes, once)" >&2
    fetch_source "$major"
    src=$(find "$CACHE/src/pg$major" -maxdepth 1 -mindepth 1 -type d -name "postgresql-$major-*" | head -n1)
    [ -n "$src" ] || { echo "apt-get source postgresql-$major unpacked nothing" >&2; return 1; }
    [ -f "$src/configure" ] || { echo "no configure in $src" >&2; return 1; }
    rm -rf "$prefix"
    (
        cd "$src"
        ./configure --prefix="$prefix" --without-icu --without-readline --with-openssl --with-uuid=e2fs \
            CFLAGS="-O2" >"$CACHE/src/pg$major/configure.log" 2>&1
        make -j"$(nproc)" world-bin >"$CACHE/src/pg$major/make.log" 2>&1
        make install-world-bin >"$CACHE/src/pg$major/install.log" 2>&1
    ) || { echo "PostgreSQL $major build failed; logs in $CACHE/src/pg$major" >&2; return 1; }
    # pg_regress, which the tests run, comes with install-world-bin; check it is where PGXS says.
    [ -x "$(dirname "$("$prefix/bin/pg_config" --pgxs)")/../test/regress/pg_regress" ] ||
        { echo "PostgreSQL $major installed no pg_regress" >&2; return 1; }
    touch "$prefix/.complete"
    pg_config_of "$major"
}

case ${1:-} in
    build) build "${2:?major}" ;;
    pg_config)
        p=$(pg_config_of "${2:?major}")
        if [ "$2" = 15 ]; then [ -x "$p" ]; else [ -x "$p" ] && [ -f "$CACHE/pg$2/.complete" ]; fi || exit 1
        echo "$p" ;;
    available)
        for m in 13 15 17 18; do "$0" pg_config "$m" >/dev/null 2>&1 && echo "$m"; done ;;
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
    *) sed -n '2,10p' "$0" >&2; exit 2 ;;
esac
