//! `Position`: the placement of the pieces, the side to move and the rules; playing moves,
//! captures (R8-R13) and the end of the game on the board (R13, R14). Custom rules have their
//! captures, shieldwalls and game ends in the child modules. The public rules methods that need
//! the move generator too (`legal_moves`, `outcome`, R17) are put together above, in `play`.

use std::fmt;

use thiserror::Error;

use crate::bitboard::{Bitboard, Direction};
use crate::board::{GridBase, Narrow, Wide};
use crate::moves::Move;
use crate::piece::{Piece, Side};
use crate::rules::RuleGrid;
use crate::rules::custom::RuleSet;
use crate::rules::{RuleFlags, Rules};
use crate::square::Square;
use crate::zobrist;

mod captures;
mod ends;
mod hnefatafl_org;
mod shieldwall;

/// The side of the widest board, for the fixed-size lists of squares along a line.
const WIDEST: usize = Wide::MAX_SIZE as usize;

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Side,
        /// How.
        reason: WinReason,
    },
    /// Nobody won.
    Draw(DrawReason),
}

impl Outcome {
    /// The winning side, if any.
    pub const fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw(_) => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => write!(f, "{winner} win: {reason}"),
            Outcome::Draw(reason) => write!(f, "draw: {reason}"),
        }
    }
}

/// How a side won.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum WinReason {
    /// The attackers captured the king (R13; custom rules: by the king's strength).
    KingCaptured,
    /// The king reached an edge square (R14), or a corner under corner-escape rules.
    KingEscaped,
    /// Custom rules: the other side has no piece left.
    AllPiecesCaptured,
    /// Custom rules: no defender has an empty square next to it.
    DefendersImmobile,
    /// Custom rules: the king is safe in an edge fort.
    EdgeFort,
    /// Custom rules ("surrounding fatal"): no defender can reach an edge.
    Encircled,
    /// Custom rules: the side to move has no legal move, and loses.
    NoLegalMoves,
    /// Custom rules: the third occurrence of a position decided the game.
    Repetition,
    /// hnefatafl.org's rules: the attackers hold the corners and the edges (or trap the king on
    /// one) so that the king can no longer escape (H11).
    CannotEscape,
}

impl WinReason {
    /// A stable code for this reason (`king_captured`, `king_escaped`, ...), for programs that
    /// word it themselves (a page in another language) rather than show the English text.
    ///
    /// ```
    /// assert_eq!(tafl_engine::WinReason::KingEscaped.code(), "king_escaped");
    /// ```
    pub const fn code(self) -> &'static str {
        match self {
            WinReason::KingCaptured => "king_captured",
            WinReason::KingEscaped => "king_escaped",
            WinReason::AllPiecesCaptured => "all_captured",
            WinReason::DefendersImmobile => "defenders_immobile",
            WinReason::EdgeFort => "edge_fort",
            WinReason::Encircled => "encircled",
            WinReason::NoLegalMoves => "no_move",
            WinReason::Repetition => "repetition",
            WinReason::CannotEscape => "cannot_escape",
        }
    }
}

impl fmt::Display for WinReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WinReason::KingCaptured => "the king was captured",
            WinReason::KingEscaped => "the king escaped",
            WinReason::AllPiecesCaptured => "the other side has no piece left",
            WinReason::DefendersImmobile => "no defender can move",
            WinReason::EdgeFort => "the king is in an edge fort",
            WinReason::Encircled => "the defenders are encircled",
            WinReason::NoLegalMoves => "the side to move has no legal move",
            WinReason::Repetition => "the position occurred a third time",
            WinReason::CannotEscape => "the king can no longer escape",
        })
    }
}

/// Why a game was drawn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DrawReason {
    /// A position occurred again (R16).
    Repetition,
    /// The side to move has no legal move (R17).
    NoLegalMoves,
    /// The players agreed (R18).
    Agreement,
    /// Custom rules: the game reached its move limit (hnefatafl.org's rules, H10).
    MoveLimit,
}

impl DrawReason {
    /// A stable code for this reason (`draw_repetition`, `draw_no_move`, `draw_agreement`,
    /// `move_limit`), distinct from every [`WinReason::code`].
    ///
    /// ```
    /// assert_eq!(tafl_engine::DrawReason::Repetition.code(), "draw_repetition");
    /// ```
    pub const fn code(self) -> &'static str {
        match self {
            DrawReason::Repetition => "draw_repetition",
            DrawReason::NoLegalMoves => "draw_no_move",
            DrawReason::Agreement => "draw_agreement",
            DrawReason::MoveLimit => "move_limit",
        }
    }
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::Repetition => "the position repeated",
            DrawReason::NoLegalMoves => "the side to move has no legal move",
            DrawReason::Agreement => "agreed",
            DrawReason::MoveLimit => "the move limit was reached",
        })
    }
}

/// Why a set of pieces does not make a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupError<B: GridBase = Narrow> {
    /// A piece stands outside the board.
    #[error("{square} is not on a {size}x{size} board")]
    OffBoard {
        /// The square.
        square: Square<B>,
        /// The board's size.
        size: u8,
    },
    /// Two pieces were put on one square.
    #[error("two pieces on {0}")]
    SquareTaken(Square<B>),
    /// More than one king.
    #[error("a second king on {0}: a position has at most one king")]
    SecondKing(Square<B>),
}

