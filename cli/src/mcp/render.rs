//! Compact text renderings of tool results, for clients that show only `content` text. The
//! structured result stays the source of truth; these are summaries an agent can act on.

use std::fmt::Write as _;

use serde_json::Value;

use super::backend::ToolError;

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn n(v: &Value, key: &str) -> String {
    match v.get(key) {
        Some(Value::Number(x)) => x.to_string(),
        Some(Value::String(x)) => x.clone(),
        _ => "?".to_string(),
    }
}

fn arr<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

fn short(commit: &str) -> &str {
    commit.get(..12).unwrap_or(commit)
}

/// `CODE: message`.
pub fn error(e: &ToolError) -> String {
    format!("{}: {}", e.code, e.message)
}

fn confidence_line(out: &mut String, c: &Value) {
    let _ = writeln!(
        out,
        "confidence: {} ({}) {}",
        s(c, "level"),
        n(c, "score"),
        s(c, "explanation")
    );
}

fn diagnostics(out: &mut String, list: &[Value]) {
    for d in list {
        let _ = writeln!(
            out,
            "- {} {}: {}",
            s(d, "severity"),
            s(d, "code"),
            s(d, "message")
        );
    }
}

/// An Evidence Pack: answer, confidence, top nodes, files to inspect, diagnostics, fallbacks.
pub fn evidence_pack(p: &Value) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "query: {}", s(p, "query"));
    let _ = writeln!(out, "answer: {}", s(p, "answer"));
    if let Some(c) = p.get("confidence") {
        confidence_line(&mut out, c);
    }
    let nodes = arr(p, "topNodes");
    if !nodes.is_empty() {
        out.push_str("top nodes:\n");
        for node in nodes {
            let _ = writeln!(out, "- {} ({})", s(node, "id"), s(node, "type"));
        }
    }
    let files = arr(p, "filesToInspect");
    if !files.is_empty() {
        out.push_str("files to inspect (read these pinned ranges to verify):\n");
        for f in files {
            let _ = writeln!(
                out,
                "- {}@{} {} L{}-L{}: {}",
                s(f, "repository"),
                s(f, "commit"),
                s(f, "path"),
                n(f, "startLine"),
                n(f, "endLine"),
                s(f, "reason")
            );
        }
    }
    let diags = arr(p, "diagnostics");
    if !diags.is_empty() {
        out.push_str("diagnostics:\n");
        diagnostics(&mut out, diags);
    }
    let fallbacks = arr(p, "fallbacks");
    if !fallbacks.is_empty() {
        out.push_str("fallbacks:\n");
        for f in fallbacks {
            match f.as_str() {
                Some(text) => {
                    let _ = writeln!(out, "- {text}");
                }
                None => {
                    let _ = writeln!(out, "- {f}");
                }
            }
        }
    }
    if let Some(prov) = p.get("provenance") {
        let _ = writeln!(
            out,
            "provenance: graph {} ({})",
            short(s(prov, "graphHash")),
            s(prov, "graphVersion")
        );
    }
    out
}

/// The capability list: one line per capability.
pub fn capabilities(v: &Value) -> String {
    let mut out = String::new();
    for c in arr(v, "capabilities") {
        let _ = writeln!(
            out,
            "{} v{}: {}",
            s(c, "name"),
            n(c, "version"),
            s(c, "description")
        );
    }
    out
}

/// A capability result: summary, confidence, diagnostics, then its data as JSON.
pub fn capability(v: &Value) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} v{}: {}",
        s(v, "capability"),
        n(v, "version"),
        s(v, "summary")
    );
    if let Some(c) = v.get("confidence") {
        confidence_line(&mut out, c);
    }
    let _ = writeln!(out, "evidence items: {}", arr(v, "evidence").len());
    diagnostics(&mut out, arr(v, "diagnostics"));
    if let Some(data) = v.get("data") {
        let _ = writeln!(out, "data: {data}");
    }
    out
}

/// `repository revision -> commit`.
pub fn resolve(v: &Value) -> String {
    let revision = v
        .get("revision")
        .and_then(Value::as_str)
        .unwrap_or("(default branch)");
    format!(
        "{} {} -> {}\n",
        s(v, "repository"),
        revision,
        s(v, "commit")
    )
}

