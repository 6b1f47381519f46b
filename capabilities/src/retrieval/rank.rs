//! Ranking: BM25 hits from the [`Index`], then propagation along the graph.
//!
//! A section ranks higher when the files and symbols it cites, or the article that holds it,
//! match the query; a file or symbol reached from a strong section is evidence too. Work is
//! bounded by counts ([`PROPAGATE_TOP`]), never by time, so answers do not change under load.

use super::index::{query_terms, Dense, Index};
use ontoly_graph::graph::model::NodeKind;
use ontoly_graph::graph::Graph;
use std::collections::{BTreeMap, HashMap};

/// Share of the best cited file/symbol score a section inherits.
pub const CITED_WEIGHT: f64 = 0.5;
/// Share of its article's score a section inherits.
pub const ARTICLE_WEIGHT: f64 = 0.3;
/// Share of the best citing section's score a file or symbol inherits.
pub const REACHED_WEIGHT: f64 = 0.5;
/// How many section hits are ranked with propagation, and how many top sections pass their
/// score down to what they cite.
pub const PROPAGATE_TOP: usize = 400;
/// How many file, symbol and article hits pass their score up to the sections citing them.
pub const PROPAGATE_SOURCES: usize = 50;
/// Nodes kept in a ranking (a pack carries at most 20).
pub const MAX_RANKED: usize = 200;
/// Sections reached only through a cited file, symbol or article, at most.
pub const MAX_REACHED_SECTIONS: usize = 2000;

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
    /// The best scored nodes, best first (ties by id), at most [`MAX_RANKED`].
    pub nodes: Vec<Scored>,
    /// How many nodes scored above zero in all.
    pub matched: usize,
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

/// A scored document before it becomes a [`Scored`] (no allocation per candidate).
struct Cand {
    doc: u32,
    kind: NodeKind,
    score: f64,
    own: f64,
    own_mask: u64,
    mask: u64,
    via: u8,
}

const VIA: [&str; 4] = ["text", "cites", "article", "reached"];
const VIA_TEXT: u8 = 1;
const VIA_CITES: u8 = 2;
const VIA_ARTICLE: u8 = 4;
const VIA_REACHED: u8 = 8;

/// Ranks the nodes of `graph` for `query`. Propagation follows the index's precomputed links,
/// so a query costs its postings plus a bounded number of link lists.
pub fn rank(_graph: &Graph, index: &Index, query: &str) -> Ranking {
    // A compound query token (`end-to-end`, `snake_case`) the corpus never saw is not a
    // missing concept: its words are query terms too. Keep it only when it can match.
    let mut terms = query_terms(query);
    terms.retain(|t| t.chars().all(char::is_alphanumeric) || index.df(t) > 0);
    let idf: Vec<f64> = terms.iter().map(|t| index.idf(t)).collect();
    let hits = Hits {
        index,
        dense: index.search_dense(&terms),
    };
    let by_kind = hits.top_by_kind();
    let candidates = hits.candidate_sections(&by_kind);
    let (scored, section_score) = hits.score_sections(&candidates);
    let others = hits.score_others(&by_kind, &section_score);
    // Docs are in id order, so the doc index is the id tie-break.
    let mut all: Vec<Cand> = scored.into_iter().chain(others.into_values()).collect();
    let matched = all.len();
    let cmp = |a: &Cand, b: &Cand| b.score.total_cmp(&a.score).then_with(|| a.doc.cmp(&b.doc));
    if all.len() > MAX_RANKED {
        all.select_nth_unstable_by(MAX_RANKED, cmp);
        all.truncate(MAX_RANKED);
    }
    all.sort_by(cmp);
    let nodes = all
        .into_iter()
        .map(|c| Scored {
            id: index.docs[c.doc as usize].id.clone(),
            kind: c.kind,
            score: c.score,
            own: c.own,
            own_mask: c.own_mask,
            mask: c.mask,
            via: (0..4)
                .filter(|i| c.via & (1 << i) != 0)
                .map(|i| VIA[i])
                .collect(),
        })
        .collect();
    Ranking {
        terms,
        idf,
        nodes,
        matched,
    }
}

/// Top hits per kind, best first, ties by id: the only ones that propagate.
type ByKind = BTreeMap<NodeKind, Vec<(u32, f64)>>;

/// Best first, ties by doc (= id) order.
fn best_first(a: &(u32, f64), b: &(u32, f64)) -> std::cmp::Ordering {
    b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0))
}

/// The BM25 hits of one query over the index.
struct Hits<'a> {
    index: &'a Index,
    dense: Dense,
}

