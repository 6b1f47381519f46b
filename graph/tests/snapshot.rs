//! The snapshot cache as a build meets it: a `graph.map` that is truncated (at any byte),
//! altered (any byte), written by another layout version, of another kind, or built from other
//! inputs is refused and rebuilt, never trusted; inputs vouched for by their file status only
//! when that is safe; and cache files that are links, FIFOs or live in a linked `.ontoly`
//! leaving the workspace are never followed.

mod support;
use ontoly_graph::formats::layout::Workspace;
use ontoly_graph::graph::build::{build, BuildOptions, BuildOutput, CacheStatus};
use ontoly_graph::graph::snapshot::{self, FileStat, Manifest, ManifestEntry, RACY_NS};
use ontoly_graph::graph::store::container::Container;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use support::copy_dir;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/fixtures")
        .join(name)
}

/// Sets the modification time of every file under `dir` an hour back, as if the workspace
/// had been edited long before the build.
fn age(dir: &Path) {
    let old = SystemTime::now() - Duration::from_secs(3600);
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            if e.file_name() != ".ontoly" {
                age(&e.path());
            }
        } else {
            let f = std::fs::File::options().write(true).open(e.path()).unwrap();
            f.set_modified(old).unwrap();
        }
    }
}

fn build_with(root: &Path, verify: bool) -> BuildOutput {
    build(
        &Workspace::at(root.to_path_buf()),
        &BuildOptions {
            use_cache: true,
            verify_snapshot: verify,
            ..Default::default()
        },
    )
    .expect("build runs")
}

/// A copy of the `valid` fixture, aged, built once (cold) with its snapshot written.
fn built() -> (tempfile::TempDir, PathBuf, String) {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("valid");
    copy_dir(&fixture("valid"), &root);
    age(&root);
    let cold = build_with(&root, false);
    assert_eq!(cold.report.cache, CacheStatus::Miss);
    assert!(root.join(".ontoly/graph.map").is_file());
    (t, root, cold.graph.hash)
}

/// Whether the snapshot on disk would be used as it is: opened, the inputs match, and every
/// block checks (what a query touching everything would find).
fn trusted_whole(root: &Path) -> bool {
    let out = build_with(root, true);
    out.report.cache == CacheStatus::Hit
}

#[test]
fn a_warm_build_opens_the_snapshot_and_hashes_no_unchanged_file() {
    let (_t, root, hash) = built();
    let warm = build_with(&root, false);
    assert_eq!(warm.report.cache, CacheStatus::Hit);
    assert_eq!(
        warm.report.files_hashed, 0,
        "aged files are vouched for by status"
    );
    assert_eq!(warm.graph.hash, hash);
    assert!(warm.graph.as_mapped().is_some());
    assert_eq!(warm.graph.compute_hash(), hash, "same graph, read in place");
}

#[test]
fn a_changed_input_is_found_even_with_its_old_size_and_time() {
    let (_t, root, hash) = built();
    let page = root.join("knowledge/api/plugins.md");
    let meta = std::fs::metadata(&page).unwrap();
    let text = std::fs::read_to_string(&page).unwrap();
    // Same length, same modification time: only the status-change time and the bytes differ.
    let edited = text.replacen("Overview", "Overveiw", 1);
    assert_eq!(edited.len(), text.len());
    std::fs::write(&page, &edited).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&page)
        .unwrap()
        .set_modified(meta.modified().unwrap())
        .unwrap();
    let r = build_with(&root, false);
    assert_ne!(r.report.cache, CacheStatus::Hit, "stale snapshot used");
    assert_ne!(r.graph.hash, hash);
    // A new page is a new input: stale again.
    std::fs::write(root.join("knowledge/new.md"), "# New\n").unwrap();
    assert_ne!(build_with(&root, false).report.cache, CacheStatus::Hit);
}

#[test]
fn a_recent_or_unstamped_file_is_hashed_not_trusted() {
    let stat = FileStat {
        len: 10,
        mtime: 5_000_000_000,
        ctime: 5_000_000_000,
        ino: 7,
    };
    let entry = ManifestEntry {
        path: "knowledge/a.md".into(),
        stat: Some(stat),
        hash: "h".into(),
    };
    let m = |stamp| Manifest {
        stamp,
        repo_content: false,
        files: vec![entry.clone()],
    };
    assert!(m(Some(stat.mtime + RACY_NS + 1)).trusts(&entry, &stat));
    // Modified within the racy window before the build began: it may have changed again
    // within the same tick after it was read.
    assert!(!m(Some(stat.mtime + RACY_NS)).trusts(&entry, &stat));
    assert!(!m(Some(stat.mtime)).trusts(&entry, &stat));
    // No stamp (the cache directory could not be written): nothing is trusted by status.
    assert!(!m(None).trusts(&entry, &stat));
    let moved = FileStat { ino: 8, ..stat };
    assert!(!m(Some(i128::MAX)).trusts(&entry, &moved));
}

