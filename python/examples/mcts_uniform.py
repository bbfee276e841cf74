"""A batched MCTS with a numpy stand-in for a network: uniform priors, value 0.

    python python/examples/mcts_uniform.py [--variant tablut] [--simulations 64]
        [--batch-size 8] [--max-plies 200] [--seed 1]

`tafl_engine.Mcts` keeps the search trees in Rust and hands their leaves to `evaluate` in
batches: the planes of the leaves' positions and their legal masks in, a prior for every action
and a value per leaf out. A network (PyTorch, JAX, ...) takes the place of `uniform`. The game
is played move by move from the visit counts (in proportion to them, as self-play does for its
first moves), every move checked with `Game.is_legal` before it is played.
"""

import argparse
import time
from typing import Tuple

import numpy as np
import numpy.typing as npt

import tafl_engine as te

Floats = npt.NDArray[np.float32]


def uniform(planes: npt.NDArray[np.uint8], masks: npt.NDArray[np.bool_]) -> Tuple[Floats, Floats]:
    """The same prior for every legal action (the search ignores illegal ones), value 0."""
    return masks.astype(np.float32), np.zeros(len(planes), dtype=np.float32)


def play(
    variant: str,
    simulations: int = 64,
    batch_size: int = 8,
    max_plies: int = 200,
    seed: int = 1,
) -> te.Game:
    """Plays one game of `variant` with the MCTS on both sides, to its end or to `max_plies`."""
    rng = np.random.default_rng(seed)
    game = te.Game(variant, max_plies=max_plies)
    space = game.action_space
    mcts = te.Mcts(c_puct=1.5, simulations=simulations, batch_size=batch_size)
    while not (game.terminated or game.truncated):
        visits, _value = mcts.search(game, uniform)
        action = int(rng.choice(len(visits), p=visits / visits.sum()))
        move = space.action_to_move(action)
        if not game.is_legal(move):
            raise AssertionError(f"the MCTS chose an illegal move: {move}")
        game.play_action(action)
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description="Self-play with a batched MCTS.")
    parser.add_argument("--variant", default="tablut", choices=te.variants())
    parser.add_argument("--simulations", type=int, default=64)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    began = time.perf_counter()
    game = play(args.variant, args.simulations, args.batch_size, args.max_plies, args.seed)
    seconds = time.perf_counter() - began
    print(f"{game.ply} plies, outcome {game.outcome}, truncated {game.truncated}")
    print(f"{game.ply * args.simulations / seconds:.0f} simulations/s")


if __name__ == "__main__":
    main()
