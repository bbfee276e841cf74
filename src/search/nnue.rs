//! The learned evaluation: an efficiently updatable neural network (NNUE) over piece-square
//! inputs, with integer inference on the CPU.
//!
//! **Inputs.** One input a piece and square: three kinds of piece (the attacking soldiers, the
//! defending soldiers, the king), each on every square of the network's **grid**
//! ([`NetworkGrid`]), by the square's index ([`Square::index`]). A network of the narrow grid
//! has [`INPUTS`] = 3 × 121 inputs and reads every board up to 11x11 (the board type
//! [`Narrow`]); one of the wide grid has [`WIDE_INPUTS`] = 3 × 361 and reads the boards above
//! that, up to 19x19 (the board type [`Wide`]). [`feature_index`] numbers them. A position has
//! one active input a piece, and a move changes two to a few (the mover's from and to squares,
//! the captured pieces), so the first layer's sums, the *accumulator*, are updated by adding
//! and subtracting those rows instead of being computed again ([`Accumulator::update`]).
//!
//! **Layers.** `inputs → HIDDEN` (weights and biases in `i16`, scale [`QA`]), clipped ReLU to
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
//! exists for the rules; the hand-written evaluation ([`super::eval`]) plays otherwise. A network
//! plays only games of its own grid: a network given to a search of the other grid
//! (`Searcher::set_network`) is not used, the hand-written evaluation plays, and
//! [`Network::accumulator`], [`Network::evaluate`] and [`Accumulator::update`] refuse such a
//! position ([`NetworkError::Grid`]).
//!
//! A network may also be trained **on top of the hand-written evaluation**
//! ([`Network::adds_hand_written`]): its output is then a correction, and the search's score is
//! the hand-written evaluation (default weights) plus the network's.
//!
//! **File format** (little endian), what [`Network::to_bytes`] writes and
//! [`Network::from_bytes`] reads: the 8 bytes `TAFLNNUE`; `u32` format version (1); `u32`
//! inputs, hidden size, outputs (inputs [`INPUTS`] for a network of the narrow grid or
//! [`WIDE_INPUTS`] for one of the wide grid: the input count says the grid; hidden [`HIDDEN`];
//! outputs 2); `i32` scale (centi-soldiers a logit); `u32` flags (bit 0: on top of the
//! hand-written evaluation; no other bit may be set); `u32` length of a UTF-8 description, then
//! the description; the `HIDDEN` `i16` first-layer biases; the `inputs × HIDDEN` `i16`
//! first-layer weights, input by input; the `2 × HIDDEN` `i16` output weights (attackers to
//! move, then defenders); the two `i32` output biases; a `u64` FNV-1a hash of everything before
//! it. (The wide grid came later with the same version: a file of the narrow grid is what it
//! always was.)

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use thiserror::Error;

use crate::bitboard::Bitboard;
use crate::board::{GridBase, Narrow, Wide};
use crate::piece::Side;
use crate::play::Grid;
use crate::position::Position;
use crate::rules::{Escape, Rules};
use crate::square::Square;
use crate::variant::Variant;

use super::scale::ScoreScale;

/// Inputs of a network of the narrow grid: three kinds of piece (attacking soldier, defending
/// soldier, king) on each square of the 11-wide grid.
pub const INPUTS: usize = 3 * Narrow::GRID_SQUARES;

/// Inputs of a network of the wide grid: the three kinds of piece on each square of the
/// 19-wide grid.
pub const WIDE_INPUTS: usize = 3 * Wide::GRID_SQUARES;

/// Size of the hidden layer (the accumulator).
pub const HIDDEN: usize = 256;

/// Scale of the first layer's integer weights and of the clipped activations: a float weight
/// `w` is stored as `round(w × QA)`, and an activation of 1.0 is `QA`.
pub const QA: i32 = 255;

/// Scale of the output layer's integer weights: a float weight `w` is stored as `round(w × QB)`.
pub const QB: i32 = 64;

/// The largest magnitude a first-layer float weight or bias may have, so that the sums of a
/// position of at most 121 pieces (a bias and 121 rows: every piece of an 11x11 board full, and
/// more than any built-in game of the wide grid starts with) can never leave `i16`:
/// 122 × 1.05 × 255 < 32 767. (A position of more pieces, which only a rules string of the wide
/// grid can set up, may wrap round: a wrong score, never a panic.)
pub const MAX_INPUT_WEIGHT: f32 = 1.05;

