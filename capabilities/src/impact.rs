//! Impact of a change: the sections and pages whose cited ranges, or the symbols behind them,
//! a change touches — "this change touches code that these pages describe".
//!
//! The change is two commits of a source (`--from A --to B`) or a unified diff whose old side
//! is commit A (`--diff`, A = `--from`, else the clone's `HEAD`). Each reference of that
//! source is first brought from its pinned commit to A (drift's verdict: the same range, its
//! one occurrence, or the mapped range of a changed one); it is affected when a hunk of its
//! file replaces or deletes one of its lines or inserts strictly inside it, or else when a hunk
//! touches the definition that covers it at A (tree-sitter; for a class, impl or module, the
//! members the range overlaps), or else when the change renames its file (its lines stay; the
//! path its reference names does not).

use crate::drift::targets::{self, Target};
use crate::drift::{DriftError, DriftOptions, MappedRange, Status};
use ontoly_graph::sources::drift::impact::{self as engine, FileChange};
use ontoly_graph::sources::drift::{
    self as drift_engine, anchor, classify, CompareOptions, Hunk, LineRange, SymbolAt, Verdict,
};
use ontoly_graph::sources::symbols;
use ontoly_graph::Session;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// What the change is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImpactOptions {
    /// The old side: a revision of the source (`--from`).
    pub from: Option<String>,
    /// The new side (`--to`), for a change between two commits.
    pub to: Option<String>,
    /// A unified diff, instead of `to`.
    pub diff: Option<String>,
    /// The source the change is on: `<source>/<module>`, `<source>` or `repo-content`
    /// (default: the one repository the workspace cites).
    pub source: Option<String>,
    /// Only references whose cited lines a hunk touches (or whose file the change renames or
    /// deletes): not those touched only through the definition around them, which a small
    /// edit in a long function or switch gives every section citing any part of it.
    pub lines_only: bool,
}

/// A hunk of the change, with the file it is in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HunkView {
    /// The file after the change (before it, for a deleted file).
    pub path: String,
    /// `@@ -a,b +c,d @@`.
    pub header: String,
    /// First old line (for an insertion, the line it follows).
    pub old_start: u64,
    /// Old lines replaced.
    pub old_count: u64,
    /// First new line (for a deletion, the line it follows).
    pub new_start: u64,
    /// New lines.
    pub new_count: u64,
}

impl HunkView {
    fn new(path: &str, h: &Hunk) -> Self {
        HunkView {
            path: path.to_string(),
            header: h.to_string(),
            old_start: h.old_start,
            old_count: h.old_count,
            new_start: h.new_start,
            new_count: h.new_count,
        }
    }
}

/// A reference the change touches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AffectedReference {
    /// 0-based position in the section's references.
    pub ref_index: usize,
    /// `source_ref` as written, shown as the graph shows it: any credential redacted, and by
    /// its kind only (`repo:***`) when it does not resolve and may hold one
    /// ([`ontoly_graph::formats::source_ref::shown_unresolved`]).
    pub source_ref: String,
    /// The cited path at the pinned commit (repository-relative).
    pub path: String,
    /// First cited line.
    pub start_line: u64,
    /// Last cited line.
    pub end_line: u64,
    /// The cited range at the change's old side.
    pub at: MappedRange,
    /// `range` (a hunk touches the cited lines), `symbol` (only the definition around them) or
    /// `path` (no hunk touches either, but the change renames the file: the lines stay, the
    /// reference's path does not).
    pub via: String,
    /// The file's path after the change, when the change renames it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renamed_to: Option<String>,
    /// With `via: path`, the cited lines' place in the renamed file: the same lines, shifted
    /// by what the change inserts or deletes above them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renamed_lines: Option<LineRange>,
    /// The change deletes the file (present, `true`, only then).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
    /// The definition covering the range at the old side, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<SymbolAt>,
    /// With `via: symbol`, the definitions around the range that the change touches: the
    /// covering one, or for a range in a class, impl, trait, interface or module, the members
    /// the range overlaps (a change elsewhere in a 900-line impl says nothing about them).
    /// With `via: range`, the innermost definitions the change touches inside the range, when
    /// they are not the covering one (a constant after the class the range stands for).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub touched: Vec<SymbolAt>,
    /// The hunks that touch it.
    pub hunks: Vec<HunkView>,
    /// Line of the reference in `knowledge/structure.yaml` (not in the JSON).
    #[serde(skip)]
    pub line: u64,
}

/// A section the change touches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SectionImpact {
    /// The section.
    pub section_id: String,
    /// Its affected references.
    pub references: Vec<AffectedReference>,
}

