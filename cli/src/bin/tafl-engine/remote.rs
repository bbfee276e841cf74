//! What the clients of game servers share (the Tablut Challenge's, hnefatafl.org's):
//! connecting, thinking within a time, and choosing a move that is legal.

use std::net::{TcpStream, ToSocketAddrs};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use tafl_engine::search::{Limits, SearchResult, Searcher};
use tafl_engine::{Board, Game, Move};

/// How long connecting to one address of a server may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The search is stopped this long after its time is up if it has not stopped by itself.
const WATCHDOG_GRACE: Duration = Duration::from_millis(10);

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
pub fn search_within<B: Board>(
    searcher: &mut Searcher,
    game: &Game<B>,
    budget: Duration,
    lines: usize,
) -> SearchResult<B> {
    let limits = Limits::move_time(budget);
    let stop = searcher.stop_handle();
    let (done, finished) = mpsc::channel::<()>();
    thread::scope(|scope| {
        scope.spawn(move || {
            if finished.recv_timeout(budget + WATCHDOG_GRACE).is_err() {
                stop.stop();
            }
        });
        let result = if lines > 1 {
            searcher.search_multi_pv(game, &limits, lines, |_| {})
        } else {
            searcher.search(game, &limits, |_| {})
        };
        // Wakes the watchdog: its thread ends, the scope with it.
        let _ = done.send(());
        result
    })
}

/// The search's choice if it is one of `allowed`, else its next best line's first move that is,
/// else the first allowed move: never a move outside `allowed` (which must not be empty).
pub fn choose<B: Board>(result: &SearchResult<B>, allowed: &[Move<B>]) -> Option<Move<B>> {
    result
        .lines
        .iter()
        .filter_map(|line| line.moves.first().copied())
        .chain(result.best_move)
        .find(|m| allowed.contains(m))
        .or_else(|| allowed.first().copied())
}
