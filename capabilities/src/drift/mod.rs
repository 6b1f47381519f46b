//! Drift: is the knowledge still true? Every `repo:` and `repo-content:` reference of the
//! workspace, compared at a later commit with the lines it cites at its pinned commit.
//!
//! The engine is `ontoly_graph::sources::drift` (verdicts, git-equal hunks and renames,
//! symbols); this module turns the workspace's references into cited ranges of the session's
//! repositories, groups them by repository and pair of commits (one `compare` per group),
//! and maps the results back to each reference, in structure order. [`reanchor`] plans the
//! registry and structure edits that re-anchor the modules whose references all survived.
//!
//! Statuses, from the best to the worst: `unchanged`, `moved`, `changed`, `missing`;
//! `unverifiable` (with the reason) stands apart: nothing was compared.

pub(crate) mod capability;
pub mod reanchor;
pub mod targets;

use ontoly_graph::sources::drift::{
    self as engine, ChangedAround, CompareOptions, KeptLines, RangeDrift, Relocation, SymbolAt,
    Verdict,
};
use ontoly_graph::Session;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
pub use targets::{Target, TargetGroup};

/// The status of one reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Same path, same lines at the same line numbers.
    Unchanged,
    /// The cited lines occur exactly once at the later commit, elsewhere.
    Moved,
    /// The cited lines occur zero or several times at the later commit.
    Changed,
    /// The file and any rename target of it are gone.
    Missing,
    /// Nothing could be compared (no clone, unpinned, a document source, `+worktree`, an
    /// unknown commit…): `reason` says why.
    Unverifiable,
}

impl Status {
    /// Every status, best first.
    pub const ALL: [Status; 5] = [
        Status::Unchanged,
        Status::Moved,
        Status::Changed,
        Status::Missing,
        Status::Unverifiable,
    ];

    /// The status as written.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Unchanged => "unchanged",
            Status::Moved => "moved",
            Status::Changed => "changed",
            Status::Missing => "missing",
            Status::Unverifiable => "unverifiable",
        }
    }

    /// Whether this status is `threshold` or worse (`unverifiable` is never worse than
    /// anything: it says nothing about the code).
    pub fn at_least(self, threshold: Status) -> bool {
        self != Status::Unverifiable && self >= threshold
    }
}

/// A line range at the later commit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MappedRange {
    /// The later file.
    pub path: String,
    /// First line.
    pub start_line: u64,
    /// Last line, inclusive.
    pub end_line: u64,
}

/// Whether a changed range's cited lines were replaced by other code: the diff maps the range
/// to `mapped`, but a quarter or fewer of its lines survive ([`KeptLines`]), outside any
/// namesake of its definition there (`suggestion`: a definition of its name at the later
/// commit; [`KeptLines::replaced`]). `ontoly drift` and a pack's drift marks both decide it
/// here, from the same facts.
pub fn replaced(
    mapped: &MappedRange,
    kept: Option<KeptLines>,
    suggestion: Option<&SymbolAt>,
) -> bool {
    let Some(k) = kept else {
        return false;
    };
    let namesake = suggestion
        .filter(|s| s.path == mapped.path)
        .map(|s| (s.start_line, s.end_line));
    k.replaced((mapped.start_line, mapped.end_line), namesake)
}

/// What became of a changed range's lines at the later commit, as `ontoly drift` and an
/// Evidence Pack's drift marks both tell it (one rule, so a pack never calls a range rewritten
/// that drift calls edited, or the reverse).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangedLines<'a> {
    /// Other code was written in the lines' place ([`replaced`]): the diff maps them there,
    /// but only `kept` of them survive.
    Rewritten {
        /// Where the diff maps the range.
        mapped: &'a MappedRange,
        /// How many of its cited lines survive.
        kept: KeptLines,
    },
    /// Most of its lines were deleted ([`engine::mostly_gone`]: an eleven-line branch deleted,
    /// the one line the hunk put in its place left); the rest maps to `mapped`.
    MostlyDeleted {
        /// Where the diff maps what is left.
        mapped: &'a MappedRange,
    },
    /// Edited: `mapped` is the place to read it.
    Edited {
        /// Where the diff maps the range.
        mapped: &'a MappedRange,
    },
    /// None of its lines maps anywhere: deleted, or moved to another file.
    Deleted,
}

