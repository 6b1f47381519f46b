//! The stdio transport: newline-delimited JSON-RPC 2.0 on stdin/stdout.
//!
//! The SDK's own stdio transport silently drops an oversized line and ignores unparsable input,
//! which leaves a client waiting for an answer that never comes. This transport answers both with
//! a JSON-RPC error instead (`-32600` for an oversized message, `-32700` for a parse error,
//! `-32600` for well-formed JSON that is not a JSON-RPC message), and ends cleanly at EOF.
//!
//! A request for a method the protocol defines whose params do not parse (`tools/call`
//! without `params`) reaches the SDK as a custom request, which it would answer "method not
//! found"; this transport answers `-32602` (invalid params) instead.
//!
//! Lines are read by a dedicated task that feeds a channel: `receive` is polled inside the
//! SDK's `select!`, and a channel receive is cancellation safe where a partial line read is not.
//!
//! This file depends on nothing else of the crate: the fuzz target `mcp_transport` compiles it
//! on its own (`fuzz/fuzz_targets/mcp_transport.rs`).

use std::sync::Arc;

use rmcp::model::{ClientRequest, ErrorData, JsonRpcMessage, NumberOrString, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, Mutex};

/// The largest request line accepted, in bytes (newline excluded). Tool arguments are small
/// (a query, a path, at most ten read items), so 1 MiB leaves ample room while bounding memory.
pub const MAX_MESSAGE_BYTES: usize = 1024 * 1024;

/// Messages read ahead of the service loop; back-pressure beyond this stops reading stdin.
const READ_AHEAD: usize = 64;

type SharedWriter<W> = Arc<Mutex<Option<W>>>;

/// A server transport over any buffered reader and writer (stdin/stdout in production).
pub struct LineTransport<W> {
    incoming: mpsc::Receiver<RxJsonRpcMessage<RoleServer>>,
    writer: SharedWriter<W>,
}

impl<W> LineTransport<W>
where
    W: AsyncWrite + Unpin + Send + 'static,
{
    /// Starts the reader task over `read` and returns the transport writing to `write`.
    pub fn new<R>(read: R, write: W, max_message_bytes: usize) -> Self
    where
        R: AsyncBufRead + Unpin + Send + 'static,
    {
        let (tx, rx) = mpsc::channel(READ_AHEAD);
        let writer: SharedWriter<W> = Arc::new(Mutex::new(Some(write)));
        tokio::spawn(read_loop(read, tx, writer.clone(), max_message_bytes));
        Self {
            incoming: rx,
            writer,
        }
    }
}

/// Serializes one message as a single line and flushes it, so that a client reading line by
/// line sees every message as soon as it is complete.
async fn write_line<W: AsyncWrite + Unpin>(
    writer: &SharedWriter<W>,
    bytes: Vec<u8>,
) -> std::io::Result<()> {
    let mut guard = writer.lock().await;
    let Some(out) = guard.as_mut() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotConnected,
            "transport is closed",
        ));
    };
    out.write_all(&bytes).await?;
    out.flush().await
}

fn encode(message: &impl serde::Serialize) -> std::io::Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec(message).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    Ok(bytes)
}

async fn send_error<W: AsyncWrite + Unpin>(
    writer: &SharedWriter<W>,
    error: ErrorData,
    id: Option<RequestId>,
) -> std::io::Result<()> {
    let message: TxJsonRpcMessage<RoleServer> = JsonRpcMessage::error(error, id);
    // JSON-RPC 2.0: an error about a request whose id could not be read has `"id": null`;
    // the SDK leaves the member out.
    let mut value = serde_json::to_value(&message).map_err(std::io::Error::other)?;
    if let Some(object) = value.as_object_mut() {
        object.entry("id").or_insert(serde_json::Value::Null);
    }
    write_line(writer, encode(&value)?).await
}

/// The request methods of the protocol (those of the SDK's `ClientRequest`). A request that
/// names one of them yet parses only as a custom request has params that do not fit it.
const PROTOCOL_METHODS: [&str; 21] = [
    "ping",
    "initialize",
    "server/discover",
    "completion/complete",
    "logging/setLevel",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/directory/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "subscriptions/listen",
    "tools/call",
    "tools/list",
    "tasks/get",
    "tasks/update",
    "tasks/cancel",
    "skills/list",
    "skills/get",
];

/// The error for a request whose method the protocol defines but whose params do not parse as
/// that method's, with the request's id; `None` for every other message.
pub fn invalid_params(message: &RxJsonRpcMessage<RoleServer>) -> Option<(ErrorData, RequestId)> {
    let JsonRpcMessage::Request(request) = message else {
        return None;
    };
    let ClientRequest::CustomRequest(custom) = &request.request else {
        return None;
    };
    let method = custom.method.as_str();
    PROTOCOL_METHODS.contains(&method).then(|| {
        let error =
            ErrorData::invalid_params(format!("invalid or missing params for {method}"), None);
        (error, request.id.clone())
    })
}

/// What one bounded line read produced.
enum Line {
    Complete(Vec<u8>),
    /// The line exceeded the limit; its bytes were discarded up to and including its newline.
    Oversized(usize),
    Eof,
}

