//! Drift: how the code a reference cites at its pinned commit fares at a later commit.
//!
//! - [`classify`]: the verdict of one cited range (unchanged, moved, changed with the mapped
//!   range, missing) as pure functions of the cited lines, the later file and the hunks;
//! - [`hunks`]: `-U0` hunks that agree with `git diff -U0`;
//! - [`rename`]: git's rename detection (`git diff -M`);
//! - [`git`]: revisions, blobs and tree changes read with gix;
//! - [`impact`]: what a change (two commits, or a unified diff) does to each file, as `-U0`
//!   hunks, and which hunks touch a range;
//! - [`anchor`]: the symbol behind a changed range and its re-anchoring suggestion;
//! - [`relocate`]: where most of a changed or missing range's lines went, in any file;
//! - [`compare`]: all of it over a list of cited ranges of one repository, per file in
//!   parallel, reading each blob once.
//!
//! Nothing here knows workspaces: callers turn references into repository paths and commits
//! (module subpath joined with the locator path, the module's pinned `ref`) and map the
//! results back.

pub mod anchor;
pub mod classify;
pub mod git;
pub mod hunks;
pub mod impact;
pub mod kept;
pub mod relocate;
pub mod rename;

pub use anchor::SymbolAt;
pub use classify::{Hunk, LineRange, Verdict};
pub use git::{DriftReader, DriftRepo, Rename, ResolveError, TreeChanges};
pub use kept::KeptLines;
pub use relocate::Relocation;

/// Whether a changed range of `cited` lines whose lines the diff maps to `mapped` lines lost
/// most of them (at least four cited, the mapped ones a quarter or less): an eleven-line
/// branch deleted, the one line the hunk put in its place left. That line is not what the
/// section describes, so accepting the change does not re-anchor it there, and a pack says
/// most of the lines are gone. A rewrite that keeps a third of the lines (43 lines of manual
/// chunked upload become a 13-line call that does it) is a change to review, not a loss.
pub fn mostly_gone(cited: u64, mapped: u64) -> bool {
    cited >= 4 && 4 * mapped <= cited
}

use crate::sources::git::GitError;
use crate::sources::symbols::{FileSymbols, SymbolKind};
use classify::{split_lines, LaterFile};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// A cited range: lines `start_line..=end_line` of repository-relative `path`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CitedRange {
    /// Repository-relative path (module subpath joined with the locator's path).
    pub path: String,
    /// First cited line, 1-based.
    pub start_line: u64,
    /// Last cited line, inclusive.
    pub end_line: u64,
}

/// What [`compare`] found for one cited range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RangeDrift {
    /// The verdict, or why there is none (the range cannot be read at the pinned commit).
    pub outcome: Result<Verdict, String>,
    /// For a changed or missing range: the definition that covered it at the pinned commit.
    pub symbol: Option<SymbolAt>,
    /// For a changed or missing range: a definition of the same qualified name at the later
    /// commit, in the later file or else in the one other file of the same language that the
    /// change added or modified and that defines it anew (see `suggest_across_files`).
    pub suggestion: Option<SymbolAt>,
    /// For a changed range that no longer occurs as a block, or a missing one: the window of
    /// the later commit holding most of its lines ([`relocate`]), in the later file or a file
    /// the change added or modified.
    pub relocation: Option<Relocation>,
    /// For an unchanged or moved range, when asked for ([`CompareOptions::digests`]): the
    /// `content_digest` of its lines at the later commit (the format's digest rule), which
    /// re-anchoring writes; for a changed one, that of the lines of `accept_at` (written only
    /// when the change is accepted).
    pub later_digest: Option<String>,
    /// For a changed range, when digests were asked for: the lines of the later file a person
    /// who accepts the change re-anchors it at, whose digest `later_digest` holds. The same
    /// definition when the range cited exactly one definition and the later file still has it
    /// (the diff's hunks may reach past it), else the range the diff maps it to.
    #[serde(default)]
    pub accept_at: Option<LineRange>,
    /// With `relocation`, when digests were asked for: the `content_digest` of the relocation's
    /// window at the later commit, which re-anchoring writes when the relocation is accepted.
    #[serde(default)]
    pub relocated_digest: Option<String>,
    /// With `relocated_digest`: the lines accepting the relocation cites, whose digest it is.
    /// The window, or, when the range cited its definition whole and that definition (the
    /// `suggestion`, in the cited form) overlaps the window, the definition: a window stops
    /// short of a reworded first or last line (indexmap walk, stop 51: `MutableKeys` was
    /// accepted without its changed header `pub trait MutableKeys: private::Sealed {`).
    #[serde(default)]
    pub relocated_at: Option<LineRange>,
    /// For a changed range, when asked for ([`CompareOptions::diffs`]): the unified diff of the
    /// cited lines against the lines of the later file accepting the change would cite (see
    /// `accept_at`), numbered in the two files ([`hunks::unified`]); for one with no such
    /// lines (all of them deleted) and a missing one, against its `relocation` window, when
    /// there is one.
    #[serde(default)]
    pub diff: Option<String>,
    /// For an unchanged or moved range that cited exactly one definition: that definition at
    /// the later commit when it now spans more than the range (lines added inside or at its
    /// end: the cited lines are all there, but not all of the definition the section
    /// describes).
    #[serde(default)]
    pub grown: Option<SymbolAt>,
    /// With `grown`, when digests were asked for: the `content_digest` of the grown
    /// definition's lines, which re-anchoring writes when the growth is accepted.
    #[serde(default)]
    pub grown_digest: Option<String>,
    /// For a moved or unchanged range without `grown`: the definition its lines are part of
    /// ([`anchor::standing_for`]) when that definition's code changed around them (the same
    /// lines elsewhere are not the same code: qs's `return utils.compact(obj);` moved under a
    /// new `allowSparse` branch; js-drift walk, `repro-sparse.sh`; nor are they at the same
    /// numbers when the change is below them).
    #[serde(default)]
    pub changed_around: Option<ChangedAround>,
    /// For a missing range: the file the change added that took the cited file's name
    /// ([`successor`]), where a page converted to another markup, or moved, went; only when it
    /// holds some of the range's lines by their words.
    #[serde(default)]
    pub successor: Option<String>,
    /// For a changed or missing range: it cited `symbol` whole (with or without the doc
    /// comments, attributes or decorators written above it, blank lines at its edges aside).
    /// `suggestion` then takes the same form, and accepting the change cites it.
    #[serde(default)]
    pub cited_whole: bool,
    /// With `cited_whole`: the range began at the lines written above the definition (its doc
    /// comments, attributes or decorators), not at its own first line. A suggestion found in
    /// another file takes the same form.
    #[serde(default)]
    pub cited_with_leading: bool,
    /// For a changed range: how many of its cited lines survive the change ([`kept`]). When
    /// the code the diff maps it to replaced them ([`KeptLines::replaced`]: too few survive,
    /// outside any namesake of the range's definition), there is no `accept_at` there.
    #[serde(default)]
    pub kept: Option<KeptLines>,
    /// For a changed range with a `symbol`: the innermost other definitions the change's code
    /// hunks change within the range ([`anchor::changed_within`], impact's `touched`). The
    /// symbol is the definition the range stands for; these are where it changed.
    #[serde(default)]
    pub touched: Vec<SymbolAt>,
}

/// A definition whose code changed around a moved or unchanged range's lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangedAround {
    /// The definition at the later commit.
    #[serde(flatten)]
    pub definition: SymbolAt,
    /// The hunks that changed its code, numbered in the pinned and the later file as `git
    /// diff -U0` numbers them (hunks of blank and comment lines alone left out, as impact
    /// leaves them out).
    pub hunks: Vec<Hunk>,
}

/// Options of [`compare`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompareOptions {
    /// Find the symbol, the re-anchoring suggestion and the relocation of changed and missing
    /// ranges: parses the pinned version of each file with such a range and the later version
    /// of each with a changed one, and, for symbols without a namesake there, the files the
    /// change added or modified that mention the name; looks for the cited lines in the later
    /// file and in every text file the change added or modified.
    pub symbols: bool,
    /// Compute [`RangeDrift::later_digest`] for unchanged and moved ranges (a sha256 of the
    /// cited lines, which equal the later ones) and for changed ones, with
    /// [`RangeDrift::accept_at`].
    pub digests: bool,
    /// Compute [`RangeDrift::diff`] for changed ranges, for a person to review them.
    pub diffs: bool,
}

impl Default for CompareOptions {
    fn default() -> Self {
        Self {
            symbols: true,
            digests: false,
            diffs: false,
        }
    }
}

