"""Type stubs of the extension module `tafl_engine._core` (written by hand; keep them in step
with python/src/: tests/test_api.py checks that they name the same things)."""

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, SupportsIndex, Tuple, Union, overload

import numpy
import numpy.typing

__version__: str

PLANES: Tuple[str, ...]
"""The planes of `Game.planes` and `encode_planes`, in order, each `n x n` bytes (row 0 = rank
1): `attackers` (the attacking soldiers), `defenders` (the defending soldiers, without the
king), `king`, `castle` (the throne squares), `attackers_to_move` (all ones when the attackers
are to move), `corners` (corner squares with rules of their own), `escape` (where the king wins
by arriving: the edge, or the corners), `special` (every square with rules of its own),
`hostile_to_attackers` and `hostile_to_defenders` (squares hostile to that side's soldiers by
their own rules now, not by a piece on them), then two counts on every square, at most 255:
`repetitions` (times the position has occurred, itself included) and `ply` (plies played).
All planes but the last two are 0 or 1."""

SYMMETRIES: Tuple[str, ...]
"""The eight symmetries of the square board, by name: `identity`, `rotate90` (a quarter turn
anticlockwise, rank 1 at the bottom), `rotate180`, `rotate270`, `flip_files` (file a and the
last swapped), `flip_ranks`, `transpose` (mirrored in the diagonal through a1),
`antitranspose`."""

MAX_PERFT_DEPTH: int
"""The deepest perft accepted (12)."""

MAX_THREADS: int
"""Most threads a perft or a search may use (256)."""

BoolArray = numpy.typing.NDArray[numpy.bool_]
IntArray = numpy.typing.NDArray[numpy.int64]
Float32Array = numpy.typing.NDArray[numpy.float32]
Int32Array = numpy.typing.NDArray[numpy.int32]
Int = SupportsIndex
"""An integer argument: an int, or anything with `__index__` (numpy's integers)."""

def variants() -> List[str]:
    """The names `Game` and `perft` accept, e.g. `["tablut", "tawlbwrdd"]`: every variant the
    crate knows."""

def perft(variant: str, depth: Int, threads: Optional[Int] = None) -> int:
    """Perft from the start position of `variant` (a name from `variants()`, or an OpenTafl
    rules string): the number of move paths `depth` plies long (0 to `MAX_PERFT_DEPTH`), on
    `threads` threads (1 to `MAX_THREADS`), with the GIL released; Ctrl-C stops it
    (KeyboardInterrupt). `perft("tablut", 4) == 19913864`.

    Raises ValueError for an unknown variant, a refused rules string, or a depth or a thread
    count out of range (naming it); TypeError for an argument that is not an integer."""

def encode_planes(games: Sequence[Game]) -> bytes:
    """The current positions of `games` (all on boards of one size n) as one `bytes` object of
    `len(games) x len(PLANES) x n x n` bytes, game after game, plane after plane, row 0 = rank
    1. `numpy.frombuffer(b, numpy.uint8).reshape(len(games), len(PLANES), n, n)` wraps it
    without a copy.

    Raises ValueError for an empty list or games on boards of different sizes."""

def legal_action_masks(games: Sequence[Game]) -> BoolArray:
    """The legal moves of `games` (all on boards of one size) as one numpy array of
    `len(games) x num_actions` bools, row `i` game `i`'s (`Game.legal_action_mask`).

    Raises ValueError for an empty list or mixed board sizes."""

def read_otg(text: str) -> Tuple[Game, Dict[str, str]]:
    """Reads an OpenTafl game record (`.otg` text: tags, the rules, `1. e2-h2 e3-h3` turns) and
    returns `(game, tags)`: the game with every move played, and the tags as a dict (without
    the rules). A resignation (`---`) ends the moves; the game has no outcome for it (the
    `result` tag tells). Raises ValueError naming the line for a malformed record or an illegal
    move."""

def _panic_for_tests(message: str) -> None:
    """Panics inside the extension (to test that a panic reaches Python as a RuntimeError)."""

def _search_tables_made() -> int:
    """How many transposition tables `Game.search` has set up so far (each other search used
    one of them again)."""

