//! Safe YAML loading for workspace files.
//!
//! Workspace YAML is user input: a hostile file must end in a diagnostic, never a hang, a crash
//! or invented evidence. The YAML crate already refuses duplicate keys, deep nesting and alias
//! expansion beyond a budget; this module adds a size limit and turns every failure into a
//! message with a line.

/// Files larger than this are refused before parsing (a 100k-section structure is ~50 MB).
pub const MAX_YAML_BYTES: usize = 256 * 1024 * 1024;

/// Why a YAML file could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    /// A one-line description (never contains absolute paths).
    pub message: String,
    /// The 1-based line the parser stopped at, when known.
    pub line: Option<u64>,
    /// What kind of failure this is.
    pub kind: YamlErrorKind,
}

/// The kinds of YAML failure, which Context's plugin reports with different messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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

impl std::fmt::Display for YamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.message),
            None => f.write_str(&self.message),
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
    yaml_serde::from_str(text).map_err(|e| YamlError {
        line: e.location().map(|l| l.line() as u64),
        message: first_line(&e.to_string()),
        kind: YamlErrorKind::Invalid,
    })
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
