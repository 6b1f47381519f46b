//! Verification of cited ranges against their pinned commits, and the symbols behind them.
//!
//! Each distinct (repository, commit, path) is read and parsed once, in parallel, however
//! many references cite it; then every reference gets its status from the shared file. The
//! work per thread uses its own gix handle (one per repository, made on first use).

use crate::diagnostics::Code;
use crate::graph::build::{CitedRange, CitedTarget, Parts, SourceStage};
use crate::graph::fasthash::FastMap;
use crate::graph::findings::Finding;
use crate::graph::model::{ids, Edge, EdgeKind, Metadata, Node, NodeKind, Span};
use crate::sources::clones::CloneMap;
use crate::sources::git::{GitRepo, LocalRepo, Lookup};
use crate::sources::symbols::{Definition, FileSymbols};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

/// The verification status of one reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Commit, file and range exist and the sha256 digest of the range matches.
    Verified,
    /// The range exists but its digest differs from the recorded one.
    DigestMismatch,
    /// The clone does not have the pinned commit.
    CommitMissing,
    /// The commit has no file at the cited path.
    FileMissing,
    /// The file is shorter than the cited range.
    RangeOutOfBounds,
    /// The reference's ref is not a full commit.
    Unpinned,
    /// No local clone of the repository: not verifiable here.
    NoClone,
    /// Uncommitted evidence (`+worktree`): the digest is its only identity.
    Worktree,
}

impl Status {
    /// Every status, in a fixed order (for statistics).
    pub const ALL: [Status; 8] = [
        Self::Verified,
        Self::DigestMismatch,
        Self::CommitMissing,
        Self::FileMissing,
        Self::RangeOutOfBounds,
        Self::Unpinned,
        Self::NoClone,
        Self::Worktree,
    ];

    /// The status as serialized (`digest_mismatch`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Verified => "verified",
            Self::DigestMismatch => "digest_mismatch",
            Self::CommitMissing => "commit_missing",
            Self::FileMissing => "file_missing",
            Self::RangeOutOfBounds => "range_out_of_bounds",
            Self::Unpinned => "unpinned",
            Self::NoClone => "no_clone",
            Self::Worktree => "worktree",
        }
    }

    /// The status written as [`Status::as_str`] gives it.
    pub fn parse(s: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|st| st.as_str() == s)
    }

    /// Whether the status says the evidence is wrong (as opposed to verified or unverifiable).
    pub fn is_error(self) -> bool {
        matches!(
            self,
            Self::DigestMismatch | Self::CommitMissing | Self::FileMissing | Self::RangeOutOfBounds
        )
    }

    /// A one-line explanation for diagnostics.
    pub fn message(self) -> &'static str {
        match self {
            Self::Verified => "the cited range matches its recorded digest at the pinned commit",
            Self::DigestMismatch => "the cited lines at the pinned commit do not match the recorded content_digest",
            Self::CommitMissing => "the local clone does not contain the pinned commit",
            Self::FileMissing => "the cited file does not exist at the pinned commit",
            Self::RangeOutOfBounds => "the cited line range goes past the end of the file at the pinned commit",
            Self::Unpinned => "the reference is not pinned to a full commit",
            Self::NoClone => "no local clone of the repository is configured; the reference is not verifiable here",
            Self::Worktree => "the reference cites uncommitted content; only its digest identifies it",
        }
    }
}

/// One cited range to verify.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeCheck {
    /// Index of the clone in the `repos` slice given to [`verify_all`]; `None` without one.
    pub repo: Option<usize>,
    /// The recorded ref or commit.
    pub commit: String,
    /// Whether the reference is `+worktree` evidence.
    pub worktree: bool,
    /// Repository-root relative path of the cited file.
    pub path: String,
    /// First cited line.
    pub start_line: u64,
    /// Last cited line.
    pub end_line: u64,
    /// The recorded `content_digest`.
    pub digest: Option<String>,
}

/// The verification of one citation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The status.
    pub status: Status,
    /// The definitions the range concerns (see [`FileSymbols::for_range`]); empty unless the
    /// file was read and its language is supported.
    pub symbols: Vec<Definition>,
    /// The digest of the cited lines at the pinned commit, when they exist.
    pub actual_digest: Option<String>,
    /// The file's number of lines at the pinned commit (a final newline ends the last line),
    /// when it was read.
    pub file_lines: Option<u64>,
    /// `file_missing`: the files of the pinned commit the path most likely meant (it is the
    /// end of their path, or they share its name), at most three.
    pub nearby: Vec<String>,
    /// `commit_missing` of an id the clone has as another kind of object: what it is.
    pub not_a_commit: Option<String>,
    /// `commit_missing` in a shallow clone, whose history may only need fetching.
    pub shallow_clone: bool,
    /// `digest_mismatch`: lines near the cited ones whose digest is the recorded one (see
    /// `recorded_lines_near`): the range was likely mistyped.
    pub recorded_at: Option<(u64, u64)>,
    /// The lines (first, last) of a stretch of the file the grammar could not parse that the
    /// range overlaps: the symbols behind it may be missing.
    pub unparsed: Option<(u64, u64)>,
}

/// How far [`recorded_lines_near`] shifts a range, and moves either of its ends.
const SHIFT_SEARCH: u64 = 40;
const END_SEARCH: u64 = 5;

