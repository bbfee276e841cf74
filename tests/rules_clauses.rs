//! One or more tests per clause of docs/rules.md (R1-R18, P1), each named after its clause and
//! drawn as a board: rank 1 at the bottom, `a` attacker, `d` defender, `K` king, `#` the empty
//! castle, `.` an empty square.
//!
//! `assert_move(before, side, move, after)` plays the move in the first board and checks that
//! the result is the second board, and that the squares `play` reports as captured are exactly
//! the pieces that left the board.

mod common;

use common::diagram::{
    assert_move, mv, play_checked, position_from_diagram, position_from_diagram_with_rules, show,
    sq, squares,
};
use tafl_engine::{
    DrawReason, Game, IllegalMoveError, Outcome, PlayError, Position, RepetitionRule, RuleFlags,
    Rules, Side, Variant, WinReason, notation, perft,
};

const KING_CAPTURED: Outcome = Outcome::Win {
    winner: Side::Attackers,
    reason: WinReason::KingCaptured,
};
const KING_ESCAPED: Outcome = Outcome::Win {
    winner: Side::Defenders,
    reason: WinReason::KingEscaped,
};

/// The destinations of the legal moves that start on `from`, sorted by name.
fn destinations_from(position: &Position, from: &str) -> Vec<String> {
    let mut names: Vec<String> = position
        .legal_moves()
        .iter()
        .filter(|m| m.from() == sq(from))
        .map(|m| m.to().to_string())
        .collect();
    names.sort();
    names
}

fn sorted(names: &str) -> Vec<String> {
    let mut names: Vec<String> = names.split_whitespace().map(String::from).collect();
    names.sort();
    names
}

// ---------------------------------------------------------------------------------------------
// Board, squares, sides, start (R1-R4)

#[test]
fn r1_tablut_is_9x9_and_tawlbwrdd_11x11_with_the_castle_in_the_centre() {
    assert_eq!(Rules::TABLUT.size(), 9);
    assert_eq!(Rules::TABLUT.castle(), sq("e5"));
    assert_eq!(Rules::TAWLBWRDD.size(), 11);
    assert_eq!(Rules::TAWLBWRDD.castle(), sq("f6"));
    assert_eq!(Variant::tablut().rules(), Rules::TABLUT);
    assert_eq!(Variant::tawlbwrdd().rules(), Rules::TAWLBWRDD);
}

#[test]
fn r1_start_positions_are_the_diagrams_of_rules_md() {
    let tablut = position_from_diagram(
        "
        9  . . . a a a . . .
        8  . . . . a . . . .
        7  . . . . d . . . .
        6  a . . . d . . . a
        5  a a d d K d d a a
        4  a . . . d . . . a
        3  . . . . d . . . .
        2  . . . . a . . . .
        1  . . . a a a . . .
           a b c d e f g h i
        ",
        Side::Attackers,
    );
    assert_eq!(Position::tablut(), tablut, "{}", show(&Position::tablut()));
    assert_eq!(Variant::by_name("tablut").map(|v| v.start()), Some(tablut));

    let tawlbwrdd = position_from_diagram(
        "
        11  . . . . a a a . . . .
        10  . . . . a . a . . . .
         9  . . . . . a . . . . .
         8  . . . . . d . . . . .
         7  a a . . d d d . . a a
         6  a . a d d K d d a . a
         5  a a . . d d d . . a a
         4  . . . . . d . . . . .
         3  . . . . . a . . . . .
         2  . . . . a . a . . . .
         1  . . . . a a a . . . .
            a b c d e f g h i j k
        ",
        Side::Attackers,
    );
    assert_eq!(
        Position::tawlbwrdd(),
        tawlbwrdd,
        "{}",
        show(&Position::tawlbwrdd())
    );
    assert_eq!(
        Variant::by_name("Tawlbwrdd").map(|v| v.start()),
        Some(tawlbwrdd)
    );
}

#[test]
fn r1_start_positions_have_the_records_of_rules_md() {
    assert_eq!(
        notation::position_record(&Position::tablut()),
        "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
    );
    assert_eq!(
        notation::position_record(&Position::tawlbwrdd()),
        "/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/"
    );
}

#[test]
fn r2_a1_is_bottom_left_and_files_and_ranks_count_from_it() {
    let drawn = "\
9  . . . . . . . . d
8  . . . . . . . . .
7  . . . . . . . . .
6  . . . . . . . . .
5  . . . . # . . . .
4  . . . . . . . . .
3  . . . . K . . . .
2  . a . . . . . . .
1  a . . . . . . . .
   a b c d e f g h i
";
    let position = position_from_diagram(drawn, Side::Attackers);
    let a1 = sq("a1");
    assert_eq!((a1.x(), a1.y()), (0, 0));
    let b2 = sq("b2");
    assert_eq!((b2.x(), b2.y()), (1, 1));
    assert_eq!(position.piece_at(a1), Some(tafl_engine::Piece::Attacker));
    assert_eq!(position.piece_at(b2), Some(tafl_engine::Piece::Attacker));
    assert_eq!(
        position.piece_at(sq("i9")),
        Some(tafl_engine::Piece::Defender)
    );
    assert_eq!(position.king(), Some(sq("e3")));
    // The library draws the board the same way.
    assert_eq!(notation::diagram(&position), drawn);
}

