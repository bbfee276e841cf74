//! The layers of ARCHITECTURE.md hold: every `crate::` and `super::` path in the library's `src/`
//! (comments and `#[cfg(test)]` items aside; `src/bin/` and the crate root `src/lib.rs` left out)
//! names a module of a lower layer than the file's own, or the file's own module. A file or a
//! module missing from the table, an import of the same layer or a higher one, and a table row
//! naming no module of `src/` fail, each named with its file and line.
//!
//! A table module covers its submodules unless they have rows of their own (`position` covers
//! `position/captures`, `search/eval` is a row); files of one module may use each other. Paths to
//! the crate root's re-exports (`crate::Wide`) count as paths to the module they come from.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// The layer table: module path (`search/eval`) to layer number.
type Table = BTreeMap<String, u32>;

/// The rows of the table under `## Layers` in ARCHITECTURE.md: `| 3 | `bitboard`, `moves` | ... |`.
fn parse_table(architecture: &str) -> Result<Table, String> {
    parse_table_under(architecture, "Layers")
}

/// The rows of the table under the section `## {title}` of ARCHITECTURE.md.
fn parse_table_under(architecture: &str, title: &str) -> Result<Table, String> {
    let section = architecture
        .split("\n## ")
        .find(|section| {
            section
                .lines()
                .next()
                .is_some_and(|line| line.trim() == title)
        })
        .ok_or(format!("ARCHITECTURE.md has no `## {title}` section"))?;
    let mut table = Table::new();
    for line in section.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // `| n | modules | ... |` splits into "", n, modules, ...
        let (Some(number), Some(modules)) = (cells.get(1), cells.get(2)) else {
            continue;
        };
        let Ok(layer) = number.parse::<u32>() else {
            continue; // the header and its rule
        };
        for module in modules.split('`').skip(1).step_by(2) {
            if table.insert(module.to_string(), layer).is_some() {
                return Err(format!("`{module}` is in the layer table twice"));
            }
        }
    }
    if table.is_empty() {
        return Err(format!(
            "the `## {title}` section of ARCHITECTURE.md has no table rows"
        ));
    }
    Ok(table)
}

/// The module of a source file, as a path: `src/search/mod.rs` is `search`, `src/position/ends.rs`
/// `position/ends`.
fn module_of(relative: &str) -> String {
    let path = relative.trim_end_matches(".rs");
    path.strip_suffix("/mod").unwrap_or(path).to_string()
}

/// The table row a module belongs to: the longest row that is the module or one of its ancestors.
fn row_of<'t>(table: &'t Table, module: &str) -> Option<(&'t str, u32)> {
    let segments: Vec<&str> = module.split('/').collect();
    (1..=segments.len()).rev().find_map(|length| {
        let prefix = segments[..length].join("/");
        table
            .get_key_value(&prefix)
            .map(|(row, &layer)| (row.as_str(), layer))
    })
}

/// The crate root's `pub use module::{A, B};` lines: each re-exported name and its module.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for statement in lib.split(';') {
        // A re-export may carry attributes (`#[doc(hidden)]`) and comments on the lines before.
        let statement = statement
            .lines()
            .map(str::trim)
            .filter(|line| !line.starts_with("#[") && !line.starts_with("//"))
            .collect::<Vec<_>>()
            .join(" ");
        let Some(rest) = statement.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, items)) = rest.split_once("::") else {
            continue;
        };
        let items = items.trim_start_matches('{').trim_end_matches('}');
        for item in items
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
        {
            names.insert(item.to_string(), module.to_string());
        }
    }
    names
}

/// The lines of `text` that are compiled outside tests, with their numbers: each `#[cfg(test)]`
/// item (a `mod tests { ... }`, a `use`, a function) is skipped, and comments are cut off.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut code = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        if line.trim() == "#[cfg(test)]" {
            // Skip the item: to its `;` if it has no body, else to the brace that closes it.
            index += 1;
            let mut depth = 0i32;
            let mut opened = false;
            while let Some(item_line) = lines.get(index) {
                index += 1;
                depth += item_line.matches('{').count() as i32;
                depth -= item_line.matches('}').count() as i32;
                opened |= item_line.contains('{');
                if (opened && depth <= 0) || (!opened && item_line.trim_end().ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        let without_comment = line.find("//").map_or(line, |at| &line[..at]);
        code.push((index + 1, without_comment.to_string()));
        index += 1;
    }
    code
}

