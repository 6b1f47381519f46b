//! Excerpts: the sentences of a section that best match the query, with their line numbers in
//! the page, so an agent can answer from the pack alone.
//!
//! A section's body is split into sentences (at `. `, `? `, `! `, blank lines, list items and
//! headings); each sentence scores the idf of the distinct query terms it holds (a heading
//! line scores nothing: the pack already names the section). The best sentences are taken,
//! best first (ties: earlier), while they fit in [`MAX_EXCERPT_CHARS`], and shown in page
//! order. With no matching sentence the excerpt is the section's first sentences.

use crate::retrieval::rank::Ranking;
use serde::{Deserialize, Serialize};

/// Characters of excerpt text per section at most.
pub const MAX_EXCERPT_CHARS: usize = 600;

/// One sentence of an excerpt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExcerptLine {
    /// 1-based line of the page where the sentence starts.
    pub line: u64,
    /// The last line of the page the sentence reaches, when it is not `line`: an agent that
    /// reads the page at these lines reads the whole sentence.
    #[serde(rename = "endLine", default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u64>,
    /// The sentence, whitespace collapsed.
    pub text: String,
}

struct Sentence {
    line: u64,
    end_line: u64,
    text: String,
    heading: bool,
}

/// Splits a section body (whose first line is page line `first_line`) into sentences.
fn sentences(body: &str, first_line: u64) -> Vec<Sentence> {
    let mut out: Vec<Sentence> = Vec::new();
    let mut cur = String::new();
    // The page lines the pending sentence spans.
    let mut span = (first_line, first_line);
    let mut in_fence = false;
    // Inside an inline code span that goes on over lines: no sentence ends there.
    let mut in_code = false;
    let flush = |cur: &mut String, span: (u64, u64), out: &mut Vec<Sentence>, heading: bool| {
        let t = cur.split_whitespace().collect::<Vec<_>>().join(" ");
        if !t.is_empty() {
            out.push(Sentence {
                line: span.0,
                end_line: span.1,
                text: t,
                heading,
            });
        }
        cur.clear();
    };
    let lines: Vec<&str> = body.split('\n').collect();
    for (i, raw) in lines.iter().enumerate() {
        let line_no = first_line + i as u64;
        let l = raw.trim();
        if l.starts_with("```") || l.starts_with("~~~") {
            flush(&mut cur, span, &mut out, false);
            in_fence = !in_fence;
            in_code = false;
            continue;
        }
        if in_fence {
            // Code stays line by line.
            cur.push_str(l);
            flush(&mut cur, (line_no, line_no), &mut out, false);
            continue;
        }
        if l.is_empty() || l.starts_with("<!--") {
            flush(&mut cur, span, &mut out, false);
            // A code span ends with its paragraph.
            in_code = false;
            continue;
        }
        if l.starts_with('#') {
            flush(&mut cur, span, &mut out, false);
            cur.push_str(l.trim_start_matches('#'));
            flush(&mut cur, (line_no, line_no), &mut out, true);
            continue;
        }
        let item = l.starts_with("- ") || l.starts_with("* ") || l.starts_with("| ");
        if item {
            flush(&mut cur, span, &mut out, false);
            in_code = false;
        }
        if cur.is_empty() {
            span.0 = line_no;
        }
        span.1 = line_no;
        // Split the line at sentence ends; a sentence may continue on the next line.
        let mut rest = l;
        while let Some(p) = sentence_end(rest, &mut in_code) {
            cur.push(' ');
            cur.push_str(&rest[..=p]);
            flush(&mut cur, span, &mut out, false);
            span = (line_no, line_no);
            rest = rest[p + 1..].trim_start();
        }
        if !rest.is_empty() {
            cur.push(' ');
            cur.push_str(rest);
            // A sentence that ends the line, when the next line starts another: wrapped
            // prose often breaks there, and the two are separate sentences all the same.
            let next = lines.get(i + 1).and_then(|n| n.trim().bytes().next());
            if !in_code && next.is_some_and(starts_sentence) && ends_sentence(rest.as_bytes()) {
                flush(&mut cur, span, &mut out, false);
            }
        }
    }
    flush(&mut cur, span, &mut out, false);
    out
}

/// The byte index of the first sentence end in `s` (`.`, `?` or `!` followed by a space and
/// an uppercase letter, a backtick or a quote), not counting abbreviations like `e.g.` nor
/// anything inside an inline code span (`` `ValueError("Bad. Try again")` ``). `in_code` says
/// whether `s` starts inside a code span, and is left saying whether the text scanned ends in
/// one (a span may go on over the next line).
fn sentence_end(s: &str, in_code: &mut bool) -> Option<usize> {
    let b = s.as_bytes();
    for i in 0..b.len() {
        if b[i] == b'`' {
            *in_code = !*in_code;
            continue;
        }
        if *in_code || i + 2 >= b.len() {
            continue;
        }
        if b[i + 1] == b' ' && starts_sentence(b[i + 2]) && ends_sentence(&b[..=i]) {
            return Some(i);
        }
    }
    None
}

