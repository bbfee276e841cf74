//! `Game`: a game in progress (the crate's `Game` and the variant it is played under, with a
//! ply cap and moves taken back that can be played again) behind a mutex, so that one object
//! can be used from several Python threads.

use std::sync::{Mutex, MutexGuard};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use tafl_engine::actions::{ActionError, ActionSpace as Space};
use tafl_engine::record::GameRecord;
use tafl_engine::search::Searcher;
use tafl_engine::symmetry::Symmetry;
use tafl_engine::{
    AnyVariant, DrawReason, Game, Grid, Move, Narrow, Outcome, Position, Side, Variant, Wide,
    notation, position_string,
};

use crate::planes::{self, AnySnapshot, Snapshot};
use crate::search::{self, SearchResult};
use crate::space::{self, PyActionSpace};
use crate::{args, arrays, guard, interrupt, lock, svg, text};

/// The longest ply cap accepted (a game this long is far past any real one).
const MAX_PLY_CAP: usize = 1 << 20;

/// Something `undo` took back, which `redo` can do again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Undone<B: Grid> {
    Move(Move<B>),
    DrawAgreement,
}

/// A game, the variant it is played under (for its name and rules string), its ply cap, what
/// `undo` took back since the last new move, and the game's outcome (worked out once after each
/// change: a learning loop asks for it several times a move, and it looks at the whole
/// history). `B` is the board type: the narrow grid up to 11x11, the wide one above.
#[derive(Clone)]
pub struct State<B: Grid> {
    variant: Variant<B>,
    game: Game<B>,
    max_plies: Option<usize>,
    undone: Vec<Undone<B>>,
    outcome: Option<Outcome>,
}

impl<B: Grid> State<B> {
    fn new(variant: Variant<B>) -> State<B> {
        let game = Game::new(&variant);
        State::of_game(variant, game)
    }

    fn at(variant: Variant<B>, position: Position<B>) -> State<B> {
        State::of_game(variant, Game::from_position(position))
    }

    fn of_game(variant: Variant<B>, game: Game<B>) -> State<B> {
        State {
            outcome: game.outcome(),
            game,
            variant,
            max_plies: None,
            undone: Vec::new(),
        }
    }

    /// Takes back the last move or draw agreement (see `Game::undo`).
    fn undo(&mut self) -> Option<Move<B>> {
        let taken = self.game.undo();
        self.outcome = self.game.outcome();
        taken
    }

    /// Agrees a draw (nothing once the game is over).
    fn agree_draw(&mut self) {
        self.game.agree_draw();
        self.outcome = self.game.outcome();
    }

    /// The legal moves: none once the game is over; under hnefatafl.org's rules, the game's
    /// (its history forbids the defenders' moves that would recreate a position, H12).
    fn legal_moves(&self) -> tafl_engine::MoveList<B> {
        if self.outcome.is_some() {
            tafl_engine::MoveList::new()
        } else if self
            .position()
            .rules()
            .repetition()
            .forbids_defenders_recreating()
        {
            self.game.legal_moves()
        } else {
            self.position().legal_moves()
        }
    }

    /// The actions of the legal moves, in increasing order.
    fn legal_actions(&self) -> PyResult<Vec<usize>> {
        let space = self.space();
        let mut actions = self
            .legal_moves()
            .iter()
            .map(|&m| space.move_to_action_on(m))
            .collect::<Result<Vec<_>, _>>()
            .map_err(space::error)?;
        actions.sort_unstable();
        Ok(actions)
    }

    /// Writes the legal mask in `space` into `out`.
    fn write_legal_mask(&self, space: Space, out: &mut [u8]) -> PyResult<()> {
        let size = self.position().rules().size();
        if size != space.size() {
            return Err(space::error(ActionError::<B>::WrongBoard {
                found: size,
                size: space.size(),
            }));
        }
        space
            .mask_into(&self.legal_moves(), out)
            .map_err(space::error)
    }

    fn from_record(variant: Variant<B>, record: &str, side: &str) -> PyResult<State<B>> {
        let side = text::side(side)?;
        let position =
            notation::parse_position_record(record, variant.rules(), side).map_err(|error| {
                PyValueError::new_err(text::clipped(format!("bad position record: {error}")))
            })?;
        Ok(State::at(variant, position))
    }

    fn from_position_string(variant: Variant<B>, text: &str) -> PyResult<State<B>> {
        let position = position_string::parse(text, variant.rules()).map_err(|error| {
            PyValueError::new_err(text::clipped(format!("bad position string: {error}")))
        })?;
        Ok(State::at(variant, position))
    }

    fn position(&self) -> &Position<B> {
        self.game.position()
    }

    fn space(&self) -> Space {
        Space::of(self.position().rules())
    }

