//! The block format of the test data files (tests/data/perft.txt, opentafl-variants.txt,
//! ashton-perft.txt, tactics.txt): `key value` lines, `#` comments and blank lines skipped, each
//! block starting with an `id` line. One reader of the format; each file's reader says what a
//! block holds.
#![allow(dead_code)]

/// The blocks of `text`: `start` makes a block from its `id`, `field` fills it from each other
/// line's key and value. `what` names the file's blocks in the messages of a malformed file.
pub fn keyed_blocks<T>(
    text: &str,
    what: &str,
    start: impl Fn(&str) -> T,
    mut field: impl FnMut(&mut T, &str, &str),
) -> Vec<T> {
    let mut blocks = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("{what} lines are `key value`: {line}"));
        if key == "id" {
            blocks.push(start(value));
            continue;
        }
        let block = blocks
            .last_mut()
            .unwrap_or_else(|| panic!("a {what} block starts with `id`"));
        field(block, key, value);
    }
    blocks
}
