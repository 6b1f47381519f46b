//! The parallel graph build: read and hash every input, parse pages, the structure and the
//! registries on all cores, cross-check them, and assemble one deterministic [`Graph`].
//!
//! Stages, in order (each a function below, so later stages can be added between them):
//! 1. [`read_inputs`]: list and read every input file, blake3 each (parallel);
//! 2. parse: pages ([`parse_page`]), structure ([`crate::formats::structure::parse_structure`], parallel for large files) and registries,
//!    reusing per-file results from the snapshot cache when the file's hash is unchanged;
//! 3. [`collect`]: per-article nodes, edges, texts and cross-check findings (parallel);
//! 4. [`resolve_references`]: every recorded reference → Source / Repository / Commit / File /
//!    Range nodes and `CITES` edges;
//! 5. [`SourceStage`]: optional verification against local clones (git, symbols), run after
//!    references are resolved and before assembly;
//! 6. [`Graph::assemble`]: sort by id, drop duplicates, hash.
//!
//! Nothing here depends on thread scheduling: every parallel step collects into input order,
//! and assembly sorts by id.

use crate::graph::findings::{Code, Finding};
use crate::graph::Graph;
use crate::formats::markers::{self, MarkerError, SectionSpan};
use crate::graph::model::{ids, Edge, EdgeKind, Node, NodeKind, Origin, Span};
use crate::formats::registry::{ReadError, Registries, WorkspaceFiles};
use crate::graph::snapshot::{self, ParseCache};
use crate::formats::source_ref::{self, ResolveError, ResolvedRef};
use crate::formats::structure::{self, ArticleEntry, ReferenceEntry, Structure};
use crate::formats::layout::{self, FrontMatter, Link, Workspace, REGISTRY_FILES, STRUCTURE_FILE};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Arc;

/// Bumped when the builder's interpretation of inputs changes, so old caches are not reused.
pub const BUILDER_VERSION: &str = "build.v1";

/// Receives coarse progress (for a progress bar). Called from worker threads.
pub trait Progress: Send + Sync {
    /// A new stage starts with `total` units of work.
    fn stage(&self, name: &str, total: u64);
    /// `n` more units are done.
    fn advance(&self, n: u64);
}

/// A later build stage that sees every resolved reference before assembly (the git
/// verification and symbol extraction of the sources layer plug in here).
pub trait SourceStage: Send + Sync {
    /// A string that changes whenever this stage's outputs could change for the same workspace
    /// inputs (e.g. the clone mapping and the commits it resolves to); part of the cache key.
    fn cache_salt(&self, ws: &Workspace) -> String;
    /// Adds nodes, edges, findings, or updates `CITES` metadata in `parts`.
    fn run(&self, ws: &Workspace, cited: &[CitedRange], parts: &mut Parts);
}

/// How to build.
#[derive(Clone, Default)]
pub struct BuildOptions {
    /// Read and write the snapshot cache under `<workspace>/.ontoly/`.
    pub use_cache: bool,
    /// Progress sink.
    pub progress: Option<Arc<dyn Progress>>,
    /// Local clones by remote or `<source>/<module>` name (used by the sources stage).
    pub clones: BTreeMap<String, PathBuf>,
    /// Verification against local clones; runs between resolution and assembly.
    pub source_stage: Option<Arc<dyn SourceStage>>,
    /// Identity of the repository holding the workspace (remote URL or name), for
    /// `repo-content:` references.
    pub knowledge_repository: Option<String>,
}

impl BuildOptions {
    /// Everything besides the input files that changes the graph (part of the cache key).
    fn salt(&self, ws: &Workspace) -> String {
        let mut s = self
            .source_stage
            .as_ref()
            .map(|st| st.cache_salt(ws))
            .unwrap_or_default();
        s.push('\0');
        s.push_str(self.knowledge_repository.as_deref().unwrap_or(""));
        for k in self.clones.keys() {
            s.push('\0');
            s.push_str(k);
        }
        s
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
    /// Input files read and hashed.
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
    /// Cache use.
    pub cache: CacheStatus,
    /// Why the cache was not used, when it existed but was refused.
    pub cache_note: Option<String>,
}

/// A built graph and what the build did.
#[derive(Debug, Clone)]
pub struct BuildOutput {
    /// The graph.
    pub graph: Graph,
    /// What the build did.
    pub report: BuildReport,
}

/// A build that could not run at all (bad workspaces produce diagnostics, not this).
#[derive(Debug)]
pub struct BuildError(pub String);

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BuildError {}

/// One input file: workspace-relative path, content, blake3 hex.
#[derive(Debug, Clone)]
pub struct InputFile {
    /// Workspace-relative, `/`-separated.
    pub path: String,
    /// Content (`None` when it could not be read; the message says why).
    pub bytes: Result<Vec<u8>, String>,
    /// blake3 hex of the content (of the error message when unreadable).
    pub hash: String,
}

/// Every input of a build, sorted by path.
#[derive(Debug, Clone)]
pub struct Inputs {
    /// Files sorted by path.
    pub files: Vec<InputFile>,
}

impl Inputs {
    /// `(path, hash)` pairs: the identity of the inputs.
    pub fn key(&self) -> Vec<(String, String)> {
        self.files
            .iter()
            .map(|f| (f.path.clone(), f.hash.clone()))
            .collect()
    }

    /// Total bytes read.
    pub fn bytes(&self) -> u64 {
        self.files
            .iter()
            .map(|f| f.bytes.as_ref().map_or(0, |b| b.len() as u64))
            .sum()
    }