/// For a range `start..=end` of `text` whose digest is not `recorded`: the nearest lines that
/// have it, the same number shifted up to [`SHIFT_SEARCH`] lines, or one end moved up to
/// [`END_SEARCH`]. A range typed one line off (`97-111` for `96-110`) got a hint to re-record
/// the digest of the wrong lines (adoption walk, stop 47); the recorded digest says which
/// lines the page was written from.
fn recorded_lines_near(text: &str, start: u64, end: u64, recorded: &str) -> Option<(u64, u64)> {
    if !crate::formats::text::is_sha256_digest(recorded) {
        return None;
    }
    let lines: Vec<&[u8]> = crate::formats::text::lines(text)
        .map(str::as_bytes)
        .collect();
    let n = lines.len() as u64;
    let has = |a: u64, b: u64| {
        a >= 1
            && a <= b
            && b <= n
            && crate::formats::text::digests_equal(
                recorded,
                &crate::formats::text::lines_digest(&lines[(a - 1) as usize..b as usize]),
            )
    };
    let mut tries: Vec<(u64, u64)> = Vec::new();
    for d in 1..=SHIFT_SEARCH.max(END_SEARCH) {
        if d <= SHIFT_SEARCH {
            tries.extend([
                (start.wrapping_sub(d), end.wrapping_sub(d)),
                (start + d, end + d),
            ]);
        }
        if d <= END_SEARCH {
            tries.extend([
                (start, end.wrapping_sub(d)),
                (start, end + d),
                (start.wrapping_sub(d), end),
                (start + d, end),
            ]);
        }
    }
    // One empty line more is the digest of the cited lines with a trailing newline
    // (`sed -n … | sha256sum`), which the rule's own hint explains.
    let newline_more = |(a, b): (u64, u64)| {
        a == start && b == end + 1 && lines.get(end as usize).is_some_and(|l| l.is_empty())
    };
    tries
        .into_iter()
        .find(|&(a, b)| has(a, b) && !newline_more((a, b)))
}

/// How many files a `file_missing` message offers.
const NEARBY_SHOWN: usize = 3;

/// The files of one commit by file name, listed once for every missing path of that commit
/// (a wrong pin can make thousands of paths missing in a repository of 100k files).
struct FilesByName {
    by_name: HashMap<String, Vec<String>>,
    /// By path without the file's extension (`docs/HISTORY`).
    by_stem: HashMap<String, Vec<String>>,
}

/// `path` without its file's extension, when it has one (`docs/HISTORY.md` -> `docs/HISTORY`).
fn without_extension(path: &str) -> Option<&str> {
    let name_at = path.rfind('/').map_or(0, |i| i + 1);
    match path[name_at..].rfind('.') {
        Some(dot) if dot > 0 => Some(&path[..name_at + dot]),
        _ => None,
    }
}

impl FilesByName {
    fn of(local: &LocalRepo, commit: &str) -> FilesByName {
        let mut by_name: HashMap<String, Vec<String>> = HashMap::new();
        let mut by_stem: HashMap<String, Vec<String>> = HashMap::new();
        for (f, _) in local.files(commit, &[]).unwrap_or_default() {
            if let Some(stem) = without_extension(&f) {
                by_stem.entry(stem.to_string()).or_default().push(f.clone());
            }
            let name = f.rsplit('/').next().unwrap_or(&f).to_string();
            by_name.entry(name).or_default().push(f);
        }
        FilesByName { by_name, by_stem }
    }

    /// The files `path` (missing) most likely meant: those whose path it ends
    /// ("humanize/a.py" for "src/humanize/a.py", a subpath or leading directory left out),
    /// else those with its file name (in path order), else those beside it with its name in
    /// another extension (`HISTORY.rst` for `HISTORY.md`: adoption walk, stop 47); none when
    /// more than [`NEARBY_SHOWN`] would be offered.
    fn nearby(&self, path: &str) -> Vec<String> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let Some(same_name) = self.by_name.get(name) else {
            let other = without_extension(path).and_then(|stem| self.by_stem.get(stem));
            return match other {
                Some(found) if found.len() <= NEARBY_SHOWN => found.clone(),
                _ => Vec::new(),
            };
        };
        let suffix = format!("/{path}");
        let ends: Vec<String> = (same_name.iter())
            .filter(|f| f.ends_with(&suffix))
            .cloned()
            .collect();
        let found = if ends.is_empty() {
            same_name.clone()
        } else {
            ends
        };
        if found.len() > NEARBY_SHOWN {
            Vec::new()
        } else {
            found
        }
    }
}

/// The files of `commit` that `path`, which names none, most likely meant (see
/// `FilesByName::nearby`): at most three, repository-relative, in path order.
pub fn nearby_files(local: &LocalRepo, commit: &str, path: &str) -> Vec<String> {
    FilesByName::of(local, commit).nearby(path)
}

/// What to ask about a `path` that names no file, given the files it most likely meant
/// (`nearby`, not empty): a path with a directory too many in front (`ky/source/x.ts` for
/// `source/x.ts`) is told which, one that is the end of them that it left one out, and any
/// other that it may name another file or directory.
pub fn missing_path_question(path: &str, nearby: &[String]) -> String {
    if let Some(f) = nearby.iter().find(|f| path.ends_with(&format!("/{f}"))) {
        let extra = &path[..path.len() - f.len()];
        return format!("is `{extra}` in front of it a directory too many?");
    }
    if nearby.iter().all(|f| f.ends_with(&format!("/{path}"))) {
        return "did the path leave out a directory?".to_string();
    }
    "did the path name another file or directory?".to_string()
}

/// The number of lines a person counts in `text`: a final newline ends the last line.
fn line_count(text: &str) -> u64 {
    let newlines = memchr::memchr_iter(b'\n', text.as_bytes()).count() as u64;
    newlines + u64::from(!text.is_empty() && !text.ends_with('\n'))
}

/// What one distinct (repository, commit, path) turned out to be.
enum FileState {
    /// With what the id is when it names another kind of object.
    CommitMissing(Option<String>),
    /// Nothing at the path (`true`), or not a readable file there.
    FileMissing(bool),
    Text {
        text: String,
        symbols: Option<FileSymbols>,
    },
}

type Key = (usize, String, String);

fn read_file(local: &LocalRepo, commit: &str, path: &str, with_symbols: bool) -> FileState {
    if !local.has_commit(commit) {
        return FileState::CommitMissing(local.not_a_commit(commit));
    }
    match local.lookup(commit, path) {
        Ok(Lookup::Blob { id, .. }) => match local.blob(id) {
            Ok(bytes) => {
                let text = match String::from_utf8(bytes) {
                    Ok(t) => t,
                    Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
                };
                let symbols = if with_symbols {
                    crate::sources::symbols::extract(path, &text)
                } else {
                    None
                };
                FileState::Text { text, symbols }
            }
            Err(_) => FileState::FileMissing(false),
        },
        Ok(Lookup::Missing) => FileState::FileMissing(true),
        _ => FileState::FileMissing(false),
    }
}

