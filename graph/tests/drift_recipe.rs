//! Drift on a real git history made by testdata/recipes/drift-repo.sh (fixed dates, stable
//! commit ids) and the fixture workspace testdata/fixtures/drift/ws that cites it: every
//! reference agrees with the fixture's drift.yaml (computed with git), each case the recipe
//! builds has the verdict, symbol and suggestion it was built for, and the renames and hunks
//! underneath agree with the git CLI.

mod drift_common;
mod support;

use drift_common::*;
use ontoly_graph::sources::drift::{
    self, CitedRange, CompareOptions, DriftRepo, RangeDrift, Verdict,
};
use ontoly_graph::sources::git::GitRepo;
use std::path::{Path, PathBuf};

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/fixtures/drift")
}

struct Recipe {
    _tmp: tempfile::TempDir,
    path: PathBuf,
    c1: String,
    c2: String,
    c3: String,
}

fn recipe() -> Recipe {
    let tmp = tempfile::tempdir().expect("temp dir");
    let path = tmp.path().join("repo");
    let out = std::process::Command::new("bash")
        .arg(support::recipes().join("drift-repo.sh"))
        .arg(&path)
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "drift-repo.sh: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ids: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    let [c1, c2, c3] = ids.as_slice() else {
        panic!("three commit ids, got {ids:?}");
    };
    Recipe {
        c1: c1.clone(),
        c2: c2.clone(),
        c3: c3.clone(),
        path,
        _tmp: tmp,
    }
}

fn text_at(repo: &Path, commit: &str, path: &str) -> String {
    support::show(repo, commit, path)
}

/// 1-based line of the first line of `text` that contains `needle`.
fn line_of(text: &str, needle: &str) -> u64 {
    text.split('\n')
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle:?} not found")) as u64
        + 1
}

#[test]
fn the_fixture_pins_the_recipe_base_and_its_digests_hold() {
    let r = recipe();
    let (base, head, _) = expected(&fixture().join("drift.yaml"));
    assert_eq!(
        (base.as_str(), head.as_str()),
        (r.c1.as_str(), r.c3.as_str())
    );
    let refs = workspace_refs(&fixture().join("ws"));
    assert_eq!(refs.len(), 26);
    let structure =
        std::fs::read_to_string(fixture().join("ws/knowledge/structure.yaml")).expect("read");
    for w in &refs {
        assert_eq!(w.commit, r.c1, "{}", w.key());
        let digest = ontoly_graph::formats::text::range_digest(
            &text_at(&r.path, &r.c1, &w.path),
            w.start_line,
            w.end_line,
        )
        .expect("range inside the file");
        assert!(structure.contains(&digest), "{}: {digest}", w.key());
    }
}

#[test]
fn every_reference_agrees_with_the_fixture_drift_yaml() {
    let r = recipe();
    let (_, _, want) = expected(&fixture().join("drift.yaml"));
    let refs = workspace_refs(&fixture().join("ws"));
    let repo = DriftRepo::new(&GitRepo::open(&r.path).expect("opens"));
    // The later commit by its annotated tag.
    let to = repo.reader().resolve("v2").expect("v2 resolves");
    assert_eq!(to, r.c3);
    let drifts = run(&repo, &refs, &to);
    assert_agree(&render(&refs, &drifts), &want);
    let json = drift_json(&refs, &drifts, &to);
    let (ok, out) = drift_compare_script(&json, &fixture().join("drift.yaml"));
    assert!(ok, "{out}");
    // And the script does see a disagreement: here, one moved range off by a line.
    let mut off = json.clone();
    let moved = off["references"]
        .as_array_mut()
        .expect("references")
        .iter_mut()
        .find(|r| r["status"] == "moved")
        .expect("a moved reference");
    moved["newStartLine"] = serde_json::json!(moved["newStartLine"].as_u64().expect("a line") + 1);
    let (ok, out) = drift_compare_script(&off, &fixture().join("drift.yaml"));
    assert!(!ok, "{out}");
    assert!(out.contains("newStartLine"), "{out}");
}

