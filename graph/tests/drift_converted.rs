//! A documentation page converted to another markup (`docs/guide.rst` deleted, `docs/guide.md`
//! added) is no rename to git once most of its lines changed form, so its references are
//! missing. On a real git history (built with the git CLI, fixed dates) they name the file that
//! took the page's name, and a cited passage whose words survived the conversion is relocated
//! there by its words.

mod support;

use ontoly_graph::sources::drift::{
    self, CitedRange, CompareOptions, DriftRepo, RangeDrift, Verdict,
};
use ontoly_graph::sources::git::GitRepo;
use std::path::Path;

const GUIDE_RST: &str = r#"Getting Started
===============

Installation
------------

Install ``shop`` from the package index with ``pip install shop``.
It needs Python 3.8 or later and no compiler.

Retries
-------

A failed call is retried by :func:`shop.retry` with a growing delay.
The delay starts at ``backoff`` seconds and doubles after every attempt.
After ``max_attempts`` attempts the last error is raised to the caller.
Set ``max_attempts`` to ``1`` to turn retrying off entirely.

Legacy mode
-----------

The old ``LegacyClient`` opened one socket per request and kept no pool.
It was removed because every request paid for its own handshake.

Proxies
-------

Requests go through the proxy named by ``HTTPS_PROXY`` when it is set.
Hosts listed in ``NO_PROXY`` are reached directly, without the proxy.
See `the proxy guide <https://example.com/proxies>`_ for authentication.
"#;

// The same page in Markdown, with a new introduction above it (so lines shift), the legacy
// passage rewritten in other words under the same heading, and the proxies passage moved to a
// page of its own.
const GUIDE_MD: &str = r#"# Getting started

This page walks you through a first session.

## Installation

Install `shop` from the package index with `pip install shop`.
It needs Python 3.8 or later and no compiler.

## Retries

A failed call is retried by {func}`shop.retry` with a growing delay.
The delay starts at `backoff` seconds and doubles after every attempt.
After `max_attempts` attempts the last error is raised to the caller.
Set `max_attempts` to `1` to turn retrying off entirely.

## Legacy mode

Earlier releases shipped a client without connection pooling; it is gone.
"#;

// The proxies passage went to a page of its own when the guide was split.
const NETWORK_MD: &str = r#"# Networking

## Proxies

