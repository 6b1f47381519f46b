//! `ontoly mcp`: the MCP server over stdio (the server itself lives in `crate::mcp`).

use super::{CliError, Context, Output};

/// `ontoly mcp` takes only the global options: `--workspace`, `--no-cache` and `--source`.
#[derive(clap::Args)]
pub struct Args {}

/// Serves until the client closes stdin, then exits the process directly: stdout carries
/// protocol messages only, so no command output may follow the session. A directory that is
/// not a workspace, or a malformed `--source`, is a usage error before any protocol; a
/// workspace that then fails to load (e.g. a broken `ontoly.toml`) is reported by every tool
/// as `GRAPH_UNAVAILABLE`, so the agent learns why.
pub fn run(ctx: &Context, _args: &Args) -> Result<Output, CliError> {
    ctx.workspace()?;
    for source in &ctx.sources {
        ontoly_graph::sources::clones::parse_override(source).map_err(|e| CliError(e.message))?;
    }
    let owned = Context {
        workspace: ctx.workspace.clone(),
        no_cache: ctx.no_cache,
        format: ctx.format,
        sources: ctx.sources.clone(),
    };
    let code = crate::mcp::run(crate::mcp::workspace_loader(owned));
    std::process::exit(i32::from(code));
}
