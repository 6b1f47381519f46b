//! CI outputs of `validate` (and of the demo's `check`) inside this repository: GitHub
//! annotations and SARIF name files relative to the repository root whatever the current
//! directory (insta snapshots), and the SARIF log is valid against the vendored OASIS 2.1.0
//! schema.

mod common;

use common::{fixtures, run_in};
use serde_json::Value;

fn sarif_violations(log: &Value) -> Vec<String> {
    let path = common::testdata().join("schemas/sarif-schema-2.1.0.json");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("schema")).expect("json");
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("schema compiles");
    validator.iter_errors(log).map(|e| e.to_string()).collect()
}

/// A command's SARIF output, parsed and checked against the schema.
fn valid_sarif(r: &common::Run, code: i32) -> Value {
    assert_eq!(r.code, code, "{}", r.stderr);
    let log: Value = serde_json::from_str(&r.stdout).expect("SARIF is JSON");
    assert_eq!(sarif_violations(&log), Vec::<String>::new());
    log
}

#[test]
fn validate_annotations_and_sarif_are_repository_relative() {
    let ws = fixtures().join("mismatch");
    // From the workspace itself and from the fixtures folder: the same repository paths.
    let inside = run_in(
        &ws.join("knowledge"),
        &["--no-cache", "validate", "--format", "github"],
    );
    let outside = run_in(
        &fixtures(),
        &[
            "--workspace",
            "mismatch",
            "--no-cache",
            "validate",
            "--format",
            "github",
        ],
    );
    assert_eq!(inside.code, 1, "{}", inside.stderr);
    assert_eq!(inside.stdout, outside.stdout);
    insta::assert_snapshot!("validate_mismatch_github", inside.stdout);

    let sarif = run_in(
        &fixtures(),
        &[
            "--workspace",
            "mismatch",
            "--no-cache",
            "validate",
            "--format",
            "sarif",
        ],
    );
    let log = valid_sarif(&sarif, 1);
    let mut shown = log.clone();
    shown["runs"][0]["tool"]["driver"]["version"] = Value::from("<version>");
    insta::assert_json_snapshot!("validate_mismatch_sarif", shown);
}

#[test]
fn a_clean_validate_is_an_empty_sarif_run() {
    let r = run_in(
        &fixtures(),
        &[
            "--workspace",
            "valid",
            "--no-cache",
            "validate",
            "--format",
            "sarif",
        ],
    );
    let log = valid_sarif(&r, 0);
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
}

#[test]
fn the_demo_gate_in_sarif_is_one_note_per_known_failure() {
    let root = common::testdata().join("..");
    let r = run_in(
        &root,
        &[
            "--workspace",
            "testdata/demo",
            "--no-cache",
            "check",
            "--questions",
            "testdata/demo/questions.yaml",
            "--format",
            "sarif",
        ],
    );
    let log = valid_sarif(&r, 0);
    let results = log["runs"][0]["results"].as_array().expect("results");
    // The questions marked `known_failure` and the lines of their `- query:` items.
    let questions = std::fs::read_to_string(root.join("testdata/demo/questions.yaml"))
        .expect("the demo's questions");
    let lines: Vec<&str> = questions.lines().collect();
    let mut known: Vec<u64> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim_start().starts_with("known_failure:") {
            let item = (0..i)
                .rev()
                .find(|&j| lines[j].trim_start().starts_with("- query:"))
                .expect("a known_failure belongs to a question");
            known.push(item as u64 + 1);
        }
    }
    assert!(!known.is_empty(), "the demo gate marks no known failure");
    assert_eq!(results.len(), known.len(), "{log}");
    for (result, line) in results.iter().zip(&known) {
        assert_eq!(result["level"], "note", "{result}");
        assert_eq!(result["ruleId"], "CHECK_KNOWN_FAILURE", "{result}");
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(
            location["artifactLocation"]["uri"],
            "testdata/demo/questions.yaml"
        );
        assert_eq!(location["region"]["startLine"], *line, "{result}");
    }
}

