//! Properties of the rules over random legal games (from both start positions and every perft
//! fixture) and over random placements: hashes, undo, move generation against `is_legal`, the
//! captured squares, the 8 symmetries of the board, and text round trips.

use crate::common;

use std::collections::BTreeSet;

use common::diagram::{position_from_diagram, show};
use common::random::{Board, RandomGame, random_game, random_position, standard_rules};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::TestCaseError;
use tafl_engine::notation::{self, FullMove};
use tafl_engine::symmetry::Symmetry;
use tafl_engine::{
    DrawReason, Game, Move, Outcome, Position, RepetitionRule, RuleFlags, Rules, Side, Square,
    Variant, perft,
};

const ALL_SIZES: &[u8] = &[5, 7, 9, 11];
const GAME_SIZES: &[u8] = &[9, 11];

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

/// Every square of the 11x11 grid, so that moves off a 9x9 board are tried too.
fn grid() -> impl Iterator<Item = Square> {
    (0..121).filter_map(Square::from_index)
}

/// Checks move generation in one position against `is_legal`, `check_move` and `play`, and
/// what each legal move captures.
fn check_move_generation(position: &Position) -> Result<(), TestCaseError> {
    let board = show(position);
    let legal = position.legal_moves();
    let set: BTreeSet<Move> = legal.iter().copied().collect();
    prop_assert_eq!(
        set.len(),
        legal.len(),
        "a move is generated twice in\n{}",
        board
    );
    prop_assert_eq!(
        position.count_legal_moves() as usize,
        legal.len(),
        "count in\n{}",
        board
    );
    // Into a list that already holds moves: it is emptied first.
    let mut reused = position.legal_moves();
    reused.reverse();
    let _ = reused.try_push(Move::new(Square::A1, Square::A1));
    position.legal_moves_into(&mut reused);
    prop_assert_eq!(&reused, &legal, "legal_moves_into in\n{}", board);

    // The outcome on the board agrees with the moves (R13, R14, R17).
    let expected_outcome = match position.winner() {
        Some(Side::Attackers) => Some("attackers win"),
        Some(Side::Defenders) => Some("defenders win"),
        None if legal.is_empty() => Some("no legal move"),
        None => None,
    };
    let outcome = position.outcome().map(|outcome| match outcome {
        Outcome::Win {
            winner: Side::Attackers,
            ..
        } => "attackers win",
        Outcome::Win {
            winner: Side::Defenders,
            ..
        } => "defenders win",
        Outcome::Draw(DrawReason::NoLegalMoves) => "no legal move",
        Outcome::Draw(_) => "a draw a position cannot know",
    });
    prop_assert_eq!(outcome, expected_outcome, "outcome of\n{}", board);
    if position.winner().is_some() {
        prop_assert!(legal.is_empty(), "moves in a won game\n{}", board);
    }

    for &m in &legal {
        prop_assert!(
            position.is_legal(m),
            "{} generated but not legal in\n{}",
            m,
            board
        );
        prop_assert_eq!(position.check_move(m), Ok(()));
        prop_assert_ne!(m.to(), position.rules().castle(), "R6 in\n{}", board);
        let mut after = *position;
        let captured = after
            .play(m)
            .map_err(|e| TestCaseError::fail(format!("{m}: {e} in\n{board}")))?;
        let mut unchecked = *position;
        prop_assert_eq!(unchecked.play_unchecked(m), captured);
        prop_assert_eq!(unchecked, after);
        prop_assert_eq!(position.captures_of(m), captured);
        // The captured squares are exactly the pieces that left the board, all enemies.
        let vanished = (position.occupied() - m.from()) - after.occupied();
        prop_assert_eq!(captured, vanished, "{} in\n{}", m, board);
        let enemies = position.pieces(position.side_to_move().opponent());
        prop_assert!(
            (captured - enemies).is_empty(),
            "{} took a friend in\n{}",
            m,
            board
        );
        prop_assert_eq!(after.piece_at(m.to()), position.piece_at(m.from()));
        prop_assert_eq!(after.side_to_move(), position.side_to_move().opponent());
    }

    // Every move along a rank or file of the grid, from every square: `is_legal` says yes
    // exactly for the generated moves, and `play` refuses the others without touching the board.
    for from in grid() {
        let line = grid().filter(|to| to.x() == from.x() || to.y() == from.y());
        let near = [(1, 1), (-1, 1), (2, -1)]
            .into_iter()
            .filter_map(|(dx, dy)| from.offset(dx, dy));
        for to in line.chain(near) {
            let m = Move::new(from, to);
            prop_assert_eq!(
                position.is_legal(m),
                set.contains(&m),
                "is_legal({}) in\n{}",
                m,
                board
            );
            if !set.contains(&m) {
                let mut copy = *position;
                prop_assert!(copy.play(m).is_err(), "{} played in\n{}", m, board);
                prop_assert_eq!(copy, *position, "a refused {} changed\n{}", m, board);
            }
        }
    }
    Ok(())
}

