//! Confidence of an Evidence Pack, computed from the evidence, never assumed.
//!
//! A logistic model over features of the ranking that mean the same on every workspace
//! (shares of the query's idf weight and scores normalised by what the query could score at
//! most), fit on three blind question sets and tested on the others (`examples/quality.rs`;
//! docs/evidence.md has the method, the fitted values and every figure):
//!
//! ```text
//! coverage   idf-weighted share of the query terms the top section matches (its own text,
//!            its article's title and description, the names of what it cites)
//! own        the same share, matched by the top section's own heading, id and body
//! rare       1 − the idf of the rarest query term the top section misses, over the highest
//!            idf a term can have in this workspace (1 when it misses nothing)
//! unknown    idf-weighted share of query terms this workspace never uses
//! strength   the top section's score over the most the query's terms could score
//! gap        (top score − second score) / top score
//! margin     (top score − best score of a section of another page) / top score
//! covj       coverage with everyday-English words at half their idf
//! prox       share of the query's neighbouring-word pairs the top section holds together
//!            (heading or body; for a query without pairs, its coverage)
//! support    other sections among the next four scoring at least half the top score and
//!            matching at least half of its matched weight, over 4 (0 when the top section
//!            matches under AGREEMENT_MIN of the query's weight)
//! score      σ(b + Σ wᵢ·featureᵢ)
//! level      none when nothing matched; low below LOW; high at HIGH or above when the top
//!            sections' citations are grounded (pinned, digests verified); else medium
//! ```

use crate::evidence::{round4, Confidence, Factor, Level};
use crate::retrieval::rank::{Ranking, Scored};
use crate::walk;
use ontoly_graph::graph::Graph;

/// Features of a ranking that bear on whether it answers the question.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Features {
    /// Idf-weighted share of the query matched by the top section with its article and code.
    pub coverage: f64,
    /// Idf-weighted share matched by the top section's own text.
    pub own: f64,
    /// 1 − idf of the rarest term the top section misses over the highest idf possible.
    pub rare: f64,
    /// Idf-weighted share of query terms the workspace never uses.
    pub unknown: f64,
    /// Top score over the query's attainable score.
    pub strength: f64,
    /// Relative gap between the first and second section scores.
    pub gap: f64,
    /// Share of the next four sections that agree with the top one.
    pub support: f64,
    /// Idf of the rarest term the top section matches, over the highest idf possible.
    pub matched_rare: f64,
    /// Idf-weighted share of query terms the workspace never uses and that are not common
    /// English (jargon, names, flags: the topic is missing, not paraphrased).
    pub unknown_jargon: f64,
    /// (top score − best score of a section of another page) / top score.
    pub margin: f64,
    /// Share of the query's neighbouring-word pairs the top section holds together (1 when
    /// the query has none).
    pub prox: f64,
    /// Coverage with everyday-English words (`english::is_common`) at half their idf.
    pub covj: f64,
}

/// Number of features.
pub const N_FEATURES: usize = 12;

impl Features {
    /// The features as a vector, in the order of [`WEIGHTS`].
    pub fn to_array(&self) -> [f64; N_FEATURES] {
        [
            self.coverage,
            self.own,
            self.rare,
            self.unknown,
            self.strength,
            self.gap,
            self.support,
            self.matched_rare,
            self.unknown_jargon,
            self.margin,
            self.prox,
            self.covj,
        ]
    }

    /// Names of the features, in the order of [`Features::to_array`].
    pub const NAMES: [&'static str; N_FEATURES] = [
        "coverage", "own", "rare", "unknown", "strength", "gap", "support", "mrare", "jargon",
        "margin", "prox", "covj",
    ];

