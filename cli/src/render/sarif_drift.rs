//! SARIF 2.1.0 of `drift` and `impact`, for code scanning.
//!
//! Drift: one result per reference that did not stay put (`DRIFT_MOVED`, `DRIFT_CHANGED`,
//! `DRIFT_MISSING`) or could not be compared (`DRIFT_UNVERIFIABLE`), located at its line of
//! `knowledge/structure.yaml`. Impact: one `IMPACT_AFFECTED` result per touched reference,
//! located at the changed lines of the source. Paths are relative to the repository root
//! (`SRCROOT`) and percent-encoded as relative URI references; rules carry the code's
//! description and severity.

use crate::report::{DriftView, ImpactView, Report};
use ontoly_capabilities::drift::Status;
use ontoly_graph::diagnostics::{Code, Severity};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The schema a log declares.
const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// `--format sarif` for drift and impact; `None` for other reports.
pub fn render(report: &Report) -> Option<String> {
    let log = match report {
        Report::Drift(d) => log(&drift_results(d)),
        Report::Impact(i) => log(&impact_results(i)),
        _ => return None,
    };
    Some(super::json::pretty(&log))
}

/// One result before it becomes SARIF.
struct Finding {
    code: Code,
    message: String,
    /// Repository-relative file, first and last line (0: the file as a whole).
    at: Option<(String, u64, u64)>,
    fingerprint: String,
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// Percent-encodes a relative path as a URI reference (unreserved characters and `/` kept).
fn uri(path: &str) -> String {
    let mut o = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            o.push(b as char);
        } else {
            o.push_str(&format!("%{b:02X}"));
        }
    }
    o
}

fn drift_results(v: &DriftView) -> Vec<Finding> {
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
                    "moved to {}:{}-{}",
                    r.new_path.as_deref().unwrap_or(""),
                    r.new_start_line.unwrap_or(0),
                    r.new_end_line.unwrap_or(0)
                ),
                Status::Changed => match &r.mapped {
                    Some(Some(m)) => format!(
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
                        s.qualified, s.path, s.start_line, s.end_line
                    )
                })
                .unwrap_or_default();
            let later = r
                .origin
                .later
                .as_deref()
                .map(|c| format!(" at {}", c.get(..12).unwrap_or(c)))
                .unwrap_or_default();
            Some(Finding {
                code,
                message: format!(
                    "{}#{} cites {}:{}-{}{later}, {what}{suggestion}",
                    r.origin.page, r.section_id, r.path, r.start_line, r.end_line
                ),
                at: Some((v.structure_file.clone(), r.origin.line, r.origin.line)),
                fingerprint: format!("{}#{}[{}]", r.article_id, r.section_id, r.ref_index),
            })
        })
        .collect()
}

fn impact_results(v: &ImpactView) -> Vec<Finding> {
    let mut out = Vec::new();
    for p in &v.report.pages {
        for s in &p.sections {
            for a in &s.references {
                let Some(h) = a.hunks.first() else { continue };
                let start = h.new_start.max(1);
                let end = (h.new_start + h.new_count).saturating_sub(1).max(start);
                out.push(Finding {
                    code: Code::ImpactAffected,
                    message: format!(
                        "this change touches code that {}#{} describes ({}:{}-{}, via {}; {})",
                        v.page_file(&p.page),
                        s.section_id,
                        a.at.path,
                        a.at.start_line,
                        a.at.end_line,
                        a.via,
                        a.hunks
                            .iter()
                            .map(|h| h.header.as_str())
                            .collect::<Vec<_>>()
                            .join(" ")
                    ),
                    at: Some((h.path.clone(), start, end)),
                    fingerprint: format!("{}#{}[{}]", p.article_id, s.section_id, a.ref_index),
                });
            }
        }
    }
    out
}

/// A SARIF log of one run holding `findings`, with one rule per code used.
fn log(findings: &[Finding]) -> Value {
    let mut rules: BTreeMap<&str, (usize, Code)> = BTreeMap::new();
    let mut order = Vec::new();
    for f in findings {
        if !rules.contains_key(f.code.as_str()) {
            rules.insert(f.code.as_str(), (order.len(), f.code));
            order.push(f.code);
        }
    }
    let rules_json: Vec<Value> = order
        .iter()
        .map(|c| {
            json!({
                "id": c.as_str(),
                "shortDescription": {"text": c.description()},
                "defaultConfiguration": {"level": level(c.severity())},
            })
        })
        .collect();
    let results: Vec<Value> = findings
        .iter()
        .map(|f| {
            let mut v = json!({
                "ruleId": f.code.as_str(),
                "ruleIndex": rules[f.code.as_str()].0,
                "level": level(f.code.severity()),
                "message": {"text": f.message},
                "partialFingerprints": {"ontoly/v1": format!("{}@{}", f.code.as_str(), f.fingerprint)},
            });
            if let Some((file, start, end)) = &f.at {
                let mut physical = json!({
                    "artifactLocation": {"uri": uri(file), "uriBaseId": "SRCROOT"},
                });
                if *start > 0 {
                    physical["region"] = json!({"startLine": start, "endLine": end});
                }
                v["locations"] = json!([{ "physicalLocation": physical }]);
            }
            v
        })
        .collect();
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "ontoly",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules_json,
            }},
            "originalUriBaseIds": {
                "SRCROOT": {"description": {"text": "The root of the repository checked."}}
            },
            "results": results,
            "columnKind": "unicodeCodePoints",
        }]
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn paths_are_relative_uri_references() {
        assert_eq!(super::uri("kb/a b/é.md"), "kb/a%20b/%C3%A9.md");
        assert_eq!(
            super::uri("knowledge/structure.yaml"),
            "knowledge/structure.yaml"
        );
    }
}
