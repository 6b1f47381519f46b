//! Issue 13 (hardening): one reproducer per defect, through the real binary.
//!
//! Each test asserts the behaviour the issue asks for; each defect's test was written first and
//! failed on the code before its fix.
//!
//! Every child runs under an address-space cap and a time limit (see `hostile/mod.rs`), so a
//! defect that eats memory or hangs fails its test instead of the machine.

mod hostile;

use hostile::{demo_workspace, git, ontoly, ontoly_with, workspace, write, Limits, MIB};
use serde_json::Value;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::time::Duration;

/// A page outside every workspace, with a section and a title that must never reach output.
fn outside_page(dir: &Path) {
    write(
        dir,
        "secret.md",
        "# Outside Secret Title\n\n<!-- context:section id=\"leak\" -->\n## Leak\nzebracorn hunter2\n<!-- /context:section -->\n",
    );
}

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
}

/// A plugin request for one range of one page.
fn plugin_request(path: &str) -> Vec<u8> {
    serde_json::json!({"abi_version": 2, "operation": "read", "files": [
        {"item_id": "i", "path": path, "start_line": 1, "end_line": 6}]})
    .to_string()
    .into_bytes()
}

// ---- 1. Symlinks leave the workspace ------------------------------------------------------

#[test]
fn a_knowledge_directory_linked_out_of_the_workspace_is_not_walked() {
    // A security walk: with `knowledge/` a link out of the workspace, the pages were refused
    // one by one but their names were listed, became articles and were searched.
    let (t, root) = workspace("valid");
    let outside = t.path().join("outside-knowledge");
    std::fs::rename(root.join("knowledge"), &outside).expect("move knowledge/");
    std::fs::write(outside.join("faq/private-roadmap.md"), "# Roadmap\n").expect("page");
    symlink(&outside, root.join("knowledge")).expect("symlink");
    for args in [
        &["--no-cache", "--format", "json", "build"][..],
        &["--no-cache", "validate"],
        &[
            "--no-cache",
            "--format",
            "json",
            "evidence",
            "roadmap guide",
        ],
    ] {
        let o = ontoly(&root, args);
        assert!(o.finished(), "{}", o.summary());
        assert!(
            !o.stdout.contains("private-roadmap"),
            "{args:?} listed it: {}",
            o.summary()
        );
        assert!(
            !o.stdout.contains("faq/guide.md"),
            "{args:?} listed it: {}",
            o.summary()
        );
    }
    let o = ontoly(&root, &["--no-cache", "validate"]);
    assert!(
        o.stdout.contains("knowledge/:1: error PAGE_UNREADABLE: cannot list this directory (it is a symlink that leaves the workspace)"),
        "{}",
        o.summary()
    );
}

#[test]
fn a_page_symlinked_outside_the_workspace_is_not_read() {
    let (t, root) = workspace("valid");
    outside_page(&t.path().join("outside"));
    symlink(
        t.path().join("outside/secret.md"),
        root.join("knowledge/faq/secret.md"),
    )
    .expect("symlink");
    for args in [
        &["--no-cache", "--format", "json", "build"][..],
        &["--no-cache", "stats"],
        &[
            "--no-cache",
            "--format",
            "json",
            "evidence",
            "zebracorn hunter2",
        ],
    ] {
        let o = ontoly(&root, args);
        assert!(o.finished(), "{}", o.summary());
        for leaked in ["Outside Secret Title", "secret.md#leak"] {
            assert!(
                !o.stdout.contains(leaked),
                "{args:?} served {leaked}: {}",
                o.stdout
            );
        }
    }
    // `validate`, and the Validate capability as text (what an MCP client shows: it listed
    // "- is a symlink that leaves the workspace" with no page, MCP walk, stop 59).
    for args in [
        &["--no-cache", "validate"][..],
        &["--no-cache", "run", "Validate"],
    ] {
        let o = ontoly(&root, args);
        let named = o
            .stdout
            .lines()
            .any(|l| l.contains("knowledge/faq/secret.md") && l.contains("symlink"));
        assert!(
            named,
            "{args:?}: no diagnostic names the link: {}",
            o.stdout
        );
    }
}

#[test]
fn a_page_symlinked_inside_the_workspace_is_still_read() {
    // The fix must refuse links that leave the workspace, not every link.
    let (_t, root) = workspace("valid");
    write(
        &root,
        "shared/inside.md",
        "# Inside\n\n<!-- context:section id=\"kept\" -->\n## Kept\nquokkafish\n<!-- /context:section -->\n",
    );
    symlink(
        "../../shared/inside.md",
        root.join("knowledge/faq/inside.md"),
    )
    .expect("symlink");
    let o = ontoly(
        &root,
        &["--no-cache", "--format", "json", "evidence", "quokkafish"],
    );
    assert!(o.finished(), "{}", o.summary());
    assert!(
        o.stdout.contains("section:faq/inside.md#kept"),
        "{}",
        o.stdout
    );
}

#[test]
fn plugin_enrich_does_not_follow_a_directory_link_out_of_the_workspace() {
    let (t, root) = workspace("valid");
    outside_page(&t.path().join("outside"));
    symlink("../../outside", root.join("knowledge/up")).expect("symlink");
    let root_arg = root.to_str().expect("utf-8 path");
    let answer = |path: &str| {
        let o = ontoly_with(
            t.path(),
            &["plugin", "enrich", "--root", root_arg],
            Some(&plugin_request(path)),
            Limits::default(),
        );
        assert!(o.finished(), "{}", o.summary());
        o.stdout.replace(path, "<path>")
    };
    // An outside file must be indistinguishable from a file that does not exist.
    assert_eq!(
        answer("knowledge/up/secret.md"),
        answer("knowledge/up/nothere.md"),
        "the answer confirms that an outside file exists and has markers"
    );
}

