//! The review of a finished game: the engine's evaluation of every position, computed in the
//! background at the lowest priority of the search queue (after every waiting engine move,
//! hint and analysis), stored with the game position by position (a review cut by a restart
//! goes on where it stopped), and the moves where the mover's win chance fell most.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tafl_engine::search::Limits;
use tafl_engine::{AnyVariant, Side};
use tokio::sync::mpsc;

use crate::app::AppState;
use crate::engine::{Class, Control, Job};
use crate::store::{GameRow, ReviewRow};
use crate::table::{Table, side_name};

/// A move is marked when the mover's win chance fell by at least this many points...
const MARK_DROP: f64 = 10.0;
/// ...and only the largest few such falls are.
const MARKS: usize = 3;

/// The games whose review runs now (each runs once at a time).
#[derive(Default)]
pub struct Reviews {
    running: Mutex<HashSet<String>>,
}

impl Reviews {
    /// Starts reviewing the finished game `id` in the background, unless it is being reviewed
    /// or its review is complete (a no-op outside a runtime).
    pub(crate) fn request(&self, state: &Arc<AppState>, id: &str) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let Ok(mut running) = self.running.lock() else {
            return;
        };
        if !running.insert(id.to_owned()) {
            return;
        }
        drop(running);
        let (state, id) = (state.clone(), id.to_owned());
        runtime.spawn(async move {
            review(&state, &id).await;
            if let Ok(mut running) = state.reviews.running.lock() {
                running.remove(&id);
            }
        });
    }

    /// Whether `id`'s review runs now.
    pub(crate) fn is_running(&self, id: &str) -> bool {
        self.running.lock().is_ok_and(|r| r.contains(id))
    }
}

/// The game's positions, from the start to the last: each as a table, and who moved into it.
fn positions(row: &GameRow) -> Option<Vec<Table>> {
    let variant: AnyVariant = row.rules.parse().ok()?;
    let mut table = Table::new(variant, Some(&row.start)).ok()?;
    let mut all = vec![table.clone()];
    for text in &row.moves {
        table.play(text).ok()?;
        all.push(table.clone());
    }
    Some(all)
}

/// Evaluates every position of the stored game `id` that has no evaluation yet.
async fn review(state: &Arc<AppState>, id: &str) {
    let Ok(Some(row)) = state.store.load(id).await else {
        return;
    };
    let Some(tables) = positions(&row) else {
        return;
    };
    let done: HashSet<usize> = state
        .store
        .load_review(id)
        .await
        .map(|rows| rows.into_iter().map(|r| r.ply).collect())
        .unwrap_or_default();
    for (ply, table) in tables.into_iter().enumerate() {
        if done.contains(&ply) {
            continue;
        }
        let evaluation = match table.outcome() {
            // The game ended on the board here: the result, not a search.
            Some(outcome) => ReviewRow {
                ply,
                win: match outcome.winner() {
                    Some(Side::Attackers) => 100.0,
                    Some(Side::Defenders) => 0.0,
                    None => 50.0,
                },
                score: match outcome.winner() {
                    Some(Side::Attackers) => 100_000,
                    Some(Side::Defenders) => -100_000,
                    None => 0,
                },
                best: None,
            },
            None => {
                let (events, _) = mpsc::unbounded_channel();
                let job = Job {
                    player: format!("review {id}"),
                    class: Class::Review,
                };
                let limits = Limits::move_time(Duration::from_millis(state.config.review_ms));
                let control = Arc::new(Control::default());
                let found = state
                    .pool
                    .search(job, table, limits, 1, Side::Attackers, control, events)
                    .await;
                let Some(line) = found.as_ref().and_then(|f| f.lines.first()) else {
                    return;
                };
                ReviewRow {
                    ply,
                    win: line.win,
                    score: line.score,
                    best: found.and_then(|f| f.best),
                }
            }
        };
        if state.store.push_review(id, &evaluation).await.is_err() {
            return;
        }
    }
}

