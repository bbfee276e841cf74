//! Moves as numbers, for learning code: a fixed action index per board size, legal-move masks
//! (one game or a batch) written into a caller's buffer.
//!
//! On an `n` x `n` board every move is a piece leaving a square along one of four directions
//! for a distance of 1 to `n - 1` squares, so the actions of a board size are
//!
//! ```text
//! action = (from * 4 + direction) * (n - 1) + (distance - 1)
//! from   = y * n + x          (x = file from 0 = a, y = rank from 0 = rank 1: the board's own n)
//! direction: 0 north (towards higher ranks), 1 east (higher files), 2 south, 3 west
//! num_actions = n * n * 4 * (n - 1)      (5x5: 400, 7x7: 1 176, 9x9: 2 592, 11x11: 4 840)
//! ```
//!
//! Every legal move of every position on that board has exactly one action; most actions are
//! never legal (they leave the board, or no piece can make them in any position), which a mask
//! says. The numbering does not depend on the rules, only on the size, and is written for any
//! size from 5 to 19 ([`MAX_ACTION_BOARD_SIZE`]), so that it stays the same when larger boards
//! come: the square index in an action is `y * n + x` for the board's own `n`, not a
//! [`Square`]'s index on the crate's 11-wide grid.
//!
//! ```
//! use tafl_engine::actions::ActionSpace;
//! use tafl_engine::{Game, Variant};
//! let game = Game::new(&Variant::tablut());
//! let space = ActionSpace::of(game.position().rules());
//! assert_eq!(space.num_actions(), 2592);
//! let mut mask = vec![false; space.num_actions()];
//! assert_eq!(space.legal_mask_into(&game, &mut mask)?, 80);
//! let action = space.move_to_action("e2-h2".parse()?)?;
//! assert!(mask[action]);
//! assert_eq!(space.action_to_move(action)?.to_string(), "e2-h2");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Borrow;

use thiserror::Error;

use crate::board::Narrow;
use crate::game::Game;
use crate::moves::Move;
use crate::play::Grid;
use crate::rules::Rules;
use crate::square::Square;

/// The smallest board an [`ActionSpace`] numbers.
pub const MIN_ACTION_BOARD_SIZE: u8 = 5;

/// The largest board an [`ActionSpace`] numbers (19x19: boards above 11x11 are played on the
/// wide grid, [`Wide`](crate::Wide)); the numbering of a size never changes.
pub const MAX_ACTION_BOARD_SIZE: u8 = 19;

/// The four directions of a move, in the order of the action index.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Heading {
    /// Towards higher ranks (`e2-e5`).
    North = 0,
    /// Towards higher files (`b2-e2`).
    East = 1,
    /// Towards lower ranks.
    South = 2,
    /// Towards lower files.
    West = 3,
}

impl Heading {
    /// The four headings in index order.
    pub const ALL: [Heading; 4] = [Heading::North, Heading::East, Heading::South, Heading::West];

    /// One step this way, as (files, ranks).
    pub const fn step(self) -> (i32, i32) {
        match self {
            Heading::North => (0, 1),
            Heading::East => (1, 0),
            Heading::South => (0, -1),
            Heading::West => (-1, 0),
        }
    }

    /// The heading of a move by (`dx` files, `dy` ranks): `None` unless exactly one of them is
    /// zero.
    pub const fn of_step(dx: i32, dy: i32) -> Option<Heading> {
        match (dx.signum(), dy.signum()) {
            (0, 1) => Some(Heading::North),
            (1, 0) => Some(Heading::East),
            (0, -1) => Some(Heading::South),
            (-1, 0) => Some(Heading::West),
            _ => None,
        }
    }
}

/// An action taken apart: the square a piece leaves (file `x`, rank `y`, from 0), the heading
/// and the distance (1 to `n - 1`). The landing square may be off the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ActionParts {
    /// File of the square left, from 0 (`a`).
    pub x: u8,
    /// Rank of the square left, from 0 (rank 1).
    pub y: u8,
    /// Which way the piece goes.
    pub heading: Heading,
    /// How many squares it goes, from 1.
    pub distance: u8,
}

