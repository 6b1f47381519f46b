//! A tool people adopt (issue 12), through the real binary, on the workspace a new user writes
//! by following docs/workspace-format.md.
//!
//! `walkthrough()` builds that workspace from the document itself: it runs the blocks marked
//! `step` and writes the blocks named `file=PATH`, in document order, in a temporary directory
//! (a git repository `payments/` with fixed dates, so its commit id is stable, and the
//! workspace `kb/` citing it). The first tests check the document; they pass today. Every other
//! test states the behaviour one item of the issue asks for and is ignored until phase 2
//! implements it (`cargo test -p ontoly --test adoption -- --ignored` shows what is left).

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The commit of `payments/` made by the document's first step.
const COMMIT: &str = "c11b1eb453b0094c5646c4460b5d32184c56cc1d";
/// `content_digest` of `src/retry.py` lines 1-3 at [`COMMIT`] (the document's worked example).
const DIGEST_1_3: &str = "sha256:e78e9c3bce84c027c65a647fa30ac41e136da642184bc4b5898489ac12c980c6";
/// The same lines through `sed -n 1,3p | sha256sum`: with the trailing newline, so wrong.
const SED_DIGEST_1_3: &str =
    "sha256:a27fcb3b9d3d0fdc8b82b531ef37a5e71e2316c617295046ab8bcb66dd010464";
/// `content_digest` of lines 2-3.
const DIGEST_2_3: &str = "sha256:c5587cea9ef5e86e895f0c3cb9627f78045e5e7ace33d11ea31978a9795df140";

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// What one run of the binary gave.
struct Run {
    code: i32,
    out: String,
    err: String,
}

impl Run {
    fn both(&self) -> String {
        format!("{}{}", self.out, self.err)
    }
}

fn ontoly_cmd(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ontoly"));
    cmd.current_dir(dir)
        .args(args)
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_WORKSPACE")
        .env("NO_COLOR", "1");
    cmd
}

/// Runs `ontoly` in `dir` with `args` and no stdin.
fn ontoly(dir: &Path, args: &[&str]) -> Run {
    finish(ontoly_cmd(dir, args).stdin(Stdio::null()).output())
}

/// Runs `ontoly` in `dir` with `args` and `input` on stdin.
fn ontoly_stdin(dir: &Path, args: &[&str], input: &str) -> Run {
    let mut child = ontoly_cmd(dir, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    finish(child.wait_with_output())
}

fn finish(out: std::io::Result<std::process::Output>) -> Run {
    let out = out.expect("the binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&out.stdout).into_owned(),
        err: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `git` with a fixed identity, fixed dates and no user or system configuration, so commit
/// ids are the same on every machine.
fn git_env(cmd: &mut Command) -> &mut Command {
    cmd.env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Doc")
        .env("GIT_AUTHOR_EMAIL", "doc@example.invalid")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_NAME", "Doc")
        .env("GIT_COMMITTER_EMAIL", "doc@example.invalid")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = git_env(Command::new("git").current_dir(dir).args(args))
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

// ---------------------------------------------------------------------------------------------
// The document's walk-through
// ---------------------------------------------------------------------------------------------

/// One fenced block of a markdown document: its info string and its text.
struct Block {
    info: String,
    text: String,
}

/// The fenced blocks of `markdown` that open at column 0 with three backticks (indented blocks,
/// e.g. inside list items, are examples, not steps).
fn fenced_blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for line in markdown.lines() {
        match open.as_mut() {
            None => {
                if let Some(info) = line.strip_prefix("```") {
                    open = Some(Block {
                        info: info.trim().to_string(),
                        text: String::new(),
                    });
                }
            }
            Some(b) => {
                if line == "```" {
                    blocks.extend(open.take());
                } else {
                    b.text.push_str(line);
                    b.text.push('\n');
                }
            }
        }
    }
    blocks
}

fn workspace_format_doc() -> String {
    std::fs::read_to_string(repo_root().join("docs/workspace-format.md"))
        .expect("docs/workspace-format.md exists")
}

/// The walk-through of docs/workspace-format.md, done in a fresh directory. Returns the
/// directory (holding `payments/` and `kb/`) and what the steps printed.
fn walkthrough() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut script = String::from("set -euo pipefail\n");
    let mut files = 0;
    for b in fenced_blocks(&workspace_format_doc()) {
        let mut words = b.info.split_whitespace();
        let _lang = words.next();
        for w in words {
            if w == "step" {
                script.push_str(&b.text);
            } else if let Some(path) = w.strip_prefix("file=") {
                // Files are written by the script too, so that they exist exactly when the
                // steps before them have run.
                files += 1;
                let parent = Path::new(path).parent().expect("a file path has a parent");
                script.push_str(&format!(
                    "mkdir -p '{}'\ncat > '{path}' <<'ONTOLY_DOC_EOF'\n{}ONTOLY_DOC_EOF\n",
                    parent.display(),
                    b.text
                ));
            }
        }
    }
    assert!(files >= 4, "the walk-through names its files (file=…)");
    let out = git_env(
        Command::new("bash")
            .current_dir(dir.path())
            .arg("-c")
            .arg(&script),
    )
    .output()
    .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "the walk-through's steps fail:\n{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    (dir, stdout)
}

fn kb(dir: &tempfile::TempDir) -> PathBuf {
    dir.path().join("kb")
}

/// Replaces `from` by `to` in the workspace file `rel` (which must contain it).
fn edit(ws: &Path, rel: &str, from: &str, to: &str) {
    let path = ws.join(rel);
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains(from), "{rel} does not contain {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
}

/// Makes the walk-through directory a git repository (so `kb/` sits in a repository and
/// repository-relative paths are `kb/...`).
fn as_repository(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    std::fs::write(dir.join(".gitignore"), "payments/\n.ontoly/\n").expect("gitignore");
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "kb"]);
}

/// The count shown for `status` under "references by status" in `ontoly stats`.
fn status_count(stats: &str, status: &str) -> Option<u64> {
    stats
        .lines()
        .skip_while(|l| !l.starts_with("references by status"))
        .skip(1)
        .take_while(|l| l.starts_with(' '))
        .find_map(|l| {
            let mut w = l.split_whitespace();
            (w.next() == Some(status)).then(|| w.next()?.parse().ok())?
        })
}

#[test]
fn the_workspace_format_walkthrough_validates_and_verifies() {
    let (dir, printed) = walkthrough();
    let ws = kb(&dir);
    assert!(
        printed.contains(COMMIT),
        "step 1 prints the documented commit:\n{printed}"
    );
    assert!(
        printed.contains(DIGEST_1_3.trim_start_matches("sha256:")),
        "step 2 prints the documented digest:\n{printed}"
    );
    let structure = std::fs::read_to_string(ws.join("knowledge/structure.yaml")).expect("read");
    assert!(
        structure.contains(DIGEST_1_3),
        "the structure records that digest"
    );

    let v = ontoly(dir.path(), &["--workspace", "kb", "validate"]);
    assert_eq!(
        (v.code, v.out.as_str()),
        (0, "kb: 0 errors, 0 warnings, 0 info\n"),
        "{}",
        v.err
    );
    let s = ontoly(dir.path(), &["--workspace", "kb", "stats"]);
    assert_eq!(s.code, 0, "{}", s.err);
    assert_eq!(status_count(&s.out, "verified"), Some(1), "{}", s.out);
    assert_eq!(status_count(&s.out, "no_clone"), Some(0), "{}", s.out);
    let e = ontoly(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "evidence",
            "what is the retry backoff?",
        ],
    );
    assert_eq!(e.code, 0, "{}", e.err);
    assert!(
        e.out.contains(&format!(
            "https://github.com/acme/payments/blob/{COMMIT}/src/retry.py#L1-L3"
        )),
        "{}",
        e.out
    );
    assert!(e.out.contains("overlaps function backoff"), "{}", e.out);
}

