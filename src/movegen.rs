//! Legal move generation and counting (R5-R7).
//!
//! Listing works piece by piece. A piece's rank, and its file (gathered from the board, or read
//! from the transposed [view](crate::views) where perft keeps one), each fit in 11 bits, and one
//! table look-up by the line's occupancy gives how far the piece slides each way along it. The
//! squares it reaches on a line are one unbroken stretch on either side of it, so their moves are
//! one run of a precomputed table (the moves from the square to every other square of the line,
//! in the line's order): the run is copied as a whole block of [`BLOCK`] moves and the list's
//! length then grows by the number of moves really made. No loop over squares, and no branch the
//! processor must guess other than the loop over the pieces. The empty castle (R6: nobody stops
//! there) is cut out of a stretch that passes over it (R7) on a rarely taken path.
//!
//! Counting needs no list at all. From the position alone, [`Bitboard::slides`] finds every
//! square all the pieces reach one way at once, and popcounts count them ([`count`]). Perft keeps
//! the board's views in step beside each position: in each view one addition finds every square
//! reached sliding that way, so counting its last ply is four additions and four popcounts
//! ([`count_with_views`], [`count_after_quiet_move`]).

use crate::bitboard::for_each_index;
use crate::bitboard::{Bitboard, Direction};
use crate::moves::{BLOCK, MOVE_LIST_CAPACITY, Move, MoveList};
use crate::piece::Side;
use crate::position::Position;
use crate::rules::RuleGrid;
use crate::rules::custom::{CAMP_START, Class, LineBits, RuleSet, START_KINDS, SquareKind};
use crate::square::{MAX_BOARD_SIZE, Square};
use crate::views::{self, SideViews, View};

pub(crate) mod stepwise;

/// Number of squares on the 11-wide grid.
const GRID_SQUARES: usize = (MAX_BOARD_SIZE as usize) * (MAX_BOARD_SIZE as usize);

/// Squares in a line (rank or file) of the grid.
const LINE: usize = MAX_BOARD_SIZE as usize;

/// The bits of one line of the grid.
const LINE_BITS: u32 = (1 << LINE) - 1;

/// Entries of a line's table: the 10 other squares of the line, then room for a block that starts
/// at any of the first 16 entries (so that a start masked to 4 bits needs no bounds check).
const LINE_TABLE: usize = 2 * BLOCK;

/// A placeholder move for the unused entries of the tables.
const NO_MOVE: Move = Move::new(Square::A1, Square::A1);

/// File and rank of each square of the grid (cheaper to look up than to divide by 11).
static COORDINATES: [[u8; 2]; GRID_SQUARES] = {
    let mut table = [[0; 2]; GRID_SQUARES];
    let mut index = 0;
    while index < GRID_SQUARES {
        table[index] = [(index % LINE) as u8, (index / LINE) as u8];
        index += 1;
    }
    table
};

/// For each square and each line through it (0: its rank, west to east; 1: its file, south to
/// north), the moves from the square to the other squares of the line in the line's order (the
/// square itself left out), then placeholders. Entry `i` leads to the square at place `i` of the
/// line if `i` is below the square's own place, else to place `i + 1`.
static LINE_MOVES: [[[Move; LINE_TABLE]; 2]; GRID_SQUARES] = {
    let mut table = [[[NO_MOVE; LINE_TABLE]; 2]; GRID_SQUARES];
    let mut index = 0;
    while index < GRID_SQUARES {
        let (x, y) = (index % LINE, index / LINE);
        let mut line = 0;
        while line < 2 {
            let at = if line == 0 { x } else { y };
            let mut entry = 0;
            while entry < LINE - 1 {
                let along = if entry < at { entry } else { entry + 1 };
                let (to_x, to_y) = if line == 0 { (along, y) } else { (x, along) };
                if let (Some(from), Some(to)) = (
                    Square::from_index(index as u8),
                    Square::new(to_x as u8, to_y as u8),
                ) {
                    table[index][line][entry] = Move::new(from, to);
                }
                entry += 1;
            }
            line += 1;
        }
        index += 1;
    }
    table
};

/// The first `SIZE` lines of a set given in a view's bits (the others are left empty: no piece
/// stands on them): line `k` is bits `11k..11k+11`. In the board's own bits these are the ranks
/// (bit `x` of rank `y`); in the transposed view, the files (bit `y` of file `x`).
#[inline(always)]
fn lines_of<const SIZE: usize>(set: u128) -> [u32; LINE] {
    let mut lines = [0; LINE];
    for (k, line) in lines.iter_mut().enumerate().take(SIZE) {
        *line = (set >> (k * LINE)) as u32 & LINE_BITS;
    }
    lines
}

/// The first `SIZE` files of a set (bit `y` of file `x`; the others are left empty: no piece
/// stands on them). On a board of 9 or fewer ranks, ranks 9 and 10 are off it, so they are given
/// as blocked rather than read.
///
/// A file's squares are 11 bits apart. Shifted down by `x`, ranks 0-5 of file `x` sit at bits
/// `0, 11, .. 55` of the low 64 bits and ranks 6-10 at the same bits 66 places higher. Times
/// `GATHER`, the bit at `11k` lands at `50 + k`, and every other product of the two lands on
/// a bit of its own outside bits 50-55 (`50 + k + 10 (k - j)` for `j != k`), so nothing carries:
/// two multiplications a file. On a board of at most 9 ranks one does: ranks 6-8, moved up to
/// bits `6, 17, 28` (`11j + 6`), land at bits 56-58, and no two of the 54 products of the nine
/// bits with `GATHER` share a bit (checked by the tests against a bit-by-bit gather).
#[inline(always)]
fn files_of<const SIZE: usize>(set: Bitboard) -> [u32; LINE] {
    const RANKS_0_TO_5: u64 = 1 | 1 << 11 | 1 << 22 | 1 << 33 | 1 << 44 | 1 << 55;
    const RANKS_6_TO_8: u64 = (1 | 1 << 11 | 1 << 22) << 6;
    const GATHER: u64 = 1 << 50 | 1 << 40 | 1 << 30 | 1 << 20 | 1 << 10 | 1;
    const RANKS_9_AND_10: u32 = 0b110_0000_0000;
    let mut files = [0; LINE];
    if SIZE <= 9 {
        // Ranks 6-8 of every file, moved 6 places up: the shift drops the high word's top 6
        // bits, but ranks 6-8 of files 0-8 use only its bits 0 to 8 + 22.
        let (low, high) = (set.0 as u64, ((set.0 >> 66) as u64) << 6);
        for (x, file) in files.iter_mut().enumerate().take(SIZE) {
            let ranks = (low >> x & RANKS_0_TO_5) | (high >> x & RANKS_6_TO_8);
            *file = (ranks.wrapping_mul(GATHER) >> 50) as u32 & 0x1ff | RANKS_9_AND_10;
        }
    } else {
        let gather = |bits: u64| ((bits & RANKS_0_TO_5).wrapping_mul(GATHER) >> 50) as u32 & 0x3f;
        for (x, file) in files.iter_mut().enumerate().take(SIZE) {
            let column = set.0 >> x;
            *file = gather(column as u64) | gather((column >> 66) as u64) << 6;
        }
    }
    files
}

/// The squares a piece at place `at` of a line reaches along it, as a run of the line's table.
#[derive(Clone, Copy)]
struct Stretch {
    /// The table entry of the farthest square it reaches towards lower places (or, if it cannot
    /// move that way, of the first square towards higher places).
    start: u32,
    /// How many squares it reaches both ways together.
    length: u32,
}

impl Stretch {
    /// The stretch of the piece at place `at` of a line whose `blocked` bits are the occupied
    /// places and every place past the end of the board (only the line's 11 bits are read).
    #[inline(always)]
    fn of(blocked: u32, at: u32) -> Stretch {
        let entry = STRETCHES
            .get(at as usize)
            .and_then(|by_line| by_line.get((blocked & LINE_BITS) as usize))
            .copied()
            .unwrap_or(0); // Not reached: `at` is below 11 and the index has 11 bits.
        Stretch {
            start: u32::from(entry & 0xff),
            length: u32::from(entry >> 8),
        }
    }

