//! `BatchEnv`: many games held and stepped in Rust, for reinforcement learning. One call steps
//! every game with one action each and hands back numpy arrays (planes, legal masks, rewards,
//! flags, infos), with the GIL released while it works and, optionally, the games split over
//! scoped threads. A finished game starts again in the same step (Gymnasium's "same-step"
//! autoreset), its last observation kept in the infos.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::Mutex;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyDict, PyTuple};
use tafl_engine::actions::ActionSpace as Space;
use tafl_engine::{AnyVariant, Escape, Game, Grid, MoveList, Narrow, Outcome, Side, Variant, Wide};

use crate::{MAX_THREADS, args, arrays, guard, lock, planes, text};

/// The most games one `BatchEnv` holds.
const MAX_GAMES: usize = 1 << 16;
/// The most past positions an observation shows (`history`).
const MAX_HISTORY: usize = 16;
/// The longest ply cap accepted.
const MAX_PLY_CAP: usize = 1 << 20;
/// Piece planes per position of the history: attackers, defenders, king.
const PIECE_PLANES: usize = 3;

/// The outcome reasons of `infos["reason"]`, by code: 0 while the game goes on.
pub const REASONS: [&str; 13] = [
    "",
    "king_captured",
    "king_escaped",
    "all_pieces_captured",
    "defenders_immobile",
    "edge_fort",
    "encircled",
    "no_legal_moves",
    "repetition",
    "cannot_escape",
    "agreement",
    "move_limit",
    // A reason the crate may add later.
    "other",
];

/// The code of `outcome`'s reason in [`REASONS`].
fn reason_code(outcome: Outcome) -> u8 {
    let (_, reason) = text::outcome(outcome);
    let code = REASONS[1..]
        .iter()
        .position(|&name| name == reason)
        .map_or(REASONS.len() - 1, |index| index + 1);
    // Fewer than 256 reasons.
    u8::try_from(code).unwrap_or(u8::MAX)
}

/// The numeric type of the planes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dtype {
    U8,
    Bool,
    F32,
}

impl Dtype {
    fn parse(name: &str) -> PyResult<Dtype> {
        match name {
            "uint8" => Ok(Dtype::U8),
            "bool" => Ok(Dtype::Bool),
            "float32" => Ok(Dtype::F32),
            _ => Err(PyValueError::new_err(format!(
                "dtype must be 'uint8', 'bool' or 'float32', not '{}'",
                text::shown(name)
            ))),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Dtype::U8 => "uint8",
            Dtype::Bool => "bool",
            Dtype::F32 => "float32",
        }
    }

    /// Bytes per value.
    fn width(self) -> usize {
        if self == Dtype::F32 { 4 } else { 1 }
    }
}

/// What every observation shows, fixed when the environment is made.
#[derive(Clone, Copy, Debug)]
struct Options {
    /// Planes seen from the side to move (`perspective="side_to_move"`).
    relative: bool,
    /// Positions shown: the current one and `history - 1` before it.
    history: usize,
    dtype: Dtype,
    max_plies: Option<usize>,
}

impl Options {
    fn channels(&self) -> usize {
        planes::PLANES.len() + PIECE_PLANES * (self.history - 1)
    }
}

/// What one step did to one game, for the small arrays.
#[derive(Clone, Copy, Default)]
struct Report {
    reward: f32,
    terminated: bool,
    truncated: bool,
    reason: u8,
    winner: i8,
    episode_plies: u32,
    /// Of the game now (after a reset, the new one's).
    ply: u32,
    defenders_to_move: bool,
}

/// One game of the batch, its start (for resets), its outcome and its legal moves (worked out
/// once after each change: the mask, the check of an action and the sampler read them).
struct Slot<B: Grid> {
    start: Game<B>,
    game: Game<B>,
    outcome: Option<Outcome>,
    legal: MoveList<B>,
}

impl<B: Grid> Slot<B> {
    fn new(variant: &Variant<B>) -> Slot<B> {
        let start = Game::new(variant);
        let mut slot = Slot {
            game: start.clone(),
            start,
            outcome: None,
            legal: MoveList::new(),
        };
        slot.refresh();
        slot
    }

    /// The outcome and the legal moves of the game now (under hnefatafl.org's rules without
    /// the defenders' moves its history forbids, H12), the outcome worked out once.
    fn refresh(&mut self) {
        (self.outcome, self.legal) = self.game.outcome_and_legal_moves();
    }

    fn reset(&mut self) {
        self.game.clone_from(&self.start);
        self.refresh();
    }

