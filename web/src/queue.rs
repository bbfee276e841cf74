//! The order in which waiting searches start: fair between players, engine moves first.
//!
//! Three classes, in this order: the engine's **moves** (a person waits for them), then
//! **hints and analyses** (asked for, and bounded: one waiting per player, a newer one
//! replaces it), then **reviews** (the background evaluation of finished games, never in
//! anybody's way). Within a class, players take turns: everyone's first waiting search, then
//! everyone's second, and so on, each round in the order they were asked for. When more than
//! one search runs at once, hints, analyses and reviews together hold at most all slots but
//! one, so an engine move never waits for them while that slot is free; with one slot, it
//! waits for at most the one search running when it arrived.
//!
//! This module is pure bookkeeping (no clock, no threads): [`crate::engine::Pool`] keeps one
//! under a lock, and the unit tests below check the order.

use std::collections::HashMap;

/// What a search is for: its class in the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// The engine's move in a game: a person waits for it.
    Move,
    /// A hint or an analysis a person asked for: one waiting per player.
    Hint,
    /// The background review of a finished game: after everything else.
    Review,
}

/// A search waiting its turn.
#[derive(Debug)]
struct Waiting<T> {
    ticket: u64,
    player: String,
    class: Class,
    /// The player's turn in its class: the same player's earlier searches come in earlier
    /// rounds, and a newcomer joins the round being served.
    round: u64,
    item: T,
}

/// The waiting searches, and how many run.
#[derive(Debug)]
pub struct Queue<T> {
    slots: usize,
    running_moves: usize,
    running_low: usize,
    next_ticket: u64,
    waiting: Vec<Waiting<T>>,
    /// The round last started in each class.
    current: [u64; 3],
    /// Each player's last round given in a class (entries behind `current` mean nothing).
    last_round: HashMap<(String, Class), u64>,
}

/// What [`Queue::push`] did with a new search.
#[derive(Debug, PartialEq, Eq)]
pub struct Pushed<T> {
    /// The new search's ticket (its name in the queue).
    pub ticket: u64,
    /// The same player's waiting hint or analysis that the new one replaced, if any.
    pub replaced: Option<T>,
}

impl<T> Queue<T> {
    /// An empty queue for `slots` searches at once (at least one).
    pub fn new(slots: usize) -> Queue<T> {
        Queue {
            slots: slots.max(1),
            running_moves: 0,
            running_low: 0,
            next_ticket: 0,
            waiting: Vec::new(),
            current: [0; 3],
            last_round: HashMap::new(),
        }
    }

    /// Adds a search of `player` (the key of whoever asked: a seat's secret, or a game) in
    /// `class`. A hint or analysis replaces that player's hint or analysis still waiting.
    pub fn push(&mut self, player: &str, class: Class, item: T) -> Pushed<T> {
        let current = self.current[class as usize];
        let key = (player.to_owned(), class);
        let mut round = match self.last_round.get(&key) {
            Some(&last) if last >= current => last + 1,
            _ => current,
        };
        let mut replaced = None;
        if class == Class::Hint
            && let Some(index) = self
                .waiting
                .iter()
                .position(|w| w.class == Class::Hint && w.player == player)
        {
            // The newer one keeps the older one's turn.
            let older = self.waiting.remove(index);
            round = older.round;
            replaced = Some(older.item);
        }
        if self.last_round.len() > 4 * self.waiting.len() + 1024 {
            let current = self.current;
            self.last_round
                .retain(|(_, class), last| *last >= current[*class as usize]);
        }
        self.last_round.insert(key, round);
        let ticket = self.next_ticket;
        self.next_ticket += 1;
        self.waiting.push(Waiting {
            ticket,
            player: player.to_owned(),
            class,
            round,
            item,
        });
        Pushed { ticket, replaced }
    }