    /// Plays `m`; on an error the game is unchanged.
    fn play_move(&mut self, m: Move<B>) -> PyResult<Vec<String>> {
        let captured = self
            .game
            .play(m)
            .map_err(|error| PyValueError::new_err(format!("cannot play {m}: {error}")))?;
        self.undone.clear();
        self.outcome = self.game.outcome();
        Ok(text::squares(captured))
    }

    /// Plays a move given as text; on an error the game is unchanged.
    fn play(&mut self, text: &str) -> PyResult<Vec<String>> {
        self.play_move(text::parse_move(text)?)
    }

    /// Plays the move of `action`; on an error the game is unchanged.
    fn play_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let space = self.space();
        let action = args::usize_in(action, "action", 0, space.num_actions() - 1)?;
        let m = space.action_to_move_on::<B>(action).map_err(|error| {
            PyValueError::new_err(format!("cannot play action {action}: {error}"))
        })?;
        self.play_move(m)
            .map_err(|error| PyValueError::new_err(format!("action {action} ({m}): {error}")))
    }

    /// `undo` of the Python class: takes back a draw agreement or the last move, remembering it
    /// for `redo`; returns the move taken back.
    fn undo_remembered(&mut self) -> Option<String> {
        let agreed = self.agreed_draw();
        let taken = self.undo();
        match (agreed, taken) {
            (true, _) => self.undone.push(Undone::DrawAgreement),
            (false, Some(m)) => self.undone.push(Undone::Move(m)),
            (false, None) => {}
        }
        taken.map(|m| m.to_string())
    }

    /// `redo` of the Python class.
    fn redo(&mut self) -> PyResult<Option<String>> {
        let Some(undone) = self.undone.pop() else {
            return Ok(None);
        };
        match undone {
            Undone::Move(m) => {
                let rest = std::mem::take(&mut self.undone);
                let result = self.play_move(m);
                self.undone = rest;
                result.map(|_| Some(m.to_string()))
            }
            Undone::DrawAgreement => {
                self.agree_draw();
                Ok(None)
            }
        }
    }

    /// `agree_draw` of the Python class.
    fn agree_draw_forgetting_undone(&mut self) {
        if !self.terminated() {
            self.undone.clear();
        }
        self.agree_draw();
    }

    /// Whether `text` is a move that can be played now.
    fn is_legal(&self, text: &str) -> PyResult<bool> {
        let m = text::parse_move::<B>(text)?;
        Ok(self.outcome.is_none() && self.position().is_legal(m))
    }

    /// The image of the game under `symmetry`, with the same ply cap.
    fn transformed(&self, symmetry: Symmetry) -> PyResult<State<B>> {
        let game = symmetry
            .map_game(&self.game)
            .map_err(|error| PyValueError::new_err(error.to_string()))?;
        let mut image = State::of_game(self.variant.clone(), game);
        image.max_plies = self.max_plies;
        Ok(image)
    }

    /// The `.otg` text of the game with `tags` (see `to_otg`).
    fn to_otg(&self, tags: &[(String, String)]) -> String {
        let mut record = GameRecord::new(self.variant.clone(), self.game.clone());
        for (key, value) in tags {
            record.set_tag(key, value);
        }
        if record.tag("result").is_none() {
            // OpenTafl's `?` ("other") for a game still going on.
            let result = match self.outcome {
                Some(outcome) => GameRecord::result_value(outcome.winner()),
                None => "?",
            };
            record.set_tag("result", result);
        }
        if record.tag("variant").is_none() {
            record.set_tag("variant", self.variant.name());
        }
        record.to_string()
    }

    /// What `__reduce__` pickles: rules, start record, side to move, moves, draw agreed, ply
    /// cap and what undo took back.
    fn pickled(&self) -> Pickled {
        let start = self.game.start_position();
        let undone: Vec<Option<String>> = self
            .undone
            .iter()
            .map(|undone| match undone {
                Undone::Move(m) => Some(m.to_string()),
                Undone::DrawAgreement => None,
            })
            .collect();
        (
            self.variant.to_string(),
            notation::position_record(start),
            start.side_to_move().name(),
            self.game.moves().map(|m| m.to_string()).collect(),
            self.agreed_draw(),
            self.max_plies,
            undone,
        )
    }

    /// The game a pickle holds (see `pickled`).
    fn unpickled(
        variant: Variant<B>,
        record: &str,
        side_to_move: &str,
        moves: &[String],
        agreed_draw: bool,
        max_plies: Option<usize>,
        undone: Option<Vec<Option<String>>>,
    ) -> PyResult<State<B>> {
        let mut state = State::from_record(variant, record, side_to_move)?;
        for m in moves {
            state.play(m)?;
        }
        if agreed_draw {
            state.agree_draw();
        }
        state.max_plies = max_plies;
        for entry in undone.unwrap_or_default() {
            state.undone.push(match entry {
                Some(m) => Undone::Move(text::parse_move(&m)?),
                None => Undone::DrawAgreement,
            });
        }
        Ok(state)
    }

    /// `Game('tablut', record='...', side_to_move='attackers', ply=0)`.
    fn repr(&self) -> String {
        let variant = text::variant_key(&self.variant);
        // A rules string is long: the display name says enough.
        let shown = if variant.contains(':') {
            self.variant.name().to_string()
        } else {
            variant
        };
        format!(
            "Game('{}', record='{}', side_to_move='{}', ply={})",
            shown,
            notation::position_record(self.position()),
            self.position().side_to_move().name(),
            self.game.moves().len()
        )
    }

    fn agreed_draw(&self) -> bool {
        self.outcome == Some(Outcome::Draw(DrawReason::Agreement))
    }

    fn terminated(&self) -> bool {
        self.outcome.is_some()
    }

    fn truncated(&self) -> bool {
        !self.terminated()
            && self
                .max_plies
                .is_some_and(|cap| self.game.moves().len() >= cap)
    }
}

