//! Captures under custom rules (docs/rules-strings.md, "Custom rules"): custodial captures against
//! pieces and hostile special squares, the king by his strength, Linnaean captures, and
//! shieldwalls ([`super::shieldwall`]), in OpenTafl's order.

use crate::bitboard::{Bitboard, Direction};
use crate::piece::{Piece, Side};
use crate::position::Position;
use crate::rules::RuleGrid;
use crate::rules::custom::{KingStrength, RuleSet, Shieldwall};
use crate::square::Square;

impl<B: RuleGrid> Position<B> {
    /// After the mover's `piece` has landed on `to` (the turn not yet passed), takes what the move
    /// captures under the custom rules `set` and returns the captured squares: first every enemy
    /// next to `to` held against a hostile square (the king by his strength), then shieldwalls,
    /// then a Linnaean capture.
    pub(super) fn resolve_custom_captures(
        &mut self,
        set: &RuleSet<B>,
        mover: Side,
        piece: Piece,
        to: Square<B>,
    ) -> Bitboard<B> {
        let mut captured = self.capture_custodial(set, mover, piece, to);
        if set.spec.shieldwall != Shieldwall::None {
            captured |= self.capture_edge_walls(set, mover, to);
        }
        if (set.linnaean_squares & to).any() && mover == Side::Attackers {
            captured |= self.capture_linnaean(to);
        }
        captured
    }

