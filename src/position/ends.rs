//! How a game under custom rules ends on the board (docs/rules-strings.md, C9), tested in OpenTafl's order: a side without pieces, the king escaped, the king taken,
//! defenders that cannot move at all, an edge fort, the defenders encircled.

use crate::bitboard::{Bitboard, Direction};
use crate::piece::Side;
use crate::position::{Position, WinReason};
use crate::rules::RuleGrid;
use crate::rules::custom::{Class, Dialect, Escape, RuleSet};

use super::shieldwall::squares_inside;

impl<B: RuleGrid> Position<B> {
    /// The winner and how, if the game on the board is won under the custom rules `set`.
    pub(crate) fn custom_winner(&self, set: &RuleSet<B>) -> Option<(Side, WinReason)> {
        self.custom_winner_unless_encircled(set, false)
    }

    /// [`Position::custom_winner`], the encirclement left out when the caller has seen that the
    /// defenders are not encircled (`not_encircled`: perft sees it from a defender's open line
    /// to the edge, at less cost than the search for a way out).
    #[inline]
    pub(crate) fn custom_winner_unless_encircled(
        &self,
        set: &RuleSet<B>,
        not_encircled: bool,
    ) -> Option<(Side, WinReason)> {
        if set.spec.dialect == Dialect::HnefataflOrg {
            return self.hnefatafl_org_winner(set);
        }
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
        if set.spec.surrounding_fatal && !not_encircled && self.defenders_encircled(set) {
            return Some((Side::Attackers, WinReason::Encircled));
        }
        None
    }

    /// For counting moves (perft): whether the side to move has no legal move because the game
    /// is won ([`Position::custom_winner`]) after a move of the side to move's `piece` onto `to`
    /// that captures nothing, this position not being won; `after` makes that move on a copy,
    /// called only when the position after it must be looked at. Only what such a move can
    /// change is looked at: no piece leaves the board, so neither side runs out of pieces nor is
    /// the king taken; the king escapes only by moving; a defender's move leaves an empty square
    /// next to it, and never encircles the defenders (the squares it crossed join it to the open
    /// board), so `not_encircled` (of the position after the move) is asked only after an
    /// attacker's move; an edge fort may follow from either side's move. Defenders left without
    /// an empty square next to them by an attacker's move (OpenTafl's "defenders immobile") are
    /// not looked for: they have no legal move either way. hnefatafl.org's ends are all looked
    /// at. `edge_line_kept`: the caller has seen, without making the move, that a defender's
    /// open line to the edge survives it (so no encirclement, and `after` may not be needed).
    #[inline(always)]
    pub(crate) fn custom_no_moves_after_quiet_move(
        &self,
        set: &RuleSet<B>,
        piece: crate::piece::Piece,
        to: crate::square::Square<B>,
        edge_line_kept: bool,
        after: impl FnOnce() -> Position<B>,
        not_encircled: impl FnOnce(&Position<B>) -> bool,
    ) -> bool {
        if set.spec.dialect == Dialect::HnefataflOrg {
            return after().hnefatafl_org_winner(set).is_some();
        }
        if piece == crate::piece::Piece::King {
            let escapes = match set.spec.escape {
                Escape::Edge => set.edge,
                Escape::Corner => set.corners(),
            };
            if escapes.contains(to) {
                return true;
            }
        }
        let attackers_move = self.side_to_move == Side::Attackers;
        let encircling = attackers_move && set.spec.surrounding_fatal && !edge_line_kept;
        if !set.spec.edge_fort && !encircling {
            return false;
        }
        let next = after();
        if set.spec.edge_fort && next.is_edge_fort(set) {
            return true;
        }
        encircling && !not_encircled(&next) && next.defenders_encircled(set)
    }

    /// The squares the king reaches in one move from any of the squares `from` (his own square
    /// or squares he could stop on): each on their lines through squares he may pass, where he
    /// may stop, no farther than his speed limit (his own square, still his, blocks the way
    /// back). `start` is the kind of his square ([`RuleSet::start_kind`]). The slides and steps
    /// work on the whole set at once, each square of `from` a blocker for the others: the result
    /// is every square reached from one of them, except that squares of `from` may be left out.
    fn king_destinations_from(
        &self,
        set: &RuleSet<B>,
        start: usize,
        from: Bitboard<B>,
    ) -> Bitboard<B> {
        let class = Class::King as usize;
        let open = set.board - self.occupied() - set.no_pass[class][start] - from;
        let speed = set.speed[class];
        let mut reached = Bitboard::EMPTY;
        // One square's lines (his own, the usual case) are short in a middlegame: walked a step
        // at a time, they cost less than the four doubling steps of a slide.
        let stepwise = speed > 0 || from.is_single();
        for direction in Direction::ALL {
            if stepwise {
                let (mut step, mut steps) = (from, 0);
                loop {
                    step = step.shift(direction) & open;
                    if step.is_empty() {
                        break;
                    }
                    reached |= step;
                    steps += 1;
                    if steps == speed {
                        break; // No limit (0) is never reached.
                    }
                }
            } else {
                reached |= from.slides(direction, open);
            }
        }
        reached - set.no_stop[class][start]
    }

