//! Reads tests/data/perft.txt: blocks of `id`, `game`, `position`, `side`, `perft DEPTH COUNT`.
#![allow(dead_code)]

use tafl_engine::{Position, Rules, Side, notation};

use super::blocks::keyed_blocks;

pub struct PerftFixture {
    pub id: String,
    pub game: String,
    pub record: String,
    pub side: Side,
    pub counts: Vec<(u32, u64)>,
}

impl PerftFixture {
    pub fn rules(&self) -> Rules {
        match self.game.as_str() {
            "tablut" => Rules::TABLUT,
            "tawlbwrdd" => Rules::TAWLBWRDD,
            other => panic!("fixture {}: unknown game {other}", self.id),
        }
    }

    pub fn position(&self) -> Position {
        notation::parse_position_record(&self.record, self.rules(), self.side)
            .unwrap_or_else(|e| panic!("fixture {}: {e}", self.id))
    }
}

pub fn perft_fixtures() -> Vec<PerftFixture> {
    let fixtures = keyed_blocks(
        include_str!("../data/perft.txt"),
        "fixture",
        |id| PerftFixture {
            id: id.to_string(),
            game: String::new(),
            record: String::new(),
            side: Side::Attackers,
            counts: Vec::new(),
        },
        |current, key, value| match key {
            "game" => current.game = value.to_string(),
            "position" => current.record = value.to_string(),
            "side" => current.side = Side::from_name(value).expect("side is attackers|defenders"),
            "perft" => {
                let (depth, count) = value.split_once(' ').expect("perft DEPTH COUNT");
                current
                    .counts
                    .push((depth.parse().expect("depth"), count.parse().expect("count")));
            }
            other => panic!("unknown fixture key {other}"),
        },
    );
    assert!(fixtures.len() >= 18, "the fixture file has all its blocks");
    fixtures
}
