#!/usr/bin/env bash
# Fuzzing (cargo-fuzz, libFuzzer) of every parser and decoder in src/rules: sno text, muid text,
# every COMB decoder and order, uid8 decode, the medallion setting, the text forms, keyed masking. Each target asserts round trips as well as "no panic".
# Runs each target for SECONDS (default 60) from its committed corpus in fuzz/corpus/; what it finds
# on the way goes to fuzz/target/corpus/.
#   bash tests/fuzz.sh [seconds]
#   bash tests/fuzz.sh --install-only   (cargo-fuzz only: the gate installs it early, beside the lint gate)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
SECONDS_EACH=${1:-60}
TARGETS=(sno_text muid_text comb_decode uid8_decode medallion text_forms mask)

if ! cargo fuzz --version 2>/dev/null | grep -q "0.13.2"; then
    say "installing cargo-fuzz 0.13.2"
    # Unoptimised, as cargo-pgrx (scripts/setup.sh): it only drives cargo and the fuzzers.
    cargo install cargo-fuzz --version 0.13.2 --locked --debug
fi
[ "${1:-}" != --install-only ] || exit 0
cd "$REPO/fuzz"
# The targets call only src/rules: built with --cfg rules_only, comb_ext leaves out pgrx and everything that
# touches PostgreSQL (src/lib.rs), which from nothing cut the build from 12.5 min. cargo fuzz appends its own
# flags to these; every cargo fuzz call below must see the same, or it builds again.
export RUSTFLAGS="${RUSTFLAGS:-}${RUSTFLAGS:+ }--cfg rules_only"
# No sanitizer: the targets are safe Rust, and AddressSanitizer would need a nightly compiler.
cargo fuzz build --sanitizer none
# fuzz_target TARGET: runs it for SECONDS_EACH; a crash (panic or failed assertion) makes cargo fuzz exit non-zero
# and keep the input in fuzz/artifacts/TARGET. New inputs go to a scratch corpus (the first directory), so a run
# leaves the committed one as it is.
fuzz_target() {
    local target=$1 log="$REPO/fuzz/target/$1.log" scratch="$REPO/fuzz/target/corpus/$1"
    mkdir -p "$REPO/fuzz/corpus/$target" "$scratch"
    if ! cargo fuzz run --sanitizer none "$target" "$scratch" "$REPO/fuzz/corpus/$target" -- -max_total_time="$SECONDS_EACH" >"$log" 2>&1; then
        tail -40 "$log"
        echo "fuzz: $target failed, see fuzz/artifacts/$target" >&2
        return 1
    fi
    grep -E "^Done" "$log" | sed "s/^/$target: /"
}
# Two targets at a time, one per core: a fuzzer is single-threaded, and in the gate's last minutes this lane runs
# alone. Each still gets its SECONDS_EACH of wall time.
for ((i = 0; i < ${#TARGETS[@]}; i += 2)); do
    pair=("${TARGETS[@]:i:2}")
    say "fuzzing ${pair[*]} for $SECONDS_EACH s"
    pids=()
    for target in "${pair[@]}"; do
        fuzz_target "$target" &
        pids+=($!)
    done
    failed=0
    for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
    [ $failed -eq 0 ] || exit 1
done
echo "fuzz: ${#TARGETS[@]} targets, $SECONDS_EACH s each, no crash"
