//! Load test of tafl-web (scripts/web-load.sh and scripts/web-load-machines.sh run it; not a
//! timed test): N simulated players on loopback for S seconds, each playing Tablut, Copenhagen
//! or Brandub against the engine at its fastest level (100 ms a move).
//!
//! `load SERVER_BINARY [PLAYERS] [SECONDS]`: on a server of its own (a SQLite file), then
//! `kill -9` of the server, a restart on the same database, and a check that every
//! acknowledged move is there.
//!
//! `load --at URL [PLAYERS] [SECONDS]`: on servers started by someone else (a balancer in front
//! of several, killed and restarted meanwhile by web-load-machines.sh); after the time every
//! acknowledged move is read back through URL. The last lines, `RESULT ...` and `CHECK ...`,
//! are for scripts.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

struct Server {
    child: Child,
    address: String,
}

fn start(binary: &str, listen: &str, db: &str) -> Server {
    let mut child = Command::new(binary)
        // No limit on new games from one address (all players share loopback); the per-game
        // rate limit stays as shipped.
        .args(["--listen", listen, "--db", db, "--burst", "1000"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("piped"))
        .read_line(&mut line)
        .expect("its address");
    let address = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .expect("an address")
        .to_owned();
    Server { child, address }
}

/// Peak resident memory of a process, in KiB (Linux).
fn peak_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

#[derive(Default)]
struct Tally {
    /// Latencies of the requests that do not search, in microseconds, by kind.
    latencies: Vec<u64>,
    /// Those sent from the 10th second on: past the start, when every player creates a game
    /// and makes a first move in the same instant.
    steady: Vec<u64>,
    by_kind: HashMap<&'static str, Vec<u64>>,
    /// Errors after the kill (expected: the server is gone).
    after_kill: u64,
    /// Failed requests and broken streams before it: seconds since the start, and what.
    errors: Vec<(f64, String)>,
    /// Every acknowledged game: its id and its moves as last acknowledged.
    games: HashMap<String, Vec<String>>,
    engine_moves: u64,
    person_moves: u64,
    finished: u64,
    /// The wait of each engine move, from the moment the player saw the engine to move to the
    /// moment it had the move, in microseconds.
    waits: Vec<u64>,
    /// The players waiting for the engine's move now, since when.
    waiting: HashMap<u64, Instant>,
}

/// What every player shares: where to play, when to stop, what to count.
struct Shared {
    base: String,
    stop: AtomicBool,
    /// Set just before the run's own server is killed: errors after it are expected.
    killed: AtomicBool,
    tally: Mutex<Tally>,
    started: Instant,
}

impl Shared {
    fn error(&self, what: String) {
        let mut t = self.tally.lock().expect("tally");
        if self.killed.load(Ordering::SeqCst) {
            t.after_kill += 1;
        } else if !self.stop.load(Ordering::SeqCst) {
            t.errors.push((self.started.elapsed().as_secs_f64(), what));
        }
    }

    /// The engine's move is in `state` (or the game is over): the wait that began at `since`
    /// ends.
    fn settle(&self, player: u64, id: &str, since: &mut Option<Instant>, state: &Value) {
        if state["engine_to_move"] == json!(true) {
            return;
        }
        let mut t = self.tally.lock().expect("tally");
        t.games.insert(id.to_owned(), moves_of(state));
        if let Some(since) = since.take() {
            t.waits.push(since.elapsed().as_micros() as u64);
            t.waiting.remove(&player);
            t.engine_moves += 1;
        }
    }
}

fn moves_of(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| m["move"].as_str().unwrap_or_default().to_owned())
        .collect()
}

fn request(
    agent: &ureq::Agent,
    method: &str,
    url: &str,
    body: Option<Value>,
    secret: Option<&str>,
) -> Result<Value, String> {
    let mut call = agent.request(method, url);
    if let Some(secret) = secret {
        // The seat's secret, as the page sends it.
        call = call.set("authorization", &format!("Bearer {secret}"));
    }
    let result = match body {
        Some(b) => call.send_json(b),
        None => call.call(),
    };
    match result {
        Ok(r) => r.into_json().map_err(|e| e.to_string()),
        Err(ureq::Error::Status(code, r)) => Err(format!(
            "{method} {url}: {code} {}",
            r.into_string().unwrap_or_default()
        )),
        Err(e) => Err(format!("{method} {url}: {e}")),
    }
}

