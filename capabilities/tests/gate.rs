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
        .to_string()
        .contains("question 1"));
    assert!(parse_questions("- question: x\n  answerable: maybe")
        .unwrap_err()
        .to_string()
        .contains("answerable"));
    assert!(parse_questions("a: [")
        .unwrap_err()
        .to_string()
        .contains("invalid YAML"));
    assert!(parse_questions("42").is_err());
    // Two questions in one item: neither is guessed (`query` silently won over `q`), and the
    // error is at the second key's line.
    assert_eq!(
        parse_questions("- id: a\n  q: retry failed payments\n  query: deploy with helm\n")
            .unwrap_err()
            .to_string(),
        "line 3: question 1: both `q` and `query` ask a question: give one of them"
    );
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

#[test]
fn contradictions_and_wrong_values_are_told_at_their_key() {
    let err = |text: &str| parse_questions(text).expect_err(text).to_string();
    // Each wrong value at its key's line, not the item's; a byte order mark is no line.
    assert!(
        err("- q: x\n  note: n\n  answerable: \"yes\"\n").starts_with("line 3: question 1:"),
        "{}",
        err("- q: x\n  note: n\n  answerable: \"yes\"\n")
    );
    assert!(err("- q: x\n\n  expect: [1, 2]\n").starts_with("line 3: "));
    assert!(err("\u{feff}- q: x\n  note: n\n\n  expct: [a]\n").starts_with("line 4: "));
    // An unanswerable question that expects sections, and an answerable one whose `expect: []`
    // says unanswerable, contradict themselves.
    let e = err("- q: x\n  expect: [a#b]\n  answerable: false\n");
    assert!(
        e.starts_with("line 3: question 1: `answerable: false` but it expects sections"),
        "{e}"
    );
    let e = err("- q: x\n  answerable: true\n  expect: []\n");
    assert!(
        e.starts_with(
            "line 2: question 1: `answerable: true` but `expect: []` marks a question unanswerable"
        ),
        "{e}"
    );
    // Without `answerable`, `expect: []` is the corpus shape's unanswerable question.
    assert!(!parse_questions("- q: x\n  expect: []\n").expect("valid")[0].answerable);
}

#[test]
fn a_section_that_does_not_exist_fails_with_what_was_meant_even_when_known() {
    let (g, ix) = common::fixture();
    let q = parse_questions(
        "- question: How does cache eviction work?\n  expect: faq/cache.md#evicton\n  known_failure: ranks another section\n\
         - question: How does cache eviction work?\n  expect: eviction\n",
    )
    .expect("valid");
    let r = check(&ctx(&g, &ix), &q);
    assert_eq!((r.passed, r.failed, r.known), (0, 2, 0), "{:?}", r.outcomes);
    assert!(
        r.outcomes[0].reason.contains(
            "expected section faq/cache.md#evicton (did you mean faq/cache.md#eviction?) does not exist in this workspace; known_failure does not excuse"
        ),
        "{}",
        r.outcomes[0].reason
    );
    assert!(
        r.outcomes[1]
            .reason
            .contains("expected section eviction (did you mean faq/cache.md#eviction?)"),
        "{}",
        r.outcomes[1].reason
    );
    // A miss says where the expected section ranks and which of the question's words it
    // does not hold.
    let q = parse_questions(
        "- question: How does cache eviction work?\n  expect: guide/build.md#release\n",
    )
    .expect("valid");
    let r = check(&ctx(&g, &ix), &q);
    let reason = &r.outcomes[0].reason;
    let told = match r.outcomes[0].rank {
        Some(k) => format!("; section:guide/build.md#release is number {k} in the pack"),
        None => "; section:guide/build.md#release is number ".to_string(),
    };
    assert!(
        (reason.contains(&told) && reason.ends_with("and does not hold: cache, eviction"))
            || reason
                .contains("; section:guide/build.md#release holds none of the question's words"),
        "{reason}"
    );
}
