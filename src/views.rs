//! The board seen from each of the four directions of movement (R5), kept in step with the
//! position, so that a slide in any direction is a slide "east" (towards higher bits) in one view.
//!
//! Sliding east through empty squares is one addition: adding the squares just east of the
//! movers to the set of empty squares makes a carry run along each empty stretch that starts next
//! to a mover, clearing it (see [`reach_east`]). The other directions are slides east in a view
//! of the board turned round or transposed:
//!
//! | view    | bit of the square at file `x`, rank `y` | east in the view is |
//! |---------|-----------------------------------------|---------------------|
//! | `East`  | `y * 11 + x` (the board itself)         | east                |
//! | `West`  | `120 - (y * 11 + x)` (half a turn)      | west                |
//! | `North` | `x * 11 + y` (transposed)               | north               |
//! | `South` | `120 - (x * 11 + y)`                    | south               |
//!
//! The `East` view is the position's own bitboards. The other three are built from a position
//! when they are needed ([`SideViews::of`], a few instructions a piece) and kept in step move by
//! move where they are needed often (perft's bulk counting, [`SideViews::after`]). A `Position`
//! does not carry them: it stays 64 bytes, so copying and playing a move stays cheap.

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::piece::Side;
use crate::position::Position;
use crate::square::{MAX_BOARD_SIZE, STRIDE, Square};

/// Number of squares on the 11-wide grid.
const GRID_SQUARES: usize = (MAX_BOARD_SIZE as usize) * (MAX_BOARD_SIZE as usize);

/// The four views, in the order of the arrays below.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum View {
    East = 0,
    West = 1,
    North = 2,
    South = 3,
}

impl View {
    pub(crate) const ALL: [View; 4] = [View::East, View::West, View::North, View::South];

    /// The bit of `square` in this view.
    const fn bit_index(self, square: u8) -> u8 {
        let (x, y) = (square % STRIDE, square / STRIDE);
        let last = (GRID_SQUARES - 1) as u8;
        match self {
            View::East => square,
            View::West => last - square,
            View::North => x * STRIDE + y,
            View::South => last - (x * STRIDE + y),
        }
    }

    /// The view of a set of squares given in the board's own bits.
    const fn of_set(self, set: u128) -> u128 {
        let mut viewed = 0u128;
        let mut square = 0;
        while square < GRID_SQUARES as u8 {
            if set & (1u128 << square) != 0 {
                viewed |= 1u128 << self.bit_index(square);
            }
            square += 1;
        }
        viewed
    }
}

/// The view of a set of squares given in the board's own bits, built bit by bit (for sets of few
/// squares: the custom rules' special squares, once per count).
pub(crate) fn view_of_set(view: View, set: u128) -> u128 {
    let mut viewed = 0u128;
    crate::bitboard::for_each_index(set, |index| {
        viewed |= 1u128 << view.bit_index(index as u8);
    });
    viewed
}

/// The stored views (`West`, `North`, `South`) of one square: what to toggle when a piece
/// arrives on it or leaves it.
const fn build_stored_bits(square: u8) -> [u128; 3] {
    [
        1u128 << View::West.bit_index(square),
        1u128 << View::North.bit_index(square),
        1u128 << View::South.bit_index(square),
    ]
}

/// One entry for every value of a square's index (a `u8`), not only for the grid's squares
/// (the rest stay empty): an index into the table can then never be out of range, so reading
/// it needs no bounds check (measured: 4 instructions less for each quiet move that perft
/// counts without playing it).
static STORED_BITS: [[u128; 3]; 1 << u8::BITS] = {
    let mut table = [[0u128; 3]; 1 << u8::BITS];
    let mut square = 0;
    while square < GRID_SQUARES {
        table[square] = build_stored_bits(square as u8);
        square += 1;
    }
    table
};

/// The bits of `square` in the `West`, `North` and `South` views.
#[inline(always)]
pub(crate) fn stored_bits(square: Square) -> &'static [u128; 3] {
    &STORED_BITS[usize::from(square.index())]
}

/// The `West`, `North` and `South` views of each side's pieces (the defenders' with the king).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub(crate) struct SideViews {
    attackers: [u128; 3],
    defenders: [u128; 3],
}

impl SideViews {
    /// The views of every piece of `position`, built square by square.
    #[inline]
    pub(crate) fn of(position: &Position) -> SideViews {
        let mut views = SideViews::default();
        for side in Side::ALL {
            let set = views.side_mut(side);
            crate::bitboard::for_each_index(position.pieces(side).0, |index| {
                if let Some(bits) = STORED_BITS.get(index) {
                    for (view, bit) in set.iter_mut().zip(bits) {
                        *view |= bit;
                    }
                }
            });
        }
        views
    }

    /// The views after `mover` played `m` and took the `captured` squares (as returned by
    /// [`Position::play_unchecked`]).
    #[inline(always)]
    #[must_use]
    pub(crate) fn after(&self, mover: Side, m: Move, captured: Bitboard) -> SideViews {
        let mut next = *self;
        next.slide(mover, m.from(), m.to());
        for square in captured {
            next.toggle(mover.opponent(), square);
        }
        next
    }

    /// Every occupied square in the `North` (transposed) view: bit `x * 11 + y`.
    #[inline(always)]
    pub(crate) fn north_occupied(&self) -> u128 {
        let north = View::North as usize - 1;
        self.attackers[north] | self.defenders[north]
    }

