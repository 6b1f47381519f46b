//! The Evidence Pack: the compact, reusable answer to a question, with every canonical field
//! of the contract always present.

pub mod budget;
pub mod confidence;
pub mod drift_marks;
pub mod excerpt;
mod knowledge;

use crate::context::Context;
use crate::evidence::{round4, Code, Confidence, Diagnostic, Evidence, Level};
use crate::retrieval::english;
use crate::retrieval::rank::{rank, Scored};
use crate::walk::{self, graph_diagnostics, title, CitationPath, GraphFacts};
use ontoly_graph::formats::text::quoted;
use ontoly_graph::graph::model::{Edge, EdgeKind, Node, NodeKind};
use ontoly_graph::graph::Graph;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Pack format version.
pub const PACK_VERSION: &str = "1";
/// Entities in a pack when no limit is asked for (the evidence contract's default).
pub const DEFAULT_LIMIT: usize = 12;
/// Smallest limit a request may ask for.
pub const MIN_LIMIT: usize = 5;
/// Largest limit a request may ask for.
pub const MAX_LIMIT: usize = 20;
/// Pinned reads in `filesToInspect` at most.
pub const MAX_FILES_TO_INSPECT: usize = 4;
/// Sections the answer text names ("Best answered by …; see also …, …").
pub const ANSWER_SECTIONS: usize = 3;
/// Sections of a pack that carry an excerpt of several sentences; each later one carries its
/// best matching sentence, when one matches ([`excerpt::best_sentence`]).
pub const EXCERPT_SECTIONS: usize = 3;
/// Workspace error diagnostics a pack carries at most (a count says how many more there are).
pub const MAX_WORKSPACE_ERRORS: usize = 5;

/// A ranked entity: the serialized node with its score and why it ranks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TopNode {
    /// The node.
    #[serde(flatten)]
    pub node: Node,
    /// Rank score (BM25 plus propagation), rounded.
    pub score: f64,
    /// Why it ranks: `text`, `cites`, `article`, `reached`.
    pub via: Vec<String>,
    /// For the first sections of a pack: the sentences that best match the query, with their
    /// page lines (at most [`excerpt::MAX_EXCERPT_CHARS`] characters in all); for a later
    /// section, its best matching sentence when one matches and the budget leaves room.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excerpt: Vec<excerpt::ExcerptLine>,
}

/// A knowledge page or source file behind the top nodes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RelevantFile {
    /// Workspace-relative (knowledge) or repository-relative (source) path.
    pub path: String,
    /// `knowledge` or `source`.
    pub kind: String,
    /// The source repository, for source files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
    /// The pinned commit, for source files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// Best score of a top node behind it.
    pub score: f64,
}

/// A pinned read that verifies the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileToInspect {
    /// Repository (remote or name; the workspace name for knowledge pages).
    pub repository: String,
    /// Full commit; `null` for a knowledge page whose lines on disk are not those of any
    /// commit (uncommitted changes): a read at the knowledge commit would show other lines.
    pub commit: Option<String>,
    /// Path inside the repository.
    pub path: String,
    /// First line.
    pub start_line: u64,
    /// Last line, inclusive.
    pub end_line: u64,
    /// Web URL of the pinned range, when the forge is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Why to read it.
    pub reason: String,
    /// The range's drift at its clone's `HEAD`, when `HEAD` is not the pinned commit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drift: Option<drift_marks::DriftMark>,
}

impl FileToInspect {
    /// True when both read the same lines of the same file at the same commit, whatever the
    /// reason: one entry of `filesToInspect`.
    pub fn same_range(&self, other: &FileToInspect) -> bool {
        self.repository == other.repository
            && self.commit == other.commit
            && self.path == other.path
            && self.start_line == other.start_line
            && self.end_line == other.end_line
    }
}

/// The Evidence Pack. Every canonical field is always present.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EvidencePack {
    /// Pack format version.
    pub version: String,
    /// The query as given.
    pub query: String,
    /// The effective limit (after clamping).
    pub limit: usize,
    /// A short deterministic answer assembled from the evidence.
    pub answer: String,
    /// Counts that frame the answer.
    pub graph_facts: GraphFacts,
    /// Top entities, best first, at most `limit`.
    pub top_nodes: Vec<TopNode>,
    /// Relationships that connect and ground the top nodes.
    pub top_edges: Vec<Edge>,
    /// Knowledge pages and source files behind the top nodes.
    pub relevant_files: Vec<RelevantFile>,
    /// Relationship type → count over `topEdges`.
    pub relationships: BTreeMap<String, usize>,
    /// Diagnostics that bear on this answer.
    pub diagnostics: Vec<Diagnostic>,
    /// How far the pack can be relied on.
    pub confidence: Confidence,
    /// Next commands that deepen or verify the answer.
    pub suggested_commands: Vec<String>,
    /// The same next steps as MCP tool calls, ready to send: `{tool, arguments}` (`read`,
    /// `capability`, `EvidencePack`); a command with no tool (`graph`) has none.
    #[serde(default)]
    pub next_tool_calls: Vec<serde_json::Value>,
    /// Ids of `topNodes`, in order.
    pub stable_ids: Vec<String>,
    /// Pinned reads that verify the answer.
    pub files_to_inspect: Vec<FileToInspect>,
    /// What to do when the pack is not enough (empty when confidence is high).
    pub fallbacks: Vec<String>,
    /// Where it comes from.
    pub provenance: crate::evidence::Provenance,
}

impl EvidencePack {
    /// The top nodes that are sections, best first: what an answer is judged by.
    pub fn top_sections(&self) -> impl Iterator<Item = &TopNode> {
        self.top_nodes
            .iter()
            .filter(|t| t.node.kind == NodeKind::Section)
    }
}

/// Clamps a requested limit into `MIN_LIMIT..=MAX_LIMIT`, saying so when it had to.
pub fn clamp_limit(requested: Option<i64>) -> (usize, Option<Diagnostic>) {
    let Some(n) = requested else {
        return (DEFAULT_LIMIT, None);
    };
    let clamped = n.clamp(MIN_LIMIT as i64, MAX_LIMIT as i64) as usize;
    if clamped as i64 == n {
        (clamped, None)
    } else {
        (
            clamped,
            Some(Diagnostic::new(
                Code::CapabilityLimitClamped,
                format!("limit {n} is outside {MIN_LIMIT}..={MAX_LIMIT}; using {clamped}"),
            )),
        )
    }
}

/// Quotes a word for a POSIX shell when it needs it (`shlex`; a word with a NUL byte, which
/// no shell can pass, is quoted with it removed).
pub fn shell_quote(s: &str) -> String {
    match shlex::try_quote(s) {
        Ok(q) => q.into_owned(),
        Err(_) => shlex::try_quote(&s.replace('\0', ""))
            .map(|q| q.into_owned())
            .unwrap_or_default(),
    }
}

/// A section's citations with those whose code the question names first: by the idf of the
/// query terms found in the cited path and the names of the definitions the range overlaps
/// (`src/checkout.rs`, `CheckoutService::charge_with_retry` for "how does checkout retry"),
/// ties in the order `structure.yaml` lists them (the author's). The first is what the pack's
/// answer, its files to inspect and its pinned read lead with.
fn by_relevance<'g>(
    cites: Vec<CitationPath<'g>>,
    ranking: &crate::retrieval::rank::Ranking,
) -> Vec<CitationPath<'g>> {
    if cites.len() < 2 {
        return cites;
    }
    let terms = ranking.searched_terms();
    let score = |c: &CitationPath<'_>| -> f64 {
        let mut names = c.path.clone().unwrap_or_default();
        for (_, s) in &c.symbols {
            names.push(' ');
            names.push_str(&s.name);
        }
        let tokens: BTreeSet<String> = crate::retrieval::tokens::tokenize(&names)
            .into_iter()
            .collect();
        terms
            .iter()
            .filter(|(t, _)| tokens.contains(*t))
            .map(|(_, w)| w)
            .sum()
    };
    let listed = |c: &CitationPath<'_>| c.edge.origin.as_ref().map_or(u64::MAX, |o| o.line);
    let mut scored: Vec<(f64, CitationPath<'g>)> =
        cites.into_iter().map(|c| (score(&c), c)).collect();
    // Stable: citations with no line keep the walk's order (edge ids).
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(listed(&a.1).cmp(&listed(&b.1))));
    scored.into_iter().map(|(_, c)| c).collect()
}