    fn get(&self, path: &str) -> Option<&InputFile> {
        self.files
            .binary_search_by(|f| f.path.as_str().cmp(path))
            .ok()
            .map(|i| &self.files[i])
    }
}

/// Stage 1: lists every input (structure, pages, registries, notes, sessions, `ontoly.toml`)
/// and reads and hashes them in parallel.
pub fn read_inputs(ws: &Workspace) -> Result<Inputs, BuildError> {
    let pages = ws
        .pages()
        .map_err(|e| BuildError(format!("cannot list knowledge/: {e}")))?;
    let mut paths: Vec<String> = pages.iter().map(|p| format!("knowledge/{p}")).collect();
    paths.push(STRUCTURE_FILE.to_string());
    for r in REGISTRY_FILES {
        if ws.path(r).is_file() {
            paths.push(r.to_string());
        }
    }
    if ws.path("ontoly.toml").is_file() {
        paths.push("ontoly.toml".to_string());
    }
    paths.extend(ws.managed_documents());
    paths.sort();
    paths.dedup();
    let files = paths
        .into_par_iter()
        .map(|path| {
            let bytes = std::fs::read(ws.path(&path)).map_err(|e| io_message(&e));
            let hash = match &bytes {
                Ok(b) => blake3::hash(b).to_hex().to_string(),
                Err(m) => format!("unreadable:{m}"),
            };
            InputFile { path, bytes, hash }
        })
        .collect();
    Ok(Inputs { files })
}

/// An I/O error as a message that never names a path.
fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "file not found".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => "file could not be read".into(),
    }
}

/// The cache key: graph and builder versions, the source stage's salt, every input's hash.
pub fn cache_key(inputs: &Inputs, salt: &str) -> String {
    let mut h = blake3::Hasher::new();
    for part in [crate::graph::model::GRAPH_VERSION, BUILDER_VERSION, salt] {
        h.update(part.as_bytes());
        h.update(b"\0");
    }
    for f in &inputs.files {
        h.update(f.path.as_bytes());
        h.update(b"\0");
        h.update(f.hash.as_bytes());
        h.update(b"\n");
    }
    h.finalize().to_hex().to_string()
}

/// What one knowledge page contributes, independent of every other file (cached per page).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageParse {
    /// blake3 of the page bytes.
    pub hash: String,
    /// Why the page could not be used (not UTF-8, unreadable), with the code.
    pub unusable: Option<(Code, String)>,
    /// Sections in document order (empty when there are marker errors).
    pub sections: Vec<SectionSpan>,
    /// Marker errors in the order found.
    pub marker_errors: Vec<MarkerError>,
    /// Per section: (first heading, body between the markers).
    pub section_texts: Vec<(Option<String>, String)>,
    /// Front matter.
    pub front: FrontMatter,
    /// The first heading of the page (a title when the front matter has none).
    pub heading: Option<String>,
    /// Links to other pages.
    pub links: Vec<Link>,
}

/// Parses one page (`path` relative to `knowledge/`).
pub fn parse_page(path: &str, file: &InputFile) -> PageParse {
    let empty = |code: Code, msg: String| PageParse {
        hash: file.hash.clone(),
        unusable: Some((code, msg)),
        sections: Vec::new(),
        marker_errors: Vec::new(),
        section_texts: Vec::new(),
        front: FrontMatter::default(),
        heading: None,
        links: Vec::new(),
    };
    let bytes = match &file.bytes {
        Ok(b) => b,
        Err(m) => return empty(Code::PageUnreadable, m.clone()),
    };
    let Ok(text) = std::str::from_utf8(bytes) else {
        return empty(Code::PageNotUtf8, "File is not UTF-8".into());
    };
    let ps = markers::parse_sections(text);
    let lines: Vec<&str> = crate::formats::text::lines(text).collect();
    let section_texts = ps
        .sections
        .iter()
        .map(|s| {
            let (a, b) = (s.start as usize, (s.end as usize).saturating_sub(1));
            let body = lines.get(a..b.max(a)).unwrap_or(&[]);
            (body.iter().find_map(|l| heading(l)), body.join("\n"))
        })
        .collect();
    PageParse {
        hash: file.hash.clone(),
        unusable: None,
        sections: ps.sections,
        marker_errors: ps.errors,
        section_texts,
        front: layout::front_matter(text),
        heading: lines.iter().find_map(|l| heading(l)),
        links: layout::links(text, path),
    }
}

/// The text of an ATX heading line (`## Title` → `Title`).
fn heading(line: &str) -> Option<String> {
    let t = line.strip_prefix("   ").or_else(|| line.strip_prefix("  "));
    let t = t.or_else(|| line.strip_prefix(' ')).unwrap_or(line);
    let level = t.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &t[level..];
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let title = rest.trim().trim_end_matches('#').trim();
    (!title.is_empty()).then(|| title.to_string())
}

/// The structure file, parsed (cached with its hash).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum StructureParse {
    /// Parsed.
    Parsed(Structure),
    /// Not YAML: message and line.
    Invalid(String, Option<u64>),
    /// Unreadable or not UTF-8.
    Unreadable(String),
}

/// Parses structure.yaml.
pub fn parse_structure_file(file: &InputFile) -> StructureParse {
    match &file.bytes {
        Err(m) => StructureParse::Unreadable(m.clone()),
        Ok(b) => match std::str::from_utf8(b) {
            Err(_) => StructureParse::Unreadable("File is not UTF-8".into()),
            Ok(text) => match crate::formats::structure::parse_structure(text) {
                Ok(s) => StructureParse::Parsed(s),
                Err(e) => StructureParse::Invalid(e.message, e.line),
            },
        },
    }
}

/// Nodes, edges, texts and findings gathered before assembly.
#[derive(Debug, Default, Clone)]
pub struct Parts {
    /// Nodes (any order, duplicates allowed when identical).
    pub nodes: Vec<Node>,
    /// Edges (any order).
    pub edges: Vec<Edge>,
    /// Searchable texts by node id.
    pub texts: Vec<(String, String)>,
    /// Findings (become Diagnostic nodes at assembly).
    pub findings: Vec<Finding>,
    /// Every recorded reference of a registered section, in structure order.
    pub references: Vec<RefSite>,
}

impl Parts {
    fn extend(&mut self, other: Parts) {
        self.nodes.extend(other.nodes);
        self.edges.extend(other.edges);
        self.texts.extend(other.texts);
        self.findings.extend(other.findings);
        self.references.extend(other.references);
    }
}

/// One recorded reference, where it was read, and the section that records it.
#[derive(Debug, Clone)]
pub struct RefSite {
    /// The citing section's node id.
    pub section: String,
    /// The entry as read.
    pub entry: ReferenceEntry,
    /// `knowledge/structure.yaml` and the entry's line.
    pub origin: Origin,
}

/// A resolved reference to a line range in a repository, for the sources stage.
#[derive(Debug, Clone)]
pub struct CitedRange {
    /// The `Range` node id.
    pub range: String,
    /// The `CITES` edge id.
    pub cites: String,
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
    /// Where the reference was read.
    pub origin: Origin,
}

