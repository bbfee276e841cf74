//! The games in SQLite: one row a game, one row a move. Every write is its own transaction,
//! committed (WAL, `synchronous=FULL`) before the request that made it is answered, so a move
//! that was acknowledged survives a `kill -9` or a power cut.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};

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
             ) WITHOUT ROWID;",
        )?;
        Ok(Store { connection })
    }

    /// Stores a new game with the moves it already has (a game read from a record).
    pub fn create(&mut self, row: &GameRow) -> rusqlite::Result<()> {
        let transaction = self.connection.transaction()?;
        transaction.execute(
            "INSERT INTO games (id, rules, start, mode, human, level, resigned)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                row.id,
                row.rules,
                row.start,
                row.mode,
                row.human,
                row.level as i64,
                row.resigned
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

    /// Adds the move played at `ply` (counted from 0).
    pub fn push_move(&mut self, id: &str, ply: usize, text: &str) -> rusqlite::Result<()> {
        self.connection.execute(
            "INSERT INTO moves (game, ply, move) VALUES (?1, ?2, ?3)",
            params![id, ply as i64, text],
        )?;
        Ok(())
    }

    /// Keeps only the first `plies` moves (a takeback).
    pub fn truncate(&mut self, id: &str, plies: usize) -> rusqlite::Result<()> {
        self.connection.execute(
            "DELETE FROM moves WHERE game = ?1 AND ply >= ?2",
            params![id, plies as i64],
        )?;
        Ok(())
    }

    /// Records a resignation.
    pub fn set_resigned(&mut self, id: &str, side: &str) -> rusqlite::Result<()> {
        self.connection.execute(
            "UPDATE games SET resigned = ?2 WHERE id = ?1",
            params![id, side],
        )?;
        Ok(())
    }

    /// The game with this id, if there is one.
    pub fn load(&self, id: &str) -> rusqlite::Result<Option<GameRow>> {
        let row = self
            .connection
            .query_row(
                "SELECT id, rules, start, mode, human, level, resigned FROM games WHERE id = ?1",
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
                    })
                },
            )
            .optional()?;
        let Some(mut row) = row else {
            return Ok(None);
        };
        let mut statement = self
            .connection
            .prepare("SELECT move FROM moves WHERE game = ?1 ORDER BY ply")?;
        row.moves = statement
            .query_map(params![id], |r| r.get::<_, String>(0))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(Some(row))
    }

    /// How many games are stored.
    pub fn count_games(&self) -> rusqlite::Result<u64> {
        self.connection
            .query_row("SELECT COUNT(*) FROM games", [], |r| r.get::<_, i64>(0))
            .map(|n| u64::try_from(n).unwrap_or(0))
    }
}
