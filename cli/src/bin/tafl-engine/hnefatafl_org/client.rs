//! The client: logs in, keeps its games in step with the server, answers every request for a
//! move within its clock, and logs in again when the connection is lost.
//!
//! Keeping in step: for every `generate_move` the client asks for the game's record
//! (`resume_game_json`) and rebuilds the game from it under the server's rules (the engine's
//! [`Game`], history and all); it moves only when that game says it is its turn, and only one of
//! the game's legal moves. The 7x7 and 11x11 games are played on the engine's narrow grid, the
//! 13x13 ones on its wide grid, by the same generic code and one searcher. The server sends
//! `generate_move` for every game of ours at each login, whoever is to move: the record decides.
//! A record the engine cannot follow (a board the server does not play, a move the engine's
//! rules refuse) is said on stderr and no move is sent for it.
//!
//! What a line that cannot be used does: nothing but a line on stderr; a line longer than
//! [`MAX_LINE`](super::lines::MAX_LINE) is dropped whole. The connection is given up (and made
//! again) when it closes, fails, or stays silent after a `ping`.
//!
//! One game at a time: after every login (the first of a process too) the client takes a
//! [`Census`] of its games before it offers or joins one. The server 6.4.1 handles every line
//! on one thread, in order, and queues its `resume_games` at the login before any line of the
//! client's: the `generate_move` of every game it still holds for the account comes before the
//! answer to a `ping` sent after the login. The games it names are played (a game of an earlier
//! process included); those under way before the login that it does not name are forgotten, not
//! counted (a server restarted from an older state has lost them and counts its game ids again
//! from there). The same census, with `resume_game_json` for each game (the server does not
//! answer it for a game it no longer has), tells which game a `= draw accept` ended when more
//! than one is under way: the server's draw names no game.
//!
//! Outages: the client connects again for ever (or until `--give-up-after`), waiting
//! `--retry-wait` (1 s), then twice as long after each failed attempt, up to `--retry-max-wait`
//! (30 s).

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use tafl_engine::Grid;
use tafl_engine::search::{SearchConfig, Searcher};

use super::Options;
use super::lines::{LineReader, Received};
use super::messages::{self, GameId, Incoming, role_word};
use super::table::{AnyTable, Table};
use crate::remote;

/// How long a read waits before the client looks at its timers.
const READ_TICK: Duration = Duration::from_millis(250);
/// A `ping` is sent after this long without a line from the server.
const PING_AFTER: Duration = Duration::from_secs(30);
/// The connection is given up this long after a `ping` without any line back.
const SILENT_AFTER_PING: Duration = Duration::from_secs(30);
/// How long the login may take.
const LOGIN_WITHIN: Duration = Duration::from_secs(30);
/// How often the games of a tournament are asked for (its games are made without telling the
/// players: `resume_games` lists them).
const TOURNAMENT_POLL: Duration = Duration::from_secs(20);
/// The longest a [`Census`] waits for the answer to its `ping` (it usually comes within
/// milliseconds) before the games it has not heard of are taken as gone.
const CENSUS_WITHIN: Duration = Duration::from_secs(10);
/// A move the server refuses is replaced by another; after this many in one position, the
/// client stops trying (it would only be refusing them all).
const MAX_REFUSED: usize = 16;
/// At most this many of the moves made while the client was away are written out.
const CAUGHT_UP_SHOWN: usize = 12;

/// How a session (one connection) ended.
#[derive(Debug)]
enum Ended {
    /// The games asked for are played.
    Done,
    /// No connection was made: try again (after a wait).
    Unreachable(String),
    /// Lost, or never logged in: connect again (after a wait).
    Lost(String),
    /// Cannot go on (a wrong password, another server version).
    Fatal(String),
}

/// What the client waits to learn from the server before it offers or joins a game: which of
/// its games the server still holds. It ends at the answer to its `ping` (the `pongs` count
/// reached), or after [`CENSUS_WITHIN`].
struct Census {
    since: Instant,
    /// The census is over when this many `= ping` have come since the start.
    pongs: u64,
    /// Games thought under way that the server has not named since the census began: at its
    /// end they are gone (ended, or lost with a restarted server).
    unheard: HashSet<GameId>,
    /// Taken after a login: the games not heard of are said lost with the server.
    after_login: bool,
    /// `= draw accept` lines (which name no game) waiting for the census to say which game.
    draws: usize,
}

