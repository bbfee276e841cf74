//! The shared backend: PostgreSQL through `tokio-postgres`, its connections pooled by
//! `deadpool-postgres` (each checked with a query before it is lent again: a connection that
//! PostgreSQL's restart broke is replaced, not handed to a request). Every write is one
//! transaction, committed before the request that made it is answered.

use std::error::Error;
use std::time::Duration;

use bytes::BytesMut;
use deadpool_postgres::{ManagerConfig, Pool, PoolConfig, RecyclingMethod, Runtime, Timeouts};
use tokio_postgres::types::{IsNull, ToSql, Type, to_sql_checked};
use tokio_postgres::{AsyncMessage, NoTls};

use super::sql::{MIGRATIONS, Row, Statement, StoreError, Value, statements};

/// A PostgreSQL database.
pub struct Postgres {
    pool: Pool,
    url: String,
}

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(n) if *ty == Type::INT4 => i32::try_from(*n)?.to_sql(ty, out),
            Value::Int(n) => n.to_sql(ty, out),
            Value::Real(x) => x.to_sql(ty, out),
            Value::Text(text) => text.to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

fn read_row(row: &tokio_postgres::Row) -> Result<Row, StoreError> {
    let mut values = Vec::with_capacity(row.len());
    for (i, column) in row.columns().iter().enumerate() {
        let ty = column.type_();
        let value = if *ty == Type::INT8 {
            row.try_get::<_, Option<i64>>(i)?.map(Value::Int)
        } else if *ty == Type::INT4 {
            row.try_get::<_, Option<i32>>(i)?
                .map(|n| Value::Int(n.into()))
        } else if *ty == Type::BOOL {
            row.try_get::<_, Option<bool>>(i)?
                .map(|b| Value::Int(b.into()))
        } else if *ty == Type::FLOAT8 {
            row.try_get::<_, Option<f64>>(i)?.map(Value::Real)
        } else {
            row.try_get::<_, Option<String>>(i)?.map(Value::Text)
        };
        values.push(value.unwrap_or(Value::Null));
    }
    Ok(Row(values))
}

fn refs(params: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    params.iter().map(|v| v as &(dyn ToSql + Sync)).collect()
}

/// Connections each server keeps at most.
const CONNECTIONS: usize = 16;

/// How long a request waits for a connection before it is answered 503.
const WAIT: Duration = Duration::from_secs(5);

impl Postgres {
    /// Connects to `url` (`postgres://user@host:port/database`) and brings the schema up to
    /// date (servers starting at once take turns: an advisory lock).
    pub async fn open(url: &str) -> Result<Postgres, StoreError> {
        let mut config = deadpool_postgres::Config::new();
        config.url = Some(url.to_owned());
        config.manager = Some(ManagerConfig {
            recycling_method: RecyclingMethod::Verified,
        });
        let mut pool_config = PoolConfig::new(CONNECTIONS);
        pool_config.timeouts = Timeouts {
            wait: Some(WAIT),
            create: Some(WAIT),
            recycle: Some(WAIT),
        };
        config.pool = Some(pool_config);
        let pool = config
            .create_pool(Some(Runtime::Tokio1), NoTls)
            .map_err(|error| StoreError::Config(format!("{url}: {error}")))?;
        let store = Postgres {
            pool,
            url: url.to_owned(),
        };
        store.migrate().await?;
        Ok(store)
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        let mut client = self.pool.get().await?;
        let transaction = client.transaction().await?;
        // Any number: the same in every server of this program.
        transaction
            .execute("SELECT pg_advisory_xact_lock(5153)", &[])
            .await?;
        transaction
            .batch_execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (
                     version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_ms BIGINT NOT NULL)",
            )
            .await?;
        for (version, name, sql) in MIGRATIONS {
            let done = transaction
                .query_opt(
                    "SELECT version FROM schema_migrations WHERE version = $1",
                    &[version],
                )
                .await?
                .is_some();
            if done {
                continue;
            }
            for statement in statements(sql) {
                transaction.batch_execute(&statement).await?;
            }
            let now = i64::try_from(super::now_ms()).unwrap_or(i64::MAX);
            transaction
                .execute(
                    "INSERT INTO schema_migrations (version, name, applied_ms) VALUES ($1, $2, $3)",
                    &[version, name, &now],
                )
                .await?;
        }
        transaction.commit().await?;
        Ok(())
    }

    /// Listens on a connection of its own to `channel` (`tafl_events`, which every change
    /// notifies with the game's id; `tafl_jobs`): `changed(Some(payload))` for each
    /// notification, `changed(None)` after each (re)connection. A lost connection is made again, waiting 0.1 s, then twice as long each
    /// time up to 5 s.
    pub async fn listen(&self, channel: &'static str, changed: impl Fn(Option<String>)) {
        let mut backoff = Duration::from_millis(100);
        loop {
            if let Ok((client, mut connection)) = tokio_postgres::connect(&self.url, NoTls).await {
                let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel();
                let driver = tokio::spawn(async move {
                    while let Some(Ok(message)) =
                        std::future::poll_fn(|cx| connection.poll_message(cx)).await
                    {
                        if let AsyncMessage::Notification(note) = message
                            && sender.send(note.payload().to_owned()).is_err()
                        {
                            break;
                        }
                    }
                });
                if client
                    .batch_execute(&format!("LISTEN {channel}"))
                    .await
                    .is_ok()
                {
                    backoff = Duration::from_millis(100);
                    tracing::info!("listening to other servers' changes (tafl_events)");
                    changed(None);
                    while let Some(id) = receiver.recv().await {
                        changed(Some(id));
                    }
                }
                driver.abort();
            }
            tracing::warn!("lost the PostgreSQL listener: reconnecting in {backoff:?}");
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_secs(5));
        }
    }

    /// Runs `statements` in one transaction; false (nothing kept) when one that must change a
    /// row changed none.
    pub async fn write(&self, statements: &[Statement]) -> Result<bool, StoreError> {
        let mut client = self.pool.get().await?;
        let transaction = client.transaction().await?;
        for statement in statements {
            let prepared = transaction.prepare_cached(statement.sql).await?;
            let changed = transaction
                .execute(&prepared, &refs(&statement.params))
                .await?;
            if statement.must_change && changed == 0 {
                transaction.rollback().await?;
                return Ok(false);
            }
        }
        transaction.commit().await?;
        Ok(true)
    }

    /// The rows `sql` selects.
    pub async fn query(&self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        let client = self.pool.get().await?;
        let prepared = client.prepare_cached(sql).await?;
        client
            .query(&prepared, &refs(params))
            .await?
            .iter()
            .map(read_row)
            .collect()
    }
}
