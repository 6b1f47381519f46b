//! Commit-pinned reads: `read`, `read_many`, `search` and `resolve` over local clones, with the
//! rules of the reads contract (`spec/reads.md`).
//!
//! This is a library API: the CLI and the MCP server call [`Reader`] directly and serialize its
//! results (camelCase JSON) or its errors (`{code, message}`). Every read of one request stays
//! on one commit: a branch is resolved once, up front. Messages name the repository by its
//! public name and the path as requested, never a disk location or a remote's credentials.

use crate::diagnostics::Code;
use crate::sources::git::{LocalRepo, Lookup, RevisionError};
use crate::sources::repositories::{ReadableRepo, RepoLookupError, Repositories, WORKTREE};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

mod lines;
mod search;

use lines::{decode_text, requested_range, slice, Slice};

/// Lines one read returns at most.
pub const MAX_READ_LINES: u64 = 500;
/// Bytes of whole lines one read returns at most (256 KiB).
pub const MAX_READ_BYTES: usize = 256 * 1024;
/// Items of one `read_many` request.
pub const MAX_BATCH_ITEMS: usize = 10;
/// Lines of one whole `read_many` batch.
pub const MAX_BATCH_LINES: u64 = 1000;
/// Bytes of one whole `read_many` batch (256 KiB).
pub const MAX_BATCH_BYTES: usize = 256 * 1024;
/// Files one search reports at most.
pub const MAX_SEARCH_FILES: usize = 100;
/// Matches reported per file at most.
pub const MAX_SEARCH_MATCHES_PER_FILE: usize = 50;
/// Bytes of matched line text one search reports at most.
pub const MAX_SEARCH_BYTES: usize = 64 * 1024;
/// A matched line longer than this is cut (at a character boundary).
pub const MAX_SEARCH_LINE_BYTES: usize = 500;

/// A failed read: a contract code and a one-line message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ReadError {
    /// The code.
    pub code: Code,
    /// What went wrong, naming the repository and path as requested.
    pub message: String,
}

fn err(code: Code, message: impl Into<String>) -> ReadError {
    ReadError {
        code,
        message: message.into(),
    }
}

/// `resolve` input.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolveRequest {
    /// Repository name (`owner/name`, `<source>/<module>`, or a remote).
    #[serde(alias = "repo")]
    pub repository: String,
    /// Branch, tag or commit (see [`LocalRepo::resolve`]); the default branch when absent.
    #[serde(default)]
    pub revision: Option<String>,
}

/// `resolve` output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolveResult {
    /// The repository's public name.
    pub repository: String,
    /// The revision as resolved (the default branch's name when none was given).
    pub revision: String,
    /// The full commit.
    pub commit: String,
}

/// `read` input.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadRequest {
    /// Repository name.
    #[serde(alias = "repo")]
    pub repository: String,
    /// Branch, tag or commit (see [`LocalRepo::resolve`]); the default branch when absent.
    #[serde(default)]
    pub revision: Option<String>,
    /// Repository-root relative path.
    pub path: String,
    /// First line, 1-based (default 1).
    #[serde(default, alias = "startLine")]
    pub start_line: Option<i64>,
    /// Last line, inclusive (default start + 499).
    #[serde(default, alias = "endLine")]
    pub end_line: Option<i64>,
}

/// `read` output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadResult {
    /// The repository's public name.
    pub repository: String,
    /// The revision as requested, or the default branch it resolved when none was given.
    pub revision: String,
    /// The full commit read.
    pub commit: String,
    /// The path as requested.
    pub path: String,
    /// First returned line.
    pub start_line: u64,
    /// Last returned line (`start_line - 1` when nothing was returned).
    pub end_line: u64,
    /// The line to continue from, when `has_more`.
    pub next_start_line: Option<u64>,
    /// Whether the file goes on after `end_line`.
    pub has_more: bool,
    /// Whether the 500-line clamp or a byte budget cut requested content off.
    pub truncated: bool,
    /// The returned lines, as in the file (line endings kept).
    pub content: String,
    /// For a knowledge page: the YAML references (or diagnostics) of the overlapping sections.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
}

impl ReadResult {
    /// The text an agent receives: the content, then the evidence after a blank line.
    pub fn text(&self) -> String {
        let mut out = self.content.clone();
        if let Some(ev) = &self.evidence {
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            out.push('\n');
            out.push_str(ev);
        }
        out
    }
}

/// One item of a `read_many` request.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadManyItem {
    /// Repository-root relative path.
    pub path: String,
    /// First line (default 1).
    #[serde(default, alias = "startLine")]
    pub start_line: Option<i64>,
    /// Last line (default start + 499).
    #[serde(default, alias = "endLine")]
    pub end_line: Option<i64>,
}

