//! The mapped graph snapshot (`ontoly_graph::graph::store`) on the demo workspace (verified against its
//! repositories, so every node and edge kind occurs) and on every fixture: exact round trip,
//! the same graph hash, the same answers as the in-memory graph, and rejection of truncated,
//! corrupt, foreign, other-version and stale files.

use ontoly_graph::graph::model::{EdgeKind, NodeKind};
use ontoly_graph::graph::store::container::{Container, OpenError};
use ontoly_graph::graph::store::{self, MappedGraph};
use ontoly_graph::graph::Graph;
use ontoly_graph::{CachePolicy, Session, SessionOptions};
use std::path::{Path, PathBuf};

fn testdata(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata")
        .join(rel)
}

/// The graph as the CLI builds it (clones from `ontoly.toml`, so the demo is verified), no cache.
fn graph_at(root: &Path) -> Graph {
    let opts = SessionOptions::new(root)
        .workspace(root)
        .cache(CachePolicy::Off);
    Session::open(opts)
        .expect("session")
        .into_build()
        .expect("build runs")
        .graph
}

fn workspaces() -> Vec<PathBuf> {
    let mut v = vec![testdata("demo")];
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(testdata("fixtures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("knowledge").is_dir())
        .collect();
    fixtures.sort();
    v.extend(fixtures);
    v
}

fn bytes_of(g: &Graph, key: &str) -> Vec<u8> {
    store::write(g, key)
        .expect("layout")
        .finish()
        .expect("bytes")
}

fn mapped(bytes: Vec<u8>, key: &str) -> Result<MappedGraph, OpenError> {
    MappedGraph::from_container(Container::from_bytes(bytes, store::KIND, key)?)
}

/// Every query the capabilities make, answered alike by both graphs.
fn assert_same_answers(g: &Graph, m: &MappedGraph) {
    assert_eq!(m.node_count(), g.node_count());
    assert_eq!(m.edge_count(), g.edge_count());
    assert_eq!(m.hash(), g.hash);
    for k in NodeKind::ALL {
        let a: Vec<&str> = g.nodes_of(k).map(|n| n.id.as_str()).collect();
        let b: Vec<&str> = m.nodes_of(k).map(|n| n.id().unwrap()).collect();
        assert_eq!(a, b, "nodes_of({k:?})");
        assert_eq!(m.count_of(k), a.len());
    }
    for k in EdgeKind::ALL {
        let n = g.edges().filter(|e| e.kind == k).count();
        assert_eq!(m.edge_count_of(k), n);
    }
    for n in g.nodes() {
        let r = m.node(&n.id).expect("node found");
        assert_eq!(r.to_node().as_ref(), Some(n));
        assert_eq!(r.kind(), Some(n.kind));
        for (k, v) in &n.metadata {
            assert_eq!(r.meta(k), Some(v.as_str()));
        }
        for kind in std::iter::once(None).chain(EdgeKind::ALL.map(Some)) {
            let a: Vec<&str> = g
                .out_edges(&n.id, kind)
                .iter()
                .map(|e| e.id.as_str())
                .collect();
            let b: Vec<String> = m
                .out_edges(&n.id, kind)
                .iter()
                .map(|e| e.id().unwrap().into_owned())
                .collect();
            assert_eq!(a, b, "out_edges({}, {kind:?})", n.id);
            let a: Vec<&str> = g
                .in_edges(&n.id, kind)
                .iter()
                .map(|e| e.id.as_str())
                .collect();
            let b: Vec<String> = m
                .in_edges(&n.id, kind)
                .iter()
                .map(|e| e.id().unwrap().into_owned())
                .collect();
            assert_eq!(a, b, "in_edges({}, {kind:?})", n.id);
        }
        assert_eq!(m.text(&n.id), g.text(&n.id));
        assert_eq!(r.text(), g.text(&n.id));
        assert_eq!(m.node_index_by_search(&n.id), Some(r.index()));
        // Navigation by index agrees with the id-keyed calls.
        let a: Vec<&str> = g
            .out_edges(&n.id, None)
            .iter()
            .map(|e| e.to.as_str())
            .collect();
        let b: Vec<&str> = r
            .out_edges(None)
            .iter()
            .map(|e| e.target().unwrap().id().unwrap())
            .collect();
        assert_eq!(a, b);
        let a: Vec<&str> = g
            .in_edges(&n.id, None)
            .iter()
            .map(|e| e.from.as_str())
            .collect();
        let b: Vec<&str> = r
            .in_edges(None)
            .iter()
            .map(|e| e.source().unwrap().id().unwrap())
            .collect();
        assert_eq!(a, b);
    }
    assert!(m.node("no-such-node").is_none());
    assert!(m.out_edges("no-such-node", None).is_empty());
    assert!(!m.is_corrupt());
}

/// Every metadata key the build writes is one the decoder borrows rather than allocates
/// (`meta_key`'s list is complete for every node and edge kind the demo and fixtures produce).
#[test]
fn every_written_metadata_key_is_known() {
    use ontoly_graph::graph::model::meta_key;
    use std::borrow::Cow;
    for root in workspaces() {
        let g = graph_at(&root);
        let nodes = g.nodes().flat_map(|n| n.metadata.keys());
        for k in nodes.chain(g.edges().flat_map(|e| e.metadata.keys())) {
            assert!(
                matches!(meta_key(k), Cow::Borrowed(_)),
                "{k} in {}",
                root.display()
            );
        }
    }
}

#[test]
fn round_trip_is_exact_and_keeps_the_graph_hash() {
    for root in workspaces() {
        let g = graph_at(&root);
        let m = mapped(bytes_of(&g, "k"), "k").expect("opens");
        let back = m.to_graph().expect("decodes");
        assert_eq!(back.version, g.version);
        assert!(back.nodes().eq(g.nodes()), "{}", root.display());
        assert!(back.edges().eq(g.edges()));
        assert!(back.texts().eq(g.texts()));
        assert_eq!(back.hash, g.hash);
        assert_eq!(
            back.compute_hash(),
            g.hash,
            "the layout does not change the hash"
        );
        assert_same_answers(&g, &m);
        assert_facade_answers(&g, &mapped(bytes_of(&g, "k"), "k").expect("opens"));
    }
}

/// The `Graph` facade over a mapped snapshot answers exactly as the built graph.
fn assert_facade_answers(g: &Graph, m: &MappedGraph) {
    let f = Graph::mapped(mapped(m.container().raw().to_vec(), "k").expect("opens"));
    assert_eq!(f.hash, g.hash);
    assert_eq!(f.version, g.version);
    assert_eq!(f.node_count(), g.node_count());
    assert_eq!(f.edge_count(), g.edge_count());
    for k in NodeKind::ALL {
        assert!(f.nodes_of(k).eq(g.nodes_of(k)), "nodes_of({k:?})");
        assert_eq!(f.count_of(k), g.count_of(k));
    }
    for k in EdgeKind::ALL {
        assert_eq!(f.edge_count_of(k), g.edge_count_of(k));
        for key in ["status", "source_kind", "no-such-key"] {
            let counts = f.edge_meta_counts(k, key);
            assert_eq!(counts, g.edge_meta_counts(k, key), "{k:?} {key}");
            assert_eq!(counts.values().sum::<usize>(), g.edge_count_of(k));
        }
    }
    for n in g.nodes() {
        assert_eq!(f.node(&n.id), Some(n));
        assert_eq!(f.text(&n.id), g.text(&n.id));
        for kind in std::iter::once(None).chain(EdgeKind::ALL.map(Some)) {
            assert_eq!(f.out_edges(&n.id, kind), g.out_edges(&n.id, kind));
            assert_eq!(f.in_edges(&n.id, kind), g.in_edges(&n.id, kind));
        }
    }
    assert!(f.node("no-such-node").is_none());
    assert!(f.nodes().eq(g.nodes()));
    assert!(f.edges().eq(g.edges()));
    assert!(f.texts().eq(g.texts()));
    assert_eq!(
        serde_json::to_string(&f).unwrap(),
        serde_json::to_string(g).unwrap()
    );
    assert_eq!(f.compute_hash(), g.hash);
    assert!(!f.is_corrupt());
}

#[test]
fn the_demo_has_every_kind_the_layout_must_carry() {
    let g = graph_at(&testdata("demo"));
    for k in [NodeKind::Symbol, NodeKind::Range, NodeKind::Commit] {
        assert!(g.nodes_of(k).count() > 0, "{k:?}");
    }
    assert!(g.edges().any(|e| e.kind == EdgeKind::Overlaps));
    assert!(g.edges().any(|e| !e.metadata.is_empty()));
}

#[test]
fn written_bytes_are_deterministic_and_mapped_from_disk() {
    let g = graph_at(&testdata("demo"));
    let a = bytes_of(&g, "k");
    assert_eq!(a, bytes_of(&g, "k"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("graph.map");
    store::write(&g, "k").unwrap().write_to(&path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), a);
    let m = MappedGraph::open(&path, "k").expect("opens");
    assert_same_answers(&g, &m);
    assert!(matches!(
        MappedGraph::open(&dir.path().join("absent"), "k"),
        Err(OpenError::NotFound)
    ));
}

/// Lines beyond 32 bits (a reference may record any line number) switch the whole snapshot to
/// 8-byte lines and offsets: it round-trips exactly and answers alike; the narrow layout of the
/// same graph without them is smaller.
#[test]
fn lines_beyond_32_bits_take_the_wide_layout() {
    use ontoly_graph::graph::model::{Edge, Node, Origin, Span};
    let node = |id: &str, line: u64| Node {
        id: id.into(),
        kind: NodeKind::Range,
        name: id.into(),
        file: Some("src/a.rs".into()),
        span: Some(Span {
            file: "src/a.rs".into(),
            start_line: line,
            end_line: line + 7,
        }),
        package: None,
        metadata: [("status".to_string(), "verified".to_string())].into(),
    };
    let graph = |line: u64| {
        let edge = Edge::new(
            EdgeKind::Contains,
            "range:a",
            "range:b",
            Some(Origin {
                file: "knowledge/structure.yaml".into(),
                line,
            }),
        );
        Graph::assemble(
            vec![node("range:a", line), node("range:b", 3)],
            vec![edge],
            [("range:a".to_string(), "text".into())].into(),
        )
    };
    let wide = graph(u64::from(u32::MAX) + 10);
    let narrow = graph(12);
    for g in [&wide, &narrow] {
        let m = mapped(bytes_of(g, "k"), "k").expect("opens");
        let back = m.to_graph().expect("decodes");
        assert!(back.nodes().eq(g.nodes()));
        assert!(back.edges().eq(g.edges()));
        assert_eq!(back.compute_hash(), g.hash);
        assert_same_answers(g, &m);
        assert!(usable(bytes_of(g, "k")));
    }
    assert!(bytes_of(&narrow, "k").len() <= bytes_of(&wide, "k").len());
    let section = |g: &Graph, name: &str| {
        let m = mapped(bytes_of(g, "k"), "k").unwrap();
        let c = m.container();
        c.section(name).unwrap().len()
    };
    assert_eq!(section(&narrow, "node.rows"), 2 * 33);
    assert_eq!(section(&wide, "node.rows"), 2 * 41);
    assert_eq!(section(&narrow, "edge.rows"), 42);
    assert_eq!(section(&wide, "edge.rows"), 46);
    assert_eq!(section(&narrow, "str.off") * 2, section(&wide, "str.off"));
}

#[test]
fn stale_foreign_and_other_versions_are_refused() {
    let g = graph_at(&testdata("fixtures/valid"));
    let bytes = bytes_of(&g, "inputs-1");
    assert!(matches!(
        mapped(bytes.clone(), "inputs-2"),
        Err(OpenError::Stale)
    ));
    let mut v = bytes.clone();
    v[8] ^= 1;
    assert!(matches!(mapped(v, "inputs-1"), Err(OpenError::Version(_))));
    // Another kind of container (e.g. a future index file) is not a graph.
    let other = ontoly_graph::graph::store::container::Writer::new(*b"index\0\0\0", "inputs-1")
        .finish()
        .expect("bytes");
    assert!(matches!(mapped(other, "inputs-1"), Err(OpenError::Foreign)));
    // The postcard snapshot of today is foreign to this layout.
    assert!(matches!(
        mapped(
            b"ONTOLYS1 and then some bytes of the old format".repeat(4),
            "inputs-1"
        ),
        Err(OpenError::Foreign)
    ));
}

/// Opens and reads everything the way a query and a full decode would.
fn usable(bytes: Vec<u8>) -> bool {
    match mapped(bytes, "k") {
        Err(_) => false,
        Ok(m) => m.to_graph().is_some() && m.container().verify_all() && !m.is_corrupt(),
    }
}

#[test]
fn truncated_at_any_byte_is_refused() {
    let g = graph_at(&testdata("fixtures/valid"));
    let bytes = bytes_of(&g, "k");
    assert!(usable(bytes.clone()));
    for cut in 0..bytes.len() {
        assert!(
            mapped(bytes[..cut].to_vec(), "k").is_err(),
            "truncated at {cut} of {} opened",
            bytes.len()
        );
    }
}

#[test]
fn a_flipped_byte_anywhere_is_refused_before_use() {
    let g = graph_at(&testdata("fixtures/valid"));
    let bytes = bytes_of(&g, "k");
    for at in 0..bytes.len() {
        let mut v = bytes.clone();
        v[at] ^= 0x20;
        assert!(!usable(v), "flip at {at} of {} went unnoticed", bytes.len());
    }
}

#[test]
fn corruption_found_by_a_query_marks_the_snapshot() {
    let g = graph_at(&testdata("demo"));
    let bytes = bytes_of(&g, "k");
    let m = mapped(bytes.clone(), "k").unwrap();
    // Corrupt the last byte of the texts: open still succeeds (nothing there is read yet)...
    let (id, _) = g.texts().last().unwrap();
    let probe = mapped(bytes.clone(), "k").unwrap();
    assert!(probe.text(id).is_some());
    drop(probe);
    let text_end = {
        let c = m.container();
        let raw = c.raw();
        let t = g.texts().last().unwrap().1.as_bytes();
        raw.windows(t.len()).rposition(|w| w == t).unwrap() + t.len() - 1
    };
    let mut v = bytes;
    v[text_end] ^= 0x01;
    let bad = mapped(v, "k").expect("open checks only the header");
    // ...a query that does not touch that block is answered...
    assert!(bad.node_index(&g.nodes().next().unwrap().id).is_some() || bad.is_corrupt());
    // ...and the one that does gets nothing, and the snapshot says it is corrupt.
    assert_eq!(bad.text(id), None);
    assert!(bad.is_corrupt());
}

/// Every read a query can make, plus a full decode and a complete check; must not panic.
fn exercise(m: &MappedGraph, ids: &[String]) {
    for id in ids {
        if let Some(n) = m.node(id) {
            let _ = (
                n.id(),
                n.kind(),
                n.name(),
                n.file(),
                n.meta("status"),
                n.to_node(),
            );
            for e in n.out_edges(None).iter().chain(n.in_edges(None).iter()) {
                let _ = (
                    e.id(),
                    e.kind(),
                    e.from(),
                    e.to(),
                    e.meta("status"),
                    e.to_edge(),
                );
                let _ = e.target().map(|t| t.to_node());
                let _ = e.source().map(|t| t.text());
            }
        }
        let _ = (
            m.text(id),
            m.node_index_by_search(id),
            m.out_edges(id, None),
        );
    }
    for k in NodeKind::ALL {
        for n in m.nodes_of(k).take(1000) {
            let _ = n.to_node();
        }
        let _ = m.count_of(k);
    }
    let _ = m.to_graph();
    let _ = m.container().verify_all();
}

/// A crafted snapshot (garbage inside, valid sums: what a hostile or buggy writer could leave)
/// gives wrong answers or none, but never a panic, a huge allocation or an endless loop.
#[test]
fn crafted_sections_with_valid_sums_never_panic() {
    let g = graph_at(&testdata("demo"));
    let ids: Vec<String> = g.nodes().map(|n| n.id.clone()).collect();
    let good = mapped(bytes_of(&g, "k"), "k").unwrap();
    let sections: Vec<(String, Vec<u8>)> = good
        .container()
        .sections()
        .into_iter()
        .map(|(name, _)| {
            let s = good.container().section(&name).unwrap();
            (name, s.all().unwrap().to_vec())
        })
        .collect();
    // A fixed xorshift sequence: the same mutations on every run.
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for round in 0..300 {
        let mut w = ontoly_graph::graph::store::container::Writer::new(store::KIND, "k");
        let target = (next() as usize) % sections.len();
        for (i, (name, bytes)) in sections.iter().enumerate() {
            let mut b = bytes.clone();
            if i == target && !b.is_empty() && name != "meta" {
                for _ in 0..1 + next() % 8 {
                    let at = (next() as usize) % b.len();
                    // Mostly extreme values: offsets and counts at the edges of their range.
                    b[at] = match next() % 3 {
                        0 => 0xff,
                        1 => 0,
                        _ => next() as u8,
                    };
                }
            }
            w.section(name, &b);
        }
        if let Ok(m) = mapped(w.finish().expect("bytes"), "k") {
            exercise(&m, &ids);
        } else {
            panic!("round {round}: a well-formed container with every section was refused");
        }
    }
}
