//! A failed tool call: the `{code, message}` body of an `isError` result.

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

    /// `CODE: message`, the text content of a failed call.
    pub fn text(&self) -> String {
        format!("{}: {}", self.code, self.message)
    }
}
