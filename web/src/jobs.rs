//! Searches as jobs (issue 53): with PostgreSQL, the engine's moves wait in the job table
//! (`web/migrations/0002_jobs.sql`, `store/jobs.rs`) instead of one server's memory, and any
//! process that reaches the database searches them: `tafl-web worker`, or the servers
//! themselves while no worker runs.
//!
//! A claim holds its job for a lease, renewed while the search runs; a process that dies
//! stops renewing, its lease runs out and another claims the job again. After
//! [`MAX_TRIES`] claims whose leases all ran out, the game is told (a stored `failed` event).
//! The move found is written like any change (`push_move` with its event and NOTIFY): the
//! moves' key `(game, ply)` and the events' key `(game, seq)` refuse a second writer, which
//! drops its move. Hints and analyses stream to the one page that asked and stay in the
//! memory of the server that holds that stream (`engine::Pool`); so do reviews.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::sync::{Notify, watch};
use tokio::task::JoinHandle;
use tracing::Instrument;

use crate::app::AppState;
use crate::engine::{Control, Event};
use crate::events::Transient;
use crate::store::{ClaimedJob, EventRow, JobPlace};

/// Claims of one job whose leases may run out before its game is told that the engine failed.
pub const MAX_TRIES: u64 = 3;

/// How often an idle claimer looks for jobs (besides being woken by NOTIFY `tafl_jobs`): it
/// also finds the jobs whose lease ran out.
const POLL: Duration = Duration::from_millis(250);

/// How often a worker says it runs (`workers.seen_ms`).
const HEARTBEAT: Duration = Duration::from_secs(1);

/// A worker seen within this is alive: the servers leave the jobs to it.
pub const WORKER_ALIVE_MS: u64 = 5_000;

/// How often a server reads the queue's places for its waiting pages.
const PLACES_EVERY: Duration = Duration::from_millis(300);

/// The job table's places as last read: when, and each job by (game, seq).
#[derive(Clone, Default)]
struct Places {
    read: Option<Instant>,
    jobs: Arc<HashMap<(String, u64), JobPlace>>,
}

/// This process's part in the job table.
pub struct Jobs {
    /// Its name in `jobs.worker` and `workers.id`: `worker HOST:PID` or `server HOST:PID`.
    pub(crate) id: String,
    wake: Notify,
    places: watch::Sender<Places>,
}

impl Jobs {
    /// The jobs of a worker (`serves` false) or a server.
    pub(crate) fn new(serves: bool) -> Jobs {
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .ok()
            .map(|h| h.trim().to_owned())
            .filter(|h| !h.is_empty())
            .unwrap_or_else(|| "localhost".into());
        let kind = if serves { "server" } else { "worker" };
        Jobs {
            id: format!("{kind} {host}:{}", std::process::id()),
            wake: Notify::new(),
            places: watch::channel(Places::default()).0,
        }
    }

    /// Wakes this process's idle claimers (a job was asked for here).
    pub(crate) fn wake(&self) {
        self.wake.notify_waiters();
    }
}

/// Claims and runs jobs with `slots` searches at once, for ever, in the background: always (a
/// worker), or only while no worker runs (a server, `always` false). Also listens for new jobs
/// (NOTIFY `tafl_jobs`) and, on a server, reads the queue's places for the pages that wait.
pub(crate) fn start(state: &Arc<AppState>, slots: usize, always: bool) {
    if !state.store.shared() {
        return;
    }
    let listener = state.clone();
    tokio::spawn(async move {
        let woken = listener.clone();
        listener
            .store
            .listen("tafl_jobs", move |_| woken.jobs.wake())
            .await;
    });
    if state.config.serves {
        tokio::spawn(read_places(state.clone()));
    }
    for _ in 0..slots.max(1) {
        tokio::spawn(claim_loop(state.clone(), always));
    }
}

/// A worker's heartbeat, every second, for ever.
pub(crate) fn heartbeat(state: &Arc<AppState>) {
    let state = state.clone();
    tokio::spawn(async move {
        loop {
            if let Err(error) = state
                .store
                .heartbeat(&state.jobs.id, state.config.searches)
                .await
            {
                tracing::warn!("worker heartbeat: {error}");
            }
            tokio::time::sleep(HEARTBEAT).await;
        }
    });
}

