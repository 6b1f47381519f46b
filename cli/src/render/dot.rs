//! Graphviz DOT: a node's neighbourhood as a digraph, the focus bold.

use crate::report::Report;
use ontoly_capabilities::walk::title;
use std::fmt::Write as _;

/// `--format dot`.
pub fn render(report: &Report) -> Option<String> {
    let Report::Graph(g) = report else {
        return None;
    };
    // Quoted and on one line: control characters escaped (`\n`), then every backslash
    // doubled, as DOT reads them.
    let q = |s: &str| {
        let s = ontoly_graph::formats::text::one_line(s);
        format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
    };
    let mut o = String::from("digraph ontoly {\n  rankdir=LR;\n  node [shape=box];\n");
    if let Some(note) = g.members_note() {
        let _ = writeln!(o, "  // {}", ontoly_graph::formats::text::one_line(&note));
    }
    // Visible in the picture, not only in its source: a cut picture must not look whole.
    if let Some(note) = g.truncation_note() {
        let _ = writeln!(o, "  label={};\n  labelloc=b;", q(&note));
    }
    for n in &g.nodes {
        let style = if g.is_centre(&n.id) {
            ", style=bold"
        } else {
            ""
        };
        let label = format!("{}: {}", n.kind.as_str(), title(n));
        let _ = writeln!(o, "  {} [label={}{style}];", q(&n.id), q(&label));
    }
    for e in &g.edges {
        let _ = writeln!(
            o,
            "  {} -> {} [label={}];",
            q(&e.from),
            q(&e.to),
            q(e.kind.as_str())
        );
    }
    o.push_str("}\n");
    Some(o)
}
