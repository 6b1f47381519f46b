//! Subcommands, one module each, and what they share: the global options, opening the
//! workspace's [`Session`] (with a progress bar when it helps), and the shape of an output.
//!
//! Each module has `Args` (clap), `FORMATS` (the formats it renders; the first is the
//! default), `format(&Args)` and `run(&Globals, &Args) -> Result<Output, CliError>`.

pub mod build;
pub mod capabilities;
pub mod check;
pub mod cites;
pub mod evidence;
pub mod graph;
pub mod hash_inputs;
pub mod mcp;
pub mod plugin;
pub mod reads;
pub mod refs;
pub mod run;
pub mod stats;
pub mod validate;

pub use reads::{read, read_many, resolve, search};

use crate::report::Report;
use ontoly_capabilities::Index;
use ontoly_graph::graph::build::Progress;
use ontoly_graph::{CachePolicy, Session, SessionOptions};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Global options every command sees.
#[derive(Debug, Clone)]
pub struct Globals {
    /// `--workspace`.
    pub workspace: Option<PathBuf>,
    /// `--no-cache`.
    pub no_cache: bool,
    /// `--source NAME=PATH`, in command-line order.
    pub sources: Vec<String>,
}

/// What a command produced and its exit code.
pub struct Output {
    /// The typed result, for the renderer of the chosen format.
    pub report: Report,
    /// Process exit code (0, 1 or 3; usage errors go through [`CliError`]).
    pub exit: u8,
}

impl Output {
    /// A successful output.
    pub fn ok(report: Report) -> Output {
        Output { report, exit: 0 }
    }
}

/// A usage or workspace error: the process prints `error: …` (and a `hint: …` when there is
/// one) and exits 2.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct CliError {
    /// What went wrong.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
}

impl CliError {
    /// An error without a hint.
    pub fn new(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            hint: None,
        }
    }

    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        2
    }
}

impl From<ontoly_graph::SessionError> for CliError {
    fn from(e: ontoly_graph::SessionError) -> Self {
        CliError::new(e.to_string())
    }
}

/// Exit code when the evidence gate fails.
pub const EXIT_GATE: u8 = 3;

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

impl Globals {
    /// The session options of these global options, discovering from the current directory.
    pub fn session_options(&self) -> Result<SessionOptions, CliError> {
        let cwd = std::env::current_dir()
            .map_err(|e| CliError::new(format!("cannot read the current directory: {e}")))?;
        let mut opts = SessionOptions::new(cwd)
            .sources(self.sources.iter().cloned())
            .cache(if self.no_cache {
                CachePolicy::Off
            } else {
                CachePolicy::ReadWrite
            });
        opts.workspace = self.workspace.clone();
        if std::io::stderr().is_terminal() {
            opts.progress = Some(Arc::new(Bar(Mutex::new(None))));
        }
        Ok(opts)
    }

    /// Opens the workspace: the one place the CLI does.
    pub fn session(&self) -> Result<Session, CliError> {
        Ok(Session::open(self.session_options()?)?)
    }
}

/// The search index of a session's graph (loaded from the snapshot, or built and stored).
pub fn index(session: &Session) -> Result<Index, CliError> {
    Ok(Index::open(session)?)
}

/// Colour only on a terminal, and never when `NO_COLOR` is set (to anything non-empty).
pub fn use_color() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}
