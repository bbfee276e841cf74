//! The fast library against the slow reference rules of tests/common/reference.rs (an array
//! board written separately from docs/rules.md): legal moves, the captures of every move, the board
//! after it, the outcome and perft, along random games and on random placements.
//!
//! The reference board is built square by square from `Position::piece_at`, not from the
//! library's notation, so the two sides share nothing but the squares.

use crate::common;

use std::collections::BTreeSet;

use common::cells::cells_of;
use common::diagram::{position_from_diagram, show};
use common::random::{
    RandomGame, random_position, sharp_game_from, standard_rules, start_positions,
};
use common::reference::{Cell, RefBoard, RefOutcome};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use tafl_engine::{Bitboard, DrawReason, Outcome, Piece, Position, Side, Square, perft};

type Xy = (usize, usize);

fn xy(square: Square) -> Xy {
    (usize::from(square.x()), usize::from(square.y()))
}

/// The reference board with the same pieces and side to move.
fn reference_of(position: &Position) -> RefBoard {
    let size = usize::from(position.rules().size());
    let cells = cells_of(position);
    RefBoard {
        size,
        cells,
        attackers_to_move: position.side_to_move() == Side::Attackers,
    }
}

fn library_moves(position: &Position) -> BTreeSet<(Xy, Xy)> {
    position
        .legal_moves()
        .iter()
        .map(|m| (xy(m.from()), xy(m.to())))
        .collect()
}

fn library_set(set: Bitboard) -> BTreeSet<Xy> {
    set.into_iter().map(xy).collect()
}

fn library_outcome(position: &Position) -> Result<Option<RefOutcome>, TestCaseError> {
    Ok(match position.outcome() {
        None => None,
        Some(Outcome::Win {
            winner: Side::Attackers,
            ..
        }) => Some(RefOutcome::AttackersWin),
        Some(Outcome::Win {
            winner: Side::Defenders,
            ..
        }) => Some(RefOutcome::DefendersWin),
        Some(Outcome::Draw(DrawReason::NoLegalMoves)) => Some(RefOutcome::DrawNoMoves),
        Some(other) => {
            return Err(TestCaseError::fail(format!(
                "a position alone cannot be {other}\n{}",
                show(position)
            )));
        }
    })
}

fn name((x, y): Xy) -> String {
    Square::new(x as u8, y as u8).map_or_else(|| format!("({x}, {y})"), |s| s.to_string())
}

fn move_name((from, to): (Xy, Xy)) -> String {
    format!("{}-{}", name(from), name(to))
}

/// The reference board drawn as a diagram, through a library position built square by square.
fn reference_diagram(reference: &RefBoard) -> String {
    let size = u8::try_from(reference.size).expect("at most 11");
    let mut pieces = Vec::new();
    for y in 0..size {
        for x in 0..size {
            let piece = match reference.get(usize::from(x), usize::from(y)) {
                Cell::Empty => continue,
                Cell::Attacker => Piece::Attacker,
                Cell::Defender => Piece::Defender,
                Cell::King => Piece::King,
            };
            pieces.push((Square::new(x, y).expect("on the grid"), piece));
        }
    }
    let side = if reference.attackers_to_move {
        Side::Attackers
    } else {
        Side::Defenders
    };
    match Position::from_pieces(standard_rules(size), side, pieces) {
        Ok(position) => show(&position),
        Err(error) => format!("{} ({error})", reference.to_record()),
    }
}

/// Compares one position: the legal moves, the outcome, and for every legal move what it
/// captures and the board it leaves.
fn compare(position: &Position) -> Result<(), TestCaseError> {
    let board = show(position);
    let reference = reference_of(position);
    let reference_moves: BTreeSet<(Xy, Xy)> = reference.legal_moves().into_iter().collect();
    let moves = library_moves(position);
    if moves != reference_moves {
        let only = |a: &BTreeSet<(Xy, Xy)>, b: &BTreeSet<(Xy, Xy)>| {
            a.difference(b)
                .copied()
                .map(move_name)
                .collect::<Vec<_>>()
                .join(" ")
        };
        return Err(TestCaseError::fail(format!(
            "legal moves differ in\n{board}only the library: {}\nonly the reference: {}",
            only(&moves, &reference_moves),
            only(&reference_moves, &moves),
        )));
    }
    prop_assert_eq!(
        library_outcome(position)?,
        reference.outcome(),
        "outcome (library left, reference right) of\n{}",
        board
    );
    for m in position.legal_moves() {
        let mut after = *position;
        let captured: BTreeSet<String> = library_set(after.play_unchecked(m))
            .into_iter()
            .map(name)
            .collect();
        let (reference_after, reference_captured) = reference.play(xy(m.from()), xy(m.to()));
        let reference_captured: BTreeSet<String> =
            reference_captured.into_iter().map(name).collect();
        prop_assert_eq!(
            &captured,
            &reference_captured,
            "captures of {} (library left, reference right) in\n{}",
            m,
            board
        );
        let library_after = reference_of(&after);
        prop_assert!(
            library_after == reference_after,
            "board after {} from\n{}library:\n{}reference:\n{}",
            m,
            board,
            show(&after),
            reference_diagram(&reference_after)
        );
    }
    Ok(())
}

