//! Issue 13 (hardening), library-level reproducers.
//!
//! (Phase 1 also had `a_graph_bin_written_elsewhere_is_not_served` here: a committed cache file
//! with rewritten texts and recomputed sums is served. That is out of scope, for the reasons in
//! docs/reliability.md, "What ontoly does not promise".)

/// Found by the `source_ref` fuzz target: `redact` takes the scheme from the first `://` of
/// the string, even when it comes after the user-info, and then keeps everything before it.
#[test]
fn redact_hides_user_info_before_a_later_scheme() {
    use ontoly_graph::formats::remote::redact;
    for s in [
        "u:SECRETPW@github.com/acme/x?next=https://example.org",
        "SECRETPW@github.com/acme/x#https://y",
    ] {
        let shown = redact(s);
        assert!(!shown.contains("SECRETPW"), "{s} → {shown}");
    }
}

/// Found by a security walk: the workspace's own repository was found upwards with no regard
/// to its owner, so whoever could create `/tmp/.git` decided what `read` returned as the
/// workspace's pages. git refuses such a repository ("dubious ownership"); so does ontoly.
/// Changing a file's owner needs root: elsewhere the test checks only the owned case.
#[test]
fn an_enclosing_repository_owned_by_another_user_is_not_the_workspace_s() {
    use ontoly_graph::sources::git::GitRepo;
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().join("shared");
    let ws = top.join("team/ws");
    std::fs::create_dir_all(&ws).unwrap();
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .arg("-C")
            .arg(&top)
            .args(args)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", tmp.path())
            .status()
            .unwrap()
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    let found = GitRepo::discover(&ws).map(|(_, rel)| rel);
    assert_eq!(found.as_deref(), Some("team/ws"), "owned by us: found");
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    let chown = std::process::Command::new("chown")
        .args(["-R", "65534:65534"])
        .arg(top.join(".git"))
        .status()
        .unwrap();
    assert!(chown.success());
    assert!(
        GitRepo::discover(&ws).is_none(),
        "a repository another user owns is not adopted"
    );
}

/// Found by the second security walk: discovery took the nearest `knowledge/structure.yaml`
/// above the current directory whoever owned it, so whoever could create `/tmp/knowledge`
/// decided what was answered, which clones were opened and where the cache was written.
/// Changing an owner needs root: elsewhere only the owned case is checked.
#[test]
fn a_workspace_above_owned_by_another_user_is_used_only_when_named() {
    use ontoly_graph::formats::layout::{discover, DiscoverError};
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().join("shared");
    std::fs::create_dir_all(top.join("knowledge")).unwrap();
    std::fs::write(top.join("knowledge/structure.yaml"), "articles: []\n").unwrap();
    let below = top.join("project");
    std::fs::create_dir_all(&below).unwrap();
    assert!(discover(None, &below).is_ok(), "owned by us: found");
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    let chown = std::process::Command::new("chown")
        .args(["65534:65534"])
        .arg(&top)
        .status()
        .unwrap();
    assert!(chown.success());
    assert_eq!(
        discover(None, &below).map(|w| w.root),
        Err(DiscoverError::OwnedByAnother { levels: 1 })
    );
    // Named, or started from, it is the user's choice.
    assert!(discover(Some(std::path::Path::new("..")), &below).is_ok());
    assert!(discover(None, &top).is_ok());
}
