//! `knowledge/structure.yaml`: the approved structure, every section's references.
//!
//! Parsed tolerantly: a field of the wrong type reads as missing, so that one bad entry becomes
//! a diagnostic about that entry rather than a failure of the whole file.

use crate::yaml::{get_str, parse_value, YamlError};
use serde::{Deserialize, Serialize};
use yaml_serde::Value;

/// The only schema version this reader accepts.
pub const SCHEMA_VERSION: &str = "context.approved-structure.v1";

/// The parsed structure file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Structure {
    /// `schema_version`, when it is a string.
    pub schema_version: Option<String>,
    /// `articles`, when it is a sequence.
    pub articles: Option<Vec<ArticleEntry>>,
    /// Top-level keys this reader does not know (tolerated, reported as warnings).
    pub unknown_keys: Vec<String>,
}

/// One entry of `articles`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ArticleEntry {
    /// 1-based line of the entry in structure.yaml (0 when unknown).
    pub line: u64,
    /// `article_id`.
    pub article_id: Option<String>,
    /// `path`, relative to `knowledge/`.
    pub path: Option<String>,
    /// `collection`.
    pub collection: Option<String>,
    /// `visibility`.
    pub visibility: Option<String>,
    /// `sections`, when it is a sequence.
    pub sections: Option<Vec<SectionEntry>>,
}

/// One entry of an article's `sections`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SectionEntry {
    /// 1-based line in structure.yaml (0 when unknown).
    pub line: u64,
    /// `id`, when it is a string.
    pub id: Option<String>,
    /// `references`, when it is a sequence.
    pub references: Option<Vec<ReferenceEntry>>,
}

/// One recorded reference.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ReferenceEntry {
    /// 1-based line in structure.yaml (0 when unknown).
    pub line: u64,
    /// `source_ref` as written: a string, or the YAML text of another scalar.
    pub source_ref: Option<String>,
    /// Whether `source_ref` was a YAML string (a number or a map is not a valid ref).
    pub source_ref_is_string: bool,
    /// `locator`, when it has a string path and integer lines.
    pub locator: Option<Locator>,
    /// Whether a `locator` key was present at all.
    pub has_locator: bool,
    /// `content_digest`, when it is a string.
    pub content_digest: Option<String>,
}

/// Where the cited content is: a path and a 1-based inclusive line range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Locator {
    /// The path, relative to the source's root.
    pub path: String,
    /// First line.
    pub start_line: u64,
    /// Last line, inclusive.
    pub end_line: u64,
}

impl Locator {
    /// Whether the range is valid (`1 <= start <= end`) and the path is non-empty.
    pub fn is_valid(&self) -> bool {
        self.start_line >= 1 && self.end_line >= self.start_line && !self.path.is_empty()
    }
}

const KNOWN_TOP: [&str; 4] = [
    "schema_version",
    "articles",
    "processed_scopes",
    "input_hash",
];

/// Parses structure.yaml text.
pub fn parse_structure(text: &str) -> Result<Structure, YamlError> {
    let value = parse_value(text)?;
    Ok(from_value(&value))
}

/// Reads a structure from an already parsed YAML value.
pub fn from_value(value: &Value) -> Structure {
    let unknown_keys = value
        .as_mapping()
        .map(|m| {
            m.keys()
                .filter_map(|k| k.as_str())
                .filter(|k| !KNOWN_TOP.contains(k))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    Structure {
        schema_version: get_str(value, "schema_version").map(str::to_string),
        articles: value
            .get("articles")
            .and_then(Value::as_sequence)
            .map(|s| s.iter().map(article).collect()),
        unknown_keys,
    }
}

fn article(v: &Value) -> ArticleEntry {
    ArticleEntry {
        line: 0,
        article_id: get_str(v, "article_id").map(str::to_string),
        path: get_str(v, "path").map(str::to_string),
        collection: get_str(v, "collection").map(str::to_string),
        visibility: get_str(v, "visibility").map(str::to_string),
        sections: v
            .get("sections")
            .and_then(Value::as_sequence)
            .map(|s| s.iter().map(section).collect()),
    }
}

fn section(v: &Value) -> SectionEntry {
    SectionEntry {
        line: 0,
        id: get_str(v, "id").map(str::to_string),
        references: v
            .get("references")
            .and_then(Value::as_sequence)
            .map(|s| s.iter().map(reference).collect()),
    }
}

fn reference(v: &Value) -> ReferenceEntry {
    let raw = v.get("source_ref");
    let (source_ref, source_ref_is_string) = match raw {
        Some(Value::String(s)) => (Some(s.clone()), true),
        Some(Value::Null) | None => (None, false),
        Some(other) => (
            yaml_serde::to_string(other)
                .ok()
                .map(|s| s.trim_end().to_string()),
            false,
        ),
    };
    let loc = v.get("locator");
    ReferenceEntry {
        line: 0,
        source_ref,
        source_ref_is_string,
        has_locator: loc.is_some(),
        locator: loc.and_then(|l| {
            Some(Locator {
                path: get_str(l, "path")?.to_string(),
                start_line: l.get("start_line")?.as_u64()?,
                end_line: l.get("end_line")?.as_u64()?,
            })
        }),
        content_digest: get_str(v, "content_digest").map(str::to_string),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_spec_example() {
        let s = parse_structure(
            "schema_version: context.approved-structure.v1\narticles:\n  - article_id: guide\n    path: faq/guide.md\n    collection: faq\n    visibility: public\n    sections:\n      - id: answer\n        references:\n          - source_ref: repo:acme/server\n            locator: {path: src/plugins.go, start_line: 70, end_line: 116}\n            content_digest: sha256:aa\n      - id: second\n        references: []\n      - id: third\nprocessed_scopes: []\ninput_hash: sha256:x\nextra: 1\n",
        )
        .unwrap();
        assert_eq!(s.schema_version.as_deref(), Some(SCHEMA_VERSION));
        let a = &s.articles.as_ref().unwrap()[0];
        assert_eq!(a.path.as_deref(), Some("faq/guide.md"));
        let secs = a.sections.as_ref().unwrap();
        let r = &secs[0].references.as_ref().unwrap()[0];
        assert_eq!(r.locator.as_ref().unwrap().start_line, 70);
        assert_eq!(secs[1].references.as_ref().map(Vec::len), Some(0));
        assert!(secs[2].references.is_none());
        assert_eq!(s.unknown_keys, ["extra"]);
    }

    #[test]
    fn numeric_ids_are_not_strings() {
        let s = parse_structure("articles:\n  - path: a.md\n    sections:\n      - id: 1.50\n")
            .unwrap();
        assert_eq!(
            s.articles.unwrap()[0].sections.as_ref().unwrap()[0].id,
            None
        );
    }
}
