//! The MCP tool surface: names, descriptions, input types (with their JSON Schemas) and output
//! schemas. Input schemas are derived from the argument types, so what a client is told and
//! what the server accepts cannot drift apart; output schemas describe the JSON that the
//! capabilities crate and the pinned reads produce.

use std::sync::Arc;

use rmcp::handler::server::tool::schema_for_input;
use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::error::ToolError;
use ontoly_graph::diagnostics::Code;

/// Arguments of `EvidencePack`: the capability's own input type, so the tool and
/// `ontoly capabilities` publish one schema.
pub use ontoly_capabilities::inputs::{DriftInput, EvidencePackInput, ImpactInput};

/// Arguments of `capabilities` (none).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CapabilitiesInput {}

/// Arguments of `capability`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CapabilityInput {
    /// A capability name as listed by the `capabilities` tool, e.g. `EvidencePack`.
    pub name: String,
    /// The capability's input; it must match that capability's `inputSchema`.
    #[serde(default = "empty_object")]
    #[schemars(schema_with = "object_schema")]
    pub input: Value,
}

fn empty_object() -> Value {
    Value::Object(JsonObject::new())
}

fn object_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "object", "description": "The capability's input object."})
}

/// Arguments of `resolve`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResolveInput {
    /// A readable repository, `owner/name` (or its configured name).
    #[serde(alias = "repo")]
    pub repository: String,
    /// A branch, a tag, a full commit, or a unique commit prefix (>= 7 hex); omitted: the
    /// default branch.
    #[serde(default)]
    pub revision: Option<String>,
}

/// Arguments of `read`. Inputs are camelCase like every output; the snake_case names of
/// earlier versions are accepted as aliases.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReadInput {
    /// A readable repository, `owner/name` (or its configured name).
    #[serde(alias = "repo")]
    pub repository: String,
    /// A branch, a tag, a full 40/64-hex commit, or a unique commit prefix of at least 7
    /// hex digits; omitted: the default branch (resolved and reported), which may be past the
    /// commit the knowledge cites: to verify a pack, pass its `filesToInspect` entry's `commit`.
    #[serde(default)]
    pub revision: Option<String>,
    /// Repository-root relative path, e.g. `src/lib.rs`, or with its lines as the pack prints
    /// them, `src/lib.rs:10-20` (then startLine/endLine may be left out).
    pub path: String,
    /// First line to return, 1-based (default 1).
    #[serde(default, alias = "start_line")]
    #[schemars(range(min = 1))]
    pub start_line: Option<i64>,
    /// Last line to return (default startLine + 499; at most 500 lines per read).
    #[serde(default, alias = "end_line")]
    #[schemars(range(min = 1))]
    pub end_line: Option<i64>,
}

/// One item of `read_many`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReadItem {
    /// Repository-root relative path, or with its lines, `src/lib.rs:10-20`.
    pub path: String,
    /// First line, 1-based (default 1).
    #[serde(default, alias = "start_line")]
    #[schemars(range(min = 1))]
    pub start_line: Option<i64>,
    /// Last line (default startLine + 499).
    #[serde(default, alias = "end_line")]
    #[schemars(range(min = 1))]
    pub end_line: Option<i64>,
}

/// Arguments of `read_many`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadManyInput {
    /// A readable repository, `owner/name` (or its configured name).
    #[serde(alias = "repo")]
    pub repository: String,
    /// A branch, a tag, a full commit or a unique prefix (>= 7 hex), resolved once for all
    /// items; omitted: the default branch, which may be past the commit the knowledge cites
    /// (pass a `filesToInspect` entry's `commit` to verify a pack).
    #[serde(default)]
    pub revision: Option<String>,
    /// 1 to 10 reads, run in order; the batch shares a budget of 1000 lines and 256 KiB.
    #[schemars(length(min = 1, max = 10))]
    pub items: Vec<ReadItem>,
}

/// What `search` returns per match.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SearchOutput {
    /// Matching lines with their line numbers.
    Content,
    /// Only the paths of matching files.
    Files,
}

