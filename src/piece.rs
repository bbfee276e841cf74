//! Sides and pieces (R3).

use std::fmt;
use std::ops::Not;

/// One of the two sides (R3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Side {
    /// The soldiers around the edge; they move first (R4).
    Attackers,
    /// The king and his soldiers.
    Defenders,
}

impl Side {
    /// Both sides, attackers first.
    pub const ALL: [Side; 2] = [Side::Attackers, Side::Defenders];

    /// The other side.
    pub const fn opponent(self) -> Side {
        match self {
            Side::Attackers => Side::Defenders,
            Side::Defenders => Side::Attackers,
        }
    }

    /// The protocol word for the side: `attackers` or `defenders`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Attackers => "attackers",
            Side::Defenders => "defenders",
        }
    }

    /// Reads `attackers` or `defenders` (also the singular and the first letter), any case.
    pub fn from_name(name: &str) -> Option<Side> {
        match name.to_ascii_lowercase().as_str() {
            "attackers" | "attacker" | "a" => Some(Side::Attackers),
            "defenders" | "defender" | "d" => Some(Side::Defenders),
            _ => None,
        }
    }
}

impl Not for Side {
    type Output = Side;
    fn not(self) -> Side {
        self.opponent()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece on the board. "Soldier" is any piece but the king (R3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// An attacking soldier (`t` in OpenTafl records).
    Attacker,
    /// A defending soldier (`T`).
    Defender,
    /// The king (`K`), who belongs to the defenders.
    King,
}

impl Piece {
    /// The side the piece plays for.
    pub const fn side(self) -> Side {
        match self {
            Piece::Attacker => Side::Attackers,
            Piece::Defender | Piece::King => Side::Defenders,
        }
    }

    /// The piece's letter in OpenTafl records and full moves: `t`, `T` or `K`.
    pub const fn record_char(self) -> char {
        match self {
            Piece::Attacker => 't',
            Piece::Defender => 'T',
            Piece::King => 'K',
        }
    }

    /// The piece for an OpenTafl record letter, if it is one this crate plays.
    pub const fn from_record_char(letter: char) -> Option<Piece> {
        match letter {
            't' => Some(Piece::Attacker),
            'T' => Some(Piece::Defender),
            'K' => Some(Piece::King),
            _ => None,
        }
    }

    /// The piece's letter in board diagrams, as docs/rules.md draws them: `a`, `d` or `K`.
    pub const fn diagram_char(self) -> char {
        match self {
            Piece::Attacker => 'a',
            Piece::Defender => 'd',
            Piece::King => 'K',
        }
    }
}
