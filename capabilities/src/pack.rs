//! The Evidence Pack: the compact, reusable answer to a question, with every canonical field
//! of the contract always present.

use crate::confidence;
use crate::evidence::{
    round4, Confidence, Diagnostic, Evidence, Level, Provenance, Severity,
    CAPABILITY_EVIDENCE_TRUNCATED, CAPABILITY_LIMIT_CLAMPED, CAPABILITY_LOW_EVIDENCE,
    CAPABILITY_NOT_FOUND,
};
use crate::index::Index;
use crate::rank::{rank, Scored};
use crate::walk::{self, Citation};
use ontoly_graph::graph::Graph;
use ontoly_graph::graph::model::{Edge, EdgeKind, Node, NodeKind};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Pack format version.
pub const PACK_VERSION: &str = "1";
/// Entities in a pack when no limit is asked for.
pub const DEFAULT_LIMIT: usize = 12;
/// Smallest limit a request may ask for.
pub const MIN_LIMIT: usize = 5;
/// Largest limit a request may ask for.
pub const MAX_LIMIT: usize = 20;
/// Pinned reads in `filesToInspect` at most.
pub const MAX_FILES_TO_INSPECT: usize = 8;

/// Counts that frame an answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphFacts {
    /// Knowledge pages.
    pub articles: usize,
    /// Marked sections.
    pub sections: usize,
    /// `CITES` edges.
    pub references: usize,
    /// Repositories.
    pub repositories: usize,
    /// Pinned commits.
    pub commits: usize,
    /// Code definitions.
    pub symbols: usize,
    /// All nodes.
    pub nodes: usize,
    /// All edges.
    pub edges: usize,
}

impl GraphFacts {
    /// The facts of `graph`.
    pub fn of(graph: &Graph) -> Self {
        let count = |k| graph.nodes_of(k).count();
        GraphFacts {
            articles: count(NodeKind::Article),
            sections: count(NodeKind::Section),
            references: graph
                .edges
                .iter()
                .filter(|e| e.kind == EdgeKind::Cites)
                .count(),
            repositories: count(NodeKind::Repository),
            commits: count(NodeKind::Commit),
            symbols: count(NodeKind::Symbol),
            nodes: graph.nodes.len(),
            edges: graph.edges.len(),
        }
    }
}

/// A ranked entity: the serialized node with its score and why it ranks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TopNode {
    /// The node.
    #[serde(flatten)]
    pub node: Node,
    /// Rank score (BM25 plus propagation), rounded.
    pub score: f64,
    /// Why it ranks: `text`, `cites`, `article`, `reached`.
    pub via: Vec<String>,
}

/// A knowledge page or source file behind the top nodes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RelevantFile {
    /// Workspace-relative (knowledge) or repository-relative (source) path.
    pub path: String,
    /// `knowledge` or `source`.
    pub kind: String,
    /// The source repository, for source files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
    /// The pinned commit, for source files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// Best score of a top node behind it.
    pub score: f64,
}

/// A pinned read that verifies the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileToInspect {
    /// Repository (remote or name; the workspace name for knowledge pages).
    pub repository: String,
    /// Full commit.
    pub commit: String,
    /// Path inside the repository.
    pub path: String,
    /// First line.
    pub start_line: u64,
    /// Last line, inclusive.
    pub end_line: u64,
    /// Web URL of the pinned range, when the forge is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Why to read it.
    pub reason: String,
}

/// The Evidence Pack. Every canonical field is always present.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EvidencePack {
    /// Pack format version.
    pub version: String,
    /// The query as given.
    pub query: String,
    /// The effective limit (after clamping).
    pub limit: usize,
    /// A short deterministic answer assembled from the evidence.
    pub answer: String,
    /// Counts that frame the answer.
    pub graph_facts: GraphFacts,
    /// Top entities, best first, at most `limit`.
    pub top_nodes: Vec<TopNode>,
    /// Relationships that connect and ground the top nodes.
    pub top_edges: Vec<Edge>,
    /// Knowledge pages and source files behind the top nodes.
    pub relevant_files: Vec<RelevantFile>,
    /// Relationship type → count over `topEdges`.
    pub relationships: BTreeMap<String, usize>,
    /// Diagnostics that bear on this answer.
    pub diagnostics: Vec<Diagnostic>,
    /// How far the pack can be relied on.
    pub confidence: Confidence,
    /// Next commands that deepen or verify the answer.
    pub suggested_commands: Vec<String>,
    /// Ids of `topNodes`, in order.
    pub stable_ids: Vec<String>,
    /// Pinned reads that verify the answer.
    pub files_to_inspect: Vec<FileToInspect>,
    /// What to do when the pack is not enough (empty when confidence is high).
    pub fallbacks: Vec<String>,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// Clamps a requested limit into `MIN_LIMIT..=MAX_LIMIT`, saying so when it had to.
