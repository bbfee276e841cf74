//! [`Grid`]: a grid that plays, the bound of positions, games, perft and the search. Its
//! hidden methods are the rules' entry points (`Position::winner`, `legal_moves_into`,
//! `check_move`, `play_unchecked`, ...), each implemented here per grid with that grid's own code:
//! the narrow grid's classic and custom rules (`position`, `movegen`), the wide grid's custom rules
//! and stepwise generator (`movegen::stepwise`). The layers below never call up into this one:
//! `position` holds the placement, the moves' effects and the captures, `movegen` the generators,
//! and this module puts them together behind `Position`'s methods (docs/wide-boards.md).

use crate::bitboard::Bitboard;
use crate::board::{Narrow, Wide};
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::piece::Side;
use crate::position::{DrawReason, IllegalMoveError, Outcome, Position, WinReason};
use crate::rules::RuleGrid;

/// The name [`Grid`] had until 0.1: every grid is one (a blanket implementation), so a bound
/// `B: Board` still compiles.
///
/// ```
/// # #![allow(deprecated)]
/// use tafl_engine::{Board, Game, Variant};
///
/// fn moves_at_start<B: Board>(game: &Game<B>) -> usize {
///     game.legal_moves().len()
/// }
/// assert_eq!(moves_at_start(&Game::new(&Variant::tablut())), 80);
/// ```
#[deprecated(
    since = "0.2.0",
    note = "renamed `Grid` (a chess programmer reads \"board\" as the placement of pieces)"
)]
pub trait Board: Grid {}

#[allow(deprecated)]
impl<G: Grid> Board for G {}

/// A grid that plays: the bound of [`Position`], [`Game`](crate::Game), perft and the search.
/// Sealed (through its supertraits): the implementations are [`Narrow`] (boards up to 11x11) and
/// [`Wide`] (up to 19x19).
///
/// Its supertraits (hidden from these docs: nothing outside the crate implements or calls them)
/// hold the grid's items layer by layer: `GridBase` (bit sets, squares, sizes), `MoveGrid` (move
/// lists) and `RuleGrid` (per-size masks, compiled custom rules). Code generic over a `Grid` is
/// compiled once for each grid, so the grid is chosen once per game (by the rules' board size),
/// never per move. Code that should not name a grid at all takes an
/// [`AnyGame`](crate::AnyGame). See docs/wide-boards.md.
///
/// ```
/// use tafl_engine::{Game, Grid, Variant};
///
/// // Generic over the grid: compiled once for 11x11 boards and once for 19x19 ones.
/// fn moves_at_start<G: Grid>(game: &Game<G>) -> usize {
///     game.legal_moves().len()
/// }
/// assert_eq!(moves_at_start(&Game::new(&Variant::tablut())), 80);
/// ```
pub trait Grid: RuleGrid {
    // The rules, played by each grid's own code: `Position`'s methods of the same names ask
    // these, so that code generic over the grid (perft, ...) plays either.

    /// [`Position::winner`].
    #[doc(hidden)]
    fn winner(position: &Position<Self>) -> Option<Side>;
    /// The outcome if the game on the board is won.
    #[doc(hidden)]
    fn won_outcome(position: &Position<Self>) -> Option<Outcome>;
    /// [`Position::legal_moves_into`].
    #[doc(hidden)]
    fn legal_moves_into(position: &Position<Self>, moves: &mut MoveList<Self>);
    /// [`Position::count_legal_moves`].
    #[doc(hidden)]
    fn count_legal_moves(position: &Position<Self>) -> u32;
    /// The legal moves of a position the caller knows is not won (the test for a win is not
    /// made again), into `moves` (emptied first).
    #[doc(hidden)]
    fn unwon_legal_moves_into(position: &Position<Self>, moves: &mut MoveList<Self>);
    /// [`Position::check_move`].
    #[doc(hidden)]
    fn check_move(position: &Position<Self>, m: Move<Self>) -> Result<(), IllegalMoveError<Self>>;
    /// [`Position::play_unchecked`].
    #[doc(hidden)]
    fn play_unchecked(position: &mut Position<Self>, m: Move<Self>) -> Bitboard<Self>;
    /// Whether the side to move has a legal move, in a position the caller knows is not won.
    #[doc(hidden)]
    fn unwon_has_legal_move(position: &Position<Self>) -> bool;
    /// Under custom rules, the legal moves landing on `targets` of a position the caller knows
    /// is not won, into `moves` (emptied first), and `true`; under the classic rules `false`,
    /// `moves` left alone.
    #[doc(hidden)]
    fn unwon_custom_moves_to_into(
        position: &Position<Self>,
        targets: Bitboard<Self>,
        moves: &mut MoveList<Self>,
    ) -> bool;
    /// The position itself on the narrow grid (`None` on the wide one): generic code takes the
    /// narrow grid's faster paths through it (perft's counting on the board's views).
    #[doc(hidden)]
    fn as_narrow(position: &Position<Self>) -> Option<&Position>;
}