/// What a pickled game holds (see `State::pickled`).
type Pickled = (
    String,
    String,
    &'static str,
    Vec<String>,
    bool,
    Option<usize>,
    Vec<Option<String>>,
);

/// A game on the board type its rules need, chosen once when the game is made.
#[derive(Clone)]
pub enum AnyState {
    /// A game on a board up to 11x11.
    Narrow(State<Narrow>),
    /// A game on a board above 11x11.
    Wide(State<Wide>),
}

/// `$body` with `$state` (an `AnyState`, or a reference to one) bound as `$s` to the state on
/// its grid: the code is written once, generic, and compiled for each grid.
macro_rules! on_grid {
    ($state:expr, $s:ident => $body:expr) => {
        match $state {
            AnyState::Narrow($s) => $body,
            AnyState::Wide($s) => $body,
        }
    };
}

/// The state made by `$body`, with `$variant` (an `AnyVariant`) bound as `$v` to the variant on
/// its grid, held in the `AnyState` of that grid.
macro_rules! state_on_grid {
    ($variant:expr, $v:ident => $body:expr) => {
        match $variant {
            AnyVariant::Narrow($v) => AnyState::Narrow($body),
            AnyVariant::Wide($v) => AnyState::Wide($body),
        }
    };
}

/// A copy of a game on its grid (for searching it without holding the game's lock).
pub enum AnyGame {
    /// A game on a board up to 11x11.
    Narrow(Game),
    /// A game on a board above 11x11.
    Wide(Game<Wide>),
}

impl AnyState {
    fn new(variant: AnyVariant) -> AnyState {
        state_on_grid!(variant, v => State::new(v))
    }

    fn from_record(variant: AnyVariant, record: &str, side: &str) -> PyResult<AnyState> {
        Ok(state_on_grid!(variant, v => State::from_record(v, record, side)?))
    }

    fn from_position_string(variant: AnyVariant, text: &str) -> PyResult<AnyState> {
        Ok(state_on_grid!(variant, v => State::from_position_string(v, text)?))
    }

    fn max_plies_mut(&mut self) -> &mut Option<usize> {
        on_grid!(self, s => &mut s.max_plies)
    }

    fn outcome(&self) -> Option<Outcome> {
        on_grid!(self, s => s.outcome)
    }

    fn size(&self) -> u8 {
        on_grid!(self, s => s.position().rules().size())
    }

    fn side_to_move(&self) -> Side {
        on_grid!(self, s => s.position().side_to_move())
    }

    fn space(&self) -> Space {
        on_grid!(self, s => s.space())
    }

    fn legal_actions(&self) -> PyResult<Vec<usize>> {
        on_grid!(self, s => s.legal_actions())
    }

    fn write_legal_mask(&self, space: Space, out: &mut [u8]) -> PyResult<()> {
        on_grid!(self, s => s.write_legal_mask(space, out))
    }

    fn game(&self) -> AnyGame {
        match self {
            AnyState::Narrow(s) => AnyGame::Narrow(s.game.clone()),
            AnyState::Wide(s) => AnyGame::Wide(s.game.clone()),
        }
    }

    fn snapshot(&self) -> AnySnapshot {
        match self {
            AnyState::Narrow(s) => AnySnapshot::Narrow(Snapshot::of(&s.game)),
            AnyState::Wide(s) => AnySnapshot::Wide(Snapshot::of(&s.game)),
        }
    }
}

/// A game of tafl: the position, the moves that led to it, and the result once there is one.
///
/// `Game(variant)` starts a variant: a name of `variants()` or an OpenTafl rules string;
/// `Game.from_record` and `Game.from_position_string` set up other positions. Moves are text in
/// OpenTafl simple notation (`e2-h2`) or integer actions (`ActionSpace`); squares are named
/// `a1` (file a, rank 1) to `s19` on the largest board. `max_plies` caps the game's length for learning code
/// (`truncated`). Every method is safe to call from several threads at once: each runs under
/// the game's lock, taken for microseconds (a search works on a copy, with the lock and the GIL
/// released).
#[pyclass(module = "tafl_engine", name = "Game", frozen)]
pub struct PyGame {
    state: Mutex<AnyState>,
}

