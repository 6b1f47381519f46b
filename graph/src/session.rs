//! The workspace session: one workspace, opened once, for every caller.
//!
//! In the spirit of rust-analyzer's host: the CLI, the MCP server, benches, examples and tests
//! all open a workspace through [`Session::open`], which discovers it once and checks the
//! `--source` overrides; `ontoly.toml` is read once, and each repository opened once, on first
//! need (so a bad `ontoly.toml` surfaces where the clones are first needed, not at open).
//! The graph is built — or loaded from the snapshot — once, on first use, and shared by every
//! later question; so are the parses it was built from. Nothing else in the crates discovers a
//! workspace, reads its configuration or opens its clones.
//!
//! What is content and what is not stays apart here: the graph (and its hash) holds content
//! only, while the workspace's display name, the root as the user wrote it and the knowledge
//! repository's commit are the session's.

use crate::formats::layout::{discover, DiscoverError, Workspace};
use crate::formats::parsed::Parsed;
use crate::graph::build::{self, BuildError, BuildOptions, BuildOutput, Progress};
use crate::graph::snapshot;
use crate::graph::store::container::Container;
use crate::graph::Graph;
use crate::sources::clones::{parse_override, CloneError, CloneMap};
use crate::sources::reads::{Reader, WorkspaceReferences};
use crate::sources::repositories::Repositories;
use crate::sources::verify::VerifyStage;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// Whether the snapshot cache under `<workspace>/.ontoly/` is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CachePolicy {
    /// Load the graph and artifacts from the cache when they match the inputs; write them
    /// after a build.
    ReadWrite,
    /// Neither read nor write the cache (`--no-cache`).
    Off,
}

/// How to open a session.
#[derive(Clone)]
pub struct SessionOptions {
    /// Where discovery starts and what relative paths are relative to (usually the current
    /// directory).
    pub start: PathBuf,
    /// `--workspace DIR`: the workspace itself, instead of discovering it from `start`.
    pub workspace: Option<PathBuf>,
    /// `--source NAME=PATH` overrides, in command-line order (later ones win).
    pub sources: Vec<String>,
    /// Cache use.
    pub cache: CachePolicy,
    /// Progress of the build, for a progress bar.
    pub progress: Option<Arc<dyn Progress>>,
    /// Check every block of the snapshot before using it, instead of each block on first read
    /// (after a read found the snapshot corrupt: the retry must not trust it again).
    pub verify_snapshot: bool,
}

impl SessionOptions {
    /// Options that discover the workspace from `start`, with the cache on and no overrides.
    pub fn new(start: impl Into<PathBuf>) -> SessionOptions {
        SessionOptions {
            start: start.into(),
            workspace: None,
            sources: Vec::new(),
            cache: CachePolicy::ReadWrite,
            progress: None,
            verify_snapshot: false,
        }
    }

    /// The same options for the workspace at `dir` (relative to `start`).
    pub fn workspace(mut self, dir: impl Into<PathBuf>) -> SessionOptions {
        self.workspace = Some(dir.into());
        self
    }

    /// The same options with cache policy `cache`.
    pub fn cache(mut self, cache: CachePolicy) -> SessionOptions {
        self.cache = cache;
        self
    }

    /// The same options with `--source NAME=PATH` overrides.
    pub fn sources(mut self, sources: impl IntoIterator<Item = String>) -> SessionOptions {
        self.sources = sources.into_iter().collect();
        self
    }
}

/// Why a session could not open or build.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SessionError {
    /// No workspace where one was expected.
    #[error(transparent)]
    Discover(#[from] DiscoverError),
    /// A bad `ontoly.toml` or `--source`.
    #[error(transparent)]
    Config(#[from] CloneError),
    /// The build could not run at all.
    #[error("{0}")]
    Build(String),
}

impl From<BuildError> for SessionError {
    fn from(e: BuildError) -> Self {
        SessionError::Build(e.0)
    }
}

/// One opened workspace. `Sync`: share it between threads (the MCP server does).
pub struct Session {
    workspace: Workspace,
    display_root: String,
    overrides: Vec<(String, String)>,
    clones: OnceLock<Result<CloneMap, SessionError>>,
    cache: CachePolicy,
    progress: Option<Arc<dyn Progress>>,
    verify_snapshot: bool,
    repositories: OnceLock<Arc<Repositories>>,
    built: OnceLock<Result<BuildOutput, SessionError>>,
    parsed: OnceLock<Result<Arc<Parsed>, SessionError>>,
    knowledge_commit: OnceLock<Option<String>>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("workspace", &self.workspace.name)
            .field("display_root", &self.display_root)
            .finish()
    }
}

