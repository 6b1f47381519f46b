//! Retrieval: the search index over the graph's texts (BM25 over identifier-aware tokens,
//! built once per graph and stored beside the snapshot) and the ranking that propagates its
//! scores along the graph.
//!
//! Invariant: a ranking depends only on the graph, the index and the query; work is bounded by
//! counts, never by time, and ties break by id.

mod builder;
pub mod columns;
pub mod english;
pub mod index;
pub mod rank;
mod stored;
pub mod tokens;

pub use index::Index;

/// Sub-stage timings of the index build on stderr when `ONTOLY_TIMINGS` is set (as the graph
/// build prints its stages; for profiling, never in outputs).
pub(crate) struct Stages(Option<std::time::Instant>);

impl Stages {
    pub(crate) fn start() -> Stages {
        Stages(std::env::var_os("ONTOLY_TIMINGS").map(|_| std::time::Instant::now()))
    }

    /// Prints the time since the last stage ended, under `what`.
    pub(crate) fn done(&mut self, what: &str) {
        if let Some(t) = &mut self.0 {
            eprintln!(
                "{:>8.3}s    index: {what}{}",
                t.elapsed().as_secs_f64(),
                memory_note()
            );
            *t = std::time::Instant::now();
        }
    }
}

/// The process's resident and peak memory where `/proc` tells them (timings only; as the
/// graph build's stage timings print them).
fn memory_note() -> String {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return String::new();
    };
    let mb = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    };
    format!("  (rss {} MB, peak {} MB)", mb("VmRSS:"), mb("VmHWM:"))
}
