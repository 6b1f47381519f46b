//! The MCP stdio line transport (`cli/src/mcp/transport.rs`, compiled here from the binary's
//! source file by `#[path]`: the binary exposes no library, and the file depends on nothing
//! else of the crate, which its module doc promises): any byte stream, read through a small
//! buffer, gets exactly one outcome per line — a message handed to the server, or one
//! JSON-RPC error line (`-32602` for a protocol method whose params do not parse) — except
//! blank lines and unknown notifications, which get none.

#[path = "../../cli/src/mcp/transport.rs"]
#[allow(dead_code)]
mod transport;

use rmcp::service::RxJsonRpcMessage;
use rmcp::transport::Transport;
use rmcp::RoleServer;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

/// A writer that keeps what it is given.
struct Sink(Arc<Mutex<Vec<u8>>>);

impl tokio::io::AsyncWrite for Sink {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.0.lock().expect("sink").extend_from_slice(buf);
        Poll::Ready(Ok(buf.len()))
    }
    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// What the transport must do with one line: (messages handed on, error lines written).
fn expected(line: &[u8], max: usize) -> (usize, usize) {
    if line.len() > max + 1 {
        return (0, 1);
    }
    let text = line.strip_suffix(b"\n").unwrap_or(line);
    let text = text.strip_suffix(b"\r").unwrap_or(text);
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    if text.iter().all(u8::is_ascii_whitespace) {
        return (0, 0);
    }
    if let Ok(message) = serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(text) {
        return match transport::invalid_params(&message) {
            Some(_) => (0, 1),
            None => (1, 0),
        };
    }
    match serde_json::from_slice::<serde_json::Value>(text) {
        Ok(v) if v.get("method").is_some() && v.get("id").is_none() => (0, 0),
        _ => (0, 1),
    }
}

/// Runs the target on one input: panics when one of the checks described above fails.
pub fn run(data: &[u8]) {
    let Some((&cfg, input)) = data.split_first() else {
        return;
    };
    // A small limit and buffer, so oversized lines and lines split across reads are reached.
    let max = 64 + (cfg as usize % 8) * 64;
    let capacity = 1 + (cfg as usize / 8) % 32;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let out = Arc::new(Mutex::new(Vec::new()));
    let sink = Sink(out.clone());
    let reader =
        tokio::io::BufReader::with_capacity(capacity, std::io::Cursor::new(input.to_vec()));
    let received = runtime.block_on(async move {
        let mut t = transport::LineTransport::new(reader, sink, max);
        let mut n = 0usize;
        while t.receive().await.is_some() {
            n += 1;
        }
        n
    });
    let mut want = (0, 0);
    let mut rest = input;
    while !rest.is_empty() {
        let end = rest
            .iter()
            .position(|&b| b == b'\n')
            .map_or(rest.len(), |i| i + 1);
        let (m, e) = expected(&rest[..end], max);
        want = (want.0 + m, want.1 + e);
        rest = &rest[end..];
    }
    let written = out.lock().expect("sink").clone();
    let text = String::from_utf8(written).expect("the transport writes UTF-8");
    let errors: Vec<&str> = text.lines().collect();
    for line in &errors {
        let v: serde_json::Value = serde_json::from_str(line).expect("each written line is JSON");
        assert_eq!(v["jsonrpc"], "2.0");
        assert!(v["error"]["code"].is_i64(), "{line}");
    }
    assert_eq!((received, errors.len()), want, "input {input:?}");
}
