//! Two people at one game, as the API tests set them up (the creator and a guest who took the
//! open seat, each with their secret), the requests they send, and the first event of a kind
//! on a stream.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{EventStream, Server, Sse};

/// A game between two people: the creator's seat and the guest who took the open one.
pub struct TwoPeople {
    pub id: String,
    /// The creation's answer.
    pub created: Value,
    /// The creator's secret.
    pub host: String,
    /// The guest's secret.
    pub guest: String,
    /// The join's answer: `{secret, side, state}`.
    pub joined: Value,
}

impl Server {
    /// Creates the game `request` describes with its other seat open (`"opponent": "open"` is
    /// added) and has a second person, with no secret, take that seat.
    pub fn two_people(&self, mut request: Value) -> TwoPeople {
        request["opponent"] = json!("open");
        let created = self.ok("POST", "/api/games", Some(&request));
        let id = created["id"].as_str().expect("an id").to_owned();
        let host = created["secret"].as_str().expect("a secret").to_owned();
        let joined = self.join_open(&id);
        let guest = joined["secret"]
            .as_str()
            .expect("the guest's secret")
            .to_owned();
        TwoPeople {
            id,
            created,
            host,
            guest,
            joined,
        }
    }

    /// A person with no secret takes game `id`'s open seat: the answer, `{secret, side,
    /// state}`.
    pub fn join_open(&self, id: &str) -> Value {
        let (status, joined) = self.act(id, "join", None, None);
        assert_eq!(status, 200, "the open seat is taken: {joined}");
        joined
    }

    /// `POST /api/games/ID/ACTION` (`moves`, `draw`, `resign`, `rematch`, `join`...) with
    /// `body`, sent with `secret`: the status and the JSON answer.
    pub fn act(
        &self,
        id: &str,
        action: &str,
        body: Option<&Value>,
        secret: Option<&str>,
    ) -> (u16, Value) {
        self.call_as("POST", &format!("/api/games/{id}/{action}"), body, secret)
    }

    /// Asks for game `id` until its state satisfies `ready` (a minute at most): that state.
    pub fn wait_state(&self, id: &str, ready: impl Fn(&Value) -> bool) -> Value {
        let started = Instant::now();
        loop {
            let state = self.ok("GET", &format!("/api/games/{id}"), None);
            if ready(&state) {
                return state;
            }
            assert!(started.elapsed() < Duration::from_secs(60), "{state}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Reads the stream at `path` (sent with `secret`) to its first event named one of `names`.
pub fn first_event(server: &Server, path: &str, secret: Option<&str>, names: &[&str]) -> Sse {
    let mut stream = EventStream::open_as(server, path, None, secret);
    stream
        .until(|event| names.contains(&event.name.as_str()))
        .pop()
        .expect("until returns the awaited event last")
}
