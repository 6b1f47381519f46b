//! Drift marks for Evidence Packs: when a clone's `HEAD` is not the commit a module is pinned
//! to, the status of every cited range at `HEAD` (unchanged, moved, changed, missing), so that
//! a pack can say which of its citations describe older code.
//!
//! Computed without symbols (only the verdicts: both blobs of each cited file and the diff of
//! the changed ones), once per graph and set of `HEAD` commits, and kept as a snapshot artifact
//! named after those commits; later packs of the same graph and `HEAD`s only look them up.

use crate::context::Context;
use crate::drift::targets;
use crate::drift::{DriftOptions, Status};
use ontoly_graph::sources::drift::{self as engine, CompareOptions, DriftRepo, Verdict};
use ontoly_graph::Session;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Version of the artifact's format (part of its name).
const MARKS_VERSION: &str = "drift-marks.v1";

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
    pub now: Option<crate::drift::MappedRange>,
}

impl DriftMark {
    /// One line for the range `start-end` it marks: `moved at HEAD 0123456789ab
    /// (src/a.py:10-12)`. A changed range whose lines mostly went away (the file was rewritten
    /// or split: ten cited lines that map to one) says so, rather than send the reader to the
    /// one line that is left; one none of whose lines is left says that.
    pub fn describe(&self, start: u64, end: u64) -> String {
        let head = self.head.get(..12).unwrap_or(&self.head);
        let span =
            |m: &crate::drift::MappedRange| format!("{}:{}-{}", m.path, m.start_line, m.end_line);
        let now = self
            .now
            .as_ref()
            .map(|m| format!(" ({})", span(m)))
            .unwrap_or_default();
        let cited = end.saturating_sub(start) + 1;
        match (&self.status, &self.now) {
            (Status::Unchanged, _) => format!("unchanged at HEAD {head}"),
            (Status::Moved, _) => format!("moved at HEAD {head}{now}"),
            (Status::Changed, Some(m))
                if ontoly_graph::sources::drift::mostly_gone(
                    cited,
                    m.end_line.saturating_sub(m.start_line) + 1,
                ) =>
            {
                format!(
                    "changed at HEAD {head}: most of its {cited} lines are gone from {} (the rest maps to {}); `ontoly drift` says where they went",
                    m.path,
                    span(m)
                )
            }
            (Status::Changed, Some(_)) => format!("changed at HEAD {head}{now}"),
            // The diff maps none of its lines anywhere: deleted, or moved to another file (the
            // Go walk's `newRandomFromPool`, moved to a new pool.go), which a reader cannot tell
            // from an edit in place unless told.
            (Status::Changed, None) => format!(
                "changed at HEAD {head}: all of its {cited} lines are gone from this file; `ontoly drift` says where they went"
            ),
            _ => format!("{} at HEAD {head}", self.status.as_str()),
        }
    }
}

/// The marks of one workspace: by pinned commit, repository-relative path and cited lines.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriftMarks {
    marks: BTreeMap<(String, String, u64, u64), DriftMark>,
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
    let marks = match artifacts
        .read(&name)
        .and_then(|b| postcard::from_bytes::<DriftMarks>(&b).ok())
    {
        Some(m) => m,
        None => {
            let m = compute(session)?;
            if let Ok(bytes) = postcard::to_allocvec(&m) {
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
    let options = CompareOptions {
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
        let Ok(results) =
            engine::compare(&DriftRepo::new(&g.repo), &g.from, &g.to, &ranges, options)
        else {
            continue;
        };
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
                    Some(crate::drift::MappedRange {
                        path: new_path,
                        start_line: new_start_line,
                        end_line: new_end_line,
                    }),
                ),
                Verdict::Changed {
                    new_path, mapped, ..
                } => (
                    Status::Changed,
                    mapped.map(|m| crate::drift::MappedRange {
                        path: new_path,
                        start_line: m.start_line,
                        end_line: m.end_line,
                    }),
                ),
                Verdict::Missing => (Status::Missing, None),
            };
            marks.marks.insert(
                (g.from.clone(), r.path, r.start_line, r.end_line),
                DriftMark {
                    status,
                    head: g.to.clone(),
                    now,
                },
            );
        }
    }
    Some(marks)
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
             lines at other places, though the code around them may have changed (`ontoly \
             drift` names a definition that did); `ontoly drift --write` re-anchors them once no \
             other reference of their module changed or went missing (it moves a module whole).",
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
    }

    #[test]
    fn a_changed_range_whose_lines_went_away_says_so() {
        let mark = |status: Status, now: Option<(u64, u64)>| DriftMark {
            status,
            head: "3153d8114498abcdef".into(),
            now: now.map(|(a, b)| crate::drift::MappedRange {
                path: "docs/index.rst".into(),
                start_line: a,
                end_line: b,
            }),
        };
        // 17 cited lines that map to one: most of them went elsewhere.
        assert_eq!(
            mark(Status::Changed, Some((17, 17))).describe(435, 451),
            "changed at HEAD 3153d8114498: most of its 17 lines are gone from docs/index.rst \
             (the rest maps to docs/index.rst:17-17); `ontoly drift` says where they went"
        );
        // Edited in place: the mapped range is the place to read.
        assert_eq!(
            mark(Status::Changed, Some((430, 447))).describe(435, 451),
            "changed at HEAD 3153d8114498 (docs/index.rst:430-447)"
        );
        assert_eq!(
            mark(Status::Moved, Some((17, 33))).describe(1, 17),
            "moved at HEAD 3153d8114498 (docs/index.rst:17-33)"
        );
        assert_eq!(
            mark(Status::Changed, Some((5, 5))).describe(4, 5),
            "changed at HEAD 3153d8114498 (docs/index.rst:5-5)"
        );
        // Nothing maps: the reader is told the lines are gone, not left to guess an edit.
        assert_eq!(
            mark(Status::Changed, None).describe(58, 76),
            "changed at HEAD 3153d8114498: all of its 19 lines are gone from this file; \
             `ontoly drift` says where they went"
        );
    }
}
