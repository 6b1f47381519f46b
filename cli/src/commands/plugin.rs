//! `ontoly plugin enrich --root DIR`: one plugin request on stdin, the response on stdout.

use super::{CliError, Context, Output};
use std::io::Read;
use std::path::PathBuf;

/// Arguments of `ontoly plugin`.
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

/// The response bytes are the text output, printed as they are.
pub fn run(_ctx: &Context, a: &Args) -> Result<Output, CliError> {
    match &a.command {
        PluginCommand::Enrich { root } => {
            let mut request = Vec::new();
            std::io::stdin()
                .read_to_end(&mut request)
                .map_err(|e| CliError(format!("cannot read the request: {}", e.kind())))?;
            let response = ontoly_capabilities::plugin::enrich(&request, root);
            Ok(Output {
                text: response,
                json: serde_json::Value::Null,
                exit: 0,
            })
        }
    }
}
