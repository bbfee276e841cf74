//! What every handler shares: the configuration, the database, the games in memory, the
//! searches and the rate limits.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Instant;

use axum::http::StatusCode;
use tafl_engine::AnyVariant;

use crate::engine::Pool;
use crate::events::Channel;
use crate::http::error::ApiError;
use crate::limits::Limits;
use crate::review::Reviews;
use crate::round::{Live, Shared};
use crate::store::{Store, StoreError};
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
    /// The games pages follow (their event streams hold them), so that a game dropped from
    /// `games` (finished, or idle) while pages still follow it is found again here: a change
    /// (a rematch asked for) must reach those pages' broadcast, not a second copy's.
    watched: Mutex<HashMap<String, Weak<tokio::sync::Mutex<Live>>>>,
    /// The state itself, for starting a review where only `&self` is at hand.
    me: Weak<AppState>,
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
            config,
            reviews: Reviews::default(),
            watched: Mutex::new(HashMap::new()),
            me: me.clone(),
        }))
    }

    /// The game with this id, from memory or else from the database (replayed by the rules).
    /// A game read back whose turn is the engine's gets its move started (after a restart, the
    /// engine goes on by itself).
    pub(crate) async fn game(self: &Arc<Self>, id: &str) -> Result<Shared, ApiError> {
        if id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(ApiError::not_found());
        }
        if let Some(game) = self.games.lock().ok().and_then(|g| g.get(id).cloned()) {
            return Ok(game);
        }
        if let Some(game) = self
            .watched
            .lock()
            .ok()
            .and_then(|w| w.get(id).and_then(Weak::upgrade))
        {
            return Ok(game);
        }
        let row = self.store.load(id).await?.ok_or_else(ApiError::not_found)?;
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
        let last_seq = self.store.last_event(id).await?;
        let (offer, agreed) = self.store.load_draw(id).await?;
        if agreed {
            table.agree_draw();
        }
        let live = Arc::new(tokio::sync::Mutex::new(Live {
            row,
            table,
            thinking: None,
            turn_started: Instant::now(),
            channel: Channel::new(last_seq),
            draw_offer: offer.as_deref().and_then(crate::table::side_from),
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

    /// Games in memory.
    pub fn games_in_memory(&self) -> usize {
        self.games.lock().map_or(0, |g| g.len())
    }
}
