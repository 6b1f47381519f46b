//! `Drift` end to end (the capability over an opened session: references resolved from the
//! build's parses, repositories of the session, one `compare` per module and commit pair)
//! against its floor, measured in the same run: reading both versions of every distinct cited
//! file and diffing the pairs that differ.
//!
//! ```sh
//! cargo bench -p ontoly-capabilities --bench drift          # the requests corpus
//! # 100k references (scripts/bench-drift.sh does all of this):
//! python3 testdata/gen/generate.py --out testdata/generated/drift100k --articles 2000 \
//!     --sections-per-article 20 --refs-per-section 2-3 --repos 50 --files-per-repo 100 --git
//! python3 testdata/gen/drift_later.py testdata/generated/drift100k
//! ONTOLY_BENCH_DRIFT_WS=testdata/generated/drift100k cargo bench -p ontoly-capabilities --bench drift
//! ```
//!
//! Each figure is the best of five runs after a warm-up (the session's parses and graph are
//! loaded once, before any timing, as in a warm `ontoly drift`). The floor's file pairs (the
//! later path of a renamed file included) are computed before timing: finding them is part of
//! drift's work, not of the floor.

use ontoly_capabilities::drift::{self, targets, DriftOptions};
use ontoly_graph::sources::drift::{hunks::diff_hunks, DriftRepo};
use ontoly_graph::{CachePolicy, Session, SessionOptions};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn best<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let _ = f();
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..5 {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed());
        last = Some(r);
    }
    (best, last.expect("five runs"))
}

fn main() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/corpora/requests/ws");
    measure("requests corpus", &corpus, "later");
    if let Ok(ws) = std::env::var("ONTOLY_BENCH_DRIFT_WS") {
        measure("generated workspace", Path::new(&ws), "drift-later");
    }
}

/// One floor item: a repository, the two commits, and a distinct (cited path, later path).
type Pair = (DriftRepo, String, String, String, String);

/// The distinct file pairs behind the references the plan compares.
fn pairs(session: &Session, to: &str) -> Vec<Pair> {
    let opts = DriftOptions::default().with_to_args([to]);
    let plan = targets::plan(session, &opts).expect("plan");
    let mut out = Vec::new();
    for g in &plan.groups {
        let repo = DriftRepo::new(&g.repo);
        let reader = repo.reader();
        let renames = reader
            .tree_changes(&g.from, &g.to)
            .and_then(|c| c.rename_targets(&reader))
            .expect("renames");
        let mut seen: BTreeMap<&str, String> = BTreeMap::new();
        for &i in &g.members {
            let p = plan.targets[i].range.path.as_str();
            seen.entry(p)
                .or_insert_with(|| match reader.blob(&g.to, p) {
                    Ok(Some(_)) => p.to_string(),
                    _ => renames.get(p).cloned().unwrap_or_else(|| p.to_string()),
                });
        }
        for (old, new) in seen {
            out.push((
                repo.clone(),
                g.from.clone(),
                g.to.clone(),
                old.to_string(),
                new,
            ));
        }
    }
    out
}

/// Reads both versions of every pair and diffs those that differ: (bytes, hunks).
fn floor(pairs: &[Pair]) -> (usize, usize) {
    pairs
        .par_iter()
        .map(|(repo, from, to, old, new)| {
            let rd = repo.reader();
            let a = rd.blob(from, old).ok().flatten().unwrap_or_default();
            let b = rd.blob(to, new).ok().flatten().unwrap_or_default();
            let hunks = if a == b { 0 } else { diff_hunks(&a, &b).len() };
            (a.len() + b.len(), hunks)
        })
        .reduce(|| (0, 0), |x, y| (x.0 + y.0, x.1 + y.1))
}

fn measure(label: &str, ws: &Path, to: &str) {
    if !ws.join("knowledge/structure.yaml").is_file() {
        eprintln!("skipping {label}: {} is not generated", ws.display());
        return;
    }
    let t = Instant::now();
    let session = Session::open(
        SessionOptions::new(ws)
            .workspace(ws)
            .cache(CachePolicy::ReadWrite),
    )
    .expect("the workspace opens");
    session.parsed().expect("the workspace parses");
    let t_open = t.elapsed();
    let items = pairs(&session, to);
    let (t_floor, (bytes, hunks)) = best(|| floor(&items));
    let run = |symbols: bool, digests: bool| {
        let opts = DriftOptions {
            symbols,
            digests,
            ..DriftOptions::default()
        }
        .with_to_args([to]);
        drift::drift(&session, &opts).expect("drift runs")
    };
    let (t_plain, report) = best(|| run(false, false));
    let (t_digests, _) = best(|| run(false, true));
    let (t_symbols, _) = best(|| run(true, false));
    let c = report.counts;
    let s = |d: Duration| d.as_secs_f64();
    println!(
        "\n{label}: {} references over {} distinct files ({:.1} MB for both versions), {} hunks; \
         {} unchanged, {} moved, {} changed, {} missing, {} unverifiable; {} threads; session \
         opened and parsed in {:.3} s",
        report.references.len(),
        items.len(),
        bytes as f64 / 1e6,
        hunks,
        c.unchanged,
        c.moved,
        c.changed,
        c.missing,
        c.unverifiable,
        rayon::current_num_threads(),
        s(t_open)
    );
    println!(
        "floor  read both versions + diff changed   {:8.3} s",
        s(t_floor)
    );
    println!(
        "Drift, no symbols                          {:8.3} s   {:5.2}x the floor",
        s(t_plain),
        s(t_plain) / s(t_floor)
    );
    println!(
        "Drift, digests (what --write computes)     {:8.3} s   {:5.2}x the floor",
        s(t_digests),
        s(t_digests) / s(t_floor)
    );
    println!(
        "Drift, with symbols (ontoly drift)         {:8.3} s   {:5.2}x the floor",
        s(t_symbols),
        s(t_symbols) / s(t_floor)
    );
}
