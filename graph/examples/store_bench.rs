//! Measures the mapped graph snapshot (`ontoly_graph::graph::store`) against today's postcard
//! snapshot and an rkyv archive of the same graph (issue 10, phase 1). Each `open-*` mode is
//! meant to run as a fresh process (as `ontoly evidence` does); `scripts/bench-store.sh`
//! drives them and takes medians.
//!
//! ```sh
//! cargo run --release -p ontoly-graph --example store_bench -- write testdata/generated/100000
//! cargo run --release -p ontoly-graph --example store_bench -- open-mapped testdata/generated/100000
//! ```
//!
//! Modes: `write DIR` (graph from the workspace's snapshot or a build; writes
//! `.ontoly/bench/graph.map` and `.ontoly/bench/graph.rkyv`, prints times, sizes, sections),
//! `open-mapped DIR`, `open-rkyv DIR` (validated), `open-rkyv-unchecked DIR` (+ a blake3 of
//! the whole file, the integrity check it would need instead), `open-postcard DIR` (today's
//! `snapshot::load_graph` + index), `stat DIR` (list and stat every input: a staleness check
//! that reads no content). Each open mode then runs the same "query": 100 sections spread over
//! the id space, each with its node, out edges, their targets and their targets' out edges,
//! and its text (what an Evidence Pack of 12 entities reads, times ~8).

use ontoly_graph::formats::layout::Workspace;
use ontoly_graph::graph::build::inputs::read_inputs;
use ontoly_graph::graph::model::{EdgeKind, NodeKind};
use ontoly_graph::graph::store::{self, MappedGraph};
use ontoly_graph::graph::Graph;
use ontoly_graph::{Session, SessionOptions};
use std::path::{Path, PathBuf};
use std::time::Instant;

const KEY: &str = "store-bench";
const LOOKUPS: usize = 100;

fn status_mb(field: &str) -> f64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Peak RSS, and the anonymous (private) part now: mapped file pages count in RSS but are
/// the shared page cache.
fn peak_rss_mb() -> String {
    format!(
        "{:.1} MB (anon {:.1}, file {:.1})",
        status_mb("VmHWM:"),
        status_mb("RssAnon:"),
        status_mb("RssFile:")
    )
}

fn dir(ws: &Path) -> PathBuf {
    ws.join(".ontoly").join("bench")
}

/// The workspace's graph as `ontoly build` makes it (loaded from the snapshot when warm).
fn graph_of(ws: &Path) -> Graph {
    Session::open(SessionOptions::new(".").workspace(ws))
        .expect("session")
        .into_build()
        .expect("build")
        .graph
}

/// The ids the query mode looks up: `LOOKUPS` sections spread evenly over the id space.
fn sample_ids(g: &Graph) -> Vec<String> {
    let secs: Vec<&str> = g
        .nodes_of(NodeKind::Section)
        .map(|n| n.id.as_str())
        .collect();
    let step = (secs.len() / LOOKUPS).max(1);
    secs.iter()
        .step_by(step)
        .take(LOOKUPS)
        .map(|s| s.to_string())
        .collect()
}

// ----------------------------------------------------------------- rkyv mirror of the graph

#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
struct RNode {
    id: String,
    kind: u8,
    name: String,
    file: Option<String>,
    span: Option<(String, u64, u64)>,
    package: Option<String>,
    metadata: Vec<(String, String)>,
}

#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
struct REdge {
    id: String,
    kind: u8,
    from: u32,
    to: u32,
    origin: Option<(String, u64)>,
    metadata: Vec<(String, String)>,
}

#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
struct RGraph {
    hash: String,
    nodes: Vec<RNode>,
    edges: Vec<REdge>,
    out_off: Vec<u32>,
    out_edges: Vec<u32>,
    texts: Vec<(String, String)>,
}

fn kind_code(k: NodeKind) -> u8 {
    NodeKind::ALL.iter().position(|&x| x == k).unwrap_or(0) as u8
}

