//! Tests of the reference implementation (`tests/common/reference.rs`) itself: the perft
//! fixtures of `tests/data/perft.txt`, record round trips, and one hand-drawn case per rule
//! clause of `docs/rules.md`. This file deliberately does not use `tafl_engine`.

use crate::common::blocks;
use crate::common::reference;

use blocks::keyed_blocks;
use reference::{Cell, RefBoard, RefOutcome};
use std::collections::HashSet;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// One block of `tests/data/perft.txt`.
#[derive(Debug, Clone)]
struct Fixture {
    id: String,
    game: String,
    position: String,
    attackers_to_move: bool,
    perft: Vec<(u32, u64)>,
}

fn fixture_text() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// Parse the fixture file (the block format of `common/blocks.rs`): each block is `id`, then
/// `game`, `position`, `side`, and `perft DEPTH COUNT` lines.
fn parse_fixtures(text: &str) -> Vec<Fixture> {
    keyed_blocks(
        text,
        "fixture",
        |id| Fixture {
            id: id.to_string(),
            game: String::new(),
            position: String::new(),
            attackers_to_move: true,
            perft: Vec::new(),
        },
        |current, key, value| match key {
            "game" => current.game = value.to_string(),
            "position" => current.position = value.to_string(),
            "side" => {
                current.attackers_to_move = match value {
                    "attackers" => true,
                    "defenders" => false,
                    other => panic!("fixture {}: bad side {other:?}", current.id),
                }
            }
            "perft" => {
                let parts: Vec<&str> = value.split_whitespace().collect();
                assert_eq!(parts.len(), 2, "fixture {}: perft DEPTH COUNT", current.id);
                let depth: u32 = parts[0].parse().expect("perft depth");
                let count: u64 = parts[1].parse().expect("perft count");
                current.perft.push((depth, count));
            }
            other => panic!("fixture {}: unknown key {other:?}", current.id),
        },
    )
}

fn fixtures() -> Vec<Fixture> {
    let fixtures = parse_fixtures(&fixture_text());
    assert!(fixtures.len() >= 2, "fixture file looks empty");
    fixtures
}

fn fixture_board(f: &Fixture) -> RefBoard {
    let board = RefBoard::from_record(&f.position, f.attackers_to_move)
        .unwrap_or_else(|e| panic!("fixture {}: bad position: {e}", f.id));
    let expected_size = match f.game.as_str() {
        "tablut" => 9,
        "tawlbwrdd" => 11,
        other => panic!("fixture {}: unknown game {other:?}", f.id),
    };
    assert_eq!(
        board.size, expected_size,
        "fixture {}: board size vs game",
        f.id
    );
    board
}

/// Square name (R2) to coordinates: "a1" -> (0, 0), "k11" -> (10, 10).
fn sq(name: &str) -> (usize, usize) {
    let mut chars = name.chars();
    let file = chars.next().expect("file letter");
    let x = (file as u8 - b'a') as usize;
    let y: usize = chars.as_str().parse::<usize>().expect("rank number") - 1;
    (x, y)
}

/// Build a board from an ASCII diagram drawn as in docs/rules.md: highest rank at the top, file a
/// on the left, squares separated by spaces. `.` empty, `+` the (empty) castle, `a` attacker,
/// `d` defender soldier, `K` king. The diagram goes through `from_record`, so it exercises the
/// parser too.
fn diagram(picture: &str, attackers_to_move: bool) -> RefBoard {
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
    let size = rows.len();
    let mut record = String::from("/");
    // Rank 1 is the last row of the picture and the first row of the record. Runs of empty
    // squares must be written as one number (adjacent digits form one number).
    for (row_index, row) in rows.iter().rev().enumerate() {
        assert_eq!(
            row.len(),
            size,
            "diagram row for rank {} has wrong length",
            row_index + 1
        );
        let mut empty_run = 0usize;
        for (x, &c) in row.iter().enumerate() {
            let piece = match c {
                '.' => None,
                '+' => {
                    assert_eq!(
                        (x, row_index),
                        (size / 2, size / 2),
                        "'+' is not the castle"
                    );
                    None
                }
                'a' => Some('t'),
                'd' => Some('T'),
                'K' => Some('K'),
                other => panic!("bad diagram character {other:?}"),
            };
            match piece {
                None => empty_run += 1,
                Some(p) => {
                    if empty_run > 0 {
                        record.push_str(&empty_run.to_string());
                        empty_run = 0;
                    }
                    record.push(p);
                }
            }
        }
        if empty_run > 0 {
            record.push_str(&empty_run.to_string());
        }
        record.push('/');
    }
    RefBoard::from_record(&record, attackers_to_move)
        .unwrap_or_else(|e| panic!("diagram did not parse: {e}\n{record}"))
}

