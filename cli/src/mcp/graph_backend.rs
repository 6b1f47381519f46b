//! The backend over a real workspace: the graph (built once, through the snapshot cache), its
//! search index, the capability registry, and pinned reads over the readable repositories.
//! Nothing here re-implements a rule: it adapts MCP arguments to the crates' requests and
//! their results and errors to tool results.

use ontoly_capabilities::evidence::Severity;
use ontoly_capabilities::{registry, Context};
use ontoly_graph::sources::clones::parse_override;
use ontoly_graph::sources::reads::{
    ReadError, ReadManyItem, ReadManyRequest, ReadRequest, Reader, ResolveRequest, SearchOutput,
    SearchRequest,
};
use serde_json::{json, Map, Value};

use super::backend::{Backend, ToolError};
use super::tools::{self, ReadInput, ReadManyInput, ResolveInput, SearchInput};
use crate::commands::loaded::{self, Loaded};
use crate::commands::Context as CliContext;

/// Everything the tools need, loaded once and shared read-only by concurrent calls.
pub struct GraphBackend {
    /// The graph, its index and the root as given: exactly what `ontoly evidence` runs on,
    /// so the MCP pack and the CLI pack are the same.
    loaded: Loaded,
    reader: Reader,
}

fn unavailable(message: impl Into<String>) -> ToolError {
    ToolError::new("GRAPH_UNAVAILABLE", message)
}

impl GraphBackend {
    /// Builds (or loads from the snapshot cache) the workspace graph and its index the way
    /// every evidence command does (clones of `ontoly.toml` and `--source`, verification
    /// stage), and opens the repositories reads can name, with the references appended to
    /// reads of knowledge pages (`Reader::open`). Blocking.
    pub fn load(ctx: &CliContext) -> Result<GraphBackend, ToolError> {
        let ws = ctx.workspace().map_err(|e| unavailable(e.to_string()))?;
        let overrides = ctx
            .sources
            .iter()
            .map(|s| parse_override(s))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| unavailable(e.message))?;
        let loaded = loaded::load(ctx).map_err(|e| unavailable(e.to_string()))?;
        let reader = Reader::open(&ws.root, &overrides).map_err(|e| unavailable(e.to_string()))?;
        Ok(GraphBackend { loaded, reader })
    }

    fn context(&self) -> Context<'_> {
        self.loaded.ctx()
    }
}

fn read_error(e: ReadError) -> ToolError {
    ToolError::new(e.code.as_str(), e.message)
}

/// The error of a capability that could not run (unknown name, invalid input).
fn capability_error(result: &ontoly_capabilities::CapabilityResult) -> Option<ToolError> {
    result
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
        .map(|d| ToolError::new(d.code.clone(), d.message.clone()))
}

fn to_value<T: serde::Serialize>(value: &T) -> Result<Value, ToolError> {
    serde_json::to_value(value).map_err(|e| ToolError::new("INTERNAL_ERROR", e.to_string()))
}

/// Joins a read's content and the evidence appended to a knowledge page, the way the hosted
/// service returns them: the content, a blank line, then the references YAML.
fn joined(content: &str, evidence: Option<&str>) -> String {
    let mut out = content.to_string();
    if let Some(ev) = evidence {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push('\n');
        out.push_str(ev);
    }
    out
}

impl Backend for GraphBackend {
    fn evidence_pack(&self, query: &str, limit: Option<i64>) -> Result<Value, ToolError> {
        let mut input = Map::new();
        input.insert("query".into(), json!(query));
        if let Some(limit) = limit {
            input.insert("limit".into(), json!(limit));
        }
        let result = registry::run(&self.context(), "EvidencePack", &Value::Object(input));
        match capability_error(&result) {
            Some(e) => Err(e),
            None => Ok(result.data),
        }
    }

    fn capabilities(&self) -> Result<Value, ToolError> {
        Ok(json!({ "capabilities": registry::describe() }))
    }

    fn capability(&self, name: &str, input: Value) -> Result<Value, ToolError> {
        let result = registry::run(&self.context(), name, &input);
        match capability_error(&result) {
            Some(e) => Err(e),
            None => to_value(&result),
        }
    }

    fn resolve(&self, input: &ResolveInput) -> Result<Value, ToolError> {
        let request = ResolveRequest {
            repository: input.repo.clone(),
            revision: input.revision.clone(),
        };
        to_value(&self.reader.resolve(&request).map_err(read_error)?)
    }

    fn read(&self, input: &ReadInput) -> Result<Value, ToolError> {
        let request = ReadRequest {
            repository: input.repository.clone(),
            revision: input.revision.clone(),
            path: input.path.clone(),
            start_line: input.start_line,
            end_line: input.end_line,
        };
        let r = self.reader.read(&request).map_err(read_error)?;
        Ok(json!({
            "repository": r.repository,
            "commit": r.commit,
            "path": r.path,
            "startLine": r.start_line,
            "endLine": r.end_line,
            "nextStartLine": r.next_start_line,
            "hasMore": r.has_more,
            "truncated": r.truncated,
            "content": r.text(),
        }))
    }

    fn read_many(&self, input: &ReadManyInput) -> Result<Value, ToolError> {
        let request = ReadManyRequest {
            repository: input.repository.clone(),
            revision: input.revision.clone(),
            items: input
                .items
                .iter()
                .map(|i| ReadManyItem {
                    path: i.path.clone(),
                    start_line: i.start_line,
                    end_line: i.end_line,
                })
                .collect(),
        };
        let result = self.reader.read_many(&request).map_err(read_error)?;
        let mut value = to_value(&result)?;
        if let Some(items) = value.get_mut("items").and_then(Value::as_array_mut) {
            for (item, original) in items.iter_mut().zip(&result.items) {
                if let (Some(obj), Some(content)) = (item.as_object_mut(), &original.content) {
                    obj.remove("evidence");
                    obj.insert(
                        "content".into(),
                        json!(joined(content, original.evidence.as_deref())),
                    );
                }
            }
        }
        Ok(value)
    }

    fn search(&self, input: &SearchInput) -> Result<Value, ToolError> {
        let request = SearchRequest {
            repository: input.repository.clone(),
            revision: input.revision.clone(),
            pattern: input.pattern.clone(),
            fixed_strings: input.fixed_strings,
            ignore_case: input.ignore_case,
            glob: input.glob.clone(),
            paths: input.paths.clone(),
            output: match input.output {
                Some(tools::SearchOutput::Files) => SearchOutput::Files,
                Some(tools::SearchOutput::Content) | None => SearchOutput::Content,
            },
        };
        to_value(&self.reader.search(&request).map_err(read_error)?)
    }
}