#[test]
fn freshly_copied_inputs_are_hashed_and_still_hit() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("valid");
    copy_dir(&fixture("valid"), &root);
    let cold = build_with(&root, false);
    let warm = build_with(&root, false);
    assert_eq!(warm.report.cache, CacheStatus::Hit);
    assert_eq!(
        warm.report.files_hashed, warm.report.input_files,
        "files written just before the build are too recent to trust by status"
    );
    assert_eq!(warm.graph.hash, cold.graph.hash);
}

#[test]
fn truncation_at_any_byte_is_refused_and_rebuilt() {
    let (_t, root, hash) = built();
    let path = root.join(".ontoly/graph.map");
    let full = std::fs::read(&path).unwrap();
    for cut in 0..full.len() {
        std::fs::write(&path, &full[..cut]).unwrap();
        assert!(
            snapshot::open_graph(&root).is_err(),
            "cut at {cut} of {} was opened",
            full.len()
        );
    }
    // End to end at a few cuts: refused with a note, rebuilt, same graph, good cache again.
    for cut in [0, 7, 127, 4096, full.len() / 2, full.len() - 1] {
        std::fs::write(&path, &full[..cut]).unwrap();
        let r = build_with(&root, false);
        assert_ne!(r.report.cache, CacheStatus::Hit, "cut at {cut}");
        assert!(r.report.cache_note.is_some());
        assert_eq!(r.graph.hash, hash);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), full.len() as u64);
    }
}

#[test]
fn a_flipped_byte_anywhere_is_never_trusted() {
    let (_t, root, hash) = built();
    let path = root.join(".ontoly/graph.map");
    let full = std::fs::read(&path).unwrap();
    // Every byte: refused at open, or found by the block checks before it is used.
    for at in 0..full.len() {
        let mut bad = full.clone();
        bad[at] ^= 0x20;
        std::fs::write(&path, &bad).unwrap();
        let whole = match snapshot::open_graph(&root) {
            Err(_) | Ok(None) => continue,
            Ok(Some(_)) => snapshot::open_graph(&root).unwrap().unwrap(),
        };
        assert!(
            !whole.verify_all(),
            "a flip at {at} of {} passed every check",
            full.len()
        );
    }
    // End to end: a session that distrusts the snapshot (the retry after a failed read)
    // rebuilds it; the graph is the same.
    for at in [0, 100, 4100, full.len() / 2, full.len() - 3] {
        let mut bad = full.clone();
        bad[at] ^= 0x20;
        std::fs::write(&path, &bad).unwrap();
        let r = build_with(&root, true);
        assert_ne!(r.report.cache, CacheStatus::Hit, "flip at {at}");
        assert_eq!(r.graph.hash, hash);
    }
    assert!(trusted_whole(&root));
}

#[test]
fn a_corrupt_block_read_by_a_query_marks_the_graph() {
    let (_t, root, hash) = built();
    let path = root.join(".ontoly/graph.map");
    let mut bad = std::fs::read(&path).unwrap();
    // In the node rows, which neither opening nor the staleness check reads.
    let c = Container::open_unkeyed(&path, ontoly_graph::graph::store::KIND).unwrap();
    let (at, len) = c.span_of("node.rows").unwrap();
    assert!(len > 0);
    drop(c);
    bad[at + 4] ^= 0x01;
    std::fs::write(&path, &bad).unwrap();
    let warm = build_with(&root, false);
    // The header and manifest check out, so the snapshot opens lazily ...
    assert_eq!(warm.report.cache, CacheStatus::Hit);
    // ... and the first read of the altered block marks it, and returns nothing from it.
    let _: Vec<_> = warm.graph.nodes().collect();
    let _: Vec<_> = warm.graph.texts().collect();
    assert!(warm.graph.is_corrupt());
    assert_eq!(build_with(&root, true).graph.hash, hash);
}