/// Reads one `\n`-terminated line without ever buffering more than `max` bytes of it.
async fn read_bounded<R: AsyncBufRead + Unpin>(read: &mut R, max: usize) -> std::io::Result<Line> {
    let mut line = Vec::new();
    let mut seen = 0usize;
    let mut oversized = false;
    loop {
        let available = read.fill_buf().await?;
        if available.is_empty() {
            // A trailing line without a newline is still a message: clients may close stdin
            // right after writing their last request.
            return Ok(if oversized {
                Line::Oversized(seen)
            } else if line.is_empty() {
                Line::Eof
            } else {
                Line::Complete(line)
            });
        }
        let newline = memchr_newline(available);
        let take = newline.map_or(available.len(), |i| i + 1);
        seen = seen.saturating_add(take);
        if !oversized {
            if line.len() + take > max.saturating_add(1) {
                oversized = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(&available[..take]);
            }
        }
        read.consume(take);
        if newline.is_some() {
            return Ok(if oversized {
                Line::Oversized(seen)
            } else {
                Line::Complete(line)
            });
        }
    }
}

fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|b| *b == b'\n')
}

/// The id of a well-formed JSON object that failed to parse as a JSON-RPC message, so that the
/// error can be correlated by the client.
fn request_id_of(value: &serde_json::Value) -> Option<RequestId> {
    match value.get("id")? {
        serde_json::Value::Number(n) => n.as_i64().map(NumberOrString::Number),
        serde_json::Value::String(s) => Some(NumberOrString::String(s.as_str().into())),
        _ => None,
    }
}

async fn read_loop<R, W>(
    mut read: R,
    tx: mpsc::Sender<RxJsonRpcMessage<RoleServer>>,
    writer: SharedWriter<W>,
    max: usize,
) where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    loop {
        let line = match read_bounded(&mut read, max).await {
            Ok(Line::Complete(line)) => line,
            Ok(Line::Oversized(len)) => {
                eprintln!("ontoly mcp: rejected a message of {len} bytes (limit {max})");
                let error = ErrorData::invalid_request(
                    format!("message of {len} bytes exceeds the limit of {max} bytes"),
                    None,
                );
                if send_error(&writer, error, None).await.is_err() {
                    return;
                }
                continue;
            }
            Ok(Line::Eof) => return,
            Err(e) => {
                eprintln!("ontoly mcp: cannot read stdin: {e}");
                return;
            }
        };
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
        if text.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let error = match serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(text) {
            Ok(message) => {
                if let Some((error, id)) = invalid_params(&message) {
                    if send_error(&writer, error, Some(id)).await.is_err() {
                        return;
                    }
                    continue;
                }
                if tx.send(message).await.is_err() {
                    return;
                }
                continue;
            }
            Err(e) => e,
        };
        let reply = match serde_json::from_slice::<serde_json::Value>(text) {
            Err(_) => send_error(
                &writer,
                ErrorData::parse_error(format!("invalid JSON: {error}"), None),
                None,
            ),
            Ok(value) if value.get("method").is_some() && value.get("id").is_none() => {
                // A notification gets no response, even an error one (JSON-RPC 2.0 §4.1).
                eprintln!("ontoly mcp: ignored an unrecognised notification: {error}");
                continue;
            }
            // A method the protocol defines with params of the wrong shape (`"params": []`):
            // the request is well formed, its params are not.
            Ok(value)
                if value.get("params").is_some()
                    && value
                        .get("method")
                        .and_then(|m| m.as_str())
                        .is_some_and(|m| PROTOCOL_METHODS.contains(&m)) =>
            {
                let method = value["method"].as_str().unwrap_or_default();
                send_error(
                    &writer,
                    ErrorData::invalid_params(
                        format!("invalid params for {method}: {error}"),
                        None,
                    ),
                    request_id_of(&value),
                )
            }
            Ok(value) => send_error(
                &writer,
                ErrorData::invalid_request(format!("not a valid JSON-RPC request: {error}"), None),
                request_id_of(&value),
            ),
        };
        if reply.await.is_err() {
            return;
        }
    }
}

impl<W> Transport<RoleServer> for LineTransport<W>
where
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        let writer = self.writer.clone();
        async move { write_line(&writer, encode(&item)?).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        self.incoming.recv().await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let mut guard = self.writer.lock().await;
        if let Some(mut out) = guard.take() {
            out.flush().await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines(input: &[u8], max: usize) -> Vec<String> {
        let mut read = tokio::io::BufReader::with_capacity(7, input);
        let mut out = Vec::new();
        loop {
            match read_bounded(&mut read, max).await.unwrap() {
                Line::Complete(l) => out.push(String::from_utf8(l).unwrap()),
                Line::Oversized(n) => out.push(format!("<oversized {n}>")),
                Line::Eof => return out,
            }
        }
    }

    #[tokio::test]
    async fn bounded_reads_split_lines_and_skip_oversized_ones() {
        let input = b"{\"a\":1}\n0123456789abcdef\nxy\ntail";
        assert_eq!(
            lines(input, 10).await,
            vec!["{\"a\":1}\n", "<oversized 17>", "xy\n", "tail"]
        );
    }

    #[tokio::test]
    async fn a_line_of_exactly_the_limit_is_accepted() {
        assert_eq!(lines(b"0123456789\n", 10).await, vec!["0123456789\n"]);
        assert_eq!(lines(b"0123456789A\n", 10).await, vec!["<oversized 12>"]);
    }
}
