//! The game records of a match: OpenTafl's game-record format (`.otg`, written by the library's
//! [`tafl_engine::record::GameRecord`], on either grid) with the tags of a match (round,
//! players, result, how it ended, time control, the opening).

use std::time::{SystemTime, UNIX_EPOCH};

use tafl_engine::record::GameRecord;
use tafl_engine::{Grid, Variant};

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
pub fn game_record<B: Grid>(
    opening: &Opening<B>,
    played: &Played<B>,
    info: &RecordInfo<'_>,
) -> String {
    // The rules are written with the game's start, under the variant's name.
    let variant = Variant::new(info.variant, *played.game.start_position());
    let mut record = GameRecord::new(variant, played.game.clone());
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
    record.set_tag("variant", info.variant);
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

    use std::time::Duration;

    use tafl_engine::notation::FullMove;
    use tafl_engine::{Game, Side, Wide};

    use crate::referee::Ending;

    /// A played game of `plies` random plies from `opening`, won by the attackers on time.
    fn played<B: Grid>(opening: &Opening<B>, plies: u64) -> Played<B> {
        let mut game = opening.game.clone();
        let mut rng = crate::rng::Rng::new(plies);
        for _ in 0..plies {
            let mut moves = game.legal_moves();
            moves.sort();
            let Some(m) = rng.pick(&moves) else { break };
            game.play(m).unwrap();
        }
        Played {
            game,
            ending: Ending::Forfeit {
                loser: Side::Defenders,
                kind: crate::referee::ForfeitKind::Time,
                why: "B [slow]".to_string(),
            },
            a_side: Side::Attackers,
            time_left: [Some(Duration::from_millis(1500)), Some(Duration::ZERO)],
        }
    }

    fn info(variant: &str) -> RecordInfo<'_> {
        RecordInfo {
            round: 3,
            variant,
            attackers: "A",
            defenders: "B",
            attackers_time: "20".to_string(),
            defenders_time: "200".to_string(),
        }
    }

    #[test]
    fn records_of_narrow_games_read_back_with_their_set_up_starts() {
        for variant in [
            tafl_engine::Variant::tablut(),
            tafl_engine::Variant::copenhagen(),
        ] {
            let mut openings = crate::openings::seeded(&variant, 2, 4, 9);
            // A set-up position too: its rules carry its start.
            let text = format!(
                "{} defenders",
                tafl_engine::notation::position_record(&variant.start())
            );
            openings.extend(crate::openings::from_text(&variant, &text, &mut |w| {
                panic!("{w}")
            }));
            for (index, opening) in openings.iter().enumerate() {
                let played = played(opening, 40 + index as u64);
                let text = game_record(opening, &played, &info(variant.name()));
                assert!(
                    text.contains("[termination:attackers win: the defenders forfeit (B (slow))]")
                );
                let read: GameRecord = text.parse().unwrap();
                assert_eq!(read.game, played.game);
                assert_eq!(read.tag("round"), Some("3"));
            }
        }
    }

    #[test]
    fn wide_records_hold_the_games_rules_and_full_moves() {
        let variant = tafl_engine::Variant::<Wide>::hnefatafl_org_copenhagen_13();
        let opening = &crate::openings::seeded(&variant, 1, 4, 5)[0];
        let played = played(opening, 120);
        let text = game_record(opening, &played, &info(variant.name()));
        assert!(
            text.contains(&format!("\n[rules:{variant}]\n\n1. ")),
            "{text}"
        );
        assert!(text.contains("[result:1]"), "{text}");
        let turns = text.split("\n\n").nth(1).unwrap();
        let mut game = Game::new(&variant);
        for line in turns.lines() {
            for word in line.split_whitespace().skip(1) {
                let full: FullMove<Wide> = word.parse().unwrap();
                game.play(full.mv).unwrap();
            }
        }
        assert_eq!(game, played.game);
        assert!(text.contains('x'), "captures are written: {text}");
        let read: GameRecord<Wide> = text.parse().unwrap();
        assert_eq!(read.game, played.game);
    }

    #[test]
    fn dates_look_like_opentafls() {
        let date = today();
        assert_eq!(date.len(), 10);
        assert!(date.starts_with("20"));
        assert_eq!(&date[4..5], ".");
    }
}