impl<'a> ChangedLines<'a> {
    /// Of a changed range of lines `start..=end` that the diff maps to `mapped` (none: all of
    /// it deleted), `replaced` as [`replaced`] decides it.
    pub fn of(
        (start, end): (u64, u64),
        mapped: Option<&'a MappedRange>,
        kept: Option<KeptLines>,
        replaced: bool,
    ) -> ChangedLines<'a> {
        let Some(mapped) = mapped else {
            return ChangedLines::Deleted;
        };
        match kept {
            Some(kept) if replaced => ChangedLines::Rewritten { mapped, kept },
            _ if engine::mostly_gone(
                end.saturating_sub(start) + 1,
                mapped.end_line.saturating_sub(mapped.start_line) + 1,
            ) =>
            {
                ChangedLines::MostlyDeleted { mapped }
            }
            _ => ChangedLines::Edited { mapped },
        }
    }

    /// What became of the lines when the range the diff maps them to is not where to read
    /// them (`None` when it is, or when nothing maps): "rewritten: 0 of its 12 lines of code kept (the
    /// diff maps it to lib/request.js:218-229, other code)", "most of its 17 lines deleted
    /// (the rest maps to docs/index.rst:17-17)". `cited` is the range's number of lines.
    pub fn words(&self, cited: u64) -> Option<String> {
        let at = |m: &MappedRange| format!("{}:{}-{}", m.path, m.start_line, m.end_line);
        match self {
            ChangedLines::Rewritten { mapped, kept } => Some(format!(
                "rewritten: {} of its {} lines of code kept (the diff maps it to {}, other code)",
                kept.kept,
                kept.of,
                at(mapped)
            )),
            ChangedLines::MostlyDeleted { mapped } => Some(format!(
                "most of its {cited} lines deleted (the rest maps to {})",
                at(mapped)
            )),
            ChangedLines::Edited { .. } | ChangedLines::Deleted => None,
        }
    }
}

/// How one reference fares. Fields that do not apply to its status are absent from the JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReferenceDrift {
    /// The article of the section.
    pub article_id: String,
    /// The section.
    pub section_id: String,
    /// 0-based position in the section's references.
    pub ref_index: usize,
    /// `source_ref` as written, shown as the graph shows it: any credential redacted, and by
    /// its kind only (`repo:***`) when it does not resolve and may hold one
    /// ([`ontoly_graph::formats::source_ref::shown_unresolved`]).
    pub source_ref: String,
    /// Repository-relative path: the module subpath joined with the locator path.
    pub path: String,
    /// First cited line.
    pub start_line: u64,
    /// Last cited line.
    pub end_line: u64,
    /// The verdict.
    pub status: Status,
    /// Moved or changed: the later file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_path: Option<String>,
    /// Moved: the new first line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_start_line: Option<u64>,
    /// Moved: the new last line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_end_line: Option<u64>,
    /// Changed: how many times the cited block occurs in the later file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occurrences: Option<u64>,
    /// Changed: where a `-U0` diff takes the old range (`null`: all of it was deleted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mapped: Option<Option<MappedRange>>,
    /// Changed: how many of the cited lines survive the change (unchanged, or rewritten into a
    /// like line), of those that count. When a quarter or fewer do and `mapped` is not in a
    /// namesake of the range's definition, `mapped` is code written in the range's place, not
    /// the range edited, and `--accept-changed` holds the reference back
    /// ([`ReferenceDrift::rewritten_away`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept_lines: Option<KeptLines>,
    /// Changed or missing: the definition that covered the range at the pinned commit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<SymbolAt>,
    /// Changed or missing: a definition of the same name at the later commit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<SymbolAt>,
    /// Changed, with a `symbol`: the other definitions the change's code changed within the
    /// range, at the pinned commit (impact's `touched`, by the same rule): the range stands
    /// for `symbol`, the edit is in these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub touched: Vec<SymbolAt>,
    /// Changed with no occurrence of the cited block, or missing: where most of its lines are
    /// at the later commit, in any file the change touched (a hint for review).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relocation: Option<Relocation>,
    /// Missing: the file the change added that took the cited file's name (`docs/why.md` for
    /// `docs/why.rst`, `docs/community/topics.md` for `docs/contribute/topics.md`): where a
    /// page converted to another markup, or moved and rewritten, went. A
    /// hint for review; its lines, read by their words, may be the `relocation`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub successor: Option<String>,
    /// Unchanged or moved, when the range cited exactly one definition and that definition
    /// now spans more (lines added inside it or at its end): it at the later commit. The
    /// module is then re-anchored only with `--accept-changed`, at the whole definition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grown: Option<SymbolAt>,
    /// Moved or unchanged, without `grown`: the definition the cited lines are part of, at the
    /// later commit, when its code changed around them, with the hunks that changed it (blank
    /// and comment lines aside, as impact reads them). The lines are the same; what they do in
    /// it may not be, so the section asks for a review, though `--write` re-anchors it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changed_around: Option<ChangedAround>,
    /// Unverifiable: why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Changed, when asked for: the unified diff of the cited lines against the lines of the
    /// later file that accepting the change would cite, numbered in the two files; when all the
    /// cited lines were deleted, and for a missing reference, against its relocation window
    /// (absent without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// Where the reference is written, for annotations and re-anchoring (not in the JSON).
    #[serde(skip)]
    pub origin: Origin,
}

