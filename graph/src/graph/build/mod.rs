//! The parallel graph build: read and hash every input, parse pages, the structure and the
//! registries on all cores, cross-check them, and assemble one deterministic [`Graph`].
//!
//! Stages, in order (each in its own file):
//! 1. [`inputs`]: list and read every input file, blake3 each (parallel); the hashes key the
//!    snapshot cache;
//! 2. [`parse`]: the structure and every page (parallel), reusing each file's cached parse
//!    when its hash is unchanged;
//! 3. [`collect`]: per-article nodes, edges, texts and cross-check findings (parallel);
//! 4. [`resolve`]: every recorded reference → Source / Repository / Commit / File / Range nodes
//!    and `CITES` edges;
//! 5. [`SourceStage`]: optional verification against local clones (git, symbols), run after
//!    references are resolved and before assembly;
//! 6. [`assemble`]: findings become Diagnostic nodes; sort by id, drop duplicates, hash.
//!
//! Nothing here depends on thread scheduling: every parallel step collects into input order,
//! and assembly sorts by id. Nothing here depends on where the workspace sits either: every
//! path in the graph is workspace-relative and the workspace node's id is fixed.

pub mod collect;
pub mod inputs;
pub mod parse;
pub mod resolve;

use crate::formats::layout::{Workspace, STRUCTURE_FILE};
use crate::formats::parsed::Parsed;
use crate::formats::structure::ReferenceEntry;
use crate::graph::findings::Finding;
use crate::graph::model::{Edge, Node, Origin, SharedStr};
use crate::graph::snapshot;
use crate::graph::store::container::OpenError;
use crate::graph::Graph;
use crate::sources::clones::CloneMap;
use inputs::Inputs;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Bumped when the builder's interpretation of inputs changes, so old caches are not reused.
pub const BUILDER_VERSION: &str = "build.v21";

/// Receives coarse progress (for a progress bar). Called from worker threads.
pub trait Progress: Send + Sync {
    /// A new stage starts with `total` units of work (1: a phase without counts). An empty
    /// name with total 0 says the work is over.
    fn stage(&self, name: &str, total: u64);
    /// `n` more units are done.
    fn advance(&self, n: u64);
}

/// A later build stage that sees every resolved reference before assembly (the git
/// verification and symbol extraction of the sources layer plug in here).
pub trait SourceStage: Send + Sync {
    /// A string that changes whenever this stage's outputs could change for the same workspace
    /// inputs (e.g. the clone mapping and the commits it resolves to); part of the cache key.
    /// `repo_content`: whether the structure holds `repo-content:` references.
    fn cache_salt(&self, repo_content: bool) -> String;
    /// Adds nodes, edges, findings, or updates `CITES` metadata in `parts`.
    fn run(&self, cited: &[CitedRange], parts: &mut Parts);
}

/// How to build.
#[derive(Clone, Default)]
pub struct BuildOptions {
    /// Read and write the snapshot cache under `<workspace>/.ontoly/`.
    pub use_cache: bool,
    /// Progress sink.
    pub progress: Option<Arc<dyn Progress>>,
    /// Local clones (`ontoly.toml` and `--source`): a reference whose repository has one is
    /// `unverified` until the sources stage checks it, else `no_clone`.
    pub clones: CloneMap,
    /// Verification against local clones; runs between resolution and assembly.
    pub source_stage: Option<Arc<dyn SourceStage>>,
    /// Identity of the repository holding the workspace (remote URL or name), for
    /// `repo-content:` references.
    pub knowledge_repository: Option<String>,
    /// Check every block of a snapshot before using it (after a read found one corrupt),
    /// instead of each block on first read.
    pub verify_snapshot: bool,
}

impl BuildOptions {
    /// Everything besides the input files that changes the graph (part of the cache key).
    fn salt(&self, repo_content: bool) -> String {
        let mut s = self
            .source_stage
            .as_ref()
            .map(|st| st.cache_salt(repo_content))
            .unwrap_or_default();
        s.push('\0');
        s.push_str(self.knowledge_repository.as_deref().unwrap_or(""));
        for (k, _) in self.clones.entries() {
            s.push('\0');
            s.push_str(k);
        }
        s
    }