    fn report(&self) -> Report {
        Report {
            ply: u32::try_from(self.game.moves().len()).unwrap_or(u32::MAX),
            defenders_to_move: self.game.position().side_to_move() == Side::Defenders,
            ..Report::default()
        }
    }

    /// Writes the mask of the legal moves into `mask` (zeros), by `table` (see
    /// [`action_table`]).
    fn write_mask(&self, table: &[u16], mask: &mut [u8]) {
        for &m in &self.legal {
            let action = table[action_slot(m)];
            // Every legal move has an action, below the mask's length.
            if let Some(cell) = mask.get_mut(usize::from(action)) {
                *cell = 1;
            }
        }
    }

    /// Writes the observation's planes into `out` (zeros, in `options.dtype`), using `scratch`
    /// (one position's values) for float32.
    fn write_planes(&self, options: &Options, scratch: &mut [u8], out: &mut [u8]) {
        match options.dtype {
            Dtype::U8 | Dtype::Bool => self.write_values(options, out),
            Dtype::F32 => {
                scratch.fill(0);
                self.write_values(options, scratch);
                for (cell, &value) in out.chunks_exact_mut(4).zip(scratch.iter()) {
                    cell.copy_from_slice(&f32::from(value).to_ne_bytes());
                }
            }
        }
    }

    /// Writes the planes' values into `out` (zeros): 0 and 1, and the counts (as flags for the
    /// bool dtype).
    fn write_values(&self, options: &Options, out: &mut [u8]) {
        let position = self.game.position();
        let rules = position.rules();
        let n = usize::from(rules.size());
        let area = n * n;
        let mark = |out: &mut [u8], plane: usize, set: tafl_engine::Bitboard<B>| {
            let cells = &mut out[plane * area..(plane + 1) * area];
            for square in set {
                // The squares of a position and its rules are on its board.
                let cell = usize::from(square.y()) * n + usize::from(square.x());
                if let Some(cell) = cells.get_mut(cell) {
                    *cell = 1;
                }
            }
        };
        let to_move = position.side_to_move();
        // Side-to-move view: "us" in the attackers' planes (0 and 8), "them" in the defenders'
        // (1 and 9), when the defenders are to move.
        let swap = options.relative && to_move == Side::Defenders;
        let (us, them) = if swap { (1, 0) } else { (0, 1) };
        let pieces = |out: &mut [u8], p: &tafl_engine::Position<B>, first: usize| {
            mark(out, first + us, p.attackers());
            mark(out, first + them, p.defenders());
            mark(out, first + 2, p.king_set());
        };
        pieces(out, position, 0);
        mark(out, 3, rules.throne());
        if to_move == Side::Attackers {
            out[4 * area..5 * area].fill(1);
        }
        mark(out, 5, rules.corners());
        let escape = match rules.escape() {
            Escape::Edge => rules.edge(),
            Escape::Corner => rules.corners(),
        };
        mark(out, 6, escape);
        mark(out, 7, rules.special_squares());
        mark(out, 8 + us, position.hostile_squares(Side::Attackers));
        mark(out, 8 + them, position.hostile_squares(Side::Defenders));
        let repetitions = self.game.repetitions();
        let ply = self.game.moves().len();
        let count = |n: usize| u8::try_from(n).unwrap_or(u8::MAX);
        let (repetition_value, ply_value) = if options.dtype == Dtype::Bool {
            // As flags: the position has occurred before; a move has been played.
            (u8::from(repetitions > 1), u8::from(ply > 0))
        } else {
            (count(repetitions), count(ply))
        };
        out[10 * area..11 * area].fill(repetition_value);
        out[11 * area..12 * area].fill(ply_value);
        let positions = self.game.positions();
        for back in 1..options.history {
            let Some(index) = positions.len().checked_sub(back + 1) else {
                break;
            };
            let first = planes::PLANES.len() + PIECE_PLANES * (back - 1);
            pieces(out, &positions[index], first);
        }
    }

