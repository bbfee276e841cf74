//! The learned evaluation: an efficiently updatable neural network (NNUE) over piece-square
//! inputs, with integer inference on the CPU.
//!
//! **Inputs.** One input a piece and square: [`INPUTS`] = 3 × 121, the attacking soldiers' squares,
//! the defending soldiers' squares and the king's square, each by the square's index on the
//! 11-wide grid ([`Square::index`]), so one encoding serves every board up to 11x11
//! ([`feature_index`]). A position has one active input a piece, and a move changes two to a few
//! (the mover's from and to squares, the captured pieces), so the first layer's sums, the
//! *accumulator*, are updated by adding and subtracting those rows instead of being computed
//! again ([`Accumulator::update`]).
//!
//! **Layers.** `INPUTS → HIDDEN` (weights and biases in `i16`, scale [`QA`]), clipped ReLU to
//! `0..=QA`, then one output of the [`HIDDEN`] activations per side to move (weights `i16`, scale
//! [`QB`]; bias `i32`, scale `QA × QB`). The output is a logit of the defenders' chance to win
//! (a draw counts half) and is turned into hundredths of a soldier by the network's own scale
//! (centi-soldiers a logit), fitted when it was trained so that its scores sit on the
//! hand-written evaluation's scale, which the search's margins are measured in.
//!
//! **Where it is used.** [`network_for`] says which built-in network plays a game's rules, if
//! any; the weights are compiled into the library (`include_bytes!`). They are trained by this
//! project's own tools from its own self-play (`examples/nnue`, docs/nnue.md). The search uses
//! the network when [`Features::learned_eval`](super::Features::learned_eval) is on and one
//! exists for the rules; the hand-written evaluation ([`super::eval`]) plays otherwise.
//!
//! A network may also be trained **on top of the hand-written evaluation**
//! ([`Network::adds_hand_written`]): its output is then a correction, and the search's score is
//! the hand-written evaluation (default weights) plus the network's.
//!
//! **File format** (little endian), what [`Network::to_bytes`] writes and
//! [`Network::from_bytes`] reads: the 8 bytes `TAFLNNUE`; `u32` format version (1); `u32`
//! inputs, hidden size, outputs (must be [`INPUTS`], [`HIDDEN`], 2); `i32` scale (centi-soldiers
//! a logit); `u32` flags (bit 0: on top of the hand-written evaluation; no other bit may be
//! set); `u32` length of a UTF-8 description, then the description; the `HIDDEN` `i16`
//! first-layer biases; the `INPUTS × HIDDEN` `i16` first-layer weights, input by input; the
//! `2 × HIDDEN` `i16` output weights (attackers to move, then defenders); the two `i32` output
//! biases; a `u64` FNV-1a hash of everything before it.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use thiserror::Error;

use crate::bitboard::Bitboard;
use crate::piece::Side;
use crate::position::Position;
use crate::rules::{Escape, Rules};
use crate::square::{MAX_BOARD_SIZE, Square};

/// Inputs of the network: three kinds of piece (attacking soldier, defending soldier, king) on
/// each square of the 11-wide grid.
pub const INPUTS: usize = 3 * GRID;

/// Size of the hidden layer (the accumulator).
pub const HIDDEN: usize = 256;

/// Scale of the first layer's integer weights and of the clipped activations: a float weight
/// `w` is stored as `round(w × QA)`, and an activation of 1.0 is `QA`.
pub const QA: i32 = 255;

/// Scale of the output layer's integer weights: a float weight `w` is stored as `round(w × QB)`.
pub const QB: i32 = 64;

/// The largest magnitude a first-layer float weight or bias may have, so that a sum of a full
/// board's inputs (at most 1 + 121 rows, a bias and a piece on every square) can never leave
/// `i16`: 122 × 1.05 × 255 < 32 767.
pub const MAX_INPUT_WEIGHT: f32 = 1.05;

