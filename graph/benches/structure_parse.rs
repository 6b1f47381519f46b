//! structure.yaml parsing throughput: the parallel chunked parse against a whole-document
//! parse, on a generated 10 000-section structure in the writer's block layout.
//! (`examples/structure_parse.rs` measures the full 100 000-section size once.)

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ontoly_graph::formats::structure::{fill_lines, from_value, parse_structure};
use ontoly_graph::formats::yaml::parse_value;

fn generate(sections: usize) -> String {
    let mut t = String::from("schema_version: context.approved-structure.v1\narticles:\n");
    let digest = format!("sha256:{}", "0123456789abcdef".repeat(4));
    for a in 0..sections.div_ceil(10) {
        t.push_str(&format!(
            "  - article_id: article-{a}\n    path: c/article-{a}.md\n    collection: c\n    visibility: public\n    sections:\n"
        ));
        for s in 0..10.min(sections - a * 10) {
            t.push_str(&format!(
                "      - id: section-{s}\n        references:\n          - source_ref: repo:20260901/module\n            locator: {{path: src/file-{a}.rs, start_line: {}, end_line: {}}}\n            content_digest: {digest}\n",
                s * 10 + 1,
                s * 10 + 9
            ));
        }
    }
    t.push_str("processed_scopes: []\ninput_hash: sha256:0\n");
    t
}

fn bench(c: &mut Criterion) {
    let text = generate(10_000);
    let mut group = c.benchmark_group("structure_parse");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(10);
    group.bench_function("parallel", |b| b.iter(|| parse_structure(&text)));
    group.bench_function("whole_document", |b| {
        b.iter(|| {
            parse_value(&text).map(|v| {
                let mut s = from_value(&v);
                fill_lines(&mut s, &text);
                s
            })
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