    /// Plays `action` (checked legal), writes the final planes into `last` if the game ends
    /// (and starts it again), then the observation and mask of the game now.
    fn step(
        &mut self,
        action: usize,
        out: Outputs<'_>,
        options: &Options,
        space: Space,
        table: &[u16],
    ) -> Report {
        let mover = self.game.position().side_to_move();
        let played = space
            .action_to_move_on::<B>(action)
            .ok()
            .map(|m| self.game.play(m).is_ok());
        debug_assert_eq!(played, Some(true), "the action was checked legal");
        self.refresh();
        let plies = self.game.moves().len();
        let terminated = self.outcome.is_some();
        let truncated = !terminated && options.max_plies.is_some_and(|cap| plies >= cap);
        let mut report = Report::default();
        if terminated || truncated {
            let start = out.last.len();
            out.last.resize(start + out.planes.len(), 0);
            self.write_planes(options, out.scratch, &mut out.last[start..]);
            if let Some(outcome) = self.outcome {
                report.reason = reason_code(outcome);
                if let Some(winner) = outcome.winner() {
                    report.reward = if winner == mover { 1.0 } else { -1.0 };
                    report.winner = if winner == Side::Attackers { 1 } else { -1 };
                }
            }
            report.episode_plies = u32::try_from(plies).unwrap_or(u32::MAX);
            report.terminated = terminated;
            report.truncated = truncated;
            self.reset();
        }
        let now = self.report();
        report.ply = now.ply;
        report.defenders_to_move = now.defenders_to_move;
        self.write_planes(options, out.scratch, out.planes);
        self.write_mask(table, out.mask);
        report
    }
}

/// One game's parts of the output buffers, and where the final planes of the games that end
/// go (one after the other).
struct Outputs<'a> {
    planes: &'a mut [u8],
    mask: &'a mut [u8],
    last: &'a mut Vec<u8>,
    scratch: &'a mut [u8],
}

/// The games, on one grid, and the actions of their moves (see [`action_table`]).
struct Batch<B: Grid> {
    slots: Vec<Slot<B>>,
    table: Vec<u16>,
}

/// Where a move is in its grid's action table: from-square by to-square.
fn action_slot<B: Grid>(m: tafl_engine::Move<B>) -> usize {
    m.from().index().into() * B::GRID_SQUARES + m.to().index().into()
}

/// The action of every move along a rank or a file of a board of `space`'s size, by
/// [`action_slot`]; `u16::MAX` (past every mask) for other pairs of squares. A table look-up
/// per legal move: the crate's checked conversion took a third of a step.
fn action_table<B: Grid>(space: Space) -> Vec<u16> {
    let mut table = vec![u16::MAX; B::GRID_SQUARES * B::GRID_SQUARES];
    let size = space.size();
    for (x, y) in (0..size).flat_map(|x| (0..size).map(move |y| (x, y))) {
        let Some(from) = tafl_engine::Square::<B>::at(x, y) else {
            continue;
        };
        let along = (0..size)
            .map(|to_x| (to_x, y))
            .chain((0..size).map(|to_y| (x, to_y)));
        for (to_x, to_y) in along {
            let Some(to) = tafl_engine::Square::<B>::at(to_x, to_y) else {
                continue;
            };
            let m = tafl_engine::Move::new(from, to);
            // At most 25 992 actions (19x19): they fit a u16.
            if let Ok(action) = space.move_to_action_on(m) {
                table[action_slot(m)] = u16::try_from(action).unwrap_or(u16::MAX);
            }
        }
    }
    table
}

/// The buffers of one step: observations and masks, written in place.
struct Buffers<'a> {
    planes: &'a mut [u8],
    mask: &'a mut [u8],
}

impl<B: Grid> Batch<B> {
    /// The move of every action, or the first game whose action is not legal now.
    fn check(&self, space: Space, actions: &[i64]) -> Result<(), String> {
        let last = space.num_actions() - 1;
        for (index, (slot, &action)) in self.slots.iter().zip(actions).enumerate() {
            let legal = usize::try_from(action)
                .ok()
                .filter(|&a| a <= last)
                .ok_or_else(|| {
                    format!("game {index}: action {action} is out of range (0 to {last})")
                })?;
            let m = space.action_to_move_on::<B>(legal).map_err(|error| {
                format!("game {index}: action {action} is never legal ({error})")
            })?;
            if !slot.legal.contains(&m) {
                return Err(format!(
                    "game {index}: action {action} ({m}) is not legal now; no game was stepped"
                ));
            }
        }
        Ok(())
    }

