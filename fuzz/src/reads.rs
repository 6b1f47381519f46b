//! Pinned reads (`read`, `read_many`, `search`, `resolve`) over the demo workspace's clones:
//! the request is fuzzed (the first byte picks the operation, the rest is its JSON). Results
//! stay within the read limits, and errors never carry a disk location or the credentials of
//! the requested repository name.

use super::assert_no_credentials_beyond;
use ontoly_graph::sources::reads::{
    ReadError, ReadManyRequest, ReadRequest, Reader, ResolveRequest, SearchRequest,
    MAX_BATCH_BYTES, MAX_BATCH_LINES, MAX_READ_BYTES, MAX_READ_LINES,
};
use ontoly_graph::{CachePolicy, Session, SessionOptions};
use std::sync::OnceLock;

/// The demo workspace. Both crates that compile this file (`fuzz/` and `cli/`, for the stable
/// replay) sit one directory below the repository root.
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
    // Lossily: serde skips an unknown field without checking its UTF-8, so a request with
    // invalid bytes there is still served; failing that, the raw text is all the caller typed.
    let text = String::from_utf8_lossy(json);
    let mut out = String::new();
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(v) => walk(&v, &mut out),
        Err(_) => out.push_str(&text),
    }
    out
}

/// The error messages of the same request for a repository name without user-info: the
/// fixed text an error holds whatever was asked.
fn neutral<T: serde::de::DeserializeOwned>(
    json: &[u8],
    run: impl FnOnce(&T) -> Vec<ReadError>,
) -> String {
    let text = String::from_utf8_lossy(json);
    let Ok(mut v) = serde_json::from_str::<serde_json::Value>(&text) else {
        return String::new();
    };
    if let Some(o) = v.as_object_mut() {
        o.insert("repository".into(), "zz-neutral".into());
    }
    match serde_json::from_value::<T>(v) {
        Ok(q) => run(&q)
            .into_iter()
            .map(|e| e.message)
            .collect::<Vec<_>>()
            .join("\n"),
        Err(_) => String::new(),
    }
}

fn check_error(e: &ReadError, repository: &str, typed: &str, baseline: &str) {
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
    // The placeholder a name is replaced by when it is not shown is fixed text too.
    let message = e.message.replace("the requested repository", "");
    assert_no_credentials_beyond(repository, &message, baseline);
}

/// Runs the target on one input: panics when one of the checks described above fails.
pub fn run(data: &[u8]) {
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
                Err(e) => {
                    let base =
                        neutral::<ReadRequest>(json, |q| r.read(q).err().into_iter().collect());
                    check_error(&e, &req.repository, &typed, &base)
                }
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
                    let base = neutral::<ReadManyRequest>(json, |q| match r.read_many(q) {
                        Ok(res) => res.items.into_iter().filter_map(|i| i.error).collect(),
                        Err(e) => vec![e],
                    });
                    for i in &res.items {
                        if let Some(e) = &i.error {
                            check_error(e, &req.repository, &typed, &base);
                        }
                    }
                }
                Err(e) => {
                    let base = neutral::<ReadManyRequest>(json, |q| {
                        r.read_many(q).err().into_iter().collect()
                    });
                    check_error(&e, &req.repository, &typed, &base)
                }
            }
        }
        2 => {
            let Ok(req) = serde_json::from_slice::<SearchRequest>(json) else {
                return;
            };
            if let Err(e) = r.search(&req) {
                let base =
                    neutral::<SearchRequest>(json, |q| r.search(q).err().into_iter().collect());
                check_error(&e, &req.repository, &typed, &base);
            }
        }
        _ => {
            let Ok(req) = serde_json::from_slice::<ResolveRequest>(json) else {
                return;
            };
            match r.resolve(&req) {
                Ok(res) => assert_eq!(res.commit.len(), 40),
                Err(e) => {
                    let base = neutral::<ResolveRequest>(json, |q| {
                        r.resolve(q).err().into_iter().collect()
                    });
                    check_error(&e, &req.repository, &typed, &base)
                }
            }
        }
    }
}
