//! Protocol robustness of `ontoly mcp`, driven over real pipes: the handshake for each
//! supported revision, malformed and oversized input, and closed stdin. Every wait is bounded
//! by a timeout in this harness, so a hang fails the test instead of stalling the suite.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const WAIT: Duration = Duration::from_secs(20);

mod common;

use common::copy_dir;

/// A small valid workspace (copied per test, so the snapshot cache never lands in the tree).
fn fixture() -> PathBuf {
    common::fixtures().join("valid")
}

struct Server {
    /// The workspace copy it serves.
    root: PathBuf,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Receiver<String>,
}

impl Server {
    fn start() -> Server {
        Server::start_with(|_| {})
    }

    /// A server on a fresh copy of the fixture, after `prepare` has changed the copy.
    fn start_with(prepare: impl FnOnce(&Path)) -> Server {
        let workspace = tempfile::tempdir().expect("tempdir");
        // A fixed directory name: the workspace name is part of the graph and its hash.
        let root = workspace.path().join("valid");
        std::fs::create_dir(&root).expect("mkdir");
        copy_dir(&fixture(), &root);
        prepare(&root);
        let mut child = Command::new(env!("CARGO_BIN_EXE_ontoly"))
            .arg("mcp")
            .arg("--workspace")
            .arg(&root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn ontoly mcp");
        let stdout = child.stdout.take().expect("stdout");
        let stderr_pipe = child.stderr.take().expect("stderr");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let (etx, stderr) = mpsc::channel();
        std::thread::spawn(move || {
            let mut all = String::new();
            let _ = BufReader::new(stderr_pipe).read_to_string(&mut all);
            let _ = etx.send(all);
        });
        // The workspace directory must outlive the server process.
        std::mem::forget(workspace);
        let stdin = child.stdin.take();
        Server {
            root,
            child,
            stdin,
            lines,
            stderr,
        }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write request");
        stdin.flush().expect("flush");
    }

    fn send(&mut self, message: Value) {
        let mut bytes = serde_json::to_vec(&message).expect("encode");
        bytes.push(b'\n');
        self.send_raw(&bytes);
    }

    /// The next message on stdout; every stdout line must be a JSON-RPC 2.0 message.
    fn recv(&self) -> Value {
        let line = match self.lines.recv_timeout(WAIT) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no message from the server within {WAIT:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed stdout"),
        };
        let value: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout carried a non-JSON line ({e}): {line}"));
        assert_eq!(value["jsonrpc"], "2.0", "{line}");
        value
    }

    /// The response to request `id`, skipping anything else (e.g. notifications).
    fn response(&self, id: i64) -> Value {
        let deadline = Instant::now() + WAIT;
        while Instant::now() < deadline {
            let message = self.recv();
            if message["id"] == json!(id) {
                return message;
            }
        }
        panic!("no response to request {id}");
    }

    fn initialize(&mut self, version: &str) -> Value {
        self.send(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "protocol-test", "version": "0"}}}),
        );
        let response = self.response(1);
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        response
    }

    /// Closes stdin and waits (bounded) for the process to exit; returns its exit status and
    /// the whole of stderr.
    fn close(mut self) -> (std::process::ExitStatus, String) {
        if let Ok(line) = self.lines.try_recv() {
            panic!("unexpected message before close: {line}");
        }
        drop(self.stdin.take());
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                let stderr = self.stderr.recv_timeout(WAIT).unwrap_or_default();
                assert!(
                    !stderr.contains("panicked"),
                    "the server panicked: {stderr}"
                );
                return (status, stderr);
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the server did not exit within {WAIT:?} of stdin closing");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn initialize_negotiates_each_handshake_revision() {
    for version in ["2025-06-18", "2025-11-25"] {
        let mut server = Server::start();
        let response = server.initialize(version);
        let result = &response["result"];
        assert_eq!(result["protocolVersion"], version);
        assert_eq!(result["serverInfo"]["name"], "ontoly");
        assert_eq!(result["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
        assert!(result["capabilities"]["tools"].is_object());
        let instructions = result["instructions"].as_str().unwrap_or_default();
        assert!(instructions.contains("EvidencePack"), "{instructions}");
        assert!(instructions.contains("filesToInspect"), "{instructions}");
        let (status, _) = server.close();
        assert!(status.success(), "{status}");
    }
}

#[test]
fn an_unknown_old_revision_is_answered_with_a_supported_one() {
    let mut server = Server::start();
    let response = server.initialize("2023-01-01");
    let version = response["result"]["protocolVersion"]
        .as_str()
        .unwrap_or_default();
    assert!(
        ["2025-06-18", "2025-11-25"].contains(&version),
        "negotiated {version}"
    );
    server.close();
}

#[test]
fn the_newest_revision_is_discoverable_and_served_without_a_handshake() {
    let mut server = Server::start();
    server.send(
        json!({"jsonrpc": "2.0", "id": 7, "method": "server/discover", "params": {
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "protocol-test", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {}
        }}}),
    );
    let response = server.response(7);
    let versions = &response["result"]["supportedVersions"];
    for version in ["2025-06-18", "2025-11-25", "2026-07-28"] {
        assert!(
            versions
                .as_array()
                .is_some_and(|v| v.contains(&json!(version))),
            "{response}"
        );
    }
    server.close();
}

#[test]
fn malformed_json_gets_a_parse_error_and_the_session_goes_on() {
    let mut server = Server::start();
    server.initialize("2025-11-25");
    server.send_raw(b"{\"jsonrpc\": \"2.0\", \"method\": \n");
    let error = server.recv();
    assert_eq!(error["error"]["code"], -32700, "{error}");
    // Present and null, as JSON-RPC 2.0 says (indexing a missing member reads as null too).
    assert_eq!(error.get("id"), Some(&Value::Null), "{error}");
    // Cut after its id: answered with it, so the client's call ends now, not at its timeout.
    server.send_raw(b"{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \n");
    let error = server.recv();
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert_eq!(error["id"], 2, "{error}");
    // A question cut between the halves of an emoji, as `JSON.stringify` writes it (MCP-TS
    // walk, `repro-idnull.mjs`): the id is recovered and the message names the fault.
    server.send_raw(
        br#"{"jsonrpc":"2.0","id":"q-7","method":"tools/call","params":{"name":"EvidencePack","arguments":{"query":"Does caret match prereleases? \ud83d"}}}
"#,
    );
    let error = server.recv();
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert_eq!(error["id"], "q-7", "{error}");
    let message = error["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("lone UTF-16 surrogate"), "{message}");
    server.send_raw(b"42\n");
    let error = server.recv();
    assert_eq!(error["error"]["code"], -32600, "{error}");
    assert_eq!(error.get("id"), Some(&Value::Null), "{error}");

    server.send(json!({"jsonrpc": "2.0", "id": 3, "result": 5, "method": 9}));
    let error = server.recv();
    assert_eq!(error["error"]["code"], -32600, "{error}");
    assert_eq!(
        error["id"], 3,
        "the id of well-formed JSON is echoed: {error}"
    );

    server.send(json!({"jsonrpc": "2.0", "id": 4, "method": "ping"}));
    assert_eq!(server.response(4)["result"], json!({}));

    // Blank lines are skipped, and CRLF line ends are accepted.
    server.send_raw(b"\n  \n{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}\r\n");
    assert_eq!(server.response(5)["result"], json!({}));
    let (status, _) = server.close();
    assert!(status.success());
}

#[test]
fn an_oversized_request_is_refused_without_being_buffered() {
    let mut server = Server::start();
    server.initialize("2025-11-25");
    let pad = "x".repeat(3 * 1024 * 1024);
    let big = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "EvidencePack", "arguments": {"query": pad}}});
    server.send(big);
    let error = server.recv();
    assert_eq!(error["error"]["code"], -32600, "{error}");
    let message = error["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("exceeds the limit"), "{message}");
    // Read from the start of the message (MCP-TS walk, `repro-idnull.mjs`: a client answered
    // `"id": null` waited for its own timeout).
    assert_eq!(error["id"], 5, "{error}");
    // Or from its end, where the TypeScript SDK writes the id.
    let mut big =
        br#"{"method":"tools/call","params":{"name":"EvidencePack","arguments":{"query":""#
            .to_vec();
    big.extend(std::iter::repeat_n(b'y', 3 * 1024 * 1024));
    big.extend_from_slice(b"\"}},\"jsonrpc\":\"2.0\",\"id\":\"ts-9\"}\n");
    server.send_raw(&big);
    let error = server.recv();
    assert_eq!(error["error"]["code"], -32600, "{error}");
    assert_eq!(error["id"], "ts-9", "{error}");

    server.send(json!({"jsonrpc": "2.0", "id": 6, "method": "ping"}));
    assert_eq!(server.response(6)["result"], json!({}));
    server.close();
}

