//! Tests of the Ashton Tablut reference (`tests/common/reference_ashton.rs`) itself, on hand-drawn
//! boards, one test per clause of the Tablut Challenge server's rules. Every expected result was
//! derived by reading the server's Java (`GameAshtonTablut.java`, `StateTablut.java`,
//! `State.java`, `Server.java`), not by running anything. This file does not use `tafl_engine`.

use crate::common::reference;

use crate::common::reference_ashton;

use std::collections::BTreeSet;

use reference::Cell;
use reference_ashton::{AshtonBoard, AshtonOutcome, MoveError, START_RECORD, Xy};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// Square name to (x, y): "a1" -> (0, 0), "i9" -> (8, 8).
fn sq(name: &str) -> Xy {
    let bytes = name.as_bytes();
    let x = usize::from(bytes[0] - b'a');
    let y: usize = name[1..].parse::<usize>().expect("rank") - 1;
    (x, y)
}

fn squares(names: &[&str]) -> BTreeSet<Xy> {
    names.iter().map(|n| sq(n)).collect()
}

/// A board drawn rank 9 at the top, file a on the left: `.` empty, `+` the empty throne (e5
/// only), `b` black, `w` white soldier, `K` the king. Goes through `from_record`.
fn diagram(picture: &str, white_to_move: bool) -> AshtonBoard {
    let rows: Vec<Vec<char>> = picture
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| {
            l.split_whitespace()
                .map(|t| t.chars().next().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), 9, "nine ranks");
    let mut record = String::from("/");
    for (y, row) in rows.iter().rev().enumerate() {
        assert_eq!(row.len(), 9, "rank {} has nine squares", y + 1);
        let mut run = 0;
        for (x, &c) in row.iter().enumerate() {
            let letter = match c {
                '.' => None,
                '+' => {
                    assert_eq!((x, y), (4, 4), "'+' is e5");
                    None
                }
                'b' => Some('t'),
                'w' => Some('T'),
                'K' => Some('K'),
                other => panic!("bad diagram character {other:?}"),
            };
            match letter {
                None => run += 1,
                Some(l) => {
                    if run > 0 {
                        record.push_str(&run.to_string());
                        run = 0;
                    }
                    record.push(l);
                }
            }
        }
        if run > 0 {
            record.push_str(&run.to_string());
        }
        record.push('/');
    }
    AshtonBoard::from_record(&record, white_to_move)
        .unwrap_or_else(|e| panic!("diagram did not parse: {e}\n{record}"))
}

fn at(board: &AshtonBoard, name: &str) -> Cell {
    board.get(sq(name))
}

fn is_legal(board: &AshtonBoard, from: &str, to: &str) -> bool {
    board.legal_moves().contains(&(sq(from), sq(to)))
}

fn check(board: &AshtonBoard, from: &str, to: &str) -> Result<(), MoveError> {
    board.check_move(sq(from), sq(to))
}

fn moves_from(board: &AshtonBoard, from: &str) -> BTreeSet<Xy> {
    board
        .legal_moves()
        .into_iter()
        .filter(|&(f, _)| f == sq(from))
        .map(|(_, t)| t)
        .collect()
}

/// Plays a move that must be legal; returns the captured squares.
fn play(board: &mut AshtonBoard, from: &str, to: &str) -> BTreeSet<Xy> {
    assert!(
        is_legal(board, from, to),
        "{from}-{to} should be legal in {}: {:?}",
        board.record(),
        check(board, from, to)
    );
    let white = board.white_to_move;
    let captured = board.play((sq(from), sq(to)));
    assert_ne!(board.white_to_move, white, "the turn passes");
    captured
}

// ---------------------------------------------------------------------------------------------
// The start (StateTablut, Server case 4)
// ---------------------------------------------------------------------------------------------

#[test]
fn start_is_state_tablut_with_white_to_move() {
    let b = AshtonBoard::start();
    assert!(b.white_to_move);
    assert_eq!(b.record(), START_RECORD);
    assert_eq!(at(&b, "e5"), Cell::King);
    for w in ["e3", "e4", "e6", "e7", "c5", "d5", "f5", "g5"] {
        assert_eq!(at(&b, w), Cell::Defender, "{w}");
    }
    for camp in reference_ashton::CITADELS {
        assert_eq!(at(&b, camp), Cell::Attacker, "{camp}");
    }
    let pieces = b.cells.iter().filter(|&&c| c != Cell::Empty).count();
    assert_eq!(pieces, 25);
    assert!(
        b.draw_cache.is_empty(),
        "the start state is not in the cache"
    );
    assert_eq!(b.outcome(), None);
}

#[test]
fn start_has_56_white_moves_and_the_king_none() {
    let b = AshtonBoard::start();
    // e4/e6/d5/f5: 3 + 3 each (a camp ends the line); e3/e7/c5/g5: 4 + 4 each.
    assert_eq!(b.legal_moves().len(), 56);
    assert_eq!(b.perft(1), 56);
    assert!(moves_from(&b, "e5").is_empty());
    assert_eq!(
        moves_from(&b, "e4"),
        squares(&["b4", "c4", "d4", "f4", "g4", "h4"])
    );
    assert_eq!(
        moves_from(&b, "e3"),
        squares(&["a3", "b3", "c3", "d3", "f3", "g3", "h3", "i3"])
    );
    assert_eq!(
        moves_from(&b, "c5"),
        squares(&["c1", "c2", "c3", "c4", "c6", "c7", "c8", "c9"])
    );
    // No black move while White is to move.
    assert!(moves_from(&b, "a4").is_empty());
}

