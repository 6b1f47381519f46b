//! A fast reader for the plain block-YAML subset that Context writes into structure.yaml.
//!
//! The general YAML crate is the slowest step of a cold build (about 24 MB/s). Context writes a
//! narrow subset: block mappings and sequences, plain keys, plain or simply quoted scalars, and
//! one-line flow mappings and sequences of scalars. This reader accepts exactly that subset
//! and produces the same [`Value`] the YAML crate would; on anything else — anchors, tags,
//! block scalars, escapes, multi-line scalars, ambiguous plain scalars (numbers other than
//! plain decimal integers, booleans, nulls spelled out), duplicate keys, tabs, comments after
//! values — it returns `None` and the caller parses that text with the YAML crate, so the
//! subset never changes a result, it only skips work.

use yaml_serde::{Mapping, Value};

struct Line<'a> {
    indent: usize,
    text: &'a str,
}

/// Parses `text` (a whole document in the subset) into a value, or `None` when the text is
/// outside the subset.
pub fn parse(text: &str) -> Option<Value> {
    let mut lines = Vec::new();
    for raw in text.split('\n') {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let body = raw.trim_start_matches(' ');
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        if body.starts_with('\t') {
            return None;
        }
        if body.starts_with("---") || body.starts_with("...") || body.starts_with('%') {
            return None;
        }
        lines.push(Line {
            indent: raw.len() - body.len(),
            text: body.trim_end_matches([' ', '\t']),
        });
    }
    if lines.is_empty() {
        return None;
    }
    let mut p = Parser {
        lines,
        pos: 0,
        depth: 0,
    };
    let first = p.lines[0].indent;
    let v = p.node(first)?;
    (p.pos == p.lines.len()).then_some(v)
}

struct Parser<'a> {
    lines: Vec<Line<'a>>,
    pos: usize,
    depth: usize,
}

/// Deeper nesting is left to the YAML crate, which refuses it with an error: hostile input
/// must not exhaust the stack here.
const MAX_DEPTH: usize = 64;

fn is_seq_item(t: &str) -> bool {
    t == "-" || t.starts_with("- ")
}

/// Splits `key: rest` / `key:` at the first `:` followed by a space or the end.
fn split_key(t: &str) -> Option<(&str, &str)> {
    let i = t.find(':')?;
    let (k, rest) = (&t[..i], &t[i + 1..]);
    if !(rest.is_empty() || rest.starts_with(' ')) {
        // `a:b` is a scalar, not a key; nothing in the subset looks like that at key position.
        return None;
    }
    if k.is_empty() || !plain_key(k) {
        return None;
    }
    Some((k, rest.trim_start_matches(' ')))
}

