#![allow(dead_code)]
//! Slow, plain reference implementation of the tafl rules in `docs/rules.md` (clauses R1-R18, P1).
//!
//! This module is a test oracle for the fast engine. It deliberately shares no code with the
//! crate: it uses only `std`, stores the board as a flat `Vec<Cell>` and answers every question
//! with explicit loops over the four directions. Performance is irrelevant; clarity is the goal.
//!
//! Coordinates: `x` is the file (`a` = 0), `y` is the rank minus one (rank 1 = `y` 0), R2.
//! Cell index is `y * size + x`.

/// Contents of one square.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Cell {
    Empty,
    Attacker,
    Defender,
    King,
}

/// A position: placement of all pieces plus the side to move.
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct RefBoard {
    /// Board side length (9 for Tablut, 11 for Tawlbwrdd; any odd size from 5 works).
    pub size: usize,
    /// `cells[y * size + x]`.
    pub cells: Vec<Cell>,
    /// `true` when the attackers are to move.
    pub attackers_to_move: bool,
}

/// Result of a finished game (R13, R14, R17).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RefOutcome {
    AttackersWin,
    DefendersWin,
    DrawNoMoves,
}

/// The four orthogonal directions (R2a, R5) as (dx, dy).
const DIRECTIONS: [(i64, i64); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// Smallest and largest board sizes `from_record` accepts (odd sizes only, so a centre exists).
const MIN_SIZE: usize = 5;
const MAX_SIZE: usize = 25;

impl RefBoard {
    /// Parse an OpenTafl position record, rank 1 first: `/3ttt3/4t4/.../`.
    ///
    /// Rows are separated by `/`, with a leading and a trailing `/`. A run of digits counts
    /// empty squares (`10`, `11`, ...), `t` is an attacker, `T` a defender soldier, `K` the king.
    /// The size is the number of rows; every row must have exactly `size` squares; the size
    /// must be odd (R1: there is a centre square) and between 5 and 25. At most one king.
    /// Never panics; anything malformed gives `Err`.
    pub fn from_record(record: &str, attackers_to_move: bool) -> Result<RefBoard, String> {
        let text = record.trim();
        if !text.starts_with('/') {
            return Err(format!("record must start with '/': {record:?}"));
        }
        if !text.ends_with('/') || text.len() < 2 {
            return Err(format!("record must end with '/': {record:?}"));
        }
        // Strip exactly one leading and one trailing '/'.
        let inner = &text[1..text.len() - 1];
        let rows: Vec<&str> = inner.split('/').collect();
        let size = rows.len();
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(format!(
                "board must have between {MIN_SIZE} and {MAX_SIZE} rows, found {size}"
            ));
        }
        if size % 2 != 1 {
            return Err(format!(
                "board size must be odd (a castle is needed), found {size}"
            ));
        }

        let mut cells: Vec<Cell> = Vec::with_capacity(size * size);
        let mut kings = 0usize;
        for (row_number, row) in rows.iter().enumerate() {
            let mut row_cells: Vec<Cell> = Vec::new();
            let chars: Vec<char> = row.chars().collect();
            let mut i = 0usize;
            while i < chars.len() {
                let c = chars[i];
                if c.is_ascii_digit() {
                    // A maximal run of digits is one count of empty squares. A count never
                    // starts with 0 ("0", "09" are malformed).
                    if c == '0' {
                        return Err(format!(
                            "row {} (rank {}): empty-square count starting with 0",
                            row_number,
                            row_number + 1
                        ));
                    }
                    let mut count: usize = 0;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        let digit = chars[i] as usize - '0' as usize;
                        count = count * 10 + digit;
                        if count > size {
                            return Err(format!(
                                "row {} (rank {}): run of empty squares longer than the board",
                                row_number,
                                row_number + 1
                            ));
                        }
                        i += 1;
                    }
                    for _ in 0..count {
                        row_cells.push(Cell::Empty);
                    }
                } else {
                    let cell = match c {
                        't' => Cell::Attacker,
                        'T' => Cell::Defender,
                        'K' => Cell::King,
                        other => {
                            return Err(format!(
                                "row {} (rank {}): unexpected character {other:?}",
                                row_number,
                                row_number + 1
                            ));
                        }
                    };
                    if cell == Cell::King {
                        kings += 1;
                    }
                    row_cells.push(cell);
                    i += 1;
                }
                if row_cells.len() > size {
                    return Err(format!(
                        "row {} (rank {}): more than {size} squares",
                        row_number,
                        row_number + 1
                    ));
                }
            }
            if row_cells.len() != size {
                return Err(format!(
                    "row {} (rank {}): {} squares, expected {size}",
                    row_number,
                    row_number + 1,
                    row_cells.len()
                ));
            }
            cells.extend(row_cells);
        }
        if kings > 1 {
            return Err(format!("at most one king allowed, found {kings}"));
        }
        Ok(RefBoard {
            size,
            cells,
            attackers_to_move,
        })
    }

    /// The record in canonical form: rank 1 first, runs of empty squares merged into one number.
    pub fn to_record(&self) -> String {
        let mut out = String::from("/");
        for y in 0..self.size {
            let mut empty_run = 0usize;
            for x in 0..self.size {
                let c = self.get(x, y);
                if c == Cell::Empty {
                    empty_run += 1;
                    continue;
                }
                if empty_run > 0 {
                    out.push_str(&empty_run.to_string());
                    empty_run = 0;
                }
                out.push(match c {
                    Cell::Attacker => 't',
                    Cell::Defender => 'T',
                    Cell::King => 'K',
                    Cell::Empty => unreachable!(),
                });
            }
            if empty_run > 0 {
                out.push_str(&empty_run.to_string());
            }
            out.push('/');
        }
        out
    }

    /// The castle is the centre square (R1).
    pub fn castle(&self) -> (usize, usize) {
        (self.size / 2, self.size / 2)
    }

    /// Contents of square (x, y). Panics when off the board.
    pub fn get(&self, x: usize, y: usize) -> Cell {
        assert!(
            x < self.size && y < self.size,
            "square ({x}, {y}) off the board"
        );
        self.cells[y * self.size + x]
    }

    fn set(&mut self, x: usize, y: usize, cell: Cell) {
        assert!(
            x < self.size && y < self.size,
            "square ({x}, {y}) off the board"
        );
        self.cells[y * self.size + x] = cell;
    }

    /// The square one step from (x, y) in direction (dx, dy), or `None` off the board.
    fn step(&self, x: usize, y: usize, dx: i64, dy: i64) -> Option<(usize, usize)> {
        let nx = x as i64 + dx;
        let ny = y as i64 + dy;
        if nx < 0 || ny < 0 || nx >= self.size as i64 || ny >= self.size as i64 {
            None
        } else {
            Some((nx as usize, ny as usize))
        }
    }

    fn is_castle(&self, x: usize, y: usize) -> bool {
        (x, y) == self.castle()
    }

    /// R14: an edge square is on rank 1, the last rank, file a or the last file.
    fn is_edge(&self, x: usize, y: usize) -> bool {
        x == 0 || y == 0 || x == self.size - 1 || y == self.size - 1
    }

    /// Where the king is, if he is on the board.
    fn king_square(&self) -> Option<(usize, usize)> {
        for y in 0..self.size {
            for x in 0..self.size {
                if self.get(x, y) == Cell::King {
                    return Some((x, y));
                }
            }
        }
        None
    }

    /// R3: attackers are one side; defenders are the defender soldiers and the king.
    fn is_attacker_side(cell: Cell) -> bool {
        cell == Cell::Attacker
    }

    fn is_defender_side(cell: Cell) -> bool {
        cell == Cell::Defender || cell == Cell::King
    }

    /// Does `cell` belong to the side that is to move?
    fn belongs_to_mover(&self, cell: Cell) -> bool {
        if self.attackers_to_move {
            Self::is_attacker_side(cell)
        } else {
            Self::is_defender_side(cell)
        }
    }

    /// Is `cell` an enemy *soldier* of the side to move (never the king: R12)?
    fn is_enemy_soldier(&self, cell: Cell) -> bool {
        if self.attackers_to_move {
            cell == Cell::Defender
        } else {
            cell == Cell::Attacker
        }
    }

    /// Won games: no king on the board (captured, R13) or king on an edge square (R14).
    fn won(&self) -> Option<RefOutcome> {
        match self.king_square() {
            None => Some(RefOutcome::AttackersWin),
            Some((kx, ky)) if self.is_edge(kx, ky) => Some(RefOutcome::DefendersWin),
            Some(_) => None,
        }
    }

    /// All legal moves of the side to move. Empty when the game is already won.
    pub fn legal_moves(&self) -> Vec<((usize, usize), (usize, usize))> {
        let mut moves = Vec::new();
        // A won position has no legal moves (P1).
        if self.won().is_some() {
            return moves;
        }
        for y in 0..self.size {
            for x in 0..self.size {
                let piece = self.get(x, y);
                if piece == Cell::Empty || !self.belongs_to_mover(piece) {
                    continue;
                }
                for (dx, dy) in DIRECTIONS {
                    // R5: slide like a rook over empty squares; stop at the first piece.
                    let mut cur = (x, y);
                    while let Some((nx, ny)) = self.step(cur.0, cur.1, dx, dy) {
                        if self.get(nx, ny) != Cell::Empty {
                            break; // R5: no jumping over a piece (an occupied castle included).
                        }
                        cur = (nx, ny);
                        if self.is_castle(nx, ny) {
                            // R6: nobody may stop on the castle (the king, once off it, cannot
                            // return). R7: but anyone may pass over it while it is empty.
                            continue;
                        }
                        moves.push(((x, y), (nx, ny)));
                    }
                }
            }
        }
        moves
    }

    /// Play a move (assumed legal). Returns the new position, with the other side to move, and
    /// the squares whose pieces were captured (soldiers per R9, then the king per R13).
    pub fn play(
        &self,
        from: (usize, usize),
        to: (usize, usize),
    ) -> (RefBoard, Vec<(usize, usize)>) {
        let mut next = self.clone();
        let mut captured: Vec<(usize, usize)> = Vec::new();
        let piece = self.get(from.0, from.1);
        next.set(from.0, from.1, Cell::Empty);
        next.set(to.0, to.1, piece);
        let (tx, ty) = to;

        // R8/R9/R11: soldier captures, only next to the landing square T, only by the mover.
        // `next` still has the mover's side to move at this point, so `next.is_enemy_soldier`
        // and `next.belongs_to_mover` refer to the side that just moved.
        for (dx, dy) in DIRECTIONS {
            let Some((nx, ny)) = next.step(tx, ty, dx, dy) else {
                continue;
            };
            let neighbour = next.get(nx, ny);
            // R12: only soldiers here; the king is never captured by R9.
            if !next.is_enemy_soldier(neighbour) {
                continue;
            }
            // F: the square beyond N on the same line. Off the board: the edge is never hostile.
            let Some((fx, fy)) = next.step(nx, ny, dx, dy) else {
                continue;
            };
            let far = next.get(fx, fy);
            // R9: F is hostile when it holds a piece of the mover's side (the king counts, as
            // hammer and as anvil) ...
            let hostile_piece = far != Cell::Empty && next.belongs_to_mover(far);
            // ... R9/R10: or when F is the castle and the castle is empty (hostile to both
            // sides' soldiers). The castle with the king on it is not hostile as a square; the
            // king there counts through `hostile_piece` above when the defenders move.
            let hostile_castle = next.is_castle(fx, fy) && far == Cell::Empty;
            if hostile_piece || hostile_castle {
                captured.push((nx, ny));
            }
        }
        // Remove after testing all four directions. (The order cannot matter: no direction's N
        // or F is another direction's N or F.)
        for &(cx, cy) in &captured {
            next.set(cx, cy, Cell::Empty);
        }

        // R13 (after R9, per R15): king capture, only after an attacker's move next to him.
        let king_taken = if piece == Cell::Attacker {
            next.king_captured_by_attacker_move(tx, ty)
        } else {
            None
        };
        if let Some((kx, ky)) = king_taken {
            next.set(kx, ky, Cell::Empty);
            captured.push((kx, ky));
        }
        // R14 needs no action here: a king on an edge square is a won game (see `outcome`).

        next.attackers_to_move = !self.attackers_to_move;
        (next, captured)
    }

    /// R13, tested on the position after the soldier captures of an attacker's move to (tx, ty).
    /// Returns the king's square when he is captured.
    fn king_captured_by_attacker_move(&self, tx: usize, ty: usize) -> Option<(usize, usize)> {
        let (kx, ky) = self.king_square()?;
        if self.king_surrounded(kx, ky, tx, ty) {
            Some((kx, ky))
        } else {
            None
        }
    }

    /// R13 for the king on (kx, ky) after an attacker landed on (tx, ty).
    fn king_surrounded(&self, kx: usize, ky: usize, tx: usize, ty: usize) -> bool {
        // "After an attacker's move to square T that is next to the king."
        let mut t_next_to_king = false;
        for (dx, dy) in DIRECTIONS {
            if self.step(kx, ky, dx, dy) == Some((tx, ty)) {
                t_next_to_king = true;
            }
        }
        if !t_next_to_king {
            return false;
        }

        let (cx, cy) = self.castle();
        if (kx, ky) == (cx, cy) {
            // King on the castle: attackers on all four neighbours of the castle.
            for (dx, dy) in DIRECTIONS {
                match self.step(kx, ky, dx, dy) {
                    Some((nx, ny)) if self.get(nx, ny) == Cell::Attacker => {}
                    _ => return false,
                }
            }
            return true;
        }

        let mut king_next_to_castle = false;
        for (dx, dy) in DIRECTIONS {
            if self.step(kx, ky, dx, dy) == Some((cx, cy)) {
                king_next_to_castle = true;
            }
        }
        if king_next_to_castle {
            // King next to the castle: attackers on his three other neighbours (the castle is
            // the fourth wall).
            for (dx, dy) in DIRECTIONS {
                match self.step(kx, ky, dx, dy) {
                    Some((nx, ny)) if (nx, ny) == (cx, cy) => {} // the castle itself
                    Some((nx, ny)) if self.get(nx, ny) == Cell::Attacker => {}
                    _ => return false,
                }
            }
            return true;
        }

        // King anywhere else: T and the square on the opposite side of the king both attackers.
        // T holds the attacker that just moved. Opposite square = king + (king - T).
        let dx = kx as i64 - tx as i64;
        let dy = ky as i64 - ty as i64;
        match self.step(kx, ky, dx, dy) {
            Some((ox, oy)) => {
                self.get(tx, ty) == Cell::Attacker && self.get(ox, oy) == Cell::Attacker
            }
            None => false, // off the board: the edge is never hostile
        }
    }

    /// Won games first (no king: attackers win, R13; king on an edge square: defenders win, R14);
    /// otherwise a draw when the side to move has no legal move (R17); otherwise `None`.
    /// Repetition (R16) and agreement (R18) depend on history / players, not on the position.
    pub fn outcome(&self) -> Option<RefOutcome> {
        if let Some(won) = self.won() {
            return Some(won);
        }
        if self.legal_moves().is_empty() {
            return Some(RefOutcome::DrawNoMoves);
        }
        None
    }

    /// P1: perft(p, 0) = 1; perft(p, d) = sum over legal moves m of perft(p.play(m), d - 1).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut total = 0u64;
        for (from, to) in self.legal_moves() {
            let (child, _) = self.play(from, to);
            total += child.perft(depth - 1);
        }
        total
    }
}
