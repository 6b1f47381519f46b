//! The change side of impact analysis: what a change does to each file, as `-U0` hunks, from
//! two commits of a repository ([`changes_between`]) or from a unified diff
//! ([`parse_unified_diff`]), and which hunks touch a line range ([`touching`]).

use super::classify::{split_lines, Hunk};
use super::git::DriftRepo;
use super::hunks::{diff_hunks, is_binary};
use crate::sources::git::GitError;
use crate::sources::symbols::Lang;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// What a change does to one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileChange {
    /// The path before (`None`: the file was added).
    pub old_path: Option<String>,
    /// The path after (`None`: the file was deleted).
    pub new_path: Option<String>,
    /// The `-U0` hunks, in order (a deleted file is one hunk over all its lines).
    pub hunks: Vec<Hunk>,
    /// The old side's blob id as a git diff's `index <old>..<new>` line gives it (usually
    /// abbreviated, lowercase hex): what the diff was made against. `None` for a diff without
    /// one, an added file, and a change between two commits (its old side is known).
    pub old_blob: Option<String>,
    /// The old side's lines a diff quotes (context and removed), with their old line numbers:
    /// what a diff without `index` lines is checked against. Empty between two commits.
    pub old_lines: Vec<(u64, String)>,
    /// The hunks of [`FileChange::hunks`] that only add or remove blank (whitespace-only)
    /// lines and comment lines of the file's language ([`no_code_lines`]): they change no
    /// code, so they touch no definition around a cited range (such a line inside the cited
    /// lines still changes them).
    pub no_code: Vec<Hunk>,
    /// Per pure insertion of [`FileChange::hunks`] with a line of code: the least indentation
    /// (leading spaces and tabs) of its lines that are not blank. Where indentation is the
    /// block, as in Python, an insertion after a definition's last line that is indented
    /// deeper than the definition continues it (humanize's `Unit` gaining a method; Python
    /// walk, stop 48).
    pub inserted_indent: Vec<(Hunk, usize)>,
    /// The pure insertions of [`FileChange::hunks`] with no blank line: written on what
    /// follows them (an annotation, a decorator or a comment added above a definition) rather
    /// than a block of their own, which blank lines set apart.
    pub attached: Vec<Hunk>,
}

/// Whether `line` is blank or a whole-line comment in `lang` (`#` in Python; `//`, or a
/// `/* … */` closed on the line, in the others): an edit of such lines alone changes what a
/// definition says, not what it does (a comment edited inside humanize's `precisedelta`
/// affected both sections citing it; Python walk, stop 48). A line inside a block comment
/// is not told apart from code (`* x` is a dereference in Rust).
fn no_code_line(lang: Option<Lang>, line: &[u8]) -> bool {
    let t = line.trim_ascii();
    if t.is_empty() {
        return true;
    }
    match lang {
        Some(Lang::Python) => t.starts_with(b"#"),
        // A C or C++ `#` line is the preprocessor's: code.
        Some(
            Lang::Rust
            | Lang::TypeScript
            | Lang::Tsx
            | Lang::JavaScript
            | Lang::Go
            | Lang::Java
            | Lang::C
            | Lang::Cpp,
        ) => t.starts_with(b"//") || (t.starts_with(b"/*") && t.ends_with(b"*/")),
        None => false,
    }
}

/// Whether the lines of one side of a hunk hold no code: each blank or a whole-line comment
/// (`#` in Python; `//`, or a `/* … */` closed on the line, elsewhere), or inside a `/* … */` block the lines open and close (a JSDoc or
/// Javadoc block added or removed whole), or, outside Rust, C, C++ and Python, a block
/// comment's inner line (`* text`, as JSDoc and Javadoc continue one; `*x` is a dereference
/// in Rust, C and C++).
pub fn no_code_lines<'a>(lang: Option<Lang>, lines: impl IntoIterator<Item = &'a [u8]>) -> bool {
    let block = matches!(
        lang,
        Some(
            Lang::JavaScript
                | Lang::TypeScript
                | Lang::Tsx
                | Lang::Go
                | Lang::Java
                | Lang::Rust
                | Lang::C
                | Lang::Cpp
        )
    );
    // `*p = 0;` dereferences in Rust, C and C++.
    let inner = block && !matches!(lang, Some(Lang::Rust | Lang::C | Lang::Cpp));
    let mut open = false;
    for line in lines {
        let t = line.trim_ascii();
        if open {
            open = !t.ends_with(b"*/");
            continue;
        }
        if no_code_line(lang, line) {
            continue;
        }
        if block && t.starts_with(b"/*") {
            open = true;
            continue;
        }
        if inner && (t == b"*" || t.starts_with(b"* ") || t == b"*/") {
            continue;
        }
        return false;
    }
    !open
}