/// `read_many` input: 1–10 items against one repository and revision.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadManyRequest {
    /// Repository name.
    #[serde(alias = "repo")]
    pub repository: String,
    /// Branch, tag or commit, resolved once for every item.
    #[serde(default)]
    pub revision: Option<String>,
    /// The items, in request order.
    pub items: Vec<ReadManyItem>,
}

/// One item's outcome: its read (when any content was returned) and/or its error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadManyItemResult {
    /// The path as requested.
    pub path: String,
    /// First returned line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u64>,
    /// Last returned line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u64>,
    /// Where to continue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_start_line: Option<u64>,
    /// Whether the file goes on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_more: Option<bool>,
    /// Whether content was cut off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    /// The returned lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// Evidence of a knowledge page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
    /// The item's error (`Item N: …`); with content only for `READ_BUDGET_EXCEEDED`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ReadError>,
    /// With no revision asked, when the workspace cites this file only at other commits:
    /// which revision to pass. Set by callers that hold the graph (a `read`'s `note`), as the
    /// reader knows no references.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `read_many` output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadManyResult {
    /// The repository's public name.
    pub repository: String,
    /// The revision as requested, or the default branch.
    pub revision: String,
    /// The one commit every item was read at.
    pub commit: String,
    /// One result per item, in request order.
    pub items: Vec<ReadManyItemResult>,
}

/// What a search reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchOutput {
    /// Matching lines.
    #[default]
    Content,
    /// Matching file paths only.
    Files,
}

/// `search` input.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchRequest {
    /// Repository name.
    #[serde(alias = "repo")]
    pub repository: String,
    /// Branch, tag or commit.
    #[serde(default)]
    pub revision: Option<String>,
    /// A regular expression (or a literal with `fixed_strings`), matched line by line.
    pub pattern: String,
    /// Treat the pattern as a literal string.
    #[serde(default, alias = "fixedStrings")]
    pub fixed_strings: bool,
    /// Match case-insensitively.
    #[serde(default, alias = "ignoreCase")]
    pub ignore_case: bool,
    /// Ordered globs; `!` excludes; the last matching glob decides.
    #[serde(default, alias = "globs")]
    pub glob: Vec<String>,
    /// Path prefixes (directories or files) to search under.
    #[serde(default)]
    pub paths: Vec<String>,
    /// `content` (default) or `files`.
    #[serde(default)]
    pub output: SearchOutput,
}

/// One matching line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchMatch {
    /// 1-based line.
    pub line: u64,
    /// The line's text (cut at [`MAX_SEARCH_LINE_BYTES`]).
    pub text: String,
    /// Whether `text` was cut.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// One file with matches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchFile {
    /// Repository-root relative path.
    pub path: String,
    /// Matching lines (`content` output only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub matches: Vec<SearchMatch>,
}

/// `search` output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchResult {
    /// The repository's public name.
    pub repository: String,
    /// The revision as requested, or the default branch.
    pub revision: String,
    /// The commit searched.
    pub commit: String,
    /// Files with matches, in path order.
    pub files: Vec<SearchFile>,
    /// Whether a bound (files, matches per file, bytes) left results out. Even when false,
    /// a search is never proof that something is absent.
    pub truncated: bool,
}

/// What the evidence hook receives for one read of a knowledge page.
pub struct PageRead<'a> {
    /// The workspace directory relative to the repository root ("" at the root).
    pub workspace_root: &'a str,
    /// The page's repository-root relative path.
    pub path: &'a str,
    /// The returned range.
    pub start_line: u64,
    /// The returned range's last line.
    pub end_line: u64,
    /// The repository's normalized remote key (`github.com/acme/docs`), when it has one.
    pub remote_key: Option<&'a str>,
    /// The commit read.
    pub commit: &'a str,
    /// Reads another file of the repository at the same commit (repository-root relative);
    /// `None` when it is missing, not a file, or not a safe path.
    pub read_file: &'a (dyn Fn(&str) -> Option<Vec<u8>> + Sync),
}

