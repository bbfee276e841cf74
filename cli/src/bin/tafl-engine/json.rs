//! A small, strict JSON reader (RFC 8259), enough for the messages of the Tablut Challenge's
//! server and of hnefatafl.org's, and the string writer for ours.
//!
//! The reader takes a whole document and gives a [`Value`] or a [`JsonError`] that says where
//! (byte offset) and what was wrong. It never panics, whatever the input: nesting is limited to
//! [`MAX_DEPTH`] (so a document of ten thousand `[` cannot overflow the stack), and every index
//! is checked. Numbers are checked against JSON's grammar and kept as their text (whoever reads
//! one parses it: hnefatafl.org's game ids are 128-bit).

use std::fmt::Write as _;

use thiserror::Error;

/// How deep arrays and objects may nest. The server's state is three levels deep (an object, the
/// board, its rows); 32 leaves room for any message of a later server and keeps the recursion
/// shallow.
pub const MAX_DEPTH: usize = 32;

/// A JSON value. Objects keep their members in document order, duplicates included: whoever
/// reads a field decides what a duplicate means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// `null`
    Null,
    /// `true` or `false`
    Bool(bool),
    /// A number, as written (checked against JSON's grammar).
    Number(String),
    /// A string, escapes resolved.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object's members, in order.
    Object(Vec<(String, Value)>),
}

impl Value {
    /// What kind of value this is, for error messages: "an object", "a string", ...
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(text) => Some(text),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The members, if this is an object.
    pub fn as_object(&self) -> Option<&[(String, Value)]> {
        match self {
            Value::Object(members) => Some(members),
            _ => None,
        }
    }
}

/// Why a document is not JSON, and where.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad JSON at byte {offset}: {kind}")]
pub struct JsonError {
    /// Byte offset in the document where the problem was found.
    pub offset: usize,
    /// What the problem is.
    pub kind: JsonErrorKind,
}

/// What is wrong with a document.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum JsonErrorKind {
    /// The document ended inside a value (or had none).
    #[error("unexpected end of the document")]
    UnexpectedEnd,
    /// A character that cannot come here.
    #[error("unexpected {0}")]
    Unexpected(String),
    /// Something after the document's one value.
    #[error("something after the value: {0}")]
    TrailingContent(String),
    /// Arrays and objects nested deeper than [`MAX_DEPTH`].
    #[error("nested deeper than {MAX_DEPTH} arrays and objects")]
    TooDeep,
    /// A backslash followed by something that is not an escape.
    #[error("unknown escape \\{0} in a string")]
    BadEscape(String),
    /// `\u` not followed by four hexadecimal digits.
    #[error("\\u must be followed by four hexadecimal digits")]
    BadUnicodeEscape,
    /// A `\u` escape of half a UTF-16 surrogate pair, without its other half.
    #[error("\\u{0:04X} is half a surrogate pair, without its other half")]
    LoneSurrogate(u32),
    /// A raw control character (below U+0020) inside a string: JSON wants it escaped.
    #[error("control character U+{0:04X} inside a string (it must be escaped)")]
    ControlCharacter(u32),
    /// A number that does not follow JSON's grammar (`01`, `1.`, `-`, `1e`).
    #[error("malformed number")]
    BadNumber,
}

/// Reads one JSON document: a value with optional white space around it, nothing else.
pub fn parse(text: &str) -> Result<Value, JsonError> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    reader.skip_space();
    let value = reader.value(0)?;
    reader.skip_space();
    if reader.at < reader.bytes.len() {
        return Err(reader.error(JsonErrorKind::TrailingContent(reader.describe_here())));
    }
    Ok(value)
}

