//! Rate limits: token buckets by key (a game, an address creating games).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// Token buckets by key.
pub(crate) struct Limiter {
    pub(crate) rate: f64,
    pub(crate) burst: f64,
    pub(crate) buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl Limiter {
    /// Takes a token from `key`'s bucket; false when it is empty.
    pub(crate) fn allow(&self, key: &str) -> bool {
        if self.rate <= 0.0 {
            return true;
        }
        let Ok(mut buckets) = self.buckets.lock() else {
            return true;
        };
        let now = Instant::now();
        if buckets.len() > 100_000 {
            let (rate, burst) = (self.rate, self.burst);
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * rate < burst
            });
        }
        let (tokens, at) = buckets.entry(key.to_owned()).or_insert((self.burst, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * self.rate).min(self.burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}
