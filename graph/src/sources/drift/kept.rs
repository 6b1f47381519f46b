//! How many of a changed range's cited lines are still there at the later commit.
//!
//! The `-U0` diff maps a range by its edges ([`super::classify::map_range`]): a hunk that
//! replaces a deleted function with an unrelated new one maps the range onto the new one, and
//! the length of the mapped range says nothing about whether the code is the same. Express
//! 5.0 deleted `req.param` (sixteen lines, thirteen of them code) and wrote the `req.query`
//! getter in its place; the diff mapped twelve lines, so the cited range looked like an edit
//! and `--accept-changed` re-anchored the section on the getter (jsdrift walk, F1).
//!
//! A cited line is *kept* when it survives the change:
//! - it lies outside every hunk: the diff leaves it as it was;
//! - or a hunk rewrote it and the lines that hunk added hold one like it
//!   ([`LIKE`]: a modified line, `mime.lookup(type)` that gained `|| 'application/octet-stream'`),
//!   each added line standing for at most one cited line, in order.
//!
//! Only lines with [`relocate::MIN_ALNUM`] letters or digits count, as for relocation's
//! evidence: blank lines and lone brackets are shared by any two pieces of code (the only
//! lines `req.param` and `req.query` have in common are blank).

use super::classify::Hunk;
use super::relocate;
use serde::{Deserialize, Serialize};

/// How alike a rewritten line and an added line must be for the added one to be the cited one
/// modified: the larger of their normalized Levenshtein similarity and the Dice coefficient of
/// their words.
pub const LIKE: f64 = 0.6;

/// Of a changed range: how many of its counted lines survive at the later commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeptLines {
    /// Counted cited lines that survive (unchanged, or rewritten into a like line).
    pub kept: u64,
    /// Cited lines that count (at least [`relocate::MIN_ALNUM`] letters or digits).
    pub of: u64,
}

impl KeptLines {
    /// Whether the change took the range away rather than edited it: at least four lines
    /// count and a quarter or fewer of them survive (the rule [`super::mostly_gone`] applies to
    /// the mapped range's length). What the diff maps it to is then other code, and accepting
    /// the change does not re-anchor it there.
    pub fn too_few(&self) -> bool {
        super::mostly_gone(self.of, self.kept)
    }

    /// Whether the code the diff maps the range to (`mapped`, lines of the later file) replaced
    /// the cited code rather than edited it: too few cited lines survive ([`Self::too_few`]),
    /// and the range's definition has no namesake there overlapping `mapped` (`namesake`: its
    /// lines in the same later file). A function rewritten in place is still the function the
    /// section describes (requests' 43 lines of manual chunked upload became a 13-line call in
    /// the same `HTTPAdapter.send`: a change to review); `req.param` deleted and the
    /// `req.query` getter written where it was is not.
    pub fn replaced(&self, mapped: (u64, u64), namesake: Option<(u64, u64)>) -> bool {
        self.too_few() && !namesake.is_some_and(|(a, b)| a <= mapped.1 && mapped.0 <= b)
    }
}

/// Whether `line` counts (see the module doc).
fn counts(line: &[u8]) -> bool {
    line.iter().filter(|b| b.is_ascii_alphanumeric()).count() >= relocate::MIN_ALNUM
}

/// The runs of letters, digits and underscores of `line`.
fn tokens(line: &str) -> Vec<&str> {
    line.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
        .collect()
}

/// The Dice coefficient of the two lines' words, as multisets.
fn word_dice(a: &str, b: &str) -> f64 {
    let (ta, mut tb) = (tokens(a), tokens(b));
    if ta.is_empty() || tb.is_empty() {
        return 0.0;
    }
    let total = (ta.len() + tb.len()) as f64;
    let mut common = 0usize;
    for t in &ta {
        if let Some(i) = tb.iter().position(|x| x == t) {
            tb.swap_remove(i);
            common += 1;
        }
    }
    2.0 * common as f64 / total
}

/// Whether `added` reads as `cited` modified (see [`LIKE`]).
pub fn alike(cited: &[u8], added: &[u8]) -> bool {
    let (a, b) = (
        String::from_utf8_lossy(cited.trim_ascii()),
        String::from_utf8_lossy(added.trim_ascii()),
    );
    a == b || word_dice(&a, &b) >= LIKE || strsim::normalized_levenshtein(&a, &b) >= LIKE
}