/// The largest magnitude an output float weight may have: 256 activations of at most `QA` times
/// a weight of at most `8 × QB` stay far inside `i32`.
pub const MAX_OUTPUT_WEIGHT: f32 = 8.0;

/// Squares of the 11-wide grid.
const GRID: usize = (MAX_BOARD_SIZE as usize) * (MAX_BOARD_SIZE as usize);

/// What the file format starts with.
const MAGIC: &[u8; 8] = b"TAFLNNUE";
/// The file format's version.
const VERSION: u32 = 1;
/// Outputs: one per side to move.
const OUTPUTS: usize = 2;
/// The file's flag for a network trained on top of the hand-written evaluation.
const FLAG_ADDS_HAND_WRITTEN: u32 = 1;

/// The longest description a network file this library reads may carry, in bytes.
pub const MAX_DESCRIPTION_BYTES: usize = 1 << 16;

/// The largest network file this library reads, in bytes: the header (8 bytes of `TAFLNNUE` and
/// seven `u32`/`i32` fields), a description of at most [`MAX_DESCRIPTION_BYTES`], the weights
/// and biases, and the checksum. A larger file is refused before it is read whole.
pub const MAX_FILE_BYTES: usize = 8
    + 7 * 4
    + MAX_DESCRIPTION_BYTES
    + 2 * (HIDDEN + INPUTS * HIDDEN + OUTPUTS * HIDDEN)
    + 4 * OUTPUTS
    + 8;

/// The input a piece of `kind` on `square` switches on: `kind × 121 + square.index()`, where
/// `kind` is 0 for an attacking soldier, 1 for a defending soldier, 2 for the king.
///
/// ```
/// use tafl_engine::search::nnue::{feature_index, PieceKind, INPUTS};
/// let e5 = "e5".parse().unwrap();
/// assert_eq!(feature_index(PieceKind::AttackingSoldier, e5), 48);
/// assert_eq!(feature_index(PieceKind::King, e5), 2 * 121 + 48);
/// assert!(feature_index(PieceKind::King, "k11".parse().unwrap()) < INPUTS);
/// ```
pub fn feature_index(kind: PieceKind, square: Square) -> usize {
    kind as usize * GRID + square.index() as usize
}

/// The three kinds of piece the network tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceKind {
    /// An attacking soldier.
    AttackingSoldier = 0,
    /// A defending soldier.
    DefendingSoldier = 1,
    /// The king.
    King = 2,
}

impl PieceKind {
    /// The three kinds, in the order of their inputs.
    pub const ALL: [PieceKind; 3] = [
        PieceKind::AttackingSoldier,
        PieceKind::DefendingSoldier,
        PieceKind::King,
    ];

    /// The squares of `position` where pieces of this kind stand.
    pub fn squares(self, position: &Position) -> Bitboard {
        match self {
            PieceKind::AttackingSoldier => position.attackers(),
            PieceKind::DefendingSoldier => position.defenders(),
            PieceKind::King => position.king_set(),
        }
    }
}

/// The active inputs of `position` (one a piece), in increasing order.
///
/// ```
/// use tafl_engine::Position;
/// use tafl_engine::search::nnue::features;
/// let start = Position::tablut();
/// assert_eq!(features(&start).count(), 16 + 8 + 1);
/// ```
pub fn features(position: &Position) -> impl Iterator<Item = usize> + '_ {
    PieceKind::ALL.into_iter().flat_map(move |kind| {
        kind.squares(position)
            .into_iter()
            .map(move |square| feature_index(kind, square))
    })
}

