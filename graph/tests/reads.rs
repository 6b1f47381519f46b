//! Pinned reads over real git repositories: every rule and error code of `spec/reads.md`.

mod support;

use ontoly_graph::diagnostics::Code as ErrorCode;
use ontoly_graph::sources::reads::*;
use ontoly_graph::{Session, SessionOptions};
use std::sync::Arc;

/// The reader of the workspace at `ws` with `--source` overrides, as every caller opens it.
fn open_reader(
    ws: &std::path::Path,
    sources: &[(String, String)],
) -> Result<Reader, ontoly_graph::SessionError> {
    let opts = SessionOptions::new(ws)
        .workspace(ws)
        .sources(sources.iter().map(|(n, p)| format!("{n}={p}")));
    Session::open(opts)?.reader()
}
use support::{fixture, Fixture, SECRET};

fn reader(fx: &Fixture) -> Reader {
    open_reader(&fx.ws, &[]).expect("reader")
}

fn read(
    r: &Reader,
    rev: Option<&str>,
    path: &str,
    start: Option<i64>,
    end: Option<i64>,
) -> Result<ReadResult, ReadError> {
    r.read(&ReadRequest {
        repository: "acme/server".into(),
        revision: rev.map(str::to_string),
        path: path.into(),
        start_line: start,
        end_line: end,
    })
}

fn code(r: Result<impl std::fmt::Debug, ReadError>) -> ErrorCode {
    r.expect_err("an error").code
}

/// Nothing a read returns may carry the remote's credentials or a local absolute path.
fn assert_clean(fx: &Fixture, json: &str) {
    assert!(!json.contains(SECRET), "credential leaked: {json}");
    assert!(!json.contains("bot:"), "userinfo leaked: {json}");
    let tmp = fx.tmp.path().to_string_lossy();
    assert!(!json.contains(tmp.as_ref()), "absolute path leaked: {json}");
}

#[test]
fn resolve_revisions() {
    let fx = fixture();
    support::git(
        &fx.server.path,
        &["tag", "-a", "v1", "-m", "v1", &fx.server.c1],
    );
    let r = reader(&fx);
    let res = |repo: &str, rev: Option<&str>| {
        r.resolve(&ResolveRequest {
            repository: repo.into(),
            revision: rev.map(str::to_string),
        })
    };
    let d = res("acme/server", None).unwrap();
    assert_eq!(
        (
            d.repository.as_str(),
            d.revision.as_str(),
            d.commit.as_str()
        ),
        ("acme/server", "main", fx.server.c2.as_str())
    );
    assert_eq!(
        res("acme/server", Some("feature")).unwrap().commit,
        fx.server.c3
    );
    assert_eq!(
        res("acme/server", Some(&fx.server.c1)).unwrap().commit,
        fx.server.c1
    );
    assert_eq!(
        res("acme/server", Some(&fx.server.c1.to_uppercase()))
            .unwrap()
            .commit,
        fx.server.c1
    );
    // Every remote shape and the registry name select the same repository.
    for name in [
        "github.com/acme/server",
        "https://github.com/acme/server.git",
        "git@github.com:acme/server.git",
    ] {
        assert_eq!(res(name, None).unwrap().repository, "acme/server", "{name}");
    }
    // A unique prefix of 7 or more hex digits names its commit; a shorter one is refused.
    for n in [7, 12, 39] {
        assert_eq!(
            res("acme/server", Some(&fx.server.c1[..n])).unwrap().commit,
            fx.server.c1,
            "prefix of {n}"
        );
    }
    assert_eq!(
        code(res("acme/server", Some(&fx.server.c1[..6]))),
        ErrorCode::ShortShaUnsupported
    );
    for bad in [
        "main~1",
        "HEAD",
        "refs/heads/main",
        "main^{commit}",
        "a..b",
        "@{u}",
        "-x",
        "a b",
    ] {
        assert_eq!(
            code(res("acme/server", Some(bad))),
            ErrorCode::InvalidRevision,
            "{bad}"
        );
    }
    let e = res("acme/server", Some("no-such-branch")).unwrap_err();
    assert_eq!(e.code, ErrorCode::RevisionNotFound);
    // What the clone has instead: its branches and tags.
    assert!(
        e.message
            .ends_with("was not found in the repository (branches: feature, main; tags: v1)"),
        "{}",
        e.message
    );
    // A tag, annotated or not, names its commit; a branch of the same name wins.
    assert_eq!(res("acme/server", Some("v1")).unwrap().commit, fx.server.c1);
    support::git(&fx.server.path, &["tag", "feature", &fx.server.c1]);
    support::git(&fx.server.path, &["tag", "light", &fx.server.c2]);
    let fresh = reader(&fx);
    let at = |rev: &str| {
        fresh
            .resolve(&ResolveRequest {
                repository: "acme/server".into(),
                revision: Some(rev.to_string()),
            })
            .map(|r| r.commit)
    };
    assert_eq!(at("light").unwrap(), fx.server.c2);
    assert_eq!(at("feature").unwrap(), fx.server.c3);
    assert_eq!(
        code(res("acme/server", Some(&"1".repeat(40)))),
        ErrorCode::RevisionNotFound
    );
    // A blob id is a full hex id but not a commit.
    let blob = support::git(
        &fx.server.path,
        &["rev-parse", &format!("{}:README.md", fx.server.c1)],
    );
    assert_eq!(
        code(res("acme/server", Some(&blob))),
        ErrorCode::RevisionNotFound
    );
    assert_eq!(
        code(res("acme/nothing", None)),
        ErrorCode::RepositoryNotFound
    );
    // Registered, but no clone is mapped.
    let e = res("acme/other", None).unwrap_err();
    assert_eq!(e.code, ErrorCode::RepositoryNotFound);
    assert!(e.message.contains("no local clone"), "{}", e.message);
    // The workspace's own repository, named from its (credentialed) remote.
    let w = res("acme/docs", None).unwrap();
    assert_eq!(w.commit, fx.head);
    let e = res(&format!("https://x:{SECRET}@github.com/acme/nothing"), None).unwrap_err();
    assert_eq!(e.code, ErrorCode::RepositoryNotFound);
    assert_clean(&fx, &serde_json::to_string(&e).unwrap());
    assert_clean(&fx, &serde_json::to_string(&w).unwrap());
}