#[test]
fn section_references_does_not_follow_a_directory_link_out_of_the_workspace() {
    let (t, root) = workspace("valid");
    outside_page(&t.path().join("outside"));
    symlink("../../outside", root.join("knowledge/up")).expect("symlink");
    let answer = |path: &str| {
        let input = serde_json::json!({"path": path, "startLine": 1, "endLine": 6}).to_string();
        let o = ontoly(
            &root,
            &[
                "--no-cache",
                "--format",
                "json",
                "run",
                "SectionReferences",
                "--input",
                &input,
            ],
        );
        assert!(o.finished(), "{}", o.summary());
        o.stdout.replace(path, "<path>")
    };
    assert_eq!(
        answer("knowledge/up/secret.md"),
        answer("knowledge/up/nothere.md"),
        "the answer confirms that an outside file exists and has markers"
    );
}

// ---- 2. Cache files are trusted as files --------------------------------------------------

/// A build of `root` with the cache on must finish within a small budget and equal a clean
/// build.
fn assert_cache_ignored(root: &Path, command: &[&str]) {
    let clean = ontoly(root, &["--no-cache", "--format", "json", "build"]);
    let clean: Value = serde_json::from_str(&clean.stdout).expect("json build");
    let limits = Limits {
        address_space: 1024 * MIB,
        timeout: Duration::from_secs(15),
    };
    let o = ontoly_with(root, command, None, limits);
    assert!(o.finished(), "{}", o.summary());
    assert!(
        o.peak_mib() < 128.0,
        "a cache file drove memory: {}",
        o.summary()
    );
    if command.ends_with(&["build"]) {
        let built: Value = serde_json::from_str(&o.stdout).expect("json build");
        assert_eq!(built["graphHash"], clean["graphHash"]);
    } else {
        assert_eq!(o.code, Some(0), "{}", o.summary());
    }
}

#[test]
fn a_graph_map_linked_to_dev_zero_is_not_read() {
    let (_t, root) = workspace("valid");
    std::fs::create_dir_all(root.join(".ontoly")).expect("mkdir");
    symlink("/dev/zero", root.join(".ontoly/graph.map")).expect("symlink");
    assert_cache_ignored(&root, &["--format", "json", "build"]);
}

#[test]
fn a_fifo_graph_map_does_not_hang_build() {
    let (_t, root) = workspace("valid");
    mkfifo(&root.join(".ontoly/graph.map"));
    assert_cache_ignored(&root, &["--format", "json", "build"]);
}

#[test]
fn a_fifo_parse_bin_does_not_hang_build() {
    let (_t, root) = workspace("valid");
    mkfifo(&root.join(".ontoly/parse.bin"));
    assert_cache_ignored(&root, &["--format", "json", "build"]);
}

#[test]
fn a_fifo_search_index_does_not_hang_evidence() {
    let (_t, root) = workspace("valid");
    let first = ontoly(&root, &["evidence", "plugins"]);
    assert_eq!(first.code, Some(0), "{}", first.summary());
    let index = root.join(".ontoly/artifacts/search-index.map");
    assert!(index.is_file(), "the first run stores the search index");
    std::fs::remove_file(&index).expect("rm");
    mkfifo(&index);
    assert_cache_ignored(&root, &["evidence", "plugins"]);
}

#[test]
fn a_page_that_is_no_readable_file_is_named_not_skipped() {
    // The first security walk: a FIFO page, a dangling link and a link to /dev/zero were
    // skipped without a word (a link to /etc/passwd was named), so a page went missing unsaid.
    let (_t, root) = workspace("valid");
    mkfifo(&root.join("knowledge/fifo.md"));
    symlink("/nowhere/at/all", root.join("knowledge/dangling.md")).expect("link");
    symlink("/dev/zero", root.join("knowledge/zero.md")).expect("link");
    let o = ontoly(&root, &["--no-cache", "validate"]);
    assert!(o.finished(), "{}", o.summary());
    for page in ["fifo.md", "dangling.md", "zero.md"] {
        assert!(
            o.stdout
                .contains(&format!("knowledge/{page}:1: error PAGE_UNREADABLE")),
            "{page}: {}",
            o.summary()
        );
    }
}

#[test]
fn a_fifo_page_read_from_a_work_tree_is_refused_not_waited_on() {
    // The second security walk: the workspace outside git reads pages from its work tree, and
    // opening a FIFO there blocked until killed (over MCP the request was never answered).
    let (_t, root) = workspace("valid");
    mkfifo(&root.join("knowledge/fifo.md"));
    let o = ontoly(&root, &["--no-cache", "read", "knowledge/fifo.md:1-2"]);
    assert!(o.finished(), "{}", o.summary());
    assert_eq!(o.code, Some(1), "{}", o.summary());
    assert!(o.stderr.contains("NOT_A_FILE"), "{}", o.summary());
}

#[test]
fn a_cache_directory_linked_outside_the_workspace_is_not_used() {
    let (t, root) = workspace("valid");
    let elsewhere = t.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).expect("mkdir");
    symlink(&elsewhere, root.join(".ontoly")).expect("symlink");
    let o = ontoly(&root, &["build"]);
    assert_eq!(o.code, Some(0), "{}", o.summary());
    let written: Vec<_> = std::fs::read_dir(&elsewhere)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert!(
        written.is_empty(),
        "the cache was written outside the workspace: {written:?}"
    );
}

// ---- 3. Memory amplification from small inputs -------------------------------------------

