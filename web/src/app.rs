//! What every handler shares: the configuration, the database, the games in memory, the
//! searches and the rate limits.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Instant;

use axum::http::StatusCode;
use tafl_engine::{AnyVariant, Side};
use tracing::Instrument;

use crate::engine::Pool;
use crate::events::Channel;
use crate::http::error::ApiError;
use crate::jobs::Jobs;
use crate::limits::Limits;
use crate::review::Reviews;
use crate::round::{Live, Shared};
use crate::store::{GameRow, Store, StoreError};
use crate::table::Table;

/// How the server is set up.
#[derive(Clone, Debug)]
pub struct Config {
    /// The database: a SQLite file's path, or a PostgreSQL URL (`postgres://...`).
    pub db: String,
    /// Searches at once.
    pub searches: usize,
    /// Table size of each search, in MiB.
    pub hash_mb: usize,
    /// Requests a second one seat's secret, one address without one, or one address creating
    /// games may send, on average (`limits`).
    pub rate: f64,
    /// Requests it may send at once before `rate` applies.
    pub burst: f64,
    /// Games kept in memory before idle ones are dropped (they stay in the database).
    pub cached_games: usize,
    /// Time the review of a finished game spends on each position, in milliseconds.
    pub review_ms: u64,
    /// The length of a correspondence game's day, in milliseconds: 86 400 000, shorter only
    /// in tests (`--day-ms`), which cannot wait a day.
    pub day_ms: u64,
    /// How long a claim of a search job holds it without being renewed, in milliseconds (a
    /// process that dies loses its jobs after this; PostgreSQL only: `crate::jobs`).
    pub lease_ms: u64,
    /// Whether this process serves pages (a server) or only searches jobs (`tafl-web
    /// worker`): a worker neither starts the engine's moves nor watches the clocks.
    pub serves: bool,
    /// The load balancers in front of this server (`--proxy`): a request from one of them is
    /// limited by the client address its `X-Forwarded-For` header names last.
    pub proxies: Vec<std::net::IpAddr>,
}

impl Config {
    /// The defaults, with the database `db` (a SQLite file's path or a PostgreSQL URL).
    pub fn new(db: impl Into<String>) -> Config {
        Config {
            db: db.into(),
            searches: std::thread::available_parallelism().map_or(1, |n| n.get()),
            hash_mb: 16,
            rate: 10.0,
            burst: 30.0,
            cached_games: 1000,
            review_ms: 300,
            day_ms: 86_400_000,
            lease_ms: 10_000,
            serves: true,
            proxies: Vec::new(),
        }
    }
}

/// Everything the handlers share.
pub struct AppState {
    pub(crate) store: Store,
    pub(crate) games: Mutex<HashMap<String, Shared>>,
    pub(crate) pool: Pool,
    pub(crate) limits: Limits,
    pub(crate) config: Config,
    pub(crate) reviews: Reviews,
    /// This process's part in the job table (PostgreSQL).
    pub(crate) jobs: Jobs,
    /// The games pages follow (their event streams hold them), so that a game dropped from
    /// `games` (finished, or idle) while pages still follow it is found again here: a change
    /// (a rematch asked for) must reach those pages' broadcast, not a second copy's.
    watched: Mutex<HashMap<String, Weak<tokio::sync::Mutex<Live>>>>,
    /// The state itself, for starting a review where only `&self` is at hand.
    me: Weak<AppState>,
    /// True once the server stops (SIGTERM, Ctrl-C): not ready any more, event streams told
    /// to reconnect elsewhere, searches cancelled.
    stopping: tokio::sync::watch::Sender<bool>,
}

impl AppState {
    /// Opens the database and sets up the searches.
    pub async fn open(config: Config) -> Result<Arc<AppState>, StoreError> {
        let store = Store::open(&config.db).await?;
        Ok(Arc::new_cyclic(|me| AppState {
            store,
            games: Mutex::new(HashMap::new()),
            pool: Pool::new(config.searches, config.hash_mb),
            limits: Limits::new(config.rate, config.burst),
            jobs: Jobs::new(config.serves),
            config,
            reviews: Reviews::default(),
            watched: Mutex::new(HashMap::new()),
            me: me.clone(),
            stopping: tokio::sync::watch::channel(false).0,
        }))
    }

