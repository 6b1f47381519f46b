//! `ontoly refs <knowledge/page.md>[:START[-END]] [--include-digest]`: the references YAML of
//! the sections overlapping the range, byte-compatible with Context's plugin.

use super::loaded::{load, require_format};
use super::{CliError, Context, Output};
use crate::Format;
use ontoly_capabilities::registry;
use serde_json::json;

/// Arguments of `ontoly refs`.
#[derive(clap::Args)]
pub struct Args {
    /// The page and optional range: `knowledge/faq/guide.md:8-12` (no range: the whole page).
    target: String,
    /// Pinned URLs come with their content_digest.
    #[arg(long)]
    include_digest: bool,
}

fn parse(target: &str) -> (&str, Option<(u64, u64)>) {
    if let Some((p, r)) = target.rsplit_once(':') {
        let range = match r.split_once('-') {
            Some((a, b)) => a.parse().ok().zip(b.parse().ok()),
            None => r.parse().ok().map(|a| (a, a)),
        };
        if range.is_some() {
            return (p, range);
        }
    }
    (target, None)
}

/// Text: the YAML itself (nothing when no section in range has references); json/yaml: the
/// SectionReferences result.
pub fn run(ctx: &Context, a: &Args) -> Result<Output, CliError> {
    require_format(ctx, "refs", &[Format::Text, Format::Json, Format::Yaml])?;
    let (path, range) = parse(&a.target);
    let l = load(ctx)?;
    let (start, end) = match range {
        Some(r) => r,
        None => {
            let page = if path.starts_with("knowledge/") {
                path.to_string()
            } else {
                format!("knowledge/{path}")
            };
            let text = std::fs::read_to_string(std::path::Path::new(&l.root).join(&page))
                .map_err(|e| CliError(format!("cannot read {page}: {}", e.kind())))?;
            (1, ontoly_graph::formats::text::lines(&text).count().max(1) as u64)
        }
    };
    let r = registry::run(
        &l.ctx(),
        "SectionReferences",
        &json!({"path": path, "startLine": start, "endLine": end, "includeDigest": a.include_digest}),
    );
    if r.is_error() {
        return Err(CliError(r.summary));
    }
    Ok(Output::new(
        r.data["yaml"].as_str().unwrap_or("").to_string(),
        serde_json::to_value(&r).map_err(|e| CliError(e.to_string()))?,
        0,
    ))
}