/// The review as the page reads it: every evaluated position (the attackers' win chance), how
/// many there are to be, and the marked moves (the largest falls of the mover's win chance).
pub(crate) fn view(row: &GameRow, rows: &[ReviewRow], running: bool) -> Value {
    let positions = row.moves.len() + 1;
    let sides: Vec<Side> = positions_sides(row);
    let by_ply = |ply: usize| rows.iter().find(|r| r.ply == ply);
    let marked: Vec<Value> = falls(rows, &sides)
        .iter()
        .map(|&(fall, ply, mover)| {
            json!({
                "ply": ply,
                "move": row.moves.get(ply - 1),
                "side": side_name(mover),
                "fall": (fall * 10.0).round() / 10.0,
                "best": by_ply(ply - 1).and_then(|r| r.best.clone()),
            })
        })
        .collect();
    json!({
        "complete": rows.len() >= positions,
        "running": running,
        "positions": positions,
        "points": rows.iter().map(|r| json!({
            "ply": r.ply,
            "win": r.win,
            "score": r.score,
            "best": r.best,
        })).collect::<Vec<_>>(),
        "marked": marked,
    })
}

/// The largest falls of the mover's win chance (at least [`MARK_DROP`] points, at most
/// [`MARKS`] of them), in the order of the game: `(fall, ply after the move, mover)`.
/// `sides[p]` is the side to move in position `p`; a move whose positions are not both
/// evaluated yet is not judged.
fn falls(rows: &[ReviewRow], sides: &[Side]) -> Vec<(f64, usize, Side)> {
    let by_ply = |ply: usize| rows.iter().find(|r| r.ply == ply);
    let mut falls: Vec<(f64, usize, Side)> = Vec::new();
    for ply in 1..sides.len() {
        let (Some(before), Some(after), Some(&mover)) =
            (by_ply(ply - 1), by_ply(ply), sides.get(ply - 1))
        else {
            continue;
        };
        let chance = |win: f64| match mover {
            Side::Attackers => win,
            Side::Defenders => 100.0 - win,
        };
        let fall = chance(before.win) - chance(after.win);
        if fall >= MARK_DROP {
            falls.push((fall, ply, mover));
        }
    }
    falls.sort_by(|a, b| b.0.total_cmp(&a.0));
    falls.truncate(MARKS);
    falls.sort_by_key(|f| f.1);
    falls
}

/// The side to move in each position of the game (the mover of the move after it).
fn positions_sides(row: &GameRow) -> Vec<Side> {
    positions(row)
        .map(|tables| tables.iter().map(Table::side_to_move).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(wins: &[f64]) -> Vec<ReviewRow> {
        wins.iter()
            .enumerate()
            .map(|(ply, &win)| ReviewRow {
                ply,
                win,
                score: 0,
                best: None,
            })
            .collect()
    }

    fn alternating(first: Side, positions: usize) -> Vec<Side> {
        (0..positions)
            .map(|p| if p % 2 == 0 { first } else { !first })
            .collect()
    }

    #[test]
    fn the_movers_largest_falls_are_marked_in_game_order() {
        // Attackers' chances; the attackers move first.
        let wins = [50.0, 52.0, 20.0, 25.0, 90.0, 45.0, 40.0, 45.0];
        let sides = alternating(Side::Attackers, wins.len());
        let marked: Vec<(i64, usize, Side)> = falls(&rows(&wins), &sides)
            .into_iter()
            .map(|(fall, ply, side)| (fall.round() as i64, ply, side))
            .collect();
        // The defenders' move into position 4 (their chance 75 -> 10) and the attackers' into
        // position 5 (90 -> 45) fell; every other move rose for its mover (the defenders'
        // into position 2: 48 -> 80).
        assert_eq!(marked, [(65, 4, Side::Defenders), (45, 5, Side::Attackers)]);
    }

    #[test]
    fn at_most_three_falls_and_none_without_both_positions() {
        // Every move of the attackers loses 20 points; the defenders' gain nothing.
        let wins = [90.0, 70.0, 70.0, 50.0, 50.0, 30.0, 30.0, 5.0, 5.0];
        let sides = alternating(Side::Attackers, wins.len());
        let all = falls(&rows(&wins), &sides);
        assert_eq!(all.len(), 3, "{all:?}");
        // The largest three: the last (25) and two of the 20s, in game order.
        assert_eq!(all.last().map(|f| f.1), Some(7));
        // Positions 3 and 4 not evaluated yet: the moves into and out of them are not judged.
        let partial: Vec<ReviewRow> = rows(&wins)
            .into_iter()
            .filter(|r| r.ply != 3 && r.ply != 4)
            .collect();
        let judged: Vec<usize> = falls(&partial, &sides).iter().map(|f| f.1).collect();
        assert!(!judged.contains(&3) && !judged.contains(&4) && !judged.contains(&5));
    }
}
