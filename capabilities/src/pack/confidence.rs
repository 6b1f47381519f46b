//! Confidence of an Evidence Pack, computed from the evidence, never assumed.
//!
//! ```text
//! coverage  = idf-weighted share of the query terms matched by the top section,
//!             its article and what it cites
//! strength  = idf-weighted share matched by the top section's own heading and text
//! agreement = min(1, supporting / 2), supporting = other sections among the next four
//!             scoring at least half the top score and matching at least half of the
//!             top section's matched weight
//! grounding = mean citation grounding of the top three sections, weighted 3:2:1; a citation
//!             earns 0.5 for a pinned full commit, 0.2 for a well-formed sha256 digest and
//!             0.3 for a digest verified against the source; a mismatch voids it
//! score     = 0.40·coverage + 0.25·strength + 0.15·agreement + 0.20·grounding
//! level     = high ≥ 0.70, medium ≥ 0.45, else low; none when nothing matched.
//!             Coverage gates the level: below 0.50 it is at most low, below 0.75 at most
//!             medium (an answer to less than half the question is not an answer).
//! ```
//!
//! Idf weighting makes a question about something absent (a rare word found nowhere) score
//! low even when its common words match; the thresholds are calibrated on
//! `testdata/demo/questions.yaml` (see the calibration example).

use crate::evidence::{round4, Confidence, Factor, Level};
use crate::retrieval::rank::Ranking;
use crate::walk;
use ontoly_graph::graph::Graph;

/// Weight of query coverage.
pub const W_COVERAGE: f64 = 0.40;
/// Weight of match strength.
pub const W_STRENGTH: f64 = 0.25;
/// Weight of agreement between sections.
pub const W_AGREEMENT: f64 = 0.15;
/// Weight of grounding.
pub const W_GROUNDING: f64 = 0.20;
/// Score at or above which the level is `high`.
pub const HIGH: f64 = 0.70;
/// Score at or above which the level is `medium`.
pub const MEDIUM: f64 = 0.45;
/// Coverage below which the level is at most `low`.
pub const COVERAGE_LOW_GATE: f64 = 0.50;
/// Coverage below which the level is at most `medium`.
pub const COVERAGE_MEDIUM_GATE: f64 = 0.75;

/// The confidence of a ranking's sections.
pub fn assess(graph: &Graph, ranking: &Ranking) -> Confidence {
    let sections: Vec<_> = ranking.sections().take(5).collect();
    let Some(top) = sections.first() else {
        return Confidence::none(if ranking.terms.is_empty() {
            "the query has no searchable words"
        } else {
            "no section, article, file or symbol matches the query"
        });
    };
    let total = ranking.total_weight();
    let share = |mask: u64| {
        if total > 0.0 {
            ranking.weight(mask) / total
        } else {
            0.0
        }
    };
    let coverage = share(top.mask);
    let strength = share(top.own_mask);
    let top_weight = ranking.weight(top.mask);
    let supporting = sections[1..]
        .iter()
        .filter(|s| {
            s.score >= 0.5 * top.score && ranking.weight(s.mask & top.mask) >= 0.5 * top_weight
        })
        .count();
    let agreement = (supporting as f64 / 2.0).min(1.0);
    let mut g_sum = 0.0;
    let mut w_sum = 0.0;
    for (s, w) in sections.iter().zip([3.0, 2.0, 1.0]) {
        g_sum += w * walk::section_grounding(graph, &s.id);
        w_sum += w;
    }
    let grounding = if w_sum > 0.0 { g_sum / w_sum } else { 0.0 };
    let score = round4(
        W_COVERAGE * coverage
            + W_STRENGTH * strength
            + W_AGREEMENT * agreement
            + W_GROUNDING * grounding,
    );
    let mut level = if score >= HIGH {
        Level::High
    } else if score >= MEDIUM {
        Level::Medium
    } else {
        Level::Low
    };
    if coverage < COVERAGE_LOW_GATE {
        level = level.min(Level::Low);
    } else if coverage < COVERAGE_MEDIUM_GATE {
        level = level.min(Level::Medium);
    }
    let missing: Vec<&str> = ranking
        .terms
        .iter()
        .enumerate()
        .filter(|(i, _)| top.mask & (1 << i) == 0)
        .map(|(_, t)| t.as_str())
        .collect();
    let explanation = format!(
        "{} confidence: the top section matches {:.0}% of the query's weight{}, {} other section{} agree{}, grounding {:.2}",
        level.as_str(),
        coverage * 100.0,
        if missing.is_empty() {
            String::new()
        } else {
            format!(" (unmatched: {})", missing.join(", "))
        },
        supporting,
        if supporting == 1 { "" } else { "s" },
        if supporting == 1 { "s" } else { "" },
        grounding
    );
    let factor = |kind: &str, v: f64, d: String| Factor {
        kind: kind.into(),
        confidence: round4(v),
        description: d,
    };
    Confidence {
        score,
        level,
        explanation,
        factors: vec![
            factor(
                "queryCoverage",
                coverage,
                "idf-weighted share of query terms matched by the top section, its article and what it cites".into(),
            ),
            factor(
                "matchStrength",
                strength,
                "idf-weighted share of query terms matched by the top section's own heading and text".into(),
            ),
            factor(
                "agreement",
                agreement,
                format!("{supporting} other top section(s) match the same terms at half the top score or more"),
            ),
            factor(
                "grounding",
                grounding,
                "pinned full commits, well-formed and verified digests of the top sections' citations".into(),
            ),
        ],
    }
}
