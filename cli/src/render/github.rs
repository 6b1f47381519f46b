//! GitHub Actions workflow commands: `::error file=…,line=…,endLine=…,col=…::…` annotations,
//! with repository-relative paths so GitHub attaches them to the diff.

use crate::report::{DriftView, ImpactView, Report};
use ontoly_capabilities::drift::Status;
use ontoly_graph::diagnostics::Severity;

/// Escapes a workflow command's data.
fn escape(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value.
fn property(s: &str) -> String {
    escape(s).replace(',', "%2C").replace(':', "%3A")
}

/// One annotation; `at` is a repository-relative file and line.
fn annotation(kind: &str, at: Option<(&str, u64)>, title: &str, message: &str) -> String {
    let mut props = Vec::new();
    if let Some((file, line)) = at {
        props.push(format!("file={}", property(file)));
        if line > 0 {
            props.push(format!("line={line},endLine={line},col=1"));
        }
    }
    props.push(format!("title={}", property(title)));
    format!("::{kind} {}::{}\n", props.join(","), escape(message))
}

/// `--format github` (the check gate, validate; drift and impact).
pub fn render(report: &Report) -> Option<String> {
    let mut o = String::new();
    match report {
        Report::Drift(d) => return Some(drift(d)),
        Report::Impact(i) => return Some(impact(i)),
        Report::Check(c) => {
            let r = &c.report;
            for q in r.outcomes.iter().filter(|q| !q.passed) {
                o.push_str(&annotation(
                    "error",
                    Some((&c.file, q.line)),
                    "ontoly check",
                    &format!("{}: {}", q.question, q.reason),
                ));
            }
            o.push_str(&annotation(
                "notice",
                None,
                "ontoly check",
                &format!(
                    "{} question(s): {} passed, {} failed",
                    r.total, r.passed, r.failed
                ),
            ));
        }
        Report::Validate(v) => {
            for d in &v.diagnostics {
                let kind = match d.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Info => "notice",
                };
                let at = v.file_line(d);
                let message = if at.is_none() {
                    format!("{}: {}", d.location, d.message)
                } else {
                    d.message.clone()
                };
                o.push_str(&annotation(
                    kind,
                    at.as_ref().map(|(f, l)| (f.as_str(), *l)),
                    &d.code,
                    &message,
                ));
            }
            let s = &v.summary;
            o.push_str(&annotation(
                "notice",
                None,
                "ontoly validate",
                &format!(
                    "{}: {} errors, {} warnings, {} info",
                    v.workspace, s.error, s.warning, s.info
                ),
            ));
        }
        _ => return None,
    }
    Some(o)
}

/// Drift: one annotation per reference that did not stay put, at its line of
/// `knowledge/structure.yaml` (repository-relative), then a summary.
fn drift(v: &DriftView) -> String {
    let file = property(&v.structure_file);
    let mut o = String::new();
    for r in &v.report.references {
        let kind = match r.status {
            Status::Unchanged | Status::Unverifiable => continue,
            Status::Moved => "notice",
            Status::Changed | Status::Missing => "warning",
        };
        let place = match r.status {
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
            _ => "missing: the file is gone".to_string(),
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
        let line = if r.origin.line > 0 {
            format!(",line={}", r.origin.line)
        } else {
            String::new()
        };
        o.push_str(&format!(
            "::{kind} file={file}{line},title={}::{}\n",
            property(&format!("ontoly drift: {}", r.status.as_str())),
            escape(&format!(
                "{}#{} cites {}:{}-{}, {place}{suggestion}",
                r.origin.page, r.section_id, r.path, r.start_line, r.end_line
            ))
        ));
    }
    let c = &v.report.counts;
    o.push_str(&format!(
        "::notice title=ontoly drift::{} unchanged, {} moved, {} changed, {} missing, {} unverifiable\n",
        c.unchanged, c.moved, c.changed, c.missing, c.unverifiable
    ));
    o
}

/// Impact: one annotation per touched reference, on the changed lines of the source
/// (paths relative to the source repository's root), then a summary.
fn impact(v: &ImpactView) -> String {
    let mut o = String::new();
    for p in &v.report.pages {
        for s in &p.sections {
            for a in &s.references {
                let Some(h) = a.hunks.first() else { continue };
                let start = h.new_start.max(1);
                let end = (h.new_start + h.new_count).saturating_sub(1).max(start);
                o.push_str(&format!(
                    "::warning file={},line={start},endLine={end},title=ontoly impact::{}\n",
                    property(&h.path),
                    escape(&format!(
                        "this change touches code that {}#{} describes ({}:{}-{}, via {})",
                        v.page_file(&p.page),
                        s.section_id,
                        a.at.path,
                        a.at.start_line,
                        a.at.end_line,
                        a.via
                    ))
                ));
            }
        }
    }
    let c = &v.report.counts;
    o.push_str(&format!(
        "::notice title=ontoly impact::{} hunk(s) in {} file(s) touch {} section(s) on {} page(s)\n",
        c.hunks, c.files, c.sections, c.pages
    ));
    o
}

#[cfg(test)]
mod tests {
    #[test]
    fn workflow_command_data_is_escaped() {
        assert_eq!(super::escape("a%b\r\nc"), "a%25b%0D%0Ac");
        assert_eq!(
            super::annotation("error", Some(("a,b:c", 3)), "T", "m"),
            "::error file=a%2Cb%3Ac,line=3,endLine=3,col=1,title=T::m\n"
        );
    }
}