/// Renders the references appended to reads of knowledge pages (`formats.md`, "References
/// output"). Returns the YAML text (ending in a newline), or `None` when there is nothing to
/// append. It must never fail the read: problems belong in its `diagnostics:`.
pub trait EvidenceHook: Send + Sync {
    /// The YAML for `page`.
    fn references(&self, page: &PageRead<'_>) -> Option<String>;
}

/// The references output of `formats.md` ("References output"), rendered by
/// [`crate::formats::references`] from the page, the structure and the registries at the commit
/// read. One value serves every read of a reader: the structure is parsed again only when its
/// bytes differ from the last read's.
#[derive(Debug, Clone, Default)]
pub struct WorkspaceReferences {
    structures: Arc<crate::formats::references::StructureCache>,
}

impl EvidenceHook for WorkspaceReferences {
    fn references(&self, page: &PageRead<'_>) -> Option<String> {
        let files =
            |path: &str| -> Result<Vec<u8>, crate::formats::source_registry::FileReadError> {
                (page.read_file)(path)
                    .ok_or(crate::formats::source_registry::FileReadError::Unreadable)
            };
        // The knowledge repository's identity for `repo-content:` references: its remote
        // with any credentials already stripped (a clone's configured URL may carry a token).
        let identity = page.remote_key.map(|k| format!("https://{k}"));
        crate::formats::references::ReferenceContext::new(
            &files,
            page.workspace_root,
            identity.as_deref(),
        )
        .with_structure_cache(self.structures.clone())
        .references_for_range(&crate::formats::references::RangeQuery {
            path: page.path,
            start_line: page.start_line,
            end_line: page.end_line,
            include_digest: false,
        })
        .to_yaml()
    }
}

/// Serves pinned reads over the repositories of one workspace. `Send + Sync`: share one
/// `Reader` between concurrent requests.
#[derive(Clone)]
pub struct Reader {
    repos: Arc<Repositories>,
    evidence: Option<Arc<dyn EvidenceHook>>,
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("repos", &self.repos.repos.len())
            .finish()
    }
}

/// Whether a path follows the path rules: relative, UTF-8, `/`-separated, no empty, `.` or
/// `..` segments, no backslash, no control characters
/// ([`crate::formats::location::read_path_fault`]).
pub fn is_valid_path(path: &str) -> bool {
    crate::formats::location::read_path_fault(path).is_none()
}

fn check_path(path: &str) -> Result<(), ReadError> {
    let Some(why) = crate::formats::location::read_path_fault(path) else {
        return Ok(());
    };
    const RULE: &str = "paths are repository-root relative, without a leading '/', '.', '..' or empty segments, backslashes or control characters";
    // A shell user types `./src/x.py`: say what the valid spelling is (the rest of the path is
    // the user's own and valid, so echoing it leaks nothing they did not type).
    let fixed = path.trim_start_matches("./");
    if fixed != path && is_valid_path(fixed) {
        return Err(err(
            Code::InvalidPath,
            format!("Invalid path: {RULE}: drop the leading './' ({fixed})"),
        ));
    }
    // Which rule, and the path as given when it can be shown on one line: "Invalid path" alone
    // was the same sentence for `../repo.git/config`, `/etc/passwd` and `src\\app.py` (MCP
    // walk, stop 59).
    let shown = if path.chars().any(char::is_control) || path.chars().count() > 200 {
        String::new()
    } else {
        format!(" '{path}'")
    };
    Err(err(
        Code::InvalidPath,
        format!("Invalid path{shown}: it {why}; {RULE}"),
    ))
}

/// What a message says for a name it does not echo, read in its place ("Repository (name not
/// shown …) is not a known repository"): it read "Repository the requested repository is …".
const HIDDEN_NAME: &str = "(name not shown: it may hold a credential or a control character)";

/// A requested name echoed in a message: only when it cannot carry credentials.
fn shown_name(name: &str) -> String {
    // A message is one line: a name with control characters is not echoed at all (fuzzing found
    // a newline kept inside a remote-like name's key).
    if name.chars().any(char::is_control) {
        return HIDDEN_NAME.to_string();
    }
    if name.contains('@') || name.contains(':') {
        match crate::sources::clones::remote_key(name) {
            Some(k) => {
                let k = crate::formats::remote::redact(&k);
                // Whatever parsing made of the name, the key shown must not hold text that
                // stood before an `@` in it (a user or a password): fuzzing keeps finding
                // names whose user-info one parser reads as a host or a path.
                if before_at(name).any(|u| u.len() >= 3 && u != "git" && k.contains(u)) {
                    HIDDEN_NAME.to_string()
                } else {
                    format!("'{k}'")
                }
            }
            None => HIDDEN_NAME.to_string(),
        }
    } else {
        format!("'{name}'")
    }
}

/// The text before each `@` of `name` back to a separator, whole and split at `:` (a user, a
/// password, or both): what a shown name must not carry.
fn before_at(name: &str) -> impl Iterator<Item = &str> {
    name.match_indices('@').flat_map(move |(at, _)| {
        let start = name[..at]
            .rfind(|c: char| c == '/' || c.is_whitespace() || "`'\"(<[{".contains(c))
            .map_or(0, |i| i + 1);
        let user = &name[start..at];
        std::iter::once(user).chain(user.split(':'))
    })
}

