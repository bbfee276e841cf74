//! Legal move generation and counting (R5-R7).
//!
//! Perft's generation works line by line: for each rank, and each file (a rank of the
//! transposed [view](crate::views)), the line's occupancy fits in a few bits, so how far a piece
//! slides each way is a count of zero bits. The moves of a slide of length `k` are the first `k`
//! moves of a precomputed ray, copied as a block: no loop over squares and almost no branches.
//! The castle (R6: no piece stops there) is left out of a ray that passes over it (R7).
//! `Position::legal_moves` lists the same moves in the order it always has, set-wise by
//! direction and distance (see [`generate`]).
//!
//! Counting needs no list at all: in each of the four views of the board, one addition finds
//! every square reached sliding that way, and a popcount counts them. Perft's last ply is
//! counted this way.

use crate::bitboard::{Bitboard, Direction};
use crate::moves::{MAX_LEGAL_MOVES, Move, MoveList};
use crate::position::Position;
use crate::square::{MAX_BOARD_SIZE, STRIDE, Square};
use crate::views::{self, View};

/// Length of a precomputed ray: longer than any slide (at most 10 squares), so that a ray can be
/// copied as a fixed-size block even from just after the castle.
const RAY_LENGTH: usize = 16;

/// The four directions of the rays, in the order moves are generated for each piece.
#[derive(Clone, Copy)]
enum Ray {
    East = 0,
    West = 1,
    North = 2,
    South = 3,
}

/// Room for the most legal moves any position has, plus the overshoot of one block copy.
const BUFFER_LENGTH: usize = MAX_LEGAL_MOVES + RAY_LENGTH;

/// A placeholder move for the unused entries of rays and buffers.
const NO_MOVE: Move = Move::new(Square::A1, Square::A1);

/// For each square and direction, the moves from that square to the squares along the ray,
/// nearest first; entries past the edge of the 11x11 grid are placeholders, never used.
static RAYS: [[[Move; RAY_LENGTH]; 4]; GRID_SQUARES] = {
    let mut table = [[[NO_MOVE; RAY_LENGTH]; 4]; GRID_SQUARES];
    let mut index = 0;
    while index < GRID_SQUARES {
        let from = index as u8;
        let (x, y) = ((from % STRIDE) as i32, (from / STRIDE) as i32);
        let steps = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let mut ray = 0;
        while ray < 4 {
            let mut distance = 1;
            while distance < RAY_LENGTH as i32 {
                let (tx, ty) = (x + steps[ray].0 * distance, y + steps[ray].1 * distance);
                if tx >= 0 && ty >= 0 && tx < MAX_BOARD_SIZE as i32 && ty < MAX_BOARD_SIZE as i32 {
                    if let (Some(from), Some(to)) = (
                        Square::from_index(index as u8),
                        Square::from_index((ty * STRIDE as i32 + tx) as u8),
                    ) {
                        table[index][ray][distance as usize - 1] = Move::new(from, to);
                    }
                }
                distance += 1;
            }
            ray += 1;
        }
        index += 1;
    }
    table
};

/// Number of squares on the 11-wide grid.
const GRID_SQUARES: usize = (MAX_BOARD_SIZE as usize) * (MAX_BOARD_SIZE as usize);

/// The bits of one line (rank or file) of the grid.
const LINE_BITS: u32 = (1 << MAX_BOARD_SIZE) - 1;

/// Moves written to a buffer a ray at a time: each ray is copied as a whole block of
/// `RAY_LENGTH` moves, and the length then grows by the number of moves really made.
struct MoveBuffer {
    moves: [Move; BUFFER_LENGTH],
    len: usize,
}

impl MoveBuffer {
    fn new() -> MoveBuffer {
        MoveBuffer {
            moves: [NO_MOVE; BUFFER_LENGTH],
            len: 0,
        }
    }

    fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len.min(MAX_LEGAL_MOVES)]
    }
}

/// Longest slide that can pass over the castle before it: the castle is the centre of a board
/// of at most 11 squares a side, so at most 5 squares from any square of its rank or file.
const MAX_CASTLE_DISTANCE: usize = MAX_BOARD_SIZE as usize / 2;

/// Appends the first `length` moves of `ray` at `len` in `moves`; returns the new length.
#[inline(always)]
fn push_ray(
    moves: &mut [Move; BUFFER_LENGTH],
    len: usize,
    ray: &[Move; RAY_LENGTH],
    length: u32,
) -> usize {
    // `len` stays at most MAX_LEGAL_MOVES (the bound proved there), so the block always fits.
    if let Some(block) = moves.get_mut(len..len + RAY_LENGTH) {
        block.copy_from_slice(ray);
    }
    len + length as usize
}