    /// C4-C6: after the mover's `piece` has landed on `to`, takes every enemy next to `to` held
    /// against a hostile square, the king by his strength; returns their squares.
    fn capture_custodial(
        &mut self,
        set: &RuleSet<B>,
        mover: Side,
        piece: Piece,
        to: Square<B>,
    ) -> Bitboard<B> {
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
    pub fn hostile_squares(&self, victims: Side) -> Bitboard<B> {
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

    /// The squares where a move of the side to move under the custom rules `set` may capture (a
    /// superset of those where it does, for all its moves at once): a move landing elsewhere
    /// takes nothing, so [`Position::resolve_custom_captures`] need not be called for it.
    ///
    /// - C4, C5: an enemy soldier next to the landing square with, beyond it, a square hostile to
    ///   it after the move: one of the mover's pieces now (the landing square itself is next to
    ///   the soldier, never beyond it) or a special square hostile to it, empty or occupied (the
    ///   move may empty a throne).
    /// - C6: for the attackers, the squares next to the king; C7: the Linnaean squares.
    /// - C8, H5: where a move may complete a shieldwall ([`Position::shieldwall_landings`]).
    pub(crate) fn custom_capture_squares(&self, set: &RuleSet<B>) -> Bitboard<B> {
        let mover = self.side_to_move;
        let victims_side = mover.opponent();
        let index = victims_side as usize;
        let victims = match victims_side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        };
        let anvils = self.pieces(mover)
            | set.hostile_always[index]
            | set.hostile_when_empty[index]
            | set.hostile_when_occupied[index];
        // A victim one step from the landing square in some direction, an anvil one step beyond
        // it the same way: step the anvils back onto the victims, then onto the landing squares.
        let mut squares = Direction::ALL
            .into_iter()
            .fold(Bitboard::EMPTY, |squares, back| {
                squares | (victims & anvils.shift(back)).shift(back)
            });
        if mover == Side::Attackers {
            squares |= self.king.neighbours() | set.linnaean_squares;
        }
        if set.spec.shieldwall != Shieldwall::None {
            squares |= self.shieldwall_landings(set);
        }
        squares
    }

    /// C6: the squares where an attacker may capture the king by landing (a superset of those
    /// where one does, for the search's test of a capture next move): empty squares next to
    /// him where, were the landing square hostile to him, he would be taken. The squares
    /// hostile to him after the move are among those hostile now, the landing square and the
    /// throne squares however occupied (the move may empty a throne).
    pub(crate) fn custom_king_capture_squares(&self, set: &RuleSet<B>) -> Bitboard<B> {
        let king = self.king;
        let index = Side::Defenders as usize;
        let hostile = self.hostile_to(set, Side::Defenders)
            | set.hostile_when_empty[index]
            | set.hostile_when_occupied[index];
        let neighbours = king.neighbours() & set.board;
        let landings = neighbours - self.occupied();
        if (king & set.king_strong_squares).any() {
            // Hostile on all four sides (every side on the board, middleweight): the landing
            // square may be the one missing.
            if set.spec.king_strength != KingStrength::Middleweight && neighbours.count() != 4 {
                return Bitboard::EMPTY;
            }
            let missing = neighbours - hostile;
            return match missing.count() {
                0 => landings,
                1 => missing & landings,
                _ => Bitboard::EMPTY,
            };
        }
        // Weak: the landing square on one side of him, a hostile square on the other.
        [
            (Direction::North, Direction::South),
            (Direction::South, Direction::North),
            (Direction::East, Direction::West),
            (Direction::West, Direction::East),
        ]
        .into_iter()
        .fold(Bitboard::EMPTY, |squares, (beyond, landing)| {
            if (king.shift(beyond) & set.board & hostile).any() {
                squares | (king.shift(landing) & landings)
            } else {
                squares
            }
        })
    }

    /// C4: the squares hostile to the pieces of `victims` (their soldiers; the king too when
    /// `victims` are the defenders): the other side's pieces (its king only if he is armed as an
    /// anvil), the special squares hostile to them, and the throne as empty or occupied.
    pub(crate) fn hostile_to(&self, set: &RuleSet<B>, victims: Side) -> Bitboard<B> {
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
        set: &RuleSet<B>,
        mover: Side,
        to: Square<B>,
    ) -> Bitboard<B> {
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
    fn custom_king_is_captured(&self, set: &RuleSet<B>, to: Square<B>) -> bool {
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
    fn capture_linnaean(&mut self, to: Square<B>) -> Bitboard<B> {
        let size = self.rules.size();
        let Some(centre) = Square::<B>::at(size / 2, size / 2) else {
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
    pub(super) fn take_wall(&mut self, mover: Side, squares: Bitboard<B>) -> Bitboard<B> {
        let taken = squares - self.king;
        let piece = match mover {
            Side::Attackers => Piece::Defender,
            Side::Defenders => Piece::Attacker,
        };
        self.remove(piece, taken);
        taken
    }

    /// Removes the pieces `piece` on `squares` (all of them hold one), keeping the hash.
    pub(super) fn remove(&mut self, piece: Piece, squares: Bitboard<B>) {
        *self.set_mut(piece) = self.set(piece) - squares;
        for square in squares {
            self.hash ^= crate::zobrist::piece_key(piece, square);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;
    use crate::rules::custom::WallSearch;
    use crate::square::Square;
    use crate::test_support::XorShift;
    use crate::variant::Variant;

    /// Every built-in game under custom rules, and rules strings for the choices they leave out:
    /// shieldwalls with pieces as the only brackets, soldiers allowed on the corners (so that
    /// a corner can be held), armed and unarmed kings, every king strength, Linnaean captures.
    fn rule_sets() -> Vec<Variant> {
        let mut variants: Vec<Variant> = Variant::names()
            .iter()
            .filter_map(|name| Variant::by_name(name))
            .filter(|variant| variant.rules().custom().is_some())
            .collect();
        let eleven =
            "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
        let nine = "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
        let seven = "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
        for text in [
            format!(
                "dim:11 name:Weak_walls atkf:y sw:w efe:y cors:tcnkTCNK corp:tcnkTCNK {eleven}"
            ),
            format!("dim:11 name:Weak_relaxed_walls atkf:y sw:w swf:n ka:n ks:w {eleven}"),
            format!("dim:9 name:Strong_relaxed esc:e atkf:n sw:s swf:n ka:a ks:m linc:y {nine}"),
            format!("dim:7 name:Small_walls atkf:y sw:s ks:c ka:h cors:tT {seven}"),
        ] {
            variants.push(text.parse().unwrap_or_else(|e| panic!("{text}: {e}")));
        }
        variants
    }

    /// Positions of each rule set: along seeded random games, and seeded placements crowded on
    /// the edges and the squares inside them, where shieldwalls form.
    fn positions() -> Vec<Position> {
        let mut random = XorShift(0x6a09_e667_f3bc_c909);
        let mut positions = Vec::new();
        for variant in rule_sets() {
            positions.extend(crate::test_support::positions_along_random_games(
                &[variant.start()],
                6,
                150,
                random.next(),
            ));
            let rules = variant.rules();
            let size = rules.size();
            for round in 0..300u64 {
                // By turns, one side's soldiers line the edges and the other's stand inside them.
                let (outer, inner) = if round % 4 < 2 {
                    (Piece::Defender, Piece::Attacker)
                } else {
                    (Piece::Attacker, Piece::Defender)
                };
                let king = (
                    1 + (random.next() % u64::from(size - 2)) as u8,
                    1 + (random.next() % u64::from(size - 2)) as u8,
                );
                let mut pieces = Vec::new();
                for y in 0..size {
                    for x in 0..size {
                        let Some(square) = Square::new(x, y) else {
                            continue;
                        };
                        let from_edge = x.min(y).min(size - 1 - x).min(size - 1 - y);
                        // Out of ten: the outer side's soldier, the inner side's.
                        let (outer_odds, inner_odds) = match from_edge {
                            0 => (5, 2),
                            1 => (1, 6),
                            _ => (1, 1),
                        };
                        let draw = random.next() % 10;
                        if (x, y) == king {
                            pieces.push((square, Piece::King));
                        } else if draw < outer_odds {
                            pieces.push((square, outer));
                        } else if draw < outer_odds + inner_odds {
                            pieces.push((square, inner));
                        }
                    }
                }
                let side = Side::ALL[(round % 2) as usize];
                // One piece a square, all on the board.
                positions.push(Position::from_pieces(rules, side, pieces).unwrap());
            }
        }
        positions
    }

    /// The position after `m` as first written: the piece moved, then the custodial captures,
    /// every shieldwall looked for ([`Position::capture_shieldwalls_plain`]), the Linnaean
    /// capture; and the captured squares.
    fn plain_after(position: &Position, set: &RuleSet, m: Move) -> (Position, Bitboard) {
        let mover = position.side_to_move;
        let (from, to) = (m.from(), m.to());
        // A legal move starts on a piece of the side to move.
        let piece = position.piece_at(from).unwrap();
        let mut after = *position;
        after.remove(piece, Bitboard::from_square(from));
        *after.set_mut(piece) |= to;
        after.hash ^= crate::zobrist::piece_key(piece, to);
        let mut captured = after.capture_custodial(set, mover, piece, to);
        if set.spec.shieldwall != Shieldwall::None {
            captured |= match set.spec.shieldwall_search {
                WallSearch::OpenTafl => after.capture_shieldwalls_plain(set, mover, to),
                WallSearch::Published => after.capture_published_shieldwalls(set, mover, to),
            };
        }
        if (set.linnaean_squares & to).any() && mover == Side::Attackers {
            captured |= after.capture_linnaean(to);
        }
        after.pass_turn();
        (after, captured)
    }

    #[test]
    fn moves_play_as_first_written_and_capture_only_on_the_capture_squares() {
        let (mut custodial, mut walls, mut linnaean) = (0, 0, 0);
        for position in positions() {
            let set = position.rules().custom().expect("custom rules");
            if position.winner().is_some() {
                continue;
            }
            let capture_squares = position.custom_capture_squares(set);
            let moves = position.legal_moves();
            let mut expected = Vec::new();
            for &m in &moves {
                let (after, captured) = plain_after(&position, set, m);
                let mut played = position;
                assert_eq!(played.play_unchecked(m), captured, "{position:?} then {m}");
                assert_eq!(played, after, "{position:?} then {m}");
                assert!(
                    captured.is_empty() || capture_squares.contains(m.to()),
                    "{position:?} then {m}: a capture off the capture squares"
                );
                let mut custodial_only = position;
                let piece = position.piece_at(m.from()).unwrap();
                custodial_only.remove(piece, Bitboard::from_square(m.from()));
                *custodial_only.set_mut(piece) |= m.to();
                let by_custody =
                    custodial_only.capture_custodial(set, position.side_to_move, piece, m.to());
                custodial += usize::from(by_custody.any());
                walls += usize::from((captured - by_custody - set.linnaean_squares).count() > 1);
                linnaean += usize::from((captured & set.linnaean_squares.neighbours()).any());
                expected.push(after);
            }
            let mut children = Vec::new();
            position.for_each_child(&moves, |child| children.push(*child));
            assert_eq!(children, expected, "{position:?}");
        }
        // Each kind of capture must have come up often, or the comparison says little.
        assert!(
            custodial > 20_000 && walls > 2000 && linnaean > 500,
            "{custodial} custodial captures, {walls} shieldwalls, {linnaean} Linnaean"
        );
    }

    /// The custom rules' path is generic over the grid: each position of [`positions`] copied
    /// onto the wide grid ends, captures, has the capture squares and answers every move from
    /// each piece of the side to move along its rank and file (legal or not) as on the narrow
    /// grid, and the position after each legal move is the narrow one's copied (the hash kept
    /// move by move equal to the wide grid's hash from scratch).
    #[test]
    fn the_custom_rules_play_the_same_on_the_wide_grid() {
        use crate::board::Wide;
        for position in positions() {
            let set = position.rules.custom().unwrap();
            let wide = position.on_grid::<Wide>();
            let wide_set = wide.rules.custom().unwrap();
            assert_eq!(wide.custom_winner(wide_set), position.custom_winner(set));
            // The capture squares are a superset of the landings that capture, and may hold squares
            // off the board (a shift onto the grid's files past it): compared on the board.
            let board = wide_set.board;
            assert_eq!(
                wide.custom_capture_squares(wide_set) & board,
                position.custom_capture_squares(set).on_grid() & board,
                "{position:?}"
            );
            if position.king.any() {
                assert_eq!(
                    wide.custom_king_capture_squares(wide_set) & board,
                    position.custom_king_capture_squares(set).on_grid() & board,
                    "{position:?}"
                );
            }
            for side in Side::ALL {
                assert_eq!(
                    wide.hostile_squares(side) & board,
                    position.hostile_squares(side).on_grid() & board
                );
            }
            let size = position.rules.size();
            for from in position.pieces(position.side_to_move) {
                let targets = (0..size)
                    .flat_map(|place| [Square::new(place, from.y()), Square::new(from.x(), place)]);
                for to in targets.flatten().filter(|&to| to != from) {
                    let m = Move::new(from, to);
                    let on_wide = |square: Square| square.on_grid::<Wide>().unwrap();
                    let wide_move = Move::new(on_wide(from), on_wide(to));
                    let narrow_check = position.check_move(m);
                    let wide_check = wide.check_custom_move_fully(wide_set, wide_move);
                    // Squares and moves are named alike on both grids.
                    assert_eq!(
                        format!("{wide_check:?}"),
                        format!("{narrow_check:?}"),
                        "{m} in {position:?}"
                    );
                    if narrow_check.is_err() {
                        continue;
                    }
                    let (mut narrow_after, mut wide_after) = (position, wide);
                    let captured = narrow_after.play_unchecked(m);
                    let wide_captured = wide_after.play_custom_unchecked(wide_set, wide_move);
                    assert_eq!(wide_captured, captured.on_grid(), "{m} in {position:?}");
                    assert!(
                        wide_after == narrow_after.on_grid::<Wide>(),
                        "{m} in {position:?}"
                    );
                }
            }
        }
    }
}
