//! `ontoly read`, `read-many`, `search` and `resolve` on the demo workspace, whose source
//! repositories ship as bare clones (stable commits): outputs (insta), exit codes, errors.

mod common;

use common::demo;

/// Runs `ontoly --workspace <demo> <args>`; returns (exit code, stdout, stderr).
fn ontoly(args: &[&str]) -> (i32, String, String) {
    let ws = demo();
    let mut all = vec!["--workspace", ws.to_str().expect("utf-8 path")];
    all.extend_from_slice(args);
    let r = common::run_in(&demo(), &all);
    common::assert_no_absolute_paths(&r, &demo());
    (r.code, r.stdout, r.stderr)
}

const API_HEAD: &str = "d6e6a37f40f1119c82f6e0d515cc54a413c68617";

#[test]
fn resolve_and_read() {
    let (code, out, _) = ontoly(&["resolve", "--repo", "acme/shop-api"]);
    assert_eq!((code, out.as_str()), (0, format!("{API_HEAD}\n").as_str()));
    let (code, out, err) = ontoly(&[
        "read",
        "--repo",
        "github.com/acme/shop-api",
        "--rev",
        API_HEAD,
        "src/inventory.rs",
        "--start",
        "38",
        "--end",
        "41",
    ]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("read_text", out);
    assert!(err.contains("lines 38-41; more from line 42"), "{err}");
    let (code, out, _) = ontoly(&[
        "--format",
        "json",
        "read",
        "--repo",
        "acme/shop-api",
        "src/inventory.rs",
        "--start",
        "38",
        "--end",
        "41",
    ]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("read_json", out);
}

#[test]
fn read_takes_lines_in_the_path_as_read_many_does() {
    let flags = ["src/inventory.rs", "--start", "38", "--end", "41"];
    let repo = ["--format", "json", "read", "--repo", "acme/shop-api"];
    let by_flags = ontoly(&[&repo[..], &flags[..]].concat());
    let in_path = ontoly(&[&repo[..], &["src/inventory.rs:38-41"][..]].concat());
    assert_eq!(by_flags.0, 0, "{}", by_flags.2);
    assert_eq!(in_path, by_flags);
    // One line, and a path without lines keeps the flags.
    let one = ontoly(&[&repo[..], &["src/inventory.rs:40"][..]].concat());
    let v: serde_json::Value = serde_json::from_str(&one.1).expect("json");
    assert_eq!(
        (v["startLine"].as_u64(), v["endLine"].as_u64()),
        (Some(40), Some(40))
    );
    // Lines given twice are a usage error, not a guess.
    let (code, out, err) = ontoly(&[
        "read",
        "--repo",
        "acme/shop-api",
        "src/inventory.rs:38-41",
        "--start",
        "2",
    ]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("give the lines once"), "{err}");
    assert!(err.contains("names lines 38-41"), "{err}");
    // Given twice alike, they are the same lines.
    let agreeing = ontoly(
        &[
            &repo[..],
            &["src/inventory.rs:38-41", "--start", "38", "--end", "41"][..],
        ]
        .concat(),
    );
    assert_eq!(agreeing, by_flags);
}

#[test]
fn a_location_copied_from_a_pack_reads_as_it_is_printed() {
    // MCP walk, stop 59: the pack's own label as the path was "not found at HEAD", the
    // GitHub anchor form not found, and the label's repository refused as a name that may
    // hold a credential.
    let short = &API_HEAD[..12];
    let json = |args: &[&str]| {
        let (code, out, err) = ontoly(&[&["--format", "json", "read"][..], args].concat());
        (
            code,
            serde_json::from_str::<serde_json::Value>(&out).ok(),
            err,
        )
    };
    let (code, by_flags, err) = json(&[
        "--repo",
        "acme/shop-api",
        "--rev",
        API_HEAD,
        "src/inventory.rs:38-41",
    ]);
    assert_eq!(code, 0, "{err}");
    let by_flags = by_flags.expect("json");
    let label = format!("github.com/acme/shop-api@{short}:src/inventory.rs");
    for args in [
        vec!["--repo", "acme/shop-api", "src/inventory.rs#L38-L41"],
        vec!["--repo", "acme/shop-api", &format!("{label}:38-41")],
        vec![
            "--repo",
            "github.com/acme/shop-api",
            &format!("{label}#L38-L41"),
        ],
        vec![
            "--repo",
            "acme/shop-api",
            "--rev",
            API_HEAD,
            &format!("{label}:38-41"),
        ],
        vec![
            "--repo",
            &format!("github.com/acme/shop-api@{short}"),
            "src/inventory.rs:38-41",
        ],
    ] {
        let (code, v, err) = json(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let v = v.expect("json");
        for key in ["commit", "path", "startLine", "endLine", "content"] {
            assert_eq!(v[key], by_flags[key], "{args:?}: {key}");
        }
    }
    // A label that says another commit than the revision is refused, naming both.
    let (code, v, _) = json(&[
        "--repo",
        "acme/shop-api",
        "--rev",
        "main",
        &format!("{label}:38-41"),
    ]);
    assert_eq!(code, 1);
    let v = v.expect("json");
    assert_eq!(v["code"], "INVALID_PATH", "{v}");
    let message = v["message"].as_str().unwrap_or("");
    assert!(
        message.contains(short) && message.contains("'main'"),
        "{message}"
    );
}

#[test]
fn path_and_line_errors_say_what_was_given() {
    for (path, why) in [
        ("../secrets", "'../secrets': it has a `..` segment"),
        ("/etc/passwd", "'/etc/passwd': it is absolute"),
        ("src\\inventory.rs", "it has a `\\`"),
    ] {
        let (code, _, err) = ontoly(&["read", "--repo", "acme/shop-api", path]);
        assert_eq!(code, 1, "{path}");
        assert!(
            err.starts_with("error: INVALID_PATH: Invalid path"),
            "{err}"
        );
        assert!(err.contains(why), "{path}: {err}");
    }
    let (_, _, err) = ontoly(&[
        "read",
        "--repo",
        "acme/shop-api",
        "src/inventory.rs",
        "--start",
        "9",
        "--end",
        "3",
    ]);
    assert!(err.contains("endLine 3 is before startLine 9"), "{err}");
}

#[test]
fn read_errors_exit_1_with_code_and_message() {
    let (code, out, _) = ontoly(&[
        "--format",
        "json",
        "read",
        "--repo",
        "acme/shop-api",
        "--rev",
        "d6e6a3",
        "README.md",
    ]);
    assert_eq!(code, 1, "under 7 hex digits is too short");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["code"], "SHORT_SHA_UNSUPPORTED");
    // Errors go to stderr in the one error style; stdout stays empty.
    let (code, out, err) = ontoly(&["read", "--repo", "acme/nothing", "README.md"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.starts_with("error: REPOSITORY_NOT_FOUND: "), "{err}");
    let (code, _, err) = ontoly(&[
        "read",
        "--repo",
        "acme/shop-api",
        "src/inventory.rs",
        "--start",
        "0",
    ]);
    assert_eq!(
        (code, err.starts_with("error: INVALID_LINE_RANGE")),
        (1, true),
        "{err}"
    );
    // A bad --source is a usage error.
    let (code, _, err) = ontoly(&[
        "--source",
        "nonsense",
        "read",
        "--repo",
        "acme/shop-api",
        "README.md",
    ]);
    assert_eq!(code, 2, "{err}");
}

/// A file missing where no revision was asked for names the commit the default branch was:
/// it may exist at the commit the workspace cites (stop-54 MCP walk, `setup.cfg`).
#[test]
fn a_file_missing_at_the_default_branch_names_its_commit() {
    let (code, out, _) = ontoly(&[
        "--format",
        "json",
        "read",
        "--repo",
        "acme/shop-api",
        "src/nowhere.rs",
    ]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["code"], "FILE_NOT_FOUND");
    let message = v["message"].as_str().unwrap_or("");
    assert!(
        message.contains(&format!(
            "does not exist at commit {API_HEAD}, the head of the default branch '"
        )) && message.contains("no revision was given"),
        "{message}"
    );
    // Asked at a commit, the message names it (it said "at this commit", MCP walk, stop 59);
    // asked at a branch, the commit the branch was too.
    let (_, out, _) = ontoly(&[
        "--format",
        "json",
        "read",
        "--repo",
        "acme/shop-api",
        "--rev",
        API_HEAD,
        "src/nowhere.rs",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let message = v["message"].as_str().unwrap_or("");
    assert!(
        message.ends_with(&format!("does not exist at commit {API_HEAD}")),
        "{message}"
    );
    let (_, out, _) = ontoly(&[
        "--format",
        "json",
        "read",
        "--repo",
        "acme/shop-api",
        "--rev",
        "main",
        "src/nowhere.rs",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let message = v["message"].as_str().unwrap_or("");
    assert!(
        message.ends_with(&format!(
            "does not exist at commit {API_HEAD} (revision 'main')"
        )),
        "{message}"
    );
}

#[test]
fn read_many_and_search() {
    let (code, out, _) = ontoly(&[
        "read-many",
        "--repo",
        "acme/shop-api",
        "src/inventory.rs:38-39",
        "missing.rs",
        "src/checkout.rs:58-58",
    ]);
    // Every item is printed; the failed one makes the exit 1.
    assert_eq!(code, 1);
    insta::assert_snapshot!("read_many_text", out);
    let (code, out, _) = ontoly(&[
        "search",
        "--repo",
        "acme/shop-api",
        "-g",
        "*.rs",
        "fn reserve|fn release",
    ]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("search_text", out);
    let (code, out, _) = ontoly(&[
        "--format",
        "json",
        "search",
        "--repo",
        "acme/shop-api",
        "--files",
        "-i",
        "RESERVATION",
    ]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("search_files_json", out);
    let (code, _, err) = ontoly(&["search", "--repo", "acme/shop-api", "x*"]);
    assert_eq!(
        (code, err.starts_with("error: INVALID_PATTERN")),
        (1, true),
        "{err}"
    );
    let (code, out, err) = ontoly(&["search", "--repo", "acme/shop-api", "-F", "no such text"]);
    assert_eq!((code, out.as_str()), (1, ""), "no match is exit 1, like rg");
    assert!(err.contains(": 0 file(s)"), "{err}");
}

#[test]
fn source_override_replaces_the_configured_clone() {
    // Point shop-api at the shop-cli clone: the shop-api commit is then missing.
    let (code, _, err) = ontoly(&[
        "--source",
        "github.com/acme/shop-api=repos/shop-cli.git",
        "resolve",
        "--repo",
        "acme/shop-api",
        "--rev",
        API_HEAD,
    ]);
    assert_eq!(
        (code, err.starts_with("error: REVISION_NOT_FOUND")),
        (1, true),
        "{err}"
    );
}

#[test]
fn a_bare_source_name_is_refused_with_the_option_that_names_the_repository() {
    // impact and digest take `--source NAME`; the reads name theirs with --repo.
    for cmd in [
        &["search", "reserve", "--source", "acme/shop-api"][..],
        &["read", "src/main.rs:1-2", "--source", "acme/shop-api"][..],
        &["read-many", "src/main.rs:1-2", "--source", "acme/shop-api"][..],
        &["resolve", "--source", "acme/shop-api"][..],
    ] {
        let (code, out, err) = ontoly(cmd);
        assert_eq!((code, out.as_str()), (2, ""), "{cmd:?}: {err}");
        assert!(
            err.contains("hint: the repository to read is named with --repo: --repo acme/shop-api"),
            "{cmd:?}: {err}"
        );
    }
    let (code, _, err) = ontoly(&[
        "search",
        "reserve",
        "--repo",
        "acme/shop-api",
        "--source",
        "acme/shop-api",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("drop --source acme/shop-api"), "{err}");
}

#[test]
fn without_repo_reads_are_of_the_workspace_s_own_pages() {
    let t = tempfile::tempdir().expect("tempdir");
    let ws = t.path().join("shop-kb");
    common::copy_dir(&demo(), &ws);
    // Its own git repository (no remote: named after its directory), so search works too.
    common::git(&ws, &["init", "-q", "-b", "main"]);
    common::git(&ws, &["add", "knowledge"]);
    common::git(&ws, &["commit", "-q", "-m", "pages"]);
    let page = "knowledge/guides/checkout.md:1-8";
    let implicit = common::run_in(&ws, &["--format", "json", "read", page]);
    let named = common::run_in(
        &ws,
        &["--format", "json", "read", "--repo", "shop-kb", page],
    );
    assert_eq!(implicit.code, 0, "{}", implicit.stderr);
    assert_eq!(implicit.stdout, named.stdout);
    let v: serde_json::Value = serde_json::from_str(&implicit.stdout).expect("json");
    assert_eq!(v["repository"], "shop-kb", "{v}");
    let searched = common::run_in(&ws, &["search", "payment-retry"]);
    assert_eq!(searched.code, 0, "{}", searched.stderr);
    assert!(
        searched.stdout.contains("knowledge/guides/checkout.md:")
            && searched.stdout.contains("payment-retry"),
        "{}",
        searched.stdout
    );
}

/// A copy of the demo at `<tmp>/kb` (not a git repository), run as `ontoly --workspace kb …`
/// from `<tmp>`.
struct Kb(tempfile::TempDir);

impl Kb {
    fn new() -> Kb {
        let t = tempfile::tempdir().expect("tempdir");
        common::copy_dir(&demo(), &t.path().join("kb"));
        Kb(t)
    }

    fn run(&self, args: &[&str]) -> common::Run {
        let mut all = vec!["--workspace", "kb"];
        all.extend_from_slice(args);
        common::run_in(self.0.path(), &all)
    }
}

#[test]
fn a_cited_file_not_found_where_asked_is_offered_at_its_pinned_commit() {
    let kb = Kb::new();
    let run = |args: &[&str]| kb.run(args);
    // Without --repo the read is of the workspace's own files, which do not hold the code.
    for asked in ["src/config.rs:13-18", "config.rs:13-18"] {
        let r = run(&["read", asked]);
        assert_eq!((r.code, r.stdout.as_str()), (1, ""), "{asked}: {r:?}");
        let hint = r
            .stderr
            .lines()
            .find_map(|l| l.strip_prefix("hint: "))
            .unwrap_or_else(|| panic!("{asked}: no hint in {}", r.stderr));
        assert!(
            hint.starts_with("the workspace cites src/config.rs in github.com/acme/shop-api at "),
            "{hint}"
        );
        // The command in the hint pastes back and reads the lines at the pinned commit.
        let command = hint.split_once(": ").map(|x| x.1).expect("a command");
        let words = shlex::split(command).expect("splits");
        assert_eq!(
            words[..4],
            ["ontoly", "--workspace", "kb", "read"],
            "{command}"
        );
        assert_eq!(
            words.last().map(String::as_str),
            Some("src/config.rs:13-18")
        );
        let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        let again = common::run_in(kb.0.path(), &args);
        assert_eq!(again.code, 0, "{command}: {again:?}");
        assert_eq!(again.stdout.lines().count(), 6, "{}", again.stdout);
    }
    // JSON carries the hint beside the error's code and message.
    let r = run(&["--format", "json", "read", "src/config.rs"]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
    assert_eq!(v["code"], "FILE_NOT_FOUND");
    assert!(
        v["hint"]
            .as_str()
            .is_some_and(|h| h.ends_with(" src/config.rs")),
        "{v}"
    );
    // read-many: an item not found says where it is cited, in its own message.
    let r = run(&[
        "--format",
        "json",
        "read-many",
        "src/config.rs:13-18",
        "src/nowhere.rs",
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
    let message = |i: usize| {
        v["items"][i]["error"]["message"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    assert!(
        message(0).starts_with("Item 1: ")
            && message(0).contains("; the workspace cites src/config.rs in repository github.com/acme/shop-api at revision "),
        "{v}"
    );
    assert!(
        message(1).starts_with("Item 2: ") && !message(1).contains("cites"),
        "{v}"
    );
    // A file no reference cites gets no hint.
    let r = run(&["--format", "json", "read", "src/nowhere.rs"]);
    assert_eq!(r.code, 1);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
    assert!(v.get("hint").is_none(), "{v}");
}

#[test]
fn a_workspace_that_is_no_git_repository_names_the_repositories_to_search() {
    let kb = Kb::new();
    let run = |args: &[&str]| kb.run(args);
    // Its own files are searched as they are on disk (no match is exit 1, as with grep); the
    // cited code is searched in a clone named with --repo.
    let own = run(&["search", "retr"]);
    assert_eq!(own.code, 0, "{own:?}");
    assert!(own.stdout.contains("knowledge/"), "{}", own.stdout);
    assert!(own.stderr.starts_with("kb@worktree: "), "{}", own.stderr);
    let none = run(&["search", "zzq_nowhere_zzq"]);
    assert_eq!(none.code, 1, "{none:?}");
    assert!(
        !none.stderr.contains("REPOSITORY_NOT_FOUND"),
        "{}",
        none.stderr
    );
    // Nothing in its own files: where the cited code is, to search next.
    assert!(
        none.stderr.contains("hint: the cited code is in "),
        "{}",
        none.stderr
    );
    assert!(!own.stderr.contains("hint:"), "{}", own.stderr);
    for args in [&["search", "fn checkout"][..], &["resolve"][..]] {
        if args[0] == "search" {
            // Named with --repo, below.
            let ok = run(&["search", "--repo", "acme/shop-api", "fn checkout"]);
            assert!(ok.code == 0 || ok.code == 1, "{ok:?}");
            continue;
        }
        let r = run(args);
        assert_eq!(r.code, 1, "{args:?}: {r:?}");
        assert!(
            r.stderr.starts_with("error: REPOSITORY_NOT_FOUND: "),
            "{}",
            r.stderr
        );
        let hint = r
            .stderr
            .lines()
            .find_map(|l| l.strip_prefix("hint: the cited code is in repositories with local clones: add --repo with one of "))
            .unwrap_or_else(|| panic!("{args:?}: {}", r.stderr));
        let names: Vec<&str> = hint.split(", ").collect();
        assert!(names.contains(&"acme/shop-api"), "{hint}");
        // Each name it gives works.
        for name in names {
            let mut again = vec![args[0], "--repo", name];
            again.extend_from_slice(&args[1..]);
            let ok = run(&again);
            // A search with no match exits 1, as grep does; the repository was found.
            assert!(
                ok.code == 0 || (args[0] == "search" && ok.code == 1),
                "{name}: {ok:?}"
            );
            assert!(
                !ok.stderr.contains("REPOSITORY_NOT_FOUND"),
                "{name}: {}",
                ok.stderr
            );
        }
    }
    // With --repo named, an unknown repository gets no such hint.
    let r = run(&["resolve", "--repo", "acme/nowhere"]);
    assert_eq!(r.code, 1);
    assert!(!r.stderr.contains("hint:"), "{}", r.stderr);
}

/// From a subdirectory a page is typed relative to it; reads take repository paths, and the
/// error says which one to give.
#[test]
fn a_path_typed_from_a_subdirectory_gets_the_repository_path() {
    let t = tempfile::tempdir().expect("tempdir");
    let ws = t.path().join("ws");
    common::copy_dir(&common::fixtures().join("valid"), &ws);
    let r = common::run_in(
        &ws.join("knowledge/faq"),
        &["--no-cache", "read", "guide.md:1-2"],
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.ends_with(
            "hint: paths are read from the repository's root, not the current directory: `ontoly read knowledge/faq/guide.md:1-2`\n"
        ),
        "{}",
        r.stderr
    );
    let pasted = common::run_in(
        &ws.join("knowledge/faq"),
        &["--no-cache", "read", "knowledge/faq/guide.md:1-2"],
    );
    assert_eq!(pasted.code, 0, "{}", pasted.stderr);
    // A file that is nowhere gets no such hint.
    let r = common::run_in(
        &ws.join("knowledge/faq"),
        &["--no-cache", "read", "nope.md"],
    );
    assert!(!r.stderr.contains("repository's root"), "{}", r.stderr);
}

/// A `<source>` names its modules' repository for reads too, as `impact --source` takes it.
#[test]
fn a_source_name_names_its_repository() {
    let (_dir, ws) = common::corpus_copy("click");
    let resolve = |repo: &str| {
        let r = common::run_in(&ws, &["--format", "json", "resolve", "--repo", repo]);
        assert_eq!(r.code, 0, "{repo}: {}", r.stderr);
        serde_json::from_str::<serde_json::Value>(&r.stdout).expect("json")
    };
    let by_source = resolve("click");
    assert_eq!(by_source, resolve("pallets/click"));
    assert_eq!(by_source, resolve("click/lib"));
    assert_eq!(by_source["repository"], "pallets/click");
}
