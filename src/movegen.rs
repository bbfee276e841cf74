//! Legal move generation and counting (R5-R7), set-wise over the whole board.
//!
//! Generation: all pieces of the side to move slide one step at a time in one direction
//! together: after `k` steps, the set holds every square reached by a piece `k` squares away
//! along an empty path. Squares reached this way are the destinations, less the castle (R6: no
//! piece stops there); the empty castle stays in the path, so pieces pass over it (R7).
//!
//! Counting needs no list and no loop over distances: in each of the four [views](crate::views)
//! of the board, one addition finds every square reached sliding that way, and a popcount counts
//! them. Perft's last ply is counted this way.

use crate::bitboard::{Bitboard, Direction};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::square::Square;
use crate::views::{self, View};

/// Calls `visit` with the set of destinations reached after `distance` steps in `direction`,
/// for every direction and distance that reaches any square.
#[inline(always)]
fn for_each_step(position: &Position, mut visit: impl FnMut(Direction, i32, Bitboard)) {
    if position.winner().is_some() {
        return; // P1: a won position has no legal moves.
    }
    let geometry = position.rules().geometry();
    let movers = position.pieces(position.side_to_move());
    let empty = geometry.board - position.occupied();
    for direction in Direction::ALL {
        let mut reached = movers;
        let mut distance = 0;
        loop {
            reached = reached.shift(direction) & empty;
            if reached.is_empty() {
                break;
            }
            distance += 1;
            visit(direction, distance, reached & geometry.destinations);
        }
    }
}

/// Calls `visit` with every legal move of the side to move, in the order of [`generate`].
#[inline(always)]
pub(crate) fn for_each_move(position: &Position, mut visit: impl FnMut(Move)) {
    for_each_step(position, |direction, distance, destinations| {
        let back = direction.index_step() * distance;
        // The halves of the set are walked separately: finding the lowest bit of a u64 is one
        // instruction, of a u128 several.
        let halves = [
            (destinations.0 as u64, 0),
            ((destinations.0 >> 64) as u64, 64),
        ];
        for (mut half, offset) in halves {
            while half != 0 {
                let to_index = half.trailing_zeros() as i32 + offset;
                half &= half - 1;
                // Both squares are on the board by construction: `to` is a destination and the
                // piece came from `back` squares behind it.
                let to = u8::try_from(to_index).ok().and_then(Square::from_index);
                let from = u8::try_from(to_index - back)
                    .ok()
                    .and_then(Square::from_index);
                if let (Some(from), Some(to)) = (from, to) {
                    visit(Move::new(from, to));
                }
            }
        }
    });
}

/// Appends every legal move of the side to move to `moves`: by direction (north, south, east,
/// west), then by distance, then by destination.
pub(crate) fn generate(position: &Position, moves: &mut MoveList) {
    for_each_move(position, |m| {
        // The capacity bound is proved at MAX_LEGAL_MOVES; try_push never fails.
        let _ = moves.try_push(m);
    });
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
