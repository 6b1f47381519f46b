//! Words joined or split differently by the asker and the pages (docs/evidence.md, "Words
//! joined or split (stop 24)"): a small workspace that writes `file size` apart and `dryrun`
//! as one word, asked the other way round.

mod common;

use common::Builder;
use ontoly_capabilities::pack::confidence;
use ontoly_capabilities::retrieval::index::Params;
use ontoly_capabilities::retrieval::rank::{rank_with, Ranking};
use ontoly_capabilities::Index;
use ontoly_graph::graph::Graph;

fn fixture() -> (Graph, Index) {
    let mut b = Builder::new();
    b.article("guide/limits.md", "Limits");
    b.section(
        "guide/limits.md",
        "max-size",
        "Maximum file size",
        (3, 8),
        "Files above the maximum file size are skipped; the limit is 10 MB by default.",
    );
    b.section(
        "guide/limits.md",
        "depth",
        "Maximum depth",
        (9, 14),
        "The walk stops at the maximum depth; files below it are skipped.",
    );
    b.section(
        "guide/limits.md",
        "preview",
        "Previewing changes",
        (15, 20),
        "Pass --dryrun to print what would change without writing anything.",
    );
    let g = b.build();
    let ix = Index::build(&g);
    (g, ix)
}

fn read(r: &Ranking) -> Vec<(&str, Option<&str>)> {
    r.terms
        .iter()
        .map(|t| (t.query.word.as_str(), t.corrected.as_deref()))
        .collect()
}

#[test]
fn a_word_the_pages_write_apart_is_read_as_their_pair() {
    let (g, ix) = fixture();
    assert_eq!(ix.df("filesiz"), 0);
    let r = rank_with(&ix, "filesize limit", &Params::default());
    assert_eq!(
        read(&r),
        vec![("filesize", Some("file size")), ("limit", None)]
    );
    let first = r.sections().next().map(|s| s.id.as_str());
    assert_eq!(first, Some("section:guide/limits.md#max-size"));
    // Read, not unknown: the explanation names the user's word and what it was read as.
    let c = confidence::assess(&g, &r);
    assert!(
        c.explanation.contains("read filesize as file size")
            && !c.explanation.contains("not in this workspace"),
        "{}",
        c.explanation
    );
}

#[test]
fn words_the_pages_write_together_are_read_as_that_word() {
    let (_, ix) = fixture();
    // Neither `dry` nor `run` is a word of the workspace; `dryrun` is.
    assert_eq!(
        (ix.df("dry"), ix.df("run"), ix.df("dryrun") > 0),
        (0, 0, true)
    );
    let r = rank_with(&ix, "dry run changes", &Params::default());
    assert_eq!(
        read(&r),
        vec![("dry run", Some("dryrun")), ("changes", None)]
    );
    let first = r.sections().next().map(|s| s.id.as_str());
    assert_eq!(first, Some("section:guide/limits.md#preview"));
    // The hyphenated compound reads as the joined word too.
    let r = rank_with(&ix, "dry-run", &Params::default());
    assert_eq!(read(&r)[0], ("dry-run", Some("dryrun")));
    // A split into known words that never stand together reads nothing (`maximum depth` is
    // a pair of the pages; `size depth` is not).
    let r = rank_with(&ix, "sizedepth", &Params::default());
    assert_eq!(read(&r), vec![("sizedepth", None)]);
    let r = rank_with(&ix, "maximumdepth", &Params::default());
    assert_eq!(read(&r), vec![("maximumdepth", Some("maximum depth"))]);
}
