//! proptest strategies: random legal games and random placements, printed as diagrams so that a
//! shrunk counterexample can be read.
#![allow(dead_code)]

use std::fmt;

use proptest::prelude::*;
use proptest::sample::Index;
use tafl_engine::{Move, Piece, Position, Rules, Side, Square};

use super::diagram::show;
use super::fixtures::perft_fixtures;

/// Positions random games start from: both start positions and every perft fixture.
pub fn start_positions() -> Vec<Position> {
    let mut starts = vec![Position::tablut(), Position::tawlbwrdd()];
    starts.extend(perft_fixtures().iter().map(|fixture| fixture.position()));
    starts
}

/// A random legal game: `positions[i]` is the position before `moves[i]`; the last position
/// follows the last move. It stops early when the side to move has no legal move.
#[derive(Clone)]
pub struct RandomGame {
    pub positions: Vec<Position>,
    pub moves: Vec<Move>,
}

/// The legal moves in a fixed order (sorted), so that seeded games stay the same games whatever
/// order the generator lists moves in.
fn sorted_moves(position: &Position) -> tafl_engine::MoveList {
    let mut moves = position.legal_moves();
    moves.sort();
    moves
}

impl RandomGame {
    /// Plays from `start`, picking each move by index among the legal moves.
    pub fn play(start: Position, picks: &[Index]) -> RandomGame {
        let mut positions = vec![start];
        let mut moves = Vec::new();
        let mut position = start;
        for pick in picks {
            let legal = sorted_moves(&position);
            if legal.is_empty() {
                break;
            }
            let m = legal[pick.index(legal.len())];
            position.play_unchecked(m);
            moves.push(m);
            positions.push(position);
        }
        RandomGame { positions, moves }
    }

    /// Like [`RandomGame::play`], but where a pick says so and some legal move captures or wins,
    /// the move is picked among those: random play seldom finds captures and wins by itself.
    pub fn play_sharp(start: Position, picks: &[(Index, bool)]) -> RandomGame {
        let mut positions = vec![start];
        let mut moves = Vec::new();
        let mut position = start;
        for &(pick, sharp) in picks {
            let legal = sorted_moves(&position);
            if legal.is_empty() {
                break;
            }
            let sharp_moves: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| {
                    let mut after = position;
                    after.play_unchecked(m).any() || after.winner().is_some()
                })
                .collect();
            let m = if sharp && !sharp_moves.is_empty() {
                sharp_moves[pick.index(sharp_moves.len())]
            } else {
                legal[pick.index(legal.len())]
            };
            position.play_unchecked(m);
            moves.push(m);
            positions.push(position);
        }
        RandomGame { positions, moves }
    }

    /// Each position before a move, with that move.
    pub fn plies(&self) -> impl Iterator<Item = (&Position, Move)> {
        self.positions.iter().zip(self.moves.iter().copied())
    }
}

impl fmt::Debug for RandomGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "RandomGame from")?;
        write!(f, "{}", show(&self.positions[0]))?;
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        writeln!(f, "moves: {}", moves.join(" "))?;
        write!(
            f,
            "ending in\n{}",
            show(&self.positions[self.positions.len() - 1])
        )
    }
}

/// Random legal games of up to `max_plies` plies from the positions of [`start_positions`].
pub fn random_game(max_plies: usize) -> impl Strategy<Value = RandomGame> {
    random_game_from(start_positions(), max_plies)
}

/// Random legal games of up to `max_plies` plies from one of `starts`.
pub fn random_game_from(
    starts: Vec<Position>,
    max_plies: usize,
) -> impl Strategy<Value = RandomGame> {
    (
        0..starts.len(),
        proptest::collection::vec(any::<Index>(), 0..=max_plies),
    )
        .prop_map(move |(start, picks)| RandomGame::play(starts[start], &picks))
}

/// Random legal games of up to `max_plies` plies from one of `starts` that pick captures and
/// wins when they can, on about a third of the plies.
pub fn sharp_game_from(
    starts: Vec<Position>,
    max_plies: usize,
) -> impl Strategy<Value = RandomGame> {
    (
        0..starts.len(),
        proptest::collection::vec(
            (any::<Index>(), proptest::bool::weighted(0.35)),
            0..=max_plies,
        ),
    )
        .prop_map(move |(start, picks)| RandomGame::play_sharp(starts[start], &picks))
}

