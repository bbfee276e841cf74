//! Rate limits (`governor`'s keyed token buckets), keyed by who sends a request, never by the
//! game it is about, so that nobody can throttle someone else's game: a request carrying a
//! seat's secret by that secret (its hash), any other (a spectator, a page's files, the lists)
//! by the sender's address, and creating games by address in a bucket of its own. A request
//! with a secret also counts against a looser bucket of its address (four times the rate and
//! the burst), so that sending made-up secrets does not escape the limits.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// How many checks between two sweeps of the buckets that are full again.
const SWEEP_EVERY: u64 = 10_000;

/// The server's rate limits.
pub(crate) struct Limits {
    /// Requests with a secret, by its hash.
    seats: Option<DefaultKeyedRateLimiter<String>>,
    /// Requests without one, by address.
    addresses: Option<DefaultKeyedRateLimiter<IpAddr>>,
    /// Every request with a secret, by address, at four times the rate.
    loose: Option<DefaultKeyedRateLimiter<IpAddr>>,
    /// New games, by address.
    creating: Option<DefaultKeyedRateLimiter<IpAddr>>,
    checks: AtomicU64,
}

/// A quota of `rate` requests a second on average and `burst` at once; None for no limit.
fn quota(rate: f64, burst: f64) -> Option<Quota> {
    if rate <= 0.0 || !rate.is_finite() {
        return None;
    }
    let burst = NonZeroU32::new(burst.clamp(1.0, 1e6) as u32)?;
    Some(Quota::with_period(Duration::from_secs_f64(1.0 / rate))?.allow_burst(burst))
}

impl Limits {
    /// Limits of `rate` requests a second and `burst` at once per key (`rate` 0: none).
    pub(crate) fn new(rate: f64, burst: f64) -> Limits {
        Limits {
            seats: quota(rate, burst).map(RateLimiter::keyed),
            addresses: quota(rate, burst).map(RateLimiter::keyed),
            loose: quota(rate * 4.0, burst * 4.0).map(RateLimiter::keyed),
            creating: quota(rate, burst).map(RateLimiter::keyed),
            checks: AtomicU64::new(0),
        }
    }

    fn sweep(&self) {
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            for limiter in [&self.addresses, &self.loose, &self.creating]
                .into_iter()
                .flatten()
            {
                limiter.retain_recent();
            }
            if let Some(seats) = &self.seats {
                seats.retain_recent();
            }
        }
    }

    /// A request with the secret whose hash is `hash`, from `address`.
    pub(crate) fn allow_seat(&self, hash: &str, address: IpAddr) -> bool {
        self.sweep();
        let seat = self
            .seats
            .as_ref()
            .is_none_or(|l| l.check_key(&hash.to_owned()).is_ok());
        seat && self
            .loose
            .as_ref()
            .is_none_or(|l| l.check_key(&address).is_ok())
    }

    /// A request without a secret from `address`.
    pub(crate) fn allow_address(&self, address: IpAddr) -> bool {
        self.sweep();
        self.addresses
            .as_ref()
            .is_none_or(|l| l.check_key(&address).is_ok())
    }

    /// A new game from `address`.
    pub(crate) fn allow_creating(&self, address: IpAddr) -> bool {
        self.sweep();
        self.creating
            .as_ref()
            .is_none_or(|l| l.check_key(&address).is_ok())
    }
}
