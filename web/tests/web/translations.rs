//! The page's words (`assets/i18n.js`) are whole in every language: each language has every
//! key of English's, none more, none empty, with the same `{placeholders}`; and every key the
//! page asks for exists: `data-i18n` in `index.html`, `t('key'` in the scripts, and each result
//! reason the server sends (the library's `WinReason::code` and `DrawReason::code`, `time`) and
//! each illegal move's reason (`why_` and `PlayError::code`, or `bad_notation`).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// A language's words: key to text.
type Words = BTreeMap<String, String>;

fn read(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// The entries `key: 'text'` of one `const xx = { ... };` block (single-quoted strings with
/// backslash escapes, as i18n.js writes them).
fn entries(block: &str) -> Words {
    let mut words = Words::new();
    let mut rest = block;
    while let Some(quote) = rest.find(": '") {
        let key = rest[..quote]
            .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or_default()
            .to_owned();
        let mut text = String::new();
        let mut chars = rest[quote + 3..].char_indices();
        let mut end = None;
        while let Some((at, c)) = chars.next() {
            match c {
                '\\' => text.extend(chars.next().map(|(_, escaped)| escaped)),
                '\'' => {
                    end = Some(quote + 3 + at + 1);
                    break;
                }
                c => text.push(c),
            }
        }
        let end = end.unwrap_or_else(|| panic!("an unclosed string after {key:?}"));
        assert!(
            words.insert(key.clone(), text).is_none(),
            "{key} twice in a language"
        );
        rest = &rest[end..];
    }
    words
}

/// Every language of i18n.js by its name, in the order of `LANGUAGES`.
fn languages() -> Vec<(String, Words)> {
    let source = read("assets/i18n.js");
    let list = source
        .split("export const LANGUAGES = {")
        .nth(1)
        .and_then(|rest| rest.split('}').next())
        .expect("i18n.js exports LANGUAGES");
    list.split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(|name| {
            let start = format!("const {name} = {{");
            let block = source
                .split(&start)
                .nth(1)
                .and_then(|rest| rest.split("\n};").next())
                .unwrap_or_else(|| panic!("no block `{start}` in i18n.js"));
            (name.to_owned(), entries(block))
        })
        .collect()
}

/// The `{name}` placeholders of a text.
fn placeholders(text: &str) -> BTreeSet<&str> {
    text.split('{')
        .skip(1)
        .filter_map(|part| part.split_once('}').map(|(name, _)| name))
        .collect()
}

/// The words after each `marker` up to the next `end` character, e.g. `data-i18n="` ... `"`.
fn after<'a>(text: &'a str, marker: &str, end: char) -> BTreeSet<&'a str> {
    text.split(marker)
        .skip(1)
        .filter_map(|part| part.split(end).next())
        .collect()
}

/// The literal keys of the scripts' calls `t('key'` (not `split('+')`: the `t` stands alone).
fn keys_of_t_calls(script: &str) -> BTreeSet<&str> {
    script
        .match_indices("t('")
        .filter(|&(at, _)| {
            !script[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        })
        .filter_map(|(at, _)| script[at + 3..].split('\'').next())
        .collect()
}

/// Every result code the server may send: the library's (listed through an exhaustive match, so
/// that a new reason fails to compile here until it is listed) and the page's `time`.
fn result_codes() -> Vec<&'static str> {
    use tafl_engine::{DrawReason as D, WinReason as W};
    let wins = [
        W::KingCaptured,
        W::KingEscaped,
        W::AllPiecesCaptured,
        W::DefendersImmobile,
        W::EdgeFort,
        W::Encircled,
        W::NoLegalMoves,
        W::Repetition,
        W::CannotEscape,
    ];
    for reason in wins {
        match reason {
            W::KingCaptured
            | W::KingEscaped
            | W::AllPiecesCaptured
            | W::DefendersImmobile
            | W::EdgeFort
            | W::Encircled
            | W::NoLegalMoves
            | W::Repetition
            | W::CannotEscape => {}
        }
    }
    let draws = [D::Repetition, D::NoLegalMoves, D::Agreement, D::MoveLimit];
    for reason in draws {
        match reason {
            D::Repetition | D::NoLegalMoves | D::Agreement | D::MoveLimit => {}
        }
    }
    let mut codes: Vec<&str> = wins.iter().map(|r| r.code()).collect();
    codes.extend(draws.iter().map(|r| r.code()));
    codes.push("time");
    codes
}

