//! The job table (PostgreSQL only): the engine's moves waiting for a worker, claimed with
//! `FOR UPDATE SKIP LOCKED` for a lease (`web/migrations/0002_jobs.sql`, `crate::jobs`). The
//! order of the claims is the queue's (`crate::queue`): class first, then players take turns
//! by rounds (a player's n-th job in a class is in round n), then the oldest; it is in the SQL,
//! so that it holds across every worker and server.

use super::sql::{Row, Statement, StoreError, Value};
use super::{Store, now_ms};

/// A job a worker holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimedJob {
    /// The game.
    pub game: String,
    /// The game's last event when the job was asked: the position to search.
    pub seq: u64,
    /// The ply of the move to find.
    pub ply: u64,
    /// Claims so far, this one included.
    pub tries: u64,
}

/// Where a job stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobPlace {
    /// The game.
    pub game: String,
    /// Its position (the game's last event when it was asked).
    pub seq: u64,
    /// Its place in the queue from 1, or None while a worker holds it.
    pub place: Option<usize>,
    /// The worker holding it, if one does.
    pub worker: Option<String>,
}

/// The jobs in the order of their claims, each with its round (`$1`: now, in ms).
const ORDERED: &str = "SELECT j.game, j.seq, j.ply, j.tries, j.worker,
            (j.leased_until IS NULL OR j.leased_until < $1) AS waiting
     FROM jobs j
     JOIN (SELECT game, seq, ROW_NUMBER() OVER (
               PARTITION BY player, class ORDER BY created_ms, game, seq) AS round
           FROM jobs) o USING (game, seq)
     ORDER BY j.class, o.round, j.created_ms, j.game";

fn claimed(row: &Row) -> Result<ClaimedJob, StoreError> {
    Ok(ClaimedJob {
        game: row.text(0)?,
        seq: row.uint(1)?,
        ply: row.uint(2)?,
        tries: row.uint(3)?,
    })
}

/// The statements that ask for a job (nothing when it is asked already) and wake the claimers
/// once they commit: [`Store::add_job`]'s, or a part of a change's transaction.
pub(super) fn job_statements(
    id: &str,
    seq: u64,
    ply: u64,
    player: &str,
    class: u64,
) -> [Statement; 2] {
    [
        Statement::new(
            "INSERT INTO jobs (game, seq, ply, class, player, created_ms)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (game, seq) DO NOTHING",
            vec![
                id.into(),
                seq.into(),
                ply.into(),
                class.into(),
                player.into(),
                now_ms().into(),
            ],
        ),
        Statement::new("SELECT pg_notify('tafl_jobs', $1)", vec![id.into()]),
    ]
}

impl Store {
    fn postgres_only(&self) -> Result<(), StoreError> {
        if self.shared() {
            Ok(())
        } else {
            Err(StoreError::Config(
                "search jobs need a PostgreSQL database (--db postgres://...)".into(),
            ))
        }
    }

    /// Asks for the engine's move at `ply` of game `id` whose last event is `seq` (`player`:
    /// whose turn it is in its class, `class`: the queue's class); nothing when it is asked
    /// already. Every worker waiting is woken (NOTIFY `tafl_jobs`).
    pub async fn add_job(
        &self,
        id: &str,
        seq: u64,
        ply: u64,
        player: &str,
        class: u64,
    ) -> Result<(), StoreError> {
        self.postgres_only()?;
        self.write(&job_statements(id, seq, ply, player, class))
            .await
            .map(|_| ())
    }

    /// Claims the first waiting job in the queue's order (one never claimed, or whose lease
    /// ran out) that has had fewer than `max_tries` claims, for `worker` and `lease_ms`; None
    /// when there is none, or when `unless_workers_within` is given and a worker was seen
    /// within that many milliseconds (a server leaves the jobs to the workers: checked in the
    /// same statement, so a worker that came before the job is always seen). Jobs other
    /// claimers are claiming at the same moment are skipped, not waited for (`SKIP LOCKED`).
    pub async fn claim_job(
        &self,
        worker: &str,
        lease_ms: u64,
        max_tries: u64,
        unless_workers_within: Option<u64>,
    ) -> Result<Option<ClaimedJob>, StoreError> {
        self.postgres_only()?;
        let now = now_ms();
        let rows = self
            .query(
                "UPDATE jobs SET leased_until = $2, worker = $3, tries = tries + 1, stop_now = 0
                 WHERE (game, seq) = (
                     SELECT j.game, j.seq FROM jobs j
                     JOIN (SELECT game, seq, ROW_NUMBER() OVER (
                               PARTITION BY player, class ORDER BY created_ms, game, seq) AS round
                           FROM jobs) o USING (game, seq)
                     WHERE (j.leased_until IS NULL OR j.leased_until < $1) AND j.tries < $4
                       AND (CAST($5 AS BIGINT) < 0 OR NOT EXISTS (SELECT 1 FROM workers WHERE seen_ms >= $5))
                     ORDER BY j.class, o.round, j.created_ms, j.game
                     LIMIT 1 FOR UPDATE OF j SKIP LOCKED)
                 RETURNING game, seq, ply, tries",
                &[
                    now.into(),
                    now.saturating_add(lease_ms).into(),
                    worker.into(),
                    max_tries.into(),
                    unless_workers_within.map_or(Value::Int(-1), |within| {
                        now.saturating_sub(within).into()
                    }),
                ],
            )
            .await?;
        rows.first().map(claimed).transpose()
    }

