//! `ontoly plugin enrich --root DIR`: the repository plugin contract (Source Graph ABI 2): one
//! request on stdin, one response on stdout, byte for byte as the contract says.

use super::{CliError, Context, Output};
use std::io::Read;
use std::path::PathBuf;

/// `ontoly plugin <operation>`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    operation: Operation,
}

#[derive(clap::Subcommand)]
enum Operation {
    /// Reads one plugin request on stdin and writes the response on stdout.
    Enrich {
        /// The repository checkout the request's paths are relative to.
        #[arg(long)]
        root: PathBuf,
    },
}

/// Runs the plugin operation; its response ignores `--format`.
pub fn run(_ctx: &Context, args: &Args) -> Result<Output, CliError> {
    match &args.operation {
        Operation::Enrich { root } => {
            let mut request = Vec::new();
            std::io::stdin()
                .read_to_end(&mut request)
                .map_err(|e| CliError(format!("cannot read the request from stdin: {e}")))?;
            let response = ontoly_capabilities::plugin::enrich(&request, root);
            let mut out = Output::new(String::new(), serde_json::Value::Null, 0);
            out.raw = Some(response);
            Ok(out)
        }
    }
}