#[test]
fn black_at_the_start_moves_out_of_its_camps() {
    let mut b = AshtonBoard::start();
    play(&mut b, "e3", "d3");
    assert!(!b.white_to_move);
    // a4: down a3 a2 a1 (no camp); right b4 c4 d4 (e4 is white); up a5 occupied.
    assert_eq!(
        moves_from(&b, "a4"),
        squares(&["a1", "a2", "a3", "b4", "c4", "d4"])
    );
    // e2: left d2 c2 b2 a2, right f2 g2 h2 i2, up e3 (emptied), not e4 (white).
    assert_eq!(
        moves_from(&b, "e2"),
        squares(&["a2", "b2", "c2", "d2", "f2", "g2", "h2", "i2", "e3"])
    );
}

// ---------------------------------------------------------------------------------------------
// checkMove: move validation
// ---------------------------------------------------------------------------------------------

#[test]
fn moves_slide_along_ranks_and_files_without_jumping() {
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        . w . . b . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    assert_eq!(
        moves_from(&b, "b3"),
        squares(&["a3", "c3", "d3", "b1", "b2", "b4"])
    );
    assert_eq!(check(&b, "b3", "f3"), Err(MoveError::Climbing));
    assert_eq!(check(&b, "b3", "e3"), Err(MoveError::Occupied));
    assert_eq!(check(&b, "b3", "c4"), Err(MoveError::Diagonal));
    assert_eq!(check(&b, "e3", "f3"), Err(MoveError::Pawn), "White to move");
    assert_eq!(
        check(&b, "c3", "c4"),
        Err(MoveError::Pawn),
        "an empty square"
    );
    assert_eq!(
        check(&b, "b3", "b3"),
        Err(MoveError::Occupied),
        "own square"
    );
    assert_eq!(b.check_move(sq("b3"), (9, 2)), Err(MoveError::Board));
}

#[test]
fn the_king_moves_like_a_soldier() {
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . K . . . . . .
        . . . . . . . . .
        . . . . . . . . b
        ",
        true,
    );
    assert_eq!(
        moves_from(&b, "c3"),
        squares(&[
            "a3", "b3", "d3", "e3", "f3", "g3", "h3", "i3", "c1", "c2", "c4", "c5", "c6", "c7",
            "c8", "c9"
        ])
    );
}

#[test]
fn the_empty_throne_blocks_passage_and_landing() {
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . w . + . . . .
        . . . . . . . . .
        . . . . w . . . .
        . . . . . . . . .
        . . . . . . K . .
        ",
        true,
    );
    // c5 to the right: d5, then the throne.
    assert_eq!(check(&b, "c5", "d5"), Ok(()));
    assert_eq!(check(&b, "c5", "e5"), Err(MoveError::Throne));
    assert_eq!(check(&b, "c5", "f5"), Err(MoveError::Climbing));
    assert_eq!(check(&b, "c5", "g5"), Err(MoveError::Climbing));
    // e3 upwards: e4 only.
    assert!(is_legal(&b, "e3", "e4"));
    assert_eq!(check(&b, "e3", "e5"), Err(MoveError::Throne));
    assert_eq!(check(&b, "e3", "e6"), Err(MoveError::Climbing));
}

#[test]
fn the_king_leaves_the_throne_and_cannot_return() {
    let mut b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . b . . . . . . .
        ",
        true,
    );
    assert!(is_legal(&b, "e5", "e3"));
    assert!(is_legal(&b, "e5", "c5"));
    // e5-e2 would land on a camp; e5-a5 would cross b5 (camp) and land on a5 (camp).
    assert_eq!(check(&b, "e5", "e2"), Err(MoveError::Citadel));
    assert_eq!(check(&b, "e5", "b5"), Err(MoveError::Citadel));
    assert_eq!(check(&b, "e5", "c5"), Ok(()));
    play(&mut b, "e5", "e4");
    assert_eq!(at(&b, "e5"), Cell::Empty, "the throne (THRONE in the Java)");
    play(&mut b, "b1", "b2");
    assert_eq!(check(&b, "e4", "e5"), Err(MoveError::Throne));
    assert_eq!(check(&b, "e4", "e6"), Err(MoveError::Climbing));
}

#[test]
fn no_piece_from_outside_the_camps_enters_or_crosses_a_camp() {
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        . w . . . . . . .
        . . b . . . . . .
        . . . . . . . . .
        ",
        false,
    );
    // The black soldier on c2 is outside the camps: e2 is a camp.
    assert_eq!(
        moves_from(&b, "c2"),
        squares(&[
            "a2", "b2", "d2", "c1", "c3", "c4", "c5", "c6", "c7", "c8", "c9"
        ])
    );
    assert_eq!(check(&b, "c2", "e2"), Err(MoveError::Citadel));
    assert_eq!(check(&b, "c2", "f2"), Err(MoveError::ClimbingCitadel));
    // White on b3: b4 yes, b5 is a camp, b6 beyond it.
    let w = AshtonBoard {
        white_to_move: true,
        ..b.clone()
    };
    assert!(is_legal(&w, "b3", "b4"));
    assert_eq!(check(&w, "b3", "b5"), Err(MoveError::Citadel));
    assert_eq!(check(&w, "b3", "b6"), Err(MoveError::ClimbingCitadel));
    // The king enters no camp either.
    assert_eq!(check(&w, "e5", "a5"), Err(MoveError::Citadel));
}