/// A questions file outside the repository (here there is none: outside the current
/// directory) has no place an annotation or a SARIF location could name: the message names it
/// as typed instead, and no absolute path of this machine becomes a repository file (stop 42;
/// before, `file=/tmp/…` and a SARIF uri `/tmp/…` under SRCROOT).
#[test]
fn a_questions_file_outside_the_repository_is_named_in_the_message_not_as_a_location() {
    let t = tempfile::tempdir().expect("tempdir");
    common::copy_dir(&fixtures().join("valid"), &t.path().join("ws"));
    let questions = t.path().join("q.yaml");
    std::fs::write(
        &questions,
        "- q: how are plugins loaded?\n  expect: [faq/guide.md#nowhere]\n",
    )
    .expect("write");
    let typed = questions.to_str().expect("utf-8");
    let ws = t.path().join("ws");
    let github = run_in(&ws, &["check", "--questions", typed, "--format", "github"]);
    assert_eq!(github.code, 3, "{}", github.stderr);
    assert!(!github.stdout.contains("file="), "{}", github.stdout);
    assert!(
        github.stdout.starts_with(&format!(
            "::error title=ontoly check::{}:1: how are plugins loaded?",
            typed.replace(':', "%3A")
        )),
        "{}",
        github.stdout
    );
    let sarif = run_in(&ws, &["check", "--questions", typed, "--format", "sarif"]);
    let log = valid_sarif(&sarif, 3);
    let result = &log["runs"][0]["results"][0];
    assert!(result.get("locations").is_none(), "{log}");
    assert!(
        result["message"]["text"]
            .as_str()
            .is_some_and(|m| m.starts_with(&format!("{typed}:1: "))),
        "{log}"
    );
    // Typed relative, inside the current directory, it is a location as before.
    let inside = ws.join("q.yaml");
    std::fs::copy(&questions, &inside).expect("copy");
    let github = run_in(
        &ws,
        &["check", "--questions", "q.yaml", "--format", "github"],
    );
    assert!(
        github.stdout.starts_with("::error file=q.yaml,line=1,"),
        "{}",
        github.stdout
    );
}

/// A workspace with an error diagnostic fails the gate in every format, naming the error at
/// its file and line: questions answered from what is left of a broken workspace say nothing
/// about the knowledge base.
#[test]
fn the_gate_fails_on_a_broken_workspace_and_names_its_errors() {
    let t = tempfile::tempdir().expect("tempdir");
    let demo = common::testdata().join("demo");
    common::copy_dir(&demo, &t.path().join("ws"));
    let structure = t.path().join("ws/knowledge/structure.yaml");
    let text = std::fs::read_to_string(&structure).expect("structure");
    // A tab where YAML wants spaces, on line 8.
    let broken: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 7 {
                format!("\t{}", l.trim_start())
            } else {
                l.to_string()
            }
        })
        .collect();
    std::fs::write(&structure, broken.join("\n") + "\n").expect("write");
    let check = |format: &str| {
        run_in(
            t.path(),
            &[
                "--workspace",
                "ws",
                "--no-cache",
                "check",
                "--questions",
                "ws/questions.yaml",
                "--format",
                format,
            ],
        )
    };
    let text = check("text");
    assert_eq!(text.code, 3, "{}", text.stderr);
    assert!(
        text.stdout
            .contains("knowledge/structure.yaml:8: error YAML_INVALID: "),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout
            .contains("failed; the workspace has 1 error(s) (ontoly validate lists them)"),
        "{}",
        text.stdout
    );
    // A section the graph lacks may be one the error left out: not called a typo alone.
    std::fs::write(
        t.path().join("lost.yaml"),
        "- q: How are payments retried?\n  expect: [payments#gone]\n",
    )
    .expect("write");
    let lost = run_in(
        t.path(),
        &[
            "--workspace",
            "ws",
            "--no-cache",
            "check",
            "--questions",
            "lost.yaml",
        ],
    );
    assert_eq!(lost.code, 3, "{}", lost.stderr);
    assert!(
        lost.stdout.contains(
            "does not exist in this workspace (the workspace has 1 error(s), the first YAML_INVALID at knowledge/structure.yaml:8: it may have left the section out; ontoly validate lists them)"
        ),
        "{}",
        lost.stdout
    );
    let json = check("json");
    assert_eq!(json.code, 3);
    let v: Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(v["workspaceErrors"][0]["code"], "YAML_INVALID", "{v}");
    assert_eq!(
        v["workspaceErrors"][0]["location"],
        "knowledge/structure.yaml:8"
    );
    let github = check("github");
    assert_eq!(github.code, 3);
    assert!(
        github.stdout.contains(
            "::error file=knowledge/structure.yaml,line=8,endLine=8,col=1,title=YAML_INVALID::"
        ),
        "{}",
        github.stdout
    );
    let log = valid_sarif(&check("sarif"), 3);
    let first = &log["runs"][0]["results"][0];
    assert_eq!(first["ruleId"], "YAML_INVALID", "{first}");
    assert_eq!(first["level"], "error");
    let junit = check("junit");
    assert_eq!(junit.code, 3);
    assert!(
        junit
            .stdout
            .contains("<testsuite name=\"workspace\" tests=\"1\" failures=\"1\"")
            && junit
                .stdout
                .contains("knowledge/structure.yaml:8: error YAML_INVALID"),
        "{}",
        junit.stdout
    );
    // The intact demo lists none.
    let intact = run_in(
        &demo,
        &[
            "--no-cache",
            "check",
            "--questions",
            "questions.yaml",
            "--format",
            "json",
        ],
    );
    assert_eq!(intact.code, 0, "{}", intact.stderr);
    let v: Value = serde_json::from_str(&intact.stdout).expect("json");
    assert_eq!(v["workspaceErrors"], serde_json::json!([]));
}

