//! The repository-plugin contract (`ontoly plugin enrich`) over an in-memory file host: a
//! request and the workspace files it reads are all fuzzed. Every answer is one JSON object of
//! attachments within the output budget, for item ids the request carried, deterministic, and
//! free of the credentials the inputs carry.

use super::{fields, MemoryWorkspace, PAGE, REGISTRY, STRUCTURE};
use ontoly_capabilities::plugin::{enrich_with, OUTPUT_LIMIT};

/// Runs the target on one input: panics when one of the checks described above fails.
pub fn run(data: &[u8]) {
    // request | page | structure | registry (an empty field keeps the fixture's file)
    let f = fields(data, 4);
    let or = |field: &[u8], default: &str| {
        if field.is_empty() {
            default.as_bytes().to_vec()
        } else {
            field.to_vec()
        }
    };
    let ws = MemoryWorkspace {
        page: or(f[1], PAGE),
        structure: or(f[2], STRUCTURE),
        registry: or(f[3], REGISTRY),
    };
    let files = |path: &str| ws.read(path);
    let out = enrich_with(f[0], &files);
    assert_eq!(out, enrich_with(f[0], &files), "not deterministic");
    assert!(out.len() <= OUTPUT_LIMIT, "{} bytes", out.len());
    let value: serde_json::Value = serde_json::from_str(&out).expect("the answer is JSON");
    let attachments = value["attachments"].as_array().expect("attachments");
    // Lossy: the request parser skips unknown fields without checking their UTF-8, so a
    // request with invalid bytes there is still answered (Context's plugin refuses it).
    let request: Option<serde_json::Value> =
        serde_json::from_str(&String::from_utf8_lossy(f[0])).ok();
    for a in attachments {
        assert!(a["text"].is_string());
        if let Some(id) = a.get("item_id") {
            let ids = request.as_ref().and_then(|r| r["files"].as_array());
            assert!(
                ids.is_some_and(|files| files.iter().any(|x| &x["item_id"] == id)),
                "attachment for an item id the request did not carry: {id}"
            );
        }
    }
    // Issue 13, defect 8: recorded source_refs and remotes were echoed verbatim. A "secret"
    // that also occurs in the inputs other than right before an `@` (`docs` of
    // `repo-content:docs@<sha>.x` beside a workspace root `docs/kb`) cannot be told from that
    // other text, and is not checked; one repeated in several URLs still is.
    let all: String = [&ws.page, &ws.structure, &ws.registry, &f[0].to_vec()]
        .iter()
        .map(|b| String::from_utf8_lossy(b))
        .collect();
    for input in [&ws.structure, &ws.registry, &f[0].to_vec()] {
        for secret in super::secrets(&String::from_utf8_lossy(input)) {
            let elsewhere = all
                .match_indices(secret.as_str())
                .any(|(i, _)| !all[i + secret.len()..].starts_with('@'));
            if elsewhere {
                continue;
            }
            assert!(
                !out.contains(&secret),
                "credential {secret:?} echoed: {out}"
            );
        }
    }
}