    /// The entry of a line's table that leads to place `to`, for a piece at place `at`.
    #[inline(always)]
    const fn entry(at: u32, to: u32) -> u32 {
        if to < at { to } else { to - 1 }
    }

    /// Whether the stretch of the piece at place `at` reaches place `to` (another place).
    #[inline(always)]
    fn reaches(self, at: u32, to: u32) -> bool {
        let entry = Stretch::entry(at, to);
        entry >= self.start && entry < self.start + self.length
    }

    /// What [`Stretch::of`] looks up, computed: zero bits counted either side of `at`.
    const fn compute(blocked: u32, at: u32) -> Stretch {
        let up = (blocked >> (at + 1)).trailing_zeros();
        // The place just above the highest blocked place below `at`; 0 if there is none.
        let start = 32 - (blocked & ((1 << at) - 1)).leading_zeros();
        Stretch {
            start,
            length: at - start + up,
        }
    }
}

/// For each place `at` of a line and each set of blocked places of the line (11 bits, the piece's
/// own place among them, and the places past a smaller board's edge): its stretch,
/// `start | length << 8`. One look-up instead of two bit
/// counts; on a 9x9 board only the 512 sets with places 9 and 10 blocked are used (11 KB).
static STRETCHES: [[u16; 1 << LINE]; LINE] = {
    let mut table = [[0; 1 << LINE]; LINE];
    let mut at = 0;
    while at < LINE {
        let mut blocked = 0;
        while blocked < 1 << LINE {
            // Bits past the line stay blocked, as on the board.
            let stretch = Stretch::compute(blocked as u32 | !LINE_BITS | 1 << at, at as u32);
            table[at][blocked] = (stretch.start | stretch.length << 8) as u16;
            blocked += 1;
        }
        at += 1;
    }
    table
};

/// The list being filled: the whole buffer of a [`MoveList`] and the number of moves in it,
/// kept in a register while the generator runs.
struct Writer<'a> {
    buffer: &'a mut [Move; MOVE_LIST_CAPACITY],
    len: usize,
}

impl Writer<'_> {
    /// Appends the moves of `stretch` from the line's table `line`.
    #[inline(always)]
    fn push_stretch(&mut self, line: &[Move; LINE_TABLE], stretch: Stretch) {
        let start = stretch.start as usize % BLOCK; // at most 10 already
        // The block always exists (`start` is at most 10) and always fits (a list being filled
        // holds at most MAX_LEGAL_MOVES moves, and has BLOCK more places); the length only counts
        // the moves really made.
        if let (Some(block), Some(place)) = (
            line.get(start..start + BLOCK),
            self.buffer.get_mut(self.len..self.len + BLOCK),
        ) {
            place.copy_from_slice(block);
            self.len += stretch.length as usize;
        }
    }

    /// `push_stretch` for a line through the empty castle at place `castle` (R6, R7), `at` being
    /// the piece's place: the move to the castle, if the stretch reaches it, is cut out and the
    /// moves beyond it close up.
    #[inline(always)]
    fn push_stretch_over_castle(
        &mut self,
        line: &[Move; LINE_TABLE],
        stretch: Stretch,
        at: u32,
        castle: u32,
    ) {
        let before = self.len;
        self.push_stretch(line, stretch);
        if !stretch.reaches(at, castle) {
            return;
        }
        let entry = Stretch::entry(at, castle);
        let cut = before + (entry - stretch.start) as usize;
        let rest = entry as usize + 1;
        if let (Some(block), Some(place)) = (
            line.get(rest..rest + BLOCK),
            self.buffer.get_mut(cut..cut + BLOCK),
        ) {
            place.copy_from_slice(block);
            self.len -= 1;
        }
    }

    /// The moves of a piece at place `at` (`[x, y]`) whose rank or file passes through the
    /// empty `castle`, from its two line tables. Compiled into its own loop (a call per piece
    /// cost a third of the listing when half the pieces stand on the castle's lines; measured).
    #[inline(always)]
    fn push_stretches_by_castle(
        &mut self,
        line_moves: &[[Move; LINE_TABLE]; 2],
        stretches: [Stretch; 2],
        at: [u32; 2],
        castle: Square,
    ) {
        let castle = [u32::from(castle.x()), u32::from(castle.y())];
        // Line 0 is the rank (its places are files), line 1 the file (places are ranks): the
        // castle is on the piece's rank if they share the other coordinate.
        for line in 0..2 {
            let other = 1 - line;
            if at[other] == castle[other] {
                self.push_stretch_over_castle(
                    &line_moves[line],
                    stretches[line],
                    at[line],
                    castle[line],
                );
            } else {
                self.push_stretch(&line_moves[line], stretches[line]);
            }
        }
    }
}

/// What listing needs of a position: the blocked places of every rank and file (the occupied
/// squares and the squares past the edge of a smaller board), and the pieces of the side to move
/// split into those that cannot pass the empty castle and those that may (on its rank or file,
/// R7) but must not stop there (R6).
struct Lines {
    ranks: [u32; LINE],
    files: [u32; LINE],
    /// Pieces of the side to move off the empty castle's lines (all of them if it is occupied).
    plain: u128,
    /// Pieces of the side to move on the empty castle's rank or file.
    by_castle: u128,
    /// The castle.
    castle: Square,
}

impl Lines {
    /// `files` gives the files of [`Lines::blocked`] (`files_of`, or the transposed view's lines
    /// with the same squares added). It is called here, after the ranks are taken, so that the
    /// files go straight into place: built before and passed in, they were copied (measured).
    #[inline(always)]
    fn new<const SIZE: usize>(position: &Position, files: impl FnOnce() -> [u32; LINE]) -> Lines {
        let geometry = position.rules().geometry();
        let movers = position.pieces(position.side_to_move()).0;
        let by_castle = if (position.occupied() & geometry.castle).any() {
            0
        } else {
            movers & geometry.castle_lines.0
        };
        Lines {
            ranks: lines_of::<SIZE>(Lines::blocked(position).0),
            files: files(),
            plain: movers & !by_castle,
            by_castle,
            castle: geometry.castle_square,
        }
    }

    /// The squares that stop a slide: the occupied ones and those off the board. (The set of
    /// squares off a square board is its own transpose, so the same squares block files in the
    /// transposed view.)
    #[inline(always)]
    fn blocked(position: &Position) -> Bitboard {
        position.occupied() | !position.rules().geometry().board
    }

    /// The piece on square `index`: its file and rank, and its stretches along its rank and its
    /// file. `None` only for an index off the grid (never given).
    #[inline(always)]
    fn stretches(&self, index: usize) -> Option<([u32; 2], [Stretch; 2])> {
        let &[x, y] = COORDINATES.get(index)?;
        let rank = *self.ranks.get(usize::from(y))?;
        let file = *self.files.get(usize::from(x))?;
        let (x, y) = (u32::from(x), u32::from(y));
        Some(([x, y], [Stretch::of(rank, x), Stretch::of(file, y)]))
    }
}

/// Appends every legal move of the side to move, given the files of the occupied squares:
/// piece by piece in square order, each along its rank west to east, then along its file south
/// to north. Only the first `SIZE` ranks and files are read: the board is at most `SIZE` wide.
#[inline(always)]
fn generate_with_files<const SIZE: usize>(
    position: &Position,
    files: impl FnOnce() -> [u32; LINE],
    moves: &mut MoveList,
) {
    if position.classic_winner().is_some() {
        return; // P1: a won position has no legal moves.
    }
    let lines = Lines::new::<SIZE>(position, files);
    let (buffer, len) = moves.buffer_mut();
    let mut writer = Writer { buffer, len: *len };
    // The halves are walked separately (see `for_each_index`), written out so that the body is
    // compiled into the loop.
    let plain = lines.plain;
    for (mut half, offset) in [(plain as u64, 0), ((plain >> 64) as u64, 64)] {
        while half != 0 {
            let index = half.trailing_zeros() as usize + offset;
            half &= half - 1;
            if let (Some(line_moves), Some((_, [along_rank, along_file]))) =
                (LINE_MOVES.get(index), lines.stretches(index))
            {
                writer.push_stretch(&line_moves[0], along_rank);
                writer.push_stretch(&line_moves[1], along_file);
            }
        }
    }
    // The slow path, after the others.
    for_each_index(lines.by_castle, |index| {
        if let (Some(line_moves), Some((at, stretches))) =
            (LINE_MOVES.get(index), lines.stretches(index))
        {
            writer.push_stretches_by_castle(line_moves, stretches, at, lines.castle);
        }
    });
    *len = writer.len;
}