/// A command that cannot run (exit 2) still writes its CI format: an annotation for GitHub,
/// and for SARIF a valid log of a failed run, which an upload step accepts.
#[test]
fn a_run_that_cannot_start_is_reported_in_the_ci_format() {
    let t = tempfile::tempdir().expect("tempdir");
    common::copy_dir(&fixtures().join("valid"), &t.path().join("ws"));
    std::fs::write(
        t.path().join("ws/ontoly.toml"),
        "[source]\n\"a/b\" = \"../x\"\n",
    )
    .expect("write");
    let run = |format: &str| {
        run_in(
            t.path(),
            &[
                "--workspace",
                "ws",
                "--no-cache",
                "validate",
                "--format",
                format,
            ],
        )
    };
    let github = run("github");
    assert_eq!(github.code, 2);
    assert_eq!(
        github.stdout,
        "::error title=ontoly validate::ontoly.toml:1: unknown field `source`, expected `sources`\n"
    );
    let log = valid_sarif(&run("sarif"), 2);
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false, "{log}");
    assert_eq!(
        invocation["toolExecutionNotifications"][0]["message"]["text"],
        "ontoly.toml:1: unknown field `source`, expected `sources`"
    );
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
    // Text keeps standard output empty.
    assert_eq!(run("text").stdout, "");
}

/// A workspace of `sections` sections with two references each to a repository that has no
/// clone. With `leaving`, each has a path of its own that leaves the repository: `validate`
/// reports every reference as an error of its own; without, `validate --require-verified`
/// reports each as unverified, one cause (the missing clone) listed once.
fn many_unverified(dir: &std::path::Path, sections: usize, leaving: bool) {
    std::fs::create_dir_all(dir.join("knowledge/faq")).expect("mkdir");
    common::copy_dir(&fixtures().join("valid/sources"), &dir.join("sources"));
    let mut page = String::from("# Many\n\n");
    let mut structure = String::from(
        "schema_version: context.approved-structure.v1\narticles:\n  - article_id: many\n    path: faq/many.md\n    collection: faq\n    visibility: public\n    sections:\n",
    );
    for i in 0..sections {
        page.push_str(&format!(
            "<!-- context:section id=\"s{i}\" -->\nPart {i}.\n<!-- /context:section -->\n"
        ));
        structure.push_str(&format!("      - id: s{i}\n        references:\n"));
        for k in 0..2 {
            structure.push_str(&format!(
                "          - source_ref: repo:acme/server\n            locator: {{path: {path}, start_line: {a}, end_line: {a}}}\n            content_digest: sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae\n",
                a = i + 1,
                path = if leaving {
                    format!("../f{k}-{i}.go")
                } else {
                    format!("src/f{k}.go")
                }
            ));
        }
    }
    structure.push_str("processed_scopes: []\ninput_hash: sha256:0000\n");
    std::fs::write(dir.join("knowledge/faq/many.md"), page).expect("page");
    std::fs::write(dir.join("knowledge/structure.yaml"), structure).expect("structure");
}

