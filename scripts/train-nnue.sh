#!/usr/bin/env bash
# Trains Copenhagen's network (the corner-escape 11x11 family) from nothing but this project:
# self-play with the hand-written evaluation, then a network fitted to look-ahead targets.
# It is how src/search/networks/corner-11.nnue was made (docs/nnue.md); about two and a half
# hours on 2 cores. Not part of CI.
#
#   scripts/train-nnue.sh [OUTPUT-DIR]      (default target/nnue-training)
#
# The network is OUTPUT-DIR/corner-11.nnue. Try it before committing it:
#   cargo run --release -- --network OUTPUT-DIR/corner-11.nnue
# and measure it against the built-in one with tafl-match (docs/nnue.md).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/nnue-training}"
mkdir -p "$out"
threads="${THREADS:-2}"

cargo build --release --example nnue
nnue=target/release/examples/nnue

run() { echo "+ $*"; "$@"; }

# 1. Self-play with the hand-written evaluation. The attackers get more nodes than the
#    defenders (4x, then 8x), else the defenders win nearly every game and the positions
#    teach little about attacking; random opening plies spread the games out.
[ -s "$out/gen0.tsv" ] || run "$nnue" datagen --variant copenhagen --hand-eval \
    --games 1600 --nodes 3000 --attacker-nodes 12000 --opening-plies 4 --seed 1 \
    --threads "$threads" --out "$out/gen0.tsv"
[ -s "$out/gen0b.tsv" ] || run "$nnue" datagen --variant copenhagen --hand-eval \
    --games 3000 --nodes 1000 --attacker-nodes 8000 --opening-plies 8 --seed 2 \
    --threads "$threads" --out "$out/gen0b.tsv"

# 2. The network: targets that look ahead in each game (the search's later scores, then the
#    result, weighed by 0.9 per ply of distance); the epoch that validates best is kept.
run "$nnue" train --data "$out/gen0.tsv,$out/gen0b.tsv" --out "$out/corner-11.nnue" \
    --epochs 10 --batch 1024 --lr 0.002 --td 0.9 --seed 1 --threads "$threads"

# 3. What it thinks of the start, beside the hand-written evaluation.
run "$nnue" show --network "$out/corner-11.nnue" --variant copenhagen
