//! `ontoly refs <knowledge/page.md>[:START[-END]] [--include-digest]`: the references YAML of
//! the sections overlapping the range, byte-compatible with Context's plugin.

use super::{index, CliError, Globals, Output};
use crate::render::Format;
use crate::report::Report;
use ontoly_capabilities::registry;
use ontoly_graph::diagnostics::Code;
use ontoly_graph::formats::location::Location;
use ontoly_graph::sources::reads::ReadError;
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
    let parsed = session.parsed()?;
    let as_typed = target
        .path
        .strip_prefix("knowledge/")
        .unwrap_or(target.path);
    // A page named from inside knowledge/ (`cd knowledge/usage; ontoly refs basics.md`) is
    // relative to the current directory when it names no page as written.
    let page = if parsed.pages.contains_key(as_typed) {
        as_typed.to_string()
    } else {
        super::from_current_dir(&session, as_typed)
            .and_then(|p| p.strip_prefix("knowledge/").map(str::to_string))
            .filter(|p| parsed.pages.contains_key(p))
            .unwrap_or_else(|| as_typed.to_string())
    };
    let page = page.as_str();
    let Some(found) = parsed.pages.get(page) else {
        // A page that does not exist is a negative answer (exit 1), not an empty one.
        let near = ontoly_graph::suggest::nearest(page, parsed.pages.keys().map(String::as_str));
        return Ok(Output {
            report: Report::ReadError(
                ReadError {
                    code: Code::FileNotFound,
                    message: format!(
                        "knowledge/{page} is not a page of the workspace{}",
                        near.map(|n| format!("; did you mean knowledge/{n}?"))
                            .unwrap_or_default()
                    ),
                }
                .into(),
            ),
            exit: 1,
        });
    };
    let (start, end) = target.lines.unwrap_or((1, found.lines.max(1)));
    if start > found.lines.max(1) {
        // Lines the page does not have answer nothing; say so rather than print nothing.
        return Ok(Output {
            report: Report::ReadError(
                ReadError {
                    code: Code::InvalidLineRange,
                    message: format!(
                        "knowledge/{page} ends before line {start}: lines {start}-{end} hold no section"
                    ),
                }
                .into(),
            ),
            exit: 1,
        });
    }
    let r = registry::run(
        &cx,
        "SectionReferences",
        &json!({"path": format!("knowledge/{page}"), "startLine": start, "endLine": end, "includeDigest": a.include_digest}),
    );
    if r.is_error() {
        return Err(CliError::new(r.summary));
    }
    // The references output of a range with none is empty, as the plugin contract has it;
    // a person who typed the range is told why (Go walk, stop 48: front matter printed
    // nothing at all).
    if r.data
        .get("sections")
        .and_then(|s| s.as_array())
        .is_some_and(Vec::is_empty)
    {
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            format!(
                "note: no section of knowledge/{page} overlapping lines {start}-{end} has references\n"
            )
            .as_bytes(),
        );
    }
    Ok(Output::ok(Report::Refs(Box::new(r))))
}
