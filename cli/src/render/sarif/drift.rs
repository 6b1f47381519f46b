//! SARIF results of `drift` and `impact`.
//!
//! Drift: one result per reference that did not stay put (`DRIFT_MOVED`, `DRIFT_CHANGED`,
//! `DRIFT_MISSING`) or could not be compared (`DRIFT_UNVERIFIABLE`), located at its line of
//! `knowledge/structure.yaml`; with `--diff`, a changed one's message ends with its diff. Impact: one `IMPACT_AFFECTED` result per touched reference,
//! located at the changed lines of the source. Both are fingerprinted by the reference
//! (page, section, position), which survives edits that shift lines.

use super::SarifResult;
use crate::report::{DriftView, ImpactView};
use ontoly_capabilities::drift::Status;
use ontoly_graph::diagnostics::Code;

/// One result per reference that did not stay put or could not be compared, at its line of
/// the structure file.
pub fn drift_results(v: &DriftView) -> Vec<SarifResult> {
    v.report
        .references
        .iter()
        .filter_map(|r| {
            let code = match r.status {
                Status::Unchanged => return None,
                Status::Moved => Code::DriftMoved,
                Status::Changed => Code::DriftChanged,
                Status::Missing => Code::DriftMissing,
                Status::Unverifiable => Code::DriftUnverifiable,
            };
            let what = match r.status {
                Status::Moved => format!(
                    "moved to {}:{}-{}{}",
                    r.new_path.as_deref().unwrap_or(""),
                    r.new_start_line.unwrap_or(0),
                    r.new_end_line.unwrap_or(0),
                    r.changed_around_words()
                        .map(|w| format!(", but {w}: review the section"))
                        .unwrap_or_default()
                ),
                Status::Changed => match r.review_range() {
                    Some(m) => format!(
                        "changed: review lines {}-{} of {}",
                        m.start_line, m.end_line, m.path
                    ),
                    _ => "changed: the cited lines are gone".to_string(),
                },
                Status::Missing => "missing: the file is gone".to_string(),
                _ => format!("unverifiable: {}", r.reason.as_deref().unwrap_or("")),
            };
            let suggestion = r
                .suggestion
                .as_ref()
                .map(|s| {
                    format!(
                        " (suggestion: `{}` at {}:{}-{})",
                        s.shown(),
                        s.path,
                        s.start_line,
                        s.end_line
                    )
                })
                .unwrap_or_default();
            let relocated = r
                .whereabouts()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default();
            // Both commits, each for what it is: the cited one, and the one compared with.
            let short = |c: &str| c.get(..12).unwrap_or(c).to_string();
            let pinned = r
                .origin
                .pinned
                .as_deref()
                .map(|c| format!(" at {}", short(c)))
                .unwrap_or_default();
            let later = r
                .origin
                .later
                .as_deref()
                .map(|c| format!(" (compared with {})", short(c)))
                .unwrap_or_default();
            // With `--diff`, what changed under the section, for the reviewer of the annotation.
            let diff = r
                .diff
                .as_deref()
                .map(|d| format!("\n\n{d}"))
                .unwrap_or_default();
            Some(SarifResult {
                rule_id: code.as_str().to_string(),
                severity: code.severity(),
                message: format!(
                    "{}#{} cites {}:{}-{}{pinned}{later}, {what}{suggestion}{relocated}{diff}",
                    r.origin.page, r.section_id, r.path, r.start_line, r.end_line
                ),
                at: Some((v.structure_file.clone(), r.origin.line, r.origin.line)),
                fingerprint: Some(format!(
                    "{}#{}[{}]",
                    r.article_id, r.section_id, r.ref_index
                )),
            })
        })
        .collect()
}

/// One result per hunk of each touched reference (per rename when no hunk touches it), at the
/// changed lines of the source.
pub fn impact_results(v: &ImpactView) -> Vec<SarifResult> {
    let mut out = Vec::new();
    for p in &v.report.pages {
        for s in &p.sections {
            for a in &s.references {
                let page = v.page_file(&p.page);
                let (path, first, last) = (&a.at.path, a.at.start_line, a.at.end_line);
                let fingerprint = format!("{}#{}[{}]", p.article_id, s.section_id, a.ref_index);
                let result =
                    |message: String, at: (String, u64, u64), fingerprint: String| SarifResult {
                        rule_id: Code::ImpactAffected.as_str().to_string(),
                        severity: Code::ImpactAffected.severity(),
                        message,
                        at: Some(at),
                        fingerprint: Some(fingerprint),
                    };
                if a.hunks.is_empty() {
                    // Renamed, lines unchanged: at the cited lines in the file's new place
                    // (shifted by what the change inserts or deletes above them).
                    let Some(to) = &a.renamed_to else { continue };
                    let (now_first, now_last) = a
                        .renamed_lines
                        .map_or((first, last), |l| (l.start_line, l.end_line));
                    out.push(result(
                        format!(
                            "this change renames the file that {page}#{} cites ({path}:{first}-{last} is now {to}:{now_first}-{now_last}; `ontoly drift --write` re-anchors it)",
                            s.section_id
                        ),
                        (to.clone(), now_first, now_last),
                        fingerprint,
                    ));
                    continue;
                }
                // One result a hunk, at its new lines: a reviewer sees each place the change
                // touches the cited code, not only the first (found in the stop-44 CI walk:
                // lines 539-540 of a second hunk went unmarked).
                let n = a.hunks.len();
                for (k, h) in a.hunks.iter().enumerate() {
                    let start = h.new_start.max(1);
                    let end = (h.new_start + h.new_count).saturating_sub(1).max(start);
                    let (of, fingerprint) = if n > 1 {
                        (
                            format!(", hunk {} of {n}", k + 1),
                            format!("{fingerprint}/{}", k + 1),
                        )
                    } else {
                        (String::new(), fingerprint.clone())
                    };
                    out.push(result(
                        format!(
                            "this change touches code that {page}#{} describes ({path}:{first}-{last}, via {}; {}{of})",
                            s.section_id, a.via, h.header
                        ),
                        (h.path.clone(), start, end),
                        fingerprint,
                    ));
                }
            }
        }
    }
    out
}
