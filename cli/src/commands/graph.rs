//! `ontoly graph --focus <id> [--depth N] --format mermaid|dot|json`.

use super::load;
use anyhow::{bail, Result};
use ontoly_capabilities::render;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GraphFormat {
    Mermaid,
    Dot,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The node at the centre (an id from `stableIds`).
    #[arg(long)]
    focus: String,
    /// Hops around the focus (1-3).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
    depth: u8,
    /// Output format.
    #[arg(long, value_enum, default_value_t = GraphFormat::Mermaid)]
    format: GraphFormat,
}

pub fn run(ws: Option<&Path>, a: Args) -> Result<ExitCode> {
    let l = load(ws)?;
    let Some((nodes, edges)) = render::neighbourhood(&l.graph, &a.focus, a.depth as usize) else {
        bail!(
            "no node {:?} in the graph (ids are in an Evidence Pack's stableIds)",
            a.focus
        );
    };
    match a.format {
        GraphFormat::Mermaid => print!("{}", render::mermaid(&nodes, &edges, &a.focus)),
        GraphFormat::Dot => print!("{}", render::dot(&nodes, &edges, &a.focus)),
        GraphFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(
                &json!({"focus": a.focus, "nodes": nodes, "edges": edges})
            )?
        ),
    }
    Ok(ExitCode::SUCCESS)
}
