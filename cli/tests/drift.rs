//! `ontoly drift` and `ontoly impact` on real git histories: the requests development corpus
//! (v2.28.0 -> v2.32.3, its `drift.yaml` computed with git) and the repository of
//! `testdata/recipes/drift-repo.sh` cited by the fixture `testdata/fixtures/drift/ws` (edits
//! above a range, moves within and across files, renames, deletions, whitespace-only edits,
//! duplicated blocks, a deleted symbol, a module with mixed statuses). Agreement with the
//! `drift.yaml` files is checked by `scripts/drift-compare.py`, as CI does.

mod common;

use common::{
    copy_dir, corpus_copy, git, one_module, one_page_citing, repo_with_files, run_in, testdata, Run,
};
use serde_json::Value;
use std::path::{Path, PathBuf};

const REQUESTS_LATER: &str = "0e322af87745eff34caffe4df68456ebc20d9068";
const FIXTURE_BASE: &str = "371a34a4595b154890942bb6da20e6d737992546";
const FIXTURE_LATER: &str = "7ae5d7cd6a7656f492c7e0d18eb7d9a31dde2f87";

/// A temporary directory holding `repo/` (made by the drift recipe) and `ws/` (a copy of the
/// fixture workspace, whose ontoly.toml maps every module to `../repo`).
struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = std::process::Command::new("bash")
            .arg(testdata().join("recipes/drift-repo.sh"))
            .arg(dir.path().join("repo"))
            .output()
            .expect("bash runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let ids = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            ids.lines().next(),
            Some(FIXTURE_BASE),
            "the recipe's commits are stable"
        );
        assert_eq!(ids.lines().nth(2), Some(FIXTURE_LATER));
        copy_dir(
            &testdata().join("fixtures/drift/ws"),
            &dir.path().join("ws"),
        );
        Fixture { dir }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn ws(&self) -> PathBuf {
        self.root().join("ws")
    }

    /// `ontoly --workspace ws --no-cache ARGS` from the fixture's directory.
    fn run(&self, args: &[&str]) -> Run {
        let mut all = vec!["--workspace", "ws", "--no-cache"];
        all.extend_from_slice(args);
        run_in(self.root(), &all)
    }

    /// `ontoly --source MAPPING --workspace ws --no-cache ARGS`: a clone mapped before the
    /// command's name.
    fn run_with_source_first(&self, mapping: &str, args: &[&str]) -> Run {
        let mut all = vec!["--source", mapping, "--workspace", "ws", "--no-cache"];
        all.extend_from_slice(args);
        run_in(self.root(), &all)
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.ws().join(rel)).expect("readable")
    }
}

/// A copy of the requests corpus (workspace and repo.git) in a temporary directory.
fn requests_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let corpus = testdata().join("corpora/requests");
    copy_dir(&corpus.join("ws"), &dir.path().join("ws"));
    copy_dir(&corpus.join("repo.git"), &dir.path().join("repo.git"));
    dir
}

fn json(r: &Run) -> Value {
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}\n{}", r.stdout, r.stderr))
}

fn reference<'a>(v: &'a Value, article: &str, section: &str, index: u64) -> &'a Value {
    v["references"]
        .as_array()
        .and_then(|refs| {
            refs.iter().find(|r| {
                r["articleId"] == article && r["sectionId"] == section && r["refIndex"] == index
            })
        })
        .unwrap_or_else(|| panic!("{article}#{section}[{index}] is reported"))
}