    /// Steps every game (the actions checked), on `threads` threads; returns the final planes
    /// of the games that ended, in the games' order.
    fn step(
        &mut self,
        actions: &[i64],
        options: &Options,
        space: Space,
        threads: usize,
        buffers: Buffers<'_>,
        reports: &mut [Report],
    ) -> Vec<u8> {
        let games = self.slots.len();
        let each_planes = buffers.planes.len() / games;
        let each_mask = buffers.mask.len() / games;
        let scratch_len = each_planes / options.dtype.width();
        let per_thread = games.div_ceil(threads.max(1));
        let table = &self.table;
        let work = |slots: &mut [Slot<B>],
                    actions: &[i64],
                    planes: &mut [u8],
                    mask: &mut [u8],
                    reports: &mut [Report]| {
            let mut scratch = vec![0; scratch_len];
            let mut last = Vec::new();
            let parts = slots
                .iter_mut()
                .zip(actions)
                .zip(planes.chunks_exact_mut(each_planes))
                .zip(mask.chunks_exact_mut(each_mask))
                .zip(reports.iter_mut());
            for ((((slot, &action), planes), mask), report) in parts {
                let outputs = Outputs {
                    planes,
                    mask,
                    last: &mut last,
                    scratch: &mut scratch,
                };
                // Checked: in range, so not negative.
                *report = slot.step(action as usize, outputs, options, space, table);
            }
            last
        };
        if threads <= 1 || games <= per_thread {
            return work(
                &mut self.slots,
                actions,
                buffers.planes,
                buffers.mask,
                reports,
            );
        }
        std::thread::scope(|scope| {
            let chunks = self
                .slots
                .chunks_mut(per_thread)
                .zip(actions.chunks(per_thread))
                .zip(buffers.planes.chunks_mut(per_thread * each_planes))
                .zip(buffers.mask.chunks_mut(per_thread * each_mask))
                .zip(reports.chunks_mut(per_thread));
            let mut chunks = chunks.collect::<Vec<_>>().into_iter();
            // The calling thread takes the first chunk itself.
            let first = chunks.next();
            let helpers: Vec<_> = chunks
                .map(|((((slots, actions), planes), mask), reports)| {
                    scope.spawn(move || work(slots, actions, planes, mask, reports))
                })
                .collect();
            let mut last =
                first.map_or_else(Vec::new, |((((slots, actions), planes), mask), reports)| {
                    work(slots, actions, planes, mask, reports)
                });
            for helper in helpers {
                // A panic in a helper is the step's panic (`guard` makes it a RuntimeError).
                match helper.join() {
                    Ok(rows) => last.extend_from_slice(&rows),
                    Err(payload) => std::panic::resume_unwind(payload),
                }
            }
            last
        })
    }

    /// Starts every game again and writes its observation and mask.
    fn reset(&mut self, options: &Options, planes: &mut [u8], mask: &mut [u8]) {
        let games = self.slots.len();
        let each_planes = planes.len() / games;
        let each_mask = mask.len() / games;
        let mut scratch = vec![0; each_planes / options.dtype.width()];
        for ((slot, planes), mask) in self
            .slots
            .iter_mut()
            .zip(planes.chunks_exact_mut(each_planes))
            .zip(mask.chunks_exact_mut(each_mask))
        {
            slot.reset();
            slot.write_planes(options, &mut scratch, planes);
            slot.write_mask(&self.table, mask);
        }
    }

    fn reports(&self) -> Vec<Report> {
        self.slots.iter().map(Slot::report).collect()
    }

    /// A uniformly random legal action of every game (0 for a game without one, which a
    /// game of the batch never is between steps).
    fn sample(&self, rng: &mut SplitMix) -> Vec<i64> {
        self.slots
            .iter()
            .map(|slot| {
                let count = slot.legal.len() as u64;
                if count == 0 {
                    return 0;
                }
                let m = slot.legal[rng.below(count) as usize];
                i64::from(self.table[action_slot(m)])
            })
            .collect()
    }
}

/// The games on the grid of their board size.
enum AnyBatch {
    Narrow(Batch<Narrow>),
    Wide(Batch<Wide>),
}

/// `$body` with `$batch` bound as `$b` to the batch on its grid.
macro_rules! on_batch {
    ($batch:expr, $b:ident => $body:expr) => {
        match $batch {
            AnyBatch::Narrow($b) => $body,
            AnyBatch::Wide($b) => $body,
        }
    };
}

/// SplitMix64: a small, fast generator for the sampler (quality is plenty for choosing moves).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (> 0), without modulo bias worth speaking of (n < 2^16).
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }

    /// A seed from the process's random hasher keys, for `seed=None`.
    fn entropy() -> u64 {
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u64(0x7AF1);
        hasher.finish()
    }
}

/// What the lock guards: the games and the sampler.
struct Inner {
    batch: AnyBatch,
    rng: SplitMix,
}

/// `numpy.frombuffer`, looked up once: every step makes a dozen arrays.
static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// A numpy array of `dtype` and `shape` over `buffer` (no copy).
fn wrap<'py>(
    buffer: Bound<'py, PyByteArray>,
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let py = buffer.py();
    let frombuffer = FROMBUFFER.get_or_try_init(py, || {
        Ok::<_, PyErr>(arrays::numpy(py)?.getattr("frombuffer")?.unbind())
    })?;
    let array = frombuffer.bind(py).call1((buffer, dtype))?;
    if shape.len() == 1 {
        Ok(array)
    } else {
        array.call_method1("reshape", (PyTuple::new(py, shape)?,))
    }
}

