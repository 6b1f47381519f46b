//! Replies an agent pays for by the byte say each thing once, on the corpora and the demo: a
//! node is written in full by one evidence item of a result and by `{id, type, name}` in the others, a
//! range's overlapped symbols are one item, and a range two top sections cite is one read.

mod common;

use common::{copy_dir, demo, run_in};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

fn json_of(ws: &std::path::Path, args: &[&str]) -> Value {
    let r = run_in(ws, args);
    assert_eq!(r.code, 0, "{args:?}: {r:?}");
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {r:?}"))
}

fn items(v: &Value) -> &Vec<Value> {
    v["evidence"].as_array().expect("evidence")
}

fn ids(list: &Value) -> Vec<&str> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|x| x["id"].as_str())
        .collect()
}

/// Whether a serialized node carries more than the contract's required `{id, type, name}`.
fn full(node: &Value) -> bool {
    ["file", "span", "package", "metadata"]
        .iter()
        .any(|k| node.get(*k).is_some())
}

/// Each node is written in full by one item only (later ones write `{id, type, name}`), and
/// every node an item's edges join is among the item's nodes or an earlier item's; a path
/// lists all its nodes, in order: its edges chain them.
fn assert_nodes_carried_once(v: &Value) {
    let mut carried: BTreeSet<&str> = BTreeSet::new();
    let mut in_full: BTreeSet<&str> = BTreeSet::new();
    for (i, e) in items(v).iter().enumerate() {
        for n in e["nodes"].as_array().into_iter().flatten() {
            let id = n["id"].as_str().expect("a node id");
            assert!(n["name"].is_string() && n["type"].is_string(), "{n}");
            if full(n) {
                assert!(in_full.insert(id), "item {i} writes {id} in full again");
            }
            carried.insert(id);
        }
        for edge in e["edges"].as_array().into_iter().flatten() {
            for end in ["from", "to"] {
                let id = edge[end].as_str().expect("an edge end");
                assert!(carried.contains(id), "item {i}: {id} is carried nowhere");
            }
        }
        if e["kind"] == "edge" {
            // An edge item lists its participants too: every end of its edges.
            let nodes = ids(&e["nodes"]);
            for edge in e["edges"].as_array().into_iter().flatten() {
                for end in ["from", "to"] {
                    let id = edge[end].as_str().expect("an edge end");
                    assert!(nodes.contains(&id), "item {i}: {id} is not among its nodes");
                }
            }
        }
        if e["kind"] == "path" {
            let nodes = ids(&e["nodes"]);
            let edges = e["edges"].as_array().expect("edges");
            assert_eq!(nodes.len(), edges.len() + 1, "{e}");
            for (k, edge) in edges.iter().enumerate() {
                assert_eq!(
                    (edge["from"].as_str(), edge["to"].as_str()),
                    (Some(nodes[k]), Some(nodes[k + 1])),
                    "{e}"
                );
            }
        }
    }
}

