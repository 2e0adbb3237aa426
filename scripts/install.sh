#!/usr/bin/env bash
# Builds comb_ext for one PostgreSQL and installs it the way dpkg does: each file is written beside
# its target, in the same directory, and renamed over it. `cargo pgrx install` writes the control file
# and the SQL scripts in place and writes the library over a path that is missing, then half written,
# while the copy runs; a backend that has a file mapped which is then rewritten in place can die with
# SIGBUS. After a rename, running backends keep the old file, new ones get the whole new one.
#   bash scripts/install.sh [--release] [--pg-config PATH]
# --pg-config defaults to $PG_CONFIG, else the system's PostgreSQL 15. A dev-profile build (as
# `cargo pgrx install`) unless --release or COMB_EXT_PROFILE=release (the test command's lanes set it, so
# the tests that reinstall keep the lane's build). Builds in $CARGO_TARGET_DIR (default target/), staged
# there by `cargo pgrx package`; installs into that pg_config's --pkglibdir and --sharedir/extension.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

profile=(--debug)
[ "${COMB_EXT_PROFILE:-debug}" != release ] || profile=()
while [ $# -gt 0 ]; do
    case $1 in
        --release) profile=() ;;
        --pg-config) PG_CONFIG=${2:?--pg-config needs a path}; shift ;;
        --pg-config=*) PG_CONFIG=${1#*=} ;;
        *) sed -n '7,11p' "$0" >&2; exit 2 ;;
    esac
    shift
done

target=${CARGO_TARGET_DIR:-$REPO/target}
mkdir -p "$target"
libdir=$("$PG_CONFIG" --pkglibdir)
extdir="$("$PG_CONFIG" --sharedir)/extension"
# A fresh staging tree each time, so no file of an earlier build is installed.
stage=$(mktemp -d "$target/install-stage.XXXXXX")
temps=()
cleanup() { rm -rf "$stage" "${temps[@]}"; }
trap cleanup EXIT

(cd "$REPO" && cargo pgrx package --pg-config "$PG_CONFIG" "${profile[@]}" --out-dir "$stage")

# The order of the renames below: SQL scripts, then the control file (its default_version must not
# name a script that is not there yet), then the library. Three renames are not one atomic step;
# with the library last, a CREATE/ALTER EXTENSION in between runs new scripts against the old library
# and fails with an error if a function is missing from it, while every running backend keeps the
# library it has mapped either way.
scripts=() control=() library=()
while IFS= read -r -d '' f; do
    dest=${f#"$stage"}
    case $dest in
        "$extdir"/*.sql) scripts+=("$dest") ;;
        "$extdir"/*.control) control+=("$dest") ;;
        "$libdir"/*.so) library+=("$dest") ;;
        *) echo "install: unexpected file in the build: $dest" >&2; exit 1 ;;
    esac
done < <(find "$stage" -type f -print0 | sort -z)
if [ ${#scripts[@]} -eq 0 ] || [ ${#control[@]} -ne 1 ] || [ ${#library[@]} -ne 1 ]; then
    echo "install: the build lacks the library, the control file or an SQL script" >&2
    exit 1
fi
files=("${scripts[@]}" "${control[@]}" "${library[@]}")

# Every copy is made and flushed before the first rename, so a full disk or a failed copy changes
# nothing installed.
mkdir -p "$extdir"
for dest in "${files[@]}"; do
    tmp=$(mktemp "$(dirname "$dest")/.$(basename "$dest").XXXXXX")
    temps+=("$tmp")
    cp "$stage$dest" "$tmp"
    case $dest in *.so) chmod 0755 "$tmp" ;; *) chmod 0644 "$tmp" ;; esac
done
sync -- "${temps[@]}"
for i in "${!files[@]}"; do
    # Same directory, so mv is rename(2).
    mv -fT "${temps[i]}" "${files[i]}"
    echo "installed ${files[i]}"
done
temps=()