#[test]
fn a_black_soldier_that_left_its_camp_cannot_return() {
    let mut b = AshtonBoard::start();
    play(&mut b, "e3", "d3");
    play(&mut b, "a4", "a3");
    play(&mut b, "d3", "e3");
    assert_eq!(check(&b, "a3", "a4"), Err(MoveError::Citadel));
    assert!(!moves_from(&b, "a3").contains(&sq("a4")));
}

#[test]
fn a_black_soldier_in_its_camp_moves_within_and_through_camp_squares() {
    // Quirk: a piece starting on a camp may pass over camp squares and land on one.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . b . . . . .
        ",
        false,
    );
    assert_eq!(
        moves_from(&b, "d1"),
        squares(&[
            "a1", "b1", "c1", "e1", "f1", "g1", "h1", "i1", "d2", "d3", "d4", "d5", "d6", "d7",
            "d8"
        ])
    );
}

#[test]
fn camp_to_camp_moves_are_limited_to_five_squares() {
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        b . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . b . . . . .
        ",
        false,
    );
    // a4 to i4: camp to camp, 8 squares.
    assert_eq!(check(&b, "a4", "i4"), Err(MoveError::Citadel));
    assert_eq!(check(&b, "a4", "h4"), Ok(()));
    // Within the camp: a4-a5 (1), a4-a6 (2, over a5).
    assert_eq!(check(&b, "a4", "a5"), Ok(()));
    assert_eq!(check(&b, "a4", "a6"), Ok(()));
    // d1 to d9: 8 squares; d8 is fine.
    assert_eq!(check(&b, "d1", "d9"), Err(MoveError::Citadel));
    assert_eq!(check(&b, "d1", "d8"), Ok(()));
}

// ---------------------------------------------------------------------------------------------
// checkCaptureWhite: captures made by a White move
// ---------------------------------------------------------------------------------------------

#[test]
fn white_captures_a_black_soldier_between_two_white_pieces() {
    let mut b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . w b . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        . . . w . . . . .
        . . . . . . . . .
        . . . . . . . b .
        ",
        true,
    );
    let captured = play(&mut b, "d3", "d7");
    assert_eq!(captured, squares(&["c7"]));
    assert_eq!(at(&b, "c7"), Cell::Empty);
    assert_eq!(b.outcome(), None);
}

#[test]
fn a_black_soldier_moving_between_two_white_pieces_is_safe() {
    let mut b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . w . w . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        . . b . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        false,
    );
    assert!(play(&mut b, "c3", "c7").is_empty());
    assert_eq!(at(&b, "c7"), Cell::Attacker);
}

#[test]
fn the_king_captures_and_is_an_anvil_for_white() {
    // The king as the moving piece.
    let mut b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . w b . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . K . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    assert_eq!(play(&mut b, "d3", "d7"), squares(&["c7"]));
    // The king as the far piece.
    let mut b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . K b . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . w . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    assert_eq!(play(&mut b, "d3", "d7"), squares(&["c7"]));
}

#[test]
fn the_throne_is_hostile_to_black_empty_or_with_the_king() {
    let mut empty = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . b + . . . .
        . . . . . . . . .
        . . w . . . . . .
        . . . . . . . . .
        . . . . . . . . K
        ",
        true,
    );
    assert_eq!(play(&mut empty, "c3", "c5"), squares(&["d5"]));
    let mut occupied = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . b K . . . .
        . . . . . . . . .
        . . w . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    assert_eq!(play(&mut occupied, "c3", "c5"), squares(&["d5"]));
}

#[test]
fn camps_are_hostile_to_black_occupied_or_not_but_not_the_four_middle_squares() {
    // d2 against d1 (a camp, not a middle square): taken, d1 empty or black (quirk: the camp
    // counts whatever stands on it).
    for d1 in [".", "b"] {
        let mut b = diagram(
            &format!(
                "
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . . . . . .
                . . . . K . . . .
                . . . . . . . . .
                w . . . . . . . .
                . . . b . . . . .
                . . . {d1} . . . . .
                "
            ),
            true,
        );
        assert_eq!(play(&mut b, "a3", "d3"), squares(&["d2"]), "d1 = {d1}");
    }
    // b4 against a4: taken.
    let mut b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . b . . . . . . .
        . . w . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    assert_eq!(play(&mut b, "c3", "c4"), squares(&["b4"]));
    // The middle camp squares a5, e1, i5, e9 are not hostile to black: b5 (itself a camp square)
    // against a5, e2 against e1, h5 against i5, e8 against e9.
    let start = diagram(
        "
        . . . . . . . . .
        . . w . b . . . .
        . . . . . w . . .
        . . . . . . . . .
        . b . . K . . b .
        . . . . . . . . .
        . . . w . . . . .
        . . . . b . . . .
        . . . . . . w . .
        ",
        true,
    );
    let mut b = start.clone();
    assert!(play(&mut b, "d3", "e3").is_empty(), "e2 against e1");
    let mut b = start.clone();
    assert!(play(&mut b, "f7", "e7").is_empty(), "e8 against e9");
    let mut b = start.clone();
    assert!(play(&mut b, "c8", "c5").is_empty(), "b5 against a5");
    let mut b = start.clone();
    assert!(play(&mut b, "g1", "g5").is_empty(), "h5 against i5");
}

