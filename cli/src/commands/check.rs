//! `ontoly check --questions FILE [--format text|json|github]`: the CI gate.
//! Exit 0 when every question passes, 3 when any fails or the workspace has an error
//! diagnostic, 2 on errors.

use super::{index, CliError, Globals, Output, EXIT_GATE};
use crate::render::Format;
use crate::report::{CheckView, Report};
use ontoly_capabilities::gate::{check, parse_questions, unknown_expected, QuestionsError};
use ontoly_graph::diagnostics::Severity;
use ontoly_graph::graph::findings::{diagnostics_of, DiagnosticView};
use std::path::PathBuf;

/// The formats `ontoly check` renders.
pub const FORMATS: &[Format] = &[
    Format::Text,
    Format::Json,
    Format::Github,
    Format::Sarif,
    Format::Junit,
];

/// At most this many of a questions file's errors are told, the rest counted.
const MAX_TOLD: usize = 20;

/// Arguments of `ontoly check`.
#[derive(clap::Args)]
pub struct Args {
    /// The questions file (YAML; its shape: docs/evidence.md, "Questions files").
    #[arg(long)]
    questions: PathBuf,
    /// Output format (github: workflow annotations; sarif: SARIF 2.1.0; junit: JUnit XML).
    #[arg(long, value_parser = crate::render::parser(FORMATS))]
    format: Option<Format>,
}

/// The `--format` given to this command.
pub fn format(a: &Args) -> Option<Format> {
    a.format
}

/// What a relative questions path that names nothing is told: it is read from the current
/// directory, and `--workspace DIR` does not move it there; when the workspace directory
/// holds a file of that name, the path that reaches it from here.
fn missing_questions_hint(ctx: &Globals, typed: &std::path::Path) -> String {
    let rule = "a relative --questions path is read from the current directory, not the workspace directory";
    let Ok(session) = ctx.session() else {
        return rule.to_string();
    };
    if !session.workspace().root.join(typed).is_file() {
        return rule.to_string();
    }
    let root = std::path::Path::new(session.display_root());
    // A workspace named by its absolute path is not repeated: outputs carry no disk location.
    if root.is_absolute() {
        return format!(
            "{rule}; the workspace directory has a file of that name: give its path from here"
        );
    }
    format!(
        "{rule}; the workspace directory has it: --questions {}",
        super::ci::normalize(&root.join(typed))
    )
}

/// Answers every question.
pub fn run(ctx: &Globals, a: &Args) -> Result<Output, CliError> {
    let shown = a.questions.to_string_lossy().into_owned();
    let bytes = std::fs::read(&a.questions).map_err(|e| {
        let mut err = CliError::unreadable(&format!("questions file {shown}"), &e);
        if e.kind() == std::io::ErrorKind::NotFound && a.questions.is_relative() {
            err.hint = Some(missing_questions_hint(ctx, &a.questions));
        }
        err
    })?;
    let session = ctx.session()?;
    let anchor = super::ci::Anchor::of(&session);
    // Where the file stops being UTF-8, as a page that is not says it ("invalid data" before).
    let text = String::from_utf8(bytes).map_err(|e| {
        let (line, column, byte) =
            ontoly_graph::formats::text::not_utf8_at(e.as_bytes(), &e.utf8_error());
        let mut err = CliError::new(format!(
            "{shown}: not UTF-8: {}",
            ontoly_graph::formats::text::not_utf8_place(line, column, byte)
        ));
        err.at = Some((anchor.typed_path(&a.questions), line));
        err
    })?;
    let questions = match parse_questions(&text) {
        Ok(questions) => questions,
        Err(e) => {
            let mut errors = e.errors;
            // The expected sections of the items that did parse, told with the parse errors:
            // a file with both kinds of mistake is fixed in one round (re-walk, stop 52). When
            // the workspace cannot be indexed, the parse errors are still told.
            if !e.parsed.is_empty() {
                if let Ok(index) = index(&session) {
                    if let Ok(cx) = ontoly_capabilities::Context::new(&session, &index) {
                        errors.extend(unknown_expected(&cx, &text, &e.parsed));
                    }
                }
                // In file order; a sort that keeps the parse's order for errors of one line.
                errors.sort_by_key(|m| QuestionsError::line_of(m).unwrap_or(0));
            }
            return Err(told(
                &errors,
                &text,
                &shown,
                anchor.typed_path(&a.questions),
            ));
        }
    };
    let index = index(&session)?;
    let cx = ontoly_capabilities::Context::new(&session, &index)?;
    let report = check(&cx, &questions);
    let workspace_errors: Vec<DiagnosticView> = diagnostics_of(session.graph()?)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    let view = CheckView {
        report,
        workspace_errors,
        file: anchor.typed_path(&a.questions),
        root: anchor.workspace_dir().to_string(),
    };
    let exit = if view.failed() { EXIT_GATE } else { 0 };
    Ok(Output {
        report: Report::Check(view),
        exit,
    })
}

/// The errors of a questions file as one error: each at the line it names (`line 4: …`), else
/// the file's first, where a CI annotation is put; at most [`MAX_TOLD`], the rest counted.
fn told(errors: &[String], text: &str, shown: &str, file: String) -> CliError {
    // A parser at the end of the input names the line after the last one.
    let last = text.lines().count().max(1) as u64;
    let mut told = errors.iter().map(|m| {
        let line = QuestionsError::line_of(m).unwrap_or(1).min(last);
        let mut err = CliError::new(format!("{shown}: {m}"));
        err.at = Some((file.clone(), line));
        err
    });
    let mut first = told
        .next()
        .unwrap_or_else(|| CliError::new(shown.to_string()));
    first.also = told.by_ref().take(MAX_TOLD - 1).collect();
    // A file wrong everywhere (a converted format) is not a thousand lines of errors.
    let more = told.count();
    if more > 0 {
        first
            .also
            .push(CliError::new(format!("{shown}: and {more} more error(s)")));
    }
    first
}
