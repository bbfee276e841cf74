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
//! After a new login the client goes back to its work: the games under way before are set
//! aside until the server asks for them again (it does at login for every game it has); those
//! it does not ask for by the answer to a `ping` (or within [`RESUME_WITHIN`]) are forgotten,
//! not counted (a server restarted from an older state has lost them and counts its game ids
//! again), and the client offers or joins games again as its options say.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use tafl_engine::Board;
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
/// After a new login, how long the client waits for the server to ask again for the games that
/// were under way (it asks at login) before it forgets them and goes back to offering or joining.
/// The answer to a `ping` sent after the login usually ends the wait sooner.
const RESUME_WITHIN: Duration = Duration::from_secs(10);
/// Connection attempts in a row before the client gives up.
const MAX_ATTEMPTS: u32 = 12;
/// A move the server refuses is replaced by another; after this many in one position, the
/// client stops trying (it would only be refusing them all).
const MAX_REFUSED: usize = 16;

/// How a session (one connection) ended.
#[derive(Debug)]
enum Ended {
    /// The games asked for are played.
    Done,
    /// Lost: connect again (after a wait).
    Lost(String),
    /// Cannot go on (a wrong password, another server version).
    Fatal(String),
}

/// The client's state: what lasts across connections.
pub struct Client {
    options: Options,
    searcher: Searcher,
    /// The games the server has asked us to play in, not yet over.
    active: HashSet<GameId>,
    /// Games that were under way when the connection was lost, until the server asks for them
    /// again (then they are `active`) or the wait for them ends (then they are forgotten: a
    /// server restarted from an older state no longer has them).
    stale: HashSet<GameId>,
    /// Since when, after a new login with `stale` games, the client waits for the server to
    /// ask for them before it offers or joins games: `None` when it does not wait.
    resuming: Option<Instant>,
    /// Games listed as open while the client waited (`resuming`): joined from once it ends.
    deferred: Vec<messages::OpenGame>,
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

/// Writes one line to the server.
fn send(stream: &mut TcpStream, line: &str, log: &mut dyn FnMut(String)) -> Result<(), String> {
    if !line.contains(" login ") && !line.contains(" create_account ") {
        log(format!("> {line}"));
    }
    stream
        .write_all(format!("{line}\n").as_bytes())
        .map_err(|error| format!("could not send to the server: {error}"))
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
            stale: HashSet::new(),
            resuming: None,
            deferred: Vec::new(),
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
        let mut attempts = 0;
        loop {
            match self.session(&mut attempts, log) {
                Ended::Done => {
                    log(format!("done: {} games played", self.results.len()));
                    return 0;
                }
                Ended::Fatal(why) => {
                    log(format!("error: {why}"));
                    return 1;
                }
                Ended::Lost(why) => {
                    attempts += 1;
                    if attempts >= MAX_ATTEMPTS {
                        log(format!("error: {why}; giving up after {attempts} attempts"));
                        return 1;
                    }
                    let wait = Duration::from_secs(1 << attempts.min(5));
                    log(format!(
                        "connection lost: {why}; connecting again in {} s",
                        wait.as_secs()
                    ));
                    std::thread::sleep(wait);
                }
            }
        }
    }