/// A numpy array of the values `each` gives per report.
fn report_array<'py, const W: usize>(
    py: Python<'py>,
    reports: &[Report],
    dtype: &str,
    each: impl Fn(&Report) -> [u8; W],
) -> PyResult<Bound<'py, PyAny>> {
    let buffer = PyByteArray::new_with(py, reports.len() * W, |out| {
        for (cell, report) in out.chunks_exact_mut(W).zip(reports) {
            cell.copy_from_slice(&each(report));
        }
        Ok(())
    })?;
    wrap(buffer, dtype, &[reports.len()])
}

/// Whether a game of `variant` has a legal move at its start: a rules string can set up a
/// finished position (no attackers, say), whose games an environment could never step.
fn starts_with_a_move(variant: &AnyVariant) -> bool {
    match variant {
        AnyVariant::Narrow(variant) => !Game::new(variant).legal_moves().is_empty(),
        AnyVariant::Wide(variant) => !Game::new(variant).legal_moves().is_empty(),
    }
}

/// `num_envs` games stepped together in Rust, for reinforcement learning: one call plays an
/// action in every game and returns numpy arrays, with the GIL released (and, with `threads`,
/// the games split over threads). Observations are dicts `{"observation": planes,
/// "action_mask": mask}`; a game that ends is started again in the same step (its last planes
/// in `infos["final_obs"]`). Every call returns new arrays. `tafl_engine.vector.TaflVectorEnv`
/// is the Gymnasium vector environment over it.
#[pyclass(module = "tafl_engine", name = "BatchEnv", frozen)]
pub struct BatchEnv {
    inner: Mutex<Inner>,
    options: Options,
    space: Space,
    games: usize,
    threads: usize,
    variants: Vec<String>,
}

impl BatchEnv {
    fn planes_len(&self) -> usize {
        self.options.channels() * self.area() * self.options.dtype.width()
    }

    fn area(&self) -> usize {
        usize::from(self.space.size()) * usize::from(self.space.size())
    }

    fn planes_shape(&self) -> [usize; 4] {
        let n = usize::from(self.space.size());
        [self.games, self.options.channels(), n, n]
    }

    /// The actions as integers: a sequence or array of `games` integers.
    fn actions(&self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
        let numpy = arrays::numpy(py)?;
        let array = numpy.call_method1("asarray", (actions,))?;
        let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
        if kind != "i" && kind != "u" {
            return Err(PyTypeError::new_err(format!(
                "actions must be integers, not an array of dtype {}",
                text::shown(&array.getattr("dtype")?.str()?.to_string())
            )));
        }
        let shape: Vec<usize> = array.getattr("shape")?.extract()?;
        if shape != [self.games] {
            return Err(PyValueError::new_err(format!(
                "actions must have the shape ({},), one per game, not {shape:?}",
                self.games
            )));
        }
        if kind == "u" {
            // Above i64::MAX is out of range all the same: clip so the cast keeps it there.
            let top = numpy.getattr("iinfo")?.call1(("int64",))?.getattr("max")?;
            let clipped = numpy.call_method1("minimum", (&array, top))?;
            return self.actions(py, &clipped.call_method1("astype", ("int64",))?);
        }
        let bytes: Vec<u8> = array
            .call_method1("astype", ("<i8",))?
            .call_method0("tobytes")?
            .extract()?;
        Ok(bytes
            .chunks_exact(8)
            .map(|chunk| {
                let mut word = [0; 8];
                word.copy_from_slice(chunk);
                i64::from_le_bytes(word)
            })
            .collect())
    }