#[test]
fn another_layout_version_or_kind_is_refused() {
    let (_t, root, hash) = built();
    let path = root.join(".ontoly/graph.map");
    let full = std::fs::read(&path).unwrap();
    let mut other = full.clone();
    other[8] = other[8].wrapping_add(1); // the layout version
    std::fs::write(&path, &other).unwrap();
    let r = build_with(&root, false);
    assert_ne!(r.report.cache, CacheStatus::Hit);
    assert!(r.report.cache_note.as_deref().unwrap().contains("version"));
    assert_eq!(r.graph.hash, hash);
    // A container of another kind (an artifact) in its place.
    snapshot::write_artifact(&root, "x", "foreign", b"not a graph").unwrap();
    std::fs::copy(root.join(".ontoly/artifacts/foreign.map"), &path).unwrap();
    let r = build_with(&root, false);
    assert_ne!(r.report.cache, CacheStatus::Hit);
    assert_eq!(r.graph.hash, hash);
    // The previous cache format: not even opened.
    std::fs::write(&path, b"ONTOLYS1\x10\0\0\0\0\0\0\0").unwrap();
    assert_ne!(build_with(&root, false).report.cache, CacheStatus::Hit);
}

#[cfg(unix)]
mod unix {
    use super::*;
    use std::os::unix::fs::symlink;

    fn mkfifo(p: &Path) {
        let st = std::process::Command::new("mkfifo")
            .arg(p)
            .status()
            .unwrap();
        assert!(st.success());
    }

    #[test]
    fn cache_files_linked_to_a_device_are_not_read() {
        let (_t, root, hash) = built();
        for name in ["graph.map", "parse.bin"] {
            let p = root.join(".ontoly").join(name);
            std::fs::remove_file(&p).unwrap();
            symlink("/dev/zero", &p).unwrap();
        }
        let r = build_with(&root, false);
        assert_eq!(r.report.cache, CacheStatus::Miss);
        assert!(r.report.cache_note.is_some());
        assert_eq!(r.graph.hash, hash);
        // The rebuild replaced the links with files; it did not write through them.
        let m = std::fs::symlink_metadata(root.join(".ontoly/graph.map")).unwrap();
        assert!(m.file_type().is_file());
        assert_eq!(build_with(&root, false).report.cache, CacheStatus::Hit);
    }

    #[test]
    fn a_fifo_in_place_of_each_cache_file_never_blocks() {
        for name in ["graph.map", "parse.bin", "artifacts/search-index.map"] {
            let (_t, root, hash) = built();
            snapshot::write_artifact(&root, &hash, "search-index", b"idx").unwrap();
            let p = root.join(".ontoly").join(name);
            std::fs::remove_file(&p).unwrap();
            mkfifo(&p);
            let r = build_with(&root, false);
            assert_eq!(r.graph.hash, hash, "{name}");
            if name == "graph.map" {
                assert_ne!(r.report.cache, CacheStatus::Hit);
            }
            assert_eq!(
                snapshot::read_artifact(&root, &hash, "search-index").is_some(),
                name != "artifacts/search-index.map"
            );
        }
    }

    #[test]
    fn a_linked_cache_dir_leaving_the_workspace_is_not_used() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("valid");
        copy_dir(&fixture("valid"), &root);
        let outside = t.path().join("elsewhere");
        std::fs::create_dir_all(&outside).unwrap();
        symlink(&outside, root.join(".ontoly")).unwrap();
        let r = build_with(&root, false);
        assert!(r
            .report
            .cache_note
            .as_deref()
            .is_some_and(|n| n.contains("symbolic link")));
        assert_eq!(
            std::fs::read_dir(&outside).unwrap().count(),
            0,
            "nothing written outside the workspace"
        );
        assert!(snapshot::write_artifact(&root, "h", "search-index", b"x").is_err());
        assert_eq!(snapshot::read_artifact(&root, "h", "search-index"), None);
        // A linked artifacts/ directory leaving it: the same.
        std::fs::remove_file(root.join(".ontoly")).unwrap();
        let r = build_with(&root, false);
        assert_eq!(r.report.cache, CacheStatus::Miss);
        symlink(&outside, root.join(".ontoly/artifacts")).unwrap();
        assert!(snapshot::write_artifact(&root, &r.graph.hash, "search-index", b"x").is_err());
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
        // A link that stays inside the workspace is followed.
        std::fs::remove_file(root.join(".ontoly/artifacts")).unwrap();
        std::fs::create_dir_all(root.join("cache-here")).unwrap();
        std::fs::rename(root.join(".ontoly"), root.join("cache-here/.ontoly")).unwrap();
        symlink(root.join("cache-here/.ontoly"), root.join(".ontoly")).unwrap();
        assert_eq!(build_with(&root, false).report.cache, CacheStatus::Hit);
    }
}

