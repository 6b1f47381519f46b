//! The sources stage inside the graph build: statuses on CITES edges, diagnostics naming the
//! article, section and reference, Symbol nodes with OVERLAPS edges, determinism.

mod support;

use ontoly_graph::formats::layout::Workspace;
use ontoly_graph::formats::text::range_digest;
use ontoly_graph::graph::model::{EdgeKind, NodeKind};
use ontoly_graph::graph::Graph;
use ontoly_graph::sources::clones::CloneMap;
use ontoly_graph::sources::verify::VerifyStage;
use ontoly_graph::{CachePolicy, Session, SessionOptions};
use std::collections::BTreeMap;

/// A workspace (the root of its own git repository) with one reference per status.
fn status_workspace() -> (tempfile::TempDir, std::path::PathBuf, support::ServerRepo) {
    let tmp = tempfile::tempdir().unwrap();
    let srv = support::server_repo(&tmp.path().join("server"));
    let ws = tmp.path().join("ws");
    std::fs::create_dir_all(ws.join("knowledge/k")).unwrap();
    std::fs::create_dir_all(ws.join("sources/repo")).unwrap();
    let lib = support::show(&srv.path, &srv.c1, "src/lib.rs");
    let d = |a, b| range_digest(&lib, a, b).unwrap();
    let own = "# Own\n\nline three\nline four\n";
    std::fs::write(ws.join("own.md"), own).unwrap();
    let own_digest = range_digest(own, 3, 4).unwrap();
    let sections = [
        (
            "verified",
            "repo:acme/server",
            "src/lib.rs",
            13,
            18,
            d(13, 18),
        ),
        (
            "mismatch",
            "repo:acme/server",
            "src/lib.rs",
            13,
            18,
            d(13, 17),
        ),
        ("gone", "repo:acme/later", "app/main.py", 1, 2, d(1, 2)),
        ("past", "repo:acme/server", "README.md", 3, 9, d(1, 2)),
        ("ghost", "repo:acme/ghost", "src/lib.rs", 1, 2, d(1, 2)),
        ("floating", "repo:acme/edge", "src/lib.rs", 1, 2, d(1, 2)),
        ("elsewhere", "repo:acme/other", "src/lib.rs", 1, 2, d(1, 2)),
        (
            "dirty",
            "repo-content:ws@HEAD+worktree",
            "own.md",
            3,
            4,
            own_digest.clone(),
        ),
        (
            "own",
            "repo-content:ws@HEAD",
            "own.md",
            3,
            4,
            own_digest.clone(),
        ),
        ("creds", "repo:acme/secret", "src/lib.rs", 13, 18, d(13, 18)),
    ];
    // The workspace repository's first commit holds own.md; its id goes into the refs.
    support::git(&ws, &["init", "-q", "-b", "main"]);
    support::git(&ws, &["add", "own.md"]);
    support::git(&ws, &["commit", "-q", "-m", "own"]);
    let head = support::git(&ws, &["rev-parse", "HEAD"]);
    let mut page = String::from("# Page\n");
    let mut structure = String::from("schema_version: context.approved-structure.v1\narticles:\n  - article_id: page\n    path: k/page.md\n    collection: k\n    visibility: public\n    sections:\n");
    for (id, sref, path, a, b, digest) in &sections {
        page.push_str(&format!(
            "<!-- context:section id=\"{id}\" -->\n{id}\n<!-- /context:section -->\n"
        ));
        let sref = sref.replace("HEAD", &head);
        structure.push_str(&format!("      - id: {id}\n        references:\n          - source_ref: {sref}\n            locator: {{path: {path}, start_line: {a}, end_line: {b}}}\n            content_digest: {digest}\n"));
    }
    std::fs::write(ws.join("knowledge/k/page.md"), page).unwrap();
    std::fs::write(ws.join("knowledge/structure.yaml"), structure).unwrap();
    std::fs::write(
        ws.join("sources/repo/index.yaml"),
        format!(
            "sources:\n  - name: acme\n    modules:\n      - name: server\n        git: {{remote: \"https://github.com/acme/server.git\", ref: {c1}}}\n      - name: secret\n        git: {{remote: \"https://bot:{s}@github.com/acme/server.git\", ref: {c1}}}\n      - name: later\n        git: {{remote: \"https://github.com/acme/server\", ref: {c2}}}\n      - name: ghost\n        git: {{remote: \"https://github.com/acme/server\", ref: {ghost}}}\n      - name: edge\n        git: {{remote: \"https://github.com/acme/server\", ref: main}}\n      - name: other\n        git: {{remote: \"https://github.com/acme/other\", ref: {c1}}}\n",
            s = support::SECRET,
            c1 = srv.c1,
            c2 = srv.c2,
            ghost = "ab".repeat(20)
        ),
    )
    .unwrap();
    std::fs::write(
        ws.join("ontoly.toml"),
        "[sources]\n\"github.com/acme/server\" = \"../server\"\n",
    )
    .unwrap();
    (tmp, ws, srv)
}