#[test]
fn a_black_soldier_on_a_camp_square_can_be_taken() {
    let b = diagram(
        "
        . . . . . . . . .
        . . w . . . . . .
        . . . . . . . . .
        . w . . . . . . .
        . b . . K . . . .
        . . . . . . w . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    // g4-b4: b5 (a camp square) between b4 and b6.
    let mut vertical = b.clone();
    assert_eq!(play(&mut vertical, "g4", "b4"), squares(&["b5"]));
    // c8-c5: b5 between c5 and a5, a middle camp square: not taken.
    let mut horizontal = b.clone();
    assert!(play(&mut horizontal, "c8", "c5").is_empty());
}

#[test]
fn the_edge_is_not_hostile_to_black() {
    // b1 between c1 and a1 (empty, not a camp); a2 on the edge next to b2.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        . . w . . . . . .
        b . w . . . . . .
        . b . . . . . . .
        ",
        true,
    );
    let mut down = b.clone();
    assert!(play(&mut down, "c2", "c1").is_empty());
    let mut left = b.clone();
    assert!(play(&mut left, "c2", "b2").is_empty());
}

#[test]
fn one_white_move_captures_in_several_directions() {
    let mut b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . w . .
        . . . . K . b . .
        . . . . w b . b .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . w . .
        ",
        true,
    );
    // f4 against e4 (white), g5 against g6 (white), h4 against the empty camp square i4.
    assert_eq!(play(&mut b, "g1", "g4"), squares(&["f4", "g5", "h4"]));
}

#[test]
fn a_king_on_an_edge_wins_for_white_after_the_moves_captures() {
    let mut b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . K . . . . . .
        . . . . . . . . .
        w b . . . . . . .
        ",
        true,
    );
    assert_eq!(play(&mut b, "c3", "c1"), squares(&["b1"]));
    assert_eq!(b.outcome(), Some(AshtonOutcome::WhiteWin));
    assert!(b.legal_moves().is_empty());
    // A white soldier on an edge wins nothing.
    let mut b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        . . w . . . . . .
        . . . . . . . . .
        . . . . . . . . b
        ",
        true,
    );
    play(&mut b, "c3", "c1");
    assert_eq!(b.outcome(), None);
}

// ---------------------------------------------------------------------------------------------
// checkCaptureBlack: captures made by a Black move
// ---------------------------------------------------------------------------------------------

#[test]
fn black_captures_a_white_soldier_between_two_black_soldiers() {
    let picture = |b3: &str| {
        format!(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . b . . . . .
            . . . . . . . . .
            . . . . K . . . .
            . . . . . . . . .
            . {b3} w . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            "
        )
    };
    let mut b = diagram(&picture("b"), false);
    assert_eq!(play(&mut b, "d7", "d3"), squares(&["c3"]));
    assert_eq!(at(&b, "c3"), Cell::Empty);
    // No capture when the far square is empty.
    let mut b = diagram(&picture("."), false);
    assert!(play(&mut b, "d7", "d3").is_empty());
}

#[test]
fn the_king_is_not_hostile_to_white_soldiers() {
    let mut b = diagram(
        "
        . . b . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . w . . . . . .
        . . K . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        false,
    );
    assert!(
        play(&mut b, "c9", "c5").is_empty(),
        "c4 between c5 and the king"
    );
}

#[test]
fn the_throne_is_hostile_to_white_even_with_the_king_on_it() {
    // Quirk: `checkCaptureBlackPawn*` tests the *name* "e5", not what is on it.
    let mut b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . w . . . .
        b . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        false,
    );
    assert_eq!(play(&mut b, "a3", "e3"), squares(&["e4"]));
    assert_eq!(at(&b, "e5"), Cell::King);
    // And with the throne empty.
    let mut b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . w + . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . b . . . . . .
        . . . . . . . . K
        ",
        false,
    );
    assert_eq!(play(&mut b, "c2", "c5"), squares(&["d5"]));
}

#[test]
fn every_camp_square_is_hostile_to_white_the_middle_ones_too() {
    // b4 against a4.
    let mut b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . w . . . . . . .
        . . . . . . . . .
        . . b . . . . . .
        . . . . . . . . .
        ",
        false,
    );
    assert_eq!(play(&mut b, "c2", "c4"), squares(&["b4"]));
    // A white soldier drawn on the camp square b5 (unreachable in a game) against a5.
    let mut b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . w . . K . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . b . . . . . .
        . . . . . . . . .
        ",
        false,
    );
    assert_eq!(play(&mut b, "c2", "c5"), squares(&["b5"]));
}

#[test]
fn the_edge_is_not_hostile_to_white() {
    let mut b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . w . . . b . . .
        ",
        false,
    );
    // f1 to c1: b1 between c1 and the empty a1 (not a camp).
    assert!(play(&mut b, "f1", "c1").is_empty());
}

// ---------------------------------------------------------------------------------------------
// checkCaptureBlackKing*: the king
// ---------------------------------------------------------------------------------------------

/// A board with the king on `king`, black soldiers on `blacks`, and a black soldier on `origin`
/// that moves to `target`; e5 empty unless the king is there. Black to move.
fn king_setup(king: &str, blacks: &[&str], origin: &str) -> AshtonBoard {
    let mut b = AshtonBoard::from_record("/9/9/9/9/9/9/9/9/9/", false).expect("empty board");
    let set = |b: &mut AshtonBoard, name: &str, c: Cell| {
        let (x, y) = sq(name);
        b.cells[y * 9 + x] = c;
    };
    set(&mut b, king, Cell::King);
    for black in blacks {
        set(&mut b, black, Cell::Attacker);
    }
    set(&mut b, origin, Cell::Attacker);
    // A white soldier far away, so that White is not without pieces.
    set(&mut b, "i9", Cell::Defender);
    b
}

