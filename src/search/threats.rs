//! The forcing facts of tafl that search and evaluation share: the king's free lines to the edge
//! (the "check" of this game), the attackers' one-move king captures, the squares where a move
//! captures a soldier.
//!
//! Everything here is computed set-wise from the bitboards, without playing moves, for the
//! classic rules. Under custom rules (corners, forts, king strengths, ...) each fact is computed
//! from the custom rules instead, by functions of their own below: where that would take much
//! more, a fact may be left out (a quicker win missed is found by the search), but what is
//! claimed is always true, since the search prunes on it.

use crate::bitboard::{Bitboard, Direction};
use crate::piece::Side;
use crate::play::Grid;
use crate::position::Position;
use crate::rules::custom::{Class, RuleSet};
use crate::rules::{Escape, RuleFlags};
use crate::square::Square;

/// The opposite direction.
pub(crate) const fn opposite(direction: Direction) -> Direction {
    match direction {
        Direction::North => Direction::South,
        Direction::South => Direction::North,
        Direction::East => Direction::West,
        Direction::West => Direction::East,
    }
}

/// What the king sees along his four lines.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KingLines<B: Grid> {
    /// Squares the king can move to (R5, R6: the castle is passed over but never a destination).
    pub(crate) reach: Bitboard<B>,
    /// How many of his four lines run empty to an edge square: each is an escape next move (R14).
    pub(crate) open: u32,
    /// The squares of those open lines (every square a blocker could land on).
    pub(crate) open_squares: Bitboard<B>,
}

/// The king's lines, or the default (nothing) when the king is gone.
#[inline]
pub(crate) fn king_lines<B: Grid>(position: &Position<B>) -> KingLines<B> {
    let Some(king) = position.king() else {
        return KingLines::default();
    };
    if let Some(set) = position.rules().custom() {
        return custom_king_lines(position, set, king);
    }
    let geometry = position.rules().geometry();
    let empty = geometry.board - position.occupied();
    let mut lines = KingLines::default();
    for direction in Direction::ALL {
        let mut ray = Bitboard::EMPTY;
        let mut step = Bitboard::from_square(king);
        loop {
            step = step.shift(direction) & empty;
            if step.is_empty() {
                break;
            }
            ray |= step;
            if (step & geometry.edge).any() {
                lines.open += 1;
                lines.open_squares |= ray;
                break;
            }
        }
        lines.reach |= ray;
    }
    lines.reach = lines.reach - geometry.castle;
    lines
}

/// The squares the king escapes on under custom rules: the edge or the corners.
pub(crate) fn escape_targets<B: Grid>(set: &RuleSet<B>) -> Bitboard<B> {
    match set.spec.escape {
        Escape::Edge => set.edge,
        Escape::Corner => set.corners(),
    }
}

/// [`king_lines`] under custom rules: the king's moves as they allow (special squares, speed),
/// a line being open when a move along it reaches an escape square (an edge square, or a corner).
fn custom_king_lines<B: Grid>(
    position: &Position<B>,
    set: &RuleSet<B>,
    king: Square<B>,
) -> KingLines<B> {
    let king_set = Bitboard::from_square(king);
    let start = set.start_kind(king_set);
    let class = Class::King as usize;
    let open = set.board - position.occupied() - set.no_pass[class][start];
    let no_stop = set.no_stop[class][start] | set.camps_out_of_reach(king);
    let speed = set.speed[class];
    let targets = escape_targets(set);
    let mut lines = KingLines::default();
    for direction in Direction::ALL {
        let (mut ray, mut step, mut steps) = (Bitboard::EMPTY, king_set, 0);
        loop {
            step = step.shift(direction) & open;
            steps += 1;
            if step.is_empty() || (speed > 0 && steps > speed) {
                break;
            }
            ray |= step;
            if (step & (targets - no_stop)).any() {
                lines.open += 1;
                lines.open_squares |= ray;
                break;
            }
        }
        lines.reach |= ray - no_stop;
    }
    lines
}

