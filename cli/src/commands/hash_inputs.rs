//! `ontoly hash-inputs` (hidden): reads and blake3-hashes every input file and stops — the floor
//! that `scripts/bench-build.sh` compares builds against.

use super::{CliError, Context, Output};
use serde_json::json;

/// `ontoly hash-inputs` takes only the global options.
#[derive(clap::Args)]
pub struct Args {}

/// Reads and hashes the inputs in parallel, as the first stage of a build does.
pub fn run(ctx: &Context, _args: &Args) -> Result<Output, CliError> {
    let ws = ctx.workspace()?;
    let inputs = ontoly_graph::graph::build::read_inputs(&ws).map_err(|e| CliError(e.to_string()))?;
    let key = ontoly_graph::graph::build::cache_key(&inputs, "");
    let files = inputs.files.len();
    let bytes = inputs.bytes();
    Ok(Output::new(
        format!("files {files}\nbytes {bytes}\ninputs {key}\n"),
        json!({"files": files, "bytes": bytes, "inputs": key}),
        0,
    ))
}