impl ReferenceDrift {
    /// Where to review a changed reference: where `--diff` reads it and `--accept-changed` or
    /// `--accept-relocated` re-anchors it. The relocation it follows
    /// ([`Relocation::followed`]: the definition it cited whole when that is where the window
    /// is, else the window); else the definition it cited whole, at the later commit
    /// ([`ReferenceDrift::cited_definition_now`]: the diff's hunks may reach past it into new
    /// neighbours); else the range the diff maps it to.
    pub fn review_range(&self) -> Option<MappedRange> {
        if let Some(to) = self.followed() {
            return Some(self.cited_definition_now().unwrap_or_else(|| MappedRange {
                path: to.path.clone(),
                start_line: to.start_line,
                end_line: to.end_line,
            }));
        }
        self.cited_definition_now().or_else(|| {
            self.mapped
                .clone()
                .flatten()
                .filter(|_| !self.rewritten_away())
        })
    }

    /// The relocation a changed reference follows ([`Relocation::followed`]).
    pub fn followed(&self) -> Option<&Relocation> {
        (self.relocation.as_ref()).filter(|r| r.followed && self.status == Status::Changed)
    }

    /// The relocation a changed reference follows when it holds every distinctive line of the
    /// range in another file: the code moved there whole. The old file's diff deletes it, and
    /// what that diff says of its lines (rewritten, the methods it touched) is no news of the
    /// code (eza drift walk, stop 59: a `Logger` moved to `logger/sink.rs` read "rewritten: 0
    /// of its 13 lines of code kept; the change is in method `enabled`, method `log`").
    pub fn moved_whole(&self) -> Option<&Relocation> {
        self.followed()
            .filter(|m| m.matched == m.of && m.of > 0 && !m.by_words && m.path != self.path)
    }

    /// Whether a changed reference's cited lines were replaced by other code: the diff maps
    /// the range somewhere, but a quarter or fewer of its lines survive there, outside any
    /// namesake of its definition ([`KeptLines::replaced`]). `--accept-changed` holds it back.
    pub fn rewritten_away(&self) -> bool {
        let (Status::Changed, Some(Some(m))) = (self.status, &self.mapped) else {
            return false;
        };
        replaced(m, self.kept_lines, self.suggestion.as_ref())
    }