/// Arguments of `search`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SearchInput {
    /// A readable repository, `owner/name` (or its configured name).
    #[serde(alias = "repo")]
    pub repository: String,
    /// A branch, a tag, a full commit or a unique prefix (>= 7 hex); omitted: the default
    /// branch, which may be past the commit the knowledge cites.
    #[serde(default)]
    pub revision: Option<String>,
    /// A regular expression matched line by line (or a literal with `fixedStrings`).
    pub pattern: String,
    /// Treat the pattern as a literal string.
    #[serde(default, alias = "fixed_strings")]
    pub fixed_strings: bool,
    /// Match case-insensitively.
    #[serde(default, alias = "ignore_case")]
    pub ignore_case: bool,
    /// Ordered glob filters on paths; `!` excludes; the last matching glob wins.
    #[serde(default)]
    pub glob: Vec<String>,
    /// Only search under these repository-relative path prefixes.
    #[serde(default)]
    pub paths: Vec<String>,
    /// `content` (matching lines, the default) or `files` (matching paths only).
    #[serde(default)]
    pub output: Option<SearchOutput>,
}

/// The tool names, in the order they are listed.
pub const TOOL_NAMES: [&str; 9] = [
    "EvidencePack",
    "capabilities",
    "capability",
    "resolve",
    "read",
    "read_many",
    "search",
    "Drift",
    "Impact",
];

/// Parses a tool's arguments; a mismatch becomes an `INVALID_ARGUMENTS` tool error that says
/// what was expected.
pub fn parse_args<T: for<'de> Deserialize<'de>>(
    tool: &str,
    arguments: Option<JsonObject>,
    expected: &str,
) -> Result<T, ToolError> {
    let value = Value::Object(arguments.unwrap_or_default());
    serde_json::from_value(value).map_err(|e| invalid_args(tool, &e.to_string(), expected))
}

/// The `INVALID_ARGUMENTS` error of `tool`: what is wrong, then what was expected. The
/// deserializer's names of Rust's integer types (`expected usize`) are said in JSON's words.
pub fn invalid_args(tool: &str, what: &str, expected: &str) -> ToolError {
    let mut what = what.to_string();
    for rust in ["usize", "u64", "u32", "u16", "u8"] {
        what = what.replace(
            &format!("expected {rust}"),
            "expected an integer of at least 0",
        );
    }
    for rust in ["isize", "i64", "i32"] {
        what = what.replace(&format!("expected {rust}"), "expected an integer");
    }
    // The deserializer lists every name it takes, the old aliases too (`start_line` beside
    // `startLine`); `expected` says the current ones, so an unknown field gets a guess instead.
    if let Some(field) = what
        .strip_prefix("unknown field `")
        .and_then(|r| r.split_once('`'))
        .map(|(f, _)| f.to_string())
    {
        what = match meant_field(&field, expected) {
            Some(m) => format!("unknown field `{field}` (did you mean `{m}`?)"),
            None => format!("unknown field `{field}`"),
        };
    }
    ToolError::new(
        Code::InvalidArguments,
        format!("invalid arguments for `{tool}`: {what}; expected {expected}"),
    )
}

/// The argument of `expected` (`{repository: string, revision?: string, …}`) an unknown
/// `field` most likely meant: one it begins or ends (`rev` → `revision`, `repo` →
/// `repository`), else one two edits away at most (`limt` → `limit`), ignoring case and `_`.
fn meant_field(field: &str, expected: &str) -> Option<String> {
    let norm = |s: &str| s.to_ascii_lowercase().replace('_', "");
    let f = norm(field);
    let names: Vec<&str> = expected
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '?' || c == ':'))
        .filter_map(|w| w.strip_suffix(':'))
        .map(|w| w.trim_end_matches('?'))
        .filter(|w| !w.is_empty())
        .collect();
    let edits = |a: &str, b: &str| -> usize {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.iter().enumerate() {
            let mut prev = row[0];
            row[0] = i + 1;
            for (j, cb) in b.iter().enumerate() {
                let cur = row[j + 1];
                row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
                prev = cur;
            }
        }
        row[b.len()]
    };
    let close = |n: &&str| {
        let n = norm(n);
        (f.len() >= 3 && (n.starts_with(&f) || n.ends_with(&f))) || edits(&f, &n) <= 2
    };
    names.iter().find(|n| close(n)).map(|n| n.to_string())
}

