#!/usr/bin/env bash
# Deterministic performance figure: the number of instructions a fixed perft run executes, counted
# by valgrind's callgrind. Timing on a shared machine is noisy; instruction counts are not, so a
# regression of a few percent shows up here even when `cargo bench` cannot see it.
#
# Usage: scripts/instructions.sh [game] [depth]   (default: tablut 4)
# Prints one line: `instructions: N`.
set -euo pipefail

game="${1:-tablut}"
depth="${2:-4}"
cd "$(dirname "$0")/.."

cargo build --quiet --release --example perft
binary="target/release/examples/perft"

# callgrind prints "Collected : N" (instructions executed) in its summary on stderr.
summary="$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$binary" "$game" "$depth" --only 2>&1 >/dev/null)"
count="$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' <<<"$summary")"
if [[ -z "$count" ]]; then
    echo "could not read the instruction count from valgrind's output:" >&2
    echo "$summary" >&2
    exit 1
fi
echo "instructions: $count"
