//! Every command answers the same bytes whether the graph was just built (`--no-cache`) or is
//! read in place from the mapped snapshot a previous process wrote; and a snapshot with a
//! corrupted byte anywhere in its node rows still yields the answer of a fresh build (the
//! corrupt read is noticed and the question answered again from a rebuilt snapshot).

mod common;

use common::{copy_dir, demo, fixtures, run_in, Run};
use std::path::Path;

/// The commands compared on every workspace.
const COMMON: &[&[&str]] = &[
    &["evidence", "retry", "--format", "json"],
    &["evidence", "how are plugins loaded?"],
    &["stats", "--format", "json"],
    &["validate", "--format", "json"],
    &["validate"],
    &[
        "run",
        "GraphStatistics",
        "--input",
        "{}",
        "--format",
        "json",
    ],
];

/// Commands that need the demo's pages and repositories.
const DEMO: &[&[&str]] = &[
    &[
        "evidence",
        "How does the checkout service retry failed payments?",
        "--format",
        "json",
    ],
    &["evidence", "cache eviction"],
    &["evidence", "refund", "--format", "yaml"],
    &["cites", "src/checkout.rs", "--format", "json"],
    &["refs", "knowledge/guides/checkout.md"],
    &[
        "graph",
        "--focus",
        "section:guides/checkout.md#payment-retry",
        "--format",
        "mermaid",
    ],
    &[
        "graph",
        "--focus",
        "section:guides/checkout.md#payment-retry",
        "--format",
        "dot",
    ],
    &["check", "--questions", "questions.yaml", "--format", "json"],
    &[
        "run",
        "SectionReferences",
        "--input",
        r#"{"path":"knowledge/guides/checkout.md","startLine":1,"endLine":200}"#,
        "--format",
        "json",
    ],
];

fn run(dir: &Path, cache: bool, args: &[&str]) -> Run {
    let mut all = vec!["--workspace", "."];
    if !cache {
        all.push("--no-cache");
    }
    all.extend_from_slice(args);
    run_in(dir, &all)
}

fn same(dir: &Path, name: &str, args: &[&str]) {
    let fresh = run(dir, false, args);
    let mapped = run(dir, true, args);
    assert_eq!(fresh.code, mapped.code, "{name} {args:?}: exit code");
    assert_eq!(fresh.stdout, mapped.stdout, "{name} {args:?}: stdout");
    assert_eq!(fresh.stderr, mapped.stderr, "{name} {args:?}: stderr");
}

