//! Shieldwalls under custom rules (docs/rules-strings.md, C8): finding them along the edges, taking
//! them, and the edge fort's shieldwall test. Two searches, chosen by the rules
//! ([`WallSearch`]):
//!
//! - the published Copenhagen rule (C8a, [`Position::capture_published_shieldwalls`]), also
//!   hnefatafl.org's server's (H5): a row of two or more enemies along an edge, each with a piece
//!   of the mover's side in front of it, bracketed at both ends;
//! - OpenTafl's (its `detectShieldwallPositionsForSide`), followed step by step, including what it
//!   does that a reader would not guess, because games must end the same way in both programs:
//!   - both sides need two pieces on the edge before any wall is looked for;
//!   - the four edges are searched in the order rank 1, the last rank, file `a`, the last file,
//!     each from its lowest square;
//!   - the "next square" a bracketing piece looks at is counted with a place that only advances
//!     on squares that neither start nor extend a wall, so it may be the square itself;
//!   - a wall's lists of squares and pieces are carried on from one edge into the next until
//!     something clears them, and a wall already found keeps growing with them.

use crate::bitboard::{Bitboard, Direction};
use crate::piece::Side;
use crate::position::Position;
use crate::rules::RuleGrid;
use crate::rules::custom::{RuleSet, Shieldwall, WallSearch};
use crate::square::Square;
use arrayvec::ArrayVec;

use super::WIDEST;

/// Edge squares looked at by one search for walls, at most: each adds at most one held square,
/// one holding piece, one new list and one wall.
const MAX_EDGE_SQUARES: usize = 4 * WIDEST;

/// The walls found: for each, the squares it holds in (edge squares) and the squares of the
/// pieces that hold it (inside it and bracketing it). Kept in fixed arrays (the search tests
/// for walls after every move to an edge): squares are only ever added to the last list, so
/// each list is one stretch of `held` and one of `holders`.
pub(super) struct Walls<B: RuleGrid> {
    /// The held squares of all lists, list after list.
    held: ArrayVec<Square<B>, MAX_EDGE_SQUARES>,
    /// The holding pieces' squares of all lists, list after list.
    holders: ArrayVec<Square<B>, MAX_EDGE_SQUARES>,
    /// Where each list starts in `held` and in `holders`; it ends where the next one starts.
    starts: ArrayVec<(u8, u8), { MAX_EDGE_SQUARES + 1 }>,
    /// The walls, as list numbers (a list may be named twice, and may grow after being named).
    found: ArrayVec<u8, MAX_EDGE_SQUARES>,
}

impl<B: RuleGrid> Walls<B> {
    /// No walls, and one empty list to fill.
    fn new() -> Walls<B> {
        let mut walls = Walls {
            held: ArrayVec::new(),
            holders: ArrayVec::new(),
            starts: ArrayVec::new(),
            found: ArrayVec::new(),
        };
        walls.start_list();
        walls
    }

    // The pushes below cannot overflow: see MAX_EDGE_SQUARES (one of each per edge square).

    /// Starts a new list, the one squares are added to from now on.
    fn start_list(&mut self) {
        let _ = self
            .starts
            .try_push((self.held.len() as u8, self.holders.len() as u8));
    }

    /// Adds a held square to the current list.
    fn hold(&mut self, square: Square<B>) {
        let _ = self.held.try_push(square);
    }

    /// Adds a holding piece's square to the current list.
    fn add_holder(&mut self, square: Square<B>) {
        let _ = self.holders.try_push(square);
    }

    /// How many held squares the current list has.
    fn held_in_current(&self) -> usize {
        let start = self.starts.last().map_or(0, |&(held, _)| usize::from(held));
        self.held.len() - start
    }

    /// Names the current list a wall.
    fn found_current(&mut self) {
        let _ = self.found.try_push((self.starts.len() - 1) as u8);
    }