/// Whether the inserted lines `added` are written on the line after them: their first line of
/// code is an attribute, annotation or decorator (`#[…]`, `@…`), as comments before it are.
/// A block's opening written directly above a definition (a new `impl<T, S> IndexSet<T, S>
/// where … {` over `insert`'s doc comment: indexmap walk, stop 51) is code of its own, which
/// the definition below is now inside; the definition's lines did not change.
fn written_on_next(lang: Option<Lang>, added: &[&[u8]]) -> bool {
    added
        .iter()
        .map(|l| l.trim_ascii())
        .find(|l| !no_code_line(lang, l))
        .is_some_and(|l| l.starts_with(b"#[") || l.starts_with(b"@"))
}

/// A line's indentation (its leading spaces and tabs), `None` when it is blank.
pub fn indent(line: &[u8]) -> Option<usize> {
    (!line.iter().all(u8::is_ascii_whitespace)).then(|| {
        line.iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count()
    })
}

impl FileChange {
    /// Adds hunk `h`, whose old side's lines are `removed` and new side's `added`, with
    /// what the hunk is besides: code or not ([`FileChange::no_code`]), and for a pure
    /// insertion its indentation ([`FileChange::inserted_indent`]) and whether it is written
    /// on what follows ([`FileChange::attached`]). Both ways of reading a change (two
    /// commits, a diff) describe their hunks here.
    fn push_hunk(&mut self, h: Hunk, removed: &[&[u8]], added: &[&[u8]], lang: Option<Lang>) {
        if no_code_lines(lang, removed.iter().copied())
            && no_code_lines(lang, added.iter().copied())
        {
            self.no_code.push(h);
        }
        if h.old_count == 0 {
            if let Some(least) = added.iter().filter_map(|l| indent(l)).min() {
                self.inserted_indent.push((h, least));
            }
            if added.iter().all(|l| indent(l).is_some()) && written_on_next(lang, added) {
                self.attached.push(h);
            }
        }
        self.hunks.push(h);
    }
}

/// How many lines git counts in `data` (a last line without a newline counts).
fn line_count(data: &[u8]) -> u64 {
    let lines = split_lines(data);
    let n = lines.len() as u64;
    if lines.last().is_some_and(|l| l.is_empty()) {
        n - 1
    } else {
        n
    }
}

/// The changes from commit `from` to commit `to` (full ids): every modified, renamed or
/// deleted file with its hunks, in old-path order (added files are left out: no old line can
/// be touched by them). Files are diffed in parallel.
pub fn changes_between(
    repo: &DriftRepo,
    from: &str,
    to: &str,
) -> Result<Vec<FileChange>, GitError> {
    changes_and_added(repo, from, to).map(|(changes, _)| changes)
}

/// [`changes_between`], with the number of files the change adds (not renames), from the
/// same tree diff.
pub fn changes_and_added(
    repo: &DriftRepo,
    from: &str,
    to: &str,
) -> Result<(Vec<FileChange>, usize), GitError> {
    let reader = repo.reader();
    for c in [from, to] {
        if !reader.has_commit(c) {
            return Err(GitError {
                message: "the commit is not in the repository".into(),
            });
        }
    }
    let tree = reader.tree_changes(from, to)?;
    let renames = tree.rename_targets(&reader)?;
    let added = tree.added.len().saturating_sub(renames.len());
    let mut pairs: BTreeMap<String, Option<String>> = BTreeMap::new();
    for p in &tree.modified {
        pairs.insert(p.clone(), Some(p.clone()));
    }
    for d in &tree.deleted {
        pairs.insert(d.path.clone(), renames.get(&d.path).cloned());
    }
    let pairs: Vec<(String, Option<String>)> = pairs.into_iter().collect();
    pairs
        .par_iter()
        .map_init(
            || repo.reader(),
            |rd, (old, new)| -> Result<FileChange, GitError> {
                let before = rd.blob(from, old)?.unwrap_or_default();
                let mut change = FileChange {
                    old_path: Some(old.clone()),
                    new_path: new.clone(),
                    ..FileChange::default()
                };
                match new {
                    Some(n) => {
                        let after = rd.blob(to, n)?.unwrap_or_default();
                        content_hunks(&before, &after, Lang::for_path(old), &mut change);
                    }
                    None => {
                        let count = line_count(&before);
                        change.hunks.push(Hunk {
                            old_start: u64::from(count > 0),
                            old_count: count,
                            new_start: 0,
                            new_count: 0,
                        });
                    }
                }
                Ok(change)
            },
        )
        .collect::<Result<Vec<_>, _>>()
        .map(|changes| (changes, added))
}