class Game:
    """A game of tafl: the position, the moves that led to it, and the result once there is one.

    `Game(variant)` starts a variant: a name of `variants()` or an OpenTafl rules string;
    `Game.from_record` and `Game.from_position_string` set up other positions. Moves are text in
    OpenTafl simple notation (`e2-h2`) or integer actions (`ActionSpace`); squares are named
    `a1` (file a, rank 1) to `k11`. `max_plies` caps the game's length for learning code
    (`truncated`). Every method is safe to call from several threads at once. Games compare
    equal when their positions and moves are equal; they are not hashable (use `hash` for the
    position's key). Copy with `copy()` (or `copy.copy`); games pickle (by replaying their
    moves). In Jupyter a game shows as an SVG picture (`svg()`).
    """

    def __init__(self, variant: str, *, max_plies: Optional[Int] = None) -> None:
        """A new game of `variant` at its start position: a name of `variants()` (any case), or
        an OpenTafl rules string. `max_plies` (None: no cap) makes the game `truncated` once
        that many plies are played. Raises ValueError for an unknown name or a refused rules
        string."""

    @staticmethod
    def from_rules(rules: str, *, max_plies: Optional[Int] = None) -> Game:
        """A new game under an OpenTafl rules string (`dim:9 name:Tablut esc:e ... start:/.../`),
        at the start position it gives. Raises ValueError naming the field when the string asks
        for rules the engine does not play."""

    @staticmethod
    def from_record(
        variant: str,
        record: str,
        side_to_move: str = "attackers",
        *,
        max_plies: Optional[Int] = None,
    ) -> Game:
        """A new game of `variant` (a name from `variants()`, or an OpenTafl rules string) set
        up at the OpenTafl position record `record` (rank 1 first, e.g. `/3ttt3/4t4/.../`) with
        `side_to_move` (`"attackers"` or `"defenders"`) to move. Repetitions count from here.
        Raises ValueError for a malformed record, a board of the wrong size, or a bad side."""

    @staticmethod
    def from_position_string(
        variant: str, position: str, *, max_plies: Optional[Int] = None
    ) -> Game:
        """A new game of `variant` set up at a position string (`position_string`: a record and
        the side to move, `"/3ttt3/.../3ttt3/ a"`). Raises ValueError saying what is wrong and
        at which column."""

    @property
    def variant(self) -> str:
        """What `Game(...)` takes to start this game again: the variant's name for a built-in
        game (`"tablut"`, `"sea-battle"`, `"opentafl-tablut"`), its rules string for any
        other."""

    @property
    def display_name(self) -> str:
        """The variant's name for people, e.g. `Sea Battle` (OpenTafl's Tablut and this
        project's are both `Tablut`: `variant` tells them apart)."""

    @property
    def rules(self) -> str:
        """The rules as an OpenTafl rules string (with the variant's start position)."""

    @property
    def size(self) -> int:
        """The board's width and height in squares (9 for Tablut, 11 for Tawlbwrdd)."""

    @property
    def side_to_move(self) -> str:
        """The side to move: `"attackers"` or `"defenders"`."""

    @property
    def outcome(self) -> Optional[Tuple[str, str]]:
        """None while the game goes on; then `(winner, reason)`. The winner is `"attackers"`,
        `"defenders"` or `"draw"`. Reasons of a win: `"king_captured"`, `"king_escaped"`, and
        under some rules `"edge_fort"` (the king safe in a fort on the edge), `"encircled"` (no
        defender can reach an edge), `"all_pieces_captured"`, `"defenders_immobile"`,
        `"no_legal_moves"` (the side to move has none, and loses) and `"repetition"`
        (Copenhagen: a third repetition loses for the side that made it), `"cannot_escape"`
        (hnefatafl.org's rules: the attackers hold the king so that he can no longer escape).
        Reasons of a draw: `"repetition"`, `"no_legal_moves"`, `"agreement"`, `"move_limit"`
        (hnefatafl.org's rules: the game reached its move limit)."""

    @property
    def terminated(self) -> bool:
        """Whether the game is over (it has an `outcome`)."""

    @property
    def truncated(self) -> bool:
        """Whether the game reached its ply cap (`max_plies`) without being over: for learning
        code that stops long games there. The game itself may still be played on."""

    @property
    def max_plies(self) -> Optional[int]:
        """The ply cap (None: none), for `truncated`. Settable: None or 1 and more."""

    @max_plies.setter
    def max_plies(self, value: Optional[Int]) -> None: ...
    def reward(self, player: str) -> float:
        """The result for `player` (`"attackers"` or `"defenders"`): 1.0 if that side has won,
        -1.0 if it has lost, 0.0 for a draw or while the game goes on (or is truncated)."""

    @property
    def record(self) -> str:
        """The current position as an OpenTafl position record, rank 1 first."""

    @property
    def position_string(self) -> str:
        """The current position with the side to move, in one line: the record, a space, `a`
        (attackers to move) or `d` (defenders): `"/3ttt3/4t4/.../3ttt3/ a"`.
        `Game.from_position_string` reads it back."""

    @property
    def ply(self) -> int:
        """The number of moves played since the start (or the set-up position)."""

    @property
    def moves(self) -> List[str]:
        """The moves played so far, first to last."""

    @property
    def history(self) -> List[Tuple[str, List[str]]]:
        """The moves played so far, each with the squares it captured:
        `[("e2-h2", []), ...]`."""

    @property
    def positions(self) -> List[Tuple[str, str]]:
        """Every position of the game as `(record, side_to_move)`, the start first and the
        current one last."""

    @property
    def repetitions(self) -> int:
        """How many times the current position (placement and side to move) has occurred in
        this game, counting itself."""

    @property
    def repetition_draw_count(self) -> Optional[int]:
        """How many occurrences of one position draw the game under these rules (2 for this
        project's Tablut and Tawlbwrdd: the first repetition draws), or None when repetition
        does not draw (it may win or lose instead, as in Copenhagen)."""

    @property
    def hash(self) -> int:
        """The Zobrist hash of the current placement and side to move (a 64-bit integer; equal
        positions have equal hashes), for transposition tables."""

    @property
    def king(self) -> Optional[str]:
        """The king's square, or None once he has been captured."""

    @property
    def castle(self) -> str:
        """The castle square (the centre)."""

    def legal_moves(self) -> List[str]:
        """The legal moves of the side to move, in OpenTafl simple notation; none once the game
        is over (also by repetition). The order is the generator's: sort the list for
        reproducible choices."""

    def is_legal(self, move: str) -> bool:
        """Whether `move` (text) can be played now: False once the game is over. Raises
        ValueError for text that is not a move."""

    def play(self, move: str) -> List[str]:
        """Plays `move` (OpenTafl simple notation `e2-h2`; full notation is read too, its capture
        list ignored) and returns the squares it captured, e.g. `["d2"]`. Raises ValueError,
        saying why, for a malformed or illegal move or a finished game; the game is then
        unchanged."""

    @property
    def action_space(self) -> ActionSpace:
        """The action space of this game's board (`ActionSpace(size)`)."""

    @property
    def num_actions(self) -> int:
        """How many actions the board has (`action_space.num_actions`: 2592 on 9x9)."""

    def legal_actions(self) -> List[int]:
        """The actions of the legal moves, in increasing order; none once the game is over."""

    def legal_action_mask(self) -> BoolArray:
        """The legal moves as a numpy array of `num_actions` bools (writable, the game's own
        copy); all False once the game is over."""

    def play_action(self, action: Int) -> List[str]:
        """Plays the move of `action` (an int of `action_space`) and returns the squares it
        captured. Raises ValueError for an action out of range or not legal now, or a finished
        game; the game is then unchanged."""

    def undo(self) -> Optional[str]:
        """Takes back the last move and returns it, or None at the start. A draw agreed since
        the last move is taken back first (then no move is, and it returns None). `redo` plays
        again what was taken back."""

    def redo(self) -> Optional[str]:
        """Does again the last thing `undo` took back: plays the move again and returns it, or
        agrees the draw again (and returns None). None when nothing was taken back since the
        last new move (a move played, or a draw agreed, forgets what undo took back)."""

    def agree_draw(self) -> None:
        """The players agree to a draw (R18 of the rules: a draw by agreement). Does nothing
        once the game is over."""

    def board(self) -> List[List[str]]:
        """The board as a list of rows, row 0 = rank 1, each a list of `"."` (empty), `"t"`
        (attacker), `"T"` (defender) or `"K"` (king), column 0 = file a: the letters of
        position records. (`diagram()` draws with other letters.)"""

    def diagram(self) -> str:
        """The board as text for people, rank 1 at the bottom, with the letters of the rules'
        diagrams: `a` attacker, `d` defender, `K` king, `#` the empty throne, `+` another empty
        special square (corner, fort), `.` an empty square. (`board()` and records use `t`,
        `T`, `K`.)"""

    def svg(self) -> str:
        """The board as an SVG picture (text), the last move outlined: attackers dark, defenders
        light, the king with a cross; throne and corners shaded."""

    def _repr_svg_(self) -> str:
        """Jupyter shows a game as its SVG picture."""

    def planes(self) -> bytes:
        """The current position as `len(PLANES) x size x size` bytes (see `PLANES`), row 0 =
        rank 1: `numpy.frombuffer(g.planes(), numpy.uint8).reshape(len(te.PLANES), n, n)` wraps
        it without a copy. For many games at once use `encode_planes`."""

    def symmetries(self) -> List[str]:
        """The names of the symmetries (`SYMMETRIES`) under which these rules look the same, so
        that `transformed` can map the game: all eight for every built-in variant; fewer for a
        rules string whose special squares are not symmetric."""

    def transformed(self, symmetry: str) -> Game:
        """The image of the game under `symmetry` (a name of `SYMMETRIES`): its start position
        turned or mirrored and every move mapped, so the history, repetitions and outcome are
        the same. Raises ValueError when the rules are not symmetric under it (naming a
        square)."""

    def to_otg(self, tags: Optional[Union[Mapping[str, str], Sequence[Tuple[str, str]]]] = None) -> str:
        """The game as an OpenTafl game record (`.otg` text): `tags` (e.g. `{"event": "..."}`)
        first, a `result` tag from the outcome unless given, the `variant` tag (the display
        name), then the rules with the game's start and the moves. `read_otg` reads it
        back."""

    def copy(self) -> Game:
        """An independent copy of the game (the moves, positions, result, ply cap and what undo
        took back), in microseconds."""

    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Dict[int, Any]) -> Game: ...
    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]: ...
    @staticmethod
    def _restore(
        rules: str,
        record: str,
        side_to_move: str,
        moves: List[str],
        agreed_draw: bool,
        max_plies: Optional[int] = None,
        undone: Optional[List[Optional[str]]] = None,
    ) -> Game:
        """Rebuilds a pickled game."""

    def perft(self, depth: Int, threads: Optional[Int] = None) -> int:
        """Perft of the current position: the number of move paths `depth` plies long (0 to
        `MAX_PERFT_DEPTH`), on `threads` threads (1 to `MAX_THREADS`), with the GIL released;
        Ctrl-C stops it (KeyboardInterrupt). Like the crate's, it looks at the position alone
        (no repetition draws)."""

    def divide(self, depth: Int) -> List[Tuple[str, int]]:
        """Perft split by first move: `[(move, perft of the position after it), ...]` for every
        legal move, sorted by the move's text, with the GIL released; Ctrl-C stops it. The
        counts add up to `perft(depth)` for depth >= 1."""

    def search(
        self,
        *,
        movetime_ms: Optional[Int] = None,
        depth: Optional[Int] = None,
        nodes: Optional[Int] = None,
        threads: Optional[Int] = None,
        hash_mb: Optional[Int] = None,
    ) -> SearchResult:
        """Searches the current position and returns a `SearchResult` (best move, score, depth,
        principal variation), as a fresh searcher would: the transposition table of an earlier
        `Game.search` of the same size is emptied and used again, not allocated anew. Give at
        least one limit: `movetime_ms`, `depth` (plies, 1 to 64) or `nodes`. `threads` 1 to
        `MAX_THREADS` (1 if not given), `hash_mb` 1 to 65536 (16). The GIL is released while it
        thinks; Ctrl-C stops it (KeyboardInterrupt). To keep what the search learnt from one
        move to the next, use an `Engine`. Raises ValueError without a limit or for an argument
        out of range (naming it)."""

    def __eq__(self, other: object) -> bool: ...
    __hash__: None  # type: ignore[assignment]