/// The four (or fewer) squares next to `name`.
fn neighbours(name: &str) -> Vec<&'static str> {
    const ALL: [&str; 81] = [
        "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "a2", "b2", "c2", "d2", "e2", "f2",
        "g2", "h2", "i2", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "i3", "a4", "b4", "c4",
        "d4", "e4", "f4", "g4", "h4", "i4", "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "i5",
        "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6", "i6", "a7", "b7", "c7", "d7", "e7", "f7",
        "g7", "h7", "i7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8", "i8", "a9", "b9", "c9",
        "d9", "e9", "f9", "g9", "h9", "i9",
    ];
    let (x, y) = sq(name);
    ALL.iter()
        .copied()
        .filter(|n| {
            let (a, b) = sq(n);
            a.abs_diff(x) + b.abs_diff(y) == 1
        })
        .collect()
}

/// For a black soldier to land on `target`, an origin two squares away sideways (not along the
/// line from `king`), whose way is clear and outside the camps.
fn origin_for(target: &str, king: &str) -> String {
    let (tx, ty) = sq(target);
    let (kx, ky) = sq(king);
    let sideways: [(i64, i64); 2] = if tx == kx {
        [(1, 0), (-1, 0)]
    } else {
        [(0, 1), (0, -1)]
    };
    for (dx, dy) in sideways {
        let ox = tx as i64 + 2 * dx;
        let oy = ty as i64 + 2 * dy;
        let mx = tx as i64 + dx;
        let my = ty as i64 + dy;
        let name = |x: i64, y: i64| format!("{}{}", char::from(b'a' + x as u8), y + 1);
        let clear = |x: i64, y: i64| {
            (0..9).contains(&x)
                && (0..9).contains(&y)
                && (x, y) != (4, 4)
                && !reference_ashton::CITADELS.contains(&name(x, y).as_str())
                && (x, y) != (kx as i64, ky as i64)
        };
        if clear(ox, oy) && clear(mx, my) {
            return name(ox, oy);
        }
    }
    panic!("no origin for {target}");
}

#[test]
fn the_king_on_the_throne_is_captured_by_four_black_soldiers() {
    for mover in ["e4", "d5", "e6", "f5"] {
        let others: Vec<&str> = ["e4", "d5", "e6", "f5"]
            .into_iter()
            .filter(|&s| s != mover)
            .collect();
        let origin = origin_for(mover, "e5");
        let mut b = king_setup("e5", &others, &origin);
        let captured = play(&mut b, &origin, mover);
        assert!(captured.is_empty(), "the king is not removed");
        assert_eq!(at(&b, "e5"), Cell::King, "the king stays on the board");
        assert_eq!(b.outcome(), Some(AshtonOutcome::BlackWin), "mover {mover}");
        assert!(b.legal_moves().is_empty());
        // With one of the three others missing: no capture.
        for missing in &others {
            let fewer: Vec<&str> = others.iter().copied().filter(|s| s != missing).collect();
            let mut b = king_setup("e5", &fewer, &origin);
            play(&mut b, &origin, mover);
            assert_eq!(b.outcome(), None, "mover {mover}, {missing} empty");
        }
    }
}

#[test]
fn the_king_next_to_the_throne_is_captured_by_three_black_soldiers() {
    for king in ["e4", "d5", "e6", "f5"] {
        let sides: Vec<&str> = neighbours(king)
            .into_iter()
            .filter(|&s| s != "e5")
            .collect();
        assert_eq!(sides.len(), 3);
        for &mover in &sides {
            let others: Vec<&str> = sides.iter().copied().filter(|&s| s != mover).collect();
            let origin = origin_for(mover, king);
            let mut b = king_setup(king, &others, &origin);
            assert!(play(&mut b, &origin, mover).is_empty());
            assert_eq!(
                b.outcome(),
                Some(AshtonOutcome::BlackWin),
                "king {king}, mover {mover}"
            );
            assert_eq!(at(&b, king), Cell::King);
            // Two black soldiers (the mover and the one opposite) are not enough there.
            for missing in &others {
                let fewer: Vec<&str> = others.iter().copied().filter(|s| s != missing).collect();
                let mut b = king_setup(king, &fewer, &origin);
                play(&mut b, &origin, mover);
                assert_eq!(
                    b.outcome(),
                    None,
                    "king {king}, mover {mover}, {missing} empty"
                );
            }
        }
    }
}

#[test]
fn the_king_elsewhere_is_captured_between_two_black_soldiers() {
    // c3: the mover lands on c4 with black on c2; on d3 with black on b3.
    let mut b = king_setup("c3", &["c2"], "a4");
    play(&mut b, "a4", "c4");
    assert_eq!(b.outcome(), Some(AshtonOutcome::BlackWin));
    let mut b = king_setup("c3", &["b3"], "d1");
    // d1 is a camp: the soldier there moves up d2, d3.
    play(&mut b, "d1", "d3");
    assert_eq!(b.outcome(), Some(AshtonOutcome::BlackWin));
    // A lone black soldier next to him: nothing.
    let mut b = king_setup("c3", &[], "a4");
    play(&mut b, "a4", "c4");
    assert_eq!(b.outcome(), None);
    // Black on c2 but the mover lands on d3 (not in line with c2): nothing.
    let mut b = king_setup("c3", &["c2"], "d1");
    play(&mut b, "d1", "d3");
    assert_eq!(b.outcome(), None);
}