    /// One connection: login, then the server's lines until the connection ends.
    fn session(&mut self, attempts: &mut u32, log: &mut dyn FnMut(String)) -> Ended {
        let options = self.options.clone();
        let mut stream = match remote::connect(&options.host, options.port) {
            Ok(stream) => stream,
            Err(error) => return Ended::Lost(error),
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
        *attempts = 0;
        let mut hello = vec![format!(
            "software_id tafl-engine-{}",
            env!("CARGO_PKG_VERSION")
        )];
        if options.tournament {
            hello.push("join_tournament".to_string());
            hello.push("resume_games".to_string());
        }
        // Whatever was under way may be gone: a server killed and restarted from an older state
        // has lost the games since, and counts its ids again from there. The games under way
        // are kept aside until the server asks for them again (it does at login, for every
        // game it still has); the games asked to join are asked again.
        self.stale.extend(self.active.drain());
        self.joined.clear();
        self.deferred.clear();
        if let Some(id) = options.join {
            let played = self.results.iter().any(|(game, _)| *game == id);
            if !played && !self.stale.contains(&id) && self.joined.insert(id) {
                hello.push(format!("join_game_pending {id}"));
            }
        }
        // The answer to this ping comes after the server's lines about the login.
        self.resuming = None;
        if !self.stale.is_empty() {
            hello.push("ping".to_string());
            self.resuming = Some(Instant::now());
        }
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
        self.pending = None;
        self.asked.clear();
        let mut last_heard = Instant::now();
        let mut pinged: Option<Instant> = None;
        let mut polled = Instant::now();
        loop {
            if self.done() {
                return Ended::Done;
            }
            if self
                .resuming
                .is_some_and(|since| since.elapsed() > RESUME_WITHIN)
            {
                if let Err(error) = self.resumed(&mut stream, log) {
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

    /// Offers a game when asked to (`--new-game`), none of ours is on offer or under way, and
    /// more games are wanted.
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
            || self.resuming.is_some()
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
                self.stale.remove(&id);
                self.active.insert(id);
                self.offers.retain(|&offer| offer != id);
                self.asked.entry(id).or_insert(now);
                send(stream, &format!("resume_game_json {id}"), log)?;
            }
            Incoming::Record(record) => {
                if self.active.contains(&record.id) {
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
                self.finish(id, how, log);
            }
            Incoming::Drawn => {
                // The server does not say which game: the one our move ended, else the only
                // one under way, else one at the move limit.
                let id =
                    self.pending
                        .as_ref()
                        .map(|(id, ..)| *id)
                        .or_else(|| {
                            let mut active = self.active.iter().copied();
                            active.next().filter(|_| active.next().is_none())
                        })
                        .or_else(|| {
                            self.active.iter().copied().find(|id| {
                                self.plies.get(id).is_some_and(|&plies| plies + 1 >= 141)
                            })
                        });
                match id {
                    Some(id) => self.finish(id, "drawn".to_string(), log),
                    None => log("a game was drawn, but none of ours looks like it".to_string()),
                }
            }
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
                if self.resuming.is_some() {
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
                if self.resuming.is_some() {
                    self.resumed(stream, log)?;
                }
            }
            Incoming::LoggedIn | Incoming::Other => {}
        }
        Ok(())
    }

    /// With `--join-any`, asks to play the first of `games` it can play, if no game is under
    /// way.
    fn join_one(
        &mut self,
        games: Vec<messages::OpenGame>,
        stream: &mut TcpStream,
        log: &mut dyn FnMut(String),
    ) -> Result<(), String> {
        if !self.options.join_any || !self.active.is_empty() {
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

    /// The wait after a new login is over: the games the server has not asked for again are
    /// forgotten (not counted: they never ended), and the client goes back to its work.
    fn resumed(
        &mut self,
        stream: &mut TcpStream,
        log: &mut dyn FnMut(String),
    ) -> Result<(), String> {
        self.resuming = None;
        let mut lost: Vec<GameId> = self.stale.drain().collect();
        lost.sort_unstable();
        for id in lost {
            log(format!(
                "game {id}: the server no longer has it after the new login (restarted?): \
                 forgotten, not counted"
            ));
            self.asked.remove(&id);
            self.refused.remove(&id);
            self.plies.remove(&id);
        }
        let deferred = std::mem::take(&mut self.deferred);
        self.join_one(deferred, stream, log)
    }

    /// A game is over: counted, forgotten.
    fn finish(&mut self, id: GameId, how: String, log: &mut dyn FnMut(String)) {
        // One of ours: under way, or under way before the connection was lost.
        if !self.active.remove(&id) && !self.stale.remove(&id) {
            return; // Not one of ours (or counted already).
        }
        // Our last move, if it ended the game, is not in the last record we read.
        let ours = self
            .pending
            .as_ref()
            .is_some_and(|(pending, ..)| *pending == id);
        if ours {
            self.pending = None;
        }
        self.asked.remove(&id);
        self.refused.remove(&id);
        let plies = self.plies.remove(&id).unwrap_or(0) + usize::from(ours);
        log(format!("game {id} over after {plies} moves: {how}"));
        self.results.push((id, how));
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
            Ok(AnyTable::Narrow(table)) => self.play(id, table, stream, log),
            Ok(AnyTable::Wide(table)) => self.play(id, table, stream, log),
            Err(why) => {
                log(format!("game {id}: cannot follow it: {why}"));
                Ok(())
            }
        }
    }

    /// The game `id` as its record makes it, on either grid: our move if it is our turn.
    fn play<B: Board>(
        &mut self,
        id: GameId,
        mut table: Table<B>,
        stream: &mut TcpStream,
        log: &mut dyn FnMut(String),
    ) -> Result<(), String> {
        for line in &table.disagreements {
            log(format!("game {id}: warning: {line}"));
        }
        let plies = table.game.moves().len();
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
        log(format!(
            "game {id}: we ({}) play {choice} at move {}: depth {}, score {}, {} nodes, {:.2} s",
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
