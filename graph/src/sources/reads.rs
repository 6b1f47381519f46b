//! Commit-pinned reads: `read`, `read_many`, `search` and `resolve` over local clones, with the
//! rules of the reads contract (`spec/reads.md`).
//!
//! This is a library API: the CLI and the MCP server call [`Reader`] directly and serialize its
//! results (camelCase JSON) or its errors (`{code, message}`). Every read of one request stays
//! on one commit: a branch is resolved once, up front. Messages name the repository by its
//! public name and the path as requested, never a disk location or a remote's credentials.

use crate::diagnostics::Code;
use crate::sources::git::{LocalRepo, Lookup, RevisionError};
use crate::sources::repositories::{ReadableRepo, RepoLookupError, Repositories};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadError {
    /// The code.
    pub code: Code,
    /// What went wrong, naming the repository and path as requested.
    pub message: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for ReadError {}

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
    /// Branch or full commit; the default branch when absent.
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
    /// Branch or full commit; the default branch when absent.
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
    /// Branch or full commit, resolved once for every item.
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
    /// Branch or full commit.
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
/// [`crate::formats::references`] from the page, the structure and the registries at the commit read.
#[derive(Debug, Clone, Copy, Default)]
pub struct WorkspaceReferences;

impl EvidenceHook for WorkspaceReferences {
    fn references(&self, page: &PageRead<'_>) -> Option<String> {
        let files = |path: &str| -> Result<Vec<u8>, crate::formats::registry::ReadError> {
            (page.read_file)(path).ok_or(crate::formats::registry::ReadError::Unreadable)
        };
        // The knowledge repository's identity for `repo-content:` references: its remote
        // with any credentials already stripped (a clone's configured URL may carry a token).
        let identity = page.remote_key.map(|k| format!("https://{k}"));
        crate::formats::references::references_for_range(
            &crate::formats::references::RangeQuery {
                path: page.path,
                start_line: page.start_line,
                end_line: page.end_line,
                include_digest: false,
            },
            &files,
            page.workspace_root,
            identity.as_deref(),
        )
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
/// `..` segments, no backslash, no control characters.
pub fn is_valid_path(path: &str) -> bool {
    !path.is_empty()
        && !path.contains('\\')
        && !path.chars().any(char::is_control)
        && path
            .split('/')
            .all(|s| !s.is_empty() && s != "." && s != "..")
}

fn check_path(path: &str) -> Result<(), ReadError> {
    if is_valid_path(path) {
        Ok(())
    } else {
        Err(err(
            Code::InvalidPath,
            "Invalid path: paths are repository-root relative, without a leading '/', '.', '..' or empty segments, backslashes or control characters",
        ))
    }
}

/// A requested name echoed in a message: only when it cannot carry credentials.
fn shown_name(name: &str) -> String {
    if name.contains('@') || name.contains(':') || name.chars().any(char::is_control) {
        match crate::sources::clones::remote_key(name) {
            Some(k) => format!("'{k}'"),
            None => "the requested repository".to_string(),
        }
    } else {
        format!("'{name}'")
    }
}

/// The lines of a text and where each starts: line `n` (1-based) is
/// `text[starts[n-1]..starts[n]]` (the last one to the end). A final newline does not start
/// an extra, empty line; an empty text has no lines.
struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        let mut starts = Vec::new();
        if !text.is_empty() {
            starts.push(0);
            for i in memchr::memchr_iter(b'\n', text.as_bytes()) {
                if i + 1 < text.len() {
                    starts.push(i + 1);
                }
            }
        }
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    fn count(&self) -> u64 {
        self.starts.len() as u64
    }

    /// Byte range of lines `a..=b` (1-based, within bounds).
    fn range(&self, a: u64, b: u64) -> (usize, usize) {
        let s = self.starts[(a - 1) as usize];
        let e = self.starts.get(b as usize).copied().unwrap_or(self.len);
        (s, e)
    }
}

/// The lines a read returns, after the line clamp and the byte budget.
struct Slice {
    start: u64,
    /// Last returned line (`start - 1` when none).
    end: u64,
    content: String,
    has_more: bool,
    /// Cut by the clamp or a budget.
    truncated: bool,
    /// Cut by the caller's budget (not by the single-read limits).
    budget_cut: bool,
}

/// Line-range validation shared by `read` and `read_many` items.
fn requested_range(start: Option<i64>, end: Option<i64>) -> Result<(u64, u64), ReadError> {
    let start = start.unwrap_or(1);
    if start < 1 {
        return Err(err(
            Code::InvalidLineRange,
            "Invalid line range: start_line must be at least 1",
        ));
    }
    let start = start as u64;
    let end = match end {
        None => start + MAX_READ_LINES - 1,
        Some(e) if e < 1 || (e as u64) < start => {
            return Err(err(
                Code::InvalidLineRange,
                "Invalid line range: end_line must not be before start_line",
            ))
        }
        Some(e) => e as u64,
    };
    Ok((start, end))
}

/// Takes lines `start..=end` of `text` within `max_lines`/`max_bytes` (and the single-read
/// limits). `partial_first` allows cutting the first line when it alone exceeds the bytes.
fn slice(
    text: &str,
    start: u64,
    end: u64,
    max_lines: u64,
    max_bytes: usize,
) -> Result<Slice, ReadError> {
    let idx = LineIndex::new(text);
    let total = idx.count();
    if total == 0 && start == 1 {
        return Ok(Slice {
            start,
            end: 0,
            content: String::new(),
            has_more: false,
            truncated: false,
            budget_cut: false,
        });
    }
    if start > total {
        return Err(err(
            Code::LineRangeNotSatisfiable,
            format!("Line range not satisfiable: start_line {start} is past the end of the file ({total} lines)"),
        ));
    }
    let wanted_last = end.min(total);
    let single_last = wanted_last.min(start + MAX_READ_LINES - 1);
    let mut last = wanted_last.min(start + max_lines.min(MAX_READ_LINES) - 1);
    let byte_cap = max_bytes.min(MAX_READ_BYTES);
    let (s, _) = idx.range(start, start);
    // Shrink to whole lines within the byte budget.
    let mut e = idx.range(start, last).1;
    if e - s > byte_cap {
        let limit = s + byte_cap;
        // The number of whole lines whose end is within the limit.
        let fit = idx.starts[start as usize..]
            .iter()
            .take_while(|&&ls| ls <= limit)
            .count() as u64;
        last = start + fit - 1;
        if fit == 0 {
            last = start - 1;
        }
        e = if fit == 0 {
            s
        } else {
            idx.range(start, last).1
        };
    }
    let mut content = text[s..e].to_string();
    let mut end_line = last;
    let mut cut_line = false;
    if last < start && max_bytes >= MAX_READ_BYTES {
        // One line longer than a whole read: return its head so the reader still progresses.
        let mut cut = s + byte_cap;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        content = text[s..cut].to_string();
        end_line = start;
        cut_line = true;
    }
    let truncated = end_line < wanted_last || cut_line;
    Ok(Slice {
        start,
        end: end_line,
        content,
        has_more: end_line < total,
        truncated,
        budget_cut: truncated && end_line < single_last,
    })
}

/// Checks a blob is text the reads can return.
fn decode_text(bytes: Vec<u8>) -> Result<String, ReadError> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(err(
            Code::UnsupportedTextEncoding,
            "Unsupported text encoding: the file is UTF-16; only UTF-8 text can be read",
        ));
    }
    if memchr::memchr(0, &bytes).is_some() {
        return Err(err(
            Code::BinaryFile,
            "Binary file: the file contains NUL bytes",
        ));
    }
    String::from_utf8(bytes).map_err(|_| {
        err(
            Code::UnsupportedTextEncoding,
            "Unsupported text encoding: the file is not valid UTF-8",
        )
    })
}

