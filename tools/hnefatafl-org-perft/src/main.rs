//! Perft counts and game records of hnefatafl.org's rules, made by the rule code of its server
//! itself: the crate `hnefatafl-copenhagen` 6.4.1 (AGPL-3.0-or-later), which this program only
//! calls. It writes tests/data/hnefatafl-org-perft.txt of the tafl-engine project; see
//! README.md for what it does and how to run it.
//!
//! Games are set up as the server sets them up (`ServerGame::new`, as `join_game` calls it), so
//! that its game record's empty first entry (the move-count draw, H10) and its remembered boards
//! (the defenders' repetition rule, H12) are the server's. A position's moves are the server's
//! own list (`Game::all_legal_moves`, what its AI and client offer); each is played with
//! `Game::play`, which referees it and ends the game as the server does.

use std::collections::HashMap;
use std::fmt::Write as _;

use hnefatafl_copenhagen::ai::{AI, AiBasic};
use hnefatafl_copenhagen::board::{Board, BoardSize};
use hnefatafl_copenhagen::game::{Game, PreviousBoards};
use hnefatafl_copenhagen::play::{Plae, Play, Vertex};
use hnefatafl_copenhagen::rating::Rated;
use hnefatafl_copenhagen::role::Role;
use hnefatafl_copenhagen::server_game::{Challenger, ServerGame, ServerGameLight};
use hnefatafl_copenhagen::space::Space;
use hnefatafl_copenhagen::status::Status;
use hnefatafl_copenhagen::time::TimeSettings;

/// A move: from, to.
type Move = (Vertex, Vertex);

/// The board sizes the server plays, with the name of the engine's variant for each (13x13 has
/// none yet: its lines are data for the wide boards to come).
const VARIANTS: [(BoardSize, &str); 3] = [
    (BoardSize::_11, "hnefatafl-org-copenhagen"),
    (BoardSize::_7, "hnefatafl-org-brandubh"),
    (BoardSize::_13, "hnefatafl-org-copenhagen-13"),
];

/// The board's size as a number.
fn width(size: BoardSize) -> usize {
    usize::from(size)
}

/// The server's game at the start of a board of `size`, exactly as `join_game` makes it
/// (`ServerGame::new`): untimed, its record holding one empty entry, the defenders to move
/// first on 7x7.
fn server_start(size: BoardSize) -> Game {
    let light = ServerGameLight {
        id: 0,
        attacker: Some("attacker".to_string()),
        defender: Some("defender".to_string()),
        challenger: Challenger::default(),
        rated: Rated::No,
        timed: TimeSettings::UnTimed,
        spectators: HashMap::new(),
        challenge_accepted: true,
        game_over: false,
        board_size: size,
        turn: if size == BoardSize::_7 {
            Role::Defender
        } else {
            Role::Attacker
        },
    };
    ServerGame::new(None, None, light).game
}

