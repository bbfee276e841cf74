//! The HTTP server: the JSON API (docs/web.md), the engine's thinking as Server-Sent Events and
//! the embedded page.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tafl_engine::search::{Clock, Limits};
use tafl_engine::{AnyVariant, Side};
use tokio::sync::mpsc;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::UnboundedReceiverStream;

use crate::assets;
use crate::engine::{Control, Event, LEVELS, Pool};
use crate::store::{GameRow, Store};
use crate::table::{Table, side_from, side_name};

/// Largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// How the server is set up.
#[derive(Clone, Debug)]
pub struct Config {
    /// The SQLite file.
    pub db: PathBuf,
    /// Searches at once.
    pub searches: usize,
    /// Table size of each search, in MiB.
    pub hash_mb: usize,
    /// Requests a second one game (or one address creating games) may send, on average.
    pub rate: f64,
    /// Requests it may send at once before `rate` applies.
    pub burst: f64,
    /// Games kept in memory before idle ones are dropped (they stay in the database).
    pub cached_games: usize,
}

impl Config {
    /// The defaults, with the database at `db`.
    pub fn new(db: PathBuf) -> Config {
        Config {
            db,
            searches: std::thread::available_parallelism().map_or(1, |n| n.get()),
            hash_mb: 16,
            rate: 10.0,
            burst: 30.0,
            cached_games: 1000,
        }
    }
}

/// A game in memory.
struct Live {
    row: GameRow,
    table: Table,
    thinking: Option<Arc<Control>>,
    /// When the side to move's clock started (its turn began, or the game was read back:
    /// the time the server was down is not counted).
    turn_started: Instant,
}

impl Live {
    fn human(&self) -> Option<Side> {
        self.row.human.as_deref().and_then(side_from)
    }

    fn resigned(&self) -> Option<Side> {
        self.row.resigned.as_deref().and_then(side_from)
    }

    fn flagged(&self) -> Option<Side> {
        self.row.flagged.as_deref().and_then(side_from)
    }

    fn finished(&self) -> bool {
        self.resigned().is_some() || self.flagged().is_some() || self.table.outcome().is_some()
    }

