//! The server's lines as the client reads them, and the commands it sends: the text protocol
//! of hnefatafl.org's server (the crate hnefatafl-copenhagen 6.4.1, `hnefatafl-server`), as its
//! source has it (docs/hnefatafl-org.md lists them).
//!
//! Reading never fails: a line that is not one of the known messages, or one with a part that
//! does not read (a game id that is not a number, JSON that is not the server's), is
//! [`Incoming::Other`] and the caller logs it.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tafl_engine::Side;

/// A game's id: the server counts them with a 128-bit number.
pub type GameId = u128;

/// The version id the server 6.4.1 expects as the first word of a login (`VERSION_ID`).
pub const SERVER_VERSION_ID: &str = "32d9a140";

/// One line from the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    /// `= login`: logged in (also after `create_account`).
    LoggedIn,
    /// `? login ...`: refused, with the server's words.
    LoginRefused(String),
    /// `game ID generate_move ROLE`: the server waits for our move as ROLE in game ID (at login
    /// it says so for every game of ours, whoever is to move).
    GenerateMove { id: GameId, side: Side },
    /// `game ID play ROLE FROM TO`: a move made in game ID (the opponent's).
    Played {
        id: GameId,
        side: Side,
        from: String,
        to: String,
    },
    /// `= resume_game_json {...}`: a game's record.
    Record(Box<Record>),
    /// `= game`: our move was played.
    MoveAccepted,
    /// `? game ...`: our move (or a command about a game) was refused, with the server's words.
    MoveRefused(String),
    /// `= game_over ID attacker_wins|defender_wins`.
    GameOver { id: GameId, winner: Side },
    /// `= draw accept`: a game was drawn (the server does not say which).
    Drawn,
    /// `= new_game ID`: the game we offered has this id.
    Offered(GameId),
    /// `= challenge_requested ID`: someone asks to play our game ID.
    ChallengeRequested(GameId),
    /// `= join_game_pending ID`: our request to join game ID was passed on.
    JoinRequested(GameId),
    /// `= join_game ...`: a game of ours has begun (the server does not say which).
    GameStarted,
    /// `= games_updated {...}`: the games that are new or changed; those with a free seat.
    /// Also `= initialize_display (...)`, the games at login (in RON).
    OpenGames(Vec<OpenGame>),
    /// `request_draw ID ROLE`: the opponent offers a draw.
    DrawOffered(GameId),
    /// `= ping`.
    Pong,
    /// Anything else.
    Other,
}

/// A game with a free seat, from the server's list of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenGame {
    pub id: GameId,
    /// Whoever made it.
    pub creator: String,
    /// The free seat.
    pub seat: Side,
    /// The board's size.
    pub size: u8,
}

/// A game's record, as `resume_game_json` gives it (the server's `OpenTaflGame`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub id: GameId,
    pub attackers: String,
    pub defenders: String,
    /// The board's size.
    pub dim: u8,
    /// The start, top row first (`A` attacker, `D` defender, `K` king, digits for empty squares).
    pub start: String,
    /// The moves: `FROM-TO`, then `x` and each captured square; `---` for a resignation.
    pub moves: Vec<String>,
    /// The clocks, if the game is timed.
    pub clock: Option<Clock>,
}

/// A timed game's clocks at the server's last count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub attackers_ms: i64,
    pub defenders_ms: i64,
    /// Seconds added after each move.
    pub increment_s: i64,
}

impl Clock {
    /// The time left to `side`, in milliseconds.
    pub fn left(&self, side: Side) -> i64 {
        match side {
            Side::Attackers => self.attackers_ms,
            Side::Defenders => self.defenders_ms,
        }
    }
}

/// The side a role word names (`attacker`, `defender`).
fn role(word: &str) -> Option<Side> {
    match word {
        "attacker" => Some(Side::Attackers),
        "defender" => Some(Side::Defenders),
        _ => None,
    }
}

/// The role word of a side.
pub fn role_word(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attacker",
        Side::Defenders => "defender",
    }
}