/// The largest magnitude an output float weight may have: 256 activations of at most `QA` times
/// a weight of at most `8 × QB` stay far inside `i32`.
pub const MAX_OUTPUT_WEIGHT: f32 = 8.0;

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
/// and biases of the larger grid's network, and the checksum. A larger file is refused before it
/// is read whole.
pub const MAX_FILE_BYTES: usize = 8
    + 7 * 4
    + MAX_DESCRIPTION_BYTES
    + 2 * (HIDDEN + WIDE_INPUTS * HIDDEN + OUTPUTS * HIDDEN)
    + 4 * OUTPUTS
    + 8;

/// The grid whose squares a network's inputs are: which board type's games it can play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NetworkGrid {
    /// The 11-wide grid ([`Narrow`]): boards up to 11x11, [`INPUTS`] inputs.
    Narrow,
    /// The 19-wide grid ([`Wide`]): boards above 11x11, up to 19x19, [`WIDE_INPUTS`] inputs.
    Wide,
}

impl NetworkGrid {
    /// The grid of the board type `B`.
    ///
    /// ```
    /// use tafl_engine::search::nnue::NetworkGrid;
    /// use tafl_engine::{Narrow, Wide};
    /// assert_eq!(NetworkGrid::of::<Narrow>(), NetworkGrid::Narrow);
    /// assert_eq!(NetworkGrid::of::<Wide>(), NetworkGrid::Wide);
    /// ```
    pub const fn of<B: GridBase>() -> NetworkGrid {
        if B::GRID_SQUARES == Narrow::GRID_SQUARES {
            NetworkGrid::Narrow
        } else {
            NetworkGrid::Wide
        }
    }

    /// Squares of the grid: 121 or 361.
    pub const fn squares(self) -> usize {
        match self {
            NetworkGrid::Narrow => Narrow::GRID_SQUARES,
            NetworkGrid::Wide => Wide::GRID_SQUARES,
        }
    }

    /// The grid's width, the stride of its square indices (`y * width + x`): 11 or 19.
    pub const fn width(self) -> usize {
        match self {
            NetworkGrid::Narrow => Narrow::MAX_SIZE as usize,
            NetworkGrid::Wide => Wide::MAX_SIZE as usize,
        }
    }

    /// Inputs of a network of the grid: [`INPUTS`] or [`WIDE_INPUTS`].
    pub const fn inputs(self) -> usize {
        3 * self.squares()
    }

    /// The grid whose networks have `inputs` inputs, if any.
    fn with_inputs(inputs: u32) -> Option<NetworkGrid> {
        [NetworkGrid::Narrow, NetworkGrid::Wide]
            .into_iter()
            .find(|grid| grid.inputs() as u64 == u64::from(inputs))
    }
}

impl std::fmt::Display for NetworkGrid {
    /// `11x11 grid` or `19x19 grid`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let width = self.width();
        write!(f, "{width}x{width} grid")
    }
}

/// The input a piece of `kind` on `square` switches on: `kind × squares + square.index()`,
/// where `kind` is 0 for an attacking soldier, 1 for a defending soldier, 2 for the king, and
/// `squares` is the grid's number of squares (121 on the narrow grid, 361 on the wide one).
///
/// ```
/// use tafl_engine::search::nnue::{feature_index, PieceKind, INPUTS, WIDE_INPUTS};
/// use tafl_engine::{Narrow, Square, Wide};
/// let e5: Square = "e5".parse().unwrap();
/// assert_eq!(feature_index(PieceKind::AttackingSoldier, e5), 48);
/// assert_eq!(feature_index(PieceKind::King, e5), 2 * 121 + 48);
/// assert!(feature_index::<Narrow>(PieceKind::King, "k11".parse().unwrap()) < INPUTS);
/// let wide_e5: Square<Wide> = "e5".parse().unwrap();
/// assert_eq!(feature_index(PieceKind::King, wide_e5), 2 * 361 + 4 * 19 + 4);
/// assert!(feature_index::<Wide>(PieceKind::King, "s19".parse().unwrap()) < WIDE_INPUTS);
/// ```
#[inline(always)]
pub fn feature_index<B: GridBase>(kind: PieceKind, square: Square<B>) -> usize {
    kind as usize * B::GRID_SQUARES + square.index().into()
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
    #[inline(always)]
    pub fn squares<B: Grid>(self, position: &Position<B>) -> Bitboard<B> {
        match self {
            PieceKind::AttackingSoldier => position.attackers(),
            PieceKind::DefendingSoldier => position.defenders(),
            PieceKind::King => position.king_set(),
        }
    }
}

