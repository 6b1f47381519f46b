//! Where the cited lines went: for a changed or missing range, the window of the later commit
//! that holds most of its distinctive lines: in the later file when it holds enough of them,
//! else in the file the change added or modified that holds the most. It finds code that moved to another file under another name (a method moved
//! from `DirList` in `dir.rs` to `Database` in `mod.rs`), which neither the diff of one file
//! nor a definition's name can follow. It is a hint for review, never a re-anchoring on its own (the lines
//! are not the same block): only a person who read it accepts it (`drift --accept-relocated`).
//!
//! A cited line counts when, trimmed, it has at least [`MIN_ALNUM`] letters or digits (so `}`,
//! `else:` or a blank line say nothing) and it occurs at most [`MAX_REPEATS`] times in the
//! candidate file (a `return None` found everywhere says nothing either). In each candidate
//! file the matches are read in line order and the window spanning at most twice the cited
//! block's length that holds the most distinct cited lines wins (among equals, the one whose
//! span is nearest the block's, then the first); a relocation needs at least
//! [`MIN_LINES`] of them and half the block's counted lines that the file does not repeat.

use super::classify::split_lines;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// Letters or digits a trimmed line needs to count as evidence.
pub const MIN_ALNUM: usize = 4;
/// Occurrences in one candidate file beyond which a line counts as boilerplate there.
pub const MAX_REPEATS: usize = 3;
/// Distinct cited lines a relocation needs at least.
pub const MIN_LINES: usize = 3;

/// Where most of a cited block's lines are at the later commit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Relocation {
    /// Repository-relative path at the later commit.
    pub path: String,
    /// First matched line, 1-based.
    pub start_line: u64,
    /// Last matched line, inclusive.
    pub end_line: u64,
    /// Distinct cited lines found in that window.
    pub matched: u64,
    /// Cited lines that count as evidence in that file (see the module doc).
    pub of: u64,
    /// The lines were matched by their [`words`] only: the cited file is gone and this is the
    /// file the change added that took its name, whose markup differs (a page
    /// converted from reStructuredText to Markdown: ``` ``code`` ``` became `` `code` ``).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_words: bool,
    /// Of a changed range whose window holds all of the range the diff maps it to: how many of
    /// the `of` lines that mapped range holds, when the window holds at least [`MIN_LINES`] more.
    /// The diff then follows part of the block while the rest moved beside it (two methods
    /// swapped: the diff maps the pair onto one of them), so the window is news to a reader
    /// and accepting the change would cite what is left (Go walk, `repro-1-accept-reorder.sh`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mapped_holds: Option<u64>,
    /// Of a changed range: the range follows this window, not the lines the diff maps it to
    /// or its definition's namesake (none of those is accepted: its lines were deleted or
    /// rewritten there, or went here). The section is reviewed here, `--diff` diffs the cited
    /// lines against it and `--accept-relocated` re-anchors the range here: one place for all
    /// three (stop 54: hyperfine's `compute`, emptied into `compute_relative_speeds`, was
    /// reviewed at the wrapper while `--diff` and `--write` took the window).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub followed: bool,
}

/// The cited lines that count as evidence, trimmed, each once, in order: those with at least
/// [`MIN_ALNUM`] letters or digits that are not [`generic`].
pub fn evidence_lines<'a>(cited: &[&'a [u8]]) -> Vec<&'a [u8]> {
    let mut seen = HashSet::new();
    cited
        .iter()
        .map(|l| l.trim_ascii())
        .filter(|l| l.iter().filter(|b| b.is_ascii_alphanumeric()).count() >= MIN_ALNUM)
        .filter(|l| !generic(l))
        .filter(|l| seen.insert(*l))
        .collect()
}

/// The cited lines [`evidence_lines`] leaves out as [`generic`], trimmed, each once, in order:
/// no evidence of where a block went, but a window found by the others that holds them as
/// well holds more of the block as cited (see [`Sought::weighted`]).
pub fn keyword_lines<'a>(cited: &[&'a [u8]]) -> Vec<&'a [u8]> {
    let mut seen = HashSet::new();
    cited
        .iter()
        .map(|l| l.trim_ascii())
        .filter(|l| l.iter().filter(|b| b.is_ascii_alphanumeric()).count() >= MIN_ALNUM)
        .filter(|l| generic(l))
        .filter(|l| seen.insert(*l))
        .collect()
}

/// Words that, with punctuation and numbers, make up lines any code in many languages is full
/// of (`default:`, `break;`, `return 0;`, `} else {`, `return None`, `Ok(())`, `end`): such a
/// line says nothing about which block it belongs to.
const GENERIC_WORDS: &[&str] = &[
    "async",
    "await",
    "begin",
    "break",
    "case",
    "continue",
    "default",
    "do",
    "done",
    "else",
    "elif",
    "end",
    "err",
    "esac",
    "false",
    "fi",
    "finally",
    "none",
    "nil",
    "null",
    "ok",
    "pass",
    "return",
    "self",
    "some",
    "super",
    "then",
    "this",
    "true",
    "try",
    "undefined",
    "unreachable",
    "void",
    "yield",
];