    /// Milliseconds the side to move has spent on this turn so far.
    fn turn_ms(&self) -> u64 {
        u64::try_from(self.turn_started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// What is left on `side`'s clock, in milliseconds (negative once it has run out), when
    /// the game has clocks: its start, an increment for each of its moves, less the time its
    /// moves took and, on its turn, the time of this one.
    fn remaining_ms(&self, side: Side) -> Option<i64> {
        let start = self.row.clock_ms?;
        let ply = self.row.used_ms.len();
        let to_move = self.table.side_to_move();
        // Sides alternate: the last move was the other side's, the one before it this side's.
        let mut left = start as i64;
        for (index, used) in self.row.used_ms.iter().enumerate() {
            let mover = if (ply - index) % 2 == 0 {
                to_move
            } else {
                !to_move
            };
            if mover == side {
                left += self.row.increment_ms as i64 - *used as i64;
            }
        }
        if side == to_move && !self.finished() {
            left -= self.turn_ms() as i64;
        }
        Some(left)
    }

    /// Ends the game on time when the side to move's clock has run out; true when it has.
    fn check_flag(&mut self, state: &AppState) -> Result<bool, ApiError> {
        if self.finished() {
            return Ok(false);
        }
        let to_move = self.table.side_to_move();
        if self.remaining_ms(to_move).is_some_and(|left| left < 0) {
            let side = side_name(to_move);
            let id = self.row.id.clone();
            state.with_store(|store| store.set_flagged(&id, side))?;
            self.row.flagged = Some(side.to_owned());
            self.stop_thinking();
            return Ok(true);
        }
        Ok(false)
    }

    /// Records a move played on the board: its thinking time, and the next turn's start.
    fn played(&mut self, next: Table, used_ms: u64) {
        self.table = next;
        self.row.used_ms.push(used_ms);
        self.turn_started = Instant::now();
    }

    /// Whether the engine is to move in a game against it.
    fn engine_to_move(&self) -> bool {
        !self.finished()
            && self
                .human()
                .is_some_and(|human| human != self.table.side_to_move())
    }

    /// The engine's level (a stored level out of range reads as the strongest).
    fn level(&self) -> crate::engine::Level {
        LEVELS[self.row.level.min(LEVELS.len() - 1)]
    }

    fn stop_thinking(&mut self) {
        if let Some(control) = self.thinking.take() {
            control.cancel();
        }
    }

    fn state(&self) -> Value {
        let mut view = self.table.view();
        if let Value::Object(map) = &mut view {
            map.insert("id".into(), json!(self.row.id));
            map.insert("mode".into(), json!(self.row.mode));
            map.insert("human".into(), json!(self.row.human));
            map.insert(
                "level".into(),
                json!({"index": self.row.level, "key": self.level().key, "millis": self.level().millis}),
            );
            map.insert("resigned".into(), json!(self.row.resigned));
            map.insert("flagged".into(), json!(self.row.flagged));
            map.insert(
                "clock".into(),
                match self.row.clock_ms {
                    None => Value::Null,
                    Some(_) => json!({
                        "attackers": self.remaining_ms(Side::Attackers).map(|ms| ms.max(0)),
                        "defenders": self.remaining_ms(Side::Defenders).map(|ms| ms.max(0)),
                        "running": (!self.finished()).then(|| side_name(self.table.side_to_move())),
                        "increment": self.row.increment_ms,
                    }),
                },
            );
            if let Some(side) = self.flagged() {
                map.insert(
                    "result".into(),
                    json!({
                        "winner": side_name(!side),
                        "reason": "time",
                        "text": format!("{} win: the {} ran out of time", !side, side),
                    }),
                );
            }
            map.insert("engine_to_move".into(), json!(self.engine_to_move()));
            map.insert("finished".into(), json!(self.finished()));
            if self.resigned().is_some() || self.flagged().is_some() {
                // The legal moves of a resigned game, or one lost on time, are none.
                map.insert("legal".into(), json!({}));
            }
        }
        view
    }
}

type Shared = Arc<tokio::sync::Mutex<Live>>;

/// Token buckets by key.
struct Limiter {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl Limiter {
    /// Takes a token from `key`'s bucket; false when it is empty.
    fn allow(&self, key: &str) -> bool {
        if self.rate <= 0.0 {
            return true;
        }
        let Ok(mut buckets) = self.buckets.lock() else {
            return true;
        };
        let now = Instant::now();
        if buckets.len() > 100_000 {
            let (rate, burst) = (self.rate, self.burst);
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * rate < burst
            });
        }
        let (tokens, at) = buckets.entry(key.to_owned()).or_insert((self.burst, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * self.rate).min(self.burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Everything the handlers share.
pub struct AppState {
    store: Mutex<Store>,
    games: Mutex<HashMap<String, Shared>>,
    pool: Pool,
    limiter: Limiter,
    config: Config,
}

/// An error answer: a status, a short code and words for a person.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    fn not_found() -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such game")
    }

    fn storage(error: rusqlite::Error) -> ApiError {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "storage",
            format!("the database failed: {error}"),
        )
    }

    fn too_fast() -> ApiError {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_fast",
            "too many requests: slow down",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Json(json!({"error": self.code, "message": self.message}));
        (self.status, body).into_response()
    }
}

/// A JSON body: any malformed body is a 400, any body over [`MAX_BODY`] a 413.
pub struct Body<T>(T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                let status = rejection.status();
                if status == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::new(
                        status,
                        "too_large",
                        format!("the body is over {MAX_BODY} bytes"),
                    )
                } else {
                    ApiError::new(StatusCode::BAD_REQUEST, "bad_body", rejection.body_text())
                }
            })?;
        let bytes: &[u8] = if bytes.is_empty() { b"{}" } else { &bytes };
        serde_json::from_slice(bytes).map(Body).map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_json",
                format!("malformed JSON: {e}"),
            )
        })
    }
}