/// The drift of every range of `ranges` from commit `from` to commit `to` (full ids) of
/// `repo`, in the order given. Files are handled in parallel, each version read once; the
/// tree diff behind rename targets is computed only if some cited path is gone at `to`, and
/// hunks only for files with a changed range. Fails only when a commit or the object database
/// cannot be read; a range that cannot be read at `from` gets an `Err` outcome.
pub fn compare(
    repo: &DriftRepo,
    from: &str,
    to: &str,
    ranges: &[CitedRange],
    options: CompareOptions,
) -> Result<Vec<RangeDrift>, GitError> {
    let reader = repo.reader();
    for c in [from, to] {
        if !reader.has_commit(c) {
            return Err(GitError {
                message: "the commit is not in the repository".into(),
            });
        }
    }
    let mut by_path: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, r) in ranges.iter().enumerate() {
        by_path.entry(r.path.as_str()).or_default().push(i);
    }
    let changes: OnceLock<Result<Changes, GitError>> = OnceLock::new();
    let ctx = Context {
        from,
        to,
        ranges,
        options,
        changes: &changes,
    };
    let groups: Vec<(&str, Vec<usize>)> = by_path.into_iter().collect();
    let per_file: Vec<Result<FileDrift, GitError>> = groups
        .par_iter()
        .map_init(
            || repo.reader(),
            |reader, (path, idx)| ctx.file(reader, path, idx),
        )
        .collect();
    let mut out: Vec<Option<RangeDrift>> = vec![None; ranges.len()];
    let mut lost: Vec<(usize, Lost)> = Vec::new();
    for group in per_file {
        for (i, d, l) in group? {
            out[i] = Some(d);
            if let Some(l) = l {
                lost.push((i, l));
            }
        }
    }
    // In range order, so the search below does not depend on the order of the file groups.
    lost.sort_unstable_by_key(|(i, _)| *i);
    let mut out: Vec<RangeDrift> = out
        .into_iter()
        .map(|d| d.expect("every range belongs to one file group"))
        .collect();
    if options.symbols {
        suggest_across_files(repo, &reader, &ctx, &mut out)?;
        relocate_lost(repo, &reader, &ctx, &lost, options.digests, &mut out)?;
    }
    Ok(out)
}

/// For a changed range whose block no longer occurs in the later file, or a missing one: what
/// looking for where its lines went needs (`None` for other ranges, and for one with too few
/// such lines to relocate).
#[derive(Debug, Clone)]
struct Lost {
    /// Its [`relocate::evidence_lines`].
    evidence: Vec<Vec<u8>>,
    /// Their [`relocate::weights`] in the pinned file.
    weights: Vec<u64>,
    /// Its [`relocate::keyword_lines`], which only corroborate a window.
    keywords: Vec<Vec<u8>>,
    /// With `words`: their [`relocate::weights`] in the pinned file, read by words.
    word_weights: Option<Vec<u64>>,
    /// A range of a document ([`relocate::is_document`]): the same lines as their words
    /// ([`relocate::word_evidence`]), which is how it is sought in other documents.
    words: Option<Vec<Vec<u8>>>,
    /// The block's length in lines.
    span: u64,
    /// The cited lines and the first one's number: a window is widened over the lines that go
    /// on as they do ([`relocate::widen`]), and with diffs asked for, they are diffed against
    /// it when no accepted range has a diff.
    cited: (Vec<Vec<u8>>, u64),
    /// A changed range's lines of its later file where accepting it would re-anchor it
    /// ([`RangeDrift::accept_at`], also when digests were not asked for).
    accepted: Option<LineRange>,
    /// `accepted` is the definition the range cited whole, found by its name: the name says
    /// where the section's subject is, however many of its old lines went next to it.
    accepted_by_name: bool,
    /// Its diff is against the code written in its place ([`KeptLines::replaced`]): a window
    /// its lines went to says more.
    replaced: bool,
}

impl Lost {
    /// The range as [`relocate::Sought::weighted`] seeks it byte for byte: its evidence lines
    /// with their weights, then its keyword lines at weight 0.
    fn sought(&self) -> relocate::Range<'_> {
        let lines = (self.evidence.iter().chain(&self.keywords))
            .map(Vec::as_slice)
            .collect();
        let weights = (self.weights.iter().copied())
            .chain(std::iter::repeat_n(0, self.keywords.len()))
            .collect();
        (lines, weights, self.span)
    }
}

/// What the per-file pass gives for each of its ranges: position, drift, and what relocation
/// needs of it.
type FileDrift = Vec<(usize, RangeDrift, Option<Lost>)>;

/// The tree changes between the two commits and their rename targets (deleted path -> added
/// path).
type Changes = (TreeChanges, BTreeMap<String, String>);

/// Shared state of one [`compare`] run.
struct Context<'a> {
    from: &'a str,
    to: &'a str,
    ranges: &'a [CitedRange],
    options: CompareOptions,
    /// The tree changes and rename targets, computed by the first file that needs them.
    changes: &'a OnceLock<Result<Changes, GitError>>,
}