class ActionSpace:
    """The actions of one board size: `index = (from * 4 + direction) * (n - 1) + (distance -
    1)`, `from = rank * n + file` (both from 0), directions north (up the ranks), east, south,
    west, distance 1 to n - 1; `n * n * 4 * (n - 1)` actions (2592 on 9x9, 4840 on 11x11).
    Every legal move has one action; most actions are never legal, which the masks say. Action
    spaces compare equal by size, and pickle."""

    def __init__(self, size: Int) -> None:
        """The action space of a `size` x `size` board: an odd size from 5 to 19, as boards
        are (the castle is the centre square). Raises ValueError for any other."""

    @property
    def size(self) -> int:
        """The board's width and height."""

    @property
    def num_actions(self) -> int:
        """How many actions there are: `n * n * 4 * (n - 1)`."""

    def action_to_move(self, action: Int) -> str:
        """The move of `action` in OpenTafl notation (`e2-h2`). Raises ValueError for a number
        out of range, or an action that lands off the board (never legal)."""

    def move_to_action(self, move: str) -> int:
        """The action of `move` (OpenTafl notation). Raises ValueError for text that is not a
        move, a move off this board or not along a rank or a file."""

    def legal_mask(self, game: Game) -> BoolArray:
        """The legal moves of `game` as a numpy array of `num_actions` bools (all False once the
        game is over). Raises ValueError for a game on a board of another size."""

    def legal_masks(self, games: Sequence[Game]) -> BoolArray:
        """The legal masks of `games` as one numpy array of `len(games) x num_actions` bools,
        row `i` game `i`'s. Raises ValueError for a game on a board of another size."""

    def legal_actions(self, game: Game) -> List[int]:
        """The actions of `game`'s legal moves, in increasing order."""

    def action_permutation(self, symmetry: str) -> IntArray:
        """The permutation of the actions under `symmetry` (a name of `SYMMETRIES`), as a numpy
        array of int64: entry `a` is the image of action `a`."""

    def square_permutation(self, symmetry: str) -> IntArray:
        """The permutation of the squares under `symmetry`, by index `rank * n + file`, as a
        numpy array of int64: entry `i` is the index of the image of square `i`."""

    def transform_actions(self, actions: Any, symmetry: str) -> Any:
        """The image of one action under `symmetry` (an int), or of an array of actions (a numpy
        array of the same shape)."""

    def transform_mask(self, mask: numpy.typing.ArrayLike, symmetry: str) -> numpy.typing.NDArray[Any]:
        """`mask` (or a policy, or anything over actions on its last axis, any leading axes) as
        it is for the image position under `symmetry`: `image[..., p[a]] = mask[..., a]`.
        Raises ValueError when the last axis is not `num_actions` long."""

    def transform_planes(self, planes: numpy.typing.ArrayLike, symmetry: str) -> numpy.typing.NDArray[Any]:
        """`planes` (anything over the board on its last two axes, `... x n x n`, row = rank) as
        they are for the image position under `symmetry`."""

    def __reduce__(self) -> Tuple[Any, Tuple[int]]: ...
    def __eq__(self, other: object) -> bool: ...