    /// The waiting searches' tickets in the order they will start (if slots allow).
    fn order(&self) -> Vec<usize> {
        let mut keyed: Vec<(Class, u64, u64, usize)> = self
            .waiting
            .iter()
            .enumerate()
            .map(|(index, w)| (w.class, w.round, w.ticket, index))
            .collect();
        keyed.sort_unstable();
        keyed.into_iter().map(|(.., index)| index).collect()
    }

    /// Slots that hints, analyses and reviews may hold at once: all but one when there are
    /// several, kept for the engine's moves.
    fn low_slots(&self) -> usize {
        if self.slots > 1 { self.slots - 1 } else { 1 }
    }

    /// Takes the next search that may start now, if a slot is free for it, and counts it as
    /// running (until [`Queue::finished`]).
    pub fn start_next(&mut self) -> Option<(u64, Class, T)> {
        if self.running_moves + self.running_low >= self.slots {
            return None;
        }
        let low_free = self.running_low < self.low_slots();
        let index = self
            .order()
            .into_iter()
            .find(|&index| self.waiting[index].class == Class::Move || low_free)?;
        let waiting = self.waiting.remove(index);
        self.current[waiting.class as usize] = waiting.round;
        if waiting.class == Class::Move {
            self.running_moves += 1;
        } else {
            self.running_low += 1;
        }
        Some((waiting.ticket, waiting.class, waiting.item))
    }

    /// A search of `class` that was started has ended: its slot is free.
    pub fn finished(&mut self, class: Class) {
        let count = if class == Class::Move {
            &mut self.running_moves
        } else {
            &mut self.running_low
        };
        *count = count.saturating_sub(1);
    }

    /// Removes a waiting search (its page left); `None` when it is not waiting.
    pub fn remove(&mut self, ticket: u64) -> Option<T> {
        let index = self.waiting.iter().position(|w| w.ticket == ticket)?;
        Some(self.waiting.remove(index).item)
    }

    /// A waiting search's place, from 1 (0 when it is not waiting): the searches that start
    /// before it, plus one.
    pub fn place(&self, ticket: u64) -> usize {
        self.order()
            .into_iter()
            .position(|index| self.waiting[index].ticket == ticket)
            .map_or(0, |p| p + 1)
    }