/// Whether a trimmed line is made only of words any code is full of (`return`, `default`,
/// `None`), numbers and punctuation: a keyword line that occurs in any function (`default:`,
/// `return 1;`, `Ok(())`), whose presence somewhere else says nothing about where a cited
/// block went (C walk on jq: a `switch`'s `default:` and `return 1;` sent `jv_get_refcnt`
/// into `jv_equal`).
pub fn generic(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .all(|w| {
            w.chars().next().is_some_and(|c| c.is_ascii_digit())
                || GENERIC_WORDS.contains(&w.to_ascii_lowercase().as_str())
        })
}

/// The weight of an evidence line no other code of the pinned file has: a line the pinned
/// file also has elsewhere weighs this divided by the number of places it has it.
pub const UNIT: u64 = 60;

/// For each of the `evidence` lines (trimmed, as [`evidence_lines`] gives them; compared as
/// [`words`] when `by_words`), its weight: [`UNIT`] divided by the number of places the
/// pinned file (`pinned`, its lines) has it, the cited ones (`first..=last`, 1-based) counting
/// as one. A line the pinned file has in several functions (`case JV_KIND_ARRAY:` in every
/// `switch` over a value's kind) is as likely, found elsewhere, to be one of the others: it
/// says little about where the cited copy went.
pub fn weights(
    evidence: &[&[u8]],
    pinned: &[&[u8]],
    first: u64,
    last: u64,
    by_words: bool,
) -> Vec<u64> {
    let mut places: HashMap<&[u8], u64> = evidence.iter().map(|l| (*l, 1)).collect();
    let mut owned = Vec::new();
    if by_words {
        owned = pinned.iter().map(|l| words(l)).collect();
    }
    for (n, line) in (1u64..).zip(pinned) {
        if (first..=last).contains(&n) {
            continue;
        }
        let key: &[u8] = if by_words {
            &owned[n as usize - 1]
        } else {
            line.trim_ascii()
        };
        if let Some(k) = places.get_mut(key) {
            *k += 1;
        }
    }
    evidence
        .iter()
        // At least 1: weight 0 marks a keyword line ([`Sought::weighted`]).
        .map(|l| (UNIT / places.get(l).copied().unwrap_or(1).max(1)).max(1))
        .collect()
}

/// A line's words: its runs of letters, digits and underscores (Unicode letters and digits,
/// so other scripts count), lowercased and joined by one space. It is what a line keeps when
/// its document changes markup: reStructuredText's double backticks and Markdown's single
/// ones, a `:func:` role and a `{func}` one, a `*` or a `-` list item, a straight or a curly
/// apostrophe, a dash or an em dash read the same.
pub fn words(line: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(line);
    let mut out = String::with_capacity(text.len());
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    // Underscores on one side of a run are markup, not the word: reStructuredText ends a link
    // with `_` or `__` (`PR45282_`, or alone after a backtick) and starts its target with one
    // (`.. _PR45282: url`) where Markdown has `[PR45282]` and `[PR45282]: url` (indexmap walk,
    // stop 47). On both sides they are a name's own (`__init__`).
    for run in text.split(|c: char| !is_word(c)) {
        if run.chars().all(|c| c == '_') {
            continue;
        }
        let run = if run.starts_with('_') && run.ends_with('_') {
            run
        } else {
            run.trim_matches('_')
        };
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(run.chars().flat_map(char::to_lowercase));
    }
    out.into_bytes()
}

/// `r` widened over the later file's lines that go on as the cited block does. A window runs
/// from its first distinctive line to its last, so the lines around them that say little on
/// their own (a closing `}` or `]`, a fence, `...`, a short line) were left out even where
/// they follow exactly as cited (pydata-sphinx-theme walk, stop 46: 11 windows ended one to
/// two lines early). At each end, while the next line out of the window equals the cited
/// line as far from the block's line the window ends on (by [`words`] for a document, else
/// trimmed), it is taken in; blank lines do not end a widened window.
///
/// The lines taken in follow the cited block's order, which a change may have rearranged: with
/// two methods swapped, the `}` and blank line the block had between them matched the `}` of
/// the function above the window (Go walk, `repro-2-reorder-text.sh`: the window started at
/// another method's closing brace). A line that only closes brackets at the top of a window
/// closes what the window does not open, so a window does not start with one (nor with the
/// blank lines after it) unless the cited block itself starts with it. Its mirror, a line that
/// only opens a bracket at the bottom, may open the block of a statement the window holds (a
/// multi-line `if` condition's `{`, fd's `walk.rs`), so ends are left as they are.
pub fn widen(r: &mut Relocation, later: &[&[u8]], cited: &[&[u8]], by_words: bool) {
    let eq = |a: &[u8], b: &[u8]| {
        if by_words {
            let (wa, wb) = (words(a), words(b));
            wa == wb && (!wa.is_empty() || a.trim_ascii() == b.trim_ascii())
        } else {
            a.trim_ascii() == b.trim_ascii()
        }
    };
    let blank = |l: &[u8]| l.trim_ascii().is_empty();
    let (lo, hi) = (r.start_line as usize, r.end_line as usize);
    if lo == 0 || hi > later.len() || lo > hi {
        return;
    }
    // After the window: from the last cited line its last line is.
    if let Some(j) = cited.iter().rposition(|c| eq(c, later[hi - 1])) {
        let mut end = hi;
        while j + (end - hi) + 1 < cited.len()
            && end < later.len()
            && eq(cited[j + (end - hi) + 1], later[end])
        {
            end += 1;
        }
        while end > hi && blank(later[end - 1]) {
            end -= 1;
        }
        r.end_line = end as u64;
    }
    // Before it: from the first cited line its first line is.
    if let Some(i) = cited.iter().position(|c| eq(c, later[lo - 1])) {
        let mut start = lo;
        while start > 1 && lo - start < i && eq(cited[i - (lo - start) - 1], later[start - 2]) {
            start -= 1;
        }
        let as_cited = lo - start == i;
        while start < lo
            && (blank(later[start - 1]) || (!as_cited && closes_only(later[start - 1])))
        {
            start += 1;
        }
        r.start_line = start as u64;
    }
}

