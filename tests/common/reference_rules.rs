#![allow(dead_code)]
//! The reference's own reader of OpenTafl rules strings (`RefRules`), for the variant reference in
//! `reference_variants.rs`.
//!
//! It follows OpenTafl v0.4.8.0b as its code behaves, quirks included, and says at each step
//! which Java method it mirrors (`notation/RulesSerializer.java`, `rules/Rules.java`,
//! `rules/GenericRules.java`). Nothing here is shared with the crate. Input that OpenTafl would
//! crash on (a bad number, an unknown piece letter) is refused with an `Err` naming the field;
//! this reader never panics. Out of scope, and refused: berserk (`ber:m`, `ber:c`), jumping kings
//! (`kj:` other than none) and the pieces c n m g (and an attacker king k) in the start position.

use super::reference::RefBoard;

/// OpenTafl's piece letters in the order of its type lists and speed lists
/// (`TaflmanCodes.inverse`): attackers t c n k m g, then defenders T C N K M G.
pub const TYPE_LETTERS: [char; 12] = ['t', 'c', 'n', 'k', 'm', 'g', 'T', 'C', 'N', 'K', 'M', 'G'];

/// Index of `t` (attacker soldier) in a type list (`TaflmanCodes.t`).
pub const INDEX_T: usize = 0;
/// Index of `T` (defender soldier) in a type list (`TaflmanCodes.T`).
pub const INDEX_DEFENDER_T: usize = 6;
/// Index of `K` (defender king) in a type list (`TaflmanCodes.K`).
pub const INDEX_KING: usize = 9;

/// One flag per piece type, indexed as `TYPE_LETTERS`.
pub type TypeList = [bool; 12];

/// What kind of square a square is (`rules/SpaceType.java`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SquareType {
    Plain,
    Centre,
    Corner,
    AttackerFort,
    DefenderFort,
}

/// The per-piece-type lists of one kind of special square (`Rules.centerPassableFor` etc.).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SquareRules {
    pub passable: TypeList,
    pub stoppable: TypeList,
    /// For the centre: hostility while occupied (`cenh`). For the others: hostility.
    pub hostile: TypeList,
    /// Only for the centre: hostility while empty (`cenhe`). Unused for the other kinds.
    pub empty_hostile: TypeList,
    pub reenterable: TypeList,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Escape {
    Edges,
    Corners,
}