/// A repository opened at one resolved commit, or a work tree (no git: `local` is `None`,
/// the commit is [`WORKTREE`]).
struct Pinned<'a> {
    repo: &'a ReadableRepo,
    local: Option<LocalRepo>,
    commit: String,
    revision: String,
    /// No revision was asked for: the default branch was read, which a miss names (the file
    /// may exist at the commit the workspace cites).
    defaulted: bool,
}

/// The bytes of `path` (already validated) in the work tree at `root`; `None` when missing,
/// not a file, or a symlink that leaves the tree.
fn worktree_file(root: &std::path::Path, path: &str) -> Result<Vec<u8>, ReadError> {
    let full = root.join(path);
    let missing = || {
        err(
            Code::FileNotFound,
            format!("File not found: '{path}' does not exist in the work tree"),
        )
    };
    let real = full.canonicalize().map_err(|_| missing())?;
    if !real.starts_with(root) {
        return Err(err(
            Code::FileNotFound,
            format!("File not found: '{path}' is a symlink that leaves the work tree"),
        ));
    }
    if real.is_dir() {
        return Err(err(
            Code::NotAFile,
            format!("Not a file: '{path}' is a directory"),
        ));
    }
    // Only a regular file is read: opening a FIFO blocks until a writer comes (the read, and
    // an MCP request, never answered), a device may never end.
    if !std::fs::metadata(&real).is_ok_and(|m| m.is_file()) {
        return Err(err(
            Code::NotAFile,
            format!("Not a file: '{path}' is not a regular file"),
        ));
    }
    std::fs::read(&real).map_err(|_| missing())
}

impl Reader {
    /// A reader over `repos`, without evidence for knowledge pages.
    pub fn new(repos: Arc<Repositories>) -> Reader {
        Reader {
            repos,
            evidence: None,
        }
    }

    /// Appends evidence from `hook` to reads of knowledge pages.
    pub fn with_evidence(mut self, hook: Arc<dyn EvidenceHook>) -> Reader {
        self.evidence = Some(hook);
        self
    }

    /// The repositories this reader knows.
    pub fn repositories(&self) -> &Repositories {
        &self.repos
    }

