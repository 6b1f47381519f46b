//! Measures structure.yaml parsing: whole-document vs the parallel chunked parse.
//!
//! `cargo run --release -p ontoly-graph --example structure_parse -- [SECTIONS] [FILE]`
//! generates a structure with SECTIONS sections (default 100 000, ~50 MB) in the writer's
//! block layout, or reads FILE, and prints time and MB/s for both parsers.

use ontoly_graph::formats::structure::{fill_lines, from_value, parse_structure};
use ontoly_graph::formats::yaml::parse_value;
use std::time::Instant;

/// A structure in Context's block layout: 10 sections per article, 1 or 2 references per
/// section (about 470 bytes a section, like real workspaces).
fn generate(sections: usize) -> String {
    let mut t = String::from("schema_version: context.approved-structure.v1\narticles:\n");
    let digest = format!("sha256:{}", "0123456789abcdef".repeat(4));
    for a in 0..sections.div_ceil(10) {
        t.push_str(&format!(
            "  - article_id: article-{a}\n    path: collection-{}/article-{a}.md\n    collection: collection-{}\n    visibility: public\n    sections:\n",
            a % 50,
            a % 50
        ));
        for s in 0..10.min(sections - a * 10) {
            t.push_str(&format!("      - id: section-{s}\n        references:\n"));
            for r in 0..1 + s % 2 {
                t.push_str(&format!(
                    "          - source_ref: repo:20260901/module-{r}\n            locator:\n              path: src/dir-{}/file-{a}.rs\n              start_line: {}\n              end_line: {}\n            content_digest: {digest}\n",
                    a % 97,
                    s * 10 + 1,
                    s * 10 + 9
                ));
            }
        }
    }
    t.push_str("processed_scopes: []\ninput_hash: sha256:0\n");
    t
}

/// Process CPU time (user + system, all threads) in seconds, from /proc on Linux: on a shared
/// machine wall time says more about the neighbours than about the parser.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let sections: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let text = match args.next() {
        Some(path) => std::fs::read_to_string(path).expect("readable UTF-8 file"),
        None => generate(sections),
    };
    if std::env::var_os("BREAKDOWN").is_some() {
        breakdown(&text);
    }
    let mb = text.len() as f64 / 1e6;
    println!("{mb:.1} MB, {} threads", rayon::current_num_threads());
    let (t, c) = (Instant::now(), cpu_seconds());
    let parallel = parse_structure(&text).expect("valid structure");
    let dp = t.elapsed().as_secs_f64();
    let cpu = c.zip(cpu_seconds()).map_or(f64::NAN, |(a, b)| b - a);
    println!(
        "parallel: {dp:.3} s wall ({:.1} MB/s), {cpu:.2} s CPU",
        mb / dp
    );
    if std::env::var_os("ONLY_PARALLEL").is_some() {
        return;
    }
    let (t, c) = (Instant::now(), cpu_seconds());
    let mut serial = from_value(&parse_value(&text).expect("valid YAML"));
    fill_lines(&mut serial, &text);
    let ds = t.elapsed().as_secs_f64();
    let cpu = c.zip(cpu_seconds()).map_or(f64::NAN, |(a, b)| b - a);
    println!(
        "whole-document: {ds:.3} s wall ({:.1} MB/s), {cpu:.2} s CPU",
        mb / ds
    );
    assert_eq!(parallel, serial, "the two parses must agree");
    let n: usize = parallel
        .articles
        .iter()
        .flatten()
        .map(|a| a.sections.as_ref().map_or(0, Vec::len))
        .sum();
    println!("{n} sections, identical results");
}

#[allow(dead_code)]
fn breakdown(text: &str) {
    let t = Instant::now();
    let mut fast = parse_structure(text).expect("valid");
    println!("  parse_structure: {:.3} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    fill_lines(&mut fast, text);
    println!("  fill_lines again: {:.3} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    drop(fast);
    println!("  drop: {:.3} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let v = parse_value(text).expect("valid");
    println!("  parse_value: {:.3} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let mut s = from_value(&v);
    println!("  from_value: {:.3} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    fill_lines(&mut s, text);
    println!("  fill_lines: {:.3} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let ev: Result<yaml_serde::Value, _> = yaml_serde::from_str(text);
    println!(
        "  yaml_serde::from_str raw: {:.3} s {}",
        t.elapsed().as_secs_f64(),
        ev.is_ok()
    );
    let t = Instant::now();
    drop(v);
    println!("  drop value: {:.3} s", t.elapsed().as_secs_f64());
}
