//! GitHub Actions workflow commands: `::error file=…,line=…::…` annotations.

use crate::report::Report;

/// Escapes a workflow command's data.
fn escape(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// `--format github` (the check gate).
pub fn render(report: &Report) -> Option<String> {
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

#[cfg(test)]
mod tests {
    #[test]
    fn workflow_command_data_is_escaped() {
        assert_eq!(super::escape("a%b\r\nc"), "a%25b%0D%0Ac");
    }
}
