//! `ontoly validate`: every diagnostic with `file:line`; exit 1 when any is an error.

use super::{severity_counts, CliError, Context, Output};
use ontoly_graph::graph::findings::diagnostics_of;
use serde_json::json;

/// `ontoly validate` takes only the global options.
#[derive(clap::Args)]
pub struct Args {}

/// Lists diagnostics ordered by file, line and code.
pub fn run(ctx: &Context, _args: &Args) -> Result<Output, CliError> {
    let (ws, out) = ctx.build()?;
    let g = &out.graph;
    let diags = diagnostics_of(g);
    let (errors, warnings, infos) = severity_counts(g);
    let mut text = String::new();
    for d in &diags {
        text.push_str(&format!(
            "{}: {} {}: {}\n",
            d.location, d.severity, d.code, d.message
        ));
    }
    text.push_str(&format!(
        "{}: {errors} errors, {warnings} warnings, {infos} info\n",
        ws.name
    ));
    let json = json!({
        "workspace": ws.name,
        "graphHash": g.hash,
        "valid": errors == 0,
        "summary": {"error": errors, "warning": warnings, "info": infos},
        "diagnostics": diags,
    });
    // The process ends right after printing: freeing a large graph's million small
    // allocations would only add seconds.
    std::mem::forget(out);
    Ok(Output::new(text, json, u8::from(errors > 0)))
}