#[test]
fn the_documented_digests_and_the_sed_pitfall_are_real() {
    let (dir, _) = walkthrough();
    let sh = |script: &str| {
        let out = Command::new("bash")
            .current_dir(dir.path())
            .arg("-c")
            .arg(script)
            .output()
            .expect("bash runs");
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        format!("sha256:{}", text.split_whitespace().next().unwrap_or(""))
    };
    let rule = |s: u32, e: u32| {
        sh(&format!(
            "git -C payments show {COMMIT}:src/retry.py | awk -v s={s} -v e={e} 'NR >= s && NR <= e {{ sub(/\\r$/, \"\"); printf \"%s%s\", (NR > s ? \"\\n\" : \"\"), $0 }}' | sha256sum"
        ))
    };
    assert_eq!(rule(1, 3), DIGEST_1_3);
    assert_eq!(rule(2, 3), DIGEST_2_3);
    assert_eq!(
        sh("sed -n 1,3p payments/src/retry.py | sha256sum"),
        SED_DIGEST_1_3
    );
    let doc = workspace_format_doc();
    for d in [DIGEST_1_3, DIGEST_2_3, SED_DIGEST_1_3] {
        assert!(
            doc.contains(d.trim_start_matches("sha256:")),
            "the document shows {d}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Item 1: a closed pipe ends quietly.
// ---------------------------------------------------------------------------------------------

/// Runs `ontoly` with stdout connected to a pipe whose reading end is already closed, as in
/// `ontoly … | head -c0` when `head` has exited: every write fails with EPIPE.
fn ontoly_into_closed_pipe(dir: &Path, args: &[&str]) -> Run {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    finish(
        ontoly_cmd(dir, args)
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output(),
    )
}

#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    let (dir, _) = walkthrough();
    let commands: &[&[&str]] = &[
        &[
            "search",
            "--repo",
            "acme/payments",
            "--rev",
            COMMIT,
            "attempt",
        ],
        &["run", "EvidencePack", "--input", r#"{"query":"retry"}"#],
        &["evidence", "retry backoff"],
        &["validate"],
        &["--format", "json", "stats"],
        &["capabilities"],
        &["refs", "knowledge/guides/payments.md:1-11"],
        &[
            "read",
            "--repo",
            "acme/payments",
            "--rev",
            COMMIT,
            "src/retry.py",
        ],
        &["plugin", "enrich", "--root", "."],
    ];
    for args in commands {
        let mut all = vec!["--workspace", "kb"];
        all.extend_from_slice(args);
        let r = ontoly_into_closed_pipe(dir.path(), &all);
        assert!(
            !r.err.contains("panicked") && !r.err.contains("Broken pipe"),
            "{args:?}: {}",
            r.err
        );
        assert_eq!(r.code, 0, "{args:?} ends like `rg … | head`: {}", r.err);
    }
}

/// A stdout that fails for another reason (a full disk: `/dev/full` answers every write with
/// ENOSPC) is an error said on standard error, not a silent exit 2 (new-user walk, stop 41).
#[test]
fn a_full_stdout_is_an_error_with_its_reason() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        return; // Not Linux: nothing to write into.
    }
    let (dir, _) = walkthrough();
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(full)
        .expect("/dev/full opens");
    let r = finish(
        ontoly_cmd(
            dir.path(),
            &["--workspace", "kb", "evidence", "retry backoff"],
        )
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(Stdio::piped())
        .output(),
    );
    assert_eq!(r.code, 2, "{}", r.err);
    assert!(
        r.err.starts_with("error: could not write the output: ") && !r.err.contains("panicked"),
        "{}",
        r.err
    );
}

// ---------------------------------------------------------------------------------------------
// Item 2: a wrong clone path is an error.
// ---------------------------------------------------------------------------------------------

#[test]
fn a_mapped_clone_that_does_not_exist_is_an_error_at_its_mapping() {
    let (dir, _) = walkthrough();
    let ws = kb(&dir);
    edit(&ws, "ontoly.toml", "\"../payments\"", "\"../paymentz\"");
    let v = ontoly(dir.path(), &["--workspace", "kb", "validate"]);
    assert_eq!(v.code, 1, "{}", v.both());
    assert!(v.out.contains("CLONE_NOT_FOUND"), "{}", v.out);
    assert!(
        v.out.contains("ontoly.toml:2"),
        "names the mapping's file and line: {}",
        v.out
    );
    assert!(!v.out.contains("a relative --source path"), "{}", v.out);

    // An existing directory that is not a git repository.
    edit(&ws, "ontoly.toml", "\"../paymentz\"", "\"knowledge\"");
    let v = ontoly(dir.path(), &["--workspace", "kb", "validate"]);
    assert_eq!(v.code, 1, "{}", v.both());
    assert!(v.out.contains("CLONE_NOT_FOUND"), "{}", v.out);

    // The same through --source.
    edit(&ws, "ontoly.toml", "\"knowledge\"", "\"../payments\"");
    let v = ontoly(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "--source",
            "acme/payments=/nonexistent/payments",
            "validate",
        ],
    );
    assert_eq!(v.code, 1, "{}", v.both());
    assert!(v.out.contains("CLONE_NOT_FOUND"), "{}", v.out);
    assert!(v.out.contains("--source"), "names the option: {}", v.out);
    // Another missing path is another graph: the cached one must not name the first.
    for path in ["../nope", "../other-nope"] {
        let v = ontoly(
            dir.path(),
            &[
                "--workspace",
                "kb",
                "--source",
                &format!("acme/payments={path}"),
                "validate",
            ],
        );
        assert!(
            v.out.contains(&format!(
                "the clone mapped by --source acme/payments={path} does not exist (a relative --source path is read from the workspace directory, not the current one)"
            )),
            "{}",
            v.out
        );
    }
    // The file's own mapping and an absolute path need no such word.
    assert!(!ontoly(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "--source",
            "acme/payments=/nonexistent/payments",
            "validate"
        ],
    )
    .out
    .contains("a relative --source path"),);
}

#[test]
fn a_clone_mapped_under_a_module_name_the_registry_lacks_is_a_warning_at_its_mapping() {
    let (dir, _) = walkthrough();
    let ws = kb(&dir);
    edit(&ws, "ontoly.toml", "\"acme/payments\"", "\"acme/paymets\"");
    let v = ontoly(dir.path(), &["--workspace", "kb", "validate"]);
    assert_eq!(v.code, 0, "a warning: {}", v.both());
    assert!(
        v.out.contains(
            "ontoly.toml:2: warning CLONE_UNMATCHED: the clone mapped by \"acme/paymets\" = \
             \"../payments\" names no module of sources/repo/index.yaml (registered: \
             acme/payments), so no reference is verified with it"
        ),
        "{}",
        v.out
    );
    // The module it meant has no clone now: validate --require-verified says so.
    let strict = ontoly(
        dir.path(),
        &["--workspace", "kb", "validate", "--require-verified"],
    );
    assert_eq!(strict.code, 1, "{}", strict.both());
    // Through --source as well; a remote (with a host) may name an unregistered repository
    // for reads, and is not reported.
    edit(&ws, "ontoly.toml", "\"acme/paymets\"", "\"acme/payments\"");
    let v = ontoly(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "--source",
            "acme/pay=../payments",
            "--source",
            "github.com/acme/other=../payments",
            "validate",
        ],
    );
    assert!(
        v.out.contains("--source:1: warning CLONE_UNMATCHED")
            && !v.out.contains("--source:2")
            && v.out.contains("0 errors, 1 warning, 0 info"),
        "{}",
        v.out
    );
    let clean = ontoly(dir.path(), &["--workspace", "kb", "validate"]);
    assert!(!clean.out.contains("CLONE_UNMATCHED"), "{}", clean.out);
    // A registry that cannot be read registers nothing known: its REGISTRY_UNUSABLE is the
    // finding, and the clone is not said to name no module ("it registers none" before).
    edit(
        &ws,
        "sources/repo/index.yaml",
        "  - name: acme",
        "\t- name: acme",
    );
    let unusable = ontoly(dir.path(), &["--workspace", "kb", "validate"]);
    assert!(
        unusable.out.contains("error REGISTRY_UNUSABLE")
            && unusable.out.contains("indented with a tab")
            && !unusable.out.contains("CLONE_UNMATCHED"),
        "{}",
        unusable.out
    );
}

#[test]
fn cites_of_lines_past_a_files_end_says_where_it_ends() {
    let (dir, _) = walkthrough();
    let r = ontoly(
        dir.path(),
        &["--workspace", "kb", "cites", "src/retry.py:10-12"],
    );
    assert_eq!(r.code, 1, "{}", r.both());
    assert!(
        r.both()
            .contains("src/retry.py ends at line 3, before line 10."),
        "{}",
        r.both()
    );
    // Lines inside the file that no range covers: no such line.
    let r = ontoly(
        dir.path(),
        &["--workspace", "kb", "cites", "src/retry.py:3-3"],
    );
    assert!(!r.both().contains("ends at line"), "{}", r.both());
}

#[test]
fn validate_require_verified_fails_while_a_reference_is_unverified() {
    let (dir, _) = walkthrough();
    let ws = kb(&dir);
    let ok = ontoly(
        dir.path(),
        &["--workspace", "kb", "validate", "--require-verified"],
    );
    assert_eq!(ok.code, 0, "{}", ok.both());
    std::fs::remove_file(ws.join("ontoly.toml")).expect("rm");
    let v = ontoly(
        dir.path(),
        &["--workspace", "kb", "validate", "--require-verified"],
    );
    assert_eq!(v.code, 1, "no clone: nothing verified: {}", v.both());
    assert!(v.both().contains("no_clone"), "says why: {}", v.both());
    let plain = ontoly(dir.path(), &["--workspace", "kb", "validate"]);
    assert_eq!(
        plain.code, 0,
        "without the flag an unverifiable reference is not an error"
    );
}

