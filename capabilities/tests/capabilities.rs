//! Capabilities over a hand-assembled graph: pack fields, clamping, determinism, every
//! diagnostic code, and the structural capabilities.

mod common;

use ontoly_capabilities::evidence::*;
use ontoly_capabilities::registry::{describe, run, run_json, CAPABILITIES};
use ontoly_capabilities::{pack, Context, EvidencePack, Index};
use serde_json::{json, Value};

fn ctx<'a>(g: &'a ontoly_graph::graph::Graph, ix: &'a Index) -> Context<'a> {
    Context::detached(
        g,
        ix,
        Identity {
            name: "demo".into(),
            root: "testdata/demo".into(),
            knowledge_commit: Some(common::KNOWLEDGE_COMMIT.into()),
        },
    )
}

fn pack_of(r: &CapabilityResult) -> EvidencePack {
    serde_json::from_value(r.data.clone()).expect("EvidencePack data")
}

#[test]
fn pack_answers_with_the_right_section_and_every_canonical_field() {
    let (g, ix) = common::fixture();
    let r = run(
        &ctx(&g, &ix),
        "EvidencePack",
        &json!({"query": "how does cache eviction work?"}),
    );
    let v = &r.data;
    for f in [
        "version",
        "query",
        "answer",
        "graphFacts",
        "topNodes",
        "topEdges",
        "relevantFiles",
        "relationships",
        "diagnostics",
        "confidence",
        "suggestedCommands",
        "stableIds",
        "filesToInspect",
        "fallbacks",
        "provenance",
    ] {
        assert!(v.get(f).is_some(), "missing canonical field {f}");
    }
    let p = pack_of(&r);
    assert_eq!(p.stable_ids[0], "section:faq/cache.md#eviction");
    assert_eq!(p.limit, 12);
    assert!(p.top_nodes.len() <= 12);
    assert_eq!(p.confidence.level, Level::High, "{:?}", p.confidence);
    assert!(p.fallbacks.is_empty());
    let read = p
        .files_to_inspect
        .iter()
        .find(|r| r.start_line == 10)
        .expect("the cited range is a pinned read");
    assert_eq!(read.commit.as_deref(), Some(common::COMMIT));
    assert_eq!(read.path, "src/cache.rs");
    assert_eq!(
        read.url.as_deref(),
        Some("https://github.com/acme/server/blob/0123456789abcdef0123456789abcdef01234567/src/cache.rs#L10-L30")
    );
    assert_eq!(p.provenance.graph_hash, g.hash);
    assert_eq!(p.provenance.root, "testdata/demo");
    assert!(p.relationships.get("CITES").copied().unwrap_or(0) >= 2);
    insta::assert_json_snapshot!("pack_cache_eviction", v);
}

#[test]
fn symbols_propagate_to_the_sections_that_cite_them() {
    let (g, ix) = common::fixture();
    // "evict_oldest" appears in no section text as such (the text says evictOldest), only in
    // the symbol: the section ranks through its citation, and the symbol is in the pack.
    let p = pack::evidence_pack(&ctx(&g, &ix), "evict_oldest", None).pack;
    let sec = p
        .top_nodes
        .iter()
        .find(|t| t.node.id == "section:faq/cache.md#eviction");
    assert!(sec.is_some(), "{:?}", p.stable_ids);
    assert!(p.stable_ids.iter().any(|i| i.starts_with("symbol:")));
    assert!(sec.unwrap().via.contains(&"cites".to_string()));
}

#[test]
fn same_graph_and_input_give_identical_bytes() {
    let (g, ix) = common::fixture();
    let (g2, _) = common::fixture();
    let ix2 = Index::from_bytes(&ix.to_bytes(), &g2).expect("index round-trips");
    assert_eq!(ix2, ix);
    for q in ["cache eviction", "release builds", "kubernetes autoscaling"] {
        let a = run(
            &ctx(&g, &ix),
            "EvidencePack",
            &json!({"query": q, "limit": 7}),
        )
        .to_json();
        let b = run(
            &ctx(&g2, &ix2),
            "EvidencePack",
            &json!({"query": q, "limit": 7}),
        )
        .to_json();
        assert_eq!(a, b);
    }
}

#[test]
fn the_index_read_in_place_answers_like_the_built_one() {
    use ontoly_capabilities::retrieval::index::Params;
    use ontoly_graph::graph::store::container::{Container, Writer};
    let (g, ix) = common::fixture();
    let container = |sections: &[(String, Vec<u8>)]| {
        let mut w = Writer::new(*b"artifact", &g.hash);
        for (n, b) in sections {
            w.section(n, b);
        }
        Container::from_bytes(w.finish().expect("bytes"), *b"artifact", &g.hash).expect("container")
    };
    let mapped = Index::from_container(container(&ix.to_sections()), &g).expect("mapped");
    assert_eq!(mapped, ix, "every section, read in place");
    assert_eq!(Index::from_bytes(&ix.to_bytes(), &g).expect("bytes"), ix);
    for q in [
        "cache eviction",
        "retry payments",
        "plugins loaded",
        "nothing like it",
    ] {
        let terms: Vec<(String, f64)> = ontoly_capabilities::retrieval::index::query_terms(q)
            .into_iter()
            .map(|t| (t.term.clone(), 1.0))
            .collect();
        let p = Params::default();
        assert_eq!(
            mapped.search(&terms, &[], &p),
            ix.search(&terms, &[], &p),
            "{q}"
        );
    }
    assert!(!mapped.is_corrupt());
    // Run offsets that disagree with the number of postings are refused.
    let mut bad = ix.to_sections();
    let skip = bad
        .iter_mut()
        .find(|(n, _)| *n == "post.skip")
        .expect("skip");
    skip.1.truncate(skip.1.len() - 8);
    assert!(Index::from_container(container(&bad), &g).is_err());
    bad.retain(|(n, _)| *n != "post.data");
    assert!(Index::from_container(container(&bad), &g).is_err());
    // Every section is needed, and every block table must match the counts.
    let good = ix.to_sections();
    for (name, _) in &good {
        let without: Vec<_> = good.iter().filter(|(n, _)| n != name).cloned().collect();
        assert!(
            Index::from_container(container(&without), &g).is_err(),
            "without {name}"
        );
        if name.ends_with(".idx") || name == "terms.start" || name == "doc.kind" {
            let mut cut = good.clone();
            let s = cut.iter_mut().find(|(n, _)| n == name).expect("section");
            s.1.truncate(s.1.len().saturating_sub(4));
            assert!(
                Index::from_container(container(&cut), &g).is_err(),
                "{name} cut"
            );
        }
    }
}

