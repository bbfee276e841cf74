//! hnefatafl.org's rules where its server decides otherwise than OpenTafl (docs/rules-hosts.md,
//! H7-H11): its exit fort, its encirclement, and its test that the defenders can no longer
//! escape (its shieldwall capture, H5, is the published rule's: `shieldwall.rs`). Each follows the
//! server's code (the crate `hnefatafl-copenhagen` 6.4.1, `src/board.rs`) step for step where the
//! order of its steps decides the answer, so that games end on the same move in both programs; the
//! clause in docs/rules-hosts.md says what each test amounts to.
//!
//! The server counts its rows from the top; this module names directions as the board shows
//! them (north: towards the last rank). The server's "up" is north, "down" south.

use arrayvec::ArrayVec;

use crate::bitboard::{Bitboard, Direction};
use crate::piece::Side;
use crate::position::{Position, WinReason};
use crate::rules::RuleGrid;
use crate::rules::custom::RuleSet;
use crate::square::Square;

use super::WIDEST;
use super::shieldwall::{edges_facing_in as edges, step_towards as step};

/// The square `steps` steps from `square` in `direction` on a `size` board, if there is one.
fn steps<B: RuleGrid>(
    square: Square<B>,
    direction: Direction,
    count: u8,
    size: u8,
) -> Option<Square<B>> {
    (0..count).try_fold(square, |at, _| step(at, direction, size))
}

/// The four directions in the order the server visits a square's neighbours (up, left, down,
/// right), each with the axis along which a defender met from that side is checked by the exit
/// fort test (H7): one met going north or south must be closed east and west, one met going
/// west or east must be closed north and south.
const NEIGHBOURS_IN_ORDER: [(Direction, Axis); 4] = [
    (Direction::North, Axis::EastWest),
    (Direction::West, Axis::NorthSouth),
    (Direction::South, Axis::EastWest),
    (Direction::East, Axis::NorthSouth),
];

/// The most squares the exit fort walk ([`Position::fort_is_closed`]) holds at once: every
/// square of the widest board, and the king's four neighbours pushed before any is queued.
const FORT_WALK_CAPACITY: usize = WIDEST * WIDEST + 4;

/// The two directions along which a wall square of an exit fort must be closed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Axis {
    NorthSouth,
    EastWest,
}

impl Axis {
    fn directions(self) -> [Direction; 2] {
        match self {
            Axis::NorthSouth => [Direction::North, Direction::South],
            Axis::EastWest => [Direction::East, Direction::West],
        }
    }
}

impl<B: RuleGrid> Position<B> {
    /// The winner and how under hnefatafl.org's rules (H6-H9, H11), tested in the server's
    /// order; the move-count draw (H10), which comes before H11 there, and the side without a
    /// legal move (H12) are the game's (`Game::outcome`).
    pub(super) fn hnefatafl_org_winner(&self, set: &RuleSet<B>) -> Option<(Side, WinReason)> {
        if (self.king & set.corners()).any() {
            return Some((Side::Defenders, WinReason::KingEscaped)); // H6
        }
        if self.king.is_empty() {
            return Some((Side::Attackers, WinReason::KingCaptured)); // H4
        }
        if set.spec.edge_fort && self.is_exit_fort(set) {
            return Some((Side::Defenders, WinReason::EdgeFort)); // H7
        }
        if set.spec.surrounding_fatal && self.king_and_defenders_enclosed(set) {
            return Some((Side::Attackers, WinReason::Encircled)); // H8
        }
        if self.attackers.is_empty() {
            return Some((Side::Defenders, WinReason::AllPiecesCaptured)); // H9
        }
        if self.defenders_cannot_escape(set) {
            return Some((Side::Attackers, WinReason::CannotEscape)); // H11
        }
        None
    }

    /// H7: the king stands on an edge, has an empty square next to him, and the server's walk
    /// from his neighbours finds his fort closed ([`Position::fort_is_closed`]).
    fn is_exit_fort(&self, set: &RuleSet<B>) -> bool {
        let Some(king) = self.king.first() else {
            return false;
        };
        set.edge.contains(king)
            && (Bitboard::neighbours_of(king) & (set.board - self.occupied())).any()
            && self.fort_is_closed(set, king)
    }