impl Context<'_> {
    fn changes(&self, reader: &DriftReader) -> Result<&Changes, GitError> {
        self.changes
            .get_or_init(|| {
                let changes = reader.tree_changes(self.from, self.to)?;
                let renames = changes.rename_targets(reader)?;
                Ok((changes, renames))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The drift of the ranges `idx` (all of file `path`).
    fn file(&self, reader: &DriftReader, path: &str, idx: &[usize]) -> Result<FileDrift, GitError> {
        let unverifiable = |i: usize, why: String| {
            (
                i,
                RangeDrift {
                    outcome: Err(why),
                    symbol: None,
                    suggestion: None,
                    relocation: None,
                    later_digest: None,
                    accept_at: None,
                    relocated_digest: None,
                    relocated_at: None,
                    diff: None,
                    grown: None,
                    grown_digest: None,
                    changed_around: None,
                    successor: None,
                    cited_whole: false,
                    cited_with_leading: false,
                    kept: None,
                    touched: Vec::new(),
                },
                None,
            )
        };
        let Some(old) = reader.file(self.from, path)? else {
            return Ok(idx
                .iter()
                .map(|&i| unverifiable(i, "the file does not exist at the pinned commit".into()))
                .collect());
        };
        let mut successor_of_file = None;
        let later: Option<(String, Vec<u8>)> = match reader.file(self.to, path)? {
            Some(b) => Some((path.to_string(), b)),
            None => {
                let (changes, renames) = self.changes(reader)?;
                match renames.get(path) {
                    Some(target) => reader.file(self.to, target)?.map(|b| (target.clone(), b)),
                    None => {
                        successor_of_file = successor(path, &changes.added);
                        None
                    }
                }
            }
        };
        let later_file = later.as_ref().map(|(p, b)| LaterFile::new(p, b));
        let old_lines = split_lines(&old);
        let lang = crate::sources::symbols::Lang::for_path(path);
        let hunks: std::cell::OnceCell<Vec<Hunk>> = std::cell::OnceCell::new();
        let hunks_of = || match &later {
            Some((_, new)) => hunks::diff_hunks(&old, new),
            None => Vec::new(),
        };
        let mut old_symbols: Option<Option<FileSymbols>> = None;
        let mut new_symbols: Option<Option<FileSymbols>> = None;
        let mut out = Vec::with_capacity(idx.len());
        for &i in idx {
            let r = &self.ranges[i];
            let (s, e) = (r.start_line, r.end_line);
            if s == 0 || e < s || e as usize > old_lines.len() {
                out.push(unverifiable(
                    i,
                    format!(
                        "lines {s}-{e} are not a range of the file at the pinned commit ({} lines)",
                        old_lines.len()
                    ),
                ));
                continue;
            }
            let cited = &old_lines[s as usize - 1..e as usize];
            let verdict = classify::classify(path, s, e, cited, later_file.as_ref(), || {
                hunks.get_or_init(hunks_of)
            });
            let (mut symbol, mut suggestion) = (None, None);
            // The code the range cites, without blank lines at its edges.
            let (cs, ce) =
                anchor::without_blank_edges(|n| anchor::is_blank_line(&old_lines, n), s, e);
            // A definition cited whole whose lines are all still there may have grown around
            // them (a line appended to its body): the lines moved, the definition changed.
            let mut grown = None;
            if self.options.symbols {
                let at = match &verdict {
                    Verdict::Unchanged => Some((path, s, e)),
                    Verdict::Moved {
                        new_path,
                        new_start_line,
                        new_end_line,
                    } => Some((new_path.as_str(), *new_start_line, *new_end_line)),
                    _ => None,
                };
                if let Some((new_path, ns, ne)) = at {
                    // The cited code's lines there: the same lines, moved as one block.
                    let (ns, ne) = (ns + (cs - s), ne - (e - ce));
                    let old_syms = old_symbols.get_or_insert_with(|| parse_symbols(path, &old));
                    let whole = (old_syms.as_ref())
                        .and_then(|f| anchor::covering(f, cs, ce))
                        .and_then(|d| Some((d, anchor::cited_whole(d, cs, ce)?)));
                    if let Some((def, form)) = whole {
                        let new_syms = new_symbols.get_or_insert_with(|| {
                            later.as_ref().and_then(|(p, b)| parse_symbols(p, b))
                        });
                        let later_lines = later_file.as_ref().map_or(&[][..], |f| f.lines());
                        grown = (new_syms.as_ref())
                            .and_then(|f| anchor::same_name(f, def, ns).first().copied())
                            .map(|d| anchor::as_cited(d, form, new_path))
                            .filter(|d| {
                                d.start_line <= ns
                                    && ne <= d.end_line
                                    && (d.start_line, d.end_line) != (ns, ne)
                            })
                            // Doc comments, comments and blank lines added to it change what
                            // it says, not what it does: impact's rule for a comment-only
                            // hunk (js-drift walk, `repro-exp.sh`: a JSDoc over qs's
                            // `encode` held `--write` back while impact listed nothing).
                            .filter(|d| {
                                let lines = |a: u64, b: u64| {
                                    (a..=b).filter_map(|n| later_lines.get(n as usize - 1).copied())
                                };
                                !(impact::no_code_lines(lang, lines(d.start_line, ns - 1))
                                    && impact::no_code_lines(lang, lines(ne + 1, d.end_line)))
                            });
                    }
                }
            }
            // A moved or unchanged range that is part of a definition whose code changed
            // around it: the lines are the same, what they do may not be (an unchanged range
            // whose function gained a branch below it reads as true as a moved one does).
            // A file the change left alone changed around nothing, and is not parsed for it.
            let mut changed_around = None;
            let new_start = match &verdict {
                Verdict::Moved { new_start_line, .. } => Some(*new_start_line),
                Verdict::Unchanged if later.as_ref().is_some_and(|(_, b)| *b != old) => Some(s),
                _ => None,
            };
            if let (true, None, Some(new_start_line)) = (self.options.symbols, &grown, new_start) {
                let old_syms = old_symbols.get_or_insert_with(|| parse_symbols(path, &old));
                let new_syms = new_symbols
                    .get_or_insert_with(|| later.as_ref().and_then(|(p, b)| parse_symbols(p, b)));
                if let (Some(was), Some(now), Some(f)) =
                    (old_syms.as_ref(), new_syms.as_ref(), later_file.as_ref())
                {
                    changed_around = changed_around_range(
                        was,
                        now,
                        (&old_lines, f.lines()),
                        (cs, ce),
                        i128::from(new_start_line) - i128::from(s),
                        f.path,
                        lang,
                    );
                }
            }
            let grown_digest = match (&grown, &later_file) {
                (Some(g), Some(f)) if self.options.digests => f
                    .lines()
                    .get(g.start_line as usize - 1..g.end_line as usize)
                    .map(crate::formats::text::lines_digest),
                _ => None,
            };
            let wants_symbol = matches!(verdict, Verdict::Changed { .. } | Verdict::Missing);
            // When the range cites its definition whole (with or without the lines written
            // above it), the suggestion in that same form.
            let mut suggestion_as_cited: Option<SymbolAt> = None;
            let mut cited_whole = false;
            let mut cited_with_leading = false;
            let mut touched = Vec::new();
            // The lines (first, last) at the later commit of the definition whose last line
            // the range ends at: the accepted range ends where it ends.
            let mut ends_with: Option<(u64, u64)> = None;
            if self.options.symbols && wants_symbol {
                let old_syms = old_symbols.get_or_insert_with(|| parse_symbols(path, &old));
                if let Some((f, def)) = old_syms
                    .as_ref()
                    .and_then(|f| Some((f, anchor::covering(f, cs, ce)?)))
                {
                    // A range of the definition with a few lines of context follows it too.
                    let whole_form = anchor::cited_mostly_whole(f, def, (cs, ce), |n| {
                        anchor::is_blank_line(&old_lines, n)
                    });
                    // In the form the suggestion takes, so "was at" and "now at" count the
                    // same lines (a JSDoc the range left out was in one and not the other:
                    // "`toDotPath` was at 362-407, now at 394-408"; TypeScript walk, stop 49).
                    symbol = Some(match whole_form {
                        Some(form) => anchor::as_cited(def, form, path),
                        None => SymbolAt::new(def, path),
                    });
                    cited_whole = whole_form.is_some();
                    cited_with_leading = whole_form == Some(true);
                    // Where in the range the code changed, when not (only) in `def`.
                    if let (Verdict::Changed { .. }, Some(f), Some(later)) =
                        (&verdict, old_syms.as_ref(), later_file.as_ref())
                    {
                        let code = code_hunks(
                            hunks.get_or_init(hunks_of),
                            &old_lines,
                            later.lines(),
                            lang,
                        );
                        touched = anchor::changed_within(f, s, e, &code, Some(def))
                            .into_iter()
                            .map(|d| SymbolAt::new(d, path))
                            .collect();
                    }
                    if let Verdict::Changed {
                        new_path, mapped, ..
                    } = &verdict
                    {
                        let new_syms = new_symbols.get_or_insert_with(|| {
                            later.as_ref().and_then(|(p, b)| parse_symbols(p, b))
                        });
                        let near = mapped.map_or(s, |m| m.start_line);
                        let now = new_syms
                            .as_ref()
                            .and_then(|f| anchor::same_name(f, def, near).first().copied());
                        if def.end_line == ce && new_path == path {
                            ends_with = now.map(|d| (d.start_line, d.end_line));
                        }
                        suggestion_as_cited = now
                            .zip(whole_form)
                            .map(|(d, form)| anchor::as_cited(d, form, new_path));
                        suggestion = suggestion_as_cited
                            .clone()
                            .or_else(|| now.map(|d| SymbolAt::new(d, new_path)));
                    }
                }
            }
            // How many cited lines the change kept: a diff maps a deleted range onto what was
            // written in its place, which is not the code the section describes.
            let kept = match (&verdict, &later_file) {
                (Verdict::Changed { .. }, Some(f)) => Some(kept::kept_lines(
                    cited,
                    s,
                    hunks.get_or_init(hunks_of),
                    f.lines(),
                )),
                _ => None,
            };
            let accept_at = match &verdict {
                Verdict::Changed {
                    new_path, mapped, ..
                // Also with symbols alone: whether the range follows its relocation instead
                // ([`Relocation::followed`]) is decided against these lines, and the verdict
                // names that place whatever the output asks for.
                } if self.options.digests || self.options.diffs || self.options.symbols => {
                    match &suggestion_as_cited {
                    Some(now) if now.path == *new_path => Some(LineRange {
                        start_line: now.start_line,
                        end_line: now.end_line,
                    }),
                    _ => mapped
                        .filter(|m| {
                            !mostly_gone(e - s + 1, m.end_line.saturating_sub(m.start_line) + 1)
                        })
                        .filter(|m| {
                            let namesake = suggestion
                                .as_ref()
                                .filter(|x| x.path == *new_path)
                                .map(|x| (x.start_line, x.end_line));
                            !kept.is_some_and(|k| k.replaced((m.start_line, m.end_line), namesake))
                        })
                        .map(|m| {
                            let f = later_file.as_ref().map_or(&[][..], |f| f.lines());
                            with_lines_moved_beside(
                                m,
                                (s, e),
                                cited,
                                hunks.get_or_init(hunks_of),
                                f,
                            )
                        })
                        .map(|m| {
                            let old_syms =
                                old_symbols.get_or_insert_with(|| parse_symbols(path, &old));
                            let new_syms = new_symbols.get_or_insert_with(|| {
                                later.as_ref().and_then(|(p, b)| parse_symbols(p, b))
                            });
                            // Only for a definition cited whole that has no namesake
                            // there: what replaced it is one definition too.
                            match (old_syms.as_ref(), new_syms.as_ref(), later_file.as_ref()) {
                                (Some(was), Some(now), Some(f)) if cited_whole => {
                                    without_new_neighbours(m, was, now, f.lines(), cited)
                                }
                                _ => m,
                            }
                        })
                        .map(|m| match ends_with {
                            // A range that ran to its definition's last line still does: lines
                            // appended there are past the range to the diff (Python's
                            // `raise ValueError(msg)` after clamp's cited tail, cut off the
                            // accepted range; Python walk, stop 48).
                            Some((a, b)) if a <= m.end_line && m.end_line < b => LineRange {
                                start_line: m.start_line,
                                end_line: b,
                            },
                            _ => m,
                        }),
                    }
                }
                _ => None,
            };
            // A changed range's later lines, where accepting it re-anchors it.
            let accepted = match (&verdict, accept_at) {
                (Verdict::Changed { .. }, Some(at)) => later_file.as_ref().and_then(|f| {
                    f.lines()
                        .get(at.start_line.checked_sub(1)? as usize..at.end_line as usize)
                        .map(|lines| (at, lines))
                }),
                _ => None,
            };
            // Lines the change deleted whole show as removed: they are the whole story of
            // the change (Java walk, stop 48: a deleted `constants.put(…)` showed nothing).
            let deleted_whole = matches!(
                &verdict,
                Verdict::Changed {
                    mapped: None,
                    occurrences: 0,
                    ..
                }
            );
            // Code written in the range's place shows against the range: every line removed,
            // other lines added, which is why it was not accepted there (jsdrift walk, F1).
            let replaced_by = match (&verdict, kept, &later_file) {
                (
                    Verdict::Changed {
                        new_path,
                        mapped: Some(m),
                        ..
                    },
                    Some(k),
                    Some(f),
                ) if accepted.is_none() => {
                    let namesake = (suggestion.as_ref())
                        .filter(|x| x.path == *new_path)
                        .map(|x| (x.start_line, x.end_line));
                    k.replaced((m.start_line, m.end_line), namesake)
                        .then(|| {
                            f.lines()
                                .get(m.start_line.checked_sub(1)? as usize..m.end_line as usize)
                                .map(|lines| (*m, lines))
                        })
                        .flatten()
                }
                _ => None,
            };
            let diff = match (accepted, replaced_by) {
                (Some((at, lines)), _) | (None, Some((at, lines))) => {
                    Some(hunks::unified(cited, s, lines, at.start_line))
                }
                (None, None) if deleted_whole => Some(hunks::unified(cited, s, &[], 0)),
                (None, None) => None,
            }
            .filter(|_| self.options.diffs);
            let accepted_at = accepted.map(|(at, _)| at);
            let accept_at = accept_at.filter(|_| self.options.digests);
            let later_digest = match &verdict {
                _ if !self.options.digests => None,
                Verdict::Unchanged | Verdict::Moved { .. } => {
                    Some(crate::formats::text::lines_digest(cited))
                }
                Verdict::Changed { .. } => accepted
                    .filter(|(_, lines)| !lines.is_empty())
                    .map(|(_, lines)| crate::formats::text::lines_digest(lines)),
                _ => None,
            };
            let lost = (self.options.symbols
                && matches!(
                    verdict,
                    Verdict::Missing | Verdict::Changed { occurrences: 0, .. }
                ))
            .then(|| relocate::evidence_lines(cited))
            .filter(|ev| ev.len() >= relocate::MIN_LINES)
            .map(|ev| {
                let evidence: Vec<Vec<u8>> = ev.into_iter().map(<[u8]>::to_vec).collect();
                let words = relocate::is_document(path).then(|| relocate::word_evidence(&evidence));
                (evidence, words)
            })
            .map(|(evidence, words)| Lost {
                weights: relocate::weights(&refs(&evidence), &old_lines, s, e, false),
                keywords: (relocate::keyword_lines(cited).into_iter())
                    .map(<[u8]>::to_vec)
                    .collect(),
                word_weights: words
                    .as_deref()
                    .map(|w| relocate::weights(&refs(w), &old_lines, s, e, true)),
                evidence,
                words,
                span: e - s + 1,
                cited: (cited.iter().map(|l| l.to_vec()).collect(), s),
                accepted: accepted_at,
                replaced: replaced_by.is_some(),
                accepted_by_name: matches!(
                    (&verdict, &suggestion_as_cited),
                    (Verdict::Changed { new_path, .. }, Some(now)) if now.path == *new_path
                ),
            });
            let missing = matches!(verdict, Verdict::Missing);
            out.push((
                i,
                RangeDrift {
                    outcome: Ok(verdict),
                    symbol,
                    suggestion,
                    relocation: None,
                    later_digest,
                    accept_at,
                    relocated_digest: None,
                    relocated_at: None,
                    diff,
                    grown,
                    grown_digest,
                    changed_around,
                    successor: successor_of_file.clone().filter(|_| missing),
                    cited_whole,
                    cited_with_leading,
                    kept,
                    touched,
                },
                lost,
            ));
        }
        Ok(out)
    }
}

/// The first definition of [`anchor::standing_for`] the lines `cs..=ce` at the pinned commit
/// (`was`, `lines.0`) whose code changed by the later one (`now`, `lines.1`, in `new_path`),
/// where those lines moved by `shift`. Each is compared with its namesake at the later commit
/// that holds the moved lines (else with the definition that covers them there: a renamed
/// function changed its first line), line for line rather than through the file's diff: a
/// function moved whole within its file is deleted and inserted to the diff, and has not
/// changed.
fn changed_around_range(
    was: &FileSymbols,
    now: &FileSymbols,
    (old_lines, new_lines): (&[&[u8]], &[&[u8]]),
    (cs, ce): (u64, u64),
    shift: i128,
    new_path: &str,
    lang: Option<crate::sources::symbols::Lang>,
) -> Option<ChangedAround> {
    let moved = |n: u64| u64::try_from(i128::from(n) + shift).ok();
    let text = |lines: &[&[u8]], a: u64, b: u64| -> Option<Vec<u8>> {
        let part = lines.get(usize::try_from(a).ok()?.checked_sub(1)?..usize::try_from(b).ok()?)?;
        Some(part.join(&b'\n'))
    };
    anchor::standing_for(was, cs, ce).into_iter().find_map(|d| {
        let (a, b) = (moved(d.start_line.max(cs))?, moved(d.end_line.min(ce))?);
        let there = anchor::same_name(now, d, moved(d.start_line).unwrap_or(a))
            .into_iter()
            .find(|n| n.start_line <= a && b <= n.end_line)
            .or_else(|| anchor::covering(now, a, b))?;
        let before = text(old_lines, d.start_line, d.end_line)?;
        let after = text(new_lines, there.start_line, there.end_line)?;
        // In a long definition, only the change near the lines or at its head is around them
        // ([`impact::through_definition`], impact's rule).
        let hunks: Vec<Hunk> = impact::code_hunks(&before, &after, lang)
            .into_iter()
            .map(|h| Hunk {
                old_start: h.old_start + d.start_line - 1,
                new_start: h.new_start + there.start_line - 1,
                ..h
            })
            .filter(|h| {
                impact::through_definition((d.start_line, d.item_line, d.end_line), (cs, ce), h)
            })
            .collect();
        (!hunks.is_empty()).then(|| ChangedAround {
            definition: SymbolAt::new(there, new_path),
            hunks,
        })
    })
}

/// The hunks that change code: those whose removed and added lines are not all blank or
/// comment lines ([`impact::no_code_lines`]), as impact reads a change.
fn code_hunks(
    hunks: &[Hunk],
    old: &[&[u8]],
    new: &[&[u8]],
    lang: Option<crate::sources::symbols::Lang>,
) -> Vec<Hunk> {
    fn side<'a>(lines: &[&'a [u8]], start: u64, count: u64) -> Vec<&'a [u8]> {
        match count {
            0 => Vec::new(),
            _ => usize::try_from(start.saturating_sub(1))
                .ok()
                .and_then(|a| lines.get(a..a.checked_add(usize::try_from(count).ok()?)?))
                .map(<[&[u8]]>::to_vec)
                .unwrap_or_default(),
        }
    }
    hunks
        .iter()
        .filter(|h| {
            !(impact::no_code_lines(lang, side(old, h.old_start, h.old_count))
                && impact::no_code_lines(lang, side(new, h.new_start, h.new_count)))
        })
        .copied()
        .collect()
}

