//! Boards above 11x11 (docs/wide-boards.md) against the variant reference
//! (tests/common/reference_variants.rs, an array board that reads OpenTafl's rules as OpenTafl's
//! code does), move by move along seeded random games from every block of
//! tests/data/opentafl-wide.txt (13x13, 15x15, 19x19): the set of legal moves, and for every
//! legal move the squares it captures, the placement and side to move after it and how the
//! position after it stands (won by whom, or going on).
//!
//! The library is used through `Variant<Wide>: FromStr` and `Position<Wide>`'s `legal_moves`,
//! `play`, `outcome`, `pieces_with_squares` and `side_to_move`. Repetition is a game's matter,
//! not a position's: the games are short enough that the reference, which sees each position as
//! the only one of its game, and the position agree.

use crate::common;

use std::collections::BTreeSet;

use common::cells::cells_of;
use common::reference_variants::{VariantBoard, VariantOutcome, Xy};
use common::variant_fixtures::wide_fixtures;
use tafl_engine::{Position, Side, Square, Variant, Wide};

fn xy(square: Square<Wide>) -> Xy {
    (usize::from(square.x()), usize::from(square.y()))
}

/// The position's end as the reference says it: a winner, or none.
fn library_end(position: &Position<Wide>) -> Option<Option<Side>> {
    position.outcome().map(|outcome| outcome.winner())
}

fn reference_end(board: &VariantBoard) -> Option<Option<Side>> {
    board.outcome().map(|outcome| match outcome {
        VariantOutcome::AttackersWin => Some(Side::Attackers),
        VariantOutcome::DefendersWin => Some(Side::Defenders),
        VariantOutcome::Draw => None,
    })
}

/// A xorshift64 sequence for the games' moves.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Plays `games` seeded random games of at most `plies` plies from `rules`' start, comparing
/// every position's legal moves and every move's result; returns the moves compared.
fn compare_games(id: &str, rules: &str, games: usize, plies: usize, seed: u64) -> usize {
    let variant: Variant<Wide> = rules.parse().unwrap_or_else(|e| panic!("{id}: {e}"));
    let reference_start = VariantBoard::parse(rules).unwrap_or_else(|e| panic!("{id}: {e}"));
    let size = reference_start.size();
    assert_eq!(usize::from(variant.rules().size()), size, "{id}");
    let mut random = XorShift(seed);
    let mut compared = 0;
    for game in 0..games {
        let (mut position, mut board) = (variant.start(), reference_start.clone());
        for ply in 0..plies {
            let at = || format!("{id} game {game} ply {ply}: {position:?}");
            assert_eq!(cells_of(&position), board.cells, "{}", at());
            assert_eq!(
                position.side_to_move() == Side::Attackers,
                board.attackers_to_move,
                "{}",
                at()
            );
            let end = library_end(&position);
            assert_eq!(end, reference_end(&board), "{}", at());
            let library_moves: BTreeSet<(Xy, Xy)> = position
                .legal_moves()
                .iter()
                .map(|m| (xy(m.from()), xy(m.to())))
                .collect();
            let reference_moves: BTreeSet<(Xy, Xy)> = if end.is_some() {
                BTreeSet::new() // A finished game has no moves (P1).
            } else {
                board.moves().into_iter().collect()
            };
            assert_eq!(library_moves, reference_moves, "{}", at());
            if library_moves.is_empty() {
                break;
            }
            // Every move's result, then one picked at random to go on with.
            let moves: Vec<_> = position.legal_moves().iter().copied().collect();
            for &m in &moves {
                let mut after = position;
                let captured: BTreeSet<Xy> = after
                    .play(m)
                    .unwrap_or_else(|e| panic!("{}: {m} refused: {e}", at()))
                    .into_iter()
                    .map(xy)
                    .collect();
                let (board_after, board_captured) = board.play(xy(m.from()), xy(m.to()));
                let board_captured: BTreeSet<Xy> = board_captured.into_iter().collect();
                assert_eq!(captured, board_captured, "{}: {m} captures", at());
                assert_eq!(cells_of(&after), board_after.cells, "{}: after {m}", at());
                assert_eq!(
                    library_end(&after),
                    reference_end(&board_after),
                    "{}: end after {m}",
                    at()
                );
                compared += 1;
            }
            let m = moves[(random.next() % moves.len() as u64) as usize];
            position.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            board = board.play(xy(m.from()), xy(m.to())).0;
        }
    }
    compared
}

#[test]
fn boards_above_11x11_play_as_the_reference_along_random_games() {
    let mut compared = 0;
    for (index, block) in wide_fixtures().iter().enumerate() {
        // Alea Evangelii's moves number in the hundreds: fewer, shorter games there.
        let (games, plies) = if block.rules.starts_with("dim:19") {
            (1, 40)
        } else {
            (3, 80)
        };
        compared += compare_games(&block.id, &block.rules, games, plies, 0x3019 + index as u64);
    }
    assert!(compared > 100_000, "{compared} moves compared");
}