#[test]
fn read_history_edits_renames_moves_deletions() {
    let fx = fixture();
    let r = reader(&fx);
    let (c1, c2) = (fx.server.c1.as_str(), fx.server.c2.as_str());
    let v1 = read(&r, Some(c1), "src/lib.rs", Some(17), Some(17)).unwrap();
    let v2 = read(&r, Some(c2), "src/lib.rs", Some(17), Some(17)).unwrap();
    assert!(v1.content.contains(".min(self.limit)\n"), "{}", v1.content);
    assert!(
        v2.content.contains(".min(self.limit.max(1))"),
        "{}",
        v2.content
    );
    assert_eq!(v1.commit, c1);
    // Renamed and moved files exist at their new paths only after c2.
    assert_eq!(
        code(read(&r, Some(c1), "app/core.py", None, None)),
        ErrorCode::FileNotFound
    );
    assert_eq!(
        code(read(&r, Some(c2), "app/main.py", None, None)),
        ErrorCode::FileNotFound
    );
    assert_eq!(
        read(&r, Some(c2), "app/core.py", None, None)
            .unwrap()
            .content,
        read(&r, Some(c1), "app/main.py", None, None)
            .unwrap()
            .content
    );
    assert!(read(&r, Some(c2), "cmd/server/server.go", None, None).is_ok());
    assert_eq!(
        code(read(&r, Some(c2), "go/server.go", None, None)),
        ErrorCode::FileNotFound
    );
    // Deleted.
    assert!(read(&r, Some(c1), "web/util.js", None, None).is_ok());
    assert_eq!(
        code(read(&r, None, "web/util.js", None, None)),
        ErrorCode::FileNotFound
    );
    // Branches resolve once and report the commit.
    let f = read(&r, Some("feature"), "README.md", None, None).unwrap();
    assert_eq!(
        (f.revision.as_str(), f.commit.as_str()),
        ("feature", fx.server.c3.as_str())
    );
    // Without a revision: the default branch, resolved and reported.
    let d = read(&r, None, "README.md", None, None).unwrap();
    assert_eq!(
        (d.revision.as_str(), d.commit.as_str()),
        ("main", fx.server.c2.as_str())
    );
    assert!(f.content.contains("feature branch"));
}

#[test]
fn read_ranges_clamp_and_budget() {
    let fx = fixture();
    let r = reader(&fx);
    let c1 = Some(fx.server.c1.as_str());
    let whole = read(&r, c1, "src/lib.rs", None, None).unwrap();
    assert_eq!(
        (
            whole.start_line,
            whole.end_line,
            whole.has_more,
            whole.truncated,
            whole.next_start_line
        ),
        (1, 33, false, false, None)
    );
    assert_eq!(
        whole.content,
        support::show(&fx.server.path, &fx.server.c1, "src/lib.rs")
    );
    let part = read(&r, c1, "src/lib.rs", Some(4), Some(6)).unwrap();
    assert_eq!(
        part.content,
        "pub struct Searcher {\n    limit: usize,\n}\n"
    );
    assert_eq!(
        (part.has_more, part.next_start_line, part.truncated),
        (true, Some(7), false)
    );
    // Default window: 500 lines, more remains, nothing was cut from what was asked.
    let d = read(&r, c1, "big/long.txt", None, None).unwrap();
    assert_eq!(
        (d.end_line, d.has_more, d.truncated, d.next_start_line),
        (500, true, false, Some(501))
    );
    // A wider request is clamped to start + 499: truncated.
    let w = read(&r, c1, "big/long.txt", Some(1), Some(1200)).unwrap();
    assert_eq!(
        (w.end_line, w.has_more, w.truncated, w.next_start_line),
        (500, true, true, Some(501))
    );
    assert!(w.content.ends_with("line 500\n"));
    // An end past the file is not truncation; the end line is the file's last.
    let t = read(&r, c1, "big/long.txt", Some(1101), Some(1400)).unwrap();
    assert_eq!(
        (t.end_line, t.has_more, t.truncated, t.next_start_line),
        (1200, false, false, None)
    );
    let t = read(&r, c1, "big/long.txt", Some(1000), None).unwrap();
    assert_eq!((t.end_line, t.has_more), (1200, false));
    // 256 KiB of whole lines: 262 lines of 1000 bytes.
    let b = read(&r, c1, "big/wide.txt", None, None).unwrap();
    assert_eq!(
        (b.end_line, b.has_more, b.truncated, b.next_start_line),
        (262, true, true, Some(263))
    );
    assert_eq!(b.content.len(), 262_000);
    // A single line longer than a read: its head, then continue on the next line.
    let h = read(&r, c1, "big/huge-line.txt", None, None).unwrap();
    assert_eq!(
        (h.end_line, h.truncated, h.next_start_line),
        (1, true, Some(2))
    );
    assert_eq!(h.content.len(), MAX_READ_BYTES);
    // Line endings are kept; a last line without newline is a line.
    assert_eq!(
        read(&r, c1, "data/crlf.txt", Some(2), Some(2))
            .unwrap()
            .content,
        "two\r\n"
    );
    let n = read(&r, c1, "data/notrail.txt", None, None).unwrap();
    assert_eq!((n.end_line, n.content.as_str()), (2, "first\nlast"));
    let e = read(&r, c1, "data/empty.txt", None, None).unwrap();
    assert_eq!((e.end_line, e.content.as_str(), e.has_more), (0, "", false));
    assert_eq!(
        code(read(&r, c1, "data/empty.txt", Some(2), None)),
        ErrorCode::LineRangeNotSatisfiable
    );
    assert_eq!(
        code(read(&r, c1, "src/lib.rs", Some(34), None)),
        ErrorCode::LineRangeNotSatisfiable
    );
    assert_eq!(
        code(read(&r, c1, "src/lib.rs", Some(0), None)),
        ErrorCode::InvalidLineRange
    );
    assert_eq!(
        code(read(&r, c1, "src/lib.rs", Some(-3), None)),
        ErrorCode::InvalidLineRange
    );
    assert_eq!(
        code(read(&r, c1, "src/lib.rs", Some(5), Some(4))),
        ErrorCode::InvalidLineRange
    );
}

