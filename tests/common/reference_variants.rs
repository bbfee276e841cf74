#![allow(dead_code)]
//! Slow, plain reference rules for OpenTafl's built-in variants (all but Berserk), driven by a
//! whole OpenTafl rules string (`RefRules`, `reference_rules.rs`).
//!
//! A test oracle, written from OpenTafl v0.4.8.0b's Java source, not from the crate: every
//! function says which Java method it mirrors, and follows what that code does, quirks included
//! (each quirk is described where it is reproduced). Only `std`; the board is a flat
//! `Vec<Cell>`, index `y * size + x` (rank 1 = y 0, file a = x 0, as OpenTafl's `Coord`).
//!
//! The RULES.md games keep their own reference (`reference.rs`, `RefBoard`); this module is for
//! rules strings. Differences from RULES.md that OpenTafl has even for the RULES.md strings:
//! threefold (not twofold) repetition, a side with no legal move loses (not a draw), and the
//! extra game ends of `GameState.checkVictoryInternal`.

use std::sync::Arc;

use super::reference::Cell;
use super::reference_rules::{
    Escape, INDEX_DEFENDER_T, INDEX_KING, INDEX_T, KingArmed, KingStrength, RefRules, Shieldwall,
    SquareType, Threefold,
};

/// A square as (x, y).
pub type Xy = (usize, usize);

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum VariantOutcome {
    AttackersWin,
    DefendersWin,
    Draw,
}

/// A position under a rules string: placement, which pieces have moved, side to move.
#[derive(Clone, Debug)]
pub struct VariantBoard {
    pub rules: Arc<RefRules>,
    /// `cells[y * size + x]`.
    pub cells: Vec<Cell>,
    /// `developed[i]`: the piece on square i has moved since the position was set up. OpenTafl
    /// sets a DEVELOPED bit in a piece's `char` on its first move (`Taflman.moveTo`), and the
    /// flanking shieldwall test compares such chars (see `shieldwall_captures`).
    pub developed: Vec<bool>,
    pub attackers_to_move: bool,
    /// Only for the test that shows the DEVELOPED bit matters: treat every piece as developed.
    pub ignore_developed: bool,
}

/// Counts of one perft depth: leaves, and how many of them are finished games, by result.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct DepthCounts {
    pub leaves: u64,
    pub attacker_wins: u64,
    pub defender_wins: u64,
    pub draws: u64,
}

fn is_attacker(cell: Cell) -> bool {
    cell == Cell::Attacker
}

fn same_side(a: Cell, b: Cell) -> bool {
    is_attacker(a) == is_attacker(b)
}

/// `GenericRules.getTaflmanTypeIndexFor`: t, T or K (the only pieces in scope).
fn type_index(piece: Cell) -> usize {
    match piece {
        Cell::Attacker => INDEX_T,
        Cell::Defender => INDEX_DEFENDER_T,
        Cell::King => INDEX_KING,
        Cell::Empty => unreachable!("an empty square has no piece type"),
    }
}

/// The lists of squares kept while detecting shieldwalls. OpenTafl's
/// `detectShieldwallPositionsForSide` stores *references* to its working lists in each
/// `ShieldwallPosition` and keeps appending to the same lists afterwards (they are replaced only
/// on some paths, never at the start of an edge). So lists live here in an arena, a position is
/// a pair of arena indices, and a position sees everything appended to its lists until the end
/// of detection.
#[derive(Debug, Default)]
struct Shieldwalls {
    /// `surroundedSpaces` lists.
    spaces: Vec<Vec<usize>>,
    /// `surroundingTaflmen` lists, each entry the square whose piece's char was read.
    men: Vec<Vec<usize>>,
    /// (spaces list, men list) per `ShieldwallPosition`, in detection order.
    positions: Vec<(usize, usize)>,
}

impl VariantBoard {
    /// The start position of a rules string, with the side `atkf:` says to move.
    pub fn parse(rules_string: &str) -> Result<VariantBoard, String> {
        Ok(VariantBoard::from_rules(RefRules::parse(rules_string)?))
    }

    /// The start position of `rules`.
    pub fn from_rules(rules: RefRules) -> VariantBoard {
        let size = rules.size;
        let cells = rules.start.cells.clone();
        let attackers_to_move = rules.attackers_first;
        VariantBoard {
            rules: Arc::new(rules),
            cells,
            developed: vec![false; size * size],
            attackers_to_move,
            ignore_developed: false,
        }
    }