/// A one-line description of each tool's arguments, used in `INVALID_ARGUMENTS` messages.
pub fn expected_args(tool: &str) -> &'static str {
    match tool {
        "EvidencePack" => "{query: string, limit?: integer}",
        "capabilities" => "no arguments ({})",
        "capability" => "{name: string, input?: object}",
        "resolve" => "{repository: string, revision?: string}",
        "read" => {
            "{repository: string, revision?: string, path: string, startLine?: integer >= 1, \
             endLine?: integer >= 1}"
        }
        "read_many" => {
            "{repository: string, revision?: string, items: [{path: string, startLine?: \
             integer, endLine?: integer}] (1 to 10 items)}"
        }
        "search" => {
            "{repository: string, revision?: string, pattern: string, fixedStrings?: bool, \
             ignoreCase?: bool, glob?: [string], paths?: [string], output?: \"content\" | \
             \"files\"}"
        }
        "Drift" => "{to?: string or [string] (REV or NAME=REV), onlyDrifted?: bool, diff?: bool, limit?: integer}",
        "Impact" => "{from?: string, to?: string, diff?: string, source?: string} (from and to, or diff with from optional)",
        _ => "a known tool",
    }
}

fn input_schema<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    // The argument types are plain structs; a failure here is a programming error caught by
    // the unit test that lists every tool.
    schema_for_input::<T>().unwrap_or_else(|_| Arc::new(JsonObject::new()))
}