#[test]
fn the_stored_term_table_and_documents_read_back() {
    let (g, ix) = common::fixture();
    // Every term, in strictly increasing order, found again by lookup with its frequencies.
    let mut terms: Vec<(String, usize)> = Vec::new();
    ix.terms_with_prefix("", |t, df| {
        terms.push((t.to_string(), df));
        true
    });
    // More than two blocks of the term table.
    assert_eq!(terms.len(), ix.term_count());
    assert!(terms.len() > 64, "{}", terms.len());
    assert!(terms.windows(2).all(|w| w[0].0 < w[1].0));
    for (t, df) in &terms {
        assert_eq!(ix.df_sections(t), *df, "{t}");
        assert!(ix.df(t) >= *df && ix.df(t) > 0, "{t}");
    }
    // A prefix visits exactly the terms that start with it; stopping early is honoured.
    for prefix in ["c", "ca", "cache", "zzz", "-", ""] {
        let mut got = Vec::new();
        ix.terms_with_prefix(prefix, |t, _| {
            got.push(t.to_string());
            true
        });
        let want: Vec<String> = terms
            .iter()
            .filter(|(t, _)| t.starts_with(prefix))
            .map(|(t, _)| t.clone())
            .collect();
        assert_eq!(got, want, "{prefix}");
    }
    let mut two = 0;
    ix.terms_with_prefix("", |_, _| {
        two += 1;
        two < 2
    });
    assert_eq!(two, 2);
    assert_eq!(ix.df("no-such-term-anywhere"), 0);
    assert_eq!(ix.df(""), 0);
    // Every document: its id names a node of its kind and leads back to it; links in range.
    let mut sections = 0;
    for d in 0..ix.len() as u32 {
        let id = ix.doc_id(d).expect("id");
        let node = g.node(&id).expect("a node of the graph");
        assert_eq!(ix.kind(d), Some(node.kind), "{id}");
        assert_eq!(ix.doc_of(&id), Some(d), "{id}");
        let links = ix.links(d);
        assert!(links.windows(2).all(|w| w[0] < w[1]), "{id}");
        assert!(links.iter().all(|&l| (l as usize) < ix.len()), "{id}");
        sections += usize::from(node.kind == ontoly_graph::graph::model::NodeKind::Section);
    }
    assert_eq!(sections, ix.sections());
    assert_eq!(ix.doc_id(ix.len() as u32), None);
    assert_eq!(ix.doc_of("section:no/such.md#page"), None);
    assert_eq!(ix.doc_of(""), None);
}

#[test]
fn a_stale_or_corrupt_index_is_refused() {
    let (g, ix) = common::fixture();
    let mut b = common::Builder::new();
    b.article("x.md", "Other");
    let other = b.build();
    assert!(matches!(
        Index::from_bytes(&ix.to_bytes(), &other),
        Err(ontoly_capabilities::retrieval::index::IndexError::Stale)
    ));
    assert!(matches!(
        Index::from_bytes(b"garbage", &g),
        Err(ontoly_capabilities::retrieval::index::IndexError::Corrupt(
            _
        ))
    ));
}

#[test]
fn limits_are_clamped_to_5_through_20() {
    let (g, ix) = common::fixture();
    for (asked, got, clamped) in [
        (1, 5, true),
        (5, 5, false),
        (20, 20, false),
        (99, 20, true),
        (-3, 5, true),
    ] {
        let r = run(
            &ctx(&g, &ix),
            "EvidencePack",
            &json!({"query": "cache", "limit": asked}),
        );
        let p = pack_of(&r);
        assert_eq!(p.limit, got, "limit {asked}");
        assert_eq!(
            r.has(Code::CapabilityLimitClamped),
            clamped,
            "limit {asked}"
        );
        assert!(p.top_nodes.len() <= got);
    }
    let r = run(
        &ctx(&g, &ix),
        "EvidencePack",
        &json!({"query": "cache", "limit": u64::MAX}),
    );
    assert_eq!(pack_of(&r).limit, 20);
}

