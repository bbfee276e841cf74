"""A Gymnasium vector environment over ``tafl_engine.BatchEnv`` (N games stepped in Rust), and
the Gymnasium ids of every variant (``pip install ./python[env]``).

Importing this module (or ``tafl_engine.env``) registers, for every name of
``tafl_engine.variants()``, the id ``tafl_engine/<Name>-v0`` (the name in CamelCase:
``tablut`` -> ``Tablut``, ``hnefatafl-org-copenhagen-13`` -> ``HnefataflOrgCopenhagen13``):

>>> import gymnasium as gym
>>> import tafl_engine.vector
>>> envs = gym.make_vec("tafl_engine/Tablut-v0", num_envs=256,
...                     vectorization_mode="vector_entry_point")
>>> env = gym.make("tafl_engine/Tablut-v0")  # one game against a random opponent (TaflGymEnv)

Gymnasium 1.x loads no plugins at import, so the import above (or
``gym.make("tafl_engine.vector:tafl_engine/Tablut-v0")``, which imports it) is needed.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import tafl_engine as te

DEFAULT_MAX_PLIES = 1000
"""The ply cap of the registered environments (random Copenhagen games pass a thousand)."""

Observation = Dict[str, npt.NDArray[Any]]


def env_id(variant: str) -> str:
    """The Gymnasium id of a variant name: ``tafl_engine/Tablut-v0``."""
    return "tafl_engine/" + "".join(part.capitalize() for part in variant.split("-")) + "-v0"


class TaflVectorEnv(VectorEnv[Observation, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games of ``variant`` (a name, a rules string, or a list of them, all on one
    board size) stepped together in Rust by a ``tafl_engine.BatchEnv``.

    Observations are dicts ``{"observation": planes, "action_mask": mask}`` of arrays with a
    leading axis of ``num_envs``: the planes ``num_envs x num_planes x n x n`` in ``dtype``
    (``BatchEnv``'s options ``perspective``, ``history``, ``dtype``), the mask ``num_envs x
    num_actions`` bools. Actions: one integer of ``ActionSpace`` per game; an illegal one
    raises ValueError naming the game, and no game is stepped. Rewards: for the player who
    has just moved (+1 won, -1 lost, 0 otherwise). Autoreset: same step
    (``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``): a game that ends is
    started again at once, the returned observation is the new game's, and the last planes of
    the game that ended are ``infos["final_obs"][i]`` (where ``infos["_final_obs"][i]``).
    ``sample_legal_actions()`` draws a random legal action per game in Rust.
    """

    metadata: Dict[str, Any] = {
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int = 1,
        variant: Union[str, Sequence[str]] = "tablut",
        *,
        max_plies: Optional[int] = DEFAULT_MAX_PLIES,
        perspective: str = "absolute",
        history: int = 1,
        dtype: str = "uint8",
        threads: int = 1,
        seed: Optional[int] = None,
        max_episode_steps: Optional[int] = None,
    ) -> None:
        if max_episode_steps is not None:  # gymnasium.make_vec's name for the cap
            max_plies = max_episode_steps
        names: Union[str, List[str]] = variant if isinstance(variant, str) else list(variant)
        self.batch = te.BatchEnv(
            names,
            None if not isinstance(variant, str) else num_envs,
            seed=seed,
            max_plies=max_plies,
            perspective=perspective,
            history=history,
            dtype=dtype,
            threads=threads,
        )
        self.num_envs = self.batch.num_envs
        n, actions = self.batch.size, self.batch.num_actions
        kind = np.dtype(np.bool_) if dtype == "bool" else np.dtype(dtype)
        high = 1 if dtype == "bool" else 255
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, high, (self.batch.num_planes, n, n), dtype=kind),
                "action_mask": spaces.Box(0, 1, (actions,), dtype=np.bool_),
            }
        )
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def reset(
        self,
        *,
        seed: Optional[Union[int, List[int]]] = None,
        options: Optional[Dict[str, Any]] = None,
    ) -> Tuple[Observation, Dict[str, Any]]:
        """Starts every game again. ``seed`` (an int, or a list whose first entry is used)
        seeds ``sample_legal_actions`` and the spaces' ``sample``; the games themselves have
        no chance."""
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        super().reset(seed=seed)
        if seed is not None:
            self.action_space.seed(seed)
        return self.batch.reset(seed=seed)

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> Tuple[
        Observation,
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        Dict[str, Any],
    ]:
        """Plays one action in every game (see the class)."""
        return self.batch.step(actions)

    def sample_legal_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action of every game (``BatchEnv.sample_legal_actions``)."""
        return self.batch.sample_legal_actions()


def register_envs() -> None:
    """Registers ``tafl_engine/<Name>-v0`` for every variant (once): ``gymnasium.make`` gives
    the single-game ``tafl_engine.env.TaflGymEnv`` and ``gymnasium.make_vec`` the
    ``TaflVectorEnv``."""
    for name in te.variants():
        key = env_id(name)
        if key in gymnasium.registry:
            continue
        gymnasium.register(
            id=key,
            entry_point="tafl_engine.env:TaflGymEnv",
            vector_entry_point="tafl_engine.vector:TaflVectorEnv",
            kwargs={"variant": name},
        )


register_envs()