fn to_rkyv(g: &Graph) -> RGraph {
    let pos = |id: &str| {
        g.nodes
            .binary_search_by(|n| n.id.as_str().cmp(id))
            .unwrap_or(0) as u32
    };
    let nodes = g
        .nodes
        .iter()
        .map(|n| RNode {
            id: n.id.clone(),
            kind: kind_code(n.kind),
            name: n.name.clone(),
            file: n.file.clone(),
            span: n
                .span
                .as_ref()
                .map(|s| (s.file.clone(), s.start_line, s.end_line)),
            package: n.package.clone(),
            metadata: n.metadata.clone().into_iter().collect(),
        })
        .collect();
    let edges: Vec<REdge> = g
        .edges
        .iter()
        .map(|e| REdge {
            id: e.id.clone(),
            kind: EdgeKind::ALL.iter().position(|&x| x == e.kind).unwrap_or(0) as u8,
            from: pos(&e.from),
            to: pos(&e.to),
            origin: e.origin.as_ref().map(|o| (o.file.clone(), o.line)),
            metadata: e.metadata.clone().into_iter().collect(),
        })
        .collect();
    let mut out_off = vec![0u32; g.nodes.len() + 1];
    for e in &edges {
        out_off[e.from as usize + 1] += 1;
    }
    for i in 0..g.nodes.len() {
        out_off[i + 1] += out_off[i];
    }
    let mut fill = out_off.clone();
    let mut out_edges = vec![0u32; edges.len()];
    for (i, e) in edges.iter().enumerate() {
        out_edges[fill[e.from as usize] as usize] = i as u32;
        fill[e.from as usize] += 1;
    }
    RGraph {
        hash: g.hash.clone(),
        nodes,
        edges,
        out_off,
        out_edges,
        texts: g.texts.clone().into_iter().collect(),
    }
}

fn rkyv_query(g: &ArchivedRGraph, ids: &[String]) -> usize {
    let find = |id: &str| g.nodes.binary_search_by(|n| n.id.as_str().cmp(id)).ok();
    let mut touched = 0;
    for id in ids {
        let Some(i) = find(id) else { continue };
        touched += g.nodes[i].name.len();
        let (a, b) = (g.out_off[i].to_native(), g.out_off[i + 1].to_native());
        for k in a..b {
            let e = &g.edges[g.out_edges[k as usize].to_native() as usize];
            let t = e.to.to_native() as usize;
            touched += g.nodes[t].id.len();
            let (a2, b2) = (g.out_off[t].to_native(), g.out_off[t + 1].to_native());
            for k2 in a2..b2 {
                let e2 = &g.edges[g.out_edges[k2 as usize].to_native() as usize];
                touched += g.nodes[e2.to.to_native() as usize].name.len();
            }
        }
        if let Ok(j) = g.texts.binary_search_by(|t| t.0.as_str().cmp(id)) {
            touched += g.texts[j].1.len();
        }
    }
    touched
}

// ----------------------------------------------------------------- the query, per layout

fn mapped_query(m: &MappedGraph, ids: &[String]) -> usize {
    let mut touched = 0;
    for id in ids {
        let Some(n) = m.node(id) else { continue };
        touched += n.name().map_or(0, str::len);
        for e in n.out_edges(None) {
            let Some(to) = e.target() else { continue };
            touched += to.id().map_or(0, str::len);
            for e2 in to.out_edges(None) {
                touched += e2.target().and_then(|t| t.name()).map_or(0, str::len);
            }
        }
        touched += n.text().map_or(0, str::len);
    }
    touched
}

/// The same query through id lookups only (today's `&str`-keyed API, no index navigation).
fn mapped_query_by_id(m: &MappedGraph, ids: &[String]) -> usize {
    let mut touched = 0;
    for id in ids {
        let Some(n) = m.node(id) else { continue };
        touched += n.name().map_or(0, str::len);
        for e in m.out_edges(id, None) {
            let Some(to) = e.to() else { continue };
            touched += to.len();
            for e2 in m.out_edges(to, None) {
                touched += e2
                    .to()
                    .and_then(|t| m.node(t))
                    .and_then(|n| n.name())
                    .map_or(0, str::len);
            }
        }
        touched += m.text(id).map_or(0, str::len);
    }
    touched
}

