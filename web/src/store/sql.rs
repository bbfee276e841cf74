//! What the two backends share: a value bound to or read from SQL, a row, a statement of a
//! transaction, and the error of either database.

use thiserror::Error;

/// A value bound to a statement or read from a row: the few types the schema uses.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// SQL NULL.
    Null,
    /// A BIGINT.
    Int(i64),
    /// A DOUBLE PRECISION.
    Real(f64),
    /// A TEXT.
    Text(String),
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Int(n)
    }
}

impl From<u64> for Value {
    fn from(n: u64) -> Value {
        Value::Int(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<usize> for Value {
    fn from(n: usize) -> Value {
        Value::Int(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Value {
        Value::Real(x)
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Value {
        Value::Text(text.to_owned())
    }
}

impl From<&String> for Value {
    fn from(text: &String) -> Value {
        Value::Text(text.clone())
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(value: Option<T>) -> Value {
        value.map_or(Value::Null, Into::into)
    }
}

/// A row read back: its values in the order the query names them.
#[derive(Clone, Debug, PartialEq)]
pub struct Row(pub Vec<Value>);

impl Row {
    fn at(&self, i: usize) -> Result<&Value, StoreError> {
        self.0
            .get(i)
            .ok_or_else(|| StoreError::Data(format!("no column {i}")))
    }

    /// Column `i` as an integer, NULL as None.
    pub fn opt_int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        match self.at(i)? {
            Value::Null => Ok(None),
            Value::Int(n) => Ok(Some(*n)),
            other => Err(StoreError::Data(format!(
                "column {i}: {other:?}, not an integer"
            ))),
        }
    }

    /// Column `i` as an integer.
    pub fn int(&self, i: usize) -> Result<i64, StoreError> {
        self.opt_int(i)?
            .ok_or_else(|| StoreError::Data(format!("column {i} is NULL")))
    }

    /// Column `i` as a count or size (a negative one as 0).
    pub fn uint(&self, i: usize) -> Result<u64, StoreError> {
        Ok(u64::try_from(self.int(i)?).unwrap_or(0))
    }

    /// Column `i` as a count or size, NULL (or a negative one) as None.
    pub fn opt_uint(&self, i: usize) -> Result<Option<u64>, StoreError> {
        Ok(self.opt_int(i)?.and_then(|n| u64::try_from(n).ok()))
    }

    /// Column `i` as a number.
    pub fn real(&self, i: usize) -> Result<f64, StoreError> {
        match self.at(i)? {
            Value::Real(x) => Ok(*x),
            Value::Int(n) => Ok(*n as f64),
            other => Err(StoreError::Data(format!(
                "column {i}: {other:?}, not a number"
            ))),
        }
    }

    /// Column `i` as text, NULL as None.
    pub fn opt_text(&self, i: usize) -> Result<Option<String>, StoreError> {
        match self.at(i)? {
            Value::Null => Ok(None),
            Value::Text(text) => Ok(Some(text.clone())),
            other => Err(StoreError::Data(format!("column {i}: {other:?}, not text"))),
        }
    }

    /// Column `i` as text.
    pub fn text(&self, i: usize) -> Result<String, StoreError> {
        self.opt_text(i)?
            .ok_or_else(|| StoreError::Data(format!("column {i} is NULL")))
    }
}

/// One statement of a write: its SQL (parameters `$1`, `$2`, ... in both dialects) and values.
#[derive(Clone, Debug)]
pub struct Statement {
    /// The SQL.
    pub sql: &'static str,
    /// The values of `$1`, `$2`, ...
    pub params: Vec<Value>,
    /// Whether it must change a row: when it changes none, the whole write is rolled back and
    /// answers false (a seat someone else took first).
    pub must_change: bool,
}

impl Statement {
    /// A statement whose changing nothing is fine.
    pub fn new(sql: &'static str, params: Vec<Value>) -> Statement {
        Statement {
            sql,
            params,
            must_change: false,
        }
    }

    /// A statement that must change a row, else nothing of the write is kept.
    pub fn must_change(sql: &'static str, params: Vec<Value>) -> Statement {
        Statement {
            sql,
            params,
            must_change: true,
        }
    }
}

/// What went wrong with the database.
#[derive(Debug, Error)]
pub enum StoreError {
    /// SQLite refused or failed.
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL refused or failed, or the connection broke.
    #[error("PostgreSQL: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    /// No connection to PostgreSQL could be had in time.
    #[error("PostgreSQL is out of reach: {0}")]
    Pool(#[from] deadpool_postgres::PoolError),
    /// The `--db` option names no database this server can open.
    #[error("{0}")]
    Config(String),
    /// A stored value is not what the schema says.
    #[error("a stored value: {0}")]
    Data(String),
    /// The database lock was poisoned (a thread panicked holding it).
    #[error("the database lock was poisoned")]
    Poisoned,
}

impl StoreError {
    /// Whether a key refused the write: the row is there already (another server wrote the
    /// game's next event or move first).
    pub fn conflict(&self) -> bool {
        match self {
            StoreError::Postgres(error) => {
                error.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION)
            }
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(error, _)) => {
                error.code == rusqlite::ErrorCode::ConstraintViolation
            }
            _ => false,
        }
    }

    /// Whether the database is out of reach (down, restarting, the network gone), rather than
    /// refusing: the request may succeed later (503).
    pub fn unavailable(&self) -> bool {
        match self {
            StoreError::Pool(_) => true,
            StoreError::Postgres(error) => error.is_closed() || error.code().is_none(),
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(error, _)) => matches!(
                error.code,
                rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
            ),
            _ => false,
        }
    }
}

/// The statements of a migration's file, without comments.
pub fn statements(sql: &str) -> Vec<String> {
    let mut statements = Vec::new();
    let mut current = String::new();
    for line in sql.lines() {
        let line = line.split("--").next().unwrap_or_default();
        if line.trim().is_empty() {
            continue;
        }
        current.push_str(line);
        current.push('\n');
        if line.trim_end().ends_with(';') {
            statements.push(std::mem::take(&mut current));
        }
    }
    if !current.trim().is_empty() {
        statements.push(current);
    }
    statements
}

/// The schema's history, oldest first: (version, name, SQL). Both backends apply the same
/// files, each once, in order (`schema_migrations` remembers which).
pub const MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "games", include_str!("../../migrations/0001_games.sql")),
    (2, "jobs", include_str!("../../migrations/0002_jobs.sql")),
];
