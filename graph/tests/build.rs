//! The builder on the fixture workspaces of `testdata/fixtures/`: one workspace per rule, plus
//! determinism (threads, paths) and the snapshot cache.

mod support;
use ontoly_graph::diagnostics::Severity;
use ontoly_graph::formats::layout::Workspace;
use ontoly_graph::graph::build::{build, BuildOptions, CacheStatus};
use ontoly_graph::graph::findings::diagnostics_of;
use ontoly_graph::graph::model::{EdgeKind, NodeKind};
use ontoly_graph::graph::Graph;
use std::path::{Path, PathBuf};
use support::copy_dir;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/fixtures")
        .join(name)
}

fn build_at(root: &Path, use_cache: bool) -> ontoly_graph::graph::build::BuildOutput {
    let ws = Workspace::at(root.to_path_buf());
    build(
        &ws,
        &BuildOptions {
            use_cache,
            ..Default::default()
        },
    )
    .expect("build runs")
}

fn graph_of(name: &str) -> Graph {
    build_at(&fixture(name), false).graph
}

/// `CODE file:line` for every diagnostic, sorted.
fn diags(g: &Graph) -> Vec<String> {
    let mut v: Vec<String> = diagnostics_of(g)
        .into_iter()
        .map(|d| format!("{} {}", d.code, d.location))
        .collect();
    v.sort();
    v
}

#[test]
fn valid_workspace_has_no_diagnostics_and_the_expected_shape() {
    let g = graph_of("valid");
    assert_eq!(diags(&g), Vec::<String>::new());
    assert_eq!(g.nodes_of(NodeKind::Article).count(), 2);
    assert_eq!(g.nodes_of(NodeKind::Section).count(), 3);
    let s = g.node("section:faq/guide.md#answer").unwrap();
    assert_eq!(s.name, "How are plugins loaded?");
    assert_eq!(
        s.span.as_ref().map(|s| (s.start_line, s.end_line)),
        Some((8, 12))
    );
    assert_eq!(s.metadata["article"], "faq/guide.md");
    assert!(g
        .text("section:faq/guide.md#answer")
        .unwrap()
        .contains("discovered at start-up"));
    let a = g.node("article:faq/guide.md").unwrap();
    assert_eq!(a.name, "Server guide");
    assert_eq!(
        a.metadata["description"],
        "How the acme server loads plugins."
    );
    // Links both ways, each with the page line it was read from.
    let l = g.out_edges("article:faq/guide.md", Some(EdgeKind::LinksTo));
    assert_eq!(l.len(), 1);
    assert_eq!(l[0].to, "article:api/plugins.md");
    let o = l[0].origin.as_ref().unwrap();
    assert_eq!((o.file.as_str(), o.line), ("knowledge/faq/guide.md", 11));
    // CONTAINS edges carry the structure line of the article.
    let c = g.in_edges("article:faq/guide.md", Some(EdgeKind::Contains));
    let o = c[0].origin.as_ref().unwrap();
    assert_eq!((o.file.as_str(), o.line), ("knowledge/structure.yaml", 3));
    // The marker inside a code fence is text, not a section.
    assert!(g.node("section:api/plugins.md#not-a-marker").is_none());
    assert!(g.node("source:repo:acme/server").is_some());

    // References: section → range → file → commit → repository, each edge with its origin.
    let commit = "0123456789abcdef0123456789abcdef01234567";
    let cites = g.out_edges("section:faq/guide.md#answer", Some(EdgeKind::Cites));
    assert_eq!(cites.len(), 2);
    let range_id = "range:github.com/acme/server@0123456789ab:src/plugins.go#L70-L116".to_string();
    let c = cites
        .iter()
        .find(|e| e.to == range_id)
        .expect("repo range cited");
    assert_eq!(c.metadata["status"], "no_clone");
    assert_eq!(c.metadata["source_kind"], "repo");
    assert!(c.metadata["content_digest"].starts_with("sha256:2c26b46b"));
    let o = c.origin.as_ref().unwrap();
    assert_eq!((o.file.as_str(), o.line), ("knowledge/structure.yaml", 10));
    let range = g.node(&range_id).unwrap();
    assert_eq!(
        range.metadata["url"],
        format!("https://github.com/acme/server/blob/{commit}/src/plugins.go#L70-L116")
    );
    let file = &g.out_edges(&range_id, Some(EdgeKind::InFile))[0].to;
    let commit_id = &g.out_edges(file, Some(EdgeKind::AtCommit))[0].to;
    assert_eq!(
        commit_id,
        &format!("commit:github.com/acme/server@{commit}")
    );
    let repo = &g.out_edges(commit_id, Some(EdgeKind::OfRepository))[0].to;
    assert_eq!(repo, "repo:github.com/acme/server");
    let reg = g.out_edges("source:repo:acme/server", Some(EdgeKind::RegisteredAs));
    let o = reg[0].origin.as_ref().unwrap();
    assert_eq!((o.file.as_str(), o.line), ("sources/repo/index.yaml", 4));
    // Two ranges of one file share the file and commit nodes.
    assert_eq!(g.in_edges(file, Some(EdgeKind::InFile)).len(), 1);
    assert_eq!(g.nodes_of(NodeKind::File).count(), 3);
    assert_eq!(g.nodes_of(NodeKind::Commit).count(), 1);
    // A note resolves to its committed file.
    let note = cites
        .iter()
        .find(|e| e.metadata["source_kind"] == "note")
        .unwrap();
    assert!(g.node(&note.to).unwrap().file.as_deref() == Some("sources/note/20260101/meeting.md"));
}