/// Whether `line` only closes brackets (`}`, `})`, `],`, `};`): the end of code above it.
fn closes_only(line: &[u8]) -> bool {
    let t = line.trim_ascii();
    t.first().is_some_and(|b| b")]}".contains(b)) && t.iter().all(|b| b")]};,".contains(b))
}

/// Whether `path` is a document (prose in a markup language) by its extension: its ranges
/// are sought by their [`words`] in other documents too, since a passage keeps its words when
/// its markup changes, while code that keeps its words may still be other code. Plain `.txt`
/// is left out: projects keep code in it too (zoxide's shell templates).
pub fn is_document(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some((_, ext)) = name.rsplit_once('.').filter(|(stem, _)| !stem.is_empty()) else {
        return false;
    };
    matches!(
        ext.to_ascii_lowercase().as_str(),
        "md" | "markdown" | "mdx" | "rst" | "rest" | "adoc" | "asciidoc" | "org" | "html" | "htm"
    )
}

/// Evidence lines (from [`evidence_lines`]) as their [`words`], under the same rules: at
/// least [`MIN_ALNUM`] letters or digits, each once.
pub fn word_evidence(evidence: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let w: Vec<Vec<u8>> = evidence.iter().map(|l| words(l)).collect();
    let refs: Vec<&[u8]> = w.iter().map(Vec::as_slice).collect();
    evidence_lines(&refs)
        .into_iter()
        .map(<[u8]>::to_vec)
        .collect()
}

/// `data` with each line replaced by its [`words`]: the same lines, numbered the same.
pub fn words_of_file(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    for line in split_lines(data) {
        out.extend(words(line));
        out.push(b'\n');
    }
    out
}

/// The cited lines of several ranges, looked up together: each file of the later commit is
/// read once, whatever the number of ranges.
pub struct Sought<'a> {
    /// Each range's evidence lines, their [`weights`] and the block's length.
    ranges: Vec<Range<'a>>,
    /// Evidence line -> (range, index of the line in that range's evidence).
    lines: HashMap<&'a [u8], Vec<(usize, usize)>>,
}

/// One range sought: its evidence lines, their [`weights`], its block's length.
pub type Range<'a> = (Vec<&'a [u8]>, Vec<u64>, u64);