/// `Rules.THIRD_REPETITION_*` as a rules string can set it (`IGNORED` cannot be set: see
/// `threefold_for`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Threefold {
    Draws,
    /// `tfr:w`, `Rules.THIRD_REPETITION_WINS`.
    Wins,
    /// `tfr:l`, `Rules.THIRD_REPETITION_LOSES`.
    Loses,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KingArmed {
    Armed,
    HammerOnly,
    AnvilOnly,
    Unarmed,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KingStrength {
    Strong,
    StrongCentre,
    Weak,
    Middleweight,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shieldwall {
    None,
    Weak,
    Strong,
}

/// A whole OpenTafl ruleset, as `RulesSerializer.loadRulesRecord` builds a `GenericRules`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefRules {
    pub name: String,
    pub size: usize,
    /// The start position (record rows rank 1 first; `starti:` already turned around).
    pub start: RefBoard,
    pub attackers_first: bool,
    pub escape: Escape,
    pub surrounding_fatal: bool,
    pub threefold: Threefold,
    pub king_armed: KingArmed,
    pub king_strength: KingStrength,
    pub shieldwall: Shieldwall,
    pub shieldwall_flanking: bool,
    pub edge_fort_escape: bool,
    pub linnaean: bool,
    /// Speed limit per piece type (`GenericRules.mSpeedLimits`, order `TYPE_LETTERS`); only a
    /// value above 0 limits a move (`Taflman.getAllowableMovesFrom` tests `speedLimit > 0`).
    pub speeds: [i32; 12],
    /// Whether `GenericRules.getSpeedLimitMode()` is not `SPEED_LIMITS_NONE`.
    pub speed_limits_on: bool,
    /// `Rules.mSpaceTypes`, index `y * size + x`.
    pub square_types: Vec<SquareType>,
    /// `Rules.mCornerSpaces`: the squares `cor:` named (or the default four). A square can be
    /// listed here and have another type, when a later field claimed it.
    pub corner_squares: Vec<usize>,
    /// `Rules.mCenterSpaces`, likewise.
    pub centre_squares: Vec<usize>,
    /// `Coord.getAdjacentSpaces` per square, in its order: west, east, north (y - 1), south
    /// (y + 1). Precomputed, as `Coord.setupAdjacentCoords` does.
    pub adjacent: Vec<Vec<usize>>,
    /// `Coord.getRankAndFileCoords` per square: the squares outwards east, west, north, south.
    pub lines: Vec<[Vec<usize>; 4]>,
    pub centre: SquareRules,
    pub corner: SquareRules,
    pub attacker_fort: SquareRules,
    pub defender_fort: SquareRules,
}

/// Java's `String.split` with a one-character separator: no match gives the whole input (even
/// ""); otherwise the pieces, with trailing empty pieces removed (so "a,b," is two pieces and ","
/// none).
pub fn java_split(text: &str, separator: char) -> Vec<&str> {
    if !text.contains(separator) {
        return vec![text];
    }
    let mut parts: Vec<&str> = text.split(separator).collect();
    while parts.last() == Some(&"") {
        parts.pop();
    }
    parts
}

/// `Integer.parseInt`: an optional sign and decimal digits, in `i32`.
fn java_parse_int(field: &str, text: &str) -> Result<i32, String> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("field '{field}': '{text}' is not a number"));
    }
    text.parse::<i32>()
        .map_err(|_| format!("field '{field}': '{text}' is out of range"))
}

/// `RulesSerializer.getTaflmanTypeListForString`: each letter sets its type. An unknown letter
/// makes OpenTafl index -1 and throw, so it is refused here.
pub fn type_list(field: &str, text: &str) -> Result<TypeList, String> {
    let mut list = [false; 12];
    for letter in text.chars() {
        match TYPE_LETTERS.iter().position(|&l| l == letter) {
            Some(index) => list[index] = true,
            None => {
                return Err(format!(
                    "field '{field}': '{letter}' is not a piece letter of tcnkmgTCNKMG"
                ));
            }
        }
    }
    Ok(list)
}

/// The defaults that `Rules.setDefaultSpaceGroups` installs from `RulesSerializer.defaults`.
fn default_list(text: &str) -> TypeList {
    type_list("default", text).expect("the defaults use piece letters only")
}

/// `RulesSerializer.getRulesMap`: words split on single spaces, each at ':' into key and value;
/// a word without a value gets "". A later word with the same key replaces the earlier one.
/// A word that is only colons makes OpenTafl's `keyValue[0]` throw: refused here.
fn rules_map(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut map: Vec<(String, String)> = Vec::new();
    for word in java_split(text, ' ') {
        let key_value = java_split(word, ':');
        let (key, value) = match key_value.len() {
            0 => return Err(format!("'{word}' has no key")),
            1 => (key_value[0], ""),
            _ => (key_value[0], key_value[1]),
        };
        map.retain(|(k, _)| k != key);
        map.push((key.to_string(), value.to_string()));
    }
    Ok(map)
}

/// `RulesSerializer.getCoordListForString` + `Coord.get(String)`: squares like `a4`, separated by
/// commas; empty pieces skipped. OpenTafl accepts files a-s and indexes its tables with squares
/// off a smaller board (aliasing or throwing); the reference refuses any square off the board.
fn square_list(field: &str, text: &str, size: usize) -> Result<Vec<usize>, String> {
    let mut squares = Vec::new();
    for name in java_split(text, ',') {
        if name.is_empty() {
            continue;
        }
        let mut chars = name.chars();
        let file = chars.next().unwrap_or(' ');
        let rank_text = chars.as_str();
        if !file.is_ascii_lowercase() {
            return Err(format!("field '{field}': '{name}' is not a square"));
        }
        let x = file as usize - 'a' as usize;
        let rank = java_parse_int(field, rank_text)?;
        if x >= size || rank < 1 || rank as usize > size {
            return Err(format!("field '{field}': '{name}' is off the board"));
        }
        let y = rank as usize - 1;
        squares.push(y * size + x);
    }
    Ok(squares)
}