    fn stage(&self, name: &str, total: u64) {
        if let Some(p) = &self.progress {
            p.stage(name, total);
        }
    }
}

/// Whether and how the cache was used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheStatus {
    /// `--no-cache`.
    Disabled,
    /// No usable cache (absent, corrupt, or another graph version).
    Miss,
    /// Some inputs changed: only those were re-parsed.
    Partial,
    /// Every input unchanged: the graph was loaded.
    Hit,
}

/// What a build did (not part of the graph; for reports and tests).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildReport {
    /// Input files (read, or vouched for by the snapshot's manifest).
    pub input_files: usize,
    /// Their total size in bytes.
    pub input_bytes: u64,
    /// Knowledge pages.
    pub pages: usize,
    /// Pages parsed in this run.
    pub pages_parsed: usize,
    /// Pages whose parse came from the cache.
    pub pages_reused: usize,
    /// Whether structure.yaml was parsed in this run (false when reused or the graph loaded).
    pub structure_parsed: bool,
    /// Input files read and hashed in this run: on a snapshot hit only those whose file status
    /// changed or was too recent to trust; on a build all of them, but `structure.yaml` after a
    /// stale snapshot whose manifest vouches for it when the parse cache holds its parse.
    pub files_hashed: usize,
    /// Cache use.
    pub cache: CacheStatus,
    /// Why the cache was not used, when it existed but was refused.
    pub cache_note: Option<String>,
}

impl BuildReport {
    /// A report of a build over `inputs` that has not used the cache yet.
    fn of(inputs: &Inputs) -> BuildReport {
        BuildReport {
            input_files: inputs.len(),
            input_bytes: inputs.bytes(),
            pages: inputs.pages().count(),
            pages_parsed: 0,
            pages_reused: 0,
            structure_parsed: false,
            files_hashed: inputs.files.len(),
            cache: CacheStatus::Disabled,
            cache_note: None,
        }
    }
}

/// A built graph and what the build did.
#[derive(Debug, Clone)]
pub struct BuildOutput {
    /// The graph.
    pub graph: Graph,
    /// What the build did.
    pub report: BuildReport,
    /// The parses the graph was built from, when this run still has them in memory: not on a
    /// cache hit (the graph was loaded instead), nor after a build that wrote them to the parse
    /// cache (they are dropped once written, before the search index's peak: read them back
    /// with [`snapshot::load_parsed`]).
    pub parsed: Option<Arc<Parsed>>,
    /// What the graph was built from (see [`still_current`]).
    pub(crate) basis: Basis,
}

/// What a graph was built from: the cache key of its inputs and the manifest they were read
/// with, so that a long-lived process can tell whether the workspace still gives that graph.
#[derive(Debug, Clone)]
pub(crate) struct Basis {
    key: String,
    manifest: snapshot::Manifest,
}

/// Whether the workspace's inputs, and the source stage's salt (the clones' refs), still give
/// the graph `basis` describes: every input listed and its status compared with the manifest
/// (a file whose status changed, or that changed too close to the build, is read and hashed
/// again), each clone's refs read. A listing that fails is not current.
pub(crate) fn still_current(ws: &Workspace, opts: &BuildOptions, basis: &Basis) -> bool {
    matches!(inputs::check_manifest(ws, &basis.manifest), Ok(Some(now)) if key_now(&now, opts) == basis.key)
}

/// The cache key of the inputs as they are now (see [`inputs::check_manifest`]).
fn key_now(now: &inputs::Unchanged, opts: &BuildOptions) -> String {
    inputs::cache_key(
        now.key.iter().map(|(p, h)| (p.as_str(), h.as_str())),
        &opts.salt(now.repo_content),
    )
}

/// A build that could not run at all (bad workspaces produce diagnostics, not this).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BuildError(pub String);

