//! The resource budget (issue 13): each class of hostile input is generated, and `ontoly
//! build`, `validate` and `evidence` run on it under an address-space cap and a time limit.
//! Each run must end on its own, report the input's problem as a diagnostic, and stay within
//! the budget: peak RSS at most the floor (the same commands on the smallest fixture,
//! measured in the same run) plus 20 × the bytes of the input files plus a fixed slack (see
//! [`SLACK_MIB`]).
//!
//! Classes that blow the budget today are `#[ignore = "issue 13 …"]`, with the peaks measured
//! on the debug build (2026-11-30, shared 2-core machine; memory figures are stable, times are
//! not) in a comment; `cargo test -p ontoly --test budget -- --ignored --nocapture` shows them
//! fail, and every run prints its figures on stderr.

mod hostile;

use hostile::{ontoly_with, workspace, write, Limits, Outcome, MIB};
use std::path::Path;
use std::sync::OnceLock;

/// Memory allowed per input byte, over the floor.
const PER_BYTE: f64 = 20.0;
/// Memory allowed over the floor whatever the input: allocator arenas, thread stacks and
/// parser buffers differ between runs by this much (a refused 1 KB alias bomb peaks 18 MiB
/// over the floor while the parser counts up to its repetition limit).
const SLACK_MIB: f64 = 32.0;
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
        let budget = floor + SLACK_MIB + PER_BYTE * bytes as f64 / MIB as f64;
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

// Measured: 100 KB → 222 MiB peak (build, validate, evidence alike), 4–7 s.
#[test]
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

const DEEP: usize = 100_000;

#[test]
fn depth_flow_nesting_in_structure_yaml() {
    within_budget("depth: structure", "nested deeper than", |root| {
        write(root, "knowledge/structure.yaml", "{a: ".repeat(DEEP));
    });
}

#[test]
fn depth_flow_nesting_in_a_registry() {
    within_budget("depth: registry", "sources/repo/index.yaml", |root| {
        write(root, "sources/repo/index.yaml", "{a: ".repeat(DEEP));
    });
}

#[test]
fn depth_flow_nesting_in_front_matter() {
    within_budget("depth: front matter", "knowledge/faq/guide.md", |root| {
        let deep = "[".repeat(DEEP);
        write(
            root,
            "knowledge/faq/guide.md",
            format!("---\ntitle: {deep}\n---\n"),
        );
    });
}

// Measured: 200 KB → 95–105 MiB peak (about 390× over the floor) before the parser's recursion
// limit refuses it: the block scanner queues every `- ` before nesting is counted.
#[test]
fn depth_block_nesting() {
    within_budget("depth: block", "recursion limit", |root| {
        write(
            root,
            "knowledge/structure.yaml",
            format!("{}x\n", "- ".repeat(DEEP)),
        );
    });
}

// ---- size -----------------------------------------------------------------------------------

