//! Openings: a few seeded random plies from the start, or lines of a file.
//!
//! An openings file holds one opening a line; empty lines and lines starting with `#` are
//! skipped. A line is either
//! - moves from the variant's start, in simple or full notation, separated by spaces
//!   (`e2-h2 e3-h3`), or
//! - a position record (it starts with `/`), optionally followed by the side to move
//!   (`attackers` or `defenders`; without it, the side that moves first in the variant).
//!
//! A line that does not fit a variant of the match (wrong board size, an illegal move) is
//! skipped for that variant with a warning. The file is read whole, so it is refused when it is
//! over [`MAX_FILE_BYTES`]; a line over [`MAX_LINE_BYTES`] is skipped without being read as
//! moves; after [`MAX_WARNINGS`] warnings for a variant, the rest are counted in one line.
//!
//! Nothing here grows with the number of games: seeded openings are made one at a time
//! ([`SeededOpenings`]), and of a file only the text and where each fitting line starts are kept
//! ([`fitting_lines`]), a line read again as its opening when a game needs it.

use std::io::Read;
use std::path::Path;

use tafl_engine::{Game, Grid, Move, Narrow, Side, Variant, notation};

use crate::rng::Rng;

/// One opening: the game to start from (moves already played, or a set-up position) and how it
/// was made, on the game's grid.
#[derive(Clone, Debug)]
pub struct Opening<B: Grid = Narrow> {
    /// The game so far.
    pub game: Game<B>,
    /// The rules string the engines get: the variant's, or, for a set-up position, one whose
    /// start is that position.
    pub rules: String,
    /// Where it came from, for the output.
    pub label: String,
}

/// The most attempts in a row at a seeded opening: a random game that ends within the
/// opening's plies is thrown away and another tried.
pub const MAX_ATTEMPTS: usize = 100;

/// Seeded openings of a variant, made one at a time: each of `plies` random plies from the
/// start, a game that ends within them thrown away. The moves are sorted before a pick, so that
/// openings do not depend on the move generator's order.
#[derive(Clone, Debug)]
pub struct SeededOpenings<B: Grid = Narrow> {
    variant: Variant<B>,
    plies: u32,
    rng: Rng,
    made: usize,
}

impl<B: Grid> SeededOpenings<B> {
    /// The stream of `variant`'s openings for `seed`.
    pub fn new(variant: &Variant<B>, plies: u32, seed: u64) -> SeededOpenings<B> {
        SeededOpenings {
            variant: variant.clone(),
            plies,
            rng: Rng::new(seed ^ hash_name(variant.name())),
            made: 0,
        }
    }

    /// The next opening; `None` when [`MAX_ATTEMPTS`] random games in a row ended within the
    /// opening's plies.
    pub fn next_opening(&mut self) -> Option<Opening<B>> {
        for _ in 0..MAX_ATTEMPTS {
            let mut game = Game::new(&self.variant);
            for _ in 0..self.plies {
                let mut moves = game.legal_moves();
                moves.sort();
                let Some(m) = self.rng.pick(&moves) else {
                    break;
                };
                if game.play(m).is_err() {
                    break;
                }
            }
            // An opening must leave a game to play.
            if game.outcome().is_some() {
                continue;
            }
            self.made += 1;
            let line: Vec<String> = game.moves().map(|m| m.to_string()).collect();
            return Some(Opening {
                label: format!("seeded opening {}: {}", self.made, line.join(" ")),
                game,
                rules: self.variant.to_string(),
            });
        }
        None
    }
}

/// The first `count` seeded openings (fewer if the stream gives out).
#[cfg(test)]
pub fn seeded<B: Grid>(
    variant: &Variant<B>,
    count: usize,
    plies: u32,
    seed: u64,
) -> Vec<Opening<B>> {
    let mut stream = SeededOpenings::new(variant, plies, seed);
    std::iter::from_fn(|| stream.next_opening())
        .take(count)
        .collect()
}