fn read_of(c: &CitationPath<'_>, reason: String) -> Option<FileToInspect> {
    Some(FileToInspect {
        repository: c.repository.clone()?,
        commit: Some(c.commit.clone()?),
        path: c.path.clone()?,
        start_line: c.start,
        end_line: c.end,
        url: c.url.clone(),
        reason,
        drift: None,
    })
}

/// One citation of a top section, as a reader of the pack's text sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CitationView {
    /// `repo@commit12:path#Ls-Le`.
    pub label: String,
    /// `verified`, `MISMATCH` (the evidence is wrong at its pinned commit), `pinned` or `unpinned`.
    pub status: &'static str,
    /// The commit-pinned web URL, when the forge is known.
    pub url: Option<String>,
    /// The definitions the range overlaps: `(kind, qualified name)`.
    pub symbols: Vec<(String, String)>,
    /// The range's drift at its clone's `HEAD`, when `HEAD` is not the pinned commit.
    pub drift: Option<String>,
}

/// An Evidence Pack with what stands behind it: the evidence items of the capability result
/// and the citations of each top section (which its text rendering shows; its JSON is the
/// pack alone).
#[derive(Debug, Clone, PartialEq)]
pub struct PackAnswer {
    /// The pack.
    pub pack: EvidencePack,
    /// The evidence items behind it.
    pub evidence: Vec<Evidence>,
    /// Per top section (in `topNodes` order): its id and its citations.
    pub citations: Vec<(String, Vec<CitationView>)>,
}

/// What the top sections contribute: the edges and reads that ground them, and the words of
/// the answer.
struct Grounding {
    top_edges: Vec<Edge>,
    dropped_edges: usize,
    reads: Vec<FileToInspect>,
    /// The first of `reads` whose digest the build verified in a local clone: a pinned read of
    /// it works here.
    readable: Option<FileToInspect>,
    cited_labels: Vec<String>,
    symbol_names: Vec<String>,
    paths: Vec<Evidence>,
    citations: Vec<(String, Vec<CitationView>)>,
}

/// Builds the Evidence Pack for `query`, and the evidence items behind it.
pub fn evidence_pack(ctx: &Context<'_>, query: &str, limit: Option<i64>) -> PackAnswer {
    let graph = ctx.graph;
    let (limit, clamped) = clamp_limit(limit);
    let mut diagnostics: Vec<Diagnostic> = clamped.into_iter().collect();
    let mut ranking = rank(graph, ctx.index, query);
    let dropped = if ranking.words_unknown().is_empty() {
        Vec::new()
    } else {
        dropped_pages(ctx)
    };
    let mut conf = confidence::assess(graph, &ranking, &dropped);
    // After confidence: it stays the lexical ranking's (the model was fit on it), so which
    // packs are flagged, and the false alarms, do not move with the re-order.
    semantic_reorder(graph, &mut ranking, query);
    let top = top_of(&ranking.nodes, limit);

    // Excerpt characters by section rank: the best section says the most.
    const BUDGET: [usize; EXCERPT_SECTIONS] = [500, 300, 250];
    let mut excerpts = 0;
    let top_nodes: Vec<TopNode> = top
        .iter()
        .filter_map(|s| {
            let node = graph.node(&s.id)?.clone();
            let mut ex = Vec::new();
            if node.kind == NodeKind::Section {
                if let (Some(body), Some(span)) = (graph.text(&node.id), &node.span) {
                    ex = match BUDGET.get(excerpts) {
                        Some(&max) => excerpt::excerpt(body, span.start_line + 1, &ranking, max),
                        // A later section: its best sentence, which the budget gives up first.
                        None => excerpt::best_sentence(body, span.start_line + 1, &ranking),
                    };
                }
                excerpts += 1;
            }
            Some(TopNode {
                node,
                score: round4(s.score),
                via: s.via.iter().map(|v| v.to_string()).collect(),
                excerpt: ex,
            })
        })
        .collect();
    let stable_ids: Vec<String> = top_nodes.iter().map(|t| t.node.id.clone()).collect();
    let mut evidence = node_evidence(&top_nodes, top.first().map_or(0.0, |s| s.score));
    let top_sections: Vec<&Node> = top_nodes
        .iter()
        .map(|t| &t.node)
        .filter(|n| n.kind == NodeKind::Section)
        .collect();
    // Each top section's citations, resolved once for everything below, the code the question
    // names first.
    let cited: Vec<Vec<CitationPath<'_>>> = top_sections
        .iter()
        .map(|s| by_relevance(walk::citations(graph, &s.id), &ranking))
        .collect();
    let mut g = ground(graph, &top_sections, &cited, limit);
    add_definition_read(graph, query, &top_nodes, &mut g.reads);
    let older = drift_marks::mark_pack(ctx, &mut g.reads, &mut g.citations, &cited);
    evidence.extend(g.paths.iter().cloned());
    let relationships = g.top_edges.iter().fold(BTreeMap::new(), |mut m, e| {
        *m.entry(e.kind.as_str().to_string()).or_insert(0) += 1;
        m
    });
    let mut files = relevant_files(&top_nodes, &top, &top_sections, &cited);
    let dropped_files = files.len().saturating_sub(limit / 2);
    files.truncate(limit / 2);

    for (s, cites) in top_sections.iter().zip(&cited) {
        diagnostics.extend(graph_diagnostics(graph, &s.id));
        for c in cites {
            diagnostics.extend(graph_diagnostics(graph, &c.target.id));
        }
    }
    let broken = workspace_errors(ctx, &top_sections, &mut conf, &mut diagnostics);
    let extra = ranking.matched.saturating_sub(limit);
    if extra > 0 || g.dropped_edges > 0 || dropped_files > 0 {
        // What was left out, and only that: "carries 7 of 7 matching entities, 6 of 7 edges"
        // read as a complete pack flagged for nothing (adoption walk, stop 59).
        let entities = ranking.matched.max(top_nodes.len());
        let mut cut: Vec<String> = [
            (entities - top_nodes.len(), entities, "matching entities"),
            (
                g.dropped_edges,
                g.top_edges.len() + g.dropped_edges,
                "edges",
            ),
            (dropped_files, files.len() + dropped_files, "relevant files"),
        ]
        .into_iter()
        .filter(|&(left, _, _)| left > 0)
        .map(|(left, of, what)| format!("{left} of {of} {what}"))
        .collect();
        let last = cut.pop().unwrap_or_default();
        let cut = match cut.is_empty() {
            true => last,
            false => format!("{} and {last}", cut.join(", ")),
        };
        let wider = if extra > 0 && limit < MAX_LIMIT {
            format!(" (a limit of up to {MAX_LIMIT} carries more entities)")
        } else {
            String::new()
        };
        diagnostics.push(Diagnostic::new(
            Code::CapabilityEvidenceTruncated,
            format!(
                "the pack carries {} entities; it leaves out {cut}{wider}",
                top_nodes.len(),
            ),
        ));
    }
    let fallbacks = fallbacks(
        &ctx.identity().root,
        query,
        &conf,
        g.reads.is_empty(),
        &mut diagnostics,
    );
    let searches = searches(ctx, &ranking, &conf);
    // The top section's lines in its page, read by the first next step (and by no
    // `filesToInspect` entry as well unless no commit holds them: `knowledge::add_page_read`).
    // Only the top section's: each page read costs the pack about 350 bytes (its call and its
    // command), and reads of the next two sections too took 200 of the 528 excerpt sentences
    // of those sections in the httpx set's 90 packs to stay under the budget (the top one's: 40).
    let page = (top_sections.first()).and_then(|s| knowledge::page_read(ctx, s));
    let steps = next_steps(
        &conf,
        limit,
        &top_sections,
        page.as_ref(),
        (&g.reads, g.readable.as_ref()),
    );
    let mut commands = suggested_commands(&ctx.identity().root, query, &steps);
    let mut tool_calls = next_tool_calls(query, &steps);
    add_searches(
        &ctx.identity().root,
        &searches,
        &mut commands,
        &mut tool_calls,
    );
    let mut answer = answer_text(query, &conf, &top_nodes, &top_sections, &g);
    answer.push_str(older.as_deref().unwrap_or(""));
    answer.push_str(broken.as_deref().unwrap_or(""));
    knowledge::add_page_read(
        ctx,
        &top_sections,
        page.as_ref(),
        &mut g.reads,
        &mut diagnostics,
        MAX_FILES_TO_INSPECT,
    );
    let statistic = Evidence::statistic(
        serde_json::json!({
            "matchedEntities": ranking.matched,
            "matchedSections": ranking.sections().count(),
            "queryTerms": ranking.terms.iter().map(|t| t.query.word.as_str()).collect::<Vec<_>>(),
        }),
        "how much of the graph matched",
    );
    let mut pack = EvidencePack {
        version: PACK_VERSION.into(),
        query: query.to_string(),
        limit,
        answer,
        graph_facts: ctx.index.facts().clone(),
        top_nodes,
        top_edges: g.top_edges,
        relevant_files: files,
        relationships,
        diagnostics,
        confidence: conf,
        suggested_commands: commands,
        next_tool_calls: tool_calls,
        stable_ids,
        files_to_inspect: g.reads,
        fallbacks,
        provenance: ctx.provenance(),
    };
    budget::fit(&mut pack);
    // The diagnostics as the pack carries them, with its budget's note when it has one.
    for d in &pack.diagnostics {
        evidence.push(Evidence::diagnostic(d.clone()));
    }
    evidence.push(statistic);
    crate::evidence::carry_nodes_once(&mut evidence);
    PackAnswer {
        pack,
        evidence,
        citations: g.citations,
    }
}

