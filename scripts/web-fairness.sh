#!/usr/bin/env bash
# Fairness of the web server's search queue (docs/web.md): 20 players at 100 ms a move on two
# search slots for 60 s alone, then 60 s while one address asks for 8 s hints in a loop from ten
# games; fails when an engine move waited more than one search beyond its wait without the
# flood. Not part of CI: it takes two minutes and both cores.
#   bash scripts/web-fairness.sh [PLAYERS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p tafl-web --bin tafl-web --example fairness
target/release/examples/fairness target/release/tafl-web "${1:-20}" "${2:-60}"