    fn pin(&self, name: &str, revision: Option<&str>) -> Result<Pinned<'_>, ReadError> {
        // `github.com/o/r@46746648b35e`, a pinned label's beginning copied whole as the
        // repository (MCP walk, stop 59: it was refused as a name that may hold a
        // credential): the repository at that commit, when the revision does not say another.
        let at = (self.repos.lookup(name).is_err())
            .then(|| crate::formats::location::Pinned::parse(name))
            .flatten()
            .filter(|p| p.rest.is_none() && self.repos.lookup(p.repository).is_ok());
        let (name, revision) = match (at, revision) {
            (Some(p), None) => (p.repository, Some(p.commit)),
            (Some(p), Some(r)) if agree(p.commit, r) => (p.repository, Some(r)),
            (Some(p), Some(r)) => {
                return Err(err(
                    Code::InvalidRevision,
                    format!(
                        "Repository '{}' is named at commit {} and the revision says {}: give the commit once, as the revision",
                        p.repository, p.commit, shown_revision(r)
                    ),
                ))
            }
            (None, _) => (name, revision),
        };
        let repo = self.repos.lookup(name).map_err(|e| {
            let known: Vec<&str> = self.repos.repos.iter().map(|r| r.name.as_str()).collect();
            let known = if known.is_empty() {
                "this workspace knows no repository".to_string()
            } else {
                format!("known repositories: {}", known.join(", "))
            };
            let why = match e {
                RepoLookupError::Unknown => "is not a known repository of this workspace",
                RepoLookupError::NoClone => {
                    "has no local clone (map it in ontoly.toml or with --source NAME=PATH)"
                }
                RepoLookupError::Ambiguous => {
                    "names several repositories; use owner/name or <source>/<module>"
                }
            };
            err(
                Code::RepositoryNotFound,
                format!("Repository {} {why}; {known}", shown_name(name)),
            )
        })?;
        if repo.repo.is_none() && repo.worktree.is_some() {
            if revision.is_some_and(|r| r != WORKTREE) {
                return Err(err(
                    Code::RevisionNotFound,
                    format!(
                        "Repository '{}' is a work tree without git: it has no commits; omit the revision",
                        repo.name
                    ),
                ));
            }
            return Ok(Pinned {
                repo,
                local: None,
                commit: WORKTREE.to_string(),
                revision: WORKTREE.to_string(),
                defaulted: false,
            });
        }
        let Some(git) = repo.repo.as_ref() else {
            return Err(err(
                Code::RepositoryNotFound,
                format!("Repository '{}' has no local clone", repo.name),
            ));
        };
        let local = git.local();
        let defaulted = revision.is_none();
        let (revision, commit) = match revision {
            Some(r) => {
                let c = local.resolve(r).map_err(|e| {
                    let mut error = rev_error(e, r);
                    if e == RevisionError::NotFound {
                        error.message.push_str(&local.revision_names_note());
                    }
                    error
                })?;
                (r.to_string(), c)
            }
            None => {
                let (branch, c) = local.default_branch().map_err(|_| {
                    err(
                        Code::RevisionNotFound,
                        format!("Repository '{}' has no default branch to read", repo.name),
                    )
                })?;
                (branch.unwrap_or_else(|| c.clone()), c)
            }
        };
        Ok(Pinned {
            repo,
            local: Some(local),
            defaulted,
            commit,
            revision,
        })
    }

    /// `pin` for operations that need commits (search, resolve): a work tree is refused.
    fn pin_git(&self, name: &str, revision: Option<&str>) -> Result<Pinned<'_>, ReadError> {
        let refused = |repo: &ReadableRepo| {
            err(
                Code::RepositoryNotFound,
                format!(
                    "Repository '{}' is a work tree without git: it has no commits to resolve (read, read_many and search work on it)",
                    repo.name
                ),
            )
        };
        // A work tree is refused whatever the revision: pinning it first would say "omit the
        // revision", and omitting it would only meet this refusal.
        if let Ok(repo) = self.repos.lookup(name) {
            if repo.repo.is_none() && repo.worktree.is_some() {
                return Err(refused(repo));
            }
        }
        let p = self.pin(name, revision)?;
        if p.local.is_none() {
            return Err(refused(p.repo));
        }
        Ok(p)
    }

    /// Resolves a revision (or the default branch) to its full commit.
    pub fn resolve(&self, req: &ResolveRequest) -> Result<ResolveResult, ReadError> {
        let p = self.pin_git(&req.repository, req.revision.as_deref())?;
        Ok(ResolveResult {
            repository: p.repo.name.clone(),
            revision: p.revision,
            commit: p.commit,
        })
    }

    /// Reads a line range of one file at a pinned commit.
    pub fn read(&self, req: &ReadRequest) -> Result<ReadResult, ReadError> {
        let (repository, revision, req_path) = self.pinned_label(req)?;
        check_path(req_path)?;
        let (start, end) = requested_range(req.start_line, req.end_line)?;
        let p = self.pin(repository, revision)?;
        let (path, text) = self.text_of(&p, req_path)?;
        let s = slice(&text, start, end, MAX_READ_LINES, MAX_READ_BYTES)?;
        let evidence = self.evidence_for(&p, &path, &s);
        Ok(ReadResult {
            repository: p.repo.name.clone(),
            revision: p.revision.clone(),
            commit: p.commit.clone(),
            path,
            start_line: s.start,
            end_line: s.end,
            next_start_line: s.has_more.then_some(s.end + 1),
            has_more: s.has_more,
            truncated: s.truncated,
            content: s.content,
            evidence,
        })
    }

    /// The repository, revision and path a read names: a pinned label copied whole as the
    /// path (`github.com/o/r@46746648b35e:src/app.py`, its lines already taken by the caller)
    /// is its repository at its commit, when the request's repository is the same one and its
    /// revision, if any, the same commit (MCP walk, stop 59: the pack's own label was "not
    /// found at HEAD"). Anything else is read as given.
    fn pinned_label<'r>(
        &self,
        req: &'r ReadRequest,
    ) -> Result<(&'r str, Option<&'r str>, &'r str), ReadError> {
        let given = (
            req.repository.as_str(),
            req.revision.as_deref(),
            req.path.as_str(),
        );
        let Some((label, path, labelled)) = crate::formats::location::Pinned::parse(&req.path)
            .and_then(|p| Some((p, p.rest?, self.repos.lookup(p.repository).ok()?)))
        else {
            return Ok(given);
        };
        let same_repository = req.repository.is_empty()
            || (self.repos.lookup(&req.repository)).is_ok_and(|a| a.name == labelled.name);
        let same_commit = req
            .revision
            .as_deref()
            .is_none_or(|r| agree(label.commit, r));
        if !(same_repository && same_commit) {
            return Err(err(
                Code::InvalidPath,
                format!(
                    "The path is a pinned label of '{}' at commit {}, and the request names {}: give the repository, the revision ({}) and the path ('{path}') apart, or the label alone",
                    label.repository,
                    label.commit,
                    match req.revision.as_deref() {
                        Some(r) if !same_commit => format!("revision {}", shown_revision(r)),
                        _ => format!("repository {}", shown_name(&req.repository)),
                    },
                    label.commit,
                ),
            ));
        }
        Ok((label.repository, Some(label.commit), path))
    }

    /// The text of `path` in `p`, and the repository path it was read at. In the workspace's
    /// own repository, when the workspace is a directory of it and `path` is not a file at the
    /// repository's root, `path` is also tried under the workspace's directory: packs give a
    /// section's page as `file` relative to the workspace (`knowledge/guide.md`), and an agent
    /// reads it by that. A repository path is always tried first, so nothing it names is
    /// shadowed.
    fn text_of(&self, p: &Pinned<'_>, path: &str) -> Result<(String, String), ReadError> {
        let e = match file_text(p, path) {
            Ok(text) => return Ok((path.to_string(), text)),
            Err(e) => e,
        };
        let root = p.repo.workspace_root.as_str();
        if p.repo.is_workspace && e.code == Code::FileNotFound && !root.is_empty() {
            let inside = format!("{root}/{path}");
            if let Ok(text) = file_text(p, &inside) {
                return Ok((inside, text));
            }
            // "does not exist …, nor under" reads as one sentence; another reason (a symlink
            // that leaves the repository) needs its own clause.
            let also = if e.message.contains("' does not exist at ") {
                format!(", nor under the workspace's directory {root}/")
            } else {
                format!(", and the workspace's directory {root}/ has no file of that path either")
            };
            return Err(ReadError {
                message: format!("{}{also}", e.message),
                ..e
            });
        }
        Err(self.pages_elsewhere(p, path, e))
    }

    /// A knowledge page asked of another repository than the workspace's: the error says
    /// where pages are read (a pack names a section's page without its repository).
    fn pages_elsewhere(&self, p: &Pinned<'_>, path: &str, e: ReadError) -> ReadError {
        let workspace = self.repos.workspace();
        let page = path.starts_with("knowledge/") || path.contains("/knowledge/");
        match workspace {
            Some(w) if e.code == Code::FileNotFound && page && !p.repo.is_workspace => ReadError {
                message: format!(
                    "{}; knowledge pages are read from the workspace's repository '{}'",
                    e.message, w.name
                ),
                ..e
            },
            _ => e,
        }
    }

    /// Reads up to ten ranges at one commit, within one batch budget. Item errors never fail
    /// the batch; only the repository and revision can.
    pub fn read_many(&self, req: &ReadManyRequest) -> Result<ReadManyResult, ReadError> {
        if req.items.is_empty() || req.items.len() > MAX_BATCH_ITEMS {
            return Err(err(
                Code::InvalidInput,
                format!(
                    "read_many takes 1 to {MAX_BATCH_ITEMS} items, got {}",
                    req.items.len()
                ),
            ));
        }
        let p = self.pin(&req.repository, req.revision.as_deref())?;
        let mut lines_left = MAX_BATCH_LINES;
        let mut bytes_left = MAX_BATCH_BYTES;
        // Once an item is cut by the batch budget, every later item is refused, even one
        // small enough to fit: the caller continues from the cut item in order.
        let mut exhausted = false;
        let mut items = Vec::with_capacity(req.items.len());
        for (i, item) in req.items.iter().enumerate() {
            let n = i + 1;
            let failed = |e: ReadError| ReadManyItemResult {
                path: item.path.clone(),
                start_line: None,
                end_line: None,
                next_start_line: None,
                has_more: None,
                truncated: None,
                content: None,
                evidence: None,
                error: Some(ReadError {
                    code: e.code,
                    message: format!("Item {n}: {}", e.message),
                }),
                note: None,
            };
            // An item that cannot be read in any request says why before the budget is
            // looked at: "read this item in another request" sent an agent back to read
            // `/etc/passwd` (TypeScript MCP walk, stop 48).
            let readable = check_path(&item.path)
                .and_then(|_| requested_range(item.start_line, item.end_line))
                .and_then(|range| Ok((range, self.text_of(&p, &item.path)?)));
            let ((start, end), (path, text)) = match readable {
                Ok(found) => found,
                Err(e) => {
                    items.push(failed(e));
                    continue;
                }
            };
            if exhausted || lines_left == 0 || bytes_left == 0 {
                items.push(failed(err(
                    Code::ReadBudgetExceeded,
                    format!("Read budget exceeded: the batch already returned {MAX_BATCH_LINES} lines or {} KiB; read this item in another request", MAX_BATCH_BYTES / 1024),
                )));
                continue;
            }
            let outcome =
                slice(&text, start, end, lines_left, bytes_left).map(|found| (path, found));
            let (path, s) = match outcome {
                Ok(found) => found,
                Err(e) => {
                    items.push(failed(e));
                    continue;
                }
            };
            if s.budget_cut && s.end < s.start {
                // Not even one whole line fits what is left of the batch.
                bytes_left = 0;
                items.push(failed(err(
                    Code::ReadBudgetExceeded,
                    format!("Read budget exceeded: no whole line of this item fits the rest of the batch budget; read it from line {} in another request", s.start),
                )));
                continue;
            }
            exhausted |= s.budget_cut;
            let used_lines = s.end + 1 - s.start;
            lines_left = lines_left.saturating_sub(used_lines);
            bytes_left = bytes_left.saturating_sub(s.content.len());
            let error = s.budget_cut.then(|| ReadError {
                code: Code::ReadBudgetExceeded,
                message: format!(
                    "Item {n}: Read budget exceeded: the batch budget ({MAX_BATCH_LINES} lines, {} KiB) cut this item after line {}; continue from line {}",
                    MAX_BATCH_BYTES / 1024,
                    s.end,
                    s.end + 1
                ),
            });
            let evidence = self.evidence_for(&p, &path, &s);
            items.push(ReadManyItemResult {
                path,
                start_line: Some(s.start),
                end_line: Some(s.end),
                next_start_line: s.has_more.then_some(s.end + 1),
                has_more: Some(s.has_more),
                truncated: Some(s.truncated),
                content: Some(s.content),
                evidence,
                error,
                note: None,
            });
        }
        Ok(ReadManyResult {
            repository: p.repo.name.clone(),
            revision: p.revision.clone(),
            commit: p.commit,
            items,
        })
    }

    fn evidence_for(&self, p: &Pinned<'_>, path: &str, s: &Slice) -> Option<String> {
        let hook = self.evidence.as_ref()?;
        if !p.repo.is_workspace || s.end < s.start {
            return None;
        }
        let knowledge = if p.repo.workspace_root.is_empty() {
            "knowledge/".to_string()
        } else {
            format!("{}/knowledge/", p.repo.workspace_root)
        };
        if !(path.starts_with(&knowledge) && path.ends_with(".md")) {
            return None;
        }
        let git = p.repo.repo.as_ref();
        let tree = p.repo.worktree.as_deref();
        let commit = p.commit.as_str();
        // Sync (the references renderer may share it): a fresh thread-local handle per read.
        let read_file = move |rel: &str| -> Option<Vec<u8>> {
            if !is_valid_path(rel) {
                return None;
            }
            if let Some(root) = tree {
                return worktree_file(root, rel).ok();
            }
            git?.local().file_at(commit, rel)
        };
        hook.references(&PageRead {
            workspace_root: &p.repo.workspace_root,
            path,
            start_line: s.start,
            end_line: s.end,
            remote_key: p.repo.remote_key.as_deref(),
            commit: &p.commit,
            read_file: &read_file,
        })
    }
}