#[test]
fn r2a_pieces_on_a_diagonal_are_not_neighbours_and_do_not_capture() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . a . # . . . .
        4  . . . d . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . a . . . .
        ",
        Side::Attackers,
        "e1-e3",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . a . # . . . .
        4  . . . d . . . . .
        3  . . . . a . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert!(captured.is_empty());
}

#[test]
fn r3_the_king_plays_for_the_defenders_but_is_not_a_soldier() {
    let start = Position::tablut();
    assert_eq!(start.attackers().count(), 16);
    assert_eq!(
        start.defenders().count(),
        8,
        "defenders() is the soldiers only"
    );
    assert_eq!(start.king(), Some(sq("e5")));
    assert_eq!(
        start.pieces(Side::Defenders).count(),
        9,
        "the king counts as a defender"
    );
    assert!(start.pieces(Side::Defenders).contains(sq("e5")));
    assert_eq!(tafl_engine::Piece::King.side(), Side::Defenders);
    let start = Position::tawlbwrdd();
    assert_eq!(start.attackers().count(), 24);
    assert_eq!(start.defenders().count(), 12);
}

#[test]
fn r4_attackers_move_first_then_the_sides_alternate() {
    for variant in [Variant::tablut(), Variant::tawlbwrdd()] {
        assert_eq!(variant.start().side_to_move(), Side::Attackers);
    }
    let mut position = Position::tablut();
    assert_eq!(
        position.check_move(mv("e3-h3")),
        Err(IllegalMoveError::NotYourPiece {
            square: sq("e3"),
            side: Side::Attackers
        }),
        "a defender may not open the game"
    );
    position.play(mv("e2-h2")).unwrap();
    assert_eq!(position.side_to_move(), Side::Defenders);
    assert!(
        !position.is_legal(mv("h2-h3")),
        "the attackers may not move twice"
    );
    position.play(mv("e3-h3")).unwrap();
    assert_eq!(position.side_to_move(), Side::Attackers);
}

// ---------------------------------------------------------------------------------------------
// Moving (R5-R7)

#[test]
fn r5_pieces_move_like_rooks_and_cannot_jump() {
    let position = position_from_diagram(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . a . . . . . .
        6  . . . . . . . . .
        5  . . . . # . K . .
        4  . . . . . . . . .
        3  . . d . . d . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
           a b c d e f g h i
        ",
        Side::Defenders,
    );
    // Up to the attacker on c7, down to the edge, left to the edge, right to the defender on f3.
    assert_eq!(
        destinations_from(&position, "c3"),
        sorted("c4 c5 c6 c2 c1 b3 a3 d3 e3")
    );
    assert_eq!(
        position.check_move(mv("c3-c8")),
        Err(IllegalMoveError::Blocked(sq("c7")))
    );
    assert_eq!(
        position.check_move(mv("c3-c7")),
        Err(IllegalMoveError::Blocked(sq("c7")))
    );
    assert_eq!(
        position.check_move(mv("c3-g3")),
        Err(IllegalMoveError::Blocked(sq("f3")))
    );
    assert_eq!(
        position.check_move(mv("c3-d4")),
        Err(IllegalMoveError::NotStraight(mv("c3-d4")))
    );
    assert_eq!(
        position.check_move(mv("c3-c3")),
        Err(IllegalMoveError::NotStraight(mv("c3-c3")))
    );
    assert!(position.is_legal(mv("c3-c6")));
}

#[test]
fn r5_the_king_moves_like_a_rook_too() {
    let position = position_from_diagram(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . d . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . K . a
        2  . . . . . . . . .
        1  . . . . . . . . .
           a b c d e f g h i
        ",
        Side::Defenders,
    );
    assert_eq!(
        destinations_from(&position, "g3"),
        sorted("g4 g5 g2 g1 h3 f3 e3 d3 c3 b3 a3")
    );
}

#[test]
fn r5_squares_off_a_small_board_are_refused() {
    let position = Position::tablut();
    assert_eq!(
        position.check_move(mv("a4-j4")),
        Err(IllegalMoveError::OffBoard(sq("j4")))
    );
}

#[test]
fn r6_no_soldier_may_stop_on_the_castle() {
    let drawn = "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  a . . . # . . . .
        4  . . . . . . . . .
        3  . . . . d . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
           a b c d e f g h i
        ";
    let defenders = position_from_diagram(drawn, Side::Defenders);
    assert_eq!(
        defenders.check_move(mv("e3-e5")),
        Err(IllegalMoveError::Castle(sq("e5")))
    );
    assert!(defenders.is_legal(mv("e3-e4")));
    let attackers = position_from_diagram(drawn, Side::Attackers);
    assert_eq!(
        attackers.check_move(mv("a5-e5")),
        Err(IllegalMoveError::Castle(sq("e5")))
    );
    assert!(attackers.is_legal(mv("a5-d5")));
    for position in [defenders, attackers] {
        assert!(
            position.legal_moves().iter().all(|m| m.to() != sq("e5")),
            "no generated move ends on the castle"
        );
    }
}

#[test]
fn r6_the_king_may_not_return_to_the_castle() {
    let position = position_from_diagram(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . K . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . a . . . .
           a b c d e f g h i
        ",
        Side::Defenders,
    );
    assert_eq!(
        position.check_move(mv("e6-e5")),
        Err(IllegalMoveError::Castle(sq("e5")))
    );
    // He may still pass over it (R7).
    assert_eq!(destinations_from(&position, "e6"), {
        sorted("e7 e8 e9 e4 e3 e2 a6 b6 c6 d6 f6 g6 h6 i6")
    });
}