    /// What became of a changed reference's lines ([`ChangedLines`]); `None` for any other
    /// status.
    pub fn changed_lines(&self) -> Option<ChangedLines<'_>> {
        (self.status == Status::Changed).then(|| {
            ChangedLines::of(
                (self.start_line, self.end_line),
                self.mapped.as_ref().and_then(Option::as_ref),
                self.kept_lines,
                self.rewritten_away(),
            )
        })
    }

    /// The definition a changed reference cited whole, at the later commit: in the file the
    /// diff maps it to, or where most of its lines went.
    pub fn cited_definition_now(&self) -> Option<MappedRange> {
        let s = self.suggestion.as_ref()?;
        let mapped = self.mapped.as_ref().and_then(Option::as_ref);
        let in_window = self.relocation.as_ref().is_some_and(|m| {
            m.path == s.path && m.start_line <= s.end_line && s.start_line <= m.end_line
        });
        // A reference that follows its window is where the window is: a namesake elsewhere is
        // a shell its body left (hyperfine's `compute`).
        let there = match self.followed() {
            Some(_) => in_window,
            None => mapped.is_some_and(|m| m.path == s.path) || in_window,
        };
        (self.origin.cited_whole && there).then(|| MappedRange {
            path: s.path.clone(),
            start_line: s.start_line,
            end_line: s.end_line,
        })
    }

    /// The relocation when it is news to a reader: not inside the range the diff maps the
    /// reference to (the same file, overlapping lines), which already says where to look, or
    /// holding that range and cited lines enough beyond it ([`Relocation::mapped_holds`]: two
    /// swapped methods, the diff's range one of them; Go walk, `repro-2-reorder-text.sh`).
    pub fn relocation_news(&self) -> Option<&Relocation> {
        let to = self.relocation.as_ref()?;
        if to.mapped_holds.is_some() || to.followed {
            return Some(to);
        }
        match &self.mapped {
            Some(Some(m))
                if m.path == to.path
                    && m.start_line <= to.end_line
                    && to.start_line <= m.end_line =>
            {
                None
            }
            _ => Some(to),
        }
    }

    /// The definition that changed around a moved reference's lines, in words: "function
    /// `module.exports` changed around them at lib/parse.js:259-262 (now lib/parse.js:240-264)".
    /// Where it changed is said at the later commit: the lines hunks added or rewrote, then
    /// the lines deletions follow, the first few of each (a 500-line struct changed in 14
    /// places reads as a count, not a list).
    pub fn changed_around_words(&self) -> Option<String> {
        const SHOWN: usize = 3;
        let c = self.changed_around.as_ref()?;
        let d = &c.definition;
        let kind = serde_json::to_value(d.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let list = |deleted: bool| -> Vec<String> {
            (c.hunks.iter())
                .filter(|h| (h.new_count == 0) == deleted)
                .take(SHOWN)
                .map(|h| match h.new_count {
                    0 | 1 => h.new_start.to_string(),
                    n => format!("{}-{}", h.new_start, h.new_start + n - 1),
                })
                .collect()
        };
        let (rewritten, deleted) = (list(false), list(true));
        let at = if rewritten.is_empty() {
            format!("in {}", d.path)
        } else {
            format!("at {}:{}", d.path, rewritten.join(", "))
        };
        let mut notes = Vec::new();
        if !deleted.is_empty() {
            notes.push(format!("lines deleted after {}", deleted.join(", ")));
        }
        if c.hunks.len() > rewritten.len() + deleted.len() {
            notes.push(format!("{} hunks in all", c.hunks.len()));
        }
        notes.push(format!("now {}:{}-{}", d.path, d.start_line, d.end_line));
        Some(format!(
            "{kind} `{}` changed around them {at} ({})",
            d.shown(),
            notes.join("; ")
        ))
    }

    /// Where the cited lines went, in words, when the diff's range does not say it: the
    /// relocation when it is news ("14 of 15 distinctive lines are at docs/guide.md:3-20",
    /// with "(by their words: the markup changed)" when only their words match), else the
    /// file that took a missing file's name.
    pub fn whereabouts(&self) -> Option<String> {
        if let Some(to) = self.relocation_news() {
            return Some(format!(
                "{} of {} distinctive lines are at {}:{}-{}{}",
                to.matched,
                to.of,
                to.path,
                to.start_line,
                to.end_line,
                if to.by_words {
                    " (by their words: the markup changed)"
                } else {
                    ""
                }
            ));
        }
        let s = self
            .successor
            .as_deref()
            .filter(|_| self.relocation.is_none())?;
        Some(format!("{s} took its name: read the section against it"))
    }
}

