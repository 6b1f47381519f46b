//! The evidence commands of the `ontoly` binary on a fixture workspace: pack bytes are stable
//! across processes and cache states, exit codes of `check` and `--fail-on-low-evidence`,
//! formats, capability errors.

mod common;

use common::{copy_dir, fixtures};

/// Runs `ontoly` in the fixtures directory on workspace `valid`; (exit code, stdout, stderr).
fn ontoly(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["--workspace", "valid", "--no-cache"];
    all.extend_from_slice(args);
    let r = common::run_in(&fixtures(), &all);
    (r.code, r.stdout, r.stderr)
}

/// `run SectionReferences --input INPUT --format json` on the `valid` fixture: exit code and
/// the result.
fn section_references(input: &str) -> (i32, serde_json::Value) {
    let (code, out, err) = ontoly(&[
        "run",
        "SectionReferences",
        "--input",
        input,
        "--format",
        "json",
    ]);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    (code, v)
}

fn out_of(args: &[&str]) -> String {
    ontoly(args).1
}

/// `out` with the knowledge commit (40 hex after `knowledge commit `, 12 after `valid@`)
/// replaced by `<HEAD>`.
fn knowledge_commit_redacted(out: &str) -> String {
    let mut o = out.to_string();
    for (marker, len) in [("knowledge commit ", 40), ("valid@", 12), ("--rev ", 40)] {
        let mut from = 0;
        while let Some(i) = o[from..].find(marker).map(|i| i + from + marker.len()) {
            let hex = o.get(i..i + len).unwrap_or("");
            if hex.len() == len && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                o.replace_range(i..i + len, "<HEAD>");
            }
            from = i;
        }
    }
    o
}

fn questions(text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("questions.yaml");
    std::fs::write(&p, text).expect("write");
    let s = p.to_string_lossy().into_owned();
    (dir, s)
}