/// CitationsOf's `limit` takes any integer and clamps it to 1–50, so its schema states no
/// bounds a strict client would hold the caller to (MCP-TS walk: `limit` 0 and 100000 were
/// clamped while the schema said 1–50).
#[test]
fn citations_of_clamps_any_integer_limit_and_its_schema_says_no_bounds() {
    let (g, ix) = common::fixture();
    let c = ctx(&g, &ix);
    for (asked, clamped) in [
        (json!(0), true),
        (json!(-3), true),
        (json!(1), false),
        (json!(50), false),
        (json!(100_000), true),
        (json!(u64::MAX), true),
    ] {
        let r = run(
            &c,
            "CitationsOf",
            &json!({"target": "src/cache.rs", "limit": asked}),
        );
        assert!(!r.is_error(), "limit {asked}: {}", r.summary);
        assert_eq!(
            r.has(Code::CapabilityLimitClamped),
            clamped,
            "limit {asked}"
        );
        assert_eq!(r.data["sectionCount"], 1, "limit {asked}");
    }
    let r = run(
        &c,
        "CitationsOf",
        &json!({"target": "src/cache.rs", "limit": 1.5}),
    );
    assert!(r.has(Code::CapabilityInvalidInput));
    let schema = serde_json::to_value(describe()).expect("describe");
    let limit = schema
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["name"] == "CitationsOf")
        .map(|c| c["inputSchema"]["properties"]["limit"].clone())
        .unwrap_or_default();
    assert_eq!(limit["type"], "integer", "{limit}");
    assert_eq!(limit["default"], 50, "{limit}");
    assert!(
        limit.get("minimum").is_none() && limit.get("maximum").is_none(),
        "{limit}"
    );
}

#[test]
fn every_diagnostic_code_is_raised_where_it_should_be() {
    let (g, ix) = common::fixture();
    let c = ctx(&g, &ix);
    let r = run(&c, "Nope", &json!({}));
    assert!(r.has(Code::CapabilityNotRegistered) && r.is_error());
    let r = run(&c, "EvidencePack", &json!({"limit": 3}));
    assert!(r.has(Code::CapabilityInvalidInput) && r.is_error());
    assert!(
        r.summary.contains("query"),
        "says what was expected: {}",
        r.summary
    );
    let r = run(&c, "EvidencePack", &json!({"query": 3}));
    assert!(r.has(Code::CapabilityInvalidInput));
    let r = run(&c, "EvidencePack", &json!({"query": "x", "extra": true}));
    assert!(r.has(Code::CapabilityInvalidInput));
    let r = run_json(&c, "EvidencePack", "{not json");
    assert!(r.has(Code::CapabilityInvalidInput));

    let r = run(
        &c,
        "EvidencePack",
        &json!({"query": "kubernetes autoscaling helm"}),
    );
    assert!(r.has(Code::CapabilityNotFound));
    let p = pack_of(&r);
    assert_eq!(p.confidence.level, Level::None);
    assert!(!p.fallbacks.is_empty());
    assert!(p.top_nodes.is_empty());

    // Common words match, the distinctive ones do not: low, never invented.
    let r = run(
        &c,
        "EvidencePack",
        &json!({"query": "cache warming with redis cluster replicas"}),
    );
    assert!(r.has(Code::CapabilityLowEvidence), "{:?}", r.confidence);
    assert!(!pack_of(&r).fallbacks.is_empty());
    // Its answer says so first, and names the closest section only as that.
    let answer = &pack_of(&r).answer;
    assert!(
        answer.starts_with("No section clearly answers this; the closest is \""),
        "{answer}"
    );
    let strong = run(
        &c,
        "EvidencePack",
        &json!({"query": "How does cache eviction work?"}),
    );
    assert!(pack_of(&strong).answer.starts_with("Best answered by \""));

    let r = run(&c, "EvidencePack", &json!({"query": "cache", "limit": 50}));
    assert!(r.has(Code::CapabilityLimitClamped));
    let r = run(
        &c,
        "EvidencePack",
        &json!({"query": "cache release eviction sizing builds", "limit": 5}),
    );
    assert!(r.has(Code::CapabilityEvidenceTruncated));
}

#[test]
fn a_trace_of_frames_alone_is_at_most_medium() {
    let (g, ix) = common::fixture();
    let frames = "\tat com.acme.server.Cache.evictOldest(Cache.java:20)\n\tat com.acme.server.Cache.insert(Cache.java:44)\n\tat com.example.app.Main.main(Main.java:5)";
    let p = pack::evidence_pack(&ctx(&g, &ix), frames, None).pack;
    // The frames are searched in the message's place, and say so; what went wrong is not
    // said, so the pack is never `high`.
    assert_eq!(p.stable_ids[0], "section:faq/cache.md#eviction");
    assert_ne!(p.confidence.level, Level::High, "{:?}", p.confidence);
    assert!(
        p.confidence
            .explanation
            .contains("read as a pasted trace without a message"),
        "{}",
        p.confidence.explanation
    );
    // With its message, the same trace is read as any other.
    let message = format!("java.lang.IllegalStateException: cache eviction failed\n{frames}");
    let p = pack::evidence_pack(&ctx(&g, &ix), &message, None).pack;
    assert!(
        !p.confidence.explanation.contains("without a message"),
        "{}",
        p.confidence.explanation
    );
}