fn hash_name(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The largest openings file read: 8 MiB (a hundred thousand openings of a dozen moves take
/// under 4 MiB).
pub const MAX_FILE_BYTES: u64 = 8 << 20;

/// The longest line read as an opening: 16 KiB (over 2 000 moves).
pub const MAX_LINE_BYTES: usize = 16 << 10;

/// Warnings printed for one variant; the lines skipped after them are counted in one more.
pub const MAX_WARNINGS: usize = 20;

/// Reads an openings file as text: at most [`MAX_FILE_BYTES`], UTF-8.
pub fn read_file(path: &Path) -> Result<String, String> {
    let cannot = |error: std::io::Error| format!("cannot read {}: {error}", path.display());
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "{} is over {} MiB, the most an openings file may hold (one opening a line)",
            path.display(),
            MAX_FILE_BYTES >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|error| {
        let at = error.utf8_error().valid_up_to();
        // The line the bad byte is on: one more than the line breaks before it.
        let line = 1 + error.as_bytes()[..at]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        format!(
            "{} is not UTF-8 text: line {line} holds a byte that is not (byte {at} of the file)",
            path.display()
        )
    })
}

/// The first characters of `text`, quoted, for a message about it.
fn excerpt(text: &str) -> String {
    const SHOWN: usize = 40;
    let shown: String = text.chars().take(SHOWN).collect();
    if shown.len() < text.len() {
        format!("{shown:?}... ({} bytes)", text.len())
    } else {
        format!("{shown:?}")
    }
}

/// A line of an openings file that fits a variant: its number (from 1) and where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileLine {
    /// The line's number, from 1.
    pub number: u32,
    /// Its first byte in the text.
    pub start: u32,
}

/// The lines of a file's text that fit `variant`, with a warning for each line that does not
/// (up to [`MAX_WARNINGS`], then one that counts the rest). The text is at most
/// [`MAX_FILE_BYTES`], so its offsets fit a `u32`.
pub fn fitting_lines<B: Grid>(
    variant: &Variant<B>,
    text: &str,
    warn: &mut dyn FnMut(String),
) -> Vec<FileLine> {
    let mut fitting = Vec::new();
    let mut skipped = 0usize;
    let mut skip = |number: usize, why: String| {
        skipped += 1;
        if skipped <= MAX_WARNINGS {
            // The library's errors quote what they refuse: keep a warning to a line.
            let why = match why.char_indices().nth(200) {
                Some((cut, _)) => format!("{}...", &why[..cut]),
                None => why,
            };
            warn(format!(
                "openings line {number}: skipped for {}: {why}",
                variant.name()
            ));
        }
    };
    let mut start = 0usize;
    for (index, raw) in text.split_inclusive('\n').enumerate() {
        let number = index + 1;
        let line_start = start;
        start += raw.len();
        let line = raw.strip_suffix('\n').unwrap_or(raw);
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.len() > MAX_LINE_BYTES {
            skip(
                number,
                format!(
                    "the line is {} bytes long, over the {MAX_LINE_BYTES} an opening may have",
                    line.len()
                ),
            );
            continue;
        }
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_line(variant, line) {
            Ok(_) => match (u32::try_from(number), u32::try_from(line_start)) {
                (Ok(number), Ok(start)) => fitting.push(FileLine { number, start }),
                _ => skip(number, "the text is over 4 GiB".to_string()),
            },
            Err(why) => skip(number, why),
        }
    }
    if skipped > MAX_WARNINGS {
        warn(format!(
            "openings: {} more lines skipped for {} (the first {MAX_WARNINGS} are named above)",
            skipped - MAX_WARNINGS,
            variant.name()
        ));
    }
    fitting
}

/// The opening of a line that [`fitting_lines`] found in `text` for `variant`.
pub fn opening_at<B: Grid>(
    variant: &Variant<B>,
    text: &str,
    line: FileLine,
) -> Result<Opening<B>, String> {
    let rest = text.get(line.start as usize..).unwrap_or_default();
    let words = rest.split('\n').next().unwrap_or_default().trim();
    let mut opening = parse_line(variant, words)
        .map_err(|why| format!("openings line {}: {why}", line.number))?;
    opening.label = format!("opening line {}: {words}", line.number);
    Ok(opening)
}

/// The openings of a file's text that fit `variant`, with the warnings of [`fitting_lines`].
#[cfg(test)]
pub fn from_text<B: Grid>(
    variant: &Variant<B>,
    text: &str,
    warn: &mut dyn FnMut(String),
) -> Vec<Opening<B>> {
    fitting_lines(variant, text, warn)
        .into_iter()
        .map(|line| opening_at(variant, text, line).expect("a fitting line reads again"))
        .collect()
}

