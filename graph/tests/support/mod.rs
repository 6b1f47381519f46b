//! Real git repositories for the source-reading tests, built with the git CLI from the
//! recipes in `testdata/recipes/` (fixed names and dates: commit ids are stable).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Copies the directory tree `from` to `to` (a fixture into a scratch workspace).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        // A cache left by running ontoly in the source tree is not part of the fixture.
        if e.file_name() == ".ontoly" {
            continue;
        }
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).unwrap();
        }
    }
}

/// The recipes directory.
pub fn recipes() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/recipes")
}

fn git_env(cmd: &mut Command) -> &mut Command {
    cmd.env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Ontoly Test")
        .env("GIT_AUTHOR_EMAIL", "test@ontoly.invalid")
        .env("GIT_COMMITTER_NAME", "Ontoly Test")
        .env("GIT_COMMITTER_EMAIL", "test@ontoly.invalid")
        .env("GIT_AUTHOR_DATE", "2026-02-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-02-01T00:00:00Z")
}

/// Runs git in `dir` and returns its trimmed stdout; panics with stderr on failure.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = git_env(Command::new("git").arg("-C").arg(dir).args(args))
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim_end().to_string()
}

/// A new repository at `dir` (which must exist) holding `path` as `old` in a first commit and
/// as `new` in a second; returns the two commit ids.
pub fn two_commits(dir: &Path, path: &str, old: &str, new: &str) -> (String, String) {
    git(dir, &["init", "-q", "-b", "main"]);
    std::fs::write(dir.join(path), old).expect("writes");
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "c1"]);
    let c1 = git(dir, &["rev-parse", "HEAD"]);
    std::fs::write(dir.join(path), new).expect("writes");
    git(dir, &["commit", "-q", "-am", "c2"]);
    (c1, git(dir, &["rev-parse", "HEAD"]))
}

/// Drift, with symbols and digests, of the line ranges `ranges` of `path` from `old` to
/// `new`, two commits of a repository made for the call.
pub fn drift_between(
    path: &str,
    old: &str,
    new: &str,
    ranges: &[(u64, u64)],
) -> Vec<ontoly_graph::sources::drift::RangeDrift> {
    use ontoly_graph::sources::drift::{self, CitedRange, CompareOptions, DriftRepo};
    let tmp = tempfile::tempdir().expect("temp dir");
    let (c1, c2) = two_commits(tmp.path(), path, old, new);
    let repo =
        DriftRepo::new(&ontoly_graph::sources::git::GitRepo::open(tmp.path()).expect("opens"));
    let options = CompareOptions {
        symbols: true,
        digests: true,
        diffs: false,
    };
    let cited: Vec<CitedRange> = ranges
        .iter()
        .map(|&(start_line, end_line)| CitedRange {
            path: path.into(),
            start_line,
            end_line,
        })
        .collect();
    drift::compare(&repo, &c1, &c2, &cited, options).expect("compares")
}