/// Every code of an illegal move's reason: the library's list of them (a code it adds fails
/// this test until every language words it) and the page's own `bad_notation`.
fn refusal_codes() -> impl Iterator<Item = &'static str> {
    tafl_engine::PlayError::<tafl_engine::Narrow>::CODES
        .iter()
        .copied()
        .chain(["bad_notation"])
}

#[test]
fn every_language_has_every_word_with_the_same_placeholders() {
    let languages = languages();
    assert!(languages.len() >= 5, "en, ar, th, ru, ro at least");
    let (first, english) = &languages[0];
    assert_eq!(
        first, "en",
        "English is first: the others are checked against it"
    );
    assert!(
        english.len() > 50,
        "English has its words: {}",
        english.len()
    );
    for (name, words) in &languages {
        let keys: BTreeSet<&String> = words.keys().collect();
        let expected: BTreeSet<&String> = english.keys().collect();
        assert_eq!(keys, expected, "{name} has exactly English's keys");
        for (key, text) in words {
            assert!(!text.trim().is_empty(), "{name}.{key} is empty");
            assert_eq!(
                placeholders(text),
                placeholders(&english[key]),
                "{name}.{key}: {text:?} has English's placeholders"
            );
        }
    }
}

#[test]
fn every_word_the_page_asks_for_exists() {
    let languages = languages();
    let english = &languages[0].1;
    let html = read("assets/index.html");
    let scripts =
        ["app.js", "board.js", "api.js", "learn.js"].map(|name| read(&format!("assets/{name}")));
    let results = result_codes();
    let refusals: BTreeSet<String> = refusal_codes().map(|code| format!("why_{code}")).collect();
    let asked: Vec<(&str, BTreeSet<&str>)> = vec![
        ("index.html data-i18n", after(&html, "data-i18n=\"", '"')),
        (
            "t('...') in the scripts",
            scripts.iter().flat_map(|s| keys_of_t_calls(s)).collect(),
        ),
        (
            "the library's result codes",
            results.iter().copied().collect(),
        ),
        (
            "the library's refusal codes (why_CODE)",
            refusals.iter().map(String::as_str).collect(),
        ),
    ];
    for (place, keys) in asked {
        assert!(
            !keys.is_empty(),
            "{place}: found no key (has the form changed?)"
        );
        for key in keys {
            assert!(
                english.contains_key(key),
                "{place} asks for {key:?}, which is not a word"
            );
        }
    }
}

/// The words that say each fact of a game, by language: the paragraph of a game whose king
/// escapes to a corner names the corner, and so on (`Facts`).
/// A language's stems for the draw rules: repetition, a legal move, a draw, a loss, a win, a
/// forbidden repetition.
type DrawRuleWords = (
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
);