/// Whether `b` ends with a sentence's end: `.`, `?` or `!`, not an abbreviation like `e.g.`.
fn ends_sentence(b: &[u8]) -> bool {
    let abbrev = [b"e.g.", b"i.e."].iter().any(|a| b.ends_with(*a));
    matches!(b.last(), Some(b'.' | b'?' | b'!')) && !abbrev
}

/// Whether a sentence may start with this byte: an uppercase letter, a backtick or a quote.
fn starts_sentence(c: u8) -> bool {
    c.is_ascii_uppercase() || c == b'`' || c == b'"'
}

/// Whether a sentence holds a query term: a word of it starts with the term (terms are stems,
/// which begin their words: `retri` in "retries"; a stem ending in `i` also matches the `y`
/// spelling, "retry"), or the term occurs as written when it is a flag (`-H` is not `-h`) or a
/// compound. Substring tests rather than tokenizing every sentence: this runs on each top
/// section of every pack.
fn holds(text: &str, lower: &str, term: &str) -> bool {
    if term == crate::retrieval::tokens::BARE_DASHES {
        return holds_bare_dashes(text);
    }
    if term.starts_with('-') {
        let short = !term.starts_with("--");
        return starts_word(if short { text } else { lower }, term);
    }
    starts_word(lower, term)
        || term
            .strip_suffix('i')
            .is_some_and(|stem| starts_word(lower, &format!("{stem}y")))
}

/// The summed weight of the searched `terms` that `text` holds ([`holds`]).
fn weight_held(text: &str, terms: &[(&str, f64)]) -> f64 {
    let lower = text.to_lowercase();
    terms
        .iter()
        .filter(|(q, _)| holds(text, &lower, q))
        .map(|(_, w)| w)
        .sum()
}

/// Whether `text` holds a bare `--` (not a long flag's start, not part of `---`).
fn holds_bare_dashes(text: &str) -> bool {
    let b = text.as_bytes();
    let joined = |c: Option<&u8>| c.is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'-');
    text.match_indices("--")
        .any(|(at, _)| !joined(at.checked_sub(1).and_then(|i| b.get(i))) && !joined(b.get(at + 2)))
}

/// Whether `needle` occurs in `hay` at the start of a word.
fn starts_word(hay: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return false;
    }
    let mut from = 0;
    while let Some(p) = hay[from..].find(needle) {
        let at = from + p;
        let before = hay[..at].chars().next_back();
        if before.is_none_or(|c| !c.is_alphanumeric() && c != '-' || needle.starts_with('-')) {
            return true;
        }
        from = at + needle.len();
    }
    false
}

/// Cuts `s` to at most `max` characters at a word boundary, with an ellipsis.
fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    if let Some(p) = out.rfind(' ') {
        if p > max / 2 {
            out.truncate(p);
        }
    }
    out.push('…');
    out
}

/// The excerpt of a section body (first body line = page line `first_line`) for the query
/// terms of `ranking`.
pub fn excerpt(body: &str, first_line: u64, ranking: &Ranking, max: usize) -> Vec<ExcerptLine> {
    let max = max.min(MAX_EXCERPT_CHARS);
    let sents = sentences(body, first_line);
    let terms = ranking.searched_terms();
    let mut scored: Vec<(usize, f64)> = sents
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.heading)
        .map(|(i, s)| (i, weight_held(&s.text, &terms)))
        .collect();
    if scored.iter().all(|(_, s)| *s == 0.0) {
        // Nothing matches: the opening sentences say what the section is about.
        scored.iter_mut().for_each(|(i, s)| *s = -(*i as f64));
    } else {
        scored.retain(|(_, s)| *s > 0.0);
    }
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut chosen: Vec<usize> = Vec::new();
    let mut used = 0usize;
    for (i, _) in scored {
        let len = sents[i].text.chars().count();
        if used + len <= max {
            chosen.push(i);
            used += len;
        } else if chosen.is_empty() {
            chosen.push(i);
            used = max;
        }
        if used + 40 > max {
            break;
        }
    }
    chosen.sort_unstable();
    chosen
        .into_iter()
        .map(|i| ExcerptLine {
            line: sents[i].line,
            end_line: (sents[i].end_line > sents[i].line).then_some(sents[i].end_line),
            text: cut(&sents[i].text, max),
        })
        .collect()
}

/// Characters of the one sentence a section below the first [`super::EXCERPT_SECTIONS`]
/// carries at most.
pub const LATER_EXCERPT_CHARS: usize = 200;