/// Appends every legal move of the side to move to `moves`: piece by piece in square order
/// (`a1`, `b1`, ... `a2`, ...), each along its rank west to east, then along its file south to
/// north; the pieces on the empty castle's rank or file come last.
// One copy of this large function for each board size serves every caller.
#[inline(never)]
pub(crate) fn generate(position: &Position, moves: &mut MoveList) {
    // A copy for each width reads only the ranks and files the board has (`Rules` allows the odd
    // sizes 5 to 11; a 5x5 board takes the 7x7 copy, whose two extra lines are all off it).
    match position.rules().size() {
        9 => generate_sized::<9>(position, moves),
        11 => generate_sized::<11>(position, moves),
        _ => generate_sized::<7>(position, moves),
    }
}

/// [`generate`] for a board at most `SIZE` squares wide.
#[inline(always)]
fn generate_sized<const SIZE: usize>(position: &Position, moves: &mut MoveList) {
    let files = || files_of::<SIZE>(Lines::blocked(position));
    generate_with_files::<SIZE>(position, files, moves);
}

/// [`generate`] for a position whose views are at hand (perft keeps them in step).
#[inline]
pub(crate) fn generate_with_views(position: &Position, views: &SideViews, moves: &mut MoveList) {
    // Squares off the board, like occupied ones, block: the same set in the transposed view.
    let off_board = !position.rules().geometry().board;
    let files = || lines_of::<LINE>(views.north_occupied() | off_board.0);
    generate_with_files::<LINE>(position, files, moves);
}

/// Appends every legal move of the side to move under custom rules (C2, C3; see [`RuleSet`]): rook moves
/// stopped by pieces and by the special squares the piece may not pass, ending on squares it
/// may stop on, no farther than its speed limit. Pieces are taken in groups that the same squares
/// block (soldiers on plain squares, soldiers on each kind of special square, the king), each
/// group's ranks and files read once.
#[inline(never)]
pub(crate) fn generate_custom(position: &Position, set: &RuleSet, moves: &mut MoveList) {
    if position.narrow_winner().is_some() {
        return; // P1: a won position has no legal moves.
    }
    generate_custom_unwon(position, set, moves);
}

/// [`generate_custom`] for a position known not to be won: the test for a win (an edge fort, an
/// encirclement) costs more than the moves, and the search has made it already.
pub(crate) fn generate_custom_unwon(position: &Position, set: &RuleSet, moves: &mut MoveList) {
    let (buffer, len) = moves.buffer_mut();
    let mut writer = Writer { buffer, len: *len };
    for_each_custom_stretch(position, set, !Bitboard::EMPTY, &mut writer);
    *len = writer.len;
}

/// How many legal moves the side to move has under custom rules.
pub(crate) fn count_custom(position: &Position, set: &RuleSet) -> u32 {
    if position.narrow_winner().is_some() {
        return 0; // P1
    }
    count_custom_unwon(position, set)
}

/// [`count_custom`] for a position known not to be won (see [`generate_custom_unwon`]).
pub(crate) fn count_custom_unwon(position: &Position, set: &RuleSet) -> u32 {
    let mut counter = Counter(0);
    for_each_custom_stretch(position, set, !Bitboard::EMPTY, &mut counter);
    counter.0
}

/// Whether the side to move has a legal move under custom rules, in a position known not to be
/// won: at once when [`custom_soldier_can_step`], else by counting.
pub(crate) fn custom_has_move_unwon(position: &Position, set: &RuleSet) -> bool {
    custom_soldier_can_step(position, set) || count_custom_unwon(position, set) > 0
}

/// Whether a soldier of the side to move on an ordinary square stands next to an empty square
/// its class may enter and stop on: then it has a legal move (every piece moves at least one
/// square). `false` says nothing.
#[inline]
pub(crate) fn custom_soldier_can_step<B: RuleGrid>(
    position: &Position<B>,
    set: &RuleSet<B>,
) -> bool {
    let (soldiers, class) = match position.side_to_move() {
        Side::Attackers => (position.attackers(), Class::Attacker as usize),
        Side::Defenders => (position.defenders(), Class::Defender as usize),
    };
    let (Some(no_pass), Some(no_stop)) = (
        set.no_pass.get(class).and_then(|by| by.first()),
        set.no_stop.get(class).and_then(|by| by.first()),
    ) else {
        return false; // Not reached: the class is in range.
    };
    let open = set.board - position.occupied() - *no_pass - *no_stop;
    ((soldiers - set.special).neighbours() & open).any()
}

/// Appends to `moves` the legal moves under custom rules that land on `targets`, in a position
/// known not to be won, in the generator's order: only the first pieces seen from the targets
/// along their ranks and files are looked at, and of their stretches only the places on a
/// target, which is most of the saving when the targets are few (the search's quiescence:
/// captures, the king's checks; the attackers' king captures).
pub(crate) fn custom_moves_to_unwon(
    position: &Position,
    set: &RuleSet,
    targets: Bitboard,
    moves: &mut MoveList,
) {
    // Moves land on empty squares only. A piece reaches a target only if it is the first piece
    // seen from the target along a line: from each target, the empty squares each way (another
    // target blocks its slide, but covers the squares behind it with its own), then one more.
    let empty = set.board - position.occupied();
    let targets = targets & empty;
    if targets.is_empty() {
        return;
    }
    let first_pieces = Direction::ALL
        .into_iter()
        .fold(Bitboard::EMPTY, |first, direction| {
            let seen = targets | targets.slides(direction, empty - targets);
            first | seen.shift(direction)
        });
    let mut to_targets = ToTargets {
        moves,
        targets: LineBits::of(targets),
    };
    for_each_custom_stretch(position, set, first_pieces, &mut to_targets);
}

/// A piece's moves along one of its lines: their table (as in [`LINE_MOVES`]), the line (its
/// rank or its file, by number) and the piece's place on it.
#[derive(Clone, Copy)]
struct PieceLine<'a> {
    table: &'a [Move; LINE_TABLE],
    /// 0 along the piece's rank, 1 along its file.
    along: usize,
    /// The rank's or the file's number.
    line: usize,
    at: u32,
}

/// What the generator under custom rules does with the moves of each piece along each line.
trait CustomStretches {
    /// Takes the moves of entries `low..high` of the piece's table but those that end on a place
    /// set in `no_stop` (one bit a place of the line).
    fn take(&mut self, piece: PieceLine<'_>, low: u32, high: u32, no_stop: u32);

    /// Takes the moves of `stretch`, all of them.
    fn take_stretch(&mut self, piece: PieceLine<'_>, stretch: Stretch);
}

/// The places of the line that the entries `low..high` of a piece's table lead to, as bits, the
/// piece being at place `at` (entries below `at` lead to the place of their number, the others
/// to the next place): `low <= at <= high`, since a piece's stretch runs on both sides of it.
#[inline(always)]
fn stretch_places(low: u32, high: u32, at: u32) -> u32 {
    ((1 << (high + 1)) - (1 << low)) & !(1 << at)
}

impl CustomStretches for Writer<'_> {
    /// One block copy when no square of the stretch is refused (most moves: only a line through
    /// a special square the piece may pass but not stop on has one), else move by move.
    #[inline(always)]
    fn take(&mut self, piece: PieceLine<'_>, low: u32, high: u32, no_stop: u32) {
        let at = piece.at;
        if no_stop & stretch_places(low, high, at) == 0 {
            let stretch = Stretch {
                start: low,
                length: high - low,
            };
            self.push_stretch(piece.table, stretch);
            return;
        }
        for entry in low..high {
            let place = if entry < at { entry } else { entry + 1 };
            // A list being filled holds at most MAX_LEGAL_MOVES moves: the place always exists.
            if let (0, Some(&m), Some(slot)) = (
                no_stop >> place & 1,
                piece.table.get(entry as usize),
                self.buffer.get_mut(self.len),
            ) {
                *slot = m;
                self.len += 1;
            }
        }
    }

    #[inline(always)]
    fn take_stretch(&mut self, piece: PieceLine<'_>, stretch: Stretch) {
        self.push_stretch(piece.table, stretch);
    }
}

/// Counts the moves.
struct Counter(u32);

impl CustomStretches for Counter {
    #[inline(always)]
    fn take(&mut self, piece: PieceLine<'_>, low: u32, high: u32, no_stop: u32) {
        self.0 += high - low - (no_stop & stretch_places(low, high, piece.at)).count_ones();
    }

