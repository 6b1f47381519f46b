//! Drift marks for Evidence Packs: when a clone's `HEAD` is not the commit a module is pinned
//! to, the status of every cited range at `HEAD` (unchanged, moved, changed, missing), so that
//! a pack can say which of its citations describe older code.
//!
//! Computed cheaply (only the verdicts: both blobs of each cited file and the diff of the
//! changed ones; symbols only for the few changed ranges whose lines mostly did not survive,
//! which decide whether other code replaced them), once per graph and set of `HEAD` commits,
//! and kept as a snapshot artifact named after those commits; later packs of the same graph and
//! `HEAD`s only look them up. A changed range is told by the rule and facts `ontoly drift`
//! tells it by ([`ChangedLines`]: how many cited lines survive, and whether the code the diff
//! maps them to replaced them), in its words.

use crate::context::Context;
use crate::drift::targets;
use crate::drift::{ChangedLines, DriftOptions, MappedRange, Status};
use ontoly_graph::sources::drift::{
    self as engine, CitedRange, CompareOptions, DriftRepo, KeptLines, Verdict,
};
use ontoly_graph::Session;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Version of the artifact's format and meaning (part of its name): v2 marks carry the kept
/// lines and whether the lines were rewritten, as drift decides it; v3 marks are those of
/// stop 55's relocation rules (keyword lines toward a window's half, ranges mostly one
/// definition), which a v2 artifact of the same `HEAD`s would not show.
const MARKS_VERSION: &str = "drift-marks.v3";

/// How a cited range fares at its clone's `HEAD`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DriftMark {
    /// `unchanged`, `moved`, `changed` or `missing`.
    pub status: Status,
    /// The `HEAD` commit compared with.
    pub head: String,
    /// Moved: where the lines are now; changed: the range a diff maps them to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub now: Option<MappedRange>,
    /// Changed: how many of the cited lines survive the change, of those that count (drift's
    /// `keptLines`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept_lines: Option<KeptLines>,
    /// Changed: the code the diff maps the range to replaced its lines rather than edited them
    /// (drift's `rewritten: K of its N lines kept`; [`crate::drift::replaced`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rewritten: bool,
}

impl DriftMark {
    /// What became of a changed range `start-end`'s lines, as drift says it.
    fn changed_lines(&self, start: u64, end: u64) -> ChangedLines<'_> {
        ChangedLines::of(
            (start, end),
            self.now.as_ref(),
            self.kept_lines,
            self.rewritten,
        )
    }

    /// One line for the range `start-end` it marks: `moved at HEAD 0123456789ab
    /// (src/a.py:10-12)`. A changed range whose lines other code replaced, or whose lines
    /// mostly went away (the file was rewritten or split: ten cited lines that map to one),
    /// says so in drift's words, rather than send the reader to the code the diff maps it
    /// to; one none of whose lines is left says that.
    pub fn describe(&self, start: u64, end: u64) -> String {
        let head = self.head.get(..12).unwrap_or(&self.head);
        let cited = end.saturating_sub(start) + 1;
        let span = |m: &MappedRange| format!("{}:{}-{}", m.path, m.start_line, m.end_line);
        match self.status {
            Status::Unchanged => format!("unchanged at HEAD {head}"),
            Status::Moved => match &self.now {
                Some(m) => format!("moved at HEAD {head} ({})", span(m)),
                None => format!("moved at HEAD {head}"),
            },
            Status::Changed => match self.changed_lines(start, end) {
                ChangedLines::Edited { mapped } => {
                    format!("changed at HEAD {head} ({})", span(mapped))
                }
                // The diff maps none of its lines anywhere: deleted, or moved to another file
                // (the Go walk's `newRandomFromPool`, moved to a new pool.go), which a reader
                // cannot tell from an edit in place unless told.
                ChangedLines::Deleted => format!(
                    "changed at HEAD {head}: all of its {cited} lines are gone from this file; drift (`ontoly drift`, the MCP tool `Drift`) says where they went"
                ),
                c => format!(
                    "changed at HEAD {head}, {}; drift (`ontoly drift`, the MCP tool `Drift`) says where they went",
                    c.words(cited).unwrap_or_default()
                ),
            },
            _ => format!("{} at HEAD {head}", self.status.as_str()),
        }
    }
}

