#![allow(dead_code)]
//! Reads the perft fixtures of rules strings and of Ashton Tablut: tests/data/opentafl-variants.txt,
//! tests/data/opentafl-wide.txt
//! and tests/data/ashton-perft.txt, blocks of `id`, `rules` (a whole OpenTafl rules string) or
//! `position` (a position record), `side`, `perft DEPTH COUNT` and
//! `ends DEPTH ATTACKER_WINS DEFENDER_WINS DRAWS`.

use tafl_engine::Side;

use super::blocks::keyed_blocks;

pub struct VariantFixture {
    pub id: String,
    pub rules: String,
    /// The position record (rank 1 first), for fixtures that give one instead of `rules`.
    pub position: String,
    /// `true` when the attackers are to move.
    pub attackers_to_move: bool,
    /// (depth, leaves).
    pub perft: Vec<(usize, u64)>,
    /// (depth, attacker wins, defender wins, draws).
    pub ends: Vec<(usize, u64, u64, u64)>,
}

impl VariantFixture {
    /// The side to move.
    pub fn side(&self) -> Side {
        if self.attackers_to_move {
            Side::Attackers
        } else {
            Side::Defenders
        }
    }

    /// The deepest depth of the block's lines.
    pub fn depth(&self) -> usize {
        self.perft
            .iter()
            .map(|&(d, _)| d)
            .chain(self.ends.iter().map(|&(d, ..)| d))
            .max()
            .unwrap_or(0)
    }

    /// The variant's name: the id without its `-start` / `-sample-N` tail.
    pub fn variant(&self) -> &str {
        if let Some(cut) = self.id.rfind("-sample-") {
            &self.id[..cut]
        } else if let Some(stripped) = self.id.strip_suffix("-start") {
            stripped
        } else {
            &self.id
        }
    }
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> T {
    text.parse()
        .unwrap_or_else(|_| panic!("fixture: {what} '{text}' is not a number"))
}

/// The blocks of tests/data/opentafl-variants.txt.
pub fn variant_fixtures() -> Vec<VariantFixture> {
    fixtures_in(include_str!("../data/opentafl-variants.txt"))
}

/// The blocks of tests/data/opentafl-wide.txt: rules strings of boards larger than 11x11.
pub fn wide_fixtures() -> Vec<VariantFixture> {
    fixtures_in(include_str!("../data/opentafl-wide.txt"))
}

/// The blocks of tests/data/ashton-perft.txt.
pub fn ashton_fixtures() -> Vec<VariantFixture> {
    fixtures_in(include_str!("../data/ashton-perft.txt"))
}

/// The blocks of a fixture file's `text`.
fn fixtures_in(text: &str) -> Vec<VariantFixture> {
    keyed_blocks(
        text,
        "fixture",
        |id| VariantFixture {
            id: id.to_string(),
            rules: String::new(),
            position: String::new(),
            attackers_to_move: true,
            perft: Vec::new(),
            ends: Vec::new(),
        },
        |current, key, value| {
            let fields: Vec<&str> = value.split_whitespace().collect();
            match key {
                "rules" => current.rules = value.to_string(),
                "position" => current.position = value.to_string(),
                "side" => {
                    current.attackers_to_move = match value {
                        "attackers" => true,
                        "defenders" => false,
                        other => panic!("fixture {}: side '{other}'", current.id),
                    }
                }
                "perft" => {
                    assert_eq!(fields.len(), 2, "perft DEPTH COUNT");
                    current
                        .perft
                        .push((number(fields[0], "depth"), number(fields[1], "count")));
                }
                "ends" => {
                    assert_eq!(fields.len(), 4, "ends DEPTH A D DRAWS");
                    current.ends.push((
                        number(fields[0], "depth"),
                        number(fields[1], "attacker wins"),
                        number(fields[2], "defender wins"),
                        number(fields[3], "draws"),
                    ));
                }
                other => panic!("unknown fixture key {other}"),
            }
        },
    )
}