// ---------------------------------------------------------------------------------------------
// Item 3: the format documented; `init` and `digest`; a digest mismatch that teaches.
// ---------------------------------------------------------------------------------------------

#[test]
fn the_docs_stand_alone() {
    let mut docs = vec![
        repo_root().join("README.md"),
        repo_root().join("ARCHITECTURE.md"),
    ];
    for dir in [
        "docs",
        "testdata",
        "testdata/conformance/plugin",
        "testdata/conformance/extra",
    ] {
        for entry in std::fs::read_dir(repo_root().join(dir))
            .expect("read dir")
            .flatten()
        {
            if entry.path().extension().is_some_and(|e| e == "md") {
                docs.push(entry.path());
            }
        }
        let readme = repo_root().join(dir).join("README.md");
        if readme.exists() {
            docs.push(readme);
        }
    }
    for doc in &docs {
        let text = std::fs::read_to_string(doc).expect("read doc");
        assert!(
            !text.contains("shared/spec") && !text.contains("spec/formats.md"),
            "{} points outside the repository",
            doc.display()
        );
    }
    let readme = std::fs::read_to_string(repo_root().join("README.md")).expect("README");
    assert!(
        readme.contains("docs/workspace-format.md"),
        "the README links the format"
    );
    assert!(
        readme.contains("docs/ci.md"),
        "the README links the CI guide"
    );
}

#[test]
fn init_then_the_walkthrough_gives_a_valid_workspace() {
    let dir = tempfile::tempdir().expect("tempdir");
    let r = ontoly(dir.path(), &["init", "kb"]);
    assert_eq!(r.code, 0, "{}", r.both());
    for f in ["knowledge/structure.yaml", "ontoly.toml"] {
        assert!(dir.path().join("kb").join(f).is_file(), "init writes {f}");
    }
    let v = ontoly(dir.path(), &["--workspace", "kb", "validate"]);
    assert_eq!(v.code, 0, "a fresh workspace is valid: {}", v.both());
    let s = ontoly(
        dir.path(),
        &["--workspace", "kb", "--format", "json", "stats"],
    );
    let stats: Value = serde_json::from_str(&s.out).expect("stats json");
    assert!(
        stats.to_string().contains("\"Section\":1"),
        "one page with one section: {stats}"
    );
    assert!(
        r.out
            .contains("`ontoly --workspace kb digest PATH:START-END --source MODULE`")
            && r.out.contains("`ontoly --workspace kb validate`")
            && !r.out.contains("docs/"),
        "the next steps are commands, not a docs path the binary does not ship: {}",
        r.out
    );
    let again = ontoly(dir.path(), &["init", "kb"]);
    assert_ne!(again.code, 0, "init never overwrites");
    assert!(
        again
            .err
            .contains("ontoly.toml, kb/.gitignore already exist; init never overwrites"),
        "{}",
        again.err
    );
    // A directory with a space is quoted in the commands, so they paste back.
    let spaced = ontoly(dir.path(), &["init", "my kb"]);
    assert!(
        spaced.out.contains("`ontoly --workspace 'my kb' validate`"),
        "{}",
        spaced.out
    );
    // A first digest before any repository is registered says what to add, and where.
    for args in [
        &["--workspace", "kb", "digest", "src/retry.py:1-3"][..],
        &[
            "--workspace",
            "kb",
            "digest",
            "src/retry.py:1-3",
            "--source",
            "acme/payments",
        ][..],
    ] {
        let d = ontoly(dir.path(), args);
        assert_eq!(d.code, 2, "{}", d.both());
        assert!(
            d.err.contains("registers no repository yet")
                && d.err.contains("sources/repo/index.yaml")
                && d.err.contains("ontoly.toml"),
            "{}",
            d.err
        );
    }

    // A reference before any registry: the diagnostic shows a registry to start from, in one
    // line the user can paste, not a docs path the binary does not ship.
    let structure = dir.path().join("kb/knowledge/structure.yaml");
    let text = std::fs::read_to_string(&structure).expect("read");
    let cited = text.replace(
        "references: []",
        "references:\n          - source_ref: repo:acme/payments\n            locator: {path: src/retry.py, start_line: 1, end_line: 3}\n            content_digest: sha256:0000000000000000000000000000000000000000000000000000000000000000",
    );
    assert_ne!(cited, text, "the starter section lists no references");
    std::fs::write(&structure, cited).expect("write");
    let v = ontoly(dir.path(), &["--workspace", "kb", "validate"]);
    assert!(
        v.out.contains("sources/repo/index.yaml does not exist")
            && v.out
                .contains(ontoly_graph::formats::source_registry::REPO_EXAMPLE)
            && !v.out.contains("docs/"),
        "{}",
        v.both()
    );

    // Then a page and a reference, by the document (its files overwrite the starter ones).
    let (walk, _) = walkthrough();
    std::fs::rename(walk.path().join("payments"), dir.path().join("payments")).expect("mv");
    for f in [
        "knowledge/guides/payments.md",
        "knowledge/structure.yaml",
        "sources/repo/index.yaml",
        "ontoly.toml",
    ] {
        let to = dir.path().join("kb").join(f);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        std::fs::copy(kb(&walk).join(f), to).expect("copy");
    }
    let v = ontoly(dir.path(), &["--workspace", "kb", "validate"]);
    assert_eq!(v.code, 0, "{}", v.both());
    let s = ontoly(dir.path(), &["--workspace", "kb", "stats"]);
    assert_eq!(status_count(&s.out, "verified"), Some(1), "{}", s.out);
}

/// The one reference entry `ontoly digest` prints (a YAML list item or map).
fn printed_reference(out: &str) -> Value {
    let v: Value = yaml_serde::from_str(out).expect("digest prints YAML");
    match v {
        Value::Array(mut items) if items.len() == 1 => items.remove(0),
        other => other,
    }
}

#[test]
fn digest_prints_a_reference_ready_to_paste() {
    let (dir, _) = walkthrough();
    let r = ontoly(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "digest",
            "src/retry.py:1-3",
            "--source",
            "acme/payments",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.both());
    assert_eq!(
        printed_reference(&r.out),
        json!({
            "source_ref": "repo:acme/payments",
            "locator": {"path": "src/retry.py", "start_line": 1, "end_line": 3},
            "content_digest": DIGEST_1_3,
        }),
        "{}",
        r.out
    );
    let r = ontoly(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "digest",
            "src/retry.py:2-3",
            "--source",
            "acme/payments",
            "--rev",
            COMMIT,
        ],
    );
    assert_eq!(r.code, 0, "{}", r.both());
    assert_eq!(printed_reference(&r.out)["content_digest"], DIGEST_2_3);
    let past = ontoly(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "digest",
            "src/retry.py:2-9",
            "--source",
            "acme/payments",
        ],
    );
    assert_ne!(past.code, 0);
    assert!(
        past.err.contains("3 lines"),
        "says the file's length: {}",
        past.err
    );
    // Line 4 is the empty text after the file's final newline: the format's split makes it a
    // line, but an entry ending there is the `sed` digest the docs warn about.
    let tail = ontoly(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "digest",
            "src/retry.py:2-4",
            "--source",
            "acme/payments",
        ],
    );
    assert_eq!(tail.code, 1, "{}", tail.both());
    assert!(
        tail.err.contains("line 4 is the empty text after its final newline, which cites nothing; lines 2-3 are the range"),
        "{}",
        tail.err
    );
    assert!(!tail.out.contains("content_digest"), "{}", tail.out);
    // A path as people shorten it, or with a directory too many: the file it most likely
    // meant, with the command that prints its entry (`cites` reads `retry.py` alike).
    for (typed, question) in [
        ("retry.py", "did the path leave out a directory?"),
        (
            "payments/src/retry.py",
            "is `payments/` in front of it a directory too many?",
        ),
    ] {
        let short = ontoly(
            dir.path(),
            &[
                "--workspace",
                "kb",
                "digest",
                &format!("{typed}:1-3"),
                "--source",
                "acme/payments",
            ],
        );
        assert_eq!(short.code, 1, "{}", short.both());
        assert!(
            short.err.contains(&format!(
                "the commit has `src/retry.py`: {question} `ontoly digest src/retry.py:1-3 --source acme/payments` prints its entry"
            )),
            "{}",
            short.err
        );
    }
}

