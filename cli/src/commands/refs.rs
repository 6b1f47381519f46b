//! `ontoly refs <knowledge/page.md>[:START[-END]] [--include-digest]`: the references YAML of
//! the sections overlapping the range, byte-compatible with Context's plugin.

use super::{index, CliError, Globals, Output};
use crate::render::Format;
use crate::report::Report;
use ontoly_capabilities::registry;
use ontoly_graph::formats::location::Location;
use serde_json::json;

/// The formats `ontoly refs` renders (text is the references YAML itself).
pub const FORMATS: &[Format] = &[Format::Text, Format::Json, Format::Yaml];

/// Arguments of `ontoly refs`.
#[derive(clap::Args)]
pub struct Args {
    /// The page and optional range: `knowledge/faq/guide.md:8-12` (no range: the whole page).
    target: String,
    /// Pinned URLs come with their content_digest.
    #[arg(long)]
    include_digest: bool,
    /// Output format (json/yaml: the SectionReferences result).
    #[arg(long, value_parser = crate::render::parser(FORMATS))]
    format: Option<Format>,
}

/// The `--format` given to this command.
pub fn format(a: &Args) -> Option<Format> {
    a.format
}

/// The references of the sections overlapping the range (nothing when none has any).
pub fn run(ctx: &Globals, a: &Args) -> Result<Output, CliError> {
    let target = Location::parse(&a.target);
    let session = ctx.session()?;
    let index = index(&session)?;
    let cx = ontoly_capabilities::Context::new(&session, &index)?;
    let (start, end) = match target.lines {
        Some(r) => r,
        None => {
            let page = target
                .path
                .strip_prefix("knowledge/")
                .unwrap_or(target.path);
            let parsed = session.parsed()?;
            let lines =
                parsed.pages.get(page).map(|p| p.lines).ok_or_else(|| {
                    CliError::new(format!("cannot read knowledge/{page}: not found"))
                })?;
            (1, lines.max(1))
        }
    };
    let r = registry::run(
        &cx,
        "SectionReferences",
        &json!({"path": target.path, "startLine": start, "endLine": end, "includeDigest": a.include_digest}),
    );
    if r.is_error() {
        return Err(CliError::new(r.summary));
    }
    Ok(Output::ok(Report::Refs(Box::new(r))))
}
