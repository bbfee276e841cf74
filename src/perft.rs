//! Perft (docs/rules.md P1): the number of move paths of a given length, to check move
//! generation.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use crate::bitboard::Bitboard;
use crate::game::Game;
use crate::movegen;
use crate::movegen::CustomViewMasks;
use crate::moves::{Move, MoveList};
use crate::piece::{Piece, Side};
use crate::play::Grid;
use crate::position::Position;
use crate::rules::custom::RuleSet;
use crate::views::SideViews;

/// `perft(p, d)` of P1, counting the last ply without playing it (bulk counting).
///
/// ```
/// use tafl_engine::{perft, Position};
/// assert_eq!(perft::perft(&Position::tablut(), 2), 4400);
/// ```
///
/// Boards above 11x11 count the same way ([`Wide`](crate::Wide) positions, from rules strings).
pub fn perft<B: Grid>(position: &Position<B>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if let Some(classic) = B::as_narrow(position).filter(|p| p.rules().is_classic()) {
        // Counting works on the board's views; they are built once here and kept in step below.
        return bulk(classic, &SideViews::of(classic), depth);
    }
    if let Some((narrow, set)) = B::as_narrow(position).and_then(|p| Some((p, p.rules().custom()?)))
    {
        // The custom rules count on the same views, with their masks seen the same ways.
        let counter = CustomCounter {
            set,
            masks: CustomViewMasks::of(set),
        };
        return counter.bulk(narrow, &SideViews::of(narrow), depth);
    }
    let mut lists = vec![MoveList::new(); depth as usize - 1];
    bulk_custom(position, &mut lists)
}

/// [`perft()`] under custom rules to the depth of `lists` plus one: each position's moves are
/// listed into the list of its ply, and the last ply is counted.
fn bulk_custom<B: Grid>(position: &Position<B>, lists: &mut [MoveList<B>]) -> u64 {
    let Some((moves, deeper)) = lists.split_first_mut() else {
        return u64::from(position.count_legal_moves());
    };
    position.legal_moves_into(moves);
    let mut total = 0;
    for &m in moves.iter() {
        let mut next = *position;
        next.play_unchecked(m);
        total += bulk_custom(&next, deeper);
    }
    total
}

/// [`perft()`] under custom rules on the narrow grid, counting as [`bulk`] does: the last ply
/// from the views, and at the ply before it, moves that cannot capture made without looking for
/// captures.
struct CustomCounter {
    set: &'static RuleSet,
    masks: CustomViewMasks,
}

impl CustomCounter {
    /// [`CustomCounter::bulk`] that reads `stop` at each position more than
    /// [`UNSTOPPABLE_DEPTH`] plies from the leaves, as [`stoppable`] does.
    fn stoppable(
        &self,
        position: &Position,
        views: &SideViews,
        depth: u32,
        stop: &AtomicBool,
    ) -> Option<u64> {
        if depth <= UNSTOPPABLE_DEPTH {
            return Some(self.bulk(position, views, depth));
        }
        let mover = position.side_to_move();
        let mut moves = MoveList::new();
        movegen::generate_custom(position, self.set, &mut moves);
        let mut total = 0;
        for &m in &moves {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let mut next = *position;
            let captured = next.play_unchecked(m);
            total += self.stoppable(&next, &views.after(mover, m, captured), depth - 1, stop)?;
        }
        Some(total)
    }

    /// [`perft()`] for `depth >= 1`, with `views` the position's.
    fn bulk(&self, position: &Position, views: &SideViews, depth: u32) -> u64 {
        let set = self.set;
        if depth == 1 {
            return u64::from(movegen::count_custom_with_views(
                position,
                set,
                views,
                &self.masks,
            ));
        }
        let mover = position.side_to_move();
        let mut moves = MoveList::new();
        movegen::generate_custom(position, set, &mut moves);
        let mut total = 0;
        if depth == 2 {
            // After an attackers' move, encirclement is ruled out by a defender's line to the
            // edge that the move does not block: the lines are found once. Counted by two copies
            // of the loop, so that the rule sets without encirclement pay nothing for it.
            if mover == Side::Attackers && set.spec.surrounding_fatal {
                let lines = movegen::DefendersEdgeLines::of(position, views, &self.masks);
                total = self.count_before_leaves(position, views, &moves, |to| {
                    lines.kept_after_attacker_lands(to)
                });
            } else {
                total = self.count_before_leaves(position, views, &moves, |_| false);
            }
        } else {
            for &m in &moves {
                let mut next = *position;
                let captured = next.play_unchecked(m);
                total += self.bulk(&next, &views.after(mover, m, captured), depth - 1);
            }
        }
        total
    }

