//! HAProxy (Debian's `haproxy`) in front of test servers, started with the repository's own
//! configuration, `web/deploy/haproxy.cfg`, on a free port of 127.0.0.1: the servers' addresses
//! go in through the environment variables that the file reads. Its log (one line a request,
//! written when the answer starts) says which server each request went to.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::Server;

/// The balancer's configuration in the repository.
pub const CONFIG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/haproxy.cfg");

/// A running HAProxy (killed when dropped).
pub struct Balancer {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
    /// Its log lines so far (standard output).
    log: Arc<Mutex<Vec<String>>>,
}

impl Balancer {
    /// HAProxy over `servers` (the configuration names them web1, web2: two), once it answers.
    pub fn start(servers: [&Server; 2]) -> Balancer {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let address = format!("127.0.0.1:{port}");
        let mut child = Command::new("haproxy")
            .args(["-db", "-f", CONFIG])
            .env("TAFL_LB_LISTEN", &address)
            .env("TAFL_WEB_1", &servers[0].address)
            .env("TAFL_WEB_2", &servers[1].address)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("haproxy runs (Debian's haproxy package: apt-get install haproxy)");
        let stdout = child.stdout.take().expect("piped");
        let log = Arc::new(Mutex::new(Vec::new()));
        let lines = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Ok(mut lines) = lines.lock() {
                    lines.push(line);
                }
            }
        });
        let balancer = Balancer {
            child,
            address,
            log,
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while ureq::get(&balancer.url("/")).call().is_err() {
            assert!(Instant::now() < deadline, "haproxy does not answer");
            std::thread::sleep(Duration::from_millis(50));
        }
        balancer
    }

    /// `http://ADDRESS` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// Game `id`'s state read through the balancer (asserted 200).
    pub fn game(&self, id: &str) -> serde_json::Value {
        let (status, state) =
            super::call_at(&self.url(&format!("/api/games/{id}")), "GET", None, None);
        assert_eq!(status, 200, "{state}");
        state
    }

    /// The servers (0 for web1, 1 for web2) that the requests for `path` (with any query) went
    /// to, in order, as the log says (`... tafl_web/web2 ... "GET /api/games/ID/events HTTP/1.1"`).
    pub fn servers_of(&self, path: &str) -> Vec<usize> {
        let (plain, query) = (format!(" {path} HTTP/"), format!(" {path}?"));
        self.log()
            .iter()
            .filter(|line| line.contains(&plain) || line.contains(&query))
            .filter_map(|line| {
                if line.contains("tafl_web/web1 ") {
                    Some(0)
                } else if line.contains("tafl_web/web2 ") {
                    Some(1)
                } else {
                    None
                }
            })
            .collect()
    }

    /// Waits (up to 10 s) for `n` requests for `path` in the log: their servers.
    pub fn wait_requests(&self, path: &str, n: usize) -> Vec<usize> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let servers = self.servers_of(path);
            if servers.len() >= n {
                return servers;
            }
            assert!(
                Instant::now() < deadline,
                "fewer than {n} requests for {path} in the log: {:?}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The log so far.
    pub fn log(&self) -> Vec<String> {
        self.log.lock().map(|l| l.clone()).unwrap_or_default()
    }
}

impl Drop for Balancer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