/// `RulesSerializer.getTaflmanSpeedsForString` followed by `GenericRules.setSpeedLimits`.
/// Returns the 12 speeds (order `TYPE_LETTERS`) and whether the speed mode is not NONE.
fn speeds_for(text: &str) -> Result<([i32; 12], bool), String> {
    let parts = java_split(text, ',');
    let speeds: Vec<i32> = match parts.len() {
        // One value: every type gets it.
        1 => vec![java_parse_int("spd", parts[0])?; 12],
        // Two values: OpenTafl fills both halves with -1 and never reads the values.
        2 => vec![-1; 12],
        // Twelve values: one per type.
        12 => parts
            .iter()
            .map(|p| java_parse_int("spd", p))
            .collect::<Result<_, _>>()?,
        // Ten values (the list before guards): the values are parsed into one holder but
        // another, empty holder of 8 zeros is returned; `setSpeedLimits` spreads those zeros
        // over 12 types. A speed of 0 limits nothing.
        10 => {
            for p in &parts {
                java_parse_int("spd", p)?;
            }
            vec![0; 8]
        }
        // Eight values (the list before mercenaries and guards): t c n k, T C N K.
        8 => parts
            .iter()
            .map(|p| java_parse_int("spd", p))
            .collect::<Result<_, _>>()?,
        // Anything else (0 values included: OpenTafl's if-chain then throws).
        n => {
            return Err(format!(
                "field 'spd': {n} values; expected 1, 2, 8, 10 or 12"
            ));
        }
    };
    // setSpeedLimits: the mode, from the two halves of the array as given.
    let half = speeds.len() / 2;
    let first = &speeds[..half];
    let second = &speeds[half..];
    let first_identical = first.iter().all(|&s| s == first[0]);
    let second_identical = second.iter().all(|&s| s == second[0]);
    let all_identical = first_identical && second_identical && first[0] == second[0];
    let mode_none = all_identical && first[0] == -1;
    // setSpeedLimits: 8 values go to t c n k and T C N K; the rest stays 0.
    let mut out = [0i32; 12];
    if speeds.len() == 8 {
        out[0..4].copy_from_slice(&speeds[0..4]);
        out[6..10].copy_from_slice(&speeds[4..8]);
    } else {
        out.copy_from_slice(&speeds);
    }
    Ok((out, !mode_none))
}

/// `Coord.getAdjacentSpaces`: west, east, north (y - 1), south (y + 1), those on the board.
fn adjacent_of(i: usize, n: usize) -> Vec<usize> {
    let (x, y) = (i % n, i / n);
    let mut out = Vec::with_capacity(4);
    if x > 0 {
        out.push(i - 1);
    }
    if x < n - 1 {
        out.push(i + 1);
    }
    if y > 0 {
        out.push(i - n);
    }
    if y < n - 1 {
        out.push(i + n);
    }
    out
}

/// `Coord.getRankAndFileCoords`: from square `i` outwards, east, west, north (y - 1), south.
fn lines_of(i: usize, n: usize) -> [Vec<usize>; 4] {
    let (x, y) = (i % n, i / n);
    let east = (x + 1..n).map(|a| y * n + a).collect();
    let west = (0..x).rev().map(|a| y * n + a).collect();
    let north = (0..y).rev().map(|b| b * n + x).collect();
    let south = (y + 1..n).map(|b| b * n + x).collect();
    [east, west, north, south]
}