impl SetupError {
    /// The same error on the grid `B` (for [`RecordError`](crate::RecordError)'s `for_grid`).
    pub(crate) fn for_grid<B: RuleGrid>(self) -> SetupError<B> {
        match self {
            SetupError::OffBoard { square, size } => SetupError::OffBoard {
                square: square.onto_any_grid(),
                size,
            },
            SetupError::SquareTaken(square) => SetupError::SquareTaken(square.onto_any_grid()),
            SetupError::SecondKing(square) => SetupError::SecondKing(square.onto_any_grid()),
        }
    }
}

/// Why a move cannot be played in a position. The position is left as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalMoveError<B: GridBase = Narrow> {
    /// The game on the board is already won (R13, R14): no move is legal.
    #[error("the game is over ({0})")]
    GameOver(Outcome),
    /// A square of the move is outside the board.
    #[error("{0} is not on the board")]
    OffBoard(Square<B>),
    /// No piece of the side to move stands on the starting square.
    #[error("no piece of the {side} on {square}")]
    NotYourPiece {
        /// The starting square.
        square: Square<B>,
        /// The side to move.
        side: Side,
    },
    /// The move does not go along one rank or file (R5), or goes nowhere.
    #[error("{0} is not a move along a rank or a file")]
    NotStraight(Move<B>),
    /// A piece stands in the way or on the destination (R5).
    #[error("{0} is blocked: pieces cannot jump or share a square")]
    Blocked(Square<B>),
    /// The move ends on the castle (R6).
    #[error("no piece may stop on the castle {0}")]
    Castle(Square<B>),
    /// Custom rules: the move passes over or ends on a special square this piece may not use.
    #[error("this piece may not pass over or stop on {0} (a throne, corner or fort)")]
    Restricted(Square<B>),
    /// Custom rules: the move is longer than this piece may move in one turn.
    #[error("this piece moves at most {0} squares in one turn")]
    TooFar(u8),
}

/// Every [`IllegalMoveError::code`], in the variants' order: `code` reads its code from here
/// by an exhaustive match, so a new variant needs its place (and a new code its entry) here.
const ILLEGAL_MOVE_CODES: [&str; 8] = [
    "game_over",
    "off_board",
    "not_your_piece",
    "not_straight",
    "blocked",
    "castle",
    "restricted",
    "too_far",
];

impl<B: GridBase> IllegalMoveError<B> {
    /// Every code [`IllegalMoveError::code`] returns, once each: a program that words the
    /// reasons in its own language lists them from here, and its test fails on a new one until
    /// it is worded.
    ///
    /// ```
    /// use tafl_engine::IllegalMoveError;
    /// assert!(IllegalMoveError::<tafl_engine::Narrow>::CODES.contains(&"blocked"));
    /// ```
    pub const CODES: &'static [&'static str] = &ILLEGAL_MOVE_CODES;

    /// A stable code for the reason (`game_over`, `off_board`, `not_your_piece`,
    /// `not_straight`, `blocked`, `castle`, `restricted`, `too_far`; all of them in
    /// [`IllegalMoveError::CODES`]): with the variant's data (its squares, side or distance) a
    /// program words the reason in any language without reading the English text.
    ///
    /// ```
    /// use tafl_engine::Position;
    /// let error = Position::tablut().check_move("e1-e3".parse().unwrap()).unwrap_err();
    /// assert_eq!(error.code(), "blocked");
    /// ```
    pub const fn code(&self) -> &'static str {
        ILLEGAL_MOVE_CODES[match self {
            IllegalMoveError::GameOver(_) => 0,
            IllegalMoveError::OffBoard(_) => 1,
            IllegalMoveError::NotYourPiece { .. } => 2,
            IllegalMoveError::NotStraight(_) => 3,
            IllegalMoveError::Blocked(_) => 4,
            IllegalMoveError::Castle(_) => 5,
            IllegalMoveError::Restricted(_) => 6,
            IllegalMoveError::TooFar(_) => 7,
        }]
    }
}

/// A position: where the pieces stand, who is to move, and the rules of the game.
///
/// `Position` is `Copy` and small: search and perft copy it and play on the copy. Its Zobrist
/// hash is kept up to date as moves are played.
///
/// ```
/// use tafl_engine::{Position, Rules, Side};
/// let start = Position::tablut();
/// assert_eq!(start.side_to_move(), Side::Attackers);
/// assert_eq!(start.legal_moves().len(), 80);
/// let mut next = start;
/// let captured = next.play("e2-h2".parse().unwrap()).unwrap();
/// assert!(captured.is_empty());
/// assert_eq!(next.side_to_move(), Side::Defenders);
/// ```
///
/// The board type `B` (docs/wide-boards.md) is [`Narrow`] for every game up to 11x11; a
/// `Position<Wide>` holds a board up to 19x19, always under custom rules (a board above 11x11
/// is read from a rules string).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position<B: GridBase = Narrow> {
    attackers: Bitboard<B>,
    defenders: Bitboard<B>,
    king: Bitboard<B>,
    side_to_move: Side,
    rules: Rules<B>,
    hash: u64,
}

// Search and perft copy a position for every move they play: it stays within one cache line.
const _: () = assert!(std::mem::size_of::<Position>() <= 64);

impl<B: RuleGrid> Position<B> {
    /// An empty board with the given rules and side to move.
    pub fn empty(rules: Rules<B>, side_to_move: Side) -> Position<B> {
        let hash = match side_to_move {
            Side::Attackers => 0,
            Side::Defenders => zobrist::DEFENDERS_TO_MOVE,
        };
        Position {
            attackers: Bitboard::EMPTY,
            defenders: Bitboard::EMPTY,
            king: Bitboard::EMPTY,
            side_to_move,
            rules,
            hash,
        }
    }