#[test]
fn a_go_runtime_message_is_neither_matched_nor_missing() {
    let (g, ix) = common::fixture();
    // The viper walk (stop 52): the runtime's words were "unmatched: runtime, error, invalid,
    // memory, address, dereference" and flagged a right answer `low`.
    let q =
        "panic: runtime error: invalid memory address or nil pointer dereference in cache eviction";
    let p = pack::evidence_pack(&ctx(&g, &ix), q, None).pack;
    assert_eq!(p.stable_ids[0], "section:faq/cache.md#eviction");
    let e = &p.confidence.explanation;
    for word in [
        "runtime",
        "invalid",
        "memory",
        "address",
        "dereference",
        "panic",
    ] {
        assert!(
            !e.contains(&format!(" {word},")) && !e.contains(&format!(" {word})")),
            "{e}"
        );
    }
    assert!(
        e.contains(
            "the runtime's own message searched, counted neither as matched nor as unmatched"
        ),
        "{e}"
    );
    // What the asker says is judged as if it were all: the runtime's words weigh nothing.
    let plain = pack::evidence_pack(&ctx(&g, &ix), "in cache eviction", None).pack;
    assert_eq!(p.confidence.level, plain.confidence.level, "{e}");
}

#[test]
fn graph_diagnostics_reach_the_pack_of_the_section_they_concern() {
    let (g, ix) = common::fixture();
    let p = pack::evidence_pack(&ctx(&g, &ix), "release builds", None).pack;
    assert_eq!(p.stable_ids[0], "section:guide/build.md#release");
    assert!(p
        .diagnostics
        .iter()
        .any(|d| d.code == Code::EntryIncomplete));
    // An uncited section is not grounded: never high.
    assert_ne!(p.confidence.level, Level::High);
}

#[test]
fn citations_of_a_file_a_range_and_a_symbol() {
    let (g, ix) = common::fixture();
    let c = ctx(&g, &ix);
    let r = run(&c, "CitationsOf", &json!({"target": "src/cache.rs"}));
    assert_eq!(r.data["sectionCount"], 1);
    let r = run(&c, "CitationsOf", &json!({"target": "src/cache.rs:41-45"}));
    assert_eq!(
        r.data["sections"][0]["citations"].as_array().map(Vec::len),
        Some(1)
    );
    // The forms other outputs print for the same lines: a line anchor, the references YAML's
    // web URL (its commit and host aside, the path and lines count).
    for same in [
        "src/cache.rs#L41-L45",
        "github.com/acme/cache@0123456789ab:src/cache.rs:41-45",
        "https://github.com/acme/cache/blob/0123456789abcdef0123456789abcdef01234567/src/cache.rs#L41-L45",
    ] {
        let again = run(&c, "CitationsOf", &json!({ "target": same }));
        assert_eq!(again.data["sections"], r.data["sections"], "{same}");
    }
    let one_line = run(&c, "CitationsOf", &json!({"target": "src/cache.rs#L43"}));
    assert_eq!(one_line.data["sections"], r.data["sections"]);
    // A range as the text labels it (its id without `range:`) is that range.
    let range = g
        .nodes_of(ontoly_graph::graph::model::NodeKind::Range)
        .find(|n| n.id.contains("src/cache.rs#L"))
        .expect("a cited range of src/cache.rs");
    let label = range.id.strip_prefix("range:").expect("a range id");
    let by_label = run(&c, "CitationsOf", &json!({ "target": label }));
    assert_eq!(by_label.data["sectionCount"], 1, "{}", by_label.summary);
    let r = run(
        &c,
        "CitationsOf",
        &json!({"target": "src/cache.rs:100-120"}),
    );
    assert!(r.has(Code::CapabilityNotFound));
    // The file is cited, at other lines: said, instead of doubting the path.
    let first = r.data["fallbacks"][0].as_str().unwrap_or("");
    assert!(
        first.starts_with("The file is cited at other lines: src/cache.rs:"),
        "{first}"
    );
    let r = run(&c, "CitationsOf", &json!({"target": "cache::evict_oldest"}));
    assert_eq!(
        r.data["sections"][0]["section"],
        "section:faq/cache.md#eviction"
    );
    let r = run(&c, "CitationsOf", &json!({"target": "evict_oldest"}));
    assert_eq!(r.data["sectionCount"], 1);
    let r = run(&c, "CitationsOf", &json!({"target": "src/missing.rs"}));
    assert!(r.has(Code::CapabilityNotFound));
    // A path as people type it: the end of a repository path, whole components only.
    let r = run(&c, "CitationsOf", &json!({"target": "cache.rs:41-45"}));
    assert_eq!(r.data["sectionCount"], 1, "{}", r.summary);
    assert_eq!(r.data["readAs"], json!(["src/cache.rs"]));
    assert!(
        r.summary.ends_with("(read as src/cache.rs)"),
        "{}",
        r.summary
    );
    let r = run(&c, "CitationsOf", &json!({"target": "cache.rs:100-120"}));
    assert!(r.has(Code::CapabilityNotFound));
    for partial in ["ache.rs", "rc/cache.rs", "/cache.rs"] {
        let r = run(&c, "CitationsOf", &json!({"target": partial}));
        assert!(r.has(Code::CapabilityNotFound), "{partial}: {}", r.summary);
    }
    let r = run(&c, "CitationsOf", &json!({"target": ""}));
    assert!(r.has(Code::CapabilityInvalidInput));
}

