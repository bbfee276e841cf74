//! Fairness of the search queue (scripts/web-fairness.sh runs it; not a timed test): N players
//! play Tablut against the engine at its fastest level (100 ms a move) for S seconds, first
//! alone, then while one address asks for hints at the "strong" level (8 s each) in a loop
//! from ten games at once. For every engine move it measures the wait from the person's move
//! to the engine's answer (the engine moves by itself; its 0.1 s search included) and the
//! place it was first told; the engine's moves must wait at most one search (one hint) longer
//! with the flood than without.
//!
//! `cargo run --release -p tafl-web --example fairness -- SERVER_BINARY [PLAYERS] [SECONDS]`

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The hint level: "strong", 8 s a search.
const HINT_LEVEL: usize = 4;
const HINT_SECONDS: f64 = 8.0;
/// Games the flooder asks hints in at once.
const FLOOD_GAMES: usize = 10;

fn start(binary: &str, db: &str) -> (Child, String) {
    let mut child = Command::new(binary)
        .args(["--listen", "127.0.0.1:0", "--db", db, "--burst", "1000"])
        .args(["--searches", "2"])
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
    (child, format!("http://{address}"))
}

fn post(agent: &ureq::Agent, url: &str, secret: &str, body: Value) -> Option<Value> {
    agent
        .post(url)
        .set("authorization", &format!("Bearer {secret}"))
        .send_json(body)
        .ok()?
        .into_json()
        .ok()
}

/// Reads a think stream to its end: the first place told, and the `state` after the engine's
/// move (none for a hint).
fn think(agent: &ureq::Agent, url: &str, secret: &str) -> Option<(usize, Option<Value>)> {
    let response = agent
        .get(url)
        .set("authorization", &format!("Bearer {secret}"))
        .call()
        .ok()?;
    let mut event = String::new();
    let mut place = 0;
    for line in BufReader::new(response.into_reader()).lines() {
        let line = line.ok()?;
        if let Some(name) = line.strip_prefix("event: ") {
            event = name.to_owned();
        } else if let Some(data) = line.strip_prefix("data: ") {
            let value: Value = serde_json::from_str(data).ok()?;
            match event.as_str() {
                "queue" if place == 0 => place = value["place"].as_u64().unwrap_or(0) as usize,
                "state" => return Some((place, Some(value["state"].clone()))),
                "hint" | "analysis" => return Some((place, None)),
                _ => {}
            }
        }
    }
    None
}

#[derive(Default)]
struct Waits {
    /// Each engine move's wait, in ms (from the person's move sent to the engine's answer
    /// read, its 0.1 s search included), and the place it was first told.
    moves: Vec<(f64, usize)>,
    hints: u64,
}

fn player(base: &str, seed: u64, stop: &AtomicBool, waits: &Mutex<Waits>) {
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
    while !stop.load(Ordering::Relaxed) {
        let human = ["attackers", "defenders"][pick(2)];
        let Some(mut state) = post(
            &agent,
            &format!("{base}/api/games"),
            "",
            json!({"variant": "tablut", "human": human, "level": 0}),
        ) else {
            return;
        };
        let id = state["id"].as_str().unwrap_or_default().to_owned();
        let secret = state["secret"].as_str().unwrap_or_default().to_owned();
        // The engine may move first: from the game's creation.
        let mut asked = Instant::now();
        while !stop.load(Ordering::Relaxed) && state["finished"] != json!(true) {
            if state["engine_to_move"] == json!(true) {
                let url = format!("{base}/api/games/{id}/think?for=move");
                let Some((place, Some(next))) = think(&agent, &url, &secret) else {
                    break;
                };
                waits
                    .lock()
                    .expect("waits")
                    .moves
                    .push((asked.elapsed().as_secs_f64() * 1000.0, place));
                state = next;
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
                let text = legal[pick(legal.len())].clone();
                asked = Instant::now();
                match post(
                    &agent,
                    &format!("{base}/api/games/{id}/moves"),
                    &secret,
                    json!({"move": text, "ply": state["ply"]}),
                ) {
                    Some(next) => state = next,
                    None => break,
                }
            }
        }
    }
}

