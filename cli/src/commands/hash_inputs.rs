//! `ontoly hash-inputs` (hidden): reads and blake3-hashes every input file and stops — the floor
//! that `scripts/bench-build.sh` compares builds against.

use super::{CliError, Globals, Output};
use crate::render::Format;
use crate::report::{InputsView, Report};

/// The formats `ontoly hash-inputs` renders.
pub const FORMATS: &[Format] = &[Format::Text, Format::Json];

/// Arguments of `ontoly hash-inputs`.
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

/// Reads and hashes the inputs in parallel, as the first stage of a build does.
pub fn run(ctx: &Globals, _args: &Args) -> Result<Output, CliError> {
    let session = ctx.session()?;
    let inputs = ontoly_graph::graph::build::inputs::read_inputs(session.workspace())
        .map_err(|e| CliError::new(e.to_string()))?;
    Ok(Output::ok(Report::Inputs(InputsView {
        files: inputs.files.len(),
        bytes: inputs.bytes(),
        inputs: ontoly_graph::graph::build::inputs::cache_key(inputs.pairs(), ""),
    })))
}