impl ActionParts {
    /// The landing square's file and rank, which may be off the board (negative, or `n` or
    /// more).
    pub const fn landing(self) -> (i32, i32) {
        let (dx, dy) = self.heading.step();
        (
            self.x as i32 + dx * self.distance as i32,
            self.y as i32 + dy * self.distance as i32,
        )
    }
}

/// Why an action, a move or a buffer does not fit an [`ActionSpace`]. Nothing was written.
/// `B` is the board type of the moves and squares it names ([`Narrow`] by default).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ActionError<B: Grid = Narrow> {
    /// The board size is outside 5 to 19.
    #[error("no action space for a {0}x{0} board: sizes go from 5 to 19")]
    UnsupportedSize(u8),
    /// The action number is too large.
    #[error("action {action} is out of range: a {size}x{size} board has actions 0 to {last}", last = .num_actions - 1)]
    OutOfRange {
        /// The action.
        action: usize,
        /// The board's size.
        size: u8,
        /// How many actions the board has.
        num_actions: usize,
    },
    /// The action's move leaves the board (no position has it as a legal move).
    #[error("action {action} ({x}, {y} {heading:?} {distance}) lands off the {size}x{size} board")]
    LandsOffBoard {
        /// The action.
        action: usize,
        /// File of the square left.
        x: u8,
        /// Rank of the square left.
        y: u8,
        /// Its heading.
        heading: Heading,
        /// Its distance.
        distance: u8,
        /// The board's size.
        size: u8,
    },
    /// The action's squares exist on the board but not on the grid asked for (an action of a
    /// board above 11x11 read as a move of the narrow grid: [`ActionSpace::action_to_move_on`]
    /// with [`Wide`](crate::Wide) reads it).
    #[error("action {0} is on a board larger than this grid holds (boards above 11x11 are Wide)")]
    NotPlayable(usize),
    /// The move does not go along a rank or a file, or goes nowhere.
    #[error("{0} is not a move along a rank or a file")]
    NotStraight(Move<B>),
    /// A square of the move is off this board.
    #[error("{square} of {m} is not on a {size}x{size} board")]
    MoveOffBoard {
        /// The move.
        m: Move<B>,
        /// The square off the board.
        square: Square<B>,
        /// The board's size.
        size: u8,
    },
    /// A game is on a board of another size than the action space's.
    #[error("the game is on a {found}x{found} board, the action space is for {size}x{size}")]
    WrongBoard {
        /// The game's board size.
        found: u8,
        /// The action space's size.
        size: u8,
    },
    /// A mask buffer has the wrong length.
    #[error("the mask buffer holds {found} values, {expected} are needed")]
    BufferLength {
        /// Values needed.
        expected: usize,
        /// Values the buffer holds.
        found: usize,
    },
}

/// The actions of one board size: the numbering of the module's documentation, with masks.
/// `Copy` and one byte.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ActionSpace {
    size: u8,
}

impl ActionSpace {
    /// The action space of an `size` x `size` board, 5 to 19 (any size, odd or even: the
    /// numbering does not need a centre).
    pub const fn new(size: u8) -> Result<ActionSpace, ActionError> {
        if size < MIN_ACTION_BOARD_SIZE || size > MAX_ACTION_BOARD_SIZE {
            return Err(ActionError::UnsupportedSize(size));
        }
        Ok(ActionSpace { size })
    }

    /// The action space of the board `rules` are played on (either grid).
    pub const fn of<B: Grid>(rules: Rules<B>) -> ActionSpace {
        // Every size the rules allow (5 to 19) has an action space.
        ActionSpace { size: rules.size() }
    }

    /// The board's width and height.
    pub const fn size(self) -> u8 {
        self.size
    }

    /// How many actions there are: `n * n * 4 * (n - 1)`.
    pub const fn num_actions(self) -> usize {
        let n = self.size as usize;
        n * n * 4 * (n - 1)
    }

    /// The action of leaving square (`x`, `y`) with `heading` for `distance` squares, whether or
    /// not it lands on the board; `None` when (`x`, `y`) is off the board or the distance is not
    /// 1 to `n - 1`.
    pub const fn encode(self, parts: ActionParts) -> Option<usize> {
        let n = self.size as usize;
        if parts.x >= self.size
            || parts.y >= self.size
            || parts.distance == 0
            || parts.distance >= self.size
        {
            return None;
        }
        let from = parts.y as usize * n + parts.x as usize;
        Some((from * 4 + parts.heading as usize) * (n - 1) + (parts.distance as usize - 1))
    }

