//! `ontoly capabilities [--format text|json|yaml]`.

use super::{print_structured, Format};
use anyhow::Result;
use ontoly_capabilities::evidence::DIAGNOSTIC_CODES;
use ontoly_capabilities::registry::{describe, CAPABILITIES};
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

pub fn run(a: Args) -> Result<ExitCode> {
    if a.format != Format::Text {
        print_structured(&describe(), a.format)?;
        return Ok(ExitCode::SUCCESS);
    }
    for c in CAPABILITIES {
        let fields: Vec<String> = c
            .fields
            .iter()
            .map(|f| format!("{}{}", f.name, if f.required { "" } else { "?" }))
            .collect();
        println!("{} v{} {{{}}}", c.name, c.version, fields.join(", "));
        println!("    {}", c.description);
    }
    println!("\nDiagnostic codes:");
    for (code, what) in DIAGNOSTIC_CODES {
        println!("  {code}: {what}");
    }
    Ok(ExitCode::SUCCESS)
}