/// `text` as a JSON string, quotes included: `"`, `\` and control characters escaped, everything
/// else (non-ASCII too) as it is, in UTF-8.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if u32::from(c) < 0x20 || c == '\u{7f}' => {
                // Writing to a String cannot fail.
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn error(&self, kind: JsonErrorKind) -> JsonError {
        JsonError {
            offset: self.at,
            kind,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// The character at the reading point, quoted for a message ("'x'", "end of the document").
    fn describe_here(&self) -> String {
        match self
            .text
            .get(self.at..)
            .and_then(|rest| rest.chars().next())
        {
            Some(c) if c.is_ascii_graphic() => format!("'{c}'"),
            Some(c) => format!("character U+{:04X}", u32::from(c)),
            None => "end of the document".to_string(),
        }
    }

    fn unexpected(&self) -> JsonError {
        if self.at >= self.bytes.len() {
            self.error(JsonErrorKind::UnexpectedEnd)
        } else {
            self.error(JsonErrorKind::Unexpected(self.describe_here()))
        }
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// Reads the value at the reading point (no space before it); `depth` is how many arrays and
    /// objects enclose it.
    fn value(&mut self, depth: usize) -> Result<Value, JsonError> {
        match self.peek() {
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => self.string().map(Value::String),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.unexpected()),
        }
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, JsonError> {
        for expected in word.bytes() {
            if self.peek() != Some(expected) {
                return Err(self.unexpected());
            }
            self.at += 1;
        }
        Ok(value)
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
        self.at - start
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let bad = |reader: &Reader<'_>| reader.error(JsonErrorKind::BadNumber);
        match self.peek() {
            Some(b'0') => {
                self.at += 1;
                if let Some(b'0'..=b'9') = self.peek() {
                    return Err(bad(self));
                }
            }
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(bad(self)),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if self.digits() == 0 {
                return Err(bad(self));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(bad(self));
            }
        }
        // The number is ASCII: the slice is on character boundaries.
        Ok(Value::Number(
            self.text
                .get(start..self.at)
                .unwrap_or_default()
                .to_string(),
        ))
    }

    /// Four hexadecimal digits after `\u`.
    fn hex4(&mut self) -> Result<u32, JsonError> {
        let digits = self
            .bytes
            .get(self.at..self.at + 4)
            .ok_or_else(|| self.error(JsonErrorKind::BadUnicodeEscape))?;
        let mut code = 0;
        for &digit in digits {
            let value = (digit as char)
                .to_digit(16)
                .ok_or_else(|| self.error(JsonErrorKind::BadUnicodeEscape))?;
            code = code * 16 + value;
        }
        self.at += 4;
        Ok(code)
    }

    /// A string, from its opening quote; the reading point ends after the closing one.
    fn string(&mut self) -> Result<String, JsonError> {
        self.at += 1;
        let mut out = String::new();
        loop {
            // The plain run up to the next quote, backslash or control character.
            let start = self.at;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            // Both ends are at ASCII bytes or the end: character boundaries of the text.
            out.push_str(self.text.get(start..self.at).unwrap_or_default());
            match self.peek() {
                None => return Err(self.error(JsonErrorKind::UnexpectedEnd)),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escaped = self.escape()?;
                    out.push(escaped);
                }
                Some(control) => {
                    return Err(self.error(JsonErrorKind::ControlCharacter(u32::from(control))));
                }
            }
        }
    }

    /// The character an escape stands for, the reading point just after its backslash.
    fn escape(&mut self) -> Result<char, JsonError> {
        let Some(letter) = self.peek() else {
            return Err(self.error(JsonErrorKind::UnexpectedEnd));
        };
        let simple = match letter {
            b'"' => Some('"'),
            b'\\' => Some('\\'),
            b'/' => Some('/'),
            b'b' => Some('\u{8}'),
            b'f' => Some('\u{c}'),
            b'n' => Some('\n'),
            b'r' => Some('\r'),
            b't' => Some('\t'),
            _ => None,
        };
        if let Some(c) = simple {
            self.at += 1;
            return Ok(c);
        }
        if letter != b'u' {
            let shown = self.describe_here();
            return Err(self.error(JsonErrorKind::BadEscape(shown)));
        }
        self.at += 1;
        let escape_start = self.at - 2;
        let first = self.hex4()?;
        let code = match first {
            0xD800..=0xDBFF => {
                // A high surrogate: its low half must follow as another \u escape.
                let low_start = self.at;
                let low = if self.bytes.get(self.at..self.at + 2) == Some(&b"\\u"[..]) {
                    self.at += 2;
                    Some(self.hex4()?)
                } else {
                    None
                };
                match low {
                    Some(low @ 0xDC00..=0xDFFF) => {
                        0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00)
                    }
                    _ => {
                        self.at = low_start;
                        return Err(JsonError {
                            offset: escape_start,
                            kind: JsonErrorKind::LoneSurrogate(first),
                        });
                    }
                }
            }
            0xDC00..=0xDFFF => {
                return Err(JsonError {
                    offset: escape_start,
                    kind: JsonErrorKind::LoneSurrogate(first),
                });
            }
            code => code,
        };
        // Every code outside the surrogates is a char.
        char::from_u32(code).ok_or(JsonError {
            offset: escape_start,
            kind: JsonErrorKind::LoneSurrogate(code),
        })
    }

    fn array(&mut self, depth: usize) -> Result<Value, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error(JsonErrorKind::TooDeep));
        }
        self.at += 1;
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.skip_space();
            items.push(self.value(depth)?);
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.unexpected()),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error(JsonErrorKind::TooDeep));
        }
        self.at += 1;
        let mut members = Vec::new();
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Value::Object(members));
        }
        loop {
            self.skip_space();
            if self.peek() != Some(b'"') {
                return Err(self.unexpected());
            }
            let key = self.string()?;
            self.skip_space();
            if self.peek() != Some(b':') {
                return Err(self.unexpected());
            }
            self.at += 1;
            self.skip_space();
            let value = self.value(depth)?;
            members.push((key, value));
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Value::Object(members));
                }
                _ => return Err(self.unexpected()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn string(text: &str) -> Value {
        Value::String(text.to_string())
    }

    fn kind_of(text: &str) -> JsonErrorKind {
        parse(text).expect_err("not JSON").kind
    }

    #[test]
    fn reads_the_shape_of_a_server_state() {
        let value = parse(r#" {"board":[["EMPTY","KING"],[]],"turn":"WHITE"} "#).unwrap();
        assert_eq!(
            value,
            Value::Object(vec![
                (
                    "board".to_string(),
                    Value::Array(vec![
                        Value::Array(vec![string("EMPTY"), string("KING")]),
                        Value::Array(vec![]),
                    ])
                ),
                ("turn".to_string(), string("WHITE")),
            ])
        );
    }

    #[test]
    fn reads_literals_numbers_and_white_space() {
        assert_eq!(
            parse("[true,false,null, -0.5e+3 ,0,12]\r\n\t").unwrap(),
            Value::Array(vec![
                Value::Bool(true),
                Value::Bool(false),
                Value::Null,
                Value::Number("-0.5e+3".to_string()),
                Value::Number("0".to_string()),
                Value::Number("12".to_string()),
            ])
        );
        assert_eq!(parse("{}").unwrap(), Value::Object(vec![]));
    }

    #[test]
    fn resolves_every_escape() {
        assert_eq!(
            parse(r#""q\" b\\ s\/ \b\f\n\r\t""#).unwrap(),
            string("q\" b\\ s/ \u{8}\u{c}\n\r\t")
        );
        assert_eq!(parse(r#""\u0041\u00e9\u20AC""#).unwrap(), string("Aé€"));
        // A surrogate pair is one character.
        assert_eq!(parse(r#""\ud83d\ude00""#).unwrap(), string("😀"));
        // Non-ASCII as it is.
        assert_eq!(parse("\"é😀\"").unwrap(), string("é😀"));
    }

    #[test]
    fn refuses_bad_escapes_and_raw_control_characters() {
        assert_eq!(
            kind_of(r#""\x""#),
            JsonErrorKind::BadEscape("'x'".to_string())
        );
        assert_eq!(kind_of(r#""\u12""#), JsonErrorKind::BadUnicodeEscape);
        assert_eq!(kind_of(r#""\u12G4""#), JsonErrorKind::BadUnicodeEscape);
        assert_eq!(kind_of(r#""\ud83d""#), JsonErrorKind::LoneSurrogate(0xD83D));
        assert_eq!(
            kind_of(r#""\ud83d\u0041""#),
            JsonErrorKind::LoneSurrogate(0xD83D)
        );
        assert_eq!(kind_of(r#""\ude00""#), JsonErrorKind::LoneSurrogate(0xDE00));
        assert_eq!(kind_of("\"a\nb\""), JsonErrorKind::ControlCharacter(0x0A));
        assert_eq!(kind_of(r#""abc"#), JsonErrorKind::UnexpectedEnd);
        assert_eq!(kind_of(r#""abc\"#), JsonErrorKind::UnexpectedEnd);
    }

    #[test]
    fn refuses_what_strict_json_refuses() {
        for text in [
            "",
            " ",
            "[1,]",
            "[,1]",
            "{\"a\":1,}",
            "{a:1}",
            "{'a':1}",
            "[1 2]",
            "{\"a\" 1}",
            "tru",
            "nul",
            "True",
            "01",
            "1.",
            "-",
            "1e",
            ".5",
            "+1",
            "[",
            "{",
            "\"a\":1",
        ] {
            assert!(parse(text).is_err(), "{text:?} is not JSON");
        }
        assert_eq!(
            kind_of("{} x"),
            JsonErrorKind::TrailingContent("'x'".to_string())
        );
        assert_eq!(parse("[1,]").unwrap_err().offset, 3);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let deep = "[".repeat(100_000);
        assert_eq!(kind_of(&deep), JsonErrorKind::TooDeep);
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
        let too_deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert_eq!(kind_of(&too_deep), JsonErrorKind::TooDeep);
    }

    #[test]
    fn quote_escapes_quotes_backslashes_and_control_characters() {
        assert_eq!(quote("tafl-engine"), r#""tafl-engine""#);
        assert_eq!(quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(quote("\n\r\t\u{8}\u{c}"), r#""\n\r\t\b\f""#);
        assert_eq!(quote("\u{1}\u{7f}"), r#""\u0001\u007f""#);
        assert_eq!(quote("é😀"), "\"é😀\"");
    }

    proptest! {
        #[test]
        fn any_text_is_read_or_refused_without_panicking(text in any::<String>()) {
            let _ = parse(&text);
        }

        #[test]
        fn text_made_of_json_characters_never_panics(
            text in r#"[\[\]{}",:\\/ u0-9a-fA-FeE.+\-tuflnrs\u{e9}\u{1F600}]{0,80}"#
        ) {
            let _ = parse(&text);
        }

        #[test]
        fn quoted_text_reads_back(text in any::<String>()) {
            prop_assert_eq!(parse(&quote(&text)), Ok(Value::String(text)));
        }
    }
}