/// The drift of each reference of the fixture, by `section[index]`.
fn by_section(r: &Recipe) -> Vec<(String, WsRef, RangeDrift)> {
    let refs = workspace_refs(&fixture().join("ws"));
    let repo = DriftRepo::new(&GitRepo::open(&r.path).expect("opens"));
    let drifts = run(&repo, &refs, &r.c3);
    refs.into_iter()
        .zip(drifts)
        .map(|(w, d)| (format!("{}[{}]", w.section_id, w.ref_index), w, d))
        .collect()
}

fn find<'a>(all: &'a [(String, WsRef, RangeDrift)], key: &str) -> &'a RangeDrift {
    &all.iter()
        .find(|(k, _, _)| k == key)
        .unwrap_or_else(|| panic!("no reference {key}"))
        .2
}

fn status(d: &RangeDrift) -> &str {
    d.outcome.as_ref().map_or("unverifiable", Verdict::status)
}

#[test]
fn each_case_of_the_recipe_gets_its_verdict() {
    let r = recipe();
    let all = by_section(&r);
    let later_app = text_at(&r.path, &r.c3, "src/app.py");
    let cases = [
        ("module-doc[0]", "unchanged"),
        ("doubling[0]", "moved"),     // imports inserted above
        ("tripling[0]", "changed"),   // edited inside
        ("store[0]", "moved"),        // moved below put
        ("store[1]", "changed"),      // whitespace only
        ("summing[0]", "changed"),    // deleted
        ("helpers[0]", "changed"),    // moved to another file
        ("helpers[1]", "moved"),      // shifted up
        ("duplicates[0]", "changed"), // twice
        ("files[0]", "moved"),        // renamed file
        ("files[1]", "changed"),      // edited in the renamed file
        ("trimming[0]", "changed"),   // lines deleted inside
        ("trimming[1]", "moved"),     // lines deleted above
        ("legacy[0]", "missing"),     // file deleted
        ("legacy[1]", "missing"),
        ("engine[0]", "moved"),
        ("running[0]", "unchanged"), // above the insertion
        ("constant[0]", "unchanged"),
        ("guide[0]", "moved"),     // exact rename
        ("table[0]", "unchanged"), // CRLF -> LF only
    ];
    for (key, want) in cases {
        assert_eq!(status(find(&all, key)), want, "{key}");
    }

    // A moved range is the one occurrence of the cited lines.
    let Ok(Verdict::Moved {
        new_path,
        new_start_line,
        new_end_line,
    }) = &find(&all, "doubling[0]").outcome
    else {
        panic!("moved");
    };
    assert_eq!(new_path, "src/app.py");
    assert_eq!(*new_start_line, line_of(&later_app, "def alpha("));
    assert_eq!(new_end_line - new_start_line, 3);
    assert!(matches!(&find(&all, "guide[0]").outcome,
        Ok(Verdict::Moved { new_path, new_start_line: 1, .. }) if new_path == "docs/manual.md"));
    assert!(matches!(&find(&all, "files[0]").outcome,
        Ok(Verdict::Moved { new_path, .. }) if new_path == "src/new_name.py"));

    // The duplicated block: two occurrences, mapped onto the original copy.
    let dup = text_at(&r.path, &r.c3, "src/dup.py");
    let Ok(Verdict::Changed {
        occurrences,
        mapped: Some(m),
        ..
    }) = &find(&all, "duplicates[0]").outcome
    else {
        panic!("changed with a mapped range");
    };
    assert_eq!(*occurrences, 2);
    assert_eq!(m.start_line, line_of(&dup, "def first(") + 1);

    // A function moved out of its file: all its lines deleted there, so no mapped range.
    assert!(matches!(
        &find(&all, "helpers[0]").outcome,
        Ok(Verdict::Changed {
            occurrences: 0,
            mapped: None,
            ..
        })
    ));
}

