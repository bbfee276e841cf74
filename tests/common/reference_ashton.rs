#![allow(dead_code)]
//! Slow, plain reference implementation of Ashton Tablut as the Tablut Challenge server plays it.
//!
//! A test oracle, written from the server's Java source only, not from the crate:
//! `domain/GameAshtonTablut.java` (`checkMove`, `movePawn`, `checkCaptureWhite`,
//! `checkCaptureBlack` and its eight helpers, the draw cache), `domain/StateTablut.java` (the
//! start), `domain/State.java` (`getBox`, `equals`) and `server/Server.java` (Ashton is game 4:
//! the start state with WHITE to move; a draw cache of unlimited size and `repeated = 0`, the
//! server's defaults; a player who sends no move loses on time). Every function says which Java
//! method it mirrors and follows what that code does, quirks included (each quirk is said where
//! it is reproduced). Only `std`; the board is a flat `Vec<Cell>`.
//!
//! Coordinates. The Java board is `board[row][column]` and `getBox(row, column)` names the square
//! `letter(column) + (row + 1)`, so `board[r][c]` is the square (x = c, y = r): file a = x 0,
//! rank 1 = y 0, as everywhere in this project. Cell index is `y * 9 + x`. Inside the functions
//! that mirror Java the names are Java's (`row`, `column`); the public API speaks (x, y).
//!
//! Sides. Black (the Java's `B`) is the attacker side (`Cell::Attacker`, `t` in a record); White
//! is the white soldiers (`W`, `Cell::Defender`, `T`) and the king (`K`, `Cell::King`, `K`).
//!
//! The throne. The Java has a fifth square content, `THRONE` ("T"): `e5` holds the king at the
//! start and `movePawn` writes `THRONE` there when anything leaves `e5`. Nothing can ever land on
//! `e5` again (`checkMove` refuses a `THRONE` destination) and the king is never taken off the
//! board, so `e5` always holds the king or `THRONE`. Here an empty `e5` *is* the Java's `THRONE`
//! (`pawn` below), and `from_record` refuses a soldier on `e5`.
//!
//! A side with no legal move. The Java has no such rule: the server waits for a move that cannot
//! come, the player's clock runs out, and the server declares that player lost
//! (`Server.run`, "Timeout! Player ... lose!"). Modelled here as: the side to move with no legal
//! move loses.

use std::collections::BTreeSet;

use super::reference::{Cell, RefBoard};

/// A square as (x, y).
pub type Xy = (usize, usize);

/// A move as (from, to).
pub type AshtonMove = (Xy, Xy);

/// The board's side length (`board.length` in the Java, always 9 for Ashton).
pub const SIZE: usize = 9;

/// `GameAshtonTablut.citadels`, in the constructor's order: the four camps of four squares.
pub const CITADELS: [&str; 16] = [
    "a4", "a5", "a6", "b5", "d1", "e1", "f1", "e2", "i4", "i5", "i6", "h5", "d9", "e9", "f9", "e8",
];

/// The start, rank 1 first (`StateTablut()`): the king on e5, white on e3 e4 e6 e7 c5 d5 f5 g5,
/// black on the sixteen camp squares.
pub const START_RECORD: &str = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

/// How a game ended: the Java's `Turn.BLACKWIN`, `Turn.WHITEWIN`, `Turn.DRAW`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum AshtonOutcome {
    /// Black (the attackers) won: the king was captured, or White had no legal move.
    BlackWin,
    /// White (the defenders) won: the king reached an edge, or Black had no legal move.
    WhiteWin,
    /// A state already in the draw cache occurred again.
    Draw,
}

