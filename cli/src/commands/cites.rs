//! `ontoly cites <path>[:START[-END]] | --symbol NAME`: which sections cite it.

use super::{load, print_structured, Format};
use anyhow::{bail, Result};
use ontoly_capabilities::registry;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A repository-relative path, optionally with `:START` or `:START-END`.
    target: Option<String>,
    /// A symbol's qualified name (or its last segment) instead of a path.
    #[arg(long, conflicts_with = "target")]
    symbol: Option<String>,
    /// Output format (json/yaml: the capability result).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

pub fn run(ws: Option<&Path>, a: Args) -> Result<ExitCode> {
    let Some(target) = a.symbol.or(a.target) else {
        bail!("give a path (`src/x.rs:10-20`) or --symbol NAME");
    };
    let l = load(ws)?;
    let r = registry::run(&l.ctx(), "CitationsOf", &json!({ "target": target }));
    if a.format != Format::Text {
        print_structured(&r, a.format)?;
        return Ok(ExitCode::SUCCESS);
    }
    println!("{}", r.summary);
    for s in r.data["sections"].as_array().into_iter().flatten() {
        println!(
            "  {}  {}",
            s["section"].as_str().unwrap_or(""),
            s["title"].as_str().unwrap_or("")
        );
        for c in s["citations"].as_array().into_iter().flatten() {
            println!("    cites {}", c["label"].as_str().unwrap_or(""));
            if let Some(u) = c["url"].as_str() {
                println!("          {u}");
            }
        }
    }
    for f in r.data["fallbacks"].as_array().into_iter().flatten() {
        println!("  - {}", f.as_str().unwrap_or(""));
    }
    Ok(ExitCode::SUCCESS)
}