fn fact_words(language: &str) -> Vec<(&'static str, &'static [&'static str])> {
    let mut words = Vec::from(basic_fact_words(language));
    // A draw rule's fact is the rule's name and its end, both said: (the rule, the end).
    let (repetition, legal, draw, loss, win, forbidden): DrawRuleWords = match language {
        "en" => (
            &["repet", "repeat", "occurrence"],
            &["legal"],
            &["draw"],
            &["lose", "lost"],
            &["wins"],
            &["recreate"],
        ),
        "ar" => (
            &["تكرار", "تكرر", "الثالث"],
            &["قانوني"],
            &["تعادل"],
            &["خسر", "يخسر", "خسار"],
            &["يفوز", "فوز"],
            &["إعادة"],
        ),
        "th" => (
            &["ซ้ำ", "ครั้งที่สาม", "กลับมา"],
            &["ถูกกติกา"],
            &["เสมอ"],
            &["แพ้"],
            &["ชนะ"],
            &["ห้าม"],
        ),
        "ru" => (
            &["повтор", "трет"],
            &["законн"],
            &["нич"],
            &["проигр"],
            &["побе", "выигр"],
            &["нельзя"],
        ),
        "ro" => (
            &["repet", "a treia"],
            &["legal"],
            &["remiz"],
            &["pierd"],
            &["câștig", "victori"],
            &["readuce"],
        ),
        other => panic!("no fact words for {other}: add them"),
    };
    let both =
        |a: &'static [&'static str], b: &'static [&'static str]| -> &'static [&'static str] {
            // Leaked once per test run: a handful of short lists.
            Box::leak(
                a.iter()
                    .flat_map(|x| b.iter().map(move |y| format!("{x}\u{0}{y}")))
                    .map(|s| &*Box::leak(s.into_boxed_str()))
                    .collect::<Vec<&'static str>>()
                    .into_boxed_slice(),
            )
        };
    words.extend([
        ("repetition_draw", both(repetition, draw)),
        ("repetition_loss", both(repetition, loss)),
        ("repetition_attackers", both(repetition, win)),
        ("repetition_forbidden", both(forbidden, forbidden)),
        ("no_move_draw", both(legal, draw)),
        ("no_move_loss", both(legal, loss)),
    ]);
    words
}

/// The draw-rule claims of a paragraph that contradict its game's rules: a sentence (or clause)
/// that names a rule (no legal move, repetition) and an end that rule does not have (a draw
/// where the side loses, a loss where it draws). Thai writes no sentence marks, so its
/// paragraphs are checked only by `fact_words`.
fn wrong_claims(language: &str, lower: &str, facts: tafl_web::summaries::Facts) -> Vec<String> {
    if language == "th" {
        return Vec::new();
    }
    let words = fact_words(language);
    let spellings = |fact: &str| -> Vec<&'static str> {
        words
            .iter()
            .find(|(f, _)| *f == fact)
            .map(|(_, s)| s.to_vec())
            .unwrap_or_default()
    };
    // The other end of each rule: what the paragraph must not say of it.
    let mut wrong = Vec::new();
    let no_move_wrong = if facts.no_move == "draw" {
        "no_move_loss"
    } else {
        "no_move_draw"
    };
    let repetition_wrong: &[&str] = match facts.repetition {
        "draw" => &["repetition_loss"],
        "maker_loses" | "attackers_win" => &["repetition_draw"],
        // A forbidden repetition's sentence may also say who loses without a move.
        _ => &["repetition_draw"],
    };
    for clause in lower.split(['.', ';', '؛']) {
        for fact in std::iter::once(no_move_wrong).chain(repetition_wrong.iter().copied()) {
            if spellings(fact).iter().any(|w| says(clause, w)) {
                wrong.push(format!("{fact} in {clause:?}"));
            }
        }
    }
    wrong
}

#[test]
fn a_paragraph_that_misstates_a_draw_rule_is_caught() {
    use tafl_web::summaries::SUMMARIES;
    let tablut = SUMMARIES[0].facts;
    let copenhagen = SUMMARIES
        .iter()
        .find(|s| s.key == "copenhagen")
        .unwrap()
        .facts;
    let tawlbwrdd_says = "a side to move with no legal move loses. a repeated position draws.";
    assert_eq!(wrong_claims("en", tawlbwrdd_says, tablut).len(), 1);
    let copenhagen_says = "a third repetition draws. a side with no legal move loses.";
    assert_eq!(wrong_claims("en", copenhagen_says, copenhagen).len(), 1);
    assert!(wrong_claims("en", "a side with no legal move loses.", copenhagen).is_empty());
    let russian = "сторона без законного хода проигрывает.";
    assert_eq!(wrong_claims("ru", russian, tablut).len(), 1);
}

/// Whether `text` says a fact's spelling: one word, or two (`a\0b`) both present.
fn says(text: &str, spelling: &str) -> bool {
    spelling.split('\0').all(|part| text.contains(part))
}