#[test]
fn a_path_typed_with_dot_slash_is_the_repository_s_own() {
    // `./README.md` is the root README, not any path that ends in `/README.md`.
    let mut b = common::Builder::new();
    b.article("faq/a.md", "A");
    let root = b.section(
        "faq/a.md",
        "root",
        "Root readme",
        (1, 4),
        "The project readme.",
    );
    b.cite(&root, "README.md", 1, 9, Some("verified"));
    let nested = b.section(
        "faq/a.md",
        "nested",
        "Docs readme",
        (5, 8),
        "The docs readme.",
    );
    b.cite(&nested, "docs/README.md", 1, 9, Some("verified"));
    let g = b.build();
    let ix = Index::build(&g);
    let c = ctx(&g, &ix);
    for (typed, section) in [
        ("./README.md", "section:faq/a.md#root"),
        ("README.md", "section:faq/a.md#root"),
        ("./docs/README.md", "section:faq/a.md#nested"),
        (".//docs/README.md:2-3", "section:faq/a.md#nested"),
    ] {
        let r = run(&c, "CitationsOf", &json!({ "target": typed }));
        assert_eq!(r.data["sectionCount"], 1, "{typed}: {}", r.summary);
        assert_eq!(r.data["sections"][0]["section"], section, "{typed}");
        assert!(r.data.get("readAs").is_none(), "{typed}: {}", r.summary);
    }
    let walk = ontoly_capabilities::walk::resolve_or_candidates;
    let found = walk(&g, "./README.md").map(ontoly_capabilities::walk::source_path);
    assert_eq!(found.ok().flatten(), Some("README.md"));
}

#[test]
fn citations_of_a_class_include_those_of_its_members() {
    // One section cites the whole class, another a range inside one method, which names
    // only the method: both cite the class.
    let mut b = common::Builder::new();
    b.article("faq/a.md", "A");
    let whole = b.section("faq/a.md", "whole", "The cache", (1, 4), "The cache class.");
    let r = b.cite(&whole, "src/cache.py", 1, 60, Some("verified"));
    b.symbol(&r, "src/cache.py", "class", "Cache", 1, 60);
    let get = b.section("faq/a.md", "get", "Reading", (5, 8), "How get reads.");
    let r = b.cite(&get, "src/cache.py", 12, 20, Some("verified"));
    b.symbol(&r, "src/cache.py", "method", "Cache.get", 12, 20);
    // Two functions named `main` in two files: both answer, and the summary says so.
    for (i, path) in ["build.py", "src/main.py"].iter().enumerate() {
        let id = format!("main{i}");
        let sec = b.section(
            "faq/a.md",
            &id,
            "Main",
            (10 + i as u64, 10 + i as u64),
            "Main.",
        );
        let r = b.cite(&sec, path, 1, 5, Some("verified"));
        b.symbol(&r, path, "function", "main", 1, 5);
    }
    let g = b.build();
    let ix = Index::build(&g);
    let c = ctx(&g, &ix);
    let r = run(&c, "CitationsOf", &json!({"target": "Cache"}));
    let sections: Vec<&str> = r.data["sections"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["section"].as_str())
        .collect();
    // The section citing the class itself first; the other names the member it cites.
    assert_eq!(sections, ["section:faq/a.md#whole", "section:faq/a.md#get"]);
    assert_eq!(r.data["citingItself"], 1, "{}", r.summary);
    assert_eq!(r.data["sections"][1]["members"], json!(["Cache.get"]));
    assert!(r.data.get("symbols").is_none(), "{}", r.summary);
    // The method alone is only the method, also written with Rust's separator.
    for typed in ["Cache.get", "Cache::get"] {
        let r = run(&c, "CitationsOf", &json!({ "target": typed }));
        assert_eq!(r.data["sectionCount"], 1, "{typed}: {}", r.summary);
    }
    // A range by its lines, and by the label the text prints.
    let walk = ontoly_capabilities::walk::resolve_or_candidates;
    let range = walk(&g, "src/cache.py:12-20").map(|n| n.id.clone());
    assert!(
        range
            .as_deref()
            .is_ok_and(|id| id.starts_with("range:") && id.ends_with("src/cache.py#L12-L20")),
        "{range:?}"
    );
    let label = range
        .as_deref()
        .unwrap_or_default()
        .trim_start_matches("range:");
    assert_eq!(walk(&g, label).map(|n| n.id.clone()), range);
    assert!(walk(&g, "src/cache.py:12-21").is_err());
    let r = run(&c, "CitationsOf", &json!({"target": "main"}));
    assert_eq!(r.data["sectionCount"], 2, "{}", r.summary);
    assert_eq!(
        r.data["symbols"],
        json!([
            "main (function) in build.py:1",
            "main (function) in src/main.py:1"
        ])
    );
    assert!(
        r.summary.ends_with(
            "(2 symbols have this name: main (function) in build.py:1, main (function) in src/main.py:1)"
        ),
        "{}",
        r.summary
    );
}

#[test]
fn section_evidence_reports_citations_and_their_grounding() {
    let (g, ix) = common::fixture();
    let c = ctx(&g, &ix);
    let r = run(
        &c,
        "SectionEvidence",
        &json!({"section": "faq/cache.md#eviction"}),
    );
    let cites = r.data["citations"].as_array().cloned().unwrap_or_default();
    assert_eq!(cites.len(), 2);
    assert_eq!(cites[0]["verification"], "verified");
    assert_eq!(cites[0]["grounding"], 1.0);
    assert!(cites
        .iter()
        .any(|c| c["symbols"][0]["name"] == "cache::evict_oldest"));
    let r = run(
        &c,
        "SectionEvidence",
        &json!({"section": "section:faq/cache.md#sizing"}),
    );
    assert_eq!(r.data["citations"][0]["verification"], "unknown");
    assert_eq!(r.data["citations"][0]["grounding"], 0.7);
    let r = run(
        &c,
        "SectionEvidence",
        &json!({"section": "guide/build.md#release"}),
    );
    assert!(r.has(Code::CapabilityLowEvidence));
    let r = run(&c, "SectionEvidence", &json!({"section": "nope.md#x"}));
    assert!(r.has(Code::CapabilityNotFound));
}