impl PyGame {
    fn wrap(state: AnyState) -> PyGame {
        PyGame {
            state: Mutex::new(state),
        }
    }

    fn with_cap(mut state: AnyState, max_plies: Option<&Bound<'_, PyAny>>) -> PyResult<PyGame> {
        *state.max_plies_mut() = ply_cap(max_plies)?;
        Ok(PyGame::wrap(state))
    }

    fn state(&self) -> MutexGuard<'_, AnyState> {
        lock(&self.state)
    }

    /// A copy of the game (for searching it without holding the lock).
    pub fn game(&self) -> AnyGame {
        self.state().game()
    }

    /// The current position with the counts the planes show.
    pub fn snapshot(&self) -> AnySnapshot {
        self.state().snapshot()
    }

    /// The board's size.
    pub fn size(&self) -> u8 {
        self.state().size()
    }

    /// The legal mask in `space`, as a numpy array.
    pub fn legal_action_mask_in<'py>(
        &self,
        py: Python<'py>,
        space: Space,
    ) -> PyResult<Bound<'py, PyAny>> {
        arrays::bool_array(py, &[space.num_actions()], |out| {
            guard(|| self.write_legal_mask(space, out))
        })
    }

    /// The legal actions in `space`.
    pub fn legal_actions_in(&self, space: Space) -> PyResult<Vec<usize>> {
        let state = self.state();
        if state.space() != space {
            let found = state.space().size();
            return Err(space::error(ActionError::<Narrow>::WrongBoard {
                found,
                size: space.size(),
            }));
        }
        state.legal_actions()
    }

    /// Writes the legal mask in `space` into `out`.
    pub fn write_legal_mask(&self, space: Space, out: &mut [u8]) -> PyResult<()> {
        self.state().write_legal_mask(space, out)
    }
}

/// A ply cap from Python: None, or 1 to [`MAX_PLY_CAP`].
fn ply_cap(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| args::usize_in(v, "max_plies", 1, MAX_PLY_CAP))
        .transpose()
}

#[pymethods]
impl PyGame {
    /// A new game of `variant` at its start position: a name of `variants()` (any case), or an
    /// OpenTafl rules string. `max_plies` (None: no cap) makes the game `truncated` once that
    /// many plies are played. Raises ValueError for an unknown name or a refused rules string.
    #[new]
    #[pyo3(signature = (variant, *, max_plies = None))]
    fn new(variant: &str, max_plies: Option<&Bound<'_, PyAny>>) -> PyResult<PyGame> {
        let state = guard(|| Ok(AnyState::new(text::variant_or_rules(variant)?)))?;
        PyGame::with_cap(state, max_plies)
    }

    /// A new game under an OpenTafl rules string (`dim:9 name:Tablut esc:e ... start:/.../`),
    /// at the start position it gives. Raises ValueError naming the field when the string asks
    /// for rules the engine does not play.
    #[staticmethod]
    #[pyo3(signature = (rules, *, max_plies = None))]
    fn from_rules(rules: &str, max_plies: Option<&Bound<'_, PyAny>>) -> PyResult<PyGame> {
        let state = guard(|| Ok(AnyState::new(text::rules(rules)?)))?;
        PyGame::with_cap(state, max_plies)
    }

