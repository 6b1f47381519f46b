//! C and C++ sources through the CLI, in a repository the test creates: the definitions behind
//! cited ranges name the sections' symbols in evidence packs, a header's prototypes are
//! symbols, `cites --symbol` finds a C++ method, a sanitizer's trace raises the section citing its
//! innermost frame, and drift and impact name the C function that
//! changed and the C++ method that moved into a header.

mod common;

use common::{git, one_module, one_page_citing, repo_with_files, run_in, Run};
use serde_json::Value;

fn json(r: &Run) -> Value {
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {r:?}"))
}

const PARSER_V1: &str = r#"#include <stdio.h>
#include "parser.h"

static int depth;

/* Parses the whole input. */
int yyparse(void)
{
    depth = 0;
    return 0;
}

static const char *token_name(int token)
{
    return token ? "token" : "end of file";
}
"#;

/// `PARSER_V1` with a function added above `yyparse` (which moves, unchanged) and
/// `token_name` changed inside.
const PARSER_V2: &str = r#"#include <stdio.h>
#include "parser.h"

static int depth;

/* Starts again from the top. */
static void reset(void)
{
    depth = 0;
}

/* Parses the whole input. */
int yyparse(void)
{
    depth = 0;
    return 0;
}

static const char *token_name(int token)
{
    if (token < 0)
        return "error";
    return token ? "token" : "end of file";
}
"#;

const PARSER_H: &str = "#ifndef PARSER_H\n#define PARSER_H\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\nint yyparse(void);\nvoid yyerror(const char *message);\n\n#ifdef __cplusplus\n}\n#endif\n#endif\n";

/// `WIDGET_CPP`'s method, moved into a C++ header (a `.h`, C by its extension).
const WIDGET_H: &str = "#pragma once\n\nnamespace ui {\n\nclass Widget {\npublic:\n    void draw(Canvas& canvas) const;\n\nprivate:\n    Rect bounds_;\n};\n\ninline void Widget::draw(Canvas& canvas) const\n{\n    canvas.fill(bounds_);\n}\n\n}  // namespace ui\n";

const WIDGET_CPP: &str = "#include \"widget.hpp\"\n\nnamespace ui {\n\nvoid Widget::draw(Canvas& canvas) const\n{\n    canvas.fill(bounds_);\n}\n\n}  // namespace ui\n";