    /// The parts of `action`: the inverse of [`ActionSpace::encode`].
    pub const fn decode(self, action: usize) -> Result<ActionParts, ActionError> {
        let num_actions = self.num_actions();
        if action >= num_actions {
            return Err(ActionError::OutOfRange {
                action,
                size: self.size,
                num_actions,
            });
        }
        let n = self.size as usize;
        let distance = action % (n - 1) + 1;
        let rest = action / (n - 1);
        let heading = Heading::ALL[rest % 4];
        let from = rest / 4;
        // All three are below n <= 19, so they fit a u8.
        Ok(ActionParts {
            x: (from % n) as u8,
            y: (from / n) as u8,
            heading,
            distance: distance as u8,
        })
    }

    /// The move of `action`. Raises [`ActionError::OutOfRange`] for a number past the last
    /// action and [`ActionError::LandsOffBoard`] for an action no position has as a legal move;
    /// [`ActionError::NotPlayable`] for an action of a board above 11x11
    /// ([`ActionSpace::action_to_move_on`] reads those).
    pub fn action_to_move(self, action: usize) -> Result<Move, ActionError> {
        self.action_to_move_on::<Narrow>(action)
    }

    /// The move of `action` on the grid `B`: [`ActionSpace::action_to_move`] for any board type
    /// (with [`Wide`](crate::Wide), the actions of boards up to 19x19).
    ///
    /// ```
    /// use tafl_engine::actions::ActionSpace;
    /// use tafl_engine::{Move, Wide};
    /// let space = ActionSpace::new(19)?;
    /// let m: Move<Wide> = "s1-s19".parse()?;
    /// let action = space.move_to_action_on(m)?;
    /// assert_eq!(space.action_to_move_on::<Wide>(action)?, m);
    /// assert!(space.action_to_move(action).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn action_to_move_on<B: Grid>(self, action: usize) -> Result<Move<B>, ActionError<B>> {
        // `decode`'s one error: the number is past the last action.
        let parts = self.decode(action).map_err(|_| ActionError::OutOfRange {
            action,
            size: self.size,
            num_actions: self.num_actions(),
        })?;
        let (to_x, to_y) = parts.landing();
        let size = i32::from(self.size);
        if !(0..size).contains(&to_x) || !(0..size).contains(&to_y) {
            return Err(ActionError::LandsOffBoard {
                action,
                x: parts.x,
                y: parts.y,
                heading: parts.heading,
                distance: parts.distance,
                size: self.size,
            });
        }
        // On the board, so both coordinates are below 19 and fit a u8.
        let from = Square::<B>::at(parts.x, parts.y);
        let to = Square::<B>::at(to_x as u8, to_y as u8);
        match (from, to) {
            (Some(from), Some(to)) => Ok(Move::new(from, to)),
            _ => Err(ActionError::NotPlayable(action)),
        }
    }

    /// The action of `m`. Raises [`ActionError::NotStraight`] for a move that is not along a
    /// rank or a file and [`ActionError::MoveOffBoard`] for one with a square off this board.
    pub fn move_to_action(self, m: Move) -> Result<usize, ActionError> {
        self.move_to_action_on(m)
    }

    /// The action of `m`, a move of either grid: [`ActionSpace::move_to_action`] for any board
    /// type (with [`Wide`](crate::Wide), the moves of boards up to 19x19).
    pub fn move_to_action_on<B: Grid>(self, m: Move<B>) -> Result<usize, ActionError<B>> {
        for square in [m.from(), m.to()] {
            if square.x() >= self.size || square.y() >= self.size {
                return Err(ActionError::MoveOffBoard {
                    m,
                    square,
                    size: self.size,
                });
            }
        }
        let (from, to) = (m.from(), m.to());
        let dx = i32::from(to.x()) - i32::from(from.x());
        let dy = i32::from(to.y()) - i32::from(from.y());
        // `of_step` takes only the four unit steps: a diagonal or a null move has none.
        let Some(heading) = Heading::of_step(dx, dy) else {
            return Err(ActionError::NotStraight(m));
        };
        let parts = ActionParts {
            x: from.x(),
            y: from.y(),
            heading,
            // A straight move on a board of at most 19 goes at most 18 squares.
            distance: (dx.abs() + dy.abs()) as u8,
        };
        self.encode(parts).ok_or(ActionError::NotStraight(m))
    }

    /// Checks that a buffer holds `expected` values.
    fn check_length<B: Grid>(expected: usize, found: usize) -> Result<(), ActionError<B>> {
        if expected == found {
            Ok(())
        } else {
            Err(ActionError::BufferLength { expected, found })
        }
    }

    /// Writes the mask of `moves` into `out` (`num_actions` values): `true` (or 1) at each
    /// move's action, `false` (0) elsewhere. Any type made from a `bool` will do: `bool`, `u8`,
    /// `f32`. On an error (a move off the board, a buffer of the wrong length) `out` is left as
    /// it was.
    pub fn mask_into<B: Grid, T: From<bool> + Copy>(
        self,
        moves: &[Move<B>],
        out: &mut [T],
    ) -> Result<(), ActionError<B>> {
        Self::check_length(self.num_actions(), out.len())?;
        let actions = moves
            .iter()
            .map(|&m| self.move_to_action_on(m))
            .collect::<Result<Vec<_>, _>>()?;
        out.fill(T::from(false));
        for action in actions {
            out[action] = T::from(true); // An action is below num_actions = out.len().
        }
        Ok(())
    }

    /// Writes the legal-move mask of `game` into `out` (see [`ActionSpace::mask_into`]); none
    /// is legal once the game is over (repetitions included). Returns how many moves are legal.
    pub fn legal_mask_into<B: Grid, T: From<bool> + Copy>(
        self,
        game: &Game<B>,
        out: &mut [T],
    ) -> Result<usize, ActionError<B>> {
        self.check_board(game)?;
        let moves = game.legal_moves();
        self.mask_into(&moves, out)?;
        Ok(moves.len())
    }

    /// The legal-move masks of `games`, one after the other, into `out` (`games.len() *
    /// num_actions` values): row `i` is game `i`'s mask. Checked whole before anything is
    /// written.
    pub fn legal_masks_into<B: Grid, G: Borrow<Game<B>>, T: From<bool> + Copy>(
        self,
        games: &[G],
        out: &mut [T],
    ) -> Result<(), ActionError<B>> {
        Self::check_length(games.len() * self.num_actions(), out.len())?;
        for game in games {
            self.check_board(game.borrow())?;
        }
        for (game, row) in games.iter().zip(out.chunks_exact_mut(self.num_actions())) {
            self.legal_mask_into(game.borrow(), row)?;
        }
        Ok(())
    }

    /// The actions of `game`'s legal moves, in increasing order (none once the game is over).
    pub fn legal_actions<B: Grid>(self, game: &Game<B>) -> Result<Vec<usize>, ActionError<B>> {
        self.check_board(game)?;
        let mut actions = game
            .legal_moves()
            .iter()
            .map(|&m| self.move_to_action_on(m))
            .collect::<Result<Vec<_>, _>>()?;
        actions.sort_unstable();
        Ok(actions)
    }

    fn check_board<B: Grid>(self, game: &Game<B>) -> Result<(), ActionError<B>> {
        let found = game.position().rules().size();
        if found == self.size {
            Ok(())
        } else {
            Err(ActionError::WrongBoard {
                found,
                size: self.size,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{built_in_variants, positions_along_random_games};
    use crate::variant::Variant;

    #[test]
    fn every_size_numbers_each_square_heading_and_distance_once() {
        for size in MIN_ACTION_BOARD_SIZE..=MAX_ACTION_BOARD_SIZE {
            let space = ActionSpace::new(size).unwrap();
            let n = usize::from(size);
            assert_eq!(space.num_actions(), n * n * 4 * (n - 1));
            let mut seen = vec![false; space.num_actions()];
            for y in 0..size {
                for x in 0..size {
                    for heading in Heading::ALL {
                        for distance in 1..size {
                            let parts = ActionParts {
                                x,
                                y,
                                heading,
                                distance,
                            };
                            let action = space.encode(parts).unwrap();
                            assert!(!seen[action], "{size}: {parts:?} twice");
                            seen[action] = true;
                            assert_eq!(space.decode(action), Ok(parts));
                            // The index's square is y * n + x on this board, whatever n is.
                            assert_eq!(action / (4 * (n - 1)), usize::from(y) * n + usize::from(x));
                        }
                    }
                }
            }
            assert!(seen.iter().all(|&s| s), "{size}");
            assert!(matches!(
                space.decode(space.num_actions()),
                Err(ActionError::OutOfRange { .. })
            ));
            for bad in [
                ActionParts {
                    x: size,
                    y: 0,
                    heading: Heading::North,
                    distance: 1,
                },
                ActionParts {
                    x: 0,
                    y: 0,
                    heading: Heading::North,
                    distance: 0,
                },
                ActionParts {
                    x: 0,
                    y: 0,
                    heading: Heading::North,
                    distance: size,
                },
            ] {
                assert_eq!(space.encode(bad), None);
            }
        }
        for size in [0, 4, 20, 255] {
            assert_eq!(
                ActionSpace::new(size),
                Err(ActionError::UnsupportedSize(size))
            );
        }
    }

    #[test]
    fn moves_and_actions_are_inverse_on_every_playable_board() {
        for size in [5u8, 7, 9, 11] {
            let space = ActionSpace::new(size).unwrap();
            let mut on_board = 0;
            for action in 0..space.num_actions() {
                match space.action_to_move(action) {
                    Ok(m) => {
                        on_board += 1;
                        assert_eq!(space.move_to_action(m), Ok(action));
                        assert!(m.from().is_on_board(size) && m.to().is_on_board(size));
                    }
                    Err(ActionError::LandsOffBoard { .. }) => {}
                    Err(other) => panic!("{size}: {action}: {other}"),
                }
            }
            // From each square, a piece reaches the n - 1 other squares of its rank and file.
            let n = usize::from(size);
            assert_eq!(on_board, n * n * 2 * (n - 1));
        }
    }

    #[test]
    fn bad_moves_are_refused_naming_why() {
        let space = ActionSpace::new(9).unwrap();
        let diagonal: Move = "a1-b2".parse().unwrap();
        assert_eq!(
            space.move_to_action(diagonal),
            Err(ActionError::NotStraight(diagonal))
        );
        let nowhere: Move = "a1-a1".parse().unwrap();
        assert_eq!(
            space.move_to_action(nowhere),
            Err(ActionError::NotStraight(nowhere))
        );
        let off: Move = "a1-j1".parse().unwrap();
        let message = space.move_to_action(off).unwrap_err().to_string();
        assert!(
            message.contains("j1") && message.contains("9x9"),
            "{message}"
        );
        let message = space.action_to_move(2592).unwrap_err().to_string();
        assert!(message.contains("0 to 2591"), "{message}");
        // a1 west 1: off the board.
        assert!(matches!(
            space.action_to_move(3 * 8),
            Err(ActionError::LandsOffBoard { .. })
        ));
        // On a 19x19 board a move to file l is not a move of the narrow grid, but is of the wide.
        let wide = ActionSpace::new(19).unwrap();
        let to_l1 = wide
            .encode(ActionParts {
                x: 0,
                y: 0,
                heading: Heading::East,
                distance: 11,
            })
            .unwrap();
        assert_eq!(
            wide.action_to_move(to_l1),
            Err(ActionError::NotPlayable(to_l1))
        );
        assert_eq!(wide.move_to_action("a1-k1".parse().unwrap()), Ok(to_l1 - 1));
        let a1_l1: Move<crate::Wide> = "a1-l1".parse().unwrap();
        assert_eq!(wide.action_to_move_on(to_l1), Ok(a1_l1));
        assert_eq!(wide.move_to_action_on(a1_l1), Ok(to_l1));
    }

    #[test]
    fn every_legal_move_of_boards_above_eleven_squares_has_its_action() {
        use crate::board::Wide;
        let starts: Vec<crate::Position<Wide>> = [
            Variant::<Wide>::hnefatafl_org_copenhagen_13(),
            "dim:19 atkf:y start:/19/19/19/19/19/19/19/19/19/9K9/19/19/19/19/19/19/19/t18/18T/"
                .parse()
                .unwrap(),
        ]
        .iter()
        .map(Variant::start)
        .collect();
        for position in positions_along_random_games(&starts, 2, 40, 0x1313) {
            let space = ActionSpace::of(position.rules());
            let game = Game::from_position(position);
            let mut mask = vec![false; space.num_actions()];
            let count = space.legal_mask_into(&game, &mut mask).unwrap();
            let actions = space.legal_actions(&game).unwrap();
            let moves = game.legal_moves();
            assert_eq!((count, actions.len()), (moves.len(), count));
            for (action, &marked) in mask.iter().enumerate() {
                let legal = space
                    .action_to_move_on::<Wide>(action)
                    .is_ok_and(|m| moves.contains(&m));
                assert_eq!(marked, legal, "action {action}");
            }
        }
    }

    #[test]
    fn masks_hold_exactly_the_legal_moves_along_random_games() {
        let variants = built_in_variants();
        for variant in &variants {
            let space = ActionSpace::of(variant.rules());
            let mut mask = vec![0u8; space.num_actions()];
            let mut game = Game::new(variant);
            for ply in 0..60 {
                let count = space.legal_mask_into(&game, &mut mask).unwrap();
                let legal = game.legal_moves();
                assert_eq!(count, legal.len());
                assert_eq!(mask.iter().filter(|&&b| b == 1).count(), legal.len());
                let actions = space.legal_actions(&game).unwrap();
                assert_eq!(actions.len(), legal.len());
                for &action in &actions {
                    assert_eq!(mask[action], 1);
                    let m = space.action_to_move(action).unwrap();
                    assert!(legal.contains(&m), "{}: {m}", variant.name());
                }
                let Some(&m) = legal.get((ply * 7 + 3) % legal.len().max(1)) else {
                    break;
                };
                game.play(m).unwrap();
            }
        }
        // And on the positions of the oracle tests' random games.
        let starts: Vec<_> = variants.iter().map(Variant::start).collect();
        for position in positions_along_random_games(&starts, 2, 40, 0x5eed) {
            let space = ActionSpace::of(position.rules());
            let game = Game::from_position(position);
            let mut mask = vec![false; space.num_actions()];
            space.legal_mask_into(&game, &mut mask).unwrap();
            for (action, &marked) in mask.iter().enumerate() {
                let legal = space
                    .action_to_move(action)
                    .is_ok_and(|m| game.outcome().is_none() && position.is_legal(m));
                assert_eq!(marked, legal, "{position:?} {action}");
            }
        }
    }

    #[test]
    fn batched_masks_are_the_single_masks_in_order_and_bad_buffers_change_nothing() {
        let mut second = Game::new(&Variant::tablut());
        second.play("e2-h2".parse().unwrap()).unwrap();
        let games = [Game::new(&Variant::tablut()), second];
        let space = ActionSpace::new(9).unwrap();
        let mut batch = vec![0.0f32; 2 * space.num_actions()];
        space.legal_masks_into(&games, &mut batch).unwrap();
        for (game, row) in games.iter().zip(batch.chunks(space.num_actions())) {
            let mut single = vec![0.0f32; space.num_actions()];
            space.legal_mask_into(game, &mut single).unwrap();
            assert_eq!(row, &single[..]);
        }
        let mut short = vec![7u8; space.num_actions()];
        assert_eq!(
            space.legal_masks_into(&games, &mut short),
            Err(ActionError::BufferLength {
                expected: 2 * space.num_actions(),
                found: space.num_actions()
            })
        );
        assert!(short.iter().all(|&b| b == 7));
        let mut wrong = vec![7u8; 2 * space.num_actions()];
        let mixed = [&games[0], &Game::new(&Variant::tawlbwrdd())];
        assert_eq!(
            space.legal_masks_into(&mixed, &mut wrong),
            Err(ActionError::WrongBoard { found: 11, size: 9 })
        );
        assert!(wrong.iter().all(|&b| b == 7));
    }
}