/// The client's state: what lasts across connections.
pub struct Client {
    options: Options,
    searcher: Searcher,
    /// The games the server has asked us to play in, not yet over.
    active: HashSet<GameId>,
    /// Learning which games the server holds: no game is offered or joined meanwhile.
    census: Option<Census>,
    /// `ping` lines sent and `= ping` received, since the start (a census ends at its own).
    pings: u64,
    pongs: u64,
    /// Games listed as open during a census: joined from once it ends.
    deferred: Vec<messages::OpenGame>,
    /// Games the server named again after a login, whose record is not yet read: the moves made
    /// since we last saw them are logged from it.
    catching_up: HashSet<GameId>,
    /// Our move sent on a connection that was then lost (game, move, the moves before it):
    /// the record after the login says whether the server had it.
    lost_move: Option<(GameId, String, usize)>,
    /// When the server last asked for our move in a game, until we send it.
    asked: HashMap<GameId, Instant>,
    /// Our move sent and not yet answered (`e1-e3`: games on either grid), with the number of
    /// moves the game had before it.
    pending: Option<(GameId, String, usize)>,
    /// Moves the server refused (`e1-e3`), by game, with the number of moves the game had then.
    refused: HashMap<GameId, (usize, Vec<String>)>,
    /// Games we offered (`new_game`) and nobody has begun.
    offers: Vec<GameId>,
    /// An offer sent whose id has not come yet.
    offer_sent: bool,
    /// Games we asked to join.
    joined: HashSet<GameId>,
    /// The number of moves of each game we follow, at its last record.
    plies: HashMap<GameId, usize>,
    /// Games finished since the start, with how.
    pub results: Vec<(GameId, String)>,
}

/// The wait before reconnection attempt `attempt` (1, 2, ...): `first`, doubled after each
/// failed attempt, at most `cap`.
pub fn retry_wait(attempt: u32, first: Duration, cap: Duration) -> Duration {
    let doublings = attempt.saturating_sub(1).min(31);
    first
        .checked_mul(1 << doublings)
        .map_or(cap, |wait| wait.min(cap))
}

/// A duration for the log: `750 ms`, `12 s`, `3 min 20 s`.
fn said(duration: Duration) -> String {
    let seconds = duration.as_secs();
    if duration < Duration::from_secs(1) {
        format!("{} ms", duration.as_millis())
    } else if seconds < 60 {
        format!("{:.1} s", duration.as_secs_f64()).replace(".0 s", " s")
    } else {
        format!("{} min {} s", seconds / 60, seconds % 60)
    }
}

/// Writes one line to the server.
fn send(stream: &mut TcpStream, line: &str, log: &mut dyn FnMut(String)) -> Result<(), String> {
    if !line.contains(" login ") && !line.contains(" create_account ") {
        log(format!("> {line}"));
    }
    stream
        .write_all(format!("{line}\n").as_bytes())
        .map_err(|error| format!("could not send to the server: {error}"))
}

/// The attempts to reach the server since the connection was lost (or since the start).
struct Outage {
    since: Instant,
    /// Attempts made so far.
    attempts: u32,
    /// The server was reached and lost (not the first connection of the process).
    lost: bool,
}

impl Client {
    pub fn new(options: Options) -> Client {
        let searcher = Searcher::new(SearchConfig {
            threads: options.threads,
            hash_mb: options.hash_mb,
        });
        Client {
            options,
            searcher,
            active: HashSet::new(),
            census: None,
            pings: 0,
            pongs: 0,
            deferred: Vec::new(),
            catching_up: HashSet::new(),
            lost_move: None,
            asked: HashMap::new(),
            pending: None,
            refused: HashMap::new(),
            offers: Vec::new(),
            offer_sent: false,
            joined: HashSet::new(),
            plies: HashMap::new(),
            results: Vec::new(),
        }
    }

    /// Whether the games asked for (`--games`) are played.
    fn done(&self) -> bool {
        self.options
            .games
            .is_some_and(|games| self.results.len() >= games)
    }

