//! `ontoly plugin enrich --root DIR`: the repository plugin contract (Source Graph ABI 2): one
//! request on stdin, one response on stdout, byte for byte as the contract says.

use super::{CliError, Globals, Output};
use crate::render::Format;
use crate::report::Report;
use std::io::Read;
use std::path::PathBuf;

/// `ontoly plugin` writes protocol bytes, not a format.
pub const FORMATS: &[Format] = &[];

/// `ontoly plugin <operation>`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    operation: Operation,
}

#[derive(clap::Subcommand)]
enum Operation {
    /// Reads one plugin request on stdin and writes the response on stdout.
    ///
    /// Only --root and the request are read: the global --workspace, --source and --no-cache
    /// are accepted, as by every command, and have no effect here (the request's
    /// workspace_root names the workspace under --root, and nothing is cached).
    // Accepted rather than refused: they are clap globals every command takes, and a host that
    // passes them by habit must still get the contract's response.
    Enrich {
        /// The repository checkout the request's paths are relative to.
        #[arg(long)]
        root: PathBuf,
    },
}

/// No `--format`.
pub fn format(_: &Args) -> Option<Format> {
    None
}

/// Runs the plugin operation.
pub fn run(_ctx: &Globals, args: &Args) -> Result<Output, CliError> {
    match &args.operation {
        Operation::Enrich { root } => {
            let mut request = Vec::new();
            std::io::stdin()
                .read_to_end(&mut request)
                .map_err(|e| CliError::new(format!("cannot read the request from stdin: {e}")))?;
            let response = ontoly_capabilities::plugin::enrich(&request, root);
            Ok(Output::ok(Report::Raw(response)))
        }
    }
}
