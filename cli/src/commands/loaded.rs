//! A built graph with its search index, for the evidence commands.

use super::{CliError, Context};
use ontoly_capabilities::Index;
use ontoly_graph::graph::Graph;
use std::path::{Component, Path};

/// A workspace's graph, its search index (from the snapshot) and the root as given.
pub struct Loaded {
    /// The graph.
    pub graph: Graph,
    /// Its search index.
    pub index: Index,
    /// The workspace root as the user would write it (never made absolute).
    pub root: String,
}

impl Loaded {
    /// The capability context over this workspace.
    pub fn ctx(&self) -> ontoly_capabilities::Context<'_> {
        ontoly_capabilities::Context {
            graph: &self.graph,
            index: &self.index,
            root: &self.root,
        }
    }
}

/// `--workspace` as given, else the found root relative to the current directory.
fn display_root(explicit: Option<&Path>, found: &Path) -> String {
    if let Some(p) = explicit {
        return p.to_string_lossy().into_owned();
    }
    let Ok(cwd) = std::env::current_dir() else {
        return ".".into();
    };
    let found = std::fs::canonicalize(found).unwrap_or_else(|_| found.to_path_buf());
    let cwd = std::fs::canonicalize(&cwd).unwrap_or(cwd);
    let ups = cwd
        .components()
        .count()
        .saturating_sub(found.components().count());
    if ups == 0 || !cwd.starts_with(&found) {
        ".".into()
    } else {
        vec![Component::ParentDir.as_os_str().to_string_lossy(); ups].join("/")
    }
}

/// Builds (or loads from the snapshot) the graph, and loads (or builds and stores) its index.
pub fn load(ctx: &Context) -> Result<Loaded, CliError> {
    let (ws, out) = ctx.build()?;
    let index = Index::load_or_build(&ws.root, &out.graph, !ctx.no_cache);
    Ok(Loaded {
        graph: out.graph,
        index,
        root: display_root(ctx.workspace.as_deref(), &ws.root),
    })
}

/// Colour only on a terminal, and never when `NO_COLOR` is set (to anything non-empty).
pub fn use_color() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// A usage error when the global `--format` is not one this command renders.
pub fn require_format(
    ctx: &Context,
    command: &str,
    allowed: &[crate::Format],
) -> Result<(), CliError> {
    if allowed.contains(&ctx.format) {
        return Ok(());
    }
    let names: Vec<String> = allowed
        .iter()
        .map(|f| format!("{f:?}").to_lowercase())
        .collect();
    Err(CliError(format!(
        "`ontoly {command}` supports --format {}",
        names.join("|")
    )))
}

/// Exit code when the evidence gate fails.
pub const EXIT_GATE: u8 = 3;