/// The exceptions of `checkMove`, in the order it throws them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// `BoardException`: a square off the board.
    Board,
    /// `ThroneException`: the destination is the empty throne.
    Throne,
    /// `OccupitedException`: the destination holds a piece (the king on e5 included).
    Occupied,
    /// `CitadelException`: into a camp from outside the camps, or camp to camp more than 5 away.
    Citadel,
    /// `StopException`: from and to are the same square.
    Stop,
    /// `PawnException`: the piece on `from` is not one of the mover's.
    Pawn,
    /// `DiagonalException`: not along a rank or a file.
    Diagonal,
    /// `ClimbingException`: a piece or the throne on the way (destination included).
    Climbing,
    /// `ClimbingCitadelException`: a camp square on the way, from outside the camps.
    ClimbingCitadel,
    /// Not a Java exception: the game is over (the Java would not be asked).
    GameOver,
}

/// The Java's `State.Pawn`: what `getPawn` returns.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Pawn {
    Empty,
    White,
    Black,
    Throne,
    King,
}

/// Counts of one perft depth: leaves, and how many of them are finished games, by result.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct DepthCounts {
    pub leaves: u64,
    pub black_wins: u64,
    pub white_wins: u64,
    pub draws: u64,
}

/// `State.getBox(row, column)`: `letter(column) + (row + 1)`.
pub fn box_name(row: usize, column: usize) -> String {
    format!("{}{}", char::from(b'a' + column as u8), row + 1)
}

/// `citadels.contains(getBox(row, column))`.
fn is_citadel(row: usize, column: usize) -> bool {
    let name = box_name(row, column);
    CITADELS.contains(&name.as_str())
}

/// A game of Ashton Tablut in progress: the Java's `State` (board and turn) plus the game's
/// draw cache (`GameAshtonTablut.drawConditions`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AshtonBoard {
    /// `cells[y * 9 + x]`; an empty e5 is the Java's `THRONE`.
    pub cells: Vec<Cell>,
    /// The side `movePawn` handed the turn to: `Turn.WHITE` or `Turn.BLACK`.
    pub white_to_move: bool,
    /// Set when the last move ended the game: the Java then overwrites the turn with
    /// `WHITEWIN`, `BLACKWIN` or `DRAW`.
    pub result: Option<AshtonOutcome>,
    /// `drawConditions`: the states (board, and turn as the Java set it) after each move since
    /// the last capture. The start state is never in it: `checkMove` adds the state after a
    /// move, and nothing adds the first one.
    pub draw_cache: Vec<(Vec<Cell>, bool, Option<AshtonOutcome>)>,
}

impl AshtonBoard {
    /// The start of an Ashton game on the server: `new StateTablut()` (whose own turn is BLACK),
    /// then `state.setTurn(State.Turn.WHITE)` (`Server.run`, `case 4`). White moves first.
    pub fn start() -> AshtonBoard {
        AshtonBoard::from_record(START_RECORD, true).expect("the start record parses")
    }

    /// A position from an OpenTafl-style record (`/3ttt3/4t4/.../`, rank 1 first, digits are runs
    /// of empty squares, `t` black, `T` white, `K` the king), with an empty draw cache (as the
    /// start's). 9x9 only; e5 must be empty (the throne) or hold the king.
    pub fn from_record(record: &str, white_to_move: bool) -> Result<AshtonBoard, String> {
        let board = RefBoard::from_record(record, !white_to_move)?;
        if board.size != SIZE {
            return Err(format!(
                "Ashton is played on 9x9, the record has {}",
                board.size
            ));
        }
        let e5 = board.get(4, 4);
        if e5 != Cell::Empty && e5 != Cell::King {
            return Err("only the king can stand on e5 (the throne)".to_string());
        }
        Ok(AshtonBoard {
            cells: board.cells,
            white_to_move,
            result: None,
            draw_cache: Vec::new(),
        })
    }

    /// The record, rank 1 first, runs of empty squares merged.
    pub fn record(&self) -> String {
        RefBoard {
            size: SIZE,
            cells: self.cells.clone(),
            attackers_to_move: !self.white_to_move,
        }
        .to_record()
    }

    /// Contents of (x, y).
    pub fn get(&self, (x, y): Xy) -> Cell {
        assert!(x < SIZE && y < SIZE, "({x}, {y}) off the board");
        self.cells[y * SIZE + x]
    }

