//! The resource budget (issue 13): each class of hostile input is generated, and `ontoly
//! build`, `validate` and `evidence` run on it under an address-space cap and a time limit.
//! Each run must end on its own, report the input's problem as a diagnostic, and stay within
//! the budget: peak RSS at most the floor (the same commands on the smallest fixture,
//! measured in the same run) plus 20 × the bytes of the input files.
//!
//! Classes that blow the budget today are `#[ignore = "issue 13 …"]`, with the peak measured
//! on the debug build in a comment; `cargo test -p ontoly --test budget -- --ignored
//! --nocapture` shows them fail, and every run prints its figures on stderr.

mod hostile;

use hostile::{ontoly_with, workspace, write, Limits, Outcome, MIB};
use std::path::Path;
use std::sync::OnceLock;

/// Memory allowed per input byte, over the floor.
const PER_BYTE: f64 = 20.0;
/// The cap every run gets: far above any budget here, far below the machine.
const CAP_MIB: u64 = 3072;
/// Wall time per run (debug build, shared 2-core machine).
const TIMEOUT_SECS: u64 = 90;

const COMMANDS: [&[&str]; 3] = [
    &["--no-cache", "build"],
    &["--no-cache", "validate"],
    &["--no-cache", "evidence", "plugins loaded at start"],
];

/// The peak RSS of each command on the smallest fixture.
fn floors() -> &'static [f64; 3] {
    static FLOORS: OnceLock<[f64; 3]> = OnceLock::new();
    FLOORS.get_or_init(|| {
        let (_t, root) = workspace("valid");
        COMMANDS.map(|c| {
            let o = ontoly_with(&root, c, None, Limits::new(CAP_MIB, TIMEOUT_SECS));
            assert!(o.finished(), "{}", o.summary());
            o.peak_mib()
        })
    })
}

/// Bytes of every file under `root`.
fn input_bytes(root: &Path) -> u64 {
    let mut total = 0;
    for entry in std::fs::read_dir(root).expect("read dir") {
        let entry = entry.expect("entry");
        let meta = entry.metadata().expect("meta");
        if meta.is_dir() {
            total += input_bytes(&entry.path());
        } else {
            total += meta.len();
        }
    }
    total
}

/// Runs the three commands on the workspace `prepare` writes (into a copy of the `valid`
/// fixture), and checks the bound and that `diagnostic` appears in `validate`'s output.
fn within_budget(class: &str, diagnostic: &str, prepare: impl FnOnce(&Path)) {
    let floors = floors();
    let (_t, root) = workspace("valid");
    prepare(&root);
    let bytes = input_bytes(&root);
    let mut failures = Vec::new();
    for (command, floor) in COMMANDS.iter().zip(floors) {
        let o: Outcome = ontoly_with(&root, command, None, Limits::new(CAP_MIB, TIMEOUT_SECS));
        let budget = floor + PER_BYTE * bytes as f64 / MIB as f64;
        eprintln!(
            "budget: {class:<28} {:<9} input {:>10} B  peak {:>7.1} MiB  floor {:>5.1}  budget {:>7.1}  {:>6.2} s  exit {:?}",
            command[1],
            bytes,
            o.peak_mib(),
            floor,
            budget,
            o.elapsed.as_secs_f64(),
            o.code
        );
        if !o.finished() || o.stderr.contains("panicked") {
            failures.push(format!(
                "{command:?} did not finish cleanly: {}",
                o.summary()
            ));
            continue;
        }
        if o.peak_mib() > budget {
            failures.push(format!(
                "{command:?}: peak {:.0} MiB over the budget of {budget:.0} MiB",
                o.peak_mib()
            ));
        }
        if command[1] == "validate" && !o.stdout.contains(diagnostic) {
            failures.push(format!(
                "validate does not report {diagnostic:?}: {}",
                o.summary()
            ));
        }
    }
    assert!(failures.is_empty(), "{class}: {failures:#?}");
}

const DIGEST: &str = "sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae";

/// A structure with one article (the fixture's page) whose section `answer` records
/// `references` (YAML lines, indented for the list).
fn structure_with_references(references: &str) -> String {
    format!(
        "schema_version: context.approved-structure.v1\narticles:\n  - article_id: guide\n    path: faq/guide.md\n    collection: faq\n    visibility: public\n    sections:\n      - id: answer\n        references:\n{references}      - id: setup\n        references: []\n"
    )
}

fn reference(source_ref: &str, path: &str) -> String {
    format!(
        "          - source_ref: {source_ref}\n            locator: {{path: {path}, start_line: 1, end_line: 2}}\n            content_digest: {DIGEST}\n"
    )
}

// ---- aliases --------------------------------------------------------------------------------

#[test]
fn aliases_an_alias_bomb_is_refused() {
    within_budget("aliases: bomb", "repetition limit", |root| {
        let mut bomb = String::from("a: &a [x,x,x,x,x,x,x,x,x,x]\n");
        let mut prev = 'a';
        for c in 'b'..='k' {
            let refs = vec![format!("*{prev}"); 10].join(",");
            bomb.push_str(&format!("{c}: &{c} [{refs}]\n"));
            prev = c;
        }
        write(root, "knowledge/structure.yaml", bomb);
    });
}

