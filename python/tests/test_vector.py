"""The Gymnasium vector environment over BatchEnv and the registered ids."""

import subprocess
import sys
from typing import List

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

import tafl_engine as te  # noqa: E402
from tafl_engine.vector import TaflVectorEnv, env_id  # noqa: E402


def test_make_and_make_vec_work_from_a_fresh_interpreter() -> None:
    code = """
import gymnasium as gym
import tafl_engine.vector
from gymnasium.vector import AutoresetMode
from gymnasium.utils.env_checker import check_env
envs = gym.make_vec("tafl_engine/Tablut-v0", num_envs=256, vectorization_mode="vector_entry_point")
assert envs.num_envs == 256 and envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
obs, infos = envs.reset(seed=0)
assert obs["observation"].shape == (256, 12, 9, 9), obs["observation"].shape
env = gym.make("tafl_engine/HnefataflOrgCopenhagen13-v0")
check_env(env.unwrapped)
assert env.unwrapped.game.size == 13
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_every_variant_has_an_id() -> None:
    import gymnasium

    ids = [env_id(name) for name in te.variants()]
    assert len(set(ids)) == len(ids)
    assert env_id("hnefatafl-org-copenhagen-13") == "tafl_engine/HnefataflOrgCopenhagen13-v0"
    for key in ids:
        assert key in gymnasium.registry


@pytest.mark.parametrize("dtype", ["uint8", "bool", "float32"])
def test_spaces_hold_what_the_env_returns(dtype: str) -> None:
    envs = TaflVectorEnv(5, "copenhagen", max_plies=40, dtype=dtype, history=2,
                         perspective="side_to_move")
    assert envs.single_observation_space["observation"].shape == (15, 11, 11)
    assert envs.single_action_space.n == 4840
    assert envs.action_space.shape == (5,)
    obs, _ = envs.reset(seed=3)
    assert envs.observation_space.contains(obs)
    for _ in range(60):
        obs, rewards, terminated, truncated, infos = envs.step(envs.sample_legal_actions())
        assert envs.observation_space.contains(obs)
        assert rewards.shape == terminated.shape == truncated.shape == (5,)
    assert infos["_final_obs"].dtype == np.bool_


def test_gymnasium_episode_statistics_agree_with_the_env() -> None:
    """Gymnasium's own wrapper counts episode lengths under the declared autoreset mode: they
    must be the plies the environment reports for each game that ended."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(
        gym.make_vec("tafl_engine/Tablut-v0", num_envs=16, vectorization_mode="vector_entry_point",
                     max_plies=70),
        buffer_length=10_000,
    )
    envs.reset(seed=1)
    lengths: List[int] = []
    for _ in range(400):
        _, _, terminated, truncated, infos = envs.step(envs.unwrapped.sample_legal_actions())
        lengths.extend(int(x) for x in infos["episode_plies"][terminated | truncated])
    assert len(lengths) > 50
    assert sorted(int(x) for x in envs.length_queue) == sorted(lengths)