    /// Removes the jobs whose last claim's lease ran out after `max_tries` claims: they are
    /// given up (the caller tells their games).
    pub async fn give_up_jobs(&self, max_tries: u64) -> Result<Vec<ClaimedJob>, StoreError> {
        self.postgres_only()?;
        self.query(
            "DELETE FROM jobs WHERE leased_until < $1 AND tries >= $2
             RETURNING game, seq, ply, tries",
            &[now_ms().into(), max_tries.into()],
        )
        .await?
        .iter()
        .map(claimed)
        .collect()
    }

    /// Extends `worker`'s lease on a job by `lease_ms` from now: None when it no longer holds
    /// it (the game changed and the job went, or its lease ran out and another claimed it),
    /// else whether "move now" was asked.
    pub async fn renew_job(
        &self,
        job: &ClaimedJob,
        worker: &str,
        lease_ms: u64,
    ) -> Result<Option<bool>, StoreError> {
        self.postgres_only()?;
        let rows = self
            .query(
                "UPDATE jobs SET leased_until = $4
                 WHERE game = $1 AND seq = $2 AND worker = $3 AND leased_until IS NOT NULL
                 RETURNING stop_now",
                &[
                    (&job.game).into(),
                    job.seq.into(),
                    worker.into(),
                    now_ms().saturating_add(lease_ms).into(),
                ],
            )
            .await?;
        rows.first().map(|r| Ok(r.int(0)? != 0)).transpose()
    }

    /// Hands `worker`'s jobs back to the queue (it stops: another claims them at once, the
    /// claim not counted as a try), or only `job` when given.
    pub async fn release_jobs(
        &self,
        worker: &str,
        job: Option<&ClaimedJob>,
    ) -> Result<(), StoreError> {
        self.postgres_only()?;
        let statement = match job {
            Some(job) => Statement::new(
                "UPDATE jobs SET leased_until = NULL, worker = NULL, tries = tries - 1
                 WHERE worker = $1 AND game = $2 AND seq = $3",
                vec![worker.into(), (&job.game).into(), job.seq.into()],
            ),
            None => Statement::new(
                "UPDATE jobs SET leased_until = NULL, worker = NULL, tries = tries - 1
                 WHERE worker = $1",
                vec![worker.into()],
            ),
        };
        let wake = Statement::new("SELECT pg_notify('tafl_jobs', '')", Vec::new());
        self.write(&[statement, wake]).await.map(|_| ())
    }

    /// Removes a job that is of no use any more (its position is not the game's).
    pub async fn drop_job(&self, job: &ClaimedJob) -> Result<(), StoreError> {
        self.postgres_only()?;
        let delete = Statement::new(
            "DELETE FROM jobs WHERE game = $1 AND seq = $2",
            vec![(&job.game).into(), job.seq.into()],
        );
        self.write(&[delete]).await.map(|_| ())
    }

    /// Asks whoever searches game `id`'s move to play it now; false when no job is there.
    pub async fn stop_job(&self, id: &str) -> Result<bool, StoreError> {
        self.postgres_only()?;
        let rows = self
            .query(
                "UPDATE jobs SET stop_now = 1 WHERE game = $1 RETURNING seq",
                &[id.into()],
            )
            .await?;
        Ok(!rows.is_empty())
    }

    /// Every job, in the order of the claims: its place in the queue while it waits, its
    /// worker while one holds it.
    pub async fn job_places(&self) -> Result<Vec<JobPlace>, StoreError> {
        self.postgres_only()?;
        let mut place = 0;
        self.query(ORDERED, &[now_ms().into()])
            .await?
            .iter()
            .map(|r| {
                let waiting = r.int(5)? != 0;
                if waiting {
                    place += 1;
                }
                Ok(JobPlace {
                    game: r.text(0)?,
                    seq: r.uint(1)?,
                    place: waiting.then_some(place),
                    worker: if waiting { None } else { r.opt_text(4)? },
                })
            })
            .collect()
    }

    /// Records that `worker` runs, with `searches` slots (every second: `workers`).
    pub async fn heartbeat(&self, worker: &str, searches: usize) -> Result<(), StoreError> {
        self.postgres_only()?;
        let upsert = Statement::new(
            "INSERT INTO workers (id, searches, seen_ms) VALUES ($1, $2, $3)
             ON CONFLICT (id) DO UPDATE SET searches = excluded.searches, seen_ms = excluded.seen_ms",
            vec![worker.into(), searches.into(), now_ms().into()],
        );
        self.write(&[upsert]).await.map(|_| ())
    }

    /// Removes `worker`'s row (it stops), and the rows of workers unseen for an hour.
    pub async fn forget_worker(&self, worker: &str) -> Result<(), StoreError> {
        self.postgres_only()?;
        let delete = Statement::new(
            "DELETE FROM workers WHERE id = $1 OR seen_ms < $2",
            vec![worker.into(), now_ms().saturating_sub(3_600_000).into()],
        );
        self.write(&[delete]).await.map(|_| ())
    }

    /// The workers seen within the last `within_ms`.
    pub async fn live_workers(&self, within_ms: u64) -> Result<u64, StoreError> {
        self.postgres_only()?;
        let rows = self
            .query(
                "SELECT COUNT(*) FROM workers WHERE seen_ms >= $1",
                &[now_ms().saturating_sub(within_ms).into()],
            )
            .await?;
        rows.first().map_or(Ok(0), |r| r.uint(0))
    }
}