/// `m`, the lines of the later file (`lines`) the hunks map the cited `start..=end` to,
/// widened over a pure insertion right beside it that holds a line like one the hunks
/// deleted or rewrote among the cited ones: that line was moved over the range's edge, and the
/// range should still hold it. Three re-exports cited, the first rewritten and moved below
/// the other two, mapped to those two alone; accepting it dropped the one line the section
/// was about (indexmap walk, stop 51: `pub use crate::equivalent::Equivalent;` is now `pub
/// use equivalent::Equivalent;` one line below the range).
fn with_lines_moved_beside(
    m: LineRange,
    (start, end): (u64, u64),
    cited: &[&[u8]],
    hunks: &[Hunk],
    lines: &[&[u8]],
) -> LineRange {
    // The mapped lines, trimmed: a cited line still among them did not move, and a line like
    // one of them is theirs (black's `@click.option(`, one of two cited, one deleted: the
    // next option's opening line is not the deleted one moved).
    let kept: std::collections::HashSet<&[u8]> = definition_lines(lines, m.start_line, m.end_line)
        .iter()
        .map(|l| l.trim_ascii())
        .collect();
    let gone: Vec<&[u8]> = (start..=end)
        .zip(cited)
        .filter(|(n, _)| {
            hunks
                .iter()
                .any(|h| h.old_count > 0 && h.old_start <= *n && *n < h.old_start + h.old_count)
        })
        .map(|(_, l)| l.trim_ascii())
        .filter(|l| l.iter().filter(|b| b.is_ascii_alphanumeric()).count() >= relocate::MIN_ALNUM)
        .filter(|l| !kept.contains(l))
        .collect();
    let like_gone = |n: u64| {
        let Some(l) = usize::try_from(n)
            .ok()
            .and_then(|n| lines.get(n.checked_sub(1)?))
        else {
            return false;
        };
        if kept.contains(l.trim_ascii()) {
            return false;
        }
        let l = String::from_utf8_lossy(l.trim_ascii());
        gone.iter()
            .any(|g| strsim::normalized_levenshtein(&String::from_utf8_lossy(g), &l) >= 0.75)
    };
    // Only the inserted lines next to the edge, one after another, each like a line gone:
    // lines further in are new code beside the range, not the range's own lines moved.
    let mut out = m;
    for h in hunks.iter().filter(|h| h.old_count == 0 && h.new_count > 0) {
        let added = h.new_start..h.new_start + h.new_count;
        if h.old_start == end && h.new_start == m.end_line + 1 {
            if let Some(n) = added.clone().take_while(|&n| like_gone(n)).last() {
                out.end_line = n;
            }
        } else if h.old_start + 1 == start && h.new_start + h.new_count == m.start_line {
            if let Some(n) = added.clone().rev().take_while(|&n| like_gone(n)).last() {
                out.start_line = n;
            }
        }
    }
    out
}

