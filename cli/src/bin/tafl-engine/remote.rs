//! What the clients of game servers share (the Tablut Challenge's, hnefatafl.org's):
//! connecting, thinking within a time, and choosing a move that is legal.

use std::net::{TcpStream, ToSocketAddrs};
use std::sync::mpsc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use tafl_engine::search::{Limits, SearchResult, Searcher};
use tafl_engine::{Game, Grid, Move};

/// How long connecting to one address of a server may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The search is stopped this long after its time is up if it has not stopped by itself.
const WATCHDOG_GRACE: Duration = Duration::from_millis(10);

/// The search's options, the same in every client's command line (`--threads`, `--hash`).
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// search threads
    #[arg(long, value_name = "n", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// transposition table size
    #[arg(long, value_name = "MiB", default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(1..=65_536))]
    pub hash: u32,
}

/// Connects to a server, trying each address the host name gives.
pub fn connect(host: &str, port: u16) -> Result<TcpStream, String> {
    let addresses: Vec<_> = (host, port)
        .to_socket_addrs()
        .map_err(|error| format!("cannot find the server {host}: {error}"))?
        .collect();
    let mut last = format!("{host} has no address");
    for address in addresses {
        match TcpStream::connect_timeout(&address, CONNECT_TIMEOUT) {
            Ok(stream) => return Ok(stream),
            Err(error) => last = format!("{address}: {error}"),
        }
    }
    Err(format!(
        "cannot connect to the server at {host} port {port}: {last}"
    ))
}

/// Searches `game` for at most `budget`, with `lines` principal variations (more than one when
/// some moves must be avoided); a watchdog stops the search if it has not stopped by itself
/// shortly after. Either grid: one searcher serves both.
///
/// When the system will not start the watchdog's thread (a limit on processes, `prlimit
/// --nproc`; no memory for its stack), the search runs without it on this thread: it stops at
/// its own deadline all the same, the watchdog being only a guard against a late stop.
pub fn search_within<B: Grid>(
    searcher: &mut Searcher,
    game: &Game<B>,
    budget: Duration,
    lines: usize,
) -> SearchResult<B> {
    search_within_using(searcher, game, budget, lines, |watchdog| {
        thread::Builder::new()
            .name("watchdog".to_string())
            .spawn(watchdog)
    })
}

/// A watchdog's work, for a thread to run.
type Watchdog = Box<dyn FnOnce() + Send>;

/// [`search_within`] with the way the watchdog's thread is started: `spawn` runs the watchdog
/// on a thread of its own, or says why it could not (a test makes it fail).
fn search_within_using<B: Grid>(
    searcher: &mut Searcher,
    game: &Game<B>,
    budget: Duration,
    lines: usize,
    spawn: impl FnOnce(Watchdog) -> std::io::Result<JoinHandle<()>>,
) -> SearchResult<B> {
    let limits = Limits::move_time(budget);
    let stop = searcher.stop_handle();
    let (done, finished) = mpsc::channel::<()>();
    let watchdog: Watchdog = Box::new(move || {
        if finished.recv_timeout(budget + WATCHDOG_GRACE).is_err() {
            stop.stop();
        }
    });
    // Without a watchdog the search still stops at its deadline (its own clock).
    let watchdog = spawn(watchdog).ok();
    let result = if lines > 1 {
        searcher.search_multi_pv(game, &limits, lines, |_| {})
    } else {
        searcher.search(game, &limits, |_| {})
    };
    // Wakes the watchdog, which ends without stopping anything: waited for, so that it cannot
    // stop the next search.
    let _ = done.send(());
    if let Some(watchdog) = watchdog {
        let _ = watchdog.join();
    }
    result
}

/// The search's choice if it is one of `allowed`, else its next best line's first move that is,
/// else the first allowed move: never a move outside `allowed` (which must not be empty).
pub fn choose<B: Grid>(result: &SearchResult<B>, allowed: &[Move<B>]) -> Option<Move<B>> {
    result
        .lines
        .iter()
        .filter_map(|line| line.moves.first().copied())
        .chain(result.best_move)
        .find(|m| allowed.contains(m))
        .or_else(|| allowed.first().copied())
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use tafl_engine::Variant;
    use tafl_engine::search::SearchConfig;

    use super::*;

    #[test]
    fn without_a_watchdog_thread_the_search_still_answers_within_its_time() {
        let mut searcher = Searcher::new(SearchConfig {
            threads: 1,
            hash_mb: 1,
        });
        let game = Game::new(&Variant::tablut());
        let budget = Duration::from_millis(200);
        let started = Instant::now();
        let mut asked = false;
        let result = search_within_using(&mut searcher, &game, budget, 2, |_| {
            asked = true;
            Err(std::io::Error::other("no thread for you"))
        });
        let took = started.elapsed();
        assert!(asked);
        let best = result.best_move.expect("a move");
        assert!(game.legal_moves().contains(&best));
        assert!(took < budget + Duration::from_millis(500), "{took:?}");
    }
}
