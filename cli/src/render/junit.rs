//! JUnit XML for `check`: one test case per question, a failure for each failed one, so
//! test-report tools show the gate like a test suite.

use crate::report::Report;
use std::fmt::Write;

/// Escapes text and attribute values. Characters XML 1.0 cannot carry (control characters
/// other than tab, newline and carriage return) become U+FFFD.
fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            '\t' | '\n' | '\r' => o.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => o.push('\u{FFFD}'),
            c => o.push(c),
        }
    }
    o
}

/// `--format junit` (the check gate).
pub fn render(report: &Report) -> Option<String> {
    let Report::Check(c) = report else {
        return None;
    };
    let r = &c.report;
    let file = escape(&c.file);
    let mut o = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    // The workspace's errors are one suite of one case: the workspace itself.
    let broken = usize::from(!c.workspace_errors.is_empty());
    let _ = writeln!(
        o,
        "<testsuites name=\"ontoly check\" tests=\"{}\" failures=\"{}\" errors=\"0\">",
        r.total + broken,
        r.failed + broken
    );
    if broken == 1 {
        let lines: Vec<String> = c
            .workspace_errors
            .iter()
            .map(|d| escape(&format!("{}: error {}: {}", d.location, d.code, d.message)))
            .collect();
        let _ = writeln!(
            o,
            "  <testsuite name=\"workspace\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\">\n    <testcase classname=\"workspace\" name=\"ontoly validate\">\n      <failure message=\"{}\" type=\"WORKSPACE_ERRORS\">{}</failure>\n    </testcase>\n  </testsuite>",
            escape(&format!(
                "the workspace has {} error(s)",
                c.workspace_errors.len()
            )),
            lines.join("\n")
        );
    }
    let _ = writeln!(
        o,
        "  <testsuite name=\"{file}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">",
        r.total, r.failed, r.known
    );
    for q in &r.outcomes {
        let _ = write!(
            o,
            "    <testcase classname=\"{file}\" name=\"{}\" file=\"{file}\" line=\"{}\"",
            escape(&q.question),
            q.line
        );
        if let (true, Some(why)) = (q.is_known_failure(), &q.known_failure) {
            // JUnit has no "expected failure": a skipped case with the reason is what CI
            // dashboards show as neither green nor red.
            let _ = writeln!(
                o,
                ">\n      <skipped message=\"{}\">{}</skipped>\n    </testcase>",
                escape(&format!("known failure: {why}")),
                escape(&format!("line {}: {}", q.line, q.reason))
            );
        } else if q.passed {
            o.push_str("/>\n");
        } else {
            let _ = writeln!(
                o,
                ">\n      <failure message=\"{}\" type=\"{}\">{}: {} (confidence {} {:.4})</failure>\n    </testcase>",
                escape(&q.reason),
                super::sarif::CHECK_RULE,
                file,
                escape(&format!("line {}: {}", q.line, q.reason)),
                q.level.as_str(),
                q.score
            );
        }
    }
    o.push_str("  </testsuite>\n</testsuites>\n");
    Some(o)
}

/// A run that could not start (an unreadable or invalid questions file, no workspace), as a
/// suite with an `<error>` case per error: a test-report step reads a report, not an empty file.
pub fn failed_run(command: &str, errors: &[(&str, Option<(&str, u64)>)]) -> String {
    let command = escape(command);
    let n = errors.len();
    let cases: String = errors
        .iter()
        .enumerate()
        .map(|(i, (message, at))| {
            // One error is "the run", as before; several are told apart by their place.
            let name = match at {
                _ if n == 1 => "the run".to_string(),
                Some((file, line)) => escape(&format!("{file}:{line}")),
                None => format!("error {}", i + 1),
            };
            let message = escape(message);
            format!(
                "    <testcase classname=\"ontoly {command}\" name=\"{name}\">\n      <error message=\"{message}\" type=\"RUN_FAILED\">{message}</error>\n    </testcase>\n"
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ontoly {command}\" tests=\"{n}\" failures=\"0\" errors=\"{n}\">\n  <testsuite name=\"ontoly {command}\" tests=\"{n}\" failures=\"0\" errors=\"{n}\" skipped=\"0\">\n{cases}  </testsuite>\n</testsuites>\n"
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(
            super::escape("a<b>&\"c'\u{1}"),
            "a&lt;b&gt;&amp;&quot;c&apos;\u{FFFD}"
        );
    }
}