/// Where a reference is written and what its section is on (kept out of the JSON).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origin {
    /// The page of the article (`architecture/app.md`, under `knowledge/`).
    pub page: String,
    /// The line of the reference's `-` in `knowledge/structure.yaml` (0: unknown).
    pub line: u64,
    /// `<source>/<module>` of a `repo:` reference; `repo-content:<id>` of a `repo-content:`
    /// one; empty otherwise.
    pub module: String,
    /// The pinned commit, when there is one.
    pub pinned: Option<String>,
    /// The later commit compared with, when there was one.
    pub later: Option<String>,
    /// Unchanged or moved: the `content_digest` of the lines at the later commit, when asked
    /// for; changed: that of the lines of `accept_at`.
    pub later_digest: Option<String>,
    /// Changed, when digests were asked for: where accepting the change re-anchors it, in the
    /// later file (the engine's [`RangeDrift::accept_at`]).
    pub accept_at: Option<MappedRange>,
    /// With a relocation, when digests were asked for: the `content_digest` of its window at
    /// the later commit (the engine's [`RangeDrift::relocated_digest`]).
    pub relocated_digest: Option<String>,
    /// With `relocated_digest`: the lines of the relocation's file accepting it cites (the
    /// engine's [`RangeDrift::relocated_at`]): its window, or the definition the reference
    /// cited whole when that is where the window is.
    pub relocated_at: Option<(u64, u64)>,
    /// The `content_digest` as recorded in `structure.yaml`.
    pub recorded_digest: Option<String>,
    /// With `grown`, when digests were asked for: the `content_digest` of the grown
    /// definition's lines (the engine's [`RangeDrift::grown_digest`]).
    pub grown_digest: Option<String>,
    /// Changed or missing: the reference cited its `symbol` whole (the engine's
    /// [`RangeDrift::cited_whole`]).
    pub cited_whole: bool,
}

/// Counts by status (every status, zeros included).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// `unchanged`.
    pub unchanged: usize,
    /// `moved`.
    pub moved: usize,
    /// `changed`.
    pub changed: usize,
    /// `missing`.
    pub missing: usize,
    /// `unverifiable`.
    pub unverifiable: usize,
}

impl Counts {
    fn add(&mut self, s: Status) {
        *match s {
            Status::Unchanged => &mut self.unchanged,
            Status::Moved => &mut self.moved,
            Status::Changed => &mut self.changed,
            Status::Missing => &mut self.missing,
            Status::Unverifiable => &mut self.unverifiable,
        } += 1;
    }

    /// The count of `s`.
    pub fn of(&self, s: Status) -> usize {
        match s {
            Status::Unchanged => self.unchanged,
            Status::Moved => self.moved,
            Status::Changed => self.changed,
            Status::Missing => self.missing,
            Status::Unverifiable => self.unverifiable,
        }
    }
}