    /// A position with the given pieces. A position without a king is allowed: it is a game the
    /// attackers have won (R13); so is one with the king on an edge square, won by the
    /// defenders (R14). A soldier may be set on the castle (no move can put one there, R6): it
    /// then plays as on any square, and the castle, being occupied, is not hostile (R10).
    pub fn from_pieces<I>(
        rules: Rules<B>,
        side_to_move: Side,
        pieces: I,
    ) -> Result<Position<B>, SetupError<B>>
    where
        I: IntoIterator<Item = (Square<B>, Piece)>,
    {
        let mut position = Position::empty(rules, side_to_move);
        for (square, piece) in pieces {
            if !rules.contains(square) {
                return Err(SetupError::OffBoard {
                    square,
                    size: rules.size(),
                });
            }
            if position.occupied().contains(square) {
                return Err(SetupError::SquareTaken(square));
            }
            if piece == Piece::King && position.king.any() {
                return Err(SetupError::SecondKing(square));
            }
            *position.set_mut(piece) |= square;
            position.hash ^= zobrist::piece_key(piece, square);
        }
        Ok(position)
    }

    /// The rules the position is played under.
    pub const fn rules(&self) -> Rules<B> {
        self.rules
    }

    /// The side to move.
    pub const fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    /// The same placement with `side` to move.
    #[must_use]
    pub fn with_side_to_move(mut self, side: Side) -> Position<B> {
        if side != self.side_to_move {
            self.side_to_move = side;
            self.hash ^= zobrist::DEFENDERS_TO_MOVE;
        }
        self
    }

    /// The attacking soldiers.
    pub const fn attackers(&self) -> Bitboard<B> {
        self.attackers
    }

    /// The defending soldiers (without the king).
    pub const fn defenders(&self) -> Bitboard<B> {
        self.defenders
    }

    /// The king's square, or `None` once he has been captured.
    pub fn king(&self) -> Option<Square<B>> {
        self.king.first()
    }

    /// The king as a set (empty once he has been captured).
    pub const fn king_set(&self) -> Bitboard<B> {
        self.king
    }

    /// Every piece of `side` (the king counts for the defenders).
    pub fn pieces(&self, side: Side) -> Bitboard<B> {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders | self.king,
        }
    }

    /// Every occupied square.
    pub fn occupied(&self) -> Bitboard<B> {
        self.attackers | self.defenders | self.king
    }

    /// The piece on `square`, if any.
    pub fn piece_at(&self, square: Square<B>) -> Option<Piece> {
        if self.attackers.contains(square) {
            Some(Piece::Attacker)
        } else if self.defenders.contains(square) {
            Some(Piece::Defender)
        } else if self.king.contains(square) {
            Some(Piece::King)
        } else {
            None
        }
    }

    /// All pieces with their squares, by square index.
    pub fn pieces_with_squares(&self) -> impl Iterator<Item = (Square<B>, Piece)> + '_ {
        self.occupied()
            .into_iter()
            .filter_map(|square| self.piece_at(square).map(|piece| (square, piece)))
    }

    /// The Zobrist hash of placement and side to move, kept up to date by [`Position::play`].
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch; always equal to [`Position::hash`] (a check for tests).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = match self.side_to_move {
            Side::Attackers => 0,
            Side::Defenders => zobrist::DEFENDERS_TO_MOVE,
        };
        for (square, piece) in self.pieces_with_squares() {
            hash ^= zobrist::piece_key(piece, square);
        }
        hash
    }
}

impl Position {
    /// The start position of Tablut (docs/rules.md), attackers to move.
    pub fn tablut() -> Position {
        Position::from_placement(Rules::TABLUT, &crate::rules::TABLUT_START)
    }

    /// The start position of Tawlbwrdd (docs/rules.md), attackers to move.
    pub fn tawlbwrdd() -> Position {
        Position::from_placement(Rules::TAWLBWRDD, &crate::rules::TAWLBWRDD_START)
    }

    /// The start position of Ashton Tablut (C12), the defenders to move (C14).
    pub(crate) fn ashton() -> Position {
        Position::from_placement(Rules::ashton(), crate::rules::ashton::START)
            .with_side_to_move(Side::Defenders)
    }

    /// The start of hnefatafl.org's game on a board of `size`, 7 or 11, with the side its server
    /// moves first to move: the defenders on 7x7, the attackers on 11x11 (H1).
    pub(crate) fn hnefatafl_org(size: u8) -> Option<Position> {
        use crate::rules::hnefatafl_org::{START_7, START_11};
        let rules = Rules::hnefatafl_org(size)?;
        Some(if size == 7 {
            Position::from_placement(rules, &START_7).with_side_to_move(Side::Defenders)
        } else {
            Position::from_placement(rules, &START_11)
        })
    }

    /// A start placement with the attackers to move (R4).
    fn from_placement(rules: Rules, placement: &crate::rules::StartPlacement) -> Position {
        let mut position = Position::empty(rules, Side::Attackers);
        position.attackers = placement.attackers;
        position.defenders = placement.defenders;
        position.king = placement.king;
        position.hash = position.hash_from_scratch();
        position
    }