fn build_with_clones(ws: &std::path::Path, threads: usize) -> Graph {
    let opts = SessionOptions::new(ws)
        .workspace(ws)
        .cache(CachePolicy::Off);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| {
            Session::open(opts)
                .and_then(Session::into_build)
                .unwrap()
                .graph
        })
}

fn statuses(g: &Graph) -> BTreeMap<String, String> {
    g.edges()
        .filter(|e| e.kind == EdgeKind::Cites)
        .map(|e| {
            (
                e.from.rsplit('#').next().unwrap().to_string(),
                e.metadata.get("status").cloned().unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn every_status_lands_on_its_cites_edge() {
    let (_tmp, ws, _srv) = status_workspace();
    let g = build_with_clones(&ws, 2);
    let got = statuses(&g);
    let want: BTreeMap<String, String> = [
        ("verified", "verified"),
        ("mismatch", "digest_mismatch"),
        ("gone", "file_missing"),
        ("past", "range_out_of_bounds"),
        ("ghost", "commit_missing"),
        ("floating", "unpinned"),
        ("elsewhere", "no_clone"),
        ("dirty", "worktree"),
        ("own", "verified"),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(got, want);
    // Diagnostics for the four wrong-evidence statuses, naming article, section and reference.
    let diags = ontoly_graph::graph::findings::diagnostics_of(&g);
    let mut codes: Vec<&str> = diags
        .iter()
        .map(|d| d.code.as_str())
        .filter(|c| c.starts_with("REFERENCE_"))
        .collect();
    codes.sort();
    assert_eq!(
        codes,
        [
            "REFERENCE_COMMIT_MISSING",
            "REFERENCE_DIGEST_MISMATCH",
            "REFERENCE_FILE_MISSING",
            "REFERENCE_RANGE_OUT_OF_BOUNDS"
        ]
    );
    let mismatch = diags
        .iter()
        .find(|d| d.code == "REFERENCE_DIGEST_MISMATCH")
        .unwrap();
    assert!(
        mismatch.location.starts_with("knowledge/structure.yaml:"),
        "{}",
        mismatch.location
    );
    assert!(mismatch.message.contains("article `k/page.md`, section `mismatch`, reference `repo:acme/server` src/lib.rs#L13-L18"), "{}", mismatch.message);
    // Its recorded digest is that of lines 13-17: the range is named, not a command that
    // would re-record the digest of lines the page was not written from.
    assert!(
        mismatch.message.contains("The recorded digest is that of lines 13-17: if the page was written from those, the range is mistyped (write start_line 13, end_line 17)")
            && !mismatch.message.contains("ontoly digest"),
        "{}",
        mismatch.message
    );
    assert_eq!(
        mismatch.severity,
        ontoly_graph::diagnostics::Severity::Error
    );
    // No credential anywhere in the graph.
    let json = serde_json::to_string(&g).unwrap();
    assert!(!json.contains(support::SECRET));
}

#[test]
fn symbols_and_overlaps_from_cited_ranges() {
    let (_tmp, ws, srv) = status_workspace();
    let g = build_with_clones(&ws, 2);
    let verified_range = g
        .edges()
        .find(|e| e.kind == EdgeKind::Cites && e.from.ends_with("#verified"))
        .unwrap()
        .to
        .clone();
    let mut names: Vec<(String, String)> = g
        .out_edges(&verified_range, Some(EdgeKind::Overlaps))
        .iter()
        .map(|e| {
            let n = g.node(&e.to).unwrap();
            (n.name.clone(), n.metadata["kind"].clone())
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ("Searcher::search_slice".to_string(), "method".to_string()),
            (
                "Searcher::search_slice::helper".to_string(),
                "function".to_string()
            )
        ]
    );
    let sym = g
        .nodes_of(NodeKind::Symbol)
        .find(|n| n.name == "Searcher::search_slice")
        .unwrap();
    assert_eq!(
        sym.span.as_ref().map(|s| (s.start_line, s.end_line)),
        Some((13, 18))
    );
    assert_eq!(sym.metadata["commit"], srv.c1);
    // Out-of-bounds and missing files give no symbols; every symbol is reached by OVERLAPS.
    for s in g.nodes_of(NodeKind::Symbol) {
        assert!(!g.in_edges(&s.id, Some(EdgeKind::Overlaps)).is_empty());
    }
}

#[test]
fn the_stage_is_deterministic_across_threads() {
    let (_tmp, ws, _srv) = status_workspace();
    assert_eq!(
        build_with_clones(&ws, 1).hash,
        build_with_clones(&ws, 4).hash
    );
}

#[test]
fn demo_workspace_is_verified_with_symbols() {
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/demo");
    if !demo.join("ontoly.toml").exists() {
        panic!("testdata/demo is part of the repository");
    }
    let g = build_with_clones(&demo, 2);
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for e in g.edges().filter(|e| e.kind == EdgeKind::Cites) {
        *count.entry(e.metadata["status"].clone()).or_default() += 1;
    }
    // The demo is clean: every repository reference verified (one note reference is never
    // verified); the broken cases are in `every_status_lands_on_its_cites_edge`.
    assert_eq!(count.get("digest_mismatch"), None, "{count:?}");
    assert_eq!(count.get("unpinned"), None, "{count:?}");
    assert_eq!(count.get("verified").copied(), Some(78), "{count:?}");
    let kinds: std::collections::BTreeSet<String> = g
        .nodes_of(NodeKind::Symbol)
        .map(|n| n.metadata["kind"].clone())
        .collect();
    // No demo range stands for an impl: its ranges over a method and the doc comment above it
    // are the method's (the impl kind is in tests/symbols.rs).
    for k in ["function", "method", "class", "struct"] {
        assert!(kinds.contains(k), "{k} in {kinds:?}");
    }
}

#[test]
fn cache_salt_follows_the_clones_refs() {
    use ontoly_graph::graph::build::SourceStage;
    let (_tmp, ws, srv) = status_workspace();
    let w = Workspace::at(ws.clone());
    let inputs = ontoly_graph::graph::build::inputs::read_inputs(&w).unwrap();
    let stage = VerifyStage::new(CloneMap::load(&ws, &[]).unwrap(), None);
    let a = stage.cache_salt(inputs.repo_content());
    assert_eq!(
        a,
        stage.cache_salt(inputs.repo_content()),
        "stable while nothing changes"
    );
    // A fetch (here: a new ref) may bring a missing commit: the cached graph must not be reused.
    support::git(&srv.path, &["branch", "fetched", &srv.c1]);
    let b = stage.cache_salt(inputs.repo_content());
    assert_ne!(a, b);
    // So may one that moves no ref (`git fetch origin <sha>`): a new object, then the same
    // objects packed.
    let mut add = std::process::Command::new("git");
    add.args(["hash-object", "-w", "--stdin"])
        .current_dir(&srv.path)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null());
    let mut child = add.spawn().unwrap();
    std::io::Write::write_all(
        &mut child.stdin.take().unwrap(),
        b"an object no ref names\n",
    )
    .unwrap();
    assert!(child.wait().unwrap().success());
    let c = stage.cache_salt(inputs.repo_content());
    assert_ne!(b, c, "a loose object");
    support::git(&srv.path, &["repack", "-q", "-a", "-d"]);
    assert_ne!(c, stage.cache_salt(inputs.repo_content()), "packed");
    // Another mapping is another salt.
    let other = VerifyStage::new(
        CloneMap::load(&ws, &[("acme/x".into(), "../server".into())]).unwrap(),
        None,
    );
    assert_ne!(
        stage.cache_salt(inputs.repo_content()),
        other.cache_salt(inputs.repo_content())
    );
}

#[test]
fn the_cache_follows_the_clones_objects_when_no_ref_moves() {
    // A clone that reads its objects through an alternate (`git clone --shared`): while the
    // alternate is there the reference verifies; once it is moved away, a cached graph must
    // not keep saying so, and when it is back the answer is the first one again.
    let (tmp, ws, srv) = status_workspace();
    let shared = tmp.path().join("shared.git");
    let from = srv.path.to_str().expect("utf-8 path");
    let to = shared.to_str().expect("utf-8 path");
    support::git(tmp.path(), &["clone", "-q", "--bare", "--shared", from, to]);
    std::fs::write(
        ws.join("ontoly.toml"),
        "[sources]\n\"github.com/acme/server\" = \"../shared.git\"\n",
    )
    .unwrap();
    let cached = || {
        let opts = SessionOptions::new(&ws)
            .workspace(&ws)
            .cache(CachePolicy::ReadWrite);
        statuses(
            &Session::open(opts)
                .and_then(Session::into_build)
                .unwrap()
                .graph,
        )["verified"]
            .clone()
    };
    assert_eq!(cached(), "verified");
    assert_eq!(cached(), "verified", "from the cache");
    let away = tmp.path().join("server-moved");
    std::fs::rename(&srv.path, &away).unwrap();
    assert_eq!(cached(), "commit_missing");
    std::fs::rename(&away, &srv.path).unwrap();
    assert_eq!(cached(), "verified");
}

#[test]
fn a_repeated_entry_is_verified_once_and_reported_at_each_citation() {
    // The sources stage verifies the citations of one reference entry once (they share their
    // target); each citation must still get its own status and its own finding.
    let (_tmp, ws, _srv) = status_workspace();
    let structure = ws.join("knowledge/structure.yaml");
    let text = std::fs::read_to_string(&structure).unwrap();
    let again = |id: &str| {
        let start = text.find(&format!("      - id: {id}\n")).unwrap();
        let end = text[start + 1..]
            .find("      - id: ")
            .map_or(text.len(), |e| start + 1 + e);
        text[start..end].replacen(&format!("id: {id}"), &format!("id: {id}-again"), 1)
    };
    let more = again("mismatch") + &again("ghost");
    std::fs::write(&structure, format!("{text}{more}")).unwrap();
    let page = ws.join("knowledge/k/page.md");
    let mut body = std::fs::read_to_string(&page).unwrap();
    for id in ["mismatch-again", "ghost-again"] {
        body.push_str(&format!(
            "<!-- context:section id=\"{id}\" -->\n{id}\n<!-- /context:section -->\n"
        ));
    }
    std::fs::write(&page, body).unwrap();
    let g = build_with_clones(&ws, 2);
    let got = statuses(&g);
    assert_eq!(got["mismatch-again"], "digest_mismatch");
    assert_eq!(got["ghost-again"], "commit_missing");
    assert_eq!(got["verified"], "verified");
    let diags = ontoly_graph::graph::findings::every_diagnostic(&g);
    let messages: Vec<String> = diags
        .iter()
        .map(|d| format!("{} {} {}", d.code, d.location, d.message))
        .collect();
    for (code, section) in [
        ("REFERENCE_DIGEST_MISMATCH", "mismatch"),
        ("REFERENCE_DIGEST_MISMATCH", "mismatch-again"),
        ("REFERENCE_COMMIT_MISSING", "ghost"),
        ("REFERENCE_COMMIT_MISSING", "ghost-again"),
    ] {
        let of: Vec<_> = diags
            .iter()
            .filter(|d| d.code == code && d.message.contains(&format!("section `{section}`,")))
            .collect();
        assert_eq!(of.len(), 1, "{code} {section}: {messages:#?}");
        assert!(of[0].message.contains("src/lib.rs#L"), "{}", of[0].message);
    }
    let at: std::collections::BTreeSet<&str> = diags
        .iter()
        .filter(|d| d.code == "REFERENCE_DIGEST_MISMATCH")
        .map(|d| d.location.as_str())
        .collect();
    assert_eq!(at.len(), 2, "each finding at its own line: {messages:#?}");
}

/// A repository whose `a.py` gains three lines at its top between c1 and c2, and a workspace
/// of four sections whose references were recorded at c1, with the module pinned at `pin`
/// (a function of c1 and c2).
fn pinned_workspace(
    pin: impl Fn(&str, &str) -> String,
) -> (tempfile::TempDir, std::path::PathBuf, String, String) {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("lib");
    std::fs::create_dir_all(&repo).unwrap();
    let body: String = (1..=30)
        .map(|i| format!("def f{i}():\n    return {i}\n"))
        .collect();
    let (c1, c2) = support::two_commits(
        &repo,
        "a.py",
        &body,
        &format!("import os\nimport sys\n\n{body}"),
    );
    let ws = tmp.path().join("ws");
    std::fs::create_dir_all(ws.join("knowledge")).unwrap();
    std::fs::create_dir_all(ws.join("sources/repo")).unwrap();
    let mut page = String::from("# Page\n");
    let mut structure = String::from("schema_version: context.approved-structure.v1\narticles:\n  - article_id: page\n    path: page.md\n    sections:\n");
    for (k, (a, b)) in [(1, 4), (9, 12), (21, 26), (41, 44)]
        .into_iter()
        .enumerate()
    {
        let digest = range_digest(&body, a, b).unwrap();
        page.push_str(&format!(
            "<!-- context:section id=\"s{k}\" -->\nf\n<!-- /context:section -->\n"
        ));
        structure.push_str(&format!("      - id: s{k}\n        references:\n          - source_ref: repo:acme/lib\n            locator: {{path: a.py, start_line: {a}, end_line: {b}}}\n            content_digest: {digest}\n"));
    }
    std::fs::write(ws.join("knowledge/page.md"), page).unwrap();
    std::fs::write(ws.join("knowledge/structure.yaml"), structure).unwrap();
    std::fs::write(
        ws.join("sources/repo/index.yaml"),
        format!(
            "sources:\n  - name: acme\n    modules:\n      - name: lib\n        git:\n          remote: https://github.com/acme/lib\n          ref: \"{}\"\n",
            pin(&c1, &c2)
        ),
    )
    .unwrap();
    std::fs::write(
        ws.join("ontoly.toml"),
        "[sources]\n\"acme/lib\" = \"../lib\"\n",
    )
    .unwrap();
    (tmp, ws, c1, c2)
}

#[test]
fn a_module_pinned_past_its_pages_is_named_once_at_its_pin() {
    let codes = |g: &Graph| -> Vec<(String, String, String)> {
        ontoly_graph::graph::findings::diagnostics_of(g)
            .into_iter()
            .map(|d| (d.code, d.location, d.message))
            .collect()
    };
    // Pinned at c2, recorded at c1: every reference fails, and the pin says where they match.
    let (_tmp, ws, c1, c2) = pinned_workspace(|_, c2| c2.to_string());
    let found = codes(&build_with_clones(&ws, 2));
    let mismatches = found
        .iter()
        .filter(|d| d.0 == "REFERENCE_DIGEST_MISMATCH")
        .count();
    assert_eq!(mismatches, 4, "{found:#?}");
    let pin: Vec<_> = found
        .iter()
        .filter(|d| d.0 == "SOURCE_PIN_SUSPECT")
        .collect();
    assert_eq!(pin.len(), 1, "{found:#?}");
    assert_eq!(pin[0].1, "sources/repo/index.yaml:7");
    assert!(
        pin[0].2.contains(&format!("4 of the 4 references of `acme/lib` compared at its pinned commit {} fail there, and 4 of them match their recorded digests at {c1}", &c2[..12])),
        "{}",
        pin[0].2
    );
    // Pinned where the pages were written: nothing to say.
    let (_tmp, ws, _, _) = pinned_workspace(|c1, _| c1.to_string());
    let found = codes(&build_with_clones(&ws, 2));
    assert!(found.is_empty(), "{found:#?}");
    // Pinned to an abbreviated commit: the references are unpinned, and the pin gets the
    // full commit its clone resolves it to.
    let (_tmp, ws, c1, _) = pinned_workspace(|c1, _| c1[..10].to_string());
    let found = codes(&build_with_clones(&ws, 2));
    let at_pin: Vec<_> = found
        .iter()
        .filter(|d| d.1 == "sources/repo/index.yaml:7")
        .collect();
    assert_eq!(at_pin.len(), 1, "{found:#?}");
    assert_eq!(at_pin[0].0, "SOURCE_UNPINNED");
    assert!(
        at_pin[0]
            .2
            .contains(&format!("which its clone resolves to {c1}")),
        "{}",
        at_pin[0].2
    );
}

#[test]
fn a_ref_the_clone_cannot_resolve_is_an_error_at_the_pin() {
    // Author walk s54: a commit cut or doubled in copy-paste, or a mistyped branch, was one
    // "not pinned" warning per reference and a passing `validate`.
    let at_pin = |pin: &dyn Fn(&str, &str) -> String| {
        let (_tmp, ws, c1, c2) = pinned_workspace(pin);
        let found = ontoly_graph::graph::findings::diagnostics_of(&build_with_clones(&ws, 2));
        let pinned: Vec<_> = (found.iter())
            .filter(|d| d.location == "sources/repo/index.yaml:7")
            .map(|d| (d.code.clone(), d.message.clone()))
            .collect();
        let unpinned: Vec<_> = (found.iter())
            .filter(|d| d.code == "SOURCE_UNPINNED")
            .map(|d| (d.location.clone(), d.message.clone()))
            .collect();
        (pinned, unpinned, c1, c2)
    };
    // The last two digits cut to one and changed: no commit starts so.
    let mangled = |c: &str| {
        let last = if c.as_bytes()[37] == b'0' { "1" } else { "0" };
        format!("{}{last}", &c[..37])
    };
    let (pinned, unpinned, c1, _) = at_pin(&|c1, _| mangled(c1));
    assert_eq!(pinned.len(), 1, "{pinned:?}");
    assert_eq!(pinned[0].0, "SOURCE_COMMIT_MISSING");
    assert_eq!(
        pinned[0].1,
        format!(
            "module `acme/lib` is pinned to `{}`, which its clone does not resolve (38 hex digits: a full commit has 40, and no commit, branch or tag is named so), so none of its 4 reference(s) is verified; the clone has {c1}, which shares the pin's first 37 digits (the pin has 38, a commit 40): if that is the commit, write it here",
            mangled(&c1)
        )
    );
    // The references' own warnings: one, with the count and lines.
    assert_eq!(unpinned.len(), 1, "{unpinned:?}");
    assert_eq!(unpinned[0].0, "knowledge/structure.yaml:8");
    assert!(
        unpinned[0]
            .1
            .ends_with("; the same for 3 more reference(s), at lines 13, 18, 23"),
        "{}",
        unpinned[0].1
    );
    let (pinned, _, c1, _) = at_pin(&|c1, _| format!("{c1}0"));
    assert!(pinned[0].1.contains("(41 hex digits"), "{}", pinned[0].1);
    assert!(
        pinned[0].1.contains(&format!("the clone has {c1}")),
        "{}",
        pinned[0].1
    );
    let (pinned, _, _, c2) = at_pin(&|_, _| "mian".to_string());
    assert_eq!(pinned[0].0, "SOURCE_COMMIT_MISSING");
    assert!(
        pinned[0].1.ends_with(&format!(
            "which its clone does not resolve (no commit, branch or tag is named so), so none of its 4 reference(s) is verified; did you mean `main`? It names {c2}: write that full commit here to pin the module"
        )),
        "{}",
        pinned[0].1
    );
    let (pinned, _, _, _) = at_pin(&|_, _| "release-9".to_string());
    assert!(
        pinned[0]
            .1
            .ends_with("; fix the ref, or fetch what it names into the clone (branches: main)"),
        "{}",
        pinned[0].1
    );
}

/// `ws`'s section `s1` made to cite the range `s0` cites: 4 references, 3 distinct ranges.
fn cite_one_range_twice(ws: &std::path::Path) {
    let path = ws.join("knowledge/structure.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let at = |needle: &str| lines.iter().position(|l| l.contains(needle)).unwrap();
    let (first, second) = (at("start_line: 1,"), at("start_line: 9,"));
    let mut out: Vec<&str> = lines.clone();
    out[second] = lines[first];
    out[second + 1] = lines[first + 1];
    std::fs::write(&path, out.join("\n") + "\n").unwrap();
}

#[test]
fn an_abbreviated_pin_counts_references_not_ranges() {
    let (_tmp, ws, _, _) = pinned_workspace(|c1, _| c1[..10].to_string());
    cite_one_range_twice(&ws);
    let found = ontoly_graph::graph::findings::diagnostics_of(&build_with_clones(&ws, 2));
    let pin: Vec<_> = found
        .iter()
        .filter(|d| d.code == "SOURCE_UNPINNED" && d.location == "sources/repo/index.yaml:7")
        .collect();
    assert_eq!(pin.len(), 1, "{found:#?}");
    assert!(
        pin[0]
            .message
            .ends_with("its 4 reference(s) are checked against it"),
        "{}",
        pin[0].message
    );
}

#[test]
fn a_pin_mistyped_by_a_digit_is_said_once_at_the_pin_with_the_commit_it_meant() {
    let typo = |c: &str| {
        let last = if c.ends_with('0') { "1" } else { "0" };
        format!("{}{last}", &c[..c.len() - 1])
    };
    let (_tmp, ws, c1, _) = pinned_workspace(|c1, _| typo(c1));
    cite_one_range_twice(&ws);
    let found = ontoly_graph::graph::findings::diagnostics_of(&build_with_clones(&ws, 2));
    let at_pin: Vec<_> = found
        .iter()
        .filter(|d| d.location == "sources/repo/index.yaml:7")
        .collect();
    assert_eq!(at_pin.len(), 1, "{found:#?}");
    assert_eq!(at_pin[0].code, "SOURCE_COMMIT_MISSING");
    assert_eq!(
        at_pin[0].message,
        format!(
            "module `acme/lib` is pinned to {}, which its clone does not contain, so none of its 4 reference(s) is verified; the clone has {c1}, which differs from the pin in digit 40 only: if that is the commit, write it here",
            typo(&c1)
        )
    );
    // Each reference still says so where it is cited, in the graph (its section's evidence
    // is affected); the list says the one cause once, with the count and lines.
    let each: Vec<_> = found
        .iter()
        .filter(|d| d.code == "REFERENCE_COMMIT_MISSING")
        .collect();
    assert_eq!(each.len(), 1, "{found:#?}");
    assert!(
        each[0]
            .message
            .ends_with("; the same for 3 more reference(s), at lines 13, 18, 23"),
        "{}",
        each[0].message
    );
    let every = ontoly_graph::graph::findings::every_diagnostic(&build_with_clones(&ws, 2));
    let nodes = (every.iter())
        .filter(|d| d.code == "REFERENCE_COMMIT_MISSING")
        .count();
    assert_eq!(nodes, 4);
    // A pin nothing in the clone resembles: fetch it, or fix it.
    let (_tmp, ws, _, _) =
        pinned_workspace(|_, _| "0123456789abcdef0123456789abcdef01234567".into());
    let found = ontoly_graph::graph::findings::diagnostics_of(&build_with_clones(&ws, 2));
    let at_pin: Vec<_> = found
        .iter()
        .filter(|d| d.location == "sources/repo/index.yaml:7")
        .collect();
    assert_eq!(at_pin.len(), 1, "{found:#?}");
    assert!(
        at_pin[0].message.ends_with(
            "so none of its 4 reference(s) is verified; fetch it into the clone, or fix the ref"
        ),
        "{}",
        at_pin[0].message
    );
}

#[test]
fn a_module_name_mistyped_in_the_registry_is_offered_as_the_fix() {
    let (_tmp, ws, _, _) = pinned_workspace(|c1, _| c1.to_string());
    let index = ws.join("sources/repo/index.yaml");
    let registry = std::fs::read_to_string(&index).unwrap();
    std::fs::write(&index, registry.replace("name: lib", "name: lbi")).unwrap();
    let found = ontoly_graph::graph::findings::diagnostics_of(&build_with_clones(&ws, 2));
    let unresolved: Vec<_> = found
        .iter()
        .filter(|d| d.code == "SOURCE_UNRESOLVED")
        .collect();
    // One cause, listed once for the four references (adoption walk, stop 59: sixteen
    // identical lines).
    assert_eq!(unresolved.len(), 1, "{found:#?}");
    for d in unresolved {
        assert!(
            d.message.contains("did you mean `repo:acme/lbi`? (sources/repo/index.yaml registers acme/lbi); 4 references name it alike: if the registry's `acme/lbi` is the typo, rename that module at sources/repo/index.yaml:4 instead; the same for 3 more reference(s), at lines "),
            "{}",
            d.message
        );
    }
    // One reference with a typo of its own: the reference is what to fix.
    std::fs::write(&index, registry).unwrap();
    let structure = ws.join("knowledge/structure.yaml");
    let text = std::fs::read_to_string(&structure).unwrap();
    std::fs::write(
        &structure,
        text.replacen("repo:acme/lib", "repo:acme/lbi", 1),
    )
    .unwrap();
    let found = ontoly_graph::graph::findings::diagnostics_of(&build_with_clones(&ws, 2));
    let unresolved: Vec<_> = found
        .iter()
        .filter(|d| d.code == "SOURCE_UNRESOLVED")
        .collect();
    assert_eq!(unresolved.len(), 1, "{found:#?}");
    assert!(
        unresolved[0].message.ends_with(
            "did you mean `repo:acme/lib`? (sources/repo/index.yaml registers acme/lib)"
        ),
        "{}",
        unresolved[0].message
    );
}

#[test]
fn a_missing_file_offers_the_file_of_the_commit_it_most_likely_meant() {
    let (_tmp, ws, _, _) = pinned_workspace(|c1, _| c1.to_string());
    let structure = ws.join("knowledge/structure.yaml");
    let text = std::fs::read_to_string(&structure).unwrap();
    std::fs::write(&structure, text.replacen("path: a.py", "path: src/a.py", 1)).unwrap();
    let found = ontoly_graph::graph::findings::diagnostics_of(&build_with_clones(&ws, 2));
    let missing: Vec<_> = found
        .iter()
        .filter(|d| d.code == "REFERENCE_FILE_MISSING")
        .collect();
    assert_eq!(missing.len(), 1, "{found:#?}");
    assert!(
        missing[0].message.ends_with("the cited file does not exist at the pinned commit; the commit has `a.py` (repository-relative): is `src/` in front of it a directory too many?"),
        "{}",
        missing[0].message
    );
    // The file's name with another extension, beside where the path points.
    std::fs::write(&structure, text.replacen("path: a.py", "path: a.rs", 1)).unwrap();
    let found = ontoly_graph::graph::findings::diagnostics_of(&build_with_clones(&ws, 2));
    let missing: Vec<_> = found
        .iter()
        .filter(|d| d.code == "REFERENCE_FILE_MISSING")
        .collect();
    assert!(
        missing[0].message.ends_with("the commit has `a.py` (repository-relative): did the path name another file or directory?"),
        "{}",
        missing[0].message
    );
    // A directory left out: the path is the end of the file's.
    let repo = ws.parent().unwrap().join("lib");
    std::fs::create_dir_all(repo.join("pkg")).unwrap();
    std::fs::write(repo.join("pkg/b.py"), "x = 1\n").unwrap();
    support::git(&repo, &["add", "-A"]);
    support::git(&repo, &["commit", "-q", "-m", "b"]);
    let head = support::git(&repo, &["rev-parse", "HEAD"]);
    let index = ws.join("sources/repo/index.yaml");
    let registry = std::fs::read_to_string(&index).unwrap();
    let pinned = registry.split('"').nth(1).unwrap().to_string();
    std::fs::write(&index, registry.replace(&pinned, &head)).unwrap();
    let digest = range_digest("x = 1\n", 1, 1).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| l.contains("path: a.py")).unwrap();
    let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    edited[at] = "            locator: {path: b.py, start_line: 1, end_line: 1}".into();
    edited[at + 1] = format!("            content_digest: {digest}");
    std::fs::write(&structure, edited.join("\n") + "\n").unwrap();
    let found = ontoly_graph::graph::findings::diagnostics_of(&build_with_clones(&ws, 2));
    let missing: Vec<_> = found
        .iter()
        .filter(|d| d.code == "REFERENCE_FILE_MISSING")
        .collect();
    assert!(
        missing[0].message.ends_with(
            "the commit has `pkg/b.py` (repository-relative): did the path leave out a directory?"
        ),
        "{found:#?}"
    );
}

#[test]
fn a_pin_that_names_a_tag_object_says_so_and_names_its_commit() {
    let (tmp, ws, c1, _) = pinned_workspace(|c1, _| c1.to_string());
    let repo = tmp.path().join("lib");
    support::git(&repo, &["tag", "-a", "v1", "-m", "v1", &c1]);
    let tag = support::git(&repo, &["rev-parse", "v1"]);
    assert_ne!(tag, c1, "an annotated tag is an object of its own");
    let index = ws.join("sources/repo/index.yaml");
    let text = std::fs::read_to_string(&index).unwrap();
    std::fs::write(&index, text.replace(&c1, &tag)).unwrap();
    let found = ontoly_graph::graph::findings::every_diagnostic(&build_with_clones(&ws, 2));
    let missing: Vec<_> = found
        .iter()
        .filter(|d| d.code == "REFERENCE_COMMIT_MISSING")
        .collect();
    assert_eq!(missing.len(), 4, "{found:#?}");
    for d in missing {
        assert!(
            d.message.ends_with(&format!("the clone has it, as a tag object, whose commit is {c1}: pin a commit at sources/repo/index.yaml:7")),
            "{}",
            d.message
        );
    }
}