/// One simulated player, `number`, until the run stops: a game against the engine after
/// another. A failed request or a broken stream (a server killed) is counted, and the player
/// reads the game again (every 0.5 s, for up to a minute) and goes on from what is stored.
fn player(number: u64, seed: u64, run: Arc<Shared>) {
    let base = run.base.as_str();
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(120))
        .build();
    let mut random = seed | 1;
    let mut pick = |n: usize| {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        (random % n as u64) as usize
    };
    let timed = |method: &str, url: &str, body: Option<Value>, secret: Option<&str>| {
        let started = Instant::now();
        let result = request(&agent, method, url, body, secret);
        let micros = started.elapsed().as_micros() as u64;
        let kind = match (method, url.ends_with("/moves")) {
            ("GET", _) => "GET game",
            (_, true) => "POST move",
            _ => "POST new game",
        };
        match &result {
            Ok(_) => {
                let mut t = run.tally.lock().expect("tally");
                t.latencies.push(micros);
                if started.duration_since(run.started) >= Duration::from_secs(10) {
                    t.steady.push(micros);
                }
                t.by_kind.entry(kind).or_default().push(micros);
            }
            Err(e) => run.error(e.clone()),
        }
        result
    };
    let read_again = |id: &str| -> Option<Value> {
        for _ in 0..120 {
            std::thread::sleep(Duration::from_millis(500));
            if run.stop.load(Ordering::Relaxed) {
                return None;
            }
            if let Ok(state) = request(&agent, "GET", &format!("{base}/api/games/{id}"), None, None)
            {
                return Some(state);
            }
        }
        None
    };
    while !run.stop.load(Ordering::Relaxed) {
        let variant = ["tablut", "copenhagen", "brandub"][pick(3)];
        let human = ["attackers", "defenders"][pick(2)];
        let Ok(mut state) = timed(
            "POST",
            &format!("{base}/api/games"),
            Some(json!({"variant": variant, "human": human, "level": 0})),
            None,
        ) else {
            std::thread::sleep(Duration::from_secs(1));
            continue;
        };
        let id = state["id"].as_str().unwrap_or_default().to_owned();
        let owned = state["secret"].as_str().unwrap_or_default().to_owned();
        let secret = Some(owned.as_str());
        run.tally
            .lock()
            .expect("tally")
            .games
            .insert(id.clone(), Vec::new());
        let mut since: Option<Instant> = None;
        while !run.stop.load(Ordering::Relaxed) && state["finished"] != json!(true) {
            if state["engine_to_move"] == json!(true) {
                if since.is_none() {
                    let now = Instant::now();
                    since = Some(now);
                    run.tally.lock().expect("tally").waiting.insert(number, now);
                }
                let url = format!("{base}/api/games/{id}/think?for=move");
                let call = agent
                    .get(&url)
                    .set("authorization", &format!("Bearer {owned}"));
                let response = match call.call() {
                    Ok(response) => response,
                    // The engine plays by itself: its move may be in before this asks.
                    Err(ureq::Error::Status(409, _)) => {
                        match read_again(&id) {
                            Some(now) => state = now,
                            None => break,
                        }
                        run.settle(number, &id, &mut since, &state);
                        continue;
                    }
                    Err(e) => {
                        run.error(format!("think {id}: {e}"));
                        match read_again(&id) {
                            Some(now) => state = now,
                            None => break,
                        }
                        run.settle(number, &id, &mut since, &state);
                        continue;
                    }
                };
                let mut next = None;
                let mut event = String::new();
                for line in BufReader::new(response.into_reader()).lines() {
                    let Ok(line) = line else { break };
                    if let Some(name) = line.strip_prefix("event: ") {
                        event = name.to_owned();
                    } else if let Some(data) = line.strip_prefix("data: ")
                        && event == "state"
                    {
                        next = serde_json::from_str::<Value>(data)
                            .ok()
                            .map(|v| v["state"].clone());
                        break;
                    }
                }
                match next {
                    Some(next) => state = next,
                    None => {
                        // The stream broke (its server killed, say): the move may come later.
                        run.error(format!("no engine move in {id}"));
                        match read_again(&id) {
                            Some(now) => state = now,
                            None => break,
                        }
                    }
                }
                run.settle(number, &id, &mut since, &state);
            } else {
                let legal: Vec<String> = state["legal"]
                    .as_object()
                    .into_iter()
                    .flatten()
                    .flat_map(|(f, ts)| {
                        ts.as_array()
                            .into_iter()
                            .flatten()
                            .map(move |t| format!("{f}-{}", t.as_str().unwrap_or_default()))
                    })
                    .collect();
                if legal.is_empty() {
                    break;
                }
                // A person thinks a little.
                std::thread::sleep(Duration::from_millis(200 + pick(800) as u64));
                let _ = timed("GET", &format!("{base}/api/games/{id}"), None, None);
                let text = legal[pick(legal.len())].clone();
                match timed(
                    "POST",
                    &format!("{base}/api/games/{id}/moves"),
                    Some(json!({"move": text, "ply": state["ply"]})),
                    secret,
                ) {
                    Ok(next) => {
                        state = next;
                        let mut t = run.tally.lock().expect("tally");
                        t.person_moves += 1;
                        t.games.insert(id.clone(), moves_of(&state));
                    }
                    // Not acknowledged: it may or may not be stored; read what is.
                    Err(_) => match read_again(&id) {
                        Some(now) => state = now,
                        None => break,
                    },
                }
            }
        }
        if state["finished"] == json!(true) {
            run.tally.lock().expect("tally").finished += 1;
        }
        if since.is_some() {
            run.tally.lock().expect("tally").waiting.remove(&number);
        }
    }
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index] as f64 / 1000.0
}

