"""Exact rules, perft and search for tafl games, from the Rust crate tafl-engine.

>>> import tafl_engine as te
>>> g = te.Game("tablut")
>>> len(g.legal_moves())
80
>>> g.play("e2-h2")
[]
>>> te.perft("tablut", 3)
353200

Moves and squares are text in OpenTafl notation (``e2-h2``, ``a1``..``k11``); positions are
OpenTafl records, rank 1 first. Every error is a Python exception: ``ValueError`` for bad input
(with the engine's reason), ``RuntimeError`` for an internal error. Every object can be used
from several threads; perft and search release the GIL.
"""

from ._core import (
    PLANES,
    Engine,
    Game,
    SearchResult,
    __version__,
    encode_planes,
    perft,
    variants,
)

__all__ = [
    "PLANES",
    "Engine",
    "Game",
    "SearchResult",
    "__version__",
    "encode_planes",
    "perft",
    "variants",
]