    /// The walls, each as (held squares, holding pieces' squares).
    pub(super) fn iter(&self) -> impl Iterator<Item = (&[Square<B>], &[Square<B>])> + '_ {
        self.found.iter().filter_map(|&list| {
            let list = usize::from(list);
            let &(held, holders) = self.starts.get(list)?;
            let (held_end, holders_end) = self
                .starts
                .get(list + 1)
                .map_or((self.held.len(), self.holders.len()), |&(held, holders)| {
                    (usize::from(held), usize::from(holders))
                });
            Some((
                self.held.get(usize::from(held)..held_end)?,
                self.holders.get(usize::from(holders)..holders_end)?,
            ))
        })
    }
}

/// One edge's squares, from its lowest.
pub(super) type EdgeLine<B> = ArrayVec<Square<B>, WIDEST>;

/// The squares of a `size` board's line with file `fixed_x` or rank `fixed_y` (the other one
/// `None`), from its lowest. A plain loop: the same thing as an iterator collected into the
/// `ArrayVec` made LLVM's full loop unrolling run for tens of minutes on the wide grid
/// (docs/wide-boards.md).
pub(super) fn edge_line<B: RuleGrid>(
    size: u8,
    fixed_x: Option<u8>,
    fixed_y: Option<u8>,
) -> EdgeLine<B> {
    let mut line = EdgeLine::<B>::new();
    for place in 0..size.min(B::MAX_SIZE) {
        // At most MAX_SIZE squares: the push cannot fail.
        if let Some(square) = Square::at(fixed_x.unwrap_or(place), fixed_y.unwrap_or(place)) {
            let _ = line.try_push(square);
        }
    }
    line
}

/// The four edges of a `size` board in the order they are searched, each from its lowest square,
/// with whether the edge runs along a file (then the square inside is one file in).
fn edges<B: RuleGrid>(size: u8) -> [(EdgeLine<B>, bool); 4] {
    let last = size - 1;
    [
        (edge_line(size, None, Some(0)), false),
        (edge_line(size, None, Some(last)), false),
        (edge_line(size, Some(0), None), true),
        (edge_line(size, Some(last), None), true),
    ]
}

/// The four edges of a `size` board (rank 1, the last rank, file `a`, the last file), each from
/// its lowest square, with the direction from each of its squares to the square in front of it
/// (the square inside). Also hnefatafl.org's end tests' (`hnefatafl_org.rs`).
pub(super) fn edges_facing_in<B: RuleGrid>(size: u8) -> [(EdgeLine<B>, Direction); 4] {
    let last = size - 1;
    [
        (edge_line(size, None, Some(0)), Direction::North),
        (edge_line(size, None, Some(last)), Direction::South),
        (edge_line(size, Some(0), None), Direction::East),
        (edge_line(size, Some(last), None), Direction::West),
    ]
}

/// The square one step from `square` towards `direction`, if it is on a `size` board.
pub(super) fn step_towards<B: RuleGrid>(
    square: Square<B>,
    direction: Direction,
    size: u8,
) -> Option<Square<B>> {
    let (dx, dy) = match direction {
        Direction::North => (0, 1),
        Direction::South => (0, -1),
        Direction::East => (1, 0),
        Direction::West => (-1, 0),
    };
    square.offset(dx, dy).filter(|next| next.is_on_board(size))
}

impl<B: RuleGrid> Position<B> {
    /// After `mover`'s piece has landed on `to`, takes the shieldwalls the move closes and returns
    /// their squares, by [`WallSearch`]: the published rule's or OpenTafl's.
    pub(super) fn capture_edge_walls(
        &mut self,
        set: &RuleSet<B>,
        mover: Side,
        to: Square<B>,
    ) -> Bitboard<B> {
        match set.spec.shieldwall_search {
            WallSearch::OpenTafl => self.capture_shieldwalls(set, mover, to),
            WallSearch::Published => self.capture_published_shieldwalls(set, mover, to),
        }
    }

