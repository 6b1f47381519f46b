//! The search index in the mapped container (issue 10, phase 1): what a fresh `ontoly evidence`
//! process would cost if both the graph and the index were opened instead of loaded.
//!
//! ```sh
//! cargo run --release -p ontoly-capabilities --example index_bench -- write testdata/generated/100000
//! cargo run --release -p ontoly-capabilities --example index_bench -- query testdata/generated/100000 "cache eviction"
//! ```
//!
//! `write` takes the workspace's graph and index (from the snapshot when warm), decodes the
//! index's postcard bytes through a mirror of its fields, and writes `.ontoly/bench/graph.map`
//! (`ontoly_graph::graph::store`) and `.ontoly/bench/index.map` (sections: sorted terms, postings as
//! `(doc, tf)` pairs, BM25 norms, doc → node index, propagation links as CSR). `query` opens
//! both, scores the query's postings with BM25 exactly as `Index::search_dense` does (dense
//! per-doc arrays), takes the best 50 documents and reads, for each section among them, its
//! node, its citations (range, file, commit) and its article: roughly what an Evidence Pack
//! reads. It prints the time of each step and the blocks the integrity checks hashed.

use ontoly_capabilities::retrieval::index::{query_terms, Doc};
use ontoly_capabilities::Index;
use ontoly_graph::graph::model::{EdgeKind, NodeKind};
use ontoly_graph::graph::store::container::{Container, Writer};
use ontoly_graph::graph::store::{self, MappedGraph};
use ontoly_graph::{Session, SessionOptions};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

const KEY: &str = "index-bench";
const KIND: [u8; 8] = *b"index\0\0\0";
const K1: f64 = 1.2;

#[derive(serde::Deserialize)]
struct IndexMirror {
    _version: String,
    _graph_hash: String,
    docs: Vec<Doc>,
    terms: Vec<String>,
    postings: Vec<Vec<(u32, u32)>>,
    _avg_len: BTreeMap<NodeKind, f64>,
    links: Vec<Vec<u32>>,
    norms: Vec<f64>,
    _facts: ontoly_capabilities::walk::GraphFacts,
}

