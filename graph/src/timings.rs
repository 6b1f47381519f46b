//! Stage timings on stderr when `ONTOLY_TIMINGS` is set: for profiling the graph and index
//! builds, never in outputs.

use std::cell::Cell;
use std::time::Instant;

/// Prints the time each stage took, with the process's CPU time and memory, when
/// `ONTOLY_TIMINGS` is set; does nothing otherwise (the default).
#[derive(Default)]
pub struct Timer(Option<Cell<(Instant, f64)>>);

impl Timer {
    /// A timer that runs when `ONTOLY_TIMINGS` is set, from now.
    pub fn from_env() -> Timer {
        Timer(
            std::env::var_os("ONTOLY_TIMINGS").map(|_| Cell::new((Instant::now(), cpu_seconds()))),
        )
    }

    /// Prints the time since the last lap (or the start) under `what`, with the CPU time the
    /// whole process spent meanwhile: beside the wall time it says how parallel a stage ran
    /// (the other threads' work counts too, so a lap that overlaps another thread's shows it).
    pub fn lap(&self, what: &str) {
        if let Some(t) = &self.0 {
            let (then, then_cpu) = t.get();
            let (now, cpu) = (Instant::now(), cpu_seconds());
            eprintln!(
                "{:>8.3}s  {what}  (cpu {:.2}s){}",
                (now - then).as_secs_f64(),
                cpu - then_cpu,
                memory_note()
            );
            t.set((now, cpu));
        }
    }
}

/// The process's user + system CPU time, in seconds, where `/proc` tells it (0 elsewhere).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis
    // start at field 3, so utime and stime (fields 14 and 15) are the 12th and 13th of them.
    let ticks = stat.rsplit_once(')').map_or(0.0, |(_, rest)| {
        rest.split_whitespace()
            .skip(11)
            .take(2)
            .filter_map(|f| f.parse::<f64>().ok())
            .sum()
    });
    // The kernel reports these in USER_HZ, 100 on every Linux ABI Rust supports.
    ticks / 100.0
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
