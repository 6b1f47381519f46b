//! Answer quality on question sets, in-sample and held out.
//!
//! ```sh
//! cargo run --release -p ontoly-capabilities --example quality            # every corpus
//! cargo run --release -p ontoly-capabilities --example quality -- -v fd   # one, per question
//! ```
//!
//! For each corpus (`acme`, `requests`, `fd`, `black`, `demo`, or `NAME=WORKSPACE:QUESTIONS`;
//! the default is the first four — `demo` is the live demo, whose pages were edited to pass its
//! own gate, so it is no longer held out: `acme` is its frozen copy from before) it answers
//! every question with the shipped Evidence Pack and prints top-1 and top-3 (an expected section
//! is first / among the first three sections), the share of unanswerable questions flagged
//! `CAPABILITY_LOW_EVIDENCE` / `CAPABILITY_NOT_FOUND`, the share of answerable ones flagged
//! (false alarms) and the AUC of the confidence score.
//!
//! Then, for every pair (fit X, test Y), a threshold on the confidence score is fit on X (the
//! lowest that flags at least 90 % of X's unanswerable questions) and applied to Y; the
//! diagonal is in-sample. The shipped thresholds were fit on one corpus only (see
//! docs/evidence.md), so the figures of the other corpora are held out.

use ontoly_capabilities::evidence::Level;
use ontoly_capabilities::gate::{self, parse_questions};
use ontoly_capabilities::pack::confidence::{score_with, Features, BIAS, LOW, N_FEATURES, WEIGHTS};
use ontoly_capabilities::retrieval::index::Params;
use ontoly_capabilities::retrieval::rank::rank_with;
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
}

fn corpus_paths(spec: &str) -> (String, PathBuf, PathBuf) {
    let c = PathBuf::from("testdata/corpora");
    match spec {
        "demo" => (
            "demo".into(),
            "testdata/demo".into(),
            "testdata/demo/questions.yaml".into(),
        ),
        "acme" | "requests" | "fd" | "black" => (
            spec.into(),
            c.join(spec).join("ws"),
            c.join(spec).join("questions.yaml"),
        ),
        other => {
            let (name, rest) = other.split_once('=').unwrap_or((other, other));
            let (ws, q) = rest.split_once(':').unwrap_or((rest, "questions.yaml"));
            (name.into(), ws.into(), q.into())
        }
    }
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
            if std::env::var_os("QUALITY_FEATURES").is_some() {
                let r = rank_with(&index, &q.question, &Params::default());
                let f = Features::of(&r);
                let terms: Vec<String> = r
                    .terms
                    .iter()
                    .zip(&r.idf)
                    .map(|(t, w)| {
                        format!(
                            "{}{}:{w:.1}",
                            t.query.term,
                            if t.df == 0 { "?" } else { "" }
                        )
                    })
                    .collect();
                println!(
                    "            cov {:.2} own {:.2} rare {:.2} unk {:.2} str {:.2} gap {:.2} sup {:.2} mrare {:.2} [{}]",
                    f.coverage, f.own, f.rare, f.unknown, f.strength, f.gap, f.support, f.matched_rare, terms.join(" ")
                );
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
        answers.push(a);
        features.push((
            Features::of(&rank_with(&index, &q.question, &Params::default())),
            q.answerable,
        ));
        if q.answerable && !expect.is_empty() {
            asked.push((q.question.clone(), expect));
        }
    }
    drop(cx);
    Ok(Corpus {
        name,
        answers,
        index,
        asked,
        features,
    })
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

/// Every parameter set of the grid searched when fitting retrieval.
fn grid() -> Vec<Params> {
    let mut out = Vec::new();
    for k1 in [0.8, 1.2, 1.8] {
        for wh in [1.0, 2.0, 3.5] {
            for ws in [0.0, 1.0, 2.0] {
                for wa in [0.0, 0.3, 0.7] {
                    for wc in [0.0, 0.3, 0.7] {
                        for pw in [0.0, 0.5, 1.0] {
                            let d = Params::default();
                            out.push(Params {
                                k1,
                                b: d.b,
                                weight: [wh, ws, 1.0, wa, wc],
                                pair_weight: pw,
                            });
                        }
                    }
                }
            }
        }
    }
    out
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
    let mut specs: Vec<&str> = args
        .iter()
        .filter(|a| !a.starts_with('-'))
        .map(String::as_str)
        .collect();
    if specs.is_empty() {
        specs = vec!["acme", "requests", "fd", "black"];
    }
    let corpora: Vec<Corpus> = specs
        .iter()
        .map(|s| answer(s, verbose))
        .collect::<Result<_, _>>()?;

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
    if args.iter().any(|a| a == "--fit-confidence") {
        fit_confidence(&corpora);
        leave_one_out(&corpora);
    }
    Ok(())
}