#[test]
fn a_digest_mismatch_shows_both_digests_and_the_rule() {
    let (dir, _) = walkthrough();
    edit(
        &kb(&dir),
        "knowledge/structure.yaml",
        DIGEST_1_3,
        SED_DIGEST_1_3,
    );
    let v = ontoly(dir.path(), &["--workspace", "kb", "validate"]);
    assert_eq!(v.code, 1, "{}", v.both());
    assert!(v.out.contains("REFERENCE_DIGEST_MISMATCH"), "{}", v.out);
    assert!(
        v.out.contains(SED_DIGEST_1_3),
        "the recorded digest: {}",
        v.out
    );
    assert!(v.out.contains(DIGEST_1_3), "the actual digest: {}", v.out);
    assert!(v.out.contains("no trailing newline"), "the rule: {}", v.out);
}

// ---------------------------------------------------------------------------------------------
// Item 4: --format is honest.
// ---------------------------------------------------------------------------------------------

#[test]
fn unsupported_formats_are_usage_errors() {
    let (dir, _) = walkthrough();
    // Each of these prints text today, whatever the format says.
    let cases: &[(&str, &[&str])] = &[
        ("github", &["stats"]),
        ("mermaid", &["validate"]),
        ("dot", &["build"]),
        ("mermaid", &["capabilities"]),
        (
            "dot",
            &[
                "search",
                "--repo",
                "acme/payments",
                "--rev",
                COMMIT,
                "attempt",
            ],
        ),
        (
            "github",
            &[
                "read",
                "--repo",
                "acme/payments",
                "--rev",
                COMMIT,
                "src/retry.py",
            ],
        ),
        ("mermaid", &["resolve", "--repo", "acme/payments"]),
    ];
    for (format, args) in cases {
        let mut all = vec!["--workspace", "kb", "--format", format];
        all.extend_from_slice(args);
        let r = ontoly(dir.path(), &all);
        assert_eq!(r.code, 2, "--format {format} {args:?}: {}", r.both());
        assert_eq!(r.out, "", "nothing on stdout for a usage error");
    }
    let help = ontoly(dir.path(), &["stats", "--help"]);
    assert!(
        !help.out.contains("mermaid"),
        "--help lists only what stats supports"
    );
}

#[test]
fn validate_github_annotates_each_diagnostic_at_its_line() {
    let (dir, _) = walkthrough();
    edit(
        &kb(&dir),
        "knowledge/structure.yaml",
        DIGEST_1_3,
        SED_DIGEST_1_3,
    );
    as_repository(dir.path());
    let v = ontoly(
        &kb(&dir).join("knowledge"),
        &["--format", "github", "validate"],
    );
    assert_eq!(v.code, 1, "{}", v.both());
    let line = v
        .out
        .lines()
        .find(|l| l.starts_with("::error ") && l.contains("REFERENCE_DIGEST_MISMATCH"))
        .unwrap_or_else(|| panic!("an annotation: {}", v.out));
    assert!(
        line.contains("file=kb/knowledge/structure.yaml,line=10"),
        "repository-relative file and line: {line}"
    );
    assert!(line.contains("endLine="), "{line}");
}

// ---------------------------------------------------------------------------------------------
// Item 5: the demo passes its own gate.
// ---------------------------------------------------------------------------------------------

#[test]
fn the_demo_validates_cleanly() {
    let root = repo_root();
    let v = ontoly(
        &root,
        &["--workspace", "testdata/demo", "--no-cache", "validate"],
    );
    assert_eq!(v.code, 0, "{}", v.both());
    assert!(
        v.out.ends_with("demo: 0 errors, 0 warnings, 0 info\n"),
        "{}",
        v.out
    );
}

/// The `check` half of item 5: the README's CI snippet is green out of the box. One question is
/// a marked known failure (issue 8), so the tally must say so rather than hide it.
#[test]
fn the_demo_passes_its_own_gate() {
    let root = repo_root();
    let c = ontoly(
        &root,
        &[
            "--workspace",
            "testdata/demo",
            "--no-cache",
            "check",
            "--questions",
            "testdata/demo/questions.yaml",
        ],
    );
    assert_eq!(c.code, 0, "{}", c.both());
    assert!(c.out.contains(" failed\n"), "{}", c.out);
    assert!(c.out.contains(", 0 failed"), "{}", c.out);
    assert!(c.out.contains("known failure"), "{}", c.out);
}

// ---------------------------------------------------------------------------------------------
// Item 6: errors that teach.
// ---------------------------------------------------------------------------------------------

#[test]
fn a_missing_commit_names_the_full_sha_and_the_registry_line() {
    let (dir, _) = walkthrough();
    // One hex digit off: the 12-character prefix still matches the commit the clone has.
    let wrong = "c11b1eb453b0094c5646c4460b5d32184c56cc1e";
    edit(&kb(&dir), "sources/repo/index.yaml", COMMIT, wrong);
    let v = ontoly(dir.path(), &["--workspace", "kb", "validate"]);
    assert_eq!(v.code, 1, "{}", v.both());
    assert!(v.out.contains("REFERENCE_COMMIT_MISSING"), "{}", v.out);
    assert!(v.out.contains(wrong), "the full SHA: {}", v.out);
    assert!(
        v.out.contains("sources/repo/index.yaml:8"),
        "where it is pinned: {}",
        v.out
    );
}

#[test]
fn a_missing_registry_is_named() {
    let (dir, _) = walkthrough();
    std::fs::remove_file(kb(&dir).join("sources/repo/index.yaml")).expect("rm");
    let v = ontoly(dir.path(), &["--workspace", "kb", "validate"]);
    assert_eq!(v.code, 1, "{}", v.both());
    assert!(v.out.contains("sources/repo/index.yaml"), "{}", v.out);
}

#[test]
fn a_section_id_typo_suggests_the_nearest_id() {
    let (dir, _) = walkthrough();
    let g = ontoly(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "graph",
            "--focus",
            "section:guides/payments.md#backof",
            "--format",
            "mermaid",
        ],
    );
    assert_eq!(g.code, 2, "{}", g.both());
    assert!(
        g.err.contains("section:guides/payments.md#backoff"),
        "{}",
        g.err
    );

    edit(
        &kb(&dir),
        "knowledge/structure.yaml",
        "- id: backoff",
        "- id: backof",
    );
    let v = ontoly(dir.path(), &["--workspace", "kb", "validate"]);
    let lines: Vec<&str> = v.out.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("SECTION_MISSING_MARKER"))
        .unwrap_or_else(|| panic!("{}", v.out));
    let near = lines[at..(at + 2).min(lines.len())].join("\n");
    assert!(near.contains("`backoff`"), "suggests the marker id: {near}");
}

#[test]
fn a_range_past_the_end_says_the_file_length() {
    let (dir, _) = walkthrough();
    edit(
        &kb(&dir),
        "knowledge/structure.yaml",
        "end_line: 3}",
        "end_line: 9}",
    );
    let v = ontoly(dir.path(), &["--workspace", "kb", "validate"]);
    assert_eq!(v.code, 1, "{}", v.both());
    let line = v
        .out
        .lines()
        .find(|l| l.contains("REFERENCE_RANGE_OUT_OF_BOUNDS"))
        .unwrap_or_else(|| panic!("{}", v.out));
    assert!(line.contains("3 lines"), "{line}");
}

#[test]
fn question_file_errors_name_the_file_key_and_line() {
    let (dir, _) = walkthrough();
    let r = ontoly(
        dir.path(),
        &["--workspace", "kb", "check", "--questions", "nope.yaml"],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.err.contains("nope.yaml") && r.err.contains("does not exist"),
        "{}",
        r.err
    );
    assert!(!r.err.contains("entity not found"), "{}", r.err);

    std::fs::write(
        dir.path().join("q.yaml"),
        "questions:\n  - query: \"retry backoff\"\n    expected_section: [\"section:guides/payments.md#backoff\"]\n",
    )
    .expect("write");
    let r = ontoly(
        dir.path(),
        &["--workspace", "kb", "check", "--questions", "q.yaml"],
    );
    assert_eq!(r.code, 2, "a misspelled key is a usage error: {}", r.both());
    assert!(r.err.contains("expected_section"), "{}", r.err);
    assert!(
        r.err.contains("line 3") || r.err.contains("q.yaml:3"),
        "{}",
        r.err
    );
}

