//! What a command produced, typed: the renderers draw these, one renderer per output format. A JSON rendering is the value's serde form with keys sorted.

use ontoly_capabilities::drift::reanchor::Reanchor;
use ontoly_capabilities::drift::DriftReport;
use ontoly_capabilities::evidence::Severity;
use ontoly_capabilities::gate;
use ontoly_capabilities::impact::ImpactReport;
use ontoly_capabilities::pack::PackAnswer;
use ontoly_capabilities::CapabilityResult;
use ontoly_graph::graph::findings::DiagnosticView;
use ontoly_graph::graph::{Edge, Graph, Node};
use ontoly_graph::sources::reads::{
    ReadError, ReadManyResult, ReadResult, ResolveResult, SearchResult,
};
use serde::Serialize;
use std::collections::BTreeMap;

/// A pinned read that failed: the library's `{code, message}`, and what to try instead when
/// the workspace knows (a cited file read at the commit its references pin).
#[derive(Debug, Serialize)]
pub struct ReadFailure {
    /// The error.
    #[serde(flatten)]
    pub error: ReadError,
    /// What to try instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl From<ReadError> for ReadFailure {
    fn from(error: ReadError) -> ReadFailure {
        ReadFailure { error, hint: None }
    }
}

/// A command's result.
pub enum Report {
    /// `ontoly build`.
    Build(BuildView),
    /// `ontoly stats`.
    Stats(StatsView),
    /// `ontoly validate`.
    Validate(ValidateView),
    /// `ontoly hash-inputs`.
    Inputs(InputsView),
    /// `ontoly evidence`: the pack and the citations its text shows.
    Pack(Box<PackAnswer>),
    /// The MCP `EvidencePack` tool's pack: the same JSON; its text's next steps are the
    /// pack's `nextToolCalls` (an agent with the tools may have no shell) where the CLI's are
    /// shell commands.
    ToolPack(Box<PackAnswer>),
    /// `ontoly capabilities`: the registry (its JSON is `registry::describe()`).
    Capabilities(serde_json::Value),
    /// `ontoly run`: any capability's result.
    Capability(Box<CapabilityResult>),
    /// `ontoly refs`: a SectionReferences result (its text is the references YAML).
    Refs(Box<CapabilityResult>),
    /// `ontoly cites`: a CitationsOf result.
    Cites(Box<CapabilityResult>),
    /// `ontoly graph`: a node's neighbourhood.
    Graph(Neighbourhood),
    /// `ontoly check`: the gate's report over a questions file.
    Check(CheckView),
    /// `ontoly read`.
    Read(ReadView),
    /// `ontoly read-many`.
    ReadMany(ReadManyResult),
    /// `ontoly search`.
    Search(Box<SearchView>),
    /// `ontoly resolve`.
    Resolve(ResolveResult),
    /// A pinned read that failed (exit 1).
    ReadError(ReadFailure),
    /// Protocol bytes written as they are (`ontoly plugin enrich`).
    Raw(String),
    /// `ontoly drift`.
    Drift(Box<DriftView>),
    /// `ontoly impact`.
    Impact(Box<ImpactView>),
}

/// Diagnostic counts by severity.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct SeverityCounts {
    /// Errors.
    pub error: usize,
    /// Warnings.
    pub warning: usize,
    /// Infos.
    pub info: usize,
}

impl SeverityCounts {
    /// The counts of a graph's diagnostics as `validate` lists them (a module's cause
    /// repeated per reference counts once, as it is listed once).
    pub fn of(graph: &Graph) -> SeverityCounts {
        Self::listed(&ontoly_graph::graph::findings::diagnostics_of(graph))
    }

    /// The counts of diagnostics as listed.
    pub fn listed(diagnostics: &[DiagnosticView]) -> SeverityCounts {
        let mut c = SeverityCounts::default();
        for d in diagnostics {
            match d.severity {
                Severity::Error => c.error += 1,
                Severity::Warning => c.warning += 1,
                Severity::Info => c.info += 1,
            }
        }
        c
    }