#[test]
fn read_errors_paths_and_kinds() {
    let fx = fixture();
    let r = reader(&fx);
    let c1 = Some(fx.server.c1.as_str());
    assert_eq!(code(read(&r, c1, "src", None, None)), ErrorCode::NotAFile);
    assert_eq!(
        code(read(&r, None, "vendor/sub", None, None)),
        ErrorCode::NotAFile
    );
    assert_eq!(
        code(read(&r, None, "vendor/sub/file.rs", None, None)),
        ErrorCode::NotAFile
    );
    assert_eq!(
        code(read(&r, c1, "data/bin.dat", None, None)),
        ErrorCode::BinaryFile
    );
    assert_eq!(
        code(read(&r, c1, "data/latin1.txt", None, None)),
        ErrorCode::UnsupportedTextEncoding
    );
    assert_eq!(
        code(read(&r, c1, "data/utf16.txt", None, None)),
        ErrorCode::UnsupportedTextEncoding
    );
    assert_eq!(
        code(read(&r, c1, "nope.rs", None, None)),
        ErrorCode::FileNotFound
    );
    assert_eq!(
        code(read(&r, c1, "README.md/x", None, None)),
        ErrorCode::FileNotFound
    );
    for bad in [
        "",
        "/src/lib.rs",
        "src//lib.rs",
        "./src/lib.rs",
        "src/../src/lib.rs",
        "src\\lib.rs",
        "src/lib.rs/",
        "src/\tlib.rs",
    ] {
        assert_eq!(
            code(read(&r, c1, bad, None, None)),
            ErrorCode::InvalidPath,
            "{bad:?}"
        );
    }
    // A shell's `./` is refused (the path rule), and the message gives the valid spelling.
    let dotted = read(&r, c1, "./src/lib.rs", None, None).expect_err("refused");
    assert!(
        dotted
            .message
            .ends_with("drop the leading './' (src/lib.rs)"),
        "{}",
        dotted.message
    );
    let other = read(&r, c1, "src/../src/lib.rs", None, None).expect_err("refused");
    assert!(!other.message.contains("drop"), "{}", other.message);
    // Symlinks are followed inside the repository only (files and directories).
    let lib = read(&r, None, "src/lib.rs", None, None).unwrap().content;
    assert_eq!(
        read(&r, None, "links/lib.rs", None, None).unwrap().content,
        lib
    );
    assert_eq!(
        read(&r, None, "links/srcdir/lib.rs", None, None)
            .unwrap()
            .content,
        lib
    );
    assert_eq!(
        code(read(&r, None, "links/srcdir", None, None)),
        ErrorCode::NotAFile
    );
    assert_eq!(
        code(read(&r, None, "links/out", None, None)),
        ErrorCode::FileNotFound
    );
    assert_eq!(
        code(read(&r, None, "links/loop", None, None)),
        ErrorCode::FileNotFound
    );
    // Path errors come before repository lookups; messages stay clean.
    let e = read(&r, None, "links/out", None, None).unwrap_err();
    assert_clean(&fx, &serde_json::to_string(&e).unwrap());
}

fn item(path: &str, s: Option<i64>, e: Option<i64>) -> ReadManyItem {
    ReadManyItem {
        path: path.into(),
        start_line: s,
        end_line: e,
    }
}