/// A fresh game id: 128 bits from the standard library's random hasher keys.
fn new_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut words = [0u64; 2];
    for word in &mut words {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        *word = hasher.finish();
    }
    format!("{:016x}{:016x}", words[0], words[1])
}

impl AppState {
    /// Opens the database and sets up the searches.
    pub fn open(config: Config) -> rusqlite::Result<Arc<AppState>> {
        let store = Store::open(&config.db)?;
        Ok(Arc::new(AppState {
            store: Mutex::new(store),
            games: Mutex::new(HashMap::new()),
            pool: Pool::new(config.searches, config.hash_mb),
            limiter: Limiter {
                rate: config.rate,
                burst: config.burst,
                buckets: Mutex::new(HashMap::new()),
            },
            config,
        }))
    }

    fn with_store<T>(
        &self,
        f: impl FnOnce(&mut Store) -> rusqlite::Result<T>,
    ) -> Result<T, ApiError> {
        let mut store = self.store.lock().map_err(|_| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "storage",
                "the database lock was poisoned",
            )
        })?;
        f(&mut store).map_err(ApiError::storage)
    }

    /// The game with this id, from memory or else from the database (replayed by the rules).
    fn game(&self, id: &str) -> Result<Shared, ApiError> {
        if id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(ApiError::not_found());
        }
        if let Some(game) = self.games.lock().ok().and_then(|g| g.get(id).cloned()) {
            return Ok(game);
        }
        let row = self
            .with_store(|store| store.load(id))?
            .ok_or_else(ApiError::not_found)?;
        let broken = |why: String| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "storage",
                format!("stored game {id} cannot be replayed: {why}"),
            )
        };
        let variant: AnyVariant = row.rules.parse().map_err(|e| broken(format!("{e}")))?;
        let mut table = Table::new(variant, Some(&row.start)).map_err(|e| broken(e.0))?;
        for text in &row.moves {
            table.play(text).map_err(|e| broken(e.0))?;
        }
        let live = Arc::new(tokio::sync::Mutex::new(Live {
            row,
            table,
            thinking: None,
            turn_started: Instant::now(),
        }));
        let mut games = self
            .games
            .lock()
            .map_err(|_| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "lock", "poisoned"))?;
        if games.len() >= self.config.cached_games {
            // Idle games leave memory; they are in the database.
            games.retain(|_, game| Arc::strong_count(game) > 1);
        }
        Ok(games.entry(id.to_owned()).or_insert(live).clone())
    }

    /// Drops a finished game from memory (it stays in the database).
    fn forget_if_finished(&self, live: &Live) {
        if live.finished()
            && live.thinking.is_none()
            && let Ok(mut games) = self.games.lock()
        {
            games.remove(&live.row.id);
        }
    }

    /// Games in memory.
    pub fn games_in_memory(&self) -> usize {
        self.games.lock().map_or(0, |g| g.len())
    }
}

/// The router of the whole server.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/g/{id}", get(assets::index))
        .route("/assets/{name}", get(assets::asset))
        .route("/api/variants", get(variants))
        .route("/api/levels", get(levels))
        .route("/api/status", get(status))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(read))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/takeback", post(takeback))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/stop", post(stop))
        .route("/api/games/{id}/think", get(think))
        .route("/api/games/{id}/otg", get(otg))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such page") })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// A short paragraph on each built-in game, by key.
fn summary(key: &str) -> &'static str {
    crate::summaries::SUMMARIES
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("", |(_, text)| text)
}