#[test]
fn closed_stdin_before_initialize_is_a_clean_exit() {
    let server = Server::start();
    let (status, stderr) = server.close();
    assert!(status.success(), "{status}: {stderr}");
}

#[test]
fn closed_stdin_mid_request_is_a_clean_exit() {
    let mut server = Server::start();
    server.initialize("2025-06-18");
    server.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\"");
    let (status, stderr) = server.close();
    assert!(status.success(), "{status}: {stderr}");
}

#[test]
fn a_directory_that_is_not_a_workspace_is_a_usage_error_before_any_protocol() {
    let empty = tempfile::tempdir().expect("tempdir");
    let out = Command::new(env!("CARGO_BIN_EXE_ontoly"))
        .args(["mcp", "--workspace"])
        .arg(empty.path())
        .stdin(Stdio::null())
        .output()
        .expect("run ontoly mcp");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "stdout must stay clean");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is not a knowledge workspace"), "{stderr}");
}

/// The `{code, message}` of a failed tool call: `isError`, its body as JSON in the text content
/// and no `structuredContent`, which a client that checks it against the tool's (success)
/// `outputSchema` would refuse, losing the message (the TypeScript SDK 1.x does; MCP-TS walk,
/// `repro-calltool-error.mjs`).
fn tool_error(result: &Value) -> Value {
    assert_eq!(result["isError"], true, "{result}");
    assert!(result.get("structuredContent").is_none(), "{result}");
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    let body: Value = serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("the error text is not JSON ({e}): {text}"));
    assert!(
        body["code"].is_string() && body["message"].is_string(),
        "{body}"
    );
    body
}