/// A workspace whose sections cite, three each (the most a section may record), `refs`
/// files of a module whose `subpath` is `subpath_bytes` long. Returns the bytes of its input
/// files.
fn long_subpath_workspace(root: &Path, subpath_bytes: usize, refs: usize) -> u64 {
    let segment = "a".repeat(50);
    let subpath = vec![segment.as_str(); subpath_bytes / 51].join("/");
    let registry = format!(
        "sources:\n  - name: acme\n    modules:\n      - name: server\n        subpath: {subpath}\n        git: {{remote: https://github.com/acme/server, ref: 0123456789abcdef0123456789abcdef01234567}}\n"
    );
    let mut structure = String::from(
        "schema_version: context.approved-structure.v1\narticles:\n  - article_id: guide\n    path: faq/guide.md\n    collection: faq\n    visibility: public\n    sections:\n",
    );
    let mut page = String::from("# Guide\n\n");
    for s in 0..refs.div_ceil(3) {
        structure.push_str(&format!("      - id: s{s}\n        references:\n"));
        page.push_str(&format!(
            "<!-- context:section id=\"s{s}\" -->\n## How are plugins loaded?\nPlugins load at start.\n<!-- /context:section -->\n"
        ));
        for i in (s * 3)..(s * 3 + 3).min(refs) {
            structure.push_str(&format!(
                "          - source_ref: repo:acme/server\n            locator: {{path: src/f{i}.go, start_line: 1, end_line: 2}}\n            content_digest: sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae\n"
            ));
        }
    }
    write(root, "sources/repo/index.yaml", &registry);
    write(root, "knowledge/structure.yaml", &structure);
    write(root, "knowledge/faq/guide.md", &page);
    (registry.len() + structure.len() + page.len()) as u64
}

/// Peak RSS of `validate` on the smallest fixture, the fixed cost every run pays.
fn floor_mib() -> f64 {
    let (_t, root) = workspace("valid");
    let o = ontoly(&root, &["--no-cache", "validate"]);
    assert!(o.finished(), "{}", o.summary());
    o.peak_mib()
}

#[test]
fn a_long_subpath_cited_many_times_stays_within_twenty_times_its_size() {
    let floor = floor_mib();
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path().join("ws");
    let bytes = long_subpath_workspace(&root, 1_000_000, 12);
    let budget = floor + 20.0 * bytes as f64 / MIB as f64;
    let limits = Limits::new(2560, 120);
    let o = ontoly_with(&root, &["--no-cache", "validate"], None, limits);
    assert!(o.finished(), "{}", o.summary());
    assert!(
        o.peak_mib() <= budget,
        "peak {:.0} MiB over the budget of {budget:.0} MiB (floor {floor:.0} + 20 × {bytes} B)",
        o.peak_mib()
    );
    assert!(
        o.stdout.contains("subpath"),
        "no diagnostic names the oversized subpath: {}",
        o.summary()
    );
    let o = ontoly_with(&root, &["--no-cache", "evidence", "plugins"], None, limits);
    assert!(o.finished(), "{}", o.summary());
    assert!(
        o.stdout.len() < 256 * 1024,
        "evidence printed {} bytes",
        o.stdout.len()
    );
}

// ---- 4. The YAML size limit is far above what memory allows -------------------------------

/// `validate` on a workspace whose structure.yaml is `text`: bounded by 20 × its size over
/// the floor, refused or accepted.
fn assert_structure_within_budget(text: &str) {
    let floor = floor_mib();
    let t = tempfile::tempdir().expect("tempdir");
    let root = t.path().join("ws");
    write(&root, "knowledge/structure.yaml", text);
    // 8 MiB of slack: the floor is measured in another run, and a child's peak moves by a few
    // MiB between runs of the same input — the allocator's high-water mark, and the test
    // process's own resident pages, which the child (forked to set its limits) holds until it
    // execs (seen: 1 MiB over a 4 MiB slack once, at load 3).
    let budget = floor + 8.0 + 20.0 * text.len() as f64 / MIB as f64;
    let o = ontoly_with(
        &root,
        &["--no-cache", "validate"],
        None,
        Limits::new(2560, 60),
    );
    assert!(o.finished(), "{}", o.summary());
    assert!(
        o.peak_mib() <= budget,
        "{} B of structure.yaml: peak {:.0} MiB over the budget of {budget:.0} MiB ({})",
        text.len(),
        o.peak_mib(),
        o.summary()
    );
}

const HEAD: &str = "schema_version: context.approved-structure.v1\narticles: []\n";

#[test]
fn an_ignored_flow_list_is_skipped_within_budget() {
    let list = vec!["a"; 2_000_000].join(",");
    assert_structure_within_budget(&format!("{HEAD}processed_scopes: [{list}]\n"));
}

#[test]
fn an_ignored_block_list_is_skipped_within_budget() {
    assert_structure_within_budget(&format!(
        "{HEAD}processed_scopes:\n{}",
        "- a\n".repeat(1_000_000)
    ));
}

#[test]
fn aliases_within_the_repetition_limit_stay_within_budget() {
    let anchor = vec!["b"; 60].join(",");
    let aliases = vec!["*a"; 33_000].join(",");
    assert_structure_within_budget(&format!(
        "{HEAD}x: &a [{anchor}]\nprocessed_scopes: [{aliases}]\n"
    ));
}

// ---- 5. Answers from a broken workspace ---------------------------------------------------

/// A question whose first three sections, with guides/checkout.md broken, hold one of that
/// page's sections behind a section of another page, at a score that would be `high`.
const BROKEN_PAGE_QUESTION: &str = "checkout payment retry";

/// The Evidence Pack for [`BROKEN_PAGE_QUESTION`] on `root`, as JSON.
fn broken_page_pack(root: &Path) -> Value {
    let o = ontoly(
        root,
        &[
            "--no-cache",
            "--format",
            "json",
            "evidence",
            BROKEN_PAGE_QUESTION,
        ],
    );
    assert!(o.finished(), "{}", o.summary());
    serde_json::from_str(&o.stdout).expect("json pack")
}

