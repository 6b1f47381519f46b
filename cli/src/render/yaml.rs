//! YAML: the JSON value of a report as block YAML (keys stay sorted).

use crate::report::Report;

/// `--format yaml`.
pub fn render(report: &Report) -> Option<String> {
    let v = super::json::value(report)?;
    Some(yaml_serde::to_string(&v).unwrap_or_else(|_| "null\n".into()))
}