fn flooder(base: &str, stop: &AtomicBool, waits: &Mutex<Waits>) {
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(600))
        .build();
    let Some(state) = post(
        &agent,
        &format!("{base}/api/games"),
        "",
        json!({"variant": "tablut", "mode": "analysis", "level": HINT_LEVEL}),
    ) else {
        return;
    };
    let id = state["id"].as_str().unwrap_or_default().to_owned();
    let secret = state["secret"].as_str().unwrap_or_default().to_owned();
    let url = format!("{base}/api/games/{id}/think?for=hint");
    while !stop.load(Ordering::Relaxed) {
        if think(&agent, &url, &secret).is_some() {
            waits.lock().expect("waits").hints += 1;
        }
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// Plays `players` for `seconds`, with the hint flood or without; the engine moves' waits.
fn phase(base: &str, players: u64, seconds: u64, flood: bool) -> Waits {
    let stop = Arc::new(AtomicBool::new(false));
    let waits = Arc::new(Mutex::new(Waits::default()));
    let mut threads = Vec::new();
    if flood {
        for _ in 0..FLOOD_GAMES {
            let (base, stop, waits) = (base.to_owned(), stop.clone(), waits.clone());
            threads.push(std::thread::spawn(move || flooder(&base, &stop, &waits)));
        }
        // The flood fills the queue first.
        std::thread::sleep(Duration::from_secs(1));
    }
    for i in 0..players {
        let (base, stop, waits) = (base.to_owned(), stop.clone(), waits.clone());
        threads.push(std::thread::spawn(move || {
            player(&base, 0x9e37_79b9_7f4a_7c15 ^ (i * 7919 + 1), &stop, &waits)
        }));
    }
    std::thread::sleep(Duration::from_secs(seconds));
    stop.store(true, Ordering::Relaxed);
    // Players finish their current request; the flooders' hints may run up to 8 s more.
    for thread in threads {
        let _ = thread.join();
    }
    Arc::try_unwrap(waits)
        .ok()
        .and_then(|w| w.into_inner().ok())
        .unwrap_or_default()
}

fn report(name: &str, waits: &Waits) -> f64 {
    let mut list: Vec<f64> = waits.moves.iter().map(|(ms, _)| *ms).collect();
    list.sort_by(f64::total_cmp);
    let most_ahead = waits.moves.iter().map(|(_, p)| *p).max().unwrap_or(0);
    println!(
        "{name}: {} engine moves waited p50 {:.0} ms, p90 {:.0} ms, p99 {:.0} ms, max {:.0} ms \
         (first place told at most {most_ahead}); {} hints answered",
        list.len(),
        percentile(&list, 0.5),
        percentile(&list, 0.9),
        percentile(&list, 0.99),
        percentile(&list, 1.0),
        waits.hints
    );
    percentile(&list, 1.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let binary = args
        .get(1)
        .expect("usage: fairness SERVER_BINARY [PLAYERS] [SECONDS]")
        .clone();
    let players: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(20);
    let seconds: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(60);
    let dir = std::env::temp_dir().join(format!("tafl-web-fairness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let db = dir.join("games.sqlite").display().to_string();
    let (mut server, base) = start(&binary, &db);
    println!("server {base}, 2 search slots, {players} players, {seconds} s a phase");
    let alone = report("players alone", &phase(&base, players, seconds, false));
    let flooded = report(
        &format!("with {FLOOD_GAMES} hint loops at {HINT_SECONDS} s from one address"),
        &phase(&base, players, seconds, true),
    );
    let beyond = (flooded - alone) / 1000.0;
    println!(
        "the longest wait grew by {beyond:.1} s with the flood (one hint search is {HINT_SECONDS} s)"
    );
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
    if beyond > HINT_SECONDS {
        println!("UNFAIR: an engine move waited more than one search beyond its share");
        std::process::exit(1);
    }
}
