//! The Markdown job summary `validate` and `check` append to `$GITHUB_STEP_SUMMARY`.

use crate::report::Report;
use ontoly_graph::graph::findings::DiagnosticView;
use std::collections::BTreeMap;
use std::fmt::Write;

/// A path inside backticks: markup is inert there, so only what ends the cell, the line or
/// the code span is escaped.
fn code_cell(s: &str) -> String {
    let s = s.replace(['\n', '\r'], " ").replace('`', "'");
    ontoly_graph::formats::text::one_line(&s).replace('|', "\\|")
}

/// Table cells: text, not markup (a question quoting `<img src=…>` or a `|` must not change
/// the page), on one line, control characters escaped.
fn cell(s: &str) -> String {
    let s = s.replace(['\n', '\r', '\t'], " ");
    let s = ontoly_graph::formats::text::one_line(&s)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    // Markdown's own marks (`_x_` is emphasis, `[a](b)` a link) stand for themselves.
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\\' | '|' | '*' | '_' | '`' | '[' | ']' | '~' | '#') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Rows shown before "… and N more".
const MAX_ROWS: usize = 50;

/// The first [`MAX_ROWS`] diagnostics as a table, at their repository-relative file and line
/// (`file_line`) or their location as recorded.
fn diagnostics_table(
    o: &mut String,
    diagnostics: &[DiagnosticView],
    file_line: impl Fn(&DiagnosticView) -> Option<(String, u64)>,
) {
    o.push_str("| where | code | message |\n| --- | --- | --- |\n");
    // Causes first (see `sarif::is_cause`): a table cut at 50 rows must not drop them.
    for d in super::sarif::causes_first(diagnostics).take(MAX_ROWS) {
        let at = file_line(d).map_or_else(|| d.location.clone(), |(f, l)| format!("{f}:{l}"));
        let _ = writeln!(
            o,
            "| `{}` | `{}` | {} |",
            code_cell(&at),
            d.code,
            cell(&d.message)
        );
    }
    if diagnostics.len() > MAX_ROWS {
        let _ = writeln!(o, "\n… and {} more", diagnostics.len() - MAX_ROWS);
    }
}

/// The summary of a report; `None` for reports without one.
pub fn markdown(report: &Report) -> Option<String> {
    let mut o = String::new();
    match report {
        Report::Validate(v) => {
            let s = &v.summary;
            let _ = writeln!(
                o,
                "### ontoly validate: {}\n\n{}\n",
                if v.valid { "passed" } else { "failed" },
                s.tally()
            );
            if !v.diagnostics.is_empty() {
                let mut by_code: BTreeMap<(&str, &str), usize> = BTreeMap::new();
                for d in &v.diagnostics {
                    *by_code.entry((d.severity.as_str(), &d.code)).or_default() += 1;
                }
                o.push_str("| severity | code | count |\n| --- | --- | ---: |\n");
                for ((sev, code), n) in &by_code {
                    let _ = writeln!(o, "| {sev} | `{code}` | {n} |");
                }
                o.push('\n');
                diagnostics_table(&mut o, &v.diagnostics, |d| v.file_line(d));
            }
        }
        Report::Check(c) => {
            let r = &c.report;
            let _ = writeln!(
                o,
                "### ontoly check: {}\n\n`{}`: {}\n",
                if c.failed() { "failed" } else { "passed" },
                code_cell(&c.file),
                c.tally()
            );
            if !c.workspace_errors.is_empty() {
                diagnostics_table(&mut o, &c.workspace_errors, |d| c.file_line(d));
                o.push('\n');
            }
            let failed: Vec<_> = r.outcomes.iter().filter(|q| !q.passed).collect();
            if !failed.is_empty() {
                o.push_str("| line | question | confidence | why |\n| ---: | --- | --- | --- |\n");
                for q in failed.iter().take(MAX_ROWS) {
                    let _ = writeln!(
                        o,
                        "| {} | {} | {} {:.2} | {} |",
                        q.line,
                        cell(&q.question),
                        q.level.as_str(),
                        q.score,
                        cell(&q.reason)
                    );
                }
                if failed.len() > MAX_ROWS {
                    let _ = writeln!(o, "\n… and {} more", failed.len() - MAX_ROWS);
                }
            }
        }
        _ => return None,
    }
    o.push('\n');
    Some(o)
}

#[cfg(test)]
mod tests {
    #[test]
    fn cells_are_text_on_one_line() {
        assert_eq!(
            super::cell("a <img src=x> | b\nc \u{1b}[8m"),
            "a &lt;img src=x&gt; \\| b c \\\\u{1b}\\[8m"
        );
        assert_eq!(super::cell("_x_ [a](b)\tc"), "\\_x\\_ \\[a\\](b) c");
        assert_eq!(super::code_cell("kb/a`b|c.md:3"), "kb/a'b\\|c.md:3");
    }
}
