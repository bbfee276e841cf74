#!/usr/bin/env bash
# What building for a processor level costs: Tablut perft(5), bulk counting and every leaf
# played, one thread, from three builds of examples/perft in one run, the runs alternating
# (build after build, round after round), so that each build sees the same machine load.
#
#   scripts/perft-cpu-levels.sh [rounds]      (default 7)
#
# The builds: the default (`.cargo/config.toml`: x86-64-v2), x86-64-v3, and native (this
# processor), each in its own target directory under target/cpu-levels/. Prints the median
# seconds of each build and mode and its ratio to the native build's.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-7}"

declare -A flags=([default]="" [x86-64-v3]="-C target-cpu=x86-64-v3" [native]="-C target-cpu=native")
builds=(default x86-64-v3 native)
for build in "${builds[@]}"; do
    dir="target/cpu-levels/$build"
    if [ -n "${flags[$build]}" ]; then
        RUSTFLAGS="${flags[$build]}" CARGO_TARGET_DIR="$dir" cargo build --quiet --release --example perft
    else
        # No RUSTFLAGS: the default build, as `cargo build --release` makes it.
        env -u RUSTFLAGS CARGO_TARGET_DIR="$dir" cargo build --quiet --release --example perft
    fi
done

results="$(mktemp)"
trap 'rm -f "$results"' EXIT
for round in $(seq "$rounds"); do
    for mode in bulk no-bulk; do
        extra=()
        [ "$mode" = no-bulk ] && extra=(--no-bulk)
        for build in "${builds[@]}"; do
            line=$("target/cpu-levels/$build/release/examples/perft" tablut 5 --only "${extra[@]}" 2>/dev/null \
                | grep -E '^perft 5:')
            # "perft 5:  1611674360 leaves  0.170 s  9480.0 M leaves/s  (cpu 0.170 s)": the
            # processor seconds (the machine may be shared: waiting for a core is not counted).
            seconds=$(echo "$line" | sed -E 's/.*\(cpu ([0-9.]+) s\).*/\1/')
            echo "$mode $build $seconds" >> "$results"
        done
    done
    echo "round $round of $rounds done" >&2
done

echo "Tablut perft(5), one thread, medians of $rounds alternating runs (processor seconds; ratio to native)"
for mode in bulk no-bulk; do
    native=$(awk -v m="$mode" '$1 == m && $2 == "native" { print $3 }' "$results" | sort -g \
        | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    for build in "${builds[@]}"; do
        values=$(awk -v m="$mode" -v b="$build" '$1 == m && $2 == b { print $3 }' "$results" | sort -g)
        median=$(echo "$values" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
        range=$(echo "$values" | awk 'NR == 1 { low = $1 } { high = $1 } END { print low " to " high }')
        printf "  %-8s %-10s %8.3f s  (%s)  x%.3f\n" "$mode" "$build" "$median" "$range" \
            "$(echo "$median $native" | awk '{ print $1 / $2 }')"
    done
done
