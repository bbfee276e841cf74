//! Random ids and seat secrets, from the operating system's generator (`getrandom`), and the
//! hash a secret is stored as.

use sha2::{Digest, Sha256};

/// `bytes` random bytes from the OS, as lowercase hex.
fn random_hex<const N: usize>() -> String {
    let mut bytes = [0u8; N];
    // The OS generator failing (no /dev/urandom, no getrandom(2)) leaves nothing safe to hand
    // out: a server that cannot make secrets must not run.
    getrandom::fill(&mut bytes).expect("the operating system's random generator works");
    hex(&bytes)
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut text, b| {
            let _ = write!(text, "{b:02x}");
            text
        })
}

/// A fresh game id: 128 random bits, 32 hex digits.
pub fn new_id() -> String {
    random_hex::<16>()
}

/// A fresh seat secret: 256 random bits, 64 hex digits. Handed out once; only its
/// [`secret_hash`] is stored.
pub fn new_secret() -> String {
    random_hex::<32>()
}

/// The SHA-256 of a secret, in hex: what the database keeps. A secret has 256 random bits, so
/// one unsalted round is enough (nothing to guess from the hash).
pub fn secret_hash(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_secrets_are_long_random_hex_and_differ() {
        let (a, b) = (new_id(), new_id());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        let secret = new_secret();
        assert_eq!(secret.len(), 64);
        assert!(secret.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(secret, new_secret());
    }

    #[test]
    fn the_hash_is_sha256() {
        // FIPS 180-2's example: SHA-256("abc").
        assert_eq!(
            secret_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