#[test]
fn r6_the_king_may_leave_the_castle() {
    let position = position_from_diagram(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . . K . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  a . . . . . . . .
           a b c d e f g h i
        ",
        Side::Defenders,
    );
    assert_eq!(
        destinations_from(&position, "e5"),
        sorted("e6 e7 e8 e9 e4 e3 e2 e1 a5 b5 c5 d5 f5 g5 h5 i5")
    );
}

#[test]
fn r7_any_piece_passes_over_the_empty_castle() {
    let drawn = "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . K . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . a . . . .
        1  . . . . . . . . .
           a b c d e f g h i
        ";
    assert_move(
        drawn,
        Side::Attackers,
        "e2-e8",
        "
        9  . . . . . . . . .
        8  . . . . a . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . K . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert_move(
        drawn,
        Side::Defenders,
        "c5-g5",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . . # . K . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . a . . . .
        1  . . . . . . . . .
        ",
    );
}

#[test]
fn r7_no_piece_passes_over_the_occupied_castle() {
    let drawn = "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  a . . . K . . . .
        4  . . . . . . . . .
        3  . . . . d . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
           a b c d e f g h i
        ";
    let defenders = position_from_diagram(drawn, Side::Defenders);
    assert_eq!(
        defenders.check_move(mv("e3-e7")),
        Err(IllegalMoveError::Blocked(sq("e5")))
    );
    assert_eq!(
        destinations_from(&defenders, "e3"),
        sorted("e4 e2 e1 a3 b3 c3 d3 f3 g3 h3 i3")
    );
    let attackers = position_from_diagram(drawn, Side::Attackers);
    assert_eq!(
        attackers.check_move(mv("a5-i5")),
        Err(IllegalMoveError::Blocked(sq("e5")))
    );
    assert_eq!(
        destinations_from(&attackers, "a5"),
        sorted("b5 c5 d5 a6 a7 a8 a9 a4 a3 a2 a1")
    );
}

// ---------------------------------------------------------------------------------------------
// Capturing soldiers (R8-R12)

#[test]
fn r8_a_soldier_may_move_between_two_enemies() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . d . d . . . .
        2  . . . . . . . . .
        1  . . . a . . . . .
        ",
        Side::Attackers,
        "d1-d3",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . d a d . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert!(captured.is_empty());
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . a . a . . . .
        2  . . . . . . . . .
        1  . . . d . . . . .
        ",
        Side::Defenders,
        "d1-d3",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . a d a . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert!(captured.is_empty());
}

#[test]
fn r8_only_the_side_that_moves_captures() {
    // The defender on d3 stands between two attackers (set up so), and stays there whatever
    // either side does elsewhere.
    let drawn = "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . a d a . . . .
        2  . . . . . . . . .
        1  . . . . . . . . a
        ";
    let captured = assert_move(
        drawn,
        Side::Defenders,
        "g7-g8",
        "
        9  . . . . . . . . .
        8  . . . . . . K . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . a d a . . . .
        2  . . . . . . . . .
        1  . . . . . . . . a
        ",
    );
    assert!(captured.is_empty());
    let captured = assert_move(
        drawn,
        Side::Attackers,
        "i1-i2",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . a d a . . . .
        2  . . . . . . . . a
        1  . . . . . . . . .
        ",
    );
    assert!(captured.is_empty());
}

#[test]
fn r8_captures_only_next_to_the_landing_square() {
    let drawn = "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . a . . . . . .
        5  . . d . # . . . .
        4  a . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ";
    // Passing under c5 captures nothing ...
    let captured = assert_move(
        drawn,
        Side::Attackers,
        "a4-g4",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . a . . . . . .
        5  . . d . # . . . .
        4  . . . . . . a . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert!(captured.is_empty());
    // ... stopping there does.
    let captured = assert_move(
        drawn,
        Side::Attackers,
        "a4-c4",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . a . . . . . .
        5  . . . . # . . . .
        4  . . a . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert_eq!(captured, squares("c5"));
}

#[test]
fn r9_a_soldier_between_the_mover_and_a_friend_of_the_mover_is_captured() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . a d . . . . . .
        2  . . . . . . . . .
        1  . . . a . . . . .
        ",
        Side::Attackers,
        "d1-d3",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . a . a . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert_eq!(captured, squares("c3"));
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . d . .
        5  . . . . # . a . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . d . .
        ",
        Side::Defenders,
        "g1-g4",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . d . .
        5  . . . . # . . . .
        4  . . . . . . d . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert_eq!(captured, squares("g5"));
}

#[test]
fn r9_king_is_a_hammer() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . K . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . d a . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
        Side::Defenders,
        "f7-f3",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . d . K . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert_eq!(captured, squares("e3"));
}

#[test]
fn r9_king_is_an_anvil() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . K a . . . . .
        2  . . . . . . . . .
        1  . . . . d . . . .
        ",
        Side::Defenders,
        "e1-e3",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . K . d . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert_eq!(captured, squares("d3"));
}