/// A page with sections the change touches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageImpact {
    /// The page, under `knowledge/`.
    pub page: String,
    /// Its article.
    pub article_id: String,
    /// The sections, in structure order.
    pub sections: Vec<SectionImpact>,
}

/// A reference of the source that could not be assessed, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Unassessed {
    /// The article.
    pub article_id: String,
    /// The section.
    pub section_id: String,
    /// 0-based position in the section's references.
    pub ref_index: usize,
    /// Why.
    pub reason: String,
}

/// Counts of an impact report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImpactCounts {
    /// Files the change modifies, renames or deletes.
    pub files: usize,
    /// Its `-U0` hunks.
    pub hunks: usize,
    /// Pages touched.
    pub pages: usize,
    /// Sections touched.
    pub sections: usize,
    /// References touched.
    pub references: usize,
    /// Files the change adds: they hold no line any reference cites (not in `files`).
    #[serde(default)]
    pub added: usize,
    /// References of the source brought to the change's old side, so assessed (affected or
    /// not); those that could not be are in the report's `unassessed`.
    #[serde(default)]
    pub assessed: usize,
    /// References touched only through the definition around them, left out because only
    /// touched lines were asked for (`lines_only`); absent when none were.
    #[serde(default, rename = "leftOut", skip_serializing_if = "is_zero")]
    pub left_out: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// What a change touches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImpactReport {
    /// The source the change is on (as selected).
    pub source: String,
    /// The old side's commit.
    pub from: String,
    /// The new side's commit (`null` for a diff).
    pub to: Option<String>,
    /// Counts.
    pub counts: ImpactCounts,
    /// The pages and sections touched, in structure order.
    pub pages: Vec<PageImpact>,
    /// References of the source that could not be assessed.
    pub unassessed: Vec<Unassessed>,
}