    /// `1 error, 2 warnings, 0 info`.
    pub fn tally(&self) -> String {
        let plural = |n: usize, word: &str| {
            if n == 1 {
                format!("1 {word}")
            } else {
                format!("{n} {word}s")
            }
        };
        format!(
            "{}, {}, {} info",
            plural(self.error, "error"),
            plural(self.warning, "warning"),
            self.info
        )
    }
}

/// Counts of a build.
#[derive(Debug, Clone, Serialize)]
pub struct Counts {
    /// Articles.
    pub articles: usize,
    /// Sections.
    pub sections: usize,
    /// `CITES` edges.
    pub references: usize,
    /// Nodes.
    pub nodes: usize,
    /// Edges.
    pub edges: usize,
}

/// What the cache did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CacheView {
    /// `disabled`, `miss`, `partial` or `hit`.
    pub status: String,
    /// Pages of the workspace.
    pub pages: usize,
    /// Pages parsed in this run.
    pub pages_parsed: usize,
    /// Pages whose parse came from the cache.
    pub pages_reused: usize,
    /// Why the cache was refused, when it was.
    pub note: Option<String>,
}

/// `ontoly build`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BuildView {
    /// The workspace's display name.
    pub workspace: String,
    /// The graph hash.
    pub graph_hash: String,
    /// The graph model version.
    pub graph_version: String,
    /// Counts.
    pub counts: Counts,
    /// Diagnostics by severity.
    pub diagnostics: SeverityCounts,
    /// What the cache did.
    pub cache: CacheView,
    /// What the build did for the search index (absent without the cache: no index is built).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search_index: Option<SearchIndexView>,
}

/// What a build did for the search index.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchIndexView {
    /// `reused` (the index stored for this graph), `built` (from every document) or `updated`
    /// (from the index of the graph before: only the changed documents tokenized again).
    pub status: String,
    /// Documents indexed.
    pub documents: usize,
    /// Documents tokenized in this run.
    pub tokenized: usize,
    /// Why the index built here could not be stored (`search index not written: …`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `ontoly stats`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatsView {
    /// The workspace's display name.
    pub workspace: String,
    /// The graph hash.
    pub graph_hash: String,
    /// The graph model version.
    pub graph_version: String,
    /// Nodes by kind (every kind, zeros included).
    pub nodes: BTreeMap<String, usize>,
    /// Edges by kind (every kind, zeros included).
    pub edges: BTreeMap<String, usize>,
    /// `CITES` edges by source kind.
    pub references_by_source_kind: BTreeMap<String, usize>,
    /// `CITES` edges by verification status (every status, zeros included).
    pub references_by_status: BTreeMap<String, usize>,
    /// Symbols by kind (every kind, zeros included).
    pub symbols_by_kind: BTreeMap<String, usize>,
    /// Cited files (`File` nodes) by the language family their symbols are read in (every
    /// family, zeros included).
    pub cited_files_by_language: BTreeMap<String, usize>,
    /// Cited files in no language the symbol reader parses, by extension (`.md`, `(none)`).
    pub cited_files_unparsed_by_extension: BTreeMap<String, usize>,
    /// Diagnostics by code.
    pub diagnostics_by_code: BTreeMap<String, usize>,
}

/// `ontoly validate`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidateView {
    /// The workspace's display name.
    pub workspace: String,
    /// The graph hash.
    pub graph_hash: String,
    /// No error-severity diagnostic.
    pub valid: bool,
    /// Diagnostics by severity.
    pub summary: SeverityCounts,
    /// Every diagnostic, by file, line and code.
    pub diagnostics: Vec<DiagnosticView>,
    /// The workspace directory relative to its repository's root ("" at the root), so CI
    /// reports can name files repository-relative; not part of the JSON.
    #[serde(skip)]
    pub root: String,
    /// Repository references that are not verified and not an error either (no clone, not
    /// pinned, read from the work tree), when `--require-verified` does not make them errors:
    /// the text says so, since "0 errors" alone reads as "all checked". Not part of the JSON.
    #[serde(skip)]
    pub not_verified: usize,
}

