//! A failed tool call: the `{code, message}` body of an `isError` result, carried as its text
//! content (see [`ToolError::body`]).

use ontoly_graph::diagnostics::Code;

/// A failed tool call. Codes come from the one vocabulary of [`Code`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ToolError {
    /// A stable upper-case code (`FILE_NOT_FOUND`, `CAPABILITY_INVALID_INPUT`, …).
    pub code: Code,
    /// What went wrong, and for bad input what was expected.
    pub message: String,
}

impl ToolError {
    /// A tool error with `code` and `message`.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }

    /// `CODE: message`, for the server's log.
    pub fn text(&self) -> String {
        format!("{}: {}", self.code, self.message)
    }

    /// The `{"code": …, "message": …}` JSON of a failed call's text content. It is not sent as
    /// `structuredContent`: the MCP specification asks structured results to conform to the
    /// tool's `outputSchema`, which describes the success, and clients that check it (the
    /// TypeScript SDK 1.x does even on `isError`) refused the whole result, so the agent never
    /// saw the message.
    pub fn body(&self) -> String {
        let mut body = serde_json::Map::new();
        body.insert("code".into(), self.code.as_str().into());
        body.insert("message".into(), self.message.as_str().into());
        serde_json::Value::Object(body).to_string()
    }
}
