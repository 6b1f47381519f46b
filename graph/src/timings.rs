//! Stage timings on stderr when `ONTOLY_TIMINGS` is set: for profiling the graph and index
//! builds, never in outputs.

use std::cell::Cell;
use std::time::Instant;

/// Prints the time each stage took, with the process's memory, when `ONTOLY_TIMINGS` is set;
/// does nothing otherwise (the default).
#[derive(Default)]
pub struct Timer(Option<Cell<Instant>>);

impl Timer {
    /// A timer that runs when `ONTOLY_TIMINGS` is set, from now.
    pub fn from_env() -> Timer {
        Timer(std::env::var_os("ONTOLY_TIMINGS").map(|_| Cell::new(Instant::now())))
    }

    /// Prints the time since the last lap (or the start) under `what`.
    pub fn lap(&self, what: &str) {
        if let Some(t) = &self.0 {
            let now = Instant::now();
            eprintln!(
                "{:>8.3}s  {what}{}",
                (now - t.get()).as_secs_f64(),
                memory_note()
            );
            t.set(now);
        }
    }
}

/// The process's resident and peak memory where `/proc` tells them.
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