/// The marks of one workspace: by pinned commit, repository-relative path and cited lines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DriftMarks {
    marks: BTreeMap<Key, DriftMark>,
}

impl DriftMarks {
    /// The mark of the range `path:start-end` pinned at `commit`.
    pub fn get(&self, commit: &str, path: &str, start: u64, end: u64) -> Option<&DriftMark> {
        self.marks
            .get(&(commit.to_ascii_lowercase(), path.to_string(), start, end))
    }

    /// Whether there is no mark at all (every clone is at its pinned commits).
    pub fn is_empty(&self) -> bool {
        self.marks.is_empty()
    }
}

/// The marks last computed or loaded in this process, by workspace, graph and `HEAD`s: an MCP
/// server answers many packs from one graph, and decoding the artifact each time would cost
/// more than the pack.
static LAST: Mutex<Option<(String, Arc<DriftMarks>)>> = Mutex::new(None);

/// The drift marks of the context's workspace, or `None` when no clone's `HEAD` differs from
/// a pinned commit (or the context has no workspace on disk, or no clone).
pub fn drift_marks(ctx: &Context<'_>) -> Option<Arc<DriftMarks>> {
    let session = ctx.session()?;
    let name = artifact_name(session)?;
    let key = format!(
        "{}|{}|{name}",
        session.workspace().root.display(),
        ctx.graph.hash
    );
    if let Ok(last) = LAST.lock() {
        if let Some((k, marks)) = last.as_ref() {
            if *k == key {
                return (!marks.is_empty()).then(|| marks.clone());
            }
        }
    }
    let artifacts = session.artifacts().ok()?;
    let marks = match artifacts.read(&name).and_then(|b| decode(&b)) {
        Some(m) => m,
        None => {
            let m = compute(session)?;
            if let Some(bytes) = encode(&m) {
                artifacts.store(&name, &bytes);
            }
            m
        }
    };
    let marks = Arc::new(marks);
    if let Ok(mut last) = LAST.lock() {
        *last = Some((key, marks.clone()));
    }
    (!marks.is_empty()).then_some(marks)
}

/// A mark as the artifact holds it: every field, in order. Postcard cannot leave out a field
/// (it has no names to tell which one is there), as the JSON form of a mark does.
type StoredMark = (Status, String, Option<MappedRange>, Option<KeptLines>, bool);

/// A mark's key: pinned commit, repository-relative path, first and last cited line.
type Key = (String, String, u64, u64);

/// The marks' artifact bytes.
fn encode(marks: &DriftMarks) -> Option<Vec<u8>> {
    let stored: Vec<(&Key, StoredMark)> = (marks.marks.iter())
        .map(|(k, m)| {
            let mark = (
                m.status,
                m.head.clone(),
                m.now.clone(),
                m.kept_lines,
                m.rewritten,
            );
            (k, mark)
        })
        .collect();
    postcard::to_allocvec(&stored).ok()
}

/// The marks an artifact holds (`None` when it is not one [`encode`] wrote).
fn decode(bytes: &[u8]) -> Option<DriftMarks> {
    let stored: Vec<(Key, StoredMark)> = postcard::from_bytes(bytes).ok()?;
    let marks = stored
        .into_iter()
        .map(|(k, (status, head, now, kept_lines, rewritten))| {
            let mark = DriftMark {
                status,
                head,
                now,
                kept_lines,
                rewritten,
            };
            (k, mark)
        })
        .collect();
    Some(DriftMarks { marks })
}

/// The artifact's name: the format version and a hash of every clone's `HEAD`.
fn artifact_name(session: &Session) -> Option<String> {
    let repos = session.repositories().ok()?;
    if repos.repos.iter().all(|r| r.repo.is_none()) {
        return None;
    }
    let mut h = blake3::Hasher::new();
    h.update(MARKS_VERSION.as_bytes());
    for r in &repos.repos {
        let head = r
            .repo
            .as_ref()
            .and_then(|g| DriftRepo::new(g).reader().default_later().ok())
            .unwrap_or_default();
        h.update(head.as_bytes());
        h.update(b"\n");
    }
    Some(format!("{MARKS_VERSION}-{}", &h.finalize().to_hex()[..16]))
}

