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

/// Every diagnostic of a graph, ordered by file, line, code, then id.
pub fn diagnostics_of(graph: &crate::graph::Graph) -> Vec<DiagnosticView> {
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
    v.into_iter().map(|x| x.2).collect()
}
