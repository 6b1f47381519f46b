//! Drift throughput against its floor, measured in the same run, on the development corpus
//! (testdata/corpora/requests: 262 references, base v2.28.0 -> later v2.32.3).
//!
//! ```sh
//! cargo bench -p ontoly-graph --bench drift
//! ```
//!
//! At scale, on a generated workspace whose repositories have a later commit:
//!
//! ```sh
//! python3 testdata/gen/generate.py --out /tmp/bench100k --articles 2000 \
//!     --sections-per-article 20 --refs-per-section 2-3 --repos 50 --files-per-repo 100 --git
//! python3 testdata/gen/drift_later.py /tmp/bench100k
//! ONTOLY_BENCH_DRIFT_WS=/tmp/bench100k cargo bench -p ontoly-graph --bench drift
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

use ontoly_graph::sources::drift::{self, CitedRange, CompareOptions, DriftRepo};
use ontoly_graph::sources::git::GitRepo;
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
    corpus();
    if let Ok(ws) = std::env::var("ONTOLY_BENCH_DRIFT_WS") {
        scale(Path::new(&ws));
    }
}

/// Reads both versions of every file pair and diffs those that differ: (bytes, hunks).
fn read_and_diff(
    repo: &DriftRepo,
    from: &str,
    to: &str,
    pairs: &[(String, String)],
) -> (usize, usize) {
    pairs
        .par_iter()
        .map_init(
            || repo.reader(),
            |rd, (old, new)| {
                let a = rd.blob(from, old).ok().flatten().unwrap_or_default();
                let b = rd.blob(to, new).ok().flatten().unwrap_or_default();
                let hunks = if a == b {
                    0
                } else {
                    drift::hunks::diff_hunks(&a, &b).len()
                };
                (a.len() + b.len(), hunks)
            },
        )
        .reduce(|| (0, 0), |x, y| (x.0 + y.0, x.1 + y.1))
}

/// The distinct (cited path, later path) pairs of `paths`, the later path being the same path
/// or its rename target (missing files keep their own path: the floor reads nothing there).
fn file_pairs(repo: &DriftRepo, from: &str, to: &str, paths: &[String]) -> Vec<(String, String)> {
    let reader = repo.reader();
    let targets = reader
        .tree_changes(from, to)
        .and_then(|c| c.rename_targets(&reader))
        .expect("renames");
    let mut pairs: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            let later = match reader.blob(to, p) {
                Ok(Some(_)) => p.clone(),
                _ => targets.get(p).cloned().unwrap_or_else(|| p.clone()),
            };
            (p.clone(), later)
        })
        .collect();
    pairs.sort();
    pairs.dedup();
    pairs
}