/// Reads one line (without its newline).
pub fn read(line: &str) -> Incoming {
    let words: Vec<&str> = line.split_whitespace().collect();
    let id = |index: usize| {
        words
            .get(index)
            .and_then(|word| word.parse::<GameId>().ok())
    };
    let side = |index: usize| words.get(index).and_then(|word| role(word));
    let rest = |prefix: &str| line.trim_start().strip_prefix(prefix).map(str::trim);
    let read = match words.as_slice() {
        ["=", "login", ..] => Some(Incoming::LoggedIn),
        ["?", "login", ..] => Some(Incoming::LoginRefused(words[2..].join(" "))),
        ["game", _, "generate_move", _] => id(1)
            .zip(side(3))
            .map(|(id, side)| Incoming::GenerateMove { id, side }),
        ["game", _, "play", _, from, to] => id(1).zip(side(3)).map(|(id, side)| Incoming::Played {
            id,
            side,
            from: from.to_string(),
            to: to.to_string(),
        }),
        ["=", "resume_game_json", ..] => rest("= resume_game_json")
            .and_then(|text| record(text).ok())
            .map(|record| Incoming::Record(Box::new(record))),
        ["=", "game"] => Some(Incoming::MoveAccepted),
        ["?", "game", ..] => Some(Incoming::MoveRefused(words[2..].join(" "))),
        ["=", "game_over", _, result] => {
            let winner = match *result {
                "attacker_wins" => Some(Side::Attackers),
                "defender_wins" => Some(Side::Defenders),
                _ => None,
            };
            id(2)
                .zip(winner)
                .map(|(id, winner)| Incoming::GameOver { id, winner })
        }
        ["=", "draw", "accept"] => Some(Incoming::Drawn),
        ["=", "new_game", _] => id(2).map(Incoming::Offered),
        ["=", "challenge_requested", _] => id(2).map(Incoming::ChallengeRequested),
        ["=", "join_game_pending", _] => id(2).map(Incoming::JoinRequested),
        ["=", "join_game", ..] => Some(Incoming::GameStarted),
        ["=", "games_updated", ..] => rest("= games_updated")
            .and_then(|text| open_games(text).ok())
            .map(Incoming::OpenGames),
        ["=", "initialize_display", ..] => {
            rest("= initialize_display").map(|text| Incoming::OpenGames(open_games_ron(text)))
        }
        ["request_draw", _, _] => id(1).map(Incoming::DrawOffered),
        ["=", "ping"] => Some(Incoming::Pong),
        _ => None,
    };
    read.unwrap_or(Incoming::Other)
}

/// A game's record as the server writes it (`OpenTaflGame`): the members the client reads;
/// the others (`rated`, `messages`, ...) are ignored.
#[derive(Deserialize)]
struct WireRecord {
    id: GameId,
    attackers: String,
    defenders: String,
    dim: u8,
    start: String,
    /// The moves, separated by spaces.
    moves: String,
    /// `null` when the game is untimed.
    #[serde(default)]
    time_control: Option<TimeControl>,
    /// `null` when the game is untimed.
    #[serde(default)]
    time_remaining_ms: Option<TimeRemaining>,
}

/// A timed game's settings (`main_time_seconds` is not needed: the clocks say what is left).
#[derive(Deserialize)]
struct TimeControl {
    increment_length: i64,
}

/// A timed game's clocks (`last_move`, when they were read, is not needed).
#[derive(Deserialize)]
struct TimeRemaining {
    attackers: i64,
    defenders: i64,
}

/// Reads the JSON of a game's record (`OpenTaflGame`); the error is serde_json's.
pub fn record(text: &str) -> Result<Record, String> {
    let wire: WireRecord = serde_json::from_str(text).map_err(|error| error.to_string())?;
    let clock = match (wire.time_remaining_ms, wire.time_control) {
        (Some(remaining), Some(control)) => Some(Clock {
            attackers_ms: remaining.attackers,
            defenders_ms: remaining.defenders,
            increment_s: control.increment_length,
        }),
        _ => None,
    };
    Ok(Record {
        id: wire.id,
        attackers: wire.attackers,
        defenders: wire.defenders,
        dim: wire.dim,
        start: wire.start,
        moves: wire.moves.split_whitespace().map(str::to_string).collect(),
        clock,
    })
}

/// `games_updated`'s JSON (`GamesUpdated`): `created` is a list of `[id, previous id or null,
/// game]`, `updated` an object of games by id (`removed` is not needed). Each game is read on
/// its own ([`ListedGame`]): one of another shape is skipped, not the whole list.
#[derive(Deserialize)]
struct GamesUpdated {
    #[serde(default)]
    created: Vec<Value>,
    #[serde(default)]
    updated: serde_json::Map<String, Value>,
}

/// A game of the server's list (`ServerGameLight`): the members the client reads.
#[derive(Deserialize)]
struct ListedGame {
    /// Read from a JSON value, which holds numbers up to 2^64: a game listed with a larger id
    /// is skipped (the server counts its games from 0).
    id: GameId,
    attacker: Option<String>,
    defender: Option<String>,
    /// `null`, or whoever asks to play.
    #[serde(default)]
    challenger: Option<Value>,
    #[serde(default)]
    challenge_accepted: bool,
    #[serde(default)]
    game_over: bool,
    board_size: BoardSize,
}

