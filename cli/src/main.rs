//! The `ontoly` command line.

mod mcp;

use clap::{Parser, Subcommand};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

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
    /// Serve the evidence graph and pinned reads to agents over MCP (stdio).
    Mcp(mcp::McpArgs),
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Plugin(PluginCommand::Enrich { root }) => match plugin_enrich(&root) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("ontoly: {e:#}");
                ExitCode::FAILURE
            }
        },
        Command::Mcp(args) => mcp::run(args),
    }
}

fn plugin_enrich(root: &std::path::Path) -> anyhow::Result<()> {
    let mut request = Vec::new();
    std::io::stdin().read_to_end(&mut request)?;
    let response = ontoly_capabilities::plugin::enrich(&request, root);
    let mut out = std::io::stdout().lock();
    out.write_all(response.as_bytes())?;
    out.flush()?;
    Ok(())
}
