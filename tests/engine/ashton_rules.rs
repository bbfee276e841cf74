//! One or more tests per clause of Ashton Tablut (docs/rules-hosts.md C12-C14: the Tablut
//! Challenge's rules), each drawn as a board: rank 1 at the bottom, `a` attacker (the server's
//! black), `d` defender (white), `K` king, `#` the empty throne, `+` an empty camp, `.` an empty
//! square. The expected results are read from the server's `GameAshtonTablut.java`.

use crate::common;

use common::diagram::{mv, play_checked, position_from_diagram_with_rules, show, squares};
use tafl_engine::{
    DrawReason, Game, IllegalMoveError, Outcome, Position, Side, Variant, WinReason, perft,
};

fn board(diagram: &str, side: Side) -> Position {
    position_from_diagram_with_rules(diagram, Variant::ashton().rules(), side)
}

/// Plays `m` and returns what it captured and the outcome on the board after it.
fn play(position: &Position, m: &str) -> (tafl_engine::Bitboard, Option<Outcome>) {
    let (after, captured) = play_checked(position, mv(m));
    (captured, after.outcome())
}

fn illegal(position: &Position, m: &str) -> IllegalMoveError {
    match position.check_move(mv(m)) {
        Ok(()) => panic!("{m} is legal:\n{}", show(position)),
        Err(error) => error,
    }
}

fn win(winner: Side, reason: WinReason) -> Option<Outcome> {
    Some(Outcome::Win { winner, reason })
}

// ---------------------------------------------------------------------------------------------
// C12: board, start, moves

#[test]
fn the_defenders_move_first_from_tablut_s_placement_with_attackers_on_the_camps() {
    let start = Variant::ashton().start();
    assert_eq!(start.side_to_move(), Side::Defenders);
    assert_eq!(
        start.attackers(),
        start.rules().special_squares() - squares("e5")
    );
    assert_eq!(start.legal_moves().len(), 56);
    assert_eq!(perft::perft(&start, 2), 4408);
}

#[test]
fn rules_ashton_reads_back_from_its_string_and_refuses_changes() {
    let ashton = Variant::ashton();
    let text = ashton.to_string();
    assert!(
        text.contains("ashton:y") && text.contains("atkf:n"),
        "{text}"
    );
    assert_eq!(text.parse::<Variant>().unwrap(), ashton);
    assert_eq!(Variant::by_name("ashton"), Some(ashton));
    let changed = text.replace("ashton:y", "ashton:y ks:w");
    let error = changed.parse::<Variant>().unwrap_err().to_string();
    assert!(error.contains("ks"), "{error}");
    let classic = text.replace("ashton:y", "ashton:y classic:y");
    assert!(classic.parse::<Variant>().is_err());
}

const OPEN: &str = "
    9  . . . + + + . . .
    8  . . . . + . . . .
    7  . . . . . . . . .
    6  + . . . . . . . +
    5  + + d . K . . + +
    4  + . . . . . . . +
    3  . . . . . . . . .
    2  . . d . + . . . .
    1  . . . + a + . . .
       a b c d e f g h i";

#[test]
fn defenders_never_enter_or_cross_a_camp() {
    let position = board(OPEN, Side::Defenders);
    assert!(position.is_legal(mv("c2-d2")));
    assert!(matches!(
        illegal(&position, "c2-e2"),
        IllegalMoveError::Restricted(_)
    ));
    assert!(matches!(
        illegal(&position, "c2-f2"),
        IllegalMoveError::Restricted(_)
    ));
    assert!(position.is_legal(mv("c5-c9")));
    assert!(matches!(
        illegal(&position, "c5-b5"),
        IllegalMoveError::Restricted(_)
    ));
}

#[test]
fn an_attacker_on_a_camp_moves_through_its_own_camps_and_out() {
    let position = board(OPEN, Side::Attackers);
    for m in ["e1-e2", "e1-e3", "e1-e4"] {
        assert!(position.is_legal(mv(m)), "{m}\n{}", show(&position));
    }
    let d1 = board(&OPEN.replace("+ a +", "a . +"), Side::Attackers);
    assert!(d1.is_legal(mv("d1-f1")), "camp to camp, crossing a camp");
}

