//! The static evaluation: named, tunable terms, summed from the defenders' point of view and
//! turned to the side to move's.
//!
//! The search calls it only in quiet positions: the side to move cannot win at once, and the
//! attackers are not facing an open king line (those are searched, see `alphabeta`). So the
//! terms measure what is one or two moves away: the squares from which the king would threaten
//! to escape, the edge squares he could reach in two moves, the attackers closing in.

use crate::bitboard::{Bitboard, Direction};
use crate::piece::Side;
use crate::play::Grid;
use crate::position::Position;

use super::score::Score;
use super::threats::{self, opposite};

/// Weights of the evaluation terms, in hundredths of a soldier. Positive weights favour the side
/// the term names; every term is documented with whose side it helps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// Value of each attacking soldier (attackers).
    pub attacker: i32,
    /// Value of each defending soldier (defenders).
    pub defender: i32,
    /// Per free line from the king to an edge (defenders). In the quiet positions the search
    /// evaluates it is always zero: a free line is searched, not evaluated.
    pub king_open_line: i32,
    /// Per step of the king's distance to the nearest square he escapes on: an edge, or under
    /// corner-escape rules a corner (attackers).
    pub king_edge_distance: i32,
    /// Per attacker next to the king (attackers).
    pub attacker_next_to_king: i32,
    /// Per square the king can move to (defenders).
    pub king_mobility: i32,
    /// Per square the king can move to that has a free line to the edge: a threat to escape
    /// next move, which the attackers must answer (defenders).
    pub king_check_square: i32,
    /// Per square the king can move to that has two free lines: moving there wins unless the
    /// king is captured at once (defenders).
    pub king_fork_square: i32,
    /// Per edge square the king could reach in two moves (defenders).
    pub king_escape_route: i32,
    /// Per pair of attackers touching diagonally, the links of a ring around the defenders
    /// (attackers).
    pub attacker_diagonal_link: i32,
    /// Per defending soldier next to the king, guarding him against capture (defenders).
    pub defender_next_to_king: i32,
    /// Corner-escape games: per attacker on a square next to a corner or diagonally in front of
    /// it, where it bars the king's way in (attackers).
    pub corner_guard: i32,
    /// Bonus for the side to move (its own side).
    pub tempo: i32,
    /// Per edge square the king's region touches (defenders): the squares he could reach by
    /// steps through squares without an attacker, whoever else stands there. Zero when the
    /// attackers' ring around him is closed; it falls as they close it.
    pub king_region_edge: i32,
    /// Corner-escape games on boards of 9x9 and larger: per corner in the king's region (the
    /// squares he could reach by steps through squares without an attacker), a corner the
    /// attackers have not yet sealed off (defenders).
    pub king_region_corner: i32,
    /// Edge-escape games: per move a defending soldier could make (defenders), room to meet the
    /// attackers' wall from inside and outside it.
    pub defender_mobility: i32,
    /// Edge-escape games: per move an attacking soldier could make (attackers).
    pub attacker_mobility: i32,
}

impl EvalWeights {
    /// The default weights (chosen by self-play matches: see docs/search.md).
    pub const DEFAULT: EvalWeights = EvalWeights {
        attacker: 100,
        defender: 180,
        king_open_line: 150,
        king_edge_distance: 8,
        attacker_next_to_king: 30,
        king_mobility: 4,
        king_check_square: 15,
        king_fork_square: 60,
        king_escape_route: 0,
        attacker_diagonal_link: 6,
        defender_next_to_king: 10,
        corner_guard: 0,
        tempo: 10,
        king_region_edge: 5,
        king_region_corner: 160,
        defender_mobility: 6,
        attacker_mobility: 0,
    };

    /// The first evaluation of the project (material, king distance, free lines, besiegers,
    /// mobility), kept to measure the newer terms against it.
    pub const BASIC: EvalWeights = EvalWeights {
        attacker: 100,
        defender: 180,
        king_open_line: 150,
        king_edge_distance: 25,
        attacker_next_to_king: 40,
        king_mobility: 6,
        king_check_square: 0,
        king_fork_square: 0,
        king_escape_route: 0,
        attacker_diagonal_link: 0,
        defender_next_to_king: 0,
        corner_guard: 0,
        tempo: 0,
        king_region_edge: 0,
        king_region_corner: 0,
        defender_mobility: 0,
        attacker_mobility: 0,
    };
}

