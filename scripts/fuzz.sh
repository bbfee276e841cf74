#!/usr/bin/env bash
# Live fuzzing of every target in fuzz/ for a short while each (see docs/fuzzing.md).
#
#   scripts/fuzz.sh            every target, FUZZ_SECONDS (default 30) each
#   scripts/fuzz.sh TARGET...  only these targets
#   FUZZ_JOBS=1 scripts/fuzz.sh  one target at a time (default: one per core)
#
# Needs a nightly toolchain (libFuzzer's instrumentation); installs cargo-fuzz if it is missing.
# Without nightly it only says so and exits 0: the committed corpora still replay through the
# same checks in `cargo test` (tests/repository/fuzz_corpus_replay.rs).
# Exits non-zero when a target finds a crash; the input is left in fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-30}"
# Debug assertions on (overflow checks: an overflow is a finding); no AddressSanitizer: the
# crate forbids unsafe code, and without ASan the targets run several times faster.
build_flags=(--sanitizer none --debug-assertions)

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz: no nightly toolchain, skipping live fuzzing (the corpora replay in cargo test)"
    exit 0
fi

if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "fuzz: installing cargo-fuzz"
    cargo install cargo-fuzz --locked || cargo install cargo-fuzz
fi

if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cd fuzz && cargo +nightly fuzz list)
fi

# New inputs that libFuzzer finds go to a scratch directory, so the committed seed corpus
# (read as a second, read-only corpus directory) stays as it is.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

(cd fuzz && cargo +nightly fuzz build "${build_flags[@]}")

# One target per core at a time (FUZZ_JOBS, default the number of cores): each libFuzzer process
# is single-threaded, so on 2 cores two targets fuzz side by side for the same time each, and the
# step takes half as long as one after the other.
jobs="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"

# Fuzzes one target; its log and a line "ok" or "failed" go to the scratch directory.
fuzz_target() {
    local target="$1" start dict=() log="$scratch/$1.log"
    mkdir -p "$scratch/$target"
    start=$(date +%s)
    # A dictionary of the target's keywords, if it has one, helps the fuzzer write commands.
    if [ -f "fuzz/dicts/$target.dict" ]; then dict=(-dict="dicts/$target.dict"); fi
    # libFuzzer reports every new input; keep that in a log and show only the final stats, or
    # the end of the log when the target fails.
    if (cd fuzz && cargo +nightly fuzz run "${build_flags[@]}" "$target" "$scratch/$target" "corpus/$target" -- \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 "${dict[@]}") >"$log" 2>&1; then
        echo "ok $(($(date +%s) - start))" >"$scratch/$target.status"
    else
        echo "failed $(($(date +%s) - start))" >"$scratch/$target.status"
    fi
}

echo "== fuzz ${#targets[@]} targets for ${seconds}s each, $jobs at a time"
running=0
for target in "${targets[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n || true
        running=$((running - 1))
    fi
    fuzz_target "$target" &
    running=$((running + 1))
done
wait || true

failed=()
for target in "${targets[@]}"; do
    read -r status elapsed <"$scratch/$target.status" || status=failed
    if [ "$status" = ok ]; then
        grep -E "^stat::(number_of_executed_units|peak_rss_mb)" "$scratch/$target.log" | sed "s/^/$target /" || true
        echo "== $target: no crash in ${elapsed}s"
    else
        tail -n 60 "$scratch/$target.log"
        echo "== $target: FAILED (input in fuzz/artifacts/$target/)"
        failed+=("$target")
    fi
done

if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz: crashes in: ${failed[*]}"
    exit 1
fi
echo "fuzz: every target ran ${seconds}s without a crash"