/// The drift of a workspace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DriftReport {
    /// The later commit of each module compared (`<source>/<module>`, `repo-content:<id>`).
    pub to: BTreeMap<String, String>,
    /// References by status.
    pub counts: Counts,
    /// Every reference, in structure order (those [`DriftReport::keep_at_most`] kept).
    pub references: Vec<ReferenceDrift>,
    /// References left out of the list by [`DriftReport::keep_at_most`] (absent when none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub omitted: usize,
    /// The reasons of the unverifiable references left out, with their counts, so that a text
    /// report can still say each reason once for all of them (not part of the JSON).
    #[serde(skip)]
    pub omitted_reasons: BTreeMap<String, usize>,
    /// What the person should know about the comparison itself: a commit compared with that
    /// is older than the one pinned (absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl DriftReport {
    /// The worst status of any reference (`unverifiable` aside), when there is one.
    pub fn worst(&self) -> Option<Status> {
        self.references
            .iter()
            .map(|r| r.status)
            .filter(|s| *s != Status::Unverifiable)
            .max()
    }

    /// Leaves out the unchanged references (`onlyDrifted`, `--only-drifted`) but those whose
    /// definition grew or changed around their lines, which ask for a review; the counts still
    /// cover every reference.
    pub fn keep_only_drifted(&mut self) {
        self.references.retain(|r| {
            r.status != Status::Unchanged || r.grown.is_some() || r.changed_around.is_some()
        });
    }

    /// Keeps at most `limit` references: moved, changed and missing ones first, then
    /// unverifiable, then unchanged, each kind in structure order; the list stays in structure
    /// order, and [`DriftReport::omitted`] counts what was left out (the counts keep it).
    pub fn keep_at_most(&mut self, limit: usize) {
        if self.references.len() <= limit {
            return;
        }
        let rank = |r: &ReferenceDrift| match r.status {
            Status::Moved | Status::Changed | Status::Missing => 0,
            Status::Unchanged if r.grown.is_some() || r.changed_around.is_some() => 0,
            Status::Unverifiable => 1,
            Status::Unchanged => 2,
        };
        let mut order: Vec<usize> = (0..self.references.len()).collect();
        order.sort_by_key(|&i| (rank(&self.references[i]), i));
        let mut keep = vec![false; self.references.len()];
        for &i in order.iter().take(limit) {
            keep[i] = true;
        }
        let before = self.references.len();
        let mut flags = keep.into_iter();
        let reasons = &mut self.omitted_reasons;
        self.references.retain(|r| {
            let kept = flags.next().unwrap_or(false);
            if !kept && r.status == Status::Unverifiable {
                *reasons
                    .entry(r.reason.clone().unwrap_or_default())
                    .or_default() += 1;
            }
            kept
        });
        self.omitted += before - self.references.len();
    }
}

/// What to compare with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DriftOptions {
    /// `--to REV`: the later revision of every repository (default: each clone's `HEAD`,
    /// else its default branch).
    pub to: Option<String>,
    /// `--to NAME=REV`: NAME is `<source>/<module>`, `<source>` (its every module) or
    /// `repo-content` (the workspace's own repository); the most specific one wins.
    pub to_by_name: Vec<(String, String)>,
    /// Find the symbol and the suggestion of changed and missing references (tree-sitter).
    pub symbols: bool,
    /// Compute the digest of unchanged and moved references at the later commit (for
    /// re-anchoring).
    pub digests: bool,
    /// Give each changed reference the diff of its lines (`ReferenceDrift::diff`).
    pub diffs: bool,
}

impl DriftOptions {
    /// Reads `REV` and `NAME=REV` arguments, as `--to` takes them.
    pub fn with_to_args<'a>(mut self, args: impl IntoIterator<Item = &'a str>) -> Self {
        for a in args {
            match a.split_once('=') {
                Some((name, rev)) => self
                    .to_by_name
                    .push((name.trim().to_string(), rev.trim().to_string())),
                None => self.to = Some(a.trim().to_string()),
            }
        }
        self
    }
}

/// Why drift could not run at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DriftError {
    /// The workspace could not be opened or parsed.
    #[error("{0}")]
    Session(String),
    /// `--to NAME=REV` names no module of the workspace.
    #[error("--to {0}=…: no reference of the workspace is under {0:?} (NAME is <source>/<module>, <source>, repo-content or the repository's remote; the workspace's modules: {1})")]
    UnknownName(String, String),
    /// A `--to` revision that none of the repositories it applies to has.
    #[error("--to {0}: {1}")]
    Revision(String, String),
}

impl From<ontoly_graph::SessionError> for DriftError {
    fn from(e: ontoly_graph::SessionError) -> Self {
        DriftError::Session(e.to_string())
    }
}

