//! `ontoly run <Capability> --input <json|@file>`: the generic capability call.

use super::{index, CliError, Globals, Output};
use crate::render::Format;
use crate::report::Report;
use ontoly_capabilities::run_json;

/// The formats `ontoly run` renders (text is the JSON result).
pub const FORMATS: &[Format] = &[Format::Text, Format::Json, Format::Yaml];

/// Arguments of `ontoly run`.
#[derive(clap::Args)]
pub struct Args {
    /// The capability name (see `ontoly capabilities`).
    capability: String,
    /// The input: JSON text, or @FILE to read it from a file (`@-`: standard input).
    #[arg(long, default_value = "{}")]
    input: String,
    /// Output format.
    #[arg(long, value_parser = crate::render::parser(FORMATS))]
    format: Option<Format>,
}

/// The `--format` given to this command.
pub fn format(a: &Args) -> Option<Format> {
    a.format
}

/// Runs the capability; exit 1 when it could not run (CAPABILITY_NOT_REGISTERED,
/// CAPABILITY_INVALID_INPUT).
pub fn run(ctx: &Globals, a: &Args) -> Result<Output, CliError> {
    let input = match a.input.strip_prefix('@') {
        Some("-") => std::io::read_to_string(std::io::stdin())
            .map_err(|e| CliError::new(format!("cannot read standard input: {e}")))?,
        Some(f) => std::fs::read_to_string(f)
            .map_err(|e| CliError::unreadable(&format!("input file {f}"), &e))?,
        None => {
            // A file named without its `@` is read as JSON text and fails on its first byte:
            // say how to pass a file instead.
            if serde_json::from_str::<serde_json::Value>(&a.input).is_err()
                && std::path::Path::new(&a.input).is_file()
            {
                return Err(CliError {
                    message: "--input is JSON text, and this is a file's name".into(),
                    hint: Some(format!(
                        "to read the input from the file, write --input @{}",
                        a.input
                    )),
                    ..Default::default()
                });
            }
            a.input.clone()
        }
    };
    let session = ctx.session()?;
    let index = index(&session)?;
    let cx = ontoly_capabilities::Context::new(&session, &index)?;
    let r = run_json(&cx, &a.capability, &input);
    let exit = u8::from(r.is_error());
    Ok(Output {
        report: Report::Capability(Box::new(r)),
        exit,
    })
}