/// Builds the graph of `ws`.
pub fn build(ws: &Workspace, opts: &BuildOptions) -> Result<BuildOutput, BuildError> {
    let timer = Timer::from_env();
    let progress = opts.progress.as_deref();
    if let Some(p) = progress {
        p.stage("reading", 1);
    }
    let inputs = read_inputs(ws)?;
    timer.lap("read+hash inputs");
    let key = cache_key(&inputs, &opts.salt(ws));
    let pages: Vec<String> = inputs
        .files
        .iter()
        .filter_map(|f| f.path.strip_prefix("knowledge/"))
        .filter(|p| p.ends_with(".md"))
        .map(str::to_string)
        .collect();
    let mut report = BuildReport {
        input_files: inputs.files.len(),
        input_bytes: inputs.bytes(),
        pages: pages.len(),
        pages_parsed: 0,
        pages_reused: 0,
        structure_parsed: false,
        cache: CacheStatus::Disabled,
        cache_note: None,
    };
    let mut cached = ParseCache::default();
    if opts.use_cache {
        report.cache = CacheStatus::Miss;
        match snapshot::load_graph(&ws.root, &key) {
            Ok(Some(graph)) => {
                report.cache = CacheStatus::Hit;
                report.pages_reused = pages.len();
                return Ok(BuildOutput { graph, report });
            }
            Ok(None) => {}
            Err(note) => report.cache_note = Some(note),
        }
        match snapshot::load_parse_cache(&ws.root) {
            Ok(Some(c)) => cached = c,
            Ok(None) => {}
            Err(note) => report.cache_note = Some(note),
        }
    }

    if let Some(p) = progress {
        p.stage("parsing", pages.len() as u64 + 1);
    }
    let structure_file = inputs
        .get(STRUCTURE_FILE)
        .ok_or_else(|| BuildError(format!("{STRUCTURE_FILE} is missing")))?;
    let (structure, page_parses) = rayon::join(
        || match cached.structure.take() {
            Some((h, s)) if h == structure_file.hash => (s, false),
            _ => (parse_structure_file(structure_file), true),
        },
        || {
            pages
                .par_iter()
                .map(|p| {
                    let file = inputs.get(&format!("knowledge/{p}"));
                    let r = match (cached.pages.get(p), file) {
                        (Some(c), Some(f)) if c.hash == f.hash => (c.clone(), false),
                        (_, Some(f)) => (parse_page(p, f), true),
                        (_, None) => (
                            parse_page(
                                p,
                                &InputFile {
                                    path: p.clone(),
                                    bytes: Err("file not found".into()),
                                    hash: String::new(),
                                },
                            ),
                            true,
                        ),
                    };
                    if let Some(pr) = progress {
                        pr.advance(1);
                    }
                    r
                })
                .collect::<Vec<_>>()
        },
    );
    timer.lap("parse structure and pages");
    report.structure_parsed = structure.1;
    report.pages_parsed = page_parses.iter().filter(|p| p.1).count();
    report.pages_reused = page_parses.len() - report.pages_parsed;
    if opts.use_cache && (report.pages_reused > 0 || !report.structure_parsed) {
        report.cache = CacheStatus::Partial;
    }
    let page_map: BTreeMap<String, PageParse> = pages
        .iter()
        .cloned()
        .zip(page_parses.into_iter().map(|p| p.0))
        .collect();

    if let Some(p) = progress {
        p.stage("linking", 1);
    }
    let mut parts = collect(ws, &structure.0, &page_map);
    timer.lap("collect");
    let registries = load_registries(&inputs);
    let cited = resolve_references(&inputs, &registries, opts, &mut parts);
    timer.lap("resolve references");
    if let Some(stage) = &opts.source_stage {
        stage.run(ws, &cited, &mut parts);
        timer.lap("source stage");
    }
    let graph = assemble(ws, parts);
    timer.lap("assemble");

    if opts.use_cache {
        let pc = ParseCache {
            structure: Some((structure_file.hash.clone(), structure.0)),
            pages: page_map,
        };
        // A cache that cannot be written only costs time on the next run.
        if let Err(e) = snapshot::store(&ws.root, &key, &graph, &pc) {
            report.cache_note = Some(format!("cache not written: {}", io_message(&e)));
        }
        timer.lap("store cache");
    }
    drop(inputs);
    timer.lap("free inputs");
    Ok(BuildOutput { graph, report })
}

/// Stage timings on stderr when `ONTOLY_TIMINGS` is set (for profiling; never in outputs).
struct Timer(Option<std::cell::Cell<std::time::Instant>>);

impl Timer {
    fn from_env() -> Timer {
        Timer(
            std::env::var_os("ONTOLY_TIMINGS")
                .map(|_| std::cell::Cell::new(std::time::Instant::now())),
        )
    }

    fn lap(&self, what: &str) {
        if let Some(t) = &self.0 {
            let now = std::time::Instant::now();
            eprintln!("{:>8.3}s  {what}", (now - t.get()).as_secs_f64());
            t.set(now);
        }
    }
}

/// Stage 6: findings become Diagnostic nodes, then everything is sorted, de-duplicated and
/// hashed.
pub fn assemble(ws: &Workspace, mut parts: Parts) -> Graph {
    let diags: Vec<(Node, Edge)> = parts.findings.par_iter().map(Finding::to_graph).collect();
    for (n, e) in diags {
        parts.nodes.push(n);
        parts.edges.push(e);
    }
    let texts: BTreeMap<String, String> = parts.texts.into_iter().collect();
    Graph::assemble(ws.name.clone(), None, parts.nodes, parts.edges, texts)
}

fn node(kind: NodeKind, id: String, name: String) -> Node {
    Node {
        id,
        kind,
        name,
        file: None,
        span: None,
        package: None,
        metadata: BTreeMap::new(),
    }
}

fn origin(file: &str, line: u64) -> Origin {
    Origin {
        file: file.to_string(),
        line: line.max(1),
    }
}

/// The line of a top-level key in the structure (for findings about the whole file).
fn top_key_line(ws: &Workspace, key: &str) -> u64 {
    let Ok(text) = std::fs::read_to_string(ws.path(STRUCTURE_FILE)) else {
        return 1;
    };
    text.split('\n')
        .position(|l| {
            l.strip_prefix(key)
                .is_some_and(|r| r.trim_start().starts_with(':'))
        })
        .map_or(1, |i| i as u64 + 1)
}

