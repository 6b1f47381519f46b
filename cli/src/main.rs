//! The `ontoly` command line.

mod mcp;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "ontoly",
    version,
    about = "A graph evidence engine for knowledge workspaces"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the evidence graph and pinned reads to agents over MCP (stdio).
    Mcp(mcp::McpArgs),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Mcp(args) => mcp::run(args),
    }
}
