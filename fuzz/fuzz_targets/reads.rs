//! Pinned reads (`read`, `read_many`, `search`, `resolve`) over the demo workspace's clones:
//! the request is fuzzed (the first byte picks the operation, the rest is its JSON). Results
//! stay within the read limits, and errors never carry a disk location or the credentials of
//! the requested repository name.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ontoly_fuzz::assert_no_credentials;
use ontoly_graph::sources::reads::{
    ReadError, ReadManyRequest, ReadRequest, Reader, ResolveRequest, SearchRequest,
    MAX_BATCH_BYTES, MAX_BATCH_LINES, MAX_READ_BYTES, MAX_READ_LINES,
};
use ontoly_graph::{CachePolicy, Session, SessionOptions};
use std::sync::OnceLock;

fn demo() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/demo")
}

fn reader() -> &'static Reader {
    static READER: OnceLock<Reader> = OnceLock::new();
    READER.get_or_init(|| {
        let opts = SessionOptions::new(demo())
            .workspace(demo())
            .cache(CachePolicy::Off);
        let session = Session::open(opts).expect("the demo workspace opens");
        session.reader().expect("the demo's repositories open")
    })
}

/// Every string the request holds (the caller's own text may be echoed: a glob, a path).
fn typed(json: &[u8]) -> String {
    fn walk(v: &serde_json::Value, out: &mut String) {
        match v {
            serde_json::Value::String(s) => {
                out.push_str(s);
                out.push('\n');
            }
            serde_json::Value::Array(a) => a.iter().for_each(|v| walk(v, out)),
            serde_json::Value::Object(o) => o.values().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = String::new();
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(json) {
        walk(&v, &mut out);
    }
    out
}

fn check_error(e: &ReadError, repository: &str, typed: &str) {
    let root = demo().canonicalize().unwrap_or_else(|_| demo());
    let root = root.to_str().unwrap_or("/");
    // A disk location the caller did not type (the request itself may hold one, in a name or a
    // glob: the fuzzer finds the workspace's path in its own error messages; and a remote-like
    // name is echoed as its key, `host:path` shown as `host/path`).
    let as_key = typed.replace(':', "/");
    for dir in [root, "/work/", "/tmp/"] {
        assert!(
            !e.message.contains(dir) || typed.contains(dir) || as_key.contains(dir),
            "{e}"
        );
    }
    assert!(!e.message.contains('\n'), "multi-line message: {e}");
    // Issue 13, defect 8: `read --repo 'u:SECRET@host/x'` echoed the secret.
    assert_no_credentials(repository, &e.message);
}

fuzz_target!(|data: &[u8]| {
    let Some((&op, json)) = data.split_first() else {
        return;
    };
    let r = reader();
    let typed = typed(json);
    match op % 4 {
        0 => {
            let Ok(req) = serde_json::from_slice::<ReadRequest>(json) else {
                return;
            };
            match r.read(&req) {
                Ok(res) => {
                    assert!(res.start_line >= 1);
                    assert!(res.end_line + 1 >= res.start_line);
                    assert!(res.end_line + 1 - res.start_line <= MAX_READ_LINES);
                    assert!(res.content.len() <= MAX_READ_BYTES);
                    assert_eq!(res.has_more, res.next_start_line.is_some());
                    assert_eq!(res.commit.len(), 40);
                }
                Err(e) => check_error(&e, &req.repository, &typed),
            }
        }
        1 => {
            let Ok(req) = serde_json::from_slice::<ReadManyRequest>(json) else {
                return;
            };
            match r.read_many(&req) {
                Ok(res) => {
                    assert_eq!(res.items.len(), req.items.len());
                    let bytes: usize = res
                        .items
                        .iter()
                        .filter_map(|i| i.content.as_ref())
                        .map(String::len)
                        .sum();
                    assert!(bytes <= MAX_BATCH_BYTES, "{bytes}");
                    let lines: u64 = res
                        .items
                        .iter()
                        .filter_map(|i| Some(i.end_line? + 1 - i.start_line?))
                        .sum();
                    assert!(lines <= MAX_BATCH_LINES, "{lines}");
                    for i in &res.items {
                        if let Some(e) = &i.error {
                            check_error(e, &req.repository, &typed);
                        }
                    }
                }
                Err(e) => check_error(&e, &req.repository, &typed),
            }
        }
        2 => {
            let Ok(req) = serde_json::from_slice::<SearchRequest>(json) else {
                return;
            };
            if let Err(e) = r.search(&req) {
                check_error(&e, &req.repository, &typed);
            }
        }
        _ => {
            let Ok(req) = serde_json::from_slice::<ResolveRequest>(json) else {
                return;
            };
            match r.resolve(&req) {
                Ok(res) => assert_eq!(res.commit.len(), 40),
                Err(e) => check_error(&e, &req.repository, &typed),
            }
        }
    }
});