/// `m`, the mapped lines of the later file (`now`, `lines`) of a changed range that cited a
/// definition whole which has no namesake there, without the definitions it holds whole at
/// either end that are new (no namesake at the pinned commit,
/// `was`) and hold fewer of the `cited` lines ([`relocate::evidence_lines`]) than the rest of
/// it, nor the blank lines beside them. A hunk that rewrote the cited code and added a
/// function after it maps the range's end to the hunk's last line: indexmap's `push`,
/// replaced by `push_entry` with a new `insert_entry` below it, was accepted at both
/// (indexmap walk, stop 51), and the section never described the second one.
fn without_new_neighbours(
    m: LineRange,
    was: &FileSymbols,
    now: &FileSymbols,
    lines: &[&[u8]],
    cited: &[&[u8]],
) -> LineRange {
    let evidence = relocate::evidence_lines(cited);
    let held = |a: u64, b: u64| -> usize {
        let part: std::collections::HashSet<&[u8]> = definition_lines(lines, a, b)
            .iter()
            .map(|l| l.trim_ascii())
            .collect();
        evidence.iter().filter(|l| part.contains(*l)).count()
    };
    let blank = |n: u64| anchor::is_blank_line(lines, n);
    let (mut a, mut b) = (m.start_line, m.end_line);
    let new_whole_inside = |a: u64, b: u64| -> Vec<&crate::sources::symbols::Definition> {
        let inside = |d: &crate::sources::symbols::Definition| a <= d.start_line && d.end_line <= b;
        (now.definitions.iter())
            .filter(|d| inside(d))
            .filter(|d| {
                !d.parent
                    .and_then(|p| now.definitions.get(p))
                    .is_some_and(inside)
            })
            .collect()
    };
    loop {
        let defs = new_whole_inside(a, b);
        let is_new = |d: &crate::sources::symbols::Definition| {
            anchor::same_name(was, d, d.start_line).is_empty()
        };
        // The last one, then the first, when it ends (starts) the range, is new and says less
        // of the cited code than what is left without it.
        let last = |d: &&crate::sources::symbols::Definition| {
            d.start_line > a
                && (d.end_line + 1..=b).all(blank)
                && is_new(d)
                && held(d.start_line, d.end_line) < held(a, d.start_line - 1)
        };
        let first = |d: &&crate::sources::symbols::Definition| {
            d.end_line < b
                && (a..d.start_line).all(blank)
                && is_new(d)
                && held(d.start_line, d.end_line) < held(d.end_line + 1, b)
        };
        let cut = match (defs.first(), defs.last()) {
            (_, Some(d)) if last(d) => {
                let mut end = d.start_line - 1;
                while end > a && blank(end) {
                    end -= 1;
                }
                Some((a, end))
            }
            (Some(d), _) if first(d) => {
                let mut start = d.end_line + 1;
                while start < b && blank(start) {
                    start += 1;
                }
                Some((start, b))
            }
            _ => None,
        };
        match cut {
            Some((x, y)) if (x, y) != (a, b) => (a, b) = (x, y),
            _ => break,
        }
    }
    LineRange {
        start_line: a,
        end_line: b,
    }
}

/// The one file of `added` that took the name of the deleted `path`: in the same directory
/// with another extension (`docs/why.rst` -> `docs/why.md`), else the only file anywhere with
/// that name, whatever its extension (`docs/contribute/topics.md` ->
/// `docs/community/topics.md`). A page converted to another markup or moved with its
/// directory keeps its name; git's rename detection does not pair them when most lines
/// changed.
pub fn successor(path: &str, added: &[rename::Side]) -> Option<String> {
    fn split(p: &str) -> (&str, &str) {
        let (dir, file) = p.rsplit_once('/').unwrap_or(("", p));
        (dir, file.rsplit_once('.').map_or(file, |(stem, _)| stem))
    }
    let (dir, stem) = split(path);
    if stem.is_empty() {
        return None;
    }
    let namesakes: Vec<&str> = added
        .iter()
        .map(|s| s.path.as_str())
        .filter(|p| split(p).1 == stem && *p != path)
        .collect();
    let here: Vec<&str> = namesakes
        .iter()
        .copied()
        .filter(|p| split(p).0 == dir)
        .collect();
    match (here.as_slice(), namesakes.as_slice()) {
        ([one], _) | ([], [one]) => Some((*one).to_string()),
        _ => None,
    }
}

/// Parses `data` as the language of `path` (no symbols for other languages or non-UTF-8
/// text).
fn parse_symbols(path: &str, data: &[u8]) -> Option<FileSymbols> {
    crate::sources::symbols::extract(path, std::str::from_utf8(data).ok()?)
}