/// The server's game set up at a hand-made position (rows top first, `a` attacker, `d`
/// defender, `K` king), `turn` to move: the server's start game with its board replaced. The
/// position counts as a board already seen where the engine's rule counts the start (11x11 and
/// 13x13: the server's games remember their first board only when it is 11x11; a set-up board
/// is taken as seen there, unseen on 7x7).
fn server_setup(rows: &[&str], turn: Role) -> Game {
    let size = BoardSize::try_from(rows.len()).expect("7, 11 or 13 rows");
    let mut record = String::new();
    for row in rows {
        record.push('/');
        let mut empty = 0;
        for ch in row.chars() {
            let letter = match ch {
                'a' => Some('t'),
                'd' => Some('T'),
                'K' => Some('K'),
                _ => None,
            };
            match letter {
                Some(letter) => {
                    if empty > 0 {
                        write!(record, "{empty}").expect("a string");
                        empty = 0;
                    }
                    record.push(letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            write!(record, "{empty}").expect("a string");
        }
    }
    record.push('/');
    let board = Board::open_tafl_deserialize(&record).expect("a board");
    let mut game = server_start(size);
    game.previous_boards = if size == BoardSize::_7 {
        PreviousBoards(Vec::new())
    } else {
        PreviousBoards(vec![board.clone()])
    };
    game.board = board;
    game.turn = turn;
    game
}

/// The engine's square name of a vertex: file letter, then the rank counted from the bottom.
fn name(vertex: Vertex) -> String {
    let file = char::from(b'a' + u8::try_from(vertex.x).expect("a file"));
    format!("{file}{}", width(vertex.size) - vertex.y)
}

/// A sort key in the engine's square order (rank 1 first, then by file).
fn order(vertex: Vertex) -> (usize, usize) {
    (width(vertex.size) - 1 - vertex.y, vertex.x)
}

/// The engine's position record of the board (rank 1 first; `t` attacker, `T` defender, `K`).
fn record(board: &Board) -> String {
    let size = board.size();
    let n = width(size);
    let mut text = String::from("/");
    for y in (0..n).rev() {
        let mut empty = 0;
        for x in 0..n {
            let letter = match board.get(&Vertex { size, x, y }) {
                Space::Empty => None,
                Space::Attacker => Some('t'),
                Space::Defender => Some('T'),
                Space::King => Some('K'),
            };
            match letter {
                Some(letter) => {
                    if empty > 0 {
                        write!(text, "{empty}").expect("a string");
                        empty = 0;
                    }
                    text.push(letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            write!(text, "{empty}").expect("a string");
        }
        text.push('/');
    }
    text
}

/// The side to move, as the fixture names it.
fn side(role: Role) -> &'static str {
    match role {
        Role::Attacker => "attackers",
        _ => "defenders",
    }
}

/// The server's moves in `game`, in the engine's square order: none once the game is over.
fn moves(game: &Game) -> Vec<Move> {
    if game.status != Status::Ongoing {
        return Vec::new();
    }
    let legal = game.all_legal_moves();
    let mut list: Vec<Move> = legal
        .moves
        .iter()
        .flat_map(|(from, tos)| tos.iter().map(move |to| (*from, *to)))
        .collect();
    list.sort_by_key(|&(from, to)| (order(from), order(to)));
    list
}

/// `game` after `m`, with the squares it captured (the king's too), sorted.
fn play(game: &Game, (from, to): Move) -> (Game, Vec<Vertex>) {
    let mut next = game.clone();
    let captures = next
        .play(&Plae::Play(Play {
            role: game.turn,
            from,
            to,
        }))
        .expect("the server's own move list holds only moves it accepts");
    let mut captured: Vec<Vertex> = captures.0.into_iter().collect();
    captured.sort_by_key(|&v| order(v));
    (next, captured)
}

/// A move as the fixture writes it: `a1-a2`, then `x` and each captured square.
fn move_text((from, to): Move, captured: &[Vertex]) -> String {
    let mut text = format!("{}-{}", name(from), name(to));
    for &square in captured {
        text.push('x');
        text.push_str(&name(square));
    }
    text
}

/// Perft (P1): the number of move sequences of `depth` moves; a finished game has none.
fn perft(game: &Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let list = moves(game);
    if depth == 1 {
        return list.len() as u64;
    }
    list.into_iter()
        .map(|m| perft(&play(game, m).0, depth - 1))
        .sum()
}

/// Perft with its first moves shared between two threads (the machine has two cores).
fn perft_parallel(game: &Game, depth: u32) -> u64 {
    if depth < 3 {
        return perft(game, depth);
    }
    let list = moves(game);
    std::thread::scope(|scope| {
        let halves: Vec<_> = [0, 1]
            .into_iter()
            .map(|half| {
                let list = &list;
                scope.spawn(move || {
                    list.iter()
                        .skip(half)
                        .step_by(2)
                        .map(|&m| perft(&play(game, m).0, depth - 1))
                        .sum::<u64>()
                })
            })
            .collect();
        halves
            .into_iter()
            .map(|half| half.join().expect("a perft thread"))
            .sum()
    })
}

/// How many leaves at `depth` are finished games: won by the attackers, by the defenders,
/// drawn.
fn ends(game: &Game, depth: u32) -> [u64; 3] {
    if depth == 0 {
        return match game.status {
            Status::AttackerWins => [1, 0, 0],
            Status::DefenderWins => [0, 1, 0],
            Status::Draw => [0, 0, 1],
            Status::Ongoing => [0, 0, 0],
        };
    }
    let mut total = [0; 3];
    for m in moves(game) {
        let found = ends(&play(game, m).0, depth - 1);
        for (sum, count) in total.iter_mut().zip(found) {
            *sum += count;
        }
    }
    total
}

/// xorshift64*: the harness's own seeded random numbers.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % (n as u64)).expect("a small number")
    }
}

/// How a playout chooses its moves.
#[derive(Clone, Copy, Debug)]
enum Style {
    /// Every move alike.
    Uniform,
    /// A move that wins at once if there is one; captures five times as likely.
    Greedy,
    /// Attackers make for the squares next to the corners; defenders keep near the middle, the
    /// king stays home: games the attackers close up.
    Siege,
    /// Defenders make for the edges, the king too: forts and shieldwalls.
    Edges,
    /// The attackers play the server's AI (`AiBasic`, depth 1) four moves in five, the
    /// defenders at random: games the attackers win in their ways.
    AiAttackers,
    /// Both sides play the server's AI (depth 1) three moves in four.
    AiBoth,
    /// The attackers play the server's AI four moves in five, the defenders as in `Siege`.
    AiSiege,
    /// The attackers make for the corners as in `Siege`, the defenders for the edges as in
    /// `Edges`: kings shut out of the corners on an edge, forts.
    Fort,
}

const STYLES: [Style; 8] = [
    Style::Uniform,
    Style::Greedy,
    Style::Siege,
    Style::Edges,
    Style::AiAttackers,
    Style::AiBoth,
    Style::AiSiege,
    Style::Fort,
];

/// The move the server's AI (`AiBasic` at depth 1) chooses, if it chooses one.
fn ai_move(game: &Game) -> Option<Move> {
    // Its search panics on a drawn game below it (`alpha_beta_duplicated`): not near the limit.
    if game.plays.len() >= 139 {
        return None;
    }
    let mut copy = game.clone();
    let chosen = AiBasic::new(1, true).generate_move(&mut copy).ok()?;
    match chosen.play {
        Plae::Play(play) => Some((play.from, play.to)),
        _ => None,
    }
}

/// The squares next to the corners along the edges, one and two steps out.
fn near_corner(vertex: Vertex) -> bool {
    let last = width(vertex.size) - 1;
    let edge_x = vertex.x == 0 || vertex.x == last;
    let edge_y = vertex.y == 0 || vertex.y == last;
    let near = |a: usize| a <= 2 || a >= last - 2;
    (edge_x && near(vertex.y)) || (edge_y && near(vertex.x))
}

/// A move chosen the way `style` likes.
fn choose(game: &Game, list: &[Move], style: Style, random: &mut Random) -> Move {
    let ai_share = match (style, game.turn) {
        (Style::AiAttackers | Style::AiSiege, Role::Attacker) => Some(4),
        (Style::AiBoth, _) => Some(3),
        (Style::AiAttackers, _) | (Style::Uniform, _) => {
            return list[random.below(list.len())];
        }
        _ => None,
    };
    if let Some(share) = ai_share {
        if random.below(share + 1) < share {
            if let Some(m) = ai_move(game).filter(|m| list.contains(m)) {
                return m;
            }
        }
        return list[random.below(list.len())];
    }
    let n = width(game.board.size());
    let middle = n / 2;
    let mover = game.turn;
    let mut weights = Vec::with_capacity(list.len());
    for &m in list {
        let mut weight: u64 = 10;
        // Only the greedy style looks at what a move does (it plays each: slow).
        if let Style::Greedy = style {
            let (next, captured) = play(game, m);
            let wins = matches!(
                (next.status.clone(), mover),
                (Status::AttackerWins, Role::Attacker) | (Status::DefenderWins, Role::Defender)
            );
            if wins {
                return m;
            }
            if !captured.is_empty() {
                weight *= 5;
            }
        }
        let (from, to) = m;
        let king = game.board.get(&from) == Space::King;
        match (style, mover) {
            (Style::Siege | Style::Fort, Role::Attacker) if near_corner(to) => weight *= 20,
            (Style::Siege | Style::AiSiege, Role::Defender) => {
                if king {
                    weight /= 5;
                } else if to.x.abs_diff(middle) <= 2 && to.y.abs_diff(middle) <= 2 {
                    weight *= 10;
                }
            }
            (Style::Edges | Style::Fort, Role::Defender) => {
                let last = n - 1;
                if to.x == 0 || to.y == 0 || to.x == last || to.y == last {
                    weight *= 5;
                }
                if king {
                    weight *= 3;
                }
            }
            _ => {}
        }
        weights.push(weight.max(1));
    }
    let total: u64 = weights.iter().sum();
    let mut pick = random.next() % total;
    for (index, weight) in weights.iter().enumerate() {
        if pick < *weight {
            return list[index];
        }
        pick -= weight;
    }
    list[list.len() - 1]
}

/// How a finished game ended, told from the board after its last move (for the comments and
/// the choice of positions near an end; the fixture holds only the result). The server passes
/// the turn only when the move itself did not end the game: an end after the turn passed is
/// H11 or the side to move without a move (H12).
fn ending(before: &Game, after: &Game) -> &'static str {
    let board = &after.board;
    let passed = after.turn != before.turn;
    match after.status {
        Status::Ongoing => "not over",
        Status::Draw => "move-limit draw",
        _ if board.king.is_none() => "king captured",
        _ if board.king.is_some_and(|king| king.on_exit_square()) => "king escaped",
        _ if !board.spaces.contains(&Space::Attacker) => "no attacker left",
        Status::AttackerWins if passed && board.can_not_escape() => "defenders cannot escape",
        _ if passed => "no legal move",
        Status::DefenderWins => "exit fort",
        Status::AttackerWins => "encircled",
    }
}

/// A finished playout: the moves with their captures, the number of moves before each move and
/// after the last, and the games along the way.
struct Playout {
    moves: Vec<String>,
    counts: Vec<usize>,
    games: Vec<Game>,
    ending: &'static str,
}

/// Plays from `game` until the game ends, or until `plies` moves when given.
fn playout(mut game: Game, style: Style, seed: u64, plies: Option<usize>) -> Playout {
    let mut random = Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut out = Playout {
        moves: Vec::new(),
        counts: Vec::new(),
        games: vec![game.clone()],
        ending: "not over",
    };
    loop {
        let list = moves(&game);
        out.counts.push(list.len());
        if list.is_empty() || plies.is_some_and(|plies| out.moves.len() >= plies) {
            if list.is_empty() && game.status == Status::Ongoing {
                // The server's list (which leaves out the 7x7 throne crossings of soldiers) is
                // empty while its referee (which counts them) plays on: a game the server's AI
                // could only resign. Marked for the reader.
                out.ending = "no move in the server's list, referee plays on";
            }
            return out;
        }
        let m = choose(&game, &list, style, &mut random);
        let (next, captured) = play(&game, m);
        out.moves.push(move_text(m, &captured));
        if next.status != Status::Ongoing {
            out.ending = ending(&game, &next);
        }
        out.games.push(next.clone());
        game = next;
    }
}

/// The fixture's text for one position block.
struct Block {
    text: String,
}

impl Block {
    /// A block for `game` (reached from the start by `moves`, or set up at it when `moves` is
    /// `None`): perft to `perft_depth` and finished leaves to `ends_depth`.
    fn new(
        id: &str,
        variant: &str,
        comment: &str,
        game: &Game,
        moves: Option<&[String]>,
        perft_depth: u32,
        ends_depth: u32,
    ) -> Block {
        let mut text = String::new();
        for line in comment.lines() {
            writeln!(text, "# {line}").expect("a string");
        }
        writeln!(text, "id {id}").expect("a string");
        writeln!(text, "variant {variant}").expect("a string");
        match moves {
            Some(moves) => {
                writeln!(text, "origin start").expect("a string");
                let plain: Vec<&str> = moves
                    .iter()
                    .map(|m| m.split('x').next().unwrap_or(m))
                    .collect();
                if !plain.is_empty() {
                    writeln!(text, "moves {}", plain.join(" ")).expect("a string");
                }
            }
            None => writeln!(text, "origin setup").expect("a string"),
        }
        writeln!(text, "position {}", record(&game.board)).expect("a string");
        writeln!(text, "side {}", side(game.turn)).expect("a string");
        for depth in 1..=perft_depth {
            let count = if depth >= 3 {
                perft_parallel(game, depth)
            } else {
                perft(game, depth)
            };
            writeln!(text, "perft {depth} {count}").expect("a string");
        }
        for depth in 1..=ends_depth {
            let [a, d, draws] = ends(game, depth);
            writeln!(text, "ends {depth} {a} {d} {draws}").expect("a string");
        }
        eprintln!("{id}: done");
        Block { text }
    }
}

/// Hand-made positions for the clauses where the server is most its own (H2-H8, H11), each one
/// move or two from the clause: rows top first, the side to move, what it tests.
const HAND_MADE: &[(&str, &[&str], Role, &str)] = &[
    (
        "shieldwalls-attackers",
        &[
            "...........",
            ".....a.....",
            "...........",
            "...........",
            ".a.........",
            "...........",
            "...........",
            "......d....",
            "...........",
            "..aaa..aaa.",
            "..ddda..dK.",
        ],
        Role::Attacker,
        "H5: b7-b1 closes a wall of three defenders (c1-e1) against the attacker on f1; h2-h1\n\
         closes one of i1 and the king on j1 against the corner: the defender is taken, the king\n\
         never",
    ),
    (
        "shieldwalls-defenders",
        &[
            ".aaa...aad.",
            ".ddd...dd..",
            "...........",
            "....d.d....",
            "...........",
            ".....K.....",
            "...........",
            ".....a.....",
            "...........",
            "...........",
            "....a......",
        ],
        Role::Defender,
        "H5: e8-e11 closes a wall of three attackers (b11-d11) against the corner; g8-g11 one of\n\
         two (h11, i11) against the defender on j11",
    ),
    (
        "king-on-the-throne",
        &[
            "...........",
            "...........",
            "...........",
            "...........",
            ".....a.....",
            "....aK.....",
            ".....a.....",
            "......a....",
            "...........",
            "...........",
            "...........",
        ],
        Role::Attacker,
        "H4: the king on the throne f6 with attackers on three sides; g4-g6 closes the fourth",
    ),
    (
        "king-beside-the-throne",
        &[
            "...........",
            "...........",
            "...........",
            "...........",
            "....a......",
            "...aK......",
            "...........",
            "......a....",
            "....a......",
            "...........",
            "...........",
        ],
        Role::Attacker,
        "H4: the king on e6, next to the empty throne f6, attackers on e7 and d6: e3-e5 takes him,\n\
         the throne being his fourth wall",
    ),
    (
        "exit-fort",
        &[
            "...........",
            "...........",
            "...........",
            "...a.......",
            "...........",
            "....d......",
            "...........",
            ".........a.",
            "...........",
            "....dd..d..",
            "...d.K.d...",
        ],
        Role::Defender,
        "H7: the king on f1 among defenders; moves of e2, f2 and i2 may close an exit fort",
    ),
    (
        "encirclement",
        &[
            "...........",
            "...........",
            "....aaa....",
            "...a...a...",
            "..a..d..a..",
            "..a.dK..a..",
            "..a..d..a..",
            "...a...a...",
            "....a.a....",
            "......a....",
            "...........",
        ],
        Role::Attacker,
        "H8: a ring of attackers round the king and all his defenders, open at f3 and f2: g2-f2\n\
         closes it",
    ),
    (
        "corners-closed",
        &[
            "..aaa...a..",
            ".a.......a.",
            "a.........a",
            ".........dd",
            "........d.K",
            ".........dd",
            "a.........a",
            "a.........a",
            "a.........a",
            ".a.......a.",
            "..aaa..a...",
        ],
        Role::Attacker,
        "H11: three corners closed off, five defenders, the edges all but closed; h1-i1 closes\n\
         the fourth corner and the defenders can no longer escape",
    ),
    (
        "king-trapped",
        &[
            ".aaKaa.....",
            "..aa.......",
            "..a...a....",
            "...........",
            "...........",
            "a.........d",
            "..........d",
            "...........",
            "...........",
            "...........",
            "...........",
        ],
        Role::Attacker,
        "H11: the king on d11 flanked by two attackers each side along the edge, d10 inwards;\n\
         g9-d9 completes the server's trapped-king pattern",
    ),
    (
        "defenders-stuck",
        &[
            "...........",
            "...........",
            "...........",
            "...........",
            ".....a.....",
            "....aKa....",
            ".....a...a.",
            "...........",
            "...........",
            "..aa.......",
            ".ad.a......",
        ],
        Role::Attacker,
        "H12: the king walled in, one defender shuttling between c1 and d1: after j5-j6 c1-d1\n\
         j6-j5 its only move, d1-c1, would recreate the set-up board, and the defenders lose",
    ),
    (
        "brandubh-throne",
        &["...a...", ".......", "...d.K.", "a......", "...d...", ".......", "...a..."],
        Role::Attacker,
        "H2 (7x7): no soldier crosses the empty throne d4 (the king may)",
    ),
    (
        "brandubh-king-on-the-throne",
        &["...a...", ".......", "...a...", "..aK..a", "...a...", ".d.....", "......."],
        Role::Attacker,
        "H4 (7x7): the king on the throne with attackers on three sides: g4-e4 takes him",
    ),
    (
        "brandubh-weak-king",
        &[".......", "a......", "...d...", ".......", "..aK..a", "a......", "......."],
        Role::Attacker,
        "H4 (7x7): the king on d3 beside the empty throne: g3-e3 takes him (two in line), a2-d2\n\
         does not (the throne is not hostile to him); a6-d6 takes d5 against the empty throne",
    ),
];

/// Positions reached from the start by moving pieces back and forth, for the defenders' rule
/// (H12): the last defender move of each shuttle would recreate an earlier board.
const SHUTTLES: &[(BoardSize, &[&str])] = &[
    (BoardSize::_11, &["a4-b4", "e5-e3", "b4-a4"]),
    (BoardSize::_11, &["a4-b4", "e5-e3", "b4-a4", "e3-e2", "a5-b5", "e2-e3", "b5-a5"]),
    (BoardSize::_7, &["d5-c5", "d7-e7", "c5-d5", "e7-d7"]),
];

/// The server's move `text` (`a1-a2`) in `game`.
fn parse_move(game: &Game, text: &str) -> Move {
    let size = game.board.size();
    let n = width(size);
    let vertex = |square: &str| {
        let x = usize::from(square.as_bytes()[0] - b'a');
        let rank: usize = square[1..].parse().expect("a rank");
        Vertex {
            size,
            x,
            y: n - rank,
        }
    };
    let (from, to) = text.split_once('-').expect("from-to");
    (vertex(from), vertex(to))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("divide") {
        divide(&args[1..]);
        return;
    }
    if args.first().map(String::as_str) == Some("survey") {
        survey(&args[1..]);
        return;
    }
    // The server's AI prints to stdout: the fixture goes to a file.
    let path = args
        .first()
        .cloned()
        .unwrap_or_else(|| "hnefatafl-org-perft.txt".to_string());
    let games_per_size = |size: BoardSize| match size {
        BoardSize::_13 => 8,
        BoardSize::_11 => 32,
        BoardSize::_7 => 48,
    };
    let mut out = String::new();
    out.push_str(HEADER);
    for (size, variant) in VARIANTS {
        let start = server_start(size);
        let (start_perft, start_ends) = match size {
            BoardSize::_7 => (5, 4),
            BoardSize::_11 => (4, 3),
            BoardSize::_13 => (3, 2),
        };
        out.push('\n');
        out.push_str(
            &Block::new(
                &format!("{variant}-start"),
                variant,
                &format!("the server's start ({}x{0})", width(size)),
                &start,
                Some(&[]),
                start_perft,
                start_ends,
            )
            .text,
        );
        // Midgames: seeded playouts of every style, stopped at a chosen ply.
        for (index, plies) in [6usize, 12, 20, 30, 44, 60].into_iter().enumerate() {
            let style = STYLES[index % STYLES.len()];
            let seed = 1000 + index as u64;
            let run = playout(start.clone(), style, seed, Some(plies));
            let game = run.games.last().expect("a game").clone();
            if game.status != Status::Ongoing {
                continue;
            }
            let (perft_depth, ends_depth) = if size == BoardSize::_13 { (2, 2) } else { (3, 2) };
            out.push('\n');
            out.push_str(
                &Block::new(
                    &format!("{variant}-midgame-{}", index + 1),
                    variant,
                    &format!("a {style:?} playout (seed {seed}) stopped after {plies} plies"),
                    &game,
                    Some(&run.moves),
                    perft_depth,
                    ends_depth,
                )
                .text,
            );
        }
        // Game records, and positions three plies before the end of the first game of each
        // kind of ending.
        let mut records = String::new();
        let mut endings_seen: Vec<&str> = Vec::new();
        let mut near_ends = String::new();
        for number in 0..games_per_size(size) {
            let style = STYLES[number % STYLES.len()];
            let seed = 7 + number as u64;
            let run = playout(start.clone(), style, seed, None);
            let last = run.games.last().expect("a game");
            writeln!(
                records,
                "\n# a {style:?} playout, seed {seed}: {} plies, {}",
                run.moves.len(),
                run.ending
            )
            .expect("a string");
            writeln!(records, "id {variant}-game-{}", number + 1).expect("a string");
            writeln!(records, "variant {variant}").expect("a string");
            writeln!(records, "game {}", run.moves.join(" ")).expect("a string");
            let counts: Vec<String> = run.counts.iter().map(usize::to_string).collect();
            writeln!(records, "counts {}", counts.join(" ")).expect("a string");
            let result = match last.status {
                Status::AttackerWins => "attackers",
                Status::DefenderWins => "defenders",
                Status::Draw => "draw",
                Status::Ongoing => "ongoing",
            };
            writeln!(records, "result {result}").expect("a string");
            if size != BoardSize::_13
                && !endings_seen.contains(&run.ending)
                && run.moves.len() >= 3
            {
                endings_seen.push(run.ending);
                let back = run.moves.len() - 3;
                let game = &run.games[back];
                near_ends.push('\n');
                near_ends.push_str(
                    &Block::new(
                        &format!("{variant}-near-end-{}", endings_seen.len()),
                        variant,
                        &format!(
                            "three plies before the end of game {} ({})",
                            number + 1,
                            run.ending
                        ),
                        game,
                        Some(&run.moves[..back]),
                        3,
                        3,
                    )
                    .text,
                );
            }
        }
        out.push_str(&near_ends);
        // Hand-made positions and shuttles for this size.
        for (id, rows, turn, comment) in HAND_MADE {
            if BoardSize::try_from(rows.len()).ok() != Some(size) {
                continue;
            }
            let game = server_setup(rows, *turn);
            assert_eq!(game.status, Status::Ongoing, "{id}");
            assert!(!game.board.can_not_escape(), "{id} is already decided");
            out.push('\n');
            out.push_str(
                &Block::new(
                    &format!("{variant}-{id}"),
                    variant,
                    comment,
                    &game,
                    None,
                    3,
                    3,
                )
                .text,
            );
        }
        for (number, (shuttle_size, shuttle)) in SHUTTLES.iter().enumerate() {
            if *shuttle_size != size {
                continue;
            }
            let mut game = start.clone();
            let mut played = Vec::new();
            for text in *shuttle {
                let m = parse_move(&game, text);
                let (next, captured) = play(&game, m);
                played.push(move_text(m, &captured));
                game = next;
            }
            out.push('\n');
            out.push_str(
                &Block::new(
                    &format!("{variant}-shuttle-{}", number + 1),
                    variant,
                    "H12: pieces moved back and forth; the defenders' move back would recreate a\n\
                     board the game has had",
                    &game,
                    Some(&played),
                    3,
                    3,
                )
                .text,
            );
        }
        out.push_str(&records);
    }
    std::fs::write(&path, out).expect("the fixture file written");
}

/// `survey SIZE GAMES`: how the playouts of each style end.
fn survey(args: &[String]) {
    let size = BoardSize::try_from(args[0].parse::<usize>().expect("a size")).expect("7, 11, 13");
    let games: u64 = args[1].parse().expect("a number of games");
    for style in STYLES {
        let mut tally: Vec<(&str, u64)> = Vec::new();
        for seed in 0..games {
            let run = playout(server_start(size), style, seed, None);
            match tally.iter_mut().find(|(ending, _)| *ending == run.ending) {
                Some((_, count)) => *count += 1,
                None => tally.push((run.ending, 1)),
            }
        }
        println!("{style:?}: {tally:?}");
    }
}

/// `divide SIZE DEPTH [MOVES...]`: every move of the position after MOVES with its count.
fn divide(args: &[String]) {
    let size = BoardSize::try_from(args[0].parse::<usize>().expect("a size")).expect("7, 11, 13");
    let depth: u32 = args[1].parse().expect("a depth");
    let mut game = server_start(size);
    for text in &args[2..] {
        let m = parse_move(&game, text);
        game = play(&game, m).0;
    }
    println!("{}", record(&game.board));
    let mut total = 0;
    for m in moves(&game) {
        let (next, captured) = play(&game, m);
        let count = perft(&next, depth.saturating_sub(1));
        total += count;
        println!("{} {count} {:?}", move_text(m, &captured), next.status);
    }
    println!("total {total}");
}

const HEADER: &str = "\
# Perft counts and game records of hnefatafl.org's rules, produced by the rule code of its
# server: the crate hnefatafl-copenhagen 6.4.1 (crates.io; AGPL-3.0-or-later), whose
# Game::all_legal_moves lists a position's moves and whose Game::play plays each, ending the
# game as the server does. Made by tools/hnefatafl-org-perft (see its README) with
#   cargo run --release -- ../../tests/data/hnefatafl-org-perft.txt
# Games are set up as the server's join_game sets them up (ServerGame::new): attackers first
# on 11x11 and 13x13, defenders first on 7x7; the game record starts with one empty entry, so
# the 141st move draws unless it wins (H10); the boards the game has had are remembered, and
# a defenders' move that recreates one is refused (H12; the server's 7x7 and 13x13 games do
# not remember their start).
# Position blocks: id, variant (the engine's name; 13x13 has none yet), origin: `start` (the
# game from the start, then its `moves` if any: the history the rules see) or `setup` (a
# hand-made position: the board counts as seen where the variant counts its start), position
# (the engine's record,
# rank 1 first: t attacker, T defender, K king), side (to move), then `perft DEPTH COUNT`
# and `ends DEPTH ATTACKER_WINS DEFENDER_WINS DRAWS`: how many leaves at that depth are
# finished games. A finished game is a leaf at the depth where it ends: it counts 0 deeper.
# Game blocks: id, variant, `game` (the moves of a seeded playout, each with `x` and every
# square it captured, the king's included), `counts` (the number of the server's legal moves
# before each move, and after the last), `result` (attackers, defenders, draw).
";
