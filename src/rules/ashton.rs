//! Ashton Tablut: the rules of the University of Bologna's Tablut Challenge, as its game server
//! plays them (`GameAshtonTablut`, docs/rules-hosts.md C12-C14), written as custom rules data.
//!
//! What sets them apart from OpenTafl's games: the sixteen attackers start on four groups of
//! camps, squares that only a piece starting its move on a camp may cross or stop on, and no move
//! leads from one group to another; camps are hostile (the middle square of each group only to
//! the defenders); nothing crosses or lands on the throne; the defenders move first; the first
//! recurrence of a position draws.

use crate::board::Wide;
use crate::square::Square;

use super::custom::{
    Dialect, Escape, KindRules, KingStrength, Letters, RuleSpec, Shieldwall, SquareKind, SquareSet,
    WallSearch,
};
use super::repetition::RepetitionRule;
use super::starts::StartPlacement;

/// The board is 9x9.
const SIZE: u8 = 9;

/// C12: the sixteen camps (the server's "citadels"), four groups of four around the edges.
const CAMPS: [&str; 16] = [
    "a4", "a5", "a6", "b5", "d1", "e1", "f1", "e2", "i4", "i5", "i6", "h5", "d9", "e9", "f9", "e8",
];

/// C13: the middle camp of each group, on the edge: hostile to the defenders only.
const MIDDLE_CAMPS: [&str; 4] = ["a5", "e1", "i5", "e9"];

/// C12: a move from a camp to a camp is at most this long, which keeps each piece in its group.
const CAMP_MOVE_LIMIT: u8 = 5;

/// Ashton Tablut's start (the server's `StateTablut`): Tablut's placement (R1), the attackers on
/// the camps, the king on the throne, his eight soldiers in a cross.
pub(crate) const START: &StartPlacement = &super::starts::TABLUT_START;

/// The set of the named squares (all of them are on a 9x9 board).
fn squares(names: &[&str]) -> SquareSet {
    names
        .iter()
        .filter_map(|name| name.parse::<Square<Wide>>().ok())
        .fold(SquareSet::EMPTY, |set, square| set | square)
}

/// The Ashton rules as data.
pub(crate) fn spec() -> RuleSpec {
    // Letters in OpenTafl's order `tcnkmgTCNKMG`: `t` stands for the attackers, `T` for the
    // defenders and their king (only these two count for hostility).
    let attackers_and_defenders = Letters(1 | 1 << 6);
    let defenders = Letters(1 << 6);
    let nobody = Letters::NONE;
    let unused = KindRules {
        passable: nobody,
        stoppable: nobody,
        hostile: nobody,
        hostile_empty: nobody,
        reenterable: nobody,
    };
    let mut kinds = [unused; 4];
    // C12: no piece crosses or stops on the throne, the king once he has left it included.
    // C13: the empty throne is hostile to both sides; occupied (by the king), to the defenders'
    // soldiers (the king is an anvil for the attackers anyway).
    kinds[SquareKind::Throne as usize] = KindRules {
        passable: nobody,
        stoppable: nobody,
        hostile: defenders,
        hostile_empty: attackers_and_defenders,
        reenterable: nobody,
    };
    let mut throne = [SquareSet::EMPTY; 4];
    throne[SquareKind::Throne as usize] = squares(&["e5"]);
    let camps = squares(&CAMPS);
    RuleSpec {
        size: SIZE,
        // C14: the king escapes to any edge square.
        escape: Escape::Edge,
        surrounding_fatal: false,
        repetition: RepetitionRule::SecondOccurrenceDrawsStartUncounted,
        // C13: the king captures and is an anvil.
        king_hammer: true,
        king_anvil: true,
        // C13: four attackers on the throne, three and the throne next to it, two elsewhere.
        king_strength: KingStrength::StrongAtThrone,
        shieldwall: Shieldwall::None,
        shieldwall_flanking: true,
        shieldwall_search: WallSearch::OpenTafl,
        edge_fort: false,
        linnaean: false,
        speeds: [-1; 12],
        squares: throne,
        kinds,
        camps,
        camp_move_limit: CAMP_MOVE_LIMIT,
        // Indexed by the victims' side: attackers first.
        camp_hostility: [camps - squares(&MIDDLE_CAMPS), camps],
        // C14: no win by taking every attacker, none for defenders walled in.
        opentafl_ends: false,
        dialect: Dialect::OpenTafl,
        move_limit: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_camps_are_sixteen_squares_in_four_groups_and_the_start_stands_on_them() {
        let spec = spec();
        assert_eq!(spec.camps.count(), 16);
        assert_eq!(START.attackers.on_grid(), spec.camps);
        assert_eq!(START.king.on_grid(), squares(&["e5"]));
        // Each middle camp is on an edge and next to the group's inner camp.
        for (middle, inner) in [("a5", "b5"), ("e1", "e2"), ("i5", "h5"), ("e9", "e8")] {
            let (middle, inner) = (squares(&[middle]), squares(&[inner]));
            assert!((middle & SquareSet::edge_of(SIZE)).any());
            assert!((middle.neighbours() & inner).any());
        }
    }
}