fn moves_from(board: &RefBoard, from: &str) -> HashSet<(usize, usize)> {
    let from = sq(from);
    board
        .legal_moves()
        .into_iter()
        .filter(|&(f, _)| f == from)
        .map(|(_, t)| t)
        .collect()
}

fn squares(names: &[&str]) -> HashSet<(usize, usize)> {
    names.iter().map(|n| sq(n)).collect()
}

fn is_legal(board: &RefBoard, from: &str, to: &str) -> bool {
    board.legal_moves().contains(&(sq(from), sq(to)))
}

/// Play a move after checking that it is legal.
fn play(board: &RefBoard, from: &str, to: &str) -> (RefBoard, HashSet<(usize, usize)>) {
    assert!(
        is_legal(board, from, to),
        "{from}-{to} should be legal in {}",
        board.to_record()
    );
    let (next, captured) = board.play(sq(from), sq(to));
    let set: HashSet<(usize, usize)> = captured.iter().copied().collect();
    assert_eq!(set.len(), captured.len(), "capture list has duplicates");
    assert_ne!(
        next.attackers_to_move, board.attackers_to_move,
        "side to move must switch"
    );
    (next, set)
}

fn at(board: &RefBoard, name: &str) -> Cell {
    let (x, y) = sq(name);
    board.get(x, y)
}

// ---------------------------------------------------------------------------------------------
// Fixtures: perft and record round trip
// ---------------------------------------------------------------------------------------------

#[test]
fn fixture_file_parses() {
    let fixtures = fixtures();
    let ids: Vec<&str> = fixtures.iter().map(|f| f.id.as_str()).collect();
    assert!(ids.contains(&"tablut-start"), "{ids:?}");
    assert!(ids.contains(&"tawlbwrdd-start"), "{ids:?}");
    for f in &fixtures {
        assert!(!f.position.is_empty(), "fixture {} has no position", f.id);
        assert!(!f.perft.is_empty(), "fixture {} has no perft lines", f.id);
        fixture_board(f);
    }
}