#[test]
fn a_run_of_more_results_than_code_scanning_keeps_is_cut_by_severity_and_says_so() {
    // 2 501 sections × 2 references with no clone: 5 002 unverified references. GitHub code
    // scanning rejects a run of more than 25 000 results and keeps 5 000; a step shows a
    // handful of annotations. Both outputs keep the first by severity and say what is left.
    let t = tempfile::tempdir().expect("temp dir");
    many_unverified(t.path(), 2_501, true);
    let args = ["--no-cache", "validate", "--require-verified"];
    let r = run_in(t.path(), &[&args[..], &["--format", "sarif"]].concat());
    let log = valid_sarif(&r, 1);
    let run = &log["runs"][0];
    assert_eq!(run["results"].as_array().map(Vec::len), Some(5_000));
    let note = run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(note.starts_with("2 of 5002 results left out"), "{note}");
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    let r = run_in(t.path(), &[&args[..], &["--format", "github"]].concat());
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(
        r.stdout
            .lines()
            .filter(|l| l.starts_with("::error "))
            .count(),
        100
    );
    let last: Vec<&str> = r.stdout.lines().rev().take(2).collect();
    assert!(
        last[1]
            .starts_with("::warning title=ontoly validate::4902 of 5002 results are not annotated"),
        "{}",
        last[1]
    );
    assert!(
        last[0].starts_with("::notice title=ontoly validate::"),
        "{}",
        last[0]
    );
    // A small run is whole: no notification.
    let small = tempfile::tempdir().expect("temp dir");
    many_unverified(small.path(), 3, true);
    let r = run_in(small.path(), &[&args[..], &["--format", "sarif"]].concat());
    let log = valid_sarif(&r, 1);
    assert_eq!(log["runs"][0]["results"].as_array().map(Vec::len), Some(6));
    assert!(log["runs"][0].get("invocations").is_none());
}