#[test]
fn the_parse_cache_holds_no_section_texts_and_reuse_derives_them_again() {
    let (_t, root, _) = built();
    let cached = snapshot::load_parsed(&root).unwrap().expect("parse cache");
    let fresh = ontoly_graph::graph::build::parse_workspace(&Workspace::at(root.clone())).unwrap();
    assert_eq!(cached.pages.len(), fresh.pages.len());
    let mut sections = 0;
    for (path, c) in &cached.pages {
        let f = &fresh.pages[path];
        assert!(c.section_texts.is_empty(), "{path}: texts were cached");
        assert_eq!(c.sections, f.sections);
        sections += f.sections.len();
        let mut restored = c.clone();
        restored.restore_texts(&std::fs::read(root.join("knowledge").join(path)).unwrap());
        assert_eq!(&restored, f, "{path}: restored parse equals a fresh one");
    }
    assert!(sections > 0);
}

#[test]
fn an_artifact_built_in_memory_is_stored_byte_for_byte_and_only_for_its_graph() {
    let (_dir, root, hash) = built();
    let mut w = snapshot::artifact_writer(&hash);
    w.section("data", b"the index's bytes");
    let bytes = w.finish().expect("held sections");
    let c = snapshot::artifact_from_bytes(bytes.clone(), &hash).expect("our own bytes open");
    snapshot::write_artifact_container(&root, &hash, "built", &c).expect("stored");
    assert_eq!(
        std::fs::read(root.join(".ontoly/artifacts/built.map")).expect("read"),
        bytes,
        "written as built"
    );
    let opened = snapshot::open_artifact(&root, &hash, "built").expect("opens for its graph");
    assert_eq!(
        opened
            .section("data")
            .and_then(|s| s.all().map(<[u8]>::to_vec)),
        Some(b"the index's bytes".to_vec())
    );
    // The same bytes through the sections writer: the same file.
    snapshot::write_artifact_sections(&root, &hash, "sections", &[("data", b"the index's bytes")])
        .expect("stored");
    assert_eq!(
        std::fs::read(root.join(".ontoly/artifacts/sections.map")).expect("read"),
        bytes
    );
    // Not an artifact of this graph, or not an artifact at all: refused, nothing written.
    assert!(snapshot::write_artifact_container(&root, "another graph", "other", &c).is_err());
    let graph = Container::open_unkeyed(
        &root.join(".ontoly/graph.map"),
        ontoly_graph::graph::store::KIND,
    )
    .expect("the graph's container");
    assert!(snapshot::write_artifact_container(&root, &hash, "other", &graph).is_err());
    assert!(!root.join(".ontoly/artifacts/other.map").exists());
    // For another graph it is stale, but still a base to update from (never an answer: the
    // reader compares the graph hash the artifact records); a name outside the artifacts
    // folder, or one not stored, opens nothing.
    assert!(snapshot::open_artifact(&root, "another graph", "built").is_none());
    let any = snapshot::open_artifact_of_any_graph(&root, "built").expect("a base");
    assert_eq!(any.raw(), &bytes[..]);
    assert!(snapshot::open_artifact_of_any_graph(&root, "../graph").is_none());
    assert!(snapshot::open_artifact_of_any_graph(&root, "absent").is_none());
}

