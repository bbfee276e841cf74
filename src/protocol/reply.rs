//! The lines the engine prints: how each form is written, and a check that a line is one of
//! the documented forms (docs/protocol.md lists them all).
//!
//! Every line is printable US-ASCII. OpenTafl tells commands apart by their first word's prefix
//! (`startsWith("move")`), so no reply of the engine's own commands starts with an OTEP word.

use std::time::Duration;

use crate::board::Wide;
use crate::moves::Move;
use crate::notation;
use crate::play::Grid;
use crate::position::Position;
use crate::search::{PlayingEvaluation, Score};

/// Longest free text in an `error` or `status` line, in characters.
const MAX_TEXT_CHARS: usize = 400;

/// `text` as printable ASCII: anything else escaped, and cut after `max_chars` characters
/// (marked `...`), so that it stays within one line.
pub(crate) fn printable(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == max_chars {
            out.push_str("...");
            break;
        }
        if c.is_ascii_graphic() || c == ' ' {
            out.push(c);
        } else {
            out.push_str(&c.escape_default().to_string());
        }
    }
    out
}

/// Free text made safe for one line: anything but printable ASCII escaped, long text cut.
pub fn sanitize(text: &str) -> String {
    let out = printable(text, MAX_TEXT_CHARS);
    let trimmed = out.trim();
    if trimmed.is_empty() {
        "(no text)".to_string()
    } else {
        trimmed.to_string()
    }
}

/// `error 0 <text>` (`critical`: `error -1 <text>`).
pub fn error(critical: bool, text: &str) -> String {
    let code = if critical { -1 } else { 0 };
    format!("error {code} {}", sanitize(text))
}

/// `status <text>`.
pub fn status(text: &str) -> String {
    format!("status {}", sanitize(text))
}

/// An evaluation as OTEP wants it: a decimal number from the side to move's point of view.
pub fn decimal(score: Score) -> String {
    format!("{:.2}", score.as_decimal())
}

/// A duration in seconds with three decimals.
pub fn seconds(time: Duration) -> String {
    format!("{:.3}", time.as_secs_f64())
}

/// Nodes per second (0 for no time at all).
pub fn nodes_per_second(nodes: u64, time: Duration) -> u64 {
    let micros = time.as_micros().max(1);
    u64::try_from(u128::from(nodes) * 1_000_000 / micros).unwrap_or(u64::MAX)
}

/// Moves joined by `sep`.
pub fn join_moves<B: Grid>(moves: &[Move<B>], sep: &str) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

/// The lines of `show`: the diagram, then `variant`, `evaluation`, `to-move`, `hash`, `record`,
/// `result` lines.
pub fn show_lines<B: Grid>(
    position: &Position<B>,
    result: Option<String>,
    variant: &str,
    evaluation: &PlayingEvaluation,
) -> Vec<String> {
    let mut lines: Vec<String> = notation::diagram(position)
        .lines()
        .map(str::to_string)
        .collect();
    lines.push(format!("variant {}", sanitize(variant)));
    lines.push(format!("evaluation {}", sanitize(&evaluation.to_string())));
    lines.push(format!("to-move {}", position.side_to_move()));
    lines.push(format!("hash {:016x}", position.hash()));
    lines.push(format!("record {}", notation::position_record(position)));
    lines.push(match result {
        Some(text) => format!("result {}", sanitize(&text)),
        None => "result none".to_string(),
    });
    lines
}

fn is_printable(line: &str) -> bool {
    line.chars().all(|c| c.is_ascii_graphic() || c == ' ')
}

fn is_simple_move(word: &str) -> bool {
    // The wide grid's moves: every board's, up to 19x19.
    word.parse::<Move<Wide>>()
        .is_ok_and(|m| m.to_string() == word)
}

fn is_number(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit())
}

/// `-12.50`, `0.35`, `997.00`: an optional minus, digits, a point and digits.
fn is_decimal(word: &str) -> bool {
    let unsigned = word.strip_prefix('-').unwrap_or(word);
    match unsigned.split_once('.') {
        Some((whole, fraction)) => is_number(whole) && is_number(fraction),
        None => is_number(unsigned),
    }
}

fn is_free_text(rest: &str) -> bool {
    !rest.trim().is_empty()
}

