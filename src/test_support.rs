//! Helpers shared by the unit tests.

/// A xorshift64 sequence: fixed pseudo-random numbers for seeded test games and test sets.
pub(crate) struct XorShift(pub(crate) u64);

impl XorShift {
    /// The next number of the sequence (the seed must not be zero).
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Every built-in variant ([`crate::Variant::names`]), in that order: a variant added there is
/// covered by the tests that take this list.
pub(crate) fn built_in_variants() -> Vec<crate::Variant> {
    crate::Variant::names()
        .iter()
        .filter_map(|name| crate::Variant::by_name(name))
        .collect()
}

/// The positions along seeded pseudo-random games: `games_per_start` games from each of
/// `starts`, each played until it has no legal move (a won game has none) or for `plies` plies,
/// every position reached, the last one included, in the order played. On either grid.
pub(crate) fn positions_along_random_games<B: crate::Grid>(
    starts: &[crate::Position<B>],
    games_per_start: usize,
    plies: usize,
    seed: u64,
) -> Vec<crate::Position<B>> {
    let mut random = XorShift(seed);
    let mut positions = Vec::new();
    for start in starts {
        for _ in 0..games_per_start {
            let mut position = *start;
            positions.push(position);
            for _ in 0..plies {
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let pick = random.next() % moves.len() as u64;
                position.play_unchecked(moves[pick as usize]);
                positions.push(position);
            }
        }
    }
    positions
}

#[cfg(test)]
mod tests {
    use crate::Position;

    #[test]
    fn random_games_are_played_move_by_move_from_each_start() {
        let starts = [Position::tablut(), Position::tawlbwrdd()];
        let positions = super::positions_along_random_games(&starts, 3, 40, 0xfeed);
        let mut games = 0;
        for (i, position) in positions.iter().enumerate() {
            if starts.contains(position) {
                games += 1;
                continue;
            }
            // Any other position is one legal move on from the one before it.
            let before = positions[i - 1];
            let reached = before.legal_moves().into_iter().any(|m| {
                let mut next = before;
                next.play_unchecked(m);
                next == *position
            });
            assert!(reached, "{position:?} does not follow {before:?}");
        }
        assert_eq!(games, 6);
        assert!(positions.len() > 6 * 30, "{} positions", positions.len());
        // The same seed, the same games.
        assert_eq!(
            positions,
            super::positions_along_random_games(&starts, 3, 40, 0xfeed)
        );
    }
}