#[test]
fn source_refs_resolve_through_the_registries() {
    let g = graph_of("sources");
    assert_eq!(
        diags(&g),
        [
            "REGISTRY_UNUSABLE sources/lark/index.yaml:4",
            "SOURCE_UNPINNED knowledge/structure.yaml:11",
            "SOURCE_UNRESOLVED knowledge/structure.yaml:14",
            "SOURCE_UNRESOLVED knowledge/structure.yaml:19",
            "SOURCE_UNRESOLVED knowledge/structure.yaml:8",
        ]
    );
    let d = diagnostics_of(&g);
    let msg = |loc: &str| {
        d.iter()
            .find(|x| x.location == loc)
            .unwrap()
            .message
            .clone()
    };
    // With the modules there are: the mistake is in one of the two files.
    assert_eq!(
        msg("knowledge/structure.yaml:8"),
        "Source registration is missing or ambiguous (`repo:acme/missing`); sources/repo/index.yaml registers acme/branch"
    );
    // The unpinned reference is still in the graph, marked, without a URL.
    let cites = g.out_edges("section:s.md#refs", Some(EdgeKind::Cites));
    assert_eq!(cites.len(), 1);
    assert_eq!(cites[0].metadata["status"], "unpinned");
    assert_eq!(
        cites[0].to,
        "range:github.com/acme/branch@main:mod/b.go#L3-L4"
    );
    assert!(!g.node(&cites[0].to).unwrap().metadata.contains_key("url"));
    // A +worktree reference is never pinned: no URL, status worktree.
    let docs = g.out_edges("section:s.md#docs", Some(EdgeKind::Cites));
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].metadata["status"], "worktree");
}

#[test]
fn marker_errors_name_the_marker_line() {
    let g = graph_of("markers");
    assert_eq!(
        diags(&g),
        [
            "MARKER_ERROR knowledge/m/duplicate.md:3",
            "MARKER_ERROR knowledge/m/legacy.md:1",
            // The legacy opening marker is invalid, so its closing marker matches nothing.
            "MARKER_ERROR knowledge/m/legacy.md:2",
            "MARKER_ERROR knowledge/m/nested.md:3",
            "MARKER_ERROR knowledge/m/unclosed.md:2",
            "MARKER_ERROR knowledge/m/unmatched.md:3",
        ]
    );
    let msgs: Vec<String> = diagnostics_of(&g).into_iter().map(|d| d.message).collect();
    // The format's message first, then the ids and lines involved.
    for m in [
        "Duplicate section marker: `",
        "Invalid section marker",
        "Nested section marker: `",
        "Unclosed section marker: `",
        "Unmatched section end: no section is open here",
    ] {
        assert!(msgs.iter().any(|x| x.starts_with(m)), "{m}: {msgs:?}");
    }
    assert!(
        msgs.iter()
            .any(|x| x == "Duplicate section marker: `a` is already marked at line 1"),
        "{msgs:?}"
    );
    // A page with marker errors contributes no sections.
    assert_eq!(g.nodes_of(NodeKind::Section).count(), 0);
}

