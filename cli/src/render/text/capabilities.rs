//! Text of the capability commands: `capabilities`, `cites`, `check`.

use crate::report::CheckView;
use ontoly_capabilities::evidence::Code;
use ontoly_capabilities::registry::CAPABILITIES;
use ontoly_capabilities::CapabilityResult;
use std::fmt::Write as _;

/// Workspace errors `check` lists in text (`validate` lists them all).
const WORKSPACE_ERRORS_SHOWN: usize = 10;

pub(super) fn registry() -> String {
    let mut text = String::new();
    for c in CAPABILITIES {
        let fields: Vec<String> = c
            .fields()
            .into_iter()
            .map(|(name, required)| format!("{name}{}", if required { "" } else { "?" }))
            .collect();
        let _ = writeln!(text, "{} v{} {{{}}}", c.name, c.version, fields.join(", "));
        let _ = writeln!(text, "    {}", c.description);
    }
    text.push_str("\nDiagnostic codes:\n");
    for code in Code::ALL
        .iter()
        .filter(|c| c.as_str().starts_with("CAPABILITY_"))
    {
        let _ = writeln!(
            text,
            "  {}: {} ({})",
            code.as_str(),
            code.description(),
            code.severity().as_str()
        );
    }
    text
}

/// Any capability's result as text: the summary, its confidence, one line per piece of
/// evidence, the diagnostics and fallbacks. The capability's own `data` is left to
/// `--format json|yaml`, which the last line says.
pub(super) fn result(r: &CapabilityResult) -> String {
    let mut o = format!("{} v{}: {}\n", r.capability, r.version, r.summary);
    let c = &r.confidence;
    let _ = writeln!(
        o,
        "Confidence: {} ({:.4}): {}",
        c.level.as_str(),
        c.score,
        c.explanation
    );
    if !r.evidence.is_empty() {
        o.push_str("\nEvidence:\n");
        for e in &r.evidence {
            // A diagnostic item (`Validate`'s findings) is nothing without where it is: its
            // message alone ("is a symlink that leaves the workspace") names no page.
            match &e.diagnostic {
                Some(d) => {
                    let _ = writeln!(o, "  - {}", diagnostic_line(d));
                }
                None => {
                    let _ = writeln!(o, "  - {}", e.description);
                }
            }
        }
    }
    if !r.diagnostics.is_empty() {
        o.push_str("\nDiagnostics:\n");
        for d in &r.diagnostics {
            let _ = writeln!(o, "  {}", diagnostic_line(d));
        }
    }
    let fallbacks = r.data["fallbacks"].as_array();
    if fallbacks.is_some_and(|f| !f.is_empty()) {
        o.push_str("\nFallbacks:\n");
        for f in fallbacks.into_iter().flatten() {
            let _ = writeln!(o, "  - {}", f.as_str().unwrap_or(""));
        }
    }
    // What the data holds as text is the answer itself (a section's words, the references
    // YAML): shown, not only pointed at, since a client may show only this text.
    if let Some(text) = r.data["text"].as_str().filter(|t| !t.is_empty()) {
        let _ = write!(o, "\nText:\n{text}");
        if !text.ends_with('\n') {
            o.push('\n');
        }
    }
    if let Some(yaml) = r.data["yaml"].as_str().filter(|t| !t.is_empty()) {
        let _ = write!(o, "\n{yaml}");
    }
    if r.data
        .as_object()
        .is_some_and(|d| d.keys().any(|k| k != "fallbacks"))
    {
        o.push_str(
            "\n(all of the capability's data: --format json or yaml; over MCP, the reply's structuredContent)\n",
        );
    }
    o
}

/// `[severity] location: CODE: message`, the location left out when there is none.
fn diagnostic_line(d: &ontoly_capabilities::evidence::Diagnostic) -> String {
    let at = d
        .location
        .as_deref()
        .map(|l| format!("{l}: "))
        .unwrap_or_default();
    format!("[{}] {at}{}: {}", d.severity.as_str(), d.code, d.message)
}