fn read_header(out: &mut String, repository: &str, commit: &str, r: &Value) {
    let _ = write!(
        out,
        "{}@{} {} lines {}-{}",
        repository,
        commit,
        s(r, "path"),
        n(r, "startLine"),
        n(r, "endLine")
    );
    if r.get("truncated").and_then(Value::as_bool) == Some(true) {
        out.push_str(" (truncated)");
    }
    if r.get("hasMore").and_then(Value::as_bool) == Some(true) {
        let _ = write!(out, "; more from line {}", n(r, "nextStartLine"));
    }
    out.push('\n');
}

/// A header naming the pinned range, then the content (with any appended references).
pub fn read(v: &Value) -> String {
    let mut out = String::new();
    read_header(&mut out, s(v, "repository"), s(v, "commit"), v);
    out.push_str(s(v, "content"));
    out
}

/// Each item as in `read`, failed items as their error.
pub fn read_many(v: &Value) -> String {
    let mut out = String::new();
    let (repository, commit) = (s(v, "repository"), s(v, "commit"));
    for item in arr(v, "items") {
        if let Some(e) = item.get("error") {
            let _ = writeln!(
                out,
                "{}: {} {}",
                s(item, "path"),
                s(e, "code"),
                s(e, "message")
            );
        }
        if item.get("content").is_some() {
            read_header(&mut out, repository, commit, item);
            out.push_str(s(item, "content"));
            if !out.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    out
}

/// `path:line: text` per match (or one path per line for `output: files`).
pub fn search(v: &Value) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}@{}", s(v, "repository"), s(v, "commit"));
    for f in arr(v, "files") {
        match f {
            Value::String(path) => {
                let _ = writeln!(out, "{path}");
            }
            _ => {
                let matches = arr(f, "matches");
                if matches.is_empty() {
                    let _ = writeln!(out, "{}", s(f, "path"));
                }
                for m in matches {
                    let _ = writeln!(out, "{}:{}: {}", s(f, "path"), n(m, "line"), s(m, "text"));
                }
            }
        }
    }
    if v.get("truncated").and_then(Value::as_bool) == Some(true) {
        out.push_str("(results truncated; narrow the search)\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pack recorded from `ontoly evidence --format json` on the demo workspace, so the
    /// rendering is checked on real output without depending on today's ranking.
    fn recorded_pack() -> Value {
        serde_json::from_str(include_str!("testdata/pack-checkout.json")).unwrap_or(Value::Null)
    }

    #[test]
    fn an_evidence_pack_renders_its_answer_confidence_and_pinned_reads() {
        let pack = recorded_pack();
        assert!(pack.is_object(), "the recorded pack parses");
        let text = evidence_pack(&pack);
        assert!(text.contains(s(&pack, "answer")));
        for id in arr(&pack, "stableIds") {
            assert!(text.contains(id.as_str().unwrap_or("?")));
        }
        for f in arr(&pack, "filesToInspect") {
            assert!(text.contains(&format!("{}@{}", s(f, "repository"), s(f, "commit"))));
        }
        insta::assert_snapshot!("evidence_pack_text", text);
    }

    #[test]
    fn reads_render_a_pinned_header_and_continuation() {
        let read = serde_json::json!({
            "repository": "acme/shop-api", "commit": "d6e6a37f40f1119c82f6e0d515cc54a413c68617",
            "path": "src/checkout.rs", "startLine": 72, "endLine": 73, "nextStartLine": 74,
            "hasMore": true, "truncated": false, "content": "fn a() {}\nfn b() {}\n"
        });
        assert_eq!(
            super::read(&read),
            "acme/shop-api@d6e6a37f40f1119c82f6e0d515cc54a413c68617 src/checkout.rs lines 72-73; \
             more from line 74\nfn a() {}\nfn b() {}\n"
        );
        let error = ToolError::new("FILE_NOT_FOUND", "no such file");
        assert_eq!(super::error(&error), "FILE_NOT_FOUND: no such file");
    }
}
