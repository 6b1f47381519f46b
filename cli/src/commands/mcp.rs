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
/// protocol messages only, so no command output may follow the session.
pub fn run(ctx: &Context, args: &Args) -> Result<Output, CliError> {
    let ws = ctx.workspace()?;
    let root = ctx
        .workspace
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| ".".to_string());
    let code = crate::mcp::run(crate::mcp::Config {
        workspace: ws,
        root,
        sources: args.sources.clone(),
        use_cache: !ctx.no_cache,
    });
    std::process::exit(i32::from(code));
}