/// Whether a commit as written and a revision name the same commit by prefix (`46746648b35e`
/// and the full id): a branch name never does, and is resolved apart.
fn agree(commit: &str, revision: &str) -> bool {
    let (a, b) = (commit.to_ascii_lowercase(), revision.to_ascii_lowercase());
    a.starts_with(&b) || b.starts_with(&a)
}

/// A revision echoed in a message: quoted as given, unless too long or with control
/// characters.
fn shown_revision(rev: &str) -> String {
    if rev.chars().any(char::is_control) || rev.len() > 200 {
        "(its text not shown: too long, or with control characters)".to_string()
    } else {
        format!("'{rev}'")
    }
}

fn rev_error(e: RevisionError, rev: &str) -> ReadError {
    let shown = shown_revision(rev);
    match e {
        RevisionError::ShortSha => err(
            Code::ShortShaUnsupported,
            format!("Commit id {shown} is too short: give at least 7 hex digits (or the full commit)"),
        ),
        RevisionError::Ambiguous => err(
            Code::RevisionAmbiguous,
            format!("Commit prefix {shown} names several commits: give more hex digits (or the full commit)"),
        ),
        RevisionError::Invalid => err(
            Code::InvalidRevision,
            format!("Invalid revision {shown}: use a branch, a tag or a commit (at least 7 hex digits)"),
        ),
        RevisionError::NotFound => err(
            Code::RevisionNotFound,
            format!("Revision {shown} was not found in the repository"),
        ),
    }
}

