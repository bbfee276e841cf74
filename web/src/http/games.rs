//! Games: creating one, reading one, its record.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use tafl_engine::AnyVariant;

use super::error::{ApiError, bad};
use super::extract::{Body, Secret};
use crate::app::AppState;
use crate::engine::LEVELS;
use crate::events::Channel;
use crate::ids::{new_id, new_secret, secret_hash};
use crate::round::Live;
use crate::seats::{Seat, Seats};
use crate::store::GameRow;
use crate::table::{Table, check_name, side_from, side_name};

/// `/api/games`, `/api/games/{id}`, `/api/games/{id}/otg`.
pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(read))
        .route("/api/games/{id}/otg", get(otg))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/rematch", post(rematch))
}

/// A new game's request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    /// A built-in game's key.
    variant: Option<String>,
    /// Or an OpenTafl rules string.
    rules: Option<String>,
    /// `play` (default) or `analysis`.
    mode: Option<String>,
    /// The person's side in a game against the engine (default: the side that moves second,
    /// so that the engine does not wait).
    human: Option<String>,
    /// Who takes the other seat in a game to play: `engine` (default) or `open` (a person
    /// who joins).
    opponent: Option<String>,
    /// Index into the levels (default 1).
    level: Option<usize>,
    /// A start position (position string).
    position: Option<String>,
    /// Or a whole game as an `.otg` record.
    otg: Option<String>,
    /// Clocks: each side's time at the start, in seconds (none by default).
    clock_seconds: Option<u64>,
    /// Seconds added to a side's clock for each of its moves.
    increment_seconds: Option<u64>,
    /// A correspondence game: days for each move (1 to 14); the side to move that lets its
    /// deadline pass loses on time.
    days_per_move: Option<u64>,
}