/// Nodes, edges, texts and findings gathered before assembly.
#[derive(Debug, Default, Clone)]
pub struct Parts {
    /// Nodes (any order, duplicates allowed when identical).
    pub nodes: Vec<Node>,
    /// Edges (any order).
    pub edges: Vec<Edge>,
    /// Searchable texts by node id (a section's body shared with its page's parse).
    pub texts: Vec<(String, SharedStr)>,
    /// Findings (become Diagnostic nodes at assembly).
    pub findings: Vec<Finding>,
}

impl Parts {
    fn extend(&mut self, other: Parts) {
        self.nodes.extend(other.nodes);
        self.edges.extend(other.edges);
        self.texts.extend(other.texts);
        self.findings.extend(other.findings);
    }
}

/// One recorded reference, where it was read, and the section that records it.
#[derive(Debug, Clone)]
pub struct RefSite<'a> {
    /// The citing section's node id (shared by the section's references and their edges).
    pub section: SharedStr,
    /// The entry as read (borrowed from the structure parse: a clone of each of the 250k
    /// entries at 100k sections held ~100 MB until resolution ended).
    pub entry: &'a ReferenceEntry,
    /// `knowledge/structure.yaml` and the entry's line.
    pub origin: Origin,
}

/// A resolved reference to a line range in a repository, for the sources stage: one per
/// citation, sharing what every citation of the same entry has in common.
#[derive(Debug, Clone)]
pub struct CitedRange {
    /// The `CITES` edge id.
    pub cites: String,
    /// Where the reference was read.
    pub origin: Origin,
    /// The range itself. Large workspaces cite a few thousand ranges hundreds of thousands of
    /// times: one copy of its strings for all of them instead of seven strings a citation
    /// (~70 MB at 100k sections, and the time to copy and free them).
    pub target: Arc<CitedTarget>,
}

/// What the citations of one reference entry share: the cited range and where it is pinned.
#[derive(Debug, Clone)]
pub struct CitedTarget {
    /// The `Range` node id.
    pub range: String,
    /// Repository identity as used in ids (normalized remote or name).
    pub repository: String,
    /// The repository's remote, when registered.
    pub remote: Option<String>,
    /// The commit or ref as recorded.
    pub commit: String,
    /// Repository-relative path.
    pub path: String,
    /// First line.
    pub start_line: u64,
    /// Last line.
    pub end_line: u64,
    /// The recorded digest.
    pub content_digest: Option<String>,
    /// Where its commit is pinned: the module's `ref:` line in `sources/repo/index.yaml`
    /// (`repo:` references), for messages about that commit.
    pub pinned_at: Option<Origin>,
}

/// Builds the graph of `ws`, or opens the snapshot when it was built from exactly these
/// inputs.
pub fn build(ws: &Workspace, opts: &BuildOptions) -> Result<BuildOutput, BuildError> {
    build_alongside(ws, opts, "", |_| ()).map(|(out, _)| out)
}