impl Session {
    /// Discovers the workspace and checks the `--source` overrides. The clone configuration is
    /// read, repositories are opened and the graph is built only when first asked for.
    pub fn open(opts: SessionOptions) -> Result<Session, SessionError> {
        let workspace = discover(opts.workspace.as_deref(), &opts.start)?;
        let overrides = opts
            .sources
            .iter()
            .map(|s| parse_override(s))
            .collect::<Result<Vec<_>, _>>()?;
        let display_root = display_root(opts.workspace.as_deref(), &opts.start, &workspace.root);
        Ok(Session {
            workspace,
            display_root,
            overrides,
            clones: OnceLock::new(),
            cache: opts.cache,
            progress: opts.progress,
            verify_snapshot: opts.verify_snapshot,
            repositories: OnceLock::new(),
            built: OnceLock::new(),
            parsed: OnceLock::new(),
            knowledge_commit: OnceLock::new(),
        })
    }

    /// The workspace on disk.
    pub fn workspace(&self) -> &Workspace {
        &self.workspace
    }

    /// The workspace's display name: its directory's name. Never part of the graph.
    pub fn name(&self) -> &str {
        &self.workspace.name
    }

    /// The workspace root as the user would write it (`--workspace` as given, else relative to
    /// the start directory; never made absolute), for provenance and pasteable commands.
    pub fn display_root(&self) -> &str {
        &self.display_root
    }

    /// The progress sink the session was opened with (a progress bar), for phases outside
    /// the build (the search index).
    pub fn progress(&self) -> Option<&Arc<dyn Progress>> {
        self.progress.as_ref()
    }

    /// Whether the snapshot cache is used.
    pub fn cache(&self) -> CachePolicy {
        self.cache
    }

    /// The local clones of `ontoly.toml` and `--source` (read once).
    pub fn clones(&self) -> Result<&CloneMap, SessionError> {
        self.clones
            .get_or_init(|| Ok(CloneMap::load(&self.workspace.root, &self.overrides)?))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Every repository reads can name, opened once.
    pub fn repositories(&self) -> Result<&Arc<Repositories>, SessionError> {
        let clones = self.clones()?;
        Ok(self
            .repositories
            .get_or_init(|| Arc::new(Repositories::discover(&self.workspace.root, clones))))
    }

    /// The commit `HEAD` of the git repository that holds the workspace (read once, with gix),
    /// or `None` for a workspace outside git. Provenance shows it and knowledge pages are read
    /// at it; it is never part of the graph.
    pub fn knowledge_commit(&self) -> Option<String> {
        self.knowledge_commit
            .get_or_init(|| {
                let repos = self.repositories().ok()?;
                let git = repos.workspace()?.repo.as_ref()?;
                git.local().default_branch().ok().map(|(_, commit)| commit)
            })
            .clone()
    }

    /// The bytes of the workspace file at `rel` (`/`-separated, relative to the workspace
    /// root; `..`, absolute paths and empty segments are refused).
    /// Like every reader of workspace files, it reads only where the path resolves inside the
    /// workspace ([`Confined`](crate::formats::confined::Confined)).
    pub fn read_workspace_file(&self, rel: &str) -> std::io::Result<Vec<u8>> {
        self.workspace_path(rel)?;
        crate::formats::confined::Confined::new(&self.workspace.root)
            .read(rel, None)
            .map_err(|e| std::io::Error::other(e.to_string()))
    }

    /// Replaces workspace files (`(relative path, new bytes)`), each atomically: every new
    /// content is first written and synced to a temporary file beside its target (with the
    /// target's permissions), and only then are they renamed over their targets, in order. A
    /// failure before the renames leaves every file as it was. Only existing regular files that
    /// resolve inside the workspace are replaced (never a link that leaves it).
    pub fn replace_workspace_files(&self, files: &[(String, Vec<u8>)]) -> std::io::Result<()> {
        // The workspace-relative file in the error, never the disk path (a read-only
        // `knowledge/` said only "permission denied": stop-44 CI walk).
        let named = |rel: &str, e: std::io::Error| {
            std::io::Error::new(e.kind(), format!("{rel}: {}", e.kind()))
        };
        use std::io::Write;
        let confined = crate::formats::confined::Confined::new(&self.workspace.root);
        if let Some((rel, _)) = files.iter().find(|(rel, _)| !confined.is_file(rel)) {
            return Err(std::io::Error::other(format!(
                "{rel} is not a regular file inside the workspace"
            )));
        }
        let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
        let cleanup = |staged: &[(PathBuf, PathBuf)]| {
            for (tmp, _) in staged {
                let _ = std::fs::remove_file(tmp);
            }
        };
        for (rel, bytes) in files {
            let target = self.workspace_path(rel)?;
            let name = target
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let tmp = target.with_file_name(format!(".{name}.ontoly-{}", std::process::id()));
            let written = (|| {
                // A leftover or a planted link at the temporary name is removed, never opened:
                // `create` would truncate the file a link points to, and the rename would then
                // put the link in the target's place.
                match std::fs::remove_file(&tmp) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
                    _ => {}
                }
                let mut f = std::fs::File::create_new(&tmp)?;
                f.write_all(bytes)?;
                if let Ok(meta) = std::fs::metadata(&target) {
                    f.set_permissions(meta.permissions())?;
                }
                f.sync_all()
            })();
            staged.push((tmp, target));
            if let Err(e) = written {
                cleanup(&staged);
                return Err(named(rel, e));
            }
        }
        for (i, (tmp, target)) in staged.iter().enumerate() {
            if let Err(e) = std::fs::rename(tmp, target) {
                cleanup(&staged[i..]);
                return Err(named(&files[i].0, e));
            }
        }
        Ok(())
    }