/// Why bytes are not a network.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NetworkError {
    /// The bytes end before the part named.
    #[error("the network file ends in its {0}")]
    Truncated(&'static str),
    /// The file does not start with `TAFLNNUE`.
    #[error("not a network file: it does not start with TAFLNNUE")]
    NotANetwork,
    /// A format version this library does not read.
    #[error("network format version {0} is not supported (this library reads version 1)")]
    UnsupportedVersion(u32),
    /// The layer sizes are not this library's.
    #[error(
        "the network has {inputs} inputs, {hidden} hidden and {outputs} outputs; this library plays {INPUTS}, {HIDDEN} and 2"
    )]
    Shape {
        /// Inputs in the file.
        inputs: u32,
        /// Hidden size in the file.
        hidden: u32,
        /// Outputs in the file.
        outputs: u32,
    },
    /// The description is not UTF-8.
    #[error("the network's description is not UTF-8")]
    Description,
    /// The scale is not positive.
    #[error("the network's scale {0} is not positive")]
    Scale(i32),
    /// A flag this library does not know is set.
    #[error("the network's flags {0:#x} name something this library does not know")]
    Flags(u32),
    /// The checksum at the end does not match the contents.
    #[error("the network file is damaged: its checksum does not match")]
    Checksum,
    /// Bytes follow the checksum.
    #[error("{0} unexpected bytes after the network's checksum")]
    TrailingBytes(usize),
    /// More bytes than any network file has ([`MAX_FILE_BYTES`]).
    #[error("{0} bytes or more: larger than any network file (at most {MAX_FILE_BYTES} bytes)")]
    TooLarge(usize),
}

/// Why a network file could not be read ([`Network::from_file`]).
#[derive(Debug, Error)]
pub enum NetworkFileError {
    /// The file could not be opened or read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file was read but is not a network this library plays (or is too large to be one).
    #[error("{}: {source}", path.display())]
    Network {
        /// The file.
        path: PathBuf,
        /// What is wrong with its contents.
        source: NetworkError,
    },
}

/// A trained network in floating point, as a trainer holds it; [`Network::quantize`] turns it
/// into the integer network the search plays with.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// First-layer weights, `INPUTS × HIDDEN`, input by input (`[input * HIDDEN + hidden]`).
    pub input_weights: Vec<f32>,
    /// First-layer biases, `HIDDEN`.
    pub input_biases: Vec<f32>,
    /// Output weights, `2 × HIDDEN`: attackers to move, then defenders to move.
    pub output_weights: Vec<f32>,
    /// Output biases: attackers to move, then defenders to move.
    pub output_biases: [f32; 2],
    /// Centi-soldiers a logit: how the output is turned into a search score.
    pub scale: f32,
    /// Whether the network's output is added to the hand-written evaluation (default weights).
    pub adds_hand_written: bool,
    /// A line saying what the network was trained on, kept in its file.
    pub description: String,
}

/// A network with integer weights, ready for the search.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    input_weights: Vec<i16>,
    input_biases: Vec<i16>,
    output_weights: Vec<i16>,
    output_biases: [i32; OUTPUTS],
    scale: i32,
    adds_hand_written: bool,
    description: String,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("scale", &self.scale)
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

/// A reader of the file format that says which part ran short.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, count: usize, part: &'static str) -> Result<&'a [u8], NetworkError> {
        let end = self
            .at
            .checked_add(count)
            .filter(|&end| end <= self.bytes.len())
            .ok_or(NetworkError::Truncated(part))?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn u32(&mut self, part: &'static str) -> Result<u32, NetworkError> {
        let bytes = self.take(4, part)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    fn i32(&mut self, part: &'static str) -> Result<i32, NetworkError> {
        Ok(self.u32(part)? as i32)
    }

    fn i16s(&mut self, count: usize, part: &'static str) -> Result<Vec<i16>, NetworkError> {
        let bytes = self.take(count * 2, part)?;
        Ok(bytes
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect())
    }
}

/// FNV-1a, 64 bits: a checksum that needs no dependency.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A float scaled and rounded into `i16`, within `limit` first.
fn quantize_i16(value: f32, limit: f32, scale: i32) -> i16 {
    let clamped = value.clamp(-limit, limit) * scale as f32;
    // Within ±limit × scale, which both limits keep inside i16.
    clamped.round() as i16
}