#[test]
fn changed_and_missing_references_carry_symbol_and_suggestion() {
    let r = recipe();
    let all = by_section(&r);
    let later_app = text_at(&r.path, &r.c3, "src/app.py");
    let sym = |key: &str| {
        let d = find(&all, key);
        (
            d.symbol.as_ref().map(|s| s.qualified.clone()),
            d.suggestion
                .as_ref()
                .map(|s| (s.path.clone(), s.start_line)),
        )
    };
    // Edited in place: re-anchor to the same function at its new lines.
    assert_eq!(
        sym("tripling[0]"),
        (
            Some("beta".into()),
            Some(("src/app.py".into(), line_of(&later_app, "def beta(")))
        )
    );
    assert_eq!(
        sym("store[1]"),
        (
            Some("Store.put".into()),
            Some(("src/app.py".into(), line_of(&later_app, "def put(")))
        )
    );
    // A deleted symbol: named, with nothing to re-anchor to.
    assert_eq!(sym("summing[0]"), (Some("gamma".into()), None));
    assert_eq!(sym("legacy[0]"), (Some("obsolete".into()), None));
    // Moved to another file (the file stays, or is deleted): found in the one changed file
    // that defines it.
    let helpers = text_at(&r.path, &r.c3, "src/helpers.py");
    assert_eq!(
        sym("helpers[0]"),
        (
            Some("helper".into()),
            Some(("src/helpers.py".into(), line_of(&helpers, "def helper(")))
        )
    );
    let modes = text_at(&r.path, &r.c3, "src/modes.py");
    assert_eq!(
        sym("legacy[1]"),
        (
            Some("legacy_mode".into()),
            Some(("src/modes.py".into(), line_of(&modes, "def legacy_mode(")))
        )
    );
    // Edited in a renamed file: the suggestion is in the rename target.
    assert_eq!(
        sym("files[1]").1.map(|s| s.0),
        Some("src/new_name.py".into())
    );
    // Unchanged and moved references carry neither.
    for key in ["module-doc[0]", "doubling[0]", "engine[0]", "guide[0]"] {
        assert_eq!(sym(key), (None, None), "{key}");
    }
}

#[test]
fn three_modules_are_re_anchorable_and_one_is_mixed() {
    let r = recipe();
    let all = by_section(&r);
    let statuses = |module: &str| -> Vec<String> {
        let mut v: Vec<String> = all
            .iter()
            .filter(|(_, w, _)| w.source_ref == format!("repo:drift/{module}"))
            .map(|(_, _, d)| status(d).to_string())
            .collect();
        v.sort();
        v.dedup();
        v
    };
    assert_eq!(statuses("core"), ["moved", "unchanged"]);
    // Every reference of pkg moved with its directory: re-anchoring changes the subpath.
    assert_eq!(statuses("pkg"), ["moved"]);
    for (_, w, d) in all
        .iter()
        .filter(|(_, w, _)| w.source_ref == "repo:drift/pkg")
    {
        let Ok(Verdict::Moved { new_path, .. }) = &d.outcome else {
            panic!("moved");
        };
        assert_eq!(new_path, &format!("vendor/{}", w.path));
    }
    assert_eq!(statuses("root"), ["moved", "unchanged"]);
    assert_eq!(
        statuses("app"),
        ["changed", "missing", "moved", "unchanged"]
    );
}