/// The legal moves, captures, outcome and perft of `position` map onto those of its images
/// (the library's symmetries: `tafl_engine::symmetry`).
fn check_symmetries(position: &Position, perft_depth: u32) -> Result<(), TestCaseError> {
    let board = show(position);
    let size = position.rules().size();
    let legal: BTreeSet<Move> = position.legal_moves().iter().copied().collect();
    let count = perft::perft(position, perft_depth);
    for symmetry in Symmetry::ALL {
        let image = symmetry
            .map_position(position)
            .map_err(|error| TestCaseError::fail(error.to_string()))?;
        let map_move = |m: Move| symmetry.map_move(size, m).expect("a move of the board");
        let image_legal: BTreeSet<Move> = image.legal_moves().iter().copied().collect();
        let mapped: BTreeSet<Move> = legal.iter().map(|&m| map_move(m)).collect();
        prop_assert_eq!(
            &image_legal,
            &mapped,
            "{}: legal moves of\n{}",
            symmetry,
            board
        );
        for &m in &legal {
            prop_assert_eq!(
                image.captures_of(map_move(m)),
                symmetry.map_set(size, position.captures_of(m)),
                "{}: captures of {} in\n{}",
                symmetry,
                m,
                board
            );
        }
        prop_assert_eq!(image.outcome(), position.outcome(), "{}: outcome", symmetry);
        prop_assert_eq!(
            perft::perft(&image, perft_depth),
            count,
            "{}: perft {} of\n{}",
            symmetry,
            perft_depth,
            board
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn incremental_hash_equals_hash_from_scratch(game in random_game(60)) {
        for position in &game.positions {
            prop_assert_eq!(position.hash(), position.hash_from_scratch(), "\n{}", show(position));
            let other = position.with_side_to_move(position.side_to_move().opponent());
            prop_assert_eq!(other.hash(), other.hash_from_scratch());
            prop_assert_ne!(other.hash(), position.hash(), "the side to move is hashed");
        }
    }

    #[test]
    fn undo_restores_the_exact_previous_game(game in random_game(60)) {
        let start = game.positions[0];
        let mut played = Game::from_position(start);
        for (_, m) in game.plies() {
            if played.outcome().is_some() {
                break; // A game stops at a repetition (R16); positions do not.
            }
            let before = played.clone();
            let captured = played.play(m).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(played.last_move(), Some((m, captured)));
            prop_assert_eq!(played.undo(), Some(m));
            prop_assert_eq!(&played, &before);
            // A draw agreement (R18) is taken back alone.
            played.agree_draw();
            prop_assert_eq!(played.outcome(), Some(Outcome::Draw(DrawReason::Agreement)));
            prop_assert_eq!(played.undo(), None);
            prop_assert_eq!(&played, &before);
            played.play(m).map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
        while played.undo().is_some() {}
        prop_assert_eq!(played, Game::from_position(start));
    }

    #[test]
    fn moves_are_generated_exactly_when_legal_along_games(game in random_game(40)) {
        for position in &game.positions {
            check_move_generation(position)?;
        }
    }

    #[test]
    fn moves_are_generated_exactly_when_legal_in_random_positions(
        board in random_position(ALL_SIZES)
    ) {
        check_move_generation(&board.0)?;
    }

    #[test]
    fn symmetries_map_legal_moves_and_keep_perft_along_games(game in random_game(40)) {
        for (ply, position) in game.positions.iter().enumerate() {
            // perft on the last position only: the moves and captures of every ply are mapped.
            let depth = if ply + 1 == game.positions.len() { 2 } else { 0 };
            check_symmetries(position, depth)?;
        }
    }

    #[test]
    fn symmetries_map_legal_moves_and_keep_perft_in_random_positions(
        board in random_position(ALL_SIZES)
    ) {
        let depth = if board.0.count_legal_moves() <= 20 { 3 } else { 2 };
        check_symmetries(&board.0, depth)?;
    }

    #[test]
    fn position_records_round_trip(board in random_position(ALL_SIZES)) {
        let position = board.0;
        let record = notation::position_record(&position);
        let read = notation::parse_position_record(&record, position.rules(), position.side_to_move());
        prop_assert_eq!(read, Ok(position), "record {}", record);
    }

    #[test]
    fn diagrams_round_trip(board in random_position(ALL_SIZES)) {
        // The library's diagram, read back by the tests' diagram reader.
        let position = board.0;
        let drawn = notation::diagram(&position);
        prop_assert_eq!(position_from_diagram(&drawn, position.side_to_move()), position);
    }

    #[test]
    fn rules_strings_round_trip(
        board in random_position(ALL_SIZES),
        flags in 0u8..16,
        repetition in prop_oneof![
            Just(RepetitionRule::SecondOccurrenceDraws),
            Just(RepetitionRule::ThirdOccurrenceDraws),
            Just(RepetitionRule::Ignored),
        ],
        name in "([A-Za-z0-9]{1,8}( [A-Za-z0-9]{1,8}){0,2})?",
    ) {
        let size = board.0.rules().size();
        let rules = Rules::new(size, RuleFlags::from_bits_truncate(flags), repetition)
            .expect("sizes from 5 to 11");
        let start = Position::from_pieces(
            rules,
            board.0.side_to_move(),
            board.0.pieces_with_squares(),
        )
        .expect("the same pieces");
        let variant = Variant::new(name, start);
        let text = variant.to_string();
        let read: Result<Variant, _> = text.parse();
        prop_assert_eq!(read, Ok(variant), "rules string {}", text);
    }

    #[test]
    fn moves_and_squares_round_trip(from in 0u8..121, to in 0u8..121) {
        let (from, to) = (Square::from_index(from).unwrap(), Square::from_index(to).unwrap());
        prop_assert_eq!(from.to_string().parse::<Square>(), Ok(from));
        let m = Move::new(from, to);
        prop_assert_eq!(m.to_string().parse::<Move>(), Ok(m));
        let full = FullMove { piece: None, mv: m, captures: Default::default(), marker: None };
        prop_assert_eq!(full.to_string().parse::<FullMove>(), Ok(full));
    }

    #[test]
    fn full_moves_round_trip_along_games(game in random_game(30)) {
        for (position, m) in game.plies() {
            let full = FullMove::describe(position, m);
            prop_assert_eq!(full.mv, m);
            prop_assert_eq!(full.piece, position.piece_at(m.from()));
            prop_assert_eq!(full.captures, position.captures_of(m));
            let text = full.to_string();
            prop_assert_eq!(text.parse::<FullMove>(), Ok(full), "{}", text);
            prop_assert_eq!(text.parse::<Move>(), Ok(m), "{}", text);
        }
    }

    #[test]
    fn any_move_in_any_position_never_panics(
        board in random_position(ALL_SIZES),
        from in 0u8..121,
        to in 0u8..121,
    ) {
        // Squares off a small board, pieces of the wrong side, diagonal moves: every call
        // answers without panicking (play_unchecked promises this for illegal moves too).
        let position = board.0;
        let m = Move::new(Square::from_index(from).unwrap(), Square::from_index(to).unwrap());
        let legal = position.is_legal(m);
        prop_assert_eq!(position.check_move(m).is_ok(), legal);
        let mut copy = position;
        prop_assert_eq!(copy.play(m).is_ok(), legal);
        let mut copy = position;
        let _ = copy.play_unchecked(m);
        let _ = position.captures_of(m);
        let _ = FullMove::describe(&position, m).to_string();
    }

    #[test]
    fn parsers_never_panic(text in "\\PC{0,40}") {
        let _ = text.parse::<Square>();
        let _ = text.parse::<Move>();
        let _ = text.parse::<FullMove>();
        let _ = text.parse::<Variant>();
        for rules in [Rules::TABLUT, Rules::TAWLBWRDD] {
            let _ = notation::parse_position_record(&text, rules, Side::Attackers);
        }
    }

    #[test]
    fn rules_string_parser_never_panics_on_near_misses(
        fields in proptest::collection::vec(
            (
                proptest::sample::select(vec![
                    "dim", "name", "esc", "surf", "atkf", "ka", "ks", "kj", "nj", "cor", "cen",
                    "cenp", "cens", "cenh", "cenhe", "linc", "tfr", "sw", "start", "starti", "x",
                ]),
                "[0-9a-zA-Z/:,]{0,12}",
            ),
            0..12,
        )
    ) {
        let text: Vec<String> = fields.iter().map(|(k, v)| format!("{k}:{v}")).collect();
        let _ = text.join(" ").parse::<Variant>();
    }
}

/// Same placement and side to move, compared piece set by piece set (not by `==` or hash).
fn same_position(a: &Position, b: &Position) -> bool {
    a.attackers() == b.attackers()
        && a.defenders() == b.defenders()
        && a.king_set() == b.king_set()
        && a.side_to_move() == b.side_to_move()
}

/// Plays a game from `start`; where a pick asks for it and the move is legal, the piece moved two
/// plies ago goes back, so that positions recur. At every ply the game's outcome must be: the
/// win on the board (R13, R14), else a draw by repetition when the position occurred before
/// (R16), else a draw when no move is legal (R17), else none.
fn check_game_outcomes(start: Position, picks: &[(Index, bool)]) -> Result<usize, TestCaseError> {
    let mut game = Game::from_position(start);
    let mut seen = vec![start];
    let mut repetitions = 0;
    for &(pick, go_back) in picks {
        let position = *game.position();
        let earlier = &seen[..seen.len() - 1];
        let recurred = earlier.iter().any(|p| same_position(p, &position));
        let expected = if position.winner().is_some() {
            position.outcome()
        } else if recurred {
            Some(Outcome::Draw(DrawReason::Repetition))
        } else if position.count_legal_moves() == 0 {
            Some(Outcome::Draw(DrawReason::NoLegalMoves))
        } else {
            None
        };
        let history: Vec<String> = game.moves().map(|m| m.to_string()).collect();
        prop_assert_eq!(
            game.outcome(),
            expected,
            "after {} from\n{}",
            history.join(" "),
            show(&start)
        );
        prop_assert_eq!(game.legal_moves().is_empty(), expected.is_some());
        if expected.is_some() {
            repetitions += usize::from(recurred);
            break;
        }
        let legal = position.legal_moves();
        // `Game::moves` is not double-ended, so collect to look two plies back.
        let played: Vec<Move> = game.moves().collect();
        let back = played
            .len()
            .checked_sub(2)
            .map(|i| Move::new(played[i].to(), played[i].from()))
            .filter(|m| legal.contains(m));
        let m = match back {
            Some(back) if go_back => back,
            _ => legal[pick.index(legal.len())],
        };
        game.play(m)
            .map_err(|e| TestCaseError::fail(format!("{m}: {e}")))?;
        seen.push(*game.position());
    }
    Ok(repetitions)
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn games_end_by_repetition_exactly_when_a_position_recurs(
        board in random_position(&[5, 7, 9]),
        picks in proptest::collection::vec((any::<Index>(), proptest::bool::weighted(0.4)), 0..40),
    ) {
        check_game_outcomes(board.0, &picks)?;
    }
}

/// The game generator above does reach repetitions.
#[test]
fn repetition_games_do_repeat() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = (
        random_position(&[5, 7, 9]),
        proptest::collection::vec((any::<Index>(), proptest::bool::weighted(0.4)), 0..40),
    );
    let mut repeated = 0;
    for _ in 0..128 {
        let (board, picks) = strategy.new_tree(&mut runner).unwrap().current();
        repeated += check_game_outcomes(board.0, &picks).unwrap();
    }
    assert!(
        repeated >= 10,
        "only {repeated} of 128 games ended by repetition"
    );
}

/// The random placements used above are what they claim: sizes, at most one king, no soldier on
/// the castle, both sides to move; and random games are legal games.
#[test]
fn the_generators_make_what_they_claim() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = random_position(GAME_SIZES);
    let mut sides = BTreeSet::new();
    for _ in 0..200 {
        let Board(position) = strategy.new_tree(&mut runner).unwrap().current();
        assert!(GAME_SIZES.contains(&position.rules().size()));
        assert_eq!(position.rules(), standard_rules(position.rules().size()));
        let castle = position.rules().castle();
        assert!(!position.attackers().contains(castle) && !position.defenders().contains(castle));
        assert!(position.king_set().count() <= 1);
        sides.insert(position.side_to_move());
    }
    assert_eq!(sides.len(), 2);
    let games = random_game(60);
    for _ in 0..20 {
        let game: RandomGame = games.new_tree(&mut runner).unwrap().current();
        for (position, m) in game.plies() {
            assert!(position.is_legal(m));
        }
    }
}

#[test]
fn rules_strings_round_trip_whatever_the_name() {
    for name in [
        "x tfr:n",
        "x ka:n",
        "x esc:c",
        "two  spaces",
        "trailing ",
        "tab\there",
    ] {
        let variant = Variant::new(name, Position::tablut());
        let text = variant.to_string();
        match text.parse::<Variant>() {
            Ok(read) => {
                assert_eq!(read.rules(), variant.rules(), "name {name:?}: {text}");
                assert_eq!(read, variant, "name {name:?}: {text}");
            }
            Err(error) => panic!("name {name:?}: {text} is refused: {error}"),
        }
    }
}