#[test]
fn structure_and_pages_are_cross_checked() {
    let g = graph_of("mismatch");
    assert_eq!(
        diags(&g),
        [
            "ARTICLE_NOT_IN_STRUCTURE knowledge/k/unlisted.md:1",
            "ARTICLE_PAGE_MISSING knowledge/structure.yaml:10",
            "LINK_UNRESOLVED knowledge/k/page.md:7",
            "SECTION_MISSING_MARKER knowledge/structure.yaml:6",
            "SECTION_NOT_IN_STRUCTURE knowledge/k/page.md:4",
        ]
    );
    // Each diagnostic is attached to its subject.
    let on = |id: &str| {
        g.in_edges(id, Some(EdgeKind::Concerns))
            .iter()
            .map(|e| g.node(&e.from).unwrap().name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        on("section:k/page.md#marked-only"),
        ["SECTION_NOT_IN_STRUCTURE"]
    );
    assert_eq!(
        on("section:k/page.md#registered-only"),
        ["SECTION_MISSING_MARKER"]
    );
    assert_eq!(on("article:k/ghost.md"), ["ARTICLE_PAGE_MISSING"]);
    let sev = diagnostics_of(&g)
        .into_iter()
        .find(|d| d.code == "ARTICLE_NOT_IN_STRUCTURE")
        .unwrap()
        .severity;
    assert_eq!(sev, Severity::Warning);
}

#[test]
fn duplicates_are_reported_at_the_second_entry() {
    let g = graph_of("duplicates");
    assert_eq!(
        diags(&g),
        [
            "ARTICLE_DUPLICATE knowledge/structure.yaml:10",
            "ARTICLE_DUPLICATE knowledge/structure.yaml:13",
            "SECTION_DUPLICATE knowledge/structure.yaml:8",
        ]
    );
    let d = diagnostics_of(&g);
    let dup = d
        .iter()
        .find(|d| d.code == "SECTION_DUPLICATE")
        .expect("duplicate");
    assert!(
        dup.message.ends_with("listed twice (first at line 6)"),
        "{}",
        dup.message
    );
    // A duplicate with references says they are not read: nothing else reports them.
    let d = diagnostics_with("duplicates", "knowledge/structure.yaml", |text| {
        text.replacen(
            "      - id: s\n        references: []\n  - article_id: a",
            "      - id: s\n        references:\n          - {source_ref: \"repo:x/y\", locator: {path: README.rs, start_line: 1, end_line: 2}}\n  - article_id: a",
            1,
        )
    });
    let dup = d
        .iter()
        .find(|d| d.code == "SECTION_DUPLICATE")
        .expect("duplicate");
    assert!(
        dup.message.ends_with(
            "this entry's 1 reference is not read: merge it into the first entry, or give this section its own id"
        ),
        "{}",
        dup.message
    );
}

#[test]
fn schema_version_and_unknown_keys() {
    let g = graph_of("schema");
    assert_eq!(
        diags(&g),
        [
            "SCHEMA_UNSUPPORTED knowledge/structure.yaml:1",
            "UNKNOWN_KEY knowledge/structure.yaml:6",
        ]
    );
    let d = diagnostics_of(&g);
    assert_eq!(d[1].severity, Severity::Warning);
    assert!(d[0].message.contains("context.approved-structure.v0"));
}

#[test]
fn reference_rules() {
    let g = graph_of("references");
    assert_eq!(
        diags(&g),
        [
            "DIGEST_INVALID knowledge/structure.yaml:19",
            "DIGEST_INVALID knowledge/structure.yaml:25",
            "DIGEST_MISSING knowledge/structure.yaml:17",
            "ENTRY_INCOMPLETE knowledge/structure.yaml:22",
            "LOCATOR_INVALID knowledge/structure.yaml:14",
            "LOCATOR_INVALID knowledge/structure.yaml:17",
            "LOCATOR_INVALID knowledge/structure.yaml:25",
            "LOCATOR_INVALID knowledge/structure.yaml:28",
            "SOURCE_UNRESOLVED knowledge/structure.yaml:19",
            "TOO_MANY_REFERENCES knowledge/structure.yaml:6",
        ]
    );
    // Each message says what is wrong with the value, not only that it is wrong.
    let message = |code: &str, location: &str| {
        let d = diagnostics_of(&g);
        d.iter()
            .find(|d| d.code == code && d.location == location)
            .map(|d| d.message.clone())
            .unwrap_or_default()
    };
    assert!(
        message("DIGEST_INVALID", "knowledge/structure.yaml:19")
            .ends_with("3 hex digits, not 64 (a digest is `sha256:` and 64 hex digits)"),
        "{}",
        message("DIGEST_INVALID", "knowledge/structure.yaml:19")
    );
    assert!(message("DIGEST_INVALID", "knowledge/structure.yaml:25")
        .contains("`md5:` is not `sha256:`"));
    assert!(message("LOCATOR_INVALID", "knowledge/structure.yaml:25")
        .contains("it has none of them (a `locator` is a mapping of the three)"));
    assert!(message("LOCATOR_INVALID", "knowledge/structure.yaml:28")
        .ends_with(": `start_line` is missing or not a line number (a whole number from 1)"));
    // In the writer's words, not the plugin's "Invalid returned file range" (author walk,
    // stop 54: nothing was returned; the writer wrote the lines).
    assert_eq!(
        message("LOCATOR_INVALID", "knowledge/structure.yaml:14"),
        "Invalid locator: `start_line` of `n.md` is 0, and lines count from 1"
    );
    assert_eq!(
        message("LOCATOR_INVALID", "knowledge/structure.yaml:17"),
        "Invalid locator: `start_line` 5 of `n.md` is after `end_line` 4 (did you mean start_line 4, end_line 5?)"
    );
    for d in diagnostics_of(&g) {
        assert!(!d.message.contains("returned"), "{}", d.message);
    }
}

#[test]
fn yaml_errors_carry_their_line() {
    let g = graph_of("yaml-error");
    let d = diagnostics_of(&g);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, "YAML_INVALID");
    assert_eq!(d[0].severity, Severity::Error);
    assert!(d[0].location.starts_with("knowledge/structure.yaml:"));
    assert_ne!(d[0].location, "knowledge/structure.yaml:1");
    assert_eq!(d[0].subject.as_deref(), Some("workspace:."));
}