async fn create(
    State(state): State<Arc<AppState>>,
    Body(request): Body<NewGame>,
) -> Result<Response, ApiError> {
    let table = if let Some(record) = &request.otg {
        Table::from_record(record).map_err(|e| bad("bad_record", e.0))?
    } else {
        let variant = match (&request.variant, &request.rules) {
            (Some(key), None) => AnyVariant::by_name(key).ok_or_else(|| {
                bad(
                    "unknown_variant",
                    format!("no built-in game is called '{key}'"),
                )
            })?,
            (None, Some(rules)) => {
                let variant = rules
                    .parse::<AnyVariant>()
                    .map_err(|e| bad("bad_rules", e.to_string()))?;
                check_name(variant.name()).map_err(|e| bad("bad_rules", e.0))?;
                variant
            }
            (None, None) => AnyVariant::by_name("tablut")
                .ok_or_else(|| bad("unknown_variant", "tablut is missing"))?,
            (Some(_), Some(_)) => {
                return Err(bad("bad_request", "give a variant or rules, not both"));
            }
        };
        Table::new(variant, request.position.as_deref()).map_err(|e| bad("bad_position", e.0))?
    };
    let mode = request.mode.as_deref().unwrap_or("play");
    let human = match mode {
        "analysis" => None,
        "play" => Some(match request.human.as_deref() {
            None => !table.side_to_move(),
            Some(text) => side_from(text).ok_or_else(|| {
                bad(
                    "bad_side",
                    format!("'{text}' is not a side: attackers or defenders"),
                )
            })?,
        }),
        other => {
            return Err(bad(
                "bad_mode",
                format!("'{other}' is not a mode: play or analysis"),
            ));
        }
    };
    // The creator's secret holds their seat (both seats of an analysis board).
    let secret = new_secret();
    let hash = secret_hash(&secret);
    let seats = match human {
        None => {
            if request.opponent.is_some() {
                return Err(bad("bad_opponent", "an analysis board has no opponent"));
            }
            Seats {
                attackers: Seat::person(&hash),
                defenders: Seat::person(&hash),
            }
        }
        Some(side) => {
            let other = match request.opponent.as_deref().unwrap_or("engine") {
                "engine" => Seat::engine(),
                "open" => Seat::open(),
                text => {
                    return Err(bad(
                        "bad_opponent",
                        format!("'{text}' is not an opponent: engine or open"),
                    ));
                }
            };
            let mut seats = Seats {
                attackers: Seat::person(&hash),
                defenders: Seat::person(&hash),
            };
            *seats.get_mut(!side) = other;
            seats
        }
    };
    let level = request.level.unwrap_or(1);
    if level >= LEVELS.len() {
        return Err(bad(
            "bad_level",
            format!("level {level} is not one of 0 to {}", LEVELS.len() - 1),
        ));
    }
    let clock_ms = match (request.clock_seconds, mode) {
        (None, _) => None,
        (Some(seconds), "play") if (1..=10_800).contains(&seconds) => Some(seconds * 1000),
        (Some(_), "play") => {
            return Err(bad("bad_clock", "a clock is 1 to 10800 seconds"));
        }
        (Some(_), _) => return Err(bad("bad_clock", "an analysis board has no clock")),
    };
    // Correspondence: days per move, a deadline for each turn instead of a clock.
    let move_days = match (request.days_per_move, mode) {
        (None, _) => None,
        (Some(_), _) if clock_ms.is_some() => {
            return Err(bad(
                "bad_clock",
                "a game has a clock or days per move, not both",
            ));
        }
        (Some(days), "play") if (1..=14).contains(&days) => Some(days),
        (Some(_), "play") => return Err(bad("bad_clock", "days per move are 1 to 14")),
        (Some(_), _) => return Err(bad("bad_clock", "an analysis board has no deadline")),
    };
    let increment_ms = match request.increment_seconds.unwrap_or(0) {
        seconds @ 0..=600 => seconds * 1000,
        _ => return Err(bad("bad_clock", "an increment is 0 to 600 seconds")),
    };
    let body = open_game(
        &state,
        table,
        Setup {
            mode,
            human,
            seats,
            level,
            clock_ms,
            increment_ms,
            move_days,
            move_ms: move_days.map(|days| days.saturating_mul(state.config.day_ms)),
        },
        &secret,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// A new game's facts besides its board.
struct Setup<'a> {
    mode: &'a str,
    human: Option<tafl_engine::Side>,
    seats: Seats,
    level: usize,
    clock_ms: Option<u64>,
    increment_ms: u64,
    move_days: Option<u64>,
    move_ms: Option<u64>,
}

/// Stores and starts a new game on `table`, its creator holding `secret`: its state with the
/// secret (given only here) and the creator's seats.
async fn open_game(
    state: &Arc<AppState>,
    table: Table,
    setup: Setup<'_>,
    secret: &str,
) -> Result<Value, ApiError> {
    let Setup {
        mode,
        human,
        seats,
        level,
        clock_ms,
        increment_ms,
        move_days,
        move_ms,
    } = setup;
    // A record's moves stay; the game's start is its start position.
    let moves = table.move_texts();
    let start_table = {
        let mut start = table.clone();
        while start.undo() {}
        start
    };
    let row = GameRow {
        id: new_id(),
        rules: table.rules_string(),
        start: start_table.start_string(),
        mode: mode.to_owned(),
        human: human.map(|side| side_name(side).to_owned()),
        level,
        resigned: None,
        used_ms: vec![0; moves.len()],
        moves,
        clock_ms,
        increment_ms,
        flagged: None,
        seats,
        move_days,
        move_ms,
        // The first turn runs from the creation (in memory; after a restart, from the first
        // move or the seat taken).
        turn_since_ms: Some(crate::store::now_ms()),
    };
    state.store.create(&row).await?;
    tracing::info_span!("new", game = %row.id).in_scope(|| {
        tracing::info!(mode, rules = ?row.rules, plies = row.moves.len(), "game created");
    });
    let live = Live {
        row,
        table,
        thinking: None,
        turn_started: Instant::now(),
        channel: Channel::new(0),
        draw_offer: None,
    };
    let mut body = live.state();
    // The secret is given once, here; the server keeps only its hash.
    body["secret"] = json!(secret);
    body["you"] = json!(you(&live, Some(secret)));
    let id = live.row.id.clone();
    // The engine moves first when the person plays second.
    let game = Arc::new(tokio::sync::Mutex::new(live));
    if let Ok(mut live) = game.try_lock() {
        crate::searches::next_turn(state, &game, &mut live);
    }
    if let Ok(mut games) = state.games.lock() {
        games.insert(id, game);
    }
    Ok(body)
}

/// A rematch of a finished game: the same rules, start, level and clock, the sides swapped.
/// The asker (a seat's secret) takes the other side in the new game; the engine keeps its
/// place against them, and a person's seat is open for them to join (every page of the old
/// game is told the new game's id: a `rematch` event). A person who asks after the other did
/// takes that seat (200, the rematch's state and secret) instead of opening a second game.
async fn rematch(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Secret(secret): Secret,
) -> Result<Response, ApiError> {
    let game = state.game(&id).await?;
    let mut live = game.lock().await;
    let held = live.holder(secret.as_deref())?;
    live.check_flag(&state).await?;
    if !live.finished() || live.row.mode != "play" {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "not_finished",
            "a rematch follows a finished game (not an analysis board)",
        ));
    }
    let Some(&side) = held.first() else {
        return Err(ApiError::not_found());
    };
    let variant: tafl_engine::AnyVariant = live
        .row
        .rules
        .parse()
        .map_err(|e| bad("bad_rules", format!("{e}")))?;
    let table = Table::new(variant, Some(&live.row.start)).map_err(|e| bad("bad_position", e.0))?;
    let new_side = !side;
    // Between people, the other may have asked first (both pressed Rematch): the asker takes
    // the seat that rematch keeps for them rather than opening a second game. The old game's
    // lock, held, puts two such requests one after the other.
    if live.row.seats.get(!side).kind == crate::seats::SeatKind::Person
        && let Some(asked) = asked_rematch(&state, &id).await?
    {
        match take_seat(&state, &asked, Some(new_side)).await {
            Ok(joined) => {
                let mut body = joined["state"].clone();
                body["secret"] = joined["secret"].clone();
                return Ok((StatusCode::OK, Json(body)).into_response());
            }
            // That seat is no longer open (the asker took it before, or it was not theirs):
            // a new rematch, as for a first request.
            Err(error) if error.status == StatusCode::CONFLICT => {}
            Err(error) => return Err(error),
        }
    }
    let other = match live.row.seats.get(!side).kind {
        crate::seats::SeatKind::Engine => Seat::engine(),
        _ => Seat::open(),
    };
    let asker_secret = new_secret();
    let hash = secret_hash(&asker_secret);
    let mut seats = Seats {
        attackers: Seat::person(&hash),
        defenders: Seat::person(&hash),
    };
    *seats.get_mut(!new_side) = other;
    let body = open_game(
        &state,
        table,
        Setup {
            mode: "play",
            human: Some(new_side),
            seats,
            level: live.row.level,
            clock_ms: live.row.clock_ms,
            increment_ms: live.row.increment_ms,
            move_days: live.row.move_days,
            move_ms: live.row.move_ms,
        },
        &asker_secret,
    )
    .await?;
    let new_id = body["id"].clone();
    let event = live.channel.next("rematch", &json!({ "id": new_id }));
    state.store.note(&id, &event).await?;
    live.announce(&event, json!({}));
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// The id of the last rematch asked for after game `id` (its stored `rematch` events).
async fn asked_rematch(state: &AppState, id: &str) -> Result<Option<String>, ApiError> {
    let events = state.store.events_after(id, 0).await?;
    Ok(events
        .iter()
        .rev()
        .filter(|event| event.kind == "rematch")
        .find_map(|event| {
            serde_json::from_str::<Value>(&event.data).ok()?["id"]
                .as_str()
                .map(str::to_owned)
        }))
}