    /// The server stops (SIGTERM, Ctrl-C): readiness answers 503 from now on, every open event
    /// stream is told to reconnect (through the balancer, to another server) and ends, and
    /// every search waiting or running here is cancelled: an engine's move not yet played is
    /// searched again wherever the game is next read. Moves already acknowledged are in the
    /// database (each is committed before its answer). Returns the searches cancelled.
    pub fn stop(&self) -> usize {
        self.stopping.send_replace(true);
        self.pool.close()
    }

    /// Whether the server is stopping ([`AppState::stop`]).
    pub fn stopping(&self) -> bool {
        *self.stopping.borrow()
    }

    /// Resolves when the server starts stopping (at once if it has).
    pub async fn stopped(&self) {
        let mut receiver = self.stopping.subscribe();
        let _ = receiver.wait_for(|stopping| *stopping).await;
    }

    /// The game with this id, from memory or else from the database (replayed by the rules).
    /// A game read back whose turn is the engine's gets its move started (after a restart, the
    /// engine goes on by itself).
    pub(crate) async fn game(self: &Arc<Self>, id: &str) -> Result<Shared, ApiError> {
        if id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(ApiError::not_found());
        }
        if let Some(game) = self.cached(id) {
            if self.store.shared() {
                // Another server may have changed it: the database has the last word.
                let mut live = game.lock().await;
                if self.catch_up(&mut live).await? {
                    crate::searches::engine_move_if_due(self, &game, &mut live);
                }
            }
            return Ok(game);
        }
        let row = self.store.load(id).await?.ok_or_else(ApiError::not_found)?;
        let last_seq = self.store.last_event(id).await?;
        let (table, draw_offer) = self.replay(&row).await?;
        let live = Arc::new(tokio::sync::Mutex::new(Live {
            row,
            table,
            thinking: None,
            turn_started: Instant::now(),
            channel: Channel::new(last_seq),
            draw_offer,
        }));
        let mut games = self
            .games
            .lock()
            .map_err(|_| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "lock", "poisoned"))?;
        if games.len() >= self.config.cached_games {
            // Idle games leave memory; they are in the database.
            games.retain(|_, game| Arc::strong_count(game) > 1);
        }
        let game = games.entry(id.to_owned()).or_insert(live).clone();
        drop(games);
        // Nobody else has seen this game yet unless another request loaded it at once.
        if let Ok(mut live) = game.try_lock() {
            crate::searches::next_turn(self, &game, &mut live);
        }
        Ok(game)
    }

    /// The game in memory with this id, if it is (played, or followed by a page).
    fn cached(&self, id: &str) -> Option<Shared> {
        if let Some(game) = self.games.lock().ok().and_then(|g| g.get(id).cloned()) {
            return Some(game);
        }
        self.watched
            .lock()
            .ok()
            .and_then(|w| w.get(id).and_then(Weak::upgrade))
    }

    /// A stored game's position, replayed by the rules, and its standing draw offer.
    async fn replay(&self, row: &GameRow) -> Result<(Table, Option<Side>), ApiError> {
        let broken = |why: String| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "storage",
                format!("stored game {} cannot be replayed: {why}", row.id),
            )
        };
        let variant: AnyVariant = row.rules.parse().map_err(|e| broken(format!("{e}")))?;
        let mut table = Table::new(variant, Some(&row.start)).map_err(|e| broken(e.0))?;
        for text in &row.moves {
            table.play(text).map_err(|e| broken(e.0))?;
        }
        let (offer, agreed) = self.store.load_draw(&row.id).await?;
        if agreed {
            table.agree_draw();
        }
        Ok((table, offer.as_deref().and_then(crate::table::side_from)))
    }

    /// Brings a game in memory up to the database, when another process changed it: reads it
    /// again and sends its pages the events they have not had, in order; a search of its old
    /// position here is given up. True when the engine's move is to be asked for (the game
    /// changed, and not by a search given up: its `failed` event waits for a person).
    pub(crate) async fn catch_up(&self, live: &mut Live) -> Result<bool, ApiError> {
        let id = live.row.id.clone();
        let last = self.store.last_event(&id).await?;
        if last <= live.channel.last_seq {
            return Ok(false);
        }
        live.stop_thinking();
        let missed = self.store.events_after(&id, live.channel.last_seq).await?;
        let row = self
            .store
            .load(&id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        let (table, draw_offer) = self.replay(&row).await?;
        live.row = row;
        live.table = table;
        live.draw_offer = draw_offer;
        live.turn_started = Instant::now();
        tracing::debug!(missed = missed.len(), "caught up with the database");
        for event in &missed {
            live.relay(event, serde_json::json!({}));
        }
        Ok(missed.last().is_none_or(|event| event.kind != "failed"))
    }

    /// With PostgreSQL: follows the changes other servers make (LISTEN/NOTIFY carrying game
    /// ids), each game in memory brought up to date and its pages told; after a lost
    /// connection every game in memory is (nothing is missed: the events are in the database).
    pub fn follow_changes(self: &Arc<Self>) {
        if !self.store.shared() {
            return;
        }
        let me = self.clone();
        tokio::spawn(async move {
            let heard = me.clone();
            me.store
                .listen("tafl_events", move |id| {
                    let me = heard.clone();
                    tokio::spawn(async move {
                        let ids = match id {
                            Some(id) => vec![id],
                            None => me.games_followed(),
                        };
                        for id in ids {
                            if let Some(game) = me.cached(&id) {
                                let span = crate::round::game_span(&id, "follow");
                                let caught = async {
                                    let mut live = game.lock().await;
                                    match me.catch_up(&mut live).await {
                                        // Its pages here are told the job's place too.
                                        Ok(true) => crate::searches::engine_move_if_due(
                                            &me, &game, &mut live,
                                        ),
                                        Ok(false) => {}
                                        Err(error) => tracing::warn!(
                                            "cannot catch up with the database: {}",
                                            error.message
                                        ),
                                    }
                                };
                                caught.instrument(span).await;
                            }
                        }
                    });
                })
                .await;
        });
    }

    /// The ids of the games in memory.
    fn games_followed(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .games
            .lock()
            .map(|g| g.keys().cloned().collect())
            .unwrap_or_default();
        if let Ok(watched) = self.watched.lock() {
            ids.extend(watched.keys().cloned());
        }
        ids.sort();
        ids.dedup();
        ids
    }

    /// Notes that a page follows `game` (its event stream holds it): see `watched`.
    pub(crate) fn watch(&self, id: &str, game: &Shared) {
        if let Ok(mut watched) = self.watched.lock() {
            // Games nobody follows any more go when the map has grown (amortised).
            if watched.len() >= 256 && watched.len().is_power_of_two() {
                watched.retain(|_, game| game.strong_count() > 0);
            }
            watched.insert(id.to_owned(), Arc::downgrade(game));
        }
    }

    /// Drops a finished game from memory (it stays in the database), and has it reviewed.
    pub(crate) fn forget_if_finished(&self, live: &Live) {
        if live.finished()
            && let Some(me) = self.me.upgrade()
        {
            self.reviews.request(&me, &live.row.id);
        }
        if live.finished()
            && live.thinking.is_none()
            && let Ok(mut games) = self.games.lock()
        {
            games.remove(&live.row.id);
        }
    }

    /// Reads every correspondence game still on, so that the server watches its deadline
    /// (and ends it when it has passed while the server was down) with no page open.
    pub async fn watch_correspondence(self: &Arc<Self>) -> Result<usize, ApiError> {
        let ids = self.store.correspondence_games().await?;
        for id in &ids {
            self.game(id).await?;
        }
        Ok(ids.len())
    }

    /// With PostgreSQL: searches the job table's jobs with this server's search slots while
    /// no worker runs (`crate::jobs`), in the background.
    pub fn claim_jobs(self: &Arc<Self>) {
        crate::jobs::start(self, self.config.searches, false);
    }

    /// With PostgreSQL: hands the jobs this process holds back to the queue (it stops: another
    /// claims them at once rather than after their lease).
    pub async fn hand_back_jobs(&self) {
        crate::jobs::hand_back(self).await;
    }

    /// The database's kind: `sqlite` or `postgres`.
    pub fn store_backend(&self) -> &'static str {
        self.store.backend()
    }

    /// Games in memory.
    pub fn games_in_memory(&self) -> usize {
        self.games.lock().map_or(0, |g| g.len())
    }
}
