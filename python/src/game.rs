//! `Game`: a game in progress (the crate's `Game` and the variant it is played under) behind a
//! mutex, so that one object can be used from several Python threads.

use std::sync::{Mutex, MutexGuard};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use tafl_engine::search::Searcher;
use tafl_engine::{DrawReason, Game, Move, Outcome, Position, Variant, notation, perft};

use crate::search::{self, SearchResult};
use crate::{guard, lock, planes, text};

/// A game and the variant it is played under (for its name and rules string).
#[derive(Clone)]
pub struct State {
    variant: Variant,
    game: Game,
}

impl State {
    fn new(variant: Variant) -> State {
        State {
            game: Game::new(&variant),
            variant,
        }
    }

    fn from_record(variant: Variant, record: &str, side: &str) -> PyResult<State> {
        let side = text::side(side)?;
        let position = notation::parse_position_record(record, variant.rules(), side)
            .map_err(|error| PyValueError::new_err(format!("bad position record: {error}")))?;
        Ok(State {
            game: Game::from_position(position),
            variant,
        })
    }

    fn position(&self) -> &Position {
        self.game.position()
    }

    /// Plays a move given as text; on an error the game is unchanged.
    fn play(&mut self, text: &str) -> PyResult<Vec<String>> {
        let m = text::parse_move(text)?;
        let captured = self
            .game
            .play(m)
            .map_err(|error| PyValueError::new_err(format!("cannot play {m}: {error}")))?;
        Ok(text::squares(captured))
    }

    fn agreed_draw(&self) -> bool {
        self.game.outcome() == Some(Outcome::Draw(DrawReason::Agreement))
    }
}

/// A game of tafl: the position, the moves that led to it, and the result once there is one.
///
/// `Game(variant)` starts a built-in variant (one of `variants()`); `Game.from_rules` and
/// `Game.from_record` set up others. Moves are text in OpenTafl simple notation (`e2-h2`);
/// squares are named `a1` (file a, rank 1) to `k11`. Every method is safe to call from several
/// threads at once: each runs under the game's lock, taken for microseconds (a search works on
/// a copy, with the lock and the GIL released).
#[pyclass(module = "tafl_engine", name = "Game", frozen)]
pub struct PyGame {
    state: Mutex<State>,
}

impl PyGame {
    fn wrap(state: State) -> PyGame {
        PyGame {
            state: Mutex::new(state),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }

    /// A copy of the game (for searching it without holding the lock).
    pub fn game(&self) -> Game {
        self.state().game.clone()
    }

    /// The current position.
    pub fn position(&self) -> Position {
        *self.state().position()
    }
}

#[pymethods]
impl PyGame {
    /// A new game of the built-in variant `variant` (one of `variants()`, any case), at its
    /// start position. Raises ValueError for an unknown name.
    #[new]
    fn new(variant: &str) -> PyResult<PyGame> {
        guard(|| Ok(PyGame::wrap(State::new(text::variant(variant)?))))
    }

    /// A new game under an OpenTafl rules string (`dim:9 name:Tablut esc:e ... start:/.../`),
    /// at the start position it gives. Raises ValueError naming the field when the string asks
    /// for rules the engine does not play.
    #[staticmethod]
    fn from_rules(rules: &str) -> PyResult<PyGame> {
        guard(|| Ok(PyGame::wrap(State::new(text::rules(rules)?))))
    }

    /// A new game of `variant` (a name from `variants()`, or an OpenTafl rules string) set up
    /// at the OpenTafl position record `record` (rank 1 first, e.g. `/3ttt3/4t4/.../`) with
    /// `side_to_move` (`"attackers"` or `"defenders"`) to move. Repetitions count from here.
    #[staticmethod]
    #[pyo3(signature = (variant, record, side_to_move = "attackers"))]
    fn from_record(variant: &str, record: &str, side_to_move: &str) -> PyResult<PyGame> {
        guard(|| {
            let variant = text::variant_or_rules(variant)?;
            Ok(PyGame::wrap(State::from_record(
                variant,
                record,
                side_to_move,
            )?))
        })
    }

    /// The variant's name, e.g. `Tablut`.
    #[getter]
    fn variant(&self) -> String {
        self.state().variant.name().to_string()
    }

    /// The rules as an OpenTafl rules string (with the variant's start position).
    #[getter]
    fn rules(&self) -> String {
        self.state().variant.to_string()
    }

    /// The board's width and height in squares (9 for Tablut, 11 for Tawlbwrdd).
    #[getter]
    fn size(&self) -> u8 {
        self.state().position().rules().size()
    }

    /// The side to move: `"attackers"` or `"defenders"`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        self.state().position().side_to_move().name()
    }

