//! hnefatafl.org's rules: Copenhagen and Brandubh as the site's server plays them (the crate
//! `hnefatafl-copenhagen` 6.4.1; docs/rules-hosts.md, H1-H12), written as custom rules data.
//!
//! What sets them apart from OpenTafl's Copenhagen and Brandub: the server's own shieldwall,
//! exit-fort and encirclement tests and its win for the attackers when the defenders can no
//! longer escape ([`Dialect::HnefataflOrg`]); a draw after 141 moves; the defenders may not
//! recreate an earlier placement ([`RepetitionRule::DefendersMayNotRecreate`]); on 7x7 the
//! defenders move first, only the king passes the throne, and the king is strong on the throne
//! alone.

use crate::board::Wide;
use crate::square::Square;

use super::custom::{
    Dialect, Escape, KindRules, KingStrength, Letters, RuleSpec, Shieldwall, SquareKind, SquareSet,
    WallSearch,
};
use super::repetition::RepetitionRule;
use super::starts::StartPlacement;

/// H10: the server draws the game at its 141st move unless that move wins it (its game record
/// holds one empty entry before the first move, and a move made when the record is longer than
/// 140 entries draws).
pub(crate) const MOVE_LIMIT: u16 = 141;

/// H1: the 11x11 start (the server's `STARTING_POSITION_11X11`, OpenTafl's Copenhagen start).
pub(crate) const START_11: StartPlacement = StartPlacement::from_rows(&[
    "...aaaaa...",
    ".....a.....",
    "...........",
    "a....d....a",
    "a...ddd...a",
    "aa.ddKdd.aa",
    "a...ddd...a",
    "a....d....a",
    "...........",
    ".....a.....",
    "...aaaaa...",
]);

/// H1: the 7x7 start (the server's `STARTING_POSITION_7X7`, OpenTafl's Brandub start).
pub(crate) const START_7: StartPlacement = StartPlacement::from_rows(&[
    "...a...", "...a...", "...d...", "aadKdaa", "...d...", "...a...", "...a...",
]);

/// The rules for a board of `size` (7, 11 or 13; `None` for other sizes): the same rules but for
/// what the server does differently on 7x7 (H1, H2, H4, H7, H12); 13x13 as 11x11 but for H12's
/// start, not counted (docs/rules-hosts.md, H1, H12). A 13x13 board plays on the wide grid.
pub(crate) fn spec(size: u8) -> Option<RuleSpec> {
    if !matches!(size, 7 | 11 | 13) {
        return None;
    }
    let brandubh = size == 7;
    // Letters in OpenTafl's order `tcnkmgTCNKMG`: `t` stands for the attackers, `T` for the
    // defenders and their king (only these two count for hostility), `K` for the king.
    let attackers = Letters(1);
    let everyone = Letters(1 | 1 << 6);
    let all_pieces = Letters(1 | 1 << 6 | 1 << 9);
    let king = Letters(1 << 9);
    let unused = KindRules {
        passable: Letters::NONE,
        stoppable: Letters::NONE,
        hostile: Letters::NONE,
        hostile_empty: Letters::NONE,
        reenterable: Letters::NONE,
    };
    let mut kinds = [unused; 4];
    // H2: only the king stops on the throne; every piece passes it while empty, on 7x7 the king
    // alone. H3: the empty throne is hostile to everyone; occupied by the king, to the
    // attackers (it is his square: the king is their anvil).
    kinds[SquareKind::Throne as usize] = KindRules {
        passable: if brandubh { king } else { all_pieces },
        stoppable: king,
        hostile: attackers,
        hostile_empty: everyone,
        reenterable: all_pieces,
    };
    // H2, H3: only the king stops on a corner (where his side wins); corners are hostile to all.
    kinds[SquareKind::Corner as usize] = KindRules {
        passable: king,
        stoppable: king,
        hostile: everyone,
        hostile_empty: everyone,
        reenterable: all_pieces,
    };
    let middle = size / 2;
    let last = size - 1;
    let at = |x, y| Square::<Wide>::at(x, y).map_or(SquareSet::EMPTY, SquareSet::from_square);
    let mut squares = [SquareSet::EMPTY; 4];
    squares[SquareKind::Throne as usize] = at(middle, middle);
    squares[SquareKind::Corner as usize] = at(0, 0) | at(last, 0) | at(0, last) | at(last, last);
    Some(RuleSpec {
        size,
        // H6: the king escapes to a corner.
        escape: Escape::Corner,
        // H8: encirclement wins for the attackers (the server's test).
        surrounding_fatal: true,
        // H12: the defenders may not recreate a placement; the server's 7x7 and 13x13 games do
        // not count their start.
        repetition: if brandubh || size == 13 {
            RepetitionRule::DefendersMayNotRecreateStartUncounted
        } else {
            RepetitionRule::DefendersMayNotRecreate
        },
        // H3: the king captures and is an anvil.
        king_hammer: true,
        king_anvil: true,
        // H4: strong everywhere on 11x11 (four sides, the empty throne counting, so never on an
        // edge); on 7x7 strong on the throne, weak elsewhere.
        king_strength: if brandubh {
            KingStrength::StrongOnThrone
        } else {
            KingStrength::Strong
        },
        // H5: shieldwalls, corners bracketing, taken by a flanking move.
        shieldwall: Shieldwall::Strong,
        shieldwall_flanking: true,
        shieldwall_search: WallSearch::Published,
        // H7: exit forts, not on 7x7.
        edge_fort: !brandubh,
        linnaean: false,
        speeds: [-1; 12],
        squares,
        kinds,
        camps: SquareSet::EMPTY,
        camp_move_limit: 0,
        camp_hostility: [SquareSet::EMPTY; 2],
        // The server's own ends (H9, H11) instead of OpenTafl's.
        opentafl_ends: false,
        dialect: Dialect::HnefataflOrg,
        move_limit: MOVE_LIMIT,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starts_have_the_servers_numbers_of_pieces() {
        // The server counts captures from 24 and 12 (11x11), 8 and 4 (7x7).
        assert_eq!(START_11.attackers.count(), 24);
        assert_eq!(START_11.defenders.count(), 12);
        assert_eq!(START_7.attackers.count(), 8);
        assert_eq!(START_7.defenders.count(), 4);
        for placement in [&START_11, &START_7] {
            assert_eq!(placement.king.count(), 1);
        }
    }

    #[test]
    fn only_the_server_s_three_boards_are_played() {
        assert!(spec(11).is_some() && spec(7).is_some() && spec(13).is_some());
        assert!(spec(9).is_none() && spec(15).is_none());
        assert_eq!(spec(7).map(|s| s.edge_fort), Some(false));
        // 13x13 is 11x11's rules but for H12's start, not counted (as on 7x7).
        let (eleven, thirteen) = (spec(11).unwrap(), spec(13).unwrap());
        assert_eq!(
            thirteen.repetition,
            RepetitionRule::DefendersMayNotRecreateStartUncounted
        );
        assert_eq!(eleven.repetition, RepetitionRule::DefendersMayNotRecreate);
        assert_eq!(
            (
                thirteen.king_strength,
                thirteen.edge_fort,
                thirteen.move_limit
            ),
            (eleven.king_strength, eleven.edge_fort, eleven.move_limit)
        );
    }
}
