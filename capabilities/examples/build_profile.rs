//! Where a cold build's time and memory go, stage by stage, and what the snapshot is made of
//! (issue 10, phase 1). Runs the public build stages in order, as `ontoly build` does, under
//! mimalloc wrapped in an allocation counter, then measures the experiment the last profile
//! named (the cost of owned id strings). The other one, canonical bytes hashed without
//! serde_json, is how the graph hash is computed now (`graph/src/graph/canonical.rs`).
//!
//! ```sh
//! cargo run --release -p ontoly-capabilities --example build_profile -- testdata/generated/100000
//! ```
//!
//! Per stage: wall time, allocations, bytes allocated, live heap at the end and the peak
//! within. Timings are wall clock on a shared machine: compare them with the floor line
//! (read + blake3 of the inputs) of the same run.

use ontoly_capabilities::Index;
use ontoly_graph::formats::layout::Workspace;
use ontoly_graph::formats::page::PageParse;
use ontoly_graph::formats::parsed::Parsed;
use ontoly_graph::graph::build::{self, inputs, BuildOptions};
use ontoly_graph::graph::model::{Edge, Node};
use ontoly_graph::graph::snapshot;
use ontoly_graph::graph::Graph;
use ontoly_graph::sources::clones::CloneMap;
use ontoly_graph::sources::verify::VerifyStage;
use rayon::prelude::*;
use std::alloc::{GlobalAlloc, Layout};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

struct Counting;

