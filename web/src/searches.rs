//! The engine's searches for a game: its own moves, started by the server whenever it is the
//! engine's turn (after a person's move, a game's creation, a game read back after a restart)
//! and played whether or not any page is open; hints and analyses, for the page that asks.
//! Every page follows the engine's move through the game's events.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::StatusCode;

use serde_json::json;
use tafl_engine::search::{Clock, Limits};
use tokio::sync::mpsc;
use tracing::Instrument;

use crate::app::AppState;
use crate::engine::{Class, Control, Event, Found, Job};
use crate::events::Transient;
use crate::round::{Live, Shared, game_span};
use crate::store::{ClaimedJob, now_ms};
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
    if !state.config.serves {
        // A worker searches jobs; the servers watch the games.
        return;
    }
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
    let span = game_span(&live.row.id, "clock");
    let watch = async move {
        let wait = u64::try_from(left).unwrap_or(0) + 20;
        tokio::time::sleep(Duration::from_millis(wait)).await;
        let mut live = game.lock().await;
        if live.channel.last_seq == seq
            && let Err(error) = live.check_flag(&state).await
        {
            tracing::warn!("cannot end the game on time: {}", error.message);
        }
    };
    tokio::spawn(watch.instrument(span));
}

/// The limits of the engine's search for its move in `live`: its level's time per move, and
/// its clock when the game has one (it budgets its time from what is left). The same wherever
/// the search runs (this server's queue, a worker's).
fn engine_limits(live: &Live) -> Limits {
    let to_move = live.table.side_to_move();
    let mut limits = Limits::move_time(Duration::from_millis(live.level().millis));
    if let Some(left) = live.remaining_ms(to_move) {
        limits.clock = Some(Clock {
            remaining: Duration::from_millis(u64::try_from(left).unwrap_or(0)),
            increment: Duration::from_millis(live.row.increment_ms),
            ..Clock::default()
        });
    }
    limits
}

/// Starts the engine's move when it is the engine's turn and nothing thinks in `live` (the
/// game's lock is held by the caller). With SQLite it waits in this server's queue; with
/// PostgreSQL it is a job in the job table (`crate::jobs`), searched by a worker or a server,
/// and this server tells its pages the job's place meanwhile.
pub(crate) fn engine_move_if_due(state: &Arc<AppState>, game: &Shared, live: &mut Live) {
    if !state.config.serves || !live.engine_to_move() || live.thinking.is_some() {
        return;
    }
    let span = game_span(&live.row.id, "engine");
    let (ply, level) = (live.table.ply(), live.level().key);
    span.in_scope(|| tracing::info!(ply, level, "engine's search asked for"));
    if state.store.shared() {
        ask_job(state, game, live);
        return;
    }
    let to_move = live.table.side_to_move();
    let limits = engine_limits(live);
    let control = Arc::new(Control::default());
    live.thinking = Some(control.clone());
    let table = live.table.clone();
    let transient = live.channel.transient();
    let (state, game) = (state.clone(), game.clone());
    let game_id = live.row.id.clone();
    let task = async move {
        // The engine's move waits in the queue's first class, in its game's turn.
        let job = Job {
            player: game_id,
            class: Class::Move,
        };
        let found = search(&state, job, table, limits, !to_move, &control, &transient).await;
        let Some(found) = found else {
            tracing::info!(
                ply,
                "engine's search cancelled (its move is searched again where the game is next read)"
            );
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
            tracing::warn!(ply, "the engine's move was not played: {message}");
            transient.send("failed", json!({ "message": message }));
            return;
        }
        watch_clock(&state, &game, &live);
        state.forget_if_finished(&live);
    };
    tokio::spawn(task.instrument(span));
}

/// Asks for the engine's move in the job table (PostgreSQL) and follows the job for the
/// game's pages until it is gone; `live.thinking` stands for it meanwhile (a search of it on
/// this server uses the same control: "move now", a takeback's cancel).
fn ask_job(state: &Arc<AppState>, game: &Shared, live: &mut Live) {
    let control = Arc::new(Control::default());
    live.thinking = Some(control.clone());
    let (id, seq, ply) = (live.row.id.clone(), live.channel.last_seq, live.table.ply());
    let transient = live.channel.transient();
    let (state, game) = (state.clone(), game.clone());
    tokio::spawn(async move {
        // The player is the game, as in this server's queue: one move waits at a time.
        let asked = state
            .store
            .add_job(&id, seq, ply as u64, &id, Class::Move as u64)
            .await;
        if let Err(error) = asked {
            transient.send("failed", json!({ "message": error.to_string() }));
        } else {
            state.jobs.wake();
            crate::jobs::follow_job(&state, &id, seq, &control, &transient).await;
        }
        clear_thinking(&game, &control).await;
    });
}

