//! `RepetitionRule`: when a repeated position ends the game (R16, C11, C14, H12).

/// When a repeated position (the same placement with the same side to move) ends the game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RepetitionRule {
    /// Repetitions never end the game.
    Ignored,
    /// The second occurrence draws: R16.
    SecondOccurrenceDraws,
    /// The third occurrence draws (OpenTafl `tfr:d`, its default).
    ThirdOccurrenceDraws,
    /// The third occurrence loses for the side whose move made it (OpenTafl `tfr:w`: the side
    /// then to move wins; Copenhagen).
    ThirdOccurrenceLosesForMover,
    /// The third occurrence wins for the side whose move made it (OpenTafl `tfr:l`).
    ThirdOccurrenceWinsForMover,
    /// The second occurrence draws, counting only positions reached by a move: the position the
    /// game started from is not counted (Ashton Tablut, C14: the Tablut Challenge server
    /// remembers the positions after each move, not the first one).
    SecondOccurrenceDrawsStartUncounted,
    /// The third occurrence wins for the attackers, whichever side's move made it: the published
    /// Copenhagen rules' "perpetual repetition is a loss for the defenders" (docs/rules-hosts.md,
    /// "Copenhagen as the community plays it"; this engine's own `tfr:a`).
    ThirdOccurrenceAttackersWin,
    /// Repetitions never end the game, but the defenders may not make a move that puts the
    /// pieces as they stood after an earlier move or at the start, whoever was then to move
    /// (hnefatafl.org's server, H12: the placement is compared before the move's captures). A
    /// side without a legal move loses.
    DefendersMayNotRecreate,
    /// [`RepetitionRule::DefendersMayNotRecreate`], the start position not counted
    /// (hnefatafl.org's server on its 7x7 and 13x13 boards, H12).
    DefendersMayNotRecreateStartUncounted,
}

impl RepetitionRule {
    /// How many occurrences of one position end the game, if any do.
    pub const fn end_count(self) -> Option<usize> {
        match self {
            RepetitionRule::Ignored
            | RepetitionRule::DefendersMayNotRecreate
            | RepetitionRule::DefendersMayNotRecreateStartUncounted => None,
            RepetitionRule::SecondOccurrenceDraws
            | RepetitionRule::SecondOccurrenceDrawsStartUncounted => Some(2),
            RepetitionRule::ThirdOccurrenceDraws
            | RepetitionRule::ThirdOccurrenceLosesForMover
            | RepetitionRule::ThirdOccurrenceWinsForMover
            | RepetitionRule::ThirdOccurrenceAttackersWin => Some(3),
        }
    }

    /// How many occurrences of one position draw the game, if any do (`None` also when a
    /// repetition wins or loses: see [`RepetitionRule::end_count`]).
    pub const fn draw_count(self) -> Option<usize> {
        match self {
            RepetitionRule::SecondOccurrenceDraws
            | RepetitionRule::SecondOccurrenceDrawsStartUncounted => Some(2),
            RepetitionRule::ThirdOccurrenceDraws => Some(3),
            _ => None,
        }
    }

    /// Whether the position a game starts from counts as an occurrence (or, for the rules that
    /// forbid the defenders to recreate a placement, as an earlier placement).
    pub const fn counts_start(self) -> bool {
        !matches!(
            self,
            RepetitionRule::SecondOccurrenceDrawsStartUncounted
                | RepetitionRule::DefendersMayNotRecreateStartUncounted
        )
    }

    /// Whether the defenders may not recreate an earlier placement of the pieces (H12): a
    /// history-dependent legality rule, kept by [`Game`](crate::Game) and the search.
    pub const fn forbids_defenders_recreating(self) -> bool {
        matches!(
            self,
            RepetitionRule::DefendersMayNotRecreate
                | RepetitionRule::DefendersMayNotRecreateStartUncounted
        )
    }
}
