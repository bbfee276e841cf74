#!/usr/bin/env bash
# Trains one of the built-in networks from nothing but this project: self-play with the
# hand-written evaluation, then a network fitted to look-ahead targets (docs/nnue.md).
#
#   scripts/train-nnue.sh NETWORK [OUTPUT-DIR]      (default OUTPUT-DIR: target/nnue-NETWORK)
#
# NETWORK is the name of a file in src/search/networks/ without .nnue:
#   corner-11   Copenhagen and the corner-escape 11x11 games  (about 2.5 hours on 2 cores)
#   edge-9      this project's Tablut                          (about 15 minutes)
#   edge-11     this project's Tawlbwrdd                       (about 15 minutes)
#   corner-7    the 7x7 games: Brandub, hnefatafl.org's Brandubh (about 5 minutes)
#   corner-13   hnefatafl.org's 13x13 Copenhagen (the wide grid)   (about 25 minutes, THREADS=1)
#   edge-13     Sea Battle 13x13 (OpenTafl's rules string; the wide grid)  (about 45 minutes, THREADS=1)
#
# It writes OUTPUT-DIR/NETWORK.nnue and OUTPUT-DIR/NETWORK.txt: the commands run, the data
# files' sizes and checksums and the trainer's report, which is what sits beside each built-in
# network in src/search/networks/. Try a network before committing it:
#   cargo run --release -- --network OUTPUT-DIR/NETWORK.nnue
# and measure it against the hand-written evaluation with tafl-match (docs/nnue.md). Not part
# of CI. THREADS (default 2) sets the threads of every step.
set -euo pipefail
cd "$(dirname "$0")/.."
network="${1:?usage: scripts/train-nnue.sh corner-11|edge-9|edge-11|corner-7|corner-13|edge-13 [OUTPUT-DIR]}"
out="${2:-target/nnue-$network}"
mkdir -p "$out"
threads="${THREADS:-2}"
recipe="$out/$network.txt"

cargo build --release --example nnue
nnue=target/release/examples/nnue

{
    echo "# $network.nnue: how it was made (scripts/train-nnue.sh $network)"
    echo "# $(date -u +%Y-%m-%d) at $(git rev-parse --short HEAD 2>/dev/null || echo '?'), THREADS=$threads"
} >"$recipe"
run() {
    echo "+ $*" | tee -a "$recipe"
    "$@" 2>&1 | tee -a "$recipe"
}
# Data files are made once: an existing one is kept (delete it to make it again).
datagen() {
    local file="$1"
    shift
    if [ -s "$out/$file" ]; then
        echo "+ (kept) nnue datagen $* --out $out/$file" | tee -a "$recipe"
    else
        run "$nnue" datagen "$@" --threads "$threads" --out "$out/$file"
    fi
    echo "  $file: $(wc -l <"$out/$file") positions, md5 $(md5sum "$out/$file" | cut -d' ' -f1)" \
        | tee -a "$recipe"
}
train() {
    run "$nnue" train "$@" --out "$out/$network.nnue" --epochs 10 --batch 1024 --lr 0.002 \
        --td 0.9 --seed 1 --threads "$threads"
}

# Self-play with the hand-written evaluation, random opening plies to spread the games out;
# where one side wins nearly every game at equal nodes, the other gets more nodes, so that the
# positions teach something about both sides' play. The targets look ahead in each game (the
# search's later scores, then the result, weighed by 0.9 per ply of distance), and the epoch
# that validates best is kept.
case "$network" in
corner-11)
    datagen gen0.tsv --variant copenhagen --hand-eval --games 1600 --nodes 3000 \
        --attacker-nodes 12000 --opening-plies 4 --seed 1
    datagen gen0b.tsv --variant copenhagen --hand-eval --games 3000 --nodes 1000 \
        --attacker-nodes 8000 --opening-plies 8 --seed 2
    train --variant copenhagen --data "$out/gen0.tsv,$out/gen0b.tsv"
    show=copenhagen
    ;;
edge-9)
    datagen gen0.tsv --variant tablut --hand-eval --games 10000 --nodes 8000 \
        --opening-plies 6 --seed 1
    train --variant tablut --data "$out/gen0.tsv"
    show=tablut
    ;;
edge-11)
    datagen gen0.tsv --variant tawlbwrdd --hand-eval --games 6000 --nodes 8000 \
        --opening-plies 6 --seed 1
    train --variant tawlbwrdd --data "$out/gen0.tsv"
    show=tawlbwrdd
    ;;
corner-7)
    datagen gen0.tsv --variant brandub --hand-eval --games 12000 --nodes 6000 \
        --attacker-nodes 12000 --opening-plies 4 --seed 1
    datagen gen0b.tsv --variant hnefatafl-org-brandubh --hand-eval --games 12000 --nodes 6000 \
        --attacker-nodes 12000 --opening-plies 4 --seed 2
    train --variant brandub --data "$out/gen0.tsv,$out/gen0b.tsv"
    show=brandub
    ;;
corner-13)
    # hnefatafl.org draws a game at its 141st move (H10): at these budgets most games run to
    # it, so the data holds many draws; the attackers' extra nodes are corner-11's. A 13x13
    # game takes about 1.4 s at 3 000 / 12 000 nodes on one thread, 0.7 s at 1 000 / 8 000.
    datagen gen0.tsv --variant hnefatafl-org-copenhagen-13 --hand-eval --games 500 \
        --nodes 3000 --attacker-nodes 12000 --opening-plies 4 --seed 1
    datagen gen0b.tsv --variant hnefatafl-org-copenhagen-13 --hand-eval --games 900 \
        --nodes 1000 --attacker-nodes 8000 --opening-plies 8 --seed 2
    train --variant hnefatafl-org-copenhagen-13 --data "$out/gen0.tsv,$out/gen0b.tsv"
    show=hnefatafl-org-copenhagen-13
    ;;
edge-13)
    # Sea Battle 13x13 has no name: its rules string is OpenTafl's (tests/data/opentafl-wide.txt).
    sea_battle_13='dim:13 name:Sea_Battle_(Parlett) esc:e atkf:y ka:n nj:n cj:n cor: cen: start:/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4/'
    # A network alone, trained on these games, lost to the hand-written evaluation: it has to
    # learn the king's ways to the edge from piece squares alone. On top of the hand-written
    # evaluation (its output added to the terms'), it gains. Trained with THREADS=1.
    datagen gen0.tsv --variant "$sea_battle_13" --hand-eval --games 5000 --nodes 4000 \
        --opening-plies 6 --seed 1
    train --variant "$sea_battle_13" --data "$out/gen0.tsv" --on-hand-written
    show="$sea_battle_13"
    ;;
*)
    echo "unknown network $network: corner-11, edge-9, edge-11, corner-7, corner-13 or edge-13" >&2
    exit 2
    ;;
esac

# What the network thinks of the start, beside the hand-written evaluation.
run "$nnue" show --network "$out/$network.nnue" --variant "$show"
# The recipe keeps each step's summary, not datagen's progress lines.
sed -i '/ games ([0-9]* s): /d' "$recipe"
echo "wrote $out/$network.nnue and $recipe"
