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
//!
//! Two boards can stand side by side (before and after a move, [`split_side_by_side`]): each
//! line then holds a row of each, the rank number on the left only.
//!
//! The `try_` functions say what is wrong with a diagram; the others panic with that message,
//! since a diagram written by hand in a test should stop the test loudly.
#![allow(dead_code)]

use tafl_engine::{
    Bitboard, Move, Piece, Position, RepetitionRule, RuleFlags, Rules, Side, Square,
};

/// The rules of docs/rules.md on a `size` x `size` board.
pub fn rules_for_size(size: u8) -> Rules {
    try_rules_for_size(size).unwrap_or_else(|e| panic!("{e}"))
}

/// [`rules_for_size`], or why there are none for that size.
fn try_rules_for_size(size: u8) -> Result<Rules, String> {
    match size {
        9 => Ok(Rules::TABLUT),
        11 => Ok(Rules::TAWLBWRDD),
        _ => Rules::new(
            size,
            RuleFlags::STANDARD,
            RepetitionRule::SecondOccurrenceDraws,
        )
        .map_err(|e| format!("diagram: {e}")),
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

/// The squares of each line of a diagram, top rank first, without the rank numbers and the
/// file letters at the foot.
fn diagram_lines(diagram: &str) -> Vec<Vec<&str>> {
    let mut lines = Vec::new();
    for line in diagram.lines() {
        let mut tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.is_empty() || is_file_footer(&tokens) {
            continue;
        }
        if tokens[0].bytes().all(|b| b.is_ascii_digit()) {
            tokens.remove(0);
        }
        lines.push(tokens);
    }
    lines
}

/// The rows of a diagram, top rank first, as piece letters.
fn diagram_rows(diagram: &str) -> Result<Vec<Vec<char>>, String> {
    diagram_lines(diagram)
        .into_iter()
        .map(|tokens| {
            tokens
                .iter()
                .map(|token| {
                    let mut chars = token.chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) => Ok(c),
                        _ => Err(format!(
                            "diagram: `{token}` in line `{}` is not one square",
                            tokens.join(" ")
                        )),
                    }
                })
                .collect()
        })
        .collect()
}

/// Two boards drawn side by side, as two diagrams: each line of `diagram` holds a row of the
/// left board and then the same row of the right one (the rank number on the left only, the
/// file letters at the foot optional and given for both boards or for the left one).
pub fn split_side_by_side(diagram: &str) -> Result<(String, String), String> {
    let (mut left, mut right) = (String::new(), String::new());
    for tokens in diagram_lines(diagram) {
        if tokens.len() % 2 != 0 {
            return Err(format!(
                "diagram: line `{}` has {} squares, not two rows of one width",
                tokens.join(" "),
                tokens.len()
            ));
        }
        let (left_row, right_row) = tokens.split_at(tokens.len() / 2);
        if is_file_footer(left_row) {
            continue; // the file letters under both boards
        }
        for (board, row) in [(&mut left, left_row), (&mut right, right_row)] {
            board.push_str(&row.join(" "));
            board.push('\n');
        }
    }
    Ok((left, right))
}

/// The position drawn in `diagram`, with `side` to move. Panics on a malformed diagram.
pub fn position_from_diagram(diagram: &str, side: Side) -> Position {
    try_position_from_diagram(diagram, side).unwrap_or_else(|e| panic!("{e}"))
}

/// [`position_from_diagram`], or what is wrong with the diagram.
pub fn try_position_from_diagram(diagram: &str, side: Side) -> Result<Position, String> {
    let size = diagram_rows(diagram)?.len();
    if !(5..=11).contains(&size) || size % 2 == 0 {
        return Err(format!(
            "diagram: {size} rows; a board is odd and from 5 to 11 squares wide"
        ));
    }
    try_position_from_diagram_with_rules(diagram, try_rules_for_size(size as u8)?, side)
}

/// The position drawn in `diagram` under other rules than docs/rules.md's (rule flags, repetition);
/// the diagram must have `rules.size()` rows.
pub fn position_from_diagram_with_rules(diagram: &str, rules: Rules, side: Side) -> Position {
    try_position_from_diagram_with_rules(diagram, rules, side).unwrap_or_else(|e| panic!("{e}"))
}

