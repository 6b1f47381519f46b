//! `ontoly evidence <query> [--limit N] [--format text|json|yaml] [--fail-on-low-evidence]`.

use super::{index, CliError, Globals, Output, EXIT_GATE};
use crate::render::Format;
use crate::report::Report;
use ontoly_capabilities::evidence::Level;
use ontoly_capabilities::pack;

/// The formats `ontoly evidence` renders.
pub const FORMATS: &[Format] = &[Format::Text, Format::Json, Format::Yaml];

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
    /// Output format: a readable answer, or the Evidence Pack itself.
    #[arg(long, value_parser = crate::render::parser(FORMATS))]
    format: Option<Format>,
}

/// The `--format` given to this command.
pub fn format(a: &Args) -> Option<Format> {
    a.format
}

/// The Evidence Pack for the query.
pub fn run(ctx: &Globals, a: &Args) -> Result<Output, CliError> {
    let session = ctx.session()?;
    let index = index(&session)?;
    let cx = ontoly_capabilities::Context::new(&session, &index)?;
    let answer = pack::evidence_pack(&cx, &a.query, a.limit);
    let weak = matches!(answer.pack.confidence.level, Level::Low | Level::None);
    Ok(Output {
        report: Report::Pack(Box::new(answer)),
        exit: if a.fail_on_low_evidence && weak {
            EXIT_GATE
        } else {
            0
        },
    })
}
