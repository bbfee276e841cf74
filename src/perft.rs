//! Perft (RULES.md P1): the number of move paths of a given length, to check move generation.

use crate::moves::Move;
use crate::position::Position;

/// `perft(p, d)` of P1, counting the last ply without playing it (bulk counting).
///
/// ```
/// use tafl_engine::{perft, Position};
/// assert_eq!(perft::perft(&Position::tablut(), 2), 4400);
/// ```
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => u64::from(position.count_legal_moves()),
        _ => position
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut next = *position;
                next.play_unchecked(m);
                perft(&next, depth - 1)
            })
            .sum(),
    }
}

/// The same count as [`perft()`], but every leaf is played: the cost of a full make-move per node.
pub fn perft_without_bulk(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    position
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut next = *position;
            next.play_unchecked(m);
            perft_without_bulk(&next, depth - 1)
        })
        .sum()
}

/// Perft split by first move: each legal move with `perft` of the position after it, sorted by
/// the move's text. The counts add up to `perft(position, depth)` for `depth >= 1`.
pub fn divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut split: Vec<(Move, u64)> = position
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut next = *position;
            next.play_unchecked(m);
            (m, perft(&next, depth.saturating_sub(1)))
        })
        .collect();
    split.sort_by_key(|(m, _)| m.to_string());
    split
}