#[test]
fn read_many_order_errors_and_budget() {
    let fx = fixture();
    let r = reader(&fx);
    let many = |rev: Option<&str>, items: Vec<ReadManyItem>| {
        r.read_many(&ReadManyRequest {
            repository: "acme/server".into(),
            revision: rev.map(str::to_string),
            items,
        })
    };
    let res = many(
        Some("main"),
        vec![
            item("README.md", None, None),
            item("missing.rs", None, None),
            item("src/lib.rs", Some(2), Some(2)),
            item("src", None, None),
        ],
    )
    .unwrap();
    assert_eq!(res.commit, fx.server.c2);
    assert_eq!(res.items.len(), 4);
    assert!(res.items[0]
        .content
        .as_deref()
        .unwrap()
        .starts_with("# server"));
    let e1 = res.items[1].error.as_ref().unwrap();
    assert_eq!(e1.code, ErrorCode::FileNotFound);
    assert!(e1.message.starts_with("Item 2: "), "{}", e1.message);
    assert!(res.items[1].content.is_none());
    assert_eq!(
        res.items[2].content.as_deref(),
        Some("pub const MAX: usize = 10;\n")
    );
    let e3 = res.items[3].error.as_ref().unwrap();
    assert_eq!(
        (e3.code, e3.message.starts_with("Item 4: ")),
        (ErrorCode::NotAFile, true)
    );
    // 1000 lines for the batch: the third item does not get any.
    let res = many(
        None,
        vec![
            item("big/long.txt", Some(1), Some(500)),
            item("nope", None, None),
            item("big/long.txt", Some(501), Some(1000)),
            item("big/long.txt", Some(1001), None),
        ],
    )
    .unwrap();
    assert_eq!(res.items[0].end_line, Some(500));
    assert_eq!(res.items[2].end_line, Some(1000));
    assert_eq!(res.items[2].error, None);
    let e = res.items[3].error.as_ref().unwrap();
    assert_eq!(
        (e.code, e.message.starts_with("Item 4: ")),
        (ErrorCode::ReadBudgetExceeded, true)
    );
    assert!(res.items[3].content.is_none());
    // Clamped by the batch: content up to the budget, truncated, with the code; later items
    // get the code and no content.
    let res = many(
        None,
        vec![
            item("big/long.txt", Some(1), Some(700)),
            item("big/long.txt", Some(1), Some(600)),
            item("README.md", None, None),
        ],
    )
    .unwrap();
    assert_eq!(
        (res.items[0].end_line, res.items[0].truncated),
        (Some(500), Some(true))
    );
    assert_eq!(
        res.items[0].error, None,
        "the single-read clamp is not a budget error"
    );
    // 600 asked: the single-read clamp cuts it at 500, which is also all the batch had left.
    assert_eq!(
        (res.items[1].end_line, res.items[1].truncated),
        (Some(500), Some(true))
    );
    assert_eq!(res.items[1].error, None);
    assert_eq!(
        res.items[2].error.as_ref().map(|e| e.code),
        Some(ErrorCode::ReadBudgetExceeded)
    );
    let res = many(
        None,
        vec![
            item("big/long.txt", Some(1), Some(500)),
            item("big/long.txt", Some(1), Some(400)),
            item("big/long.txt", Some(1), Some(300)),
            item("README.md", None, None),
        ],
    )
    .unwrap();
    let cut = &res.items[2];
    assert_eq!(
        (
            cut.end_line,
            cut.truncated,
            cut.has_more,
            cut.next_start_line
        ),
        (Some(100), Some(true), Some(true), Some(101))
    );
    assert_eq!(
        cut.error.as_ref().map(|e| e.code),
        Some(ErrorCode::ReadBudgetExceeded)
    );
    assert!(cut.error.as_ref().unwrap().message.starts_with("Item 3: "));
    assert_eq!(
        res.items[3].error.as_ref().map(|e| e.code),
        Some(ErrorCode::ReadBudgetExceeded)
    );
    assert!(res.items[3].content.is_none());
    // An item no request could read says why, not that the budget ran out (an agent told
    // to read `/etc/passwd` in another request would; TypeScript MCP walk, stop 48).
    let res = many(
        None,
        vec![
            item("big/long.txt", Some(1), Some(500)),
            item("big/long.txt", Some(1), Some(500)),
            item("/etc/passwd", None, None),
            item("src/../x", None, None),
            item("no/such/file.txt", None, None),
            item("README.md", None, None),
        ],
    )
    .unwrap();
    let codes: Vec<Option<ErrorCode>> = (res.items.iter())
        .map(|i| i.error.as_ref().map(|e| e.code))
        .collect();
    assert_eq!(
        codes[2..],
        [
            Some(ErrorCode::InvalidPath),
            Some(ErrorCode::InvalidPath),
            Some(ErrorCode::FileNotFound),
            Some(ErrorCode::ReadBudgetExceeded)
        ]
    );
    // Bytes: 256 KiB for the batch.
    let res = many(
        None,
        vec![
            item("big/wide.txt", Some(1), Some(200)),
            item("big/wide.txt", Some(201), Some(400)),
            item("README.md", None, None),
        ],
    )
    .unwrap();
    assert_eq!(res.items[0].end_line, Some(200));
    assert_eq!(
        (res.items[1].end_line, res.items[1].truncated),
        (Some(262), Some(true))
    );
    assert_eq!(
        res.items[1].error.as_ref().map(|e| e.code),
        Some(ErrorCode::ReadBudgetExceeded)
    );
    let total: usize = res
        .items
        .iter()
        .filter_map(|i| i.content.as_ref())
        .map(String::len)
        .sum();
    assert!(total <= MAX_BATCH_BYTES);
    assert_eq!(
        res.items[2].error.as_ref().map(|e| e.code),
        Some(ErrorCode::ReadBudgetExceeded)
    );
    // Shape and repository errors fail the whole request.
    assert_eq!(code(many(None, vec![])), ErrorCode::InvalidInput);
    assert_eq!(
        code(many(
            None,
            (0..11).map(|_| item("README.md", None, None)).collect()
        )),
        ErrorCode::InvalidInput
    );
    assert_eq!(
        code(many(Some("abc123"), vec![item("README.md", None, None)])),
        ErrorCode::ShortShaUnsupported
    );
    let json =
        serde_json::to_string(&many(None, vec![item("links/out", None, None)]).unwrap()).unwrap();
    assert_clean(&fx, &json);
}

