//! Criterion benchmarks of the build pipeline on a small generated workspace (200 articles ×
//! 10 sections × 2–3 references): cold (no cache), warm (graph loaded from the snapshot), the
//! graph hash alone, and the floor (read and hash the inputs only). Large workspaces: `scripts/bench-build.sh`.

use criterion::{criterion_group, criterion_main, Criterion};
use ontoly_graph::formats::layout::Workspace;
use ontoly_graph::graph::build::inputs::read_inputs;
use ontoly_graph::{CachePolicy, Session, SessionOptions};
use std::fmt::Write;
use std::path::Path;

fn generate(root: &Path, articles: usize, sections: usize) {
    let know = root.join("knowledge");
    std::fs::create_dir_all(know.join("c")).unwrap();
    let mut s = String::from("schema_version: context.approved-structure.v1\narticles:\n");
    let digest = format!("sha256:{}", "ab".repeat(32));
    for a in 0..articles {
        let mut page = format!("---\ntitle: Article {a}\n---\n# Article {a}\n\n");
        let _ = write!(s, "  - article_id: a{a}\n    path: c/a{a}.md\n    collection: c\n    visibility: public\n    sections:\n");
        for k in 0..sections {
            let _ = write!(page, "<!-- context:section id=\"s{k}\" -->\n## Section {k}\n\nThe plugin loader of part {k} reads manifests and [links](a{}.md).\n<!-- /context:section -->\n\n", (a + 1) % articles);
            let _ = write!(s, "      - id: s{k}\n        references:\n");
            for r in 0..(2 + k % 2) {
                let start = 1 + 10 * r + k;
                let _ = write!(s, "          - source_ref: repo:bench/repo-{}\n            locator:\n              path: src/file{}.rs\n              start_line: {start}\n              end_line: {}\n            content_digest: {digest}\n", a % 4, k % 7, start + 5);
            }
        }
        std::fs::write(know.join(format!("c/a{a}.md")), page).unwrap();
    }
    std::fs::write(know.join("structure.yaml"), s).unwrap();
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("bench");
    generate(&root, 200, 10);
    let ws = Workspace::at(root.clone());
    let mut g = c.benchmark_group("build-2k-sections");
    g.sample_size(10);
    g.bench_function("floor (read + blake3)", |b| {
        b.iter(|| read_inputs(&ws).unwrap().files.len())
    });
    let open = |cache| {
        Session::open(SessionOptions::new(&root).workspace(&root).cache(cache))
            .and_then(Session::into_build)
            .unwrap()
    };
    g.bench_function("cold", |b| {
        b.iter(|| open(CachePolicy::Off).graph.node_count())
    });
    // The hash alone: canonical bytes of every node and edge through blake3 (part of cold).
    let graph = open(CachePolicy::Off).graph;
    g.bench_function("graph hash", |b| b.iter(|| graph.compute_hash().len()));
    open(CachePolicy::ReadWrite);
    g.bench_function("warm", |b| {
        b.iter(|| open(CachePolicy::ReadWrite).graph.node_count())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