    /// C8a (the published Copenhagen rule), H5 (hnefatafl.org's server, which finds the same
    /// rows): after `mover`'s piece has landed on `to`, takes the shieldwalls it closes and
    /// returns their squares. Along each edge, a bracket (a piece of the mover's side, the king
    /// counting, or with `sw:s` a corner) followed by two or more squares that each hold an enemy
    /// (the king counting) with a piece of the mover's side on the square in front of it (the
    /// king counting), followed by another bracket, is a wall; it is taken, the king excepted,
    /// when the moving piece stands on one of its two brackets (with `swf:n`, whatever moved).
    pub(super) fn capture_published_shieldwalls(
        &mut self,
        set: &RuleSet<B>,
        mover: Side,
        to: Square<B>,
    ) -> Bitboard<B> {
        let flanking = set.spec.shieldwall_flanking;
        if flanking && !set.edge.contains(to) {
            return Bitboard::EMPTY; // A bracket is an edge square: the mover must be one.
        }
        let size = set.spec.size;
        // hnefatafl.org's server also brackets with the throne, which is never on an edge there.
        let corners = if set.spec.shieldwall == Shieldwall::Strong {
            set.corners()
        } else {
            Bitboard::EMPTY
        };
        let mut captured = Bitboard::EMPTY;
        for (line, inward) in edges_facing_in::<B>(size) {
            if flanking && !line.contains(&to) {
                continue;
            }
            let bracket = |position: &Position<B>, square: Square<B>| {
                position.side_on(square) == Some(mover) || corners.contains(square)
            };
            for (first, &opening) in line.iter().enumerate() {
                if !bracket(self, opening) {
                    continue;
                }
                let Some(run) = line.get(first + 1..) else {
                    break;
                };
                let length = run
                    .iter()
                    .take_while(|&&square| {
                        self.side_on(square) == Some(mover.opponent())
                            && step_towards(square, inward, size)
                                .is_some_and(|inner| self.side_on(inner) == Some(mover))
                    })
                    .count();
                // A run up to the far end has no bracket after it.
                let Some(&closing) = run.get(length) else {
                    continue;
                };
                let moved_as_bracket = !flanking || to == opening || to == closing;
                if length > 1 && bracket(self, closing) && moved_as_bracket {
                    let wall = run[..length]
                        .iter()
                        .fold(Bitboard::EMPTY, |wall, &square| wall | square);
                    captured |= self.take_wall(mover, wall);
                }
            }
        }
        captured
    }

    /// The side whose piece stands on `square`, if any (the king counts for the defenders).
    /// Also hnefatafl.org's fort and encirclement tests' (`hnefatafl_org.rs`).
    pub(super) fn side_on(&self, square: Square<B>) -> Option<Side> {
        if self.attackers.contains(square) {
            Some(Side::Attackers)
        } else if (self.defenders | self.king).contains(square) {
            Some(Side::Defenders)
        } else {
            None
        }
    }

    /// The shieldwalls that pieces of `holders` make around the other side's pieces along the
    /// edges (the lists as OpenTafl builds them; a wall is not yet checked to be full of enemies).
    pub(super) fn find_shieldwalls(&self, set: &RuleSet<B>, holders: Side) -> Walls<B> {
        let mut walls = Walls::new();
        let edge = set.edge;
        // Both sides need two pieces on the edge before any wall is looked for.
        if (self.attackers & edge).count() < 2 || ((self.defenders | self.king) & edge).count() < 2
        {
            return walls;
        }
        let size = set.spec.size;
        for (line, along_file) in edges(size) {
            self.walk_edge(set, holders, &line, along_file, &mut walls);
        }
        walls
    }