#[test]
fn path_between_follows_edges_both_ways() {
    let (g, ix) = common::fixture();
    let c = ctx(&g, &ix);
    let r = run(
        &c,
        "PathBetween",
        &json!({"from": "section:faq/cache.md#eviction", "to": "repo:github.com/acme/server"}),
    );
    assert_eq!(r.data["hops"], 4, "{}", r.to_json());
    // Through the file's commit to its repository: how one reaches a repository, exact.
    assert_eq!(r.confidence.level, Level::High, "{}", r.to_json());
    let r = run(
        &c,
        "PathBetween",
        &json!({"from": "section:faq/cache.md#eviction", "to": "section:faq/cache.md#sizing"}),
    );
    assert_eq!(r.data["hops"], 2);
    let r = run(
        &c,
        "PathBetween",
        &json!({"from": "section:faq/cache.md#eviction", "to": "x"}),
    );
    assert!(r.has(Code::CapabilityNotFound));
    // Ends as `graph` reads them, and the path spelled out node by node.
    let r = run(
        &c,
        "PathBetween",
        &json!({"from": "faq/cache.md#eviction", "to": "faq/cache.md#sizing"}),
    );
    assert_eq!(r.data["hops"], 2, "{}", r.summary);
    assert_eq!(
        r.summary,
        "2 hop(s): section:faq/cache.md#eviction <-CONTAINS- article:faq/cache.md -CONTAINS-> section:faq/cache.md#sizing"
    );
    // Two pages that share nothing but the workspace are not related through it.
    let r = run(
        &c,
        "PathBetween",
        &json!({"from": "faq/cache.md#eviction", "to": "guide/build.md#release"}),
    );
    assert!(r.has(Code::CapabilityNotFound), "{}", r.summary);
    // Two articles are: each is in it. A real path, which says only that.
    let r = run(
        &c,
        "PathBetween",
        &json!({"from": "article:faq/cache.md", "to": "article:guide/build.md"}),
    );
    assert_eq!(r.data["hops"], 2, "{}", r.summary);
    assert_eq!(r.confidence.level, Level::Low, "{}", r.to_json());
    assert!(
        r.confidence
            .explanation
            .starts_with("the two are joined only through workspace:"),
        "{}",
        r.confidence.explanation
    );
}

#[test]
fn validate_and_statistics_count_the_graph() {
    let (g, ix) = common::fixture();
    let c = ctx(&g, &ix);
    let r = run(&c, "Validate", &Value::Null);
    assert_eq!(r.data["warnings"], 1);
    assert_eq!(r.data["byCode"]["ENTRY_INCOMPLETE"], 1);
    assert_eq!(
        r.data["diagnostics"][0]["subject"],
        "section:guide/build.md#release"
    );
    let r = run(&c, "GraphStatistics", &json!({}));
    assert_eq!(r.data["nodes"]["Section"], 3);
    assert_eq!(r.data["edges"]["CITES"], 3);
    assert_eq!(r.data["nodeCount"], g.node_count());
}

#[test]
fn the_registry_describes_every_capability_with_a_schema() {
    let d = describe();
    assert_eq!(d.as_array().map(Vec::len), Some(CAPABILITIES.len()));
    let names: Vec<&str> = CAPABILITIES.iter().map(|c| c.name).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    insta::assert_json_snapshot!("registry", d);
}

#[test]
fn a_traits_impl_is_named_by_its_own_name_and_holds_only_its_members() {
    // Every impl of `Cache` is qualified `Cache`; `Display for Cache` is found by the name
    // its block writes, with or without `impl<…>`, and holds only the `fmt` inside it (Rust
    // walk, stop 48: `From<E> for Error` matched nothing).
    let mut b = common::Builder::new();
    b.article("faq/cache.md", "Caching");
    let inherent = b.section(
        "faq/cache.md",
        "api",
        "The cache API",
        (3, 6),
        "Insert and get.",
    );
    let r = b.cite(&inherent, "src/cache.rs", 10, 30, Some("verified"));
    b.named_symbol(&r, "src/cache.rs", "impl", "Cache", "Cache", 10, 30);
    b.symbol(&r, "src/cache.rs", "method", "Cache::insert", 12, 20);
    let shown = b.section(
        "faq/cache.md",
        "display",
        "How a cache prints",
        (8, 11),
        "Its size.",
    );
    let r = b.cite(&shown, "src/cache.rs", 40, 50, Some("verified"));
    b.named_symbol(
        &r,
        "src/cache.rs",
        "impl",
        "Cache",
        "Display for Cache",
        40,
        50,
    );
    b.symbol(&r, "src/cache.rs", "method", "Cache::fmt", 42, 48);
    let g = b.build();
    let ix = Index::build(&g);
    let c = ctx(&g, &ix);
    for name in [
        "Display for Cache",
        "impl Display for Cache",
        "impl<T> Display for Cache",
    ] {
        let r = run(&c, "CitationsOf", &json!({ "target": name }));
        assert_eq!(r.data["sectionCount"], 1, "{name}: {}", r.summary);
        assert_eq!(
            r.data["sections"][0]["section"], "section:faq/cache.md#display",
            "{name}"
        );
    }
    let r = run(&c, "CitationsOf", &json!({"target": "Cache"}));
    assert_eq!(r.data["sectionCount"], 2, "{}", r.summary);
}