fn search(r: &Reader, f: impl FnOnce(&mut SearchRequest)) -> Result<SearchResult, ReadError> {
    let mut req = SearchRequest {
        repository: "acme/server".into(),
        ..Default::default()
    };
    f(&mut req);
    r.search(&req)
}

fn paths(s: &SearchResult) -> Vec<&str> {
    s.files.iter().map(|f| f.path.as_str()).collect()
}

#[test]
fn search_rules() {
    let fx = fixture();
    let r = reader(&fx);
    let s = search(&r, |q| q.pattern = r"fn \w+\(".into()).unwrap();
    assert_eq!(paths(&s), ["src/lib.rs"]);
    let lines: Vec<u64> = s.files[0].matches.iter().map(|m| m.line).collect();
    assert_eq!(lines, [9, 13, 14, 22, 30]);
    assert_eq!(
        s.files[0].matches[0].text,
        "    pub fn new(limit: usize) -> Self {"
    );
    assert!(!s.truncated);
    // Pinned: the old line only exists at c1.
    let old = |rev: &str| {
        search(&r, |q| {
            q.pattern = "count().min(self.limit)".into();
            q.fixed_strings = true;
            q.revision = Some(rev.to_string());
        })
    };
    assert_eq!(paths(&old(&fx.server.c1).unwrap()), ["src/lib.rs"]);
    assert!(old("main").unwrap().files.is_empty());
    // ignore_case.
    assert!(search(&r, |q| q.pattern = "SEARCHER".into())
        .unwrap()
        .files
        .is_empty());
    assert_eq!(
        paths(
            &search(&r, |q| {
                q.pattern = "SEARCHER".into();
                q.ignore_case = true;
            })
            .unwrap()
        ),
        ["src/lib.rs"]
    );
    // Globs in order, last match wins; paths prefixes; files output.
    let class = |f: &dyn Fn(&mut SearchRequest)| {
        search(&r, |q| {
            q.pattern = "class ".into();
            q.output = SearchOutput::Files;
            f(q);
        })
        .unwrap()
    };
    assert_eq!(
        paths(&class(&|_| {})),
        [
            "app/core.py",
            "java/com/acme/Server.java",
            "web/app.ts",
            "web/view.tsx"
        ]
    );
    assert!(class(&|_| {}).files.iter().all(|f| f.matches.is_empty()));
    assert_eq!(
        paths(&class(&|q| q.glob = vec!["*.ts".into()])),
        ["web/app.ts"]
    );
    assert_eq!(
        paths(&class(&|q| q.glob = vec!["!web/**".into()])),
        ["app/core.py", "java/com/acme/Server.java"]
    );
    assert_eq!(
        paths(&class(&|q| q.glob = vec!["web/*".into(), "!*.tsx".into()])),
        ["web/app.ts"]
    );
    assert_eq!(
        paths(&class(&|q| q.glob = vec!["!*.tsx".into(), "web/*".into()])),
        ["web/app.ts", "web/view.tsx"]
    );
    assert_eq!(
        paths(&class(&|q| q.paths = vec!["web/".into(), "app".into()])),
        ["app/core.py", "web/app.ts", "web/view.tsx"]
    );
    assert_eq!(
        paths(&class(&|q| q.paths = vec!["web/app.ts".into()])),
        ["web/app.ts"]
    );
    // Binary and non-UTF-8 files are skipped; symlinks and submodules are not searched.
    assert!(search(&r, |q| q.pattern = "ab".into())
        .unwrap()
        .files
        .iter()
        .all(|f| f.path != "data/bin.dat"));
    // Bounds: matches per file.
    let many = search(&r, |q| q.pattern = "^line ".into()).unwrap();
    assert!(many.truncated);
    assert_eq!(many.files[0].matches.len(), MAX_SEARCH_MATCHES_PER_FILE);
    // Bounds: bytes (wide lines are cut to the line limit and the byte budget stops the rest).
    let wide = search(&r, |q| q.pattern = "x{10}".into()).unwrap();
    assert!(wide.truncated);
    assert!(wide.files[0]
        .matches
        .iter()
        .all(|m| m.truncated && m.text.len() == MAX_SEARCH_LINE_BYTES));
    // Invalid patterns.
    for p in [
        "", "a*", "^", "$", "\\b", "x?", "a\\nb", "[\\n]", "(?s)a.c", "(", "a{2,1}",
    ] {
        assert_eq!(
            code(search(&r, |q| q.pattern = p.into())),
            ErrorCode::InvalidPattern,
            "{p:?}"
        );
    }
    // One line, saying what and where, and "error" once (the code says it).
    for (p, says) in [
        ("foo(", "Invalid pattern: unclosed group (at character 4 of the pattern)"),
        ("a{2,1}", "Invalid pattern: invalid repetition count range, the start must be <= the end (at character 2 of the pattern)"),
        ("\\p{Nope}", "Invalid pattern: Unicode property not found (at character 1 of the pattern)"),
    ] {
        let e = search(&r, |q| q.pattern = p.into()).expect_err("invalid");
        assert_eq!(e.message, says, "{p:?}");
    }
    assert_eq!(
        code(search(&r, |q| {
            q.pattern = "a\nb".into();
            q.fixed_strings = true;
        })),
        ErrorCode::InvalidPattern
    );
    assert_eq!(
        code(search(&r, |q| {
            q.pattern = "x".into();
            q.glob = vec!["a[".into()];
        })),
        ErrorCode::InvalidPattern
    );
    assert_eq!(
        code(search(&r, |q| {
            q.pattern = "x".into();
            q.paths = vec!["../x".into()];
        })),
        ErrorCode::InvalidPath
    );
    assert_eq!(
        code(search(&r, |q| {
            q.pattern = "x".into();
            q.revision = Some("deadbe".into());
        })),
        ErrorCode::ShortShaUnsupported
    );
    assert_clean(&fx, &serde_json::to_string(&many).unwrap());
}