/// The Evidence Pack for [`BROKEN_PAGE_QUESTION`] on `root`: it must carry an error diagnostic
/// of `code`, one of its first three sections (those its confidence rests on) must come from
/// `page`, and it must not be `high`.
fn assert_pack_reports_broken_page(root: &Path, code: &str, page: &str) {
    let pack = broken_page_pack(root);
    let diagnostics = pack["diagnostics"].as_array().cloned().unwrap_or_default();
    assert!(
        diagnostics
            .iter()
            .any(|d| d["code"] == code && d["severity"] == "error"),
        "the pack does not carry {code}: {diagnostics:?}"
    );
    let from_page = pack["topNodes"]
        .as_array()
        .expect("topNodes")
        .iter()
        .filter(|n| n["type"] == "Section")
        .take(3)
        .any(|n| n["id"].as_str().unwrap_or("").contains(page));
    assert!(
        from_page,
        "no section of {page} among the first three: the cap is not exercised"
    );
    assert_ne!(
        pack["confidence"]["level"], "high",
        "a section of the broken page {page} backs a high answer"
    );
    assert!(
        pack["confidence"]["explanation"]
            .as_str()
            .unwrap_or("")
            .contains("capped at medium"),
        "{}",
        pack["confidence"]
    );
}

#[test]
fn a_pack_from_a_workspace_with_a_missing_page_carries_the_error() {
    let (_t, root) = demo_workspace();
    std::fs::remove_file(root.join("knowledge/guides/checkout.md")).expect("rm");
    assert_pack_reports_broken_page(&root, "ARTICLE_PAGE_MISSING", "guides/checkout.md");
}

#[test]
fn a_pack_from_a_page_with_broken_markers_is_not_high() {
    let (_t, root) = demo_workspace();
    let page = root.join("knowledge/guides/checkout.md");
    let text = std::fs::read_to_string(&page).expect("page");
    let broken = text.replacen(
        "<!-- /context:section -->",
        "<!-- context:section broken -->",
        1,
    );
    assert_ne!(text, broken);
    std::fs::write(&page, broken).expect("write");
    assert_pack_reports_broken_page(&root, "MARKER_ERROR", "guides/checkout.md");
}

/// The error diagnostics a pack holds, and the count its truncation note says it carries.
fn errors_carried(root: &Path) -> (usize, Option<String>) {
    let pack = broken_page_pack(root);
    let diagnostics = pack["diagnostics"].as_array().cloned().unwrap_or_default();
    let errors = diagnostics
        .iter()
        .filter(|d| d["severity"] == "error")
        .count();
    let note = diagnostics
        .iter()
        .filter(|d| d["code"] == "CAPABILITY_EVIDENCE_TRUNCATED")
        .filter_map(|d| d["message"].as_str())
        .find(|m| m.starts_with("the workspace has"))
        .map(str::to_string);
    (errors, note)
}

#[test]
fn a_packs_note_on_workspace_errors_counts_the_ones_it_holds() {
    let (_t, root) = demo_workspace();
    let page = root.join("knowledge/guides/checkout.md");
    let text = std::fs::read_to_string(&page).expect("page");
    // The section the question finds loses its registration: its own error is in the pack
    // before the workspace's are added, and must count as carried.
    let renamed = text.replacen(
        "context:section id=\"payment-retry\"",
        "context:section id=\"payment-retries\"",
        1,
    );
    assert_ne!(text, renamed);
    std::fs::write(&page, &renamed).expect("write");
    let (errors, note) = errors_carried(&root);
    assert_eq!(
        (errors, note),
        (2, None),
        "both errors held, nothing truncated"
    );
    // Past the bound, the note's count is what the pack holds.
    // Two held and seven more: five added (the bound), two left to the note.
    for p in [
        "guides/inventory.md",
        "guides/shopctl.md",
        "guides/web-client.md",
        "guides/worker-jobs.md",
        "guides/java-sdk.md",
        "faq/troubleshooting.md",
        "architecture/overview.md",
    ] {
        let path = root.join("knowledge").join(p);
        let t = std::fs::read_to_string(&path).expect("page");
        std::fs::write(
            &path,
            format!("{t}\n<!-- context:section id=\"unclosed\" -->\n"),
        )
        .expect("write");
    }
    let (errors, note) = errors_carried(&root);
    let note = note.expect("more errors than the bound: a truncation note");
    assert!(
        errors == 7
            && note
                == "the workspace has 9 error diagnostics; the pack carries 7 of them \
                    (ontoly validate lists them all)",
        "{errors} errors held: {note}"
    );
}

// ---- 6. A UTF-8 BOM -----------------------------------------------------------------------

const BOM: &str = "\u{feff}";

#[test]
fn a_bom_at_the_start_of_structure_yaml_is_accepted() {
    let (_t, root) = workspace("valid");
    let path = root.join("knowledge/structure.yaml");
    let text = std::fs::read_to_string(&path).expect("structure");
    std::fs::write(&path, format!("{BOM}{text}")).expect("write");
    let o = ontoly(&root, &["--no-cache", "validate"]);
    assert_eq!(
        o.stdout,
        "valid: 0 errors, 0 warnings, 0 info\n",
        "{}",
        o.summary()
    );
}

