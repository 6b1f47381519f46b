//! `ontoly cites <path>[:START[-END]] | --symbol NAME`: which sections cite it.

use super::loaded::{load, require_format};
use super::{CliError, Context, Output};
use crate::Format;
use ontoly_capabilities::registry;
use serde_json::json;
use std::fmt::Write as _;

/// Arguments of `ontoly cites`.
#[derive(clap::Args)]
pub struct Args {
    /// A repository-relative path, optionally with `:START` or `:START-END`.
    target: Option<String>,
    /// A symbol's qualified name (or its last segment) instead of a path.
    #[arg(long, conflicts_with = "target")]
    symbol: Option<String>,
}

/// Text: each citing section with its pinned citations; json/yaml: the CitationsOf result.
pub fn run(ctx: &Context, a: &Args) -> Result<Output, CliError> {
    require_format(ctx, "cites", &[Format::Text, Format::Json, Format::Yaml])?;
    let Some(target) = a.symbol.clone().or(a.target.clone()) else {
        return Err(CliError(
            "give a path (`src/x.rs:10-20`) or --symbol NAME".into(),
        ));
    };
    let l = load(ctx)?;
    let r = registry::run(&l.ctx(), "CitationsOf", &json!({ "target": target }));
    let mut text = format!("{}\n", r.summary);
    for s in r.data["sections"].as_array().into_iter().flatten() {
        let _ = writeln!(
            text,
            "  {}  {}",
            s["section"].as_str().unwrap_or(""),
            s["title"].as_str().unwrap_or("")
        );
        for c in s["citations"].as_array().into_iter().flatten() {
            let _ = writeln!(text, "    cites {}", c["label"].as_str().unwrap_or(""));
            if let Some(u) = c["url"].as_str() {
                let _ = writeln!(text, "          {u}");
            }
        }
    }
    for f in r.data["fallbacks"].as_array().into_iter().flatten() {
        let _ = writeln!(text, "  - {}", f.as_str().unwrap_or(""));
    }
    Ok(Output::new(
        text,
        serde_json::to_value(&r).map_err(|e| CliError(e.to_string()))?,
        u8::from(r.is_error()),
    ))
}
