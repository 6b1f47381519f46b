//! Ranking: BM25F over the fields of each section (its own text, its article, what it cites),
//! then propagation to the files, symbols and articles around the best sections.
//!
//! Query words the corpus never saw are matched to a known term one edit away (a typo), at a
//! reduced weight; a compound (`end-to-end`, `HTTP/2`) the corpus never saw is not searched
//! (its words are), but it stays a query term, so confidence counts it as unmatched. Work is
//! bounded by counts ([`PROPAGATE_TOP`]), never by time, so answers do not change under load.

use super::index::{query_terms, Dense, Index, Params, QueryTerm};
use ontoly_graph::graph::model::NodeKind;
use ontoly_graph::graph::Graph;
use std::collections::BTreeMap;

/// Share of the best linked section's score a file, symbol or article inherits.
pub const REACHED_WEIGHT: f64 = 0.5;
/// How many top sections pass their score down to what they cite.
pub const PROPAGATE_TOP: usize = 400;
/// Nodes kept in a ranking (a pack carries at most 20).
pub const MAX_RANKED: usize = 200;
/// Weight of a spelling correction relative to the word as typed.
pub const FUZZY_WEIGHT: f64 = 0.7;

/// A ranked node.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// Node id.
    pub id: String,
    /// Node kind.
    pub kind: NodeKind,
    /// Final score after propagation.
    pub score: f64,
    /// The node's own BM25F score (all its fields).
    pub own: f64,
    /// Query terms matched by the node's own text (heading, id, body), bit per term.
    pub own_mask: u64,
    /// Query terms matched by the node, its article and what it cites.
    pub mask: u64,
    /// Why it ranks (`text`, `cites`, `article`, `reached`), for explanations.
    pub via: Vec<&'static str>,
}

/// One query term as ranking used it.
#[derive(Debug, Clone, PartialEq)]
pub struct Term {
    /// The term and the user's word.
    pub query: QueryTerm,
    /// Sections holding it (0: the corpus never uses it).
    pub df: usize,
    /// The known term searched in its place (a spelling correction), if any.
    pub corrected: Option<String>,
    /// Whether it was searched at all (an unknown compound is not).
    pub searched: bool,
}

/// The ranking of one query.
#[derive(Debug, Clone)]
pub struct Ranking {
    /// Distinct query terms, in query order.
    pub terms: Vec<Term>,
    /// Their idf among sections, same order.
    pub idf: Vec<f64>,
    /// The best scored nodes, best first (ties by id), at most [`MAX_RANKED`].
    pub nodes: Vec<Scored>,
    /// How many nodes scored above zero in all.
    pub matched: usize,
    /// Sections indexed (for normalising scores per workspace).
    pub sections: usize,
    /// The scoring parameters used.
    pub params: Params,
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

    /// The user's words of the terms not in `mask`.
    pub fn words_missing(&self, mask: u64) -> Vec<&str> {
        self.terms
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) == 0)
            .map(|(_, t)| t.query.word.as_str())
            .collect()
    }
}

const VIA: [&str; 4] = ["text", "cites", "article", "reached"];
const VIA_TEXT: u8 = 1;
const VIA_CITES: u8 = 2;
const VIA_ARTICLE: u8 = 4;

/// Whether `a` and `b` are at most one edit apart (insert, delete, substitute, or swap two
/// neighbours), counting characters.
fn one_edit(a: &str, b: &str) -> bool {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let (s, l) = if a.len() <= b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    if l.len() - s.len() > 1 {
        return false;
    }
    let p = s.iter().zip(l.iter()).take_while(|(x, y)| x == y).count();
    if s.len() == l.len() {
        if p == s.len() {
            return true;
        }
        // substitution, or a swap of p and p+1
        s[p + 1..] == l[p + 1..]
            || (p + 1 < s.len() && s[p] == l[p + 1] && s[p + 1] == l[p] && s[p + 2..] == l[p + 2..])
    } else {
        s[p..] == l[p + 1..]
    }
}

