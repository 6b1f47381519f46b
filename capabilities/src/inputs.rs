//! The input of every capability as a Rust type: its JSON Schema is derived (schemars) and its
//! validation is deserialization (serde), so what `ontoly capabilities` and the MCP tools
//! publish and what `run` accepts are one definition.

use crate::evidence::{Code, Diagnostic};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

/// `CitationsOf`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CitationsOfInput {
    /// `path`, `path:START-END` (also `path#LSTART-LEND` or a pinned file's web URL with that
    /// anchor, or `repo@commit:path:START-END` as a pack's text prints a file to inspect), a node id or a range as outputs label it, or a symbol's qualified name.
    pub target: String,
    /// At most this many citing sections: default and most 50. Any integer is taken and
    /// clamped to 1–50 (the result then reports `CAPABILITY_LIMIT_CLAMPED`), so the schema sets
    /// no bounds. A file cited by many sections answers in a reply of about 3 KB per section.
    // Bounds in the schema while out-of-range values were clamped made a client that checks
    // input against the schema refuse what the server takes (MCP-TS walk, finding 6), as
    // EvidencePack's `limit` did until stop 44.
    #[serde(default, deserialize_with = "saturating_integer")]
    #[schemars(with = "i64", extend("default" = crate::queries::CITATIONS_MAX))]
    pub limit: Option<i64>,
}

/// `EvidencePack` (also the MCP tool of that name).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvidencePackInput {
    /// The question or subject to gather evidence for, in plain words.
    pub query: String,
    /// How many top entities to return: default 12. Any integer is taken and clamped to 5–20
    /// (the pack then reports `CAPABILITY_LIMIT_CLAMPED`), so the schema sets no minimum.
    #[serde(default, deserialize_with = "saturating_integer")]
    #[schemars(with = "i64", extend("default" = crate::pack::DEFAULT_LIMIT))]
    pub limit: Option<i64>,
}

/// Any JSON integer: one past `i64` saturates (the limit is clamped anyway), a fraction is an
/// error. An integer past `u64` reaches us as a float (JSON has one number type):
/// `99999999999999999999` was refused as "floating point `1e+20`" (MCP walk, stop 59), so a
/// whole float saturates too.
fn saturating_integer<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    use serde::de::Error;
    let Some(n) = Option::<serde_json::Number>::deserialize(d)? else {
        return Ok(None);
    };
    match (n.as_i64(), n.as_u64(), n.as_f64()) {
        (Some(i), _, _) => Ok(Some(i)),
        (None, Some(_), _) => Ok(Some(i64::MAX)),
        (None, None, Some(f)) if f.is_finite() && f.fract() == 0.0 && f.abs() >= 9.2e18 => {
            Ok(Some(if f > 0.0 { i64::MAX } else { i64::MIN }))
        }
        _ => Err(D::Error::custom(format!(
            "invalid type: floating point `{n}`, expected an integer"
        ))),
    }
}

/// `GraphStatistics` and `Validate`: no input.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoInput {}

/// `PathBetween`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PathBetweenInput {
    /// A node id, or what `ontoly graph` takes: `page.md#section`, a page, a file's path, a symbol's name.
    pub from: String,
    /// The other end, in the same forms.
    pub to: String,
}

/// `SectionEvidence`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SectionEvidenceInput {
    /// A section id (`section:page.md#id`) or `page.md#id`.
    pub section: String,
}

/// `SectionReferences`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SectionReferencesInput {
    /// The page, `knowledge/faq/guide.md`.
    pub path: String,
    /// First returned line (1-based).
    pub start_line: i64,
    /// Last returned line (inclusive).
    pub end_line: i64,
    /// Pinned URLs come with their content_digest.
    #[serde(default)]
    pub include_digest: bool,
}

/// `Drift` (also the MCP tool of that name).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DriftInput {
    /// The later revision: `REV` (a branch, tag or commit, full or a unique abbreviation) for
    /// every repository, and/or `NAME=REV` for one (`<source>/<module>`, `<source>`,
    /// `repo-content`). Default: each clone's HEAD, else its default branch. One string or a
    /// list of them.
    #[serde(default, deserialize_with = "one_or_many")]
    #[schemars(schema_with = "one_or_many_schema")]
    pub to: Vec<String>,
    /// Leave unchanged references out of the list (the counts keep them).
    #[serde(default, alias = "only_drifted")]
    pub only_drifted: bool,
    /// With each changed reference, the unified diff of its cited lines against the lines of
    /// the later commit that accepting the change would cite.
    #[serde(default)]
    pub diff: bool,
    /// At most this many references in the list (1–10000, default 200; the capability clamps
    /// a value outside and says so, the MCP tool refuses it): moved, changed and missing ones
    /// first, then unverifiable, then unchanged, listed in structure order; `omitted` counts
    /// the rest. The counts cover every reference.
    #[serde(default)]
    #[schemars(range(min = 1, max = 10000))]
    pub limit: Option<usize>,
}

impl DriftInput {
    /// The references a reply lists when no `limit` is given: a workspace with no clone
    /// checked out has every reference unverifiable, and at 100k sections their list was one
    /// 137 MB reply.
    pub const DEFAULT_LIMIT: usize = 200;

