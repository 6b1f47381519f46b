//! `ontoly graph --focus <id> [--depth N] --format mermaid|dot|json`.

use super::loaded::{load, require_format};
use super::{CliError, Context, Output};
use crate::Format;
use ontoly_capabilities::render;
use serde_json::json;

/// Arguments of `ontoly graph`.
#[derive(clap::Args)]
pub struct Args {
    /// The node at the centre (an id from an Evidence Pack's `stableIds`).
    #[arg(long)]
    focus: String,
    /// Hops around the focus (1-3).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
    depth: u8,
}

/// The neighbourhood of the focus; `--format text` is Mermaid.
pub fn run(ctx: &Context, a: &Args) -> Result<Output, CliError> {
    require_format(
        ctx,
        "graph",
        &[Format::Mermaid, Format::Dot, Format::Json, Format::Text],
    )?;
    let l = load(ctx)?;
    let Some((nodes, edges)) = render::neighbourhood(&l.graph, &a.focus, a.depth as usize) else {
        return Err(CliError(format!(
            "no node {:?} in the graph (ids are in an Evidence Pack's stableIds)",
            a.focus
        )));
    };
    let text = match ctx.format {
        Format::Dot => render::dot(&nodes, &edges, &a.focus),
        _ => render::mermaid(&nodes, &edges, &a.focus),
    };
    Ok(Output::new(
        text,
        json!({ "focus": a.focus, "nodes": nodes, "edges": edges }),
        0,
    ))
}
