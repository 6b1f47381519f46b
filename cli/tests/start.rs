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
fn init_writes_nothing_through_a_link_and_leaves_nothing_half_done() {
    // The second security walk: with `knowledge` a link, init wrote the new pages where it
    // pointed; with a dangling link at `.gitignore`, it stopped after writing three files.
    let t = tempfile::tempdir().expect("temp dir");
    let (dir, out) = (t.path().join("new"), t.path().join("elsewhere"));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::create_dir_all(&out).expect("out");
    std::os::unix::fs::symlink(&out, dir.join("knowledge")).expect("link");
    let r = run_in(&dir, &["init"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("knowledge is a link"), "{}", r.stderr);
    assert_eq!(std::fs::read_dir(&out).expect("out").count(), 0);
    std::fs::remove_file(dir.join("knowledge")).expect("unlink");
    std::os::unix::fs::symlink("/nowhere", dir.join(".gitignore")).expect("link");
    let r = run_in(&dir, &["init"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains(".gitignore already exists"),
        "{}",
        r.stderr
    );
    let left: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(left, [std::ffi::OsString::from(".gitignore")]);
}

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
    // Inside kb's pages: refused, naming the workspace from where the command runs, the way
    // the directory was typed.
    let pages = dir.path().join("kb/knowledge");
    let r = run_in(&pages, &["init", "guides"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with(
            "error: guides is inside the knowledge workspace at .. (it holds knowledge/structure.yaml)"
        ) && r.stderr.contains("hint: add pages under ../knowledge/ "),
        "{}",
        r.stderr
    );
    let r = run_in(dir.path(), &["init", "kb/knowledge/guides"]);
    assert!(
        r.stderr.starts_with(
            "error: kb/knowledge/guides is inside the knowledge workspace at kb (it holds"
        ) && r.stderr.contains("hint: add pages under kb/knowledge/ "),
        "{}",
        r.stderr
    );
    std::fs::create_dir_all(pages.join("faq")).expect("mkdir");
    let r = run_in(&pages.join("faq"), &["init", "."]);
    assert!(
        r.stderr
            .starts_with("error: this directory is inside the knowledge workspace at ../.. ("),
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
    let digest_at = |rev: &[&str]| {
        let mut args = vec![
            "--no-cache",
            "digest",
            "src/checkout.rs:72-95",
            "--source",
            "acme/shop-api",
        ];
        args.extend_from_slice(rev);
        run_in(&demo(), &args)
    };
    let r = digest_at(&[]);
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

    // Revisions as `drift --to` takes them (drift's review sends here with them).
    let at = |rev: &str| {
        let r = digest_at(&["--rev", rev]);
        assert_eq!(r.code, 0, "{rev}: {}", r.stderr);
        r.stdout
    };
    let head = at("HEAD");
    let pinned = head.lines().next().expect("a first line");
    assert!(r.stdout.starts_with(pinned), "{head}");
    let parent = at("HEAD~1");
    assert_ne!(parent.lines().next(), Some(pinned), "{parent}");
    assert!(
        parent.contains("# note: the registry pins acme/shop-api at "),
        "{parent}"
    );
    assert_eq!(at("HEAD^"), parent);

    let two = run_in(&demo(), &["--no-cache", "digest", "src/checkout.rs:72-95"]);
    assert_eq!(two.code, 2, "several modules: the user must name one");
    assert!(
        two.stderr
            .contains("hint: modules of sources/repo/index.yaml"),
        "{}",
        two.stderr
    );
}

/// A module pinned by a tag verifies no reference: `digest`, where the entry is written, says
/// so with the commit to pin (only `validate` did).
#[test]
fn digest_names_the_commit_to_pin_when_the_module_ref_is_a_tag() {
    let (_dir, ws) = common::corpus_copy("cachetools");
    let registry = ws.join("sources/repo/index.yaml");
    let text = std::fs::read_to_string(&registry).expect("registry");
    let commit = "503fa54c44f2d4227e400c2a99430e9fa9726c31";
    let lib = "subpath: \"src/cachetools\"\n        git:\n          remote: https://github.com/tkem/cachetools\n          ref: ";
    assert!(text.contains(&format!("{lib}\"{commit}\"")), "{text}");
    let digest = |r#ref: &str, rev: &[&str]| {
        std::fs::write(
            &registry,
            text.replace(
                &format!("{lib}\"{commit}\""),
                &format!("{lib}\"{}\"", r#ref),
            ),
        )
        .expect("write");
        let mut args = vec![
            "--no-cache",
            "digest",
            "keys.py:1-3",
            "--source",
            "cachetools/lib",
        ];
        args.extend_from_slice(rev);
        let r = run_in(&ws, &args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
    };
    let pinned = digest(commit, &[]);
    assert!(!pinned.contains("SOURCE_UNPINNED"), "{pinned}");
    let tagged = digest("v5.3.3", &[]);
    assert!(
        tagged.contains(&format!(
            "# note: the registry pins cachetools/lib to v5.3.3, which can move (SOURCE_UNPINNED): write its commit {commit} as the module's ref"
        )),
        "{tagged}"
    );
    // The entry itself is the same: the lines are read at the commit the tag names.
    let entry = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(entry(&tagged), entry(&pinned));
    // Read at another revision: the ref that resolves to nothing is named too.
    let unknown = digest("nosuchtag", &["--rev", "HEAD"]);
    assert!(
        unknown.contains("to nosuchtag, which its clone does not resolve (SOURCE_UNPINNED)"),
        "{unknown}"
    );
}
