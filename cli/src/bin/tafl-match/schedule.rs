//! The match's games in order, each with its opening, handed out one at a time: what the
//! workers take their next game from.
//!
//! Nothing is made up front, so that memory does not grow with `--games`: a game's number says
//! its variant and its colours, and its opening is made when the game is handed out (a seeded
//! opening for each pair of games, the colours swapped; a file's line read again). Games are
//! handed out in order under one lock, so a seeded stream is read in order and only the pair's
//! opening is kept.

use std::sync::Arc;

use tafl_engine::{AnyVariant, Grid, Narrow, Side, Variant, Wide};

use crate::openings::{self, FileLine, Opening, SeededOpenings};
use crate::options::Settings;

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Its number in the match, from 0.
    pub index: usize,
    /// Its variant, as `Settings::variants` lists them.
    pub variant: usize,
    /// The side A plays.
    pub a_side: Side,
}

/// A game's opening, on the grid its board needs: where a worker chooses the grid's code (once
/// a game).
#[derive(Clone, Debug)]
pub enum GameOpening {
    /// A board up to 11x11.
    Narrow(Arc<Opening<Narrow>>),
    /// A board above 11x11.
    Wide(Arc<Opening<Wide>>),
}

/// Where one variant's openings come from.
enum Source<B: Grid> {
    /// The lines of the openings file that fit the variant, cycled.
    File {
        variant: Variant<B>,
        text: Arc<str>,
        lines: Vec<FileLine>,
    },
    /// Seeded openings; the stream starts again from its seed when it gives out.
    Seeded {
        start: SeededOpenings<B>,
        stream: SeededOpenings<B>,
        /// The opening of the pair of games being handed out.
        current: Option<Arc<Opening<B>>>,
    },
}

impl<B: Grid> Source<B> {
    /// The opening of the variant's game `game` (from 0).
    fn opening(&mut self, game: usize) -> Result<Arc<Opening<B>>, String> {
        match self {
            Source::File {
                variant,
                text,
                lines,
            } => {
                // Not empty: `Schedule::new` refuses a variant without a line.
                let line = lines[(game / 2) % lines.len()];
                openings::opening_at(variant, text, line).map(Arc::new)
            }
            Source::Seeded {
                start,
                stream,
                current,
            } => {
                if game % 2 == 1 {
                    if let Some(opening) = current {
                        return Ok(Arc::clone(opening));
                    }
                }
                let opening = match stream.next_opening() {
                    Some(opening) => opening,
                    None => {
                        // The stream gave out: its openings again, in the same order.
                        *stream = start.clone();
                        stream
                            .next_opening()
                            .ok_or("no seeded opening could be made")?
                    }
                };
                let opening = Arc::new(opening);
                *current = Some(Arc::clone(&opening));
                Ok(opening)
            }
        }
    }
}

/// A variant's source, on its grid.
enum GridSource {
    Narrow(Source<Narrow>),
    Wide(Source<Wide>),
}

/// The games of the match, handed out in order.
pub struct Schedule {
    games: usize,
    total: usize,
    next: usize,
    sources: Vec<GridSource>,
}

impl Schedule {
    /// The schedule of `settings`' match, with the openings file's text if it has one. `Err`
    /// when a variant has no opening (no line of the file fits it, or every seeded opening
    /// ends the game). `warn` gets the file's skipped lines.
    pub fn new(
        settings: &Settings,
        text: Option<Arc<str>>,
        warn: &mut dyn FnMut(String),
    ) -> Result<Schedule, String> {
        let games = settings.games as usize;
        let total = games
            .checked_mul(settings.variants.len())
            .ok_or("too many games")?;
        let sources = settings
            .variants
            .iter()
            .map(|variant| match variant {
                AnyVariant::Narrow(variant) => {
                    source(variant, text.as_ref(), settings, warn).map(GridSource::Narrow)
                }
                AnyVariant::Wide(variant) => {
                    source(variant, text.as_ref(), settings, warn).map(GridSource::Wide)
                }
            })
            .collect::<Result<_, _>>()?;
        Ok(Schedule {
            games,
            total,
            next: 0,
            sources,
        })
    }

    /// How many games the match has.
    pub fn total(&self) -> usize {
        self.total
    }

