//! Subcommands, one module each, and what they share: the global options, opening the
//! workspace's [`Session`] (with a progress bar when it helps), and the shape of an output.
//!
//! Each module has `Args` (clap), `FORMATS` (the formats it renders; the first is the
//! default), `format(&Args)` and `run(&Globals, &Args) -> Result<Output, CliError>`.

pub mod build;
pub mod capabilities;
pub mod check;
pub mod ci;
pub mod cites;
pub mod completions;
pub mod digest;
pub mod drift;
pub mod evidence;
pub mod graph;
pub mod hash_inputs;
pub mod impact;
pub mod init;
pub mod mark;
pub mod mcp;
pub mod plugin;
pub mod reads;
pub mod refs;
pub mod run;
pub mod stats;
pub mod validate;

pub use completions::man;
pub use reads::{read, read_many, resolve, search};

use crate::report::Report;
use ontoly_capabilities::Index;
use ontoly_graph::graph::build::Progress;
use ontoly_graph::{CachePolicy, Session, SessionOptions};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Global options every command sees.
#[derive(Debug, Clone)]
pub struct Globals {
    /// `--workspace`.
    pub workspace: Option<PathBuf>,
    /// `--no-cache`.
    pub no_cache: bool,
    /// `--source NAME=PATH`, in command-line order.
    pub sources: Vec<String>,
    /// Check the whole snapshot before using it (the retry after a read found it corrupt).
    pub verify_snapshot: bool,
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
#[derive(Debug, Default, thiserror::Error)]
#[error("{message}")]
pub struct CliError {
    /// What went wrong.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
    /// The file (repository-relative) and line it concerns, for a CI format's annotation.
    pub at: Option<(String, u64)>,
    /// Further errors found in the same pass (the other items of a questions file), each told
    /// as its own line and annotation.
    pub also: Vec<CliError>,
}

impl CliError {
    /// An error without a hint.
    pub fn new(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            hint: None,
            ..Default::default()
        }
    }