/// `getThreefoldResultForString`: w, l, d; anything else, `i` included, draws.
fn threefold_for(text: &str) -> Threefold {
    match text {
        "w" => Threefold::Wins,
        "l" => Threefold::Loses,
        _ => Threefold::Draws,
    }
}

/// `getBooleanForString`: only "y" is true.
fn boolean_for(text: &str) -> bool {
    text == "y"
}

impl RefRules {
    /// Reads a whole OpenTafl rules string, as `RulesSerializer.loadRulesRecord` does.
    pub fn parse(text: &str) -> Result<RefRules, String> {
        let map = rules_map(text)?;
        let get = |key: &str| -> Option<&str> {
            map.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
        };

        // dim and start (or starti) are required.
        let dim_text = get("dim").ok_or("field 'dim' is missing")?;
        let dim = java_parse_int("dim", dim_text)?;
        // Coord's tables exist for odd sizes 5 to 19 only.
        if !(5..=19).contains(&dim) || dim % 2 == 0 {
            return Err(format!(
                "field 'dim': {dim} is not an odd size from 5 to 19"
            ));
        }
        let size = dim as usize;
        // starti wins over start (loadRulesRecord tests starti first); it is the record with
        // its rows in the other order (PositionSerializer.invertRecord).
        let record = if let Some(inverted) = get("starti") {
            let rows: Vec<&str> = inverted.split('/').filter(|r| !r.is_empty()).collect();
            let mut turned = String::from("/");
            for row in rows.iter().rev() {
                turned.push_str(row);
                turned.push('/');
            }
            turned
        } else if let Some(start) = get("start") {
            start.to_string()
        } else {
            return Err("field 'start' is missing".to_string());
        };
        if let Some(piece) = record.chars().find(|c| "cnmgkCNMG".contains(*c)) {
            return Err(format!(
                "field 'start': piece '{piece}' is out of the reference's scope (only t, T, K)"
            ));
        }
        let start =
            RefBoard::from_record(&record, true).map_err(|e| format!("field 'start': {e}"))?;
        if start.size != size {
            return Err(format!(
                "field 'start': {} rows, but dim is {size}",
                start.size
            ));
        }

        // GenericRules' field initialisers.
        let mut rules = RefRules {
            name: get("name").unwrap_or("Unknown Tafl").replace('_', " "),
            size,
            start,
            attackers_first: true,
            escape: Escape::Corners,
            surrounding_fatal: true,
            threefold: Threefold::Draws,
            king_armed: KingArmed::Armed,
            king_strength: KingStrength::Strong,
            shieldwall: Shieldwall::None,
            shieldwall_flanking: true,
            edge_fort_escape: false,
            linnaean: false,
            speeds: [-1; 12],
            speed_limits_on: false,
            square_types: vec![SquareType::Plain; size * size],
            corner_squares: Vec::new(),
            centre_squares: Vec::new(),
            adjacent: (0..size * size).map(|i| adjacent_of(i, size)).collect(),
            lines: (0..size * size).map(|i| lines_of(i, size)).collect(),
            // Rules.setDefaultSpaceGroups, from RulesSerializer.defaults.
            centre: SquareRules {
                passable: default_list("tcnkmTCNKM"),
                stoppable: default_list("K"),
                hostile: default_list("tcnkm"),
                empty_hostile: default_list("tcnkmTCNKM"),
                reenterable: default_list("tcnkmTCNKM"),
            },
            corner: SquareRules {
                passable: default_list("K"),
                stoppable: default_list("K"),
                hostile: default_list("tcnkmTCNKM"),
                empty_hostile: [false; 12],
                reenterable: default_list("tcnkmTCNKM"),
            },
            attacker_fort: SquareRules {
                passable: default_list("tcnkmTCNKM"),
                stoppable: default_list("tcnkmTCNKM"),
                hostile: default_list("TCNKM"),
                empty_hostile: [false; 12],
                reenterable: default_list("tcnkmTCNKM"),
            },
            defender_fort: SquareRules {
                passable: default_list("tcnkmTCNKM"),
                stoppable: default_list("TCNKM"),
                hostile: default_list("tcnkm"),
                empty_hostile: [false; 12],
                reenterable: default_list("tcnkmTCNKM"),
            },
        };

        // Rules.setDefaultSpaceGroups: the centre, then the four corners.
        let centre = (size - 1) / 2;
        let mut centres = vec![centre * size + centre];
        let mut corners = vec![0, size - 1, (size - 1) * size, (size - 1) * size + size - 1];
        let mut attacker_forts: Vec<usize> = Vec::new();
        let mut defender_forts: Vec<usize> = Vec::new();
        for &c in &centres {
            rules.square_types[c] = SquareType::Centre;
        }
        for &c in &corners {
            rules.square_types[c] = SquareType::Corner;
        }

        // The simple fields, in loadRulesRecord's order.
        if let Some(v) = get("esc") {
            // getEscapeTypeForString: "c" is corners, anything else edges.
            rules.escape = if v == "c" {
                Escape::Corners
            } else {
                Escape::Edges
            };
        }
        if let Some(v) = get("surf") {
            rules.surrounding_fatal = boolean_for(v);
        }
        if let Some(v) = get("atkf") {
            rules.attackers_first = boolean_for(v);
        }
        if let Some(v) = get("tfr") {
            rules.threefold = threefold_for(v);
        }
        if let Some(v) = get("ka") {
            rules.king_armed = match v {
                "h" => KingArmed::HammerOnly,
                "a" => KingArmed::AnvilOnly,
                "n" => KingArmed::Unarmed,
                _ => KingArmed::Armed,
            };
        }
        if let Some(v) = get("ks") {
            rules.king_strength = match v {
                "c" => KingStrength::StrongCentre,
                "m" => KingStrength::Middleweight,
                "w" | "n" => KingStrength::Weak,
                _ => KingStrength::Strong,
            };
        }
        if let Some(v) = get("kj") {
            // getJumpModeForString: c, j, r jump; anything else is JUMP_NONE.
            if matches!(v, "c" | "j" | "r") {
                return Err(format!(
                    "field 'kj:{v}': jumping kings are out of the reference's scope"
                ));
            }
        }
        // nj, cj, mj, gj only matter for knights, commanders, mercenaries and guards, which
        // the reference refuses in the start position.
        if let Some(v) = get("sw") {
            rules.shieldwall = match v {
                "s" => Shieldwall::Strong,
                "w" => Shieldwall::Weak,
                _ => Shieldwall::None,
            };
        }
        if let Some(v) = get("swf") {
            rules.shieldwall_flanking = boolean_for(v);
        }
        if let Some(v) = get("efe") {
            rules.edge_fort_escape = boolean_for(v);
        }
        if let Some(v) = get("linc") {
            rules.linnaean = boolean_for(v);
        }
        if let Some(v) = get("ber") {
            // getBerserkModeForString: m and c are berserk; anything else is none.
            if matches!(v, "m" | "c") {
                return Err(format!(
                    "field 'ber:{v}': berserk is out of the reference's scope"
                ));
            }
        }
        if let Some(v) = get("spd") {
            let (speeds, on) = speeds_for(v)?;
            rules.speeds = speeds;
            rules.speed_limits_on = on;
        }

        // Rules.setCornerSpaces / setCenterSpaces / setAttackerForts / setDefenderForts: each
        // first turns its previous squares back to plain (even if another kind has claimed
        // them since), then marks its new squares.
        if let Some(v) = get("cor") {
            let new = square_list("cor", v, size)?;
            for &c in &corners {
                rules.square_types[c] = SquareType::Plain;
            }
            corners = new;
            for &c in &corners {
                rules.square_types[c] = SquareType::Corner;
            }
        }
        if let Some(v) = get("cen") {
            let new = square_list("cen", v, size)?;
            for &c in &centres {
                rules.square_types[c] = SquareType::Plain;
            }
            centres = new;
            for &c in &centres {
                rules.square_types[c] = SquareType::Centre;
            }
        }
        if let Some(v) = get("afor") {
            let new = square_list("afor", v, size)?;
            for &c in &attacker_forts {
                rules.square_types[c] = SquareType::Plain;
            }
            attacker_forts = new;
            for &c in &attacker_forts {
                rules.square_types[c] = SquareType::AttackerFort;
            }
        }
        if let Some(v) = get("dfor") {
            let new = square_list("dfor", v, size)?;
            for &c in &defender_forts {
                rules.square_types[c] = SquareType::Plain;
            }
            defender_forts = new;
            for &c in &defender_forts {
                rules.square_types[c] = SquareType::DefenderFort;
            }
        }

        rules.corner_squares = corners;
        rules.centre_squares = centres;

        // The type lists. loadRulesRecord reads the corner's, attacker fort's and defender
        // fort's re-entry lists only when `cenre` is present; then an absent `corre` / `aforre`
        // / `dforre` is read as `getTaflmanTypeListForString(null)`: nobody may re-enter.
        // Without `cenre` all four re-entry lists keep their defaults.
        let list = |key: &str| -> Result<Option<TypeList>, String> {
            match get(key) {
                Some(v) => type_list(key, v).map(Some),
                None => Ok(None),
            }
        };
        let has_cenre = get("cenre").is_some();
        let reentry_after_centre = |key: &str| -> Result<Option<TypeList>, String> {
            if has_cenre {
                match get(key) {
                    Some(v) => type_list(key, v).map(Some),
                    None => Ok(Some([false; 12])),
                }
            } else {
                Ok(None)
            }
        };
        // setCenterParameters (a null list keeps the default).
        if let Some(l) = list("cenp")? {
            rules.centre.passable = l;
        }
        if let Some(l) = list("cens")? {
            rules.centre.stoppable = l;
        }
        if let Some(l) = list("cenh")? {
            rules.centre.hostile = l;
        }
        if let Some(l) = list("cenhe")? {
            rules.centre.empty_hostile = l;
        }
        if let Some(l) = list("cenre")? {
            rules.centre.reenterable = l;
        }
        // setCornerParameters.
        if let Some(l) = list("corp")? {
            rules.corner.passable = l;
        }
        if let Some(l) = list("cors")? {
            rules.corner.stoppable = l;
        }
        if let Some(l) = list("corh")? {
            rules.corner.hostile = l;
        }
        if let Some(l) = reentry_after_centre("corre")? {
            rules.corner.reenterable = l;
        }
        // setAttackerFortParameters.
        if let Some(l) = list("aforp")? {
            rules.attacker_fort.passable = l;
        }
        if let Some(l) = list("afors")? {
            rules.attacker_fort.stoppable = l;
        }
        if let Some(l) = list("aforh")? {
            rules.attacker_fort.hostile = l;
        }
        if let Some(l) = reentry_after_centre("aforre")? {
            rules.attacker_fort.reenterable = l;
        }
        // setDefenderFortParameters.
        if let Some(l) = list("dforp")? {
            rules.defender_fort.passable = l;
        }
        if let Some(l) = list("dfors")? {
            rules.defender_fort.stoppable = l;
        }
        if let Some(l) = list("dforh")? {
            rules.defender_fort.hostile = l;
        }
        if let Some(l) = reentry_after_centre("dforre")? {
            rules.defender_fort.reenterable = l;
        }
        Ok(rules)
    }

    /// The kind of square `index` (`Rules.getSpaceTypeFor`).
    pub fn square_type(&self, index: usize) -> SquareType {
        self.square_types[index]
    }

    /// The lists of a special square kind; `None` for a plain square.
    pub fn square_rules(&self, kind: SquareType) -> Option<&SquareRules> {
        match kind {
            SquareType::Plain => None,
            SquareType::Centre => Some(&self.centre),
            SquareType::Corner => Some(&self.corner),
            SquareType::AttackerFort => Some(&self.attacker_fort),
            SquareType::DefenderFort => Some(&self.defender_fort),
        }
    }
}