fn object(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

fn read_only() -> ToolAnnotations {
    ToolAnnotations::new()
        .read_only(true)
        .destructive(false)
        .idempotent(true)
        .open_world(false)
}

/// Every tool, with input and output schemas.
pub fn all() -> Vec<Tool> {
    TOOL_NAMES.iter().map(|name| tool(name)).collect()
}

fn tool(name: &'static str) -> Tool {
    let (description, input, output): (&str, Arc<JsonObject>, Value) = match name {
        "EvidencePack" => (
            "Start here. Answers a question from the knowledge graph with a compact Evidence \
             Pack: a deterministic answer, the top entities and relationships, confidence with \
             its factors, diagnostics, and `filesToInspect` (pinned repository/commit/path/line \
             reads that verify the answer). Identical to `ontoly evidence --format json`.",
            input_schema::<EvidencePackInput>(),
            evidence_pack_schema(),
        ),
        "capabilities" => (
            "Lists the registered capabilities (named, versioned, deterministic graph queries) \
             with their input schemas, for use with the `capability` tool.",
            input_schema::<CapabilitiesInput>(),
            capabilities_schema(),
        ),
        "capability" => (
            "Runs any registered capability by name with its input and returns its result: \
             summary, evidence, diagnostics, confidence, provenance and capability data.",
            input_schema::<CapabilityInput>(),
            capability_result_schema(),
        ),
        "resolve" => (
            "Resolves a repository revision (a branch, a tag, or a commit prefix) to its full commit. \
             Use the returned commit for every later read of the same answer.",
            input_schema::<ResolveInput>(),
            resolve_schema(),
        ),
        "read" => (
            "Reads up to 500 lines of one file at a pinned commit. `truncated`: the range asked \
             for was cut (500 lines or 256 KiB), read on from `nextStartLine`; `hasMore`: the \
             file goes on past the returned lines. Reading a knowledge page (in the workspace's \
             repository) appends the references of the sections on the returned lines (YAML), \
             which point at the exact source lines to read next.",
            input_schema::<ReadInput>(),
            read_schema(),
        ),
        "read_many" => (
            "Reads 1–10 line ranges of files in one repository at one revision, resolved once. \
             A failing item never fails the batch: its error begins with `Item N: `.",
            input_schema::<ReadManyInput>(),
            read_many_schema(),
        ),
        "search" => (
            "Searches file contents at a pinned commit, line by line (like ripgrep). Results \
             are bounded and say so with `truncated`; no match is not proof of absence.",
            input_schema::<SearchInput>(),
            search_schema(),
        ),
        "Drift" => (
            "Is the knowledge still true? Compares every cited range with a later commit (default \
             each clone's HEAD): unchanged, moved (with the new range), changed (with the range \
             a diff maps it to, the symbol, a re-anchoring suggestion and where most of its lines \
             went), missing (with the same hints), or unverifiable (with the reason). The JSON of \
             `ontoly drift --format json`, its list bounded by `limit` (default 200; drifted \
             references kept first, `omitted` counts the rest).",
            input_schema::<DriftInput>(),
            drift_schema(),
        ),
        "Impact" => (
            "Which sections and pages a change touches: two commits of a source (`from` and \
             `to`), or a unified diff (`diff`, made against `from`, default the clone's HEAD). \
             A section is touched when a hunk changes its cited lines or the definition \
             around them (a function or method whole; in a class, impl or module, the members \
             the lines overlap, named in `touched`). Identical to `ontoly impact --format json`.",
            input_schema::<ImpactInput>(),
            impact_schema(),
        ),
        _ => ("", Arc::new(JsonObject::new()), json!({"type": "object"})),
    };
    Tool::new(name, description, input)
        .with_raw_output_schema(object(output))
        .with_annotations(read_only())
}

fn evidence_pack_schema() -> Value {
    json!({
        "type": "object",
        "description": "An Evidence Pack (see the ontoly Evidence Pack contract).",
        "required": [
            "version", "query", "answer", "graphFacts", "topNodes", "topEdges", "relevantFiles",
            "relationships", "diagnostics", "confidence", "suggestedCommands", "stableIds",
            "filesToInspect", "fallbacks", "provenance"
        ],
        "properties": {
            "version": {"type": ["string", "integer"]},
            "query": {"type": "string"},
            "answer": {"type": "string"},
            "graphFacts": {"type": "object"},
            "topNodes": {"type": "array", "items": {"type": "object", "required": ["id", "type"]}},
            "topEdges": {"type": "array", "items": {"type": "object"}},
            "relevantFiles": {"type": "array"},
            "relationships": {"type": "object"},
            "diagnostics": {"type": "array", "items": {"type": "object"}},
            "confidence": confidence_schema(),
            "suggestedCommands": {"type": "array", "items": {"type": "string"}},
            "nextToolCalls": {
                "type": "array",
                "description": "The next steps as tool calls to send as they are.",
                "items": {
                    "type": "object",
                    "required": ["tool", "arguments"],
                    "properties": {
                        "tool": {"type": "string"},
                        "arguments": {"type": "object"}
                    }
                }
            },
            "limit": {"type": "integer", "description": "The limit the pack was built with, after clamping."},
            "stableIds": {"type": "array", "items": {"type": "string"}},
            "filesToInspect": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["repository", "commit", "path", "startLine", "endLine", "reason"],
                    "properties": {
                        "repository": {"type": "string"},
                        "commit": {"type": ["string", "null"]},
                        "path": {"type": "string"},
                        "startLine": {"type": "integer"},
                        "endLine": {"type": "integer"},
                        "url": {"type": ["string", "null"]},
                        "reason": {"type": "string"}
                    }
                }
            },
            "fallbacks": {"type": "array"},
            "provenance": provenance_schema()
        }
    })
}

fn confidence_schema() -> Value {
    json!({
        "type": "object",
        "required": ["score", "level", "explanation", "factors"],
        "properties": {
            "score": {"type": "number"},
            "level": {"enum": ["none", "low", "medium", "high"]},
            "explanation": {"type": "string"},
            "factors": {"type": "array", "items": {"type": "object"}}
        }
    })
}