#[test]
fn a_traits_method_is_named_as_backtraces_write_it_and_an_impl_by_its_trait_arguments() {
    // `<bytes::Bytes as bytes::Buf>::advance` matched nothing, and `From<Box<[u8]>> for Bytes`
    // matched every `From<…> for Bytes` (Rust walk on bytes, stop 49).
    let mut b = common::Builder::new();
    b.article("faq/buf.md", "Buffers");
    let mut cite = |id: &str, lines: (u64, u64), own: &str, member: &str| {
        let s = b.section("faq/buf.md", id, id, (3, 6), "Text.");
        let r = b.cite(&s, "src/bytes.rs", lines.0, lines.1, Some("verified"));
        b.named_symbol(&r, "src/bytes.rs", "impl", "Bytes", own, lines.0, lines.1);
        b.symbol(
            &r,
            "src/bytes.rs",
            "method",
            member,
            lines.0 + 1,
            lines.1 - 1,
        );
    };
    cite("buf", (10, 30), "Buf for Bytes", "Bytes::advance");
    cite("debug", (40, 50), "fmt::Debug for Bytes", "Bytes::fmt");
    cite(
        "from-vec",
        (60, 70),
        "From<Vec<u8>> for Bytes",
        "Bytes::from",
    );
    cite(
        "from-box",
        (80, 90),
        "From<Box<[u8]>> for Bytes",
        "Bytes::from",
    );
    let g = b.build();
    let ix = Index::build(&g);
    let c = ctx(&g, &ix);
    for (name, section) in [
        ("<bytes::Bytes as bytes::Buf>::advance", "buf"),
        ("<Bytes as Buf>::advance", "buf"),
        ("<bytes::Bytes as core::fmt::Debug>::fmt", "debug"),
        ("<Bytes as From<Box<[u8]>>>::from", "from-box"),
        ("impl From<Box<[u8]>> for Bytes", "from-box"),
        ("From<Vec<u8>> for Bytes", "from-vec"),
    ] {
        let r = run(&c, "CitationsOf", &json!({ "target": name }));
        assert_eq!(r.data["sectionCount"], 1, "{name}: {}", r.summary);
        assert_eq!(
            r.data["sections"][0]["section"],
            format!("section:faq/buf.md#{section}"),
            "{name}"
        );
    }
}

/// A graph shaped as the zod walk's workspace (stop 53): a section headed `z.setErrorMap and
/// z.getErrorMap`, one on `parse` citing `ZodType.parse`, one on `ZodObject.extend`, others on
/// `z.object` and `z.string`, every citation verified.
fn schema_library() -> (ontoly_graph::graph::Graph, Index) {
    let mut b = common::Builder::new();
    b.article("errors.md", "Error maps");
    b.article("parsing.md", "Parsing");
    b.article("objects.md", "Objects");
    // (page, id, heading, body, lines, [(kind, symbol)]).
    type Section<'a> = (
        &'a str,
        &'a str,
        &'a str,
        &'a str,
        (u64, u64),
        &'a [(&'a str, &'a str)],
    );
    let sections: [Section; 6] = [
        (
            "errors.md",
            "global-map",
            "z.setErrorMap and z.getErrorMap",
            "`z.setErrorMap(map)` replaces the process-wide error map; `z.getErrorMap()` returns the map set last. Your map receives each issue and returns its message.",
            (1, 10),
            &[("function", "setErrorMap"), ("function", "getErrorMap")],
        ),
        (
            "errors.md",
            "precedence",
            "Error map precedence",
            "A map passed to `parse` wins over the schema's own map, which wins over the global map set by `z.setErrorMap`.",
            (12, 20),
            &[],
        ),
        (
            "parsing.md",
            "parse",
            "parse and safeParse",
            "`schema.parse(data)` returns the validated data or throws; `schema.safeParse(data)` returns a result object instead of throwing.",
            (30, 44),
            &[("method", "ZodType.parse"), ("method", "ZodType.safeParse")],
        ),
        (
            "objects.md",
            "factories",
            "Object schemas",
            "`z.object({ ... })` makes an object schema from a shape; `z.string()` a string schema.",
            (50, 60),
            &[("function", "objectType")],
        ),
        (
            "objects.md",
            "extend",
            "Extending an object schema",
            "`ZodObject.extend` adds keys to an object schema and returns a new `ZodObject`.",
            (62, 70),
            &[("method", "ZodObject.extend")],
        ),
        (
            "objects.md",
            "inner",
            "Objects behind refinements",
            "A refined object is no longer a `ZodObject`, so `.extend` is not a function on it.",
            (72, 80),
            &[],
        ),
    ];
    for (page, id, heading, body, lines, symbols) in sections {
        let s = b.section(page, id, heading, lines, body);
        let r = b.cite(&s, "src/types.ts", lines.0, lines.1, Some("verified"));
        for (kind, name) in symbols {
            b.symbol(&r, "src/types.ts", kind, name, lines.0, lines.1);
        }
    }
    let g = b.build();
    let ix = Index::build(&g);
    (g, ix)
}