#[test]
fn every_error_has_one_style() {
    let (dir, _) = walkthrough();
    let nowhere = tempfile::tempdir().expect("tempdir");
    let failures: Vec<Run> = vec![
        ontoly(nowhere.path(), &["validate"]),
        ontoly(
            dir.path(),
            &["--workspace", "kb", "--source", "acme/payments", "validate"],
        ),
        ontoly(
            dir.path(),
            &["--workspace", "kb", "check", "--questions", "nope.yaml"],
        ),
        ontoly(
            dir.path(),
            &[
                "--workspace",
                "kb",
                "read",
                "--repo",
                "acme/nope",
                "src/retry.py",
            ],
        ),
        ontoly(
            dir.path(),
            &["--workspace", "kb", "--format", "dot", "stats"],
        ),
        ontoly(
            dir.path(),
            &[
                "--workspace",
                "kb",
                "graph",
                "--focus",
                "section:nope.md#x",
                "--format",
                "dot",
            ],
        ),
    ];
    for r in failures {
        assert_ne!(r.code, 0);
        let first = r.err.lines().next().unwrap_or("");
        assert!(first.starts_with("error: "), "{:?}", r.err);
        for l in r.err.lines().skip(1) {
            assert!(
                l.starts_with("hint: ") || l.starts_with("  ") || l.is_empty(),
                "only `hint:` lines follow: {:?}",
                r.err
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Item 7: exit codes scripts can trust.
// ---------------------------------------------------------------------------------------------

#[test]
fn exit_codes_scripts_can_trust() {
    let (dir, _) = walkthrough();
    let ws = |args: &[&str]| {
        let mut all = vec!["--workspace", "kb"];
        all.extend_from_slice(args);
        ontoly(dir.path(), &all)
    };
    assert_eq!(
        ws(&["refs", "knowledge/guides/nope.md:1-3"]).code,
        1,
        "refs of a missing page"
    );
    // The page's front matter holds no section: an empty references output, with a note
    // that says why rather than nothing at all (Go walk, stop 48).
    let front = ws(&["refs", "knowledge/guides/payments.md:1-3"]);
    assert_eq!((front.code, front.out.trim()), (0, ""), "{}", front.err);
    assert!(
        front.err.contains(
            "no section of knowledge/guides/payments.md overlapping lines 1-3 has references"
        ),
        "{}",
        front.err
    );
    let many = ws(&[
        "read-many",
        "--repo",
        "acme/payments",
        "--rev",
        COMMIT,
        "src/retry.py:1-2",
        "src/nope.py:1-2",
    ]);
    assert_eq!(
        many.code,
        1,
        "read-many with a failed item: {}",
        many.both()
    );
    assert!(
        many.out.contains("def backoff(attempt):"),
        "the good item is still printed"
    );
    let none = ws(&[
        "search",
        "--repo",
        "acme/payments",
        "--rev",
        COMMIT,
        "zzz-no-match",
    ]);
    assert_eq!(none.code, 1, "search without a match, like rg");
    let hit = ws(&[
        "search",
        "--repo",
        "acme/payments",
        "--rev",
        COMMIT,
        "attempt",
    ]);
    assert_eq!(hit.code, 0, "{}", hit.both());
    let help = ontoly(dir.path(), &["--help"]);
    assert!(
        help.out.contains("Exit codes"),
        "--help documents the exit codes"
    );
    for code in ["0", "1", "2", "3"] {
        assert!(help.out.contains(code));
    }
}

/// The questions-file half of item 7 (split from `exit_codes_scripts_can_trust`: the questions
/// file belongs to the gate, issue 8).
#[test]
fn a_questions_file_without_questions_is_a_usage_error() {
    let (dir, _) = walkthrough();
    for (name, text) in [
        ("empty.yaml", ""),
        ("list.yaml", "[]\n"),
        ("map.yaml", "questions: []\n"),
    ] {
        std::fs::write(dir.path().join(name), text).expect("write");
        let r = ontoly(
            dir.path(),
            &["--workspace", "kb", "check", "--questions", name],
        );
        assert_eq!(
            r.code,
            2,
            "{name}: a questions file without questions: {}",
            r.both()
        );
    }
    // A file that is not UTF-8 says where, as a page does ("invalid data" before: new-user
    // walk, stop 41).
    std::fs::write(
        dir.path().join("latin1.yaml"),
        b"- q: retry\n- q: caf\xe9 latte\n",
    )
    .expect("write");
    let r = ontoly(
        dir.path(),
        &["--workspace", "kb", "check", "--questions", "latin1.yaml"],
    );
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(
        r.err.starts_with(
            "error: latin1.yaml: not UTF-8: the first byte that is not (0xe9) is at line 2, byte 9 of the line"
        ),
        "{}",
        r.err
    );
}

// ---------------------------------------------------------------------------------------------
// Item 9: CI outputs.
// ---------------------------------------------------------------------------------------------

/// Two questions: the first is answered by the walk-through's section (passes), the second is
/// marked unanswerable but is answered with high confidence (fails, at line 4).
const QUESTIONS: &str = "questions:\n  - query: \"What is the retry backoff?\"\n    expect: [\"section:guides/payments.md#backoff\"]\n  - query: \"Backoff before retry\"\n    answerable: false\n";

fn sarif_violations(log: &Value) -> Vec<String> {
    let path = repo_root().join("testdata/schemas/sarif-schema-2.1.0.json");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("schema")).expect("json");
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("schema compiles");
    validator
        .iter_errors(log)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

/// The `(uri, startLine)` of every result of a SARIF log.
fn sarif_locations(log: &Value) -> Vec<(String, u64)> {
    log["runs"][0]["results"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| r["locations"].as_array().cloned().unwrap_or_default())
        .map(|l| {
            let p = &l["physicalLocation"];
            (
                p["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap_or("")
                    .to_string(),
                p["region"]["startLine"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

#[test]
fn check_annotations_use_repository_relative_paths() {
    let (dir, _) = walkthrough();
    std::fs::write(kb(&dir).join("questions.yaml"), QUESTIONS).expect("write");
    as_repository(dir.path());
    // From inside the workspace, the questions file typed relative to the current directory.
    let r = ontoly(
        &kb(&dir).join("knowledge"),
        &[
            "--format",
            "github",
            "check",
            "--questions",
            "../questions.yaml",
        ],
    );
    assert_eq!(
        r.code,
        3,
        "the unanswerable question is answered: {}",
        r.both()
    );
    let line = r
        .out
        .lines()
        .find(|l| l.starts_with("::error "))
        .unwrap_or_else(|| panic!("{}", r.out));
    assert!(line.contains("file=kb/questions.yaml,line=4"), "{line}");
    assert!(line.contains("endLine=") && line.contains("col="), "{line}");
}

#[test]
fn sarif_for_validate_and_check_is_valid_and_located() {
    let (dir, _) = walkthrough();
    edit(
        &kb(&dir),
        "knowledge/structure.yaml",
        DIGEST_1_3,
        SED_DIGEST_1_3,
    );
    std::fs::write(kb(&dir).join("questions.yaml"), QUESTIONS).expect("write");
    as_repository(dir.path());
    let v = ontoly(
        dir.path(),
        &["--workspace", "kb", "--format", "sarif", "validate"],
    );
    assert_eq!(v.code, 1, "{}", v.err);
    let log: Value = serde_json::from_str(&v.out).expect("SARIF is JSON");
    assert_eq!(sarif_violations(&log), Vec::<String>::new());
    assert_eq!(
        log["runs"][0]["results"][0]["ruleId"],
        "REFERENCE_DIGEST_MISMATCH"
    );
    assert!(sarif_locations(&log).contains(&("kb/knowledge/structure.yaml".to_string(), 10)));

    let c = ontoly(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "--format",
            "sarif",
            "check",
            "--questions",
            "kb/questions.yaml",
        ],
    );
    assert_eq!(c.code, 3, "{}", c.err);
    let log: Value = serde_json::from_str(&c.out).expect("SARIF is JSON");
    assert_eq!(sarif_violations(&log), Vec::<String>::new());
    // The workspace's error first (the gate fails on it too), then the failed question.
    assert_eq!(
        sarif_locations(&log),
        vec![
            ("kb/knowledge/structure.yaml".to_string(), 10),
            ("kb/questions.yaml".to_string(), 4)
        ]
    );

    let clean = ontoly(
        dir.path(),
        &["--workspace", "kb", "--format", "sarif", "stats"],
    );
    assert_eq!(clean.code, 2, "stats has no SARIF form");
}

#[test]
fn check_junit_has_one_case_per_question() {
    let (dir, _) = walkthrough();
    std::fs::write(kb(&dir).join("questions.yaml"), QUESTIONS).expect("write");
    let check_as = |format: &str, file: &str| {
        ontoly(
            dir.path(),
            &[
                "--workspace",
                "kb",
                "--format",
                format,
                "check",
                "--questions",
                file,
            ],
        )
    };
    let junit = |file: &str| check_as("junit", file);
    let r = junit("kb/questions.yaml");
    assert_eq!(r.code, 3, "{}", r.err);
    assert!(r.out.starts_with("<?xml"), "{}", r.out);
    assert!(
        r.out.contains("<testsuite") && r.out.contains("tests=\"2\""),
        "{}",
        r.out
    );
    assert!(r.out.contains("failures=\"1\""), "{}", r.out);
    assert_eq!(r.out.matches("<testcase").count(), 2, "{}", r.out);
    assert_eq!(r.out.matches("<failure").count(), 1, "{}", r.out);

    // A questions file that does not parse is a report of one error, not an empty file.
    std::fs::write(kb(&dir).join("bad.yaml"), "- q: x\n  answerable: \"yes\"\n").expect("write");
    let r = junit("kb/bad.yaml");
    // In GitHub's format, the annotation is at the line the error names; with no repository
    // around the workspace, its file is relative to the workspace's root.
    let github = check_as("github", "kb/bad.yaml");
    assert_eq!(github.code, 2, "{}", github.err);
    assert!(
        github
            .out
            .starts_with("::error file=bad.yaml,line=2,endLine=2,col=1,title=ontoly check::"),
        "{}",
        github.out
    );
    // A YAML syntax error too (it was put at line 1 whatever line it named).
    std::fs::write(
        kb(&dir).join("syntax.yaml"),
        "- q: fine\n  expect: [a#b]\n- q: [unclosed\n",
    )
    .expect("write");
    let syntax = check_as("github", "kb/syntax.yaml");
    assert_eq!(syntax.code, 2, "{}", syntax.err);
    let sarif: serde_json::Value =
        serde_json::from_str(&check_as("sarif", "kb/syntax.yaml").out).expect("a SARIF log");
    let place = &sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]["locations"]
        [0]["physicalLocation"];
    assert_eq!(place["artifactLocation"]["uri"], "syntax.yaml", "{sarif}");
    assert_eq!(place["region"]["startLine"], 3, "{sarif}");
    assert!(
        syntax.out.starts_with(
            // The parser names the line after the last (the end of the input, line 4): the
            // annotation is put on the file's last line.
            "::error file=syntax.yaml,line=3,endLine=3,col=1,title=ontoly check::kb/syntax.yaml: line 4: invalid YAML: "
        ),
        "{}",
        syntax.out
    );
    assert_eq!(r.code, 2, "{}", r.err);
    assert!(r.out.starts_with("<?xml"), "{}", r.out);
    assert!(r.out.contains("errors=\"1\""), "{}", r.out);
    assert!(
        r.out.contains(
            "<error message=\"kb/bad.yaml: line 2: question 1: `answerable` must be true or false\""
        ),
        "{}",
        r.out
    );
}

#[test]
fn a_step_summary_is_written_when_github_asks_for_one() {
    let (dir, _) = walkthrough();
    std::fs::write(kb(&dir).join("questions.yaml"), QUESTIONS).expect("write");
    let summary = dir.path().join("summary.md");
    std::fs::write(&summary, "earlier step\n").expect("write");
    for args in [
        &["--workspace", "kb", "validate"][..],
        &[
            "--workspace",
            "kb",
            "check",
            "--questions",
            "kb/questions.yaml",
            "--format",
            "github",
        ][..],
    ] {
        let r = finish(
            ontoly_cmd(dir.path(), args)
                .env("GITHUB_STEP_SUMMARY", &summary)
                .stdin(Stdio::null())
                .output(),
        );
        assert_ne!(r.code, 2, "{}", r.err);
    }
    let text = std::fs::read_to_string(&summary).expect("summary");
    assert!(
        text.starts_with("earlier step\n"),
        "appended, not overwritten"
    );
    assert!(
        text.contains("ontoly validate") && text.contains("ontoly check"),
        "{text}"
    );
    assert!(text.contains("| "), "a Markdown table: {text}");
    // Without the variable nothing is written anywhere.
    let before = std::fs::read_to_string(&summary).expect("summary");
    ontoly(dir.path(), &["--workspace", "kb", "validate"]);
    assert_eq!(std::fs::read_to_string(&summary).expect("summary"), before);
}

// ---------------------------------------------------------------------------------------------
// Item 10: install and the binary.
// ---------------------------------------------------------------------------------------------

#[test]
fn version_names_the_commit() {
    let r = ontoly(&repo_root(), &["--version"]);
    assert_eq!(r.code, 0);
    // `ontoly 0.1.0 (0123456789ab)` or with a date after the commit.
    let line = r.out.trim();
    let rest = line
        .strip_prefix(&format!("ontoly {} (", env!("CARGO_PKG_VERSION")))
        .unwrap_or_else(|| panic!("{line}"));
    let commit: String = rest.chars().take_while(char::is_ascii_hexdigit).collect();
    assert!(commit.len() >= 7, "a commit id: {line}");
}

#[test]
fn completions_and_a_man_page() {
    // fish names long options `-l workspace`, the others `--workspace`.
    for (shell, marker, option) in [
        ("bash", "complete -F", "--workspace"),
        ("zsh", "#compdef ontoly", "--workspace"),
        ("fish", "complete -c ontoly", "-l workspace"),
        ("powershell", "Register-ArgumentCompleter", "--workspace"),
    ] {
        let r = ontoly(&repo_root(), &["completions", shell]);
        assert_eq!(r.code, 0, "{shell}: {}", r.err);
        assert!(r.out.contains(marker), "{shell}");
        assert!(
            r.out.contains("validate") && r.out.contains(option),
            "{shell}"
        );
    }
    let man = ontoly(&repo_root(), &["man"]);
    assert_eq!(man.code, 0, "{}", man.err);
    assert!(
        man.out.contains(".TH ontoly 1"),
        "roff: {}",
        &man.out[..man.out.len().min(200)]
    );
    // Every page the main one lists (`ontoly\-evidence(1)`) is one `--dir` writes.
    let listed: Vec<String> = man
        .out
        .lines()
        .filter_map(|l| l.strip_suffix("(1)"))
        .map(|l| format!("{}.1", l.replace("\\-", "-")))
        .collect();
    assert!(listed.len() >= 15, "{listed:?}");
    let dir = tempfile::tempdir().expect("temp dir");
    let pages = dir.path().join("man1");
    // A link at a page's name is replaced, never written through.
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious\n").expect("victim");
    std::fs::create_dir_all(&pages).expect("man1");
    std::os::unix::fs::symlink(&victim, pages.join("ontoly-build.1")).expect("link");
    let wrote = ontoly(dir.path(), &["man", "--dir", "man1"]);
    assert_eq!(
        std::fs::read_to_string(&victim).expect("victim"),
        "precious\n"
    );
    assert_eq!(wrote.code, 0, "{}", wrote.err);
    for page in listed
        .iter()
        .chain(std::iter::once(&"ontoly.1".to_string()))
    {
        let text = std::fs::read_to_string(pages.join(page))
            .unwrap_or_else(|e| panic!("{page} listed but not written: {e}"));
        assert!(text.starts_with(".ie"), "{page}: roff");
        assert!(wrote.out.contains(&format!("man1/{page}")), "{}", wrote.out);
    }
}

#[test]
fn every_command_help_ends_with_examples() {
    let commands = listed_commands();
    assert!(commands.len() >= 15, "{commands:?}");
    for c in &commands {
        let h = ontoly(&repo_root(), &[c, "--help"]);
        let examples: Vec<&str> = h
            .out
            .lines()
            .skip_while(|l| !l.starts_with("Examples:"))
            .filter(|l| {
                l.trim_start().starts_with("ontoly ") || l.trim_start().starts_with("$ ontoly ")
            })
            .collect();
        assert!(
            (1..=3).contains(&examples.len()),
            "`ontoly {c} --help` ends with 1-3 examples:\n{}",
            h.out
        );
    }
}

/// The commands `ontoly --help` lists, but `help`.
fn listed_commands() -> Vec<String> {
    let top = ontoly(&repo_root(), &["--help"]);
    top.out
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect()
}

/// A script reads a command's exit codes from its `--help`: each code once, in order (drift,
/// impact, init and mark listed 2 twice, the usage line and their own).
#[test]
fn every_command_help_lists_each_exit_code_once_in_order() {
    for c in listed_commands() {
        let h = ontoly(&repo_root(), &[&c, "--help"]);
        let codes: Vec<u32> = h
            .out
            .lines()
            .skip_while(|l| !l.starts_with("Exit codes:"))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
            .filter_map(|l| l.split_whitespace().next()?.parse().ok())
            .collect();
        assert!(
            codes.first() == Some(&0) && codes.contains(&2),
            "`ontoly {c} --help`: {codes:?}"
        );
        assert!(
            codes.windows(2).all(|w| w[0] < w[1]),
            "`ontoly {c} --help` lists a code twice or out of order:\n{}",
            h.out
        );
    }
}

/// The README's command table names every command the binary lists (`mark` was missing).
#[test]
fn the_readme_command_table_names_every_command() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).expect("README");
    let table: Vec<&str> = readme
        .lines()
        .skip_while(|l| !l.starts_with("| command | what |"))
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.split(" | ").next().unwrap_or(""))
        .collect();
    assert!(table.len() > 10, "the README's command table");
    for c in listed_commands() {
        let named = table.iter().any(|cell| {
            cell.match_indices(&format!("`{c}"))
                .any(|(at, m)| cell[at + m.len()..].starts_with([' ', '`', '[']))
        });
        assert!(named, "the README's command table does not name `{c}`");
    }
}

#[test]
fn install_is_documented_and_the_release_binary_is_stripped() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).expect("README");
    assert!(readme.contains("## Install"), "an Install section");
    assert!(readme.contains("cargo install --locked --path cli"));
    let manifest = std::fs::read_to_string(repo_root().join("Cargo.toml")).expect("Cargo.toml");
    let release: String = manifest
        .split("[profile.release]")
        .nth(1)
        .map(|s| s.split("\n[").next().unwrap_or("").to_string())
        .unwrap_or_default();
    assert!(
        release.contains("strip"),
        "[profile.release] strips: {release}"
    );
}

// ---------------------------------------------------------------------------------------------
// Item 11: MCP consistency.
// ---------------------------------------------------------------------------------------------

/// `tools/list` of `ontoly mcp --workspace <ws>` after the handshake.
fn mcp_tools(dir: &Path, ws: &str) -> Vec<Value> {
    let mut child = ontoly_cmd(dir, &["mcp", "--workspace", ws])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn ontoly mcp");
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "adoption-test", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ];
    let mut stdin = child.stdin.take().expect("stdin");
    for m in &messages {
        writeln!(stdin, "{m}").expect("write");
    }
    drop(stdin);
    let mut stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut all = String::new();
        let _ = stdout.read_to_string(&mut all);
        let _ = tx.send(all);
    });
    let all = match rx.recv_timeout(Duration::from_secs(30)) {
        Ok(all) => all,
        Err(_) => {
            let _ = child.kill();
            panic!("ontoly mcp did not answer within 30 s");
        }
    };
    let _ = child.wait();
    all.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|m| m["id"] == 2)
        .and_then(|m| m["result"]["tools"].as_array().cloned())
        .expect("tools/list answered")
}