/// For changed and missing ranges whose symbol has no namesake in the later file: a definition
/// of the same qualified name in the one other file of the same language that the change
/// added or modified and that did not define the name already at the pinned commit (that
/// file still has its own: `main` of a deleted `build.rs` is not `main` of `src/main.rs`).
/// When several files define it anew, only those whose body still holds the old one's lines
/// count ([`bodies_agree`]); more than one is no suggestion, a guess.
/// Candidate files are read in parallel and parsed only when every segment of some sought
/// qualified name occurs in them (one Aho-Corasick pass per file), and the definitions found
/// are indexed by qualified name, so the cost follows the files, not files × symbols.
fn suggest_across_files(
    repo: &DriftRepo,
    reader: &DriftReader,
    ctx: &Context<'_>,
    out: &mut [RangeDrift],
) -> Result<(), GitError> {
    use crate::sources::symbols::Lang;
    let lost: Vec<usize> = (0..out.len())
        .filter(|&i| out[i].symbol.is_some() && out[i].suggestion.is_none())
        .collect();
    if lost.is_empty() {
        return Ok(());
    }
    let (changes, _) = ctx.changes(reader)?;
    let sought: Vec<&SymbolAt> = lost
        .iter()
        .filter_map(|&i| out[i].symbol.as_ref())
        .collect();
    // Every segment of every sought qualified name, and each name's segments by index.
    let mut segments: Vec<&str> = sought
        .iter()
        .flat_map(|s| segments_of(&s.qualified))
        .collect();
    segments.sort_unstable();
    segments.dedup();
    let needs: Vec<(Option<Lang>, Vec<usize>)> = sought
        .iter()
        .map(|s| {
            let idx = segments_of(&s.qualified)
                .filter_map(|x| segments.binary_search(&x).ok())
                .collect();
            (Lang::for_path(&s.path), idx)
        })
        .collect();
    let Ok(automaton) = aho_corasick::AhoCorasick::new(&segments) else {
        return Ok(());
    };
    let langs: Vec<Option<Lang>> = needs.iter().map(|(l, _)| *l).collect();
    let mut candidates = touched(changes);
    // A C++ declaration may move to a `.h` (C by extension, C++ by its text) and back.
    let kin = |a: Option<Lang>, b: Option<Lang>| match (a, b) {
        (Some(a), Some(b)) => a.kin(b),
        _ => false,
    };
    candidates.retain(|p| {
        let lang = Lang::for_path(p);
        langs.iter().any(|l| kin(*l, lang))
    });
    // Each candidate file with, when it may hold a sought name, its symbols and its text.
    type Parsed<'p> = (&'p str, Option<(FileSymbols, Vec<u8>)>);
    let parsed: Vec<Parsed<'_>> = candidates
        .par_iter()
        .map_init(
            || repo.reader(),
            |rd, &path| -> Result<Parsed<'_>, GitError> {
                let Some(text) = rd.file(ctx.to, path)? else {
                    return Ok((path, None));
                };
                let mut present = vec![false; segments.len()];
                for m in automaton.find_overlapping_iter(&text) {
                    present[m.pattern().as_usize()] = true;
                }
                let lang = Lang::for_path(path);
                let wanted = needs
                    .iter()
                    .any(|(l, idx)| kin(*l, lang) && idx.iter().all(|&i| present[i]));
                let syms = wanted.then(|| parse_symbols(path, &text)).flatten();
                Ok((path, syms.map(|f| (f, text))))
            },
        )
        .collect::<Result<_, _>>()?;
    // Qualified name (without generic arguments, `anchor::name_key`) -> (path, definition,
    // the file's lines) of every definition found.
    type Found<'p> = (
        &'p str,
        &'p crate::sources::symbols::Definition,
        &'p [&'p [u8]],
    );
    let lines: Vec<Vec<&[u8]>> = parsed
        .iter()
        .map(|(_, f)| f.as_ref().map_or_else(Vec::new, |(_, t)| split_lines(t)))
        .collect();
    let mut by_name: std::collections::HashMap<std::borrow::Cow<'_, str>, Vec<Found<'_>>> =
        std::collections::HashMap::new();
    for ((path, syms), text) in parsed.iter().zip(&lines) {
        for d in syms.iter().flat_map(|(f, _)| &f.definitions) {
            by_name
                .entry(anchor::name_key(&d.qualified))
                .or_default()
                .push((path, d, text));
        }
    }
    // The pinned version of each file looked at, read once.
    let mut pinned: BTreeMap<String, Option<Vec<u8>>> = BTreeMap::new();
    let mut pinned_symbols: BTreeMap<&str, Option<FileSymbols>> = BTreeMap::new();
    for i in lost {
        let Some(symbol) = out[i].symbol.clone() else {
            continue;
        };
        let own_later = match &out[i].outcome {
            Ok(Verdict::Changed { new_path, .. }) => Some(new_path.as_str()),
            _ => None,
        };
        let lang = Lang::for_path(&symbol.path);
        let key = anchor::name_key(&symbol.qualified);
        let mut namesakes: Vec<Found<'_>> = Vec::new();
        for &(path, d, text) in by_name.get(&key).into_iter().flatten() {
            if Some(path) == own_later || !kin(Lang::for_path(path), lang) {
                continue;
            }
            // A binding of the name elsewhere (`timestamper = TimeStamper(…)`) uses the
            // function; it is not where it went.
            if d.kind == SymbolKind::Variable && symbol.kind != SymbolKind::Variable {
                continue;
            }
            if anchor::impl_and_type(d.kind, symbol.kind) {
                continue;
            }
            // A file that already defined the name at the pinned commit still has its own
            // definition (`main` of src/main.rs): the cited one did not go there.
            if !pinned_symbols.contains_key(path) {
                let syms = reader
                    .file(ctx.from, path)?
                    .and_then(|b| parse_symbols(path, &b));
                pinned_symbols.insert(path, syms);
            }
            let had_it = pinned_symbols
                .get(path)
                .and_then(Option::as_ref)
                .is_some_and(|f| {
                    f.definitions
                        .iter()
                        .any(|o| anchor::name_key(&o.qualified) == key)
                });
            if !had_it {
                namesakes.push((path, d, text));
            }
        }
        let mut paths: Vec<&str> = namesakes.iter().map(|(p, _, _)| *p).collect();
        paths.sort_unstable();
        paths.dedup();
        if paths.len() > 1 {
            // Several files define it anew: the one whose body is the old one's, if any.
            if !pinned.contains_key(&symbol.path) {
                let text = reader.file(ctx.from, &symbol.path)?;
                pinned.insert(symbol.path.clone(), text);
            }
            let Some(Some(old)) = pinned.get(&symbol.path) else {
                continue;
            };
            let old_lines = split_lines(old);
            let old_body = definition_lines(&old_lines, symbol.start_line, symbol.end_line);
            let evidence = relocate::evidence_lines(old_body);
            namesakes.retain(|(_, d, text)| {
                let later: std::collections::HashSet<&[u8]> =
                    definition_lines(text, d.start_line, d.end_line)
                        .iter()
                        .map(|l| l.trim_ascii())
                        .collect();
                let matched = evidence.iter().filter(|l| later.contains(*l)).count();
                bodies_agree(matched, evidence.len())
            });
        }
        // One suggestion per file: an exact namesake first, then one of the same kind, then
        // one written on one line or more as the cited one was (a C++ method's definition, not
        // its one-line declaration in the class; a C function, not its prototype), then the
        // definition nearest the old line.
        let mut files: Vec<(&str, &crate::sources::symbols::Definition)> = namesakes
            .into_iter()
            .map(|(path, d, _)| (path, d))
            .collect();
        files.sort_by_key(|(path, d)| {
            (
                *path,
                d.qualified != symbol.qualified,
                d.kind != symbol.kind,
                (d.start_line == d.end_line) != (symbol.start_line == symbol.end_line),
                d.start_line.abs_diff(symbol.start_line),
            )
        });
        files.dedup_by_key(|(path, _)| *path);
        // In the form the range cited it (with or without the lines written above it), as in
        // the later file: "was at" and "now at" count the same lines (indexmap walk, stop 51:
        // `MutableKeys` cited without its doc "was at 19-46, now at 5-47").
        if let [(path, d)] = files.as_slice() {
            out[i].suggestion = Some(match out[i].cited_whole {
                true => anchor::as_cited(d, out[i].cited_with_leading, path),
                false => SymbolAt::new(d, path),
            });
        }
    }
    Ok(())
}

/// Lines `start..=end` (1-based) of `lines`, clipped to them.
fn definition_lines<'l, 'b>(lines: &'l [&'b [u8]], start: u64, end: u64) -> &'l [&'b [u8]] {
    let from = (start.max(1) - 1) as usize;
    let to = (end as usize).min(lines.len());
    lines.get(from..to).unwrap_or(&[])
}

/// Whether a namesake's body in another file is the old definition's: it holds at least a
/// third of the old body's evidence lines ([`relocate::evidence_lines`]), and at least
/// [`relocate::MIN_LINES`] of them or half of them, whichever is fewer (a two-line body
/// moved with its body rewritten still has its signature). Code moved to another file
/// keeps most of its lines; a third leaves room for the edits that come with a move, and the
/// shared name is the rest of the evidence. A body with no evidence line (`{}`, `pass`) says
/// nothing, so it never agrees.
fn bodies_agree(matched: usize, of: usize) -> bool {
    of > 0 && 3 * matched >= of && matched >= of.div_ceil(2).min(relocate::MIN_LINES)
}

/// Files larger than this are not searched for relocated lines (generated data, bundles).
const RELOCATE_MAX_BYTES: usize = 1 << 20;

/// The paths the change added or modified, sorted, each once.
fn touched(changes: &TreeChanges) -> Vec<&str> {
    let mut paths: Vec<&str> = changes
        .added
        .iter()
        .map(|s| s.path.as_str())
        .chain(changes.modified.iter().map(String::as_str))
        .collect();
    paths.sort_unstable();
    paths.dedup();
    paths
}