#[test]
fn an_unreadable_structure_is_the_one_error_not_a_warning_per_page() {
    // The valid fixture's pages all have sections; with its structure broken, each page is
    // unlisted only because nothing could be read: the YAML error alone says so.
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("ws");
    copy_dir(&fixture("valid"), &root);
    let path = root.join("knowledge/structure.yaml");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("\tbroken: [\n");
    std::fs::write(&path, text).unwrap();
    let d = diags(&build_at(&root, false).graph);
    assert!(
        d.iter()
            .any(|d| d.starts_with("YAML_INVALID knowledge/structure.yaml:")),
        "{d:?}"
    );
    assert!(
        !d.iter().any(|d| d.starts_with("ARTICLE_NOT_IN_STRUCTURE")),
        "{d:?}"
    );
    // With the structure readable and a page left out, that page is still reported.
    let unbroken = diags(&graph_of("mismatch"));
    assert!(
        unbroken.contains(&"ARTICLE_NOT_IN_STRUCTURE knowledge/k/unlisted.md:1".to_string()),
        "{unbroken:?}"
    );
}

/// The diagnostics of a copy of fixture `name` with `file` rewritten by `edit`.
fn diagnostics_with(
    name: &str,
    file: &str,
    edit: impl FnOnce(String) -> String,
) -> Vec<ontoly_graph::graph::findings::DiagnosticView> {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("ws");
    copy_dir(&fixture(name), &root);
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    std::fs::write(&path, edit(text)).unwrap();
    diagnostics_of(&build_at(&root, false).graph)
}

#[test]
fn an_unsafe_locator_path_is_named_with_what_is_wrong_with_it() {
    // A hand-written path was reported as the source_ref's "Unsafe source path", at the
    // module's registry line, without the path (author walk, stop 49).
    for (path, says) in [
        ("../src/main.go", "has a `..` segment"),
        ("/etc/passwd", "is absolute"),
        ("./src/main.go", "has a `.` segment"),
        ("src//main.go", "has an empty segment"),
        ("", "is empty"),
    ] {
        let d = diagnostics_with("valid", "knowledge/structure.yaml", |text| {
            text.replace("{path: src/main.go,", &format!("{{path: {path:?},"))
        });
        let codes: Vec<_> = d.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["LOCATOR_INVALID"], "{path:?}: {d:?}");
        assert!(
            d[0].message.contains(&format!("{path:?} {says}")),
            "{path:?}: {}",
            d[0].message
        );
    }
}

#[test]
fn a_section_id_yaml_reads_as_no_string_is_suggested_quoted() {
    // Author walk s54: for `id: 2024` the fix offered was `- id: 2024`, the line that fails.
    for (id, written) in [
        ("2024", "\"2024\""),
        ("true", "\"true\""),
        ("null", "\"null\""),
        ("1e3", "\"1e3\""),
        // Not near `setup`, which the structure lists (a near one is its twin: below).
        ("install-2", "install-2"),
    ] {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("ws");
        copy_dir(&fixture("valid"), &root);
        let page = root.join("knowledge/faq/guide.md");
        let text = std::fs::read_to_string(&page).unwrap();
        std::fs::write(&page, text.replace("id=\"setup\"", &format!("id=\"{id}\""))).unwrap();
        let d = diagnostics_of(&build_at(&root, false).graph);
        let m = d
            .iter()
            .find(|d| d.code == "SECTION_NOT_IN_STRUCTURE")
            .unwrap_or_else(|| panic!("{id}: {d:?}"));
        assert!(
            m.message.ends_with(&format!(
                ": add `- id: {written}` to the `sections` of its article's entry (line 3)"
            )),
            "{id}: {}",
            m.message
        );
    }
}

#[test]
fn a_marker_id_typo_is_one_mistake_seen_from_both_sides() {
    // Adoption walk, stop 59: a marker's id with a typo gave two errors whose fixes both
    // copied the typo ("add `- id: precisdelta`", "did you mean `precisdelta`").
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("ws");
    copy_dir(&fixture("valid"), &root);
    let page = root.join("knowledge/faq/guide.md");
    let text = std::fs::read_to_string(&page).unwrap();
    std::fs::write(&page, text.replace("id=\"setup\"", "id=\"setpu\"")).unwrap();
    let d = diagnostics_of(&build_at(&root, false).graph);
    let message = |code: &str| {
        d.iter()
            .find(|x| x.code == code)
            .map(|x| x.message.clone())
            .unwrap_or_else(|| panic!("{code}: {d:?}"))
    };
    assert!(
        message("SECTION_NOT_IN_STRUCTURE").ends_with(
            "`setpu` is not in knowledge/structure.yaml, which lists `setup` (line 16) with no marker on this page: rename this marker or that entry so the two match"
        ),
        "{d:?}"
    );
    assert!(
        message("SECTION_MISSING_MARKER").ends_with(
            "did you mean `setpu`, a marker of the page the structure does not list? Rename this entry or that marker so the two match"
        ),
        "{d:?}"
    );
}

#[test]
fn a_reference_without_source_ref_says_so() {
    let d = diagnostics_with("valid", "knowledge/structure.yaml", |text| {
        text.replacen(
            "          - source_ref: repo:acme/server\n            locator: {path: src/main.go",
            "          - locator: {path: src/main.go",
            1,
        )
    });
    let m: Vec<_> = d.iter().filter(|d| d.code == "SOURCE_UNRESOLVED").collect();
    assert_eq!(m.len(), 1, "{d:?}");
    assert_eq!(
        m[0].message,
        "Invalid source_ref: the reference has no `source_ref` (a reference needs `source_ref`, `locator` and `content_digest`)"
    );
    let d = diagnostics_with("valid", "knowledge/structure.yaml", |text| {
        text.replacen(
            "source_ref: repo:acme/server\n            locator: {path: src/main.go",
            "source_ref: 12\n            locator: {path: src/main.go",
            1,
        )
    });
    let m: Vec<_> = d.iter().filter(|d| d.code == "SOURCE_UNRESOLVED").collect();
    assert_eq!(m.len(), 1, "{d:?}");
    assert!(
        m[0].message
            .starts_with("Invalid source_ref: `12` is not a string"),
        "{}",
        m[0].message
    );
}

