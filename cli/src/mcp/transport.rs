//! The stdio transport: newline-delimited JSON-RPC 2.0 on stdin/stdout.
//!
//! The SDK's own stdio transport silently drops an oversized line and ignores unparsable input,
//! which leaves a client waiting for an answer that never comes. This transport answers both with
//! a JSON-RPC error instead (`-32600` for an oversized message, `-32700` for a parse error,
//! `-32600` for well-formed JSON that is not a JSON-RPC message), and ends cleanly at EOF.
//! Those errors carry the request's id whenever it can be read from the part of the message
//! before the fault (see [`salvaged_id`]): a client matches a response to its request by id,
//! and one answered with `"id": null` waits for a response until its own timeout.
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

/// How much of the start of an oversized message is kept to read its id from: the Python SDK
/// writes `jsonrpc` and `id` before `method` and `params`.
const OVERSIZED_PREFIX: usize = 64 * 1024;

/// How much of the end of an oversized message is kept to read its id from: the TypeScript
/// SDK writes `method` and `params` first and `id` last.
const OVERSIZED_SUFFIX: usize = 4 * 1024;

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
    /// The line exceeded the limit; its bytes were discarded up to and including its newline
    /// but for its first [`OVERSIZED_PREFIX`] and last [`OVERSIZED_SUFFIX`] bytes.
    Oversized {
        len: usize,
        head: Vec<u8>,
        tail: Vec<u8>,
    },
    Eof,
}

/// Reads one `\n`-terminated line without ever buffering more than `max` bytes of it.
async fn read_bounded<R: AsyncBufRead + Unpin>(read: &mut R, max: usize) -> std::io::Result<Line> {
    let mut line = Vec::new();
    let mut tail = Vec::new();
    let mut seen = 0usize;
    let mut oversized = false;
    let oversized_line = |len, mut head: Vec<u8>, mut tail: Vec<u8>| {
        head.truncate(OVERSIZED_PREFIX);
        tail.drain(..tail.len().saturating_sub(OVERSIZED_SUFFIX));
        Line::Oversized { len, head, tail }
    };
    loop {
        let available = read.fill_buf().await?;
        if available.is_empty() {
            // A trailing line without a newline is still a message: clients may close stdin
            // right after writing their last request.
            return Ok(if oversized {
                oversized_line(seen, line, tail)
            } else if line.is_empty() {
                Line::Eof
            } else {
                Line::Complete(line)
            });
        }
        let newline = memchr_newline(available);
        let take = newline.map_or(available.len(), |i| i + 1);
        seen = seen.saturating_add(take);
        if !oversized && line.len() + take > max.saturating_add(1) {
            oversized = true;
            tail.extend_from_slice(&line[line.len().saturating_sub(OVERSIZED_SUFFIX)..]);
            line.truncate(OVERSIZED_PREFIX);
        }
        if !oversized {
            line.extend_from_slice(&available[..take]);
        } else {
            let keep = take.min(OVERSIZED_PREFIX.saturating_sub(line.len()));
            line.extend_from_slice(&available[..keep]);
            tail.extend_from_slice(&available[..take]);
            // Trimmed once it is twice the bound, so the bytes moved stay linear in the line.
            if tail.len() > 2 * OVERSIZED_SUFFIX {
                tail.drain(..tail.len() - OVERSIZED_SUFFIX);
            }
        }
        read.consume(take);
        if newline.is_some() {
            return Ok(if oversized {
                oversized_line(seen, line, tail)
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
    id_from(value.get("id")?)
}

/// A JSON-RPC id: an integer or a string.
fn id_from(id: &serde_json::Value) -> Option<RequestId> {
    match id {
        serde_json::Value::Number(n) => n.as_i64().map(NumberOrString::Number),
        serde_json::Value::String(s) => Some(NumberOrString::String(s.as_str().into())),
        _ => None,
    }
}

/// The top-level `"id"` of a message that does not parse as a whole (a lone surrogate escape
/// in a string, or the start of an oversized message), when it comes before the fault or
/// skipping the members before it passes the fault: a member skipped is not checked for
/// surrogates.
///
/// serde_json's own parser walks the object and records the id as soon as it has read it, so
/// strings, escapes and nesting are read by the rules of JSON, not by a scan for `"id"` that
/// a question quoting `"id": 3` would fool; the error at the fault is then ignored.
fn salvaged_id(bytes: &[u8]) -> Option<RequestId> {
    use serde::de::DeserializeSeed;
    let mut found = None;
    let mut de = serde_json::Deserializer::from_slice(bytes);
    // The fault this message is answered for stops the walk; the id, if read, is kept.
    let _ = IdSeed(&mut found).deserialize(&mut de);
    found.as_ref().and_then(id_from)
}

/// Reads a JSON object's `"id"` member into the slot, skipping the other members unparsed.
struct IdSeed<'a>(&'a mut Option<serde_json::Value>);

impl<'de> serde::de::DeserializeSeed<'de> for IdSeed<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for IdSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON-RPC message object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == "id" {
                *self.0 = Some(map.next_value()?);
                // What follows is not needed; the walk ends on the first error or here.
                return Ok(());
            }
            map.next_value::<serde::de::IgnoredAny>()?;
        }
        Ok(())
    }
}