/// Why impact could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImpactError {
    /// Drift's errors (workspace, names, revisions).
    #[error(transparent)]
    Drift(#[from] DriftError),
    /// The source cannot be chosen.
    #[error("{0}")]
    Source(String),
    /// The source, or every cited repository, has no local clone to read the change from.
    #[error("{0}")]
    NoClone(String),
    /// A source registry cannot be used, so no reference names its repository (the message
    /// names the registry's error), whatever clones are mapped.
    #[error("{0}")]
    Registry(String),
    /// The diff cannot be read.
    #[error("the diff: {0}")]
    Diff(String),
    /// A repository read failed.
    #[error("{0}")]
    Git(String),
    /// Neither `--to` nor `--diff`, or both.
    #[error("give --from A --to B, or --diff FILE")]
    Usage,
    /// The diff's old side is not the commit it is read against.
    #[error("{0}")]
    DiffBase(String),
    /// A side of the change names no revision of the source's clone: which side, the
    /// revision, why.
    #[error("the change's {0} side {1:?}: {2}")]
    Revision(&'static str, String, String),
    /// No `--from`, and the source's clone has no `HEAD` to take instead.
    #[error("{0}")]
    NoHead(String),
}

/// The sections and pages of the session's workspace that the change touches.
pub fn impact(session: &Session, opts: &ImpactOptions) -> Result<ImpactReport, ImpactError> {
    if opts.to.is_some() == opts.diff.is_some() || (opts.to.is_some() && opts.from.is_none()) {
        return Err(ImpactError::Usage);
    }
    let repos = session.repositories().map_err(DriftError::from)?;
    // With no clone at all, no reference can be located: said before every reference is
    // resolved (0.6-1.2 s and 300 MB at 100k sections to reach the same answer).
    if opts.source.is_none() && repos.repos.iter().all(|r| r.repo.is_none()) {
        return Err(no_clone(session));
    }
    let mut all = targets::collect(session)?;
    let (repo_index, name) = select_source(&all, opts.source.as_deref()).map_err(|e| match e {
        ImpactError::NoClone(m) if m == NO_CLONE => no_clone(session),
        e => e,
    })?;
    let git = repos.repos[repo_index]
        .repo
        .clone()
        .ok_or_else(|| ImpactError::NoClone(format!("{name} has no local clone")))?;
    let repo = drift_engine::DriftRepo::new(&git);
    let reader = repo.reader();
    let resolve = |side: &'static str, rev: &str| {
        reader
            .resolve(rev)
            .map_err(|e| ImpactError::Revision(side, rev.to_string(), reader.explain(e)))
    };
    let from = match &opts.from {
        Some(rev) => resolve("old", rev)?,
        None => reader.default_later().map_err(|_| {
            ImpactError::NoHead(format!(
                "{name}: the clone has no HEAD to take as the change's old side"
            ))
        })?,
    };
    let to = opts
        .to
        .as_deref()
        .map(|rev| resolve("new", rev))
        .transpose()?;
    let git_err = |e: ontoly_graph::sources::git::GitError| ImpactError::Git(e.message);
    let (changes, mut added) = match (&to, &opts.diff) {
        (Some(to), _) => {
            // Two commits' changes leave added files out; they are counted, so that a change
            // of only new files is not told as no change at all.
            engine::changes_and_added(&repo, &from, to).map_err(git_err)?
        }
        (None, Some(text)) => {
            let changes =
                engine::parse_unified_diff(text).map_err(|e| ImpactError::Diff(e.to_string()))?;
            check_old_side(&reader, &from, &changes)?;
            (changes, 0)
        }
        (None, None) => return Err(ImpactError::Usage),
    };
    // Added files touch no old line.
    let all_changes = changes.len();
    let changes: Vec<FileChange> = changes
        .into_iter()
        .filter(|c| c.old_path.is_some())
        .collect();
    added += all_changes - changes.len();
    // The sources of that repository's modules: a module of one of them whose clone mapping
    // does not open (a typo in `ontoly.toml`) cites the same code, and is said unassessed
    // below rather than left out of the report without a word.
    let sources: BTreeSet<String> = all
        .iter()
        .filter_map(|t| t.located.as_ref().filter(|l| l.repo == repo_index))
        .filter_map(|l| l.names.last().cloned())
        .collect();
    let source_of = |module: &str| module.split('/').next().unwrap_or(module).to_string();
    // Bring every reference of the source's repository (whichever module cites it) to
    // `from`; the others are not part of this change.
    let mut modules: Vec<String> = Vec::new();
    for t in &mut all {
        match &t.located {
            Some(l) if l.repo == repo_index => {
                if let Some(m) = l.names.first() {
                    if !modules.contains(m) {
                        modules.push(m.clone());
                    }
                }
            }
            _ => t.located = None,
        }
    }
    let drift_opts = DriftOptions {
        to_by_name: modules.into_iter().map(|m| (m, from.clone())).collect(),
        ..DriftOptions::default()
    };
    let groups = targets::group(repos, &drift_opts, &mut all)?;
    let mut at: BTreeMap<usize, Result<MappedRange, String>> = BTreeMap::new();
    for g in groups.iter().filter(|g| g.repo_index == repo_index) {
        let ranges: Vec<_> = g.members.iter().map(|&i| all[i].range.clone()).collect();
        let options = CompareOptions {
            symbols: false,
            digests: false,
            diffs: false,
        };
        let results = drift_engine::compare(&repo, &g.from, &g.to, &ranges, options)
            .map_err(|e| ImpactError::Git(e.message))?;
        for (&i, d) in g.members.iter().zip(results) {
            at.insert(i, range_at(&all[i], d.outcome));
        }
    }
    let mut report = ImpactReport {
        source: name,
        from,
        to,
        counts: ImpactCounts {
            files: changes.len(),
            hunks: changes.iter().map(|c| c.hunks.len()).sum(),
            added,
            ..ImpactCounts::default()
        },
        pages: Vec::new(),
        unassessed: Vec::new(),
    };
    let mut affected = affected(&repo, &report.from, &all, &at, &changes);
    if opts.lines_only {
        let before = affected.len();
        affected.retain(|_, a| a.via != "symbol");
        report.counts.left_out = before - affected.len();
    }
    for (i, t) in all.iter().enumerate() {
        if t.located.is_none() {
            if let Some(why) = t
                .reason
                .as_ref()
                .filter(|_| sources.contains(&source_of(&t.origin.module)))
            {
                report.unassessed.push(unassessed(t, why.clone()));
            }
            continue;
        }
        match at.get(&i) {
            Some(Err(reason)) => report.unassessed.push(unassessed(t, reason.clone())),
            None => report.unassessed.push(unassessed(
                t,
                t.reason.clone().unwrap_or_else(|| "not compared".into()),
            )),
            Some(Ok(_)) => report.counts.assessed += 1,
        }
    }
    assemble(&mut report, &all, affected);
    Ok(report)
}

fn unassessed(t: &Target, reason: String) -> Unassessed {
    Unassessed {
        article_id: t.article_id.clone(),
        section_id: t.section_id.clone(),
        ref_index: t.ref_index,
        reason,
    }
}

/// The repository the change is on: the one `name` selects, else the only one cited.
/// Why a change with no source named cannot be read.
const NO_CLONE: &str = "no reference of the workspace cites a repository with a local clone";

