//! `ontoly plugin enrich`: the repository plugin contract (Source Graph ABI 2).

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

/// Answers one plugin request; the response is the output in both formats.
pub fn run(_ctx: &Context, args: &Args) -> Result<Output, CliError> {
    match &args.command {
        PluginCommand::Enrich { root } => {
            let mut request = Vec::new();
            std::io::stdin()
                .read_to_end(&mut request)
                .map_err(|e| CliError(format!("cannot read the request on stdin: {e}")))?;
            let response = ontoly_capabilities::plugin::enrich(&request, root);
            let json = serde_json::from_str(&response)
                .unwrap_or_else(|_| serde_json::Value::String(response.clone()));
            Ok(Output {
                text: response,
                json,
                exit: 0,
            })
        }
    }
}