#[test]
fn r9_the_edge_of_the_board_is_never_hostile() {
    // An attacker closes in on a defender standing on file a: nothing lies beyond a4.
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  d . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . a . . . . . . .
        ",
        Side::Attackers,
        "b1-b4",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  d a . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert!(captured.is_empty());
    // A defender closes in on an attacker standing on rank 1: nothing lies below d1.
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . d .
        1  . . . a . . . . .
        ",
        Side::Defenders,
        "h2-d2",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . d . . . . .
        1  . . . a . . . . .
        ",
    );
    assert!(captured.is_empty());
}

#[test]
fn r10_empty_castle_is_hostile_to_defenders() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . d # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . a . . . . . .
        ",
        Side::Attackers,
        "c1-c5",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . a . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert_eq!(captured, squares("d5"));
}

#[test]
fn r10_empty_castle_is_hostile_to_attackers_too() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # a . . .
        4  . . . . a . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . d . d . .
        ",
        Side::Defenders,
        "g1-g5",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . d . .
        4  . . . . a . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . d . . . .
        ",
    );
    assert_eq!(captured, squares("f5"));
    // And from below: e4 against the castle.
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # a . . .
        4  . . . . a . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . d . d . .
        ",
        Side::Defenders,
        "e1-e3",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # a . . .
        4  . . . . . . . . .
        3  . . . . d . . . .
        2  . . . . . . . . .
        1  . . . . . . d . .
        ",
    );
    assert_eq!(captured, squares("e4"));
}

#[test]
fn r10_empty_castle_is_hostile_on_the_11x11_board() {
    let captured = assert_move(
        "
        11  . . . . . . . . . . .
        10  . . . . . . . . . . .
         9  . . . . . . . . K . .
         8  . a . . . . . . . . .
         7  . . . . . d . . . . .
         6  . . . . . # . . . . .
         5  . . . . . . . . . . .
         4  . . . . . . . . . . .
         3  . . . . . . . . . . .
         2  . . . . . . . . . . .
         1  . . . . . . . . . . .
            a b c d e f g h i j k
        ",
        Side::Attackers,
        "b8-f8",
        "
        11  . . . . . . . . . . .
        10  . . . . . . . . . . .
         9  . . . . . . . . K . .
         8  . . . . . a . . . . .
         7  . . . . . . . . . . .
         6  . . . . . # . . . . .
         5  . . . . . . . . . . .
         4  . . . . . . . . . . .
         3  . . . . . . . . . . .
         2  . . . . . . . . . . .
         1  . . . . . . . . . . .
            a b c d e f g h i j k
        ",
    );
    assert_eq!(captured, squares("f7"));
}

#[test]
fn r10_occupied_castle_is_not_hostile() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . d K . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . a . . . . . .
        ",
        Side::Attackers,
        "c1-c5",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . a d K . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert!(captured.is_empty());
}

#[test]
fn r10_the_king_on_the_castle_still_captures_as_an_anvil() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . a K . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . d . . . . . .
        ",
        Side::Defenders,
        "c1-c5",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . d . K . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert_eq!(captured, squares("d5"));
}

#[test]
fn r11_one_move_captures_three_soldiers() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . a . . . .
        3  . . a d . d a . .
        2  . . . . d . . . .
        1  . . . . a . . . .
        ",
        Side::Attackers,
        "e4-e3",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . a . a . a . .
        2  . . . . . . . . .
        1  . . . . a . . . .
        ",
    );
    assert_eq!(captured, squares("d3 f3 e2"));
}

#[test]
fn r11_one_move_captures_against_pieces_and_the_empty_castle_together() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . a . . . K . .
        6  . . d . . . . . .
        5  a . . d # . . . .
        4  . . d . . . . . .
        3  . . a . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
        Side::Attackers,
        "a5-c5",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . a . . . K . .
        6  . . . . . . . . .
        5  . . a . # . . . .
        4  . . . . . . . . .
        3  . . a . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert_eq!(captured, squares("c6 d5 c4"));
}

#[test]
fn r11_the_captured_squares_returned_are_exactly_the_pieces_removed() {
    // Three attackers stand next to e3. d3 has a defender behind it, e4 the empty castle: both
    // go. f3 has a friend behind it: it stays.
    let before = "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . a . . . .
        3  . . d a . a a . .
        2  . . . . . . . . .
        1  . . . . d . . . .
        ";
    let captured = assert_move(
        before,
        Side::Defenders,
        "e1-e3",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . d . d a a . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert_eq!(captured, squares("d3 e4"));
    let position = position_from_diagram(before, Side::Defenders);
    assert_eq!(
        position.captures_of(mv("e1-e3")),
        captured,
        "captures_of agrees with play"
    );
}

#[test]
fn r12_the_king_is_not_captured_against_the_empty_castle_by_one_attacker() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . K # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . a . . . . . .
        ",
        Side::Attackers,
        "c1-c5",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . a K # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert!(captured.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Capturing the king, and winning (R13-R15)

#[test]
fn r13_king_on_the_castle_needs_four_attackers() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . a . . . .
        5  . . . a K a . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . a . . . .
        1  . . . . . . . . .
        ",
        Side::Attackers,
        "e2-e4",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . a . . . .
        5  . . . a # a . . .
        4  . . . . a . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert_eq!(captured, squares("e5"));
}

