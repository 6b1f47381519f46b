//! Byte-preserving edits of scalars in the workspace's YAML files: find the value of a key
//! path inside one block-sequence item (a reference of `structure.yaml`, a module of a
//! registry) and replace exactly its bytes, so that comments, key order, indentation, quoting
//! of everything else and line endings stay as they were.
//!
//! Supported layouts are the ones the format's files use: block mappings inside a block
//! sequence item, with nested block mappings or a one-line flow mapping (`locator: {path: a.py,
//! start_line: 1, end_line: 4}`), and plain, single- or double-quoted scalars. Anything else
//! (multi-line scalars or flow mappings, anchors, tags, quoted keys) is not found, and the
//! caller declines to edit. Callers re-parse the result to check it says what they meant.

/// How a scalar is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarStyle {
    /// `value`.
    Plain,
    /// `'value'`.
    Single,
    /// `"value"`.
    Double,
}

/// Where a scalar's bytes are (quotes included) and how it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScalarSpan {
    /// Byte offset of its first byte.
    pub start: usize,
    /// Byte offset just past its last byte.
    pub end: usize,
    /// Its style.
    pub style: ScalarStyle,
    /// Whether it sits inside a flow mapping (where `,`, `{` and `}` end a plain scalar).
    pub in_flow: bool,
}

/// One replacement: the bytes `start..end` become `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// First byte replaced.
    pub start: usize,
    /// Just past the last byte replaced.
    pub end: usize,
    /// The new bytes.
    pub text: String,
}

/// The lines of a text, with their byte offsets, for repeated lookups.
#[derive(Debug, Clone)]
pub struct Lines<'a> {
    text: &'a str,
    /// Start offset of each line (line `n` starts at `starts[n - 1]`).
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    /// Indexes `text`.
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        Self { text, starts }
    }

    /// Line `n` (1-based) without its `\n` or `\r\n`, and its start offset.
    fn line(&self, n: usize) -> Option<(usize, &'a str)> {
        let start = *self.starts.get(n.checked_sub(1)?)?;
        let end = self.starts.get(n).map_or(self.text.len(), |&next| next - 1);
        let l = &self.text[start..end];
        Some((start, l.strip_suffix('\r').unwrap_or(l)))
    }

    fn count(&self) -> usize {
        self.starts.len()
    }

    /// The value of the key path `keys` in the mapping of the block-sequence item whose `-`
    /// is on line `item_line` (1-based), when it is a scalar of a supported layout.
    pub fn find(&self, item_line: u64, keys: &[&str]) -> Option<ScalarSpan> {
        let (_, first) = self.line(item_line as usize)?;
        let dash = indent_of(first);
        let rest = &first[dash..];
        if !(rest == "-" || rest.starts_with("- ")) {
            return None;
        }
        let content = dash + 1 + rest[1..].bytes().take_while(|&b| b == b' ').count();
        let last = self.block_end(item_line as usize, dash);
        self.find_in(item_line as usize, last, content, Some(content), keys)
    }

    /// The last line of the block that starts on line `first` and continues while lines are
    /// blank, comments, or indented deeper than `indent`.
    fn block_end(&self, first: usize, indent: usize) -> usize {
        let mut last = first;
        for n in first + 1..=self.count() {
            let Some((_, l)) = self.line(n) else { break };
            if is_blank_or_comment(l) {
                continue;
            }
            if indent_of(l) <= indent {
                break;
            }
            last = n;
        }
        last
    }

    /// Looks for `keys` in the block mapping at column `indent` on lines `from..=to`; on line
    /// `from` the mapping may start at column `first_col` (after an item's `- `).
    fn find_in(
        &self,
        from: usize,
        to: usize,
        indent: usize,
        first_col: Option<usize>,
        keys: &[&str],
    ) -> Option<ScalarSpan> {
        let (key, rest_keys) = keys.split_first()?;
        for n in from..=to {
            let (start, l) = self.line(n)?;
            if is_blank_or_comment(l) {
                continue;
            }
            let col = if n == from { first_col } else { None }.unwrap_or_else(|| indent_of(l));
            if col != indent || l.len() < col {
                continue;
            }
            let Some(after) = key_value(&l[col..], key) else {
                continue;
            };
            let value_col = l.len() - after.len();
            let value = after.trim_start_matches(' ');
            let value_start = start + value_col + (after.len() - value.len());
            if rest_keys.is_empty() {
                return scalar_at(value, value_start, false);
            }
            if value.starts_with('{') {
                return flow_find(value, value_start, rest_keys);
            }
            if !(value.is_empty() || value.starts_with('#')) {
                return None;
            }
            // A nested block mapping: its keys sit at the indentation of its first line.
            let end = self.block_end(n, col).min(to);
            let child = (n + 1..=end)
                .filter_map(|m| self.line(m))
                .find(|(_, l)| !is_blank_or_comment(l))
                .map(|(_, l)| indent_of(l))?;
            return self.find_in(n + 1, end, child, None, rest_keys);
        }
        None
    }
}

