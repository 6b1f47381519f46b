//! `ontoly run <Capability> --input <json|@file>`: the generic capability call.

use super::loaded::{load, require_format};
use super::{to_json, CliError, Context, Output};
use crate::Format;
use ontoly_capabilities::run_json;

/// Arguments of `ontoly run`.
#[derive(clap::Args)]
pub struct Args {
    /// The capability name (see `ontoly capabilities`).
    capability: String,
    /// The input: JSON text, or @FILE to read it from a file (`@-`: standard input).
    #[arg(long, default_value = "{}")]
    input: String,
}

/// Prints the capability result (JSON by default); exit 1 when the capability could not run
/// (CAPABILITY_NOT_REGISTERED, CAPABILITY_INVALID_INPUT).
pub fn run(ctx: &Context, a: &Args) -> Result<Output, CliError> {
    require_format(ctx, "run", &[Format::Text, Format::Json, Format::Yaml])?;
    let input = match a.input.strip_prefix('@') {
        Some("-") => std::io::read_to_string(std::io::stdin())
            .map_err(|e| CliError(format!("cannot read standard input: {e}")))?,
        Some(f) => std::fs::read_to_string(f)
            .map_err(|e| CliError(format!("cannot read {f}: {}", e.kind())))?,
        None => a.input.clone(),
    };
    let l = load(ctx)?;
    let r = run_json(&l.ctx(), &a.capability, &input);
    let json = serde_json::to_value(&r).map_err(|e| CliError(e.to_string()))?;
    Ok(Output::new(to_json(&json), json, u8::from(r.is_error())))
}
