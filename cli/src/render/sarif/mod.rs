//! SARIF 2.1.0 (OASIS), for code scanning: one result per diagnostic of `validate`, per failed
//! question of `check` and per error of the workspace it checked, located at a
//! repository-relative file and line.
//!
//! Any report becomes a list of [`SarifResult`]s and [`log`] wraps them in one run, with a
//! rule per distinct `ruleId` (described by its [`Code`] when it is one); a new report kind
//! only adds a conversion to [`results`] (drift and impact: [`drift`]).

mod drift;

use crate::report::Report;
use ontoly_graph::diagnostics::{Code, Severity};
use ontoly_graph::formats::remote::percent_encode_path;
use ontoly_graph::graph::findings::DiagnosticView;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The schema a log declares.
pub const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// One result before it becomes SARIF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SarifResult {
    /// The rule: a diagnostic code, or a rule of the report (`CHECK_QUESTION_FAILED`).
    pub rule_id: String,
    /// Its severity.
    pub severity: Severity,
    /// One line.
    pub message: String,
    /// Repository-relative file and 1-based first and last line (0: the file as a whole), when
    /// located.
    pub at: Option<(String, u64, u64)>,
    /// What identifies the finding across runs when its line moves (default: rule, file, line).
    pub fingerprint: Option<String>,
}

/// The rule of a failed `check` question.
pub const CHECK_RULE: &str = "CHECK_QUESTION_FAILED";
/// The rule of a question that fails as its `known_failure` marker says (reported as a note).
pub const KNOWN_RULE: &str = "CHECK_KNOWN_FAILURE";

fn describe(rule: &str) -> String {
    match Code::parse(rule) {
        Some(c) => c.description().to_string(),
        None if rule == CHECK_RULE => "A question of the questions file is not backed by the evidence it expects (weak, not found, missing its expected sections, or answered while marked unanswerable)".to_string(),
        None if rule == KNOWN_RULE => "A question marked known_failure still fails, as its marker says; the gate accepts it".to_string(),
        None => rule.to_string(),
    }
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The results of a report; `None` for a report without a SARIF form.
pub fn results(report: &Report) -> Option<Vec<SarifResult>> {
    Some(match report {
        Report::Validate(v) => v
            .diagnostics
            .iter()
            .map(|d| diagnostic(d, v.file_line(d)))
            .collect(),
        Report::Check(c) => c
            .workspace_errors
            .iter()
            .map(|d| diagnostic(d, c.file_line(d)))
            .chain(
                c.report
                    .outcomes
                    .iter()
                    .filter(|q| !q.passed || q.is_known_failure())
                    .map(|q| {
                        let (rule_id, severity, message) = match &q.known_failure {
                            Some(why) if q.passed => (
                                KNOWN_RULE,
                                Severity::Info,
                                format!("{}: known failure ({why}): {}", q.question, q.reason),
                            ),
                            _ => (
                                CHECK_RULE,
                                Severity::Error,
                                format!("{}: {}", q.question, q.reason),
                            ),
                        };
                        // A questions file outside the repository has no place in it: the
                        // result names it in its message instead (never an absolute path of
                        // this machine as a repository file).
                        let inside = crate::commands::ci::in_repository(&c.file);
                        SarifResult {
                            rule_id: rule_id.to_string(),
                            severity,
                            message: if inside {
                                message
                            } else {
                                format!("{}:{}: {message}", c.file, q.line)
                            },
                            at: inside.then(|| (c.file.clone(), q.line, q.line)),
                            fingerprint: None,
                        }
                    }),
            )
            .collect(),
        Report::Drift(d) => drift::drift_results(d),
        Report::Impact(i) => drift::impact_results(i),
        _ => return None,
    })
}

/// A workspace diagnostic at its repository-relative file and line (`at`), or with its
/// location in the message when it has none.
fn diagnostic(d: &DiagnosticView, at: Option<(String, u64)>) -> SarifResult {
    let at = at.map(|(f, l)| (f, l, l));
    SarifResult {
        rule_id: d.code.clone(),
        severity: d.severity,
        message: if at.is_none() {
            format!("{}: {}", d.location, d.message)
        } else {
            d.message.clone()
        },
        at,
        fingerprint: None,
    }
}

/// A SARIF log of one run holding `results`.
pub fn log(results: &[SarifResult]) -> Value {
    let mut rules: BTreeMap<&str, usize> = BTreeMap::new();
    for r in results {
        let n = rules.len();
        rules.entry(r.rule_id.as_str()).or_insert(n);
    }
    let mut ordered: Vec<(&str, usize)> = rules.iter().map(|(k, v)| (*k, *v)).collect();
    ordered.sort_by_key(|(_, i)| *i);
    let rules_json: Vec<Value> = ordered
        .iter()
        .map(|(id, _)| {
            let severity = match Code::parse(id) {
                Some(c) => c.severity(),
                None if *id == KNOWN_RULE => Severity::Info,
                None => Severity::Error,
            };
            json!({
                "id": id,
                "shortDescription": {"text": describe(id)},
                "defaultConfiguration": {"level": level(severity)},
            })
        })
        .collect();
    let results_json: Vec<Value> = results
        .iter()
        .map(|r| {
            let mut v = json!({
                "ruleId": r.rule_id,
                "ruleIndex": rules[r.rule_id.as_str()],
                "level": level(r.severity),
                "message": {"text": r.message},
            });
            if let Some((file, start, end)) = &r.at {
                let mut physical = json!({
                    "artifactLocation": {
                        "uri": percent_encode_path(file),
                        "uriBaseId": "SRCROOT",
                    },
                });
                if *start > 0 {
                    physical["region"] = json!({"startLine": start, "endLine": end});
                }
                v["locations"] = json!([{ "physicalLocation": physical }]);
            }
            let fingerprint = match (&r.fingerprint, &r.at) {
                (Some(f), _) => Some(f.clone()),
                (None, Some((file, line, _))) => Some(format!("{file}:{line}")),
                (None, None) => None,
            };
            if let Some(f) = fingerprint {
                v["partialFingerprints"] = json!({"ontoly/v1": format!("{}@{f}", r.rule_id)});
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
                "SRCROOT": {"description": {"text": "The root of the repository checked, or of the workspace when it is in no git repository."}}
            },
            "results": results_json,
        }]
    })
}

