//! `ontoly stats`: node and edge counts by kind, references by source kind and by verification
//! status, symbols by kind, cited files by language, diagnostics by code.

use super::{CliError, Globals, Output};
use crate::render::Format;
use crate::report::{Report, StatsView};
use ontoly_graph::graph::{EdgeKind, NodeKind};
use ontoly_graph::sources::symbols::{Lang, SymbolKind};
use ontoly_graph::sources::verify::Status;
use std::collections::BTreeMap;

/// The formats `ontoly stats` renders.
pub const FORMATS: &[Format] = &[Format::Text, Format::Json, Format::Yaml];

/// Arguments of `ontoly stats`.
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

fn zeros<'a>(keys: impl Iterator<Item = &'a str>) -> BTreeMap<String, usize> {
    keys.map(|k| (k.to_string(), 0)).collect()
}

/// The extension of `path`'s file name (`.md`), or `(none)` (`Makefile`, `LICENSE`).
fn extension(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !ext.is_empty() => format!(".{ext}"),
        _ => "(none)".to_string(),
    }
}

/// Counts over the built graph. Every kind is listed, zeros included, so outputs compare.
pub fn run(ctx: &Globals, _args: &Args) -> Result<Output, CliError> {
    let session = ctx.session()?;
    let g = session.graph()?;
    // Counts kept by the graph, and the references' metadata read in place: on a mapped
    // snapshot no node or edge is decoded but the symbols and diagnostics listed below.
    let nodes: BTreeMap<String, usize> = NodeKind::ALL
        .iter()
        .map(|k| (k.as_str().to_string(), g.count_of(*k)))
        .collect();
    let edges: BTreeMap<String, usize> = EdgeKind::ALL
        .iter()
        .map(|k| (k.as_str().to_string(), g.edge_count_of(*k)))
        .collect();
    let mut by_status = zeros(Status::ALL.iter().map(|s| s.as_str()));
    for (st, n) in g.edge_meta_counts(EdgeKind::Cites, "status") {
        if let Some(st) = st {
            *by_status.entry(st).or_default() += n;
        }
    }
    let by_source: BTreeMap<String, usize> = g
        .edge_meta_counts(EdgeKind::Cites, "source_kind")
        .into_iter()
        .fold(BTreeMap::new(), |mut m, (k, n)| {
            *m.entry(k.unwrap_or_else(|| "unknown".into())).or_default() += n;
            m
        });
    let mut by_symbol = zeros(SymbolKind::ALL.iter().map(|k| k.as_str()));
    for n in g.nodes_of(NodeKind::Symbol) {
        if let Some(e) = n.metadata.get("kind").and_then(|k| by_symbol.get_mut(k)) {
            *e += 1;
        }
    }
    // A cited file in no language the symbol reader parses gets no symbols, silently: counting
    // them by extension says why `cites --symbol` finds nothing in a `.y` or a `Makefile`.
    let mut by_language = zeros(Lang::FAMILIES.iter().copied());
    let mut unparsed: BTreeMap<String, usize> = BTreeMap::new();
    for n in g.nodes_of(NodeKind::File) {
        let path = n.file.as_deref().unwrap_or(&n.name);
        match Lang::for_path(path) {
            Some(lang) => *by_language.entry(lang.family().to_string()).or_default() += 1,
            None => *unparsed.entry(extension(path)).or_default() += 1,
        }
    }
    let mut by_code: BTreeMap<String, usize> = BTreeMap::new();
    for n in g.nodes_of(NodeKind::Diagnostic) {
        *by_code.entry(n.name.clone()).or_default() += 1;
    }
    Ok(Output::ok(Report::Stats(StatsView {
        workspace: session.name().to_string(),
        graph_hash: g.hash.clone(),
        graph_version: g.version.clone(),
        nodes,
        edges,
        references_by_source_kind: by_source,
        references_by_status: by_status,
        symbols_by_kind: by_symbol,
        cited_files_by_language: by_language,
        cited_files_unparsed_by_extension: unparsed,
        diagnostics_by_code: by_code,
    })))
}

#[cfg(test)]
mod tests {
    use super::extension;

    #[test]
    fn extensions_are_of_the_file_name() {
        assert_eq!(extension("src/parser.y"), ".y");
        assert_eq!(extension("docs/v1.2/Makefile"), "(none)");
        assert_eq!(extension("LICENSE"), "(none)");
        assert_eq!(extension(".github/.gitignore"), "(none)");
        assert_eq!(extension("dist/pkg.tar.gz"), ".gz");
    }
}
