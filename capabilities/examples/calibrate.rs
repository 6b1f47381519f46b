//! Calibration of retrieval and confidence on a question set.
//!
//! ```sh
//! cargo run -p ontoly-capabilities --example calibrate -- testdata/demo testdata/demo/questions.yaml
//! ```
//!
//! Prints, for answerable questions, top-1 and top-3 hit rates (an expected section is the
//! first / among the first three sections of the pack), and how well `CAPABILITY_LOW_EVIDENCE`
//! (level low or none) separates unanswerable from answerable questions: the share of
//! unanswerable questions flagged (recall), the share of answerable ones wrongly flagged, and
//! the AUC of the confidence score (probability that a random answerable question scores above
//! a random unanswerable one). `-v` lists every question.

use ontoly_capabilities::evidence::Level;
use ontoly_capabilities::gate::parse_questions;
use ontoly_capabilities::{pack, Context, Index};
use ontoly_graph::graph::NodeKind;
use ontoly_graph::{Session, SessionOptions};
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "-v");
    let pos: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let root = PathBuf::from(pos.first().map(|s| s.as_str()).unwrap_or("testdata/demo"));
    let qfile = pos
        .get(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("questions.yaml"));
    // As the CLI opens it: clones from ontoly.toml, verification and symbols.
    let session = Session::open(SessionOptions::new(std::env::current_dir()?).workspace(root))?;
    let index = Index::open(&session)?;
    let cx = Context::new(&session, &index)?;
    let questions = parse_questions(&std::fs::read_to_string(&qfile)?)?;

    let (mut n_ans, mut top1, mut top3) = (0usize, 0usize, 0usize);
    let (mut n_un, mut un_flagged, mut ans_flagged) = (0usize, 0usize, 0usize);
    let mut levels = std::collections::BTreeMap::new();
    let mut scores_ans = Vec::new();
    let mut scores_un = Vec::new();
    for q in &questions {
        let p = pack::evidence_pack(&cx, &q.question, None).pack;
        let sections: Vec<&str> = p
            .top_nodes
            .iter()
            .filter(|t| t.node.kind == NodeKind::Section)
            .map(|t| t.node.id.as_str())
            .collect();
        let flagged = matches!(p.confidence.level, Level::Low | Level::None);
        *levels
            .entry((q.answerable, p.confidence.level.as_str()))
            .or_insert(0usize) += 1;
        let mark = if q.answerable {
            n_ans += 1;
            let h1 = sections
                .first()
                .is_some_and(|s| q.expect.iter().any(|e| e == s));
            let h3 = sections
                .iter()
                .take(3)
                .any(|s| q.expect.iter().any(|e| e == s));
            top1 += usize::from(h1);
            top3 += usize::from(h3);
            ans_flagged += usize::from(flagged);
            scores_ans.push(p.confidence.score);
            match (h1, h3) {
                (true, _) => "top1",
                (false, true) => "top3",
                _ => "MISS",
            }
        } else {
            n_un += 1;
            un_flagged += usize::from(flagged);
            scores_un.push(p.confidence.score);
            if flagged {
                "flag"
            } else {
                "CONF"
            }
        };
        if verbose {
            println!(
                "{mark} {:<6} {:.3} {:<70} -> {}",
                p.confidence.level.as_str(),
                p.confidence.score,
                q.question,
                sections.first().copied().unwrap_or("-")
            );
            let f: Vec<String> = p
                .confidence
                .factors
                .iter()
                .map(|f| format!("{}={}", f.kind, f.confidence))
                .collect();
            println!("      {}", f.join(" "));
            println!("      {}", p.confidence.explanation);
        }
    }
    let pct = |a: usize, b: usize| {
        if b == 0 {
            0.0
        } else {
            100.0 * a as f64 / b as f64
        }
    };
    let mut wins = 0.0;
    for a in &scores_ans {
        for u in &scores_un {
            wins += if a > u {
                1.0
            } else if a == u {
                0.5
            } else {
                0.0
            };
        }
    }
    let auc = wins / (scores_ans.len() * scores_un.len()).max(1) as f64;
    println!(
        "questions: {} ({n_ans} answerable, {n_un} unanswerable)",
        questions.len()
    );
    println!("top-1 hit rate: {top1}/{n_ans} = {:.1}%", pct(top1, n_ans));
    println!("top-3 hit rate: {top3}/{n_ans} = {:.1}%", pct(top3, n_ans));
    println!(
        "LOW_EVIDENCE/NOT_FOUND on unanswerable: {un_flagged}/{n_un} = {:.1}%",
        pct(un_flagged, n_un)
    );
    println!(
        "LOW_EVIDENCE/NOT_FOUND on answerable:   {ans_flagged}/{n_ans} = {:.1}%",
        pct(ans_flagged, n_ans)
    );
    println!("confidence-score AUC (answerable vs unanswerable): {auc:.3}");
    for ((answerable, level), n) in &levels {
        println!(
            "  {:<12} {level:<6} {n}",
            if *answerable {
                "answerable"
            } else {
                "unanswerable"
            }
        );
    }
    Ok(())
}