class Engine:
    """A searcher that keeps what it learnt (its transposition table) from one search to the
    next: use one per player in a game, or one per process to generate data, rather than
    `Game.search`, which empties its table before each search.

    Safe to share between threads: searches run one at a time (a second waits for the first,
    without holding the GIL), and `stop()` ends the running one. An engine pickles as its
    settings: the copy has a new, empty table (so engines can be sent to other processes, e.g.
    with multiprocessing).
    """

    def __init__(self, threads: Optional[Int] = None, hash_mb: Optional[Int] = None) -> None:
        """A searcher with `threads` search threads (1 to `MAX_THREADS`, 1 if not given) and a
        `hash_mb` MiB transposition table (1 to 65536, 64 if not given; allocated and cleared
        now, about 25 ms for 64 MiB, with the GIL released)."""

    def search(
        self,
        game: Game,
        *,
        movetime_ms: Optional[Int] = None,
        depth: Optional[Int] = None,
        nodes: Optional[Int] = None,
    ) -> SearchResult:
        """Searches the current position of `game` within the limits (at least one: time in
        milliseconds, depth in plies, nodes) and returns a `SearchResult`. The GIL is released
        while it thinks; Ctrl-C stops it (KeyboardInterrupt). Raises ValueError when no limit is
        given or one is out of range."""

    def root_scores(
        self,
        game: Game,
        *,
        movetime_ms: Optional[Int] = None,
        depth: Optional[Int] = None,
        nodes: Optional[Int] = None,
    ) -> RootScores:
        """Scores every legal move of `game`, each searched on its own to the same depth, within
        the limits (at least one; `depth` at least 2, the move itself being the first ply), and
        returns a `RootScores` (numpy arrays aligned with the game's `ActionSpace`). One thread
        searches, whatever `threads` is; each move is searched as on an empty table (the table
        is emptied every 64 moves, 16 above 11x11: a small `hash_mb` suits it). The GIL is released; Ctrl-C stops it (KeyboardInterrupt)."""

    def score_scale(self, game: Game) -> Tuple[int, int]:
        """How the evaluation that plays `game` turns its own units into the scores searches
        report (docs/search.md, "The shown score"): `(per_logit, defenders_edge)`, so many of
        its units a logit of the expected result, and how far the game leans to the defenders
        at an evaluation of 0, in hundredths of a logit. Waits for a running search to end."""

    def stop(self) -> None:
        """Asks the running search, if any, to stop as soon as it can; it then returns its best
        move so far. A search started after this call is not affected."""

    def clear(self) -> None:
        """Forgets what earlier searches learnt (call between unrelated games). Waits for a
        running search to end."""

    @property
    def threads(self) -> int:
        """Search threads."""

    @property
    def hash_mb(self) -> int:
        """Transposition table size asked for, in MiB."""

    def __reduce__(self) -> Tuple[Any, Tuple[int, int]]: ...

