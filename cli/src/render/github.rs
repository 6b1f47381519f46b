//! GitHub Actions workflow commands: `::error file=…,line=…,endLine=…,col=…::…` annotations,
//! with repository-relative paths so GitHub attaches them to the diff.

use super::sarif;
use crate::report::{ImpactView, Report};
use ontoly_graph::diagnostics::{Code, Severity};

/// Escapes a workflow command's data.
fn escape(s: &str) -> String {
    let s = s
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    // Any other control character (an escape, a C1 CSI), line separator or direction
    // override a message quotes is written as its Rust escape.
    ontoly_graph::formats::text::one_line(&s).into_owned()
}

/// Escapes a workflow command's property value.
fn property(s: &str) -> String {
    escape(s).replace(',', "%2C").replace(':', "%3A")
}

/// One annotation; `at` is a repository-relative file with its first and last line.
fn annotation(kind: &str, at: Option<(&str, u64, u64)>, title: &str, message: &str) -> String {
    let mut props = Vec::new();
    if let Some((file, start, end)) = at {
        props.push(format!("file={}", property(file)));
        if start > 0 {
            props.push(format!("line={start},endLine={end},col=1"));
        }
    }
    props.push(format!("title={}", property(title)));
    format!("::{kind} {}::{}\n", props.join(","), escape(message))
}

/// `--format github`: the report's SARIF results (one finding, one message, written once in
/// [`sarif`]) as annotations, then a summary notice. Drift's unverifiable references are left
/// to the summary: there is nothing in them to review.
pub fn render(report: &Report) -> Option<String> {
    let mut o = String::new();
    let results: Vec<sarif::SarifResult> = sarif::results(report)?
        .into_iter()
        .filter(|r| r.rule_id != Code::DriftUnverifiable.as_str())
        .collect();
    let total = results.len();
    let (results, left) = sarif::prioritized(results, MAX_ANNOTATIONS);
    for r in results {
        let kind = match r.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let title = match report {
            Report::Validate(_) => r.rule_id.clone(),
            // A workspace error is titled by its code, as `validate` titles it.
            Report::Check(_) if Code::parse(&r.rule_id).is_some() => r.rule_id.clone(),
            Report::Check(_) => "ontoly check".to_string(),
            Report::Drift(_) => {
                let status = r.rule_id.trim_start_matches("DRIFT_").to_ascii_lowercase();
                format!("ontoly drift: {status}")
            }
            _ => "ontoly impact".to_string(),
        };
        let at = r.at.as_ref().map(|(f, a, b)| (f.as_str(), *a, *b));
        o.push_str(&annotation(kind, at, &title, &r.message));
    }
    let (title, summary) = match report {
        Report::Check(c) => ("ontoly check", c.tally()),
        Report::Validate(v) => {
            let s = &v.summary;
            let s = format!("{}: {}", v.workspace, s.tally());
            ("ontoly validate", s)
        }
        Report::Drift(d) => {
            let c = &d.report.counts;
            let s = format!(
                "{} unchanged, {} moved, {} changed, {} missing, {} unverifiable",
                c.unchanged, c.moved, c.changed, c.missing, c.unverifiable
            );
            ("ontoly drift", s)
        }
        Report::Impact(i) => ("ontoly impact", impact_summary(i)),
        _ => return None,
    };
    if left > 0 {
        let more = format!(
            "{left} of {total} results are not annotated: a step shows the first {MAX_ANNOTATIONS} by severity; `{}` lists every one",
            title
        );
        o.push_str(&annotation("warning", None, title, &more));
    }
    // References left unassessed make the summary's counts a lower bound: said where a
    // workflow shows it, not only in the text's list.
    if let Report::Impact(i) = report {
        if let Some(note) = i.unassessed_note() {
            o.push_str(&annotation("warning", None, title, &note));
        }
    }
    match report {
        // A failed gate is the step's error, with its reason beside the counts.
        Report::Drift(d) if d.gate_failed.is_some() => {
            let why = d.gate_failed.as_deref().unwrap_or_default();
            o.push_str(&annotation(
                "error",
                None,
                title,
                &format!("{why} ({summary})"),
            ));
        }
        _ => o.push_str(&annotation("notice", None, title, &summary)),
    }
    Some(o)
}

/// The most annotations one step prints: a workflow shows ten of each kind a step and fifty a
/// job, so 250 000 lines of a large workspace would only bury the summary.
pub const MAX_ANNOTATIONS: usize = 100;

/// The annotations of a command that could not run (exit 2), one per error: a workflow shows
/// them on the run's summary page, where a plain line on standard error is easily missed; each
/// at the file and line it concerns when it names one (a questions file that does not parse).
pub fn failed_run(command: &str, errors: &[(&str, Option<(&str, u64)>)]) -> String {
    errors
        .iter()
        .map(|(message, at)| {
            annotation(
                "error",
                at.map(|(file, line)| (file, line, line)),
                &format!("ontoly {command}"),
                message,
            )
        })
        .collect()
}

fn impact_summary(v: &ImpactView) -> String {
    let c = &v.report.counts;
    format!(
        "{} hunk(s) in {} file(s) affect {} section(s) on {} page(s)",
        c.hunks, c.files, c.sections, c.pages
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn workflow_command_data_is_escaped() {
        assert_eq!(super::escape("a%b\r\nc"), "a%25b%0D%0Ac");
        assert_eq!(
            super::annotation("error", Some(("a,b:c", 3, 4)), "T", "m"),
            "::error file=a%2Cb%3Ac,line=3,endLine=4,col=1,title=T::m\n"
        );
    }
}
