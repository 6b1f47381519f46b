//! The process's memory allocator: mimalloc, and how soon it gives freed memory back.

/// mimalloc instead of the system allocator: a cold build of a large workspace makes millions
/// of small, short-lived allocations (ids, metadata, serialized chunks) from several rayon
/// threads, and glibc malloc spent about a third of the build in malloc/free/consolidation
/// (perf, 100k sections). mimalloc's per-thread free lists remove most of that.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in mimalloc's `mimalloc.h` (v3, as libmimalloc-sys 0.1.49 bundles
/// it): the bindings do not name it. The test below checks the number against the option the
/// `MIMALLOC_PURGE_DELAY` variable sets.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Milliseconds mimalloc keeps freed memory before it returns it to the system.
///
/// mimalloc v3 waits 1 000 ms by default. A cold build frees large parts of its memory stage
/// after stage (the input bytes after parse, the parses once the parse cache holds them, the
/// index's tokenized chunks after its postings), each well under a second before the next
/// stage allocates its own: kept, they add up, and at 100k sections the peak RSS was ~650 MiB
/// over a live heap of ~520 MiB. 10 ms gives most of them back in time (with the build's other
/// stop-25 changes, peak 542–560 MB against 662–704) for ~5 % more CPU at 100k and ~10 % at
/// 10k, in madvise calls and page faults (docs/scale.md §28). 0 (at once) cost ~15 % more CPU
/// for no lower peak.
const PURGE_DELAY_MS: std::ffi::c_long = 10;

/// Sets mimalloc's options, unless the environment set them (`MIMALLOC_PURGE_DELAY`, or its
/// old name `MIMALLOC_RESET_DELAY`): mimalloc reads its variables when the process loads,
/// before `main`, so a default set here would be ignored; the variable stays the way to
/// measure another value.
pub fn tune() {
    let set_by_env = ["MIMALLOC_PURGE_DELAY", "MIMALLOC_RESET_DELAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some());
    if !set_by_env {
        // Safety: called first in `main`, before any other thread exists (mimalloc's option
        // setters are not thread safe); the option number is in range (see `PURGE_DELAY`).
        unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, PURGE_DELAY_MS) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value mimalloc holds for `PURGE_DELAY`.
    fn purge_delay() -> std::ffi::c_long {
        // Safety: reading an option in range.
        unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) }
    }

    /// Run in a child process by the test below (with the variable set at load).
    #[test]
    fn child_reports_the_purge_delay() {
        match std::env::var("ONTOLY_TEST_PURGE_DELAY").as_deref() {
            Ok("tuned") => {
                tune();
                assert_eq!(purge_delay(), PURGE_DELAY_MS);
            }
            Ok(value) => {
                let want: std::ffi::c_long = value.parse().unwrap_or(-2);
                assert_eq!(purge_delay(), want);
                tune();
                assert_eq!(purge_delay(), want, "the environment's value is kept");
            }
            Err(_) => {}
        }
    }

    #[test]
    fn the_option_is_the_one_mimalloc_purge_delay_sets() {
        let exe = std::env::current_exe().expect("the test binary's path");
        for value in ["123", "-1", "tuned"] {
            let mut child = std::process::Command::new(&exe);
            child
                .args(["--exact", "allocator::tests::child_reports_the_purge_delay"])
                .env("ONTOLY_TEST_PURGE_DELAY", value)
                .env_remove("MIMALLOC_RESET_DELAY");
            if value == "tuned" {
                child.env_remove("MIMALLOC_PURGE_DELAY");
            } else {
                child.env("MIMALLOC_PURGE_DELAY", value);
            }
            let out = child.output().expect("the test binary runs");
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{text}");
            assert!(text.contains("1 passed"), "{text}");
        }
    }
}