/// Stage 3: workspace, article and section nodes, `CONTAINS` and `LINKS_TO` edges, texts, and
/// every cross-check between the structure and the pages.
pub fn collect(
    ws: &Workspace,
    structure: &StructureParse,
    pages: &BTreeMap<String, PageParse>,
) -> Parts {
    let ws_id = ids::workspace(&ws.name);
    let mut parts = Parts::default();
    parts
        .nodes
        .push(node(NodeKind::Workspace, ws_id.clone(), ws.name.clone()));
    let sf = STRUCTURE_FILE;

    // Structure-level checks.
    let mut entries: BTreeMap<&str, &ArticleEntry> = BTreeMap::new();
    match structure {
        StructureParse::Unreadable(m) => parts.findings.push(Finding::new(
            Code::StructureUnreadable,
            m.clone(),
            sf,
            1,
            &ws_id,
        )),
        StructureParse::Invalid(m, line) => parts.findings.push(Finding::new(
            Code::YamlInvalid,
            format!("Invalid YAML metadata: {m}"),
            sf,
            line.unwrap_or(1),
            &ws_id,
        )),
        StructureParse::Parsed(s) => {
            if s.schema_version.as_deref() != Some(structure::SCHEMA_VERSION) {
                let got = s.schema_version.as_deref().unwrap_or("(missing)");
                parts.findings.push(Finding::new(
                    Code::SchemaUnsupported,
                    format!(
                        "Unsupported approved structure schema: {got} (expected {})",
                        structure::SCHEMA_VERSION
                    ),
                    sf,
                    top_key_line(ws, "schema_version"),
                    &ws_id,
                ));
            }
            if s.articles.is_none() {
                parts.findings.push(Finding::new(
                    Code::ArticlesMissing,
                    "Missing structure articles",
                    sf,
                    top_key_line(ws, "articles"),
                    &ws_id,
                ));
            }
            for k in &s.unknown_keys {
                parts.findings.push(
                    Finding::new(
                        Code::UnknownKey,
                        format!("unknown key `{k}` is ignored"),
                        sf,
                        top_key_line(ws, k),
                        &ws_id,
                    )
                    .with_discriminator(k.clone()),
                );
            }
            let mut by_id: HashMap<&str, u64> = HashMap::new();
            for a in s.articles.iter().flatten() {
                let Some(path) = a.path.as_deref() else {
                    parts.findings.push(Finding::new(
                        Code::EntryIncomplete,
                        "article entry has no `path`",
                        sf,
                        a.line,
                        &ws_id,
                    ));
                    continue;
                };
                if let Some(aid) = a.article_id.as_deref() {
                    if let Some(first) = by_id.insert(aid, a.line) {
                        by_id.insert(aid, first);
                        parts.findings.push(Finding::new(
                            Code::ArticleDuplicate,
                            format!("article_id `{aid}` is already used at line {first}"),
                            sf,
                            a.line,
                            ids::article(path),
                        ));
                    }
                }
                if let Some(first) = entries.get(path) {
                    parts.findings.push(Finding::new(
                        Code::ArticleDuplicate,
                        format!(
                            "Article structure is missing or ambiguous: path `{path}` is already listed at line {}",
                            first.line
                        ),
                        sf,
                        a.line,
                        ids::article(path),
                    ));
                    continue;
                }
                entries.insert(path, a);
            }
        }
    }

    // Per article: the union of structure entries and pages, in path order.
    let mut all: BTreeSet<&str> = entries.keys().copied().collect();
    all.extend(pages.keys().map(String::as_str));
    let all: Vec<&str> = all.into_iter().collect();
    let per: Vec<Parts> = all
        .par_iter()
        .map(|path| {
            article_parts(
                &ws_id,
                path,
                entries.get(path).copied(),
                pages.get(*path),
                pages,
            )
        })
        .collect();
    for p in per {
        parts.extend(p);
    }
    parts
}