    /// Plays until done; returns the exit status. Lines for stderr go to `log`.
    pub fn run(&mut self, log: &mut dyn FnMut(String)) -> i32 {
        let mut outage = Some(Outage {
            since: Instant::now(),
            attempts: 0,
            lost: false,
        });
        loop {
            let ended = self.session(&mut outage, log);
            let (why, unreachable) = match ended {
                Ended::Done => {
                    log(format!("done: {} games played", self.results.len()));
                    return 0;
                }
                Ended::Fatal(why) => {
                    log(format!("error: {why}"));
                    return 1;
                }
                Ended::Unreachable(why) => (why, true),
                Ended::Lost(why) => (why, false),
            };
            // A session that logged in ended its outage: this is a new one.
            let outage = outage.get_or_insert_with(|| {
                log(format!("connection lost: {why}"));
                Outage {
                    since: Instant::now(),
                    attempts: 0,
                    lost: true,
                }
            });
            let attempt = outage.attempts;
            if attempt > 0 {
                // (`why` says "cannot connect ..." when no connection was made.)
                let what = if unreachable { "" } else { "no login: " };
                log(format!("attempt {attempt}: {what}{why}"));
            }
            let away = outage.since.elapsed();
            let mut wait = retry_wait(
                attempt + 1,
                self.options.retry_wait,
                self.options.retry_max_wait,
            );
            if let Some(limit) = self.options.give_up_after {
                if away >= limit {
                    log(format!(
                        "error: no server for {} after {attempt} attempts: giving up \
                         (--give-up-after {})",
                        said(away),
                        said(limit)
                    ));
                    return 1;
                }
                // The last attempt is made at the limit.
                wait = wait.min(limit - away);
            }
            let until = match self.options.give_up_after {
                Some(limit) => format!("until {} without the server", said(limit)),
                None => "for ever".to_string(),
            };
            log(format!(
                "attempt {} in {} (waits doubling up to {}, {until})",
                attempt + 1,
                said(wait),
                said(self.options.retry_max_wait)
            ));
            std::thread::sleep(wait);
        }
    }