    pub fn size(&self) -> usize {
        self.rules.size
    }

    /// Contents of square (x, y). Panics off the board.
    pub fn get(&self, x: usize, y: usize) -> Cell {
        assert!(
            x < self.size() && y < self.size(),
            "({x}, {y}) off the board"
        );
        self.cells[y * self.size() + x]
    }

    fn xy(&self, i: usize) -> Xy {
        (i % self.size(), i / self.size())
    }

    fn index(&self, (x, y): Xy) -> usize {
        y * self.size() + x
    }

    /// The position record, rank 1 first (OpenTafl's order), runs of empty squares merged.
    pub fn to_record(&self) -> String {
        let board = super::reference::RefBoard {
            size: self.size(),
            cells: self.cells.clone(),
            attackers_to_move: self.attackers_to_move,
        };
        board.to_record()
    }

    /// `Board.isEdgeSpace`.
    fn is_edge(&self, i: usize) -> bool {
        let (x, y) = self.xy(i);
        let last = self.size() - 1;
        x == 0 || y == 0 || x == last || y == last
    }

    /// `Coord.getAdjacentSpaces`, in its order: west, east, north (y - 1), south (y + 1).
    fn adjacent(&self, i: usize) -> &[usize] {
        &self.rules.adjacent[i]
    }

    /// `Coord.getRankAndFileCoords`: the squares from `i` outwards, east, west, north, south.
    fn lines(&self, i: usize) -> &[Vec<usize>; 4] {
        &self.rules.lines[i]
    }

    fn square_type(&self, i: usize) -> SquareType {
        self.rules.square_type(i)
    }