/// For each direction, the squares from which a king would run free to the edge in that
/// direction (the square itself may be occupied: it is the king's square in that case). Under
/// corner-escape rules, to a corner.
#[inline]
pub(crate) fn escape_lines<B: Grid>(position: &Position<B>) -> [Bitboard<B>; 4] {
    let geometry = position.rules().geometry();
    let mut empty = geometry.board - position.occupied();
    if let Some(set) = position.rules().custom() {
        let king_start = set.start_kind(position.king_set());
        empty = empty - set.no_pass[Class::King as usize][king_start];
        if set.spec.escape == Escape::Corner {
            return corner_lines(set, empty);
        }
    }
    let mut result = [Bitboard::EMPTY; 4];
    for (index, direction) in Direction::ALL.into_iter().enumerate() {
        let back = opposite(direction);
        // Edge squares on this side are those whose neighbour in `direction` is off the board.
        let side_edge = geometry.board - geometry.board.shift(back);
        let mut free = side_edge & empty;
        loop {
            let grown = free | (free.shift(back) & empty);
            if grown == free {
                break;
            }
            free = grown;
        }
        result[index] = free.shift(back) & geometry.board;
    }
    result
}

/// [`escape_lines`] to the corners: for each direction, the squares from which the king runs
/// free to a corner that way.
fn corner_lines<B: Grid>(set: &RuleSet<B>, empty: Bitboard<B>) -> [Bitboard<B>; 4] {
    let mut result = [Bitboard::EMPTY; 4];
    let corners = set.corners() & empty;
    for (index, direction) in Direction::ALL.into_iter().enumerate() {
        // Cast back from each corner: the empty stretch, then one square more. (A corner is a
        // blocker for the slides of the others: the stretch behind it comes from its own.)
        let away = opposite(direction);
        let stretch = corners.slides(away, empty - corners);
        result[index] = (corners | stretch).shift(away) & set.board;
    }
    result
}

/// Squares with at least one and with at least two free lines to the edge.
#[inline]
pub(crate) fn escape_squares<B: Grid>(position: &Position<B>) -> (Bitboard<B>, Bitboard<B>) {
    let [a, b, c, d] = escape_lines(position);
    let one = a | b | c | d;
    let two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d);
    (one, two)
}

/// Whether an attacker can slide to `square` in one move (R5, R7: over the empty castle).
#[inline]
fn attacker_reaches<B: Grid>(position: &Position<B>, square: Square<B>) -> bool {
    let geometry = position.rules().geometry();
    if square == geometry.castle_square || !geometry.board.contains(square) {
        return false; // R6: nobody stops on the castle.
    }
    let occupied = position.occupied();
    if occupied.contains(square) {
        return false;
    }
    let empty = geometry.board - occupied;
    for direction in Direction::ALL {
        let mut step = Bitboard::from_square(square);
        loop {
            step = step.shift(direction) & geometry.board;
            if step.is_empty() {
                break;
            }
            if (step & empty).is_empty() {
                if (step & position.attackers()).any() {
                    return true;
                }
                break;
            }
        }
    }
    false
}

/// The squares where one more attacker would capture the king (R13), given the attackers that
/// stand now, and whether the capture needs exactly that one square. Returns the set of empty
/// squares each of which completes a capture when an attacker lands on it.
#[inline]
pub(crate) fn king_capture_squares<B: Grid>(position: &Position<B>) -> Bitboard<B> {
    let Some(king) = position.king() else {
        return Bitboard::EMPTY;
    };
    let geometry = position.rules().geometry();
    let king_set = Bitboard::from_square(king);
    let attackers = position.attackers();
    let empty = geometry.board - position.occupied() - geometry.castle;
    if king_set == geometry.castle {
        // On the castle: all four neighbours.
        let missing = king_set.neighbours() - attackers;
        if missing.is_single() {
            return missing & empty;
        }
        return Bitboard::EMPTY;
    }
    if (king_set & geometry.castle_neighbours).any() {
        // Next to the castle: the three other neighbours.
        let missing = king_set.neighbours() - geometry.castle - attackers;
        if missing.is_single() {
            return missing & empty;
        }
        return Bitboard::EMPTY;
    }
    // Elsewhere: two attackers on one line through the king, the mover being one of them.
    let mut squares = Bitboard::EMPTY;
    for direction in Direction::ALL {
        let near = king_set.shift(direction);
        let far = king_set.shift(opposite(direction));
        if (far & attackers).any() {
            squares |= near & empty;
        }
    }
    squares
}

