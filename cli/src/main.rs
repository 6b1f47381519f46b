//! `ontoly`: the command line of the graph evidence engine.
//!
//! Exit codes: 0 success; 1 error (no workspace, unreadable input, invalid capability input);
//! 2 usage error (clap); 3 evidence gate failed (`check`, `evidence --fail-on-low-evidence`:
//! a question came back `CAPABILITY_LOW_EVIDENCE` or `CAPABILITY_NOT_FOUND`, or missed its
//! expected sections).

mod commands;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// ontoly: a graph evidence engine for knowledge workspaces.
#[derive(Debug, Parser)]
#[command(name = "ontoly", version, about)]
struct Cli {
    /// The knowledge workspace (a directory holding knowledge/structure.yaml); default: the
    /// current directory or its nearest ancestor that is one.
    #[arg(long, global = true)]
    workspace: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Answer a question with an Evidence Pack.
    Evidence(commands::evidence::Args),
    /// List the registered capabilities and their input schemas.
    Capabilities(commands::capabilities::Args),
    /// Run a capability: `ontoly run EvidencePack --input '{"query":"..."}'`.
    Run(commands::run::Args),
    /// Which sections cite a file, a line range of it, or a symbol.
    Cites(commands::cites::Args),
    /// A picture of a node's neighbourhood.
    Graph(commands::graph::Args),
    /// CI gate: answer every question of a file; exit 3 when any is weak or wrong.
    Check(commands::check::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let ws = cli.workspace.as_deref();
    let r = match cli.command {
        Command::Evidence(a) => commands::evidence::run(ws, a),
        Command::Capabilities(a) => commands::capabilities::run(a),
        Command::Run(a) => commands::run::run(ws, a),
        Command::Cites(a) => commands::cites::run(ws, a),
        Command::Graph(a) => commands::graph::run(ws, a),
        Command::Check(a) => commands::check::run(ws, a),
    };
    match r {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(commands::EXIT_ERROR)
        }
    }
}