#[test]
fn merge_keys_keep_their_keys_in_the_graph() {
    // Author walk s54: `<<: *common` silently dropped `collection` and `visibility`.
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("ws");
    copy_dir(&fixture("valid"), &root);
    let path = root.join("knowledge/structure.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text
        .replacen(
            "    collection: faq\n    visibility: public\n",
            "    <<: &common {collection: faq, visibility: public}\n",
            1,
        )
        .replacen(
            "    collection: api\n    visibility: public\n",
            "    <<: *common\n    collection: api\n",
            1,
        );
    std::fs::write(&path, text).unwrap();
    let g = build_at(&root, false).graph;
    assert_eq!(diags(&g), Vec::<String>::new());
    let meta = |id: &str| {
        let n = g.node(id).unwrap();
        (
            n.metadata.get("collection").cloned(),
            n.metadata.get("visibility").cloned(),
        )
    };
    assert_eq!(
        meta("article:faq/guide.md"),
        (Some("faq".into()), Some("public".into()))
    );
    assert_eq!(
        meta("article:api/plugins.md"),
        (Some("api".into()), Some("public".into()))
    );
}

#[test]
fn a_ref_yaml_reads_as_a_number_is_named_at_its_line() {
    // "Missing source ref" at the module's line sent an author looking for a ref that was
    // written, unquoted (author walk, stop 49).
    let d = diagnostics_with("valid", "sources/repo/index.yaml", |text| {
        text.replace(
            "ref: 0123456789abcdef0123456789abcdef01234567",
            "ref: 1234567",
        )
    });
    let m = d
        .iter()
        .find(|d| d.message.starts_with("Missing source ref"))
        .expect("a reference through the module");
    // (Listed once for the module's references: "…; the same for N more reference(s)".)
    assert!(
        m.message.contains(
            "the `ref` at sources/repo/index.yaml:6 is read as a number, not a commit: quote it (`ref: \"…\"`)"
        ),
        "{}",
        m.message
    );
}

#[test]
fn a_structure_without_articles_is_one_error_not_a_warning_per_page() {
    for text in ["", "# to do\n"] {
        let d = diagnostics_with("valid", "knowledge/structure.yaml", |_| text.to_string());
        let codes: Vec<_> = d.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["ARTICLES_MISSING", "SCHEMA_UNSUPPORTED"], "{d:?}");
        assert!(
            d[0].message.contains("it is empty, or only comments"),
            "{d:?}"
        );
    }
}

#[test]
fn a_repeated_reference_entry_gets_its_own_edge_and_findings_at_its_own_line() {
    // The builder resolves each distinct entry once; a repeat elsewhere must still get its
    // own CITES edge and diagnostics, while shared nodes keep the first citation's origin.
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("ws");
    copy_dir(&fixture("sources"), &root);
    let path = root.join("knowledge/structure.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let repeated: String = text
        .lines()
        .skip(7)
        .take(6)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&path, format!("{text}{repeated}")).unwrap(); // lines 25..30, under `docs`
    let g = build_at(&root, false).graph;
    // The graph's own diagnostics (the list folds the module's unpinned repeats into one).
    let d: Vec<String> = (ontoly_graph::graph::findings::every_diagnostic(&g).into_iter())
        .map(|d| format!("{} {}", d.code, d.location))
        .collect();
    for want in [
        "SOURCE_UNRESOLVED knowledge/structure.yaml:8",
        "SOURCE_UNPINNED knowledge/structure.yaml:11",
        "SOURCE_UNRESOLVED knowledge/structure.yaml:25",
        "SOURCE_UNPINNED knowledge/structure.yaml:28",
    ] {
        assert!(d.contains(&want.to_string()), "{want} missing from {d:?}");
    }
    let listed = diagnostics_of(&g);
    let unpinned: Vec<_> = listed
        .iter()
        .filter(|d| d.code == "SOURCE_UNPINNED")
        .collect();
    assert_eq!(unpinned.len(), 1, "{listed:?}");
    assert!(
        unpinned[0]
            .message
            .ends_with("; the same for 1 more reference(s), at lines 28"),
        "{}",
        unpinned[0].message
    );
    let range = "range:github.com/acme/branch@main:mod/b.go#L3-L4";
    let cites = g.in_edges(range, Some(EdgeKind::Cites));
    let lines: Vec<(&str, u64)> = cites
        .iter()
        .map(|e| (e.from.as_str(), e.origin.as_ref().unwrap().line))
        .collect();
    assert_eq!(lines.len(), 2);
    assert!(lines.contains(&("section:s.md#refs", 11)));
    assert!(lines.contains(&("section:s.md#docs", 28)));
    assert_eq!(cites[0].metadata, cites[1].metadata);
    let in_file = g.out_edges(range, Some(EdgeKind::InFile));
    assert_eq!(in_file.len(), 1);
    assert_eq!(in_file[0].origin.as_ref().unwrap().line, 11);
}