async fn variants() -> Json<Value> {
    let list: Vec<Value> = AnyVariant::names()
        .filter_map(|key| {
            let variant = AnyVariant::by_name(key)?;
            let table = Table::new(variant.clone(), None).ok()?;
            Some(json!({
                "key": key,
                "name": variant.name().replace('_', " "),
                "size": variant.size(),
                "rules": variant.to_string(),
                "first": side_name(table.side_to_move()),
                "summary": summary(key),
            }))
        })
        .collect();
    Json(json!({ "variants": list }))
}

async fn levels() -> Json<Value> {
    Json(json!({ "levels": LEVELS }))
}

async fn status(State(state): State<Arc<AppState>>) -> Result<Json<Value>, ApiError> {
    let (waiting, running) = state.pool.load();
    let stored = state.with_store(|store| store.count_games())?;
    Ok(Json(json!({
        "searches_running": running,
        "searches_waiting": waiting,
        "search_slots": state.config.searches,
        "games_in_memory": state.games_in_memory(),
        "games_stored": stored,
    })))
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
}

fn bad(code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
}

async fn create(
    State(state): State<Arc<AppState>>,
    ConnectInfo(address): ConnectInfo<SocketAddr>,
    Body(request): Body<NewGame>,
) -> Result<Response, ApiError> {
    if !state.limiter.allow(&format!("new {}", address.ip())) {
        return Err(ApiError::too_fast());
    }
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
            (None, Some(rules)) => rules
                .parse::<AnyVariant>()
                .map_err(|e| bad("bad_rules", e.to_string()))?,
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
    let increment_ms = match request.increment_seconds.unwrap_or(0) {
        seconds @ 0..=600 => seconds * 1000,
        _ => return Err(bad("bad_clock", "an increment is 0 to 600 seconds")),
    };
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
    };
    state.with_store(|store| store.create(&row))?;
    let live = Live {
        row,
        table,
        thinking: None,
        turn_started: Instant::now(),
    };
    let body = live.state();
    let id = live.row.id.clone();
    if let Ok(mut games) = state.games.lock() {
        games.insert(id, Arc::new(tokio::sync::Mutex::new(live)));
    }
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

fn limited(state: &AppState, id: &str) -> Result<(), ApiError> {
    if state.limiter.allow(id) {
        Ok(())
    } else {
        Err(ApiError::too_fast())
    }
}

async fn read(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    limited(&state, &id)?;
    let game = state.game(&id)?;
    let mut live = game.lock().await;
    live.check_flag(&state)?;
    let body = live.state();
    state.forget_if_finished(&live);
    Ok(Json(body))
}

/// A move's request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    /// The move: `e2-e4` (or full notation).
    #[serde(rename = "move")]
    text: String,
    /// The number of moves played before it, when the page wants to be sure it moves in the
    /// position it shows.
    ply: Option<usize>,
}

async fn play(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Body(request): Body<MoveRequest>,
) -> Result<Json<Value>, ApiError> {
    limited(&state, &id)?;
    let game = state.game(&id)?;
    let mut live = game.lock().await;
    if let Some(ply) = request.ply
        && ply != live.table.ply()
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "stale",
            format!("the game is at move {}, not {ply}", live.table.ply()),
        ));
    }
    if let Some(side) = live.resigned() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "game_over",
            format!("the game is over: the {} resigned", side_name(side)),
        ));
    }
    if live.check_flag(&state)? || live.flagged().is_some() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "game_over",
            "the game is over: time ran out",
        ));
    }
    if let Some(human) = live.human()
        && live.table.outcome().is_none()
        && live.table.side_to_move() != human
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "not_your_turn",
            "it is the engine's turn",
        ));
    }
    let mut next = live.table.clone();
    next.play(&request.text)
        .map_err(|e| bad("illegal_move", e.0))?;
    let ply = live.table.ply();
    let text = next.move_texts().pop().unwrap_or_default();
    let used = if live.row.clock_ms.is_some() {
        live.turn_ms()
    } else {
        0
    };
    state.with_store(|store| store.push_move(&id, ply, &text, used))?;
    live.stop_thinking();
    live.played(next, used);
    let body = live.state();
    state.forget_if_finished(&live);
    Ok(Json(body))
}

