//! What the `nnue` tool's commands share: options and a seeded generator.

use std::collections::BTreeMap;

use tafl_engine::AnyVariant;

/// `--flag value` pairs, and bare `--flag`s (stored with an empty value).
pub struct Options(BTreeMap<String, String>);

impl Options {
    /// Reads `args`; the names in `bare` take no value.
    pub fn parse(args: &[String], bare: &[&str], help: &str) -> Result<Options, String> {
        let mut map = BTreeMap::new();
        let mut iter = args.iter();
        while let Some(flag) = iter.next() {
            let name = flag
                .strip_prefix("--")
                .ok_or(format!("unexpected {flag:?}\n{help}"))?;
            let value = if bare.contains(&name) {
                String::new()
            } else {
                iter.next().ok_or(format!("{flag} needs a value"))?.clone()
            };
            map.insert(name.to_string(), value);
        }
        Ok(Options(map))
    }

    /// The value of `--name`, if given.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// The value of `--name`, which must be given.
    pub fn required(&self, name: &str) -> Result<&str, String> {
        self.text(name).ok_or(format!("--{name} is required"))
    }

    /// Whether `--name` was given.
    pub fn has(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    /// The number given as `--name`, or `default`.
    pub fn number<T: std::str::FromStr>(&self, name: &str, default: T) -> Result<T, String> {
        self.text(name).map_or(Ok(default), |text| {
            text.parse()
                .map_err(|_| format!("--{name} wants a number, not {text:?}"))
        })
    }
}

/// The game `--variant` names: a name of [`AnyVariant::by_name`], or a whole OpenTafl rules
/// string (for games without a name, such as OpenTafl's Sea Battle 13x13).
pub fn variant(text: &str) -> Result<AnyVariant, String> {
    match AnyVariant::by_name(text) {
        Some(variant) => Ok(variant),
        None if text.contains("start:") => text
            .parse()
            .map_err(|e| format!("--variant: the rules string does not read: {e}")),
        None => Err(format!(
            "unknown variant {text}: a name ({}) or an OpenTafl rules string",
            AnyVariant::names().collect::<Vec<_>>().join(", ")
        )),
    }
}

/// SplitMix64: seeded and reproducible, without a dependency.
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound` > 0).
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }

    /// A float in `[-1, 1)`.
    pub fn symmetric(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}