impl Network {
    /// The integer network of a float one: each weight clamped to its layer's limit
    /// ([`MAX_INPUT_WEIGHT`], [`MAX_OUTPUT_WEIGHT`]) and rounded to its scale ([`QA`], [`QB`]).
    /// Vectors of the wrong length are cut or padded with zeros to the shapes above.
    pub fn quantize(float: &FloatNetwork) -> Network {
        let sized = |values: &[f32], length: usize| {
            let mut out = values.to_vec();
            out.resize(length, 0.0);
            out
        };
        let input_weights = sized(&float.input_weights, INPUTS * HIDDEN)
            .iter()
            .map(|&w| quantize_i16(w, MAX_INPUT_WEIGHT, QA))
            .collect();
        let input_biases = sized(&float.input_biases, HIDDEN)
            .iter()
            .map(|&w| quantize_i16(w, MAX_INPUT_WEIGHT, QA))
            .collect();
        let output_weights = sized(&float.output_weights, OUTPUTS * HIDDEN)
            .iter()
            .map(|&w| quantize_i16(w, MAX_OUTPUT_WEIGHT, QB))
            .collect();
        let bias = |b: f32| (f64::from(b) * f64::from(QA * QB)).round() as i32;
        Network {
            input_weights,
            input_biases,
            output_weights,
            output_biases: [bias(float.output_biases[0]), bias(float.output_biases[1])],
            scale: (float.scale.round() as i32).max(1),
            adds_hand_written: float.adds_hand_written,
            description: float.description.clone(),
        }
    }

