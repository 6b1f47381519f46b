//! What the MCP tools call: one function per tool over the workspace's [`Session`] (its graph,
//! search index and readable repositories). The server only adapts arguments and results;
//! every rule lives in the crates (capabilities for Evidence Packs and capabilities, the graph
//! crate's pinned reads).

use super::error::ToolError;
use super::tools::{
    self, DriftInput, ImpactInput, ReadInput, ReadManyInput, ResolveInput, SearchInput,
};
use crate::report::Report;
use ontoly_capabilities::evidence::Severity;
use ontoly_capabilities::{pack, registry, Context, Index};
use ontoly_graph::diagnostics::Code;
use ontoly_graph::formats::location::{LinesTwice, Location, ReadLines};
use ontoly_graph::sources::reads::{
    ReadError, ReadManyItem, ReadManyRequest, ReadRequest, Reader, ResolveRequest, SearchOutput,
    SearchRequest,
};
use ontoly_graph::{Session, SessionError};
use serde_json::{json, Value};

/// A tool's answer: its structured content and the report its text content is rendered from.
pub struct ToolOutput {
    /// `structuredContent`.
    pub structured: Value,
    /// What the text renderer draws for clients that show only text.
    pub report: Report,
}

/// Everything the tools need, loaded once and shared read-only by concurrent calls.
pub struct Backend {
    session: Session,
    index: Index,
    reader: Reader,
    /// The identity of the mapped cache files when they were opened (see [`mapped_files`]).
    mapped: Vec<Option<FileIdentity>>,
}

/// A file's inode, size and modification time.
type FileIdentity = (u64, u64, i128);

/// The identity of the files a backend maps (the graph snapshot, the search index): a file
/// truncated in place under a mapping makes reading it a SIGBUS, and one rewritten in place
/// gives answers from other bytes, so a call first checks they are as they were.
fn mapped_files(session: &Session) -> Vec<Option<FileIdentity>> {
    use ontoly_capabilities::retrieval::index::INDEX_ARTIFACT;
    use ontoly_graph::graph::snapshot::{artifact_path, CACHE_DIR, GRAPH_FILE};
    use std::os::unix::fs::MetadataExt;
    let root = &session.workspace().root;
    [
        root.join(CACHE_DIR).join(GRAPH_FILE),
        artifact_path(root, INDEX_ARTIFACT),
    ]
    .iter()
    .map(|f| {
        let m = std::fs::metadata(f).ok()?;
        Some((
            m.ino(),
            m.size(),
            i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
        ))
    })
    .collect()
}

fn unavailable(e: SessionError) -> ToolError {
    ToolError::new(Code::GraphUnavailable, e.to_string())
}

/// The refusal of a path that names lines the `startLine`/`endLine` given with it contradict.
fn lines_twice(path: &str, e: LinesTwice) -> String {
    let (a, b) = e.written;
    format!(
        "Lines given twice: path {path:?} names lines {a}-{b}, and startLine/endLine say otherwise; give the lines once (path \"{}\" with startLine {a} and endLine {b}, or the path alone)",
        Location::parse(path).path
    )
}

fn read_error(e: ReadError) -> ToolError {
    ToolError::new(e.code, e.message)
}

fn to_value<T: serde::Serialize>(value: &T) -> Result<Value, ToolError> {
    serde_json::to_value(value).map_err(|e| ToolError::new(Code::InternalError, e.to_string()))
}

/// The error of a capability that could not run (unknown name, invalid input).
fn capability_error(result: &ontoly_capabilities::CapabilityResult) -> Option<ToolError> {
    // Only a call that could not run fails; graph errors a result carries are its evidence.
    if !result.is_error() {
        return None;
    }
    result
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error && d.code.as_str().starts_with("CAPABILITY_"))
        .map(|d| ToolError::new(d.code, d.message.clone()))
}