/// The `-U0` hunks between two blobs as the format's digests see their lines, added to
/// `change` ([`FileChange::push_hunk`]): each line without a trailing `\r`, the last one with
/// or without its newline. A file converted to CRLF, or given a final newline, changes no
/// cited line (drift calls such a range unchanged); the line numbers are the blobs' own.
fn content_hunks(before: &[u8], after: &[u8], lang: Option<Lang>, change: &mut FileChange) {
    fn normalized(data: &[u8]) -> Vec<u8> {
        let mut lines = split_lines(data);
        if lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        let mut out = Vec::with_capacity(data.len() + 1);
        for l in lines {
            out.extend_from_slice(l);
            out.push(b'\n');
        }
        out
    }
    if before == after || is_binary(before) || is_binary(after) {
        return;
    }
    let (old, new) = (normalized(before), normalized(after));
    let (old_lines, new_lines) = (split_lines(&old), split_lines(&new));
    // 1-based `start`, `count` lines (an empty side numbers the line before it).
    fn side<'l>(lines: &[&'l [u8]], start: u64, count: u64) -> Vec<&'l [u8]> {
        if count == 0 {
            return Vec::new();
        }
        let from = usize::try_from(start)
            .unwrap_or(usize::MAX)
            .saturating_sub(1);
        let count = usize::try_from(count).unwrap_or(usize::MAX);
        lines
            .get(from..from.saturating_add(count))
            .map(<[&[u8]]>::to_vec)
            .unwrap_or_default()
    }
    for h in diff_hunks(&old, &new) {
        let removed = side(&old_lines, h.old_start, h.old_count);
        let added = side(&new_lines, h.new_start, h.new_count);
        change.push_hunk(h, &removed, &added, lang);
    }
}

/// The hunks between `before` and `after` (two versions of a text, such as a definition's
/// lines at two commits) that change code in `lang`: those [`FileChange::no_code`] leaves
/// out, so that drift's `changed_around` and impact read a comment-only edit the same way.
pub fn code_hunks(before: &[u8], after: &[u8], lang: Option<Lang>) -> Vec<Hunk> {
    let mut change = FileChange::default();
    content_hunks(before, after, lang, &mut change);
    (change.hunks.into_iter())
        .filter(|h| !change.no_code.contains(h))
        .collect()
}

/// The longest definition, in lines, whose change anywhere is read as a change around a range
/// in it. Past it a function is many units (jq's 430-line C `main()` holds its whole option
/// loop: a one-line change of the default indent touched 24 sections on 7 pages through it,
/// and every moved range in it read "function `main` changed around them").
pub const WHOLE_DEFINITION_LINES: u64 = 100;

/// How far from a range, in lines, a hunk in a definition longer than
/// [`WHOLE_DEFINITION_LINES`] still changes what the range does: the statements just around it.
pub const NEAR_LINES: u64 = 20;

/// Whether `hunk` (in old-file lines), which touches the definition over `start..=item..=end`
/// (from what is written on it, through its own first line, to its last line), changes what
/// the cited lines `cs..=ce` in it do: always in a definition of at most
/// [`WHOLE_DEFINITION_LINES`] or for a range over its first line; in a longer one only near
/// the lines ([`NEAR_LINES`]) or at its head, where its signature is.
pub fn through_definition(
    (start, item, end): (u64, u64, u64),
    (cs, ce): (u64, u64),
    hunk: &Hunk,
) -> bool {
    // A range over the definition's first line cites it as a whole (its signature, its doc
    // comment and first lines: just's `parse_ast`).
    if end.saturating_sub(start) < WHOLE_DEFINITION_LINES || (cs <= item && item <= ce) {
        return true;
    }
    let first = hunk.old_start;
    let last = hunk.old_start + hunk.old_count.saturating_sub(1);
    // An insertion is between line `first` and the next: in the head only above its first
    // line of its own, among what is written on it.
    let head = match hunk.old_count {
        0 => start <= first && first < item,
        _ => first <= item && start <= last,
    };
    let near = first <= ce.saturating_add(NEAR_LINES) && cs <= last.saturating_add(NEAR_LINES);
    head || near
}

/// The hunks of `hunks` that touch lines `start..=end` of the old file: a hunk that replaces
/// or deletes one of them, or an insertion strictly inside the range (after line `start` and
/// before line `end`).
pub fn touching(hunks: &[Hunk], start: u64, end: u64) -> Vec<Hunk> {
    hunks
        .iter()
        .filter(|h| {
            if h.old_count == 0 {
                start <= h.old_start && h.old_start < end
            } else {
                h.old_start <= end && start < h.old_start + h.old_count
            }
        })
        .copied()
        .collect()
}

/// Why a unified diff could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct DiffError {
    /// 1-based line of the diff.
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

