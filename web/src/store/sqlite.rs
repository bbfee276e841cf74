//! The embedded backend: one SQLite file, one connection. Every write is its own transaction,
//! committed (WAL, `synchronous=FULL`) before the request that made it is answered, so a move
//! that was acknowledged survives a `kill -9` or a power cut. Its calls are short and run where
//! they are made, as they always did.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, params_from_iter};

use super::sql::{MIGRATIONS, Row, Statement, StoreError, Value, statements};

/// A SQLite database.
pub struct Sqlite {
    connection: Mutex<Connection>,
}

/// `$1` in the shared SQL is `?1` in SQLite's.
fn dialect(sql: &str) -> String {
    sql.replace('$', "?")
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::ToSqlOutput::Borrowed;
        Ok(match self {
            Value::Null => Borrowed(ValueRef::Null),
            Value::Int(n) => Borrowed(ValueRef::Integer(*n)),
            Value::Real(x) => Borrowed(ValueRef::Real(*x)),
            Value::Text(text) => Borrowed(ValueRef::Text(text.as_bytes())),
        })
    }
}

fn read_row(row: &rusqlite::Row, columns: usize) -> rusqlite::Result<Row> {
    let mut values = Vec::with_capacity(columns);
    for i in 0..columns {
        values.push(match row.get_ref(i)? {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(n) => Value::Int(n),
            ValueRef::Real(x) => Value::Real(x),
            ValueRef::Text(bytes) | ValueRef::Blob(bytes) => {
                Value::Text(String::from_utf8_lossy(bytes).into_owned())
            }
        });
    }
    Ok(Row(values))
}

/// Columns added to files made before the schema had versions (ignored when there already).
const BEFORE_VERSIONS: &[&str] = &[
    "ALTER TABLE games ADD COLUMN clock_ms INTEGER",
    "ALTER TABLE games ADD COLUMN increment_ms INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN flagged TEXT",
    "ALTER TABLE moves ADD COLUMN used_ms INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN attackers_seat TEXT",
    "ALTER TABLE games ADD COLUMN defenders_seat TEXT",
    "ALTER TABLE games ADD COLUMN attackers_hash TEXT",
    "ALTER TABLE games ADD COLUMN defenders_hash TEXT",
    "ALTER TABLE games ADD COLUMN move_days INTEGER",
    "ALTER TABLE games ADD COLUMN move_ms INTEGER",
    "ALTER TABLE events ADD COLUMN at INTEGER",
];

impl Sqlite {
    /// Opens (creating when needed) the file at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Sqlite, StoreError> {
        let mut connection = Connection::open(path)?;
        connection.pragma_update(None, "journal_mode", "WAL")?;
        connection.pragma_update(None, "synchronous", "FULL")?;
        connection.busy_timeout(std::time::Duration::from_secs(5))?;
        let versioned: bool = connection.query_row(
            "SELECT COUNT(*) > 0 FROM sqlite_master WHERE name = 'schema_migrations'",
            [],
            |r| r.get(0),
        )?;
        let legacy: bool = connection.query_row(
            "SELECT COUNT(*) > 0 FROM sqlite_master WHERE name = 'games'",
            [],
            |r| r.get(0),
        )?;
        if legacy && !versioned {
            // A file from before versions: its missing columns added, it is version 1.
            for statement in BEFORE_VERSIONS {
                let _ = connection.execute(statement, []);
            }
        }
        let transaction =
            connection.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        transaction.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (
                 version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_ms BIGINT NOT NULL)",
            [],
        )?;
        for (version, name, sql) in MIGRATIONS {
            let done: bool = transaction.query_row(
                "SELECT COUNT(*) > 0 FROM schema_migrations WHERE version = ?1",
                [version],
                |r| r.get(0),
            )?;
            if done {
                continue;
            }
            for statement in statements(sql) {
                transaction.execute_batch(&statement)?;
            }
            transaction.execute(
                "INSERT INTO schema_migrations (version, name, applied_ms) VALUES (?1, ?2, ?3)",
                rusqlite::params![version, name, super::now_ms() as i64],
            )?;
        }
        transaction.commit()?;
        Ok(Sqlite {
            connection: Mutex::new(connection),
        })
    }

    /// Runs `statements` in one transaction; false (nothing kept) when one that must change a
    /// row changed none.
    pub fn write(&self, statements: &[Statement]) -> Result<bool, StoreError> {
        let mut connection = self.connection.lock().map_err(|_| StoreError::Poisoned)?;
        let transaction = connection.transaction()?;
        for statement in statements {
            let changed = transaction
                .prepare_cached(&dialect(statement.sql))?
                .execute(params_from_iter(statement.params.iter()))?;
            if statement.must_change && changed == 0 {
                return Ok(false); // dropping the transaction rolls it back
            }
        }
        transaction.commit()?;
        Ok(true)
    }

    /// The rows `sql` selects.
    pub fn query(&self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        let connection = self.connection.lock().map_err(|_| StoreError::Poisoned)?;
        let mut statement = connection.prepare_cached(&dialect(sql))?;
        let columns = statement.column_count();
        let rows = statement
            .query_map(params_from_iter(params.iter()), |row| {
                read_row(row, columns)
            })?
            .collect::<rusqlite::Result<Vec<Row>>>()?;
        Ok(rows)
    }
}
