//! Safe YAML loading for workspace files.
//!
//! Workspace YAML is user input: a hostile file must end in a diagnostic, never a hang, a crash
//! or invented evidence. The YAML crate already refuses duplicate keys, deep nesting and alias
//! expansion beyond a budget; this module adds a size limit and turns every failure into a
//! message with a line.

/// Files larger than this are refused before parsing (a 100k-section structure is ~50 MB).
pub const MAX_YAML_BYTES: usize = 256 * 1024 * 1024;

/// Flow collections nested deeper than this are refused before parsing. The parser's own
/// limit (128) would refuse them too, but only after a scan whose cost grows with the square
/// of the depth (100k brackets: minutes); counting brackets first keeps hostile input cheap.
pub const MAX_FLOW_DEPTH: usize = 1000;

/// Why a YAML file could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct YamlError {
    /// A one-line description (never contains absolute paths).
    pub message: String,
    /// The 1-based line the parser stopped at, when known.
    pub line: Option<u64>,
    /// What kind of failure this is.
    pub kind: YamlErrorKind,
}

/// The kinds of YAML failure, which Context's plugin reports with different messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum YamlErrorKind {
    /// Not YAML, or YAML this reader refuses (duplicate keys, alias bombs, deep nesting,
    /// oversized input): "Invalid YAML metadata".
    #[default]
    Invalid,
    /// Valid YAML that has no JSON form (a mapping key that is null, NaN, a sequence or a
    /// mapping): "Unsupported YAML metadata".
    Unsupported,
}

impl YamlErrorKind {
    /// The message Context's evidence plugin uses for this failure.
    pub fn message(self) -> &'static str {
        match self {
            Self::Invalid => "Invalid YAML metadata",
            Self::Unsupported => "Unsupported YAML metadata",
        }
    }
}

/// Parses `text` into a YAML value, with the limits above.
pub fn parse_value(text: &str) -> Result<yaml_serde::Value, YamlError> {
    if text.len() > MAX_YAML_BYTES {
        return Err(YamlError {
            message: format!("file is larger than {} bytes", MAX_YAML_BYTES),
            line: None,
            kind: YamlErrorKind::Invalid,
        });
    }
    if let Some(line) = flow_depth_exceeded(text, MAX_FLOW_DEPTH) {
        return Err(YamlError {
            message: format!("flow collections nested deeper than {MAX_FLOW_DEPTH}"),
            line: Some(line),
            kind: YamlErrorKind::Invalid,
        });
    }
    yaml_serde::from_str(text).map_err(|e| {
        let message = first_line(&e.to_string());
        let mut line = e.location().map(|l| (l.line() as u64, l.column() as u64));
        if let (Some((l, c)), Some(key)) = (line, duplicate_key(&message)) {
            // The parser reports the mapping's start; point at the repeated key instead.
            line = Some((duplicate_line(text, l, c, key).unwrap_or(l), c));
        }
        let line = line.map(|(l, _)| l).or_else(|| {
            second_document_line(text).filter(|_| message.contains("more than one document"))
        });
        YamlError {
            line,
            message,
            kind: YamlErrorKind::Invalid,
        }
    })
}

/// The 1-based line where unclosed `[`/`{` first exceed `limit`, counting every bracket
/// (brackets inside scalars count too: only absurd input reaches the limit either way).
fn flow_depth_exceeded(text: &str, limit: usize) -> Option<u64> {
    let mut depth = 0usize;
    let mut line = 1u64;
    for b in text.bytes() {
        match b {
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(line);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'\n' => line += 1,
            _ => {}
        }
    }
    None
}

/// The key named by a "duplicate entry with key \"K\"" message.
fn duplicate_key(message: &str) -> Option<&str> {
    let rest = message.split("duplicate entry with key \"").nth(1)?;
    rest.split('"').next()
}

/// The line of the second `key:` at the mapping's column, scanning from the mapping's start
/// (1-based line and column as the parser reports them).
fn duplicate_line(text: &str, line: u64, column: u64, key: &str) -> Option<u64> {
    let col = column.saturating_sub(1) as usize;
    let mut seen = 0;
    for (i, l) in text
        .split('\n')
        .enumerate()
        .skip(line.saturating_sub(1) as usize)
    {
        let at = l.get(col..).unwrap_or("");
        let indent_ok = i + 1 == line as usize || l.bytes().take(col).all(|b| b == b' ');
        let plain = at.strip_prefix(key).is_some_and(|r| r.starts_with(':'));
        let quoted = [('"', '"'), ('\'', '\'')].iter().any(|(o, c)| {
            at.strip_prefix(*o)
                .and_then(|r| r.strip_prefix(key))
                .and_then(|r| r.strip_prefix(*c))
                .is_some_and(|r| r.starts_with(':'))
        });
        if indent_ok && (plain || quoted) {
            seen += 1;
            if seen == 2 {
                return Some(i as u64 + 1);
            }
        }
    }
    None
}

/// The line where a second YAML document starts (`---` after some content).
fn second_document_line(text: &str) -> Option<u64> {
    let mut content = false;
    for (i, l) in text.split('\n').enumerate() {
        let is_marker = l == "---" || l.starts_with("--- ") || l.trim_end() == "---";
        if is_marker && content {
            return Some(i as u64 + 1);
        }
        let t = l.trim();
        if !is_marker && !t.is_empty() && !t.starts_with('#') && !t.starts_with('%') {
            content = true;
        }
    }
    None
}