#[test]
fn a_bom_at_the_start_of_a_page_hides_nothing() {
    for page in [
        "<!-- context:section id=\"answer\" -->\nx\n<!-- /context:section -->\n<!-- context:section id=\"setup\" -->\ny\n<!-- /context:section -->\n",
        "---\ntitle: Server guide\n---\n<!-- context:section id=\"answer\" -->\nx\n<!-- /context:section -->\n<!-- context:section id=\"setup\" -->\ny\n<!-- /context:section -->\n",
    ] {
        let (_t, root) = workspace("valid");
        write(&root, "knowledge/faq/guide.md", page);
        let plain = ontoly(&root, &["--no-cache", "--format", "json", "build"]);
        write(&root, "knowledge/faq/guide.md", format!("{BOM}{page}"));
        let o = ontoly(&root, &["--no-cache", "validate"]);
        assert_eq!(o.stdout, "valid: 0 errors, 0 warnings, 0 info\n", "{}", o.summary());
        let with_bom = ontoly(&root, &["--no-cache", "--format", "json", "build"]);
        let count = |o: &hostile::Outcome| {
            let v: Value = serde_json::from_str(&o.stdout).expect("json build");
            (v["counts"].clone(), v["diagnostics"].clone())
        };
        assert_eq!(count(&with_bom), count(&plain), "{page}");
    }
}

#[test]
fn a_bom_at_the_start_of_a_registry_is_accepted() {
    // What structure.yaml and pages must do too.
    let (_t, root) = workspace("valid");
    let path = root.join("sources/repo/index.yaml");
    let text = std::fs::read_to_string(&path).expect("registry");
    std::fs::write(&path, format!("{BOM}{text}")).expect("write");
    let o = ontoly(&root, &["--no-cache", "validate"]);
    assert_eq!(
        o.stdout,
        "valid: 0 errors, 0 warnings, 0 info\n",
        "{}",
        o.summary()
    );
    let o = ontoly(&root, &["--no-cache", "refs", "knowledge/faq/guide.md"]);
    assert!(
        o.stdout.contains("https://github.com/acme/server/blob/"),
        "{}",
        o.summary()
    );
}

// ---- 7. Questions files without the safe-YAML limits --------------------------------------

const DEEP: usize = 100_000;

#[test]
fn a_deeply_nested_questions_file_is_refused_quickly() {
    let (t, root) = workspace("valid");
    write(t.path(), "q.yaml", "{a: ".repeat(DEEP));
    let o = ontoly_with(
        &root,
        &["--no-cache", "check", "--questions", "q.yaml"],
        None,
        Limits::new(1024, 20),
    );
    assert!(o.finished(), "{}", o.summary());
    assert_eq!(o.code, Some(2), "{}", o.summary());
    assert!(o.stderr.contains("nested deeper than"), "{}", o.summary());
    assert!(o.elapsed < Duration::from_secs(5), "{}", o.summary());
}

#[test]
fn the_same_nesting_in_structure_yaml_is_refused_quickly() {
    let (_t, root) = workspace("valid");
    write(&root, "knowledge/structure.yaml", "{a: ".repeat(DEEP));
    let o = ontoly_with(
        &root,
        &["--no-cache", "validate"],
        None,
        Limits::new(1024, 20),
    );
    assert!(o.finished(), "{}", o.summary());
    assert!(
        o.stdout.contains("nested deeper than 1000"),
        "{}",
        o.summary()
    );
    assert!(o.elapsed < Duration::from_secs(5), "{}", o.summary());
}

// ---- 8. Credentials echoed ----------------------------------------------------------------

const SECRET: &str = "SECRETTOKEN";

/// The `valid` fixture with a `repo-content:` reference whose identity carries credentials, a
/// lark source whose URL carries a token in its query, as a git repository whose origin is
/// `https://github.com/team/kb`.
fn credentials_workspace() -> (tempfile::TempDir, std::path::PathBuf) {
    let (t, root) = workspace("valid");
    let path = root.join("knowledge/structure.yaml");
    let text = std::fs::read_to_string(&path).expect("structure");
    let digest = "sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae";
    let added = format!(
        "      - id: setup\n        references:\n          - source_ref: repo-content:https://u:{SECRET}@github.com/team/kb@0123456789abcdef0123456789abcdef01234567\n            locator: {{path: knowledge/faq/guide.md, start_line: 1, end_line: 2}}\n            content_digest: {digest}\n          - source_ref: lark:design\n            locator: {{path: doc.md, start_line: 1, end_line: 2}}\n            content_digest: {digest}\n"
    );
    let text = text.replace("      - id: setup\n        references:\n", &added);
    std::fs::write(&path, text).expect("write");
    write(
        &root,
        "sources/lark/index.yaml",
        format!("sources:\n  - name: design\n    url: https://acme.feishu.cn/docx/AbCd?token={SECRET}\n    materializedAt: sources/lark/design\n"),
    );
    git(&root, &["init", "-q", "-b", "main"]);
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "knowledge"]);
    git(
        &root,
        &["remote", "add", "origin", "https://github.com/team/kb"],
    );
    (t, root)
}

#[test]
fn credentials_in_recorded_references_are_never_echoed() {
    let (_t, root) = credentials_workspace();
    let section = r#"{"section":"section:faq/guide.md#setup"}"#;
    let refs = r#"{"path":"knowledge/faq/guide.md","startLine":1,"endLine":30}"#;
    let mut leaks = Vec::new();
    for args in [
        &["--no-cache", "validate"][..],
        &["--no-cache", "--format", "json", "validate"],
        &["--no-cache", "--format", "json", "build"],
        &["--no-cache", "refs", "knowledge/faq/guide.md"],
        &["--no-cache", "evidence", "Setup"],
        &["--no-cache", "--format", "json", "evidence", "Setup"],
        &["--no-cache", "run", "SectionEvidence", "--input", section],
        &["--no-cache", "run", "SectionReferences", "--input", refs],
        &[
            "--no-cache",
            "read",
            "--repo",
            "team/kb",
            "knowledge/faq/guide.md",
        ],
    ] {
        let o = ontoly(&root, args);
        assert!(o.finished(), "{}", o.summary());
        if o.stdout.contains(SECRET) || o.stderr.contains(SECRET) {
            leaks.push(format!("{args:?}"));
        }
    }
    let request = serde_json::json!({"abi_version": 2, "operation": "read", "files": [
        {"item_id": "i", "path": "knowledge/faq/guide.md", "start_line": 1, "end_line": 30}]});
    let o = hostile::run(
        root.parent().expect("parent"),
        &["plugin", "enrich", "--root", "valid"],
        Some(request.to_string().as_bytes()),
        Limits::default(),
    );
    assert!(o.stdout.contains("\"item_id\":\"i\""), "{}", o.summary());
    if o.stdout.contains(SECRET) {
        leaks.push("plugin enrich".into());
    }
    assert!(leaks.is_empty(), "the credential is echoed by {leaks:?}");
}