#[test]
fn a_move_from_a_camp_to_a_camp_is_at_most_five_squares() {
    let position = board(&OPEN.replace("+ a +", "a . +"), Side::Attackers);
    assert!(position.is_legal(mv("d1-d8")));
    assert!(matches!(
        illegal(&position, "d1-d9"),
        IllegalMoveError::Restricted(_)
    ));
}

#[test]
fn an_attacker_that_left_its_camp_cannot_return() {
    let left = OPEN
        .replace("2  . . d . + . . . .", "2  . . d . a . . . .")
        .replace("+ a +", "+ + +");
    let position = board(&left, Side::Attackers);
    assert!(
        position.check_move(mv("e2-e1")).is_ok(),
        "e2 is a camp itself"
    );
    let outside = board(
        &OPEN.replace("3  . . . . . . . . .", "3  . . . a . . . . ."),
        Side::Attackers,
    );
    assert!(matches!(
        illegal(&outside, "d3-d1"),
        IllegalMoveError::Restricted(_)
    ));
    assert!(outside.is_legal(mv("d3-d2")));
}

#[test]
fn nothing_crosses_or_lands_on_the_throne_and_the_king_never_returns() {
    let away = OPEN
        .replace("5  + + d . K . . + +", "5  + + d . # . . + +")
        .replace("4  + . . . . . . . +", "4  + . . . K . . . +");
    let position = board(&away, Side::Defenders);
    assert!(position.is_legal(mv("c5-d5")));
    assert!(position.check_move(mv("c5-f5")).is_err());
    assert!(position.check_move(mv("e4-e5")).is_err());
    assert!(position.check_move(mv("e4-e6")).is_err());
}

// ---------------------------------------------------------------------------------------------
// C13: captures

const CAPTURES: &str = "
    9  . . . + + + . . .
    8  . . . . + . . . .
    7  . . . . . . . . .
    6  + d . . . . . . +
    5  + a . d K . . + +
    4  + a . . . . . . +
    3  . . d . . . . . .
    2  . . . . + . . . .
    1  . . . + + + . . .
       a b c d e f g h i";

#[test]
fn an_attacker_is_captured_against_a_camp_but_not_a_middle_one() {
    let position = board(CAPTURES, Side::Defenders);
    // b4 between c4 and the camp a4.
    let (captured, _) = play(&position, "c3-c4");
    assert_eq!(captured, squares("b4"), "{}", show(&position));
    // b5 (on a camp) between c5 and a5, a middle camp: not hostile to the attackers.
    let (captured, _) = play(&position, "d5-c5");
    assert!(captured.is_empty(), "{}", show(&position));
}

#[test]
fn an_attacker_on_a_camp_is_captured_between_two_defenders() {
    let position = board(
        &CAPTURES.replace("4  + a . . . . . . +", "4  + . . . . . . . +"),
        Side::Defenders,
    );
    let (captured, _) = play(&position, "c3-b3");
    assert!(captured.is_empty());
    let below = board(
        &CAPTURES
            .replace("4  + a . . . . . . +", "4  + . . . . . . . +")
            .replace("3  . . d . . . . . .", "3  . d . . . . . . ."),
        Side::Defenders,
    );
    let (captured, _) = play(&below, "b3-b4");
    assert_eq!(captured, squares("b5"), "{}", show(&below));
}

#[test]
fn a_defender_is_captured_against_the_occupied_throne_and_against_a_camp() {
    let position = board(
        "
    9  . . . + + + . . .
    8  . . . . + . . . .
    7  . . . . . . . . .
    6  + . . . . . . . +
    5  + + . d K . . + +
    4  + . . . . . . . +
    3  . . . . . . . . .
    2  . . . d + . . . .
    1  . . a + + + . . .
       a b c d e f g h i",
        Side::Attackers,
    );
    // d5 between c5 and the king on the throne.
    let (captured, _) = play(&position, "c1-c5");
    assert_eq!(captured, squares("d5"), "{}", show(&position));
    // d2 between c2 and the camp e2.
    let (captured, _) = play(&position, "c1-c2");
    assert_eq!(captured, squares("d2"), "{}", show(&position));
}

