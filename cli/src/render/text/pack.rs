//! The Evidence Pack as a readable answer: the answer, confidence, the top sections with their
//! pinned citations and URLs, other entities, files to inspect, diagnostics, fallbacks, next
//! commands and provenance.

use super::Style;
use ontoly_capabilities::evidence::{Level, Severity};
use ontoly_capabilities::pack::{
    shown_query, CitationView, EvidencePack, FileToInspect, PackAnswer, TopNode,
};
use ontoly_capabilities::walk::{page_path, title};
use ontoly_graph::graph::NodeKind;
use std::fmt::Write as _;

fn level(st: Style, l: Level) -> String {
    let color = match l {
        Level::High => anstyle::AnsiColor::Green,
        Level::Medium => anstyle::AnsiColor::Yellow,
        Level::Low | Level::None => anstyle::AnsiColor::Red,
    };
    st.fg(color, l.as_str())
}

/// What the text's next steps are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Next {
    /// Shell commands (`ontoly evidence`).
    Commands,
    /// The pack's `nextToolCalls` (the MCP tool), each as the tool's name and its arguments.
    ToolCalls,
}

pub(super) fn pack(a: &PackAnswer, color: bool, next: Next) -> String {
    let st = Style(color);
    let p = &a.pack;
    let mut o = String::new();
    let c = &p.confidence;
    let _ = writeln!(o, "{} {}", st.bold("Question:"), shown_query(&p.query));
    let _ = writeln!(o, "{} {}", st.bold("Answer:"), p.answer);
    let _ = writeln!(
        o,
        "{} {} ({}): {}",
        st.bold("Confidence:"),
        level(st, c.level),
        c.score,
        c.explanation
    );
    top_sections(&mut o, st, a);
    let others: Vec<&TopNode> = p
        .top_nodes
        .iter()
        .filter(|t| t.node.kind != NodeKind::Section)
        .collect();
    if !others.is_empty() {
        let _ = writeln!(o, "\n{}", st.bold("Related entities:"));
        for t in others {
            let _ = writeln!(
                o,
                "  - {} {}  {}",
                t.node.kind.as_str(),
                t.node.id,
                st.dim(&format!("score {}", t.score))
            );
        }
    }
    files_to_inspect(&mut o, st, a);
    advice(&mut o, st, p, next);
    provenance(&mut o, st, p);
    o
}

/// The label a top section's citation has (`repo@commit12:path#Ls-Le`) for a file to inspect.
fn inspect_label(f: &FileToInspect) -> String {
    format!(
        "{}{}:{}#L{}-L{}",
        f.repository,
        at_commit(f),
        f.path,
        f.start_line,
        f.end_line
    )
}

/// `@commit12`, or nothing for a page read on disk (no commit holds its lines): a commit
/// printed there would send a reader to other lines.
fn at_commit(f: &FileToInspect) -> String {
    f.commit
        .as_deref()
        .map(|c| format!("@{}", c.get(..12).unwrap_or(c)))
        .unwrap_or_default()
}

/// Definitions as one line, those of a kind together in the order given: `class Response;
/// method Response.close, Response.iter_raw` (one line each made a pack's text a tenth longer).
fn symbols(defs: &[(String, String)]) -> String {
    let mut out = String::new();
    let mut kind: Option<&str> = None;
    for (k, name) in defs {
        if kind == Some(k.as_str()) {
            out.push_str(", ");
        } else {
            if kind.is_some() {
                out.push_str("; ");
            }
            out.push_str(k);
            out.push(' ');
            kind = Some(k);
        }
        out.push_str(name);
    }
    out
}

