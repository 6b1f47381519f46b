//! What the CLI's integration tests share: where the test data is, running the real binary,
//! and copying a fixture into a temporary directory (so no cache lands in the tree).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// `testdata/` of the repository.
pub fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata")
}

/// `testdata/fixtures/`.
pub fn fixtures() -> PathBuf {
    testdata().join("fixtures")
}

/// `testdata/demo/`.
pub fn demo() -> PathBuf {
    testdata().join("demo")
}

/// What one run of the binary did.
#[derive(Debug)]
pub struct Run {
    /// Exit code (-1 when killed by a signal).
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// The binary under test, with colour off (tests read plain text).
pub fn command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ontoly"));
    c.env("NO_COLOR", "1");
    c
}

/// Runs the binary in `dir` with `args`.
pub fn run_in(dir: &Path, args: &[&str]) -> Run {
    let out = command()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs the binary in `dir` with `args` and `input` on standard input.
pub fn run_in_with_stdin(dir: &Path, args: &[&str], input: &[u8]) -> Run {
    run_with_stdin(command().current_dir(dir).args(args), input)
}

/// Runs `command` with `input` on standard input.
pub fn run_with_stdin(command: &mut Command, input: &[u8]) -> Run {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    let mut stdin = child.stdin.take().expect("stdin");
    // Written beside the run: a large input must not wait for the process to read it all.
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("the command runs");
    let _ = writer.join();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs scripts/drift-compare.py on a drift report (`json_text`) against an oracle
/// (`drift_yaml`): whether they agree, and what the script printed.
pub fn compare_drift(json_text: &str, drift_yaml: &Path) -> (bool, String) {
    let r = run_with_stdin(
        std::process::Command::new("python3")
            .arg(testdata().join("../scripts/drift-compare.py"))
            .arg("-")
            .arg(drift_yaml),
        json_text.as_bytes(),
    );
    (r.code == 0, r.stdout + &r.stderr)
}

/// Asserts that nothing of `root`'s absolute location leaks into a run's outputs.
pub fn assert_no_absolute_paths(r: &Run, root: &Path) {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let shown = root.to_string_lossy();
    assert!(
        !r.stdout.contains(shown.as_ref()),
        "absolute path in stdout"
    );
    assert!(
        !r.stderr.contains(shown.as_ref()),
        "absolute path in stderr"
    );
}

/// Copies a directory tree.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        // A cache left by running ontoly in the source tree is not part of the fixture.
        if e.file_name() == ".ontoly" {
            continue;
        }
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy");
        }
    }
}

/// A copy of a corpus's workspace with its bare clone beside it, as its ontoly.toml maps it:
/// the workspace's path, in a directory that lives as long as the guard.
#[allow(dead_code)]
pub fn corpus_copy(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let corpus = testdata().join("corpora").join(name);
    copy_dir(&corpus.join("ws"), &dir.path().join("ws"));
    copy_dir(&corpus.join("repo.git"), &dir.path().join("repo.git"));
    let ws = dir.path().join("ws");
    (dir, ws)
}

/// Runs git in `dir` with the user's configuration ignored.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Ontoly Test")
        .env("GIT_AUTHOR_EMAIL", "test@ontoly.invalid")
        .env("GIT_COMMITTER_NAME", "Ontoly Test")
        .env("GIT_COMMITTER_EMAIL", "test@ontoly.invalid")
        .env("GIT_AUTHOR_DATE", "2025-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2025-01-01T00:00:00Z")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Creates a git repository at `repo` holding `files` (path, text) in one commit and returns
/// that commit's id.
pub fn repo_with_files(repo: &Path, files: &[(&str, &str)]) -> String {
    std::fs::create_dir_all(repo).expect("mkdir");
    git(repo, &["init", "-q", "-b", "main"]);
    for (path, text) in files {
        let at = repo.join(path);
        std::fs::create_dir_all(at.parent().expect("a parent")).expect("mkdir");
        std::fs::write(at, text).expect("write");
    }
    git(repo, &["add", "."]);
    git(repo, &["commit", "-q", "-m", "one"]);
    git(repo, &["rev-parse", "HEAD"]).trim().to_string()
}

/// Writes `knowledge/q.md` with one section per `(id, range)` of `cited`, each citing its range
/// of the module `source_module` (`source/module`) as `ontoly digest` prints it, and the
/// `structure.yaml` that registers them; asserts the workspace validates with every reference
/// verified.
pub fn one_page_citing(ws: &Path, source_module: &str, cited: &[(&str, &str)]) {
    let mut page = String::from("# Q\n\n");
    let mut structure = String::from(
        "schema_version: context.approved-structure.v1\narticles:\n  - path: q.md\n    sections:\n",
    );
    // `digest` reads the registry, which needs a structure file to find the workspace.
    std::fs::write(
        ws.join("knowledge/structure.yaml"),
        "schema_version: context.approved-structure.v1\narticles: []\n",
    )
    .expect("structure");
    for (id, range) in cited {
        page.push_str(&format!("<!-- context:section id=\"{id}\" -->\n## {id}\n\nIt works.\n<!-- /context:section -->\n\n"));
        let entry = run_in(ws, &["digest", range, "--source", source_module]);
        assert_eq!(entry.code, 0, "{}", entry.stderr);
        structure.push_str(&format!("      - id: {id}\n        references:\n"));
        for l in entry.stdout.lines().filter(|l| !l.starts_with('#')) {
            structure.push_str(&format!("          {l}\n"));
        }
    }
    std::fs::write(ws.join("knowledge/q.md"), page).expect("page");
    std::fs::write(ws.join("knowledge/structure.yaml"), structure).expect("structure");
    let check = run_in(ws, &["validate", "--require-verified"]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
}

/// Writes a workspace's source registry and `ontoly.toml` for one module `source/module` of the
/// repository `https://github.com/<remote>`, pinned at `pin`, whose clone is `clone` (relative to
/// `ws`); creates `knowledge/`.
pub fn one_module(ws: &Path, source: &str, module: &str, remote: &str, pin: &str, clone: &str) {
    std::fs::create_dir_all(ws.join("knowledge")).expect("mkdir");
    std::fs::create_dir_all(ws.join("sources/repo")).expect("mkdir");
    std::fs::write(
        ws.join("sources/repo/index.yaml"),
        format!(
            "sources:\n  - name: {source}\n    modules:\n      - name: {module}\n        subpath: \"\"\n        git:\n          remote: https://github.com/{remote}\n          ref: \"{pin}\"\n"
        ),
    )
    .expect("registry");
    std::fs::write(
        ws.join("ontoly.toml"),
        format!("[sources]\n\"{source}/{module}\" = \"{clone}\"\n"),
    )
    .expect("toml");
}