/// `git show <commit>:<path>` as text.
pub fn show(dir: &Path, commit: &str, path: &str) -> String {
    let out = git_env(
        Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["show", &format!("{commit}:{path}")]),
    )
    .output()
    .expect("git runs");
    assert!(out.status.success(), "git show {commit}:{path}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The "server" source repository of `testdata/recipes/server-repo.sh`.
pub struct ServerRepo {
    /// Where it is.
    pub path: PathBuf,
    /// c1: sources in six languages and text edge cases.
    pub c1: String,
    /// c2 (main): edit, rename, delete, move; symlinks and a submodule.
    pub c2: String,
    /// c3 (feature): README edit.
    pub c3: String,
}

/// Creates the server repository at `dir` (which must not exist).
pub fn server_repo(dir: &Path) -> ServerRepo {
    let out = Command::new("bash")
        .arg(recipes().join("server-repo.sh"))
        .arg(dir)
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "server-repo.sh: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ids: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(ids.len(), 3);
    ServerRepo {
        path: dir.to_path_buf(),
        c1: ids[0].clone(),
        c2: ids[1].clone(),
        c3: ids[2].clone(),
    }
}

/// A knowledge workspace at `docs/` inside a monorepo (`mono/`), citing the server repo.
pub struct Fixture {
    /// Keeps the directories alive.
    pub tmp: tempfile::TempDir,
    /// The server repository.
    pub server: ServerRepo,
    /// The monorepo root.
    pub mono: PathBuf,
    /// The workspace (`mono/docs`).
    pub ws: PathBuf,
    /// The monorepo's HEAD commit.
    pub head: String,
}

/// A remote with credentials: they must never reach an output.
pub const SECRET: &str = "hunter2secret";

/// The guide page of the fixture workspace (line numbers matter to the tests).
pub const GUIDE: &str = "# Guide\n\n<!-- context:section id=\"search\" -->\nThe searcher counts matches.\n<!-- /context:section -->\n\nOutside.\n\n<!-- context:section id=\"modes\" -->\nModes.\n<!-- /context:section -->\n";

/// Builds the fixture: server repo, and a monorepo with a workspace in `docs/` whose
/// registry names the server by a credentialed remote and whose `ontoly.toml` maps it.
pub fn fixture() -> Fixture {
    let tmp = tempfile::tempdir().expect("tempdir");
    let server = server_repo(&tmp.path().join("server"));
    let mono = tmp.path().join("mono");
    let ws = mono.join("docs");
    std::fs::create_dir_all(ws.join("knowledge/guide")).unwrap();
    std::fs::create_dir_all(ws.join("sources/repo")).unwrap();
    let lib = show(&server.path, &server.c1, "src/lib.rs");
    let d = |a, b| ontoly_graph::formats::text::range_digest(&lib, a, b).unwrap();
    let structure = format!(
        "schema_version: context.approved-structure.v1\narticles:\n  - article_id: guide\n    path: guide/search.md\n    collection: guide\n    visibility: public\n    sections:\n      - id: search\n        references:\n          - source_ref: repo:acme/server\n            locator: {{path: src/lib.rs, start_line: 13, end_line: 18}}\n            content_digest: {}\n      - id: modes\n        references:\n          - source_ref: repo:acme/clean\n            locator: {{path: src/lib.rs, start_line: 26, end_line: 29}}\n            content_digest: {}\n",
        d(13, 18),
        d(26, 29)
    );
    std::fs::write(ws.join("knowledge/structure.yaml"), structure).unwrap();
    std::fs::write(ws.join("knowledge/guide/search.md"), GUIDE).unwrap();
    std::fs::write(
        ws.join("sources/repo/index.yaml"),
        format!(
            "sources:\n  - name: acme\n    modules:\n      - name: server\n        subpath: \"\"\n        git: {{remote: \"https://bot:{SECRET}@github.com/acme/server.git\", ref: {}}}\n      - name: clean\n        git: {{remote: \"git@github.com:acme/server.git\", ref: {}}}\n      - name: other\n        git: {{remote: \"https://github.com/acme/other\", ref: {}}}\n",
            server.c1, server.c1, server.c1
        ),
    )
    .unwrap();
    std::fs::write(
        ws.join("ontoly.toml"),
        "[sources]\n\"acme/server\" = \"../../server\"\n",
    )
    .unwrap();
    git(&mono, &["init", "-q", "-b", "main"]);
    git(
        &mono,
        &[
            "remote",
            "add",
            "origin",
            &format!("https://tok:{SECRET}@github.com/acme/docs.git"),
        ],
    );
    git(&mono, &["add", "-A"]);
    git(&mono, &["commit", "-q", "-m", "docs"]);
    let head = git(&mono, &["rev-parse", "HEAD"]);
    Fixture {
        tmp,
        server,
        mono,
        ws,
        head,
    }
}