/// A hook that reports what it was given, reading the structure at the same commit.
struct Probe;

impl EvidenceHook for Probe {
    fn references(&self, page: &PageRead<'_>) -> Option<String> {
        let structure =
            (page.read_file)(&format!("{}/knowledge/structure.yaml", page.workspace_root))?;
        let structure = String::from_utf8(structure).ok()?;
        Some(format!(
            "root={} path={} lines={}-{} remote={} commit={} structure_lines={}\n",
            page.workspace_root,
            page.path,
            page.start_line,
            page.end_line,
            page.remote_key.unwrap_or("-"),
            page.commit,
            structure.lines().count()
        ))
    }
}

#[test]
fn knowledge_pages_get_evidence_appended() {
    let fx = fixture();
    let r = reader(&fx).with_evidence(Arc::new(Probe));
    let page = r
        .read(&ReadRequest {
            repository: "acme/docs".into(),
            revision: None,
            path: "docs/knowledge/guide/search.md".into(),
            start_line: Some(3),
            end_line: Some(5),
        })
        .unwrap();
    let ev = page.evidence.as_deref().unwrap();
    let structure = std::fs::read_to_string(fx.ws.join("knowledge/structure.yaml")).unwrap();
    assert_eq!(
        ev,
        format!(
            "root=docs path=docs/knowledge/guide/search.md lines=3-5 remote=github.com/acme/docs commit={} structure_lines={}\n",
            fx.head,
            structure.lines().count()
        )
    );
    assert_eq!(page.text(), format!("{}\n{ev}", page.content));
    assert!(page
        .text()
        .contains("<!-- /context:section -->\n\nroot=docs"));
    // Not a knowledge page, or not the workspace repository: nothing appended.
    let other = |repo: &str, path: &str| {
        r.read(&ReadRequest {
            repository: repo.into(),
            path: path.into(),
            ..Default::default()
        })
        .unwrap()
        .evidence
    };
    assert_eq!(other("acme/docs", "docs/knowledge/structure.yaml"), None);
    assert_eq!(other("acme/docs", "docs/sources/repo/index.yaml"), None);
    assert_eq!(other("acme/server", "README.md"), None);
    // read_many items get theirs too.
    let many = r
        .read_many(&ReadManyRequest {
            repository: "acme/docs".into(),
            revision: None,
            items: vec![item("docs/knowledge/guide/search.md", Some(9), None)],
        })
        .unwrap();
    assert!(many.items[0]
        .evidence
        .as_deref()
        .unwrap()
        .contains("lines=9-11"));
    assert_clean(&fx, &serde_json::to_string(&page).unwrap());
}

#[test]
fn knowledge_page_reads_append_the_references_output() {
    let fx = fixture();
    let r = reader(&fx);
    let read_page = |s: i64, e: i64| {
        r.read(&ReadRequest {
            repository: "acme/docs".into(),
            revision: Some("main".into()),
            path: "docs/knowledge/guide/search.md".into(),
            start_line: Some(s),
            end_line: Some(e),
        })
        .unwrap()
    };
    let all = read_page(1, 11);
    // The credentialed remote is refused (never echoed); the clean one becomes a pinned URL.
    assert_eq!(
        all.evidence.as_deref().unwrap(),
        format!(
            "diagnostics:\n- code: SOURCE_UNRESOLVED\n  message: Source remote is unsafe or contains credentials\n  path: docs/knowledge/guide/search.md\n  section_id: search\n  source_ref: repo:acme/server\nreferences:\n- https://github.com/acme/server/blob/{}/src/lib.rs#L26-L29\n",
            fx.server.c1
        )
    );
    // Only the overlapping sections count: lines 9-11 are the second section alone.
    assert_eq!(
        read_page(9, 11).evidence.as_deref().unwrap(),
        format!(
            "references:\n- https://github.com/acme/server/blob/{}/src/lib.rs#L26-L29\n",
            fx.server.c1
        )
    );
    // Outside every section: nothing appended.
    assert_eq!(read_page(6, 8).evidence, None);
    assert_clean(&fx, &serde_json::to_string(&all).unwrap());
    // A page asked of a cited repository: the error says where pages are read.
    let e = read(&r, None, "docs/knowledge/guide/search.md", None, None).unwrap_err();
    assert_eq!(e.code, ErrorCode::FileNotFound);
    assert!(
        e.message
            .ends_with("; knowledge pages are read from the workspace's repository 'acme/docs'"),
        "{}",
        e.message
    );
    // Any other missing file: no such hint.
    let e = read(&r, None, "docs/guide/search.md", None, None).unwrap_err();
    assert!(!e.message.contains("knowledge pages"), "{}", e.message);
}