#[test]
fn a_page_that_is_not_utf8_is_a_diagnostic() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("ws");
    copy_dir(&fixture("schema"), &root);
    std::fs::write(root.join("knowledge/a.md"), b"\xff\xfe<!-- x -->\n").unwrap();
    let g = build_at(&root, false).graph;
    assert!(diags(&g).contains(&"PAGE_NOT_UTF8 knowledge/a.md:1".to_string()));
}

#[test]
fn a_structure_that_is_not_utf8_names_the_line_of_its_first_bad_byte() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("ws");
    copy_dir(&fixture("valid"), &root);
    let path = root.join("knowledge/structure.yaml");
    let mut lines: Vec<Vec<u8>> = std::fs::read(&path)
        .unwrap()
        .split(|b| *b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    assert!(lines.len() > 4, "the fixture's structure has a few lines");
    lines[3].extend_from_slice(b" \xe9t\xe9");
    std::fs::write(&path, lines.join(&b'\n')).unwrap();
    let g = build_at(&root, false).graph;
    assert_eq!(
        diags(&g),
        vec!["STRUCTURE_UNREADABLE knowledge/structure.yaml:4".to_string()]
    );
    let d = diagnostics_of(&g);
    // The line as it was, then a space: the first é is the byte after them.
    let col = lines[3].len() - 4 + 2;
    assert_eq!(
        d[0].message,
        format!("File is not UTF-8: the first byte that is not (0xe9) is at line 4, byte {col} of the line")
    );
}

#[test]
fn hash_is_independent_of_thread_count() {
    let hashes: Vec<String> = [1, 2, 8]
        .iter()
        .map(|&n| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap();
            pool.install(|| graph_of("valid").hash)
        })
        .collect();
    assert_eq!(hashes[0], hashes[1]);
    assert_eq!(hashes[0], hashes[2]);
    let mismatch: Vec<String> = [1, 8]
        .iter()
        .map(|&n| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap();
            pool.install(|| graph_of("mismatch").hash)
        })
        .collect();
    assert_eq!(mismatch[0], mismatch[1]);
    assert_ne!(hashes[0], mismatch[0]);
}

#[test]
fn hash_is_independent_of_the_absolute_path_and_the_folder_name() {
    let t = tempfile::tempdir().unwrap();
    // Two copies of one workspace, in folders of different names: a directory's name is where
    // the workspace sits, not what it holds.
    let a = t.path().join("one/valid");
    let b = t.path().join("two/deeper/renamed-copy");
    copy_dir(&fixture("valid"), &a);
    copy_dir(&fixture("valid"), &b);
    let ga = build_at(&a, false).graph;
    let gb = build_at(&b, false).graph;
    assert_eq!(ga.hash, gb.hash);
    assert_eq!(ga.hash, graph_of("valid").hash);
    let json = serde_json::to_string(&ga).unwrap();
    assert!(!json.contains(t.path().to_str().unwrap()));
}

#[test]
fn warm_run_loads_and_one_page_change_reparses_that_page_only() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("valid");
    copy_dir(&fixture("valid"), &root);
    let cold = build_at(&root, true);
    assert_eq!(cold.report.cache, CacheStatus::Miss);
    assert_eq!(cold.report.pages_parsed, 2);
    assert!(root.join(".ontoly/graph.map").is_file());

    let warm = build_at(&root, true);
    assert_eq!(warm.report.cache, CacheStatus::Hit);
    assert_eq!(warm.report.pages_parsed, 0);
    assert_eq!(warm.graph.hash, cold.graph.hash);
    assert!(
        warm.graph.as_mapped().is_some(),
        "a warm run opens the snapshot in place"
    );
    assert!(warm.graph.nodes().eq(cold.graph.nodes()));
    assert!(warm.graph.edges().eq(cold.graph.edges()));
    assert!(warm.graph.texts().eq(cold.graph.texts()));
    assert_eq!(warm.graph.compute_hash(), cold.graph.hash);
    assert!(warm.graph.node("section:faq/guide.md#answer").is_some());

    let page = root.join("knowledge/api/plugins.md");
    let text = std::fs::read_to_string(&page).unwrap();
    std::fs::write(&page, text.replace("## Overview", "## Plugin overview")).unwrap();
    let changed = build_at(&root, true);
    assert_eq!(changed.report.cache, CacheStatus::Partial);
    assert_eq!(changed.report.pages_parsed, 1);
    assert_eq!(changed.report.pages_reused, 1);
    assert!(!changed.report.structure_parsed);
    assert_ne!(changed.graph.hash, cold.graph.hash);
    assert_eq!(
        changed
            .graph
            .node("section:api/plugins.md#overview")
            .unwrap()
            .name,
        "Plugin overview"
    );
    // The incremental result equals a from-scratch build.
    assert_eq!(changed.graph.hash, build_at(&root, false).graph.hash);

    // --no-cache rebuilds everything and neither reads nor needs the cache.
    let forced = build_at(&root, false);
    assert_eq!(forced.report.cache, CacheStatus::Disabled);
    assert_eq!(forced.report.pages_parsed, 2);
}

