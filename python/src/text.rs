//! What crosses the boundary as text: variant names and rules strings, sides, moves, squares,
//! outcomes and the board, each with the Python error its parse raises.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyString};
use tafl_engine::symmetry::Symmetry;
use tafl_engine::{
    AnyVariant, Bitboard, Grid, MAX_BOARD_SIZE, Move, Outcome, Position, Side, Square, Variant,
};

/// Most characters of a user's text an error message repeats.
const SHOWN_CHARS: usize = 40;

/// `text` as an error message quotes it: at most [`SHOWN_CHARS`] characters, then `...` and
/// the length, so that a huge string gives a short message.
pub fn shown(text: &str) -> String {
    match text.char_indices().nth(SHOWN_CHARS) {
        None => text.to_string(),
        Some((end, _)) => format!("{}... ({} characters)", &text[..end], text.chars().count()),
    }
}

/// An error message of the crate about a user's text (which it may quote whole), cut to a
/// length a person reads: each quoted part (`'...'`) as [`shown`] quotes it, then the first
/// 200 characters of the message.
pub fn clipped(message: String) -> String {
    const LONGEST: usize = 200;
    let mut out = String::new();
    // Even pieces are outside quotes, odd ones inside (but an odd last one, after a lone
    // apostrophe).
    let pieces: Vec<&str> = message.split('\'').collect();
    for (index, piece) in pieces.iter().enumerate() {
        if index > 0 {
            out.push('\'');
        }
        if index % 2 == 1 && index + 1 < pieces.len() {
            out.push_str(&shown(piece));
        } else {
            out.push_str(piece);
        }
    }
    match out.char_indices().nth(LONGEST) {
        None => out,
        Some((end, _)) => format!("{}...", &out[..end]),
    }
}

/// The built-in variant called `name` (any of `AnyVariant::names()`, any case).
pub fn variant(name: &str) -> PyResult<AnyVariant> {
    AnyVariant::by_name(name.trim()).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown variant '{}': the variants are {}",
            shown(name),
            AnyVariant::names().collect::<Vec<_>>().join(", ")
        ))
    })
}

/// A variant from an OpenTafl rules string of any board from 5x5 to 19x19, refused with the
/// crate's reason (which names the field).
pub fn rules(text: &str) -> PyResult<AnyVariant> {
    text.parse::<AnyVariant>()
        .map_err(|error| PyValueError::new_err(clipped(format!("rules string refused: {error}"))))
}

/// A built-in variant's name, or else an OpenTafl rules string (recognised by its `key:value`
/// fields).
pub fn variant_or_rules(text: &str) -> PyResult<AnyVariant> {
    if text.contains(':') {
        rules(text)
    } else {
        variant(text)
    }
}

/// What `Game(...)` takes back to the same game: the variant's name for a built-in game
/// (`sea-battle`, `opentafl-tablut`, `hnefatafl-org-copenhagen-13`), its rules string for any
/// other.
pub fn variant_key<B: Grid>(variant: &Variant<B>) -> String {
    let text = variant.to_string();
    // A variant's rules string reads back to the same game on its own grid.
    match text.parse::<AnyVariant>().ok().and_then(|any| any.key()) {
        Some(key) => key.to_string(),
        None => text,
    }
}

/// A symmetry by name (`rotate90`, `flip_files`, ...: `SYMMETRIES`).
pub fn symmetry(name: &str) -> PyResult<Symmetry> {
    name.parse::<Symmetry>()
        .map_err(|error| PyValueError::new_err(clipped(error.to_string())))
}

/// `attackers` or `defenders` (also the singular and the first letter), any case.
pub fn side(name: &str) -> PyResult<Side> {
    Side::from_name(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "'{}' is not a side: expected 'attackers' or 'defenders'",
            shown(name)
        ))
    })
}

/// A move in OpenTafl simple (`e2-h2`) or full (`te2-h2xh3`) notation.
pub fn parse_move<B: Grid>(text: &str) -> PyResult<Move<B>> {
    text.parse::<Move<B>>().map_err(|error| {
        // `clipped` shortens the quoted move (and the crate's quote of it).
        PyValueError::new_err(clipped(format!("malformed move '{text}': {error}")))
    })
}

/// Destinations kept per starting square: a move stays on its rank (MAX_BOARD_SIZE files) or
/// its file (MAX_BOARD_SIZE ranks).
const SLOTS_PER_SQUARE: usize = 2 * MAX_BOARD_SIZE as usize;

/// The text of every move along a rank or a file of the largest board, as Python strings made
/// once: a list of legal moves is then a list of references to them, about ten times quicker
/// to hand out than formatting each move (`moves`).
static MOVE_TEXTS: PyOnceLock<Vec<Option<Py<PyString>>>> = PyOnceLock::new();