    /// One connection: login, then the server's lines until the connection ends. `outage` is
    /// `None` from the login on.
    fn session(&mut self, outage: &mut Option<Outage>, log: &mut dyn FnMut(String)) -> Ended {
        let options = self.options.clone();
        if let Some(outage) = outage.as_mut() {
            outage.attempts += 1;
        }
        let mut stream = match remote::connect(&options.host, options.port) {
            Ok(stream) => stream,
            Err(error) => return Ended::Unreachable(error),
        };
        let _ = stream.set_nodelay(true);
        if let Err(error) = stream.set_read_timeout(Some(READ_TICK)) {
            return Ended::Lost(format!("cannot set a read timeout: {error}"));
        }
        let mut reader = match stream.try_clone() {
            Ok(reading) => LineReader::new(reading),
            Err(error) => return Ended::Lost(error.to_string()),
        };
        log(format!(
            "connected to {} port {} as {}",
            options.host, options.port, options.user
        ));
        if let Err(why) = self.login(&mut stream, &mut reader, log) {
            return why;
        }
        if let Some(outage) = outage.take() {
            if outage.lost {
                log(format!(
                    "back on the server at attempt {}, {} after the connection was lost",
                    outage.attempts,
                    said(outage.since.elapsed())
                ));
            } else if outage.attempts > 1 {
                log(format!("on the server at attempt {}", outage.attempts));
            }
        }
        let mut hello = vec![format!(
            "software_id tafl-engine-{}",
            env!("CARGO_PKG_VERSION")
        )];
        if options.tournament {
            hello.push("join_tournament".to_string());
            hello.push("resume_games".to_string());
        }
        // Whatever was under way may be gone: a server killed and restarted from an older state
        // has lost the games since, and counts its ids again from there. Before it offers or
        // joins a game the client learns which games the server still holds for it (a fresh
        // process too: the server may hold a game of the process before): the server names
        // them at login, before it answers this ping. The games asked to join are asked again
        // after that.
        self.joined.clear();
        self.deferred.clear();
        // (A ping sent on the lost connection is never answered.)
        self.pongs = self.pings;
        self.pings += 1;
        hello.push("ping".to_string());
        self.census = Some(Census {
            since: Instant::now(),
            pongs: self.pings,
            unheard: self.active.drain().collect(),
            after_login: true,
            draws: 0,
        });
        for line in hello {
            if let Err(error) = send(&mut stream, &line, log) {
                return Ended::Lost(error);
            }
        }
        // Offers made before the connection was lost may be gone: make a new one.
        self.offers.clear();
        self.offer_sent = false;
        // A move sent on a lost connection may never have reached the server: the record it
        // sends after the login says whether it did, and if not, the move is chosen again
        // (waiting for its answer would wait for ever). The requests' times start again with
        // the server's new ones.
        if let Some(pending) = self.pending.take() {
            self.lost_move = Some(pending);
        }
        self.asked.clear();
        let mut last_heard = Instant::now();
        let mut pinged: Option<Instant> = None;
        let mut polled = Instant::now();
        loop {
            if self.done() {
                return Ended::Done;
            }
            if self
                .census
                .as_ref()
                .is_some_and(|census| census.since.elapsed() > CENSUS_WITHIN)
            {
                if let Err(error) = self.census_over(&mut stream, log) {
                    return Ended::Lost(error);
                }
            }
            if let Err(error) = self.offer(&mut stream, log) {
                return Ended::Lost(error);
            }
            let received = match reader.next() {
                Ok(received) => received,
                Err(error) => return Ended::Lost(format!("read error: {error}")),
            };
            let now = Instant::now();
            match received {
                Received::Closed => return Ended::Lost("the server closed the connection".into()),
                Received::Nothing => {
                    if pinged.is_some_and(|at| now - at > SILENT_AFTER_PING) {
                        return Ended::Lost("no answer to a ping".into());
                    }
                    let mut line = None;
                    if pinged.is_none() && now - last_heard > PING_AFTER {
                        pinged = Some(now);
                        self.pings += 1;
                        line = Some("ping");
                    } else if options.tournament && now - polled > TOURNAMENT_POLL {
                        polled = now;
                        line = Some("resume_games");
                    }
                    if let Some(line) = line {
                        if let Err(error) = send(&mut stream, line, log) {
                            return Ended::Lost(error);
                        }
                    }
                }
                Received::Dropped(length) => {
                    last_heard = now;
                    pinged = None;
                    log(format!("dropped a line of {length} bytes from the server"));
                }
                Received::Line(line) => {
                    last_heard = now;
                    pinged = None;
                    let incoming = messages::read(&line);
                    if let Err(error) = self.on(incoming, &line, now, &mut stream, log) {
                        return Ended::Lost(error);
                    }
                }
            }
        }
    }

    /// Sends the login and waits for its answer; creates the account when asked to and it is
    /// unknown.
    fn login(
        &mut self,
        stream: &mut TcpStream,
        reader: &mut LineReader<TcpStream>,
        log: &mut dyn FnMut(String),
    ) -> Result<(), Ended> {
        let options = &self.options;
        let line = messages::login(
            &options.server_version,
            false,
            &options.user,
            &options.password,
        );
        send(stream, &line, log).map_err(Ended::Lost)?;
        let mut created = false;
        let started = Instant::now();
        while started.elapsed() < LOGIN_WITHIN {
            let line = match reader.next() {
                Ok(Received::Line(line)) => line,
                Ok(Received::Closed) => {
                    return Err(Ended::Lost(
                        "the server closed the connection at login".into(),
                    ));
                }
                Ok(_) => continue,
                Err(error) => return Err(Ended::Lost(format!("read error at login: {error}"))),
            };
            match messages::read(&line) {
                Incoming::LoggedIn => {
                    log(format!("logged in as {}", options.user));
                    return Ok(());
                }
                Incoming::LoginRefused(why) => {
                    if why.contains("wrong_version") {
                        return Err(Ended::Fatal(format!(
                            "the server refuses the login's version id {} (--server-version)",
                            options.server_version
                        )));
                    }
                    if why.contains("account_not_in_database") && options.create_account && !created
                    {
                        created = true;
                        log(format!("creating the account {}", options.user));
                        let line = messages::login(
                            &options.server_version,
                            true,
                            &options.user,
                            &options.password,
                        );
                        send(stream, &line, log).map_err(Ended::Lost)?;
                        continue;
                    }
                    if why.contains("logged_in_already") || why.contains("retried_too_soon") {
                        return Err(Ended::Lost(format!("login refused for now: {why}")));
                    }
                    return Err(Ended::Fatal(format!("the server refuses the login: {why}")));
                }
                _ => log(format!("before login: {line}")),
            }
        }
        Err(Ended::Lost("no answer to the login".into()))
    }