#[test]
fn moving_between_two_enemies_is_safe() {
    let position = board(
        "
    9  . . . + + + . . .
    8  . . . . + . . . .
    7  . . . . . . . . .
    6  + . . . . . . . +
    5  + + . . K . . + +
    4  + . . . . . . . +
    3  . a . a . . . . .
    2  . . d . + . . . .
    1  . . . + + + . . .
       a b c d e f g h i",
        Side::Defenders,
    );
    let (captured, outcome) = play(&position, "c2-c3");
    assert!(captured.is_empty());
    assert_eq!(outcome, None);
}

#[test]
fn the_king_on_the_throne_needs_four_attackers() {
    let three = board(
        "
    9  . . . + + + . . .
    8  . . . . + . . . .
    7  . . . . . . . . .
    6  + . . . a . . . +
    5  + + . . K . . + +
    4  + . . . a . . . +
    3  . . . a . . . . .
    2  . . . . + . . . .
    1  . . . + + + . . .
       a b c d e f g h i",
        Side::Attackers,
    );
    let (_, outcome) = play(&three, "d3-d5");
    assert_eq!(outcome, None, "{}", show(&three));
    let four = board(
        "
    9  . . . + + + . . .
    8  . . . . + . . . .
    7  . . . . . . . . .
    6  + . . . a . . . +
    5  + + . a K . . + +
    4  + . . . a . . . +
    3  . . . . . a . . .
    2  . . . . + . . . .
    1  . . . + + + . . .
       a b c d e f g h i",
        Side::Attackers,
    );
    let (_, outcome) = play(&four, "f3-f5");
    assert_eq!(
        outcome,
        win(Side::Attackers, WinReason::KingCaptured),
        "{}",
        show(&four)
    );
}

const BESIDE_THRONE: &str = "
    9  . . . + + + . . .
    8  . . . . + . . . .
    7  . . . . . . . . .
    6  + . . . . . . . +
    5  + + . . # . . + +
    4  + . . a K . . a +
    3  . . . . a . . . .
    2  . . . . + . . . .
    1  . . . + + + . . .
       a b c d e f g h i";

#[test]
fn the_king_beside_the_throne_needs_three_attackers() {
    let two = board(
        &BESIDE_THRONE.replace("3  . . . . a . . . .", "3  . . . . . . . . ."),
        Side::Attackers,
    );
    let (_, outcome) = play(&two, "h4-f4");
    assert_eq!(outcome, None, "{}", show(&two));
    let three = board(BESIDE_THRONE, Side::Attackers);
    let (_, outcome) = play(&three, "h4-f4");
    assert_eq!(
        outcome,
        win(Side::Attackers, WinReason::KingCaptured),
        "{}",
        show(&three)
    );
}

#[test]
fn the_king_elsewhere_is_captured_by_two_attackers() {
    let alone = board(
        "
    9  . . . + + + . . .
    8  . . . . + . . . .
    7  . . . . . . . . .
    6  + . . . . . . . +
    5  + + . . # . . + +
    4  + . . . . . . . +
    3  . . K . . . . a .
    2  . . . . + . . . .
    1  . . . + + + . . .
       a b c d e f g h i",
        Side::Attackers,
    );
    let (_, outcome) = play(&alone, "h3-d3");
    assert_eq!(outcome, None, "{}", show(&alone));
    let held = board(
        "
    9  . . . + + + . . .
    8  . . . . + . . . .
    7  . . . . . . . . .
    6  + . . . . . . . +
    5  + + . . # . . + +
    4  + . . . . . . . +
    3  . a K . . . . a .
    2  . . . . + . . . .
    1  . . . + + + . . .
       a b c d e f g h i",
        Side::Attackers,
    );
    let (_, outcome) = play(&held, "h3-d3");
    assert_eq!(
        outcome,
        win(Side::Attackers, WinReason::KingCaptured),
        "{}",
        show(&held)
    );
}

