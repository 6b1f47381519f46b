//! A reader for `articles:` items in the exact block layout Context's writer produces, about
//! an order of magnitude faster than a general YAML parse.
//!
//! It accepts only a small, unambiguous subset: block mappings with plain identifier keys,
//! block sequences of mappings, `[]`, one-line flow mappings of scalars (the `locator:` short
//! form), plain scalars without indicators, comments or `: `, and quoted scalars without
//! escapes. Anything else — and any duplicate or unknown key — returns `None`, and the caller
//! parses the chunk with the YAML parser instead. So the result, when there is one, is exactly
//! what the general parse would give.

use super::{ArticleEntry, BlockItem, Locator, LocatorParts, ReferenceEntry, SectionEntry};
use std::borrow::Cow;
use yaml_serde::Value;

/// A scalar as the YAML core schema resolves it, reduced to what the typed structure uses.
#[derive(Debug, Clone, PartialEq)]
enum Scalar<'a> {
    /// Borrowed from the text unless unquoting changed it (`''` in a single-quoted scalar).
    Str(Cow<'a, str>),
    Null,
    Uint(u64),
    /// A boolean, a negative or non-integer number: never a string, never a line number.
    Other,
}

/// A mapping's entries, keys and scalars borrowed from the text: the tree is only a step on
/// the way to the typed entries, so it allocates no string of its own.
type Map<'a> = Vec<(&'a str, Node<'a>)>;

#[derive(Debug, Clone, PartialEq)]
enum Node<'a> {
    Scalar(Scalar<'a>),
    /// Items with the 1-based line of each item's `-`.
    Seq(Vec<(u64, Map<'a>)>),
    Map(Map<'a>),
}

struct Lines<'a> {
    /// (indent, 1-based line number, text after the indent) of each line that is not blank
    /// or a comment.
    lines: Vec<(usize, u64, &'a str)>,
    pos: usize,
}

impl<'a> Lines<'a> {
    fn peek(&self) -> Option<(usize, &'a str)> {
        self.lines.get(self.pos).map(|&(ind, _, t)| (ind, t))
    }
}

/// Reads the articles of `items` (consecutive items of the `articles:` sequence of `text`),
/// with the `line` of every article, section and reference filled: the same lines
/// [`super::fill_lines`] finds for them, since both count the items of one block layout.
pub(super) fn articles(text: &str, items: &[BlockItem]) -> Option<Vec<ArticleEntry>> {
    let (first, last) = (items.first()?, items.last()?);
    let mut lines = Vec::new();
    for (n, _, line) in super::scan_lines(text, first.start, last.end, first.line) {
        let printable = if line.is_ascii() {
            line.bytes().all(|b| b >= b' ' && b != 0x7f)
        } else {
            line.chars().all(plain_printable)
        };
        if !printable {
            return None;
        }
        let t = line.trim_start_matches(' ');
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        lines.push((line.len() - t.len(), n, t));
    }
    let mut cur = Lines { lines, pos: 0 };
    let col = first.indent;
    let seq = seq(&mut cur, col)?;
    if cur.peek().is_some() || seq.len() != items.len() {
        return None;
    }
    seq.into_iter().map(|(n, m)| article(n, m)).collect()
}

/// Characters the YAML scanner takes as ordinary printable text. Tabs, controls, the BOM and
/// the characters YAML 1.1 treats as line breaks (NEL, LS, PS) are left to the YAML parser.
fn plain_printable(c: char) -> bool {
    (c >= ' ' && c != '\u{7f}')
        && !('\u{80}'..='\u{9f}').contains(&c)
        && !matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
        )
}

/// A block sequence of mappings whose dashes are at `col`.
fn seq<'a>(cur: &mut Lines<'a>, col: usize) -> Option<Vec<(u64, Map<'a>)>> {
    let mut out = Vec::new();
    while let Some((ind, t)) = cur.peek() {
        if ind < col {
            break;
        }
        if ind > col {
            return None;
        }
        let rest = t.strip_prefix("- ")?;
        let inner = rest.trim_start_matches(' ');
        let content_col = col + 2 + (rest.len() - inner.len());
        let n = cur.lines[cur.pos].1;
        cur.lines[cur.pos] = (content_col, n, inner);
        out.push((n, map(cur, content_col)?));
    }
    Some(out)
}

/// A block mapping whose keys are at `col` (the current line is its first entry).
fn map<'a>(cur: &mut Lines<'a>, col: usize) -> Option<Map<'a>> {
    let mut out: Map<'a> = Vec::new();
    while let Some((ind, t)) = cur.peek() {
        if ind < col {
            break;
        }
        if ind > col || t.starts_with('-') {
            return None;
        }
        let (key, value) = entry(t)?;
        if out.iter().any(|(k, _)| *k == key) {
            return None;
        }
        cur.pos += 1;
        let node = match value {
            Some(v) => inline_value(v)?,
            None => match cur.peek() {
                Some((n, t)) if n > col && t.starts_with("- ") => Node::Seq(seq(cur, n)?),
                Some((n, t)) if n == col && t.starts_with("- ") => Node::Seq(seq(cur, n)?),
                Some((n, _)) if n > col => Node::Map(map(cur, n)?),
                _ => Node::Scalar(Scalar::Null),
            },
        };
        out.push((key, node));
    }
    Some(out)
}

