//! `ontoly build`: build the graph (or load it from the cache) and summarize it.

use super::{severity_counts, CliError, Context, Output};
use ontoly_graph::graph::model::{EdgeKind, NodeKind};
use serde_json::json;

/// `ontoly build` takes only the global options.
#[derive(clap::Args)]
pub struct Args {}

/// Builds and prints counts, the diagnostics summary, the graph hash and what the cache did.
pub fn run(ctx: &Context, _args: &Args) -> Result<Output, CliError> {
    let (ws, out) = ctx.build()?;
    let g = &out.graph;
    let r = &out.report;
    let articles = g.nodes_of(NodeKind::Article).count();
    let sections = g.nodes_of(NodeKind::Section).count();
    let references = g.edges.iter().filter(|e| e.kind == EdgeKind::Cites).count();
    let (errors, warnings, infos) = severity_counts(g);
    let cache = serde_json::to_value(r.cache).unwrap_or_default();
    let cache = cache.as_str().unwrap_or("");
    let text = format!(
        "workspace   {}\narticles    {articles}\nsections    {sections}\nreferences  {references}\nnodes       {}\nedges       {}\ndiagnostics {errors} errors, {warnings} warnings, {infos} info\ngraph hash  {}\ncache       {cache} ({} of {} pages parsed)\n",
        ws.name,
        g.nodes.len(),
        g.edges.len(),
        g.hash,
        r.pages_parsed,
        r.pages,
    );
    let json = json!({
        "workspace": ws.name,
        "graphHash": g.hash,
        "graphVersion": g.version,
        "counts": {
            "articles": articles,
            "sections": sections,
            "references": references,
            "nodes": g.nodes.len(),
            "edges": g.edges.len(),
        },
        "diagnostics": {"error": errors, "warning": warnings, "info": infos},
        "cache": {
            "status": cache,
            "pages": r.pages,
            "pagesParsed": r.pages_parsed,
            "pagesReused": r.pages_reused,
            "note": r.cache_note,
        },
    });
    // The process ends right after printing: freeing a large graph's million small
    // allocations would only add seconds.
    std::mem::forget(out);
    Ok(Output::new(text, json, 0))
}