fn top_sections(o: &mut String, st: Style, a: &PackAnswer) {
    let sections: Vec<&TopNode> = a.pack.top_sections().collect();
    if !sections.is_empty() {
        let _ = writeln!(o, "\n{}", st.bold("Top sections:"));
    }
    for (i, t) in sections.iter().enumerate() {
        let n = &t.node;
        let at = n
            .span
            .as_ref()
            .map(|s| format!("{}:{}-{}", s.file, s.start_line, s.end_line))
            .or_else(|| page_path(n))
            .unwrap_or_default();
        let _ = writeln!(
            o,
            "{:>3}. {}  {}  {}",
            i + 1,
            st.bold(title(n)),
            st.dim(&at),
            st.dim(&format!("score {}", t.score))
        );
        let _ = writeln!(o, "     {}", st.dim(&n.id));
        for e in &t.excerpt {
            let at = match e.end_line {
                Some(last) => format!("L{}-{last}:", e.line),
                None => format!("L{}:", e.line),
            };
            let _ = writeln!(o, "     {} {}", st.dim(&at), e.text);
        }
        let cites: &[CitationView] = a
            .citations
            .iter()
            .find(|(id, _)| *id == n.id)
            .map_or(&[], |(_, c)| c.as_slice());
        if cites.is_empty() {
            let _ = writeln!(o, "     cites nothing");
        }
        for c in cites {
            let _ = writeln!(o, "     cites {} [{}]", c.label, c.status);
            // The URL stays with its citation, where a reader meets the range first; "Files
            // to inspect" then leaves it out.
            if let Some(u) = &c.url {
                let _ = writeln!(o, "           {u}");
            }
            if !c.symbols.is_empty() {
                let _ = writeln!(o, "           overlaps {}", symbols(&c.symbols));
            }
            if let Some(d) = &c.drift {
                let _ = writeln!(
                    o,
                    "           {}",
                    st.fg(anstyle::AnsiColor::Yellow, &format!("drift: {d}"))
                );
            }
        }
    }
}

fn files_to_inspect(o: &mut String, st: Style, a: &PackAnswer) {
    let p = &a.pack;
    if p.files_to_inspect.is_empty() {
        return;
    }
    // Ranges whose drift a top section already showed.
    let drift_shown: Vec<&str> = (a.citations.iter())
        .flat_map(|(_, cs)| cs.iter())
        .filter(|c| c.drift.is_some())
        .map(|c| c.label.as_str())
        .collect();
    let url_shown: Vec<&str> = (a.citations.iter())
        .flat_map(|(_, cs)| cs.iter())
        .filter(|c| c.url.is_some())
        .map(|c| c.label.as_str())
        .collect();
    let _ = writeln!(o, "\n{}", st.bold("Files to inspect:"));
    for f in &p.files_to_inspect {
        let _ = writeln!(
            o,
            "  - {}{}:{}:{}-{}  {}",
            f.repository,
            at_commit(f),
            f.path,
            f.start_line,
            f.end_line,
            st.dim(&f.reason)
        );
        match &f.url {
            Some(_) if url_shown.contains(&inspect_label(f).as_str()) => {}
            None => {}
            Some(u) => {
                let _ = writeln!(o, "    {u}");
            }
        }
        match &f.drift {
            Some(_) if drift_shown.contains(&inspect_label(f).as_str()) => {}
            None => {}
            Some(d) => {
                let _ = writeln!(
                    o,
                    "    {}",
                    st.fg(
                        anstyle::AnsiColor::Yellow,
                        &format!("drift: {}", d.describe(f.start_line, f.end_line))
                    )
                );
            }
        }
    }
}

fn advice(o: &mut String, st: Style, p: &EvidencePack, next: Next) {
    if !p.diagnostics.is_empty() {
        let _ = writeln!(o, "\n{}", st.bold("Diagnostics:"));
        for d in &p.diagnostics {
            let sev = match d.severity {
                Severity::Error => st.fg(anstyle::AnsiColor::Red, "error"),
                Severity::Warning => st.fg(anstyle::AnsiColor::Yellow, "warning"),
                Severity::Info => st.dim("info"),
            };
            let at = d
                .location
                .as_deref()
                .map(|l| format!("{l}: "))
                .unwrap_or_default();
            let _ = writeln!(o, "  [{sev}] {at}{}: {}", d.code, d.message);
        }
    }
    if !p.fallbacks.is_empty() {
        let _ = writeln!(o, "\n{}", st.bold("Fallbacks:"));
        for f in &p.fallbacks {
            let _ = writeln!(o, "  - {f}");
        }
    }
    match next {
        Next::Commands if !p.suggested_commands.is_empty() => {
            let _ = writeln!(o, "\n{}", st.bold("Next:"));
            for c in &p.suggested_commands {
                let _ = writeln!(o, "  $ {c}");
            }
        }
        Next::ToolCalls if !p.next_tool_calls.is_empty() => {
            let _ = writeln!(o, "\n{}", st.bold("Next (tool calls):"));
            for c in &p.next_tool_calls {
                let tool = c["tool"].as_str().unwrap_or_default();
                let _ = writeln!(o, "  - {tool} {}", c["arguments"]);
            }
        }
        _ => {}
    }
}

