//! Queries as people type them, through the real binary: unquoted and dash-led words,
//! ontoly's options before and after them, `--`, empty queries; every "Next:" line of a pack
//! pasted back into a shell; excerpt bounds and pack size; packs on broken workspaces; the
//! questions files of `check` and its metrics.

mod common;

use common::{copy_dir, demo, fixtures, run_in, testdata, Run};
use std::path::Path;

fn json(r: &Run) -> serde_json::Value {
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {r:?}"))
}

#[test]
fn dash_led_and_unquoted_words_are_the_question() {
    let f = fixtures();
    let r = run_in(
        &f,
        &[
            "--workspace",
            "valid",
            "--no-cache",
            "evidence",
            "--engine",
            "auto",
            "fallback",
            "--format",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(json(&r)["query"], "--engine auto fallback");
    assert_eq!(
        r.stderr, "",
        "a dash-led word that is no option goes unremarked"
    );

    // A mistyped option stays a word of the question, and standard error says so; after
    // `--` it is asked about, silently.
    let ask = |words: &[&str]| {
        let mut all = vec!["--workspace", "valid", "--no-cache", "evidence"];
        all.extend_from_slice(words);
        run_in(&f, &all)
    };
    let r = ask(&["plugins", "--fromat", "json"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.starts_with("Question: plugins --fromat json\n"),
        "{}",
        r.stdout
    );
    assert_eq!(
        r.stderr,
        "note: `--fromat` is read as a word of the question; did you mean --format? (a question about it goes after `--`)\n"
    );
    assert_eq!(ask(&["--", "plugins", "--fromat", "json"]).stderr, "");

    let r = run_in(
        &f,
        &[
            "--no-cache",
            "evidence",
            "-z",
            "formats",
            "--workspace",
            "valid",
            "--format",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(json(&r)["query"], "-z formats");

    // Options after the words, global ones included.
    let r = run_in(
        &f,
        &[
            "evidence",
            "how",
            "are",
            "plugins",
            "loaded",
            "--limit",
            "5",
            "--format",
            "json",
            "--workspace",
            "valid",
            "--no-cache",
        ],
    );
    assert_eq!(r.code, 0, "{r:?}");
    let v = json(&r);
    assert_eq!(v["query"], "how are plugins loaded");
    assert_eq!(v["limit"], 5);
    assert_eq!(v["stableIds"][0], "section:faq/guide.md#answer");

    // Options before the words give the same pack.
    let r2 = run_in(
        &f,
        &[
            "--workspace",
            "valid",
            "--no-cache",
            "evidence",
            "--limit",
            "5",
            "--format",
            "json",
            "how",
            "are",
            "plugins",
            "loaded",
        ],
    );
    assert_eq!(r2.stdout, r.stdout);

    // `--` makes everything after it the question, options included.
    let r = run_in(
        &f,
        &[
            "--workspace",
            "valid",
            "--no-cache",
            "evidence",
            "--format",
            "json",
            "--",
            "--limit",
            "5",
        ],
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(json(&r)["query"], "--limit 5");
    let r = run_in(
        &f,
        &[
            "--workspace",
            "valid",
            "--no-cache",
            "evidence",
            "--format",
            "json",
            "plugin",
            "--",
            "--format",
            "x",
        ],
    );
    assert_eq!(json(&r)["query"], "plugin --format x");

    // One argument holding a dash-led question, as scripts pass it.
    let r = run_in(
        &f,
        &[
            "evidence",
            "--max-filesize units",
            "--workspace",
            "valid",
            "--no-cache",
            "--format",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(json(&r)["query"], "--max-filesize units");
}

#[test]
fn an_empty_query_is_a_usage_error() {
    let f = fixtures();
    for args in [
        vec!["--workspace", "valid", "evidence"],
        vec!["--workspace", "valid", "evidence", ""],
        vec!["--workspace", "valid", "evidence", "  "],
        vec!["--workspace", "valid", "evidence", "--format", "json"],
        vec!["--workspace", "valid", "evidence", "--"],
    ] {
        let r = run_in(&f, &args);
        assert_eq!(r.code, 2, "{args:?}: {r:?}");
        assert!(r.stderr.contains("needs a question"), "{r:?}");
        assert!(r.stdout.is_empty());
    }
    let r = run_in(&f, &["--workspace", "valid", "evidence", "q", "--limit"]);
    assert_eq!(r.code, 2, "{r:?}");
    let r = run_in(
        &f,
        &["--workspace", "valid", "evidence", "q", "--format", "xml"],
    );
    assert_eq!(r.code, 2, "{r:?}");
    let r = run_in(
        &f,
        &[
            "--workspace",
            "valid",
            "--no-cache",
            "run",
            "EvidencePack",
            "--input",
            r#"{"query":" "}"#,
        ],
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("CAPABILITY_INVALID_INPUT"), "{r:?}");
}

/// Runs each suggested command of a pack as a shell would split it, from `cwd`.
/// Runs every line; returns how many ran and how many of them were pinned reads (`--rev`; a
/// work tree's page is read without one).
fn paste_back(cwd: &Path, commands: &serde_json::Value) -> (usize, usize) {
    let (mut n, mut reads) = (0, 0);
    for c in commands.as_array().expect("a list") {
        let line = c.as_str().expect("a string");
        let words = shlex::split(line).unwrap_or_else(|| panic!("does not split: {line}"));
        assert_eq!(words[0], "ontoly", "{line}");
        let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        let r = run_in(cwd, &args);
        // A search that finds nothing exits 1, as grep does: an answer, not a failure.
        let ok = r.code == 0 || (args.contains(&"search") && r.code == 1 && r.stdout.is_empty());
        assert!(ok, "`{line}` failed: {r:?}");
        if r.code == 1 {
            // What it searched, and that it found nothing.
            assert!(
                r.stderr.trim_end().ends_with(": 0 file(s)"),
                "`{line}`: {r:?}"
            );
            n += 1;
            continue;
        }
        if args.contains(&"read") {
            // A read prints the lines on stdout and what it read on stderr: one header line.
            let after = |flag: &str| {
                let i = args.iter().position(|w| *w == flag)?;
                args.get(i + 1).copied()
            };
            let repo = after("--repo").expect("--repo");
            let rev = after("--rev");
            let header = format!(
                "{}@{} ",
                repo.trim_start_matches("github.com/"),
                rev.unwrap_or("worktree")
            );
            assert!(
                r.stderr.lines().count() == 1 && r.stderr.contains(&header),
                "`{line}`: {}",
                r.stderr
            );
            reads += usize::from(rev.is_some());
        } else {
            assert!(r.stderr.is_empty(), "`{line}`: {}", r.stderr);
        }
        assert!(!r.stdout.is_empty(), "`{line}` printed nothing");
        assert!(
            !r.stdout.contains("CAPABILITY_INVALID_INPUT")
                && !r.stdout.contains("CAPABILITY_NOT_REGISTERED"),
            "`{line}`: {}",
            r.stdout
        );
        n += 1;
    }
    (n, reads)
}

#[test]
fn every_next_line_pastes_back_as_it_is() {
    let t = tempfile::tempdir().expect("tempdir");
    let ws = t.path().join("my demo");
    copy_dir(&demo(), &ws);
    // From outside the workspace: the lines name it with --workspace, quoted.
    let ask = |query: &[&str]| {
        let mut args = vec!["--workspace", "my demo", "evidence", "--format", "json"];
        args.extend_from_slice(query);
        run_in(t.path(), &args)
    };
    for q in [
        "How does the checkout service retry failed payments?",
        "--retry-budget it's \"quoted\" $HOME `x`",
        "-z kubernetes helm charts",
    ] {
        let r = ask(&["--", q]);
        assert_eq!(r.code, 0, "{r:?}");
        let v = json(&r);
        let cmds = &v["suggestedCommands"];
        assert!(
            cmds.as_array().is_some_and(|c| c.iter().all(|l| l
                .as_str()
                .is_some_and(|s| s.starts_with("ontoly --workspace 'my demo' ")))),
            "{cmds}"
        );
        let (ran, reads) = paste_back(t.path(), cmds);
        assert!(ran >= 1, "{q}: {cmds}");
        if q.starts_with("How does the checkout") {
            // Its first section cites code the demo's clones hold: the line reads it there,
            // and it is the code the question names (the retry loop, not the config the
            // structure lists first).
            assert_eq!(reads, 1, "{q}: {cmds}");
            let first = &v["filesToInspect"][0];
            assert_eq!(
                (first["path"].as_str(), first["startLine"].as_u64()),
                (Some("src/checkout.rs"), Some(72)),
                "{}",
                v["filesToInspect"]
            );
            assert!(
                cmds.to_string().contains(" src/checkout.rs:72-95"),
                "{cmds}"
            );
        }
        if v["confidence"]["level"] == "low" {
            let again = cmds
                .as_array()
                .and_then(|c| {
                    c.iter()
                        .filter_map(|l| l.as_str())
                        .find(|l| l.contains(" evidence "))
                })
                .expect("a weak pack suggests asking again");
            let words = shlex::split(again).expect("splits");
            assert_eq!(
                words.last().map(String::as_str),
                Some(q),
                "the question survives: {again}"
            );
        }
    }
    // A fallback's command pastes back too (it left out --workspace: new-user walk, stop 41).
    let r = ask(&["what is this?"]);
    let v = json(&r);
    assert_eq!(v["confidence"]["level"], "none", "{v}");
    let quoted: Vec<serde_json::Value> = v["fallbacks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f.as_str())
        .flat_map(|f| f.split('`').skip(1).step_by(2))
        .filter(|c| c.starts_with("ontoly "))
        .map(|c| serde_json::Value::from(c.to_string()))
        .collect();
    assert!(!quoted.is_empty(), "{}", v["fallbacks"]);
    for c in &quoted {
        assert!(
            c.as_str()
                .is_some_and(|c| c.starts_with("ontoly --workspace 'my demo' ")),
            "{c}"
        );
    }
    assert_eq!(
        paste_back(t.path(), &serde_json::Value::from(quoted.clone())).0,
        quoted.len()
    );
    // Without the clones nothing was read at the pinned commits: no read of code is offered,
    // only of the workspace's pages.
    let bare = t.path().join("no clones");
    copy_dir(&demo(), &bare);
    std::fs::remove_dir_all(bare.join("repos")).expect("remove the clones");
    let q = "How does the checkout service retry failed payments?";
    let r = run_in(&bare, &["evidence", "--format", "json", q]);
    assert_eq!(r.code, 0, "{r:?}");
    let cmds = &json(&r)["suggestedCommands"];
    assert!(
        cmds.as_array().is_some_and(|c| c.iter().all(|l| {
            let l = l.as_str().unwrap_or("");
            !l.contains(" read ") || l.starts_with("ontoly read --repo 'no clones' knowledge/")
        })),
        "{cmds}"
    );
    assert_eq!(paste_back(&bare, cmds).1, 0);
    // Nothing matched: asking again with a wider limit would find nothing more.
    let r = run_in(&ws, &["evidence", "--format", "json", "what is this?"]);
    assert_eq!(r.code, 0, "{r:?}");
    let v = json(&r);
    assert_eq!(v["confidence"]["level"], "none", "{v}");
    assert!(
        v["suggestedCommands"].as_array().is_some_and(|c| c
            .iter()
            .all(|l| !l.as_str().unwrap_or("").contains(" evidence "))),
        "{}",
        v["suggestedCommands"]
    );
    // From inside the workspace the lines need no --workspace.
    let r = run_in(
        &ws,
        &["evidence", "--format", "json", "how are orders cancelled?"],
    );
    assert_eq!(r.code, 0, "{r:?}");
    let v = json(&r);
    assert!(
        v["suggestedCommands"].as_array().is_some_and(|c| c
            .iter()
            .all(|l| !l.as_str().unwrap_or("").contains("--workspace"))),
        "{}",
        v["suggestedCommands"]
    );
    assert!(paste_back(&ws, &v["suggestedCommands"]).0 >= 3);
    // The text rendering prints the same lines.
    let r = run_in(&ws, &["evidence", "how are orders cancelled?"]);
    for c in v["suggestedCommands"].as_array().into_iter().flatten() {
        assert!(
            r.stdout
                .contains(&format!("$ {}", c.as_str().unwrap_or(""))),
            "{}",
            r.stdout
        );
    }
}

/// The httpx MCP walk (stop 54, W2): an agent whose answer was in the third section worked out
/// the workspace repository's name and the page's path in it to read the section. A pack's
/// first next step reads the top section's page lines, ready to send: of the work tree when the
/// workspace is in no git repository, at the knowledge commit when it is, and not at all when
/// no commit holds those lines. The CLI's `Next:` lines read the same lines with `ontoly read`.
/// `filesToInspect` does not say that read again (stop 55: those bytes came out of the
/// excerpts); it names the page only when no commit holds its lines, with no commit.
#[test]
fn the_first_next_step_reads_the_top_section_s_page_lines() {
    let t = tempfile::tempdir().expect("tempdir");
    let ws = t.path().join("demo ws");
    copy_dir(&demo(), &ws);
    let q = "How does the checkout service retry failed payments?";
    let ask = || json(&run_in(&ws, &["evidence", "--format", "json", "--", q]));
    // The page reads of a pack: (repository, path, start, end, revision), in order; each
    // checked against the section it reads.
    let reads_of = |v: &serde_json::Value| -> Vec<(String, String, u64, u64, Option<String>)> {
        let sections: Vec<&serde_json::Value> = (v["topNodes"].as_array().into_iter().flatten())
            .filter(|n| n["type"] == "Section")
            .collect();
        let calls = v["nextToolCalls"].as_array().expect("calls");
        let page_read = |c: &&serde_json::Value| {
            c["tool"] == "read"
                && c["arguments"]["path"]
                    .as_str()
                    .is_some_and(|p| p.ends_with(".md"))
        };
        let reads: Vec<_> = calls
            .iter()
            .take_while(page_read)
            .map(|c| {
                let a = &c["arguments"];
                (
                    a["repository"].as_str().unwrap_or("").to_string(),
                    a["path"].as_str().unwrap_or("").to_string(),
                    a["startLine"].as_u64().unwrap_or(0),
                    a["endLine"].as_u64().unwrap_or(0),
                    a["revision"].as_str().map(String::from),
                )
            })
            .collect();
        // The page reads come first, and only there; later, where the shell's `Next:` reads
        // it, the first cited range readable here, at its pinned commit, as its
        // `filesToInspect` entry names it (MCP walk, stop 59: the calls never read the code).
        assert_eq!(
            calls.iter().filter(page_read).count(),
            reads.len(),
            "{}",
            v["nextToolCalls"]
        );
        let code = (calls.iter().skip(reads.len()))
            .find(|c| c["tool"] == "read")
            .expect("a read of cited code");
        let a = &code["arguments"];
        let entry = (v["filesToInspect"].as_array().into_iter().flatten()).find(|f| {
            f["path"] == a["path"]
                && f["commit"] == a["revision"]
                && f["startLine"] == a["startLine"]
                && f["endLine"] == a["endLine"]
                && f["repository"] == a["repository"]
        });
        assert!(entry.is_some(), "{code} {}", v["filesToInspect"]);
        // Of the top section.
        let spans: Vec<(&str, u64, u64)> = (sections.iter().take(1))
            .map(|s| {
                (
                    s["span"]["file"].as_str().unwrap_or(""),
                    s["span"]["startLine"].as_u64().unwrap_or(0),
                    s["span"]["endLine"].as_u64().unwrap_or(0),
                )
            })
            .collect();
        let at: Vec<Option<usize>> = (reads.iter())
            .map(|r| spans.iter().position(|s| *s == (r.1.as_str(), r.2, r.3)))
            .collect();
        assert!(
            at.iter().all(Option::is_some) && at.windows(2).all(|w| w[0] < w[1]),
            "{spans:?} {}",
            v["nextToolCalls"]
        );
        reads
    };
    // Each `ontoly read` line of `Next:` prints the section's lines of the page on disk.
    let commands_read = |v: &serde_json::Value, n: usize| {
        let lines: Vec<&str> = (v["suggestedCommands"].as_array().into_iter().flatten())
            .filter_map(|c| c.as_str())
            .filter(|c| c.starts_with("ontoly read --repo 'demo ws' "))
            .collect();
        assert_eq!(lines.len(), n, "{}", v["suggestedCommands"]);
        for line in lines {
            let words = shlex::split(line).expect("splits");
            let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
            let r = run_in(&ws, &args);
            assert_eq!(r.code, 0, "{line}: {r:?}");
            let (path, range) = args
                .last()
                .and_then(|a| a.rsplit_once(':'))
                .expect("path:range");
            let (s, e) = range.split_once('-').expect("start-end");
            let (s, e): (usize, usize) = (s.parse().expect("start"), e.parse().expect("end"));
            let page = std::fs::read_to_string(ws.join(path)).expect("page");
            let want: Vec<&str> = page.lines().skip(s - 1).take(e - s + 1).collect();
            // The page's lines, then the references of the sections on them.
            let got: Vec<&str> = r.stdout.lines().take(want.len()).collect();
            assert_eq!(got, want, "{line}");
        }
    };

    // The `filesToInspect` entries of the workspace repository (its pages), as
    // (path, start, end, commit).
    let page_entries = |v: &serde_json::Value, repository: &str| -> Vec<_> {
        (v["filesToInspect"].as_array().into_iter().flatten())
            .filter(|f| f["repository"] == repository)
            .map(|f| {
                (
                    f["path"].as_str().unwrap_or("").to_string(),
                    f["startLine"].as_u64().unwrap_or(0),
                    f["endLine"].as_u64().unwrap_or(0),
                    f["commit"].as_str().map(String::from),
                )
            })
            .collect()
    };
    // Cited code: every other entry.
    let code_entries = |v: &serde_json::Value, repository: &str| {
        (v["filesToInspect"].as_array().into_iter().flatten())
            .filter(|f| f["repository"] != repository)
            .count()
    };

    // No git: the work tree, read without a revision.
    let v = ask();
    let reads = reads_of(&v);
    assert_eq!(reads.len(), 1, "{}", v["nextToolCalls"]);
    assert!(
        reads.iter().all(|r| r.0 == "demo ws" && r.4.is_none()),
        "{reads:?}"
    );
    commands_read(&v, 1);
    assert!(
        page_entries(&v, "demo ws").is_empty(),
        "{}",
        v["filesToInspect"]
    );
    // The question's section cites three ranges and the next section a fourth.
    assert_eq!(code_entries(&v, "demo ws"), 4, "{}", v["filesToInspect"]);

    // In git: pinned to the knowledge commit.
    std::fs::write(ws.join(".gitignore"), "repos/\n.ontoly/\n").expect("write");
    common::git(&ws, &["init", "-q", "-b", "main"]);
    common::git(&ws, &["add", "-A"]);
    common::git(&ws, &["commit", "-q", "-m", "knowledge"]);
    let head = common::git(&ws, &["rev-parse", "HEAD"]).trim().to_string();
    let v = ask();
    assert_eq!(v["provenance"]["knowledgeCommit"], head.as_str());
    let pinned = reads_of(&v);
    assert_eq!(pinned.len(), 1, "{}", v["nextToolCalls"]);
    assert!(
        pinned.iter().all(|r| r.4.as_deref() == Some(head.as_str())),
        "{pinned:?}"
    );
    commands_read(&v, 1);
    // Said once, as the next step; it keeps the place among the four reads that it had as an
    // entry (a fourth cited range there cost more excerpt sentences than the entry did).
    let repo = pinned[0].0.as_str();
    assert!(page_entries(&v, repo).is_empty(), "{}", v["filesToInspect"]);
    assert_eq!(code_entries(&v, repo), 3, "{}", v["filesToInspect"]);

    // The top section's page edited and not committed: no commit holds its lines, so no read
    // of them is offered (a read would show other lines).
    let top = pinned[0].1.clone();
    let page = ws.join(&top);
    let text = std::fs::read_to_string(&page).expect("page");
    std::fs::write(&page, format!("Draft.\n\n{text}")).expect("write");
    let v = ask();
    assert_eq!(v["topNodes"][0]["span"]["file"], top.as_str(), "{v}");
    assert!(reads_of(&v).is_empty(), "{}", v["nextToolCalls"]);
    commands_read(&v, 0);
    // The page is an entry then, with no commit: its lines as they are on disk.
    let span = &v["topNodes"][0]["span"];
    assert_eq!(
        page_entries(&v, repo),
        [(
            top.clone(),
            span["startLine"].as_u64().unwrap_or(0),
            span["endLine"].as_u64().unwrap_or(0),
            None
        )],
        "{}",
        v["filesToInspect"]
    );
}

/// A suggested search leaves out the copies packaging makes of a README or changelog
/// (`PKG-INFO`, `*.egg-info/`, `*.dist-info/`): in the stop-54 walk every hit came twice, once
/// from `CHANGELOG.md` and once from `PKG-INFO`. The shell line and the tool call search alike.
#[test]
fn a_suggested_search_leaves_out_packaging_copies() {
    let t = tempfile::tempdir().expect("tempdir");
    let words = "Zeroconf discovery finds peers on the local network.\n";
    let pin = common::repo_with_files(
        &t.path().join("app"),
        &[
            ("src/app.py", "def run():\n    return 1\n"),
            ("README.md", words),
            ("PKG-INFO", words),
            ("src/app.egg-info/PKG-INFO", words),
            ("app-1.0.dist-info/METADATA", words),
            ("docs/PKG-INFO.md", words),
        ],
    );
    let ws = t.path().join("ws");
    common::one_module(&ws, "acme", "app", "acme/app", &pin, "../app");
    common::one_page_citing(&ws, "acme/app", &[("run", "src/app.py:1-2")]);
    let v = json(&run_in(
        &ws,
        &["evidence", "--format", "json", "--", "zeroconf peers"],
    ));
    assert!(
        matches!(v["confidence"]["level"].as_str(), Some("none" | "low")),
        "{v}"
    );
    let line = (v["suggestedCommands"].as_array().into_iter().flatten())
        .filter_map(|c| c.as_str())
        .find(|c| c.contains(" search "))
        .unwrap_or_else(|| panic!("a search: {}", v["suggestedCommands"]))
        .to_string();
    let words = shlex::split(&line).expect("splits");
    let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    let r = run_in(&ws, &args);
    assert_eq!(r.code, 0, "{line}: {r:?}");
    let files: std::collections::BTreeSet<&str> = (r.stdout.lines())
        .filter_map(|l| l.split(':').next())
        .collect();
    assert_eq!(
        files.into_iter().collect::<Vec<_>>(),
        ["README.md", "docs/PKG-INFO.md"],
        "{line}: {}",
        r.stdout
    );
    // The tool call has the same globs as the line.
    let call = (v["nextToolCalls"].as_array().into_iter().flatten())
        .find(|c| c["tool"] == "search")
        .unwrap_or_else(|| panic!("a search call: {}", v["nextToolCalls"]));
    let globs: Vec<&str> = (call["arguments"]["glob"].as_array().into_iter().flatten())
        .filter_map(|g| g.as_str())
        .collect();
    let given: Vec<&str> = (args.windows(2))
        .filter(|w| w[0] == "-g")
        .map(|w| w[1])
        .collect();
    assert!(!globs.is_empty(), "{call}");
    assert_eq!(globs, given, "{call} {line}");
}

/// The question texts of a questions file (either shape).
fn question_texts(file: &Path) -> Vec<String> {
    let v: serde_json::Value =
        yaml_serde::from_str(&std::fs::read_to_string(file).expect("read")).expect("yaml");
    let list = v.get("questions").cloned().unwrap_or(v);
    list.as_array()
        .expect("a list")
        .iter()
        .filter_map(|q| {
            q.get("q")
                .or_else(|| q.get("query"))
                .and_then(|x| x.as_str())
                .map(str::to_string)
        })
        .collect()
}

#[test]
fn packs_stay_small_and_excerpts_quote_their_page_lines() {
    for (ws, qfile, step) in [
        (demo(), demo().join("questions.yaml"), 1),
        (
            testdata().join("corpora/fd/ws"),
            testdata().join("corpora/fd/questions.yaml"),
            3,
        ),
    ] {
        let t = tempfile::tempdir().expect("tempdir");
        let dir = t.path().join("ws");
        copy_dir(&ws, &dir);
        if ws.ends_with("fd/ws") {
            // ontoly.toml maps the sources to ../repo.git.
            copy_dir(&ws.join("../repo.git"), &t.path().join("repo.git"));
        }
        let (mut excerpts, mut multi_line, mut later) = (0, 0, 0);
        for q in question_texts(&qfile).iter().step_by(step) {
            let r = run_in(&dir, &["evidence", "--format", "json", "--", q]);
            assert_eq!(r.code, 0, "{q}: {r:?}");
            let v = json(&r);
            // The pack as an agent receives it (MCP structuredContent is compact JSON); the
            // CLI's indented rendering adds about a quarter.
            let compact = serde_json::to_string(&v).expect("serializes");
            // The question itself is not charged (`a_long_question_costs_the_pack_no_evidence`).
            let echoed = serde_json::to_string(q).expect("serializes");
            let echoed = echoed.trim_matches('"');
            let size = compact.len() - echoed.len() * compact.matches(echoed).count();
            assert!(size < 16 * 1024, "{q}: pack of {size} bytes");
            let sections =
                (v["topNodes"].as_array().into_iter().flatten()).filter(|n| n["type"] == "Section");
            for (rank, n) in sections.enumerate() {
                let Some(ex) = n["excerpt"].as_array() else {
                    continue;
                };
                excerpts += 1;
                // A section below the third carries its one best matching sentence (stop-54
                // MCP walk: the answer was in the fifth section, which had none).
                if rank >= 3 {
                    later += 1;
                    assert_eq!(ex.len(), 1, "{q}: {ex:?}");
                    let text = ex[0]["text"].as_str().unwrap_or("");
                    assert!(text.chars().count() <= 200, "{q}: {text}");
                }
                let total: usize = ex
                    .iter()
                    .map(|e| e["text"].as_str().unwrap_or("").chars().count())
                    .sum();
                assert!(total <= 600, "{q}: excerpt of {total} characters");
                let page = std::fs::read_to_string(dir.join(n["file"].as_str().expect("file")))
                    .expect("page");
                let lines: Vec<&str> = page.lines().collect();
                let (start, end) = (
                    n["span"]["startLine"].as_u64().unwrap_or(0),
                    n["span"]["endLine"].as_u64().unwrap_or(0),
                );
                for e in ex {
                    let line = e["line"].as_u64().expect("line");
                    let last = e["endLine"].as_u64().unwrap_or(line);
                    assert!(
                        line > start && last < end && line <= last,
                        "{q}: lines {line}-{last} outside {start}-{end}"
                    );
                    if e.get("endLine").is_some() {
                        multi_line += 1;
                        assert!(last > line, "{q}: endLine {last} given for one line");
                    }
                    // The lines an agent reads hold the sentence: its first word on the first,
                    // its last on the last, and every word in order in between.
                    let text = e["text"].as_str().unwrap_or("");
                    let quoted = lines[line as usize - 1..last as usize].join(" ");
                    let quoted = quoted.split_whitespace().collect::<Vec<_>>().join(" ");
                    let words: Vec<&str> = text.trim_end_matches('…').split_whitespace().collect();
                    let (first, tail) = (words[0], words[words.len() - 1]);
                    assert!(
                        lines[line as usize - 1].contains(first),
                        "{q}: line {line} {:?} does not hold {first:?}",
                        lines[line as usize - 1]
                    );
                    if !text.ends_with('…') {
                        assert!(
                            lines[last as usize - 1].contains(tail),
                            "{q}: line {last} {:?} does not end {text:?}",
                            lines[last as usize - 1]
                        );
                    }
                    let mut at = 0;
                    for w in &words {
                        let w = w.trim_end_matches('…');
                        match quoted[at..].find(w) {
                            Some(p) => at += p + w.len(),
                            None => panic!("{q}: {w:?} of {text:?} not in lines {line}-{last}"),
                        }
                    }
                }
            }
        }
        assert!(excerpts > 0);
        assert!(
            later > 0,
            "no section below the third has a sentence in {ws:?}"
        );
        assert!(multi_line > 0, "no excerpt sentence spans lines in {ws:?}");
    }
}

/// A pack over the 16 KB budget gives up excerpt sentences of its lower sections first, then
/// pinned reads after the first two, and says so in its own code; as sent from inside the
/// workspace, and the same from outside by a long path (which is not charged:
/// `the_workspace_path_costs_the_pack_no_evidence`).
#[test]
fn a_pack_over_its_budget_leaves_out_excerpts_then_reads_and_says_so() {
    let t = tempfile::tempdir().expect("tempdir");
    let long = "a-workspace-with-a-long-name-".repeat(7);
    let rel = format!("{long}/{long}/{long}");
    let dir = t.path().join(&rel).join("ws");
    let corpus = testdata().join("corpora/fd");
    copy_dir(&corpus.join("ws"), &dir);
    // ontoly.toml maps the sources to ../repo.git.
    copy_dir(
        &corpus.join("repo.git"),
        &t.path().join(&rel).join("repo.git"),
    );
    let rel = format!("{rel}/ws");
    // fd's longest packs (a weak match: fallbacks, searches, a wider pack) are over.
    let q = "why does fd put ./ in front of every path only when I use -x";
    let ask = |cwd: &Path, extra: &[&str]| {
        let mut args = vec!["evidence", "--format", "json"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--", q]);
        let r = run_in(cwd, &args);
        assert_eq!(r.code, 0, "{r:?}");
        json(&r)
    };
    let v = ask(&dir, &[]);
    let compact = serde_json::to_string(&v).expect("serializes");
    let echoed = serde_json::to_string(q).expect("serializes");
    let echoed = echoed.trim_matches('"');
    let size = compact.len() - echoed.len() * compact.matches(echoed).count();
    assert!(size < 16 * 1024, "pack of {size} bytes");
    let notes: Vec<&serde_json::Value> = (v["diagnostics"].as_array().into_iter().flatten())
        .filter(|d| d["code"] == "CAPABILITY_PACK_TRIMMED")
        .collect();
    assert_eq!(notes.len(), 1, "{}", v["diagnostics"]);
    let note = notes[0]["message"].as_str().unwrap_or("");
    assert!(
        note.starts_with("left out to keep the pack under 16 KB"),
        "{note}"
    );
    // The other code keeps the contract's meaning: more matched than the limit carries.
    for d in v["diagnostics"].as_array().into_iter().flatten() {
        if d["code"] == "CAPABILITY_EVIDENCE_TRUNCATED" {
            let m = d["message"].as_str().unwrap_or("");
            assert!(m.starts_with("the pack carries "), "{m}");
        }
    }
    let excerpts: Vec<usize> = v["topNodes"]
        .as_array()
        .expect("topNodes")
        .iter()
        .filter(|n| n["type"] == "Section")
        .map(|n| n["excerpt"].as_array().map_or(0, Vec::len))
        .collect();
    assert!(
        excerpts[0] >= 1,
        "the answer keeps its excerpt: {excerpts:?}"
    );
    let reads = v["filesToInspect"].as_array().map_or(0, Vec::len);
    // This one gives up sentences and a read: reads go only after the lower sections'
    // excerpts, and two always stay.
    assert!(!note.contains(", 0 pinned read(s)"), "{note}");
    assert!(excerpts[1..].iter().all(|&n| n == 0), "{excerpts:?}");
    assert!(reads >= 2, "{}", v["filesToInspect"]);
    // The same diagnostic in the capability's evidence.
    let r = run_in(
        &dir,
        &[
            "run",
            "EvidencePack",
            "--input",
            &serde_json::json!({ "query": q }).to_string(),
        ],
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains(note), "{}", r.stdout);
    // Asked from outside by a path of some 600 characters, the same pack but for the path.
    let far = ask(t.path(), &["--workspace", &rel]);
    assert_eq!(without_root(far), without_root(v.clone()));
    // A wider pack was asked for: a budget in proportion.
    let w = ask(&dir, &["--limit", "20"]);
    let compact = serde_json::to_string(&w).expect("serializes");
    let size = compact.len() - echoed.len() * compact.matches(echoed).count();
    assert!(size > 16 * 1024, "a pack of 20 at {size} bytes");
    assert!(size < 16 * 1024 * 20 / 12, "a pack of 20 at {size} bytes");
}

/// The pack without the workspace's path: `provenance.root` and `--workspace <root>` in the
/// next commands and fallbacks (the path has no characters a shell quotes).
fn without_root(mut v: serde_json::Value) -> serde_json::Value {
    let root = v["provenance"]["root"].as_str().unwrap_or("").to_string();
    let arg = format!(" --workspace {root}");
    v["provenance"]["root"] = serde_json::json!("");
    for key in ["suggestedCommands", "fallbacks"] {
        for c in v[key].as_array_mut().into_iter().flatten() {
            if let Some(s) = c.as_str() {
                *c = serde_json::json!(s.replace(&arg, ""));
            }
        }
    }
    v
}

/// What a pack keeps does not depend on the path the workspace is opened by (the httpx MCP
/// walk, stop 54: the server's absolute path left out an excerpt sentence that the CLI, asked
/// from a short path, kept): from inside, by a short path and by a very long one (a symlink
/// under a deep directory, as a CI checkout), the same pack but for the path.
#[test]
fn the_workspace_path_costs_the_pack_no_evidence() {
    let t = tempfile::tempdir().expect("tempdir");
    let dir = t.path().join("ws");
    copy_dir(&demo(), &dir);
    let deep = "a-deep-checkout-directory-of-ci-".repeat(6);
    let parent = t.path().join(&deep).join(&deep).join(&deep);
    std::fs::create_dir_all(&parent).expect("mkdir");
    std::os::unix::fs::symlink(&dir, parent.join("ws")).expect("symlink");
    let long = format!("{deep}/{deep}/{deep}/ws");
    for q in [
        "checkout payment retry backoff card declined idempotency key timeout",
        "how does the checkout retry a declined card",
        "quantum entanglement",
    ] {
        let ask = |cwd: &Path, root: Option<&str>| {
            let mut args = root.map_or(vec![], |r| vec!["--workspace", r]);
            args.extend_from_slice(&["evidence", "--format", "json", "--", q]);
            let r = run_in(cwd, &args);
            assert_eq!(r.code, 0, "{r:?}");
            json(&r)
        };
        let inside = ask(&dir, None);
        let short = ask(t.path(), Some("ws"));
        let far = ask(t.path(), Some(&long));
        assert_eq!(far["provenance"]["root"], long.as_str());
        assert_eq!(without_root(short.clone()), without_root(inside), "{q}");
        assert_eq!(without_root(short), without_root(far), "{q}");
    }
}

/// The question is the asker's own: repeated in the pack (`query`, a wider pack's next step),
/// it costs the pack no evidence (a pasted 108 KB log left out every excerpt but one in the
/// stop-44 MCP walk), and a message names an overlong word of it cut short.
#[test]
fn a_long_question_costs_the_pack_no_evidence() {
    let t = tempfile::tempdir().expect("tempdir");
    let dir = t.path().join("ws");
    copy_dir(&demo(), &dir);
    let q = "checkout payment retry backoff card declined idempotency key timeout";
    // The same words forty times over, then a blob: the words of the question are its own
    // (glued together, `timeoutcheckout` is a word of its own and a question of its own).
    let long = format!("{}{}", format!("{q} ").repeat(40), "x".repeat(5000));
    let ask = |q: &str| json(&run_in(&dir, &["evidence", "--format", "json", "--", q]));
    let (short, long_pack) = (ask(q), ask(&long));
    assert_eq!(long_pack["query"], long.as_str());
    // The long question makes the pack weak: fallbacks, searches and a wider pack's command,
    // each charged its workspace path at 64 bytes, and a longer explanation. Those, not the
    // question, take the room of later sections' sentences, the third's and (since the top
    // section's page read is a next step too, stop 55) one of the second's; the best section
    // keeps its, and the second one at least, as they did before the question was not charged
    // (a pasted 108 KB log then left one sentence in all).
    let sections = |v: &serde_json::Value| -> Vec<(String, usize)> {
        (v["topNodes"].as_array().into_iter().flatten())
            .filter(|n| n["type"] == "Section")
            .map(|n| {
                let excerpt = n["excerpt"].as_array().map_or(0, Vec::len);
                (n["id"].as_str().unwrap_or("").to_string(), excerpt)
            })
            .collect()
    };
    let (s, l) = (sections(&short), sections(&long_pack));
    assert_eq!(s.len(), l.len());
    assert_eq!(s[..1], l[..1]);
    assert!(l[1].1 >= 1 && l[1].1 <= s[1].1, "{s:?} {l:?}");
    let ids = |v: &[(String, usize)]| v.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&s), ids(&l));
    assert_eq!(short["filesToInspect"], long_pack["filesToInspect"]);
    let why = long_pack["confidence"]["explanation"]
        .as_str()
        .unwrap_or("");
    assert!(why.contains("… (5000 characters)"), "{why}");
    assert!(!why.contains(&"x".repeat(41)), "{why}");
}

/// A page with a marker error contributes no sections (the spec): a section it lists is still
/// a node of the graph, but SectionEvidence says its page is broken instead of `high`.
#[test]
fn section_evidence_of_a_page_with_marker_errors_carries_them() {
    let t = tempfile::tempdir().expect("tempdir");
    let ws = t.path().join("ws");
    copy_dir(&fixtures().join("valid"), &ws);
    let page = ws.join("knowledge/faq/guide.md");
    let text = std::fs::read_to_string(&page).expect("page");
    std::fs::write(
        &page,
        text.replacen("<!-- context:section id=\"setup\" -->\n", "", 1),
    )
    .expect("write");
    let input = serde_json::json!({ "section": "section:faq/guide.md#setup" }).to_string();
    let r = run_in(
        &ws,
        &[
            "--no-cache",
            "run",
            "SectionEvidence",
            "--input",
            &input,
            "--format",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{r:?}");
    let v = json(&r);
    assert_eq!(v["confidence"]["level"], "medium", "{}", v["confidence"]);
    assert!(
        v["confidence"]["explanation"]
            .as_str()
            .unwrap_or("")
            .contains("its page has errors and gives it no text: Unmatched section end"),
        "{}",
        v["confidence"]
    );
    assert!(
        v["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|d| d["code"] == "MARKER_ERROR"),
        "{}",
        v["diagnostics"]
    );
}

#[test]
fn a_broken_workspace_answers_with_its_errors() {
    let t = tempfile::tempdir().expect("tempdir");
    let ws = t.path().join("ws");
    copy_dir(&fixtures().join("valid"), &ws);
    let page = ws.join("knowledge/faq/guide.md");
    let text = std::fs::read_to_string(&page).expect("page");
    // Break the front matter of the page that answers the question.
    std::fs::write(&page, text.replacen("title:", "title: [unclosed\nx:", 1)).expect("write");
    let r = run_in(
        &ws,
        &[
            "--no-cache",
            "evidence",
            "--format",
            "json",
            "how are plugins loaded?",
        ],
    );
    assert_eq!(r.code, 0, "{r:?}");
    let v = json(&r);
    let codes: Vec<&str> = v["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["severity"] == "error")
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert!(codes.contains(&"YAML_INVALID"), "{}", v["diagnostics"]);
    assert_ne!(v["confidence"]["level"], "high");
    // The answer says it too: an agent may read nothing else.
    assert!(
        v["answer"].as_str().is_some_and(|a| a.ends_with(
            " The workspace has 1 error, YAML_INVALID at knowledge/faq/guide.md:3: this answer \
             comes from what is left of it (`ontoly validate` lists them)."
        )),
        "{}",
        v["answer"]
    );
    let r = run_in(
        &ws,
        &[
            "--no-cache",
            "evidence",
            "how are plugins loaded?",
            "--fail-on-low-evidence",
        ],
    );
    assert_eq!(r.code, 3, "{r:?}");
    // The text names where the error is, as validate does.
    assert!(
        r.stdout.contains(
            "[error] knowledge/faq/guide.md:3: YAML_INVALID: Invalid YAML front matter: "
        ),
        "{}",
        r.stdout
    );

    // A page the structure lists but that does not exist.
    std::fs::write(&page, &text).expect("restore");
    std::fs::remove_file(ws.join("knowledge/api/plugins.md")).expect("remove");
    let r = run_in(
        &ws,
        &[
            "--no-cache",
            "evidence",
            "--format",
            "json",
            "plugin overview",
        ],
    );
    let v = json(&r);
    assert!(
        v["diagnostics"]
            .to_string()
            .contains("ARTICLE_PAGE_MISSING"),
        "{}",
        v["diagnostics"]
    );
    let r = run_in(
        &ws,
        &[
            "--no-cache",
            "evidence",
            "plugin overview",
            "--fail-on-low-evidence",
        ],
    );
    assert_eq!(r.code, 3, "{r:?}");
}

fn questions(dir: &Path, text: &str) -> String {
    let p = dir.join("q.yaml");
    std::fs::write(&p, text).expect("write");
    p.to_string_lossy().into_owned()
}

#[test]
fn check_reads_the_corpus_shape_and_reports_metrics() {
    let t = tempfile::tempdir().expect("tempdir");
    let text = "# corpus shape\n- q: how are plugins loaded?\n  expect: [guide#answer]\n- q: \"--engine kubernetes helm zookeeper\"\n  expect: []\n";
    let v = json(&check_valid(t.path(), text, "json"));
    assert_eq!(v["total"], 2, "{v}");
    assert_eq!(v["outcomes"][0]["answerable"], true);
    assert_eq!(v["outcomes"][0]["rank"], 1, "{v}");
    assert_eq!(v["outcomes"][1]["answerable"], false);
    let m = &v["metrics"];
    assert_eq!(m["answerable"], 1);
    assert_eq!(m["unanswerable"], 1);
    assert_eq!(m["top1"], 1);
    assert_eq!(m["top3"], 1);
    assert_eq!(m["flagged"], 1, "{m}");
    assert_eq!(m["top1Rate"], 1.0);
    let r = check_valid(t.path(), text, "text");
    assert!(r.stdout.contains("top-1 1/1"), "{}", r.stdout);
    assert!(r.stdout.contains("flagged 1/1"), "{}", r.stdout);

    // An expected section that does not exist fails its question, by name.
    let r = check_valid(
        t.path(),
        "- q: how are plugins loaded?\n  expect: [guide#nope]\n",
        "text",
    );
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stdout.contains("guide#nope"), "{}", r.stdout);
}

#[test]
fn questions_file_errors_name_the_problem() {
    let t = tempfile::tempdir().expect("tempdir");
    let f = fixtures();
    let check = |q: &str| {
        run_in(
            &f,
            &[
                "--workspace",
                "valid",
                "--no-cache",
                "check",
                "--questions",
                q,
            ],
        )
    };
    let q = questions(
        t.path(),
        "questions:\n  - query: how are plugins loaded?\n    expected_sectons: [faq/guide.md#answer]\n",
    );
    let r = check(&q);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("expected_sectons"), "{}", r.stderr);
    assert!(r.stderr.contains("line 3"), "{}", r.stderr);
    for empty in ["", "# only a comment\n", "questions: []\n", "[]\n"] {
        let r = check(&questions(t.path(), empty));
        assert_eq!(r.code, 2, "{empty:?}: {r:?}");
        assert!(
            r.stderr.contains("no questions") || r.stderr.contains("empty"),
            "{r:?}"
        );
    }
    let r = check(&t.path().join("missing.yaml").to_string_lossy());
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("does not exist"), "{}", r.stderr);
    let r = check(&questions(t.path(), "- q: [unclosed\n"));
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("invalid YAML"), "{}", r.stderr);
    // Every item's error in one run, in file order: an author fixes them all at once.
    let q = questions(
        t.path(),
        "- q: fine\n- q: x\n  answerable: maybe\n- q: \"\"\n- q: y\n  expected_sectons: [a#b]\n",
    );
    let r = check(&q);
    assert_eq!(r.code, 2, "{r:?}");
    let errors: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("error: "))
        .collect();
    assert_eq!(errors.len(), 3, "{}", r.stderr);
    for (e, at) in errors.iter().zip([
        "line 3: question 2:",
        "line 4: question 3:",
        "line 6: question 4:",
    ]) {
        assert!(e.contains(at), "{e}");
    }
    // In a CI format, one annotation each (without a place: the file is outside the
    // repository).
    let github = run_in(
        &f,
        &[
            "--workspace",
            "valid",
            "--no-cache",
            "check",
            "--questions",
            &q,
            "--format",
            "github",
        ],
    );
    let annotations: Vec<&str> = github
        .stdout
        .lines()
        .filter(|l| l.starts_with("::error "))
        .collect();
    assert_eq!(annotations.len(), 3, "{}", github.stdout);
    assert!(
        annotations[2].contains("line 6: question 4: unknown key `expected_sectons`"),
        "{}",
        github.stdout
    );
    // A file wrong everywhere is told in part, the rest counted.
    let many: String = (0..30)
        .map(|i| format!("- q: q{i}\n  answerable: maybe\n"))
        .collect();
    let r = check(&questions(t.path(), &many));
    assert_eq!(
        r.stderr
            .lines()
            .filter(|l| l.starts_with("error: "))
            .count(),
        21,
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("and 10 more error(s)"), "{}", r.stderr);
}

/// An item whose expected section does not exist is told with the file's parse errors, each at
/// its own line, in file order: a file with both kinds of mistake is fixed in one run, not the
/// parse errors first and the sections in the run after (re-walk, stop 52).
#[test]
fn missing_expected_sections_are_told_with_the_parse_errors() {
    let t = tempfile::tempdir().expect("tempdir");
    copy_dir(&fixtures().join("valid"), &t.path().join("valid"));
    // A repository, so that annotations are placed at the file's lines.
    common::git(t.path(), &["init", "-q", "-b", "main"]);
    std::fs::write(
        t.path().join("q.yaml"),
        "- q: how are plugins loaded?\n  expect: [guide#answer]\n- q: x\n  answerable: maybe\n- q: how are plugins loaded?\n  expect: [guide#nope]\n- q: y\n  expected_sectons: [a#b]\n- q: how is the server set up?\n  expect:\n    - guide#setup\n    - guide#answr\n",
    )
    .expect("write");
    let check = |format: &str| {
        run_in(
            t.path(),
            &[
                "--workspace",
                "valid",
                "--no-cache",
                "check",
                "--questions",
                "q.yaml",
                "--format",
                format,
            ],
        )
    };
    let r = check("text");
    assert_eq!(r.code, 2, "{r:?}");
    let errors: Vec<&str> = (r.stderr.lines())
        .filter(|l| l.starts_with("error: "))
        .collect();
    assert_eq!(
        errors,
        [
            "error: q.yaml: line 4: question 2: `answerable` must be true or false",
            "error: q.yaml: line 6: question 3: expected section guide#nope (did you mean guide#answer?) does not exist in this workspace",
            "error: q.yaml: line 8: question 4: unknown key `expected_sectons` (known: question/query/q, expect/expected/expected_sections/sections, answerable, known_failure, id, note, notes, tags)",
            "error: q.yaml: line 12: question 5: expected section guide#answr (did you mean guide#answer?) does not exist in this workspace",
        ],
        "{}",
        r.stderr
    );
    // One annotation each, at its line.
    let github = check("github");
    assert_eq!(github.code, 2, "{github:?}");
    insta::assert_snapshot!("check_questions_mixed_errors_github", github.stdout);
    // The expected sections of items that parse, and nothing else, are checked: a file with
    // parse errors alone is told as before.
    std::fs::write(
        t.path().join("q.yaml"),
        "- q: how are plugins loaded?\n  expect: [guide#answer]\n- q: x\n  answerable: maybe\n",
    )
    .expect("write");
    let r = check("text");
    assert_eq!(
        (r.stderr.lines())
            .filter(|l| l.starts_with("error: "))
            .collect::<Vec<_>>(),
        ["error: q.yaml: line 4: question 2: `answerable` must be true or false"],
        "{}",
        r.stderr
    );
}

/// `check` on the `valid` fixture with a questions file holding `text`, in `format`.
fn check_valid(dir: &Path, text: &str, format: &str) -> Run {
    let q = questions(dir, text);
    run_in(
        &fixtures(),
        &[
            "--workspace",
            "valid",
            "--no-cache",
            "check",
            "--questions",
            &q,
            "--format",
            format,
        ],
    )
}

#[test]
fn a_known_failure_is_accepted_until_it_passes() {
    let t = tempfile::tempdir().expect("tempdir");
    let check = |text: &str, format: &str| check_valid(t.path(), text, format);
    // Fails today (a confident answer to a question marked unanswerable), marked known: the
    // gate passes, says so, and still measures it.
    let failing = "- q: how are plugins loaded?\n  answerable: false\n  known_failure: \"issue 8: lexical match\"\n- q: how are plugins loaded?\n  expect: [guide#answer]\n";
    let r = check(failing, "text");
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("KNOWN"), "{}", r.stdout);
    assert!(r.stdout.contains("issue 8: lexical match"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("2 question(s): 2 passed (1 known failure), 0 failed"),
        "{}",
        r.stdout
    );
    let v = json(&check(failing, "json"));
    assert_eq!(v["known"], 1, "{v}");
    assert_eq!(v["outcomes"][0]["knownFailure"], "issue 8: lexical match");
    assert_eq!(v["metrics"]["flagged"], 0, "still measured: {v}");
    let junit = check(failing, "junit").stdout;
    assert!(junit.contains("skipped=\"1\""), "{junit}");
    assert!(
        junit.contains("<skipped message=\"known failure: issue 8"),
        "{junit}"
    );

    // The same marker on a question that passes fails the gate until it is removed.
    let r = check(
        "- q: how are plugins loaded?\n  expect: [guide#answer]\n  known_failure: flaky\n",
        "text",
    );
    assert_eq!(r.code, 3, "{r:?}");
    // The reason at the question's place in the file.
    assert!(r.stdout.contains("q.yaml:1: passes now"), "{}", r.stdout);
    assert!(r.stdout.contains("remove the marker"), "{}", r.stdout);

    // A marker must say why.
    for bad in ["\"\"", "true", "[a]"] {
        let r = check(
            &format!("- q: how are plugins loaded?\n  known_failure: {bad}\n"),
            "text",
        );
        assert_eq!(r.code, 2, "{bad}: {r:?}");
        assert!(r.stderr.contains("known_failure"), "{}", r.stderr);
        // At the marker's line, not the question's.
        assert!(r.stderr.contains("line 2"), "{}", r.stderr);
    }
}

#[test]
fn a_known_failure_is_a_note_at_its_line_in_sarif_and_github() {
    let t = tempfile::tempdir().expect("tempdir");
    let text = "- q: how are plugins loaded?\n  expect: [guide#answer]\n- q: how are plugins loaded?\n  answerable: false\n  known_failure: \"lexical match\"\n";
    let run = |format: &str| check_valid(t.path(), text, format);
    let gh = run("github");
    assert_eq!(gh.code, 0, "{gh:?}");
    // The questions file is outside the repository (a temporary directory): the note names
    // it and its line in the message rather than as a file of the repository.
    let notes: Vec<&str> = gh
        .stdout
        .lines()
        .filter(|l| l.starts_with("::notice ") && l.contains("known failure ("))
        .collect();
    assert_eq!(notes.len(), 1, "{}", gh.stdout);
    assert!(notes[0].contains("q.yaml:3: "), "{}", notes[0]);
    assert!(
        notes[0].contains("known failure (lexical match)"),
        "{}",
        notes[0]
    );
    assert!(!gh.stdout.contains("::error"), "{}", gh.stdout);
    let sarif = json(&run("sarif"));
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 1, "{sarif}");
    assert_eq!(results[0]["ruleId"], "CHECK_KNOWN_FAILURE");
    assert_eq!(results[0]["level"], "note");
}

#[test]
fn a_corrected_word_is_named_as_a_word_not_as_its_stem() {
    let t = tempfile::tempdir().expect("tempdir");
    let dir = t.path().join("ws");
    copy_dir(&demo(), &dir);
    for (q, read) in [
        ("how are paymnets retried", "read paymnets as payments"),
        (
            "configuraton of the shop",
            "read configuraton as configuration",
        ),
    ] {
        let v = json(&run_in(&dir, &["evidence", "--format", "json", q]));
        let why = v["confidence"]["explanation"].as_str().unwrap_or("");
        assert!(why.contains(read), "{q}: {why}");
    }
}

/// A pack that matched nothing offers searches of the cited repositories at the commits the
/// workspace cites them at, not at their branches (which may have moved past what the pages
/// describe): the same commit a pinned read of that repository names.
#[test]
fn fallback_searches_are_at_the_cited_commits() {
    let t = tempfile::tempdir().expect("tempdir");
    let ws = t.path().join("demo");
    copy_dir(&demo(), &ws);
    let pack = |q: &str| {
        let r = run_in(&ws, &["evidence", "--format", "json", q]);
        assert_eq!(r.code, 0, "{r:?}");
        json(&r)
    };
    // Each repository's commits that pinned reads name (shop-worker is cited at two).
    let mut pinned: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for q in [
        "How does the checkout service retry failed payments?",
        "How do background worker jobs run?",
    ] {
        for f in pack(q)["filesToInspect"].as_array().into_iter().flatten() {
            let repo = f["repository"].as_str().unwrap_or("");
            let Some(repo) = repo.strip_prefix("github.com/") else {
                continue; // the workspace's own repository: its pages
            };
            let commits = pinned.entry(repo.to_string()).or_default();
            commits.extend(f["commit"].as_str().map(String::from));
        }
    }
    assert_eq!(pinned.len(), 2, "{pinned:?}");
    let none = pack("zookeeper quorum election");
    assert_eq!(none["confidence"]["level"], "none", "{none}");
    let searches: Vec<Vec<String>> = none["suggestedCommands"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| shlex::split(l.as_str()?))
        .filter(|w| w.get(1).is_some_and(|c| c == "search"))
        .collect();
    assert_eq!(searches.len(), pinned.len(), "{none}");
    for words in &searches {
        let after = |flag: &str| {
            let i = words.iter().position(|w| w == flag)?;
            words.get(i + 1).cloned()
        };
        let repo = after("--repo").expect("--repo");
        let rev = after("--rev").expect("--rev");
        assert!(pinned[&repo].contains(&rev), "{words:?} {pinned:?}");
    }
    for call in none["nextToolCalls"].as_array().into_iter().flatten() {
        let args = &call["arguments"];
        let repo = args["repository"].as_str().unwrap_or("");
        let rev = args["revision"].as_str().unwrap_or("").to_string();
        assert!(pinned[repo].contains(&rev), "{call} {pinned:?}");
    }
    // A weak pack searches for the words its top section leaves unmatched (the stop-44 MCP
    // walk made each such search up itself), after its other next steps; a confident one
    // has no search.
    let low = pack("does checkout support apple pay wallets");
    assert_eq!(low["confidence"]["level"], "low", "{low}");
    let calls: Vec<&serde_json::Value> = (low["nextToolCalls"].as_array().into_iter().flatten())
        .filter(|c| c["tool"] == "search")
        .collect();
    assert_eq!(calls.len(), pinned.len(), "{low}");
    for c in calls {
        let pattern = c["arguments"]["pattern"].as_str().unwrap_or("");
        assert!(pattern.contains("wallets"), "{pattern}");
        assert!(
            pattern.starts_with(r"\b") && pattern.ends_with(r"\b"),
            "{pattern}"
        );
        assert!(!pattern.contains("checkout"), "matched: {pattern}");
    }
    // First the top section's page lines, then its evidence; its first cited range is read
    // after its references, as `Next:` has it.
    assert_eq!(low["nextToolCalls"][0]["tool"], "read", "{low}");
    assert_eq!(low["nextToolCalls"][1]["tool"], "capability", "{low}");
    assert_eq!(low["nextToolCalls"][3]["tool"], "read", "{low}");
    // Whole words only, as the question writes them, and no everyday word when it has a
    // rarer one, no number (stop-54 walk: `quic` matched only `QuickStart`; `oauth2|auth2|automatic`
    // found decompression for a question about OAuth2).
    let rare = pack("does checkout support OAuth2 automatic wallets for 1000 shoppers");
    assert_eq!(rare["confidence"]["level"], "low", "{rare}");
    let patterns: Vec<&str> = (rare["nextToolCalls"].as_array().into_iter().flatten())
        .filter(|c| c["tool"] == "search")
        .filter_map(|c| c["arguments"]["pattern"].as_str())
        .collect();
    assert_eq!(patterns.len(), pinned.len(), "{rare}");
    for p in &patterns {
        assert_eq!(*p, r"\boauth2\b", "{rare}");
    }
    let high = pack("How does the checkout service retry failed payments?");
    assert_ne!(high["confidence"]["level"], "low", "{high}");
    assert!(!high["nextToolCalls"]
        .to_string()
        .contains("\"tool\":\"search\""));
}

/// Author walk s54: a page opening with a code sample had a `# comment` of the sample as its
/// title and its section's, in every pack and graph. Titles are read outside code fences, as
/// markers are, and as a reader sees them (setext, HTML headings; attribute lists, inline
/// HTML and link markup left out).
#[test]
fn titles_are_headings_outside_code_as_people_read_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = dir.path().join("ws");
    copy_dir(&fixtures().join("valid"), &ws);
    std::fs::write(
        ws.join("knowledge/fenced.md"),
        "Intro text.\n\n```bash\n# install it\npip install x\n```\n\n# Real page title\n\n<!-- context:section id=\"s\" -->\n~~~yaml\n# markdown_extensions:\n~~~\n## Real section title {: #real }\nBody.\n<!-- /context:section -->\n\n<!-- context:section id=\"setext\" -->\n[Linked](api/plugins.md) <em>setext</em> title\n---\nBody.\n<!-- /context:section -->\n\n<!-- context:section id=\"listed\" -->\n1. Install\n\n   ## A step, not a title\n\n> ## A callout, not a title\n\n## Listed title\n<!-- /context:section -->\n",
    )
    .expect("page");
    let structure = std::fs::read_to_string(ws.join("knowledge/structure.yaml")).expect("read");
    let structure = structure.replace(
        "processed_scopes: []",
        "  - article_id: fenced\n    path: fenced.md\n    sections:\n      - id: s\n        references: []\n      - id: setext\n        references: []\n      - id: listed\n        references: []\nprocessed_scopes: []",
    );
    std::fs::write(ws.join("knowledge/structure.yaml"), structure).expect("structure");
    let r = run_in(
        &ws,
        &[
            "--no-cache",
            "graph",
            "--focus",
            "article:fenced.md",
            "--depth",
            "1",
            "--format",
            "json",
        ],
    );
    assert_eq!(r.code, 0, "{r:?}");
    let names: std::collections::BTreeMap<String, String> = json(&r)["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .filter_map(|n| {
            Some((
                n["id"].as_str()?.to_string(),
                n["name"].as_str()?.to_string(),
            ))
        })
        .collect();
    assert_eq!(names["article:fenced.md"], "Real page title", "{names:?}");
    assert_eq!(
        names["section:fenced.md#s"], "Real section title",
        "{names:?}"
    );
    assert_eq!(
        names["section:fenced.md#setext"], "Linked setext title",
        "{names:?}"
    );
    // A heading of a list item or a quote is theirs, not the section's.
    assert_eq!(
        names["section:fenced.md#listed"], "Listed title",
        "{names:?}"
    );
}