// Before issue 13's count limits this class was 40 000 references in one section (8.5 MB):
// build 345, validate 350, evidence 573 MiB. A section is now checked for its first 100
// references only (`many_unresolvable_references`); this class is the shape Context writes.
// Measured (debug, 2026-12-01): 10.7 MB → build 378, validate 378, evidence 397 MiB, about
// 9 KB per cited range (nodes, edges, ids and metadata of the graph), 33× the input; the
// budget allows 259 MiB. The YAML itself is read by the fast path. What remains is the
// graph's memory per reference, which the build's memory work (issue 10) owns. Measured again
// (debug, 2026-12-03, after that work): build 247, validate 253, evidence 248 MiB against
// budgets of 256, 257 and 262 (with mimalloc's huge pages allowed: 256, 253, 265 against 265,
// 264, 274). It passes, by 2–4 %: too thin a margin for a gate on other hosts, so it still
// runs only when asked (`--ignored`).
#[test]
#[ignore = "issue 10: passes since the build's memory work, but within 2-4 % of its budget; run with --ignored"]
fn size_a_large_valid_structure() {
    // 40 000 references (about 8 MB) to one registered module, three to a section, every
    // section marked in the page.
    within_budget("size: 8 MB structure", "SOURCE_UNRESOLVED", |root| {
        let sections = 40_000 / 3 + 1;
        let mut structure = structure_with_references("").replace(
            "      - id: answer\n        references:\n      - id: setup\n        references: []\n",
            "",
        );
        let mut page = String::from("# Guide\n\n");
        for s in 0..sections {
            structure.push_str(&format!("      - id: s{s}\n        references:\n"));
            for i in 0..3 {
                let r = if s + 1 == sections && i == 2 {
                    reference("repo:nobody/none", "x.go")
                } else {
                    reference("repo:acme/server", &format!("src/f{s}-{i}.go"))
                };
                structure.push_str(&r);
            }
            page.push_str(&format!(
                "<!-- context:section id=\"s{s}\" -->\n## How are plugins loaded, part {s}?\nPlugins load at start.\n<!-- /context:section -->\n"
            ));
        }
        write(root, "knowledge/structure.yaml", structure);
        write(root, "knowledge/faq/guide.md", page);
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
        let id = "x".repeat(1 << 20);
        let text = structure_with_references("")
            .replace("article_id: guide", &format!("article_id: {id}"))
            + &format!("  - article_id: other\n    path: faq/{id}.md\n    sections: []\n");
        write(root, "knowledge/structure.yaml", text);
    });
}

// ---- long paths -----------------------------------------------------------------------------

// Measured: 1 MB → build 73, validate 73, evidence 93 MiB (20× allows 74 MiB with the
// slack), and no diagnostic: the path is accepted.
#[test]
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

