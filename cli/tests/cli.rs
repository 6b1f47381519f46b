//! The `ontoly` binary on fixture workspaces: text and JSON outputs (insta snapshots), exit
//! codes, discovery.

mod common;

use common::{copy_dir, fixtures};
use std::path::Path;

/// Runs `ontoly` in `dir` with `args`; returns (exit code, stdout, stderr).
fn ontoly(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let r = common::run_in(dir, args);
    (r.code, r.stdout, r.stderr)
}

fn run_ok(ws: &str, args: &[&str]) -> String {
    let mut all = vec!["--workspace", ws, "--no-cache"];
    all.extend_from_slice(args);
    let (code, out, err) = ontoly(&fixtures(), &all);
    assert_eq!(code, 0, "stderr: {err}");
    assert!(
        !out.contains(fixtures().to_str().unwrap()),
        "no absolute paths"
    );
    out
}

#[test]
fn build_text_and_json() {
    insta::assert_snapshot!("build_valid_text", run_ok("valid", &["build"]));
    insta::assert_snapshot!(
        "build_valid_json",
        run_ok("valid", &["--format", "json", "build"])
    );
}

#[test]
fn stats_text_and_json() {
    insta::assert_snapshot!("stats_mismatch_text", run_ok("mismatch", &["stats"]));
    insta::assert_snapshot!("stats_valid_text", run_ok("valid", &["stats"]));
    insta::assert_snapshot!(
        "stats_mismatch_json",
        run_ok("mismatch", &["stats", "--format", "json"])
    );
}

#[test]
fn validate_lists_every_diagnostic_and_exits_1_on_errors() {
    for format in ["text", "json"] {
        let (code, out, _) = ontoly(
            &fixtures(),
            &[
                "--workspace",
                "mismatch",
                "--no-cache",
                "--format",
                format,
                "validate",
            ],
        );
        assert_eq!(code, 1);
        assert!(!out.contains(fixtures().to_str().unwrap()));
        insta::assert_snapshot!(format!("validate_mismatch_{format}"), out);
    }
    let (code, out, _) = ontoly(
        &fixtures(),
        &["--workspace", "valid", "--no-cache", "validate"],
    );
    assert_eq!(code, 0);
    assert_eq!(out, "valid: 0 errors, 0 warnings, 0 info\n");
    // Warnings alone do not fail validation.
    let (code, _, _) = ontoly(
        &fixtures(),
        &["--workspace", "schema", "--no-cache", "validate"],
    );
    assert_eq!(code, 1, "a wrong schema_version is an error");
    // `verify` is the same command (it was an unknown one, with `drift` suggested).
    for format in ["text", "json"] {
        let args = |cmd: &'static str| {
            [
                "--workspace",
                "mismatch",
                "--no-cache",
                cmd,
                "--format",
                format,
            ]
        };
        assert_eq!(
            ontoly(&fixtures(), &args("verify")),
            ontoly(&fixtures(), &args("validate"))
        );
    }
}