/// Why no cited repository has a clone to read: a registry that cannot be used is the cause
/// when there is one (the CI walk on pathspec was told to map a clone that was mapped, while
/// the registry's indentation was wrong), else [`NO_CLONE`].
fn no_clone(session: &Session) -> ImpactError {
    let unusable = session.graph().ok().and_then(|g| {
        ontoly_graph::graph::findings::diagnostics_of(g)
            .into_iter()
            .find(|d| d.code == ontoly_graph::diagnostics::Code::RegistryUnusable.as_str())
    });
    match unusable {
        Some(d) => ImpactError::Registry(format!(
            "no reference can be located: the source registry cannot be used ({}: {})",
            d.location, d.message
        )),
        None => ImpactError::NoClone(NO_CLONE.to_string()),
    }
}

fn select_source(all: &[Target], name: Option<&str>) -> Result<(usize, String), ImpactError> {
    let mut found: BTreeMap<usize, String> = BTreeMap::new();
    // Each name, with the repositories it names: a namespace (`spf13`) names several.
    let mut known: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
    for t in all {
        let Some(l) = &t.located else { continue };
        for n in &l.names {
            known.entry(n.as_str()).or_default().insert(l.repo);
        }
        match name {
            Some(n) if l.is_named(n) => {
                found.entry(l.repo).or_insert_with(|| n.to_string());
            }
            Some(_) => {}
            // Without a name, a module's source names the change unless the sources differ.
            None => {
                found
                    .entry(l.repo)
                    .or_insert_with(|| l.names.last().cloned().unwrap_or_default());
            }
        }
    }
    // Only the names that choose one repository are offered (Go walk, stop 48: "known:
    // spf13, …" was offered and failed as the list's other names had).
    let list = || {
        (known.iter())
            .filter(|(_, repos)| repos.len() == 1)
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    };
    // Why the module named is cited but cannot be read (a mapped clone that does not open).
    let unreadable = |n: &str| {
        all.iter().find_map(|t| {
            let module = t.origin.module.as_str();
            let named = module == n || module.strip_prefix(n).is_some_and(|m| m.starts_with('/'));
            named.then(|| t.reason.clone()).flatten()
        })
    };
    match found.len() {
        1 => Ok(found.into_iter().next().unwrap_or_default()),
        0 => Err(match name.map(|n| (n, unreadable(n))) {
            // Say why, rather than that no module has the name.
            Some((n, Some(why))) => ImpactError::NoClone(format!("{n}: {why}")),
            Some((n, None)) => ImpactError::Source(format!(
                "no cited module with a local clone is named {n:?} (known: {})",
                list()
            )),
            None => ImpactError::NoClone(NO_CLONE.to_string()),
        }),
        _ => Err(ImpactError::Source(match name {
            Some(n) => format!(
                "{n:?} names several cited repositories: name one as the source (known: {})",
                list()
            ),
            None => format!(
                "the references cite several repositories: name one as the source (known: {})",
                list()
            ),
        })),
    }
}

/// A git diff names the blob of each file's old side (`index <old>..<new>`). When one is not
/// the file at `from`, the diff was made against another commit (`git diff main...` is against
/// the merge base, not `HEAD`), and its hunks' line numbers would be laid over other lines:
/// refused, naming the files, rather than answered wrongly.
fn check_old_side(
    reader: &drift_engine::DriftReader,
    from: &str,
    changes: &[engine::FileChange],
) -> Result<(), ImpactError> {
    // A diff of two directories (`diff -u /tmp/a/src/x.py /tmp/b/src/x.py`) names no file of
    // the repository: say so, not that the commit is wrong.
    if let Some(path) = changes
        .iter()
        .filter_map(|c| c.old_path.as_deref().or(c.new_path.as_deref()))
        .find(|p| p.starts_with('/'))
    {
        return Err(ImpactError::Diff(format!(
            "the diff names {path}, an absolute path, where a repository-relative one belongs: \
             make it with `git diff`, or run `diff -u` from the repository's root on relative paths"
        )));
    }
    let mut wrong = Vec::new();
    for c in changes {
        let Some(path) = &c.old_path else { continue };
        let Some(blob) = &c.old_blob else {
            // No `index` line (`diff -u`, a hand-made diff): the lines it quotes of the old
            // side are checked against the file at `from` instead.
            if let Some(why) = quoted_lines_differ(reader, from, path, &c.old_lines)? {
                wrong.push(format!("{path} ({why})"));
            }
            continue;
        };
        let at = reader
            .blob_id(from, path)
            .map_err(|e| ImpactError::Git(e.message))?;
        if !at
            .as_deref()
            .is_some_and(|id| id.starts_with(blob.as_str()))
        {
            let here = at.map_or("no such file".to_string(), |id| {
                format!("blob {}", id.get(..blob.len()).unwrap_or(&id))
            });
            wrong.push(format!(
                "{path} (the diff's old side is blob {blob}; there, {here})"
            ));
        }
    }
    let Some(first) = wrong.first() else {
        return Ok(());
    };
    let more = match wrong.len() {
        1 => String::new(),
        n => format!(" and {} more file(s)", n - 1),
    };
    Err(ImpactError::DiffBase(format!(
        "the diff was not made against {}: {first}{more}",
        from.get(..12).unwrap_or(from)
    )))
}

