//! Answer quality on question sets, in-sample and held out.
//!
//! ```sh
//! cargo run --release -p ontoly-capabilities --example quality            # every corpus
//! cargo run --release -p ontoly-capabilities --example quality -- -v fd   # one, per question
//! ```
//!
//! For each corpus (`acme`, `requests`, `fd`, `black`, `commander`, `jinja`, `hyperfine`,
//! `click`, `just`, `attrs`, `ws`, `marshmallow`, `tenacity`, `loguru`, `ripgrep`,
//! `structlog`, `zoxide`, `arrow`, `xh`, `dust`, `httpx`, `cachetools` (stop 44: questions written
//! without the pages), `viper` (Go; stop 52: blind when first run, fit from then on; its second
//! batch is `viper/batch2`), `tqdm` and `tealdeer` (sealed until stop 55 spent them, once, in
//! aggregate) — those four not in the default list, which stays comparable across stops;
//! `tokei`, `cobra` and `fastify`, spent once in aggregate at stop 57, as `NAME=…` below;
//! `flask`, `urfave-cli` and `bat`, and `werkzeug`, `eza` and `pino`, sealed until stop 58
//! spent them, once —
//! `demo`, or `NAME=WORKSPACE:QUESTIONS`;
//! the default is the first twenty-one — `demo` is the live demo, whose pages were edited to
//! pass its own gate, so it is no longer held out: `acme` is its frozen copy from before; the
//! questions of commander and the sixteen after it were written by someone who had not seen the pages; a
//! sealed corpus (testdata/README.md; none is now) is not named here until a change is measured
//! on it, once, in aggregate, as `NAME=WORKSPACE:QUESTIONS`) it answers
//! every question with the shipped Evidence Pack and prints top-1 and top-3 (an expected section
//! is first / among the first three sections), the share of unanswerable questions flagged
//! `CAPABILITY_LOW_EVIDENCE` / `CAPABILITY_NOT_FOUND`, the share of answerable ones flagged
//! (false alarms) and the AUC of the confidence score, then the same as counts of questions,
//! per corpus and pooled (over all named, and over the blind ones: all but acme, requests, fd,
//! black and demo).
//!
//! Then, for every pair (fit X, test Y), a threshold on the confidence score is fit on X (the
//! lowest that flags at least 90 % of X's unanswerable questions) and applied to Y; the
//! diagonal is in-sample. The shipped parameters, model and threshold were fit on commander,
//! jinja and hyperfine pooled (`--fit-on`; see docs/evidence.md), so the figures of those three
//! are in-sample and the others' are not.
//!
//! With `-v`, `QUALITY_EXPLAIN=1` prints each pack's confidence explanation under its line and
//! `QUALITY_FEATURES=1` its confidence features and terms. `QUALITY_DUMP=FILE` appends one JSON
//! line a question to FILE (its confidence features, the ranking's best 20 sections with their
//! scores, shares and cosines of meaning, the pack's sections, the expected ones): the data of
//! a study, fit in a script of one's own (docs/evidence.md, stop 58); with `QUALITY_DENSE=1`
//! also the cosine of every section of the workspace and the ten closest sections the lexical
//! top 20 lacks (stop 59).
//!
//! `QUALITY_PARAMS=k1,heading,id,body,article,cited,pairs` ranks with one fixed parameter set
//! beside the shipped one (top-1 / top-3 only). `--fit` fits the retrieval parameters per corpus, `--fit-confidence` the confidence model,
//! `--cv` both together leaving one corpus out (a 216-set grid, then the logistic model and
//! its 90 % threshold on the other corpora pooled, tested on the one left out; also with
//! commander weighing as much as the others together; docs/evidence.md, "Parameters and
//! confidence refit together"), `--fit-on A,B,C --test-on D,E,…` fits the retrieval parameters
//! (a 960-set grid) and the confidence model on the first corpora pooled only, with
//! leave-one-out among them, and prints for the second only aggregate figures of the shipped
//! configuration and the fitted one, per corpus and pooled (never a question: for held-out
//! sets; docs/evidence.md, "Fit on blind questions only (stop 22)"), `--loco-confidence A,B,…
//! [--test-on C,D] [--report-on E,F]` chooses a confidence model among fixed candidates
//! (feature sets, transforms, L2 penalties) leaving one corpus out over the first list, fits it
//! on the whole list and measures it, in aggregate, on the others (docs/evidence.md,
//! "Confidence with every feature, fit on eleven sets (stop 23)"), and `--calibrate` measures calibrating each workspace against itself: questions it asks
//! itself with no labels (`pseudo_questions`; `QUALITY_RECIPE=mix|section|page`) set its own
//! threshold or normalise its features (docs/evidence.md, "What was tried": not shipped).

use ontoly_capabilities::evidence::Level;
use ontoly_capabilities::gate::{self, parse_questions};
use ontoly_capabilities::pack::confidence::{score_with, Features, BIAS, LOW, N_FEATURES, WEIGHTS};
use ontoly_capabilities::retrieval::index::Params;
use ontoly_capabilities::retrieval::rank::{rank_with, Ranking, Scored};
use ontoly_capabilities::{pack, Context, Index};
use ontoly_graph::{Session, SessionOptions};
use std::path::PathBuf;

/// One answered question.
struct Answer {
    question: String,
    answerable: bool,
    /// 1-based rank of the first expected section among the pack's sections.
    rank: Option<usize>,
    score: f64,
    level: Level,
    top: String,
}

struct Corpus {
    name: String,
    answers: Vec<Answer>,
    /// For fitting: the index and each answerable question with its expected sections.
    index: Index,
    asked: Vec<(String, Vec<String>)>,
    /// Every question's confidence features and whether it is answerable.
    features: Vec<(Features, bool)>,
    /// The workspace's own pseudo-questions (`pseudo_questions`): features, and whether the
    /// recipe meant it answerable.
    pseudo: Vec<(Features, bool)>,
}

fn corpus_paths(spec: &str) -> (String, PathBuf, PathBuf) {
    let c = PathBuf::from("testdata/corpora");
    match spec {
        "demo" => (
            "demo".into(),
            "testdata/demo".into(),
            "testdata/demo/questions.yaml".into(),
        ),
        "acme" | "requests" | "fd" | "black" | "commander" | "jinja" | "hyperfine" | "click"
        | "just" | "attrs" | "ws" | "marshmallow" | "tenacity" | "loguru" | "ripgrep"
        | "structlog" | "zoxide" | "arrow" | "xh" | "dust" | "httpx" | "cachetools" | "viper"
        | "tqdm" | "tealdeer" | "flask" | "urfave-cli" | "bat" | "werkzeug" | "eza" | "pino" => (
            spec.into(),
            c.join(spec).join("ws"),
            c.join(spec).join("questions.yaml"),
        ),
        // The viper corpus's questions written after its blind set's results were seen.
        "viper/batch2" => (
            spec.into(),
            c.join("viper").join("ws"),
            c.join("viper").join("questions-batch2.yaml"),
        ),
        // `NAME/traces`: the corpus's pasted traces (testdata/traces/README.md).
        other if other.ends_with("/traces") && !other.contains('=') => {
            let name = other.trim_end_matches("/traces");
            (
                other.into(),
                c.join(name).join("ws"),
                c.join(name).join("traces.yaml"),
            )
        }
        other => {
            let (name, rest) = other.split_once('=').unwrap_or((other, other));
            let (ws, q) = rest.split_once(':').unwrap_or((rest, "questions.yaml"));
            (name.into(), ws.into(), q.into())
        }
    }
}

/// One question's confidence features and the meaning signals beside them, as a JSON line
/// appended to QUALITY_DUMP: the data of a study, fit in a script of one's own (the stop-58
/// re-order's weights were chosen from it).
fn dump_question(
    path: &std::ffi::OsStr,
    cx: &Context<'_>,
    index: &Index,
    q: &gate::Question,
    line: serde_json::Value,
) -> Result<(), Box<dyn std::error::Error>> {
    use ontoly_capabilities::retrieval::semantic::{cosine, embed};
    use ontoly_graph::graph::{EdgeKind, NodeKind};
    use std::io::Write;
    let r = rank_with(index, &q.question, &Params::default());
    let Some(qv) = embed(&q.question) else {
        return Err("the semantic table is unavailable".into());
    };
    let cos = |text: &str| embed(text).map_or(0.0, |v| cosine(&qv, &v));
    let article = |id: &str| {
        cx.graph
            .in_edges(id, Some(EdgeKind::Contains))
            .into_iter()
            .filter_map(|e| cx.graph.node(&e.from))
            .find(|n| n.kind == NodeKind::Article)
    };
    let total = r.total_weight();
    let share = |mask: u64| {
        if total > 0.0 {
            r.weight(mask) / total
        } else {
            0.0
        }
    };
    // The cosine of the question with a section's page title and body, as the re-order reads it.
    let text_cos = |id: &str| {
        let title = article(id)
            .and_then(|a| a.metadata.get("title").cloned())
            .unwrap_or_default();
        match cx.graph.text(id).unwrap_or("") {
            "" => 0.0,
            body => cos(&format!("{title}\n{body}")),
        }
    };
    let describe = |s: &Scored| {
        let body = cx.graph.text(&s.id).unwrap_or("");
        let page = article(&s.id);
        let title = page
            .and_then(|a| a.metadata.get("title").cloned())
            .unwrap_or_default();
        let mut page_text = title.clone();
        for e in page.map_or(Vec::new(), |a| {
            cx.graph.out_edges(&a.id, Some(EdgeKind::Contains))
        }) {
            page_text.push('\n');
            page_text.push_str(cx.graph.text(&e.to).unwrap_or(""));
        }
        let sentence = body
            .split(['\n', '.', '?', '!'])
            .filter(|t| t.split_whitespace().count() >= 3)
            .map(cos)
            .fold(0.0, f64::max);
        serde_json::json!({
            "id": s.id,
            "score": s.score,
            "own": s.own,
            "cov": share(s.mask),
            "owncov": share(s.own_mask),
            "cos": text_cos(&s.id),
            "cos_head": cx.graph.node(&s.id).map_or(0.0, |n| cos(&n.name)),
            "cos_sent": sentence,
            "cos_page": cos(&page_text),
        })
    };
    let cands: Vec<serde_json::Value> = r.sections().take(20).map(describe).collect();
    let mut line = line;
    // With QUALITY_DENSE, the cosine of every section of the workspace, and the ten closest the
    // lexical top 20 lacks, described as the candidates are: how far recall by meaning alone
    // would reach, and how far the top section stands out (the stop-59 study).
    if std::env::var_os("QUALITY_DENSE").is_some() {
        let every: Vec<(f64, &str)> = (cx.graph.nodes_of(NodeKind::Section))
            .map(|n| (text_cos(&n.id), n.id.as_str()))
            .collect();
        line["cos_every"] = every.iter().map(|&(c, _)| c).collect::<Vec<_>>().into();
        let lexical: Vec<&str> = r.sections().take(20).map(|s| s.id.as_str()).collect();
        let mut rest: Vec<&(f64, &str)> = every
            .iter()
            .filter(|(_, id)| !lexical.contains(id))
            .collect();
        rest.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        let unranked = |id: &str| Scored {
            id: id.to_string(),
            kind: NodeKind::Section,
            score: 0.0,
            own: 0.0,
            own_mask: 0,
            mask: 0,
            pair_hits: 0,
            via: Vec::new(),
        };
        let dense: Vec<serde_json::Value> = (rest.iter().take(10))
            .map(|&&(_, id)| match r.sections().find(|s| s.id == id) {
                Some(s) => describe(s),
                None => describe(&unranked(id)),
            })
            .collect();
        line["dense"] = dense.into();
    }
    line["trace"] = r.trace.into();
    line["features"] = Features::of(&r).to_array().to_vec().into();
    line["cands"] = cands.into();
    let mut out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    writeln!(out, "{line}")?;
    Ok(())
}