/// Weights of the meaning signals when a pack's sections are re-ordered ([`semantic_reorder`]),
/// each times the best section's score: the cosine of the question with the section's page
/// title and body, with its best sentence, and with its heading, and the share of the weight
/// of the question's known words the section matches. Chosen in the stop-58 study (issue 8) on
/// the seven fitting question sets (acme, requests, fd, black, commander, jinja, hyperfine)
/// over a grid, then measured once on six new sealed sets (docs/evidence.md); until stop 58
/// the body's cosine alone, at 1.5.
const MEANING: Meaning = Meaning {
    body: 2.0,
    sentence: 1.5,
    heading: 0.5,
    coverage: 1.0,
};

struct Meaning {
    body: f64,
    sentence: f64,
    heading: f64,
    coverage: f64,
}

/// The vector of a section's page title and body, and the best cosine of the question with
/// one sentence of the body (0 when none is closer;
/// [`crate::retrieval::semantic::embed_with_sentences`] says what a sentence is). An answer is
/// often one sentence of a section about something broader, and the section's mean vector
/// drowns it.
fn with_best_sentence(q: &[f32], title: &str, body: &str) -> Option<(Vec<f32>, f64)> {
    use crate::retrieval::semantic::{cosine, embed_with_sentences};
    let mut best = 0.0f64;
    let v = embed_with_sentences(title, body, |s| best = best.max(cosine(q, s)))?;
    Some((v, best))
}

/// Re-orders the sections a pack can hold by how close each one's text is in meaning to the
/// question ([`crate::retrieval::semantic`]). The sections among the best [`MAX_LIMIT`] nodes
/// (the largest pack, so a smaller pack is the same ranking cut shorter) are sorted by their
/// score plus the best section's score times the [`MEANING`] signals (the cosines of the
/// question with the section's page title and body, its best sentence and its heading, and the
/// share of the question it matches), ties by id, and take the places those sections held,
/// each place keeping its score: files, symbols and articles keep their places among the
/// sections (a named definition that outranked every section still does), and a score shown
/// is the lexical ranking's at that place. A section with no text (its page missing) keeps its
/// place. Nothing changes for a pasted trace (a stack trace, not a question: the study
/// measured questions only), for fewer than two sections, or when no word of the question is
/// in the embedding's vocabulary.
fn semantic_reorder(graph: &Graph, ranking: &mut crate::retrieval::rank::Ranking, query: &str) {
    use crate::retrieval::semantic::{cosine, embed};
    if ranking.trace {
        return;
    }
    let candidates: BTreeSet<&str> = top_of(&ranking.nodes, MAX_LIMIT)
        .into_iter()
        .filter(|s| s.kind == NodeKind::Section)
        .map(|s| s.id.as_str())
        .collect();
    // The candidates' places in the ranking, best first.
    let places: Vec<usize> = (0..ranking.nodes.len())
        .filter(|&i| candidates.contains(ranking.nodes[i].id.as_str()))
        .collect();
    let top = places.first().map_or(0.0, |&i| ranking.nodes[i].score);
    if places.len() < 2 || top <= 0.0 {
        return;
    }
    let Some(q) = embed(query).filter(|v| v.iter().any(|&x| x != 0.0)) else {
        return;
    };
    // The share of the words the workspace uses: a word no page has (a pasted blob, a
    // misspelt name) lowers every section's share alike and would tip the balance towards the
    // cosines without telling the sections apart.
    let total = ranking.total_weight() - ranking.weight(ranking.unknown_mask());
    let mut order: Vec<(f64, usize)> = Vec::with_capacity(places.len());
    for &i in &places {
        let n = &ranking.nodes[i];
        // A section with no text to read (its page is missing or unreadable) has no meaning to
        // compare: it keeps its place rather than fall behind every section that has text.
        let Some(body) = graph.text(&n.id).filter(|b| !b.trim().is_empty()) else {
            continue;
        };
        // The page's title as its front matter gives it (else its first heading): the study
        // embedded `title + "\n" + body`.
        let page_title = walk::article_of(graph, &n.id).and_then(|(_, a)| a.metadata.get("title"));
        let Some((v, sentence)) =
            with_best_sentence(&q, page_title.map_or("", String::as_str), body)
        else {
            return;
        };
        let heading = graph
            .node(&n.id)
            .and_then(|s| embed(&s.name))
            .map_or(0.0, |h| cosine(&q, &h));
        let coverage = if total > 0.0 {
            ranking.weight(n.mask) / total
        } else {
            0.0
        };
        let meaning = MEANING.body * cosine(&q, &v)
            + MEANING.sentence * sentence
            + MEANING.heading * heading
            + MEANING.coverage * coverage;
        order.push((n.score + top * meaning, i));
    }
    let places: Vec<usize> = order.iter().map(|&(_, i)| i).collect();
    order.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then_with(|| ranking.nodes[a.1].id.cmp(&ranking.nodes[b.1].id))
    });
    let moved: Vec<Scored> = order
        .iter()
        .map(|&(_, i)| ranking.nodes[i].clone())
        .collect();
    for (&place, mut n) in places.iter().zip(moved) {
        n.score = ranking.nodes[place].score;
        ranking.nodes[place] = n;
    }
}