impl ValidateView {
    /// A diagnostic's file, repository-relative, and its line; `None` for a location that is
    /// not a file of the repository (a `--source` argument).
    pub fn file_line(&self, d: &DiagnosticView) -> Option<(String, u64)> {
        repository_file_line(&self.root, d)
    }
}

/// A diagnostic's file, relative to the repository whose root `root` (the workspace
/// directory relative to it) names, and its line; `None` for a location that is not a file of
/// the repository (a `--source` argument).
fn repository_file_line(root: &str, d: &DiagnosticView) -> Option<(String, u64)> {
    let (file, line) = d.location.rsplit_once(':')?;
    if file.is_empty() || file.starts_with('-') {
        return None;
    }
    let file = if root.is_empty() || root == "." {
        file.to_string()
    } else {
        format!("{root}/{file}")
    };
    Some((file, line.parse().unwrap_or(0)))
}

/// `ontoly hash-inputs`: the benchmark floor.
#[derive(Debug, Clone, Serialize)]
pub struct InputsView {
    /// Input files read.
    pub files: usize,
    /// Their bytes.
    pub bytes: u64,
    /// The cache key of the inputs alone.
    pub inputs: String,
}

/// `ontoly graph`: the nodes within a few hops of a focus and the edges among them.
#[derive(Debug, Clone, Serialize)]
pub struct Neighbourhood {
    /// The focus id; or, for a class, impl or module that is no node of the graph (only the
    /// innermost definitions behind cited ranges are), its name as given, with its cited
    /// members at the centre instead ([`Neighbourhood::members`]).
    pub focus: String,
    /// The ids at the centre when `focus` names no node but the symbols defined in it
    /// (`Ky`'s methods); empty otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<String>,
    /// The nodes.
    pub nodes: Vec<Node>,
    /// The edges among them.
    pub edges: Vec<Edge>,
    /// Whether nodes within the depth were left out (at most
    /// [`ontoly_capabilities::walk::NEIGHBOURHOOD_MAX_NODES`] are shown).
    pub truncated: bool,
}

impl Neighbourhood {
    /// Whether `id` is at the centre of the picture: the focus, or one of its members.
    pub fn is_centre(&self, id: &str) -> bool {
        id == self.focus || self.members.iter().any(|m| m == id)
    }

    /// What a picture says when its focus is no node but its members (as a comment).
    pub fn members_note(&self) -> Option<String> {
        (!self.members.is_empty()).then(|| {
            format!(
                "{:?} is no node of the graph: the {} cited symbols defined in it are at the centre",
                self.focus,
                self.members.len()
            )
        })
    }

    /// What a picture says when nodes were left out (as a comment of its format).
    pub fn truncation_note(&self) -> Option<String> {
        self.truncated.then(|| {
            format!(
                "more nodes lie within the depth: {} are shown; give a lower --depth or focus on one of them",
                self.nodes.len()
            )
        })
    }
}

/// `ontoly check`: the gate's report and the questions file as the user named it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckView {
    /// The report.
    #[serde(flatten)]
    pub report: gate::Report,
    /// The workspace's error diagnostics, by file and line. The gate fails while there is
    /// one: a broken workspace answers from what is left of it, and a question passing there
    /// says nothing about the knowledge base.
    pub workspace_errors: Vec<DiagnosticView>,
    /// The questions file, repository-relative where it lies in the workspace's repository
    /// (for annotations and SARIF); not part of the JSON.
    #[serde(skip)]
    pub file: String,
    /// The workspace directory relative to its repository's root, as in [`ValidateView`].
    #[serde(skip)]
    pub root: String,
}

impl CheckView {
    /// Whether the gate fails: a failed question or a workspace error.
    pub fn failed(&self) -> bool {
        self.report.failed > 0 || !self.workspace_errors.is_empty()
    }

