//! The Source Graph repository plugin contract (ABI 2), implemented natively: one JSON
//! request in, one JSON response out, the references of every returned knowledge page range
//! as attachments. Byte-compatible with Context's `context-evidence` plugin.
//!
//! Differences from Context's plugin, following formats.md: a request that is not valid JSON
//! or not of the request shape gets the same one-attachment `INVALID_INPUT` form as a request
//! that breaks the rules (Context answers `{"issues":[…]}` there), and a file's `content` is
//! optional (Context requires the field although it never uses it).

use ontoly_graph::formats::references::{RangeQuery, ReferenceContext};
use ontoly_graph::formats::source_registry::{is_safe_relative_path, DirFiles, WorkspaceFiles};
use serde::Deserialize;
use serde_json::json;
use std::collections::HashSet;
use std::path::Path;

/// The only ABI version this contract speaks.
pub const ABI_VERSION: u32 = 2;
/// The most files one request may carry.
pub const MAX_FILES: usize = 10;
/// The largest response, in bytes, before it is replaced by an `OUTPUT_LIMIT` diagnostic.
pub const OUTPUT_LIMIT: usize = 64 * 1024;
/// The largest request, in bytes.
pub const MAX_INPUT: usize = 1024 * 1024;
/// The largest file the plugin reads (pages, structure, registries, notes).
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// A request that does not deserialize: not JSON, a wrong type, a file without `item_id`, an
/// unknown key in `args` (the contract's exact wording).
const SHAPE_MESSAGE: &str =
    "Expected ABI 2 input with item_id on every file and valid plugin arguments";
const RULES_MESSAGE: &str =
    "Expected ABI 2, unique nonempty item IDs, a safe workspace root and at most 10 read items";
const OUTPUT_MESSAGE: &str = "Evidence exceeds output budget; read a narrower range";

#[derive(Deserialize)]
struct Request {
    abi_version: u32,
    operation: String,
    #[serde(default)]
    repository: Option<String>,
    #[serde(default)]
    args: Option<Args>,
    files: Vec<FileItem>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Args {
    #[serde(default)]
    workspace_root: Option<String>,
    #[serde(default)]
    include_digest: bool,
}

#[derive(Deserialize)]
struct FileItem {
    item_id: String,
    path: String,
    start_line: u64,
    end_line: u64,
    // Part of the contract, validated for type; the plugin locates sections in the committed
    // page, never in returned text.
    #[serde(default)]
    #[allow(dead_code)]
    content: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    truncated: bool,
}

/// The one-attachment response of a request-level failure (`INVALID_INPUT`, `OUTPUT_LIMIT`).
fn batch_diagnostic(code: &str, message: &str) -> String {
    let entry = json!({"code": code, "message": message});
    json!({"attachments": [{"text": format!("diagnostics:\n- {entry}")}]}).to_string()
}

/// Whether the request breaks the contract's rules.
fn breaks_rules(request: &Request, root: &str) -> bool {
    let mut ids = HashSet::new();
    request.abi_version != ABI_VERSION
        || (!root.is_empty() && !is_safe_relative_path(root))
        || !matches!(request.operation.as_str(), "read" | "read_many")
        || request.files.len() > MAX_FILES
        || request.files.iter().any(|f| {
            f.item_id.is_empty()
                || f.item_id.len() > 256
                || f.item_id.chars().any(char::is_control)
                || !ids.insert(f.item_id.as_str())
        })
}

/// Answers one request, reading files through `files` (repository-relative paths).
pub fn enrich_with(request_json: &[u8], files: &dyn WorkspaceFiles) -> String {
    if request_json.len() > MAX_INPUT {
        return batch_diagnostic("INVALID_INPUT", "Input exceeds plugin budget");
    }
    let mut request: Request = match serde_json::from_slice(request_json) {
        Ok(r) => r,
        Err(_) => return batch_diagnostic("INVALID_INPUT", SHAPE_MESSAGE),
    };
    let args = request.args.take().unwrap_or_default();
    let root = args.workspace_root.as_deref().unwrap_or(".");
    let root = if root == "." { "" } else { root };
    if breaks_rules(&request, root) {
        return batch_diagnostic("INVALID_INPUT", RULES_MESSAGE);
    }
    let context = ReferenceContext::new(files, root, request.repository.as_deref());
    let mut attachments = Vec::new();
    for file in &request.files {
        let output = context.references_for_range(&RangeQuery {
            path: &file.path,
            start_line: file.start_line,
            end_line: file.end_line,
            include_digest: args.include_digest,
        });
        if let Some(text) = output.to_yaml() {
            attachments.push(json!({"item_id": file.item_id, "text": text}));
        }
    }
    let response = json!({ "attachments": attachments }).to_string();
    if response.len() > OUTPUT_LIMIT {
        return batch_diagnostic("OUTPUT_LIMIT", OUTPUT_MESSAGE);
    }
    response
}

/// Answers one request against the repository checked out at `root` (the plugin's
/// `--root DIR`): compact JSON, keys sorted, non-ASCII raw, no trailing newline.
pub fn enrich(request_json: &[u8], root: &Path) -> String {
    let files = DirFiles::new(root).with_max_bytes(MAX_FILE_BYTES);
    enrich_with(request_json, &files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ontoly_graph::formats::source_registry::FileReadError;

    fn no_files(_: &str) -> Result<Vec<u8>, FileReadError> {
        Err(FileReadError::Unreadable)
    }

    fn invalid(message: &str) -> String {
        format!(
            "{{\"attachments\":[{{\"text\":\"diagnostics:\\n- {{\\\"code\\\":\\\"INVALID_INPUT\\\",\\\"message\\\":\\\"{message}\\\"}}\"}}]}}"
        )
    }

    #[test]
    fn oversized_and_malformed_requests() {
        let big = vec![b' '; MAX_INPUT + 1];
        assert_eq!(
            enrich_with(&big, &no_files),
            invalid("Input exceeds plugin budget")
        );
        for shape in [
            &b"[]"[..],
            br#"{"abi_version": 2, "operation": "read", "files": ["#,
            br#"{"abi_version":2,"operation":"read","files":[{"path":"a.md","start_line":1,"end_line":2}]}"#,
            br#"{"abi_version":2,"operation":"read","args":{"verbose":true},"files":[]}"#,
            br#"{"abi_version":"2","operation":"read","files":[]}"#,
        ] {
            assert_eq!(
                enrich_with(shape, &no_files),
                invalid(SHAPE_MESSAGE),
                "{}",
                String::from_utf8_lossy(shape)
            );
        }
        assert_eq!(
            enrich_with(
                br#"{"abi_version":2,"operation":"read","files":[]}"#,
                &no_files
            ),
            r#"{"attachments":[]}"#
        );
    }

    #[test]
    fn read_failures_never_echo_host_details() {
        let request = br#"{"abi_version":2,"operation":"read","args":{"workspace_root":"kb"},"files":[{"item_id":"i","path":"kb/knowledge/a.md","start_line":1,"end_line":2}]}"#;
        let out = enrich(request, Path::new("/nonexistent/private/location"));
        assert_eq!(
            out,
            r#"{"attachments":[{"item_id":"i","text":"diagnostics:\n- code: EVIDENCE_UNAVAILABLE\n  message: Host could not read the requested repository file\n  path: kb/knowledge/a.md\n"}]}"#
        );
    }
}