/// The same query, decoding owned nodes and edges (the "decode on demand" API).
fn mapped_query_owned(m: &MappedGraph, ids: &[String]) -> usize {
    let mut touched = 0;
    for id in ids {
        let Some(n) = m.node(id).and_then(|n| n.to_node()) else {
            continue;
        };
        touched += n.name.len();
        for e in m.out_edges(id, None).iter().filter_map(|e| e.to_edge()) {
            touched += e.to.len();
            for e2 in m.out_edges(&e.to, None).iter().filter_map(|e| e.to_edge()) {
                touched += m
                    .node(&e2.to)
                    .and_then(|n| n.to_node())
                    .map_or(0, |n| n.name.len());
            }
        }
        touched += m.text(id).map_or(0, str::len);
    }
    touched
}

fn graph_query(g: &Graph, ids: &[String]) -> usize {
    let mut touched = 0;
    for id in ids {
        let Some(n) = g.node(id) else { continue };
        touched += n.name.len();
        for e in g.out_edges(id, None) {
            touched += e.to.len();
            for e2 in g.out_edges(&e.to, None) {
                touched += g.node(&e2.to).map_or(0, |n| n.name.len());
            }
        }
        touched += g.texts.get(id).map_or(0, String::len);
    }
    touched
}

fn read_ids(ws: &Path) -> Vec<String> {
    std::fs::read_to_string(dir(ws).join("ids.txt"))
        .expect("run `write` first")
        .lines()
        .map(str::to_string)
        .collect()
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(mode), Some(ws)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: store_bench write|open-mapped|open-rkyv|open-rkyv-unchecked|open-postcard|stat DIR");
        std::process::exit(2);
    };
    let ws = Path::new(ws);
    let t0 = Instant::now();
    match mode.as_str() {
        "write" => {
            let g = graph_of(ws);
            let load = ms(t0);
            std::fs::create_dir_all(dir(ws)).unwrap();
            std::fs::write(dir(ws).join("ids.txt"), sample_ids(&g).join("\n")).unwrap();
            let t = Instant::now();
            let block: usize = std::env::var("STORE_BLOCK")
                .ok()
                .and_then(|b| b.parse().ok())
                .unwrap_or(ontoly_graph::graph::store::container::BLOCK);
            let w = store::write(&g, KEY).expect("layout").with_block(block);
            let layout = ms(t);
            let t = Instant::now();
            let bytes = w.finish();
            let finish = ms(t);
            let t = Instant::now();
            let path = dir(ws).join("graph.map");
            std::fs::write(&path, &bytes).unwrap();
            let io = ms(t);
            let c = ontoly_graph::graph::store::container::Container::from_bytes(
                bytes,
                store::KIND,
                KEY,
            )
            .unwrap();
            println!(
                "mapped ({block} B blocks): {} bytes; layout {layout:.0} ms, sums+header {finish:.0} ms, write {io:.0} ms (graph obtained in {load:.0} ms)",
                c.raw().len()
            );
            for (name, len) in c.sections() {
                println!("  {name:<12} {len:>12}");
            }
            if std::env::var_os("STORE_NO_RKYV").is_some() {
                std::mem::forget(g);
                return;
            }
            let t = Instant::now();
            let r = to_rkyv(&g);
            let mirror = ms(t);
            let t = Instant::now();
            let rb = rkyv::to_bytes::<rkyv::rancor::Error>(&r).expect("rkyv");
            let ser = ms(t);
            std::fs::write(dir(ws).join("graph.rkyv"), &rb).unwrap();
            println!(
                "rkyv: {} bytes; mirror {mirror:.0} ms, serialize {ser:.0} ms",
                rb.len()
            );
            let t = Instant::now();
            let h = blake3::hash(&rb);
            println!(
                "blake3 of the rkyv file: {:.1} ms ({})",
                ms(t),
                &h.to_hex()[..8]
            );
            let inputs: u64 = read_inputs(&Workspace::at(ws.to_path_buf()))
                .map(|i| i.bytes())
                .unwrap_or(0);
            println!("input bytes: {inputs}");
        }
        "open-mapped" | "open-mapped-owned" | "open-mapped-by-id" => {
            let ids = read_ids(ws);
            let t = Instant::now();
            let m = MappedGraph::open(&dir(ws).join("graph.map"), KEY).expect("open");
            let open = ms(t);
            let t = Instant::now();
            let query = |m: &MappedGraph| match mode.as_str() {
                "open-mapped" => mapped_query(m, &ids),
                "open-mapped-by-id" => mapped_query_by_id(m, &ids),
                _ => mapped_query_owned(m, &ids),
            };
            let touched = query(&m);
            let q = ms(t);
            let t = Instant::now();
            let again = query(&m);
            let q2 = ms(t);
            assert_eq!(touched, again);
            println!(
                "{mode}: open {open:.3} ms, first query {q:.3} ms, again {q2:.3} ms, blocks checked {} ({} KiB), peak RSS {}, total {:.1} ms [{touched}]",
                m.container().blocks_checked(),
                m.container().blocks_checked() as usize * m.container().block_size() / 1024,
                peak_rss_mb(),
                ms(t0)
            );
        }
        "open-rkyv" | "open-rkyv-unchecked" => {
            let ids = read_ids(ws);
            let t = Instant::now();
            let f = std::fs::File::open(dir(ws).join("graph.rkyv")).unwrap();
            // Safety: benchmark only; the file is not modified while mapped.
            let map = unsafe { memmap2::Mmap::map(&f) }.unwrap();
            // rkyv needs 16-byte alignment; an mmap is page-aligned.
            let (g, check) = if mode == "open-rkyv" {
                let g = rkyv::access::<ArchivedRGraph, rkyv::rancor::Error>(&map).expect("valid");
                (g, 0.0)
            } else {
                let t = Instant::now();
                let _ = blake3::hash(&map);
                let check = ms(t);
                // Safety: the bytes were written by rkyv::to_bytes of this type (benchmark).
                (
                    unsafe { rkyv::access_unchecked::<ArchivedRGraph>(&map) },
                    check,
                )
            };
            let open = ms(t);
            let t = Instant::now();
            let touched = rkyv_query(g, &ids);
            let q = ms(t);
            println!(
                "{mode}: open {open:.3} ms (of which whole-file blake3 {check:.3} ms), first query {q:.3} ms, peak RSS {}, total {:.1} ms [{touched}]",
                peak_rss_mb(),
                ms(t0)
            );
        }
        "open-postcard" => {
            let ids = read_ids(ws);
            let t = Instant::now();
            let g = graph_of(ws);
            let open = ms(t);
            let t = Instant::now();
            let touched = graph_query(&g, &ids);
            let q = ms(t);
            println!(
                "open-postcard: inputs hashed + load {open:.1} ms, first query (builds the petgraph index) {q:.1} ms, peak RSS {}, total {:.1} ms [{touched}]",
                peak_rss_mb(),
                ms(t0)
            );
            std::mem::forget(g);
        }
        "stat" => {
            let w = Workspace::at(ws.to_path_buf());
            let t = Instant::now();
            let pages = w.pages().unwrap_or_default();
            let list = ms(t);
            let t = Instant::now();
            let mut total = 0u64;
            for p in &pages {
                if let Ok(m) = std::fs::metadata(w.root.join("knowledge").join(p)) {
                    total += m.len();
                }
            }
            let stat = ms(t);
            println!(
                "stat: {} pages listed in {list:.1} ms, stat'ed in {stat:.1} ms ({total} bytes)",
                pages.len()
            );
        }
        _ => {
            eprintln!("unknown mode {mode}");
            std::process::exit(2);
        }
    }
}