impl EvalWeights {
    /// The names of the terms, the fields' names, in the order of the fields: what
    /// [`EvalWeights::term_mut`] takes (and what match runners and tuners accept as `w.NAME`).
    pub const TERMS: [&'static str; 17] = [
        "attacker",
        "defender",
        "king_open_line",
        "king_edge_distance",
        "attacker_next_to_king",
        "king_mobility",
        "king_check_square",
        "king_fork_square",
        "king_escape_route",
        "attacker_diagonal_link",
        "defender_next_to_king",
        "corner_guard",
        "tempo",
        "king_region_edge",
        "king_region_corner",
        "defender_mobility",
        "attacker_mobility",
    ];

    /// The weight of the term called `name` (one of [`EvalWeights::TERMS`]), to read or set;
    /// `None` for any other name.
    ///
    /// ```
    /// use tafl_engine::search::eval::EvalWeights;
    /// let mut weights = EvalWeights::DEFAULT;
    /// *weights.term_mut("corner_guard").unwrap() = 25;
    /// assert_eq!(weights.corner_guard, 25);
    /// assert!(weights.term_mut("king_speed").is_none());
    /// ```
    pub fn term_mut(&mut self, name: &str) -> Option<&mut i32> {
        Some(match name {
            "attacker" => &mut self.attacker,
            "defender" => &mut self.defender,
            "king_open_line" => &mut self.king_open_line,
            "king_edge_distance" => &mut self.king_edge_distance,
            "attacker_next_to_king" => &mut self.attacker_next_to_king,
            "king_mobility" => &mut self.king_mobility,
            "king_check_square" => &mut self.king_check_square,
            "king_fork_square" => &mut self.king_fork_square,
            "king_escape_route" => &mut self.king_escape_route,
            "attacker_diagonal_link" => &mut self.attacker_diagonal_link,
            "defender_next_to_king" => &mut self.defender_next_to_king,
            "corner_guard" => &mut self.corner_guard,
            "tempo" => &mut self.tempo,
            "king_region_edge" => &mut self.king_region_edge,
            "king_region_corner" => &mut self.king_region_corner,
            "defender_mobility" => &mut self.defender_mobility,
            "attacker_mobility" => &mut self.attacker_mobility,
            _ => return None,
        })
    }
}

impl Default for EvalWeights {
    fn default() -> EvalWeights {
        EvalWeights::DEFAULT
    }
}

/// The smallest board on which `king_region_corner` counts. Sealing a corner takes three
/// attackers; on 7x7 boards (Brandub, Magpie: 8 attackers) they cannot spare twelve, the game is
/// played otherwise, and in self-play the term lost there (Brandub 37 / 0 / 63 with it, against
/// Fetlar's 53 / 20 / 27; docs/search.md, "Sealing the corners").
const MIN_CORNER_REGION_BOARD: i32 = 9;

/// Every square reachable from `from` by one slide over empty squares, in any direction.
fn slide_fill<B: Grid>(from: Bitboard<B>, empty: Bitboard<B>) -> Bitboard<B> {
    let mut reached = Bitboard::EMPTY;
    for direction in Direction::ALL {
        let mut step = from;
        loop {
            step = step.shift(direction) & empty;
            if step.is_empty() {
                break;
            }
            reached |= step;
        }
    }
    reached
}

/// The evaluation of `position` from the side to move's point of view.
pub fn evaluate<B: Grid>(position: &Position<B>, weights: &EvalWeights) -> Score {
    evaluate_with_lines(position, weights, &threats::king_lines(position))
}