#[test]
fn the_king_elsewhere_is_captured_by_one_attacker_against_any_camp() {
    let position = board(
        "
    9  . . . + + + . . .
    8  . . . . + . . . .
    7  . . . . . . . . .
    6  + . . . . . . . +
    5  + + . . # . . + +
    4  + . . . . . . . +
    3  . . . . . . . a .
    2  . . . K + . . . .
    1  . . a + + + . . .
       a b c d e f g h i",
        Side::Attackers,
    );
    // Against the camp d1 (below him) and against the camp e2 (to his right).
    for m in ["h3-d3", "c1-c2"] {
        let (_, outcome) = play(&position, m);
        assert_eq!(
            outcome,
            win(Side::Attackers, WinReason::KingCaptured),
            "{m}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// C14: the end

#[test]
fn the_king_wins_on_any_edge_square() {
    let position = board(
        "
    9  . . . + + + . . .
    8  . . . . + . . . .
    7  . . . . . . . . .
    6  + . . . . . . . +
    5  + + . . # . . + +
    4  + . . . . . . . +
    3  . . . . . . K . .
    2  . . . . + . . . .
    1  . . . + + + . . a
       a b c d e f g h i",
        Side::Defenders,
    );
    let (_, outcome) = play(&position, "g3-g1");
    assert_eq!(outcome, win(Side::Defenders, WinReason::KingEscaped));
}

#[test]
fn taking_the_last_attacker_wins_nothing_but_a_side_without_moves_loses() {
    let position = board(
        "
    9  . . . + + + . . .
    8  . . . . + . . . .
    7  . . . . . . . . .
    6  + . . . . . . . +
    5  + + . . K . . + +
    4  + . . . . . . . +
    3  . . . . . . . . .
    2  . d . a + . . . .
    1  . . . + + + . . .
       a b c d e f g h i",
        Side::Defenders,
    );
    // d2 is held between c2 and the camp e2: the last attacker.
    let (after, captured) = play_checked(&position, mv("b2-c2"));
    assert_eq!(captured, squares("d2"));
    assert!(after.attackers().is_empty());
    assert_eq!(after.legal_moves().len(), 0);
    assert_eq!(
        after.outcome(),
        win(Side::Defenders, WinReason::NoLegalMoves)
    );
}

#[test]
fn defenders_walled_in_play_on_until_they_must_move() {
    let walled = "
    9  . . . + + + . . .
    8  . . . . + . . . .
    7  . . . . . . . . .
    6  + . . . . . . . +
    5  + + . . # . . + +
    4  + . . . . . . . +
    3  . a . . . . . . .
    2  a K a . + . . . .
    1  . a . + + + . . .
       a b c d e f g h i";
    let attackers_to_move = board(walled, Side::Attackers);
    assert_eq!(attackers_to_move.outcome(), None);
    let defenders_to_move = board(walled, Side::Defenders);
    assert_eq!(
        defenders_to_move.outcome(),
        win(Side::Attackers, WinReason::NoLegalMoves)
    );
}

#[test]
fn the_first_recurrence_draws_but_the_start_position_is_not_counted() {
    let start = board(
        "
    9  . . . + + + . . .
    8  . . . . + . . . .
    7  . . . . . . . . .
    6  + . . . . . . . +
    5  + + . . K . . + +
    4  + . . . . . . . +
    3  . . . . . . . . .
    2  . d . . + . . a .
    1  . . . + + + . . .
       a b c d e f g h i",
        Side::Defenders,
    );
    let mut game = Game::from_position(start);
    for m in ["b2-b3", "h2-h3", "b3-b2", "h3-h2"] {
        game.play(mv(m)).unwrap();
    }
    // Back at the start: the server never remembered it.
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.outcome(), None);
    game.play(mv("b2-b3")).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}