#[test]
fn unknown_tools_and_bad_arguments_are_reported_distinctly() {
    let mut server = Server::start();
    server.initialize("2025-11-25");
    server.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "no_such_tool", "arguments": {}}}));
    let error = server.response(2);
    assert_eq!(error["error"]["code"], -32602, "{error}");

    server.send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "read", "arguments": {"repository": "a/b", "path": 7}}}));
    let body = tool_error(&server.response(3)["result"]);
    assert_eq!(body["code"], "INVALID_ARGUMENTS");
    let message = body["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("expected {repository: string"),
        "{message}"
    );

    // An error found while running the tool has the same shape.
    server.send(json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": {"name": "read", "arguments": {"repository": "valid", "path": "nope.md"}}}));
    let body = tool_error(&server.response(4)["result"]);
    assert_eq!(body["code"], "FILE_NOT_FOUND", "{body}");
    server.close();
}

/// `read`'s `path` takes its lines as the pack's text prints them (`file:S-E`), as the CLI's
/// `read` does (stop-54 MCP walk: a bare FILE_NOT_FOUND); lines given twice that disagree are
/// refused, saying how to give them once, in `read` and per item in `read_many`.
#[test]
fn a_read_path_may_name_its_lines() {
    let mut server = Server::start();
    server.initialize("2025-11-25");
    let call = |server: &mut Server, id: i64, name: &str, arguments: Value| {
        server.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}));
        server.response(id)["result"].clone()
    };
    let page = "knowledge/faq/guide.md";
    let apart = call(
        &mut server,
        2,
        "read",
        json!({"repository": "valid", "path": page, "startLine": 2, "endLine": 4}),
    );
    assert_eq!(apart["isError"], false, "{apart}");
    for (id, arguments) in [
        (
            3,
            json!({"repository": "valid", "path": format!("{page}:2-4")}),
        ),
        (
            4,
            json!({"repository": "valid", "path": format!("{page}:2-4"), "startLine": 2}),
        ),
    ] {
        let in_path = call(&mut server, id, "read", arguments);
        assert_eq!(
            in_path["structuredContent"], apart["structuredContent"],
            "{in_path}"
        );
    }
    let twice = call(
        &mut server,
        5,
        "read",
        json!({"repository": "valid", "path": format!("{page}:2-4"), "startLine": 3}),
    );
    let body = tool_error(&twice);
    assert_eq!(body["code"], "INVALID_LINE_RANGE", "{body}");
    let message = body["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("names lines 2-4") && message.contains("startLine 2 and endLine 4"),
        "{message}"
    );
    let many = call(
        &mut server,
        6,
        "read_many",
        json!({"repository": "valid", "items": [
            {"path": format!("{page}:2-4")},
            {"path": format!("{page}:2-4"), "endLine": 9},
        ]}),
    );
    let items = &many["structuredContent"]["items"];
    assert_eq!(
        (items[0]["startLine"].as_u64(), items[0]["endLine"].as_u64()),
        (Some(2), Some(4)),
        "{many}"
    );
    assert_eq!(items[1]["error"]["code"], "INVALID_LINE_RANGE", "{many}");
    let message = items[1]["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("Item 2: Lines given twice"),
        "{message}"
    );
    server.close();
}

