"""Random rollouts of Tablut through the action API: steps (plies) per processor second.

    python python/bench/rollouts.py [--rounds 7] [--games 200] [--variant tablut]

Four loops play the same kind of random games (each move drawn uniformly from the legal ones,
games capped at 500 plies), each step checking `terminated`/`truncated`:

- `actions`: `game.legal_actions()` (a list of ints), `random.choice`, `game.play_action`;
- `masks`: `game.legal_action_mask()` (a numpy array), `numpy.flatnonzero`, a numpy random
  index, `game.play_action`;
- `batched masks`: 32 games at once, one `legal_action_masks(games)` call a step for all of
  them, then a move in each;
- `Python masks`: what a learning loop had to do before the action API: `game.legal_moves()`,
  each move's action worked out in Python into a numpy mask, a choice from the mask, and
  `game.play(text)`.

The loops run in turn, round after round (the machine may be shared: each round sees the same
load), and the medians over the rounds are printed, with each loop's speed against the last.
"""

import argparse
import random
import statistics
import time

import numpy as np

import tafl_engine as te

FILES = "abcdefghijklmnopqrs"
HEADINGS = {(0, 1): 0, (1, 0): 1, (0, -1): 2, (-1, 0): 3}
PLY_CAP = 500


def actions_loop(variant, games, seed):
    rng = random.Random(seed)
    steps = 0
    for _ in range(games):
        game = te.Game(variant, max_plies=PLY_CAP)
        while not (game.terminated or game.truncated):
            game.play_action(rng.choice(game.legal_actions()))
            steps += 1
    return steps


def masks_loop(variant, games, seed):
    rng = np.random.default_rng(seed)
    steps = 0
    for _ in range(games):
        game = te.Game(variant, max_plies=PLY_CAP)
        while not (game.terminated or game.truncated):
            legal = np.flatnonzero(game.legal_action_mask())
            game.play_action(legal[rng.integers(len(legal))])
            steps += 1
    return steps


def batched_loop(variant, games, seed, width=32):
    rng = np.random.default_rng(seed)
    steps = 0
    started = 0
    running = []
    while running or started < games:
        while len(running) < width and started < games:
            running.append(te.Game(variant, max_plies=PLY_CAP))
            started += 1
        masks = te.legal_action_masks(running)
        for game, mask in zip(running, masks):
            legal = np.flatnonzero(mask)
            game.play_action(legal[rng.integers(len(legal))])
            steps += 1
        running = [g for g in running if not (g.terminated or g.truncated)]
    return steps


def python_action(move, n):
    """A move's action, worked out in Python (from * 4 + heading) * (n - 1) + distance - 1."""
    a, b = move.split("-")
    x0, y0 = FILES.index(a[0]), int(a[1:]) - 1
    x1, y1 = FILES.index(b[0]), int(b[1:]) - 1
    dx, dy = x1 - x0, y1 - y0
    heading = HEADINGS[((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))]
    return ((y0 * n + x0) * 4 + heading) * (n - 1) + abs(dx) + abs(dy) - 1


def python_masks_loop(variant, games, seed):
    rng = np.random.default_rng(seed)
    steps = 0
    for _ in range(games):
        game = te.Game(variant)
        n = game.size
        num_actions = n * n * 4 * (n - 1)
        while game.outcome is None and game.ply < PLY_CAP:
            moves = {python_action(m, n): m for m in game.legal_moves()}
            mask = np.zeros(num_actions, dtype=bool)
            mask[list(moves)] = True
            legal = np.flatnonzero(mask)
            game.play(moves[int(legal[rng.integers(len(legal))])])
            steps += 1
    return steps


LOOPS = [
    ("actions", actions_loop),
    ("masks", masks_loop),
    ("batched masks", batched_loop),
    ("Python masks", python_masks_loop),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--games", type=int, default=200, help="games a loop plays a round")
    parser.add_argument("--variant", default="tablut", choices=te.variants())
    args = parser.parse_args()
    speeds = {name: [] for name, _ in LOOPS}
    for round_ in range(args.rounds):
        for name, loop in LOOPS:
            # The Python loop is slow: fewer games, the same kind.
            games = args.games if name != "Python masks" else max(1, args.games // 10)
            began = time.process_time()
            steps = loop(args.variant, games, seed=round_)
            speeds[name].append(steps / (time.process_time() - began))
    baseline = statistics.median(speeds["Python masks"])
    print(f"Random {args.variant} rollouts, cap {PLY_CAP} plies, medians of {args.rounds} rounds")
    for name, _ in LOOPS:
        median = statistics.median(speeds[name])
        low, high = min(speeds[name]), max(speeds[name])
        print(
            f"  {name:14s} {median:10,.0f} steps per processor second"
            f"  (rounds {low:,.0f} to {high:,.0f})  x{median / baseline:.1f}"
        )


if __name__ == "__main__":
    main()