/// A position that prints as a diagram in failure messages.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Board(pub Position);

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "\n{}record {}",
            show(&self.0),
            tafl_engine::notation::position_record(&self.0)
        )
    }
}

/// The rules of docs/rules.md on any odd board size from 5 to 11 (one definition, in `diagram`).
pub use super::diagram::rules_for_size as standard_rules;

/// Where the king goes in a random placement.
#[derive(Clone, Copy, Debug)]
enum KingPlace {
    None,
    Castle,
    /// Off the edge, so the game is not already won (index into the inner squares).
    Inner(Index),
    /// Anywhere, the edge included (index into all squares).
    Anywhere(Index),
}

fn king_place() -> impl Strategy<Value = KingPlace> {
    prop_oneof![
        1 => Just(KingPlace::None),
        2 => Just(KingPlace::Castle),
        8 => any::<Index>().prop_map(KingPlace::Inner),
        1 => any::<Index>().prop_map(KingPlace::Anywhere),
    ]
}

/// Builds a placement: each square but the castle holds an attacker with probability
/// `attackers`%, else a defender with probability `defenders`%, from its roll in `0..100`
/// (a roll of 0 is always empty, so shrinking empties the board). Under a `siege`, a square
/// next to the king with a roll of 35 or more holds an attacker, so that king captures (R13),
/// rare on a random board, are tried often. No soldier stands on the castle: the rules never
/// put one there.
fn placement(
    rules: Rules,
    side: Side,
    (attackers, defenders): (u8, u8),
    rolls: &[u8],
    king: KingPlace,
    siege: bool,
) -> Position {
    let size = rules.size();
    let castle = rules.castle();
    let king_square = match king {
        KingPlace::None => None,
        KingPlace::Castle => Some(castle),
        KingPlace::Inner(index) => {
            let inner = size - 2;
            let i = index.index(usize::from(inner) * usize::from(inner)) as u8;
            Square::new(1 + i % inner, 1 + i / inner)
        }
        KingPlace::Anywhere(index) => {
            let i = index.index(usize::from(size) * usize::from(size)) as u8;
            Square::new(i % size, i / size)
        }
    };
    let mut pieces = Vec::new();
    for y in 0..size {
        for x in 0..size {
            let square = Square::new(x, y).expect("on the 11x11 grid");
            if Some(square) == king_square {
                pieces.push((square, Piece::King));
                continue;
            }
            if square == castle {
                continue;
            }
            let roll = rolls[usize::from(y) * usize::from(size) + usize::from(x)];
            let next_to_king =
                king_square.is_some_and(|king| king.x().abs_diff(x) + king.y().abs_diff(y) == 1);
            let besieging = siege && next_to_king && roll >= 35;
            if besieging || roll >= 100 - attackers {
                pieces.push((square, Piece::Attacker));
            } else if roll >= 100 - attackers - defenders {
                pieces.push((square, Piece::Defender));
            }
        }
    }
    Position::from_pieces(rules, side, pieces).expect("one piece per square, at most one king")
}

/// Random placements of attackers, defenders and at most one king on a board of one of `sizes`,
/// with a random density and side to move.
pub fn random_position(sizes: &'static [u8]) -> impl Strategy<Value = Board> {
    proptest::sample::select(sizes).prop_flat_map(|size| {
        let squares = usize::from(size) * usize::from(size);
        (
            Just(size),
            any::<bool>(),
            (0u8..=45, 0u8..=30),
            proptest::collection::vec(0u8..100, squares),
            king_place(),
            proptest::bool::weighted(0.3),
        )
            .prop_map(|(size, attackers_move, density, rolls, king, siege)| {
                let side = if attackers_move {
                    Side::Attackers
                } else {
                    Side::Defenders
                };
                let rules = standard_rules(size);
                Board(placement(rules, side, density, &rolls, king, siege))
            })
    })
}
