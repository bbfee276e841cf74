//! `tafl-web`: serves the page where a person plays the engine (docs/web.md).

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use tafl_web::{AppState, Config, serve};

/// Play tafl games against tafl-engine in a browser.
#[derive(Parser)]
#[command(version, about)]
struct Options {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// Where the games are kept: a SQLite file (created when missing), or a PostgreSQL
    /// database that several servers share (`postgres://user:password@host:5432/name`).
    #[arg(long, default_value = "tafl-web.sqlite")]
    db: String,
    /// Searches that run at once (default: the number of cores); others wait in a queue.
    #[arg(long)]
    searches: Option<usize>,
    /// Transposition table of each search, in MiB.
    #[arg(long, default_value_t = 16)]
    hash_mb: usize,
    /// Requests a second that one player (by their seat's secret) or one address without a
    /// secret may send on average, and one address creating games; 0: no limit.
    #[arg(long, default_value_t = 10.0)]
    rate: f64,
    /// Requests sent at once before the rate applies.
    #[arg(long, default_value_t = 30.0)]
    burst: f64,
    /// A load balancer's address (repeatable): requests from it are limited by the client
    /// address that its `X-Forwarded-For` header names last (HAProxy's `option forwardfor`).
    #[arg(long = "proxy", value_name = "IP")]
    proxies: Vec<std::net::IpAddr>,
    /// With PostgreSQL: milliseconds a search job this server claims (while no worker runs) is
    /// held without renewal; when the server dies, another searches it again after this.
    #[arg(long, default_value_t = 10_000)]
    lease_ms: u64,
    /// Milliseconds the review of a finished game spends on each position (in the background,
    /// after every other search).
    #[arg(long, default_value_t = 300)]
    review_ms: u64,
    /// For tests only: the length of a correspondence game's day, in milliseconds (a test
    /// cannot wait a day). Default: a real day.
    #[arg(long, default_value_t = 86_400_000)]
    day_ms: u64,
    /// How the log lines on stderr are written: `text` (one line each, `key=value` fields) or
    /// `json` (one object a line). Which lines: `RUST_LOG` (default `info`; `tafl_web=debug`
    /// adds every request).
    #[arg(long, global = true, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Search the engine's moves of the games in a PostgreSQL database that servers share
    /// (docs/web-machines.md): as many at once as --searches, until stopped.
    Worker(WorkerOptions),
}

/// `tafl-web worker`'s options.
#[derive(clap::Args)]
struct WorkerOptions {
    /// The PostgreSQL database the servers use (`postgres://user:password@host:5432/name`).
    #[arg(long)]
    db: String,
    /// Searches that run at once (default: the number of cores).
    #[arg(long)]
    searches: Option<usize>,
    /// Transposition table of each search, in MiB.
    #[arg(long, default_value_t = 16)]
    hash_mb: usize,
    /// Milliseconds a claimed search is held without renewal: when this worker dies, another
    /// searches again after this (renewed every third of it while the search runs).
    #[arg(long, default_value_t = 10_000)]
    lease_ms: u64,
}

/// Runs `tafl-web worker` until Ctrl-C or SIGTERM, then hands its searches back.
fn worker(options: WorkerOptions) -> ExitCode {
    let mut config = Config::new(options.db.clone());
    if let Some(searches) = options.searches {
        config.searches = searches.max(1);
    }
    config.hash_mb = options.hash_mb.clamp(1, 1024);
    config.lease_ms = options.lease_ms.clamp(100, 3_600_000);
    let Ok(runtime) = tokio::runtime::Runtime::new() else {
        tracing::error!("cannot start the runtime");
        return ExitCode::FAILURE;
    };
    let shown = tafl_web::store::shown(&options.db);
    let stop = async {
        let signal = stop_signal().await;
        tracing::info!(signal, "stopping: searches cancelled and handed back");
    };
    let code = match runtime.block_on(tafl_web::jobs::work(config, stop)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!("{shown}: {error}");
            ExitCode::FAILURE
        }
    };
    // Its searches were cancelled: their threads end at once; do not wait for them longer.
    runtime.shutdown_timeout(Duration::from_secs(1));
    code
}

/// The log's format (`--log-format`).
#[derive(Clone, Copy, ValueEnum)]
enum LogFormat {
    /// Lines for a person: time, level, the spans' fields (`game=ID`), the message.
    Text,
    /// One JSON object a line, for a log collector.
    Json,
}