/// Files, symbols and articles take at most this share of a pack's top nodes: sections are
/// the answer, and a symbol whose name matches one query word can outscore the section that
/// explains it.
const OTHER_SHARE: usize = 3;

/// The best `limit` nodes: the best section first (it is the answer; a symbol or page it
/// holds may score higher on a name), then in rank order with at most `limit / OTHER_SHARE`
/// nodes that are not sections while sections remain to fill the pack.
fn top_of(nodes: &[Scored], limit: usize) -> Vec<&Scored> {
    let best = nodes.iter().position(|s| s.kind == NodeKind::Section);
    let mut picked = vec![false; nodes.len()];
    let mut order: Vec<usize> = best.into_iter().collect();
    let mut others = 0;
    for (i, s) in nodes.iter().enumerate() {
        if order.len() == limit {
            break;
        }
        if Some(i) == best {
            continue;
        }
        if s.kind != NodeKind::Section {
            if others >= limit / OTHER_SHARE {
                continue;
            }
            others += 1;
        }
        order.push(i);
    }
    for &i in &order {
        picked[i] = true;
    }
    // Room left (few sections matched): the other nodes in rank order.
    let rest: Vec<usize> = (0..nodes.len()).filter(|&i| !picked[i]).collect();
    for i in rest {
        if order.len() == limit {
            break;
        }
        order.push(i);
    }
    let first = order.first().copied();
    let mut tail: Vec<usize> = order.into_iter().skip(1).collect();
    tail.sort_unstable();
    first.into_iter().chain(tail).map(|i| &nodes[i]).collect()
}

/// One node evidence item per top node, scored relative to the best.
fn node_evidence(top_nodes: &[TopNode], best: f64) -> Vec<Evidence> {
    top_nodes
        .iter()
        .map(|t| {
            let rel = if best > 0.0 { t.score / best } else { 0.0 };
            Evidence::node(
                &t.node,
                rel,
                format!(
                    "{} {} matched via {}",
                    t.node.kind.as_str(),
                    quoted(title(&t.node)),
                    t.via.join("+")
                ),
            )
        })
        .collect()
}

/// When a definition outranks every section (the question names it: `CommandSet::execute`),
/// its lines at their commit are the first read: the sections cite the code around it, and an
/// agent asked about that method was otherwise sent to other lines of the file. A read of the
/// same lines is not repeated but moved to the front; the list keeps its bound, the last read
/// giving way.
fn add_definition_read(
    graph: &Graph,
    query: &str,
    top_nodes: &[TopNode],
    reads: &mut Vec<FileToInspect>,
) {
    let best_section = top_nodes
        .iter()
        .filter(|t| t.node.kind == NodeKind::Section)
        .map(|t| t.score)
        .fold(0.0, f64::max);
    let Some(t) = top_nodes.iter().find(|t| {
        t.node.kind == NodeKind::Symbol
            && t.score > best_section
            && t.via.iter().any(|v| v == "text")
            && names_definition(query, &t.node.name)
    }) else {
        return;
    };
    let n = &t.node;
    let (Some(span), Some(repository), Some(commit)) =
        (&n.span, &n.package, n.metadata.get("commit"))
    else {
        return;
    };
    let remote = graph
        .node(&ontoly_graph::graph::model::ids::repository(repository))
        .and_then(|r| r.metadata.get("remote"));
    let kind = n.metadata.get("kind").map_or("symbol", String::as_str);
    let read = FileToInspect {
        repository: repository.clone(),
        commit: Some(commit.clone()),
        path: span.file.clone(),
        start_line: span.start_line,
        end_line: span.end_line,
        url: remote
            .and_then(|r| walk::forge_url(r, commit, &span.file, span.start_line, span.end_line)),
        reason: format!("defines {kind} {}, the best match of the question", n.name),
        drift: None,
    };
    // A section lower in the pack may cite exactly these lines: that read moves to the front
    // and says both why (it stayed in its place, fourth, behind the code around the method).
    let read = match reads.iter().position(|r| r.same_range(&read)) {
        Some(i) => {
            let mut cited = reads.remove(i);
            cited.reason = format!("{}; {}", read.reason, cited.reason);
            cited
        }
        None => read,
    };
    reads.insert(0, read);
    reads.truncate(MAX_FILES_TO_INSPECT);
}

/// Whether `query` names the definition `name` (`CommandSet::execute`, `Arrow.range`) as code:
/// its qualified name as a whole word, or its last part written as an identifier (with `_` or
/// an inner capital, after `.`/`::`, or before `(`). Plain words that a definition happens to be
/// called (`add`, `run`, `push`) are not a question about it.
fn names_definition(query: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let whole_at = |hay: &str, at: usize, len: usize| {
        !hay[..at].ends_with(ident) && !hay[at + len..].starts_with(ident)
    };
    let occurrences = |needle: &str| -> Vec<usize> {
        if needle.is_empty() {
            return Vec::new();
        }
        query
            .match_indices(needle)
            .map(|(at, _)| at)
            .filter(|&at| whole_at(query, at, needle.len()))
            .collect()
    };
    let last = name.rsplit(['.', ':']).next().unwrap_or(name);
    let qualified = last.len() < name.len();
    if qualified && !occurrences(name).is_empty() {
        return true;
    }
    let looks_like_code = last.contains('_') || last.chars().skip(1).any(char::is_uppercase);
    occurrences(last).into_iter().any(|at| {
        looks_like_code
            || query[..at].ends_with(['.', ':'])
            || query[at + last.len()..].starts_with('(')
    })
}