    /// A workspace error's file, repository-relative, and its line.
    pub fn file_line(&self, d: &DiagnosticView) -> Option<(String, u64)> {
        repository_file_line(&self.root, d)
    }

    /// The tally, and the workspace's errors when it has any.
    pub fn tally(&self) -> String {
        match self.workspace_errors.len() {
            0 => self.report.tally(),
            n => format!(
                "{}; the workspace has {n} error(s) (ontoly validate lists them)",
                self.report.tally()
            ),
        }
    }
}

/// `ontoly search`: the result, and what to try when it found nothing where the cited code
/// is not (the text's note says it; the JSON is the result alone).
#[derive(Debug, Clone, Serialize)]
pub struct SearchView {
    /// The search result (its JSON).
    #[serde(flatten)]
    pub result: SearchResult,
    /// For an empty search of the workspace's own files: the repositories with a local
    /// clone, to name with `--repo`. Not in the JSON.
    #[serde(skip)]
    pub hint: Option<String>,
}

/// `ontoly drift`: the report, what `--write` did, and where annotations point.
#[derive(Debug, Clone, Serialize)]
pub struct DriftView {
    /// The drift of every reference (its JSON is the object of the shape).
    #[serde(flatten)]
    pub report: DriftReport,
    /// With `--write`: the modules re-anchored and those left for review.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reanchor: Option<Reanchor>,
    /// `knowledge/structure.yaml` relative to the root of the repository the workspace is in
    /// (else to the current directory), for annotations. Not in the JSON.
    #[serde(skip)]
    pub structure_file: String,
    /// With `--fail-on`, when the gate failed: what failed it, for a line a CI log shows (the
    /// exit code alone left a red step with no reason). Not in the JSON (the counts say it).
    #[serde(skip)]
    pub gate_failed: Option<String>,
}

/// `ontoly read`: the lines read, and a hint when they may not be what the pages describe.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadView {
    /// What was read.
    pub result: ReadResult,
    /// For a read at the default branch of a file the workspace cites only at other commits:
    /// which revision to pass instead (`walk::unpinned_read_note`).
    pub hint: Option<String>,
}

/// `ontoly impact`: the report, and where annotations point.
#[derive(Debug, Clone, Serialize)]
pub struct ImpactView {
    /// The sections and pages the change touches.
    #[serde(flatten)]
    pub report: ImpactReport,
    /// The workspace root relative to the root of its repository (else to the current
    /// directory), to locate pages in annotations. Not in the JSON.
    #[serde(skip)]
    pub workspace_root: String,
}

impl ImpactView {
    /// When references of the source could not be assessed: how many of how many, and the
    /// most common reason; the change may touch pages the report does not name.
    pub fn unassessed_note(&self) -> Option<String> {
        let r = &self.report;
        if r.unassessed.is_empty() {
            return None;
        }
        let (reason, n) = most_common(r.unassessed.iter().map(|u| u.reason.as_str()));
        Some(format!(
            "{} of {} references of {} were not assessed ({n} of them: {reason}): the change may touch pages this run does not name",
            r.unassessed.len(),
            r.unassessed.len() + r.counts.assessed,
            r.source
        ))
    }

    /// The page `page` (under `knowledge/`) relative to the root of the workspace's repository.
    pub fn page_file(&self, page: &str) -> String {
        if self.workspace_root.is_empty() {
            format!("knowledge/{page}")
        } else {
            format!("{}/knowledge/{page}", self.workspace_root)
        }
    }
}

/// The most frequent of `reasons` and how often it occurs (the first in byte order among
/// equals): what a gate that checked nothing names as the likely cause.
pub fn most_common<'a>(reasons: impl Iterator<Item = &'a str>) -> (&'a str, usize) {
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for r in reasons {
        *counts.entry(r).or_default() += 1;
    }
    counts.into_iter().fold(
        ("", 0),
        |best, (r, n)| if n > best.1 { (r, n) } else { best },
    )
}
