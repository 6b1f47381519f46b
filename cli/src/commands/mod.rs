//! One module per subcommand; shared loading of the graph and its search index.

pub mod capabilities;
pub mod check;
pub mod cites;
pub mod evidence;
pub mod graph;
pub mod run;

use anyhow::{Context as _, Result};
use ontoly_capabilities::Index;
use ontoly_graph::build::{build, BuildOptions};
use ontoly_graph::graph::Graph;
use ontoly_graph::snapshot;
use ontoly_graph::workspace::discover;
use std::io::IsTerminal;
use std::path::{Component, Path};

/// Exit code of an error.
pub const EXIT_ERROR: u8 = 1;
/// Exit code when the evidence gate fails (low evidence, not found, missed expectations).
pub const EXIT_GATE: u8 = 3;
/// Name of the search index artifact in the snapshot.
pub const INDEX_ARTIFACT: &str = "search-index";

/// A loaded workspace: its graph, its index and the root as the user gave it.
pub struct Loaded {
    pub graph: Graph,
    pub index: Index,
    pub root: String,
}

impl Loaded {
    pub fn ctx(&self) -> ontoly_capabilities::Context<'_> {
        ontoly_capabilities::Context {
            graph: &self.graph,
            index: &self.index,
            root: &self.root,
        }
    }
}

/// The root as the user would write it: as given, or relative to the current directory.
fn display_root(explicit: Option<&Path>, found: &Path, cwd: &Path) -> String {
    if let Some(p) = explicit {
        return p.to_string_lossy().into_owned();
    }
    let ups = cwd
        .components()
        .count()
        .saturating_sub(found.components().count());
    if ups == 0 || !cwd.starts_with(found) {
        ".".to_string()
    } else {
        vec![Component::ParentDir.as_os_str().to_string_lossy(); ups].join("/")
    }
}

/// Builds (or loads from the snapshot cache) the graph of the workspace, and its search index
/// from the snapshot's `search-index` artifact, building and storing it when absent.
pub fn load(explicit: Option<&Path>) -> Result<Loaded> {
    let cwd = std::env::current_dir().context("reading the current directory")?;
    let ws = discover(explicit, &cwd).map_err(|e| anyhow::anyhow!("{e}"))?;
    let out = build(
        &ws,
        &BuildOptions {
            use_cache: true,
            ..Default::default()
        },
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let graph = out.graph;
    let stored = snapshot::read_artifact(&ws.root, &graph.hash, INDEX_ARTIFACT)
        .and_then(|b| Index::from_bytes(&b, &graph).ok());
    let index = match stored {
        Some(ix) => ix,
        None => {
            let ix = Index::build(&graph);
            // A cache that cannot be written only costs time on the next run.
            let _ = snapshot::write_artifact(&ws.root, &graph.hash, INDEX_ARTIFACT, &ix.to_bytes());
            ix
        }
    };
    Ok(Loaded {
        graph,
        index,
        root: display_root(explicit, &ws.root, &cwd),
    })
}

/// Colour only on a terminal, and never when `NO_COLOR` is set (to anything non-empty).
pub fn use_color() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Output formats of structured commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Readable text.
    Text,
    /// JSON.
    Json,
    /// YAML.
    Yaml,
}

/// Prints a value as pretty JSON or YAML.
pub fn print_structured<T: serde::Serialize>(v: &T, format: Format) -> Result<()> {
    match format {
        Format::Yaml => print!("{}", yaml_serde::to_string(v)?),
        _ => println!("{}", serde_json::to_string_pretty(v)?),
    }
    Ok(())
}