/// `push_ray` for a ray that reaches the empty castle `castle` squares away (R6, R7): the moves
/// beyond it move up one place over the move to the castle.
#[inline(never)]
fn push_ray_over_castle(
    moves: &mut [Move; BUFFER_LENGTH],
    len: usize,
    ray: &[Move; RAY_LENGTH],
    length: u32,
    castle: u32,
) -> usize {
    let end = push_ray(moves, len, ray, length);
    let castle = castle as usize;
    if castle == 0 || castle > length as usize || castle > MAX_CASTLE_DISTANCE {
        return end;
    }
    let start = len + castle - 1;
    const TAIL: usize = RAY_LENGTH - MAX_CASTLE_DISTANCE;
    if let (Some(block), Some(tail)) = (
        moves.get_mut(start..start + TAIL),
        ray.get(castle..castle + TAIL),
    ) {
        block.copy_from_slice(tail);
    }
    end - 1
}

/// How far a piece at bit `at` of a line slides towards higher bits and towards lower bits,
/// given the line's `blocked` bits (occupied or off the board, every bit past the line set).
#[inline(always)]
fn slide_lengths(blocked: u32, at: u32) -> (u32, u32) {
    let up = (blocked >> (at + 1)).trailing_zeros();
    // The highest blocked bit below `at`, plus one; 0 if there is none (the sentinel bit 0).
    let below = ((blocked & ((1 << at) - 1)) << 1) | 1;
    let highest_below = 31 - below.leading_zeros();
    (up, at - highest_below)
}

/// The moves of the `movers` of one line (a rank, or a file seen as a rank of the transposed
/// view): `first_square + at * step` is the square of bit `at`, `rays` the directions towards
/// higher and lower bits, `castle` the bit of the empty castle if it is on this line.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn push_line(
    moves: &mut [Move; BUFFER_LENGTH],
    mut len: usize,
    mut movers: u32,
    blocked: u32,
    first_square: usize,
    step: usize,
    rays: (Ray, Ray),
    castle: Option<u32>,
) -> usize {
    while movers != 0 {
        let at = movers.trailing_zeros();
        movers &= movers - 1;
        let Some(from_rays) = RAYS.get(first_square + at as usize * step) else {
            continue;
        };
        let (up_ray, down_ray) = (&from_rays[rays.0 as usize], &from_rays[rays.1 as usize]);
        let (up, down) = slide_lengths(blocked, at);
        match castle {
            None => {
                len = push_ray(moves, len, up_ray, up);
                len = push_ray(moves, len, down_ray, down);
            }
            Some(castle) => {
                let up_to_castle = castle.wrapping_sub(at);
                let down_to_castle = at.wrapping_sub(castle);
                len = push_ray_over_castle(moves, len, up_ray, up, up_to_castle);
                len = push_ray_over_castle(moves, len, down_ray, down, down_to_castle);
            }
        }
    }
    len
}

/// Writes every legal move of the side to move into `buffer`: by rank, each piece east then west,
/// then by file, each piece north then south; nearest destination first.
#[inline(always)]
fn generate_into(position: &Position, buffer: &mut MoveBuffer) {
    if position.winner().is_some() {
        return; // P1: a won position has no legal moves.
    }
    let rules = position.rules();
    let size = u32::from(rules.size());
    let side = position.side_to_move();
    let off_board = !((1u32 << size) - 1);
    let castle = rules.castle();
    let castle_empty = !position.occupied().contains(castle);
    let (castle_x, castle_y) = (u32::from(castle.x()), u32::from(castle.y()));
    let stride = usize::from(STRIDE);
    let moves = &mut buffer.moves;
    let mut len = 0;

    // Ranks: the board itself.
    let mut occupied = position.occupied().0;
    let mut movers = position.pieces(side).0;
    for y in 0..size {
        let blocked = off_board | (occupied as u32 & LINE_BITS);
        let castle_at = (castle_empty && y == castle_y).then_some(castle_x);
        let first_square = y as usize * stride;
        let line_movers = movers as u32 & LINE_BITS;
        len = push_line(
            moves,
            len,
            line_movers,
            blocked,
            first_square,
            1,
            (Ray::East, Ray::West),
            castle_at,
        );
        occupied >>= STRIDE;
        movers >>= STRIDE;
    }

    // Files: the ranks of the transposed (`North`) view.
    let north = View::North as usize - 1;
    let mut movers = position.viewed_pieces(side)[north];
    let mut occupied = movers | position.viewed_pieces(side.opponent())[north];
    for x in 0..size {
        let blocked = off_board | (occupied as u32 & LINE_BITS);
        let castle_at = (castle_empty && x == castle_x).then_some(castle_y);
        let line_movers = movers as u32 & LINE_BITS;
        len = push_line(
            moves,
            len,
            line_movers,
            blocked,
            x as usize,
            stride,
            (Ray::North, Ray::South),
            castle_at,
        );
        occupied >>= STRIDE;
        movers >>= STRIDE;
    }
    buffer.len = len;
}

