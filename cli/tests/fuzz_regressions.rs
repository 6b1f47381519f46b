//! Every committed fuzz regression input (`fuzz/regressions/<target>/`, each a past bug) run
//! through its target's own checks, on stable, in every `cargo test`.
//!
//! The targets' bodies live in the fuzz crate's library (`fuzz/src/`, one `run(data)` each),
//! compiled here by `#[path]`: it needs nothing of libfuzzer-sys, and its dependencies are all
//! this crate's (`mcp_transport` compiles `cli/src/mcp/transport.rs`, this crate's own file).
//! So the cargo-fuzz binaries and this replay run the same code, and neither a nightly
//! toolchain, cargo-fuzz nor a second build of the workspace is needed to catch a regression.
//! Exploration (new inputs) stays with `scripts/fuzz.sh`.

#[path = "../../fuzz/src/lib.rs"]
mod ontoly_fuzz;

use std::path::{Path, PathBuf};

/// A target's body: panics when one of its checks fails.
type Target = fn(&[u8]);

/// Every target of `fuzz/fuzz_targets/` and the function its binary runs.
const TARGETS: &[(&str, Target)] = &[
    ("markers", ontoly_fuzz::markers::run),
    ("mcp_transport", ontoly_fuzz::mcp_transport::run),
    ("plugin", ontoly_fuzz::plugin::run),
    ("reads", ontoly_fuzz::reads::run),
    ("registry", ontoly_fuzz::registry::run),
    ("source_ref", ontoly_fuzz::source_ref::run),
    ("structure_diff", ontoly_fuzz::structure_diff::run),
];

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

/// The names of the entries of `dir` with the given extension (`None`: directories), sorted.
fn names(dir: &Path, ext: Option<&str>) -> Vec<String> {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
    let mut out: Vec<String> = entries
        .map(|e| e.unwrap_or_else(|e| panic!("reading {}: {e}", dir.display())))
        .map(|e| e.path())
        .filter(|p| match ext {
            Some(ext) => p.extension().is_some_and(|x| x == ext),
            None => p.is_dir(),
        })
        .filter_map(|p| Some(p.file_stem()?.to_str()?.to_string()))
        .collect();
    out.sort();
    out
}

/// Runs `target` on each file of `fuzz/regressions/<target>/` (none is fine); fails naming
/// every input whose run panicked (its message is printed above the failure).
fn replay(target: &str) {
    let Some(&(_, run)) = TARGETS.iter().find(|(t, _)| *t == target) else {
        panic!("no fuzz target {target}");
    };
    let dir = fuzz_dir().join("regressions").join(target);
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .map(|e| e.unwrap_or_else(|e| panic!("reading {}: {e}", dir.display())))
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => panic!("reading {}: {e}", dir.display()),
    };
    files.sort();
    let mut failed = Vec::new();
    for path in &files {
        let data =
            std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        if std::panic::catch_unwind(|| run(&data)).is_err() {
            failed.push(format!(
                "fuzz/regressions/{target}/{}",
                path.file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "fuzz target {target}: {} of {} regression inputs fail (panics above; reproduce with \
         `cargo +nightly fuzz run {target} <file>` in fuzz/): {failed:#?}",
        failed.len(),
        files.len()
    );
}

/// A target added without an entry here, or regressions kept for a name that is not a
/// target, would never be replayed.
#[test]
fn every_target_and_regression_directory_is_replayed() {
    let listed: Vec<String> = TARGETS.iter().map(|(t, _)| t.to_string()).collect();
    assert_eq!(names(&fuzz_dir().join("fuzz_targets"), Some("rs")), listed);
    for dir in names(&fuzz_dir().join("regressions"), None) {
        assert!(listed.contains(&dir), "fuzz/regressions/{dir} is no target");
    }
}

#[test]
fn markers() {
    replay("markers");
}

#[test]
fn mcp_transport() {
    replay("mcp_transport");
}

#[test]
fn plugin() {
    replay("plugin");
}

#[test]
fn reads() {
    replay("reads");
}

#[test]
fn registry() {
    replay("registry");
}

#[test]
fn source_ref() {
    replay("source_ref");
}

#[test]
fn structure_diff() {
    replay("structure_diff");
}