    /// The winner if the game on the board is won: the king captured (R13) or on an edge square
    /// (R14). A position set up with the king on the edge counts as won by the defenders.
    #[inline]
    pub(crate) fn narrow_winner(&self) -> Option<Side> {
        if !self.rules.is_classic() {
            return self.custom_winner_side();
        }
        self.classic_winner()
    }

    /// [`Position::check_move`] on the narrow grid.
    pub(crate) fn narrow_check_move(&self, m: Move) -> Result<(), IllegalMoveError> {
        if let Some(outcome) = self.narrow_won_outcome() {
            return Err(IllegalMoveError::GameOver(outcome));
        }
        let (dx, dy) = self.check_line_move(m)?;
        if let Some(set) = self.rules.custom() {
            return self.check_custom_move(set, m, (dx, dy));
        }
        if m.to() == self.rules.castle() {
            return Err(IllegalMoveError::Castle(m.to())); // R6
        }
        Ok(())
    }

    /// The outcome if the game on the board is won (R13, R14; custom rules: every win on the
    /// board); `None` otherwise.
    pub(crate) fn narrow_won_outcome(&self) -> Option<Outcome> {
        if let Some(set) = self.rules.custom() {
            return self
                .custom_winner(set)
                .map(|(winner, reason)| Outcome::Win { winner, reason });
        }
        match self.narrow_winner()? {
            Side::Attackers => Some(Outcome::Win {
                winner: Side::Attackers,
                reason: WinReason::KingCaptured,
            }),
            Side::Defenders => Some(Outcome::Win {
                winner: Side::Defenders,
                reason: WinReason::KingEscaped,
            }),
        }
    }

    /// [`Position::play_unchecked`] on the narrow grid.
    #[inline(always)]
    pub(crate) fn narrow_play_unchecked(&mut self, m: Move) -> Bitboard {
        match self.rules.custom() {
            None => self.classic_play_unchecked(m),
            Some(set) => {
                let mover = self.side_to_move;
                let Some((piece, _)) = self.move_piece(m) else {
                    return self.pass_turn_only();
                };
                let captured = self.resolve_custom_captures(set, mover, piece, m.to());
                self.pass_turn();
                captured
            }
        }
    }

    /// [`Position::play_unchecked`] under the classic rules (R8-R15), for perft's classic
    /// counter, which never meets custom rules: it need not ask for them (measured: asking cost
    /// its count 0.2 % of its instructions).
    #[inline(always)]
    pub(crate) fn classic_play_unchecked(&mut self, m: Move) -> Bitboard {
        let mover = self.side_to_move;
        let to = m.to();
        let Some((piece, enemies)) = self.move_piece(m) else {
            return self.pass_turn_only();
        };
        let friends = self.pieces(mover);
        let captured = if may_capture(to, enemies, friends, self.rules) {
            self.resolve_captures(mover, to, piece)
        } else {
            Bitboard::EMPTY
        };
        self.pass_turn();
        captured
    }

    /// [`Position::play_unchecked`] of a legal move known to capture nothing (under custom
    /// rules: one landing off [`Position::custom_capture_squares`]): the piece moves and the turn
    /// passes, no capture looked for.
    #[inline(always)]
    pub(crate) fn play_quiet_unchecked(&mut self, m: Move) {
        // A move that is not legal only passes the turn, as in `narrow_play_unchecked`.
        let _ = self.move_piece(m);
        self.pass_turn();
    }

    /// [`Position::winner`] under the classic rules (R13, R14), for the classic move generator:
    /// it never meets custom rules, so it need not ask.
    #[inline(always)]
    pub(crate) fn classic_winner(&self) -> Option<Side> {
        if self.king.is_empty() {
            Some(Side::Attackers)
        } else if (self.king & self.rules.geometry().edge).any() {
            Some(Side::Defenders)
        } else {
            None
        }
    }

    /// [`Position::winner`] under custom rules, out of the classic rules' way.
    #[inline(never)]
    fn custom_winner_side(&self) -> Option<Side> {
        let set = self.rules.custom()?;
        self.custom_winner(set).map(|(side, _)| side)
    }

    /// Calls `visit` with the position after each of `moves`, legal moves of this position
    /// (from the move generator), in order: the same positions as [`Position::play_unchecked`]
    /// on a copy, but made on one scratch position and taken back after each visit. The turn
    /// passes once for all of them, a soldier's move needs no look at which piece moves, and
    /// the squares where a move may capture are found once for all moves
    /// ([`Position::capture_squares`]; under custom rules
    /// [`Position::custom_capture_squares`]): the others only move a piece.
    #[inline(always)]
    pub(crate) fn for_each_child(&self, moves: &[Move], visit: impl FnMut(&Position)) {
        match self.rules.custom() {
            None => self.for_each_child_resolving(
                moves,
                self.capture_squares(),
                |child, mover, to, piece| child.resolve_captures(mover, to, piece),
                visit,
            ),
            Some(set) => self.for_each_child_resolving(
                moves,
                self.custom_capture_squares(set),
                |child, mover, to, piece| child.resolve_custom_captures(set, mover, piece, to),
                visit,
            ),
        }
    }