/// Every property name in a JSON schema, `$defs` included.
fn property_names(schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::Object(props)) = map.get("properties") {
                out.extend(props.keys().cloned());
            }
            for v in map.values() {
                property_names(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| property_names(v, out)),
        _ => {}
    }
}

#[test]
fn mcp_inputs_follow_one_naming_convention() {
    let (dir, _) = walkthrough();
    let tools = mcp_tools(dir.path(), "kb");
    let schema = |name: &str| {
        tools
            .iter()
            .find(|t| t["name"] == name)
            .map(|t| t["inputSchema"].clone())
            .unwrap_or_else(|| panic!("tool {name}"))
    };
    for t in &tools {
        let mut names = Vec::new();
        property_names(&t["inputSchema"], &mut names);
        for n in names {
            assert!(
                !n.contains('_'),
                "tool {}: input `{n}` is not camelCase like the outputs",
                t["name"]
            );
        }
    }
    for name in ["resolve", "read", "read_many", "search"] {
        assert!(
            schema(name)["properties"].get("repository").is_some(),
            "{name} names its repository input `repository`"
        );
    }
    // The `limit` of EvidencePack: one schema in capabilities and MCP.
    let caps = ontoly(
        dir.path(),
        &["--workspace", "kb", "--format", "json", "capabilities"],
    );
    let caps: Value = serde_json::from_str(&caps.out).expect("capabilities json");
    let cap_limit = caps
        .as_array()
        .and_then(|a| a.iter().find(|c| c["name"] == "EvidencePack"))
        .map(|c| c["inputSchema"]["properties"]["limit"].clone())
        .expect("EvidencePack in capabilities");
    let mcp_limit = schema("EvidencePack")["properties"]["limit"].clone();
    for key in ["type", "minimum", "maximum", "default"] {
        assert_eq!(cap_limit.get(key), mcp_limit.get(key), "limit `{key}`");
    }
}