    /// The features of `ranking` (all zero when no section matched).
    pub fn of(ranking: &Ranking) -> Features {
        let sections: Vec<_> = ranking.sections().take(5).collect();
        let Some(top) = sections.first() else {
            return Features::default();
        };
        let total = ranking.total_weight();
        let share = |mask: u64| {
            if total > 0.0 {
                ranking.weight(mask) / total
            } else {
                0.0
            }
        };
        let max_idf = crate::retrieval::index::bm25_idf(ranking.sections as f64, 0.0);
        let rarest_missing = ranking
            .idf
            .iter()
            .enumerate()
            .filter(|(i, _)| top.mask & (1 << i) == 0)
            .map(|(_, w)| *w)
            .fold(0.0f64, f64::max);
        let unknown_mask = ranking.unknown_mask();
        let jargon_mask = ranking
            .terms
            .iter()
            .enumerate()
            .filter(|(_, t)| {
                t.df == 0
                    && t.corrected.is_none()
                    && !crate::retrieval::english::is_common(&t.query.word)
            })
            .fold(0u64, |m, (i, _)| m | (1 << i));
        let attainable = total * (ranking.params.k1 + 1.0) * ranking.params.weight[0].max(1.0);
        let top_weight = ranking.weight(top.mask);
        // Agreement on nothing is none: a top section that matches no more than a sliver of the
        // query's weight ("arrow" in every page of arrow's workspace, for "install arrow with
        // conda") has no words for others to share.
        let supporting = sections[1..]
            .iter()
            .filter(|s| {
                top_weight >= AGREEMENT_MIN * total
                    && s.score >= 0.5 * top.score
                    && ranking.weight(s.mask & top.mask) >= 0.5 * top_weight
            })
            .count();
        let second = sections.get(1).map_or(0.0, |s| s.score);
        let page = |id: &str| id.split('#').next().unwrap_or("").to_string();
        let top_page = page(&top.id);
        let other_page = ranking
            .sections()
            .find(|s| page(&s.id) != top_page)
            .map_or(0.0, |s| s.score);
        let rarest_matched = ranking
            .idf
            .iter()
            .enumerate()
            .filter(|(i, _)| top.mask & (1 << i) != 0)
            .map(|(_, w)| *w)
            .fold(0.0f64, f64::max);
        let (mut cj, mut tj) = (0.0, 0.0);
        for (i, (t, w)) in ranking.terms.iter().zip(&ranking.idf).enumerate() {
            let w = if crate::retrieval::english::is_common(&t.query.word) {
                0.5 * w
            } else {
                *w
            };
            tj += w;
            if top.mask & (1 << i) != 0 {
                cj += w;
            }
        }
        Features {
            covj: if tj > 0.0 { cj / tj } else { 0.0 },
            coverage: share(top.mask),
            own: share(top.own_mask),
            rare: if max_idf > 0.0 {
                1.0 - (rarest_missing / max_idf).min(1.0)
            } else {
                0.0
            },
            unknown: share(unknown_mask),
            strength: if attainable > 0.0 {
                (top.score / attainable).min(1.0)
            } else {
                0.0
            },
            gap: if top.score > 0.0 {
                (top.score - second) / top.score
            } else {
                0.0
            },
            support: supporting as f64 / 4.0,
            unknown_jargon: share(jargon_mask),
            matched_rare: if max_idf > 0.0 {
                (rarest_matched / max_idf).min(1.0)
            } else {
                0.0
            },
            margin: if top.score > 0.0 {
                (top.score - other_page) / top.score
            } else {
                0.0
            },
            prox: if ranking.pairs > 0 {
                (f64::from(top.pair_hits) / ranking.pairs as f64).min(1.0)
            } else {
                // With no pairs, holding the words together is holding them: a one-term query
                // whose top section holds 1 % of its weight (`uuid.Must`, where `must` is a
                // stopword and no section writes the name) scored `prox` 1 and was `medium`.
                share(top.mask)
            },
        }
    }

    /// The model's score, 0..1.
    pub fn score(&self) -> f64 {
        score_with(&WEIGHTS, BIAS, self)
    }
}

/// σ(bias + weights · features).
pub fn score_with(weights: &[f64; N_FEATURES], bias: f64, f: &Features) -> f64 {
    let z: f64 = bias
        + weights
            .iter()
            .zip(f.to_array())
            .map(|(w, x)| w * x)
            .sum::<f64>();
    1.0 / (1.0 + (-z).exp())
}

