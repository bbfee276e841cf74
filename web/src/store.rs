//! The games in SQLite: one row a game, one row a move. Every write is its own transaction,
//! committed (WAL, `synchronous=FULL`) before the request that made it is answered, so a move
//! that was acknowledged survives a `kill -9` or a power cut.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};

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

fn insert_event(
    transaction: &rusqlite::Transaction,
    id: &str,
    event: &EventRow,
) -> rusqlite::Result<()> {
    transaction.execute(
        "INSERT INTO events (game, seq, kind, data, at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            id,
            event.seq as i64,
            event.kind,
            event.data,
            now_ms() as i64
        ],
    )?;
    Ok(())
}

/// A connection to the games database.
pub struct Store {
    connection: Connection,
}

impl Store {
    /// Opens (creating when needed) the database at `path`.
    pub fn open(path: &Path) -> rusqlite::Result<Store> {
        let connection = Connection::open(path)?;
        connection.pragma_update(None, "journal_mode", "WAL")?;
        connection.pragma_update(None, "synchronous", "FULL")?;
        connection.busy_timeout(std::time::Duration::from_secs(5))?;
        connection.execute_batch(
            "CREATE TABLE IF NOT EXISTS games (
                 id TEXT PRIMARY KEY,
                 rules TEXT NOT NULL,
                 start TEXT NOT NULL,
                 mode TEXT NOT NULL,
                 human TEXT,
                 level INTEGER NOT NULL,
                 resigned TEXT,
                 created INTEGER NOT NULL DEFAULT (strftime('%s','now'))
             );
             CREATE TABLE IF NOT EXISTS moves (
                 game TEXT NOT NULL REFERENCES games(id),
                 ply INTEGER NOT NULL,
                 move TEXT NOT NULL,
                 PRIMARY KEY (game, ply)
             ) WITHOUT ROWID;
             CREATE TABLE IF NOT EXISTS events (
                 game TEXT NOT NULL REFERENCES games(id),
                 seq INTEGER NOT NULL,
                 kind TEXT NOT NULL,
                 data TEXT NOT NULL,
                 PRIMARY KEY (game, seq)
             ) WITHOUT ROWID;",
        )?;
        // Columns added after the first version: added to an older file, an error when
        // they are there already (ignored).
        for statement in [
            "ALTER TABLE games ADD COLUMN clock_ms INTEGER",
            "ALTER TABLE games ADD COLUMN increment_ms INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE games ADD COLUMN flagged TEXT",
            "ALTER TABLE moves ADD COLUMN used_ms INTEGER NOT NULL DEFAULT 0",
            // Seats (issue 51): `engine`, `person` or `open`, and the hex SHA-256 of the
            // secret of the person in it. NULL in games stored before: read-only.
            "ALTER TABLE games ADD COLUMN attackers_seat TEXT",
            "ALTER TABLE games ADD COLUMN defenders_seat TEXT",
            "ALTER TABLE games ADD COLUMN attackers_hash TEXT",
            "ALTER TABLE games ADD COLUMN defenders_hash TEXT",
            // Correspondence games (days per move), and each event's time (ms since 1970):
            // a turn's deadline survives a restart.
            "ALTER TABLE games ADD COLUMN move_days INTEGER",
            "ALTER TABLE games ADD COLUMN move_ms INTEGER",
            "ALTER TABLE events ADD COLUMN at INTEGER",
        ] {
            let _ = connection.execute(statement, []);
        }
        // Draw offers and agreements (http/draw.rs): the side whose offer stands, and whether
        // the players agreed (R18).
        connection.execute_batch(
            "CREATE TABLE IF NOT EXISTS draws (
                 game TEXT PRIMARY KEY REFERENCES games(id),
                 offer TEXT,
                 agreed INTEGER NOT NULL DEFAULT 0
             );",
        )?;
        // The engine's evaluation of each position of a finished game (review.rs).
        connection.execute_batch(
            "CREATE TABLE IF NOT EXISTS reviews (
                 game TEXT NOT NULL REFERENCES games(id),
                 ply INTEGER NOT NULL,
                 win REAL NOT NULL,
                 score INTEGER NOT NULL,
                 best TEXT,
                 PRIMARY KEY (game, ply)
             ) WITHOUT ROWID;",
        )?;
        Ok(Store { connection })
    }

    /// Stores a new game with the moves it already has (a game read from a record).
    pub fn create(&mut self, row: &GameRow) -> rusqlite::Result<()> {
        let transaction = self.connection.transaction()?;
        transaction.execute(
            "INSERT INTO games (id, rules, start, mode, human, level, resigned, clock_ms,
                                increment_ms, flagged, attackers_seat, defenders_seat,
                                attackers_hash, defenders_hash, move_days, move_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
            params![
                row.id,
                row.rules,
                row.start,
                row.mode,
                row.human,
                row.level as i64,
                row.resigned,
                row.clock_ms.map(|ms| ms as i64),
                row.increment_ms as i64,
                row.flagged,
                row.seats.attackers.kind.name(),
                row.seats.defenders.kind.name(),
                row.seats.attackers.hash,
                row.seats.defenders.hash,
                row.move_days.map(|days| days as i64),
                row.move_ms.map(|ms| ms as i64)
            ],
        )?;
        for (ply, text) in row.moves.iter().enumerate() {
            transaction.execute(
                "INSERT INTO moves (game, ply, move) VALUES (?1, ?2, ?3)",
                params![row.id, ply as i64, text],
            )?;
        }
        transaction.commit()
    }

    /// Adds the move played at `ply` (counted from 0), which took `used_ms` of its side's clock,
    /// with its event.
    pub fn push_move(
        &mut self,
        id: &str,
        ply: usize,
        text: &str,
        used_ms: u64,
        event: &EventRow,
    ) -> rusqlite::Result<()> {
        self.change(id, event, |t| {
            t.execute(
                "INSERT INTO moves (game, ply, move, used_ms) VALUES (?1, ?2, ?3, ?4)",
                params![id, ply as i64, text, used_ms as i64],
            )
        })
        .map(|_| ())
    }

    /// Records that `side` ran out of time, with its event.
    pub fn set_flagged(&mut self, id: &str, side: &str, event: &EventRow) -> rusqlite::Result<()> {
        self.change(id, event, |t| {
            t.execute(
                "UPDATE games SET flagged = ?2 WHERE id = ?1",
                params![id, side],
            )
        })
        .map(|_| ())
    }

    /// Gives `side`'s open seat (`attackers` or `defenders`) to the person whose secret hashes
    /// to `hash`, with its event; false when the seat was not open (someone took it first:
    /// nothing is written).
    pub fn take_seat(
        &mut self,
        id: &str,
        side: &str,
        hash: &str,
        event: &EventRow,
    ) -> rusqlite::Result<bool> {
        let statement = match side {
            "attackers" => {
                "UPDATE games SET attackers_seat = 'person', attackers_hash = ?2
                 WHERE id = ?1 AND attackers_seat = 'open'"
            }
            _ => {
                "UPDATE games SET defenders_seat = 'person', defenders_hash = ?2
                 WHERE id = ?1 AND defenders_seat = 'open'"
            }
        };
        let transaction = self.connection.transaction()?;
        if transaction.execute(statement, params![id, hash])? != 1 {
            return Ok(false);
        }
        insert_event(&transaction, id, event)?;
        transaction.commit()?;
        Ok(true)
    }

    /// Keeps only the first `plies` moves (a takeback), with its event.
    pub fn truncate(&mut self, id: &str, plies: usize, event: &EventRow) -> rusqlite::Result<()> {
        self.change(id, event, |t| {
            t.execute(
                "DELETE FROM moves WHERE game = ?1 AND ply >= ?2",
                params![id, plies as i64],
            )?;
            // A review is of the whole game: the game changed.
            t.execute("DELETE FROM reviews WHERE game = ?1", params![id])
        })
        .map(|_| ())
    }

    /// Records a resignation, with its event.
    pub fn set_resigned(&mut self, id: &str, side: &str, event: &EventRow) -> rusqlite::Result<()> {
        self.change(id, event, |t| {
            t.execute(
                "UPDATE games SET resigned = ?2 WHERE id = ?1",
                params![id, side],
            )
        })
        .map(|_| ())
    }

    /// Sets game `id`'s standing draw offer (the offering side, or none) and whether the
    /// players agreed to a draw, with its event.
    pub fn set_draw(
        &mut self,
        id: &str,
        offer: Option<&str>,
        agreed: bool,
        event: &EventRow,
    ) -> rusqlite::Result<()> {
        self.change(id, event, |t| {
            t.execute(
                "INSERT INTO draws (game, offer, agreed) VALUES (?1, ?2, ?3)
                 ON CONFLICT(game) DO UPDATE SET offer = excluded.offer, agreed = excluded.agreed",
                params![id, offer, i64::from(agreed)],
            )
        })
        .map(|_| ())
    }

    /// Game `id`'s standing draw offer and whether its players agreed to a draw.
    pub fn load_draw(&self, id: &str) -> rusqlite::Result<(Option<String>, bool)> {
        Ok(self
            .connection
            .query_row(
                "SELECT offer, agreed FROM draws WHERE game = ?1",
                params![id],
                |r| Ok((r.get(0)?, r.get::<_, i64>(1)? != 0)),
            )
            .optional()?
            .unwrap_or((None, false)))
    }

    /// Stores an event of game `id` that changes nothing else (a rematch offered).
    pub fn note(&mut self, id: &str, event: &EventRow) -> rusqlite::Result<()> {
        self.change(id, event, |_| Ok(()))
    }

    /// One change of game `id` and its event, committed together or not at all.
    fn change<T>(
        &mut self,
        id: &str,
        event: &EventRow,
        write: impl FnOnce(&rusqlite::Transaction) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<T> {
        let transaction = self.connection.transaction()?;
        let result = write(&transaction)?;
        insert_event(&transaction, id, event)?;
        transaction.commit()?;
        Ok(result)
    }

    /// Game `id`'s events numbered above `after`, oldest first.
    pub fn events_after(&self, id: &str, after: u64) -> rusqlite::Result<Vec<EventRow>> {
        let mut statement = self.connection.prepare(
            "SELECT seq, kind, data FROM events WHERE game = ?1 AND seq > ?2 ORDER BY seq",
        )?;
        statement
            .query_map(params![id, after as i64], |r| {
                Ok(EventRow {
                    seq: u64::try_from(r.get::<_, i64>(0)?).unwrap_or(0),
                    kind: r.get(1)?,
                    data: r.get(2)?,
                })
            })?
            .collect()
    }

    /// The number of game `id`'s last event (0 before any).
    pub fn last_event(&self, id: &str) -> rusqlite::Result<u64> {
        self.connection
            .query_row(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game = ?1",
                params![id],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| u64::try_from(n).unwrap_or(0))
    }

    /// The game with this id, if there is one.
    pub fn load(&self, id: &str) -> rusqlite::Result<Option<GameRow>> {
        let row = self
            .connection
            .query_row(
                "SELECT id, rules, start, mode, human, level, resigned, clock_ms, increment_ms,
                        flagged, attackers_seat, defenders_seat, attackers_hash,
                        defenders_hash, move_days, move_ms
                 FROM games WHERE id = ?1",
                params![id],
                |r| {
                    Ok(GameRow {
                        id: r.get(0)?,
                        rules: r.get(1)?,
                        start: r.get(2)?,
                        mode: r.get(3)?,
                        human: r.get(4)?,
                        level: usize::try_from(r.get::<_, i64>(5)?).unwrap_or(0),
                        resigned: r.get(6)?,
                        moves: Vec::new(),
                        used_ms: Vec::new(),
                        clock_ms: r
                            .get::<_, Option<i64>>(7)?
                            .map(|ms| u64::try_from(ms).unwrap_or(0)),
                        increment_ms: u64::try_from(r.get::<_, i64>(8)?).unwrap_or(0),
                        flagged: r.get(9)?,
                        seats: Seats {
                            attackers: Seat {
                                kind: kind(r.get(10)?),
                                hash: r.get(12)?,
                            },
                            defenders: Seat {
                                kind: kind(r.get(11)?),
                                hash: r.get(13)?,
                            },
                        },
                        move_days: r
                            .get::<_, Option<i64>>(14)?
                            .and_then(|days| u64::try_from(days).ok()),
                        move_ms: r
                            .get::<_, Option<i64>>(15)?
                            .and_then(|ms| u64::try_from(ms).ok()),
                        turn_since_ms: None,
                    })
                },
            )
            .optional()?;
        let Some(mut row) = row else {
            return Ok(None);
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
        let mut statement = self
            .connection
            .prepare("SELECT move, used_ms FROM moves WHERE game = ?1 ORDER BY ply")?;
        let moves: Vec<(String, i64)> = statement
            .query_map(params![id], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        for (text, used) in moves {
            row.moves.push(text);
            row.used_ms.push(u64::try_from(used).unwrap_or(0));
        }
        row.turn_since_ms = self
            .connection
            .query_row(
                "SELECT MAX(at) FROM events
                 WHERE game = ?1 AND kind IN ('move', 'takeback', 'join')",
                params![id],
                |r| r.get::<_, Option<i64>>(0),
            )?
            .and_then(|at| u64::try_from(at).ok());
        Ok(Some(row))
    }

    /// The correspondence games not ended by a resignation or on time: the server watches
    /// their deadlines from its start, whether a page is open or not.
    pub fn correspondence_games(&self) -> rusqlite::Result<Vec<String>> {
        let mut statement = self.connection.prepare(
            "SELECT id FROM games
             WHERE move_days IS NOT NULL AND resigned IS NULL AND flagged IS NULL",
        )?;
        statement
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()
    }

    /// How many games are stored.
    pub fn count_games(&self) -> rusqlite::Result<u64> {
        self.connection
            .query_row("SELECT COUNT(*) FROM games", [], |r| r.get::<_, i64>(0))
            .map(|n| u64::try_from(n).unwrap_or(0))
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

impl Store {
    /// Stores the evaluation of one position of a game's review.
    pub fn push_review(&mut self, id: &str, row: &ReviewRow) -> rusqlite::Result<()> {
        self.connection.execute(
            "INSERT OR REPLACE INTO reviews (game, ply, win, score, best)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, row.ply as i64, row.win, row.score, row.best],
        )?;
        Ok(())
    }

    /// The stored evaluations of a game's positions, first to last.
    pub fn load_review(&self, id: &str) -> rusqlite::Result<Vec<ReviewRow>> {
        let mut statement = self
            .connection
            .prepare("SELECT ply, win, score, best FROM reviews WHERE game = ?1 ORDER BY ply")?;
        statement
            .query_map(params![id], |r| {
                Ok(ReviewRow {
                    ply: usize::try_from(r.get::<_, i64>(0)?).unwrap_or(0),
                    win: r.get(1)?,
                    score: r.get(2)?,
                    best: r.get(3)?,
                })
            })?
            .collect()
    }
}

/// A stored seat kind (NULL before seats: read as open until [`Store::load`] fills it in).
fn kind(text: Option<String>) -> SeatKind {
    text.as_deref()
        .and_then(SeatKind::from_name)
        .unwrap_or(SeatKind::Open)
}