    /// The last two plies of [`CustomCounter::bulk`] from `position`, whose moves are `moves`:
    /// the last ply counted, and at the ply before it, moves that cannot capture not made.
    /// `edge_line_kept(to)`: whether a defender's open line to the edge is seen to survive a
    /// quiet move onto `to` (only asked of the attackers' moves).
    #[inline(always)]
    fn count_before_leaves(
        &self,
        position: &Position,
        views: &SideViews,
        moves: &MoveList,
        edge_line_kept: impl Fn(crate::square::Square) -> bool,
    ) -> u64 {
        let set = self.set;
        let mover = position.side_to_move();
        // A move landing off these squares captures nothing: only its piece moves.
        let capture_squares = position.custom_capture_squares(set);
        let king = position.king_set();
        // The other side's pieces stay where they are after a quiet move: sorted once.
        let groups = movegen::CustomGroups::of(position, set, views, &self.masks, mover.opponent());
        let occupied = movegen::occupied_views(position, views);
        let mut total = 0;
        for &m in moves {
            let count = if capture_squares.contains(m.to()) {
                let mut next = *position;
                let captured = next.play_unchecked(m);
                let views = views.after(mover, m, captured);
                movegen::count_custom_with_views(&next, set, &views, &self.masks)
            } else {
                // Only the piece moves: of the ends, only what it can change is looked at,
                // and the moves after it are counted without making it.
                let piece = match mover {
                    Side::Attackers => Piece::Attacker,
                    Side::Defenders if king.contains(m.from()) => Piece::King,
                    Side::Defenders => Piece::Defender,
                };
                let after = || {
                    let mut next = *position;
                    next.play_quiet_unchecked(m);
                    next
                };
                let not_encircled = |next: &Position| {
                    let views = views.after(mover, m, Bitboard::EMPTY);
                    movegen::defenders_see_the_edge(next, &views, &self.masks)
                };
                if position.custom_no_moves_after_quiet_move(
                    set,
                    piece,
                    m.to(),
                    edge_line_kept(m.to()),
                    after,
                    not_encircled,
                ) {
                    0
                } else {
                    groups.count_after_quiet_move(set, position, occupied, m)
                }
            };
            total += u64::from(count);
        }
        total
    }
}

/// [`perft()`] for `depth >= 1`, with `views` the position's.
fn bulk(position: &Position, views: &SideViews, depth: u32) -> u64 {
    if depth == 1 {
        return u64::from(movegen::count_with_views(position, views));
    }
    let mover = position.side_to_move();
    let mut moves = MoveList::new();
    movegen::generate_with_views(position, views, &mut moves);
    let mut total = 0;
    if depth == 2 {
        // The last ply is counted, not played; moves that cannot capture are not even played
        // at the ply before it (see `count_after_quiet_move`).
        let quiet = movegen::QuietMoves::of(position);
        for &m in &moves {
            let quick = movegen::count_after_quiet_move(position, views, quiet, m);
            let count = quick.unwrap_or_else(|| {
                let mut next = *position;
                let captured = next.classic_play_unchecked(m);
                movegen::count_with_views(&next, &views.after(mover, m, captured))
            });
            total += u64::from(count);
        }
    } else {
        for &m in &moves {
            let mut next = *position;
            let captured = next.classic_play_unchecked(m);
            total += bulk(&next, &views.after(mover, m, captured), depth - 1);
        }
    }
    total
}

/// Remaining depth at and below which [`perft_stoppable`] counts without looking at its stop
/// flag: a count of depth 3 takes at most a few milliseconds, and above it the flag is read once
/// per position, which costs nothing next to the count.
const UNSTOPPABLE_DEPTH: u32 = 3;