class SearchResult:
    """What a search found. `score` is from the point of view of the side to move, in soldiers
    of the engine's calibrated scale (docs/search.md, "The shown score": `expected_result` =
    1 / (1 + e^-score)); a forced win in n plies scores 1000 - n, a forced loss in n plies
    -(1000 - n) (`forced_in` gives n, negative for a loss). Results compare equal field by
    field, and pickle."""

    @property
    def best_move(self) -> Optional[str]:
        """The move to play, in OpenTafl simple notation, or None when the game is over."""

    @property
    def score(self) -> float:
        """The score in soldiers, from the side to move's point of view."""

    @property
    def score_text(self) -> str:
        """The score as the engine prints it: `0.35`, `win in 3`, `loss in 4`."""

    @property
    def expected_result(self) -> float:
        """The result the side to move is expected to score (a win 1, a draw 0.5, a loss 0), as
        the calibrated score promises it: 1 / (1 + e^-score), 1 or 0 for a forced result."""

    @property
    def forced_in(self) -> Optional[int]:
        """Plies to a forced result (positive: the side to move wins), or None."""

    @property
    def depth(self) -> int:
        """The deepest depth completed, in plies."""

    @property
    def pv(self) -> List[str]:
        """The principal variation, best move first."""

    @property
    def nodes(self) -> int:
        """Nodes searched."""

    @property
    def time_ms(self) -> float:
        """Time taken, in milliseconds."""

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]: ...
    @staticmethod
    def _restore(
        best_move: Optional[str],
        score: float,
        score_text: str,
        forced_in: Optional[int],
        depth: int,
        pv: List[str],
        nodes: int,
        time_ms: float,
    ) -> SearchResult:
        """Rebuilds a pickled result."""

    def __eq__(self, other: object) -> bool: ...