    #[inline(always)]
    fn take_stretch(&mut self, _: PieceLine<'_>, stretch: Stretch) {
        self.0 += stretch.length;
    }
}

/// Keeps the moves that land on `targets` (by ranks and files).
struct ToTargets<'a> {
    moves: &'a mut MoveList,
    targets: LineBits,
}

impl CustomStretches for ToTargets<'_> {
    /// The stretch's places on target, in the line's order: usually none.
    #[inline(always)]
    fn take(&mut self, piece: PieceLine<'_>, low: u32, high: u32, no_stop: u32) {
        let by_line = [&self.targets.ranks, &self.targets.files];
        let Some(&targets) = by_line
            .get(piece.along)
            .and_then(|lines| lines.get(piece.line))
        else {
            return; // Not reached: a rank or a file of the grid.
        };
        let mut places = targets & stretch_places(low, high, piece.at) & !no_stop;
        while places != 0 {
            let place = places.trailing_zeros();
            places &= places - 1;
            let entry = if place < piece.at { place } else { place - 1 };
            if let Some(&m) = piece.table.get(entry as usize) {
                // A subset of the legal moves: within a list's capacity.
                let _ = self.moves.try_push(m);
            }
        }
    }

    #[inline(always)]
    fn take_stretch(&mut self, piece: PieceLine<'_>, stretch: Stretch) {
        self.take(piece, stretch.start, stretch.start + stretch.length, 0);
    }
}

/// Hands `sink` every legal move under custom rules (the game not being won) of the pieces on
/// `movers`, piece by piece and line by line: soldiers on plain squares, then on each kind of
/// special square, then on camps, then the king; each group in square order, each piece along
/// its rank west to east, then along its file south to north.
#[inline(always)]
fn for_each_custom_stretch(
    position: &Position,
    set: &RuleSet,
    movers: Bitboard,
    sink: &mut impl CustomStretches,
) {
    match position.rules().size() {
        9 => for_each_custom_stretch_sized::<9>(position, set, movers, sink),
        11 => for_each_custom_stretch_sized::<11>(position, set, movers, sink),
        _ => for_each_custom_stretch_sized::<7>(position, set, movers, sink),
    }
}

/// [`for_each_custom_stretch`] on a board at most `SIZE` squares wide.
#[inline(always)]
fn for_each_custom_stretch_sized<const SIZE: usize>(
    position: &Position,
    set: &RuleSet,
    movers: Bitboard,
    sink: &mut impl CustomStretches,
) {
    let side = position.side_to_move();
    let occupied = position.occupied() | !set.board;
    let (soldiers, class) = match side {
        Side::Attackers => (position.attackers() & movers, Class::Attacker),
        Side::Defenders => (position.defenders() & movers, Class::Defender),
    };
    let plain = soldiers - set.special;
    custom_group_moves::<SIZE>(plain, occupied, set, class, 0, Bitboard::EMPTY, sink);
    if (soldiers & set.special).any() {
        for kind in SquareKind::ALL {
            let on_kind = soldiers & set.squares[kind as usize];
            let start = kind as usize + 1;
            custom_group_moves::<SIZE>(on_kind, occupied, set, class, start, Bitboard::EMPTY, sink);
        }
        camp_moves::<SIZE>(soldiers & set.camps, occupied, set, class, sink);
    }
    if side == Side::Defenders {
        let king = position.king_set() & movers;
        if (king & set.camps).any() {
            camp_moves::<SIZE>(king, occupied, set, Class::King, sink);
        } else {
            let start = set.start_kind(king);
            custom_group_moves::<SIZE>(
                king,
                occupied,
                set,
                Class::King,
                start,
                Bitboard::EMPTY,
                sink,
            );
        }
    }
}

/// The moves of `pieces` of one class standing on camps (C12): each piece alone when there is a
/// camp move limit, since the camps out of its reach depend on its square.
#[inline(always)]
fn camp_moves<const SIZE: usize>(
    pieces: Bitboard,
    occupied: Bitboard,
    set: &RuleSet,
    class: Class,
    sink: &mut impl CustomStretches,
) {
    if set.spec.camp_move_limit == 0 {
        custom_group_moves::<SIZE>(
            pieces,
            occupied,
            set,
            class,
            CAMP_START,
            Bitboard::EMPTY,
            sink,
        );
        return;
    }
    for square in pieces {
        let out_of_reach = set.camps_out_of_reach(square);
        let piece = Bitboard::from_square(square);
        custom_group_moves::<SIZE>(piece, occupied, set, class, CAMP_START, out_of_reach, sink);
    }
}

/// The moves of `pieces`, all of one class starting on squares of one kind (`start`, as in
/// [`RuleSet::no_pass`]), none of them ending on `also_no_stop`: each piece's stretch along its
/// rank and its file (blocked by pieces and the squares the group may not pass), cut to its
/// speed, handed to `sink` with the places of the line it may not stop on. Pieces off the lines
/// of such places, without a speed limit, hand their stretches whole, on a quicker path.
#[inline(always)]
fn custom_group_moves<const SIZE: usize>(
    pieces: Bitboard,
    occupied: Bitboard,
    set: &RuleSet,
    class: Class,
    start: usize,
    also_no_stop: Bitboard,
    sink: &mut impl CustomStretches,
) {
    if pieces.is_empty() {
        return;
    }
    let (Some(no_pass), Some(no_stop), Some(refused_lines), Some(&speed)) = (
        set.no_pass.get(class as usize).and_then(|by| by.get(start)),
        set.no_stop_lines
            .get(class as usize)
            .and_then(|by| by.get(start)),
        set.refused_lines
            .get(class as usize)
            .and_then(|by| by.get(start)),
        set.speed.get(class as usize),
    ) else {
        return; // Not reached: the class and kind indices are in range.
    };
    let blocked = occupied | *no_pass;
    let ranks = lines_of::<SIZE>(blocked.0);
    let files = files_of::<SIZE>(blocked);
    let free = if speed == 0 && also_no_stop.is_empty() {
        pieces - *refused_lines
    } else {
        Bitboard::EMPTY
    };
    let speed = u32::from(speed);
    // The halves are walked separately (see `for_each_index`), written out so that the body is
    // compiled into the loop.
    for (mut half, offset) in [(pieces.0 as u64, 0), ((pieces.0 >> 64) as u64, 64)] {
        while half != 0 {
            let index = half.trailing_zeros() as usize + offset;
            half &= half - 1;
            let (Some(&[x, y]), Some(line_moves)) = (COORDINATES.get(index), LINE_MOVES.get(index))
            else {
                continue; // Not reached: pieces stand on the grid.
            };
            let (x, y) = (usize::from(x), usize::from(y));
            let (Some(&rank), Some(&file)) = (ranks.get(y), files.get(x)) else {
                continue; // Not reached: the lines of a square of the grid.
            };
            let lines = [
                (
                    PieceLine {
                        table: &line_moves[0],
                        along: 0,
                        line: y,
                        at: x as u32,
                    },
                    rank,
                ),
                (
                    PieceLine {
                        table: &line_moves[1],
                        along: 1,
                        line: x,
                        at: y as u32,
                    },
                    file,
                ),
            ];
            if free.0 >> index & 1 == 1 {
                for (piece, bits) in lines {
                    sink.take_stretch(piece, Stretch::of(bits, piece.at));
                }
                continue;
            }
            let (Some(&rank_no_stop), Some(&file_no_stop)) =
                (no_stop.ranks.get(y), no_stop.files.get(x))
            else {
                continue; // Not reached, as above.
            };
            let mut no_stop = [rank_no_stop, file_no_stop];
            if also_no_stop.any() {
                let also = LineBits::of(also_no_stop);
                no_stop[0] |= also.ranks[y];
                no_stop[1] |= also.files[x];
            }
            for ((piece, bits), no_stop) in lines.into_iter().zip(no_stop) {
                let at = piece.at;
                let stretch = Stretch::of(bits, at);
                let (mut low, mut high) = (stretch.start, stretch.start + stretch.length);
                if speed > 0 {
                    // Entry e leads `at - e` squares down the line if below `at`, else
                    // `e + 1 - at` up.
                    low = low.max(at.saturating_sub(speed));
                    high = high.min(at + speed);
                }
                sink.take(piece, low, high, no_stop);
            }
        }
    }
}