/// The message of a file missing at `p`'s commit: when no revision was asked for, which commit
/// the default branch was (the httpx MCP walk, stop 54: a file that exists at the commit the
/// workspace cites was "not found at this commit" at a later default branch, with nothing to
/// say which).
fn missing(p: &Pinned<'_>, path: &str) -> String {
    if !p.defaulted {
        let asked = if agree(&p.commit, &p.revision) {
            String::new()
        } else {
            format!(" (revision '{}')", p.revision)
        };
        return format!(
            "File not found: '{path}' does not exist at commit {}{asked}",
            p.commit
        );
    }
    let at = if p.revision == p.commit {
        "the repository's HEAD".to_string()
    } else {
        format!("the head of the default branch '{}'", p.revision)
    };
    format!(
        "File not found: '{path}' does not exist at commit {}, {at} (no revision was given: a revision reads another commit)",
        p.commit
    )
}

fn file_text(p: &Pinned<'_>, path: &str) -> Result<String, ReadError> {
    let Some(local) = p.local.as_ref() else {
        let root = p.repo.worktree.as_deref().ok_or_else(|| {
            err(
                Code::RepositoryNotFound,
                "The repository has no local clone",
            )
        })?;
        return decode_text(worktree_file(root, path)?);
    };
    let lookup = local.lookup(&p.commit, path).map_err(|_| {
        err(
            Code::RevisionNotFound,
            "The commit's tree could not be read",
        )
    })?;
    match lookup {
        Lookup::Blob { id, .. } => {
            let bytes = local.blob(id).map_err(|_| {
                err(
                    Code::FileNotFound,
                    format!("File not found: '{path}' could not be read at this commit"),
                )
            })?;
            decode_text(bytes)
        }
        Lookup::Tree => Err(err(
            Code::NotAFile,
            format!("Not a file: '{path}' is a directory"),
        )),
        Lookup::Submodule => Err(err(
            Code::NotAFile,
            format!("Not a file: '{path}' is a submodule; submodules have no content here"),
        )),
        Lookup::Missing => Err(err(Code::FileNotFound, missing(p, path))),
        Lookup::SymlinkOutside => Err(err(
            Code::FileNotFound,
            format!("File not found: '{path}' is a symlink that leaves the repository"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_with_control_characters_is_not_echoed() {
        assert_eq!(shown_name("host.org/a\nb:c@x.org/y"), HIDDEN_NAME);
        assert_eq!(shown_name("acme/shop"), "'acme/shop'");
    }

    #[test]
    fn a_name_shown_never_holds_what_stood_before_an_at() {
        assert_eq!(
            shown_name("git@github.com:acme/shop.git"),
            "'github.com/acme/shop'"
        );
        assert_eq!(
            shown_name("https://tok3n@github.com/acme/shop"),
            "'github.com/acme/shop'"
        );
        // A user that is also the owner cannot be told from it: not echoed.
        assert_eq!(
            shown_name("https://acme:pw12@github.com/acme/shop"),
            HIDDEN_NAME
        );
        for name in [
            "u:SECRET@host.org/x",
            "host.org:team/x@SECRET@y.org/z",
            "a/SECRET:b@host.org/x",
        ] {
            let shown = shown_name(name);
            assert!(!shown.contains("SECRET"), "{name} shown as {shown}");
        }
    }

    #[test]
    fn reader_is_shareable_between_requests() {
        fn shareable<T: Send + Sync + Clone>() {}
        shareable::<Reader>();
    }

    #[test]
    fn slicing_rules() {
        let text = "a\nb\nc\n";
        let s = slice(text, 1, 2, 500, MAX_READ_BYTES).unwrap();
        assert_eq!((s.end, s.has_more, s.truncated), (2, true, false));
        assert_eq!(s.content, "a\nb\n");
        let s = slice(text, 2, 99, 500, MAX_READ_BYTES).unwrap();
        assert_eq!((s.end, s.has_more, s.truncated), (3, false, false));
        assert!(slice(text, 4, 4, 500, MAX_READ_BYTES).is_err());
        let s = slice("", 1, 500, 500, MAX_READ_BYTES).unwrap();
        assert_eq!((s.end, s.content.as_str()), (0, ""));
        let s = slice("x\ny", 2, 2, 500, MAX_READ_BYTES).unwrap();
        assert_eq!(s.content, "y");
    }

    #[test]
    fn path_rules() {
        for bad in [
            "", "/a", "a/", "a//b", "./a", "a/../b", "a\\b", "a\u{1}b", "..",
        ] {
            assert!(!is_valid_path(bad), "{bad:?}");
        }
        for good in ["a", "a/b.rs", ".github/x", "dir/.hidden", "名前.md"] {
            assert!(is_valid_path(good), "{good:?}");
        }
    }
}