    /// H7, the server's walk (`flood_fill_defender_wins`), square by square in its order: from
    /// the king's neighbours, through empty squares, every attacker met opens the fort, and a
    /// defender (the king too) met going north or south must have a defender or the board's
    /// edge to its east or west, one met going east or west the same to its north or south,
    /// unless the attackers have fewer than two pieces. Which way a defender is first met
    /// depends on the order of the walk, and decides the test: hence the walk as the server
    /// makes it (a stack; a square is queued once from an empty square, and the king's
    /// neighbours once more at the start).
    fn fort_is_closed(&self, set: &RuleSet<B>, king: Square<B>) -> bool {
        let size = set.spec.size;
        let enough_attackers = self.attackers.count() > 1;
        let defenders = self.defenders | self.king;
        let closed_towards = |square: Square<B>, direction: Direction| {
            step(square, direction, size).is_none_or(|next| defenders.contains(next))
        };
        let mut queued = Bitboard::EMPTY;
        // On the stack, not the heap (no allocation per node): a square is pushed once when
        // first queued, the king's neighbours once more before, so it never overflows.
        let mut stack: ArrayVec<(Square<B>, Axis), FORT_WALK_CAPACITY> = ArrayVec::new();
        for (direction, axis) in NEIGHBOURS_IN_ORDER {
            if let Some(next) = step(king, direction, size) {
                stack.push((next, axis));
            }
        }
        while let Some((square, axis)) = stack.pop() {
            if self.attackers.contains(square) {
                return false;
            }
            if defenders.contains(square) {
                let [one, other] = axis.directions();
                if enough_attackers
                    && !closed_towards(square, one)
                    && !closed_towards(square, other)
                {
                    return false;
                }
                continue;
            }
            for (direction, next_axis) in NEIGHBOURS_IN_ORDER {
                if let Some(next) = step(square, direction, size) {
                    if !queued.contains(next) {
                        queued |= next;
                        stack.push((next, next_axis));
                    }
                }
            }
        }
        true
    }

    /// H8 (`flood_fill_attacker_wins`): the squares joined to the king's through squares
    /// without an attacker touch no edge and hold every defender.
    fn king_and_defenders_enclosed(&self, set: &RuleSet<B>) -> bool {
        let region = self.king.flood(set.board - self.attackers);
        (region & set.edge).is_empty() && (self.defenders - region).is_empty()
    }

    /// H11 (`can_not_escape`): the king is trapped on an edge, or every corner is closed off by
    /// the attackers and the edges are all but closed (at most two open squares in one stretch
    /// on each; three with fewer than six defenders; any number with fewer than four defenders
    /// against thirteen or more attackers).
    fn defenders_cannot_escape(&self, set: &RuleSet<B>) -> bool {
        let defenders_left = self.defenders.count();
        let attackers_left = self.attackers.count();
        if self.king_trapped(set, defenders_left, attackers_left) {
            return true;
        }
        let Some(closed) = self.corners_closed_off(set) else {
            return false;
        };
        (defenders_left < 4 && attackers_left >= 13)
            || (defenders_left < 6 && self.edges_open_at_most(set, closed, 3))
            || self.edges_open_at_most(set, closed, 2)
    }