fn dir(ws: &Path) -> PathBuf {
    ws.join(".ontoly").join("bench")
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

fn u32s(b: &mut Vec<u8>, xs: impl IntoIterator<Item = u32>) {
    for x in xs {
        b.extend_from_slice(&x.to_le_bytes());
    }
}

fn write(ws: &Path) {
    let t = Instant::now();
    let session = Session::open(SessionOptions::new(".").workspace(ws)).expect("session");
    let index = Index::open(&session).expect("index");
    let graph = session.into_build().expect("build").graph;
    println!("graph + index obtained in {:.0} ms", ms(t));
    let t = Instant::now();
    let m: IndexMirror = postcard::from_bytes(&index.to_bytes()).expect("index layout mirrored");
    let node_of: Vec<u32> = m
        .docs
        .iter()
        .map(|d| {
            graph
                .nodes
                .binary_search_by(|n| n.id.as_str().cmp(&d.id))
                .map_or(u32::MAX, |i| i as u32)
        })
        .collect();
    let mut w = Writer::new(KIND, KEY);
    w.section_with("terms.off", |b| {
        let mut at = 0u64;
        b.extend_from_slice(&at.to_le_bytes());
        for t in &m.terms {
            at += t.len() as u64;
            b.extend_from_slice(&at.to_le_bytes());
        }
    });
    w.section_with("terms.bytes", |b| {
        for t in &m.terms {
            b.extend_from_slice(t.as_bytes());
        }
    });
    w.section_with("post.off", |b| {
        let mut at = 0u64;
        b.extend_from_slice(&at.to_le_bytes());
        for p in &m.postings {
            at += p.len() as u64;
            b.extend_from_slice(&at.to_le_bytes());
        }
    });
    w.section_with("post", |b| {
        u32s(b, m.postings.iter().flatten().flat_map(|&(d, f)| [d, f]))
    });
    w.section_with("norms", |b| {
        for n in &m.norms {
            b.extend_from_slice(&n.to_le_bytes());
        }
    });
    w.section_with("docs.node", |b| u32s(b, node_of.iter().copied()));
    w.section_with("docs.kind", |b| {
        b.extend(
            m.docs
                .iter()
                .map(|d| NodeKind::ALL.iter().position(|&k| k == d.kind).unwrap_or(0) as u8),
        )
    });
    w.section_with("links.off", |b| {
        let mut at = 0u32;
        b.extend_from_slice(&at.to_le_bytes());
        for l in &m.links {
            at += l.len() as u32;
            b.extend_from_slice(&at.to_le_bytes());
        }
    });
    w.section_with("links", |b| u32s(b, m.links.iter().flatten().copied()));
    std::fs::create_dir_all(dir(ws)).expect("dir");
    w.write_to(&dir(ws).join("index.map")).expect("write index");
    let layout = ms(t);
    let t = Instant::now();
    store::write(&graph, KEY)
        .expect("layout")
        .write_to(&dir(ws).join("graph.map"))
        .expect("write graph");
    println!(
        "index.map {} bytes ({layout:.0} ms), graph.map {} bytes ({:.0} ms); postcard index {} bytes",
        std::fs::metadata(dir(ws).join("index.map")).map_or(0, |m| m.len()),
        std::fs::metadata(dir(ws).join("graph.map")).map_or(0, |m| m.len()),
        ms(t),
        index.to_bytes().len()
    );
    std::mem::forget((graph, index));
}

fn query(ws: &Path, q: &str) {
    let t0 = Instant::now();
    let ix = Container::open(&dir(ws).join("index.map"), KIND, KEY).expect("index.map");
    let g = MappedGraph::open(&dir(ws).join("graph.map"), KEY).expect("graph.map");
    let open = ms(t0);
    let s = |n: &str| ix.section(n).expect("section");
    let (terms_off, terms_bytes, post_off, post, norms) = (
        s("terms.off"),
        s("terms.bytes"),
        s("post.off"),
        s("post"),
        s("norms"),
    );
    let (docs_node, docs_kind, links_off, links) =
        (s("docs.node"), s("docs.kind"), s("links.off"), s("links"));
    let ndocs = norms.len() / 8;
    let nterms = terms_off.len() / 8 - 1;
    let term = |i: usize| -> &str {
        let a = terms_off.u64(i).unwrap_or(0) as usize;
        let b = terms_off.u64(i + 1).unwrap_or(0) as usize;
        terms_bytes
            .bytes(a, b.saturating_sub(a))
            .and_then(|x| std::str::from_utf8(x).ok())
            .unwrap_or("")
    };
    let find = |t: &str| -> Option<(usize, usize)> {
        let (mut lo, mut hi) = (0, nterms);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match term(mid).cmp(t) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    return Some((post_off.u64(mid)? as usize, post_off.u64(mid + 1)? as usize))
                }
            }
        }
        None
    };
    let t = Instant::now();
    let terms = query_terms(q);
    let mut score = vec![0f64; ndocs];
    let mut mask = vec![0u64; ndocs];
    let mut touched: Vec<u32> = Vec::new();
    let mut postings_read = 0usize;
    for (i, t) in terms.iter().enumerate() {
        let range = find(t);
        let df = range.map_or(0, |(a, b)| b - a) as f64;
        let idf = (1.0 + (ndocs as f64 - df + 0.5) / (df + 0.5)).ln();
        let w = idf * (K1 + 1.0);
        let Some((a, b)) = range else { continue };
        postings_read += b - a;
        // One bounds-checked read of the whole postings list: its blocks are checked once.
        let Some(bytes) = post.bytes(a * 8, (b - a) * 8) else {
            continue;
        };
        for p in bytes.chunks_exact(8) {
            let d = u32::from_le_bytes([p[0], p[1], p[2], p[3]]) as usize;
            let tf = f64::from(u32::from_le_bytes([p[4], p[5], p[6], p[7]]));
            if d >= ndocs {
                continue;
            }
            if mask[d] == 0 {
                touched.push(d as u32);
            }
            let norm = norms.u64(d).map_or(1.0, f64::from_bits);
            score[d] += w * tf / (tf + norm);
            mask[d] |= 1 << i;
        }
    }
    let search = ms(t);
    let t = Instant::now();
    let mut top: Vec<u32> = touched.clone();
    let by = |a: &u32, b: &u32| {
        score[*b as usize]
            .total_cmp(&score[*a as usize])
            .then(a.cmp(b))
    };
    if top.len() > 50 {
        top.select_nth_unstable_by(50, by);
        top.truncate(50);
    }
    top.sort_by(by);
    // What a pack reads: per top section its node, citations down to the repository, article.
    let mut read = 0usize;
    let mut sections = 0;
    for &d in &top {
        let kind = docs_kind.bytes(d as usize, 1).map_or(0, |b| b[0]);
        let Some(n) = docs_node.u32(d as usize).and_then(|i| g.node_at(i)) else {
            continue;
        };
        let from = links_off.u32(d as usize).unwrap_or(0);
        let to = links_off.u32(d as usize + 1).unwrap_or(0);
        read += (from..to).filter_map(|k| links.u32(k as usize)).count();
        if NodeKind::ALL.get(kind as usize) != Some(&NodeKind::Section) || sections == 12 {
            continue;
        }
        sections += 1;
        read += n.to_node().map_or(0, |n| n.name.len());
        for c in n.out_edges(Some(EdgeKind::Cites)) {
            read += c.meta("status").map_or(0, str::len);
            let Some(range) = c.target() else { continue };
            for f in range.out_edges(Some(EdgeKind::InFile)) {
                let Some(file) = f.target() else { continue };
                for cm in file.out_edges(Some(EdgeKind::AtCommit)) {
                    read += cm
                        .target()
                        .and_then(|x| x.to_node())
                        .map_or(0, |x| x.id.len());
                }
            }
            for o in range.out_edges(Some(EdgeKind::Overlaps)) {
                read += o.target().and_then(|x| x.name()).map_or(0, str::len);
            }
        }
        for a in n.in_edges(Some(EdgeKind::Contains)) {
            read += a
                .source()
                .and_then(|x| x.to_node())
                .map_or(0, |x| x.name.len());
        }
        for dg in n.in_edges(Some(EdgeKind::Concerns)) {
            read += dg.source().map_or(0, |x| x.index() as usize);
        }
    }
    let pack = ms(t);
    println!(
        "query {q:?}: open {open:.2} ms, {} terms / {postings_read} postings / {} docs touched: search {search:.2} ms, top 50 + 12 sections' citations {pack:.2} ms; checked {} index blocks, {} graph blocks; total {:.2} ms [{read}]",
        terms.len(),
        touched.len(),
        ix.blocks_checked(),
        g.container().blocks_checked(),
        ms(t0)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match (args.get(1).map(String::as_str), args.get(2)) {
        (Some("write"), Some(ws)) => write(Path::new(ws)),
        (Some("query"), Some(ws)) => query(
            Path::new(ws),
            args.get(3).map_or("cache eviction policy", String::as_str),
        ),
        _ => {
            eprintln!("usage: index_bench write DIR | query DIR [QUERY]");
            std::process::exit(2);
        }
    }
}
