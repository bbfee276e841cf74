//! A `tafl-web worker` process of the tests (web/tests/web/workers.rs, faults.rs), on a database they
//! give it.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

/// A `tafl-web worker` process, and the lines it wrote to stderr (one per move it played).
pub struct Worker {
    pub child: Child,
    /// Its standard error's lines so far.
    pub log: Arc<Mutex<Vec<String>>>,
}

impl Worker {
    /// Starts a worker on `url` with `extra` options and waits until it searches.
    pub fn start(url: &str, extra: &[&str]) -> Worker {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tafl-web"))
            .args(["worker", "--db", url, "--searches", "1"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the worker starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped"))
            .read_line(&mut line)
            .expect("the worker says it runs");
        assert!(line.contains("searching"), "{line:?}");
        let log = Arc::new(Mutex::new(Vec::new()));
        let lines = log.clone();
        let stderr = child.stderr.take().expect("piped");
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                lines.lock().expect("not poisoned").push(line);
            }
        });
        Worker { child, log }
    }

    /// Its name in the job table (`jobs.worker`) ends with this.
    pub fn suffix(&self) -> String {
        format!(":{}", self.child.id())
    }

    /// The games and plies whose move it played.
    pub fn played(&self) -> Vec<(String, u64)> {
        self.log
            .lock()
            .expect("not poisoned")
            .iter()
            .filter_map(|line| {
                let rest = line.split(": game ").nth(1)?;
                let mut words = rest.split_whitespace();
                let game = words.next()?.to_owned();
                let ply = words.nth(1)?.parse().ok()?;
                words.next().filter(|w| *w == "played")?;
                Some((game, ply))
            })
            .collect()
    }

    /// Waits (at most 5 s) until it says it played `n` moves (it says so just after the move
    /// is stored), and returns them.
    pub fn wait_played(&self, n: usize) -> Vec<(String, u64)> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while self.played().len() < n {
            assert!(
                std::time::Instant::now() < deadline,
                "the worker said it played {:?}, not {n} moves",
                self.played()
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        self.played()
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM: it hands its jobs back and forgets its heartbeat before it exits.
    pub fn stop(&mut self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
        let _ = self.child.wait();
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.kill();
    }
}