    /// A file named on the command line that could not be read: "does not exist" rather
    /// than the I/O error's "entity not found".
    pub fn unreadable(what: &str, e: &std::io::Error) -> CliError {
        CliError::new(if e.kind() == std::io::ErrorKind::NotFound {
            format!("{what} does not exist")
        } else {
            format!("cannot read {what}: {}", e.kind())
        })
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

/// How long a phase runs before its progress bar appears (`ONTOLY_PROGRESS_DELAY_MS`
/// overrides it, for tests): quick commands never flash a bar.
const PROGRESS_DELAY: Duration = Duration::from_secs(1);

/// The phase being shown (or waiting to be).
struct Phase {
    bar: indicatif::ProgressBar,
    started: Instant,
    shown: bool,
}

impl Phase {
    /// Draws the bar from now on, once it has waited `delay`.
    fn reveal_after(&mut self, delay: Duration) {
        if !self.shown && self.started.elapsed() >= delay {
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
            // Draw now (a tick is ignored once the steady ticker runs), then keep it moving.
            self.bar.tick();
            self.bar.enable_steady_tick(Duration::from_millis(120));
            self.shown = true;
        }
    }
}

/// Progress on a terminal: each phase of a build (and the index build) gets a bar — counted
/// when the phase knows its total, a spinner otherwise — once it has run for a second.
struct Bar {
    phase: Arc<Mutex<Option<Phase>>>,
    delay: Duration,
}

impl Bar {
    fn new() -> Bar {
        let delay = std::env::var("ONTOLY_PROGRESS_DELAY_MS")
            .ok()
            .and_then(|ms| ms.parse().ok())
            .map_or(PROGRESS_DELAY, Duration::from_millis);
        let phase: Arc<Mutex<Option<Phase>>> = Arc::new(Mutex::new(None));
        // Reveals a phase that has run long enough, even one that reports no progress.
        let watched = Arc::downgrade(&phase);
        std::thread::spawn(move || {
            while let Some(phase) = watched.upgrade() {
                if let Ok(mut p) = phase.lock() {
                    if let Some(p) = p.as_mut() {
                        p.reveal_after(delay);
                    }
                }
                drop(phase);
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        Bar { phase, delay }
    }
}

impl Progress for Bar {
    fn stage(&self, name: &str, total: u64) {
        let Ok(mut phase) = self.phase.lock() else {
            return;
        };
        if let Some(p) = phase.take() {
            p.bar.finish_and_clear();
        }
        // A stage without work ends the display (the build is done).
        if name.is_empty() || total == 0 {
            return;
        }
        let (bar, template) = if total > 1 {
            (
                indicatif::ProgressBar::with_draw_target(
                    Some(total),
                    indicatif::ProgressDrawTarget::hidden(),
                ),
                "{msg:>12} [{bar:40}] {pos}/{len} {elapsed}",
            )
        } else {
            (
                indicatif::ProgressBar::with_draw_target(
                    None,
                    indicatif::ProgressDrawTarget::hidden(),
                ),
                "{msg:>12} {spinner} {elapsed}",
            )
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template(template)
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_message(name.to_string());
        let mut p = Phase {
            bar,
            started: Instant::now(),
            shown: false,
        };
        p.reveal_after(self.delay);
        *phase = Some(p);
    }

    fn advance(&self, n: u64) {
        if let Ok(phase) = self.phase.lock() {
            if let Some(p) = phase.as_ref() {
                p.bar.inc(n);
            }
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.stage("", 0);
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
        opts.verify_snapshot = self.verify_snapshot;
        if std::io::stderr().is_terminal() {
            opts.progress = Some(Arc::new(Bar::new()));
        }
        Ok(opts)
    }

    /// Opens the workspace: the one place the CLI does (for a command; the MCP server opens
    /// its own long-lived session).
    pub fn session(&self) -> Result<Held, CliError> {
        Ok(Held(Some(Session::open(self.session_options()?)?)))
    }
}

/// A command's session: when the command is done with it, a graph built in this process is
/// left to the exit ([`leave`]) and anything else (a mapped snapshot, nothing built) is dropped
/// as usual. A mapped graph is cheap to drop, and dropping it unmaps the snapshot before the
/// retry after a failed checksum replaces it.
pub struct Held(Option<Session>);

impl std::ops::Deref for Held {
    type Target = Session;

    fn deref(&self) -> &Session {
        // Some from `Globals::session` until the drop takes it.
        self.0
            .as_ref()
            .expect("a held session is there until dropped")
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        if let Some(session) = self.0.take() {
            if session.built_here() {
                leave(session);
            }
        }
    }
}

/// `typed`, a path given relative to the current directory, as the workspace-relative path it
/// names (`cd knowledge/usage; … basics.md` → `knowledge/usage/basics.md`), read lexically;
/// `None` when the current directory is outside the workspace or the path leaves it.
pub fn from_current_dir(session: &Session, typed: &str) -> Option<String> {
    let cwd = std::env::current_dir().ok()?.canonicalize().ok()?;
    let root = session.workspace().root.canonicalize().ok()?;
    let mut parts: Vec<String> = cwd
        .strip_prefix(&root)
        .ok()?
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    for part in typed.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p.to_string()),
        }
    }
    Some(parts.join("/"))
}

/// The search index of a session's graph (loaded from the snapshot, or built and stored);
/// the progress phase it opened (building it takes seconds on large workspaces) ends here.
pub fn index(session: &Session) -> Result<Index, CliError> {
    let index = index_as_built(session)?;
    // A query that cannot store the index it built pays for it again on every run: say why,
    // on standard error (the answer on standard output stays as it is).
    if let Some(note) = index.store_note() {
        let _ =
            std::io::Write::write_all(&mut std::io::stderr(), format!("note: {note}\n").as_bytes());
    }
    Ok(index)
}

/// [`index`] without the note, for `build`, which reports it with the cache's.
pub fn index_as_built(session: &Session) -> Result<Index, CliError> {
    let index = Index::open(session);
    if let Some(p) = session.progress() {
        p.stage("", 0);
    }
    Ok(index?)
}

/// Ends a command's use of `session` without freeing what it holds. The process exits right
/// after the command's output is written, and a graph the command has just built is a tree of
/// small heap blocks (at 100k sections some 4 million: ids, endpoints, origins, metadata
/// values) whose freeing took 0.4-0.6 s of one core at the very end of a cold build, for
/// memory the exit gives back anyway. The progress display is ended first, as dropping the
/// session would. For a session whose graph was built in this process, not mapped.
fn leave(session: Session) {
    if let Some(p) = session.progress() {
        p.stage("", 0);
    }
    std::mem::forget(session);
}

/// Colour as anstream decides for standard output: on a terminal, unless `NO_COLOR` is set or
/// `TERM=dumb`; `CLICOLOR_FORCE` forces it.
pub fn use_color() -> bool {
    anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
}
