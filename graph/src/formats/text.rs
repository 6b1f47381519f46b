//! Line splitting and content digests, shared by every reader of cited text.
//!
//! The workspace format splits on `\n` and drops one trailing `\r` per line; line numbers are
//! 1-based. Keeping this in one place is what makes digests, section extents and pinned reads
//! agree with each other.

use sha2::{Digest, Sha256};

/// `text` as one line: each control character (a line break, an escape, a delete), line
/// separator and direction override written as its Rust escape (`\n`, `\u{1b}`), tabs kept. Messages quote what the user wrote, and a key
/// or id holding a line break would otherwise start a line of its own in a log — where
/// `::error::…` is a GitHub Actions command — or move a terminal's cursor.
pub fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    let quoted = is_quoted;
    if !text.chars().any(quoted) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if quoted(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.into()
}

/// `text` between double quotes, as a sentence quotes a title or a question: on one line
/// ([`one_line`]), its own quotes and backslashes as they are (a title `A "declined" card` reads
/// `"A "declined" card"`, not Rust's `"A \"declined\" card"`).
pub fn quoted(text: &str) -> String {
    format!("\"{}\"", one_line(text))
}

/// Whether a quoted `c` is written as its escape: a control character other than a tab, a
/// line or paragraph separator (they break lines too), or a direction override or isolate
/// (they reorder what a reader sees).
pub fn is_quoted(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// The first `shown` of `items` joined with `, `, then ` and N more` for the rest: a list as a
/// message names it without growing with the workspace.
pub fn first_of<S: AsRef<str>>(items: &[S], shown: usize) -> String {
    let names: Vec<&str> = items.iter().take(shown).map(AsRef::as_ref).collect();
    match items.len().saturating_sub(shown) {
        0 => names.join(", "),
        more => format!("{} and {more} more", names.join(", ")),
    }
}

/// Where a text that is not UTF-8 goes wrong, as an editor shows it: the 1-based line of the
/// first bad byte and its 1-based byte in that line, with the byte itself.
pub fn not_utf8_at(bytes: &[u8], e: &std::str::Utf8Error) -> (u64, u64, u8) {
    let at = e.valid_up_to();
    let line = 1 + bytes[..at].iter().filter(|b| **b == b'\n').count() as u64;
    let line_start = bytes[..at]
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |n| n + 1);
    (
        line,
        (1 + at - line_start) as u64,
        bytes.get(at).copied().unwrap_or(0),
    )
}

/// Where a file stops being UTF-8, at the place [`not_utf8_at`] found: "the first byte that is
/// not (0x..) is at line L, byte C of the line".
pub fn not_utf8_place(line: u64, column: u64, byte: u8) -> String {
    format!(
        "the first byte that is not (0x{byte:02x}) is at line {line}, byte {column} of the line"
    )
}

/// The message of a workspace file that is not UTF-8 ([`not_utf8_place`]).
pub fn not_utf8_message(line: u64, column: u64, byte: u8) -> String {
    format!("File is not UTF-8: {}", not_utf8_place(line, column, byte))
}

/// `text` without its leading UTF-8 byte order marks, which some editors write (several when a
/// file was joined from marked parts). Every reader of workspace text (YAML, pages, markers)
/// drops them first; line numbers do not change. All of them, not one: otherwise a text read
/// with one mark more would parse differently (fuzzing found a page whose front matter was seen
/// or not depending on a second mark).
pub fn strip_bom(text: &str) -> &str {
    text.trim_start_matches('\u{feff}')
}

/// The lines of `text`: split on `\n`, one trailing `\r` dropped from each.
///
/// `"a\nb\n"` yields `["a", "b", ""]`: the empty tail is a line of its own, as in the format.
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l))
}

/// `sha256:<hex>` of `lines` (already split by the format's rule) joined with `\n`: the digest
/// [`range_digest`] gives the range those lines were taken from, for bytes that need not be
/// UTF-8.
pub fn lines_digest(lines: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            hasher.update(b"\n");
        }
        hasher.update(line);
    }
    format!("sha256:{}", hex(&hasher.finalize()))
}