#[test]
fn r13_king_on_the_castle_is_safe_with_three_attackers() {
    for fourth in ["d", "."] {
        let before = format!(
            "
            9  . . . . . . . . .
            8  . . . . . . . . .
            7  . . . . . . . . .
            6  . . . . {fourth} . . . .
            5  . . . a K a . . .
            4  . . . . . . . . .
            3  . . . . . . . . .
            2  . . . . a . . . .
            1  . . . . . . . . .
            "
        );
        let after = format!(
            "
            9  . . . . . . . . .
            8  . . . . . . . . .
            7  . . . . . . . . .
            6  . . . . {fourth} . . . .
            5  . . . a K a . . .
            4  . . . . a . . . .
            3  . . . . . . . . .
            2  . . . . . . . . .
            1  . . . . . . . . .
            "
        );
        let captured = assert_move(&before, Side::Attackers, "e2-e4", &after);
        assert!(captured.is_empty(), "e6 holds `{fourth}`");
    }
}

#[test]
fn r13_king_next_to_castle_needs_three_attackers() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . a . . . . .
        5  . . a K # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . a . . . . .
        ",
        Side::Attackers,
        "d1-d4",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . a . . . . .
        5  . . a . # . . . .
        4  . . . a . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert_eq!(captured, squares("d5"));
    // The same below the castle, closed by the mover from the side.
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . a K . . . a
        3  . . . . a . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
        Side::Attackers,
        "i4-f4",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . a . a . . .
        3  . . . . a . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert_eq!(captured, squares("e4"));
}

#[test]
fn r13_king_next_to_castle_is_safe_between_two_attackers_in_line() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . a . . . . .
        5  . . . K # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . a . . . . .
        ",
        Side::Attackers,
        "d1-d4",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . a . . . . .
        5  . . . K # . . . .
        4  . . . a . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert!(captured.is_empty());
}

#[test]
fn r13_king_next_to_castle_is_safe_with_a_defender_on_the_third_side() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . a . . . . .
        5  . . d K # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . a . . . . .
        ",
        Side::Attackers,
        "d1-d4",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . a . . . . .
        5  . . d K # . . . .
        4  . . . a . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert!(captured.is_empty());
}

#[test]
fn r13_king_next_to_castle_needs_three_attackers_on_the_11x11_board() {
    let captured = assert_move(
        "
        11  . . . . . . . . . . .
        10  . . . . . . . . . . .
         9  . . . . . . . . . . .
         8  . . . . . a . . . . .
         7  . . . . a K . . . . a
         6  . . . . . # . . . . .
         5  . . . . . . . . . . .
         4  . . . . . . . . . . .
         3  . . . . . . . . . . .
         2  . . . . . . . . . . .
         1  . . . . . . . . . . .
            a b c d e f g h i j k
        ",
        Side::Attackers,
        "k7-g7",
        "
        11  . . . . . . . . . . .
        10  . . . . . . . . . . .
         9  . . . . . . . . . . .
         8  . . . . . a . . . . .
         7  . . . . a . a . . . .
         6  . . . . . # . . . . .
         5  . . . . . . . . . . .
         4  . . . . . . . . . . .
         3  . . . . . . . . . . .
         2  . . . . . . . . . . .
         1  . . . . . . . . . . .
            a b c d e f g h i j k
        ",
    );
    assert_eq!(captured, squares("f7"));
}

#[test]
fn r13_king_elsewhere_is_captured_by_two_attackers_in_line() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . a K . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . a . . . . .
        ",
        Side::Attackers,
        "d1-d7",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . a . a . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert_eq!(captured, squares("c7"));
}

#[test]
fn r13_two_attackers_at_right_angles_do_not_capture_the_king() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . a . . . . . .
        7  . . K . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . a . . . . .
        ",
        Side::Attackers,
        "d1-d7",
        "
        9  . . . . . . . . .
        8  . . a . . . . . .
        7  . . K a . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert!(captured.is_empty());
}

#[test]
fn r13_the_king_may_move_between_two_attackers() {
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . a . a . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . K . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
        Side::Defenders,
        "c4-c7",
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . a K a . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert!(captured.is_empty());
}

