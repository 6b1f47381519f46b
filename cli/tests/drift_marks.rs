//! An Evidence Pack's drift marks say of every cited range what `ontoly drift` says of it: the
//! same status, and for a changed range the same verdict on its lines (rewritten: K of its N
//! lines kept; most of its lines deleted; edited, and where; deleted), decided by the same
//! rule from the same facts. Checked on the express corpus, whose clone's `HEAD` is 5.0.1 and
//! its pages pinned at 4.18.2, and on a repository made here with one range of each kind.

mod common;

use common::{copy_dir, git, one_module, one_page_citing, repo_with_files, run_in, testdata};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

fn json(dir: &Path, args: &[&str]) -> Value {
    let r = run_in(dir, args);
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}\n{}", r.stdout, r.stderr))
}

/// What drift says of a cited range: its status and, for a moved range, where it is; for a
/// changed one, what became of its lines, in drift's words ("now P:a-b", "rewritten: …",
/// "most of its N lines deleted (…)", "deleted").
#[derive(Debug, Clone, PartialEq, Eq)]
struct Said {
    status: String,
    words: String,
}

/// Drift's verdict of every cited range of the workspace, by `path#Lstart-Lend`, with the
/// kept lines of the changed ones.
fn drift_says(ws: &Path) -> BTreeMap<String, (Said, Value)> {
    let v = json(ws, &["--workspace", ".", "drift", "--format", "json"]);
    let text = run_in(ws, &["--workspace", ".", "drift"]).stdout;
    let mut out = BTreeMap::new();
    for r in v["references"].as_array().expect("references") {
        let path = r["path"].as_str().unwrap_or("");
        let (s, e) = (&r["startLine"], &r["endLine"]);
        let status = r["status"].as_str().unwrap_or("").to_string();
        let words = match status.as_str() {
            "moved" => format!(
                "{}:{}-{}",
                r["newPath"].as_str().unwrap_or(""),
                r["newStartLine"],
                r["newEndLine"]
            ),
            // The text's line for the reference: `[0] lib/request.js:235-250 changed, <words>;
            // <symbols>…`.
            "changed" => {
                let cited = format!("] {path}:{s}-{e} changed");
                let line = (text.lines())
                    .find(|l| l.contains(&cited))
                    .unwrap_or_else(|| panic!("{cited} in\n{text}"));
                let after = line.split_once(&cited).map_or("", |(_, rest)| rest);
                let words = match after.strip_prefix(" (the cited lines occur") {
                    Some(rest) => rest.split_once("), ").map_or("", |(_, w)| w),
                    None => after.strip_prefix(", ").unwrap_or(""),
                };
                let words = words.split("; ").next().unwrap_or("");
                if words.starts_with("deleted from ") {
                    "deleted".to_string()
                } else {
                    words.to_string()
                }
            }
            _ => String::new(),
        };
        out.insert(
            format!("{path}#L{s}-L{e}"),
            (Said { status, words }, r["keptLines"].clone()),
        );
    }
    out
}

/// What a pack's mark (`drift: …` under a citation) says, in drift's terms.
fn mark_says(mark: &str) -> Said {
    let (status, rest) = mark.split_once(" at HEAD ").unwrap_or((mark, ""));
    // After the commit: ` (P:a-b)`, `, <drift's words>; …` or `: all of its … are gone …`.
    let rest = rest
        .split_once([' ', ',', ':'])
        .map_or("", |(_, r)| r)
        .trim();
    let words = match status {
        "moved" => rest.trim_matches(['(', ')']).to_string(),
        "changed" if rest.starts_with('(') => format!("now {}", rest.trim_matches(['(', ')'])),
        "changed" if rest.starts_with("all of its ") => "deleted".to_string(),
        "changed" => rest.split("; ").next().unwrap_or("").to_string(),
        _ => String::new(),
    };
    Said {
        status: status.to_string(),
        words,
    }
}

/// Asks each question and checks every marked citation of its pack against drift, and the
/// marks of its reads (the JSON) against drift's kept lines. Returns the cited ranges checked.
fn check_marks(ws: &Path, questions: &[&str]) -> std::collections::BTreeSet<String> {
    let drift = drift_says(ws);
    let mut checked = std::collections::BTreeSet::new();
    for q in questions {
        let text = run_in(ws, &["--workspace", ".", "evidence", "--limit", "20", q]).stdout;
        let mut cited: Option<String> = None;
        for line in text.lines().map(str::trim) {
            if let Some(c) = line.strip_prefix("cites ") {
                // `github.com/o/r@0123456789ab:lib/a.js#L1-L9 [verified]`
                cited = c
                    .split_once(':')
                    .and_then(|(_, rest)| rest.split(' ').next())
                    .map(str::to_string);
            } else if let (Some(mark), Some(c)) = (line.strip_prefix("drift: "), &cited) {
                let (said, _) = drift.get(c).unwrap_or_else(|| panic!("drift reports {c}"));
                assert_eq!(&mark_says(mark), said, "{q}: {c}: {mark}");
                checked.insert(c.clone());
            }
        }
        let pack = json(
            ws,
            &[
                "--workspace",
                ".",
                "evidence",
                "--limit",
                "20",
                "--format",
                "json",
                q,
            ],
        );
        for f in pack["filesToInspect"].as_array().expect("reads") {
            let Some(mark) = f["drift"].as_object() else {
                continue;
            };
            let c = format!(
                "{}#L{}-L{}",
                f["path"].as_str().unwrap_or(""),
                f["startLine"],
                f["endLine"]
            );
            let (said, kept) = drift.get(&c).unwrap_or_else(|| panic!("drift reports {c}"));
            assert_eq!(mark["status"], said.status.as_str(), "{c}: {f}");
            assert_eq!(
                mark.get("keptLines").unwrap_or(&Value::Null),
                kept,
                "{c}: {f}"
            );
            assert_eq!(
                mark.get("rewritten") == Some(&Value::Bool(true)),
                said.words.starts_with("rewritten:"),
                "{c}: {f}"
            );
        }
    }
    checked
}