# Policy targets and the batched MCTS (issue 42).

class RootScores:
    """The scores of every legal move of a game at one depth (`Engine.root_scores`).

    `scores[a]` is the score of action `a` in soldiers, from the point of view of the side to
    move (the side that would play it), as `SearchResult.score` gives scores: a forced win in n
    plies is 1000 - n, a forced loss -(1000 - n). Illegal actions are NaN. All legal moves were
    searched to `depth` plies, the move itself the first."""

    @property
    def scores(self) -> Float32Array:
        """The scores, a float32 array of `num_actions` (NaN for illegal actions; all NaN when
        no depth was completed)."""

    @property
    def legal_mask(self) -> BoolArray:
        """The legal moves, a bool array of `num_actions` (as `Game.legal_action_mask()`)."""

    @property
    def moves(self) -> List[Tuple[str, float]]:
        """The legal moves with their scores, `[("e2-h2", 0.35), ...]`, in the game's order."""

    @property
    def best_move(self) -> Optional[str]:
        """The move with the highest score (the first of equals), or None."""

    @property
    def depth(self) -> int:
        """The depth every move was searched to, in plies (the move itself the first); 0 when no
        depth was completed within the limits."""

    @property
    def nodes(self) -> int:
        """Nodes searched."""

    @property
    def time_ms(self) -> float:
        """Time taken, in milliseconds."""

    def policy_target(self, temperature: float = 1.0) -> Float32Array:
        """A policy target: the softmax of the scores over the legal moves at `temperature`
        soldiers, 0 on illegal actions; a float32 array of `num_actions` summing to 1.
        `temperature` 0 puts all the weight on the best moves (shared evenly among equals).
        Raises ValueError for a negative or non-finite temperature, or when there are no scores
        (the game is over, or no depth was completed)."""

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]: ...
    @staticmethod
    def _restore(
        scores: List[float],
        legal: List[int],
        moves: List[Tuple[str, float]],
        best_move: Optional[str],
        depth: int,
        nodes: int,
        time_ms: float,
    ) -> RootScores:
        """Rebuilds a pickled result."""

