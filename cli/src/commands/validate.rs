//! `ontoly validate`: every diagnostic with `file:line`; exit 1 when any is an error.

use super::{CliError, Globals, Output};
use crate::render::Format;
use crate::report::{Report, SeverityCounts, ValidateView};
use ontoly_graph::graph::findings::diagnostics_of;

/// The formats `ontoly validate` renders.
pub const FORMATS: &[Format] = &[Format::Text, Format::Json, Format::Yaml];

/// Arguments of `ontoly validate`.
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

/// Lists diagnostics ordered by file, line and code.
pub fn run(ctx: &Globals, _args: &Args) -> Result<Output, CliError> {
    let session = ctx.session()?;
    let g = session.graph()?;
    let summary = SeverityCounts::of(g);
    Ok(Output {
        report: Report::Validate(ValidateView {
            workspace: session.name().to_string(),
            graph_hash: g.hash.clone(),
            valid: summary.error == 0,
            summary,
            diagnostics: diagnostics_of(g),
        }),
        exit: u8::from(summary.error > 0),
    })
}