/// [`build`], and `job` run on the graph it builds while that graph's snapshot is written
/// (the write is mostly one thread waiting on the disk, so work that needs the graph, such as
/// the search index, costs little wall time there); `phase` names the job for a progress bar.
/// `None` when no graph was built: the snapshot was opened instead.
pub fn build_alongside<T: Send>(
    ws: &Workspace,
    opts: &BuildOptions,
    phase: &str,
    job: impl FnOnce(&Graph) -> T + Send,
) -> Result<(BuildOutput, Option<T>), BuildError> {
    let timer = crate::timings::Timer::from_env();
    opts.stage("reading", 1);
    let mut note = None;
    let mut survey = None;
    if opts.use_cache {
        match open_snapshot(ws, opts) {
            Ok(Opening::Hit(out)) => {
                timer.lap("stat inputs + open snapshot");
                opts.stage("", 0);
                return Ok((out, None));
            }
            Ok(Opening::Stale(s)) => survey = Some(s),
            Ok(Opening::Absent) => {}
            Err(n) => note = Some(n),
        }
        timer.lap("snapshot check (miss)");
    }
    // The file system's time before any input is read: a file changed after it cannot be
    // trusted by its status later (the survey of a stale snapshot took it before its reads).
    let stamp = match survey.as_mut().and_then(|s| s.stamp.take()) {
        Some(taken) => taken,
        None => opts
            .use_cache
            .then(|| snapshot::fs_stamp(&ws.root))
            .flatten(),
    };
    // The inputs are read (but for the files a stale snapshot's manifest vouches for and no
    // stage needs) while the parse cache is read and decoded: one thread waits on the other's
    // disk and copies less.
    let (inputs, loaded) = rayon::join(
        || match survey {
            Some(s) => Ok(s.into_inputs(ws)),
            None => inputs::read_inputs(ws),
        },
        || {
            if opts.use_cache {
                snapshot::load_parsed(&ws.root)
            } else {
                Ok(None)
            }
        },
    );
    let mut inputs = inputs?;
    let mut cached = Parsed::default();
    let mut cache_note = note;
    match loaded {
        Ok(Some(c)) => cached = c,
        Ok(None) => {}
        Err(note) => cache_note = Some(note),
    }
    // The structure's bytes are needed only when the parse cache does not hold its parse.
    if inputs
        .vouched_hash(STRUCTURE_FILE)
        .is_some_and(|h| h != cached.structure.0)
    {
        inputs.read_vouched(ws, STRUCTURE_FILE);
    }
    timer.lap("read+hash inputs, load parse cache");
    let key = inputs::cache_key(inputs.pairs(), &opts.salt(inputs.repo_content()));
    let mut report = BuildReport::of(&inputs);
    report.cache_note = cache_note;
    if opts.use_cache {
        report.cache = CacheStatus::Miss;
    }
    // Without the cache the stamp is `None`: a later check trusts no status and hashes again.
    let basis = Basis {
        key: key.clone(),
        manifest: inputs.manifest(stamp),
    };
    let manifest = opts.use_cache.then(|| basis.manifest.clone());

    opts.stage("parsing", report.pages as u64 + 1);
    let parsed = parse::parse_all(&inputs, cached, opts.progress.as_deref(), &mut report)?;
    timer.lap("parse structure, pages and registries");
    // Sizes bound the findings each file may have; the bytes themselves are not needed for it.
    let sizes = inputs.sizes();
    // The structure's and the pages' bytes (~130 MB at 100k sections) are in their parses now,
    // and nothing later reads them: resolution reads only the notes and session records under
    // `sources/`. Freed here, before collect and resolve reach the graph stages' peak.
    inputs.keep_only_sources();

    opts.stage("linking", 1);
    let (mut parts, sites) = collect::collect(&parsed.structure.1, &parsed.pages, &parsed.unlisted);
    timer.lap("collect");
    opts.stage("resolving", 1);
    let cited = resolve::resolve_references(&inputs, &parsed.registries, opts, sites, &mut parts);
    timer.lap("resolve references");
    drop(inputs);
    if let Some(stage) = &opts.source_stage {
        opts.stage("verifying", 1); // with the symbols of every cited file
        stage.run(&cited, &mut parts);
        timer.lap("source stage");
    }
    // One cited range per reference (250k at 100k sections): not needed past this point.
    drop(cited);
    let size = |file: &str| sizes.get(file).copied().unwrap_or(0);
    parts.findings = crate::graph::findings::bounded(std::mem::take(&mut parts.findings), &size);
    opts.stage("assembling", 1);
    let graph = assemble(parts);
    timer.lap("assemble");

    // The parses stay in memory for the caller unless the parse cache took them.
    let kept;
    let done = match manifest {
        Some(manifest) => {
            if phase.is_empty() {
                opts.stage("writing cache", 1);
            } else {
                opts.stage(&format!("writing cache, {phase}"), 1);
            }
            // The write on a thread of its own, not a rayon worker: while it waits on the disk,
            // both workers stay free for the job's parallel parts. The parses go with it and are
            // dropped once the parse cache holds them, before the job's peak.
            let (graph_ref, manifest_ref, key_ref) = (&graph, &manifest, &key);
            let (stored, done, back) = std::thread::scope(|s| {
                let writer = s.spawn(move || {
                    let own = crate::timings::Timer::from_env();
                    let stored =
                        snapshot::store(&ws.root, key_ref, graph_ref, parsed, manifest_ref);
                    own.lap("store cache (its own thread)");
                    stored
                });
                let done = job(&graph);
                let (stored, back) = writer.join().unwrap_or_else(|_| {
                    (
                        Err("cache not written: the writer failed".to_string()),
                        None,
                    )
                });
                (stored, done, back)
            });
            kept = back;
            // A cache that cannot be written only costs time on the next run.
            if let Err(note) = stored {
                report.cache_note = Some(note);
            }
            timer.lap("store cache and job");
            done
        }
        None => {
            if !phase.is_empty() {
                opts.stage(phase, 1);
            }
            kept = Some(parsed);
            job(&graph)
        }
    };
    opts.stage("", 0);
    Ok((
        BuildOutput {
            graph,
            report,
            parsed: kept.map(Arc::new),
            basis,
        },
        Some(done),
    ))
}