/// P1/P2: every fixture count with depth <= 3, each fixture in its own thread.
#[test]
fn fixture_perft_up_to_depth_3() {
    let handles: Vec<_> = fixtures()
        .into_iter()
        .map(|f| {
            std::thread::spawn(move || {
                let board = fixture_board(&f);
                let mut failures = Vec::new();
                for &(depth, expected) in f.perft.iter().filter(|(d, _)| *d <= 3) {
                    let got = board.perft(depth);
                    if got != expected {
                        failures.push(format!(
                            "fixture {}: perft {depth} = {got}, expected {expected}",
                            f.id
                        ));
                    }
                }
                failures
            })
        })
        .collect();
    let failures: Vec<String> = handles
        .into_iter()
        .flat_map(|h| h.join().expect("perft thread panicked"))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The start positions of P2, spelled out (also covered by the fixture loop).
#[test]
fn start_positions_perft_p2() {
    let tablut =
        RefBoard::from_record("/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/", true).unwrap();
    assert_eq!(tablut.perft(0), 1, "tablut perft 0");
    assert_eq!(tablut.perft(1), 80, "tablut perft 1");
    assert_eq!(tablut.perft(2), 4_400, "tablut perft 2");
    assert_eq!(tablut.perft(3), 353_200, "tablut perft 3");
    let tawl = RefBoard::from_record(
        "/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/",
        true,
    )
    .unwrap();
    assert_eq!(tawl.perft(1), 136, "tawlbwrdd perft 1");
    assert_eq!(tawl.perft(2), 7_620, "tawlbwrdd perft 2");
    assert_eq!(tawl.perft(3), 1_042_016, "tawlbwrdd perft 3");
}

/// Slow: every fixture count with depth 4 (run with `cargo test -- --ignored`).
#[test]
#[ignore = "slow: depth-4 perft of the fixtures"]
fn fixture_perft_depth_4() {
    let handles: Vec<_> = fixtures()
        .into_iter()
        .map(|f| {
            std::thread::spawn(move || {
                let board = fixture_board(&f);
                let mut failures = Vec::new();
                for &(depth, expected) in f.perft.iter().filter(|(d, _)| *d == 4) {
                    let got = board.perft(depth);
                    if got != expected {
                        failures.push(format!(
                            "fixture {}: perft {depth} = {got}, expected {expected}",
                            f.id
                        ));
                    }
                }
                failures
            })
        })
        .collect();
    let failures: Vec<String> = handles
        .into_iter()
        .flat_map(|h| h.join().expect("perft thread panicked"))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn record_round_trip_on_fixtures() {
    for f in fixtures() {
        let board = fixture_board(&f);
        assert_eq!(board.to_record(), f.position, "fixture {}: to_record", f.id);
        assert_eq!(
            RefBoard::from_record(&board.to_record(), f.attackers_to_move),
            Ok(board.clone()),
            "fixture {}: from_record(to_record)",
            f.id
        );
        // Positions two plies deep, including ones with captures, survive the round trip too.
        for (from, to) in board.legal_moves() {
            let (child, _) = board.play(from, to);
            for (from2, to2) in child.legal_moves() {
                let (grandchild, _) = child.play(from2, to2);
                let again =
                    RefBoard::from_record(&grandchild.to_record(), grandchild.attackers_to_move);
                assert_eq!(
                    again,
                    Ok(grandchild),
                    "fixture {}: round trip at depth 2",
                    f.id
                );
            }
        }
    }
}

#[test]
fn record_parsing_and_multi_digit_runs() {
    // Adjacent digits form one number: "11" is eleven empty squares, never 1 + 1.
    let b = RefBoard::from_record("/9/9/9/9/4K4/9/9/9/2t6/", true).unwrap();
    assert_eq!(b.to_record(), "/9/9/9/9/4K4/9/9/9/2t6/");
    assert_eq!(b.get(4, 4), Cell::King);
    assert_eq!(b.get(2, 8), Cell::Attacker);
    assert_eq!(b.castle(), (4, 4));
    assert!(b.attackers_to_move);
    assert!(RefBoard::from_record("/111111111/9/9/9/4K4/9/9/9/9/", true).is_err());
    assert!(RefBoard::from_record("/11/9/9/9/4K4/9/9/9/9/", true).is_err());
    // Surrounding whitespace is tolerated.
    assert_eq!(
        RefBoard::from_record("  /9/9/9/9/4K4/9/9/9/2t6/\n", false).map(|b| b.to_record()),
        Ok("/9/9/9/9/4K4/9/9/9/2t6/".to_string())
    );
    // Multi-digit runs on 11x11.
    let b = RefBoard::from_record("/11/11/11/11/11/5K5/11/11/11/11/10T/", false).unwrap();
    assert_eq!(b.size, 11);
    assert_eq!(b.castle(), (5, 5));
    assert_eq!(b.get(10, 10), Cell::Defender);
    assert_eq!(b.to_record(), "/11/11/11/11/11/5K5/11/11/11/11/10T/");
    // Odd sizes other than 9 and 11.
    let b = RefBoard::from_record("/5/1t3/2K2/5/4T/", true).unwrap();
    assert_eq!(b.size, 5);
    assert_eq!(b.castle(), (2, 2));
    assert_eq!(b.get(1, 1), Cell::Attacker);
    assert_eq!(b.to_record(), "/5/1t3/2K2/5/4T/");
}

#[test]
fn malformed_records_are_errors() {
    let bad = [
        "",
        "/",
        "//",
        "///",
        "9/9/9/9/4K4/9/9/9/9/",                           // no leading '/'
        "/9/9/9/9/4K4/9/9/9/9",                           // no trailing '/'
        "/9/9/9/9/4K4/9/9/9/9//",                         // empty row
        "/9/9/9/9/4K4/9/9/9/",                            // 8 rows
        "/8/8/8/8/4K3/8/8/8/",                            // even size
        "/9/9/9/9/4K4/9/9/9/8/",                          // short row
        "/9/9/9/9/4K4/9/9/9/10/",                         // long row
        "/9/9/9/9/4K4/9/9/9/9t/",                         // long row
        "/9/9/9/9/4K4/9/9/9/4x4/",                        // bad character
        "/9/9/9/9/4k4/9/9/9/9/",                          // lower-case king
        "/9/9/9/9/4K4/9/9/9/09/",                         // zero count
        "/9/9/9/9/4K4/9/9/9/0t8/",                        // zero count
        "/9/9/9/9/4KK3/9/9/9/9/",                         // two kings
        "/9/9/9/9/4K4/9/9/9/99999999999999999999999999/", // overflow
        "/9/9/9/9/4K4/9/9/9/4é4/",                        // non-ASCII
        "/9/9/9/9/4K4/9/9/9/4 4/",                        // inner space
        "/3/1K1/3/",                                      // too small
    ];
    for record in bad {
        let result = std::panic::catch_unwind(|| RefBoard::from_record(record, true));
        match result {
            Ok(Err(_)) => {}
            Ok(Ok(b)) => panic!("{record:?} should be rejected, parsed as {}", b.to_record()),
            Err(_) => panic!("{record:?} made from_record panic"),
        }
    }
}

/// Invariants of `legal_moves`/`play` over every position up to two plies from each fixture.
#[test]
fn move_and_capture_invariants_near_fixtures() {
    for f in fixtures() {
        let root = fixture_board(&f);
        let mut frontier = vec![root];
        for _ply in 0..2 {
            let mut next_frontier = Vec::new();
            for board in &frontier {
                let moves = board.legal_moves();
                let unique: HashSet<_> = moves.iter().copied().collect();
                assert_eq!(
                    unique.len(),
                    moves.len(),
                    "fixture {}: duplicate moves",
                    f.id
                );
                assert_eq!(
                    moves.is_empty(),
                    board.outcome().is_some(),
                    "fixture {}: no moves iff game over",
                    f.id
                );
                for &(from, to) in &moves {
                    assert_ne!(
                        to,
                        board.castle(),
                        "fixture {}: move onto castle (R6)",
                        f.id
                    );
                    assert_ne!(from, to, "fixture {}: null move", f.id);
                    let (child, captured) = board.play(from, to);
                    let mover = board.get(from.0, from.1);
                    assert_eq!(child.get(to.0, to.1), mover, "fixture {}", f.id);
                    assert_eq!(child.get(from.0, from.1), Cell::Empty, "fixture {}", f.id);
                    // Exactly the captured squares lost their pieces; nothing else changed.
                    for y in 0..board.size {
                        for x in 0..board.size {
                            if (x, y) == from || (x, y) == to {
                                continue;
                            }
                            let before = board.get(x, y);
                            let after = child.get(x, y);
                            if captured.contains(&(x, y)) {
                                assert_ne!(before, Cell::Empty, "fixture {}", f.id);
                                assert_eq!(after, Cell::Empty, "fixture {}", f.id);
                                // R8/R9: only enemies of the mover are captured.
                                let enemy = if board.attackers_to_move {
                                    before == Cell::Defender || before == Cell::King
                                } else {
                                    before == Cell::Attacker
                                };
                                assert!(enemy, "fixture {}: captured a friend", f.id);
                            } else {
                                assert_eq!(before, after, "fixture {}", f.id);
                            }
                        }
                    }
                    next_frontier.push(child);
                }
            }
            frontier = next_frontier;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Hand-drawn rule cases (9x9 unless said otherwise; castle e5)
// ---------------------------------------------------------------------------------------------

/// R1/R2: the castle is the centre, a1 is (0, 0).
#[test]
fn r1_r2_castle_and_coordinates() {
    let b = diagram(
        "
        . . . . . . . . a
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        d . . . . . . . .
        ",
        true,
    );
    assert_eq!(b.castle(), (4, 4));
    assert_eq!(at(&b, "e5"), Cell::King);
    assert_eq!(at(&b, "a1"), Cell::Defender);
    assert_eq!(b.get(0, 0), Cell::Defender);
    assert_eq!(at(&b, "i9"), Cell::Attacker);
    assert_eq!(b.get(8, 8), Cell::Attacker);
    assert_eq!(b.to_record(), "/T8/9/9/9/4K4/9/9/9/8t/");
}

/// R4: the first move is the attackers' (start positions); sides alternate.
#[test]
fn r4_sides_alternate() {
    let b =
        RefBoard::from_record("/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/", true).unwrap();
    for (from, _) in b.legal_moves() {
        assert_eq!(b.get(from.0, from.1), Cell::Attacker);
    }
    let (from, to) = b.legal_moves()[0];
    let (c, _) = b.play(from, to);
    assert!(!c.attackers_to_move);
    for (from, _) in c.legal_moves() {
        let piece = c.get(from.0, from.1);
        assert!(piece == Cell::Defender || piece == Cell::King);
    }
}

/// R5: rook moves over empty squares, stopping before the first piece, no jumping.
#[test]
fn r5_rook_moves_no_jumping() {
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . K . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . a . . d . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    let expected = squares(&[
        "a3", "b3", // left
        "d3", "e3", // right, stopped by the defender on f3
        "c4", "c5", "c6", "c7", "c8", "c9", // up
        "c2", "c1", // down
    ]);
    assert_eq!(moves_from(&b, "c3"), expected);
    assert_eq!(b.legal_moves().len(), 12, "only one attacker");
    assert!(!is_legal(&b, "c3", "f3"), "may not land on a piece");
    assert!(!is_legal(&b, "c3", "g3"), "may not jump");
    assert!(!is_legal(&b, "c3", "d4"), "no diagonal moves");

    // The king moves like a rook too.
    let d = RefBoard {
        attackers_to_move: false,
        ..b.clone()
    };
    let king = moves_from(&d, "g7");
    assert_eq!(king.len(), 16);
    assert!(king.contains(&sq("g9")) && king.contains(&sq("a7")) && king.contains(&sq("g1")));
}

/// R6: no piece may stop on the castle; the king, once off, may not return.
#[test]
fn r6_no_stopping_on_the_castle() {
    // A soldier passing along rank 5 skips e5 (but may go beyond it, R7).
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . K .
        . . . . . . . . .
        . . . . . . . . .
        a . . . + . . . d
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    let expected = squares(&[
        "b5", "c5", "d5", "f5", "g5", "h5", // along rank 5, e5 skipped, i5 occupied
        "a6", "a7", "a8", "a9", "a4", "a3", "a2", "a1",
    ]);
    assert_eq!(moves_from(&b, "a5"), expected);
    assert!(!is_legal(&b, "a5", "e5"));

    // The king leaves the castle and can never come back.
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
        a . . . . . . . .
        ",
        false,
    );
    assert_eq!(
        moves_from(&b, "e5").len(),
        16,
        "king leaves the castle in 4 directions"
    );
    let (b, _) = play(&b, "e5", "e7");
    let (b, _) = play(&b, "a1", "a2");
    let king = moves_from(&b, "e7");
    assert!(
        !king.contains(&sq("e5")),
        "R6: the king may not return to the castle"
    );
    assert!(king.contains(&sq("e4")), "R7: but he may pass over it");

    // A piece whose only target square is the castle has no move (and here that is R17).
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . K .
        . . . . . . . . .
        . . . . d . . . .
        . . . . + . . . .
        . . . d a d . . .
        . . . . d . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    assert!(b.legal_moves().is_empty());
    assert_eq!(b.outcome(), Some(RefOutcome::DrawNoMoves));
}

/// R7: any piece may pass over the empty castle, but not over an occupied one.
#[test]
fn r7_passing_over_the_castle() {
    let empty_castle = diagram(
        "
        . . . . . . . . .
        . . . . . . . K .
        . . . . . . . . .
        . . . . . . . . .
        . . . a + . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    assert!(is_legal(&empty_castle, "d5", "f5"));
    assert!(is_legal(&empty_castle, "d5", "i5"));
    assert!(!is_legal(&empty_castle, "d5", "e5"));

    let king_on_castle = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . a K . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    assert!(
        !is_legal(&king_on_castle, "d5", "f5"),
        "R5: the king on the castle blocks"
    );
    assert_eq!(moves_from(&king_on_castle, "d5").len(), 3 + 4 + 4);

    // Defenders pass over it too.
    let d = RefBoard {
        attackers_to_move: false,
        ..empty_castle.clone()
    };
    let e = diagram(
        "
        . . . . . . . . .
        . . . . . . . K .
        . . . . . . . . .
        . . . . d . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . a .
        ",
        false,
    );
    assert!(is_legal(&e, "e6", "e1"));
    assert!(!is_legal(&e, "e6", "e5"));
    assert!(d.legal_moves().iter().all(|&(_, t)| t != (4, 4)));
}

/// R8: only the mover captures, only next to the landing square; moving between two enemies is
/// safe.
#[test]
fn r8_captures_only_by_the_mover_next_to_the_landing_square() {
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . a d a . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . d . d . . . .
        . . . a . . K . .
        . . . . . . . . .
        ",
        true,
    );
    // The attacker steps between two defenders: he is safe, and captures nothing.
    let (after, captured) = play(&b, "d2", "d3");
    assert!(captured.is_empty());
    assert_eq!(at(&after, "d3"), Cell::Attacker);
    // The defender on c7 already stands between two attackers: untouched by a move elsewhere.
    assert_eq!(at(&after, "c7"), Cell::Defender);
    let (after, captured) = play(&after, "g2", "g3");
    assert!(captured.is_empty());
    assert_eq!(at(&after, "c7"), Cell::Defender);
    assert_eq!(at(&after, "d3"), Cell::Attacker);

    // A defender stepping between two attackers is safe as well.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . a . a . . . . .
        . . d . . . K . .
        . . . . . . . . .
        ",
        false,
    );
    let (after, captured) = play(&b, "c2", "c3");
    assert!(captured.is_empty());
    assert_eq!(at(&after, "c3"), Cell::Defender);
    // A later attacker move that does not land next to c3 does not capture it either.
    let (after, captured) = play(&after, "b3", "b4");
    assert!(captured.is_empty());
    assert_eq!(at(&after, "c3"), Cell::Defender);
}

/// R9: custodial capture of soldiers; the king as hammer and as anvil; the edge is not hostile.
#[test]
fn r9_custodial_capture() {
    // Attacker hammer lands on c2, attacker anvil on e2: the defender on d2 is captured.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . d a . K . .
        . . a . . . . . .
        ",
        true,
    );
    let (after, captured) = play(&b, "c1", "c2");
    assert_eq!(captured, squares(&["d2"]));
    assert_eq!(at(&after, "d2"), Cell::Empty);
    assert_eq!(at(&after, "e2"), Cell::Attacker);

    // Defender hammer, the king as anvil: a defender landing on d2 captures the attacker on e2.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . d . . . . .
        . . . . a K . . .
        . . . . . . . a .
        ",
        false,
    );
    let (after, captured) = play(&b, "d3", "d2");
    assert_eq!(captured, squares(&["e2"]), "R9: the king is an anvil");
    assert_eq!(at(&after, "e2"), Cell::Empty);

    // The king as hammer: landing on e2 captures the attacker on d2 against the defender on c2.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . d a . . . . .
        . . . . . . . a .
        ",
        false,
    );
    let (after, captured) = play(&b, "e3", "e2");
    assert_eq!(captured, squares(&["d2"]), "R9: the king is a hammer");
    assert_eq!(at(&after, "d2"), Cell::Empty);
    assert_eq!(at(&after, "e2"), Cell::King);
    // Landing elsewhere (not next to d2) captures nothing.
    let (after, captured) = play(&b, "e3", "f3");
    assert!(captured.is_empty());
    assert_eq!(at(&after, "d2"), Cell::Attacker);

    // The edge is never hostile: the defender on a4 survives an attacker landing on b4.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        d . . . . . . . .
        . . . . . . . . .
        . a . . . . K . .
        . . . . . . . . .
        ",
        true,
    );
    let (after, captured) = play(&b, "b2", "b4");
    assert!(captured.is_empty(), "R9: the edge is not hostile");
    assert_eq!(at(&after, "a4"), Cell::Defender);

    // Neither an enemy piece nor an empty ordinary square beyond N is hostile.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . d d . d . . . .
        . . . a . . K . .
        . . . . . . . . .
        ",
        true,
    );
    let (_, captured) = play(&b, "d2", "d3");
    assert!(captured.is_empty());
}