    /// Searches waiting, searches running.
    pub fn load(&self) -> (usize, usize) {
        (self.waiting.len(), self.running_moves + self.running_low)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Starts everything that may start, returning the items in the order they started.
    fn drain(queue: &mut Queue<&'static str>) -> Vec<&'static str> {
        let mut started = Vec::new();
        while let Some((_, class, item)) = queue.start_next() {
            started.push(item);
            queue.finished(class);
        }
        started
    }

    #[test]
    fn engine_moves_go_before_hints_before_reviews() {
        let mut queue = Queue::new(1);
        // The one slot is busy, so everything below waits.
        queue.push("busy", Class::Move, "running");
        assert!(queue.start_next().is_some());
        queue.push("a", Class::Review, "review a");
        queue.push("b", Class::Hint, "hint b");
        queue.push("c", Class::Move, "move c");
        queue.push("d", Class::Hint, "hint d");
        let e = queue.push("e", Class::Move, "move e").ticket;
        assert!(queue.start_next().is_none(), "the slot is busy");
        assert_eq!(queue.place(e), 2, "move e starts second");
        queue.finished(Class::Move);
        assert_eq!(
            drain(&mut queue),
            ["move c", "move e", "hint b", "hint d", "review a"]
        );
    }

    #[test]
    fn players_take_turns_within_a_class() {
        let mut queue = Queue::new(1);
        queue.push("busy", Class::Move, "running");
        assert!(queue.start_next().is_some());
        // One player with three games asks first; two others come later.
        queue.push("many", Class::Move, "many 1");
        queue.push("many", Class::Move, "many 2");
        queue.push("many", Class::Move, "many 3");
        queue.push("x", Class::Move, "x 1");
        queue.push("y", Class::Move, "y 1");
        queue.push("x", Class::Move, "x 2");
        queue.finished(Class::Move);
        assert_eq!(
            drain(&mut queue),
            ["many 1", "x 1", "y 1", "many 2", "x 2", "many 3"]
        );
    }

    #[test]
    fn a_newcomer_joins_the_round_being_served() {
        let mut queue = Queue::new(1);
        for item in ["a 1", "a 2", "a 3", "a 4"] {
            queue.push("a", Class::Move, item);
        }
        assert_eq!(queue.start_next().map(|s| s.2), Some("a 1"));
        queue.finished(Class::Move);
        assert_eq!(queue.start_next().map(|s| s.2), Some("a 2"));
        // b comes while a's second runs: it goes before a's third, not after a's fourth.
        let b = queue.push("b", Class::Move, "b 1").ticket;
        assert_eq!(queue.place(b), 1);
        queue.finished(Class::Move);
        assert_eq!(drain(&mut queue), ["b 1", "a 3", "a 4"]);
    }

    #[test]
    fn a_players_new_hint_replaces_its_waiting_one() {
        let mut queue = Queue::new(1);
        queue.push("busy", Class::Move, "running");
        assert!(queue.start_next().is_some());
        let first = queue.push("p", Class::Hint, "hint 1");
        assert_eq!(first.replaced, None);
        queue.push("q", Class::Hint, "q's hint");
        let second = queue.push("p", Class::Hint, "analysis 2");
        assert_eq!(second.replaced, Some("hint 1"));
        // Moves are never replaced: each is a game's.
        assert_eq!(queue.push("p", Class::Move, "move 1").replaced, None);
        assert_eq!(queue.push("p", Class::Move, "move 2").replaced, None);
        assert_eq!(queue.load(), (4, 1));
        queue.finished(Class::Move);
        assert_eq!(
            drain(&mut queue),
            ["move 1", "move 2", "q's hint", "analysis 2"]
        );
    }

    #[test]
    fn hints_leave_a_slot_for_engine_moves() {
        let mut queue = Queue::new(2);
        for _ in 0..5 {
            queue.push("greedy", Class::Hint, "hint");
        }
        queue.push("other", Class::Hint, "other hint");
        // Only one hint runs of two slots...
        assert_eq!(queue.start_next().map(|s| s.2), Some("hint"));
        assert!(queue.start_next().is_none(), "the second slot is kept");
        // ...and an engine move takes the other at once.
        queue.push("player", Class::Move, "move");
        assert_eq!(queue.start_next().map(|s| s.2), Some("move"));
        assert_eq!(
            queue.load(),
            (1, 2),
            "greedy's newest hint replaced the older"
        );
    }

    #[test]
    fn one_slot_hint_delays_a_move_by_at_most_the_running_search() {
        let mut queue = Queue::new(1);
        let mut hints = 0;
        // A flood of hints from many players (each one waiting), one running.
        for player in ["h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9", "h10"] {
            queue.push(player, Class::Hint, "hint");
            hints += 1;
        }
        assert!(queue.start_next().is_some());
        let mv = queue.push("person", Class::Move, "move").ticket;
        assert_eq!(queue.place(mv), 1, "first in line behind the running hint");
        queue.finished(Class::Hint);
        assert_eq!(queue.start_next().map(|s| s.2), Some("move"));
        assert_eq!(queue.load(), (hints - 1, 1));
    }

    #[test]
    fn places_follow_the_start_order_and_removal() {
        let mut queue = Queue::new(1);
        queue.push("busy", Class::Move, "running");
        assert!(queue.start_next().is_some());
        let hint = queue.push("a", Class::Hint, "hint").ticket;
        let mv = queue.push("b", Class::Move, "move").ticket;
        assert_eq!((queue.place(mv), queue.place(hint)), (1, 2));
        assert_eq!(queue.remove(mv), Some("move"));
        assert_eq!(queue.remove(mv), None);
        assert_eq!((queue.place(mv), queue.place(hint)), (0, 1));
    }
}
