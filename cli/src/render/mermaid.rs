//! Mermaid: a node's neighbourhood as a flowchart, the focus highlighted.

use crate::report::Report;
use ontoly_capabilities::walk::title;
use std::fmt::Write as _;

/// `--format mermaid`.
pub fn render(report: &Report) -> Option<String> {
    let Report::Graph(g) = report else {
        return None;
    };
    let key = |id: &str| g.nodes.iter().position(|n| n.id == id).unwrap_or(0);
    let mut o = String::from("flowchart LR\n");
    for (i, n) in g.nodes.iter().enumerate() {
        let l = format!("{}: {}", n.kind.as_str(), title(n)).replace('"', "#quot;");
        let _ = writeln!(o, "  n{i}[\"{l}\"]");
    }
    for e in &g.edges {
        let _ = writeln!(
            o,
            "  n{} -->|{}| n{}",
            key(&e.from),
            e.kind.as_str(),
            key(&e.to)
        );
    }
    let _ = writeln!(o, "  style n{} stroke-width:3px", key(&g.focus));
    Some(o)
}