    /// The largest `limit` honoured.
    pub const MAX_LIMIT: usize = 10_000;

    /// `limit`, clamped, or the default; with the `CAPABILITY_LIMIT_CLAMPED` diagnostic that
    /// says so when the limit asked for was out of range (an agent that asked for 0 gets one
    /// reference and must be told why).
    pub fn list_limit(&self) -> (usize, Option<Diagnostic>) {
        let Some(n) = self.limit else {
            return (Self::DEFAULT_LIMIT, None);
        };
        let clamped = n.clamp(1, Self::MAX_LIMIT);
        let note = (clamped != n).then(|| {
            Diagnostic::new(
                Code::CapabilityLimitClamped,
                format!(
                    "limit {n} is outside 1..={}; using {clamped}",
                    Self::MAX_LIMIT
                ),
            )
        });
        (clamped, note)
    }
}

/// A string, or a list of strings: an agent asked for one revision writes `"to": "v2"`.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    match OneOrMany::deserialize(d) {
        Ok(OneOrMany::One(s)) => Ok(vec![s]),
        Ok(OneOrMany::Many(v)) => Ok(v),
        Err(_) => Err(serde::de::Error::custom(
            "invalid type: expected a string or a list of strings",
        )),
    }
}

fn one_or_many_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "anyOf": [
            {"type": "string"},
            {"type": "array", "items": {"type": "string"}}
        ],
        "default": []
    })
}

/// `Impact` (also the MCP tool of that name): `from` and `to`, or `diff` (against `from`,
/// default the clone's HEAD); not `to` and `diff` both.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ImpactInput {
    /// The old side: a branch, tag or commit of the source (required with `to`; for a diff,
    /// default the clone's HEAD).
    #[serde(default)]
    pub from: Option<String>,
    /// The new side, for a change between two commits.
    #[serde(default)]
    pub to: Option<String>,
    /// A unified diff (`git diff` output, any context) against `from`, instead of `to`.
    #[serde(default)]
    pub diff: Option<String>,
    /// The source the change is on: `<source>/<module>`, `<source>` or `repo-content`;
    /// default the one repository the workspace cites.
    #[serde(default)]
    pub source: Option<String>,
    /// Only references whose cited lines the change touches, not those touched only through
    /// the definition around them (default false).
    #[serde(default)]
    pub lines_only: bool,
}

/// The JSON Schema of `T` as published: draft 2020-12, everything inline, no `$schema`,
/// `title` or top-level `description` (the capability's own name and description say it).
pub fn schema_of<T: JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator();
    let mut v = generator.into_root_schema_for::<T>().to_value();
    if let Value::Object(m) = &mut v {
        m.remove("title");
        m.remove("$schema");
        m.remove("description");
        // An input without fields still lists none, as every other input does.
        m.entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
        m.entry("required")
            .or_insert_with(|| Value::Array(Vec::new()));
    }
    v
}

/// Whether `input` deserializes as `T`; the error is serde's, one line.
pub fn check_as<T: for<'de> Deserialize<'de>>(input: &Value) -> Result<(), String> {
    T::deserialize(input).map(|_| ()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn limit_is_an_integer_with_a_default() {
        let s = schema_of::<EvidencePackInput>();
        assert_eq!(s["properties"]["limit"]["type"], "integer");
        // Clamped, not refused: a minimum would say otherwise (the stop-44 MCP walk).
        assert!(s["properties"]["limit"].get("minimum").is_none());
        assert_eq!(s["properties"]["limit"]["default"], 12);
        assert_eq!(s["required"], json!(["query"]));
        assert_eq!(s["additionalProperties"], false);
        assert!(check_as::<EvidencePackInput>(&json!({"query": "q", "limit": null})).is_ok());
        assert!(check_as::<EvidencePackInput>(&json!({"query": "q", "limt": 3})).is_err());
        // Any integer, however large, is taken (and clamped later); a fraction is not.
        let limit = |text: &str| {
            let v: Value = serde_json::from_str(&format!(r#"{{"query": "q", "limit": {text}}}"#))
                .expect("json");
            EvidencePackInput::deserialize(v).map(|i| i.limit)
        };
        assert_eq!(limit("99999999999999999999").ok(), Some(Some(i64::MAX)));
        assert_eq!(limit("18446744073709551615").ok(), Some(Some(i64::MAX)));
        assert_eq!(limit("-99999999999999999999").ok(), Some(Some(i64::MIN)));
        assert_eq!(limit("-3").ok(), Some(Some(-3)));
        assert!(limit("5.5").is_err());
    }

    #[test]
    fn drift_takes_one_revision_or_a_list() {
        let to = |v: Value| DriftInput::deserialize(v).map(|d| d.to);
        assert_eq!(to(json!({"to": "v2"})).ok(), Some(vec!["v2".to_string()]));
        assert_eq!(
            to(json!({"to": ["a", "m=b"]})).ok(),
            Some(vec!["a".to_string(), "m=b".to_string()])
        );
        assert_eq!(to(json!({})).ok(), Some(Vec::new()));
        let err = to(json!({"to": 5})).expect_err("a number");
        assert!(
            err.to_string().contains("a string or a list of strings"),
            "{err}"
        );
    }
}