    /// A new game of `variant` (a name from `variants()`, or an OpenTafl rules string) set up
    /// at the OpenTafl position record `record` (rank 1 first, e.g. `/3ttt3/4t4/.../`) with
    /// `side_to_move` (`"attackers"` or `"defenders"`) to move. Repetitions count from here.
    #[staticmethod]
    #[pyo3(signature = (variant, record, side_to_move = "attackers", *, max_plies = None))]
    fn from_record(
        variant: &str,
        record: &str,
        side_to_move: &str,
        max_plies: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyGame> {
        let state = guard(|| {
            let variant = text::variant_or_rules(variant)?;
            AnyState::from_record(variant, record, side_to_move)
        })?;
        PyGame::with_cap(state, max_plies)
    }

    /// A new game of `variant` set up at a position string (`position_string`: a record and
    /// the side to move, `"/3ttt3/.../3ttt3/ a"`). Raises ValueError saying what is wrong and
    /// at which column.
    #[staticmethod]
    #[pyo3(signature = (variant, position, *, max_plies = None))]
    fn from_position_string(
        variant: &str,
        position: &str,
        max_plies: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyGame> {
        let state = guard(|| {
            let variant = text::variant_or_rules(variant)?;
            AnyState::from_position_string(variant, position)
        })?;
        PyGame::with_cap(state, max_plies)
    }

    /// What `Game(...)` takes to start this game again: the variant's name for a built-in
    /// game (`"tablut"`, `"sea-battle"`, `"opentafl-tablut"`), its rules string for any other.
    #[getter]
    fn variant(&self) -> String {
        on_grid!(&*self.state(), s => text::variant_key(&s.variant))
    }

    /// The variant's name for people, e.g. `Sea Battle` (OpenTafl's Tablut and this project's
    /// are both `Tablut`: `variant` tells them apart).
    #[getter]
    fn display_name(&self) -> String {
        on_grid!(&*self.state(), s => s.variant.name().to_string())
    }

    /// The rules as an OpenTafl rules string (with the variant's start position).
    #[getter]
    fn rules(&self) -> String {
        on_grid!(&*self.state(), s => s.variant.to_string())
    }

    /// The board's width and height in squares (9 for Tablut, 11 for Tawlbwrdd, up to 19).
    #[getter(size)]
    fn board_size(&self) -> u8 {
        self.state().size()
    }

    /// The side to move: `"attackers"` or `"defenders"`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        self.state().side_to_move().name()
    }

    /// None while the game goes on; then `(winner, reason)`. The winner is `"attackers"`,
    /// `"defenders"` or `"draw"`. Reasons of a win: `"king_captured"`, `"king_escaped"`, and
    /// under some rules `"edge_fort"` (the king safe in a fort on the edge), `"encircled"` (no
    /// defender can reach an edge), `"all_pieces_captured"`, `"defenders_immobile"`,
    /// `"no_legal_moves"` (the side to move has none, and loses) and `"repetition"` (Copenhagen:
    /// a third repetition loses for the side that made it), `"cannot_escape"` (hnefatafl.org's
    /// rules: the king can no longer escape). Reasons of a draw: `"repetition"`,
    /// `"no_legal_moves"`, `"agreement"`, `"move_limit"` (hnefatafl.org's rules: the game
    /// reached its move limit).
    #[getter]
    fn outcome(&self) -> PyResult<Option<(&'static str, String)>> {
        guard(|| Ok(self.state().outcome().map(text::outcome)))
    }

    /// Whether the game is over (it has an `outcome`).
    #[getter]
    fn terminated(&self) -> bool {
        on_grid!(&*self.state(), s => s.terminated())
    }

    /// Whether the game reached its ply cap (`max_plies`) without being over: for learning code
    /// that stops long games there. The game itself may still be played on.
    #[getter]
    fn truncated(&self) -> bool {
        on_grid!(&*self.state(), s => s.truncated())
    }

    /// The ply cap (None: none), for `truncated`. Settable: None or 1 and more.
    #[getter]
    fn max_plies(&self) -> Option<usize> {
        *self.state().max_plies_mut()
    }

    #[setter]
    fn set_max_plies(&self, value: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let cap = ply_cap(value)?;
        *self.state().max_plies_mut() = cap;
        Ok(())
    }

    /// The result for `player` (`"attackers"` or `"defenders"`): 1.0 if that side has won,
    /// -1.0 if it has lost, 0.0 for a draw or while the game goes on (or is truncated).
    fn reward(&self, player: &str) -> PyResult<f64> {
        let side = text::side(player)?;
        let outcome = self.state().outcome();
        Ok(match outcome.and_then(|o| o.winner()) {
            Some(winner) if winner == side => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        })
    }

    /// The current position as an OpenTafl position record, rank 1 first.
    #[getter]
    fn record(&self) -> String {
        on_grid!(&*self.state(), s => notation::position_record(s.position()))
    }

    /// The current position with the side to move, in one line: the record, a space, `a`
    /// (attackers to move) or `d` (defenders): `"/3ttt3/4t4/.../3ttt3/ a"`.
    /// `Game.from_position_string` reads it back.
    #[getter]
    fn position_string(&self) -> String {
        on_grid!(&*self.state(), s => position_string::write(s.position()))
    }

    /// The number of moves played since the start (or the set-up position).
    #[getter]
    fn ply(&self) -> usize {
        on_grid!(&*self.state(), s => s.game.moves().len())
    }

    /// The moves played so far, first to last.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        on_grid!(&*self.state(), s => {
            let moves: Vec<Move<_>> = s.game.moves().collect();
            text::moves(py, moves)
        })
    }

    /// The moves played so far, each with the squares it captured: `[("e2-h2", []), ...]`.
    #[getter]
    fn history(&self) -> Vec<(String, Vec<String>)> {
        on_grid!(&*self.state(), s => s
            .game
            .moves_with_captures()
            .map(|(m, captured)| (m.to_string(), text::squares(captured)))
            .collect())
    }

    /// Every position of the game as `(record, side_to_move)`, the start first and the current
    /// one last.
    #[getter]
    fn positions(&self) -> Vec<(String, &'static str)> {
        on_grid!(&*self.state(), s => s
            .game
            .positions()
            .iter()
            .map(|p| (notation::position_record(p), p.side_to_move().name()))
            .collect())
    }

    /// How many times the current position (placement and side to move) has occurred in this
    /// game, counting itself.
    #[getter]
    fn repetitions(&self) -> usize {
        on_grid!(&*self.state(), s => s.game.repetitions())
    }

    /// How many occurrences of one position draw the game under these rules (2 for this
    /// project's Tablut and Tawlbwrdd: the first repetition draws), or None when repetition
    /// does not draw (it may win or lose instead, as in Copenhagen).
    #[getter]
    fn repetition_draw_count(&self) -> Option<usize> {
        on_grid!(&*self.state(), s => s.position().rules().repetition().draw_count())
    }

    /// The Zobrist hash of the current placement and side to move (a 64-bit integer; equal
    /// positions have equal hashes), for transposition tables.
    #[getter]
    fn hash(&self) -> u64 {
        on_grid!(&*self.state(), s => s.position().hash())
    }

    /// The king's square, or None once he has been captured.
    #[getter]
    fn king(&self) -> Option<String> {
        on_grid!(&*self.state(), s => s.position().king().map(|k| k.to_string()))
    }

    /// The castle square (the centre).
    #[getter]
    fn castle(&self) -> String {
        on_grid!(&*self.state(), s => s.position().rules().castle().to_string())
    }

    /// The legal moves of the side to move, in OpenTafl simple notation; none once the game is
    /// over (also by repetition). The order is the generator's: sort the list for reproducible
    /// choices.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        guard(|| on_grid!(&*self.state(), s => text::moves(py, s.legal_moves())))
    }

    /// Whether `move` (text) can be played now: False once the game is over. Raises ValueError
    /// for text that is not a move.
    #[pyo3(signature = (r#move))]
    fn is_legal(&self, r#move: &str) -> PyResult<bool> {
        guard(|| on_grid!(&*self.state(), s => s.is_legal(r#move)))
    }

    /// Plays `move` (OpenTafl simple notation `e2-h2`; full notation is read too, its capture
    /// list ignored) and returns the squares it captured, e.g. `["d2"]`. Raises ValueError,
    /// saying why, for a malformed or illegal move or a finished game; the game is then
    /// unchanged.
    #[pyo3(signature = (r#move))]
    fn play(&self, r#move: &str) -> PyResult<Vec<String>> {
        guard(|| on_grid!(&mut *self.state(), s => s.play(r#move)))
    }

    /// The action space of this game's board (`ActionSpace(size)`).
    #[getter]
    fn action_space(&self) -> PyActionSpace {
        PyActionSpace::of(self.state().space())
    }

    /// How many actions the board has (`action_space.num_actions`: 2592 on 9x9).
    #[getter]
    fn num_actions(&self) -> usize {
        self.state().space().num_actions()
    }

    /// The actions of the legal moves, in increasing order; none once the game is over.
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let actions = guard(|| self.state().legal_actions())?;
        text::actions(py, actions)
    }

    /// The legal moves as a numpy array of `num_actions` bools (writable, the game's own copy);
    /// all False once the game is over.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let space = self.state().space();
        self.legal_action_mask_in(py, space)
    }

    /// Plays the move of `action` (an int of `action_space`) and returns the squares it
    /// captured. Raises ValueError for an action out of range or not legal now, or a finished
    /// game; the game is then unchanged.
    fn play_action(&self, action: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        guard(|| on_grid!(&mut *self.state(), s => s.play_action(action)))
    }

    /// Takes back the last move and returns it, or None at the start. A draw agreed since the
    /// last move is taken back first (then no move is, and it returns None). `redo` plays
    /// again what was taken back.
    fn undo(&self) -> PyResult<Option<String>> {
        guard(|| Ok(on_grid!(&mut *self.state(), s => s.undo_remembered())))
    }

    /// Does again the last thing `undo` took back: plays the move again and returns it, or
    /// agrees the draw again (and returns None). None when nothing was taken back since the
    /// last new move (a move played, or a draw agreed, forgets what undo took back).
    fn redo(&self) -> PyResult<Option<String>> {
        guard(|| on_grid!(&mut *self.state(), s => s.redo()))
    }

    /// The players agree to a draw (R18 of the rules: a draw by agreement). Does nothing once
    /// the game is over.
    fn agree_draw(&self) {
        on_grid!(&mut *self.state(), s => s.agree_draw_forgetting_undone());
    }

    /// The board as a list of rows, row 0 = rank 1, each a list of `"."` (empty), `"t"`
    /// (attacker), `"T"` (defender) or `"K"` (king), column 0 = file a: the letters of
    /// position records. (`diagram()` draws with other letters.)
    fn board(&self) -> PyResult<Vec<Vec<String>>> {
        guard(|| Ok(on_grid!(&*self.state(), s => text::board(s.position()))))
    }

    /// The board as text for people, rank 1 at the bottom, with the letters of the rules'
    /// diagrams: `a` attacker, `d` defender, `K` king, `#` the empty throne, `+` another empty
    /// special square (corner, fort), `.` an empty square. (`board()` and records use `t`, `T`,
    /// `K`.)
    fn diagram(&self) -> PyResult<String> {
        guard(|| Ok(on_grid!(&*self.state(), s => notation::diagram(s.position()))))
    }

    /// The board as an SVG picture (text), the last move outlined: attackers dark, defenders
    /// light, the king with a cross; throne and corners shaded.
    fn svg(&self) -> PyResult<String> {
        guard(|| {
            Ok(on_grid!(&*self.state(), s => svg::draw(
                s.position(),
                s.game.last_move().map(|(m, _)| m),
            )))
        })
    }

    /// Jupyter shows a game as its SVG picture.
    fn _repr_svg_(&self) -> PyResult<String> {
        self.svg()
    }

    /// The current position as `len(PLANES) x size x size` bytes (see `PLANES`), row 0 = rank
    /// 1: `numpy.frombuffer(g.planes(), numpy.uint8).reshape(len(te.PLANES), n, n)` wraps it
    /// without a copy. For many games at once use `encode_planes`.
    fn planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let snapshot = self.snapshot();
        let length = planes::bytes_per_position(snapshot.size());
        PyBytes::new_with(py, length, |out| {
            guard(|| {
                snapshot.write(out);
                Ok(())
            })
        })
    }

    /// The names of the symmetries (`SYMMETRIES`) under which these rules look the same, so
    /// that `transformed` can map the game: all eight for every built-in variant; fewer for a
    /// rules string whose special squares are not symmetric.
    fn symmetries(&self) -> Vec<&'static str> {
        on_grid!(&*self.state(), s => Symmetry::valid_for(s.position().rules()))
            .into_iter()
            .map(Symmetry::name)
            .collect()
    }

    /// The image of the game under `symmetry` (a name of `SYMMETRIES`): its start position
    /// turned or mirrored and every move mapped, so the history, repetitions and outcome are
    /// the same. Raises ValueError when the rules are not symmetric under it (naming a square).
    fn transformed(&self, symmetry: &str) -> PyResult<PyGame> {
        let symmetry = text::symmetry(symmetry)?;
        guard(|| {
            let image = match &*self.state() {
                AnyState::Narrow(s) => AnyState::Narrow(s.transformed(symmetry)?),
                AnyState::Wide(s) => AnyState::Wide(s.transformed(symmetry)?),
            };
            Ok(PyGame::wrap(image))
        })
    }

    /// The game as an OpenTafl game record (`.otg` text): `tags` (e.g. `{"event": "..."}`)
    /// first, a `result` tag from the outcome unless given (`1` the attackers won, `-1` the
    /// defenders, `0` a draw, `?` not over), the `variant` tag (the display
    /// name), then the rules with the game's start and the moves. `read_otg` reads it back.
    #[pyo3(signature = (tags = None))]
    fn to_otg(&self, tags: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let tags: Vec<(String, String)> = match tags.filter(|t| !t.is_none()) {
            None => Vec::new(),
            // A mapping gives its items; anything else must be a sequence of pairs.
            Some(mapping) if mapping.hasattr("items")? => mapping
                .call_method0("items")?
                .try_iter()?
                .map(|item| item?.extract())
                .collect::<PyResult<_>>()?,
            Some(pairs) => pairs.extract()?,
        };
        guard(|| Ok(on_grid!(&*self.state(), s => s.to_otg(&tags))))
    }

    /// An independent copy of the game (the moves, positions, result, ply cap and what undo
    /// took back), in microseconds.
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

    /// Pickling: the rules, the start position, the moves, a draw agreement, the ply cap and
    /// what undo took back, replayed on loading.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let (rules, record, side, moves, agreed, max_plies, undone) =
            on_grid!(&*self.state(), s => s.pickled());
        let restore = py.get_type::<PyGame>().getattr("_restore")?;
        let arguments =
            (rules, record, side, moves, agreed, max_plies, undone).into_pyobject(py)?;
        Ok((restore, arguments))
    }

    /// Rebuilds a pickled game (see `__reduce__`; the last two arguments are absent from
    /// pickles of versions before them).
    #[staticmethod]
    #[pyo3(signature = (rules, record, side_to_move, moves, agreed_draw, max_plies = None, undone = None))]
    fn _restore(
        rules: &str,
        record: &str,
        side_to_move: &str,
        moves: Vec<String>,
        agreed_draw: bool,
        max_plies: Option<usize>,
        undone: Option<Vec<Option<String>>>,
    ) -> PyResult<PyGame> {
        guard(|| {
            let state = state_on_grid!(text::rules(rules)?, v => State::unpickled(
                v,
                record,
                side_to_move,
                &moves,
                agreed_draw,
                max_plies,
                undone,
            )?);
            Ok(PyGame::wrap(state))
        })
    }

    /// Perft of the current position: the number of move paths `depth` plies long (0 to
    /// `MAX_PERFT_DEPTH`), on `threads` threads (1 to `MAX_THREADS`), with the GIL released;
    /// Ctrl-C stops it (KeyboardInterrupt). Like the crate's, it looks at the position alone
    /// (no repetition draws).
    #[pyo3(signature = (depth, threads = None))]
    fn perft(
        &self,
        py: Python<'_>,
        depth: &Bound<'_, PyAny>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let (depth, threads) = crate::perft_arguments(depth, threads)?;
        match self.game() {
            AnyGame::Narrow(game) => crate::run_perft(py, *game.position(), depth, threads),
            AnyGame::Wide(game) => crate::run_perft(py, *game.position(), depth, threads),
        }
    }

    /// Perft split by first move: `[(move, perft of the position after it), ...]` for every
    /// legal move, sorted by the move's text, with the GIL released; Ctrl-C stops it. The
    /// counts add up to `perft(depth)` for depth >= 1.
    fn divide(&self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<Vec<(String, u64)>> {
        let (depth, _) = crate::perft_arguments(depth, None)?;
        match self.game() {
            AnyGame::Narrow(game) => divide(py, game.position(), depth),
            AnyGame::Wide(game) => divide(py, game.position(), depth),
        }
    }

    /// Searches the current position and returns a `SearchResult` (best move, score, depth,
    /// principal variation), as a fresh searcher would: the transposition table of an earlier
    /// `Game.search` of the same size is emptied and used again, not allocated anew. Give at
    /// least one limit: `movetime_ms`, `depth` (plies) or `nodes`. The GIL is released while
    /// it thinks; Ctrl-C stops it (KeyboardInterrupt). To keep what the search learnt from one
    /// move to the next, use an `Engine`.
    #[pyo3(signature = (*, movetime_ms = None, depth = None, nodes = None, threads = None, hash_mb = None))]
    fn search(
        &self,
        py: Python<'_>,
        movetime_ms: Option<&Bound<'_, PyAny>>,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        hash_mb: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<SearchResult> {
        let limits = search::limits(movetime_ms, depth, nodes)?;
        let config = search::config(threads, hash_mb, search::GAME_SEARCH_HASH_MB)?;
        let game = self.game();
        let searcher = search::pooled_searcher(py, config)?;
        let stop = searcher.stop_handle();
        let searcher = Mutex::new(searcher);
        let result = match &game {
            AnyGame::Narrow(game) => search::run(py, &searcher, &stop, game, &limits),
            AnyGame::Wide(game) => search::run(py, &searcher, &stop, game, &limits),
        };
        let searcher: Searcher = searcher
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        search::return_to_pool(searcher);
        result
    }

    /// Games are equal when their positions (with rules) and moves are.
    fn __eq__(&self, other: &Bound<'_, PyGame>) -> bool {
        // Copy one side first: `other` may be this very object, whose lock is not reentrant.
        let mine = self.state().clone();
        match (&mine, &*other.get().state()) {
            (AnyState::Narrow(a), AnyState::Narrow(b)) => a.game == b.game,
            (AnyState::Wide(a), AnyState::Wide(b)) => a.game == b.game,
            _ => false,
        }
    }

    /// Games are mutable, so they are not hashable (use `hash` for the position's key).
    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    /// `Game('tablut', record='...', side_to_move='attackers', ply=0)`.
    fn __repr__(&self) -> String {
        on_grid!(&*self.state(), s => s.repr())
    }

    /// The board diagram (see `diagram`).
    fn __str__(&self) -> PyResult<String> {
        self.diagram()
    }
}

impl PyGame {
    /// The game of a record read from a file (its tags are the caller's).
    pub fn from_record_file<B: Grid>(record: GameRecord<B>) -> PyGame
    where
        State<B>: Into<AnyState>,
    {
        PyGame::wrap(State::of_game(record.variant, record.game).into())
    }
}

impl From<State<Narrow>> for AnyState {
    fn from(state: State<Narrow>) -> AnyState {
        AnyState::Narrow(state)
    }
}

impl From<State<Wide>> for AnyState {
    fn from(state: State<Wide>) -> AnyState {
        AnyState::Wide(state)
    }
}

/// Perft split by first move with the GIL released (see `Game.divide`).
fn divide<B: Grid>(
    py: Python<'_>,
    position: &Position<B>,
    depth: u32,
) -> PyResult<Vec<(String, u64)>> {
    let stop = std::sync::atomic::AtomicBool::new(false);
    let split = interrupt::run(
        py,
        || stop.store(true, std::sync::atomic::Ordering::Relaxed),
        || Ok(tafl_engine::perft::divide_stoppable(position, depth, &stop)),
    )?;
    // Only a stop ends it without a result, and a stop comes with KeyboardInterrupt.
    Ok(split
        .unwrap_or_default()
        .into_iter()
        .map(|(m, count)| (m.to_string(), count))
        .collect())
}