/// The most results one run carries: GitHub code scanning rejects a run of more than 25 000
/// results and keeps the first 5 000 by severity, so a log of every reference of a 100k-section
/// workspace (250 000 results, 220 MB) could not be uploaded at all.
pub const MAX_RESULTS: usize = 5_000;

/// Whether a diagnostic's code is the cause of others that follow from it: a registry that
/// cannot be used leaves every reference resolved through it `SOURCE_UNRESOLVED` (Context's
/// messages, which do not name the registry), so it goes first wherever a report is cut short
/// (found in the stop-42 walk: one `REGISTRY_UNUSABLE` after 268 of those, in no annotation);
/// a pin its clone does not contain, likewise, leaves every reference of the module
/// `REFERENCE_COMMIT_MISSING`, and the one line to fix is the pin's.
pub fn is_cause(code: &str) -> bool {
    code == Code::RegistryUnusable.as_str() || code == Code::SourceCommitMissing.as_str()
}

/// `diagnostics` with their causes ([`is_cause`]) first, the rest in order.
pub fn causes_first(
    diagnostics: &[ontoly_graph::graph::findings::DiagnosticView],
) -> impl Iterator<Item = &ontoly_graph::graph::findings::DiagnosticView> {
    let (causes, rest): (Vec<_>, Vec<_>) = diagnostics.iter().partition(|d| is_cause(&d.code));
    causes.into_iter().chain(rest)
}

/// The first `max` of `results` by severity (errors, then warnings, then notes; within each,
/// causes ([`is_cause`]) first, then the report's order), and how many were left out. Uncut,
/// the report's order with its causes first.
pub fn prioritized(mut results: Vec<SarifResult>, max: usize) -> (Vec<SarifResult>, usize) {
    if results.len() <= max {
        results.sort_by_key(|r| !is_cause(&r.rule_id));
        return (results, 0);
    }
    let rank = |s: Severity| match s {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
    };
    results.sort_by_key(|r| (rank(r.severity), !is_cause(&r.rule_id)));
    let left = results.len() - max;
    results.truncate(max);
    (results, left)
}