/// Sends the log lines (`tracing`) to stderr, filtered by `RUST_LOG` (default `info`).
fn start_logs(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => logs.init(),
        LogFormat::Json => logs.json().init(),
    }
}

/// How long a stopping server waits for its open connections (requests being answered) before
/// it exits anyway.
const GRACE: Duration = Duration::from_secs(5);

/// Resolves with the signal's name at SIGTERM (what service managers and orchestrators send)
/// or Ctrl-C (SIGINT).
async fn stop_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            return tokio::select! {
                _ = term.recv() => "SIGTERM",
                _ = tokio::signal::ctrl_c() => "SIGINT",
            };
        }
    }
    let _ = tokio::signal::ctrl_c().await;
    "SIGINT"
}

/// Connections that may wait to be accepted: more than the standard library's 128, so that a
/// burst of new players (the load script starts 200 at once) is not dropped and retried a
/// second later by their TCP stack.
const BACKLOG: u32 = 1024;

/// A listening socket on `address`, reusable at once after a restart.
fn listen(address: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if address.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(address)?;
    socket.listen(BACKLOG)
}

fn main() -> ExitCode {
    let mut options = Options::parse();
    start_logs(options.log_format);
    if let Some(Command::Worker(worker_options)) = options.command.take() {
        return worker(worker_options);
    }
    let mut config = Config::new(options.db.clone());
    if let Some(searches) = options.searches {
        config.searches = searches.max(1);
    }
    config.hash_mb = options.hash_mb.clamp(1, 1024);
    config.rate = options.rate;
    config.burst = options.burst.max(1.0);
    config.proxies = options.proxies.clone();
    config.lease_ms = options.lease_ms.clamp(100, 3_600_000);
    config.review_ms = options.review_ms.clamp(10, 60_000);
    config.day_ms = options.day_ms.max(1);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            tracing::error!("cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(async {
        let shown = tafl_web::store::shown(&options.db);
        let state = match AppState::open(config).await {
            Ok(state) => state,
            Err(error) => {
                tracing::error!("cannot open {shown}: {error}");
                return ExitCode::FAILURE;
            }
        };
        state.follow_changes();
        state.claim_jobs();
        if let Err(error) = state.watch_correspondence().await {
            tracing::error!("cannot read the correspondence games: {error:?}");
        }
        let listener = match listen(options.listen) {
            Ok(listener) => listener,
            Err(error) => {
                tracing::error!("cannot listen on {}: {error}", options.listen);
                return ExitCode::FAILURE;
            }
        };
        let address = listener.local_addr().unwrap_or(options.listen);
        // On stdout, the first line: scripts and tests read the address from it.
        println!("tafl-web: open http://{address}/ (games in {shown})");
        tracing::info!(%address, store = state.store_backend(), "listening");
        // SIGTERM or Ctrl-C: stop accepting connections, readiness 503, streams told to
        // reconnect, searches cancelled (`AppState::stop`); the requests being answered finish.
        let stop = {
            let state = state.clone();
            async move {
                let signal = stop_signal().await;
                let cancelled = state.stop();
                tracing::info!(
                    signal,
                    searches_cancelled = cancelled,
                    "stopping: no new connections, event streams told to reconnect"
                );
                // With PostgreSQL: the engine's moves this server searched go back to the
                // job table now, for another server or a worker to claim at once.
                let handing = state.clone();
                tokio::spawn(async move { handing.hand_back_jobs().await });
            }
        };
        let grace = {
            let state = state.clone();
            async move {
                state.stopped().await;
                tokio::time::sleep(GRACE).await;
            }
        };
        let served = tokio::select! {
            served = serve(listener, state.clone(), stop) => match served {
                Ok(()) => {
                    tracing::info!("stopped");
                    ExitCode::SUCCESS
                }
                Err(error) => {
                    tracing::error!("{error}");
                    ExitCode::FAILURE
                }
            },
            () = grace => {
                tracing::warn!("connections still open after {GRACE:?}: stopping anyway");
                ExitCode::SUCCESS
            }
        };
        // Again, for a job claimed while the stop began (a second at most).
        let _ = tokio::time::timeout(Duration::from_secs(1), state.hand_back_jobs()).await;
        served
    });
    // Searches were cancelled: their threads end at once; do not wait for them longer.
    runtime.shutdown_timeout(Duration::from_secs(1));
    code
}
