//! Seeded middlegames: the same positions on every run, shared by the search tests and the
//! search benchmark (which includes this file by path).
#![allow(dead_code)]

use tafl_engine::{Game, Grid, Variant};

/// A middlegame: `plies` seeded random moves from the start (the same every run), stopped early
/// if the game ends, on either grid. Moves are picked from the sorted list, so that the positions
/// do not change with the generator's order.
pub fn middlegame<B: Grid>(variant: &Variant<B>, plies: usize, seed: u64) -> Game<B> {
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

/// A small random number generator (a linear congruential one), so that the fake servers'
/// games are repeatable.
pub struct Lcg(pub u64);

impl Lcg {
    /// A number below `n` (at least 1).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}