/// The server's board sizes (`BoardSize`).
#[derive(Clone, Copy, Deserialize)]
enum BoardSize {
    #[serde(rename = "_7")]
    Seven,
    #[serde(rename = "_11")]
    Eleven,
    #[serde(rename = "_13")]
    Thirteen,
}

impl BoardSize {
    fn squares(self) -> u8 {
        match self {
            BoardSize::Seven => 7,
            BoardSize::Eleven => 11,
            BoardSize::Thirteen => 13,
        }
    }
}

/// Reads `games_updated`'s JSON (`GamesUpdated`): the new and the changed games that have a
/// free seat, nobody asking for it yet, and are not under way (the changed ones in the order of
/// their ids as text).
pub fn open_games(text: &str) -> Result<Vec<OpenGame>, String> {
    let list: GamesUpdated = serde_json::from_str(text).map_err(|error| error.to_string())?;
    let created = list.created.iter().filter_map(|entry| entry.get(2));
    let games = created
        .chain(list.updated.values())
        .filter_map(|game| ListedGame::deserialize(game).ok())
        .filter(|game| !game.challenge_accepted && !game.game_over && game.challenger.is_none())
        .filter_map(|game| {
            let (creator, seat) = match (game.attacker, game.defender) {
                (Some(creator), None) => (creator, Side::Defenders),
                (None, Some(creator)) => (creator, Side::Attackers),
                _ => return None,
            };
            Some(OpenGame {
                id: game.id,
                creator,
                seat,
                size: game.board_size.squares(),
            })
        })
        .collect();
    Ok(games)
}

/// Reads the games of `initialize_display`'s RON (`(games, users, admin, admin_tournament)`,
/// each game a `ServerGameLight` written `(id:3,attacker:Some("name"),defender:None,...)`): those
/// with a free seat, as [`open_games`]. Only the fields it needs are looked for, in the text
/// from one `(id:` to the next (names are letters, digits, `-` and `_`: they hold no `(id:`).
pub fn open_games_ron(text: &str) -> Vec<OpenGame> {
    let field = |chunk: &str, key: &str| -> Option<String> {
        let at = chunk.find(&format!(",{key}:"))? + key.len() + 2;
        let value: String = chunk[at..]
            .chars()
            .take_while(|&c| c != ',' && c != ')')
            .collect();
        Some(value)
    };
    let name = |value: Option<String>| -> Option<Option<String>> {
        let value = value?;
        if value == "None" {
            return Some(None);
        }
        let inner = value.strip_prefix("Some(\"")?.strip_suffix('"')?;
        Some(Some(inner.to_string()))
    };
    let mut games = Vec::new();
    for chunk in text.split("(id:").skip(1) {
        let chunk = format!(",id:{chunk}");
        let (Some(id), Some(attacker), Some(defender)) = (
            field(&chunk, "id").and_then(|id| id.parse::<GameId>().ok()),
            name(field(&chunk, "attacker")),
            name(field(&chunk, "defender")),
        ) else {
            continue;
        };
        let open = field(&chunk, "challenger").as_deref() == Some("(None")
            && field(&chunk, "challenge_accepted").as_deref() == Some("false")
            && field(&chunk, "game_over").as_deref() == Some("false");
        let size = match field(&chunk, "board_size").as_deref() {
            Some("_7") => 7,
            Some("_11") => 11,
            Some("_13") => 13,
            _ => continue,
        };
        let (creator, seat) = match (attacker, defender) {
            (Some(creator), None) => (creator, Side::Defenders),
            (None, Some(creator)) => (creator, Side::Attackers),
            _ => continue,
        };
        if open {
            games.push(OpenGame {
                id,
                creator,
                seat,
                size,
            });
        }
    }
    games
}

/// The login line: the server's version id, `login` (or `create_account`), name, password.
pub fn login(version: &str, create: bool, user: &str, password: &str) -> String {
    let verb = if create { "create_account" } else { "login" };
    format!("{version} {verb} {user} {password}")
}

/// The server's `NewGame`, the JSON of `new_game`, its members in the server's order.
#[derive(Serialize)]
struct NewGame {
    role: Role,
    rated: bool,
    time_settings: TimeSettings,
    board_size: u8,
}

/// The seat of the game offered (`Role`).
#[derive(Serialize)]
enum Role {
    Attacker,
    Defender,
}