fn provenance_schema() -> Value {
    json!({
        "type": "object",
        "required": ["source", "graphHash", "graphVersion"],
        "properties": {
            "source": {"const": "ontoly"},
            "repository": {"type": ["string", "null"]},
            "root": {"type": ["string", "null"]},
            "graphHash": {"type": "string"},
            "graphVersion": {"type": "string"},
            "nodeCount": {"type": "integer"},
            "edgeCount": {"type": "integer"},
            "knowledgeCommit": {"type": ["string", "null"]}
        }
    })
}

fn capabilities_schema() -> Value {
    json!({
        "type": "object",
        "required": ["capabilities"],
        "properties": {
            "capabilities": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "version", "inputSchema"],
                    "properties": {
                        "name": {"type": "string"},
                        "version": {"type": ["string", "integer"]},
                        "description": {"type": "string"},
                        "inputSchema": {"type": "object"}
                    }
                }
            }
        }
    })
}

fn capability_result_schema() -> Value {
    json!({
        "type": "object",
        "required": ["capability", "version", "summary", "evidence", "diagnostics",
                     "confidence", "provenance", "data"],
        "properties": {
            "capability": {"type": "string"},
            "version": {"type": ["string", "integer"]},
            "summary": {"type": "string"},
            "evidence": {"type": "array", "items": {"type": "object"}},
            "diagnostics": {"type": "array", "items": {"type": "object"}},
            "confidence": confidence_schema(),
            "provenance": provenance_schema(),
            "data": {}
        }
    })
}

fn resolve_schema() -> Value {
    json!({
        "type": "object",
        "required": ["repository", "commit"],
        "properties": {
            "repository": {"type": "string"},
            "revision": {"type": ["string", "null"]},
            "commit": {"type": "string", "pattern": "^([0-9a-f]{40}|[0-9a-f]{64})$"}
        }
    })
}

fn read_result_properties() -> Value {
    json!({
        "repository": {"type": "string"},
        "commit": {"type": "string"},
        "path": {"type": "string"},
        "startLine": {"type": "integer"},
        "endLine": {"type": "integer"},
        "nextStartLine": {"type": ["integer", "null"]},
        "hasMore": {"type": "boolean"},
        "truncated": {"type": "boolean"},
        "content": {"type": "string"},
        "note": {"type": "string", "description": "With no revision asked, when the workspace cites this file only at other commits: which revision to pass to read what its pages describe."}
    })
}

fn read_schema() -> Value {
    json!({
        "type": "object",
        "required": ["repository", "commit", "path", "startLine", "endLine", "hasMore",
                     "truncated", "content"],
        "properties": read_result_properties()
    })
}

fn read_many_schema() -> Value {
    json!({
        "type": "object",
        "required": ["repository", "commit", "items"],
        "properties": {
            "repository": {"type": "string"},
            "revision": {"type": "string", "description": "The revision as asked, or the default branch when none was."},
            "commit": {"type": "string"},
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["path"],
                    "properties": {
                        "path": {"type": "string"},
                        "error": error_schema(),
                        "note": {"type": "string", "description": "As read's note: with no revision asked, when the workspace cites this file only at other commits, which revision to pass."}
                    }
                }
            }
        }
    })
}

fn search_schema() -> Value {
    json!({
        "type": "object",
        "required": ["repository", "commit", "files", "truncated"],
        "properties": {
            "repository": {"type": "string"},
            "revision": {"type": "string", "description": "The revision as asked, or the default branch when none was."},
            "commit": {"type": "string"},
            "files": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["path"],
                    "properties": {
                        "path": {"type": "string"},
                        "matches": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["line", "text"],
                                "properties": {
                                    "line": {"type": "integer"},
                                    "text": {"type": "string"},
                                    "truncated": {"type": "boolean"}
                                }
                            }
                        }
                    }
                }
            },
            "truncated": {"type": "boolean"}
        }
    })
}

