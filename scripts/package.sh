#!/usr/bin/env bash
# A Debian package of comb_ext for one PostgreSQL major:
#   bash scripts/package.sh NN [OUT_DIR]   ->  OUT_DIR/postgresql-NN-comb-ext_<version>_amd64.deb
# with the library, the control file and every SQL script (install and upgrades) at the paths that
# major's pg_config names (scripts/pg.sh: 15 is the system server, 13/16/17/18 the cached ones),
# depending on postgresql-NN, and its documentation in /usr/share/doc/postgresql-NN-comb-ext/ as Debian
# policy asks (copyright in the machine-readable format, changelog.gz in Debian's format from
# CHANGELOG.md, the README). A release build, made with `cargo pgrx package`, the library stripped.
# OUT_DIR defaults to target/debian. Prints the package's path.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

MAJOR=${1:?usage: scripts/package.sh MAJOR [OUT_DIR]}
OUT=${2:-$REPO/target/debian}
PG_CONFIG=$(bash "$REPO/scripts/pg.sh" pg_config "$MAJOR") ||
    { echo "PostgreSQL $MAJOR is not here: bash scripts/pg.sh build $MAJOR" >&2; exit 1; }
VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' "$REPO/Cargo.toml" | head -n1)
ARCH=$(dpkg --print-architecture)
NAME="postgresql-$MAJOR-comb-ext"

# The test command's lane sets CARGO_TARGET_DIR to the target of its release build, which this then reuses.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$REPO/target/pg$MAJOR}
say "release build for PostgreSQL $MAJOR ($PG_CONFIG)" >&2
(cd "$REPO" && cargo pgrx package --pg-config "$PG_CONFIG" --out-dir "$CARGO_TARGET_DIR/package" >&2)
root="$CARGO_TARGET_DIR/package"

# Upgrade scripts: cargo pgrx package carries only the install script; sql/ holds the rest.
extdir="$root$("$PG_CONFIG" --sharedir)/extension"
install -m 644 "$REPO"/sql/comb_ext--*--*.sql "$extdir/"
for f in "$("$PG_CONFIG" --pkglibdir)/comb_ext.so" "$("$PG_CONFIG" --sharedir)/extension/comb_ext.control" \
    "$("$PG_CONFIG" --sharedir)/extension/comb_ext--$VERSION.sql"; do
    [ -f "$root$f" ] || { echo "package: $f is missing from the build" >&2; exit 1; }
done

MAINTAINER="comb_ext maintainers <maintainers@users.noreply.a-seed-e265c5d7.example>"
# Debian ships libraries without their symbol tables and debug sections (policy 10.1); the dynamic
# symbols PostgreSQL looks up stay.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root$("$PG_CONFIG" --pkglibdir)/comb_ext.so"

# The documentation (policy 12.3, 12.5, 12.7). The package is native (no Debian revision), so its
# Debian-format changelog is changelog.gz. The newest entry, not released yet, is dated like the build:
# SOURCE_DATE_EPOCH, else the last commit, else now.
doc="$root/usr/share/doc/$NAME"
rm -rf "$root/usr/share/doc"
install -d "$doc"
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
    built=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
elif built=$(git -C "$REPO" log -1 --format=%cD 2>/dev/null); then
    :
else
    built=$(date -u -R)
fi
python3 "$REPO/scripts/lib/debian_changelog.py" "$REPO/CHANGELOG.md" "$NAME" "$MAINTAINER" "$built" |
    gzip -9n >"$doc/changelog.gz"
gzip -9n <"$REPO/README.md" >"$doc/README.md.gz"
{
    echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
    echo "Upstream-Name: comb_ext"
    echo
    echo "Files: *"
    echo "Copyright: $(sed -n 's/^Copyright (c) //p' "$REPO/LICENSE")"
    echo "License: Expat"
    echo
    echo "License: Expat"
    # The licence's text after its title and copyright line, a blank line written as " ." (DEP-5).
    sed -n '/^Permission/,$p' "$REPO/LICENSE" | sed 's/^$/./; s/^/ /'
} >"$doc/copyright"
chmod 644 "$doc"/*

mkdir -p "$root/DEBIAN" "$OUT"
(cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<EOF
Package: $NAME
Version: $VERSION
Architecture: $ARCH
Maintainer: $MAINTAINER
Depends: postgresql-$MAJOR, libc6
Section: database
Priority: optional
Installed-Size: $size
Description: time-ordered identifiers for PostgreSQL $MAJOR
 comb_ext generates and decodes time-ordered ids inside PostgreSQL: COMB
 uuids compatible with RT.Comb and SQL Server, a btree operator class for
 SQL Server uuid order, Gink muids, sno ids and 8-byte unique ids.
EOF
# Nothing live is written here; dpkg unpacks each file as NAME.dpkg-new and renames it over NAME, so an
# upgrade under a running server replaces files as scripts/install.sh does.
deb="$OUT/${NAME}_${VERSION}_${ARCH}.deb"
dpkg-deb --root-owner-group --build "$root" "$deb" >&2
echo "$deb"
