//! JSON: the serde form of a report, pretty, keys sorted (serde_json's map is a `BTreeMap`).

use crate::report::Report;
use serde_json::Value;

/// The JSON value of a report: what `--format json` prints and `--format yaml` converts.
pub fn value(report: &Report) -> Option<Value> {
    let v = match report {
        Report::Build(v) => serde_json::to_value(v),
        Report::Stats(v) => serde_json::to_value(v),
        Report::Validate(v) => serde_json::to_value(v),
        Report::Inputs(v) => serde_json::to_value(v),
        Report::Pack(a) | Report::ToolPack(a) => serde_json::to_value(&a.pack),
        Report::Capabilities(v) => Ok(v.clone()),
        Report::Capability(r) | Report::Refs(r) | Report::Cites(r) => serde_json::to_value(r),
        Report::Graph(n) => serde_json::to_value(n),
        Report::Check(c) => serde_json::to_value(c),
        Report::Read(r) => serde_json::to_value(&r.result).map(|mut v| {
            if let (Some(h), Some(o)) = (&r.hint, v.as_object_mut()) {
                o.insert("note".into(), serde_json::Value::String(h.clone()));
            }
            v
        }),
        Report::ReadMany(r) => serde_json::to_value(r),
        Report::Search(r) => serde_json::to_value(&r.result),
        Report::Resolve(r) => serde_json::to_value(r),
        Report::ReadError(e) => serde_json::to_value(e),
        Report::Drift(d) => serde_json::to_value(d),
        Report::Impact(i) => serde_json::to_value(i),
        Report::Raw(_) => return None,
    };
    v.ok()
}

/// Pretty JSON of a value with a trailing newline.
pub fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_else(|_| "null".into());
    s.push('\n');
    s
}

/// `--format json`.
pub fn render(report: &Report) -> Option<String> {
    value(report).map(|v| pretty(&v))
}