#[test]
fn renames_and_hunks_agree_with_git_between_every_two_commits() {
    let r = recipe();
    let repo = DriftRepo::new(&GitRepo::open(&r.path).expect("opens"));
    let reader = repo.reader();
    for (a, b) in [(&r.c1, &r.c2), (&r.c2, &r.c3), (&r.c1, &r.c3)] {
        let changes = reader.tree_changes(a, b).expect("trees diff");
        let renames = changes.renames(&reader).expect("renames");
        let mut got: Vec<(String, String, u64)> = renames
            .iter()
            .map(|x| (x.from.clone(), x.to.clone(), x.similarity))
            .collect();
        got.sort();
        assert_eq!(got, git_renames(&r.path, a, b), "{a}..{b}");
        let pairs = changes
            .modified
            .iter()
            .map(|p| (p.clone(), p.clone()))
            .chain(renames.into_iter().map(|x| (x.from, x.to)));
        for (old, new) in pairs {
            let x = reader.blob(a, &old).expect("read").expect("old file");
            let y = reader.blob(b, &new).expect("read").expect("new file");
            let got: Vec<String> = drift::hunks::diff_hunks(&x, &y)
                .iter()
                .map(ToString::to_string)
                .collect();
            assert_eq!(got, git_hunks(&r.path, a, &old, b, &new), "{old} -> {new}");
        }
    }
}

#[test]
fn revisions_resolve_to_the_recipe_commits() {
    let r = recipe();
    let reader = DriftRepo::new(&GitRepo::open(&r.path).expect("opens")).reader();
    let cases = [
        ("v1", &r.c1),
        ("refs/tags/v1", &r.c1),
        ("v2", &r.c3), // annotated: peeled to its commit
        ("main", &r.c3),
        ("HEAD", &r.c3),
        ("feature", &r.c2),
        (&r.c2[..7], &r.c2),
        (&r.c2[..4], &r.c2),
        (r.c1.as_str(), &r.c1),
    ];
    for (rev, want) in cases {
        assert_eq!(reader.resolve(rev).as_ref(), Ok(want), "{rev}");
    }
    // The tag object's own id peels to the commit as well.
    let tag = git(&r.path, &["rev-parse", "v2"]);
    assert_ne!(tag.trim(), r.c3);
    assert_eq!(reader.resolve(tag.trim()).as_ref(), Ok(&r.c3));
}

#[test]
fn ranges_that_cannot_be_read_are_unverifiable_and_bad_commits_fail() {
    let r = recipe();
    let repo = DriftRepo::new(&GitRepo::open(&r.path).expect("opens"));
    let ranges = [
        CitedRange {
            path: "src/app.py".into(),
            start_line: 1,
            end_line: 1,
        },
        CitedRange {
            path: "src/app.py".into(),
            start_line: 40,
            end_line: 99,
        },
        CitedRange {
            path: "src/app.py".into(),
            start_line: 0,
            end_line: 1,
        },
        CitedRange {
            path: "src/nowhere.py".into(),
            start_line: 1,
            end_line: 1,
        },
        CitedRange {
            path: "src".into(),
            start_line: 1,
            end_line: 1,
        },
    ];
    let got = drift::compare(&repo, &r.c1, &r.c3, &ranges, CompareOptions::default())
        .expect("compare runs");
    assert_eq!(got[0].outcome, Ok(Verdict::Unchanged));
    for d in &got[1..] {
        assert!(d.outcome.is_err(), "{d:?}");
    }
    assert!(drift::compare(
        &repo,
        &r.c1,
        &"ab".repeat(20),
        &ranges,
        CompareOptions::default()
    )
    .is_err());
}

#[test]
fn drift_to_the_same_commit_is_all_unchanged_and_thread_count_does_not_matter() {
    let r = recipe();
    let refs = workspace_refs(&fixture().join("ws"));
    let repo = DriftRepo::new(&GitRepo::open(&r.path).expect("opens"));
    let same = run(&repo, &refs, &r.c1);
    assert!(same.iter().all(|d| d.outcome == Ok(Verdict::Unchanged)));
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .expect("pool")
    };
    let one = pool(1).install(|| run(&repo, &refs, &r.c3));
    let four = pool(4).install(|| run(&repo, &refs, &r.c3));
    assert_eq!(one, four);
}

