//! Re-anchoring suggestions in another file need more than the name: on a real git history
//! (built here with the git CLI, fixed dates), a cited definition whose file was deleted is
//! suggested at a namesake in another changed file only when that namesake's body still holds
//! the old one's lines.

mod support;

use ontoly_graph::sources::drift::{self, CitedRange, CompareOptions, DriftRepo, RangeDrift};
use ontoly_graph::sources::git::GitRepo;
use std::path::Path;

const BUILD_RS: &str = r#"use std::env;
use std::fs;

fn main() {
    let out_dir = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let shells = ["bash", "fish", "zsh", "powershell"];
    for shell in shells {
        let script = generate_completion(shell);
        fs::write(format!("{out_dir}/fd.{shell}"), script).expect("writes");
    }
}
"#;

const MAIN_RS: &str = r#"mod size;

fn main() {
    let result = run();
    match result {
        Ok(exit_code) => std::process::exit(exit_code),
        Err(err) => eprintln!("[fd error]: {err:#}"),
    }
}
"#;

const SIZE_OLD: &str = r#"pub fn parse_size(text: &str) -> Option<u64> {
    let digits: String = text.chars().take_while(|c| c.is_ascii_digit()).collect();
    let unit = &text[digits.len()..];
    let value: u64 = digits.parse().ok()?;
    let factor = match unit {
        "k" | "K" => 1000,
        "M" => 1000 * 1000,
        _ => 1,
    };
    Some(value * factor)
}
"#;

const HELPER_OLD: &str = r#"pub fn helper(entries: &[String]) -> usize {
    let visible = entries.iter().filter(|e| !e.starts_with('.'));
    let counted = visible.count();
    counted + entries.len()
}
"#;

// Two new files define `helper`: one is the old body (in a file with more in it, so git does
// not take it for a rename of the old one), the other is not.
const HELPER_NEIGHBOURS: &str = r#"use std::collections::BTreeMap;

/// Counts of entries by their first letter.
pub fn by_letter(entries: &[String]) -> BTreeMap<char, usize> {
    let mut counts = BTreeMap::new();
    for entry in entries {
        if let Some(first) = entry.chars().next() {
            *counts.entry(first).or_insert(0) += 1;
        }
    }
    counts
}

/// Entries longer than `limit`.
pub fn longer_than(entries: &[String], limit: usize) -> Vec<&String> {
    entries.iter().filter(|e| e.len() > limit).collect()
}

"#;

const HELPER_OTHER: &str = r#"pub fn helper(path: &std::path::Path) -> bool {
    path.components().count() > 2 && path.is_absolute()
}
"#;

/// `Token` and its impl, as they were and as they are after the move.
const TOKEN: &str = r#"pub enum Token {
    Placeholder,
    Text(String),
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Token::Placeholder => f.write_str("{}"),
            Token::Text(text) => f.write_str(text),
        }
    }
}
"#;

// The enum and its impl moved into a file with more in it (so git does not take it for a
// rename); the impl is cited.
const TEMPLATE: &str = r#"/// Templates of commands.
pub struct Template {
    tokens: Vec<Token>,
    batch: bool,
}

impl Template {
    pub fn new(tokens: Vec<Token>, batch: bool) -> Self {
        Self { tokens, batch }
    }

    pub fn is_batch(&self) -> bool {
        self.batch && !self.tokens.is_empty()
    }

    pub fn placeholders(&self) -> usize {
        let mut count = 0;
        for token in &self.tokens {
            if matches!(token, Token::Placeholder) {
                count += 1;
            }
        }
        count
    }

    pub fn texts(&self) -> Vec<&str> {
        let mut out = Vec::new();
        for token in &self.tokens {
            if let Token::Text(text) = token {
                out.push(text.as_str());
            }
        }
        out
    }
}

"#;

fn write(dir: &Path, path: &str, text: &str) {
    let p = dir.join(path);
    std::fs::create_dir_all(p.parent().expect("a parent")).expect("mkdir");
    std::fs::write(p, text).expect("writes");
}