async fn takeback(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    limited(&state, &id)?;
    let game = state.game(&id)?;
    let mut live = game.lock().await;
    if live.resigned().is_some() || live.check_flag(&state)? || live.flagged().is_some() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "game_over",
            "the game is over: resigned or lost on time",
        ));
    }
    let mut next = live.table.clone();
    match live.human() {
        // Back to the person's turn, before their last move.
        Some(human) => {
            let mut undone = false;
            while next.ply() > 0 {
                next.undo();
                if next.side_to_move() == human {
                    undone = true;
                    break;
                }
            }
            if !undone {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "nothing_to_take_back",
                    "you have made no move to take back",
                ));
            }
        }
        None => {
            if !next.undo() {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "nothing_to_take_back",
                    "no move to take back",
                ));
            }
        }
    }
    let plies = next.ply();
    state.with_store(|store| store.truncate(&id, plies))?;
    live.stop_thinking();
    live.table = next;
    live.row.used_ms.truncate(plies);
    live.turn_started = Instant::now();
    Ok(Json(live.state()))
}

async fn resign(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    limited(&state, &id)?;
    let game = state.game(&id)?;
    let mut live = game.lock().await;
    let Some(human) = live.human() else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "analysis",
            "nobody resigns an analysis",
        ));
    };
    if live.finished() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "game_over",
            "the game is over",
        ));
    }
    state.with_store(|store| store.set_resigned(&id, side_name(human)))?;
    live.stop_thinking();
    live.row.resigned = Some(side_name(human).to_owned());
    let body = live.state();
    state.forget_if_finished(&live);
    Ok(Json(body))
}

async fn stop(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    limited(&state, &id)?;
    let game = state.game(&id)?;
    let live = game.lock().await;
    let stopped = match &live.thinking {
        Some(control) => {
            control.stop_now();
            true
        }
        None => false,
    };
    Ok(Json(json!({ "stopped": stopped })))
}

