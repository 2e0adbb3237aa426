#!/usr/bin/env bash
# Installs what building and testing comb_ext needs on Debian 12, skipping what is already there:
# PostgreSQL 15 with its server headers, clang for bindgen, g++ for libFuzzer (tests/fuzz.sh), sudo,
# faketime (tests/clock_step.sh steps a running server's clock) and cargo-pgrx 0.18.1.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

packages=(postgresql-15 postgresql-server-dev-15 libclang-dev clang g++ sudo faketime)
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

if [ "$(cargo pgrx --version 2>/dev/null)" != "cargo-pgrx 0.18.1" ]; then
    say "installing cargo-pgrx 0.18.1 (takes several minutes)"
    cargo install cargo-pgrx --version 0.18.1 --locked
fi

# Point pgrx at every PostgreSQL there is here (downloads nothing).
bash "$REPO/scripts/pg.sh" pgrx-init