    /// The next game and its opening; `None` when every game has been handed out.
    pub fn next_game(&mut self) -> Option<Result<(Job, GameOpening), String>> {
        if self.next >= self.total {
            return None;
        }
        let index = self.next;
        self.next += 1;
        let (variant, game) = (index / self.games, index % self.games);
        let job = Job {
            index,
            variant,
            a_side: if game % 2 == 0 {
                Side::Attackers
            } else {
                Side::Defenders
            },
        };
        let opening = match &mut self.sources[variant] {
            GridSource::Narrow(source) => source.opening(game).map(GameOpening::Narrow),
            GridSource::Wide(source) => source.opening(game).map(GameOpening::Wide),
        };
        Some(opening.map(|opening| (job, opening)))
    }
}

/// A variant's source of openings, checked to give at least one.
fn source<B: Grid>(
    variant: &Variant<B>,
    text: Option<&Arc<str>>,
    settings: &Settings,
    warn: &mut dyn FnMut(String),
) -> Result<Source<B>, String> {
    match text {
        Some(text) => {
            let lines = openings::fitting_lines(variant, text, warn);
            if lines.is_empty() {
                return Err(format!(
                    "no line of the openings file fits {}",
                    variant.name()
                ));
            }
            Ok(Source::File {
                variant: variant.clone(),
                text: Arc::clone(text),
                lines,
            })
        }
        None => {
            let start = SeededOpenings::new(variant, settings.opening_plies, settings.seed);
            if start.clone().next_opening().is_none() {
                return Err(format!(
                    "no seeded opening of {} random plies leaves {} a game to play ({} random \
                     games in a row ended within them): ask for fewer --opening-plies",
                    settings.opening_plies,
                    variant.name(),
                    openings::MAX_ATTEMPTS
                ));
            }
            Ok(Source::Seeded {
                stream: start.clone(),
                start,
                current: None,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(line: &str) -> Settings {
        crate::options::parse(line.split_whitespace()).unwrap()
    }

    #[test]
    fn games_come_in_order_each_opening_twice_with_the_colours_swapped() {
        let settings = settings("--a random --b random --variant tablut,brandub --games 5");
        let mut schedule = Schedule::new(&settings, None, &mut |_| {}).unwrap();
        assert_eq!(schedule.total(), 10);
        let handed: Vec<(Job, GameOpening)> = std::iter::from_fn(|| schedule.next_game())
            .map(Result::unwrap)
            .collect();
        assert_eq!(handed.len(), 10);
        let tablut = Variant::tablut();
        let expected = openings::seeded(&tablut, 3, 4, 1);
        for (index, (job, opening)) in handed.iter().enumerate() {
            assert_eq!(job.index, index);
            assert_eq!(job.variant, index / 5);
            let game = index % 5;
            let side = [Side::Attackers, Side::Defenders][game % 2];
            assert_eq!(job.a_side, side);
            if job.variant == 0 {
                let GameOpening::Narrow(opening) = opening else {
                    panic!("Tablut is narrow");
                };
                // The same openings as made all at once.
                assert_eq!(opening.game, expected[game / 2].game);
                assert_eq!(opening.label, expected[game / 2].label);
            }
        }
        assert!(schedule.next_game().is_none());
    }

    #[test]
    fn a_file_s_lines_are_cycled_and_read_again_as_needed() {
        let settings = settings("--a random --b random --variant tablut --games 6");
        let text: Arc<str> = Arc::from("e2-h2\n\na1-a2\ne2-h2 e3-h3 \r\n");
        let mut warnings = Vec::new();
        let mut schedule = Schedule::new(&settings, Some(text), &mut |w| warnings.push(w)).unwrap();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        let labels: Vec<String> = std::iter::from_fn(|| schedule.next_game())
            .map(|next| match next.unwrap().1 {
                GameOpening::Narrow(opening) => opening.label.clone(),
                GameOpening::Wide(_) => unreachable!("Tablut is narrow"),
            })
            .collect();
        let first = "opening line 1: e2-h2";
        let second = "opening line 4: e2-h2 e3-h3";
        assert_eq!(labels, [first, first, second, second, first, first]);
    }

    #[test]
    fn a_variant_without_an_opening_is_refused() {
        let settings = settings("--a random --b random --variant tablut");
        let text: Arc<str> = Arc::from("a1-a2\n");
        let error = Schedule::new(&settings, Some(text), &mut |_| {})
            .err()
            .unwrap();
        assert_eq!(error, "no line of the openings file fits Tablut");
    }
}
