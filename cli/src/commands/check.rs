//! `ontoly check --questions FILE [--format text|json|github]`: the CI gate.
//! Exit 0 when every question passes, 3 when any fails, 2 on errors.

use super::loaded::{load, require_format, EXIT_GATE};
use super::{CliError, Context, Output};
use crate::Format;
use ontoly_capabilities::check::{check, parse_questions, report_github, report_text};
use std::path::PathBuf;

/// Arguments of `ontoly check`.
#[derive(clap::Args)]
pub struct Args {
    /// The questions file (YAML; see the README for its shape).
    #[arg(long)]
    questions: PathBuf,
}

/// Answers every question; text, JSON, or GitHub Actions annotations.
pub fn run(ctx: &Context, a: &Args) -> Result<Output, CliError> {
    require_format(ctx, "check", &[Format::Text, Format::Json, Format::Github])?;
    let shown = a.questions.to_string_lossy().into_owned();
    let text = std::fs::read_to_string(&a.questions)
        .map_err(|e| CliError(format!("cannot read {shown}: {}", e.kind())))?;
    let questions = parse_questions(&text).map_err(|e| CliError(format!("{shown}: {e}")))?;
    let l = load(ctx)?;
    let r = check(&l.graph, &l.index, &l.root, &questions);
    let text = match ctx.format {
        Format::Github => report_github(&r, &shown),
        _ => report_text(&r),
    };
    Ok(Output::new(
        text,
        serde_json::to_value(&r).map_err(|e| CliError(e.to_string()))?,
        if r.failed > 0 { EXIT_GATE } else { 0 },
    ))
}
