//! The games in a database: SQLite (one file, the default) or PostgreSQL (shared by several
//! servers), chosen by `--db`. One row a game, one a move, one an event; every change of a game
//! is written with its event in one transaction, committed before the request that made it is
//! answered. The SQL is written once for both (`sql.rs`), its schema's history in
//! `web/migrations/`.

mod jobs;
mod postgres;
mod sql;
mod sqlite;

use std::path::Path;

pub use jobs::{ClaimedJob, JobPlace};
pub use sql::{Row, Statement, StoreError, Value};

use crate::seats::{Seat, SeatKind, Seats};

/// The stored facts of a game, besides its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The game's id (its URL).
    pub id: String,
    /// The rules string.
    pub rules: String,
    /// The start position's position string.
    pub start: String,
    /// `play` or `analysis`.
    pub mode: String,
    /// The person's side in a game against the engine (`attackers` or `defenders`).
    pub human: Option<String>,
    /// The engine's level (an index into the levels).
    pub level: usize,
    /// The side that resigned, if one did.
    pub resigned: Option<String>,
    /// The moves, first to last, as text (`e2-e4`).
    pub moves: Vec<String>,
    /// Each move's thinking time, in milliseconds (0 when no clock runs).
    pub used_ms: Vec<u64>,
    /// Each side's time at the start, in milliseconds, when the game has clocks.
    pub clock_ms: Option<u64>,
    /// Time added to a side's clock for each of its moves, in milliseconds.
    pub increment_ms: u64,
    /// The side that ran out of time, if one did.
    pub flagged: Option<String>,
    /// Who sits where; a game stored before seats has no secret's hash (read-only).
    pub seats: Seats,
    /// A correspondence game's days per move (its turns last `move_ms` each), else None.
    pub move_days: Option<u64>,
    /// The length of a correspondence game's turn, in milliseconds (days times the server's
    /// day, which only tests shorten).
    pub move_ms: Option<u64>,
    /// When the current turn began, in milliseconds since 1970 (the time of the last move,
    /// takeback or seat taken; read from the events), if it did.
    pub turn_since_ms: Option<u64>,
}

/// The wall clock, in milliseconds since 1970.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// A stored event of a game: its number (1, 2, ... in the game), its kind and its data (JSON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    /// The event's number in its game.
    pub seq: u64,
    /// `move`, `takeback`, `resign`, `flag`, `join`.
    pub kind: String,
    /// The event's facts, as JSON.
    pub data: String,
}

/// The database the games are kept in.
pub enum Store {
    /// One SQLite file on this machine.
    Sqlite(sqlite::Sqlite),
    /// A PostgreSQL database that several servers may share.
    Postgres(postgres::Postgres),
}