fn provenance(o: &mut String, st: Style, p: &EvidencePack) {
    let v = &p.provenance;
    let _ = writeln!(
        o,
        "\n{}",
        st.dim(&format!(
            "Provenance: {} at {}, graph {} ({}), {} nodes, {} edges{}",
            v.repository,
            v.root,
            v.graph_hash.get(..16).unwrap_or(&v.graph_hash),
            v.graph_version,
            v.node_count,
            v.edge_count,
            v.knowledge_commit
                .as_deref()
                .map(|c| format!(", knowledge commit {c}"))
                .unwrap_or_default()
        ))
    );
}

#[cfg(test)]
mod tests {
    use crate::render::tests::demo_pack;

    #[test]
    fn colour_only_when_asked_and_citations_under_their_section() {
        let a = demo_pack("How does the checkout service retry failed payments?");
        let plain = super::pack(&a, false, super::Next::Commands);
        assert!(!plain.contains('\x1b'), "{plain}");
        assert!(plain.contains("Top sections:"));
        assert!(plain.contains("cites "), "{plain}");
        assert!(plain.contains("[verified]"), "{plain}");
        let coloured = super::pack(&a, true, super::Next::Commands);
        assert!(coloured.contains("\x1b[1mQuestion:\x1b[0m"));
        assert_eq!(
            coloured
                .replace("\x1b[1m", "")
                .replace("\x1b[2m", "")
                .replace("\x1b[32m", "")
                .replace("\x1b[33m", "")
                .replace("\x1b[31m", "")
                .replace("\x1b[0m", ""),
            plain
        );
    }

    #[test]
    fn a_long_question_is_echoed_cut_with_its_length() {
        use ontoly_capabilities::pack::shown_query;
        assert_eq!(shown_query("retry"), "retry");
        let exact = "é".repeat(ontoly_capabilities::pack::QUESTION_SHOWN);
        assert_eq!(shown_query(&exact), exact);
        let long = "retry ".repeat(1000);
        let a = demo_pack(&long);
        let text = super::pack(&a, false, super::Next::Commands);
        let line = text.lines().next().expect("a first line");
        assert!(line.ends_with("… (6000 characters)"), "{line}");
        assert!(line.chars().count() < 340, "{line}");
        assert_eq!(a.pack.query, long, "the pack keeps the query whole");
        // Nothing matches: the answer and the diagnostic quote it cut too (MCP-TS walk,
        // `repro-quadratic.sh`: a 492 KB question came back five times).
        let none = demo_pack(&"zzqx ".repeat(1000));
        assert!(
            none.pack.answer.ends_with("… (5000 characters)\"."),
            "{}",
            none.pack.answer
        );
        for d in &none.pack.diagnostics {
            assert!(d.message.len() < 400, "{}", d.message);
        }
    }

    #[test]
    fn the_tool_s_text_lists_tool_calls_where_the_cli_lists_commands() {
        let a = demo_pack("How does the checkout service retry failed payments?");
        let cli = super::pack(&a, false, super::Next::Commands);
        let tool = super::pack(&a, false, super::Next::ToolCalls);
        assert!(cli.contains("\nNext:\n  $ ontoly "), "{cli}");
        assert!(!tool.contains("$ ontoly"), "{tool}");
        let calls: Vec<&str> = tool
            .split("Next (tool calls):\n")
            .nth(1)
            .expect("a tool-call list")
            .lines()
            .take_while(|l| l.starts_with("  - "))
            .collect();
        assert_eq!(calls.len(), a.pack.next_tool_calls.len(), "{tool}");
        // Each line is the tool and its arguments as JSON, to send unchanged.
        for (line, call) in calls.iter().zip(&a.pack.next_tool_calls) {
            let (name, args) = line[4..].split_once(' ').expect("tool and arguments");
            assert_eq!(name, call["tool"]);
            let parsed: serde_json::Value = serde_json::from_str(args).expect("JSON arguments");
            assert_eq!(parsed, call["arguments"]);
        }
        // Everything before the next steps is the same text.
        assert_eq!(
            cli.split("\nNext:").next(),
            tool.split("\nNext (tool calls):").next()
        );
    }

    #[test]
    fn an_unanswerable_question_lists_its_fallbacks() {
        let a = demo_pack("kubernetes helm charts zookeeper quorum");
        let text = super::pack(&a, false, super::Next::Commands);
        assert!(text.contains("Fallbacks:"), "{text}");
        assert!(text.contains("CAPABILITY_"), "{text}");
    }
}