fn answer(spec: &str, verbose: bool) -> Result<Corpus, Box<dyn std::error::Error>> {
    let (name, ws, qfile) = corpus_paths(spec);
    let session = Session::open(SessionOptions::new(std::env::current_dir()?).workspace(ws))?;
    let index = Index::open(&session)?;
    let cx = Context::new(&session, &index)?;
    let questions = parse_questions(&std::fs::read_to_string(&qfile)?)?;
    let articles = gate::article_ids(cx.graph);
    let mut answers = Vec::new();
    let mut asked = Vec::new();
    let mut features = Vec::new();
    for q in &questions {
        let expect: Vec<String> = q
            .expect
            .iter()
            .map(|e| gate::resolve_section(cx.graph, e, &articles).unwrap_or_else(|| e.clone()))
            .collect();
        let p = pack::evidence_pack(&cx, &q.question, None).pack;
        let sections: Vec<&str> = p.top_sections().map(|t| t.node.id.as_str()).collect();
        let rank = sections
            .iter()
            .position(|s| expect.iter().any(|e| e == s))
            .map(|i| i + 1);
        let a = Answer {
            question: q.question.clone(),
            answerable: q.answerable,
            rank,
            score: p.confidence.score,
            level: p.confidence.level,
            top: sections.first().unwrap_or(&"-").to_string(),
        };
        if verbose {
            let mark = match (a.answerable, a.rank) {
                (true, Some(1)) => "top1",
                (true, Some(r)) if r <= 3 => "top3",
                (true, _) => "MISS",
                (false, _) if matches!(a.level, Level::Low | Level::None) => "flag",
                (false, _) => "CONF",
            };
            println!(
                "{name:<9} {mark} {:<6} {:.3} {:<60} -> {}",
                a.level.as_str(),
                a.score,
                a.question,
                a.top
            );
            if std::env::var_os("QUALITY_EXPLAIN").is_some() {
                println!("            {}", p.confidence.explanation);
            }
            if std::env::var_os("QUALITY_FEATURES").is_some() {
                let r = rank_with(&index, &q.question, &Params::default());
                let f = Features::of(&r);
                let terms: Vec<String> = r
                    .terms
                    .iter()
                    .zip(&r.idf)
                    .map(|(t, w)| {
                        format!(
                            "{}{}{}:{w:.1}",
                            t.query.term,
                            t.corrected
                                .as_deref()
                                .map(|c| format!("→{c}"))
                                .unwrap_or_default(),
                            if t.df == 0 { "?" } else { "" }
                        )
                    })
                    .collect();
                let named: Vec<String> = Features::NAMES
                    .iter()
                    .zip(f.to_array())
                    .map(|(n, x)| format!("{n} {x:.4}"))
                    .collect();
                println!("            {} [{}]", named.join(" "), terms.join(" "));
            }
            if mark == "MISS" || mark == "top3" {
                println!("            expected {}", expect.join(" "));
                println!(
                    "            got      {}",
                    sections
                        .iter()
                        .take(4)
                        .copied()
                        .collect::<Vec<_>>()
                        .join(" ")
                );
            }
        }
        if let Some(path) = std::env::var_os("QUALITY_DUMP") {
            let line = serde_json::json!({
                "corpus": name,
                "q": q.question,
                "answerable": q.answerable,
                "expect": expect,
                "rank": rank,
                "score": p.confidence.score,
                "pack": sections,
            });
            dump_question(&path, &cx, &index, q, line)?;
        }
        answers.push(a);
        features.push((
            Features::of(&rank_with(&index, &q.question, &Params::default())),
            q.answerable,
        ));
        if q.answerable && !expect.is_empty() {
            asked.push((q.question.clone(), expect));
        }
    }
    let show = std::env::var_os("QUALITY_PSEUDO").is_some();
    // QUALITY_RECIPE: `mix` (the unanswerable pseudo-questions are words of different pages
    // and words the workspace never uses), `section` or `page` (they are the answerable ones
    // asked of the workspace without the section, or the page, they were drawn from).
    let recipe = std::env::var("QUALITY_RECIPE").unwrap_or_else(|_| "mix".into());
    let mut pseudo = Vec::new();
    for (q, source) in pseudo_questions(cx.graph, &index) {
        let mut r = rank_with(&index, &q, &Params::default());
        let f = Features::of(&r);
        match (&source, recipe.as_str()) {
            (None, "mix") => pseudo.push((f, false)),
            (None, _) => continue,
            (Some(src), _) => {
                pseudo.push((f, true));
                if recipe != "mix" {
                    let page = |id: &str| id.split('#').next().unwrap_or("").to_string();
                    r.nodes.retain(|n| {
                        if recipe == "page" {
                            page(&n.id) != page(src)
                        } else {
                            n.id != *src
                        }
                    });
                    pseudo.push((Features::of(&r), false));
                }
            }
        }
        if show {
            let shown = if source.is_some() && recipe != "mix" {
                2
            } else {
                1
            };
            for (g, a) in &pseudo[pseudo.len() - shown..] {
                println!(
                    "{name:<9} pseudo {} {:.3} {q}",
                    if *a { "pos" } else { "neg" },
                    g.score()
                );
            }
        }
    }
    drop(cx);
    Ok(Corpus {
        name,
        answers,
        index,
        asked,
        features,
        pseudo,
    })
}

/// SplitMix64: a fixed-seed generator, so the pseudo-questions are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
}

/// Pseudo-questions per kind (answerable, unanswerable) per workspace.
const PSEUDO_N: usize = 300;
/// Chance that an answerable pseudo-question has one word swapped for a word the workspace
/// does not use (a paraphrase), and that each word of an unanswerable one is such a word.
/// (`QUALITY_SWAP`, `QUALITY_OOV` override them.)
const PSEUDO_SWAP: f64 = 0.5;
const PSEUDO_OOV: f64 = 0.45;

fn knob(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A workspace's content words in order: letters only, three or more, not stopwords.
fn content_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphabetic())
        .filter(|w| w.chars().count() >= 3)
        .filter(|w| ontoly_capabilities::retrieval::tokens::word_term(w).is_some())
        .map(str::to_lowercase)
        .collect()
}

/// Questions a workspace asks itself, with no labels: "answerable" ones are 3–5 content words
/// read in order from one section (its heading, then a window of its body), one of them
/// sometimes swapped for an English word the workspace never uses; "unanswerable" ones are
/// 3–5 words the workspace uses, each from a section of a different page (never together),
/// each sometimes an English word it never uses. Deterministic (fixed seed, sections by id).
fn pseudo_questions(
    graph: &ontoly_graph::graph::Graph,
    index: &Index,
) -> Vec<(String, Option<String>)> {
    use ontoly_graph::graph::NodeKind;
    let mut sections: Vec<(String, String, Vec<String>)> = graph
        .nodes_of(NodeKind::Section)
        .map(|n| {
            let heading = n
                .metadata
                .get("heading")
                .map_or(n.name.as_str(), String::as_str);
            let mut words = content_words(heading);
            words.extend(content_words(graph.text(&n.id).unwrap_or("")));
            let page = n.id.split('#').next().unwrap_or("").to_string();
            (n.id.clone(), page, words)
        })
        .filter(|s| s.2.len() >= 3)
        .collect();
    sections.sort_by(|a, b| a.0.cmp(&b.0));
    let list = std::fs::read_to_string("capabilities/data/english-words.txt").unwrap_or_default();
    let oov: Vec<&str> = list
        .lines()
        .filter(|l| {
            !l.starts_with('#') && l.len() >= 4 && l.chars().all(|c| c.is_ascii_lowercase())
        })
        .filter(|w| {
            ontoly_capabilities::retrieval::tokens::word_term(w).is_some_and(|t| index.df(&t) == 0)
        })
        .collect();
    let mut pages: Vec<&str> = sections.iter().map(|s| s.1.as_str()).collect();
    pages.dedup();
    let mut out = Vec::new();
    if sections.is_empty() || oov.is_empty() {
        return out;
    }
    let mut rng = Rng(0x5EED_0001);
    for _ in 0..PSEUDO_N {
        let (id, _, s) = &sections[rng.below(sections.len())];
        let k = 3 + rng.below(3);
        // The heading (first words) or a window of the body.
        let start = if rng.chance(0.5) {
            0
        } else {
            rng.below(s.len())
        };
        let mut q: Vec<&str> = Vec::new();
        for w in s[start..].iter().chain(s.iter()) {
            if q.len() == k {
                break;
            }
            if !q.contains(&w.as_str()) {
                q.push(w);
            }
        }
        if rng.chance(knob("QUALITY_SWAP", PSEUDO_SWAP)) {
            let i = rng.below(q.len());
            q[i] = oov[rng.below(oov.len())];
        }
        out.push((q.join(" "), Some(id.clone())));
    }
    for _ in 0..PSEUDO_N {
        let k = 3 + rng.below(3);
        let mut used: Vec<&str> = Vec::new();
        let mut q: Vec<&str> = Vec::new();
        for _ in 0..50 {
            if q.len() == k {
                break;
            }
            if rng.chance(knob("QUALITY_OOV", PSEUDO_OOV)) {
                q.push(oov[rng.below(oov.len())]);
                continue;
            }
            let (_, page, words) = &sections[rng.below(sections.len())];
            if used.contains(&page.as_str()) && used.len() < pages.len() {
                continue;
            }
            used.push(page);
            let w = words[rng.below(words.len())].as_str();
            if !q.contains(&w) {
                q.push(w);
            }
        }
        out.push((q.join(" "), None));
    }
    out
}

/// Logistic regression by batch gradient descent (deterministic), with a small L2 penalty.
fn fit_logistic(data: &[(Features, bool)]) -> ([f64; N_FEATURES], f64) {
    // The shipped model's features, or QUALITY_MASK=101...: the features whose digit is 1
    // (for comparing models).
    let keep: Vec<bool> = std::env::var("QUALITY_MASK")
        .map(|m| m.chars().map(|c| c == '1').collect())
        .unwrap_or_else(|_| WEIGHTS.iter().map(|w| *w != 0.0).collect());
    let n = data.len().max(1) as f64;
    // Standardized features (z-scores on the fitting data) when QUALITY_STANDARDIZE is set, so
    // the L2 penalty weighs every feature alike whatever its range.
    let standardize = std::env::var_os("QUALITY_STANDARDIZE").is_some();
    let mut mean = [0.0; N_FEATURES];
    let mut sd = [1.0; N_FEATURES];
    if standardize {
        for i in 0..N_FEATURES {
            let m = data.iter().map(|(f, _)| f.to_array()[i]).sum::<f64>() / n;
            let v = data
                .iter()
                .map(|(f, _)| (f.to_array()[i] - m).powi(2))
                .sum::<f64>()
                / n;
            mean[i] = m;
            sd[i] = if v > 1e-12 { v.sqrt() } else { 1.0 };
        }
    }
    let z = |f: &Features| -> [f64; N_FEATURES] {
        let a = f.to_array();
        std::array::from_fn(|i| (a[i] - mean[i]) / sd[i])
    };
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    let mut w = [0.0; N_FEATURES];
    let mut b = 0.0;
    let lambda = 0.01;
    for _ in 0..20000 {
        let mut gw = [0.0; N_FEATURES];
        let mut gb = 0.0;
        for (f, y) in data {
            let x = z(f);
            let p = sigmoid(b + w.iter().zip(x).map(|(wi, xi)| wi * xi).sum::<f64>());
            let e = p - f64::from(u8::from(*y));
            for (g, xi) in gw.iter_mut().zip(x) {
                *g += e * xi;
            }
            gb += e;
        }
        for (i, (wi, g)) in w.iter_mut().zip(gw).enumerate() {
            if keep.get(i).copied().unwrap_or(true) {
                *wi -= 1.0 * (g / n + lambda * *wi);
            }
        }
        b -= 1.0 * gb / n;
    }
    // Back to the raw features' scale.
    let raw: [f64; N_FEATURES] = std::array::from_fn(|i| w[i] / sd[i]);
    let bias = b - (0..N_FEATURES).map(|i| w[i] * mean[i] / sd[i]).sum::<f64>();
    (raw, bias)
}

fn auc_of(scores: &[(f64, bool)]) -> f64 {
    let pos: Vec<f64> = scores.iter().filter(|s| s.1).map(|s| s.0).collect();
    let neg: Vec<f64> = scores.iter().filter(|s| !s.1).map(|s| s.0).collect();
    let mut wins = 0.0;
    for p in &pos {
        for n in &neg {
            wins += if p > n {
                1.0
            } else if p == n {
                0.5
            } else {
                0.0
            };
        }
    }
    wins / (pos.len() * neg.len()).max(1) as f64
}