#[test]
fn requests_agrees_with_its_drift_yaml_through_the_cli() {
    let ws = testdata().join("corpora/requests/ws");
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(&ws, &dir.path().join("ws"));
    copy_dir(
        &testdata().join("corpora/requests/repo.git"),
        &dir.path().join("repo.git"),
    );
    let r = run_in(
        dir.path(),
        &[
            "--workspace",
            "ws",
            "--no-cache",
            "drift",
            "--to",
            "later",
            "--format",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (ok, out) =
        common::compare_drift(&r.stdout, &testdata().join("corpora/requests/drift.yaml"));
    assert!(ok, "{out}");
    assert!(
        out.contains("262 references agree: 6 unchanged, 196 moved, 60 changed, 0 missing"),
        "{out}"
    );
    let v = json(&r);
    assert_eq!(v["to"]["requests/lib"], REQUESTS_LATER);
    assert_eq!(v["counts"]["unverifiable"], 0);
    // A short commit and the full one name the same later commit; so does HEAD (main).
    for to in ["0e322af8", REQUESTS_LATER, "v2.32.3"] {
        let again = run_in(
            dir.path(),
            &[
                "--workspace",
                "ws",
                "--no-cache",
                "drift",
                "--to",
                to,
                "--format",
                "json",
            ],
        );
        assert_eq!(json(&again)["references"], v["references"], "--to {to}");
    }
    // Impact of the release on the corpus: both modules live in one repository, so naming
    // either the module or the source selects the same references (all brought to v2.28.0).
    let impact_run = |before: &[&str], format: &str| {
        let mut args = vec!["--workspace", "ws", "--no-cache"];
        args.extend_from_slice(before);
        args.extend_from_slice(&["impact", "--from", "v2.28.0", "--to", "v2.32.3", "--format"]);
        args.push(format);
        run_in(dir.path(), &args)
    };
    let impact = |source: &str| {
        let r = impact_run(&["--source", source], "json");
        assert_eq!(r.code, 0, "{}", r.stderr);
        json(&r)
    };
    let by_module = impact("requests/lib");
    assert_eq!(by_module["pages"], impact("requests")["pages"]);
    // The repository's remote, as ontoly.toml names the clone, selects it too.
    for remote in ["github.com/psf/requests", "psf/requests"] {
        assert_eq!(by_module["pages"], impact(remote)["pages"], "{remote}");
    }
    assert!(
        by_module["counts"]["sections"].as_u64().unwrap_or(0) > 50,
        "{}",
        by_module["counts"]
    );
    let setup = by_module["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .flat_map(|p| p["sections"].as_array().into_iter().flatten())
        .flat_map(|s| s["references"].as_array().into_iter().flatten())
        .any(|a| a["path"] == "setup.py");
    assert!(setup, "a requests/root reference (setup.py) is touched too");
    // A reference the release only renames sits, in its file's new place, where drift maps it:
    // `requests/exceptions.py:45-78` is `src/requests/exceptions.py:55-88`, ten lines added
    // above it (the annotations put it at 45-78, on other code).
    let mut renamed = 0;
    for p in by_module["pages"].as_array().into_iter().flatten() {
        for s in p["sections"].as_array().into_iter().flatten() {
            for a in s["references"].as_array().into_iter().flatten() {
                if a["via"] != "path" {
                    continue;
                }
                renamed += 1;
                let d = reference(
                    &v,
                    p["articleId"].as_str().unwrap_or(""),
                    s["sectionId"].as_str().unwrap_or(""),
                    a["refIndex"].as_u64().unwrap_or(0),
                );
                assert_eq!(
                    (&a["renamedTo"], &a["renamedLines"]),
                    (
                        &d["newPath"],
                        &serde_json::json!({"startLine": d["newStartLine"], "endLine": d["newEndLine"]})
                    ),
                    "{a}"
                );
            }
        }
    }
    assert!(renamed > 40, "{renamed} references only renamed");
    let github = impact_run(&[], "github");
    assert!(
        github.stdout.contains(
            "::warning file=src/requests/exceptions.py,line=55,endLine=88,col=1,title=ontoly \
             impact::this change renames the file that knowledge/architecture/exceptions.md#hierarchy \
             cites (requests/exceptions.py:45-78 is now src/requests/exceptions.py:55-88;"
        ),
        "{}",
        github.stdout
    );
    let head = run_in(
        dir.path(),
        &[
            "--workspace",
            "ws",
            "--no-cache",
            "drift",
            "--format",
            "json",
        ],
    );
    assert_eq!(json(&head)["to"], v["to"], "HEAD is the later commit");
}

#[test]
fn the_fixture_agrees_with_its_drift_yaml_and_each_case_reads_right() {
    let f = Fixture::new();
    let r = f.run(&["drift", "--to", "v2", "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (ok, out) = common::compare_drift(&r.stdout, &testdata().join("fixtures/drift/drift.yaml"));
    assert!(ok, "{out}");
    let v = json(&r);
    // Whitespace-only edit of Store.put: changed, mapped onto its new lines, same symbol.
    let put = reference(&v, "app", "store", 1);
    assert_eq!(put["status"], "changed");
    assert_eq!(
        put["mapped"],
        serde_json::json!({"path": "src/app.py", "startLine": 26, "endLine": 28})
    );
    assert_eq!(put["symbol"]["qualified"], "Store.put");
    assert_eq!(put["suggestion"]["startLine"], 26);
    // A deleted symbol: no suggestion.
    let gamma = reference(&v, "app", "summing", 0);
    assert_eq!(gamma["symbol"]["qualified"], "gamma");
    assert!(gamma.get("suggestion").is_none(), "{gamma}");
    // Duplicated block: two occurrences, changed.
    assert_eq!(reference(&v, "app", "duplicates", 0)["occurrences"], 2);
    // Moved to another file by a function move: the suggestion names the new file, and the
    // relocation finds every cited line there; the diff maps the range onto what is left, so
    // the reference follows the relocation.
    let helper = reference(&v, "app", "helpers", 0);
    assert_eq!(helper["suggestion"]["path"], "src/helpers.py");
    assert_eq!(
        helper["relocation"],
        serde_json::json!({"path": "src/helpers.py", "startLine": 4, "endLine": 8, "matched": 5, "of": 5, "followed": true})
    );
    // A block that moved within its file is found by the diff: no relocation elsewhere.
    assert_eq!(put["relocation"]["path"], "src/app.py");
    // A renamed file: moved with its new path.
    assert_eq!(
        reference(&v, "docs", "guide", 0)["newPath"],
        "docs/manual.md"
    );
    // Missing: fields that do not apply are absent.
    let gone = reference(&v, "app", "legacy", 1);
    assert_eq!(gone["status"], "missing");
    assert!(gone.get("mapped").is_none() && gone.get("newPath").is_none());
    assert_eq!(gone["suggestion"]["path"], "src/modes.py");
    // The text: by page and section, one verdict per section, a line per drifted reference.
    insta::assert_snapshot!("drift_text_fixture", f.run(&["drift", "--to", "v2"]).stdout);
    // The next steps are what was not asked already: with --diff, no "add --diff"; after a
    // --write, its own review block; with no drift, nothing.
    let diffed = f.run(&["drift", "--to", "v2", "--diff"]).stdout;
    let next = diffed
        .lines()
        .find(|l| l.starts_with("next: "))
        .unwrap_or("");
    assert!(
        next.starts_with("next: --write re-anchors what moved; "),
        "{diffed}"
    );
    let same = f.run(&["drift", "--to", "v1"]).stdout;
    assert!(!same.contains("\nnext: "), "{same}");
    insta::assert_snapshot!(
        "impact_text_fixture",
        f.run(&["impact", "--from", "v1", "--to", "v2"]).stdout
    );
}

#[test]
fn fail_on_and_per_source_revisions() {
    let f = Fixture::new();
    assert_eq!(f.run(&["drift", "--to", "v2"]).code, 0);
    assert_eq!(
        f.run(&["drift", "--to", "v2", "--fail-on", "changed"]).code,
        3
    );
    assert_eq!(
        f.run(&["drift", "--to", "v2", "--fail-on", "moved"]).code,
        3
    );
    // --only-drifted lists the drifted references only; the counts and the gate still see all.
    let every = json(&f.run(&["drift", "--to", "v2", "--format", "json"]));
    // The repository named by its remote as the registry writes it, or in git's scp form.
    for remote in [
        "https://github.com/acme/drift",
        "git@github.com:acme/drift.git",
    ] {
        let named = f.run(&["drift", "--to", &format!("{remote}=v2"), "--format", "json"]);
        assert_eq!(named.code, 0, "{remote}: {}", named.stderr);
        assert_eq!(json(&named)["counts"], every["counts"], "{remote}");
    }
    let r = f.run(&[
        "drift",
        "--to",
        "v2",
        "--only-drifted",
        "--fail-on",
        "changed",
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 3);
    let drifted = json(&r);
    assert_eq!(drifted["counts"], every["counts"]);
    let listed = |v: &Value| v["references"].as_array().map_or(0, Vec::len) as u64;
    let unchanged = every["counts"]["unchanged"].as_u64().unwrap_or(0);
    assert!(unchanged > 0, "the fixture has unchanged references");
    assert_eq!(listed(&drifted), listed(&every) - unchanged);
    assert!(drifted["references"]
        .as_array()
        .into_iter()
        .flatten()
        .all(|r| r["status"] != "unchanged"));
    // Only drift/core at the later commit: its references are unchanged or moved.
    let core_only = ["drift", "--to", "v1", "--to", "drift/core=v2"];
    let r = f.run(&[&core_only[..], &["--format", "json"]].concat());
    let v = json(&r);
    assert_eq!(v["to"]["drift/core"], FIXTURE_LATER);
    assert_eq!(v["to"]["drift/app"], FIXTURE_BASE);
    assert_eq!(v["counts"]["moved"], 3, "{}", r.stdout);
    assert_eq!(v["counts"]["changed"], 0);
    assert_eq!(
        f.run(&[&core_only[..], &["--fail-on", "changed"]].concat())
            .code,
        0
    );
    assert_eq!(
        f.run(&[&core_only[..], &["--fail-on", "moved"]].concat())
            .code,
        3
    );
    // A source name selects all its modules; an unknown name or revision is a usage error.
    let all = json(&f.run(&["drift", "--to", "drift=v2", "--format", "json"]));
    assert_eq!(all["to"]["drift/app"], FIXTURE_LATER);
    // So does the repository's remote, as ontoly.toml and --source NAME=PATH write it.
    let by_remote = |name: &str| {
        let to = format!("{name}=v2");
        json(&f.run(&["drift", "--to", "v1", "--to", &to, "--format", "json"]))
    };
    for name in ["github.com/acme/drift", "acme/drift"] {
        let v = by_remote(name);
        assert_eq!(v["to"]["drift/app"], FIXTURE_LATER, "{name}");
        assert_eq!(v["to"]["drift/core"], FIXTURE_LATER, "{name}");
    }
    let bad = f.run(&["drift", "--to", "nope=v2"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("drift/app"), "{}", bad.stderr);
    let bad = f.run(&["drift", "--to", "no-such-tag"]);
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("no such branch, tag or commit"),
        "{}",
        bad.stderr
    );
}

/// A module mapped to a clone of its own reads that clone, though its repository's other
/// modules read another; `--source` before and after the command's name add up.
#[test]
fn each_module_reads_the_clone_mapped_to_it_wherever_source_is_given() {
    let f = Fixture::new();
    git(f.root(), &["clone", "-q", "repo", "older"]);
    git(
        &f.root().join("older"),
        &["reset", "-q", "--hard", FIXTURE_BASE],
    );
    let head = git(&f.root().join("repo"), &["rev-parse", "HEAD"]);
    let head = head.trim();
    assert_ne!(head, FIXTURE_BASE);
    let to = |args: &[&str]| {
        let mut all = vec!["--workspace", "ws", "--no-cache"];
        all.extend_from_slice(args);
        let r = run_in(f.root(), &all);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        json(&r)["to"].clone()
    };
    // drift/app is the second module of the remote: before, it read the first one's clone.
    let v = to(&[
        "drift",
        "--source",
        "drift/app=../older",
        "--format",
        "json",
    ]);
    assert_eq!(v["drift/app"], FIXTURE_BASE, "{v}");
    assert_eq!(v["drift/core"], head, "{v}");
    let v = to(&[
        "--source",
        "drift/app=../older",
        "drift",
        "--source",
        "drift/core=../older",
        "--format",
        "json",
    ]);
    assert_eq!(v["drift/app"], FIXTURE_BASE, "{v}");
    assert_eq!(v["drift/core"], FIXTURE_BASE, "{v}");
    assert_eq!(v["drift/pkg"], head, "{v}");
    // impact names its source after the command and maps the clone before it.
    let r = f.run_with_source_first(
        "drift/app=../older",
        &[
            "impact",
            "--from",
            FIXTURE_BASE,
            "--to",
            "HEAD",
            "--source",
            "drift/app",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with(&format!(
            "impact of drift/app {}..{}: 0 file(s)",
            &FIXTURE_BASE[..12],
            &FIXTURE_BASE[..12]
        )),
        "{}",
        r.stdout
    );
    // A mapping whose clone does not open is named as written, not reported as unmapped.
    let r = f.run(&[
        "drift",
        "--source",
        "drift/app=../nowhere",
        "--format",
        "json",
    ]);
    let v = json(&r);
    let reasons: Vec<&str> = v["references"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["sourceRef"] == "repo:drift/app")
        .filter_map(|r| r["reason"].as_str())
        .collect();
    assert!(!reasons.is_empty(), "{}", r.stdout);
    assert!(
        reasons
            .iter()
            .all(|m| *m == "the clone mapped by --source drift/app=../nowhere does not exist"),
        "{reasons:?}"
    );
    let r = f.run(&[
        "impact",
        "--from",
        FIXTURE_BASE,
        "--to",
        "HEAD",
        "--source",
        "drift/app=../nowhere",
        "--source",
        "drift/app",
    ]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains(
            "drift/app: the clone mapped by --source drift/app=../nowhere does not exist"
        ),
        "{}",
        r.stderr
    );
}

/// Re-anchored through a `--source` clone at a commit the configured clone lacks, a module
/// would be `commit_missing` on the next plain run: `--write` says so.
#[test]
fn write_through_a_source_clone_names_the_commit_the_configured_clone_lacks() {
    let f = Fixture::new();
    git(f.root(), &["clone", "-q", "repo", "ahead"]);
    let ahead = f.root().join("ahead");
    std::fs::write(ahead.join("NOTES.txt"), "uncited\n").expect("write");
    git(&ahead, &["add", "NOTES.txt"]);
    git(&ahead, &["commit", "-q", "-m", "notes"]);
    let new = git(&ahead, &["rev-parse", "HEAD"]);
    let r = f.run(&["drift", "--source", "drift/core=../ahead", "--write"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(&format!(
            "note: drift/core now pins {}, which the clone ontoly.toml maps (\"drift/core\" = \"../repo\") does not hold: fetch it there, or every run without --source drift/core=../ahead will find its references commit_missing",
            &new.trim()[..12]
        )),
        "{}",
        r.stdout
    );
    // Without the override, the configured clone would not know it.
    let plain = f.run(&["validate", "--require-verified"]);
    assert_eq!(plain.code, 1, "{}", plain.stdout);
    assert!(plain.stdout.contains("commit_missing"), "{}", plain.stdout);
    // A write through the configured clone has nothing to say.
    let f = Fixture::new();
    let r = f.run(&["drift", "--to", "v2", "--write"]);
    assert!(!r.stdout.contains("note:"), "{}", r.stdout);
}

/// `HEAD~1`, `v2^`, as people type them for "the change before".
#[test]
fn ancestry_suffixes_name_commits_as_git_does() {
    let f = Fixture::new();
    let ids = f.run(&[
        "impact",
        "--from",
        FIXTURE_BASE,
        "--to",
        FIXTURE_LATER,
        "--format",
        "json",
    ]);
    assert_eq!(ids.code, 0, "{}", ids.stderr);
    let suffixed = f.run(&[
        "impact", "--from", "HEAD~2", "--to", "v2^0", "--format", "json",
    ]);
    assert_eq!(suffixed.code, 0, "{}", suffixed.stderr);
    assert_eq!(suffixed.stdout, ids.stdout);
    let one_back = f.run(&[
        "impact", "--from", "v2^^", "--to", "HEAD~", "--format", "json",
    ]);
    assert_eq!(json(&one_back)["from"], FIXTURE_BASE, "{}", one_back.stdout);
    let v = json(&f.run(&["drift", "--to", "HEAD~2", "--format", "json"]));
    assert_eq!(v["to"]["drift/core"], FIXTURE_BASE);
    for (rev, says) in [
        // HEAD is there; only its ancestry is too short (it said "no such branch, tag or
        // commit" of a HEAD that exists: sphinx-copybutton walk, stop 46).
        (
            "HEAD~9",
            "the history has no such ancestor (the `~N` or `^N` goes past its first commit",
        ),
        (
            "nope~1",
            "no such branch, tag or commit in the repository (branches: feature, main; tags: v1, v2)",
        ),
        ("HEAD~x", "not a branch, tag or commit"),
    ] {
        let r = f.run(&["impact", "--from", rev, "--to", "HEAD"]);
        assert_eq!(r.code, 2, "{rev}");
        assert!(r.stderr.contains(says), "{rev}: {}", r.stderr);
    }
    // A named revision that does not resolve is named as typed (an empty one said
    // "--to : not a branch", its NAME lost: new-user walk, stop 41); a NAME no reference is
    // under says so, even when it is a kind of name (`repo-content`) the workspace lacks.
    for (to, says) in [
        (
            "drift/core=",
            "error: --to drift/core=: not a branch, tag or commit",
        ),
        (
            "repo-content=HEAD",
            "error: --to repo-content=…: no reference of the workspace is under \"repo-content\"",
        ),
    ] {
        let r = f.run(&["drift", "--to", to]);
        assert_eq!(r.code, 2, "{to}: {}", r.stderr);
        assert!(r.stderr.starts_with(says), "{to}: {}", r.stderr);
    }
}

#[test]
fn references_that_cannot_be_compared_are_unverifiable_with_a_reason() {
    let f = Fixture::new();
    let registry = f.read("sources/repo/index.yaml");
    // drift/app unpinned, drift/core pinned to a commit the clone does not have.
    let edited = registry
        .replacen(&format!("ref: \"{FIXTURE_BASE}\""), "ref: \"main\"", 2)
        .replacen("ref: \"main\"", &format!("ref: \"{FIXTURE_BASE}\""), 1);
    let edited = edited.replacen(
        &format!("ref: \"{FIXTURE_BASE}\"\n      - name: pkg"),
        "ref: \"1111111111111111111111111111111111111111\"\n      - name: pkg",
        1,
    );
    std::fs::write(f.ws().join("sources/repo/index.yaml"), &edited).expect("write");
    let v = json(&f.run(&["drift", "--to", "v2", "--format", "json"]));
    let app = reference(&v, "app", "doubling", 0);
    assert_eq!(app["status"], "unverifiable");
    assert!(
        app["reason"].as_str().unwrap_or("").starts_with("unpinned"),
        "{app}"
    );
    let core = reference(&v, "core", "engine", 0);
    assert_eq!(core["status"], "unverifiable");
    assert!(
        core["reason"]
            .as_str()
            .unwrap_or("")
            .contains("not in the local clone"),
        "{core}"
    );
    // Without the clone, everything is unverifiable, and says why.
    std::fs::remove_dir_all(f.root().join("repo")).expect("rm");
    std::fs::write(f.ws().join("ontoly.toml"), "").expect("write");
    let v = json(&f.run(&["drift", "--format", "json"]));
    assert_eq!(v["counts"]["unverifiable"], 26, "{v}");
    let r = reference(&v, "codec", "encoding", 0);
    assert!(
        r["reason"]
            .as_str()
            .unwrap_or("")
            .contains("no local clone of drift/pkg"),
        "{r}"
    );
}

/// A `source_ref` written with a credential (`repo-content:https://u:p@host/…`) never resolves,
/// and no output prints the credential: drift's and impact's reports show the reference as the
/// graph and `validate` do (the drift JSON printed it as written).
#[test]
fn a_source_ref_with_a_credential_is_reported_redacted() {
    let f = Fixture::new();
    let structure = f.read("knowledge/structure.yaml");
    let secret = "repo-content:https://carol:PWsecret9@git.example.com/team/kb@1784b2276ea64b6a81d24baa7d05fd91fcc76830";
    let edited = structure.replacen(
        "      - id: doubling\n        references:\n",
        &format!(
            "      - id: doubling\n        references:\n          - source_ref: \"{secret}\"\n            locator:\n              path: app.py\n              start_line: 1\n              end_line: 2\n"
        ),
        1,
    );
    assert_ne!(edited, structure);
    std::fs::write(f.ws().join("knowledge/structure.yaml"), edited).expect("write");
    for format in ["json", "text", "github", "sarif"] {
        for args in [
            vec!["drift", "--to", "v2", "--format", format],
            vec!["impact", "--from", "v1", "--to", "v2", "--format", format],
        ] {
            let r = f.run(&args);
            assert!(
                !r.stdout.contains("PWsecret9") && !r.stderr.contains("PWsecret9"),
                "{args:?} prints the credential:\n{}{}",
                r.stdout,
                r.stderr
            );
        }
    }
    let v = json(&f.run(&["drift", "--to", "v2", "--format", "json"]));
    let r = reference(&v, "app", "doubling", 0);
    assert_eq!(r["status"], "unverifiable", "{r}");
    // Unresolved, so shown as `validate` shows it: by its kind only.
    assert_eq!(r["sourceRef"], "repo-content:***", "{r}");
}

/// The lines that differ between two texts of the same line count.
fn changed_lines(a: &str, b: &str) -> Vec<(String, String)> {
    assert_eq!(a.lines().count(), b.lines().count(), "line count");
    a.lines()
        .zip(b.lines())
        .filter(|(x, y)| x != y)
        .map(|(x, y)| (x.to_string(), y.to_string()))
        .collect()
}

#[test]
fn write_re_anchors_the_surviving_modules_and_is_idempotent() {
    let f = Fixture::new();
    let (registry, structure) = (
        f.read("sources/repo/index.yaml"),
        f.read("knowledge/structure.yaml"),
    );
    let r = f.run(&["drift", "--to", "v2", "--write", "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r);
    let modules: Vec<&str> = v["reanchor"]["modules"]
        .as_array()
        .expect("modules")
        .iter()
        .filter_map(|m| m["module"].as_str())
        .collect();
    assert_eq!(modules, ["drift/core", "drift/pkg", "drift/root"]);
    let review = &v["reanchor"]["review"];
    assert_eq!(review.as_array().map(Vec::len), Some(1));
    assert_eq!(review[0]["module"], "drift/app");
    // The sections to review: every changed or missing reference of drift/app, with suggestions.
    let listed: Vec<(String, String)> = review[0]["references"]
        .as_array()
        .expect("refs")
        .iter()
        .map(|r| {
            (
                r["sectionId"].as_str().unwrap_or("").to_string(),
                r["status"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let expected: Vec<(String, String)> = v["references"]
        .as_array()
        .expect("refs")
        .iter()
        .filter(|r| {
            r["sourceRef"] == "repo:drift/app"
                && (r["status"] == "changed" || r["status"] == "missing")
        })
        .map(|r| {
            (
                r["sectionId"].as_str().unwrap_or("").to_string(),
                r["status"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(listed, expected);
    assert_eq!(listed.len(), 9);
    assert!(review[0]["references"]
        .as_array()
        .expect("refs")
        .iter()
        .any(|r| r["suggestion"]["path"] == "src/helpers.py"));
    // Only the scalars changed: three refs, one subpath; moved locators' lines and one path.
    let later = format!("ref: \"{FIXTURE_LATER}\"");
    let reg = changed_lines(&registry, &f.read("sources/repo/index.yaml"));
    assert_eq!(reg.len(), 4, "{reg:?}");
    assert!(
        reg.iter()
            .all(|(_, new)| new.ends_with(&later) || new.ends_with("subpath: \"vendor/pkg\"")),
        "{reg:?}"
    );
    let st = changed_lines(&structure, &f.read("knowledge/structure.yaml"));
    let mut keys: Vec<&str> = st
        .iter()
        .map(|(_, new)| new.trim().split(':').next().unwrap_or(""))
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "end_line",
            "end_line",
            "end_line",
            "path",
            "start_line",
            "start_line",
            "start_line"
        ],
        "{st:?}"
    );
    // validate is clean, every reference verifies (the re-anchored ones at the later commit).
    let val = f.run(&["validate", "--format", "json"]);
    assert_eq!(val.code, 0, "{}", val.stdout);
    assert_eq!(json(&val)["summary"]["error"], 0);
    let stats = json(&f.run(&["stats", "--format", "json"]));
    assert_eq!(stats["referencesByStatus"]["verified"], 26, "{stats}");
    // At the later commit, the re-anchored modules' references are unchanged.
    let again = json(&f.run(&["drift", "--to", "v2", "--format", "json"]));
    for r in again["references"].as_array().expect("refs") {
        if r["sourceRef"] != "repo:drift/app" {
            assert_eq!(r["status"], "unchanged", "{r}");
        }
    }
    // A second --write writes nothing.
    let (registry2, structure2) = (
        f.read("sources/repo/index.yaml"),
        f.read("knowledge/structure.yaml"),
    );
    let second = f.run(&["drift", "--to", "v2", "--write"]);
    assert_eq!(second.code, 0);
    assert!(
        second.stdout.contains("re-anchored: 0 module(s)"),
        "{}",
        second.stdout
    );
    assert!(
        second
            .stdout
            .contains("already current: drift/core, drift/pkg, drift/root"),
        "{}",
        second.stdout
    );
    assert!(
        second.stdout.contains("nothing written"),
        "{}",
        second.stdout
    );
    // drift/app is held back by deleted code: the review says what moves it.
    assert!(
        second
            .stdout
            .contains("review: 1 module(s) left as they were\n  drift/app: ")
            && second.stdout.contains(
                "a module moves only when all its references can: remove each one listed"
            ),
        "{}",
        second.stdout
    );
    assert_eq!(f.read("sources/repo/index.yaml"), registry2);
    assert_eq!(f.read("knowledge/structure.yaml"), structure2);
}

#[test]
fn write_on_requests_writes_nothing_and_lists_both_modules_for_review() {
    // On the development corpus no module is fully re-anchorable: both have changed
    // references (requests/lib: 56 of 248 changed; requests/root: 4 of 14).
    let dir = requests_copy();
    let before = std::fs::read(dir.path().join("ws/knowledge/structure.yaml")).expect("read");
    let registry = std::fs::read(dir.path().join("ws/sources/repo/index.yaml")).expect("read");
    let r = run_in(
        dir.path(),
        &[
            "--workspace",
            "ws",
            "--no-cache",
            "drift",
            "--to",
            "later",
            "--write",
            "--format",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r);
    assert_eq!(v["reanchor"]["modules"], serde_json::json!([]));
    let review = v["reanchor"]["review"].as_array().expect("review");
    let by_module: Vec<(String, usize)> = review
        .iter()
        .map(|m| {
            (
                m["module"].as_str().unwrap_or("").to_string(),
                m["references"].as_array().map_or(0, Vec::len),
            )
        })
        .collect();
    let changed = |module: &str| {
        v["references"]
            .as_array()
            .expect("refs")
            .iter()
            .filter(|r| r["sourceRef"] == format!("repo:{module}") && r["status"] == "changed")
            .count()
    };
    assert_eq!(
        by_module,
        vec![
            ("requests/lib".to_string(), changed("requests/lib")),
            ("requests/root".to_string(), changed("requests/root"))
        ]
    );
    assert_eq!(changed("requests/lib") + changed("requests/root"), 60);
    assert_eq!(
        std::fs::read(dir.path().join("ws/knowledge/structure.yaml")).expect("read"),
        before
    );
    assert_eq!(
        std::fs::read(dir.path().join("ws/sources/repo/index.yaml")).expect("read"),
        registry
    );
}

#[test]
fn annotations_and_sarif_point_at_repository_relative_paths() {
    // The workspace inside a git repository, as `kb/`.
    let f = Fixture::new();
    let outer = f.root();
    std::fs::rename(outer.join("ws"), outer.join("kb")).expect("mv");
    std::fs::write(outer.join(".gitignore"), "repo/\n").expect("write");
    git(outer, &["init", "-q", "-b", "main"]);
    git(outer, &["add", "-A"]);
    git(outer, &["commit", "-q", "-m", "kb"]);
    let run = |args: &[&str]| {
        run_in(
            outer,
            &[&["--workspace", "kb", "--no-cache"][..], args].concat(),
        )
    };
    let gh = run(&["drift", "--to", "v2", "--format", "github"]);
    assert_eq!(gh.code, 0, "{}", gh.stderr);
    let first = gh.stdout.lines().next().unwrap_or("");
    assert!(
        first.starts_with("::notice file=kb/knowledge/structure.yaml,line=18,"),
        "{first}"
    );
    assert!(
        gh.stdout.contains(
            "::warning file=kb/knowledge/structure.yaml,line=26,endLine=26,col=1,title=ontoly drift%3A changed::architecture/app.md#tripling cites src/app.py:12-15 at 371a34a4595b (compared with 7ae5d7cd6a76), changed: review lines 14-17"
        ),
        "{}",
        gh.stdout
    );
    let sarif: Value =
        serde_json::from_str(&run(&["drift", "--to", "v2", "--format", "sarif"]).stdout)
            .expect("json");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 21, "5 unchanged of 26 are not results");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "kb/knowledge/structure.yaml"
    );
    validate_sarif(&sarif);
    // Impact annotations sit on the changed lines of the source repository.
    let im = run(&["impact", "--from", "v1", "--to", "v2", "--format", "github"]);
    assert!(im.stdout.contains("::warning file=src/app.py,line=15,endLine=16,col=1,title=ontoly impact::this change touches code that kb/knowledge/architecture/app.md#tripling describes"), "{}", im.stdout);
    let sarif: Value = serde_json::from_str(
        &run(&["impact", "--from", "v1", "--to", "v2", "--format", "sarif"]).stdout,
    )
    .expect("json");
    assert_eq!(
        sarif["runs"][0]["results"].as_array().map(Vec::len),
        Some(14),
        "9 references whose lines change, 5 whose files are renamed (data/table.txt's turned \
         from CRLF to LF: no line changed)"
    );
    // A renamed file's references sit on their lines at the file's new path.
    assert!(
        im.stdout.contains(
            "::warning file=docs/manual.md,line=1,endLine=5,col=1,title=ontoly impact::this \
             change renames the file that kb/knowledge/guides/docs.md#guide cites \
             (docs/guide.md:1-5 is now docs/manual.md:1-5"
        ),
        "{}",
        im.stdout
    );
    validate_sarif(&sarif);
}

fn validate_sarif(log: &Value) {
    let text = std::fs::read_to_string(testdata().join("schemas/sarif-schema-2.1.0.json"))
        .expect("schema");
    let schema: Value = serde_json::from_str(&text).expect("schema is json");
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("compiles");
    let errors: Vec<String> = validator
        .iter_errors(log)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn impact_between_two_commits_and_of_a_diff() {
    let f = Fixture::new();
    let r = f.run(&["impact", "--from", "v1", "--to", "v2", "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r);
    let touched: Vec<String> = v["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .flat_map(|p| {
            p["sections"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(move |s| {
                    s["references"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(move |a| {
                            format!(
                                "{}#{}[{}] {}{}",
                                p["articleId"].as_str().unwrap_or(""),
                                s["sectionId"].as_str().unwrap_or(""),
                                a["refIndex"],
                                a["via"].as_str().unwrap_or(""),
                                if a["deleted"] == true { " deleted" } else { "" }
                            )
                        })
                })
        })
        .collect();
    assert_eq!(
        touched,
        [
            "app#tripling[0] range",
            "app#store[0] range",
            "app#store[1] range",
            "app#summing[0] range",
            "app#helpers[0] range",
            "app#files[0] path",
            "app#files[1] range",
            "app#files[2] path",
            "app#trimming[0] range",
            "app#legacy[0] range deleted",
            "app#legacy[1] range deleted",
            "codec#encoding[0] path",
            "codec#encoding[1] path",
            "docs#guide[0] path",
        ]
    );
    assert_eq!(
        f.run(&["impact", "--from", "v1", "--to", "v2", "--fail-on-affected"])
            .code,
        3
    );
    let text = f.run(&["impact", "--from", "v1", "--to", "v2"]).stdout;
    assert!(
        text.contains("[1] src/gone.py:9-13 in function `legacy_mode` is deleted with its file: src/gone.py @@ -1,13 +0,0 @@"),
        "{text}"
    );
    // The same change as a diff, with context, read from a file and from standard input.
    let diff = git(&f.root().join("repo"), &["diff", "-U5", "v1", "v2"]);
    let file = f.root().join("change.diff");
    std::fs::write(&file, &diff).expect("write");
    let d = json(&f.run(&[
        "impact",
        "--from",
        "v1",
        "--diff",
        file.to_str().unwrap_or(""),
        "--format",
        "json",
    ]));
    assert_eq!(d["pages"], v["pages"]);
    assert_eq!(d["counts"], v["counts"]);
    // Files the change adds are counted apart: they hold no cited line.
    let added = git(
        &f.root().join("repo"),
        &["diff", "--name-only", "-M", "--diff-filter=A", "v1", "v2"],
    );
    let added = added.lines().count();
    assert!(added > 0, "the recipe adds files");
    assert_eq!(v["counts"]["added"], added, "{}", v["counts"]);
    assert!(
        text.contains(&format!("({added} added file(s) hold no cited line)")),
        "{text}"
    );
    let mut child = common::command()
        .current_dir(f.root())
        .args([
            "--workspace",
            "ws",
            "--no-cache",
            "impact",
            "--from",
            "v1",
            "--diff",
            "-",
            "--format",
            "json",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(diff.as_bytes())
            .expect("write");
    }
    let out = child.wait_with_output().expect("waits");
    let s: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(s["pages"], v["pages"]);
    // Read against the clone's HEAD (v2), that diff's old side (v1) is not what its `index`
    // lines name: refused with the files and the way out, not answered on the wrong lines.
    let wrong = refused(f.run(&["impact", "--diff", file.to_str().unwrap_or("")]));
    assert!(
        wrong.stderr.contains("the diff was not made against")
            && wrong.stderr.contains("the diff's old side is blob")
            && wrong.stderr.contains("--from"),
        "{}",
        wrong.stderr
    );
    // A diff of two directories names files by absolute paths: that is what is said.
    let abs = f.root().join("abs.diff");
    std::fs::write(
        &abs,
        "--- /tmp/old/src/app.py\n+++ /tmp/new/src/app.py\n@@ -1 +1 @@\n-a\n+b\n",
    )
    .expect("write");
    let r = refused(f.run(&[
        "impact",
        "--from",
        "v1",
        "--diff",
        abs.to_str().unwrap_or(""),
    ]));
    assert!(
        r.stderr
            .contains("the diff names /tmp/old/src/app.py, an absolute path, where a repository-relative one belongs"),
        "{}",
        r.stderr
    );
    // Half a change: the missing half is named.
    let half = refused(f.run(&["impact", "--from", "v1"]));
    assert!(
        half.stderr
            .starts_with("error: impact needs the new side of the change from v1\nhint: give --from A --to B, or --diff FILE"),
        "{}",
        half.stderr
    );
    // No change, no impact.
    let none = json(&f.run(&["impact", "--from", "v2", "--to", "v2", "--format", "json"]));
    assert_eq!(none["pages"], serde_json::json!([]));
}

/// Each hunk that touches a cited range is marked where it is; a gate run in a shallow clone
/// that lacks the pinned commits is refused, not passed, and without the gate the run says
/// how many references it could not assess (both found in the stop-44 CI walk).
#[test]
fn impact_marks_every_hunk_and_says_what_it_could_not_assess() {
    let f = Fixture::new();
    // Two lines of app.md#tripling's range (src/app.py:12-15 at v1) edited apart: two hunks.
    let work = f.root().join("work");
    git(f.root(), &["clone", "-q", "repo", "work"]);
    git(&work, &["checkout", "-q", "v1"]);
    let app = work.join("src/app.py");
    let text = std::fs::read_to_string(&app).expect("read");
    let edited = text
        .replace(
            "\"\"\"Beta triples.\"\"\"",
            "\"\"\"Beta multiplies by three.\"\"\"",
        )
        .replace(
            "    y = x * 3\n    return y\n",
            "    y = x * 3\n    return int(y)\n",
        );
    assert_ne!(edited, text);
    std::fs::write(&app, edited).expect("write");
    let diff = f.root().join("two.diff");
    std::fs::write(&diff, git(&work, &["diff", "-U0"])).expect("write");
    let diff = diff.to_str().unwrap_or("");
    let gh = f.run(&[
        "impact", "--from", "v1", "--diff", diff, "--format", "github",
    ]);
    assert_eq!(gh.code, 0, "{}", gh.stderr);
    let marked: Vec<&str> = gh
        .stdout
        .lines()
        .filter(|l| l.starts_with("::warning file=src/app.py"))
        .collect();
    assert_eq!(marked.len(), 2, "{}", gh.stdout);
    assert!(
        marked[0].starts_with("::warning file=src/app.py,line=13,endLine=13,")
            && marked[0].ends_with("app.md#tripling describes (src/app.py:12-15, via range; @@ -13 +13 @@, hunk 1 of 2)")
            && marked[1].starts_with("::warning file=src/app.py,line=15,endLine=15,")
            && marked[1].ends_with("@@ -15 +15 @@, hunk 2 of 2)"),
        "{}",
        gh.stdout
    );
    // Every reference was assessed: nothing to warn about.
    assert!(!gh.stdout.contains("not assessed"), "{}", gh.stdout);
    let sarif: Value = serde_json::from_str(
        &f.run(&[
            "impact", "--from", "v1", "--diff", diff, "--format", "sarif",
        ])
        .stdout,
    )
    .expect("json");
    let prints: Vec<&Value> = sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| &r["partialFingerprints"]["ontoly/v1"])
        .collect();
    assert_eq!(prints.len(), 2);
    assert_ne!(prints[0], prints[1], "each hunk's result is its own");
    validate_sarif(&sarif);
    let v = json(&f.run(&["impact", "--from", "v1", "--diff", diff, "--format", "json"]));
    assert_eq!(v["counts"]["assessed"], 26, "{}", v["counts"]);

    // A CI checkout of one commit: the clone has none of the pinned commits.
    git(
        f.root(),
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            &format!("file://{}", f.root().join("repo").display()),
            "shallow",
        ],
    );
    let toml = f.ws().join("ontoly.toml");
    let config = std::fs::read_to_string(&toml).expect("read");
    std::fs::write(&toml, config.replace("\"../repo\"", "\"../shallow\"")).expect("write");
    let gate = refused(f.run(&[
        "impact",
        "--from",
        "HEAD",
        "--to",
        "HEAD",
        "--fail-on-affected",
    ]));
    assert!(
        gate.stderr.starts_with(
            "error: the impact gate (--fail-on-affected) assessed nothing: none of the 26 references of drift could be located at the change's old side (26 of them: the pinned commit 371a34a4595b is not in the local clone; the clone is shallow: fetch its history (`git fetch --unshallow`; with actions/checkout, `fetch-depth: 0`))"
        ),
        "{}",
        gate.stderr
    );
    let gh = f.run(&[
        "impact", "--from", "HEAD", "--to", "HEAD", "--format", "github",
    ]);
    assert_eq!(gh.code, 0, "{}", gh.stderr);
    assert!(
        gh.stdout.starts_with(
            "::warning title=ontoly impact::26 of 26 references of drift were not assessed"
        ) && gh
            .stdout
            .contains("the change may touch pages this run does not name"),
        "{}",
        gh.stdout
    );
    let sarif: Value = serde_json::from_str(
        &f.run(&[
            "impact", "--from", "HEAD", "--to", "HEAD", "--format", "sarif",
        ])
        .stdout,
    )
    .expect("json");
    let note = &sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"][0];
    assert_eq!(note["level"], "warning");
    assert!(
        note["message"]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("26 of 26 references of drift were not assessed")),
        "{note}"
    );
    validate_sarif(&sarif);
    // `validate` says the same of each reference.
    let validate = f.run(&["validate"]);
    assert!(
        validate.stdout.contains("the local clone does not contain the pinned commit; the clone is shallow: fetch its history"),
        "{}",
        validate.stdout
    );
}

/// A run refused as a usage error (exit 2, nothing on stdout).
fn refused(r: Run) -> Run {
    assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{}", r.stderr);
    r
}

#[test]
fn impact_through_the_symbol_behind_a_range() {
    // duplicates[0] cites lines 2-4 of first() in src/dup.py at v1; at v2 a copy of the block
    // was added above, so drift maps the range to 10-12, inside first() at 9-13. A diff
    // against v2 that edits line 13 (`return None`) leaves the cited lines alone but changes
    // the function they stand for.
    let f = Fixture::new();
    let dup = git(&f.root().join("repo"), &["show", "v2:src/dup.py"]);
    assert_eq!(dup.lines().nth(12), Some("    return None"));
    let diff = "--- a/src/dup.py\n+++ b/src/dup.py\n@@ -12,2 +12,2 @@\n         return value\n-    return None\n+    return 0\n";
    let file = f.root().join("edit.diff");
    std::fs::write(&file, diff).expect("write");
    let path = file.to_str().unwrap_or("");
    let v = json(&f.run(&["impact", "--from", "v2", "--diff", path, "--format", "json"]));
    assert_eq!(v["counts"]["references"], 1, "{v}");
    let s = &v["pages"][0]["sections"][0];
    assert_eq!(s["sectionId"], "duplicates");
    let a = &s["references"][0];
    assert_eq!(a["via"], "symbol");
    assert_eq!(
        a["at"],
        serde_json::json!({"path": "src/dup.py", "startLine": 10, "endLine": 12})
    );
    assert_eq!(a["symbol"]["qualified"], "first");
    assert_eq!(a["hunks"][0]["header"], "@@ -13 +13 @@");
    assert_eq!(v["counts"].get("leftOut"), None, "{v}");
    // Asked for touched lines only: the reference touched through its function is left out,
    // and counted, so a gate passing on it says why; with --fail-on-affected it passes.
    let only = json(&f.run(&[
        "impact",
        "--from",
        "v2",
        "--diff",
        path,
        "--lines-only",
        "--format",
        "json",
    ]));
    assert_eq!(
        (&only["counts"]["references"], &only["counts"]["leftOut"]),
        (&serde_json::json!(0), &serde_json::json!(1)),
        "{only}"
    );
    let gate = f.run(&[
        "impact",
        "--from",
        "v2",
        "--diff",
        path,
        "--lines-only",
        "--fail-on-affected",
    ]);
    assert_eq!(gate.code, 0, "{gate:?}");
    assert!(
        gate.stdout.contains("affect 0 section(s) on 0 page(s); 1 reference(s) touched only through the definition around their lines left out (--lines-only)"),
        "{}",
        gate.stdout
    );
    // Without --from, the diff is against the clone's HEAD (main = v2): the same answer.
    let head = json(&f.run(&["impact", "--diff", path, "--format", "json"]));
    assert_eq!(head["pages"], v["pages"]);
    assert_eq!(head["from"], FIXTURE_LATER);
    // A blank line added in the same place changes no code of first(): nothing is affected.
    let blank = f.root().join("blank.diff");
    std::fs::write(
        &blank,
        "--- a/src/dup.py\n+++ b/src/dup.py\n@@ -12,2 +12,3 @@\n         return value\n+\n     return None\n",
    )
    .expect("write");
    let v = json(&f.run(&[
        "impact",
        "--from",
        "v2",
        "--diff",
        blank.to_str().unwrap_or(""),
        "--format",
        "json",
    ]));
    assert_eq!(v["counts"]["references"], 0, "{v}");
    // A diff without `index` lines whose quoted lines are not the file's at --from does not
    // apply there: refused, saying which line differs, not laid over other lines.
    let stale = diff.replace("         return value\n", "         return other\n");
    let stale_file = f.root().join("stale.diff");
    std::fs::write(&stale_file, &stale).expect("write");
    let wrong = refused(f.run(&[
        "impact",
        "--from",
        "v2",
        "--diff",
        stale_file.to_str().unwrap_or(""),
    ]));
    assert!(
        wrong.stderr.contains("the diff was not made against")
            && wrong
                .stderr
                .contains(r#"src/dup.py (line 12 is "        return value" there, the diff has "        return other")"#),
        "{}",
        wrong.stderr
    );
    // The JSON impact of a diff of src/app.py against v2, and one section of it.
    let impact_of = |name: &str, diff: String| -> Value {
        let file = f.root().join(name);
        std::fs::write(&file, format!("--- a/src/app.py\n+++ b/src/app.py\n{diff}"))
            .expect("write");
        json(&f.run(&[
            "impact",
            "--from",
            "v2",
            "--diff",
            file.to_str().unwrap_or(""),
            "--format",
            "json",
        ]))
    };
    let section = |v: &Value, id: &str| -> Value {
        (v["pages"][0]["sections"].as_array().into_iter().flatten())
            .find(|s| s["sectionId"] == id)
            .cloned()
            .unwrap_or_default()
    };
    // Python's blocks are indentation: a line added after the last line of `Store.get` (cited
    // at 30-32 of v2, the class's last method) and indented as its body continues it; a
    // method added after it is the class's, which the range does not stand for (Python walk,
    // stop 48: a class cited whole gaining a method was affected by nothing).
    let appended = |name: &str, added: &str| {
        let header = format!("@@ -32 +32,{} @@", added.lines().count() + 1);
        impact_of(
            name,
            format!("{header}\n         return self.items.get(key)\n{added}"),
        )
    };
    let v = appended("tail.diff", "+        self.hits += 1\n");
    let store = section(&v, "store");
    assert_eq!(store["references"][0]["via"], "range", "{v}");
    assert_eq!(
        store["references"][0]["hunks"][0]["header"],
        "@@ -32,0 +33 @@"
    );
    let v = appended(
        "member.diff",
        "+\n+    def delete(self, key):\n+        self.items.pop(key)\n",
    );
    assert_eq!(v["counts"]["references"], 0, "{v}");
    // A decorator added over `alpha` (cited whole at 8-11 of v2) changes it; a comment
    // added there does not (Java walk, stop 48: `@Deprecated` over a method affected nothing).
    let above = |name: &str, line: &str| impact_of(name, format!("@@ -7,0 +8 @@\n+{line}\n"));
    let v = above("decorator.diff", "@functools.cache");
    let doubling = section(&v, "doubling");
    assert_eq!(doubling["references"][0]["via"], "symbol", "{v}");
    assert_eq!(doubling["references"][0]["symbol"]["qualified"], "alpha");
    let v = above("comment.diff", "# Doubles; see beta.");
    assert_eq!(v["counts"]["references"], 0, "{v}");
    // The text names the page, the section, the symbol and the hunk.
    let text = f.run(&["impact", "--diff", path]).stdout;
    assert!(text.contains("architecture/app.md"), "{text}");
    assert!(
        text.contains(
            "[0] src/dup.py:10-12 (cited as src/dup.py:2-4 at its pinned commit) in function `first` touched via symbol: src/dup.py @@ -13 +13 @@"
        ),
        "{text}"
    );
}

#[test]
fn packs_mark_drifted_citations_and_read_pages_at_the_knowledge_commit() {
    let f = Fixture::new();
    let q = "How does the Store get and put values?";
    // Outside git: no knowledge commit, no page read; the clone's HEAD (v2) is not the pinned
    // commit (v1), so the citations carry their drift.
    let v = json(&f.run(&["evidence", q, "--format", "json"]));
    assert_eq!(v["provenance"]["knowledgeCommit"], Value::Null);
    let first_section = v["stableIds"]
        .as_array()
        .expect("ids")
        .iter()
        .find(|i| i.as_str().is_some_and(|i| i.starts_with("section:")))
        .cloned();
    assert_eq!(
        first_section,
        Some(Value::from("section:architecture/app.md#store"))
    );
    let reads = v["filesToInspect"].as_array().expect("reads");
    let put = reads
        .iter()
        .find(|r| r["path"] == "src/app.py" && r["startLine"] == 28)
        .expect("Store.put is a read");
    assert_eq!(put["drift"]["status"], "changed");
    assert_eq!(put["drift"]["head"], FIXTURE_LATER);
    assert_eq!(
        put["drift"]["now"],
        serde_json::json!({"path": "src/app.py", "startLine": 26, "endLine": 28})
    );
    let get = reads
        .iter()
        .find(|r| r["path"] == "src/app.py" && r["startLine"] == 24)
        .expect("Store.get is a read");
    assert_eq!(get["drift"]["status"], "moved");
    let answer = v["answer"].as_str().unwrap_or("");
    assert!(
        answer.contains("Parts of this answer describe older code"),
        "{answer}"
    );
    let text = f.run(&["evidence", q]).stdout;
    assert!(
        text.contains("drift: changed at HEAD 7ae5d7cd6a76 (src/app.py:26-28)"),
        "{text}"
    );

    // The marks are computed once per graph and HEAD commits, then read from the cache.
    let cached = |args: &[&str]| run_in(f.root(), &[&["--workspace", "ws"][..], args].concat());
    let first = cached(&["evidence", q, "--format", "json"]);
    let artifacts: Vec<String> = std::fs::read_dir(f.ws().join(".ontoly/artifacts"))
        .expect("artifacts")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("drift-marks"))
        .collect();
    assert_eq!(artifacts.len(), 1, "{artifacts:?}");
    assert_eq!(
        cached(&["evidence", q, "--format", "json"]).stdout,
        first.stdout
    );
    assert_eq!(json(&first)["filesToInspect"], v["filesToInspect"]);

    // At the pinned commits, nothing is marked and the answer says nothing about drift.
    std::fs::write(f.ws().join("ontoly.toml"), "[sources]\n\"drift/app\" = \"../pinned\"\n\"drift/core\" = \"../pinned\"\n\"drift/root\" = \"../pinned\"\n\"drift/pkg\" = \"../pinned\"\n").expect("write");
    git(f.root(), &["clone", "-q", "--bare", "repo", "pinned"]);
    git(
        &f.root().join("pinned"),
        &["update-ref", "--no-deref", "HEAD", FIXTURE_BASE],
    );
    let at_pin = json(&f.run(&["evidence", q, "--format", "json"]));
    assert!(at_pin["filesToInspect"]
        .as_array()
        .expect("reads")
        .iter()
        .all(|r| r.get("drift").is_none()));
    assert!(!at_pin["answer"]
        .as_str()
        .unwrap_or("")
        .contains("older code"));

    // Inside git: the knowledge commit is the workspace repository's HEAD, and the top
    // section's page is read at that commit by the first next step (and by no
    // `filesToInspect` entry).
    std::fs::write(f.root().join(".gitignore"), "repo/\npinned/\n.ontoly/\n").expect("write");
    git(f.root(), &["init", "-q", "-b", "main"]);
    git(f.root(), &["add", "-A"]);
    git(f.root(), &["commit", "-q", "-m", "knowledge"]);
    let head = git(f.root(), &["rev-parse", "HEAD"]).trim().to_string();
    let v = json(&f.run(&["evidence", q, "--format", "json"]));
    assert_eq!(v["provenance"]["knowledgeCommit"], head.as_str());
    let page = &v["nextToolCalls"][0];
    assert_eq!(page["tool"], "read", "{}", v["nextToolCalls"]);
    let page = &page["arguments"];
    assert_eq!(page["path"], "ws/knowledge/architecture/app.md");
    assert_eq!(page["revision"], head.as_str());
    assert!(
        !v["filesToInspect"]
            .to_string()
            .contains("ws/knowledge/architecture/app.md"),
        "{}",
        v["filesToInspect"]
    );
    let repo = page["repository"].as_str().unwrap_or("").to_string();
    let (s, e) = (page["startLine"].to_string(), page["endLine"].to_string());
    let read = f.run(&[
        "read",
        "--repo",
        &repo,
        "--rev",
        &head,
        "ws/knowledge/architecture/app.md",
        "--start",
        &s,
        "--end",
        &e,
    ]);
    assert_eq!(read.code, 0, "{}", read.stderr);
    assert!(read.stdout.contains("## The store"), "{}", read.stdout);
}

/// A page with uncommitted edits has other lines on disk than at the knowledge commit, which
/// the pack's sections come from: no next step reads it at that commit, and its
/// `filesToInspect` entry names no commit, so an agent is never sent to lines of the committed
/// page that hold another section (`repro_dirty_pack.py` of the plugin-reads walk read
/// "Literal strings" where the pack promised "Multi-line strings").
#[test]
fn a_page_with_uncommitted_edits_is_no_read_at_the_knowledge_commit() {
    let f = Fixture::new();
    let q = "How does the Store get and put values?";
    std::fs::write(f.root().join(".gitignore"), "repo/\n.ontoly/\n").expect("write");
    git(f.root(), &["init", "-q", "-b", "main"]);
    git(f.root(), &["add", "-A"]);
    git(f.root(), &["commit", "-q", "-m", "knowledge"]);
    let head = git(f.root(), &["rev-parse", "HEAD"]).trim().to_string();
    let rel = "ws/knowledge/architecture/app.md";
    // The page's `filesToInspect` entry, when there is one.
    let entry_of = |v: &Value| {
        v["filesToInspect"]
            .as_array()
            .expect("reads")
            .iter()
            .find(|r| r["path"] == rel)
            .cloned()
    };
    let page_of = |v: &Value| entry_of(v).expect("the page is an entry");
    // The first next step's read of the page, when there is one: (revision, startLine).
    let read_of = |v: &Value| {
        let c = &v["nextToolCalls"][0];
        (c["tool"] == "read" && c["arguments"]["path"] == rel).then(|| {
            (
                c["arguments"]["revision"].clone(),
                c["arguments"]["startLine"].as_u64().unwrap_or(0),
            )
        })
    };
    let v = json(&f.run(&["evidence", q, "--format", "json"]));
    let (rev, committed_start) = read_of(&v).expect("the page is the first next step");
    assert_eq!(rev, head.as_str());
    assert_eq!(entry_of(&v), None, "said once");

    // Three lines above the sections, not committed: every section moves down by three.
    let disk = f.root().join(rel);
    let text = std::fs::read_to_string(&disk).expect("page");
    std::fs::write(
        &disk,
        text.replacen("# The app\n", "# The app\n\nDraft.\nDraft.\n", 1),
    )
    .expect("write");
    let v = json(&f.run(&["evidence", q, "--format", "json"]));
    assert_eq!(v["provenance"]["knowledgeCommit"], head.as_str());
    let page = page_of(&v);
    assert_eq!(page["commit"], Value::Null, "{page}");
    assert_eq!(page["startLine"], committed_start + 3);
    assert_eq!(read_of(&v), None, "{}", v["nextToolCalls"]);
    assert!(
        page["reason"]
            .as_str()
            .unwrap_or("")
            .contains("uncommitted changes"),
        "{page}"
    );
    let warned = v["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .find(|d| d["code"] == "KNOWLEDGE_PAGE_UNCOMMITTED")
        .cloned()
        .expect("a diagnostic names the page");
    assert_eq!(warned["severity"], "warning");
    assert!(
        warned["message"].as_str().unwrap_or("").contains(rel),
        "{warned}"
    );
    let text = f.run(&["evidence", q]).stdout;
    assert!(
        text.contains(&format!("{rel}:{}-", page["startLine"])),
        "{text}"
    );
    assert!(!text.contains(&format!("@{}:{rel}", &head[..12])), "{text}");
    // No command reads the page at the knowledge commit either.
    assert!(
        !v["suggestedCommands"].to_string().contains(&head),
        "{}",
        v["suggestedCommands"]
    );

    // Committed, the next step reads the page at the new knowledge commit again, and it is
    // no entry.
    git(f.root(), &["commit", "-q", "-am", "draft"]);
    let head = git(f.root(), &["rev-parse", "HEAD"]).trim().to_string();
    let v = json(&f.run(&["evidence", q, "--format", "json"]));
    assert_eq!(
        read_of(&v),
        Some((Value::from(head.as_str()), committed_start + 3))
    );
    assert_eq!(entry_of(&v), None);
    assert!(!v["diagnostics"]
        .to_string()
        .contains("KNOWLEDGE_PAGE_UNCOMMITTED"));

    // An untracked page has no blob at the knowledge commit: no commit either.
    git(f.root(), &["rm", "-q", "--cached", rel]);
    git(f.root(), &["commit", "-q", "-m", "untrack"]);
    let v = json(&f.run(&["evidence", q, "--format", "json"]));
    assert_eq!(page_of(&v)["commit"], Value::Null);
    assert_eq!(read_of(&v), None);
}

/// A read at the default branch of a file the workspace cites only at another commit says
/// which revision to pass: the stop-44 MCP walk read the branch's lines 361-363 of
/// `_config.py`, other code than the pinned commit's, and only the header's commit told it.
#[test]
fn a_read_of_the_branch_names_the_commit_the_pages_cite() {
    let f = Fixture::new();
    let note = format!(
        "the workspace cites src/dup.py at revision {FIXTURE_BASE}, not at this commit (the default branch)"
    );
    let r = f.run(&["read", "--repo", "acme/drift", "src/dup.py:1-3"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains(&format!("hint: {note}")), "{}", r.stderr);
    let v = json(&f.run(&[
        "read",
        "--repo",
        "acme/drift",
        "src/dup.py:1-3",
        "--format",
        "json",
    ]));
    assert!(v["note"].as_str().unwrap_or("").starts_with(&note), "{v}");
    // At the cited commit, or of a file no reference cites, nothing to say.
    let r = f.run(&[
        "read",
        "--repo",
        "acme/drift",
        "--rev",
        FIXTURE_BASE,
        "src/dup.py:1-3",
    ]);
    assert!(!r.stderr.contains("hint:"), "{}", r.stderr);
    let r = f.run(&[
        "read",
        "--repo",
        "acme/drift",
        "--rev",
        "main",
        "src/dup.py:1-3",
    ]);
    assert!(
        !r.stderr.contains("hint:"),
        "a revision asked for: {}",
        r.stderr
    );
    // The MCP tool: `note` in the structured result, the hint in its text.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ontoly"))
        .args(["mcp", "--workspace"])
        .arg(f.root().join("ws"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn ontoly mcp");
    let requests = [
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "drift-test", "version": "0"}}}),
        serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "read", "arguments": {"repository": "acme/drift", "path": "src/dup.py",
            "startLine": 1, "endLine": 3}}}),
        serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "read_many", "arguments": {"repository": "acme/drift",
            "items": [{"path": "src/dup.py", "startLine": 1, "endLine": 3}]}}}),
    ];
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().expect("stdin");
        for r in &requests {
            writeln!(stdin, "{r}").expect("write a request");
        }
    }
    let out = child.wait_with_output().expect("the server exits");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let response: serde_json::Value = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|m| m["id"] == 2)
        .unwrap_or_else(|| panic!("no response: {stdout}"));
    let result = &response["result"];
    assert_eq!(result["isError"], false, "{result}");
    assert!(
        (result["structuredContent"]["note"].as_str().unwrap_or("")).starts_with(&note),
        "{result}"
    );
    assert!(
        result["content"][0]["text"]
            .as_str()
            .unwrap_or("")
            .contains("hint: "),
        "{result}"
    );
    // read_many's items say the same, with read's header (`repro_readmany_note.py` of the
    // plugin-reads walk: no note, and a text naming neither repository nor commit).
    let many = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|m| m["id"] == 3)
        .unwrap_or_else(|| panic!("no response: {stdout}"));
    let result = &many["result"];
    let item = &result["structuredContent"]["items"][0];
    assert!(
        item["note"].as_str().unwrap_or("").starts_with(&note),
        "{result}"
    );
    let commit = result["structuredContent"]["commit"].as_str().unwrap_or("");
    let shown = result["content"][0]["text"].as_str().unwrap_or("");
    assert!(
        shown.contains(&format!("acme/drift@{commit} src/dup.py lines 1-3")),
        "{shown}"
    );
    assert!(shown.contains(&format!("hint: {note}")), "{shown}");

    // And on the command line: the JSON's item `note`, the hint in the text.
    let r = f.run(&["read-many", "--repo", "acme/drift", "src/dup.py:1-3"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains(&format!("hint: {note}")), "{}", r.stdout);
    let v = json(&f.run(&[
        "read-many",
        "--repo",
        "acme/drift",
        "src/dup.py:1-3",
        "--format",
        "json",
    ]));
    assert!(
        v["items"][0]["note"]
            .as_str()
            .unwrap_or("")
            .starts_with(&note),
        "{v}"
    );
    let r = f.run(&[
        "read-many",
        "--repo",
        "acme/drift",
        "--rev",
        FIXTURE_BASE,
        "src/dup.py:1-3",
    ]);
    assert!(!r.stdout.contains("hint:"), "{}", r.stdout);
}

/// `knowledge/structure.yaml` with every block `locator:` written as a one-line flow mapping,
/// and digests single-quoted.
fn flow_style(block: &str) -> String {
    let lines: Vec<&str> = block.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if l.trim() == "locator:" && i + 3 < lines.len() {
            let v = |k: &str, j: usize| {
                lines[j]
                    .trim()
                    .strip_prefix(k)
                    .map(str::trim)
                    .unwrap_or("")
                    .to_string()
            };
            let indent = &l[..l.len() - l.trim_start().len()];
            out.push(format!(
                "{indent}locator: {{path: {}, start_line: {}, end_line: {}}}",
                v("path:", i + 1),
                v("start_line:", i + 2),
                v("end_line:", i + 3)
            ));
            i += 4;
            continue;
        }
        match l.split_once("content_digest: ") {
            Some((head, d)) => out.push(format!("{head}content_digest: '{d}'")),
            None => out.push(l.to_string()),
        }
        i += 1;
    }
    out.join("\n") + "\n"
}

#[test]
fn write_keeps_flow_locators_and_quoting_styles() {
    let f = Fixture::new();
    let structure = flow_style(&f.read("knowledge/structure.yaml"));
    assert!(structure.contains("locator: {path: core.rs, start_line: 3, end_line: 6}"));
    std::fs::write(f.ws().join("knowledge/structure.yaml"), &structure).expect("write");
    // Plain (unquoted) refs in the registry.
    let registry = f
        .read("sources/repo/index.yaml")
        .replace(&format!("\"{FIXTURE_BASE}\""), FIXTURE_BASE);
    std::fs::write(f.ws().join("sources/repo/index.yaml"), &registry).expect("write");
    assert_eq!(f.run(&["validate"]).code, 0);
    let r = f.run(&["drift", "--to", "v2", "--write"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("re-anchored: 3 module(s)"),
        "{}",
        r.stdout
    );
    let after = f.read("knowledge/structure.yaml");
    let changed = changed_lines(&structure, &after);
    assert_eq!(changed.len(), 4, "{changed:?}");
    assert!(
        changed
            .iter()
            .any(|(_, new)| new.trim() == "locator: {path: core.rs, start_line: 4, end_line: 7}"),
        "{changed:?}"
    );
    assert!(
        changed
            .iter()
            .any(|(_, new)| new.trim()
                == "locator: {path: docs/manual.md, start_line: 1, end_line: 5}"),
        "{changed:?}"
    );
    let reg = changed_lines(&registry, &f.read("sources/repo/index.yaml"));
    assert!(
        reg.iter()
            .any(|(_, new)| new.trim() == format!("ref: {FIXTURE_LATER}")),
        "{reg:?}"
    );
    assert_eq!(f.run(&["validate"]).code, 0);
    assert_eq!(
        json(&f.run(&["stats", "--format", "json"]))["referencesByStatus"]["verified"],
        26
    );
}

#[test]
fn repo_content_references_drift_against_the_workspace_repository_head() {
    // A workspace in its own git repository citing a file of that repository at commit c1;
    // c2 inserts a line above the cited ones.
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("kb/knowledge")).expect("mkdir");
    std::fs::create_dir_all(root.join("notes")).expect("mkdir");
    let notes = "alpha\nbeta\ngamma\n";
    std::fs::write(root.join("notes/a.txt"), notes).expect("write");
    std::fs::write(
        root.join("kb/knowledge/page.md"),
        "# Notes\n\n<!-- context:section id=\"greek\" -->\n## Greek\n\nBeta and gamma.\n\n<!-- /context:section -->\n",
    )
    .expect("write");
    git(root, &["init", "-q", "-b", "main"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "c1"]);
    let c1 = git(root, &["rev-parse", "HEAD"]).trim().to_string();
    let digest = ontoly_graph::formats::text::range_digest(notes, 2, 3).expect("digest");
    std::fs::write(
        root.join("kb/knowledge/structure.yaml"),
        format!(
            "schema_version: context.approved-structure.v1\narticles:\n  - article_id: page\n    path: page.md\n    collection: notes\n    visibility: public\n    sections:\n      - id: greek\n        references:\n          - source_ref: repo-content:kb@{c1}\n            locator:\n              path: notes/a.txt\n              start_line: 2\n              end_line: 3\n            content_digest: {digest}\n"
        ),
    )
    .expect("write");
    std::fs::write(root.join("notes/a.txt"), format!("zero\n{notes}")).expect("write");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "c2"]);
    let c2 = git(root, &["rev-parse", "HEAD"]).trim().to_string();
    let r = run_in(
        root,
        &[
            "--workspace",
            "kb",
            "--no-cache",
            "drift",
            "--format",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r);
    assert_eq!(v["to"]["repo-content:kb"], c2.as_str(), "{v}");
    let g = reference(&v, "page", "greek", 0);
    assert_eq!(g["status"], "moved", "{g}");
    assert_eq!(
        (g["newStartLine"].as_u64(), g["newEndLine"].as_u64()),
        (Some(3), Some(4))
    );
    // Per source, back at the pinned commit: unchanged.
    let at_pin = json(&run_in(
        root,
        &[
            "--workspace",
            "kb",
            "--no-cache",
            "drift",
            "--to",
            &format!("repo-content={c1}"),
            "--format",
            "json",
        ],
    ));
    assert_eq!(
        reference(&at_pin, "page", "greek", 0)["status"],
        "unchanged"
    );
}

#[test]
fn impact_on_a_workspace_citing_several_repositories_asks_for_one_in_the_callers_words() {
    let t = tempfile::tempdir().expect("tempdir");
    let ws = t.path().join("demo");
    copy_dir(&common::demo(), &ws);
    let r = run_in(&ws, &["impact", "--from", "HEAD", "--to", "HEAD"]);
    assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("several repositories: name one as the source (known: acme")
            && r.stderr.contains("--source NAME"),
        "{}",
        r.stderr
    );
    // Through the capability (as MCP and `run` call it) the message names no CLI flag: the
    // caller's way to choose is the input's `source`.
    let r = run_in(
        &ws,
        &["run", "Impact", "--input", r#"{"from":"HEAD","to":"HEAD"}"#],
    );
    assert!(
        r.stderr.contains("name one as the source") && !r.stderr.contains("--source"),
        "{r:?}"
    );
    let r = run_in(
        &ws,
        &[
            "run",
            "Impact",
            "--input",
            r#"{"from":"HEAD","to":"HEAD","source":"acme/shop-api"}"#,
        ],
    );
    assert_eq!(r.code, 0, "{r:?}");
}

#[test]
fn accepting_the_requests_corpus_changes_leaves_it_verified_at_the_later_commit() {
    let dir = requests_copy();
    let ws = dir.path().join("ws");
    let run = |args: &[&str]| run_in(&ws, args);
    let r = run(&[
        "drift",
        "--to",
        REQUESTS_LATER,
        "--write",
        "--accept-changed",
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r);
    let modules: Vec<(String, u64)> = v["reanchor"]["modules"]
        .as_array()
        .expect("modules")
        .iter()
        .map(|m| {
            (
                m["module"].as_str().unwrap_or("").to_string(),
                m["accepted"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(
        modules,
        [
            ("requests/lib".to_string(), 56),
            ("requests/root".to_string(), 4)
        ]
    );
    assert_eq!(v["reanchor"]["review"], serde_json::json!([]));
    let strict = run(&["validate", "--require-verified"]);
    assert_eq!(strict.code, 0, "{}{}", strict.stdout, strict.stderr);
    // At the later commit every reference is now unchanged.
    let again = json(&run(&["drift", "--to", REQUESTS_LATER, "--format", "json"]));
    assert_eq!(
        again["counts"]["unchanged"],
        v["references"].as_array().map(Vec::len).unwrap_or(0) as u64,
        "{}",
        again["counts"]
    );
}

#[test]
fn diff_shows_each_changed_reference_as_git_holds_its_lines() {
    const PINNED: &str = "da9996fe4dc63356e9467d0a5e10df3d89a8528e";
    let dir = requests_copy();
    let repo = dir.path().join("repo.git");
    let run = |args: &[&str]| run_in(&dir.path().join("ws"), args);
    let plain = json(&run(&["drift", "--to", REQUESTS_LATER, "--format", "json"]));
    let v = json(&run(&[
        "drift",
        "--to",
        REQUESTS_LATER,
        "--diff",
        "--format",
        "json",
    ]));
    assert_eq!(v["counts"], plain["counts"]);
    let file_lines = |commit: &str, path: &str| -> Vec<String> {
        common::git(&repo, &["show", &format!("{commit}:{path}")])
            .lines()
            .map(str::to_string)
            .collect()
    };
    let mut diffs = 0;
    for (r, without) in v["references"]
        .as_array()
        .expect("references")
        .iter()
        .zip(plain["references"].as_array().expect("references"))
    {
        assert!(without.get("diff").is_none(), "only when asked: {without}");
        let Some(diff) = r["diff"].as_str() else {
            // Every changed reference whose lines survive somewhere has its diff.
            assert!(
                r["status"] != "changed" || r["mapped"].is_null(),
                "no diff for {r}"
            );
            continue;
        };
        assert_eq!(r["status"], "changed", "{r}");
        diffs += 1;
        let (path, new_path) = (
            r["path"].as_str().expect("path"),
            r["newPath"].as_str().expect("newPath"),
        );
        let (old, new) = (
            file_lines(PINNED, path),
            file_lines(REQUESTS_LATER, new_path),
        );
        let (start, end) = (
            r["startLine"].as_u64().unwrap_or(0),
            r["endLine"].as_u64().unwrap_or(0),
        );
        // Each hunk's lines are the files' lines at the numbers its header gives.
        let mut hunks = 0;
        let mut lines = diff.lines().peekable();
        while let Some(header) = lines.next() {
            let nums: Vec<u64> = header
                .trim_start_matches("@@ -")
                .trim_end_matches(" @@")
                .split([' ', '+', ','])
                .filter(|s| !s.is_empty())
                .map(|n| n.parse().unwrap_or_else(|_| panic!("{header}")))
                .collect();
            let (a, c) = (nums[0], nums[if nums.len() == 4 { 2 } else { 1 }]);
            assert!(a >= start && a <= end, "{header} outside {start}-{end}");
            let (mut at_old, mut at_new) = (a as usize - 1, c as usize - 1);
            while let Some(l) = lines.next_if(|l| !l.starts_with("@@ ")) {
                let (mark, text) = l.split_at(1);
                if mark != "+" {
                    assert_eq!(old[at_old], text, "{path}:{} in {header}", at_old + 1);
                    at_old += 1;
                }
                if mark != "-" {
                    assert_eq!(new[at_new], text, "{new_path}:{} in {header}", at_new + 1);
                    at_new += 1;
                }
            }
            assert!(at_old as u64 <= end, "{header} reaches past line {end}");
            hunks += 1;
        }
        assert!(hunks > 0, "{diff}");
    }
    assert!(diffs >= 40, "{diffs} diffs");
    // The Drift capability (and MCP tool) gives the same when asked for `diff`.
    let input = format!(r#"{{"to": ["{REQUESTS_LATER}"], "diff": true, "limit": 10000}}"#);
    let cap = json(&run(&[
        "run", "Drift", "--input", &input, "--format", "json",
    ]));
    assert_eq!(cap["data"]["references"], v["references"]);
    assert_eq!(cap["data"].get("omitted"), None);
    // Without a limit the list is bounded: drifted references first, in structure order,
    // and `omitted` counts the rest (the counts do not change).
    let input = format!(r#"{{"to": "{REQUESTS_LATER}"}}"#);
    let bounded = json(&run(&[
        "run", "Drift", "--input", &input, "--format", "json",
    ]))["data"]
        .clone();
    let all = v["references"].as_array().expect("references");
    let kept = bounded["references"].as_array().expect("references");
    assert!(
        all.len() > 200,
        "{} references: the default limit is not reached",
        all.len()
    );
    assert_eq!(kept.len(), 200);
    assert_eq!(bounded["omitted"], all.len() - 200);
    assert_eq!(bounded["counts"], v["counts"]);
    // A limit out of range is clamped, and the reply says so.
    let input = format!(r#"{{"to": "{REQUESTS_LATER}", "limit": 0}}"#);
    let zero = json(&run(&[
        "run", "Drift", "--input", &input, "--format", "json",
    ]));
    assert_eq!(zero["data"]["references"].as_array().map(Vec::len), Some(1));
    let clamped: Vec<&serde_json::Value> = zero["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["code"] == "CAPABILITY_LIMIT_CLAMPED")
        .collect();
    assert_eq!(clamped.len(), 1, "{}", zero["diagnostics"]);
    assert_eq!(
        clamped[0]["message"],
        "limit 0 is outside 1..=10000; using 1"
    );
    let key = |r: &serde_json::Value| {
        (
            r["articleId"].clone(),
            r["sectionId"].clone(),
            r["refIndex"].clone(),
        )
    };
    let mut rest = all.iter().map(key);
    assert!(
        kept.iter().all(|k| rest.any(|a| a == key(k))),
        "not in structure order"
    );
    let drifted = |r: &&serde_json::Value| {
        matches!(r["status"].as_str(), Some("moved" | "changed" | "missing"))
    };
    assert_eq!(
        kept.iter().filter(drifted).count(),
        all.iter().filter(drifted).count().min(200)
    );
    // SARIF (valid against the schema) and GitHub annotations end a changed reference's
    // message with its diff.
    let sarif = json(&run(&[
        "drift",
        "--to",
        REQUESTS_LATER,
        "--diff",
        "--format",
        "sarif",
    ]));
    validate_sarif(&sarif);
    let messages: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["ruleId"] == "DRIFT_CHANGED")
        .filter_map(|r| r["message"]["text"].as_str())
        .collect();
    assert_eq!(
        messages.len() as u64,
        v["counts"]["changed"].as_u64().unwrap_or(0)
    );
    assert!(
        messages.iter().filter(|m| m.contains("\n\n@@ -")).count() >= diffs,
        "{messages:?}"
    );
    let github = run(&[
        "drift",
        "--to",
        REQUESTS_LATER,
        "--diff",
        "--format",
        "github",
    ]);
    assert!(github.stdout.contains("%0A%0A@@ -"), "{}", github.stdout);
    assert_eq!(
        github
            .stdout
            .lines()
            .filter(|l| l.starts_with("::"))
            .count(),
        github.stdout.lines().count()
    );
    // The text shows them under their references.
    let text = run(&["drift", "--to", REQUESTS_LATER, "--diff", "--only-drifted"]);
    assert!(
        text.stdout.contains("\n          @@ -") && text.stdout.contains("\n          +"),
        "{}",
        text.stdout
    );
}

#[test]
fn each_citation_of_a_pack_carries_its_own_drift_mark() {
    // fd's clone is ahead of the pinned commit, and the question's top section cites three
    // ranges that the pack orders by what the question names, not as the graph lists them.
    let dir = tempfile::tempdir().expect("tempdir");
    let corpus = testdata().join("corpora/fd");
    copy_dir(&corpus.join("ws"), &dir.path().join("ws"));
    copy_dir(&corpus.join("repo.git"), &dir.path().join("repo.git"));
    let ws = dir.path().join("ws");
    let q = "how do I exclude a directory from the search";
    let pack = json(&run_in(&ws, &["evidence", "--format", "json", q]));
    // The reads are marked by their own commit, path and lines: the reference marks.
    let mut marked: std::collections::BTreeMap<String, String> = Default::default();
    for f in pack["filesToInspect"].as_array().expect("reads") {
        if let Some(now) = f["drift"]["now"].as_object() {
            let cited = format!(
                "{}#L{}-L{}",
                f["path"].as_str().unwrap_or(""),
                f["startLine"],
                f["endLine"]
            );
            let at = format!(
                "{}:{}-{}",
                now["path"].as_str().unwrap_or(""),
                now["startLine"],
                now["endLine"]
            );
            marked.insert(cited, at);
        }
    }
    assert!(marked.len() >= 2, "{}", pack["filesToInspect"]);
    // The text shows each citation's mark under it: the same place as its read's.
    let text = run_in(&ws, &["evidence", q]).stdout;
    let mut checked = 0;
    let mut cited: Option<String> = None;
    for line in text.lines().map(str::trim) {
        if let Some(c) = line.strip_prefix("cites ") {
            cited = c
                .split_once(':')
                .map(|(_, rest)| rest.split(' ').next().unwrap_or("").to_string());
        } else if let (Some(mark), Some(c)) = (line.strip_prefix("drift: "), &cited) {
            if let Some(at) = marked.get(c) {
                // A range other code replaced names where the diff maps it as drift does:
                // fd's walker setup, which left `scan` (drift_marks.rs checks the words).
                assert!(
                    mark.ends_with(&format!("({at})"))
                        || mark.contains(&format!("(the diff maps it to {at}, other code)")),
                    "{c}: {mark}\n{text}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 2, "{text}");
}

#[test]
fn a_change_inside_a_long_impl_touches_only_the_methods_a_range_overlaps() {
    // just's src/parser.rs holds one 850-line `impl Parser<'tokens, 'src>`. Between base and
    // later, hunks fall all over it; a reference whose lines lie in the impl but whose methods
    // no hunk touches is not affected, and one that is touched through a method names it.
    let (_dir, ws) = just_corpus();
    let v = json(&run_in(
        &ws,
        &[
            "impact", "--from", "base", "--to", "later", "--format", "json",
        ],
    ));
    let mut by_symbol = 0;
    let mut parser_ranges = Vec::new();
    for p in v["pages"].as_array().expect("pages") {
        for s in p["sections"].as_array().expect("sections") {
            for r in s["references"].as_array().expect("references") {
                if r["path"] == "src/parser.rs" {
                    parser_ranges.push((r["startLine"].as_u64(), r["via"].clone()));
                }
                if r["via"] != "symbol" {
                    continue;
                }
                by_symbol += 1;
                // Each hunk touches one of the definitions it names, none elsewhere.
                let touched = r["touched"].as_array().expect("touched definitions");
                assert!(!touched.is_empty(), "{r}");
                for h in r["hunks"].as_array().expect("hunks") {
                    let (start, count) = (h["oldStart"].as_u64(), h["oldCount"].as_u64());
                    let (Some(start), Some(count)) = (start, count) else {
                        panic!("{h}");
                    };
                    assert!(
                        touched.iter().any(|d| {
                            let (a, b) = (d["startLine"].as_u64(), d["endLine"].as_u64());
                            let (Some(a), Some(b)) = (a, b) else {
                                return false;
                            };
                            if count == 0 {
                                a <= start && start < b
                            } else {
                                start <= b && a < start + count
                            }
                        }),
                        "{h} is in none of {touched:?}"
                    );
                }
            }
        }
    }
    // 14 since a hunk in a definition of 100 lines or more touches only the ranges near it
    // or over the definition's first line: 7 ranges in `Config::app` (262 lines), `Config::
    // from_matches` and `evaluate_expression`'s match arms, whose hunks are other arms, left.
    assert!(by_symbol >= 14, "{v}");
    // #expressions cites parser.rs:501-543 (parse_value's end and the next methods): before,
    // every hunk of the impl touched it; no hunk touches those methods.
    assert!(
        !parser_ranges.iter().any(|(s, _)| *s == Some(501)),
        "{parser_ranges:?}"
    );
    // #doc-comments cites 289-304, parse_ast's doc comment and its first lines: parse_ast's
    // (until stop 47 the impl's, the doc comment being outside the method), touched through
    // the later lines of parse_ast the change edits.
    let text = run_in(&ws, &["impact", "--from", "base", "--to", "later"]).stdout;
    assert!(
        text.contains("src/parser.rs:289-304 in method `Parser<'tokens, 'src>::parse_ast` touched via symbol: src/parser.rs @@"),
        "{text}"
    );
    // The methods by the names people write: without the impl's lifetimes.
    let cites = run_in(&ws, &["cites", "Parser::parse_ast"]);
    assert_eq!(cites.code, 0, "{}", cites.stderr);
    assert!(
        cites
            .stdout
            .contains("section:architecture/lexer-and-parser.md#items")
            && cites.stdout.contains("src/parser.rs#L341-L376"),
        "{}",
        cites.stdout
    );
}

#[test]
fn a_cited_files_picture_shows_the_sections_that_cite_it() {
    let (_dir, ws) = just_corpus();
    let ids = |v: &Value, kind: &str| -> Vec<String> {
        v["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .filter(|n| n["type"] == kind)
            .filter_map(|n| n["id"].as_str().map(str::to_string))
            .collect()
    };
    // src/parser.rs is cited by 13 sections. Its commit is one hop away and has 40 files;
    // the commit is shown, not crossed, so the picture holds the sections, not the files.
    let v = json(&run_in(
        &ws,
        &["graph", "src/parser.rs", "--format", "json"],
    ));
    assert_eq!(ids(&v, "File").len(), 1, "{:?}", ids(&v, "File"));
    assert!(ids(&v, "Section").len() >= 13, "{:?}", ids(&v, "Section"));
    assert_eq!(ids(&v, "Commit").len(), 1);
    assert_eq!(v["truncated"], false);
    // README.md is cited by more ranges than a picture holds: each range comes with the
    // section citing it (before, 58 ranges and no section at all).
    let v = json(&run_in(&ws, &["graph", "README.md", "--format", "json"]));
    assert_eq!(v["truncated"], true);
    let (ranges, sections) = (ids(&v, "Range").len(), ids(&v, "Section").len());
    assert!(
        sections >= 25 && ranges <= 32,
        "{ranges} ranges, {sections} sections"
    );
    // A method by the name people write, and at the centre of its picture.
    let v = json(&run_in(
        &ws,
        &[
            "graph",
            "Parser::parse_ast",
            "--format",
            "json",
            "--depth",
            "2",
        ],
    ));
    assert!(
        v["focus"]
            .as_str()
            .is_some_and(|f| f.starts_with("symbol:") && f.contains("::parse_ast@")),
        "{}",
        v["focus"]
    );
    assert!(ids(&v, "Section").contains(&"section:architecture/lexer-and-parser.md#items".into()));
    // A name several symbols have (five `fmt` methods are cited): each is named by its id,
    // which draws its picture, and a trait impl's member by its Rust name after it (every
    // `fmt` is a `Display` impl's).
    let several = run_in(&ws, &["graph", "fmt"]);
    assert_eq!(several.code, 2, "{}", several.stdout);
    assert!(
        several.stderr.contains("\"fmt\" names 5 nodes")
            && several.stderr.contains("give one by its id: symbol:"),
        "{}",
        several.stderr
    );
    let first = several
        .stderr
        .split("give one by its id: ")
        .nth(1)
        .and_then(|ids| ids.split(", ").next())
        .unwrap_or_default()
        .trim();
    let (first, written) = first.split_once(" (").unwrap_or((first, ""));
    assert!(
        written.ends_with(" as Display>::fmt)"),
        "{first} ({written}"
    );
    assert_eq!(run_in(&ws, &["graph", first]).code, 0, "{first}");
    // The commit at the centre is crossed: its files' ranges are more than a picture holds,
    // and the picture says so.
    let commit = "commit:github.com/casey/just@11fbf8730b1bdddac251d3d22e86cd67bb91a66e";
    let v = json(&run_in(&ws, &["graph", commit, "--format", "json"]));
    assert_eq!(
        v["truncated"],
        true,
        "{}",
        v["nodes"].as_array().map_or(0, Vec::len)
    );
    // Said in the picture itself (a comment would not show when it is drawn).
    let m = run_in(&ws, &["graph", commit, "--format", "mermaid"]).stdout;
    assert!(
        m.contains("\n  more[/\"more nodes lie within the depth: 60 are shown;"),
        "{m}"
    );
    let d = run_in(&ws, &["graph", commit, "--format", "dot"]).stdout;
    assert!(
        d.contains("\n  label=\"more nodes lie within the depth"),
        "{d}"
    );
}

/// A copy of the just corpus: its workspace and, beside it, the bare clone its ontoly.toml
/// maps (base = just 1.14.0, later = 1.25.2). The directory lives as long as the guard.
fn just_corpus() -> (tempfile::TempDir, PathBuf) {
    corpus_copy("just")
}

/// A type no cited range names itself stands for its members: the sections citing
/// `Justfile<'src>::run` cite `Justfile`.
#[test]
fn a_container_that_is_no_symbol_is_cited_through_its_members() {
    let (_dir, ws) = just_corpus();
    let r = run_in(&ws, &["cites", "Justfile", "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).expect("json");
    let mut members: Vec<String> = v["evidence"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|e| e["nodes"].as_array().into_iter().flatten())
        .filter(|n| n["id"].as_str().is_some_and(|id| id.starts_with("symbol:")))
        .filter_map(|n| n["name"].as_str().map(str::to_string))
        .collect();
    members.sort();
    members.dedup();
    assert!(!members.is_empty(), "{}", r.stdout);
    assert!(
        members.iter().all(|m| m.starts_with("Justfile<'src>::")),
        "{members:?}"
    );
    // The summary says they are its members, not that they have its name.
    let text = run_in(&ws, &["cites", "Justfile"]).stdout;
    assert!(
        text.lines()
            .next()
            .is_some_and(|l| l.contains(" symbols of Justfile: Justfile<'src>::")),
        "{text}"
    );
    // The same sections as naming each member.
    let run = run_in(&ws, &["cites", "Justfile::run"]);
    assert_eq!(run.code, 0);
    let section = run.stdout.lines().nth(1).unwrap_or("").to_string();
    let all = run_in(&ws, &["cites", "Justfile"]).stdout;
    assert!(all.contains(&section), "{all}");
    // A prefix of a name is not a container.
    assert_eq!(run_in(&ws, &["cites", "Justfil"]).code, 1);
}

#[test]
fn digest_names_a_mapped_clone_that_does_not_open() {
    let (_dir, ws) = just_corpus();
    let r = run_in(
        &ws,
        &[
            "digest",
            "--source",
            "just/src=../nope",
            "--source",
            "just/src",
            "parser.rs:1-3",
        ],
    );
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stderr.contains(
            "REPOSITORY_NOT_FOUND: module 'just/src': the clone mapped by --source just/src=../nope does not exist"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn digest_reads_a_repository_path_under_a_module_with_a_subpath() {
    // Module just/src has subpath `src`: its locators say `parser.rs`. A path copied from
    // `cites` or `read` says `src/parser.rs`; both give the same entry.
    let (_dir, ws) = just_corpus();
    let module_relative = run_in(
        &ws,
        &["digest", "--source", "just/src", "parser.rs:290-300"],
    );
    assert_eq!(module_relative.code, 0, "{}", module_relative.stderr);
    let copied = run_in(
        &ws,
        &["digest", "--source", "just/src", "src/parser.rs:290-300"],
    );
    assert_eq!(copied.code, 0, "{}", copied.stderr);
    let entry = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(entry(&copied.stdout), entry(&module_relative.stdout));
    assert!(
        copied
            .stdout
            .contains("locator: {path: parser.rs, start_line: 290, end_line: 300}")
            && copied
                .stdout
                .contains("# src/parser.rs is parser.rs under the module's subpath src/"),
        "{}",
        copied.stdout
    );
    // A file in neither place: the error says how the module's paths are read.
    let missing = run_in(&ws, &["digest", "--source", "just/src", "nope.rs:1-2"]);
    assert_eq!(missing.code, 1);
    assert!(
        missing
            .stderr
            .contains("locator paths of module just/src are relative to its subpath src/"),
        "{}",
        missing.stderr
    );
}

#[test]
fn accepting_relocated_references_lets_their_module_move_and_verify() {
    // Between just 1.14 and 1.25, the README passage settings.md#dotenv-load cites
    // (README.md:868-896) was rewritten: the diff deletes every cited line, so no range takes
    // it and it holds all 74 references of just/root back; 12 of its 15 lines are at 861-883, and the window takes the closing fence after them (885).
    let (_dir, ws) = just_corpus();
    // What to review first: the cited lines against the window, numbered in the two files.
    let diffs = json(&run_in(&ws, &["drift", "--diff", "--format", "json"]));
    let lost = diffs["references"]
        .as_array()
        .expect("references")
        .iter()
        .find(|r| r["sectionId"] == "dotenv-load" && r["refIndex"] == 1)
        .expect("settings.md#dotenv-load [1]");
    assert_eq!(
        lost["mapped"],
        Value::Null,
        "every cited line deleted: {lost}"
    );
    assert_eq!(lost["relocation"]["startLine"], 861);
    let diff = lost["diff"].as_str().unwrap_or_default();
    assert!(
        diff.starts_with("@@ -868,") && diff.contains(" +861,"),
        "{diff}"
    );
    let held = json(&run_in(
        &ws,
        &["drift", "--write", "--accept-changed", "--format", "json"],
    ));
    let review = &held["reanchor"]["review"];
    // just/src too: two of its ranges in `Justfile::run` map onto 1–3 lines of the later
    // file while 12 of 18 and 4 of 7 of their lines are together elsewhere in it (87–108).
    let reasons: Vec<(&str, &str)> = review
        .as_array()
        .expect("review")
        .iter()
        .map(|m| {
            (
                m["module"].as_str().unwrap_or_default(),
                m["reason"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(reasons.len(), 2, "{review}");
    for (module, n) in [("just/root", 1), ("just/src", 2)] {
        assert!(
            reasons.iter().any(|(m, r)| *m == module
                && r.contains(&format!("--accept-relocated would re-anchor {n} of them"))),
            "{module}: {review}"
        );
    }
    let moved = json(&run_in(
        &ws,
        &[
            "drift",
            "--write",
            "--accept-changed",
            "--accept-relocated",
            "--format",
            "json",
        ],
    ));
    // just/src stays: three ranges of `src/loader.rs` whose code left the file when its
    // loading moved to the compiler keep a quarter or less of their lines there (41-93 maps
    // to 16-27), with nowhere else holding most of them: held back for a person to re-cite.
    let held: Vec<(&str, &str)> = moved["reanchor"]["review"]
        .as_array()
        .expect("review")
        .iter()
        .flat_map(|m| {
            m["references"]
                .as_array()
                .into_iter()
                .flatten()
                .map(move |r| {
                    (
                        m["module"].as_str().unwrap_or_default(),
                        r["sectionId"].as_str().unwrap_or_default(),
                    )
                })
        })
        .collect();
    assert_eq!(
        held,
        [
            ("just/src", "compile-pipeline"),
            ("just/src", "include-directive"),
            ("just/src", "include-resolution")
        ],
        "{}",
        moved["reanchor"]["review"]
    );
    let m = &moved["reanchor"]["modules"][0];
    assert_eq!(
        (&m["module"], &m["relocated"]),
        (&"just/root".into(), &1.into()),
        "{m}"
    );
    // Written where its lines are, with the digest of those lines at the later commit: the
    // workspace verifies there and nothing drifts any more.
    let structure = std::fs::read_to_string(ws.join("knowledge/structure.yaml")).expect("read");
    assert!(
        structure.contains(
            "path: README.md\n              start_line: 861\n              end_line: 885\n"
        ),
        "the relocated locator"
    );
    let digest = run_in(
        &ws,
        &["digest", "--source", "just/root", "README.md:861-885"],
    );
    let line = digest
        .stdout
        .lines()
        .find(|l| l.contains("content_digest:"))
        .unwrap_or_default()
        .trim()
        .to_string();
    assert!(structure.contains(&line), "{line}");
    let strict = run_in(&ws, &["validate", "--require-verified"]);
    assert_eq!(strict.code, 0, "{}{}", strict.stdout, strict.stderr);
    let again = json(&run_in(&ws, &["drift", "--format", "json"]));
    let root: Vec<&serde_json::Value> = (again["references"].as_array().into_iter().flatten())
        .filter(|r| r["sourceRef"] == "repo:just/root")
        .collect();
    assert!(!root.is_empty());
    assert!(
        root.iter().all(|r| r["status"] == "unchanged"),
        "{}",
        again["counts"]
    );
}

#[test]
fn without_its_clone_a_workspace_says_where_symbols_and_changes_come_from() {
    // The just workspace alone: ontoly.toml maps ../repo.git, which is not there.
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(&testdata().join("corpora/just/ws"), &dir.path().join("ws"));
    let ws = dir.path().join("ws");
    let impact = run_in(&ws, &["impact", "--from", "base", "--to", "later"]);
    assert_eq!(impact.code, 2, "{}", impact.stdout);
    assert!(
        impact
            .stderr
            .contains("no reference of the workspace cites a repository with a local clone")
            && impact
                .stderr
                .contains("ontoly.toml [sources] or with --source NAME=PATH"),
        "{}",
        impact.stderr
    );
    let cites = run_in(&ws, &["cites", "Parser::parse_ast"]);
    assert_eq!(cites.code, 1, "{}", cites.stdout);
    assert!(
        cites
            .stdout
            .contains("The graph has no symbols: they are read from local clones"),
        "{}",
        cites.stdout
    );
}

#[test]
fn an_unknown_revision_of_a_change_names_its_side() {
    let (_dir, ws) = just_corpus();
    for (args, side, flag) in [
        (
            ["--from", "nope", "--to", "later"],
            "old side \"nope\"",
            "give --from",
        ),
        (
            ["--from", "base", "--to", "nope"],
            "new side \"nope\"",
            "give --to",
        ),
    ] {
        let mut all = vec!["impact"];
        all.extend(args);
        let r = run_in(&ws, &all);
        assert_eq!(r.code, 2, "{}", r.stdout);
        assert!(
            r.stderr.contains(&format!(
                "the change's {side}: no such branch, tag or commit"
            )) && r.stderr.contains(flag),
            "{}",
            r.stderr
        );
    }
}

#[test]
fn javascript_method_spellings_name_the_method_and_a_range_is_cited_once() {
    // Command.option's three TypeScript overloads lie in one cited range: the section cites
    // it once, through all three.
    let (_dir, ws) = corpus_copy("commander");
    let plain = run_in(&ws, &["cites", "Command.option", "--format", "json"]);
    assert_eq!(plain.code, 0, "{}", plain.stdout);
    let v: serde_json::Value = serde_json::from_str(&plain.stdout).expect("json");
    let citations = &v["data"]["sections"][0]["citations"];
    assert_eq!(citations.as_array().map(Vec::len), Some(1), "{citations}");
    // One path to each overload, each section -> range -> symbol.
    let section = &v["data"]["sections"][0]["section"];
    let paths: Vec<&serde_json::Value> = v["evidence"]
        .as_array()
        .expect("evidence")
        .iter()
        .filter(|e| e["kind"] == "path" && &e["edges"][0]["from"] == section)
        .collect();
    let symbols: std::collections::BTreeSet<&str> = paths
        .iter()
        .filter_map(|p| p["edges"][1]["to"].as_str())
        .filter(|id| id.starts_with("symbol:"))
        .collect();
    assert_eq!((paths.len(), symbols.len()), (3, 3), "{paths:?}");
    let plain = run_in(&ws, &["cites", "Command.option"]).stdout;
    for spelled in ["Command.prototype.option", "Command#option"] {
        let r = run_in(&ws, &["cites", spelled]);
        assert_eq!(r.code, 0, "{spelled}: {}", r.stdout);
        assert_eq!(
            r.stdout.lines().skip(1).collect::<Vec<_>>(),
            plain.lines().skip(1).collect::<Vec<_>>(),
            "{spelled}"
        );
    }
    assert_eq!(run_in(&ws, &["cites", "Command.prototype.nope"]).code, 1);
}

#[test]
fn javascript_exports_and_trace_names_find_their_symbol() {
    // The qs walk (`/tmp/w50/js-drift/repro-constructs.sh`): a formatter in `module.exports =
    // {…}`, an anonymous `export default function` and a function expression's own name had
    // no symbol `cites` could find, nor did V8's `exports.parse` or `module.exports [as
    // parse]`.
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path().join("repo");
    let base = repo_with_files(
        &repo,
        &[
            ("lib/formats.js", "'use strict';\n\nmodule.exports = {\n    formatters: {\n        RFC1738: function (value) {\n            return value.replace(/%20/g, '+');\n        }\n    }\n};\n"),
            ("lib/parse.js", "'use strict';\n\nvar parseValues = function parseQueryStringValues(str) {\n    return str.split('&');\n};\n\nexports.parse = function (str) {\n    return parseValues(str);\n};\n\nmodule.exports = function (str) {\n    return exports.parse(str);\n};\n"),
            ("lib/b.mjs", "export default function (str) {\n    return str.length;\n}\n"),
        ],
    );
    let ws = dir.path().join("ws");
    one_module(&ws, "t", "qs", "t/qs", &base, "../repo");
    one_page_citing(
        &ws,
        "t/qs",
        &[
            ("rfc", "lib/formats.js:5-7"),
            ("values", "lib/parse.js:3-5"),
            ("parse", "lib/parse.js:7-9"),
            ("entry", "lib/parse.js:11-13"),
            ("length", "lib/b.mjs:1-3"),
        ],
    );
    for (name, section) in [
        ("RFC1738", "rfc"),
        ("formatters.RFC1738", "rfc"),
        ("module.exports.formatters.RFC1738", "rfc"),
        ("parseValues", "values"),
        ("parseQueryStringValues", "values"),
        ("exports.parse", "parse"),
        ("module.exports [as parse]", "entry"),
        ("default", "length"),
    ] {
        let r = json(&run_in(
            &ws,
            &["cites", "--symbol", name, "--format", "json"],
        ));
        let sections: Vec<&str> = (r["data"]["sections"].as_array().into_iter().flatten())
            .filter_map(|s| s["section"].as_str())
            .collect();
        assert_eq!(sections, [format!("section:q.md#{section}")], "{name}: {r}");
    }
    // A trace prints the function expression's own name, which no page writes: the search
    // finds it as a name of what the section cites.
    let pack = json(&run_in(
        &ws,
        &[
            "evidence",
            "what does parseQueryStringValues do",
            "--format",
            "json",
        ],
    ));
    assert_eq!(
        pack["topNodes"][0]["id"], "section:q.md#values",
        "{}",
        pack["answer"]
    );
    assert!(
        !pack["confidence"]["explanation"]
            .as_str()
            .is_some_and(|e| e.contains("not in this workspace")),
        "{}",
        pack["confidence"]
    );
    // The alias is the one symbol's second name, not a second symbol over the same lines.
    let g = json(&run_in(
        &ws,
        &[
            "graph",
            "lib/parse.js:3-5",
            "--depth",
            "1",
            "--format",
            "json",
        ],
    ));
    let overlaps: Vec<&str> = (g["edges"].as_array().into_iter().flatten())
        .filter(|e| e["type"] == "OVERLAPS")
        .filter_map(|e| e["to"].as_str())
        .collect();
    assert_eq!(overlaps.len(), 1, "{overlaps:?}");
    assert!(
        overlaps[0].ends_with("#function:parseValues@L3-L5"),
        "{overlaps:?}"
    );
}

/// ky 1.2.0 (walk 51): `createInstance` builds the instance on a local, `ky.create = (…) =>
/// …`, and `cites --symbol ky.create` found nothing though a section cites exactly that line
/// (F7); `graph Ky` said `"Ky" names 10 nodes`, none of them Ky, since only the methods of the
/// class behind cited ranges are nodes, while `cites --symbol Ky` answers for them (F8).
#[test]
fn a_local_objects_assigned_functions_and_a_class_by_its_name_are_found() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path().join("repo");
    let base = repo_with_files(
        &repo,
        &[
            ("source/index.ts", "import {Ky} from './core/Ky.js';\n\nconst createInstance = (defaults?: Partial<Options>): KyInstance => {\n\tconst ky: Partial<Mutable<KyInstance>> = (input: Input, options?: Options) => Ky.create(input, options);\n\n\tfor (const method of requestMethods) {\n\t\tky[method] = (input: Input, options?: Options) => Ky.create(input, {method});\n\t}\n\n\tky.create = (newDefaults?: Partial<Options>) => createInstance(newDefaults);\n\tky.extend = (newDefaults?: Partial<Options>) => createInstance(defaults);\n\tky.stop = stop;\n\n\treturn ky as KyInstance;\n};\n\nconst ky = createInstance();\n\nexport default ky;\n"),
            ("source/core/Ky.ts", "export class Ky {\n\tstatic create(input: Input, options: Options): ResponsePromise {\n\t\treturn new Ky(input, options);\n\t}\n\n\tprotected _retry(): number {\n\t\treturn 1;\n\t}\n\n\tprotected _fetch(): Promise<Response> {\n\t\treturn fetch(this.request);\n\t}\n}\n"),
        ],
    );
    let ws = dir.path().join("ws");
    one_module(
        &ws,
        "sindresorhus",
        "ky",
        "sindresorhus/ky",
        &base,
        "../repo",
    );
    one_page_citing(
        &ws,
        "sindresorhus/ky",
        &[
            ("create-vs-extend", "source/index.ts:10-11"),
            ("methods", "source/index.ts:7-7"),
            ("create", "source/core/Ky.ts:2-4"),
            ("retry", "source/core/Ky.ts:6-8"),
            ("fetch", "source/core/Ky.ts:10-12"),
        ],
    );
    let cites = |name: &str| {
        let r = json(&run_in(
            &ws,
            &["cites", "--symbol", name, "--format", "json"],
        ));
        (r["data"]["sections"].as_array().into_iter().flatten())
            .filter_map(|s| s["section"].as_str().map(str::to_string))
            .collect::<Vec<String>>()
    };
    for name in ["ky.create", "ky.extend", "createInstance.ky.create"] {
        assert_eq!(cites(name), ["section:q.md#create-vs-extend"], "{name}");
    }
    // The class's static `create` is another symbol: names are compared as written.
    assert_eq!(cites("Ky.create"), ["section:q.md#create"]);
    // `ky[method]` names no member: its line is the enclosing function's.
    assert!(
        cites("createInstance").contains(&"section:q.md#methods".to_string()),
        "{:?}",
        cites("createInstance")
    );
    // The class by its name: its cited members, at the centre of one picture.
    let v = json(&run_in(
        &ws,
        &["graph", "Ky", "--depth", "2", "--format", "json"],
    ));
    assert_eq!(v["focus"], "Ky", "{v}");
    let members: Vec<&str> = (v["members"].as_array().into_iter().flatten())
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(members.len(), 3, "{members:?}");
    assert!(
        members
            .iter()
            .all(|m| m.starts_with("symbol:") && m.contains("#method:Ky.")),
        "{members:?}"
    );
    let sections: Vec<&str> = (v["nodes"].as_array().into_iter().flatten())
        .filter(|n| n["type"] == "Section")
        .filter_map(|n| n["id"].as_str())
        .collect();
    for s in [
        "section:q.md#create",
        "section:q.md#retry",
        "section:q.md#fetch",
    ] {
        assert!(sections.contains(&s), "{s}: {sections:?}");
    }
    let m = run_in(&ws, &["graph", "--focus", "Ky", "--format", "mermaid"]);
    assert_eq!(m.code, 0, "{}", m.stderr);
    assert!(
        m.stdout.contains(
            "%% \"Ky\" is no node of the graph: the 3 cited symbols defined in it are at the centre"
        ) && m.stdout.matches("stroke-width:3px").count() == 3,
        "{}",
        m.stdout
    );
    let d = run_in(&ws, &["graph", "Ky", "--format", "dot"]);
    assert_eq!(d.code, 0, "{}", d.stderr);
    assert_eq!(d.stdout.matches("style=bold").count(), 3, "{}", d.stdout);
    // A name several symbols have, none inside the other, still asks which.
    let several = run_in(&ws, &["graph", "create"]);
    assert_eq!(several.code, 2, "{}", several.stdout);
    assert!(
        several.stderr.contains("\"create\" names 2 nodes"),
        "{}",
        several.stderr
    );
}

#[test]
fn a_symbol_named_with_its_module_path_is_found_in_that_module() {
    // Python's dotted import path and Rust's module path in front of the qualified name.
    let (_click, ws) = corpus_copy("click");
    let r = run_in(&ws, &["cites", "click.core.Context.invoke"]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("section:architecture/context.md#invoke-and-forward"),
        "{}",
        r.stdout
    );
    let (_just, ws) = just_corpus();
    let plain = run_in(&ws, &["cites", "Parser::parse_ast"]).stdout;
    for spelled in [
        "just::parser::Parser::parse_ast",
        "crate::parser::Parser::parse_ast",
    ] {
        let r = run_in(&ws, &["cites", spelled]);
        assert_eq!(r.code, 0, "{spelled}: {}", r.stdout);
        assert_eq!(
            r.stdout.lines().skip(1).collect::<Vec<_>>(),
            plain.lines().skip(1).collect::<Vec<_>>(),
            "{spelled}"
        );
    }
    // A module the symbol is not in names nothing.
    assert_eq!(run_in(&ws, &["cites", "lexer::Parser::parse_ast"]).code, 1);
}

#[test]
fn a_reason_many_references_share_is_said_once_in_the_text() {
    // The demo with no clone mapped: every reference is unverifiable, most for want of a clone
    // of one of five repositories. The text says each such reason once with its count (a 100k
    // workspace printed 360 000 lines of them) and lists only what is left; the JSON keeps
    // every reference.
    let t = tempfile::tempdir().expect("temp dir");
    let ws = t.path().join("demo");
    copy_dir(&testdata().join("demo"), &ws);
    std::fs::remove_file(ws.join("ontoly.toml")).expect("no clones");
    let r = run_in(&ws, &["--no-cache", "drift", "--to", "main"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("unverifiable, each reason once (its references are not listed below):\n  25 references: no local clone of acme/shop-api (map it"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("] src/checkout.rs:"), "{}", r.stdout);
    // The sections left with nothing checked are named (the first ten), not dropped unsaid.
    assert!(
        r.stdout.contains(
            "  33 section(s) with no reference checked: architecture/overview.md#components, "
        ),
        "{}",
        r.stdout
    );
    // A reason two references share is still listed with them.
    assert!(r.stdout.contains("#legacy-retry"), "{}", r.stdout);
    // A section with one reference of a grouped reason keeps its verdict over all of them.
    let mapped = t.path().join("mapped");
    copy_dir(&testdata().join("demo"), &mapped);
    let toml = std::fs::read_to_string(mapped.join("ontoly.toml")).expect("ontoly.toml");
    let without_cli: String = toml
        .lines()
        .filter(|l| !l.contains("shop-cli"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(mapped.join("ontoly.toml"), without_cli).expect("ontoly.toml");
    let r = run_in(&mapped, &["--no-cache", "drift"]);
    assert!(
        r.stdout
            .contains("  #components               still accurate (1 unverifiable)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("3 section(s) with no reference checked: guides/shopctl.md#commands,"),
        "{}",
        r.stdout
    );
    let v = json(&run_in(
        &ws,
        &["--no-cache", "drift", "--to", "main", "--format", "json"],
    ));
    let all = v["counts"]["unverifiable"].as_u64().unwrap_or_default() as usize;
    assert_eq!(v["references"].as_array().map(Vec::len), Some(all));
    // validate's "0 errors" is not "all checked": it says how many were not verified.
    let r = run_in(&ws, &["--no-cache", "validate"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with("note: 78 reference(s) are not verified"),
        "{}",
        r.stderr
    );
    let r = run_in(&ws, &["--no-cache", "validate", "--require-verified"]);
    assert!(!r.stderr.contains("are not verified"), "{}", r.stderr);
    let with_clones = run_in(&testdata().join("demo"), &["--no-cache", "validate"]);
    assert!(
        !with_clones.stderr.contains("not verified"),
        "{}",
        with_clones.stderr
    );
}

/// A function moved to a file of its own, leaving its import behind, then the package
/// directory moved (`src/structlog` → `lib/structlog`), as in the stop-42 walk on structlog:
/// the diff maps `stdlib.py:641-665` (filter_by_level, cited whole) to the one import line, and
/// `--accept-changed` anchored the section there. The lines went to the new file; accepting the
/// change in place is refused, and `--accept-relocated` anchors it where they are, under the
/// rewritten subpath.
#[test]
fn a_function_moved_to_its_own_file_is_not_accepted_at_the_import_left_behind() {
    let (dir, ws) = corpus_copy("structlog");
    let wt = dir.path().join("wt");
    git(dir.path(), &["clone", "-q", "repo.git", "wt"]);
    let base = "ab219c60395aaeb3a9153c5daa6a0a29c9972b68";
    git(&wt, &["checkout", "-q", "-b", "work", base]);
    let stdlib = wt.join("src/structlog/stdlib.py");
    let text = std::fs::read_to_string(&stdlib).expect("stdlib.py");
    let lines: Vec<&str> = text.split('\n').collect();
    assert!(
        lines[640].starts_with("def filter_by_level("),
        "{}",
        lines[640]
    );
    let moved = lines[640..665].join("\n");
    let mut kept: Vec<&str> = lines[..640].to_vec();
    kept.push("from .stdlib_filters import filter_by_level  # noqa: F401");
    kept.extend(&lines[665..]);
    std::fs::write(&stdlib, kept.join("\n")).expect("write stdlib.py");
    let header = "import logging\n\nfrom ._log_levels import _NAME_TO_LEVEL\nfrom .exceptions import DropEvent\nfrom .types import EventDict\n\n";
    std::fs::write(
        wt.join("src/structlog/stdlib_filters.py"),
        format!("{header}{moved}\n"),
    )
    .expect("write stdlib_filters.py");
    git(&wt, &["add", "-A"]);
    git(
        &wt,
        &["commit", "-q", "-m", "filter_by_level in a file of its own"],
    );
    git(&wt, &["mv", "src", "lib"]);
    git(&wt, &["commit", "-q", "-m", "the package directory moves"]);
    git(&wt, &["push", "-q", "origin", "work"]);

    let reference = |v: &Value| -> Value {
        v["references"]
            .as_array()
            .expect("references")
            .iter()
            .find(|r| r["sectionId"] == "filter-by-level" && r["path"] == "src/structlog/stdlib.py")
            .cloned()
            .expect("the filter-by-level reference")
    };
    let drift = json(&run_in(&ws, &["drift", "--to", "work", "--format", "json"]));
    let r = reference(&drift);
    assert_eq!(r["status"], "changed", "{r}");
    assert_eq!(
        r["relocation"]["path"], "lib/structlog/stdlib_filters.py",
        "{r}"
    );
    assert_eq!(r["relocation"]["startLine"], 7, "{r}");

    // What to review: its lines moved as they were, which an empty diff would not say.
    let text = run_in(&ws, &["drift", "--to", "work", "--diff"]).stdout;
    assert!(
        text.contains(
            "(no line differs: the cited lines are at lib/structlog/stdlib_filters.py:7-31 as \
             they were)"
        ),
        "{text}"
    );

    let structure = ws.join("knowledge/structure.yaml");
    let before = std::fs::read_to_string(&structure).expect("structure");
    // `drift --to work --write --accept-changed` and more flags, as JSON.
    let write = |more: &[&str]| {
        let mut args = vec!["drift", "--to", "work", "--write", "--accept-changed"];
        args.extend_from_slice(more);
        args.extend(["--format", "json"]);
        json(&run_in(&ws, &args))
    };
    let held = write(&[]);
    let review = &held["reanchor"]["review"];
    let lib = review
        .as_array()
        .expect("review")
        .iter()
        .find(|m| m["module"] == "structlog/lib")
        .unwrap_or_else(|| panic!("structlog/lib held back: {review}"));
    let reason = lib["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("--accept-relocated would re-anchor 1 of them"),
        "{reason}"
    );
    let after_held = std::fs::read_to_string(&structure).expect("structure");
    assert!(
        !after_held.contains("start_line: 641\n              end_line: 641"),
        "anchored at the import line"
    );

    write(&["--accept-relocated"]);
    let after = std::fs::read_to_string(&structure).expect("structure");
    assert_ne!(before, after);
    let entry = after
        .split("- id: filter-by-level")
        .nth(1)
        .expect("the section's entry");
    assert!(
        entry.contains(
            "path: stdlib_filters.py\n              start_line: 7\n              end_line: 31"
        ),
        "{}",
        &entry[..entry.len().min(400)]
    );
    let registry = std::fs::read_to_string(ws.join("sources/repo/index.yaml")).expect("registry");
    assert!(
        registry.contains("subpath: \"lib/structlog\""),
        "{registry}"
    );
    let validate = run_in(&ws, &["validate", "--require-verified"]);
    assert_eq!(validate.code, 0, "{}", validate.stdout);
}

/// A reference whose recorded digest is not that of its lines (found in the stop-42 CI walk:
/// an end line mistyped from 9 to 8) was re-anchored with the digest of the lines it now
/// names, and `validate`'s DIGEST_MISMATCH disappeared: the one sign that the section was
/// written from other lines. It now holds its module back.
#[test]
fn write_does_not_hide_a_digest_that_does_not_match_its_lines() {
    let f = Fixture::new();
    let good = "sha256:c33c4b51d5b40980a1d817455975cbe8a29039f3165eba28b0d6a3519dadc627";
    let bad = format!("sha256:{}", "0".repeat(64));
    let structure = f.read("knowledge/structure.yaml");
    assert_eq!(
        structure.matches(good).count(),
        1,
        "lib/core.rs:3-6's digest"
    );
    std::fs::write(
        f.ws().join("knowledge/structure.yaml"),
        structure.replace(good, &bad),
    )
    .expect("write structure");
    let v = json(&f.run(&["drift", "--to", "v2", "--write", "--format", "json"]));
    let core = v["reanchor"]["review"]
        .as_array()
        .expect("review")
        .iter()
        .find(|m| m["module"] == "drift/core")
        .cloned()
        .unwrap_or_else(|| panic!("drift/core held back: {}", v["reanchor"]));
    assert!(
        core["reason"]
            .as_str()
            .is_some_and(|r| r.contains("1 whose content_digest does not match")),
        "{core}"
    );
    assert_eq!(
        core["references"].as_array().map(Vec::len),
        Some(1),
        "{core}"
    );
    assert_eq!(core["references"][0]["status"], "moved");
    assert!(f.read("knowledge/structure.yaml").contains(&bad));
    let modules: Vec<&str> = v["reanchor"]["modules"]
        .as_array()
        .expect("modules")
        .iter()
        .filter_map(|m| m["module"].as_str())
        .collect();
    assert_eq!(
        modules,
        ["drift/pkg", "drift/root"],
        "the others still move"
    );
}

/// A failed `--fail-on` gate says why (found in the stop-42 CI walk: exit 3 with no word in
/// the text or the annotations), and a gate that could compare nothing is an error rather
/// than a pass (every clone missing: every reference unverifiable, exit 0 before).
#[test]
fn a_drift_gate_says_why_it_failed_and_refuses_to_pass_having_compared_nothing() {
    let f = Fixture::new();
    let r = f.run(&["drift", "--to", "v2", "--fail-on", "changed"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    let last = r.stdout.lines().last().unwrap_or_default();
    let c = &json(&f.run(&["drift", "--to", "v2", "--format", "json"]))["counts"];
    let n = c["changed"].as_u64().unwrap_or(0) + c["missing"].as_u64().unwrap_or(0);
    assert!(n > 0, "{c}");
    assert_eq!(
        last,
        format!("the drift gate failed (--fail-on changed): {n} reference(s) changed or missing")
    );
    let gh = f.run(&[
        "drift",
        "--to",
        "v2",
        "--fail-on",
        "changed",
        "--format",
        "github",
    ]);
    assert_eq!(gh.code, 3);
    assert!(
        gh.stdout.lines().last().is_some_and(|l| l
            .starts_with("::error title=ontoly drift::the drift gate failed (--fail-on changed)")),
        "{}",
        gh.stdout
    );
    // Passing, it says nothing more.
    let pass = f.run(&["drift", "--to", "v1", "--fail-on", "changed"]);
    assert_eq!(pass.code, 0, "{}", pass.stderr);
    assert!(!pass.stdout.contains("gate"), "{}", pass.stdout);

    std::fs::rename(f.root().join("repo"), f.root().join("moved-away")).expect("rename");
    let none = f.run(&["drift", "--fail-on", "changed"]);
    assert_eq!(none.code, 2, "{}", none.stdout);
    assert!(
        none.stderr
            .contains("the drift gate (--fail-on changed) compared nothing: all ")
            && none.stderr.contains("references are unverifiable"),
        "{}",
        none.stderr
    );
    // Without the gate, the same run reports every reference as it is.
    assert_eq!(f.run(&["drift"]).code, 0);
}

/// A clone whose HEAD names no commit, and no `--from`: the old side has to be named, and
/// the hint says so (it said to choose another source, found in the stop-42 CI walk).
#[test]
fn impact_without_a_head_asks_for_from() {
    let f = Fixture::new();
    git(
        &f.root().join("repo"),
        &["symbolic-ref", "HEAD", "refs/heads/nothing"],
    );
    std::fs::write(
        f.root().join("change.diff"),
        "--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-x\n+y\n",
    )
    .expect("write");
    let r = f.run(&["impact", "--diff", "change.diff", "--source", "drift/app"]);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("the clone has no HEAD to take as the change's old side")
            && r.stderr
                .contains("hint: give the commit the change starts from with --from REV"),
        "{}",
        r.stderr
    );
}

#[test]
fn impact_with_an_unusable_registry_names_the_registry_not_a_clone_to_map() {
    // The clone was mapped; the registry's indentation was wrong (CI walk on pathspec, stop
    // 49: told to map the clone in ontoly.toml).
    let f = Fixture::new();
    let registry = f.root().join("ws/sources/repo/index.yaml");
    let text = std::fs::read_to_string(&registry).expect("registry");
    std::fs::write(
        &registry,
        text.replacen("        subpath: \"\"", "         subpath: \"\"", 1),
    )
    .expect("write");
    let r = f.run(&["impact", "--from", "v1", "--to", "v2"]);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("the source registry cannot be used (sources/repo/index.yaml:")
            && r.stderr.contains("hint: fix the registry"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("ontoly.toml [sources]"), "{}", r.stderr);
}

#[test]
fn a_comment_hunk_in_a_cited_range_names_no_definition_as_touched() {
    // A range over a class whose change deletes only comment lines above one of its methods
    // is touched through its lines, but that method's code did not change: it was named
    // "touched (function …)" (a commented-out block above zod's `handleCanaryResult`;
    // TypeScript walk, stop 49). A code change there still names it.
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(&repo).expect("mkdir");
    git(&repo, &["init", "-q", "-b", "main"]);
    let text = "class Store:\n    def put(self, k, v):\n        self.items[k] = v\n\n    # def old_get(self, k):\n    #     return None\n    def get(self, k):\n        return self.items.get(k)\n";
    std::fs::write(repo.join("store.py"), text).expect("write");
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "one"]);
    let base = git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    let ws = dir.path().join("ws");
    one_module(&ws, "shop", "store", "acme/store", &base, "../repo");
    std::fs::write(
        ws.join("knowledge/store.md"),
        "# Store\n\n<!-- context:section id=\"store\" -->\n## The store\nIt stores.\n<!-- /context:section -->\n",
    )
    .expect("page");
    // `digest` runs in a workspace: a structure to start from.
    std::fs::write(
        ws.join("knowledge/structure.yaml"),
        "schema_version: context.approved-structure.v1\narticles: []\n",
    )
    .expect("structure");
    let entry = run_in(&ws, &["digest", "store.py:1-8", "--source", "shop/store"]);
    assert_eq!(entry.code, 0, "{}", entry.stderr);
    let entry: String = (entry.stdout.lines())
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("          {l}\n"))
        .collect();
    std::fs::write(
        ws.join("knowledge/structure.yaml"),
        format!("schema_version: context.approved-structure.v1\narticles:\n  - path: store.md\n    sections:\n      - id: store\n        references:\n{entry}"),
    )
    .expect("structure");
    let touched = |diff: &str| {
        let file = dir.path().join("change.diff");
        std::fs::write(&file, diff).expect("diff");
        let v = json(&run_in(
            &ws,
            &[
                "impact",
                "--from",
                &base,
                "--diff",
                file.to_str().unwrap_or(""),
                "--format",
                "json",
            ],
        ));
        let a = v["pages"][0]["sections"][0]["references"][0].clone();
        assert_eq!(a["via"], "range", "{v}");
        (a["touched"].as_array().into_iter().flatten())
            .filter_map(|t| t["qualified"].as_str().map(str::to_string))
            .collect::<Vec<_>>()
    };
    let comments = "--- a/store.py\n+++ b/store.py\n@@ -5,2 +4,0 @@\n-    # def old_get(self, k):\n-    #     return None\n";
    assert_eq!(touched(comments), Vec::<String>::new());
    let code = "--- a/store.py\n+++ b/store.py\n@@ -8 +8 @@\n-        return self.items.get(k)\n+        return self.items.get(k, 0)\n";
    assert_eq!(touched(code), ["Store.get"]);
}

#[test]
fn impact_text_names_what_a_reference_pinned_past_the_change_cites() {
    // Re-anchored to v2, the references cite v2's lines; impact of v1..v2 reads them at v1,
    // where the hunks are numbered, and the text says both when they differ.
    let f = Fixture::new();
    let w = f.run(&[
        "drift",
        "--to",
        "v2",
        "--write",
        "--accept-changed",
        "--accept-relocated",
    ]);
    assert_eq!(w.code, 0, "{}", w.stderr);
    let v = json(&f.run(&["impact", "--from", "v1", "--to", "v2", "--format", "json"]));
    let mut shifted = Vec::new();
    for p in v["pages"].as_array().into_iter().flatten() {
        for s in p["sections"].as_array().into_iter().flatten() {
            for a in s["references"].as_array().into_iter().flatten() {
                let at = &a["at"];
                if (&a["path"], &a["startLine"], &a["endLine"])
                    != (&at["path"], &at["startLine"], &at["endLine"])
                {
                    shifted.push(format!(
                        "{}:{}-{} (cited as {}:{}-{} at its pinned commit)",
                        at["path"].as_str().unwrap_or(""),
                        at["startLine"],
                        at["endLine"],
                        a["path"].as_str().unwrap_or(""),
                        a["startLine"],
                        a["endLine"]
                    ));
                }
            }
        }
    }
    assert!(!shifted.is_empty(), "no reference moved: {v:#}");
    let text = f.run(&["impact", "--from", "v1", "--to", "v2"]).stdout;
    for s in &shifted {
        assert!(text.contains(s.as_str()), "{s} not in:\n{text}");
    }
}

#[test]
fn a_huge_to_value_is_quoted_shortened() {
    // An MCP client sent a 900 KB revision; the error echoed it whole, twice.
    let f = Fixture::new();
    let long = "a".repeat(1000);
    let r = f.run(&["drift", "--to", &long]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let first = r.stderr.lines().next().unwrap_or_default();
    assert!(
        first.contains(&format!("{}… (800 more characters)", "a".repeat(200))),
        "{first}"
    );
    assert!(first.len() < 400, "{first}");
}

/// structlog 22.1 -> 23.2 converted its `.rst` documentation to Markdown: git pairs none of
/// the pages, so their references are missing. Each names the page that took its file's name,
/// and a passage whose words survived is relocated there by its words.
#[test]
fn pages_converted_to_another_markup_name_their_successor() {
    let (_dir, ws) = corpus_copy("structlog");
    let r = run_in(&ws, &["drift", "--to", "later", "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r);
    // "Adapting and Rendering": 7 of its 10 lines are the same words in other markup, its
    // link target `.. _adapting:` among them, MyST's `(adapting)=` (since stop 47).
    let adapting = reference(&v, "overview", "life-of-a-log-call", 1);
    assert_eq!(adapting["status"], "missing");
    assert_eq!(adapting["successor"], "docs/processors.md");
    assert_eq!(
        adapting["relocation"],
        serde_json::json!({"path": "docs/processors.md", "startLine": 124, "endLine": 139,
            "matched": 7, "of": 10, "byWords": true})
    );
    // A passage rewritten in the conversion: its successor, and the window that holds its
    // target, heading and command (4 of 7 lines; none before stop 47 read `.. _install:`
    // as MyST's `(install)=`).
    let install = reference(&v, "getting-started", "installation", 0);
    assert_eq!(install["successor"], "docs/getting-started.md");
    assert_eq!(
        install["relocation"],
        serde_json::json!({"path": "docs/getting-started.md", "startLine": 3, "endLine": 14,
            "matched": 4, "of": 7, "byWords": true})
    );
    // A page deleted with nothing of its name: neither.
    let loggers = reference(&v, "overview", "three-parts-of-a-bound-logger", 0);
    assert_eq!(loggers["status"], "missing");
    assert!(loggers.get("successor").is_none(), "{loggers}");
    // Code is sought byte for byte, and its relocation says nothing of words: the example
    // script went into the Markdown page as a code block.
    let example = reference(&v, "getting-started", "building-a-context", 1);
    assert_eq!(example["relocation"]["path"], "docs/getting-started.md");
    assert!(example["relocation"].get("byWords").is_none(), "{example}");
    // A document's passage is sought by its words too, and found wider than its byte-equal
    // lines alone (14 of 21 at 48-65 byte for byte).
    let defaults = reference(&v, "getting-started", "default-configuration", 0);
    assert_eq!(
        defaults["relocation"],
        serde_json::json!({"path": "docs/getting-started.md", "startLine": 45, "endLine": 68,
            "matched": 16, "of": 21, "byWords": true})
    );
    // The text says both, in the section's verdict and on the reference's line.
    let text = run_in(&ws, &["drift", "--to", "later"]).stdout;
    assert!(
        text.contains(
            "#first-log-entry          missing: docs/getting-started.rst is gone; \
             docs/getting-started.md took its name: read the section against it"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "[1] docs/processors.rst:101-117 missing; 7 of 10 distinctive lines are at \
             docs/processors.md:124-139 (by their words: the markup changed)"
        ),
        "{text}"
    );
    // With both flags given, what holds a module back is what they cannot take: the advice
    // names no flag to add.
    let w = run_in(
        &ws,
        &[
            "drift",
            "--to",
            "later",
            "--write",
            "--accept-changed",
            "--accept-relocated",
        ],
    );
    assert!(
        w.stdout.contains(
            "a module moves only when all its references can: remove each one listed from \
             knowledge/structure.yaml, run this again"
        ),
        "{}",
        w.stdout
    );
    // With neither, both are named.
    let w = run_in(&ws, &["drift", "--to", "later", "--write"]);
    assert!(
        w.stdout.contains("accept it (`--accept-changed`")
            && w.stdout.contains("`--accept-relocated`:"),
        "{}",
        w.stdout
    );
    // A module pinned to a tag says how to pin it.
    let registry = ws.join("sources/repo/index.yaml");
    let text = std::fs::read_to_string(&registry).expect("registry");
    let base = "ab219c60395aaeb3a9153c5daa6a0a29c9972b68";
    assert!(text.contains(base), "{text}");
    std::fs::write(&registry, text.replace(base, "v22.1.0")).expect("writes");
    let r = run_in(&ws, &["drift", "--to", "later", "--format", "json"]);
    let v = json(&r);
    let why = reference(&v, "overview", "life-of-a-log-call", 1)["reason"].clone();
    assert_eq!(
        why,
        "unpinned: the module's ref `v22.1.0` is not a full commit (`ontoly resolve --repo \
         structlog/root --rev v22.1.0` prints the one to write in its registry)"
    );
}

/// A module of the changed repository whose clone mapping does not open (a typo in
/// `ontoly.toml`) cites the same code: impact lists its references as not assessed, with why,
/// instead of leaving them out of the report (sphinx-copybutton walk, stop 46).
#[test]
fn impact_says_which_references_a_broken_clone_mapping_kept_out() {
    let (_dir, ws) = corpus_copy("structlog");
    let toml = std::fs::read_to_string(ws.join("ontoly.toml")).expect("ontoly.toml");
    let typo = toml.replace(
        "\"structlog/lib\" = \"../repo.git\"",
        "\"structlog/lib\" = \"../repo.gti\"",
    );
    assert_ne!(toml, typo);
    std::fs::write(ws.join("ontoly.toml"), typo).expect("writes");
    let r = run_in(
        &ws,
        &[
            "impact", "--from", "base", "--to", "later", "--format", "json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r);
    let unassessed = v["unassessed"].as_array().expect("a list");
    // Every reference of the lib module (127 of the 198), each with the reason.
    assert_eq!(unassessed.len(), 127, "{}", r.stdout);
    assert!(unassessed
        .iter()
        .all(|u| u["reason"]
            == "the clone mapped by \"structlog/lib\" = \"../repo.gti\" does not exist"));
    assert_eq!(v["counts"]["assessed"], 198 - 127);
    let text = run_in(&ws, &["impact", "--from", "base", "--to", "later"]).stdout;
    assert!(
        text.contains("not assessed: 127 reference(s) of the source"),
        "{text}"
    );
}

/// `--to` a commit older than the pinned one (the old release's tag typed by mistake) compares
/// backwards: said in the text and the JSON, since `--write` would pin the module back there.
#[test]
fn a_later_commit_older_than_the_pinned_one_is_said() {
    let (_dir, ws) = corpus_copy("structlog");
    let registry = ws.join("sources/repo/index.yaml");
    let text = std::fs::read_to_string(&registry).expect("registry");
    let (base, later) = (
        "ab219c60395aaeb3a9153c5daa6a0a29c9972b68",
        "077ec0d14f6ec9967fd30567fb05f93f08e4b9dc",
    );
    assert!(text.contains(base), "{text}");
    std::fs::write(&registry, text.replace(base, later)).expect("writes");
    let note = "structlog/lib, structlog/root: the commit compared with, ab219c60395a, is older \
                than the pinned 077ec0d14f6e: this compares backwards, and --write would pin it \
                there";
    let back = run_in(&ws, &["drift", "--to", "base"]);
    assert!(
        back.stdout.contains(&format!("note: {note}")),
        "{}",
        back.stdout
    );
    let v = json(&run_in(&ws, &["drift", "--to", "base", "--format", "json"]));
    assert_eq!(v["notes"], serde_json::json!([note]));
    // Forwards, or at the pinned commit itself, nothing is said.
    let v = json(&run_in(
        &ws,
        &["drift", "--to", "later", "--format", "json"],
    ));
    assert!(v.get("notes").is_none(), "{v}");
}

#[test]
fn diff_shows_the_lines_of_a_reference_deleted_whole() {
    // A changed reference whose lines the change deleted whole has no later lines to show,
    // but its removed lines are the change (Java walk, stop 48: nothing was shown).
    let (dir, ws) = common::corpus_copy("black");
    let drift_yaml =
        std::fs::read_to_string(testdata().join("corpora/black/drift.yaml")).expect("drift.yaml");
    let later = drift_yaml
        .lines()
        .find_map(|l| l.strip_prefix("head_commit:"))
        .map(str::trim)
        .expect("head commit");
    let v = json(&run_in(
        &ws,
        &["drift", "--to", later, "--diff", "--format", "json"],
    ));
    let deleted: Vec<&Value> = (v["references"].as_array().expect("references").iter())
        .filter(|r| r["status"] == "changed" && r.get("mapped").is_none_or(Value::is_null))
        // A relocated one shows its lines against the window they went to, as before.
        .filter(|r| r.get("relocation").is_none_or(Value::is_null))
        .collect();
    assert!(!deleted.is_empty(), "black deletes some cited lines whole");
    for r in deleted {
        let diff = r["diff"].as_str().unwrap_or_default();
        let body: Vec<&str> = diff.lines().filter(|l| !l.starts_with("@@")).collect();
        let cited = (r["endLine"].as_u64().unwrap_or(0) + 1)
            .saturating_sub(r["startLine"].as_u64().unwrap_or(0));
        assert_eq!(body.len() as u64, cited.min(200), "{r}");
        assert!(body.iter().all(|l| l.starts_with('-')), "{r}");
    }
    drop(dir);
}

/// A one-section workspace citing lines `start..=end` of `lib/parse.js` in a repository whose
/// first commit (`v1`) holds `old` and whose second (`main`) holds `new`.
fn one_citation(old: &str, new: &str, start: usize, end: usize) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path().join("qs");
    std::fs::create_dir_all(repo.join("lib")).expect("mkdir");
    git(&repo, &["init", "-q", "-b", "main"]);
    std::fs::write(repo.join("lib/parse.js"), old).expect("write");
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "v1"]);
    git(&repo, &["tag", "v1"]);
    let pin = git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    std::fs::write(repo.join("lib/parse.js"), new).expect("write");
    git(&repo, &["commit", "-q", "-am", "v2"]);
    let lines: Vec<&[u8]> = old.lines().map(str::as_bytes).collect();
    let digest = ontoly_graph::formats::text::lines_digest(&lines[start - 1..end]);
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(ws.join("knowledge/faq")).expect("mkdir");
    std::fs::create_dir_all(ws.join("sources/repo")).expect("mkdir");
    std::fs::write(
        ws.join("knowledge/faq/sparse.md"),
        "# Sparse arrays\n\n<!-- context:section id=\"sparse-arrays\" -->\n## Why did my sparse array lose its holes?\n\nArrays are always compacted. There is no option to keep holes.\n\n<!-- /context:section -->\n",
    )
    .expect("write");
    std::fs::write(
        ws.join("knowledge/structure.yaml"),
        format!(
            "schema_version: context.approved-structure.v1\narticles:\n  - path: faq/sparse.md\n    sections:\n      - id: sparse-arrays\n        references:\n          - source_ref: repo:ljharb/qs\n            locator: {{path: lib/parse.js, start_line: {start}, end_line: {end}}}\n            content_digest: {digest}\n"
        ),
    )
    .expect("write");
    one_module(&ws, "ljharb", "qs", "ljharb/qs", &pin, "../qs");
    (dir, ws)
}

const SPARSE_OLD: &str = "var utils = require('./utils');\n\nmodule.exports = function (str, opts) {\n    var obj = {};\n    for (var i = 0; i < str.length; ++i) {\n        obj = utils.merge(obj, str[i]);\n    }\n\n    return utils.compact(obj);\n};\n";

#[test]
fn a_moved_line_whose_function_changed_around_it_is_re_anchored_and_sent_for_review() {
    // js-drift walk, finding 1 (`repro-sparse.sh`): the cited `return utils.compact(obj);`
    // moved under a new `allowSparse` branch of the same function, which makes the section
    // false. It stays `moved` (the drift oracles' status), but every view names the function
    // and where it changed, and `--write` re-anchors it with that said.
    let new = SPARSE_OLD
        .replace("var utils", "var formats = require('./formats');\nvar utils")
        .replace(
            "    return utils.compact",
            "    if (opts.allowSparse === true) {\n        return obj;\n    }\n\n    return utils.compact",
        );
    let (_dir, ws) = one_citation(SPARSE_OLD, &new, 9, 9);
    assert_eq!(run_in(&ws, &["validate", "--require-verified"]).code, 0);
    let text = run_in(&ws, &["drift"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout.contains(
            "moved, re-anchorable; review: function `module.exports` changed around the cited lines (now lib/parse.js:4-15)"
        ) && text.stdout.contains(
            "[0] lib/parse.js:9-9 moved to lib/parse.js:14-14, but function `module.exports` changed around them at lib/parse.js:10-13 (now lib/parse.js:4-15)"
        ),
        "{}",
        text.stdout
    );
    let v = json(&run_in(&ws, &["drift", "--format", "json"]));
    // The article has no `article_id`.
    let r = reference(&v, "", "sparse-arrays", 0);
    assert_eq!(r["status"], "moved", "{r}");
    assert_eq!(
        r["changedAround"],
        serde_json::json!({
            "kind": "function", "qualified": "module.exports", "path": "lib/parse.js",
            "startLine": 4, "endLine": 15,
            "hunks": [{"oldStart": 8, "oldCount": 0, "newStart": 10, "newCount": 4}]
        }),
        "{r}"
    );
    let sarif = run_in(&ws, &["drift", "--format", "sarif"]).stdout;
    assert!(
        sarif.contains("changed around them at lib/parse.js:10-13"),
        "{sarif}"
    );
    // Impact calls it touched through the same function.
    let impact = run_in(&ws, &["impact", "--from", "v1", "--to", "main"]).stdout;
    assert!(
        impact.contains("in function `module.exports` touched via symbol"),
        "{impact}"
    );
    let write = run_in(&ws, &["drift", "--write"]);
    assert_eq!(write.code, 0, "{}", write.stderr);
    assert!(
        write.stdout.contains(
            "1 moved reference whose definition changed around its lines: review faq/sparse.md#sparse-arrays"
        ) && write.stdout.contains("written: "),
        "{}",
        write.stdout
    );
    let w = json(&run_in(&ws, &["drift", "--format", "json"]));
    assert_eq!(w["counts"]["unchanged"], 1, "{w}");
}

#[test]
fn a_comment_added_above_a_function_cited_whole_leaves_it_re_anchorable() {
    // js-drift walk, finding 7 (`repro-exp.sh`): a JSDoc over a function cited whole held the
    // module back as "grew around the cited lines" while impact, whose comment-only hunks
    // touch nothing, listed nothing.
    let new = SPARSE_OLD.replace(
        "module.exports",
        "/**\n * Parses a query string.\n */\n// the entry point\nmodule.exports",
    );
    let (_dir, ws) = one_citation(SPARSE_OLD, &new, 3, 10);
    let text = run_in(&ws, &["drift"]);
    assert!(
        text.stdout.contains("moved, re-anchorable") && !text.stdout.contains("review"),
        "{}{}",
        text.stdout,
        text.stderr
    );
    let impact = run_in(&ws, &["impact", "--from", "v1", "--to", "main"]).stdout;
    assert!(!impact.contains("sparse-arrays"), "{impact}");
    let write = run_in(&ws, &["drift", "--write"]);
    assert!(write.stdout.contains("written: "), "{}", write.stdout);
}

/// A Rust crate at two commits, tagged `v1` and `v2` (each version every file's path and
/// text; a file of `v1` that `v2` does not list is deleted), and a workspace pinned at `v1`
/// whose page `guide.md` has one section per reference `(path, start, end)`, `s0`, `s1`, ….
fn crate_at_two_commits(
    v1: &[(&str, &str)],
    v2: &[(&str, &str)],
    refs: &[(&str, usize, usize)],
) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path().join("im");
    std::fs::create_dir_all(&repo).expect("mkdir");
    git(&repo, &["init", "-q", "-b", "main"]);
    let write_all = |files: &[(&str, &str)]| {
        for (path, text) in files {
            let at = repo.join(path);
            std::fs::create_dir_all(at.parent().expect("a parent")).expect("mkdir");
            std::fs::write(at, text).expect("write");
        }
    };
    write_all(v1);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "v1"]);
    git(&repo, &["tag", "v1"]);
    let pin = git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    git(&repo, &["rm", "-q", "-r", "."]);
    write_all(v2);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "v2"]);
    git(&repo, &["tag", "v2"]);
    let ws = dir.path().join("ws");
    let (mut page, mut structure) = (
        String::from("# Guide\n\n"),
        String::from(
            "schema_version: context.approved-structure.v1\narticles:\n  - path: guide.md\n    sections:\n",
        ),
    );
    for (i, (path, start, end)) in refs.iter().enumerate() {
        let text = v1
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, t)| *t)
            .expect("a cited file of v1");
        let lines: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
        let digest = ontoly_graph::formats::text::lines_digest(&lines[start - 1..*end]);
        page.push_str(&format!(
            "<!-- context:section id=\"s{i}\" -->\n## Part {i}\n\nWhat the code does.\n\n<!-- /context:section -->\n\n"
        ));
        structure.push_str(&format!(
            "      - id: s{i}\n        references:\n          - source_ref: repo:im/crate\n            locator: {{path: {path}, start_line: {start}, end_line: {end}}}\n            content_digest: {digest}\n"
        ));
    }
    std::fs::create_dir_all(ws.join("knowledge")).expect("mkdir");
    one_module(&ws, "im", "crate", "im-rs/im", &pin, "../im");
    std::fs::write(ws.join("knowledge/guide.md"), page).expect("write");
    std::fs::write(ws.join("knowledge/structure.yaml"), structure).expect("write");
    (dir, ws)
}

/// The locator `structure.yaml` holds for section `s{i}`, as written.
fn locator_of(ws: &Path, i: usize) -> String {
    let text = std::fs::read_to_string(ws.join("knowledge/structure.yaml")).expect("structure");
    let entry = text
        .split(&format!("- id: s{i}\n"))
        .nth(1)
        .expect("the section's entry");
    entry
        .lines()
        .find(|l| l.trim_start().starts_with("locator:"))
        .expect("a locator")
        .trim()
        .to_string()
}

/// The body of indexmap's `tests::insert_order`, indented by `pad`.
fn insert_order_test(pad: &str, keys: &str) -> String {
    let body = format!(
        "#[test]\nfn insert_order() {{\n    let insert = [0, 4, 2, 12, 8, 7, 11, 5, 3, 17, 19, 22, 23];\n    let mut map = IndexMap::new();\n    for &elt in &insert {{\n        map.insert(elt, ());\n    }}\n    assert_eq!(map.{keys}().count(), map.len());\n    assert_eq!(map.{keys}().count(), insert.len());\n    for (a, b) in insert.iter().zip(map.{keys}()) {{\n        assert_eq!(a, b);\n    }}\n    for (i, k) in (0..insert.len()).zip(map.{keys}()) {{\n        assert_eq!(map.get_index(i).unwrap().0, k);\n    }}\n}}\n"
    );
    body.lines()
        .map(|l| match l {
            "" => "\n".to_string(),
            l => format!("{pad}{l}\n"),
        })
        .collect()
}

#[test]
fn a_test_moved_whole_is_relocated_there_not_to_an_older_test_of_its_name() {
    // indexmap walk, stop 51, F1: `tests::insert_order`, moved whole and de-indented into
    // `map/tests.rs`, where most of its lines repeat more than three times (6 of 6 counted),
    // was relocated to rayon's own `insert_order` (7 of 11), there since before the pin.
    let filler: String = (0..4)
        .map(|n| {
            format!("#[test]\nfn other_{n}() {{\n    let mut map = IndexMap::new();\n    for &elt in &insert {{\n        map.insert(elt, ());\n    }}\n    assert_eq!(map.keys().count(), map.len());\n    for (a, b) in insert.iter().zip(map.keys()) {{\n        assert_eq!(a, b);\n    }}\n}}\n\n")
        })
        .collect();
    let rayon = |extra: &str| {
        format!(
            "use super::*;\n{extra}\nmod tests {{\n    use super::*;\n\n{}}}\n",
            insert_order_test("    ", "par_keys")
                .replace(
                    "    for (a, b) in insert.iter().zip(map.par_keys()) {\n        assert_eq!(a, b);\n    }\n",
                    "    insert.par_iter().zip(map.par_keys()).for_each(|(a, b)| {\n        assert_eq!(a, b);\n    });\n",
                )
        )
    };
    let map_v1 = format!(
        "pub struct IndexMap;\n\n#[cfg(test)]\nmod tests {{\n    use super::*;\n\n{}}}\n",
        insert_order_test("    ", "keys")
    );
    let (rayon_v1, rayon_v2) = (rayon(""), rayon("\npub fn par_new() {}\n"));
    let v1 = [
        ("src/map.rs", map_v1.as_str()),
        ("src/rayon/map.rs", &rayon_v1),
    ];
    let tests_whole = format!("use super::*;\n\n{filler}{}", insert_order_test("", "keys"));
    let map_v2 = "pub struct IndexMap;\n\n#[cfg(test)]\nmod tests;\n";
    let (_dir, ws) = crate_at_two_commits(
        &v1,
        &[
            ("src/map.rs", map_v2),
            ("src/map/tests.rs", &tests_whole),
            ("src/rayon/map.rs", &rayon_v2),
        ],
        &[("src/map.rs", 7, 22)],
    );
    let v = json(&run_in(&ws, &["drift", "--to", "v2", "--format", "json"]));
    let r = reference(&v, "", "s0", 0);
    assert_eq!(r["status"], "changed", "{r}");
    // The 1-based line of the moved test's `fn` line.
    let at = tests_whole
        .lines()
        .position(|l| l == "fn insert_order() {")
        .expect("the test")
        + 1;
    assert_eq!(r["relocation"]["path"], "src/map/tests.rs", "{r}");
    assert_eq!(r["relocation"]["endLine"], at as u64 + 14, "{r}");
    let write = run_in(
        &ws,
        &[
            "drift",
            "--to",
            "v2",
            "--write",
            "--accept-changed",
            "--accept-relocated",
        ],
    );
    assert!(write.stdout.contains("written: "), "{}", write.stdout);
    assert_eq!(
        locator_of(&ws, 0),
        format!(
            "locator: {{path: src/map/tests.rs, start_line: {}, end_line: {}}}",
            at - 1,
            at + 14
        )
    );
    assert_eq!(run_in(&ws, &["validate", "--require-verified"]).code, 0);

    // Edited on the way (not whole), it still wins over the older test that has more of
    // its lines: that one was there at the pinned commit, code the reference did not cite.
    let edited = tests_whole.replace(
        "    assert_eq!(map.keys().count(), insert.len());\n",
        "    assert_eq!(insert.len(), map.keys().count());\n",
    );
    let (_dir, ws) = crate_at_two_commits(
        &v1,
        &[
            ("src/map.rs", map_v2),
            ("src/map/tests.rs", &edited),
            ("src/rayon/map.rs", &rayon_v2),
        ],
        &[("src/map.rs", 7, 22)],
    );
    let v = json(&run_in(&ws, &["drift", "--to", "v2", "--format", "json"]));
    let r = reference(&v, "", "s0", 0);
    assert_eq!(r["relocation"]["path"], "src/map/tests.rs", "{r}");
}

#[test]
fn accepting_a_deleted_method_does_not_take_in_a_new_function_beside_its_successor() {
    // indexmap walk, stop 51, F9: `fn push` was replaced by `push_entry` and a new
    // `insert_entry` below it in one hunk; the mapped range, and so `--accept-changed`, held
    // both.
    let head = "pub struct Core {\n    entries: Vec<u8>,\n}\n\nimpl Core {\n";
    let tail = "\n    /// Return the index where the key is.\n    fn get_index_of(&self, key: u8) -> Option<usize> {\n        self.entries.iter().position(|k| *k == key)\n    }\n}\n";
    let old = format!("{head}    /// Append a key-value pair, *without* checking whether it already exists,\n    /// and return the pair's new index.\n    fn push(&mut self, hash: u64, key: u8) -> usize {{\n        let i = self.entries.len();\n        self.indices.insert(hash, i);\n        if i == self.entries.capacity() {{\n            // Reserve our own capacity synced to the indices,\n            // rather than letting `Vec::push` just double it.\n            self.reserve_entries();\n        }}\n        self.entries.push(key);\n        i\n    }}\n{tail}");
    let new = format!("{head}    /// Append a key-value pair to `entries`, *without* checking whether it already exists.\n    fn push_entry(&mut self, hash: u64, key: u8) {{\n        if self.entries.len() == self.entries.capacity() {{\n            // Reserve our own capacity synced to the indices,\n            // rather than letting `Vec::push` just double it.\n            self.reserve_entries(1);\n        }}\n        self.entries.push(key);\n    }}\n\n    /// Insert a key-value pair in `entries` at a particular index,\n    /// *without* checking whether it already exists.\n    fn insert_entry(&mut self, index: usize, hash: u64, key: u8) {{\n        if self.entries.len() == self.entries.capacity() {{\n            // Reserve our own capacity synced to the indices,\n            // rather than letting `Vec::insert` just double it.\n            self.reserve_entries(1);\n        }}\n        self.entries.insert(index, key);\n    }}\n{tail}");
    let (_dir, ws) = crate_at_two_commits(
        &[("src/core.rs", &old)],
        &[("src/core.rs", &new)],
        &[("src/core.rs", 6, 18)],
    );
    let v = json(&run_in(&ws, &["drift", "--to", "v2", "--format", "json"]));
    let r = reference(&v, "", "s0", 0);
    assert_eq!(r["status"], "changed", "{r}");
    // The diff's range holds both functions; the accepted lines are `push_entry` with its doc.
    assert_eq!(r["mapped"]["endLine"], 25, "{r}");
    let write = run_in(&ws, &["drift", "--to", "v2", "--write", "--accept-changed"]);
    assert!(write.stdout.contains("written: "), "{}", write.stdout);
    assert_eq!(
        locator_of(&ws, 0),
        "locator: {path: src/core.rs, start_line: 6, end_line: 14}"
    );
    assert_eq!(run_in(&ws, &["validate", "--require-verified"]).code, 0);
}

#[test]
fn a_deleted_impl_is_not_accepted_as_the_type_it_implemented() {
    // eza drift walk, stop 59: `impl OptionsError { fn suggestion }` was deleted while
    // `enum OptionsError` stayed; the enum was suggested as where the impl went, and
    // `--accept-changed` re-anchored the section onto it.
    let head = "pub enum OptionsError {\n    Parse(String),\n    Unknown,\n}\n\nfn other() -> u8 {\n    7\n}\n";
    let old = format!("{head}\nimpl OptionsError {{\n    /// A hint for what the user meant.\n    pub fn suggestion(&self) -> Option<&'static str> {{\n        match self {{\n            Self::Unknown => Some(\"try --help\"),\n            Self::Parse(_) => None,\n        }}\n    }}\n}}\n");
    let (_dir, ws) = crate_at_two_commits(
        &[("src/error.rs", &old)],
        &[("src/error.rs", head)],
        &[("src/error.rs", 10, 18)],
    );
    let v = json(&run_in(&ws, &["drift", "--to", "v2", "--format", "json"]));
    let r = reference(&v, "", "s0", 0);
    assert_eq!(r["status"], "changed", "{r}");
    assert_eq!(r["symbol"]["kind"], "impl", "{r}");
    assert!(
        r["suggestion"].is_null(),
        "no namesake of its kind is left: {r}"
    );
    let before = locator_of(&ws, 0);
    let write = run_in(&ws, &["drift", "--to", "v2", "--write", "--accept-changed"]);
    assert!(write.stdout.contains("review: "), "{}", write.stdout);
    assert_eq!(locator_of(&ws, 0), before, "the reference is held back");
}

#[test]
fn accepting_a_range_keeps_a_cited_line_moved_just_past_its_edge() {
    // indexmap walk, stop 51, F2: of three cited re-exports, the first (the one the section is
    // about) was rewritten one line below the other two; the diff maps the range to those two,
    // and `--accept-changed` cited them alone.
    let old = "mod map;\nmod set;\n\npub use crate::equivalent::Equivalent;\npub use crate::map::IndexMap;\npub use crate::set::IndexSet;\n\n// shared private items\n";
    let new = "mod map;\nmod set;\nmod util;\n\npub use crate::map::IndexMap;\npub use crate::set::IndexSet;\npub use equivalent::Equivalent;\n\n// shared private items\n";
    let (_dir, ws) = crate_at_two_commits(
        &[("src/lib.rs", old)],
        &[("src/lib.rs", new)],
        &[("src/lib.rs", 4, 6)],
    );
    let v = json(&run_in(
        &ws,
        &["drift", "--to", "v2", "--diff", "--format", "json"],
    ));
    let r = reference(&v, "", "s0", 0);
    assert_eq!(
        (
            r["mapped"]["startLine"].as_u64(),
            r["mapped"]["endLine"].as_u64()
        ),
        (Some(5), Some(6)),
        "{r}"
    );
    let diff = r["diff"].as_str().expect("a diff");
    assert!(diff.contains("+pub use equivalent::Equivalent;"), "{diff}");
    run_in(&ws, &["drift", "--to", "v2", "--write", "--accept-changed"]);
    assert_eq!(
        locator_of(&ws, 0),
        "locator: {path: src/lib.rs, start_line: 5, end_line: 7}"
    );
}

/// indexmap's `MutableKeys` at 1.9.3 (`src/mutable_keys.rs`; the trait at 9-21, its doc
/// above) and at 2.2.6 (`src/map/mutable.rs`, sealed, the doc reworded, and more beside).
fn mutable_keys(sealed: bool) -> String {
    let doc = match sealed {
        false => "/// Opt-in mutable access to keys.\n///\n/// These methods expose `&mut K`, mutable references to the key as it is stored\n/// in the map.\n/// You are allowed to modify the keys in the hashmap **if the modification\n/// does not change the key's hash and equality**.\n",
        true => "/// Opt-in mutable access to [`IndexMap`] keys.\n///\n/// These methods expose `&mut K`, mutable references to the key as it is stored\n/// in the map.\n/// You are allowed to modify the keys in the map **if the modification\n/// does not change the key's hash and equality**.\n",
    };
    let header = match sealed {
        false => "pub trait MutableKeys {\n",
        true => "pub trait MutableKeys: private::Sealed {\n",
    };
    let more: String = match sealed {
        false => String::new(),
        true => (0..30)
            .map(|n| format!("\nimpl private::Sealed for Wrapper{n} {{}}\n"))
            .collect(),
    };
    format!("use super::IndexMap;\n\n{doc}{header}    type Key;\n    type Value;\n\n    /// Return item index, mutable reference to key and value\n    fn get_full_mut2(&mut self, key: &str) -> Option<(usize, &mut Self::Key, &mut Self::Value)>;\n\n    /// Scan through each key-value pair in the map and keep those where the\n    /// closure `keep` returns `true`.\n    fn retain2<F>(&mut self, keep: F)\n    where\n        F: FnMut(&mut Self::Key, &mut Self::Value) -> bool;\n}}\n{more}")
}

#[test]
fn a_definition_relocated_to_another_file_is_suggested_and_accepted_as_cited() {
    // indexmap walk, stop 51, F7 and F8: `trait MutableKeys`, cited without its doc, moved
    // to another file with its header changed: "was at 9-21, now at" counted the doc in
    // the new file only, and `--accept-relocated` wrote the window, which starts below the
    // changed header.
    let (old, new) = (mutable_keys(false), mutable_keys(true));
    let (_dir, ws) = crate_at_two_commits(
        &[("src/mutable_keys.rs", &old)],
        &[("src/map/mutable.rs", &new)],
        &[("src/mutable_keys.rs", 9, 21)],
    );
    let v = json(&run_in(&ws, &["drift", "--to", "v2", "--format", "json"]));
    let r = reference(&v, "", "s0", 0);
    assert_eq!(r["status"], "missing", "{r}");
    assert_eq!(
        (&r["symbol"]["startLine"], &r["symbol"]["endLine"]),
        (&Value::from(9), &Value::from(21)),
        "{r}"
    );
    assert_eq!(r["suggestion"]["path"], "src/map/mutable.rs", "{r}");
    assert_eq!(
        (&r["suggestion"]["startLine"], &r["suggestion"]["endLine"]),
        (&Value::from(9), &Value::from(21)),
        "{r}"
    );
    assert_eq!(r["relocation"]["startLine"], 10, "{r}");
    let text = run_in(&ws, &["drift", "--to", "v2"]).stdout;
    assert!(
        text.contains("was at src/mutable_keys.rs:9-21, now at src/map/mutable.rs:9-21"),
        "{text}"
    );
    run_in(
        &ws,
        &["drift", "--to", "v2", "--write", "--accept-relocated"],
    );
    assert_eq!(
        locator_of(&ws, 0),
        "locator: {path: src/map/mutable.rs, start_line: 9, end_line: 21}"
    );
    assert_eq!(run_in(&ws, &["validate", "--require-verified"]).code, 0);
}

#[test]
fn a_block_header_inserted_above_a_method_does_not_touch_it() {
    // indexmap walk, stop 51, F3: a new `impl … where … {` header written directly above
    // `insert`'s doc comment made impact say "touched via symbol" while drift rightly said
    // moved with nothing changed around it. A block's header is no attribute written on it.
    let old = "pub struct IndexSet<T, S> {\n    map: Vec<(T, S)>,\n}\n\nimpl<T, S> IndexSet<T, S> {\n    pub fn new() -> Self {\n        todo!()\n    }\n\n    /// Insert the value into the set.\n    pub fn insert(&mut self, value: T) -> bool {\n        self.map.push(value)\n    }\n}\n";
    let new = old.replace(
        "\n\n    /// Insert",
        "\n}\n\nimpl<T, S> IndexSet<T, S>\nwhere\n    T: Hash + Eq,\n{\n    /// Insert",
    );
    let attribute = old.replace("    /// Insert", "    #[inline]\n    /// Insert");
    for (new, touched) in [(new, false), (attribute, true)] {
        let (_dir, ws) = crate_at_two_commits(
            &[("src/set.rs", old)],
            &[("src/set.rs", &new)],
            &[("src/set.rs", 11, 13)],
        );
        let v = json(&run_in(&ws, &["drift", "--to", "v2", "--format", "json"]));
        let r = reference(&v, "", "s0", 0);
        assert_eq!(r["status"], "moved", "{r}");
        let impact = run_in(&ws, &["impact", "--from", "v1", "--to", "v2"]).stdout;
        assert_eq!(
            impact.contains("touched via symbol"),
            touched,
            "{new}\n{impact}"
        );
        assert_eq!(r.get("changedAround").is_some(), touched, "{r}");
    }
}

const RUST_IMPLS_OLD: &str = "pub struct IndexMap<K, V, S> {\n    k: K,\n    v: V,\n    s: S,\n}\n\nimpl<K, V, S> IndexMap<K, V, S> {\n    pub fn len(&self) -> usize {\n        0\n    }\n}\n\nimpl<K, V, Q: ?Sized, S> Index<&Q> for IndexMap<K, V, S> {\n    type Output = V;\n    fn index(&self, key: &Q) -> &V {\n        self.get(key).expect(\"IndexMap: key not found\")\n    }\n}\n\nimpl<K, V, S> Index<usize> for IndexMap<K, V, S> {\n    type Output = V;\n    fn index(&self, index: usize) -> &V {\n        self.get_index(index).expect(\"IndexMap: index out of bounds\")\n    }\n}\n\nimpl<T, S1, S2> BitAnd<&IndexSet<T, S2>> for &IndexSet<T, S1> {\n    type Output = IndexSet<T, S1>;\n    fn bitand(self, other: &IndexSet<T, S2>) -> Self::Output {\n        self.intersection(other).cloned().collect()\n    }\n}\n\n#[macro_export]\nmacro_rules! indexmap {\n    ($($key:expr => $value:expr),* $(,)?) => {{\n        let mut map = IndexMap::new();\n        $(map.insert($key, $value);)*\n        map\n    }};\n}\n";

/// A repository `indexmap-rs/indexmap` whose `src/map.rs` holds an inherent impl, two `Index`
/// impls of one type, an impl for `&IndexSet` and a macro (tag `v1`, pinned), and at `main`
/// two lines more above them and the `Index<&Q>` impl's message reworded; a workspace citing
/// each (`(section, start, end)`).
fn rust_impls() -> (tempfile::TempDir, PathBuf) {
    let cited = [
        ("inherent", 7, 11),
        ("index-by-key", 13, 18),
        ("index-by-position", 22, 24),
        ("set-operators", 27, 32),
        ("macro", 34, 41),
    ];
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path().join("indexmap");
    std::fs::create_dir_all(repo.join("src")).expect("mkdir");
    git(&repo, &["init", "-q", "-b", "main"]);
    std::fs::write(repo.join("src/map.rs"), RUST_IMPLS_OLD).expect("write");
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "v1"]);
    git(&repo, &["tag", "v1"]);
    let pin = git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    let new = format!(
        "use core::ops::{{BitAnd, Index}};\n\n{}",
        RUST_IMPLS_OLD.replace("key not found", "no entry found for key")
    );
    std::fs::write(repo.join("src/map.rs"), new).expect("write");
    git(&repo, &["commit", "-q", "-am", "v2"]);
    let lines: Vec<&[u8]> = RUST_IMPLS_OLD.lines().map(str::as_bytes).collect();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(ws.join("knowledge/guides")).expect("mkdir");
    let (mut page, mut structure) = (
        String::from("# Traits\n\n"),
        String::from("schema_version: context.approved-structure.v1\narticles:\n  - path: guides/traits.md\n    sections:\n"),
    );
    for (id, start, end) in cited {
        page.push_str(&format!(
            "<!-- context:section id=\"{id}\" -->\n## The {id} code\n\nWhat it does.\n\n<!-- /context:section -->\n\n"
        ));
        let digest = ontoly_graph::formats::text::lines_digest(&lines[start - 1..end]);
        structure.push_str(&format!(
            "      - id: {id}\n        references:\n          - source_ref: repo:indexmap-rs/indexmap\n            locator: {{path: src/map.rs, start_line: {start}, end_line: {end}}}\n            content_digest: {digest}\n"
        ));
    }
    std::fs::write(ws.join("knowledge/guides/traits.md"), page).expect("write");
    std::fs::write(ws.join("knowledge/structure.yaml"), structure).expect("write");
    one_module(
        &ws,
        "indexmap-rs",
        "indexmap",
        "indexmap-rs/indexmap",
        &pin,
        "../indexmap",
    );
    (dir, ws)
}

#[test]
fn a_trait_impl_is_named_by_its_block_in_drift_impact_and_graph() {
    // indexmap walk, F4: `impl Index<&Q> for IndexMap` read "impl `IndexMap<K, V, S>`" in
    // drift and impact, as every impl of the type did, and the ids `graph` offered for the
    // name did not say which trait each was.
    let (_dir, ws) = rust_impls();
    assert_eq!(run_in(&ws, &["validate", "--require-verified"]).code, 0);
    let drift = run_in(&ws, &["drift"]);
    assert!(
        drift.stdout.contains(
            "[0] src/map.rs:13-18 changed, now src/map.rs:15-20; impl `Index<&Q> for IndexMap<K, V, S>` was at src/map.rs:13-18, now at src/map.rs:15-20"
        ),
        "{}{}",
        drift.stdout,
        drift.stderr
    );
    // JSON keeps the qualified name and adds the block's.
    let v = json(&run_in(&ws, &["drift", "--format", "json"]));
    let r = reference(&v, "", "index-by-key", 0);
    assert_eq!(r["symbol"]["qualified"], "IndexMap<K, V, S>", "{r}");
    assert_eq!(
        r["symbol"]["written"], "impl Index<&Q> for IndexMap<K, V, S>",
        "{r}"
    );
    assert_eq!(
        r["suggestion"]["written"], "impl Index<&Q> for IndexMap<K, V, S>",
        "{r}"
    );
    let inherent = reference(&v, "", "inherent", 0);
    assert!(
        inherent
            .get("symbol")
            .is_none_or(|s| s.get("written").is_none()),
        "{inherent}"
    );
    let impact = run_in(&ws, &["impact", "--from", "v1", "--to", "main"]).stdout;
    assert!(
        impact.contains("src/map.rs:13-18 in impl `Index<&Q> for IndexMap<K, V, S>` touched"),
        "{impact}"
    );
    // The picture labels the impl by its block, and a name two impls have lists each by it.
    let m = run_in(
        &ws,
        &[
            "graph",
            "impl Index<&Q> for IndexMap<K, V, S>",
            "--format",
            "mermaid",
        ],
    );
    assert!(
        m.stdout
            .contains("[\"Symbol: impl Index#lt;&Q#gt; for IndexMap#lt;K, V, S#gt;\"]"),
        "{}{}",
        m.stdout,
        m.stderr
    );
    let several = run_in(&ws, &["graph", "IndexMap<K, V, S>"]);
    assert_eq!(several.code, 2, "{}", several.stdout);
    assert!(
        several
            .stderr
            .contains("@L13-L18 (impl Index<&Q> for IndexMap<K, V, S>)"),
        "{}",
        several.stderr
    );
}

#[test]
fn a_trait_impls_member_is_found_as_backtraces_and_rustc_write_it() {
    let (_dir, ws) = rust_impls();
    let sections = |name: &str| -> (i32, Vec<String>, String) {
        let r = run_in(&ws, &["cites", "--symbol", name, "--format", "json"]);
        let v: Value = serde_json::from_str(&r.stdout).unwrap_or_default();
        let ids = (v["data"]["sections"].as_array().into_iter().flatten())
            .filter_map(|s| s["section"].as_str().map(str::to_string))
            .collect();
        (r.code, ids, format!("{}{}", r.stdout, r.stderr))
    };
    let key = "section:guides/traits.md#index-by-key".to_string();
    let position = "section:guides/traits.md#index-by-position".to_string();
    let set = "section:guides/traits.md#set-operators".to_string();
    for (name, want) in [
        // F5: an impl for `&T`, the type with its module path (legacy demangling).
        (
            "<&indexmap::set::IndexSet<T,S1> as core::ops::bit::BitAnd<&indexmap::set::IndexSet<T,S2>>>::bitand",
            &set,
        ),
        ("<&indexmap::set::IndexSet<T,S1> as BitAnd>::bitand", &set),
        // F6: concrete types pick the impl whose trait arguments they fit; the method is
        // cited without its impl.
        ("<IndexMap<String, i32> as Index<usize>>::index", &position),
        ("<IndexMap<String, i32> as Index<&str>>::index", &key),
        (
            "<indexmap::map::IndexMap<alloc::string::String, i32> as core::ops::index::Index<&str>>::index",
            &key,
        ),
        ("<IndexMap<K, V, S> as Index<&Q>>::Output", &key),
        // F11: a `RUST_BACKTRACE=full` frame's hash, and a macro as it is invoked.
        (
            "indexmap::map::IndexMap<K,V,S>::len::h1a2b3c4d5e6f7a8b",
            &"section:guides/traits.md#inherent".to_string(),
        ),
        ("indexmap!", &"section:guides/traits.md#macro".to_string()),
    ] {
        let (code, ids, out) = sections(name);
        assert_eq!((code, ids), (0, vec![want.clone()]), "{name}: {out}");
    }
    // `u8` is neither `&Q` nor `usize`: no impl the graph holds is the one this names, though
    // by names without arguments both `Index` impls were.
    let (code, _, out) = sections("<IndexMap<String, i32> as Index<u8>>::index");
    assert_eq!(code, 1, "{out}");
    // Still two: the note says which impl each is.
    let both = run_in(&ws, &["cites", "--symbol", "IndexMap::index"]);
    assert!(
        both.stdout.contains(
            "(2 symbols have this name: <IndexMap<K, V, S> as Index<&Q>>::index (method) in src/map.rs:15, <IndexMap<K, V, S> as Index<usize>>::index (method) in src/map.rs:22)"
        ),
        "{}",
        both.stdout
    );
}

#[test]
fn a_symbols_picture_at_depth_one_shows_the_sections_citing_its_range() {
    // indexmap walk, F10: the range and the symbol only, although "a cited range comes with
    // the sections citing it".
    let (_dir, ws) = rust_impls();
    let v = json(&run_in(
        &ws,
        &[
            "graph",
            "<IndexMap<K, V, S> as Index<usize>>::index",
            "--depth",
            "1",
            "--format",
            "json",
        ],
    ));
    let kinds: Vec<&str> = (v["nodes"].as_array().into_iter().flatten())
        .filter_map(|n| n["type"].as_str())
        .collect();
    assert_eq!(kinds, ["Range", "Section", "Symbol"], "{v}");
    assert_eq!(v["truncated"], false);
}