/// The number of legal moves of the side to move, from the position alone: the squares each
/// piece reaches sliding each way through empty squares (the empty castle among them, R7), all
/// pieces at once ([`Bitboard::slides`]), less the castle (R6), counted. (Perft, which keeps
/// the views in step, counts with [`count_with_views`]: cheaper still.)
#[inline]
pub(crate) fn count(position: &Position) -> u32 {
    if position.classic_winner().is_some() {
        return 0; // P1: a won position has no legal moves.
    }
    slides_of(position, position.pieces(position.side_to_move()))
}

/// The number of slides the pieces of `movers` could make in `position`, whoever is to move:
/// each way through empty squares (the empty castle among them, R7), never onto the castle (R6).
/// [`count`] for the side to move; the evaluation's mobility terms for each side's soldiers.
#[inline]
pub(crate) fn slides_of<B: RuleGrid>(position: &Position<B>, movers: Bitboard<B>) -> u32 {
    let geometry = position.rules().geometry();
    let empty = geometry.board - position.occupied();
    let destinations = empty - geometry.castle;
    Direction::ALL
        .into_iter()
        .map(|direction| (movers.slides(direction, empty) & destinations).count())
        .sum()
}

/// [`count`] for a position whose views are at hand.
#[inline]
pub(crate) fn count_with_views(position: &Position, views: &SideViews) -> u32 {
    if position.classic_winner().is_some() {
        return 0; // P1: a won position has no legal moves.
    }
    let side = position.side_to_move();
    let movers = views.side(side);
    let others = views.side(side.opponent());
    count_slides(
        position.rules().size(),
        position.pieces(side).0,
        position.occupied().0,
        movers,
        [0, 1, 2].map(|view| movers[view] | others[view]),
    )
}

/// What [`count_after_quiet_move`] needs of a position beyond its views, found once for all of
/// its moves.
#[derive(Clone, Copy)]
pub(crate) struct QuietMoves {
    /// [`Position::capture_squares`]: a move landing on one of them might capture.
    capture_squares: Bitboard,
    /// The king's square if his side is to move: his quiet move to the edge wins (R14). Kept as
    /// one square, not his set, so that each move's test is one comparison (and none of the
    /// attackers' moves asks for the king's set: measured, 3 instructions a move less).
    moving_king: Option<Square>,
}

impl QuietMoves {
    /// The quiet moves of `position`, under the classic rules.
    #[inline(always)]
    pub(crate) fn of(position: &Position) -> QuietMoves {
        QuietMoves {
            capture_squares: position.capture_squares(),
            moving_king: match position.side_to_move() {
                Side::Attackers => None,
                Side::Defenders => position.king_set().first(),
            },
        }
    }
}

/// The number of legal moves in the position after `m`, a legal move, without playing it; or
/// `None` if `m` might capture. `views` are the position's, `quiet` its [`QuietMoves`].
///
/// A move that lands off the capture squares captures nothing (R8-R13), so after it only its two
/// squares have changed; if the king made it to the edge, the game is won (R14) and no move is
/// left (P1). Perft counts its last ply this way for most moves, and plays the others.
#[inline]
pub(crate) fn count_after_quiet_move(
    position: &Position,
    views: &SideViews,
    quiet: QuietMoves,
    m: Move,
) -> Option<u32> {
    let (from, to) = (m.from(), m.to());
    if quiet.capture_squares.contains(to) {
        return None;
    }
    let side = position.side_to_move();
    let next_side = side.opponent();
    let next_movers = position.pieces(next_side);
    if quiet.moving_king == Some(from) && position.rules().edge().contains(to) {
        return Some(0); // R14
    }
    let changed = views::stored_bits(from)
        .iter()
        .zip(views::stored_bits(to))
        .map(|(from_bit, to_bit)| from_bit ^ to_bit);
    let movers = views.side(next_side);
    let others = views.side(side);
    let mut occupied = [0; 3];
    for (((occupied, changed), movers), others) in
        occupied.iter_mut().zip(changed).zip(movers).zip(others)
    {
        *occupied = (movers | others) ^ changed;
    }
    let path = Bitboard::single(from) | to;
    Some(count_slides(
        position.rules().size(),
        next_movers.0,
        (position.occupied() ^ path).0,
        movers,
        occupied,
    ))
}

/// What a group of pieces under custom rules (one class, starting from one kind of square) may
/// slide through and stop on, in each of the four views ([`View`] order): the board less the
/// view's first file (as in [`views::ViewMasks`]), less the squares the group may not pass
/// (`open`) or not stop on (`destinations`).
#[derive(Clone, Copy, Default)]
struct GroupViewMasks {
    open: [u128; 4],
    destinations: [u128; 4],
}

/// A rules set's masks in the board's views, for counting moves under custom rules from perft's
/// views ([`count_custom_with_views`]): built once per count from the [`RuleSet`].
#[derive(Clone)]
pub(crate) struct CustomViewMasks {
    /// By class and start kind, as [`RuleSet::no_pass`].
    groups: [[GroupViewMasks; START_KINDS]; 3],
    /// The special squares (camps among them) in the stored views (`West`, `North`, `South`):
    /// soldiers on them are counted piece by piece.
    special: [u128; 3],
    /// The board's edge in each view, and the board less the view's first file.
    edge: [u128; 4],
    passable: [u128; 4],
    /// By start kind: whether the king starting there passes and stops where the defenders on
    /// plain squares do, so that he slides with them, in one group.
    king_slides_with_defenders: [bool; START_KINDS],
}

impl CustomViewMasks {
    /// The masks of `set`, a rules set of the narrow grid.
    pub(crate) fn of(set: &RuleSet) -> CustomViewMasks {
        let masks = views::masks(set.spec.size);
        let mut groups = [[GroupViewMasks::default(); START_KINDS]; 3];
        for (class, by_start) in groups.iter_mut().enumerate() {
            for (start, group) in by_start.iter_mut().enumerate() {
                let (Some(no_pass), Some(no_stop)) = (
                    set.no_pass.get(class).and_then(|by| by.get(start)),
                    set.no_stop.get(class).and_then(|by| by.get(start)),
                ) else {
                    continue; // Not reached: the arrays are this size.
                };
                for (view, masks) in View::ALL.into_iter().zip(masks) {
                    let index = view as usize;
                    group.open[index] = masks.passable & !views::view_of_set(view, no_pass.0);
                    group.destinations[index] =
                        masks.passable & !views::view_of_set(view, no_stop.0);
                }
            }
        }
        let stored = [View::West, View::North, View::South];
        let [_, [defenders, ..], kings] = groups;
        let same = |a: &GroupViewMasks, b: &GroupViewMasks| {
            a.open == b.open && a.destinations == b.destinations
        };
        let speeds = set.speed;
        CustomViewMasks {
            edge: View::ALL.map(|view| views::view_of_set(view, set.edge.0)),
            passable: View::ALL.map(|view| masks[view as usize].passable),
            groups,
            special: stored.map(|view| views::view_of_set(view, set.special.0)),
            king_slides_with_defenders: std::array::from_fn(|start| {
                start != CAMP_START
                    && speeds[Class::King as usize] == 0
                    && speeds[Class::Defender as usize] == 0
                    && kings.get(start).is_some_and(|king| same(king, &defenders))
            }),
        }
    }
}

