//! `Game`: a position with its history, for the draws that depend on it (R16, R18), undo and the
//! result.

use thiserror::Error;

use crate::bitboard::Bitboard;
use crate::board::Narrow;
use crate::moves::{Move, MoveList};
use crate::piece::Side;
use crate::play::Grid;
use crate::position::{DrawReason, IllegalMoveError, Outcome, Position, WinReason};
use crate::rules::{RepetitionRule, Rules};

/// Why a move could not be played in a game. The game is left as it was.
///
/// `B` is the game's board type ([`Narrow`] for boards up to 11x11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PlayError<B: Grid = Narrow> {
    /// The game has ended.
    #[error("the game is over ({0})")]
    GameOver(Outcome),
    /// The move is not legal in the current position.
    #[error("illegal move: {0}")]
    Illegal(#[from] IllegalMoveError<B>),
    /// The defenders' move would put the pieces as they stood earlier in the game, which
    /// hnefatafl.org's rules forbid (H12); legal on the board alone.
    #[error("illegal move: {0} would recreate an earlier position, which the defenders may not")]
    RecreatesEarlierPosition(Move<B>),
}

/// [`PlayError::code`]'s own code, beside [`IllegalMoveError::CODES`].
const RECREATES_POSITION: &str = "recreates_position";

/// Every [`PlayError::code`]: the illegal moves' codes (`game_over` among them) and
/// [`RECREATES_POSITION`], built from both so that neither list can leave the other behind.
const PLAY_CODES: [&str; IllegalMoveError::<Narrow>::CODES.len() + 1] = {
    let illegal = IllegalMoveError::<Narrow>::CODES;
    let mut codes = [RECREATES_POSITION; IllegalMoveError::<Narrow>::CODES.len() + 1];
    let mut i = 0;
    while i < illegal.len() {
        codes[i] = illegal[i];
        i += 1;
    }
    codes
};

impl<B: Grid> PlayError<B> {
    /// Every code [`PlayError::code`] returns, once each ([`IllegalMoveError::CODES`] and
    /// `recreates_position`): a program that words refusals in its own language lists them
    /// from here, and its test fails on a new one until it is worded.
    ///
    /// ```
    /// use tafl_engine::PlayError;
    /// assert!(PlayError::<tafl_engine::Narrow>::CODES.contains(&"recreates_position"));
    /// assert!(PlayError::<tafl_engine::Narrow>::CODES.contains(&"castle"));
    /// ```
    pub const CODES: &'static [&'static str] = &PLAY_CODES;

    /// A stable code for the reason: [`IllegalMoveError::code`]'s for an illegal move,
    /// `game_over` when the game has ended, `recreates_position` for hnefatafl.org's
    /// defenders' repetition (H12). Always one of [`PlayError::CODES`].
    pub const fn code(&self) -> &'static str {
        match self {
            // The same code as the board's own "game over".
            PlayError::GameOver(_) => IllegalMoveError::<Narrow>::CODES[0],
            PlayError::Illegal(error) => error.code(),
            PlayError::RecreatesEarlierPosition(_) => RECREATES_POSITION,
        }
    }
}

/// A game in progress: the start position, the moves played and the positions they led to.
///
/// ```
/// use tafl_engine::{Game, Variant, Outcome, DrawReason};
/// let mut game = Game::new(&Variant::tablut());
/// for text in ["e2-h2", "e3-h3", "h2-e2", "h3-e3"] {
///     game.play(text.parse().unwrap()).unwrap();
/// }
/// // R16: the start position (attackers to move) occurred a second time.
/// assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
/// game.undo();
/// assert_eq!(game.outcome(), None);
/// ```
///
/// A game on a board above 11x11 is a `Game<Wide>` (`Game::new(&variant)` with a
/// `Variant<Wide>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game<B: Grid = Narrow> {
    /// Every position of the game, the start first and the current one last (never empty).
    positions: Vec<Position<B>>,
    /// The moves between them, with what each captured.
    moves: Vec<(Move<B>, Bitboard<B>)>,
    agreed_draw: bool,
}