/// For changed ranges whose block no longer occurs in the later file and for missing ones
/// (`wanted`: each one's position and what [`Lost`] holds, from the per-file pass): the window
/// of the later file that holds enough of the cited lines, else the best one over every text
/// file the change added or modified. A range of code is sought byte for byte (trimmed) in
/// every such file; a range of a document by its lines' words, in the documents among them
/// (markup changes with the lines: a page converted from reStructuredText to Markdown, or
/// split into several). A missing file's `successor` is kept only when it holds some of the
/// range's words, and a range of code with no window elsewhere is sought by its words there.
/// Each candidate file is read once, in parallel; each file holding a relocation once more,
/// to widen its window ([`relocate::widen`]), for its windows' digests (with `digests`) and
/// for the diff of the cited lines against it when no accepted range gave the range one (when
/// diffs were asked for).
fn relocate_lost(
    repo: &DriftRepo,
    reader: &DriftReader,
    ctx: &Context<'_>,
    wanted: &[(usize, Lost)],
    digests: bool,
    out: &mut [RangeDrift],
) -> Result<(), GitError> {
    if wanted.is_empty() {
        return Ok(());
    }
    let (changes, _) = ctx.changes(reader)?;
    let candidates = touched(changes);
    // Every range byte for byte; a document's also by its words (nothing for the others).
    let by_bytes = relocate::Sought::weighted(wanted.iter().map(|(_, l)| l.sought()).collect());
    let by_words = relocate::Sought::weighted(
        wanted
            .iter()
            .map(|(_, l)| {
                (
                    l.words.as_deref().map(refs).unwrap_or_default(),
                    l.word_weights.clone().unwrap_or_default(),
                    l.span,
                )
            })
            .collect(),
    );
    let any_words = wanted.iter().any(|(_, l)| l.words.is_some());
    // Every candidate file read once and scanned once for all the lost ranges.
    type Found = Option<(Relocation, relocate::Standing)>;
    let found: Vec<Vec<Found>> = candidates
        .par_iter()
        .map_init(
            || repo.reader(),
            |rd, &path| -> Result<Vec<Found>, GitError> {
                let found = match rd.file(ctx.to, path)? {
                    Some(t) if t.len() <= RELOCATE_MAX_BYTES && !t.contains(&0) => {
                        let mut found = by_bytes.find(path, &t);
                        if any_words && relocate::is_document(path) {
                            // By words when that finds more of the lines: in a long page
                            // short lines repeat more once their markup is gone, so words
                            // can find fewer.
                            let words = by_words.find(path, &relocate::words_of_file(&t));
                            for (slot, w) in found.iter_mut().zip(words) {
                                if let Some(w) = w {
                                    if slot.as_ref().is_none_or(|b| w.matched > b.matched) {
                                        *slot = Some(Relocation {
                                            by_words: true,
                                            ..w
                                        });
                                    }
                                }
                            }
                        }
                        standings(rd, ctx, path, &t, wanted, &by_bytes, found)?
                    }
                    _ => vec![None; wanted.len()],
                };
                Ok(found)
            },
        )
        .collect::<Result<_, _>>()?;
    // Files holding a relocation, read once however many ranges went there.
    let mut window_files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    // Each successor as its words, and the set of its lines, once.
    type WordsFile = (Vec<u8>, std::collections::HashSet<Vec<u8>>);
    let mut words_files: BTreeMap<String, Option<WordsFile>> = BTreeMap::new();
    for (w, (i, lost)) in wanted.iter().enumerate() {
        // The range's own later file first: files that share code with it (templates of one
        // script for several shells) hold its lines too, but the code stayed where it was.
        let own = match &out[*i].outcome {
            Ok(Verdict::Changed { new_path, .. }) => {
                candidates.binary_search(&new_path.as_str()).ok()
            }
            _ => None,
        };
        // Unless that window is code the file already held at the pinned commit beside the
        // cited range: the lines did not go there (jsdrift walk, F8: deprecated
        // `res.sendfile`'s body, a near copy of `res.sendFile`, was deleted; `res.sendFile`
        // was there all along).
        let own_found = own.and_then(|k| found[k][w].clone());
        let own_found = match own_found {
            Some((r, _)) if was_beside(reader, ctx, ctx.ranges[*i].path.as_str(), lost, &r)? => {
                None
            }
            other => other,
        };
        out[*i].relocation = match own_found {
            Some((r, _)) => Some(r),
            None => found
                .iter()
                .enumerate()
                .filter(|(k, _)| Some(*k) != own)
                .filter_map(|(_, per_file)| per_file[w].clone())
                .reduce(relocate::better)
                .map(|(r, _)| r),
        };
        if let Some(succ) = out[*i].successor.clone() {
            let words: std::borrow::Cow<[Vec<u8>]> = match &lost.words {
                Some(words) => words.into(),
                None => relocate::word_evidence(&lost.evidence).into(),
            };
            if !words_files.contains_key(&succ) {
                let data = later_file(&mut window_files, reader, ctx.to, &succ)?;
                let text = (data.len() <= RELOCATE_MAX_BYTES && !data.contains(&0)).then(|| {
                    let text = relocate::words_of_file(data);
                    let lines = split_lines(&text).into_iter().map(<[u8]>::to_vec).collect();
                    (text, lines)
                });
                words_files.insert(succ.clone(), text);
            }
            let file = words_files.get(&succ).and_then(Option::as_ref);
            // A successor holding none of the range's words sends a reviewer to a page with
            // nothing of the passage (a page split in three: the passage went to another).
            let holds_any = file.is_some_and(|(_, lines)| words.iter().any(|l| lines.contains(l)));
            if !holds_any {
                out[*i].successor = None;
            } else if out[*i].relocation.is_none() && lost.words.is_none() {
                // Code whose file another took the name of (`.js` -> `.ts`): its lines by
                // their words, in that file only.
                let sought = relocate::Sought::new(vec![(refs(&words), lost.span)]);
                out[*i].relocation = file
                    .and_then(|(t, _)| sought.find(&succ, t).into_iter().next().flatten())
                    .map(|r| Relocation {
                        by_words: true,
                        ..r
                    });
            }
        }
        if let Some(r) = out[*i].relocation.as_mut() {
            let data = later_file(&mut window_files, reader, ctx.to, &r.path)?;
            let by_words = r.by_words;
            relocate::widen(r, &split_lines(data), &refs(&lost.cited.0), by_words);
        }
        // A window found by words says so when its lines are not all there byte for byte:
        // the reviewer reads the same passage in another markup.
        if let Some(r) = out[*i].relocation.as_mut().filter(|r| r.by_words) {
            let data = later_file(&mut window_files, reader, ctx.to, &r.path)?;
            let at = LineRange {
                start_line: r.start_line,
                end_line: r.end_line,
            };
            r.by_words = holds(data, at, &lost.evidence, &lost.weights, false).0 < r.matched;
        }
        // How many of the range's lines `at` of its later file holds, read as the window was,
        // and what they weigh ([`relocate::weights`]).
        let mut held =
            |r: &Relocation, new_path: &str, at: LineRange| -> Result<(u64, u64), GitError> {
                let file = later_file(&mut window_files, reader, ctx.to, new_path)?;
                Ok(match (&lost.words, &lost.word_weights, r.by_words) {
                    (Some(words), Some(w), true) => holds(file, at, words, w, true),
                    _ => holds(file, at, &lost.evidence, &lost.weights, false),
                })
            };
        let window = |r: &Relocation| LineRange {
            start_line: r.start_line,
            end_line: r.end_line,
        };
        let overlaps = |r: &Relocation, new_path: &str, at: LineRange| {
            r.path == new_path && r.start_line <= at.end_line && at.start_line <= r.end_line
        };
        // A window overlapping the mapped range is the same place read wider, unless it holds
        // all of that range and lines enough for a relocation of their own beyond it: the diff
        // followed part of the block and the rest moved beside it (two methods swapped, the
        // pair mapped onto one of them: Go walk, `repro-2-reorder-text.sh`), and the window
        // loses nothing the diff found. A window reaching only into the mapped range starts or
        // ends in other code (loguru's `_terminate_file`, whose three lines went to the new
        // `_close_file` above it): the mapped range is the better place to read. The lines
        // beyond must weigh as a relocation must ([`relocate::UNIT`] twice): a function
        // rewritten in place whose window reached into the `case` lines of the function below,
        // lines the pinned file had in several functions, was "6 of 6 distinctive lines".
        let beyond =
            |r: &Relocation, new_path: &str, at: LineRange, there: (u64, u64), all: u64| {
                r.path == new_path
                    && r.start_line <= at.start_line
                    && at.end_line <= r.end_line
                    && r.matched >= there.0 + relocate::MIN_LINES as u64
                    && all >= there.1 + 2 * relocate::UNIT
            };
        if let (
            Some(r),
            Ok(Verdict::Changed {
                new_path,
                mapped: Some(m),
                ..
            }),
        ) = (&out[*i].relocation, &out[*i].outcome)
        {
            if overlaps(r, new_path, *m) {
                let there = held(r, new_path, *m)?;
                let (_, all) = held(r, new_path, window(r))?;
                let news = beyond(r, new_path, *m, there, all);
                let r = out[*i].relocation.as_mut().expect("relocation");
                r.mapped_holds = news.then_some(there.0);
            }
        }
        // A changed range whose accepted lines (where the diff maps it) hold fewer of its
        // lines than a relocation window apart from them went there, not to those lines (a
        // function moved to another file, leaving an import behind): accepting the change
        // would anchor the section at what is left. It is then accepted at its relocation or
        // not at all. So is one whose window holds the accepted lines and lines enough for a
        // relocation of their own beyond them (Go walk,
        // `repro-1-accept-reorder.sh`: two swapped methods accepted at one of them), unless
        // those lines are a definition it cited whole, found by its name: its neighbours then
        // took some of its lines (black's `hug_power_op`, loguru's `_terminate_file`), and the
        // window, which starts or ends inside them, is no better anchor.
        // Whether accepted lines take the range (none: deleted, mostly deleted or rewritten).
        let mut taken = lost.accepted.is_some();
        if let (Some(r), Some(at), Ok(Verdict::Changed { new_path, .. })) =
            (&out[*i].relocation, lost.accepted, &out[*i].outcome)
        {
            let there = held(r, new_path, at)?;
            let moved_away = match overlaps(r, new_path, at) {
                // A definition cited whole follows its name unless its namesake kept a quarter
                // of its lines or fewer: its body went to the window (hyperfine's `compute`,
                // now a wrapper of `compute_relative_speeds`, which holds 19 of its 24 lines).
                false => r.matched > there.0 && (!lost.accepted_by_name || 4 * there.0 <= r.of),
                true => {
                    let (_, all) = held(r, new_path, window(r))?;
                    !lost.accepted_by_name && beyond(r, new_path, at, there, all)
                }
            };
            if moved_away {
                out[*i].accept_at = None;
                out[*i].later_digest = None;
                out[*i].diff = None;
            }
            taken = !moved_away;
        }
        // A changed range no accepted lines take follows its window: that is where it is
        // reviewed, diffed and re-anchored.
        if let (Some(r), Ok(Verdict::Changed { .. })) =
            (out[*i].relocation.as_mut(), &out[*i].outcome)
        {
            r.followed = !taken;
        }
        // The removed lines of a range deleted whole give way to the window its lines went to.
        let deleted_whole = matches!(out[*i].outcome, Ok(Verdict::Changed { mapped: None, .. }));
        let diff_wanted =
            ctx.options.diffs && (out[*i].diff.is_none() || deleted_whole || lost.replaced);
        let Some(r) = out[*i]
            .relocation
            .clone()
            .filter(|_| digests || diff_wanted)
        else {
            continue;
        };
        // The definition cited whole, found by its name where the window is, in the form it
        // was cited: what the section describes, reworded edges included.
        let at = match &out[*i].suggestion {
            Some(d)
                if out[*i].cited_whole
                    && d.path == r.path
                    && d.start_line <= r.end_line
                    && r.start_line <= d.end_line =>
            {
                LineRange {
                    start_line: d.start_line,
                    end_line: d.end_line,
                }
            }
            _ => LineRange {
                start_line: r.start_line,
                end_line: r.end_line,
            },
        };
        let data = later_file(&mut window_files, reader, ctx.to, &r.path)?;
        let lines = split_lines(data);
        let Some(window) = lines.get((at.start_line.max(1) - 1) as usize..at.end_line as usize)
        else {
            continue;
        };
        if digests {
            out[*i].relocated_digest = Some(crate::formats::text::lines_digest(window));
            out[*i].relocated_at = Some(at);
        }
        if diff_wanted {
            let (cited, first) = &lost.cited;
            out[*i].diff = Some(hunks::unified(&refs(cited), *first, window, at.start_line));
        }
    }
    Ok(())
}

