"""Self-play data for learning: games of the crate's search against itself, every position kept
with its targets, played in this process or spread over a Ray cluster (``pip install
"./python[ray]"``; Ray is imported only when it is used).

- ``play_game(settings, index)``: one game, a pure function of the settings and the game's
  index (its random opening is drawn from ``settings.seed`` and ``index``; each game starts
  with an empty transposition table and searches to a node budget on one thread, so the same
  settings and index give the same game on any machine and any worker, with the same version
  of the package).
- ``run_selfplay(variant, games, out_dir, ...)``: games ``0 .. games - 1`` on Ray's workers
  (or ``backend="local"``: one after another in this process), written by this process alone,
  in the order of their indices, to ``out_dir``:

  - ``selfplay.tsv``: the NNUE trainer's lines (``cargo run --release --example nnue -- train
    --data DIR/selfplay.tsv``): ``game<TAB>record<TAB>side<TAB>score<TAB>result<TAB>ply``, the
    score in the playing evaluation's own units (``score_units``) from the side to move's point
    of view, for the *quiet* positions only (the rule of ``nnue datagen``, see
    ``SelfPlayGame.quiet``);
  - ``selfplay-NNNNN.npz``: numpy arrays of *every* searched position (``ARRAY_FIELDS``), a
    file every ``shard_games`` games; the shards are the record of which games are written;
  - ``manifest.json``: the settings, the seed, the package's version and the totals.

  A worker that dies loses only the game it was playing: Ray runs the task again
  (``max_retries``), or this process submits it again; a game is written once, when its result
  arrives. A run stopped part way (Ctrl-C, a crash) resumes with the same command: the games
  in the shards are skipped, and lines of ``selfplay.tsv`` from games no shard holds are
  dropped first.

Command line: ``python -m tafl_engine.selfplay --variant tablut --games 200 --out DIR
[--address auto] [--workers N] [--nodes N] ...`` (``--help``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import random
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Set, Tuple, Union

import numpy as np
import numpy.typing as npt

from ._core import PLANES, Engine, Game, SearchResult, __version__

SCORE_UNITS_PER_SOLDIER = 100
"""Hundredths of a soldier: ``SearchResult.score`` is in soldiers of the shown scale; the
trainer's scores are in the evaluation's own units (hundredths of a soldier of the hand-written
evaluation, or a network's), which ``score_units`` gives back with the engine's ``score_scale``.
A forced result is kept as the search's own integer, ``±(1_000_000 - plies)``."""

_FORCED_WIN = 1_000_000
"""The search's score of a win now (``Score::WIN``); a win in n plies scores this minus n."""

ARRAY_FIELDS: Tuple[str, ...] = (
    "planes",
    "masks",
    "actions",
    "scores",
    "results",
    "sides",
    "game",
    "ply",
    "quiet",
    "records",
    "games_done",
    "game_results",
    "game_plies",
)
"""The arrays of each ``.npz`` shard. Per position (one row each, in the order played):
``planes`` (``uint8``, ``len(PLANES) x n x n``, as ``Game.planes``), ``masks`` (``bool``, the
legal actions), ``actions`` (``int64``, the move the search played: the policy target, one-hot
at this action), ``scores`` (``int32``, the search's score in the evaluation's own units from
the side to move's point of view, a forced result as ``±(1_000_000 - plies)``), ``results``
(``int8``, how the game ended for the side to move: 1 won, 0 drawn or cut at ``max_plies``, -1
lost), ``sides`` (``int8``, 0 attackers to move, 1 defenders), ``game`` (``int64``, the game's
index), ``ply`` (``int32``), ``quiet`` (``bool``, whether the position is also in the TSV),
``records`` (the position record, text). Per game of the shard, whether or not it kept a
position: ``games_done`` (``int64``, the indices), ``game_results`` (``int8``, 1 defenders won,
0 draw, -1 attackers won) and ``game_plies`` (``int32``)."""

TSV_NAME = "selfplay.tsv"
MANIFEST_NAME = "manifest.json"
SHARD_PREFIX = "selfplay-"

SIDES = ("attackers", "defenders")


@dataclass(frozen=True)
class SelfPlaySettings:
    """What decides a self-play game besides its index (all of it is written to the manifest).

    ``nodes`` is each search's node budget (the defenders', and the attackers' unless
    ``attacker_nodes`` gives theirs: ``nnue datagen`` gives the attackers more, since at equal
    nodes the defenders win most games); ``depth`` caps the depth as well (None: no cap);
    ``opening_plies`` random moves start each game (drawn from ``seed`` and the index);
    ``max_plies`` cuts a game (a draw); ``hash_mb`` is the table of each worker's engine."""

    variant: str
    nodes: int = 6000
    attacker_nodes: Optional[int] = None
    depth: Optional[int] = None
    opening_plies: int = 8
    max_plies: int = 400
    seed: int = 1
    hash_mb: int = 16

    def check(self) -> None:
        """Raises ValueError naming the first setting out of range or an unknown variant."""
        Game(self.variant)  # ValueError for an unknown variant, with the engine's reason
        for name, value, least in (
            ("nodes", self.nodes, 1),
            ("attacker_nodes", self.attacker_nodes, 1),
            ("depth", self.depth, 1),
            ("opening_plies", self.opening_plies, 0),
            ("max_plies", self.max_plies, 1),
            ("seed", self.seed, 0),
            ("hash_mb", self.hash_mb, 1),
        ):
            if value is None and name in ("attacker_nodes", "depth"):
                continue
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise ValueError(
                    f"{name} must be an integer of at least {least}, not {value!r:.40}"
                )

    def nodes_for(self, side: str) -> int:
        """The node budget of `side`'s searches."""
        if side == "attackers" and self.attacker_nodes is not None:
            return self.attacker_nodes
        return self.nodes


@dataclass
class SelfPlayGame:
    """One self-play game: every searched position, in the order played, with its targets.

    The per-position fields are aligned: position ``i`` is ``records[i]`` with ``sides[i]`` to
    move at ``plies[i]``; the search scored it ``scores[i]`` (the evaluation's own units, side
    to move's view) and played ``actions[i]``; ``quiet[i]`` says whether ``nnue datagen`` would
    keep it: the score is not a forced result, the move captures nothing, the side to move
    cannot win with one move, and the king has no free line to a square he escapes on (a move
    of his that would win, whichever side is to move): the positions the search evaluates
    rather than searches through. ``policies`` is None for now: the place for a target richer
    than the one-hot ``actions`` (root-move scores)."""

    index: int
    winner: Optional[str]
    """``"attackers"``, ``"defenders"``, or None for a draw or a game cut at ``max_plies``."""
    plies: int
    """Plies played, the opening included."""
    records: List[str] = field(default_factory=list)
    sides: List[str] = field(default_factory=list)
    ply_of: List[int] = field(default_factory=list)
    scores: List[int] = field(default_factory=list)
    actions: List[int] = field(default_factory=list)
    quiet: List[bool] = field(default_factory=list)
    planes: Optional[npt.NDArray[np.uint8]] = None
    """``positions x len(PLANES) x n x n``."""
    masks: Optional[npt.NDArray[np.bool_]] = None
    """``positions x num_actions``."""
    policies: Optional[npt.NDArray[np.float32]] = None

    @property
    def result(self) -> str:
        """The result as the trainer reads it: ``defenders``, ``attackers`` or ``draw``."""
        return self.winner if self.winner is not None else "draw"

    def tsv_lines(self) -> str:
        """The quiet positions as the trainer's lines, each ending in a newline."""
        return "".join(
            f"{self.index}\t{record}\t{side}\t{score}\t{self.result}\t{ply}\n"
            for record, side, score, ply, quiet in zip(
                self.records, self.sides, self.scores, self.ply_of, self.quiet
            )
            if quiet
        )


def score_units(
    result: SearchResult,
    scale: Optional[Tuple[int, int]] = None,
    side: Optional[str] = None,
) -> int:
    """A search's score as the search holds it, from the side to move's point of view: with
    ``scale`` (``Engine.score_scale(game)``) and the side to move, in the evaluation's own units,
    as ``nnue datagen`` writes them for the trainer; without, in hundredths of a soldier of the
    shown scale. A forced win in n plies is ``1_000_000 - n``, a loss ``-(1_000_000 - n)``."""
    if result.forced_in is None:
        shown = round(result.score * SCORE_UNITS_PER_SOLDIER)
        if scale is None:
            return shown
        per_logit, defenders_edge = scale
        edge = defenders_edge if side == "defenders" else -defenders_edge
        # The inverse of the shown scale (ScoreScale::internal), halves rounded away from 0.
        units = (shown - edge) * per_logit / 100
        return int(math.copysign(math.floor(abs(units) + 0.5), units))
    if result.forced_in >= 0:
        return _FORCED_WIN - result.forced_in
    return -_FORCED_WIN - result.forced_in


def _square(name: str) -> Tuple[int, int]:
    """(rank, file) from 0 of a square named like ``e2``."""
    return int(name[1:]) - 1, ord(name[0]) - ord("a")


_ESCAPE_PLANE = PLANES.index("escape")


def king_has_open_line(game: Game) -> bool:
    """Whether the king could win by moving now if his side were to move: a free line to a
    square he escapes on (the search's ``king_open_line`` term, worked out from the legal
    moves of the same placement with the defenders to move)."""
    king = game.king
    if king is None:
        return False
    try:
        as_defenders = Game.from_record(game.variant, game.record, "defenders")
    except ValueError:
        # The placement is the game's own, so this does not happen; if it did, calling the
        # position not quiet only drops it from the trainer's data.
        return True
    n = game.size
    escape = np.frombuffer(as_defenders.planes(), np.uint8).reshape(len(PLANES), n, n)[
        _ESCAPE_PLANE
    ]
    for move in as_defenders.legal_moves():
        start, _, end = move.partition("-")
        if start == king and escape[_square(end)]:
            return True
    return False


def wins_at_once(game: Game) -> bool:
    """Whether the side to move has a move that wins the game."""
    me = game.side_to_move
    for move in game.legal_moves():
        after = game.copy()
        after.play(move)
        outcome = after.outcome
        if outcome is not None and outcome[0] == me:
            return True
    return False


def play_game(
    settings: SelfPlaySettings, index: int, engine: Optional[Engine] = None
) -> SelfPlayGame:
    """Plays game number `index` of `settings`: ``settings.opening_plies`` random moves (drawn
    from the seed and the index), then the search's move at every ply until the game ends or
    reaches ``settings.max_plies``. `engine` (one thread; made if not given) is cleared first,
    so the game does not depend on what it searched before."""
    if index < 0:
        raise ValueError(f"a game's index must be 0 or more, not {index}")
    rng = random.Random(f"tafl-engine selfplay {settings.seed} {index}")
    game = Game(settings.variant)
    for _ in range(settings.opening_plies):
        moves = sorted(game.legal_moves())
        if game.outcome is not None or not moves:
            break
        game.play(moves[rng.randrange(len(moves))])
    if engine is None:
        engine = Engine(threads=1, hash_mb=settings.hash_mb)
    elif engine.threads != 1:
        raise ValueError(
            "self-play needs an engine of one thread (a game must not depend on timing)"
        )
    engine.clear()
    scale = engine.score_scale(game)
    space = game.action_space
    played = SelfPlayGame(index=index, winner=None, plies=0)
    planes: List[npt.NDArray[np.uint8]] = []
    masks: List[npt.NDArray[np.bool_]] = []
    while game.outcome is None and game.ply < settings.max_plies:
        side = game.side_to_move
        result = engine.search(game, nodes=settings.nodes_for(side), depth=settings.depth)
        best = result.best_move
        if best is None:
            break
        score = score_units(result, scale, side)
        quiet = result.forced_in is None and not king_has_open_line(game) and not wins_at_once(game)
        played.records.append(game.record)
        played.sides.append(side)
        played.ply_of.append(game.ply)
        played.scores.append(score)
        played.actions.append(space.move_to_action(best))
        planes.append(np.frombuffer(game.planes(), np.uint8))
        masks.append(game.legal_action_mask())
        captured = game.play(best)
        played.quiet.append(quiet and not captured)
    outcome = game.outcome
    played.winner = outcome[0] if outcome is not None and outcome[0] in SIDES else None
    played.plies = game.ply
    n = game.size
    played.planes = (
        np.stack(planes).reshape(len(planes), len(PLANES), n, n)
        if planes
        else np.zeros((0, len(PLANES), n, n), np.uint8)
    )
    played.masks = np.stack(masks) if masks else np.zeros((0, space.num_actions), np.bool_)
    return played


@dataclass
class SelfPlayProgress:
    """Where a run stands, as ``run_selfplay`` reports it."""

    games_done: int
    """Games written, by this run and by the runs it resumes."""
    games_total: int
    positions: int
    """Positions written by this run (the ``.npz`` rows); ``quiet_positions`` of them in the TSV."""
    quiet_positions: int
    seconds: float
    """Since this run started."""
    resubmitted: int
    """Games submitted again after their worker died (besides Ray's own retries)."""

    @property
    def positions_per_second(self) -> float:
        """Positions written a second by this run."""
        return self.positions / self.seconds if self.seconds > 0 else 0.0

    def line(self) -> str:
        """One line for a log."""
        return (
            f"selfplay: {self.games_done}/{self.games_total} games, {self.positions} positions "
            f"({self.quiet_positions} quiet), {self.seconds:.1f} s, "
            f"{self.positions_per_second:.1f} positions/s"
            + (f", {self.resubmitted} resubmitted" if self.resubmitted else "")
        )


@dataclass
class SelfPlaySummary:
    """What ``run_selfplay`` did."""

    progress: SelfPlayProgress
    games_played: int
    """Games played and written by this run (the others were in the output already)."""
    results: Dict[str, int]
    """Games of this run by result: ``defenders``, ``attackers``, ``draw``."""
    workers: int
    out_dir: str


def _shards(out_dir: Path) -> List[Path]:
    return sorted(out_dir.glob(f"{SHARD_PREFIX}[0-9][0-9][0-9][0-9][0-9].npz"))


def load_arrays(out_dir: Union[str, "os.PathLike[str]"]) -> Dict[str, npt.NDArray[Any]]:
    """Every shard of a run's output, concatenated field by field (``ARRAY_FIELDS``); the
    positions are in the order written (games in index order within a run)."""
    parts: Dict[str, List[npt.NDArray[Any]]] = {name: [] for name in ARRAY_FIELDS}
    for shard in _shards(Path(out_dir)):
        with np.load(shard, allow_pickle=False) as data:
            for name in ARRAY_FIELDS:
                parts[name].append(data[name])
    if not parts["game"]:
        raise ValueError(f"{str(out_dir)[:80]}: no {SHARD_PREFIX}NNNNN.npz files")
    return {name: np.concatenate(arrays) for name, arrays in parts.items()}


def _check_manifest(out_dir: Path, settings: SelfPlaySettings) -> Dict[str, Any]:
    """The manifest of a run in `out_dir` (empty if none); ValueError if of other settings."""
    path = out_dir / MANIFEST_NAME
    if not path.exists():
        return {}
    try:
        manifest: Dict[str, Any] = json.loads(path.read_text())
    except ValueError as error:
        raise ValueError(f"{str(path)[:80]}: not a manifest ({error})") from error
    if manifest.get("settings") != asdict(settings):
        raise ValueError(
            f"{str(out_dir)[:80]} holds a run of other settings "
            f"({str(manifest.get('settings'))[:300]}); use another directory"
        )
    return manifest


class _Output:
    """The run's files, written by the driver alone: TSV lines as each game is written, arrays
    in shards of ``shard_games`` games; the shards say which games are written."""

    def __init__(self, out_dir: Path, settings: SelfPlaySettings, games: int, shard_games: int):
        self.dir = out_dir
        self.settings = settings
        self.games = games
        self.shard_games = shard_games
        out_dir.mkdir(parents=True, exist_ok=True)
        self.manifest = _check_manifest(out_dir, settings)
        self.done: Set[int] = set()
        self.next_shard = 0
        for shard in _shards(out_dir):
            with np.load(shard, allow_pickle=False) as data:
                self.done.update(int(i) for i in data["games_done"])
            self.next_shard = int(shard.stem[len(SHARD_PREFIX) :]) + 1
        self.tsv_path = out_dir / TSV_NAME
        if self.tsv_path.exists():
            # Lines of games written after the last shard (the run stopped between): dropped,
            # since those games are played again.
            lines = self.tsv_path.read_text().splitlines(keepends=True)
            kept = [line for line in lines if int(line.split("\t", 1)[0]) in self.done]
            if len(kept) != len(lines):
                temporary = self.tsv_path.with_suffix(".tsv.tmp")
                temporary.write_text("".join(kept))
                os.replace(temporary, self.tsv_path)
        self.tsv = open(self.tsv_path, "a")
        self.pending: List[SelfPlayGame] = []
        self._write_manifest()

    def _write_manifest(self) -> None:
        self.manifest.update(
            {
                "format": "tafl-engine selfplay 1",
                "tafl_engine_version": __version__,
                "settings": asdict(self.settings),
                "games": max(self.games, int(self.manifest.get("games", 0))),
                "games_written": len(self.done),
                "tsv": TSV_NAME,
                "tsv_fields": ["game", "record", "side", "score", "result", "ply"],
                "array_fields": list(ARRAY_FIELDS),
                "score_units": "the evaluation's own units (as nnue datagen), side to move's view",
            }
        )
        temporary = self.dir / (MANIFEST_NAME + ".tmp")
        temporary.write_text(json.dumps(self.manifest, indent=2) + "\n")
        os.replace(temporary, self.dir / MANIFEST_NAME)

    def add(self, game: SelfPlayGame) -> None:
        """Writes one game (its TSV lines now, its arrays with the shard)."""
        if game.index in self.done or any(g.index == game.index for g in self.pending):
            raise RuntimeError(f"game {game.index} would be written twice")
        self.tsv.write(game.tsv_lines())
        self.tsv.flush()
        self.pending.append(game)
        if len(self.pending) >= self.shard_games:
            self.flush()

    def flush(self) -> None:
        """Writes the arrays of the games since the last shard as a new shard."""
        if not self.pending:
            return
        games = self.pending
        os.fsync(self.tsv.fileno())  # the TSV lines are on disk before the shard claims them

        def column(values: Iterable[Any], dtype: Any) -> npt.NDArray[Any]:
            return np.asarray(list(values), dtype=dtype)

        def outcome_value(winner: Optional[str]) -> int:
            return 0 if winner is None else (1 if winner == "defenders" else -1)

        arrays: Dict[str, npt.NDArray[Any]] = {
            "planes": np.concatenate([g.planes for g in games if g.planes is not None]),
            "masks": np.concatenate([g.masks for g in games if g.masks is not None]),
            "actions": column((a for g in games for a in g.actions), np.int64),
            "scores": column((s for g in games for s in g.scores), np.int32),
            "results": column(
                (
                    0 if g.winner is None else (1 if side == g.winner else -1)
                    for g in games
                    for side in g.sides
                ),
                np.int8,
            ),
            "sides": column((SIDES.index(s) for g in games for s in g.sides), np.int8),
            "game": column((g.index for g in games for _ in g.sides), np.int64),
            "ply": column((p for g in games for p in g.ply_of), np.int32),
            "quiet": column((q for g in games for q in g.quiet), np.bool_),
            "records": np.asarray([r for g in games for r in g.records], dtype=np.str_),
            "games_done": column((g.index for g in games), np.int64),
            "game_results": column((outcome_value(g.winner) for g in games), np.int8),
            "game_plies": column((g.plies for g in games), np.int32),
        }
        if arrays["records"].size == 0:
            arrays["records"] = np.zeros(0, dtype="<U1")
        path = self.dir / f"{SHARD_PREFIX}{self.next_shard:05d}.npz"
        temporary = self.dir / f"{SHARD_PREFIX}{self.next_shard:05d}.tmp.npz"
        np.savez_compressed(temporary, **arrays)  # type: ignore[arg-type]
        os.replace(temporary, path)
        self.next_shard += 1
        self.done.update(g.index for g in games)
        self.pending = []
        self._write_manifest()

    def close(self) -> None:
        """Writes what is pending and closes the TSV."""
        try:
            self.flush()
        finally:
            self.tsv.close()


# The engine of a worker process, kept from task to task (cleared before every game).
_WORKER_ENGINES: Dict[int, Engine] = {}


def _worker_game(settings: SelfPlaySettings, index: int) -> SelfPlayGame:
    """What a Ray task runs: one game with this process's engine."""
    engine = _WORKER_ENGINES.get(settings.hash_mb)
    if engine is None:
        engine = _WORKER_ENGINES[settings.hash_mb] = Engine(threads=1, hash_mb=settings.hash_mb)
    return play_game(settings, index, engine)


def _import_ray() -> Any:
    try:
        # By name: Ray is optional, and type checkers need not know it.
        ray = importlib.import_module("ray")
    except ImportError as error:
        raise ImportError(
            'tafl_engine.selfplay needs Ray for backend="ray": pip install "./python[ray]" '
            '(or backend="local" / --local to play in this process)'
        ) from error
    return ray


ProgressCallback = Callable[[SelfPlayProgress], None]


def _print_progress(progress: SelfPlayProgress) -> None:
    print(progress.line(), file=sys.stderr, flush=True)


def run_selfplay(
    variant: str,
    games: int,
    out_dir: Union[str, "os.PathLike[str]"],
    *,
    workers: Optional[int] = None,
    seed: int = 1,
    nodes: int = 6000,
    attacker_nodes: Optional[int] = None,
    depth: Optional[int] = None,
    opening_plies: int = 8,
    max_plies: int = 400,
    hash_mb: int = 16,
    backend: str = "ray",
    address: Optional[str] = None,
    max_retries: int = 3,
    resubmits: int = 3,
    shard_games: int = 100,
    progress: Optional[ProgressCallback] = _print_progress,
    progress_seconds: float = 10.0,
) -> SelfPlaySummary:
    """Plays games ``0 .. games - 1`` of `variant` (``SelfPlaySettings`` for the settings) and
    writes them to `out_dir` (see the module's documentation), skipping games already there.

    ``backend="ray"``: each game is a Ray task (``max_retries`` retries when its worker dies;
    after those the game is submitted again, at most ``resubmits`` times); at most `workers`
    games run at once (None: the cluster's CPUs). Ray is used as it is when
    ``ray.is_initialized()``; otherwise ``ray.init(address=address)`` joins a cluster when
    `address` or ``RAY_ADDRESS`` is given, else starts Ray on this machine (with `workers`
    CPUs when given) and shuts it down at the end. ``backend="local"``: the games one after
    another in this process, without Ray.

    `progress` is called with a ``SelfPlayProgress`` every ``progress_seconds`` and at the end
    (by default it prints a line to stderr; None: silent). Raises ValueError for a bad setting
    or an `out_dir` holding a run of other settings; ImportError without Ray for
    ``backend="ray"``."""
    settings = SelfPlaySettings(
        variant=variant,
        nodes=nodes,
        attacker_nodes=attacker_nodes,
        depth=depth,
        opening_plies=opening_plies,
        max_plies=max_plies,
        seed=seed,
        hash_mb=hash_mb,
    )
    settings.check()
    for name, value, least in (
        ("games", games, 0),
        ("workers", workers, 1),
        ("max_retries", max_retries, 0),
        ("resubmits", resubmits, 0),
        ("shard_games", shard_games, 1),
    ):
        if value is None and name == "workers":
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise ValueError(f"{name} must be an integer of at least {least}, not {value!r:.40}")
    if backend not in ("ray", "local"):
        raise ValueError(f'backend must be "ray" or "local", not {backend!r:.40}')
    _check_manifest(Path(out_dir), settings)
    ray = _import_ray() if backend == "ray" else None
    started_ray = False
    if ray is not None and not ray.is_initialized():
        # Ray first: a cluster that cannot be joined leaves no output behind.
        if address is None and not os.environ.get("RAY_ADDRESS"):
            ray.init(num_cpus=workers)
        else:
            ray.init(address=address)
        started_ray = True
    try:
        output = _Output(Path(out_dir), settings, games, shard_games)
    except BaseException:
        if started_ray and ray is not None:
            ray.shutdown()
        raise
    todo = [index for index in range(games) if index not in output.done]
    started = last_report = time.monotonic()
    state = SelfPlayProgress(len(output.done), games, 0, 0, 0.0, 0)
    tally: Counter[str] = Counter()

    def write(game: SelfPlayGame) -> None:
        nonlocal last_report
        output.add(game)
        tally[game.result] += 1
        state.games_done += 1
        state.positions += len(game.records)
        state.quiet_positions += sum(game.quiet)
        now = time.monotonic()
        state.seconds = now - started
        if progress is not None and now - last_report >= progress_seconds:
            last_report = now
            progress(state)

    used_workers = 1
    try:
        if ray is None:
            engine = Engine(threads=1, hash_mb=hash_mb)
            for index in todo:
                write(play_game(settings, index, engine))
        else:
            cpus = int(ray.cluster_resources().get("CPU", 1))
            used_workers = workers if workers is not None else max(1, cpus)
            _run_on_ray(ray, settings, todo, used_workers, max_retries, resubmits, write, state)
    finally:
        state.seconds = time.monotonic() - started
        output.close()
        if started_ray and ray is not None:
            ray.shutdown()
    if progress is not None:
        progress(state)
    return SelfPlaySummary(
        progress=state,
        games_played=sum(tally.values()),
        results=dict(tally),
        workers=used_workers,
        out_dir=str(out_dir),
    )


def _run_on_ray(
    ray: Any,
    settings: SelfPlaySettings,
    todo: List[int],
    workers: int,
    max_retries: int,
    resubmits: int,
    write: Callable[[SelfPlayGame], None],
    state: SelfPlayProgress,
) -> None:
    """Keeps `workers` games running, and writes finished games in the order of `todo`."""
    remote = ray.remote(num_cpus=1, max_retries=max_retries)(_worker_game)
    task = remote.options(name="selfplay_game")  # a worker playing is titled ray::selfplay_game
    # A worker (or its node) that died after Ray's retries: the game is submitted again.
    lost = tuple(
        getattr(ray.exceptions, name)
        for name in ("WorkerCrashedError", "NodeDiedError", "ObjectLostError", "OwnerDiedError")
        if hasattr(ray.exceptions, name)
    )
    settings_ref = ray.put(settings)
    running: Dict[Any, Tuple[int, int]] = {}  # task -> (index, submissions)
    finished: Dict[int, SelfPlayGame] = {}  # waiting for the games before them
    # Games finish out of order; a game is submitted only while it is at most this far past the
    # first unwritten one, so that the games waiting to be written stay few.
    window = 4 * workers + 16
    submitted = written = 0
    while written < len(todo):
        while submitted < len(todo) and len(running) < workers and submitted - written < window:
            index = todo[submitted]
            running[task.remote(settings_ref, index)] = (index, 1)
            submitted += 1
        ready, _ = ray.wait(list(running), num_returns=1, timeout=1.0)
        for ref in ready:
            index, submissions = running.pop(ref)
            try:
                game = ray.get(ref)
            except lost as error:
                if submissions > resubmits:
                    raise RuntimeError(
                        f"game {index}: its worker died {submissions} times"
                    ) from error
                running[task.remote(settings_ref, index)] = (index, submissions + 1)
                state.resubmitted += 1
                continue
            if game.index != index:
                raise RuntimeError(f"game {index} came back as game {game.index}")
            finished[index] = game
        while written < len(todo) and todo[written] in finished:
            write(finished.pop(todo[written]))
            written += 1


def main(argv: Optional[List[str]] = None) -> int:
    """The command line (``python -m tafl_engine.selfplay --help``)."""
    parser = argparse.ArgumentParser(
        prog="python -m tafl_engine.selfplay",
        description="Self-play games of the engine's search, spread over a Ray cluster, written "
        "as the NNUE trainer's TSV and as numpy arrays. The same seed gives the same games; "
        "run the same command again to resume a stopped run.",
    )
    parser.add_argument(
        "--variant", required=True, help="a name of tafl_engine.variants(), or a rules string"
    )
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--out", required=True, help="the output directory")
    parser.add_argument(
        "--address",
        help="a Ray cluster to join (auto, HOST:6379); default RAY_ADDRESS, else a local Ray",
    )
    parser.add_argument("--workers", type=int, help="games at once (default: the cluster's CPUs)")
    parser.add_argument("--local", action="store_true", help="play in this process, without Ray")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=6000, help="nodes a search (the defenders')")
    parser.add_argument(
        "--attacker-nodes", type=int, help="the attackers' nodes a search (default --nodes)"
    )
    parser.add_argument("--depth", type=int, help="a depth cap besides the nodes")
    parser.add_argument("--opening-plies", type=int, default=8)
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--hash-mb", type=int, default=16)
    parser.add_argument("--shard-games", type=int, default=100, help="games a .npz file")
    parser.add_argument("--progress-seconds", type=float, default=10.0)
    args = parser.parse_args(argv)
    try:
        summary = run_selfplay(
            args.variant,
            args.games,
            args.out,
            workers=args.workers,
            seed=args.seed,
            nodes=args.nodes,
            attacker_nodes=args.attacker_nodes,
            depth=args.depth,
            opening_plies=args.opening_plies,
            max_plies=args.max_plies,
            hash_mb=args.hash_mb,
            backend="local" if args.local else "ray",
            address=args.address,
            shard_games=args.shard_games,
            progress_seconds=args.progress_seconds,
        )
    except (ValueError, ImportError, ConnectionError) as error:
        # ConnectionError: Ray's, when the cluster given cannot be joined.
        print(f"selfplay: {error}", file=sys.stderr)
        return 2
    results = summary.results
    print(
        f"{args.variant}: {summary.games_played} games played ({summary.progress.games_done} of "
        f"{args.games} written) with {summary.workers} workers in "
        f"{summary.progress.seconds:.1f} s: "
        f"defenders {results.get('defenders', 0)} draws {results.get('draw', 0)} attackers "
        f"{results.get('attackers', 0)}; {summary.progress.positions} positions "
        f"({summary.progress.quiet_positions} in {Path(args.out) / TSV_NAME}), "
        f"{summary.progress.positions_per_second:.1f} positions/s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