#[test]
fn r13_the_moving_attacker_must_be_one_of_the_two_in_line() {
    // The king stands between b7 and d7 (he moved there, safely). An attacker closing in from
    // above is not in line with another attacker: the king lives.
    let captured = assert_move(
        "
        9  . . . . . . . . .
        8  . . . . . . . . a
        7  . a K a . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
        Side::Attackers,
        "i8-c8",
        "
        9  . . . . . . . . .
        8  . . a . . . . . .
        7  . a K a . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert!(captured.is_empty());
}

#[test]
fn r13_a_captured_king_wins_the_game_for_the_attackers() {
    let position = position_from_diagram(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . a K . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . d . . . .
        2  . . . . . . . . .
        1  . . . a . . . . .
        ",
        Side::Attackers,
    );
    let (after, captured) = play_checked(&position, mv("d1-d7"));
    assert_eq!(captured, squares("c7"));
    assert_eq!(after.king(), None);
    assert_eq!(after.winner(), Some(Side::Attackers));
    assert_eq!(after.outcome(), Some(KING_CAPTURED));
    assert!(
        after.legal_moves().is_empty(),
        "the defenders' e3 may not move any more"
    );
    assert_eq!(after.count_legal_moves(), 0);
    let mut over = after;
    assert_eq!(
        over.play(mv("e3-e4")),
        Err(IllegalMoveError::GameOver(KING_CAPTURED))
    );
    assert_eq!(over, after, "a refused move leaves the position as it was");

    let mut game = Game::from_position(position);
    game.play(mv("d1-d7")).unwrap();
    assert_eq!(game.outcome(), Some(KING_CAPTURED));
    assert_eq!(
        game.play(mv("e3-e4")),
        Err(PlayError::GameOver(KING_CAPTURED))
    );
}

#[test]
fn r14_the_king_wins_on_any_edge_square() {
    let drawn = "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . K . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . a
        ";
    let position = position_from_diagram(drawn, Side::Defenders);
    for edge in ["c9", "a7", "i7", "c1"] {
        let m = mv(&format!("c7-{edge}"));
        let (after, captured) = play_checked(&position, m);
        assert!(captured.is_empty());
        assert_eq!(after.winner(), Some(Side::Defenders), "{m}");
        assert_eq!(after.outcome(), Some(KING_ESCAPED), "{m}");
        assert_eq!(after.count_legal_moves(), 0, "{m}: the game is over");
        assert!(
            !after.is_legal(mv("i1-i2")),
            "{m}: the attackers may not move"
        );
    }
    // One step short of the edge is no escape.
    let (after, _) = play_checked(&position, mv("c7-c8"));
    assert_eq!(after.outcome(), None);
}

#[test]
fn r14_the_king_escapes_and_captures_on_the_same_move() {
    let captured = assert_move(
        "
        9  d a . a d . . . .
        8  . . . . . . . . .
        7  . . K . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . a
        ",
        Side::Defenders,
        "c7-c9",
        "
        9  d . K . d . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . a
        ",
    );
    assert_eq!(captured, squares("b9 d9"));
    let mut game = Game::from_position(position_from_diagram(
        "
        9  d a . a d . . . .
        8  . . . . . . . . .
        7  . . K . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . a
        ",
        Side::Defenders,
    ));
    assert_eq!(game.play(mv("c7-c9")), Ok(squares("b9 d9")));
    assert_eq!(game.outcome(), Some(KING_ESCAPED));
}

#[test]
fn r14_a_defending_soldier_on_the_edge_wins_nothing() {
    let position = position_from_diagram(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . d . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . a
        ",
        Side::Defenders,
    );
    let (after, _) = play_checked(&position, mv("d3-d1"));
    assert_eq!(after.outcome(), None);
    assert_eq!(after.winner(), None);
}

#[test]
fn r15_one_attacker_move_captures_a_soldier_and_the_king() {
    let captured = assert_move(
        "
        9  . . . a . . . . .
        8  . . . d . . . . .
        7  . a K . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . a . . . . .
        ",
        Side::Attackers,
        "d1-d7",
        "
        9  . . . a . . . . .
        8  . . . . . . . . .
        7  . a . a . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
    );
    assert_eq!(captured, squares("c7 d8"));
}

// ---------------------------------------------------------------------------------------------
// Draws (R16-R18)

fn play_all(game: &mut Game, moves: &str) {
    for text in moves.split_whitespace() {
        assert_eq!(
            game.outcome(),
            None,
            "the game ended before {text} ({:?})",
            game.outcome()
        );
        let captured = game
            .play(mv(text))
            .unwrap_or_else(|e| panic!("{text}: {e}\n{}", show(game.position())));
        assert!(captured.is_empty(), "{text} captured {captured:?}");
    }
}

#[test]
fn r16_second_occurrence_draws() {
    let mut game = Game::new(&Variant::tablut());
    play_all(&mut game, "e2-h2 e3-h3 h2-e2");
    assert_eq!(game.outcome(), None);
    assert_eq!(game.repetitions(), 1);
    play_all(&mut game, "h3-e3");
    assert_eq!(game.position(), &Position::tablut());
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    assert!(game.legal_moves().is_empty());
    assert_eq!(
        game.play(mv("e2-h2")),
        Err(PlayError::GameOver(Outcome::Draw(DrawReason::Repetition)))
    );
    // Taking the move back takes the draw back.
    game.undo();
    assert_eq!(game.outcome(), None);
}

#[test]
fn r16_repetition_reached_through_a_different_move_order() {
    // After ply 3 the attackers stand on h2 and h8, a defender on h3, defenders to move. The
    // game returns there at ply 7, with the two attacker moves made in the other order.
    let mut game = Game::new(&Variant::tablut());
    play_all(&mut game, "e2-h2 e3-h3 e8-h8");
    let first = *game.position();
    play_all(&mut game, "h3-e3 h2-e2 e3-h3");
    assert_eq!(game.outcome(), None, "no position has repeated yet");
    play_all(&mut game, "e2-h2");
    assert_eq!(game.position(), &first);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn r16_the_same_placement_with_the_other_side_to_move_is_no_repetition() {
    // The attacker on e2 goes round e2-g2-h2-e2 in three moves while a defender goes there and
    // back in two: the start placement returns with the defenders to move.
    let mut game = Game::new(&Variant::tablut());
    play_all(&mut game, "e2-g2 e3-h3 g2-h2 h3-e3 h2-e2");
    let position = game.position();
    assert_eq!(position.occupied(), Position::tablut().occupied());
    assert_eq!(position.side_to_move(), Side::Defenders);
    assert_eq!(game.repetitions(), 1);
    assert_eq!(game.outcome(), None);
}

#[test]
fn r16_repetitions_count_from_the_set_up_position() {
    let start = position_from_diagram(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . a . . . . . .
        ",
        Side::Attackers,
    );
    let mut game = Game::from_position(start);
    play_all(&mut game, "c1-c2 g7-g6 c2-c1");
    assert_eq!(game.outcome(), None);
    play_all(&mut game, "g6-g7");
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn r17_side_to_move_without_a_legal_move_draws() {
    // The attacker from h7 closes the last gap: neither the king nor the defender on e6 can move.
    // (The defender on e6 is not captured: the occupied castle is not hostile, R10.)
    let position = position_from_diagram(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . a .
        6  . . . a d a . . .
        5  . . . a K a . . .
        4  . . . . a . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
        Side::Attackers,
    );
    let (after, captured) = play_checked(&position, mv("h7-e7"));
    assert!(captured.is_empty());
    assert_eq!(after.count_legal_moves(), 0, "{}", show(&after));
    assert!(after.legal_moves().is_empty());
    assert_eq!(after.winner(), None);
    assert_eq!(
        after.outcome(),
        Some(Outcome::Draw(DrawReason::NoLegalMoves))
    );

    let mut game = Game::from_position(position);
    game.play(mv("h7-e7")).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(DrawReason::NoLegalMoves))
    );
    assert!(game.legal_moves().is_empty());
}

#[test]
fn r17_attackers_without_pieces_draw() {
    let position = position_from_diagram(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . . K . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . .
        ",
        Side::Attackers,
    );
    assert_eq!(
        position.outcome(),
        Some(Outcome::Draw(DrawReason::NoLegalMoves))
    );
    assert_eq!(
        position.with_side_to_move(Side::Defenders).outcome(),
        None,
        "the king alone can move"
    );
}

#[test]
fn r18_the_players_may_agree_to_a_draw() {
    let mut game = Game::new(&Variant::tawlbwrdd());
    game.play(mv("e2-c2")).unwrap();
    game.agree_draw();
    let agreed = Some(Outcome::Draw(DrawReason::Agreement));
    assert_eq!(game.outcome(), agreed);
    assert!(game.legal_moves().is_empty());
    assert_eq!(
        game.play(mv("f4-h4")),
        Err(PlayError::GameOver(Outcome::Draw(DrawReason::Agreement)))
    );
    // The board itself is not drawn.
    assert_eq!(game.position().outcome(), None);
}

#[test]
fn r18_no_agreement_once_the_game_is_won() {
    let mut game = Game::from_position(position_from_diagram(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . K . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . a
        ",
        Side::Defenders,
    ));
    game.play(mv("c7-c9")).unwrap();
    game.agree_draw();
    assert_eq!(game.outcome(), Some(KING_ESCAPED));
}

// ---------------------------------------------------------------------------------------------
// Perft (P1)

/// P1 word for word: no bulk counting, each move played with `play` (which checks legality).
fn perft_by_definition(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    position
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut next = *position;
            next.play(m).expect("a generated move is legal");
            perft_by_definition(&next, depth - 1)
        })
        .sum()
}

