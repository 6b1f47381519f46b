//! GitHub Actions workflow commands: `::error file=…,line=…,endLine=…,col=…::…` annotations,
//! with repository-relative paths so GitHub attaches them to the diff.

use crate::report::Report;
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

/// `--format github` (the check gate, validate).
pub fn render(report: &Report) -> Option<String> {
    let mut o = String::new();
    match report {
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