    /// Squares of the pieces of one side.
    fn pieces_of(&self, attackers: bool) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| self.cells[i] != Cell::Empty && is_attacker(self.cells[i]) == attackers)
            .collect()
    }

    // ---------------------------------------------------------------------------------------
    // Movement

    /// `GenericRules.canTaflmanMoveThrough` for `piece`, which stands on `home`: a plain square
    /// is always passable; a special square by its passable list, and, when the piece's type
    /// may not re-enter that kind of square, only for a piece standing on the same kind now.
    fn can_move_through(&self, home: usize, piece: Cell, space: usize) -> bool {
        let kind = self.square_type(space);
        let Some(lists) = self.rules.square_rules(kind) else {
            return true;
        };
        let t = type_index(piece);
        if !lists.reenterable[t] && self.square_type(home) != kind {
            return false;
        }
        lists.passable[t]
    }

    /// `GenericRules.canTaflmanStopOn`: as `can_move_through`, with the stoppable list.
    fn can_stop_on(&self, home: usize, piece: Cell, space: usize) -> bool {
        let kind = self.square_type(space);
        let Some(lists) = self.rules.square_rules(kind) else {
            return true;
        };
        let t = type_index(piece);
        if !lists.reenterable[t] && self.square_type(home) != kind {
            return false;
        }
        lists.stoppable[t]
    }

    /// `Taflman.getAllowableMovesFrom(state, piece, from)` filtered by `canTaflmanStopOn`, as
    /// `Taflman.getAllowableDestinationsFrom` does (no jumps in scope): rook moves from `from`
    /// for the piece standing on `home` (the two differ only in the edge-fort search). A move
    /// stops before an occupied square or one the piece may not pass, and after `speed` squares
    /// when the speed mode is on and the speed is above 0. Each destination it may stop on is
    /// handed to `visit`, which returns `false` to stop the walk early.
    fn walk_destinations(
        &self,
        home: usize,
        piece: Cell,
        from: usize,
        visit: &mut dyn FnMut(usize) -> bool,
    ) {
        let speed = if self.rules.speed_limits_on {
            self.rules.speeds[type_index(piece)]
        } else {
            -1
        };
        for line in self.lines(from) {
            // `distance`: how far this square is from `from` (1 for the first).
            for (distance, &space) in (1i32..).zip(line.iter()) {
                let can_pass = self.can_move_through(home, piece, space);
                if self.cells[space] != Cell::Empty || !can_pass {
                    break;
                }
                if speed > 0 && distance > speed {
                    break;
                }
                if self.can_stop_on(home, piece, space) && !visit(space) {
                    return;
                }
            }
        }
    }

    /// `Taflman.getAllowableDestinationsFrom(state, piece, from)`, as a list.
    fn destinations_from(&self, home: usize, piece: Cell, from: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.walk_destinations(home, piece, from, &mut |s| {
            out.push(s);
            true
        });
        out
    }

    /// Whether the piece on `i` has a destination that satisfies `wanted`.
    fn any_destination(&self, i: usize, wanted: &dyn Fn(usize) -> bool) -> bool {
        let mut found = false;
        self.walk_destinations(i, self.cells[i], i, &mut |s| {
            found = wanted(s);
            !found
        });
        found
    }

    /// `Taflman.getAllowableDestinations` of the piece on `i`.
    fn destinations(&self, i: usize) -> Vec<usize> {
        self.destinations_from(i, self.cells[i], i)
    }

    /// Every move of the side to move by the movement rules (`GameTreeState`'s successor
    /// moves), whether or not the game has ended: see `VariantGame::legal_moves` and `outcome`.
    pub fn moves(&self) -> Vec<(Xy, Xy)> {
        let mut out = Vec::new();
        for from in self.pieces_of(self.attackers_to_move) {
            for to in self.destinations(from) {
                out.push((self.xy(from), self.xy(to)));
            }
        }
        out
    }

    /// Whether the side to move has any move at all.
    pub fn has_move(&self) -> bool {
        self.pieces_of(self.attackers_to_move)
            .into_iter()
            .any(|from| self.any_destination(from, &|_| true))
    }

    // ---------------------------------------------------------------------------------------
    // Captures

    /// `GenericRules.isSpaceHostileToSide`: a special square's own hostility, read from the `t`
    /// letter for an attacker and the `T` letter for a defender (the king too: his K letter is
    /// never read). The centre uses `cenhe` when empty, `cenh` when occupied.
    fn square_hostile_to(&self, space: usize, victim: Cell) -> bool {
        let kind = self.square_type(space);
        let Some(lists) = self.rules.square_rules(kind) else {
            return false;
        };
        let list = if kind == SquareType::Centre && self.cells[space] == Cell::Empty {
            &lists.empty_hostile
        } else {
            &lists.hostile
        };
        if is_attacker(victim) {
            list[INDEX_T]
        } else {
            list[INDEX_DEFENDER_T]
        }
    }

    /// `BoardImpl.isSpaceHostileTo(space, victim)`: an enemy piece is hostile (an enemy king
    /// only when he is armed as an anvil, `ka:y` or `ka:a`; otherwise the square's own
    /// hostility counts); a friendly piece or an empty square: the square's own hostility.
    fn hostile_to(&self, space: usize, victim: Cell) -> bool {
        let own = self.square_hostile_to(space, victim);
        let occupant = self.cells[space];
        if occupant != Cell::Empty && !same_side(occupant, victim) {
            if occupant == Cell::King
                && !matches!(
                    self.rules.king_armed,
                    KingArmed::Armed | KingArmed::AnvilOnly
                )
            {
                return own;
            }
            return true;
        }
        own
    }

    /// `BoardImpl.getCenterAndAdjacentSpaces` membership (from `Rules.getCenterSpaces`).
    fn on_or_next_to_centre(&self, i: usize) -> bool {
        self.rules
            .centre_squares
            .iter()
            .any(|&c| c == i || self.adjacent(c).contains(&i))
    }

    /// `Taflman.isCapturedBy(victim on victim_sq, capturer, move, byJump = false)` together with
    /// `checkSandwichCapture`, on this board as it stands. `capturer_at` is the square (if any)
    /// where the board holds a char equal to the capturer's char (used by the "cannot capture
    /// against itself" test; it never fires for rook moves, kept to follow the code).
    fn is_captured_by(
        &self,
        victim_sq: usize,
        capturer: Cell,
        capturer_at: Option<usize>,
        mv: usize,
    ) -> bool {
        let victim = self.cells[victim_sq];
        if victim == Cell::Empty || same_side(victim, capturer) {
            return false;
        }
        // An unarmed (or anvil-only) king captures nothing.
        if capturer == Cell::King
            && !matches!(
                self.rules.king_armed,
                KingArmed::Armed | KingArmed::HammerOnly
            )
        {
            return false;
        }
        let mut king_strong = false;
        let mut four_required = true;
        if victim == Cell::King {
            match self.rules.king_strength {
                KingStrength::Strong => king_strong = true,
                KingStrength::StrongCentre => king_strong = self.on_or_next_to_centre(victim_sq),
                KingStrength::Middleweight => {
                    king_strong = true;
                    four_required = false;
                }
                KingStrength::Weak => {}
            }
        }
        // A strong (or middleweight) king: count his hostile neighbours, the moving square
        // counting as hostile. Strong needs 4 (so never on an edge); middleweight needs all of
        // them (3 on an edge, 2 in a corner). (The commander/knight branches need pieces out
        // of scope.)
        if victim == Cell::King && king_strong {
            let neighbours = self.adjacent(victim_sq);
            let hostile = neighbours
                .iter()
                .filter(|&&s| s == mv || self.hostile_to(s, victim))
                .count();
            return hostile == 4 || (!four_required && hostile == neighbours.len());
        }
        // Sandwich: across the line from the moving square. A piece on the edge the move is
        // perpendicular to cannot be sandwiched across that edge.
        let (vx, vy) = self.xy(victim_sq);
        let (mx, _) = self.xy(mv);
        let last = self.size() - 1;
        let (one, two) = if vx == mx {
            if vy == 0 || vy == last {
                return false;
            }
            (self.index((vx, vy - 1)), self.index((vx, vy + 1)))
        } else {
            if vx == 0 || vx == last {
                return false;
            }
            (self.index((vx - 1, vy)), self.index((vx + 1, vy)))
        };
        // checkSandwichCapture.
        let one_hostile = one == mv || self.hostile_to(one, victim);
        let two_hostile = two == mv || self.hostile_to(two, victim);
        if !(one_hostile && two_hostile) {
            return false;
        }
        // "A piece which can jump can't capture a piece against itself."
        if one == mv && capturer_at == Some(two) && self.square_type(two) == SquareType::Plain {
            return false;
        }
        if two == mv && capturer_at == Some(one) && self.square_type(one) == SquareType::Plain {
            return false;
        }
        // The strong-king-against-commanders and middleweight branches of checkSandwichCapture
        // are reached only when the capturing side has commanders or knights (out of scope).
        true
    }

    /// Plays a move (assumed to be one of `moves()`), as `GameState.moveTaflman` does: the
    /// piece moves (`Taflman.moveTo`, with its captures), then shieldwall captures, then the
    /// Linnaean capture; the other side is to move. Returns the new position and the captured
    /// squares in the order OpenTafl records them.
    pub fn play(&self, from: Xy, to: Xy) -> (VariantBoard, Vec<Xy>) {
        let from = self.index(from);
        let to = self.index(to);
        let mover = self.cells[from];
        // OpenTafl's chars: the moving piece is passed on with its char from before the move;
        // on the board it gets the DEVELOPED bit. The two chars are equal only when the piece
        // had moved before.
        let old_char_equals_new = self.developed[from] || self.ignore_developed;

        // Taflman.moveTo: `getCapturingMoves` is computed on the board before the move (the
        // capturer char there carries DEVELOPED, so it equals the board's char at `from` only
        // for a developed piece); captures are looked for only when the destination is one of
        // them. Then the piece is put down and each neighbour is tested again, on the new board,
        // and removed at once when captured.
        let capturer_at_before = if old_char_equals_new {
            Some(from)
        } else {
            None
        };
        let gate = self.adjacent(to).iter().any(|&n| {
            self.cells[n] != Cell::Empty && self.is_captured_by(n, mover, capturer_at_before, to)
        });

        let mut next = self.clone();
        next.cells[from] = Cell::Empty;
        next.developed[from] = false;
        next.cells[to] = mover;
        next.developed[to] = true;
        let mut captured: Vec<usize> = Vec::new();
        if gate {
            for &n in self.adjacent(to) {
                if next.cells[n] != Cell::Empty && next.is_captured_by(n, mover, Some(to), to) {
                    next.cells[n] = Cell::Empty;
                    next.developed[n] = false;
                    captured.push(n);
                }
            }
        }

        // GameState.moveTaflman: shieldwalls are detected on the board after those captures,
        // attackers' walls first, then defenders'; each position is then tested in turn on the
        // board as the earlier tests left it.
        if self.rules.shieldwall != Shieldwall::None {
            let attackers_walls = next.detect_shieldwalls(true);
            let defenders_walls = next.detect_shieldwalls(false);
            for walls in [&attackers_walls, &defenders_walls] {
                for &position in &walls.positions {
                    let taken =
                        next.shieldwall_captures(mover, old_char_equals_new, to, walls, position);
                    captured.extend(taken);
                }
            }
        }

        // GameState.moveTaflman: Linnaean capture, after an attacker's move, tested on the
        // board *before* the move (`checkLinnaeanCapture` runs on the old state).
        if self.rules.linnaean && mover == Cell::Attacker {
            if let Some(target) = self.linnaean_target(to) {
                // OpenTafl reads the piece on the old board (nothing when that square is empty)
                // and takes it off the new board by its identity. (If this move had already
                // taken it, OpenTafl would fail; that needs `cenh` with T, which no built-in
                // variant has, and the reference then does not take it twice.)
                if self.cells[target] != Cell::Empty && next.cells[target] != Cell::Empty {
                    next.cells[target] = Cell::Empty;
                    next.developed[target] = false;
                    captured.push(target);
                }
            }
        }

        next.attackers_to_move = !self.attackers_to_move;
        let captured = captured.into_iter().map(|i| self.xy(i)).collect();
        (next, captured)
    }

    /// `GameState.checkLinnaeanCapture(endSpace)`, on this (pre-move) board: the move ends two
    /// squares from the middle square (`dim / 2`, whatever `cen:` says) on its rank or file,
    /// the king is on the middle square, the square between holds a defender, and at least three
    /// of the middle square's neighbours hold attackers. Returns the square between.
    fn linnaean_target(&self, end: usize) -> Option<usize> {
        let c = self.size() / 2;
        let (ex, ey) = self.xy(end);
        let target = if ex == c && ey == c + 2 {
            (c, c + 1)
        } else if ey == c && ex == c + 2 {
            (c + 1, c)
        } else if ex == c && c >= 2 && ey == c - 2 {
            (c, c - 1)
        } else if ey == c && c >= 2 && ex == c - 2 {
            (c - 1, c)
        } else {
            return None;
        };
        let throne = self.index((c, c));
        if self.cells[throne] != Cell::King {
            return None;
        }
        let target = self.index(target);
        // getPackedSide(target) == SIDE_DEFENDERS: an empty square (char 0) counts as a
        // defender's side here, and then nothing is taken (the occupier test in moveTaflman).
        if self.cells[target] == Cell::Attacker {
            return None;
        }
        let attackers_round = self
            .adjacent(throne)
            .iter()
            .filter(|&&n| self.cells[n] == Cell::Attacker)
            .count();
        if attackers_round < 3 {
            return None;
        }
        Some(target)
    }

    /// `BoardImpl.getEdges` (top y 0, bottom, left x 0, right; each in increasing order).
    fn edges(&self) -> [Vec<usize>; 4] {
        let n = self.size();
        [
            (0..n).collect(),
            (0..n).map(|i| (n - 1) * n + i).collect(),
            (0..n).map(|i| i * n).collect(),
            (0..n).map(|i| i * n + n - 1).collect(),
        ]
    }

    /// `BoardImpl.getEdgeAdjacentSpace(direction, space)`: the square in from the edge.
    fn edge_adjacent(&self, direction_y: bool, space: usize) -> usize {
        let n = self.size();
        let (x, y) = self.xy(space);
        if !direction_y {
            if y == 0 {
                self.index((x, 1))
            } else {
                self.index((x, n - 2))
            }
        } else if x == 0 {
            self.index((1, y))
        } else {
            self.index((n - 2, y))
        }
    }

    /// `BoardImpl.detectShieldwallPositionsForSide(surrounders, surrounded)`, line by line,
    /// with its quirks: the working lists are shared as described at `Shieldwalls`; `index`
    /// counts only the iterations that do not `continue`, so `edge.get(index + 1)` lags behind
    /// the square being looked at; a wall may start at a corner (strong shieldwall) or at a
    /// surrounder's piece; a surrounder's piece inside a wall counts as surrounded when
    /// `edge[index + 1]` and the square in front of it hold surrounders (or it is the king with
    /// a surrounder in front); an empty edge square with a surrounder in front counts as
    /// surrounded too.
    fn detect_shieldwalls(&self, surrounders_are_attackers: bool) -> Shieldwalls {
        let mut walls = Shieldwalls::default();
        // The short cut: at least two pieces of each side on the edge (counted on this board;
        // OpenTafl lists the pieces on the old board and looks up their squares on this one,
        // which finds the same pieces less the captured ones).
        let on_edge = |attackers: bool| {
            self.pieces_of(attackers)
                .into_iter()
                .filter(|&i| self.is_edge(i))
                .count()
        };
        if on_edge(!surrounders_are_attackers) < 2 || on_edge(surrounders_are_attackers) < 2 {
            return walls;
        }
        let strong = self.rules.shieldwall == Shieldwall::Strong;
        let is_corner = |i: usize| self.square_type(i) == SquareType::Corner;
        let friendly = |i: usize| {
            self.cells[i] != Cell::Empty && is_attacker(self.cells[i]) == surrounders_are_attackers
        };
        let n = self.size();

        walls.spaces.push(Vec::new());
        walls.men.push(Vec::new());
        let mut spaces = 0usize; // the current surroundedSpaces list
        let mut men = 0usize; // the current surroundingTaflmen list
        for edge in self.edges() {
            let mut start: Option<usize> = None;
            let direction_y = edge.contains(&n) || edge.contains(&(2 * n - 1));
            let mut index = 0usize;
            for &space in &edge {
                if start.is_none() && is_corner(space) && strong {
                    start = Some(space);
                    continue;
                } else if start.is_none() && friendly(space) {
                    start = Some(space);
                    walls.men[men].push(space);
                    continue;
                }
                if start.is_some() {
                    if is_corner(space) && strong {
                        if walls.spaces[spaces].len() > 1 {
                            walls.positions.push((spaces, men));
                        }
                        break;
                    }
                    if friendly(space) {
                        let inward = self.edge_adjacent(direction_y, space);
                        // OpenTafl has two branches with this same body: `edge[index + 1]`
                        // and the square in front are surrounders, or this is the king with a
                        // surrounder in front.
                        let lagging_next = edge[index + 1];
                        if (friendly(lagging_next) && friendly(inward))
                            || (self.cells[space] == Cell::King && friendly(inward))
                        {
                            walls.men[men].push(inward);
                            walls.spaces[spaces].push(space);
                            continue;
                        } else {
                            if walls.spaces[spaces].len() > 1 {
                                walls.men[men].push(space);
                                walls.positions.push((spaces, men));
                            }
                            start = Some(space);
                            walls.spaces.push(Vec::new());
                            spaces = walls.spaces.len() - 1;
                            walls.men.push(Vec::new());
                            men = walls.men.len() - 1;
                            continue;
                        }
                    }
                    let inward = self.edge_adjacent(direction_y, space);
                    if friendly(inward) {
                        walls.men[men].push(inward);
                        walls.spaces[spaces].push(space);
                    } else {
                        start = None;
                        walls.spaces.push(Vec::new());
                        spaces = walls.spaces.len() - 1;
                        walls.men.push(Vec::new());
                        men = walls.men.len() - 1;
                    }
                }
                index += 1;
            }
        }
        walls
    }

    /// `GameState.checkShieldwallPositionForCaptures(potentialCapturer, destination, position)`
    /// on this board, removing what it captures. With flanking required (`swf:y`), the move
    /// must end on an edge and `surroundingTaflmen` must contain the moving piece's char: the
    /// char from before the move, while the list holds chars read from the board after it, so
    /// a piece on its first move never matches (`old_char_equals_new`). Then, when every
    /// surrounded square holds a piece not of the mover's side, those pieces but the king are
    /// captured.
    fn shieldwall_captures(
        &mut self,
        mover: Cell,
        old_char_equals_new: bool,
        destination: usize,
        walls: &Shieldwalls,
        (spaces, men): (usize, usize),
    ) -> Vec<usize> {
        let surrounded = &walls.spaces[spaces];
        let mut captured = Vec::new();
        if self.rules.shieldwall_flanking {
            if !self.is_edge(destination) {
                return captured;
            }
            if !(old_char_equals_new && walls.men[men].contains(&destination)) {
                return captured;
            }
        }
        let capturing = surrounded
            .iter()
            .all(|&s| self.cells[s] != Cell::Empty && !same_side(self.cells[s], mover));
        if capturing {
            for &s in surrounded {
                // A square listed twice would be empty the second time; OpenTafl would then
                // "capture" char 0. Lists with a square twice need corners that are not start
                // or end squares, which no built-in shieldwall variant has.
                if self.cells[s] != Cell::King && self.cells[s] != Cell::Empty {
                    self.cells[s] = Cell::Empty;
                    self.developed[s] = false;
                    captured.push(s);
                }
            }
        }
        captured
    }

    // ---------------------------------------------------------------------------------------
    // Game end

    /// `Taflman.getReachableSpaces(king, withJump = false)`: the squares the king could reach in
    /// any number of his own moves, the others standing still (his own square blocks, and
    /// re-entry is judged from his real square), his square included.
    fn reachable(&self, king: usize) -> Vec<usize> {
        let mut reached = vec![king];
        let mut frontier = self.destinations_from(king, Cell::King, king);
        for &s in &frontier {
            if !reached.contains(&s) {
                reached.push(s);
            }
        }
        while let Some(space) = frontier.pop() {
            for s in self.destinations_from(king, Cell::King, space) {
                if !reached.contains(&s) {
                    reached.push(s);
                    frontier.push(s);
                }
            }
        }
        reached
    }

    /// `GameState.checkEdgeFortEscape`.
    fn edge_fort_escape(&self, king: usize) -> bool {
        let fort = self.reachable(king);
        if self.is_edge(king) {
            if self.destinations(king).is_empty() {
                return false;
            }
        } else if !fort.iter().any(|&s| self.is_edge(s)) {
            return false;
        }
        // Every piece next to a square of the fort: any attacker ends it; defenders are the
        // fort's pieces (listed once per fort square they touch, as OpenTafl does).
        let mut fort_pieces = Vec::new();
        for &space in &fort {
            for &n in self.adjacent(space) {
                match self.cells[n] {
                    Cell::Empty => {}
                    Cell::Attacker => return false,
                    _ => fort_pieces.push(n),
                }
            }
        }
        // A fort piece with 3 or more neighbours outside the fort that are not defenders could
        // be captured.
        for piece in fort_pieces {
            let outside: Vec<usize> = self
                .adjacent(piece)
                .iter()
                .copied()
                .filter(|s| !fort.contains(s))
                .collect();
            let friendly = outside
                .iter()
                .filter(|&&s| self.cells[s] != Cell::Empty && !is_attacker(self.cells[s]))
                .count();
            if outside.len() - friendly >= 3 {
                return false;
            }
        }
        true
    }

    /// `BoardImpl.isSideEncircled(defenders)`: no defender has a move to an edge square, and a
    /// flood from every edge square through empty squares reaches no defender.
    fn defenders_encircled(&self) -> bool {
        for piece in self.pieces_of(false) {
            if self.any_destination(piece, &|s| self.is_edge(s)) {
                return false;
            }
        }
        let mut seen = vec![false; self.cells.len()];
        let mut stack: Vec<usize> = (0..self.cells.len()).filter(|&i| self.is_edge(i)).collect();
        for &s in &stack {
            seen[s] = true;
        }
        while let Some(space) = stack.pop() {
            match self.cells[space] {
                Cell::Empty => {
                    for &n in self.adjacent(space) {
                        if !seen[n] {
                            seen[n] = true;
                            stack.push(n);
                        }
                    }
                }
                Cell::Attacker => {}
                _ => return false,
            }
        }
        true
    }

    /// `GameState.checkVictoryInternal` on this position (the side to move is the side that did
    /// not just move), given how many times it has occurred in the game, itself included.
    pub fn victory(&self, occurrences: usize) -> Option<VariantOutcome> {
        let attackers = self.pieces_of(true);
        let defenders = self.pieces_of(false);
        if attackers.is_empty() {
            return Some(VariantOutcome::DefendersWin);
        }
        if defenders.is_empty() {
            return Some(VariantOutcome::AttackersWin);
        }
        // Threefold repetition. `getCurrentSide()` is the side to move now, i.e. the side that
        // did NOT make the repeating move: `tfr:w` gives it the win, `tfr:l` the loss.
        if occurrences > 2 {
            return Some(match self.rules.threefold {
                Threefold::Draws => VariantOutcome::Draw,
                Threefold::Loses => {
                    if self.attackers_to_move {
                        VariantOutcome::DefendersWin
                    } else {
                        VariantOutcome::AttackersWin
                    }
                }
                Threefold::Wins => {
                    if self.attackers_to_move {
                        VariantOutcome::AttackersWin
                    } else {
                        VariantOutcome::DefendersWin
                    }
                }
            });
        }
        // The king: on an edge (esc:e) or on a corner square (esc:c), the defenders win.
        let king = defenders
            .iter()
            .copied()
            .find(|&i| self.cells[i] == Cell::King);
        if let Some(k) = king {
            match self.rules.escape {
                Escape::Edges if self.is_edge(k) => return Some(VariantOutcome::DefendersWin),
                // `getCornerSpaces()`: the listed corners, whatever their type now.
                Escape::Corners if self.rules.corner_squares.contains(&k) => {
                    return Some(VariantOutcome::DefendersWin);
                }
                _ => {}
            }
        }
        let defender_has_room = defenders.iter().any(|&d| {
            self.adjacent(d)
                .iter()
                .any(|&n| self.cells[n] == Cell::Empty)
        });
        let Some(king) = king else {
            return Some(VariantOutcome::AttackersWin);
        };
        if !defender_has_room {
            return Some(VariantOutcome::AttackersWin);
        }
        if self.rules.edge_fort_escape {
            // The king inside a defenders' shieldwall position, with a move, has escaped.
            let walls = self.detect_shieldwalls(false);
            for &(spaces, _) in &walls.positions {
                for &s in &walls.spaces[spaces] {
                    if self.cells[s] == Cell::King && !self.destinations(s).is_empty() {
                        return Some(VariantOutcome::DefendersWin);
                    }
                }
            }
            if self.edge_fort_escape(king) {
                return Some(VariantOutcome::DefendersWin);
            }
        }
        if self.rules.surrounding_fatal && self.defenders_encircled() {
            return Some(VariantOutcome::AttackersWin);
        }
        None
    }

    /// The game end of this position when it is the only one in its game (no repetition):
    /// `victory`, then a side to move without a move loses (`GameTreeState`: "If we have no
    /// legal moves, the other side wins").
    pub fn outcome(&self) -> Option<VariantOutcome> {
        self.outcome_with(1)
    }

    fn outcome_with(&self, occurrences: usize) -> Option<VariantOutcome> {
        if let Some(end) = self.victory(occurrences) {
            return Some(end);
        }
        if !self.has_move() {
            return Some(if self.attackers_to_move {
                VariantOutcome::DefendersWin
            } else {
                VariantOutcome::AttackersWin
            });
        }
        None
    }

    /// Perft to `depth`, returning the counts of every depth 1..=depth: finished games are
    /// leaves and are not expanded. Repetition is not looked at (the fixture's lines have none).
    pub fn perft_counts(&self, depth: usize) -> Vec<DepthCounts> {
        let mut counts = vec![DepthCounts::default(); depth];
        if self.outcome().is_none() {
            self.perft_into(1, depth, &mut counts);
        }
        counts
    }

    fn perft_into(&self, ply: usize, depth: usize, counts: &mut [DepthCounts]) {
        for (from, to) in self.moves() {
            let (child, _) = self.play(from, to);
            let entry = &mut counts[ply - 1];
            entry.leaves += 1;
            match child.outcome() {
                Some(VariantOutcome::AttackersWin) => entry.attacker_wins += 1,
                Some(VariantOutcome::DefendersWin) => entry.defender_wins += 1,
                Some(VariantOutcome::Draw) => entry.draws += 1,
                None => {
                    if ply < depth {
                        child.perft_into(ply + 1, depth, counts);
                    }
                }
            }
        }
    }
}