    /// One edge's walk of [`Position::find_shieldwalls`], adding to `walls`. Kept out of line:
    /// unrolled four times into its caller on the wide grid, it stalled LLVM's loop unrolling
    /// (docs/wide-boards.md).
    #[inline(never)]
    fn walk_edge(
        &self,
        set: &RuleSet<B>,
        holders: Side,
        line: &[Square<B>],
        along_file: bool,
        walls: &mut Walls<B>,
    ) {
        let size = set.spec.size;
        let corners_bracket = set.spec.shieldwall == Shieldwall::Strong;
        let corners = set.corners();
        let held_by = |square: Square<B>| self.side_on(square) == Some(holders);
        let inside = |square: Square<B>, along_file: bool| -> Option<Square<B>> {
            let (x, y) = (square.x(), square.y());
            if along_file {
                Square::at(if x == 0 { 1 } else { size - 2 }, y)
            } else {
                Square::at(x, if y == 0 { 1 } else { size - 2 })
            }
        };
        let mut started = false;
        let mut place = 0;
        for &square in line {
            let is_corner = corners.contains(square);
            if !started && corners_bracket && is_corner {
                started = true;
                continue;
            } else if !started && held_by(square) {
                started = true;
                walls.add_holder(square);
                continue;
            }
            if started {
                if corners_bracket && is_corner {
                    if walls.held_in_current() > 1 {
                        walls.found_current();
                    }
                    break;
                }
                let inner = inside(square, along_file).filter(|&inner| held_by(inner));
                if held_by(square) {
                    let next_held = line.get(place + 1).is_some_and(|&next| held_by(next));
                    let king_here = self.king.contains(square);
                    if let (Some(inner), true) = (inner, next_held || king_here) {
                        walls.add_holder(inner);
                        walls.hold(square);
                        continue;
                    }
                    // A closing bracket: the wall so far is found, and a new one may start here.
                    if walls.held_in_current() > 1 {
                        walls.add_holder(square);
                        walls.found_current();
                    }
                    walls.start_list();
                    continue;
                }
                match inner {
                    Some(inner) => {
                        walls.add_holder(inner);
                        walls.hold(square);
                    }
                    None => {
                        started = false;
                        walls.start_list();
                    }
                }
            }
            place += 1;
        }
    }

    /// After `mover`'s piece has landed on `to`, takes the shieldwalls it completes: every wall
    /// (of either side's pieces) whose held squares all hold pieces of the other side than the
    /// mover's loses them, the king excepted. With flanking required, the mover must have landed
    /// on the edge as one of the wall's own pieces.
    pub(super) fn capture_shieldwalls(
        &mut self,
        set: &RuleSet<B>,
        mover: Side,
        to: Square<B>,
    ) -> Bitboard<B> {
        let flanking = set.spec.shieldwall_flanking;
        if flanking && !set.edge.contains(to) {
            return Bitboard::EMPTY;
        }
        if !self.shieldwall_may_take(set, mover) {
            return Bitboard::EMPTY;
        }
        if flanking {
            // The mover's piece on `to` must be one of the wall's holders, and a wall's holders
            // are all pieces of the side it was looked for: only the mover's walls can qualify
            // (the other side's, looked for too without flanking, never would).
            let walls = self.find_shieldwalls(set, mover);
            return self.take_shieldwalls(mover, Some(to), &walls);
        }
        // Both sides' walls are found before any is taken.
        let walls = [
            self.find_shieldwalls(set, Side::Attackers),
            self.find_shieldwalls(set, Side::Defenders),
        ];
        walls.iter().fold(Bitboard::EMPTY, |captured, walls| {
            captured | self.take_shieldwalls(mover, None, walls)
        })
    }

    /// [`Position::capture_shieldwalls`] as first written, for the tests that compare the two:
    /// both sides' walls looked for after every move, with no test first.
    #[cfg(test)]
    pub(super) fn capture_shieldwalls_plain(
        &mut self,
        set: &RuleSet<B>,
        mover: Side,
        to: Square<B>,
    ) -> Bitboard<B> {
        let flanking = set.spec.shieldwall_flanking;
        if flanking && !set.edge.contains(to) {
            return Bitboard::EMPTY;
        }
        let walls = [
            self.find_shieldwalls(set, Side::Attackers),
            self.find_shieldwalls(set, Side::Defenders),
        ];
        let flanker = flanking.then_some(to);
        walls.iter().fold(Bitboard::EMPTY, |captured, walls| {
            captured | self.take_shieldwalls(mover, flanker, walls)
        })
    }