impl<'a> Sought<'a> {
    /// The ranges' evidence lines (from [`evidence_lines`]) with their blocks' lengths, each
    /// line of [`UNIT`] weight; ranges with fewer than [`MIN_LINES`] never relocate.
    pub fn new(ranges: Vec<(Vec<&'a [u8]>, u64)>) -> Self {
        Self::weighted(
            ranges
                .into_iter()
                .map(|(ev, span)| {
                    let w = vec![UNIT; ev.len()];
                    (ev, w, span)
                })
                .collect(),
        )
    }

    /// The ranges' evidence lines with their [`weights`] and their blocks' lengths. A line of
    /// weight 0 is a [`keyword_lines`] line: it never finds, chooses or weighs a window, and
    /// counts towards the half a window needs only when the window holds it, on both sides
    /// (it can only help): fd's global-ignore block moved into a new method with `walker`
    /// renamed `builder` kept its `Some(err) => {` and `None => (),` arms, which, no longer
    /// counted at all since stop 54, left the window at 5 of its 11 lines.
    pub fn weighted(ranges: Vec<Range<'a>>) -> Self {
        let mut lines: HashMap<&[u8], Vec<(usize, usize)>> = HashMap::new();
        for (r, (ev, _, _)) in ranges.iter().enumerate() {
            for (i, l) in ev.iter().enumerate() {
                lines.entry(l).or_default().push((r, i));
            }
        }
        Self { ranges, lines }
    }

    /// For each range, its best window in `data` (the file at `path` of the later commit).
    pub fn find(&self, path: &str, data: &[u8]) -> Vec<Option<Relocation>> {
        let mut hits: Vec<Vec<(u64, usize)>> = vec![Vec::new(); self.ranges.len()];
        for (n, line) in split_lines(data).into_iter().enumerate() {
            if let Some(found) = self.lines.get(line.trim_ascii()) {
                for &(r, i) in found {
                    hits[r].push((n as u64 + 1, i));
                }
            }
        }
        hits.into_iter()
            .zip(&self.ranges)
            .map(|(h, (_, weight, span))| best_window(path, h, weight, *span))
            .collect()
    }
}

/// The best window among `hits` ((line, index of the cited line), in line order) of a block of
/// `span` lines whose evidence lines weigh `weight` ([`weights`]); `None` when it holds less
/// than the minimum.
fn best_window(
    path: &str,
    mut hits: Vec<(u64, usize)>,
    weight: &[u64],
    span: u64,
) -> Option<Relocation> {
    let wanted = weight.len();
    let mut repeats = vec![0usize; wanted];
    for &(_, i) in &hits {
        repeats[i] += 1;
    }
    hits.retain(|&(_, i)| repeats[i] <= MAX_REPEATS);
    // Keyword lines (weight 0) only corroborate the window the others find.
    let keyword_hits: Vec<(u64, usize)> = hits
        .iter()
        .copied()
        .filter(|&(_, i)| weight[i] == 0)
        .collect();
    hits.retain(|&(_, i)| weight[i] > 0);
    // A line this file repeats is boilerplate here: no evidence either way, so it does not
    // count against the window either (`where`, `S: BuildHasher,` and `fn next(&mut self)` in
    // a file of eight iterators left an impl moved there word for word at "7 of 16", under
    // half: indexmap walk, stop 47).
    let counted = (repeats.iter().zip(weight))
        .filter(|&(&n, &w)| n <= MAX_REPEATS && w > 0)
        .count();
    // The evidence must be real besides: the lines weighing at least as much as two lines the
    // pinned file has nowhere else. Lines it has in other places too (`case JV_KIND_ARRAY:` in
    // every `switch` over a value's kind) weigh little, so a window of them is no relocation
    // (C walk on jq: `jv_get_refcnt`'s `case` lines were "4 of 7 distinctive lines" in
    // `jv_equal`). Half is counted in lines, not weight: a block edited in place keeps its
    // common lines more often than its own (fd's global ignore file, `walker` now `builder`).
    let need_weight = 2 * UNIT;
    if hits.len() < MIN_LINES {
        return None;
    }
    let width = 2 * span.max(1);
    // Two pointers over the hits: the window [lo, hi] spans less than `width` lines; `count`
    // holds how often each cited line occurs in it, `distinct` how many occur at all.
    let mut count = vec![0usize; wanted];
    let (mut distinct, mut score, mut lo) = (0usize, 0u64, 0usize);
    // (weight, distinct lines, first hit, last hit) of the best window so far.
    let mut best: Option<(u64, usize, usize, usize)> = None;
    for hi in 0..hits.len() {
        if count[hits[hi].1] == 0 {
            distinct += 1;
            score += weight[hits[hi].1];
        }
        count[hits[hi].1] += 1;
        while hits[hi].0 - hits[lo].0 >= width {
            count[hits[lo].1] -= 1;
            if count[hits[lo].1] == 0 {
                distinct -= 1;
                score -= weight[hits[lo].1];
            }
            lo += 1;
        }
        // Where the window starts: at `lo`, or past leading hits of lines that occur again
        // further in it (they hold no line the window lacks without them), whichever spans
        // nearest the cited block's length. A line the block repeats (`self._result =
        // result`) met first in the code above the moved block made the window start there
        // (maintainer's walk, stop 43: 21-60 where the 17 lines are at 39-60); a block that
        // repeats its own first line keeps it.
        let mut start = lo;
        let mut l = lo;
        let off = |l: usize| (hits[hi].0 - hits[l].0 + 1).abs_diff(span);
        while l < hi && count[hits[l].1] > 1 {
            count[hits[l].1] -= 1;
            l += 1;
            if off(l) < off(start) {
                start = l;
            }
        }
        for h in &hits[lo..l] {
            count[h.1] += 1;
        }
        // The window whose lines weigh most wins, then the one with the most lines, then the
        // one spanning nearest the block, then the first: deterministic, and nearest the top.
        // A window ending at a line it already holds adds nothing but length.
        let ends_new = count[hits[hi].1] == 1;
        if ends_new
            && best.is_none_or(|b| {
                (score, distinct) > (b.0, b.1)
                    || ((score, distinct) == (b.0, b.1)
                        && off(start) < off_of(&hits, (b.1, b.2, b.3), span))
            })
        {
            best = Some((score, distinct, start, hi));
        }
    }
    let (_, matched, lo, hi) = best.filter(|&(w, d, _, _)| d >= MIN_LINES && w >= need_weight)?;
    // Half of the lines, counting the keyword lines the window holds on both sides.
    let (first, last) = (hits[lo].0, hits[hi].0);
    let mut held: Vec<usize> = (keyword_hits.iter())
        .filter(|&&(n, _)| first <= n && n <= last)
        .map(|&(_, i)| i)
        .collect();
    held.sort_unstable();
    held.dedup();
    if 2 * (matched + held.len()) < counted + held.len() {
        return None;
    }
    Some(Relocation {
        path: path.to_string(),
        start_line: hits[lo].0,
        end_line: hits[hi].0,
        matched: matched as u64,
        of: counted as u64,
        by_words: false,
        mapped_holds: None,
        followed: false,
    })
}

/// How far the window `(_, lo, hi)` of `hits` spans from `span` lines.
fn off_of(hits: &[(u64, usize)], (_, lo, hi): (usize, usize, usize), span: u64) -> u64 {
    (hits[hi].0 - hits[lo].0 + 1).abs_diff(span)
}

/// What ranks one file's window against another's besides the lines it matched.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Standing {
    /// The window holds the cited block whole, every line of it in order, indentation and
    /// blank lines aside ([`holds_block`]): the block itself, re-indented or not.
    pub whole: bool,
    /// The file held as many of the cited lines at the pinned commit, in another place than
    /// the cited range: the window is code that was already there, which the reference did
    /// not cite (a test of the same name in another module).
    pub already_there: bool,
}