/// Whether the attackers, to move, capture the king with their next move (R13).
#[inline]
pub(crate) fn attackers_win_now<B: Grid>(position: &Position<B>) -> bool {
    if let Some(set) = position.rules().custom() {
        // Every attacker move onto a square where a landing may take the king, played: the
        // king's strength, hostile squares and the rest of the custom rules decide.
        let targets = position.custom_king_capture_squares(set);
        if targets.is_empty() {
            return false;
        }
        return moves_to(position, targets).iter().any(|&m| {
            let mut next = *position;
            next.play_unchecked(m);
            next.king().is_none()
        });
    }
    king_capture_squares(position)
        .into_iter()
        .any(|square| attacker_reaches(position, square))
}

/// Whether the side to move wins with its next move: the king escapes (R14) or is captured (R13).
#[inline]
pub(crate) fn side_to_move_wins_now<B: Grid>(position: &Position<B>, lines: &KingLines<B>) -> bool {
    match position.side_to_move() {
        Side::Defenders => lines.open > 0,
        Side::Attackers => attackers_win_now(position),
    }
}

/// The empty squares where a piece of the side to move would capture at least one enemy soldier
/// (R9, R10). Used to order moves and to choose the quiescence moves; it never needs to be exact
/// about the king moving (a hammer or not), only about soldiers.
#[inline]
pub(crate) fn capture_squares<B: Grid>(position: &Position<B>) -> Bitboard<B> {
    if let Some(set) = position.rules().custom() {
        // Next to an enemy soldier with a square hostile to it beyond (shieldwalls and Linnaean
        // captures left out: this only orders moves and picks the quiescence moves).
        let side = position.side_to_move();
        let victims = match side {
            Side::Attackers => position.defenders(),
            Side::Defenders => position.attackers(),
        };
        let hostile = position.hostile_to(set, side.opponent());
        let empty = set.board - position.occupied();
        let mut squares = Bitboard::EMPTY;
        for direction in Direction::ALL {
            let back = opposite(direction);
            squares |= victims.shift(back) & hostile.shift(back).shift(back);
        }
        return squares & empty;
    }
    let geometry = position.rules().geometry();
    let flags = position.rules().flags();
    let occupied = position.occupied();
    let empty = geometry.board - occupied;
    let castle_empty = (occupied & geometry.castle).is_empty();
    let (victims, mut hostile, castle_flag) = match position.side_to_move() {
        Side::Attackers => (
            position.defenders(),
            position.attackers(),
            RuleFlags::EMPTY_CASTLE_HOSTILE_TO_DEFENDERS,
        ),
        Side::Defenders => {
            let mut hostile = position.defenders();
            if flags.contains(RuleFlags::KING_ANVIL) {
                hostile |= position.king_set();
            }
            (
                position.attackers(),
                hostile,
                RuleFlags::EMPTY_CASTLE_HOSTILE_TO_ATTACKERS,
            )
        }
    };
    if castle_empty && flags.contains(castle_flag) {
        hostile |= geometry.castle;
    }
    let mut squares = Bitboard::EMPTY;
    for direction in Direction::ALL {
        let back = opposite(direction);
        squares |= victims.shift(back) & hostile.shift(back).shift(back);
    }
    squares & empty & geometry.destinations
}