    /// C8: whether a shieldwall may take anything in this position, `mover`'s piece having landed
    /// (a cheap test that is never false when [`Position::capture_shieldwalls`] would take
    /// something). What a wall takes are its held squares but the king, and all of them must
    /// hold the other side's pieces: so an enemy soldier must be held. [`find_shieldwalls`]
    /// holds a square only when a piece of the wall's side stands on the square inside it
    /// (`inside`, one of [`squares_inside`]): so some enemy soldier on an edge has a piece on
    /// the square inside it, on that edge's side.
    ///
    /// [`find_shieldwalls`]: Position::find_shieldwalls
    pub(super) fn shieldwall_may_take(&self, set: &RuleSet<B>, mover: Side) -> bool {
        let victims = match mover {
            Side::Attackers => self.defenders,
            Side::Defenders => self.attackers,
        };
        (squares_inside(set, victims) & self.occupied()).any()
    }

    /// C8: the squares where a move of the side to move may complete a shieldwall that takes
    /// something (a superset, for all its moves at once; see [`Position::shieldwall_may_take`]):
    /// after the move an enemy soldier on an edge must have a piece on the square inside it.
    /// hnefatafl.org's walls (H5) need that too: each square of theirs holds an enemy with a
    /// piece of the mover's side inside it, and of two or more squares one is a soldier.
    /// A move empties a square and fills only its landing square: if such a soldier is there now,
    /// any move may (every edge square, with flanking required); if not, only a move onto a square
    /// inside one (and onto an edge, with flanking).
    pub(super) fn shieldwall_landings(&self, set: &RuleSet<B>) -> Bitboard<B> {
        let victims = match self.side_to_move {
            Side::Attackers => self.defenders,
            Side::Defenders => self.attackers,
        };
        let inside = squares_inside(set, victims);
        let landings = if (inside & self.occupied()).any() {
            set.board
        } else {
            inside
        };
        if set.spec.shieldwall_flanking {
            landings & set.edge
        } else {
            landings
        }
    }

    /// Takes each of `walls` whose held squares all hold pieces of the other side than `mover`'s
    /// (the king excepted), and, when `flanker` is given, that has the piece on that square
    /// among its holders. Returns the squares taken.
    fn take_shieldwalls(
        &mut self,
        mover: Side,
        flanker: Option<Square<B>>,
        walls: &Walls<B>,
    ) -> Bitboard<B> {
        let mut captured = Bitboard::EMPTY;
        for (held, holders) in walls.iter() {
            if flanker.is_some_and(|to| !holders.contains(&to)) {
                continue;
            }
            let full_of_enemies = held
                .iter()
                .all(|&square| matches!(self.side_on(square), Some(side) if side != mover));
            if !full_of_enemies {
                continue;
            }
            let wall = held
                .iter()
                .fold(Bitboard::EMPTY, |set, &square| set | square);
            captured |= self.take_wall(mover, wall);
        }
        captured
    }
}

/// The squares inside the `pieces` that stand on an edge, one for each edge a piece stands on (a
/// corner's two), on the board's side of the edge: the squares whose pieces let
/// [`Position::find_shieldwalls`] hold theirs (its `inside`).
#[inline]
pub(super) fn squares_inside<B: RuleGrid>(set: &RuleSet<B>, pieces: Bitboard<B>) -> Bitboard<B> {
    set.edge_sides
        .iter()
        .fold(Bitboard::EMPTY, |inside, &(side, inward)| {
            inside | (pieces & side).shift(inward)
        })
}