/// Verifies every citation; the result is parallel to `cites`. `with_symbols` also parses each
/// cited file (once) and lists the definitions each range concerns.
pub fn verify_all(repos: &[GitRepo], cites: &[RangeCheck], with_symbols: bool) -> Vec<Outcome> {
    let mut keys: Vec<Key> = cites
        .iter()
        .filter(|c| !c.worktree && crate::formats::text::is_full_commit(&c.commit))
        .filter_map(|c| Some((c.repo?, c.commit.to_ascii_lowercase(), c.path.clone())))
        .filter(|(r, _, _)| *r < repos.len())
        .collect();
    keys.sort();
    keys.dedup();
    let states: Vec<FileState> = keys
        .par_iter()
        .map_init(
            || -> Vec<Option<LocalRepo>> { (0..repos.len()).map(|_| None).collect() },
            |locals, (r, commit, path)| {
                let local = locals[*r].get_or_insert_with(|| repos[*r].local());
                read_file(local, commit, path, with_symbols)
            },
        )
        .collect();
    // The files each missing path most likely meant, each commit's files listed once.
    let mut missing_at: std::collections::BTreeMap<(usize, &str), Vec<usize>> = Default::default();
    for (i, ((r, commit, _), state)) in keys.iter().zip(&states).enumerate() {
        if matches!(state, FileState::FileMissing(true)) {
            missing_at.entry((*r, commit.as_str())).or_default().push(i);
        }
    }
    let mut nearby: Vec<Vec<String>> = vec![Vec::new(); keys.len()];
    let found: Vec<Vec<(usize, Vec<String>)>> = missing_at
        .into_iter()
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|((r, commit), at)| {
            let files = FilesByName::of(&repos[r].local(), commit);
            at.into_iter()
                .map(|i| (i, files.nearby(&keys[i].2)))
                .collect()
        })
        .collect();
    for (i, near) in found.into_iter().flatten() {
        nearby[i] = near;
    }
    // Whether each repository missing a pinned commit is shallow: asked once a repository.
    let mut shallow = vec![false; repos.len()];
    let mut asked = vec![false; repos.len()];
    for ((r, _, _), state) in keys.iter().zip(&states) {
        if matches!(state, FileState::CommitMissing(_)) && !asked[*r] {
            asked[*r] = true;
            shallow[*r] = repos[*r].local().is_shallow();
        }
    }
    let index: HashMap<&Key, (&FileState, &Vec<String>)> =
        keys.iter().zip(states.iter().zip(&nearby)).collect();
    cites
        .par_iter()
        .map(|c| {
            let plain = |status| Outcome {
                status,
                symbols: Vec::new(),
                actual_digest: None,
                file_lines: None,
                nearby: Vec::new(),
                not_a_commit: None,
                shallow_clone: false,
                recorded_at: None,
                unparsed: None,
            };
            if c.worktree {
                return plain(Status::Worktree);
            }
            if !crate::formats::text::is_full_commit(&c.commit) {
                return plain(Status::Unpinned);
            }
            let Some(r) = c.repo.filter(|r| *r < repos.len()) else {
                return plain(Status::NoClone);
            };
            let key = (r, c.commit.to_ascii_lowercase(), c.path.clone());
            match index.get(&key) {
                None => plain(Status::FileMissing),
                Some((FileState::FileMissing(_), nearby)) => Outcome {
                    nearby: (*nearby).clone(),
                    ..plain(Status::FileMissing)
                },
                Some((FileState::CommitMissing(what), _)) => Outcome {
                    not_a_commit: what.clone(),
                    shallow_clone: shallow[r],
                    ..plain(Status::CommitMissing)
                },
                Some((FileState::Text { text, symbols }, _)) => {
                    let actual = crate::formats::text::range_digest(text, c.start_line, c.end_line);
                    let status = match &actual {
                        None => Status::RangeOutOfBounds,
                        Some(d) => match &c.digest {
                            Some(rec) if crate::formats::text::digests_equal(rec, d) => {
                                Status::Verified
                            }
                            _ => Status::DigestMismatch,
                        },
                    };
                    let (symbols, unparsed) = match (status, symbols) {
                        (Status::RangeOutOfBounds, _) | (_, None) => (Vec::new(), None),
                        (_, Some(s)) => (
                            s.for_range(c.start_line, c.end_line)
                                .into_iter()
                                .cloned()
                                .collect(),
                            s.unparsed_in(c.start_line, c.end_line),
                        ),
                    };
                    let recorded_at = match (status, &c.digest) {
                        (Status::DigestMismatch, Some(rec)) => {
                            recorded_lines_near(text, c.start_line, c.end_line, rec)
                        }
                        _ => None,
                    };
                    Outcome {
                        status,
                        symbols,
                        actual_digest: actual,
                        file_lines: Some(line_count(text)),
                        nearby: Vec::new(),
                        not_a_commit: None,
                        shallow_clone: false,
                        recorded_at,
                        unparsed,
                    }
                }
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The build stage: statuses on `CITES` edges, diagnostics, `Symbol` nodes and `OVERLAPS` edges.
// ---------------------------------------------------------------------------------------------

/// The sources stage of the graph build: verifies every resolved repository reference
/// against its local clone (the workspace's own repository for `repo-content:`), at its
/// pinned commit, and adds the symbols behind each cited range.
#[derive(Debug, Clone, Default)]
pub struct VerifyStage {
    clones: CloneMap,
    /// The workspace's repository and the workspace directory relative to its root.
    workspace_repo: Option<(GitRepo, String)>,
    /// Clone names no registered module has, and the registered modules' names.
    unmatched: (Vec<String>, Vec<String>),
}

impl VerifyStage {
    /// A stage over the clones of `ontoly.toml` and `--source` overrides, and the workspace's
    /// own repository (for `repo-content:` references), both already opened by the caller.
    pub fn new(clones: CloneMap, workspace_repo: Option<(GitRepo, String)>) -> VerifyStage {
        VerifyStage {
            clones,
            workspace_repo,
            unmatched: Default::default(),
        }
    }

    /// Also reports `unmatched` clone names (mapped under a `<source>/<module>` name that no
    /// registered module has; `modules` are the registered names, for the message).
    pub fn with_unmatched(mut self, unmatched: Vec<String>, modules: Vec<String>) -> VerifyStage {
        self.unmatched = (unmatched, modules);
        self
    }
}

/// A fingerprint of a clone's refs and object store: a fetch that brings a missing commit
/// changes it, whether or not a ref moves, and so does an alternate that went away.
fn refs_fingerprint(repo: &GitRepo, h: &mut blake3::Hasher) {
    let local = repo.local();
    h.update(local.refs_fingerprint().as_bytes());
    h.update(b"\0");
    h.update(local.objects_fingerprint().as_bytes());
}

impl SourceStage for VerifyStage {
    fn cache_salt(&self, repo_content: bool) -> String {
        let mut h = blake3::Hasher::new();
        h.update(b"verify.v3\0");
        for (key, path) in self.clones.entries() {
            h.update(key.as_bytes());
            h.update(b"\0");
            // Where and how it was mapped: a CLONE_NOT_FOUND finding names the line and the
            // mapping as written (`--source a=../nope`), so another path is another graph.
            if let Some(m) = self.clones.mapping(key) {
                h.update(format!("{}:{}\0{}\0{}\0", m.file, m.line, m.name, m.path).as_bytes());
            }
            match self.clones.open(path) {
                Some(r) => refs_fingerprint(&r, &mut h),
                None => {
                    h.update(b"-");
                }
            }
            h.update(b"\0");
        }
        // Which names match depends on the registry, which cited ranges alone do not show.
        for name in self.unmatched.0.iter().chain(&self.unmatched.1) {
            h.update(name.as_bytes());
            h.update(b"\0");
        }
        // The workspace's own repository matters only to `repo-content:` references; its refs
        // move with every commit, so they must not invalidate the cache of other workspaces.
        if repo_content {
            if let Some((r, root)) = &self.workspace_repo {
                h.update(root.as_bytes());
                refs_fingerprint(r, &mut h);
            }
        }
        h.finalize().to_hex().to_string()
    }

    fn run(&self, cited: &[CitedRange], parts: &mut Parts) {
        for (m, why) in self.clones.broken() {
            // A path typed on the command line is easily meant from the current directory
            // (stop-44 CI walk: `--workspace kb --source NAME=kb/repos/x` from the root).
            let typed_relative = m.is_typed()
                && !std::path::Path::new(&m.path).is_absolute()
                && why == crate::sources::clones::MISSING_CLONE;
            let note = if typed_relative {
                " (a relative --source path is read from the workspace directory, not the current one)"
            } else {
                ""
            };
            parts.findings.push(Finding::new(
                Code::CloneNotFound,
                format!(
                    "the clone mapped by {} {why}{note}; its references stay no_clone, unverified",
                    m.shown()
                ),
                &m.file,
                m.line,
                crate::graph::model::ids::WORKSPACE,
            ));
        }
        let (unmatched, modules) = &self.unmatched;
        for m in unmatched.iter().filter_map(|k| self.clones.mapping(k)) {
            const SHOWN: usize = 10;
            let known = match modules.len() {
                0 => "it registers none".to_string(),
                n if n <= SHOWN => format!("registered: {}", modules.join(", ")),
                n => format!(
                    "registered: {} and {} more",
                    modules[..SHOWN].join(", "),
                    n - SHOWN
                ),
            };
            parts.findings.push(Finding::new(
                Code::CloneUnmatched,
                format!(
                    "the clone mapped by {} names no module of sources/repo/index.yaml ({known}), so no reference is verified with it",
                    m.shown()
                ),
                &m.file,
                m.line,
                crate::graph::model::ids::WORKSPACE,
            ));
        }
        verify_stage(
            &self.clones,
            self.workspace_repo.as_ref().map(|(r, _)| r),
            cited,
            parts,
        );
    }
}

/// Verifies `cited` and records the outcome in `parts`: the `status` of each `CITES` edge,
/// an error diagnostic for `digest_mismatch`, `commit_missing`, `file_missing` and
/// `range_out_of_bounds` (naming the article, section and reference), and a `Symbol` node with an `OVERLAPS` edge from the range for each
/// definition the range concerns.
pub fn verify_stage(
    clones: &CloneMap,
    workspace_repo: Option<&GitRepo>,
    cited: &[CitedRange],
    parts: &mut Parts,
) {
    // The CITES edge of each cited range (the last of equal ids, as a map built in edge order
    // keeps), found by one hash of the borrowed id: 250k cloned ids at 100k sections before.
    let edge_of: Vec<Option<usize>> = {
        // Sized once: collected from a filter, the map grew by rehashing ~20 times.
        let mut index: FastMap<&str, usize> =
            FastMap::with_capacity_and_hasher(cited.len(), Default::default());
        index.extend(
            parts
                .edges
                .iter()
                .enumerate()
                .filter(|(_, e)| e.kind == EdgeKind::Cites)
                .map(|(i, e)| (e.id.as_str(), i)),
        );
        cited
            .iter()
            .map(|c| index.get(c.cites.as_str()).copied())
            .collect()
    };
    let edges = &parts.edges;
    let meta = |ei: Option<usize>, key: &str| -> Option<&str> {
        ei.and_then(|i| edges[i].metadata.get(key))
            .map(String::as_str)
    };
    // Open each clone once; the workspace repository only when a reference needs it.
    let mut repos: Vec<GitRepo> = Vec::new();
    let mut by_path: HashMap<std::path::PathBuf, Option<usize>> = HashMap::new();
    let mut workspace_index: Option<Option<usize>> = None;
    // The repository of each distinct (kind, module, remote, repository): looking up a clone
    // normalizes remotes (a URL parse), and 250k citations name a few repositories.
    let mut repo_of: FastMap<RepoKey<'_>, Option<usize>> = FastMap::default();
    // One check per distinct (target, source_ref, kind): the citations of one reference entry
    // share their target and their edges' metadata, so they verify alike. At 100k sections
    // that is a few thousand checks for 250k citations, where each citation made its own
    // (three strings copied, a repository lookup, a verification).
    let mut first: FastMap<(*const CitedTarget, &str, bool), usize> = FastMap::default();
    let mut check_of = Vec::with_capacity(cited.len());
    let mut cites = Vec::new();
    // The target and `source_ref` of each check, for the registry hints.
    let mut check_targets: Vec<(&CitedTarget, String)> = Vec::new();
    for (c, &ei) in cited.iter().zip(&edge_of) {
        let source_ref = meta(ei, "source_ref").unwrap_or_default();
        let content = meta(ei, "source_kind") == Some("repo-content");
        let next = cites.len();
        let check = *first
            .entry((Arc::as_ptr(&c.target), source_ref, content))
            .or_insert(next);
        check_of.push(check);
        if check != next {
            continue;
        }
        let c = &*c.target;
        let (commit, worktree) = match c.commit.strip_suffix("+worktree") {
            Some(x) => (x.to_string(), true),
            None => (c.commit.clone(), false),
        };
        let module = (!content)
            .then(|| source_ref.strip_prefix("repo:"))
            .flatten();
        let key = (content, module, c.remote.as_deref(), c.repository.as_str());
        let repo = *repo_of.entry(key).or_insert_with(|| {
            if content {
                let mapped = clones.find(Some(&c.repository), None);
                match mapped {
                    Some(p) => open_once(clones, &mut repos, &mut by_path, p),
                    None => *workspace_index.get_or_insert_with(|| {
                        workspace_repo.map(|r| {
                            repos.push(r.clone());
                            repos.len() - 1
                        })
                    }),
                }
            } else {
                let mapped = clones
                    .find(module, c.remote.as_deref())
                    .or_else(|| clones.find(Some(&c.repository), None));
                match mapped {
                    Some(p) => open_once(clones, &mut repos, &mut by_path, p),
                    None => None,
                }
            }
        });
        check_targets.push((c, source_ref.to_string()));
        cites.push(RangeCheck {
            repo,
            commit,
            worktree,
            path: c.path.clone(),
            start_line: c.start_line,
            end_line: c.end_line,
            digest: c.content_digest.clone(),
        });
    }
    drop((repo_of, first));
    let outcomes = verify_all(&repos, &cites, true);
    // How many references each check stands for: two entries citing one range share a check,
    // and a message counting references must agree with every other count of them.
    let mut uses = vec![0usize; cites.len()];
    for (&check, ei) in check_of.iter().zip(&edge_of) {
        if ei.is_some() {
            uses[check] += 1;
        }
    }
    registry_hints(
        &repos,
        &cites,
        &check_targets,
        &outcomes,
        &uses,
        &mut parts.findings,
    );
    drop(check_targets);
    // Each check's edge metadata before and after its status, shared: the citations of one
    // entry share one map (see `resolve`), which one insert per edge would copy 250k times.
    let mut restated: Vec<Option<(Metadata, Metadata)>> = vec![None; outcomes.len()];
    for ((c, &check), &ei) in cited.iter().zip(&check_of).zip(&edge_of) {
        let Some(ei) = ei else {
            continue;
        };
        let outcome = &outcomes[check];
        let (origin, c) = (&c.origin, &*c.target);
        let edge = &mut parts.edges[ei];
        match &restated[check] {
            Some((before, after)) if *before == edge.metadata => {
                edge.metadata = after.clone();
            }
            _ => {
                let before = edge.metadata.clone();
                edge.metadata
                    .insert("status".into(), outcome.status.as_str().to_string());
                edge.metadata = std::mem::take(&mut edge.metadata).share();
                restated[check] = Some((before, edge.metadata.clone()));
            }
        }
        // The article and section of the citing section, for a finding's message.
        let named = |section: &'_ str| -> (String, String) {
            let (a, s) = (section.strip_prefix("section:"))
                .and_then(|s| s.rsplit_once('#'))
                .unwrap_or(("?", "?"));
            (a.to_string(), s.to_string())
        };
        if let Some(code) = status_code(outcome.status) {
            let section = edge.from.clone();
            let (article, section_id) = named(&section);
            let source_ref = edge.metadata.get("source_ref").cloned().unwrap_or_default();
            parts.findings.push(
                Finding::new(
                    code,
                    format!(
                        "{}: article `{article}`, section `{section_id}`, reference `{source_ref}` {}#L{}-L{} @ {}: {}{}",
                        outcome.status.as_str(),
                        c.path,
                        c.start_line,
                        c.end_line,
                        c.commit,
                        outcome.status.message(),
                        explain(c, outcome, &source_ref),
                    ),
                    &origin.file,
                    origin.line,
                    section,
                )
                .with_discriminator(c.range.clone()),
            );
        }
        if let Some((a, b)) = outcome.unparsed {
            let section = edge.from.clone();
            let (article, section_id) = named(&section);
            // Definitions can still be found in a broken stretch (the grammar recovers): then
            // the range has its symbols, and what is not known is whether others are missing.
            let consequence = match outcome.symbols.as_slice() {
                [] => "so the definitions written there are not known and no symbol may stand behind the range".to_string(),
                found => {
                    let mut names: Vec<String> = Vec::new();
                    for d in found {
                        let n = format!("{} `{}`", d.kind.as_str(), d.name);
                        if !names.contains(&n) {
                            names.push(n);
                        }
                    }
                    let more = names.len().saturating_sub(3);
                    names.truncate(3);
                    let mut list = names.join(", ");
                    if more > 0 {
                        list.push_str(&format!(" and {more} more"));
                    }
                    format!("so definitions written there may be missing (found for the range all the same: {list})")
                }
            };
            parts.findings.push(
                Finding::new(
                    Code::SymbolsIncomplete,
                    format!(
                        "article `{article}`, section `{section_id}`: {}#L{}-L{} @ {}: the grammar of its language could not parse lines {a}-{b} of the file, {consequence} (the digest is checked as usual)",
                        c.path, c.start_line, c.end_line, c.commit,
                    ),
                    &origin.file,
                    origin.line,
                    section,
                )
                .with_discriminator(c.range.clone()),
            );
        }
        for d in &outcome.symbols {
            let id = ids::symbol(
                &c.repository,
                &c.commit,
                &c.path,
                d.kind.as_str(),
                &d.qualified,
                d.start_line,
                d.end_line,
            );
            let n = Node {
                id: id.clone(),
                kind: NodeKind::Symbol,
                name: d.qualified.clone(),
                file: Some(c.path.clone()),
                span: Some(Span {
                    file: c.path.clone(),
                    start_line: d.start_line,
                    end_line: d.end_line,
                }),
                package: Some(c.repository.clone()),
                metadata: {
                    let mut m = Metadata::from([
                        ("kind", d.kind.as_str().to_string()),
                        ("name", d.name.clone()),
                        ("commit", c.commit.clone()),
                    ]);
                    // Names hold no spaces: one value, read back by `walk::aliases`.
                    if !d.aliases.is_empty() {
                        m.insert("alias".into(), d.aliases.join(" "));
                    }
                    // Its qualified name (and its id) is shared by every impl of its type;
                    // this one is what people read (`walk::title`).
                    if let Some(written) = &d.written {
                        m.insert("written".into(), written.clone());
                    }
                    // A member a loop makes: the loop's lines, the list, and the names
                    // it makes when the file writes them (`walk::made_by_loop`).
                    if let Some(g) = &d.generated {
                        m.insert("loop".into(), format!("{}-{}", g.first_line, g.last_line));
                        m.insert("over".into(), g.over.clone());
                        if !g.names.is_empty() {
                            m.insert("made".into(), g.names.join(" "));
                        }
                    }
                    m
                },
            };
            parts.nodes.push(n);
            // A fact of the range, not of one citation: no origin, so several citations of
            // one range share one edge.
            parts
                .edges
                .push(Edge::new(EdgeKind::Overlaps, c.range.clone(), id, None));
        }
    }
}

/// Fewest failed references of a module before its pin is suspected.
const PIN_SUSPECT_MIN: usize = 3;
/// How many of the clone's commits are tried as the one the pages were written from.
const PIN_SEARCH: usize = 200;
/// How many failed references a candidate commit must verify to be named.
const PIN_SAMPLE: usize = 5;

/// Registry mistakes that every reference of a module pays for, said once where they are
/// fixed (the module's `ref:` line): a ref that is an abbreviated commit or a branch the
/// clone resolves (each reference only says it is unpinned), and a pin at which most of the
/// module's references fail (each reference's message then offers the digest at that pin,
/// which would re-record every reference at the wrong commit). For the second, the clone's
/// newest commits are tried for the one at which the failed references' recorded digests
/// match: the commit the pages were written from.
fn registry_hints(
    repos: &[GitRepo],
    cites: &[RangeCheck],
    targets: &[(&CitedTarget, String)],
    outcomes: &[Outcome],
    uses: &[usize],
    findings: &mut Vec<Finding>,
) {
    let mut modules: std::collections::BTreeMap<(&str, &str), Vec<usize>> = Default::default();
    for (i, (t, source_ref)) in targets.iter().enumerate() {
        if source_ref.starts_with("repo:") && t.pinned_at.is_some() && cites[i].repo.is_some() {
            (modules.entry((source_ref.as_str(), t.commit.as_str())))
                .or_default()
                .push(i);
        }
    }
    for ((source_ref, commit), checks) in modules {
        let first = checks[0];
        let (Some(at), Some(repo)) = (
            &targets[first].0.pinned_at,
            cites[first].repo.and_then(|r| repos.get(r)),
        ) else {
            continue;
        };
        let module = source_ref.strip_prefix("repo:").unwrap_or(source_ref);
        let local = repo.local();
        let references: usize = checks
            .iter()
            .map(|&i| uses.get(i).copied().unwrap_or(1))
            .sum();
        if outcomes[first].status == Status::Unpinned {
            let finding = match local.resolve(commit) {
                Ok(full) => Finding::new(
                    Code::SourceUnpinned,
                    format!(
                        "module `{module}` is pinned to `{commit}`, which its clone resolves to {full}: write that full commit as the `ref` here to pin the module, and its {references} reference(s) are checked against it"
                    ),
                    &at.file,
                    at.line,
                    ids::WORKSPACE,
                ),
                // The writer meant to pin and the pin names nothing the clone has (a commit
                // cut or doubled in copy-paste, a branch mistyped): an error, as a full
                // commit the clone lacks is, not one unpinned warning per reference.
                Err(e) => Finding::new(
                    Code::SourceCommitMissing,
                    format!(
                        "module `{module}` is pinned to `{commit}`, which its clone does not resolve{}, so none of its {references} reference(s) is verified{}",
                        unresolved_why(commit, e),
                        unresolved_hint(&local, commit),
                    ),
                    &at.file,
                    at.line,
                    ids::WORKSPACE,
                ),
            };
            findings.push(finding);
            continue;
        }
        let missing = &outcomes[first];
        if missing.status == Status::CommitMissing
            && missing.not_a_commit.is_none()
            && !missing.shallow_clone
        {
            let near = match near_commit(&local, commit) {
                Some(c) => format!(
                    "; the clone has {c}, {}: if that is the commit, write it here",
                    how_near(commit, &c)
                ),
                None => "; fetch it into the clone, or fix the ref".to_string(),
            };
            findings.push(Finding::new(
                Code::SourceCommitMissing,
                format!(
                    "module `{module}` is pinned to {commit}, which its clone does not contain, so none of its {references} reference(s) is verified{near}"
                ),
                &at.file,
                at.line,
                ids::WORKSPACE,
            ));
            continue;
        }
        let failed: Vec<usize> = (checks.iter().copied())
            .filter(|&i| {
                matches!(
                    outcomes[i].status,
                    Status::DigestMismatch | Status::RangeOutOfBounds
                )
            })
            .collect();
        let verified = (checks.iter())
            .filter(|&&i| outcomes[i].status == Status::Verified)
            .count();
        if failed.len() < PIN_SUSPECT_MIN || failed.len() < verified {
            continue;
        }
        let matches_at = |i: usize, at_commit: &str| {
            let c = &cites[i];
            let FileState::Text { text, .. } = read_file(&local, at_commit, &c.path, false) else {
                return false;
            };
            let actual = crate::formats::text::range_digest(&text, c.start_line, c.end_line);
            matches!((actual, &c.digest), (Some(a), Some(rec)) if crate::formats::text::digests_equal(rec, &a))
        };
        let sample: Vec<usize> = failed.iter().copied().take(PIN_SAMPLE).collect();
        let found = (local.commits_newest_first(PIN_SEARCH).into_iter())
            .filter(|c| !c.eq_ignore_ascii_case(commit))
            .find(|c| sample.iter().all(|&i| matches_at(i, c)));
        let short = commit.get(..12).unwrap_or(commit);
        let failing = format!(
            "{} of the {} references of `{module}` compared at its pinned commit {short} fail there",
            failed.len(),
            failed.len() + verified
        );
        let message = match found {
            Some(c) => {
                let n = failed.iter().filter(|&&i| matches_at(i, &c)).count();
                format!(
                    "{failing}, and {n} of them match their recorded digests at {c}: the pages were likely written from that commit. If so, write it as the `ref` here, then `ontoly drift --to {short} --write` re-anchors the module to {short}; re-recording each digest at {short} instead would cite code the pages were not written from"
                )
            }
            None => format!(
                "{failing}: check that this `ref` is the commit the pages were written from (no commit among the clone's {PIN_SEARCH} newest matches their recorded digests)"
            ),
        };
        findings.push(Finding::new(
            Code::SourcePinSuspect,
            message,
            &at.file,
            at.line,
            ids::WORKSPACE,
        ));
    }
}

/// How many of the clone's newest commits are compared with a pin it does not contain.
const NEAR_SEARCH: usize = 1000;
/// A pin and a commit sharing this many leading digits are one commit mistyped at its end.
const NEAR_PREFIX: usize = 12;

/// The commit of `local` that a pin it does not contain most likely meant: one sharing its
/// first [`NEAR_PREFIX`] digits, else one of the newest [`NEAR_SEARCH`] one or two digits
/// away (a typo or a transposition), first in newest-first order when several are.
fn near_commit(local: &LocalRepo, pin: &str) -> Option<String> {
    let pin = pin.to_ascii_lowercase();
    if let Some(prefix) = pin.get(..NEAR_PREFIX) {
        if let Ok(c) = local.resolve(prefix) {
            if c != pin {
                return Some(c);
            }
        }
    }
    (local.commits_newest_first(NEAR_SEARCH).into_iter())
        .filter(|c| c.len() == pin.len() && *c != pin)
        .find(|c| c.bytes().zip(pin.bytes()).filter(|(a, b)| a != b).count() <= 2)
}

/// Why a `ref` that is no full commit names nothing in its clone, for its message.
fn unresolved_why(pin: &str, e: crate::sources::git::RevisionError) -> String {
    use crate::sources::git::RevisionError;
    let hex = pin.bytes().all(|b| b.is_ascii_hexdigit());
    match e {
        RevisionError::Ambiguous => " (more than one commit starts with it)".into(),
        RevisionError::ShortSha => format!(
            " (an abbreviated commit needs at least {} digits)",
            crate::sources::git::MIN_SHORT_SHA
        ),
        _ if hex && pin.len() > 12 => format!(
            " ({} hex digits: a full commit has 40, and no commit, branch or tag is named so)",
            pin.len()
        ),
        _ => " (no commit, branch or tag is named so)".into(),
    }
}

/// What the clone has that an unresolved `ref` most likely meant: a commit sharing its first
/// digits, else a branch or tag a typo away, else the names it has.
fn unresolved_hint(local: &LocalRepo, pin: &str) -> String {
    if pin.bytes().all(|b| b.is_ascii_hexdigit()) {
        if let Some(c) = near_commit(local, pin) {
            return format!(
                "; the clone has {c}, {}: if that is the commit, write it here",
                how_near(pin, &c)
            );
        }
    }
    let (branches, tags) = local.revision_names();
    let names = || branches.iter().chain(&tags).map(String::as_str);
    // A swap of two letters is one typo (`mian`), which the shared did-you-mean counts as two
    // edits, too many for a four-letter name.
    let swapped = || names().find(|n| strsim::osa_distance(pin, n) == 1);
    let meant = crate::suggest::nearest(pin, names()).or_else(swapped);
    match meant.map(|n| (n, local.resolve(n))) {
        Some((name, Ok(full))) => format!(
            "; did you mean `{name}`? It names {full}: write that full commit here to pin the module"
        ),
        _ => format!(
            "; fix the ref, or fetch what it names into the clone{}",
            local.revision_names_note()
        ),
    }
}

/// How `commit` differs from `pin`, for a person comparing 40 digits by eye.
fn how_near(pin: &str, commit: &str) -> String {
    let differ: Vec<usize> = (pin.bytes().zip(commit.bytes()).enumerate())
        .filter(|(_, (a, b))| !a.eq_ignore_ascii_case(b))
        .map(|(i, _)| i + 1)
        .collect();
    if pin.len() != commit.len() {
        let shared = (pin.bytes().zip(commit.bytes()))
            .take_while(|(a, b)| a.eq_ignore_ascii_case(b))
            .count();
        return format!(
            "which shares the pin's first {shared} digits (the pin has {}, a commit {})",
            pin.len(),
            commit.len()
        );
    }
    match differ.as_slice() {
        [d] => format!("which differs from the pin in digit {d} only"),
        [a, b] => format!("which differs from the pin in digits {a} and {b} only"),
        _ => {
            let shared = (pin.bytes().zip(commit.bytes()))
                .take_while(|(a, b)| a.eq_ignore_ascii_case(b))
                .count();
            format!("which shares the pin's first {shared} digits")
        }
    }
}

/// What to do about a failed verification: the facts a person needs to fix it.
fn explain(c: &CitedTarget, outcome: &Outcome, source_ref: &str) -> String {
    match outcome.status {
        Status::DigestMismatch => {
            // The command to paste, with what this reference names (a module of the repo
            // registry); placeholders only where there is no module to name.
            let command = match source_ref.strip_prefix("repo:") {
                Some(module) if !module.is_empty() => format!(
                    "ontoly digest {}:{}-{} --source {module} --rev {}",
                    c.path,
                    c.start_line,
                    c.end_line,
                    c.commit.get(..12).unwrap_or(&c.commit)
                ),
                _ => format!(
                    "ontoly digest PATH:{}-{} --source MODULE --rev COMMIT",
                    c.start_line, c.end_line
                ),
            };
            let recorded = c.content_digest.as_deref().unwrap_or("(none)");
            let actual = outcome.actual_digest.as_deref().unwrap_or("(none)");
            if let Some((a, b)) = outcome.recorded_at {
                return format!(
                    "; recorded {recorded}, actual {actual}. The recorded digest is that of lines {a}-{b}: if the page was written from those, the range is mistyped (write start_line {a}, end_line {b}); re-recording the digest of {}-{} would cite lines the page was not written from",
                    c.start_line, c.end_line
                );
            }
            format!(
                "; recorded {recorded}, actual {actual}. The digest is the sha256 of lines {}-{} joined by \\n, with no trailing newline (`sed -n {},{}p | sha256sum` hashes one more newline); `{command}` prints the entry",
                c.start_line,
                c.end_line,
                c.start_line,
                c.end_line,
            )
        }
        Status::CommitMissing if outcome.not_a_commit.is_some() => format!(
            "; the clone has it, as {}: pin a commit{}",
            outcome.not_a_commit.as_deref().unwrap_or_default(),
            c.pinned_at
                .as_ref()
                .map(|at| format!(" at {}:{}", at.file, at.line))
                .unwrap_or_default()
        ),
        Status::CommitMissing if outcome.shallow_clone => {
            format!("; {}", crate::sources::git::SHALLOW_CLONE)
        }
        Status::CommitMissing => match &c.pinned_at {
            Some(at) => format!(
                "; the commit is pinned at {}:{}: fetch it into the clone, or fix the ref",
                at.file, at.line
            ),
            None => "; fetch it into the clone, or fix the ref".to_string(),
        },
        Status::FileMissing if !outcome.nearby.is_empty() => format!(
            "; the commit has {} (repository-relative): {}",
            (outcome.nearby.iter())
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", "),
            missing_path_question(&c.path, &outcome.nearby)
        ),
        Status::RangeOutOfBounds => match outcome.file_lines {
            Some(n) => format!(
                "; the file has {n} line{} at that commit",
                if n == 1 { "" } else { "s" }
            ),
            None => String::new(),
        },
        _ => String::new(),
    }
}

/// What picks a citation's repository: `repo-content:` or not, the module, the remote and
/// the repository identity.
type RepoKey<'a> = (bool, Option<&'a str>, Option<&'a str>, &'a str);

