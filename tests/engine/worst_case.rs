//! The most legal moves a position can have: `MoveList` holds `MAX_LEGAL_MOVES` (400, proved at
//! its definition), and a list that overflowed would silently lose moves. These tests build the
//! densest positions they can find and check that the library lists every move the reference
//! rules find.

use crate::common;

use common::diagram::rules_for_size as rules;
use common::reference::{Cell, RefBoard};
use tafl_engine::{MAX_LEGAL_MOVES, Piece, Position, Side, Square, notation};

/// Checks one position: the library's list, count and the reference's moves agree.
fn check(position: &Position) -> usize {
    let listed = position.legal_moves().len();
    let counted = position.count_legal_moves() as usize;
    let record = notation::position_record(position);
    let reference = RefBoard::from_record(&record, position.side_to_move() == Side::Attackers)
        .expect("the library's records are valid");
    let expected = reference.legal_moves().len();
    assert_eq!(listed, expected, "listed moves of {record}");
    assert_eq!(counted, expected, "counted moves of {record}");
    assert!(listed <= MAX_LEGAL_MOVES, "{listed} moves in {record}");
    listed
}

/// The attackers on every edge square of an 11x11 board, the king on the castle: every rank and
/// file but the outer ones is a line of nine empty squares between two movers.
#[test]
fn a_full_ring_of_movers_has_every_move_listed() {
    let rules = rules(11);
    let mut pieces: Vec<(Square, Piece)> = rules
        .edge()
        .into_iter()
        .map(|square| (square, Piece::Attacker))
        .collect();
    pieces.push((rules.castle(), Piece::King));
    let position = Position::from_pieces(rules, Side::Attackers, pieces).expect("a valid setup");
    // 9 inner ranks and 9 inner files, 18 moves each (9 squares from each end), less the 4 moves
    // onto the castle, which the king holds anyway, less the blocked castle lines: counted by
    // the reference, not by hand.
    let moves = check(&position);
    assert!(moves > 250, "{moves}");
}

/// Hill-climbing towards the most moves for the side to move: from random placements, change
/// one square at a time and keep every change that does not lower the count. Every position on
/// the way is checked against the reference.
#[test]
fn the_densest_positions_found_by_search_stay_within_the_bound() {
    let mut best_overall = 0;
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |bound: u64| {
        // xorshift64: a small deterministic generator, so the test is repeatable.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % bound
    };
    for size in [9u8, 11] {
        let rules = rules(size);
        let squares: Vec<Square> = rules.board().into_iter().collect();
        let castle = rules.castle();
        for _restart in 0..4 {
            // The king sits near a corner, so the rest of the board is free for the movers.
            let king = Square::new(1, 1).expect("b2 is on every board");
            let mut cells: Vec<Option<Piece>> = squares
                .iter()
                .map(|&square| {
                    if square == king {
                        Some(Piece::King)
                    } else if square != castle && next(4) == 0 {
                        Some(Piece::Attacker)
                    } else {
                        None
                    }
                })
                .collect();
            let build = |cells: &[Option<Piece>]| {
                Position::from_pieces(
                    rules,
                    Side::Attackers,
                    squares
                        .iter()
                        .zip(cells)
                        .filter_map(|(&square, piece)| piece.map(|piece| (square, piece))),
                )
                .expect("one king, squares on the board")
            };
            let mut best = check(&build(&cells));
            for _step in 0..1500 {
                let index = next(squares.len() as u64) as usize;
                if squares[index] == king || squares[index] == castle {
                    continue;
                }
                let old = cells[index];
                cells[index] = match old {
                    None => Some(Piece::Attacker),
                    Some(_) => None,
                };
                let moves = check(&build(&cells));
                if moves >= best {
                    best = moves;
                } else {
                    cells[index] = old;
                }
            }
            best_overall = best_overall.max(best);
        }
    }
    println!("densest position found: {best_overall} legal moves (bound {MAX_LEGAL_MOVES})");
    // The search must get near the bound for the test to mean something.
    assert!(
        best_overall > 250,
        "densest position found has only {best_overall} moves"
    );
}

#[test]
fn the_reference_board_of_a_full_ring_is_what_was_built() {
    // Guards the conversion the tests above rely on: the record round trip keeps every piece.
    let rules = rules(11);
    let pieces: Vec<(Square, Piece)> = rules
        .edge()
        .into_iter()
        .map(|square| (square, Piece::Attacker))
        .chain([(rules.castle(), Piece::King)])
        .collect();
    let position = Position::from_pieces(rules, Side::Attackers, pieces).expect("a valid setup");
    let reference =
        RefBoard::from_record(&notation::position_record(&position), true).expect("valid");
    let attackers = reference
        .cells
        .iter()
        .filter(|&&c| c == Cell::Attacker)
        .count();
    assert_eq!(attackers, 40);
    assert_eq!(reference.get(5, 5), Cell::King);
}
