//! Two engines play each other through OTEP, with this program as the host: it speaks to each
//! engine the way OpenTafl does, checks every move with the library, keeps both clocks and
//! prints the board after each move.
//!
//! ```text
//! cargo build --release
//! cargo run --release --example selfplay -- [ENGINE] [--game tablut|tawlbwrdd]
//!     [--time MS] [--overtime S] [--periods N] [--plies N] [--quiet]
//! ```
//!
//! `ENGINE` is the engine binary (default `target/release/tafl-engine`); both sides run their
//! own copy of it. `--time` is each side's main time (default 10000 ms), `--overtime` and
//! `--periods` the overtime periods (default 1 s, 3), `--plies` ends the game as stopped after
//! that many moves (default 300), `--quiet` prints only the moves and the result.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use tafl_engine::notation::{self, FullMove};
use tafl_engine::{Game, Move, Outcome, Side, Variant};

struct Settings {
    engine: String,
    variant: Variant,
    main_time: Duration,
    overtime: Duration,
    periods: u32,
    max_plies: usize,
    quiet: bool,
}

fn settings() -> Result<Settings, String> {
    let mut settings = Settings {
        engine: "target/release/tafl-engine".to_string(),
        variant: Variant::tablut(),
        main_time: Duration::from_millis(10_000),
        overtime: Duration::from_secs(1),
        periods: 3,
        max_plies: 300,
        quiet: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        let number = |name: &str, text: String| {
            text.parse::<u64>()
                .map_err(|_| format!("{name}: '{text}' is not a number"))
        };
        match arg.as_str() {
            "--game" => {
                let name = value("--game")?;
                settings.variant =
                    Variant::by_name(&name).ok_or(format!("unknown game '{name}'"))?;
            }
            "--time" => {
                settings.main_time = Duration::from_millis(number("--time", value("--time")?)?)
            }
            "--overtime" => {
                settings.overtime = Duration::from_secs(number("--overtime", value("--overtime")?)?)
            }
            "--periods" => {
                settings.periods = number("--periods", value("--periods")?)?.min(1000) as u32
            }
            "--plies" => settings.max_plies = number("--plies", value("--plies")?)? as usize,
            "--quiet" => settings.quiet = true,
            "--help" | "-h" => return Err("see the top of examples/selfplay.rs".to_string()),
            path if !path.starts_with("--") => settings.engine = path.to_string(),
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    Ok(settings)
}

/// One engine process and its side's clock.
struct Player {
    side: Side,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    main_time: Duration,
    periods: u32,
    /// Our last move that the host has not yet confirmed or refused.
    moves_since_last: Vec<String>,
}

impl Player {
    fn start(path: &str, side: Side) -> Result<Player, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start '{path}': {e} (run cargo build --release?)"))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        let player = Player {
            side,
            child,
            stdin,
            lines,
            main_time: Duration::ZERO,
            periods: 0,
            moves_since_last: Vec::new(),
        };
        match player.lines.recv_timeout(Duration::from_secs(5)) {
            Ok(line) if line == "hello" => Ok(player),
            Ok(line) => Err(format!("{side}: expected hello, got {line:?}")),
            Err(_) => Err(format!("{side}: no hello within 5 s")),
        }
    }

    fn send(&mut self, line: &str) {
        // An engine that died shows up as a missing answer; nothing to do here.
        let _ = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
    }

    fn clock_text(&self, overtime: Duration) -> String {
        if self.main_time.is_zero() {
            format!("{}*", overtime.as_millis())
        } else {
            self.main_time.as_millis().to_string()
        }
    }

    /// Waits for `move ...` until the time runs out, printing `status` lines on the way.
    /// `None`: the engine lost on time or went silent.
    fn wait_for_move(&mut self, overtime: Duration, quiet: bool) -> Option<(String, Duration)> {
        let asked = Instant::now();
        let allowed = self.main_time + overtime * self.periods + Duration::from_millis(200);
        loop {
            let left = allowed.checked_sub(asked.elapsed())?;
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(m) = line.strip_prefix("move ") {
                        return Some((m.to_string(), asked.elapsed()));
                    }
                    if !quiet && line.starts_with("status ") {
                        println!("    {} {line}", self.side);
                    } else if line.starts_with("error") {
                        println!("    {} says: {line}", self.side);
                    }
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    /// Charges `spent` as OpenTafl does; `false` when the side ran out of time.
    fn charge(&mut self, spent: Duration, overtime: Duration) -> bool {
        if spent <= self.main_time {
            self.main_time -= spent;
            return true;
        }
        let over = spent - self.main_time;
        self.main_time = Duration::ZERO;
        if overtime.is_zero() {
            return false;
        }
        let used = (over.as_millis() / overtime.as_millis().max(1)) as u32;
        if used >= self.periods {
            return false;
        }
        self.periods -= used;
        true
    }
}

fn clock_line(players: &[Player; 2], overtime: Duration) -> String {
    format!(
        "clock {} {} {} {} {}",
        players[0].clock_text(overtime),
        players[1].clock_text(overtime),
        overtime.as_secs(),
        players[0].periods,
        players[1].periods
    )
}

fn index(side: Side) -> usize {
    match side {
        Side::Attackers => 0,
        Side::Defenders => 1,
    }
}

fn run(settings: &Settings) -> Result<(), String> {
    let mut players = [
        Player::start(&settings.engine, Side::Attackers)?,
        Player::start(&settings.engine, Side::Defenders)?,
    ];
    let rules = settings.variant.to_string();
    for player in &mut players {
        player.main_time = settings.main_time;
        player.periods = settings.periods;
        let side = player.side;
        player.send(&format!("rules {rules}"));
        player.send(&format!("side {side}"));
        player.send("start");
    }
    let mut game = Game::new(&settings.variant);
    if !settings.quiet {
        print!("{}", notation::diagram(game.position()));
    }
    let mut forfeit: Option<(Side, String)> = None;
    while game.outcome().is_none() && game.moves().len() < settings.max_plies {
        let position = *game.position();
        let side = position.side_to_move();
        let record = notation::position_record(&position);
        let clock = clock_line(&players, settings.overtime);
        let player = &mut players[index(side)];
        let mut chosen: Option<Move> = None;
        for attempt in 0..3 {
            if !player.moves_since_last.is_empty() {
                let moves = player.moves_since_last.join("|");
                player.send(&format!("opponent-move {moves} {record}"));
                player.moves_since_last.clear();
            } else if attempt > 0 {
                if let Some((m, _)) = game.last_move() {
                    player.send(&format!("opponent-move {m} {record}"));
                }
            }
            player.send(&clock);
            player.send(&format!("play {side}"));
            let Some((text, spent)) = player.wait_for_move(settings.overtime, settings.quiet)
            else {
                forfeit = Some((side, "ran out of time or went silent".into()));
                break;
            };
            if !player.charge(spent, settings.overtime) {
                forfeit = Some((side, format!("ran out of time ({spent:?} for one move)")));
                break;
            }
            match text.parse::<Move>() {
                Ok(m) if position.is_legal(m) => {
                    chosen = Some(m);
                    break;
                }
                _ => {
                    println!("    {side} played an illegal move '{text}': error 2");
                    player.send("error 2");
                }
            }
        }
        let Some(m) = chosen else {
            forfeit.get_or_insert((side, "three illegal moves".into()));
            break;
        };
        let full = FullMove::describe(&position, m);
        game.play(m)
            .map_err(|e| format!("the host's own check failed: {e}"))?;
        let after = notation::position_record(game.position());
        players[index(side)].send(&format!("move {after}"));
        players[index(side.opponent())]
            .moves_since_last
            .push(m.to_string());
        let ply = game.moves().len();
        let clock_left = players[index(side)].main_time.as_millis();
        if settings.quiet {
            println!("{ply:>3}. {side:<9} {full}  ({clock_left} ms left)");
        } else {
            println!("\n{ply:>3}. {side} {full}  ({clock_left} ms left)");
            print!("{}", notation::diagram(game.position()));
        }
    }
    let (finish, text) = match (&forfeit, game.outcome()) {
        (Some((loser, why)), _) => (
            if *loser == Side::Attackers { 3 } else { 2 },
            format!("{} win: the {loser} {why}", loser.opponent()),
        ),
        (None, Some(outcome @ Outcome::Win { winner, .. })) => (
            if winner == Side::Attackers { 2 } else { 3 },
            outcome.to_string(),
        ),
        (None, Some(outcome @ Outcome::Draw(_))) => (1, outcome.to_string()),
        (None, None) => (0, format!("stopped after {} moves", game.moves().len())),
    };
    for player in &mut players {
        player.send(&format!("finish {finish}"));
        player.send("goodbye");
    }
    for player in &mut players {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(2) {
            if let Ok(Some(_)) = player.child.try_wait() {
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = player.child.kill();
        let _ = player.child.wait();
    }
    println!("\nresult: {text}");
    Ok(())
}

fn main() -> ExitCode {
    match settings().and_then(|settings| run(&settings)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("selfplay: {message}");
            ExitCode::FAILURE
        }
    }
}
