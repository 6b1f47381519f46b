//! Human renderings: the Evidence Pack as text, and a node's neighbourhood as Mermaid, DOT or
//! JSON. Deterministic; colour only when asked for (the CLI decides: terminal and no
//! `NO_COLOR`).

use crate::evidence::{Level, Severity};
use crate::pack::{title, EvidencePack};
use crate::walk;
use ontoly_graph::graph::Graph;
use ontoly_graph::graph::model::{Edge, Node, NodeKind};
use std::collections::{BTreeSet, VecDeque};
use std::fmt::Write as _;

/// ANSI styling, or none.
#[derive(Debug, Clone, Copy)]
struct Style(bool);

impl Style {
    fn paint(self, code: &str, s: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
    fn bold(self, s: &str) -> String {
        self.paint("1", s)
    }
    fn dim(self, s: &str) -> String {
        self.paint("2", s)
    }
    fn level(self, l: Level) -> String {
        let code = match l {
            Level::High => "32",
            Level::Medium => "33",
            Level::Low | Level::None => "31",
        };
        self.paint(code, l.as_str())
    }
}

/// The pack as a readable answer: the answer, confidence, the top sections with their pinned
/// citations and URLs, other entities, files to inspect, diagnostics, fallbacks, next commands.
pub fn pack_text(pack: &EvidencePack, graph: &Graph, color: bool) -> String {
    let st = Style(color);
    let mut o = String::new();
    let c = &pack.confidence;
    let _ = writeln!(o, "{} {}", st.bold("Question:"), pack.query);
    let _ = writeln!(o, "{} {}", st.bold("Answer:"), pack.answer);
    let _ = writeln!(
        o,
        "{} {} ({}): {}",
        st.bold("Confidence:"),
        st.level(c.level),
        c.score,
        c.explanation
    );
    let sections: Vec<_> = pack
        .top_nodes
        .iter()
        .filter(|t| t.node.kind == NodeKind::Section)
        .collect();
    if !sections.is_empty() {
        let _ = writeln!(o, "\n{}", st.bold("Top sections:"));
    }
    for (i, t) in sections.iter().enumerate() {
        let n = &t.node;
        let at = n
            .span
            .as_ref()
            .map(|s| format!("{}:{}-{}", s.file, s.start_line, s.end_line))
            .or_else(|| walk::page_path(n))
            .unwrap_or_default();
        let _ = writeln!(
            o,
            "{:>3}. {}  {}  {}",
            i + 1,
            st.bold(title(n)),
            st.dim(&at),
            st.dim(&format!("score {}", t.score))
        );
        let _ = writeln!(o, "     {}", st.dim(&n.id));
        let cites = walk::citations(graph, &n.id);
        if cites.is_empty() {
            let _ = writeln!(o, "     cites nothing");
        }
        for c in cites {
            let status = match c.verification {
                walk::Verification::Verified => "verified",
                walk::Verification::Drift => "DRIFT",
                walk::Verification::Unknown if c.pinned => "pinned",
                walk::Verification::Unknown => "unpinned",
            };
            let _ = writeln!(o, "     cites {} [{status}]", c.label());
            if let Some(u) = &c.url {
                let _ = writeln!(o, "           {u}");
            }
            for (_, s) in &c.symbols {
                let kind = s
                    .metadata
                    .get("kind")
                    .map(String::as_str)
                    .unwrap_or("symbol");
                let _ = writeln!(o, "           overlaps {kind} {}", s.name);
            }
        }
    }
    let others: Vec<_> = pack
        .top_nodes
        .iter()
        .filter(|t| t.node.kind != NodeKind::Section)
        .collect();
    if !others.is_empty() {
        let _ = writeln!(o, "\n{}", st.bold("Related entities:"));
        for t in others {
            let _ = writeln!(
                o,
                "  - {} {}  {}",
                t.node.kind.as_str(),
                t.node.id,
                st.dim(&format!("score {}", t.score))
            );
        }
    }
    if !pack.files_to_inspect.is_empty() {
        let _ = writeln!(o, "\n{}", st.bold("Files to inspect:"));
        for f in &pack.files_to_inspect {
            let commit = f.commit.get(..12).unwrap_or(&f.commit);
            let _ = writeln!(
                o,
                "  - {}@{commit}:{}:{}-{}  {}",
                f.repository,
                f.path,
                f.start_line,
                f.end_line,
                st.dim(&f.reason)
            );
            if let Some(u) = &f.url {
                let _ = writeln!(o, "    {u}");
            }
        }
    }
    if !pack.diagnostics.is_empty() {
        let _ = writeln!(o, "\n{}", st.bold("Diagnostics:"));
        for d in &pack.diagnostics {
            let sev = match d.severity {
                Severity::Error => st.paint("31", "error"),
                Severity::Warning => st.paint("33", "warning"),
                Severity::Info => st.dim("info"),
            };
            let _ = writeln!(o, "  [{sev}] {}: {}", d.code, d.message);
        }
    }
    if !pack.fallbacks.is_empty() {
        let _ = writeln!(o, "\n{}", st.bold("Fallbacks:"));
        for f in &pack.fallbacks {
            let _ = writeln!(o, "  - {f}");
        }
    }
    if !pack.suggested_commands.is_empty() {
        let _ = writeln!(o, "\n{}", st.bold("Next:"));
        for c in &pack.suggested_commands {
            let _ = writeln!(o, "  $ {c}");
        }
    }
    let p = &pack.provenance;
    let _ = writeln!(
        o,
        "\n{}",
        st.dim(&format!(
            "Provenance: {} at {}, graph {} ({}), {} nodes, {} edges{}",
            p.repository,
            p.root,
            p.graph_hash.get(..16).unwrap_or(&p.graph_hash),
            p.graph_version,
            p.node_count,
            p.edge_count,
            p.knowledge_commit
                .as_deref()
                .map(|c| format!(", knowledge commit {c}"))
                .unwrap_or_default()
        ))
    );
    o
}

/// Nodes shown around a focus at most.
pub const NEIGHBOURHOOD_MAX_NODES: usize = 60;

/// The nodes within `depth` hops of `focus` (edges in either direction), at most
/// [`NEIGHBOURHOOD_MAX_NODES`], and the edges among them. `None` when `focus` is unknown.
pub fn neighbourhood<'g>(
    graph: &'g Graph,
    focus: &str,
    depth: usize,
) -> Option<(Vec<&'g Node>, Vec<&'g Edge>)> {
    graph.node(focus)?;
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut queue = VecDeque::new();
    let f = graph.node(focus)?;
    seen.insert(&f.id);
    queue.push_back((f.id.as_str(), 0));
    while let Some((id, d)) = queue.pop_front() {
        if d >= depth {
            continue;
        }
        let mut next: Vec<&Edge> = graph.out_edges(id, None);
        next.extend(graph.in_edges(id, None));
        next.sort_by(|a, b| a.id.cmp(&b.id));
        for e in next {
            let other = if e.from == id { &e.to } else { &e.from };
            if seen.len() >= NEIGHBOURHOOD_MAX_NODES {
                break;
            }
            if seen.insert(other) {
                queue.push_back((other.as_str(), d + 1));
            }
        }
    }
    let nodes: Vec<&Node> = seen.iter().filter_map(|id| graph.node(id)).collect();
    let edges: Vec<&Edge> = graph
        .edges
        .iter()
        .filter(|e| seen.contains(e.from.as_str()) && seen.contains(e.to.as_str()))
        .collect();
    Some((nodes, edges))
}