#[test]
fn interrupted_or_corrupt_cache_writes_are_never_loaded() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("valid");
    copy_dir(&fixture("valid"), &root);
    let cold = build_at(&root, true);
    let graph_bin = root.join(".ontoly/graph.map");
    let full = std::fs::read(&graph_bin).unwrap();

    // A build killed while writing leaves a temporary file beside the real one: ignored.
    std::fs::write(
        root.join(".ontoly/.graph.map.tmp-999999"),
        &full[..full.len() / 2],
    )
    .unwrap();
    assert_eq!(build_at(&root, true).report.cache, CacheStatus::Hit);

    // A truncated cache file (e.g. a copy cut short) fails its length check: rebuilt.
    std::fs::write(&graph_bin, &full[..full.len() - 7]).unwrap();
    std::fs::write(root.join(".ontoly/parse.bin"), b"ONTOLYS1garbage").unwrap();
    let r = build_at(&root, true);
    assert_eq!(r.report.cache, CacheStatus::Miss);
    assert!(r.report.cache_note.is_some());
    assert_eq!(r.graph.hash, cold.graph.hash);

    // A flipped byte fails the checksum: rebuilt, same graph.
    let mut bad = full.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x55;
    std::fs::write(&graph_bin, &bad).unwrap();
    let r = build_at(&root, true);
    assert_ne!(r.report.cache, CacheStatus::Hit);
    assert_eq!(r.graph.hash, cold.graph.hash);
    // ... and the rebuild rewrote a good cache.
    assert_eq!(build_at(&root, true).report.cache, CacheStatus::Hit);
}

#[test]
fn artifacts_are_tied_to_the_graph_hash() {
    use ontoly_graph::graph::snapshot::{read_artifact, write_artifact};
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("valid");
    copy_dir(&fixture("valid"), &root);
    let g = build_at(&root, true).graph;
    write_artifact(&root, &g.hash, "search-index", b"idx").unwrap();
    assert_eq!(
        read_artifact(&root, &g.hash, "search-index").as_deref(),
        Some(&b"idx"[..])
    );
    assert_eq!(read_artifact(&root, "other-hash", "search-index"), None);
    assert!(write_artifact(&root, &g.hash, "../escape", b"x").is_err());
    assert!(root.join(".ontoly/artifacts/search-index.map").is_file());
}

/// A missing page says where it most likely is: a path written with `knowledge/` in front, or
/// the page that marks the entry's sections (renamed or moved), which otherwise stood beside
/// it as ARTICLE_NOT_IN_STRUCTURE, unlinked (newcomer's walk, stop 43).
#[test]
fn a_missing_page_says_where_it_most_likely_is() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    std::fs::create_dir_all(root.join("knowledge/ref")).unwrap();
    let marked = |ids: &[&str]| -> String {
        ids.iter()
            .map(|id| {
                format!("<!-- context:section id=\"{id}\" -->\nx\n<!-- /context:section -->\n")
            })
            .collect()
    };
    std::fs::write(root.join("knowledge/ref/a.md"), marked(&["one"])).unwrap();
    std::fs::write(
        root.join("knowledge/ref/locale.md"),
        marked(&["s1", "s2", "s3"]),
    )
    .unwrap();
    let entry = |path: &str, ids: &[&str]| -> String {
        let mut e = format!(
            "  - article_id: {}\n    path: {path}\n    sections:\n",
            path.replace(['/', '.'], "-")
        );
        for id in ids {
            e.push_str(&format!("      - id: {id}\n        references: []\n"));
        }
        e
    };
    let structure = format!(
        "schema_version: context.approved-structure.v1\narticles:\n{}{}{}",
        entry("knowledge/ref/a.md", &["one"]),
        entry("ref/i18n.md", &["s1", "s2", "s3"]),
        entry("ref/gone.md", &["elsewhere"]),
    );
    std::fs::write(root.join("knowledge/structure.yaml"), structure).unwrap();
    let g = build_at(root, false).graph;
    let missing: Vec<String> = diagnostics_of(&g)
        .into_iter()
        .filter(|d| d.code == "ARTICLE_PAGE_MISSING")
        .map(|d| d.message)
        .collect();
    assert_eq!(
        missing,
        [
            "Article page is missing: knowledge/knowledge/ref/a.md (a structure path is relative to knowledge/: write `ref/a.md`)",
            "Article page is missing: knowledge/ref/i18n.md (knowledge/ref/locale.md marks 3 of its 3 sections: if the page was renamed or moved, write `ref/locale.md` as its path)",
            "Article page is missing: knowledge/ref/gone.md",
        ]
    );
}

