//! The board as an SVG picture, drawn here (no other library): for Jupyter (`_repr_svg_`) and
//! for anyone who wants a picture of a position.

use std::fmt::Write as _;

use tafl_engine::{Bitboard, Grid, Move, Piece, Position, Square, position_string};

/// Side of a square, in SVG units.
const CELL: usize = 40;
/// Room around the board for the file letters and rank numbers.
const MARGIN: usize = 24;

/// Colours: board, special squares, lines, the pieces, the last move.
const BOARD: &str = "#ecd9b0";
const THRONE: &str = "#b9915a";
const CORNER: &str = "#a77b47";
const OTHER_SPECIAL: &str = "#d7bd8a";
const LINE: &str = "#6b5433";
const ATTACKER: &str = "#2b2b2b";
const DEFENDER: &str = "#f7f7f2";
const LAST_MOVE: &str = "#3b7dd8";

/// The SVG of `position` (`last_move` outlined when given): rank 1 at the bottom, files along
/// the foot, ranks up the left; attackers dark, defenders light, the king light with a cross;
/// the throne, corners and other special squares shaded. Every piece is a `<circle>` with the
/// class `attacker`, `defender` or `king`; the `<title>` is the position string.
pub fn draw<B: Grid>(position: &Position<B>, last_move: Option<Move<B>>) -> String {
    let rules = position.rules();
    let n = usize::from(rules.size());
    let side = n * CELL + 2 * MARGIN;
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side}" viewBox="0 0 {side} {side}" font-family="sans-serif" font-size="13">"#
    );
    let _ = write!(out, "<title>{}</title>", position_string::write(position));
    let _ = write!(
        out,
        r#"<rect x="0" y="0" width="{side}" height="{side}" fill="white"/>"#
    );
    // The pixel of a square's top left corner: rank 1 is the bottom row.
    let corner = |square: Square<B>| {
        let x = MARGIN + usize::from(square.x()) * CELL;
        let y = MARGIN + (n - 1 - usize::from(square.y())) * CELL;
        (x, y)
    };
    let (throne, corners, special) = (rules.throne(), rules.corners(), rules.special_squares());
    for square in rules.board() {
        let fill = if throne.contains(square) {
            THRONE
        } else if corners.contains(square) {
            CORNER
        } else if special.contains(square) {
            OTHER_SPECIAL
        } else {
            BOARD
        };
        let (x, y) = corner(square);
        let _ = write!(
            out,
            r#"<rect class="square" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="{LINE}" stroke-width="1"/>"#
        );
    }
    if let Some(m) = last_move {
        for square in Bitboard::from_square(m.from()) | m.to() {
            let (x, y) = corner(square);
            let _ = write!(
                out,
                r#"<rect class="last-move" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{LAST_MOVE}" stroke-width="3"/>"#,
                x + 2,
                y + 2,
                CELL - 4,
                CELL - 4
            );
        }
    }
    let radius = CELL * 2 / 5;
    for (square, piece) in position.pieces_with_squares() {
        let (x, y) = corner(square);
        let (cx, cy) = (x + CELL / 2, y + CELL / 2);
        let (class, fill) = match piece {
            Piece::Attacker => ("attacker", ATTACKER),
            Piece::Defender => ("defender", DEFENDER),
            Piece::King => ("king", DEFENDER),
        };
        let _ = write!(
            out,
            r#"<circle class="{class}" cx="{cx}" cy="{cy}" r="{radius}" fill="{fill}" stroke="{ATTACKER}" stroke-width="2"/>"#
        );
        if piece == Piece::King {
            let arm = radius / 2;
            let _ = write!(
                out,
                r#"<path d="M{} {cy}H{}M{cx} {}V{}" stroke="{ATTACKER}" stroke-width="3"/>"#,
                cx - arm,
                cx + arm,
                cy - arm,
                cy + arm
            );
        }
    }
    for index in 0..n {
        // Up to 19 files: a to s.
        let letter = char::from(b'a' + index as u8);
        let x = MARGIN + index * CELL + CELL / 2;
        let _ = write!(
            out,
            r#"<text x="{x}" y="{}" text-anchor="middle" fill="{LINE}">{letter}</text>"#,
            side - MARGIN / 3
        );
        let y = MARGIN + (n - 1 - index) * CELL + CELL / 2 + 5;
        let _ = write!(
            out,
            r#"<text x="{}" y="{y}" text-anchor="middle" fill="{LINE}">{}</text>"#,
            MARGIN / 2,
            index + 1
        );
    }
    out.push_str("</svg>");
    out
}