    fn workspace_path(&self, rel: &str) -> std::io::Result<PathBuf> {
        if !crate::formats::source_registry::is_safe_relative_path(rel) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "not a relative path inside the workspace",
            ));
        }
        Ok(self.workspace.root.join(rel))
    }

    /// Pinned reads over [`Session::repositories`]; reads of knowledge pages come with the
    /// references of the sections they overlap.
    pub fn reader(&self) -> Result<Reader, SessionError> {
        Ok(Reader::new(self.repositories()?.clone())
            .with_evidence(Arc::new(WorkspaceReferences::default())))
    }

    /// How this session builds: its cache policy, clones and source stage.
    fn build_options(&self) -> Result<BuildOptions, SessionError> {
        let clones = self.clones()?;
        let repos = self.repositories()?;
        let workspace_repo = repos.workspace().and_then(|r| {
            r.repo
                .as_ref()
                .map(|g| (g.clone(), r.workspace_root.clone()))
        });
        let stage = VerifyStage::new(clones.clone(), workspace_repo)
            .with_unmatched(repos.unmatched_clones.clone(), repos.modules.clone());
        Ok(BuildOptions {
            use_cache: self.cache == CachePolicy::ReadWrite,
            progress: self.progress.clone(),
            clones: clones.clone(),
            source_stage: Some(Arc::new(stage)),
            knowledge_repository: None,
            verify_snapshot: self.verify_snapshot,
        })
    }

    /// False when the workspace no longer gives the graph this session holds: an input (page,
    /// structure, registry, `ontoly.toml`, note) was added, removed or changed, or a clone's refs
    /// moved. A long-lived process (the MCP server) asks before answering and opens a session
    /// again ([`Session::reopened`]) when it is not. Costs a listing and a status of every input
    /// (a file whose status changed is hashed again) and a read of each clone's refs. True
    /// before anything is built.
    pub fn is_current(&self) -> bool {
        match self.built.get() {
            Some(Ok(out)) => self
                .build_options()
                .is_ok_and(|opts| build::still_current(&self.workspace, &opts, &out.basis)),
            Some(Err(_)) => false,
            None => true,
        }
    }

    /// The build (or the snapshot load), once.
    pub fn build(&self) -> Result<&BuildOutput, SessionError> {
        self.build_alongside("", |_, _| ()).map(|(out, _)| out)
    }

    /// [`Session::build`], and `job` run on the graph while its snapshot is written, when this
    /// call builds it: the job gets the graph and its [`Artifacts`] (to find or store what is
    /// derived from it); `phase` names it for a progress bar. `None` when the graph was there
    /// already: built by an earlier call, or opened from the snapshot.
    pub fn build_alongside<T: Send>(
        &self,
        phase: &str,
        job: impl FnOnce(&Graph, &Artifacts<'_>) -> T + Send,
    ) -> Result<(&BuildOutput, Option<T>), SessionError> {
        let mut done = None;
        let built = self
            .built
            .get_or_init(|| {
                let opts = self.build_options()?;
                let (out, ran) = build::build_alongside(&self.workspace, &opts, phase, |g| {
                    job(g, &self.artifacts_of(g))
                })?;
                done = ran;
                Ok(out)
            })
            .as_ref()
            .map_err(Clone::clone)?;
        Ok((built, done))
    }

    /// The evidence graph, built or loaded once.
    pub fn graph(&self) -> Result<&Graph, SessionError> {
        Ok(&self.build()?.graph)
    }

    /// True when the graph is a mapped snapshot in which a read found bytes that fail their
    /// checksum: whatever was computed from it must be discarded, and the question asked again
    /// of a session opened with [`SessionOptions::verify_snapshot`] (which rebuilds).
    pub fn is_corrupt(&self) -> bool {
        matches!(self.built.get(), Some(Ok(b)) if b.graph.is_corrupt())
    }

    /// True when this session's graph was built in this process (not mapped from the
    /// snapshot): what a short-lived command may leave to the process exit rather than free.
    /// False before any build, after a failed one, and for a mapped graph.
    pub fn built_here(&self) -> bool {
        matches!(self.built.get(), Some(Ok(b)) if b.graph.parts().is_some())
    }

    /// A new session over the same workspace, sources and cache policy, nothing loaded yet:
    /// what a long-lived process opens when [`Session::is_current`] turned false.
    pub fn reopened(&self) -> Session {
        Session {
            workspace: self.workspace.clone(),
            display_root: self.display_root.clone(),
            overrides: self.overrides.clone(),
            clones: OnceLock::new(),
            cache: self.cache,
            progress: self.progress.clone(),
            verify_snapshot: self.verify_snapshot,
            knowledge_commit: OnceLock::new(),
            repositories: OnceLock::new(),
            built: OnceLock::new(),
            parsed: OnceLock::new(),
        }
    }

    /// [`Session::reopened`], checking the whole snapshot before using it (and rebuilding it
    /// when any block fails): what a long-lived process opens after [`Session::is_corrupt`]
    /// turned true.
    pub fn reopened_verified(&self) -> Session {
        Session {
            verify_snapshot: true,
            ..self.reopened()
        }
    }

    /// The build, taken out of the session (for a command that only reports it and exits).
    pub fn into_build(self) -> Result<BuildOutput, SessionError> {
        self.build()?;
        match self.built.into_inner() {
            Some(result) => result,
            None => Err(SessionError::Build("the build did not run".into())),
        }
    }

    /// The parses the graph was built from: kept from this run's build, else the snapshot's
    /// parse cache, else (no usable cache) parsed now by the build's own parse stage.
    pub fn parsed(&self) -> Result<Arc<Parsed>, SessionError> {
        self.parsed
            .get_or_init(|| {
                if let Some(p) = &self.build()?.parsed {
                    return Ok(p.clone());
                }
                if self.cache == CachePolicy::ReadWrite {
                    if let Ok(Some(p)) = snapshot::load_parsed(&self.workspace.root) {
                        return Ok(Arc::new(p));
                    }
                }
                Ok(Arc::new(build::parse_workspace(&self.workspace)?))
            })
            .clone()
    }

    /// The artifacts of the graph (building or opening it first).
    pub fn artifacts(&self) -> Result<Artifacts<'_>, SessionError> {
        Ok(self.artifacts_of(self.graph()?))
    }

    fn artifacts_of<'a>(&'a self, graph: &'a Graph) -> Artifacts<'a> {
        Artifacts {
            root: &self.workspace.root,
            graph_hash: &graph.hash,
            cache: self.cache,
            verify: self.verify_snapshot,
        }
    }

    /// Whether this session checks whole snapshots before trusting them (the retry after a
    /// read found one corrupt).
    pub fn verifies_snapshot(&self) -> bool {
        self.verify_snapshot
    }
}