#[test]
fn discovery_from_a_subdirectory_and_errors_exit_2() {
    let sub = fixtures().join("valid/knowledge/faq");
    let t = tempfile::tempdir().unwrap();
    let (code, out, _) = ontoly(&sub, &["--no-cache", "build"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("workspace   valid\n"));
    let (code, out, err) = ontoly(t.path(), &["build"]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert!(err.contains("no knowledge workspace found"), "{err}");
    assert!(err.contains("knowledge/structure.yaml"), "{err}");
    // A directory that does not exist (a typo) is said so, one without the structure file so.
    let (code, _, err) = ontoly(t.path(), &["--workspace", "missing", "stats"]);
    assert_eq!(code, 2);
    assert!(err.contains("missing does not exist"), "{err}");
    std::fs::create_dir(t.path().join("empty")).expect("mkdir");
    let (code, _, err) = ontoly(t.path(), &["--workspace", "empty", "stats"]);
    assert_eq!(code, 2);
    assert!(err.contains("is not a knowledge workspace"), "{err}");
    // Neither names a directory other than as given: no absolute path is printed.
    let tmp = t.path().to_string_lossy();
    for (args, shown) in [
        (&["build"][..], "the current directory and its"),
        (
            &["--workspace", "missing", "stats"][..],
            "error: missing does not exist (or is not a directory)",
        ),
        (
            &["--workspace", "empty", "stats"][..],
            "error: empty is not a knowledge workspace",
        ),
    ] {
        let (_, _, err) = ontoly(t.path(), args);
        assert!(err.contains(shown) && !err.contains(tmp.as_ref()), "{err}");
    }
    let (code, _, _) = ontoly(t.path(), &["--format", "yaml", "build"]);
    assert_eq!(code, 2, "usage errors exit 2");
}

#[test]
fn a_file_named_on_the_command_line_that_is_missing_is_said_so() {
    let ws = fixtures().join("valid");
    for (args, said) in [
        (
            &["run", "EvidencePack", "--input", "@missing.json"][..],
            "error: input file missing.json does not exist",
        ),
        (
            &["check", "--questions", "missing.yaml"],
            "error: questions file missing.yaml does not exist",
        ),
        (
            &["impact", "--diff", "missing.diff"],
            "error: diff file missing.diff does not exist",
        ),
    ] {
        let mut all = vec!["--no-cache"];
        all.extend_from_slice(args);
        let (code, out, err) = ontoly(&ws, &all);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert!(err.starts_with(said), "{args:?}: {err}");
    }
}

#[test]
fn a_questions_path_meant_from_the_workspace_is_told_where_it_is_read_from() {
    let t = tempfile::tempdir().expect("tempdir");
    let ws = t.path().join("kb");
    copy_dir(&fixtures().join("valid"), &ws);
    std::fs::write(ws.join("questions.yaml"), "questions: []\n").expect("writes");
    let (code, out, err) = ontoly(
        t.path(),
        &[
            "--no-cache",
            "--workspace",
            "kb",
            "check",
            "--questions",
            "questions.yaml",
        ],
    );
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert_eq!(
        err,
        "error: questions file questions.yaml does not exist\nhint: a relative --questions path is read from the current directory, not the workspace directory; the workspace directory has it: --questions kb/questions.yaml\n"
    );
    // Nothing of that name in the workspace either: the rule alone.
    let (_, _, err) = ontoly(
        t.path(),
        &[
            "--no-cache",
            "--workspace",
            "kb",
            "check",
            "--questions",
            "q.yaml",
        ],
    );
    assert!(
        err.ends_with("hint: a relative --questions path is read from the current directory, not the workspace directory\n"),
        "{err}"
    );
}

#[test]
fn an_input_file_named_without_its_at_sign_is_said_how_to_pass() {
    let t = tempfile::tempdir().expect("tempdir");
    let ws = t.path().join("ws");
    copy_dir(&fixtures().join("valid"), &ws);
    std::fs::write(ws.join("input.json"), r#"{"query": "plugins"}"#).expect("writes");
    let (code, out, err) = ontoly(
        &ws,
        &["--no-cache", "run", "EvidencePack", "--input", "input.json"],
    );
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains("--input is JSON text, and this is a file's name")
            && err.contains("hint: to read the input from the file, write --input @input.json"),
        "{err}"
    );
    let (code, _, err) = ontoly(
        &ws,
        &[
            "--no-cache",
            "run",
            "EvidencePack",
            "--input",
            "@input.json",
        ],
    );
    assert_eq!(code, 0, "{err}");
}

/// A registry mistake is reported at each reference through the module: each says where the
/// module is, or which modules there are and the one most likely meant.
#[test]
fn an_unresolved_source_says_where_its_module_is_or_which_there_are() {
    let t = tempfile::tempdir().expect("tempdir");
    let ws = t.path().join("ws");
    copy_dir(&common::demo(), &ws);
    let structure = ws.join("knowledge/structure.yaml");
    let text = std::fs::read_to_string(&structure).expect("structure");
    std::fs::write(
        &structure,
        text.replacen(
            "source_ref: repo:acme/shop-api\n",
            "source_ref: repo:acme/shop-apj\n",
            1,
        ),
    )
    .expect("write");
    let registry = ws.join("sources/repo/index.yaml");
    let reg = std::fs::read_to_string(&registry).expect("registry");
    // The second module loses its remote.
    let legacy = reg.find("name: shop-api-legacy").expect("a second module");
    let (head, tail) = reg.split_at(legacy);
    std::fs::write(
        &registry,
        format!(
            "{head}{}",
            tail.replacen(
                "          remote: https://github.com/acme/shop-api\n",
                "",
                1
            )
        ),
    )
    .expect("write");
    // `head` ends inside the module's first line.
    let line = head.lines().count() as u64;
    let (_, out, _) = ontoly(&ws, &["--no-cache", "validate"]);
    assert!(
        out.contains("Source registration is missing or ambiguous (`repo:acme/shop-apj`); did you mean `repo:acme/shop-api`? (sources/repo/index.yaml registers acme/shop-api, acme/shop-api-legacy,"),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "Missing source remote (`repo:acme/shop-api-legacy`); the module is at sources/repo/index.yaml:{line}"
        )),
        "{out}"
    );
}