pub fn clamp_limit(requested: Option<i64>) -> (usize, Option<Diagnostic>) {
    let Some(n) = requested else {
        return (DEFAULT_LIMIT, None);
    };
    let clamped = n.clamp(MIN_LIMIT as i64, MAX_LIMIT as i64) as usize;
    if clamped as i64 == n {
        (clamped, None)
    } else {
        (
            clamped,
            Some(Diagnostic::new(
                CAPABILITY_LIMIT_CLAMPED,
                Severity::Info,
                format!("limit {n} is outside {MIN_LIMIT}..={MAX_LIMIT}; using {clamped}"),
            )),
        )
    }
}

/// Quotes a word for a POSIX shell when it needs it.
pub(crate) fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:#@,+=".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The heading of a section (or title of another node) for people.
pub(crate) fn title(n: &Node) -> &str {
    n.metadata
        .get("heading")
        .or_else(|| n.metadata.get("title"))
        .map(String::as_str)
        .filter(|s| !s.is_empty())
        .unwrap_or(&n.name)
}

/// Graph diagnostics (`Diagnostic` nodes) that concern `id`.
pub(crate) fn graph_diagnostics(graph: &Graph, id: &str) -> Vec<Diagnostic> {
    graph
        .in_edges(id, Some(EdgeKind::Concerns))
        .into_iter()
        .filter_map(|e| graph.node(&e.from))
        .filter(|n| n.kind == NodeKind::Diagnostic)
        .map(diagnostic_of_node)
        .collect()
}

/// A `Diagnostic` node as a diagnostic.
pub(crate) fn diagnostic_of_node(n: &Node) -> Diagnostic {
    let severity = match n.metadata.get("severity").map(String::as_str) {
        Some("error") => Severity::Error,
        Some("info") => Severity::Info,
        _ => Severity::Warning,
    };
    let code = n
        .metadata
        .get("code")
        .cloned()
        .or_else(|| {
            n.id.strip_prefix("diag:")
                .and_then(|r| r.split('@').next())
                .map(str::to_string)
        })
        .unwrap_or_else(|| n.name.clone());
    Diagnostic {
        code,
        severity,
        message: n
            .metadata
            .get("message")
            .cloned()
            .unwrap_or_else(|| n.name.clone()),
        subject: n.metadata.get("subject").cloned(),
        location: n
            .span
            .as_ref()
            .map(|s| format!("{}:{}", s.file, s.start_line)),
    }
}

fn read_of(c: &Citation<'_>, reason: String) -> Option<FileToInspect> {
    Some(FileToInspect {
        repository: c.repository.clone()?,
        commit: c.commit.clone()?,
        path: c.path.clone()?,
        start_line: c.start,
        end_line: c.end,
        url: c.url.clone(),
        reason,
    })
}