/// R10: the empty castle is hostile to soldiers of both sides; with the king on it, it is not
/// hostile as a square but the king there is a defending anvil.
#[test]
fn r10_castle_hostility() {
    // Empty castle against a defender soldier.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . K .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . d . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . a . . . .
        ",
        true,
    );
    let (after, captured) = play(&b, "e1", "e3");
    assert_eq!(
        captured,
        squares(&["e4"]),
        "empty castle hostile to defenders"
    );
    assert_eq!(at(&after, "e4"), Cell::Empty);

    // Empty castle against an attacker soldier.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . K .
        . . . d . . . . .
        . . . . a . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        false,
    );
    let (after, captured) = play(&b, "d7", "e7");
    assert_eq!(
        captured,
        squares(&["e6"]),
        "empty castle hostile to attackers"
    );
    assert_eq!(at(&after, "e6"), Cell::Empty);

    // King on the castle: the square is not hostile to his own soldiers.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . d . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . a . . . .
        ",
        true,
    );
    let (after, captured) = play(&b, "e1", "e3");
    assert!(
        captured.is_empty(),
        "occupied castle not hostile to defenders"
    );
    assert_eq!(at(&after, "e4"), Cell::Defender);

    // King on the castle: he is an anvil against attackers (R9).
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . K . . . .
        . . . . a . . . .
        . . . d . . . . .
        . . . . . . . . .
        . . . . . . . . a
        ",
        false,
    );
    let (after, captured) = play(&b, "d3", "e3");
    assert_eq!(
        captured,
        squares(&["e4"]),
        "the king on the castle is an anvil"
    );
    assert_eq!(at(&after, "e4"), Cell::Empty);
}

