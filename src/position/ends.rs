//! How a game under custom rules ends on the board (docs/rules.md, C9), tested in OpenTafl's order: a side without pieces, the king escaped, the king taken,
//! defenders that cannot move at all, an edge fort, the defenders encircled.

use crate::bitboard::{Bitboard, Direction};
use crate::piece::Side;
use crate::position::{Position, WinReason};
use crate::rules::custom::{Class, Escape, RuleSet};

impl Position {
    /// The winner and how, if the game on the board is won under the custom rules `set`.
    pub(super) fn custom_winner(&self, set: &RuleSet) -> Option<(Side, WinReason)> {
        if self.attackers.is_empty() && set.spec.opentafl_ends {
            return Some((Side::Defenders, WinReason::AllPiecesCaptured));
        }
        if self.king.is_empty() {
            return Some((Side::Attackers, WinReason::KingCaptured));
        }
        let escapes = match set.spec.escape {
            Escape::Edge => set.edge,
            Escape::Corner => set.corners(),
        };
        if (self.king & escapes).any() {
            return Some((Side::Defenders, WinReason::KingEscaped));
        }
        let empty = set.board - self.occupied();
        if set.spec.opentafl_ends && ((self.defenders | self.king).neighbours() & empty).is_empty()
        {
            return Some((Side::Attackers, WinReason::DefendersImmobile));
        }
        if set.spec.edge_fort && self.is_edge_fort(set) {
            return Some((Side::Defenders, WinReason::EdgeFort));
        }
        if set.spec.surrounding_fatal && self.defenders_encircled(set) {
            return Some((Side::Attackers, WinReason::Encircled));
        }
        None
    }

    /// The squares the king reaches from his square `from`: each on his lines through squares
    /// he may pass, where he may stop, no farther than his speed limit (his own square, still
    /// his, blocks the way back).
    fn king_destinations_from(&self, set: &RuleSet, from: Bitboard) -> Bitboard {
        let start = set.start_kind(self.king);
        let class = Class::King as usize;
        let open = set.board - self.occupied() - set.no_pass[class][start];
        let speed = set.speed[class];
        let mut reached = Bitboard::EMPTY;
        for direction in Direction::ALL {
            reached |= if speed == 0 {
                from.slides(direction, open)
            } else {
                let (mut step, mut all) = (from, Bitboard::EMPTY);
                for _ in 0..speed {
                    step = step.shift(direction) & open;
                    all |= step;
                }
                all
            };
        }
        reached - set.no_stop[class][start]
    }

    /// Whether the king is in an edge fort: either he stands in a defenders' shieldwall and can
    /// move, or the squares he can reach by any number of moves (his own among them) touch an edge
    /// (or he stands on one and can move), only defenders stand next to them, and each of those
    /// defenders has at most two neighbours outside them that are not defenders.
    pub(super) fn is_edge_fort(&self, set: &RuleSet) -> bool {
        let king_moves = self.king_destinations_from(set, self.king);
        let walls = self.find_shieldwalls(set, Side::Defenders);
        let king_walled = walls.iter().any(|(held, _)| {
            held.iter().any(|&square| self.king.contains(square)) && king_moves.any()
        });
        if king_walled {
            return true;
        }
        let mut fort = self.king | king_moves;
        let mut frontier = king_moves;
        while frontier.any() {
            let mut next = Bitboard::EMPTY;
            for square in frontier {
                next |= self.king_destinations_from(set, Bitboard::from_square(square));
            }
            frontier = next - fort;
            fort |= next;
        }
        if (self.king & set.edge).any() {
            if king_moves.is_empty() {
                return false;
            }
        } else if (fort & set.edge).is_empty() {
            return false;
        }
        let around = fort.neighbours() & set.board & self.occupied();
        if (around & self.attackers).any() {
            return false;
        }
        let defenders = self.defenders | self.king;
        // The fort's walls: the defenders next to it, the king too if he stands next to a square
        // of it.
        (around & defenders).into_iter().all(|square| {
            let outside = Bitboard::neighbours_of(square) & (set.board - fort);
            (outside - defenders).count() < 3
        })
    }

    /// Whether no defender can reach an edge: no edge square holds one, and none stands next to
    /// the empty squares joined to an empty edge square.
    pub(super) fn defenders_encircled(&self, set: &RuleSet) -> bool {
        let defenders = self.defenders | self.king;
        if (defenders & set.edge).any() {
            return false;
        }
        let empty = set.board - self.occupied();
        let region = (set.edge & empty).flood(empty);
        (region.neighbours() & defenders).is_empty()
    }
}