    /// None while the game goes on; then `(winner, reason)` with winner `"attackers"`,
    /// `"defenders"` or `"draw"` and reason `"king_captured"`, `"king_escaped"`,
    /// `"repetition"`, `"no_legal_moves"` or `"agreement"`.
    #[getter]
    fn outcome(&self) -> PyResult<Option<(&'static str, String)>> {
        guard(|| Ok(self.state().game.outcome().map(text::outcome)))
    }

    /// The current position as an OpenTafl position record, rank 1 first.
    #[getter]
    fn record(&self) -> String {
        notation::position_record(self.state().position())
    }

    /// The number of moves played since the start (or the set-up position).
    #[getter]
    fn ply(&self) -> usize {
        self.state().game.moves().len()
    }

    /// The moves played so far, first to last.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let moves: Vec<Move> = self.state().game.moves().collect();
        text::moves(py, moves)
    }

    /// The moves played so far, each with the squares it captured: `[("e2-h2", []), ...]`.
    #[getter]
    fn history(&self) -> Vec<(String, Vec<String>)> {
        self.state()
            .game
            .moves_with_captures()
            .map(|(m, captured)| (m.to_string(), text::squares(captured)))
            .collect()
    }

    /// Every position of the game as `(record, side_to_move)`, the start first and the current
    /// one last.
    #[getter]
    fn positions(&self) -> Vec<(String, &'static str)> {
        self.state()
            .game
            .positions()
            .iter()
            .map(|p| (notation::position_record(p), p.side_to_move().name()))
            .collect()
    }

    /// How many times the current position (placement and side to move) has occurred in this
    /// game, counting itself.
    #[getter]
    fn repetitions(&self) -> usize {
        self.state().game.repetitions()
    }

    /// How many occurrences of one position draw the game under these rules (2 for Tablut and
    /// Tawlbwrdd, RULES.md R16), or None when repetition does not draw.
    #[getter]
    fn repetition_draw_count(&self) -> Option<usize> {
        self.state().position().rules().repetition().draw_count()
    }

    /// The Zobrist hash of the current placement and side to move (a 64-bit integer; equal
    /// positions have equal hashes), for transposition tables.
    #[getter]
    fn hash(&self) -> u64 {
        self.state().position().hash()
    }

    /// The king's square, or None once he has been captured.
    #[getter]
    fn king(&self) -> Option<String> {
        self.state().position().king().map(|s| s.to_string())
    }

    /// The castle square (the centre).
    #[getter]
    fn castle(&self) -> String {
        self.state().position().rules().castle().to_string()
    }

    /// The legal moves of the side to move, in OpenTafl simple notation; none once the game is
    /// over (also by repetition). The order is the generator's: sort the list for reproducible
    /// choices.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let moves = guard(|| Ok(self.state().game.legal_moves()))?;
        text::moves(py, moves)
    }

    /// Whether `move` (text) can be played now: False once the game is over. Raises ValueError
    /// for text that is not a move.
    #[pyo3(signature = (r#move))]
    fn is_legal(&self, r#move: &str) -> PyResult<bool> {
        let m = text::parse_move(r#move)?;
        guard(|| {
            let state = self.state();
            Ok(state.game.outcome().is_none() && state.position().is_legal(m))
        })
    }

    /// Plays `move` (OpenTafl simple notation `e2-h2`; full notation is read too, its capture
    /// list ignored) and returns the squares it captured, e.g. `["d2"]`. Raises ValueError,
    /// saying why, for a malformed or illegal move or a finished game; the game is then
    /// unchanged.
    #[pyo3(signature = (r#move))]
    fn play(&self, r#move: &str) -> PyResult<Vec<String>> {
        guard(|| self.state().play(r#move))
    }

    /// Takes back the last move and returns it, or None at the start. A draw agreed since the
    /// last move is taken back first (then no move is, and it returns None).
    fn undo(&self) -> PyResult<Option<String>> {
        guard(|| Ok(self.state().game.undo().map(|m| m.to_string())))
    }

    /// The players agree to a draw (RULES.md R18). Does nothing once the game is over.
    fn agree_draw(&self) {
        self.state().game.agree_draw();
    }

    /// The board as a list of rows, row 0 = rank 1, each a list of `"."` (empty), `"t"`
    /// (attacker), `"T"` (defender) or `"K"` (king), column 0 = file a.
    fn board(&self) -> PyResult<Vec<Vec<String>>> {
        guard(|| Ok(text::board(self.state().position())))
    }

    /// The board as RULES.md draws it: rank 1 at the bottom, `a` attacker, `d` defender, `K`
    /// king, `#` the empty castle.
    fn diagram(&self) -> PyResult<String> {
        guard(|| Ok(notation::diagram(self.state().position())))
    }

    /// The current position as `len(PLANES) x size x size` bytes of 0 and 1 (see `PLANES`), row
    /// 0 = rank 1: `numpy.frombuffer(g.planes(), numpy.uint8).reshape(len(te.PLANES), n, n)`
    /// wraps it without a copy. For many games at once use `encode_planes`.
    fn planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let position = self.position();
        let length = planes::bytes_per_position(position.rules().size());
        PyBytes::new_with(py, length, |out| {
            guard(|| {
                planes::write(&position, out);
                Ok(())
            })
        })
    }

    /// An independent copy of the game (the moves, positions and result), in microseconds.
    fn copy(&self) -> PyGame {
        PyGame::wrap(self.state().clone())
    }

    /// `copy.copy(game)`: the same as `game.copy()`.
    fn __copy__(&self) -> PyGame {
        self.copy()
    }

    /// `copy.deepcopy(game)`: the same as `game.copy()` (a game holds no Python objects).
    fn __deepcopy__(&self, _memo: &Bound<'_, PyDict>) -> PyGame {
        self.copy()
    }

    /// Pickling: the rules, the start position, the moves and a draw agreement, replayed on
    /// loading.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let (rules, record, side, moves, agreed) = {
            let state = self.state();
            let start = state.game.start_position();
            (
                state.variant.to_string(),
                notation::position_record(start),
                start.side_to_move().name(),
                state
                    .game
                    .moves()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>(),
                state.agreed_draw(),
            )
        };
        let restore = py.get_type::<PyGame>().getattr("_restore")?;
        let arguments = (rules, record, side, moves, agreed).into_pyobject(py)?;
        Ok((restore, arguments))
    }

    /// Rebuilds a pickled game (see `__reduce__`).
    #[staticmethod]
    fn _restore(
        rules: &str,
        record: &str,
        side_to_move: &str,
        moves: Vec<String>,
        agreed_draw: bool,
    ) -> PyResult<PyGame> {
        guard(|| {
            let mut state = State::from_record(text::rules(rules)?, record, side_to_move)?;
            for m in &moves {
                state.play(m)?;
            }
            if agreed_draw {
                state.game.agree_draw();
            }
            Ok(PyGame::wrap(state))
        })
    }

    /// Perft (RULES.md P1) of the current position: the number of move paths `depth` plies
    /// long, on `threads` threads, with the GIL released. Like the crate's, it looks at the
    /// position alone (no repetition draws).
    #[pyo3(signature = (depth, threads = 1))]
    fn perft(&self, py: Python<'_>, depth: u32, threads: usize) -> PyResult<u64> {
        let position = self.position();
        crate::run_perft(py, position, depth, threads)
    }

    /// Perft split by first move: `[(move, perft of the position after it), ...]` for every
    /// legal move, sorted by the move's text, with the GIL released. The counts add up to
    /// `perft(depth)` for depth >= 1.
    fn divide(&self, py: Python<'_>, depth: u32) -> PyResult<Vec<(String, u64)>> {
        let position = self.position();
        py.detach(|| {
            guard(|| {
                Ok(perft::divide(&position, depth)
                    .into_iter()
                    .map(|(m, count)| (m.to_string(), count))
                    .collect())
            })
        })
    }

    /// Searches the current position with a fresh searcher and returns a `SearchResult` (best
    /// move, score, depth, principal variation). Give at least one limit: `movetime_ms`,
    /// `depth` (plies) or `nodes`. The GIL is released while it thinks. To keep what the search
    /// learnt from one move to the next, use an `Engine`.
    #[pyo3(signature = (*, movetime_ms = None, depth = None, nodes = None, threads = 1, hash_mb = 16))]
    fn search(
        &self,
        py: Python<'_>,
        movetime_ms: Option<u64>,
        depth: Option<u32>,
        nodes: Option<u64>,
        threads: usize,
        hash_mb: usize,
    ) -> PyResult<SearchResult> {
        let limits = search::limits(movetime_ms, depth, nodes)?;
        let config = search::config(threads, hash_mb)?;
        let game = self.game();
        let searcher = py.detach(|| guard(|| Ok(Mutex::new(Searcher::new(config)))))?;
        search::run(py, &searcher, &game, &limits)
    }

    /// Games are equal when their positions (with rules) and moves are.
    fn __eq__(&self, other: &Bound<'_, PyGame>) -> bool {
        // Copy one side first: `other` may be this very object, whose lock is not reentrant.
        let mine = self.game();
        mine == other.get().state().game
    }

    /// Games are mutable, so they are not hashable (use `hash` for the position's key).
    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    /// `Game('Tablut', record='...', side_to_move='attackers', ply=0)`.
    fn __repr__(&self) -> String {
        let state = self.state();
        format!(
            "Game('{}', record='{}', side_to_move='{}', ply={})",
            state.variant.name(),
            notation::position_record(state.position()),
            state.position().side_to_move().name(),
            state.game.moves().len()
        )
    }

    /// The board diagram (see `diagram`).
    fn __str__(&self) -> PyResult<String> {
        self.diagram()
    }
}