/// A repository opened at one resolved commit.
struct Pinned<'a> {
    repo: &'a ReadableRepo,
    local: LocalRepo,
    commit: String,
    revision: String,
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
        let repo = self.repos.lookup(name).map_err(|e| {
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
                format!("Repository {} {why}", shown_name(name)),
            )
        })?;
        let Some(git) = repo.repo.as_ref() else {
            return Err(err(
                Code::RepositoryNotFound,
                format!("Repository '{}' has no local clone", repo.name),
            ));
        };
        let local = git.local();
        let (revision, commit) = match revision {
            Some(r) => {
                let c = local.resolve(r).map_err(|e| rev_error(e, r))?;
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
            local,
            commit,
            revision,
        })
    }

    /// Resolves a revision (or the default branch) to its full commit.
    pub fn resolve(&self, req: &ResolveRequest) -> Result<ResolveResult, ReadError> {
        let p = self.pin(&req.repository, req.revision.as_deref())?;
        Ok(ResolveResult {
            repository: p.repo.name.clone(),
            revision: p.revision,
            commit: p.commit,
        })
    }

    /// Reads a line range of one file at a pinned commit.
    pub fn read(&self, req: &ReadRequest) -> Result<ReadResult, ReadError> {
        check_path(&req.path)?;
        let (start, end) = requested_range(req.start_line, req.end_line)?;
        let p = self.pin(&req.repository, req.revision.as_deref())?;
        let text = file_text(&p, &req.path)?;
        let s = slice(&text, start, end, MAX_READ_LINES, MAX_READ_BYTES)?;
        let evidence = self.evidence_for(&p, &req.path, &s);
        Ok(ReadResult {
            repository: p.repo.name.clone(),
            revision: p.revision.clone(),
            commit: p.commit.clone(),
            path: req.path.clone(),
            start_line: s.start,
            end_line: s.end,
            next_start_line: s.has_more.then_some(s.end + 1),
            has_more: s.has_more,
            truncated: s.truncated,
            content: s.content,
            evidence,
        })
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
            };
            if exhausted || lines_left == 0 || bytes_left == 0 {
                items.push(failed(err(
                    Code::ReadBudgetExceeded,
                    format!("Read budget exceeded: the batch already returned {MAX_BATCH_LINES} lines or {} KiB; read this item in another request", MAX_BATCH_BYTES / 1024),
                )));
                continue;
            }
            let outcome = check_path(&item.path)
                .and_then(|_| requested_range(item.start_line, item.end_line))
                .and_then(|(start, end)| {
                    let text = file_text(&p, &item.path)?;
                    slice(&text, start, end, lines_left, bytes_left)
                });
            let s = match outcome {
                Ok(s) => s,
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
            let evidence = self.evidence_for(&p, &item.path, &s);
            items.push(ReadManyItemResult {
                path: item.path.clone(),
                start_line: Some(s.start),
                end_line: Some(s.end),
                next_start_line: s.has_more.then_some(s.end + 1),
                has_more: Some(s.has_more),
                truncated: Some(s.truncated),
                content: Some(s.content),
                evidence,
                error,
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
        let git = p.repo.repo.as_ref()?;
        let commit = p.commit.as_str();
        // Sync (the references renderer may share it): a fresh thread-local handle per read.
        let read_file = move |rel: &str| -> Option<Vec<u8>> {
            if !is_valid_path(rel) {
                return None;
            }
            let local = git.local();
            match local.lookup(commit, rel).ok()? {
                Lookup::Blob { id, .. } => local.blob(id).ok(),
                _ => None,
            }
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

    /// Searches file contents at a pinned commit, line by line.
    pub fn search(&self, req: &SearchRequest) -> Result<SearchResult, ReadError> {
        let matcher = line_matcher(&req.pattern, req.fixed_strings, req.ignore_case)?;
        let globs = Globs::new(&req.glob)?;
        let mut prefixes = Vec::new();
        for p in &req.paths {
            let p = p.trim_end_matches('/');
            check_path(p)?;
            prefixes.push(p.to_string());
        }
        let pinned = self.pin(&req.repository, req.revision.as_deref())?;
        let files = pinned.local.files(&pinned.commit, &prefixes).map_err(|_| {
            err(
                Code::RevisionNotFound,
                "The commit's tree could not be read",
            )
        })?;
        let files: Vec<_> = files
            .into_iter()
            .filter(|(path, _)| globs.selects(path))
            .collect();
        let git = pinned.repo.repo.as_ref();
        let mut out = Vec::new();
        let mut bytes = 0usize;
        let mut truncated = false;
        // Chunks keep the output in path order while reading blobs in parallel, and stop
        // reading once a bound is reached.
        'chunks: for chunk in files.chunks(256) {
            let found: Vec<Option<Hits>> = chunk
                .par_iter()
                .map_init(
                    || git.map(|g| g.local()),
                    |local, (_, id)| {
                        let bytes = local.as_ref()?.blob(*id).ok()?;
                        let text = decode_text(bytes).ok()?;
                        search_text(&text, &matcher, req.output)
                    },
                )
                .collect();
            for ((path, _), hit) in chunk.iter().zip(found) {
                let Some((matches, more)) = hit else { continue };
                if out.len() >= MAX_SEARCH_FILES {
                    truncated = true;
                    break 'chunks;
                }
                let mut kept = Vec::new();
                for m in matches {
                    if bytes + m.text.len() > MAX_SEARCH_BYTES {
                        truncated = true;
                        break;
                    }
                    bytes += m.text.len();
                    kept.push(m);
                }
                truncated |= more;
                let stop = req.output == SearchOutput::Content && kept.is_empty();
                if stop {
                    break 'chunks;
                }
                out.push(SearchFile {
                    path: path.clone(),
                    matches: kept,
                });
                if truncated && bytes + MAX_SEARCH_LINE_BYTES > MAX_SEARCH_BYTES {
                    break 'chunks;
                }
            }
        }
        Ok(SearchResult {
            repository: pinned.repo.name.clone(),
            revision: pinned.revision.clone(),
            commit: pinned.commit,
            files: out,
            truncated,
        })
    }
}

fn rev_error(e: RevisionError, rev: &str) -> ReadError {
    let shown = if rev.chars().any(char::is_control) || rev.len() > 200 {
        "the requested revision".to_string()
    } else {
        format!("'{rev}'")
    };
    match e {
        RevisionError::ShortSha => err(
            Code::ShortShaUnsupported,
            format!("Short commit ids are not supported: give the full 40-hex commit instead of {shown}"),
        ),
        RevisionError::Invalid => err(
            Code::InvalidRevision,
            format!("Invalid revision {shown}: use a branch name or a full commit"),
        ),
        RevisionError::NotFound => err(
            Code::RevisionNotFound,
            format!("Revision {shown} was not found in the repository"),
        ),
    }
}

fn file_text(p: &Pinned<'_>, path: &str) -> Result<String, ReadError> {
    let lookup = p.local.lookup(&p.commit, path).map_err(|_| {
        err(
            Code::RevisionNotFound,
            "The commit's tree could not be read",
        )
    })?;
    match lookup {
        Lookup::Blob { id, .. } => {
            let bytes = p.local.blob(id).map_err(|_| {
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
        Lookup::Missing => Err(err(
            Code::FileNotFound,
            format!("File not found: '{path}' does not exist at this commit"),
        )),
        Lookup::SymlinkOutside => Err(err(
            Code::FileNotFound,
            format!("File not found: '{path}' is a symlink that leaves the repository"),
        )),
    }
}

/// A compiled line matcher.
struct LineMatcher {
    re: regex::Regex,
}

/// Refuses what can match across lines: a literal newline (`\n`, `\x0A`, in a class too)
/// or the `s` flag that lets `.` match one. Perl classes like `\s` and negated classes are
/// allowed: lines never contain their terminator, so they cannot match one there.
struct NewlineFinder;

impl regex_syntax::ast::Visitor for NewlineFinder {
    type Output = ();
    type Err = ();

    fn finish(self) -> Result<(), ()> {
        Ok(())
    }

    fn visit_pre(&mut self, ast: &regex_syntax::ast::Ast) -> Result<(), ()> {
        use regex_syntax::ast::{Ast, Flag, FlagsItemKind};
        let flags = match ast {
            Ast::Literal(l) if l.c == '\n' || l.c == '\r' => return Err(()),
            Ast::Flags(f) => Some(&f.flags),
            Ast::Group(g) => g.flags(),
            _ => None,
        };
        if let Some(flags) = flags {
            let mut negated = false;
            for item in &flags.items {
                match item.kind {
                    FlagsItemKind::Negation => negated = true,
                    FlagsItemKind::Flag(Flag::DotMatchesNewLine) if !negated => return Err(()),
                    _ => {}
                }
            }
        }
        Ok(())
    }

    fn visit_class_set_item_pre(
        &mut self,
        item: &regex_syntax::ast::ClassSetItem,
    ) -> Result<(), ()> {
        use regex_syntax::ast::ClassSetItem;
        match item {
            ClassSetItem::Literal(l) if l.c == '\n' => Err(()),
            ClassSetItem::Range(r) if r.start.c <= '\n' && r.end.c >= '\n' => Err(()),
            _ => Ok(()),
        }
    }
}

fn line_matcher(
    pattern: &str,
    fixed_strings: bool,
    ignore_case: bool,
) -> Result<LineMatcher, ReadError> {
    let invalid = |why: &str| err(Code::InvalidPattern, format!("Invalid pattern: {why}"));
    if pattern.is_empty() {
        return Err(invalid("the pattern is empty"));
    }
    let source = if fixed_strings {
        if pattern.contains('\n') || pattern.contains('\r') {
            return Err(invalid(
                "search matches within one line; the pattern contains a newline",
            ));
        }
        regex::escape(pattern)
    } else {
        pattern.to_string()
    };
    let ast = regex_syntax::ast::parse::Parser::new()
        .parse(&source)
        .map_err(|e| invalid(&first_line(&e.to_string())))?;
    if regex_syntax::ast::visit(&ast, NewlineFinder).is_err() {
        return Err(invalid(
            "search matches within one line; the pattern can match a newline",
        ));
    }
    let hir = regex_syntax::ParserBuilder::new()
        .case_insensitive(ignore_case)
        .build()
        .parse(&source)
        .map_err(|e| invalid(&first_line(&e.to_string())))?;
    if hir.properties().minimum_len() == Some(0) {
        return Err(invalid(
            "the pattern can match the empty string, which would match every line",
        ));
    }
    let re = regex::RegexBuilder::new(&source)
        .case_insensitive(ignore_case)
        .size_limit(16 * 1024 * 1024)
        .build()
        .map_err(|e| invalid(&first_line(&e.to_string())))?;
    Ok(LineMatcher { re })
}

fn first_line(s: &str) -> String {
    let l: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
    l.last().map(|x| x.trim().to_string()).unwrap_or_default()
}

/// The matches of one file (up to the per-file bound; none listed for `files` output) and
/// whether more were left out.
type Hits = (Vec<SearchMatch>, bool);

/// `None` when no line of `text` matches.
fn search_text(text: &str, m: &LineMatcher, output: SearchOutput) -> Option<Hits> {
    let mut out = Vec::new();
    for (i, line) in crate::formats::text::lines(text).enumerate() {
        if !m.re.is_match(line) {
            continue;
        }
        if output == SearchOutput::Files {
            return Some((Vec::new(), false));
        }
        if out.len() >= MAX_SEARCH_MATCHES_PER_FILE {
            return Some((out, true));
        }
        let (text, cut) = if line.len() > MAX_SEARCH_LINE_BYTES {
            let mut c = MAX_SEARCH_LINE_BYTES;
            while !line.is_char_boundary(c) {
                c -= 1;
            }
            (line[..c].to_string(), true)
        } else {
            (line.to_string(), false)
        };
        out.push(SearchMatch {
            line: i as u64 + 1,
            text,
            truncated: cut,
        });
    }
    if out.is_empty() {
        return None;
    }
    Some((out, false))
}

/// Ordered include/exclude globs; the last glob that matches a path decides.
struct Globs {
    set: Option<globset::GlobSet>,
    negated: Vec<bool>,
    any_include: bool,
}

impl Globs {
    fn new(globs: &[String]) -> Result<Globs, ReadError> {
        if globs.is_empty() {
            return Ok(Globs {
                set: None,
                negated: Vec::new(),
                any_include: false,
            });
        }
        let mut b = globset::GlobSetBuilder::new();
        let mut negated = Vec::new();
        for g in globs {
            let (neg, pat) = match g.strip_prefix('!') {
                Some(p) => (true, p),
                None => (false, g.as_str()),
            };
            // Like ripgrep: a glob without '/' matches the file name at any depth.
            let pat = if pat.contains('/') {
                pat.trim_start_matches('/').to_string()
            } else {
                format!("**/{pat}")
            };
            let glob = globset::GlobBuilder::new(&pat)
                .literal_separator(true)
                .build()
                .map_err(|e| {
                    err(
                        Code::InvalidPattern,
                        format!("Invalid glob '{g}': {}", e.kind()),
                    )
                })?;
            b.add(glob);
            negated.push(neg);
        }
        let set = b
            .build()
            .map_err(|_| err(Code::InvalidPattern, "Invalid glob set"))?;
        Ok(Globs {
            any_include: negated.iter().any(|n| !n),
            set: Some(set),
            negated,
        })
    }

    fn selects(&self, path: &str) -> bool {
        let Some(set) = &self.set else { return true };
        match set.matches(path).into_iter().max() {
            Some(last) => !self.negated[last],
            None => !self.any_include,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn patterns() {
        for bad in [
            "",
            "a*",
            "^",
            "\\b",
            "a\\nb",
            "[\\n]",
            "(?s)a.b",
            "x|",
            "[\\x00-\\x7f]z",
        ] {
            assert!(line_matcher(bad, false, false).is_err(), "{bad}");
        }
        for good in ["a\\s+b", "[^a]b", "fn\\s+main", "(?i)x", "(?-s)a.b"] {
            assert!(line_matcher(good, false, false).is_ok(), "{good}");
        }
        assert!(line_matcher("a.b(", true, false).is_ok());
        assert!(line_matcher("a(", false, false).is_err());
        assert!(line_matcher("a\nb", true, false).is_err());
    }

    #[test]
    fn glob_order() {
        let g = Globs::new(&[
            "*.rs".into(),
            "!src/gen/**".into(),
            "src/gen/keep.rs".into(),
        ])
        .unwrap();
        assert!(g.selects("src/main.rs"));
        assert!(!g.selects("src/gen/x.rs"));
        assert!(g.selects("src/gen/keep.rs"));
        assert!(!g.selects("README.md"));
        let g = Globs::new(&["!*.md".into()]).unwrap();
        assert!(g.selects("a.rs"));
        assert!(!g.selects("docs/a.md"));
        assert!(Globs::new(&["a[".into()]).is_err());
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