#[test]
fn the_king_elsewhere_is_captured_against_any_camp_square() {
    // d2 against d1, empty or held by a black soldier (quirk: any camp square counts).
    for d1 in [&[][..], &["d1"][..]] {
        let mut b = king_setup("d2", d1, "a3");
        play(&mut b, "a3", "d3");
        assert_eq!(b.outcome(), Some(AshtonOutcome::BlackWin), "{d1:?}");
    }
    // b4 against a4.
    let mut b = king_setup("b4", &[], "c7");
    play(&mut b, "c7", "c4");
    assert_eq!(b.outcome(), Some(AshtonOutcome::BlackWin));
    // e3 against e2 (the square just outside the throne's zone).
    let mut b = king_setup("e3", &[], "h4");
    play(&mut b, "h4", "e4");
    assert_eq!(b.outcome(), Some(AshtonOutcome::BlackWin));
}

#[test]
fn the_king_next_to_the_throne_is_not_captured_between_two_black_soldiers() {
    // King on e4, black on d4, the mover lands on f4: in line, but e4 is in the throne's zone,
    // where the two-sided rule does not apply (e3 must be black too).
    let mut b = king_setup("e4", &["d4"], "f7");
    play(&mut b, "f7", "f4");
    assert_eq!(b.outcome(), None);
}

#[test]
fn a_black_move_captures_soldiers_and_the_king_at_once() {
    // c7-c4: d4 (white) between c4 and e4, and the king on c3 between c4 and c2.
    let mut b = king_setup("c3", &["c2", "e4"], "c7");
    let (x, y) = sq("d4");
    b.cells[y * 9 + x] = Cell::Defender;
    assert_eq!(play(&mut b, "c7", "c4"), squares(&["d4"]));
    assert_eq!(b.outcome(), Some(AshtonOutcome::BlackWin));
    assert_eq!(at(&b, "c3"), Cell::King);
}

#[test]
fn a_white_move_never_captures_the_king_or_loses_it() {
    let mut b = king_setup("c3", &["c2", "c4"], "h8");
    b.white_to_move = true;
    b.cells[8 * 9 + 8] = Cell::Empty;
    b.cells[8 * 9 + 7] = Cell::Defender; // h9
    play(&mut b, "h9", "g9");
    assert_eq!(
        b.outcome(),
        None,
        "two black soldiers already around the king"
    );
    assert_eq!(at(&b, "c3"), Cell::King);
}

// ---------------------------------------------------------------------------------------------
// The draw cache
// ---------------------------------------------------------------------------------------------

#[test]
fn a_state_already_in_the_draw_cache_is_a_draw() {
    let mut b = AshtonBoard::start();
    play(&mut b, "c5", "c6");
    play(&mut b, "a4", "a3");
    play(&mut b, "c6", "c5");
    play(&mut b, "a3", "a2");
    play(&mut b, "c5", "c6");
    assert_eq!(b.outcome(), None);
    assert_eq!(b.draw_cache.len(), 5);
    // After a2-a3 the board and the turn are those after a4-a3.
    play(&mut b, "a2", "a3");
    assert_eq!(b.outcome(), Some(AshtonOutcome::Draw));
    assert!(b.legal_moves().is_empty());
}

#[test]
fn the_start_state_is_never_in_the_draw_cache() {
    let mut b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . b . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        . . w . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    let start = b.clone();
    play(&mut b, "c3", "c4");
    play(&mut b, "g7", "g6");
    play(&mut b, "c4", "c3");
    play(&mut b, "g6", "g7");
    assert_eq!(b.cells, start.cells);
    assert!(b.white_to_move);
    assert_eq!(b.outcome(), None, "back to the start: not a draw");
    play(&mut b, "c3", "c4");
    assert_eq!(
        b.outcome(),
        Some(AshtonOutcome::Draw),
        "the state after the first move"
    );
}

#[test]
fn a_capture_clears_the_draw_cache() {
    let mut b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . b . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        . w b . . . . . .
        . . . w . . . . .
        . . . . . . . . .
        ",
        true,
    );
    play(&mut b, "e5", "e6");
    play(&mut b, "g7", "g6");
    assert_eq!(b.draw_cache.len(), 2);
    assert_eq!(play(&mut b, "d2", "d3"), squares(&["c3"]));
    assert_eq!(
        b.draw_cache.len(),
        1,
        "cleared, then the state after the capture added"
    );
    assert_eq!(b.draw_cache[0].0, b.cells);
}

#[test]
fn the_same_board_with_the_other_side_to_move_is_not_a_repetition() {
    // State.equals compares the turn too.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . b . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        . . w . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    let mut after = b.clone();
    play(&mut after, "c3", "c4");
    let mut other_turn = b.clone();
    other_turn
        .draw_cache
        .push((after.cells.clone(), true, None));
    play(&mut other_turn, "c3", "c4");
    assert_eq!(other_turn.outcome(), None);
    let mut same_turn = b.clone();
    same_turn
        .draw_cache
        .push((after.cells.clone(), false, None));
    play(&mut same_turn, "c3", "c4");
    assert_eq!(same_turn.outcome(), Some(AshtonOutcome::Draw));
}

#[test]
fn a_winning_move_is_never_a_draw() {
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . b . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . K . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    let mut after = b.clone();
    play(&mut after, "c3", "c1");
    assert_eq!(after.outcome(), Some(AshtonOutcome::WhiteWin));
    let mut cached = b.clone();
    cached.draw_cache.push((after.cells.clone(), false, None));
    play(&mut cached, "c3", "c1");
    assert_eq!(cached.outcome(), Some(AshtonOutcome::WhiteWin));
}

