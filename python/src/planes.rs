//! Positions as planes of bytes, for learning code: `planes x size x size` per position, laid
//! out so that numpy can wrap the bytes without a copy. Every plane is 0 or 1 on each square
//! but the last two, which hold a count on every square.

use tafl_engine::{Bitboard, Escape, Game, Grid, Narrow, Position, Side};

/// The planes, in order. Each is `size x size` bytes, row 0 = rank 1, column 0 = file a.
pub const PLANES: [&str; 12] = [
    // The attacking soldiers.
    "attackers",
    // The defending soldiers (without the king).
    "defenders",
    // The king (all zero once he is captured).
    "king",
    // The throne: the castle of the classic rules (the centre), the `cen` squares of custom
    // rules (none in some games). Named `castle` since the first version.
    "castle",
    // All ones when the attackers are to move, all zeros when the defenders are.
    "attackers_to_move",
    // The corner squares that have rules of their own (none in the classic rules).
    "corners",
    // Where the king wins by arriving: every edge square, or the corners for corner escape.
    "escape",
    // Every square with rules of its own: throne, corners, forts, camps.
    "special",
    // Squares hostile to the attacking soldiers by their own rules now (not by a piece on them:
    // the empty castle, hostile corners, forts, camps).
    "hostile_to_attackers",
    // The same for the defending soldiers.
    "hostile_to_defenders",
    // How many times the current position has occurred in the game, itself included (1 the
    // first time), on every square; at most 255.
    "repetitions",
    // The plies played in the game (since its start or set-up position), on every square; at
    // most 255.
    "ply",
];

/// Bytes one position takes.
pub fn bytes_per_position(size: u8) -> usize {
    PLANES.len() * usize::from(size) * usize::from(size)
}

/// What the planes of one game show: its position, and the two counts from its history.
#[derive(Clone, Copy)]
pub struct Snapshot<B: Grid = Narrow> {
    pub position: Position<B>,
    pub repetitions: usize,
    pub ply: usize,
}

impl<B: Grid> Snapshot<B> {
    /// The current position of `game` with its counts.
    pub fn of(game: &Game<B>) -> Snapshot<B> {
        Snapshot {
            position: *game.position(),
            repetitions: game.repetitions(),
            ply: game.moves().len(),
        }
    }
}

/// Writes the planes of `snapshot` into `out`, which holds `bytes_per_position` bytes.
pub fn write<B: Grid>(snapshot: &Snapshot<B>, out: &mut [u8]) {
    let position = &snapshot.position;
    let rules = position.rules();
    let size = usize::from(rules.size());
    let area = size * size;
    out.fill(0);
    fn plane(out: &mut [u8], index: usize, area: usize) -> Option<&mut [u8]> {
        out.get_mut(index * area..(index + 1) * area)
    }
    let mark = |cells: Option<&mut [u8]>, set: Bitboard<B>| {
        let Some(cells) = cells else { return };
        for square in set {
            let cell = usize::from(square.y()) * size + usize::from(square.x());
            // Squares of a position and of its rules are on its board: the cell is in the plane.
            if let Some(byte) = cells.get_mut(cell) {
                *byte = 1;
            }
        }
    };
    mark(plane(out, 0, area), position.attackers());
    mark(plane(out, 1, area), position.defenders());
    mark(plane(out, 2, area), position.king_set());
    mark(plane(out, 3, area), rules.throne());
    if position.side_to_move() == Side::Attackers {
        if let Some(cells) = plane(out, 4, area) {
            cells.fill(1);
        }
    }
    mark(plane(out, 5, area), rules.corners());
    let escape = match rules.escape() {
        Escape::Edge => rules.edge(),
        Escape::Corner => rules.corners(),
    };
    mark(plane(out, 6, area), escape);
    mark(plane(out, 7, area), rules.special_squares());
    mark(
        plane(out, 8, area),
        position.hostile_squares(Side::Attackers),
    );
    mark(
        plane(out, 9, area),
        position.hostile_squares(Side::Defenders),
    );
    let count = |n: usize| u8::try_from(n).unwrap_or(u8::MAX);
    if let Some(cells) = plane(out, 10, area) {
        cells.fill(count(snapshot.repetitions));
    }
    if let Some(cells) = plane(out, 11, area) {
        cells.fill(count(snapshot.ply));
    }
}

/// A snapshot on the board type of its game.
#[derive(Clone, Copy)]
pub enum AnySnapshot {
    /// Of a game on a board up to 11x11.
    Narrow(Snapshot<Narrow>),
    /// Of a game on a board above 11x11.
    Wide(Snapshot<tafl_engine::Wide>),
}

impl AnySnapshot {
    /// The board's size.
    pub fn size(&self) -> u8 {
        match self {
            AnySnapshot::Narrow(snapshot) => snapshot.position.rules().size(),
            AnySnapshot::Wide(snapshot) => snapshot.position.rules().size(),
        }
    }

    /// Writes the planes into `out`, which holds `bytes_per_position(size)` bytes.
    pub fn write(&self, out: &mut [u8]) {
        match self {
            AnySnapshot::Narrow(snapshot) => write(snapshot, out),
            AnySnapshot::Wide(snapshot) => write(snapshot, out),
        }
    }
}