/// [`UNSTOPPABLE_DEPTH`] on boards above 11x11, where a count of depth 2 takes at most about a
/// millisecond.
const WIDE_UNSTOPPABLE_DEPTH: u32 = 1;

/// [`perft()`] that can be interrupted: it gives up and returns `None` soon after `stop` is set
/// (from another thread), and returns `None` at once if it is set already. The count is the same
/// as [`perft()`]'s when it finishes.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use tafl_engine::{perft, Position};
/// let start = Position::tablut();
/// assert_eq!(perft::perft_stoppable(&start, 3, &AtomicBool::new(false)), Some(353_200));
/// assert_eq!(perft::perft_stoppable(&start, 3, &AtomicBool::new(true)), None);
/// ```
///
/// Boards above 11x11 too ([`Wide`](crate::Wide) positions).
pub fn perft_stoppable<B: Grid>(
    position: &Position<B>,
    depth: u32,
    stop: &AtomicBool,
) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth == 0 {
        return Some(1);
    }
    // Only the classic rules may take the classic counter (as in `perft`): a rules string's
    // corners, throne and hostility are the custom generator's to count, on either grid.
    if let Some(classic) = B::as_narrow(position).filter(|p| p.rules().is_classic()) {
        return stoppable(classic, &SideViews::of(classic), depth, stop);
    }
    if let Some((narrow, set)) = B::as_narrow(position).and_then(|p| Some((p, p.rules().custom()?)))
    {
        // One counter (its masks built once) for the whole count.
        let counter = CustomCounter {
            set,
            masks: CustomViewMasks::of(set),
        };
        return counter.stoppable(narrow, &SideViews::of(narrow), depth, stop);
    }
    stoppable_on_any_grid(position, depth, stop)
}

/// [`perft()`] that reads `stop` at each position more than [`UNSTOPPABLE_DEPTH`] plies from
/// the leaves, on any grid.
fn stoppable_on_any_grid<B: Grid>(
    position: &Position<B>,
    depth: u32,
    stop: &AtomicBool,
) -> Option<u64> {
    // Above 11x11 a position has hundreds of moves, and a count of depth 3 takes up to a third
    // of a second (Alea Evangelii 19x19): the flag is read down to the last ply but one.
    let unstoppable = if B::as_narrow(position).is_some() {
        UNSTOPPABLE_DEPTH
    } else {
        WIDE_UNSTOPPABLE_DEPTH
    };
    if depth <= unstoppable {
        return Some(perft(position, depth));
    }
    let mut total = 0;
    for &m in &position.legal_moves() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mut next = *position;
        next.play_unchecked(m);
        total += stoppable_on_any_grid(&next, depth - 1, stop)?;
    }
    Some(total)
}

/// [`bulk`] that reads `stop` at each position more than [`UNSTOPPABLE_DEPTH`] plies from the
/// leaves.
fn stoppable(position: &Position, views: &SideViews, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= UNSTOPPABLE_DEPTH {
        return Some(bulk(position, views, depth));
    }
    let mover = position.side_to_move();
    let mut moves = MoveList::new();
    movegen::generate_with_views(position, views, &mut moves);
    let mut total = 0;
    for &m in &moves {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mut next = *position;
        let captured = next.classic_play_unchecked(m);
        total += stoppable(&next, &views.after(mover, m, captured), depth - 1, stop)?;
    }
    Some(total)
}

/// The same count as [`perft()`], but every leaf is played: the cost of making each move (on a
/// scratch position, taken back after each), with the move list of each position generated in
/// full.
pub fn perft_without_bulk(position: &Position, depth: u32) -> u64 {
    // One move list per ply, filled in place: no list is set up or copied per position.
    let mut lists = vec![MoveList::new(); depth as usize];
    played(position, &mut lists)
}