    /// Adds or removes a piece of `side` on `square`.
    #[inline(always)]
    pub(crate) fn toggle(&mut self, side: Side, square: Square) {
        let bits = &STORED_BITS[usize::from(square.index())];
        let set = self.side_mut(side);
        for (view, bit) in set.iter_mut().zip(bits) {
            *view ^= bit;
        }
    }

    /// Moves a piece of `side` from `from` to `to`.
    #[inline(always)]
    pub(crate) fn slide(&mut self, side: Side, from: Square, to: Square) {
        let from_bits = &STORED_BITS[usize::from(from.index())];
        let to_bits = &STORED_BITS[usize::from(to.index())];
        let set = self.side_mut(side);
        for ((view, from_bit), to_bit) in set.iter_mut().zip(from_bits).zip(to_bits) {
            *view ^= from_bit ^ to_bit;
        }
    }

    /// The pieces of `side` in `view`, other than `East` (which the position holds itself).
    #[inline(always)]
    pub(crate) fn side(&self, side: Side) -> &[u128; 3] {
        match side {
            Side::Attackers => &self.attackers,
            Side::Defenders => &self.defenders,
        }
    }

    #[inline(always)]
    fn side_mut(&mut self, side: Side) -> &mut [u128; 3] {
        match side {
            Side::Attackers => &mut self.attackers,
            Side::Defenders => &mut self.defenders,
        }
    }
}

/// What a slide in one view may pass through and stop on, for one board size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ViewMasks {
    /// The board's squares in the view, less the view's first file: a slide east never ends
    /// there, and leaving it out stops a carry that runs off the end of a rank (on an 11x11
    /// board) from running on into the next rank.
    pub(crate) passable: u128,
    /// `passable` less the castle: squares a slide may stop on (R6).
    pub(crate) destinations: u128,
}

/// The masks of the four views, for each board size (sizes below 5 are never used).
static VIEW_MASKS: [[ViewMasks; 4]; MAX_BOARD_SIZE as usize + 1] = {
    let empty = ViewMasks {
        passable: 0,
        destinations: 0,
    };
    let mut table = [[empty; 4]; MAX_BOARD_SIZE as usize + 1];
    let mut size = 1;
    while size <= MAX_BOARD_SIZE {
        let board = crate::board::grid::to_u128(crate::board::grid::board(STRIDE, size));
        let castle_index = (size / 2) * STRIDE + size / 2;
        let castle = 1u128 << castle_index;
        let mut first_file = 0u128;
        let mut rank = 0;
        while rank < MAX_BOARD_SIZE {
            first_file |= 1u128 << (rank * STRIDE);
            rank += 1;
        }
        let mut view = 0;
        while view < 4 {
            let passable = View::ALL[view].of_set(board) & !first_file;
            table[size as usize][view] = ViewMasks {
                passable,
                destinations: passable & !View::ALL[view].of_set(castle),
            };
            view += 1;
        }
        size += 1;
    }
    table
};

/// The view masks of a board of `size` (at most 11).
#[inline(always)]
pub(crate) fn masks(size: u8) -> &'static [ViewMasks; 4] {
    &VIEW_MASKS[usize::from(size.min(MAX_BOARD_SIZE))]
}

/// The squares the `movers` reach sliding east through `passable` squares that are not
/// `occupied` (all sets in one view). Squares on the view's first file are never reached.
#[inline(always)]
pub(crate) fn reach_east(movers: u128, occupied: u128, masks: &ViewMasks) -> u128 {
    // `passable` leaves out the view's first file, as the slide needs.
    crate::bitboard::slide_east(movers, masks.passable & !occupied)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn every_view_maps_the_grid_onto_itself_one_to_one() {
        for view in View::ALL {
            let mut seen = 0u128;
            for index in 0..GRID_SQUARES as u8 {
                let bit = view.bit_index(index);
                assert!(usize::from(bit) < GRID_SQUARES);
                assert_eq!(
                    seen & (1u128 << bit),
                    0,
                    "{view:?} maps two squares to bit {bit}"
                );
                seen |= 1u128 << bit;
            }
        }
    }

    #[test]
    fn a_step_east_in_each_view_is_a_step_in_its_direction() {
        let e5 = square("e5").index();
        let expected = [
            (View::East, "f5"),
            (View::West, "d5"),
            (View::North, "e6"),
            (View::South, "e4"),
        ];
        for (view, name) in expected {
            assert_eq!(
                view.bit_index(e5) + 1,
                view.bit_index(square(name).index()),
                "{view:?}"
            );
        }
    }

    #[test]
    fn stored_views_follow_the_pieces() {
        let mut views = SideViews::default();
        views.toggle(Side::Attackers, square("a1"));
        views.slide(Side::Attackers, square("a1"), square("c1"));
        let c1 = square("c1").index();
        let expected =
            [View::West, View::North, View::South].map(|view| 1u128 << view.bit_index(c1));
        assert_eq!(views.side(Side::Attackers), &expected);
        assert_eq!(views.side(Side::Defenders), &[0; 3]);
    }

    #[test]
    fn reach_east_stops_at_pieces_and_at_the_end_of_the_rank() {
        let masks = &masks(11)[View::East as usize];
        let square = |name: &str| 1u128 << square(name).index();
        // A mover on h1 slides to k1 and not on into a2; one on a2 stops before the piece on d2.
        let movers = square("h1") | square("a2");
        let occupied = movers | square("d2");
        let reached = reach_east(movers, occupied, masks);
        let expected = square("i1") | square("j1") | square("k1") | square("b2") | square("c2");
        assert_eq!(reached, expected);
    }
}
