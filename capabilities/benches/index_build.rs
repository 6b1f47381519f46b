//! The search-index build alone (`Index::build`) on generated workspaces, beside its floor.
//!
//! ```sh
//! python3 testdata/gen/generate.py --out testdata/generated/100000 --sections 100000 --git
//! ontoly --workspace testdata/generated/100000 build   # the graph snapshot, loaded below
//! ONTOLY_BENCH_WS=testdata/generated/100000 ONTOLY_BENCH_REPEAT=5 \
//!     cargo bench -p ontoly-capabilities --bench index_build
//! ```
//!
//! For each workspace: loads the graph as the CLI does, then builds the index
//! `ONTOLY_BENCH_REPEAT` times (default 5) and prints the median and range of the wall time and
//! of the process's CPU time (user + system, all threads: less disturbed than the wall time by
//! other work on a shared machine), the index bytes' blake3 (so two builds of ontoly can be
//! checked to write the same index), and the floor measured in the same run: one pass over every
//! node's text, finding its words (what any tokenizer must at least do).
//! `ONTOLY_TIMINGS=1` adds the build's own per-stage lines on stderr.

use ontoly_capabilities::Index;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn load(root: &Path) -> Option<ontoly_graph::Session> {
    if !root.join("knowledge/structure.yaml").is_file() {
        eprintln!("skipping {}: not generated", root.display());
        return None;
    }
    let opts = ontoly_graph::SessionOptions::new(root).workspace(root);
    let session = ontoly_graph::Session::open(opts).ok()?;
    session.graph().ok()?;
    Some(session)
}

/// The process's CPU time so far (user + system, all threads), from `/proc/self/stat`; zero
/// where that is not readable (the figure is then missing, not wrong).
fn cpu_time() -> Duration {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return Duration::ZERO;
    };
    // Fields after the command name (which may hold spaces) start at its closing parenthesis;
    // utime and stime are fields 14 and 15, in clock ticks (100 per second on Linux).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<u64> = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|v| v.parse().ok())
        .collect();
    Duration::from_millis(f.iter().sum::<u64>() * 10)
}

fn median(mut v: Vec<Duration>) -> (Duration, Duration, Duration) {
    v.sort();
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

fn main() {
    let base = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let list =
        std::env::var("ONTOLY_BENCH_WS").unwrap_or_else(|_| "testdata/generated/10000".into());
    let repeat: usize = std::env::var("ONTOLY_BENCH_REPEAT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5)
        .max(1);
    for ws in list.split(',').filter(|s| !s.is_empty()) {
        let root = base.join(ws);
        let Some(session) = load(&root) else { continue };
        let Ok(g) = session.graph() else { continue };
        let (mut wall, mut cpu, mut floor) = (Vec::new(), Vec::new(), Vec::new());
        let mut digest = String::new();
        let mut words = 0usize;
        for _ in 0..repeat {
            let t = Instant::now();
            words = g
                .nodes()
                .filter_map(|n| g.text(&n.id))
                .map(|text| {
                    text.split(|c: char| !c.is_alphanumeric())
                        .filter(|w| !w.is_empty())
                        .count()
                })
                .sum();
            floor.push(t.elapsed());
            let (t, c) = (Instant::now(), cpu_time());
            let index = Index::build(g);
            wall.push(t.elapsed());
            cpu.push(cpu_time().saturating_sub(c));
            digest = blake3::hash(&index.to_bytes()).to_hex()[..16].to_string();
        }
        let (w, wa, wb) = median(wall);
        let (c, ca, cb) = median(cpu);
        let (f, fa, fb) = median(floor);
        println!(
            "{ws}: {} nodes; index build wall {w:.3?} ({wa:.3?}-{wb:.3?}), cpu {c:.2?} \
             ({ca:.2?}-{cb:.2?}), bytes blake3 {digest}; floor (find {words} words) {f:.3?} \
             ({fa:.3?}-{fb:.3?}); {repeat} runs",
            g.node_count()
        );
    }
}
