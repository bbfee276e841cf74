//! How many of a depth's leaves are finished games, the `ends` lines of the perft fixtures
//! (tests/data/opentafl-variants.txt, tests/data/ashton-perft.txt).
#![allow(dead_code)]

use tafl_engine::{Grid, MoveList, Position, Side};

/// The leaves at `depth` below `position` that are games won on the board: (attacker wins,
/// defender wins, draws). A finished game is a leaf and is not expanded; repetition never ends a
/// line here (no position of the fixtures repeats within their depths), so draws stay 0.
pub fn finished_leaves<B: Grid>(position: &Position<B>, depth: u32) -> (u64, u64, u64) {
    finished_leaves_with(position, depth, &mut Vec::new())
}

/// [`finished_leaves`], reusing the move lists in `moves` from ply to ply.
fn finished_leaves_with<B: Grid>(
    position: &Position<B>,
    depth: u32,
    moves: &mut Vec<MoveList<B>>,
) -> (u64, u64, u64) {
    if depth == 0 {
        return match position.winner() {
            Some(Side::Attackers) => (1, 0, 0),
            Some(Side::Defenders) => (0, 1, 0),
            None => (0, 0, 0),
        };
    }
    let mut list = moves.pop().unwrap_or_default();
    position.legal_moves_into(&mut list);
    let mut total = (0, 0, 0);
    for &m in list.iter() {
        let mut next = *position;
        next.play_unchecked(m);
        let (a, d, draws) = finished_leaves_with(&next, depth - 1, moves);
        total = (total.0 + a, total.1 + d, total.2 + draws);
    }
    moves.push(list);
    total
}