impl Grid for Narrow {
    #[inline(always)]
    fn winner(position: &Position) -> Option<Side> {
        position.narrow_winner()
    }
    #[inline(always)]
    fn won_outcome(position: &Position) -> Option<Outcome> {
        position.narrow_won_outcome()
    }
    #[inline(always)]
    fn legal_moves_into(position: &Position, moves: &mut MoveList) {
        position.narrow_legal_moves_into(moves);
    }
    #[inline(always)]
    fn count_legal_moves(position: &Position) -> u32 {
        position.narrow_count_legal_moves()
    }
    #[inline(always)]
    fn unwon_legal_moves_into(position: &Position, moves: &mut MoveList) {
        position.narrow_unwon_legal_moves_into(moves);
    }
    #[inline(always)]
    fn check_move(position: &Position, m: Move) -> Result<(), IllegalMoveError> {
        position.narrow_check_move(m)
    }
    #[inline(always)]
    fn play_unchecked(position: &mut Position, m: Move) -> Bitboard {
        position.narrow_play_unchecked(m)
    }
    #[inline(always)]
    fn unwon_has_legal_move(position: &Position) -> bool {
        position.narrow_unwon_has_legal_move()
    }
    #[inline(always)]
    fn unwon_custom_moves_to_into(
        position: &Position,
        targets: Bitboard,
        moves: &mut MoveList,
    ) -> bool {
        position.narrow_unwon_custom_moves_to_into(targets, moves)
    }
    #[inline(always)]
    fn as_narrow(position: &Position) -> Option<&Position> {
        Some(position)
    }
}

impl Grid for Wide {
    fn winner(position: &Position<Wide>) -> Option<Side> {
        position.wide_won().map(|(side, _)| side)
    }
    fn won_outcome(position: &Position<Wide>) -> Option<Outcome> {
        position
            .wide_won()
            .map(|(winner, reason)| Outcome::Win { winner, reason })
    }
    fn legal_moves_into(position: &Position<Wide>, moves: &mut MoveList<Wide>) {
        position.wide_legal_moves_into(moves);
    }
    fn count_legal_moves(position: &Position<Wide>) -> u32 {
        position.wide_count_legal_moves()
    }
    fn unwon_legal_moves_into(position: &Position<Wide>, moves: &mut MoveList<Wide>) {
        position.wide_unwon_legal_moves_into(moves);
    }
    fn check_move(position: &Position<Wide>, m: Move<Wide>) -> Result<(), IllegalMoveError<Wide>> {
        position.wide_check_move(m)
    }
    fn play_unchecked(position: &mut Position<Wide>, m: Move<Wide>) -> Bitboard<Wide> {
        position.wide_play_unchecked(m)
    }
    fn unwon_has_legal_move(position: &Position<Wide>) -> bool {
        position.wide_unwon_has_legal_move()
    }
    fn unwon_custom_moves_to_into(
        position: &Position<Wide>,
        targets: Bitboard<Wide>,
        moves: &mut MoveList<Wide>,
    ) -> bool {
        position.wide_unwon_custom_moves_to_into(targets, moves)
    }
    #[inline(always)]
    fn as_narrow(_: &Position<Wide>) -> Option<&Position> {
        None
    }
}

/// The rules played on either grid: each asks the board type, which plays the narrow grid's
/// games with the classic and custom rules' own code and the wide grid's with the custom rules'
/// stepwise generator (docs/wide-boards.md). Compiled once per grid, so the narrow grid's code
/// is what it was.
impl<B: Grid> Position<B> {
    /// The winner if the game on the board is won: the king captured (R13) or on an edge square
    /// (R14). A position set up with the king on the edge counts as won by the defenders.
    #[inline(always)]
    pub fn winner(&self) -> Option<Side> {
        B::winner(self)
    }