/// Whether `db` names a PostgreSQL database (`postgres://...` or `postgresql://...`) rather
/// than a SQLite file.
pub fn is_postgres(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// `db` as it may be shown in a log: a PostgreSQL URL without its password.
pub fn shown(db: &str) -> String {
    if !is_postgres(db) {
        return db.to_owned();
    }
    let (scheme, rest) = db.split_once("://").unwrap_or(("postgres", db));
    match rest.split_once('@') {
        Some((user, host)) => {
            let user = user.split(':').next().unwrap_or_default();
            format!("{scheme}://{user}@{host}")
        }
        None => db.to_owned(),
    }
}

fn move_statement(id: &str, ply: usize, text: &str, used_ms: u64) -> Statement {
    Statement::new(
        "INSERT INTO moves (game, ply, move, used_ms) VALUES ($1, $2, $3, $4)",
        vec![id.into(), ply.into(), text.into(), used_ms.into()],
    )
}

fn event_statement(id: &str, event: &EventRow) -> Statement {
    Statement::new(
        "INSERT INTO events (game, seq, kind, data, at) VALUES ($1, $2, $3, $4, $5)",
        vec![
            id.into(),
            event.seq.into(),
            (&event.kind).into(),
            (&event.data).into(),
            now_ms().into(),
        ],
    )
}

impl Store {
    /// Opens the database `db` names: a PostgreSQL URL, or else the path of a SQLite file
    /// (created when missing). Its schema is brought up to date.
    pub async fn open(db: &str) -> Result<Store, StoreError> {
        if is_postgres(db) {
            Ok(Store::Postgres(postgres::Postgres::open(db).await?))
        } else {
            Ok(Store::Sqlite(sqlite::Sqlite::open(Path::new(db))?))
        }
    }

    /// Whether other servers may change the games too (PostgreSQL): a game in memory is then
    /// checked against the database before it is used.
    pub fn shared(&self) -> bool {
        matches!(self, Store::Postgres(_))
    }

    /// Calls `changed(Some(payload))` for every notification on `channel` (`tafl_events`: a
    /// game's id, whenever another transaction changed it; `tafl_jobs`: a job was asked for),
    /// and `changed(None)` whenever the listening connection is (re)made (anything may have
    /// changed meanwhile); for ever. SQLite: returns at once (one server, nothing to hear).
    pub async fn listen(&self, channel: &'static str, changed: impl Fn(Option<String>)) {
        if let Store::Postgres(db) = self {
            db.listen(channel, changed).await;
        }
    }

    /// Whether the database answers a trivial query (readiness: `GET /readyz`).
    pub async fn ping(&self) -> Result<(), StoreError> {
        self.query("SELECT 1", &[]).await.map(|_| ())
    }

    /// `sqlite` or `postgres`.
    pub fn backend(&self) -> &'static str {
        match self {
            Store::Sqlite(_) => "sqlite",
            Store::Postgres(_) => "postgres",
        }
    }

    /// Runs `statements` in one transaction: false (nothing kept) when one that must change a
    /// row changed none.
    async fn write(&self, statements: &[Statement]) -> Result<bool, StoreError> {
        match self {
            Store::Sqlite(db) => db.write(statements),
            Store::Postgres(db) => db.write(statements).await,
        }
    }

    /// The rows `sql` selects.
    async fn query(&self, sql: &'static str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        match self {
            Store::Sqlite(db) => db.query(sql, params),
            Store::Postgres(db) => db.query(sql, params).await,
        }
    }

    /// The one row `sql` selects, if any.
    async fn query_one(
        &self,
        sql: &'static str,
        params: &[Value],
    ) -> Result<Option<Row>, StoreError> {
        Ok(self.query(sql, params).await?.into_iter().next())
    }

    /// One change of game `id` and its event, committed together or not at all.
    async fn change(
        &self,
        id: &str,
        event: &EventRow,
        mut statements: Vec<Statement>,
    ) -> Result<bool, StoreError> {
        statements.push(event_statement(id, event));
        if let Store::Postgres(_) = self {
            // The game's waiting search is of an older position now (`jobs`).
            statements.push(Statement::new(
                "DELETE FROM jobs WHERE game = $1 AND seq < $2",
                vec![id.into(), event.seq.into()],
            ));
            // Every server's listener hears the game's id once this commits (`listen`).
            statements.push(Statement::new(
                "SELECT pg_notify('tafl_events', $1)",
                vec![id.into()],
            ));
        }
        self.write(&statements).await
    }

    /// Stores a new game with the moves it already has (a game read from a record).
    pub async fn create(&self, row: &GameRow) -> Result<(), StoreError> {
        let mut statements = vec![Statement::new(
            "INSERT INTO games (id, rules, start, mode, human, level, resigned, clock_ms,
                                increment_ms, flagged, attackers_seat, defenders_seat,
                                attackers_hash, defenders_hash, move_days, move_ms, created)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
            vec![
                (&row.id).into(),
                (&row.rules).into(),
                (&row.start).into(),
                (&row.mode).into(),
                row.human.as_ref().into(),
                row.level.into(),
                row.resigned.as_ref().into(),
                row.clock_ms.into(),
                row.increment_ms.into(),
                row.flagged.as_ref().into(),
                row.seats.attackers.kind.name().into(),
                row.seats.defenders.kind.name().into(),
                row.seats.attackers.hash.as_ref().into(),
                row.seats.defenders.hash.as_ref().into(),
                row.move_days.into(),
                row.move_ms.into(),
                (now_ms() / 1000).into(),
            ],
        )];
        for (ply, text) in row.moves.iter().enumerate() {
            statements.push(Statement::new(
                "INSERT INTO moves (game, ply, move) VALUES ($1, $2, $3)",
                vec![(&row.id).into(), ply.into(), text.into()],
            ));
        }
        self.write(&statements).await.map(|_| ())
    }

    /// Adds the move played at `ply` (counted from 0), which took `used_ms` of its side's clock,
    /// with its event. A second move at the same ply is refused by the moves' key (game, ply):
    /// a move is never stored twice.
    pub async fn push_move(
        &self,
        id: &str,
        ply: usize,
        text: &str,
        used_ms: u64,
        event: &EventRow,
    ) -> Result<(), StoreError> {
        let insert = move_statement(id, ply, text, used_ms);
        self.change(id, event, vec![insert]).await.map(|_| ())
    }

    /// [`Store::push_move`] of a move after which the engine is to move: with PostgreSQL the
    /// engine's move is asked for (a job of the position after it: `store/jobs.rs`) in the same
    /// transaction, so that a server stopping right after its answer leaves it in the queue.
    pub async fn push_move_engine_next(
        &self,
        id: &str,
        ply: usize,
        text: &str,
        used_ms: u64,
        event: &EventRow,
    ) -> Result<(), StoreError> {
        let mut statements = vec![move_statement(id, ply, text, used_ms)];
        if self.shared() {
            // The player of an engine's move is its game, class 0 (as `searches::ask_job`).
            let next = u64::try_from(ply + 1).unwrap_or(u64::MAX);
            statements.extend(jobs::job_statements(id, event.seq, next, id, 0));
        }
        self.change(id, event, statements).await.map(|_| ())
    }

    /// Records that `side` ran out of time, with its event.
    pub async fn set_flagged(
        &self,
        id: &str,
        side: &str,
        event: &EventRow,
    ) -> Result<(), StoreError> {
        let update = Statement::new(
            "UPDATE games SET flagged = $2 WHERE id = $1",
            vec![id.into(), side.into()],
        );
        self.change(id, event, vec![update]).await.map(|_| ())
    }

    /// Gives `side`'s open seat (`attackers` or `defenders`) to the person whose secret hashes
    /// to `hash`, with its event; false when the seat was not open (someone took it first:
    /// nothing is written).
    pub async fn take_seat(
        &self,
        id: &str,
        side: &str,
        hash: &str,
        event: &EventRow,
    ) -> Result<bool, StoreError> {
        let sql = match side {
            "attackers" => {
                "UPDATE games SET attackers_seat = 'person', attackers_hash = $2
                 WHERE id = $1 AND attackers_seat = 'open'"
            }
            _ => {
                "UPDATE games SET defenders_seat = 'person', defenders_hash = $2
                 WHERE id = $1 AND defenders_seat = 'open'"
            }
        };
        let update = Statement::must_change(sql, vec![id.into(), hash.into()]);
        self.change(id, event, vec![update]).await
    }

    /// Keeps only the first `plies` moves (a takeback), with its event.
    pub async fn truncate(
        &self,
        id: &str,
        plies: usize,
        event: &EventRow,
    ) -> Result<(), StoreError> {
        let statements = vec![
            Statement::new(
                "DELETE FROM moves WHERE game = $1 AND ply >= $2",
                vec![id.into(), plies.into()],
            ),
            // A review is of the whole game: the game changed.
            Statement::new("DELETE FROM reviews WHERE game = $1", vec![id.into()]),
        ];
        self.change(id, event, statements).await.map(|_| ())
    }

    /// Records a resignation, with its event.
    pub async fn set_resigned(
        &self,
        id: &str,
        side: &str,
        event: &EventRow,
    ) -> Result<(), StoreError> {
        let update = Statement::new(
            "UPDATE games SET resigned = $2 WHERE id = $1",
            vec![id.into(), side.into()],
        );
        self.change(id, event, vec![update]).await.map(|_| ())
    }

    /// Sets game `id`'s standing draw offer (the offering side, or none) and whether the
    /// players agreed to a draw, with its event.
    pub async fn set_draw(
        &self,
        id: &str,
        offer: Option<&str>,
        agreed: bool,
        event: &EventRow,
    ) -> Result<(), StoreError> {
        let upsert = Statement::new(
            "INSERT INTO draws (game, offer, agreed) VALUES ($1, $2, $3)
             ON CONFLICT (game) DO UPDATE SET offer = excluded.offer, agreed = excluded.agreed",
            vec![id.into(), offer.into(), i64::from(agreed).into()],
        );
        self.change(id, event, vec![upsert]).await.map(|_| ())
    }

    /// Game `id`'s standing draw offer and whether its players agreed to a draw.
    pub async fn load_draw(&self, id: &str) -> Result<(Option<String>, bool), StoreError> {
        match self
            .query_one(
                "SELECT offer, agreed FROM draws WHERE game = $1",
                &[id.into()],
            )
            .await?
        {
            Some(row) => Ok((row.opt_text(0)?, row.int(1)? != 0)),
            None => Ok((None, false)),
        }
    }

    /// Stores an event of game `id` that changes nothing else (a rematch offered).
    pub async fn note(&self, id: &str, event: &EventRow) -> Result<(), StoreError> {
        self.change(id, event, Vec::new()).await.map(|_| ())
    }

    /// Game `id`'s events numbered above `after`, oldest first.
    pub async fn events_after(&self, id: &str, after: u64) -> Result<Vec<EventRow>, StoreError> {
        self.query(
            "SELECT seq, kind, data FROM events WHERE game = $1 AND seq > $2 ORDER BY seq",
            &[id.into(), after.into()],
        )
        .await?
        .iter()
        .map(|r| {
            Ok(EventRow {
                seq: r.uint(0)?,
                kind: r.text(1)?,
                data: r.text(2)?,
            })
        })
        .collect()
    }

    /// The number of game `id`'s last event (0 before any).
    pub async fn last_event(&self, id: &str) -> Result<u64, StoreError> {
        match self
            .query_one("SELECT MAX(seq) FROM events WHERE game = $1", &[id.into()])
            .await?
        {
            Some(row) => Ok(row.opt_uint(0)?.unwrap_or(0)),
            None => Ok(0),
        }
    }

    /// The game with this id, if there is one.
    pub async fn load(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let Some(r) = self
            .query_one(
                "SELECT id, rules, start, mode, human, level, resigned, clock_ms, increment_ms,
                        flagged, attackers_seat, defenders_seat, attackers_hash,
                        defenders_hash, move_days, move_ms
                 FROM games WHERE id = $1",
                &[id.into()],
            )
            .await?
        else {
            return Ok(None);
        };
        let mut row = GameRow {
            id: r.text(0)?,
            rules: r.text(1)?,
            start: r.text(2)?,
            mode: r.text(3)?,
            human: r.opt_text(4)?,
            level: usize::try_from(r.int(5)?).unwrap_or(0),
            resigned: r.opt_text(6)?,
            moves: Vec::new(),
            used_ms: Vec::new(),
            clock_ms: r.opt_int(7)?.map(|ms| u64::try_from(ms).unwrap_or(0)),
            increment_ms: r.uint(8)?,
            flagged: r.opt_text(9)?,
            seats: Seats {
                attackers: Seat {
                    kind: kind(r.opt_text(10)?),
                    hash: r.opt_text(12)?,
                },
                defenders: Seat {
                    kind: kind(r.opt_text(11)?),
                    hash: r.opt_text(13)?,
                },
            },
            move_days: r.opt_uint(14)?,
            move_ms: r.opt_uint(15)?,
            turn_since_ms: None,
        };
        if row.seats.read_only() {
            // Stored before seats: the person's side a person's, the other the engine's (both
            // a person's on an analysis board), and no secret holds either.
            for side in [tafl_engine::Side::Attackers, tafl_engine::Side::Defenders] {
                let person = row
                    .human
                    .as_deref()
                    .is_none_or(|human| crate::table::side_from(human) == Some(side));
                row.seats.get_mut(side).kind = if person {
                    SeatKind::Person
                } else {
                    SeatKind::Engine
                };
            }
        }
        for r in self
            .query(
                "SELECT move, used_ms FROM moves WHERE game = $1 ORDER BY ply",
                &[id.into()],
            )
            .await?
        {
            row.moves.push(r.text(0)?);
            row.used_ms.push(r.uint(1)?);
        }
        row.turn_since_ms = match self
            .query_one(
                "SELECT MAX(at) FROM events
                 WHERE game = $1 AND kind IN ('move', 'takeback', 'join')",
                &[id.into()],
            )
            .await?
        {
            Some(r) => r.opt_uint(0)?,
            None => None,
        };
        Ok(Some(row))
    }

    /// The correspondence games not ended by a resignation or on time: the server watches
    /// their deadlines from its start, whether a page is open or not.
    pub async fn correspondence_games(&self) -> Result<Vec<String>, StoreError> {
        self.query(
            "SELECT id FROM games
             WHERE move_days IS NOT NULL AND resigned IS NULL AND flagged IS NULL",
            &[],
        )
        .await?
        .iter()
        .map(|r| r.text(0))
        .collect()
    }

    /// How many games are stored.
    pub async fn count_games(&self) -> Result<u64, StoreError> {
        match self.query_one("SELECT COUNT(*) FROM games", &[]).await? {
            Some(r) => r.uint(0),
            None => Ok(0),
        }
    }

    /// Stores the evaluation of one position of a game's review.
    pub async fn push_review(&self, id: &str, row: &ReviewRow) -> Result<(), StoreError> {
        let upsert = Statement::new(
            "INSERT INTO reviews (game, ply, win, score, best) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (game, ply) DO UPDATE
             SET win = excluded.win, score = excluded.score, best = excluded.best",
            vec![
                id.into(),
                row.ply.into(),
                row.win.into(),
                i64::from(row.score).into(),
                row.best.as_ref().into(),
            ],
        );
        self.write(&[upsert]).await.map(|_| ())
    }

    /// The stored evaluations of a game's positions, first to last.
    pub async fn load_review(&self, id: &str) -> Result<Vec<ReviewRow>, StoreError> {
        self.query(
            "SELECT ply, win, score, best FROM reviews WHERE game = $1 ORDER BY ply",
            &[id.into()],
        )
        .await?
        .iter()
        .map(|r| {
            Ok(ReviewRow {
                ply: usize::try_from(r.int(0)?).unwrap_or(0),
                win: r.real(1)?,
                score: i32::try_from(r.int(2)?).unwrap_or(0),
                best: r.opt_text(3)?,
            })
        })
        .collect()
    }
}

/// The engine's evaluation of one position of a finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewRow {
    /// Moves played before the position.
    pub ply: usize,
    /// The attackers' win chance there, in percent.
    pub win: f64,
    /// The score from the attackers' view, in hundredths of a soldier (forced: ±100000).
    pub score: i32,
    /// The best move there, if the game went on.
    pub best: Option<String>,
}

/// A stored seat kind (NULL before seats: read as open until [`Store::load`] fills it in).
fn kind(text: Option<String>) -> SeatKind {
    text.as_deref()
        .and_then(SeatKind::from_name)
        .unwrap_or(SeatKind::Open)
}