fn parse_line<B: Grid>(variant: &Variant<B>, line: &str) -> Result<Opening<B>, String> {
    if line.starts_with('/') {
        let mut words = line.split_whitespace();
        let record = words.next().unwrap_or_default();
        let side = match words.next() {
            None => variant.start().side_to_move(),
            Some("attackers") => Side::Attackers,
            Some("defenders") => Side::Defenders,
            Some(other) => {
                return Err(format!("{} is not attackers or defenders", excerpt(other)));
            }
        };
        if let Some(extra) = words.next() {
            return Err(format!(
                "unexpected {} after the side to move",
                excerpt(extra)
            ));
        }
        let position = notation::parse_position_record(record, variant.rules(), side)
            .map_err(|error| error.to_string())?;
        let game = Game::from_position(position);
        if let Some(outcome) = game.outcome() {
            return Err(format!("the game is already over ({outcome})"));
        }
        let start = Variant::new(variant.name(), position);
        return Ok(Opening {
            game,
            rules: start.to_string(),
            label: String::new(),
        });
    }
    let mut game = Game::new(variant);
    for word in line.split_whitespace() {
        let m: Move<B> = word
            .parse()
            .map_err(|error| format!("{} is not a move: {error}", excerpt(word)))?;
        game.play(m)
            .map_err(|error| format!("{} cannot be played: {error}", excerpt(word)))?;
    }
    if let Some(outcome) = game.outcome() {
        return Err(format!("the game is already over ({outcome})"));
    }
    Ok(Opening {
        game,
        rules: variant.to_string(),
        label: String::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tafl_engine::Wide;

    #[test]
    fn seeded_openings_are_reproducible_and_playable() {
        let tablut = Variant::tablut();
        let first = seeded(&tablut, 5, 4, 7);
        let again = seeded(&tablut, 5, 4, 7);
        assert_eq!(first.len(), 5);
        for (a, b) in first.iter().zip(&again) {
            assert_eq!(a.game, b.game);
            assert_eq!(a.game.moves().len(), 4);
            assert!(a.game.outcome().is_none());
        }
        assert_ne!(first[0].game, seeded(&tablut, 1, 4, 8)[0].game);
    }

    #[test]
    fn openings_of_boards_above_11x11_are_played_on_the_wide_grid() {
        let variant = Variant::<Wide>::hnefatafl_org_copenhagen_13();
        let openings = seeded(&variant, 3, 6, 7);
        assert_eq!(openings.len(), 3);
        assert!(openings.iter().all(|o| o.game.moves().len() == 6));
        assert!(openings[0].rules.starts_with("dim:13 "));
        let record = notation::position_record(&variant.start());
        let text = format!("d1-d2 g4-g3\ns19-s18\n{record} defenders\n");
        let mut warnings = Vec::new();
        let read = from_text(&variant, &text, &mut |w| warnings.push(w));
        assert_eq!(read.len(), 2, "{warnings:?}");
        assert_eq!(read[0].game.moves().len(), 2);
        assert!(warnings[0].contains("line 2"), "{warnings:?}");
        assert_eq!(read[1].game.position().side_to_move(), Side::Defenders);
        assert!(
            read[1]
                .rules
                .starts_with("dim:13 name:Copenhagen_13x13_(hnefatafl.org) atkf:n")
        );
    }

    #[test]
    fn long_lines_and_many_bad_lines_give_few_short_warnings() {
        let mut text = format!("{}\n", "\0".repeat(MAX_LINE_BYTES + 1));
        text.push_str(&format!("{}\n", "e2-h2".repeat(3000)));
        for _ in 0..100 {
            text.push_str("a1-a2\n");
        }
        text.push_str("e2-h2\n");
        let mut warnings = Vec::new();
        let openings = from_text(&Variant::tablut(), &text, &mut |w| warnings.push(w));
        assert_eq!(openings.len(), 1);
        assert_eq!(warnings.len(), MAX_WARNINGS + 1, "{warnings:?}");
        assert!(
            warnings[0].contains("the line is 16385 bytes long, over the 16384"),
            "{}",
            warnings[0]
        );
        assert!(warnings.iter().all(|w| w.len() < 400), "{warnings:?}");
        assert!(
            warnings[MAX_WARNINGS].contains("82 more lines skipped for Tablut"),
            "{}",
            warnings[MAX_WARNINGS]
        );
    }

    #[test]
    fn file_lines_are_moves_or_positions_and_bad_ones_are_skipped() {
        let text = "# a comment\n\ne2-h2 e3-h3\n/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/ defenders\n\
                    a1-a2\n/3ttt3/ attackers\n";
        let mut warnings = Vec::new();
        let openings = from_text(&Variant::tablut(), text, &mut |w| warnings.push(w));
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].game.moves().len(), 2);
        assert_eq!(openings[1].game.position().side_to_move(), Side::Defenders);
        assert!(openings[1].rules.contains("atkf:n"));
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].contains("line 5"));
    }
}
