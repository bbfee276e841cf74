//! A game's two seats, attackers and defenders: each is the engine, a person (who holds the
//! seat's secret) or open (waiting for a person). Only each secret's hash is kept.

use serde_json::{Value, json};
use tafl_engine::Side;

use crate::ids::secret_hash;

/// Who sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// The engine plays this side.
    Engine,
    /// A person, holding the seat's secret.
    Person,
    /// Nobody yet: a person may take it.
    Open,
}

impl SeatKind {
    /// `engine`, `person` or `open`.
    pub fn name(self) -> &'static str {
        match self {
            SeatKind::Engine => "engine",
            SeatKind::Person => "person",
            SeatKind::Open => "open",
        }
    }

    /// The kind from its name.
    pub fn from_name(text: &str) -> Option<SeatKind> {
        match text {
            "engine" => Some(SeatKind::Engine),
            "person" => Some(SeatKind::Person),
            "open" => Some(SeatKind::Open),
            _ => None,
        }
    }
}

/// One seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// Who sits there.
    pub kind: SeatKind,
    /// The hex SHA-256 of the secret of the person sitting there.
    pub hash: Option<String>,
}

impl Seat {
    /// The engine's seat.
    pub fn engine() -> Seat {
        Seat {
            kind: SeatKind::Engine,
            hash: None,
        }
    }

    /// An open seat.
    pub fn open() -> Seat {
        Seat {
            kind: SeatKind::Open,
            hash: None,
        }
    }

    /// A person's seat, held by the secret whose hash this is.
    pub fn person(hash: &str) -> Seat {
        Seat {
            kind: SeatKind::Person,
            hash: Some(hash.to_owned()),
        }
    }
}

/// Both seats of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seats {
    /// The attackers' seat.
    pub attackers: Seat,
    /// The defenders' seat.
    pub defenders: Seat,
}

impl Seats {
    /// `side`'s seat.
    pub fn get(&self, side: Side) -> &Seat {
        match side {
            Side::Attackers => &self.attackers,
            Side::Defenders => &self.defenders,
        }
    }

    /// `side`'s seat, to change.
    pub fn get_mut(&mut self, side: Side) -> &mut Seat {
        match side {
            Side::Attackers => &mut self.attackers,
            Side::Defenders => &mut self.defenders,
        }
    }

    /// A game stored before seats had secrets: nobody can change it.
    pub fn read_only(&self) -> bool {
        self.attackers.hash.is_none() && self.defenders.hash.is_none()
    }

    /// The sides whose seat `secret` holds (none, one, or both on an analysis board).
    pub fn held_by(&self, secret: &str) -> Vec<Side> {
        let hash = secret_hash(secret);
        [Side::Attackers, Side::Defenders]
            .into_iter()
            .filter(|&side| self.get(side).hash.as_deref() == Some(hash.as_str()))
            .collect()
    }

    /// What every page sees: each seat's kind (never a hash).
    pub fn view(&self) -> Value {
        json!({
            "attackers": self.attackers.kind.name(),
            "defenders": self.defenders.kind.name(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::new_secret;

    #[test]
    fn a_secret_holds_only_its_own_seats() {
        let (mine, theirs) = (new_secret(), new_secret());
        let seats = Seats {
            attackers: Seat::person(&secret_hash(&mine)),
            defenders: Seat::person(&secret_hash(&theirs)),
        };
        assert_eq!(seats.held_by(&mine), vec![Side::Attackers]);
        assert_eq!(seats.held_by(&theirs), vec![Side::Defenders]);
        assert!(seats.held_by(&new_secret()).is_empty());
        assert!(seats.held_by("").is_empty());
        assert!(!seats.read_only());
        let old = Seats {
            attackers: Seat::engine(),
            defenders: Seat::open(),
        };
        assert!(old.read_only());
        assert!(old.held_by(&mine).is_empty());
    }
}