/// `sha256:<hex>` of lines `start..=end` (1-based) joined with `\n`, or `None` when the range
/// is empty or reaches past the last line.
pub fn range_digest(text: &str, start: u64, end: u64) -> Option<String> {
    if start == 0 || end < start {
        return None;
    }
    let mut hasher = Sha256::new();
    let mut taken = 0u64;
    for (i, line) in lines(text).enumerate() {
        let n = i as u64 + 1;
        if n < start {
            continue;
        }
        if n > end {
            break;
        }
        if n > start {
            hasher.update(b"\n");
        }
        hasher.update(line.as_bytes());
        taken += 1;
    }
    if taken != end - start + 1 {
        return None;
    }
    Some(format!("sha256:{}", hex(&hasher.finalize())))
}

/// Whether `digest` is `sha256:` followed by 64 hex digits (either case), as the format requires.
pub fn is_sha256_digest(digest: &str) -> bool {
    digest
        .strip_prefix("sha256:")
        .is_some_and(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Whether two digests name the same bytes (the hex part compares case-insensitively).
pub fn digests_equal(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[(b >> 4) as usize] as char);
        out.push(DIGITS[(b & 15) as usize] as char);
    }
    out
}

/// Whether `s` is a full commit id: 40 or 64 hex digits.
pub fn is_full_commit(s: &str) -> bool {
    (s.len() == 40 || s.len() == 64) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_names_its_first_items_and_counts_the_rest() {
        assert_eq!(first_of(&["a", "b"], 3), "a, b");
        assert_eq!(first_of(&["a", "b", "c", "d"], 2), "a, b and 2 more");
        assert_eq!(first_of::<&str>(&[], 2), "");
    }

    #[test]
    fn one_line_quotes_breaks_escapes_and_overrides() {
        assert_eq!(one_line("a\tb"), "a\tb");
        assert_eq!(
            one_line("a\nb\u{1b}[2J\u{202e}"),
            "a\\nb\\u{1b}[2J\\u{202e}"
        );
    }

    #[test]
    fn every_leading_byte_order_mark_is_dropped() {
        assert_eq!(strip_bom("\u{feff}---\n"), "---\n");
        assert_eq!(strip_bom("\u{feff}\u{feff}---\n"), "---\n");
        assert_eq!(strip_bom("a\u{feff}"), "a\u{feff}");
        let page = "---\ntitle: T\n---\n# T\n";
        let marked = format!("\u{feff}\u{feff}{page}");
        assert_eq!(
            crate::formats::page::parse_page("faq/p.md", Ok(marked.as_bytes()), "").front,
            crate::formats::page::parse_page("faq/p.md", Ok(page.as_bytes()), "").front
        );
    }

    #[test]
    fn lines_digest_is_the_range_digest_of_those_lines() {
        let text = "a\r\nb\nc\n";
        let split: Vec<&[u8]> = lines(text).map(str::as_bytes).collect();
        assert_eq!(Some(lines_digest(&split[1..3])), range_digest(text, 2, 3));
        assert_eq!(Some(lines_digest(&split[..1])), range_digest(text, 1, 1));
    }

    #[test]
    fn crlf_and_trailing_newline() {
        let v: Vec<_> = lines("a\r\nb\n").collect();
        assert_eq!(v, ["a", "b", ""]);
    }

    #[test]
    fn digest_matches_format_rule() {
        // "foo" is sha256 2c26b4...; the conformance fixtures cite it.
        let text = "x\nfoo\r\ny";
        assert_eq!(
            range_digest(text, 2, 2).as_deref(),
            Some("sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae")
        );
        assert_eq!(range_digest(text, 3, 4), None);
        assert_eq!(range_digest(text, 0, 1), None);
        assert_eq!(range_digest(text, 2, 1), None);
    }

    #[test]
    fn digest_shape() {
        assert!(is_sha256_digest(&format!("sha256:{}", "A".repeat(64))));
        assert!(!is_sha256_digest("sha256:xyz"));
        assert!(!is_sha256_digest(&format!("md5:{}", "a".repeat(64))));
    }
}
