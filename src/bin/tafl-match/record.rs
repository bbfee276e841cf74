//! The game records of a match: the library's OpenTafl game records
//! ([`tafl_engine::record::GameRecord`]) with the tags of a match (round, players, result, how
//! it ended, time control, the opening).

use std::time::{SystemTime, UNIX_EPOCH};

use tafl_engine::Variant;
use tafl_engine::record::GameRecord;

use crate::openings::Opening;
use crate::referee::Played;

/// What a record needs besides the game.
pub struct RecordInfo<'a> {
    /// The game's number in the match (from 1).
    pub round: usize,
    /// The variant: its name, and the rules the game was played under.
    pub variant: &'a Variant,
    /// The attackers' player.
    pub attackers: &'a str,
    /// The defenders' player.
    pub defenders: &'a str,
    /// The attackers' time control tag.
    pub attackers_time: String,
    /// The defenders' time control tag.
    pub defenders_time: String,
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

/// The record of `played`, which started from `opening`: the match's tags, then the rules (with
/// the game's start: the opening's set-up position, if it has one) and the moves.
pub fn game_record(opening: &Opening, played: &Played, info: &RecordInfo<'_>) -> String {
    let mut record = GameRecord::new(info.variant.clone(), played.game.clone());
    record.set_tag("event", "tafl-match");
    record.set_tag("date", &today());
    record.set_tag("round", &info.round.to_string());
    record.set_tag("attackers", info.attackers);
    record.set_tag("defenders", info.defenders);
    record.set_tag("result", GameRecord::result_value(played.winner()));
    record.set_tag("termination", &played.termination());
    // One tag holds one time control: the attackers'; time odds are told in the start comment.
    record.set_tag("time-control", &info.attackers_time);
    let left: Vec<String> = played
        .time_left
        .iter()
        .flatten()
        .map(|d| format!("{:.1}", d.as_secs_f64()))
        .collect();
    if left.len() == 2 {
        record.set_tag("time-remaining", &format!("{}, {}", left[0], left[1]));
    }
    record.set_tag("variant", info.variant.name());
    let mut comment = opening.label.clone();
    if info.attackers_time != info.defenders_time {
        comment.push_str(&format!(
            "; time: attackers {}, defenders {}",
            info.attackers_time, info.defenders_time
        ));
    }
    record.set_tag("start-comment", &comment);
    record.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_look_like_opentafls() {
        let date = today();
        assert_eq!(date.len(), 10);
        assert!(date.starts_with("20"));
        assert_eq!(&date[4..5], ".");
    }
}