#[test]
fn p1_perft_is_the_sum_over_the_legal_moves() {
    let position = position_from_diagram(
        "
        9  . . . a . . . . .
        8  . . . d . . . . .
        7  . a K . . . d . .
        6  . . . . . . . . .
        5  a . . d # . . . .
        4  . . d . . . . . a
        3  . . a . . . . . .
        2  . . . . . . a . .
        1  . . . a . . . . .
        ",
        Side::Attackers,
    );
    for depth in 0..=3 {
        assert_eq!(
            perft::perft(&position, depth),
            perft_by_definition(&position, depth),
            "depth {depth}"
        );
    }
    assert_eq!(perft::perft(&Position::tablut(), 0), 1);
}

#[test]
fn p1_a_won_position_counts_one_at_depth_zero_and_nothing_below() {
    let escaped = position_from_diagram(
        "
        9  . . K . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . a
        ",
        Side::Attackers,
    );
    let captured = position_from_diagram(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . d . . . .
        2  . . . . . . . . .
        1  . . . . . . . . a
        ",
        Side::Defenders,
    );
    for won in [escaped, captured] {
        assert_eq!(perft::perft(&won, 0), 1);
        for depth in 1..=3 {
            assert_eq!(perft::perft(&won, depth), 0, "{}", show(&won));
            assert_eq!(perft::perft_without_bulk(&won, depth), 0);
        }
    }
}

/// Move paths of `depth` plies that a `Game` lets be played: it stops at a draw by repetition.
fn game_paths(game: &Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    game.legal_moves()
        .iter()
        .map(|&m| {
            let mut next = game.clone();
            next.play(m).expect("a legal move of the game");
            game_paths(&next, depth - 1)
        })
        .sum()
}

#[test]
fn p1_perft_ignores_repetition() {
    // A king and an attacker on a 5x5 board: they can shuffle back to the start in four plies,
    // which a game calls drawn (R16). Perft goes on counting after that.
    let position = position_from_diagram(
        "
        5  . . . . .
        4  . . . K .
        3  . . # . .
        2  . . . . .
        1  a . . . .
           a b c d e
        ",
        Side::Attackers,
    );
    let game = Game::from_position(position);
    assert_eq!(
        game_paths(&game, 4),
        perft::perft(&position, 4),
        "no draw before ply 4"
    );
    let perft5 = perft::perft(&position, 5);
    assert_eq!(perft5, perft_by_definition(&position, 5));
    assert!(
        game_paths(&game, 5) < perft5,
        "some 5-ply paths pass a repetition at ply 4, and perft counts them"
    );
}

