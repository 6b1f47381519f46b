//! GitHub Actions workflow commands: `::error file=…,line=…::…` annotations.

use crate::report::{DriftView, ImpactView, Report};
use ontoly_capabilities::drift::Status;

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

/// `--format github` (the check gate; drift and impact).
pub fn render(report: &Report) -> Option<String> {
    match report {
        Report::Drift(d) => return Some(drift(d)),
        Report::Impact(i) => return Some(impact(i)),
        _ => {}
    }
    let Report::Check(c) = report else {
        return None;
    };
    let r = &c.report;
    let mut o = String::new();
    let file = escape(&c.file).replace(',', "%2C").replace(':', "%3A");
    for q in r.outcomes.iter().filter(|q| !q.passed) {
        o.push_str(&format!(
            "::error file={file},line={},title=ontoly check::{}\n",
            q.line,
            escape(&format!("{}: {}", q.question, q.reason))
        ));
    }
    o.push_str(&format!(
        "::notice title=ontoly check::{} question(s): {} passed, {} failed\n",
        r.total, r.passed, r.failed
    ));
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
    }
}