/// A path of a `---`/`+++` line: `None` for `/dev/null`; the `a/`/`b/` prefix dropped when
/// the diff has prefixes; a tab and what follows (a timestamp) dropped; C-style quotes undone.
fn diff_path(raw: &str, prefix: &str, prefixed: bool) -> Option<String> {
    let raw = raw.split('\t').next().unwrap_or(raw).trim_end();
    if raw == "/dev/null" {
        return None;
    }
    let unquoted = if raw.starts_with('"') && raw.ends_with('"') && raw.len() >= 2 {
        unquote(&raw[1..raw.len() - 1])
    } else {
        raw.to_string()
    };
    Some(match unquoted.strip_prefix(prefix) {
        Some(p) if prefixed => p.to_string(),
        _ => unquoted,
    })
}

/// Undoes git's C-style quoting of a path (`\t`, `\n`, `\"`, `\\`, octal bytes).
fn unquote(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            let c = b[i + 1];
            let octal = b
                .get(i + 1..i + 4)
                .filter(|o| o.iter().all(|d| (b'0'..=b'7').contains(d)));
            if let Some(o) = octal {
                out.push(
                    o.iter()
                        .fold(0u8, |acc, d| acc.wrapping_mul(8).wrapping_add(d - b'0')),
                );
                i += 4;
                continue;
            }
            out.push(match c {
                b'n' => b'\n',
                b't' => b'\t',
                b'r' => b'\r',
                other => other,
            });
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `@@ -a[,b] +c[,d] @@`: `(a, b, c, d)`.
fn hunk_header(line: &str) -> Option<(u64, u64, u64, u64)> {
    let rest = line.strip_prefix("@@ -")?;
    let (ranges, _) = rest.split_once(" @@")?;
    let (old, new) = ranges.split_once(" +")?;
    let side = |s: &str| -> Option<(u64, u64)> {
        match s.split_once(',') {
            Some((a, b)) => Some((a.parse().ok()?, b.parse().ok()?)),
            None => Some((s.parse().ok()?, 1)),
        }
    };
    let (a, b) = side(old)?;
    let (c, d) = side(new)?;
    Some((a, b, c, d))
}

/// State of the file being read.
struct FileState {
    change: FileChange,
    /// The old and new line numbers of the next line of the current hunk, and the lines
    /// left on each side.
    at: Option<(u64, u64, u64, u64)>,
    /// The `-U0` hunk being collected.
    run: Option<Hunk>,
    /// Its removed and added lines (without a trailing `\r`).
    run_lines: (Vec<String>, Vec<String>),
}

impl FileState {
    fn new(change: FileChange) -> FileState {
        FileState {
            change,
            at: None,
            run: None,
            run_lines: (Vec::new(), Vec::new()),
        }
    }

    fn close_run(&mut self) {
        let (removed, added) = std::mem::take(&mut self.run_lines);
        if let Some(h) = self.run.take() {
            // Lines that differ only in their line ending are the same lines to a digest.
            if !removed.is_empty() && removed == added {
                return;
            }
            let lang = (self.change.old_path.as_deref())
                .or(self.change.new_path.as_deref())
                .and_then(Lang::for_path);
            let mut h = h;
            // git numbers an empty side by the line before it.
            if h.old_count == 0 {
                h.old_start = h.old_start.saturating_sub(1);
            }
            if h.new_count == 0 {
                h.new_start = h.new_start.saturating_sub(1);
            }
            let removed: Vec<&[u8]> = removed.iter().map(String::as_bytes).collect();
            let added: Vec<&[u8]> = added.iter().map(String::as_bytes).collect();
            self.change.push_hunk(h, &removed, &added, lang);
        }
    }
}

/// The old blob of `index <old>..<new>[ <mode>]`: lowercase hex of at least 7 digits, not
/// all zeros (an added file).
fn old_blob(ids: &str) -> Option<String> {
    let (old, _) = ids.split_once("..")?;
    let hex = old.len() >= 7 && old.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    (hex && old.bytes().any(|b| b != b'0')).then(|| old.to_string())
}

/// Reads a unified diff (`git diff`, `diff -u`, with any context) into `-U0` hunks per file:
/// within each hunk, every run of `-`/`+` lines without a context line between them is one
/// `-U0` hunk, numbered as `git diff -U0` numbers it. Binary files, mode changes and pure
/// renames come back with no hunks.
pub fn parse_unified_diff(text: &str) -> Result<Vec<FileChange>, DiffError> {
    let mut files: Vec<FileChange> = Vec::new();
    let mut cur: Option<FileState> = None;
    let mut prefixed = true;
    let mut pending_old: Option<Option<String>> = None;
    // A `diff --git` header is open: its `---`/`+++` lines, when they come, belong to it.
    let mut git_header = false;
    let finish = |cur: &mut Option<FileState>, files: &mut Vec<FileChange>| {
        if let Some(mut f) = cur.take() {
            f.close_run();
            files.push(f.change);
        }
    };
    for (n, raw) in text.split('\n').enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let lineno = n + 1;
        let err = |m: &str| DiffError {
            line: lineno,
            message: m.to_string(),
        };
        if let Some(f) = cur.as_mut() {
            if let Some((old, new, left_old, left_new)) = f.at {
                if left_old > 0 || left_new > 0 {
                    match line.as_bytes().first() {
                        Some(b' ') | None => {
                            f.close_run();
                            if left_old == 0 || left_new == 0 {
                                return Err(err("a context line beyond the hunk's counts"));
                            }
                            f.change
                                .old_lines
                                .push((old, line.get(1..).unwrap_or("").to_string()));
                            f.at = Some((old + 1, new + 1, left_old - 1, left_new - 1));
                        }
                        Some(b'-') => {
                            if left_old == 0 {
                                return Err(err("more removed lines than the hunk header says"));
                            }
                            f.change
                                .old_lines
                                .push((old, line.get(1..).unwrap_or("").to_string()));
                            f.run_lines.0.push(line.get(1..).unwrap_or("").to_string());
                            let run = f.run.get_or_insert(Hunk {
                                old_start: old,
                                old_count: 0,
                                new_start: new,
                                new_count: 0,
                            });
                            run.old_count += 1;
                            f.at = Some((old + 1, new, left_old - 1, left_new));
                        }
                        Some(b'+') => {
                            if left_new == 0 {
                                return Err(err("more added lines than the hunk header says"));
                            }
                            f.run_lines.1.push(line.get(1..).unwrap_or("").to_string());
                            let run = f.run.get_or_insert(Hunk {
                                old_start: old,
                                old_count: 0,
                                new_start: new,
                                new_count: 0,
                            });
                            run.new_count += 1;
                            f.at = Some((old, new + 1, left_old, left_new - 1));
                        }
                        Some(b'\\') => {}
                        _ => return Err(err("a hunk line must start with ' ', '-', '+' or '\\'")),
                    }
                    continue;
                }
                if line.starts_with('\\') {
                    continue;
                }
                f.close_run();
                f.at = None;
            }
        }
        if let Some(rest) = line.strip_prefix("diff --git ") {
            finish(&mut cur, &mut files);
            pending_old = None;
            // `diff --git a/x b/x`: prefixes unless `--no-prefix` (then no `a/`).
            prefixed = rest.starts_with("a/") || rest.starts_with("\"a/");
            let git_paths = if prefixed {
                rest.split_once(" b/")
                    .map(|(a, b)| (a.trim_start_matches("a/").to_string(), b.to_string()))
            } else {
                // `--no-prefix`: the two paths are told apart only without spaces in them.
                match rest.split(' ').collect::<Vec<_>>()[..] {
                    [a, b] => Some((a.to_string(), b.to_string())),
                    _ => None,
                }
            };
            git_header = true;
            cur = Some(FileState::new(FileChange {
                old_path: git_paths.as_ref().map(|p| p.0.clone()),
                new_path: git_paths.as_ref().map(|p| p.1.clone()),
                ..FileChange::default()
            }));
        } else if let Some(p) = line.strip_prefix("--- ") {
            pending_old = Some(diff_path(p, "a/", prefixed));
        } else if let Some(p) = line.strip_prefix("+++ ") {
            let Some(old) = pending_old.take() else {
                return Err(err("a '+++' line without its '---' line"));
            };
            let new = diff_path(p, "b/", prefixed);
            let in_git_file = cur
                .as_ref()
                .is_some_and(|f| f.change.hunks.is_empty() && f.at.is_none() && git_header);
            if !in_git_file {
                finish(&mut cur, &mut files);
            }
            let f = cur.get_or_insert(FileState::new(FileChange::default()));
            f.change.old_path = old;
            f.change.new_path = new;
            git_header = false;
        } else if let Some(ids) = line.strip_prefix("index ") {
            if let Some(f) = cur
                .as_mut()
                .filter(|f| f.at.is_none() && f.change.hunks.is_empty())
            {
                f.change.old_blob = old_blob(ids);
            }
        } else if let Some(p) = line.strip_prefix("rename from ") {
            if let Some(f) = cur.as_mut() {
                f.change.old_path = Some(p.to_string());
            }
        } else if let Some(p) = line.strip_prefix("rename to ") {
            if let Some(f) = cur.as_mut() {
                f.change.new_path = Some(p.to_string());
            }
        } else if line.starts_with("deleted file mode") {
            if let Some(f) = cur.as_mut() {
                f.change.new_path = None;
            }
        } else if line.starts_with("new file mode") {
            if let Some(f) = cur.as_mut() {
                f.change.old_path = None;
            }
        } else if line.starts_with("@@ ") {
            let Some((a, b, c, d)) = hunk_header(line) else {
                return Err(err("not a hunk header (@@ -a,b +c,d @@)"));
            };
            let Some(f) = cur.as_mut() else {
                return Err(err("a hunk before any file header"));
            };
            // An empty side is numbered by the line before it: the next line is one later.
            let old = if b == 0 { a + 1 } else { a };
            let new = if d == 0 { c + 1 } else { c };
            f.at = Some((old, new, b, d));
        }
    }
    finish(&mut cur, &mut files);
    // Text with no file header is not a diff of no change: a wrong pipe (`echo $DIFF` of an
    // unset variable is empty, and stays a valid "no change"; a log or an error message is
    // not) must not pass a gate as "touches nothing".
    if files.is_empty() {
        if let Some(n) = text.split('\n').position(|l| !l.trim().is_empty()) {
            return Err(DiffError {
                line: n + 1,
                message: "not a unified diff: no file header (`diff --git a/… b/…`, or `--- a/…` and `+++ b/…`) in the input".to_string(),
            });
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hunks of two blobs with what each is: (all, no code, inserted indentation,
    /// attached).
    #[allow(clippy::type_complexity)]
    fn hunks_of(
        before: &[u8],
        after: &[u8],
        lang: Option<Lang>,
    ) -> (Vec<Hunk>, Vec<Hunk>, Vec<(Hunk, usize)>, Vec<Hunk>) {
        let mut c = FileChange::default();
        content_hunks(before, after, lang, &mut c);
        (c.hunks, c.no_code, c.inserted_indent, c.attached)
    }

    #[test]
    fn only_attributes_and_decorators_are_written_on_what_follows() {
        let rust = Some(Lang::Rust);
        let old = b"impl S {\n    fn a() {}\n\n    /// Doc.\n    fn b() {}\n}\n";
        // An attribute, with a comment above it, inserted over `b`'s doc.
        let new = b"impl S {\n    fn a() {}\n\n    // why\n    #[inline]\n    /// Doc.\n    fn b() {}\n}\n";
        let (hunks, _, _, attached) = hunks_of(old, new, rust);
        assert_eq!(attached, hunks);
        // A new block's header: code of its own, not written on `b`.
        let new = b"impl S {\n    fn a() {}\n}\n\nimpl S\nwhere\n    S: Copy,\n{\n    /// Doc.\n    fn b() {}\n}\n";
        let (hunks, _, _, attached) = hunks_of(old, new, rust);
        assert!(!hunks.is_empty() && attached.is_empty(), "{hunks:?}");
        // A Python decorator is.
        let (_, _, _, attached) = hunks_of(
            b"def f():\n    pass\n",
            b"@cache\ndef f():\n    pass\n",
            Some(Lang::Python),
        );
        assert_eq!(attached.len(), 1);
    }

    fn h(a: u64, b: u64, c: u64, d: u64) -> Hunk {
        Hunk {
            old_start: a,
            old_count: b,
            new_start: c,
            new_count: d,
        }
    }

    #[test]
    fn touching_counts_replacements_and_inner_insertions() {
        let hs = [h(2, 1, 2, 1), h(5, 0, 6, 2), h(9, 2, 10, 0)];
        assert_eq!(touching(&hs, 1, 1), vec![]);
        assert_eq!(touching(&hs, 1, 2), vec![h(2, 1, 2, 1)]);
        // An insertion after line 5 is inside 5..6 but not inside 6..8 nor at the end of 3..5.
        assert_eq!(touching(&hs, 5, 6), vec![h(5, 0, 6, 2)]);
        assert_eq!(touching(&hs, 6, 8), vec![]);
        assert_eq!(touching(&hs, 3, 5), vec![]);
        assert_eq!(touching(&hs, 10, 12), vec![h(9, 2, 10, 0)]);
    }

    #[test]
    fn a_diff_with_context_becomes_u0_hunks() {
        let diff = "diff --git a/src/x.py b/src/x.py\nindex 1..2 100644\n--- a/src/x.py\n+++ b/src/x.py\n@@ -1,7 +1,7 @@\n a\n-b\n+B\n c\n d\n+e2\n e\n f\n-g\n";
        let files = parse_unified_diff(diff).unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].old_path.as_deref(), Some("src/x.py"));
        assert_eq!(files[0].new_path.as_deref(), Some("src/x.py"));
        let headers: Vec<String> = files[0].hunks.iter().map(ToString::to_string).collect();
        assert_eq!(headers, ["@@ -2 +2 @@", "@@ -4,0 +5 @@", "@@ -7 +7,0 @@"]);
    }

    #[test]
    fn a_git_diff_names_the_blob_of_each_old_side() {
        let diff = "diff --git a/x.py b/x.py\nindex 1a2b3c4d..5e6f708 100644\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/new.py b/new.py\nnew file mode 100644\nindex 0000000..5e6f708\n--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+b\n--- a/plain.py\n+++ b/plain.py\n@@ -1 +1 @@\n-a\n+b\n";
        let got = parse_unified_diff(diff).expect("parses");
        let blobs: Vec<Option<&str>> = got.iter().map(|c| c.old_blob.as_deref()).collect();
        // An added file has none (all zeros), and neither has a plain `diff -u`.
        assert_eq!(blobs, [Some("1a2b3c4d"), None, None]);
        assert_eq!(
            old_blob("ABCDEF1..1234567"),
            None,
            "git writes lowercase hex"
        );
        assert_eq!(old_blob("abc12..1234567"), None, "too short to name a blob");
    }

    #[test]
    fn renames_deletions_and_plain_diffs() {
        let diff = "diff --git a/old.py b/new.py\nsimilarity index 90%\nrename from old.py\nrename to new.py\n--- a/old.py\n+++ b/new.py\n@@ -3 +3 @@\n-x\n+y\ndiff --git a/gone.py b/gone.py\ndeleted file mode 100644\n--- a/gone.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-1\n-2\n";
        let files = parse_unified_diff(diff).unwrap();
        assert_eq!(files.len(), 2);
        assert_eq!(
            (files[0].old_path.as_deref(), files[0].new_path.as_deref()),
            (Some("old.py"), Some("new.py"))
        );
        assert_eq!(files[0].hunks, vec![h(3, 1, 3, 1)]);
        assert_eq!(
            (files[1].old_path.as_deref(), files[1].new_path.as_deref()),
            (Some("gone.py"), None)
        );
        assert_eq!(files[1].hunks, vec![h(1, 2, 0, 0)]);
        // `diff -u` without git's header, with timestamps.
        let plain = "--- a.txt\t2024-01-01\n+++ a.txt\t2024-01-02\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n";
        let files = parse_unified_diff(plain).unwrap();
        assert_eq!(files[0].old_path.as_deref(), Some("a.txt"));
        assert_eq!(files[0].hunks, vec![h(1, 1, 1, 1)]);
        assert!(parse_unified_diff("@@ -1 +1 @@\n-a\n+b\n").is_err());
        assert!(parse_unified_diff("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n-b\n").is_err());
    }

    #[test]
    fn line_endings_alone_change_no_line() {
        // A file converted to CRLF but for one real edit, and a final newline added.
        let before = b"a\nb\nc\nd";
        let after = b"a\r\nB\r\nc\r\nd\n";
        let (hunks, blank_only, _, _) = hunks_of(before, after, None);
        assert_eq!(hunks, vec![h(2, 1, 2, 1)]);
        assert!(blank_only.is_empty());
        // The same change as a diff's text.
        let diff = "--- a/x.txt\n+++ b/x.txt\n@@ -1,4 +1,4 @@\n-a\n-b\n-c\n-d\n\\ No newline at end of file\n+a\r\n+B\r\n+c\r\n+d\n";
        let files = parse_unified_diff(diff).expect("a diff");
        assert_eq!(
            files[0].hunks,
            vec![h(1, 4, 1, 4)],
            "one run: the lines differ"
        );
        let only_endings = "--- a/x.txt\n+++ b/x.txt\n@@ -1,2 +1,2 @@\n-a\n-b\n+a\r\n+b\r\n";
        let files = parse_unified_diff(only_endings).expect("a diff");
        assert_eq!(files[0].hunks, Vec::<Hunk>::new());
    }

    #[test]
    fn hunks_of_blank_lines_alone_are_told_apart() {
        // A blank line added after `b`, an indented blank one removed after `d`, and an edit.
        let before = b"a\nb\nc\nd\n  \ne\n";
        let after = b"a\nb\n\nc\nD\ne\n";
        let (hunks, blank_only, inserted, _) = hunks_of(before, after, None);
        assert_eq!(hunks, vec![h(2, 0, 3, 1), h(4, 2, 5, 1)]);
        assert_eq!(blank_only, vec![h(2, 0, 3, 1)]);
        // The same change as a diff's text, and one whose blank lines replace code.
        let diff = "--- a/x\n+++ b/x\n@@ -1,6 +1,6 @@\n a\n b\n+\n c\n-d\n-  \n+D\n e\n--- a/y\n+++ b/y\n@@ -1,2 +1,2 @@\n-y = 1\n+\n z\n";
        let files = parse_unified_diff(diff).expect("a diff");
        assert_eq!(files[0].hunks, hunks);
        assert_eq!(files[0].no_code, blank_only);
        assert_eq!(files[1].hunks, vec![h(1, 1, 1, 1)]);
        assert!(files[1].no_code.is_empty());
        // A blank insertion has no indentation of code; an indented one has its least.
        assert!(inserted.is_empty());
        let (hunks, _, inserted, _) = hunks_of(
            b"def f():\n    a\n",
            b"def f():\n    a\n\n      b\n    c\n",
            None,
        );
        assert_eq!(inserted, vec![(hunks[0], 4)]);
        let diff = "--- a/f.py\n+++ b/f.py\n@@ -2 +2,4 @@\n     a\n+\n+      b\n+    c\n";
        let files = parse_unified_diff(diff).expect("a diff");
        assert_eq!(files[0].inserted_indent, inserted);
        // Comment lines change no code either, in the file's language: `#` in Python, `//`
        // and a closed `/* … */` elsewhere; `#[…]` in Rust is code.
        let py = Some(Lang::Python);
        let (hunks, no_code, _, _) = hunks_of(
            b"def f():\n    # old note\n    return 1\n",
            b"def f():\n    # new note\n    return 1\n    # more\n",
            py,
        );
        assert_eq!(no_code, hunks);
        let (hunks, no_code, _, _) = hunks_of(
            b"fn f() {}\n",
            b"// note\n/* more */\n#[inline]\nfn f() {}\n",
            Some(Lang::Rust),
        );
        assert_eq!((hunks.len(), no_code.len()), (1, 0));
        let (_, no_code, _, _) =
            hunks_of(b"fn f() {}\n", b"// note\nfn f() {}\n", Some(Lang::Rust));
        assert_eq!(no_code.len(), 1);
        // A JSDoc block added whole, and one of its inner lines edited, are no code; a
        // dereference in Rust is.
        let js = Some(Lang::JavaScript);
        let (_, no_code, _, _) = hunks_of(
            b"/**\n * Old.\n */\nfunction f() {}\n",
            b"/**\n * New.\n */\nfunction f() {}\n/**\n * Added.\n */\n",
            js,
        );
        assert_eq!(no_code.len(), 2);
        let (hunks, no_code, _, _) = hunks_of(
            b"fn f(x: &mut u8) {\n    *x = 1;\n}\n",
            b"fn f(x: &mut u8) {\n    *x = 2;\n}\n",
            Some(Lang::Rust),
        );
        assert_eq!((hunks.len(), no_code.len()), (1, 0));
        let diff = "--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,2 @@\n def f():\n-    # old\n+    # new\n--- a/g.txt\n+++ b/g.txt\n@@ -1 +1 @@\n-# old\n+# new\n";
        let files = parse_unified_diff(diff).expect("a diff");
        assert_eq!(files[0].no_code, files[0].hunks);
        assert!(files[1].no_code.is_empty());
    }

    #[test]
    fn a_diff_without_prefixes_reads_one_change_per_file() {
        // `git diff --no-prefix`: each file was read twice (the `diff --git` header as a file
        // of its own with no old path, an added one), so every file counted as added too.
        let diff = "diff --git docs/a.rst docs/a.rst\nindex 8d1019c..9bc7578 100644\n--- docs/a.rst\n+++ docs/a.rst\n@@ -1 +1,2 @@\n+new\n x\ndiff --git docs/why.rst docs/why-click.rst\nsimilarity index 100%\nrename from docs/why.rst\nrename to docs/why-click.rst\ndiff --git new.py new.py\nnew file mode 100644\nindex 0000000..5e6f708\n--- /dev/null\n+++ new.py\n@@ -0,0 +1 @@\n+b\n";
        let files = parse_unified_diff(diff).expect("a diff");
        let paths: Vec<(Option<&str>, Option<&str>)> = files
            .iter()
            .map(|f| (f.old_path.as_deref(), f.new_path.as_deref()))
            .collect();
        assert_eq!(
            paths,
            vec![
                (Some("docs/a.rst"), Some("docs/a.rst")),
                (Some("docs/why.rst"), Some("docs/why-click.rst")),
                (None, Some("new.py")),
            ]
        );
        assert_eq!(files[0].hunks, vec![h(0, 0, 1, 1)]);
    }

    #[test]
    fn text_that_is_no_diff_is_refused_and_empty_input_is_no_change() {
        let e = parse_unified_diff("\nfatal: ambiguous argument 'main...'\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.starts_with("not a unified diff"), "{e}");
        assert_eq!(parse_unified_diff("").unwrap(), vec![]);
        assert_eq!(parse_unified_diff(" \n\n").unwrap(), vec![]);
        // A preamble (a commit's header from `git show`) before the first file is fine.
        let shown = "commit 0123abc\nAuthor: A <a@b>\n\n    msg\n\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n";
        assert_eq!(parse_unified_diff(shown).unwrap().len(), 1);
        // A mode change alone is a file with no hunks, and a diff.
        let mode = "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n";
        assert_eq!(parse_unified_diff(mode).unwrap().len(), 1);
    }
}
