//! `ontoly mcp`: the MCP server over stdio (the server itself lives in `crate::mcp`).

use super::{CliError, Context, Output};

/// `ontoly mcp` takes the global options (`--workspace`, `--no-cache`) and clone overrides.
#[derive(clap::Args)]
pub struct Args {
    /// A local clone of a registered source repository, as NAME=PATH (repeatable; a remote
    /// like github.com/acme/server or a <source>/<module> name, and a local git repository).
    #[arg(long = "source", value_name = "NAME=PATH", value_parser = parse_source)]
    pub sources: Vec<(String, String)>,
}

fn parse_source(raw: &str) -> Result<(String, String), String> {
    ontoly_graph::clones::parse_override(raw).map_err(|e| e.to_string())
}

/// Serves until the client closes stdin, then exits the process directly: stdout carries
/// protocol messages only, so no command output may follow the session. A directory that is
/// not a workspace is a usage error before any protocol.
pub fn run(ctx: &Context, args: &Args) -> Result<Output, CliError> {
    ctx.workspace()?;
    let owned = Context {
        workspace: ctx.workspace.clone(),
        no_cache: ctx.no_cache,
        format: ctx.format,
    };
    let code = crate::mcp::run(crate::mcp::workspace_loader(owned, args.sources.clone()));
    std::process::exit(i32::from(code));
}