#[test]
fn express_marks_say_what_drift_says_of_every_cited_range() {
    let dir = tempfile::tempdir().expect("tempdir");
    let corpus = testdata().join("corpora/express");
    copy_dir(&corpus.join("ws"), &dir.path().join("ws"));
    copy_dir(&corpus.join("repo.git"), &dir.path().join("repo.git"));
    let ws = dir.path().join("ws");
    let checked = check_marks(
        &ws,
        &[
            "request",
            "response",
            "router",
            "application",
            "view render",
            "settings",
            "removed middleware",
        ],
    );
    // Every range the workspace cites, `req.param` and `app.lazyrouter` among them (other
    // code written in their place: 16 cited lines the diff maps to twelve, and 11 to one).
    let all = drift_says(&ws);
    let unchecked: Vec<&String> = all.keys().filter(|k| !checked.contains(*k)).collect();
    assert!(unchecked.is_empty(), "{unchecked:?}");
    for c in ["lib/request.js#L235-L250", "lib/application.js#L144-L154"] {
        assert!(
            all[c].0.words.starts_with("rewritten: 0 of its"),
            "{c}: {:?}",
            all[c]
        );
    }
}

/// Python code at the pinned commit and at `HEAD`: a range edited in place, one whose lines
/// other code replaced (as long as it was, so the length the diff maps it to says nothing),
/// a function rewritten in place under its own name (too few of its lines survive, but it is
/// still the function: not "rewritten"), one moved, one deleted and one left alone. Functions
/// the change leaves alone keep the diff's hunks apart.
const BASE: &str = "import os


def keep():
    return os.getcwd()


def param(name, default):
    params = request_params()
    if name in params:
        return params[name]
    body = request_body()
    if name in body:
        return body[name]
    return default


def first_separator():
    return os.getpid()


def compute(values):
    total = 0
    for value in values:
        if value > 10:
            total += value * 2
        else:
            total += value
    return total


def second_separator():
    return os.getppid()


def edited(path):
    with open(path) as handle:
        content = handle.read()
    lines = content.splitlines()
    return [line.strip() for line in lines]


def third_separator():
    return os.getuid()


def dropped(value):
    print('dropping', value)
    return None
";

const LATER: &str = "import os


def keep():
    return os.getcwd()


def query_string(raw):
    parser = choose_parser()
    if not parser:
        raise LookupError
    parsed = parser(raw)
    log_parsed(parsed)
    return parsed


def first_separator():
    return os.getpid()


def compute(items):
    return sum(x if x <= 10 else 2 * x for x in items)


def second_separator():
    return os.getppid()


def edited(path, encoding='utf-8'):
    with open(path, encoding=encoding) as handle:
        content = handle.read()
    lines = content.splitlines()
    return [line.strip() for line in lines]


def third_separator():
    return os.getuid()
";

#[test]
fn marks_say_what_drift_says_of_each_kind_of_change() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path().join("repo");
    let base = repo_with_files(&repo, &[("app/handlers.py", BASE)]);
    let ws = dir.path().join("ws");
    one_module(&ws, "acme", "app", "acme/app", &base, "../repo");
    one_page_citing(
        &ws,
        "acme/app",
        &[
            ("keep-handler", "app/handlers.py:4-5"),
            ("param-handler", "app/handlers.py:8-15"),
            ("moved-handler", "app/handlers.py:18-19"),
            ("compute-handler", "app/handlers.py:22-29"),
            ("edited-handler", "app/handlers.py:36-40"),
            ("dropped-handler", "app/handlers.py:47-49"),
        ],
    );
    // `HEAD` moves on: the clone's later commit, which the pack compares with.
    std::fs::write(repo.join("app/handlers.py"), LATER).expect("write");
    git(&repo, &["commit", "-q", "-am", "later"]);
    let drift = drift_says(&ws);
    let said = |c: &str| drift[c].0.clone();
    // The kinds this test is for, as drift tells them.
    let kinds = [
        ("app/handlers.py#L4-L5", "unchanged", ""),
        ("app/handlers.py#L8-L15", "changed", "rewritten: "),
        ("app/handlers.py#L18-L19", "moved", "app/handlers.py:17-18"),
        (
            "app/handlers.py#L22-L29",
            "changed",
            "most of its 8 lines deleted",
        ),
        (
            "app/handlers.py#L36-L40",
            "changed",
            "now app/handlers.py:29-33",
        ),
        ("app/handlers.py#L47-L49", "changed", "deleted"),
    ];
    for (c, status, words) in kinds {
        let s = said(c);
        assert!(
            s.status == status && s.words.starts_with(words),
            "{c}: {s:?}\n{drift:?}"
        );
    }
    let checked = check_marks(&ws, &["handler"]);
    assert_eq!(
        checked.len(),
        drift.len(),
        "{checked:?} of {:?}",
        drift.keys()
    );
}