fn article_parts(
    ws_id: &str,
    path: &str,
    entry: Option<&ArticleEntry>,
    page: Option<&PageParse>,
    pages: &BTreeMap<String, PageParse>,
) -> Parts {
    let sf = STRUCTURE_FILE;
    let page_file = format!("knowledge/{path}");
    let aid = ids::article(path);
    let mut p = Parts::default();
    let mut a = node(NodeKind::Article, aid.clone(), path.to_string());
    a.file = Some(page_file.clone());
    a.metadata.insert("path".into(), path.to_string());
    if let Some(e) = entry {
        for (k, v) in [
            ("article_id", &e.article_id),
            ("collection", &e.collection),
            ("visibility", &e.visibility),
        ] {
            if let Some(v) = v {
                a.metadata.insert(k.into(), v.clone());
            }
        }
    }
    a.metadata.insert(
        "page".into(),
        if page.is_some() { "present" } else { "missing" }.into(),
    );
    a.metadata.insert(
        "registered".into(),
        if entry.is_some() { "true" } else { "false" }.into(),
    );
    let contains_origin = match entry {
        Some(e) => origin(sf, e.line),
        None => origin(&page_file, 1),
    };
    p.edges.push(Edge::new(
        EdgeKind::Contains,
        ws_id,
        aid.clone(),
        Some(contains_origin),
    ));

    // Page facts.
    let mut marked: BTreeMap<&str, (&SectionSpan, &(Option<String>, String))> = BTreeMap::new();
    let mut page_usable = false;
    if let Some(pg) = page {
        if let Some((code, msg)) = &pg.unusable {
            p.findings
                .push(Finding::new(*code, msg.clone(), &page_file, 1, &aid));
        } else {
            page_usable = pg.marker_errors.is_empty();
            for err in &pg.marker_errors {
                p.findings.push(
                    Finding::new(
                        Code::MarkerError,
                        err.kind.message(),
                        &page_file,
                        err.line,
                        &aid,
                    )
                    .with_discriminator(format!("{:?}", err.kind)),
                );
            }
            if let Some((m, line)) = &pg.front.error {
                p.findings.push(Finding::new(
                    Code::YamlInvalid,
                    format!("Invalid YAML front matter: {m}"),
                    &page_file,
                    *line,
                    &aid,
                ));
            }
            let title = pg.front.title.clone().or_else(|| pg.heading.clone());
            if let Some(t) = &title {
                a.name = t.clone();
                a.metadata.insert("title".into(), t.clone());
            }
            if let Some(d) = &pg.front.description {
                a.metadata.insert("description".into(), d.clone());
            }
            let text: Vec<&str> = [title.as_deref(), pg.front.description.as_deref()]
                .into_iter()
                .flatten()
                .collect();
            if !text.is_empty() {
                p.texts.push((aid.clone(), text.join("\n")));
            }
            for (s, t) in pg.sections.iter().zip(&pg.section_texts) {
                marked.insert(s.id.as_str(), (s, t));
            }
            for l in &pg.links {
                if pages.contains_key(&l.target) {
                    p.edges.push(Edge::new(
                        EdgeKind::LinksTo,
                        aid.clone(),
                        ids::article(&l.target),
                        Some(origin(&page_file, l.line)),
                    ));
                } else {
                    p.findings.push(
                        Finding::new(
                            Code::LinkUnresolved,
                            format!("link to `{}`: no such page", l.target),
                            &page_file,
                            l.line,
                            &aid,
                        )
                        .with_discriminator(l.target.clone()),
                    );
                }
            }
        }
    }
    if entry.is_some() && page.is_none() {
        p.findings.push(Finding::new(
            Code::ArticlePageMissing,
            format!("Article page is missing: {page_file}"),
            sf,
            entry.map_or(1, |e| e.line),
            &aid,
        ));
    }
    if entry.is_none() && !marked.is_empty() {
        p.findings.push(Finding::new(
            Code::ArticleNotInStructure,
            "Article structure is missing or ambiguous: the page has sections but knowledge/structure.yaml does not list it",
            &page_file,
            1,
            &aid,
        ));
    }
    p.nodes.push(a);

    // Sections: structure entries first (in structure order), then marked-only ones.
    let mut registered: BTreeSet<&str> = BTreeSet::new();
    if let Some(e) = entry {
        for s in e.sections.iter().flatten() {
            let Some(sid) = s.id.as_deref() else {
                p.findings.push(Finding::new(
                    Code::EntryIncomplete,
                    "section entry has no string `id`",
                    sf,
                    s.line,
                    &aid,
                ));
                continue;
            };
            let secid = ids::section(path, sid);
            if !registered.insert(sid) {
                p.findings.push(Finding::new(
                    Code::SectionDuplicate,
                    format!(
                        "Section registration is missing or ambiguous: `{sid}` is listed twice"
                    ),
                    sf,
                    s.line,
                    &secid,
                ));
                continue;
            }
            let m = marked.get(sid);
            p.nodes.push(section_node(path, sid, m.copied(), true));
            if let Some((_, (_, body))) = m {
                p.texts.push((secid.clone(), body.clone()));
            }
            let cont = match m {
                Some((span, _)) => origin(&page_file, span.start),
                None => origin(sf, s.line),
            };
            p.edges.push(Edge::new(
                EdgeKind::Contains,
                aid.clone(),
                secid.clone(),
                Some(cont),
            ));
            if m.is_none() && page_usable {
                p.findings.push(Finding::new(
                    Code::SectionMissingMarker,
                    format!("Section `{sid}` has no marker in {page_file}"),
                    sf,
                    s.line,
                    &secid,
                ));
            }
            let Some(refs) = &s.references else {
                p.findings.push(Finding::new(
                    Code::EntryIncomplete,
                    format!("Missing section references: `{sid}` has no `references` list"),
                    sf,
                    s.line,
                    &secid,
                ));
                continue;
            };
            if refs.len() > 3 {
                p.findings.push(Finding::new(
                    Code::TooManyReferences,
                    format!("section `{sid}` has {} references (at most 3)", refs.len()),
                    sf,
                    s.line,
                    &secid,
                ));
            }
            for r in refs {
                p.references.push(RefSite {
                    section: secid.clone(),
                    entry: r.clone(),
                    origin: origin(sf, r.line),
                });
            }
        }
    }
    for (sid, (span, t)) in &marked {
        if registered.contains(sid) {
            continue;
        }
        let secid = ids::section(path, sid);
        p.nodes
            .push(section_node(path, sid, Some((span, t)), false));
        p.texts.push((secid.clone(), t.1.clone()));
        p.edges.push(Edge::new(
            EdgeKind::Contains,
            aid.clone(),
            secid.clone(),
            Some(origin(&page_file, span.start)),
        ));
        if entry.is_some() {
            p.findings.push(Finding::new(
                Code::SectionNotInStructure,
                format!("Section registration is missing or ambiguous: `{sid}` is not in {sf}"),
                &page_file,
                span.start,
                &secid,
            ));
        }
    }
    p
}

fn section_node(
    path: &str,
    sid: &str,
    marked: Option<(&SectionSpan, &(Option<String>, String))>,
    registered: bool,
) -> Node {
    let mut n = node(NodeKind::Section, ids::section(path, sid), sid.to_string());
    let file = format!("knowledge/{path}");
    n.metadata.insert("article".into(), path.to_string());
    n.metadata.insert("section_id".into(), sid.to_string());
    n.metadata
        .insert("registered".into(), registered.to_string());
    n.metadata
        .insert("marked".into(), marked.is_some().to_string());
    if let Some((span, (title, _))) = marked {
        if let Some(t) = title {
            n.name = t.clone();
            n.metadata.insert("title".into(), t.clone());
        }
        n.span = Some(Span {
            file: file.clone(),
            start_line: span.start,
            end_line: span.end,
        });
    }
    n.file = Some(file);
    n
}

/// Reads the three registries from the already read inputs (so they are part of the cache key
/// and read once).
pub fn load_registries(inputs: &Inputs) -> Registries {
    let files = |path: &str| -> Result<Vec<u8>, ReadError> {
        match inputs.get(path).map(|f| &f.bytes) {
            Some(Ok(b)) => Ok(b.clone()),
            _ => Err(ReadError::Unreadable),
        }
    };
    Registries::load(&files, "")
}

