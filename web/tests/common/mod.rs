//! What the web tests share: the server binary started on a free port with a database of its
//! own, and JSON requests to it.
#![allow(dead_code)]

pub mod balancer;
pub mod browser;
pub mod database;
pub mod people;
pub mod worker;

use std::collections::{BTreeSet, HashMap};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

use serde_json::Value;

/// The `tafl-web` binary running on loopback.
pub struct Server {
    pub child: Child,
    pub address: String,
    pub db: PathBuf,
    /// What `--db` got: `db`, or a PostgreSQL URL standing for it (`database::arg`).
    pub db_arg: String,
    /// The secret of each game this client created, by id, sent with its requests as the page
    /// does (`call_as` sends another or none).
    pub secrets: Mutex<HashMap<String, String>>,
    /// The lines it logged on stderr so far (also passed on to the test's stderr).
    pub logs: Arc<Mutex<Vec<String>>>,
}

/// The game id in an API path (`/api/games/ID/...`).
pub fn game_of(path: &str) -> Option<&str> {
    path.strip_prefix("/api/games/")?
        .split(['/', '?'])
        .next()
        .filter(|id| !id.is_empty())
}

/// A fresh directory for one test's database.
pub fn scratch(name: &str) -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("web-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the target directory is writable");
    dir
}

impl Server {
    /// Starts the server on `listen` (`127.0.0.1:0` for any free port) with `db` and `extra`
    /// options, and waits for the line that gives its address.
    pub fn start(listen: &str, db: &Path, extra: &[&str]) -> Server {
        Server::start_with(listen, &database::arg(db), extra)
    }