async fn otg(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    limited(&state, &id)?;
    let game = state.game(&id)?;
    let live = game.lock().await;
    let text = live.table.record(live.resigned());
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

/// What the engine is asked.
#[derive(Deserialize)]
struct ThinkQuery {
    /// `move` (the engine plays its move), `hint` (the best move for the person) or
    /// `analysis` (three best lines).
    #[serde(rename = "for")]
    purpose: Option<String>,
}

fn sse_event(name: &str, data: &impl serde::Serialize) -> SseEvent {
    SseEvent::default()
        .event(name)
        .json_data(data)
        .unwrap_or_else(|_| SseEvent::default().event(name).data("{}"))
}

async fn think(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(query): Query<ThinkQuery>,
) -> Result<Response, ApiError> {
    limited(&state, &id)?;
    let purpose = query.purpose.unwrap_or_else(|| "move".into());
    let game = state.game(&id)?;
    let (table, limits, lines, viewer, control, ply) = {
        let mut live = game.lock().await;
        live.check_flag(&state)?;
        if live.finished() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "game_over",
                "the game is over",
            ));
        }
        let to_move = live.table.side_to_move();
        let (lines, viewer) = match (purpose.as_str(), live.human()) {
            ("move", Some(human)) if human != to_move => (1, human),
            ("move", _) => {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "not_engine_turn",
                    "the engine is not to move",
                ));
            }
            ("hint", Some(human)) if human == to_move => (1, human),
            ("hint", None) => (1, to_move),
            ("hint", Some(_)) => {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "not_your_turn",
                    "wait for the engine's move",
                ));
            }
            ("analysis", _) => (3, to_move),
            (other, _) => {
                return Err(bad(
                    "bad_purpose",
                    format!("'{other}' is not move, hint or analysis"),
                ));
            }
        };
        live.stop_thinking();
        let control = Arc::new(Control::default());
        live.thinking = Some(control.clone());
        let time = Duration::from_millis(match purpose.as_str() {
            "move" => live.level().millis,
            // A hint or an analysis is worth a second at least.
            _ => live.level().millis.max(1_000),
        });
        let mut limits = Limits::move_time(time);
        if purpose == "move"
            && let Some(left) = live.remaining_ms(to_move)
        {
            // The engine's clock: it budgets its time from what is left.
            limits.clock = Some(Clock {
                remaining: Duration::from_millis(u64::try_from(left).unwrap_or(0)),
                increment: Duration::from_millis(live.row.increment_ms),
                ..Clock::default()
            });
        }
        (
            live.table.clone(),
            limits,
            lines,
            viewer,
            control,
            live.table.ply(),
        )
    };
    let (sender, receiver) = mpsc::unbounded_channel::<SseEvent>();
    let worker_state = state.clone();
    tokio::spawn(async move {
        let (events, mut event_receiver) = mpsc::unbounded_channel::<Event>();
        let forward_sender = sender.clone();
        let forward = tokio::spawn(async move {
            while let Some(event) = event_receiver.recv().await {
                let name = match &event {
                    Event::Queue { .. } => "queue",
                    Event::Started => "started",
                    Event::Info(_) => "info",
                };
                if forward_sender.send(sse_event(name, &event)).is_err() {
                    break;
                }
            }
        });
        // The page leaving closes the stream: its search is given up.
        let closer = {
            let sender = sender.clone();
            let control = control.clone();
            tokio::spawn(async move {
                sender.closed().await;
                control.cancel();
            })
        };
        let found = worker_state
            .pool
            .search(table, limits, lines, viewer, control.clone(), events)
            .await;
        closer.abort();
        let _ = forward.await;
        let Some(found) = found else {
            clear_thinking(&game, &control).await;
            return;
        };
        match purpose.as_str() {
            "move" => {
                let mut live = game.lock().await;
                let current = live
                    .thinking
                    .as_ref()
                    .is_some_and(|c| Arc::ptr_eq(c, &control));
                if !current || control.is_cancelled() || live.table.ply() != ply {
                    return;
                }
                live.thinking = None;
                if live.check_flag(&worker_state).unwrap_or(false) {
                    let body = live.state();
                    let _ =
                        sender.send(sse_event("state", &json!({"state": body, "found": found})));
                    return;
                }
                let Some(best) = found.best.clone() else {
                    return;
                };
                let mut next = live.table.clone();
                if let Err(error) = next.play(&best) {
                    let _ = sender.send(sse_event("failed", &json!({"message": error.0})));
                    return;
                }
                let used = if live.row.clock_ms.is_some() {
                    live.turn_ms()
                } else {
                    0
                };
                let stored = worker_state
                    .with_store(|store| store.push_move(&live.row.id, ply, &best, used));
                if let Err(error) = stored {
                    let _ = sender.send(sse_event("failed", &json!({"message": error.message})));
                    return;
                }
                live.played(next, used);
                let body = live.state();
                let _ = sender.send(sse_event("state", &json!({"state": body, "found": found})));
                worker_state.forget_if_finished(&live);
            }
            _ => {
                clear_thinking(&game, &control).await;
                let _ = sender.send(sse_event(&purpose, &found));
            }
        }
    });
    let stream = UnboundedReceiverStream::new(receiver).map(Ok::<_, Infallible>);
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(5)))
        .into_response())
}

async fn clear_thinking(game: &Shared, control: &Arc<Control>) {
    let mut live = game.lock().await;
    if live
        .thinking
        .as_ref()
        .is_some_and(|c| Arc::ptr_eq(c, control))
    {
        live.thinking = None;
    }
}
