//! What the MCP tools call: one function per tool over the loaded graph and the readable
//! repositories. The server only adapts arguments and results; every rule lives behind this
//! trait (capabilities crate for Evidence Packs and capabilities, graph reads for pinned reads).

use serde_json::Value;

use super::tools::{ReadInput, ReadManyInput, ResolveInput, SearchInput};

/// A failed tool call: the `{code, message}` body of an `isError` result.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ToolError {
    /// A stable upper-case code (`FILE_NOT_FOUND`, `CAPABILITY_INVALID_INPUT`, …).
    pub code: String,
    /// What went wrong, and for bad input what was expected.
    pub message: String,
}

impl ToolError {
    /// A tool error with `code` and `message`.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            code: code.into(),
            message: message.into(),
        }
    }
}

/// The operations behind the tools. Implementations are shared by concurrent calls, and every
/// method may block (graph traversal, git object reads): the server runs them on the blocking
/// pool.
pub trait Backend: Send + Sync + 'static {
    /// The Evidence Pack for `query` (the same as `ontoly evidence --format json`).
    fn evidence_pack(&self, query: &str, limit: Option<i64>) -> Result<Value, ToolError>;
    /// The registered capabilities with their input schemas: `{capabilities: [...]}`.
    fn capabilities(&self) -> Result<Value, ToolError>;
    /// The result of capability `name` on `input`.
    fn capability(&self, name: &str, input: Value) -> Result<Value, ToolError>;
    /// The full commit a repository revision resolves to.
    fn resolve(&self, input: &ResolveInput) -> Result<Value, ToolError>;
    /// A pinned read of one line range of one file.
    fn read(&self, input: &ReadInput) -> Result<Value, ToolError>;
    /// Up to ten pinned reads against one repository and revision.
    fn read_many(&self, input: &ReadManyInput) -> Result<Value, ToolError>;
    /// A content search at a pinned commit.
    fn search(&self, input: &SearchInput) -> Result<Value, ToolError>;
}