/// Every `crate::a::b` and `super::c` path on a line, as the segments after `crate` or `super`
/// (`super` kept, so the caller resolves it): `use crate::board::{GridBase, Narrow}` gives
/// `["crate", "board"]`.
fn paths_on(line: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let bytes = line.as_bytes();
    for start in 0..line.len() {
        let rest = &line[start..];
        let starts_path = (rest.starts_with("crate::") || rest.starts_with("super::"))
            && (start == 0
                || !(bytes[start - 1].is_ascii_alphanumeric()
                    || bytes[start - 1] == b'_'
                    || bytes[start - 1] == b':'));
        if !starts_path {
            continue;
        }
        let mut segments = Vec::new();
        let mut group = None;
        for (at, segment) in rest.split("::").enumerate() {
            if segment.starts_with('{') && at > 0 {
                // `crate::{a, b::c}`: one path per item, when the group closes on this line
                // (an open group leaves the bare prefix, which names no module: reported).
                let after = rest.split("::").skip(at).collect::<Vec<_>>().join("::");
                let mut depth = 0;
                group = after.char_indices().find_map(|(at, c)| {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    (depth == 0).then(|| after[1..at].to_string())
                });
                break;
            }
            let ident: String = segment
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let whole = ident.len() == segment.len();
            if !ident.is_empty() {
                segments.push(ident);
            }
            if !whole {
                break;
            }
        }
        match group {
            Some(items) => group_paths(&segments, &items, &mut paths),
            None => paths.push(segments),
        }
    }
    paths
}

/// The paths of a group's `items` (`a, b::c, d::{self as e, f}`, without the outer braces) under
/// `prefix`, nested groups included; `self` names the prefix itself.
fn group_paths(prefix: &[String], items: &str, paths: &mut Vec<Vec<String>>) {
    let mut depth = 0;
    let mut start = 0;
    let mut pieces = Vec::new();
    for (at, c) in items.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                pieces.push(&items[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    pieces.push(&items[start..]);
    for piece in pieces.into_iter().map(str::trim).filter(|p| !p.is_empty()) {
        let (head, inner) = match piece.split_once("::{") {
            Some((head, inner)) => (head, Some(inner.strip_suffix('}').unwrap_or(inner))),
            None => (piece, None),
        };
        let mut path = prefix.to_vec();
        let head = head.split(" as ").next().unwrap_or(head);
        path.extend(
            head.split("::")
                .map(str::trim)
                .filter(|name| *name != "self" && !name.is_empty())
                .map(String::from),
        );
        match inner {
            Some(inner) => group_paths(&path, inner, paths),
            None => paths.push(path),
        }
    }
}

/// The module a path names, as the longest prefix of its segments that is a module of `src/`;
/// the crate root's re-exports count as their module's. `None` if it names none.
fn target_of(
    path: &[String],
    file_module: &str,
    modules: &[String],
    reexports: &BTreeMap<String, String>,
) -> Option<String> {
    let mut base: Vec<String> = file_module.split('/').map(String::from).collect();
    let mut segments = path;
    match segments.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            segments = &segments[1..];
        }
        _ => {
            while segments.first().map(String::as_str) == Some("super") {
                base.pop()?;
                segments = &segments[1..];
            }
        }
    }
    let full: Vec<String> = base.into_iter().chain(segments.iter().cloned()).collect();
    for length in (1..=full.len()).rev() {
        let prefix = full[..length].join("/");
        if modules.contains(&prefix) {
            return Some(prefix);
        }
    }
    full.first().and_then(|name| reexports.get(name)).cloned()
}

/// Every import of `files` (relative path under `src/`, text) that runs against the table.
fn violations(table: &Table, files: &[(String, String)], lib: &str) -> Vec<String> {
    violations_under(table, files, lib, "src/", false)
}

