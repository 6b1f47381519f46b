//! The query bench's questions, shared with `examples/search_cost.rs`.

use ontoly_graph::graph::model::NodeKind;
use ontoly_graph::graph::Graph;

/// Queries at most.
const QUERIES: usize = 400;

/// Deterministic queries: questions built from the headings and body words of evenly spaced
/// sections (answerable), and from words the generator never uses (unanswerable), 4:1.
pub fn queries(g: &Graph) -> Vec<String> {
    let sections: Vec<_> = g.nodes_of(NodeKind::Section).collect();
    let step = (sections.len() / (QUERIES * 4 / 5)).max(1);
    let mut out = Vec::new();
    for (i, s) in sections.iter().step_by(step).enumerate() {
        let body = g.text(&s.id).unwrap_or("");
        let words: Vec<&str> = body
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .filter(|w| w.len() > 4)
            .skip(i % 3)
            .take(2)
            .collect();
        out.push(format!("How does {} handle {}?", s.name, words.join(" ")));
        if i % 4 == 3 {
            out.push(format!("How do I configure zeppelin quasar {i} tokens?"));
        }
        if out.len() >= QUERIES {
            break;
        }
    }
    out
}