/// The active inputs of `position` (one a piece), in increasing order, for a network of the
/// position's grid.
///
/// ```
/// use tafl_engine::{Position, Variant, Wide};
/// use tafl_engine::search::nnue::features;
/// let start = Position::tablut();
/// assert_eq!(features(&start).count(), 16 + 8 + 1);
/// let thirteen = Variant::<Wide>::hnefatafl_org_copenhagen_13().start();
/// assert_eq!(features(&thirteen).count(), 32 + 16 + 1);
/// ```
pub fn features<B: Grid>(position: &Position<B>) -> impl Iterator<Item = usize> + '_ {
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
        "the network has {inputs} inputs, {hidden} hidden and {outputs} outputs; this library plays {INPUTS} (11x11 grid) or {WIDE_INPUTS} (19x19 grid), {HIDDEN} and 2"
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
    /// The network reads the squares of one grid and the position is on the other (a network
    /// of 11x11 boards given a 13x13 game, or the reverse).
    #[error("the network reads the {network} and the game is on the {game}")]
    Grid {
        /// The network's grid.
        network: NetworkGrid,
        /// The position's grid.
        game: NetworkGrid,
    },
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
    /// The grid whose squares the inputs are: which games the network plays.
    pub grid: NetworkGrid,
    /// First-layer weights, `inputs × HIDDEN` (the grid's [`NetworkGrid::inputs`]), input by
    /// input (`[input * HIDDEN + hidden]`).
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
    grid: NetworkGrid,
    /// `grid.inputs()` rows of `HIDDEN` weights.
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
            .field("grid", &self.grid)
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
    /// Vectors of the wrong length are cut or padded with zeros to the shapes above (the input
    /// weights to those of the float network's grid).
    pub fn quantize(float: &FloatNetwork) -> Network {
        let sized = |values: &[f32], length: usize| {
            let mut out = values.to_vec();
            out.resize(length, 0.0);
            out
        };
        let input_weights = sized(&float.input_weights, float.grid.inputs() * HIDDEN)
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
            grid: float.grid,
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
        let grid = NetworkGrid::with_inputs(inputs)
            .filter(|_| (hidden as usize, outputs as usize) == (HIDDEN, OUTPUTS))
            .ok_or(NetworkError::Shape {
                inputs,
                hidden,
                outputs,
            })?;
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
        let input_weights = reader.i16s(grid.inputs() * HIDDEN, "first-layer weights")?;
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
            grid,
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
        let inputs = self.grid.inputs();
        let mut out = Vec::with_capacity(64 + self.description.len() + 2 * (inputs + 3) * HIDDEN);
        out.extend_from_slice(MAGIC);
        for value in [VERSION, inputs as u32, HIDDEN as u32, OUTPUTS as u32] {
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

    /// The grid whose squares the network reads: the board type of the games it plays.
    pub fn grid(&self) -> NetworkGrid {
        self.grid
    }

    /// Whether the network reads positions of the board type `B` (its grid is `B`'s).
    ///
    /// ```
    /// use tafl_engine::search::nnue::{network_for, Network, NetworkError, NetworkGrid};
    /// use tafl_engine::{Narrow, Variant, Wide};
    /// let copenhagen = network_for(Variant::copenhagen().rules()).unwrap();
    /// assert!(copenhagen.reads::<Narrow>() && !copenhagen.reads::<Wide>());
    /// let thirteen = Variant::<Wide>::hnefatafl_org_copenhagen_13().start();
    /// assert_eq!(
    ///     copenhagen.evaluate(&thirteen),
    ///     Err(NetworkError::Grid { network: NetworkGrid::Narrow, game: NetworkGrid::Wide })
    /// );
    /// ```
    pub fn reads<B: GridBase>(&self) -> bool {
        self.grid == NetworkGrid::of::<B>()
    }

    /// `Ok` when the network reads positions of the board type `B`, else why not.
    pub fn check_grid<B: GridBase>(&self) -> Result<(), NetworkError> {
        if self.reads::<B>() {
            Ok(())
        } else {
            Err(NetworkError::Grid {
                network: self.grid,
                game: NetworkGrid::of::<B>(),
            })
        }
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
        // Every input is a `feature_index` of a position on the network's grid (each caller
        // checks the grid: `accumulator`, `Accumulator::update`, and the search's evaluator keeps
        // no network of the other grid), so below `grid.inputs()`; the vector holds that many
        // rows.
        self.input_weights[start..start + HIDDEN]
            .try_into()
            .expect("a row of HIDDEN weights")
    }

    /// The accumulator of `position`, computed from its pieces, or [`NetworkError::Grid`] when
    /// the network reads the other grid.
    pub fn accumulator<B: Grid>(
        &self,
        position: &Position<B>,
    ) -> Result<Accumulator, NetworkError> {
        self.check_grid::<B>()?;
        Ok(self.accumulator_of(position))
    }

    /// The accumulator of `position`, whose grid the caller has checked to be the network's.
    pub(crate) fn accumulator_of<B: Grid>(&self, position: &Position<B>) -> Accumulator {
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
    /// hand-written evaluation included where the network adds to it; or
    /// [`NetworkError::Grid`] when the network reads the other grid.
    pub fn evaluate<B: Grid>(&self, position: &Position<B>) -> Result<i32, NetworkError> {
        let side = position.side_to_move();
        let defenders_view = self.output(&self.accumulator(position)?, side);
        let own_view = match side {
            Side::Defenders => defenders_view,
            Side::Attackers => -defenders_view,
        };
        Ok(if self.adds_hand_written {
            own_view + super::eval::evaluate(position, &super::eval::EvalWeights::DEFAULT).0
        } else {
            own_view
        })
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
    /// sum of a real board.) [`NetworkError::Grid`], the accumulator left as it was, when the
    /// positions are on the other grid than the network's.
    pub fn update<B: Grid>(
        &mut self,
        network: &Network,
        before: &Position<B>,
        after: &Position<B>,
    ) -> Result<(), NetworkError> {
        network.check_grid::<B>()?;
        self.update_of(network, before, after);
        Ok(())
    }

    /// [`Accumulator::update`] for positions whose grid the caller has checked to be the
    /// network's.
    #[inline]
    pub(crate) fn update_of<B: Grid>(
        &mut self,
        network: &Network,
        before: &Position<B>,
        after: &Position<B>,
    ) {
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
    /// Corner-escape games on 11x11 boards: Copenhagen, Fetlar and their relatives (the narrow
    /// grid).
    Corner11,
    /// This project's Tablut (the classic rules on 9x9, edge escape).
    Edge9,
    /// This project's Tawlbwrdd (the classic rules on 11x11, edge escape).
    Edge11,
    /// Corner-escape games on 7x7 boards: Brandub, hnefatafl.org's Brandubh.
    Corner7,
    /// Corner-escape games on 13x13 boards: hnefatafl.org's 13x13 Copenhagen and its relatives
    /// (the wide grid).
    Corner13,
    /// Sea Battle 13x13: OpenTafl's Sea Battle rules (escape to any edge, an unarmed king
    /// captured on four sides, no throne or corners) on a 13x13 board (the wide grid).
    Edge13,
}

impl Family {
    /// Every family, in the order of their declaration.
    pub const ALL: [Family; 6] = [
        Family::Corner11,
        Family::Edge9,
        Family::Edge11,
        Family::Corner7,
        Family::Corner13,
        Family::Edge13,
    ];

    /// The family of games under `rules`, if a network could be trained for it.
    ///
    /// ```
    /// use tafl_engine::search::nnue::Family;
    /// use tafl_engine::{Variant, Wide};
    /// assert_eq!(Family::of(Variant::copenhagen().rules()), Some(Family::Corner11));
    /// let thirteen = Variant::<Wide>::hnefatafl_org_copenhagen_13();
    /// assert_eq!(Family::of(thirteen.rules()), Some(Family::Corner13));
    /// assert_eq!(Family::of(Variant::tablut().rules()), Some(Family::Edge9));
    /// assert_eq!(Family::of(Variant::brandub().rules()), Some(Family::Corner7));
    /// // OpenTafl's Tablut plays other rules than this project's.
    /// assert_eq!(Family::of(Variant::opentafl_tablut().rules()), None);
    /// // Sea Battle's rules on 13x13, whatever the start.
    /// let sea_battle_13: Variant<Wide> = "dim:13 esc:e atkf:y ka:n nj:n cj:n cor: cen: \
    ///     start:/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4/"
    ///     .parse()?;
    /// assert_eq!(Family::of(sea_battle_13.rules()), Some(Family::Edge13));
    /// # Ok::<(), tafl_engine::RulesStringError<Wide>>(())
    /// ```
    pub fn of<B: Grid>(rules: Rules<B>) -> Option<Family> {
        let classic = rules.on::<Narrow>().is_ok_and(Rules::is_classic);
        match (rules.escape(), rules.size()) {
            (Escape::Corner, 7) => Some(Family::Corner7),
            (Escape::Corner, 11) => Some(Family::Corner11),
            (Escape::Corner, 13) => Some(Family::Corner13),
            (Escape::Edge, 9) if classic => Some(Family::Edge9),
            (Escape::Edge, 11) if classic => Some(Family::Edge11),
            (Escape::Edge, 13) if is_sea_battle(rules) => Some(Family::Edge13),
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
            Family::Corner13 => "corner-13",
            Family::Edge13 => "edge-13",
        }
    }

    /// The grid of the family's games, which its network reads: boards up to 11x11 are the
    /// narrow grid's, 13x13 the wide grid's.
    pub const fn grid(self) -> NetworkGrid {
        match self {
            Family::Corner11 | Family::Edge9 | Family::Edge11 | Family::Corner7 => {
                NetworkGrid::Narrow
            }
            Family::Corner13 | Family::Edge13 => NetworkGrid::Wide,
        }
    }
}

/// Whether `rules` are Sea Battle's (OpenTafl's 9x9 game) on a 13x13 board: what
/// [`Family::Edge13`] plays. Equal rules are one registered set, so this compares the rules
/// themselves, not their strings.
fn is_sea_battle<B: Grid>(rules: Rules<B>) -> bool {
    static SEA_BATTLE_13: OnceLock<Option<Rules<Wide>>> = OnceLock::new();
    let sea_battle_13 = SEA_BATTLE_13.get_or_init(|| {
        // Sea Battle's own rules string at 13x13 (tests/data/opentafl-wide.txt, whose counts
        // OpenTafl made); `None` only if the run has no room left for another rule set.
        "dim:13 esc:e atkf:y ka:n nj:n cj:n cor: cen: start:/13/13/13/13/13/13/6K6/13/13/13/13/13/13/"
            .parse::<Variant<Wide>>()
            .ok()
            .map(|variant| variant.rules())
    });
    rules.size() == 13 && *sea_battle_13 == rules.on::<Wide>().ok()
}

/// The networks compiled into the library, by family, with their files
/// (`src/search/networks/`). A family without one plays with the hand-written evaluation.
/// Each was trained by `scripts/train-nnue.sh NAME` from self-play (docs/nnue.md); the file
/// `NAME.txt` beside it records the commands, the data and the trainer's report. Beside each,
/// its shown scale: fitted by `nnue calibrate` to the network's own self-play (docs/search.md,
/// "The shown score"); a network replaced is calibrated again.
const BUILT_IN: &[(Family, &[u8], ScoreScale)] = &[
    (
        Family::Corner11,
        include_bytes!("networks/corner-11.nnue"),
        ScoreScale::new(623, 54),
    ),
    (
        Family::Edge9,
        include_bytes!("networks/edge-9.nnue"),
        ScoreScale::new(203, -15),
    ),
    (
        Family::Edge11,
        include_bytes!("networks/edge-11.nnue"),
        ScoreScale::new(387, -4),
    ),
    (
        Family::Corner7,
        include_bytes!("networks/corner-7.nnue"),
        ScoreScale::new(91, -36),
    ),
    // Trained on top of the hand-written evaluation (its output is added to the terms').
    (
        Family::Edge13,
        include_bytes!("networks/edge-13.nnue"),
        ScoreScale::new(2267, -27),
    ),
];

/// The shown scale of `family`'s built-in network, fitted to its self-play.
pub(crate) fn built_in_scale(family: Family) -> Option<ScoreScale> {
    BUILT_IN
        .iter()
        .find(|(of, ..)| *of == family)
        .map(|&(.., scale)| scale)
}

/// The built-in network that plays games under `rules`, if there is one (see [`Family`]);
/// games without one play with the hand-written evaluation. A network is only ever given to
/// games of its own grid: the 11x11 games of the wide grid (a rules string read for
/// `Variant<Wide>`) have none.
///
/// ```
/// use tafl_engine::search::nnue::{network_for, NetworkGrid};
/// use tafl_engine::{Variant, Wide};
/// let copenhagen = network_for(Variant::copenhagen().rules()).unwrap();
/// assert_eq!(copenhagen.grid(), NetworkGrid::Narrow);
/// let on_the_wide_grid = Variant::copenhagen().to_string().parse::<Variant<Wide>>().unwrap();
/// assert!(network_for(on_the_wide_grid.rules()).is_none());
/// assert!(network_for(Variant::opentafl_tablut().rules()).is_none());
/// ```
pub fn network_for<B: Grid>(rules: Rules<B>) -> Option<Arc<Network>> {
    static LOADED: OnceLock<Vec<(Family, Arc<Network>)>> = OnceLock::new();
    let family = Family::of(rules)?;
    LOADED
        .get_or_init(|| {
            // A built-in file that does not read, or reads another grid than its family's, is
            // caught by the tests; a build with one would play that family with the
            // hand-written evaluation rather than stop.
            BUILT_IN
                .iter()
                .filter_map(|&(family, bytes, _)| {
                    Network::from_bytes(bytes)
                        .ok()
                        .filter(|network| network.grid() == family.grid())
                        .map(|network| (family, Arc::new(network)))
                })
                .collect()
        })
        .iter()
        .find(|(of, network)| *of == family && network.reads::<B>())
        .map(|(_, network)| Arc::clone(network))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Features;

    /// A deterministic network of `grid` with weights all over their range.
    fn pseudo_random_network(grid: NetworkGrid) -> Network {
        let mut state = 0x1234_5678_9abc_def1u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0
        };
        let float = FloatNetwork {
            grid,
            input_weights: (0..grid.inputs() * HIDDEN).map(|_| next() * 1.2).collect(),
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
        for &(family, bytes, _) in BUILT_IN {
            let network = Network::from_bytes(bytes).expect("a built-in network reads");
            assert!(network.scale() > 0);
            assert_eq!(network.grid(), family.grid(), "{family:?}");
            let served = match family {
                Family::Corner11 => network_for(Variant::copenhagen().rules()),
                Family::Edge9 => network_for(Variant::tablut().rules()),
                Family::Edge11 => network_for(Variant::tawlbwrdd().rules()),
                Family::Corner7 => network_for(Variant::brandub().rules()),
                Family::Corner13 => {
                    network_for(Variant::<Wide>::hnefatafl_org_copenhagen_13().rules())
                }
                Family::Edge13 => network_for(sea_battle_13().rules()),
            };
            assert_eq!(served.as_deref(), Some(&network), "{family:?}");
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
        let thirteen = Variant::<Wide>::hnefatafl_org_copenhagen_13();
        assert_eq!(Family::of(thirteen.rules()), Some(Family::Corner13));
        assert_eq!(Family::of(sea_battle_13().rules()), Some(Family::Edge13));
        // Sea Battle's rules at other sizes, and other edge-escape 13x13 rules, have none.
        assert_eq!(Family::of(Variant::sea_battle().rules()), None);
        let armed_king: Variant<Wide> = sea_battle_13()
            .to_string()
            .replace("ka:n", "ka:y")
            .parse()
            .expect("the rules string reads");
        assert_eq!(Family::of(armed_king.rules()), None);
        for family in Family::ALL {
            let grid = family.grid();
            let wide = matches!(family, Family::Corner13 | Family::Edge13);
            assert_eq!(grid.width() >= 13, wide, "{family:?}");
        }
    }

    /// Sea Battle 13x13 as OpenTafl plays it (tests/data/opentafl-wide.txt).
    fn sea_battle_13() -> Variant<Wide> {
        "dim:13 name:Sea_Battle_(Parlett) esc:e atkf:y ka:n nj:n cj:n cor: cen: start:/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4/"
            .parse()
            .expect("Sea Battle 13x13's rules string reads")
    }

    #[test]
    fn the_built_in_11x11_network_reads_as_it_always_did() {
        // The file of before the wide grid: format version 1, 363 inputs, the narrow grid.
        let bytes = include_bytes!("networks/corner-11.nnue");
        assert_eq!(&bytes[8..16], &[1, 0, 0, 0, 0x6b, 1, 0, 0]);
        let network = Network::from_bytes(bytes).expect("the built-in network reads");
        assert_eq!(network.grid(), NetworkGrid::Narrow);
        assert_eq!(network.to_bytes(), bytes.to_vec());
    }

    #[test]
    fn a_network_file_reads_back_and_damage_is_caught() {
        for grid in [NetworkGrid::Narrow, NetworkGrid::Wide] {
            a_network_file_of_the_grid_reads_back_and_damage_is_caught(grid);
        }
    }

    fn a_network_file_of_the_grid_reads_back_and_damage_is_caught(grid: NetworkGrid) {
        let network = pseudo_random_network(grid);
        let bytes = network.to_bytes();
        assert_eq!(
            bytes.len(),
            8 + 7 * 4 + 4 + 2 * (grid.inputs() + 3) * HIDDEN + 8 + 8
        );
        assert!(bytes.len() <= MAX_FILE_BYTES);
        let read = Network::from_bytes(&bytes).expect("the file reads back");
        assert_eq!(read, network);
        assert_eq!(read.grid(), grid);
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
    fn a_network_of_another_shape_is_refused_by_its_input_count() {
        let mut bytes = pseudo_random_network(NetworkGrid::Narrow).to_bytes();
        // 3 × 169 inputs (a 13x13 board's squares): no grid of this library.
        bytes[12..16].copy_from_slice(&(3u32 * 169).to_le_bytes());
        assert_eq!(
            Network::from_bytes(&bytes),
            Err(NetworkError::Shape {
                inputs: 3 * 169,
                hidden: HIDDEN as u32,
                outputs: 2
            })
        );
        // A narrow file that says it is wide ends early; nothing panics.
        bytes[12..16].copy_from_slice(&(WIDE_INPUTS as u32).to_le_bytes());
        assert_eq!(
            Network::from_bytes(&bytes),
            Err(NetworkError::Truncated("first-layer weights"))
        );
    }

    #[test]
    fn a_network_refuses_positions_of_the_other_grid() {
        let narrow = pseudo_random_network(NetworkGrid::Narrow);
        let wide = pseudo_random_network(NetworkGrid::Wide);
        let copenhagen = Variant::copenhagen().start();
        let thirteen = Variant::<Wide>::hnefatafl_org_copenhagen_13().start();
        let refused = |network: NetworkGrid, game: NetworkGrid| {
            Err::<i32, _>(NetworkError::Grid { network, game })
        };
        assert_eq!(
            narrow.evaluate(&thirteen),
            refused(NetworkGrid::Narrow, NetworkGrid::Wide)
        );
        assert_eq!(
            wide.evaluate(&copenhagen),
            refused(NetworkGrid::Wide, NetworkGrid::Narrow)
        );
        assert!(narrow.accumulator(&thirteen).is_err());
        assert!(wide.accumulator(&copenhagen).is_err());
        assert!(narrow.evaluate(&copenhagen).is_ok() && wide.evaluate(&thirteen).is_ok());
        assert_eq!(
            narrow.check_grid::<Wide>().map_err(|e| e.to_string()),
            Err("the network reads the 11x11 grid and the game is on the 19x19 grid".to_string())
        );
        // An update on the other grid is refused, the sums left alone.
        let mut sums = narrow.accumulator_of(&copenhagen);
        let after = crate::test_support::positions_along_random_games(&[thirteen], 1, 1, 3)[1];
        assert_eq!(
            sums.update(&narrow, &thirteen, &after),
            Err(NetworkError::Grid {
                network: NetworkGrid::Narrow,
                game: NetworkGrid::Wide
            })
        );
        assert_eq!(sums, narrow.accumulator_of(&copenhagen));
    }

    #[test]
    fn a_searcher_given_a_network_of_the_other_grid_plays_hand_written() {
        use crate::game::Game;
        use crate::search::{Limits, SearchConfig, Searcher};
        let thirteen = Game::new(&Variant::<Wide>::hnefatafl_org_copenhagen_13());
        let copenhagen = Game::new(&Variant::copenhagen());
        let mut searcher = Searcher::new(SearchConfig {
            threads: 1,
            hash_mb: 1,
        });
        // Each search from an empty table, so that equal evaluations search equal trees.
        searcher.set_features(Features {
            learned_eval: false,
            ..Features::default()
        });
        searcher.clear();
        let thirteen_hand = searcher.search(&thirteen, &Limits::depth(3), |_| {});
        searcher.clear();
        let copenhagen_hand = searcher.search(&copenhagen, &Limits::depth(3), |_| {});
        searcher.set_features(Features::default());
        searcher.set_network(Some(Arc::new(pseudo_random_network(NetworkGrid::Narrow))));
        searcher.clear();
        let thirteen_narrow = searcher.search(&thirteen, &Limits::depth(3), |_| {});
        searcher.set_network(Some(Arc::new(pseudo_random_network(NetworkGrid::Wide))));
        searcher.clear();
        let copenhagen_wide = searcher.search(&copenhagen, &Limits::depth(3), |_| {});
        for (given, hand) in [
            (&thirteen_narrow.score, &thirteen_hand.score),
            (&copenhagen_wide.score, &copenhagen_hand.score),
        ] {
            assert_eq!(given, hand);
        }
        assert_eq!(thirteen_narrow.nodes, thirteen_hand.nodes);
        assert_eq!(copenhagen_wide.nodes, copenhagen_hand.nodes);
        assert_eq!(thirteen_narrow.best_move, thirteen_hand.best_move);
        assert_eq!(copenhagen_wide.best_move, copenhagen_hand.best_move);
    }

    #[test]
    fn the_incremental_accumulator_equals_the_one_from_scratch() {
        let network = pseudo_random_network(NetworkGrid::Narrow);
        let starts = [
            Variant::copenhagen().start(),
            Variant::fetlar().start(),
            Variant::brandub().start(),
            Position::tawlbwrdd(),
        ];
        let positions = crate::test_support::positions_along_random_games(&starts, 6, 120, 77);
        for pair in positions.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            let mut accumulator = network.accumulator_of(before);
            accumulator.update_of(&network, before, after);
            assert_eq!(accumulator, network.accumulator_of(after), "{after:?}");
        }
    }

    #[test]
    fn the_incremental_accumulator_equals_the_one_from_scratch_on_the_wide_grid() {
        let network = pseudo_random_network(NetworkGrid::Wide);
        // hnefatafl.org's 13x13 game, and the starts and midgames of OpenTafl's 13x13, 15x15
        // and 19x19 games (their rules and captures differ).
        let mut starts = vec![Variant::<Wide>::hnefatafl_org_copenhagen_13().start()];
        starts.extend(
            include_str!("../../tests/data/opentafl-wide.txt")
                .lines()
                .filter_map(|line| line.strip_prefix("rules "))
                .filter_map(|rules| rules.parse::<Variant<Wide>>().ok())
                .map(|variant| variant.start()),
        );
        assert!(starts.len() >= 10, "{} wide starts", starts.len());
        assert!(starts.iter().any(|start| start.rules().size() == 19));
        let positions = crate::test_support::positions_along_random_games(&starts, 2, 150, 78);
        let mut captures = 0;
        for pair in positions.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            captures += usize::from(after.occupied().count() < before.occupied().count());
            let mut accumulator = network.accumulator(before).expect("a wide position");
            accumulator
                .update(&network, before, after)
                .expect("a wide network");
            assert_eq!(
                accumulator,
                network.accumulator_of(after),
                "{}",
                crate::notation::position_record(after)
            );
        }
        assert!(captures > 10, "{captures} captures");
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
            grid: NetworkGrid::Narrow,
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
                let integer = network.output(&network.accumulator_of(&position), side);
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
        let mut searcher = Searcher::new(SearchConfig {
            threads: 1,
            hash_mb: 1,
        });
        searcher.set_network(Some(Arc::new(pseudo_random_network(NetworkGrid::Narrow))));
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
        // The same on the wide grid, with a network of it.
        searcher.set_network(Some(Arc::new(pseudo_random_network(NetworkGrid::Wide))));
        let positions = crate::test_support::positions_along_random_games(
            &[Variant::<Wide>::hnefatafl_org_copenhagen_13().start()],
            3,
            40,
            12,
        );
        for position in positions.iter().step_by(13) {
            if position.winner().is_some() {
                continue;
            }
            let game = Game::from_position(*position);
            let result = searcher.search(&game, &Limits::depth(3), |_| {});
            assert!(result.best_move.is_some());
        }
    }
}