#[test]
fn an_unresolved_source_ref_that_may_hold_a_credential_is_shown_by_its_kind() {
    // The second security walk: user-info before a host without a dot or an IPv6 literal, a
    // query and a fragment escaped the redaction and were echoed by every output.
    let (_t, root) = workspace("valid");
    let path = root.join("knowledge/structure.yaml");
    let text = std::fs::read_to_string(&path).expect("structure");
    let digest = "sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae";
    let entry = |r: String| {
        format!(
            "          - source_ref: \"{r}\"\n            locator: {{path: src/a.go, start_line: 1, end_line: 2}}\n            content_digest: {digest}\n"
        )
    };
    // At most three references a section are checked: these go to three sections.
    let setup = entry(format!("repo:deploy:{SECRET}@gitserver:org/repo"))
        + &entry(format!("repo:u:{SECRET}@[fe80::1]:x"));
    let text = text
        .replacen(
            "      - id: setup\n        references:\n",
            &format!("      - id: setup\n        references:\n{setup}"),
            1,
        )
        .replacen(
            "      - id: answer\n        references:\n",
            &format!(
                "      - id: answer\n        references:\n{}",
                entry(format!("repo:acme/server?token={SECRET}"))
            ),
            1,
        )
        .replacen(
            "      - id: overview\n        references: []\n",
            &format!(
                "      - id: overview\n        references:\n{}",
                entry(format!("repo:acme/server#{SECRET}"))
            ),
            1,
        );
    std::fs::write(&path, text).expect("write");
    for args in [
        &["validate"][..],
        &["--format", "json", "validate"],
        &["--format", "sarif", "validate"],
        &["--format", "json", "build"],
        &["--format", "json", "evidence", "setup"],
        &[
            "--format",
            "json",
            "run",
            "SectionEvidence",
            "--input",
            r#"{"section":"faq/guide.md#setup"}"#,
        ],
    ] {
        let o = ontoly(&root, &[&["--no-cache"][..], args].concat());
        assert!(o.finished(), "{}", o.summary());
        assert!(
            !o.stdout.contains(SECRET) && !o.stderr.contains(SECRET),
            "{args:?}: {}",
            o.summary()
        );
    }
    // A remote's URL given as a clone's path is not shown either.
    let clone = format!("acme/server=deploy:{SECRET}@gitserver:org/repo.git");
    let o = ontoly(&root, &["--no-cache", "--source", &clone, "validate"]);
    assert!(o.stdout.contains("CLONE_NOT_FOUND"), "{}", o.summary());
    assert!(
        !o.stdout.contains(SECRET) && !o.stderr.contains(SECRET),
        "{}",
        o.summary()
    );
    // Each of the four is named by its kind; two causes, each listed once for two references.
    let o = ontoly(&root, &["--no-cache", "validate"]);
    assert!(o.stdout.contains("SOURCE_UNRESOLVED"), "{}", o.summary());
    let named: Vec<&str> = (o.stdout.lines())
        .filter(|l| l.contains("(`repo:***`)"))
        .collect();
    assert_eq!(named.len(), 2, "{}", o.summary());
    assert!(
        named
            .iter()
            .all(|l| l.contains("; the same for 1 more reference(s), at lines ")),
        "{}",
        o.summary()
    );
}

#[test]
fn credentials_in_a_requested_repository_name_are_never_echoed() {
    let (_t, root) = workspace("valid");
    for repo in [
        format!("u:{SECRET}@github.com/acme/x"),
        format!("https://u:{SECRET}@github.com/acme/x"),
        format!("{SECRET}@github.com/acme/x"),
    ] {
        for format in ["text", "json"] {
            let o = ontoly(
                &root,
                &[
                    "--no-cache",
                    "--format",
                    format,
                    "read",
                    "--repo",
                    &repo,
                    "a.txt",
                ],
            );
            assert!(o.finished(), "{}", o.summary());
            assert!(
                o.stdout.contains("REPOSITORY_NOT_FOUND")
                    || o.stderr.contains("REPOSITORY_NOT_FOUND"),
                "{}",
                o.summary()
            );
            assert!(
                !o.stdout.contains(SECRET) && !o.stderr.contains(SECRET),
                "{repo} echoed: {}",
                o.summary()
            );
        }
    }
}

