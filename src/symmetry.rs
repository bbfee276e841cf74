//! The eight symmetries of a square board (the dihedral group: four rotations, four
//! reflections) for squares, moves, positions, games and actions: for data augmentation in
//! learning code, and as a check of the rules (a position and its image have the same moves,
//! perft and outcome).
//!
//! A symmetry maps a position of a game onto a position of the same game only when the rules
//! look the same after it: every square with rules of its own (throne, corners, forts, camps,
//! hostile squares) must land on a square with the same rules. The classic rules (a castle in
//! the centre) and every built-in variant are symmetric under all eight; a rules string with,
//! say, one corner square is not, and [`Symmetry::check_rules`] says which square breaks it.
//!
//! ```
//! use tafl_engine::symmetry::Symmetry;
//! use tafl_engine::{Position, perft};
//! let mut position = Position::tablut();
//! position.play("e2-h2".parse()?)?;
//! let turned = Symmetry::Rotate90.map_position(&position)?;
//! assert_ne!(turned, position);
//! assert_eq!(perft::perft(&turned, 3), perft::perft(&position, 3));
//! assert_eq!(Symmetry::Rotate90.map_move(9, "e2-h2".parse()?).unwrap().to_string(), "h5-h8");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::actions::{ActionError, ActionParts, ActionSpace, Heading};
use crate::bitboard::Bitboard;
use crate::board::Narrow;
use crate::game::Game;
use crate::moves::Move;
use crate::play::Grid;
use crate::position::{DrawReason, Outcome, Position};
use crate::rules::Rules;
use crate::square::Square;

/// One of the eight symmetries of a square board. Squares are (file `x`, rank `y`) from 0, on a
/// board of size `n`; rotations turn the board as drawn, rank 1 at the bottom.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Symmetry {
    /// Leaves every square where it is.
    Identity,
    /// A quarter turn anticlockwise: (x, y) to (n-1-y, x); a1 goes to the bottom right corner.
    Rotate90,
    /// A half turn: (x, y) to (n-1-x, n-1-y).
    Rotate180,
    /// A quarter turn clockwise: (x, y) to (y, n-1-x).
    Rotate270,
    /// Files mirrored, `a` and the last file swapped: (x, y) to (n-1-x, y).
    FlipFiles,
    /// Ranks mirrored, rank 1 and the last swapped: (x, y) to (x, n-1-y).
    FlipRanks,
    /// Mirrored in the diagonal through a1: (x, y) to (y, x).
    Transpose,
    /// Mirrored in the other diagonal: (x, y) to (n-1-y, n-1-x).
    AntiTranspose,
}

/// Why a symmetry cannot map a position or a game of some rules (`B`: the board type of the
/// squares and moves it names).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SymmetryError<B: Grid = Narrow> {
    /// The rules are not the same after the symmetry: a square with rules of its own lands on a
    /// square without the same rules.
    #[error(
        "{symmetry} does not keep these rules: {square} has rules of its own that its image {image} does not share (the special squares are not symmetric)"
    )]
    RulesNotSymmetric {
        /// The symmetry.
        symmetry: Symmetry,
        /// A square whose rules differ from its image's.
        square: Square<B>,
        /// Its image.
        image: Square<B>,
    },
    /// A square is off the board (a position or move of another board size).
    #[error("{0} is not on the board")]
    OffBoard(Square<B>),
    /// The image of a move of a game could not be played in the image of the game (not reached
    /// under symmetric rules: a check, not an expected failure).
    #[error("the image {image} of move {ply} cannot be played")]
    Replay {
        /// The move's number in the game, from 1.
        ply: usize,
        /// The image of the move.
        image: Move<B>,
    },
}

/// Why a symmetry name could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("'{0}' is not a symmetry: the symmetries are {names}", names = Symmetry::NAMES.join(", "))]
pub struct SymmetryParseError(pub String);

impl Symmetry {
    /// The eight symmetries, identity first, in the order of [`Symmetry::NAMES`].
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipFiles,
        Symmetry::FlipRanks,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Their names, as [`fmt::Display`] writes them and [`FromStr`] reads them.
    pub const NAMES: [&'static str; 8] = [
        "identity",
        "rotate90",
        "rotate180",
        "rotate270",
        "flip_files",
        "flip_ranks",
        "transpose",
        "antitranspose",
    ];