/// R11: one move captures up to three soldiers (one per direction but the one it came from).
#[test]
fn r11_triple_capture() {
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . K .
        . . . . . . . . .
        . . . . . . . . .
        . . d . + . . . .
        . . a . . . . . .
        d a . a d . . . .
        . . . . . . . . .
        . . d . . . . . a
        ",
        false,
    );
    let (after, captured) = play(&b, "c1", "c3");
    assert_eq!(captured, squares(&["b3", "d3", "c4"]));
    for name in ["b3", "d3", "c4"] {
        assert_eq!(at(&after, name), Cell::Empty, "{name}");
    }
    for name in ["a3", "e3", "c5", "c3"] {
        assert_eq!(at(&after, name), Cell::Defender, "{name}");
    }

    // Attackers capture several defenders the same way.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . K .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . . . . . . .
        . a d . d a . . .
        . . . a . . . . .
        ",
        true,
    );
    let (_, captured) = play(&b, "d1", "d2");
    assert_eq!(captured, squares(&["c2", "e2"]));
}

/// R12: the king is never captured by custodial capture (R9), even against the empty castle.
#[test]
fn r12_king_not_captured_by_r9() {
    // A defender soldier on e6 with an attacker landing on e7 is captured against the empty
    // castle; the king in the same spot is not (he needs three attackers there, R13).
    let soldier = diagram(
        "
        . . . . . . . . .
        . . . . . . . K .
        . . . . . . . . a
        . . . . d . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    let (_, captured) = play(&soldier, "i7", "e7");
    assert_eq!(captured, squares(&["e6"]));
    let king = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . a
        . . . . K . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    let (after, captured) = play(&king, "i7", "e7");
    assert!(captured.is_empty());
    assert_eq!(at(&after, "e6"), Cell::King);
    assert_eq!(after.outcome(), None);

    // The king next to the castle between two attackers on one line: not captured either.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . a K . . . .
        . . . . . . . . .
        . . . . . a . . .
        . . . . . . . . .
        ",
        true,
    );
    let (after, captured) = play(&b, "f2", "f4");
    assert!(captured.is_empty());
    assert_eq!(at(&after, "e4"), Cell::King);
}