/// [`violations`] for the files of the folder `folder` (`python/src/`); with `root_items`, a
/// path to an item of the crate root that is no module (`crate::guard`) is allowed: the root
/// file is left out of the table.
fn violations_under(
    table: &Table,
    files: &[(String, String)],
    lib: &str,
    folder: &str,
    root_items: bool,
) -> Vec<String> {
    let modules: Vec<String> = files.iter().map(|(path, _)| module_of(path)).collect();
    let reexports = root_reexports(lib);
    let mut found = Vec::new();
    for row in table.keys() {
        if !modules.iter().any(|module| module == row) {
            found.push(format!(
                "ARCHITECTURE.md: the layer table names `{row}`, which is no module of {folder}"
            ));
        }
    }
    for (path, text) in files {
        let module = module_of(path);
        let Some((row, layer)) = row_of(table, &module) else {
            found.push(format!(
                "{folder}{path}: module `{module}` is missing from the layer table"
            ));
            continue;
        };
        for (number, line) in code_lines(text) {
            for segments in paths_on(&line) {
                let shown = segments.join("::");
                let Some(target) = target_of(&segments, &module, &modules, &reexports) else {
                    let root_item = segments.len() == 2 && segments[0] == "crate";
                    if !(root_items && root_item) {
                        found.push(format!(
                            "{folder}{path}:{number}: `{shown}` names no module of {folder}"
                        ));
                    }
                    continue;
                };
                let Some((target_row, target_layer)) = row_of(table, &target) else {
                    found.push(format!(
                        "{folder}{path}:{number}: `{shown}` imports `{target}`, which is missing from the layer table"
                    ));
                    continue;
                };
                if target_row != row && target_layer >= layer {
                    found.push(format!(
                        "{folder}{path}:{number}: `{shown}`: `{row}` (layer {layer}) imports `{target_row}` (layer {target_layer}), {}",
                        if target_layer == layer { "of its own layer" } else { "a higher layer" }
                    ));
                }
            }
        }
    }
    found
}

