//! Seeded middlegames: the same positions on every run, shared by the search tests and the
//! search benchmark (which includes this file by path).
#![allow(dead_code)]

use tafl_engine::{Game, Variant};

/// A middlegame: `plies` seeded random moves from the start (the same every run). Moves are
/// picked from the sorted list, so that the positions do not change with the generator's order.
pub fn middlegame(variant: &Variant, plies: usize, seed: u64) -> Game {
    let mut game = Game::new(variant);
    let mut state = seed;
    for _ in 0..plies {
        let mut moves = game.legal_moves();
        moves.sort();
        if moves.is_empty() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        game.play(moves[(state % moves.len() as u64) as usize])
            .expect("a move from the legal list is legal");
    }
    game
}
