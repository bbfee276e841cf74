"""Exact rules, perft and search for tafl games, from the Rust crate tafl-engine.

>>> import tafl_engine as te
>>> g = te.Game("tablut")
>>> len(g.legal_moves())
80
>>> g.play("e2-h2")
[]
>>> te.perft("tablut", 3)
353200

Moves and squares are text in OpenTafl notation (``e2-h2``, ``a1``..``k11``), or integer actions
(``ActionSpace``); positions are OpenTafl records, rank 1 first, or position strings (a record
and the side to move). Every error is a Python exception: ``ValueError`` for bad input (with the
engine's reason), ``TypeError`` for an argument of the wrong type, ``RuntimeError`` for an
internal error. Every object can be used from several threads; perft and search release the GIL,
and Ctrl-C stops them. ``tafl_engine.env`` has PettingZoo and Gymnasium environments
(``pip install ./python[env]``). ``BatchEnv`` steps many games at once in Rust;
``tafl_engine.vector`` is a Gymnasium vector environment over it.

``tafl_engine.selfplay`` plays the search against itself for training data, in this process or
on a Ray cluster (``pip install ./python[ray]``).
"""

from ._core import (
    MAX_PERFT_DEPTH,
    MAX_THREADS,
    PLANES,
    SYMMETRIES,
    ActionSpace,
    BatchEnv,
    Engine,
    Game,
    Mcts,
    RootScores,
    SearchResult,
    __version__,
    encode_planes,
    legal_action_masks,
    perft,
    read_otg,
    variants,
)

__all__ = [
    "MAX_PERFT_DEPTH",
    "MAX_THREADS",
    "PLANES",
    "SYMMETRIES",
    "ActionSpace",
    "BatchEnv",
    "Engine",
    "Game",
    "Mcts",
    "RootScores",
    "SearchResult",
    "__version__",
    "encode_planes",
    "legal_action_masks",
    "perft",
    "read_otg",
    "variants",
]