/// What one reference contributes once resolved (built in parallel).
#[derive(Default)]
struct Resolved {
    /// Nodes only this site can produce (an unresolved source).
    nodes: Vec<Node>,
    /// The `CITES` edge.
    edges: Vec<Edge>,
    /// The range and its `IN_FILE` edge (kept for the first citation of a range).
    range: Option<(Node, Edge)>,
    /// The parts shared with other citations.
    shared: Option<Shared>,
    findings: Vec<Finding>,
    cited: Option<CitedRange>,
}

/// Stage 4: checks every recorded reference (locator, digest) and resolves its `source_ref`
/// through the registries. Adds Source / Repository / Commit / File / Range nodes, `CITES`,
/// `IN_FILE`, `AT_COMMIT`, `OF_REPOSITORY` and `REGISTERED_AS` edges, and findings. Returns
/// the resolved repository ranges for the sources stage.
pub fn resolve_references(
    inputs: &Inputs,
    registries: &Registries,
    opts: &BuildOptions,
    parts: &mut Parts,
) -> Vec<CitedRange> {
    for p in registries.problems() {
        parts.findings.push(Finding::new(
            Code::RegistryUnusable,
            p.message,
            &p.path,
            p.line.unwrap_or(1),
            ids::workspace(&parts_workspace(parts)),
        ));
    }
    let files = |path: &str| -> Result<Vec<u8>, ReadError> {
        match inputs.get(path).map(|f| &f.bytes) {
            Some(Ok(b)) => Ok(b.clone()),
            _ => Err(ReadError::Unreadable),
        }
    };
    let sites = std::mem::take(&mut parts.references);
    // Large workspaces cite the same few thousand ranges hundreds of thousands of times, and
    // resolving an entry (registry lookup, remote normalization, ids, URL, range node) costs far
    // more than a CITES edge. So each distinct entry is resolved once, from its first citation,
    // and every later citation of it only gets its own CITES edge, findings and cited range.
    // The outputs are exactly those of resolving every site: everything else a later citation
    // would produce (range, source, file, commit, repository) was already kept from the first.
    let mut first_of: HashMap<EntryKey<'_>, usize> = HashMap::with_capacity(sites.len() / 8);
    let mut firsts: Vec<usize> = Vec::new();
    let key_of: Vec<usize> = sites
        .iter()
        .enumerate()
        .map(|(i, site)| {
            *first_of.entry(entry_key(&site.entry)).or_insert_with(|| {
                firsts.push(i);
                firsts.len() - 1
            })
        })
        .collect();
    drop(first_of);
    let resolved: Vec<Resolved> = firsts
        .par_iter()
        .map(|&i| resolve_site(&sites[i], registries, &files, opts))
        .collect();
    // Later citations, derived in parallel from their entry's first resolution.
    let repeats: Vec<Option<Resolved>> = sites
        .par_iter()
        .enumerate()
        .map(|(i, site)| {
            let k = key_of[i];
            (firsts[k] != i).then(|| resolved[k].repeat_for(site))
        })
        .collect();
    // Shared nodes (a source, repository, commit, file or range cited many times) arrive once
    // per citation; keeping the first here spares assembly from sorting the duplicates. Sites
    // are merged in structure order, so "first" means the same as when each site was resolved.
    let mut firsts_resolved: Vec<Option<Resolved>> = resolved.into_iter().map(Some).collect();
    let mut seen = Seen::default();
    let mut cited = Vec::new();
    for (i, repeat) in repeats.into_iter().enumerate() {
        let Some(r) = repeat.or_else(|| firsts_resolved[key_of[i]].take()) else {
            continue;
        };
        for n in r.nodes {
            if seen.sources.insert(n.id.clone()) {
                parts.nodes.push(n);
            }
        }
        parts.edges.extend(r.edges);
        if let Some((range, in_file)) = r.range {
            if seen.ranges.insert(range.id.clone()) {
                parts.nodes.push(range);
                parts.edges.push(in_file);
            }
        }
        if let Some(sh) = r.shared {
            build_shared(sh, registries, &mut seen, parts);
        }
        parts.findings.extend(r.findings);
        cited.extend(r.cited);
    }
    cited
}

/// Everything of a [`ReferenceEntry`] that [`resolve_site`] reads, i.e. all but its line: two
/// entries with equal keys resolve alike.
type EntryKey<'a> = (
    Option<&'a str>,
    bool,
    Option<(&'a str, u64, u64)>,
    bool,
    Option<&'a str>,
    (Option<&'a str>, Option<u64>, Option<u64>),
);

fn entry_key(e: &ReferenceEntry) -> EntryKey<'_> {
    (
        e.source_ref.as_deref(),
        e.source_ref_is_string,
        e.locator
            .as_ref()
            .map(|l| (l.path.as_str(), l.start_line, l.end_line)),
        e.has_locator,
        e.content_digest.as_deref(),
        (
            e.locator_parts.path.as_deref(),
            e.locator_parts.start_line,
            e.locator_parts.end_line,
        ),
    )
}

impl Resolved {
    /// What resolving `site` gives when `self` is the resolution of an earlier site with the
    /// same entry: the same findings and CITES edge, placed at `site`. Nodes, the range and
    /// the shared parts are left out: the earlier site already contributed them.
    fn repeat_for(&self, site: &RefSite) -> Resolved {
        let findings = self
            .findings
            .iter()
            .map(|f| Finding {
                code: f.code,
                message: f.message.clone(),
                at: site.origin.clone(),
                subject: site.section.clone(),
                discriminator: f.discriminator.clone(),
            })
            .collect();
        let edges: Vec<Edge> = self
            .edges
            .iter()
            .map(|e| {
                let mut cites = Edge::new(
                    e.kind,
                    site.section.clone(),
                    e.to.clone(),
                    Some(site.origin.clone()),
                );
                cites.metadata = e.metadata.clone();
                cites
            })
            .collect();
        let cited = self.cited.as_ref().map(|c| CitedRange {
            cites: edges.first().map(|e| e.id.clone()).unwrap_or_default(),
            origin: site.origin.clone(),
            ..c.clone()
        });
        Resolved {
            nodes: Vec::new(),
            edges,
            range: None,
            shared: None,
            findings,
            cited,
        }
    }
}

fn parts_workspace(parts: &Parts) -> String {
    parts
        .nodes
        .iter()
        .find(|n| n.kind == NodeKind::Workspace)
        .map(|n| n.name.clone())
        .unwrap_or_default()
}

