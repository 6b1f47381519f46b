//! The evidence model every capability answers with: evidence items of five kinds, capability
//! diagnostics, confidence, provenance and the result envelope.

pub use ontoly_graph::diagnostics::{Code, Severity};
use ontoly_graph::graph::model::{Edge, Node};
use ontoly_graph::graph::Graph;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeSet;

/// A diagnostic: `{code, severity, message, subject?, location?}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Stable code, from the one vocabulary of [`Code`].
    pub code: Code,
    /// How serious it is.
    pub severity: Severity,
    /// What happened, for a human.
    pub message: String,
    /// The node id it concerns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// `file:line` it was found at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
}

impl Diagnostic {
    /// A diagnostic of `code` (its severity is the code's) with no subject or location.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.severity(),
            message: message.into(),
            subject: None,
            location: None,
        }
    }

    /// The same diagnostic about `subject`.
    pub fn about(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(subject.into());
        self
    }
}

/// The five kinds of evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EvidenceKind {
    /// Direct node matches.
    Node,
    /// Direct relationships: one edge, or the edges of one kind from one node (a cited range
    /// and the symbols it overlaps).
    Edge,
    /// A traversal across several relationships, edges in order.
    Path,
    /// Graph or capability metrics.
    Statistic,
    /// A warning or validation fact.
    Diagnostic,
}

/// One evidence item: `{kind, description, confidence, nodes?, edges?, stats?, diagnostic?}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// What kind of evidence this is.
    pub kind: EvidenceKind,
    /// What it shows, for a human.
    pub description: String,
    /// How much this item supports the answer, 0..1 (rounded).
    pub confidence: f64,
    /// Participating nodes (in path order for `path`). In a `path` or `edge` item, a node an
    /// earlier item of the same result carries in full is written as `{id, type, name}`
    /// ([`carry_nodes_once`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<Node>,
    /// Participating edges, always all of them (in path order for `path`: each edge's `from`
    /// and `to` are the path's nodes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edges: Vec<Edge>,
    /// Metrics, keys sorted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<Value>,
    /// The diagnostic, for `diagnostic` items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagnostic: Option<Diagnostic>,
}

impl Evidence {
    /// A `node` item.
    pub fn node(node: &Node, confidence: f64, description: impl Into<String>) -> Self {
        Evidence {
            kind: EvidenceKind::Node,
            description: description.into(),
            confidence: round4(confidence),
            nodes: vec![node.clone()],
            edges: Vec::new(),
            stats: None,
            diagnostic: None,
        }
    }

    /// An `edge` item.
    pub fn edge(edge: &Edge, confidence: f64, description: impl Into<String>) -> Self {
        Evidence {
            kind: EvidenceKind::Edge,
            description: description.into(),
            confidence: round4(confidence),
            nodes: Vec::new(),
            edges: vec![edge.clone()],
            stats: None,
            diagnostic: None,
        }
    }

    /// Several `edge`s from one node, with the nodes they reach (`nodes`): one item for what
    /// would otherwise repeat the node once per edge.
    pub fn edges(
        edges: Vec<Edge>,
        nodes: Vec<Node>,
        confidence: f64,
        description: impl Into<String>,
    ) -> Self {
        Self::linked(EvidenceKind::Edge, nodes, edges, confidence, description)
    }

    /// A `path` item: nodes and edges in traversal order.
    pub fn path(
        nodes: Vec<Node>,
        edges: Vec<Edge>,
        confidence: f64,
        description: impl Into<String>,
    ) -> Self {
        Self::linked(EvidenceKind::Path, nodes, edges, confidence, description)
    }

    fn linked(
        kind: EvidenceKind,
        nodes: Vec<Node>,
        edges: Vec<Edge>,
        confidence: f64,
        description: impl Into<String>,
    ) -> Self {
        Evidence {
            kind,
            description: description.into(),
            confidence: round4(confidence),
            nodes,
            edges,
            stats: None,
            diagnostic: None,
        }
    }

    /// A `statistic` item.
    pub fn statistic(stats: Value, description: impl Into<String>) -> Self {
        Evidence {
            kind: EvidenceKind::Statistic,
            description: description.into(),
            confidence: 1.0,
            nodes: Vec::new(),
            edges: Vec::new(),
            stats: Some(stats),
            diagnostic: None,
        }
    }

    /// A `diagnostic` item.
    pub fn diagnostic(d: Diagnostic) -> Self {
        Evidence {
            kind: EvidenceKind::Diagnostic,
            description: d.message.clone(),
            confidence: 1.0,
            nodes: Vec::new(),
            edges: Vec::new(),
            stats: None,
            diagnostic: Some(d),
        }
    }
}

/// The confidence level of an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Nothing matched.
    None,
    /// Read `filesToInspect` before relying on it.
    Low,
    /// Useful, check the citations.
    Medium,
    /// An agent can rely on it.
    High,
}

impl Level {
    /// The level as serialized.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::None => "none",
            Level::Low => "low",
            Level::Medium => "medium",
            Level::High => "high",
        }
    }
}

/// One input of a confidence score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Factor {
    /// `matchStrength`, `queryCoverage`, `agreement`, `grounding`, …
    pub kind: String,
    /// Its value, 0..1 (rounded).
    pub confidence: f64,
    /// What it measured.
    pub description: String,
}

/// `{score, level, explanation, factors}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Confidence {
    /// 0..1, rounded to 4 decimals.
    pub score: f64,
    /// The level the score falls in.
    pub level: Level,
    /// Why, in one sentence.
    pub explanation: String,
    /// The inputs of the score.
    pub factors: Vec<Factor>,
}