/// `--format sarif`: at most [`MAX_RESULTS`] results, by severity; when more were found, a
/// notification of the run says how many were left out and where they all are.
pub fn render(report: &Report) -> Option<String> {
    let all = results(report)?;
    let total = all.len();
    let (kept, left) = prioritized(all, MAX_RESULTS);
    let mut log = log(&kept);
    let mut notes = Vec::new();
    if left > 0 {
        notes.push(format!(
            "{left} of {total} results left out: a run keeps the first {MAX_RESULTS} by severity (GitHub code scanning keeps no more); --format json lists every one"
        ));
    }
    if let Report::Impact(i) = report {
        notes.extend(i.unassessed_note());
    }
    if !notes.is_empty() {
        let notifications: Vec<Value> = notes
            .into_iter()
            .map(|text| json!({"level": "warning", "message": {"text": text}}))
            .collect();
        log["runs"][0]["invocations"] = json!([{
            "executionSuccessful": true,
            "toolExecutionNotifications": notifications,
        }]);
    }
    Some(super::json::pretty(&log))
}

/// The log of a run that could not check anything (an unreadable `ontoly.toml`, no
/// workspace): no results, `executionSuccessful: false` and each error as a notification, so
/// an upload step gets a valid log that says why rather than an empty file.
pub fn failed_run(errors: &[(&str, Option<(&str, u64)>)]) -> String {
    let mut log = log(&[]);
    let notifications: Vec<serde_json::Value> = errors
        .iter()
        .map(|(message, at)| {
            let mut notification = json!({"level": "error", "message": {"text": message}});
            // At the file and line the error concerns (a questions file that does not parse),
            // as the GitHub format's annotation is.
            if let Some((file, line)) = at {
                notification["locations"] = json!([{"physicalLocation": {
                    "artifactLocation": {"uri": percent_encode_path(file), "uriBaseId": "SRCROOT"},
                    "region": {"startLine": (*line).max(1)},
                }}]);
            }
            notification
        })
        .collect();
    log["runs"][0]["invocations"] = json!([{
        "executionSuccessful": false,
        "toolExecutionNotifications": notifications,
    }]);
    super::json::pretty(&log)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_keeps_errors_first_in_report_order() {
        let r = |n: u64, severity| SarifResult {
            rule_id: "R".into(),
            severity,
            message: n.to_string(),
            at: None,
            fingerprint: None,
        };
        let all = vec![
            r(1, Severity::Info),
            r(2, Severity::Warning),
            r(3, Severity::Error),
            r(4, Severity::Warning),
            r(5, Severity::Error),
        ];
        let (kept, left) = prioritized(all.clone(), 3);
        let kept: Vec<&str> = kept.iter().map(|r| r.message.as_str()).collect();
        assert_eq!((kept, left), (vec!["3", "5", "2"], 2));
        assert_eq!(prioritized(all.clone(), 5), (all, 0));
        // A registry that cannot be used comes before the errors that follow from it.
        let mut cascade: Vec<SarifResult> = (0..4).map(|n| r(n, Severity::Error)).collect();
        cascade.push(SarifResult {
            rule_id: "REGISTRY_UNUSABLE".into(),
            ..r(9, Severity::Error)
        });
        let (kept, _) = prioritized(cascade.clone(), 2);
        let kept: Vec<&str> = kept.iter().map(|r| r.message.as_str()).collect();
        assert_eq!(kept, vec!["9", "0"]);
        // Uncut too.
        let (all, left) = prioritized(cascade, 10);
        let all: Vec<&str> = all.iter().map(|r| r.message.as_str()).collect();
        assert_eq!((all, left), (vec!["9", "0", "1", "2", "3"], 0));
    }

    #[test]
    fn paths_are_percent_encoded_and_rules_shared() {
        let r = |rule: &str, file: &str| SarifResult {
            rule_id: rule.into(),
            severity: Severity::Warning,
            message: "m".into(),
            at: Some((file.into(), 3, 3)),
            fingerprint: None,
        };
        let l = log(&[
            r("LINK_UNRESOLVED", "kb/a b/é.md"),
            r("LINK_UNRESOLVED", "kb/x.md"),
        ]);
        let run = &l["runs"][0];
        assert_eq!(
            run["tool"]["driver"]["rules"].as_array().map(Vec::len),
            Some(1)
        );
        assert_eq!(
            run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "kb/a%20b/%C3%A9.md"
        );
        assert_eq!(run["results"][1]["ruleIndex"], 0);
        assert_eq!(run["results"][0]["level"], "warning");
    }
}
