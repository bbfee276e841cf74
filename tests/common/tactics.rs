//! The tactics suite, tests/data/tactics.txt: forced wins the search must find (tests/engine/search.rs)
//! and that the search benchmark times (benches/search.rs), read by one reader.
#![allow(dead_code)]

use tafl_engine::{Position, Side, Variant, notation};

use super::blocks::keyed_blocks;

/// One block of tests/data/tactics.txt.
pub struct Tactic {
    pub id: String,
    pub game: String,
    pub record: String,
    pub side: Side,
    /// The side to move wins with its `moves`-th move at the latest, whatever the other side does.
    pub moves: u32,
}

impl Tactic {
    pub fn position(&self) -> Position {
        let rules = Variant::by_name(&self.game)
            .unwrap_or_else(|| panic!("tactic {}: unknown game {}", self.id, self.game))
            .rules();
        notation::parse_position_record(&self.record, rules, self.side)
            .unwrap_or_else(|e| panic!("tactic {}: {e}", self.id))
    }

    /// Plies to the win: the winner's moves and the replies between them.
    pub fn plies(&self) -> u32 {
        2 * self.moves - 1
    }
}

pub fn tactics() -> Vec<Tactic> {
    keyed_blocks(
        include_str!("../data/tactics.txt"),
        "tactic",
        |id| Tactic {
            id: id.to_string(),
            game: String::new(),
            record: String::new(),
            side: Side::Attackers,
            moves: 0,
        },
        |tactic, key, value| match key {
            "game" => tactic.game = value.to_string(),
            "position" => tactic.record = value.to_string(),
            "side" => tactic.side = Side::from_name(value).expect("side is attackers or defenders"),
            "result" => {
                let moves = value.strip_prefix("win-in ").expect("result is `win-in N`");
                tactic.moves = moves.parse().expect("N is a number");
            }
            "comment" => {}
            other => panic!("tactic {}: unknown key {other}", tactic.id),
        },
    )
}