fn compare_game(game: &RandomGame) -> Result<(), TestCaseError> {
    for position in &game.positions {
        compare(position)?;
    }
    Ok(())
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn games_from_both_starts_agree_with_the_reference(
        game in sharp_game_from(vec![Position::tablut(), Position::tawlbwrdd()], 160)
    ) {
        compare_game(&game)?;
    }

    #[test]
    fn games_from_the_perft_fixtures_agree_with_the_reference(
        game in sharp_game_from(start_positions(), 60)
    ) {
        compare_game(&game)?;
    }
}

proptest! {
    #![proptest_config(config(384))]

    #[test]
    fn random_positions_agree_with_the_reference(board in random_position(&[9, 11])) {
        compare(&board.0)?;
        let reference = reference_of(&board.0);
        prop_assert_eq!(perft::perft(&board.0, 2), reference.perft(2), "perft 2 of{:?}", board);
    }

    #[test]
    fn small_boards_agree_with_the_reference(board in random_position(&[5, 7])) {
        compare(&board.0)?;
        let reference = reference_of(&board.0);
        prop_assert_eq!(perft::perft(&board.0, 3), reference.perft(3), "perft 3 of{:?}", board);
    }
}

/// The games above reach what they should test: captures of soldiers, both wins, and more
/// than one capture in a move. Without this, a generator that never reached them would let the
/// comparisons pass having checked little.
#[test]
fn random_games_reach_captures_and_both_wins() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = sharp_game_from(vec![Position::tablut(), Position::tawlbwrdd()], 160);
    let (mut captures, mut multiple, mut attackers_won, mut defenders_won) = (0, 0, 0, 0);
    for _ in 0..48 {
        let game = strategy.new_tree(&mut runner).unwrap().current();
        for (position, m) in game.plies() {
            let taken = position.captures_of(m).count();
            captures += usize::from(taken > 0);
            multiple += usize::from(taken > 1);
        }
        match game.positions.last().and_then(Position::winner) {
            Some(Side::Attackers) => attackers_won += 1,
            Some(Side::Defenders) => defenders_won += 1,
            None => {}
        }
    }
    assert!(captures > 100, "{captures} capturing moves");
    assert!(multiple > 0, "{multiple} moves with several captures");
    assert!(
        attackers_won > 0 && defenders_won > 0,
        "{attackers_won} / {defenders_won} wins"
    );
}

/// `reference_of` puts every piece where the reference's own record reader does (rank 1 first,
/// file a at x = 0), so the comparisons above compare the same boards.
#[test]
fn the_conversion_to_the_reference_board_keeps_every_square() {
    let record = "/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/";
    let reference = RefBoard::from_record(record, true).unwrap();
    assert_eq!(reference_of(&Position::tawlbwrdd()), reference);
    let corners = position_from_diagram(
        "
        9  . . . . . . . . d
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . K . . . . . . .
        1  a . . . . . . . .
           a b c d e f g h i
        ",
        Side::Defenders,
    );
    let reference = RefBoard::from_record("/t8/1K7/9/9/9/9/9/9/8T/", false).unwrap();
    assert_eq!(reference_of(&corners), reference);
}

/// The random placements above reach every kind of move the rules treat apart: the king
/// captured on the castle, next to it and elsewhere (R13), the king escaping (R14), a soldier
/// captured against the empty castle (R10) and several soldiers at once (R11).
#[test]
fn random_positions_reach_every_king_capture_regime() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = random_position(&[5, 7, 9, 11]);
    let (mut on_castle, mut next_to_castle, mut elsewhere) = (0, 0, 0);
    let (mut escapes, mut against_castle, mut several) = (0, 0, 0);
    for _ in 0..1000 {
        let position = strategy.new_tree(&mut runner).unwrap().current().0;
        let castle = position.rules().castle();
        let castle_xy = xy(castle);
        for m in position.legal_moves() {
            let mut after = position;
            let captured = after.play_unchecked(m);
            if let Some(king) = position.king().filter(|&king| captured.contains(king)) {
                let (kx, ky) = xy(king);
                match kx.abs_diff(castle_xy.0) + ky.abs_diff(castle_xy.1) {
                    0 => on_castle += 1,
                    1 => next_to_castle += 1,
                    _ => elsewhere += 1,
                }
            }
            escapes += usize::from(after.winner() == Some(Side::Defenders));
            several += usize::from(captured.count() > 1);
            let (tx, ty) = xy(m.to());
            against_castle += captured
                .into_iter()
                .map(xy)
                .filter(|&(cx, cy)| {
                    // The captured soldier lies between the landing square and the castle.
                    (2 * cx == tx + castle_xy.0 && 2 * cy == ty + castle_xy.1)
                        && !position.occupied().contains(castle)
                })
                .count();
        }
    }
    let counts = [
        ("king captured on the castle", on_castle),
        ("king captured next to the castle", next_to_castle),
        ("king captured elsewhere", elsewhere),
        ("king escapes", escapes),
        ("soldier captured against the empty castle", against_castle),
        ("moves capturing several soldiers", several),
    ];
    for (what, count) in counts {
        assert!(count >= 5, "{what}: only {count} in 1000 random positions");
    }
}