/// [`count_custom`] for a position whose views are at hand, with its rules' masks in the views
/// (`masks`, from `set`): the pieces of each group (soldiers on plain squares; the king) slide
/// each way as the classic count's do ([`count_with_views`]), through the squares their group
/// may pass, and only the squares they may stop on count. Groups that the views cannot count
/// (soldiers on special squares, a speed limit, the king on a camp) are counted piece by piece.
#[inline]
pub(crate) fn count_custom_with_views(
    position: &Position,
    set: &RuleSet,
    views: &SideViews,
    masks: &CustomViewMasks,
) -> u32 {
    let not_encircled =
        set.spec.surrounding_fatal && defenders_see_the_edge(position, views, masks);
    if position
        .custom_winner_unless_encircled(set, not_encircled)
        .is_some()
    {
        return 0; // P1: a won position has no legal moves.
    }
    count_custom_unwon_with_views(position, set, views, masks)
}

/// Whether a defender (the king among them) has an open line to the edge, so that the defenders
/// are not encircled (C9): seen in the views at less cost than the search for a way out.
#[inline]
pub(crate) fn defenders_see_the_edge(
    position: &Position,
    views: &SideViews,
    masks: &CustomViewMasks,
) -> bool {
    let defenders = views.side(Side::Defenders);
    let attackers = views.side(Side::Attackers);
    let movers = [
        position.defenders().0 | position.king_set().0,
        defenders[0],
        defenders[1],
        defenders[2],
    ];
    let occupied = [
        position.occupied().0,
        defenders[0] | attackers[0],
        defenders[1] | attackers[1],
        defenders[2] | attackers[2],
    ];
    movers
        .into_iter()
        .zip(occupied)
        .zip(masks.passable.iter().zip(&masks.edge))
        .any(|((movers, occupied), (passable, edge))| {
            crate::bitboard::slide_east(movers, passable & !occupied) & edge != 0
        })
}

/// The defenders' open lines to the edge in a position (C9), seen in the views as
/// [`defenders_see_the_edge`] sees them: made once for a position where the attackers move, so
/// that after each of their moves that captures nothing, "not encircled" is known without
/// making the move whenever a line survives it.
pub(crate) struct DefendersEdgeLines {
    /// In each view ([`View`] order), the squares the defenders slide to through empty squares.
    reached: [u128; 4],
    /// In each view, whether one of those slides reaches the edge.
    sees_the_edge: [bool; 4],
}

impl DefendersEdgeLines {
    /// The defenders' lines in `position` (`views` its views).
    #[inline(always)]
    pub(crate) fn of(
        position: &Position,
        views: &SideViews,
        masks: &CustomViewMasks,
    ) -> DefendersEdgeLines {
        let defenders = views.side(Side::Defenders);
        let movers = [
            position.defenders().0 | position.king_set().0,
            defenders[0],
            defenders[1],
            defenders[2],
        ];
        let occupied = occupied_views(position, views);
        let reached: [u128; 4] = std::array::from_fn(|view| {
            crate::bitboard::slide_east(movers[view], masks.passable[view] & !occupied[view])
        });
        DefendersEdgeLines {
            reached,
            sees_the_edge: std::array::from_fn(|view| reached[view] & masks.edge[view] != 0),
        }
    }

    /// Whether the defenders still see the edge after an attacker's move onto `to` that
    /// captures nothing: some view's slides reach the edge without crossing `to`. Only the
    /// landing square can block a slide (the square left opens them, and no defender moves), so
    /// that view's slides are those of the position after the move. `false` says nothing: the
    /// position after the move must then be looked at.
    #[inline(always)]
    pub(crate) fn kept_after_attacker_lands(&self, to: Square) -> bool {
        let [west, north, south] = *views::stored_bits(to);
        let landing = [Bitboard::single(to).0, west, north, south];
        (0..4).any(|view| self.sees_the_edge[view] && self.reached[view] & landing[view] == 0)
    }
}

/// [`count_custom_with_views`] for a position known not to be won.
#[inline(always)]
pub(crate) fn count_custom_unwon_with_views(
    position: &Position,
    set: &RuleSet,
    views: &SideViews,
    masks: &CustomViewMasks,
) -> u32 {
    let groups = CustomGroups::of(position, set, views, masks, position.side_to_move());
    groups.count(set, occupied_views(position, views), || *position)
}

/// The side's pieces and their masks, sorted into what the views count (soldiers on plain
/// squares, the king when he may) and what is counted piece by piece: made once for a position
/// and a side, to count that side's moves in it or after any quiet move of the other side's.
pub(crate) struct CustomGroups<'a> {
    /// The soldiers on plain squares (and the king when he slides with them), in the four views.
    plain: [u128; 4],
    plain_masks: Option<&'a GroupViewMasks>,
    /// The king, when he slides alone, with his masks.
    king: Option<([u128; 4], &'a GroupViewMasks)>,
    /// The pieces the views cannot count (soldiers on special squares, a speed limit, the king
    /// on a camp).
    one_by_one: Bitboard,
    /// Whether the generator counts every piece of the side: soldiers on camps with a camp move
    /// limit (Ashton Tablut's attackers at the start) are each counted alone, and measured, the
    /// generator then counts the whole side in fewer instructions than the views and it the
    /// rest.
    all_by_generator: bool,
}

impl<'a> CustomGroups<'a> {
    /// The groups of `side`'s pieces in `position` (`views` its views).
    #[inline(always)]
    pub(crate) fn of(
        position: &Position,
        set: &RuleSet,
        views: &SideViews,
        masks: &'a CustomViewMasks,
        side: Side,
    ) -> CustomGroups<'a> {
        let stored = views.side(side);
        let (soldiers, king, class) = match side {
            Side::Attackers => (position.attackers(), Bitboard::EMPTY, Class::Attacker),
            Side::Defenders => (position.defenders(), position.king_set(), Class::Defender),
        };
        let king_start = if (king & set.special).any() {
            set.start_kind(king)
        } else {
            0
        };
        // The king slides with the defenders when his squares are theirs.
        let king_with_soldiers = masks
            .king_slides_with_defenders
            .get(king_start)
            .copied()
            .unwrap_or(false);
        let mut one_by_one = soldiers & set.special;
        let king_bits = match king.first() {
            Some(square) => *views::stored_bits(square),
            None => [0; 3],
        };
        let mut plain = [0; 4];
        let mut plain_masks = None;
        if set
            .speed
            .get(class as usize)
            .is_some_and(|&speed| speed > 0)
        {
            one_by_one |= soldiers;
        } else {
            // The stored views hold the defenders with the king: he is taken out of them, and
            // put back when he slides with them.
            let with_king = if king_with_soldiers { !0 } else { 0 };
            let plain_view = |view: usize| {
                (stored[view] & !masks.special[view] & !king_bits[view])
                    | (king_bits[view] & with_king)
            };
            plain = [
                (soldiers - set.special).0 | (king.0 & with_king),
                plain_view(0),
                plain_view(1),
                plain_view(2),
            ];
            plain_masks = masks.groups.get(class as usize).and_then(|by| by.first());
        }
        let mut king_alone = None;
        if king.any() && !king_with_soldiers {
            let king_class = Class::King as usize;
            match masks
                .groups
                .get(king_class)
                .and_then(|by| by.get(king_start))
            {
                Some(group) if king_start != CAMP_START && set.speed[king_class] == 0 => {
                    let [west, north, south] = king_bits;
                    king_alone = Some(([king.0, west, north, south], group));
                }
                _ => one_by_one |= king,
            }
        }
        CustomGroups {
            plain,
            plain_masks,
            king: king_alone,
            one_by_one,
            all_by_generator: set.spec.camp_move_limit > 0 && (soldiers & set.camps).any(),
        }
    }

    /// The moves of the groups' side, to move with `occupied` the occupied squares in the four
    /// views; `position`, that position (made only when pieces are counted one by one).
    #[inline(always)]
    pub(crate) fn count(
        &self,
        set: &RuleSet,
        occupied: [u128; 4],
        position: impl FnOnce() -> Position,
    ) -> u32 {
        if self.all_by_generator {
            return count_custom_all_pieces(&position(), set);
        }
        let mut count = 0;
        if let Some(group) = self.plain_masks {
            count += count_group_slides(self.plain, occupied, group);
        }
        if let Some((king, group)) = self.king {
            count += count_group_slides(king, occupied, group);
        }
        if self.one_by_one.any() {
            count += count_custom_pieces(&position(), set, self.one_by_one);
        }
        count
    }

    /// [`CustomGroups::count`] in the position after `m`, a move of the other side's from
    /// `position` (whose occupied squares in the four views are `occupied`) that captures
    /// nothing and leaves the game not won, without making it: only its two squares change.
    #[inline(always)]
    pub(crate) fn count_after_quiet_move(
        &self,
        set: &RuleSet,
        position: &Position,
        occupied: [u128; 4],
        m: Move,
    ) -> u32 {
        let (from, to) = (m.from(), m.to());
        let path = Bitboard::single(from) | to;
        let (from_bits, to_bits) = (views::stored_bits(from), views::stored_bits(to));
        let occupied = [
            occupied[0] ^ path.0,
            occupied[1] ^ from_bits[0] ^ to_bits[0],
            occupied[2] ^ from_bits[1] ^ to_bits[1],
            occupied[3] ^ from_bits[2] ^ to_bits[2],
        ];
        self.count(set, occupied, || {
            let mut after = *position;
            after.play_quiet_unchecked(m);
            after
        })
    }
}