/// [`position_from_diagram_with_rules`], or what is wrong with the diagram.
pub fn try_position_from_diagram_with_rules(
    diagram: &str,
    rules: Rules,
    side: Side,
) -> Result<Position, String> {
    let rows = diagram_rows(diagram)?;
    let size = rows.len();
    if size != usize::from(rules.size()) {
        return Err(format!(
            "diagram: {size} rows, but the rules' board is {} wide",
            rules.size()
        ));
    }
    let mut pieces = Vec::new();
    for (row_index, row) in rows.iter().enumerate() {
        if row.len() != size {
            return Err(format!(
                "diagram: row {} (rank {}) has {} squares, the board is {size} wide",
                row_index + 1,
                size - row_index,
                row.len()
            ));
        }
        let y = (size - 1 - row_index) as u8;
        for (x, &symbol) in row.iter().enumerate() {
            let square = Square::new(x as u8, y).expect("x and y are below 11");
            let piece = match symbol {
                'a' => Piece::Attacker,
                'd' => Piece::Defender,
                'K' => Piece::King,
                '.' => continue,
                '#' if square == rules.castle() && rules.is_classic()
                    || rules.throne().contains(square) =>
                {
                    continue;
                }
                '#' => {
                    return Err(format!(
                        "diagram: `#` marks the castle or a throne only, not {square}"
                    ));
                }
                '+' if rules.special_squares().contains(square) => continue,
                '+' => {
                    return Err(format!(
                        "diagram: `+` marks a corner or fort only, not {square}"
                    ));
                }
                other => {
                    return Err(format!(
                        "diagram: `{other}` on {square} is not a . # + a d K"
                    ));
                }
            };
            pieces.push((square, piece));
        }
    }
    Position::from_pieces(rules, side, pieces).map_err(|e| format!("diagram: {e}"))
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

/// Two texts side by side, each line of `left` padded to the width of the widest, under their
/// titles: an expected board next to the one found, in failure messages.
pub fn beside(left_title: &str, left: &str, right_title: &str, right: &str) -> String {
    let width = left
        .lines()
        .chain([left_title])
        .map(|line| line.chars().count())
        .max()
        .unwrap_or(0);
    let (left_lines, right_lines): (Vec<&str>, Vec<&str>) = (
        [left_title].into_iter().chain(left.lines()).collect(),
        [right_title].into_iter().chain(right.lines()).collect(),
    );
    let mut out = String::new();
    for i in 0..left_lines.len().max(right_lines.len()) {
        let l = left_lines.get(i).copied().unwrap_or("");
        let r = right_lines.get(i).copied().unwrap_or("");
        out.push_str(format!("{l:width$}    {r}").trim_end());
        out.push('\n');
    }
    out
}

/// Plays `m`, checks that the squares it reports as captured are exactly the pieces that left
/// the board, and returns the position after it with those squares.
pub fn play_checked(position: &Position, m: Move) -> (Position, Bitboard) {
    try_play_checked(position, m).unwrap_or_else(|e| panic!("{e}"))
}

/// [`play_checked`], or what went wrong: the move refused, or a capture reported wrongly.
pub fn try_play_checked(position: &Position, m: Move) -> Result<(Position, Bitboard), String> {
    let mut after = *position;
    let captured = after
        .play(m)
        .map_err(|e| format!("{m} should be legal in\n{}: {e}", show(position)))?;
    // The pieces that vanished: those of the position before, less the one that moved, less
    // those still there after.
    let before_pieces = position.occupied() - m.from();
    let vanished = before_pieces - after.occupied();
    if captured != vanished {
        return Err(format!(
            "{m}: reported captures {captured:?} differ from the pieces removed {vanished:?} in\n{}",
            show(position)
        ));
    }
    if after.piece_at(m.to()) != position.piece_at(m.from()) {
        return Err(format!("{m}: the moving piece should stand on {}", m.to()));
    }
    Ok((after, captured))
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
