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
use ontoly_graph::sources::symbols::{self, Lang};
use ontoly_graph::{CachePolicy, Session, SessionOptions};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// CPU seconds (user + system) this process has used, from `/proc/self/stat` (Linux; 0
/// elsewhere). On a shared machine CPU time varies less than wall time.
fn cpu() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name; 100 Hz.
    (ticks(11) + ticks(12)) / 100.0
}

/// The best wall time of five runs after a warm-up, with that run's CPU time.
fn best<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let _ = f();
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..5 {
        let (t, c) = (Instant::now(), cpu());
        let r = f();
        let wall = t.elapsed();
        if wall < best {
            best = wall;
            CPU.with(|x| x.set(cpu() - c));
        }
        last = Some(r);
    }
    (best, last.expect("five runs"))
}

thread_local! {
    /// The CPU seconds of the last best run [`best`] measured.
    static CPU: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
}

fn last_cpu() -> f64 {
    CPU.with(std::cell::Cell::get)
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

/// The file versions the symbols need: the pinned version of each file with a changed or
/// missing reference, the later version of each with a changed one.
fn symbol_texts(report: &drift::DriftReport, items: &[Pair]) -> Vec<(String, String)> {
    let mut wanted: BTreeMap<(String, String), (DriftRepo, String)> = BTreeMap::new();
    for r in &report.references {
        let (Some(pinned), Some(later)) = (&r.origin.pinned, &r.origin.later) else {
            continue;
        };
        let Some((repo, ..)) = items
            .iter()
            .find(|(_, from, to, old, _)| from == pinned && to == later && old == &r.path)
        else {
            continue;
        };
        match r.status {
            drift::Status::Changed => {
                wanted.insert(
                    (pinned.clone(), r.path.clone()),
                    (repo.clone(), r.path.clone()),
                );
                if let Some(n) = &r.new_path {
                    wanted.insert((later.clone(), n.clone()), (repo.clone(), n.clone()));
                }
            }
            drift::Status::Missing => {
                wanted.insert(
                    (pinned.clone(), r.path.clone()),
                    (repo.clone(), r.path.clone()),
                );
            }
            _ => {}
        }
    }
    wanted
        .into_iter()
        .map(|((commit, _), (repo, path))| {
            let bytes = repo
                .reader()
                .blob(&commit, &path)
                .ok()
                .flatten()
                .unwrap_or_default();
            (path, String::from_utf8(bytes).unwrap_or_default())
        })
        .collect()
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
    let c_floor = last_cpu();
    let run = |symbols: bool, digests: bool| {
        let opts = DriftOptions {
            symbols,
            digests,
            ..DriftOptions::default()
        }
        .with_to_args([to]);
        drift::drift(&session, &opts).expect("drift runs")
    };
    let (t_plan, _) = best(|| {
        let opts = DriftOptions::default().with_to_args([to]);
        targets::plan(&session, &opts).expect("plan").targets.len()
    });
    let c_plan = last_cpu();
    let (t_plain, report) = best(|| run(false, false));
    let c_plain = last_cpu();
    let (t_digests, _) = best(|| run(false, true));
    let c_digests = last_cpu();
    let (t_symbols, _) = best(|| run(true, false));
    let c_symbols = last_cpu();
    // The symbols' own floor: a tree-sitter parse (no extraction) of the pinned version of every
    // file with a changed or missing reference and of the later version of those with a
    // changed one.
    let texts = symbol_texts(&report, &items);
    let (t_parse, _) = best(|| {
        texts
            .par_iter()
            .filter_map(|(p, t)| Lang::for_path(p).and_then(|l| symbols::parse(l, t)))
            .count()
    });
    let c_parse = last_cpu();
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
    let line = |what: &str, wall: Duration, cpu: f64| {
        println!(
            "{what:<44} {:7.3} s wall {:5.2}x  {:7.2} s CPU {:5.2}x",
            s(wall),
            s(wall) / s(t_floor),
            cpu,
            if c_floor > 0.0 { cpu / c_floor } else { 0.0 }
        );
    };
    line("floor: read both versions + diff changed", t_floor, c_floor);
    line(
        "  references resolved and grouped (in Drift)",
        t_plan,
        c_plan,
    );
    line("Drift, no symbols", t_plain, c_plain);
    line(
        "Drift, digests (what --write computes)",
        t_digests,
        c_digests,
    );
    line("Drift, with symbols (ontoly drift)", t_symbols, c_symbols);
    println!(
        "floor with symbols: read + diff + tree-sitter parse of {} file versions ({:.1} MB): \
         {:.3} s wall, {:.2} s CPU; Drift with symbols {:.2}x (wall) {:.2}x (CPU) of it",
        texts.len(),
        texts.iter().map(|(_, t)| t.len()).sum::<usize>() as f64 / 1e6,
        s(t_floor + t_parse),
        c_floor + c_parse,
        s(t_symbols) / s(t_floor + t_parse),
        c_symbols / (c_floor + c_parse)
    );
}
