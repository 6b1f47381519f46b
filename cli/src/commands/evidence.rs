//! `ontoly evidence <query> [--limit N] [--format text|json|yaml] [--fail-on-low-evidence]`.

use super::{load, print_structured, use_color, Format, EXIT_GATE};
use anyhow::Result;
use ontoly_capabilities::evidence::Level;
use ontoly_capabilities::{pack, render};
use std::path::Path;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The question.
    query: String,
    /// Entities in the pack (default 12; clamped to 5-20).
    #[arg(long, allow_negative_numbers = true)]
    limit: Option<i64>,
    /// Output format: text (a readable answer), json or yaml (the Evidence Pack itself).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Exit 3 when the pack comes back CAPABILITY_LOW_EVIDENCE or CAPABILITY_NOT_FOUND.
    #[arg(long)]
    fail_on_low_evidence: bool,
}

pub fn run(ws: Option<&Path>, a: Args) -> Result<ExitCode> {
    let l = load(ws)?;
    let (p, _) = pack::evidence_pack(&l.graph, &l.index, &l.root, &a.query, a.limit);
    match a.format {
        Format::Text => print!("{}", render::pack_text(&p, &l.graph, use_color())),
        f => print_structured(&p, f)?,
    }
    if a.fail_on_low_evidence && matches!(p.confidence.level, Level::Low | Level::None) {
        return Ok(ExitCode::from(EXIT_GATE));
    }
    Ok(ExitCode::SUCCESS)
}