/// `key: value` or `key:`; the key a plain identifier.
fn entry(t: &str) -> Option<(&str, Option<&str>)> {
    let key_len = t
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    if key_len == 0 {
        return None;
    }
    let after = t[key_len..].strip_prefix(':')?;
    if after.trim_end_matches([' ', '\r']).is_empty() {
        return Some((&t[..key_len], None));
    }
    let v = after.strip_prefix(' ')?.trim_matches([' ', '\r']);
    Some((&t[..key_len], Some(v)))
}

fn inline_value(v: &str) -> Option<Node<'_>> {
    if v == "[]" {
        return Some(Node::Seq(Vec::new()));
    }
    if let Some(inner) = v.strip_prefix('{') {
        let inner = inner.strip_suffix('}')?;
        let mut out: Map = Vec::new();
        if inner.trim().is_empty() {
            return Some(Node::Map(out));
        }
        for part in inner.split(',') {
            let (k, val) = part.trim_matches(' ').split_once(": ")?;
            if k.is_empty()
                || !k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                || out.iter().any(|(key, _)| *key == k)
            {
                return None;
            }
            let val = val.trim_matches(' ');
            // Flow context gives `:`, `#` and brackets meanings of their own: leave any of
            // them to the YAML parser.
            if val.contains(['[', ']', '{', '}', ':', '#']) {
                return None;
            }
            out.push((k, Node::Scalar(scalar(val)?)));
        }
        return Some(Node::Map(out));
    }
    Some(Node::Scalar(scalar(v)?))
}