fn indent_of(line: &str) -> usize {
    line.bytes().take_while(|&b| b == b' ').count()
}

fn is_blank_or_comment(line: &str) -> bool {
    let t = line.trim_start_matches([' ', '\t']);
    t.is_empty() || t.starts_with('#')
}

/// When `s` starts with `key:` (followed by a space, a tab or the end), what follows the `:`.
fn key_value<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let after = s.strip_prefix(key)?.strip_prefix(':')?;
    (after.is_empty() || after.starts_with([' ', '\t'])).then_some(after)
}

/// The scalar at the start of `value` (which starts at byte `offset` of the text).
fn scalar_at(value: &str, offset: usize, in_flow: bool) -> Option<ScalarSpan> {
    let b = value.as_bytes();
    let (len, style) = match b.first()? {
        b'"' => {
            let mut i = 1;
            loop {
                match b.get(i)? {
                    b'\\' => i += 2,
                    b'"' => break (i + 1, ScalarStyle::Double),
                    _ => i += 1,
                }
            }
        }
        b'\'' => {
            let mut i = 1;
            loop {
                match (b.get(i)?, b.get(i + 1)) {
                    (b'\'', Some(b'\'')) => i += 2,
                    (b'\'', _) => break (i + 1, ScalarStyle::Single),
                    _ => i += 1,
                }
            }
        }
        b'{' | b'[' | b'&' | b'*' | b'!' | b'|' | b'>' | b'#' => return None,
        _ => {
            let mut end = value.len();
            if let Some(i) = value.find(" #") {
                end = end.min(i);
            }
            if in_flow {
                if let Some(i) = value.find([',', '}']) {
                    end = end.min(i);
                }
            }
            (value[..end].trim_end().len(), ScalarStyle::Plain)
        }
    };
    (len > 0).then_some(ScalarSpan {
        start: offset,
        end: offset + len,
        style,
        in_flow,
    })
}

/// The value of `keys` (one key: flow mappings are not nested here) in the one-line flow
/// mapping at the start of `value`.
fn flow_find(value: &str, offset: usize, keys: &[&str]) -> Option<ScalarSpan> {
    let [key] = keys else { return None };
    let b = value.as_bytes();
    let mut i = 1;
    loop {
        while matches!(b.get(i)?, b' ' | b'\t') {
            i += 1;
        }
        if b[i] == b'}' {
            return None;
        }
        let rest = &value[i..];
        let colon = rest.find(':')?;
        let k = rest[..colon].trim();
        let mut j = i + colon + 1;
        while matches!(b.get(j)?, b' ' | b'\t') {
            j += 1;
        }
        let span = scalar_at(&value[j..], offset + j, true)?;
        if k == *key {
            return Some(span);
        }
        i = span.end - offset;
        while matches!(b.get(i)?, b' ' | b'\t') {
            i += 1;
        }
        match b.get(i)? {
            b',' => i += 1,
            b'}' => return None,
            _ => return None,
        }
    }
}

