//! Build findings: what the build found wrong, and how a finding becomes a `Diagnostic` node
//! with a `CONCERNS` edge to its subject (codes and severities are [`crate::diagnostics`]).

use crate::diagnostics::{Code, Severity};
use crate::graph::model::{ids, Edge, EdgeKind, Metadata, Node, NodeKind, Origin, Span};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One finding, before it becomes graph nodes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// What kind of finding.
    pub code: Code,
    /// One line, no absolute paths, no credentials.
    pub message: String,
    /// Workspace-relative file and 1-based line.
    pub at: Origin,
    /// The node id this concerns (a section, an article, the workspace, a source).
    pub subject: String,
    /// Makes the id unique when one line has several findings of one code (e.g. a key name).
    pub discriminator: String,
}

impl Finding {
    /// A finding at `file:line` about `subject`.
    pub fn new(
        code: Code,
        message: impl Into<String>,
        file: &str,
        line: u64,
        subject: impl Into<String>,
    ) -> Finding {
        Finding {
            code,
            // Messages quote what the user wrote; whatever they quote, never a credential.
            // And on one line: a quoted key with a line break must not start a log line.
            message: crate::formats::text::one_line(&crate::formats::remote::redact(
                &message.into(),
            ))
            .into_owned(),
            at: Origin {
                file: file.into(),
                line,
            },
            subject: subject.into(),
            discriminator: String::new(),
        }
    }

    /// The same finding with a discriminator.
    pub fn with_discriminator(mut self, d: impl Into<String>) -> Finding {
        self.discriminator = d.into();
        self
    }

    /// The `Diagnostic` node and its `CONCERNS` edge.
    pub fn to_graph(&self) -> (Node, Edge) {
        let id = ids::diagnostic(
            self.code.as_str(),
            &self.at.file,
            self.at.line,
            &self.discriminator,
        );
        let metadata = Metadata::from([
            ("code", self.code.as_str().to_string()),
            ("severity", self.code.severity().as_str().to_string()),
            ("message", self.message.clone()),
        ]);
        let node = Node {
            id: id.clone(),
            kind: NodeKind::Diagnostic,
            name: self.code.as_str().to_string(),
            file: Some(self.at.file.to_string()),
            span: Some(Span {
                file: self.at.file.to_string(),
                start_line: self.at.line,
                end_line: self.at.line,
            }),
            package: None,
            metadata,
        };
        let edge = Edge::new(
            EdgeKind::Concerns,
            id,
            self.subject.clone(),
            Some(self.at.clone()),
        );
        (node, edge)
    }
}

/// Findings kept for one file: [`FINDINGS_FLOOR`], then one per [`BYTES_PER_FINDING`] bytes of
/// the file. A finding becomes a graph node and an edge, 5–7 KB by the time a command has
/// assembled, indexed and printed the graph, so a file of entries that are each a finding in
/// 3 bytes (`articles: [{},{},…]`) took 450 MB for 600 KB. A reference of Context's takes
/// about 230 bytes and has at most two or three findings, the structure's findings one per
/// reference when every reference is broken; only a file denser in findings than one per 100
/// bytes loses some, and says how many.
pub const FINDINGS_FLOOR: u64 = 500;

/// See [`FINDINGS_FLOOR`].
pub const BYTES_PER_FINDING: u64 = 100;

/// `findings` with at most the allowance of each file (its size from `bytes`), in order, and,
/// for a file over it, one more finding (with the code and line of the first one left out)
/// that says how many were left out.
pub fn bounded(findings: Vec<Finding>, bytes: &dyn Fn(&str) -> u64) -> Vec<Finding> {
    let mut kept: std::collections::HashMap<String, u64> = std::collections::HashMap::new();
    let mut over: BTreeMap<String, (Finding, u64)> = BTreeMap::new();
    let mut out = Vec::with_capacity(findings.len());
    for f in findings {
        let n = kept.entry(f.at.file.to_string()).or_insert(0);
        if *n < FINDINGS_FLOOR + bytes(&f.at.file) / BYTES_PER_FINDING {
            *n += 1;
            out.push(f);
        } else {
            over.entry(f.at.file.to_string()).or_insert((f, 0)).1 += 1;
        }
    }
    for (file, (first, more)) in over {
        out.push(
            Finding::new(
                first.code,
                format!("{more} more findings in {file} are not listed: more than one per {BYTES_PER_FINDING} bytes of the file"),
                &file,
                first.at.line,
                ids::WORKSPACE,
            )
            .with_discriminator("more"),
        );
    }
    out
}

/// A diagnostic as read back from a graph (for `validate`, `stats`, evidence).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiagnosticView {
    /// The code string.
    pub code: String,
    /// How serious it is.
    pub severity: Severity,
    /// The message.
    pub message: String,
    /// `file:line`.
    pub location: String,
    /// What it concerns (node id), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
}