/// Whether the window `r`, found in the range's own file at the later commit, is code that
/// file already held at the pinned commit outside the cited range, and that another cited
/// range cites: the file then held as many of the range's lines in another window, another
/// range cites it, and the diff takes it to lines overlapping `r`. Such a window is where
/// that other code stayed, not where the cited lines went.
fn was_beside(
    reader: &DriftReader,
    ctx: &Context<'_>,
    path: &str,
    lost: &Lost,
    r: &Relocation,
) -> Result<bool, GitError> {
    if r.by_words {
        return Ok(false);
    }
    let (Some(old), Some(new)) = (reader.file(ctx.from, path)?, reader.file(ctx.to, &r.path)?)
    else {
        return Ok(false);
    };
    if old.len() > RELOCATE_MAX_BYTES || old.contains(&0) {
        return Ok(false);
    }
    // The pinned file without the cited lines (blank in their place, so the numbers hold).
    let (cited, first) = (&lost.cited.0, lost.cited.1);
    let last = first + cited.len() as u64 - 1;
    let mut text = Vec::with_capacity(old.len());
    for (n, line) in (1u64..).zip(split_lines(&old)) {
        if n > 1 {
            text.push(b'\n');
        }
        if !(first..=last).contains(&n) {
            text.extend_from_slice(line);
        }
    }
    let sought = relocate::Sought::weighted(vec![lost.sought()]);
    let Some(before) = sought.find(path, &text).into_iter().next().flatten() else {
        return Ok(false);
    };
    // Another reference citing that code says it is code of its own, not these lines copied:
    // a block the file held several copies of, merged into one, went where the merge is
    // (python-dotenv's LICENSE held three licences of the same words, now one).
    let cited_elsewhere = ctx.ranges.iter().any(|o| {
        o.path == path
            && o.start_line <= before.end_line
            && before.start_line <= o.end_line
            && !(o.start_line <= last && first <= o.end_line)
    });
    if before.matched < r.matched || !cited_elsewhere {
        return Ok(false);
    }
    let hunks = hunks::diff_hunks(&old, &new);
    Ok(
        classify::map_range(before.start_line, before.end_line, &hunks)
            .is_some_and(|m| m.start_line <= r.end_line && r.start_line <= m.end_line),
    )
}

/// The windows `found` in the file at `path` of the later commit (`later`, its bytes) for the
/// ranges `wanted`, with what ranks them against other files' ([`relocate::Standing`]): whether
/// a window holds its block whole, and whether the file already held as many of the block's
/// lines at the pinned commit (read only when the file is not the range's own and has a
/// window), so the window is other code that was there before.
fn standings(
    rd: &DriftReader,
    ctx: &Context<'_>,
    path: &str,
    later: &[u8],
    wanted: &[(usize, Lost)],
    sought: &relocate::Sought<'_>,
    found: Vec<Option<Relocation>>,
) -> Result<Vec<Option<(Relocation, relocate::Standing)>>, GitError> {
    let elsewhere = |w: usize| ctx.ranges[wanted[w].0].path != path;
    let before = match found
        .iter()
        .enumerate()
        .any(|(w, r)| r.is_some() && elsewhere(w))
    {
        true => rd
            .file(ctx.from, path)?
            .filter(|t| t.len() <= RELOCATE_MAX_BYTES && !t.contains(&0))
            .map(|t| sought.find(path, &t)),
        false => None,
    };
    let lines = split_lines(later);
    Ok(found
        .into_iter()
        .enumerate()
        .map(|(w, r)| {
            let r = r?;
            let cited = refs(&wanted[w].1.cited.0);
            let standing = relocate::Standing {
                whole: !r.by_words
                    && relocate::holds_block(&lines, &cited, r.start_line, r.end_line),
                already_there: elsewhere(w)
                    && (before.as_ref())
                        .and_then(|b| b[w].as_ref())
                        .is_some_and(|was| was.matched >= r.matched),
            };
            Some((r, standing))
        })
        .collect())
}

/// The file at `path` of commit `to`, read once into `files` however often it is asked for
/// (empty when the commit has none).
fn later_file<'f>(
    files: &'f mut BTreeMap<String, Vec<u8>>,
    reader: &DriftReader,
    to: &str,
    path: &str,
) -> Result<&'f [u8], GitError> {
    Ok(match files.entry(path.to_string()) {
        std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
        std::collections::btree_map::Entry::Vacant(v) => {
            v.insert(reader.file(to, path)?.unwrap_or_default())
        }
    })
}

/// The lines of `v` as slices, for [`relocate::Sought::new`].
fn refs(v: &[Vec<u8>]) -> Vec<&[u8]> {
    v.iter().map(Vec::as_slice).collect()
}

/// How many of `evidence` (trimmed cited lines, each once; with `by_words`, their
/// [`relocate::words`]) lines `at` of `data` hold, and the sum of their `weights`.
fn holds(
    data: &[u8],
    at: LineRange,
    evidence: &[Vec<u8>],
    weights: &[u64],
    by_words: bool,
) -> (u64, u64) {
    let lines = split_lines(data);
    let from = (at.start_line.max(1) - 1) as usize;
    let window: std::collections::HashSet<Vec<u8>> = lines
        .get(from..(at.end_line as usize).min(lines.len()))
        .unwrap_or_default()
        .iter()
        .map(|l| {
            if by_words {
                relocate::words(l)
            } else {
                l.trim_ascii().to_vec()
            }
        })
        .collect();
    evidence
        .iter()
        .zip(weights.iter().chain(std::iter::repeat(&relocate::UNIT)))
        .filter(|(e, _)| window.contains(e.as_slice()))
        .fold((0, 0), |(n, w), (_, x)| (n + 1, w + x))
}

/// The identifier segments of a qualified name (`Store.get` -> `Store`, `get`; `a::b` -> `a`,
/// `b`), which any file defining it contains verbatim. Segments that are not plain
/// identifiers (an impl's `Engine<T>`, normalized from several lines) are left out: the
/// filter may let a file through, never keep one out.
fn segments_of(qualified: &str) -> impl Iterator<Item = &str> {
    qualified.split(['.', ':']).filter(|s| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80)
    })
}

#[cfg(test)]
mod tests {
    use super::rename::Side;
    use super::successor;

    fn added(paths: &[&str]) -> Vec<Side> {
        paths
            .iter()
            .map(|p| Side {
                path: (*p).to_string(),
                id: gix::hash::ObjectId::null(gix::hash::Kind::Sha1),
                kind: gix::objs::tree::EntryKind::Blob,
            })
            .collect()
    }

    #[test]
    fn the_successor_is_the_one_file_that_took_the_name() {
        // The same directory first, even when another directory has the name too.
        let a = added(&["docs/api.md", "site/api.html", "docs/guide.md"]);
        assert_eq!(
            successor("docs/api.rst", &a).as_deref(),
            Some("docs/api.md")
        );
        // Elsewhere, when only one file has the name.
        let a = added(&["docs/reference/api.md", "README.md"]);
        assert_eq!(
            successor("docs/api.rst", &a).as_deref(),
            Some("docs/reference/api.md")
        );
        // Two candidates elsewhere are a guess: none.
        let a = added(&["docs/v1/api.md", "docs/v2/api.md"]);
        assert_eq!(successor("docs/api.rst", &a), None);
        // Moved to another directory under the same name; another name is not a successor.
        let a = added(&["docs/sub/api.rst", "docs/apis.md"]);
        assert_eq!(
            successor("docs/api.rst", &a).as_deref(),
            Some("docs/sub/api.rst")
        );
        let a = added(&["docs/apis.md"]);
        assert_eq!(successor("docs/api.rst", &a), None);
        // A file without an extension gains one.
        let a = added(&["LICENSE.txt"]);
        assert_eq!(successor("LICENSE", &a).as_deref(), Some("LICENSE.txt"));
    }
}
