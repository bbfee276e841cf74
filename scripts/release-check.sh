#!/usr/bin/env bash
# Before a release: the checks too slow for every CI run (.ci/run has the package's dry-run
# publish and its unit tests and doctests from the tarball). Run from anywhere:
#   bash scripts/release-check.sh
#
# 0. The library's package: every test of it (integration tests too) from the unpacked tarball.
# 1. cargo semver-checks: the library's public API against the last tag `v*` (installed here,
#    pinned, under target/release-tools/, if missing). A break must bump the minor version
#    while 0.x, and be named in CHANGELOG.md.
# 2. The Python package as PyPI would get it: `maturin sdist`, its metadata (PKG-INFO: name,
#    version, summary, licence, Python and README) checked, installed from the sdist into a
#    fresh virtual environment (pip builds the extension from the Rust source in it) and
#    tested with the package's pytest suite.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

echo "== the library's package: every test of it from the unpacked tarball"
# .ci/run runs its unit tests and doctests; here its integration tests too (a second build of
# every test binary: about 6 minutes of CPU).
cargo package --quiet --no-verify -p tafl-engine 2>/dev/null
crate=$(find target/package -name 'tafl-engine-*.crate' -printf '%T@ %p\n' | sort -n | tail -1 | cut -d' ' -f2)
unpacked=$(mktemp -d)
tar -xzf "$crate" -C "$unpacked"
(cd "$unpacked"/tafl-engine-* && CARGO_TARGET_DIR="$root/target" cargo test --locked)
rm -rf "$unpacked"

echo "== cargo semver-checks against the last tag"
tools="$root/target/release-tools"
if ! command -v cargo-semver-checks >/dev/null && [ ! -x "$tools/bin/cargo-semver-checks" ]; then
    cargo install --locked --quiet --root "$tools" cargo-semver-checks@0.51.0
fi
export PATH="$tools/bin:$PATH"
baseline=$(git describe --tags --abbrev=0 --match 'v*')
echo "baseline: $baseline ($(git rev-parse --short "$baseline"))"
# Exit status 1 means a breaking change without the version bump it needs: reported, and the
# script goes on to the Python checks, then fails at the end.
semver=0
cargo semver-checks check-release -p tafl-engine --baseline-rev "$baseline" || semver=$?

echo "== Python: maturin sdist, its metadata, installed from it into a fresh venv, pytest"
venv="target/python-ci-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check maturin==1.16.0
rm -rf target/python-sdist && mkdir -p target/python-sdist
"$venv/bin/maturin" sdist -m python/Cargo.toml -o target/python-sdist
sdist=(target/python-sdist/*.tar.gz)
echo "sdist: ${sdist[0]##*/}, $(du -k "${sdist[0]}" | cut -f1) KiB, $(tar -tzf "${sdist[0]}" | wc -l) files"
"$venv/bin/python" scripts/check-sdist.py "${sdist[0]}"
fresh="target/python-sdist-venv"
rm -rf "$fresh"
python3 -m venv "$fresh"
# The extension is built from the sdist as a user's pip would (in pip's temporary copy, without
# this repository's .cargo/config.toml), in a target directory of its own kept between runs.
CARGO_TARGET_DIR="$root/target/python-sdist-build" "$fresh/bin/python" -m pip install \
    --quiet --disable-pip-version-check -c python/ci-constraints.txt "${sdist[0]}[env]" pytest
# The tests against the installed package: from python/, as .ci/run runs them (the package's
# source lives in python/python/, so nothing here shadows the installed one; the tests read the
# repository's fixtures, tests/data/).
(cd python && "$root/$fresh/bin/python" -m pytest -q -p no:cacheprovider -W ignore::UserWarning \
    --ignore=tests/test_selfplay_ray.py tests)
if [ "$semver" -ne 0 ]; then
    echo "cargo semver-checks found breaking changes (exit $semver): see above"
    exit "$semver"
fi
echo "release check passed"