/// Compares every reference whose module is pinned to a commit other than its clone's `HEAD`.
fn compute(session: &Session) -> Option<DriftMarks> {
    let plan = targets::plan(session, &DriftOptions::default()).ok()?;
    let mut marks = DriftMarks::default();
    let cheap = CompareOptions {
        symbols: false,
        digests: false,
        diffs: false,
    };
    for g in plan.groups.iter().filter(|g| g.from != g.to) {
        let ranges: Vec<_> = g
            .members
            .iter()
            .map(|&i| plan.targets[i].range.clone())
            .collect();
        let repo = DriftRepo::new(&g.repo);
        let Ok(results) = engine::compare(&repo, &g.from, &g.to, &ranges, cheap) else {
            continue;
        };
        let mut group: Vec<(CitedRange, DriftMark)> = Vec::new();
        for (r, d) in ranges.into_iter().zip(results) {
            let Ok(verdict) = d.outcome else { continue };
            let (status, now) = match verdict {
                Verdict::Unchanged => (Status::Unchanged, None),
                Verdict::Moved {
                    new_path,
                    new_start_line,
                    new_end_line,
                } => (
                    Status::Moved,
                    Some(MappedRange {
                        path: new_path,
                        start_line: new_start_line,
                        end_line: new_end_line,
                    }),
                ),
                Verdict::Changed {
                    new_path, mapped, ..
                } => (
                    Status::Changed,
                    mapped.map(|m| MappedRange {
                        path: new_path,
                        start_line: m.start_line,
                        end_line: m.end_line,
                    }),
                ),
                Verdict::Missing => (Status::Missing, None),
            };
            let kept_lines = d.kept.filter(|_| status == Status::Changed);
            // Without a namesake of its definition (not looked for yet), too few kept lines
            // is a rewrite; [`namesakes`] takes back those rewritten in place.
            let rewritten = now
                .as_ref()
                .is_some_and(|m| crate::drift::replaced(m, kept_lines, None));
            group.push((
                r,
                DriftMark {
                    status,
                    head: g.to.clone(),
                    now,
                    kept_lines,
                    rewritten,
                },
            ));
        }
        namesakes(&repo, (&g.from, &g.to), &mut group);
        for (r, mark) in group {
            marks
                .marks
                .insert((g.from.clone(), r.path, r.start_line, r.end_line), mark);
        }
    }
    Some(marks)
}

/// Decides, as drift does, whether the ranges that look rewritten were: a function rewritten
/// in place (its namesake at `HEAD` overlaps where the diff maps it) is still the function the
/// section describes, not code written in its place. The namesake needs the symbols of both
/// versions of the file, so only these ranges (those too few of whose lines survive, a handful
/// of a workspace's) are compared again with them.
fn namesakes(repo: &DriftRepo, (from, to): (&str, &str), group: &mut [(CitedRange, DriftMark)]) {
    let doubtful: Vec<usize> = (0..group.len()).filter(|&i| group[i].1.rewritten).collect();
    if doubtful.is_empty() {
        return;
    }
    let ranges: Vec<CitedRange> = doubtful.iter().map(|&i| group[i].0.clone()).collect();
    let options = CompareOptions {
        symbols: true,
        digests: false,
        diffs: false,
    };
    // Without symbols the mark keeps the rule's first reading: too few lines kept.
    let Ok(results) = engine::compare(repo, from, to, &ranges, options) else {
        return;
    };
    for (&i, d) in doubtful.iter().zip(results) {
        let mark = &mut group[i].1;
        if let Some(m) = &mark.now {
            mark.rewritten = crate::drift::replaced(m, mark.kept_lines, d.suggestion.as_ref());
        }
    }
}