// ---------------------------------------------------------------------------------------------
// A side with no legal move (the server: it times out and loses)
// ---------------------------------------------------------------------------------------------

#[test]
fn a_side_without_a_legal_move_loses() {
    let black_stuck = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        . . . . . . . . .
        w . . . . . . . .
        b w . . . . . . .
        ",
        false,
    );
    assert!(black_stuck.legal_moves().is_empty());
    assert_eq!(black_stuck.outcome(), Some(AshtonOutcome::WhiteWin));
    let white_stuck = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . b . . . .
        . . . b K b . . .
        . . . . b . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    assert!(white_stuck.legal_moves().is_empty());
    assert_eq!(white_stuck.outcome(), Some(AshtonOutcome::BlackWin));
    // Black with no piece at all (the Java's unimplemented "last black checker" win).
    let no_black = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        false,
    );
    assert_eq!(no_black.outcome(), Some(AshtonOutcome::WhiteWin));
}

// ---------------------------------------------------------------------------------------------
// Perft, records
// ---------------------------------------------------------------------------------------------

#[test]
fn perft_treats_a_won_game_as_a_leaf() {
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . b .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . . . . . . .
        . K . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    // King b2: a2 b1 (edges: wins), c2 d2 (e2 camp), b3 b4 (b5 camp).
    assert_eq!(
        moves_from(&b, "b2"),
        squares(&["a2", "b1", "c2", "d2", "b3", "b4"])
    );
    assert_eq!(b.perft(1), 6);
    let counts = b.perft_counts(2);
    assert_eq!(counts[0].leaves, 6);
    assert_eq!(counts[0].white_wins, 2);
    // Black's h8: g8 f8 (e8 camp), i8, h9, h7 h6 (h5 camp): 6 replies to each of the 4 others.
    assert_eq!(b.perft(2), 24);
    assert_eq!(counts[1].leaves, 24);
    assert_eq!(counts[1].black_wins, 0);
}

#[test]
fn perft_ignores_the_draw_cache() {
    let mut b = AshtonBoard::start();
    for (f, t) in [
        ("c5", "c6"),
        ("a4", "a3"),
        ("c6", "c5"),
        ("a3", "a2"),
        ("c5", "c6"),
    ] {
        play(&mut b, f, t);
    }
    let fresh = AshtonBoard::from_record(&b.record(), b.white_to_move).unwrap();
    assert!(!b.draw_cache.is_empty());
    // a2-a3 is a draw in the game, still a line in perft.
    assert_eq!(b.perft(2), fresh.perft(2));
    assert_eq!(b.perft(1), b.legal_moves().len() as u64);
}

#[test]
fn records_round_trip_and_bad_records_are_refused() {
    let b = AshtonBoard::start();
    let again = AshtonBoard::from_record(&b.record(), true).unwrap();
    assert_eq!(again, b);
    assert!(
        AshtonBoard::from_record("/3ttt3/4t4/4T4/t3T3t/ttTTTTTtt/t3T3t/4T4/4t4/3ttt3/", true)
            .is_err(),
        "a soldier on e5"
    );
    assert!(
        AshtonBoard::from_record("/7/7/7/3K3/7/7/7/", true).is_err(),
        "7x7"
    );
    assert!(
        AshtonBoard::from_record("/9/9/9/9/9/9/9/9/", true).is_err(),
        "8 rows"
    );
}

// ---------------------------------------------------------------------------------------------
// Symmetry: the Java writes each direction out by hand; the rules are symmetric
// ---------------------------------------------------------------------------------------------

/// The eight symmetries of the square board about e5 (the camps are symmetric too).
fn transform(t: usize, (x, y): Xy) -> Xy {
    let (x2, y2) = if t & 1 == 1 { (y, x) } else { (x, y) };
    let x3 = if t & 2 == 2 { 8 - x2 } else { x2 };
    let y3 = if t & 4 == 4 { 8 - y2 } else { y2 };
    (x3, y3)
}

fn transformed(t: usize, b: &AshtonBoard) -> AshtonBoard {
    let mut out = AshtonBoard {
        cells: vec![Cell::Empty; 81],
        white_to_move: b.white_to_move,
        result: b.result,
        draw_cache: Vec::new(),
    };
    for y in 0..9 {
        for x in 0..9 {
            let (tx, ty) = transform(t, (x, y));
            out.cells[ty * 9 + tx] = b.cells[y * 9 + x];
        }
    }
    out
}