#[test]
fn credentials_in_a_clone_s_name_or_a_refused_remote_are_never_echoed() {
    // A security walk: a clone named with credentials in ontoly.toml or --source was echoed
    // in validate, check and read errors, and kept in the cache; a registry remote refused
    // for its token was still listed among the known repositories.
    let (_t, root) = workspace("valid");
    for key in [
        format!("github.com/alice:{SECRET}@a/b2"),
        format!("https://github.com/alice:{SECRET}@a/b3"),
        format!("https://github.com/a/b4?token={SECRET}"),
        format!("https://alice:{SECRET}@github.com/a/b"),
    ] {
        std::fs::write(
            root.join("ontoly.toml"),
            format!("[sources]\n\"{key}\" = \"../nope\"\n"),
        )
        .expect("write ontoly.toml");
        for args in [
            &["validate"][..],
            &["--format", "json", "validate"],
            &["read", "--repo", "x", "a"],
        ] {
            let o = ontoly(&root, &[&["--no-cache"][..], args].concat());
            assert_eq!(o.code, Some(2), "{key} {args:?}: {}", o.summary());
            assert!(
                o.stderr
                    .contains("ontoly.toml:2: this clone's NAME holds credentials"),
                "{}",
                o.summary()
            );
            assert!(
                !o.stdout.contains(SECRET) && !o.stderr.contains(SECRET),
                "{key}: {}",
                o.summary()
            );
        }
        let o = ontoly(
            &root,
            &["--no-cache", "--source", &format!("{key}=../nope"), "stats"],
        );
        assert_eq!(o.code, Some(2), "{}", o.summary());
        assert!(
            !o.stdout.contains(SECRET) && !o.stderr.contains(SECRET),
            "{key}: {}",
            o.summary()
        );
    }
    std::fs::remove_file(root.join("ontoly.toml")).expect("remove ontoly.toml");
    let registry = root.join("sources/repo/index.yaml");
    let text = std::fs::read_to_string(&registry).expect("registry");
    std::fs::write(
        &registry,
        text.replace(
            "https://github.com/acme/server",
            &format!("https://github.com/acme/server/alice:{SECRET}@x"),
        ),
    )
    .expect("write registry");
    let o = ontoly(&root, &["--no-cache", "read", "--repo", "nonexist", "x"]);
    assert!(o.stderr.contains("REPOSITORY_NOT_FOUND"), "{}", o.summary());
    assert!(
        !o.stdout.contains(SECRET) && !o.stderr.contains(SECRET),
        "{}",
        o.summary()
    );
}

#[test]
fn control_characters_the_workspace_holds_stay_quoted_in_text_outputs() {
    // A security walk: a structure key or page path with a line break printed a line of its
    // own in plain `validate` (a GitHub Actions command when it starts with `::`), and an
    // escape sequence in a heading set the terminal's title and cleared its screen.
    let (_t, root) = workspace("valid");
    let structure = root.join("knowledge/structure.yaml");
    let text = std::fs::read_to_string(&structure).expect("structure");
    let text = text
        .replacen(
            "schema_version: context.approved-structure.v1\n",
            "schema_version: context.approved-structure.v1\n\"k\\n::warning::INJECTED\": 1\n",
            1,
        )
        .replace(
            "path: api/plugins.md",
            "path: \"api/inj\\n::error file=x,line=1::INJECTED.md\"",
        );
    std::fs::write(&structure, text).expect("write structure");
    let page = root.join("knowledge/faq/guide.md");
    let body = std::fs::read_to_string(&page).expect("page");
    let body = body.replacen(
        "\n## ",
        "\n## Escape \x1b]0;TITLE\x07 \x1b[2J \x1b[8mhidden\x1b[0m \u{202e}",
        1,
    );
    std::fs::write(&page, body).expect("write page");
    // A questions file whose question holds a line break and an escape (the second walk).
    std::fs::write(
        root.join("qs.yaml"),
        "- q: \"plugins\\n::warning::INJECTED \\e]8;;x\\a\"\n  expect: [\"guide#nope\"]\n",
    )
    .expect("questions");
    let qs = root.join("qs.yaml").to_string_lossy().into_owned();
    for args in [
        &["validate"][..],
        &["evidence", "plugins"],
        &["check", "--questions", "none.yaml"],
        &["check", "--questions", &qs],
        &["check", "--questions", &qs, "--format", "github"],
        &["graph", "faq/guide.md", "--format", "mermaid"],
        &["graph", "faq/guide.md", "--format", "dot"],
        &["read", "--rev", "\x1b[2Jx\nline", "knowledge/faq/guide.md"],
    ] {
        let o = ontoly(&root, &[&["--no-cache"][..], args].concat());
        assert!(o.finished(), "{}", o.summary());
        for line in o.stdout.lines().chain(o.stderr.lines()) {
            assert!(
                !line.starts_with("::warning::INJECTED") && !line.starts_with("::error file=x"),
                "{args:?}: a line of its own: {line}"
            );
            assert!(
                !line.contains(['\x1b', '\x07', '\u{202e}']),
                "{args:?}: raw control: {line:?}"
            );
        }
    }
    let o = ontoly(&root, &["--no-cache", "validate"]);
    assert!(
        o.stdout.contains("unknown key `k\\n::warning::INJECTED`"),
        "{}",
        o.summary()
    );
    assert!(
        o.stdout
            .contains("knowledge/api/inj\\n::error file=x,line=1::INJECTED.md"),
        "{}",
        o.summary()
    );
    let o = ontoly(&root, &["--no-cache", "evidence", "plugins"]);
    assert!(
        o.stdout.contains("Escape \\u{1b}]0;TITLE\\u{7} \\u{1b}[2J"),
        "{}",
        o.summary()
    );
}

// ---- 9. Smaller ---------------------------------------------------------------------------

#[test]
fn tools_call_without_params_is_invalid_params() {
    let (_t, root) = workspace("valid");
    let lines = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call"}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":[]}"#,
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":"x"}"#,
    ];
    let input = lines.join("\n") + "\n";
    let o = ontoly_with(
        &root,
        &["--no-cache", "mcp"],
        Some(input.as_bytes()),
        Limits::new(1024, 30),
    );
    assert!(o.finished(), "{}", o.summary());
    let answer = o
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["id"] == 2)
        .expect("an answer to tools/call");
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    // Params of the wrong shape are invalid params too (they were an invalid request).
    for id in [3, 4] {
        let answer = o
            .stdout
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|v| v["id"] == id)
            .expect("an answer");
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
    }
}