/// A copy of `from` with a snapshot written by one process and confirmed used by the next.
fn warmed(from: &Path) -> tempfile::TempDir {
    let t = tempfile::tempdir().expect("tempdir");
    copy_dir(from, t.path());
    let _ = std::fs::remove_dir_all(t.path().join(".ontoly"));
    let cold = run(t.path(), true, &["build", "--format", "json"]);
    assert!(
        cold.stdout.contains(r#""status": "miss""#),
        "{}",
        cold.stdout
    );
    let warm = run(t.path(), true, &["build", "--format", "json"]);
    assert!(
        warm.stdout.contains(r#""status": "hit""#),
        "{}",
        warm.stdout
    );
    assert!(t.path().join(".ontoly/graph.map").is_file());
    t
}

#[test]
fn the_demo_answers_alike_from_the_mapped_snapshot() {
    let t = warmed(&demo());
    for args in COMMON.iter().chain(DEMO) {
        same(t.path(), "demo", args);
    }
}

#[test]
fn every_fixture_answers_alike_from_the_mapped_snapshot() {
    let mut seen = 0;
    for e in std::fs::read_dir(fixtures()).expect("fixtures").flatten() {
        // Fixtures that are workspaces as they are (others are made by a recipe).
        if !e.path().join("knowledge/structure.yaml").is_file() {
            continue;
        }
        seen += 1;
        let name = e.file_name().to_string_lossy().into_owned();
        let t = warmed(&e.path());
        for args in COMMON {
            same(t.path(), &name, args);
        }
    }
    assert!(seen >= 8, "only {seen} fixture workspaces");
}

#[test]
fn a_corrupt_snapshot_never_changes_an_answer() {
    let t = warmed(&demo());
    let args: &[&str] = &[
        "evidence",
        "How does the checkout service retry failed payments?",
        "--format",
        "json",
    ];
    let expected = run(t.path(), false, args);
    let path = t.path().join(".ontoly/graph.map");
    let good = std::fs::read(&path).expect("graph.map");
    // Offsets across the whole file: header, sections, sums.
    let steps = 24;
    let (mut noticed, mut refused) = (0, 0);
    for k in 0..steps {
        let at = (good.len() - 1) * k / (steps - 1);
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        std::fs::write(&path, &bad).expect("write");
        let r = run(t.path(), true, args);
        assert_eq!(r.code, expected.code, "flip at {at}: exit code");
        assert_eq!(r.stdout, expected.stdout, "flip at {at}: stdout");
        let fresh = std::fs::read(&path).expect("graph.map") != bad;
        refused += usize::from(fresh);
        if r.stderr.contains("failed its checksum") {
            noticed += 1;
            // The retry rebuilt the snapshot: the next process uses it as it is.
            let next = run(t.path(), true, &["build", "--format", "json"]);
            assert!(next.stdout.contains(r#""status": "hit""#), "flip at {at}");
        }
    }
    eprintln!("{noticed} noticed while answering, {refused} rewritten of {steps}");
    // Both paths are exercised: refused at open (header, manifest) and noticed by a read.
    assert!(
        noticed > 0 && refused > noticed,
        "{noticed} noticed, {refused} rewritten"
    );
}

#[test]
fn a_corrupt_search_index_never_changes_an_answer() {
    // The postings, and the term table a query searches before it reads any posting.
    corrupt_index_section("post.data");
    corrupt_index_section("terms");
}

/// Flips a byte in every block of the search index that lies wholly inside `section`, and
/// checks that a query notices, answers as a clean build does, and leaves a rebuilt index.
fn corrupt_index_section(section: &str) {
    use ontoly_graph::graph::store::container::Container;
    let t = warmed(&demo());
    // Words from across the alphabet: the term table and the postings are ordered by term, so
    // the query must read blocks throughout them to meet the corrupted ones.
    let args: &[&str] = &[
        "evidence",
        "cache eviction, plugins loaded, payments retried, refunds and webhooks",
        "--format",
        "json",
    ];
    let expected = run(t.path(), false, args);
    let path = t.path().join(".ontoly/artifacts/search-index.map");
    let mut bytes = std::fs::read(&path).expect("search-index.map");
    // Whole blocks only: a block shared with the `index` section (decoded at open) would be
    // refused at open and rebuilt without a word, which is another path.
    let c = Container::open_unkeyed(&path, *b"artifact").expect("opens");
    let block = c.block_size();
    let (at, len) = c.span_of(section).expect(section);
    drop(c);
    let inner: Vec<usize> = (at.div_ceil(block) * block..(at + len).saturating_sub(block - 1))
        .step_by(block)
        .collect();
    assert!(!inner.is_empty(), "{section} spans whole blocks");
    for b in inner {
        bytes[b] ^= 0x01;
    }
    std::fs::write(&path, &bytes).expect("write");
    let r = run(t.path(), true, args);
    assert_eq!(r.code, expected.code, "{section}");
    assert_eq!(
        r.stdout, expected.stdout,
        "{section}: the answer of a clean build"
    );
    assert!(
        r.stderr.contains("failed its checksum"),
        "{section}: {}",
        r.stderr
    );
    // The retry rebuilt the index: the next process answers without noticing anything.
    let next = run(t.path(), true, args);
    assert_eq!(next.stdout, expected.stdout, "{section}");
    assert!(
        !next.stderr.contains("checksum"),
        "{section}: {}",
        next.stderr
    );
}