/// A workspace of one page under `dir`, with the `schema` fixture's structure.
fn one_page_workspace(dir: &Path) -> std::path::PathBuf {
    let root = dir.join("ws");
    std::fs::create_dir_all(root.join("knowledge")).unwrap();
    std::fs::copy(
        fixtures().join("schema/knowledge/structure.yaml"),
        root.join("knowledge/structure.yaml"),
    )
    .unwrap();
    std::fs::write(root.join("knowledge/a.md"), "a\n").unwrap();
    root
}

#[test]
fn cache_is_used_on_the_second_run() {
    let t = tempfile::tempdir().unwrap();
    let root = one_page_workspace(t.path());
    let (_, first, _) = ontoly(&root, &["--format", "json", "build"]);
    let (_, second, _) = ontoly(&root, &["--format", "json", "build"]);
    let first: serde_json::Value = serde_json::from_str(&first).unwrap();
    let second: serde_json::Value = serde_json::from_str(&second).unwrap();
    assert_eq!(first["cache"]["status"], "miss");
    assert_eq!(second["cache"]["status"], "hit");
    assert_eq!(first["graphHash"], second["graphHash"]);
    let (_, third, _) = ontoly(&root, &["--no-cache", "--format", "json", "build"]);
    let third: serde_json::Value = serde_json::from_str(&third).unwrap();
    assert_eq!(third["cache"]["status"], "disabled");
}

/// A cache that cannot be written says why, in text as in JSON, by the kind of failure only.
#[test]
fn a_cache_that_cannot_be_written_says_why() {
    let t = tempfile::tempdir().unwrap();
    let root = one_page_workspace(t.path());
    // The parse cache's name taken by a directory: its rename fails.
    std::fs::create_dir_all(root.join(".ontoly/parse.bin/occupied")).unwrap();
    let (code, text, _) = ontoly(&root, &["build"]);
    assert_eq!(code, 0, "a cache is an optimisation: the build succeeds");
    assert!(
        text.contains("cache       miss") && text.contains("\ncache note  cache not written: "),
        "{text}"
    );
    assert!(
        !text.contains(t.path().to_str().unwrap()),
        "no path: {text}"
    );
    let (_, json, _) = ontoly(&root, &["--format", "json", "build"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let note = json["cache"]["note"].as_str().unwrap_or_default();
    assert!(note.starts_with("cache not written: "), "{note}");
    assert!(
        !note.contains("could not be read"),
        "a write failure: {note}"
    );
    // Nothing to say when the cache works.
    std::fs::remove_dir_all(root.join(".ontoly")).unwrap();
    let (_, text, _) = ontoly(&root, &["build"]);
    assert!(!text.contains("cache note"), "{text}");
}

#[test]
fn hidden_floor_command_hashes_inputs() {
    let out = run_ok("valid", &["hash-inputs"]);
    assert!(out.starts_with("files 5\n"), "{out}");
}
