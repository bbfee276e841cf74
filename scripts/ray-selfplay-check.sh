#!/usr/bin/env bash
# The self-play tests alone, Ray's included (a local Ray with 2 CPUs; a worker killed mid-game),
# as .ci/run runs them among the others: builds the wheel as .ci/run does, installs it with the
# `ray` extra (pinned in python/ci-constraints.txt) into a new virtual environment under target/,
# and runs them. Prints how long each step took.
#
#   scripts/ray-selfplay-check.sh            # a fresh environment each time
#   KEEP_VENV=1 scripts/ray-selfplay-check.sh  # reuse target/ray-selfplay-venv if it exists
set -euo pipefail
cd "$(dirname "$0")/.."

venv="target/ray-selfplay-venv"
wheels="target/ray-selfplay-wheels"
step_started=$SECONDS
step() { echo "== $1 ($((SECONDS - step_started)) s)"; step_started=$SECONDS; }

if [ -z "${KEEP_VENV:-}" ] || [ ! -x "$venv/bin/python" ]; then
    rm -rf "$venv"
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check maturin==1.16.0
step "virtual environment and maturin"

rm -rf "$wheels"
"$venv/bin/maturin" build --release --quiet -m python/Cargo.toml -o "$wheels"
wheel=("$wheels"/*.whl)
step "wheel built: ${wheel[0]##*/}"

"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    -c python/ci-constraints.txt "${wheel[0]}[ray]" pytest
# The wheel itself again when KEEP_VENV kept an install of the same version.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall \
    --no-deps "${wheel[0]}"
step "installed with the ray extra ($("$venv/bin/python" -c 'import ray; print("ray", ray.__version__)'))"

(cd python && "../$venv/bin/python" -m pytest -q -p no:cacheprovider \
    tests/test_selfplay.py tests/test_selfplay_ray.py)
step "self-play tests, Ray's included"
