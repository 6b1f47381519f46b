//! `ontoly evidence <query> [--limit N] [--format text|json|yaml] [--fail-on-low-evidence]`.

use super::loaded::{load, require_format, use_color, EXIT_GATE};
use super::{CliError, Context, Output};
use crate::Format;
use ontoly_capabilities::evidence::Level;
use ontoly_capabilities::{pack, render};

/// Arguments of `ontoly evidence`.
#[derive(clap::Args)]
pub struct Args {
    /// The question.
    query: String,
    /// Entities in the pack (default 12; clamped to 5-20).
    #[arg(long, allow_negative_numbers = true)]
    limit: Option<i64>,
    /// Exit 3 when the pack comes back CAPABILITY_LOW_EVIDENCE or CAPABILITY_NOT_FOUND.
    #[arg(long)]
    fail_on_low_evidence: bool,
}

/// Text: a readable answer. JSON/YAML: the Evidence Pack itself.
pub fn run(ctx: &Context, a: &Args) -> Result<Output, CliError> {
    require_format(ctx, "evidence", &[Format::Text, Format::Json, Format::Yaml])?;
    let l = load(ctx)?;
    let (p, _) = pack::evidence_pack(&l.graph, &l.index, &l.root, &a.query, a.limit);
    let text = if ctx.format == Format::Text {
        render::pack_text(&p, &l.graph, use_color())
    } else {
        String::new()
    };
    let weak = matches!(p.confidence.level, Level::Low | Level::None);
    let exit = if a.fail_on_low_evidence && weak {
        EXIT_GATE
    } else {
        0
    };
    Ok(Output::new(
        text,
        serde_json::to_value(&p).map_err(|e| CliError(e.to_string()))?,
        exit,
    ))
}
