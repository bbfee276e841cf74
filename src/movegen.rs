//! Legal move generation and counting (R5-R7), set-wise over the whole board.
//!
//! All pieces of the side to move slide one step at a time in one direction together: after `k`
//! steps, the set holds every square reached by a piece `k` squares away along an empty path.
//! Squares reached this way are the destinations, less the castle (R6: no piece stops there);
//! the empty castle stays in the path, so pieces pass over it (R7). Counting is a popcount per
//! step, so perft's last ply never lists moves.

use crate::bitboard::{Bitboard, Direction};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::square::Square;

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

/// Appends every legal move of the side to move to `moves`.
pub(crate) fn generate(position: &Position, moves: &mut MoveList) {
    for_each_step(position, |direction, distance, destinations| {
        let back = direction.index_step() * distance;
        for to in destinations {
            let from_index = i32::from(to.index()) - back;
            // `from_index` is the square the piece left, on the board by construction.
            if let Some(from) = u8::try_from(from_index).ok().and_then(Square::from_index) {
                // The capacity bound is proved at MAX_LEGAL_MOVES; try_push never fails.
                let _ = moves.try_push(Move::new(from, to));
            }
        }
    });
}

/// The number of legal moves of the side to move.
#[inline]
pub(crate) fn count(position: &Position) -> u32 {
    let mut total = 0;
    for_each_step(position, |_, _, destinations| total += destinations.count());
    total
}