/// A diagram row `9  . . . a a a . . .` or the file line `   a b c ...`.
/// Board sizes the engine plays (odd, 5 to 19: see `Rules::new` and docs/wide-boards.md).
fn is_board_width(width: usize) -> bool {
    width % 2 == 1 && (5..=usize::from(Wide::MAX_SIZE)).contains(&width)
}

fn is_diagram_line(line: &str) -> bool {
    let trimmed = line.trim_start();
    let mut words = trimmed.split(' ').filter(|w| !w.is_empty());
    let Some(first) = words.next() else {
        return false;
    };
    if is_number(first) {
        let Ok(rank) = first.parse::<usize>() else {
            return false;
        };
        let squares: Vec<&str> = words.collect();
        rank >= 1
            && is_board_width(squares.len())
            && rank <= squares.len()
            && squares
                .iter()
                .all(|s| matches!(*s, "." | "#" | "+" | "a" | "d" | "K"))
    } else {
        let files: Vec<&str> = trimmed.split(' ').filter(|w| !w.is_empty()).collect();
        is_board_width(files.len())
            && files
                .iter()
                .enumerate()
                .all(|(i, f)| f.len() == 1 && f.as_bytes()[0] == b'a' + i as u8)
    }
}

fn is_analysis(rest: &str) -> bool {
    let words: Vec<&str> = rest.split(' ').collect();
    let Some((count, pairs)) = words.split_first() else {
        return false;
    };
    is_number(count)
        && count.parse::<usize>().ok() == Some(pairs.len() / 2)
        && pairs.len() % 2 == 0
        && pairs
            .chunks(2)
            .all(|pair| pair[0].split('|').all(is_simple_move) && is_decimal(pair[1]))
}

/// `info depth <d> score <s> nodes <n> nps <n> time <s> pv <moves...>`.
fn is_info(rest: &str) -> bool {
    let words: Vec<&str> = rest.split(' ').collect();
    words.len() >= 11
        && words[0] == "depth"
        && is_number(words[1])
        && words[2] == "score"
        && is_decimal(words[3])
        && words[4] == "nodes"
        && is_number(words[5])
        && words[6] == "nps"
        && is_number(words[7])
        && words[8] == "time"
        && is_decimal(words[9])
        && words[10] == "pv"
        && words[11..].iter().all(|w| is_simple_move(w))
}

/// `perft <depth> <nodes> time <s> nps <n>`.
fn is_perft(rest: &str) -> bool {
    let words: Vec<&str> = rest.split(' ').collect();
    words.len() == 6
        && is_number(words[0])
        && is_number(words[1])
        && words[2] == "time"
        && is_decimal(words[3])
        && words[4] == "nps"
        && is_number(words[5])
}

/// `stopped perft|divide <depth> time <s>`: a count that `stop` ended.
fn is_stopped_count(rest: &str) -> bool {
    let words: Vec<&str> = rest.split(' ').collect();
    words.len() == 4
        && matches!(words[0], "perft" | "divide")
        && is_number(words[1])
        && words[2] == "time"
        && is_decimal(words[3])
}