    /// Offers a game when asked to (`--new-game`), none of ours is on offer or under way, the
    /// census is over, and more games are wanted.
    fn offer(&mut self, stream: &mut TcpStream, log: &mut dyn FnMut(String)) -> Result<(), String> {
        let Some(side) = self.options.new_game else {
            return Ok(());
        };
        let wanted = self
            .options
            .games
            .is_none_or(|games| self.results.len() + self.active.len() + self.offers.len() < games);
        if !wanted
            || self.offer_sent
            || !self.offers.is_empty()
            || !self.active.is_empty()
            || self.census.is_some()
        {
            return Ok(());
        }
        self.offer_sent = true;
        let line = messages::new_game(
            side,
            self.options.rated,
            self.options.clock,
            self.options.size,
        );
        send(stream, &line, log)
    }

    /// The server named game `id` (asked for a move in it, or sent its record): it is under
    /// way. During a census after a login, the game is resumed: its record's new moves will be
    /// logged.
    fn heard_of(&mut self, id: GameId, log: &mut dyn FnMut(String)) {
        if let Some(census) = self.census.as_mut() {
            let known = census.unheard.remove(&id);
            if census.after_login && (known || !self.active.contains(&id)) {
                if known {
                    log(format!("game {id}: resumed after the new login"));
                } else {
                    log(format!(
                        "game {id}: under way on the server before this login: resumed"
                    ));
                }
                self.catching_up.insert(id);
            }
        }
        self.active.insert(id);
    }

    /// Acts on one line from the server (`text` as it came, for the log).
    fn on(
        &mut self,
        incoming: Incoming,
        text: &str,
        now: Instant,
        stream: &mut TcpStream,
        log: &mut dyn FnMut(String),
    ) -> Result<(), String> {
        match incoming {
            Incoming::GenerateMove { id, .. } => {
                self.heard_of(id, log);
                self.offers.retain(|&offer| offer != id);
                self.asked.entry(id).or_insert(now);
                send(stream, &format!("resume_game_json {id}"), log)?;
            }
            Incoming::Record(record) => {
                let id = record.id;
                if self
                    .census
                    .as_ref()
                    .is_some_and(|census| census.unheard.contains(&id))
                {
                    self.heard_of(id, log);
                }
                if self.active.contains(&id) {
                    self.follow(&record, stream, log)?;
                }
            }
            Incoming::MoveAccepted => {
                if let Some((id, ..)) = self.pending.take() {
                    self.asked.remove(&id);
                    if let Some(plies) = self.plies.get_mut(&id) {
                        *plies += 1;
                    }
                }
            }
            Incoming::MoveRefused(why) => match self.pending.take() {
                Some((id, m, _)) => {
                    log(format!("game {id}: the server refused our move {m}: {why}"));
                    let plies = self.plies.get(&id).copied().unwrap_or(0);
                    let entry = self.refused.entry(id).or_insert((plies, Vec::new()));
                    if entry.0 != plies {
                        *entry = (plies, Vec::new());
                    }
                    entry.1.push(m);
                    send(stream, &format!("resume_game_json {id}"), log)?;
                }
                None => log(format!("the server refused a command: {why}")),
            },
            Incoming::GameOver { id, winner } => {
                let how = format!("{} won", role_word(winner));
                if !self.finish(id, how.clone(), log) {
                    log(format!(
                        "game {id} over ({how}): not a game of ours under way: not counted"
                    ));
                }
            }
            Incoming::Drawn => self.drawn(stream, log)?,
            Incoming::Offered(id) => {
                self.offer_sent = false;
                self.offers.push(id);
                log(format!("offered game {id}"));
            }
            Incoming::ChallengeRequested(id) => {
                if self.offers.contains(&id) {
                    send(stream, &format!("join_game {id}"), log)?;
                }
            }
            Incoming::OpenGames(games) => {
                if self.census.is_some() {
                    self.deferred.extend(games);
                } else {
                    self.join_one(games, stream, log)?;
                }
            }
            Incoming::DrawOffered(id) => {
                // Declining (`draw ID decline`) ends the game on the server: say nothing.
                log(format!("game {id}: a draw offered, not taken"));
            }
            Incoming::LoginRefused(why) => log(format!("unexpected: {why}")),
            Incoming::Played { id, side, from, to } => {
                log(format!("game {id}: {} played {from}-{to}", role_word(side)));
                if let Some(plies) = self.plies.get_mut(&id) {
                    *plies += 1;
                }
            }
            Incoming::JoinRequested(id) => log(format!("asked to join game {id}")),
            Incoming::GameStarted => log(text.to_string()),
            Incoming::Pong => {
                self.pongs += 1;
                if self
                    .census
                    .as_ref()
                    .is_some_and(|census| self.pongs >= census.pongs)
                {
                    self.census_over(stream, log)?;
                }
            }
            Incoming::LoggedIn | Incoming::Other => {}
        }
        Ok(())
    }