/// The lowest threshold that flags (score < t) at least 90 % of the unanswerable questions,
/// halfway to the next score above.
fn threshold_90(scores: &[(f64, bool)]) -> f64 {
    let mut un: Vec<f64> = scores.iter().filter(|s| !s.1).map(|s| s.0).collect();
    un.sort_by(f64::total_cmp);
    if un.is_empty() {
        return 0.0;
    }
    let at = un[(un.len() * 9).div_ceil(10) - 1];
    let next = scores
        .iter()
        .map(|s| s.0)
        .filter(|s| *s > at)
        .fold(f64::INFINITY, f64::min);
    if next.is_finite() {
        (at + next) / 2.0
    } else {
        at + 1e-6
    }
}

fn rates_at(scores: &[(f64, bool)], t: f64) -> (f64, f64) {
    let un = scores.iter().filter(|s| !s.1).count();
    let an = scores.len() - un;
    let unf = scores.iter().filter(|s| !s.1 && s.0 < t).count();
    let anf = scores.iter().filter(|s| s.1 && s.0 < t).count();
    (rate(unf, un), rate(anf, an))
}

fn fit_confidence(corpora: &[Corpus]) {
    println!("\nsingle-feature AUC (answerable vs unanswerable):");
    print!("{:<9}", "corpus");
    for n in Features::NAMES {
        print!(" {n:>9}");
    }
    println!();
    for c in corpora {
        print!("{:<9}", c.name);
        for i in 0..N_FEATURES {
            let s: Vec<(f64, bool)> = c
                .features
                .iter()
                .map(|(f, y)| (f.to_array()[i], *y))
                .collect();
            print!(" {:>9.3}", auc_of(&s));
        }
        println!();
    }
    println!("\nconfidence model fit on X (logistic; threshold flags >= 90% of X's unanswerable), applied to Y:");
    let shipped = (WEIGHTS, BIAS);
    let mut fits: Vec<(String, [f64; N_FEATURES], f64)> = corpora
        .iter()
        .map(|c| {
            let (w, b) = fit_logistic(&c.features);
            (c.name.clone(), w, b)
        })
        .collect();
    fits.push(("shipped".into(), shipped.0, shipped.1));
    for (name, w, b) in &fits {
        let fmt: Vec<String> = w.iter().map(|x| format!("{x:.2}")).collect();
        let fx = corpora.iter().find(|c| c.name == *name);
        let t = match fx {
            Some(c) => threshold_90(
                &c.features
                    .iter()
                    .map(|(f, y)| (score_with(w, *b, f), *y))
                    .collect::<Vec<_>>(),
            ),
            None => LOW,
        };
        println!(
            "fit {name:<9} weights [{}] bias {b:.2} threshold {t:.4}",
            fmt.join(", ")
        );
        for y in corpora {
            let s: Vec<(f64, bool)> = y
                .features
                .iter()
                .map(|(f, a)| (score_with(w, *b, f), *a))
                .collect();
            let (fl, fa) = rates_at(&s, t);
            println!(
                "    test {:<9} flagged {:.2} false alarms {:.2} AUC {:.3}{}",
                y.name,
                fl,
                fa,
                auc_of(&s),
                if *name == y.name { "  in-sample" } else { "" }
            );
        }
    }
}

/// Leave one corpus out: the model and its threshold fit on all the other corpora together
/// (pooled; the threshold flags >= 90 % of their unanswerable questions, or >= 90 % of each
/// one's: the strictest), tested on the corpus left out.
fn leave_one_out(corpora: &[Corpus]) {
    println!("\nleave one corpus out (fit on the others pooled, test on the one left out):");
    for y in corpora {
        let pooled: Vec<(Features, bool)> = corpora
            .iter()
            .filter(|c| c.name != y.name)
            .flat_map(|c| c.features.iter().copied())
            .collect();
        let (w, b) = fit_logistic(&pooled);
        let scored = |data: &[(Features, bool)]| -> Vec<(f64, bool)> {
            data.iter()
                .map(|(f, a)| (score_with(&w, b, f), *a))
                .collect()
        };
        let t_pooled = threshold_90(&scored(&pooled));
        let t_each = corpora
            .iter()
            .filter(|c| c.name != y.name)
            .map(|c| threshold_90(&scored(&c.features)))
            .fold(0.0f64, f64::max);
        let test = scored(&y.features);
        let fmt: Vec<String> = w.iter().map(|x| format!("{x:.2}")).collect();
        println!(
            "test {:<9} weights [{}] bias {b:.2}",
            y.name,
            fmt.join(", ")
        );
        for (how, t) in [("pooled", t_pooled), ("each", t_each)] {
            let (fl, fa) = rates_at(&test, t);
            println!(
                "    threshold {how:<6} {t:.4}: flagged {fl:.2} false alarms {fa:.2} AUC {:.3}",
                auc_of(&test)
            );
        }
    }
}

fn logit(p: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    (p / (1.0 - p)).ln()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The value below which a share `q` of `xs` lies (halfway between neighbours).
fn quantile(xs: &[f64], q: f64) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return 0.0;
    }
    let k = ((q * v.len() as f64).round() as usize).min(v.len());
    match k {
        0 => v[0] - 1e-6,
        k if k == v.len() => v[k - 1] + 1e-6,
        // + 0.0: a median of zeros prints as 0.00, not -0.00.
        k => (v[k - 1] + v[k]) / 2.0 + 0.0,
    }
}

fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len().max(1) as f64;
    let m = xs.iter().sum::<f64>() / n;
    let v = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / n;
    (m, if v > 1e-12 { v.sqrt() } else { 1.0 })
}

/// The four shipped features as z-scores against the workspace's own pseudo-questions
/// (`against`: the unanswerable ones only, or both kinds).
fn normalised(c: &Corpus, both: bool) -> Vec<(Features, bool)> {
    let null: Vec<[f64; N_FEATURES]> = c
        .pseudo
        .iter()
        .filter(|(_, a)| both || !*a)
        .map(|(f, _)| f.to_array())
        .collect();
    let stats: Vec<(f64, f64)> = (0..N_FEATURES)
        .map(|i| mean_sd(&null.iter().map(|a| a[i]).collect::<Vec<_>>()))
        .collect();
    let z = |i: usize, x: f64| (x - stats[i].0) / stats[i].1;
    c.features
        .iter()
        .map(|(f, a)| {
            let mut g = *f;
            g.coverage = z(0, f.coverage);
            g.unknown = z(3, f.unknown);
            g.strength = z(4, f.strength);
            g.prox = z(10, f.prox);
            (g, *a)
        })
        .collect()
}

/// Calibration of each workspace against itself (`--calibrate`): the shipped score of the
/// workspace's own pseudo-questions sets its threshold, or normalises its features.
fn calibrate(corpora: &[Corpus]) {
    let shipped = |f: &Features| f.score();
    println!("\npseudo-questions ({PSEUDO_N} + {PSEUDO_N} per workspace), shipped score:");
    println!(
        "{:<9} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "corpus", "p-pos", "p-neg", "real-pos", "real-neg", "p-AUC", "p-neg<t", "real<t"
    );
    for c in corpora {
        let med = |xs: Vec<f64>| quantile(&xs, 0.5);
        let pp: Vec<f64> = c
            .pseudo
            .iter()
            .filter(|x| x.1)
            .map(|x| shipped(&x.0))
            .collect();
        let pn: Vec<f64> = c
            .pseudo
            .iter()
            .filter(|x| !x.1)
            .map(|x| shipped(&x.0))
            .collect();
        let rp: Vec<f64> = c
            .features
            .iter()
            .filter(|x| x.1)
            .map(|x| shipped(&x.0))
            .collect();
        let rn: Vec<f64> = c
            .features
            .iter()
            .filter(|x| !x.1)
            .map(|x| shipped(&x.0))
            .collect();
        let ps: Vec<(f64, bool)> = c.pseudo.iter().map(|(f, a)| (shipped(f), *a)).collect();
        let below = |xs: &[f64]| rate(xs.iter().filter(|x| **x < LOW).count(), xs.len());
        println!(
            "{:<9} {:>8.3} {:>8.3} {:>8.3} {:>8.3} {:>8.3} {:>8.2} {:>8.2}",
            c.name,
            med(pp.clone()),
            med(pn.clone()),
            med(rp),
            med(rn.clone()),
            auc_of(&ps),
            below(&pn),
            below(&rn)
        );
    }
    println!("\nmedian features (coverage, unknown, strength, prox): real answerable | real unanswerable | pseudo answerable | pseudo unanswerable");
    for c in corpora {
        let med = |d: &[(Features, bool)], a: bool| -> String {
            let v: Vec<String> = [0, 3, 4, 10]
                .iter()
                .map(|&i| {
                    let xs: Vec<f64> = d
                        .iter()
                        .filter(|x| x.1 == a)
                        .map(|x| x.0.to_array()[i])
                        .collect();
                    format!("{:.2}", quantile(&xs, 0.5))
                })
                .collect();
            v.join(" ")
        };
        println!(
            "{:<9} {} | {} | {} | {}",
            c.name,
            med(&c.features, true),
            med(&c.features, false),
            med(&c.pseudo, true),
            med(&c.pseudo, false)
        );
    }
    for x in corpora
        .iter()
        .filter(|c| c.name == "requests" || c.name == "fd")
    {
        let real = |c: &Corpus| -> Vec<(f64, bool)> {
            c.features.iter().map(|(f, a)| (shipped(f), *a)).collect()
        };
        let pneg = |c: &Corpus| -> Vec<f64> {
            c.pseudo
                .iter()
                .filter(|p| !p.1)
                .map(|p| shipped(&p.0))
                .collect()
        };
        let ppos = |c: &Corpus| -> Vec<f64> {
            c.pseudo
                .iter()
                .filter(|p| p.1)
                .map(|p| shipped(&p.0))
                .collect()
        };
        let tx = threshold_90(&real(x));
        // (a) the share of X's pseudo-unanswerable questions below X's threshold.
        let nx = pneg(x);
        let q = rate(nx.iter().filter(|s| **s < tx).count(), nx.len());
        // (a') X's threshold between its pseudo-unanswerable and pseudo-answerable means, in
        // logits.
        let ml = |xs: Vec<f64>| mean_sd(&xs.into_iter().map(logit).collect::<Vec<_>>()).0;
        let alpha = (logit(tx) - ml(nx.clone())) / (ml(ppos(x)) - ml(nx.clone()));
        println!(
            "\nfit {} (shipped model): threshold {tx:.4}; pseudo-unanswerable quantile q {q:.3}; alpha {alpha:.3}",
            x.name
        );
        println!(
            "    {:<9} {:>20} {:>26} {:>26}",
            "test", "X's threshold", "(a) quantile q", "(a') alpha"
        );
        for y in corpora {
            let ty = quantile(&pneg(y), q);
            let ta = sigmoid(ml(pneg(y)) + alpha * (ml(ppos(y)) - ml(pneg(y))));
            let r = real(y);
            let (f0, a0) = rates_at(&r, tx);
            let (f1, a1) = rates_at(&r, ty);
            let (f2, a2) = rates_at(&r, ta);
            println!(
                "    {:<9} {tx:.3}: {f0:.2} / {a0:.2}   {ty:.3}: {f1:.2} / {a1:.2}        {ta:.3}: {f2:.2} / {a2:.2}{}",
                y.name,
                if x.name == y.name { "  in-sample" } else { "" }
            );
        }
        // (b) features as z-scores against the workspace's pseudo-questions, refit on X.
        for (how, both) in [("pseudo-unanswerable", false), ("all pseudo", true)] {
            let nxf = normalised(x, both);
            let (w, b) = fit_logistic(&nxf);
            let sc = |d: &[(Features, bool)]| -> Vec<(f64, bool)> {
                d.iter().map(|(f, a)| (score_with(&w, b, f), *a)).collect()
            };
            let t = threshold_90(&sc(&nxf));
            let fmt: Vec<String> = [0, 3, 4, 10]
                .iter()
                .map(|&i| format!("{:.2}", w[i]))
                .collect();
            println!(
                "  (b) z against {how}, fit on {}: weights (cov, unk, str, prox) [{}] bias {b:.2} threshold {t:.4}",
                x.name,
                fmt.join(", ")
            );
            for y in corpora {
                let s = sc(&normalised(y, both));
                let (fl, fa) = rates_at(&s, t);
                println!(
                    "    {:<9} flagged {fl:.2} false alarms {fa:.2} AUC {:.3}{}",
                    y.name,
                    auc_of(&s),
                    if x.name == y.name { "  in-sample" } else { "" }
                );
            }
        }
    }
}