/// Along seeded games that prefer captures and wins, every symmetric image of the position has
/// the image of the moves, and every move's image captures the image squares and ends the game
/// the same way. This checks the transcription of the Java's eight direction-specific capture
/// methods against one another (and found the Java itself symmetric).
#[test]
fn the_rules_are_symmetric_under_the_eight_board_symmetries() {
    let mut king_captures = 0;
    let mut king_escapes = 0;
    for seed in 1..=12u64 {
        let mut b = AshtonBoard::start();
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for _ in 0..160 {
            let moves: Vec<_> = b.legal_moves().into_iter().collect();
            if moves.is_empty() {
                break;
            }
            let mut sharp = Vec::new();
            for t in 0..8 {
                let image = transformed(t, &b);
                let image_moves: BTreeSet<_> = moves
                    .iter()
                    .map(|&(f, to)| (transform(t, f), transform(t, to)))
                    .collect();
                assert_eq!(
                    image.legal_moves(),
                    image_moves,
                    "symmetry {t} of {}",
                    b.record()
                );
                for &m in &moves {
                    let mut after = b.without_cache();
                    let captured = after.play(m);
                    let mut image_after = image.clone();
                    let image_captured = image_after.play((transform(t, m.0), transform(t, m.1)));
                    let mapped: BTreeSet<Xy> = captured.iter().map(|&s| transform(t, s)).collect();
                    assert_eq!(image_captured, mapped, "{m:?} in {}", b.record());
                    assert_eq!(image_after.result, after.result, "{m:?} in {}", b.record());
                    if t == 0 && (!captured.is_empty() || after.result.is_some()) {
                        sharp.push(m);
                    }
                }
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let m = if !sharp.is_empty() && state % 3 != 0 {
                sharp[(state / 3 % sharp.len() as u64) as usize]
            } else {
                moves[(state % moves.len() as u64) as usize]
            };
            b.play(m);
            match b.result {
                Some(AshtonOutcome::BlackWin) => king_captures += 1,
                Some(AshtonOutcome::WhiteWin) => king_escapes += 1,
                _ => {}
            }
            if b.outcome().is_some() {
                break;
            }
        }
    }
    assert!(
        king_captures > 0 && king_escapes > 0,
        "{king_captures} {king_escapes}"
    );
}

// ---------------------------------------------------------------------------------------------
// The server's own counts: tests/data/ashton-perft.txt
// ---------------------------------------------------------------------------------------------

/// One block of `tests/data/ashton-perft.txt`, made by a harness that runs the server's own
/// `GameAshtonTablut.checkMove` (its draw cache cleared before every move).
#[derive(Debug)]
struct ServerFixture {
    id: String,
    position: String,
    white_to_move: bool,
    /// (depth, leaves)
    perft: Vec<(usize, u64)>,
    /// (depth, black wins, white wins, draws)
    ends: Vec<(usize, u64, u64, u64)>,
}

fn server_fixtures() -> Vec<ServerFixture> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ashton-perft.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut fixtures: Vec<ServerFixture> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if words[0] == "id" {
            fixtures.push(ServerFixture {
                id: words[1].to_string(),
                position: String::new(),
                white_to_move: true,
                perft: Vec::new(),
                ends: Vec::new(),
            });
            continue;
        }
        let f = fixtures
            .last_mut()
            .unwrap_or_else(|| panic!("line {}: before any id", n + 1));
        let number = |i: usize| -> u64 {
            words
                .get(i)
                .and_then(|w| w.parse().ok())
                .unwrap_or_else(|| panic!("line {}: {line:?}", n + 1))
        };
        match words[0] {
            "position" => f.position = words[1].to_string(),
            "side" => {
                f.white_to_move = match words[1] {
                    "defenders" => true,
                    "attackers" => false,
                    other => panic!("line {}: side {other:?}", n + 1),
                }
            }
            "perft" => f.perft.push((number(1) as usize, number(2))),
            "ends" => f
                .ends
                .push((number(1) as usize, number(2), number(3), number(4))),
            other => panic!("line {}: unknown key {other:?}", n + 1),
        }
    }
    fixtures
}

/// Checks every count of depth `from..=to` of every fixture against the reference.
fn check_server_fixtures(from: usize, to: usize) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in server_fixtures() {
        let board = AshtonBoard::from_record(&f.position, f.white_to_move)
            .unwrap_or_else(|e| panic!("{}: {e}", f.id));
        assert_eq!(board.record(), f.position, "{}: record round trip", f.id);
        let deepest = f
            .perft
            .iter()
            .map(|&(d, _)| d)
            .filter(|&d| d <= to)
            .max()
            .unwrap_or(0);
        if deepest < from {
            continue;
        }
        let counts = board.perft_counts(deepest);
        for &(depth, leaves) in &f.perft {
            if (from..=deepest).contains(&depth) {
                checked += 1;
                let got = counts[depth - 1].leaves;
                if got != leaves {
                    failures.push(format!(
                        "{} perft {depth}: server {leaves}, reference {got}",
                        f.id
                    ));
                }
            }
        }
        for &(depth, black, white, draws) in &f.ends {
            if (from..=deepest).contains(&depth) {
                let c = counts[depth - 1];
                let got = (c.black_wins, c.white_wins, c.draws);
                if got != (black, white, draws) {
                    failures.push(format!(
                        "{} ends {depth}: server {:?}, reference {got:?}",
                        f.id,
                        (black, white, draws)
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 0, "no count of depth {from}..={to} in the file");
}

#[test]
fn server_fixture_file_parses_and_covers_every_kind_of_position() {
    let fixtures = server_fixtures();
    assert!(fixtures.len() >= 20, "{} blocks", fixtures.len());
    assert!(fixtures.iter().any(|f| f.white_to_move));
    assert!(fixtures.iter().any(|f| !f.white_to_move));
    for f in &fixtures {
        assert!(!f.position.is_empty() && !f.perft.is_empty(), "{}", f.id);
    }
    // Some lines end in a king capture at depth 3 (hand-made and playout blocks alike).
    assert!(fixtures.iter().any(|f| f.ends.iter().any(|e| e.1 > 0)));
    assert!(fixtures.iter().any(|f| f.ends.iter().any(|e| e.2 > 0)));
}

#[test]
fn reference_reproduces_the_servers_counts_to_depth_3() {
    check_server_fixtures(1, 3);
}

#[test]
#[ignore = "slow: the server's depth-4 counts (the start: 19 million leaves)"]
fn reference_reproduces_the_servers_deeper_counts() {
    check_server_fixtures(4, usize::MAX);
}
