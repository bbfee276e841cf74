"""A random player: plays random games with tafl_engine and counts the results.

    python python/examples/random_player.py [--variant tablut] [--games 1000] [--seed 1]

The smallest complete tafl player: ask for the legal moves, pick one, play it, until the game
is over (a win, or a draw by repetition, by lack of moves) or truncated by the ply cap.
"""

import argparse
import collections
import random
import time
from typing import Counter, Tuple

import tafl_engine as te


def random_game(variant: str, rng: random.Random, ply_cap: int) -> te.Game:
    game = te.Game(variant, max_plies=ply_cap)
    while not (game.terminated or game.truncated):
        # Actions are listed in increasing order, so a seed gives the same games whatever
        # order the move generator works in.
        game.play_action(rng.choice(game.legal_actions()))
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description="Random tafl games.")
    parser.add_argument("--variant", default="tablut", choices=te.variants())
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ply-cap", type=int, default=500)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    results: Counter[Tuple[str, str]] = collections.Counter()
    plies = 0
    game = te.Game(args.variant)
    began = time.perf_counter()
    for _ in range(args.games):
        game = random_game(args.variant, rng, args.ply_cap)
        results[game.outcome or ("draw", "ply cap")] += 1
        plies += game.ply
    seconds = time.perf_counter() - began

    print(f"{args.games} random games of {args.variant} in {seconds:.2f} s "
          f"({args.games / seconds:.0f} games/s, {plies / args.games:.0f} plies a game)")
    for (winner, reason), count in results.most_common():
        print(f"  {winner:9s} {reason:15s} {count}")
    print("\nThe last game's final position:")
    print(game)


if __name__ == "__main__":
    main()