/// Whether `s`, written plain, reads back as this string in YAML 1.2 and 1.1: path-like
/// characters only, no indicator at the start, no `:` at the end, and not a null, boolean or
/// number (sexagesimal 1.1 integers such as `1:20` included). The allowed characters include
/// none of a flow mapping's indicators, so the answer holds inside one too.
pub fn plain_is_safe(s: &str) -> bool {
    let ok_char = |c: char| c.is_ascii_alphanumeric() || "_./+-:@".contains(c);
    !s.is_empty()
        && s.chars().all(ok_char)
        && !s.starts_with(['-', ':', '@'])
        && !s.ends_with(':')
        && !looks_special(s)
}

/// A plain scalar YAML would read as something other than a string.
fn looks_special(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    let keyword = matches!(
        lower.as_str(),
        "null" | "~" | "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n"
    ) || lower.ends_with(".inf")
        || lower.ends_with(".nan");
    let t = lower.trim_start_matches(['+', '-']);
    let digits = |x: &str| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit() || b == b'_');
    let radix = t.starts_with("0x") || t.starts_with("0o") || t.starts_with("0b");
    // A decimal number with an optional fraction and exponent (YAML 1.2 core int and float).
    let (mantissa, exponent) = t.split_once('e').map_or((t, None), |(m, e)| (m, Some(e)));
    let number = match mantissa.split_once('.') {
        Some((a, b)) => {
            (a.is_empty() || digits(a)) && (b.is_empty() || digits(b)) && (digits(a) || digits(b))
        }
        None => digits(mantissa),
    } && exponent.is_none_or(|e| digits(e.trim_start_matches(['+', '-'])));
    let sexagesimal = t.contains(':') && t.split(':').all(digits);
    keyword || radix || number || sexagesimal
}

/// `value` written in `style` (a plain scalar that would not read back as this string is
/// double-quoted instead).
pub fn render_scalar(value: &str, span: &ScalarSpan) -> String {
    match span.style {
        ScalarStyle::Plain if plain_is_safe(value) => value.to_string(),
        ScalarStyle::Single if !value.chars().any(char::is_control) => {
            format!("'{}'", value.replace('\'', "''"))
        }
        _ => double_quoted(value),
    }
}

/// `value` as a YAML scalar that reads back as this string: plain when that is safe, else
/// double-quoted (`2024`, `true`, `null`, `1e3` are quoted). What a message suggests writing.
pub fn scalar(value: &str) -> String {
    if plain_is_safe(value) {
        value.to_string()
    } else {
        double_quoted(value)
    }
}