/// Marks the pack's reads and the citations of its top sections (`citations`: per top
/// section id, its citation views, made one for one from `cited`, in that order) with their
/// drift at `HEAD`, and
/// returns the sentence the answer adds when code cited by a section it names moved or changed
/// since it was pinned. Nothing happens when every clone is at its pinned commits.
pub(crate) fn mark_pack(
    ctx: &Context<'_>,
    reads: &mut [super::FileToInspect],
    citations: &mut [(String, Vec<super::CitationView>)],
    cited: &[Vec<crate::walk::CitationPath<'_>>],
) -> Option<String> {
    let marks = drift_marks(ctx)?;
    for r in reads.iter_mut() {
        r.drift = (r.commit.as_deref())
            .and_then(|commit| marks.get(commit, &r.path, r.start_line, r.end_line))
            .cloned();
    }
    let mut count = Counts::default();
    let mut head = None;
    for (rank, ((_, views), paths)) in citations.iter_mut().zip(cited).enumerate() {
        // Every citation is marked; the answer's sentence speaks of the sections it names.
        let named = rank < super::ANSWER_SECTIONS;
        // `views` were made from `paths`, one for one and in the same order (the pack's
        // order of citations, not the walk's).
        for (view, c) in views.iter_mut().zip(paths) {
            let (Some(commit), Some(path)) = (&c.commit, &c.path) else {
                continue;
            };
            let Some(m) = marks.get(commit, path, c.start, c.end) else {
                continue;
            };
            view.drift = Some(m.describe(c.start, c.end));
            if !named {
                continue;
            }
            count.total += 1;
            match m.status {
                Status::Unchanged => continue,
                Status::Moved => count.moved += 1,
                _ => count.older += 1,
            }
            head.get_or_insert_with(|| m.head.clone());
        }
    }
    drift_sentence(&count, &head?)
}

/// The cited ranges of the sections an answer names that were compared with `HEAD`, and how
/// many of them changed or are gone (`older`) or only moved.
#[derive(Debug, Default)]
struct Counts {
    total: usize,
    older: usize,
    moved: usize,
}

/// The answer's sentence about drift. A moved range is the same lines at other places, so it
/// is not counted as older code; whether the code around them changed is not known here (the
/// marks are computed without symbols), so the sentence says only that the lines are the same
/// and sends the reader to drift, which names a definition that changed around them (js-drift
/// walk, `repro-sparse.sh`: a moved line under a new branch that made the answer false).
fn drift_sentence(c: &Counts, head: &str) -> Option<String> {
    let head = head.get(..12).unwrap_or(head);
    let total = c.total;
    if c.older > 0 {
        let moved = match c.moved {
            0 => String::new(),
            n => format!(" ({n} more only moved)"),
        };
        return Some(format!(
            " Parts of this answer describe older code: {} of the {total} cited ranges of the \
             sections it names that were compared with HEAD ({head}) changed or are gone since \
             they were pinned{moved}; read them at their pinned commits, or run drift \
             (`ontoly drift`, the MCP tool `Drift`).",
            c.older
        ));
    }
    (c.moved > 0).then(|| {
        format!(
            " The code behind this answer moved since it was pinned: {} of the {total} cited \
             ranges of the sections it names that were compared with HEAD ({head}) are the same \
             lines at other places, though the code around them may have changed: drift \
             (`ontoly drift`, the MCP tool `Drift`) names a definition that did, and \
             `ontoly drift --write` (a command only: it edits the workspace) re-anchors them \
             once no other reference of their module changed or went missing (it moves a \
             module whole).",
            c.moved
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentence(total: usize, older: usize, moved: usize) -> Option<String> {
        drift_sentence(
            &Counts {
                total,
                older,
                moved,
            },
            "7ae5d7cd6a76c0ffee",
        )
    }

    #[test]
    fn moved_code_is_not_called_older() {
        assert_eq!(sentence(4, 0, 0), None);
        let moved = sentence(8, 0, 8).expect("a sentence");
        assert!(!moved.contains("older"), "{moved}");
        assert!(
            moved.contains("8 of the 8 cited ranges")
                && moved.contains("HEAD (7ae5d7cd6a76)")
                && moved.contains("moved"),
            "{moved}"
        );
        let both = sentence(8, 3, 5).expect("a sentence");
        assert!(
            both.contains("describe older code: 3 of the 8 cited ranges")
                && both.contains("(5 more only moved)"),
            "{both}"
        );
        let older = sentence(2, 2, 0).expect("a sentence");
        assert!(!older.contains("moved"), "{older}");
        // Over MCP the agent has tools, not a shell: every variant names the tool that does
        // what its command does (stop-54 MCP walk: the moved variant named only commands).
        for s in [&moved, &both, &older] {
            assert!(s.contains("the MCP tool `Drift`"), "{s}");
        }
    }

    #[test]
    fn a_changed_range_whose_lines_went_away_says_so() {
        let mark = |status: Status, now: Option<(u64, u64)>, kept: Option<(u64, u64)>| {
            let now = now.map(|(a, b)| MappedRange {
                path: "docs/index.rst".into(),
                start_line: a,
                end_line: b,
            });
            let kept_lines = kept.map(|(kept, of)| KeptLines { kept, of });
            DriftMark {
                status,
                head: "3153d8114498abcdef".into(),
                rewritten: now
                    .as_ref()
                    .is_some_and(|m| crate::drift::replaced(m, kept_lines, None)),
                now,
                kept_lines,
            }
        };
        // 17 cited lines that map to one, the one kept: most of them went elsewhere.
        assert_eq!(
            mark(Status::Changed, Some((17, 17)), Some((1, 3))).describe(435, 451),
            "changed at HEAD 3153d8114498, most of its 17 lines deleted (the rest maps to \
             docs/index.rst:17-17); drift (`ontoly drift`, the MCP tool `Drift`) says where they went"
        );
        // Edited in place: the mapped range is the place to read.
        assert_eq!(
            mark(Status::Changed, Some((430, 447)), Some((12, 14))).describe(435, 451),
            "changed at HEAD 3153d8114498 (docs/index.rst:430-447)"
        );
        // Other code written where the lines were: as long as they were, but none of them.
        assert_eq!(
            mark(Status::Changed, Some((430, 447)), Some((1, 14))).describe(435, 451),
            "changed at HEAD 3153d8114498, rewritten: 1 of its 14 lines of code kept (the diff maps it \
             to docs/index.rst:430-447, other code); drift (`ontoly drift`, the MCP tool `Drift`) says where they went"
        );
        assert_eq!(
            mark(Status::Moved, Some((17, 33)), None).describe(1, 17),
            "moved at HEAD 3153d8114498 (docs/index.rst:17-33)"
        );
        assert_eq!(
            mark(Status::Changed, Some((5, 5)), Some((1, 2))).describe(4, 5),
            "changed at HEAD 3153d8114498 (docs/index.rst:5-5)"
        );
        // Nothing maps: the reader is told the lines are gone, not left to guess an edit.
        assert_eq!(
            mark(Status::Changed, None, Some((0, 12))).describe(58, 76),
            "changed at HEAD 3153d8114498: all of its 19 lines are gone from this file; \
             drift (`ontoly drift`, the MCP tool `Drift`) says where they went"
        );
    }

    /// The artifact holds marks with and without their optional fields, and reads them back
    /// as they were written.
    #[test]
    fn marks_read_back_from_their_artifact() {
        let mut marks = DriftMarks::default();
        let head = "3153d8114498abcdef".to_string();
        marks.marks.insert(
            ("a".into(), "x.py".into(), 1, 2),
            DriftMark {
                status: Status::Unchanged,
                head: head.clone(),
                now: None,
                kept_lines: None,
                rewritten: false,
            },
        );
        marks.marks.insert(
            ("a".into(), "x.py".into(), 3, 9),
            DriftMark {
                status: Status::Changed,
                head,
                now: Some(MappedRange {
                    path: "y.py".into(),
                    start_line: 4,
                    end_line: 8,
                }),
                kept_lines: Some(KeptLines { kept: 1, of: 6 }),
                rewritten: true,
            },
        );
        let bytes = encode(&marks).expect("encoded");
        assert_eq!(decode(&bytes), Some(marks));
    }
}