    /// `= draw accept`, which names no game: the one game under way, if there is one; else a
    /// census says which game the server no longer has.
    fn drawn(&mut self, stream: &mut TcpStream, log: &mut dyn FnMut(String)) -> Result<(), String> {
        let unheard = self.census.as_ref().map(|census| &census.unheard);
        let mut under_way: Vec<GameId> = self
            .active
            .iter()
            .chain(unheard.into_iter().flatten())
            .copied()
            .collect();
        if under_way.len() == 1 {
            self.finish(under_way[0], "drawn".to_string(), log);
            return Ok(());
        }
        if under_way.is_empty() {
            log(
                "a game was drawn (= draw accept), but no game of ours is under way: not counted"
                    .into(),
            );
            return Ok(());
        }
        under_way.sort_unstable();
        log(format!(
            "a game was drawn (= draw accept, which names no game) and {} are under way: asking \
             the server which it still has",
            under_way.len()
        ));
        // Each game under way is named again by its record; a game the server no longer has
        // gets no answer. The ping's answer comes after them all.
        self.pings += 1;
        let census = self.census.get_or_insert_with(|| Census {
            since: Instant::now(),
            pongs: 0,
            unheard: HashSet::new(),
            after_login: false,
            draws: 0,
        });
        census.since = Instant::now();
        census.pongs = self.pings;
        census.draws += 1;
        census.unheard.extend(self.active.drain());
        for id in under_way {
            send(stream, &format!("resume_game_json {id}"), log)?;
        }
        send(stream, "ping", log)
    }

    /// The census is over: the games the server did not name are gone: drawn, if as many are
    /// gone as draws were announced; else forgotten, not counted. Then the client goes back to
    /// its work: joins the game of `--join`, or one of those listed meanwhile.
    fn census_over(
        &mut self,
        stream: &mut TcpStream,
        log: &mut dyn FnMut(String),
    ) -> Result<(), String> {
        let Some(census) = self.census.take() else {
            return Ok(());
        };
        let mut gone: Vec<GameId> = census.unheard.into_iter().collect();
        gone.sort_unstable();
        if census.draws > 0 && gone.len() == census.draws {
            for id in gone.drain(..) {
                self.count(id, "drawn".to_string(), log);
            }
        } else if census.draws > 0 {
            log(format!(
                "{} draw(s) announced without a game's id, and {} of our games gone: cannot \
                 tell which were drawn: not counted",
                census.draws,
                gone.len()
            ));
        }
        for id in gone {
            if census.after_login {
                log(format!(
                    "game {id}: the server no longer has it after the new login (restarted?): \
                     forgotten, not counted"
                ));
            } else {
                log(format!(
                    "game {id}: the server no longer has it: forgotten, not counted"
                ));
            }
            self.forget(id);
        }
        if let Some(id) = self.options.join {
            let played = self.results.iter().any(|(game, _)| *game == id);
            if !played && !self.active.contains(&id) && self.joined.insert(id) {
                send(stream, &format!("join_game_pending {id}"), log)?;
            }
        }
        let deferred = std::mem::take(&mut self.deferred);
        self.join_one(deferred, stream, log)
    }