/// The one sentence of a section below the first three that best matches the query (ties:
/// earlier), cut at [`LATER_EXCERPT_CHARS`]; none when no sentence holds a query term (its
/// opening says less than its title and citations already do). The stop-54 MCP walk found the
/// answer in the fifth section ("Default timeout") of a pack whose sections 4–8 were titles
/// only.
pub fn best_sentence(body: &str, first_line: u64, ranking: &Ranking) -> Vec<ExcerptLine> {
    let sents = sentences(body, first_line);
    let terms = ranking.searched_terms();
    let mut best: Option<(usize, f64)> = None;
    for (i, s) in sents.iter().enumerate().filter(|(_, s)| !s.heading) {
        let score = weight_held(&s.text, &terms);
        if score > 0.0 && best.is_none_or(|(_, b)| score > b) {
            best = Some((i, score));
        }
    }
    best.map(|(i, _)| ExcerptLine {
        line: sents[i].line,
        end_line: (sents[i].end_line > sents[i].line).then_some(sents[i].end_line),
        text: cut(&sents[i].text, LATER_EXCERPT_CHARS),
    })
    .into_iter()
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_keep_their_page_lines() {
        let body = "## Retries\n\nThe client retries twice. It waits\n250 ms between tries.\n\n- a list item\n```\ncode()\n```";
        let s = sentences(body, 10);
        let got: Vec<(u64, u64, &str)> = s
            .iter()
            .map(|s| (s.line, s.end_line, s.text.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![
                (10, 10, "Retries"),
                (12, 12, "The client retries twice."),
                (12, 13, "It waits 250 ms between tries."),
                (15, 15, "- a list item"),
                (17, 17, "code()"),
            ]
        );
    }

    /// The sentences of a body starting at line 1: first and last line, text.
    fn spans(body: &str) -> Vec<(u64, u64, String)> {
        sentences(body, 1)
            .into_iter()
            .map(|s| (s.line, s.end_line, s.text))
            .collect()
    }

    #[test]
    fn a_sentence_that_ends_its_line_ends_there() {
        // Wrapped prose (the click corpus's options page): the line ends with a sentence and
        // the next begins another. An abbreviation, a lower-case continuation and a code span
        // still running at the line's end do not end one.
        let body = "Options are optional;\n`required=True` makes click fail.\n`show_default=True` adds the default.\nUse a callable, e.g.\nThis one. or\nthat one `a.\nB` here.";
        assert_eq!(
            spans(body),
            vec![
                (
                    1,
                    2,
                    "Options are optional; `required=True` makes click fail.".to_string()
                ),
                (3, 3, "`show_default=True` adds the default.".to_string()),
                (
                    4,
                    7,
                    "Use a callable, e.g. This one. or that one `a. B` here.".to_string()
                ),
            ]
        );
    }

    #[test]
    fn sentence_ends_are_found_in_any_text() {
        let end = |s: &str| sentence_end(s, &mut false);
        assert_eq!(end("ends here. Next"), Some(9));
        assert_eq!(end("e.g. This"), None);
        assert_eq!(end("…. `x` …. Y"), Some(3));
        assert_eq!(end("… x …. Y"), Some(9));
        assert_eq!(end("é. Ä"), None);
        // Not inside a code span, which may have begun on an earlier line.
        assert_eq!(end("raises `E(\"Bad. Try\")`. Next"), Some(22));
        let mut in_code = true;
        assert_eq!(sentence_end("Try again.\")`. Next", &mut in_code), Some(13));
        assert!(!in_code);
        assert_eq!(sentence_end("a `span. Goes", &mut in_code), None);
        assert!(in_code);
    }

    #[test]
    fn a_code_span_over_two_lines_stays_in_one_sentence() {
        let body = "A bad tuple raises\n`ValueError(\"Invalid timeout ... Pass a tuple, or a\nfloat.\")`. The rest.";
        assert_eq!(
            spans(body),
            vec![
                (
                    1,
                    3,
                    "A bad tuple raises `ValueError(\"Invalid timeout ... Pass a tuple, or a float.\")`."
                        .to_string()
                ),
                (3, 3, "The rest.".to_string()),
            ]
        );
    }

    #[test]
    fn sentences_hold_terms_at_word_starts() {
        let t = "The client retries; `-H` shows hidden files, retry=3.";
        let l = t.to_lowercase();
        assert!(holds(t, &l, "retri"));
        assert!(holds("we retry", "we retry", "retri"));
        assert!(holds(t, &l, "-H"));
        assert!(!holds(t, &l, "-h"));
        assert!(holds(t, &l, "hidden"));
        assert!(!holds(t, &l, "lient"));
        assert!(!holds(t, &l, "timeout"));
        let d = "A `--` ends options; --hidden and --- do not.";
        assert!(holds(d, d, "--"));
        assert!(!holds("--hidden and --- are not bare", "", "--"));
    }

    #[test]
    fn long_sentences_are_cut_at_a_word() {
        let s = "word ".repeat(300);
        let c = cut(s.trim(), MAX_EXCERPT_CHARS);
        assert!(c.chars().count() <= MAX_EXCERPT_CHARS, "{}", c.len());
        assert!(c.ends_with('…'));
    }
}
