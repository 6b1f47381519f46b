//! Drift throughput against its floor, measured in the same run, on the development corpus
//! (testdata/corpora/requests: 262 references, base v2.28.0 -> later v2.32.3).
//!
//! ```sh
//! cargo bench -p ontoly-graph --bench drift
//! ```
//!
//! Reported (each the best of five runs after one warm-up, on all cores via rayon):
//! - floor: read both versions of every distinct cited file (tree lookup + blob at the pinned
//!   commit, and at the later commit under the later path) and diff the pairs that differ;
//! - the primitives alone: the tree diff plus git's rename detection; `-U0` hunks of the
//!   changed pairs;
//! - `drift::compare` end to end, without and with symbols (tree-sitter on both versions of
//!   the files with a changed reference).

#[path = "../tests/drift_common/mod.rs"]
mod drift_common;

use ontoly_graph::drift::{self, CitedRange, CompareOptions, DriftRepo};
use rayon::prelude::*;
use std::path::PathBuf;
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
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/corpora/requests");
    let refs = drift_common::workspace_refs(&corpus.join("ws"));
    let repo = DriftRepo::open(&corpus.join("repo.git")).expect("repo.git opens");
    let reader = repo.reader();
    let from = refs[0].commit.clone();
    assert!(refs.iter().all(|r| r.commit == from), "one pinned commit");
    let to = reader.resolve("v2.32.3").expect("later tag");
    let ranges: Vec<CitedRange> = refs
        .iter()
        .map(|r| CitedRange {
            path: r.path.clone(),
            start_line: r.start_line,
            end_line: r.end_line,
        })
        .collect();

    // The file pairs the floor reads: each distinct cited path and its later path (known in
    // advance here; finding it is part of drift's work, not of the floor).
    let targets = reader
        .tree_changes(&from, &to)
        .and_then(|c| c.rename_targets(&reader))
        .expect("renames");
    let mut pairs: Vec<(String, String)> = refs
        .iter()
        .map(|r| {
            let later = match reader.blob(&to, &r.path) {
                Ok(Some(_)) => r.path.clone(),
                _ => targets
                    .get(&r.path)
                    .cloned()
                    .unwrap_or_else(|| r.path.clone()),
            };
            (r.path.clone(), later)
        })
        .collect();
    pairs.sort();
    pairs.dedup();

    let read_and_diff = || -> (usize, usize) {
        pairs
            .par_iter()
            .map_init(
                || repo.reader(),
                |rd, (old, new)| {
                    let a = rd.blob(&from, old).ok().flatten().unwrap_or_default();
                    let b = rd.blob(&to, new).ok().flatten().unwrap_or_default();
                    let hunks = if a == b {
                        0
                    } else {
                        drift::hunks::diff_hunks(&a, &b).len()
                    };
                    (a.len() + b.len(), hunks)
                },
            )
            .reduce(|| (0, 0), |x, y| (x.0 + y.0, x.1 + y.1))
    };
    let (t_floor, (bytes, hunks)) = best(read_and_diff);

    let (t_renames, renames) = best(|| {
        let rd = repo.reader();
        rd.tree_changes(&from, &to)
            .and_then(|c| c.renames(&rd))
            .expect("renames")
            .len()
    });
    let blobs: Vec<(Vec<u8>, Vec<u8>)> = pairs
        .iter()
        .map(|(o, n)| {
            (
                reader.blob(&from, o).ok().flatten().unwrap_or_default(),
                reader.blob(&to, n).ok().flatten().unwrap_or_default(),
            )
        })
        .filter(|(a, b)| a != b)
        .collect();
    let (t_hunks, _) = best(|| {
        blobs
            .par_iter()
            .map(|(a, b)| drift::hunks::diff_hunks(a, b).len())
            .sum::<usize>()
    });
    let run = |symbols| {
        drift::compare(&repo, &from, &to, &ranges, CompareOptions { symbols }).expect("compare")
    };
    let (t_plain, out) = best(|| run(false));
    let (t_symbols, _) = best(|| run(true));
    let changed = out
        .iter()
        .filter(|d| d.outcome.as_ref().is_ok_and(|v| v.status() == "changed"))
        .count();
    // The symbols' own floor: a tree-sitter parse (no extraction) of both versions of every
    // file with a changed reference.
    let mut with_changed: Vec<(String, String)> = refs
        .iter()
        .zip(&out)
        .filter_map(|(r, d)| match &d.outcome {
            Ok(drift::Verdict::Changed { new_path, .. }) => {
                Some((r.path.clone(), new_path.clone()))
            }
            _ => None,
        })
        .collect();
    with_changed.sort();
    with_changed.dedup();
    let texts: Vec<(String, String)> = with_changed
        .iter()
        .flat_map(|(o, n)| {
            [
                (
                    o.clone(),
                    reader.blob(&from, o).ok().flatten().unwrap_or_default(),
                ),
                (
                    n.clone(),
                    reader.blob(&to, n).ok().flatten().unwrap_or_default(),
                ),
            ]
        })
        .map(|(p, b)| (p, String::from_utf8(b).unwrap_or_default()))
        .collect();
    let (t_parse, _) = best(|| {
        texts
            .par_iter()
            .filter_map(|(p, t)| {
                ontoly_graph::symbols::Lang::for_path(p)
                    .and_then(|l| ontoly_graph::symbols::parse(l, t))
            })
            .count()
    });
    let parse_bytes: usize = texts.iter().map(|(_, t)| t.len()).sum();

    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "corpus: {} references, {} distinct files ({:.2} MB for both versions), {} changed \
         references, {} hunks; {} threads",
        refs.len(),
        pairs.len(),
        bytes as f64 / 1e6,
        changed,
        hunks,
        rayon::current_num_threads()
    );
    println!(
        "floor  read both versions + diff changed  {:8.2} ms",
        ms(t_floor)
    );
    println!(
        "tree diff + git renames ({renames})        {:8.2} ms",
        ms(t_renames)
    );
    println!(
        "-U0 hunks of the changed pairs            {:8.2} ms",
        ms(t_hunks)
    );
    println!(
        "compare, no symbols                       {:8.2} ms",
        ms(t_plain)
    );
    println!(
        "compare, with symbols                     {:8.2} ms",
        ms(t_symbols)
    );
    println!(
        "floor  tree-sitter parse of both versions of the {} files with a changed reference \
         ({:.2} MB)  {:8.2} ms",
        with_changed.len(),
        parse_bytes as f64 / 1e6,
        ms(t_parse)
    );
    println!(
        "ratio compare/floor  {:5.2} (no symbols)  {:5.2} (with symbols, against read+diff+parse)",
        ms(t_plain) / ms(t_floor),
        ms(t_symbols) / (ms(t_floor) + ms(t_parse))
    );
}