#[test]
fn source_overrides_and_relative_paths() {
    let fx = fixture();
    // Without ontoly.toml the server has no clone; --source adds it (relative to the workspace).
    std::fs::remove_file(fx.ws.join("ontoly.toml")).unwrap();
    let none = open_reader(&fx.ws, &[]).unwrap();
    assert_eq!(
        code(read(&none, None, "README.md", None, None)),
        ErrorCode::RepositoryNotFound
    );
    let by_name = open_reader(&fx.ws, &[("acme/server".into(), "../../server".into())]).unwrap();
    assert!(read(&by_name, None, "README.md", None, None).is_ok());
    let by_remote = open_reader(
        &fx.ws,
        &[(
            "git@github.com:acme/server.git".into(),
            "../../server".into(),
        )],
    )
    .unwrap();
    assert!(read(&by_remote, None, "README.md", None, None).is_ok());
    // A bare clone works the same.
    let bare = fx.tmp.path().join("server.git");
    support::git(
        fx.tmp.path(),
        &["clone", "-q", "--bare", "server", "server.git"],
    );
    let r = open_reader(
        &fx.ws,
        &[("acme/server".into(), bare.to_string_lossy().into_owned())],
    )
    .unwrap();
    assert_eq!(
        read(&r, Some("feature"), "README.md", None, None)
            .unwrap()
            .commit,
        fx.server.c3
    );
    // A mapping to something that is not a repository: not found, without the path.
    let r = open_reader(&fx.ws, &[("acme/server".into(), "../nowhere".into())]).unwrap();
    let e = read(&r, None, "README.md", None, None).unwrap_err();
    assert_eq!(e.code, ErrorCode::RepositoryNotFound);
    assert_clean(&fx, &e.message);
}

#[test]
fn a_workspace_outside_git_still_reads_its_clones() {
    let fx = fixture();
    let plain = fx.tmp.path().join("plain");
    std::fs::create_dir_all(plain.join("sources/repo")).unwrap();
    std::fs::create_dir_all(plain.join("knowledge")).unwrap();
    std::fs::write(plain.join("knowledge/structure.yaml"), "articles: []\n").unwrap();
    std::fs::copy(
        fx.ws.join("sources/repo/index.yaml"),
        plain.join("sources/repo/index.yaml"),
    )
    .unwrap();
    let r = open_reader(&plain, &[("acme/server".into(), "../server".into())]).unwrap();
    // The workspace itself is readable from its work tree (no commits: resolve refuses it).
    let ws = r.repositories().workspace().expect("the work tree");
    assert!(ws.repo.is_none() && ws.worktree.is_some());
    assert!(read(&r, None, "README.md", None, None).is_ok());
    let page = r
        .read(&ReadRequest {
            repository: "plain".into(),
            revision: None,
            path: "knowledge/structure.yaml".into(),
            start_line: None,
            end_line: None,
        })
        .unwrap();
    assert_eq!(
        (page.commit.as_str(), page.content.as_str()),
        ("worktree", "articles: []\n")
    );
    assert_eq!(
        code(r.resolve(&ResolveRequest {
            repository: "plain".into(),
            revision: None
        })),
        ErrorCode::RepositoryNotFound
    );
    // With a revision too: the same refusal, not "omit the revision" that only leads to it.
    assert_eq!(
        code(r.resolve(&ResolveRequest {
            repository: "plain".into(),
            revision: Some("main".into())
        })),
        ErrorCode::RepositoryNotFound
    );
    // Its files are searched as they are on disk, in path order: not the snapshot cache, not
    // through a symlink that leaves the tree, and a pinned revision is refused.
    std::fs::write(
        plain.join("knowledge/retry.md"),
        "# Retries\nThe client retries three times.\n",
    )
    .unwrap();
    std::fs::create_dir_all(plain.join(".ontoly")).unwrap();
    std::fs::write(plain.join(".ontoly/cache.txt"), "retries cached\n").unwrap();
    std::os::unix::fs::symlink(fx.tmp.path().join("server"), plain.join("outside")).unwrap();
    let search = |pattern: &str, revision: Option<&str>, paths: &[&str]| {
        r.search(&SearchRequest {
            repository: "plain".into(),
            revision: revision.map(str::to_string),
            pattern: pattern.into(),
            paths: paths.iter().map(|p| p.to_string()).collect(),
            ..Default::default()
        })
    };
    let found = search("retr", None, &[]).unwrap();
    assert_eq!(found.commit, "worktree");
    assert_eq!(paths(&found), ["knowledge/retry.md"]);
    assert_eq!(
        found.files[0]
            .matches
            .iter()
            .map(|m| (m.line, m.text.as_str()))
            .collect::<Vec<_>>(),
        [(2, "The client retries three times.")]
    );
    let everything = search(".", None, &[]).unwrap();
    assert_eq!(
        paths(&everything),
        [
            "knowledge/retry.md",
            "knowledge/structure.yaml",
            "sources/repo/index.yaml"
        ]
    );
    assert_eq!(
        paths(&search(".", None, &["sources"]).unwrap()),
        ["sources/repo/index.yaml"]
    );
    assert_eq!(
        code(search("retr", Some("main"), &[])),
        ErrorCode::RevisionNotFound
    );
}