/// Why the old-side lines a diff quotes are not the file's at `from` (the first that differs,
/// cut to a readable length), or `None` when every one is.
fn quoted_lines_differ(
    reader: &drift_engine::DriftReader,
    from: &str,
    path: &str,
    quoted: &[(u64, String)],
) -> Result<Option<String>, ImpactError> {
    if quoted.is_empty() {
        return Ok(None);
    }
    let Some(bytes) = reader
        .file(from, path)
        .map_err(|e| ImpactError::Git(e.message))?
    else {
        return Ok(Some("no such file there".into()));
    };
    let lines = drift_engine::classify::split_lines(&bytes);
    for (n, text) in quoted {
        let there = n
            .checked_sub(1)
            .and_then(|i| lines.get(i as usize))
            .map(|l| String::from_utf8_lossy(l));
        match there {
            Some(t) if t == text.as_str() => {}
            Some(t) => {
                return Ok(Some(format!(
                    "line {n} is {} there, the diff has {}",
                    cut_quoted(&t),
                    cut_quoted(text)
                )))
            }
            None => return Ok(Some(format!("the file has no line {n} there"))),
        }
    }
    Ok(None)
}

/// `t` quoted, cut to a readable length; a line cut short says so outside the quotes, since a
/// cut in the middle of an escape read as the whole line (jsdrift walk, F9).
fn cut_quoted(t: &str) -> String {
    const SHOWN: usize = 60;
    let head: String = t.chars().take(SHOWN).collect();
    match t.chars().count() > SHOWN {
        true => format!("{head:?}… ({} characters)", t.chars().count()),
        false => format!("{head:?}"),
    }
}

/// A reference's range at the old side of the change, from its drift verdict.
fn range_at(t: &Target, outcome: Result<Verdict, String>) -> Result<MappedRange, String> {
    let r = &t.range;
    match outcome? {
        Verdict::Unchanged => Ok(MappedRange {
            path: r.path.clone(),
            start_line: r.start_line,
            end_line: r.end_line,
        }),
        Verdict::Moved {
            new_path,
            new_start_line,
            new_end_line,
        } => Ok(MappedRange {
            path: new_path,
            start_line: new_start_line,
            end_line: new_end_line,
        }),
        Verdict::Changed {
            new_path,
            mapped: Some(m),
            ..
        } => Ok(MappedRange {
            path: new_path,
            start_line: m.start_line,
            end_line: m.end_line,
        }),
        Verdict::Changed { mapped: None, .. } => Err(format!(
            "its lines are gone at the change's old side ({})",
            Status::Changed.as_str()
        )),
        Verdict::Missing => Err(format!(
            "its file is gone at the change's old side ({})",
            Status::Missing.as_str()
        )),
    }
}

