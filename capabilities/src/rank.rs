//! Ranking: BM25 hits from the [`Index`], then propagation along the graph.
//!
//! A section ranks higher when the files and symbols it cites, or the article that holds it,
//! match the query; a file or symbol reached from a strong section is evidence too. Work is
//! bounded by counts ([`PROPAGATE_TOP`]), never by time, so answers do not change under load.

use crate::index::{citing_sections, query_terms, Index};
use crate::walk;
use ontoly_graph::graph::Graph;
use ontoly_graph::model::NodeKind;
use std::collections::{BTreeMap, HashMap};

/// Share of the best cited file/symbol score a section inherits.
pub const CITED_WEIGHT: f64 = 0.5;
/// Share of its article's score a section inherits.
pub const ARTICLE_WEIGHT: f64 = 0.3;
/// Share of the best citing section's score a file or symbol inherits.
pub const REACHED_WEIGHT: f64 = 0.5;
/// How many hits of each kind take part in propagation.
pub const PROPAGATE_TOP: usize = 400;

/// A ranked node.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// Node id.
    pub id: String,
    /// Node kind.
    pub kind: NodeKind,
    /// Final score after propagation.
    pub score: f64,
    /// The node's own BM25 score.
    pub own: f64,
    /// Query terms matched by the node's own text (bit per term).
    pub own_mask: u64,
    /// Query terms matched by the node, its article and what it cites.
    pub mask: u64,
    /// Why it ranks (`text`, `cites`, `article`, `reached`), for explanations.
    pub via: Vec<&'static str>,
}

/// The ranking of one query.
#[derive(Debug, Clone)]
pub struct Ranking {
    /// Distinct query terms.
    pub terms: Vec<String>,
    /// Their idf, same order.
    pub idf: Vec<f64>,
    /// Every scored node, best first (ties by id).
    pub nodes: Vec<Scored>,
}

impl Ranking {
    /// Sections only, best first.
    pub fn sections(&self) -> impl Iterator<Item = &Scored> {
        self.nodes.iter().filter(|s| s.kind == NodeKind::Section)
    }

    /// Sum of the idf of the terms in `mask`.
    pub fn weight(&self, mask: u64) -> f64 {
        self.idf
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, w)| w)
            .sum()
    }

    /// Sum of the idf of every query term.
    pub fn total_weight(&self) -> f64 {
        self.idf.iter().sum()
    }
}

fn by_score(a: &Scored, b: &Scored) -> std::cmp::Ordering {
    b.score.total_cmp(&a.score).then_with(|| a.id.cmp(&b.id))
}