/// What the snapshot gave.
enum Opening {
    /// No snapshot.
    Absent,
    /// A snapshot of other inputs (or another salt): the inputs as its manifest let them be
    /// known, for the build to start from.
    Stale(inputs::Survey),
    /// The graph of exactly the inputs on disk now.
    Hit(BuildOutput),
}

/// The snapshot's graph when it was built from exactly the inputs on disk now: the inputs are
/// listed and their status compared with the snapshot's manifest (files whose status changed,
/// or that changed too close to the build, are read and hashed). `Err`: a snapshot that
/// cannot be used, and why (it is then rebuilt).
fn open_snapshot(ws: &Workspace, opts: &BuildOptions) -> Result<Opening, String> {
    let Some(opened) = snapshot::open_graph(&ws.root)? else {
        return Ok(Opening::Absent);
    };
    let stamp = || snapshot::fs_stamp(&ws.root);
    let survey = inputs::survey(ws, &opened.manifest, stamp).map_err(|e| e.0)?;
    let Some(now) = survey.unchanged(&opened.manifest) else {
        return Ok(Opening::Stale(survey));
    };
    let key = key_now(&now, opts);
    let basis = Basis {
        key: key.clone(),
        manifest: opened.manifest.clone(),
    };
    let graph = match opened.into_graph(&key, opts.verify_snapshot) {
        Ok(g) => g,
        Err(OpenError::Stale) => return Ok(Opening::Stale(survey)),
        Err(e) => return Err(e.to_string()),
    };
    // A hit writes nothing else; the `.gitignore` that keeps the cache out of commits is put
    // back if it was removed (a CI cache that restores `.ontoly/*` skips dotfiles).
    snapshot::keep_ignored(&ws.root);
    let report = BuildReport {
        input_files: now.key.len(),
        input_bytes: now.bytes,
        pages: now.pages,
        pages_parsed: 0,
        pages_reused: now.pages,
        structure_parsed: false,
        files_hashed: now.rehashed,
        cache: CacheStatus::Hit,
        cache_note: None,
    };
    Ok(Opening::Hit(BuildOutput {
        graph,
        report,
        parsed: None,
        basis,
    }))
}

/// Stage 6: findings become Diagnostic nodes, then everything is sorted, de-duplicated and
/// hashed.
pub fn assemble(mut parts: Parts) -> Graph {
    use rayon::prelude::*;
    let diags: Vec<(Node, Edge)> = parts.findings.par_iter().map(Finding::to_graph).collect();
    for (n, e) in diags {
        parts.nodes.push(n);
        parts.edges.push(e);
    }
    let texts: BTreeMap<String, SharedStr> = parts.texts.into_iter().collect();
    Graph::assemble(parts.nodes, parts.edges, texts)
}

/// Stages 1 and 2 alone: the parses of every input, without building a graph (for readers of
/// the parses when neither a build of this run nor the snapshot has them).
pub fn parse_workspace(ws: &Workspace) -> Result<Parsed, BuildError> {
    let inputs = inputs::read_inputs(ws)?;
    let mut report = BuildReport::of(&inputs);
    parse::parse_all(&inputs, Parsed::default(), None, &mut report)
}
