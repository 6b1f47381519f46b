//! Plugin conformance: every case under `testdata/conformance/<suite>/cases/` runs through the
//! real binary, each in a fresh process, and must print exactly the bytes of `expected.json`.
//!
//! `plugin/` holds the cases recorded from Context's own evidence plugin; `extra/` holds cases
//! written for this project from the rules in formats.md (see `extra/README.md`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn cases(suite: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/conformance")
        .join(suite)
        .join("cases");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.join("request.json").is_file())
        .collect();
    cases.sort();
    cases
}

fn run(case: &Path) -> Vec<u8> {
    let request = std::fs::read(case.join("request.json")).expect("request.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ontoly"))
        .args(["plugin", "enrich", "--root"])
        .arg(case.join("ws"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ontoly");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&request)
        .expect("write request");
    let out = child.wait_with_output().expect("wait");
    assert!(
        out.status.success(),
        "{}: exit {:?}, stderr {}",
        case.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn check_suite(suite: &str, at_least: usize) {
    let cases = cases(suite);
    assert!(
        cases.len() >= at_least,
        "{suite}: only {} cases",
        cases.len()
    );
    let mut failures = Vec::new();
    for case in &cases {
        let expected = std::fs::read(case.join("expected.json")).expect("expected.json");
        let got = run(case);
        if got != expected {
            failures.push(format!(
                "{}\n  expected: {}\n  got:      {}",
                case.file_name().unwrap_or_default().to_string_lossy(),
                String::from_utf8_lossy(&expected),
                String::from_utf8_lossy(&got)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn recorded_plugin_cases_are_byte_identical() {
    check_suite("plugin", 10);
}

#[test]
fn extra_cases_are_byte_identical() {
    check_suite("extra", 10);
}
