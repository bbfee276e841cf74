//! Game records in OpenTafl's game-record format (`.otg`, section 4 of OpenTafl's notation
//! specification): tags, the rules tag last, then one line per turn with both moves in full
//! notation (`1. e1-e3 d5-d8xd9`).

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use tafl_engine::notation::FullMove;
use tafl_engine::{Game, Side};

use crate::openings::Opening;
use crate::referee::Played;

/// What a record needs besides the game.
pub struct RecordInfo<'a> {
    /// The game's number in the match (from 1).
    pub round: usize,
    /// The variant's name.
    pub variant: &'a str,
    /// The attackers' player.
    pub attackers: &'a str,
    /// The defenders' player.
    pub defenders: &'a str,
    /// The attackers' time control tag.
    pub attackers_time: String,
    /// The defenders' time control tag.
    pub defenders_time: String,
}

/// Tag values may not hold newlines or the closing bracket.
fn clean(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\r' => ' ',
            ']' => ')',
            '[' => '(',
            c => c,
        })
        .collect()
}

/// Today's date as `YYYY.MM.DD` (UTC).
fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The record of `played`, which started from `opening`.
pub fn game_record(opening: &Opening, played: &Played, info: &RecordInfo<'_>) -> String {
    let mut out = String::new();
    let result = match played.winner() {
        Some(Side::Attackers) => "1",
        Some(Side::Defenders) => "-1",
        None => "0",
    };
    // One tag holds one time control: the attackers'; time odds are told in the start comment.
    let time_control = info.attackers_time.clone();
    let _ = writeln!(out, "[event:tafl-match]");
    let _ = writeln!(out, "[date:{}]", today());
    let _ = writeln!(out, "[round:{}]", info.round);
    let _ = writeln!(out, "[attackers:{}]", clean(info.attackers));
    let _ = writeln!(out, "[defenders:{}]", clean(info.defenders));
    let _ = writeln!(out, "[result:{result}]");
    let _ = writeln!(out, "[termination:{}]", clean(&played.termination()));
    let _ = writeln!(out, "[time-control:{}]", clean(&time_control));
    let left: Vec<String> = played
        .time_left
        .iter()
        .flatten()
        .map(|d| format!("{:.1}", d.as_secs_f64()))
        .collect();
    if left.len() == 2 {
        let _ = writeln!(out, "[time-remaining:{}, {}]", left[0], left[1]);
    }
    let _ = writeln!(out, "[variant:{}]", clean(info.variant));
    let mut comment = clean(&opening.label);
    if info.attackers_time != info.defenders_time {
        let _ = write!(
            comment,
            "; time: attackers {}, defenders {}",
            info.attackers_time, info.defenders_time
        );
    }
    let _ = writeln!(out, "[start-comment:{comment}]");
    // The rules tag is always the last tag.
    let _ = writeln!(out, "[rules:{}]", clean(&opening.rules));
    out.push('\n');
    out.push_str(&turns(&played.game));
    out
}

/// The turns of `game` from its start: a turn is a move of the side that moved first and the
/// other side's answer. Moves are in full notation without the piece letter (`e5-e8xe9`), as
/// OpenTafl writes them.
fn turns(game: &Game) -> String {
    let mut out = String::new();
    let mut position = *game.start_position();
    let mut turn = 1;
    let mut line: Vec<String> = Vec::new();
    for m in game.moves() {
        let mover = position.side_to_move();
        // A turn starts with the side that moved first in the game.
        if mover == game.start_position().side_to_move() && !line.is_empty() {
            let _ = writeln!(out, "{turn}. {}", line.join(" "));
            turn += 1;
            line.clear();
        }
        let full = FullMove {
            piece: None,
            ..FullMove::describe(&position, m)
        };
        line.push(full.to_string());
        position.play_unchecked(m);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{turn}. {}", line.join(" "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tafl_engine::Variant;

    #[test]
    fn turns_pair_the_moves_in_full_notation() {
        let mut game = Game::new(&Variant::tablut());
        for text in ["e2-h2", "e3-h3", "h2-g2"] {
            game.play(text.parse().unwrap()).unwrap();
        }
        assert_eq!(turns(&game), "1. e2-h2 e3-h3\n2. h2-g2\n");
    }

    #[test]
    fn dates_look_like_opentafls() {
        let date = today();
        assert_eq!(date.len(), 10);
        assert!(date.starts_with("20"));
        assert_eq!(&date[4..5], ".");
    }
}