/// Top-1 and top-3 of the section ranking alone under `p`.
fn retrieval(c: &Corpus, p: &Params) -> (f64, f64) {
    let (mut t1, mut t3) = (0, 0);
    for (q, expect) in &c.asked {
        let r = rank_with(&c.index, q, p);
        let pos = r.sections().take(3).position(|s| expect.contains(&s.id));
        t1 += usize::from(pos == Some(0));
        t3 += usize::from(pos.is_some());
    }
    (rate(t1, c.asked.len()), rate(t3, c.asked.len()))
}

/// Every combination of the given values (k1; weights of heading, section id, article, cited
/// names; pair weight), body weight 1 and b at the shipped values.
fn product(k1s: &[f64], wh: &[f64], ws: &[f64], wa: &[f64], wc: &[f64], pw: &[f64]) -> Vec<Params> {
    let b = Params::default().b;
    let mut out = Vec::new();
    for &k1 in k1s {
        for &h in wh {
            for &s in ws {
                for &a in wa {
                    for &c in wc {
                        for &pair_weight in pw {
                            out.push(Params {
                                k1,
                                b,
                                weight: [h, s, 1.0, a, c],
                                pair_weight,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

/// Every parameter set of the grid searched when fitting retrieval.
fn grid() -> Vec<Params> {
    let w = [0.0, 0.3, 0.7];
    product(
        &[0.8, 1.2, 1.8],
        &[1.0, 2.0, 3.5],
        &[0.0, 1.0, 2.0],
        &w,
        &w,
        &[0.0, 0.5, 1.0],
    )
}

fn fit_retrieval(corpora: &[Corpus]) {
    let g = grid();
    println!(
        "\nretrieval parameters fit on X (best top-1 + top-3 over {} sets), applied to Y:",
        g.len()
    );
    let scores: Vec<Vec<(f64, f64)>> = corpora
        .iter()
        .map(|c| g.iter().map(|p| retrieval(c, p)).collect())
        .collect();
    let shipped: Vec<(f64, f64)> = corpora
        .iter()
        .map(|c| retrieval(c, &Params::default()))
        .collect();
    for (xi, x) in corpora.iter().enumerate() {
        let best = (0..g.len())
            .max_by(|&a, &b| {
                let (sa, sb) = (scores[xi][a], scores[xi][b]);
                (sa.0 + sa.1).total_cmp(&(sb.0 + sb.1)).then(b.cmp(&a))
            })
            .unwrap_or(0);
        println!("fit {:<9} {:?}", x.name, g[best]);
        for (yi, y) in corpora.iter().enumerate() {
            let (t1, t3) = scores[yi][best];
            println!(
                "    test {:<9} top1 {:.2} top3 {:.2}   (shipped {:.2} {:.2}){}",
                y.name,
                t1,
                t3,
                shipped[yi].0,
                shipped[yi].1,
                if xi == yi { "  in-sample" } else { "" }
            );
        }
    }
}

/// The coarse grid of `--cv`: every combination of these values (b fixed at the shipped
/// values), 216 sets, and the shipped set when it is not one of them (since stop 22, k1 2.5).
/// `QUALITY_CV_GRID=fit`: the 729-set grid of `--fit` and the shipped set.
fn cv_grid() -> Vec<Params> {
    let d = Params::default();
    let mut g = if std::env::var("QUALITY_CV_GRID").is_ok_and(|g| g == "fit") {
        grid()
    } else {
        product(
            &[0.8, 1.2, 1.8],
            &[1.5, 2.5, 3.5],
            &[0.0, 1.5],
            &[0.3, 0.6],
            &[0.0, 0.5],
            &[0.25, 0.5, 1.0],
        )
    };
    // The "shipped" rows are found by position: the shipped set must be in the grid.
    if !g.contains(&d) {
        g.push(d);
    }
    g
}

/// The position of the shipped parameters in `grid` (every grid holds them).
fn shipped_in(grid: &[Params]) -> usize {
    grid.iter()
        .position(|p| *p == Params::default())
        .unwrap_or(0)
}

/// `run` for every corpus under every parameter set of `grid`: `[corpus][set]`.
fn grid_runs<T>(
    corpora: &[Corpus],
    grid: &[Params],
    run: fn(&Corpus, &Params) -> T,
) -> Vec<Vec<T>> {
    corpora
        .iter()
        .map(|c| grid.iter().map(|p| run(c, p)).collect())
        .collect()
}

/// One question under one parameter set: the 1-based rank (within the first three sections)
/// of an expected section, its confidence features, whether it is answerable.
type Run = Vec<(Option<usize>, Features, bool)>;

fn run_params(c: &Corpus, p: &Params) -> Run {
    c.answers
        .iter()
        .map(|a| {
            let r = rank_with(&c.index, &a.question, p);
            (
                expected_rank(c, &a.question, &r),
                Features::of(&r),
                a.answerable,
            )
        })
        .collect()
}

/// The 1-based rank, within the first three sections of `r`, of a section `question` expects.
fn expected_rank(c: &Corpus, question: &str, r: &Ranking) -> Option<usize> {
    let expect = &c.asked.iter().find(|(q, _)| q == question)?.1;
    r.sections()
        .take(3)
        .position(|s| expect.contains(&s.id))
        .map(|i| i + 1)
}

/// Top-1, top-3 (over every answerable question), flagged, false alarms under a model and
/// threshold, and the model's AUC.
fn cv_figures(run: &Run, w: &[f64; N_FEATURES], b: f64, t: f64) -> [f64; 5] {
    let ans = run.iter().filter(|x| x.2).count();
    let t1 = run.iter().filter(|x| x.2 && x.0 == Some(1)).count();
    let t3 = run.iter().filter(|x| x.2 && x.0.is_some()).count();
    let scores: Vec<(f64, bool)> = run
        .iter()
        .map(|(_, f, a)| (round4(score_with(w, b, f)), *a))
        .collect();
    let (fl, fa) = rates_at(&scores, t);
    [rate(t1, ans), rate(t3, ans), fl, fa, auc_of(&scores)]
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// A fitted configuration: retrieval parameters, confidence weights, bias and threshold.
#[derive(Clone, Copy)]
struct Config {
    params: usize,
    w: [f64; N_FEATURES],
    b: f64,
    t: f64,
    /// The threshold that flags as many of the fitting corpora's unanswerable questions as
    /// the shipped configuration does (its operating point, for comparison).
    t_shipped: f64,
}

/// Fit on `fit` (indices into `corpora`) with per-corpus weights `cw`: the grid's parameters
/// with the best weighted mean of top-1 + top-3 (ties: nearest the shipped), then the logistic
/// model on the pooled questions at those parameters (a corpus of weight k counted k times,
/// rounded to questions) and the lowest threshold flagging >= 90 % of the pooled unanswerable.
fn cv_fit(runs: &[Vec<Run>], grid: &[Params], fit: &[usize], cw: &[f64]) -> Config {
    let objective = |gi: usize| -> f64 {
        let mut s = 0.0;
        let mut n = 0.0;
        for (&ci, &w) in fit.iter().zip(cw) {
            let f = cv_figures(&runs[ci][gi], &WEIGHTS, BIAS, LOW);
            s += w * (f[0] + f[1]);
            n += w;
        }
        s / n
    };
    let best = (0..grid.len())
        .max_by(|&a, &b| {
            objective(a)
                .total_cmp(&objective(b))
                .then(dist_shipped(&grid[b]).total_cmp(&dist_shipped(&grid[a])))
        })
        .unwrap_or(0);
    let sizes: Vec<usize> = fit.iter().map(|&ci| runs[ci][best].len()).collect();
    let mean_size = sizes.iter().sum::<usize>() as f64 / sizes.len().max(1) as f64;
    let shipped_gi = shipped_in(grid);
    let mut pooled: Vec<(Features, bool)> = Vec::new();
    // The unanswerable questions of the same pool the shipped configuration flags.
    let mut shipped_flags = 0;
    for ((&ci, &w), n) in fit.iter().zip(cw).zip(&sizes) {
        // Copies of the corpus so that it weighs w mean-sized corpora.
        let copies = ((w * mean_size / *n as f64).round() as usize).max(1);
        for _ in 0..copies {
            pooled.extend(runs[ci][best].iter().map(|(_, f, a)| (*f, *a)));
            shipped_flags += runs[ci][shipped_gi]
                .iter()
                .filter(|(_, f, a)| !a && round4(score_with(&WEIGHTS, BIAS, f)) < LOW)
                .count();
        }
    }
    let (w, b) = fit_logistic(&pooled);
    let scored: Vec<(f64, bool)> = pooled
        .iter()
        .map(|(f, a)| (round4(score_with(&w, b, f)), *a))
        .collect();
    Config {
        params: best,
        w,
        b,
        t: threshold_90(&scored),
        t_shipped: threshold_flagging(&scored, shipped_flags),
    }
}

/// The lowest threshold that flags (score < t) at least `k` of the unanswerable questions,
/// halfway to the next score above.
fn threshold_flagging(scores: &[(f64, bool)], k: usize) -> f64 {
    let mut un: Vec<f64> = scores.iter().filter(|s| !s.1).map(|s| s.0).collect();
    un.sort_by(f64::total_cmp);
    if un.is_empty() || k == 0 {
        return un.first().map_or(0.0, |s| s - 1e-6);
    }
    let at = un[k.min(un.len()) - 1];
    let next = scores
        .iter()
        .map(|s| s.0)
        .filter(|s| *s > at)
        .fold(f64::INFINITY, f64::min);
    if next.is_finite() {
        (at + next) / 2.0
    } else {
        at + 1e-6
    }
}

fn show_config(name: &str, grid: &[Params], c: &Config) {
    let p = &grid[c.params];
    let w: Vec<String> = [0, 3, 4, 10]
        .iter()
        .map(|&i| format!("{:.2}", c.w[i]))
        .collect();
    println!(
        "  {name:<22} k1 {} weights {:?} pairs {} | conf (cov, unk, str, prox) [{}] bias {:.2} threshold {:.4}",
        p.k1,
        p.weight,
        p.pair_weight,
        w.join(", "),
        c.b,
        c.t
    );
}

fn fmt4(f: &[f64; 5]) -> String {
    format!(
        "{:.2} / {:.2} / {:.2} / {:.2}  AUC {:.3}",
        f[0], f[1], f[2], f[3], f[4]
    )
}

/// `--cv`: retrieval parameters and confidence model fit together, leaving one corpus out.
fn cross_validate(corpora: &[Corpus]) {
    let grid = cv_grid();
    let shipped_gi = shipped_in(&grid);
    eprintln!(
        "--cv: {} parameter sets x {} corpora",
        grid.len(),
        corpora.len()
    );
    let runs: Vec<Vec<Run>> = grid_runs(corpora, &grid, run_params);
    let n = corpora.len();
    let blind = |i: usize| corpora[i].name == "commander";
    let variants: [(&str, bool); 2] = [("equal", false), ("commander x others", true)];
    println!(
        "\nleave one corpus out, retrieval parameters ({} sets) and confidence fit together on the others; top-1 / top-3 / flagged / false alarms on the one left out (rankings alone):",
        grid.len()
    );
    let mut sums: Vec<[f64; 5]> = vec![[0.0; 5]; 7];
    let mut fold_fits: Vec<Vec<Config>> = vec![Vec::new(); 2];
    for test in 0..n {
        let fit: Vec<usize> = (0..n).filter(|&i| i != test).collect();
        println!("test {}", corpora[test].name);
        let s = cv_figures(&runs[test][shipped_gi], &WEIGHTS, BIAS, LOW);
        println!("    {:<34} {}", "shipped", fmt4(&s));
        let mut pooled = Vec::new();
        for &ci in &fit {
            pooled.extend(runs[ci][shipped_gi].iter().map(|(_, f, a)| (*f, *a)));
        }
        // The shipped model with its threshold set by the rule on the others pooled.
        let t_rule = threshold_90(
            &pooled
                .iter()
                .map(|(f, a)| (round4(score_with(&WEIGHTS, BIAS, f)), *a))
                .collect::<Vec<_>>(),
        );
        let r = cv_figures(&runs[test][shipped_gi], &WEIGHTS, BIAS, t_rule);
        println!(
            "    {:<34} {}",
            format!("shipped, threshold {t_rule:.4} by rule"),
            fmt4(&r)
        );
        // The shipped parameters with only the confidence refit on the others.
        let only_conf = {
            let (w, b) = fit_logistic(&pooled);
            let sc: Vec<(f64, bool)> = pooled
                .iter()
                .map(|(f, a)| (round4(score_with(&w, b, f)), *a))
                .collect();
            Config {
                params: shipped_gi,
                w,
                b,
                t: threshold_90(&sc),
                t_shipped: LOW,
            }
        };
        let c = cv_figures(
            &runs[test][only_conf.params],
            &only_conf.w,
            only_conf.b,
            only_conf.t,
        );
        println!(
            "    {:<34} {}",
            "shipped params, confidence refit",
            fmt4(&c)
        );
        for (k, x) in [s, r, c].iter().enumerate() {
            for j in 0..5 {
                sums[k][j] += x[j];
            }
        }
        for (vi, (name, weighted)) in variants.iter().enumerate() {
            let cw: Vec<f64> = fit
                .iter()
                .map(|&i| {
                    if *weighted && blind(i) {
                        (fit.len() - 1) as f64
                    } else {
                        1.0
                    }
                })
                .collect();
            let cfg = cv_fit(&runs, &grid, &fit, &cw);
            let f = cv_figures(&runs[test][cfg.params], &cfg.w, cfg.b, cfg.t);
            println!("    {:<34} {}", format!("refit, {name}"), fmt4(&f));
            let g = cv_figures(&runs[test][cfg.params], &cfg.w, cfg.b, cfg.t_shipped);
            println!(
                "    {:<34} {}",
                format!("  at shipped point {:.4}", cfg.t_shipped),
                fmt4(&g)
            );
            show_config("", &grid, &cfg);
            for j in 0..5 {
                sums[3 + 2 * vi][j] += f[j];
                sums[4 + 2 * vi][j] += g[j];
            }
            fold_fits[vi].push(cfg);
        }
    }
    println!("mean over the {n} folds:");
    for (k, name) in [
        "shipped",
        "shipped, threshold by rule",
        "shipped params, confidence refit",
        "refit, equal",
        "  at shipped point",
        "refit, commander x others",
        "  at shipped point",
    ]
    .iter()
    .enumerate()
    {
        let m: [f64; 5] = std::array::from_fn(|j| sums[k][j] / n as f64);
        println!("    {name:<34} {}", fmt4(&m));
    }
    // Fixed configurations from the whole of the five (in-sample on every corpus).
    println!("\nfit on all {n} (in-sample), top-1 / top-3 / flagged / false alarms:");
    let all: Vec<usize> = (0..n).collect();
    for (name, weighted) in variants {
        let cw: Vec<f64> = all
            .iter()
            .map(|&i| {
                if weighted && blind(i) {
                    (n - 1) as f64
                } else {
                    1.0
                }
            })
            .collect();
        let cfg = cv_fit(&runs, &grid, &all, &cw);
        show_config(name, &grid, &cfg);
        for (ci, c) in corpora.iter().enumerate() {
            let f = cv_figures(&runs[ci][cfg.params], &cfg.w, cfg.b, cfg.t);
            let s = cv_figures(&runs[ci][shipped_gi], &WEIGHTS, BIAS, LOW);
            println!("    {:<9} {}   (shipped {})", c.name, fmt4(&f), fmt4(&s));
        }
    }
}

/// One question of `--fit-on` / `--test-on` under one parameter set: the 1-based rank (within
/// the first three sections) of an expected section, the confidence features, whether it is
/// answerable, and whether any section matched (the pack's level is `none`, flagged whatever
/// the model says, when none did).
type BlindRun = Vec<(Option<usize>, Features, bool, bool)>;

fn blind_run(c: &Corpus, p: &Params) -> BlindRun {
    c.answers
        .iter()
        .map(|a| {
            let r = rank_with(&c.index, &a.question, p);
            let rank = expected_rank(c, &a.question, &r);
            let matched = r.sections().next().is_some();
            (rank, Features::of(&r), a.answerable, matched)
        })
        .collect()
}

/// The grid of `--fit-on`: 960 sets, every combination of these values (body 1, b at the
/// shipped values). It holds the shipped set and a plain-BM25-like one (heading 1, section id,
/// article and cited names 0, no pairs), and heading weights below the section id's.
fn blind_grid() -> Vec<Params> {
    let mut g = product(
        &[0.8, 1.2, 1.8, 2.5],
        &[0.5, 1.0, 1.5, 2.5, 3.5],
        &[0.0, 1.5],
        &[0.0, 0.3, 0.6],
        &[0.0, 0.5],
        &[0.0, 0.25, 0.5, 1.0],
    );
    if !g.contains(&Params::default()) {
        g.push(Params::default());
    }
    g
}

/// Counts over a set of questions: answerable, top-1, top-3, unanswerable, flagged, false
/// alarms; and the (score, answerable) pairs for the AUC.
#[derive(Default, Clone)]
struct Tally {
    ans: usize,
    top1: usize,
    top3: usize,
    un: usize,
    flagged: usize,
    false_alarms: usize,
    scores: Vec<(f64, bool)>,
}

impl Tally {
    /// Adds a run's questions, scored by `(w, b)` (rounded to four places as the pack does;
    /// 0 when nothing matched) against threshold `t`.
    fn add(&mut self, run: &BlindRun, w: &[f64; N_FEATURES], b: f64, t: f64) {
        for (rank, f, answerable, matched) in run {
            let s = if *matched {
                round4(score_with(w, b, f))
            } else {
                0.0
            };
            self.scores.push((s, *answerable));
            if *answerable {
                self.ans += 1;
                self.top1 += usize::from(*rank == Some(1));
                self.top3 += usize::from(rank.is_some());
                self.false_alarms += usize::from(s < t);
            } else {
                self.un += 1;
                self.flagged += usize::from(s < t);
            }
        }
    }

    fn of(run: &BlindRun, w: &[f64; N_FEATURES], b: f64, t: f64) -> Tally {
        let mut x = Tally::default();
        x.add(run, w, b, t);
        x
    }

    fn merge(&mut self, o: &Tally) {
        self.ans += o.ans;
        self.top1 += o.top1;
        self.top3 += o.top3;
        self.un += o.un;
        self.flagged += o.flagged;
        self.false_alarms += o.false_alarms;
        self.scores.extend_from_slice(&o.scores);
    }

    fn show(&self) -> String {
        format!(
            "top1 {:>3}/{:<3} {:.3}  top3 {:>3}/{:<3} {:.3}  flagged {:>3}/{:<3} {:.3}  false alarms {:>3}/{:<3} {:.3}  AUC {:.3}",
            self.top1,
            self.ans,
            rate(self.top1, self.ans),
            self.top3,
            self.ans,
            rate(self.top3, self.ans),
            self.flagged,
            self.un,
            rate(self.flagged, self.un),
            self.false_alarms,
            self.ans,
            rate(self.false_alarms, self.ans),
            auc_of(&self.scores)
        )
    }
}

/// L1 distance of a parameter set to the shipped one (the tie-break of every fit).
fn dist_shipped(p: &Params) -> f64 {
    let d = Params::default();
    (p.k1 - d.k1).abs()
        + (p.pair_weight - d.pair_weight).abs()
        + p.weight
            .iter()
            .zip(d.weight)
            .map(|(a, b)| (a - b).abs())
            .sum::<f64>()
}

/// The grid's sets by top-1 + top-3 answered over the `fit` corpora pooled (counts of
/// questions), best first; ties by distance to the shipped set, then grid order.
fn blind_order(runs: &[Vec<BlindRun>], grid: &[Params], fit: &[usize]) -> Vec<(usize, usize)> {
    let mut order: Vec<(usize, usize)> = (0..grid.len())
        .map(|gi| {
            let n: usize = fit
                .iter()
                .map(|&ci| {
                    let t = Tally::of(&runs[ci][gi], &WEIGHTS, BIAS, LOW);
                    t.top1 + t.top3
                })
                .sum();
            (gi, n)
        })
        .collect();
    order.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(dist_shipped(&grid[a.0]).total_cmp(&dist_shipped(&grid[b.0])))
            .then(a.0.cmp(&b.0))
    });
    order
}

/// Fit on the `fit` corpora pooled: the best set of `blind_order`, then the logistic model on
/// their questions at it, the 90 % threshold, and the threshold that flags as many of their
/// unanswerable questions as the shipped configuration does.
fn blind_fit(runs: &[Vec<BlindRun>], grid: &[Params], fit: &[usize], shipped: usize) -> Config {
    let best = blind_order(runs, grid, fit)[0].0;
    let mut pooled: Vec<(Features, bool)> = Vec::new();
    let mut shipped_flags = 0;
    for &ci in fit {
        // Unmatched questions are flagged by the pack whatever the model says: they stay out
        // of the fit (their features are all zero), not out of the thresholds' counts.
        pooled.extend(runs[ci][best].iter().filter(|x| x.3).map(|x| (x.1, x.2)));
        shipped_flags += Tally::of(&runs[ci][shipped], &WEIGHTS, BIAS, LOW).flagged;
    }
    let (mut w, mut b) = fit_logistic(&pooled);
    // QUALITY_ROUND=2: the model rounded to two places, as the shipped constants are written,
    // before its thresholds are fit (what shipping it rounded would mean).
    if let Some(places) = std::env::var("QUALITY_ROUND")
        .ok()
        .and_then(|v| v.parse::<i32>().ok())
    {
        let m = 10f64.powi(places);
        w = w.map(|x| (x * m).round() / m);
        b = (b * m).round() / m;
    }
    let mut scored = Tally::default();
    for &ci in fit {
        scored.add(&runs[ci][best], &w, b, 0.0);
    }
    Config {
        params: best,
        w,
        b,
        t: threshold_90(&scored.scores),
        t_shipped: threshold_flagging(&scored.scores, shipped_flags),
    }
}

/// Answerable questions the candidate run `b` ranks first (and in the first three) that the
/// run `a` does not, and the reverse: counts only.
fn churn(a: &BlindRun, b: &BlindRun) -> String {
    let count = |f: &dyn Fn(Option<usize>) -> bool, x: &BlindRun, y: &BlindRun| {
        x.iter()
            .zip(y)
            .filter(|(p, q)| p.2 && f(q.0) && !f(p.0))
            .count()
    };
    let first = |r: Option<usize>| r == Some(1);
    let three = |r: Option<usize>| r.is_some();
    format!(
        "top-1 +{} -{}, top-3 +{} -{}",
        count(&first, a, b),
        count(&first, b, a),
        count(&three, a, b),
        count(&three, b, a)
    )
}

fn show_params(p: &Params) -> String {
    format!(
        "k1 {}, {} / {} / {} / {} / {}, pairs {}",
        p.k1, p.weight[0], p.weight[1], p.weight[2], p.weight[3], p.weight[4], p.pair_weight
    )
}

/// `--fit-on A,B,C --test-on D,E,…`: retrieval parameters and the confidence model fit on the
/// first corpora pooled only (`blind_grid`, best pooled top-1 + top-3; ties to the nearest the
/// shipped set), with leave-one-out among them, then measured on the second: aggregate
/// figures per corpus and pooled, never a question (docs/evidence.md, "Fit on blind questions
/// only (stop 22)"). `QUALITY_CHURN=1` adds, per measured corpus, how many answerable questions
/// the candidate newly ranks first (in the first three) and how many it no longer does: counts
/// only, but a second look at a held-out set, so stop 22 ran it on the non-blind sets alone.
/// `QUALITY_ROUND=2` rounds the fitted model to two places before its thresholds are fit.
fn fit_on_test_on(fit: &[Corpus], test: &[Corpus]) {
    let grid = blind_grid();
    let shipped = shipped_in(&grid);
    eprintln!(
        "--fit-on: {} parameter sets x {} fitting corpora",
        grid.len(),
        fit.len()
    );
    let runs: Vec<Vec<BlindRun>> = grid_runs(fit, &grid, blind_run);
    let all: Vec<usize> = (0..fit.len()).collect();
    let names: Vec<&str> = fit.iter().map(|c| c.name.as_str()).collect();
    println!(
        "fit on {} pooled: the best 15 of {} sets by top-1 + top-3 answered (of {} answerable):",
        names.join(", "),
        grid.len(),
        all.iter()
            .map(|&ci| Tally::of(&runs[ci][shipped], &WEIGHTS, BIAS, LOW).ans)
            .sum::<usize>()
    );
    let order = blind_order(&runs, &grid, &all);
    for (gi, n) in order.iter().take(15) {
        println!("    {n:>4}  {}", show_params(&grid[*gi]));
    }
    let rank_of = |gi: usize| order.iter().position(|x| x.0 == gi).unwrap_or(0) + 1;
    // The profile of the fit: the best set with each value of k1 and of the heading weight.
    for (what, key) in [("k1", 0usize), ("heading", 1)] {
        let value = |p: &Params| if key == 0 { p.k1 } else { p.weight[0] };
        let mut seen: Vec<f64> = Vec::new();
        for (gi, n) in &order {
            let v = value(&grid[*gi]);
            if !seen.contains(&v) {
                seen.push(v);
                println!(
                    "    best with {what} {v}: {n:>4}  {} (rank {})",
                    show_params(&grid[*gi]),
                    rank_of(*gi)
                );
            }
        }
    }
    let plain = grid
        .iter()
        .position(|p| p.weight == [1.0, 0.0, 1.0, 0.0, 0.0] && p.pair_weight == 0.0 && p.k1 == 1.2);
    for (what, gi) in [("shipped", Some(shipped)), ("plain-like", plain)] {
        if let Some(gi) = gi {
            let n = order.iter().find(|x| x.0 == gi).map_or(0, |x| x.1);
            println!(
                "    {n:>4}  {} ({what}, rank {})",
                show_params(&grid[gi]),
                rank_of(gi)
            );
        }
    }
    println!(
        "\nleave one fitting corpus out (fit on the others pooled, figures on the one left out):"
    );
    for out in 0..fit.len() {
        let rest: Vec<usize> = all.iter().copied().filter(|&i| i != out).collect();
        let cfg = blind_fit(&runs, &grid, &rest, shipped);
        println!(
            "left out {}: {}",
            fit[out].name,
            show_params(&grid[cfg.params])
        );
        show_config("", &grid, &cfg);
        let s = Tally::of(&runs[out][shipped], &WEIGHTS, BIAS, LOW);
        println!("    {:<24} {}", "shipped", s.show());
        let c = Tally::of(&runs[out][cfg.params], &cfg.w, cfg.b, cfg.t);
        println!("    {:<24} {}", "refit, 90 % threshold", c.show());
        let c = Tally::of(&runs[out][cfg.params], &cfg.w, cfg.b, cfg.t_shipped);
        println!(
            "    {:<24} {}",
            format!("refit, at {:.4}", cfg.t_shipped),
            c.show()
        );
    }
    let cfg = blind_fit(&runs, &grid, &all, shipped);
    let p = grid[cfg.params];
    println!("\ncandidate (fit on all {} pooled):", fit.len());
    println!("    retrieval {}", show_params(&p));
    println!(
        "    confidence weights {:?} bias {:.4}; threshold 90 % {:.4}, at the shipped operating point {:.4}",
        cfg.w.map(|x| (x * 10_000.0).round() / 10_000.0),
        cfg.b,
        cfg.t,
        cfg.t_shipped
    );
    println!("in-sample on the fitting corpora:");
    for (ci, c) in fit.iter().enumerate() {
        println!("  {}", c.name);
        println!(
            "    {:<24} {}",
            "shipped",
            Tally::of(&runs[ci][shipped], &WEIGHTS, BIAS, LOW).show()
        );
        println!(
            "    {:<24} {}",
            "candidate, 90 %",
            Tally::of(&runs[ci][cfg.params], &cfg.w, cfg.b, cfg.t).show()
        );
        println!(
            "    {:<24} {}",
            "candidate, shipped point",
            Tally::of(&runs[ci][cfg.params], &cfg.w, cfg.b, cfg.t_shipped).show()
        );
        println!(
            "    {:<24} {}",
            "changed",
            churn(&runs[ci][shipped], &runs[ci][cfg.params])
        );
    }
    // The test corpora: each ranked twice (shipped, candidate), figures only.
    let d = Params::default();
    let mut pooled = [
        Tally::default(),
        Tally::default(),
        Tally::default(),
        Tally::default(),
    ];
    let mut cand_runs = Vec::new();
    println!("\ntest corpora (aggregate only):");
    for c in test {
        let rs = blind_run(c, &d);
        let rc = blind_run(c, &p);
        let rows = [
            ("shipped", Tally::of(&rs, &WEIGHTS, BIAS, LOW)),
            ("candidate, 90 %", Tally::of(&rc, &cfg.w, cfg.b, cfg.t)),
            (
                "candidate, shipped point",
                Tally::of(&rc, &cfg.w, cfg.b, cfg.t_shipped),
            ),
        ];
        println!("  {}", c.name);
        for (k, (what, t)) in rows.iter().enumerate() {
            println!("    {what:<24} {}", t.show());
            pooled[k].merge(t);
        }
        if std::env::var_os("QUALITY_CHURN").is_some() {
            println!("    {:<24} {}", "changed", churn(&rs, &rc));
        }
        cand_runs.push(rc);
    }
    // At the shipped configuration's flagged count on the test corpora pooled: a threshold
    // read off the test labels, for comparing the two models' false alarms at one flagged rate
    // (a measuring device, never a threshold to ship).
    let mut probe = Tally::default();
    for rc in &cand_runs {
        probe.add(rc, &cfg.w, cfg.b, 0.0);
    }
    let t_eq = threshold_flagging(&probe.scores, pooled[0].flagged);
    for rc in &cand_runs {
        pooled[3].add(rc, &cfg.w, cfg.b, t_eq);
    }
    println!("  pooled over the {} test corpora", test.len());
    for (k, what) in ["shipped", "candidate, 90 %", "candidate, shipped point"]
        .iter()
        .enumerate()
    {
        println!("    {what:<24} {}", pooled[k].show());
    }
    println!(
        "    {:<24} {}",
        format!("candidate, equal flagged ({t_eq:.4})"),
        pooled[3].show()
    );
}

/// Question counts per corpus, then pooled over all named and over the blind ones (every
/// corpus but those whose questions the pages' authors wrote, the live demo among them):
/// decision rules are stated in questions, and the rates above hide one question on sets of ~70.
fn counts(corpora: &[Corpus]) {
    const AUTHOR_WRITTEN: [&str; 5] = ["acme", "requests", "fd", "black", "demo"];
    println!("\ncounts: top-1 / top-3 of answerable, flagged of unanswerable, false alarms, AUC:");
    let row = |name: &str, cs: &[&Corpus]| {
        let ans = || cs.iter().flat_map(|c| &c.answers).filter(|a| a.answerable);
        let un = || cs.iter().flat_map(|c| &c.answers).filter(|a| !a.answerable);
        let scores: Vec<(f64, bool)> = cs
            .iter()
            .flat_map(|c| &c.answers)
            .map(|a| (a.score, a.answerable))
            .collect();
        println!(
            "{name:<11} {:>4} / {:>4} of {:>4}  {:>4} of {:>4}  {:>4}  {:.3}",
            ans().filter(|a| a.rank == Some(1)).count(),
            ans().filter(|a| a.rank.is_some_and(|r| r <= 3)).count(),
            ans().count(),
            un().filter(|a| weak(a.level)).count(),
            un().count(),
            ans().filter(|a| weak(a.level)).count(),
            auc_of(&scores)
        );
    };
    for c in corpora {
        row(&c.name, &[c]);
    }
    if corpora.len() > 1 {
        row("pooled", &corpora.iter().collect::<Vec<_>>());
        let blind: Vec<&Corpus> = corpora
            .iter()
            .filter(|c| !AUTHOR_WRITTEN.contains(&c.name.as_str()))
            .collect();
        if blind.len() != corpora.len() && blind.len() > 1 {
            row(&format!("blind ({})", blind.len()), &blind);
        }
    }
}

fn weak(l: Level) -> bool {
    matches!(l, Level::Low | Level::None)
}

fn rate(n: usize, d: usize) -> f64 {
    if d == 0 {
        0.0
    } else {
        n as f64 / d as f64
    }
}

fn auc(c: &Corpus) -> f64 {
    let pos: Vec<f64> = c
        .answers
        .iter()
        .filter(|a| a.answerable)
        .map(|a| a.score)
        .collect();
    let neg: Vec<f64> = c
        .answers
        .iter()
        .filter(|a| !a.answerable)
        .map(|a| a.score)
        .collect();
    let mut wins = 0.0;
    for p in &pos {
        for n in &neg {
            wins += if p > n {
                1.0
            } else if p == n {
                0.5
            } else {
                0.0
            };
        }
    }
    wins / (pos.len() * neg.len()).max(1) as f64
}

/// The lowest threshold that flags (score < t) at least 90 % of the unanswerable questions.
fn fit_threshold(c: &Corpus) -> f64 {
    let mut un: Vec<f64> = c
        .answers
        .iter()
        .filter(|a| !a.answerable)
        .map(|a| a.score)
        .collect();
    un.sort_by(f64::total_cmp);
    if un.is_empty() {
        return 0.0;
    }
    let k = (un.len() * 9).div_ceil(10);
    let at = un[k - 1];
    // Halfway to the next score above it (of any question), so the threshold transfers.
    let next = c
        .answers
        .iter()
        .map(|a| a.score)
        .filter(|s| *s > at)
        .fold(f64::INFINITY, f64::min);
    if next.is_finite() {
        (at + next) / 2.0
    } else {
        at + 1e-6
    }
}

fn flagged_at(c: &Corpus, t: f64) -> (f64, f64) {
    let (mut un, mut unf, mut an, mut anf) = (0, 0, 0, 0);
    for a in &c.answers {
        if a.answerable {
            an += 1;
            anf += usize::from(a.score < t);
        } else {
            un += 1;
            unf += usize::from(a.score < t);
        }
    }
    (rate(unf, un), rate(anf, an))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "-v");
    let fit = args.iter().any(|a| a == "--fit");
    // `--fit-on A,B,C --test-on D,E`: the corpora to fit on and to measure on.
    let list = |flag: &str| -> Option<Vec<&str>> {
        let i = args.iter().position(|a| a == flag)?;
        Some(
            args.get(i + 1)?
                .split(',')
                .filter(|s| !s.is_empty())
                .collect(),
        )
    };
    if let Some(fit_on) = list("--loco-confidence") {
        let load = |specs: &[&str]| -> Result<Vec<Corpus>, Box<dyn std::error::Error>> {
            specs.iter().map(|s| answer(s, false)).collect()
        };
        let test = load(&list("--test-on").unwrap_or_default())?;
        let report = load(&list("--report-on").unwrap_or_default())?;
        // `--candidate NAME:L2`: a configuration chosen beforehand, instead of the table's.
        let forced = match args.iter().position(|a| a == "--candidate") {
            None => None,
            Some(i) => {
                let spec = args.get(i + 1).ok_or("--candidate needs NAME:L2")?;
                let (name, l2) = spec.split_once(':').ok_or("--candidate needs NAME:L2")?;
                let k = LOCO_CANDIDATES
                    .iter()
                    .position(|c| c.0 == name)
                    .ok_or_else(|| format!("no candidate {name}"))?;
                Some((k, l2.parse::<f64>()?))
            }
        };
        loco_confidence(&load(&fit_on)?, &test, &report, forced);
        return Ok(());
    }
    if let Some(fit_on) = list("--fit-on") {
        let test_on = list("--test-on").ok_or("--fit-on needs --test-on A,B,...")?;
        let load = |specs: &[&str]| -> Result<Vec<Corpus>, Box<dyn std::error::Error>> {
            specs.iter().map(|s| answer(s, false)).collect()
        };
        fit_on_test_on(&load(&fit_on)?, &load(&test_on)?);
        return Ok(());
    }
    let mut specs: Vec<&str> = args
        .iter()
        .filter(|a| !a.starts_with('-'))
        .map(String::as_str)
        .collect();
    if specs.is_empty() {
        specs = vec![
            "acme",
            "requests",
            "fd",
            "black",
            "commander",
            "jinja",
            "hyperfine",
            "click",
            "just",
            "attrs",
            "ws",
            "marshmallow",
            "tenacity",
            "loguru",
            "ripgrep",
            "structlog",
            "zoxide",
            "arrow",
            "xh",
            "dust",
            "httpx",
        ];
    }
    let corpora: Vec<Corpus> = specs
        .iter()
        .map(|s| answer(s, verbose))
        .collect::<Result<_, _>>()?;
    // QUALITY_PARAMS=k1,heading,id,body,article,cited,pairs: one fixed retrieval parameter set
    // (chosen beforehand, e.g. by `--cv`) against the shipped one on every corpus named.
    if let Ok(spec) = std::env::var("QUALITY_PARAMS") {
        let v: Vec<f64> = spec
            .split(',')
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|e| format!("QUALITY_PARAMS: {e}"))?;
        let [k1, w0, w1, w2, w3, w4, pairs] = v[..] else {
            return Err(
                "QUALITY_PARAMS: seven numbers: k1,heading,id,body,article,cited,pairs".into(),
            );
        };
        let p = Params {
            k1,
            weight: [w0, w1, w2, w3, w4],
            pair_weight: pairs,
            ..Params::default()
        };
        println!("top-1 / top-3, shipped parameters -> QUALITY_PARAMS ({spec}):");
        for c in &corpora {
            let (a1, a3) = retrieval(c, &Params::default());
            let (b1, b3) = retrieval(c, &p);
            println!("{:<9} {a1:.2} / {a3:.2} -> {b1:.2} / {b3:.2}", c.name);
        }
        return Ok(());
    }

    println!("shipped Evidence Pack (levels low/none = flagged):");
    println!(
        "{:<9} {:>7} {:>5} {:>5} {:>8} {:>12} {:>5}",
        "corpus", "n", "top1", "top3", "flagged", "false-alarm", "AUC"
    );
    for c in &corpora {
        let ans: Vec<&Answer> = c.answers.iter().filter(|a| a.answerable).collect();
        let un: Vec<&Answer> = c.answers.iter().filter(|a| !a.answerable).collect();
        let top1 = ans.iter().filter(|a| a.rank == Some(1)).count();
        let top3 = ans
            .iter()
            .filter(|a| a.rank.is_some_and(|r| r <= 3))
            .count();
        let fl = un.iter().filter(|a| weak(a.level)).count();
        let fa = ans.iter().filter(|a| weak(a.level)).count();
        println!(
            "{:<9} {:>7} {:>5.2} {:>5.2} {:>8.2} {:>12.2} {:>5.2}",
            c.name,
            format!("{}+{}", ans.len(), un.len()),
            rate(top1, ans.len()),
            rate(top3, ans.len()),
            rate(fl, un.len()),
            rate(fa, ans.len()),
            auc(c)
        );
    }
    counts(&corpora);
    println!("\nthreshold on the confidence score fit on X (>= 90% of X's unanswerable flagged), applied to Y:");
    println!(
        "{:<9} {:<9} {:>9} {:>8} {:>12}",
        "fit X", "test Y", "threshold", "flagged", "false-alarm"
    );
    for x in &corpora {
        let t = fit_threshold(x);
        for y in &corpora {
            let (fl, fa) = flagged_at(y, t);
            println!(
                "{:<9} {:<9} {:>9.4} {:>8.2} {:>12.2}{}",
                x.name,
                y.name,
                t,
                fl,
                fa,
                if x.name == y.name {
                    "  (in-sample)"
                } else {
                    ""
                }
            );
        }
    }
    if fit {
        fit_retrieval(&corpora);
    }
    if args.iter().any(|a| a == "--calibrate") {
        calibrate(&corpora);
    }
    if args.iter().any(|a| a == "--fit-confidence") {
        fit_confidence(&corpora);
        leave_one_out(&corpora);
    }
    if args.iter().any(|a| a == "--cv") {
        cross_validate(&corpora);
    }
    Ok(())
}

/// The candidate confidence models of `--loco-confidence` (stop 23), fixed before any was
/// measured (docs/evidence.md, "Confidence with every feature, fit on eleven sets (stop 23)"):
/// a name and the indices of the base features (`Features::NAMES`) with their expansion.
const LOCO_CANDIDATES: [(&str, &[usize], Expand); 9] = [
    ("ship4", &SHIP4, Expand::Linear),
    ("all12", &ALL12, Expand::Linear),
    ("ship4+terms", &[0, 3, 4, 10, 1, 2, 7], Expand::Linear),
    ("ship4+shape", &[0, 3, 4, 10, 5, 6, 9], Expand::Linear),
    ("ship4+english", &[0, 3, 4, 10, 8, 11], Expand::Linear),
    ("all12+sq", &ALL12, Expand::Squares),
    ("all12+prod4", &ALL12, Expand::Products4),
    ("ship4-hinge", &SHIP4, Expand::Hinges),
    ("all12-hinge", &ALL12, Expand::Hinges),
];
/// The shipped model's features: coverage, unknown, strength, prox.
const SHIP4: [usize; 4] = [0, 3, 4, 10];
const ALL12: [usize; 12] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
/// The L2 penalties tried with every candidate (on standardised columns; the loss is the mean
/// log-loss plus λ/2 · Σ w²).
const LOCO_L2: [f64; 4] = [0.001, 0.01, 0.1, 1.0];

/// How a candidate's base features become its model's columns.
#[derive(Clone, Copy, PartialEq)]
enum Expand {
    /// The features themselves.
    Linear,
    /// The features and their squares.
    Squares,
    /// The features, and the squares and pairwise products of the shipped four.
    Products4,
    /// Each feature and max(0, x − k) for k in 0.25, 0.5, 0.75: a piecewise-linear
    /// transform per feature with fixed knots (not constrained monotone).
    Hinges,
}

/// The columns of one question's features under a candidate.
fn expand(f: &Features, idx: &[usize], how: Expand) -> Vec<f64> {
    let a = f.to_array();
    let mut out: Vec<f64> = idx.iter().map(|&i| a[i]).collect();
    match how {
        Expand::Linear => {}
        Expand::Squares => out.extend(idx.iter().map(|&i| a[i] * a[i])),
        Expand::Products4 => {
            for (j, &p) in SHIP4.iter().enumerate() {
                for &q in &SHIP4[j..] {
                    out.push(a[p] * a[q]);
                }
            }
        }
        Expand::Hinges => {
            for &i in idx {
                for k in [0.25, 0.5, 0.75] {
                    out.push((a[i] - k).max(0.0));
                }
            }
        }
    }
    out
}

/// Names of a candidate's columns, in the order of [`expand`].
fn expand_names(idx: &[usize], how: Expand) -> Vec<String> {
    let n = |i: usize| Features::NAMES[i].to_string();
    let mut out: Vec<String> = idx.iter().map(|&i| n(i)).collect();
    match how {
        Expand::Linear => {}
        Expand::Squares => out.extend(idx.iter().map(|&i| format!("{}^2", n(i)))),
        Expand::Products4 => {
            for (j, &p) in SHIP4.iter().enumerate() {
                for &q in &SHIP4[j..] {
                    out.push(format!("{}*{}", n(p), n(q)));
                }
            }
        }
        Expand::Hinges => {
            for &i in idx {
                for k in ["25", "50", "75"] {
                    out.push(format!("({}-.{k})+", n(i)));
                }
            }
        }
    }
    out
}

/// A fitted logistic model on standardised columns.
struct Logit {
    mean: Vec<f64>,
    sd: Vec<f64>,
    w: Vec<f64>,
    b: f64,
}

impl Logit {
    fn score(&self, x: &[f64]) -> f64 {
        let z: f64 = self.b
            + x.iter()
                .zip(&self.w)
                .zip(self.mean.iter().zip(&self.sd))
                .map(|((xi, wi), (m, s))| wi * (xi - m) / s)
                .sum::<f64>();
        sigmoid(z)
    }

    /// Weights and bias on the raw columns.
    fn raw(&self) -> (Vec<f64>, f64) {
        let w: Vec<f64> = self.w.iter().zip(&self.sd).map(|(w, s)| w / s).collect();
        let b = self.b - w.iter().zip(&self.mean).map(|(w, m)| w * m).sum::<f64>();
        (w, b)
    }
}

/// L2-regularised logistic regression by Newton's method (deterministic; the loss is convex,
/// so the fit is the unique minimum whatever the start).
fn fit_newton(x: &[Vec<f64>], y: &[bool], lambda: f64) -> Logit {
    let n = x.len().max(1) as f64;
    let d = x.first().map_or(0, Vec::len);
    let mut mean = vec![0.0; d];
    let mut sd = vec![1.0; d];
    for j in 0..d {
        let m = x.iter().map(|r| r[j]).sum::<f64>() / n;
        let v = x.iter().map(|r| (r[j] - m).powi(2)).sum::<f64>() / n;
        mean[j] = m;
        sd[j] = if v > 1e-12 { v.sqrt() } else { 1.0 };
    }
    let z: Vec<Vec<f64>> = x
        .iter()
        .map(|r| (0..d).map(|j| (r[j] - mean[j]) / sd[j]).collect())
        .collect();
    // Parameters: d weights then the bias (unpenalised).
    let mut th = vec![0.0; d + 1];
    let loss = |th: &[f64]| -> f64 {
        let mut l = 0.0;
        for (r, yi) in z.iter().zip(y) {
            let s = th[d] + r.iter().zip(th).map(|(a, b)| a * b).sum::<f64>();
            // log(1 + e^s) − y·s, stably.
            l += s.max(0.0) + (-s.abs()).exp().ln_1p() - if *yi { s } else { 0.0 };
        }
        l / n + 0.5 * lambda * th[..d].iter().map(|w| w * w).sum::<f64>()
    };
    for _ in 0..100 {
        let mut g = vec![0.0; d + 1];
        let mut h = vec![vec![0.0; d + 1]; d + 1];
        for (r, yi) in z.iter().zip(y) {
            let s = th[d] + r.iter().zip(&th).map(|(a, b)| a * b).sum::<f64>();
            let p = sigmoid(s);
            let e = p - f64::from(u8::from(*yi));
            let v = p * (1.0 - p);
            let xr: Vec<f64> = r.iter().copied().chain([1.0]).collect();
            for ((gi, hi), xi) in g.iter_mut().zip(h.iter_mut()).zip(&xr) {
                *gi += e * xi / n;
                for (hij, xj) in hi.iter_mut().zip(&xr) {
                    *hij += v * xi * xj / n;
                }
            }
        }
        for (i, (gi, hi)) in g.iter_mut().zip(h.iter_mut()).enumerate().take(d) {
            *gi += lambda * th[i];
            hi[i] += lambda;
        }
        h[d][d] += 1e-9;
        let Some(step) = solve(h, g) else { break };
        let before = loss(&th);
        let mut a = 1.0;
        let mut next = th.clone();
        while a > 1e-6 {
            next = th.iter().zip(&step).map(|(t, s)| t - a * s).collect();
            if loss(&next) <= before + 1e-15 {
                break;
            }
            a *= 0.5;
        }
        let moved = next
            .iter()
            .zip(&th)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        th = next;
        if moved < 1e-10 {
            break;
        }
    }
    Logit {
        mean,
        sd,
        w: th[..d].to_vec(),
        b: th[d],
    }
}

/// Solves `a · x = b` by Gaussian elimination with partial pivoting.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() < 1e-14 {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        for r in c + 1..n {
            let f = a[r][c] / a[c][c];
            if f != 0.0 {
                let pivot = a[c].clone();
                for (x, p) in a[r][c..].iter_mut().zip(&pivot[c..]) {
                    *x -= f * p;
                }
                b[r] -= f * b[c];
            }
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    Some(x)
}

/// One question as `--loco-confidence` sees it: its features, whether it is answerable,
/// whether the shipped pack found nothing (level none: flagged whatever the model says, never
/// fitted), the shipped score and whether the shipped pack flagged it.
struct ConfQ {
    f: Features,
    answerable: bool,
    none: bool,
    shipped: f64,
    shipped_flag: bool,
}

fn conf_questions(c: &Corpus) -> Vec<ConfQ> {
    c.answers
        .iter()
        .zip(&c.features)
        .map(|(a, (f, y))| ConfQ {
            f: *f,
            answerable: *y,
            none: a.level == Level::None,
            shipped: a.score,
            shipped_flag: weak(a.level),
        })
        .collect()
}

/// Counts of one set of questions under one model and threshold.
#[derive(Default, Clone, Copy)]
struct Counts {
    un: usize,
    an: usize,
    flagged: usize,
    false_alarms: usize,
}

impl Counts {
    fn add(&mut self, o: Counts) {
        self.un += o.un;
        self.an += o.an;
        self.flagged += o.flagged;
        self.false_alarms += o.false_alarms;
    }

    fn show(&self) -> String {
        format!(
            "flagged {:>3}/{:<3} ({:.2})  false alarms {:>3}/{:<3} ({:.2})",
            self.flagged,
            self.un,
            rate(self.flagged, self.un),
            self.false_alarms,
            self.an,
            rate(self.false_alarms, self.an)
        )
    }
}

/// (score, answerable) of each question under a model; level none scores 0 (always flagged).
fn scored_by(qs: &[ConfQ], m: &dyn Fn(&Features) -> f64) -> Vec<(f64, bool)> {
    qs.iter()
        .map(|q| (if q.none { 0.0 } else { m(&q.f) }, q.answerable))
        .collect()
}

/// The scores of `qs` under `m`, and the threshold that flags as many of their unanswerable
/// questions as the shipped pack does (the shipped operating point on those questions).
fn at_shipped_point(qs: &[&ConfQ], m: &dyn Fn(&Features) -> f64) -> (Vec<(f64, bool)>, f64) {
    let target = qs
        .iter()
        .filter(|q| !q.answerable && q.shipped_flag)
        .count();
    let own: Vec<(f64, bool)> = qs
        .iter()
        .map(|q| (if q.none { 0.0 } else { m(&q.f) }, q.answerable))
        .collect();
    let t = threshold_flagging(&own, target);
    (own, t)
}

fn counts_at(s: &[(f64, bool)], t: f64) -> Counts {
    let mut c = Counts::default();
    for (x, a) in s {
        if *a {
            c.an += 1;
            c.false_alarms += usize::from(*x < t);
        } else {
            c.un += 1;
            c.flagged += usize::from(*x < t);
        }
    }
    c
}

fn shipped_counts(qs: &[ConfQ]) -> Counts {
    let mut c = Counts::default();
    for q in qs {
        if q.answerable {
            c.an += 1;
            c.false_alarms += usize::from(q.shipped_flag);
        } else {
            c.un += 1;
            c.flagged += usize::from(q.shipped_flag);
        }
    }
    c
}

/// Fits candidate `k` with penalty `lambda` on `qs` (level-none questions left out).
fn fit_candidate(qs: &[&ConfQ], k: usize, lambda: f64) -> Logit {
    let (_, idx, how) = LOCO_CANDIDATES[k];
    let fit: Vec<&&ConfQ> = qs.iter().filter(|q| !q.none).collect();
    let x: Vec<Vec<f64>> = fit.iter().map(|q| expand(&q.f, idx, how)).collect();
    let y: Vec<bool> = fit.iter().map(|q| q.answerable).collect();
    fit_newton(&x, &y, lambda)
}

/// One configuration's leave-one-corpus-out result: candidate, penalty, columns, pooled
/// counts at the operating point, counts per fold, pooled AUC, pooled counts at equal flagging.
type LocoRow = (usize, f64, usize, Counts, Vec<Counts>, f64, Counts);

/// `--loco-confidence A,B,… [--test-on C,D] [--report-on E,F]` (stop 23): every candidate of
/// [`LOCO_CANDIDATES`] with every penalty of [`LOCO_L2`], leave one corpus out over the first
/// list. In each fold the threshold is the one that flags, on the other corpora pooled, as many
/// unanswerable questions as the shipped pack flags there; the held-out corpus's flagged and
/// false alarms at it are summed over the folds, and beside them the false alarms at the
/// held-out corpus's own shipped flagged count. The configuration with the fewest pooled
/// false alarms at equal flagging (ties: fewer columns, then the larger penalty) is fit on the
/// whole list (or `forced`, a candidate and penalty chosen beforehand: `--candidate NAME:L2`),
/// its threshold set the same way on the whole list, and measured on `--test-on` (aggregate
/// only, per corpus and pooled, beside the shipped pack) and `--report-on`.
fn loco_confidence(
    fit: &[Corpus],
    test: &[Corpus],
    report: &[Corpus],
    forced: Option<(usize, f64)>,
) {
    let qs: Vec<Vec<ConfQ>> = fit.iter().map(conf_questions).collect();
    let ship_model = |f: &Features| score_with(&WEIGHTS, BIAS, f);
    // Sanity: the shipped model on the features reproduces the pack's flags.
    let disagree = qs
        .iter()
        .flatten()
        .filter(|q| !q.none && ((ship_model(&q.f) < LOW) != q.shipped_flag))
        .count();
    println!("shipped model on the fitted features vs the pack's levels: {disagree} disagree");
    println!("\nleave one corpus out over {} corpora: pooled held-out counts at the shipped flagged count of the other corpora", fit.len());
    let mut ship_pool = Counts::default();
    let mut ship_auc: Vec<(f64, bool)> = Vec::new();
    for q in qs.iter() {
        ship_pool.add(shipped_counts(q));
        ship_auc.extend(q.iter().map(|q| (q.shipped, q.answerable)));
    }
    println!(
        "{:<16} {:>6} {:>3}  {}  AUC {:.3}  | equal flagged: {:>3} at {:>3}",
        "shipped",
        "-",
        4,
        ship_pool.show(),
        auc_of(&ship_auc),
        ship_pool.flagged,
        ship_pool.false_alarms
    );
    // (candidate, lambda, pooled counts, per-fold counts, pooled held-out scores)
    let mut results: Vec<LocoRow> = Vec::new();
    for (k, (name, idx, how)) in LOCO_CANDIDATES.iter().enumerate() {
        let cols = expand_names(idx, *how).len();
        for &lambda in &LOCO_L2 {
            let mut pool = Counts::default();
            let mut eq = Counts::default();
            let mut folds = Vec::new();
            let mut held: Vec<(f64, bool)> = Vec::new();
            for (h, held_out) in qs.iter().enumerate() {
                let others: Vec<&ConfQ> = qs
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != h)
                    .flat_map(|(_, q)| q.iter())
                    .collect();
                let m = fit_candidate(&others, k, lambda);
                let score = |f: &Features| m.score(&expand(f, idx, *how));
                let (_, t) = at_shipped_point(&others, &score);
                let s = scored_by(held_out, &score);
                let c = counts_at(&s, t);
                // At the held-out corpus's own shipped flagged count: a threshold read off its
                // labels, for comparing false alarms at equal flagging (never one to ship).
                let k = held_out
                    .iter()
                    .filter(|q| !q.answerable && q.shipped_flag)
                    .count();
                eq.add(counts_at(&s, threshold_flagging(&s, k)));
                pool.add(c);
                folds.push(c);
                held.extend(s);
            }
            let a = auc_of(&held);
            // One threshold over the pooled held-out scores at the shipped pooled flagged count
            // (a measuring device, as `eq`, but across corpora).
            let pe = counts_at(&held, threshold_flagging(&held, ship_pool.flagged));
            println!(
                "{name:<16} {lambda:>6} {cols:>3}  {}  AUC {a:.3}  | equal flagged: {:>3} at {:>3}  pooled {:>3} at {:>3}",
                pool.show(),
                eq.flagged,
                eq.false_alarms,
                pe.flagged,
                pe.false_alarms
            );
            results.push((k, lambda, cols, pool, folds, a, eq));
        }
    }
    // As first written: fewest false alarms at the operating point; ties to fewer columns,
    // then the larger penalty. It rewards a model that flags fewer held-out questions (its
    // winner flagged 137 of 204 against the shipped 150), so the choice (amended before the
    // test, docs/evidence.md) is the fewest false alarms at equal held-out flagging.
    let first = results.iter().min_by(|a, b| {
        (a.3.false_alarms, a.2)
            .cmp(&(b.3.false_alarms, b.2))
            .then(b.1.total_cmp(&a.1))
    });
    if let Some(r) = first {
        println!(
            "\nfewest false alarms at the operating point (the criterion first written): {} (L2 {})",
            LOCO_CANDIDATES[r.0].0, r.1
        );
    }
    let best = results
        .iter()
        .min_by(|a, b| {
            (a.6.false_alarms, a.2)
                .cmp(&(b.6.false_alarms, b.2))
                .then(b.1.total_cmp(&a.1))
        })
        .map(|r| (r.0, r.1));
    let Some((bk, bl)) = forced.or(best) else {
        return;
    };
    println!("\nper fold (held-out corpus): shipped | ship4 refit at its best penalty | chosen");
    let ship4 = results.iter().filter(|r| r.0 == 0).min_by(|a, b| {
        (a.6.false_alarms)
            .cmp(&b.6.false_alarms)
            .then(b.1.total_cmp(&a.1))
    });
    let chosen = results.iter().find(|r| r.0 == bk && r.1 == bl);
    for (h, c) in fit.iter().enumerate() {
        let s = shipped_counts(&qs[h]);
        let r4 = ship4.map(|r| r.4[h]).unwrap_or_default();
        let rc = chosen.map(|r| r.4[h]).unwrap_or_default();
        println!(
            "  {:<12} {:>2}/{:<2} {:>2}/{:<2} | {:>2} {:>2} | {:>2} {:>2}",
            c.name,
            s.flagged,
            s.un,
            s.false_alarms,
            s.an,
            r4.flagged,
            r4.false_alarms,
            rc.flagged,
            rc.false_alarms
        );
    }
    let (name, idx, how) = LOCO_CANDIDATES[bk];
    println!("\nchosen: {name} (L2 {bl})");
    let all: Vec<&ConfQ> = qs.iter().flatten().collect();
    let m = fit_candidate(&all, bk, bl);
    let score = |f: &Features| m.score(&expand(f, idx, how));
    let (own, t) = at_shipped_point(&all, &score);
    let target = all
        .iter()
        .filter(|q| !q.answerable && q.shipped_flag)
        .count();
    let (rw, rb) = m.raw();
    for (n, w) in expand_names(idx, how).iter().zip(&rw) {
        println!("  {n:<18} {w:>9.4}");
    }
    println!("  {:<18} {rb:>9.4}", "bias");
    println!(
        "  threshold {t:.4}: flags {target} of the {} corpora's unanswerable, as the shipped pack does",
        fit.len()
    );
    println!(
        "  in-sample on the {}: {}  (shipped {})",
        fit.len(),
        counts_at(&own, t).show(),
        ship_pool.show()
    );
    for (what, set) in [("test", test), ("report", report)] {
        if set.is_empty() {
            continue;
        }
        println!("\n{what} (aggregate only): top-1 / top-3 of the shipped ranking; shipped pack | candidate at {t:.4}");
        let (mut ps, mut pc) = (Counts::default(), Counts::default());
        let (mut as_, mut ac) = (Vec::new(), Vec::new());
        let (mut t1, mut t3, mut na) = (0, 0, 0);
        for c in set {
            let q = conf_questions(c);
            let sh = shipped_counts(&q);
            let ss: Vec<(f64, bool)> = q.iter().map(|q| (q.shipped, q.answerable)).collect();
            let sc = scored_by(&q, &score);
            let cc = counts_at(&sc, t);
            let ans: Vec<&Answer> = c.answers.iter().filter(|a| a.answerable).collect();
            let a1 = ans.iter().filter(|a| a.rank == Some(1)).count();
            let a3 = ans
                .iter()
                .filter(|a| a.rank.is_some_and(|r| r <= 3))
                .count();
            println!(
                "  {:<10} top-1 {a1}/{n} top-3 {a3}/{n}\n    shipped   {}  AUC {:.3}\n    candidate {}  AUC {:.3}",
                c.name,
                sh.show(),
                auc_of(&ss),
                cc.show(),
                auc_of(&sc),
                n = ans.len()
            );
            ps.add(sh);
            pc.add(cc);
            as_.extend(ss);
            ac.extend(sc);
            t1 += a1;
            t3 += a3;
            na += ans.len();
        }
        println!(
            "  {:<10} top-1 {t1}/{na} top-3 {t3}/{na}\n    shipped   {}  AUC {:.3}\n    candidate {}  AUC {:.3}",
            "pooled",
            ps.show(),
            auc_of(&as_),
            pc.show(),
            auc_of(&ac)
        );
    }
}
