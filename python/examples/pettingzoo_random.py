"""Random agents in the PettingZoo environment of tafl_engine (pip install ./python[env]).

    python python/examples/pettingzoo_random.py [--variant tablut] [--games 10] [--seed 1]

Each agent picks a random legal action from its observation's action mask; the rewards are
summed per agent, as a learning loop would see them.
"""

import argparse
from typing import Dict

import numpy as np

from tafl_engine.env import env


def main() -> None:
    parser = argparse.ArgumentParser(description="Random agents in tafl_engine.env.")
    parser.add_argument("--variant", default="tablut")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    aec = env(variant=args.variant, max_plies=500, render_mode="ansi")
    rng = np.random.default_rng(args.seed)
    totals: Dict[str, float] = {agent: 0.0 for agent in aec.possible_agents}
    for game_number in range(args.games):
        aec.reset(seed=args.seed + game_number)
        for agent in aec.agent_iter():
            observation, reward, terminated, truncated, _ = aec.last()
            totals[agent] += reward
            if terminated or truncated:
                aec.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            aec.step(int(rng.choice(legal)))
        print(f"game {game_number + 1}: {aec.game.outcome or 'truncated'} after {aec.game.ply} plies")
    print(f"rewards summed over {args.games} games: {totals}")
    print(aec.render())


if __name__ == "__main__":
    main()