#[test]
fn a_line_number_beyond_u32_is_a_diagnostic() {
    let (_t, root) = workspace("valid");
    let path = root.join("knowledge/structure.yaml");
    let text = std::fs::read_to_string(&path).expect("structure");
    let huge = text.replace(
        "start_line: 3, end_line: 9",
        "start_line: 3, end_line: 18446744073709551615",
    );
    assert_ne!(text, huge);
    std::fs::write(&path, huge).expect("write");
    let o = ontoly(&root, &["--no-cache", "validate"]);
    assert_eq!(
        o.code,
        Some(1),
        "validate accepts the line: {}",
        o.summary()
    );
    assert!(
        o.stdout.contains("knowledge/structure.yaml:"),
        "{}",
        o.summary()
    );
    for args in [
        &["--no-cache", "refs", "knowledge/faq/guide.md"][..],
        &["--no-cache", "--format", "json", "evidence", "setup"],
    ] {
        let o = ontoly(&root, args);
        assert!(
            !o.stdout.contains("18446744073709551615"),
            "{args:?} carries the line: {}",
            o.summary()
        );
    }
}

/// A directory under `knowledge/` that cannot be listed leaves out its pages and is named in a
/// diagnostic; the rest of the workspace builds and answers (before: every command exit 2).
#[test]
fn a_page_whose_name_is_not_utf8_is_named_not_lost() {
    use std::os::unix::ffi::OsStrExt;
    let (_dir, ws) = workspace("valid");
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.md");
    std::fs::write(ws.join("knowledge").join(name), "# Caf\n").expect("writes");
    let sub = std::ffi::OsStr::from_bytes(b"old\xff");
    std::fs::create_dir_all(ws.join("knowledge").join(sub)).expect("mkdir");
    std::fs::write(ws.join("knowledge").join(sub).join("a.md"), "# A\n").expect("writes");
    // A hidden entry is not a page, whatever its name.
    let hidden = std::ffi::OsStr::from_bytes(b".swap\xe9.md");
    std::fs::write(ws.join("knowledge").join(hidden), "x").expect("writes");
    let out = ontoly(&ws, &["--no-cache", "validate"]);
    assert_eq!(out.code, Some(1), "{}{}", out.stdout, out.stderr);
    for at in ["knowledge/caf\u{FFFD}.md", "knowledge/old\u{FFFD}"] {
        assert!(
            out.stdout.contains(&format!(
                "{at}:1: error PAGE_UNREADABLE: its name is not UTF-8, so no structure entry can name it: left out (rename it)"
            )),
            "{at}: {}",
            out.stdout
        );
    }
    assert!(!out.stdout.contains("swap"), "{}", out.stdout);
    // The rest still builds and answers, and a second build agrees with the first.
    let again = ontoly(&ws, &["validate"]);
    assert_eq!(again.stdout, out.stdout);
    assert_eq!(ontoly(&ws, &["validate"]).stdout, out.stdout);
}

#[test]
fn a_directory_that_cannot_be_listed_is_a_diagnostic_not_a_failure() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, ws) = workspace("valid");
    let private = ws.join("knowledge/private");
    write(&ws, "knowledge/private/secret.md", "# Secret\n");
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    // Root lists any directory: run as nobody then, where the tree is readable to it.
    let as_root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false);
    let mut cmd = if as_root {
        for d in [dir.path(), &ws] {
            std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o777)).expect("chmod");
        }
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(env!("CARGO_BIN_EXE_ontoly"));
        c
    } else {
        std::process::Command::new(env!("CARGO_BIN_EXE_ontoly"))
    };
    let out = cmd
        .current_dir(&ws)
        .args(["--no-cache", "validate"])
        .output()
        .expect("runs");
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(
            "knowledge/private/:1: error PAGE_UNREADABLE: cannot list this directory (permission denied): the pages in it are left out"
        ),
        "{stdout}"
    );
    // The rest is there: the fixture's own pages still build.
    assert!(!stdout.contains("secret"), "{stdout}");
    let listed = ontoly(&ws, &["--no-cache", "stats", "--format", "json"]);
    assert_eq!(listed.code, Some(0));
}

/// A repository registry that is there but is not read — a link out of the workspace, a FIFO —
/// is one REGISTRY_UNUSABLE saying why, and each reference through it points there: it was
/// taken for absent, and every reference said "sources/repo/index.yaml does not exist (create
/// it …)" (hostile walk, stop 43).
#[test]
fn a_registry_that_is_there_but_not_read_is_unusable_not_absent() {
    for how in ["link", "fifo"] {
        let (t, root) = workspace("valid");
        let index = root.join("sources/repo/index.yaml");
        let text = std::fs::read_to_string(&index).expect("the fixture has a repo registry");
        std::fs::remove_file(&index).expect("rm");
        if how == "link" {
            let outside = t.path().join("outside-index.yaml");
            std::fs::write(&outside, text).expect("write");
            symlink(&outside, &index).expect("symlink");
        } else {
            mkfifo(&index);
        }
        let o = ontoly(&root, &["--no-cache", "validate"]);
        assert!(o.finished(), "{how}: {}", o.summary());
        let why = if how == "link" {
            "is a symlink that leaves the workspace"
        } else {
            "is not a regular file"
        };
        assert!(
            o.stdout.contains(&format!(
                "sources/repo/index.yaml:1: error REGISTRY_UNUSABLE: the registry is not read: {why}"
            )),
            "{how}: {}",
            o.stdout
        );
        assert!(!o.stdout.contains("does not exist"), "{how}: {}", o.stdout);
        assert!(
            o.stdout
                .contains("sources/repo/index.yaml cannot be used (REGISTRY_UNUSABLE says why)"),
            "{how}: {}",
            o.stdout
        );
    }
}