    /// `State.getPawn(row, column)`, with an empty e5 read as `THRONE`.
    fn pawn(&self, row: usize, column: usize) -> Pawn {
        match self.cells[row * SIZE + column] {
            Cell::Empty if row == 4 && column == 4 => Pawn::Throne,
            Cell::Empty => Pawn::Empty,
            Cell::Attacker => Pawn::Black,
            Cell::Defender => Pawn::White,
            Cell::King => Pawn::King,
        }
    }

    /// `State.removePawn(row, column)`: the square becomes `EMPTY` (never `THRONE`; only soldiers
    /// are removed, and no soldier stands on e5).
    fn remove_pawn(&mut self, row: usize, column: usize) {
        self.cells[row * SIZE + column] = Cell::Empty;
    }

    // -----------------------------------------------------------------------------------------
    // Moves

    /// `GameAshtonTablut.checkMove`, its validation part (up to "se sono arrivato qui"): `Ok` when
    /// the server accepts the move from `from` to `to` in this state, else the exception it throws
    /// first. (`from`/`to` are (x, y) = (column, row).)
    pub fn check_move(&self, from: Xy, to: Xy) -> Result<(), MoveError> {
        if self.result.is_some() {
            return Err(MoveError::GameOver);
        }
        let (column_from, row_from) = from;
        let (column_to, row_to) = to;
        // "controllo se sono fuori dal tabellone" (the usize coordinates cannot be negative).
        if column_from > SIZE - 1
            || row_from > SIZE - 1
            || row_to > SIZE - 1
            || column_to > SIZE - 1
        {
            return Err(MoveError::Board);
        }
        // "controllo che non vada sul trono": the destination is the empty throne.
        if self.pawn(row_to, column_to) == Pawn::Throne {
            return Err(MoveError::Throne);
        }
        // "controllo la casella di arrivo": anything but EMPTY (the king on e5 included).
        if self.pawn(row_to, column_to) != Pawn::Empty {
            return Err(MoveError::Occupied);
        }
        // Into a camp only from a camp ...
        if is_citadel(row_to, column_to) && !is_citadel(row_from, column_from) {
            return Err(MoveError::Citadel);
        }
        // ... and then at most 5 squares away. Quirk reproduced: the limit is on the distance
        // only, so a piece still in its camp may move within its camp (a4-a6, d1-f1, e2-e1, ...)
        // but never straight across to the opposite camp (a4-i4, d1-d9: 8 squares).
        if is_citadel(row_to, column_to) && is_citadel(row_from, column_from) {
            if row_from == row_to {
                if column_from as i64 - column_to as i64 > 5
                    || (column_from as i64 - column_to as i64) < -5
                {
                    return Err(MoveError::Citadel);
                }
            } else if row_from as i64 - row_to as i64 > 5 || (row_from as i64 - row_to as i64) < -5
            {
                return Err(MoveError::Citadel);
            }
        }
        // "controllo se cerco di stare fermo" (never reached for a piece's own square, which is
        // occupied, but kept in the Java's order).
        if row_from == row_to && column_from == column_to {
            return Err(MoveError::Stop);
        }
        // "controllo se sto muovendo una pedina giusta": White moves W or K, Black moves B.
        let piece = self.pawn(row_from, column_from);
        if self.white_to_move {
            if piece != Pawn::White && piece != Pawn::King {
                return Err(MoveError::Pawn);
            }
        } else if piece != Pawn::Black {
            return Err(MoveError::Pawn);
        }
        // "controllo di non muovere in diagonale".
        if row_from != row_to && column_from != column_to {
            return Err(MoveError::Diagonal);
        }
        // "controllo di non scavalcare pedine": every square between, the destination included
        // and the origin excluded, must be EMPTY (so the throne, empty or not, blocks the way)
        // and, for a piece that does not start on a camp, must not be a camp. Quirk reproduced:
        // a piece that starts on a camp passes over camp squares freely.
        let from_citadel = is_citadel(row_from, column_from);
        let path: Vec<(usize, usize)> = if row_from == row_to {
            if column_from > column_to {
                (column_to..column_from).map(|i| (row_from, i)).collect()
            } else {
                (column_from + 1..=column_to)
                    .map(|i| (row_from, i))
                    .collect()
            }
        } else if row_from > row_to {
            (row_to..row_from).map(|i| (i, column_from)).collect()
        } else {
            (row_from + 1..=row_to).map(|i| (i, column_from)).collect()
        };
        for (row, column) in path {
            if self.pawn(row, column) != Pawn::Empty {
                return Err(MoveError::Climbing);
            }
            if is_citadel(row, column) && !from_citadel {
                return Err(MoveError::ClimbingCitadel);
            }
        }
        Ok(())
    }