/// Edges and reads that ground the top sections, in rank order.
fn ground(
    graph: &Graph,
    top_sections: &[&Node],
    cited: &[Vec<CitationPath<'_>>],
    limit: usize,
) -> Grounding {
    let edge_cap = limit / 2;
    let mut g = Grounding {
        top_edges: Vec::new(),
        dropped_edges: 0,
        reads: Vec::new(),
        readable: None,
        cited_labels: Vec::new(),
        symbol_names: Vec::new(),
        paths: Vec::new(),
        citations: Vec::new(),
    };
    // The reads with the top sections that cite each range, in rank order; the first verified.
    let mut reads: Vec<(FileToInspect, Vec<&str>)> = Vec::new();
    let mut readable: Option<usize> = None;
    let mut seen_edges = BTreeSet::new();
    let mut push_edge = |e: &Edge, g: &mut Grounding| {
        if seen_edges.insert(e.id.clone()) {
            if g.top_edges.len() < edge_cap {
                g.top_edges.push(e.clone());
            } else {
                g.dropped_edges += 1;
            }
        }
    };
    for (rank_i, (s, cites)) in top_sections.iter().zip(cited).enumerate() {
        if let Some((e, _)) = walk::article_of(graph, &s.id) {
            push_edge(e, &mut g);
        }
        g.citations
            .push((s.id.clone(), cites.iter().map(citation_view).collect()));
        for c in cites {
            push_edge(c.edge, &mut g);
            for (_, sym) in &c.symbols {
                if rank_i == 0 && !g.symbol_names.contains(&sym.name) {
                    g.symbol_names.push(sym.name.clone());
                }
            }
            if rank_i == 0 {
                g.cited_labels.push(c.label());
            }
            if rank_i < 3 {
                let mut nodes = vec![(*s).clone(), c.target.clone()];
                let mut edges = vec![c.edge.clone()];
                for (e, n) in &c.chain {
                    edges.push((*e).clone());
                    nodes.push((*n).clone());
                }
                g.paths.push(Evidence::path(
                    nodes,
                    edges,
                    c.grounding(),
                    format!("{} cites {}", s.id, c.label()),
                ));
            }
        }
        // A section's ranges over definitions are read first, then the others in its order:
        // the agent walk of stop 54 was sent to three CHANGELOG ranges before the code
        // they describe.
        let mut by_code: Vec<&CitationPath<'_>> = cites.iter().collect();
        by_code.sort_by_key(|c| c.symbols.is_empty());
        for c in by_code {
            // Read until the list is full: a range it holds already is named by a later section
            // only while there is room, so that a pack without such a range is as it was.
            if rank_i < 5 && reads.len() < MAX_FILES_TO_INSPECT {
                if let Some(r) = read_of(c, String::new()) {
                    // Verified: the clone holds the commit, the file and the lines. (A mismatch
                    // may be a missing commit or file, which a read would not find.)
                    let checked = c.verification == walk::Verification::Verified;
                    match reads.iter().position(|(x, _)| x.same_range(&r)) {
                        // A range two top sections cite is one read, which names both: as two
                        // it took two of the few places.
                        Some(i) => {
                            let by = &mut reads[i].1;
                            if !by.contains(&s.id.as_str()) {
                                by.push(&s.id);
                            }
                            if checked && readable.is_none() {
                                readable = Some(i);
                            }
                        }
                        None => {
                            if checked && readable.is_none() {
                                readable = Some(reads.len());
                            }
                            reads.push((r, vec![&s.id]));
                        }
                    }
                }
            }
        }
    }
    g.reads = reads
        .into_iter()
        .map(|(mut r, by)| {
            r.reason = format!("cited by {}", by.join(", "));
            r
        })
        .collect();
    g.readable = readable.and_then(|i| g.reads.get(i).cloned());
    g
}

fn citation_view(c: &CitationPath<'_>) -> CitationView {
    CitationView {
        label: c.label(),
        status: match c.verification {
            walk::Verification::Verified => "verified",
            walk::Verification::Mismatch => "MISMATCH",
            walk::Verification::Unknown if c.pinned => "pinned",
            walk::Verification::Unknown => "unpinned",
        },
        url: c.url.clone(),
        symbols: {
            // Definitions that share a kind and name (a property's getter and setter,
            // overloads) are one line for people, with their number.
            let mut seen: Vec<((String, String), usize)> = Vec::new();
            for (_, s) in &c.symbols {
                let kind = s.metadata.get("kind").map_or("symbol", String::as_str);
                // A trait impl by its block's name (its kind says `impl`), a member of one as
                // Rust writes it: the type's qualified name is every impl's.
                let name = match s.metadata.get("written") {
                    Some(w) if kind == "impl" => w.strip_prefix("impl ").unwrap_or(w),
                    Some(w) => w,
                    None => &s.name,
                };
                let key = (kind.to_string(), name.to_string());
                match seen.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, n)) => *n += 1,
                    None => seen.push((key, 1)),
                }
            }
            seen.into_iter()
                .map(|((kind, name), n)| match n {
                    1 => (kind, name),
                    n => (kind, format!("{name} ({n} definitions)")),
                })
                .collect()
        },
        drift: None,
    }
}