/// Per affected target: its range at the old side, how it is touched, the covering symbol
/// and the hunks. Symbols are parsed only for files that are both cited and changed.
fn affected(
    repo: &drift_engine::DriftRepo,
    from: &str,
    all: &[Target],
    at: &BTreeMap<usize, Result<MappedRange, String>>,
    changes: &[FileChange],
) -> BTreeMap<usize, AffectedReference> {
    // Per changed file: the change and its hunks that change code (blank or comment lines
    // added or removed elsewhere in a definition change none of its code).
    let by_old: BTreeMap<&str, (&FileChange, Vec<Hunk>)> = changes
        .iter()
        .filter_map(|c| {
            let code = (c.hunks.iter())
                .filter(|h| !c.no_code.contains(h))
                .copied()
                .collect();
            Some((c.old_path.as_deref()?, (c, code)))
        })
        .collect();
    let reader = repo.reader();
    // Per cited and changed file: each line's indentation at the old side (`None`: blank),
    // and its definitions.
    type Parsed = Option<(Vec<Option<usize>>, symbols::FileSymbols)>;
    let mut parsed: BTreeMap<&str, Parsed> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for (&i, range) in at {
        let Ok(range) = range else { continue };
        let Some((change, code_hunks)) = by_old.get(range.path.as_str()) else {
            continue;
        };
        let shown = change.new_path.as_deref().unwrap_or(&range.path);
        let renamed = change.new_path.as_deref().filter(|p| *p != range.path);
        let mut direct = engine::touching(&change.hunks, range.start_line, range.end_line);
        let file = parsed.entry(range.path.as_str()).or_insert_with(|| {
            let text = reader.blob(from, &range.path).ok().flatten()?;
            let syms = symbols::extract(&range.path, std::str::from_utf8(&text).ok()?)?;
            let indent = (classify::split_lines(&text).into_iter())
                .map(engine::indent)
                .collect();
            Some((indent, syms))
        });
        let syms = file.as_ref().map(|(_, f)| f);
        // A line's indentation: `Some(None)` when it is blank, `None` past the file.
        let indent_of = |n: u64| -> Option<Option<usize>> {
            let (indent, _) = file.as_ref()?;
            indent
                .get(usize::try_from(n).ok()?.checked_sub(1)?)
                .copied()
        };
        // Which definition the range stands for is said by its code, not its blank edges.
        let code = anchor::without_blank_edges(
            |n| indent_of(n).is_some_and(|i| i.is_none()),
            range.start_line,
            range.end_line,
        );
        if let (Some(f), true) = (syms, python(&range.path)) {
            for h in continued(f, code, &change.inserted_indent, indent_of) {
                if !direct.contains(&h) {
                    direct.push(h);
                }
            }
        }
        // Code written on a definition from above (an annotation or decorator added over
        // it) changes it as its own lines do.
        let attached: Vec<Hunk> = (change.attached.iter())
            .filter(|h| code_hunks.contains(h))
            .copied()
            .collect();
        let (symbol, around, touched) = match syms {
            Some(f) => around_range(f, &range.path, code, code_hunks, &attached),
            None => (None, Vec::new(), Vec::new()),
        };
        // A rename that leaves the lines alone still moves what the reference names: the
        // section's citation goes stale, which a pull request's check should say.
        let (via, hunks) = if !direct.is_empty() {
            ("range", direct)
        } else if !around.is_empty() {
            ("symbol", around)
        } else if renamed.is_some() {
            ("path", Vec::new())
        } else {
            continue;
        };
        let t = &all[i];
        out.insert(
            i,
            AffectedReference {
                ref_index: t.ref_index,
                source_ref: t.source_ref.clone(),
                path: t.range.path.clone(),
                start_line: t.range.start_line,
                end_line: t.range.end_line,
                at: range.clone(),
                via: via.to_string(),
                renamed_to: renamed.map(str::to_string),
                // No hunk touches the lines (else `via` is not `path`): a pure shift.
                renamed_lines: (via == "path")
                    .then(|| classify::map_range(range.start_line, range.end_line, &change.hunks))
                    .flatten(),
                deleted: change.new_path.is_none(),
                touched: match (via, syms) {
                    ("symbol", _) => touched,
                    // A hunk of only comments or blank lines changes no definition's code,
                    // even one whose written-on lines it falls in (a commented-out block
                    // deleted above zod's `handleCanaryResult`; TypeScript walk, stop 49).
                    ("range", Some(f)) => {
                        let code: Vec<Hunk> = (hunks.iter())
                            .filter(|h| !change.no_code.contains(h))
                            .copied()
                            .collect();
                        hit_within(f, range, &code, symbol.as_ref())
                    }
                    _ => Vec::new(),
                },
                symbol,
                hunks: hunks.iter().map(|h| HunkView::new(shown, h)).collect(),
                line: t.origin.line,
            },
        );
    }
    out
}

/// Whether blocks are written by indentation in `path`'s language.
fn python(path: &str) -> bool {
    symbols::Lang::for_path(path) == Some(symbols::Lang::Python)
}

/// The insertions after the code of `start..=end` that continue a definition it ends with, in
/// a language whose blocks are indentation: past the last line of a definition the range
/// holds, or of the function it is part of, and the blank lines after it, lines indented
/// deeper than that definition are still in it (a method added at the end of a class cited
/// whole; a statement added at the end of a function whose tail is cited). A member added
/// after a method the range cites is in the class around it, which the range does not stand
/// for.
fn continued(
    f: &symbols::FileSymbols,
    (start, end): (u64, u64),
    inserted: &[(Hunk, usize)],
    indent_of: impl Fn(u64) -> Option<Option<usize>>,
) -> Vec<Hunk> {
    let outer = (f.definitions.iter())
        .filter(|d| d.end_line == end)
        .filter(|d| d.start_line >= start || !anchor::holds_members(d.kind))
        .filter_map(|d| indent_of(d.item_line).flatten())
        .min();
    let Some(outer) = outer else {
        return Vec::new();
    };
    inserted
        .iter()
        .filter(|(h, indent)| {
            *indent > outer
                && h.old_start >= end
                && (end + 1..=h.old_start).all(|n| indent_of(n).is_some_and(|i| i.is_none()))
        })
        .map(|(h, _)| *h)
        .collect()
}

