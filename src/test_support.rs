//! Helpers shared by the unit tests.

/// A xorshift64 sequence: fixed pseudo-random numbers for seeded test games and test sets.
pub(crate) struct XorShift(pub(crate) u64);

impl XorShift {
    /// The next number of the sequence (the seed must not be zero).
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