    /// Reads the network file at `path`, reading at most [`MAX_FILE_BYTES`] and one byte more:
    /// a larger file (or an endless one, such as `/dev/zero`) is refused without being read
    /// whole.
    ///
    /// ```
    /// use tafl_engine::search::nnue::{Network, NetworkError, NetworkFileError};
    /// match Network::from_file("/dev/zero") {
    ///     Err(NetworkFileError::Network { source: NetworkError::TooLarge(_), .. }) => {}
    ///     other => panic!("{other:?}"),
    /// }
    /// assert!(matches!(
    ///     Network::from_file("no-such-file.nnue"),
    ///     Err(NetworkFileError::Io { .. })
    /// ));
    /// ```
    pub fn from_file(path: impl AsRef<Path>) -> Result<Network, NetworkFileError> {
        let path = path.as_ref();
        let io = |source| NetworkFileError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let mut bytes = Vec::new();
        file.take(MAX_FILE_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        Network::from_bytes(&bytes).map_err(|source| NetworkFileError::Network {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Reads a network file (the format is in the module's documentation).
    ///
    /// ```
    /// use tafl_engine::search::nnue::{Network, NetworkError};
    /// assert_eq!(Network::from_bytes(b"TAFL"), Err(NetworkError::Truncated("header")));
    /// assert_eq!(Network::from_bytes(b"NOTANNUE"), Err(NetworkError::NotANetwork));
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() > MAX_FILE_BYTES {
            return Err(NetworkError::TooLarge(bytes.len()));
        }
        let mut reader = Reader { bytes, at: 0 };
        if reader.take(8, "header")? != MAGIC {
            return Err(NetworkError::NotANetwork);
        }
        let version = reader.u32("header")?;
        if version != VERSION {
            return Err(NetworkError::UnsupportedVersion(version));
        }
        let (inputs, hidden, outputs) = (
            reader.u32("header")?,
            reader.u32("header")?,
            reader.u32("header")?,
        );
        if (inputs as usize, hidden as usize, outputs as usize) != (INPUTS, HIDDEN, OUTPUTS) {
            return Err(NetworkError::Shape {
                inputs,
                hidden,
                outputs,
            });
        }
        let scale = reader.i32("header")?;
        if scale <= 0 {
            return Err(NetworkError::Scale(scale));
        }
        let flags = reader.u32("header")?;
        if flags & !FLAG_ADDS_HAND_WRITTEN != 0 {
            return Err(NetworkError::Flags(flags));
        }
        let length = reader.u32("description")? as usize;
        let description = std::str::from_utf8(reader.take(length, "description")?)
            .map_err(|_| NetworkError::Description)?
            .to_string();
        let input_biases = reader.i16s(HIDDEN, "first-layer biases")?;
        let input_weights = reader.i16s(INPUTS * HIDDEN, "first-layer weights")?;
        let output_weights = reader.i16s(OUTPUTS * HIDDEN, "output weights")?;
        let output_biases = [reader.i32("output biases")?, reader.i32("output biases")?];
        let body = reader.at;
        let checksum = reader.take(8, "checksum")?;
        let expected = fnv1a(&bytes[..body]).to_le_bytes();
        if checksum != expected {
            return Err(NetworkError::Checksum);
        }
        if reader.at != bytes.len() {
            return Err(NetworkError::TrailingBytes(bytes.len() - reader.at));
        }
        Ok(Network {
            input_weights,
            input_biases,
            output_weights,
            output_biases,
            scale,
            adds_hand_written: flags & FLAG_ADDS_HAND_WRITTEN != 0,
            description,
        })
    }

    /// The network as a file ([`Network::from_bytes`] reads it back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + 2 * (INPUTS + 3) * HIDDEN);
        out.extend_from_slice(MAGIC);
        for value in [VERSION, INPUTS as u32, HIDDEN as u32, OUTPUTS as u32] {
            out.extend_from_slice(&value.to_le_bytes());
        }
        out.extend_from_slice(&self.scale.to_le_bytes());
        let flags = if self.adds_hand_written {
            FLAG_ADDS_HAND_WRITTEN
        } else {
            0
        };
        out.extend_from_slice(&flags.to_le_bytes());
        out.extend_from_slice(&(self.description.len() as u32).to_le_bytes());
        out.extend_from_slice(self.description.as_bytes());
        for values in [
            &self.input_biases,
            &self.input_weights,
            &self.output_weights,
        ] {
            for value in values.iter() {
                out.extend_from_slice(&value.to_le_bytes());
            }
        }
        for bias in self.output_biases {
            out.extend_from_slice(&bias.to_le_bytes());
        }
        let checksum = fnv1a(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// What the network was trained on, as its trainer wrote it.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Centi-soldiers a logit of the output.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// Whether the network was trained on top of the hand-written evaluation: the search's
    /// score is then the hand-written evaluation (default weights) plus the network's output.
    pub fn adds_hand_written(&self) -> bool {
        self.adds_hand_written
    }

    /// The first-layer weights of one input.
    #[inline]
    fn row(&self, input: usize) -> &[i16; HIDDEN] {
        let start = input * HIDDEN;
        // Every input index is below INPUTS (`feature_index`), and the vector holds INPUTS rows.
        self.input_weights[start..start + HIDDEN]
            .try_into()
            .expect("a row of HIDDEN weights")
    }

    /// The accumulator of `position`, computed from its pieces.
    pub fn accumulator(&self, position: &Position) -> Accumulator {
        let mut accumulator = Accumulator([0; HIDDEN]);
        accumulator.0.copy_from_slice(&self.input_biases);
        for input in features(position) {
            accumulator.add(self.row(input));
        }
        accumulator
    }

    /// The output for `side` to move from an accumulator, in centi-soldiers from the defenders'
    /// point of view.
    #[inline]
    pub fn output(&self, accumulator: &Accumulator, side: Side) -> i32 {
        let head = match side {
            Side::Attackers => 0,
            Side::Defenders => 1,
        };
        let weights = &self.output_weights[head * HIDDEN..(head + 1) * HIDDEN];
        let mut sum = 0i32;
        for (&value, &weight) in accumulator.0.iter().zip(weights) {
            let activation = i32::from(value.clamp(0, QA as i16));
            sum += activation * i32::from(weight);
        }
        let total = i64::from(sum) + i64::from(self.output_biases[head]);
        (total * i64::from(self.scale) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of `position` from the side to move's point of view, in centi-soldiers,
    /// computed from scratch (the search updates its accumulators move by move instead), the
    /// hand-written evaluation included where the network adds to it.
    pub fn evaluate(&self, position: &Position) -> i32 {
        let side = position.side_to_move();
        let defenders_view = self.output(&self.accumulator(position), side);
        let own_view = match side {
            Side::Defenders => defenders_view,
            Side::Attackers => -defenders_view,
        };
        if self.adds_hand_written {
            own_view + super::eval::evaluate(position, &super::eval::EvalWeights::DEFAULT).0
        } else {
            own_view
        }
    }
}

/// The hidden layer's sums before the activation, for one position.
#[derive(Clone, PartialEq, Eq, Debug)]
#[repr(align(64))]
pub struct Accumulator([i16; HIDDEN]);

impl Accumulator {
    #[inline]
    fn add(&mut self, row: &[i16; HIDDEN]) {
        for (sum, &weight) in self.0.iter_mut().zip(row) {
            *sum = sum.wrapping_add(weight);
        }
    }

    #[inline]
    fn sub(&mut self, row: &[i16; HIDDEN]) {
        for (sum, &weight) in self.0.iter_mut().zip(row) {
            *sum = sum.wrapping_sub(weight);
        }
    }

    /// Turns the accumulator of `before` into that of `after`, by the pieces that left and came:
    /// the same as [`Network::accumulator`] of `after`, for a few rows' work when a move lies
    /// between them. (The sums are exact in `i16`: [`MAX_INPUT_WEIGHT`] bounds every partial
    /// sum of a real board.)
    #[inline]
    pub fn update(&mut self, network: &Network, before: &Position, after: &Position) {
        for kind in PieceKind::ALL {
            let (old, new) = (kind.squares(before), kind.squares(after));
            for square in old - new {
                self.sub(network.row(feature_index(kind, square)));
            }
            for square in new - old {
                self.add(network.row(feature_index(kind, square)));
            }
        }
    }
}

/// The kinds of game a built-in network is trained for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Family {
    /// Corner-escape games on 11x11 boards: Copenhagen, Fetlar and their relatives.
    Corner11,
    /// This project's Tablut (the classic rules on 9x9, edge escape).
    Edge9,
    /// This project's Tawlbwrdd (the classic rules on 11x11, edge escape).
    Edge11,
    /// Corner-escape games on 7x7 boards: Brandub, hnefatafl.org's Brandubh.
    Corner7,
}

impl Family {
    /// The family of games under `rules`, if a network could be trained for it.
    ///
    /// ```
    /// use tafl_engine::Variant;
    /// use tafl_engine::search::nnue::Family;
    /// assert_eq!(Family::of(Variant::tablut().rules()), Some(Family::Edge9));
    /// assert_eq!(Family::of(Variant::brandub().rules()), Some(Family::Corner7));
    /// // OpenTafl's Tablut plays other rules than this project's.
    /// assert_eq!(Family::of(Variant::opentafl_tablut().rules()), None);
    /// ```
    pub fn of(rules: Rules) -> Option<Family> {
        match (rules.escape(), rules.size()) {
            (Escape::Corner, 11) => Some(Family::Corner11),
            (Escape::Corner, 7) => Some(Family::Corner7),
            _ if rules.is_classic() && rules.size() == 9 => Some(Family::Edge9),
            _ if rules.is_classic() && rules.size() == 11 => Some(Family::Edge11),
            _ => None,
        }
    }

    /// The family's name, which is also its network file's (`src/search/networks/NAME.nnue`).
    pub fn name(self) -> &'static str {
        match self {
            Family::Corner11 => "corner-11",
            Family::Edge9 => "edge-9",
            Family::Edge11 => "edge-11",
            Family::Corner7 => "corner-7",
        }
    }
}

/// The networks compiled into the library, by family, with their files
/// (`src/search/networks/`). A family without one plays with the hand-written evaluation.
/// Each was trained by `scripts/train-nnue.sh NAME` from self-play (docs/nnue.md); the file
/// `NAME.txt` beside it records the commands, the data and the trainer's report.
const BUILT_IN: &[(Family, &[u8])] = &[
    (Family::Corner11, include_bytes!("networks/corner-11.nnue")),
    (Family::Edge9, include_bytes!("networks/edge-9.nnue")),
    (Family::Edge11, include_bytes!("networks/edge-11.nnue")),
    (Family::Corner7, include_bytes!("networks/corner-7.nnue")),
];

/// The built-in network that plays games under `rules`, if there is one (see [`Family`]);
/// games without one play with the hand-written evaluation.
pub fn network_for(rules: Rules) -> Option<Arc<Network>> {
    static LOADED: OnceLock<Vec<(Family, Arc<Network>)>> = OnceLock::new();
    let family = Family::of(rules)?;
    LOADED
        .get_or_init(|| {
            // A built-in file that does not read is caught by the tests; a build with one
            // would play that family with the hand-written evaluation rather than stop.
            BUILT_IN
                .iter()
                .filter_map(|&(family, bytes)| {
                    Network::from_bytes(bytes)
                        .ok()
                        .map(|network| (family, Arc::new(network)))
                })
                .collect()
        })
        .iter()
        .find(|(of, _)| *of == family)
        .map(|(_, network)| Arc::clone(network))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    /// A small deterministic network with weights all over their range.
    fn pseudo_random_network() -> Network {
        let mut state = 0x1234_5678_9abc_def1u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0
        };
        let float = FloatNetwork {
            input_weights: (0..INPUTS * HIDDEN).map(|_| next() * 1.2).collect(),
            input_biases: (0..HIDDEN).map(|_| next()).collect(),
            output_weights: (0..2 * HIDDEN).map(|_| next() * 9.0).collect(),
            output_biases: [next(), next()],
            scale: 180.0,
            adds_hand_written: true,
            description: "test".to_string(),
        };
        Network::quantize(&float)
    }

    #[test]
    fn every_built_in_network_reads_and_serves_its_family() {
        for &(family, bytes) in BUILT_IN {
            let network = Network::from_bytes(bytes).expect("a built-in network reads");
            assert!(network.scale() > 0);
            let rules = match family {
                Family::Corner11 => Variant::copenhagen().rules(),
                Family::Edge9 => Variant::tablut().rules(),
                Family::Edge11 => Variant::tawlbwrdd().rules(),
                Family::Corner7 => Variant::brandub().rules(),
            };
            assert_eq!(Family::of(rules), Some(family));
            assert_eq!(network_for(rules).as_deref(), Some(&network));
        }
        let family_of = |variant: Variant| Family::of(variant.rules());
        assert_eq!(family_of(Variant::copenhagen()), Some(Family::Corner11));
        assert_eq!(family_of(Variant::fetlar()), Some(Family::Corner11));
        assert_eq!(family_of(Variant::tablut()), Some(Family::Edge9));
        assert_eq!(family_of(Variant::tawlbwrdd()), Some(Family::Edge11));
        assert_eq!(family_of(Variant::brandub()), Some(Family::Corner7));
        assert_eq!(
            family_of(Variant::hnefatafl_org_brandubh()),
            Some(Family::Corner7)
        );
        for other in [
            Variant::opentafl_tablut(),
            Variant::opentafl_tawlbwrdd(),
            Variant::ashton(),
        ] {
            assert_eq!(Family::of(other.rules()), None, "{}", other.name());
        }
    }

    #[test]
    fn a_network_file_reads_back_and_damage_is_caught() {
        let network = pseudo_random_network();
        let bytes = network.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).as_ref(), Ok(&network));
        // Every cut is refused, none panics.
        for length in (0..bytes.len()).step_by(997) {
            assert!(Network::from_bytes(&bytes[..length]).is_err(), "{length}");
        }
        let mut flipped = bytes.clone();
        flipped[100] ^= 1;
        assert_eq!(Network::from_bytes(&flipped), Err(NetworkError::Checksum));
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            Network::from_bytes(&longer),
            Err(NetworkError::TrailingBytes(1))
        );
    }

    #[test]
    fn the_incremental_accumulator_equals_the_one_from_scratch() {
        let network = pseudo_random_network();
        let starts = [
            Variant::copenhagen().start(),
            Variant::fetlar().start(),
            Variant::brandub().start(),
            Position::tawlbwrdd(),
        ];
        let positions = crate::test_support::positions_along_random_games(&starts, 6, 120, 77);
        for pair in positions.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            let mut accumulator = network.accumulator(before);
            accumulator.update(&network, before, after);
            assert_eq!(accumulator, network.accumulator(after), "{after:?}");
        }
    }