fn scalar(v: &str) -> Option<Scalar<'_>> {
    if let Some(inner) = v.strip_prefix('"') {
        let inner = inner.strip_suffix('"')?;
        if inner.contains(['"', '\\']) {
            return None;
        }
        return Some(Scalar::Str(Cow::Borrowed(inner)));
    }
    if let Some(inner) = v.strip_prefix('\'') {
        let inner = inner.strip_suffix('\'')?;
        if inner.replace("''", "").contains('\'') {
            return None;
        }
        return Some(Scalar::Str(if inner.contains('\'') {
            Cow::Owned(inner.replace("''", "'"))
        } else {
            Cow::Borrowed(inner)
        }));
    }
    let first = v.bytes().next()?;
    if b"-?:,[]{}#&*!|>'\"%@`".contains(&first)
        || v.contains(": ")
        || v.contains(" #")
        || v.ends_with(':')
    {
        return None;
    }
    if first.is_ascii_digit() && v.bytes().all(|b| b.is_ascii_digit()) {
        if v.len() > 1 && first == b'0' {
            // Leading zeros: a string in YAML 1.2 (and so for the YAML parser).
            return Some(Scalar::Str(Cow::Borrowed(v)));
        }
        // Past u64 the YAML parser's own rules apply.
        return v.parse().ok().map(Scalar::Uint);
    }
    let maybe_special = first.is_ascii_digit()
        || matches!(first, b'+' | b'.' | b'~')
        || matches!(
            v,
            "null" | "Null" | "NULL" | "true" | "True" | "TRUE" | "false" | "False" | "FALSE"
        );
    if !maybe_special {
        return Some(Scalar::Str(Cow::Borrowed(v)));
    }
    // Rare: let the YAML parser resolve numbers, booleans and nulls exactly.
    Some(match yaml_serde::from_str::<Value>(v).ok()? {
        Value::String(s) if s == v => Scalar::Str(Cow::Owned(s)),
        Value::Null => Scalar::Null,
        Value::Number(n) => n.as_u64().map_or(Scalar::Other, Scalar::Uint),
        Value::Bool(_) => Scalar::Other,
        _ => return None,
    })
}

fn string(node: Node) -> Option<String> {
    match node {
        Node::Scalar(Scalar::Str(s)) => Some(s.into_owned()),
        _ => None,
    }
}

fn article(line: u64, m: Map) -> Option<ArticleEntry> {
    let mut a = ArticleEntry {
        line,
        ..Default::default()
    };
    for (k, v) in m {
        match k {
            "article_id" => a.article_id = string(v),
            "path" => a.path = string(v),
            "collection" => a.collection = string(v),
            "visibility" => a.visibility = string(v),
            "sections" => {
                a.sections = match v {
                    Node::Seq(items) => Some(
                        items
                            .into_iter()
                            .map(|(n, m)| section(n, m))
                            .collect::<Option<_>>()?,
                    ),
                    _ => None,
                }
            }
            _ => return None,
        }
    }
    Some(a)
}

fn section(line: u64, m: Map) -> Option<SectionEntry> {
    let mut s = SectionEntry {
        line,
        ..Default::default()
    };
    for (k, v) in m {
        match k {
            "id" => s.id = string(v),
            "references" => {
                s.references = match v {
                    Node::Seq(items) => Some(
                        items
                            .into_iter()
                            .map(|(n, m)| reference(n, m))
                            .collect::<Option<_>>()?,
                    ),
                    _ => None,
                }
            }
            _ => return None,
        }
    }
    Some(s)
}

fn reference(line: u64, m: Map) -> Option<ReferenceEntry> {
    let mut r = ReferenceEntry {
        line,
        ..Default::default()
    };
    for (k, v) in m {
        match k {
            "source_ref" => match v {
                Node::Scalar(Scalar::Str(s)) => {
                    r.source_ref = Some(s.into_owned());
                    r.source_ref_is_string = true;
                }
                Node::Scalar(Scalar::Null) => {}
                // Other scalars are echoed in YAML form: leave those to the YAML parser.
                _ => return None,
            },
            "content_digest" => r.content_digest = string(v),
            "locator" => {
                r.has_locator = true;
                if let Node::Map(entries) = v {
                    let mut parts = LocatorParts::default();
                    for (lk, lv) in entries {
                        let line = |lv: Node| match lv {
                            Node::Scalar(Scalar::Uint(n)) => Some(n),
                            _ => None,
                        };
                        match lk {
                            "path" => parts.path = string(lv),
                            "start_line" => parts.start_line = line(lv),
                            "end_line" => parts.end_line = line(lv),
                            _ => return None,
                        }
                    }
                    r.locator = match (&parts.path, parts.start_line, parts.end_line) {
                        (Some(path), Some(start_line), Some(end_line)) => Some(Locator {
                            path: path.clone(),
                            start_line,
                            end_line,
                        }),
                        _ => None,
                    };
                    r.locator_parts = parts;
                }
            }
            _ => return None,
        }
    }
    Some(r)
}