/// The definition covering lines `start..=end` of `path` at the old side, the hunks that touch
/// the definitions around them (in old-line order, each once), and those of the definitions
/// they touch. The definitions around them are [`anchor::standing_for`]'s, which drift's
/// `changed_around` also asks about: a function stands for the range whole, a container only
/// through the members the range overlaps.
fn around_range(
    f: &symbols::FileSymbols,
    path: &str,
    (start, end): (u64, u64),
    hunks: &[Hunk],
    attached: &[Hunk],
) -> (Option<SymbolAt>, Vec<Hunk>, Vec<SymbolAt>) {
    let Some(cover) = anchor::covering(f, start, end) else {
        return (None, Vec::new(), Vec::new());
    };
    let members = anchor::standing_for(f, start, end);
    let mut around: Vec<Hunk> = Vec::new();
    let mut touched = Vec::new();
    for d in members {
        // Its lines with what is written on it: the hunks here change code (an edit of its
        // doc comment alone changes what the definition says, not what the cited lines do,
        // and is no code hunk), so a changed or added annotation or decorator counts (Java
        // walk, stop 48: `@Deprecated` added over a method cited whole was for drift to
        // review and affected nothing).
        let mut hit = engine::touching(hunks, d.start_line, d.end_line);
        hit.retain(|h| {
            engine::through_definition((d.start_line, d.item_line, d.end_line), (start, end), h)
        });
        hit.extend(attached.iter().filter(|h| h.old_start + 1 == d.start_line));
        if hit.is_empty() {
            continue;
        }
        touched.push(SymbolAt::new(d, path));
        for h in hit {
            if !around.contains(&h) {
                around.push(h);
            }
        }
    }
    around.sort_by_key(|h| (h.old_start, h.new_start));
    (Some(SymbolAt::new(cover, path)), around, touched)
}

/// For a range its hunks touch directly: the innermost definitions those hunks change inside
/// the range, when they are not the one covering it ([`anchor::changed_within`], drift's rule
/// too). A range over a class's end and a constant after it stands for the class, but an edit
/// of the constant changes the constant: the output names it beside the class.
fn hit_within(
    f: &symbols::FileSymbols,
    range: &MappedRange,
    hunks: &[Hunk],
    cover: Option<&SymbolAt>,
) -> Vec<SymbolAt> {
    let cover =
        cover.and_then(|c| (f.definitions.iter()).find(|d| SymbolAt::new(d, &range.path) == *c));
    anchor::changed_within(f, range.start_line, range.end_line, hunks, cover)
        .into_iter()
        .map(|d| SymbolAt::new(d, &range.path))
        .collect()
}

/// Groups the affected references by page and section, in structure order, and counts them.
fn assemble(
    report: &mut ImpactReport,
    all: &[Target],
    affected: BTreeMap<usize, AffectedReference>,
) {
    for (i, a) in affected {
        let t = &all[i];
        if report
            .pages
            .last()
            .is_none_or(|p| p.article_id != t.article_id)
        {
            report.pages.push(PageImpact {
                page: t.origin.page.clone(),
                article_id: t.article_id.clone(),
                sections: Vec::new(),
            });
        }
        let Some(page) = report.pages.last_mut() else {
            continue;
        };
        match page.sections.last_mut() {
            Some(s) if s.section_id == t.section_id => s.references.push(a),
            _ => page.sections.push(SectionImpact {
                section_id: t.section_id.clone(),
                references: vec![a],
            }),
        }
    }
    report.counts.pages = report.pages.len();
    report.counts.sections = report.pages.iter().map(|p| p.sections.len()).sum();
    report.counts.references = report
        .pages
        .iter()
        .flat_map(|p| &p.sections)
        .map(|s| s.references.len())
        .sum();
}

#[cfg(test)]
mod tests {
    use super::*;

    const STORE: &str = "class Store:
    \"\"\"A store.\"\"\"
    limit = 10

    def get(self, key):
        v = self.items[key]
        return v

    def put(self, key, v):
        self.items[key] = v
        return None

    def drop(self, key):
        del self.items[key]
";