#[test]
fn requests_in_flight_when_stdin_closes_are_answered_before_a_clean_exit() {
    let mut server = Server::start();
    server.initialize("2025-11-25");
    for id in 2..6 {
        server.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "EvidencePack", "arguments": {"query": "how are plugins loaded"}}}),
        );
    }
    drop(server.stdin.take());
    let mut answered: Vec<i64> = (2..6)
        .map(|_| server.recv()["id"].as_i64().unwrap_or_default())
        .collect();
    answered.sort_unstable();
    assert_eq!(answered, vec![2, 3, 4, 5]);
    let (status, _) = server.close();
    assert!(status.success(), "{status}");
}

#[test]
fn the_tool_list_matches_its_snapshot_and_a_pack_renders_its_ids() {
    let mut server = Server::start();
    server.initialize("2025-11-25");
    server.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let tools = server.response(2)["result"]["tools"].clone();
    insta::assert_json_snapshot!("tools_list", tools);

    server.send(
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "EvidencePack", "arguments": {"query": "how are plugins loaded", "limit": 5}}}),
    );
    let result = server.response(3)["result"].clone();
    assert_eq!(result["isError"], false, "{result}");
    let text = result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    // The rendering is built from the structured pack it accompanies.
    let pack = &result["structuredContent"];
    assert!(
        text.contains(pack["answer"].as_str().unwrap_or("?")),
        "{text}"
    );
    for id in pack["stableIds"].as_array().into_iter().flatten() {
        assert!(text.contains(id.as_str().unwrap_or("?")), "{text}");
    }
    server.close();
}

#[test]
fn a_workspace_that_cannot_be_loaded_is_reported_by_every_tool_and_the_server_stays_up() {
    let mut server = Server::start_with(|root| {
        std::fs::write(root.join("ontoly.toml"), "[sources\n").expect("write ontoly.toml");
    });
    server.initialize("2025-11-25");
    for id in [2, 3] {
        server.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "EvidencePack", "arguments": {"query": "plugins"}}}),
        );
        let body = tool_error(&server.response(id)["result"]);
        assert_eq!(body["code"], "GRAPH_UNAVAILABLE");
        let message = body["message"].as_str().unwrap_or_default();
        assert!(message.contains("ontoly.toml"), "{message}");
    }
    server.send(json!({"jsonrpc": "2.0", "id": 4, "method": "ping"}));
    assert_eq!(server.response(4)["result"], json!({}));
    // Mended while the server runs: the next call loads the workspace again and answers.
    std::fs::write(server.root.join("ontoly.toml"), "").expect("mend ontoly.toml");
    server.send(
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
        "name": "EvidencePack", "arguments": {"query": "plugins"}}}),
    );
    let result = server.response(5)["result"].clone();
    assert_eq!(result["isError"], false, "{result}");
    let (status, stderr) = server.close();
    assert!(status.success());
    assert!(
        stderr.contains("GRAPH_UNAVAILABLE"),
        "the cause is logged: {stderr}"
    );
}

