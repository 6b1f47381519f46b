//! `ontoly check --questions FILE [--format text|json|github]`: the CI gate.
//! Exit 0 when every question passes, 3 when any fails, 1 on errors.

use super::{load, EXIT_GATE};
use anyhow::{Context as _, Result};
use ontoly_capabilities::check::{check, parse_questions, report_github, report_text};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    Text,
    Json,
    Github,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The questions file (YAML).
    #[arg(long)]
    questions: PathBuf,
    /// Output format: text, json, or GitHub Actions annotations.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    format: CheckFormat,
}

pub fn run(ws: Option<&Path>, a: Args) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&a.questions)
        .with_context(|| format!("reading {}", a.questions.display()))?;
    let questions =
        parse_questions(&text).map_err(|e| anyhow::anyhow!("{}: {e}", a.questions.display()))?;
    let l = load(ws)?;
    let r = check(&l.graph, &l.index, &l.root, &questions);
    match a.format {
        CheckFormat::Text => print!("{}", report_text(&r)),
        CheckFormat::Json => println!("{}", serde_json::to_string_pretty(&r)?),
        CheckFormat::Github => {
            print!("{}", report_github(&r, &a.questions.to_string_lossy()))
        }
    }
    Ok(if r.failed > 0 {
        ExitCode::from(EXIT_GATE)
    } else {
        ExitCode::SUCCESS
    })
}
