"""Environments for reinforcement learning over tafl_engine (``pip install ./python[env]``).

- ``TaflAECEnv``: a PettingZoo AEC environment, both sides played by agents ``"attackers"``
  and ``"defenders"`` (``env()`` makes one; PettingZoo's ``api_test`` passes).
- ``TaflGymEnv``: a Gymnasium environment, one side played by the agent against an opponent
  (random by default, or an ``Engine``, or any function of the game), with an illegal action
  losing the game (Gymnasium's ``check_env`` passes).

Observations are the position's planes (``tafl_engine.PLANES``: ``len(PLANES) x n x n``
``uint8``, row 0 = rank 1, the same for both sides: the ``attackers_to_move`` plane says whose
turn it is) and a mask of the legal actions (``ActionSpace``: ``num_actions`` ``int8``). Actions
are the integers of ``ActionSpace``. Rewards: +1 to the winner, -1 to the loser, 0 for a draw,
given when the game ends. Episodes end by the rules (``terminated``) or at ``max_plies``
(``truncated``; 1000 by default: random games of Copenhagen pass a thousand plies).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple, Union, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

import tafl_engine as te

AGENTS = ("attackers", "defenders")
"""The agents, in the order of ``possible_agents``."""

DEFAULT_MAX_PLIES = 1000

Observation = Dict[str, npt.NDArray[Any]]


def _spaces(game: te.Game) -> Tuple[spaces.Box, spaces.Box, spaces.Discrete]:
    """The planes' space, the mask's space and the action space of ``game``'s board."""
    n = game.size
    planes = spaces.Box(low=0, high=255, shape=(len(te.PLANES), n, n), dtype=np.uint8)
    mask = spaces.Box(low=0, high=1, shape=(game.num_actions,), dtype=np.int8)
    return planes, mask, spaces.Discrete(game.num_actions)


def _planes(game: te.Game) -> npt.NDArray[np.uint8]:
    n = game.size
    return np.frombuffer(game.planes(), dtype=np.uint8).reshape(len(te.PLANES), n, n)


class TaflAECEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """A PettingZoo AEC environment of one tafl variant: agents ``"attackers"`` and
    ``"defenders"`` move in turn (the variant says who starts).

    ``observe(agent)`` is ``{"observation": planes, "action_mask": mask}``; the mask is all zeros
    for the agent not to move. An illegal action raises ValueError (the game is unchanged).
    ``render()`` returns the board as text (``render_mode="ansi"``) or SVG (``"svg"``). The
    game itself is ``env.game`` (a ``tafl_engine.Game``).
    """

    metadata: Dict[str, Any] = {
        "name": "tafl_v0",
        "render_modes": ["ansi", "svg"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        variant: str = "tablut",
        max_plies: Optional[int] = DEFAULT_MAX_PLIES,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.variant = variant
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.game = te.Game(variant, max_plies=max_plies)
        planes, mask, actions = _spaces(self.game)
        self.possible_agents: List[str] = list(AGENTS)
        self.agents: List[str] = list(AGENTS)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": planes, "action_mask": mask})
            for agent in AGENTS
        }
        self.action_spaces = {agent: actions for agent in AGENTS}
        self._reset_state()

    def _reset_state(self) -> None:
        self.agents = list(AGENTS)
        self.rewards: Dict[str, float] = {agent: 0.0 for agent in AGENTS}
        self._cumulative_rewards: Dict[str, float] = {agent: 0.0 for agent in AGENTS}
        self.terminations: Dict[str, bool] = {agent: False for agent in AGENTS}
        self.truncations: Dict[str, bool] = {agent: False for agent in AGENTS}
        self.infos: Dict[str, Dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection: str = self.game.side_to_move

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """A new game at the variant's start (the game has no chance: ``seed`` changes
        nothing)."""
        self.game = te.Game(self.variant, max_plies=self.max_plies)
        self._reset_state()

    def observe(self, agent: str) -> Observation:
        if agent == self.agent_selection and not self.game.truncated:
            mask = self.game.legal_action_mask().astype(np.int8)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": _planes(self.game), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.game.play_action(int(action))
        if self.game.terminated:
            for each in self.agents:
                self.rewards[each] = self.game.reward(each)
                self.terminations[each] = True
        elif self.game.truncated:
            for each in self.agents:
                self.truncations[each] = True
        self.agent_selection = self.game.side_to_move
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return self.game.diagram()
        if self.render_mode == "svg":
            return self.game.svg()
        gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'svg'")
        return None

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> TaflAECEnv:
    """A ``TaflAECEnv`` (the PettingZoo convention for making environments)."""
    return TaflAECEnv(**kwargs)


Opponent = Union[str, te.Engine, Callable[[te.Game], int]]
"""``"random"`` (a random legal move, from the environment's seeded generator), an ``Engine``
(its best move at ``opponent_depth`` plies), or a function from the game to an action."""


class TaflGymEnv(gymnasium.Env[npt.NDArray[np.uint8], np.int64]):
    """A Gymnasium environment: the agent plays ``side`` of a tafl variant against
    ``opponent``.

    Observations are the planes (``len(PLANES) x n x n`` ``uint8``); ``info["action_mask"]`` and
    ``action_masks()`` give the legal actions (``int8``). An illegal action loses the game
    (reward -1, terminated, ``info["illegal_action"]`` True). The reward is the game's result
    for the agent when it ends, 0 before.
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi", "svg"], "render_fps": 1}

    def __init__(
        self,
        variant: str = "tablut",
        side: str = "attackers",
        opponent: Opponent = "random",
        opponent_depth: int = 2,
        max_plies: Optional[int] = DEFAULT_MAX_PLIES,
        render_mode: Optional[str] = None,
    ) -> None:
        if side not in AGENTS:
            raise ValueError(f"side must be 'attackers' or 'defenders', not {side!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.variant = variant
        self.side = side
        self.opponent = opponent
        self.opponent_depth = opponent_depth
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.game = te.Game(variant, max_plies=max_plies)
        planes, _, actions = _spaces(self.game)
        self.observation_space = cast("spaces.Space[npt.NDArray[np.uint8]]", planes)
        self.action_space = cast("spaces.Space[np.int64]", actions)

    def _opponent_action(self) -> int:
        if callable(self.opponent):
            return int(self.opponent(self.game))
        if isinstance(self.opponent, te.Engine):
            best = self.opponent.search(self.game, depth=self.opponent_depth).best_move
            assert best is not None  # the game goes on, so there is a move
            return self.game.action_space.move_to_action(best)
        actions = self.game.legal_actions()
        return actions[int(self.np_random.integers(len(actions)))]

    def _opponent_moves(self) -> None:
        while (
            self.game.side_to_move != self.side
            and not self.game.terminated
            and not self.game.truncated
        ):
            self.game.play_action(self._opponent_action())

    def _info(self, illegal: bool = False) -> Dict[str, Any]:
        return {"action_mask": self.action_masks(), "illegal_action": illegal}

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal actions of the agent now, as ``int8`` (all zeros once the episode is
        over)."""
        if self.game.truncated:
            return np.zeros(self.game.num_actions, dtype=np.int8)
        return self.game.legal_action_mask().astype(np.int8)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[npt.NDArray[np.uint8], Dict[str, Any]]:
        super().reset(seed=seed)
        self.game = te.Game(self.variant, max_plies=self.max_plies)
        self._opponent_moves()
        return _planes(self.game), self._info()

    def step(
        self, action: np.int64
    ) -> Tuple[npt.NDArray[np.uint8], float, bool, bool, Dict[str, Any]]:
        try:
            self.game.play_action(int(action))
        except ValueError:
            return _planes(self.game), -1.0, True, False, self._info(illegal=True)
        self._opponent_moves()
        terminated = self.game.terminated
        reward = self.game.reward(self.side) if terminated else 0.0
        return _planes(self.game), reward, terminated, self.game.truncated, self._info()

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return self.game.diagram()
        if self.render_mode == "svg":
            return self.game.svg()
        return None


# The Gymnasium ids (``tafl_engine/Tablut-v0``, ...) are registered by importing this module too.
from . import vector as _vector  # noqa: E402,F401