#[test]
fn references_unverified_for_want_of_a_clone_are_one_cause_listed_once() {
    // Adoption walk, stop 59: a wrong clone path made 16 identical REFERENCE_UNVERIFIED lines.
    let t = tempfile::tempdir().expect("temp dir");
    many_unverified(t.path(), 3, false);
    let r = run_in(t.path(), &["--no-cache", "validate", "--require-verified"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let listed: Vec<&str> = (r.stdout.lines())
        .filter(|l| l.contains("REFERENCE_UNVERIFIED"))
        .collect();
    assert_eq!(listed.len(), 1, "{}", r.stdout);
    assert!(
        listed[0].contains("the same for 5 more reference(s), at lines"),
        "{}",
        listed[0]
    );
    // Counted as listed, as every folded cause is.
    assert!(r.stdout.contains(": 1 error,"), "{}", r.stdout);
}

#[test]
fn outside_a_repository_locations_are_relative_to_the_workspace_root() {
    // Found by a determinism walk: with no git repository around the workspace, SARIF and
    // annotations named files by the workspace path as typed, so `--workspace /abs/ws` put
    // the absolute path in every result. Relative to the current directory instead, a run
    // from `knowledge/` climbed out with `../` (author walk, stop 51): the workspace's root
    // is the one root, wherever the run is.
    let t = tempfile::tempdir().expect("temp dir");
    let ws = t.path().join("ws");
    common::copy_dir(&fixtures().join("valid"), &ws);
    std::fs::write(
        ws.join("ontoly.toml"),
        "[sources]\n\"acme/server\" = \"../nope\"\n",
    )
    .expect("ontoly.toml");
    let abs = ws.to_str().expect("utf-8 path");
    for (cwd, want) in [
        (t.path(), "ontoly.toml"),
        (&ws.join("knowledge"), "ontoly.toml"),
    ] {
        let r = run_in(
            cwd,
            &[
                "--no-cache",
                "--workspace",
                abs,
                "validate",
                "--format",
                "sarif",
            ],
        );
        let log = valid_sarif(&r, 1);
        let uris: Vec<&str> = log["runs"][0]["results"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| {
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str()
            })
            .collect();
        assert!(uris.contains(&want), "{uris:?}");
        assert!(
            uris.iter()
                .all(|u| !u.starts_with('/') && !u.starts_with("..")),
            "{uris:?}"
        );
        let r = run_in(
            cwd,
            &[
                "--no-cache",
                "--workspace",
                abs,
                "validate",
                "--format",
                "github",
            ],
        );
        assert!(
            r.stdout.contains("::error file=ontoly.toml,line=2,") && !r.stdout.contains("file=.."),
            "{}",
            r.stdout
        );
    }
}

/// An unusable registry leaves every reference resolved through it `SOURCE_UNRESOLVED` (with
/// Context's messages, which do not name it): it is listed first in every format, where it was
/// the last of hundreds of lines and in no GitHub annotation (found in the stop-42 walk).
#[test]
fn an_unusable_registry_is_listed_before_what_it_leaves_unresolved() {
    let t = tempfile::tempdir().expect("tempdir");
    common::copy_dir(&common::testdata().join("demo"), &t.path().join("ws"));
    let registry = t.path().join("ws/sources/repo/index.yaml");
    let text = std::fs::read_to_string(&registry).expect("registry");
    std::fs::write(
        &registry,
        text.replacen("    modules:\n", "    modules: [unclosed\n", 1),
    )
    .expect("write");
    let ws = t.path().join("ws");
    let first_line = |format: &str| {
        let r = run_in(&ws, &["--no-cache", "validate", "--format", format]);
        assert_eq!(r.code, 1, "{format}: {}", r.stderr);
        r.stdout.lines().next().unwrap_or_default().to_string()
    };
    let text = first_line("text");
    assert!(
        text.starts_with("sources/repo/index.yaml:") && text.contains("REGISTRY_UNUSABLE"),
        "{text}"
    );
    let github = first_line("github");
    assert!(github.contains("title=REGISTRY_UNUSABLE::"), "{github}");
    let r = run_in(&ws, &["--no-cache", "validate", "--format", "sarif"]);
    let log = valid_sarif(&r, 1);
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert!(results.len() > 1, "{log}");
    assert_eq!(results[0]["ruleId"], "REGISTRY_UNUSABLE", "{log}");
}

#[test]
fn an_expected_section_under_the_wrong_article_names_the_one_that_has_it() {
    // `features#json-body`: the page's folder written as its article; only `json` has a
    // section `json-body`, so that is what was meant (Rust walk, stop 48: no suggestion).
    let (_dir, ws) = common::corpus_copy("requests");
    let questions = ws.join("typo.yaml");
    std::fs::write(
        &questions,
        "- q: how do I send a JSON body\n  expect: [features#json-body]\n",
    )
    .expect("write");
    let r = run_in(&ws, &["check", "--questions", "typo.yaml"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("features#json-body (did you mean json#json-body?)"),
        "{}",
        r.stdout
    );
}

#[test]
fn a_question_whose_section_has_no_marker_says_so() {
    // Adoption walk, stop 59: the gate said the expected section "holds none of the
    // question's words" when its marker's id had a typo and it had no words at all.
    let t = tempfile::tempdir().expect("temp dir");
    let ws = t.path().join("ws");
    common::copy_dir(&fixtures().join("valid"), &ws);
    let page = ws.join("knowledge/faq/guide.md");
    let text = std::fs::read_to_string(&page).expect("page");
    std::fs::write(&page, text.replace("id=\"setup\"", "id=\"setpu\"")).expect("page");
    std::fs::write(
        ws.join("q.yaml"),
        "- q: \"what is the answer\"\n  expect: [guide#setup]\n",
    )
    .expect("questions");
    let r = run_in(&ws, &["--no-cache", "check", "--questions", "q.yaml"]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stdout.contains(
            "section:faq/guide.md#setup has no marker on its page (SECTION_MISSING_MARKER"
        ),
        "{}",
        r.stdout
    );
}