/// `changes_between` (tree diff, renames, hunks) and `parse_unified_diff` of `git diff -M
/// -U<n>` describe the same change: same files, same paths, same `-U0` hunks, whatever the
/// context.
#[test]
fn a_unified_diff_reads_as_the_changes_between_the_commits() {
    use ontoly_graph::sources::drift::impact::{changes_between, parse_unified_diff, FileChange};
    let r = recipe();
    let repo = DriftRepo::new(&GitRepo::open(&r.path).expect("opens"));
    let key = |c: &FileChange| (c.old_path.clone(), c.new_path.clone());
    for (a, b) in [(&r.c1, &r.c2), (&r.c2, &r.c3), (&r.c1, &r.c3)] {
        let mut want = changes_between(&repo, a, b).expect("changes");
        want.sort_by_key(key);
        for context in ["-U0", "-U1", "-U3", "-U12"] {
            let text = git(
                &r.path,
                &["diff", "-M", "--no-color", "--no-ext-diff", context, a, b],
            );
            let mut got: Vec<FileChange> = parse_unified_diff(&text)
                .expect("git's diff parses")
                .into_iter()
                .filter(|c| c.old_path.is_some())
                .collect();
            got.sort_by_key(key);
            // The diff also names each old side's blob: the file at `a`.
            let reader = repo.reader();
            for c in &mut got {
                // The lines it quotes of the old side are the file's at `a`.
                take_quoted_lines(&reader, a, c);
                let (Some(path), Some(blob)) = (&c.old_path, c.old_blob.take()) else {
                    continue;
                };
                let at = reader.blob_id(a, path).expect("reads").expect("a file");
                assert!(at.starts_with(&blob), "{path}: {blob} is not {at}");
            }
            assert_eq!(got, want, "{a}..{b} {context}");
        }
    }
}

/// A cited path that is a symlink is compared on the file it points to, as verification
/// reads it (not on the link's text, which is what `git show` prints).
#[test]
fn a_symlinked_file_is_followed_like_verification_follows_it() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let run = |args: &[&str], date: &str| {
        let out = std::process::Command::new("git")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_NAME", "T")
            .env("GIT_AUTHOR_EMAIL", "t@ontoly.invalid")
            .env("GIT_COMMITTER_NAME", "T")
            .env("GIT_COMMITTER_EMAIL", "t@ontoly.invalid")
            .env("GIT_AUTHOR_DATE", date)
            .env("GIT_COMMITTER_DATE", date)
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    run(&["init", "-q", "-b", "main"], "2025-01-01T00:00:00Z");
    std::fs::create_dir(dir.join("real")).expect("mkdir");
    std::fs::write(dir.join("real/a.txt"), "one\ntwo\nthree\n").expect("write");
    std::os::unix::fs::symlink("real/a.txt", dir.join("link.txt")).expect("symlink");
    run(&["add", "-A"], "2025-01-01T00:00:00Z");
    run(&["commit", "-q", "-m", "c1"], "2025-01-01T00:00:00Z");
    let c1 = run(&["rev-parse", "HEAD"], "2025-01-01T00:00:00Z");
    std::fs::write(dir.join("real/a.txt"), "zero\none\ntwo\nthree\n").expect("write");
    run(&["commit", "-q", "-am", "c2"], "2025-01-02T00:00:00Z");
    let c2 = run(&["rev-parse", "HEAD"], "2025-01-02T00:00:00Z");
    let repo = DriftRepo::new(&GitRepo::open(dir).expect("opens"));
    let ranges = [CitedRange {
        path: "link.txt".into(),
        start_line: 2,
        end_line: 3,
    }];
    let got = drift::compare(&repo, &c1, &c2, &ranges, CompareOptions::default()).expect("compare");
    assert_eq!(
        got[0].outcome,
        Ok(Verdict::Moved {
            new_path: "link.txt".into(),
            new_start_line: 3,
            new_end_line: 4
        })
    );
}
