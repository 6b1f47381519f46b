//! Progress on a terminal: every phase of a build and the index build gets a bar once it has
//! run for a while (here: at once, `ONTOLY_PROGRESS_DELAY_MS=0`), on stderr, and nothing when
//! stderr is not a terminal. The terminal is a pseudo-terminal from util-linux `script`.

mod common;

use std::process::Command;

/// Runs `ontoly ARGS` in the demo under a pseudo-terminal (stdout discarded); returns what the
/// terminal showed.
fn on_a_terminal(args: &str, delay_ms: &str) -> String {
    let bin = env!("CARGO_BIN_EXE_ontoly");
    let out = Command::new("script")
        .args([
            "-qec",
            &format!("'{bin}' --no-cache {args} > /dev/null"),
            "/dev/null",
        ])
        .current_dir(common::demo())
        .env("ONTOLY_PROGRESS_DELAY_MS", delay_ms)
        .env_remove("NO_COLOR")
        .output()
        .expect("util-linux `script` runs (it provides the pseudo-terminal)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn every_phase_shows_progress_on_a_terminal() {
    let shown = on_a_terminal("evidence retry", "0");
    for phase in [
        "reading",
        "parsing",
        "linking",
        "resolving",
        "verifying",
        "assembling",
        "indexing",
    ] {
        assert!(shown.contains(phase), "{phase}: {shown:?}");
    }
    // The parse phase counts its files: the structure and the demo's 8 pages.
    assert!(shown.contains("/9"), "{shown:?}");
}

#[test]
fn quick_phases_and_pipes_show_nothing() {
    let shown = on_a_terminal("build", "60000");
    assert!(!shown.contains("parsing"), "{shown:?}");
    let piped = common::run_in(&common::demo(), &["--no-cache", "build"]);
    assert_eq!(piped.code, 0);
    assert_eq!(piped.stderr, "", "no progress off a terminal");
}