fn open_once(
    clones: &CloneMap,
    repos: &mut Vec<GitRepo>,
    by_path: &mut HashMap<std::path::PathBuf, Option<usize>>,
    path: &std::path::Path,
) -> Option<usize> {
    *by_path.entry(path.to_path_buf()).or_insert_with(|| {
        clones.open(path).map(|r| {
            repos.push(r);
            repos.len() - 1
        })
    })
}

/// The diagnostic code of a status. Only statuses that say the evidence is wrong get one:
/// unpinned references already have the resolver's `SOURCE_UNPINNED`, and `no_clone` /
/// `worktree` say nothing about the evidence (they stay on the edge and in `ontoly stats`),
/// which keeps a workspace without clones free of one diagnostic per reference.
fn status_code(s: Status) -> Option<Code> {
    match s {
        Status::Verified | Status::Unpinned | Status::NoClone | Status::Worktree => None,
        Status::DigestMismatch => Some(Code::ReferenceDigestMismatch),
        Status::CommitMissing => Some(Code::ReferenceCommitMissing),
        Status::FileMissing => Some(Code::ReferenceFileMissing),
        Status::RangeOutOfBounds => Some(Code::ReferenceRangeOutOfBounds),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::text::range_digest;

    #[test]
    fn the_lines_a_recorded_digest_names_are_found_near_a_mistyped_range() {
        let text: String = (1..=120).map(|i| format!("line {i}\n")).collect();
        let d = |a, b| range_digest(&text, a, b).expect("a range");
        // Shifted by one, by forty, and an end one past: found; the nearest first.
        assert_eq!(
            recorded_lines_near(&text, 97, 111, &d(96, 110)),
            Some((96, 110))
        );
        assert_eq!(
            recorded_lines_near(&text, 50, 55, &d(90, 95)),
            Some((90, 95))
        );
        assert_eq!(
            recorded_lines_near(&text, 10, 21, &d(10, 20)),
            Some((10, 20))
        );
        // Too far, another length, or no digest at all: nothing is said.
        assert_eq!(recorded_lines_near(&text, 10, 20, &d(60, 70)), None);
        assert_eq!(recorded_lines_near(&text, 10, 20, &d(10, 30)), None);
        assert_eq!(recorded_lines_near(&text, 10, 20, "sha256:00"), None);
        assert_eq!(recorded_lines_near(&text, 1, 3, &d(118, 120)), None);
        // The cited lines hashed with a trailing newline are no other range.
        assert_eq!(recorded_lines_near(&text, 118, 120, &d(118, 121)), None);
    }

    #[test]
    fn a_path_is_read_without_its_extension() {
        assert_eq!(without_extension("docs/HISTORY.md"), Some("docs/HISTORY"));
        assert_eq!(without_extension("a.tar.gz"), Some("a.tar"));
        assert_eq!(without_extension("Makefile"), None);
        assert_eq!(without_extension("dir.d/.gitignore"), None);
    }
}