    /// The symmetry's name: `rotate90`, `flip_files`, ...
    pub const fn name(self) -> &'static str {
        Symmetry::NAMES[self as usize]
    }

    /// The image of the point (`x`, `y`) on a board of size `n`, for any integers (a point off
    /// the board maps off the board): the symmetries are affine maps.
    pub const fn map_point(self, n: i32, x: i32, y: i32) -> (i32, i32) {
        let last = n - 1;
        match self {
            Symmetry::Identity => (x, y),
            Symmetry::Rotate90 => (last - y, x),
            Symmetry::Rotate180 => (last - x, last - y),
            Symmetry::Rotate270 => (y, last - x),
            Symmetry::FlipFiles => (last - x, y),
            Symmetry::FlipRanks => (x, last - y),
            Symmetry::Transpose => (y, x),
            Symmetry::AntiTranspose => (last - y, last - x),
        }
    }

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// The symmetry that maps as `self` and then `next`.
    pub fn then(self, next: Symmetry) -> Symmetry {
        // Two points not on a common line of symmetry fix a map of the group.
        let image = |s: Symmetry| [s.map_point(7, 1, 2), s.map_point(7, 0, 5)];
        let wanted = [(1, 2), (0, 5)].map(|(x, y)| {
            let (x, y) = self.map_point(7, x, y);
            next.map_point(7, x, y)
        });
        Symmetry::ALL
            .into_iter()
            .find(|&s| image(s) == wanted)
            .unwrap_or(Symmetry::Identity) // Not reached: the eight maps form a group.
    }

    /// The image of `square` on a board of size `size`, or `None` when the square is off that
    /// board.
    pub fn map_square(self, size: u8, square: Square) -> Option<Square> {
        self.map_square_on(size, square)
    }

    /// [`Symmetry::map_square`] for a square of either grid (boards up to 19x19).
    pub fn map_square_on<B: Grid>(self, size: u8, square: Square<B>) -> Option<Square<B>> {
        if !square.is_on_board(size) {
            return None;
        }
        let (x, y) = self.map_point(
            i32::from(size),
            i32::from(square.x()),
            i32::from(square.y()),
        );
        // On the board, so both are in 0..size.
        Square::<B>::at(u8::try_from(x).ok()?, u8::try_from(y).ok()?)
    }

    /// The image of a set of squares of a board of size `size` (squares off it are dropped).
    pub fn map_set<B: Grid>(self, size: u8, set: Bitboard<B>) -> Bitboard<B> {
        set.into_iter()
            .filter_map(|square| self.map_square_on(size, square))
            .collect()
    }

    /// The image of `m` on a board of size `size`, or `None` when a square of it is off that
    /// board.
    pub fn map_move(self, size: u8, m: Move) -> Option<Move> {
        self.map_move_on(size, m)
    }

    /// [`Symmetry::map_move`] for a move of either grid (boards up to 19x19).
    ///
    /// ```
    /// use tafl_engine::symmetry::Symmetry;
    /// use tafl_engine::{Move, Wide};
    /// let m: Move<Wide> = "a1-a13".parse()?;
    /// assert_eq!(Symmetry::Rotate90.map_move_on(13, m).unwrap().to_string(), "m1-a1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn map_move_on<B: Grid>(self, size: u8, m: Move<B>) -> Option<Move<B>> {
        Some(Move::new(
            self.map_square_on(size, m.from())?,
            self.map_square_on(size, m.to())?,
        ))
    }

    /// The image of `action` of `space`: the action of the image of its move (defined for every
    /// action, also those that land off the board, so that it permutes the whole space).
    pub fn map_action(self, space: ActionSpace, action: usize) -> Result<usize, ActionError> {
        let parts = space.decode(action)?;
        let n = i32::from(space.size());
        let (x, y) = self.map_point(n, i32::from(parts.x), i32::from(parts.y));
        let (dx, dy) = parts.heading.step();
        let (ahead_x, ahead_y) =
            self.map_point(n, i32::from(parts.x) + dx, i32::from(parts.y) + dy);
        let image = ActionParts {
            // The square left is on the board, so its image is too: 0..n, n <= 19.
            x: x as u8,
            y: y as u8,
            heading: Heading::of_step(ahead_x - x, ahead_y - y).unwrap_or(parts.heading),
            distance: parts.distance,
        };
        space.encode(image).ok_or(ActionError::OutOfRange {
            action,
            size: space.size(),
            num_actions: space.num_actions(),
        })
    }

    /// The permutation of `space`'s actions: entry `a` is the image of action `a`. With it a
    /// mask or a policy over actions maps as `image[permutation[a]] = original[a]`.
    pub fn action_permutation(self, space: ActionSpace) -> Vec<usize> {
        (0..space.num_actions())
            .map(|action| self.map_action(space, action).unwrap_or(action))
            .collect()
    }

    /// The permutation of the squares of a board of size `size`, by index `y * size + x`:
    /// entry `i` is the index of the image of square `i` (for planes laid out row by row).
    pub fn square_permutation(self, size: u8) -> Vec<usize> {
        let n = i32::from(size);
        (0..n * n)
            .map(|index| {
                let (x, y) = self.map_point(n, index % n, index / n);
                // An image of a square of the board is on the board.
                (y * n + x) as usize
            })
            .collect()
    }

    /// The square sets in which every square has the same rules: each must map onto itself.
    fn rule_square_sets<B: Grid>(rules: Rules<B>) -> Vec<Bitboard<B>> {
        let mut sets = vec![rules.board(), rules.throne(), rules.special_squares()];
        if let Some(set) = rules.custom() {
            sets.extend(set.squares);
            sets.push(set.camps);
            sets.extend(set.spec.camp_hostility.map(|set| set.on_grid()));
            sets.extend(set.no_pass.iter().flatten());
            sets.extend(set.no_stop.iter().flatten());
            sets.extend(set.hostile_always);
            sets.extend(set.hostile_when_empty);
            sets.extend(set.hostile_when_occupied);
            sets.push(set.king_strong_squares);
            sets.push(set.linnaean_squares);
        }
        sets.into_iter().map(|set| set & rules.board()).collect()
    }

    /// Whether the rules look the same after this symmetry (see the module's documentation); if
    /// not, a square that shows it.
    pub fn check_rules<B: Grid>(self, rules: Rules<B>) -> Result<(), SymmetryError<B>> {
        let size = rules.size();
        for set in Symmetry::rule_square_sets(rules) {
            let image = self.map_set(size, set);
            // A square of the set whose image is not in it: the images outside the set (as many
            // as the set's squares outside the image, so there is one when the sets differ).
            if let Some(outside) = (image - set).first() {
                let square = self
                    .inverse()
                    .map_square_on(size, outside)
                    .unwrap_or(outside);
                return Err(SymmetryError::RulesNotSymmetric {
                    symmetry: self,
                    square,
                    image: outside,
                });
            }
        }
        Ok(())
    }

    /// The symmetries under which `rules` look the same, identity first.
    pub fn valid_for<B: Grid>(rules: Rules<B>) -> Vec<Symmetry> {
        Symmetry::ALL
            .into_iter()
            .filter(|s| s.check_rules(rules).is_ok())
            .collect()
    }

    /// The image of `position`: every piece on the image of its square, the same side to move
    /// and rules. Refused when the rules are not symmetric under this map.
    pub fn map_position<B: Grid>(
        self,
        position: &Position<B>,
    ) -> Result<Position<B>, SymmetryError<B>> {
        let rules = position.rules();
        self.check_rules(rules)?;
        let size = rules.size();
        let mut pieces = Vec::new();
        for (square, piece) in position.pieces_with_squares() {
            let image = self
                .map_square_on(size, square)
                .ok_or(SymmetryError::OffBoard(square))?;
            pieces.push((image, piece));
        }
        // The images of distinct squares of the board are distinct squares of the board, and
        // there is still at most one king: setting up does not fail. Should it, the square
        // named is one the position's pieces could not be set on.
        Position::from_pieces(rules, position.side_to_move(), pieces).map_err(|error| {
            SymmetryError::OffBoard(match error {
                crate::position::SetupError::OffBoard { square, .. }
                | crate::position::SetupError::SquareTaken(square)
                | crate::position::SetupError::SecondKing(square) => square,
            })
        })
    }

    /// The image of `game`: its start position mapped, then the image of each of its moves
    /// played (so repetitions and the outcome are the same), and a draw agreement kept.
    pub fn map_game<B: Grid>(self, game: &Game<B>) -> Result<Game<B>, SymmetryError<B>> {
        let start = self.map_position(game.start_position())?;
        let size = start.rules().size();
        let mut image = Game::from_position(start);
        for (index, m) in game.moves().enumerate() {
            let mapped = self
                .map_move_on(size, m)
                .ok_or(SymmetryError::OffBoard(m.from()))?;
            // Legal in the image, as `m` was in the game: the rules are symmetric.
            image.play(mapped).map_err(|_| SymmetryError::Replay {
                ply: index + 1,
                image: mapped,
            })?;
        }
        if game.outcome() == Some(Outcome::Draw(DrawReason::Agreement)) {
            image.agree_draw();
        }
        Ok(image)
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Symmetry {
    type Err = SymmetryParseError;

    /// Reads a name of [`Symmetry::NAMES`] (any case).
    fn from_str(text: &str) -> Result<Symmetry, SymmetryParseError> {
        let wanted = text.trim().to_ascii_lowercase();
        Symmetry::ALL
            .into_iter()
            .find(|s| s.name() == wanted)
            .ok_or_else(|| SymmetryParseError(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::perft;
    use crate::test_support::positions_along_random_games;
    use crate::variant::Variant;
    use std::collections::BTreeSet;

    fn variants() -> Vec<Variant> {
        crate::test_support::built_in_variants()
    }

    #[test]
    fn the_eight_maps_form_a_group_on_every_board_size() {
        for n in 5..=19 {
            let points: Vec<(i32, i32)> =
                (0..n).flat_map(|y| (0..n).map(move |x| (x, y))).collect();
            let mut images = BTreeSet::new();
            for s in Symmetry::ALL {
                let mapped: Vec<(i32, i32)> =
                    points.iter().map(|&(x, y)| s.map_point(n, x, y)).collect();
                // A permutation of the board.
                assert_eq!(
                    mapped.iter().collect::<BTreeSet<_>>(),
                    points.iter().collect()
                );
                images.insert(mapped);
                for &(x, y) in &points {
                    let (mx, my) = s.map_point(n, x, y);
                    assert_eq!(s.inverse().map_point(n, mx, my), (x, y));
                    for t in Symmetry::ALL {
                        let (tx, ty) = t.map_point(n, mx, my);
                        assert_eq!(s.then(t).map_point(n, x, y), (tx, ty), "{s} then {t}");
                    }
                }
            }
            assert_eq!(images.len(), 8, "{n}: eight different maps");
        }
        for s in Symmetry::ALL {
            assert_eq!(s.to_string().parse::<Symmetry>(), Ok(s));
        }
        let error = "spin".parse::<Symmetry>().unwrap_err().to_string();
        assert!(
            error.contains("rotate90") && error.contains("'spin'"),
            "{error}"
        );
    }

    #[test]
    fn every_built_in_variant_is_symmetric_and_a_lopsided_one_is_refused_naming_a_square() {
        for variant in variants() {
            assert_eq!(
                Symmetry::valid_for(variant.rules()),
                Symmetry::ALL.to_vec(),
                "{}",
                variant.name()
            );
        }
        // One corner square only (a1), hostile and the king's alone: no map but the identity
        // and the diagonal through a1 keeps it.
        let lopsided: Variant = "dim:7 esc:c cor:a1, start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
            .parse()
            .unwrap();
        assert_eq!(
            Symmetry::valid_for(lopsided.rules()),
            vec![Symmetry::Identity, Symmetry::Transpose]
        );
        let error = Symmetry::Rotate90
            .map_position(&lopsided.start())
            .unwrap_err();
        assert_eq!(
            error,
            SymmetryError::RulesNotSymmetric {
                symmetry: Symmetry::Rotate90,
                square: "a1".parse().unwrap(),
                image: "g1".parse().unwrap(),
            }
        );
        assert!(error.to_string().contains("a1"), "{error}");
        // Corners a1 and a7: a quarter turn clockwise takes a1 to a7, a corner too, and a7 to
        // g7, which is not: the square named is a7.
        let two: Variant = "dim:7 esc:c cor:a1,a7, start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
            .parse()
            .unwrap();
        assert_eq!(
            Symmetry::Rotate270.check_rules(two.rules()),
            Err(SymmetryError::RulesNotSymmetric {
                symmetry: Symmetry::Rotate270,
                square: "a7".parse().unwrap(),
                image: "g7".parse().unwrap(),
            })
        );
    }

    /// The moves of a position as a set of texts, for comparing.
    fn moves(position: &Position) -> BTreeSet<Move> {
        position.legal_moves().iter().copied().collect()
    }

    #[test]
    fn a_mapped_position_has_the_mapped_moves_captures_outcome_and_perft() {
        let starts: Vec<Position> = variants().iter().map(Variant::start).collect();
        let positions = positions_along_random_games(&starts, 2, 50, 0x5111);
        for (i, position) in positions.iter().enumerate() {
            let size = position.rules().size();
            for s in Symmetry::ALL {
                let image = s.map_position(position).unwrap();
                assert_eq!(image.hash(), image.hash_from_scratch());
                assert_eq!(image.side_to_move(), position.side_to_move());
                let mapped: BTreeSet<Move> = moves(position)
                    .into_iter()
                    .map(|m| s.map_move(size, m).unwrap())
                    .collect();
                assert_eq!(moves(&image), mapped, "{position:?} {s}");
                assert_eq!(image.outcome(), position.outcome(), "{position:?} {s}");
                for m in position.legal_moves() {
                    let image_move = s.map_move(size, m).unwrap();
                    assert_eq!(
                        image.captures_of(image_move),
                        s.map_set(size, position.captures_of(m)),
                        "{position:?} {m} {s}"
                    );
                }
                assert_eq!(s.inverse().map_position(&image).unwrap(), *position);
                if i % 25 == 0 {
                    assert_eq!(perft(&image, 3), perft(position, 3), "{position:?} {s}");
                }
            }
        }
    }

    #[test]
    fn boards_above_eleven_squares_map_their_positions_moves_and_games() {
        use crate::board::Wide;
        let variant = Variant::<Wide>::hnefatafl_org_copenhagen_13();
        assert_eq!(Symmetry::valid_for(variant.rules()).len(), 8);
        let mut game = Game::new(&variant);
        for ply in 0..30 {
            let moves = game.legal_moves();
            let Some(&m) = moves.get((ply * 11 + 5) % moves.len().max(1)) else {
                break;
            };
            game.play(m).unwrap();
        }
        for s in Symmetry::ALL {
            let image = s.map_game(&game).unwrap();
            let position = game.position();
            assert_eq!(image.position(), &s.map_position(position).unwrap());
            let mapped: BTreeSet<String> = game
                .legal_moves()
                .iter()
                .map(|&m| s.map_move_on(13, m).unwrap().to_string())
                .collect();
            let listed: BTreeSet<String> =
                image.legal_moves().iter().map(|m| m.to_string()).collect();
            assert_eq!(listed, mapped, "{s}");
            assert_eq!(s.inverse().map_game(&image).unwrap(), game);
        }
        // A board whose special squares are lopsided: the square is named on the wide grid.
        let lopsided: Variant<Wide> =
            "dim:13 cor:a1 start:/13/13/13/13/13/13/6K6/13/13/13/13/13/13/"
                .parse()
                .unwrap();
        assert!(Symmetry::Rotate90.check_rules(lopsided.rules()).is_err());
    }

    #[test]
    fn a_symmetric_position_has_legal_actions_that_map_onto_each_other() {
        for variant in variants() {
            let game = Game::new(&variant);
            let space = ActionSpace::of(variant.rules());
            let legal: BTreeSet<usize> = space.legal_actions(&game).unwrap().into_iter().collect();
            for s in Symmetry::ALL {
                let image = s.map_position(&variant.start()).unwrap();
                // The start positions of the built-in games are symmetric under all eight.
                assert_eq!(image, variant.start(), "{} {s}", variant.name());
                let mapped: BTreeSet<usize> = legal
                    .iter()
                    .map(|&a| s.map_action(space, a).unwrap())
                    .collect();
                assert_eq!(mapped, legal, "{} {s}", variant.name());
            }
        }
    }

    #[test]
    fn action_images_are_the_actions_of_move_images_and_permute_the_space() {
        for size in [5u8, 7, 9, 11, 13, 19] {
            let space = ActionSpace::new(size).unwrap();
            for s in Symmetry::ALL {
                let permutation = s.action_permutation(space);
                let mut seen = vec![false; space.num_actions()];
                for (action, &image) in permutation.iter().enumerate() {
                    assert!(!seen[image], "{size} {s}: {image} twice");
                    seen[image] = true;
                    assert_eq!(
                        s.inverse().map_action(space, image),
                        Ok(action),
                        "{size} {s}"
                    );
                    // Moves exist on the boards the crate plays (up to 11x11).
                    let playable = size <= crate::square::MAX_BOARD_SIZE;
                    if let Some(m) = space.action_to_move(action).ok().filter(|_| playable) {
                        let image_move = s.map_move(size, m).unwrap();
                        assert_eq!(space.move_to_action(image_move), Ok(image));
                    }
                }
                let squares = s.square_permutation(size);
                let n = usize::from(size);
                assert_eq!(squares.iter().collect::<BTreeSet<_>>().len(), n * n);
            }
        }
    }

    #[test]
    fn a_mapped_game_keeps_its_history_and_outcome() {
        let mut game = Game::new(&Variant::tablut());
        for text in ["e2-h2", "e3-h3", "h2-e2", "h3-e3"] {
            game.play(text.parse().unwrap()).unwrap();
        }
        for s in Symmetry::ALL {
            let image = s.map_game(&game).unwrap();
            assert_eq!(image.outcome(), game.outcome());
            assert_eq!(image.moves().len(), 4);
            assert_eq!(s.inverse().map_game(&image).unwrap(), game);
        }
    }
}