/// Drift over a generated workspace (one repository per module, tag `drift-later`).
fn scale(ws: &Path) {
    use ontoly_graph::sources::clones::{repo_modules, CloneMap};
    let refs = drift_common::workspace_refs(ws);
    let clones = CloneMap::load(ws, &[]).expect("ontoly.toml");
    let mut groups = Vec::new();
    let mut by_module: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, r) in refs.iter().enumerate() {
        by_module
            .entry(r.source_ref.trim_start_matches("repo:").to_string())
            .or_default()
            .push(i);
    }
    for m in repo_modules(ws) {
        let Some(idx) = by_module.get(&m.name) else {
            continue;
        };
        let path = clones
            .find(Some(&m.name), m.remote.as_deref())
            .expect("every module has a clone");
        let repo = DriftRepo::new(&GitRepo::open(path).expect("opens"));
        let to = repo
            .reader()
            .resolve("drift-later")
            .expect("drift_later.py ran");
        let from = refs[idx[0]].commit.clone();
        let ranges: Vec<CitedRange> = idx
            .iter()
            .map(|&i| CitedRange {
                path: refs[i].path.clone(),
                start_line: refs[i].start_line,
                end_line: refs[i].end_line,
            })
            .collect();
        let paths: Vec<String> = ranges.iter().map(|r| r.path.clone()).collect();
        let pairs = file_pairs(&repo, &from, &to, &paths);
        groups.push((repo, from, to, ranges, pairs));
    }
    let (t_floor, (bytes, hunks)) = best(|| {
        groups
            .iter()
            .map(|(repo, from, to, _, pairs)| read_and_diff(repo, from, to, pairs))
            .fold((0, 0), |x, y| (x.0 + y.0, x.1 + y.1))
    });
    let run = |symbols| {
        groups
            .iter()
            .flat_map(|(repo, from, to, ranges, _)| {
                drift::compare(
                    repo,
                    from,
                    to,
                    ranges,
                    CompareOptions {
                        symbols,
                        digests: false,
                        diffs: false,
                    },
                )
                .expect("compare")
            })
            .collect::<Vec<_>>()
    };
    let (t_plain, out) = best(|| run(false));
    let (t_symbols, _) = best(|| run(true));
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for d in &out {
        *counts
            .entry(d.outcome.as_ref().map_or("unverifiable", |v| v.status()))
            .or_default() += 1;
    }
    let files: usize = groups.iter().map(|g| g.4.len()).sum();
    // The symbols' floor: a tree-sitter parse of the pinned version of every file with a
    // changed or missing reference and of the later version of those with a changed one.
    let mut texts: Vec<(String, String)> = Vec::new();
    let mut k = 0;
    for (repo, from, to, ranges, _) in &groups {
        let rd = repo.reader();
        let mut seen = std::collections::BTreeSet::new();
        for r in ranges {
            let d = &out[k];
            k += 1;
            let later = match &d.outcome {
                Ok(drift::Verdict::Changed { new_path, .. }) => Some(new_path.clone()),
                Ok(drift::Verdict::Missing) => None,
                _ => continue,
            };
            if !seen.insert(r.path.clone()) {
                continue;
            }
            let read = |c: &str, p: &str| {
                String::from_utf8(rd.blob(c, p).ok().flatten().unwrap_or_default())
                    .unwrap_or_default()
            };
            texts.push((r.path.clone(), read(from, &r.path)));
            if let Some(n) = later {
                texts.push((n.clone(), read(to, &n)));
            }
        }
    }
    let (t_parse, _) = best(|| {
        texts
            .par_iter()
            .filter_map(|(p, t)| {
                ontoly_graph::sources::symbols::Lang::for_path(p)
                    .and_then(|l| ontoly_graph::sources::symbols::parse(l, t))
            })
            .count()
    });
    let parse_mb = texts.iter().map(|(_, t)| t.len()).sum::<usize>() as f64 / 1e6;
    let s = |d: Duration| d.as_secs_f64();
    println!(
        "\nscale: {} references over {} distinct files ({:.1} MB for both versions) in {} \
         repositories, {} hunks; {} threads; {:?}",
        refs.len(),
        files,
        bytes as f64 / 1e6,
        groups.len(),
        hunks,
        rayon::current_num_threads(),
        counts
    );
    println!(
        "floor  read both versions + diff changed  {:8.3} s",
        s(t_floor)
    );
    println!(
        "compare, no symbols                       {:8.3} s",
        s(t_plain)
    );
    println!(
        "compare, with symbols                     {:8.3} s",
        s(t_symbols)
    );
    println!(
        "floor  tree-sitter parse of {} file versions behind changed/missing references \
         ({parse_mb:.1} MB)  {:8.3} s",
        texts.len(),
        s(t_parse)
    );
    println!(
        "ratio compare/floor  {:5.2} (no symbols)  {:5.2} (with symbols, against read+diff+parse)",
        s(t_plain) / s(t_floor),
        s(t_symbols) / (s(t_floor) + s(t_parse))
    );
}

fn corpus() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/corpora/requests");
    let refs = drift_common::workspace_refs(&corpus.join("ws"));
    let repo = DriftRepo::new(&GitRepo::open(&corpus.join("repo.git")).expect("repo.git opens"));
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
    let paths: Vec<String> = refs.iter().map(|r| r.path.clone()).collect();
    let pairs = file_pairs(&repo, &from, &to, &paths);
    let (t_floor, (bytes, hunks)) = best(|| read_and_diff(&repo, &from, &to, &pairs));

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
        drift::compare(
            &repo,
            &from,
            &to,
            &ranges,
            CompareOptions {
                symbols,
                digests: false,
                diffs: false,
            },
        )
        .expect("compare")
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
                ontoly_graph::sources::symbols::Lang::for_path(p)
                    .and_then(|l| ontoly_graph::sources::symbols::parse(l, t))
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