/// Ranks the nodes of `graph` for `query`.
pub fn rank(graph: &Graph, index: &Index, query: &str) -> Ranking {
    // A compound query token (`end-to-end`, `snake_case`) the corpus never saw is not a
    // missing concept: its words are query terms too. Keep it only when it can match.
    let mut terms = query_terms(query);
    terms.retain(|t| t.chars().all(char::is_alphanumeric) || index.df(t) > 0);
    let idf: Vec<f64> = terms.iter().map(|t| index.idf(t)).collect();
    let hits = index.search(&terms);
    let own: HashMap<&str, (f64, u64)> = hits
        .iter()
        .map(|h| (index.docs[h.doc as usize].id.as_str(), (h.score, h.mask)))
        .collect();

    // Top hits per kind, best first, ties by id: the only ones that propagate.
    let mut by_kind: BTreeMap<NodeKind, Vec<(&str, f64)>> = BTreeMap::new();
    for h in &hits {
        let d = &index.docs[h.doc as usize];
        by_kind
            .entry(d.kind)
            .or_default()
            .push((d.id.as_str(), h.score));
    }
    let order = |a: &(&str, f64), b: &(&str, f64)| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0));
    for v in by_kind.values_mut() {
        // Partial selection first: a common word can hit most of a 100k-section corpus.
        if v.len() > PROPAGATE_TOP {
            v.select_nth_unstable_by(PROPAGATE_TOP, order);
            v.truncate(PROPAGATE_TOP);
        }
        v.sort_by(order);
    }

    let mut candidates: Vec<String> = Vec::new();
    for (kind, v) in &by_kind {
        for (id, _) in v {
            match kind {
                NodeKind::Section => candidates.push(id.to_string()),
                NodeKind::File | NodeKind::Symbol | NodeKind::Article => {
                    candidates.extend(citing_sections(graph, id, *kind))
                }
                _ => {}
            }
        }
    }
    candidates.sort();
    candidates.dedup();

    let mut scored: BTreeMap<String, Scored> = BTreeMap::new();
    // Sections: own + best cited file/symbol + article.
    for sid in &candidates {
        let (o, om) = own.get(sid.as_str()).copied().unwrap_or((0.0, 0));
        let mut via = Vec::new();
        if o > 0.0 {
            via.push("text");
        }
        let mut mask = om;
        let mut cited_best = 0.0f64;
        for c in walk::citations(graph, sid) {
            let mut ids: Vec<&str> = c.symbols.iter().map(|(_, n)| n.id.as_str()).collect();
            if let Some(f) = c.file {
                ids.push(&f.id);
            }
            for id in ids {
                if let Some(&(s, m)) = own.get(id) {
                    cited_best = cited_best.max(s);
                    mask |= m;
                }
            }
        }
        if cited_best > 0.0 {
            via.push("cites");
        }
        let mut art = 0.0;
        if let Some((_, a)) = walk::article_of(graph, sid) {
            if let Some(&(s, m)) = own.get(a.id.as_str()) {
                art = s;
                mask |= m;
                via.push("article");
            }
        }
        let score = o + CITED_WEIGHT * cited_best + ARTICLE_WEIGHT * art;
        if score > 0.0 {
            scored.insert(
                sid.clone(),
                Scored {
                    id: sid.clone(),
                    kind: NodeKind::Section,
                    score,
                    own: o,
                    own_mask: om,
                    mask,
                    via,
                },
            );
        }
    }

    // Files, symbols and articles: own score, plus what strong sections pass down.
    let mut sections: Vec<&Scored> = scored.values().collect();
    sections.sort_by(|a, b| by_score(a, b));
    let mut reached: BTreeMap<String, (f64, NodeKind)> = BTreeMap::new();
    for s in sections.iter().take(PROPAGATE_TOP) {
        for c in walk::citations(graph, &s.id) {
            let mut targets: Vec<(&str, NodeKind)> = c
                .symbols
                .iter()
                .map(|(_, n)| (n.id.as_str(), n.kind))
                .collect();
            if let Some(f) = c.file {
                targets.push((&f.id, f.kind));
            }
            for (id, kind) in targets {
                let e = reached.entry(id.to_string()).or_insert((0.0, kind));
                e.0 = e.0.max(s.score);
            }
        }
        if let Some((_, a)) = walk::article_of(graph, &s.id) {
            let e = reached.entry(a.id.clone()).or_insert((0.0, a.kind));
            e.0 = e.0.max(s.score);
        }
    }
    let mut others: BTreeMap<String, Scored> = BTreeMap::new();
    for (kind, v) in &by_kind {
        if *kind == NodeKind::Section {
            continue;
        }
        for (id, _) in v {
            let (o, m) = own[id];
            others.insert(
                id.to_string(),
                Scored {
                    id: id.to_string(),
                    kind: *kind,
                    score: o,
                    own: o,
                    own_mask: m,
                    mask: m,
                    via: vec!["text"],
                },
            );
        }
    }
    for (id, (best, kind)) in reached {
        let e = others.entry(id.clone()).or_insert_with(|| Scored {
            id,
            kind,
            score: 0.0,
            own: 0.0,
            own_mask: 0,
            mask: 0,
            via: Vec::new(),
        });
        let w = if kind == NodeKind::Article {
            ARTICLE_WEIGHT
        } else {
            REACHED_WEIGHT
        };
        e.score += w * best;
        e.via.push("reached");
    }
    let mut nodes: Vec<Scored> = scored.into_values().chain(others.into_values()).collect();
    nodes.sort_by(by_score);
    Ranking { terms, idf, nodes }
}
