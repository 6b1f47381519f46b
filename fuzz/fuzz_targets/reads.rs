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

fn check_error(e: &ReadError, repository: &str) {
    let root = demo().canonicalize().unwrap_or_else(|_| demo());
    let root = root.to_str().unwrap_or("/");
    // A disk location the caller did not type (the requested name itself may hold one: the
    // fuzzer finds the workspace's path in its own error messages).
    for dir in [root, "/work/", "/tmp/"] {
        assert!(!e.message.contains(dir) || repository.contains(dir), "{e}");
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
                Err(e) => check_error(&e, &req.repository),
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
                            check_error(e, &req.repository);
                        }
                    }
                }
                Err(e) => check_error(&e, &req.repository),
            }
        }
        2 => {
            let Ok(req) = serde_json::from_slice::<SearchRequest>(json) else {
                return;
            };
            if let Err(e) = r.search(&req) {
                check_error(&e, &req.repository);
            }
        }
        _ => {
            let Ok(req) = serde_json::from_slice::<ResolveRequest>(json) else {
                return;
            };
            match r.resolve(&req) {
                Ok(res) => assert_eq!(res.commit.len(), 40),
                Err(e) => check_error(&e, &req.repository),
            }
        }
    }
});