/// Fitted weights of the features (order of [`Features::NAMES`]).
pub const WEIGHTS: [f64; N_FEATURES] = [
    1.8440, 0.0, 0.0, -1.6977, 0.5153, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0697, 0.0,
];
/// Share of the query's weight the top section must match before other sections can agree
/// with it.
pub const AGREEMENT_MIN: f64 = 0.05;
/// Fitted bias.
pub const BIAS: f64 = 0.5406;
/// Score below which the level is `low` (`CAPABILITY_LOW_EVIDENCE`).
pub const LOW: f64 = 0.6971;
/// Score at or above which the level is `high` (when grounded).
pub const HIGH: f64 = 0.9;
/// The score threshold of `medium`, for messages.
pub const MEDIUM: f64 = LOW;
/// Grounding (0..1) the top sections need for `high`.
pub const HIGH_GROUNDING: f64 = 0.7;

/// Score strength below which a short query of everyday words is too vague for `high`.
pub const VAGUE_STRENGTH: f64 = 0.2;

/// A query of at most two searched words, all everyday English, that the top section matches
/// weakly ("help", "error", "what is new"): the top section holds those words, as many pages
/// do, so covering the whole query says little. Such a pack is at most `medium`. (Fit on a
/// quality walk's questions, strengths 0.11–0.19; on the 21 harness sets it caps two `high`
/// packs, both wrong at top-1.)
fn is_vague(ranking: &Ranking, f: &Features) -> bool {
    // The runtime's own words are no part of the question (they weigh nothing).
    let asked = || ranking.terms.iter().filter(|t| !t.runtime);
    let searched = asked().filter(|t| t.searched).count();
    searched <= 2
        && asked().all(|t| crate::retrieval::english::is_common(&t.query.word))
        && f.strength < VAGUE_STRENGTH
}

/// What a correction to `term` reads the user's word as, in the pages' own spelling: `word`
/// (the spelling the correction was made through) when the top sections write it, else the
/// first word of theirs whose term is `term`, else `term` when it is an everyday word, else
/// `word`. That spelling need not be anyone's word ("decide" is one edit from "decime", whose
/// stem is that of "decimal"), and "read decide as decime" told the user of a word neither
/// they nor the pages wrote.
fn word_in_sections(graph: &Graph, sections: &[&Scored], term: &str, word: &str) -> String {
    let mut first = None;
    for s in sections {
        let Some(text) = graph.text(&s.id) else {
            continue;
        };
        for w in text.split(|c: char| !c.is_alphanumeric()) {
            if w.len() < 2
                || !w.chars().all(char::is_alphabetic)
                || crate::retrieval::tokens::word_term(w).as_deref() != Some(term)
            {
                continue;
            }
            if w.eq_ignore_ascii_case(word) {
                return word.to_string();
            }
            first.get_or_insert_with(|| w.to_lowercase());
        }
    }
    // Written by no section, only by a name the sections cite (`_iter_tree_entries_next` for
    // "nested", read as `next`): the term itself when it is a word, never a spelling nobody
    // wrote ("read nested as nexted", CI walk, stop 49).
    first.unwrap_or_else(|| {
        if crate::retrieval::english::is_common(term) {
            term.to_string()
        } else {
            word.to_string()
        }
    })
}

/// Each correction of `ranking` as the pages write it (see [`word_in_sections`]): (the word
/// typed, the spelling it was made through, the word shown for it); `sections` are the pages
/// looked at first.
fn readings<'r>(
    graph: &Graph,
    ranking: &'r Ranking,
    sections: &[&Scored],
) -> Vec<(&'r str, &'r str, String)> {
    // A word of a name read whole (`stauts` of `raise_for_stauts`) goes without saying.
    let read_whole = |t: &&crate::retrieval::rank::Term| {
        (t.query.within.as_ref()).is_some_and(|w| {
            (ranking.terms.iter()).any(|u| u.query.word == *w && u.corrected.is_some())
        })
    };
    ranking
        .terms
        .iter()
        .enumerate()
        .filter(|(_, t)| !read_whole(t))
        .filter_map(|(i, t)| {
            let as_word = t.read_as.as_ref().or(t.corrected.as_ref())?;
            // An everyday word too: "literal" was read through its stem as "lateral", a word
            // of the list that neither the asker nor the pages wrote (they write "later").
            let shown = match &t.corrected {
                Some(term) => {
                    // When no top section writes it, the best-ranked section that does (the
                    // structlog MCP walk saw "read Open as oper": a stem, written nowhere).
                    let holder = (ranking.sections()).find(|s| s.mask & (1u64 << i) != 0);
                    let pool: Vec<&Scored> = sections.iter().copied().chain(holder).collect();
                    word_in_sections(graph, &pool, term, as_word)
                }
                _ => as_word.clone(),
            };
            Some((t.query.word.as_str(), as_word.as_str(), shown))
        })
        .collect()
}