/// The drift of every reference of the session's workspace.
pub fn drift(session: &Session, opts: &DriftOptions) -> Result<DriftReport, DriftError> {
    let plan = targets::plan(session, opts)?;
    let mut out: Vec<Option<ReferenceDrift>> = vec![None; plan.targets.len()];
    let compare_opts = CompareOptions {
        symbols: opts.symbols,
        digests: opts.digests,
        diffs: opts.diffs,
    };
    let mut to = BTreeMap::new();
    let mut notes = Vec::new();
    for group in &plan.groups {
        let ranges: Vec<engine::CitedRange> = group
            .members
            .iter()
            .map(|&i| plan.targets[i].range.clone())
            .collect();
        let repo = engine::DriftRepo::new(&group.repo);
        // `--to` the old release's tag is an easy slip: said, since `--write` would pin the
        // module back at it (sphinx-copybutton walk, stop 46).
        if repo.reader().is_ancestor(&group.to, &group.from) {
            let mut modules: Vec<&str> = group
                .members
                .iter()
                .map(|&i| plan.targets[i].origin.module.as_str())
                .collect();
            modules.sort_unstable();
            modules.dedup();
            let short = ontoly_graph::graph::model::ids::short;
            notes.push(format!(
                "{}: the commit compared with, {}, is older than the pinned {}: this compares backwards, and --write would pin it there",
                modules.join(", "),
                short(&group.to),
                short(&group.from)
            ));
        }
        let results = engine::compare(&repo, &group.from, &group.to, &ranges, compare_opts);
        for &i in &group.members {
            to.insert(plan.targets[i].origin.module.clone(), group.to.clone());
        }
        match results {
            Ok(results) => {
                for (&i, d) in group.members.iter().zip(results) {
                    out[i] = Some(reference_of(&plan.targets[i], Some(&group.to), d));
                }
            }
            Err(e) => {
                for &i in &group.members {
                    out[i] = Some(plan.targets[i].unverifiable(e.message.clone()));
                }
            }
        }
    }
    let mut counts = Counts::default();
    let references: Vec<ReferenceDrift> = plan
        .targets
        .iter()
        .zip(out)
        .map(|(t, d)| {
            let d = d.unwrap_or_else(|| {
                t.unverifiable(t.reason.clone().unwrap_or_else(|| "not compared".into()))
            });
            counts.add(d.status);
            d
        })
        .collect();
    Ok(DriftReport {
        to,
        counts,
        references,
        omitted: 0,
        omitted_reasons: BTreeMap::new(),
        notes,
    })
}

/// The reference `t` with the engine's result `d` at commit `later`.
fn reference_of(t: &Target, later: Option<&String>, d: RangeDrift) -> ReferenceDrift {
    let mut r = t.unverifiable(String::new());
    r.reason = None;
    r.origin.later = later.cloned();
    r.origin.later_digest = d.later_digest;
    r.origin.relocated_digest = d.relocated_digest;
    r.origin.relocated_at = d.relocated_at.map(|at| (at.start_line, at.end_line));
    if let (Some(at), Ok(Verdict::Changed { new_path, .. })) = (d.accept_at, &d.outcome) {
        r.origin.accept_at = Some(MappedRange {
            path: new_path.clone(),
            start_line: at.start_line,
            end_line: at.end_line,
        });
    }
    r.origin.cited_whole = d.cited_whole;
    r.kept_lines = d.kept;
    r.symbol = d.symbol;
    r.suggestion = d.suggestion;
    r.touched = d.touched;
    r.grown = d.grown;
    r.origin.grown_digest = d.grown_digest;
    r.changed_around = d.changed_around;
    r.diff = d.diff;
    r.relocation = d.relocation;
    r.successor = d.successor;
    match d.outcome {
        Err(why) => {
            r.reason = Some(why);
        }
        Ok(Verdict::Unchanged) => r.status = Status::Unchanged,
        Ok(Verdict::Missing) => r.status = Status::Missing,
        Ok(Verdict::Moved {
            new_path,
            new_start_line,
            new_end_line,
        }) => {
            r.status = Status::Moved;
            r.new_path = Some(new_path);
            r.new_start_line = Some(new_start_line);
            r.new_end_line = Some(new_end_line);
        }
        Ok(Verdict::Changed {
            new_path,
            occurrences,
            mapped,
        }) => {
            r.status = Status::Changed;
            r.occurrences = Some(occurrences);
            r.mapped = Some(mapped.map(|m| MappedRange {
                path: new_path.clone(),
                start_line: m.start_line,
                end_line: m.end_line,
            }));
            r.new_path = Some(new_path);
        }
    }
    r
}