/// The seats `secret` holds in `live`, by name (none without a secret, or a wrong one).
fn you(live: &Live, secret: Option<&str>) -> Vec<&'static str> {
    secret
        .map(|secret| live.row.seats.held_by(secret))
        .unwrap_or_default()
        .into_iter()
        .map(side_name)
        .collect()
}

async fn read(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Secret(secret): Secret,
) -> Result<Json<Value>, ApiError> {
    let game = state.game(&id).await?;
    let mut live = game.lock().await;
    live.check_flag(&state).await?;
    let mut body = live.state();
    if secret.is_some() {
        body["you"] = json!(you(&live, secret.as_deref()));
    }
    state.forget_if_finished(&live);
    Ok(Json(body))
}

async fn otg(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let game = state.game(&id).await?;
    let live = game.lock().await;
    let text = live.table.record(live.resigned(), live.flagged());
    let disposition = format!(
        "attachment; filename=\"tafl-{}.otg\"",
        &id[..id.len().min(8)]
    );
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            ),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&disposition)
                    .unwrap_or(HeaderValue::from_static("attachment")),
            ),
        ],
        text,
    )
        .into_response())
}

/// A request to take an open seat.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    /// The seat (default: the open one).
    side: Option<String>,
}

/// Takes an open seat, once: the answer's `secret` holds it from now on.
async fn join(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Body(request): Body<JoinRequest>,
) -> Result<Response, ApiError> {
    let side = match request.side.as_deref() {
        Some(text) => Some(side_from(text).ok_or_else(|| {
            bad(
                "bad_side",
                format!("'{text}' is not a side: attackers or defenders"),
            )
        })?),
        None => None,
    };
    let body = take_seat(&state, &id, side).await?;
    Ok((StatusCode::OK, Json(body)).into_response())
}

/// Takes the open seat `side` (default: the open one) of game `id`, once: `{secret, side,
/// state}`, or 409 `seat_taken`.
async fn take_seat(
    state: &Arc<AppState>,
    id: &str,
    side: Option<tafl_engine::Side>,
) -> Result<Value, ApiError> {
    let game = state.game(id).await?;
    let mut live = game.lock().await;
    let open: Vec<_> = [tafl_engine::Side::Attackers, tafl_engine::Side::Defenders]
        .into_iter()
        .filter(|&side| live.row.seats.get(side).kind == crate::seats::SeatKind::Open)
        .collect();
    let side = match side {
        Some(side) => side,
        None => *open.first().ok_or_else(seat_taken)?,
    };
    if !open.contains(&side) || live.finished() {
        return Err(seat_taken());
    }
    let secret = new_secret();
    let hash = secret_hash(&secret);
    let event = live
        .channel
        .next("join", &json!({ "side": side_name(side) }));
    if !state
        .store
        .take_seat(id, side_name(side), &hash, &event)
        .await?
    {
        return Err(seat_taken());
    }
    *live.row.seats.get_mut(side) = Seat::person(&hash);
    // The turn starts now: a live clock runs from here, a correspondence deadline too.
    live.turn_started = Instant::now();
    live.row.turn_since_ms = Some(crate::store::now_ms());
    live.announce(&event, json!({}));
    crate::searches::next_turn(state, &game, &mut live);
    // The state as its new holder sees it (as every answer to a seat's secret is).
    let mut view = live.state();
    view["you"] = json!([side_name(side)]);
    Ok(json!({"secret": secret, "side": side_name(side), "state": view}))
}

fn seat_taken() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "seat_taken",
        "no seat of this game is open",
    )
}
