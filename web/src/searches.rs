//! The engine's searches for a game: its own moves, started by the server whenever it is the
//! engine's turn (after a person's move, a game's creation, a game read back after a restart)
//! and played whether or not any page is open; hints and analyses, for the page that asks.
//! Every page follows the engine's move through the game's events.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tafl_engine::search::{Clock, Limits};
use tokio::sync::mpsc;

use crate::app::AppState;
use crate::engine::{Class, Control, Event, Found, Job};
use crate::events::Transient;
use crate::round::{Live, Shared};
use crate::table::side_name;

/// The name of a search's event, as the pages get it.
pub fn event_name(event: &Event) -> &'static str {
    match event {
        Event::Queue { .. } => "queue",
        Event::Started => "started",
        Event::Info(_) => "info",
    }
}

/// What follows a change of the position: the engine's move if it is its turn, and a watch on
/// the clock of the side to move (the game lost on time at once, every page told, whether
/// anyone asks or not).
pub(crate) fn next_turn(state: &Arc<AppState>, game: &Shared, live: &mut Live) {
    engine_move_if_due(state, game, live);
    watch_clock(state, game, live);
}

/// Ends the game on time when the side to move's clock runs out, unless something happens
/// first (a move, a takeback, an end: the event number moves on).
fn watch_clock(state: &Arc<AppState>, game: &Shared, live: &Live) {
    if live.finished() {
        return;
    }
    let Some(left) = live.remaining_ms(live.table.side_to_move()) else {
        return;
    };
    let seq = live.channel.last_seq;
    let (state, game) = (state.clone(), game.clone());
    tokio::spawn(async move {
        let wait = u64::try_from(left).unwrap_or(0) + 20;
        tokio::time::sleep(Duration::from_millis(wait)).await;
        let mut live = game.lock().await;
        if live.channel.last_seq == seq {
            let _ = live.check_flag(&state).await;
        }
    });
}

/// Starts the engine's move when it is the engine's turn and nothing thinks in `live` (the
/// game's lock is held by the caller).
pub(crate) fn engine_move_if_due(state: &Arc<AppState>, game: &Shared, live: &mut Live) {
    if !live.engine_to_move() || live.thinking.is_some() {
        return;
    }
    let to_move = live.table.side_to_move();
    let mut limits = Limits::move_time(Duration::from_millis(live.level().millis));
    if let Some(left) = live.remaining_ms(to_move) {
        // The engine's clock: it budgets its time from what is left.
        limits.clock = Some(Clock {
            remaining: Duration::from_millis(u64::try_from(left).unwrap_or(0)),
            increment: Duration::from_millis(live.row.increment_ms),
            ..Clock::default()
        });
    }
    let control = Arc::new(Control::default());
    live.thinking = Some(control.clone());
    let table = live.table.clone();
    let ply = table.ply();
    let transient = live.channel.transient();
    let (state, game) = (state.clone(), game.clone());
    let game_id = live.row.id.clone();
    tokio::spawn(async move {
        // The engine's move waits in the queue's first class, in its game's turn.
        let job = Job {
            player: game_id,
            class: Class::Move,
        };
        let found = search(&state, job, table, limits, !to_move, &control, &transient).await;
        let Some(found) = found else {
            clear_thinking(&game, &control).await;
            return;
        };
        let mut live = game.lock().await;
        let current = live
            .thinking
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(c, &control));
        if !current || control.is_cancelled() || live.table.ply() != ply {
            return;
        }
        live.thinking = None;
        if live.check_flag(&state).await.unwrap_or(false) {
            return;
        }
        if let Err(message) = play_found(&state, &mut live, ply, &found).await {
            transient.send("failed", json!({ "message": message }));
            return;
        }
        watch_clock(&state, &game, &live);
        state.forget_if_finished(&live);
    });
}

/// Plays and stores the engine's move `found` at `ply`, and tells every page.
async fn play_found(
    state: &AppState,
    live: &mut Live,
    ply: usize,
    found: &Found,
) -> Result<(), String> {
    let best = found.best.clone().ok_or("the engine found no move")?;
    let mut next = live.table.clone();
    next.play(&best).map_err(|error| error.0)?;
    let used = if live.row.clock_ms.is_some() {
        live.turn_ms()
    } else {
        0
    };
    let side = side_name(live.table.side_to_move());
    let event = live.channel.next(
        "move",
        &json!({"ply": ply, "move": best, "side": side, "by": "engine", "used_ms": used}),
    );
    let id = live.row.id.clone();
    state
        .store
        .push_move(&id, ply, &best, used, &event)
        .await
        .map_err(|error| error.to_string())?;
    live.played(next, used);
    live.announce(&event, json!({ "found": found }));
    Ok(())
}

/// Runs the engine's search for its move in the pool, its thinking sent to `transient` (every
/// page of the game) as it goes.
async fn search(
    state: &AppState,
    job: Job,
    table: crate::table::Table,
    limits: Limits,
    viewer: tafl_engine::Side,
    control: &Arc<Control>,
    transient: &Transient,
) -> Option<Found> {
    let (events, mut receiver) = mpsc::unbounded_channel::<Event>();
    let forward = {
        let transient = transient.clone();
        tokio::spawn(async move {
            while let Some(event) = receiver.recv().await {
                let data = serde_json::to_value(&event).unwrap_or_default();
                transient.send(event_name(&event), data);
            }
        })
    };
    let found = state
        .pool
        .search(job, table, limits, 1, viewer, control.clone(), events)
        .await;
    let _ = forward.await;
    transient.done();
    found
}

/// Forgets `control` as the game's search, if it still is.
pub(crate) async fn clear_thinking(game: &Shared, control: &Arc<Control>) {
    let mut live = game.lock().await;
    if live
        .thinking
        .as_ref()
        .is_some_and(|c| Arc::ptr_eq(c, control))
    {
        live.thinking = None;
    }
}