#[test]
fn a_cold_build_gives_its_parses_to_the_parse_cache_and_keeps_them_when_it_cannot_begin() {
    use ontoly_graph::graph::build::parse_workspace;
    use ontoly_graph::{Session, SessionOptions};
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("valid");
    copy_dir(&fixture("valid"), &root);
    let fresh = parse_workspace(&Workspace::at(root.clone())).unwrap();
    assert!(fresh.pages.values().any(|p| !p.section_texts.is_empty()));

    // Written to the parse cache: dropped from memory, and read back from there when asked.
    let cold = build_with(&root, false);
    assert_eq!(cold.report.cache, CacheStatus::Miss);
    assert!(
        cold.parsed.is_none(),
        "the parses were kept after the parse cache took them"
    );
    let cached = snapshot::load_parsed(&root).unwrap().expect("parse cache");
    assert_eq!(cached.structure, fresh.structure);
    assert_eq!(cached.registries, fresh.registries);
    std::fs::remove_dir_all(root.join(".ontoly")).unwrap();
    let session = Session::open(SessionOptions::new(&root).workspace(&root)).unwrap();
    let parsed = session.parsed().unwrap();
    assert_eq!(session.build().unwrap().report.cache, CacheStatus::Miss);
    assert_eq!(parsed.structure, fresh.structure);
    assert_eq!(parsed.registries, fresh.registries);
    assert_eq!(
        parsed.pages.keys().collect::<Vec<_>>(),
        fresh.pages.keys().collect::<Vec<_>>()
    );
    for (path, p) in &parsed.pages {
        assert_eq!(p.sections, fresh.pages[path].sections, "{path}");
    }

    // No cache: the build keeps them, texts and all.
    let off = build(&Workspace::at(root.clone()), &BuildOptions::default()).unwrap();
    assert_eq!(off.report.cache, CacheStatus::Disabled);
    assert_eq!(off.parsed.as_deref(), Some(&fresh));

    // A cache that cannot be written (`.ontoly` is a file): the build keeps them too.
    std::fs::remove_dir_all(root.join(".ontoly")).unwrap();
    std::fs::write(root.join(".ontoly"), b"not a directory").unwrap();
    let unwritable = build_with(&root, false);
    assert!(unwritable.report.cache_note.is_some());
    assert_eq!(unwritable.parsed.as_deref(), Some(&fresh));
    assert_eq!(unwritable.graph.hash, cold.graph.hash);

    // A parse cache that fails only after the parses were serialized (`parse.bin` is a
    // directory, so the rename fails): they were dropped on the way, and asking for them
    // parses the workspace again.
    std::fs::remove_file(root.join(".ontoly")).unwrap();
    std::fs::create_dir_all(root.join(".ontoly/parse.bin/occupied")).unwrap();
    let late = build_with(&root, false);
    assert!(late.report.cache_note.is_some());
    assert!(late.parsed.is_none(), "dropped once serialized");
    assert_eq!(late.graph.hash, cold.graph.hash);
    let session = Session::open(SessionOptions::new(&root).workspace(&root)).unwrap();
    let again = session.parsed().unwrap();
    assert_eq!(again.structure, fresh.structure);
    assert_eq!(again.registries, fresh.registries);
    for (path, p) in &again.pages {
        assert_eq!(p.sections, fresh.pages[path].sections, "{path}");
    }
}

/// A section's text in a built graph is its page parse's body itself, not a copy of it; and a
/// `note:` reference still resolves (its file read) after the knowledge files' bytes are freed.
#[test]
fn a_built_graph_shares_each_section_body_with_its_parse() {
    use ontoly_graph::graph::model::{ids, NodeKind};
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("valid");
    copy_dir(&fixture("valid"), &root);
    let out = build(&Workspace::at(root.clone()), &BuildOptions::default()).unwrap();
    let parsed = out.parsed.as_deref().expect("kept without a cache");
    let mut shared = 0;
    for (path, page) in &parsed.pages {
        for (s, (_, body)) in page.sections.iter().zip(&page.section_texts) {
            let id = ids::section(path, &s.id);
            let text = out.graph.text(&id).expect("a marked section has a text");
            assert!(std::ptr::eq(text, &**body), "{id}: its text was copied");
            shared += 1;
        }
    }
    assert!(shared > 0);
    // Resolved: its file node exists (an unreadable note is an unresolved source and a finding).
    let file = "file:note:20260101/meeting.md@workspace:sources/note/20260101/meeting.md";
    assert!(out.graph.node(file).is_some());
    assert!(out.graph.nodes_of(NodeKind::Diagnostic).all(|d| d
        .metadata
        .get("code")
        .is_none_or(|c| c != "SOURCE_UNRESOLVED")));
}

/// A build killed mid-write leaves `.NAME.tmp-PID-N` (`.NAME.tmp-PID` before); the next write of that file removes the
/// ones whose process is gone, and leaves a running process's alone.
#[test]
fn temporary_files_of_killed_builds_are_removed_by_the_next_write() {
    if !Path::new("/proc/self").exists() {
        return; // liveness cannot be told: nothing is removed there (the rule under test)
    }
    let (_t, root, _) = built();
    let cache = root.join(".ontoly");
    // Above any pid_max: no such process. Pid 1 always runs.
    let dead = cache.join(".parse.bin.tmp-999999999");
    let dead_counted = cache.join(".parse.bin.tmp-999999999-7");
    let alive = cache.join(".parse.bin.tmp-1");
    let alive_counted = cache.join(".parse.bin.tmp-1-0");
    let other = cache.join(".parse.bin.tmp-x");
    let other_counted = cache.join(".parse.bin.tmp-999999999-x");
    for f in [
        &dead,
        &dead_counted,
        &alive,
        &alive_counted,
        &other,
        &other_counted,
    ] {
        std::fs::write(f, b"partial").expect("write");
    }
    // A page edit: the parses are written again.
    let page = root.join("knowledge/api/plugins.md");
    let text = std::fs::read_to_string(&page).expect("page");
    std::fs::write(&page, text + "\nOne more line.\n").expect("edit");
    let out = build_with(&root, false);
    assert_eq!(out.report.cache_note, None);
    assert!(!dead.exists(), "the dead process's file stays");
    assert!(
        !dead_counted.exists(),
        "the dead process's counted file stays"
    );
    assert!(alive.exists() && alive_counted.exists());
    assert!(other.exists() && other_counted.exists());
}