/// `words` (as [`Ranking::words_missing`] names them) with each correction shown as
/// `readings` show it.
fn shown(readings: &[(&str, &str, String)], words: Vec<&str>) -> Vec<String> {
    (words.into_iter())
        .map(|w| {
            (readings.iter())
                .find(|(_, as_word, _)| *as_word == w)
                .map_or(w, |(_, _, shown)| shown.as_str())
                .to_string()
        })
        .collect()
}

/// The words of the question that `section` (a section of `ranking`) does not hold, as the
/// pack's explanation names them: a correction in the spelling `section`, else the
/// best-ranked section holding it, writes (`check`'s "does not hold" list said "lateral" for
/// a typed "literal" where the explanation says "later").
pub(crate) fn words_missing_from(
    graph: &Graph,
    ranking: &Ranking,
    section: &Scored,
) -> Vec<String> {
    let readings = readings(graph, ranking, &[section]);
    shown(&readings, ranking.words_missing(section.mask))
}

/// Characters of a word a message shows before it is cut short.
const SHOWN_WORD: usize = 40;

/// `words` as a message names them: each past [`SHOWN_WORD`] characters cut short (a pasted
/// 50 000-character token was named whole in the explanation and again in its diagnostic).
fn shortened(words: &[&str]) -> Vec<String> {
    (words.iter())
        .map(|w| match w.char_indices().nth(SHOWN_WORD) {
            Some((at, _)) => format!("{}… ({} characters)", &w[..at], w.chars().count()),
            None => w.to_string(),
        })
        .collect()
}

/// Pages a message names before it counts the rest.
const SHOWN_PAGES: usize = 3;

/// How the explanation names the query's words the index never saw: "not in this workspace",
/// unless errors left pages out of it (`dropped`: their files), whose words the index never
/// saw either; then "not in the pages ontoly could read", naming the pages (author walk, stop
/// 54: "not in this workspace: clickable, task" of words on a page a marker error dropped).
fn unknown_words(words: &[String], dropped: &[String]) -> String {
    if dropped.is_empty() {
        return format!("; not in this workspace: {}", words.join(", "));
    }
    let pages = ontoly_graph::formats::text::first_of(dropped, SHOWN_PAGES);
    let (errors, them) = if dropped.len() == 1 {
        ("an error leaves out", "it")
    } else {
        ("errors leave out", "them")
    };
    format!(
        "; not in the pages ontoly could read: {} ({errors} {pages}: `ontoly validate` lists {them})",
        words.join(", ")
    )
}

