//! Reference verification throughput against its floor, measured in the same run.
//!
//! ```sh
//! python3 testdata/gen/generate.py --out /tmp/bench100k --articles 2000 \
//!     --sections-per-article 20 --refs-per-section 2-3 --repos 50 --files-per-repo 100 --git
//! ONTOLY_BENCH_WS=/tmp/bench100k cargo bench -p ontoly-graph --bench verify
//! ```
//!
//! Without `ONTOLY_BENCH_WS` a small workspace is generated in a temporary directory. Reported:
//! - verification: [`verify_all`] over every repository reference (read each distinct cited
//!   blob once, parse it once with tree-sitter, digest every range, pick its symbols);
//! - floor: reading the same distinct blobs (tree lookup + blob) and parsing the same texts
//!   with tree-sitter (parse only), each in parallel on all cores.
//!
//! Each figure is the best of three runs after one warm-up.

use ontoly_graph::sources::clones::repo_modules;
use ontoly_graph::sources::git::{GitRepo, LocalRepo, Lookup};
use ontoly_graph::sources::symbols::{parse, Lang};
use ontoly_graph::sources::verify::{verify_all, RangeCheck};
use ontoly_graph::{Session, SessionOptions};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn best<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let _ = f();
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..3 {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed());
        last = Some(r);
    }
    (best, last.expect("three runs"))
}

fn workspace() -> (PathBuf, Option<tempfile::TempDir>) {
    if let Ok(p) = std::env::var("ONTOLY_BENCH_WS") {
        return (PathBuf::from(p), None);
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("ws");
    let gen = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/gen/generate.py");
    let ok = std::process::Command::new("python3")
        .arg(gen)
        .arg("--out")
        .arg(&out)
        .args([
            "--articles",
            "100",
            "--repos",
            "6",
            "--files-per-repo",
            "30",
            "--git",
        ])
        .status()
        .expect("python3 runs")
        .success();
    assert!(ok, "generate.py failed");
    (out, Some(tmp))
}

fn main() {
    let (ws, _keep) = workspace();
    let session = Session::open(SessionOptions::new(&ws).workspace(&ws)).expect("workspace");
    let clones = session.clones().expect("ontoly.toml");
    let modules = repo_modules(&ws);
    let mut repos = Vec::new();
    let mut module_repo: BTreeMap<String, (Option<usize>, String, String)> = BTreeMap::new();
    for m in &modules {
        let idx = clones
            .find(Some(&m.name), m.remote.as_deref())
            .and_then(|p| GitRepo::open(p).ok())
            .map(|r| {
                repos.push(r);
                repos.len() - 1
            });
        module_repo.insert(
            m.name.clone(),
            (
                idx,
                m.git_ref.clone().unwrap_or_default(),
                m.subpath.clone(),
            ),
        );
    }
    let text = std::fs::read_to_string(ws.join("knowledge/structure.yaml")).expect("structure");
    let structure =
        ontoly_graph::formats::structure::parse_structure(&text).expect("structure parses");
    let mut cites = Vec::new();
    for a in structure.articles.iter().flatten() {
        for s in a.sections.iter().flatten() {
            for r in s.references.iter().flatten() {
                let (Some(sref), Some(loc)) = (r.source_ref.as_deref(), r.locator.as_ref()) else {
                    continue;
                };
                let Some((repo, commit, sub)) =
                    sref.strip_prefix("repo:").and_then(|n| module_repo.get(n))
                else {
                    continue;
                };
                let path = if sub.is_empty() {
                    loc.path.clone()
                } else {
                    format!("{}/{}", sub.trim_end_matches('/'), loc.path)
                };
                cites.push(RangeCheck {
                    repo: *repo,
                    commit: commit.clone(),
                    worktree: false,
                    path,
                    start_line: loc.start_line,
                    end_line: loc.end_line,
                    digest: r.content_digest.clone(),
                });
            }
        }
    }
    let mut files: Vec<(usize, String, String)> = cites
        .iter()
        .filter_map(|c| Some((c.repo?, c.commit.clone(), c.path.clone())))
        .collect();
    files.sort();
    files.dedup();
    let threads = rayon::current_num_threads();

    // Floor 1: read every distinct cited blob (tree lookup + blob), in parallel.
    let read_all = || -> Vec<String> {
        files
            .par_iter()
            .map_init(
                || -> Vec<Option<LocalRepo>> { (0..repos.len()).map(|_| None).collect() },
                |locals, (r, commit, path)| {
                    let l = locals[*r].get_or_insert_with(|| repos[*r].local());
                    match l.lookup(commit, path) {
                        Ok(Lookup::Blob { id, .. }) => {
                            String::from_utf8(l.blob(id).unwrap_or_default()).unwrap_or_default()
                        }
                        _ => String::new(),
                    }
                },
            )
            .collect()
    };
    let (t_read, texts) = best(read_all);
    let bytes: usize = texts.iter().map(String::len).sum();
    // Floor 2: parse the same texts with tree-sitter (no extraction), in parallel.
    let (t_parse, parsed) = best(|| {
        files
            .par_iter()
            .zip(texts.par_iter())
            .filter(|((_, _, p), _)| Lang::for_path(p).is_some())
            .map(|((_, _, p), t)| Lang::for_path(p).and_then(|l| parse(l, t)).is_some() as usize)
            .sum::<usize>()
    });
    // Verification, end to end.
    let (t_verify, outcomes) = best(|| verify_all(&repos, &cites, true));
    let verified = outcomes
        .iter()
        .filter(|o| o.status == ontoly_graph::sources::verify::Status::Verified)
        .count();
    let symbols: usize = outcomes.iter().map(|o| o.symbols.len()).sum();
    let floor = t_read + t_parse;
    let mb = bytes as f64 / 1e6;
    let s = |d: Duration| d.as_secs_f64();
    println!(
        "workspace: {} references over {} distinct files ({:.1} MB) in {} repositories; {} threads",
        cites.len(),
        files.len(),
        mb,
        repos.len(),
        threads
    );
    println!(
        "verified: {verified} of {}; {symbols} symbols; {parsed} files parsed",
        cites.len()
    );
    println!(
        "floor  blob reads   {:8.3} s  {:9.1} MB/s  {:9.0} files/s",
        s(t_read),
        mb / s(t_read),
        files.len() as f64 / s(t_read)
    );
    println!(
        "floor  ts parse     {:8.3} s  {:9.1} MB/s",
        s(t_parse),
        mb / s(t_parse)
    );
    println!("floor  read+parse   {:8.3} s", s(floor));
    println!(
        "verify all          {:8.3} s  {:9.1} MB/s  {:9.0} references/s",
        s(t_verify),
        mb / s(t_verify),
        cites.len() as f64 / s(t_verify)
    );
    println!("ratio verify/floor  {:8.2}", s(t_verify) / s(floor));
}