/// The occupied squares of a position in the four views ([`View`] order).
#[inline(always)]
pub(crate) fn occupied_views(position: &Position, views: &SideViews) -> [u128; 4] {
    let attackers = views.side(Side::Attackers);
    let defenders = views.side(Side::Defenders);
    [
        position.occupied().0,
        attackers[0] | defenders[0],
        attackers[1] | defenders[1],
        attackers[2] | defenders[2],
    ]
}

/// [`count_custom_unwon`], kept out of line (see [`CustomGroups`]).
#[inline(never)]
fn count_custom_all_pieces(position: &Position, set: &RuleSet) -> u32 {
    count_custom_unwon(position, set)
}

/// The moves of the side to move's pieces on `movers`, counted piece by piece (kept out of line:
/// the views count most positions whole).
#[inline(never)]
fn count_custom_pieces(position: &Position, set: &RuleSet, movers: Bitboard) -> u32 {
    let mut counter = Counter(0);
    for_each_custom_stretch(position, set, movers, &mut counter);
    counter.0
}

/// The squares the `movers` of one group reach sliding each way through their `open` squares
/// not `occupied`, stopping on their `destinations`, counted (all sets in the four views).
#[inline(always)]
fn count_group_slides(movers: [u128; 4], occupied: [u128; 4], group: &GroupViewMasks) -> u32 {
    movers
        .into_iter()
        .zip(occupied)
        .zip(group.open.iter().zip(&group.destinations))
        .map(|((movers, occupied), (open, destinations))| {
            let reached = crate::bitboard::slide_east(movers, open & !occupied);
            (reached & destinations).count_ones()
        })
        .sum()
}