#[test]
fn short_shas_are_accepted_where_outputs_print_them() {
    let (dir, _) = walkthrough();
    let short = &COMMIT[..12];
    let read = ontoly(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "read",
            "--repo",
            "acme/payments",
            "--rev",
            short,
            "src/retry.py",
            "--start",
            "1",
            "--end",
            "1",
        ],
    );
    assert_eq!(read.code, 0, "{}", read.both());
    assert!(
        read.err.contains(COMMIT),
        "the header names the full commit: {}",
        read.err
    );
    let search = ontoly(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "search",
            "--repo",
            "acme/payments",
            "--rev",
            &COMMIT[..7],
            "attempt",
        ],
    );
    assert_eq!(search.code, 0, "{}", search.both());
    let many = ontoly(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "read-many",
            "--repo",
            "acme/payments",
            "--rev",
            short,
            "src/retry.py:1-1",
        ],
    );
    assert_eq!(many.code, 0, "{}", many.both());
}

#[test]
fn repository_not_found_lists_the_known_repositories() {
    let (dir, _) = walkthrough();
    let r = ontoly(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "read",
            "--repo",
            "acme/paymentz",
            "src/retry.py",
        ],
    );
    assert_eq!(r.code, 1);
    // On stderr (today the error goes to stdout).
    assert!(r.err.contains("REPOSITORY_NOT_FOUND"), "{}", r.both());
    assert!(
        r.err.contains("acme/payments"),
        "lists what it knows: {}",
        r.both()
    );
}

#[test]
fn a_knowledge_page_reads_without_git() {
    let (dir, _) = walkthrough();
    // `kb/` is not a git repository: the read comes from the work tree, marked as such.
    let r = ontoly(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "read",
            "--repo",
            "kb",
            "knowledge/guides/payments.md",
            "--start",
            "6",
            "--end",
            "11",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.both());
    assert!(r.out.contains("## Retry backoff"), "{}", r.out);
    assert!(
        r.out.contains(&format!(
            "https://github.com/acme/payments/blob/{COMMIT}/src/retry.py#L1-L3"
        )),
        "with the references of the section: {}",
        r.out
    );
    assert!(
        r.both().contains("worktree"),
        "marked as a work-tree read: {}",
        r.both()
    );
}

// ---------------------------------------------------------------------------------------------
// Item 12: kept crates instead of hand-written code (the part a test can see).
// ---------------------------------------------------------------------------------------------