/// What the cache holds beside one graph's snapshot: artifacts derived from that graph (the
/// search index, drift marks), each keyed by the graph's hash so a stale one is never read.
/// With the cache off, nothing is found and nothing is stored.
pub struct Artifacts<'a> {
    root: &'a Path,
    graph_hash: &'a str,
    cache: CachePolicy,
    verify: bool,
}

impl Artifacts<'_> {
    /// The artifact `name`, when it is stored for this graph.
    pub fn read(&self, name: &str) -> Option<Vec<u8>> {
        self.on()?;
        snapshot::read_artifact(self.root, self.graph_hash, name)
    }

    /// The artifact `name` as a mapped container (its blocks are checked as they are read; in
    /// a session that [verifies snapshots](Session::verifies_snapshot), all of them before it
    /// is returned), when it is stored for this graph.
    pub fn open(&self, name: &str) -> Option<Container> {
        self.checked(|| snapshot::open_artifact(self.root, self.graph_hash, name))
    }

    /// The artifact `name` as stored, for this graph or an earlier one (checked as
    /// [`Artifacts::open`] checks it): what a new artifact may be updated from, not read as
    /// this graph's (a reader compares the graph hash it records).
    pub fn open_any(&self, name: &str) -> Option<Container> {
        self.checked(|| snapshot::open_artifact_of_any_graph(self.root, name))
    }

    /// What `open` found, with the cache on; in a session that verifies snapshots, only when
    /// every block passes (checked after the graph-hash test, so a stale artifact costs none).
    fn checked(&self, open: impl FnOnce() -> Option<Container>) -> Option<Container> {
        self.on()?;
        open().filter(|c| !self.verify || c.verify_all())
    }

    /// Stores artifact `name` for this graph. A write that fails only costs time on the next
    /// run, so it is not an error.
    pub fn store(&self, name: &str, bytes: &[u8]) {
        if self.on().is_some() {
            let _ = snapshot::write_artifact(self.root, self.graph_hash, name, bytes);
        }
    }

    /// Stores `container`, an artifact of this graph (made with
    /// [`snapshot::artifact_writer`]), as `name`, byte for byte (see [`Artifacts::store`]).
    /// A failed write is told (`permission denied`, `.ontoly/artifacts is not a directory`:
    /// never a disk location), for a caller to say why the next run builds it again.
    pub fn store_container(&self, name: &str, container: &Container) -> Result<(), String> {
        if self.on().is_none() {
            return Ok(());
        }
        snapshot::write_artifact_container(self.root, self.graph_hash, name, container).map_err(
            |e| {
                let why = snapshot::why(&e);
                why.strip_prefix("cache not used: ")
                    .unwrap_or(&why)
                    .to_string()
            },
        )
    }

    fn on(&self) -> Option<()> {
        (self.cache == CachePolicy::ReadWrite).then_some(())
    }
}

/// `--workspace` as given, else the found root relative to the start directory.
fn display_root(explicit: Option<&Path>, start: &Path, found: &Path) -> String {
    if let Some(p) = explicit {
        return p.to_string_lossy().into_owned();
    }
    let found = std::fs::canonicalize(found).unwrap_or_else(|_| found.to_path_buf());
    let start = std::fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    let ups = start
        .components()
        .count()
        .saturating_sub(found.components().count());
    if ups == 0 || !start.starts_with(&found) {
        ".".into()
    } else {
        vec![Component::ParentDir.as_os_str().to_string_lossy(); ups].join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_root_is_as_given_or_relative() {
        let t = tempfile::tempdir().unwrap();
        let ws = t.path().join("kb");
        std::fs::create_dir_all(ws.join("knowledge/a/b")).unwrap();
        assert_eq!(display_root(Some(Path::new("kb")), t.path(), &ws), "kb");
        assert_eq!(display_root(None, &ws, &ws), ".");
        assert_eq!(display_root(None, &ws.join("knowledge/a"), &ws), "../..");
    }
}