/// The number of slides of the `movers` (given in the `East` view and in the stored views) on a
/// board of `size` with these `occupied` squares, less those that would stop on the castle.
#[inline(always)]
fn count_slides(
    size: u8,
    movers_east: u128,
    occupied_east: u128,
    movers: &[u128; 3],
    occupied: [u128; 3],
) -> u32 {
    let masks = views::masks(size);
    let east = &masks[View::East as usize];
    let mut count =
        (views::reach_east(movers_east, occupied_east, east) & east.destinations).count_ones();
    for (index, view) in [View::West, View::North, View::South]
        .into_iter()
        .enumerate()
    {
        let masks = &masks[view as usize];
        let reached = views::reach_east(movers[index], occupied[index], masks);
        count += (reached & masks.destinations).count_ones();
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    /// Positions reached from both start positions and a few set-ups (king next to the empty
    /// castle, a crowded 11x11 middlegame), walking every move to depth 2.
    fn positions() -> Vec<Position> {
        let records = [
            (
                "/3ttt3/4t4/9/9/tt1T2Ttt/t2tKt2t/9/4t4/3ttt3/",
                Rules::TABLUT,
            ),
            (
                "/4ttt4/4t1t4/2t8/5T2t2/tt2TTT2tt/t1tTTKTTt1t/tt2TT3tt/5T5/5t1T3/4t1t4/4ttt4/",
                Rules::TAWLBWRDD,
            ),
        ];
        let mut roots = vec![Position::tablut(), Position::tawlbwrdd()];
        for (record, rules) in records {
            for side in Side::ALL {
                roots.push(crate::notation::parse_position_record(record, rules, side).unwrap());
            }
        }
        let mut all = Vec::new();
        for root in roots {
            all.push(root);
            for m in root.legal_moves() {
                let mut child = root;
                child.play_unchecked(m);
                all.push(child);
                // Every fifth grandchild is enough to see captures and the castle emptied.
                for grandchild_move in child.legal_moves().into_iter().step_by(5) {
                    let mut grandchild = child;
                    grandchild.play_unchecked(grandchild_move);
                    all.push(grandchild);
                }
            }
        }
        all
    }

    #[test]
    fn files_are_gathered_bit_by_bit() {
        // Sets of every density, from a fixed xorshift sequence.
        let mut random = crate::test_support::XorShift(0x9e37_79b9_7f4a_7c15);
        let mut next = || random.next();
        for round in 0..3000 {
            let mut bits = u128::from(next()) << 64 | u128::from(next());
            for _ in 0..round % 4 {
                bits &= u128::from(next()) << 64 | u128::from(next()); // sparser
            }
            let set = Bitboard(bits & <crate::Narrow as crate::GridBase>::GRID);
            let mut expected = [0u32; LINE];
            for (x, file) in expected.iter_mut().enumerate() {
                for y in 0..LINE {
                    if set.0 >> (y * LINE + x) & 1 == 1 {
                        *file |= 1 << y;
                    }
                }
            }
            assert_eq!(files_of::<LINE>(set), expected, "{set:?}");
            // A copy for 9 or 7 files gathers the same files as far as they go, ranks 9 and 10
            // (off such a board) blocked.
            let narrow: Vec<u32> = expected.iter().map(|file| file & 0x1ff | 0x600).collect();
            let nine = files_of::<9>(set);
            assert_eq!(nine[..9], narrow[..9], "{set:?}");
            assert_eq!(nine[9..], [0, 0], "{set:?}");
            let seven = files_of::<7>(set);
            assert_eq!(seven[..7], narrow[..7], "{set:?}");
            assert_eq!(seven[7..], [0; 4], "{set:?}");
        }
    }

    #[test]
    fn generated_moves_are_exactly_the_pairs_that_check_move_accepts() {
        // `check_move` walks the path square by square: an independent oracle for R5-R7.
        let squares: Vec<Square> = (0..121).filter_map(Square::from_index).collect();
        for position in positions().into_iter().step_by(50) {
            let mut generated: Vec<Move> = position.legal_moves().to_vec();
            let mut expected: Vec<Move> = squares
                .iter()
                .flat_map(|&from| squares.iter().map(move |&to| Move::new(from, to)))
                .filter(|&m| position.is_legal(m))
                .collect();
            generated.sort();
            expected.sort();
            assert_eq!(generated, expected, "{position:?}");
        }
    }

    #[test]
    fn the_views_give_the_same_list_with_no_move_twice() {
        for position in positions() {
            let listed = position.legal_moves();
            let mut with_views = MoveList::new();
            generate_with_views(&position, &SideViews::of(&position), &mut with_views);
            assert_eq!(listed, with_views, "{position:?}");
            let mut sorted = listed.to_vec();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), listed.len(), "{position:?}");
        }
    }

    #[test]
    fn counting_agrees_with_generation_and_with_playing() {
        for position in positions() {
            let moves = position.legal_moves();
            assert_eq!(count(&position), moves.len() as u32, "{position:?}");
            let views = SideViews::of(&position);
            let quiet = QuietMoves::of(&position);
            for &m in &moves {
                let mut next = position;
                let captured = next.play_unchecked(m);
                let next_views = views.after(position.side_to_move(), m, captured);
                assert_eq!(next_views, SideViews::of(&next), "{position:?} then {m}");
                if let Some(quick) = count_after_quiet_move(&position, &views, quiet, m) {
                    assert_eq!(quick, count(&next), "{position:?} then {m}");
                }
            }
        }
    }

    /// A group number after every start kind's: the king's moves come last.
    const START_KINDS_AND_KING: usize = crate::rules::custom::START_KINDS;

    /// Positions under every built-in custom rule set: along seeded random games, and dense
    /// seeded placements where most pieces are boxed in (so the quick tests for a move often
    /// fail and the counting behind them is reached).
    fn custom_positions() -> Vec<(Position, &'static RuleSet)> {
        use crate::piece::Piece;
        let mut random = crate::test_support::XorShift(0x51_7cc1_b727_220a);
        let mut positions = Vec::new();
        for name in crate::variant::Variant::names() {
            let Some(variant) = crate::variant::Variant::by_name(name) else {
                continue;
            };
            let Some(set) = variant.rules().custom() else {
                continue;
            };
            let games = crate::test_support::positions_along_random_games(
                &[variant.start()],
                12,
                120,
                random.next(),
            );
            positions.extend(games.into_iter().map(|position| (position, set)));
            let size = variant.rules().size();
            for round in 0..600u64 {
                let mut pieces = Vec::new();
                let mut king = false;
                for y in 0..size {
                    for x in 0..size {
                        let Some(square) = Square::new(x, y) else {
                            continue;
                        };
                        // Empty squares: one in 3, in 10, in 40 by turns.
                        let empty_odds = [3, 10, 40][(round % 3) as usize];
                        if random.next() % empty_odds == 0 {
                            continue;
                        }
                        if !king && random.next() % 8 == 0 {
                            pieces.push((square, Piece::King));
                            king = true;
                        } else if random.next() % 2 == 0 {
                            pieces.push((square, Piece::Attacker));
                        } else {
                            pieces.push((square, Piece::Defender));
                        }
                    }
                }
                let side = if round % 4 < 2 {
                    Side::Attackers
                } else {
                    Side::Defenders
                };
                if let Ok(position) = Position::from_pieces(variant.rules(), side, pieces) {
                    positions.push((position, set));
                }
            }
        }
        positions
    }

    #[test]
    fn custom_generation_lists_each_legal_move_once_in_its_documented_order() {
        // `check_move` walks each move square by square: an independent oracle for C2 and C3.
        let (mut checked, mut refused_stops) = (0, 0);
        for (position, set) in custom_positions().into_iter().step_by(3) {
            let moves = position.legal_moves();
            assert_eq!(
                count_custom(&position, set),
                moves.len() as u32,
                "{position:?}"
            );
            let mut expected = Vec::new();
            if position.winner().is_none() {
                for from in position.pieces(position.side_to_move()) {
                    let lines = (0..LINE as u8).flat_map(|place| {
                        [Square::new(place, from.y()), Square::new(from.x(), place)]
                    });
                    for to in lines.flatten().filter(|&to| to != from) {
                        let m = Move::new(from, to);
                        if position.is_legal(m) {
                            expected.push(m);
                        } else if position.check_move(m)
                            == Err(crate::position::IllegalMoveError::Restricted(to))
                        {
                            refused_stops += 1;
                        }
                    }
                }
            }
            let mut sorted = moves.to_vec();
            sorted.sort();
            expected.sort();
            assert_eq!(sorted, expected, "{position:?}");
            // The order: soldiers on plain squares, on each kind of special square, on camps,
            // then the king; each piece by square, along its rank, then its file, each way up.
            let group = |m: &Move| {
                let from = Bitboard::from_square(m.from());
                if (position.king_set() & from).any() {
                    START_KINDS_AND_KING
                } else {
                    set.start_kind(from)
                }
            };
            let key = |m: &Move| (group(m), m.from(), m.from().x() == m.to().x(), m.to());
            assert!(
                moves.windows(2).all(|pair| key(&pair[0]) < key(&pair[1])),
                "{position:?}: {moves:?}"
            );
            checked += moves.len();
        }
        assert!(
            checked > 100_000 && refused_stops > 1000,
            "{checked} moves, {refused_stops} refused stops"
        );
    }

    #[test]
    fn custom_moves_to_targets_and_the_quick_move_test_agree_with_generation() {
        let mut random = crate::test_support::XorShift(0x2f69_3d1c_0b8e_a571);
        let (mut checked, mut boxed_in) = (0, 0);
        for (position, set) in custom_positions() {
            if position.winner().is_some() {
                continue;
            }
            let moves = position.legal_moves();
            assert_eq!(
                custom_has_move_unwon(&position, set),
                !moves.is_empty(),
                "{position:?}"
            );
            boxed_in += usize::from(moves.is_empty());
            // About one square in sixteen.
            let scattered = (0..4).fold(!Bitboard::EMPTY, |set, _| {
                set & Bitboard((u128::from(random.next()) << 64) | u128::from(random.next()))
            });
            let one = moves
                .get((random.next() % moves.len().max(1) as u64) as usize)
                .map_or(Bitboard::EMPTY, |m| Bitboard::from_square(m.to()));
            for targets in [scattered, one, position.capture_squares(), !Bitboard::EMPTY] {
                // The same moves in the same order (the search's trees depend on it).
                let expected: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| targets.contains(m.to()))
                    .collect();
                let mut found = MoveList::new();
                custom_moves_to_unwon(&position, set, targets, &mut found);
                assert_eq!(found.to_vec(), expected, "{position:?} to {targets:?}");
                checked += 1;
            }
        }
        // Enough of both kinds of position, or the comparison says little.
        assert!(
            checked > 10_000 && boxed_in > 20,
            "{checked} checked, {boxed_in} boxed in"
        );
    }

    /// The defenders' edge lines found before an attackers' move that captures nothing say
    /// "still not encircled" only when the defenders see the edge after the move, in positions
    /// along random games of every built-in game where encircling wins.
    #[test]
    fn edge_lines_kept_after_an_attackers_move_are_seen_after_it() {
        let starts: Vec<Position> = crate::test_support::built_in_variants()
            .iter()
            .map(|variant| variant.start())
            .filter(|start| {
                start
                    .rules()
                    .custom()
                    .is_some_and(|set| set.spec.surrounding_fatal)
            })
            .collect();
        assert!(starts.len() > 3, "{} games with encirclement", starts.len());
        let positions =
            crate::test_support::positions_along_random_games(&starts, 8, 200, 0x7a3b_91c4_5e2d);
        let (mut kept, mut not_kept) = (0, 0);
        for position in positions
            .iter()
            .filter(|p| p.side_to_move() == Side::Attackers)
        {
            let set = position.rules().custom().expect("filtered above");
            let masks = CustomViewMasks::of(set);
            let views = SideViews::of(position);
            let lines = DefendersEdgeLines::of(position, &views, &masks);
            for m in position.legal_moves() {
                let mut after = *position;
                let captured = after.play_unchecked(m);
                if captured.any() {
                    continue;
                }
                if lines.kept_after_attacker_lands(m.to()) {
                    let views_after = views.after(Side::Attackers, m, captured);
                    assert!(
                        defenders_see_the_edge(&after, &views_after, &masks),
                        "{m:?} blocks the last line in {position:?}"
                    );
                    kept += 1;
                } else {
                    not_kept += 1;
                }
            }
        }
        assert!(
            kept > 10_000 && not_kept > 100,
            "{kept} kept, {not_kept} not"
        );
    }
}
