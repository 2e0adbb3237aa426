#!/usr/bin/env bash
# Installs what building and testing comb_ext needs on Debian 12, skipping what is already there:
# PostgreSQL 15 with its server headers, clang for bindgen, g++ for libFuzzer (tests/fuzz.sh), sudo,
# faketime (tests/clock_step.sh steps a running server's clock), xfsprogs and btrfs-progs (tests/new_volume.sh makes
# fresh xfs and btrfs volumes), cargo-pgrx 0.18.1, and a Python venv
# with psycopg 3 for tests/watermark_harness.py and python-ulid 4.1.0 for tests/text_forms.py.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

packages=(postgresql-15 postgresql-server-dev-15 libclang-dev clang g++ sudo faketime python3 python3-venv xfsprogs btrfs-progs)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
# --packages: the Debian packages alone (scripts/test.sh installs them before starting builds beside the rest).
[ "${1:-}" = --packages ] && exit 0

if [ "$(cargo pgrx --version 2>/dev/null)" != "cargo-pgrx 0.18.1" ]; then
    say "installing cargo-pgrx 0.18.1 (takes a few minutes)"
    # An unoptimised build: 2 min instead of 5 from nothing on 2 cores, and nothing it does is bound by its own
    # speed (it runs cargo, and the extension's own binary for the schema).
    cargo install cargo-pgrx --version 0.18.1 --locked --debug
fi

# psycopg 3 from PyPI into a venv in the cache, the Debian python3 (python3-venv) under it, so
# tests/watermark.sh gets one client whatever else is on PATH and itself downloads nothing; and
# python-ulid, pinned, the reference tests/text_forms.py checks the Crockford text of uuids against
# (tests/vectors/text/generate.py made the vectors with the same version); and python-uuidv47, pinned,
# uuidv47's own C behind a Python API, which tests/masking.py checks comb_mask's uuidv7 façades against
# (tests/vectors/uuidv47/generate.py made the vectors with the same version).
venv=${COMB_EXT_VENV:-${COMB_EXT_CACHE:-/var/cache/comb_ext}/venv}
if ! "$venv/bin/python" -c 'import psycopg' 2>/dev/null; then
    say "installing psycopg into $venv"
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install -q 'psycopg[binary]>=3.1,<4'
fi
if [ "$("$venv/bin/python" -c 'import ulid; print(ulid.__version__)' 2>/dev/null)" != 4.1.0 ]; then
    say "installing python-ulid 4.1.0 into $venv"
    "$venv/bin/pip" install -q 'python-ulid==4.1.0'
fi
if [ "$("$venv/bin/python" -c 'import python_uuidv47; print(python_uuidv47.__version__)' 2>/dev/null)" != 1.0.9 ]; then
    say "installing python-uuidv47 1.0.9 into $venv"
    "$venv/bin/pip" install -q 'python-uuidv47==1.0.9'
fi

# node-postgres, pinned with its integrity hashes by tests/node/package-lock.json (npm ci checks them), for
# tests/name_resolution.py: a driver that sends every parameter untyped. Where npm is missing, that part of the
# test says it is skipped.
node_pg=${COMB_EXT_CACHE:-/var/cache/comb_ext}/node-pg
if command -v npm >/dev/null && ! cmp -s "$REPO/tests/node/package-lock.json" "$node_pg/package-lock.json"; then
    say "installing node-postgres (tests/node/package-lock.json) into $node_pg"
    rm -rf "$node_pg"
    mkdir -p "$node_pg"
    cp "$REPO/tests/node/package.json" "$REPO/tests/node/package-lock.json" "$node_pg/"
    (cd "$node_pg" && npm ci --ignore-scripts --no-audit --no-fund --no-update-notifier >/dev/null)
fi

# Point pgrx at every PostgreSQL there is here (downloads nothing).
bash "$REPO/scripts/pg.sh" pgrx-init