/// Where `m` is in `MOVE_TEXTS`, if it goes along a rank or a file.
fn move_slot<B: Grid>(m: Move<B>) -> Option<usize> {
    let (from, to) = (m.from(), m.to());
    // Moves of boards up to 11x11 only (their text is the same on either grid); others are
    // made when asked.
    let on_narrow_grid =
        |square: Square<B>| square.x() < MAX_BOARD_SIZE && square.y() < MAX_BOARD_SIZE;
    if !on_narrow_grid(from) || !on_narrow_grid(to) {
        return None;
    }
    let from_index = usize::from(from.y()) * usize::from(MAX_BOARD_SIZE) + usize::from(from.x());
    let offset = if from.y() == to.y() {
        usize::from(to.x())
    } else if from.x() == to.x() {
        usize::from(MAX_BOARD_SIZE) + usize::from(to.y())
    } else {
        return None;
    };
    Some(from_index * SLOTS_PER_SQUARE + offset)
}

fn move_texts(py: Python<'_>) -> &[Option<Py<PyString>>] {
    MOVE_TEXTS.get_or_init(py, || {
        let squares: Vec<Square> = (0..MAX_BOARD_SIZE)
            .flat_map(|y| (0..MAX_BOARD_SIZE).filter_map(move |x| Square::new(x, y)))
            .collect();
        let mut texts: Vec<Option<Py<PyString>>> = Vec::new();
        for &from in &squares {
            for &to in &squares {
                let m = Move::new(from, to);
                if let Some(slot) = move_slot(m) {
                    if texts.len() <= slot {
                        texts.resize_with(slot + 1, || None);
                    }
                    texts[slot] = Some(PyString::new(py, &m.to_string()).unbind());
                }
            }
        }
        texts
    })
}

/// A Python list of the moves' texts in OpenTafl simple notation.
pub fn moves<'py, B: Grid>(
    py: Python<'py>,
    moves: impl IntoIterator<Item = Move<B>>,
) -> PyResult<Bound<'py, PyList>> {
    let texts = move_texts(py);
    let items = moves.into_iter().map(|m| {
        match move_slot(m)
            .and_then(|slot| texts.get(slot))
            .and_then(Option::as_ref)
        {
            Some(text) => text.bind(py).clone(),
            // Not reached for moves of the crate (they go along a rank or a file).
            None => PyString::new(py, &m.to_string()),
        }
    });
    PyList::new(py, items)
}

/// The Python ints of the actions of the largest board the crate plays, made once: a list of
/// legal actions is then a list of references to them, as for moves.
static ACTION_INTS: PyOnceLock<Vec<Py<PyAny>>> = PyOnceLock::new();

/// A Python list of the actions.
pub fn actions<'py>(
    py: Python<'py>,
    actions: impl IntoIterator<Item = usize>,
) -> PyResult<Bound<'py, PyList>> {
    let ints = ACTION_INTS.get_or_try_init(py, || {
        let count = tafl_engine::actions::ActionSpace::new(MAX_BOARD_SIZE)
            .map_or(0, |space| space.num_actions());
        (0..count)
            .map(|action| Ok(action.into_pyobject(py)?.into_any().unbind()))
            .collect::<PyResult<Vec<_>>>()
    })?;
    let items = actions
        .into_iter()
        .map(|action| match ints.get(action) {
            Some(int) => Ok(int.bind(py).clone()),
            None => Ok(action.into_pyobject(py)?.into_any()),
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

/// The names of the squares of a set, in index order (rank 1 first, then by file).
pub fn squares<B: Grid>(set: Bitboard<B>) -> Vec<String> {
    set.into_iter().map(|square| square.to_string()).collect()
}

/// An outcome as Python sees it: the winner (`attackers`, `defenders`) or `draw`, and the
/// reason as a snake_case word taken from the crate's reason: wins `king_captured`,
/// `king_escaped`, `edge_fort`, `encircled`, `all_pieces_captured`, `defenders_immobile`,
/// `no_legal_moves`, `repetition`; draws `repetition`, `no_legal_moves`, `agreement`; and any
/// reason the crate adds later, without a change here.
pub fn outcome(outcome: Outcome) -> (&'static str, String) {
    match outcome {
        Outcome::Win { winner, reason } => (winner.name(), snake_case(&format!("{reason:?}"))),
        Outcome::Draw(reason) => ("draw", snake_case(&format!("{reason:?}"))),
    }
}

/// `KingCaptured` -> `king_captured`; stops at the first character that is not part of the
/// variant's name (a field list, should a reason ever carry one).
fn snake_case(debug_name: &str) -> String {
    let mut out = String::new();
    for c in debug_name.chars() {
        if !c.is_ascii_alphanumeric() {
            break;
        }
        if c.is_ascii_uppercase() && !out.is_empty() {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// The board as rows of one-letter strings, row 0 = rank 1: `.` empty, else the piece's letter
/// in OpenTafl records (`t`, `T`, `K`).
pub fn board<B: Grid>(position: &Position<B>) -> Vec<Vec<String>> {
    let size = position.rules().size();
    (0..size)
        .map(|y| {
            (0..size)
                .map(
                    |x| match Square::<B>::at(x, y).and_then(|square| position.piece_at(square)) {
                        Some(piece) => piece.record_char().to_string(),
                        None => ".".to_string(),
                    },
                )
                .collect()
        })
        .collect()
}