    /// Every move `checkMove` accepts in this state (none once the game is over): each of the
    /// mover's pieces to each other square of its rank and file, kept when `check_move` is `Ok`.
    pub fn legal_moves(&self) -> BTreeSet<AshtonMove> {
        let mut moves = BTreeSet::new();
        if self.result.is_some() {
            return moves;
        }
        for y in 0..SIZE {
            for x in 0..SIZE {
                let mine = match self.get((x, y)) {
                    Cell::Attacker => !self.white_to_move,
                    Cell::Defender | Cell::King => self.white_to_move,
                    Cell::Empty => false,
                };
                if !mine {
                    continue;
                }
                for i in 0..SIZE {
                    for to in [(i, y), (x, i)] {
                        if to != (x, y) && self.check_move((x, y), to).is_ok() {
                            moves.insert(((x, y), to));
                        }
                    }
                }
            }
        }
        moves
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// `movePawn`, then `checkCaptureBlack` (after a Black move) or `checkCaptureWhite` (after a
    /// White move), on a copy: the state after the move with the draw cache untouched, and the
    /// squares whose pieces were removed. The move must be legal.
    fn after(&self, (from, to): AshtonMove) -> (AshtonBoard, BTreeSet<Xy>) {
        let mut next = AshtonBoard {
            cells: self.cells.clone(),
            white_to_move: self.white_to_move,
            result: None,
            draw_cache: Vec::new(),
        };
        // movePawn: the origin becomes EMPTY (THRONE for e5: an empty e5 here); the piece goes to
        // the destination; the turn passes.
        let piece = self.get(from);
        next.cells[from.1 * SIZE + from.0] = Cell::Empty;
        next.cells[to.1 * SIZE + to.0] = piece;
        next.white_to_move = !self.white_to_move;
        // checkMove: `if (state.getTurn().equalsTurn("W")) checkCaptureBlack else ...White`.
        let before = next.cells.clone();
        let (row_to, column_to) = (to.1, to.0);
        if next.white_to_move {
            next.check_capture_black(row_to, column_to);
        } else {
            next.check_capture_white(row_to, column_to);
        }
        let captured = (0..SIZE * SIZE)
            .filter(|&i| before[i] != Cell::Empty && next.cells[i] == Cell::Empty)
            .map(|i| (i % SIZE, i / SIZE))
            .collect();
        (next, captured)
    }

    /// Plays a legal move as `checkMove` does after its validation: `movePawn`, the captures, then
    /// the draw cache (cleared after a capture; the new state is a draw when it equals a state in
    /// the cache; then the new state is added). Returns the squares whose pieces were removed.
    /// A captured king is not removed (the Java only sets `BLACKWIN`), so it is never in the set.
    /// Panics on an illegal move, naming `checkMove`'s exception.
    pub fn play(&mut self, m: AshtonMove) -> BTreeSet<Xy> {
        if let Err(e) = self.check_move(m.0, m.1) {
            panic!("{m:?} is not legal in {}: {e:?}", self.record());
        }
        let (next, captured) = self.after(m);
        let mut cache = std::mem::take(&mut self.draw_cache);
        *self = next;
        // "if something has been captured, clear cache for draws": `movesWithutCapturing` is -1
        // after a removal and then incremented, so it is 0 exactly after a move that captured.
        // (No outcome depends on it: pieces are never added, so after a capture no earlier
        // board can come back. It is kept to follow the code.)
        if !captured.is_empty() {
            cache.clear();
        }
        // "controllo pareggio": `repeated_moves_allowed` is 0 (the server's default), so one
        // equal state in the cache is a draw. `State.equals` compares the board and the turn;
        // a state whose turn is WHITEWIN or BLACKWIN never equals a cached one (the game ended
        // at the first such state), so a winning move is never a draw.
        let state = (self.cells.clone(), self.white_to_move, self.result);
        if cache.contains(&state) {
            self.result = Some(AshtonOutcome::Draw);
        }
        // The cache size is unlimited (the server's default `-1`): nothing is dropped. The state
        // is added with its turn as set (a DRAW turn included).
        cache.push((self.cells.clone(), self.white_to_move, self.result));
        self.draw_cache = cache;
        captured
    }

    /// The game's end: the result the last move set (`WHITEWIN`, `BLACKWIN`, `DRAW`); otherwise,
    /// when the side to move has no legal move, that side loses (on time, on the server).
    pub fn outcome(&self) -> Option<AshtonOutcome> {
        if let Some(result) = self.result {
            return Some(result);
        }
        if !self.has_legal_move() {
            return Some(if self.white_to_move {
                AshtonOutcome::BlackWin
            } else {
                AshtonOutcome::WhiteWin
            });
        }
        None
    }

    // -----------------------------------------------------------------------------------------
    // Captures made by a White move

    /// `checkCaptureWhite`'s test of the square beyond the black soldier: `W`, `T`, `K`, or a
    /// camp square other than the four middle ones. The Java spells the exclusion as four
    /// coordinate pairs, (column 8, row 4) = i5, (4, 0) = e1, (4, 8) = e9, (0, 4) = a5, the same
    /// four in all four directions. Quirk reproduced: a camp square is hostile whatever stands on
    /// it (a black soldier on d1 still makes d1 hostile to the black soldier on d2). The empty
    /// throne (`T`) is hostile, and so is the king wherever he stands (`K`), on the throne too.
    fn hostile_to_black(&self, row: usize, column: usize) -> bool {
        let p = self.pawn(row, column);
        p == Pawn::White
            || p == Pawn::Throne
            || p == Pawn::King
            || (is_citadel(row, column)
                && !(column == 8 && row == 4)
                && !(column == 4 && row == 0)
                && !(column == 4 && row == 8)
                && !(column == 0 && row == 4))
    }

    /// `checkCaptureWhite(state, a)`: a white piece (a soldier or the king: the method runs after
    /// any White move) captures the black soldier next to its destination, in each direction,
    /// when the square beyond is hostile to black. The bounds tests (`columnTo < length - 2`,
    /// `columnTo > 1`, `rowTo > 1`, `rowTo < length - 2`) are exactly "the square beyond is on
    /// the board": the edge is never hostile. Then "controllo se ho vinto": the moved piece is the
    /// king and its destination is on an edge: WHITEWIN (after this move's captures).
    fn check_capture_white(&mut self, row_to: usize, column_to: usize) {
        // "controllo se mangio a destra"
        if column_to < SIZE - 2
            && self.pawn(row_to, column_to + 1) == Pawn::Black
            && self.hostile_to_black(row_to, column_to + 2)
        {
            self.remove_pawn(row_to, column_to + 1);
        }
        // "controllo se mangio a sinistra"
        if column_to > 1
            && self.pawn(row_to, column_to - 1) == Pawn::Black
            && self.hostile_to_black(row_to, column_to - 2)
        {
            self.remove_pawn(row_to, column_to - 1);
        }
        // "controllo se mangio sopra" (row - 1: towards rank 1)
        if row_to > 1
            && self.pawn(row_to - 1, column_to) == Pawn::Black
            && self.hostile_to_black(row_to - 2, column_to)
        {
            self.remove_pawn(row_to - 1, column_to);
        }
        // "controllo se mangio sotto" (row + 1)
        if row_to < SIZE - 2
            && self.pawn(row_to + 1, column_to) == Pawn::Black
            && self.hostile_to_black(row_to + 2, column_to)
        {
            self.remove_pawn(row_to + 1, column_to);
        }
        // "controllo se ho vinto"
        if (row_to == 0 || row_to == SIZE - 1 || column_to == 0 || column_to == SIZE - 1)
            && self.pawn(row_to, column_to) == Pawn::King
        {
            self.result = Some(AshtonOutcome::WhiteWin);
        }
        // The Java's TODO "the capture of the last black checker" is not implemented: Black is
        // then simply without a move (see `outcome`).
    }

    // -----------------------------------------------------------------------------------------
    // Captures made by a Black move

    /// The square beyond the white soldier in `checkCaptureBlackPawn*`: `B`, `T`, any camp square
    /// (the four middle ones included: unlike `checkCaptureWhite`, no exclusion), or the square
    /// named "e5". Quirk reproduced: the "e5" test does not look at what is on e5, so the throne
    /// is hostile to white soldiers even while the king stands on it (e.g. with the king on e5,
    /// a white soldier on e4 is taken by a black soldier landing on an empty e3).
    fn hostile_to_white(&self, row: usize, column: usize) -> bool {
        let p = self.pawn(row, column);
        p == Pawn::Black
            || p == Pawn::Throne
            || is_citadel(row, column)
            || box_name(row, column) == "e5"
    }

    /// `checkCaptureBlackPawnRight` (the Java's four `if`s on the far square, each removing the
    /// same soldier, amount to "any of them").
    fn check_capture_black_pawn_right(&mut self, row_to: usize, column_to: usize) {
        if column_to < SIZE - 2
            && self.pawn(row_to, column_to + 1) == Pawn::White
            && self.hostile_to_white(row_to, column_to + 2)
        {
            self.remove_pawn(row_to, column_to + 1);
        }
    }

    /// `checkCaptureBlackPawnLeft`.
    fn check_capture_black_pawn_left(&mut self, row_to: usize, column_to: usize) {
        if column_to > 1
            && self.pawn(row_to, column_to - 1) == Pawn::White
            && self.hostile_to_white(row_to, column_to - 2)
        {
            self.remove_pawn(row_to, column_to - 1);
        }
    }

    /// `checkCaptureBlackPawnUp` (row - 1).
    fn check_capture_black_pawn_up(&mut self, row_to: usize, column_to: usize) {
        if row_to > 1
            && self.pawn(row_to - 1, column_to) == Pawn::White
            && self.hostile_to_white(row_to - 2, column_to)
        {
            self.remove_pawn(row_to - 1, column_to);
        }
    }

    /// `checkCaptureBlackPawnDown` (row + 1).
    fn check_capture_black_pawn_down(&mut self, row_to: usize, column_to: usize) {
        if row_to < SIZE - 2
            && self.pawn(row_to + 1, column_to) == Pawn::White
            && self.hostile_to_white(row_to + 2, column_to)
        {
            self.remove_pawn(row_to + 1, column_to);
        }
    }

    /// All of `pawns` (as (row, column)) hold black soldiers.
    fn all_black(&self, pawns: &[(usize, usize)]) -> bool {
        pawns.iter().all(|&(r, c)| self.pawn(r, c) == Pawn::Black)
    }

    /// The "sono fuori dalle zone del trono" test of the `checkCaptureBlackKing*` methods: the
    /// square beyond the king is `B` or any camp square. Quirk reproduced: any camp square counts
    /// (the four middle ones too, occupied or not). The empty throne does not count, but it never
    /// could: every square next to it is in the throne's zone, where this test is not made.
    fn hostile_to_king(&self, row: usize, column: usize) -> bool {
        self.pawn(row, column) == Pawn::Black || is_citadel(row, column)
    }

    /// `checkCaptureBlackKingLeft`: the king at (rowTo, columnTo - 1), the black mover on his
    /// right. On e5: black on e4, d5, e6 (and the mover on f5). On e4: black on e3 and d4 (the
    /// throne is the fourth side). On f5: black on f6 and f4. On e6: black on e7 and d6.
    /// Elsewhere: the square beyond (columnTo - 2) is `B` or a camp.
    fn check_capture_black_king_left(&mut self, row_to: usize, column_to: usize) {
        if column_to > 1 && self.pawn(row_to, column_to - 1) == Pawn::King {
            let king = box_name(row_to, column_to - 1);
            if king == "e5" && self.all_black(&[(3, 4), (4, 3), (5, 4)]) {
                self.result = Some(AshtonOutcome::BlackWin);
            }
            if king == "e4" && self.all_black(&[(2, 4), (3, 3)]) {
                self.result = Some(AshtonOutcome::BlackWin);
            }
            if king == "f5" && self.all_black(&[(5, 5), (3, 5)]) {
                self.result = Some(AshtonOutcome::BlackWin);
            }
            if king == "e6" && self.all_black(&[(6, 4), (5, 3)]) {
                self.result = Some(AshtonOutcome::BlackWin);
            }
            if king != "e5"
                && king != "e6"
                && king != "e4"
                && king != "f5"
                && self.hostile_to_king(row_to, column_to - 2)
            {
                self.result = Some(AshtonOutcome::BlackWin);
            }
        }
    }

    /// `checkCaptureBlackKingRight`: the king at (rowTo, columnTo + 1). On e5: black on e4, f5,
    /// e6. On e4: e3 and f4. On e6: f6 and e7. On d5: d4 and d6. Elsewhere: the square beyond.
    fn check_capture_black_king_right(&mut self, row_to: usize, column_to: usize) {
        if column_to < SIZE - 2 && self.pawn(row_to, column_to + 1) == Pawn::King {
            let king = box_name(row_to, column_to + 1);
            if king == "e5" && self.all_black(&[(3, 4), (4, 5), (5, 4)]) {
                self.result = Some(AshtonOutcome::BlackWin);
            }
            if king == "e4" && self.all_black(&[(2, 4), (3, 5)]) {
                self.result = Some(AshtonOutcome::BlackWin);
            }
            if king == "e6" && self.all_black(&[(5, 5), (6, 4)]) {
                self.result = Some(AshtonOutcome::BlackWin);
            }
            if king == "d5" && self.all_black(&[(3, 3), (5, 3)]) {
                self.result = Some(AshtonOutcome::BlackWin);
            }
            if king != "d5"
                && king != "e6"
                && king != "e4"
                && king != "e5"
                && self.hostile_to_king(row_to, column_to + 2)
            {
                self.result = Some(AshtonOutcome::BlackWin);
            }
        }
    }

    /// `checkCaptureBlackKingDown`: the king at (rowTo + 1, columnTo). On e5: black on e6, f5,
    /// d5. On e4: d4 and f4. On d5: c5 and d6. On f5: g5 and f6. Elsewhere: the square beyond.
    fn check_capture_black_king_down(&mut self, row_to: usize, column_to: usize) {
        if row_to < SIZE - 2 && self.pawn(row_to + 1, column_to) == Pawn::King {
            let king = box_name(row_to + 1, column_to);
            if king == "e5" && self.all_black(&[(5, 4), (4, 5), (4, 3)]) {
                self.result = Some(AshtonOutcome::BlackWin);
            }
            if king == "e4" && self.all_black(&[(3, 3), (3, 5)]) {
                self.result = Some(AshtonOutcome::BlackWin);
            }
            if king == "d5" && self.all_black(&[(4, 2), (5, 3)]) {
                self.result = Some(AshtonOutcome::BlackWin);
            }
            if king == "f5" && self.all_black(&[(4, 6), (5, 5)]) {
                self.result = Some(AshtonOutcome::BlackWin);
            }
            if king != "d5"
                && king != "e4"
                && king != "f5"
                && king != "e5"
                && self.hostile_to_king(row_to + 2, column_to)
            {
                self.result = Some(AshtonOutcome::BlackWin);
            }
        }
    }

    /// `checkCaptureBlackKingUp`: the king at (rowTo - 1, columnTo). On e5: black on e4, f5, d5.
    /// On e6: d6 and f6. On d5: c5 and d4. On f5: g5 and f4. Elsewhere: the square beyond.
    fn check_capture_black_king_up(&mut self, row_to: usize, column_to: usize) {
        if row_to > 1 && self.pawn(row_to - 1, column_to) == Pawn::King {
            let king = box_name(row_to - 1, column_to);
            if king == "e5" && self.all_black(&[(3, 4), (4, 5), (4, 3)]) {
                self.result = Some(AshtonOutcome::BlackWin);
            }
            if king == "e6" && self.all_black(&[(5, 3), (5, 5)]) {
                self.result = Some(AshtonOutcome::BlackWin);
            }
            if king == "d5" && self.all_black(&[(4, 2), (3, 3)]) {
                self.result = Some(AshtonOutcome::BlackWin);
            }
            if king == "f5" && self.all_black(&[(4, 6), (3, 5)]) {
                self.result = Some(AshtonOutcome::BlackWin);
            }
            if king != "d5"
                && king != "e6"
                && king != "f5"
                && king != "e5"
                && self.hostile_to_king(row_to - 2, column_to)
            {
                self.result = Some(AshtonOutcome::BlackWin);
            }
        }
    }

    /// `checkCaptureBlack(state, a)`: the four soldier captures, then the four king captures, in
    /// the Java's order. The captured king stays on the board; the turn becomes BLACKWIN.
    fn check_capture_black(&mut self, row_to: usize, column_to: usize) {
        self.check_capture_black_pawn_right(row_to, column_to);
        self.check_capture_black_pawn_left(row_to, column_to);
        self.check_capture_black_pawn_up(row_to, column_to);
        self.check_capture_black_pawn_down(row_to, column_to);
        self.check_capture_black_king_right(row_to, column_to);
        self.check_capture_black_king_left(row_to, column_to);
        self.check_capture_black_king_down(row_to, column_to);
        self.check_capture_black_king_up(row_to, column_to);
    }

    // -----------------------------------------------------------------------------------------
    // Perft

    /// perft(0) = 1; perft(d) = the sum over legal moves of perft(child, d - 1). A game won by a
    /// move (king captured, king on an edge) is a leaf: it has no legal moves. The draw cache is
    /// not looked at: repetition never ends a line.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let position = self.without_cache();
        let mut total = 0u64;
        for m in position.legal_moves() {
            let (child, _) = position.after(m);
            total += child.perft(depth - 1);
        }
        total
    }