Evaluator = Callable[
    [numpy.typing.NDArray[numpy.uint8], BoolArray],
    Tuple[numpy.typing.ArrayLike, numpy.typing.ArrayLike],
]
"""`evaluate(planes, masks) -> (priors, values)` of `Mcts.search`: planes `[B, len(PLANES), n,
n]` uint8, masks `[B, num_actions]` bool; priors `[B, num_actions]`, values `[B]` in [-1, 1]."""

class Mcts:
    """Batched PUCT Monte Carlo tree search whose leaves a Python callback evaluates.

    `search(game_or_games, evaluate)` runs `simulations` simulations for each game and calls
    `evaluate(planes, masks)` with batches of up to `batch_size` leaves: `planes` a uint8 array
    `[B, len(PLANES), n, n]` (as `encode_planes`), `masks` a bool array `[B, num_actions]` (the
    leaves' legal moves); it must return `(priors, values)`: `priors` `[B, num_actions]` (any
    real dtype; the priors of illegal actions are ignored and the legal ones renormalised, all
    zero meaning uniform; NaN, infinite or negative priors of legal actions are a ValueError)
    and `values` `[B]` in [-1, 1] (the leaf's value for its side to move; anything else is a
    ValueError). Finished games are valued by the rules without a call. Returns, for one game,
    `(visits, value)`: the root's visit counts as an int32 array of `num_actions` (0 for illegal
    actions) and the mean value of the simulations for the side to move; for a list of games
    (one board size), `(visits[G, num_actions], values[G])`. Games are read, never changed."""

    def __init__(
        self, c_puct: float = 1.5, simulations: Optional[Int] = None, batch_size: Optional[Int] = None
    ) -> None:
        """A search with exploration constant `c_puct` (finite, 0 to 1e6), `simulations` per
        game (1 to 10 000 000, 100 if not given) and leaves evaluated `batch_size` at a time (1
        to 65 536, 8 if not given)."""

    @overload
    def search(self, game_or_games: Game, evaluate: Evaluator) -> Tuple[Int32Array, float]: ...
    @overload
    def search(
        self, game_or_games: Sequence[Game], evaluate: Evaluator
    ) -> Tuple[Int32Array, Float32Array]: ...
    @property
    def c_puct(self) -> float:
        """The exploration constant."""

    @property
    def simulations(self) -> int:
        """Simulations per game."""

    @property
    def batch_size(self) -> int:
        """Leaves per call of the evaluator, at most."""
FloatArray = numpy.typing.NDArray[numpy.float32]