fn label(n: &Node) -> String {
    format!("{}: {}", n.kind.as_str(), title(n))
}

/// A Mermaid flowchart of a neighbourhood (focus highlighted).
pub fn mermaid(nodes: &[&Node], edges: &[&Edge], focus: &str) -> String {
    let key = |id: &str| nodes.iter().position(|n| n.id == id).unwrap_or(0);
    let mut o = String::from("flowchart LR\n");
    for (i, n) in nodes.iter().enumerate() {
        let l = label(n).replace('"', "#quot;");
        let _ = writeln!(o, "  n{i}[\"{l}\"]");
    }
    for e in edges {
        let _ = writeln!(
            o,
            "  n{} -->|{}| n{}",
            key(&e.from),
            e.kind.as_str(),
            key(&e.to)
        );
    }
    let _ = writeln!(o, "  style n{} stroke-width:3px", key(focus));
    o
}

/// A Graphviz DOT digraph of a neighbourhood (focus bold).
pub fn dot(nodes: &[&Node], edges: &[&Edge], focus: &str) -> String {
    let q = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    let mut o = String::from("digraph ontoly {\n  rankdir=LR;\n  node [shape=box];\n");
    for n in nodes {
        let style = if n.id == focus { ", style=bold" } else { "" };
        let _ = writeln!(o, "  {} [label={}{style}];", q(&n.id), q(&label(n)));
    }
    for e in edges {
        let _ = writeln!(
            o,
            "  {} -> {} [label={}];",
            q(&e.from),
            q(&e.to),
            q(e.kind.as_str())
        );
    }
    o.push_str("}\n");
    o
}