#[test]
fn c_and_cpp_functions_are_named_in_packs_cites_and_drift() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path().join("repo");
    let base = repo_with_files(
        &repo,
        &[
            ("src/parser.c", PARSER_V1),
            ("include/parser.h", PARSER_H),
            ("src/widget.cpp", WIDGET_CPP),
        ],
    );
    let ws = dir.path().join("ws");
    one_module(&ws, "acme", "calc", "acme/calc", &base, "../repo");
    one_page_citing(
        &ws,
        "acme/calc",
        &[
            ("parse", "src/parser.c:6-11"),
            ("tokens", "src/parser.c:13-16"),
            ("api", "include/parser.h:8-9"),
            ("draw", "src/widget.cpp:5-8"),
        ],
    );
    // Each section's pack names the definitions its range holds.
    for (question, section, symbols) in [
        ("how does yyparse parse the input", "parse", "yyparse"),
        ("how does a widget draw itself", "draw", "ui::Widget::draw"),
    ] {
        let pack = json(&run_in(&ws, &["evidence", question, "--format", "json"]));
        assert_eq!(
            pack["topNodes"][0]["id"],
            format!("section:q.md#{section}"),
            "{question}: {}",
            pack["answer"]
        );
        let answer = pack["answer"].as_str().unwrap_or_default();
        assert!(
            answer.contains(&format!("Symbols: {symbols}.")),
            "{question}: {answer}"
        );
    }
    // A sanitizer's trace through the cited code raises the section citing its innermost
    // frame's line; the asker's `main.c` and the C library are the trace's structure. The
    // pages say what the trace says, `tokens` more of it than `parse`.
    let page = std::fs::read_to_string(ws.join("knowledge/q.md")).expect("page");
    let page = page
        .replacen(
            "## parse\n\nIt works.",
            "## parse\n\nA stack buffer overflow: the parser overflows a buffer.",
            1,
        )
        .replacen(
            "## tokens\n\nIt works.",
            "## tokens\n\nA stack buffer overflow on WRITE: the parser overflows a buffer.",
            1,
        );
    std::fs::write(ws.join("knowledge/q.md"), page).expect("page");
    let sections = |query: &str| -> Vec<String> {
        let pack = json(&run_in(&ws, &["evidence", query, "--format", "json"]));
        (pack["topNodes"].as_array().into_iter().flatten())
            .filter(|n| {
                n["id"]
                    .as_str()
                    .is_some_and(|id| id.starts_with("section:"))
            })
            .filter_map(|n| n["id"].as_str().map(str::to_string))
            .collect()
    };
    let words = "ERROR: AddressSanitizer: stack-buffer-overflow on address 0x7ffc at pc 0x4c7a1b\nWRITE of size 4 at 0x7ffc thread T0";
    assert_eq!(
        sections(words).first().map(String::as_str),
        Some("section:q.md#tokens")
    );
    let asan = format!("==4242=={words}\n    #0 0x4c7a1b in yyparse /build/calc/src/parser.c:9:11\n    #1 0x4c7c10 in main /build/calc/app/main.c:5:3\n    #2 0x7f2b1c829d8f in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58:16\n==4242==ABORTING");
    assert_eq!(
        sections(&asan).first().map(String::as_str),
        Some("section:q.md#parse")
    );
    // A header range over prototypes overlaps both functions' symbols.
    let g = json(&run_in(
        &ws,
        &[
            "graph",
            "include/parser.h:8-9",
            "--depth",
            "1",
            "--format",
            "json",
        ],
    ));
    let mut overlaps: Vec<&str> = (g["edges"].as_array().into_iter().flatten())
        .filter(|e| e["type"] == "OVERLAPS")
        .filter_map(|e| e["to"].as_str())
        .filter_map(|to| to.rsplit_once('#').map(|(_, s)| s))
        .collect();
    overlaps.sort_unstable();
    assert_eq!(
        overlaps,
        ["function:yyerror@L9-L9", "function:yyparse@L8-L8"],
        "{g}"
    );
    let found = json(&run_in(
        &ws,
        &["cites", "--symbol", "Widget::draw", "--format", "json"],
    ));
    let sections: Vec<&str> = (found["data"]["sections"].as_array().into_iter().flatten())
        .filter_map(|s| s["section"].as_str())
        .collect();
    assert_eq!(sections, ["section:q.md#draw"], "{found}");

    // A later commit moves `yyparse` down, changes `token_name` and moves `Widget::draw`
    // into a header.
    std::fs::write(repo.join("src/parser.c"), PARSER_V2).expect("write");
    std::fs::remove_file(repo.join("src/widget.cpp")).expect("rm");
    std::fs::write(repo.join("include/widget.h"), WIDGET_H).expect("write");
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "two"]);
    let v = json(&run_in(&ws, &["drift", "--format", "json"]));
    let of = |section: &str| -> Value {
        (v["references"].as_array().into_iter().flatten())
            .find(|r| r["sectionId"] == section)
            .cloned()
            .unwrap_or_else(|| panic!("{section}: {v}"))
    };
    let parse = of("parse");
    assert_eq!(
        (
            &parse["status"],
            &parse["newStartLine"],
            &parse["newEndLine"]
        ),
        (&Value::from("moved"), &Value::from(12), &Value::from(17)),
        "{parse}"
    );
    let tokens = of("tokens");
    assert_eq!(tokens["status"], "changed", "{tokens}");
    assert_eq!(tokens["symbol"]["qualified"], "token_name", "{tokens}");
    assert_eq!(
        (
            &tokens["suggestion"]["startLine"],
            &tokens["suggestion"]["endLine"]
        ),
        (&Value::from(19), &Value::from(24)),
        "{tokens}"
    );
    let draw = of("draw");
    assert_eq!(draw["status"], "missing", "{draw}");
    assert_eq!(draw["symbol"]["qualified"], "ui::Widget::draw", "{draw}");
    assert_eq!(draw["suggestion"]["path"], "include/widget.h", "{draw}");
    assert_eq!(
        (
            &draw["suggestion"]["startLine"],
            &draw["suggestion"]["endLine"]
        ),
        (&Value::from(13), &Value::from(16)),
        "{draw}"
    );
    let text = run_in(&ws, &["drift"]).stdout;
    assert!(
        text.contains("function `token_name` was at src/parser.c:13-16, now at src/parser.c:19-24"),
        "{text}"
    );
    assert!(
        text.contains(
            "method `ui::Widget::draw` was at src/widget.cpp:5-8, now at include/widget.h:13-16"
        ),
        "{text}"
    );
    let impact = run_in(&ws, &["impact", "--from", &base, "--to", "main"]).stdout;
    assert!(
        impact.contains("src/parser.c:13-16 in function `token_name` touched via range")
            && impact.contains("src/widget.cpp:5-8 in method `ui::Widget::draw` is deleted"),
        "{impact}"
    );
}