/// [`perft_without_bulk`] to the depth of `lists`, one list for each ply.
fn played(position: &Position, lists: &mut [MoveList]) -> u64 {
    let Some((moves, deeper)) = lists.split_first_mut() else {
        return 1;
    };
    position.legal_moves_into(moves);
    let mut total = 0;
    if deeper.is_empty() {
        position.for_each_child(moves, |leaf| {
            // Without this the compiler may see that a leaf is never looked at and skip the move.
            std::hint::black_box(leaf);
            total += 1;
        });
    } else {
        position.for_each_child(moves, |child| total += played(child, deeper));
    }
    total
}

/// Perft of a game (docs/rules-hosts.md, P3): like [`perft()`], but each node's moves are the
/// game's legal moves ([`Game::legal_moves`]), so the rules that depend on the history count:
/// hnefatafl.org's defenders may not recreate an earlier position (H12), a game drawn by its
/// move limit (H10) or ended by a repetition has no moves.
///
/// ```
/// use tafl_engine::{Game, Variant, perft};
/// let game = Game::new(&Variant::hnefatafl_org_brandubh());
/// assert_eq!(perft::perft_game(&game, 2), perft::perft(&game.position(), 2));
/// ```
pub fn perft_game<B: Grid>(game: &Game<B>, depth: u32) -> u64 {
    let mut game = game.clone();
    perft_game_in(&mut game, depth)
}

/// Whether a game's history changes its moves, so that [`perft_game`] may count otherwise than
/// [`perft()`] of its position: hnefatafl.org's move limit (H10) and its defenders' ban on
/// recreating a position (H12).
///
/// ```
/// use tafl_engine::{Game, Variant, perft};
/// assert!(perft::history_changes_moves(&Game::new(&Variant::hnefatafl_org_copenhagen())));
/// assert!(!perft::history_changes_moves(&Game::new(&Variant::copenhagen())));
/// ```
pub fn history_changes_moves<B: Grid>(game: &Game<B>) -> bool {
    let rules = game.position().rules();
    rules.move_limit().is_some() || rules.repetition().forbids_defenders_recreating()
}

/// [`divide`] of a game ([`perft_game`] split by first move) that can be interrupted like
/// [`perft_stoppable`]: each of the game's legal moves with the count after it, sorted by the
/// move's text, or `None` if `stop` is set before every count is done.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use tafl_engine::{Game, Variant, perft};
/// let game = Game::new(&Variant::hnefatafl_org_brandubh());
/// let split = perft::divide_game_stoppable(&game, 2, &AtomicBool::new(false)).unwrap();
/// let total: u64 = split.iter().map(|(_, count)| count).sum();
/// assert_eq!(total, perft::perft_game(&game, 2));
/// ```
pub fn divide_game_stoppable<B: Grid>(
    game: &Game<B>,
    depth: u32,
    stop: &AtomicBool,
) -> Option<Vec<(Move<B>, u64)>> {
    let mut game = game.clone();
    let mut split = Vec::new();
    for &m in &game.legal_moves() {
        game.play_unchecked(m);
        let count = perft_game_stoppable_in(&mut game, depth.saturating_sub(1), stop);
        game.undo();
        split.push((m, count?));
    }
    split.sort_by_key(|(m, _)| m.to_string());
    Some(split)
}

/// [`perft_game`] that can be interrupted like [`perft_stoppable`].
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use tafl_engine::{Game, Variant, perft};
/// let game = Game::new(&Variant::hnefatafl_org_brandubh());
/// let never = AtomicBool::new(false);
/// assert_eq!(perft::perft_game_stoppable(&game, 3, &never), Some(perft::perft_game(&game, 3)));
/// assert_eq!(perft::perft_game_stoppable(&game, 3, &AtomicBool::new(true)), None);
/// ```
pub fn perft_game_stoppable<B: Grid>(game: &Game<B>, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut game = game.clone();
    perft_game_stoppable_in(&mut game, depth, stop)
}