    /// Whether the king is in an edge fort: either he stands in a defenders' shieldwall and can
    /// move, or the squares he can reach by any number of moves (his own among them) touch an edge
    /// (or he stands on one and can move), only defenders stand next to them, and each of those
    /// defenders has at most two neighbours outside them that are not defenders.
    pub(super) fn is_edge_fort(&self, set: &RuleSet<B>) -> bool {
        let king_on_edge = (self.king & set.edge).any();
        let start = set.start_kind(self.king);
        let mut king_moves = None;
        if king_on_edge {
            let moves = self.king_destinations_from(set, start, self.king);
            if moves.is_empty() {
                return false;
            }
            // A shieldwall holds edge squares only: the king can be in one only on an edge. The
            // search for walls is the costly part: find_shieldwalls holds the king's square only
            // with a defender on the square inside it (see `shieldwall_may_take`), so it is
            // skipped without one.
            if (squares_inside(set, self.king) & self.defenders).any() {
                let walls = self.find_shieldwalls(set, Side::Defenders);
                if walls
                    .iter()
                    .any(|(held, _)| held.iter().any(|&square| self.king.contains(square)))
                {
                    return true;
                }
            }
            king_moves = Some(moves);
        } else if (self.king.neighbours() & self.attackers).any() {
            // No attacker may stand next to the squares he reaches, his own among them.
            return false;
        }
        let king_moves =
            king_moves.unwrap_or_else(|| self.king_destinations_from(set, start, self.king));
        // The squares he reaches by any number of moves, grown a move at a time. An attacker next
        // to them stays next to them as they grow, so the first one seen settles it (in most
        // positions after the first move).
        let mut fort = self.king | king_moves;
        let mut frontier = king_moves;
        while frontier.any() {
            if (fort.neighbours() & self.attackers).any() {
                return false;
            }
            // The frontier's own squares, possibly left out of `next`, are in the fort already.
            let next = self.king_destinations_from(set, start, frontier);
            frontier = next - fort;
            fort |= next;
        }
        if !king_on_edge && (fort & set.edge).is_empty() {
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
    pub(super) fn defenders_encircled(&self, set: &RuleSet<B>) -> bool {
        let defenders = self.defenders | self.king;
        if (defenders & set.edge).any() {
            return false;
        }
        let empty = set.board - self.occupied();
        // The empty squares joined to an empty edge square, grown a step at a time: a defender
        // next to them at any step stays next to them, so the first one seen settles it.
        let mut region = set.edge & empty;
        loop {
            let around = region.neighbours();
            if (around & defenders).any() {
                return false;
            }
            let grown = region | (around & empty);
            if grown == region {
                return true;
            }
            region = grown;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Piece;
    use crate::square::Square;
    use crate::variant::Variant;

    /// The edge-fort test as first written, one square at a time: the king's reach grown by the
    /// moves from each square he reaches, the shieldwall case looked for everywhere, no early
    /// answer. The faster [`Position::is_edge_fort`] must agree with it everywhere.
    fn edge_fort_square_by_square(position: &Position, set: &RuleSet) -> bool {
        let start = set.start_kind(position.king);
        let king_moves = position.king_destinations_from(set, start, position.king);
        let walls = position.find_shieldwalls(set, Side::Defenders);
        let king_walled = walls.iter().any(|(held, _)| {
            held.iter().any(|&square| position.king.contains(square)) && king_moves.any()
        });
        if king_walled {
            return true;
        }
        let mut fort = position.king | king_moves;
        let mut frontier = king_moves;
        while frontier.any() {
            let mut next = Bitboard::EMPTY;
            for square in frontier {
                next |= position.king_destinations_from(set, start, Bitboard::from_square(square));
            }
            frontier = next - fort;
            fort |= next;
        }
        if (position.king & set.edge).any() {
            if king_moves.is_empty() {
                return false;
            }
        } else if (fort & set.edge).is_empty() {
            return false;
        }
        let around = fort.neighbours() & set.board & position.occupied();
        if (around & position.attackers).any() {
            return false;
        }
        let defenders = position.defenders | position.king;
        (around & defenders).into_iter().all(|square| {
            let outside = Bitboard::neighbours_of(square) & (set.board - fort);
            (outside - defenders).count() < 3
        })
    }

    #[test]
    fn the_edge_fort_test_agrees_with_the_square_by_square_one() {
        let mut random = crate::test_support::XorShift(0x9e37_79b9_7f4a_7c15);
        let (mut forts, mut others) = (0, 0);
        for round in 0..4000u64 {
            let variant = if round % 2 == 0 {
                Variant::copenhagen()
            } else {
                Variant::copenhagen_relaxed_shieldwall()
            };
            let rules = variant.rules();
            let set = rules.custom().expect("Copenhagen is a custom rule set");
            let size = rules.size();
            // The king on the edge, or one or two squares in; defenders thick round him,
            // attackers thin, and fewer of them in half the rounds.
            let depth = (random.next() % 3) as u8;
            let along = 1 + (random.next() % u64::from(size - 2)) as u8;
            let king = match random.next() % 4 {
                0 => (along, depth),
                1 => (along, size - 1 - depth),
                2 => (depth, along),
                _ => (size - 1 - depth, along),
            };
            let attacker_odds = if round % 4 < 2 { 12 } else { 40 };
            let mut pieces = Vec::new();
            for y in 0..size {
                for x in 0..size {
                    let Some(square) = Square::new(x, y) else {
                        continue;
                    };
                    let corner = (x == 0 || x == size - 1) && (y == 0 || y == size - 1);
                    let near = x.abs_diff(king.0) <= 2 && y.abs_diff(king.1) <= 2;
                    if (x, y) == king {
                        pieces.push((square, Piece::King));
                    } else if corner || (x, y) == (size / 2, size / 2) {
                        continue;
                    } else if near && random.next() % 2 == 0 {
                        pieces.push((square, Piece::Defender));
                    } else if random.next() % attacker_odds == 0 {
                        pieces.push((square, Piece::Attacker));
                    }
                }
            }
            // On the board, one piece a square, the corners and throne left empty.
            let position = Position::from_pieces(rules, Side::Defenders, pieces).unwrap();
            let expected = edge_fort_square_by_square(&position, set);
            assert_eq!(position.is_edge_fort(set), expected, "{position:?}");
            if expected {
                forts += 1;
            } else {
                others += 1;
            }
        }
        // Both answers must have come up often, or the comparison says little.
        assert!(
            forts > 200 && others > 200,
            "{forts} forts, {others} others"
        );
    }

    #[test]
    fn the_encirclement_test_agrees_with_the_whole_flood() {
        let mut random = crate::test_support::XorShift(0x3c6e_f372_fe94_f82b);
        let (mut encircled, mut free) = (0, 0);
        for round in 0..4000u64 {
            let variant = if round % 2 == 0 {
                Variant::copenhagen()
            } else {
                Variant::fetlar()
            };
            let rules = variant.rules();
            let set = rules.custom().expect("a custom rule set");
            let size = i32::from(rules.size());
            let centre = size / 2;
            // Defenders within a radius of the centre, attackers on a ring just outside it
            // with a gap now and then, a few strays elsewhere.
            let radius = 1 + (random.next() % 3) as i32;
            let gap_odds = [0, 6, 20][(round % 3) as usize];
            let mut pieces = Vec::new();
            for y in 0..size {
                for x in 0..size {
                    let Some(square) = Square::new(x as u8, y as u8) else {
                        continue;
                    };
                    let distance = (x - centre).abs() + (y - centre).abs();
                    if (x, y) == (centre, centre) {
                        pieces.push((square, Piece::King));
                    } else if distance <= radius {
                        if random.next() % 3 != 0 {
                            pieces.push((square, Piece::Defender));
                        }
                    } else if distance == radius + 1 {
                        if gap_odds == 0 || random.next() % gap_odds != 0 {
                            pieces.push((square, Piece::Attacker));
                        }
                    } else if random.next() % 12 == 0 {
                        pieces.push((square, Piece::Attacker));
                    }
                }
            }
            // On the board, one piece a square.
            let position = Position::from_pieces(rules, Side::Attackers, pieces).unwrap();
            let defenders = position.defenders | position.king;
            let empty = set.board - position.occupied();
            let region = (set.edge & empty).flood(empty);
            let expected =
                (defenders & set.edge).is_empty() && (region.neighbours() & defenders).is_empty();
            assert_eq!(position.defenders_encircled(set), expected, "{position:?}");
            if expected {
                encircled += 1;
            } else {
                free += 1;
            }
        }
        // Both answers must have come up often, or the comparison says little.
        assert!(
            encircled > 500 && free > 500,
            "{encircled} encircled, {free} free"
        );
    }

    #[test]
    fn the_king_s_moves_walked_step_by_step_are_those_of_the_slides() {
        let mut random = crate::test_support::XorShift(0xa54f_f53a_5f1d_36f1);
        let mut compared = 0;
        for name in Variant::names() {
            let Some(variant) = Variant::by_name(name) else {
                continue;
            };
            let Some(set) = variant.rules().custom() else {
                continue;
            };
            let positions = crate::test_support::positions_along_random_games(
                &[variant.start()],
                10,
                120,
                random.next(),
            );
            for position in positions.iter().filter(|p| p.king.any()) {
                let start = set.start_kind(position.king);
                let class = Class::King as usize;
                let open =
                    set.board - position.occupied() - set.no_pass[class][start] - position.king;
                let speed = set.speed[class];
                let mut expected = Bitboard::EMPTY;
                for direction in Direction::ALL {
                    expected |= if speed == 0 {
                        position.king.slides(direction, open)
                    } else {
                        let (mut step, mut all) = (position.king, Bitboard::EMPTY);
                        for _ in 0..speed {
                            step = step.shift(direction) & open;
                            all |= step;
                        }
                        all
                    };
                }
                expected = expected - set.no_stop[class][start];
                let found = position.king_destinations_from(set, start, position.king);
                assert_eq!(found, expected, "{position:?}");
                compared += usize::from(found.any());
            }
        }
        assert!(compared > 5000, "{compared} kings that can move");
    }
}