fn drift_schema() -> Value {
    let count = json!({"type": "integer", "minimum": 0});
    json!({
        "type": "object",
        "required": ["to", "counts", "references"],
        "properties": {
            "to": {"type": "object", "additionalProperties": {"type": "string"}},
            "omitted": count,
            "counts": {
                "type": "object",
                "required": ["unchanged", "moved", "changed", "missing", "unverifiable"],
                "properties": {
                    "unchanged": count, "moved": count, "changed": count,
                    "missing": count, "unverifiable": count
                }
            },
            "references": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["articleId", "sectionId", "refIndex", "sourceRef", "path",
                                 "startLine", "endLine", "status"],
                    "properties": {
                        "status": {"enum": ["unchanged", "moved", "changed", "missing", "unverifiable"]},
                        "mapped": {"type": ["object", "null"]},
                        "relocation": {
                            "type": "object",
                            "required": ["path", "startLine", "endLine", "matched", "of"]
                        }
                    }
                }
            }
        }
    })
}

fn impact_schema() -> Value {
    json!({
        "type": "object",
        "required": ["source", "from", "counts", "pages", "unassessed"],
        "properties": {
            "source": {"type": "string"},
            "from": {"type": "string"},
            "to": {"type": ["string", "null"]},
            "counts": {"type": "object"},
            "pages": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["page", "articleId", "sections"],
                    "properties": {"sections": {"type": "array"}}
                }
            },
            "unassessed": {"type": "array"}
        }
    })
}

/// The `{code, message}` body of a tool error.
pub fn error_schema() -> Value {
    json!({
        "type": "object",
        "required": ["code", "message"],
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}}
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_an_object_input_schema_and_an_output_schema() {
        let tools = all();
        assert_eq!(tools.len(), TOOL_NAMES.len());
        for tool in &tools {
            assert_eq!(
                tool.input_schema.get("type"),
                Some(&json!("object")),
                "{}",
                tool.name
            );
            assert!(tool.output_schema.is_some(), "{}", tool.name);
            assert!(tool.description.as_deref().is_some_and(|d| !d.is_empty()));
        }
        let read = &tools[4];
        let required = read
            .input_schema
            .get("required")
            .cloned()
            .unwrap_or_default();
        assert_eq!(required, json!(["repository", "path"]));
    }

    #[test]
    fn bad_arguments_say_what_was_expected() {
        let args = json!({"repository": "a/b", "path": 3}).as_object().cloned();
        let err = parse_args::<ReadInput>("read", args, expected_args("read")).unwrap_err();
        assert_eq!(err.code, Code::InvalidArguments);
        assert!(
            err.message
                .contains("invalid type: integer `3`, expected a string"),
            "{}",
            err.message
        );
        assert!(
            err.message.contains("expected {repository: string"),
            "{}",
            err.message
        );

        let args = json!({"query": "x", "limt": 3}).as_object().cloned();
        let expected = expected_args("EvidencePack");
        let err = parse_args::<EvidencePackInput>("EvidencePack", args, expected).unwrap_err();
        assert!(
            err.message
                .contains("unknown field `limt` (did you mean `limit`?)"),
            "{}",
            err.message
        );
        // The old aliases are not listed as if current; a short name finds its long form.
        let args = json!({"repository": "r", "path": "p", "rev": "main"})
            .as_object()
            .cloned();
        let err = parse_args::<ReadInput>("read", args, expected_args("read")).unwrap_err();
        assert!(
            err.message
                .contains("unknown field `rev` (did you mean `revision`?); expected {"),
            "{}",
            err.message
        );
        assert!(!err.message.contains("start_line"), "{}", err.message);
        // Nothing close: the field, then what is expected.
        let args = json!({"query": "x", "zanzibar": 1}).as_object().cloned();
        let err = parse_args::<EvidencePackInput>("EvidencePack", args, expected).unwrap_err();
        assert!(
            err.message
                .contains("unknown field `zanzibar`; expected {query: string"),
            "{}",
            err.message
        );
    }
}
