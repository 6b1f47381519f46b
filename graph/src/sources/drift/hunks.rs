//! `-U0` hunks between two blobs that agree with `git diff -U0`: git's default algorithm
//! (Myers, with the same preprocessing) and its default slider post-processing (the indent
//! heuristic, tab width 8), from gix-imara-diff, the diff library gitoxide keeps in step with
//! git's xdiff.

use super::classify::Hunk;
use gix_imara_diff::{
    Algorithm, BasicLineDiffPrinter, Diff, InternedInput, UnifiedDiffConfig, UnifiedDiffPrinter,
};
use std::fmt;

/// How many leading bytes git inspects for a NUL when it decides a blob is binary.
const BINARY_SNIFF_BYTES: usize = 8000;

/// Whether git treats `data` as binary (a NUL byte among its first 8000 bytes; `.gitattributes`
/// are not consulted).
pub fn is_binary(data: &[u8]) -> bool {
    memchr::memchr(0, &data[..data.len().min(BINARY_SNIFF_BYTES)]).is_some()
}

/// The hunks of `git diff -U0 OLD NEW` in order. Lines are compared with their line endings,
/// as git does (a `\r` or a missing final newline is a change). Like git, which prints
/// "Binary files differ" and no hunk, a binary side yields no hunks.
pub fn diff_hunks(old: &[u8], new: &[u8]) -> Vec<Hunk> {
    if old == new || is_binary(old) || is_binary(new) {
        return Vec::new();
    }
    let input = InternedInput::new(old, new);
    let mut diff = Diff::compute(Algorithm::Myers, &input);
    diff.postprocess_lines(&input);
    diff.hunks()
        .map(|h| {
            let (a, b) = (u64::from(h.before.start), u64::from(h.before.end));
            let (c, d) = (u64::from(h.after.start), u64::from(h.after.end));
            // git numbers an empty side by the line before it; a non-empty one by its first line.
            Hunk {
                old_start: if a == b { a } else { a + 1 },
                old_count: b - a,
                new_start: if c == d { c } else { c + 1 },
                new_count: d - c,
            }
        })
        .collect()
}

/// Lines of a [`unified`] diff at most; the rest is counted.
pub const UNIFIED_MAX_LINES: usize = 120;

/// A unified diff's lines as the crate prints them, with hunk headers numbered in the files the
/// two sides come from, the way git numbers them (an empty side by the line before it).
struct Numbered<'a> {
    lines: BasicLineDiffPrinter<'a, str>,
    /// 0-based file line of each side's first line.
    old_offset: u64,
    new_offset: u64,
}

impl UnifiedDiffPrinter for Numbered<'_> {
    fn display_header(
        &self,
        mut f: impl fmt::Write,
        start_before: u32,
        start_after: u32,
        len_before: u32,
        len_after: u32,
    ) -> fmt::Result {
        // git's numbering: a side's first line, or for an empty side the line before it.
        let first =
            |start: u32, len: u32, offset: u64| u64::from(start) + offset + u64::from(len > 0);
        let hunk = Hunk {
            old_start: first(start_before, len_before, self.old_offset),
            old_count: u64::from(len_before),
            new_start: first(start_after, len_after, self.new_offset),
            new_count: u64::from(len_after),
        };
        writeln!(f, "{hunk}")
    }

    fn display_context_token(
        &self,
        f: impl fmt::Write,
        token: gix_imara_diff::Token,
    ) -> fmt::Result {
        self.lines.display_context_token(f, token)
    }

    fn display_hunk(
        &self,
        f: impl fmt::Write,
        before: &[gix_imara_diff::Token],
        after: &[gix_imara_diff::Token],
    ) -> fmt::Result {
        self.lines.display_hunk(f, before, after)
    }
}