#[test]
fn sha2_is_built_in_one_version() {
    let lock = std::fs::read_to_string(repo_root().join("Cargo.lock")).expect("Cargo.lock");
    let versions: Vec<&str> = lock
        .split("[[package]]")
        .filter(|p| p.contains("\nname = \"sha2\"\n"))
        .filter_map(|p| p.lines().find_map(|l| l.strip_prefix("version = ")))
        .collect();
    assert_eq!(
        versions.len(),
        1,
        "sha2 versions in Cargo.lock: {versions:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Item 13: the plugin contract's INVALID_INPUT messages.
// ---------------------------------------------------------------------------------------------

#[test]
fn a_plugin_request_that_does_not_deserialize_gets_the_contract_message() {
    let dir = tempfile::tempdir().expect("tempdir");
    let expected = r#"{"attachments":[{"text":"diagnostics:\n- {\"code\":\"INVALID_INPUT\",\"message\":\"Expected ABI 2 input with item_id on every file and valid plugin arguments\"}"}]}"#;
    for request in [
        "[]",
        r#"{"abi_version": 2, "operation": "read", "files": ["#,
        r#"{"abi_version":2,"operation":"read","files":[{"path":"knowledge/a.md","start_line":1,"end_line":2}]}"#,
        r#"{"abi_version":2,"operation":"read","args":{"verbose":true},"files":[]}"#,
        r#"{"abi_version":"2","operation":"read","files":[]}"#,
    ] {
        let r = ontoly_stdin(dir.path(), &["plugin", "enrich", "--root", "."], request);
        assert_eq!(r.out, expected, "request {request}");
    }
}

// ---------------------------------------------------------------------------------------------
// After a review: accepting changed references.
// ---------------------------------------------------------------------------------------------

#[test]
fn a_reviewed_change_is_accepted_at_its_mapped_range_and_a_deleted_one_is_not() {
    let (dir, _) = walkthrough();
    let ws = kb(&dir);
    let repo = dir.path().join("payments");
    // The cited function changes (its cap), and another one follows it.
    std::fs::write(
        repo.join("src/retry.py"),
        "def backoff(attempt):\n    \"\"\"Seconds to wait before retry number `attempt` (1-based).\"\"\"\n    return min(2 ** attempt, 60)\n\ndef jitter():\n    return 0\n",
    )
    .expect("write");
    git(&repo, &["commit", "-q", "-am", "cap 60"]);
    let later = git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    let structure = std::fs::read(ws.join("knowledge/structure.yaml")).expect("read");
    // Without acceptance the module waits for review, and nothing is written.
    let plain = ontoly(dir.path(), &["--workspace", "kb", "drift", "--write"]);
    assert_eq!(plain.code, 0, "{}", plain.both());
    assert!(
        plain
            .out
            .contains("acme/payments: 1 of 1 references did not survive (1 changed)")
            && plain.out.contains("nothing written"),
        "{}",
        plain.out
    );
    assert_eq!(
        std::fs::read(ws.join("knowledge/structure.yaml")).expect("read"),
        structure
    );
    assert_ne!(
        ontoly(
            dir.path(),
            &["--workspace", "kb", "drift", "--accept-changed"]
        )
        .code,
        0,
        "--accept-changed needs --write"
    );
    // Accepted: pinned at the later commit, the mapped range and its digest, and valid.
    let accepted = ontoly(
        dir.path(),
        &["--workspace", "kb", "drift", "--write", "--accept-changed"],
    );
    assert_eq!(accepted.code, 0, "{}", accepted.both());
    assert!(
        accepted.out.contains(&format!(
            "acme/payments c11b1eb453b0 -> {}: 1 reference, 0 locators and 1 digest \
             rewritten (1 changed, accepted)",
            &later[..12]
        )),
        "{}",
        accepted.out
    );
    let registry = std::fs::read_to_string(ws.join("sources/repo/index.yaml")).expect("read");
    assert!(registry.contains(&later), "{registry}");
    let digest = ontoly(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "digest",
            "--source",
            "acme/payments",
            "src/retry.py:1-3",
        ],
    );
    let written = std::fs::read_to_string(ws.join("knowledge/structure.yaml")).expect("read");
    let line = digest
        .out
        .lines()
        .find(|l| l.contains("content_digest"))
        .expect("a digest line");
    assert!(
        written.contains(line.trim()),
        "{written}\n---\n{}",
        digest.out
    );
    let v = ontoly(
        dir.path(),
        &["--workspace", "kb", "validate", "--require-verified"],
    );
    assert_eq!(v.code, 0, "{}", v.both());
    // The cited lines deleted outright: there is no range to accept.
    std::fs::write(repo.join("src/retry.py"), "def jitter():\n    return 0\n").expect("write");
    git(&repo, &["commit", "-q", "-am", "no backoff"]);
    let registry = std::fs::read(ws.join("sources/repo/index.yaml")).expect("read");
    let gone = ontoly(
        dir.path(),
        &["--workspace", "kb", "drift", "--write", "--accept-changed"],
    );
    assert!(
        gone.out.contains(
            "acme/payments: 1 of 1 references did not survive (1 changed with their cited lines \
             deleted, rewritten or elsewhere)"
        ) && gone.out.contains("nothing written"),
        "{}",
        gone.out
    );
    assert_eq!(
        std::fs::read(ws.join("sources/repo/index.yaml")).expect("read"),
        registry
    );
}

#[test]
fn a_definition_that_grew_around_unchanged_lines_is_for_review_in_every_view() {
    // The walk-through cites `backoff` whole (src/retry.py:1-3). A commit that adds a line of
    // code at the end of its body leaves the three lines as they were: `--write` holds the
    // module back for review, so the section's verdict must not say "still accurate", and
    // `--only-drifted` must keep it (Python walk, stop 48).
    let (dir, _) = walkthrough();
    let repo = dir.path().join("payments");
    let body = "def backoff(attempt):\n    \"\"\"Seconds to wait before retry number `attempt` (1-based).\"\"\"\n    return min(2 ** attempt, 30)\n";
    // A comment appended alone changes what the function says, not what it does: impact
    // lists nothing for it, and drift does not hold the module back (js-drift walk,
    // `repro-exp.sh`).
    std::fs::write(
        repo.join("src/retry.py"),
        format!("{body}    # capped at 30 s\n"),
    )
    .expect("write");
    git(&repo, &["commit", "-q", "-am", "note"]);
    let d = ontoly(dir.path(), &["--workspace", "kb", "drift", "--to", "main"]);
    assert!(
        d.out.contains("still accurate") && !d.out.contains("grew"),
        "{}",
        d.out
    );
    std::fs::write(
        repo.join("src/retry.py"),
        format!("{body}    raise AssertionError(attempt)\n"),
    )
    .expect("write");
    git(&repo, &["commit", "-q", "-am", "dead code"]);
    let d = ontoly(dir.path(), &["--workspace", "kb", "drift", "--to", "main"]);
    assert_eq!(d.code, 0, "{}", d.err);
    assert!(
        d.out.contains(
            "review: function `backoff` grew around the cited lines (now src/retry.py:1-4)"
        ),
        "{}",
        d.out
    );
    assert!(!d.out.contains("still accurate"), "{}", d.out);
    let only = ontoly(
        dir.path(),
        &[
            "--workspace",
            "kb",
            "drift",
            "--to",
            "main",
            "--only-drifted",
        ],
    );
    assert!(only.out.contains("#backoff"), "{}", only.out);
    assert!(only.out.contains("grew around"), "{}", only.out);
}

/// A team converting an existing docs page: `mark` shows the sections its headings make (a
/// `#` comment inside a code fence is no heading), `--write` puts the markers in, and the
/// structure entries it prints make a valid workspace with the page's sections (authoring
/// walk, stop 54: every converting team scripted this).
#[test]
fn mark_converts_an_existing_page_into_marked_sections() {
    let dir = tempfile::tempdir().expect("tempdir");
    assert_eq!(ontoly(dir.path(), &["init", "kb"]).code, 0);
    let page = dir.path().join("kb/knowledge/guides/install.md");
    std::fs::create_dir_all(page.parent().expect("dir")).expect("mkdir");
    let text = "# Installing\n\n```bash\n# install it\npip install x\n```\n\n## Requirements\n\nPython 3.9+.\n\n## Configure it\n\n### Nested\n\nDeep.\n\n1. Step\n\n   ## In a list\n\n> ## Quoted\n\n## 2024\n\nA year.\n";
    std::fs::write(&page, text).expect("write page");
    let dry = ontoly(
        dir.path(),
        &["--workspace", "kb", "mark", "guides/install.md"],
    );
    assert_eq!(dry.code, 0, "{}", dry.both());
    assert_eq!(
        std::fs::read_to_string(&page).expect("page"),
        text,
        "no --write, no change"
    );
    for id in ["requirements", "configure-it", "- id: \"2024\""] {
        assert!(dry.out.contains(id), "{id}: {}", dry.out);
    }
    assert!(
        !dry.out.contains("install-it"),
        "a fence's comment is no heading: {}",
        dry.out
    );
    assert!(
        !dry.out.contains("in-a-list") && !dry.out.contains("quoted"),
        "a list item's or a quote's heading is theirs: {}",
        dry.out
    );
    let w = ontoly(
        dir.path(),
        &["--workspace", "kb", "mark", "guides/install.md", "--write"],
    );
    assert_eq!(w.code, 0, "{}", w.both());
    let entries: String = w
        .out
        .lines()
        .skip_while(|l| !l.starts_with("  - article_id:"))
        .take_while(|l| !l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    let structure = dir.path().join("kb/knowledge/structure.yaml");
    let mut yaml = std::fs::read_to_string(&structure).expect("structure");
    yaml.push_str(&entries);
    std::fs::write(&structure, yaml).expect("structure");
    let v = ontoly(dir.path(), &["--workspace", "kb", "validate"]);
    assert_eq!(v.code, 0, "{}", v.both());
    assert!(v.out.contains("0 errors, 0 warnings"), "{}", v.both());
    let s = ontoly(
        dir.path(),
        &["--workspace", "kb", "--format", "json", "stats"],
    );
    let stats: Value = serde_json::from_str(&s.out).expect("stats json");
    assert!(stats.to_string().contains("\"Section\":4"), "{stats}");
    let again = ontoly(
        dir.path(),
        &["--workspace", "kb", "mark", "guides/install.md"],
    );
    assert!(
        again.out.contains("already marked, 3 sections")
            && again.out.contains("already lists guides/install.md"),
        "{}",
        again.out
    );
    let outside = ontoly(dir.path(), &["--workspace", "kb", "mark", "kb/ontoly.toml"]);
    assert_eq!(outside.code, 2, "{}", outside.both());
}