static ALLOCS: AtomicUsize = AtomicUsize::new(0);
static BYTES: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static MI: mimalloc::MiMalloc = mimalloc::MiMalloc;

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(l.size(), Relaxed);
        let live = LIVE.fetch_add(l.size(), Relaxed) + l.size();
        PEAK.fetch_max(live, Relaxed);
        // Safety: forwards the caller's contract to mimalloc.
        unsafe { MI.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Relaxed);
        // Safety: as above.
        unsafe { MI.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(new, Relaxed);
        if new >= l.size() {
            let live = LIVE.fetch_add(new - l.size(), Relaxed) + new - l.size();
            PEAK.fetch_max(live, Relaxed);
        } else {
            LIVE.fetch_sub(l.size() - new, Relaxed);
        }
        // Safety: as above.
        unsafe { MI.realloc(p, l, new) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn mb(b: usize) -> f64 {
    b as f64 / 1e6
}

fn rss() -> String {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let get = |f: &str| {
        s.lines()
            .find_map(|l| l.strip_prefix(f))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    };
    format!("RSS {:.0} MB (peak {:.0})", get("VmRSS:"), get("VmHWM:"))
}

/// CPU seconds (user + system, all threads) of this process so far: less disturbed than wall
/// time by other jobs on a shared machine.
fn cpu() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = s.rsplit_once(')').map_or("", |r| r.1);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    (ticks(11) + ticks(12)) / 100.0
}

struct Stage {
    cpu: f64,
    t: Instant,
    allocs: usize,
    bytes: usize,
}

fn start() -> Stage {
    PEAK.store(LIVE.load(Relaxed), Relaxed);
    Stage {
        cpu: cpu(),
        t: Instant::now(),
        allocs: ALLOCS.load(Relaxed),
        bytes: BYTES.load(Relaxed),
    }
}

fn end(s: Stage, name: &str) -> f64 {
    let secs = s.t.elapsed().as_secs_f64();
    println!(
        "| {name} | {secs:.3} | {:.2} | {:.2} M | {:.0} | {:.0} | {:.0} | {} |",
        cpu() - s.cpu,
        (ALLOCS.load(Relaxed) - s.allocs) as f64 / 1e6,
        mb(BYTES.load(Relaxed) - s.bytes),
        mb(LIVE.load(Relaxed)),
        mb(PEAK.load(Relaxed)),
        rss()
    );
    secs
}

fn composition(g: &Graph, parses: &Parsed, index: &Index) {
    let s = |x: &str| x.len();
    let mut node_ids = 0;
    let mut names = 0;
    let mut files = 0;
    let mut meta = 0;
    let mut strings_nodes = 0usize;
    for n in g.parts().expect("built").0 {
        node_ids += s(&n.id);
        names += s(&n.name);
        files += n.file.as_deref().map_or(0, s)
            + n.span.as_ref().map_or(0, |sp| s(&sp.file))
            + n.package.as_deref().map_or(0, s);
        meta += n.metadata.iter().map(|(k, v)| s(k) + s(v)).sum::<usize>();
        strings_nodes += 2
            + usize::from(n.file.is_some())
            + usize::from(n.span.is_some())
            + usize::from(n.package.is_some())
            // A metadata value is an owned string; the keys the build writes are borrowed.
            + n.metadata.len();
    }
    let (mut edge_ids, mut ends, mut origins, mut emeta, mut strings_edges) = (0, 0, 0, 0, 0usize);
    for e in g.parts().expect("built").1 {
        edge_ids += s(&e.id);
        ends += s(&e.from) + s(&e.to);
        origins += e.origin.as_ref().map_or(0, |o| s(&o.file) + 8);
        emeta += e.metadata.iter().map(|(k, v)| s(k) + s(v)).sum::<usize>();
        strings_edges += 3 + usize::from(e.origin.is_some()) + e.metadata.len();
    }
    let texts: usize = g
        .parts()
        .expect("built")
        .2
        .iter()
        .map(|(k, v)| s(k) + s(v))
        .sum();
    println!(
        "\ngraph content (string bytes; {} nodes, {} edges, {} texts):",
        g.node_count(),
        g.edge_count(),
        g.parts().expect("built").2.len()
    );
    println!("- node ids {:.1} MB, names {:.1} MB, files/spans/packages {:.1} MB, node metadata {:.1} MB; owned strings per node {:.1}",
        mb(node_ids), mb(names), mb(files), mb(meta), strings_nodes as f64 / g.node_count().max(1) as f64);
    println!("- edge ids {:.1} MB, from+to ids {:.1} MB, origins {:.1} MB, edge metadata {:.1} MB; owned strings per edge {:.1}",
        mb(edge_ids), mb(ends), mb(origins), mb(emeta), strings_edges as f64 / g.edge_count().max(1) as f64);
    println!("- texts (keys + values) {:.1} MB", mb(texts));
    let distinct_meta: std::collections::HashSet<&ontoly_graph::graph::Metadata> = g
        .parts()
        .expect("built")
        .1
        .iter()
        .map(|e| &e.metadata)
        .collect();
    println!(
        "- distinct edge metadata maps: {} of {}",
        distinct_meta.len(),
        g.edge_count()
    );
    let pc_structure = postcard::to_stdvec(&parses.structure).map_or(0, |v| v.len());
    let pc_pages = postcard::to_stdvec(&parses.pages).map_or(0, |v| v.len());
    let page_texts: usize = parses
        .pages
        .values()
        .map(|p: &PageParse| {
            p.section_texts
                .iter()
                .map(|(h, b)| h.as_deref().map_or(0, s) + s(b))
                .sum::<usize>()
        })
        .sum();
    println!(
        "parse cache (postcard): structure {:.1} MB, pages {:.1} MB (of which section texts {:.1} MB, the same bytes as the graph's texts)",
        mb(pc_structure),
        mb(pc_pages),
        mb(page_texts)
    );
    index_composition(index);
}

fn index_composition(index: &Index) {
    let sections = index.to_sections();
    let total: usize = sections.iter().map(|(_, b)| b.len()).sum();
    let parts: Vec<String> = sections
        .iter()
        .map(|(n, b)| format!("{n} {:.1}", mb(b.len())))
        .collect();
    println!(
        "search index {:.1} MB ({} docs): {}",
        mb(total),
        index.len(),
        parts.join(", ")
    );
}

/// A fixed pseudo-random permutation (the experiment must not depend on a random seed).
fn shuffle<T>(v: &mut [T]) {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for i in (1..v.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.swap(i, (x % (i as u64 + 1)) as usize);
    }
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .expect("usage: build_profile WORKSPACE");
    let ws = Workspace::at(std::path::PathBuf::from(&dir));
    let clones = CloneMap::load(&ws.root, &[]).expect("clones");
    // As `Session::build` sets it up (without the workspace's own repository: the generated
    // workspaces cite none of it).
    let opts = BuildOptions {
        use_cache: false,
        progress: None,
        clones: clones.clone(),
        source_stage: Some(std::sync::Arc::new(VerifyStage::new(clones, None))),
        knowledge_repository: None,
        verify_snapshot: false,
    };
    println!("| stage | wall s | CPU s | allocations | MB allocated | MB live after | MB peak live | process |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    let total = Instant::now();
    let s = start();
    let inputs = inputs::read_inputs(&ws).expect("inputs");
    let floor = end(s, "read + blake3 inputs (the floor)");

    let s = start();
    let sf = inputs.get("knowledge/structure.yaml").expect("structure");
    let structure = ontoly_graph::formats::parsed::parse_structure_file(
        sf.bytes.as_deref().map_err(String::as_str),
    );
    end(s, "parse structure.yaml");

    let s = start();
    let pages: BTreeMap<String, PageParse> = inputs
        .pages()
        .collect::<Vec<_>>()
        .par_iter()
        .filter_map(|&p| {
            let f = inputs.get(&format!("knowledge/{p}"))?;
            Some((
                p.to_string(),
                ontoly_graph::formats::page::parse_page(
                    p,
                    f.bytes.as_deref().map_err(String::as_str),
                    &f.hash,
                ),
            ))
        })
        .collect::<Vec<_>>()
        .into_iter()
        .collect();
    end(s, "parse pages");

    let s = start();
    let (mut parts, sites) = build::collect::collect(&structure, &pages, &[]);
    end(s, "collect");

    let s = start();
    let files =
        |path: &str| -> Result<Vec<u8>, ontoly_graph::formats::source_registry::FileReadError> {
            match inputs.get(path).map(|f| &f.bytes) {
                Some(Ok(b)) => Ok(b.clone()),
                _ => Err(ontoly_graph::formats::source_registry::FileReadError::Unreadable),
            }
        };
    let registries = ontoly_graph::formats::source_registry::Registries::load(&files, "");
    let cited = build::resolve::resolve_references(&inputs, &registries, &opts, sites, &mut parts);
    end(s, "resolve references");
    println!(
        "|   (parts now: {} nodes, {} edges, {} texts, {} cited ranges) | | | | | | | |",
        parts.nodes.len(),
        parts.edges.len(),
        parts.texts.len(),
        cited.len()
    );

    let s = start();
    if let Some(stage) = &opts.source_stage {
        let salt = stage.cache_salt(inputs.repo_content());
        std::hint::black_box(salt);
        stage.run(&cited, &mut parts);
    }
    drop(cited);
    end(s, "source stage (+ its cache salt)");

    let s = start();
    let graph = build::assemble(parts);
    end(s, "assemble (sort, dedup, hash)");

    let s = start();
    let h = graph.compute_hash();
    end(s, "  of which: graph hash");
    assert_eq!(h, graph.hash);

    let pc = Parsed {
        structure: (sf.hash.clone(), structure),
        pages,
        registries,
        unlisted: Vec::new(),
    };
    let key = inputs::cache_key(inputs.pairs(), "profile");
    let tmp = tempfile::tempdir().expect("tmp");
    // PROFILE_NO_DISK=1: serialize in memory only (for a machine short of disk space).
    let disk = std::env::var_os("PROFILE_NO_DISK").is_none();
    // The store takes the parses and drops them once written: it gets a copy, made untimed.
    let parses = disk.then(|| pc.clone());
    let s = start();
    if let Some(parses) = parses {
        let (stored, _) = snapshot::store(tmp.path(), &key, &graph, parses, &Default::default());
        stored.expect("store");
    }
    end(s, "store snapshot (graph.bin + parse.bin)");

    let s = start();
    let w = ontoly_graph::graph::store::write(&graph, &key).expect("layout");
    let bytes = w.finish().expect("graph.map bytes");
    if disk {
        std::fs::write(tmp.path().join("graph.map"), &bytes).expect("write");
    }
    end(s, "  instead: mapped layout (graph.map)");

    let s = start();
    let index = Index::build(&graph);
    let ib = index.to_bytes();
    end(s, "search index build + serialize");
    println!(
        "\ntotal {:.2} s = {:.1}x the floor; graph.bin {:.1} MB, parse.bin {:.1} MB, graph.map {:.1} MB, index {:.1} MB; inputs {:.1} MB",
        total.elapsed().as_secs_f64(),
        total.elapsed().as_secs_f64() / floor,
        mb(std::fs::metadata(tmp.path().join(".ontoly/graph.bin")).map_or(0, |m| m.len() as usize)),
        mb(std::fs::metadata(tmp.path().join(".ontoly/parse.bin")).map_or(0, |m| m.len() as usize)),
        mb(bytes.len()),
        mb(ib.len()),
        mb(inputs.bytes() as usize)
    );

    // Experiment: what sorting owned-string nodes and edges costs (assemble's first step).
    let mut nodes: Vec<Node> = graph.parts().expect("built").0.to_vec();
    let mut edges: Vec<Edge> = graph.parts().expect("built").1.to_vec();
    shuffle(&mut nodes);
    shuffle(&mut edges);
    let t = Instant::now();
    nodes.par_sort_by(|a, b| a.id.cmp(&b.id));
    edges.par_sort_by(|a, b| a.id.cmp(&b.id));
    println!(
        "sorting {} nodes + {} edges by owned id strings (shuffled): {:.3} s",
        nodes.len(),
        edges.len(),
        t.elapsed().as_secs_f64()
    );
    let mut keyed: Vec<(u128, u32)> = edges
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let h = blake3::hash(e.id.as_bytes());
            let mut k = [0u8; 16];
            k.copy_from_slice(&h.as_bytes()[..16]);
            (u128::from_be_bytes(k), i as u32)
        })
        .collect();
    shuffle(&mut keyed);
    let t = Instant::now();
    keyed.par_sort_unstable();
    println!(
        "sorting the same edges as (u128 key, index) pairs: {:.3} s",
        t.elapsed().as_secs_f64()
    );
    drop((nodes, edges, keyed));

    // The heap that owned nodes and edges hold (a clone is measured, so the figure is exactly
    // what the representation costs), against the mapped layout's fixed-width rows.
    let before = LIVE.load(Relaxed);
    let e2 = graph.parts().expect("built").1.to_vec();
    let edges_heap = LIVE.load(Relaxed) - before;
    let before = LIVE.load(Relaxed);
    let n2 = graph.parts().expect("built").0.to_vec();
    let nodes_heap = LIVE.load(Relaxed) - before;
    println!(
        "heap held by Vec<Edge>: {:.0} MB ({:.0} B per edge); by Vec<Node>: {:.0} MB ({:.0} B per node); the mapped rows take 48 B each plus shared strings",
        mb(edges_heap),
        edges_heap as f64 / e2.len().max(1) as f64,
        mb(nodes_heap),
        nodes_heap as f64 / n2.len().max(1) as f64
    );
    drop((e2, n2));

    composition(&graph, &pc, &index);
    std::mem::forget((graph, pc, index, inputs));
}
