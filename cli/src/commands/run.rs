//! `ontoly run <Capability> --input <json|@file>`: the generic capability call.

use super::{load, EXIT_ERROR};
use anyhow::{Context as _, Result};
use ontoly_capabilities::run_json;
use std::path::Path;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The capability name (see `ontoly capabilities`).
    capability: String,
    /// The input: JSON text, or @FILE to read it from a file (`@-` for stdin).
    #[arg(long, default_value = "{}")]
    input: String,
}

pub fn run(ws: Option<&Path>, a: Args) -> Result<ExitCode> {
    let input = match a.input.strip_prefix('@') {
        Some("-") => std::io::read_to_string(std::io::stdin()).context("reading stdin")?,
        Some(f) => std::fs::read_to_string(f).with_context(|| format!("reading {f}"))?,
        None => a.input,
    };
    let l = load(ws)?;
    let r = run_json(&l.ctx(), &a.capability, &input);
    println!("{}", r.to_json());
    Ok(if r.is_error() {
        ExitCode::from(EXIT_ERROR)
    } else {
        ExitCode::SUCCESS
    })
}
