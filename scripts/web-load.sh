#!/usr/bin/env bash
# Load test of the web server (docs/web.md): 200 simulated players on loopback for 60 s, each
# playing against the engine at 100 ms a move; then kill -9 and a restart, checking that every
# acknowledged move is in the database. Not part of CI: it takes a minute and all the cores.
#   bash scripts/web-load.sh [PLAYERS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p tafl-web --bin tafl-web --example load
target/release/examples/load target/release/tafl-web "${1:-200}" "${2:-60}"