/// Files behind the top nodes: knowledge pages of sections and articles, source files of
/// files, symbols and the top sections' citations. One entry per path: the first
/// (best-ranked) carries the pin.
fn relevant_files(
    top_nodes: &[TopNode],
    top: &[&Scored],
    top_sections: &[&Node],
    cited: &[Vec<CitationPath<'_>>],
) -> Vec<RelevantFile> {
    let mut files: Vec<RelevantFile> = Vec::new();
    let mut seen_files = BTreeSet::new();
    for (t, s) in top_nodes.iter().zip(top) {
        let n = &t.node;
        let score = round4(s.score);
        let mut add = |f: RelevantFile| {
            if seen_files.insert((f.kind.clone(), f.path.clone())) {
                files.push(f);
            }
        };
        let source =
            |path: String, repository: Option<String>, commit: Option<String>| RelevantFile {
                path,
                kind: "source".into(),
                repository,
                commit,
                score,
            };
        match n.kind {
            NodeKind::Section | NodeKind::Article => {
                if let Some(p) = walk::page_path(n) {
                    add(RelevantFile {
                        path: p,
                        kind: "knowledge".into(),
                        repository: None,
                        commit: None,
                        score,
                    });
                }
                let i = top_sections.iter().position(|s| s.id == n.id);
                if let Some(cites) = i.and_then(|i| cited.get(i)) {
                    for c in cites {
                        if let Some(p) = c.path.clone() {
                            add(source(p, c.repository.clone(), c.commit.clone()));
                        }
                    }
                }
            }
            NodeKind::File | NodeKind::Symbol => {
                let path = n.span.as_ref().map(|x| x.file.clone()).or(n.file.clone());
                if let Some(p) = path {
                    add(source(
                        p,
                        n.package.clone(),
                        n.metadata.get("commit").cloned(),
                    ));
                }
            }
            _ => {}
        }
    }
    files
}

/// What to do when the pack is not enough, with the diagnostic a weak pack carries; a command
/// among them pastes as it is, as the next commands do (`--workspace` when `root` is not the
/// current directory's workspace).
fn fallbacks(
    root: &str,
    query: &str,
    conf: &Confidence,
    no_reads: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let mut fallbacks = Vec::new();
    match conf.level {
        Level::None => {
            diagnostics.push(Diagnostic::new(
                Code::CapabilityNotFound,
                format!("nothing in the graph matches {:?}", shown_query(query)),
            ));
            fallbacks.push("The knowledge workspace does not document this: search the source repositories directly, then add a section that cites what you find.".to_string());
            fallbacks.push(
                "Rephrase with the identifiers involved (function, type, file or module names)."
                    .to_string(),
            );
            fallbacks.push(
                format!(
                    "See how much the workspace holds (articles, sections, sources, by count): `ontoly{} run GraphStatistics --input '{{}}'`.",
                    workspace_arg(root)
                ),
            );
        }
        Level::Low => {
            diagnostics.push(Diagnostic::new(
                Code::CapabilityLowEvidence,
                format!(
                    "confidence {} is below the {} threshold: {}",
                    conf.score,
                    confidence::MEDIUM,
                    conf.explanation
                ),
            ));
            fallbacks.push(if no_reads {
                "The top sections cite no pinned source: read the knowledge pages of relevantFiles and the code they describe before relying on this pack.".to_string()
            } else {
                "Read the pinned ranges in filesToInspect before relying on this pack.".to_string()
            });
            fallbacks.push("Rephrase with the identifiers involved (function, type, file or module names), or ask for more sections (a limit of 20).".to_string());
            fallbacks.push("If the repositories hold the answer but no section cites it, search them directly and document it in a section.".to_string());
        }
        Level::Medium => {
            fallbacks.push(if no_reads {
                "The top sections cite no pinned source: confirm the answer in the knowledge pages of relevantFiles.".to_string()
            } else {
                "Confirm the answer by reading the pinned ranges in filesToInspect.".to_string()
            });
        }
        Level::High => {}
    }
    fallbacks
}

/// What the next commands add to `ontoly` to reach the workspace at `root`: nothing for the
/// current directory's.
fn workspace_arg(root: &str) -> String {
    if root.is_empty() || root == "." {
        String::new()
    } else {
        format!(" --workspace {}", shell_quote(root))
    }
}

/// The next steps of a pack, in order: read the top section's page lines, its evidence and
/// its references, its graph, the first cited range a local clone holds at its pinned commit,
/// who else cites the first cited range, and a wider pack when the match is weak. One list,
/// rendered as shell commands ([`suggested_commands`]) and as MCP tool calls
/// ([`next_tool_calls`]), so the two say the same (the MCP walk, stop 59, found the pinned read
/// of code only among the commands).
enum Step<'a> {
    Page(&'a knowledge::PageRead),
    Evidence(&'a Node),
    References(&'a ontoly_graph::graph::Span),
    Graph(&'a Node),
    Code(&'a FileToInspect, &'a str),
    Cites(&'a FileToInspect),
    Wider,
}

fn next_steps<'a>(
    conf: &Confidence,
    limit: usize,
    top_sections: &[&'a Node],
    page: Option<&'a knowledge::PageRead>,
    (reads, readable): (&'a [FileToInspect], Option<&'a FileToInspect>),
) -> Vec<Step<'a>> {
    let mut steps: Vec<Step<'a>> = page.map(Step::Page).into_iter().collect();
    if let Some(&s) = top_sections.first() {
        steps.push(Step::Evidence(s));
        if let Some(span) = &s.span {
            steps.push(Step::References(span));
        }
        steps.push(Step::Graph(s));
    }
    if let Some((r, commit)) = readable.and_then(|r| Some((r, r.commit.as_deref()?))) {
        steps.push(Step::Code(r, commit));
    }
    if let Some(r) = reads.first() {
        steps.push(Step::Cites(r));
    }
    // Only a weak match is worth widening: when nothing matched, more of nothing is no help.
    if conf.level == Level::Low && limit < MAX_LIMIT {
        steps.push(Step::Wider);
    }
    steps
}

/// The [`Step`]s as `ontoly` commands, each pasteable as it is: words quoted for a POSIX
/// shell, `--workspace` when the workspace is not found from the current directory, and `--`
/// before the query (which may start with a dash).
fn suggested_commands(root: &str, query: &str, steps: &[Step<'_>]) -> Vec<String> {
    let ontoly = format!("ontoly{}", workspace_arg(root));
    let lines = |path: &str, a: u64, b: u64| shell_quote(&format!("{path}:{a}-{b}"));
    (steps.iter())
        .filter_map(|step| match step {
            Step::Page(p) => p.command_args().map(|args| format!("{ontoly} read {args}")),
            Step::Evidence(s) => Some(format!(
                "{ontoly} run SectionEvidence --input {}",
                shell_quote(&serde_json::json!({ "section": s.id }).to_string())
            )),
            Step::References(span) => Some(format!(
                "{ontoly} refs {}",
                lines(&span.file, span.start_line, span.end_line)
            )),
            Step::Graph(s) => Some(format!(
                "{ontoly} graph --focus {} --format mermaid",
                shell_quote(&s.id)
            )),
            Step::Code(r, commit) => Some(format!(
                "{ontoly} read --repo {} --rev {} {}",
                shell_quote(&r.repository),
                shell_quote(commit),
                lines(&r.path, r.start_line, r.end_line)
            )),
            Step::Cites(r) => Some(format!(
                "{ontoly} cites {}",
                lines(&r.path, r.start_line, r.end_line)
            )),
            Step::Wider => Some(format!(
                "{ontoly} evidence --limit {MAX_LIMIT} -- {}",
                shell_quote(query)
            )),
        })
        .collect()
}

/// Repositories an empty pack's searches run in, at most this many.
const MAX_SEARCHED_REPOS: usize = 2;

/// Characters of the longest word a suggested search looks for (no name is longer; a pasted
/// token is not one).
const MAX_SEARCHED_WORD: usize = 64;

/// What an empty pack (level `none`: nothing to read or follow in the graph) or a weak one
/// (`low`: the words its top section leaves unmatched) suggests searching, since the workspace
/// may not document the question: the query's rarest such words (those no section uses first,
/// then the fewest sections; at most three, only words of letters, digits and `_` with a
/// letter, which are their own regular expression, as the question writes them, not parts of an identifier,
/// and no everyday English word unless the question has only those) as one case-insensitive alternation of whole words
/// (`\b(?:oauth2|quic)\b`), and the repositories with a local clone to search.
struct Searches {
    /// Each repository to search.
    repositories: Vec<Searched>,
    pattern: String,
}

/// One repository a suggested search runs in.
struct Searched {
    /// Its name.
    name: String,
    /// The commit the workspace pins it at (the one most of its cited files are at), when it
    /// cites any.
    pinned: Option<String>,
    /// The globs that leave out the packaging copies it holds at that commit
    /// ([`packaging_globs`]).
    globs: Vec<&'static str>,
}

/// The commit the workspace cites `remote_key`'s repository at: the one most of its cited files
/// are at (ties: the first in id order). A search of the branch instead would look at code the
/// knowledge does not describe.
fn pinned_commit(graph: &Graph, remote_key: &str) -> Option<String> {
    let repo = ontoly_graph::graph::model::ids::repository(remote_key);
    let mut best: Option<(usize, &str)> = None;
    for e in graph.in_edges(&repo, Some(EdgeKind::OfRepository)) {
        let files = graph.in_edges(&e.from, Some(EdgeKind::AtCommit)).len();
        if best.is_none_or(|(n, _)| files > n) {
            best = Some((files, e.from.as_str()));
        }
    }
    let (_, commit) = best?;
    commit.rsplit_once('@').map(|(_, c)| c.to_string())
}

fn searches(
    ctx: &Context<'_>,
    ranking: &crate::retrieval::rank::Ranking,
    conf: &Confidence,
) -> Option<Searches> {
    // An empty pack has nothing else to send. A weak one searches for the words its top
    // section leaves unmatched: the httpx MCP walk (stop 44) answered each of its unanswerable
    // questions ("HTTP/3 or QUIC?") with one search it had to make up, where the pack's next
    // steps (that section's evidence, a wider pack) led nowhere.
    let unmatched = match conf.level {
        Level::None => u64::MAX,
        Level::Low => !ranking.sections().next().map_or(0, |s| s.mask),
        _ => return None,
    };
    let mut words: Vec<(usize, usize, String)> = ranking
        .terms
        .iter()
        .enumerate()
        .filter(|(i, _)| *i >= 64 || unmatched & (1 << i) != 0)
        // A part of an identifier typed whole (`auth2` of `OAuth2`) is no word of the
        // question: searched alone, it names what the identifier does not.
        .filter(|(_, t)| t.query.within.is_none() && !t.runtime)
        .map(|(i, t)| (t.df, i, t.query.word.to_lowercase()))
        .filter(|(_, _, w)| {
            (3..=MAX_SEARCHED_WORD).contains(&w.chars().count())
                && w.chars().all(|c| c.is_alphanumeric() || c == '_')
                // A number ("1000 concurrent requests") is in every file's data, no name.
                && w.chars().any(char::is_alphabetic)
        })
        .collect();
    // An everyday word is everywhere in code and prose ("automatic" in the httpx walk, stop
    // 54, found decompression for a question about OAuth2): searched only when the question
    // has no other word to search for.
    if words.iter().any(|(_, _, w)| !english::is_common(w)) {
        words.retain(|(_, _, w)| !english::is_common(w));
    }
    words.sort();
    let mut picked: Vec<String> = Vec::new();
    for (_, _, w) in words {
        if !picked.contains(&w) && picked.len() < 3 {
            picked.push(w);
        }
    }
    if picked.is_empty() {
        return None;
    }
    let repos = ctx.session()?.repositories().ok()?;
    let repositories: Vec<Searched> = repos
        .repos
        .iter()
        .filter(|r| !r.is_workspace)
        .filter_map(|r| Some((r, r.repo.as_ref()?)))
        .take(MAX_SEARCHED_REPOS)
        .map(|(r, git)| {
            let pinned = r
                .remote_key
                .as_deref()
                .and_then(|k| pinned_commit(ctx.graph, k));
            let local = git.local();
            // The search reads the default branch when the workspace pins no commit.
            let commit = pinned
                .clone()
                .or_else(|| local.default_branch().ok().map(|(_, c)| c));
            let globs = commit
                .and_then(|c| local.files(&c, &[]).ok())
                .map_or_else(Vec::new, |files| {
                    packaging_globs(files.iter().map(|(p, _)| p.as_str()))
                });
            Searched {
                name: r.name.clone(),
                pinned,
                globs,
            }
        })
        .collect();
    // Whole words: `quic` alone matched only `QuickStart` in the stop-54 walk. `\b` is the
    // search tool's (Rust regex) Unicode word boundary, and `_` a word character, so an
    // identifier such as `max_retries` stays whole.
    let pattern = match picked.as_slice() {
        [one] => format!("\\b{one}\\b"),
        many => format!("\\b(?:{})\\b", many.join("|")),
    };
    (!repositories.is_empty()).then_some(Searches {
        repositories,
        pattern,
    })
}

/// The globs that leave out of a search the copies packaging makes of a project's README and
/// changelog, for those of `paths` (a repository's files) holds: a Python sdist's `PKG-INFO`,
/// an `*.egg-info` or `*.dist-info` directory (`PKG-INFO`, `METADATA`, `SOURCES.txt`). Each
/// match in one repeats a match in the file it copies (stop-54 walk: 4.7 KB of `CHANGELOG.md`
/// and `PKG-INFO` lines, the same lines twice). Only the globs of copies the repository has:
/// each costs a pack's search call and command their bytes, which the budget takes from the
/// excerpts.
fn packaging_globs<'p>(paths: impl Iterator<Item = &'p str>) -> Vec<&'static str> {
    let (mut pkg_info, mut egg, mut dist) = (false, false, false);
    for path in paths {
        let (dirs, name) = path.rsplit_once('/').unwrap_or(("", path));
        let mut inside = false;
        for d in dirs.split('/') {
            if d.ends_with(".egg-info") {
                (egg, inside) = (true, true);
            } else if d.ends_with(".dist-info") {
                (dist, inside) = (true, true);
            }
        }
        pkg_info |= name == "PKG-INFO" && !inside;
    }
    [
        (pkg_info, "!PKG-INFO"),
        (egg, "!**/*.egg-info/**"),
        (dist, "!**/*.dist-info/**"),
    ]
    .into_iter()
    .filter_map(|(has, glob)| has.then_some(glob))
    .collect()
}

/// Appends the [`Searches`], as shell commands and as `search` tool calls: an agent told to
/// "search the source repositories" gets the search to send, without packaging's copies
/// ([`packaging_globs`]).
fn add_searches(
    root: &str,
    searches: &Option<Searches>,
    commands: &mut Vec<String>,
    calls: &mut Vec<serde_json::Value>,
) {
    let Some(s) = searches else { return };
    let ontoly = format!("ontoly{}", workspace_arg(root));
    for Searched {
        name: repo,
        pinned,
        globs: excluded,
    } in &s.repositories
    {
        let rev = pinned
            .as_deref()
            .map(|c| format!(" --rev {c}"))
            .unwrap_or_default();
        let globs: String = (excluded.iter())
            .map(|g| format!(" -g {}", shell_quote(g)))
            .collect();
        commands.push(format!(
            "{ontoly} search --repo {}{rev} -i{globs} {}",
            shell_quote(repo),
            shell_quote(&s.pattern)
        ));
        let mut args =
            serde_json::json!({"repository": repo, "pattern": s.pattern, "ignoreCase": true});
        if !excluded.is_empty() {
            args["glob"] = serde_json::json!(excluded);
        }
        if let Some(c) = pinned {
            args["revision"] = serde_json::json!(c);
        }
        calls.push(serde_json::json!({"tool": "search", "arguments": args}));
    }
}

/// The [`Step`]s as MCP tool calls, for an agent that has the tools and no shell: the top
/// section's page lines (in the workspace repository, pinned to the knowledge commit when it
/// holds them: the httpx MCP walk worked out the repository's name and the page's path
/// itself), its evidence and references, the first cited range this machine can read at its
/// pinned commit (the others are in `filesToInspect`), who else cites the first cited range,
/// and a wider pack when the match is weak. The graph has no tool.
fn next_tool_calls(query: &str, steps: &[Step<'_>]) -> Vec<serde_json::Value> {
    use serde_json::json;
    let capability = |name: &str, input: serde_json::Value| json!({"tool": "capability", "arguments": {"name": name, "input": input}});
    (steps.iter())
        .filter_map(|step| match step {
            Step::Page(p) => p.tool_call(),
            Step::Evidence(s) => Some(capability("SectionEvidence", json!({ "section": s.id }))),
            Step::References(span) => Some(capability(
                "SectionReferences",
                json!({"path": span.file, "startLine": span.start_line, "endLine": span.end_line}),
            )),
            Step::Graph(_) => None,
            Step::Code(r, commit) => Some(json!({"tool": "read", "arguments": {
                "repository": r.repository,
                "revision": commit,
                "path": r.path,
                "startLine": r.start_line,
                "endLine": r.end_line,
            }})),
            Step::Cites(r) => Some(capability(
                "CitationsOf",
                json!({"target": format!("{}:{}-{}", r.path, r.start_line, r.end_line)}),
            )),
            Step::Wider => Some(
                json!({"tool": "EvidencePack", "arguments": {"query": query, "limit": MAX_LIMIT}}),
            ),
        })
        .collect()
}

/// The pages (or directories) that errors left out of the graph, in path order: a page with a
/// marker error contributes no sections, and one that is not UTF-8 or cannot be read nothing
/// (docs/workspace-format.md), so the index never saw their words.
fn dropped_pages(ctx: &Context<'_>) -> Vec<String> {
    let dropping = [Code::MarkerError, Code::PageNotUtf8, Code::PageUnreadable];
    let pages: BTreeSet<String> = (ctx.index.errors().iter())
        .filter_map(|id| ctx.graph.node(id))
        .filter(|n| dropping.contains(&walk::diagnostic_of_node(n).code))
        .filter_map(|n| n.span.as_ref())
        .map(|s| ontoly_graph::formats::text::one_line(&s.file).into_owned())
        .collect();
    pages.into_iter().collect()
}

/// A workspace with error diagnostics answers with them: the pack carries its errors (the
/// first [`MAX_WORKSPACE_ERRORS`], and how many more), a top section whose page or entry is
/// broken is never `high`, and the answer says so in a sentence (returned): an agent that reads
/// only `answer` must know it comes from what is left of a broken workspace (found in the
/// stop-42 MCP walk: "Best answered by …, Confidence medium (0.9755)" and nothing more).
fn workspace_errors(
    ctx: &Context<'_>,
    top_sections: &[&Node],
    conf: &mut Confidence,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    let graph = ctx.graph;
    let errors = ctx.index.errors();
    if errors.is_empty() {
        return None;
    }
    let first = errors
        .iter()
        .find_map(|id| graph.node(id))
        .map(walk::diagnostic_of_node);
    // An error the pack already holds (its top section's own) is carried too, and does not
    // use up the bound.
    let (mut carried, mut added) = (0, 0);
    for id in errors {
        let Some(n) = graph.node(id) else { continue };
        let d = walk::diagnostic_of_node(n);
        if diagnostics.contains(&d) {
            carried += 1;
        } else if added < MAX_WORKSPACE_ERRORS {
            diagnostics.push(d);
            added += 1;
            carried += 1;
        }
    }
    if errors.len() > carried {
        diagnostics.push(Diagnostic::new(
            Code::CapabilityEvidenceTruncated,
            format!(
                "the workspace has {} error diagnostics; the pack carries {carried} of them (ontoly validate lists them all)",
                errors.len()
            ),
        ));
    }
    let is_error = |d: &Diagnostic| d.severity == ontoly_graph::diagnostics::Severity::Error;
    let broken_top = top_sections.iter().take(3).any(|s| {
        let page = walk::article_of(graph, &s.id).map(|(_, a)| graph_diagnostics(graph, &a.id));
        graph_diagnostics(graph, &s.id).iter().any(is_error)
            || page.is_some_and(|ds| ds.iter().any(is_error))
    });
    if broken_top && conf.level == Level::High {
        conf.level = Level::Medium;
        conf.explanation = format!(
            "{}; capped at medium: a top section's page or entry has errors",
            conf.explanation
                .replacen("high confidence", "medium confidence", 1)
        );
    }
    let n = errors.len();
    let which = if n == 1 { "" } else { "the first " };
    let first = first
        .map(|d| match &d.location {
            Some(at) => format!(", {which}{} at {at}", d.code.as_str()),
            None => format!(", {which}{}", d.code.as_str()),
        })
        .unwrap_or_default();
    Some(format!(
        " The workspace has {n} error{}{first}: this answer comes from what is left of it (`ontoly validate` lists them).",
        if n == 1 { "" } else { "s" }
    ))
}

/// Characters of the question that a pack's answer and diagnostics, and the text rendering's
/// `Question:` line, quote at most; the pack's `query` keeps it whole.
pub const QUESTION_SHOWN: usize = 300;

/// The question as a pack's prose quotes it: a pasted log or file is cut, with its length
/// said. Quoted whole, a question of 90 000 words came back five times in a 2.5 MB reply
/// (MCP-TS walk, `repro-quadratic.sh`).
pub fn shown_query(q: &str) -> std::borrow::Cow<'_, str> {
    let n = q.chars().count();
    if n <= QUESTION_SHOWN {
        return q.into();
    }
    let head: String = q.chars().take(QUESTION_SHOWN).collect();
    format!("{}… ({n} characters)", head.trim_end()).into()
}

/// A short deterministic answer assembled from the evidence.
fn answer_text(
    query: &str,
    conf: &Confidence,
    top_nodes: &[TopNode],
    top_sections: &[&Node],
    g: &Grounding,
) -> String {
    if top_sections.is_empty() {
        return if top_nodes.is_empty() {
            format!(
                "No evidence in the graph for {}.",
                quoted(&shown_query(query))
            )
        } else {
            format!(
                "No section answers {}; the closest entities are {}.",
                quoted(&shown_query(query)),
                top_nodes
                    .iter()
                    .take(3)
                    .map(|t| t.node.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
    }
    let names: Vec<String> = top_sections
        .iter()
        .take(ANSWER_SECTIONS)
        .map(|s| format!("{} ({})", quoted(title(s)), s.id))
        .collect();
    // A weak answer says so in its first words: an agent that reads only `answer` must not
    // take the closest section for one that answers.
    let mut a = match conf.level {
        Level::High | Level::Medium => format!("Best answered by {}", names[0]),
        Level::Low | Level::None => format!(
            "No section clearly answers this; the closest is {}",
            names[0]
        ),
    };
    if names.len() > 1 {
        a.push_str(&format!("; see also {}", names[1..].join(", ")));
    }
    a.push('.');
    if !g.cited_labels.is_empty() {
        let shown: Vec<&str> = g.cited_labels.iter().take(3).map(String::as_str).collect();
        a.push_str(&format!(" It cites {}", shown.join(", ")));
        if g.cited_labels.len() > 3 {
            a.push_str(&format!(" and {} more", g.cited_labels.len() - 3));
        }
        a.push('.');
    }
    if !g.symbol_names.is_empty() {
        let shown: Vec<&str> = g.symbol_names.iter().take(5).map(String::as_str).collect();
        a.push_str(&format!(" Symbols: {}.", shown.join(", ")));
    }
    a.push_str(&format!(
        " Confidence {} ({}).",
        conf.level.as_str(),
        conf.score
    ));
    a
}

#[cfg(test)]
mod tests {
    use super::{names_definition, packaging_globs, with_best_sentence};

    /// An answer that is one sentence of a broader section is read in that sentence: its cosine
    /// is the best sentence's, above the whole body's, and pieces of fewer than three words
    /// (a heading's "Retries." line, a bare `v2.28`) are not sentences.
    #[test]
    fn the_best_sentence_is_read_on_its_own() {
        use crate::retrieval::semantic::{cosine, embed};
        let q = embed("how many times is a declined card charged again").expect("the table");
        let body = "The checkout page lists the items in the cart and their prices.\n\
                    A declined card is charged again up to three times, a minute apart.\n\
                    Shipping addresses are validated against the postal service.";
        let (whole, best) = with_best_sentence(&q, "", body).expect("the table");
        assert!(best > cosine(&q, &whole) + 0.05, "{best} vs {whole:?}");
        let only = cosine(
            &q,
            &embed("A declined card is charged again up to three times, a minute apart")
                .expect("the table"),
        );
        assert!((best - only).abs() < 1e-9, "{best} vs {only}");
        let (_, none) = with_best_sentence(&q, "", "Retries. v2.28! Done?").expect("the table");
        assert_eq!(none, 0.0);
    }

    #[test]
    fn only_the_packaging_copies_a_repository_holds_are_left_out() {
        let globs = |paths: &[&str]| packaging_globs(paths.iter().copied());
        assert!(globs(&["README.md", "src/lib.rs", "docs/PKG-INFO.md"]).is_empty());
        // An egg-info's own PKG-INFO is left out with its directory.
        assert_eq!(
            globs(&["README.md", "src/httpx.egg-info/PKG-INFO"]),
            ["!**/*.egg-info/**"]
        );
        assert_eq!(
            globs(&[
                "PKG-INFO",
                "app-1.0.dist-info/METADATA",
                "x.egg-info/SOURCES.txt"
            ]),
            ["!PKG-INFO", "!**/*.egg-info/**", "!**/*.dist-info/**"]
        );
    }

    #[test]
    fn a_question_names_a_definition_written_as_code() {
        for (query, name) in [
            ("CommandSet::execute", "CommandSet::execute"),
            ("Arrow.range('month') starting on Jan 31", "Arrow.range"),
            ("shift(months=1)", "Arrow.shift"),
            ("mock arrow.utcnow() in pytest", "Arrow.utcnow"),
            ("span_range hourly buckets", "Arrow.span_range"),
            ("add a locale by subclassing EnglishLocale", "EnglishLocale"),
            ("passThroughOptions", "Command.passThroughOptions"),
            (
                "why does charge_with_retry give up",
                "CheckoutService::charge_with_retry",
            ),
        ] {
            assert!(names_definition(query, name), "{query} names {name}");
        }
        for (query, name) in [
            ("How do I add a new language to the shop?", "Cart.add"),
            ("How do I run the browser tests locally?", "Worker.run"),
            ("push notifications for shipped orders", "JobQueue.push"),
            ("what is the maximum quantity in the cart", "MAX_QUANTITY"),
            ("CommandSet::executes", "CommandSet::execute"),
            ("my_shift(1)", "Arrow.shift"),
            ("", "Arrow.shift"),
        ] {
            assert!(
                !names_definition(query, name),
                "{query} does not name {name}"
            );
        }
    }
}
