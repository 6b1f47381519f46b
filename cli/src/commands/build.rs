//! `ontoly build`: build the graph (or load it from the cache) and summarize it.

use super::{CliError, Globals, Output};
use crate::render::Format;
use crate::report::{BuildView, CacheView, Counts, Report, SearchIndexView, SeverityCounts};
use ontoly_capabilities::retrieval::index::Origin;
use ontoly_graph::graph::{EdgeKind, NodeKind};
use ontoly_graph::CachePolicy;

/// The formats `ontoly build` renders.
pub const FORMATS: &[Format] = &[Format::Text, Format::Json, Format::Yaml];

/// Arguments of `ontoly build`.
#[derive(clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_parser = crate::render::parser(FORMATS))]
    format: Option<Format>,
}

/// The `--format` given to this command.
pub fn format(a: &Args) -> Option<Format> {
    a.format
}

/// Builds and reports counts, the diagnostics summary, the graph hash and what the cache did.
pub fn run(ctx: &Globals, _args: &Args) -> Result<Output, CliError> {
    let session = ctx.session()?;
    // The search index is built with the graph (while its snapshot is written), so no query
    // process ever builds it.
    let search_index = if session.cache() == CachePolicy::ReadWrite {
        let ix = super::index_as_built(&session)?;
        let (status, tokenized) = match ix.origin() {
            Origin::Stored => ("reused", 0),
            Origin::Built => ("built", ix.len()),
            Origin::Updated { tokenized } => ("updated", tokenized),
        };
        Some(SearchIndexView {
            status: status.to_string(),
            documents: ix.len(),
            tokenized,
            note: ix.store_note().map(str::to_string),
        })
    } else {
        None
    };
    let out = session.build()?;
    let (g, r) = (&out.graph, &out.report);
    let cache = serde_json::to_value(r.cache).unwrap_or_default();
    Ok(Output::ok(Report::Build(BuildView {
        workspace: session.name().to_string(),
        graph_hash: g.hash.clone(),
        graph_version: g.version.clone(),
        counts: Counts {
            articles: g.count_of(NodeKind::Article),
            sections: g.count_of(NodeKind::Section),
            references: g.edge_count_of(EdgeKind::Cites),
            nodes: g.node_count(),
            edges: g.edge_count(),
        },
        diagnostics: SeverityCounts::of(g),
        cache: CacheView {
            status: cache.as_str().unwrap_or("").to_string(),
            pages: r.pages,
            pages_parsed: r.pages_parsed,
            pages_reused: r.pages_reused,
            note: r.cache_note.clone(),
        },
        search_index,
    })))
}