fn resolve_site(
    site: &RefSite,
    registries: &Registries,
    files: &dyn WorkspaceFiles,
    opts: &BuildOptions,
) -> Resolved {
    let mut out = Resolved::default();
    let r = &site.entry;
    let (sf, line) = (site.origin.file.as_str(), site.origin.line);
    let mut own_check_failed = false;
    match r.locator.as_ref() {
        None => {
            own_check_failed = true;
            out.findings.push(
                Finding::new(
                    Code::LocatorInvalid,
                    if r.has_locator {
                        "Invalid returned file range: locator needs a string `path` and integer `start_line`/`end_line`"
                    } else {
                        "reference has no `locator`"
                    },
                    sf,
                    line,
                    &site.section,
                ),
            )
        }
        Some(l) if !l.is_valid() => {
            own_check_failed = true;
            out.findings.push(Finding::new(
                Code::LocatorInvalid,
                format!(
                    "Invalid returned file range: lines {}..{} of `{}` (need 1 <= start <= end)",
                    l.start_line, l.end_line, l.path
                ),
                sf,
                line,
                &site.section,
            ))
        }
        Some(_) => {}
    }
    match r.content_digest.as_deref() {
        None => {
            own_check_failed = true;
            out.findings.push(Finding::new(
                Code::DigestMissing,
                "Missing source content_digest",
                sf,
                line,
                &site.section,
            ))
        }
        Some(d) if !crate::formats::text::is_sha256_digest(d) => {
            own_check_failed = true;
            out.findings.push(Finding::new(
                Code::DigestInvalid,
                "Invalid content digest",
                sf,
                line,
                &site.section,
            ))
        }
        Some(_) => {}
    }
    let Some(source_ref) = r.source_ref.as_deref().filter(|_| r.source_ref_is_string) else {
        out.findings.push(Finding::new(
            Code::SourceUnresolved,
            "Invalid source_ref",
            sf,
            line,
            &site.section,
        ));
        return out;
    };
    let source_node = || {
        let mut source = node(
            NodeKind::Source,
            ids::source(source_ref),
            source_ref.to_string(),
        );
        source.metadata.insert(
            "kind".into(),
            source_ref.split(':').next().unwrap_or("").to_string(),
        );
        source
    };
    let resolved = source_ref::resolve(r, registries, opts.knowledge_repository.as_deref())
        .and_then(|res| source_ref::check_managed_file(&res, files, "").map(|()| res));
    let res = match resolved {
        Ok(res) => res,
        Err(e) => {
            let locator_or_digest = matches!(
                e,
                ResolveError::MissingPath
                    | ResolveError::InvalidStartLine
                    | ResolveError::InvalidEndLine
                    | ResolveError::MissingDigest
                    | ResolveError::InvalidDigest
            );
            // The locator and digest checks above already said it, with more detail.
            if !(locator_or_digest && own_check_failed) {
                out.findings.push(Finding::new(
                    Code::SourceUnresolved,
                    format!("{} (`{source_ref}`)", e.message()),
                    sf,
                    line,
                    &site.section,
                ));
            }
            if !locator_or_digest {
                let mut source = source_node();
                source.metadata.insert("status".into(), "unresolved".into());
                out.nodes.push(source);
            }
            return out;
        }
    };
    let kind = res.kind().as_str();
    let c = res.citation().clone();
    let (repo_label, commit_label, status) = match &res {
        ResolvedRef::Repo(rr) => {
            let key = res.repository_key().unwrap_or_default();
            let status = if !rr.pinned {
                out.findings.push(Finding::new(
                    Code::SourceUnpinned,
                    format!(
                        "Repository reference is not pinned to a full commit (ref `{}`): no URL, no verification",
                        rr.git_ref
                    ),
                    sf,
                    line,
                    &site.section,
                ));
                "unpinned"
            } else if opts.clones.contains_key(&key)
                || opts
                    .clones
                    .contains_key(&format!("{}/{}", rr.source, rr.module))
                || opts.clones.contains_key(&rr.remote)
            {
                "unverified"
            } else {
                "no_clone"
            };
            (key, rr.git_ref.clone(), status)
        }
        ResolvedRef::RepoContent(rc) => {
            let key = res
                .repository_key()
                .unwrap_or_else(|| "knowledge".to_string());
            if rc.worktree {
                (key, format!("{}+worktree", rc.commit), "worktree")
            } else {
                let st = if opts.clones.contains_key(&key) {
                    "unverified"
                } else {
                    "no_clone"
                };
                (key, rc.commit.clone(), st)
            }
        }
        ResolvedRef::Document(_) => (source_ref.to_string(), "snapshot".to_string(), "unverified"),
        ResolvedRef::Managed(_) => (
            source_ref.to_string(),
            "workspace".to_string(),
            "unverified",
        ),
    };
    let file_path = match &res {
        ResolvedRef::Managed(m) => m.materialized_at.clone(),
        ResolvedRef::Document(d) => crate::formats::registry::join_path(&d.materialized_at, &c.path),
        _ => res.cited_path(),
    };
    let range_id = ids::range(
        &repo_label,
        &commit_label,
        &file_path,
        c.start_line,
        c.end_line,
    );
    let file_id = ids::file(&repo_label, &commit_label, &file_path);
    let mut range = node(
        NodeKind::Range,
        range_id.clone(),
        format!("{file_path}#L{}-L{}", c.start_line, c.end_line),
    );
    range.file = Some(file_path.clone());
    range.span = Some(Span {
        file: file_path.clone(),
        start_line: c.start_line,
        end_line: c.end_line,
    });
    range.package = Some(repo_label.clone());
    if let Some(url) = res.web_url() {
        range.metadata.insert("url".into(), url);
    }
    let mut cites = Edge::new(
        EdgeKind::Cites,
        site.section.clone(),
        range_id.clone(),
        Some(site.origin.clone()),
    );
    cites
        .metadata
        .insert("content_digest".into(), c.content_digest.clone());
    cites.metadata.insert("status".into(), status.into());
    cites
        .metadata
        .insert("source_ref".into(), source_ref.to_string());
    cites
        .metadata
        .insert("source_kind".into(), kind.to_string());
    let in_file = Edge::new(
        EdgeKind::InFile,
        range_id.clone(),
        file_id.clone(),
        Some(site.origin.clone()),
    );
    if matches!(res, ResolvedRef::Repo(_) | ResolvedRef::RepoContent(_)) {
        out.cited = Some(CitedRange {
            range: range_id.clone(),
            cites: cites.id.clone(),
            repository: repo_label.clone(),
            remote: match &res {
                ResolvedRef::Repo(rr) => Some(crate::formats::remote::redact(&rr.remote)),
                _ => None,
            },
            commit: commit_label.clone(),
            path: file_path.clone(),
            start_line: c.start_line,
            end_line: c.end_line,
            content_digest: Some(c.content_digest.clone()),
            origin: site.origin.clone(),
        });
    }
    out.edges.push(cites);
    out.range = Some((range, in_file));
    out.shared = Some(Shared {
        source_ref: source_ref.to_string(),
        res,
        repo_label,
        commit_label,
        file_id,
        file_path,
        origin: site.origin.clone(),
    });
    out
}