#[test]
fn a_link_planted_at_a_temporary_name_is_replaced_not_followed() {
    // The status stamp (`.ontoly/.stamp-PID`) and the files `drift --write` stages beside
    // their targets (`knowledge/.structure.yaml.ontoly-PID`) are created afresh: a link a
    // repository plants under those names must not lead the write to the file it names.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    copy_dir(&fixture("valid"), &root);
    let victim = tmp.path().join("victim.txt");
    std::fs::write(&victim, "keep me\n").unwrap();
    let pid = std::process::id();
    std::fs::create_dir_all(root.join(".ontoly")).unwrap();
    let stamp = root.join(format!(".ontoly/.stamp-{pid}"));
    std::os::unix::fs::symlink(&victim, &stamp).unwrap();
    assert!(snapshot::fs_stamp(&root).is_some());
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n");
    let staged = root.join(format!("knowledge/.structure.yaml.ontoly-{pid}"));
    std::os::unix::fs::symlink(&victim, &staged).unwrap();
    let session = ontoly_graph::Session::open(
        ontoly_graph::SessionOptions::new(&root)
            .workspace(&root)
            .cache(ontoly_graph::CachePolicy::Off),
    )
    .unwrap();
    let new = b"schema_version: context.approved-structure.v1\narticles: []\n".to_vec();
    session
        .replace_workspace_files(&[("knowledge/structure.yaml".into(), new.clone())])
        .unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n");
    let target = root.join("knowledge/structure.yaml");
    assert!(std::fs::symlink_metadata(&target).unwrap().is_file());
    assert_eq!(std::fs::read(&target).unwrap(), new);
}

#[test]
fn a_file_that_cannot_be_replaced_is_named_and_left_as_it_was() {
    // A directory where the temporary file goes: the write fails before any rename, and the
    // error names the workspace file (a read-only `knowledge/` said only "permission denied").
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    copy_dir(&fixture("valid"), &root);
    let pid = std::process::id();
    std::fs::create_dir(root.join(format!("knowledge/.structure.yaml.ontoly-{pid}"))).unwrap();
    let before = std::fs::read(root.join("knowledge/structure.yaml")).unwrap();
    let session = ontoly_graph::Session::open(
        ontoly_graph::SessionOptions::new(&root)
            .workspace(&root)
            .cache(ontoly_graph::CachePolicy::Off),
    )
    .unwrap();
    let e = session
        .replace_workspace_files(&[("knowledge/structure.yaml".into(), b"x\n".to_vec())])
        .unwrap_err();
    let message = e.to_string();
    assert!(
        message.starts_with("knowledge/structure.yaml: "),
        "{message}"
    );
    assert!(!message.contains(&*root.to_string_lossy()), "{message}");
    assert_eq!(
        std::fs::read(root.join("knowledge/structure.yaml")).unwrap(),
        before
    );
}

#[test]
fn a_hit_puts_back_the_cache_s_gitignore() {
    // Found by a determinism walk: removed (a CI cache restoring `.ontoly/*` skips dotfiles),
    // it came back only when an edit rewrote the snapshot.
    let (_t, root, _) = built();
    let ignore = root.join(".ontoly/.gitignore");
    std::fs::remove_file(&ignore).unwrap();
    assert_eq!(build_with(&root, false).report.cache, CacheStatus::Hit);
    assert_eq!(std::fs::read_to_string(&ignore).unwrap(), "*\n");
}