/// Whether `line` is one of the forms the engine documents (see docs/protocol.md), with no line
/// break and nothing but printable ASCII. The fuzz target and the tests hold every reply to it.
///
/// ```
/// use tafl_engine::protocol::is_documented_reply;
/// assert!(is_documented_reply("move e2-h2"));
/// assert!(is_documented_reply("analysis 1 e2-h2|e3-h3 0.25"));
/// assert!(!is_documented_reply("move e2-h2 now"));
/// ```
pub fn is_documented_reply(line: &str) -> bool {
    if line.is_empty() || !is_printable(line) {
        return false;
    }
    if line == "hello" {
        return true;
    }
    if is_diagram_line(line) {
        return true;
    }
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    match word {
        "move" => is_simple_move(rest),
        "analysis" => is_analysis(rest),
        "status" | "help" | "variant" | "evaluation" => is_free_text(rest),
        "error" => {
            let (code, text) = rest.split_once(' ').unwrap_or((rest, ""));
            matches!(code, "0" | "-1") && is_free_text(text)
        }
        "info" => match rest.strip_prefix("string ") {
            // A note about a person's `go` (threads the system refused, a failed search).
            Some(text) => is_free_text(text),
            None => is_info(rest),
        },
        "bestmove" => rest == "none" || is_simple_move(rest),
        "perft" => is_perft(rest),
        "stopped" => is_stopped_count(rest),
        "to-move" => matches!(rest, "attackers" | "defenders"),
        "hash" => rest.len() == 16 && rest.bytes().all(|b| b.is_ascii_hexdigit()),
        "record" => rest.starts_with('/') && !rest.contains(' '),
        "result" => is_free_text(rest),
        "legal-moves" => {
            let mut words = rest.split(' ');
            let count = words.next().and_then(|w| w.parse::<usize>().ok());
            let moves: Vec<&str> = words.filter(|w| !w.is_empty()).collect();
            count == Some(moves.len()) && moves.iter().all(|m| is_simple_move(m))
        }
        // A divide line: `<move> <count>`.
        _ => is_simple_move(word) && is_number(rest),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_forms_are_accepted() {
        for line in [
            "hello",
            "move a4-a2",
            "move k10-k11",
            "analysis 2 e2-h2|e3-h3 0.25 d1-d3 -1.50",
            "analysis 0",
            "status depth 3 score 0.10",
            "error 0 unknown command 'x'",
            "error -1 rules refused: field 'linc:y'",
            "info depth 2 score 0.00 nodes 100 nps 1000 time 0.100 pv e2-h2 e3-h3",
            "bestmove e2-h2",
            "bestmove none",
            "perft 5 1611674360 time 1.234 nps 1306000000",
            "stopped perft 9 time 0.012",
            "stopped divide 7 time 3.500",
            "e2-h2 55",
            "9  . . . a a a . . .",
            "11  . . . . a a a . . . .",
            " 5  a a d d K d d a a",
            "   a b c d e f g h i",
            "    a b c d e f g h i j k",
            "19  + + a . . a . . . . . . . a . . a + +",
            "    a b c d e f g h i j k l m n o p q r s",
            "move s19-s1",
            "bestmove m13-m10",
            "to-move defenders",
            "hash 0123456789abcdef",
            "record /3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
            "result none",
            "legal-moves 2 a4-a2 a4-a3",
            "legal-moves 0",
            "help perft <depth>: count move paths",
            "variant Tablut",
            "evaluation network edge-9 (built-in)",
            "evaluation hand-written",
        ] {
            assert!(is_documented_reply(line), "{line:?}");
        }
    }

    #[test]
    fn other_lines_are_refused() {
        for line in [
            "",
            "hello there",
            "move",
            "move e2-h2 extra",
            "move Ke2-h2",
            "analysis 2 e2-h2 0.25",
            "analysis 1 e2-h2 high",
            "status",
            "status ",
            "error 1 wrong side",
            "error 0",
            "perft 5",
            "perft 5 100",
            "stopped",
            "stopped perft 9",
            "stopped go 9 time 0.1",
            "stopped perft nine time 0.1",
            "e2-h2",
            "e2-h2 x",
            "bestmove",
            "move e2-h2\n",
            "status caf\u{e9}",
            "legal-moves 3 a4-a2",
            "9  . . x",
            "   a b d",
            "21  . . . . . . . . . . . . . . . . . . . . .",
            "    a b c d e f g h i j k l m n o p q r s t u",
            "12  . . . . . . . . . . . .",
            "move t1-t2",
        ] {
            assert!(!is_documented_reply(line), "{line:?}");
        }
    }

    #[test]
    fn show_lines_are_documented() {
        for position in [Position::tablut(), Position::tawlbwrdd()] {
            let given = PlayingEvaluation::Given("a\nnetwork".to_string());
            for line in show_lines(&position, Some("draw: agreed".into()), "Tablut", &given) {
                assert!(is_documented_reply(&line), "{line:?}");
            }
        }
        let thirteen = crate::Variant::<Wide>::hnefatafl_org_copenhagen_13().start();
        let lines = show_lines(
            &thirteen,
            None,
            "Copenhagen 13x13",
            &PlayingEvaluation::HandWritten,
        );
        assert!(
            lines[0].starts_with("13  + . . a a a a a a a . . +"),
            "{lines:?}"
        );
        for line in lines {
            assert!(is_documented_reply(&line), "{line:?}");
        }
    }

    #[test]
    fn sanitized_text_is_one_printable_line() {
        let text = sanitize("a\nb\r\u{0}c\u{fffd}");
        assert!(is_printable(&text));
        assert_eq!(sanitize("   "), "(no text)");
        assert!(sanitize(&"z".repeat(10_000)).len() < 500);
    }
}