/// A page edited while the server runs: the next call answers from the page as it is now (a
/// pack that quoted the old text while a read of the page showed the new one contradicted
/// itself), and the server says it rebuilt.
#[test]
fn a_workspace_edited_under_the_server_is_rebuilt_before_the_next_answer() {
    let mut server = Server::start();
    server.initialize("2025-11-25");
    let ask = |server: &mut Server, id: i64, query: &str| {
        server.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "EvidencePack", "arguments": {"query": query}}}),
        );
        let result = server.response(id)["result"].clone();
        assert_eq!(result["isError"], false, "{result}");
        result["structuredContent"].clone()
    };
    let before = ask(&mut server, 2, "zanzibar quokka");
    assert_eq!(before["confidence"]["level"], "none", "{before}");
    let page = server.root.join("knowledge/faq/guide.md");
    let text = std::fs::read_to_string(&page).expect("page");
    let edited = text.replacen(
        "Plugins are discovered at start-up;",
        "Plugins are discovered at start-up by the zanzibar quokka loader;",
        1,
    );
    assert_ne!(edited, text, "the fixture's sentence is there");
    std::fs::write(&page, edited).expect("edit the page");
    let after = ask(&mut server, 3, "zanzibar quokka");
    assert_ne!(
        after["provenance"]["graphHash"], before["provenance"]["graphHash"],
        "{after}"
    );
    assert_eq!(
        after["topNodes"][0]["id"], "section:faq/guide.md#answer",
        "{after}"
    );
    // Nothing changed since: no second rebuild.
    assert_eq!(
        ask(&mut server, 4, "zanzibar quokka")["provenance"],
        after["provenance"]
    );
    let (status, stderr) = server.close();
    assert!(status.success(), "{stderr}");
    assert_eq!(
        stderr
            .matches("the workspace changed since it was loaded")
            .count(),
        1,
        "{stderr}"
    );
}

/// The pack for `query` from a server on the fixture after `prepare`, with the server's stderr.
fn pack_after(prepare: impl FnOnce(&Path), query: &str) -> (Value, Value, String) {
    let mut server = Server::start_with(prepare);
    server.initialize("2025-11-25");
    let mut packs = Vec::new();
    for id in [2, 3] {
        server.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "EvidencePack", "arguments": {"query": query}}}),
        );
        let result = server.response(id)["result"].clone();
        assert_eq!(result["isError"], false, "{result}");
        // Each server runs on its own temporary copy, named as given on the command line
        // (provenance, suggested commands).
        let pack = &result["structuredContent"];
        let root = pack["provenance"]["root"]
            .as_str()
            .unwrap_or("?")
            .to_string();
        let text = serde_json::to_string(pack).expect("json");
        packs.push(serde_json::from_str(&text.replace(&root, "ROOT")).expect("json"));
    }
    let (status, stderr) = server.close();
    assert!(status.success());
    let second = packs.pop().expect("two packs");
    (packs.pop().expect("two packs"), second, stderr)
}

#[test]
fn a_snapshot_found_corrupt_while_answering_is_rebuilt_and_the_answer_is_the_same() {
    use ontoly_graph::graph::store::{container::Container, KIND};
    let query = "how are plugins loaded";
    let (expected, _, clean) = pack_after(|_| {}, query);
    assert!(!clean.contains("checksum"), "{clean}");
    let (first, second, stderr) = pack_after(
        |root| {
            let built = common::run_in(root, &["--workspace", ".", "build"]);
            assert_eq!(built.code, 0, "{}", built.stderr);
            let path = root.join(".ontoly/graph.map");
            let mut bytes = std::fs::read(&path).expect("graph.map");
            // One flipped byte in every block of the node rows: any answer reads some of
            // them, and none is read to open the snapshot (a block shared with the manifest
            // would be refused at open instead, which the snapshot tests cover).
            let c = Container::open_unkeyed(&path, KIND).expect("opens");
            let block = c.block_size();
            let (at, len) = c.span_of("node.rows").expect("node rows");
            drop(c);
            for b in (at..at + len).step_by(block) {
                bytes[b] ^= 0x01;
            }
            std::fs::write(&path, &bytes).expect("write graph.map");
        },
        query,
    );
    assert_eq!(first, expected, "the first answer is the clean one");
    assert_eq!(second, expected);
    assert_eq!(
        stderr.matches("failed its checksum").count(),
        1,
        "reloaded once, then the rebuilt snapshot serves: {stderr}"
    );
}