/// [`perft_game_stoppable`] on a game that each move is played on and taken back from; the flag
/// is read at every position more than one ply from the leaves.
fn perft_game_stoppable_in<B: Grid>(
    game: &mut Game<B>,
    depth: u32,
    stop: &AtomicBool,
) -> Option<u64> {
    if depth <= 1 {
        return Some(perft_game_in(game, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut count = 0;
    for &m in &game.legal_moves() {
        game.play_unchecked(m);
        let below = perft_game_stoppable_in(game, depth - 1, stop);
        game.undo();
        count += below?;
    }
    Some(count)
}

/// [`perft_game`] on a game that each move is played on and taken back from.
fn perft_game_in<B: Grid>(game: &mut Game<B>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = game.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut count = 0;
    for &m in &moves {
        // The game's own legal moves, each played and taken back.
        game.play_unchecked(m);
        count += perft_game_in(game, depth - 1);
        game.undo();
    }
    count
}

/// Perft split by first move: each legal move with `perft` of the position after it, sorted by
/// the move's text. The counts add up to `perft(position, depth)` for `depth >= 1`.
pub fn divide<B: Grid>(position: &Position<B>, depth: u32) -> Vec<(Move<B>, u64)> {
    let mut split: Vec<(Move<B>, u64)> = position
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut next = *position;
            next.play_unchecked(m);
            (m, perft(&next, depth.saturating_sub(1)))
        })
        .collect();
    split.sort_by_key(|(m, _)| m.to_string());
    split
}

/// [`divide`] that can be interrupted like [`perft_stoppable`]: `None` if `stop` is set before
/// every first move's count is done.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use tafl_engine::{perft, Position};
/// let start = Position::tablut();
/// let split = perft::divide_stoppable(&start, 2, &AtomicBool::new(false));
/// assert_eq!(split, Some(perft::divide(&start, 2)));
/// ```
pub fn divide_stoppable<B: Grid>(
    position: &Position<B>,
    depth: u32,
    stop: &AtomicBool,
) -> Option<Vec<(Move<B>, u64)>> {
    divide_parallel_stoppable(position, depth, 1, stop)
}

/// [`perft()`] with the root moves shared out over `threads` threads (at least one).
///
/// ```
/// use tafl_engine::{perft, Position};
/// let start = Position::tablut();
/// assert_eq!(perft::perft_parallel(&start, 3, 2), perft::perft(&start, 3));
/// ```
pub fn perft_parallel<B: Grid>(position: &Position<B>, depth: u32, threads: usize) -> u64 {
    perft_parallel_with_progress(position, depth, threads, |_, _| {})
}

/// [`perft_parallel()`] that calls `progress(done, total)` each time a root move's subtree is
/// counted, `total` being the number of root moves (for progress lines on long runs).
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use tafl_engine::{perft, Position};
/// let calls = AtomicUsize::new(0);
/// let count = perft::perft_parallel_with_progress(&Position::tablut(), 2, 2, |_, total| {
///     assert_eq!(total, 80);
///     calls.fetch_add(1, Ordering::Relaxed);
/// });
/// assert_eq!(count, 4400);
/// assert_eq!(calls.into_inner(), 80);
/// ```
pub fn perft_parallel_with_progress<B: Grid>(
    position: &Position<B>,
    depth: u32,
    threads: usize,
    progress: impl Fn(usize, usize) + Sync,
) -> u64 {
    if depth <= 1 {
        return perft(position, depth);
    }
    let subtree = |next: &Position<B>| Some(perft(next, depth - 1));
    // Without a stop, every subtree is counted.
    share_root_moves(position, threads, subtree, progress)
        .map_or(0, |split| split.iter().map(|(_, count)| count).sum())
}

/// [`perft_parallel()`] that can be interrupted like [`perft_stoppable`]: every thread gives up
/// soon after `stop` is set, and the result is then `None`.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use tafl_engine::{perft, Position};
/// let start = Position::tablut();
/// let never = AtomicBool::new(false);
/// assert_eq!(perft::perft_parallel_stoppable(&start, 3, 2, &never), Some(353_200));
/// assert_eq!(perft::perft_parallel_stoppable(&start, 3, 2, &AtomicBool::new(true)), None);
/// ```
pub fn perft_parallel_stoppable<B: Grid>(
    position: &Position<B>,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<u64> {
    if depth <= 1 || stop.load(Ordering::Relaxed) {
        return perft_stoppable(position, depth, stop);
    }
    let subtree = |next: &Position<B>| perft_stoppable(next, depth - 1, stop);
    let split = share_root_moves(position, threads, subtree, |_, _| {})?;
    Some(split.iter().map(|(_, count)| count).sum())
}

/// [`divide_stoppable`] with the root moves shared out over `threads` threads (at least one),
/// as [`perft_parallel_stoppable`] shares them: the same split, sorted by the move's text.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use tafl_engine::{perft, Position};
/// let start = Position::tablut();
/// let split = perft::divide_parallel_stoppable(&start, 3, 2, &AtomicBool::new(false));
/// assert_eq!(split, Some(perft::divide(&start, 3)));
/// ```
pub fn divide_parallel_stoppable<B: Grid>(
    position: &Position<B>,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<Vec<(Move<B>, u64)>> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let below = depth.saturating_sub(1);
    let subtree = |next: &Position<B>| perft_stoppable(next, below, stop);
    let mut split = share_root_moves(position, threads, subtree, |_, _| {})?;
    split.sort_by_key(|(m, _)| m.to_string());
    Some(split)
}

/// Counts `subtree` of the position after each root move on `threads` threads (at least one),
/// calling `progress(done, total)` after each; each root move with its count, in the order of
/// the legal moves, or `None` as soon as a subtree gives `None`.
fn share_root_moves<B: Grid>(
    position: &Position<B>,
    threads: usize,
    subtree: impl Fn(&Position<B>) -> Option<u64> + Sync,
    progress: impl Fn(usize, usize) + Sync,
) -> Option<Vec<(Move<B>, u64)>> {
    let moves = position.legal_moves();
    let next_move = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    // One slot a root move, written by whichever thread counted it.
    let counts: Vec<AtomicU64> = moves.iter().map(|_| AtomicU64::new(0)).collect();
    let given_up = AtomicBool::new(false);
    // Each thread takes the next root move not yet taken, so uneven subtrees balance out.
    let work = || {
        loop {
            let index = next_move.fetch_add(1, Ordering::Relaxed);
            let Some(&m) = moves.get(index) else { return };
            let mut next = *position;
            next.play_unchecked(m);
            let Some(count) = subtree(&next) else {
                given_up.store(true, Ordering::Relaxed);
                return;
            };
            counts[index].store(count, Ordering::Relaxed);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, moves.len());
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            // A thread the system refuses to start is no error: the threads that did start
            // (this one at least) take every root move between them.
            if std::thread::Builder::new()
                .spawn_scoped(scope, work)
                .is_err()
            {
                break;
            }
        }
        work();
    });
    if given_up.into_inner() {
        return None;
    }
    Some(
        moves
            .iter()
            .zip(counts)
            .map(|(&m, count)| (m, count.into_inner()))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// The custom rules' counting on the views agrees with the generator's count after every
    /// move made (`bulk_custom`, the wide grid's way) in positions along random games of every
    /// built-in game with custom rules and of the classic games read as rules strings: ends,
    /// captures, special squares and camps all come up.
    #[test]
    fn custom_counts_on_the_views_agree_with_counts_after_every_move_made() {
        let mut starts: Vec<Position> = crate::test_support::built_in_variants()
            .iter()
            .map(|variant| variant.start())
            .filter(|start| !start.rules().is_classic())
            .collect();
        for classic in [crate::Variant::tablut(), crate::Variant::tawlbwrdd()] {
            let text = classic.to_string().replace(" classic:y", "");
            let variant: crate::Variant = text.parse().expect("reads as custom rules");
            starts.push(variant.start());
        }
        let positions =
            crate::test_support::positions_along_random_games(&starts, 6, 160, 0x9e37_79b9_7f4a);
        let mut compared = 0;
        for (index, position) in positions.iter().enumerate() {
            let depths: &[u32] = if index % 9 == 0 { &[1, 2, 3] } else { &[1, 2] };
            for &depth in depths {
                let mut lists = vec![MoveList::new(); depth as usize - 1];
                let made = bulk_custom(position, &mut lists);
                assert_eq!(perft(position, depth), made, "depth {depth}: {position:?}");
                compared += 1;
            }
        }
        assert!(compared > 10_000, "{compared} counts compared");
    }

    #[test]
    fn stoppable_counts_agree_with_perft_when_not_stopped() {
        let never = AtomicBool::new(false);
        for start in [Position::tablut(), Position::tawlbwrdd()] {
            for depth in 0..=4 {
                assert_eq!(
                    perft_stoppable(&start, depth, &never),
                    Some(perft(&start, depth))
                );
            }
            assert_eq!(divide_stoppable(&start, 4, &never), Some(divide(&start, 4)));
        }
        // Custom rules on the narrow grid, above the depth where the flag is no longer read,
        // against the counts of every move made; and a stop ends such a count.
        for variant in [crate::Variant::copenhagen(), crate::Variant::ashton()] {
            let start = variant.start();
            let mut lists = vec![MoveList::new(); 3];
            let made = bulk_custom(&start, &mut lists);
            assert_eq!(perft_stoppable(&start, 4, &never), Some(made));
            assert_eq!(perft_stoppable(&start, 4, &never), Some(perft(&start, 4)));
            assert_eq!(perft_stoppable(&start, 6, &AtomicBool::new(true)), None);
        }
        // Two plies above the depth where the flag is no longer read.
        let tablut = Position::tablut();
        assert_eq!(perft_stoppable(&tablut, 5, &never), Some(1_611_674_360));
        // On the wide grid too, above the depth where the flag is no longer read (a 13x13 board
        // of few pieces keeps the count small).
        let sparse: crate::Variant<crate::Wide> =
            "dim:13 atkf:y start:/3t5t3/13/13/13/13/13/6K6/13/13/13/13/13/3T5T3/"
                .parse()
                .expect("reads");
        let start = sparse.start();
        assert_eq!(perft_stoppable(&start, 4, &never), Some(perft(&start, 4)));
        assert_eq!(
            perft_parallel_stoppable(&start, 4, 2, &never),
            Some(perft(&start, 4))
        );
        assert_eq!(divide_stoppable(&start, 2, &never), Some(divide(&start, 2)));
        assert_eq!(perft_stoppable(&start, 4, &AtomicBool::new(true)), None);
    }

    #[test]
    fn a_stop_from_another_thread_ends_a_count_of_hours_at_once() {
        let stop = AtomicBool::new(false);
        let start = Position::tawlbwrdd();
        std::thread::scope(|scope| {
            let counting = scope.spawn(|| perft_stoppable(&start, 9, &stop));
            std::thread::sleep(Duration::from_millis(50));
            let asked = Instant::now();
            stop.store(true, Ordering::Relaxed);
            let count = counting.join().expect("the count does not panic");
            assert_eq!(count, None);
            assert!(
                asked.elapsed() < Duration::from_millis(200),
                "{:?}",
                asked.elapsed()
            );
        });
        assert_eq!(divide_stoppable(&start, 9, &AtomicBool::new(true)), None);
    }

    #[test]
    fn parallel_stoppable_counts_agree_and_a_stop_ends_every_thread() {
        let never = AtomicBool::new(false);
        for start in [Position::tablut(), Position::tawlbwrdd()] {
            for (depth, threads) in [(0, 1), (1, 2), (2, 1), (3, 3), (4, 2)] {
                assert_eq!(
                    perft_parallel_stoppable(&start, depth, threads, &never),
                    Some(perft(&start, depth))
                );
            }
        }
        let stop = AtomicBool::new(false);
        let start = Position::tawlbwrdd();
        std::thread::scope(|scope| {
            let counting = scope.spawn(|| perft_parallel_stoppable(&start, 9, 2, &stop));
            std::thread::sleep(Duration::from_millis(50));
            let asked = Instant::now();
            stop.store(true, Ordering::Relaxed);
            assert_eq!(counting.join().expect("the count does not panic"), None);
            // Perft 9 of Tawlbwrdd would run for days: ending within seconds is the stop
            // working. The bound was 200 ms, which a loaded machine (a package build beside the
            // tests) once passed.
            let waited = asked.elapsed();
            assert!(waited < Duration::from_secs(2), "{waited:?}");
        });
    }
}