/// Whether the side to move has a legal move (R17), cheaply in the usual case: a piece next to an
/// empty square other than the castle can step there. The position must not be won (as for
/// [`moves_to`]).
#[inline]
pub(crate) fn has_moves<B: Grid>(position: &Position<B>) -> bool {
    if position.rules().custom().is_some() {
        return position.unwon_has_legal_move();
    }
    let geometry = position.rules().geometry();
    let empty = geometry.board - position.occupied();
    let own = position.pieces(position.side_to_move());
    (own.neighbours() & empty & geometry.destinations).any() || position.count_legal_moves() > 0
}

/// The legal moves of the side to move that land on `targets` (R5-R7), found by looking outward
/// from each target for the first piece on each line: cheaper than generating every move when
/// the targets are few (quiescence, blocks of an open line). The position must not be won (P1:
/// it would have no moves); the search tests each node for that first.
#[inline]
pub(crate) fn moves_to<B: Grid>(
    position: &Position<B>,
    targets: Bitboard<B>,
) -> crate::moves::MoveList<B> {
    let mut moves = crate::moves::MoveList::new();
    if position.unwon_custom_moves_to_into(targets, &mut moves) {
        return moves;
    }
    let geometry = position.rules().geometry();
    let occupied = position.occupied();
    let empty = geometry.board - occupied;
    let own = position.pieces(position.side_to_move());
    let candidates = targets & empty & geometry.destinations;
    if candidates.is_empty() {
        return moves;
    }
    // The targets a piece reaches from each way (one occluded fill a direction, as
    // `Bitboard::slides` does for the move count), so that the walk below looks only where a
    // piece is; the moves come out in the walk's order: target by target, `Direction::ALL`'s.
    let reached_from =
        Direction::ALL.map(|towards_piece| own.slides(opposite(towards_piece), empty) & candidates);
    let reached = reached_from
        .iter()
        .fold(Bitboard::EMPTY, |all, &set| all | set);
    for target in reached {
        for (direction, reached) in Direction::ALL.into_iter().zip(reached_from) {
            if !reached.contains(target) {
                continue;
            }
            let mut step = Bitboard::from_square(target);
            loop {
                step = step.shift(direction) & geometry.board;
                if step.is_empty() || (step & empty).is_empty() {
                    break;
                }
            }
            if let Some(from) = (step & own).first() {
                // At most 4 moves per target and fewer targets than squares: within capacity.
                let _ = moves.try_push(crate::moves::Move::new(from, target));
            }
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position_record;
    use crate::rules::Rules;

    fn tablut(record: &str, side: Side) -> Position {
        parse_position_record(record, Rules::TABLUT, side).expect("valid test record")
    }

    /// Oracle: whether some legal move of the side to move wins at once, by playing them all.
    fn wins_by_playing(position: &Position) -> bool {
        position.legal_moves().into_iter().any(|m| {
            let mut next = *position;
            next.play_unchecked(m);
            next.winner() == Some(position.side_to_move())
        })
    }

    #[test]
    fn start_positions_have_no_threats() {
        for position in [Position::tablut(), Position::tawlbwrdd()] {
            let lines = king_lines(&position);
            assert_eq!(lines.open, 0);
            assert!(lines.reach.is_empty());
            assert!(!attackers_win_now(&position));
        }
    }

    #[test]
    fn open_lines_agree_with_escape_sets() {
        // King on c3 with all four lines free.
        let position = tablut("/9/9/2K6/9/9/9/4t4/9/9/", Side::Defenders);
        let lines = king_lines(&position);
        assert_eq!(lines.open, 4);
        let (one, two) = escape_squares(&position);
        let king = position.king().expect("king on board");
        assert!(one.contains(king) && two.contains(king));
        assert!(wins_by_playing(&position));
    }

    #[test]
    fn one_move_wins_match_an_oracle_along_random_games() {
        // Play pseudo-random games and compare the set-wise tests with playing every move.
        let positions = crate::test_support::positions_along_random_games(
            &[Position::tablut(), Position::tawlbwrdd()],
            30,
            120,
            0x1234_5678_9abc_def0,
        );
        for position in positions.iter().filter(|p| p.winner().is_none()) {
            let lines = king_lines(position);
            assert_eq!(
                side_to_move_wins_now(position, &lines),
                wins_by_playing(position),
                "{position:?}"
            );
            // Capture squares: a move lands there if and only if it captures a soldier.
            let squares = capture_squares(position);
            let legal = position.legal_moves();
            for &m in &legal {
                let mut next = *position;
                let captured = next.play_unchecked(m) - position.king_set();
                let king_moves = position.king() == Some(m.from());
                if !king_moves {
                    assert_eq!(captured.any(), squares.contains(m.to()), "{position:?} {m}");
                }
            }
            // Moves to a set of targets: exactly the legal moves landing there.
            let targets = squares | lines.reach;
            let mut expected: Vec<_> = legal
                .iter()
                .copied()
                .filter(|m| targets.contains(m.to()))
                .collect();
            let mut found: Vec<_> = moves_to(position, targets).into_iter().collect();
            expected.sort();
            found.sort();
            assert_eq!(found, expected, "{position:?}");
            assert_eq!(has_moves(position), !legal.is_empty());
        }
    }

    #[test]
    fn custom_king_captures_next_move_match_playing_every_move() {
        // Every built-in game under custom rules (every king strength), seeded placements of
        // the attackers crowding the king, on and off the special squares, attackers to move.
        let mut random = crate::test_support::XorShift(0xbb67_ae85_84ca_a73b);
        let (mut captures, mut others) = (0, 0);
        for name in crate::variant::Variant::names() {
            let Some(variant) = crate::variant::Variant::by_name(name) else {
                continue;
            };
            let Some(set) = variant.rules().custom() else {
                continue;
            };
            let size = variant.rules().size();
            for round in 0..400u64 {
                // The king on the throne, next to it, or anywhere, by turns.
                let centre = size / 2;
                let king = match round % 3 {
                    0 => (centre, centre),
                    1 => (centre + 1, centre),
                    _ => (
                        (random.next() % u64::from(size)) as u8,
                        (random.next() % u64::from(size)) as u8,
                    ),
                };
                let mut pieces = Vec::new();
                for y in 0..size {
                    for x in 0..size {
                        let Some(square) = Square::new(x, y) else {
                            continue;
                        };
                        let near = x.abs_diff(king.0) + y.abs_diff(king.1) == 1;
                        let draw = random.next() % 20;
                        if (x, y) == king {
                            pieces.push((square, crate::piece::Piece::King));
                        } else if (near && draw < 12) || draw < 4 {
                            pieces.push((square, crate::piece::Piece::Attacker));
                        } else if draw < 6 {
                            pieces.push((square, crate::piece::Piece::Defender));
                        }
                    }
                }
                let Ok(position) = Position::from_pieces(variant.rules(), Side::Attackers, pieces)
                else {
                    continue;
                };
                if position.winner().is_some() {
                    continue;
                }
                let targets = position.custom_king_capture_squares(set);
                let mut expected = false;
                for m in position.legal_moves() {
                    let mut next = position;
                    next.play_unchecked(m);
                    if next.king().is_none() {
                        expected = true;
                        assert!(targets.contains(m.to()), "{position:?} then {m}");
                    }
                }
                assert_eq!(attackers_win_now(&position), expected, "{position:?}");
                if expected {
                    captures += 1;
                } else {
                    others += 1;
                }
            }
        }
        // Both answers must have come up often, or the comparison says little.
        assert!(
            captures > 300 && others > 300,
            "{captures} with a capture, {others} without"
        );
    }
}