    /// How the game stands on the board: won (R13, R14), drawn because the side to move has no
    /// legal move (R17), or `None` while it goes on. Repetition and agreement (R16, R18) depend on
    /// the game's history: see [`Game::outcome`](crate::Game::outcome). Under custom rules the
    /// other wins are tested too, and a side to move without a legal move loses.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(won) = B::won_outcome(self) {
            return Some(won);
        }
        if self.count_legal_moves() > 0 {
            return None;
        }
        Some(match self.rules().custom() {
            None => Outcome::Draw(DrawReason::NoLegalMoves),
            Some(_) => Outcome::Win {
                winner: self.side_to_move().opponent(),
                reason: WinReason::NoLegalMoves,
            },
        })
    }

    /// Every legal move of the side to move (none once the game is won), each once. Their order
    /// is the generator's and may change from one version to the next: sort the list where a
    /// fixed order matters (seeded random games, for instance).
    pub fn legal_moves(&self) -> MoveList<B> {
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// [`Position::legal_moves`] written into `moves`, which is emptied first: a search that
    /// keeps one list per ply saves setting up and copying a list (about 840 bytes) per node.
    ///
    /// ```
    /// use tafl_engine::{MoveList, Position};
    /// let mut moves = MoveList::new();
    /// Position::tablut().legal_moves_into(&mut moves);
    /// assert_eq!(moves, Position::tablut().legal_moves());
    /// ```
    #[inline(always)]
    pub fn legal_moves_into(&self, moves: &mut MoveList<B>) {
        B::legal_moves_into(self, moves);
    }

    /// How many legal moves the side to move has; the same as `legal_moves().len()`, faster.
    #[inline(always)]
    pub fn count_legal_moves(&self) -> u32 {
        B::count_legal_moves(self)
    }

    /// Whether the side to move has a legal move, in a position known not to be won (see
    /// [`Position::unwon_legal_moves_into`]).
    #[inline(always)]
    pub(crate) fn unwon_has_legal_move(&self) -> bool {
        B::unwon_has_legal_move(self)
    }

    /// Under custom rules, writes into `moves` (emptied first) the legal moves landing on
    /// `targets`, in a position known not to be won, and returns `true`; under the classic rules
    /// returns `false` and leaves `moves` alone.
    #[inline(always)]
    pub(crate) fn unwon_custom_moves_to_into(
        &self,
        targets: Bitboard<B>,
        moves: &mut MoveList<B>,
    ) -> bool {
        B::unwon_custom_moves_to_into(self, targets, moves)
    }

    /// [`Position::legal_moves_into`] for a position the caller knows is not won (the search
    /// tests every node for a win first): under custom rules that test (edge forts,
    /// encirclement) costs more than generating the moves, so it is not made twice.
    #[inline(always)]
    pub(crate) fn unwon_legal_moves_into(&self, moves: &mut MoveList<B>) {
        B::unwon_legal_moves_into(self, moves);
    }

    /// [`Position::unwon_legal_moves_into`] into a new list.
    pub(crate) fn unwon_legal_moves(&self) -> MoveList<B> {
        let mut moves = MoveList::new();
        self.unwon_legal_moves_into(&mut moves);
        moves
    }

    /// Whether `m` is a legal move here.
    pub fn is_legal(&self, m: Move<B>) -> bool {
        self.check_move(m).is_ok()
    }

    /// Why `m` is not legal here, or `Ok(())` if it is.
    #[inline(always)]
    pub fn check_move(&self, m: Move<B>) -> Result<(), IllegalMoveError<B>> {
        B::check_move(self, m)
    }

    /// Plays `m` if it is legal and returns the captured squares (the king's too, if R13 took
    /// him). If it is not legal, the position is unchanged and the error says why.
    pub fn play(&mut self, m: Move<B>) -> Result<Bitboard<B>, IllegalMoveError<B>> {
        self.check_move(m)?;
        Ok(self.play_unchecked(m))
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]) and returns the captured
    /// squares. For speed it does not check legality: an illegal move never panics or causes
    /// undefined behaviour, but leaves a position that the rules cannot reach.
    #[inline(always)]
    pub fn play_unchecked(&mut self, m: Move<B>) -> Bitboard<B> {
        B::play_unchecked(self, m)
    }

    /// The squares `m` would capture, without playing it (`m` one of the legal moves).
    ///
    /// ```
    /// use tafl_engine::{Position, Variant, Wide};
    /// let start = Variant::<Wide>::hnefatafl_org_copenhagen_13().start();
    /// let m = start.legal_moves()[0];
    /// assert!(start.captures_of(m).is_empty()); // nothing to capture at the start
    /// ```
    pub fn captures_of(&self, m: Move<B>) -> Bitboard<B> {
        let mut copy = *self;
        copy.play_unchecked(m)
    }
}

/// The narrow grid's move generation: the classic rules' line tables, or the custom rules'
/// generator.
impl Position {
    /// [`Position::legal_moves_into`] on the narrow grid.
    pub(crate) fn narrow_legal_moves_into(&self, moves: &mut MoveList) {
        moves.clear();
        match self.rules().custom() {
            None => movegen::generate(self, moves),
            Some(set) => movegen::generate_custom(self, set, moves),
        }
    }

    /// [`Position::count_legal_moves`] on the narrow grid.
    pub(crate) fn narrow_count_legal_moves(&self) -> u32 {
        match self.rules().custom() {
            None => movegen::count(self),
            Some(set) => movegen::count_custom(self, set),
        }
    }

