//! `-U0` hunks between two blobs that agree with `git diff -U0`: git's default algorithm
//! (Myers, with the same preprocessing) and its default slider post-processing (the indent
//! heuristic, tab width 8), from gix-imara-diff, the diff library gitoxide keeps in step with
//! git's xdiff.

use super::classify::Hunk;
use gix_imara_diff::{Algorithm, Diff, InternedInput};

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
    fn binary_sides_have_no_hunks() {
        assert!(diff_hunks(b"a\0b\n", b"c\n").is_empty());
        assert!(is_binary(b"x\0"));
        assert!(!is_binary(b"plain\ntext\n"));
    }
}
