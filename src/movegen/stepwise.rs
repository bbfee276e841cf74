//! The move generator of the wide grid (boards above 11x11, always under custom rules): each
//! piece walks its four lines a square at a time, stopping at the first piece, at the first
//! square its class may not pass, at the board's edge or at its speed limit
//! (docs/rules-strings.md, C3, C4; docs/rules-hosts.md, C12). The narrow grid's generator works a
//! line at a time from tables of 11-square lines; this one is generic, so it is checked against
//! that one on the narrow grid (tests below) and plays the same moves on both grids.

use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::RuleGrid;
use crate::rules::custom::RuleSet;

/// The four directions a piece moves in, as file and rank steps.
const STEPS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// Calls `visit` with each move the side to move has under the custom rules `set`, in a position
/// not yet won (P1 is the caller's).
pub(crate) fn for_each_custom_move<B: RuleGrid>(
    position: &Position<B>,
    set: &RuleSet<B>,
    mut visit: impl FnMut(Move<B>),
) {
    let occupied = position.occupied();
    for from in position.pieces(position.side_to_move()) {
        let (no_pass, no_stop, speed) = position.custom_piece_limits(set, from);
        let blocked = occupied | no_pass;
        for (dx, dy) in STEPS {
            let mut square = from;
            let mut steps = 0;
            // The square off the board's side ends the walk: `at` refuses it past the grid, and
            // `set.board` below the grid's width.
            while let Some(next) = square.offset(dx, dy) {
                if !set.board.contains(next) || blocked.contains(next) {
                    break;
                }
                if !no_stop.contains(next) {
                    visit(Move::new(from, next));
                }
                square = next;
                steps += 1;
                if steps == speed {
                    break; // No limit (0) is never reached.
                }
            }
        }
    }
}

/// The moves of [`for_each_custom_move`] into `moves` (emptied first).
pub(crate) fn generate_custom_stepwise<B: RuleGrid>(
    position: &Position<B>,
    set: &RuleSet<B>,
    moves: &mut MoveList<B>,
) {
    moves.clear();
    for_each_custom_move(position, set, |m| {
        // Cannot fail: the list holds `B::MAX_LEGAL_MOVES`, the most any position has.
        let _ = moves.try_push(m);
    });
}

/// How many moves [`for_each_custom_move`] gives.
pub(crate) fn count_custom_stepwise<B: RuleGrid>(position: &Position<B>, set: &RuleSet<B>) -> u32 {
    let mut count = 0;
    for_each_custom_move(position, set, |_| count += 1);
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Wide;
    use crate::test_support::{built_in_variants, positions_along_random_games};

    /// The moves as text, sorted: squares are named alike on both grids.
    fn sorted_names<B: RuleGrid>(moves: impl IntoIterator<Item = Move<B>>) -> Vec<String> {
        let mut names: Vec<String> = moves.into_iter().map(|m| m.to_string()).collect();
        names.sort();
        names
    }

    /// Along random games of every built-in variant under custom rules, the stepwise generator
    /// gives the narrow generator's moves (an independent oracle: that one works from line
    /// tables), on the narrow grid and on the wide one, and counts them.
    #[test]
    fn the_stepwise_moves_are_the_line_tables_moves_on_both_grids() {
        let starts: Vec<Position> = built_in_variants()
            .iter()
            .map(|variant| variant.start())
            .filter(|start| start.rules().custom().is_some())
            .collect();
        assert!(starts.len() >= 9, "{} custom starts", starts.len());
        let positions = positions_along_random_games(&starts, 3, 120, 0x5eed_0030);
        let mut compared = 0;
        for position in positions {
            if position.winner().is_some() {
                continue;
            }
            let set = position.rules().custom().unwrap(); // Filtered above.
            let expected = sorted_names(position.legal_moves());
            let mut narrow = MoveList::new();
            generate_custom_stepwise(&position, set, &mut narrow);
            assert_eq!(sorted_names(narrow), expected, "{position:?}");
            assert_eq!(count_custom_stepwise(&position, set), expected.len() as u32);
            let wide = position.on_grid::<Wide>();
            let wide_set = wide.rules().custom().unwrap(); // The same rules, compiled wide.
            let mut wide_moves = MoveList::new();
            generate_custom_stepwise(&wide, wide_set, &mut wide_moves);
            assert_eq!(sorted_names(wide_moves), expected, "{position:?}");
            compared += 1;
        }
        assert!(compared > 2000, "{compared} positions compared");
    }
}
