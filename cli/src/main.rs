//! The `ontoly` command line.

use clap::{Parser, Subcommand};
use std::io::{Read, Write};
use std::path::PathBuf;

/// ontoly: a graph evidence engine for Context knowledge workspaces.
#[derive(Parser)]
#[command(name = "ontoly", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Repository plugin contract (Source Graph ABI 2).
    #[command(subcommand)]
    Plugin(PluginCommand),
}

#[derive(Subcommand)]
enum PluginCommand {
    /// Reads one plugin request on stdin and writes the response on stdout.
    Enrich {
        /// The repository checkout the request's paths are relative to.
        #[arg(long)]
        root: PathBuf,
    },
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Plugin(PluginCommand::Enrich { root }) => {
            let mut request = Vec::new();
            std::io::stdin().read_to_end(&mut request)?;
            let response = ontoly_capabilities::plugin::enrich(&request, &root);
            let mut out = std::io::stdout().lock();
            out.write_all(response.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(())
}
