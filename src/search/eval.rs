//! The static evaluation: named, tunable terms, summed from the defenders' point of view and
//! turned to the side to move's.

use crate::bitboard::{Bitboard, Direction};
use crate::piece::Side;
use crate::position::Position;

use super::Score;

/// Weights of the evaluation terms, in hundredths of a soldier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// Value of each attacking soldier.
    pub attacker: i32,
    /// Value of each defending soldier.
    pub defender: i32,
    /// Bonus for each free line from the king to an edge (one such line is a threat to escape).
    pub king_open_line: i32,
    /// Penalty per step of the king's distance to the nearest edge.
    pub king_edge_distance: i32,
    /// Penalty for each attacker next to the king.
    pub attacker_next_to_king: i32,
    /// Bonus for each square the king can move to.
    pub king_mobility: i32,
}

impl EvalWeights {
    /// The default weights.
    pub const DEFAULT: EvalWeights = EvalWeights {
        attacker: 100,
        defender: 180,
        king_open_line: 150,
        king_edge_distance: 25,
        attacker_next_to_king: 40,
        king_mobility: 6,
    };
}

impl Default for EvalWeights {
    fn default() -> EvalWeights {
        EvalWeights::DEFAULT
    }
}

/// The squares the king can reach in one move, and how many of his four lines run free to an edge.
pub(crate) fn king_lines(position: &Position) -> (Bitboard, u32) {
    let Some(king) = position.king() else {
        return (Bitboard::EMPTY, 0);
    };
    let rules = position.rules();
    let empty = rules.board() - position.occupied();
    let edge = rules.edge();
    let mut reach = Bitboard::EMPTY;
    let mut open = 0;
    for direction in Direction::ALL {
        let mut ray = Bitboard::from_square(king);
        let mut last = ray;
        loop {
            ray = ray.shift(direction) & empty;
            if ray.is_empty() {
                break;
            }
            reach |= ray;
            last = ray;
        }
        if (last & edge).any() && last != Bitboard::from_square(king) {
            open += 1;
        }
    }
    (reach - rules.castle(), open)
}

/// The evaluation of `position` from the side to move's point of view.
pub fn evaluate(position: &Position, weights: &EvalWeights) -> Score {
    let mut defenders_view = position.defenders().count() as i32 * weights.defender
        - position.attackers().count() as i32 * weights.attacker;
    if let Some(king) = position.king() {
        let size = i32::from(position.rules().size());
        let (x, y) = (i32::from(king.x()), i32::from(king.y()));
        let edge_distance = x.min(y).min(size - 1 - x).min(size - 1 - y);
        let (reach, open_lines) = king_lines(position);
        let besiegers = (Bitboard::from_square(king).neighbours() & position.attackers()).count();
        defenders_view += open_lines as i32 * weights.king_open_line
            - edge_distance * weights.king_edge_distance
            - besiegers as i32 * weights.attacker_next_to_king
            + reach.count() as i32 * weights.king_mobility;
    }
    match position.side_to_move() {
        Side::Defenders => Score(defenders_view),
        Side::Attackers => Score(-defenders_view),
    }
}