/// An article path that is no path of a page under knowledge/ says what is wrong with it, and a
/// page another entry lists is never the suggestion (author walk, stop 54: `../docs/tasklist.md`
/// was "missing: knowledge/../docs/tasklist.md (knowledge/extensions/progressbar.md marks 3 of
/// its 3 sections …)", a page already listed that merely shares generic ids).
#[test]
fn an_article_path_outside_knowledge_says_so_and_never_suggests_a_listed_page() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    std::fs::create_dir_all(root.join("knowledge/ext")).unwrap();
    std::fs::create_dir_all(root.join("docs")).unwrap();
    let marked = |ids: &[&str]| -> String {
        ids.iter()
            .map(|id| {
                format!("<!-- context:section id=\"{id}\" -->\nx\n<!-- /context:section -->\n")
            })
            .collect()
    };
    let generic = ["overview", "options", "styling"];
    std::fs::write(root.join("knowledge/ext/progress.md"), marked(&generic)).unwrap();
    std::fs::write(root.join("knowledge/ext/free.md"), marked(&["only-here"])).unwrap();
    std::fs::write(root.join("docs/tasks.md"), marked(&generic)).unwrap();
    let entry = |path: &str, ids: &[&str]| -> String {
        let mut e = format!("  - path: '{path}'\n    sections:\n");
        for id in ids {
            e.push_str(&format!("      - id: {id}\n        references: []\n"));
        }
        e
    };
    let structure = format!(
        "schema_version: context.approved-structure.v1\narticles:\n{}{}{}{}{}{}{}",
        entry("ext/progress.md", &generic),
        entry("../docs/tasks.md", &generic),
        entry("ext/../../docs/tasks.md", &["only-here"]),
        entry("/home/me/kb/knowledge/ext/free.md", &[]),
        entry("ext\\free.md", &[]),
        entry("./ext/free.md", &[]),
        entry("ext//gone.md", &[]),
    );
    std::fs::write(root.join("knowledge/structure.yaml"), structure).unwrap();
    let g = build_at(root, false).graph;
    let missing: Vec<String> = diagnostics_of(&g)
        .into_iter()
        .filter(|d| d.code == "ARTICLE_PAGE_MISSING")
        .map(|d| format!("{} {}", d.location, d.message))
        .collect();
    assert_eq!(
        missing,
        [
            "knowledge/structure.yaml:11 Article path `../docs/tasks.md` leaves knowledge/: a structure path is relative to knowledge/ and stays inside it (ontoly reads pages only under knowledge/: move the page there)",
            "knowledge/structure.yaml:19 Article path `ext/../../docs/tasks.md` leaves knowledge/: a structure path is relative to knowledge/ and stays inside it (knowledge/ext/free.md marks 1 of its 1 sections: if the page was renamed or moved, write `ext/free.md` as its path)",
            "knowledge/structure.yaml:23 Article path `/home/me/kb/knowledge/ext/free.md` is absolute: a structure path is relative to knowledge/ and stays inside it: write `ext/free.md`",
            "knowledge/structure.yaml:25 Article page is missing: knowledge/ext\\free.md: the path separates directories with `\\`: a structure path separates them with `/` (write `ext/free.md`)",
            "knowledge/structure.yaml:27 Article page is missing: knowledge/./ext/free.md: the path has a `.` segment (write `ext/free.md`)",
            "knowledge/structure.yaml:29 Article page is missing: knowledge/ext//gone.md: the path has an empty segment (`//`, or a `/` at its end)",
        ]
    );
}

#[test]
fn a_misspelled_key_is_named_by_the_diagnostic_about_the_key_it_meant() {
    let valid =
        std::fs::read_to_string(fixture("valid").join("knowledge/structure.yaml")).expect("reads");
    for (from, to, said) in [
        (
            "    sections:",
            "    section:",
            "knowledge/faq/guide.md:8 SECTION_NOT_IN_STRUCTURE Section registration is missing or ambiguous: `answer` is not in knowledge/structure.yaml: its article's entry (line 3) has no `sections`, and `section` at line 7 is not a key ontoly knows: did you mean `sections`?",
        ),
        (
            "          - source_ref: repo:acme/server",
            "          - source-ref: repo:acme/server",
            "knowledge/structure.yaml:10 SOURCE_UNRESOLVED Invalid source_ref: the reference has no `source_ref`: `source-ref` at line 10 is not a key ontoly knows: did you mean `source_ref`?",
        ),
        (
            "        references:",
            "        referneces:",
            "knowledge/structure.yaml:8 ENTRY_INCOMPLETE Missing section references: `answer` has no `references` list: `referneces` at line 9 is not a key ontoly knows: did you mean `references`?",
        ),
        (
            "            content_digest:",
            "            content_digets:",
            "knowledge/structure.yaml:10 DIGEST_MISSING Missing source content_digest: `content_digets` at line 12 is not a key ontoly knows: did you mean `content_digest`?",
        ),
    ] {
        let t = tempfile::tempdir().expect("tempdir");
        copy_dir(&fixture("valid"), t.path());
        std::fs::write(
            t.path().join("knowledge/structure.yaml"),
            valid.replacen(from, to, 1),
        )
        .expect("writes");
        let found: Vec<String> = diagnostics_of(&build_at(t.path(), false).graph)
            .into_iter()
            .map(|d| format!("{} {} {}", d.location, d.code, d.message))
            .collect();
        assert!(found.iter().any(|d| d == said), "{to}: {found:#?}");
    }
}
