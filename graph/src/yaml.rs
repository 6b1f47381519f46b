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
        });
    }
    yaml_serde::from_str(text).map_err(|e| YamlError {
        line: e.location().map(|l| l.line() as u64),
        message: first_line(&e.to_string()),
    })
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("invalid YAML").to_string()
}

/// The string at `key` in a mapping, when it is a string.
pub fn get_str<'a>(v: &'a yaml_serde::Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(|x| x.as_str())
}