/// R13: king capture, only after an attacker's move next to him, in the three situations.
#[test]
fn r13_king_capture() {
    // On the castle: all four neighbours.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . a . . . .
        . . . a K a . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . a . . . .
        . . . . . . . . d
        ",
        true,
    );
    let (after, captured) = play(&b, "e2", "e4");
    assert_eq!(captured, squares(&["e5"]));
    assert_eq!(at(&after, "e5"), Cell::Empty);
    assert_eq!(after.outcome(), Some(RefOutcome::AttackersWin));
    assert!(after.legal_moves().is_empty());
    // Three attackers and a defender around the castle: no capture.
    let b3 = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . a . . . .
        . . . a K d . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . a . . . .
        . . . . . . . . .
        ",
        true,
    );
    let (after, captured) = play(&b3, "e2", "e4");
    assert!(captured.is_empty());
    assert_eq!(after.outcome(), None);

    // Next to the castle: his three other neighbours.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . a K a . . .
        . . . . . . . . .
        . . . . a . . . .
        . . . . . . . . d
        ",
        true,
    );
    let (after, captured) = play(&b, "e2", "e3");
    assert_eq!(captured, squares(&["e4"]));
    assert_eq!(after.outcome(), Some(RefOutcome::AttackersWin));
    // Same, but the move lands on a square not next to the king: no capture.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . a K a . . .
        . . . . a . . . .
        . . . . . . . . .
        . a . . . . . . .
        ",
        true,
    );
    let (after, captured) = play(&b, "b1", "b2");
    assert!(
        captured.is_empty(),
        "the surround existed before: T not next to the king"
    );
    assert_eq!(at(&after, "e4"), Cell::King);

    // Anywhere else: T and the opposite square.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . a K . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . a . . . . .
        . . . . . . . . .
        . . . . . . . . d
        ",
        true,
    );
    let (after, captured) = play(&b, "d3", "d7");
    assert_eq!(captured, squares(&["c7"]));
    assert_eq!(after.outcome(), Some(RefOutcome::AttackersWin));
    // Two attackers at a right angle do not capture.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . a K . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . a . . . . . .
        . . . . . . . . .
        . . . . . . . . d
        ",
        true,
    );
    let (after, captured) = play(&b, "c3", "c6");
    assert!(captured.is_empty());
    assert_eq!(at(&after, "c7"), Cell::King);

    // Only an attacker's move captures the king: the king may walk between two attackers, and
    // a defender move next to him leaves him there.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . a . a . . . . .
        . . K . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . d . .
        . . . . . . . . a
        ",
        false,
    );
    let (after, captured) = play(&b, "c6", "c7");
    assert!(captured.is_empty());
    assert_eq!(at(&after, "c7"), Cell::King);
    assert_eq!(after.outcome(), None);
}