#[test]
fn r18_undo_after_an_agreement_takes_back_only_the_agreement() {
    let mut game = Game::new(&Variant::tablut());
    game.play(mv("e2-h2")).unwrap();
    let before = game.clone();
    game.agree_draw();
    game.undo();
    assert_eq!(game, before, "the move e2-h2 should still be on the board");
    assert_eq!(game.outcome(), None);
    assert_eq!(
        game.undo(),
        Some(mv("e2-h2")),
        "the next undo takes back the move"
    );
}

// ---------------------------------------------------------------------------------------------
// Rule choices of other tafl games, which the engine plays from a rules string (RuleFlags,
// RepetitionRule): each flag changes exactly the rule it names.

fn rules_with(flags: RuleFlags, repetition: RepetitionRule) -> Rules {
    Rules::new(9, flags, repetition).unwrap()
}

const KING_HAMMER_BOARD: &str = "
    9  . . . . . . . . .
    8  . . . . . . . . .
    7  . . . . . K . . .
    6  . . . . . . . . .
    5  . . . . # . . . .
    4  . . . . . . . . .
    3  . . . d a . . . .
    2  . . . . . . . . .
    1  . . . . . . . . .
    ";
const KING_ANVIL_BOARD: &str = "
    9  . . . . . . . . .
    8  . . . . . . . . .
    7  . . . . . . . . .
    6  . . . . . . . . .
    5  . . . . # . . . .
    4  . . . . . . . . .
    3  . . K a . . . . .
    2  . . . . . . . . .
    1  . . . . d . . . .
    ";

fn captures_under(rules: Rules, board: &str, side: Side, m: &str) -> tafl_engine::Bitboard {
    let position = position_from_diagram_with_rules(board, rules, side);
    play_checked(&position, mv(m)).1
}

#[test]
fn r9_with_the_king_unarmed_he_is_neither_hammer_nor_anvil() {
    let second = RepetitionRule::SecondOccurrenceDraws;
    let standard = RuleFlags::STANDARD;
    let cases = [
        (standard, "e3", "d3"),
        (standard - RuleFlags::KING_HAMMER, "", "d3"),
        (standard - RuleFlags::KING_ANVIL, "e3", ""),
        (
            standard - RuleFlags::KING_HAMMER - RuleFlags::KING_ANVIL,
            "",
            "",
        ),
    ];
    for (flags, as_hammer, as_anvil) in cases {
        let rules = rules_with(flags, second);
        let hammer = captures_under(rules, KING_HAMMER_BOARD, Side::Defenders, "f7-f3");
        assert_eq!(hammer, squares(as_hammer), "king as hammer under {flags:?}");
        let anvil = captures_under(rules, KING_ANVIL_BOARD, Side::Defenders, "e1-e3");
        assert_eq!(anvil, squares(as_anvil), "king as anvil under {flags:?}");
    }
}

#[test]
fn r10_the_empty_castle_can_be_hostile_to_one_side_only() {
    // An attacker lands on c5 next to the defender on d5; a defender lands on g5 next to the
    // attacker on f5. Each is captured only where the castle is hostile to its side.
    let board = "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . d # a . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . a . . . d . .
        ";
    let second = RepetitionRule::SecondOccurrenceDraws;
    let standard = RuleFlags::STANDARD;
    let cases = [
        (standard, "d5", "f5"),
        (
            standard - RuleFlags::EMPTY_CASTLE_HOSTILE_TO_DEFENDERS,
            "",
            "f5",
        ),
        (
            standard - RuleFlags::EMPTY_CASTLE_HOSTILE_TO_ATTACKERS,
            "d5",
            "",
        ),
    ];
    for (flags, defender_taken, attacker_taken) in cases {
        let rules = rules_with(flags, second);
        let by_attackers = captures_under(rules, board, Side::Attackers, "c1-c5");
        assert_eq!(by_attackers, squares(defender_taken), "under {flags:?}");
        let by_defenders = captures_under(rules, board, Side::Defenders, "g1-g5");
        assert_eq!(by_defenders, squares(attacker_taken), "under {flags:?}");
    }
}

#[test]
fn r16_other_repetition_rules_draw_on_the_third_occurrence_or_never() {
    let board = "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . a . . . . . .
        ";
    let shuffle = "c1-c2 g7-g6 c2-c1 g6-g7";
    for (repetition, drawn_after) in [
        (RepetitionRule::SecondOccurrenceDraws, Some(1)),
        (RepetitionRule::ThirdOccurrenceDraws, Some(2)),
        (RepetitionRule::Ignored, None),
    ] {
        let rules = rules_with(RuleFlags::STANDARD, repetition);
        let mut game = Game::from_position(position_from_diagram_with_rules(
            board,
            rules,
            Side::Attackers,
        ));
        for round in 1..=3 {
            play_all(&mut game, shuffle);
            let expected = match drawn_after {
                Some(n) if round >= n => Some(Outcome::Draw(DrawReason::Repetition)),
                _ => None,
            };
            assert_eq!(
                game.outcome(),
                expected,
                "{repetition:?} after round {round}"
            );
            assert_eq!(game.repetitions(), round + 1);
            if expected.is_some() {
                break;
            }
        }
    }
}