pub(super) fn cites(r: &CapabilityResult) -> String {
    let mut text = format!("{}\n", r.summary);
    for s in r.data["sections"].as_array().into_iter().flatten() {
        let _ = writeln!(
            text,
            "  {}  {}",
            s["section"].as_str().unwrap_or(""),
            s["title"].as_str().unwrap_or("")
        );
        // A section citing only what is defined in the symbol asked for, not it itself.
        let members: Vec<&str> = (s["members"].as_array().into_iter().flatten())
            .filter_map(serde_json::Value::as_str)
            .collect();
        if !members.is_empty() {
            let _ = writeln!(
                text,
                "    (only what is defined in it: {})",
                ontoly_graph::formats::text::first_of(&members, 3)
            );
        }
        for c in s["citations"].as_array().into_iter().flatten() {
            let _ = writeln!(text, "    cites {}", c["label"].as_str().unwrap_or(""));
            if let Some(u) = c["url"].as_str() {
                let _ = writeln!(text, "          {u}");
            }
        }
    }
    // The JSON says so in a diagnostic; the text must not look complete when it is not.
    let listed = r.data["sections"].as_array().map_or(0, Vec::len);
    let total = r.data["sectionCount"].as_u64().unwrap_or(0) as usize;
    if total > listed {
        let _ = writeln!(
            text,
            "  … and {} more not listed (the first {listed} are); a line range (PATH:START-END) narrows it",
            total - listed
        );
    }
    for f in r.data["fallbacks"].as_array().into_iter().flatten() {
        let _ = writeln!(text, "  - {}", f.as_str().unwrap_or(""));
    }
    text
}

pub(super) fn check(c: &CheckView) -> String {
    let r = &c.report;
    let mut o = String::new();
    // Questions and reasons quote the questions file and the workspace: one line each.
    let line = ontoly_graph::formats::text::one_line;
    for q in &r.outcomes {
        o.push_str(&format!(
            "{} {:<6} {:.4}  {}\n",
            if q.is_known_failure() {
                "KNOWN"
            } else if q.passed {
                "ok  "
            } else {
                "FAIL"
            },
            q.level.as_str(),
            q.score,
            line(&q.question)
        ));
        // The reason at the question's place in the file, as a compiler would put it.
        let at = format!("{}:{}", c.file, q.line);
        if let (true, Some(why)) = (q.is_known_failure(), &q.known_failure) {
            o.push_str(&format!(
                "       known failure: {}\n       {}: {}\n",
                line(why),
                line(&at),
                line(&q.reason)
            ));
        } else if !q.passed {
            o.push_str(&format!("       {}: {}\n", line(&at), line(&q.reason)));
        }
    }
    if !c.workspace_errors.is_empty() {
        o.push_str("The workspace has errors; the gate fails until `ontoly validate` is clean:\n");
        for d in c.workspace_errors.iter().take(WORKSPACE_ERRORS_SHOWN) {
            o.push_str(&format!(
                "  {}: error {}: {}\n",
                d.location, d.code, d.message
            ));
        }
        if c.workspace_errors.len() > WORKSPACE_ERRORS_SHOWN {
            o.push_str(&format!(
                "  … and {} more\n",
                c.workspace_errors.len() - WORKSPACE_ERRORS_SHOWN
            ));
        }
    }
    o.push_str(&c.tally());
    o.push('\n');
    let m = &r.metrics;
    let rate = |n: usize, d: usize| {
        if d == 0 {
            format!("{n}/{d}")
        } else {
            format!("{n}/{d} = {:.2}", n as f64 / d as f64)
        }
    };
    o.push_str(&format!(
        "answerable {}: top-1 {}, top-3 {}, false alarms {}; unanswerable {}: flagged {}\n",
        m.answerable,
        rate(m.top1, m.with_expected),
        rate(m.top3, m.with_expected),
        rate(m.false_alarms, m.answerable),
        m.unanswerable,
        rate(m.flagged, m.unanswerable),
    ));
    o
}