/// Parses `text` like [`parse_value`] and also requires a JSON form (every mapping key a
/// string, number or boolean), as Context's plugin does before it looks at any field.
pub fn parse_json_compatible(text: &str) -> Result<yaml_serde::Value, YamlError> {
    let value = parse_value(text)?;
    if !json_compatible(&value) {
        return Err(YamlError {
            message: "a mapping key has no JSON form".to_string(),
            line: None,
            kind: YamlErrorKind::Unsupported,
        });
    }
    Ok(value)
}

/// Whether `value` converts to JSON: mapping keys must be strings, booleans, integers or finite
/// floats (`serde_json` turns those into strings); anything else has no JSON form.
pub fn json_compatible(value: &yaml_serde::Value) -> bool {
    use yaml_serde::Value;
    // An explicit stack: nesting is bounded by the parser, but a flat walk costs nothing.
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Sequence(items) => stack.extend(items.iter()),
            Value::Mapping(map) => {
                for (k, v) in map {
                    let key_ok = match k {
                        Value::String(_) | Value::Bool(_) => true,
                        Value::Number(n) => n.as_f64().is_none_or(f64::is_finite),
                        _ => false,
                    };
                    if !key_ok {
                        return false;
                    }
                    stack.push(v);
                }
            }
            Value::Tagged(t) => stack.push(&t.value),
            _ => {}
        }
    }
    true
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("invalid YAML").to_string()
}

/// The string at `key` in a mapping, when it is a string.
pub fn get_str<'a>(v: &'a yaml_serde::Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(|x| x.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> YamlError {
        match parse_value(text) {
            Ok(v) => panic!("accepted: {v:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn duplicate_keys_point_at_the_repeated_key() {
        let e = err("a: 1\nb: 2\na: 3\n");
        assert!(e.message.contains("duplicate entry with key \"a\""), "{e}");
        assert_eq!(e.line, Some(3));
        let e = err("articles:\n  - x: 1\n    y: 2\n    'x': 3\n");
        assert_eq!(e.line, Some(4), "{e}");
        assert_eq!(e.kind, YamlErrorKind::Invalid);
    }

    #[test]
    fn recursive_and_unknown_aliases_are_refused() {
        assert_eq!(err("a: &a [*a]\n").line, Some(1));
        assert!(err("a: 1\nb: *nope\n").message.contains("unknown anchor"));
    }

    #[test]
    fn billion_laughs_is_refused() {
        let mut bomb = String::from("a: &a [x,x,x,x,x,x,x,x,x,x]\n");
        let mut prev = 'a';
        for c in 'b'..='k' {
            let refs = vec![format!("*{prev}"); 10].join(",");
            bomb.push_str(&format!("{c}: &{c} [{refs}]\n"));
            prev = c;
        }
        let e = err(&bomb);
        assert!(e.message.contains("repetition limit"), "{e}");
    }

    #[test]
    fn deep_nesting_is_refused_with_a_line() {
        let flow = format!("a: {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
        let e = err(&flow);
        assert!(e.message.contains("nested deeper than 1000"), "{e}");
        assert_eq!(e.line, Some(1));
        let flow = format!("a:\n  {}{}\n", "{a: ".repeat(200), "}".repeat(200));
        let e = err(&flow);
        assert!(e.message.contains("recursion limit"), "{e}");
        assert_eq!(e.line, Some(2));
        let dashes = format!("{}x\n", "- ".repeat(100_000));
        assert!(err(&dashes).message.contains("recursion limit"));
        let block: String = (0..300)
            .map(|i| format!("{}- \n", "  ".repeat(i)))
            .collect();
        let e = err(&block);
        assert!(e.message.contains("recursion limit"), "{e}");
        assert_eq!(e.line, Some(129));
    }

    #[test]
    fn oversized_input_is_refused_before_parsing() {
        // Built from a cheap repeated byte: what matters is that the size check comes first.
        let big = " ".repeat(MAX_YAML_BYTES + 1);
        let e = err(&big);
        assert!(e.message.contains("larger than"), "{e}");
        assert_eq!(e.line, None);
    }

    #[test]
    fn syntax_errors_and_second_documents_have_lines() {
        assert_eq!(err("a: 1\nb: [\n").line, Some(3));
        assert_eq!(err("a: 'open\n").line, Some(2));
        assert_eq!(err("---\na: 1\n---\nb: 2\n").line, Some(3));
        assert_eq!(err("a: 1\n--- \nb: 2\n").line, Some(2));
    }

    #[test]
    fn json_compatibility() {
        let ok = parse_json_compatible("1: a\ntrue: b\n1.5: c\ns: !tag {x: [1, {y: 2}]}\n");
        assert!(ok.is_ok(), "{ok:?}");
        for bad in [
            "? [a]\n: b\n",
            "~: b\n",
            "x: {.nan: 1}\n",
            "x:\n  - ? {a: 1}\n    : 2\n",
        ] {
            let e = parse_json_compatible(bad).unwrap_err();
            assert_eq!(e.kind, YamlErrorKind::Unsupported, "{bad}");
            assert_eq!(e.kind.message(), "Unsupported YAML metadata");
        }
    }
}