/// Writers of one cache file in one process (an MCP server's calls, up to eight at once, each
/// storing the drift marks it computed) each stage their own temporary file: what a rename puts
/// at the name is a whole file, never one another writer is still filling, and no writer's
/// failure removes another's.
#[test]
fn concurrent_writers_of_one_artifact_publish_only_whole_files() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("ws");
    std::fs::create_dir_all(&root).unwrap();
    const SIZE: usize = 4 << 20;
    snapshot::write_artifact(&root, "h", "marks", &vec![0u8; SIZE]).unwrap();
    let path = root.join(".ontoly/artifacts/marks.map");
    let whole = std::fs::metadata(&path).unwrap().len();
    let done = std::sync::atomic::AtomicBool::new(false);
    let (torn, failed) = std::thread::scope(|s| {
        let reader = s.spawn(|| {
            let mut torn = 0;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                if let Ok(m) = std::fs::metadata(&path) {
                    torn += usize::from(m.len() != whole);
                }
            }
            torn
        });
        let writers: Vec<_> = (1..=6u8)
            .map(|k| {
                let root = &root;
                s.spawn(move || {
                    (0..6)
                        .filter(|_| {
                            snapshot::write_artifact(root, "h", "marks", &vec![k; SIZE]).is_err()
                        })
                        .count()
                })
            })
            .collect();
        let failed: usize = writers.into_iter().map(|w| w.join().unwrap_or(1)).sum();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        (reader.join().unwrap_or(1), failed)
    });
    assert_eq!(torn, 0, "a partly written file was published");
    assert_eq!(failed, 0, "writes failed");
    let data = snapshot::read_artifact(&root, "h", "marks").expect("a whole artifact");
    assert!(data.len() == SIZE && data.iter().all(|&b| b == data[0]));
    let left: Vec<_> = std::fs::read_dir(root.join(".ontoly/artifacts"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "marks.map")
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

/// The graph hash a build from nothing gives for `root` (no cache read or written), and the
/// `(path, hash)` of every input as a full read finds them.
fn from_nothing(root: &Path) -> (String, Vec<(String, String)>) {
    let ws = Workspace::at(root.to_path_buf());
    let g = build(&ws, &BuildOptions::default()).expect("build runs");
    let read = ontoly_graph::graph::build::inputs::read_inputs(&ws).expect("inputs");
    (g.graph.hash, read.key())
}

/// The `(path, hash)` pairs of the manifest the snapshot under `root` holds.
fn manifest_pairs(root: &Path) -> Vec<(String, String)> {
    let opened = snapshot::open_graph(root).unwrap().expect("a snapshot");
    (opened.manifest.files.iter())
        .map(|e| (e.path.clone(), e.hash.clone()))
        .collect()
}

/// Whether the snapshot of `from` is the one a build of an identical copy of its inputs would
/// use: copied beside such a copy (whose files are all read, their statuses being new), it is
/// a hit there, so its cache key is the key of a full read.
fn keyed_as_a_full_read(from: &Path, hash: &str) -> bool {
    let t = tempfile::tempdir().unwrap();
    let copy = t.path().join("copy");
    copy_dir(from, &copy);
    std::fs::create_dir_all(copy.join(".ontoly")).unwrap();
    std::fs::copy(
        from.join(".ontoly/graph.map"),
        copy.join(".ontoly/graph.map"),
    )
    .unwrap();
    let out = build_with(&copy, false);
    out.report.cache == CacheStatus::Hit && out.graph.hash == hash
}

/// A sentence added to the last section of the page at `path` (as `scripts/bench.py` edits a
/// page: the section's node changes).
fn edit_page(path: &Path) {
    let s = std::fs::read_to_string(path).unwrap();
    let end = s.rfind("<!-- /context:section -->").expect("a section");
    let edited = format!("{}A sentence added.\n\n{}", &s[..end], &s[end..]);
    std::fs::write(path, edited).unwrap();
}

fn append(path: &Path, text: &str) {
    let mut s = std::fs::read_to_string(path).unwrap();
    s.push_str(text);
    std::fs::write(path, s).unwrap();
}

/// One page edited, every other input aged: the build after it does not read the structure
/// (the manifest vouches for it and the parse cache holds its parse) and reads the rest, and
/// gives the graph, the manifest and the cache key a full read gives.
#[test]
fn one_edited_page_leaves_the_trusted_structure_unread_and_builds_what_a_full_read_builds() {
    let (_t, root, hash) = built();
    edit_page(&root.join("knowledge/api/plugins.md"));
    let r = build_with(&root, false);
    assert_eq!(r.report.cache, CacheStatus::Partial);
    assert!(!r.report.structure_parsed);
    assert_eq!(
        r.report.files_hashed,
        r.report.input_files - 1,
        "every input but structure.yaml read"
    );
    let (full, pairs) = from_nothing(&root);
    assert_ne!(full, hash, "the edit changed the graph");
    assert_eq!(r.graph.hash, full, "the graph of a full read");
    assert_eq!(manifest_pairs(&root), pairs, "the manifest of a full read");
    assert!(keyed_as_a_full_read(&root, &full), "the key of a full read");
    assert_eq!(r.report.input_bytes, {
        let ws = Workspace::at(root.clone());
        ontoly_graph::graph::build::inputs::read_inputs(&ws)
            .unwrap()
            .bytes()
    });
    let warm = build_with(&root, false);
    assert_eq!(warm.report.cache, CacheStatus::Hit);
    assert_eq!(warm.graph.hash, full);
}

/// A structure whose status the manifest does not vouch for is read again in the build after
/// a page edit: touched (same bytes, new time), grown, or edited to the same size with its
/// modification time put back (only its status-change time tells).
#[test]
fn an_untrusted_structure_is_read_again_after_a_page_edit() {
    type Change = fn(&Path);
    let cases: [(&str, Change, bool); 3] = [
        (
            "touched",
            |p| {
                let f = std::fs::File::options().write(true).open(p).unwrap();
                f.set_modified(SystemTime::now()).unwrap();
            },
            false,
        ),
        ("grown", |p| append(p, "# a comment line\n"), true),
        (
            "same size, time put back",
            |p| {
                let before = std::fs::metadata(p).unwrap();
                let text = std::fs::read_to_string(p).unwrap();
                let edited = text.replacen("start_line: 70", "start_line: 71", 1);
                assert_ne!(edited, text);
                assert_eq!(edited.len(), text.len());
                std::fs::write(p, edited).unwrap();
                let f = std::fs::File::options().write(true).open(p).unwrap();
                f.set_modified(before.modified().unwrap()).unwrap();
            },
            true,
        ),
    ];
    for (name, change, parsed) in cases {
        let (_t, root, _) = built();
        edit_page(&root.join("knowledge/api/plugins.md"));
        change(&root.join("knowledge/structure.yaml"));
        let r = build_with(&root, false);
        assert_eq!(r.report.cache, CacheStatus::Partial, "{name}");
        assert_eq!(
            r.report.files_hashed, r.report.input_files,
            "{name}: the structure read again"
        );
        assert_eq!(r.report.structure_parsed, parsed, "{name}");
        let (full, pairs) = from_nothing(&root);
        assert_eq!(r.graph.hash, full, "{name}");
        assert_eq!(manifest_pairs(&root), pairs, "{name}");
        assert!(keyed_as_a_full_read(&root, &full), "{name}");
    }
}

/// A structure written just before a build is within the racy window of that build's stamp:
/// the next build reads it although its status is the one recorded, and an edit that keeps
/// its size is seen.
#[test]
fn a_structure_changed_within_the_racy_window_is_read_again() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("valid");
    copy_dir(&fixture("valid"), &root);
    age(&root);
    let structure = root.join("knowledge/structure.yaml");
    // New content, written now: the build's stamp is within two seconds of its time.
    let text = std::fs::read_to_string(&structure).unwrap();
    std::fs::write(&structure, &text).unwrap();
    let cold = build_with(&root, false);
    assert_eq!(cold.report.cache, CacheStatus::Miss);
    let m = snapshot::open_graph(&root)
        .unwrap()
        .expect("a snapshot")
        .manifest;
    let e = (m.files.iter())
        .find(|e| e.path == "knowledge/structure.yaml")
        .unwrap();
    let now = FileStat::of(&std::fs::metadata(&structure).unwrap());
    assert_eq!(e.stat, Some(now), "the status recorded is the status now");
    assert!(!m.trusts(e, &now), "but too recent to vouch for the bytes");
    // Edited again at once, to the same size, its modification time put back.
    let edited = text.replacen("start_line: 70", "start_line: 71", 1);
    assert_eq!(edited.len(), text.len());
    std::fs::write(&structure, edited).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&structure)
        .unwrap()
        .set_modified(std::fs::metadata(&structure).unwrap().modified().unwrap())
        .unwrap();

    edit_page(&root.join("knowledge/api/plugins.md"));
    let r = build_with(&root, false);
    assert_eq!(r.report.cache, CacheStatus::Partial);
    assert_eq!(r.report.files_hashed, r.report.input_files);
    assert!(r.report.structure_parsed, "the edit is seen");
    let (full, pairs) = from_nothing(&root);
    assert_eq!(r.graph.hash, full);
    assert_eq!(manifest_pairs(&root), pairs);
}