/// What many citations have in common (their source, file, commit, repository): built once,
/// from the first citation in structure order, by [`build_shared`].
struct Shared {
    source_ref: String,
    res: ResolvedRef,
    repo_label: String,
    commit_label: String,
    file_id: String,
    file_path: String,
    origin: Origin,
}

#[derive(Default)]
struct Seen {
    ranges: std::collections::HashSet<String>,
    files: std::collections::HashSet<String>,
    sources: std::collections::HashSet<String>,
    commits: std::collections::HashSet<String>,
    repos: std::collections::HashSet<String>,
    doc_links: std::collections::HashSet<(String, String)>,
}

fn build_shared(d: Shared, registries: &Registries, seen: &mut Seen, parts: &mut Parts) {
    let is_repo = matches!(d.res, ResolvedRef::Repo(_) | ResolvedRef::RepoContent(_));
    let source_id = ids::source(&d.source_ref);
    if !seen.sources.contains(&source_id) {
        seen.sources.insert(source_id.clone());
        let mut source = node(NodeKind::Source, source_id.clone(), d.source_ref.clone());
        source
            .metadata
            .insert("kind".into(), d.res.kind().as_str().to_string());
        match &d.res {
            ResolvedRef::Repo(rr) => {
                source
                    .metadata
                    .insert("remote".into(), crate::formats::remote::redact(&rr.remote));
                source.metadata.insert("ref".into(), rr.git_ref.clone());
                source.package = Some(format!("{}/{}", rr.source, rr.module));
                // The registry line of the module, when the registry layout gives it.
                let reg_line = match registries.get(crate::formats::registry::RegistryKind::Repo) {
                    crate::formats::registry::RegistryState::Loaded(reg) => {
                        let name = d.source_ref.split_once(':').map_or("", |x| x.1);
                        reg.lookup(name).map_or(0, |m| m.module.line)
                    }
                    _ => 0,
                };
                let reg_origin = if reg_line > 0 {
                    origin("sources/repo/index.yaml", reg_line)
                } else {
                    d.origin.clone()
                };
                parts.edges.push(Edge::new(
                    EdgeKind::RegisteredAs,
                    source_id.clone(),
                    ids::repository(&d.repo_label),
                    Some(reg_origin),
                ));
            }
            ResolvedRef::RepoContent(_) => parts.edges.push(Edge::new(
                EdgeKind::RegisteredAs,
                source_id.clone(),
                ids::repository(&d.repo_label),
                Some(d.origin.clone()),
            )),
            ResolvedRef::Document(doc) => {
                source
                    .metadata
                    .insert("materialized_at".into(), doc.materialized_at.clone());
                if let Some(m) = &doc.manifest {
                    source.metadata.insert("manifest".into(), m.clone());
                }
            }
            ResolvedRef::Managed(m) => {
                source
                    .metadata
                    .insert("materialized_at".into(), m.materialized_at.clone());
            }
        }
        parts.nodes.push(source);
    }
    if !is_repo
        && seen
            .doc_links
            .insert((source_id.clone(), d.file_id.clone()))
    {
        parts.edges.push(Edge::new(
            EdgeKind::RegisteredAs,
            source_id,
            d.file_id.clone(),
            Some(d.origin.clone()),
        ));
    }
    if seen.files.contains(&d.file_id) {
        return;
    }
    seen.files.insert(d.file_id.clone());
    let mut file = node(NodeKind::File, d.file_id.clone(), d.file_path.clone());
    file.file = Some(d.file_path.clone());
    file.package = Some(d.repo_label.clone());
    file.metadata.insert("path".into(), d.file_path.clone());
    if is_repo {
        file.metadata
            .insert("commit".into(), d.commit_label.clone());
        let commit_id = ids::commit(&d.repo_label, &d.commit_label);
        parts.edges.push(Edge::new(
            EdgeKind::AtCommit,
            d.file_id.clone(),
            commit_id.clone(),
            Some(d.origin.clone()),
        ));
        if !seen.commits.contains(&commit_id) {
            seen.commits.insert(commit_id.clone());
            let mut commit = node(NodeKind::Commit, commit_id.clone(), d.commit_label.clone());
            commit.package = Some(d.repo_label.clone());
            commit
                .metadata
                .insert("commit".into(), d.commit_label.clone());
            commit.metadata.insert(
                "pinned".into(),
                crate::formats::text::is_full_commit(&d.commit_label).to_string(),
            );
            let repo_id = ids::repository(&d.repo_label);
            parts.edges.push(Edge::new(
                EdgeKind::OfRepository,
                commit_id,
                repo_id.clone(),
                Some(d.origin.clone()),
            ));
            parts.nodes.push(commit);
            if seen.repos.insert(repo_id.clone()) {
                let mut repo = node(NodeKind::Repository, repo_id, d.repo_label.clone());
                if let ResolvedRef::Repo(rr) = &d.res {
                    repo.metadata
                        .insert("remote".into(), crate::formats::remote::redact(&rr.remote));
                }
                parts.nodes.push(repo);
            }
        }
    }
    parts.nodes.push(file);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings() {
        assert_eq!(heading("## Title ##").as_deref(), Some("Title"));
        assert_eq!(heading("   # x").as_deref(), Some("x"));
        assert_eq!(heading("#nope"), None);
        assert_eq!(heading("    # code"), None);
    }
}
