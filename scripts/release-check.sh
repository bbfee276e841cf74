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
"$venv/bin/python" - "${sdist[0]}" <<'EOF'
import email, sys, tarfile
with tarfile.open(sys.argv[1]) as tar:
    names = tar.getnames()
    info = next(n for n in names if n.count("/") == 1 and n.endswith("/PKG-INFO"))
    meta = email.message_from_bytes(tar.extractfile(info).read())
want = {"Name": "tafl-engine", "Requires-Python": ">=3.9"}
for key, value in want.items():
    assert meta[key] == value, f"PKG-INFO {key}: {meta[key]!r}, expected {value!r}"
for key in ("Version", "Summary", "License", "Description-Content-Type"):
    assert meta[key], f"PKG-INFO has no {key}"
assert "numpy" in " ".join(meta.get_all("Requires-Dist") or []), "numpy is not a dependency"
assert meta.get_payload().strip(), "PKG-INFO has no long description (the README)"
# The Rust source a build from the sdist needs: the library and the binding crate.
for needed in ("src/lib.rs", "python/src/lib.rs", "Cargo.toml"):
    assert any(n.endswith("/" + needed) for n in names), f"the sdist lacks {needed}"
print(f"PKG-INFO: {meta['Name']} {meta['Version']}, {meta['License']}, "
      f"Python {meta['Requires-Python']}, {len(meta.get_payload())} characters of README")
EOF
fresh="target/python-sdist-venv"
rm -rf "$fresh"
python3 -m venv "$fresh"
# The extension is built from the sdist as a user's pip would; the build reuses this
# repository's target directory for the dependencies it has already compiled.
CARGO_TARGET_DIR="$root/target/python-sdist-build" "$fresh/bin/python" -m pip install \
    --quiet --disable-pip-version-check -c python/ci-constraints.txt "${sdist[0]}[env]" pytest
# Run the tests against the installed package, not the source tree's python/ folder.
tests=$(mktemp -d)
cp -r python/tests "$tests/"
(cd "$tests" && "$root/$fresh/bin/python" -m pytest -q -p no:cacheprovider -W ignore::UserWarning \
    --ignore=tests/test_selfplay_ray.py tests)
rm -rf "$tests"
if [ "$semver" -ne 0 ]; then
    echo "cargo semver-checks found breaking changes (exit $semver): see above"
    exit "$semver"
fi
echo "release check passed"