/// R14: the king moving onto any edge square wins for the defenders; the game is then over.
#[test]
fn r14_king_escape() {
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
        . . . . . . . . a
        ",
        false,
    );
    for target in ["c9", "c1", "a3", "i3"] {
        let (after, captured) = play(&b, "c3", target);
        assert!(captured.is_empty());
        assert_eq!(after.outcome(), Some(RefOutcome::DefendersWin), "{target}");
        assert!(after.legal_moves().is_empty(), "{target}");
        assert_eq!(after.perft(1), 0);
        assert_eq!(after.perft(0), 1);
    }
    let (after, _) = play(&b, "c3", "c4");
    assert_eq!(after.outcome(), None);

    // A defender soldier on the edge wins nothing.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . d . . . K . .
        . . . . . . . . .
        . . . . . . . . a
        ",
        false,
    );
    let (after, _) = play(&b, "c3", "c1");
    assert_eq!(after.outcome(), None);

    // Tawlbwrdd (11x11): the edge is file k / rank 11.
    let b = RefBoard::from_record("/t10/11/11/11/11/11/11/11/11/9K1/11/", false).unwrap();
    let (after, _) = b.play(sq("j10"), sq("k10"));
    assert_eq!(after.outcome(), Some(RefOutcome::DefendersWin));
    let (after, _) = b.play(sq("j10"), sq("j11"));
    assert_eq!(after.outcome(), Some(RefOutcome::DefendersWin));
    let (after, _) = b.play(sq("j10"), sq("j9"));
    assert_eq!(after.outcome(), None);
}

