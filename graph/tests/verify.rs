//! Every verification status against a real repository with history.

mod support;

use ontoly_graph::formats::text::range_digest;
use ontoly_graph::sources::git::GitRepo;
use ontoly_graph::sources::verify::{verify_all, RangeCheck, Status};

fn cite(
    repo: Option<usize>,
    commit: &str,
    path: &str,
    a: u64,
    b: u64,
    digest: Option<String>,
) -> RangeCheck {
    RangeCheck {
        repo,
        commit: commit.into(),
        worktree: false,
        path: path.into(),
        start_line: a,
        end_line: b,
        digest,
    }
}

#[test]
fn every_status() {
    let tmp = tempfile::tempdir().unwrap();
    let srv = support::server_repo(&tmp.path().join("server"));
    let repos = vec![GitRepo::open(&srv.path).unwrap()];
    let lib1 = support::show(&srv.path, &srv.c1, "src/lib.rs");
    let lib2 = support::show(&srv.path, &srv.c2, "src/lib.rs");
    let d1 = range_digest(&lib1, 13, 18);
    let go = support::show(&srv.path, &srv.c1, "go/server.go");
    let mut worktree = cite(Some(0), &srv.c1, "src/lib.rs", 13, 18, d1.clone());
    worktree.worktree = true;
    let cites = vec![
        // 0 verified
        cite(Some(0), &srv.c1, "src/lib.rs", 13, 18, d1.clone()),
        // 1 the same range at c2 was edited (line 17): digest_mismatch
        cite(Some(0), &srv.c2, "src/lib.rs", 13, 18, d1.clone()),
        // 2 a digest recorded in uppercase hex still verifies
        cite(
            Some(0),
            &srv.c1,
            "src/lib.rs",
            13,
            18,
            d1.as_ref()
                .map(|d| d.to_uppercase().replace("SHA256:", "sha256:")),
        ),
        // 3 commit the clone does not have
        cite(Some(0), &"ab".repeat(20), "src/lib.rs", 13, 18, d1.clone()),
        // 4 renamed away at c2
        cite(Some(0), &srv.c2, "app/main.py", 1, 2, None),
        // 5 moved at c2: the old path is gone, the new one verifies
        cite(
            Some(0),
            &srv.c2,
            "go/server.go",
            17,
            19,
            range_digest(&go, 17, 19),
        ),
        cite(
            Some(0),
            &srv.c2,
            "cmd/server/server.go",
            17,
            19,
            range_digest(&go, 17, 19),
        ),
        // 7 deleted at c2
        cite(Some(0), &srv.c2, "web/util.js", 1, 3, None),
        // 8 past the end
        cite(Some(0), &srv.c1, "src/lib.rs", 30, 40, None),
        // 9 a branch name is not a pin
        cite(Some(0), "main", "src/lib.rs", 13, 18, d1.clone()),
        // 10 a short sha neither
        cite(Some(0), &srv.c1[..12], "src/lib.rs", 13, 18, d1.clone()),
        // 11 no clone
        cite(None, &srv.c1, "src/lib.rs", 13, 18, d1.clone()),
        // 12 worktree evidence
        worktree,
        // 13 a directory is not a file
        cite(Some(0), &srv.c1, "src", 1, 1, None),
        // 14 a missing digest cannot verify
        cite(Some(0), &srv.c1, "src/lib.rs", 13, 18, None),
        // 15 c2's own digest verifies at c2
        cite(
            Some(0),
            &srv.c2,
            "src/lib.rs",
            13,
            18,
            range_digest(&lib2, 13, 18),
        ),
    ];
    let got: Vec<Status> = verify_all(&repos, &cites, false)
        .iter()
        .map(|o| o.status)
        .collect();
    use Status::*;
    assert_eq!(
        got,
        [
            Verified,
            DigestMismatch,
            Verified,
            CommitMissing,
            FileMissing,
            FileMissing,
            Verified,
            FileMissing,
            RangeOutOfBounds,
            Unpinned,
            Unpinned,
            NoClone,
            Worktree,
            FileMissing,
            DigestMismatch,
            Verified
        ]
    );
    // Every status is covered by this test.
    for s in Status::ALL {
        assert!(got.contains(&s), "{s:?}");
    }
}

#[test]
fn symbols_come_with_verified_ranges_and_results_are_thread_independent() {
    let tmp = tempfile::tempdir().unwrap();
    let srv = support::server_repo(&tmp.path().join("server"));
    let repos = vec![GitRepo::open(&srv.path).unwrap()];
    let lib = support::show(&srv.path, &srv.c1, "src/lib.rs");
    let java = support::show(&srv.path, &srv.c1, "java/com/acme/Server.java");
    // Many citations of few files: each file is read and parsed once, results stay in order.
    let mut cites = Vec::new();
    for _ in 0..50 {
        cites.push(cite(
            Some(0),
            &srv.c1,
            "src/lib.rs",
            10,
            14,
            range_digest(&lib, 10, 14),
        ));
        cites.push(cite(
            Some(0),
            &srv.c1,
            "java/com/acme/Server.java",
            14,
            14,
            range_digest(&java, 14, 14),
        ));
        cites.push(cite(Some(0), &srv.c1, "README.md", 1, 1, None));
    }
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| verify_all(&repos, &cites, true))
    };
    let one = run(1);
    assert_eq!(one, run(4));
    let names = |i: usize| {
        one[i]
            .symbols
            .iter()
            .map(|d| d.qualified.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(one[0].status, Status::Verified);
    assert_eq!(
        names(0),
        [
            "Searcher",
            "Searcher::new",
            "Searcher::search_slice",
            "Searcher::search_slice::helper"
        ]
    );
    assert_eq!(names(1), ["com.acme.Server.Listener.onEvent"]);
    // No language for README; a digest mismatch still names the symbols of the range.
    assert!(one[2].symbols.is_empty());
    assert_eq!(one[2].status, Status::DigestMismatch);
}