/// Builds the Evidence Pack for `query`, and the evidence items behind it.
pub fn evidence_pack(
    graph: &Graph,
    index: &Index,
    root: &str,
    query: &str,
    limit: Option<i64>,
) -> (EvidencePack, Vec<Evidence>) {
    let (limit, clamped) = clamp_limit(limit);
    let mut diagnostics: Vec<Diagnostic> = clamped.into_iter().collect();
    let ranking = rank(graph, index, query);
    let conf = confidence::assess(graph, &ranking);
    let top: Vec<&Scored> = ranking.nodes.iter().take(limit).collect();
    let mut evidence = Vec::new();

    let top_nodes: Vec<TopNode> = top
        .iter()
        .filter_map(|s| {
            Some(TopNode {
                node: graph.node(&s.id)?.clone(),
                score: round4(s.score),
                via: s.via.iter().map(|v| v.to_string()).collect(),
            })
        })
        .collect();
    let stable_ids: Vec<String> = top_nodes.iter().map(|t| t.node.id.clone()).collect();
    let in_top: BTreeSet<&str> = stable_ids.iter().map(String::as_str).collect();
    let best = top.first().map(|s| s.score).unwrap_or(0.0);
    for t in &top_nodes {
        let rel = if best > 0.0 { t.score / best } else { 0.0 };
        evidence.push(Evidence::node(
            &t.node,
            rel,
            format!(
                "{} {:?} matched via {}",
                t.node.kind.as_str(),
                title(&t.node),
                t.via.join("+")
            ),
        ));
    }

    // Edges and reads that ground the top sections, in rank order.
    let top_sections: Vec<&Node> = top_nodes
        .iter()
        .map(|t| &t.node)
        .filter(|n| n.kind == NodeKind::Section)
        .collect();
    let edge_cap = 3 * limit;
    let mut top_edges: Vec<Edge> = Vec::new();
    let mut seen_edges = BTreeSet::new();
    let mut dropped_edges = 0usize;
    let mut push_edge = |e: &Edge, out: &mut Vec<Edge>| {
        if seen_edges.insert(e.id.clone()) {
            if out.len() < edge_cap {
                out.push(e.clone());
            } else {
                dropped_edges += 1;
            }
        }
    };
    let mut files: Vec<RelevantFile> = Vec::new();
    let mut reads: Vec<FileToInspect> = Vec::new();
    let mut cited_labels: Vec<String> = Vec::new();
    let mut symbol_names: Vec<String> = Vec::new();
    for (rank_i, s) in top_sections.iter().enumerate() {
        if let Some((e, _)) = walk::article_of(graph, &s.id) {
            push_edge(e, &mut top_edges);
        }
        for c in walk::citations(graph, &s.id) {
            push_edge(c.edge, &mut top_edges);
            if let Some((e, _)) = c.chain.first() {
                push_edge(e, &mut top_edges);
            }
            for (e, sym) in &c.symbols {
                if in_top.contains(sym.id.as_str()) || rank_i == 0 {
                    push_edge(e, &mut top_edges);
                }
                if rank_i == 0 && !symbol_names.contains(&sym.name) {
                    symbol_names.push(sym.name.clone());
                }
            }
            if rank_i == 0 {
                cited_labels.push(c.label());
            }
            if rank_i < 5 && reads.len() < MAX_FILES_TO_INSPECT {
                if let Some(r) = read_of(&c, format!("cited by {} ({:?})", s.id, title(s))) {
                    if !reads.contains(&r) {
                        reads.push(r);
                    }
                }
            }
            let mut nodes = vec![(*s).clone(), c.target.clone()];
            let mut edges = vec![c.edge.clone()];
            for (e, n) in &c.chain {
                edges.push((*e).clone());
                nodes.push((*n).clone());
            }
            if rank_i < 3 {
                evidence.push(Evidence::path(
                    nodes,
                    edges,
                    c.grounding(),
                    format!("{} cites {}", s.id, c.label()),
                ));
            }
        }
    }
    let relationships = top_edges.iter().fold(BTreeMap::new(), |mut m, e| {
        *m.entry(e.kind.as_str().to_string()).or_insert(0) += 1;
        m
    });

    // Files behind the top nodes: knowledge pages of sections and articles, source files of
    // files, symbols and the top sections' citations.
    let mut seen_files = BTreeSet::new();
    for (t, s) in top_nodes.iter().zip(&top) {
        let n = &t.node;
        let mut add = |f: RelevantFile| {
            // One entry per path: the first (best-ranked) carries the pin.
            if seen_files.insert((f.kind.clone(), f.path.clone())) {
                files.push(f);
            }
        };
        match n.kind {
            NodeKind::Section | NodeKind::Article => {
                if let Some(p) = walk::page_path(n) {
                    add(RelevantFile {
                        path: p,
                        kind: "knowledge".into(),
                        repository: None,
                        commit: None,
                        score: round4(s.score),
                    });
                }
                if n.kind == NodeKind::Section {
                    for c in walk::citations(graph, &n.id) {
                        if let Some(p) = c.path.clone() {
                            add(RelevantFile {
                                path: p,
                                kind: "source".into(),
                                repository: c.repository.clone(),
                                commit: c.commit.clone(),
                                score: round4(s.score),
                            });
                        }
                    }
                }
            }
            NodeKind::File | NodeKind::Symbol => {
                let path = n.span.as_ref().map(|x| x.file.clone()).or(n.file.clone());
                if let Some(p) = path {
                    add(RelevantFile {
                        path: p,
                        kind: "source".into(),
                        repository: n.package.clone(),
                        commit: n.metadata.get("commit").cloned(),
                        score: round4(s.score),
                    });
                }
            }
            _ => {}
        }
    }
    let dropped_files = files.len().saturating_sub(limit);
    files.truncate(limit);

    for s in &top_sections {
        diagnostics.extend(graph_diagnostics(graph, &s.id));
        for c in walk::citations(graph, &s.id) {
            diagnostics.extend(graph_diagnostics(graph, &c.target.id));
        }
    }
    let extra = ranking.matched.saturating_sub(limit);
    if extra > 0 || dropped_edges > 0 || dropped_files > 0 {
        diagnostics.push(Diagnostic::new(
            CAPABILITY_EVIDENCE_TRUNCATED,
            Severity::Info,
            format!(
                "the pack carries {} of {} matching entities, {} of {} edges and {} of {} files",
                top_nodes.len(),
                ranking.matched,
                top_edges.len(),
                top_edges.len() + dropped_edges,
                files.len(),
                files.len() + dropped_files
            ),
        ));
    }
    let q = shell_quote(query);
    let mut fallbacks = Vec::new();
    match conf.level {
        Level::None => {
            diagnostics.push(Diagnostic::new(
                CAPABILITY_NOT_FOUND,
                Severity::Warning,
                format!("nothing in the graph matches {query:?}"),
            ));
            fallbacks.push("The knowledge workspace does not document this: search the source repositories directly, then add a section that cites what you find.".to_string());
            fallbacks.push(
                "Rephrase with the identifiers involved (function, type, file or module names)."
                    .to_string(),
            );
            fallbacks.push(
                "See what is documented: `ontoly run GraphStatistics --input '{}'`.".to_string(),
            );
        }
        Level::Low => {
            diagnostics.push(Diagnostic::new(
                CAPABILITY_LOW_EVIDENCE,
                Severity::Warning,
                format!(
                    "confidence {} is below the {} threshold: {}",
                    conf.score,
                    confidence::MEDIUM,
                    conf.explanation
                ),
            ));
            fallbacks.push(if reads.is_empty() {
                "The top sections cite no pinned source: read the knowledge pages of relevantFiles and the code they describe before relying on this pack.".to_string()
            } else {
                "Read the pinned ranges in filesToInspect before relying on this pack.".to_string()
            });
            fallbacks.push("Rephrase with the identifiers involved (function, type, file or module names), or widen with --limit 20.".to_string());
            fallbacks.push("If the repositories hold the answer but no section cites it, search them directly and document it in a section.".to_string());
        }
        Level::Medium => {
            fallbacks.push(if reads.is_empty() {
                "The top sections cite no pinned source: confirm the answer in the knowledge pages of relevantFiles.".to_string()
            } else {
                "Confirm the answer by reading the pinned ranges in filesToInspect.".to_string()
            });
        }
        Level::High => {}
    }

    let mut commands = Vec::new();
    if let Some(s) = top_sections.first() {
        let input = serde_json::json!({ "section": s.id }).to_string();
        commands.push(format!(
            "ontoly run SectionEvidence --input {}",
            shell_quote(&input)
        ));
        if let Some(span) = &s.span {
            commands.push(format!(
                "ontoly refs {}",
                shell_quote(&format!(
                    "{}:{}-{}",
                    span.file, span.start_line, span.end_line
                ))
            ));
        }
        commands.push(format!(
            "ontoly graph --focus {} --format mermaid",
            shell_quote(&s.id)
        ));
    }
    if let Some(r) = reads.first() {
        commands.push(format!(
            "ontoly cites {}",
            shell_quote(&format!("{}:{}-{}", r.path, r.start_line, r.end_line))
        ));
    }
    if matches!(conf.level, Level::Low | Level::None) && limit < MAX_LIMIT {
        commands.push(format!("ontoly evidence {q} --limit {MAX_LIMIT}"));
    }

    let answer = if top_sections.is_empty() {
        if top_nodes.is_empty() {
            format!("No evidence in the graph for {query:?}.")
        } else {
            format!(
                "No section answers {query:?}; the closest entities are {}.",
                top_nodes
                    .iter()
                    .take(3)
                    .map(|t| t.node.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    } else {
        let names: Vec<String> = top_sections
            .iter()
            .take(3)
            .map(|s| format!("{:?} ({})", title(s), s.id))
            .collect();
        let mut a = format!("Best answered by {}", names[0]);
        if names.len() > 1 {
            a.push_str(&format!("; see also {}", names[1..].join(", ")));
        }
        a.push('.');
        if !cited_labels.is_empty() {
            let shown: Vec<&str> = cited_labels.iter().take(3).map(String::as_str).collect();
            a.push_str(&format!(" It cites {}", shown.join(", ")));
            if cited_labels.len() > 3 {
                a.push_str(&format!(" and {} more", cited_labels.len() - 3));
            }
            a.push('.');
        }
        if !symbol_names.is_empty() {
            let shown: Vec<&str> = symbol_names.iter().take(5).map(String::as_str).collect();
            a.push_str(&format!(" Symbols: {}.", shown.join(", ")));
        }
        a.push_str(&format!(
            " Confidence {} ({}).",
            conf.level.as_str(),
            conf.score
        ));
        a
    };
    for d in &diagnostics {
        evidence.push(Evidence::diagnostic(d.clone()));
    }
    evidence.push(Evidence::statistic(
        serde_json::json!({
            "matchedEntities": ranking.matched,
            "matchedSections": ranking.sections().count(),
            "queryTerms": ranking.terms,
        }),
        "how much of the graph matched",
    ));

    let pack = EvidencePack {
        version: PACK_VERSION.into(),
        query: query.to_string(),
        limit,
        answer,
        graph_facts: index.facts.clone(),
        top_nodes,
        top_edges,
        relevant_files: files,
        relationships,
        diagnostics,
        confidence: conf,
        suggested_commands: commands,
        stable_ids,
        files_to_inspect: reads,
        fallbacks,
        provenance: Provenance::of(graph, root),
    };
    (pack, evidence)
}
