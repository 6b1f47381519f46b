//! Starting a workspace: `ontoly init` and `ontoly digest` through the real binary (insta
//! snapshots of what a new user sees).

mod common;

use common::{demo, run_in};

#[test]
fn init_writes_a_valid_workspace_and_never_overwrites() {
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run_in(dir.path(), &["init", "kb"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!("init_output", r.stdout);
    let page = std::fs::read_to_string(dir.path().join("kb/knowledge/welcome.md")).expect("page");
    insta::assert_snapshot!("init_page", page);
    let v = run_in(dir.path(), &["--workspace", "kb", "validate"]);
    assert_eq!(
        (v.code, v.stdout.as_str()),
        (0, "kb: 0 errors, 0 warnings, 0 info\n")
    );
    let again = run_in(dir.path(), &["init", "kb"]);
    assert_eq!(again.code, 2);
    assert!(
        again
            .stderr
            .starts_with("error: kb/knowledge/structure.yaml"),
        "{}",
        again.stderr
    );
}

/// `--workspace` names init's directory, `--source NAME=PATH` its clones; inside another
/// workspace's pages init refuses, beside them it does not.
#[test]
fn init_takes_workspace_and_source_and_will_not_nest_in_pages() {
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run_in(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "init",
            "--source",
            "acme/pay=../pay ments",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(dir.path().join("kb/knowledge/structure.yaml").is_file());
    let config = std::fs::read_to_string(dir.path().join("kb/ontoly.toml")).expect("config");
    assert!(
        config.ends_with("[sources]\n\"acme/pay\" = \"../pay ments\"\n"),
        "{config}"
    );
    assert!(
        !dir.path().join("knowledge").exists(),
        "nothing in the current directory"
    );
    let r = run_in(dir.path(), &["init", "kb2", "--source", "acme/pay"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("--source acme/pay has no =PATH"),
        "{}",
        r.stderr
    );
    assert!(!dir.path().join("kb2").exists());
    // Inside kb's pages: refused, naming the workspace relative to the directory.
    let pages = dir.path().join("kb/knowledge");
    let r = run_in(&pages, &["init", "guides"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with(
            "error: guides is inside the knowledge workspace at ../.. (it holds knowledge/structure.yaml)"
        ),
        "{}",
        r.stderr
    );
    assert!(!pages.join("guides").exists());
    // Beside its pages (a second workspace in the same repository): fine.
    let r = run_in(&dir.path().join("kb"), &["init", "other"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn digest_of_demo_lines_matches_the_demo_structure() {
    let r = run_in(
        &demo(),
        &[
            "--no-cache",
            "digest",
            "src/checkout.rs:72-95",
            "--source",
            "acme/shop-api",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!("digest_demo_checkout", r.stdout);
    // The digest the demo's structure records for the same lines.
    let digest = r
        .stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("content_digest: "))
        .expect("a digest");
    let structure =
        std::fs::read_to_string(demo().join("knowledge/structure.yaml")).expect("structure");
    assert!(structure.contains(digest), "{digest}");

    let two = run_in(&demo(), &["--no-cache", "digest", "src/checkout.rs:72-95"]);
    assert_eq!(two.code, 2, "several modules: the user must name one");
    assert!(
        two.stderr
            .contains("hint: modules of sources/repo/index.yaml"),
        "{}",
        two.stderr
    );
}
