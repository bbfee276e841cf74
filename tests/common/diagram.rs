//! Board diagrams in docs/rules.md's style, turned into positions, so a test shows its board.
//!
//! ```text
//! 5  . . a . .
//! 4  . . d . .
//! 3  a d # . .
//! 2  . . . . .
//! 1  . . . . .
//!    a b c d e
//! ```
//!
//! Rank 1 at the bottom. `a` attacker, `d` defender, `K` king, `.` an empty square, `#` the empty
//! castle or throne (as `notation::diagram` prints it), `+` an empty corner or fort of custom
//! rules. Rank numbers on the left and the file letters along
//! the foot are optional. The board size is the number of rows; 9 and 11 give Tablut's and
//! Tawlbwrdd's rules, other odd sizes the same standard rules on a smaller board.
#![allow(dead_code)]

use tafl_engine::{
    Bitboard, Move, Piece, Position, RepetitionRule, RuleFlags, Rules, Side, Square,
};

/// The rules of docs/rules.md on a `size` x `size` board.
pub fn rules_for_size(size: u8) -> Rules {
    match size {
        9 => Rules::TABLUT,
        11 => Rules::TAWLBWRDD,
        _ => Rules::new(
            size,
            RuleFlags::STANDARD,
            RepetitionRule::SecondOccurrenceDraws,
        )
        .unwrap_or_else(|e| panic!("diagram: {e}")),
    }
}

/// Whether a line is the file letters at the foot of a diagram (`a b c ...`).
fn is_file_footer(tokens: &[&str]) -> bool {
    tokens
        .iter()
        .enumerate()
        .all(|(i, token)| token.len() == 1 && token.as_bytes()[0] == b'a' + i as u8)
        && tokens.len() > 2
}

/// The rows of a diagram, top rank first, as piece letters.
fn diagram_rows(diagram: &str) -> Vec<Vec<char>> {
    let mut rows = Vec::new();
    for line in diagram.lines() {
        let mut tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.is_empty() || is_file_footer(&tokens) {
            continue;
        }
        if tokens[0].bytes().all(|b| b.is_ascii_digit()) {
            tokens.remove(0);
        }
        let row: Vec<char> = tokens
            .iter()
            .map(|token| {
                let mut chars = token.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => c,
                    _ => panic!("diagram: `{token}` in line `{line}` is not one square"),
                }
            })
            .collect();
        rows.push(row);
    }
    rows
}

/// The position drawn in `diagram`, with `side` to move. Panics on a malformed diagram: the
/// diagrams are written by hand in the tests, so a mistake there should stop the test loudly.
pub fn position_from_diagram(diagram: &str, side: Side) -> Position {
    let size = diagram_rows(diagram).len();
    assert!(
        (5..=11).contains(&size) && size % 2 == 1,
        "diagram: {size} rows; a board is odd and from 5 to 11 squares wide"
    );
    position_from_diagram_with_rules(diagram, rules_for_size(size as u8), side)
}

/// The position drawn in `diagram` under other rules than docs/rules.md's (rule flags, repetition);
/// the diagram must have `rules.size()` rows.
pub fn position_from_diagram_with_rules(diagram: &str, rules: Rules, side: Side) -> Position {
    let rows = diagram_rows(diagram);
    let size = rows.len();
    assert_eq!(
        size,
        usize::from(rules.size()),
        "diagram: rows against the rules' size"
    );
    let mut pieces = Vec::new();
    for (row_index, row) in rows.iter().enumerate() {
        assert_eq!(
            row.len(),
            size,
            "diagram: row {} (rank {}) has {} squares, the board is {size} wide",
            row_index + 1,
            size - row_index,
            row.len()
        );
        let y = (size - 1 - row_index) as u8;
        for (x, &symbol) in row.iter().enumerate() {
            let square = Square::new(x as u8, y).expect("x and y are below 11");
            let piece = match symbol {
                'a' => Piece::Attacker,
                'd' => Piece::Defender,
                'K' => Piece::King,
                '.' => continue,
                '#' => {
                    assert!(
                        square == rules.castle() && rules.is_classic()
                            || rules.throne().contains(square),
                        "diagram: `#` marks the castle or a throne only, not {square}"
                    );
                    continue;
                }
                '+' => {
                    assert!(
                        rules.special_squares().contains(square),
                        "diagram: `+` marks a corner or fort only, not {square}"
                    );
                    continue;
                }
                other => panic!("diagram: `{other}` on {square} is not a . # + a d K"),
            };
            pieces.push((square, piece));
        }
    }
    Position::from_pieces(rules, side, pieces).unwrap_or_else(|e| panic!("diagram: {e}"))
}

/// A square by name (`"e5"`).
pub fn sq(name: &str) -> Square {
    name.parse()
        .unwrap_or_else(|e| panic!("`{name}` is not a square: {e}"))
}

/// A move in simple notation (`"e1-e3"`).
pub fn mv(text: &str) -> Move {
    text.parse()
        .unwrap_or_else(|e| panic!("`{text}` is not a move: {e}"))
}

/// A set of squares from their names separated by spaces (`"d5 f5"`; `""` is the empty set).
pub fn squares(names: &str) -> Bitboard {
    names.split_whitespace().map(sq).collect()
}

/// The board as docs/rules.md draws it, with the side to move: for failure messages.
pub fn show(position: &Position) -> String {
    format!(
        "{}{} to move\n",
        tafl_engine::notation::diagram(position),
        position.side_to_move()
    )
}

/// Plays `m`, checks that the squares it reports as captured are exactly the pieces that left
/// the board, and returns the position after it with those squares.
pub fn play_checked(position: &Position, m: Move) -> (Position, Bitboard) {
    let mut after = *position;
    let captured = after
        .play(m)
        .unwrap_or_else(|e| panic!("{m} should be legal in\n{}: {e}", show(position)));
    // The pieces that vanished: those of the position before, less the one that moved, less
    // those still there after.
    let before_pieces = position.occupied() - m.from();
    let vanished = before_pieces - after.occupied();
    assert_eq!(
        captured,
        vanished,
        "{m}: reported captures differ from the pieces removed in\n{}",
        show(position)
    );
    assert_eq!(
        after.piece_at(m.to()),
        position.piece_at(m.from()),
        "{m}: the moving piece should stand on {}",
        m.to()
    );
    (after, captured)
}

/// Plays `m` in the position of `before` and checks that the board is then the one of `after`
/// (with the other side to move). Returns what the move captured.
pub fn assert_move(before: &str, side: Side, m: &str, after: &str) -> Bitboard {
    let position = position_from_diagram(before, side);
    let (played, captured) = play_checked(&position, mv(m));
    let expected = position_from_diagram(after, side.opponent());
    assert_eq!(
        played,
        expected,
        "after {m}, expected\n{}got\n{}",
        show(&expected),
        show(&played)
    );
    captured
}