    /// H11, the king trapped on an edge (`king_trapped`): two attackers on each side of him
    /// along the edge (a corner standing for the farther one counts, and counts as one more
    /// attacker); with more than five attackers (so counted), two more in line inwards from
    /// him; and then either fewer than two defenders, or more than seven attackers and two in
    /// line inwards from one of the squares next to him along the edge.
    fn king_trapped(&self, set: &RuleSet<B>, defenders_left: u32, attackers_left: u32) -> bool {
        let Some(king) = self.king.first() else {
            return true;
        };
        let size = set.spec.size;
        let last = size - 1;
        // The server looks at the edges in this order: file a, the last file, the last rank
        // (its row 0), rank 1.
        let (inward, along) = if king.x() == 0 {
            (Direction::East, [Direction::North, Direction::South])
        } else if king.x() == last {
            (Direction::West, [Direction::North, Direction::South])
        } else if king.y() == last {
            (Direction::South, [Direction::West, Direction::East])
        } else if king.y() == 0 {
            (Direction::North, [Direction::West, Direction::East])
        } else {
            return false;
        };
        let place = if matches!(inward, Direction::East | Direction::West) {
            king.y()
        } else {
            king.x()
        };
        if place == 1 || place == last - 1 {
            return false;
        }
        let attacker_at =
            |square: Option<Square<B>>| square.is_some_and(|s| self.attackers.contains(s));
        let mut attackers_left = attackers_left;
        for direction in along {
            for distance in 1..=2 {
                let square = steps(king, direction, distance, size);
                if square.is_some_and(|s| set.corners().contains(s)) {
                    attackers_left += 1;
                } else if !attacker_at(square) {
                    return false;
                }
            }
        }
        let inwards = |from: Option<Square<B>>| {
            from.is_some_and(|from| {
                attacker_at(steps(from, inward, 1, size))
                    && attacker_at(steps(from, inward, 2, size))
            })
        };
        if attackers_left > 5 && !inwards(Some(king)) {
            return false;
        }
        defenders_left < 2
            || (attackers_left > 7
                && along
                    .iter()
                    .any(|&direction| inwards(step(king, direction, size))))
    }

    /// H11, the corners closed off (`closed_off_exits`): for every corner, either the two
    /// squares next to it along each edge hold attackers, or no defender (the king included)
    /// stands next to the region that starts at its two neighbours (those not holding a
    /// defender) and spreads through empty squares. Returns the squares the attackers so hold:
    /// the corners, and the edge squares of those regions (or the four attackers); `None` when a
    /// corner is open.
    fn corners_closed_off(&self, set: &RuleSet<B>) -> Option<Bitboard<B>> {
        let size = set.spec.size;
        let defenders = self.defenders | self.king;
        let empty = set.board - self.occupied();
        let mut held = Bitboard::EMPTY;
        for corner in set.corners() {
            let corner_set = Bitboard::from_square(corner);
            let neighbours = Bitboard::neighbours_of(corner) & set.board;
            let pair_out = |direction: Direction| {
                (1..=2).all(|distance| {
                    steps(corner, direction, distance, size)
                        .is_some_and(|square| self.attackers.contains(square))
                })
            };
            let blocked = Direction::ALL
                .into_iter()
                .filter(|&direction| step(corner, direction, size).is_some())
                .all(pair_out);
            if blocked {
                let four = Direction::ALL
                    .into_iter()
                    .filter_map(|direction| steps(corner, direction, 2, size))
                    .fold(neighbours, |set, square| set | square);
                held |= corner_set | four;
                continue;
            }
            let region = (neighbours - defenders).flood(empty - corner_set);
            let around = region.neighbours() & (set.board - corner_set - neighbours);
            if (around & defenders).any() {
                return None;
            }
            held |= corner_set | (region & set.edge);
        }
        Some(held)
    }

    /// H11 (`n_or_less_side_spaces`): along every edge, the squares that neither hold an attacker
    /// nor are `held` make at most one stretch, of at most `most` squares.
    fn edges_open_at_most(&self, set: &RuleSet<B>, held: Bitboard<B>, most: usize) -> bool {
        let closed = self.attackers | held;
        edges(set.spec.size).iter().all(|(line, _)| {
            let mut stretches = 0;
            let mut open = 0;
            let mut in_stretch = false;
            for &square in line {
                let is_open = !closed.contains(square);
                if is_open {
                    open += 1;
                    if !in_stretch {
                        stretches += 1;
                    }
                }
                in_stretch = is_open;
            }
            stretches <= 1 && open <= most
        })
    }
}
