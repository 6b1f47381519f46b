//! A learned re-ranker: the first [`RERANK_N`] sections of the BM25F ranking reordered by a
//! linear model over features of each candidate that mean the same on every workspace (shares
//! of the query's idf weight, scores relative to the best, a length and a rank).
//!
//! The weights were fit by a pairwise logistic loss (an expected section against each other
//! candidate of the same question, L2-regularised on standardised features) on nine blind
//! question sets, chosen by leave-one-corpus-out (`examples/quality.rs --rerank`;
//! docs/evidence.md, "A learned re-ranker (stop 23)"). Off unless [`Params::rerank`] is set.
//!
//! [`Params::rerank`]: super::index::Params::rerank

use super::index::{Index, F_BODY};
use super::rank::Ranking;
use ontoly_graph::graph::model::NodeKind;

/// Sections of the BM25F ranking the model may reorder (the rest keep their places); chosen
/// with the weights by leave-one-corpus-out over 5, 10 and 30.
pub const RERANK_N: usize = 5;

/// Number of features per candidate.
pub const N_RERANK: usize = 11;

/// Names of the features, in the order of [`candidates`]' vectors and [`WEIGHTS`].
pub const NAMES: [&str; N_RERANK] = [
    "rel", "rank", "cov", "own", "head", "body", "art", "prox", "headrare", "loglen", "page",
];

/// The model's weights, in the order of [`NAMES`] (raw feature scale; only differences within
/// one query matter, so there is no bias). Fit (stop 23) by the listwise loss (−log of the
/// softmax share of the expected sections), L2 0.001 on standardised features, over the first
/// five sections of the 642 answerable questions of commander, jinja, hyperfine, click, just,
/// attrs, ws, marshmallow and tenacity pooled (`quality --rerank --fit-on …`), the
/// configuration leave-one-corpus-out chose from 30; rounded to four places. docs/evidence.md,
/// "A learned re-ranker (stop 23)", has every figure: it did not clear its rule on the held-out
/// sets, so [`Params::rerank`](super::index::Params::rerank) is off.
pub const WEIGHTS: [f64; N_RERANK] = [
    5.0080, 0.0154, -2.6918, 1.7137, 1.9091, 2.1051, 1.6906, 1.7502, -0.2660, -0.4810, 1.2037,
];

/// One candidate: its position in `Ranking::nodes` and its features.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    /// Index into [`Ranking::nodes`].
    pub pos: usize,
    /// Features, in the order of [`NAMES`]:
    ///
    /// ```text
    /// rel       score over the top section's score
    /// rank      ln(1 + its place among the sections, 0 for the first)
    /// cov       idf-weighted share of the query matched (own text, article, cited names)
    /// own       the same share, matched by its heading, id and body
    /// head      the same share, matched by its heading
    /// body      the same share, matched by its body
    /// art       the same share, matched by its article's title and description
    /// prox      share of the query's neighbouring-word pairs held together (1 without pairs)
    /// headrare  idf of the rarest query term its heading matches, over the query's highest
    /// loglen    ln(1 + body length in tokens)
    /// page      the same share as cov, matched by the other candidates of its page
    /// ```
    pub x: [f64; N_RERANK],
}

/// The features of the first `n` sections of `ranking`, best first.
pub fn candidates(index: &Index, ranking: &Ranking, n: usize) -> Vec<Candidate> {
    let picked: Vec<usize> = ranking
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind == NodeKind::Section)
        .map(|(i, _)| i)
        .take(n)
        .collect();
    let Some(&first) = picked.first() else {
        return Vec::new();
    };
    let top = ranking.nodes[first].score;
    let total = ranking.total_weight();
    let share = |mask: u64| {
        if total > 0.0 {
            ranking.weight(mask) / total
        } else {
            0.0
        }
    };
    let max_idf = ranking.idf.iter().copied().fold(0.0f64, f64::max);
    let page = |id: &str| id.split('#').next().unwrap_or("").to_string();
    let pages: Vec<String> = picked.iter().map(|&i| page(&ranking.nodes[i].id)).collect();
    picked
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let s = &ranking.nodes[i];
            let [head, body, art] = s.field_masks;
            let rarest_head = ranking
                .idf
                .iter()
                .enumerate()
                .filter(|(t, _)| head & (1 << t) != 0)
                .map(|(_, w)| *w)
                .fold(0.0f64, f64::max);
            let siblings = picked
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k && pages[j] == pages[k])
                .fold(0u64, |m, (_, &o)| m | ranking.nodes[o].mask);
            let x = [
                if top > 0.0 { s.score / top } else { 0.0 },
                (1.0 + k as f64).ln(),
                share(s.mask),
                share(s.own_mask),
                share(head),
                share(body),
                share(art),
                if ranking.pairs > 0 {
                    (f64::from(s.pair_hits) / ranking.pairs as f64).min(1.0)
                } else {
                    1.0
                },
                if max_idf > 0.0 {
                    rarest_head / max_idf
                } else {
                    0.0
                },
                (1.0 + f64::from(index.field_len(s.doc, F_BODY))).ln(),
                share(siblings),
            ];
            Candidate { pos: i, x }
        })
        .collect()
}

/// The model's score of a candidate under weights `w`.
pub fn score(w: &[f64; N_RERANK], c: &Candidate) -> f64 {
    w.iter().zip(c.x).map(|(a, b)| a * b).sum()
}

/// Reorders the candidates' sections among their own places in `ranking.nodes` by their model
/// score under `w`, best first; ties keep the BM25F order. A section that moved says so in its
/// `via` (`reranked`), so an explanation of the order stays true.
pub fn reorder(ranking: &mut Ranking, cands: &[Candidate], w: &[f64; N_RERANK]) {
    let mut order: Vec<(usize, f64)> = cands
        .iter()
        .enumerate()
        .map(|(k, c)| (k, score(w, c)))
        .collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let moved: Vec<_> = order
        .iter()
        .map(|&(k, _)| ranking.nodes[cands[k].pos].clone())
        .collect();
    for (j, ((slot, &(k, _)), mut s)) in cands.iter().zip(&order).zip(moved).enumerate() {
        if k != j && !s.via.contains(&"reranked") {
            s.via.push("reranked");
        }
        ranking.nodes[slot.pos] = s;
    }
}