#[test]
fn a_page_of_a_workspace_in_a_directory_of_its_repository_reads_by_its_workspace_path() {
    let t = tempfile::tempdir().expect("tempdir");
    let repo = t.path().join("mono");
    std::fs::create_dir_all(repo.join("docs/kb/knowledge")).unwrap();
    std::fs::write(repo.join("README.md"), "the monorepo\n").unwrap();
    std::fs::write(
        repo.join("docs/kb/knowledge/structure.yaml"),
        "articles: []\n",
    )
    .unwrap();
    std::fs::write(
        repo.join("docs/kb/knowledge/guide.md"),
        "# Guide\nline two\n",
    )
    .unwrap();
    // A file at the root with the same workspace-relative name: a repository path wins.
    std::fs::create_dir_all(repo.join("knowledge")).unwrap();
    std::fs::write(repo.join("knowledge/top.md"), "# Top\n").unwrap();
    std::fs::write(repo.join("docs/kb/knowledge/top.md"), "# Inner top\n").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("/etc/passwd", repo.join("passwd-link")).unwrap();
    support::git(&repo, &["init", "-q", "-b", "main"]);
    support::git(&repo, &["add", "-A"]);
    support::git(&repo, &["commit", "-q", "-m", "kb"]);
    let r = open_reader(&repo.join("docs/kb"), &[]).expect("reader");
    let ws = r
        .repositories()
        .workspace()
        .expect("the workspace's repository");
    assert_eq!(ws.workspace_root, "docs/kb");
    let name = ws.name.clone();
    let read_at = |path: &str| {
        r.read(&ReadRequest {
            repository: name.clone(),
            revision: None,
            path: path.into(),
            start_line: None,
            end_line: None,
        })
    };
    // A pack names a page by its workspace path: read there, and said where it was read.
    let page = read_at("knowledge/guide.md").expect("the page");
    assert_eq!(page.path, "docs/kb/knowledge/guide.md");
    assert!(
        page.content.starts_with("# Guide\nline two\n"),
        "{}",
        page.content
    );
    assert_eq!(
        read_at("docs/kb/knowledge/guide.md")
            .expect("by its repository path")
            .content,
        page.content
    );
    assert_eq!(
        read_at("README.md").expect("the root").content,
        "the monorepo\n"
    );
    assert_eq!(
        read_at("knowledge/top.md").expect("the root's").content,
        "# Top\n"
    );
    let nowhere = read_at("knowledge/nowhere.md").expect_err("no such page");
    assert_eq!(nowhere.code, ErrorCode::FileNotFound);
    // It says it looked under the workspace's directory too.
    assert!(
        nowhere
            .message
            .ends_with(", nor under the workspace's directory docs/kb/"),
        "{}",
        nowhere.message
    );
    // Another reason than absence is one sentence with where else it looked (the
    // plugin-reads walk, `mcp_odd.py`: "… is a symlink that leaves the repository, nor under
    // the workspace's directory docs/kb/").
    #[cfg(unix)]
    assert_eq!(
        read_at("passwd-link").expect_err("a link out").message,
        "File not found: 'passwd-link' is a symlink that leaves the repository, and the workspace's directory docs/kb/ has no file of that path either"
    );
    // A search under `knowledge` is one under the workspace's pages, as a read is; a
    // repository directory that exists is searched as named.
    let search_in = |paths: &[&str]| {
        r.search(&SearchRequest {
            repository: name.clone(),
            pattern: "line two|Top".into(),
            paths: paths.iter().map(|p| p.to_string()).collect(),
            ..Default::default()
        })
        .expect("a search")
    };
    assert_eq!(
        paths(&search_in(&["knowledge"])),
        ["knowledge/top.md"],
        "the root's knowledge/ exists: it is what is searched"
    );
    assert_eq!(
        paths(&search_in(&["knowledge/guide.md"])),
        ["docs/kb/knowledge/guide.md"]
    );
    let many = r
        .read_many(&ReadManyRequest {
            repository: name.clone(),
            revision: None,
            items: vec![
                item("knowledge/guide.md", Some(2), Some(2)),
                item("knowledge/nowhere.md", None, None),
            ],
        })
        .expect("a batch");
    assert_eq!(many.items[0].path, "docs/kb/knowledge/guide.md");
    assert_eq!(many.items[0].content.as_deref(), Some("line two\n"));
    assert_eq!(
        many.items[1].error.as_ref().map(|e| e.code),
        Some(ErrorCode::FileNotFound)
    );
}