/// R15: soldier captures are made by the same move that wins the game.
#[test]
fn r15_captures_happen_with_the_winning_move() {
    // The king escapes to c1 and captures the attacker on d1 against the defender on e1.
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
        . . . a d . . . a
        ",
        false,
    );
    let (after, captured) = play(&b, "c3", "c1");
    assert_eq!(captured, squares(&["d1"]));
    assert_eq!(at(&after, "d1"), Cell::Empty);
    assert_eq!(after.outcome(), Some(RefOutcome::DefendersWin));

    // The attacker capturing the king on d7 also captures the defender soldier on e7.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . a K . d a . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . a . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        true,
    );
    let (after, captured) = play(&b, "d3", "d7");
    assert_eq!(captured, squares(&["e7", "c7"]));
    assert_eq!(at(&after, "e7"), Cell::Empty);
    assert_eq!(after.outcome(), Some(RefOutcome::AttackersWin));
    // The reference lists the king last.
    let (_, list) = b.play(sq("d3"), sq("d7"));
    assert_eq!(list.last(), Some(&sq("c7")));
}

/// R17: no legal move for the side to move is a draw (but a won game is a win, not a draw).
#[test]
fn r17_no_legal_move_is_a_draw() {
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . + . . . .
        . . . . . . . . .
        . . . . . . K . .
        d . . . . . . . .
        a d . . . . . . .
        ",
        true,
    );
    assert!(b.legal_moves().is_empty());
    assert_eq!(b.outcome(), Some(RefOutcome::DrawNoMoves));
    assert_eq!(b.perft(1), 0);
    let d = RefBoard {
        attackers_to_move: false,
        ..b.clone()
    };
    assert_eq!(d.outcome(), None);

    // The defenders blocked in: king and soldiers walled in by attackers.
    let b = diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . a . . . .
        . . . a K a . . .
        . . . . a . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        false,
    );
    assert!(b.legal_moves().is_empty());
    assert_eq!(b.outcome(), Some(RefOutcome::DrawNoMoves));
}

/// P1: perft(p, 0) = 1 always; won positions count 0 below depth 0.
#[test]
fn p1_perft_of_won_positions() {
    let no_king = RefBoard::from_record("/t8/9/9/9/9/9/9/9/8T/", true).unwrap();
    assert_eq!(no_king.outcome(), Some(RefOutcome::AttackersWin));
    assert!(no_king.legal_moves().is_empty());
    assert_eq!(no_king.perft(0), 1);
    assert_eq!(no_king.perft(1), 0);
    assert_eq!(no_king.perft(3), 0);

    let king_on_edge = RefBoard::from_record("/t8/9/9/9/9/9/9/9/4K4/", true).unwrap();
    assert_eq!(king_on_edge.outcome(), Some(RefOutcome::DefendersWin));
    assert!(king_on_edge.legal_moves().is_empty());
    assert_eq!(king_on_edge.perft(0), 1);
    assert_eq!(king_on_edge.perft(2), 0);

    // A tiny position counted by hand: 5x5, attacker a1, king c4 (not on an edge), defenders
    // to move. King moves: c5 (edge, win), b4, a4 (edge), d4, e4 (edge); down: c3 is the
    // castle (skip), c2, c1 (edge). 7 moves.
    let tiny = RefBoard::from_record("/t4/5/5/2K2/5/", false).unwrap();
    assert_eq!(tiny.perft(1), 7);
    // Depth 2: only the non-winning king moves (b4, d4, c2) leave the attackers a move.
    // Attacker a1: up a2, a3, a4, a5 and right b1, c1, d1, e1, never blocked: 8 each, 24.
    assert_eq!(tiny.perft(2), 24);
}