/// The figures of a run, printed; the last line (`RESULT key=value ...`) is for scripts.
fn report(tally: &Tally, seconds: f64) {
    let mut latencies = tally.latencies.clone();
    latencies.sort_unstable();
    println!(
        "requests without search: {} (p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms)",
        latencies.len(),
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0)
    );
    let mut steady = tally.steady.clone();
    steady.sort_unstable();
    println!(
        "  from the 10th second on: {} (p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms)",
        steady.len(),
        percentile(&steady, 0.5),
        percentile(&steady, 0.99),
        percentile(&steady, 1.0)
    );
    let mut kinds: Vec<_> = tally.by_kind.iter().collect();
    kinds.sort();
    for (kind, list) in kinds {
        let mut list = list.clone();
        list.sort_unstable();
        println!(
            "  {kind}: {} (p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, over 500 ms: {})",
            list.len(),
            percentile(&list, 0.5),
            percentile(&list, 0.9),
            percentile(&list, 0.99),
            list.iter().filter(|&&m| m > 500_000).count()
        );
    }
    let mut waits = tally.waits.clone();
    waits.sort_unstable();
    let now = Instant::now();
    let mut still: Vec<u64> = tally
        .waiting
        .values()
        .map(|since| now.duration_since(*since).as_micros() as u64)
        .collect();
    still.sort_unstable();
    println!(
        "engine moves: {} ({:.1} a second); their wait p50 {:.2} s, p99 {:.2} s; \
         players still waiting at the end: {} (for p50 {:.1} s, longest {:.1} s)",
        tally.engine_moves,
        tally.engine_moves as f64 / seconds,
        percentile(&waits, 0.5) / 1000.0,
        percentile(&waits, 0.99) / 1000.0,
        still.len(),
        percentile(&still, 0.5) / 1000.0,
        percentile(&still, 1.0) / 1000.0
    );
    println!(
        "moves: {} by the players, {} by the engine; games: {} started, {} finished",
        tally.person_moves,
        tally.engine_moves,
        tally.games.len(),
        tally.finished
    );
    println!(
        "failed requests and broken streams: {} (after the final kill: {})",
        tally.errors.len(),
        tally.after_kill
    );
    let mut by_second: Vec<u64> = tally.errors.iter().map(|(at, _)| *at as u64).collect();
    by_second.dedup();
    println!("  in the seconds {by_second:?}");
    for (at, error) in tally.errors.iter().take(5) {
        println!("  at {at:.1} s: {error}");
    }
    println!(
        "RESULT requests={} p50_ms={:.1} p99_ms={:.1} steady_p50_ms={:.1} steady_p99_ms={:.1} \
         engine_moves={} moves_per_s={:.1} \
         wait_p50_s={:.2} wait_p99_s={:.2} still_waiting={} errors={}",
        latencies.len(),
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        percentile(&steady, 0.5),
        percentile(&steady, 0.99),
        tally.engine_moves,
        tally.engine_moves as f64 / seconds,
        percentile(&waits, 0.5) / 1000.0,
        percentile(&waits, 0.99) / 1000.0,
        still.len(),
        tally.errors.len()
    );
}