    /// The observation dict and infos of `reports`, with `planes` and `mask` filled.
    fn observation<'py>(
        &self,
        planes: Bound<'py, PyByteArray>,
        mask: Bound<'py, PyByteArray>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let py = planes.py();
        let observation = PyDict::new(py);
        observation.set_item(
            "observation",
            wrap(planes, self.options.dtype.name(), &self.planes_shape())?,
        )?;
        observation.set_item(
            "action_mask",
            wrap(mask, "bool", &[self.games, self.space.num_actions()])?,
        )?;
        Ok(observation)
    }

    fn infos<'py>(&self, py: Python<'py>, reports: &[Report]) -> PyResult<Bound<'py, PyDict>> {
        let infos = PyDict::new(py);
        infos.set_item(
            "ply",
            report_array(py, reports, "<i4", |r| (r.ply as i32).to_le_bytes())?,
        )?;
        infos.set_item(
            "side_to_move",
            report_array(py, reports, "i1", |r| [u8::from(r.defenders_to_move)])?,
        )?;
        infos.set_item("reason", report_array(py, reports, "i1", |r| [r.reason])?)?;
        infos.set_item(
            "winner",
            report_array(py, reports, "i1", |r| r.winner.to_le_bytes())?,
        )?;
        infos.set_item(
            "episode_plies",
            report_array(py, reports, "<i4", |r| {
                (r.episode_plies as i32).to_le_bytes()
            })?,
        )?;
        Ok(infos)
    }

    fn run<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Inner) -> PyResult<T> + Send,
    ) -> PyResult<T> {
        py.detach(|| guard(|| f(&mut lock(&self.inner))))
    }
}

