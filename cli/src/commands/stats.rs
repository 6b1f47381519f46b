//! `ontoly stats`: node and edge counts by kind, references by source kind and by verification
//! status, symbols by kind, diagnostics by code.

use super::{CliError, Context, Output};
use ontoly_graph::graph::model::{EdgeKind, NodeKind};
use ontoly_graph::sources::symbols::SymbolKind;
use ontoly_graph::sources::verify::Status;
use serde_json::json;
use std::collections::BTreeMap;

/// `ontoly stats` takes only the global options.
#[derive(clap::Args)]
pub struct Args {}

/// Counts over the built graph. Every kind is listed, zeros included, so outputs compare.
pub fn run(ctx: &Context, _args: &Args) -> Result<Output, CliError> {
    let (ws, out) = ctx.build()?;
    let g = &out.graph;
    let mut nodes: BTreeMap<&str, usize> = NodeKind::ALL.iter().map(|k| (k.as_str(), 0)).collect();
    for n in &g.nodes {
        *nodes.entry(n.kind.as_str()).or_default() += 1;
    }
    let mut edges: BTreeMap<&str, usize> = EdgeKind::ALL.iter().map(|k| (k.as_str(), 0)).collect();
    let mut by_source: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_status: BTreeMap<String, usize> = Status::ALL
        .iter()
        .map(|s| (s.as_str().to_string(), 0))
        .collect();
    for e in &g.edges {
        *edges.entry(e.kind.as_str()).or_default() += 1;
        if e.kind == EdgeKind::Cites {
            if let Some(st) = e.metadata.get("status") {
                *by_status.entry(st.clone()).or_default() += 1;
            }
            let kind = e
                .metadata
                .get("source_kind")
                .cloned()
                .unwrap_or_else(|| "unknown".into());
            *by_source.entry(kind).or_default() += 1;
        }
    }
    let mut by_symbol: BTreeMap<&str, usize> =
        SymbolKind::ALL.iter().map(|k| (k.as_str(), 0)).collect();
    for n in g.nodes_of(NodeKind::Symbol) {
        if let Some(k) = n.metadata.get("kind") {
            if let Some(e) = by_symbol.get_mut(k.as_str()) {
                *e += 1;
            }
        }
    }
    let mut by_code: BTreeMap<String, usize> = BTreeMap::new();
    for n in g.nodes_of(NodeKind::Diagnostic) {
        *by_code.entry(n.name.clone()).or_default() += 1;
    }
    let mut text = format!("workspace {}\ngraph hash {}\n\nnodes\n", ws.name, g.hash);
    fn table<K: AsRef<str>>(text: &mut String, m: &BTreeMap<K, usize>) {
        for (k, v) in m {
            text.push_str(&format!("  {:<26} {v}\n", k.as_ref()));
        }
    }
    table(&mut text, &nodes);
    text.push_str("\nedges\n");
    table(&mut text, &edges);
    text.push_str("\nreferences by source kind\n");
    if by_source.is_empty() {
        text.push_str("  (none)\n");
    }
    table(&mut text, &by_source);
    text.push_str("\nreferences by status\n");
    table(&mut text, &by_status);
    text.push_str("\nsymbols by kind\n");
    table(&mut text, &by_symbol);
    text.push_str("\ndiagnostics by code\n");
    if by_code.is_empty() {
        text.push_str("  (none)\n");
    }
    table(&mut text, &by_code);
    let json = json!({
        "workspace": ws.name,
        "graphHash": g.hash,
        "graphVersion": g.version,
        "nodes": nodes,
        "edges": edges,
        "referencesBySourceKind": by_source,
        "referencesByStatus": by_status,
        "symbolsByKind": by_symbol,
        "diagnosticsByCode": by_code,
    });
    // The process ends right after printing: freeing a large graph's million small
    // allocations would only add seconds.
    std::mem::forget(out);
    Ok(Output::new(text, json, 0))
}