/// Its clock (`TimeSettings`): `{"Timed":{...}}` or `"UnTimed"`, as serde writes an enum.
#[derive(Serialize)]
enum TimeSettings {
    Timed {
        add_seconds: i64,
        milliseconds_left: i64,
    },
    UnTimed,
}

/// Offers a game: `new_game` with the server's `NewGame` as JSON.
pub fn new_game(us: Side, rated: bool, clock: Option<(i64, i64)>, size: u8) -> String {
    let message = NewGame {
        role: match us {
            Side::Attackers => Role::Attacker,
            Side::Defenders => Role::Defender,
        },
        rated,
        time_settings: match clock {
            Some((milliseconds_left, add_seconds)) => TimeSettings::Timed {
                add_seconds,
                milliseconds_left,
            },
            None => TimeSettings::UnTimed,
        },
        board_size: size,
    };
    // A struct of numbers, booleans and unit variants: serde_json cannot fail to write it
    // (it fails only for maps with keys that are not strings, or a `Serialize` that errs).
    let json = serde_json::to_string(&message).unwrap_or_default();
    format!("new_game {json}")
}

/// Our move in game `id`.
pub fn play(id: GameId, us: Side, from: &str, to: &str) -> String {
    format!("game {id} play {} {from} {to}", role_word(us))
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECORD: &str = r#"{"id":34253,"attackers":"david","defenders":"ai-taflzero-10","dim":11,"start":"/3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/A4D4A/11/5A5/3AAAAA3/","time_control":{"main_time_seconds":900,"increment_length":10},"time_remaining_ms":{"attackers":885694,"defenders":911981,"last_move":"2026-06-24T19:57:38.07Z"},"moves":"d1-d3 e5-e2 d3-d2xe2 f8-c8","rated":true,"messages":[{"username":"david","timestamp":"2026-06-24T19:57:33.519700276Z","content":"Hello there!"}]}"#;

    #[test]
    fn the_server_s_lines_read() {
        assert_eq!(read("= login"), Incoming::LoggedIn);
        assert_eq!(
            read("? login multiple_possible_errors wrong_password"),
            Incoming::LoginRefused("multiple_possible_errors wrong_password".to_string())
        );
        assert_eq!(
            read("game 7 generate_move attacker"),
            Incoming::GenerateMove {
                id: 7,
                side: Side::Attackers
            }
        );
        assert_eq!(
            read("game 7 play defender f6 f9"),
            Incoming::Played {
                id: 7,
                side: Side::Defenders,
                from: "f6".to_string(),
                to: "f9".to_string()
            }
        );
        assert_eq!(read("= game"), Incoming::MoveAccepted);
        assert_eq!(
            read("? game play: you already reached that position"),
            Incoming::MoveRefused("play: you already reached that position".to_string())
        );
        assert_eq!(
            read("= game_over 7 defender_wins"),
            Incoming::GameOver {
                id: 7,
                winner: Side::Defenders
            }
        );
        assert_eq!(read("= draw accept"), Incoming::Drawn);
        assert_eq!(read("= new_game 12"), Incoming::Offered(12));
        assert_eq!(
            read("= challenge_requested 12"),
            Incoming::ChallengeRequested(12)
        );
        assert_eq!(read("= join_game_pending 3"), Incoming::JoinRequested(3));
        assert_eq!(read("request_draw 3 attacker"), Incoming::DrawOffered(3));
        assert_eq!(read("= ping"), Incoming::Pong);
        for other in [
            "",
            "version 6.4.1",
            "game x generate_move attacker",
            "game 7 generate_move king",
            "= game_over 7 nobody_wins",
            "= resume_game_json {",
            "= new_game 340282366920938463463374607431768211456",
        ] {
            assert_eq!(read(other), Incoming::Other, "{other:?}");
        }
    }

    #[test]
    fn a_record_reads_with_its_moves_and_clocks() {
        let Incoming::Record(game) = read(&format!("= resume_game_json {RECORD}")) else {
            panic!("not a record");
        };
        assert_eq!(game.id, 34253);
        assert_eq!(game.defenders, "ai-taflzero-10");
        assert_eq!(game.dim, 11);
        assert_eq!(game.moves, ["d1-d3", "e5-e2", "d3-d2xe2", "f8-c8"]);
        assert_eq!(
            game.clock,
            Some(Clock {
                attackers_ms: 885_694,
                defenders_ms: 911_981,
                increment_s: 10
            })
        );
        let untimed = RECORD
            .replace(
                r#""time_control":{"main_time_seconds":900,"increment_length":10}"#,
                r#""time_control":null"#,
            )
            .replace(
                r#""time_remaining_ms":{"attackers":885694,"defenders":911981,"last_move":"2026-06-24T19:57:38.07Z"}"#,
                r#""time_remaining_ms":null"#,
            );
        assert_eq!(record(&untimed).unwrap().clock, None);
        assert!(record(&RECORD.replace("\"dim\":11", "\"dim\":\"11\"")).is_err());
    }

    #[test]
    fn open_games_are_those_with_a_free_seat() {
        let light = |id: u32, attacker: &str, defender: &str, accepted: bool, size: &str| {
            format!(
                r#"{{"id":{id},"attacker":{attacker},"defender":{defender},"challenger":null,"rated":"No","timed":"UnTimed","spectators":{{}},"challenge_accepted":{accepted},"game_over":false,"board_size":"{size}","turn":"Roleless"}}"#
            )
        };
        let text = format!(
            r#"{{"created":[[1,null,{}],[2,null,{}]],"removed":[],"updated":{{"3":{},"4":{}}}}}"#,
            light(1, r#""ai-a""#, "null", false, "_11"),
            light(2, r#""ai-a""#, r#""ai-b""#, true, "_11"),
            light(3, "null", r#""bob""#, false, "_7"),
            light(4, "null", r#""bob""#, true, "_13"),
        );
        let games = open_games(&text).unwrap();
        assert_eq!(
            games,
            [
                OpenGame {
                    id: 1,
                    creator: "ai-a".to_string(),
                    seat: Side::Defenders,
                    size: 11
                },
                OpenGame {
                    id: 3,
                    creator: "bob".to_string(),
                    seat: Side::Attackers,
                    size: 7
                }
            ]
        );
    }

    #[test]
    fn the_games_at_login_are_read_from_their_ron() {
        let text = r#"([(id:0,attacker:Some("ai-basic"),defender:None,challenger:(None),rated:No,timed:Timed((add_seconds:10,milliseconds_left:900000)),spectators:{},challenge_accepted:false,game_over:false,board_size:_11,turn:Roleless),(id:1,attacker:Some("a"),defender:Some("b"),challenger:(None),rated:No,timed:UnTimed,spectators:{},challenge_accepted:true,game_over:false,board_size:_7,turn:Attacker),(id:2,attacker:None,defender:Some("c-d"),challenger:(Some("e")),rated:Yes,timed:UnTimed,spectators:{},challenge_accepted:false,game_over:false,board_size:_7,turn:Roleless),(id:3,attacker:None,defender:Some("f_g"),challenger:(None),rated:Yes,timed:UnTimed,spectators:{},challenge_accepted:false,game_over:false,board_size:_7,turn:Roleless)],Users({"a":(username:"a",wins:0,losses:0,draws:0,rating:(rating:1500.0,rd:350.0),logged_in:true)}),false,false)"#;
        let Incoming::OpenGames(games) = read(&format!("= initialize_display {text}")) else {
            panic!("not read");
        };
        assert_eq!(
            games,
            [
                OpenGame {
                    id: 0,
                    creator: "ai-basic".to_string(),
                    seat: Side::Defenders,
                    size: 11
                },
                OpenGame {
                    id: 3,
                    creator: "f_g".to_string(),
                    seat: Side::Attackers,
                    size: 7
                }
            ]
        );
        assert!(open_games_ron("(id:").is_empty());
    }

    #[test]
    fn commands_are_the_server_s() {
        assert_eq!(
            login(SERVER_VERSION_ID, false, "ai-x", "pw"),
            "32d9a140 login ai-x pw"
        );
        assert_eq!(
            new_game(Side::Attackers, false, Some((900_000, 10)), 11),
            r#"new_game {"role":"Attacker","rated":false,"time_settings":{"Timed":{"add_seconds":10,"milliseconds_left":900000}},"board_size":11}"#
        );
        assert_eq!(
            new_game(Side::Defenders, true, None, 7),
            r#"new_game {"role":"Defender","rated":true,"time_settings":"UnTimed","board_size":7}"#
        );
        assert_eq!(
            play(5, Side::Defenders, "f6", "f9"),
            "game 5 play defender f6 f9"
        );
    }

    proptest::proptest! {
        #[test]
        fn any_line_reads_without_panicking(line in "\\PC{0,200}") {
            let _ = read(&line);
        }

        #[test]
        fn a_record_with_one_byte_changed_reads_or_is_other(index in 0usize..2000, byte in 0u8..128) {
            let mut bytes = format!("= resume_game_json {RECORD}").into_bytes();
            let index = index % bytes.len();
            bytes[index] = byte;
            let _ = read(&String::from_utf8_lossy(&bytes));
        }
    }
}