    /// [`Position::for_each_child`] with the rules' `capture_squares` and their way to `resolve`
    /// the captures of a move landing on one (on the position after the move, the turn already
    /// passed: the mover is given).
    #[inline(always)]
    fn for_each_child_resolving(
        &self,
        moves: &[Move],
        capture_squares: Bitboard,
        resolve: impl Fn(&mut Position, Side, Square, Piece) -> Bitboard,
        mut visit: impl FnMut(&Position),
    ) {
        let mover = self.side_to_move;
        let mut turn_passed = *self;
        turn_passed.pass_turn();
        let mut child = turn_passed;
        let mut make_visit_unmake = |child: &mut Position, piece: Piece, m: Move| {
            let captured = child.make_from(&turn_passed, piece, m, capture_squares, &resolve);
            visit(child);
            if captured.any() {
                *child = turn_passed;
            } else if piece != Piece::Attacker {
                // Only the moving piece's set and the hash changed, and the next move writes the
                // hash and its own piece's set whole, from `turn_passed`: the attackers' moves
                // all write the same set, but a defender's move changes a set that the king's
                // next move does not write, and the other way round, so it is put back.
                *child.set_mut(piece) = turn_passed.set(piece);
            }
        };
        match mover {
            Side::Attackers => {
                for &m in moves {
                    make_visit_unmake(&mut child, Piece::Attacker, m);
                }
            }
            Side::Defenders => {
                for &m in moves {
                    let piece = if self.king.contains(m.from()) {
                        Piece::King
                    } else {
                        Piece::Defender
                    };
                    make_visit_unmake(&mut child, piece, m);
                }
            }
        }
    }

    /// On `self`, which equals `before`, moves `piece` of the side that has just moved in
    /// `before` along `m` (a legal move of that side's) and, if it lands on one of
    /// `capture_squares`, takes what it captures with `resolve`, reading only `before`; the turn
    /// is not touched. Returns the captured squares. In [`Position::for_each_child`] `before`
    /// never changes, so its values stay in registers, and nothing is read back from `self` just
    /// after being stored there (such a read waits on the store: measured, a third of the time
    /// per leaf).
    #[inline(always)]
    fn make_from(
        &mut self,
        before: &Position,
        piece: Piece,
        m: Move,
        capture_squares: Bitboard,
        resolve: &impl Fn(&mut Position, Side, Square, Piece) -> Bitboard,
    ) -> Bitboard {
        let (from, to) = (m.from(), m.to());
        let path = Bitboard::single(from) | Bitboard::single(to);
        *self.set_mut(piece) = before.set(piece) ^ path;
        self.hash = before.hash ^ zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to);
        if capture_squares.contains(to) {
            return resolve(self, before.side_to_move.opponent(), to, piece);
        }
        Bitboard::EMPTY
    }

    /// The squares where a piece of the side to move may capture on landing (a superset of
    /// those where it does), for all moves at once: next to an enemy with a piece of its own
    /// side or the castle beyond it in line (R8, R10). That holds for the king too (R13): on or
    /// next to the castle he is taken only with attackers on all his other sides, the castle
    /// standing for one, so the square beyond him from the landing square is an attacker or the
    /// castle; elsewhere it must be an attacker. A move can only shrink this set: it empties a
    /// square of its own side and fills only the landing square, never beyond a neighbour of
    /// itself.
    pub(crate) fn capture_squares(&self) -> Bitboard {
        let mover = self.side_to_move;
        let enemies = self.pieces(mover.opponent());
        let anvils = self.pieces(mover) | self.rules.geometry().castle;
        // An enemy one step from the landing square in some direction, an anvil one step
        // beyond it the same way: step the anvils back onto the enemies, then onto the landing
        // squares.
        Direction::ALL
            .into_iter()
            .fold(Bitboard::EMPTY, |squares, back| {
                squares | (enemies & anvils.shift(back)).shift(back)
            })
    }

    /// R15: after the mover's piece `moving_piece` lands on `to` next to an enemy, takes the
    /// soldiers (R8-R12), then the king (R13). Returns the captured squares.
    #[inline(never)]
    fn resolve_captures(&mut self, mover: Side, to: Square, moving_piece: Piece) -> Bitboard {
        let mut captured = self.capture_soldiers(mover, to, moving_piece == Piece::King);
        if moving_piece == Piece::Attacker
            && (Bitboard::neighbours_of(to) & self.king).any()
            && self.king_is_captured(to)
        {
            if let Some(king) = self.king.first() {
                self.hash ^= zobrist::piece_key(Piece::King, king);
            }
            captured |= self.king;
            self.king = Bitboard::EMPTY;
        }
        captured
    }

    /// R8-R12: after the mover lands on `to`, remove each enemy soldier next to `to` whose far
    /// side is hostile. Returns the captured squares.
    #[inline]
    fn capture_soldiers(&mut self, mover: Side, to: Square, mover_is_king: bool) -> Bitboard {
        let flags = self.rules.flags();
        if mover_is_king && !flags.contains(RuleFlags::KING_HAMMER) {
            return Bitboard::EMPTY; // R9: the king captures only if armed as a hammer.
        }
        let geometry = self.rules.geometry();
        let castle_empty = (self.occupied() & geometry.castle).is_empty();
        let (victims, mut hostile, castle_flag) = match mover {
            Side::Attackers => (
                self.defenders,
                self.attackers,
                RuleFlags::EMPTY_CASTLE_HOSTILE_TO_DEFENDERS,
            ),
            Side::Defenders => {
                let mut hostile = self.defenders;
                if flags.contains(RuleFlags::KING_ANVIL) {
                    hostile |= self.king; // R9: the king is an anvil.
                }
                (
                    self.attackers,
                    hostile,
                    RuleFlags::EMPTY_CASTLE_HOSTILE_TO_ATTACKERS,
                )
            }
        };
        // R10: the empty castle is hostile; occupied, it is not (the king on it is a piece).
        if castle_empty && flags.contains(castle_flag) {
            hostile |= geometry.castle;
        }
        // R11: in each direction, the enemy soldier next to `to` is taken if the square beyond it
        // is hostile: all four directions at once. A hostile square two steps from `to` in line
        // with it is one step from the square between them, and from no other neighbour of `to`.
        let captured = held_against(to, hostile, victims);
        if captured.any() {
            let (set, piece) = match mover {
                Side::Attackers => (&mut self.defenders, Piece::Defender),
                Side::Defenders => (&mut self.attackers, Piece::Attacker),
            };
            *set = *set - captured;
            for square in captured {
                self.hash ^= zobrist::piece_key(piece, square);
            }
        }
        captured
    }

    /// R13: whether an attacker that has just landed on `to` captures the king.
    #[inline]
    fn king_is_captured(&self, to: Square) -> bool {
        let king = self.king;
        let landing = Bitboard::from_square(to);
        if (landing.neighbours() & king).is_empty() {
            return false;
        }
        let geometry = self.rules.geometry();
        if king == geometry.castle {
            // On the castle: attackers on all four sides.
            (king.neighbours() - self.attackers).is_empty()
        } else if (king & geometry.castle_neighbours).any() {
            // Next to the castle: attackers on the three other sides, the castle is the fourth wall.
            (king.neighbours() - geometry.castle - self.attackers).is_empty()
        } else {
            // Elsewhere: the mover and an attacker on the opposite side, in one line.
            Direction::ALL.into_iter().any(|direction| {
                landing.shift(direction) == king && (king.shift(direction) & self.attackers).any()
            })
        }
    }
}