/// The `"id"` of a JSON object that ends with it (`…,"id":7}`), read backwards from its end:
/// the member just before the object's closing brace, when its value is a number or a string,
/// is a member of that object, whatever came before. This is how the TypeScript SDK writes a
/// request, and all there is left of an oversized message's end.
fn id_at_end(bytes: &[u8]) -> Option<RequestId> {
    let rest = trim_end(trim_end(bytes).strip_suffix(b"}")?);
    let value_start = if rest.ends_with(b"\"") {
        string_start(rest)?
    } else {
        rest.iter()
            .rposition(|b| !matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
            .map_or(0, |i| i + 1)
    };
    let (before, value) = rest.split_at(value_start);
    let before = trim_end(trim_end(before).strip_suffix(b":")?);
    if !before.ends_with(b"\"") {
        return None;
    }
    let key_start = string_start(before)?;
    let key: String = serde_json::from_slice(&before[key_start..]).ok()?;
    let opens_member = trim_end(&before[..key_start]);
    if key != "id" || !(opens_member.ends_with(b",") || opens_member.ends_with(b"{")) {
        return None;
    }
    id_from(&serde_json::from_slice(value).ok()?)
}

fn trim_end(bytes: &[u8]) -> &[u8] {
    let end = bytes
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    &bytes[..end]
}

/// Where the JSON string that `bytes` ends with begins: its opening quote, the first quote
/// before the last that is not escaped (preceded by an even number of backslashes).
fn string_start(bytes: &[u8]) -> Option<usize> {
    let mut close = bytes.len().checked_sub(1)?;
    loop {
        let quote = bytes[..close].iter().rposition(|b| *b == b'"')?;
        let backslashes = bytes[..quote]
            .iter()
            .rev()
            .take_while(|b| **b == b'\\')
            .count();
        if backslashes % 2 == 0 {
            return Some(quote);
        }
        close = quote;
    }
}

/// The parse error's text, naming a lone UTF-16 surrogate (`"\ud800 "`, what `JSON.stringify`
/// writes for a string cut between the halves of an emoji) for what it is: serde_json says
/// "unexpected end of hex escape" or "lone leading surrogate", which point at the wrong thing.
fn parse_error_text(error: &serde_json::Error) -> String {
    let said = error.to_string();
    if said.starts_with("unexpected end of hex escape")
        || said.starts_with("lone leading surrogate in hex escape")
    {
        return format!(
            "invalid JSON: invalid \\u escape: lone UTF-16 surrogate at line {} column {} (a \
             string cut between the two halves of a surrogate pair, as in the middle of an \
             emoji); send the character whole or leave it out",
            error.line(),
            error.column()
        );
    }
    format!("invalid JSON: {said}")
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
            Ok(Line::Oversized { len, head, tail }) => {
                eprintln!("ontoly mcp: rejected a message of {len} bytes (limit {max})");
                let error = ErrorData::invalid_request(
                    format!("message of {len} bytes exceeds the limit of {max} bytes"),
                    None,
                );
                let id = salvaged_id(&head).or_else(|| id_at_end(&tail));
                if send_error(&writer, error, id).await.is_err() {
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
                ErrorData::parse_error(parse_error_text(&error), None),
                salvaged_id(text).or_else(|| id_at_end(text)),
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
                Line::Oversized { len, head, tail } => out.push(format!(
                    "<oversized {len}: {} … {}>",
                    String::from_utf8_lossy(&head),
                    String::from_utf8_lossy(&tail)
                )),
                Line::Eof => return out,
            }
        }
    }

    #[tokio::test]
    async fn bounded_reads_split_lines_and_skip_oversized_ones() {
        let input = b"{\"a\":1}\n0123456789abcdef\nxy\ntail";
        assert_eq!(
            lines(input, 10).await,
            vec![
                "{\"a\":1}\n",
                "<oversized 17: 0123456789abcdef\n … 0123456789abcdef\n>",
                "xy\n",
                "tail"
            ]
        );
    }

    #[tokio::test]
    async fn a_line_of_exactly_the_limit_is_accepted() {
        assert_eq!(lines(b"0123456789\n", 10).await, vec!["0123456789\n"]);
        assert_eq!(
            lines(b"0123456789A\n", 10).await,
            vec!["<oversized 12: 0123456789A\n … 0123456789A\n>"]
        );
    }

    /// Only the first and last bytes of an oversized line are kept, to read its id from.
    #[tokio::test]
    async fn an_oversized_line_keeps_only_its_ends() {
        let mut input = br#"{"jsonrpc":"2.0","id":77,"params":{"q":""#.to_vec();
        input.extend(std::iter::repeat_n(b'x', 3 * OVERSIZED_PREFIX));
        input.extend_from_slice(br#""},"id":"end"}"#);
        input.push(b'\n');
        let mut read = tokio::io::BufReader::with_capacity(1000, input.as_slice());
        let Line::Oversized { len, head, tail } = read_bounded(&mut read, 2 * OVERSIZED_PREFIX)
            .await
            .expect("read")
        else {
            panic!("not oversized");
        };
        assert_eq!(len, input.len());
        assert_eq!(head.len(), OVERSIZED_PREFIX);
        assert_eq!(tail.len(), OVERSIZED_SUFFIX);
        assert!(input.ends_with(&tail));
        assert_eq!(salvaged_id(&head), Some(NumberOrString::Number(77)));
        assert_eq!(id_at_end(&tail), Some(NumberOrString::String("end".into())));
    }

    #[test]
    fn the_id_a_message_ends_with_is_read_backwards() {
        let id = |s: &str| id_at_end(s.as_bytes());
        // As the TypeScript SDK writes a request: `method`, `params`, `jsonrpc`, then `id`.
        assert_eq!(
            id(r#"xxxx"}},"jsonrpc":"2.0","id":12}"#),
            Some(NumberOrString::Number(12))
        );
        assert_eq!(
            id("…x\" , \"id\" : \"a\\\"b\" }\r\n"),
            Some(NumberOrString::String("a\"b".into()))
        );
        assert_eq!(id(r#"{"id":-3}"#), Some(NumberOrString::Number(-3)));
        // A nested object's id, an id quoted inside a string, or no id at the end: none.
        assert_eq!(id(r#"…,"params":{"id":3}}"#), None);
        assert_eq!(id(r#"…,"q":"say \",\"id\":4"}"#), None);
        assert_eq!(id(r#"…,"jsonrpc":"2.0"}"#), None);
        assert_eq!(id(r#"…x":"id":5}"#), None);
        assert_eq!(id(r#"…,"id":null}"#), None);
        assert_eq!(id(r#"…,"id":5"#), None);
        assert_eq!(id("}"), None);
        assert_eq!(id(""), None);
    }

    #[test]
    fn the_id_before_a_fault_is_salvaged() {
        let id = |s: &str| salvaged_id(s.as_bytes());
        // A lone surrogate after the id (MCP-TS walk, `repro-idnull.mjs`).
        let cut = r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"EvidencePack","arguments":{"query":"caret \ud800 range"}}}"#;
        assert_eq!(id(cut), Some(NumberOrString::Number(5)));
        assert_eq!(
            id(r#"{"id":"abc","method":"x","params":{"q":"\udc00"}}"#),
            Some(NumberOrString::String("abc".into()))
        );
        // The prefix of a message cut anywhere after its id.
        assert_eq!(
            id(r#"{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"argum"#),
            Some(NumberOrString::Number(77))
        );
        // An "id" inside the params is not the request's; members skipped on the way are not
        // checked for surrogates, so an id after the fault is read too.
        assert_eq!(id(r#"{"params":{"id":3,"q":"x"#), None);
        assert_eq!(
            id(r#"{"params":{"id":3,"q":"\ud800"},"id":9}"#),
            Some(NumberOrString::Number(9))
        );
        // Nothing to read, or an id that is no JSON-RPC id.
        assert_eq!(
            id(r#"{"jsonrpc":"2.0","method":"x","params":{"q":"\ud800"}}"#),
            None
        );
        assert_eq!(id(r#"{"id":null,"q":"\ud800"}"#), None);
        assert_eq!(id(r#"{"id":1.5,"q":"\ud800"}"#), None);
        assert_eq!(id("[1,2"), None);
        assert_eq!(id("not json"), None);
        assert_eq!(id(""), None);
    }

    #[test]
    fn a_lone_surrogate_is_named_in_the_parse_error() {
        for text in [
            r#"{"q":"a \ud800 b"}"#,
            r#"{"q":"\udc00"}"#,
            r#"{"q":"\ud800\u0041"}"#,
        ] {
            let Err(e) = serde_json::from_str::<serde_json::Value>(text) else {
                panic!("parsed: {text}");
            };
            let said = parse_error_text(&e);
            assert!(
                said.starts_with(
                    "invalid JSON: invalid \\u escape: lone UTF-16 surrogate at line 1 column "
                ),
                "{said}"
            );
        }
        let Err(e) = serde_json::from_str::<serde_json::Value>("{\"q\":") else {
            panic!("parsed");
        };
        assert!(parse_error_text(&e).starts_with("invalid JSON: EOF"), "{e}");
    }
}