impl<B: Grid> Game<B> {
    /// A new game set up at `position`: repetitions count from here (R16).
    pub fn from_position(position: Position<B>) -> Game<B> {
        Game {
            positions: vec![position],
            moves: Vec::new(),
            agreed_draw: false,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position<B> {
        // `positions` is never empty: it starts with one and `undo` keeps the first.
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &Position<B> {
        &self.positions[0]
    }

    /// Every position of the game so far, the start first and the current one last.
    pub fn positions(&self) -> &[Position<B>] {
        &self.positions
    }

    /// The moves played so far, first to last.
    pub fn moves(&self) -> impl DoubleEndedIterator<Item = Move<B>> + ExactSizeIterator + '_ {
        self.moves.iter().map(|&(m, _)| m)
    }

    /// The moves played so far, each with the squares it captured, first to last.
    pub fn moves_with_captures(
        &self,
    ) -> impl DoubleEndedIterator<Item = (Move<B>, Bitboard<B>)> + ExactSizeIterator + '_ {
        self.moves.iter().copied()
    }

    /// The last move played and what it captured.
    pub fn last_move(&self) -> Option<(Move<B>, Bitboard<B>)> {
        self.moves.last().copied()
    }

    /// How many times the current position (placement and side to move) has occurred in this
    /// game, counting itself.
    pub fn repetitions(&self) -> usize {
        let current = self.position();
        // Pieces never come back: only the positions since the last capture can match, and
        // the look stops at the first with more pieces (a long game costs no more per move).
        let pieces = current.occupied().count();
        self.positions
            .iter()
            .rev()
            .take_while(|p| p.occupied().count() == pieces)
            .filter(|p| p.hash() == current.hash() && *p == current)
            .count()
    }

    /// [`Game::repetitions`] as `rule` counts them: without the start position when the rule
    /// leaves it out (C14), unless the game is still there.
    fn counted_repetitions(&self, rule: RepetitionRule) -> usize {
        let all = self.repetitions();
        let start = &self.positions[0];
        if !rule.counts_start() && self.positions.len() > 1 && start == self.position() {
            all - 1
        } else {
            all
        }
    }

    /// Whether the move limit of the rules (H10) has been reached: as many moves played since the
    /// game's start as the limit.
    fn move_limit_reached(&self) -> bool {
        self.position()
            .rules()
            .move_limit()
            .is_some_and(|limit| self.moves.len() >= limit)
    }

    /// Whether `m`, a legal move of the defenders on the board, would put the pieces as they
    /// stood at an earlier point of the game (after a move, or at the start when the rule counts
    /// it), under a rule that forbids it (H12). The placement is the one before the move's
    /// captures, whoever was to move then.
    fn recreates_earlier_position(&self, m: Move<B>) -> bool {
        self.recreates_any(&self.recreation_candidates(), m)
    }

    /// The earlier positions a defenders' move could recreate now (H12), none unless the rule
    /// forbids it and the defenders are to move: only positions with as many pieces can match,
    /// and pieces never come back, so the look stops at the last capture; and a defenders' move
    /// leaves the attackers where they are, so only positions with the attackers as they are
    /// now. Worked out once for all the moves of a position.
    fn recreation_candidates(&self) -> Vec<&Position<B>> {
        let position = self.position();
        let rule = position.rules().repetition();
        if !rule.forbids_defenders_recreating() || position.side_to_move() != Side::Defenders {
            return Vec::new();
        }
        let attackers = position.attackers();
        let pieces = position.occupied().count();
        let first_counted = usize::from(!rule.counts_start());
        self.positions
            .iter()
            .enumerate()
            .rev()
            .take_while(|(index, earlier)| {
                *index >= first_counted && earlier.occupied().count() == pieces
            })
            .filter(|(_, earlier)| earlier.attackers() == attackers)
            .map(|(_, earlier)| earlier)
            .collect()
    }

    /// Whether the defenders' move `m` puts the pieces as one of `candidates`
    /// ([`Game::recreation_candidates`]) has them.
    fn recreates_any(&self, candidates: &[&Position<B>], m: Move<B>) -> bool {
        if candidates.is_empty() {
            return false;
        }
        let position = self.position();
        let path = Bitboard::from_square(m.from()) | Bitboard::from_square(m.to());
        let (mut defenders, mut king) = (position.defenders(), position.king_set());
        if king.contains(m.from()) {
            king ^= path;
        } else {
            defenders ^= path;
        }
        candidates
            .iter()
            .any(|earlier| earlier.defenders() == defenders && earlier.king_set() == king)
    }

    /// The result, once the game has ended: a win on the board (R13, R14), a draw by repetition
    /// (R16), by lack of moves (R17) or by agreement (R18). Under custom rules, the other wins on
    /// the board, and the third occurrence of a position as the rules say (draw, or a win).
    /// Under hnefatafl.org's rules (H10-H12), in its server's order: a win on the board but
    /// H11, then the move limit's draw, then H11, then the side to move without a legal move
    /// (the defenders' moves that would recreate an earlier position not counting) loses.
    pub fn outcome(&self) -> Option<Outcome> {
        let position = self.position();
        // On the board: a win (R13, R14, the custom ends), or no legal move at all (R17, C10).
        let on_board = position.outcome();
        let no_moves = matches!(
            on_board,
            Some(Outcome::Draw(DrawReason::NoLegalMoves))
                | Some(Outcome::Win {
                    reason: WinReason::NoLegalMoves,
                    ..
                })
        );
        let limit_reached = self.move_limit_reached();
        if on_board.is_some() && !no_moves {
            // H10: the move limit's draw comes before the server's last test of the board (H11).
            let after_the_limit = matches!(
                on_board,
                Some(Outcome::Win {
                    reason: WinReason::CannotEscape,
                    ..
                })
            );
            if !(limit_reached && after_the_limit) {
                return on_board;
            }
        }
        if self.agreed_draw {
            return Some(Outcome::Draw(DrawReason::Agreement));
        }
        if limit_reached {
            return Some(Outcome::Draw(DrawReason::MoveLimit));
        }
        let rule = position.rules().repetition();
        if rule.forbids_defenders_recreating()
            && position.side_to_move() == Side::Defenders
            && !no_moves
            && {
                let candidates = self.recreation_candidates();
                !candidates.is_empty()
                    && position
                        .unwon_legal_moves()
                        .iter()
                        .all(|&m| self.recreates_any(&candidates, m))
            }
        {
            // H12: no move left that the rules allow.
            return Some(Outcome::Win {
                winner: Side::Attackers,
                reason: WinReason::NoLegalMoves,
            });
        }
        if let Some(outcome) = self.repetition_outcome() {
            return Some(outcome);
        }
        on_board
    }

    /// The end a repetition makes, when the rules' count is reached (R16, C11).
    fn repetition_outcome(&self) -> Option<Outcome> {
        let position = self.position();
        let rule = position.rules().repetition();
        let count = rule.end_count()?;
        if self.counted_repetitions(rule) < count {
            return None;
        }
        // The side to move now did not make the repeating move: the other side did.
        let to_move = position.side_to_move();
        Some(match rule {
            RepetitionRule::ThirdOccurrenceLosesForMover => Outcome::Win {
                winner: to_move,
                reason: WinReason::Repetition,
            },
            RepetitionRule::ThirdOccurrenceWinsForMover => Outcome::Win {
                winner: to_move.opponent(),
                reason: WinReason::Repetition,
            },
            RepetitionRule::ThirdOccurrenceAttackersWin => Outcome::Win {
                winner: Side::Attackers,
                reason: WinReason::Repetition,
            },
            _ => Outcome::Draw(DrawReason::Repetition),
        })
    }

    /// The legal moves: none once the game has ended; under hnefatafl.org's rules, not the
    /// defenders' moves that would recreate an earlier position (H12).
    pub fn legal_moves(&self) -> MoveList<B> {
        self.outcome_and_legal_moves().1
    }

    /// [`Game::outcome`] and [`Game::legal_moves`] together, the outcome worked out once (it
    /// looks at the history), for code that wants both after every move.
    pub fn outcome_and_legal_moves(&self) -> (Option<Outcome>, MoveList<B>) {
        let outcome = self.outcome();
        if outcome.is_some() {
            return (outcome, MoveList::new());
        }
        // Not over, so not won on the board.
        let mut moves = self.position().unwon_legal_moves();
        let candidates = self.recreation_candidates();
        if !candidates.is_empty() {
            moves.retain(|&m| !self.recreates_any(&candidates, m));
        }
        (outcome, moves)
    }

    /// Plays `m` and returns what it captured, or says why it cannot be played.
    pub fn play(&mut self, m: Move<B>) -> Result<Bitboard<B>, PlayError<B>> {
        self.check_move(m)?;
        Ok(self.play_unchecked(m))
    }

    /// Whether `m` can be played now ([`Game::play`] would play it), and if not, why: the
    /// board's rules ([`Position::check_move`]), the game's end, or a rule of the history (H12).
    ///
    /// ```
    /// use tafl_engine::{Game, PlayError, Variant};
    /// let game = Game::new(&Variant::tablut());
    /// assert!(game.check_move("e2-h2".parse()?).is_ok());
    /// assert!(matches!(game.check_move("e5-e6".parse()?), Err(PlayError::Illegal(_))));
    /// # Ok::<(), tafl_engine::notation::MoveParseError>(())
    /// ```
    pub fn check_move(&self, m: Move<B>) -> Result<(), PlayError<B>> {
        // The ends of the history first (cheap); the board's are found by the move's check, and
        // a game without a legal move (R17, C10, H12) by whatever refuses every move.
        if self.agreed_draw || self.move_limit_reached() || self.repetition_outcome().is_some() {
            if let Some(outcome) = self.outcome() {
                return Err(PlayError::GameOver(outcome));
            }
        }
        match self.position().check_move(m) {
            Ok(()) => {}
            Err(IllegalMoveError::GameOver(outcome)) => return Err(PlayError::GameOver(outcome)),
            Err(error) => return Err(self.over_or(PlayError::Illegal(error))),
        }
        if self.recreates_earlier_position(m) {
            return Err(self.over_or(PlayError::RecreatesEarlierPosition(m)));
        }
        Ok(())
    }

    /// The game's rules (those of its positions).
    pub fn rules(&self) -> Rules<B> {
        self.position().rules()
    }

    /// The side whose turn it is in the current position.
    pub fn side_to_move(&self) -> Side {
        self.position().side_to_move()
    }

    /// `GameOver` if the game has ended, else `error`.
    fn over_or(&self, error: PlayError<B>) -> PlayError<B> {
        self.outcome().map_or(error, PlayError::GameOver)
    }

    /// Plays `m`, one of [`Game::legal_moves`], without checking it (perft's moves).
    pub(crate) fn play_unchecked(&mut self, m: Move<B>) -> Bitboard<B> {
        let mut next = *self.position();
        let captured = next.play_unchecked(m);
        self.positions.push(next);
        self.moves.push((m, captured));
        captured
    }

    /// Takes back the last thing that happened: a draw agreement made since the last move (then
    /// no move is taken back and it returns `None`), or else the last move, which it returns.
    /// `None` at the start.
    pub fn undo(&mut self) -> Option<Move<B>> {
        if self.agreed_draw {
            self.agreed_draw = false;
            return None;
        }
        let (m, _) = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// The players agree to a draw (R18). Does nothing once the game has ended.
    pub fn agree_draw(&mut self) {
        if self.outcome().is_none() {
            self.agreed_draw = true;
        }
    }
}

#[cfg(test)]
mod recreation_tests {
    use crate::test_support::XorShift;
    use crate::{Bitboard, Game, Grid, Move, Side, Variant, Wide};

    /// The defenders' moves that H12 forbids now, by brute force: every unwon legal move whose
    /// placement (before captures) is that of any counted earlier point of the game, with no
    /// shortcut (neither the stop at the last capture nor the attackers' filter).
    fn forbidden_by_brute_force<B: Grid>(game: &Game<B>) -> Vec<Move<B>> {
        let position = game.position();
        let rule = position.rules().repetition();
        if !rule.forbids_defenders_recreating() || position.side_to_move() != Side::Defenders {
            return Vec::new();
        }
        let first = usize::from(!rule.counts_start());
        let unwon = position.unwon_legal_moves();
        unwon
            .iter()
            .copied()
            .filter(|m| {
                let path = Bitboard::from_square(m.from()) | Bitboard::from_square(m.to());
                let (mut defenders, mut king) = (position.defenders(), position.king_set());
                if king.contains(m.from()) {
                    king ^= path;
                } else {
                    defenders ^= path;
                }
                game.positions()[first..].iter().any(|earlier| {
                    earlier.attackers() == position.attackers()
                        && earlier.defenders() == defenders
                        && earlier.king_set() == king
                })
            })
            .collect()
    }

    /// Plays seeded games that often move a piece back (so that placements recur), checking
    /// `outcome_and_legal_moves` against `outcome`, `legal_moves` and the brute force at every
    /// ply; returns how many moves the brute force forbade.
    fn check<B: Grid>(variant: &Variant<B>, seed: u64) -> usize {
        let mut random = XorShift(seed);
        let mut forbidden_seen = 0;
        for _ in 0..20 {
            let mut game = Game::new(variant);
            let mut last: [Option<Move<B>>; 2] = [None, None];
            for ply in 0..200 {
                let (outcome, moves) = game.outcome_and_legal_moves();
                assert_eq!(outcome, game.outcome());
                assert_eq!(moves, game.legal_moves());
                if outcome.is_some() {
                    break;
                }
                let forbidden = forbidden_by_brute_force(&game);
                let unwon = game.position().unwon_legal_moves();
                let allowed: Vec<Move<B>> = unwon
                    .iter()
                    .copied()
                    .filter(|m| !forbidden.contains(m))
                    .collect();
                assert_eq!(moves.to_vec(), allowed);
                forbidden_seen += forbidden.len();
                let side = ply % 2;
                let back = last[side]
                    .map(|m| Move::new(m.to(), m.from()))
                    .filter(|m| moves.contains(m));
                let m = match back {
                    Some(back) if random.next() % 4 != 0 => back,
                    _ => moves[(random.next() % moves.len() as u64) as usize],
                };
                last[side] = Some(m);
                game.play(m).expect("a move of legal_moves");
            }
        }
        forbidden_seen
    }

    #[test]
    fn outcome_and_legal_moves_agree_with_a_brute_force_of_h12() {
        assert!(check(&Variant::hnefatafl_org_brandubh(), 0x5eed) > 0);
        assert!(check(&Variant::hnefatafl_org_copenhagen(), 0xc0de) > 0);
        assert!(check(&Variant::<Wide>::hnefatafl_org_copenhagen_13(), 0xbeef) > 0);
        // Rules without H12 forbid nothing.
        assert_eq!(check(&Variant::tablut(), 0xface), 0);
    }
}
