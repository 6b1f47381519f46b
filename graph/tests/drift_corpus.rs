//! Drift on the development corpus (testdata/corpora/requests: psf/requests v2.28.0 ->
//! v2.32.3, both commits in its bare repo.git): every one of the 262 references must agree
//! with drift.yaml (computed with git by testdata/corpora/tools/drift.py) on its status, the
//! new range of a moved one and the mapped range of a changed one. The renames and hunks
//! underneath are checked against the git CLI itself.

mod drift_common;

use drift_common::*;
use ontoly_graph::sources::drift::{self, DriftRepo, ResolveError, Verdict};
use ontoly_graph::sources::git::GitRepo;
use std::path::PathBuf;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/corpora/requests")
}

const BASE: &str = "da9996fe4dc63356e9467d0a5e10df3d89a8528e";
const LATER: &str = "0e322af87745eff34caffe4df68456ebc20d9068";

fn repo() -> DriftRepo {
    DriftRepo::new(&GitRepo::open(&corpus().join("repo.git")).expect("repo.git opens"))
}

#[test]
fn every_reference_agrees_with_drift_yaml() {
    let (base, head, want) = expected(&corpus().join("drift.yaml"));
    assert_eq!((base.as_str(), head.as_str()), (BASE, LATER));
    let refs = workspace_refs(&corpus().join("ws"));
    assert_eq!(refs.len(), 262);
    assert!(refs.iter().all(|r| r.commit == BASE));
    let repo = repo();
    let to = repo
        .reader()
        .resolve("v2.32.3")
        .expect("the later tag resolves");
    let drifts = run(&repo, &refs, &to);
    assert_agree(&render(&refs, &drifts), &want);

    // The same results in the JSON shape `ontoly drift --format json` will print pass the
    // comparison script that CI will run on the command's output.
    let (ok, out) = drift_compare_script(
        &drift_json(&refs, &drifts, &to),
        &corpus().join("drift.yaml"),
    );
    assert!(ok, "{out}");
    assert!(out.contains("262 references agree"), "{out}");

    let count = |s: &str| {
        drifts
            .iter()
            .filter(|d| d.outcome.as_ref().is_ok_and(|v| v.status() == s))
            .count()
    };
    assert_eq!(
        [
            count("unchanged"),
            count("moved"),
            count("changed"),
            count("missing")
        ],
        [6, 196, 60, 0]
    );
}

#[test]
fn changed_references_name_their_symbol_and_a_suggestion() {
    let refs = workspace_refs(&corpus().join("ws"));
    let repo = repo();
    let reader = repo.reader();
    let drifts = run(&repo, &refs, LATER);
    let parse = |commit: &str, path: &str| {
        let bytes = reader
            .blob(commit, path)
            .expect("read")
            .expect("file exists");
        ontoly_graph::sources::symbols::extract(path, std::str::from_utf8(&bytes).expect("utf-8"))
    };
    let (mut with_symbol, mut with_suggestion) = (0, 0);
    for (r, d) in refs.iter().zip(&drifts) {
        let Ok(Verdict::Changed { new_path, .. }) = &d.outcome else {
            assert!(d.symbol.is_none() && d.suggestion.is_none(), "{}", r.key());
            continue;
        };
        let old = parse(BASE, &r.path);
        let overlapping = old
            .as_ref()
            .map(|f| f.for_range(r.start_line, r.end_line))
            .unwrap_or_default();
        let Some(sym) = &d.symbol else {
            // No symbol only when no definition encloses the range, and none takes a third of
            // it or it spans several outermost ones (module-level code, a list of
            // declarations, a file without an extractor).
            let len = r.end_line + 1 - r.start_line;
            let outermost = overlapping.iter().filter(|o| o.parent.is_none()).count();
            assert!(
                overlapping.iter().all(|o| {
                    let overlap = o.end_line.min(r.end_line) + 1 - o.start_line.max(r.start_line);
                    !(o.start_line <= r.start_line && o.end_line >= r.end_line)
                        && (3 * overlap < len || outermost > 1)
                }),
                "{}: {overlapping:?}",
                r.key()
            );
            continue;
        };
        with_symbol += 1;
        assert_eq!(sym.path, r.path);
        assert!(
            overlapping.iter().any(|o| o.qualified == sym.qualified),
            "{}",
            r.key()
        );
        // A suggestion exactly when the later file has a definition of that name.
        let namesakes = parse(LATER, new_path)
            .map(|f| {
                f.definitions
                    .iter()
                    .filter(|x| x.qualified == sym.qualified)
                    .count()
            })
            .unwrap_or(0);
        match &d.suggestion {
            Some(s) => {
                with_suggestion += 1;
                assert!(namesakes >= 1, "{}", r.key());
                assert_eq!(s.qualified, sym.qualified, "{}", r.key());
                assert_eq!(&s.path, new_path, "{}", r.key());
            }
            None => assert_eq!(namesakes, 0, "{}", r.key()),
        }
    }
    // Most changed ranges are inside functions and methods that still exist.
    assert!(
        with_symbol >= 40,
        "{with_symbol} changed references with a symbol"
    );
    assert!(with_suggestion >= 40, "{with_suggestion} with a suggestion");
}

