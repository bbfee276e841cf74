"""The environments of tafl_engine.env, checked by PettingZoo's and Gymnasium's own checkers."""

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import tafl_engine as te  # noqa: E402
from tafl_engine.env import TaflAECEnv, TaflGymEnv, env  # noqa: E402


@pytest.mark.parametrize("variant", ["tablut", "copenhagen", "brandub", "ashton"])
def test_pettingzoo_api_test_passes(variant):
    api_test(env(variant=variant, max_plies=200), num_cycles=300)


def test_a_random_aec_game_ends_with_opposite_rewards():
    aec = TaflAECEnv("tablut", max_plies=400, render_mode="ansi")
    aec.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = {agent: 0.0 for agent in aec.possible_agents}
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        assert observation["observation"].shape == (len(te.PLANES), 9, 9)
        legal = np.flatnonzero(observation["action_mask"])
        assert sorted(legal.tolist()) == aec.game.legal_actions()
        aec.step(int(rng.choice(legal)))
    game = aec.game
    assert game.terminated or game.truncated
    if game.terminated:
        assert totals == {side: game.reward(side) for side in ("attackers", "defenders")}
    assert "K" in aec.render() or game.king is None


def test_an_illegal_aec_action_raises_and_changes_nothing():
    aec = TaflAECEnv("tablut")
    aec.reset()
    with pytest.raises(ValueError):
        aec.step(0)  # a1 north 1: nobody on a1
    assert aec.game.ply == 0 and aec.agent_selection == "attackers"


@pytest.mark.parametrize("side", ["attackers", "defenders"])
def test_gymnasium_check_env_passes(side):
    check_env(TaflGymEnv("tablut", side=side, max_plies=200), skip_render_check=True)


def test_gym_episodes_against_each_opponent_end_and_illegal_actions_lose():
    for opponent in ["random", te.Engine(hash_mb=2), lambda game: game.legal_actions()[0]]:
        gym = TaflGymEnv("brandub", side="defenders", opponent=opponent, opponent_depth=1, max_plies=60)
        observation, info = gym.reset(seed=1)
        assert gym.game.side_to_move == "defenders" and gym.game.ply == 1  # the opponent began
        rng = np.random.default_rng(1)
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            assert np.array_equal(info["action_mask"], gym.action_masks())
            observation, reward, terminated, truncated, info = gym.step(rng.choice(legal))
            done = terminated or truncated
        assert reward == (gym.game.reward("defenders") if terminated else 0.0)
    gym = TaflGymEnv("tablut")
    gym.reset(seed=0)
    observation, reward, terminated, truncated, info = gym.step(0)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
