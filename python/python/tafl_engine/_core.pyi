"""Type stubs of the extension module `tafl_engine._core` (written by hand; keep them in step
with python/src/)."""

from typing import Any, Dict, List, Optional, Sequence, Tuple

__version__: str

PLANES: Tuple[str, ...]
"""The planes of `Game.planes` and `encode_planes`, in order: `attackers` (the attacking
soldiers), `defenders` (the defending soldiers, without the king), `king`, `castle` (the
castle square), `attackers_to_move` (all ones when the attackers are to move)."""

def variants() -> List[str]:
    """The names `Game` and `perft` accept, e.g. `["tablut", "tawlbwrdd"]`: every variant the
    crate knows."""

def perft(variant: str, depth: int, threads: int = 1) -> int:
    """Perft (RULES.md P1) from the start position of `variant` (a name from `variants()`, or
    an OpenTafl rules string): the number of move paths `depth` plies long, on `threads`
    threads, with the GIL released. `perft("tablut", 4) == 19913864`.

    Raises ValueError for an unknown variant, a refused rules string or `threads == 0`."""

def encode_planes(games: Sequence[Game]) -> bytes:
    """The current positions of `games` (all on boards of one size n) as one `bytes` object of
    `len(games) x len(PLANES) x n x n` bytes of 0 and 1, game after game, plane after plane,
    row 0 = rank 1. `numpy.frombuffer(b, numpy.uint8).reshape(len(games), len(PLANES), n, n)`
    wraps it without a copy.

    Raises ValueError for an empty list or games on boards of different sizes."""

def _panic_for_tests(message: str) -> None:
    """Panics inside the extension (to test that a panic reaches Python as a RuntimeError)."""

class Game:
    """A game of tafl: the position, the moves that led to it, and the result once there is one.

    `Game(variant)` starts a built-in variant (one of `variants()`); `Game.from_rules` and
    `Game.from_record` set up others. Moves are text in OpenTafl simple notation (`e2-h2`);
    squares are named `a1` (file a, rank 1) to `k11`. Every method is safe to call from several
    threads at once. Games compare equal when their positions and moves are equal; they are not
    hashable (use `hash` for the position's key). Copy with `copy()` (or `copy.copy`); games
    pickle (by replaying their moves).
    """

    def __init__(self, variant: str) -> None:
        """A new game of the built-in variant `variant` (one of `variants()`, any case), at its
        start position. Raises ValueError for an unknown name."""

    @staticmethod
    def from_rules(rules: str) -> Game:
        """A new game under an OpenTafl rules string (`dim:9 name:Tablut esc:e ... start:/.../`),
        at the start position it gives. Raises ValueError naming the field when the string asks
        for rules the engine does not play."""

    @staticmethod
    def from_record(variant: str, record: str, side_to_move: str = "attackers") -> Game:
        """A new game of `variant` (a name from `variants()`, or an OpenTafl rules string) set
        up at the OpenTafl position record `record` (rank 1 first, e.g. `/3ttt3/4t4/.../`) with
        `side_to_move` (`"attackers"` or `"defenders"`) to move. Repetitions count from here.
        Raises ValueError for a malformed record, a board of the wrong size, or a bad side."""

    @property
    def variant(self) -> str:
        """The variant's name, e.g. `Tablut`."""

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
        """None while the game goes on; then `(winner, reason)` with winner `"attackers"`,
        `"defenders"` or `"draw"` and reason `"king_captured"`, `"king_escaped"`,
        `"repetition"`, `"no_legal_moves"` or `"agreement"`."""

    @property
    def record(self) -> str:
        """The current position as an OpenTafl position record, rank 1 first."""

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
        """How many occurrences of one position draw the game under these rules (2 for Tablut
        and Tawlbwrdd, RULES.md R16), or None when repetition does not draw."""

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

    def undo(self) -> Optional[str]:
        """Takes back the last move and returns it, or None at the start. A draw agreed since
        the last move is taken back first (then no move is, and it returns None)."""

    def agree_draw(self) -> None:
        """The players agree to a draw (RULES.md R18). Does nothing once the game is over."""

    def board(self) -> List[List[str]]:
        """The board as a list of rows, row 0 = rank 1, each a list of `"."` (empty), `"t"`
        (attacker), `"T"` (defender) or `"K"` (king), column 0 = file a."""

    def diagram(self) -> str:
        """The board as RULES.md draws it: rank 1 at the bottom, `a` attacker, `d` defender, `K`
        king, `#` the empty castle."""

    def planes(self) -> bytes:
        """The current position as `len(PLANES) x size x size` bytes of 0 and 1 (see
        `PLANES`), row 0 = rank 1:
        `numpy.frombuffer(g.planes(), numpy.uint8).reshape(len(PLANES), n, n)` wraps it
        without a copy. For many games at once use `encode_planes`."""

    def copy(self) -> Game:
        """An independent copy of the game (the moves, positions and result), in
        microseconds."""

    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Dict[int, Any]) -> Game: ...
    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]: ...
    @staticmethod
    def _restore(
        rules: str, record: str, side_to_move: str, moves: List[str], agreed_draw: bool
    ) -> Game:
        """Rebuilds a pickled game."""

    def perft(self, depth: int, threads: int = 1) -> int:
        """Perft (RULES.md P1) of the current position: the number of move paths `depth` plies
        long, on `threads` threads, with the GIL released. Like the crate's, it looks at the
        position alone (no repetition draws)."""

    def divide(self, depth: int) -> List[Tuple[str, int]]:
        """Perft split by first move: `[(move, perft of the position after it), ...]` for every
        legal move, sorted by the move's text, with the GIL released. The counts add up to
        `perft(depth)` for depth >= 1."""

    def search(
        self,
        *,
        movetime_ms: Optional[int] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        threads: int = 1,
        hash_mb: int = 16,
    ) -> SearchResult:
        """Searches the current position with a fresh searcher and returns a `SearchResult`
        (best move, score, depth, principal variation). Give at least one limit:
        `movetime_ms`, `depth` (plies) or `nodes`. The GIL is released while it thinks. To keep
        what the search learnt from one move to the next, use an `Engine`. Raises ValueError
        without a limit, for `depth=0`, or for threads/hash_mb out of range."""

    def __eq__(self, other: object) -> bool: ...
    __hash__: None  # type: ignore[assignment]

class Engine:
    """A searcher that keeps what it learnt (its transposition table) from one search to the
    next: use one per player in a game, rather than `Game.search`, which sets up a fresh one
    each time.

    Safe to share between threads: searches run one at a time (a second waits for the first,
    without holding the GIL), and `stop()` ends the running one.
    """

    def __init__(self, threads: int = 1, hash_mb: int = 64) -> None:
        """A searcher with `threads` search threads and a `hash_mb` MiB transposition table
        (allocated and cleared now, about 25 ms for 64 MiB, with the GIL released). Raises
        ValueError for threads outside 1..256 or hash_mb outside 1..65536."""

    def search(
        self,
        game: Game,
        *,
        movetime_ms: Optional[int] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
    ) -> SearchResult:
        """Searches the current position of `game` within the limits (at least one: time in
        milliseconds, depth in plies, nodes) and returns a `SearchResult`. The GIL is released
        while it thinks. Raises ValueError when no limit is given."""

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

class SearchResult:
    """What a search found. `score` is from the point of view of the side to move, in soldiers
    (a forced win in n plies is 1000 - n, a forced loss -1000 - n)."""

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