/// The unified diff, with three lines of context, of the lines `old` (the lines of a file from
/// line `old_first`) against `new` (from `new_first`), as `git diff` draws it, with hunk
/// headers numbered in those files. Text that is not UTF-8 is shown lossily. Longer than
/// [`UNIFIED_MAX_LINES`] lines, it is cut and says how many lines were left out. Empty when the
/// two are equal.
pub fn unified(old: &[&[u8]], old_first: u64, new: &[&[u8]], new_first: u64) -> String {
    let text = |lines: &[&[u8]]| {
        lines.iter().fold(String::new(), |mut t, l| {
            t.push_str(&String::from_utf8_lossy(l));
            t.push('\n');
            t
        })
    };
    let (before, after) = (text(old), text(new));
    if before == after {
        return String::new();
    }
    let input = InternedInput::new(before.as_str(), after.as_str());
    let mut diff = Diff::compute(Algorithm::Myers, &input);
    diff.postprocess_lines(&input);
    let printer = Numbered {
        lines: BasicLineDiffPrinter(&input.interner),
        old_offset: old_first.saturating_sub(1),
        new_offset: new_first.saturating_sub(1),
    };
    let full = diff
        .unified_diff(&printer, UnifiedDiffConfig::default(), &input)
        .to_string();
    let total = full.lines().count();
    if total <= UNIFIED_MAX_LINES {
        return full;
    }
    let mut cut: String = full
        .lines()
        .take(UNIFIED_MAX_LINES)
        .flat_map(|l| [l, "\n"])
        .collect();
    cut.push_str(&format!(
        "… {} more lines of diff\n",
        total - UNIFIED_MAX_LINES
    ));
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(old: &str, new: &str) -> Vec<String> {
        diff_hunks(old.as_bytes(), new.as_bytes())
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn numbering_matches_git_headers() {
        // Outputs checked against `git diff -U0 --no-index` (git 2.47).
        assert_eq!(headers("a\nb\nc\n", "a\nB\nc\n"), ["@@ -2 +2 @@"]);
        assert_eq!(headers("a\nb\nc\n", "a\nc\n"), ["@@ -2 +1,0 @@"]);
        assert_eq!(headers("a\nc\n", "a\nb\nc\n"), ["@@ -1,0 +2 @@"]);
        assert_eq!(headers("b\n", "a\nb\n"), ["@@ -0,0 +1 @@"]);
        assert_eq!(headers("a\nb\n", "a\nb"), ["@@ -2 +2 @@"]);
        assert!(headers("same\n", "same\n").is_empty());
    }

    #[test]
    fn the_indent_heuristic_slides_insertions_like_git() {
        // git's t4061 "spaces" case: the inserted "a, blank, b" could sit at two places; git
        // with its default indent heuristic says -4,0 +5,3 (without it, -5,0 +6,3).
        let old = "1\n2\na\n\nb\n3\n4\n";
        let new = "1\n2\na\n\nb\na\n\nb\n3\n4\n";
        assert_eq!(headers(old, new), ["@@ -4,0 +5,3 @@"]);
    }

    #[test]
    fn unified_diffs_are_numbered_in_their_files() {
        let lines = |s: &'static str| s.lines().map(str::as_bytes).collect::<Vec<_>>();
        let old = lines("fn a() {\n    retry(3);\n}");
        let new = lines("fn a() {\n    retry(5);\n    log();\n}");
        assert_eq!(
            unified(&old, 40, &new, 52),
            "@@ -40,3 +52,4 @@\n fn a() {\n-    retry(3);\n+    retry(5);\n+    log();\n }\n"
        );
        // An empty side is numbered by the line before it, as git does.
        assert_eq!(
            unified(&old, 40, &[], 52),
            "@@ -40,3 +51,0 @@\n-fn a() {\n-    retry(3);\n-}\n"
        );
        assert_eq!(unified(&old, 1, &old, 9), "");
        // Far apart changes are two hunks; a long diff is cut with a count.
        let many: Vec<String> = (0..400).map(|i| format!("line {i}")).collect();
        let changed: Vec<String> = many
            .iter()
            .map(|l| {
                if l.ends_with('0') {
                    format!("{l}!")
                } else {
                    l.clone()
                }
            })
            .collect();
        let (a, b): (Vec<&[u8]>, Vec<&[u8]>) = (
            many.iter().map(|l| l.as_bytes()).collect(),
            changed.iter().map(|l| l.as_bytes()).collect(),
        );
        let d = unified(&a, 1, &b, 1);
        assert_eq!(d.lines().count(), UNIFIED_MAX_LINES + 1, "{d}");
        assert!(d.ends_with(" more lines of diff\n"), "{d}");
        assert!(
            d.starts_with("@@ -1,4 +1,4 @@\n-line 0\n+line 0!\n line 1\n"),
            "{d}"
        );
    }

    #[test]
    fn binary_sides_have_no_hunks() {
        assert!(diff_hunks(b"a\0b\n", b"c\n").is_empty());
        assert!(is_binary(b"x\0"));
        assert!(!is_binary(b"plain\ntext\n"));
    }
}