/// How many of the `cited` lines, the old lines from `start` on, survive the change whose `-U0`
/// `hunks` lead to the `later` file's lines (see the module doc).
pub fn kept_lines(cited: &[&[u8]], start: u64, hunks: &[Hunk], later: &[&[u8]]) -> KeptLines {
    let mut out = KeptLines { kept: 0, of: 0 };
    // Per hunk, the added lines already taken by an earlier cited line, as the next free index.
    let mut next_free: Vec<(usize, usize)> = Vec::new();
    for (n, line) in (start..).zip(cited) {
        if !counts(line.trim_ascii()) {
            continue;
        }
        out.of += 1;
        let Some((hi, h)) = hunks
            .iter()
            .enumerate()
            .find(|(_, h)| h.old_count > 0 && h.old_start <= n && n < h.old_start + h.old_count)
        else {
            out.kept += 1;
            continue;
        };
        let added = usize::try_from(h.new_start.saturating_sub(1))
            .ok()
            .and_then(|a| later.get(a..a + h.new_count as usize))
            .unwrap_or(&[]);
        let from = match next_free.iter().find(|(i, _)| *i == hi) {
            Some((_, f)) => *f,
            None => 0,
        };
        if let Some(k) = (from..added.len()).find(|&k| alike(line, added[k])) {
            out.kept += 1;
            match next_free.iter_mut().find(|(i, _)| *i == hi) {
                Some(slot) => slot.1 = k + 1,
                None => next_free.push((hi, k + 1)),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::drift::hunks::diff_hunks;
    use crate::sources::drift::split_lines;

    fn kept(old: &str, new: &str, start: u64, end: u64) -> KeptLines {
        let (a, b) = (split_lines(old.as_bytes()), split_lines(new.as_bytes()));
        let hunks = diff_hunks(old.as_bytes(), new.as_bytes());
        kept_lines(&a[start as usize - 1..end as usize], start, &hunks, &b)
    }

    #[test]
    fn code_written_where_deleted_code_was_keeps_none_of_it() {
        let old = "a();\n\nreq.param = function param(name, defaultValue) {\n  var params = this.params || {};\n  var body = this.body || {};\n  var query = this.query || {};\n  if (null != params[name]) return params[name];\n  return defaultValue;\n};\n\nz();\n";
        let new = "a();\n\ndefineGetter(req, 'query', function query(){\n  var queryparse = this.app.get('query parser fn');\n  if (!queryparse) {\n    return {};\n  }\n  var value = parseurl(this).query;\n  return queryparse(value);\n});\n\nz();\n";
        let k = kept(old, new, 3, 9);
        // `return defaultValue;` reads like `return queryparse(value);`; nothing else survives.
        assert_eq!(k, KeptLines { kept: 1, of: 6 });
        assert!(k.too_few());
        // Outside any namesake of `req.param` it replaced the method; inside one, it is the
        // method rewritten.
        assert!(k.replaced((3, 10), None));
        assert!(!k.replaced((3, 10), Some((3, 10))));
    }

    #[test]
    fn an_edited_range_keeps_its_untouched_and_modified_lines() {
        let old = "function normalizeType(type) {\n  return ~type.indexOf('/')\n    ? acceptParams(type)\n    : { value: mime.lookup(type), params: {} };\n}\n";
        let new = "function normalizeType(type) {\n  return ~type.indexOf('/')\n    ? acceptParams(type)\n    : { value: (mime.lookup(type) || 'application/octet-stream'), params: {} };\n}\n";
        let k = kept(old, new, 1, 5);
        assert_eq!(k, KeptLines { kept: 4, of: 4 });
        assert!(!k.too_few());
    }

    #[test]
    fn each_added_line_stands_for_one_cited_line() {
        // Two like lines rewritten into one: one of them is kept, the other is gone (`end();`
        // has too few letters to count).
        let old = "start();\nvalue = compute(alpha);\nvalue = compute(alpha);\nend();\n";
        let new = "start();\nvalue = compute(alpha, beta);\nend();\n";
        assert_eq!(kept(old, new, 1, 4), KeptLines { kept: 2, of: 3 });
    }
}