/// [`evaluate`] with the king's lines already computed by the search.
pub(crate) fn evaluate_with_lines<B: Grid>(
    position: &Position<B>,
    weights: &EvalWeights,
    lines: &threats::KingLines<B>,
) -> Score {
    let attackers = position.attackers();
    let defenders = position.defenders();
    let mut defenders_view =
        defenders.count() as i32 * weights.defender - attackers.count() as i32 * weights.attacker;
    let corners = position.rules().corners();
    let corner_escape = position.rules().escape() == crate::rules::Escape::Corner;
    if corner_escape && weights.corner_guard != 0 {
        // The squares next to each corner and the one diagonally in front of it.
        let board = position.rules().board();
        let diagonal = [Direction::North, Direction::South].into_iter().fold(
            Bitboard::EMPTY,
            |set, vertical| {
                let row = corners.shift(vertical);
                set | row.shift(Direction::East) | row.shift(Direction::West)
            },
        );
        let guards = (corners.neighbours() | diagonal) & board;
        defenders_view -= (attackers & guards).count() as i32 * weights.corner_guard;
    }
    if let Some(king) = position.king() {
        let geometry = position.rules().geometry();
        let size = i32::from(position.rules().size());
        let (x, y) = (i32::from(king.x()), i32::from(king.y()));
        let edge_distance = if corner_escape {
            // Steps to the nearest corner, a diagonal step counting as one.
            corners
                .into_iter()
                .map(|corner| {
                    let (cx, cy) = (i32::from(corner.x()), i32::from(corner.y()));
                    (cx - x).abs().max((cy - y).abs())
                })
                .min()
                .unwrap_or(size)
        } else {
            x.min(y).min(size - 1 - x).min(size - 1 - y)
        };
        let king_set = Bitboard::from_square(king);
        let neighbours = king_set.neighbours();
        defenders_view += lines.open as i32 * weights.king_open_line
            - edge_distance * weights.king_edge_distance
            - (neighbours & attackers).count() as i32 * weights.attacker_next_to_king
            + (neighbours & defenders).count() as i32 * weights.defender_next_to_king
            + lines.reach.count() as i32 * weights.king_mobility;
        if weights.king_check_square != 0 || weights.king_fork_square != 0 {
            let (one, two) = threats::escape_squares(position);
            defenders_view += (lines.reach & one).count() as i32 * weights.king_check_square
                + (lines.reach & two).count() as i32 * weights.king_fork_square;
        }
        if weights.king_escape_route != 0 {
            let empty = geometry.board - position.occupied();
            let second = slide_fill(lines.reach, empty);
            let routes = (second | lines.reach) & geometry.edge;
            defenders_view += routes.count() as i32 * weights.king_escape_route;
        }
        let corner_term =
            corner_escape && weights.king_region_corner != 0 && size >= MIN_CORNER_REGION_BOARD;
        if weights.king_region_edge != 0 || corner_term {
            // The king's region: the inside of the attackers' ring.
            let region = king_set.flood(geometry.board - attackers);
            defenders_view += (region & geometry.edge).count() as i32 * weights.king_region_edge;
            if corner_term {
                defenders_view += (region & corners).count() as i32 * weights.king_region_corner;
            }
        }
    }
    if !corner_escape {
        // The soldiers' moves (`movegen::slides_of`); the king's are `king_mobility`. Not in
        // corner-escape games: there the term lost its self-play match, above all with the
        // attackers, who chased the defenders' room instead of sealing corners (docs/search.md,
        // "Room to move"). A side's moves are counted only when its weight is set (the
        // attackers' is 0 by default, and this runs at every leaf).
        let term = |pieces: Bitboard<B>, weight: i32| match weight {
            0 => 0,
            _ => crate::movegen::slides_of(position, pieces) as i32 * weight,
        };
        defenders_view +=
            term(defenders, weights.defender_mobility) - term(attackers, weights.attacker_mobility);
    }
    if weights.attacker_diagonal_link != 0 {
        let north = attackers.shift(Direction::North);
        let links = (north.shift(Direction::East) & attackers).count()
            + (north.shift(opposite(Direction::East)) & attackers).count();
        defenders_view -= links as i32 * weights.attacker_diagonal_link;
    }
    let own_view = match position.side_to_move() {
        Side::Defenders => defenders_view,
        Side::Attackers => -defenders_view,
    };
    Score(own_view + weights.tempo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_term_is_reached_by_its_name() {
        let mut weights = EvalWeights::DEFAULT;
        for (value, name) in (1000..).zip(EvalWeights::TERMS) {
            *weights.term_mut(name).unwrap_or_else(|| panic!("{name}")) = value;
        }
        // The literal names every field: a new term does not compile here until it is listed
        // (and then this test says whether `TERMS` and `term_mut` have it).
        let expected = EvalWeights {
            attacker: 1000,
            defender: 1001,
            king_open_line: 1002,
            king_edge_distance: 1003,
            attacker_next_to_king: 1004,
            king_mobility: 1005,
            king_check_square: 1006,
            king_fork_square: 1007,
            king_escape_route: 1008,
            attacker_diagonal_link: 1009,
            defender_next_to_king: 1010,
            corner_guard: 1011,
            tempo: 1012,
            king_region_edge: 1013,
            king_region_corner: 1014,
            defender_mobility: 1015,
            attacker_mobility: 1016,
        };
        assert_eq!(weights, expected);
        assert!(weights.term_mut("king_speed").is_none());
    }

    /// What the term `name` at weight 7 adds to `position`'s evaluation (all other weights the
    /// defaults), from the side to move's point of view.
    fn term_at_seven(name: &str, position: &Position) -> i32 {
        let mut with = EvalWeights::DEFAULT;
        let mut without = EvalWeights::DEFAULT;
        *with.term_mut(name).expect("a term's name") = 7;
        *without.term_mut(name).expect("a term's name") = 0;
        evaluate(position, &with).0 - evaluate(position, &without).0
    }

    /// A position record (rank 1 first) under `rules`, the defenders to move.
    fn defenders_to_move(record: &str, rules: crate::rules::Rules) -> Position {
        crate::notation::parse_position_record(record, rules, Side::Defenders)
            .unwrap_or_else(|error| panic!("{record}: {error}"))
    }

    #[test]
    fn the_region_term_counts_the_edge_squares_inside_the_attackers_ring() {
        use crate::rules::Rules;
        // A diamond of attackers round the king (rank 1 first): closed, every orthogonal step
        // out of it lands on an attacker; without g5 it is open to the whole board.
        let closed = "/9/9/4t4/3t1t3/2t1K1t2/3t1t3/4t4/9/9/";
        let open = "/9/9/4t4/3t1t3/2t1K4/3t1t3/4t4/9/9/";
        let term = |record: &str| {
            term_at_seven(
                "king_region_edge",
                &defenders_to_move(record, Rules::TABLUT),
            )
        };
        assert_eq!(term(closed), 0);
        // Every one of the 32 edge squares of the 9x9 board is reachable.
        assert_eq!(term(open), 7 * 32);
    }

    #[test]
    fn the_corner_term_counts_the_corners_inside_the_attackers_ring() {
        use crate::variant::Variant;
        // Copenhagen's board (rank 1 first): a diagonal of three attackers in front of a corner
        // (c1 b2 a3) shuts the king out of it; the four diagonals shut him out of all four.
        let one_sealed = "/2t8/1t9/t10/11/11/5K5/11/11/11/11/11/";
        let all_sealed = "/2t5t2/1t7t1/t9t/11/11/5K5/11/11/t9t/1t7t1/2t5t2/";
        let open = "/11/11/11/11/11/5K5/11/11/11/11/11/";
        let term = |record: &str| {
            let copenhagen = Variant::copenhagen().rules();
            term_at_seven("king_region_corner", &defenders_to_move(record, copenhagen))
        };
        assert_eq!(term(open), 7 * 4);
        assert_eq!(term(one_sealed), 7 * 3);
        assert_eq!(term(all_sealed), 0);
        // The term is for corner-escape games only: Copenhagen's and Fetlar's starts have all four
        // corners open, Tawlbwrdd's (the king escapes to an edge) scores nothing.
        let start = |variant: Variant| term_at_seven("king_region_corner", &variant.start());
        assert_eq!(start(Variant::copenhagen()).abs(), 7 * 4);
        assert_eq!(start(Variant::fetlar()).abs(), 7 * 4);
        assert_eq!(start(Variant::tawlbwrdd()), 0);
        // Nor on 7x7 boards, where the attackers have too few pieces to seal corners.
        assert_eq!(start(Variant::brandub()), 0);
    }

    #[test]
    fn the_mobility_terms_count_the_soldiers_legal_moves() {
        // The oracle: the move generator's legal moves of each side, the king's left out, along
        // pseudo-random games of both edge-escape games.
        let positions = crate::test_support::positions_along_random_games(
            &[Position::tablut(), Position::tawlbwrdd()],
            10,
            80,
            0x0005_eed0_fa11_5ade,
        );
        for position in positions.iter().filter(|p| p.winner().is_none()) {
            let soldier_moves = |side: Side| {
                let mover = position.with_side_to_move(side);
                let moves = mover.legal_moves();
                let king = position.king();
                moves.into_iter().filter(|m| Some(m.from()) != king).count() as i32
            };
            let defending = position.with_side_to_move(Side::Defenders);
            let attacking = position.with_side_to_move(Side::Attackers);
            // Each side to move sees its own term with a plus sign.
            let defenders = term_at_seven("defender_mobility", &defending);
            let attackers = term_at_seven("attacker_mobility", &attacking);
            assert_eq!(
                defenders,
                7 * soldier_moves(Side::Defenders),
                "{position:?}"
            );
            assert_eq!(
                attackers,
                7 * soldier_moves(Side::Attackers),
                "{position:?}"
            );
        }
        // Corner-escape games have neither term, though their soldiers can move.
        let copenhagen = crate::variant::Variant::copenhagen().start();
        assert!(copenhagen.legal_moves().len() > 1);
        assert_eq!(term_at_seven("defender_mobility", &copenhagen), 0);
        assert_eq!(term_at_seven("attacker_mobility", &copenhagen), 0);
    }

    #[test]
    fn the_two_sides_see_opposite_scores_but_for_the_tempo() {
        for start in [Position::tablut(), Position::tawlbwrdd()] {
            let weights = EvalWeights::DEFAULT;
            let attackers = evaluate(&start, &weights).0;
            let defenders = evaluate(&start.with_side_to_move(Side::Defenders), &weights).0;
            assert_eq!(attackers - weights.tempo, -(defenders - weights.tempo));
        }
    }
}