/// The parts of a position that are the same on both grids: the custom rules' checks and the
/// turn (the classic rules play only on the narrow grid).
impl<B: RuleGrid> Position<B> {
    /// Moves the side to move's piece along `m` (R5) and keeps the hash, the turn not yet
    /// passed; returns the piece moved and the other side's pieces. `None`, with nothing changed,
    /// when `m` is not a legal move's shape: its landing square is taken, or no piece of the side
    /// to move stands on its first square.
    #[inline(always)]
    fn move_piece(&mut self, m: Move<B>) -> Option<(Piece, Bitboard<B>)> {
        let (from, to) = (m.from(), m.to());
        let (from_set, to_set) = (Bitboard::single(from), Bitboard::single(to));
        if (self.occupied() & to_set).any() {
            return None; // Two pieces would share a square.
        }
        let path = from_set | to_set;
        // Each set is changed by name, not through a piece worked out first: measured, the
        // latter costs a tenth more per move.
        let (piece, enemies) = match self.side_to_move {
            Side::Attackers => {
                if (self.attackers & from_set).is_empty() {
                    return None;
                }
                self.attackers ^= path;
                (Piece::Attacker, self.defenders | self.king)
            }
            Side::Defenders => {
                if (self.defenders & from_set).any() {
                    self.defenders ^= path;
                    (Piece::Defender, self.attackers)
                } else if (self.king & from_set).any() {
                    self.king ^= path;
                    (Piece::King, self.attackers)
                } else {
                    return None;
                }
            }
        };
        self.hash ^= zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to);
        Some((piece, enemies))
    }

    /// [`Position::play_unchecked`] under the custom rules `set` (this position's), on either
    /// grid: a move that is not legal only passes the turn, so the position stays well formed.
    // Used by the wide grid's games from the next step on (docs/wide-boards.md), by tests now.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn play_custom_unchecked(&mut self, set: &RuleSet<B>, m: Move<B>) -> Bitboard<B> {
        let mover = self.side_to_move;
        let captured = match self.move_piece(m) {
            Some((piece, _)) => self.resolve_custom_captures(set, mover, piece, m.to()),
            None => Bitboard::EMPTY,
        };
        self.pass_turn();
        captured
    }

    /// The same placement, side to move and rules on the grid `C` (the board fits it), its hash
    /// computed there: tests play the same positions on both grids with it.
    #[cfg(test)]
    pub(crate) fn on_grid<C: RuleGrid>(&self) -> Position<C> {
        let rules = self.rules.on::<C>().expect("the board fits both grids");
        let mut copy = Position::empty(rules, self.side_to_move);
        copy.attackers = self.attackers.on_grid();
        copy.defenders = self.defenders.on_grid();
        copy.king = self.king.on_grid();
        copy.hash = copy.hash_from_scratch();
        copy
    }

    /// R5, the checks of [`Position::check_move`] that are the same under every rule set: both
    /// squares on the board, a piece of the side to move on the first, a move along a rank or a
    /// file over empty squares to an empty one. Returns the steps it goes, across and up.
    fn check_line_move(&self, m: Move<B>) -> Result<(i8, i8), IllegalMoveError<B>> {
        for square in [m.from(), m.to()] {
            if !self.rules.contains(square) {
                return Err(IllegalMoveError::OffBoard(square));
            }
        }
        if !self.pieces(self.side_to_move).contains(m.from()) {
            return Err(IllegalMoveError::NotYourPiece {
                square: m.from(),
                side: self.side_to_move,
            });
        }
        let (from, to) = (m.from(), m.to());
        // Coordinates are below 19, so they fit an i8.
        let dx = to.x() as i8 - from.x() as i8;
        let dy = to.y() as i8 - from.y() as i8;
        if (dx != 0) == (dy != 0) {
            return Err(IllegalMoveError::NotStraight(m));
        }
        // R5: every square after `from` up to and including `to` must be empty.
        let step = (dx.signum(), dy.signum());
        let mut square = from;
        while square != to {
            square = match square.offset(step.0, step.1) {
                Some(next) => next,
                None => return Err(IllegalMoveError::NotStraight(m)),
            };
            if self.occupied().contains(square) {
                return Err(IllegalMoveError::Blocked(square));
            }
        }
        Ok((dx, dy))
    }

    /// [`Position::check_move`] under the custom rules `set` (this position's), on either grid.
    // Used by the wide grid's games from the next step on (docs/wide-boards.md), by tests now.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn check_custom_move_fully(
        &self,
        set: &RuleSet<B>,
        m: Move<B>,
    ) -> Result<(), IllegalMoveError<B>> {
        if let Some((winner, reason)) = self.custom_winner(set) {
            return Err(IllegalMoveError::GameOver(Outcome::Win { winner, reason }));
        }
        let steps = self.check_line_move(m)?;
        self.check_custom_move(set, m, steps)
    }

    /// What the piece of the side to move on `from` may do under the custom rules `set` (C3,
    /// C4, C12): the squares it may not pass, the squares it may not stop on (the camps too far
    /// from its camp among them) and its speed limit (0 for none). Shared by the check of a move
    /// and the stepwise generator, so both read the rules alike.
    #[inline]
    pub(crate) fn custom_piece_limits(
        &self,
        set: &RuleSet<B>,
        from: Square<B>,
    ) -> (Bitboard<B>, Bitboard<B>, u8) {
        use crate::rules::custom::Class;
        let from_set = Bitboard::from_square(from);
        let class = if (self.king & from_set).any() {
            Class::King
        } else if self.side_to_move == Side::Attackers {
            Class::Attacker
        } else {
            Class::Defender
        } as usize;
        let start = set.start_kind(from_set);
        (
            set.no_pass[class][start],
            // C12: and the camps too far from a camp.
            set.no_stop[class][start] | set.camps_out_of_reach(from),
            set.speed[class],
        )
    }

    /// The custom rules' part of [`Position::check_move`] for a move along a free line: the
    /// special squares on the way and at the end, and the speed limit.
    pub(crate) fn check_custom_move(
        &self,
        set: &RuleSet<B>,
        m: Move<B>,
        (dx, dy): (i8, i8),
    ) -> Result<(), IllegalMoveError<B>> {
        let (no_pass, no_stop, speed) = self.custom_piece_limits(set, m.from());
        let step = (dx.signum(), dy.signum());
        let mut square = m.from();
        while square != m.to() {
            square = match square.offset(step.0, step.1) {
                Some(next) => next,
                None => return Err(IllegalMoveError::NotStraight(m)),
            };
            if no_pass.contains(square) {
                return Err(IllegalMoveError::Restricted(square));
            }
        }
        if no_stop.contains(m.to()) {
            return Err(IllegalMoveError::Restricted(m.to()));
        }
        let distance = dx.unsigned_abs().max(dy.unsigned_abs());
        if speed > 0 && distance > speed {
            return Err(IllegalMoveError::TooFar(speed));
        }
        Ok(())
    }

    /// What `play_unchecked` does with a move that is not legal: the turn passes, nothing else.
    #[cold]
    fn pass_turn_only(&mut self) -> Bitboard<B> {
        self.pass_turn();
        Bitboard::EMPTY
    }

    #[inline(always)]
    pub(crate) fn pass_turn(&mut self) {
        self.side_to_move = self.side_to_move.opponent();
        self.hash ^= zobrist::DEFENDERS_TO_MOVE;
    }

    #[inline(always)]
    fn set(&self, piece: Piece) -> Bitboard<B> {
        match piece {
            Piece::Attacker => self.attackers,
            Piece::Defender => self.defenders,
            Piece::King => self.king,
        }
    }

    #[inline(always)]
    fn set_mut(&mut self, piece: Piece) -> &mut Bitboard<B> {
        match piece {
            Piece::Attacker => &mut self.attackers,
            Piece::Defender => &mut self.defenders,
            Piece::King => &mut self.king,
        }
    }
}

