//! `ontoly capabilities`: the registry, its input schemas and the diagnostic codes.

use super::{CliError, Context, Output};
use ontoly_capabilities::evidence::DIAGNOSTIC_CODES;
use ontoly_capabilities::registry::{describe, CAPABILITIES};
use std::fmt::Write as _;

/// `ontoly capabilities` takes only the global options.
#[derive(clap::Args)]
pub struct Args {}

/// Lists every capability (json/yaml: name, version, description, inputSchema).
pub fn run(_ctx: &Context, _a: &Args) -> Result<Output, CliError> {
    let mut text = String::new();
    for c in CAPABILITIES {
        let fields: Vec<String> = c
            .fields
            .iter()
            .map(|f| format!("{}{}", f.name, if f.required { "" } else { "?" }))
            .collect();
        let _ = writeln!(text, "{} v{} {{{}}}", c.name, c.version, fields.join(", "));
        let _ = writeln!(text, "    {}", c.description);
    }
    text.push_str("\nDiagnostic codes:\n");
    for (code, what) in DIAGNOSTIC_CODES {
        let _ = writeln!(text, "  {code}: {what}");
    }
    Ok(Output::new(text, describe(), 0))
}
