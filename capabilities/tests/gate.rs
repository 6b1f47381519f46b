//! Neighbourhoods and the questions gate (their renderings are the CLI's, tested there).

mod common;

use ontoly_capabilities::evidence::{Identity, Level};
use ontoly_capabilities::gate::{check, parse_questions};
use ontoly_capabilities::walk::neighbourhood;
use ontoly_capabilities::Context;

fn ctx<'a>(g: &'a ontoly_graph::graph::Graph, ix: &'a ontoly_capabilities::Index) -> Context<'a> {
    Context::detached(g, ix, Identity::default())
}

#[test]
fn neighbourhoods_stay_within_depth_and_keep_their_edges() {
    let (g, _) = common::fixture();
    let focus = "section:faq/cache.md#eviction";
    let (nodes, edges, truncated) = neighbourhood(&g, focus, 1).expect("focus exists");
    assert!(!truncated);
    assert!(nodes.iter().any(|n| n.id == "article:faq/cache.md"));
    assert!(edges.iter().all(|e| nodes.iter().any(|n| n.id == e.from)));
    assert!(neighbourhood(&g, "section:nope", 1).is_none());
}

const QUESTIONS: &str = "\
questions:
  - question: How does cache eviction work?
    expect: faq/cache.md#eviction
  - question: How are release builds made?
    expect: [knowledge/guide/build.md#release]
  - How big can the cache get?
  - question: How do I deploy to kubernetes with helm?
    answerable: false
";

#[test]
fn questions_parse_in_every_accepted_shape() {
    let q = parse_questions(QUESTIONS).expect("valid");
    assert_eq!(q.len(), 4);
    assert_eq!(q[0].expect, vec!["section:faq/cache.md#eviction"]);
    assert_eq!(q[1].expect, vec!["section:guide/build.md#release"]);
    assert_eq!(q[2].question, "How big can the cache get?");
    assert!(!q[3].answerable);
    assert_eq!(
        q.iter().map(|x| x.line).collect::<Vec<_>>(),
        vec![2, 4, 6, 7]
    );
    assert!(parse_questions("- {expect: x}")
        .unwrap_err()
        .contains("question 1"));
    assert!(parse_questions("- question: x\n  answerable: maybe")
        .unwrap_err()
        .contains("answerable"));
    assert!(parse_questions("a: [")
        .unwrap_err()
        .contains("invalid YAML"));
    assert!(parse_questions("42").is_err());
}

#[test]
fn the_gate_fails_weak_answers_and_missed_expectations() {
    let (g, ix) = common::fixture();
    let q = parse_questions(QUESTIONS).expect("valid");
    let r = check(&ctx(&g, &ix), &q);
    assert_eq!(r.total, 4);
    assert!(r.outcomes[0].passed, "{:?}", r.outcomes[0]);
    assert!(
        r.outcomes[3].passed,
        "unanswerable and weak: {:?}",
        r.outcomes[3]
    );
    // An uncited section is never more than medium; an expectation that is not met fails.
    let wrong = parse_questions(
        "- question: How does cache eviction work?\n  expect: guide/build.md#release\n",
    )
    .expect("valid");
    let r2 = check(&ctx(&g, &ix), &wrong);
    assert_eq!(r2.failed, 1);
    assert!(r2.outcomes[0]
        .reason
        .contains("expected one of section:guide/build.md#release"));
    let weak = parse_questions("- zookeeper quorum election timeouts\n").expect("valid");
    let r3 = check(&ctx(&g, &ix), &weak);
    assert_eq!(r3.failed, 1);
    assert!(r3.outcomes[0].reason.starts_with("CAPABILITY_NOT_FOUND"));
    assert_eq!(r3.outcomes[0].level, Level::None);
}