    /// Perft to `depth`, with the counts of every depth 1..=depth: the leaves, and how many of
    /// them end the game by a move (`BLACKWIN`, `WHITEWIN`; never a draw, as the draw cache is not
    /// looked at). A position whose side to move has no move is not counted as an end here.
    pub fn perft_counts(&self, depth: usize) -> Vec<DepthCounts> {
        let mut counts = vec![DepthCounts::default(); depth];
        if depth > 0 {
            self.without_cache().perft_into(1, depth, &mut counts);
        }
        counts
    }

    fn perft_into(&self, ply: usize, depth: usize, counts: &mut [DepthCounts]) {
        for m in self.legal_moves() {
            let (child, _) = self.after(m);
            let entry = &mut counts[ply - 1];
            entry.leaves += 1;
            match child.result {
                Some(AshtonOutcome::BlackWin) => entry.black_wins += 1,
                Some(AshtonOutcome::WhiteWin) => entry.white_wins += 1,
                Some(AshtonOutcome::Draw) => entry.draws += 1,
                None => {
                    if ply < depth {
                        child.perft_into(ply + 1, depth, counts);
                    }
                }
            }
        }
    }

    /// This state with an empty draw cache (what perft walks).
    pub fn without_cache(&self) -> AshtonBoard {
        AshtonBoard {
            cells: self.cells.clone(),
            white_to_move: self.white_to_move,
            result: self.result,
            draw_cache: Vec::new(),
        }
    }
}
