#!/usr/bin/env bash
# Deterministic performance figure: the number of instructions a fixed perft run executes, counted
# by valgrind's callgrind. Timing on a shared machine is noisy; instruction counts are not, so a
# regression of a few percent shows up here even when `cargo bench` cannot see it.
#
# The run is built for one fixed processor level, x86-64-v3 (AVX2, BMI1/2, popcount), in its own
# target directory, not for the default level (`.cargo/config.toml` says x86-64-v2): so the
# figure is the same on every machine that can run it, and valgrind can decode every instruction
# (valgrind 3.19 stops with SIGILL at the AVX-512 instructions a `native` build uses on a processor
# that has them).
#
# Usage: scripts/instructions.sh [game] [depth]   (default: tablut 4)
# Prints one line: `instructions: N`.
set -euo pipefail

game="${1:-tablut}"
depth="${2:-4}"
cd "$(dirname "$0")/.."

if ! command -v valgrind >/dev/null; then
    echo "scripts/instructions.sh needs valgrind (Debian: apt-get install valgrind)" >&2
    exit 1
fi

export CARGO_TARGET_DIR="target/instructions"
RUSTFLAGS="-C target-cpu=x86-64-v3" cargo build --quiet --release --example perft
binary="$CARGO_TARGET_DIR/release/examples/perft"

# callgrind prints "Collected : N" (instructions executed) in its summary on stderr. A run that
# valgrind stopped is an error, not a figure.
if ! summary="$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$binary" "$game" "$depth" --only 2>&1 >/dev/null)"; then
    echo "the run under valgrind failed:" >&2
    echo "$summary" >&2
    exit 1
fi
count="$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' <<<"$summary")"
if [[ -z "$count" ]]; then
    echo "could not read the instruction count from valgrind's output:" >&2
    echo "$summary" >&2
    exit 1
fi
echo "instructions: $count"