    #[test]
    fn a_quoted_line_cut_short_says_so() {
        assert_eq!(cut_quoted("return other"), r#""return other""#);
        let long = r"var schemaAndHostRegExp = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:)?\/\/[^\\\/\?]+/;";
        let q = cut_quoted(long);
        assert!(q.starts_with(r#""var schemaAndHostRegExp"#), "{q}");
        assert!(
            q.ends_with(&format!("\"… ({} characters)", long.chars().count())),
            "{q}"
        );
    }

    fn edit(line: u64) -> Hunk {
        Hunk {
            old_start: line,
            old_count: 1,
            new_start: line,
            new_count: 1,
        }
    }

    #[test]
    fn an_edit_inside_a_range_names_the_definition_it_changes_there() {
        // Lines 11-17: the last of Store's methods and a constant after the class.
        let text = format!("{STORE}\n\nLIMIT = Store()\nOTHER = 2\n");
        let f = symbols::extract("store.py", &text).expect("python parses");
        let range = MappedRange {
            path: "store.py".into(),
            start_line: 11,
            end_line: 17,
        };
        let (cover, _, _) = around_range(&f, "store.py", (11, 17), &[], &[]);
        assert_eq!(cover.as_ref().map(|c| c.qualified.as_str()), Some("Store"));
        let named = |line: u64| -> Vec<String> {
            hit_within(&f, &range, &[edit(line)], cover.as_ref())
                .into_iter()
                .map(|s| s.qualified)
                .collect()
        };
        // The constant, beside the class the range stands for.
        assert_eq!(named(17), ["LIMIT"]);
        // Inside the class: its member, not the class.
        assert_eq!(named(14), ["Store.drop"]);
    }

    fn around(
        text: &str,
        path: &str,
        lines: (u64, u64),
        hunks: &[Hunk],
    ) -> (String, Vec<u64>, Vec<String>) {
        let f = symbols::extract(path, text).expect("a grammar for the file");
        let (cover, hit, touched) = around_range(&f, path, lines, hunks, &[]);
        (
            cover.map(|s| s.qualified).unwrap_or_default(),
            hit.iter().map(|h| h.old_start).collect(),
            touched.into_iter().map(|s| s.qualified).collect(),
        )
    }

    #[test]
    fn a_range_across_methods_is_touched_through_those_methods_not_the_class() {
        let hunks = [edit(11), edit(14)];
        // Lines 6-10 end get() and begin put(): the edit of put()'s line 11 changes what they
        // cite; drop()'s line 14 is only in the same class.
        assert_eq!(
            around(STORE, "store.py", (6, 10), &hunks),
            ("Store".into(), vec![11], vec!["Store.put".into()])
        );
        // The class's own lines (its docstring and attribute) are in no method: no edit of a
        // method is around them.
        assert_eq!(
            around(STORE, "store.py", (2, 3), &hunks),
            ("Store".into(), vec![], vec![])
        );
        // Inside one method, the method stands for the range whole.
        assert_eq!(
            around(STORE, "store.py", (10, 10), &hunks),
            ("Store.put".into(), vec![11], vec!["Store.put".into()])
        );
    }

    #[test]
    fn a_long_function_is_around_a_range_only_near_it_or_at_its_head() {
        // jq's `main()`: 430 lines, its option loop one `if` after another. A short function
        // is read whole.
        let mut text = String::from("static int small(int x)\n{\n  x = x + 1;\n  x = x * 2;\n  return x;\n}\n\nint main(int argc, char **argv)\n{\n");
        for i in 0..200 {
            text.push_str(&format!("  if (argc == {i}) argc++;\n"));
        }
        text.push_str("  return 0;\n}\n");
        // main is lines 8-211; the range 150-152.
        let (cover, hit, touched) = around(&text, "src/main.c", (150, 152), &[edit(20)]);
        assert_eq!((cover.as_str(), hit, touched), ("main", vec![], vec![]));
        // Near the lines, or at the signature, the change is around them.
        for line in [135, 170, 8] {
            let (_, hit, touched) = around(&text, "src/main.c", (150, 152), &[edit(line)]);
            assert_eq!(
                (hit, touched),
                (vec![line], vec!["main".to_string()]),
                "{line}"
            );
        }
        // A range over its first line cites it whole.
        let (_, hit, _) = around(&text, "src/main.c", (8, 12), &[edit(150)]);
        assert_eq!(hit, [150]);
        // A short function stands for a range in it whole.
        assert_eq!(
            around(&text, "src/main.c", (5, 5), &[edit(3)]),
            ("small".into(), vec![3], vec!["small".into()])
        );
    }

    #[test]
    fn members_are_found_through_nested_containers_in_document_order() {
        let text = "mod inner {
    impl Engine {
        fn start(&self) {
            let a = 1;
            let b = 2;
        }

        fn stop(&self) {
            let c = 3;
            let d = 4;
        }

        fn other(&self) {}
    }
}
";
        // 5-9 spans the end of start() and the beginning of stop(), both edited outside the
        // range; other() (line 13) is not around it.
        let (cover, hit, touched) = around(text, "lib.rs", (5, 9), &[edit(13), edit(10), edit(4)]);
        assert_eq!(cover, "inner::Engine");
        assert_eq!(hit, vec![4, 10]);
        assert_eq!(touched, vec!["inner::Engine::start", "inner::Engine::stop"]);
    }
}