// Measured with 30 citations: 0.9–1.1 GiB when killed at 90 s; release: 3 → 158 MiB,
// 30 → 1.3 GiB.
#[test]
fn long_paths_in_a_subpath_cited_three_times() {
    within_budget("long path: subpath x3", "subpath", |root| {
        let subpath = vec!["a".repeat(50); 1_000_000 / 51].join("/");
        write(
            root,
            "sources/repo/index.yaml",
            format!("sources:\n  - name: acme\n    modules:\n      - name: server\n        subpath: {subpath}\n        git: {{remote: https://github.com/acme/server, ref: 0123456789abcdef0123456789abcdef01234567}}\n"),
        );
        let refs: String = (0..3)
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

// Before issue 13's count limit: 6.1 MB → 185–192 MiB (20× allows 172 MiB with the slack).
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

// Before issue 13's count limit: 7.7 MB → build 246, validate 215, evidence 229 MiB (20×
// allows 201 MiB with the slack). A page may now hold 10 000 sections.
#[test]
fn many_sections_in_one_page() {
    within_budget(
        "many sections: one page",
        "Too many section markers",
        |root| {
            let page: String = (0..100_000)
            .map(|i| format!("<!-- context:section id=\"s{i}\" -->\nplugins {i}\n<!-- /context:section -->\n"))
            .collect();
            write(root, "knowledge/faq/many.md", page);
        },
    );
}

// ---- many links in one page -----------------------------------------------------------------

#[test]
fn many_links_in_one_page() {
    within_budget("many links: one page", "LINK_UNRESOLVED", |root| {
        let links: String = (0..200_000)
            .map(|i| format!("[a](missing{}.md)\n", i % 1000))
            .collect();
        write(
            root,
            "knowledge/faq/guide.md",
            format!("<!-- context:section id=\"answer\" -->\n{links}<!-- /context:section -->\n<!-- context:section id=\"setup\" -->\nx\n<!-- /context:section -->\n"),
        );
    });
}

// ---- many unknown keys ----------------------------------------------------------------------

#[test]
fn many_unknown_keys_in_structure_yaml() {
    // 60 000 unknown keys (600 KB) took 109 s and 169 MB: each line was compared with each
    // key, and each key became a finding.
    within_budget(
        "many unknown keys: structure",
        "more unknown keys",
        |root| {
            let path = root.join("knowledge/structure.yaml");
            let mut text = std::fs::read_to_string(&path).expect("structure");
            text.extend((0..60_000).map(|i| format!("k{i}: 0\n")));
            write(root, "knowledge/structure.yaml", text);
        },
    );
}

// ---- many tiny entries ----------------------------------------------------------------------

// `{}` is an article (or a registry entry) in 3 bytes, and each article without a path is a
// finding: 200 000 of them (600 KB) took 450 MB and 18 s in structure.yaml, 146 MB in a
// registry.
#[test]
fn many_tiny_entries_in_structure_yaml() {
    within_budget("many tiny entries: structure", "nodes, more than", |root| {
        let text = format!(
            "schema_version: context.approved-structure.v1\narticles: [{}]\n",
            vec!["{}"; 200_000].join(",")
        );
        write(root, "knowledge/structure.yaml", text);
    });
}

#[test]
fn tiny_entries_within_the_node_budget_in_structure_yaml() {
    // Within the node budget (20 000 nodes + one per 10 bytes; 13 000 entries would reach it,
    // where allocator noise of ±8 MiB decides), one entry a line so that each is a finding at
    // its own line: accepted, the findings bounded per file.
    within_budget(
        "tiny entries in budget: structure",
        "more findings",
        |root| {
            let text = format!(
                "schema_version: context.approved-structure.v1\narticles:\n{}",
                "- {}\n".repeat(10_000)
            );
            write(root, "knowledge/structure.yaml", text);
        },
    );
}

#[test]
fn many_tiny_entries_in_a_registry() {
    within_budget("many tiny entries: registry", "nodes, more than", |root| {
        let text = format!("sources: [{}]\n", vec!["{}"; 200_000].join(","));
        write(root, "sources/repo/index.yaml", text);
    });
}

// ---- the largest accepted file of each kind -------------------------------------------------

#[test]
fn size_the_largest_page() {
    // 32 MiB, the page limit, in 10 000 sections (the section limit) of 3.3 KB.
    within_budget("size: largest page", "ARTICLE_NOT_IN_STRUCTURE", |root| {
        let body = "Plugins load at start and retry on failure. ".repeat(75);
        let mut page = String::with_capacity(32 << 20);
        let mut i = 0;
        while page.len() + body.len() + 80 < 32 << 20 && i < 10_000 {
            page.push_str(&format!(
                "<!-- context:section id=\"s{i}\" -->\n{body}\n<!-- /context:section -->\n"
            ));
            i += 1;
        }
        page.push_str(&"x".repeat((32 << 20) - page.len() - 1));
        page.push('\n');
        assert_eq!(page.len(), 32 << 20);
        write(root, "knowledge/faq/big.md", page);
    });
}

#[test]
fn size_a_page_over_the_limit_is_not_read() {
    within_budget("size: page over the limit", "file is larger than", |root| {
        write(root, "knowledge/faq/big.md", "x".repeat((32 << 20) + 1));
    });
}

#[test]
fn size_the_largest_registry_accepted() {
    // Modules as Context writes them (about 13 bytes a node), near the registry's node
    // budget (30 000 nodes, then one per 24 bytes): 810 KB, 5 500 modules.
    within_budget("size: largest registry", "0 errors", |root| {
        let mut text = String::from(
            "sources:\n  - name: acme\n    modules:\n      - name: server\n        git: {remote: https://github.com/acme/server, ref: 0123456789abcdef0123456789abcdef01234567}\n",
        );
        for i in 0..5_500 {
            text.push_str(&format!(
                "      - name: m{i}\n        subpath: src/m{i}\n        git: {{remote: https://github.com/acme/m{i}, ref: 0123456789abcdef0123456789abcdef01234567}}\n"
            ));
        }
        write(root, "sources/repo/index.yaml", text);
    });
}

#[test]
fn size_a_registry_over_its_node_budget_is_refused() {
    within_budget("size: registry over budget", "REGISTRY_UNUSABLE", |root| {
        let mut text = String::from("sources:\n  - name: acme\n    modules:\n");
        for i in 0..16_000 {
            text.push_str(&format!(
                "      - name: m{i}\n        subpath: src/m{i}\n        git: {{remote: https://github.com/acme/m{i}, ref: 0123456789abcdef0123456789abcdef01234567}}\n"
            ));
        }
        write(root, "sources/repo/index.yaml", text);
    });
}