/// One search slot: claims a job, runs it, again; waits when there is none.
async fn claim_loop(state: Arc<AppState>, always: bool) {
    loop {
        let woken = state.jobs.wake.notified();
        tokio::pin!(woken);
        woken.as_mut().enable();
        match next_job(&state, always).await {
            Some(job) => run(&state, job).await,
            None => {
                tokio::select! {
                    _ = woken => {}
                    _ = tokio::time::sleep(POLL) => {}
                }
            }
        }
    }
}

/// The next job for this process, if it may claim one: the games whose jobs failed
/// [`MAX_TRIES`] times are told first.
async fn next_job(state: &Arc<AppState>, always: bool) -> Option<ClaimedJob> {
    if state.stopping() {
        // It stops (SIGTERM): its jobs go back to the queue, it claims no more.
        return None;
    }
    if let Ok(given_up) = state.store.give_up_jobs(MAX_TRIES).await {
        for job in given_up {
            tell_failed(state, &job).await;
        }
    }
    let claimed = state
        .store
        .claim_job(
            &state.jobs.id,
            state.config.lease_ms,
            MAX_TRIES,
            (!always).then_some(WORKER_ALIVE_MS),
        )
        .await;
    match claimed {
        Ok(job) => job,
        Err(error) => {
            // Out of reach: said once a poll; the loop tries again.
            tracing::warn!("{}: cannot claim a search: {error}", state.jobs.id);
            None
        }
    }
}

/// Stores a `failed` event in a game whose job was given up (unless the game changed since).
async fn tell_failed(state: &AppState, job: &ClaimedJob) {
    let message = format!(
        "the engine's search for move {} failed {MAX_TRIES} times (its searcher stopped): \
         open the game again to retry",
        job.ply + 1
    );
    let event = EventRow {
        seq: job.seq + 1,
        kind: "failed".into(),
        data: json!({ "ply": job.ply, "message": message }).to_string(),
    };
    let span = crate::round::game_span(&job.game, "job");
    let noted = state.store.note(&job.game, &event).await;
    let _in_game = span.entered();
    match noted {
        Ok(()) => tracing::warn!("{message}"),
        Err(error) if error.conflict() => {}
        Err(error) => tracing::error!("cannot tell that the engine failed: {error}"),
    }
}

/// Runs a claimed job: the engine's search, its lease renewed meanwhile, its move written.
async fn run(state: &Arc<AppState>, job: ClaimedJob) {
    let span = crate::round::game_span(&job.game, "job");
    run_claimed(state, job).instrument(span).await;
}

/// [`run`] in the span of its game.
async fn run_claimed(state: &Arc<AppState>, job: ClaimedJob) {
    let started = Instant::now();
    let end = crate::searches::run_job(state, &job).await;
    let who = &state.jobs.id;
    match end {
        crate::searches::JobEnd::Played { text, depth, nodes } => tracing::info!(
            "{who}: game {} ply {} played {text} in {} ms (try {}), depth {depth}, {nodes} nodes",
            job.game,
            job.ply,
            started.elapsed().as_millis(),
            job.tries
        ),
        crate::searches::JobEnd::Stale => {
            // Its position is not the game's any more (or the game is gone).
            let _ = state.store.drop_job(&job).await;
        }
        crate::searches::JobEnd::Stopped => {}
        crate::searches::JobEnd::Failed(message) => {
            // Another claim retries it once its lease runs out.
            tracing::warn!("{who}: game {} ply {}: {message}", job.game, job.ply);
        }
    }
}