/// What an `Impact` call with neither side of the change, or both, or `to` without `from`,
/// should have given: `from` and `to`, or `diff` (its old side `from`, default the clone's
/// HEAD).
fn impact_usage(input: &ImpactInput) -> String {
    const RULE: &str = "give `from` and `to` (two revisions of the source), or `diff` (the \
        text of a unified diff, made against `from`, default the clone's HEAD)";
    match (&input.from, &input.to, &input.diff) {
        (_, Some(_), Some(_)) => {
            format!("`to` and `diff` are two ways to give the new side: {RULE}, not both")
        }
        (None, Some(_), None) => format!("`to` needs `from`, the old side of the change: {RULE}"),
        _ => RULE.to_string(),
    }
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

impl Backend {
    /// Builds (or loads from the snapshot cache) the session's graph and its index, and opens
    /// the repositories reads can name. Blocking.
    pub fn load(session: Session) -> Result<Backend, ToolError> {
        let reader = session.reader().map_err(unavailable)?;
        let index = Index::open(&session).map_err(unavailable)?;
        let mapped = mapped_files(&session);
        Ok(Backend {
            session,
            index,
            reader,
            mapped,
        })
    }

    /// True when a cache file this backend maps is no longer the file it opened (changed in
    /// place, replaced or removed): it is then loaded again before answering.
    pub fn cache_changed(&self) -> bool {
        self.session.cache() == ontoly_graph::CachePolicy::ReadWrite
            && mapped_files(&self.session) != self.mapped
    }

    /// True when a read of the mapped snapshot (graph or search index) failed its checksum:
    /// answers computed from this backend may miss what the corrupt block held.
    pub fn is_corrupt(&self) -> bool {
        self.session.is_corrupt() || self.index.is_corrupt()
    }

    /// A backend over the same workspace loaded from a snapshot checked whole (rebuilt when it
    /// fails). Blocking.
    pub fn reload_verified(&self) -> Result<Backend, ToolError> {
        Backend::load(self.session.reopened_verified())
    }

    /// True when the workspace changed since this backend loaded it (see
    /// [`Session::is_current`]): it is then loaded again before answering, so that a pack never
    /// answers from pages that a read of the same file contradicts.
    pub fn workspace_changed(&self) -> bool {
        !self.session.is_current()
    }

    /// A backend of the workspace as it is now (built again from what changed).
    pub fn reload(&self) -> Result<Backend, ToolError> {
        Backend::load(self.session.reopened())
    }

    fn context(&self) -> Result<Context<'_>, ToolError> {
        Context::new(&self.session, &self.index).map_err(unavailable)
    }

    /// The Evidence Pack for `query` (the same as `ontoly evidence --format json`).
    pub fn evidence_pack(&self, query: &str, limit: Option<i64>) -> Result<ToolOutput, ToolError> {
        // The tool's input schema already holds the capability's (a string query, an integer
        // limit), so the pack is built directly, as `ontoly evidence` builds it.
        let answer = pack::evidence_pack(&self.context()?, query, limit);
        Ok(ToolOutput {
            structured: to_value(&answer.pack)?,
            report: Report::ToolPack(Box::new(answer)),
        })
    }

    /// The registered capabilities with their input schemas: `{capabilities: [...]}`.
    pub fn capabilities(&self) -> ToolOutput {
        let all = registry::describe();
        ToolOutput {
            structured: json!({ "capabilities": all }),
            report: Report::Capabilities(all),
        }
    }

    /// The result of capability `name` on `input`.
    pub fn capability(&self, name: &str, input: Value) -> Result<ToolOutput, ToolError> {
        let result = registry::run(&self.context()?, name, &input);
        if let Some(e) = capability_error(&result) {
            return Err(e);
        }
        Ok(ToolOutput {
            structured: to_value(&result)?,
            report: Report::Capability(Box::new(result)),
        })
    }

    /// The full commit a repository revision resolves to.
    pub fn resolve(&self, input: &ResolveInput) -> Result<ToolOutput, ToolError> {
        let request = ResolveRequest {
            repository: input.repository.clone(),
            revision: input.revision.clone(),
        };
        let r = self.reader.resolve(&request).map_err(read_error)?;
        Ok(ToolOutput {
            structured: to_value(&r)?,
            report: Report::Resolve(r),
        })
    }

    /// A pinned read of one line range of one file.
    pub fn read(&self, input: &ReadInput) -> Result<ToolOutput, ToolError> {
        // `path` may name its lines as the pack's text prints them (`src/a.rs:10-20`), as the
        // CLI's `read` takes them.
        let lines = ReadLines::of(&input.path, input.start_line, input.end_line)
            .map_err(|e| ToolError::new(Code::InvalidLineRange, lines_twice(&input.path, e)))?;
        let request = ReadRequest {
            repository: input.repository.clone(),
            revision: input.revision.clone(),
            path: lines.path.to_string(),
            start_line: lines.start,
            end_line: lines.end,
        };
        let r = self
            .reader
            .read(&request)
            .map_err(|e| self.read_error_with_citation(e, lines.path))?;
        let hint = (input.revision.is_none())
            .then(|| self.session.graph().ok())
            .flatten()
            .and_then(|g| {
                ontoly_capabilities::walk::unpinned_read_note(g, &r.repository, &r.path, &r.commit)
            });
        let mut structured = json!({
            "repository": r.repository,
            "commit": r.commit,
            "path": r.path,
            "startLine": r.start_line,
            "endLine": r.end_line,
            "nextStartLine": r.next_start_line,
            "hasMore": r.has_more,
            "truncated": r.truncated,
            "content": r.text(),
        });
        if let Some(h) = &hint {
            structured["note"] = json!(h);
        }
        Ok(ToolOutput {
            structured,
            report: Report::Read(crate::report::ReadView { result: r, hint }),
        })
    }

    /// A read error; for a file not found, the message also says where the workspace's
    /// references cite that path, so an agent can read it there.
    fn read_error_with_citation(&self, mut e: ReadError, path: &str) -> ToolError {
        if let Ok(g) = self.session.graph() {
            ontoly_capabilities::walk::note_where_cited(g, path, &mut e);
        }
        read_error(e)
    }

    /// Up to ten pinned reads against one repository and revision.
    pub fn read_many(&self, input: &ReadManyInput) -> Result<ToolOutput, ToolError> {
        let request = ReadManyRequest {
            repository: input.repository.clone(),
            revision: input.revision.clone(),
            items: input
                .items
                .iter()
                .map(|i| match ReadLines::of(&i.path, i.start_line, i.end_line) {
                    Ok(l) => ReadManyItem {
                        path: l.path.to_string(),
                        start_line: l.start,
                        end_line: l.end,
                    },
                    // Read as given: its error is replaced below.
                    Err(_) => ReadManyItem {
                        path: i.path.clone(),
                        start_line: i.start_line,
                        end_line: i.end_line,
                    },
                })
                .collect(),
        };
        let mut result = self.reader.read_many(&request).map_err(read_error)?;
        for (n, (item, asked)) in result.items.iter_mut().zip(&input.items).enumerate() {
            let Err(twice) = ReadLines::of(&asked.path, asked.start_line, asked.end_line) else {
                continue;
            };
            // A file named with a colon and digits is read; only a miss is the lines' fault.
            if item
                .error
                .as_ref()
                .is_some_and(|e| e.code == Code::FileNotFound)
            {
                item.error = Some(ReadError {
                    code: Code::InvalidLineRange,
                    message: format!("Item {}: {}", n + 1, lines_twice(&asked.path, twice)),
                });
            }
        }
        if let Ok(g) = self.session.graph() {
            let unpinned = input.revision.is_none();
            let (repository, commit) = (&result.repository, &result.commit);
            for item in &mut result.items {
                if let Some(e) = item.error.as_mut() {
                    ontoly_capabilities::walk::note_where_cited(g, &item.path, e);
                }
                if unpinned && item.content.is_some() {
                    item.note = ontoly_capabilities::walk::unpinned_read_note(
                        g, repository, &item.path, commit,
                    );
                }
            }
        }
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
        Ok(ToolOutput {
            structured: value,
            report: Report::ReadMany(result),
        })
    }

    /// A content search at a pinned commit.
    pub fn search(&self, input: &SearchInput) -> Result<ToolOutput, ToolError> {
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
        let r = self.reader.search(&request).map_err(read_error)?;
        Ok(ToolOutput {
            structured: to_value(&r)?,
            report: Report::Search(Box::new(crate::report::SearchView {
                result: r,
                hint: None,
            })),
        })
    }

    /// The drift of every reference (the same as `ontoly drift --format json`).
    pub fn drift(&self, input: &DriftInput) -> Result<ToolOutput, ToolError> {
        use ontoly_capabilities::drift::{self, DriftError, DriftOptions};
        // The tool's schema bounds `limit`: an agent that asked for 0 hears so rather than
        // getting one reference silently (the capability clamps and says it in a diagnostic,
        // which this reply has no place for).
        let (limit, clamped) = input.list_limit();
        if clamped.is_some() {
            return Err(crate::mcp::tools::invalid_args(
                "Drift",
                &format!(
                    "limit: {} is outside 1..={}",
                    input.limit.unwrap_or_default(),
                    DriftInput::MAX_LIMIT
                ),
                crate::mcp::tools::expected_args("Drift"),
            ));
        }
        let opts = DriftOptions {
            symbols: true,
            diffs: input.diff,
            ..DriftOptions::default()
        }
        .with_to_args(input.to.iter().map(String::as_str));
        // The errors name the CLI's `--to`; here the field is `to`.
        let mut report = drift::drift(&self.session, &opts).map_err(|e| match e {
            DriftError::Session(m) => ToolError::new(Code::GraphUnavailable, m),
            other => ToolError::new(
                Code::InvalidArguments,
                other.to_string().replacen("--to ", "to: ", 1),
            ),
        })?;
        if input.only_drifted {
            report.keep_only_drifted();
        }
        report.keep_at_most(limit);
        let structure_file =
            crate::commands::impact::in_repository(&self.session, drift::reanchor::STRUCTURE_FILE);
        Ok(ToolOutput {
            structured: to_value(&report)?,
            report: Report::Drift(Box::new(crate::report::DriftView {
                report,
                reanchor: None,
                structure_file,
                gate_failed: None,
            })),
        })
    }

    /// The sections a change touches (the same as `ontoly impact --format json`).
    pub fn impact(&self, input: &ImpactInput) -> Result<ToolOutput, ToolError> {
        use ontoly_capabilities::drift::DriftError;
        use ontoly_capabilities::impact::{self, ImpactError, ImpactOptions};
        let opts = ImpactOptions {
            from: input.from.clone(),
            to: input.to.clone(),
            diff: input.diff.clone(),
            source: input.source.clone(),
            lines_only: input.lines_only,
        };
        let report = impact::impact(&self.session, &opts).map_err(|e| match e {
            ImpactError::Drift(DriftError::Session(m)) => ToolError::new(Code::GraphUnavailable, m),
            // The CLI's wording names its flags; here the fields, and which rule was broken:
            // the message said `diff` needs `from`, which defaults to the clone's HEAD, and
            // not that `to` does (MCP-TS walk, finding 7).
            ImpactError::Usage => ToolError::new(Code::InvalidArguments, impact_usage(input)),
            // As the CLI's hint says with its flag: here the field.
            ImpactError::DiffBase(m) => ToolError::new(
                Code::InvalidArguments,
                format!("{m}; give the commit the diff was made from as `from`"),
            ),
            other => ToolError::new(Code::InvalidArguments, other.to_string()),
        })?;
        let workspace_root = crate::commands::impact::in_repository(&self.session, "");
        Ok(ToolOutput {
            structured: to_value(&report)?,
            report: Report::Impact(Box::new(crate::report::ImpactView {
                report,
                workspace_root,
            })),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each broken rule is named; `diff` alone is no error, so no message says it needs `from`.
    #[test]
    fn impact_usage_names_the_rule_broken() {
        let input = |from: Option<&str>, to: Option<&str>, diff: Option<&str>| ImpactInput {
            from: from.map(str::to_string),
            to: to.map(str::to_string),
            diff: diff.map(str::to_string),
            ..Default::default()
        };
        let to_alone = impact_usage(&input(None, Some("main"), None));
        assert!(to_alone.starts_with("`to` needs `from`"), "{to_alone}");
        let both = impact_usage(&input(Some("v1"), Some("main"), Some("--- a/x")));
        assert!(both.ends_with("not both"), "{both}");
        let neither = impact_usage(&input(Some("v1"), None, None));
        assert!(neither.starts_with("give `from` and `to`"), "{neither}");
        for m in [to_alone, both, neither] {
            assert!(m.contains("default the clone's HEAD"), "{m}");
        }
    }
}