#[test]
#[ignore = "issue 13 (found in phase 1): 100 KB of aliases to a 60-item list reach 219 MB (release) under the repetition limit"]
fn aliases_within_the_repetition_limit() {
    within_budget("aliases: many small", "x", |root| {
        let anchor = vec!["b"; 60].join(",");
        let aliases = vec!["*a"; 33_000].join(",");
        let text = structure_with_references("").replace(
            "articles:",
            &format!("x: &a [{anchor}]\nprocessed_scopes: [{aliases}]\narticles:"),
        );
        write(root, "knowledge/structure.yaml", text);
    });
}

// ---- depth ----------------------------------------------------------------------------------

#[test]
fn depth_flow_nesting_in_every_yaml_input() {
    let deep = "{a: ".repeat(100_000);
    within_budget("depth: structure", "nested deeper than", |root| {
        write(root, "knowledge/structure.yaml", &deep);
    });
    within_budget("depth: registry", "sources/repo/index.yaml", |root| {
        write(root, "sources/repo/index.yaml", &deep);
    });
    within_budget("depth: front matter", "knowledge/faq/guide.md", |root| {
        write(
            root,
            "knowledge/faq/guide.md",
            format!("---\ntitle: {deep}\n---\n"),
        );
    });
}

#[test]
fn depth_block_nesting() {
    within_budget("depth: block", "recursion limit", |root| {
        write(
            root,
            "knowledge/structure.yaml",
            format!("{}x\n", "- ".repeat(100_000)),
        );
    });
}

// ---- size -----------------------------------------------------------------------------------

#[test]
fn size_a_large_valid_structure() {
    // 40 000 references (about 8 MB) to one registered module: the shape Context writes.
    within_budget("size: 8 MB structure", "SOURCE_UNRESOLVED", |root| {
        let mut refs: String = (0..40_000)
            .map(|i| reference("repo:acme/server", &format!("src/f{i}.go")))
            .collect();
        refs.push_str(&reference("repo:nobody/none", "x.go"));
        write(
            root,
            "knowledge/structure.yaml",
            structure_with_references(&refs),
        );
    });
}

// ---- long lines -----------------------------------------------------------------------------

#[test]
fn long_lines_in_a_page() {
    within_budget("long line: page", "MARKER_ERROR", |root| {
        let line = "x".repeat(8 << 20);
        write(
            root,
            "knowledge/faq/guide.md",
            format!("<!-- context:section id=\"answer\" -->\n{line}\n<!-- /context:section -->\n<!-- context:section {line}\n"),
        );
    });
}

#[test]
fn long_lines_in_structure_yaml() {
    within_budget("long line: structure", "ARTICLE_PAGE_MISSING", |root| {
        let id = "x".repeat(4 << 20);
        let text = structure_with_references("")
            .replace("article_id: guide", &format!("article_id: {id}"))
            + &format!("  - article_id: other\n    path: faq/{id}.md\n    sections: []\n");
        write(root, "knowledge/structure.yaml", text);
    });
}

// ---- long paths -----------------------------------------------------------------------------

#[test]
#[ignore = "issue 13: a 1 MB locator path is accepted without a diagnostic (no 4 KiB bound yet)"]
fn long_paths_in_locators() {
    within_budget("long path: locator", "path", |root| {
        let path = vec!["d".repeat(60); 1 << 14].join("/");
        let refs = reference("repo:acme/server", &path);
        write(
            root,
            "knowledge/structure.yaml",
            structure_with_references(&refs),
        );
    });
}

#[test]
#[ignore = "issue 13: a 1 MB subpath cited 30 times reaches 1.3 GB (release), no 4 KiB bound yet"]
fn long_paths_in_a_subpath_cited_many_times() {
    within_budget("long path: subpath x30", "subpath", |root| {
        let subpath = vec!["a".repeat(50); 1_000_000 / 51].join("/");
        write(
            root,
            "sources/repo/index.yaml",
            format!("sources:\n  - name: acme\n    modules:\n      - name: server\n        subpath: {subpath}\n        git: {{remote: https://github.com/acme/server, ref: 0123456789abcdef0123456789abcdef01234567}}\n"),
        );
        let refs: String = (0..30)
            .map(|i| reference("repo:acme/server", &format!("src/f{i}.go")))
            .collect();
        write(
            root,
            "knowledge/structure.yaml",
            structure_with_references(&refs),
        );
    });
}

// ---- many references ------------------------------------------------------------------------

#[test]
fn many_unresolvable_references() {
    within_budget("many references: unresolved", "SOURCE_UNRESOLVED", |root| {
        let refs: String = (0..30_000)
            .map(|i| reference(&format!("repo:nobody/m{i}"), "x.go"))
            .collect();
        write(
            root,
            "knowledge/structure.yaml",
            structure_with_references(&refs),
        );
    });
}

// ---- many sections in one page --------------------------------------------------------------

#[test]
fn many_sections_in_one_page() {
    within_budget(
        "many sections: one page",
        "ARTICLE_NOT_IN_STRUCTURE",
        |root| {
            let page: String = (0..100_000)
            .map(|i| format!("<!-- context:section id=\"s{i}\" -->\nplugins {i}\n<!-- /context:section -->\n"))
            .collect();
            write(root, "knowledge/faq/many.md", page);
        },
    );
}
