//! `ontoly cites <path>[:START[-END]] | --symbol NAME`: which sections cite it.

use super::{index, CliError, Globals, Output};
use crate::render::Format;
use crate::report::Report;
use ontoly_capabilities::registry;
use serde_json::json;

/// The formats `ontoly cites` renders (json/yaml: the CitationsOf result).
pub const FORMATS: &[Format] = &[Format::Text, Format::Json, Format::Yaml];

/// Arguments of `ontoly cites`.
#[derive(clap::Args)]
pub struct Args {
    /// A repository-relative path, optionally with `:START` or `:START-END` (or `#LSTART-LEND`,
    /// as in a pinned file's URL, which is read as its path and lines); the end of one
    /// (`retry.py` for `src/retry.py`) when it names no file as written.
    target: Option<String>,
    /// A symbol's qualified name (or its last segment) instead of a path.
    #[arg(long, conflicts_with = "target")]
    symbol: Option<String>,
    /// At most this many citing sections (1–50; default 50).
    #[arg(long, value_name = "N")]
    limit: Option<i64>,
    /// Output format.
    #[arg(long, value_parser = crate::render::parser(FORMATS))]
    format: Option<Format>,
}

/// The `--format` given to this command.
pub fn format(a: &Args) -> Option<Format> {
    a.format
}

/// Each citing section with its pinned citations.
pub fn run(ctx: &Globals, a: &Args) -> Result<Output, CliError> {
    let Some(target) = a.symbol.clone().or(a.target.clone()) else {
        return Err(CliError::new(
            "give a path (`src/x.rs:10-20`) or --symbol NAME",
        ));
    };
    let session = ctx.session()?;
    let index = index(&session)?;
    let cx = ontoly_capabilities::Context::new(&session, &index)?;
    let mut input = json!({ "target": target });
    if let Some(n) = a.limit {
        input["limit"] = json!(n);
    }
    let r = registry::run(&cx, "CitationsOf", &input);
    // No citing section is a negative answer, as `search` with no match (and `grep`): a
    // script asks `ontoly cites src/x.rs` whether any page describes the file.
    let exit =
        u8::from(r.is_error() || r.has(ontoly_capabilities::evidence::Code::CapabilityNotFound));
    Ok(Output {
        report: Report::Cites(Box::new(r)),
        exit,
    })
}
