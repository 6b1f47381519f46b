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

/// `mi_option_allow_thp` in the same header (checked against `MIMALLOC_ALLOW_THP` the same way).
const ALLOW_THP: libmimalloc_sys::mi_option_t = 43;

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

/// Whether the process's memory may be backed by transparent huge pages (mimalloc's default
/// is yes: it asks with `madvise(MADV_HUGEPAGE)` for the memory it maps). No: the build
/// touches its memory once, stage after stage, and gives it back within milliseconds (above),
/// so a 2 MiB page is zeroed whole on its first touch, often for a few KiB, and on a kernel
/// whose THP `defrag` setting is `madvise` the fault also compacts memory to find one. On a
/// 2-core host with those settings, four cold builds of 100k sections alternated with the
/// default took 4.3–5.7 s (system time 1.2–1.9 s) against 8.2–10.0 s (5.9–7.4 s), with the
/// same user time and a lower peak; a one-page build did not change (docs/scale.md §38).
const ALLOW_THP_VALUE: std::ffi::c_long = 0;

/// mimalloc's options that ontoly sets, each with the variable that overrides it (and that
/// variable's old name, if any) and ontoly's value.
const TUNED: [(libmimalloc_sys::mi_option_t, &[&str], std::ffi::c_long); 2] = [
    (
        PURGE_DELAY,
        &["MIMALLOC_PURGE_DELAY", "MIMALLOC_RESET_DELAY"],
        PURGE_DELAY_MS,
    ),
    (ALLOW_THP, &["MIMALLOC_ALLOW_THP"], ALLOW_THP_VALUE),
];

/// Sets mimalloc's options ([`TUNED`]), each unless the environment set it: mimalloc reads its
/// variables when the process loads, before `main`, so a default set here would be ignored;
/// the variables stay the way to measure another value.
pub fn tune() {
    for (option, vars, value) in TUNED {
        if !vars.iter().any(|v| std::env::var_os(v).is_some()) {
            // Safety: called first in `main`, before any other thread exists (mimalloc's
            // option setters are not thread safe); the option numbers are in range (see the
            // constants).
            unsafe { libmimalloc_sys::mi_option_set(option, value) };
            if option == ALLOW_THP {
                refuse_huge_pages();
            }
        }
    }
}

/// Huge pages off for the whole process, as mimalloc itself does when `MIMALLOC_ALLOW_THP=0`
/// is set at load: by `main` it has already mapped (and advised) its first arena, which the
/// option set above would not reach. Best effort: a kernel that refuses leaves the default.
fn refuse_huge_pages() {
    #[cfg(target_os = "linux")]
    // Safety: prctl with PR_SET_THP_DISABLE takes plain integers and touches no memory of ours.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value mimalloc holds for `option`.
    fn get(option: libmimalloc_sys::mi_option_t) -> std::ffi::c_long {
        // Safety: reading an option in range.
        unsafe { libmimalloc_sys::mi_option_get(option) }
    }

    /// Whether the kernel backs this process's memory with huge pages (`PR_GET_THP_DISABLE`).
    #[cfg(target_os = "linux")]
    fn huge_pages_refused() -> bool {
        // Safety: a query without pointers.
        unsafe { libc::prctl(libc::PR_GET_THP_DISABLE, 0, 0, 0, 0) == 1 }
    }

    /// Run in a child process by the test below (with the variables set at load):
    /// `ONTOLY_TEST_OPTION` is `tuned` (no variable set: ontoly's values) or `NAME=VALUE`, the
    /// variable the child was started with.
    #[test]
    fn child_reports_the_options() {
        let Ok(case) = std::env::var("ONTOLY_TEST_OPTION") else {
            return;
        };
        match case.split_once('=') {
            None => {
                tune();
                for (option, _, value) in TUNED {
                    assert_eq!(get(option), value, "option {option}");
                }
                #[cfg(target_os = "linux")]
                assert!(huge_pages_refused());
            }
            Some((var, value)) => {
                let want: std::ffi::c_long = value.parse().unwrap_or(-2);
                let (option, _, _) = TUNED
                    .iter()
                    .find(|(_, vars, _)| vars.contains(&var))
                    .expect("a variable of TUNED");
                assert_eq!(get(*option), want, "{var} sets option {option}");
                tune();
                assert_eq!(get(*option), want, "the environment's value is kept");
                #[cfg(target_os = "linux")]
                if var == "MIMALLOC_ALLOW_THP" {
                    // mimalloc refuses them itself for 0, and leaves the kernel's default for 1.
                    assert_eq!(huge_pages_refused(), want == 0);
                }
            }
        }
    }

    #[test]
    fn the_options_are_the_ones_mimalloc_variables_set() {
        let exe = std::env::current_exe().expect("the test binary's path");
        let cases = [
            "MIMALLOC_PURGE_DELAY=123",
            "MIMALLOC_PURGE_DELAY=-1",
            "MIMALLOC_ALLOW_THP=0",
            "MIMALLOC_ALLOW_THP=1",
            "tuned",
        ];
        for case in cases {
            let mut child = std::process::Command::new(&exe);
            child
                .args(["--exact", "allocator::tests::child_reports_the_options"])
                .env("ONTOLY_TEST_OPTION", case);
            for (_, vars, _) in TUNED {
                for v in vars {
                    child.env_remove(v);
                }
            }
            if let Some((var, value)) = case.split_once('=') {
                child.env(var, value);
            }
            let out = child.output().expect("the test binary runs");
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{case}: {text}");
            assert!(text.contains("1 passed"), "{case}: {text}");
        }
    }
}