/// A game under a rules string: the positions so far, for threefold repetition.
#[derive(Clone, Debug)]
pub struct VariantGame {
    pub positions: Vec<VariantBoard>,
}

impl VariantGame {
    pub fn new(start: VariantBoard) -> VariantGame {
        VariantGame {
            positions: vec![start],
        }
    }

    pub fn position(&self) -> &VariantBoard {
        self.positions
            .last()
            .expect("a game has its start position")
    }

    /// How often the current position (placement and side to move, as OpenTafl's Zobrist hash
    /// sees it: not the DEVELOPED bits) has occurred, itself and the start included.
    pub fn occurrences(&self) -> usize {
        let now = self.position();
        self.positions
            .iter()
            .filter(|p| p.cells == now.cells && p.attackers_to_move == now.attackers_to_move)
            .count()
    }

    /// `checkVictoryInternal` with the game's repetition count, then no-move loss.
    pub fn outcome(&self) -> Option<VariantOutcome> {
        self.position().outcome_with(self.occurrences())
    }

    /// The moves of the side to move; none once the game has ended.
    pub fn legal_moves(&self) -> Vec<(Xy, Xy)> {
        if self.outcome().is_some() {
            Vec::new()
        } else {
            self.position().moves()
        }
    }

    /// Plays a legal move and returns the captured squares.
    pub fn play(&mut self, from: Xy, to: Xy) -> Result<Vec<Xy>, String> {
        if !self.legal_moves().contains(&(from, to)) {
            return Err(format!("{from:?}-{to:?} is not legal here"));
        }
        let (next, captured) = self.position().play(from, to);
        self.positions.push(next);
        Ok(captured)
    }
}