/// Renews the lease of `job` while its search runs (every third of the lease, at most a
/// second apart): a job no longer held (the game changed, or another claimed it after the
/// lease ran out) cancels the search; "move now" asked on any server stops it with its best
/// move. Abort the returned task when the search ends.
pub(crate) fn keep_lease(
    state: &Arc<AppState>,
    job: &ClaimedJob,
    control: &Arc<Control>,
) -> JoinHandle<()> {
    let (state, job, control) = (state.clone(), job.clone(), control.clone());
    let lease = state.config.lease_ms;
    let every = Duration::from_millis((lease / 3).clamp(20, 1_000));
    tokio::spawn(async move {
        loop {
            match state.store.renew_job(&job, &state.jobs.id, lease).await {
                Ok(None) => {
                    control.cancel();
                    return;
                }
                Ok(Some(true)) => control.stop_now(),
                // Out of reach for now: search on; if the lease runs out meanwhile, the
                // moves' key decides between this claim and the next.
                Ok(Some(false)) | Err(_) => {}
            }
            tokio::time::sleep(every).await;
        }
    })
}

/// Reads the places of the job table's jobs while pages wait for them.
async fn read_places(state: Arc<AppState>) {
    loop {
        if state.jobs.places.receiver_count() > 0 {
            let read = Instant::now();
            if let Ok(places) = state.store.job_places().await {
                let jobs = places
                    .into_iter()
                    .map(|p| ((p.game.clone(), p.seq), p))
                    .collect();
                state.jobs.places.send_replace(Places {
                    read: Some(read),
                    jobs: Arc::new(jobs),
                });
            }
        }
        tokio::time::sleep(PLACES_EVERY).await;
    }
}

/// Tells a game's pages where its job (`game`, `seq`) stands until it is gone (played, given
/// up, or made useless by a change) or `control` is cancelled: its place in the queue while it
/// waits, `started` once another process claims it (a search here tells its own).
pub(crate) async fn follow_job(
    state: &AppState,
    game: &str,
    seq: u64,
    control: &Control,
    transient: &Transient,
) {
    let mut places = state.jobs.places.subscribe();
    let asked = Instant::now();
    let key = (game.to_owned(), seq);
    let mut told: Option<Option<usize>> = None;
    loop {
        if control.is_cancelled() {
            break;
        }
        let now = places.borrow_and_update().clone();
        if now.read.is_some_and(|read| read > asked) {
            let Some(job) = now.jobs.get(&key) else {
                break;
            };
            if told != Some(job.place) {
                told = Some(job.place);
                match job.place {
                    Some(place) => {
                        let event = Event::Queue { place };
                        transient.send("queue", serde_json::to_value(&event).unwrap_or_default());
                    }
                    None if job.worker.as_deref() != Some(state.jobs.id.as_str()) => {
                        transient.send("started", json!({ "type": "started" }));
                    }
                    None => {}
                }
            }
        }
        if places.changed().await.is_err() {
            break;
        }
    }
    transient.done();
}

/// Hands this process's jobs back to the queue and forgets its heartbeat (it stops: another
/// claims them at once).
pub(crate) async fn hand_back(state: &AppState) {
    if !state.store.shared() {
        return;
    }
    let _ = state.store.release_jobs(&state.jobs.id, None).await;
    let _ = state.store.forget_worker(&state.jobs.id).await;
}

/// Runs `tafl-web worker`: claims the job table's jobs with `config.searches` searches at
/// once until `stop` resolves, then hands its jobs back. Errors when the database cannot be
/// opened or is not PostgreSQL.
pub async fn work(
    mut config: crate::Config,
    stop: impl std::future::Future<Output = ()>,
) -> Result<(), crate::store::StoreError> {
    if !crate::store::is_postgres(&config.db) {
        return Err(crate::store::StoreError::Config(format!(
            "a worker searches the jobs of a PostgreSQL database (--db postgres://...), not {}",
            config.db
        )));
    }
    config.serves = false;
    let slots = config.searches;
    let state = AppState::open(config).await?;
    state.store.heartbeat(&state.jobs.id, slots).await?;
    heartbeat(&state);
    start(&state, slots, true);
    println!(
        "tafl-web worker: {} searching with {slots} slots",
        state.jobs.id
    );
    stop.await;
    // Its searches stop now (not after their time), and go back to the queue at once.
    state.stop();
    hand_back(&state).await;
    Ok(())
}