/// The diagnostics of a graph as people read them, ordered by file, line, code, then id: each
/// module-wide cause repeated per reference listed once with a count (see `fold_repeats`).
pub fn diagnostics_of(graph: &crate::graph::Graph) -> Vec<DiagnosticView> {
    fold_repeats(every_diagnostic(graph))
}

/// Every diagnostic node of a graph, one per finding, nothing folded, in the order of
/// [`diagnostics_of`].
pub fn every_diagnostic(graph: &crate::graph::Graph) -> Vec<DiagnosticView> {
    located_diagnostics(graph)
        .into_iter()
        .map(|x| x.2)
        .collect()
}

/// Every diagnostic of a graph with its file and line, sorted.
fn located_diagnostics(graph: &crate::graph::Graph) -> Vec<(String, u64, DiagnosticView)> {
    let mut v: Vec<(String, u64, DiagnosticView)> = graph
        .nodes_of(NodeKind::Diagnostic)
        .map(|n| {
            let (file, line) = n
                .span
                .as_ref()
                .map(|s| (s.file.clone(), s.start_line))
                .unwrap_or_default();
            let get = |k: &str| n.metadata.get(k).cloned().unwrap_or_default();
            let subject = graph
                .out_edges(&n.id, Some(EdgeKind::Concerns))
                .first()
                .map(|e| e.to.to_string());
            (
                file.clone(),
                line,
                DiagnosticView {
                    code: get("code"),
                    severity: Severity::parse(&get("severity")),
                    message: get("message"),
                    // A page path may hold a line break: shown, it stays on one line.
                    location: format!("{}:{line}", crate::formats::text::one_line(&file)),
                    subject,
                },
            )
        })
        .collect();
    v.sort_by(|a, b| {
        (&a.0, a.1, &a.2.code, &a.2.message).cmp(&(&b.0, b.1, &b.2.code, &b.2.message))
    });
    v
}

/// What a per-reference diagnostic repeats for every reference of a module when its cause
/// is the module's (its `ref`): the part of its message that does not name the reference.
/// `None` for a diagnostic whose cause is its own.
fn module_cause(code: &str, message: &str) -> Option<String> {
    match code {
        // The message names the ref and where it is pinned, nothing of the reference.
        "SOURCE_UNPINNED" => Some(message.to_string()),
        // `… reference … PATH#Lx-Ly @ COMMIT: why; where it is pinned`: the commit onward.
        "REFERENCE_COMMIT_MISSING" => message.split_once(" @ ").map(|(_, c)| c.to_string()),
        // A `source_ref` no registry resolves (or a registry that does not parse): the message
        // names the ref and its fix, nothing of the reference (adoption walk, stop 59: one
        // misspelt module was 16 identical errors, a broken registry 1 + 16).
        "SOURCE_UNRESOLVED" => Some(message.to_string()),
        // Not verified for want of a clone (`no_clone: reference `r` PATH#Lx-Ly is not verified:
        // why`): the clone is the module's. Other reasons (a digest that differs) are each
        // reference's own.
        "REFERENCE_UNVERIFIED" if message.starts_with("no_clone: ") => message
            .split_once(" is not verified: ")
            .map(|(_, why)| why.to_string()),
        _ => None,
    }
}

/// Lines of the folded diagnostics that the one listed names.
const FOLDED_LINES_SHOWN: usize = 5;

/// Diagnostics (sorted by file and line) with each module-wide cause repeated per reference in
/// one file listed once: the first, saying how many more there are and at which lines. A
/// mistyped `ref` was 47 identical warnings that drowned the one line to fix (author walk
/// s54). The graph keeps every one: a section's own evidence still shows its own. Also for
/// findings made outside the graph (`validate --require-verified`'s).
pub fn fold_repeats(v: Vec<DiagnosticView>) -> Vec<DiagnosticView> {
    let mut first_of: std::collections::HashMap<(String, String, String), usize> =
        Default::default();
    let mut out: Vec<(DiagnosticView, Vec<String>)> = Vec::with_capacity(v.len());
    for d in v {
        let Some(cause) = module_cause(&d.code, &d.message) else {
            out.push((d, Vec::new()));
            continue;
        };
        let (file, line) = d.location.rsplit_once(':').unwrap_or((&d.location, ""));
        let (file, line) = (file.to_string(), line.to_string());
        match first_of.entry((file, d.code.clone(), cause)) {
            std::collections::hash_map::Entry::Occupied(e) => out[*e.get()].1.push(line),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(out.len());
                out.push((d, Vec::new()));
            }
        }
    }
    out.into_iter()
        .map(|(mut d, more)| {
            if !more.is_empty() {
                let mut lines: Vec<String> =
                    more.iter().take(FOLDED_LINES_SHOWN).cloned().collect();
                if more.len() > FOLDED_LINES_SHOWN {
                    lines.push("…".into());
                }
                d.message = format!(
                    "{}; the same for {} more reference(s), at lines {}",
                    d.message,
                    more.len(),
                    lines.join(", ")
                );
            }
            d
        })
        .collect()
}