/// Calls `visit` with every legal move of the side to move: the moves of [`generate`], in
/// another order (by rank, each piece east then west, then by file, each piece north then
/// south, nearest destination first).
#[inline(always)]
pub(crate) fn for_each_move(position: &Position, mut visit: impl FnMut(Move)) {
    let mut buffer = MoveBuffer::new();
    generate_into(position, &mut buffer);
    for &m in buffer.as_slice() {
        visit(m);
    }
}

/// Appends every legal move of the side to move to `moves`, in the order the crate has always
/// listed them (callers, such as seeded random games in tests, rely on it): by direction (north,
/// south, east, west), then by distance, then by destination square.
///
/// All pieces slide together one step at a time in one direction: after `k` steps the set holds
/// every square reached by a piece `k` squares away along an empty path; those squares less the
/// castle (R6) are the destinations, and the empty castle stays in the path (R7). Perft does not
/// need this order and uses the faster line-by-line [`for_each_move`].
pub(crate) fn generate(position: &Position, moves: &mut MoveList) {
    if position.winner().is_some() {
        return; // P1: a won position has no legal moves.
    }
    let rules = position.rules();
    let movers = position.pieces(position.side_to_move());
    let empty = rules.board() - position.occupied();
    let destinations = rules.board() - rules.castle();
    let stride = i32::from(STRIDE);
    for (direction, step) in [
        (Direction::North, stride),
        (Direction::South, -stride),
        (Direction::East, 1),
        (Direction::West, -1),
    ] {
        let mut reached = movers;
        let mut back = 0;
        loop {
            reached = reached.shift(direction) & empty;
            if reached.is_empty() {
                break;
            }
            back += step;
            // The halves of the set are walked separately: finding the lowest bit of a u64 is
            // one instruction, of a u128 several.
            let targets = (reached & destinations).0;
            for (mut half, offset) in [(targets as u64, 0), ((targets >> 64) as u64, 64)] {
                while half != 0 {
                    let to_index = half.trailing_zeros() as i32 + offset;
                    half &= half - 1;
                    // Both squares are on the board by construction: `to` is a destination and
                    // the piece came from `back` index steps behind it.
                    let to = u8::try_from(to_index).ok().and_then(Square::from_index);
                    let from = u8::try_from(to_index - back)
                        .ok()
                        .and_then(Square::from_index);
                    if let (Some(from), Some(to)) = (from, to) {
                        // The capacity bound is proved at MAX_LEGAL_MOVES; this never fails.
                        let _ = moves.try_push(Move::new(from, to));
                    }
                }
            }
        }
    }
}

/// The number of legal moves of the side to move.
#[inline]
pub(crate) fn count(position: &Position) -> u32 {
    if position.winner().is_some() {
        return 0; // P1: a won position has no legal moves.
    }
    let side = position.side_to_move();
    let movers = position.viewed_pieces(side);
    let others = position.viewed_pieces(side.opponent());
    count_slides(
        position.rules().size(),
        position.pieces(side).0,
        position.occupied().0,
        movers,
        [0, 1, 2].map(|view| movers[view] | others[view]),
    )
}

/// The number of legal moves in the position after `m`, a legal move, without playing it; or
/// `None` if `m` might capture.
///
/// A move that lands next to no enemy piece captures nothing (R8, R13), so after it only its two
/// squares have changed; if the king made it to the edge, the game is won (R14) and no move is
/// left (P1). Perft counts its last ply this way for most moves, and plays the others.
#[inline]
pub(crate) fn count_after_quiet_move(position: &Position, m: Move) -> Option<u32> {
    let (from, to) = (m.from(), m.to());
    let side = position.side_to_move();
    let next_side = side.opponent();
    let next_movers = position.pieces(next_side);
    if (Bitboard::neighbours_of(to) & next_movers).any() {
        return None;
    }
    if position.king_set().contains(from) && position.rules().edge().contains(to) {
        return Some(0); // R14
    }
    let changed = views::stored_bits(from)
        .iter()
        .zip(views::stored_bits(to))
        .map(|(from_bit, to_bit)| from_bit ^ to_bit);
    let movers = position.viewed_pieces(next_side);
    let others = position.viewed_pieces(side);
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
    use crate::piece::Side;
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
    fn both_generators_give_the_same_moves() {
        for position in positions() {
            let mut listed = position.legal_moves().to_vec();
            let mut visited = Vec::new();
            for_each_move(&position, |m| visited.push(m));
            listed.sort();
            visited.sort();
            assert_eq!(listed, visited, "{position:?}");
        }
    }

    #[test]
    fn counting_agrees_with_generation_and_with_playing() {
        for position in positions() {
            let moves = position.legal_moves();
            assert_eq!(count(&position), moves.len() as u32, "{position:?}");
            for &m in &moves {
                let mut next = position;
                next.play_unchecked(m);
                if let Some(quick) = count_after_quiet_move(&position, m) {
                    assert_eq!(quick, count(&next), "{position:?} then {m}");
                }
            }
        }
    }
}
