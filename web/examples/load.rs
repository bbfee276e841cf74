//! Load test of tafl-web (scripts/web-load.sh runs it; not a timed test): N simulated players on
//! loopback for S seconds, each playing Tablut or Copenhagen against the engine at its fastest
//! level (100 ms a move); then `kill -9` of the server, a restart on the same database, and a
//! check that every acknowledged move is there.
//!
//! `cargo run --release -p tafl-web --example load -- SERVER_BINARY [PLAYERS] [SECONDS]`

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
    by_kind: HashMap<&'static str, Vec<u64>>,
    /// Errors after the kill (expected: the server is gone).
    after_kill: u64,
    errors: Vec<String>,
    /// Every acknowledged game: its id and its moves as last acknowledged.
    games: HashMap<String, Vec<String>>,
    engine_moves: u64,
    person_moves: u64,
    finished: u64,
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

fn player(
    base: String,
    seed: u64,
    stop: Arc<AtomicBool>,
    killed: Arc<AtomicBool>,
    tally: Arc<Mutex<Tally>>,
) {
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
        let mut t = tally.lock().expect("tally");
        let kind = match (method, url.ends_with("/moves")) {
            ("GET", _) => "GET game",
            (_, true) => "POST move",
            _ => "POST new game",
        };
        match &result {
            Ok(_) => {
                t.latencies.push(micros);
                t.by_kind.entry(kind).or_default().push(micros);
            }
            Err(_) if killed.load(Ordering::SeqCst) => t.after_kill += 1,
            Err(e) => t.errors.push(e.clone()),
        }
        result
    };
    while !stop.load(Ordering::Relaxed) {
        let variant = ["tablut", "copenhagen", "brandub"][pick(3)];
        let human = ["attackers", "defenders"][pick(2)];
        let Ok(mut state) = timed(
            "POST",
            &format!("{base}/api/games"),
            Some(json!({"variant": variant, "human": human, "level": 0})),
            None,
        ) else {
            return;
        };
        let id = state["id"].as_str().unwrap_or_default().to_owned();
        let owned = state["secret"].as_str().unwrap_or_default().to_owned();
        let secret = Some(owned.as_str());
        tally
            .lock()
            .expect("tally")
            .games
            .insert(id.clone(), Vec::new());
        while !stop.load(Ordering::Relaxed) && state["finished"] != json!(true) {
            if state["engine_to_move"] == json!(true) {
                let url = format!("{base}/api/games/{id}/think?for=move");
                let call = agent
                    .get(&url)
                    .set("authorization", &format!("Bearer {owned}"));
                let response = match call.call() {
                    Ok(response) => response,
                    // The engine plays by itself: its move may be in before this asks.
                    Err(ureq::Error::Status(409, _)) => {
                        match request(&agent, "GET", &format!("{base}/api/games/{id}"), None, None)
                        {
                            Ok(now) => state = now,
                            Err(_) => return,
                        }
                        continue;
                    }
                    Err(_) => {
                        let mut t = tally.lock().expect("tally");
                        if killed.load(Ordering::SeqCst) {
                            t.after_kill += 1;
                        } else {
                            t.errors.push(format!("think {id}"));
                        }
                        return;
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
                let Some(next) = next else {
                    let mut t = tally.lock().expect("tally");
                    if killed.load(Ordering::SeqCst) {
                        t.after_kill += 1;
                    } else {
                        t.errors.push(format!("no engine move in {id}"));
                    }
                    break;
                };
                state = next;
                let mut t = tally.lock().expect("tally");
                t.engine_moves += 1;
                t.games.insert(id.clone(), moves_of(&state));
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
                        let mut t = tally.lock().expect("tally");
                        t.person_moves += 1;
                        t.games.insert(id.clone(), moves_of(&state));
                    }
                    Err(_) => return,
                }
            }
        }
        if state["finished"] == json!(true) {
            tally.lock().expect("tally").finished += 1;
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let binary = args
        .get(1)
        .expect("usage: load SERVER_BINARY [PLAYERS] [SECONDS]")
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
    let stop = Arc::new(AtomicBool::new(false));
    let killed = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Mutex::new(Tally::default()));
    let threads: Vec<_> = (0..players)
        .map(|i| {
            let (base, stop, killed, tally) =
                (base.clone(), stop.clone(), killed.clone(), tally.clone());
            std::thread::spawn(move || {
                player(
                    base,
                    0x9e37_79b9_7f4a_7c15 ^ (i * 7919 + 1),
                    stop,
                    killed,
                    tally,
                )
            })
        })
        .collect();
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
    killed.store(true, Ordering::SeqCst);
    server.child.kill().expect("kill -9");
    let _ = server.child.wait();
    stop.store(true, Ordering::Relaxed);
    for thread in threads {
        let _ = thread.join();
    }
    let tally = tally.lock().expect("tally");
    let mut latencies = tally.latencies.clone();
    latencies.sort_unstable();
    println!(
        "requests without search: {} (p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms)",
        latencies.len(),
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0)
    );
    for (kind, list) in &tally.by_kind {
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
    println!(
        "moves: {} by the players, {} by the engine; games: {} started, {} finished",
        tally.person_moves,
        tally.engine_moves,
        tally.games.len(),
        tally.finished
    );
    println!("server at the end: {status}");
    println!(
        "peak resident memory of the server: {:.1} MiB",
        peak as f64 / 1024.0
    );
    // Errors after the kill are expected (the server is gone); those before it are not.
    println!(
        "errors before the kill: {} (requests cut by the kill: {})",
        tally.errors.len(),
        tally.after_kill
    );
    for error in tally.errors.iter().take(5) {
        println!("  {error}");
    }
    // Restart on the same database: every acknowledged move is there.
    let mut again = start(&binary, "127.0.0.1:0", &db);
    let base = format!("http://{}", again.address);
    let agent = ureq::agent();
    let mut missing = 0;
    for (id, moves) in &tally.games {
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
    let acknowledged: usize = tally.games.values().map(Vec::len).sum();
    println!(
        "after kill -9 and restart: {} games, {acknowledged} acknowledged moves checked, {missing} games missing moves",
        tally.games.len()
    );
    let _ = again.child.kill();
    let _ = again.child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    if missing > 0 || !tally.errors.is_empty() {
        std::process::exit(1);
    }
}