/// Every acknowledged move of `games` is stored at `base` (read through its API): the number
/// of games whose stored moves do not begin with what their player last had acknowledged.
fn missing_moves(base: &str, games: &HashMap<String, Vec<String>>) -> usize {
    let agent = ureq::agent();
    let mut missing = 0;
    for (id, moves) in games {
        match request(&agent, "GET", &format!("{base}/api/games/{id}"), None, None) {
            Ok(state) => {
                let stored = moves_of(&state);
                if stored.len() < moves.len() || stored[..moves.len()] != moves[..] {
                    missing += 1;
                    println!("game {id}: acknowledged {moves:?}, stored {stored:?}");
                }
            }
            Err(e) => {
                missing += 1;
                println!("game {id}: {e}");
            }
        }
    }
    let acknowledged: usize = games.values().map(Vec::len).sum();
    println!(
        "check: {} games, {acknowledged} acknowledged moves, {missing} games missing moves",
        games.len()
    );
    println!(
        "CHECK games={} moves={acknowledged} missing={missing}",
        games.len()
    );
    missing
}

fn start_players(base: &str, players: u64) -> (Arc<Shared>, Vec<std::thread::JoinHandle<()>>) {
    let run = Arc::new(Shared {
        base: base.to_owned(),
        stop: AtomicBool::new(false),
        killed: AtomicBool::new(false),
        tally: Mutex::new(Tally::default()),
        started: Instant::now(),
    });
    let threads = (0..players)
        .map(|i| {
            let run = run.clone();
            std::thread::spawn(move || player(i, 0x9e37_79b9_7f4a_7c15 ^ (i * 7919 + 1), run))
        })
        .collect();
    (run, threads)
}

/// `load --at URL PLAYERS SECONDS`: the players play on servers started by someone else
/// (scripts/web-load-machines.sh: a balancer in front of several, which it kills and restarts
/// meanwhile); after the time they stop and every acknowledged move is read back through URL.
fn at(base: &str, players: u64, seconds: u64) {
    println!("{players} players at {base} for {seconds} s");
    let (run, _threads) = start_players(base, players);
    std::thread::sleep(Duration::from_secs(seconds));
    run.stop.store(true, Ordering::SeqCst);
    // The figures as they were when the time ran out (players waiting on a stream stay so).
    let tally = std::mem::take(&mut *run.tally.lock().expect("tally"));
    report(&tally, seconds as f64);
    let missing = missing_moves(base, &tally.games);
    // Players still waiting on a stream are left: the process ends here.
    std::process::exit(i32::from(missing > 0));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).is_some_and(|a| a == "--at") {
        let base = args
            .get(2)
            .expect("usage: load --at URL [PLAYERS] [SECONDS]");
        let players = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(200);
        let seconds = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(60);
        at(base, players, seconds);
        return;
    }
    let binary = args
        .get(1)
        .expect("usage: load SERVER_BINARY [PLAYERS] [SECONDS] | load --at URL [PLAYERS] [SECONDS]")
        .clone();
    let players: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(200);
    let seconds: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(60);
    let dir = std::env::temp_dir().join(format!("tafl-web-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let db = dir.join("games.sqlite").display().to_string();
    let mut server = start(&binary, "127.0.0.1:0", &db);
    let base = format!("http://{}", server.address);
    println!(
        "server {} pid {}, {players} players for {seconds} s",
        base,
        server.child.id()
    );
    let (run, threads) = start_players(&base, players);
    std::thread::sleep(Duration::from_secs(seconds));
    let peak = peak_kib(server.child.id());
    let status = request(
        &ureq::agent(),
        "GET",
        &format!("{base}/api/status"),
        None,
        None,
    )
    .unwrap_or(Value::Null);
    // kill -9 while the players are still playing.
    run.killed.store(true, Ordering::SeqCst);
    server.child.kill().expect("kill -9");
    let _ = server.child.wait();
    run.stop.store(true, Ordering::Relaxed);
    for thread in threads {
        let _ = thread.join();
    }
    let tally = run.tally.lock().expect("tally");
    report(&tally, seconds as f64);
    println!("server at the end: {status}");
    println!(
        "peak resident memory of the server: {:.1} MiB",
        peak as f64 / 1024.0
    );
    // Restart on the same database: every acknowledged move is there.
    let mut again = start(&binary, "127.0.0.1:0", &db);
    let missing = missing_moves(&format!("http://{}", again.address), &tally.games);
    let _ = again.child.kill();
    let _ = again.child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    if missing > 0 || !tally.errors.is_empty() {
        std::process::exit(1);
    }
}