    /// Starts the server with `--db db_arg` as it is (a PostgreSQL URL that several servers
    /// share, say).
    pub fn start_with(listen: &str, db_arg: &str, extra: &[&str]) -> Server {
        let db_arg = db_arg.to_owned();
        let db = PathBuf::from(&db_arg);
        let mut child = Command::new(env!("CARGO_BIN_EXE_tafl-web"))
            .args(["--listen", listen, "--db", &db_arg])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the tafl-web binary starts");
        let logs = Arc::new(Mutex::new(Vec::new()));
        let stderr = child.stderr.take().expect("stderr is piped");
        let kept = logs.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("{line}");
                if let Ok(mut kept) = kept.lock() {
                    kept.push(line);
                }
            }
        });
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the server prints its address");
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_owned();
        Server {
            child,
            address,
            db: db.to_owned(),
            db_arg,
            secrets: Mutex::new(HashMap::new()),
            logs,
        }
    }

    /// The lines it logged so far.
    pub fn log_lines(&self) -> Vec<String> {
        self.logs.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// `http://ADDRESS` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// Kills the server at once (SIGKILL): nothing is flushed or closed.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The secret kept for the game of `path`, if any.
    pub fn secret_for(&self, path: &str) -> Option<String> {
        game_of(path).and_then(|id| self.secrets.lock().ok()?.get(id).cloned())
    }

    /// A GET request with the secret of the game of `path`, as the page sends it.
    pub fn get(&self, path: &str) -> ureq::Request {
        let request = ureq::get(&self.url(path));
        match self.secret_for(path) {
            Some(secret) => request.set("authorization", &format!("Bearer {secret}")),
            None => request,
        }
    }

    /// A request with an optional JSON body and the secret of its game (if this client created
    /// it): the status and the JSON answer (Null if none). A created game's secret is kept.
    pub fn call(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        let secret = self.secret_for(path);
        let (status, value) = self.call_as(method, path, body, secret.as_deref());
        if let (Some(id), Some(secret)) = (value["id"].as_str(), value["secret"].as_str())
            && let Ok(mut secrets) = self.secrets.lock()
        {
            secrets.insert(id.to_owned(), secret.to_owned());
        }
        (status, value)
    }

    /// A request sent with `secret` (or none): the status and the JSON answer (Null if none).
    pub fn call_as(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        secret: Option<&str>,
    ) -> (u16, Value) {
        call_at(&self.url(path), method, body, secret)
    }

    /// A request that must succeed: its JSON answer.
    pub fn ok(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let (status, value) = self.call(method, path, body);
        assert!(
            (200..300).contains(&status),
            "{method} {path}: {status} {value}"
        );
        value
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A request to `url` with an optional JSON body, sent with `secret` (or none): the status
/// and the JSON answer (Null if none). Panics when no answer comes (a connection refused).
pub fn call_at(
    url: &str,
    method: &str,
    body: Option<&Value>,
    secret: Option<&str>,
) -> (u16, Value) {
    let mut request = ureq::request(method, url);
    if let Some(secret) = secret {
        request = request.set("authorization", &format!("Bearer {secret}"));
    }
    let result = match body {
        Some(body) => request.send_json(body.clone()),
        None => request.call(),
    };
    let response = match result {
        Ok(response) => response,
        Err(ureq::Error::Status(_, response)) => response,
        Err(error) => panic!("{method} {url}: {error}"),
    };
    let status = response.status();
    let text = response.into_string().unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// The legal moves a game state of the server lists (`"legal": {"e2": ["e3", ...]}`), as
/// (from, to) pairs in its order.
pub fn served_moves(state: &Value) -> Vec<(String, String)> {
    state["legal"]
        .as_object()
        .expect("legal")
        .iter()
        .flat_map(|(from, targets)| {
            targets
                .as_array()
                .into_iter()
                .flatten()
                .map(move |to| (from.clone(), to.as_str().unwrap_or_default().to_owned()))
        })
        .collect()
}

/// [`served_moves`] as move texts, `e2-e3`.
pub fn served_move_texts(state: &Value) -> BTreeSet<String> {
    served_moves(state)
        .into_iter()
        .map(|(from, to)| format!("{from}-{to}"))
        .collect()
}

/// The first legal move a served state lists (in the order of [`served_move_texts`]).
pub fn first_served_move(state: &Value) -> String {
    served_move_texts(state)
        .into_iter()
        .next()
        .expect("a legal move in the served state")
}

/// A small deterministic generator (xorshift) for the tests' choices.
pub struct Choices(pub u64);

impl Choices {
    /// A number below `n` (at least 1).
    pub fn pick(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// One Server-Sent Event: its `id:` (if any), its `event:` name and its JSON `data:`.
#[derive(Clone, Debug, PartialEq)]
pub struct Sse {
    pub id: Option<u64>,
    pub name: String,
    pub data: Value,
}

/// An open event stream (dropping it hangs up).
pub struct EventStream {
    reader: BufReader<Box<dyn std::io::Read + Send + Sync + 'static>>,
    /// When [`EventStream::try_next`] gives up waiting (noticed at a keep-alive, every 15 s).
    give_up: Option<std::time::Instant>,
}

impl EventStream {
    /// Opens `path` on `server` (with `Last-Event-ID: last` when given), as a spectator: no
    /// secret. A stream that sends nothing for 30 s fails the test.
    pub fn open(server: &Server, path: &str, last: Option<u64>) -> EventStream {
        EventStream::open_as(server, path, last, None)
    }

    /// [`EventStream::open`] sent with `secret` (a seat's: a think stream needs one).
    pub fn open_as(
        server: &Server,
        path: &str,
        last: Option<u64>,
        secret: Option<&str>,
    ) -> EventStream {
        EventStream::open_at(&server.url(path), last, secret)
    }

    /// [`EventStream::open_as`] at a whole URL (through a load balancer, say).
    pub fn open_at(url: &str, last: Option<u64>, secret: Option<&str>) -> EventStream {
        let agent = ureq::AgentBuilder::new()
            .timeout_read(std::time::Duration::from_secs(30))
            .build();
        let mut request = agent.get(url);
        if let Some(secret) = secret {
            request = request.set("authorization", &format!("Bearer {secret}"));
        }
        if let Some(last) = last {
            request = request.set("last-event-id", &last.to_string());
        }
        let response = request.call().expect("the event stream opens");
        EventStream {
            reader: BufReader::new(response.into_reader()),
            give_up: None,
        }
    }

    /// The next event; None when the stream ends.
    pub fn next(&mut self) -> Option<Sse> {
        self.try_next().expect("a line of the stream")
    }

    /// Makes [`EventStream::try_next`] fail at the first keep-alive after `seconds` from now.
    pub fn give_up_after(&mut self, seconds: u64) {
        self.give_up = Some(std::time::Instant::now() + std::time::Duration::from_secs(seconds));
    }

    /// The next event; None when the stream ends, an error when it breaks (its server killed)
    /// or waits past [`EventStream::give_up_after`].
    pub fn try_next(&mut self) -> std::io::Result<Option<Sse>> {
        let (mut id, mut name, mut data) = (None, String::from("message"), String::new());
        loop {
            let mut line = String::new();
            if self.reader.read_line(&mut line)? == 0 {
                return Ok(None);
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if line.starts_with(':')
                && self
                    .give_up
                    .is_some_and(|when| std::time::Instant::now() > when)
            {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "no awaited event in time",
                ));
            }
            if line.is_empty() {
                if data.is_empty() {
                    continue; // a keep-alive comment's end
                }
                let data = serde_json::from_str(&data).expect("JSON data");
                return Ok(Some(Sse { id, name, data }));
            }
            if let Some(rest) = line.strip_prefix("id:") {
                id = rest.trim().parse().ok();
            } else if let Some(rest) = line.strip_prefix("event:") {
                name = rest.trim().to_owned();
            } else if let Some(rest) = line.strip_prefix("data:") {
                data.push_str(rest.strip_prefix(' ').unwrap_or(rest));
            }
        }
    }

    /// Events up to and including the first that `last` accepts.
    pub fn until(&mut self, mut last: impl FnMut(&Sse) -> bool) -> Vec<Sse> {
        let mut events = Vec::new();
        while let Some(event) = self.next() {
            let done = last(&event);
            events.push(event);
            if done {
                return events;
            }
        }
        panic!("the stream ended before the awaited event: {events:?}");
    }
}
