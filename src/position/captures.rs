//! Captures under custom rules (docs/rules.md, "Custom rules"): custodial captures against
//! pieces and hostile special squares, the king by his strength, Linnaean captures, and
//! shieldwalls ([`super::shieldwall`]), in OpenTafl's order.

use crate::bitboard::{Bitboard, Direction};
use crate::piece::{Piece, Side};
use crate::position::Position;
use crate::rules::custom::{Dialect, KingStrength, RuleSet, Shieldwall};

impl Position {
    /// After the mover's `piece` has landed on `to` (the turn not yet passed), takes what the move
    /// captures under the custom rules `set` and returns the captured squares: first every enemy
    /// next to `to` held against a hostile square (the king by his strength), then shieldwalls,
    /// then a Linnaean capture.
    pub(super) fn resolve_custom_captures(
        &mut self,
        set: &RuleSet,
        mover: Side,
        piece: Piece,
        to: crate::square::Square,
    ) -> Bitboard {
        let mut captured = Bitboard::EMPTY;
        let enemies = self.pieces(mover.opponent());
        if (Bitboard::neighbours_of(to) & enemies).any() {
            // C5: an unarmed king takes nothing as the moving piece.
            if piece != Piece::King || set.spec.king_hammer {
                captured |= self.capture_custom_soldiers(set, mover, to);
            }
            if mover == Side::Attackers
                && (Bitboard::neighbours_of(to) & self.king).any()
                && self.custom_king_is_captured(set, to)
            {
                captured |= self.king;
                self.remove(Piece::King, self.king);
            }
        }
        if set.spec.shieldwall != Shieldwall::None {
            captured |= match set.spec.dialect {
                Dialect::OpenTafl => self.capture_shieldwalls(set, mover, to),
                Dialect::HnefataflOrg => self.capture_hnefatafl_org_shieldwalls(set, mover, to),
            };
        }
        if (set.linnaean_squares & to).any() && mover == Side::Attackers {
            captured |= self.capture_linnaean(to);
        }
        captured
    }

    /// The squares hostile to the soldiers of `victims` by their own rules at this moment, not
    /// by a piece on them: under the classic rules the castle while it is empty, when the rules'
    /// flags make it hostile to that side (R10); under custom rules the hostile corners, forts
    /// and camps, and the throne as empty or occupied (C4, C13). The squares of the other
    /// side's pieces (hostile too, R9) are not included.
    ///
    /// ```
    /// use tafl_engine::{Position, Side, Variant};
    /// let start = Position::tablut();
    /// // The king is on the castle: it is not hostile (R10).
    /// assert!(start.hostile_squares(Side::Attackers).is_empty());
    /// let fetlar = Variant::fetlar().start();
    /// assert_eq!(fetlar.hostile_squares(Side::Defenders).count(), 4); // the corners
    /// ```
    pub fn hostile_squares(&self, victims: Side) -> Bitboard {
        let occupied = self.occupied();
        let Some(set) = self.rules.custom() else {
            let flag = match victims {
                Side::Attackers => crate::rules::RuleFlags::EMPTY_CASTLE_HOSTILE_TO_ATTACKERS,
                Side::Defenders => crate::rules::RuleFlags::EMPTY_CASTLE_HOSTILE_TO_DEFENDERS,
            };
            return if self.rules.flags().contains(flag) {
                self.rules.geometry().castle - occupied
            } else {
                Bitboard::EMPTY
            };
        };
        let index = victims as usize;
        set.hostile_always[index]
            | (set.hostile_when_empty[index] - occupied)
            | (set.hostile_when_occupied[index] & occupied)
    }