/// The better of two relocations: the one holding the cited block whole, then one that is
/// not code already there at the pinned commit, then more lines matched, then the tighter
/// window, then the path (so the choice does not depend on the order files were read in).
///
/// Whole comes before the count: in a file of tests, most of a test's lines (`#[test]`, `let
/// mut map = IndexMap::new();`) repeat more than [`MAX_REPEATS`] times and do not count, so
/// the test moved there whole scored 6 of 6 while another module's older test of the same
/// name scored 7 of 11, and won (indexmap walk, stop 51).
pub fn better(a: (Relocation, Standing), b: (Relocation, Standing)) -> (Relocation, Standing) {
    let key = |(r, s): &(Relocation, Standing)| {
        (
            !s.whole,
            s.already_there,
            std::cmp::Reverse(r.matched),
            r.end_line - r.start_line,
        )
    };
    match key(&a).cmp(&key(&b)).then_with(|| a.0.path.cmp(&b.0.path)) {
        std::cmp::Ordering::Greater => b,
        _ => a,
    }
}

/// Whether lines `start..=end` of `later` overlap an occurrence of the whole of `cited`: its
/// lines that are not blank, trimmed, in order, one after another among the later lines that
/// are not blank.
pub fn holds_block(later: &[&[u8]], cited: &[&[u8]], start: u64, end: u64) -> bool {
    let code = |l: &[u8]| !l.trim_ascii().is_empty();
    let want: Vec<&[u8]> = (cited.iter())
        .filter(|l| code(l))
        .map(|l| l.trim_ascii())
        .collect();
    let Some(first) = want.first() else {
        return false;
    };
    // (1-based line, trimmed text) of the later lines that are not blank.
    let lines: Vec<(u64, &[u8])> = (later.iter().enumerate())
        .filter(|(_, l)| code(l))
        .map(|(n, l)| (n as u64 + 1, l.trim_ascii()))
        .collect();
    (0..lines.len()).any(|at| {
        lines[at].1 == *first
            && lines.len() - at >= want.len()
            && (lines[at..at + want.len()].iter())
                .zip(&want)
                .all(|((_, l), w)| l == w)
            && lines[at].0 <= end
            && start <= lines[at + want.len() - 1].0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<&[u8]> {
        s.lines().map(str::as_bytes).collect()
    }

    const CITED: &str = "    fn serialize(dirs: &[Dir]) -> Result<Vec<u8>> {\n        let size = bincode::serialized_size(&VERSION)?;\n        let mut buffer = Vec::with_capacity(size);\n        bincode::serialize_into(&mut buffer, &VERSION)?;\n        bincode::serialize_into(&mut buffer, &dirs)?;\n        Ok(buffer)\n    }\n";

    #[test]
    fn moved_and_edited_code_is_found_and_boilerplate_is_not_evidence() {
        let wanted = evidence_lines(&lines(CITED));
        // Six lines count; the closing brace does not.
        assert_eq!(wanted.len(), 6);
        let later = "use x;\n\nimpl Database {\n    fn save(&self) {}\n\n    fn serialize(dirs: &[Dir]) -> Result<Vec<u8>> {\n        let size = bincode::serialized_size(&VERSION)?;\n        // a new comment\n        let mut buffer = Vec::with_capacity(size);\n        bincode::serialize_into(&mut buffer, &VERSION)?;\n        bincode::serialize_into(&mut buffer, &dirs)?;\n        Ok(buffer)\n    }\n}\n";
        let sought = Sought::new(vec![(wanted, 7)]);
        let find = |path: &str, text: &str| sought.find(path, text.as_bytes()).remove(0);
        let r = find("src/db/mod.rs", later).expect("found");
        assert_eq!((r.start_line, r.end_line, r.matched, r.of), (6, 12, 6, 6));
        // Lines found only far apart (beyond twice the block) do not make a window.
        let scattered = format!(
            "    fn serialize(dirs: &[Dir]) -> Result<Vec<u8>> {{\n{}        let mut buffer = Vec::with_capacity(size);\n{}        Ok(buffer)\n",
            "x\n".repeat(20),
            "y\n".repeat(20)
        );
        assert!(find("a.rs", &scattered).is_none());
        // A line repeated everywhere is boilerplate in that file.
        let noisy = "        Ok(buffer)\n".repeat(5)
            + "    fn serialize(dirs: &[Dir]) -> Result<Vec<u8>> {\n        let mut buffer = Vec::with_capacity(size);\n";
        assert!(find("b.rs", &noisy).is_none());
    }

    #[test]
    fn keyword_lines_are_no_evidence_and_lines_the_pinned_file_shares_weigh_little() {
        for l in [
            "default:",
            "break;",
            "return 0;",
            "} else {",
            "return None",
            "Ok(())",
            "return 1;",
        ] {
            assert!(generic(l.as_bytes()), "{l}");
        }
        for l in [
            "case JV_KIND_ARRAY:",
            "return j.u.ptr->count;",
            "self._result = r",
        ] {
            assert!(!generic(l.as_bytes()), "{l}");
        }
        // Two functions with the same `case` line; the second is cited.
        let pinned = lines(
            "int a(jv j) {\n  case K_ARRAY:\n  return j.size;\n}\nint b(jv j) {\n  case K_ARRAY:\n  return j.count;\n  default:\n}\n",
        );
        let ev = evidence_lines(&pinned[4..9]);
        assert_eq!(ev.len(), 3, "`default:` is no evidence");
        assert_eq!(
            weights(&ev, &pinned, 5, 9, false),
            vec![UNIT, UNIT / 2, UNIT]
        );
    }

    #[test]
    fn a_window_of_lines_the_pinned_file_shares_is_no_relocation() {
        // Rewritten in place: its own two lines are where it was; its `case` lines, which the
        // pinned file had in two other functions, are in one of those, further down.
        let ev: Vec<&[u8]> = vec![
            b"int refcnt(jv j) {",
            b"case K_ARRAY:",
            b"case K_STRING:",
            b"case K_OBJECT:",
            b"return j.count;",
        ];
        let w = vec![UNIT, UNIT / 3, UNIT / 3, UNIT / 3, UNIT];
        let later = format!(
            "int refcnt(jv j) {{\n  if (alloc(j))\n    return j.count;\n  return 1;\n}}\n{}int equal(jv a, jv b) {{\n  switch (kind(a)) {{\n  case K_ARRAY:\n    r = 1;\n  case K_STRING:\n    r = 2;\n  case K_OBJECT:\n    r = 3;\n  }}\n}}\n",
            "int filler;\n".repeat(20)
        );
        let sought = Sought::weighted(vec![(ev.clone(), w, 9)]);
        assert_eq!(sought.find("jv.c", later.as_bytes()).remove(0), None);
        // Weighed alike, as before, the three `case` lines of `equal` were "3 of 5".
        let sought = Sought::new(vec![(ev, 9)]);
        let r = sought
            .find("jv.c", later.as_bytes())
            .remove(0)
            .expect("found");
        assert_eq!((r.start_line, r.end_line, r.matched), (28, 32, 3), "{r:?}");
    }

    #[test]
    fn lines_a_file_repeats_count_neither_for_nor_against_a_window() {
        // An iterator impl moved word for word into a file of several iterators: its `where`
        // clause and `next` signature are everywhere there, its own lines once (indexmap walk,
        // stop 47: "7 of 16", under half, was no relocation).
        let block = "impl Iterator for Difference {\n    where\n        T: Eq + Hash,\n        S: BuildHasher,\n    type Item = T;\n    fn next(&mut self) -> Option<Self::Item> {\n        while let Some(item) = self.iter.next() {\n            if !self.other.contains(item) {\n                return Some(item);\n            }\n        }\n        None\n    }\n    fn size_hint(&self) -> (usize, Option<usize>) {\n        (0, self.iter.size_hint().1)\n    }\n}\n";
        let wanted = evidence_lines(&lines(block));
        // Its `None` line is generic: any function may end so.
        assert_eq!(wanted.len(), 11);
        let other = |name: &str| {
            format!("impl Iterator for {name} {{\n    where\n        T: Eq + Hash,\n        S: BuildHasher,\n    type Item = T;\n    fn next(&mut self) -> Option<Self::Item> {{\n        None\n    }}\n    fn size_hint(&self) -> (usize, Option<usize>) {{\n        (0, None)\n    }}\n}}\n")
        };
        let later = [
            other("Union"),
            other("Chain"),
            other("Zip"),
            block.to_string(),
        ]
        .concat();
        let sought = Sought::new(vec![(wanted, 17)]);
        let r = sought
            .find("src/iter.rs", later.as_bytes())
            .remove(0)
            .expect("found");
        // Seven lines the file repeats four times or more; the other five are all there.
        assert_eq!((r.start_line, r.end_line, r.matched, r.of), (37, 51, 5, 5));
    }

    #[test]
    fn a_window_does_not_start_at_a_repeated_line_met_above_the_block() {
        // The block sets `self._result` as the code above it does too: the window starts
        // where the block is, not at that earlier occurrence.
        let cited = "    def force_result(self, result):\n        self._result = result\n        self._excinfo = None\n\n    def get_result(self):\n        __tracebackhide__ = True\n        if self._excinfo is None:\n            return self._result\n        raise ex[1].with_traceback(ex[2])\n";
        let wanted = evidence_lines(&lines(cited));
        let mut later = String::from("class Result:\n    def __init__(self, result, excinfo):\n        self._result = result\n        self._excinfo = excinfo\n");
        later.push_str(&"    # padding\n".repeat(6));
        let at = later.lines().count() as u64 + 1;
        later.push_str(cited);
        let sought = Sought::new(vec![(wanted.clone(), 9)]);
        let r = sought
            .find("_result.py", later.as_bytes())
            .remove(0)
            .expect("found");
        assert_eq!(r.matched, wanted.len() as u64, "{r:?}");
        assert_eq!((r.start_line, r.end_line), (at, at + 8), "{r:?}");
        // A block that repeats its own first line keeps it: its span is the block's.
        let own = "        self._result = result\n        self._excinfo = None\n        log_result(self)\n        notify_hooks(self)\n        self._result = result\n        return self._result\n";
        let wanted = evidence_lines(&lines(own));
        let later = format!("def other():\n    pass\n{own}");
        let sought = Sought::new(vec![(wanted, 6)]);
        let r = sought
            .find("r.py", later.as_bytes())
            .remove(0)
            .expect("found");
        assert_eq!((r.start_line, r.end_line), (3, 8), "{r:?}");
    }

    #[test]
    fn a_line_reads_the_same_by_its_words_in_either_markup() {
        let rst = words(b"- A tuple of ``(args, kwargs)`` passed to :func:`structlog.wrap`.");
        let md = words(b"* A tuple of `(args, kwargs)` passed to {func}`structlog.wrap`.  ");
        assert_eq!(
            rst,
            b"a tuple of args kwargs passed to func structlog wrap".to_vec()
        );
        assert_eq!(rst, md);
        // A reStructuredText link's trailing underscores are markup; a name's are its own.
        assert_eq!(
            words(b"use `RegEx101 <https://regex101.com>`__ or __init__"),
            words(b"use [RegEx101](https://regex101.com) or __init__")
        );
        assert_eq!(words(b"`a <b>`_"), b"a b".to_vec());
        assert_eq!(words(b"__init__"), b"__init__".to_vec());
        // A link by name and its target, in either markup.
        assert_eq!(
            words(b"see PR45282_ for more"),
            words(b"see [PR45282] for more")
        );
        assert_eq!(
            words(b".. _PR45282: https://github.com/rust-lang/rust/pull/45282"),
            words(b"[PR45282]: https://github.com/rust-lang/rust/pull/45282")
        );
        // Documents by their extension; code and plain text are not.
        assert!(is_document("docs/Guide.RST") && is_document("README.md"));
        assert!(!is_document("templates/zsh.txt") && !is_document("src/lib.rs"));
        assert!(!is_document("Makefile") && !is_document("docs/.md"));
        // Other scripts keep their letters, capitals lowered; a heading's underline has no
        // words; typographic punctuation is punctuation.
        assert_eq!(words("GRÖßE: ``size``".as_bytes()), "größe size".as_bytes());
        assert_eq!(
            words("the page’s footer — “left”".as_bytes()),
            words(b"the page's footer - \"left\"")
        );
        assert!(words(b"=========").is_empty());
        // Evidence by words keeps the rules: four letters or digits, each line once.
        let ev = word_evidence(&[
            b"``Retries``".to_vec(),
            b"Retries".to_vec(),
            b"- ``a``".to_vec(),
        ]);
        assert_eq!(ev, vec![b"retries".to_vec()]);
        // Line numbers survive.
        assert_eq!(
            words_of_file(b"A ``b``\r\n\nC-d\n"),
            b"a b\n\nc d\n\n".to_vec()
        );
    }

    #[test]
    fn a_window_takes_in_the_lines_that_go_on_as_cited() {
        // The block's closing lines say little on their own and were left out of the window,
        // though they follow in the later file exactly as cited.
        let cited = lines(
            "    if let Some(x) = parse(text) {\n        total += x.value;\n        count += x.weight;\n        seen.insert(x.name);\n    }\n}\n",
        );
        let mut later = String::from("fn other() {}\n\nfn sum(text: &str) {\n");
        later.push_str(
            "    if let Some(x) = parse(text) {\n        total += x.value;\n        count += x.weight;\n        seen.insert(x.name);\n    }\n}\n\n}\n",
        );
        let later = lines(&later);
        let mut r = Relocation {
            path: "a.rs".into(),
            start_line: 4,
            end_line: 7,
            matched: 4,
            of: 4,
            by_words: false,
            mapped_holds: None,
            followed: false,
        };
        widen(&mut r, &later, &cited, false);
        // Both closing braces (8, 9); not the blank line after them, nor the brace beyond
        // the cited block (11).
        assert_eq!((r.start_line, r.end_line), (4, 9), "{r:?}");
        // A line that differs stops it; by words, markup does not.
        let cited = lines("Intro line here\n``x = 1``\nthe value of ``x``\n");
        let later = lines("Intro line here\n`x = 1`\nthe value of `x`\n");
        let mut r = Relocation {
            path: "a.md".into(),
            start_line: 1,
            end_line: 1,
            matched: 1,
            of: 3,
            by_words: true,
            mapped_holds: None,
            followed: false,
        };
        widen(&mut r, &later, &cited, true);
        assert_eq!((r.start_line, r.end_line), (1, 3), "{r:?}");
        let mut bytes = Relocation {
            by_words: false,
            ..r.clone()
        };
        bytes.end_line = 1;
        widen(&mut bytes, &later, &cited, false);
        assert_eq!(bytes.end_line, 1, "{bytes:?}");
    }

    #[test]
    fn a_window_does_not_start_with_the_brackets_of_the_code_above_it() {
        // Two methods cited in one order and found in the other: the `}` and blank line the
        // block has between them also go on before the second one found, closing the function
        // above it (Go walk, `repro-2-reorder-text.sh`).
        let cited = lines(
            "func (v Version) String() string {\n\treturn versionName(v)\n}\n\nfunc (v Variant) String() string {\n\treturn variantName(v)\n}\n",
        );
        let later = lines(
            "func (uuid UUID) Version() Version {\n\treturn Version(uuid[6] >> 4)\n}\n\nfunc (v Variant) String() string {\n\treturn variantName(v)\n}\n\nfunc (v Version) String() string {\n\treturn versionName(v)\n}\n",
        );
        let mut r = Relocation {
            path: "uuid.go".into(),
            start_line: 5,
            end_line: 10,
            matched: 4,
            of: 4,
            by_words: false,
            mapped_holds: None,
            followed: false,
        };
        widen(&mut r, &later, &cited, false);
        // From the first method's `func` line to the second's `}`, which closes what the
        // window opened.
        assert_eq!((r.start_line, r.end_line), (5, 11), "{r:?}");
        // A block that starts with a closing brace keeps it where it is found as cited.
        let cited = lines("}\n\nfunc (v Variant) String() string {\n\treturn variantName(v)\n");
        let mut r = Relocation {
            start_line: 5,
            end_line: 6,
            ..r
        };
        widen(&mut r, &later, &cited, false);
        assert_eq!((r.start_line, r.end_line), (3, 6), "{r:?}");
    }

    #[test]
    fn the_better_relocation_is_chosen_whatever_the_order() {
        let r = |path: &str, s, e, m| {
            let r = Relocation {
                by_words: false,
                path: path.into(),
                start_line: s,
                end_line: e,
                matched: m,
                of: 6,
                mapped_holds: None,
                followed: false,
            };
            (r, Standing::default())
        };
        let path = |(r, _): (Relocation, Standing)| r.path;
        assert_eq!(path(better(r("a", 1, 9, 4), r("b", 1, 9, 5))), "b");
        assert_eq!(path(better(r("b", 1, 9, 5), r("a", 1, 9, 4))), "b");
        assert_eq!(path(better(r("a", 1, 20, 5), r("b", 1, 9, 5))), "b");
        assert_eq!(path(better(r("b", 1, 9, 5), r("a", 1, 9, 5))), "a");
        // The block whole beats more lines; code already there loses to code that was not.
        let whole = |mut x: (Relocation, Standing)| {
            x.1.whole = true;
            x
        };
        let there = |mut x: (Relocation, Standing)| {
            x.1.already_there = true;
            x
        };
        assert_eq!(path(better(r("a", 1, 9, 7), whole(r("b", 1, 9, 6)))), "b");
        assert_eq!(path(better(whole(r("b", 1, 9, 6)), r("a", 1, 9, 7))), "b");
        assert_eq!(path(better(there(r("a", 1, 9, 7)), r("b", 1, 9, 6))), "b");
    }

    #[test]
    fn a_block_is_held_whole_whatever_its_indentation_and_blank_lines() {
        let cited = lines("    #[test]\n    fn t() {\n\n        let m = new();\n    }\n");
        let later = lines("fn u() {}\n#[test]\nfn t() {\n    let m = new();\n}\n");
        assert!(holds_block(&later, &cited, 3, 4));
        // Not where the window is, or with a line missing.
        assert!(!holds_block(&later, &cited, 1, 1));
        let partial = lines("#[test]\nfn t() {\n    let m = other();\n}\n");
        assert!(!holds_block(&partial, &cited, 1, 4));
    }
}