Requests go through the proxy named by `HTTPS_PROXY` when it is set.
Hosts listed in `NO_PROXY` are reached directly, without the proxy.
See [the proxy guide](https://example.com/proxies) for authentication.
"#;

// A Markdown page edited in place: a line added above the cited block, and its list items
// written with another marker.
const FAQ_OLD: &str = "# FAQ\n\n## Why retry?\n\n* Networks fail for a moment and recover.\n* A retry hides that from the caller.\n* Give up after `max_attempts` tries.\n";
const FAQ_NEW: &str = "# FAQ\n\nAnswers to common questions.\n\n## Why retry?\n\n- Networks fail for a moment and recover.\n- A retry hides that from the caller.\n- Give up after `max_attempts` tries.\n";

const OTHER_RST: &str = r#"Other
=====

A page that was deleted with nothing in its place, and enough words to cite.
Its second line says something else that nobody kept anywhere at all.
Its third line is here only so the range holds three lines of evidence.
"#;

fn write(dir: &Path, path: &str, text: &str) {
    let p = dir.join(path);
    std::fs::create_dir_all(p.parent().expect("a parent")).expect("mkdir");
    std::fs::write(p, text).expect("writes");
}

/// c1 has docs/guide.rst, docs/other.rst and docs/faq.md; c2 has docs/guide.md,
/// docs/network.md and docs/faq.md edited.
fn drift_of(ranges: &[CitedRange]) -> Vec<RangeDrift> {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    support::git(dir, &["init", "-q", "-b", "main"]);
    write(dir, "docs/guide.rst", GUIDE_RST);
    write(dir, "docs/other.rst", OTHER_RST);
    write(dir, "docs/faq.md", FAQ_OLD);
    support::git(dir, &["add", "-A"]);
    support::git(dir, &["commit", "-q", "-m", "c1"]);
    let c1 = support::git(dir, &["rev-parse", "HEAD"]);
    support::git(dir, &["rm", "-q", "docs/guide.rst", "docs/other.rst"]);
    write(dir, "docs/guide.md", GUIDE_MD);
    write(dir, "docs/network.md", NETWORK_MD);
    write(dir, "docs/faq.md", FAQ_NEW);
    support::git(dir, &["add", "-A"]);
    support::git(dir, &["commit", "-q", "-m", "c2"]);
    let c2 = support::git(dir, &["rev-parse", "HEAD"]);
    // The premise: git pairs nothing, so the references are missing, not changed.
    let renames = support::git(dir, &["diff", "-M", "--name-status", &c1, &c2]);
    assert!(!renames.contains('R'), "{renames}");
    let repo = DriftRepo::new(&GitRepo::open(dir).expect("opens"));
    let opts = CompareOptions {
        digests: true,
        diffs: true,
        ..CompareOptions::default()
    };
    drift::compare(&repo, &c1, &c2, ranges, opts).expect("compares")
}

fn range(path: &str, start_line: u64, end_line: u64) -> CitedRange {
    CitedRange {
        path: path.into(),
        start_line,
        end_line,
    }
}

#[test]
fn a_converted_page_names_its_successor_and_relocates_by_words() {
    let d = drift_of(&[
        // "Retries": heading, underline, blank, four sentences.
        range("docs/guide.rst", 10, 16),
        // "Legacy mode": rewritten in other words under the same heading.
        range("docs/guide.rst", 18, 22),
        range("docs/other.rst", 1, 6),
        // "Proxies": moved to docs/network.md; its link is written the Markdown way.
        range("docs/guide.rst", 24, 29),
        // The Markdown page edited in place: its heading and three list items.
        range("docs/faq.md", 3, 7),
    ]);
    for r in &d[..4] {
        assert_eq!(r.outcome, Ok(Verdict::Missing), "{r:?}");
    }

    // Found by its words in the Markdown page, at the section's new lines (10-15: the heading
    // and its four sentences), though no line is the same byte for byte.
    let retries = &d[0];
    assert_eq!(retries.successor.as_deref(), Some("docs/guide.md"));
    let to = retries.relocation.as_ref().expect("relocated by its words");
    assert!(to.by_words, "{to:?}");
    assert_eq!(to.path, "docs/guide.md");
    assert_eq!((to.start_line, to.end_line), (10, 15), "{to:?}");
    assert_eq!((to.matched, to.of), (5, 5), "{to:?}");
    // Accepting it would cite those lines: their digest and the diff against them are there.
    assert!(retries.relocated_digest.is_some());
    let diff = retries.diff.as_deref().expect("a diff against the window");
    assert!(diff.contains("+## Retries"), "{diff}");
    assert!(diff.contains("-Retries"), "{diff}");

    // Rewritten in other words: the successor holds its heading, so it is named; too little
    // of it is left for a window.
    let legacy = &d[1];
    assert_eq!(legacy.successor.as_deref(), Some("docs/guide.md"));
    assert_eq!(legacy.relocation, None);

    // Deleted with no namesake: neither.
    assert_eq!(d[2].successor, None);
    assert_eq!(d[2].relocation, None);

    // Split off into another page: found there by its words (the reStructuredText link's
    // trailing underscore is markup, not a word), and the page that took the old name, which
    // holds none of it, is not named.
    let proxies = &d[3];
    let to = proxies.relocation.as_ref().expect("relocated by its words");
    assert_eq!(
        (
            to.path.as_str(),
            to.start_line,
            to.end_line,
            to.matched,
            to.of,
            to.by_words
        ),
        ("docs/network.md", 3, 7, 4, 4, true),
        "{to:?}"
    );
    assert_eq!(proxies.successor, None);

    // In place, its list markers changed: the window holds the heading and all three items,
    // where byte for byte only the heading is left.
    let faq = &d[4];
    assert!(
        matches!(faq.outcome, Ok(Verdict::Changed { occurrences: 0, .. })),
        "{:?}",
        faq.outcome
    );
    let to = faq.relocation.as_ref().expect("relocated by its words");
    assert_eq!(
        (
            to.path.as_str(),
            to.start_line,
            to.end_line,
            to.matched,
            to.by_words
        ),
        ("docs/faq.md", 5, 9, 4, true),
        "{to:?}"
    );
}

#[test]
fn a_page_still_in_its_place_has_no_successor() {
    // A file that stayed (here: the Markdown page compared with itself) is not missing.
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let (c1, c2) = support::two_commits(
        dir,
        "guide.md",
        GUIDE_MD,
        &GUIDE_MD.replace("first", "second"),
    );
    let repo = DriftRepo::new(&GitRepo::open(dir).expect("opens"));
    let d = drift::compare(
        &repo,
        &c1,
        &c2,
        &[range("guide.md", 1, 3)],
        CompareOptions::default(),
    )
    .expect("compares");
    assert_eq!(d[0].successor, None);
    assert!(
        matches!(d[0].outcome, Ok(Verdict::Changed { .. })),
        "{:?}",
        d[0].outcome
    );
}