/// Cache files truncated in place under the running server (a cache restore, `rsync
/// --inplace`): reading the mapping would fault (SIGBUS) or give other bytes. The server sees
/// the files changed, loads again, and answers as before.
#[test]
fn cache_files_truncated_in_place_under_the_server_are_reloaded_not_read() {
    let query = "how are plugins loaded";
    let mut root = None;
    let mut server = Server::start_with(|r| {
        let built = common::run_in(r, &["--workspace", ".", "build"]);
        assert_eq!(built.code, 0, "{}", built.stderr);
        root = Some(r.to_path_buf());
    });
    let root = root.expect("prepared");
    server.initialize("2025-11-25");
    let ask = |server: &mut Server, id: i64| {
        server.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "EvidencePack", "arguments": {"query": query}}}),
        );
        let result = server.response(id)["result"].clone();
        assert_eq!(result["isError"], false, "{result}");
        result["structuredContent"]["answer"].clone()
    };
    let before = ask(&mut server, 2);
    for f in [".ontoly/graph.map", ".ontoly/artifacts/search-index.map"] {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(root.join(f))
            .expect("open in place");
        file.set_len(4096).expect("truncate in place");
    }
    assert_eq!(ask(&mut server, 3), before);
    assert_eq!(ask(&mut server, 4), before);
    let (status, stderr) = server.close();
    assert!(status.success(), "{stderr}");
    assert_eq!(
        stderr.matches("changed on disk; reloading it").count(),
        1,
        "reloaded once: {stderr}"
    );
}

/// Every top-level field a tool returns is declared in its output schema: a client that makes
/// typed bindings from the schema would otherwise drop it (an MCP walk found `nextToolCalls`,
/// which the server's instructions tell agents to send, missing from EvidencePack's).
#[test]
fn every_field_a_tool_returns_is_in_its_output_schema() {
    let mut server = Server::start();
    server.initialize("2025-11-25");
    server.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let tools = server.response(2)["result"]["tools"].clone();
    let declared = |name: &str| -> Vec<String> {
        let tool = tools
            .as_array()
            .into_iter()
            .flatten()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("no tool {name}"));
        tool["outputSchema"]["properties"]
            .as_object()
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default()
    };
    let calls = [
        ("EvidencePack", json!({"query": "how are plugins loaded"})),
        ("EvidencePack", json!({"query": "zanzibar quokka"})),
        (
            "read",
            json!({"repository": "valid", "path": "knowledge/faq/guide.md"}),
        ),
        (
            "read_many",
            json!({"repository": "valid", "items": [{"path": "knowledge/faq/guide.md"}]}),
        ),
        (
            "search",
            json!({"repository": "valid", "pattern": "plugin"}),
        ),
        ("capabilities", json!({})),
        (
            "capability",
            json!({"name": "GraphStatistics", "input": {}}),
        ),
        ("Drift", json!({})),
    ];
    for (id, (name, arguments)) in (10..).zip(calls) {
        server.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": name, "arguments": arguments}}),
        );
        let result = server.response(id)["result"].clone();
        assert_eq!(result["isError"], false, "{name}: {result}");
        let known = declared(name);
        for key in result["structuredContent"]
            .as_object()
            .into_iter()
            .flat_map(|o| o.keys())
        {
            assert!(
                known.contains(key),
                "{name} returns `{key}`, not in {known:?}"
            );
        }
    }
    server.close();
}
