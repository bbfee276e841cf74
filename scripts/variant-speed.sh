#!/usr/bin/env bash
# Every built-in game's speed against the classic path of its board size, in one run: perft
# leaves per second and search nodes per second (one thread), through the binary as a user drives
# it (`rules <name>`, then `perft <depth>` or `go movetime <ms>`). The runs are interleaved, game
# after game, round after round, so that the machine's load hits every game alike; each game's
# figure is the median of its rounds, and its ratio is taken to the classic game's median of the
# same run: Tablut for 9x9 and 7x7 boards, Tawlbwrdd for 11x11 and for 13x13 (no classic game is
# that large).
#
#   scripts/variant-speed.sh [rounds] [movetime-ms]      (default: 3 rounds, 1000 ms)
#
# Prints a Markdown table (docs/performance.md, "Every game's speed").
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
movetime="${2:-1000}"

cargo build --quiet --release -p tafl-engine-cli --bin tafl-engine
engine="target/release/tafl-engine"

# name, board size, perft depth: a count of roughly 0.2 to 3 s on the project machine, the games
# of one board size at the classic game's depth (so that their leaves compare alike) but those
# whose count plays every leaf (hnefatafl.org's, Ashton's camps), one depth less.
games=(
    "tablut 9 5"
    "tawlbwrdd 11 5"
    "sea-battle 9 5"
    "opentafl-tablut 9 5"
    "foteviken-tablut 9 5"
    "ashton 9 4"
    "fetlar 11 5"
    "copenhagen 11 5"
    "copenhagen-relaxed 11 5"
    "copenhagen-aagenielsen 11 5"
    "opentafl-tawlbwrdd 11 5"
    "hnefatafl-org-copenhagen 11 4"
    "brandub 7 5"
    "magpie 7 5"
    "hnefatafl-org-brandubh 7 4"
    "hnefatafl-org-copenhagen-13 13 3"
)

results="$(mktemp)"
evaluations="$(mktemp)"
trap 'rm -f "$results" "$evaluations"' EXIT
for round in $(seq "$rounds"); do
    for entry in "${games[@]}"; do
        read -r name size depth <<<"$entry"
        # "perft 5 1611674360 time 0.314 nps 5132720891": leaves and seconds.
        perft=$(printf 'rules %s\nperft %s\n' "$name" "$depth" | "$engine" --threads 1 \
            | grep -E "^perft $depth ")
        read -r _ _ leaves _ seconds _ <<<"$perft"
        # The last "info depth <d> ... nodes <n> nps <n> time <s> ..." line of the search.
        search=$(printf 'rules %s\ngo movetime %s\n' "$name" "$movetime" | "$engine" --threads 1)
        info=$(grep -E '^info depth ' <<<"$search" | tail -n 1)
        # "info string evaluation network corner-11 (built-in)": which evaluation searched.
        evaluation=$(sed -n 's/^info string evaluation \(.*\)$/\1/p' <<<"$search" | head -n 1)
        echo "$name $evaluation" >>"$evaluations"
        search_depth=$(awk '{ print $3 }' <<<"$info")
        nps=$(awk '{ for (i = 1; i < NF; i++) if ($i == "nps") print $(i + 1) }' <<<"$info")
        echo "$name $size $depth $leaves $seconds $search_depth $nps" >>"$results"
    done
    echo "round $round of $rounds done" >&2
done

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# Median leaves per second and nodes per second of one game.
leaves_per_second() { awk -v g="$1" '$1 == g { print $4 / $5 }' "$results" | median; }
nodes_per_second() { awk -v g="$1" '$1 == g { print $7 }' "$results" | median; }

echo "| game | board | perft | leaves | M leaves/s | a leaf against the classic path | search depth | k nodes/s | a node against the classic path | evaluation |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for entry in "${games[@]}"; do
    read -r name size depth <<<"$entry"
    if [ "$size" -le 9 ]; then classic=tablut; else classic=tawlbwrdd; fi
    lps=$(leaves_per_second "$name")
    nps=$(nodes_per_second "$name")
    classic_lps=$(leaves_per_second "$classic")
    classic_nps=$(nodes_per_second "$classic")
    leaves=$(awk -v g="$name" '$1 == g { print $4; exit }' "$results")
    depths=$(awk -v g="$name" '$1 == g { print $6 }' "$results" | sort -n | uniq | paste -sd/)
    evaluation=$(awk -v g="$name" '$1 == g { $1 = ""; print substr($0, 2); exit }' "$evaluations")
    # The ratios are the time a leaf (a node) takes against the classic game's: 2.00x is half
    # the classic game's speed.
    awk -v n="$name" -v s="$size" -v d="$depth" -v l="$leaves" -v lps="$lps" -v clps="$classic_lps" \
        -v nps="$nps" -v cnps="$classic_nps" -v sd="$depths" -v c="$classic" -v e="$evaluation" 'BEGIN {
        printf "| `%s` | %dx%d | %d | %s | %.0f | %.2fx (`%s`) | %s | %.0f | %.2fx | %s |\n",
            n, s, s, d, l, lps / 1e6, clps / lps, c, sd, nps / 1e3, cnps / nps, e
    }'
done
echo
echo "($rounds rounds, perft and search interleaved game by game; search: go movetime $movetime, one thread; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