/// The history: c1 has build.rs, src/main.rs, src/a.rs, src/b.rs and src/token.rs; c2
/// deletes build.rs, src/a.rs, src/b.rs and src/token.rs, edits src/main.rs (its `main`
/// untouched), and adds src/size.rs (`parse_size` moved), src/c.rs (`helper` moved),
/// src/d.rs (another `helper`) and src/template.rs (`Token` and its impl moved).
fn history(dir: &Path) -> (String, String) {
    support::git(dir, &["init", "-q", "-b", "main"]);
    write(dir, "build.rs", BUILD_RS);
    write(dir, "src/main.rs", MAIN_RS);
    write(dir, "src/a.rs", SIZE_OLD);
    write(dir, "src/b.rs", HELPER_OLD);
    write(dir, "src/token.rs", &format!("use std::fmt;\n\n{TOKEN}"));
    support::git(dir, &["add", "-A"]);
    support::git(dir, &["commit", "-q", "-m", "c1"]);
    let c1 = support::git(dir, &["rev-parse", "HEAD"]);
    for gone in ["build.rs", "src/a.rs", "src/b.rs", "src/token.rs"] {
        std::fs::remove_file(dir.join(gone)).expect("removes");
    }
    // Edited, its `main` untouched.
    write(
        dir,
        "src/main.rs",
        &MAIN_RS.replace("mod size;\n", "mod size;\nmod walk;\n"),
    );
    // Moved to another file with one line edited on the way.
    let moved = SIZE_OLD.replace(r#""k" | "K" => 1000,"#, r#""k" | "K" => 1024,"#);
    assert_ne!(moved, SIZE_OLD);
    write(dir, "src/size.rs", &format!("/// Sizes.\n{moved}"));
    write(dir, "src/c.rs", &format!("{HELPER_NEIGHBOURS}{HELPER_OLD}"));
    write(dir, "src/d.rs", HELPER_OTHER);
    write(
        dir,
        "src/template.rs",
        &format!("use std::fmt;\n\n{TEMPLATE}{TOKEN}"),
    );
    support::git(dir, &["add", "-A"]);
    support::git(dir, &["commit", "-q", "-m", "c2"]);
    let c2 = support::git(dir, &["rev-parse", "HEAD"]);
    (c1, c2)
}

fn drift_of(ranges: &[CitedRange]) -> Vec<RangeDrift> {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (c1, c2) = history(tmp.path());
    let repo = DriftRepo::new(&GitRepo::open(tmp.path()).expect("opens"));
    drift::compare(&repo, &c1, &c2, ranges, CompareOptions::default()).expect("compares")
}

fn range(path: &str, start_line: u64, end_line: u64) -> CitedRange {
    CitedRange {
        path: path.into(),
        start_line,
        end_line,
    }
}

fn suggestion(d: &RangeDrift) -> Option<(String, u64)> {
    d.suggestion
        .as_ref()
        .map(|s| (s.path.clone(), s.start_line))
}

#[test]
fn a_namesake_in_another_file_is_suggested_only_when_its_body_agrees() {
    let out = drift_of(&[
        range("build.rs", 4, 11),
        range("src/a.rs", 1, 11),
        range("src/b.rs", 1, 5),
        range("src/token.rs", 8, 15),
    ]);
    // The deleted build script's `main` is named, but `main` of src/main.rs (a changed file
    // of the same language, and the only other `main`) was there already: another function.
    assert_eq!(
        out[0].symbol.as_ref().map(|s| s.qualified.as_str()),
        Some("main")
    );
    assert_eq!(suggestion(&out[0]), None);
    // Moved with one line edited: found in the file it moved to, at its new lines, from the
    // doc comment written above it there.
    assert_eq!(suggestion(&out[1]), Some(("src/size.rs".into(), 1)));
    // Two files define `helper`; only one has its body, and that one is the suggestion.
    assert_eq!(suggestion(&out[2]), Some(("src/c.rs".into(), 19)));
    // The cited impl, not the enum of the same name before it.
    assert_eq!(
        out[3]
            .symbol
            .as_ref()
            .map(|s| (s.qualified.as_str(), s.start_line)),
        Some(("Token", 8))
    );
    assert_eq!(suggestion(&out[3]), Some(("src/template.rs".into(), 44)));
}
