//! The repository's Markdown names only files the repository has: every relative link resolves
//! (to a file, and to a heading when it has a `#anchor`), and every file path or file name
//! written in the text is a file of the repository.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Files of other programs that the documents name on purpose (OpenTafl's, and the build's).
const OTHER_PROGRAMS_FILES: &[&str] = &[
    // OpenTafl's start scripts and program, named in the install steps.
    "OpenTafl.sh",
    "OpenTafl64.bat",
    "OpenTafl32.bat",
    "OpenTafl.command",
    // The engine program on Windows, built by cargo.
    "tafl-engine.exe",
    // A self-play run's manifest, written by `python -m tafl_engine.selfplay` (docs/learning.md).
    "manifest.json",
];

/// Folders of OpenTafl's (paths in them are named in the install steps), and the build's output.
// `taflzero/`, `hnefatafl-copenhagen/`: the other programs' sources, cited in docs/opponents.md.
const OTHER_PROGRAMS_FOLDERS: &[&str] = &[
    "engines/",
    "unbuilt/",
    "target/",
    "taflzero/",
    "hnefatafl-copenhagen/",
];

/// Extensions of the files a document may name.
const EXTENSIONS: &[&str] = &[
    ".md", ".rs", ".toml", ".sh", ".ini", ".conf", ".txt", ".py", ".json", ".lock", ".bat",
];

/// Folders that hold no document of the repository's own.
const SKIPPED_FOLDERS: &[&str] = &["target", ".git", "node_modules"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn walk(folder: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !SKIPPED_FOLDERS.contains(&name.as_str()) {
                walk(&path, files);
            }
        } else {
            files.push(path);
        }
    }
}

/// Every file of the repository (outside build output), and the Markdown files among them.
fn repository_files() -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut files = Vec::new();
    walk(&root(), &mut files);
    files.sort();
    let markdown = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .cloned()
        .collect();
    (files, markdown)
}

/// The anchors GitHub gives a document's headings: lower case, spaces to `-`, punctuation gone.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut in_code = false;
    let mut found = BTreeSet::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        found.insert(slug);
    }
    found
}

/// The targets of the Markdown links `[text](target)` in `text`.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        if let Some(end) = after.find(')') {
            targets.push(after[..end].trim().to_string());
        }
        rest = after;
    }
    targets
}

/// Words of `text` that look like a file path or file name with one of [`EXTENSIONS`].
fn named_files(text: &str) -> Vec<String> {
    text.split(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '`' | '(' | ')' | '[' | ']' | ',' | ';' | '"' | '\'' | '|'
            )
    })
    .map(|word| word.trim_end_matches(['.', ':']))
    .filter(|word| {
        EXTENSIONS
            .iter()
            .any(|ext| word.ends_with(ext) && word.len() > ext.len())
            && word
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-'))
            && !word.contains("://")
    })
    .map(str::to_string)
    .collect()
}

/// Whether `name` (a path from the document's folder or the repository's root, or a bare file
/// name) is a file of the repository.
fn names_a_repository_file(name: &str, document: &Path, files: &[PathBuf]) -> bool {
    let name = name.trim_start_matches("./");
    if OTHER_PROGRAMS_FILES.contains(&name)
        || OTHER_PROGRAMS_FOLDERS.iter().any(|f| name.starts_with(f))
    {
        return true;
    }
    let folder = document.parent().expect("a document is in a folder");
    if name.contains('/') {
        folder.join(name).exists() || root().join(name).exists()
    } else {
        files
            .iter()
            .any(|f| f.file_name().is_some_and(|n| n.to_string_lossy() == name))
    }
}

#[test]
fn every_relative_link_in_the_markdown_resolves() {
    let (_, markdown) = repository_files();
    assert!(markdown.iter().any(|p| p.ends_with("README.md")));
    let mut broken = Vec::new();
    for document in &markdown {
        let text = fs::read_to_string(document).expect("a document reads");
        let folder = document.parent().expect("a document is in a folder");
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                document.clone()
            } else {
                folder.join(path)
            };
            if !file.exists() {
                broken.push(format!("{}: {target}: no such file", document.display()));
                continue;
            }
            if let Some(anchor) = anchor {
                let linked = fs::read_to_string(&file).unwrap_or_default();
                if !anchors(&linked).contains(anchor) {
                    broken.push(format!("{}: {target}: no such heading", document.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_file_the_markdown_names_is_in_the_repository() {
    let (files, markdown) = repository_files();
    let mut missing = Vec::new();
    for document in &markdown {
        let text = fs::read_to_string(document).expect("a document reads");
        for name in named_files(&text) {
            if !names_a_repository_file(&name, document, &files) {
                missing.push(format!("{}: {name}", document.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "files named but not in the repository:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_checks_catch_what_they_are_for() {
    assert_eq!(
        link_targets("see [rules](docs/rules.md#perft) and [x](https://a.b/c)"),
        ["docs/rules.md#perft", "https://a.b/c"]
    );
    assert_eq!(
        named_files("the rules are RULES.md, `src/perft.rs` and docs/rules.md. Not e5-e6."),
        ["RULES.md", "src/perft.rs", "docs/rules.md"]
    );
    let headings = anchors("# Perft 6\n```\n# not a heading\n```\n## The engine's own commands\n");
    assert!(headings.contains("perft-6"));
    assert!(headings.contains("the-engines-own-commands"));
    assert!(!headings.contains("not-a-heading"));
    let (files, _) = repository_files();
    let readme = root().join("README.md");
    assert!(!names_a_repository_file("RULES.md", &readme, &files));
    assert!(names_a_repository_file("docs/rules.md", &readme, &files));
    assert!(names_a_repository_file("rules.md", &readme, &files));
}
