//! Subcommands, one module each, and what they share: locating the workspace, building (with
//! a progress bar when it helps), and the shape of an output.

pub mod build;
pub mod capabilities;
pub mod check;
pub mod cites;
pub mod evidence;
pub mod graph;
pub mod hash_inputs;
pub mod loaded;
pub mod mcp;
pub mod plugin;
pub mod reads;
pub mod refs;
pub mod run;
pub mod stats;
pub mod validate;

pub use reads::{read, read_many, resolve, search};

use crate::Format;
use ontoly_graph::graph::build::{BuildOptions, BuildOutput, Progress};
use ontoly_graph::formats::layout::{discover, Workspace};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Global options every command sees.
pub struct Context {
    /// `--workspace DIR`.
    pub workspace: Option<PathBuf>,
    /// `--no-cache`.
    pub no_cache: bool,
    /// `--format`.
    pub format: Format,
    /// `--source NAME=PATH`, in command-line order.
    pub sources: Vec<String>,
}

/// What a command produced: both renderings and the exit code.
pub struct Output {
    /// The text rendering (ends with a newline).
    pub text: String,
    /// The JSON rendering.
    pub json: serde_json::Value,
    /// Process exit code (0 or 1; errors go through [`CliError`]).
    pub exit: u8,
    /// Bytes written as they are whatever `--format` says (protocol outputs).
    pub raw: Option<String>,
}

impl Output {
    /// An output with text and JSON renderings.
    pub fn new(text: String, json: serde_json::Value, exit: u8) -> Output {
        Output {
            text,
            json,
            exit,
            raw: None,
        }
    }
}

/// A usage or workspace error (exit code 2).
#[derive(Debug)]
pub struct CliError(pub String);

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl CliError {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        2
    }
}

/// Pretty JSON with a trailing newline (keys are sorted: serde_json's map is a BTreeMap).
pub fn to_json(v: &serde_json::Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_else(|_| "null".into());
    s.push('\n');
    s
}

/// YAML of a JSON value (keys stay sorted).
pub fn to_yaml(v: &serde_json::Value) -> String {
    yaml_serde::to_string(v).unwrap_or_else(|_| "null\n".into())
}

/// Workspaces with at least this many pages get a progress bar (when stderr is a terminal).
const PROGRESS_MIN_PAGES: u64 = 2000;

struct Bar(Mutex<Option<indicatif::ProgressBar>>);

impl Progress for Bar {
    fn stage(&self, name: &str, total: u64) {
        let Ok(mut bar) = self.0.lock() else { return };
        if let Some(b) = bar.take() {
            b.finish_and_clear();
        }
        if total >= PROGRESS_MIN_PAGES {
            let b = indicatif::ProgressBar::new(total);
            b.set_style(
                indicatif::ProgressStyle::with_template("{msg:>9} [{bar:40}] {pos}/{len}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            b.set_message(name.to_string());
            *bar = Some(b);
        }
    }

    fn advance(&self, n: u64) {
        if let Ok(bar) = self.0.lock() {
            if let Some(b) = bar.as_ref() {
                b.inc(n);
            }
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        if let Ok(mut bar) = self.0.lock() {
            if let Some(b) = bar.take() {
                b.finish_and_clear();
            }
        }
    }
}

impl Context {
    /// The workspace: `--workspace`, else discovery from the current directory.
    pub fn workspace(&self) -> Result<Workspace, CliError> {
        let cwd = std::env::current_dir()
            .map_err(|e| CliError(format!("cannot read the current directory: {e}")))?;
        discover(self.workspace.as_deref(), &cwd).map_err(|e| CliError(e.to_string()))
    }

    /// The local clones of `ontoly.toml` and `--source` (later overrides win).
    pub fn clones(&self, ws: &Workspace) -> Result<ontoly_graph::sources::clones::CloneMap, CliError> {
        let overrides = self
            .sources
            .iter()
            .map(|s| ontoly_graph::sources::clones::parse_override(s))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| CliError(e.message))?;
        ontoly_graph::sources::clones::CloneMap::load(&ws.root, &overrides).map_err(|e| CliError(e.message))
    }

    /// Builds (or loads) the workspace's graph.
    pub fn build(&self) -> Result<(Workspace, BuildOutput), CliError> {
        let ws = self.workspace()?;
        let progress: Option<Arc<dyn Progress>> = if std::io::stderr().is_terminal() {
            Some(Arc::new(Bar(Mutex::new(None))))
        } else {
            None
        };
        let clones = self.clones(&ws)?;
        let opts = BuildOptions {
            use_cache: !self.no_cache,
            progress,
            ..ontoly_graph::sources::verify::VerifyStage::build_options(clones)
        };
        let out = ontoly_graph::graph::build::build(&ws, &opts).map_err(|e| CliError(e.to_string()))?;
        Ok((ws, out))
    }
}

/// Diagnostic counts by severity: (errors, warnings, infos).
pub fn severity_counts(g: &ontoly_graph::graph::Graph) -> (usize, usize, usize) {
    let mut c = (0, 0, 0);
    for n in g.nodes_of(ontoly_graph::graph::model::NodeKind::Diagnostic) {
        match n.metadata.get("severity").map(String::as_str) {
            Some("error") => c.0 += 1,
            Some("warning") => c.1 += 1,
            _ => c.2 += 1,
        }
    }
    c
}