impl Confidence {
    /// Full confidence for exact, structural answers (a lookup either finds it or does not).
    pub fn exact(explanation: impl Into<String>) -> Self {
        Confidence {
            score: 1.0,
            level: Level::High,
            explanation: explanation.into(),
            factors: vec![Factor {
                kind: "exactMatch".into(),
                confidence: 1.0,
                description: "the answer is a direct graph lookup".into(),
            }],
        }
    }

    /// No confidence: nothing matched.
    pub fn none(explanation: impl Into<String>) -> Self {
        Confidence {
            score: 0.0,
            level: Level::None,
            explanation: explanation.into(),
            factors: Vec::new(),
        }
    }
}

/// Where a result comes from; an agent cites it with the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Provenance {
    /// Always `ontoly`.
    pub source: String,
    /// The workspace name.
    pub repository: String,
    /// The workspace root as given on the command line (never made absolute).
    pub root: String,
    /// blake3 hex of the graph.
    pub graph_hash: String,
    /// Graph model version.
    pub graph_version: String,
    /// Number of nodes.
    pub node_count: usize,
    /// Number of edges.
    pub edge_count: usize,
    /// Full commit of the knowledge repository, when known.
    pub knowledge_commit: Option<String>,
}

impl Provenance {
    /// The provenance of `graph` of the workspace `identity`.
    pub fn of(graph: &Graph, identity: &Identity) -> Self {
        Provenance {
            source: "ontoly".into(),
            repository: identity.name.clone(),
            root: identity.root.clone(),
            graph_hash: graph.hash.clone(),
            graph_version: graph.version.clone(),
            node_count: graph.node_count(),
            edge_count: graph.edge_count(),
            knowledge_commit: identity.knowledge_commit.clone(),
        }
    }
}

/// What names a workspace in provenance: none of it is graph content.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Identity {
    /// The workspace's display name (its directory's name).
    pub name: String,
    /// The workspace root as the user gave it (never made absolute).
    pub root: String,
    /// Full commit of the knowledge repository, when known.
    pub knowledge_commit: Option<String>,
}

/// The result envelope of every capability.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CapabilityResult {
    /// The capability that answered.
    pub capability: String,
    /// Its version.
    pub version: String,
    /// One line saying what was found.
    pub summary: String,
    /// The evidence, best first.
    pub evidence: Vec<Evidence>,
    /// Capability and graph diagnostics that bear on the answer.
    pub diagnostics: Vec<Diagnostic>,
    /// How far the answer can be relied on.
    pub confidence: Confidence,
    /// Where it comes from.
    pub provenance: Provenance,
    /// Capability-specific payload.
    pub data: Value,
}

impl CapabilityResult {
    /// The result of a capability that could not run (unknown name, invalid input): no
    /// evidence, one error diagnostic.
    pub fn error(
        provenance: Provenance,
        capability: &str,
        version: &str,
        code: Code,
        message: String,
    ) -> CapabilityResult {
        CapabilityResult {
            capability: capability.to_string(),
            version: version.to_string(),
            summary: message.clone(),
            evidence: Vec::new(),
            diagnostics: vec![Diagnostic::new(code, message)],
            confidence: Confidence::none("the capability did not run"),
            provenance,
            data: Value::Null,
        }
    }

    /// True when a diagnostic of this code is present.
    pub fn has(&self, code: Code) -> bool {
        self.diagnostics.iter().any(|d| d.code == code)
    }

    /// True when the capability could not run (unknown name or invalid input). Error
    /// diagnostics of the graph that a result carries as evidence (a digest mismatch, a broken
    /// page of the workspace) do not make the call itself an error.
    pub fn is_error(&self) -> bool {
        self.diagnostics.iter().any(|d| {
            d.severity == Severity::Error
                && matches!(
                    d.code,
                    Code::CapabilityNotRegistered | Code::CapabilityInvalidInput
                )
        })
    }

    /// Deterministic pretty JSON (object keys are emitted in declaration order or sorted maps).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|_| "{}".to_string())
    }
}

/// Writes each node in full once per result: in a `path` or `edge` item, a node an earlier item
/// of `evidence` already carries in full is written by its required fields only (`{id, type,
/// name}`, the evidence contract's serialized node without its optional ones). The file of 78
/// cited ranges was otherwise copied whole into each of their 78 paths. Every item still lists
/// all its participating nodes, in path order for a `path`; the full node is the first item's
/// that carries it. A `node` item keeps its node whole: it is the item's subject. Idempotent.
pub fn carry_nodes_once(evidence: &mut [Evidence]) {
    let mut carried: BTreeSet<String> = BTreeSet::new();
    for item in evidence.iter_mut() {
        let slim = matches!(item.kind, EvidenceKind::Path | EvidenceKind::Edge);
        for n in item.nodes.iter_mut() {
            if !carried.contains(&n.id) {
                carried.insert(n.id.clone());
            } else if slim {
                n.file = None;
                n.span = None;
                n.package = None;
                n.metadata = Default::default();
            }
        }
    }
}

/// Rounds a score to 4 decimals so printed JSON never carries float noise.
pub fn round4(x: f64) -> f64 {
    if !x.is_finite() {
        return 0.0;
    }
    let r = (x * 10_000.0).round() / 10_000.0;
    if r == 0.0 {
        0.0
    } else {
        r
    }
}
