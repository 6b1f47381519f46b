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
    if let Some(note) = g.members_note() {
        let _ = writeln!(o, "  %% {}", ontoly_graph::formats::text::one_line(&note));
    }
    for (i, n) in g.nodes.iter().enumerate() {
        let l = label(&format!("{}: {}", n.kind.as_str(), title(n)));
        let _ = writeln!(o, "  n{i}[\"{l}\"]");
    }
    // A node of its own, dashed: a comment would not show in the picture, and a cut picture
    // must not look whole.
    if let Some(note) = g.truncation_note() {
        let _ = writeln!(
            o,
            "  more[/\"{}\"/]\n  style more stroke-dasharray: 4 4",
            label(&note)
        );
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
    for (i, n) in g.nodes.iter().enumerate() {
        if g.is_centre(&n.id) {
            let _ = writeln!(o, "  style n{i} stroke-width:3px");
        }
    }
    Some(o)
}

/// A node's text inside `["…"]`: Mermaid reads labels as HTML, so a quote would end the
/// label and `<W>` in `SearchWorker<W>::search` would be taken for a tag; its entity codes
/// show them as written. (`#` starts a code only before a name and `;`, which ids and
/// titles do not hold, so `#L70-L116` stays as it reads.)
fn label(text: &str) -> String {
    // On one line, its control characters escaped: a line break ends the label's line.
    ontoly_graph::formats::text::one_line(text)
        .replace('"', "#quot;")
        .replace('<', "#lt;")
        .replace('>', "#gt;")
}

#[cfg(test)]
mod tests {
    use crate::report::{Neighbourhood, Report};
    use ontoly_capabilities::walk::neighbourhood;

    #[test]
    fn labels_show_generics_quotes_and_hashes_as_written() {
        assert_eq!(
            super::label("symbol: SearchWorker<W>::search \"x\" #L1"),
            "symbol: SearchWorker#lt;W#gt;::search #quot;x#quot; #L1"
        );
    }

    #[test]
    fn both_pictures_show_the_neighbourhood_and_mark_the_focus() {
        let session = crate::render::tests::demo();
        let g = session.graph().expect("builds");
        let focus = "section:guides/checkout.md#payment-retry";
        let (nodes, edges, truncated) = neighbourhood(g, focus, 1).expect("focus exists");
        let report = Report::Graph(Neighbourhood {
            focus: focus.into(),
            members: Vec::new(),
            nodes: nodes.into_iter().cloned().collect(),
            edges: edges.into_iter().cloned().collect(),
            truncated,
        });
        let m = super::render(&report).expect("mermaid");
        assert!(m.starts_with("flowchart LR\n"));
        assert!(
            m.contains("-->|CONTAINS|") && m.contains("stroke-width:3px"),
            "{m}"
        );
        let d = crate::render::dot::render(&report).expect("dot");
        assert!(
            d.starts_with("digraph ontoly {") && d.contains("style=bold"),
            "{d}"
        );
        assert!(d.contains(&format!("\"{focus}\"")));
    }
}
