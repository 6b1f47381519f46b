//! `ontoly plugin enrich --root DIR`: the repository plugin contract (Source Graph ABI 2).
//! Reads one request on stdin and writes the response bytes exactly (no trailing newline).

use super::{CliError, Context, Output};
use std::io::Read;
use std::path::PathBuf;

/// `ontoly plugin <subcommand>`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: PluginCommand,
}

#[derive(clap::Subcommand)]
enum PluginCommand {
    /// Reads one plugin request on stdin and writes the response on stdout.
    Enrich {
        /// The repository checkout the request's paths are relative to.
        #[arg(long)]
        root: PathBuf,
    },
}

/// Runs the plugin contract. The response bytes are printed as is with the default text
/// format; `--format json` wraps them in a JSON string.
pub fn run(_ctx: &Context, args: &Args) -> Result<Output, CliError> {
    match &args.command {
        PluginCommand::Enrich { root } => {
            let mut request = Vec::new();
            std::io::stdin()
                .read_to_end(&mut request)
                .map_err(|e| CliError(format!("cannot read the request on stdin: {e}")))?;
            let response = ontoly_capabilities::plugin::enrich(&request, root);
            Ok(Output {
                json: serde_json::Value::String(response.clone()),
                text: response,
                exit: 0,
            })
        }
    }
}