/// The JSON pack for `query`, asked from inside `ws`.
fn pack_in(ws: &std::path::Path, query: &str) -> serde_json::Value {
    let r = common::run_in(ws, &["evidence", "--format", "json", query]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    serde_json::from_str(&r.stdout).expect("json")
}

/// The confidence level and explanation of the pack `query` gets in `ws`.
fn level_and_why(ws: &std::path::Path, query: &str) -> (String, String) {
    let c = pack_in(ws, query)["confidence"].clone();
    let text = |k: &str| c[k].as_str().unwrap_or("").to_string();
    (text("level"), text("explanation"))
}

#[test]
fn evidence_json_is_the_pack_and_identical_across_runs() {
    let (code, a, err) = ontoly(&["evidence", "how are plugins loaded?", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let (_, b, _) = ontoly(&["evidence", "how are plugins loaded?", "--format", "json"]);
    assert_eq!(a, b);
    let v: serde_json::Value = serde_json::from_str(&a).expect("json");
    assert_eq!(v["stableIds"][0], "section:faq/guide.md#answer");
    assert_eq!(v["provenance"]["root"], "valid");
    assert!(
        !a.contains(fixtures().to_str().unwrap_or("/")),
        "no absolute paths"
    );
    let (_, y, _) = ontoly(&["evidence", "how are plugins loaded?", "--format", "yaml"]);
    let from_yaml: serde_json::Value = yaml_serde::from_str(&y).expect("yaml");
    assert_eq!(from_yaml, v);
}

#[test]
fn evidence_text_snapshot() {
    let (code, out, _) = ontoly(&["evidence", "how are plugins loaded?"]);
    assert_eq!(code, 0);
    assert!(!out.contains('\x1b'), "no colour off a terminal");
    // The fixture sits in ontoly's own repository: its knowledge commit is whatever commit
    // the tests run at, so the snapshot holds a placeholder for it.
    insta::assert_snapshot!("evidence_text_plugins", knowledge_commit_redacted(&out));
}

/// The text an agent reads says each thing once: a range's URL under the first section citing it
/// ("Files to inspect" then names the range without it; the zod walk of stop 53 looked for the
/// first section's links in vain), its drift under its section; a citation's definitions are one
/// line (the stop-44 MCP walk found a fifth of a pack's text in URLs repeated and one line per
/// overlapped method).
#[test]
fn evidence_text_says_each_range_once() {
    let (_dir, ws) = common::corpus_copy("httpx");
    let r = common::run_in(&ws, &["evidence", "raise_for_status on a 3xx response"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let urls: Vec<&str> = (r.stdout.lines().map(str::trim))
        .filter(|l| l.starts_with("https://"))
        .collect();
    assert!(!urls.is_empty(), "{}", r.stdout);
    let lines: Vec<&str> = r.stdout.lines().map(str::trim).collect();
    let first_cite = lines.iter().position(|l| l.starts_with("cites "));
    assert!(
        first_cite.is_some_and(|i| lines[i + 1].starts_with("https://")),
        "{}",
        r.stdout
    );
    for u in &urls {
        assert_eq!(
            urls.iter().filter(|v| v == &u).count(),
            1,
            "{u}\n{}",
            r.stdout
        );
    }
    let drifts: Vec<&str> = (r.stdout.lines().map(str::trim))
        .filter(|l| l.starts_with("drift:"))
        .collect();
    assert!(!drifts.is_empty(), "{}", r.stdout);
    for w in lines.windows(2) {
        assert!(
            !(w[0].starts_with("overlaps ") && w[1].starts_with("overlaps ")),
            "{}",
            r.stdout
        );
    }
    assert!(
        r.stdout
            .contains("overlaps class Response; method Response."),
        "{}",
        r.stdout
    );
}

#[test]
fn evidence_through_run_gives_the_same_pack() {
    let (_, pack, _) = ontoly(&[
        "evidence",
        "plugin setup",
        "--limit",
        "5",
        "--format",
        "json",
    ]);
    let (code, res, _) = ontoly(&[
        "run",
        "EvidencePack",
        "--input",
        r#"{"query":"plugin setup","limit":5}"#,
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let res: serde_json::Value = serde_json::from_str(&res).expect("json");
    let pack: serde_json::Value = serde_json::from_str(&pack).expect("json");
    assert_eq!(res["data"], pack);
}

#[test]
fn a_question_on_standard_input_is_the_pack_of_the_same_words() {
    let stdin = |args: &[&str], input: &[u8]| {
        let mut all = vec!["--workspace", "valid", "--no-cache"];
        all.extend_from_slice(args);
        common::run_in_with_stdin(&fixtures(), &all, input)
    };
    let (_, typed, _) = ontoly(&["evidence", "plugin setup", "--format", "json"]);
    let piped = stdin(&["evidence", "-", "--format", "json"], b"plugin setup\n");
    assert_eq!(piped.code, 0, "{}", piped.stderr);
    assert_eq!(piped.stdout, typed);
    // Larger than one argument may be (128 KiB on Linux): a pasted trace.
    let long = "plugin setup ".repeat(20_000);
    let r = stdin(&["evidence", "-", "--format", "json"], long.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Empty, or not UTF-8: a usage error that says what was read.
    let r = stdin(&["evidence", "-"], b"  \n");
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("empty question from standard input"),
        "{}",
        r.stderr
    );
    let r = stdin(&["evidence", "-"], b"plugin \xff setup");
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("not UTF-8"), "{}", r.stderr);
    // After `--`, `-` is the question.
    let r = stdin(
        &["evidence", "--format", "json", "--", "-"],
        b"plugin setup",
    );
    let pack: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
    assert_eq!(pack["query"], "-", "{}", r.stdout);
}

#[test]
fn fail_on_low_evidence_exits_3() {
    let q = "kubernetes autoscaling helm";
    let (code, _, _) = ontoly(&["evidence", q]);
    assert_eq!(code, 0);
    let (code, out, _) = ontoly(&["evidence", q, "--fail-on-low-evidence"]);
    assert_eq!(code, 3);
    assert!(out.contains("CAPABILITY_NOT_FOUND"));
    let (code, _, _) = ontoly(&[
        "evidence",
        "how are plugins loaded?",
        "--fail-on-low-evidence",
    ]);
    assert_eq!(code, 0);
}

#[test]
fn check_exit_codes() {
    let (_d, pass) = questions(
        "- question: How are plugins loaded?\n  expect: faq/guide.md#answer\n\
         - question: kubernetes autoscaling helm\n  answerable: false\n",
    );
    let (code, out, err) = ontoly(&["check", "--questions", &pass]);
    assert_eq!(code, 0, "{out}{err}");
    let (_d2, fail) = questions(
        "- question: How are plugins loaded?\n  expect: faq/guide.md#missing\n\
         - question: kubernetes autoscaling helm\n",
    );
    let (code, out, _) = ontoly(&["check", "--questions", &fail]);
    assert_eq!(code, 3);
    assert!(out.contains("2 failed"), "{out}");
    let (code, out, _) = ontoly(&["check", "--questions", &fail, "--format", "github"]);
    assert_eq!(code, 3);
    // The file is outside the repository (a temporary directory): no annotation names it as
    // a repository file; each names it and its line in the message.
    assert!(!out.contains("file="), "{out}");
    assert!(out.contains("questions.yaml:1: "), "{out}");
    assert!(out.contains("questions.yaml:3: "), "{out}");
    let (code, out, _) = ontoly(&["check", "--questions", &fail, "--format", "json"]);
    assert_eq!(code, 3);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["failed"], 2);
    let (_d3, bad) = questions("- {expect: x}\n");
    let (code, _, err) = ontoly(&["check", "--questions", &bad]);
    assert_eq!(code, 2);
    assert!(err.contains("question 1"), "{err}");
    let (code, _, _) = ontoly(&["check", "--questions", "/nonexistent/q.yaml"]);
    assert_eq!(code, 2);
}

#[test]
fn capability_errors_exit_1_and_formats_are_checked() {
    // The error is on standard error in every format; JSON keeps the result on standard
    // output, text prints nothing there.
    let (code, out, err) = ontoly(&["run", "Nope"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.starts_with("error: CAPABILITY_NOT_REGISTERED: "),
        "{err}"
    );
    let (code, out, err) = ontoly(&[
        "run",
        "EvidencePack",
        "--input",
        "{\"limit\": 3}",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    assert!(out.contains("CAPABILITY_INVALID_INPUT"), "{out}");
    assert!(
        err.starts_with("error: CAPABILITY_INVALID_INPUT: "),
        "{err}"
    );
    // A result that ran reads as text by default.
    let (code, out, _) = ontoly(&["run", "GraphStatistics"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("GraphStatistics v1: ") && out.contains("\nConfidence: high (1.0000)"),
        "{out}"
    );
    let (code, _, err) = ontoly(&["evidence", "x", "--format", "mermaid"]);
    assert_eq!(code, 2);
    assert!(err.contains("possible values: text, json, yaml"), "{err}");
    let (code, out, _) = ontoly(&["capabilities", "--format", "json"]);
    assert_eq!(code, 0);
    assert!(out.contains("\"inputSchema\""));
    // A format's name in any case, as a clap option or among a question's words.
    let (code, upper, _) = ontoly(&["capabilities", "--format", "JSON"]);
    assert_eq!((code, upper), (0, out));
    let (code, out, _) = ontoly(&["evidence", "plugin", "setup", "--format", "Json"]);
    assert_eq!(code, 0);
    assert!(out.starts_with('{'), "{out}");
    let (code, _, err) = ontoly(&["capabilities", "--format", "XML"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'XML'"), "{err}");
}

#[test]
fn graph_pictures_of_a_neighbourhood() {
    let (code, out, _) = ontoly(&[
        "graph",
        "--focus",
        "section:faq/guide.md#answer",
        "--format",
        "mermaid",
        "--depth",
        "1",
    ]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("graph_mermaid_answer", out);
    // The id alone, as the text output prints it, draws the same picture.
    let (code, bare, _) = ontoly(&[
        "graph",
        "section:faq/guide.md#answer",
        "--format",
        "mermaid",
        "--depth",
        "1",
    ]);
    assert_eq!((code, bare.as_str()), (0, out.as_str()));
    // No node at all: the usual form is named, not only `--focus`.
    let (code, nothing, err) = ontoly(&["graph", "--format", "mermaid"]);
    assert_eq!((code, nothing.as_str()), (2, ""), "{err}");
    assert!(err.contains("`ontoly graph ID`"), "{err}");
    // A section as its page path and id, as people write it, with or without `knowledge/`.
    for short in ["faq/guide.md#answer", "knowledge/faq/guide.md#answer"] {
        let (code, got, err) = ontoly(&["graph", short, "--format", "mermaid", "--depth", "1"]);
        assert_eq!((code, got.as_str()), (0, out.as_str()), "{short}: {err}");
    }
    // An article as its page path, a cited file as its repository path: the JSON names the
    // node it resolved to.
    for (short, id) in [
        ("faq/guide.md", "article:faq/guide.md"),
        ("src/main.go", "file:"),
        ("main.go", "file:"),
    ] {
        let (code, got, err) = ontoly(&["graph", short, "--format", "json", "--depth", "1"]);
        assert_eq!(code, 0, "{short}: {err}");
        let v: serde_json::Value = serde_json::from_str(&got).expect("json");
        let focus = v["focus"].as_str().unwrap_or("");
        assert!(focus.starts_with(id), "{short}: focus {focus}");
        assert!(focus.ends_with(short), "{short}: focus {focus}");
    }
    // A cited range as `PATH:START-END` and as the pictures label it (`PATH#LSTART-LEND`).
    for short in ["src/main.go:3-9", "src/main.go#L3-L9", "main.go#L3-L9"] {
        let (code, got, err) = ontoly(&["graph", short, "--format", "json", "--depth", "1"]);
        assert_eq!(code, 0, "{short}: {err}");
        let v: serde_json::Value = serde_json::from_str(&got).expect("json");
        let focus = v["focus"].as_str().unwrap_or("");
        assert!(
            focus.starts_with("range:") && focus.ends_with("src/main.go#L3-L9"),
            "{short}: focus {focus}"
        );
    }
    let (code, _, err) = ontoly(&["graph", "faq/guide.md#nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("no node"));
    let (code, _, err) = ontoly(&["graph", "--focus", "section:nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("no node"));
    let (code, _, err) = ontoly(&["graph", "section:nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("no node"));
    let (code, _, _) = ontoly(&["graph", "section:a", "--focus", "section:b"]);
    assert_eq!(code, 2, "one node, given once");
}

#[test]
fn cites_refuses_lines_that_are_no_range() {
    let (code, out, _) = ontoly(&["cites", "src/main.go:1-400"]);
    assert_eq!(code, 0);
    assert!(out.contains("section(s) cite"), "{out}");
    // No citing section is a negative answer, as a search with no match: exit 1.
    for nothing in ["src/nowhere.go", "nowhere_at_all"] {
        let (code, out, _) = ontoly(&["cites", nothing]);
        assert_eq!(code, 1, "{nothing}: {out}");
        assert!(
            out.contains("CAPABILITY_NOT_FOUND") || out.contains("matches"),
            "{out}"
        );
    }
    for reversed in ["src/main.go:400-1", "src/main.go:0-3"] {
        let (code, out, err) = ontoly(&["cites", reversed]);
        assert_eq!(code, 1, "{out}{err}");
        assert!(
            format!("{out}{err}").contains("lines are 1-based and START <= END"),
            "{out}{err}"
        );
    }
}

#[test]
fn cites_text_says_when_it_lists_only_the_first_sections() {
    // 55 sections cite one file: the text lists 50 and says how many it left out.
    let dir = tempfile::tempdir().expect("temp dir");
    let ws = dir.path();
    copy_dir(&fixtures().join("valid/sources"), &ws.join("sources"));
    let mut page = String::from("# Many\n\n");
    let mut structure = String::from(
        "schema_version: context.approved-structure.v1\narticles:\n  - article_id: many\n    path: faq/many.md\n    collection: faq\n    visibility: public\n    sections:\n",
    );
    for i in 0..55 {
        page.push_str(&format!(
            "<!-- context:section id=\"s{i:02}\" -->\n## Part {i}\nText {i}.\n<!-- /context:section -->\n\n"
        ));
        structure.push_str(&format!(
            "      - id: s{i:02}\n        references:\n          - source_ref: repo:acme/server\n            locator: {{path: src/main.go, start_line: {a}, end_line: {b}}}\n            content_digest: sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae\n",
            a = i + 1,
            b = i + 2
        ));
    }
    structure.push_str("processed_scopes: []\ninput_hash: sha256:0000\n");
    std::fs::create_dir_all(ws.join("knowledge/faq")).expect("mkdir");
    std::fs::write(ws.join("knowledge/faq/many.md"), page).expect("page");
    std::fs::write(ws.join("knowledge/structure.yaml"), structure).expect("structure");
    let r = common::run_in(ws, &["--no-cache", "cites", "src/main.go"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("55 section(s) cite"), "{}", r.stdout);
    assert_eq!(r.stdout.matches("\n  section:").count(), 50, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("… and 5 more not listed (the first 50 are)"),
        "{}",
        r.stdout
    );
    // A range that fewer sections cite lists them all, with no such line.
    let r = common::run_in(ws, &["--no-cache", "cites", "src/main.go:1-3"]);
    assert!(!r.stdout.contains("not listed"), "{}", r.stdout);
    // Fewer asked for: the first ten, the rest counted.
    let r = common::run_in(ws, &["--no-cache", "cites", "src/main.go", "--limit", "10"]);
    assert_eq!(r.stdout.matches("\n  section:").count(), 10, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("… and 45 more not listed (the first 10 are)"),
        "{}",
        r.stdout
    );
    // A limit outside 1..=50 is clamped and said.
    let r = common::run_in(
        ws,
        &[
            "--no-cache",
            "cites",
            "src/main.go",
            "--limit",
            "0",
            "--format",
            "json",
        ],
    );
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
    assert_eq!(v["data"]["sections"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["data"]["sectionCount"], 55);
    assert!(
        v["diagnostics"]
            .as_array()
            .expect("diagnostics")
            .iter()
            .any(|d| d["code"] == "CAPABILITY_LIMIT_CLAMPED"
                && d["message"] == "limit 0 is outside 1..=50; using 1"),
        "{}",
        v["diagnostics"]
    );
}

#[test]
fn refs_prints_the_plugin_yaml_of_overlapping_sections() {
    let (code, out, err) = ontoly(&["refs", "knowledge/faq/guide.md:8-12"]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("refs_guide_answer", out);
    let (_, whole, _) = ontoly(&["refs", "knowledge/faq/guide.md"]);
    assert!(whole.contains("src/main.go#L3-L9"), "{whole}");
    let (_, digest, _) = ontoly(&["refs", "faq/guide.md:8", "--include-digest"]);
    assert!(digest.contains("content_digest: sha256:"), "{digest}");
    // The capability gives the same bytes in data.yaml.
    let (code, v) =
        section_references(r#"{"path":"knowledge/faq/guide.md","startLine":8,"endLine":12}"#);
    assert_eq!(code, 0);
    assert_eq!(v["data"]["yaml"].as_str(), Some(out.as_str()));
    assert_eq!(v["data"]["sections"][0], "answer");
    // Each section with its own references: together they are the flat list, each once.
    let (_, w) =
        section_references(r#"{"path":"knowledge/faq/guide.md","startLine":1,"endLine":400}"#);
    let by_section = w["data"]["bySection"].as_array().expect("bySection");
    let ids: Vec<&serde_json::Value> = by_section.iter().map(|s| &s["sectionId"]).collect();
    let listed: Vec<&serde_json::Value> = w["data"]["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .collect();
    assert_eq!(ids, listed);
    let mut union: Vec<String> = by_section
        .iter()
        .flat_map(|s| s["references"].as_array().into_iter().flatten())
        .map(|r| r.to_string())
        .collect();
    union.sort();
    union.dedup();
    let mut flat: Vec<String> = w["data"]["references"]
        .as_array()
        .expect("references")
        .iter()
        .map(|r| r.to_string())
        .collect();
    flat.sort();
    assert!(!flat.is_empty());
    assert_eq!(union, flat);
    assert!(by_section
        .iter()
        .all(|s| s["startLine"].as_u64() <= s["endLine"].as_u64()));
    // Lines past the page's end are an error, not an empty answer.
    let (code, out, err) = ontoly(&["refs", "knowledge/faq/guide.md:500-600"]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(
        err.contains("INVALID_LINE_RANGE: knowledge/faq/guide.md ends before line 500"),
        "{err}"
    );
    // From inside knowledge/, a page is named relative to the current directory.
    let here = common::run_in(
        &fixtures().join("valid/knowledge/faq"),
        &["--no-cache", "refs", "guide.md:8-12"],
    );
    assert_eq!(here.code, 0, "{}", here.stderr);
    assert_eq!(
        here.stdout,
        out_of(&["refs", "knowledge/faq/guide.md:8-12"])
    );
    // Outside any section with references: no output, CAPABILITY_NOT_FOUND in the result.
    let (code, none, _) = ontoly(&["refs", "knowledge/api/plugins.md:1-2"]);
    assert_eq!(code, 0);
    assert_eq!(none, "");
    let (_, v) =
        section_references(r#"{"path":"knowledge/api/plugins.md","startLine":1,"endLine":2}"#);
    assert_eq!(v["diagnostics"][0]["code"], "CAPABILITY_NOT_FOUND", "{v}");
    let (code, _, _) = ontoly(&[
        "run",
        "SectionReferences",
        "--input",
        r#"{"path":"knowledge/faq/guide.md","startLine":9,"endLine":2}"#,
    ]);
    assert_eq!(code, 1);
    // A page the workspace does not have is not found, with no confidence: it used to answer
    // "0 references", exact and `high`, beside a plugin warning.
    let (_, v) =
        section_references(r#"{"path":"knowledge/faq/nope.md","startLine":1,"endLine":9}"#);
    assert_eq!(v["confidence"]["level"], "none", "{v}");
    assert_eq!(v["diagnostics"][0]["code"], "CAPABILITY_NOT_FOUND", "{v}");
    assert_eq!(
        v["summary"],
        "knowledge/faq/nope.md is not a page of this workspace"
    );
    // An unknown section id names the one it most likely meant: its page without the
    // directory, or a typo.
    for (typed, meant) in [
        ("guide.md#answer", "faq/guide.md#answer"),
        ("faq/guide.md#anwser", "faq/guide.md#answer"),
    ] {
        let input = serde_json::json!({ "section": typed }).to_string();
        let (code, out, _) = ontoly(&["run", "SectionEvidence", "--input", &input]);
        assert_eq!(code, 0, "{out}");
        assert!(
            out.contains(&format!("; did you mean {meant}?")),
            "{typed}: {out}"
        );
    }
    // In a workspace that is a directory of its repository, a page's repository path (as
    // filesToInspect gives it) names the same page.
    let t = tempfile::tempdir().expect("tempdir");
    let ws = t.path().join("mono/docs/kb");
    copy_dir(&fixtures().join("valid"), &ws);
    let mono = t.path().join("mono");
    common::git(&mono, &["init", "-q", "-b", "main"]);
    common::git(&mono, &["add", "-A"]);
    common::git(&mono, &["commit", "-q", "-m", "kb"]);
    let refs = |path: &str| {
        let input = format!(r#"{{"path":"{path}","startLine":8,"endLine":12}}"#);
        let r = common::run_in(
            &ws,
            &[
                "--no-cache",
                "run",
                "SectionReferences",
                "--input",
                &input,
                "--format",
                "json",
            ],
        );
        let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
        v["data"]["yaml"].clone()
    };
    let by_workspace = refs("knowledge/faq/guide.md");
    assert!(
        by_workspace
            .as_str()
            .is_some_and(|y| y.contains("references:")),
        "{by_workspace}"
    );
    assert_eq!(refs("docs/kb/knowledge/faq/guide.md"), by_workspace);
}

/// An index that cannot be stored is built again by every process: build and each query say
/// why, instead of only being slow.
#[test]
fn an_index_that_cannot_be_stored_is_noted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = dir.path().join("ws");
    copy_dir(&fixtures().join("valid"), &ws);
    let build = common::run_in(&ws, &["build"]);
    assert_eq!(build.code, 0, "{}", build.stderr);
    assert!(!build.stdout.contains("cache note"), "{}", build.stdout);
    let artifacts = ws.join(".ontoly/artifacts");
    std::fs::remove_dir_all(&artifacts).expect("remove");
    std::fs::write(&artifacts, "").expect("a file where the directory was");
    let note = "search index not written (.ontoly/artifacts is not a directory): every run builds it again";
    let build = common::run_in(&ws, &["build"]);
    assert!(
        build.stdout.contains(&format!("cache note  {note}\n")),
        "{}",
        build.stdout
    );
    let query = common::run_in(&ws, &["evidence", "plugin setup"]);
    assert_eq!(query.code, 0);
    assert_eq!(query.stderr, format!("note: {note}\n"));
    let json = common::run_in(&ws, &["build", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(v["searchIndex"]["note"], note);
}

#[test]
fn the_index_is_stored_in_the_snapshot_and_a_broken_one_is_rebuilt() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = dir.path().join("ws");
    copy_dir(&fixtures().join("valid"), &ws);
    let run = || {
        let r = common::run_in(
            &ws,
            &["evidence", "how are plugins loaded?", "--format", "json"],
        );
        assert_eq!(r.code, 0);
        r.stdout
    };
    let first = run();
    let artifact = ws.join(".ontoly/artifacts/search-index.map");
    let stored = std::fs::read(&artifact).expect("the index artifact is stored");
    assert_eq!(run(), first, "from the stored index");
    assert_eq!(std::fs::read(&artifact).expect("still there"), stored);
    std::fs::write(&artifact, b"not an index").expect("corrupt it");
    assert_eq!(run(), first, "a corrupt artifact is ignored and rebuilt");
    assert_eq!(std::fs::read(&artifact).expect("rewritten"), stored);
    let v: serde_json::Value = serde_json::from_str(&first).expect("json");
    assert_eq!(v["provenance"]["root"], ".");
}

/// A build stores the graph's snapshot and its search index together (the index is built while
/// the snapshot is written): the same index bytes as one built later for the graph opened from
/// that snapshot; and a build whose inputs changed but whose graph did not keeps the stored
/// index as it is, without building or rewriting it.
#[cfg(unix)]
#[test]
fn a_build_stores_the_index_beside_the_snapshot_and_keeps_it_while_the_graph_is_unchanged() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = dir.path().join("ws");
    copy_dir(&fixtures().join("valid"), &ws);
    let build = || {
        let r = common::run_in(&ws, &["build", "--format", "json"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        serde_json::from_str::<serde_json::Value>(&r.stdout).expect("json")
    };
    let artifact = ws.join(".ontoly/artifacts/search-index.map");
    let cold = build();
    assert_eq!(cold["cache"]["status"], "miss");
    assert!(
        ws.join(".ontoly/graph.map").exists(),
        "the snapshot is stored"
    );
    let beside = std::fs::read(&artifact).expect("the index is stored with the snapshot");

    std::fs::remove_file(&artifact).expect("remove the index");
    let warm = build();
    assert_eq!(warm["cache"]["status"], "hit");
    assert_eq!(
        std::fs::read(&artifact).expect("built for the opened snapshot"),
        beside,
        "the index built beside the snapshot is the one built from it"
    );

    let before = std::fs::metadata(&artifact).expect("stat").ino();
    let page = ws.join("knowledge/faq/guide.md");
    let mut text = std::fs::read_to_string(&page).expect("read page");
    text.push_str("\nWords after the last section belong to no section.\n");
    std::fs::write(&page, text).expect("edit page");
    let edited = build();
    assert_eq!(
        edited["cache"]["pagesParsed"], 1,
        "the edited page is parsed again"
    );
    assert_eq!(
        edited["graphHash"], cold["graphHash"],
        "the graph is unchanged"
    );
    assert_eq!(
        std::fs::metadata(&artifact).expect("stat").ino(),
        before,
        "the stored index is kept, not rewritten"
    );
    assert_eq!(std::fs::read(&artifact).expect("read"), beside);
    assert_eq!(cold["searchIndex"]["status"], "built");
    assert_eq!(warm["searchIndex"]["status"], "built");
    assert_eq!(edited["searchIndex"]["status"], "reused");
    assert_eq!(edited["searchIndex"]["tokenized"], 0);
}

/// After a section's words change, a build updates the index stored for the graph before
/// (only the changed document is tokenized again) and stores the bytes a build from nothing
/// stores; the text output says what it did.
#[test]
fn an_edit_updates_the_stored_index_to_the_bytes_of_a_build_from_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = dir.path().join("ws");
    copy_dir(&common::demo(), &ws);
    let build = |format: &str| {
        let r = common::run_in(&ws, &["build", "--format", format]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
    };
    let json = |s: String| serde_json::from_str::<serde_json::Value>(&s).expect("json");
    let cold = json(build("json"));
    assert_eq!(cold["searchIndex"]["status"], "built");
    let documents = cold["searchIndex"]["documents"]
        .as_u64()
        .expect("documents");
    assert_eq!(cold["searchIndex"]["tokenized"], documents);

    let page = ws.join("knowledge/guides/checkout.md");
    let text = std::fs::read_to_string(&page).expect("read page");
    let edited = text.replacen("one cart line per row", "one cart line per text row", 1);
    assert_ne!(edited, text, "the page holds the sentence");
    std::fs::write(&page, edited).expect("edit page");
    let out = build("text");
    assert!(
        out.contains(&format!(
            "search index updated (1 of {documents} documents tokenized again)"
        )),
        "{out}"
    );
    let artifact = ws.join(".ontoly/artifacts/search-index.map");
    let updated = std::fs::read(&artifact).expect("the index is stored");

    std::fs::remove_dir_all(ws.join(".ontoly")).expect("drop the cache");
    let fresh = json(build("json"));
    assert_eq!(fresh["searchIndex"]["status"], "built");
    assert_eq!(
        std::fs::read(&artifact).expect("the index is stored"),
        updated,
        "the updated index is the one built from nothing"
    );
}

/// Sets every file's modification time under `dir` an hour back (the cache's own files
/// aside), as if the workspace had been edited long before the build: the snapshot's manifest
/// then vouches for each by its status.
fn age(dir: &std::path::Path) {
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for e in std::fs::read_dir(dir).expect("read_dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            if e.file_name() != ".ontoly" {
                age(&p);
            }
        } else {
            let f = std::fs::File::options().write(true).open(&p).expect("open");
            f.set_modified(old).expect("set the time");
        }
    }
}

/// After one page of aged inputs is edited, the build that leaves the unchanged structure
/// unread (its status vouches for it, its parse is cached) stores the graph and the search
/// index a build from nothing stores, byte for byte.
#[test]
fn an_edit_among_trusted_inputs_stores_the_graph_and_index_of_a_build_from_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = dir.path().join("ws");
    copy_dir(&common::demo(), &ws);
    age(&ws);
    let build = |args: &[&str]| {
        let mut all = vec!["build", "--format", "json"];
        all.extend_from_slice(args);
        let r = common::run_in(&ws, &all);
        assert_eq!(r.code, 0, "{}", r.stderr);
        serde_json::from_str::<serde_json::Value>(&r.stdout).expect("json")
    };
    let cold = build(&[]);
    let page = ws.join("knowledge/guides/checkout.md");
    let text = std::fs::read_to_string(&page).expect("read page");
    let edited = text.replacen("one cart line per row", "one cart line per text row", 1);
    assert_ne!(edited, text, "the page holds the sentence");
    std::fs::write(&page, edited).expect("edit page");
    let partial = build(&[]);
    assert_eq!(partial["cache"]["status"], "partial");
    assert_eq!(partial["cache"]["pagesParsed"], 1);
    assert_eq!(partial["searchIndex"]["status"], "updated");
    assert_ne!(partial["graphHash"], cold["graphHash"]);
    let artifact = ws.join(".ontoly/artifacts/search-index.map");
    let index = std::fs::read(&artifact).expect("the index is stored");

    let uncached = build(&["--no-cache"]);
    assert_eq!(uncached["graphHash"], partial["graphHash"]);
    std::fs::remove_dir_all(ws.join(".ontoly")).expect("drop the cache");
    let fresh = build(&[]);
    assert_eq!(fresh["cache"]["status"], "miss");
    assert_eq!(fresh["graphHash"], partial["graphHash"]);
    assert_eq!(
        std::fs::read(&artifact).expect("the index is stored"),
        index,
        "the index is the one built from nothing"
    );
}

#[test]
fn an_answer_quotes_titles_as_they_are_written() {
    // The demo's troubleshooting section is titled `A customer got "payment declined" — did we
    // retry?`: the answer names it between quotes, its own quotes kept, not escaped as Rust
    // writes a string (`\"payment declined\"`).
    let r = common::run_in(
        &common::demo(),
        &[
            "--no-cache",
            "evidence",
            "how are payments retried",
            "--format",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
    let answer = v["answer"].as_str().expect("answer");
    assert!(
        answer.contains(r#""A customer got "payment declined" — did we retry?" (section:faq/troubleshooting.md#payment-declined)"#),
        "{answer}"
    );
    assert!(!answer.contains('\\'), "{answer}");
    let text = common::run_in(
        &common::demo(),
        &["--no-cache", "evidence", "how are payments retried"],
    );
    assert!(!text.stdout.contains("\\\""), "{}", text.stdout);
}

/// Two definitions of one name behind a cited range (a property's getter and setter) are one
/// `overlaps` line with their number, not the same line twice.
#[test]
fn definitions_sharing_a_name_are_one_line_of_the_text_pack() {
    let (_dir, ws) = common::corpus_copy("httpx");
    let r = common::run_in(&ws, &["evidence", "How long is the default timeout?"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.trim_start().starts_with("overlaps "))
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("BaseClient.timeout (2 definitions)")),
        "{}",
        r.stdout
    );
    // Within each citation, every name is said once.
    for line in lines {
        let mut seen: Vec<&str> = line
            .trim_start()
            .trim_start_matches("overlaps ")
            .split([',', ';'])
            .map(str::trim)
            .collect();
        let n = seen.len();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), n, "{line}");
    }
}

/// A question that names a method (`CommandSet::execute`) whose definition outranks every
/// section gets that definition's lines, at their commit, as its first pinned read: the
/// sections cite the code around it, which sent an agent to other lines of the file.
#[test]
fn a_named_definition_is_the_first_read() {
    let (_dir, ws) = common::corpus_copy("fd");
    let pack = |q: &str| pack_in(&ws, q);
    let v = pack("CommandSet::execute");
    let first = &v["filesToInspect"][0];
    assert_eq!(first["path"], "src/exec/mod.rs", "{v}");
    assert_eq!(
        (&first["startLine"], &first["endLine"]),
        (&serde_json::json!(84), &serde_json::json!(96)),
        "{v}"
    );
    assert!(
        first["reason"]
            .as_str()
            .is_some_and(|r| r
                .starts_with("defines method CommandSet::execute, the best match of the question")),
        "{v}"
    );
    // The same lines are read once, even when a section in the pack cites exactly them.
    let reads = v["filesToInspect"].as_array().cloned().unwrap_or_default();
    let same = reads
        .iter()
        .filter(|f| f["path"] == "src/exec/mod.rs" && f["startLine"] == 84 && f["endLine"] == 96)
        .count();
    assert_eq!(same, 1, "{v}");
    let symbol = v["topNodes"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["type"] == "Symbol")
        .expect("the method ranks");
    assert_eq!(first["commit"], symbol["metadata"]["commit"]);
    assert!(v["filesToInspect"].as_array().map_or(0, Vec::len) <= 4);
    // A question in words about what the method does names no definition.
    let words = pack("how are commands run for each search result?");
    assert!(
        words["filesToInspect"]
            .as_array()
            .into_iter()
            .flatten()
            .all(|f| f["reason"]
                .as_str()
                .is_some_and(|r| r.starts_with("cited by"))),
        "{words}"
    );
}

/// Sections that share only a word every page uses ("arrow" in arrow's workspace) do not
/// agree with a top section that matches nothing else: "4 other sections agree" beside "matches
/// 0% of the query's weight" read as support for an answer to a question the pages do not
/// cover.
#[test]
fn agreement_needs_words_to_agree_on() {
    let (_dir, ws) = common::corpus_copy("arrow");
    let v = pack_in(&ws, "how do I install arrow with conda");
    let c = &v["confidence"];
    assert_eq!(c["level"], "low", "{c}");
    let agreement = c["factors"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|f| f["kind"] == "agreement")
        .expect("an agreement factor");
    assert_eq!(agreement["confidence"], 0.0, "{c}");
    assert!(
        c["explanation"]
            .as_str()
            .is_some_and(|e| e.contains("0 other sections agree")),
        "{c}"
    );
}

/// A short query of everyday words that the top section matches weakly ("help", "is this a
/// bug") is at most medium, and says why; a short query the pages are about ("humanize",
/// "timezone") stays high.
#[test]
fn a_vague_query_is_not_high() {
    let (_dir, ws) = common::corpus_copy("arrow");
    let confidence = |q: &str| pack_in(&ws, q)["confidence"].clone();
    for q in ["help", "is this a bug"] {
        let c = confidence(q);
        assert_eq!(c["level"], "medium", "{q}: {c}");
        assert!(
            c["explanation"].as_str().is_some_and(|e| e.ends_with(
                "; capped at medium: a short query of everyday words, which the top section holds only in passing"
            )),
            "{q}: {c}"
        );
    }
    for q in ["humanize", "timezone"] {
        assert_eq!(confidence(q)["level"], "high", "{q}");
    }
}

/// An identifier none of whose parts matched is named once, as typed, among the unmatched
/// words: "ParserError", not "ParserError, Parser, Error".
#[test]
fn an_unmatched_identifier_is_named_once() {
    let (_dir, ws) = common::corpus_copy("arrow");
    let v = pack_in(&ws, "1565358758 raises ParserError");
    let e = v["confidence"]["explanation"].as_str().unwrap_or("");
    assert!(e.contains("(unmatched: raises, ParserError)"), "{e}");
}

/// A misspelled word the top section does not hold is named as it was read, beside the
/// reading: "unmatched: configuraton" next to "read configuraton as configuration" read as if
/// the reading had failed (quality walk, stop 41). A hyphenated name with a typo is read as
/// the name the pages write (`pre-commit`), not kept as a name they lack (stop 54).
#[test]
fn an_unmatched_corrected_word_is_named_as_read() {
    let (_dir, ws) = common::corpus_copy("black");
    let e = level_and_why(&ws, "pre-comit hook configuraton").1;
    assert!(e.contains("(unmatched: configuration)"), "{e}");
    assert!(
        e.contains("read pre-comit as pre-commit, comit as commit, configuraton as configuration"),
        "{e}"
    );
    assert!(!e.contains("not in this workspace"), "{e}");
}

/// A name typed in camel case that the workspace never uses is a name it does not cover, not
/// its words: "NestedCache" was dropped for `nested` and `cache`, which marshmallow's pages use
/// apart, and the pack answered 0.92, "matches 100% of the query's weight". Among the words
/// not in the workspace it is named once, as typed ("SQLAlchemy", not "SQLAlchemy, SQL,
/// Alchemy"; "DataFrame", not "DataFrame, Frame"). A name whose words the pages write side by
/// side is theirs (`max_retries` for "maxRetries", `WalkState::Skip` for "WalkState").
#[test]
fn an_unknown_camel_case_name_counts_and_is_named_once() {
    let (_dir, ws) = common::corpus_copy("marshmallow");
    let (level, e) = level_and_why(&ws, "how do I use a NestedCache");
    assert_eq!(level, "low", "{e}");
    assert!(
        e.contains("(unmatched: NestedCache); not in this workspace: NestedCache;"),
        "{e}"
    );
    for (q, name) in [
        ("does marshmallow work with SQLAlchemy models", "SQLAlchemy"),
        ("does marshmallow work with DataFrame", "DataFrame"),
    ] {
        let e = level_and_why(&ws, q).1;
        assert!(
            e.contains(&format!("; not in this workspace: {name};")),
            "{e}"
        );
    }
    let (_dir, ws) = common::corpus_copy("requests");
    let (level, e) = level_and_why(&ws, "How do I set maxRetries on the adapter?");
    assert!(!e.contains("not in this workspace"), "{e}");
    assert_eq!(level, "high", "{e}");
}

/// A typo inside a camel-case name the pages write whole is read as that name, not its last
/// word as another word: "DictLoadr" counted as a missing name and read "Loadr" as "loads"
/// (`low` 0.51, though the section on `DictLoader` was first).
#[test]
fn a_mistyped_camel_case_name_is_read_as_the_name() {
    let (_dir, ws) = common::corpus_copy("jinja");
    let q = "How do I use a DictLoadr?";
    let (level, e) = level_and_why(&ws, q);
    assert_ne!(level, "low", "{e}");
    assert!(e.contains("read DictLoadr as dictloader;"), "{e}");
    assert!(!e.contains("not in this workspace"), "{e}");
    let first = pack_in(&ws, q)["topNodes"][0]["id"].clone();
    assert_eq!(first, "section:usage/loaders.md#dict-and-function-loaders");
}

/// A correction that no spelling of the typed word leads to is not made: "table" was read as
/// the term `tab` (one letter off its stem `tabl`), a message showing a stem where a word
/// belongs; the word stays unknown instead. A typo still reads as the word it misspells.
#[test]
fn a_correction_is_made_only_when_a_word_shows_it() {
    let (_dir, ws) = common::corpus_copy("click");
    let v = pack_in(
        &ws,
        "colorize the --help output and show options as a table",
    );
    let e = v["confidence"]["explanation"].as_str().unwrap_or("");
    assert!(!e.contains("read table as"), "{e}");
    let v = pack_in(&ws, "how do I add a subcomand");
    let e = v["confidence"]["explanation"].as_str().unwrap_or("");
    assert!(e.contains("read subcomand as subcommand"), "{e}");
}

/// A name in snake case with a typo in one of its words is read as the name the pages write.
#[test]
fn a_name_in_snake_case_with_a_typo_is_read_as_the_name() {
    // "stauts" is one edit from "starts" (more sections) and from "status": the name the
    // pages write whole says which (httpx MCP walk, stop 44).
    let (_dir, ws) = common::corpus_copy("httpx");
    let v = pack_in(&ws, "raise_for_stauts doesnt raise on 3xx redirects?");
    // Among the first three sections: since stop 57 the section on why redirects are not
    // followed, which also says `raise_for_status()` raises for 3xx, comes first by meaning.
    let sections: Vec<&serde_json::Value> = v["topNodes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|n| n["type"] == "Section")
        .take(3)
        .collect();
    assert!(
        sections
            .iter()
            .any(|n| n["id"] == "section:usage/responses.md#raise-for-status"),
        "{}",
        v["topNodes"]
    );
    let why = v["confidence"]["explanation"].as_str().unwrap_or("");
    assert!(
        why.contains("read raise_for_stauts as raise_for_status"),
        "{why}"
    );
    assert!(!why.contains("starts"), "{why}");
    // Not "not in this workspace: doesnt": a contraction without its apostrophe.
    assert!(!why.contains("doesnt"), "{why}");
    // A name whose words are all known is the asker's own: searched by its words.
    let v = pack_in(&ws, "raise_status_for 3xx");
    let why = v["confidence"]["explanation"].as_str().unwrap_or("");
    assert!(!why.contains(" as raise_for_status"), "{why}");
}

/// A correction to a term that no section's text writes (only an article title or a cited
/// name does: `_iter_tree_entries_next`) is shown as that term when it is a word: "read nested
/// as nexted" named a spelling nobody wrote (CI walk on pathspec, stop 49).
#[test]
fn a_correction_no_section_writes_is_shown_as_its_word() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ws = dir.path();
    std::fs::create_dir_all(ws.join("knowledge/guides")).expect("mkdir");
    std::fs::write(
        ws.join("knowledge/guides/trees.md"),
        "# What to read next\n\n<!-- context:section id=\"walking\" -->\n## Walking directory trees\nDirectories are walked recursively, and every file below the root is matched.\n<!-- /context:section -->\n\n<!-- context:section id=\"patterns\" -->\n## Patterns\nA pattern matches a path when its words match.\n<!-- /context:section -->\n",
    )
    .expect("page");
    std::fs::write(
        ws.join("knowledge/structure.yaml"),
        "schema_version: context.approved-structure.v1\narticles:\n  - article_id: trees\n    path: guides/trees.md\n    sections:\n      - id: walking\n      - id: patterns\n",
    )
    .expect("structure");
    let e = level_and_why(ws, "nested directories").1;
    assert!(e.contains("read nested as next;"), "{e}");
    assert!(!e.contains("nexted"), "{e}");
}

/// A correction is shown in the pages' spelling when the spelling it was made through is no
/// one's word: "dehumanise" is one edit from "dehumanism", whose stem is that of
/// "dehumanize", and the explanation said "read dehumanise as dehumanism" (newcomer's walk,
/// stop 43: "read decide as decime"); the unmatched words follow. A typo whose meant word the
/// pages write keeps that word.
#[test]
fn a_correction_is_shown_as_the_pages_write_it() {
    let (_dir, ws) = common::corpus_copy("arrow");
    let e = level_and_why(
        &ws,
        "dehumanise a string like \"in 2 days\" back into a date",
    )
    .1;
    assert!(e.contains("read dehumanise as dehumanize"), "{e}");
    assert!(!e.contains("dehumanism"), "{e}");
    let (_dir, ws) = common::corpus_copy("click");
    let e = level_and_why(
        &ws,
        "mutually exclusive options: --json and --yaml cannot be used together",
    )
    .1;
    assert!(!e.contains("excludive"), "{e}");
    let (_dir, ws) = common::corpus_copy("fd");
    let e = level_and_why(&ws, "follow symlnks into linked directories").1;
    assert!(e.contains("read symlnks as symlinks"), "{e}");
    // No top section writes the reading: the best-ranked section that does names it, not
    // its stem (it said "read Open as oper").
    let (_dir, ws) = common::corpus_copy("structlog");
    let e = level_and_why(
        &ws,
        "Does structlog ship a built-in exporter that sends logs directly to OpenTelemetry OTLP?",
    )
    .1;
    assert!(e.contains("read Open as operating"), "{e}");
}

const ERRORS_TS: &str = "export type ErrorMap = (issue: Issue) => { message: string };
let overrideErrorMap: ErrorMap = defaultErrorMap;

export function setErrorMap(map: ErrorMap) {
  overrideErrorMap = map;
}

export function getErrorMap() {
  return overrideErrorMap;
}
";

const TYPES_TS: &str = "export abstract class ZodType<Output> {
  parse(data: unknown): Output {
    const result = this.safeParse(data);
    if (result.success) return result.data;
    throw result.error;
  }

  safeParse(data: unknown) {
    return this._parse(data);
  }

  abstract _parse(data: unknown): any;
}

export class ZodObject extends ZodType<object> {
  extend(shape: object) {
    return new ZodObject();
  }

  _parse(data: unknown) {
    return { success: true, data };
  }
}

export class ZodString extends ZodType<string> {
  min(length: number) {
    return this;
  }

  _parse(data: unknown) {
    return { success: typeof data === \"string\", data };
  }
}
";

/// A small TypeScript library's workspace shaped as the zod walk's (stop 53): a section headed
/// `z.setErrorMap and z.getErrorMap`, one about `parse` citing `ZodType.parse`, one about
/// `ZodObject.extend`; every reference verified in a repository the test creates.
fn schema_library_workspace(dir: &std::path::Path) -> std::path::PathBuf {
    let repo = dir.join("repo");
    let base = common::repo_with_files(
        &repo,
        &[("src/errors.ts", ERRORS_TS), ("src/types.ts", TYPES_TS)],
    );
    let ws = dir.join("ws");
    common::one_module(&ws, "walk", "schema", "walk/schema", &base, "../repo");
    // (page, title, [(id, heading, body, [range])]).
    type Section<'a> = (&'a str, &'a str, &'a str, &'a [&'a str]);
    let pages: [(&str, &str, &[Section]); 4] = [
        (
            "errors.md",
            "Error maps",
            &[
                (
                    "global-map",
                    "z.setErrorMap and z.getErrorMap",
                    "`z.setErrorMap(map)` replaces the process-wide error map; `z.getErrorMap()` returns the map set last. Your map receives each issue and returns its message.",
                    &["src/errors.ts:1-10"],
                ),
                (
                    "precedence",
                    "Error map precedence",
                    "A map passed to `parse` wins over the schema's own map, which wins over the global map set by `z.setErrorMap`.",
                    &["src/errors.ts:8-10"],
                ),
            ],
        ),
        (
            "parsing.md",
            "Parsing",
            &[
                (
                    "parse",
                    "parse and safeParse",
                    "`schema.parse(data)` returns the validated data or throws the error; `schema.safeParse(data)` returns a result object with `success` instead of throwing.",
                    &["src/types.ts:1-13"],
                ),
                (
                    "result",
                    "The safeParse result",
                    "Check `result.success` before reading `result.data`; on failure `result.error` holds the issues.",
                    &["src/types.ts:8-10"],
                ),
            ],
        ),
        (
            "objects.md",
            "Objects",
            &[
                (
                    "extend",
                    "Extending an object schema",
                    "`ZodObject.extend` adds keys to an object schema and returns a new `ZodObject`; the original is unchanged.",
                    &["src/types.ts:15-23"],
                ),
                (
                    "inner",
                    "Objects behind refinements",
                    "A refined object is no longer a `ZodObject`, so `.extend` is not a function on it; take the object schema behind the refinement first.",
                    &["src/types.ts:15-18"],
                ),
            ],
        ),
        (
            "strings.md",
            "Strings",
            &[(
                "min",
                "Minimum length",
                "`z.string().min(5)` checks the length of a string; the message names the minimum.",
                &["src/types.ts:25-33"],
            )],
        ),
    ];
    std::fs::write(
        ws.join("knowledge/structure.yaml"),
        "schema_version: context.approved-structure.v1\narticles: []\n",
    )
    .expect("structure");
    let mut structure = String::from("schema_version: context.approved-structure.v1\narticles:\n");
    for (page, title, sections) in pages {
        let mut text = format!("---\ntitle: {title}\n---\n\n# {title}\n\n");
        structure.push_str(&format!("  - path: {page}\n    sections:\n"));
        for (id, heading, body, ranges) in sections {
            text.push_str(&format!(
                "<!-- context:section id=\"{id}\" -->\n## {heading}\n\n{body}\n<!-- /context:section -->\n\n"
            ));
            structure.push_str(&format!("      - id: {id}\n        references:\n"));
            for range in *ranges {
                let entry = common::run_in(&ws, &["digest", range, "--source", "walk/schema"]);
                assert_eq!(entry.code, 0, "{}", entry.stderr);
                for l in entry.stdout.lines().filter(|l| !l.starts_with('#')) {
                    structure.push_str(&format!("          {l}\n"));
                }
            }
        }
        std::fs::write(ws.join("knowledge").join(page), text).expect("page");
    }
    std::fs::write(ws.join("knowledge/structure.yaml"), structure).expect("structure");
    let check = common::run_in(&ws, &["validate", "--require-verified"]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    ws
}

/// The zod walk's short qualified names on a small TypeScript library (stop 53): a member no
/// page documents under a qualifier the pages document others under (`z.map` beside
/// `z.setErrorMap`, `ZodObject.parse` beside `ZodObject.extend`) is a name the workspace lacks,
/// named so and not `high`, where "z.map" was `high` for the section on `z.setErrorMap` ("matches
/// 100% of the query's weight") and "ZodObject.parse" `high` with "unmatched: parse". Names the
/// pages write still find their sections.
#[test]
fn a_qualified_name_the_pages_do_not_write_is_not_a_confident_answer() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = schema_library_workspace(dir.path());
    for (q, name) in [
        ("z.map", "z.map"),
        ("z.map()", "z.map"),
        ("z.set()", "z.set"),
        ("ZodObject.parse", "ZodObject.parse"),
    ] {
        let (level, e) = level_and_why(&ws, q);
        // `low` on the walk's 80 sections; on these seven an unknown name weighs less.
        assert_ne!(level, "high", "{q}: {e}");
        if q.starts_with("z.") {
            assert_eq!(level, "low", "{q}: {e}");
        }
        assert!(
            e.contains(&format!("; not in this workspace: {name};")),
            "{q}: {e}"
        );
    }
    for (q, top) in [
        ("z.setErrorMap", "section:errors.md#global-map"),
        ("ZodObject.extend", "section:objects.md#extend"),
        ("ZodType.parse", "section:parsing.md#parse"),
    ] {
        let v = pack_in(&ws, q);
        assert_eq!(v["topNodes"][0]["id"], top, "{q}: {v}");
        let e = v["confidence"]["explanation"].as_str().unwrap_or("");
        assert_ne!(v["confidence"]["level"], "low", "{q}: {e}");
        assert!(!e.contains("not in this workspace"), "{q}: {e}");
    }
}

/// A section's ranges over definitions come first among the files to inspect, then its other
/// ranges in the order the structure lists them (the agent walk of stop 54 was sent to three
/// CHANGELOG ranges before any code).
#[test]
fn files_to_inspect_read_a_sections_code_before_its_other_ranges() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pin = common::repo_with_files(
        &dir.path().join("lib"),
        &[
            (
                "CHANGELOG.md",
                "# Changes\n\n## 2.0\n\n- Redirects are no longer followed by default.\n",
            ),
            (
                "src/client.py",
                "def send(request, follow_redirects=False):\n    \"\"\"Send one request.\"\"\"\n    return request\n",
            ),
        ],
    );
    let ws = dir.path().join("ws");
    common::one_module(&ws, "acme", "lib", "acme/lib", &pin, "../lib");
    std::fs::write(
        ws.join("knowledge/structure.yaml"),
        "schema_version: context.approved-structure.v1\narticles: []\n",
    )
    .expect("structure");
    let mut refs = String::new();
    for range in ["CHANGELOG.md:3-5", "src/client.py:1-3"] {
        let entry = common::run_in(&ws, &["digest", range, "--source", "acme/lib"]);
        assert_eq!(entry.code, 0, "{}", entry.stderr);
        for l in entry.stdout.lines().filter(|l| !l.starts_with('#')) {
            refs.push_str(&format!("          {l}\n"));
        }
    }
    std::fs::write(
        ws.join("knowledge/q.md"),
        "# Q\n\n<!-- context:section id=\"redirects\" -->\n## Redirects\n\nRedirects are not followed by default; pass follow_redirects.\n<!-- /context:section -->\n",
    )
    .expect("page");
    std::fs::write(
        ws.join("knowledge/structure.yaml"),
        format!("schema_version: context.approved-structure.v1\narticles:\n  - path: q.md\n    sections:\n      - id: redirects\n        references:\n{refs}"),
    )
    .expect("structure");
    let r = common::run_in(
        &ws,
        &[
            "evidence",
            "are redirects followed by default",
            "--format",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
    let paths: Vec<&str> = (v["filesToInspect"].as_array().expect("files"))
        .iter()
        .filter_map(|f| f["path"].as_str())
        .collect();
    assert_eq!(paths[..2], ["src/client.py", "CHANGELOG.md"], "{paths:?}");
}

/// A header name the pages never write is a name the workspace lacks, not its words (agent
/// walk, stop 54): "Retry-After" was read as "retry" (`After` is a stopword), so a workspace
/// whose only page about retries never mentions the header answered it `high` 0.97, "matches
/// 100% of the query's weight". A header the pages write keeps its confidence.
#[test]
fn a_hyphenated_name_the_pages_do_not_write_is_not_confident() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = dir.path();
    std::fs::create_dir_all(ws.join("knowledge")).expect("mkdir");
    std::fs::write(
        ws.join("knowledge/structure.yaml"),
        "schema_version: context.approved-structure.v1\narticles:\n  - path: http.md\n    sections:\n      - id: retries\n        references: []\n      - id: content-type\n        references: []\n      - id: pool\n        references: []\n",
    )
    .expect("structure");
    std::fs::write(
        ws.join("knowledge/http.md"),
        "---\ntitle: HTTP client\n---\n\n# HTTP client\n\n\
         <!-- context:section id=\"retries\" -->\n## Retrying failed requests\n\n\
         The transport retries a request that failed to connect, up to `retries` times, waiting \
         longer before each retry.\n<!-- /context:section -->\n\n\
         <!-- context:section id=\"content-type\" -->\n## The Content-Type header\n\n\
         A JSON body sets the Content-Type header to `application/json`; a form body sets it \
         to `application/x-www-form-urlencoded`.\n<!-- /context:section -->\n\n\
         <!-- context:section id=\"pool\" -->\n## Connection pool\n\n\
         Idle connections stay in the pool for five seconds, then close.\n<!-- /context:section -->\n",
    )
    .expect("page");
    for q in [
        "Retry-After",
        "Where is the Retry-After header parsed when a request is retried?",
    ] {
        let (level, e) = level_and_why(ws, q);
        assert_eq!(level, "low", "{q}: {e}");
        assert!(e.contains("not in this workspace: Retry-After"), "{q}: {e}");
    }
    // Named once, as typed, as a camel-case name is: its pieces are terms of their own, and
    // were listed beside it ("unmatched: Strict-Transport-Security, Strict, Transport; not in
    // this workspace: Strict-Transport-Security, Strict", author walk, stop 54). A piece the
    // asker typed on its own ("transport") is still named.
    for (q, unmatched) in [
        (
            "Where is the Strict-Transport-Security header set?",
            "(unmatched: Strict-Transport-Security);",
        ),
        (
            "Does the transport set Strict-Transport-Security?",
            "(unmatched: transport, Strict-Transport-Security);",
        ),
    ] {
        let (level, e) = level_and_why(ws, q);
        assert_eq!(level, "low", "{q}: {e}");
        assert!(e.contains(unmatched), "{q}: {e}");
        assert!(
            e.contains("; not in this workspace: Strict-Transport-Security;"),
            "{q}: {e}"
        );
    }
    for q in [
        "Content-Type",
        "Which Content-Type header does a JSON body set?",
    ] {
        let (level, e) = level_and_why(ws, q);
        assert_ne!(level, "low", "{q}: {e}");
        assert!(!e.contains("not in this workspace"), "{q}: {e}");
        assert_eq!(
            pack_in(ws, q)["topNodes"][0]["id"],
            "section:http.md#content-type"
        );
    }
}

/// Words no indexed page uses are not said to be missing from the workspace when an error left
/// a page out of it (author walk, stop 54: "not in this workspace: clickable, task" of the words
/// on a page whose marker error dropped its sections): the explanation names the page instead.
#[test]
fn words_of_a_page_an_error_dropped_are_not_said_to_be_missing_from_the_workspace() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = dir.path();
    std::fs::create_dir_all(ws.join("knowledge")).expect("mkdir");
    std::fs::write(
        ws.join("knowledge/structure.yaml"),
        "schema_version: context.approved-structure.v1\narticles:\n  - path: lists.md\n    sections:\n      - id: lists\n        references: []\n  - path: tasks.md\n    sections:\n      - id: tasks\n        references: []\n",
    )
    .expect("structure");
    std::fs::write(
        ws.join("knowledge/lists.md"),
        "# Lists\n\n<!-- context:section id=\"lists\" -->\n## Bullet lists\n\nA list item starts \
         with a dash; nested lists indent by four spaces.\n<!-- /context:section -->\n",
    )
    .expect("page");
    let tasks = "# Tasks\n\n<!-- context:section id=\"tasks\" -->\n## Task lists\n\nEnable \
                 `clickable_checkbox` to make the checkboxes of a task list clickable.\n";
    std::fs::write(ws.join("knowledge/tasks.md"), tasks).expect("page");
    let q = "How do I make the checkboxes of a list clickable?";
    let (_, e) = level_and_why(ws, q);
    assert!(
        e.contains(
            "; not in the pages ontoly could read: make, checkboxes, clickable (an error leaves out \
             knowledge/tasks.md: `ontoly validate` lists it);"
        ),
        "{e}"
    );
    assert!(!e.contains("not in this workspace"), "{e}");
    // Closed, the page is read and the words are found.
    std::fs::write(
        ws.join("knowledge/tasks.md"),
        format!("{tasks}<!-- /context:section -->\n"),
    )
    .expect("page");
    let (_, e) = level_and_why(ws, q);
    assert!(!e.contains("not in the pages"), "{e}");
    assert!(!e.contains("clickable"), "{e}");
}