/// jq 1.7's `main.c`: one body under two alternative headers (`#ifdef WIN32 … #else … #endif`).
const MAIN_PER_PLATFORM: &str = "#include <stdio.h>\n\n#ifdef WIN32\nint umain(int argc, char* argv[]);\n\nint wmain(int argc, wchar_t* wargv[]) {\n  return umain(argc, 0);\n}\n\nint umain(int argc, char* argv[]) {\n#else /*}*/\nint main(int argc, char* argv[]) {\n#endif\n  int ret = 0;\n  if (argc > 1) {\n    ret = 2;\n  }\n  return ret;\n}\n";

/// jq's `jv_parse.c`: a prototype with an attribute macro the grammar cannot read, then the
/// function.
const ATTRIBUTE_MACRO: &str = "static int make_error(int p, const char *fmt, ...) PRINTF_LIKE(2, 3);\nstatic int make_error(int p, const char *fmt, ...) {\n  return p;\n}\n";

#[test]
fn symbols_incomplete_is_not_reported_for_platform_alternatives_and_says_what_was_found() {
    let tmp = tempfile::tempdir().expect("tmp");
    let commit = repo_with_files(
        &tmp.path().join("jq"),
        &[
            ("src/main.c", MAIN_PER_PLATFORM),
            ("src/jv_parse.c", ATTRIBUTE_MACRO),
        ],
    );
    let ws = tmp.path().join("ws");
    one_module(&ws, "jqlang", "jq", "jqlang/jq", &commit, "../jq");
    one_page_citing(
        &ws,
        "jqlang/jq",
        &[
            ("exit", "src/main.c:14-18"),
            ("errors", "src/jv_parse.c:1-4"),
        ],
    );
    let v = run_in(&ws, &["validate"]);
    let text = format!("{}{}", v.stdout, v.stderr);
    // The body is read under the `#else` header: nothing unparsed in main.c.
    assert!(!text.contains("src/main.c#L14"), "{text}");
    let cites = run_in(&ws, &["cites", "--symbol", "main"]);
    assert_eq!(cites.code, 0, "{cites:?}");
    assert!(cites.stdout.contains("exit"), "{}", cites.stdout);
    // Where the grammar really lost a line, the warning names what was found all the same
    // rather than saying no symbol may stand behind the range.
    assert!(
        text.contains("could not parse lines 1-1 of the file, so definitions written there may be missing (found for the range all the same: function `make_error`)"),
        "{text}"
    );
}

#[test]
fn a_change_in_the_other_ifdef_alternative_is_not_named_as_the_same_function() {
    // jq's `f_match`: the regex version under `#ifdef HAVE_LIBONIG`, a stub under `#else`,
    // one range over both.
    let v1 = "#ifdef HAVE_LIBONIG\nstatic int f_match(int x) {\n  int y = x;\n  y = y * 2;\n  return y;\n}\n#else\nstatic int f_match(int x) {\n  return 0;\n}\n#endif\n";
    let tmp = tempfile::tempdir().expect("tmp");
    let repo = tmp.path().join("jq");
    let commit = repo_with_files(&repo, &[("src/builtin.c", v1)]);
    let ws = tmp.path().join("ws");
    one_module(&ws, "jqlang", "jq", "jqlang/jq", &commit, "../jq");
    one_page_citing(&ws, "jqlang/jq", &[("regex", "src/builtin.c:1-11")]);
    let v2 = v1.replace("  return 0;\n", "  return -1;\n");
    std::fs::write(repo.join("src/builtin.c"), v2).expect("write");
    git(&repo, &["commit", "-q", "-am", "two"]);
    let text = run_in(&ws, &["drift"]).stdout;
    assert!(
        text.contains(
            "function `f_match`; the change is in another definition of function `f_match`"
        ),
        "{text}"
    );
    assert!(
        text.contains("the change is in another definition of function `f_match` (src/builtin.c:8-10 as pinned)"),
        "{text}"
    );
}