class BatchEnv:
    """`num_envs` games stepped together in Rust, for reinforcement learning: one call plays an
    action in every game and returns numpy arrays, with the GIL released (and, with `threads`,
    the games split over threads). `tafl_engine.vector.TaflVectorEnv` is the Gymnasium vector
    environment over it.

    Observations are dicts `{"observation": planes, "action_mask": mask}`: the planes
    `num_envs x num_planes x n x n` in `dtype` (`PLANES`, then the history's), the mask
    `num_envs x num_actions` bools (every game has a legal action: one that ends is started
    again in the same step). Every call returns new arrays (writable; the next step does not
    touch them)."""

    REASONS: List[str]
    """The outcome reasons by code (`infos["reason"]`): `""` (code 0: no outcome), then
    `"king_captured"`, `"king_escaped"`, `"all_pieces_captured"`, `"defenders_immobile"`,
    `"edge_fort"`, `"encircled"`, `"no_legal_moves"`, `"repetition"`, `"cannot_escape"`,
    `"agreement"`, `"move_limit"`, and `"other"` for a reason added later (see
    `Game.outcome`)."""

    def __init__(
        self,
        variant: Union[str, Sequence[str], None] = None,
        num_envs: Optional[Int] = None,
        *,
        seed: Optional[Int] = None,
        max_plies: Optional[Int] = None,
        perspective: str = "absolute",
        history: Optional[Int] = None,
        dtype: str = "uint8",
        threads: Optional[Int] = None,
    ) -> None:
        """`num_envs` (default 1) games of `variant` (a name of `variants()` or a rules string;
        default `"tablut"`), or one game of each variant of a list (all on one board size, else
        ValueError). `seed` seeds `sample_legal_actions` (None: from the system). `max_plies`
        truncates a game at that many plies (None: only the rules end games).
        `perspective="side_to_move"` shows the planes from the side to move: when the defenders
        are to move, the attackers' and defenders' planes swap places (planes 0 and 1,
        `hostile_to_attackers` and `hostile_to_defenders`, and the history's), so plane 0 is
        always "us" and plane 1 "them"; the king stays in plane 2, `attackers_to_move` still
        says which side "us" is, and the board is not turned (the rules have no direction).
        `history=k` (1 to 16) adds the piece planes (attackers, defenders, king) of the k-1
        positions before, most recent first (zeros before the game's start). `dtype`:
        `"uint8"` (the values of `Game.planes`), `"float32"` (the same numbers) or `"bool"`
        (the same flags; `repetitions` becomes "the position occurred before", `ply` "a move
        has been played"). `threads` (1 to `MAX_THREADS`) splits the games over that many
        threads at each step."""

    @property
    def num_envs(self) -> int:
        """The number of games."""

    @property
    def size(self) -> int:
        """The board's size."""

    @property
    def num_actions(self) -> int:
        """The number of actions of the board (`ActionSpace(size).num_actions`)."""

    @property
    def num_planes(self) -> int:
        """Planes per observation: `len(PLANES) + 3 * (history - 1)`."""

    @property
    def plane_names(self) -> List[str]:
        """The planes' names: `PLANES` (with `us`, `them`, `hostile_to_us`, `hostile_to_them`
        from the side to move's view), then `attackers_1`, `defenders_1`, `king_1`, ...
        (`us_1`, `them_1`, ...) for the history."""

    @property
    def dtype(self) -> str:
        """`"uint8"`, `"bool"` or `"float32"`."""

    @property
    def max_plies(self) -> Optional[int]:
        """The ply cap (None: none)."""

    @property
    def variants(self) -> List[str]:
        """Every game's variant (what `Game(...)` takes)."""

    @property
    def perspective(self) -> str:
        """`"absolute"` or `"side_to_move"`."""

    @property
    def history(self) -> int:
        """Positions per observation."""

    @property
    def threads(self) -> int:
        """Threads a step uses."""

    def reset(self, seed: Optional[Int] = None) -> Tuple[Dict[str, numpy.typing.NDArray[Any]], Dict[str, numpy.typing.NDArray[Any]]]:
        """Starts every game again and returns `(observations, infos)`; `seed` seeds
        `sample_legal_actions` again (the games have no chance). The infos are those of
        `step`, without `final_obs`."""

    def step(
        self, actions: numpy.typing.ArrayLike
    ) -> Tuple[
        Dict[str, numpy.typing.NDArray[Any]],
        FloatArray,
        BoolArray,
        BoolArray,
        Dict[str, numpy.typing.NDArray[Any]],
    ]:
        """Plays `actions[i]` (integers of `ActionSpace`, one per game) in game `i` and returns
        `(observations, rewards, terminated, truncated, infos)`. An action not legal now (or out
        of range) raises ValueError naming the first such game, and no game is stepped; floats
        raise TypeError. `rewards` (float32) are for the player who has just moved: +1 if the
        move won the game, -1 if it lost it, 0 otherwise (a draw, a truncation, a game going
        on). `terminated`: the rules ended the game; `truncated`: it reached `max_plies`.
        A game that ended is started again at once (Gymnasium's same-step autoreset): its
        observation and mask are the new game's. `infos`: `ply` (int32, of the game now),
        `side_to_move` (int8: 0 the attackers, 1 the defenders), `reason` (int8 code of
        `REASONS`, of the game that ended in this step; 0 otherwise), `winner` (int8: 1 the
        attackers, -1 the defenders, 0 a draw or none), `episode_plies` (int32: the length of
        the game that ended; 0 otherwise), `final_obs` (the last planes of the games that
        ended, zeros elsewhere) and `_final_obs` (bool: which games ended)."""

    def sample_legal_actions(self) -> IntArray:
        """A uniformly random legal action of every game (int64), drawn in Rust from the
        environment's generator (seeded by `seed`): a random policy without masks in
        Python."""
