//! `ontoly capabilities`: the registry, its input schemas and the diagnostic codes.

use super::{CliError, Globals, Output};
use crate::render::Format;
use crate::report::Report;
use ontoly_capabilities::registry::describe;

/// The formats `ontoly capabilities` renders.
pub const FORMATS: &[Format] = &[Format::Text, Format::Json, Format::Yaml];

/// Arguments of `ontoly capabilities`.
#[derive(clap::Args)]
pub struct Args {
    /// Output format (json/yaml: name, version, description and inputSchema of each).
    #[arg(long, value_parser = crate::render::parser(FORMATS))]
    format: Option<Format>,
}

/// The `--format` given to this command.
pub fn format(a: &Args) -> Option<Format> {
    a.format
}

/// Lists every capability.
pub fn run(_ctx: &Globals, _a: &Args) -> Result<Output, CliError> {
    Ok(Output::ok(Report::Capabilities(describe())))
}