fn plain_key(k: &str) -> bool {
    k.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.')
        && k.as_bytes()[0].is_ascii_alphabetic()
        && plain_scalar(k).is_some_and(|v| v.is_string())
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&Line<'a>> {
        self.lines.get(self.pos)
    }

    /// A block node whose first line is at `indent`.
    fn node(&mut self, indent: usize) -> Option<Value> {
        let l = self.peek()?;
        if l.indent != indent || self.depth >= MAX_DEPTH {
            return None;
        }
        let seq = is_seq_item(l.text);
        self.depth += 1;
        let v = if seq {
            self.sequence(indent)
        } else {
            self.mapping(indent, None)
        };
        self.depth -= 1;
        v
    }

    fn sequence(&mut self, indent: usize) -> Option<Value> {
        let mut items = Vec::new();
        while let Some(l) = self.peek() {
            if l.indent < indent {
                break;
            }
            if l.indent > indent || !is_seq_item(l.text) {
                return None;
            }
            let rest = l.text[1..].trim_start_matches(' ');
            let col = indent + (l.text.len() - rest.len());
            if rest.is_empty() {
                // `-` alone: the item is the block below, or null.
                self.pos += 1;
                match self.peek() {
                    Some(n) if n.indent > indent => {
                        let ni = n.indent;
                        items.push(self.node(ni)?);
                    }
                    _ => items.push(Value::Null),
                }
            } else if is_seq_item(rest) {
                return None; // `- - x`: nested compact sequences are not written by Context
            } else if let Some((k, v)) = split_key(rest) {
                if self.depth >= MAX_DEPTH {
                    return None;
                }
                self.depth += 1;
                let m = self.mapping(col, Some((k, v)));
                self.depth -= 1;
                items.push(m?);
            } else {
                self.pos += 1;
                items.push(inline(rest)?);
                if self.peek().is_some_and(|n| n.indent > indent) {
                    return None; // a multi-line scalar
                }
            }
        }
        Some(Value::Sequence(items))
    }

    /// A block mapping at `indent`; `first` is a key already split off a `- ` line.
    fn mapping(&mut self, indent: usize, first: Option<(&'a str, &'a str)>) -> Option<Value> {
        let mut m = Mapping::new();
        let mut pending = first;
        loop {
            let (k, v) = match pending.take() {
                Some(kv) => kv,
                None => {
                    let Some(l) = self.peek() else { break };
                    if l.indent < indent {
                        break;
                    }
                    if l.indent > indent || is_seq_item(l.text) {
                        return None;
                    }
                    split_key(l.text)?
                }
            };
            self.pos += 1;
            let value = if v.is_empty() {
                match self.peek() {
                    Some(n) if n.indent > indent => {
                        let ni = n.indent;
                        self.node(ni)?
                    }
                    // A sequence may sit at its key's own indent.
                    Some(n) if n.indent == indent && is_seq_item(n.text) => {
                        self.sequence(indent)?
                    }
                    _ => Value::Null,
                }
            } else {
                let val = inline(v)?;
                if self.peek().is_some_and(|n| n.indent > indent) {
                    return None; // a multi-line scalar or misplaced block
                }
                val
            };
            if m.insert(Value::String(k.to_string()), value).is_some() {
                return None; // duplicate key: the YAML crate reports it
            }
        }
        Some(Value::Mapping(m))
    }
}

/// A one-line value: a scalar, a flow mapping of scalars, or a flow sequence of scalars.
fn inline(t: &str) -> Option<Value> {
    if let Some(body) = t.strip_prefix('{') {
        let body = body.strip_suffix('}')?;
        let mut m = Mapping::new();
        for part in flow_items(body)? {
            let (k, v) = split_key(part)?;
            let v = if v.is_empty() {
                Value::Null
            } else {
                scalar(v)?
            };
            if m.insert(Value::String(k.to_string()), v).is_some() {
                return None;
            }
        }
        return Some(Value::Mapping(m));
    }
    if let Some(body) = t.strip_prefix('[') {
        let body = body.strip_suffix(']')?;
        let items = flow_items(body)?
            .into_iter()
            .map(scalar)
            .collect::<Option<Vec<_>>>()?;
        return Some(Value::Sequence(items));
    }
    scalar(t)
}

/// The comma-separated items of a flow collection body; `None` when nesting or quoting makes
/// a plain split unsafe.
fn flow_items(body: &str) -> Option<Vec<&str>> {
    if body.contains(['{', '}', '[', ']', '"', '\'', '#']) {
        return None;
    }
    let body = body.trim();
    if body.is_empty() {
        return Some(Vec::new());
    }
    let items: Vec<&str> = body.split(',').map(str::trim).collect();
    if items.iter().any(|i| i.is_empty()) {
        return None;
    }
    Some(items)
}

/// A scalar in block or flow context.
fn scalar(t: &str) -> Option<Value> {
    if let Some(body) = t.strip_prefix('\'') {
        let body = body.strip_suffix('\'')?;
        // '' is the only escape; a lone quote inside would end the scalar early.
        let un = body.replace("''", "'");
        if un.replace('\'', "").len() + 2 * un.matches('\'').count() != body.len() {
            return None;
        }
        return Some(Value::String(un));
    }
    if let Some(body) = t.strip_prefix('"') {
        let body = body.strip_suffix('"')?;
        if body.contains(['"', '\\']) {
            return None;
        }
        return Some(Value::String(body.to_string()));
    }
    plain_scalar(t)
}