/// The known term one edit from `term` that most sections use (ties: the first in order).
fn correction(index: &Index, term: &str) -> Option<String> {
    let first: String = term.chars().take(1).collect();
    let n = term.chars().count();
    if n < 4 || !term.chars().all(char::is_alphabetic) {
        return None;
    }
    let mut best: Option<(&str, usize)> = None;
    for t in index.terms_with_prefix(&first) {
        let m = t.chars().count();
        if m + 1 < n || m > n + 1 || t.contains(' ') || !one_edit(t, term) {
            continue;
        }
        let df = index.df_sections(t);
        if df > 0 && best.is_none_or(|(_, b)| df > b) {
            best = Some((t, df));
        }
    }
    best.map(|(t, _)| t.to_string())
}

/// A workspace with at least this many distinct long flags documents a command line.
pub const FLAG_WORKSPACE: usize = 10;

/// Whether an unknown compound says nothing its words do not: true unless it is a short flag
/// (`-k`: no words), a long flag in a workspace that documents flags, or a short compound with a lone digit that no term carries (`HTTP/2`,
/// `2.7`, `3.12`: versions are what the question is about).
fn spelled_by_its_words(q: &QueryTerm, documents_flags: bool) -> bool {
    if q.term.starts_with('-') && (documents_flags || !q.term.starts_with("--")) {
        return false;
    }
    let pieces: Vec<&str> = q
        .word
        .split(|c: char| !c.is_alphanumeric())
        .filter(|p| !p.is_empty())
        .collect();
    let lone_digit = pieces
        .iter()
        .any(|p| p.len() == 1 && p.chars().all(|c| c.is_ascii_digit()));
    !(pieces.len() <= 2 && lone_digit)
}

/// The terms of `query` as ranking uses them, and what to search for each.
pub fn analyze(index: &Index, query: &str) -> (Vec<Term>, Vec<(String, f64)>) {
    let mut terms = Vec::new();
    let mut search = Vec::new();
    // In a workspace that documents command-line flags, a flag it never mentions is a topic it
    // does not cover (`--hyperlink`), not a paraphrase.
    let documents_flags =
        index.terms_with_prefix("--").take(FLAG_WORKSPACE).count() == FLAG_WORKSPACE;
    for q in query_terms(query) {
        let df = index.df_sections(&q.term);
        let known = index.df(&q.term) > 0;
        if !known && q.compound && spelled_by_its_words(&q, documents_flags) {
            // `trust_env=False`, `requests.post`, `--proxy`: its words are terms of their own.
            continue;
        }
        let (searched, corrected, s) = if known {
            (true, None, (q.term.clone(), 1.0))
        } else if q.compound {
            (false, None, (String::new(), 0.0))
        } else if let Some(c) = correction(index, &q.term) {
            (true, Some(c.clone()), (c, FUZZY_WEIGHT))
        } else {
            (true, None, (q.term.clone(), 1.0))
        };
        search.push(s);
        terms.push(Term {
            query: q,
            df,
            corrected,
            searched,
        });
    }
    (terms, search)
}

/// The pairs of neighbouring words of a query, as the index holds them.
fn query_pairs(query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut prev: Option<String> = None;
    super::tokens::for_each_token(query, |t, _, whole| {
        if !whole {
            if let Some(p) = prev.replace(t.clone()) {
                let b = super::index::bigram(&p, &t);
                if !out.contains(&b) {
                    out.push(b);
                }
            }
        }
    });
    out
}

/// Ranks the nodes of `graph` for `query` with the shipped parameters.
pub fn rank(_graph: &Graph, index: &Index, query: &str) -> Ranking {
    rank_with(index, query, &Params::default())
}