impl Hits<'_> {
    /// A doc's own BM25 score and matched-term mask, when it matched.
    fn own(&self, d: u32) -> Option<(f64, u64)> {
        let m = self.dense.mask[d as usize];
        (m != 0).then(|| (self.dense.score[d as usize], m))
    }

    fn kind(&self, d: u32) -> NodeKind {
        self.index.docs[d as usize].kind
    }

    /// The best [`PROPAGATE_TOP`] hits of each kind.
    fn top_by_kind(&self) -> ByKind {
        // Bucket by kind through a fixed array (no map lookup per hit), then into the map.
        let mut buckets: Vec<Vec<(u32, f64)>> = vec![Vec::new(); NodeKind::ALL.len()];
        for &d in &self.dense.touched {
            buckets[self.kind(d) as usize].push((d, self.dense.score[d as usize]));
        }
        let mut by_kind: ByKind = NodeKind::ALL
            .iter()
            .zip(buckets)
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| (*k, v))
            .collect();
        for v in by_kind.values_mut() {
            // Partial selection first: a common word can hit most of a 100k-section corpus.
            if v.len() > PROPAGATE_TOP {
                v.select_nth_unstable_by(PROPAGATE_TOP, best_first);
                v.truncate(PROPAGATE_TOP);
            }
            v.sort_by(best_first);
        }
        by_kind
    }

    /// Sections hit themselves, and those reached from the best files, symbols and articles
    /// (best sources first, bounded).
    fn candidate_sections(&self, by_kind: &ByKind) -> Vec<u32> {
        let mut candidates: Vec<u32> = Vec::new();
        if let Some(v) = by_kind.get(&NodeKind::Section) {
            candidates.extend(v.iter().map(|(d, _)| *d));
        }
        let mut sources: Vec<(u32, f64)> = by_kind
            .iter()
            .filter(|(k, _)| matches!(k, NodeKind::File | NodeKind::Symbol | NodeKind::Article))
            .flat_map(|(_, v)| v.iter().take(PROPAGATE_SOURCES).copied())
            .collect();
        sources.sort_by(best_first);
        let mut reached_sections = 0usize;
        for (d, _) in sources {
            if reached_sections >= MAX_REACHED_SECTIONS {
                break;
            }
            let citing = self.index.links(d);
            reached_sections += citing.len();
            candidates.extend_from_slice(citing);
        }
        candidates.sort_unstable();
        candidates.dedup();
        candidates
    }

    /// Sections: own score + best cited file/symbol + article.
    fn score_sections(&self, candidates: &[u32]) -> (Vec<Cand>, HashMap<u32, f64>) {
        let mut scored: Vec<Cand> = Vec::new();
        let mut section_score: HashMap<u32, f64> = HashMap::new();
        for &d in candidates {
            let (o, om) = self.own(d).unwrap_or((0.0, 0));
            let mut mask = om;
            let (mut cited_best, mut art) = (0.0f64, 0.0f64);
            for &t in self.index.links(d) {
                if let Some((s, m)) = self.own(t) {
                    mask |= m;
                    if self.kind(t) == NodeKind::Article {
                        art = art.max(s);
                    } else {
                        cited_best = cited_best.max(s);
                    }
                }
            }
            let mut via = 0u8;
            if o > 0.0 {
                via |= VIA_TEXT;
            }
            if cited_best > 0.0 {
                via |= VIA_CITES;
            }
            if art > 0.0 {
                via |= VIA_ARTICLE;
            }
            let score = o + CITED_WEIGHT * cited_best + ARTICLE_WEIGHT * art;
            if score > 0.0 {
                section_score.insert(d, score);
                scored.push(Cand {
                    doc: d,
                    kind: NodeKind::Section,
                    score,
                    own: o,
                    own_mask: om,
                    mask,
                    via,
                });
            }
        }
        (scored, section_score)
    }

    /// Files, symbols and articles: own score, plus what the strongest sections pass down.
    fn score_others(
        &self,
        by_kind: &ByKind,
        section_score: &HashMap<u32, f64>,
    ) -> BTreeMap<u32, Cand> {
        let mut top_sections: Vec<(u32, f64)> =
            section_score.iter().map(|(d, s)| (*d, *s)).collect();
        if top_sections.len() > PROPAGATE_TOP {
            top_sections.select_nth_unstable_by(PROPAGATE_TOP, best_first);
            top_sections.truncate(PROPAGATE_TOP);
        }
        let mut reached: BTreeMap<u32, f64> = BTreeMap::new();
        for (d, s) in &top_sections {
            for &t in self.index.links(*d) {
                let e = reached.entry(t).or_insert(0.0);
                *e = e.max(*s);
            }
        }
        let mut others: BTreeMap<u32, Cand> = BTreeMap::new();
        for (k, v) in by_kind {
            if *k == NodeKind::Section {
                continue;
            }
            for (d, _) in v {
                let (o, m) = self.own(*d).unwrap_or((0.0, 0));
                others.insert(
                    *d,
                    Cand {
                        doc: *d,
                        kind: *k,
                        score: o,
                        own: o,
                        own_mask: m,
                        mask: m,
                        via: VIA_TEXT,
                    },
                );
            }
        }
        for (d, best) in reached {
            let k = self.kind(d);
            let e = others.entry(d).or_insert_with(|| Cand {
                doc: d,
                kind: k,
                score: 0.0,
                own: 0.0,
                own_mask: 0,
                mask: 0,
                via: 0,
            });
            let w = if k == NodeKind::Article {
                ARTICLE_WEIGHT
            } else {
                REACHED_WEIGHT
            };
            e.score += w * best;
            e.via |= VIA_REACHED;
        }
        others
    }
}