    /// With `--join-any`, asks to play the first of `games` it can play, if no game is under
    /// way and the census is over.
    fn join_one(
        &mut self,
        games: Vec<messages::OpenGame>,
        stream: &mut TcpStream,
        log: &mut dyn FnMut(String),
    ) -> Result<(), String> {
        if !self.options.join_any || !self.active.is_empty() || self.census.is_some() {
            return Ok(());
        }
        let user = self.options.user.clone();
        for game in games {
            if game.creator != user
                && [7, 11, 13].contains(&game.size)
                && self.joined.insert(game.id)
            {
                return send(stream, &format!("join_game_pending {}", game.id), log);
            }
        }
        Ok(())
    }

    /// A game is over: counted, forgotten; `false` if it is not one of ours under way.
    fn finish(&mut self, id: GameId, how: String, log: &mut dyn FnMut(String)) -> bool {
        // One of ours: under way, or under way before and not yet named again.
        let unheard = self
            .census
            .as_mut()
            .is_some_and(|census| census.unheard.remove(&id));
        if !self.active.remove(&id) && !unheard {
            return false; // Not one of ours (or counted already).
        }
        self.count(id, how, log);
        true
    }

    /// Counts game `id` as over, `how`.
    fn count(&mut self, id: GameId, how: String, log: &mut dyn FnMut(String)) {
        // Our last move, if it ended the game, is not in the last record we read.
        let ours = self
            .pending
            .as_ref()
            .is_some_and(|(pending, ..)| *pending == id);
        if ours {
            self.pending = None;
        }
        let plies = self.plies.get(&id).copied().unwrap_or(0) + usize::from(ours);
        self.forget(id);
        log(format!("game {id} over after {plies} moves: {how}"));
        self.results.push((id, how));
    }

    /// Drops what the client keeps about game `id`.
    fn forget(&mut self, id: GameId) {
        self.active.remove(&id);
        self.asked.remove(&id);
        self.refused.remove(&id);
        self.plies.remove(&id);
        self.catching_up.remove(&id);
        if self.pending.as_ref().is_some_and(|(game, ..)| *game == id) {
            self.pending = None;
        }
        if self
            .lost_move
            .as_ref()
            .is_some_and(|(game, ..)| *game == id)
        {
            self.lost_move = None;
        }
    }

    /// Takes a game's record: the game as it stands; our move if it is our turn.
    fn follow(
        &mut self,
        record: &messages::Record,
        stream: &mut TcpStream,
        log: &mut dyn FnMut(String),
    ) -> Result<(), String> {
        let id = record.id;
        match AnyTable::from_record(record, &self.options.user) {
            Ok(AnyTable::Narrow(table)) => self.play(id, table, &record.moves, stream, log),
            Ok(AnyTable::Wide(table)) => self.play(id, table, &record.moves, stream, log),
            Err(why) => {
                log(format!("game {id}: cannot follow it: {why}"));
                Ok(())
            }
        }
    }

    /// Logs the moves of a resumed game's record that the client has not seen (`known`
    /// moves seen; `None`: none by this process), each with the side that made it.
    fn caught_up<B: Grid>(
        &self,
        id: GameId,
        table: &Table<B>,
        moves: &[String],
        known: Option<usize>,
        log: &mut dyn FnMut(String),
    ) {
        let plies = moves.len();
        let from = known.unwrap_or(0).min(plies);
        let to_move = table.game.position().side_to_move();
        let side = |ply: usize| {
            if (plies - 1 - ply) % 2 == 0 {
                !to_move
            } else {
                to_move
            }
        };
        let shown_from = from.max(plies.saturating_sub(CAUGHT_UP_SHOWN));
        let list: Vec<String> = (shown_from..plies)
            .map(|ply| {
                let whose = if side(ply) == table.us { " (ours)" } else { "" };
                format!(
                    "{}. {} {}{whose}",
                    ply + 1,
                    role_word(side(ply)),
                    moves[ply]
                )
            })
            .collect();
        let earlier = if shown_from > from {
            format!("{} earlier, then ", shown_from - from)
        } else {
            String::new()
        };
        let new = plies - from;
        let what = match known {
            Some(_) if new == 0 => "no move made while we were away".to_string(),
            Some(_) => format!(
                "{new} moves made while we were away: {earlier}{}",
                list.join(", ")
            ),
            None if plies == 0 => "no move made yet".to_string(),
            None => format!("{plies} moves made before: {earlier}{}", list.join(", ")),
        };
        log(format!(
            "game {id}: caught up at move {} (we are the {}s): {what}",
            plies + 1,
            role_word(table.us)
        ));
    }