    /// [`Position::unwon_legal_moves_into`] on the narrow grid.
    pub(crate) fn narrow_unwon_legal_moves_into(&self, moves: &mut MoveList) {
        debug_assert!(self.winner().is_none(), "{self:?} is won");
        moves.clear();
        match self.rules().custom() {
            None => movegen::generate(self, moves),
            Some(set) => movegen::generate_custom_unwon(self, set, moves),
        }
    }

    /// Whether the side to move has a legal move, in a position known not to be won (see
    /// [`Position::unwon_legal_moves_into`]).
    pub(crate) fn narrow_unwon_has_legal_move(&self) -> bool {
        debug_assert!(self.winner().is_none(), "{self:?} is won");
        match self.rules().custom() {
            None => movegen::count(self) > 0,
            Some(set) => movegen::custom_has_move_unwon(self, set),
        }
    }

    /// Under custom rules, writes into `moves` (emptied first) the legal moves landing on
    /// `targets`, in a position known not to be won (see [`Position::unwon_legal_moves_into`]),
    /// and returns `true`; under the classic rules returns `false` and leaves `moves` alone.
    pub(crate) fn narrow_unwon_custom_moves_to_into(
        &self,
        targets: Bitboard,
        moves: &mut MoveList,
    ) -> bool {
        debug_assert!(self.winner().is_none(), "{self:?} is won");
        let Some(set) = self.rules().custom() else {
            return false;
        };
        moves.clear();
        movegen::custom_moves_to_unwon(self, set, targets, moves);
        true
    }
}

/// The wide grid's games, always under custom rules (a board above 11x11 is read from a rules
/// string): the custom rules' code shared with the narrow grid, and the stepwise move generator.
impl Position<Wide> {
    /// The winner and how, if the game on the board is won.
    pub(crate) fn wide_won(&self) -> Option<(Side, WinReason)> {
        self.rules()
            .custom()
            .and_then(|set| self.custom_winner(set))
    }

    /// [`Position::legal_moves_into`] on the wide grid: none once won (P1), else the stepwise
    /// generator's.
    pub(crate) fn wide_legal_moves_into(&self, moves: &mut MoveList<Wide>) {
        if self.wide_won().is_some() {
            moves.clear(); // P1
        } else {
            self.wide_unwon_legal_moves_into(moves);
        }
    }

    /// [`Position::unwon_legal_moves_into`] on the wide grid.
    pub(crate) fn wide_unwon_legal_moves_into(&self, moves: &mut MoveList<Wide>) {
        moves.clear();
        if let Some(set) = self.rules().custom() {
            movegen::stepwise::generate_custom_stepwise(self, set, moves);
        }
    }

    /// [`Position::count_legal_moves`] on the wide grid.
    pub(crate) fn wide_count_legal_moves(&self) -> u32 {
        match (self.rules().custom(), self.wide_won()) {
            (Some(set), None) => movegen::stepwise::count_custom_stepwise(self, set),
            _ => 0, // P1: a won game has no legal moves.
        }
    }

    /// [`Position::unwon_has_legal_move`] on the wide grid: the first move the stepwise
    /// generator finds, unless a soldier can step at once.
    pub(crate) fn wide_unwon_has_legal_move(&self) -> bool {
        let Some(set) = self.rules().custom() else {
            return false;
        };
        if movegen::custom_soldier_can_step(self, set) {
            return true;
        }
        let mut found = false;
        movegen::stepwise::for_each_custom_move(self, set, |_| found = true);
        found
    }

    /// [`Position::unwon_custom_moves_to_into`] on the wide grid: the stepwise generator's moves
    /// that land on `targets`, in its order.
    pub(crate) fn wide_unwon_custom_moves_to_into(
        &self,
        targets: Bitboard<Wide>,
        moves: &mut MoveList<Wide>,
    ) -> bool {
        moves.clear();
        if let Some(set) = self.rules().custom() {
            movegen::stepwise::for_each_custom_move(self, set, |m| {
                if targets.contains(m.to()) {
                    // Cannot fail: at most every legal move, which the list holds.
                    let _ = moves.try_push(m);
                }
            });
        }
        true
    }

    /// [`Position::check_move`] on the wide grid.
    pub(crate) fn wide_check_move(&self, m: Move<Wide>) -> Result<(), IllegalMoveError<Wide>> {
        match self.rules().custom() {
            Some(set) => self.check_custom_move_fully(set, m),
            // Rules on the wide grid are always custom (`Rules::from_spec`); without them no
            // move is legal.
            None => Err(IllegalMoveError::OffBoard(m.from())),
        }
    }

    /// [`Position::play_unchecked`] on the wide grid: an illegal move only passes the turn.
    pub(crate) fn wide_play_unchecked(&mut self, m: Move<Wide>) -> Bitboard<Wide> {
        match self.rules().custom() {
            Some(set) => self.play_custom_unchecked(set, m),
            None => {
                self.pass_turn();
                Bitboard::EMPTY
            }
        }
    }
}