#[test]
fn renames_agree_with_git_including_similarity() {
    let repo = repo();
    let reader = repo.reader();
    let changes = reader.tree_changes(BASE, LATER).expect("trees diff");
    let mut got: Vec<(String, String, u64)> = changes
        .renames(&reader)
        .expect("renames")
        .into_iter()
        .map(|r| (r.from, r.to, r.similarity))
        .collect();
    got.sort();
    let want = git_renames(&corpus().join("repo.git"), BASE, LATER);
    assert!(want
        .iter()
        .any(|r| r.0 == "requests/packages.py" && r.2 == 52));
    assert_eq!(got, want);
}

#[test]
fn hunks_agree_with_git_for_every_changed_file() {
    let dir = corpus().join("repo.git");
    let repo = repo();
    let reader = repo.reader();
    let changes = reader.tree_changes(BASE, LATER).expect("trees diff");
    let mut pairs: Vec<(String, String)> = changes
        .modified
        .iter()
        .map(|p| (p.clone(), p.clone()))
        .collect();
    pairs.extend(
        changes
            .renames(&reader)
            .expect("renames")
            .into_iter()
            .map(|r| (r.from, r.to)),
    );
    assert!(pairs.len() > 40, "{} file pairs", pairs.len());
    let mut hunks = 0;
    for (old, new) in &pairs {
        let a = reader.blob(BASE, old).expect("read").expect("old file");
        let b = reader.blob(LATER, new).expect("read").expect("new file");
        let got: Vec<String> = drift::hunks::diff_hunks(&a, &b)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            got,
            git_hunks(&dir, BASE, old, LATER, new),
            "{old} -> {new}"
        );
        hunks += got.len();
    }
    assert!(hunks > 150, "{hunks} hunks compared");
}

#[test]
fn revisions_resolve_like_git() {
    let reader = repo().reader();
    for rev in [
        "v2.32.3", "later", "main", "HEAD", "0e322af", "0E322AF8", LATER,
    ] {
        assert_eq!(reader.resolve(rev).as_deref(), Ok(LATER), "{rev}");
    }
    for rev in [
        "v2.28.0",
        "base",
        "refs/tags/base",
        "da9996fe",
        BASE,
        "base~0",
        "base^0",
    ] {
        assert_eq!(reader.resolve(rev).as_deref(), Ok(BASE), "{rev}");
    }
    // The clone is shallow: each commit names a parent it does not hold, as git reports;
    // what is missing is the ancestor, not the revision it is counted from.
    for rev in ["HEAD~1", "main^", "later~", "v2.32.3^1", "base^2"] {
        assert_eq!(
            reader.resolve(rev),
            Err(ResolveError::NoSuchAncestor),
            "{rev}"
        );
    }
    assert_eq!(reader.resolve("nope"), Err(ResolveError::NotFound));
    assert_eq!(reader.resolve("deadbeef"), Err(ResolveError::NotFound));
    assert_eq!(
        reader.resolve(&"ab".repeat(20)),
        Err(ResolveError::NotFound)
    );
    for bad in ["a..b", "HEAD~1x", "main^{commit}", "~1", "", "-x", "v2:x"] {
        assert_eq!(reader.resolve(bad), Err(ResolveError::Invalid), "{bad}");
    }
    // A tree or blob id is not a commit.
    let tree = git(
        &corpus().join("repo.git"),
        &["rev-parse", &format!("{BASE}^{{tree}}")],
    );
    assert_eq!(reader.resolve(tree.trim()), Err(ResolveError::NotFound));
}

/// The change from v2.28.0 to v2.32.3 read from `git diff -M -U3` is the change computed from
/// the two trees: the same files (renames included), the same `-U0` hunks.
#[test]
fn the_unified_diff_of_the_two_releases_reads_as_their_changes() {
    use ontoly_graph::sources::drift::impact::{changes_between, parse_unified_diff, FileChange};
    let key = |c: &FileChange| (c.old_path.clone(), c.new_path.clone());
    let mut want = changes_between(&repo(), BASE, LATER).expect("changes");
    want.sort_by_key(key);
    let text = git(
        &corpus().join("repo.git"),
        &["diff", "-M", "--no-color", "--no-ext-diff", BASE, LATER],
    );
    let mut got: Vec<FileChange> = parse_unified_diff(&text)
        .expect("git's diff parses")
        .into_iter()
        .filter(|c| c.old_path.is_some())
        .collect();
    got.sort_by_key(key);
    // The diff also names each old side's blob: the file at BASE.
    let reader = repo().reader();
    let mut named = 0;
    for c in &mut got {
        let (Some(path), Some(blob)) = (&c.old_path, c.old_blob.take()) else {
            continue;
        };
        let at = reader.blob_id(BASE, path).expect("reads").expect("a file");
        assert!(at.starts_with(&blob), "{path}: {blob} is not {at}");
        named += 1;
    }
    assert!(named > 20, "{named} old sides named");
    // The lines it quotes of each old side (context and removed) are the file's at BASE.
    let quoted: usize = got
        .iter_mut()
        .map(|c| take_quoted_lines(&reader, BASE, c))
        .sum();
    assert!(quoted > 100, "{quoted} old lines quoted");
    assert!(want.len() > 20, "{} files changed", want.len());
    assert_eq!(got, want);
}