/// The confidence of a ranking's sections. `dropped`: the pages that errors left out of the
/// graph (a marker error, a page that is not UTF-8 or cannot be read), which the explanation
/// names beside the words the index never saw; empty when none or when it has no such words.
pub fn assess(graph: &Graph, ranking: &Ranking, dropped: &[String]) -> Confidence {
    let sections: Vec<_> = ranking.sections().take(3).collect();
    let Some(top) = sections.first() else {
        return Confidence::none(if ranking.terms.is_empty() {
            "the query has no searchable words"
        } else {
            "no section, article, file or symbol matches the query"
        });
    };
    let f = Features::of(ranking);
    let mut g_sum = 0.0;
    let mut w_sum = 0.0;
    for (s, w) in sections.iter().zip([3.0, 2.0, 1.0]) {
        g_sum += w * walk::section_grounding(graph, &s.id);
        w_sum += w;
    }
    let grounding = if w_sum > 0.0 { g_sum / w_sum } else { 0.0 };
    let score = round4(f.score());
    let vague = is_vague(ranking, &f);
    // A trace's frames without its message name the code path, which many failures share;
    // what went wrong is not said, so the pack is at most `medium` (re-walk, stop 52: ten
    // Jackson frames pasted alone were answered `high` by the page about another failure of
    // the same helpers).
    let frames = ranking.frames_only;
    let level = if score < LOW {
        Level::Low
    } else if score >= HIGH && grounding >= HIGH_GROUNDING && !vague && !frames {
        Level::High
    } else {
        Level::Medium
    };
    let readings = readings(graph, ranking, &sections);
    let missing = shown(&readings, ranking.words_missing(top.mask));
    let missing: Vec<&str> = missing.iter().map(String::as_str).collect();
    let unknown = ranking.words_unknown();
    let corrected: Vec<String> = (readings.iter())
        .map(|(typed, _, shown)| format!("{typed} as {shown}"))
        .collect();
    let supporting = (f.support * 4.0).round() as usize;
    let mut explanation = format!(
        "{} confidence: the top section matches {:.0}% of the query's weight{}{}{}{} {} other section{} agree{}, grounding {:.2}",
        level.as_str(),
        f.coverage * 100.0,
        if missing.is_empty() {
            String::new()
        } else {
            format!(" (unmatched: {})", shortened(&missing).join(", "))
        },
        if unknown.is_empty() {
            String::new()
        } else {
            unknown_words(&shortened(&unknown), dropped)
        },
        if corrected.is_empty() {
            String::new()
        } else {
            format!("; read {}", corrected.join(", "))
        },
        // After a list of words, a comma would read as one more of them.
        if unknown.is_empty() && corrected.is_empty() {
            ","
        } else {
            ";"
        },
        supporting,
        if supporting == 1 { "" } else { "s" },
        if supporting == 1 { "s" } else { "" },
        grounding
    );
    let runtime = ranking.searched_runtime();
    if frames && runtime {
        explanation.push_str(
            "; read as a pasted trace whose only message is the runtime's own: that message searched but counted neither as matched nor as unmatched, its library frames and code lines at half the weight, the runtime's frames and the asker's own paths and function names not",
        );
    } else if frames {
        explanation.push_str(
            "; read as a pasted trace without a message: the frames and code lines of the code this workspace cites searched in its place, other libraries' and the runtime's frames and the asker's own paths and function names not",
        );
    } else if ranking.searched_around() {
        explanation.push_str(
            "; read as a pasted trace: its messages searched, the frames and code lines of the code this workspace cites at half the weight, other libraries' and the runtime's frames and the asker's own paths and function names not",
        );
    } else if ranking.read_as_trace() {
        explanation.push_str(
            "; read as a pasted trace: its messages searched, its frames, locations and the runtime's own lines not",
        );
    }
    if runtime && !frames {
        explanation.push_str(
            "; the runtime's own message searched, counted neither as matched nor as unmatched",
        );
    }
    if vague && score >= HIGH && grounding >= HIGH_GROUNDING {
        explanation.push_str(
            "; capped at medium: a short query of everyday words, which the top section holds only in passing",
        );
    } else if frames && score >= HIGH && grounding >= HIGH_GROUNDING {
        explanation.push_str(
            "; capped at medium: a trace's frames without its message name the code path, not what went wrong",
        );
    }
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
                f.coverage,
                "share of the query's idf weight the top section matches (with its article and code)".into(),
            ),
            factor(
                "unknownTerms",
                f.unknown,
                "share of the query's idf weight in words this workspace never uses".into(),
            ),
            factor(
                "scoreStrength",
                f.strength,
                "top score over the most the query could score".into(),
            ),
            factor(
                "proximity",
                f.prox,
                "share of the query's neighbouring words the top section holds together".into(),
            ),
            factor(
                "agreement",
                f.support,
                format!("{supporting} of the next four sections agree with the top one"),
            ),
            factor(
                "grounding",
                grounding,
                "pinned commits and verified digests of the top sections' citations".into(),
            ),
        ],
    }
}
