//! A workspace's files as parsed: the structure, every page and the registries. The build
//! parses them (once, reusing cached parses by hash) and keeps the result beside the graph, so
//! every later reader asks this instead of parsing again.

use crate::formats::page::PageParse;
use crate::formats::source_registry::Registries;
use crate::formats::structure::Structure;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The version of what [`Parsed`] holds: bumped when a parser's output changes, so that parses
/// cached by an older build are not reused.
pub const PARSED_VERSION: &str = "parsed.v10";

/// The structure file, parsed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum StructureParse {
    /// Parsed.
    Parsed(Structure),
    /// Not YAML: message and line.
    Invalid(String, Option<u64>),
    /// Unreadable: why.
    Unreadable(String),
    /// Not UTF-8: where the first byte that is not UTF-8 is, so the message can send the
    /// reader to it (an editor shows the rest of the file as it is).
    NotUtf8 {
        /// Its line (1-based).
        line: u64,
        /// Its byte in that line (1-based).
        column: u64,
        /// The byte.
        byte: u8,
    },
}

impl StructureParse {
    /// Why the file cannot be used, for a message (`None` once parsed).
    pub fn problem(&self) -> Option<String> {
        match self {
            StructureParse::Parsed(_) => None,
            StructureParse::Invalid(m, _) | StructureParse::Unreadable(m) => Some(m.clone()),
            StructureParse::NotUtf8 { line, column, byte } => Some(
                crate::formats::text::not_utf8_message(*line, *column, *byte),
            ),
        }
    }
}

/// Every parse a build made (or reused), kept so nothing needs to parse these files again.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Parsed {
    /// structure.yaml's blake3 and its parse.
    pub structure: (String, StructureParse),
    /// Each page's parse (it carries the page's blake3), by path under `knowledge/`.
    pub pages: BTreeMap<String, PageParse>,
    /// The three registries.
    pub registries: Registries,
    /// Directories under `knowledge/` that could not be listed (`knowledge/private/`), and
    /// why: their pages are left out, and the build says so.
    #[serde(default)]
    pub unlisted: Vec<(String, String)>,
}

impl Default for StructureParse {
    fn default() -> Self {
        StructureParse::Unreadable("file not found".into())
    }
}

/// Parses structure.yaml.
pub fn parse_structure_file(bytes: Result<&[u8], &str>) -> StructureParse {
    match bytes {
        Err(m) => StructureParse::Unreadable(m.to_string()),
        Ok(b) => match std::str::from_utf8(b) {
            Err(e) => {
                let (line, column, byte) = crate::formats::text::not_utf8_at(b, &e);
                StructureParse::NotUtf8 { line, column, byte }
            }
            Ok(text) => match crate::formats::structure::parse_structure(text) {
                Ok(s) => StructureParse::Parsed(s),
                Err(e) => StructureParse::Invalid(e.message, e.line),
            },
        },
    }
}