/// A short question naming a member the workspace does not document, under a qualifier it
/// documents others under, is about a name the workspace lacks: "z.map" was `high` (0.97,
/// "matches 100% of the query's weight") for the section on `z.setErrorMap`, whose words
/// `set`, `error` and `map` are its only match, and "ZodObject.parse" `high` while its
/// explanation said "unmatched: parse" (zod walk, stop 53). A qualified name the workspace
/// writes is answered as before.
#[test]
fn a_member_no_page_documents_is_a_name_the_workspace_lacks() {
    let (g, ix) = schema_library();
    let cx = ctx(&g, &ix);
    for (q, name) in [
        ("z.map", "z.map"),
        ("z.map()", "z.map"),
        ("z.set()", "z.set"),
        ("ZodObject.parse", "ZodObject.parse"),
    ] {
        let c = pack::evidence_pack(&cx, q, None).pack.confidence;
        // `low` on the walk's 80 sections; on these six an unknown name weighs less.
        assert_ne!(c.level, Level::High, "{q}: {c:?}");
        if q.starts_with("z.") {
            assert_eq!(c.level, Level::Low, "{q}: {c:?}");
        }
        assert!(
            c.explanation
                .contains(&format!("; not in this workspace: {name};")),
            "{q}: {}",
            c.explanation
        );
        assert!(
            !c.explanation.contains("matches 100%"),
            "{q}: {}",
            c.explanation
        );
    }
    for (q, top) in [
        ("z.setErrorMap", "section:errors.md#global-map"),
        ("z.object", "section:objects.md#factories"),
        ("ZodType.parse", "section:parsing.md#parse"),
    ] {
        let p = pack::evidence_pack(&cx, q, None).pack;
        assert_eq!(p.stable_ids[0], top, "{q}");
        assert_ne!(p.confidence.level, Level::Low, "{q}: {:?}", p.confidence);
        assert!(
            !p.confidence.explanation.contains("not in this workspace"),
            "{q}: {}",
            p.confidence.explanation
        );
    }
    // One edit from a name the pages write, it is that name.
    let p = pack::evidence_pack(&cx, "z.objcet", None).pack;
    assert_eq!(p.stable_ids[0], "section:objects.md#factories");
    assert!(
        p.confidence
            .explanation
            .contains("read z.objcet as z.object"),
        "{}",
        p.confidence.explanation
    );
    assert!(
        !p.confidence.explanation.contains("not in this workspace"),
        "{}",
        p.confidence.explanation
    );
    // In a longer question a qualified name is as often the asker's own object's (`client.get`
    // of their `client`); its words are searched as before, and it is not named as missing.
    let c = pack::evidence_pack(
        &cx,
        "how do I validate both keys and values of a z.map()?",
        None,
    )
    .pack
    .confidence;
    assert!(
        !c.explanation.contains("not in this workspace: z.map"),
        "{}",
        c.explanation
    );
}

/// Two pages: one section that shares the question's rarest word but is about something else,
/// and one that answers it in other words (the stop-57 study's case: a paraphrase).
fn paraphrase_fixture() -> (ontoly_graph::graph::Graph, Index) {
    let mut b = common::Builder::new();
    b.article("guide/cli.md", "Command line");
    b.article("guide/tuning.md", "Tuning");
    b.section(
        "guide/cli.md",
        "usage",
        "Usage",
        (3, 8),
        "Run the tool with a file name; the usage line lists every flag.",
    );
    b.section(
        "guide/tuning.md",
        "lowering-memory",
        "Lowering memory",
        (3, 8),
        "Set a smaller cache to shrink the RAM the server needs; fewer worker threads also \
         cut the footprint.",
    );
    let g = b.build();
    let ix = Index::build(&g);
    (g, ix)
}

/// The fixture's question.
const PARAPHRASED: &str = "how can I reduce memory usage?";

#[test]
fn the_paraphrase_outranks_the_section_that_only_shares_words() {
    let (g, ix) = paraphrase_fixture();
    let query = PARAPHRASED;
    let lexical: Vec<String> = ontoly_capabilities::retrieval::rank::rank(&g, &ix, query)
        .sections()
        .map(|s| s.id.clone())
        .collect();
    assert_eq!(
        lexical,
        [
            "section:guide/cli.md#usage",
            "section:guide/tuning.md#lowering-memory"
        ],
        "the words alone rank the usage line first"
    );
    let lexical_top = ontoly_capabilities::retrieval::rank::rank(&g, &ix, query)
        .sections()
        .next()
        .map(|s| s.score)
        .unwrap_or_default();
    for limit in [5, 12, 20] {
        let p = pack::evidence_pack(&ctx(&g, &ix), query, Some(limit)).pack;
        let sections: Vec<&str> = p.top_sections().map(|t| t.node.id.as_str()).collect();
        assert_eq!(
            sections,
            [
                "section:guide/tuning.md#lowering-memory",
                "section:guide/cli.md#usage"
            ],
            "limit {limit}"
        );
        // Each place keeps its score: the first section shows the lexical ranking's best.
        let best = p.top_sections().next().map_or(0.0, |t| t.score);
        assert_eq!(best, round4(lexical_top), "limit {limit}");
    }
}

#[test]
fn the_confidence_is_the_lexical_rankings() {
    let (g, ix) = paraphrase_fixture();
    let query = PARAPHRASED;
    let ranking = ontoly_capabilities::retrieval::rank::rank(&g, &ix, query);
    let lexical = pack::confidence::assess(&g, &ranking, &[]);
    let p = pack::evidence_pack(&ctx(&g, &ix), query, None).pack;
    assert_eq!(p.confidence, lexical);
}