/// `value` double-quoted, escaped as YAML reads it back.
fn double_quoted(value: &str) -> String {
    let mut o = String::with_capacity(value.len() + 2);
    o.push('"');
    for c in value.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\t' => o.push_str("\\t"),
            c if c.is_control() => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// Applies `edits` (any order, none overlapping) to `text`. `None` when two overlap or one
/// is out of bounds or off a character boundary.
pub fn apply(text: &str, edits: &[Edit]) -> Option<String> {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.start, e.end));
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0;
    for e in sorted {
        if e.start < at || e.end < e.start || !text.is_char_boundary(e.start) {
            return None;
        }
        out.push_str(text.get(at..e.start)?);
        out.push_str(&e.text);
        at = e.end;
    }
    out.push_str(text.get(at..)?);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const STRUCTURE: &str = "articles:\n  - article_id: a # the page\n    sections:\n      - id: s\n        references:\n          - source_ref: repo:x/y\n            locator:\n              path: src/a.py   # moved?\n              start_line: 3\n              end_line: 9\n            content_digest: \"sha256:00\"\n          - source_ref: 'repo:x/y'\n            locator: {path: 'b c.py', start_line: 1, end_line: 2}\n            content_digest: sha256:11\n";

    fn value(text: &str, line: u64, keys: &[&str]) -> Option<(String, ScalarStyle)> {
        let s = Lines::new(text).find(line, keys)?;
        Some((text[s.start..s.end].to_string(), s.style))
    }

    #[test]
    fn finds_block_and_flow_scalars_in_an_item() {
        assert_eq!(
            value(STRUCTURE, 6, &["locator", "path"]),
            Some(("src/a.py".into(), ScalarStyle::Plain))
        );
        assert_eq!(
            value(STRUCTURE, 6, &["locator", "end_line"]),
            Some(("9".into(), ScalarStyle::Plain))
        );
        assert_eq!(
            value(STRUCTURE, 6, &["content_digest"]),
            Some(("\"sha256:00\"".into(), ScalarStyle::Double))
        );
        assert_eq!(
            value(STRUCTURE, 12, &["locator", "path"]),
            Some(("'b c.py'".into(), ScalarStyle::Single))
        );
        assert_eq!(
            value(STRUCTURE, 12, &["locator", "end_line"]),
            Some(("2".into(), ScalarStyle::Plain))
        );
        assert_eq!(
            value(STRUCTURE, 12, &["content_digest"]),
            Some(("sha256:11".into(), ScalarStyle::Plain))
        );
        // The first item's keys are not the second's.
        assert_eq!(value(STRUCTURE, 6, &["locator", "nope"]), None);
        // Not an item line.
        assert_eq!(value(STRUCTURE, 7, &["path"]), None);
    }

    #[test]
    fn edits_touch_only_their_bytes() {
        let l = Lines::new(STRUCTURE);
        let path = l.find(6, &["locator", "path"]).unwrap();
        let flow = l.find(12, &["locator", "start_line"]).unwrap();
        let digest = l.find(6, &["content_digest"]).unwrap();
        let out = apply(
            STRUCTURE,
            &[
                Edit {
                    start: path.start,
                    end: path.end,
                    text: render_scalar("src/b.py", &path),
                },
                Edit {
                    start: flow.start,
                    end: flow.end,
                    text: 40.to_string(),
                },
                Edit {
                    start: digest.start,
                    end: digest.end,
                    text: render_scalar("sha256:22", &digest),
                },
            ],
        )
        .unwrap();
        assert_eq!(
            out,
            STRUCTURE
                .replace("src/a.py", "src/b.py")
                .replace("start_line: 1,", "start_line: 40,")
                .replace("\"sha256:00\"", "\"sha256:22\"")
        );
    }

    #[test]
    fn plain_scalars_that_would_not_read_back_are_quoted() {
        let plain = ScalarSpan {
            start: 0,
            end: 0,
            style: ScalarStyle::Plain,
            in_flow: false,
        };
        assert_eq!(render_scalar("src/a.py", &plain), "src/a.py");
        assert_eq!(render_scalar("1234e567", &plain), "\"1234e567\"");
        assert_eq!(render_scalar("123", &plain), "\"123\"");
        assert_eq!(render_scalar("yes", &plain), "\"yes\"");
        assert_eq!(render_scalar("a b", &plain), "\"a b\"");
        assert_eq!(render_scalar("#x", &plain), "\"#x\"");
        assert_eq!(render_scalar("", &plain), "\"\"");
        assert_eq!(render_scalar("371a34a4595b", &plain), "371a34a4595b");
        let single = ScalarSpan {
            style: ScalarStyle::Single,
            ..plain
        };
        assert_eq!(render_scalar("it's", &single), "'it''s'");
    }

    #[test]
    fn crlf_files_keep_their_line_endings() {
        let text = STRUCTURE.replace('\n', "\r\n");
        let l = Lines::new(&text);
        let s = l.find(6, &["locator", "path"]).unwrap();
        assert_eq!(&text[s.start..s.end], "src/a.py");
        let s = l.find(6, &["content_digest"]).unwrap();
        assert_eq!(&text[s.start..s.end], "\"sha256:00\"");
    }
}