    /// C4: the squares hostile to the pieces of `victims` (their soldiers; the king too when
    /// `victims` are the defenders): the other side's pieces (its king only if he is armed as an
    /// anvil), the special squares hostile to them, and the throne as empty or occupied.
    pub(crate) fn hostile_to(&self, set: &RuleSet, victims: Side) -> Bitboard {
        let index = victims as usize;
        let occupied = self.occupied();
        let enemies = match victims {
            Side::Attackers if !set.spec.king_anvil => self.defenders,
            side => self.pieces(side.opponent()),
        };
        enemies
            | set.hostile_always[index]
            | (set.hostile_when_empty[index] - occupied)
            | (set.hostile_when_occupied[index] & occupied)
    }

    /// C4: the enemy soldiers next to `to`, each held between `to` and a hostile square beyond it in
    /// line, removed; returns their squares. A piece on an edge is never taken across it (the
    /// square beyond is off the board).
    fn capture_custom_soldiers(
        &mut self,
        set: &RuleSet,
        mover: Side,
        to: crate::square::Square,
    ) -> Bitboard {
        let victims_side = mover.opponent();
        let (victims, piece) = match victims_side {
            Side::Attackers => (self.attackers, Piece::Attacker),
            Side::Defenders => (self.defenders, Piece::Defender),
        };
        let captured = super::held_against(to, self.hostile_to(set, victims_side), victims);
        if captured.any() {
            self.remove(piece, captured);
        }
        captured
    }

    /// C6: whether the attacker that has just landed on `to`, next to the king, captures him.
    fn custom_king_is_captured(&self, set: &RuleSet, to: crate::square::Square) -> bool {
        let king = self.king;
        let hostile = self.hostile_to(set, Side::Defenders);
        let neighbours = king.neighbours() & set.board;
        if (king & set.king_strong_squares).any() {
            match set.spec.king_strength {
                // Hostile on all sides: four of them, so never on an edge.
                KingStrength::Middleweight => (neighbours - hostile).is_empty(),
                _ => neighbours.count() == 4 && (neighbours - hostile).is_empty(),
            }
        } else {
            // Weak: held between the mover and a hostile square in line; off the throne, a king
            // strong on it alone is not held against it (H4).
            let hostile = if set.spec.king_strength == KingStrength::StrongOnThrone {
                hostile - set.throne()
            } else {
                hostile
            };
            let landing = Bitboard::from_square(to);
            Direction::ALL.into_iter().any(|direction| {
                landing.shift(direction) == king
                    && (king.shift(direction) & set.board & hostile).any()
            })
        }
    }

    /// C7: the Linnaean capture of an attacker's move to `to`, two squares from the board's centre in
    /// line: with the king on the centre square and attackers on three of its sides, the defender
    /// between `to` and the centre is taken.
    fn capture_linnaean(&mut self, to: crate::square::Square) -> Bitboard {
        let size = self.rules.size();
        let Some(centre) = crate::square::Square::new(size / 2, size / 2) else {
            return Bitboard::EMPTY;
        };
        let centre_set = Bitboard::from_square(centre);
        if self.king != centre_set {
            return Bitboard::EMPTY;
        }
        let target = Bitboard::neighbours_of(to) & centre_set.neighbours();
        if (target & self.defenders).is_empty() {
            return Bitboard::EMPTY;
        }
        if (centre_set.neighbours() & self.attackers).count() < 3 {
            return Bitboard::EMPTY;
        }
        self.remove(Piece::Defender, target);
        target
    }

    /// Takes a shieldwall's `squares` (C8, H5), which hold pieces of the side that did not
    /// move, `mover`'s opponent: all but the king; returns the squares taken.
    pub(super) fn take_wall(&mut self, mover: Side, squares: Bitboard) -> Bitboard {
        let taken = squares - self.king;
        let piece = match mover {
            Side::Attackers => Piece::Defender,
            Side::Defenders => Piece::Attacker,
        };
        self.remove(piece, taken);
        taken
    }

    /// Removes the pieces `piece` on `squares` (all of them hold one), keeping the hash.
    pub(super) fn remove(&mut self, piece: Piece, squares: Bitboard) {
        *self.set_mut(piece) = self.set(piece) - squares;
        for square in squares {
            self.hash ^= crate::zobrist::piece_key(piece, square);
        }
    }
}
