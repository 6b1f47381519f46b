//! `ontoly mcp`: the MCP server over stdio (the server itself lives in `crate::mcp`).

use super::{CliError, Globals, Output};
use crate::render::Format;

/// `ontoly mcp` speaks the protocol, not a format.
pub const FORMATS: &[Format] = &[];

/// `ontoly mcp` takes only the global options: `--workspace`, `--no-cache` and `--source`.
#[derive(clap::Args)]
pub struct Args {}

/// No `--format`.
pub fn format(_: &Args) -> Option<Format> {
    None
}

/// Serves until the client closes stdin, then exits the process directly: stdout carries
/// protocol messages only, so no command output may follow the session. A directory that is
/// not a workspace, a malformed `--source` or a bad `ontoly.toml` is a usage error before any
/// protocol; a workspace that then fails to build is reported by every tool as
/// `GRAPH_UNAVAILABLE`, so the agent learns why.
pub fn run(ctx: &Globals, _args: &Args) -> Result<Output, CliError> {
    let mut opts = ctx.session_options()?;
    // The build runs in the background while the client initializes: no progress bar.
    opts.progress = None;
    let session = ontoly_graph::Session::open(opts)?;
    let code = crate::mcp::run(session);
    std::process::exit(i32::from(code));
}