#[pymethods]
impl BatchEnv {
    /// `BatchEnv(variant="tablut", num_envs=1, *, seed=None, max_plies=None,
    /// perspective="absolute", history=1, dtype="uint8", threads=1)`: `variant` a name or
    /// rules string, or a list of them (one game each, all of one board size).
    #[new]
    #[pyo3(signature = (variant = None, num_envs = None, *, seed = None, max_plies = None, perspective = "absolute", history = None, dtype = "uint8", threads = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        variant: Option<&Bound<'_, PyAny>>,
        num_envs: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        max_plies: Option<&Bound<'_, PyAny>>,
        perspective: &str,
        history: Option<&Bound<'_, PyAny>>,
        dtype: &str,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<BatchEnv> {
        let count = num_envs
            .filter(|n| !n.is_none())
            .map(|n| args::usize_in(n, "num_envs", 1, MAX_GAMES))
            .transpose()?;
        let names: Vec<String> = match variant.filter(|v| !v.is_none()) {
            None => vec!["tablut".to_string(); count.unwrap_or(1)],
            Some(one) if one.extract::<String>().is_ok() => {
                vec![one.extract::<String>()?; count.unwrap_or(1)]
            }
            Some(list) => {
                let names: Vec<String> = list.extract().map_err(|_| {
                    PyTypeError::new_err(
                        "variant must be a name (or rules string) or a list of them",
                    )
                })?;
                if names.is_empty() || names.len() > MAX_GAMES {
                    return Err(PyValueError::new_err(format!(
                        "give 1 to {MAX_GAMES} variants, not {}",
                        names.len()
                    )));
                }
                if let Some(n) = count.filter(|&n| n != names.len()) {
                    return Err(PyValueError::new_err(format!(
                        "num_envs is {n} but {} variants were given",
                        names.len()
                    )));
                }
                names
            }
        };
        let relative = match perspective {
            "absolute" => false,
            "side_to_move" => true,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "perspective must be 'absolute' or 'side_to_move', not '{}'",
                    text::shown(perspective)
                )));
            }
        };
        let options = Options {
            relative,
            history: match history.filter(|h| !h.is_none()) {
                Some(h) => args::usize_in(h, "history", 1, MAX_HISTORY)?,
                None => 1,
            },
            dtype: Dtype::parse(dtype)?,
            max_plies: max_plies
                .filter(|v| !v.is_none())
                .map(|v| args::usize_in(v, "max_plies", 1, MAX_PLY_CAP))
                .transpose()?,
        };
        let threads = match threads.filter(|t| !t.is_none()) {
            Some(t) => args::usize_in(t, "threads", 1, MAX_THREADS)?,
            None => 1,
        };
        let seed = match seed.filter(|s| !s.is_none()) {
            Some(s) => args::u64_in(s, "seed", 0, i64::MAX as u64)?,
            None => SplitMix::entropy(),
        };
        // Each name parsed once.
        let mut parsed: Vec<(String, AnyVariant)> = Vec::new();
        let mut variants = Vec::with_capacity(names.len());
        for name in &names {
            let variant = match parsed.iter().find(|(known, _)| known == name) {
                Some((_, variant)) => variant.clone(),
                None => {
                    let variant = guard(|| text::variant_or_rules(name))?;
                    if !starts_with_a_move(&variant) {
                        return Err(PyValueError::new_err(format!(
                            "the game '{}' is over at its start (no legal move): an environment \
                             could not step it",
                            text::shown(name)
                        )));
                    }
                    parsed.push((name.clone(), variant.clone()));
                    variant
                }
            };
            variants.push(variant);
        }
        let size = variants[0].size();
        if let Some(other) = variants.iter().find(|v| v.size() != size) {
            let other = other.size();
            return Err(PyValueError::new_err(format!(
                "all games must be on boards of one size: {size}x{size} and {other}x{other}"
            )));
        }
        // Rules make boards of 5 to 19, which have action spaces.
        let space = Space::new(size).map_err(crate::space::error)?;
        let batch = guard(|| {
            Ok(match &variants[0] {
                AnyVariant::Narrow(_) => AnyBatch::Narrow(Batch {
                    table: action_table::<Narrow>(space),
                    slots: variants
                        .iter()
                        .filter_map(|v| match v {
                            AnyVariant::Narrow(v) => Some(Slot::new(v)),
                            AnyVariant::Wide(_) => None,
                        })
                        .collect(),
                }),
                AnyVariant::Wide(_) => AnyBatch::Wide(Batch {
                    table: action_table::<Wide>(space),
                    slots: variants
                        .iter()
                        .filter_map(|v| match v {
                            AnyVariant::Wide(v) => Some(Slot::new(v)),
                            AnyVariant::Narrow(_) => None,
                        })
                        .collect(),
                }),
            })
        })?;
        let games = on_batch!(&batch, b => b.slots.len());
        if games != variants.len() {
            // Boards of one size are on one grid.
            return Err(PyRuntimeError::new_err("games of one size on two grids"));
        }
        let variants = variants
            .iter()
            .map(|v| match v {
                AnyVariant::Narrow(v) => text::variant_key(v),
                AnyVariant::Wide(v) => text::variant_key(v),
            })
            .collect();
        Ok(BatchEnv {
            inner: Mutex::new(Inner {
                batch,
                rng: SplitMix(seed),
            }),
            options,
            space,
            games,
            threads,
            variants,
        })
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.games
    }

    /// The board's size.
    #[getter]
    fn size(&self) -> u8 {
        self.space.size()
    }

    /// The number of actions of the board.
    #[getter]
    fn num_actions(&self) -> usize {
        self.space.num_actions()
    }

    /// The number of planes of an observation.
    #[getter]
    fn num_planes(&self) -> usize {
        self.options.channels()
    }

    /// The names of the planes.
    #[getter]
    fn plane_names(&self) -> Vec<String> {
        let mut names: Vec<String> = planes::PLANES.iter().map(|s| s.to_string()).collect();
        for back in 1..self.options.history {
            for piece in ["attackers", "defenders", "king"] {
                names.push(format!("{piece}_{back}"));
            }
        }
        if self.options.relative {
            for (index, name) in [
                (0, "us"),
                (1, "them"),
                (8, "hostile_to_us"),
                (9, "hostile_to_them"),
            ] {
                names[index] = name.to_string();
            }
            for back in 1..self.options.history {
                let first = planes::PLANES.len() + PIECE_PLANES * (back - 1);
                names[first] = format!("us_{back}");
                names[first + 1] = format!("them_{back}");
            }
        }
        names
    }

    /// The planes' dtype name.
    #[getter]
    fn dtype(&self) -> &'static str {
        self.options.dtype.name()
    }

    /// The ply cap (None: none).
    #[getter]
    fn max_plies(&self) -> Option<usize> {
        self.options.max_plies
    }

    /// The games' variants (names or rules strings), one per game.
    #[getter]
    fn variants(&self) -> Vec<String> {
        self.variants.clone()
    }

    /// `"absolute"` or `"side_to_move"`.
    #[getter]
    fn perspective(&self) -> &'static str {
        if self.options.relative {
            "side_to_move"
        } else {
            "absolute"
        }
    }

    /// Positions per observation.
    #[getter]
    fn history(&self) -> usize {
        self.options.history
    }

    /// Threads a step uses.
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    /// The outcome reasons, by code (`infos["reason"]`): `REASONS[0]` is `""` (no outcome).
    #[classattr]
    #[pyo3(name = "REASONS")]
    fn reasons() -> Vec<&'static str> {
        REASONS.to_vec()
    }

    /// Starts every game again and returns `(observations, infos)`; `seed` seeds
    /// `sample_legal_actions` again (the games themselves have no chance).
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>)> {
        let seed = seed
            .filter(|s| !s.is_none())
            .map(|s| args::u64_in(s, "seed", 0, i64::MAX as u64))
            .transpose()?;
        let (options, space) = (self.options, self.space);
        let mut reports = Vec::new();
        let mut mask_buffer = None;
        let planes = PyByteArray::new_with(py, self.games * self.planes_len(), |planes| {
            mask_buffer = Some(PyByteArray::new_with(
                py,
                self.games * space.num_actions(),
                |mask| {
                    reports = self.run(py, |inner| {
                        if let Some(seed) = seed {
                            inner.rng = SplitMix(seed);
                        }
                        Ok(on_batch!(&mut inner.batch, b => {
                            b.reset(&options, planes, mask);
                            b.reports()
                        }))
                    })?;
                    Ok(())
                },
            )?);
            Ok(())
        })?;
        let mask = mask_buffer.ok_or_else(|| PyRuntimeError::new_err("no mask made"))?;
        Ok((self.observation(planes, mask)?, self.infos(py, &reports)?))
    }

    /// Plays `actions[i]` in game `i` and returns `(observations, rewards, terminated,
    /// truncated, infos)`: rewards for the player who has just moved (+1 won, -1 lost, 0
    /// otherwise); a game that ended is started again at once (same-step autoreset). An action
    /// not legal now raises ValueError naming the game, and no game is stepped.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, PyDict>,
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyDict>,
    )> {
        let actions = self.actions(py, actions)?;
        let (options, space, threads) = (self.options, self.space, self.threads);
        let mut reports = vec![Report::default(); self.games];
        let mut mask_buffer = None;
        let mut last = Vec::new();
        let planes_len = self.games * self.planes_len();
        let planes = PyByteArray::new_with(py, planes_len, |planes| {
            mask_buffer = Some(PyByteArray::new_with(
                py,
                self.games * space.num_actions(),
                |mask| {
                    last = self.run(py, |inner| {
                        Ok(on_batch!(&mut inner.batch, b => {
                            b.check(space, &actions).map_err(PyValueError::new_err)?;
                            let buffers = Buffers { planes, mask };
                            b.step(&actions, &options, space, threads, buffers, &mut reports)
                        }))
                    })?;
                    Ok(())
                },
            )?);
            Ok(())
        })?;
        let mask = mask_buffer.ok_or_else(|| PyRuntimeError::new_err("no mask made"))?;
        let observation = self.observation(planes, mask)?;
        let rewards = report_array(py, &reports, "<f4", |r| r.reward.to_le_bytes())?;
        let terminated = report_array(py, &reports, "bool", |r| [u8::from(r.terminated)])?;
        let truncated = report_array(py, &reports, "bool", |r| [u8::from(r.truncated)])?;
        let infos = self.infos(py, &reports)?;
        let ended = report_array(py, &reports, "bool", |r| {
            [u8::from(r.terminated || r.truncated)]
        })?;
        // numpy's zeros take fresh pages from the system (no writing), and only the rows of the
        // games that ended are filled.
        let shape = self.planes_shape();
        let dtype = self.options.dtype.name();
        let last_planes =
            arrays::numpy(py)?.call_method1("zeros", (PyTuple::new(py, shape)?, dtype))?;
        if !last.is_empty() {
            let rows = last.len() / self.planes_len();
            let mut row_shape = shape;
            row_shape[0] = rows;
            let values = wrap(PyByteArray::new(py, &last), dtype, &row_shape)?;
            last_planes.set_item(&ended, values)?;
        }
        infos.set_item("final_obs", last_planes)?;
        infos.set_item("_final_obs", ended)?;
        Ok((observation, rewards, terminated, truncated, infos))
    }

    /// A uniformly random legal action of every game (int64), drawn in Rust from the
    /// environment's generator (seeded by `seed`).
    fn sample_legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let actions = self.run(py, |inner| {
            let rng = &mut inner.rng;
            Ok(on_batch!(&inner.batch, b => b.sample(rng)))
        })?;
        let buffer = PyByteArray::new_with(py, actions.len() * 8, |out| {
            for (cell, action) in out.chunks_exact_mut(8).zip(&actions) {
                cell.copy_from_slice(&action.to_le_bytes());
            }
            Ok(())
        })?;
        wrap(buffer, "<i8", &[actions.len()])
    }

    /// `BatchEnv('tablut', num_envs=256, ...)`.
    fn __repr__(&self) -> String {
        let first = text::shown(&self.variants[0]);
        let mixed = self.variants.iter().any(|v| *v != self.variants[0]);
        format!(
            "BatchEnv('{first}'{}, num_envs={}, perspective='{}', history={}, dtype='{}', max_plies={}, threads={})",
            if mixed { " and others" } else { "" },
            self.games,
            self.perspective(),
            self.options.history,
            self.options.dtype.name(),
            self.options
                .max_plies
                .map_or("None".to_string(), |cap| cap.to_string()),
            self.threads
        )
    }
}