/// A plain scalar, when its type is unambiguous: a string that cannot read as anything else,
/// or a plain decimal integer.
fn plain_scalar(t: &str) -> Option<Value> {
    let b = t.as_bytes();
    let first = *b.first()?;
    if t.contains(": ") || t.contains(" #") || t.ends_with(':') {
        return None;
    }
    if b"-?:,[]{}#&*!|>'\"%@`".contains(&first) {
        return None;
    }
    if b.iter().all(u8::is_ascii_digit) {
        if b.len() > 18 || (b.len() > 1 && first == b'0') {
            return None;
        }
        return t.parse::<u64>().ok().map(|n| Value::Number(n.into()));
    }
    if first.is_ascii_digit() || first == b'+' || first == b'.' || first == b'~' {
        return None; // floats, octal/hex, `.inf`, `~`: leave typing to the YAML crate
    }
    let lower = t.to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "null" | "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n"
    ) {
        return None;
    }
    Some(Value::String(t.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same_as_yaml_crate(text: &str) {
        let fast = parse(text).unwrap_or_else(|| panic!("outside the subset: {text}"));
        let slow: Value = yaml_serde::from_str(text).unwrap();
        assert_eq!(fast, slow, "{text}");
    }

    #[test]
    fn subset_parses_exactly_like_the_yaml_crate() {
        same_as_yaml_crate("schema_version: context.approved-structure.v1\narticles:\n  - article_id: guide\n    path: faq/guide.md\n    sections:\n      - id: answer\n        references:\n          - source_ref: repo:acme/server\n            locator: {path: src/plugins.go, start_line: 70, end_line: 116}\n            content_digest: sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae\n      - id: second\n        references: []\nprocessed_scopes: [a, b]\ninput_hash: 'sha256:x'\n");
        same_as_yaml_crate("- a: 1\n  b:\n  - x\n  - 'it''s'\n  - \"q\"\n-\n  c: d\n- e\n# comment\n\n- f: {}\n  g: []\n");
        same_as_yaml_crate("a:\n  b:\n    c: d e f\n  g: h/i.md\n");
        same_as_yaml_crate("  - path: a.md\n    locator:\n      path: x y.rs\n      start_line: 3\n      end_line: 0\n");
    }

    #[test]
    fn anything_else_is_left_to_the_yaml_crate() {
        for t in [
            "a: &x 1\nb: *x\n",
            "a: !tag x\n",
            "a: |\n  text\n",
            "a: 1.5\n",
            "a: 0x10\n",
            "a: true\n",
            "a: null\n",
            "a: ~\n",
            "a: 007\n",
            "a: x # comment\n",
            "a: b\na: c\n",
            "a: multi\n  line\n",
            "a: \"esc\\n\"\n",
            "a: {b: {c: d}}\n",
            "\"quoted key\": 1\n",
            "---\na: 1\n",
            "a:\n\t- x\n",
            "- - a\n",
            "a: -1\n",
            "a: 'open\n",
        ] {
            assert_eq!(parse(t), None, "{t:?}");
        }
    }

    #[test]
    fn deep_nesting_is_refused_not_recursed() {
        let mut deep = String::new();
        for i in 0..2_000 {
            deep.push_str(&" ".repeat(i));
            deep.push_str("- a:\n");
        }
        assert_eq!(parse(&deep), None);
        let mut maps = String::new();
        for i in 0..2_000 {
            maps.push_str(&" ".repeat(i));
            maps.push_str("k:\n");
        }
        for t in [maps.as_str()] {
            assert_eq!(parse(t), None, "{t:?}");
        }
    }
}
