#!/usr/bin/env bash
# The Debian package of one major (scripts/package.sh), checked as users get it.
#   bash tests/package.sh MAJOR WORK_DIR       (port COMB_EXT_TEST_PORT + 7, default 54337)
# Every package: its files are exactly the library, the control file and the SQL scripts, at the
# paths that major's pg_config names, and its documentation (copyright, changelog.gz, the README) in
# /usr/share/doc; it depends on postgresql-MAJOR; lintian finds no error in it. For 15, the system server,
# it is also installed with apt-get in place of the scripts/install.sh copy, and a fresh cluster
# runs CREATE EXTENSION and every generator; then the package is removed again.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
MAJOR=$1
WORK=$2
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 7))
PG_CONFIG=$(bash "$REPO/scripts/pg.sh" pg_config "$MAJOR")
PGBIN=$(dirname "$PG_CONFIG")
VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' "$REPO/Cargo.toml" | head -n1)
NAME="postgresql-$MAJOR-comb-ext"
mkdir -p "$WORK"
chown postgres:postgres "$WORK"

deb=$(bash "$REPO/scripts/package.sh" "$MAJOR" "$WORK")
echo "package: $(basename "$deb"), $(du -k "$deb" | cut -f1) kB"

libdir=$("$PG_CONFIG" --pkglibdir)
extdir="$("$PG_CONFIG" --sharedir)/extension"
expected=$( {
    echo "$libdir/comb_ext.so"
    echo "$extdir/comb_ext.control"
    echo "$extdir/comb_ext--$VERSION.sql"
    for f in "$REPO"/sql/comb_ext--*--*.sql; do echo "$extdir/$(basename "$f")"; done
    for f in README.md.gz changelog.gz copyright; do echo "/usr/share/doc/$NAME/$f"; done
} | sort)
actual=$(dpkg-deb --fsys-tarfile "$deb" | tar -t | grep -v '/$' | sed 's#^\./#/#' | sort)
if [ "$expected" != "$actual" ]; then
    diff <(echo "$expected") <(echo "$actual") >&2 || true
    echo "package: files differ from $MAJOR's pg_config paths" >&2
    exit 1
fi
depends=$(dpkg-deb --field "$deb" Depends)
case "$depends" in *"postgresql-$MAJOR"*) ;; *) echo "package: Depends is '$depends'" >&2; exit 1 ;; esac
echo "package: $(echo "$actual" | wc -l) files at PostgreSQL $MAJOR's paths, Depends: $depends"

# The documentation, read back from the package as users get it.
unpacked="$WORK/unpacked"
rm -rf "$unpacked"
dpkg-deb -x "$deb" "$unpacked"
doc="$unpacked/usr/share/doc/$NAME"
head -n1 "$doc/copyright" | grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
    { echo "package: copyright is not in the machine-readable format" >&2; exit 1; }
grep -q '^ THE SOFTWARE IS PROVIDED "AS IS"' "$doc/copyright" ||
    { echo "package: copyright does not carry the licence's text" >&2; exit 1; }
newest=$(zcat "$doc/changelog.gz" | dpkg-parsechangelog -l - -S Version)
releases=$(zcat "$doc/changelog.gz" | dpkg-parsechangelog -l - --all --format rfc822 | grep -c '^Version: ')
[ "$newest" = "$VERSION" ] || { echo "package: changelog.gz's newest entry is $newest, the package $VERSION" >&2; exit 1; }
[ "$releases" -eq "$(grep -c '^## [0-9]' "$REPO/CHANGELOG.md")" ] ||
    { echo "package: changelog.gz has $releases entries, CHANGELOG.md another number" >&2; exit 1; }
zcat "$doc/README.md.gz" | cmp -s - "$REPO/README.md" || { echo "package: README.md.gz is not the README" >&2; exit 1; }
grep -q '\.symtab' <(readelf -S "$unpacked$libdir/comb_ext.so") && { echo "package: the library is not stripped" >&2; exit 1; }
echo "package: /usr/share/doc/$NAME: copyright (DEP-5, Expat), changelog.gz ($releases releases, newest $newest), README.md.gz; library stripped"

# lintian (Debian's package checker): no error. Its warnings and notes are printed; the source-built
# servers (13, 17, 18) live under /var/cache/comb_ext, so their packages' files are in an "unusual dir"
# for Debian, which a package for Debian's own server (15) is not.
if ! command -v lintian >/dev/null; then
    echo "package: installing lintian"
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -q lintian >/dev/null
fi
report=$(as_postgres lintian -I --pedantic "$deb" 2>&1 | grep -v 'root privileges' || true)
[ -z "$report" ] || echo "$report" | sed 's/^/  lintian: /'
errors=$(echo "$report" | grep -c '^E: ' || true)
echo "package: lintian $(lintian --version | awk '{print $2}'): $errors errors, $(echo "$report" | grep -c '^W: ' || true) warnings, $(echo "$report" | grep -c '^[IP]: ' || true) notes"
[ "$errors" -eq 0 ] || { echo "package: lintian reports errors" >&2; exit 1; }

# Only the system server's package can be installed here: the source-built majors are not dpkg's.
[ "$MAJOR" = 15 ] || exit 0

cluster="$WORK/cluster"
cleanup() {
    cluster_stop "$cluster"
    if dpkg-query -W -f='${Status}' "$NAME" 2>/dev/null | grep -q "install ok installed"; then
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 remove -y -q "$NAME" >/dev/null
    fi
}
trap cleanup EXIT
# Users install the package, not a cargo build: remove that copy first, so only the package's files are there.
rm -f "$libdir/comb_ext.so" "$extdir"/comb_ext.control "$extdir"/comb_ext--*.sql
# Another lane of the test command may hold dpkg's lock for a moment: wait for it.
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -q "$deb" >/dev/null
grep -q "$libdir/comb_ext.so" <(dpkg -L "$NAME") || { echo "package: dpkg -L does not list the library" >&2; exit 1; }
echo "package: installed with apt-get: $(dpkg-query -W -f='${Package} ${Version} ${Status}' "$NAME")"

cluster_stop "$cluster"
rm -rf "$cluster"
cluster_start "$cluster" "$PORT"
result=$(cluster_psql "$cluster" "$PORT" -d postgres -qAt <<'SQL'
CREATE EXTENSION comb_ext;
SELECT string_agg(f::text || '=' || (comb_timestamp(comb_uuid(f), f) <= clock_timestamp())::text, ' ' ORDER BY f)
FROM unnest(enum_range(NULL::comb_format)) f;
SELECT sno_time(sno_new()) <= clock_timestamp(), muid_timestamp(muid_new()) <= clock_timestamp(),
       uid8_timestamp(uid8_new('spread')) <= clock_timestamp(), uid8_timestamp(uid8_new('time_sequential')) <= clock_timestamp(),
       (SELECT extversion FROM pg_extension WHERE extname = 'comb_ext');
SQL
)
echo "package: every generator on the packaged extension: $(echo "$result" | tr '\n' ' ')"
case "$result" in
    *=false* | *"|f"* | *"f|"*) echo "package: a generator failed" >&2; exit 1 ;;
esac
[ "$(echo "$result" | tail -n1)" = "t|t|t|t|$VERSION" ] || { echo "package: unexpected result" >&2; exit 1; }
