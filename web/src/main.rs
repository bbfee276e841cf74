//! `tafl-web`: serves the page where a person plays the engine (docs/web.md).

use std::net::SocketAddr;
use std::process::ExitCode;

use clap::Parser;
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
    /// Milliseconds the review of a finished game spends on each position (in the background,
    /// after every other search).
    #[arg(long, default_value_t = 300)]
    review_ms: u64,
    /// For tests only: the length of a correspondence game's day, in milliseconds (a test
    /// cannot wait a day). Default: a real day.
    #[arg(long, default_value_t = 86_400_000)]
    day_ms: u64,
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
        eprintln!("tafl-web worker: cannot start the runtime");
        return ExitCode::FAILURE;
    };
    let shown = tafl_web::store::shown(&options.db);
    let stop = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    };
    match runtime.block_on(tafl_web::jobs::work(config, stop)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("tafl-web worker: {shown}: {error}");
            ExitCode::FAILURE
        }
    }
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
    config.review_ms = options.review_ms.clamp(10, 60_000);
    config.day_ms = options.day_ms.max(1);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("tafl-web: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        let shown = tafl_web::store::shown(&options.db);
        let state = match AppState::open(config).await {
            Ok(state) => state,
            Err(error) => {
                eprintln!("tafl-web: cannot open {shown}: {error}");
                return ExitCode::FAILURE;
            }
        };
        state.follow_changes();
        state.claim_jobs();
        if let Err(error) = state.watch_correspondence().await {
            eprintln!("tafl-web: cannot read the correspondence games: {error:?}");
        }
        let listener = match listen(options.listen) {
            Ok(listener) => listener,
            Err(error) => {
                eprintln!("tafl-web: cannot listen on {}: {error}", options.listen);
                return ExitCode::FAILURE;
            }
        };
        let address = listener.local_addr().unwrap_or(options.listen);
        println!("tafl-web: open http://{address}/ (games in {shown})");
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        match serve(listener, state, shutdown).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("tafl-web: {error}");
                ExitCode::FAILURE
            }
        }
    })
}