/// How a job ended.
pub(crate) enum JobEnd {
    /// The move was played and stored: its text, and the depth the search completed and its
    /// nodes (for the log: how much a move's time was worth on this machine).
    Played {
        text: String,
        depth: u32,
        nodes: u64,
    },
    /// The job's position is not the game's (it changed, ended, or is gone): it is of no use.
    Stale,
    /// The search was cancelled (the game changed meanwhile, or the lease was lost).
    Stopped,
    /// Something failed (the database out of reach): another claim retries.
    Failed(String),
}

/// Runs a job claimed from the job table: the engine's move in the job's position, searched
/// as this server's queue searches it (the same limits, the same pool), its lease renewed
/// meanwhile, and played like any move (stored with its event; NOTIFY brings it to every
/// server's pages). A second writer of the same move is refused by the keys and drops it.
pub(crate) async fn run_job(state: &Arc<AppState>, job: &ClaimedJob) -> JobEnd {
    let game = match state.game(&job.game).await {
        Ok(game) => game,
        Err(error) if error.status == StatusCode::NOT_FOUND => return JobEnd::Stale,
        Err(error) => return JobEnd::Failed(error.message),
    };
    let (table, limits, to_move, control, transient) = {
        let mut live = game.lock().await;
        if live.channel.last_seq != job.seq
            || live.table.ply() as u64 != job.ply
            || !live.engine_to_move()
        {
            return JobEnd::Stale;
        }
        // The engine's clock runs from the move that began its turn, wherever that was made.
        if let Some(since) = live.row.turn_since_ms {
            let spent = Duration::from_millis(now_ms().saturating_sub(since));
            live.turn_started = Instant::now()
                .checked_sub(spent)
                .unwrap_or_else(Instant::now);
        }
        let control = match &live.thinking {
            Some(control) if !control.is_cancelled() => control.clone(),
            _ => {
                let control = Arc::new(Control::default());
                live.thinking = Some(control.clone());
                control
            }
        };
        let table = live.table.clone();
        let to_move = table.side_to_move();
        (
            table,
            engine_limits(&live),
            to_move,
            control,
            live.channel.transient(),
        )
    };
    let lease = crate::jobs::keep_lease(state, job, &control);
    let search_job = Job {
        player: job.game.clone(),
        class: Class::Move,
    };
    let found = search(
        state, search_job, table, limits, !to_move, &control, &transient,
    )
    .await;
    lease.abort();
    let Some(found) = found else {
        clear_thinking(&game, &control).await;
        return JobEnd::Stopped;
    };
    let mut live = game.lock().await;
    if live
        .thinking
        .as_ref()
        .is_some_and(|c| Arc::ptr_eq(c, &control))
    {
        live.thinking = None;
    }
    if live.channel.last_seq != job.seq || control.is_cancelled() {
        return JobEnd::Stale;
    }
    if live.check_flag(state).await.unwrap_or(false) {
        return JobEnd::Stale;
    }
    let ply = job.ply as usize;
    match play_found(state, &mut live, ply, &found).await {
        Ok(()) => {}
        Err(message) => {
            // Refused by a key: another claim wrote first (or the game changed).
            if let Err(reload) = state.catch_up(&mut live).await {
                return JobEnd::Failed(format!("{message}; {}", reload.message));
            }
            if live.channel.last_seq != job.seq {
                return JobEnd::Stale;
            }
            transient.send("failed", json!({ "message": message }));
            return JobEnd::Failed(message);
        }
    }
    if state.config.serves {
        watch_clock(state, &game, &live);
    }
    state.forget_if_finished(&live);
    let (depth, nodes) = found
        .lines
        .first()
        .map_or((0, 0), |line| (line.depth, line.nodes));
    JobEnd::Played {
        text: found.best.unwrap_or_default(),
        depth,
        nodes,
    }
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