    #[test]
    fn the_integer_output_is_the_float_network_on_representable_weights() {
        // Weights on the integer grid (multiples of 1/QA, 1/QB, 1/(QA × QB)) lose nothing to
        // quantization: the integer network must give the float network's output, but for the
        // last division's truncation.
        let mut state = 99u64;
        let mut next = move |range: i64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            ((state >> 33) as i64 % (2 * range + 1)) - range
        };
        let qa = f64::from(QA);
        let qb = f64::from(QB);
        let input_weights: Vec<f64> = (0..INPUTS * HIDDEN).map(|_| next(40) as f64 / qa).collect();
        let input_biases: Vec<f64> = (0..HIDDEN).map(|_| next(100) as f64 / qa).collect();
        let output_weights: Vec<f64> = (0..2 * HIDDEN).map(|_| next(200) as f64 / qb).collect();
        let output_biases = [next(5000) as f64 / (qa * qb), next(5000) as f64 / (qa * qb)];
        let float = FloatNetwork {
            input_weights: input_weights.iter().map(|&w| w as f32).collect(),
            input_biases: input_biases.iter().map(|&w| w as f32).collect(),
            output_weights: output_weights.iter().map(|&w| w as f32).collect(),
            output_biases: [output_biases[0] as f32, output_biases[1] as f32],
            scale: 200.0,
            adds_hand_written: false,
            description: String::new(),
        };
        let network = Network::quantize(&float);
        for position in crate::test_support::positions_along_random_games(
            &[Variant::copenhagen().start()],
            3,
            60,
            5,
        ) {
            let mut hidden = input_biases.clone();
            for input in features(&position) {
                for (h, sum) in hidden.iter_mut().enumerate() {
                    *sum += input_weights[input * HIDDEN + h];
                }
            }
            for side in Side::ALL {
                let head = side as usize;
                let logit: f64 = hidden
                    .iter()
                    .zip(&output_weights[head * HIDDEN..(head + 1) * HIDDEN])
                    .map(|(&x, &w)| x.clamp(0.0, 1.0) * w)
                    .sum::<f64>()
                    + output_biases[head];
                let exact = logit * 200.0;
                let integer = network.output(&network.accumulator(&position), side);
                assert!(
                    (exact - f64::from(integer)).abs() < 1.0 + 1e-6,
                    "{exact} against {integer}"
                );
            }
        }
    }

    #[test]
    fn a_search_keeps_its_accumulators_right() {
        // The search's lazy accumulators are checked against ones from scratch at every
        // evaluation by a debug assertion; these searches run through it (null moves, cuts,
        // quiescence) on middlegames of a game that has a network.
        use crate::game::Game;
        use crate::search::{Limits, SearchConfig, Searcher};
        let network = Arc::new(pseudo_random_network());
        let mut searcher = Searcher::new(SearchConfig {
            threads: 1,
            hash_mb: 1,
        });
        searcher.set_network(Some(network));
        let positions = crate::test_support::positions_along_random_games(
            &[Variant::copenhagen().start()],
            4,
            40,
            11,
        );
        for position in positions.iter().step_by(11) {
            if position.winner().is_some() {
                continue;
            }
            let game = Game::from_position(*position);
            let result = searcher.search(&game, &Limits::depth(3), |_| {});
            assert!(result.best_move.is_some());
        }
    }
}