/// The `victims` next to `to` with a `hostile` square beyond them in line (R9, C4), all four
/// directions at once: a hostile square two steps from `to` in line with it is one step from the
/// square between them, and from no other neighbour of `to`.
#[inline(always)]
pub(super) fn held_against<B: RuleGrid>(
    to: Square<B>,
    hostile: Bitboard<B>,
    victims: Bitboard<B>,
) -> Bitboard<B> {
    let anvils = Bitboard::two_steps_from(to) & hostile;
    let between = Direction::ALL
        .into_iter()
        .fold(Bitboard::EMPTY, |between, step| {
            between | anvils.shift(step)
        });
    between & Bitboard::neighbours_of(to) & victims
}

/// Whether a piece of one side, having landed on `to`, may capture (if not, it surely does not):
/// `enemies` are the other side's pieces, the king among them, `friends` the mover's own after
/// the move.
///
/// R8: only an enemy next to the landing square can be taken, and only with a piece of the
/// mover's side or the castle beyond it, two steps from the landing square (R10 for soldiers;
/// for the king, R13, see [`Position::capture_squares`]). Most moves fail these cheap tests.
#[inline(always)]
fn may_capture(to: Square, enemies: Bitboard, friends: Bitboard, rules: Rules) -> bool {
    (Bitboard::neighbours_of(to) & enemies).any()
        && (Bitboard::two_steps_from(to) & (friends | rules.geometry().castle)).any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_code_is_listed_once_and_each_error_gives_a_listed_one() {
        use crate::PlayError;
        let codes = PlayError::<Narrow>::CODES;
        let distinct: std::collections::BTreeSet<_> = codes.iter().collect();
        assert_eq!(distinct.len(), codes.len(), "{codes:?}");
        let square: Square = "e5".parse().unwrap();
        let m = "e1-e3".parse().unwrap();
        let over = Outcome::Draw(DrawReason::Agreement);
        let errors: [PlayError; 10] = [
            PlayError::GameOver(over),
            PlayError::RecreatesEarlierPosition(m),
            PlayError::Illegal(IllegalMoveError::GameOver(over)),
            PlayError::Illegal(IllegalMoveError::OffBoard(square)),
            PlayError::Illegal(IllegalMoveError::NotYourPiece {
                square,
                side: Side::Attackers,
            }),
            PlayError::Illegal(IllegalMoveError::NotStraight(m)),
            PlayError::Illegal(IllegalMoveError::Blocked(square)),
            PlayError::Illegal(IllegalMoveError::Castle(square)),
            PlayError::Illegal(IllegalMoveError::Restricted(square)),
            PlayError::Illegal(IllegalMoveError::TooFar(1)),
        ];
        let given: std::collections::BTreeSet<_> = errors.iter().map(|e| e.code()).collect();
        let listed: std::collections::BTreeSet<_> = codes.iter().copied().collect();
        assert_eq!(given, listed, "every listed code is given by some error");
    }

    /// Positions along seeded random games of both variants, captures and king moves among the
    /// moves played.
    fn positions_along_random_games() -> Vec<Position> {
        crate::test_support::positions_along_random_games(
            &[Position::tablut(), Position::tawlbwrdd()],
            20,
            150,
            0x2545_f491_4f6c_dd1d,
        )
    }

    /// Seeded random placements with the king on the castle, next to it, or elsewhere off the
    /// edge, and soldiers strewn densely around, so that every regime of king capture (R13)
    /// comes up.
    fn random_placements() -> Vec<Position> {
        let mut random = crate::test_support::XorShift(0x853c_49e6_748f_ea9b);
        let mut positions = Vec::new();
        for round in 0..600u64 {
            let rules = if round % 2 == 0 {
                Rules::TABLUT
            } else {
                Rules::TAWLBWRDD
            };
            let (size, centre) = (rules.size(), rules.size() / 2);
            let next_to_castle = [
                (centre - 1, centre),
                (centre + 1, centre),
                (centre, centre - 1),
                (centre, centre + 1),
            ];
            let king = match round % 3 {
                0 => (centre, centre),
                1 => next_to_castle[(random.next() % 4) as usize],
                _ => (
                    1 + (random.next() % u64::from(size - 2)) as u8,
                    1 + (random.next() % u64::from(size - 2)) as u8,
                ),
            };
            let mut pieces = Vec::new();
            for y in 0..size {
                for x in 0..size {
                    let Some(square) = Square::new(x, y) else {
                        continue;
                    };
                    if (x, y) == king {
                        pieces.push((square, Piece::King));
                    } else if (x, y) != (centre, centre) {
                        match random.next() % 8 {
                            0 | 1 => pieces.push((square, Piece::Attacker)),
                            2 => pieces.push((square, Piece::Defender)),
                            _ => {}
                        }
                    }
                }
            }
            let side = if round % 4 == 3 {
                Side::Defenders
            } else {
                Side::Attackers
            };
            // The placements are on the board and put one piece on each square.
            positions.push(Position::from_pieces(rules, side, pieces).unwrap());
        }
        positions
    }

    #[test]
    fn each_child_is_the_position_after_its_move() {
        let mut captures = 0;
        // King captures (R13) with the king on the castle, next to it, elsewhere.
        let mut king_captures = [0; 3];
        let positions = positions_along_random_games()
            .into_iter()
            .chain(random_placements());
        for position in positions {
            let capture_squares = position.capture_squares();
            let moves = position.legal_moves();
            let mut expected = Vec::new();
            for &m in &moves {
                let mut next = position;
                let captured = next.play_unchecked(m);
                captures += usize::from(captured.any());
                assert!(
                    captured.is_empty() || capture_squares.contains(m.to()),
                    "{position:?} then {m}: a capture off the capture squares"
                );
                if (captured & position.king).any() {
                    let geometry = position.rules.geometry();
                    let regime = if position.king == geometry.castle {
                        0
                    } else if (position.king & geometry.castle_neighbours).any() {
                        1
                    } else {
                        2
                    };
                    king_captures[regime] += 1;
                }
                assert_eq!(
                    next.hash(),
                    next.hash_from_scratch(),
                    "{position:?} then {m}"
                );
                expected.push(next);
            }
            let mut visited = Vec::new();
            position.for_each_child(&moves, |child| visited.push(*child));
            assert_eq!(visited, expected, "{position:?}");
        }
        // The games must have tried the taking-back of captures too, and every king capture.
        assert!(captures > 1000, "only {captures} captures");
        assert!(
            king_captures.iter().all(|&count| count >= 10),
            "king captures on, next to, off the castle: {king_captures:?}"
        );
    }
}