/// The library's source files (relative to `src/`, `/`-separated), `src/bin/` and `lib.rs` aside.
fn library_files(src: &Path) -> Vec<(String, String)> {
    fn walk(dir: &Path, src: &Path, files: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let relative = path
                .strip_prefix(src)
                .expect("under src/")
                .to_string_lossy()
                .replace('\\', "/");
            if path.is_dir() {
                if relative != "bin" {
                    walk(&path, src, files);
                }
            } else if relative.ends_with(".rs") && relative != "lib.rs" {
                let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{relative}: {e}"));
                files.push((relative, text));
            }
        }
    }
    let mut files = Vec::new();
    walk(src, src, &mut files);
    files
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_file_of_src_imports_a_module_of_its_own_or_a_higher_layer() {
    let architecture = fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let table = parse_table(&architecture).unwrap_or_else(|e| panic!("{e}"));
    let files = library_files(&root().join("src"));
    assert!(files.len() > 30, "only {} files under src/", files.len());
    let lib = fs::read_to_string(root().join("src/lib.rs")).expect("src/lib.rs");
    let found = violations(&table, &files, &lib);
    assert!(
        found.is_empty(),
        "{} imports against the layers of ARCHITECTURE.md:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_python_package_s_modules_import_in_one_direction() {
    // python/src: the table under `## Python layers`; its crate root (lib.rs) registers the
    // classes and holds helpers every module may call (`guard`, `lock`).
    let architecture = fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let table = parse_table_under(&architecture, "Python layers").unwrap_or_else(|e| panic!("{e}"));
    let files = library_files(&root().join("python/src"));
    assert!(
        files.len() > 10,
        "only {} files under python/src/",
        files.len()
    );
    let lib = fs::read_to_string(root().join("python/src/lib.rs")).expect("python/src/lib.rs");
    let found = violations_under(&table, &files, &lib, "python/src/", true);
    assert!(
        found.is_empty(),
        "{} imports against the Python layers of ARCHITECTURE.md:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_checker_allows_crate_root_items_only_when_asked() {
    let (table, mut files, lib) = sample();
    files[1].1.push_str("fn f() { crate::guard(|| 1) }\n");
    assert_eq!(
        violations(&table, &files, lib),
        ["src/position.rs:4: `crate::guard` names no module of src/"]
    );
    assert_eq!(
        violations_under(&table, &files, lib, "src/", true),
        Vec::<String>::new()
    );
}

/// A small table and crate for the checker's own tests.
fn sample() -> (Table, Vec<(String, String)>, &'static str) {
    let table = parse_table(
        "# A\n\n## Layers\n\n| layer | modules |\n|---|---|\n| 1 | `board` |\n| 2 | `position`, `notation` |\n| 3 | `search/eval` |\n| 4 | `search` |\n\n## Next\n| 9 | `ignored` |\n",
    )
    .expect("the sample table");
    let files = vec![
        ("board.rs".to_string(), "//! Uses crate::search in a comment only.\n".to_string()),
        (
            "position.rs".to_string(),
            "use crate::board::{GridBase, Narrow};\nuse crate::GridBase;\nmod captures;\n".to_string(),
        ),
        ("position/captures.rs".to_string(), "use super::Position;\n".to_string()),
        ("notation.rs".to_string(), "fn f() { crate::board::grid::to_u128(x) }\n".to_string()),
        ("search/mod.rs".to_string(), "mod eval;\nuse crate::position::Position;\n".to_string()),
        (
            "search/eval.rs".to_string(),
            "use crate::position::Position;\n#[cfg(test)]\nmod tests {\n    use crate::search::Searcher;\n}\n".to_string(),
        ),
    ];
    (
        table,
        files,
        "pub use board::{GridBase, Narrow};\npub use position::Position;\n",
    )
}

#[test]
fn the_checker_passes_imports_down_the_layers() {
    let (table, files, lib) = sample();
    assert_eq!(violations(&table, &files, lib), Vec::<String>::new());
    assert_eq!(
        table.get("ignored"),
        None,
        "rows of later sections are not layers"
    );
}

#[test]
fn the_checker_names_file_and_line_of_an_upward_import() {
    let (table, mut files, lib) = sample();
    files[0].1.push_str("use crate::search::eval::evaluate;\n");
    assert_eq!(
        violations(&table, &files, lib),
        [
            "src/board.rs:2: `crate::search::eval::evaluate`: `board` (layer 1) imports `search/eval` (layer 3), a higher layer"
        ]
    );
}

#[test]
fn the_checker_reads_each_item_of_a_group_import() {
    let (table, mut files, lib) = sample();
    files[1]
        .1
        .push_str("use crate::{board::GridBase, search::eval::{self as e}, notation};\n");
    assert_eq!(
        violations(&table, &files, lib),
        [
            "src/position.rs:4: `crate::search::eval`: `position` (layer 2) imports `search/eval` (layer 3), a higher layer",
            "src/position.rs:4: `crate::notation`: `position` (layer 2) imports `notation` (layer 2), of its own layer",
        ]
    );
}

#[test]
fn the_checker_refuses_imports_within_a_layer_and_of_a_parent_listed_above() {
    let (table, mut files, lib) = sample();
    files[1]
        .1
        .push_str("fn f() -> crate::notation::Record { todo!() }\n");
    files[5].1 = "use super::Searcher;\n".to_string();
    assert_eq!(
        violations(&table, &files, lib),
        [
            "src/position.rs:4: `crate::notation::Record`: `position` (layer 2) imports `notation` (layer 2), of its own layer",
            "src/search/eval.rs:1: `super::Searcher`: `search/eval` (layer 3) imports `search` (layer 4), a higher layer",
        ]
    );
}

#[test]
fn the_checker_reports_modules_missing_from_the_table_and_rows_of_no_module() {
    let (mut table, mut files, lib) = sample();
    table.insert("gone".to_string(), 2);
    files.push((
        "perft.rs".to_string(),
        "use crate::board::GridBase;\n".to_string(),
    ));
    files[1].1.push_str("use crate::Nowhere;\n");
    assert_eq!(
        violations(&table, &files, lib),
        [
            "ARCHITECTURE.md: the layer table names `gone`, which is no module of src/",
            "src/position.rs:4: `crate::Nowhere` names no module of src/",
            "src/perft.rs: module `perft` is missing from the layer table",
        ]
    );
}