/// Ranks with explicit parameters (for fitting them on a question set).
pub fn rank_with(index: &Index, query: &str, p: &Params) -> Ranking {
    let (terms, search) = analyze(index, query);
    let idf: Vec<f64> = terms
        .iter()
        .map(|t| match &t.corrected {
            Some(c) => FUZZY_WEIGHT * index.idf(c),
            None => index.idf(&t.query.term),
        })
        .collect();
    let pairs = query_pairs(query);
    let dense = index.search(&search, &pairs, p);
    let mut all: Vec<Scored> = Vec::new();
    let mut section_score: Vec<(u32, f64)> = Vec::new();
    for &d in &dense.touched {
        let doc = &index.docs[d as usize];
        if doc.kind != NodeKind::Section {
            continue;
        }
        let s = dense.score[d as usize];
        if s <= 0.0 {
            continue;
        }
        section_score.push((d, s));
    }
    let others = score_others(index, &dense, &section_score);
    for &(d, s) in &section_score {
        all.push(scored(index, &dense, d, s, 0));
    }
    all.extend(others);
    let matched = all.len();
    let cmp = |a: &Scored, b: &Scored| b.score.total_cmp(&a.score).then_with(|| a.id.cmp(&b.id));
    if all.len() > MAX_RANKED {
        all.select_nth_unstable_by(MAX_RANKED, cmp);
        all.truncate(MAX_RANKED);
    }
    all.sort_by(cmp);
    Ranking {
        terms,
        idf,
        nodes: all,
        matched,
        sections: index.sections(),
        params: *p,
    }
}

fn scored(index: &Index, dense: &Dense, d: u32, score: f64, extra_via: u8) -> Scored {
    let du = d as usize;
    let mut via = extra_via;
    if dense.own[du] != 0 {
        via |= VIA_TEXT;
    }
    if dense.code[du] != 0 {
        via |= VIA_CITES;
    }
    if dense.art[du] != 0 {
        via |= VIA_ARTICLE;
    }
    Scored {
        id: index.docs[du].id.clone(),
        kind: index.docs[du].kind,
        score,
        own: dense.score[du],
        own_mask: dense.own[du],
        mask: dense.mask(d),
        via: (0..4)
            .filter(|i| via & (1 << i) != 0)
            .map(|i| VIA[i])
            .collect(),
    }
}

/// Files, symbols and articles: their own score, plus what the strongest sections pass down.
fn score_others(index: &Index, dense: &Dense, sections: &[(u32, f64)]) -> Vec<Scored> {
    let best_first =
        |a: &(u32, f64), b: &(u32, f64)| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0));
    let mut top: Vec<(u32, f64)> = sections.to_vec();
    if top.len() > PROPAGATE_TOP {
        top.select_nth_unstable_by(PROPAGATE_TOP, best_first);
        top.truncate(PROPAGATE_TOP);
    }
    let mut reached: BTreeMap<u32, f64> = BTreeMap::new();
    for (d, s) in &top {
        for &t in index.links(*d) {
            let e = reached.entry(t).or_insert(0.0);
            *e = e.max(*s);
        }
    }
    let mut out: BTreeMap<u32, Scored> = BTreeMap::new();
    let mut own: Vec<(u32, f64)> = dense
        .touched
        .iter()
        .filter(|&&d| index.docs[d as usize].kind != NodeKind::Section)
        .map(|&d| (d, dense.score[d as usize]))
        .collect();
    if own.len() > PROPAGATE_TOP {
        own.select_nth_unstable_by(PROPAGATE_TOP, best_first);
        own.truncate(PROPAGATE_TOP);
    }
    for (d, s) in own {
        out.insert(d, scored(index, dense, d, s, 0));
    }
    for (d, best) in reached {
        let e = out
            .entry(d)
            .or_insert_with(|| scored(index, dense, d, 0.0, 0));
        e.score += REACHED_WEIGHT * best;
        if !e.via.contains(&"reached") {
            e.via.push(VIA[3]);
        }
    }
    out.into_values().filter(|s| s.score > 0.0).collect()
}

#[cfg(test)]
mod tests {
    use super::one_edit;

    #[test]
    fn one_edit_apart() {
        assert!(one_edit("domian", "domain"));
        assert!(one_edit("certifcate", "certificate"));
        assert!(one_edit("droped", "dropped"));
        assert!(one_edit("cache", "cachx"));
        assert!(one_edit("same", "same"));
        assert!(!one_edit("retry", "timeout"));
        assert!(!one_edit("abcd", "badc"));
    }
}
