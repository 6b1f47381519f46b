//! The vendored OASIS SARIF 2.1.0 schema (`testdata/schemas/`) and the validator that checks
//! SARIF logs against it. Today it checks hand-made logs of the shape `--format sarif` is to
//! have (issue 12, item 9); the real outputs of `validate`, `check` and `drift` join them once
//! the format exists.

use serde_json::{json, Value};
use std::path::Path;

fn schema() -> Value {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/schemas/sarif-schema-2.1.0.json");
    let text = std::fs::read_to_string(&path).expect("the vendored SARIF schema is readable");
    serde_json::from_str(&text).expect("the vendored SARIF schema is JSON")
}

/// A validator for SARIF 2.1.0 logs, with the formats draft-04 defines checked too (`uri`,
/// `date-time`). Draft-04 has no `uri-reference` format, so the schema does not check that an
/// `artifactLocation.uri` is a valid relative URI: tests of real outputs must check the
/// percent-encoding of paths themselves.
fn sarif_validator() -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema())
        .expect("the SARIF schema compiles")
}

/// Every schema violation of `log`, one line each (`message at /instance/path`).
fn violations(log: &Value) -> Vec<String> {
    sarif_validator()
        .iter_errors(log)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

/// A log in the shape `ontoly validate --format sarif` is to print for the walk-through
/// workspace of docs/workspace-format.md with a digest computed by `sed | sha256sum`.
fn validate_log() -> Value {
    json!({
        "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "ontoly",
                "version": "0.1.0",
                "informationUri": "https://example.invalid/ontoly",
                "rules": [{
                    "id": "REFERENCE_DIGEST_MISMATCH",
                    "shortDescription": {"text": "A cited range whose lines at the pinned commit do not match its content_digest"},
                    "defaultConfiguration": {"level": "error"},
                    "help": {"text": "content_digest is sha256 of the cited lines joined with \\n, no trailing newline"}
                }]
            }},
            "originalUriBaseIds": {"SRCROOT": {"description": {"text": "the repository root"}}},
            "results": [{
                "ruleId": "REFERENCE_DIGEST_MISMATCH",
                "ruleIndex": 0,
                "level": "error",
                "message": {"text": "digest_mismatch: reference `repo:acme/payments` src/retry.py#L1-L3 @ c11b1eb453b0094c5646c4460b5d32184c56cc1d: recorded sha256:a27fcb3b…, actual sha256:e78e9c3b…"},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": "kb/knowledge/structure.yaml", "uriBaseId": "SRCROOT"},
                    "region": {"startLine": 10, "endLine": 12, "startColumn": 13}
                }}],
                "partialFingerprints": {"ontoly/v1": "diagnostic:REFERENCE_DIGEST_MISMATCH@kb/knowledge/structure.yaml:10"}
            }],
            "columnKind": "unicodeCodePoints"
        }]
    })
}

#[test]
fn the_vendored_schema_is_the_oasis_sarif_2_1_0_schema() {
    let s = schema();
    assert_eq!(
        s["title"],
        "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    );
    assert_eq!(
        s["id"],
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    );
    assert_eq!(s["$schema"], "http://json-schema.org/draft-04/schema#");
    assert_eq!(s["properties"]["version"]["enum"], json!(["2.1.0"]));
}

#[test]
fn a_log_of_the_planned_shape_is_valid() {
    assert_eq!(violations(&validate_log()), Vec::<String>::new());
    // The smallest valid log: a run of a named tool with no results (a clean `validate`).
    let clean = json!({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "ontoly"}}, "results": []}]});
    assert_eq!(violations(&clean), Vec::<String>::new());
}

#[test]
fn the_validator_rejects_what_consumers_reject() {
    /// A way to break a valid log.
    type Break = fn(&mut Value);
    let cases: [(&str, Break); 7] = [
        ("wrong version", |l| l["version"] = json!("2.0.0")),
        ("driver without a name", |l| {
            l["runs"][0]["tool"]["driver"]
                .as_object_mut()
                .expect("driver")
                .remove("name");
        }),
        ("unknown level", |l| {
            l["runs"][0]["results"][0]["level"] = json!("fatal")
        }),
        ("line 0", |l| {
            l["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
                json!(0)
        }),
        ("message without text or id", |l| {
            l["runs"][0]["results"][0]["message"] = json!({})
        }),
        ("a $schema that is not a URI", |l| {
            l["$schema"] = json!("not a uri")
        }),
        ("an unknown property", |l| {
            l["runs"][0]["results"][0]["severity"] = json!("error")
        }),
    ];
    for (what, break_it) in cases {
        let mut log = validate_log();
        break_it(&mut log);
        assert!(!violations(&log).is_empty(), "accepted a log with {what}");
    }
}