#[test]
fn a_path_writes_the_nodes_carried_before_by_their_required_fields() {
    let (_dir, ws) = common::corpus_copy("click");
    // core.py is cited by 78 ranges: each path ran section -> range -> the same file, whose
    // node every path copied.
    let v = json_of(&ws, &["cites", "src/click/core.py", "--format", "json"]);
    let paths: Vec<&Value> = items(&v).iter().filter(|e| e["kind"] == "path").collect();
    assert!(paths.len() > 50, "{}", paths.len());
    assert_nodes_carried_once(&v);
    let file = "file:github.com/pallets/click@9753cb027af2:src/click/core.py";
    let carriers = items(&v)
        .iter()
        .flat_map(|e| e["nodes"].as_array().into_iter().flatten())
        .filter(|n| n["id"] == file && full(n))
        .count();
    assert_eq!(carriers, 1);
    for p in &paths {
        // Every path still has its hops, in order: section -CITES-> range -IN_FILE-> file.
        let edges = p["edges"].as_array().expect("edges");
        let kinds: Vec<&str> = edges.iter().filter_map(|e| e["type"].as_str()).collect();
        assert_eq!(kinds, ["CITES", "IN_FILE"], "{p}");
        assert_eq!(edges[0]["to"], edges[1]["from"]);
        assert_eq!(edges[1]["to"], file);
    }
    // The sections the data lists are the paths' first nodes, each in full once.
    let sections: BTreeSet<&str> = v["data"]["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .filter_map(|s| s["section"].as_str())
        .collect();
    let starts: BTreeSet<&str> = paths
        .iter()
        .filter_map(|p| p["edges"][0]["from"].as_str())
        .collect();
    assert_eq!(sections, starts);

    // A range as its lines, its label (as a pack prints it) and its id: the same sections,
    // those citing any range that overlaps those lines.
    let label = "github.com/pallets/click@9753cb027af2:src/click/core.py#L2657-L2713";
    let sections_of = |target: &str| {
        let input = serde_json::json!({ "target": target }).to_string();
        let v = json_of(
            &ws,
            &["run", "CitationsOf", "--input", &input, "--format", "json"],
        );
        v["data"]["sections"].clone()
    };
    let by_lines = sections_of("src/click/core.py:2657-2713");
    assert!(
        by_lines.as_array().is_some_and(|a| a.len() >= 2),
        "{by_lines}"
    );
    assert_eq!(sections_of(label), by_lines);
    assert_eq!(sections_of(&format!("range:{label}")), by_lines);

    // A symbol target: a range over an impl and its method is a path to each, each a chain.
    let demo_ws = tempfile::tempdir().expect("tempdir");
    copy_dir(&demo(), demo_ws.path());
    let v = json_of(
        demo_ws.path(),
        &[
            "run",
            "CitationsOf",
            "--input",
            r#"{"target":"CheckoutService"}"#,
            "--format",
            "json",
        ],
    );
    assert_nodes_carried_once(&v);
    let reached: BTreeSet<&str> = items(&v)
        .iter()
        .filter(|e| e["kind"] == "path")
        .filter_map(|e| e["edges"][1]["to"].as_str())
        .collect();
    assert!(reached.len() >= 2, "{reached:?}");

    // The same on the pack's evidence (`capability EvidencePack`): a top section's paths
    // write it by its required fields, since its node item carries it in full.
    let v = json_of(
        &ws,
        &[
            "run",
            "EvidencePack",
            "--input",
            r#"{"query":"how does click pass the context to a command callback?"}"#,
            "--format",
            "json",
        ],
    );
    assert_nodes_carried_once(&v);
    let top = v["data"]["stableIds"][0].as_str().expect("a top node");
    let paths_of_top = items(&v)
        .iter()
        .filter(|e| e["kind"] == "path" && e["edges"][0]["from"] == top)
        .count();
    assert!(paths_of_top > 0, "{v}");
}

#[test]
fn a_range_tells_the_symbols_it_overlaps_once() {
    let (_dir, ws) = common::corpus_copy("structlog");
    // Two ranges of stdlib.py inside the class BoundLogger: an item per symbol said each
    // range's label again for every method, and the class once per range.
    let input = r#"{"section":"usage/standard-library.md#pass-through-properties"}"#;
    let args = ["run", "SectionEvidence", "--input", input];
    let v = json_of(&ws, &[&args[..], &["--format", "json"]].concat());
    assert_nodes_carried_once(&v);
    let overlaps: Vec<&Value> = items(&v)
        .iter()
        .filter(|e| {
            e["description"]
                .as_str()
                .is_some_and(|d| d.contains(" overlaps "))
        })
        .collect();
    let citations = v["data"]["citations"].as_array().expect("citations");
    let with_symbols: Vec<&Value> = citations
        .iter()
        .filter(|c| c["symbols"].as_array().is_some_and(|s| !s.is_empty()))
        .collect();
    assert_eq!(with_symbols.len(), 2);
    assert_eq!(overlaps.len(), with_symbols.len(), "one item per range");
    for (item, c) in overlaps.iter().zip(&with_symbols) {
        assert_eq!(item["kind"], "edge");
        let edges = item["edges"].as_array().expect("edges");
        assert!(edges
            .iter()
            .all(|e| e["type"] == "OVERLAPS" && e["from"] == c["range"]));
        // It lists its participants: the range (slim: its path carries it) and the symbols.
        assert_eq!(
            ids(&item["nodes"])[0],
            c["range"].as_str().expect("a range")
        );
        // Its edges reach exactly the symbols the data lists for the range.
        let reached: BTreeSet<&str> = edges.iter().filter_map(|e| e["to"].as_str()).collect();
        assert_eq!(reached, ids(&c["symbols"]).into_iter().collect());
        let label = item["description"].as_str().unwrap_or("");
        assert!(
            label.contains("overlaps BoundLogger, BoundLogger."),
            "{label}"
        );
    }
    // The class both ranges lie in: two edges, the node in full once.
    let class = "symbol:github.com/hynek/structlog@ab219c60395a:src/structlog/stdlib.py#class:BoundLogger@L125-L378";
    for c in &with_symbols {
        assert!(ids(&c["symbols"]).contains(&class), "{c}");
    }
    let carriers = items(&v)
        .iter()
        .flat_map(|e| e["nodes"].as_array().into_iter().flatten())
        .filter(|n| n["id"] == class && full(n))
        .count();
    assert_eq!(carriers, 1);
    // The text rendering: one line per range, not per symbol.
    let r = run_in(&ws, &args);
    assert_eq!(r.stdout.matches(" overlaps ").count(), 2, "{}", r.stdout);
}

/// Entries of `filesToInspect` by range, with their reasons.
fn reads_by_range(pack: &Value) -> BTreeMap<String, Vec<String>> {
    let mut by: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in pack["filesToInspect"].as_array().expect("filesToInspect") {
        let key = format!(
            "{}@{}:{}:{}-{}",
            r["repository"], r["commit"], r["path"], r["startLine"], r["endLine"]
        );
        by.entry(key)
            .or_default()
            .push(r["reason"].as_str().unwrap_or("").to_string());
    }
    by
}

#[test]
fn a_range_two_top_sections_cite_is_one_read_with_both_reasons() {
    let t = tempfile::tempdir().expect("tempdir");
    let dir = t.path().join("ws");
    copy_dir(&demo(), &dir);
    // The double-charge answer and the idempotency guide cite the same lines of checkout.rs:
    // listed twice, they took two of the four places. (The question said "when a payment
    // request times out" until stop 58, whose re-order puts the retry section second for it,
    // and the guide's reads no longer fit in the four.)
    let q = "How do we avoid charging a customer twice?";
    let pack = json_of(&dir, &["evidence", "--format", "json", "--", q]);
    let reads = reads_by_range(&pack);
    assert!(reads.values().all(|r| r.len() == 1), "{reads:?}");
    let n = pack["filesToInspect"].as_array().map_or(0, Vec::len);
    assert!(n <= 4, "{n} reads");
    let both = reads
        .iter()
        .find(|(k, _)| k.contains("src/checkout.rs") && k.ends_with(":98-101"))
        .map(|(_, r)| r[0].clone())
        .expect("src/checkout.rs#L98-L101 is a read");
    assert_eq!(
        both,
        "cited by section:faq/troubleshooting.md#double-charge, section:guides/checkout.md#idempotency"
    );
    // Every demo question: a range is one read.
    let qs: Value = yaml_serde::from_str(
        &std::fs::read_to_string(demo().join("questions.yaml")).expect("questions"),
    )
    .expect("yaml");
    for q in qs["questions"].as_array().expect("questions") {
        let q = q["query"].as_str().expect("query");
        let pack = json_of(&dir, &["evidence", "--format", "json", "--", q]);
        let reads = reads_by_range(&pack);
        assert!(reads.values().all(|r| r.len() == 1), "{q}: {reads:?}");
    }
}