    /// The game `id` as its record makes it, on either grid: our move if it is our turn.
    fn play<B: Grid>(
        &mut self,
        id: GameId,
        mut table: Table<B>,
        moves: &[String],
        stream: &mut TcpStream,
        log: &mut dyn FnMut(String),
    ) -> Result<(), String> {
        for line in &table.disagreements {
            log(format!("game {id}: warning: {line}"));
        }
        let plies = table.game.moves().len();
        if self.catching_up.remove(&id) && plies == moves.len() {
            let known = self.plies.get(&id).copied();
            self.caught_up(id, &table, moves, known, log);
        }
        self.plies.insert(id, plies);
        if let Some((at, moves)) = self.refused.get(&id) {
            if *at == plies {
                // Each was one of this game's moves, written by `Move<B>`: it reads back.
                table.refused = moves.iter().filter_map(|m| m.parse().ok()).collect();
            }
        }
        if let Some((pending, _, before)) = &self.pending {
            if *pending == id && plies > *before {
                // The record has our move: the server played it (its `= game` not seen).
                self.pending = None;
            }
        }
        // Our move sent on a lost connection: in the record, or to be sent again.
        let mut again = None;
        if let Some((lost, m, before)) = self.lost_move.take_if(|(lost, ..)| *lost == id) {
            if plies > before {
                log(format!(
                    "game {lost}: our move {m}, sent as the connection was lost, reached the server"
                ));
            } else {
                again = Some(m);
            }
        }
        if !table.our_turn()
            || self
                .pending
                .as_ref()
                .is_some_and(|(pending, ..)| *pending == id)
        {
            return Ok(());
        }
        if table.refused.len() >= MAX_REFUSED {
            log(format!(
                "game {id}: {MAX_REFUSED} moves refused here: no more"
            ));
            return Ok(());
        }
        let allowed = table.allowed();
        if allowed.is_empty() {
            log(format!("game {id}: no move left to send"));
            return Ok(());
        }
        let asked = self.asked.get(&id).copied().unwrap_or_else(Instant::now);
        let budget = table
            .budget(self.options.move_time)
            .saturating_sub(asked.elapsed())
            .max(Duration::from_millis(20));
        let result = remote::search_within(
            &mut self.searcher,
            &table.game,
            budget,
            table.refused.len() + 1,
        );
        let Some(choice) = remote::choose(&result, &allowed) else {
            return Ok(());
        };
        let line = messages::play(
            id,
            table.us,
            &choice.from().to_string(),
            &choice.to().to_string(),
        );
        let again = again.map_or(String::new(), |lost| {
            format!(
                " (sent again: our move {lost} went out as the connection was lost and the \
                 server's record lacks it)"
            )
        });
        log(format!(
            "game {id}: we ({}) play {choice} at move {}: depth {}, score {}, {} nodes, {:.2} s{again}",
            role_word(table.us),
            plies + 1,
            result.depth,
            result.score,
            result.nodes,
            asked.elapsed().as_secs_f64()
        ));
        self.pending = Some((id, choice.to_string(), plies));
        send(stream, &line, log)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_waits_double_up_to_the_cap() {
        let second = Duration::from_secs(1);
        let cap = Duration::from_secs(30);
        let waits: Vec<u64> = (1..=8)
            .map(|attempt| retry_wait(attempt, second, cap).as_secs())
            .collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 30, 30, 30]);
        // No overflow however long the outage.
        assert_eq!(retry_wait(u32::MAX, second, cap), cap);
        assert_eq!(retry_wait(1000, Duration::from_millis(10), cap), cap);
    }

    #[test]
    fn durations_are_said_as_a_reader_counts_them() {
        assert_eq!(said(Duration::from_millis(250)), "250 ms");
        assert_eq!(said(Duration::from_secs(4)), "4 s");
        assert_eq!(said(Duration::from_millis(1500)), "1.5 s");
        assert_eq!(said(Duration::from_secs(200)), "3 min 20 s");
    }
}
