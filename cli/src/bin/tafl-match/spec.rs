//! Engine specifications, as `--a` and `--b` give them: read and checked once, when the command
//! line is read (a bad one is a usage mistake), then set up by every worker.

use std::sync::Arc;

use tafl_engine::search::eval::EvalWeights;
use tafl_engine::search::nnue::Network;
use tafl_engine::search::{Features, Limits, SearchConfig};

/// One engine of the match as the command line names it.
#[derive(Clone)]
pub struct EngineSpec {
    /// The specification as written (the engine's default name).
    pub text: String,
    /// What it asks for.
    pub kind: EngineKind,
}

/// The kinds of engine.
#[derive(Clone)]
pub enum EngineKind {
    /// An external OTEP engine: the program and its arguments.
    Otep(Vec<String>),
    /// A uniformly random legal move.
    Random,
    /// Wins at once if it can, else the best static evaluation.
    Greedy,
    /// This crate's searcher in process.
    Engine(Box<EngineOptions>),
}

/// The settings of this crate's searcher as a player.
#[derive(Clone)]
pub struct EngineOptions {
    /// Threads and hash.
    pub config: SearchConfig,
    /// Its own depth or node cap (the match's clock is added per turn).
    pub limits: Limits,
    /// The evaluation's weights.
    pub weights: EvalWeights,
    /// The search techniques on or off.
    pub features: Features,
    /// The contempt, when not the library's.
    pub contempt: Option<i32>,
    /// A network read from a file instead of the built-in one.
    pub network: Option<Arc<Network>>,
}

impl std::fmt::Debug for EngineSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.text)
    }
}

impl std::fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::str::FromStr for EngineSpec {
    type Err = String;

    /// Reads `otep:<command line>`, `random`, `greedy` or `engine[:options]`.
    fn from_str(spec: &str) -> Result<EngineSpec, String> {
        let kind = if let Some(command) = spec.strip_prefix("otep:") {
            let words = split_command_line(command)?;
            if words.is_empty() {
                return Err("no command after otep:".to_string());
            }
            EngineKind::Otep(words)
        } else {
            let (kind, options) = spec.split_once(':').unwrap_or((spec, ""));
            match kind {
                "random" if options.is_empty() => EngineKind::Random,
                "greedy" if options.is_empty() => EngineKind::Greedy,
                "random" | "greedy" => return Err(format!("{kind} takes no options")),
                "engine" => EngineKind::Engine(Box::new(engine_options(options)?)),
                other => {
                    return Err(format!(
                        "unknown engine {other:?}: use otep:<command>, engine[:options], \
                         greedy or random"
                    ));
                }
            }
        };
        Ok(EngineSpec {
            text: spec.to_string(),
            kind,
        })
    }
}

/// Reads the options of `engine:opt,opt...`.
fn engine_options(options: &str) -> Result<EngineOptions, String> {
    let mut engine = EngineOptions {
        config: SearchConfig {
            threads: 1,
            hash_mb: 16,
        },
        limits: Limits::default(),
        weights: EvalWeights::DEFAULT,
        features: Features::default(),
        contempt: None,
        network: None,
    };
    let features = &mut engine.features;
    for option in options.split(',').filter(|o| !o.is_empty()) {
        let (key, value) = option.split_once('=').unwrap_or((option, ""));
        let number = || -> Result<u64, String> {
            value
                .parse()
                .map_err(|_| format!("engine option {key} wants a number, not {value:?}"))
        };
        match key {
            "depth" => engine.limits.depth = Some(number()?.clamp(1, 1000) as u32),
            "nodes" => engine.limits.nodes = Some(number()?),
            "contempt" => {
                engine.contempt = Some(
                    value
                        .parse::<i32>()
                        .map_err(|_| format!("contempt wants a whole number, not {value:?}"))?,
                )
            }
            "threads" => engine.config.threads = number()?.clamp(1, 256) as usize,
            "hash" => engine.config.hash_mb = number()?.clamp(1, 1 << 16) as usize,
            "eval" => {
                engine.weights = match value {
                    "default" => EvalWeights::DEFAULT,
                    "basic" => EvalWeights::BASIC,
                    other => return Err(format!("unknown eval {other:?}")),
                }
            }
            "no-null" => features.null_move = false,
            "no-lmr" => features.late_move_reductions = false,
            "no-futility" => features.futility = false,
            "no-reverse-futility" => features.reverse_futility = false,
            "no-lmp" => features.late_move_pruning = false,
            "no-quiescence" => features.quiescence = false,
            "no-aspiration" => features.aspiration = false,
            "no-threat-extension" => features.threat_extension = false,
            "threat-extension" => features.threat_extension = true,
            "hand-eval" => features.learned_eval = false,
            "network" => {
                // Read with a size limit: `network=/dev/zero` is refused, not read until memory
                // runs out. Read once here; the workers share it.
                let read =
                    Network::from_file(value).map_err(|e| format!("engine option network: {e}"))?;
                engine.network = Some(Arc::new(read));
            }
            term if term.starts_with("w.") => {
                let value: i32 = value
                    .parse()
                    .map_err(|_| format!("{term} wants a whole number"))?;
                let slot = engine
                    .weights
                    .term_mut(&term[2..])
                    .ok_or_else(|| format!("unknown evaluation term {:?}", &term[2..]))?;
                *slot = value;
            }
            other => return Err(format!("unknown engine option {other:?}")),
        }
    }
    Ok(engine)
}

/// Splits a command line into words as a POSIX shell would for plain words: white space
/// separates, `'...'` quotes literally, `"..."` quotes with `\"` and `\\` escapes, and a
/// backslash outside quotes escapes the next character. No variables, globs or redirections.
pub fn split_command_line(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("an unclosed ' in {text:?}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("an unclosed \" in {text:?}")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("an unclosed \" in {text:?}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(
            split_command_line(r#"sh -c 'cd /x && exec java' "a \"b\"" c\ d"#).unwrap(),
            ["sh", "-c", "cd /x && exec java", "a \"b\"", "c d"]
        );
        assert_eq!(split_command_line("  ").unwrap(), Vec::<String>::new());
        assert!(split_command_line("'open").is_err());
    }

    #[test]
    fn specifications_are_read_whole_and_bad_ones_say_why() {
        let spec: EngineSpec = "engine:depth=3,no-lmr,w.attacker=120".parse().unwrap();
        let EngineKind::Engine(options) = &spec.kind else {
            panic!("not an engine");
        };
        assert_eq!(options.limits.depth, Some(3));
        assert!(!options.features.late_move_reductions);
        assert_eq!(spec.to_string(), "engine:depth=3,no-lmr,w.attacker=120");
        assert!(matches!(
            "otep:a 'b c'".parse::<EngineSpec>().unwrap().kind,
            EngineKind::Otep(words) if words == ["a", "b c"]
        ));
        for (text, fragment) in [
            ("foo", "unknown engine \"foo\""),
            ("otep:  ", "no command after otep:"),
            ("engine:depth=x", "depth wants a number"),
            ("engine:frobnicate", "unknown engine option"),
            ("engine:w.nothing=3", "unknown evaluation term"),
            ("greedy:depth=1", "greedy takes no options"),
        ] {
            let error = text.parse::<EngineSpec>().unwrap_err();
            assert!(error.contains(fragment), "{text}: {error}");
        }
    }
}
