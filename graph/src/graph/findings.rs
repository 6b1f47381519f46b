//! Build findings: what the build found wrong, and how a finding becomes a `Diagnostic` node
//! with a `CONCERNS` edge to its subject (codes and severities are [`crate::diagnostics`]).

use crate::diagnostics::{Code, Severity};
use crate::graph::model::{ids, Edge, EdgeKind, Node, NodeKind, Origin, Span};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One finding, before it becomes graph nodes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// What kind of finding.
    pub code: Code,
    /// One line, no absolute paths.
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
            message: message.into(),
            at: Origin {
                file: file.to_string(),
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
        let mut metadata = BTreeMap::new();
        metadata.insert("code".to_string(), self.code.as_str().to_string());
        metadata.insert(
            "severity".to_string(),
            self.code.severity().as_str().to_string(),
        );
        metadata.insert("message".to_string(), self.message.clone());
        let node = Node {
            id: id.clone(),
            kind: NodeKind::Diagnostic,
            name: self.code.as_str().to_string(),
            file: Some(self.at.file.clone()),
            span: Some(Span {
                file: self.at.file.clone(),
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
                .map(|e| e.to.clone());
            (
                file.clone(),
                line,
                DiagnosticView {
                    code: get("code"),
                    severity: Severity::parse(&get("severity")),
                    message: get("message"),
                    location: format!("{file}:{line}"),
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