fn basic_fact_words(language: &str) -> [(&'static str, &'static [&'static str]); 5] {
    match language {
        "en" => [
            ("edge", &["edge"]),
            ("corner", &["corner"]),
            ("castle", &["castle", "throne"]),
            ("two", &["two"]),
            ("first", &["first"]),
        ],
        "ar" => [
            ("edge", &["حاف"]),
            ("corner", &["زاوي", "زوايا"]),
            ("castle", &["قلعة", "القلعة", "عرش", "العرش"]),
            ("two", &["اثن"]),
            ("first", &["أولًا", "يبدأ"]),
        ],
        "th" => [
            ("edge", &["ขอบ"]),
            ("corner", &["มุม"]),
            ("castle", &["ปราสาท", "บัลลังก์"]),
            ("two", &["สอง"]),
            ("first", &["ก่อน"]),
        ],
        "ru" => [
            ("edge", &["кра"]),
            ("corner", &["угол", "угл"]),
            ("castle", &["замок", "замк", "трон"]),
            ("two", &["два", "двум", "двух"]),
            ("first", &["перв"]),
        ],
        "ro" => [
            ("edge", &["margin"]),
            ("corner", &["colț"]),
            ("castle", &["castel", "tron"]),
            ("two", &["doi", "două"]),
            ("first", &["prim"]),
        ],
        other => panic!("no fact words for {other}: add them"),
    }
}

#[test]
fn every_games_paragraph_in_every_language_states_the_rules_the_library_plays() {
    use tafl_engine::{AnyVariant, Side};
    use tafl_web::summaries::{SUMMARIES, facts};
    let keys: Vec<&str> = SUMMARIES.iter().map(|s| s.key).collect();
    assert_eq!(
        keys,
        AnyVariant::names().collect::<Vec<_>>(),
        "one summary for each built-in game, in the library's order"
    );
    for summary in &SUMMARIES {
        let variant = AnyVariant::by_name(summary.key).expect("a built-in game");
        assert_eq!(
            summary.facts,
            facts(&variant),
            "{}: the facts its paragraph states are the library's rules",
            summary.key
        );
    }
    let languages = languages();
    for (name, words) in &languages {
        let mut names = BTreeSet::new();
        for summary in &SUMMARIES {
            let key = summary.key.replace('-', "_");
            let title = &words[&format!("name_{key}")];
            let text = &words[&format!("sum_{key}")];
            if name == "en" {
                assert_eq!(title, summary.name, "en.name_{key} is the server's name");
                assert_eq!(text, summary.text, "en.sum_{key} is the server's paragraph");
            }
            assert!(
                names.insert(title.clone()),
                "{name}: two games are called {title:?}"
            );
            let facts = summary.facts;
            let mut stated = vec![facts.escape];
            if facts.castle {
                stated.push("castle");
            }
            if facts.king_by_two {
                stated.push("two");
            }
            if facts.first == Side::Defenders {
                stated.push("first");
            }
            // The draw rules: the paragraph names the rule and says what it does.
            stated.push(match facts.repetition {
                "draw" => "repetition_draw",
                "maker_loses" => "repetition_loss",
                "attackers_win" => "repetition_attackers",
                "forbidden" => "repetition_forbidden",
                other => panic!(
                    "{}: no words for a repetition that does {other}",
                    summary.key
                ),
            });
            stated.push(match facts.no_move {
                "draw" => "no_move_draw",
                _ => "no_move_loss",
            });
            let lower = text.to_lowercase();
            let wrong = wrong_claims(name, &lower, summary.facts);
            assert!(
                wrong.is_empty(),
                "{name}.sum_{key} says what the library does not play: {wrong:?}: {text}"
            );
            for fact in stated {
                let (_, spellings) = fact_words(name)
                    .into_iter()
                    .find(|(f, _)| *f == fact)
                    .expect("every fact has words");
                assert!(
                    spellings.iter().any(|w| says(&lower, w)),
                    "{name}.sum_{key} does not say its fact {fact:?} ({spellings:?}): {text}"
                );
            }
        }
    }
}
