//! `ontoly drift [--to REV | --to NAME=REV ...] [--write [--accept-changed]] [--fail-on changed|moved]
//! [--format text|json|github|sarif]`: is the knowledge still true at a later commit?
//! Exit 0, or 3 with `--fail-on` when a reference of that status or worse exists.

use super::{CliError, Globals, Output, EXIT_GATE};
use crate::render::Format;
use crate::report::{DriftView, Report};
use ontoly_capabilities::drift::{self, reanchor, DriftError, DriftOptions, Status};

/// The formats `ontoly drift` renders.
pub const FORMATS: &[Format] = &[Format::Text, Format::Json, Format::Github, Format::Sarif];

/// The status `--fail-on` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// Fail when a reference is changed or missing.
    Changed,
    /// Fail when a reference is moved, changed or missing.
    Moved,
}

/// Arguments of `ontoly drift`.
#[derive(clap::Args)]
pub struct Args {
    /// The later revision (branch, tag, full or unique short commit, `HEAD~1`) of every repository, or
    /// of one: NAME=REV with NAME a <source>/<module>, a <source>, or repo-content (the
    /// workspace's own repository). Repeatable. Default: each clone's HEAD, else its default
    /// branch.
    #[arg(long = "to", value_name = "REV|NAME=REV")]
    to: Vec<String>,
    /// Re-anchor every module whose references are all unchanged or moved: set its ref to the
    /// later commit and rewrite moved locators and digests in place; list the others for review.
    #[arg(long)]
    write: bool,
    /// With --write, after you have reviewed the changed sections against the later code: also
    /// re-anchor changed references, with their digests at the later commit: at the same
    /// definition when one was cited whole, else at the range the diff maps them to (a
    /// reference whose lines were all deleted, a missing one or an unverifiable one still
    /// holds its module back).
    #[arg(long, requires = "write")]
    accept_changed: bool,
    /// With --write, after you have reviewed them: also re-anchor a changed reference whose
    /// cited lines were all deleted, or a missing one, where most of its lines are at the later
    /// commit ("N of M distinctive lines are at PATH:S-E"), with its digest there (one without such
    /// a place still holds its module back).
    #[arg(long, requires = "write")]
    accept_relocated: bool,
    /// Exit 3 when a reference has this status or a worse one (moved < changed < missing).
    #[arg(long, value_enum, value_name = "STATUS")]
    fail_on: Option<FailOn>,
    /// List only the references that drifted (moved, changed, missing, unverifiable); the
    /// counts still cover every reference (the Drift capability's `onlyDrifted`).
    #[arg(long)]
    only_drifted: bool,
    /// With each changed reference, the diff of its cited lines against the lines of the later
    /// commit that accepting the change would cite (unified, numbered in the two files): what
    /// to review before `--write --accept-changed`; with a deleted or missing one, against
    /// where most of its lines went, before `--accept-relocated`.
    #[arg(long)]
    diff: bool,
    /// Output format (github: workflow annotations; sarif: SARIF 2.1.0).
    #[arg(long, value_parser = crate::render::parser(FORMATS))]
    format: Option<Format>,
}

/// The `--format` given to this command.
pub fn format(a: &Args) -> Option<Format> {
    a.format
}

fn cli_error(e: DriftError) -> CliError {
    let hint = match &e {
        DriftError::Revision(..) => Some(
            "give a branch, a tag or a commit of the clone, or NAME=REV for one source".to_string(),
        ),
        _ => None,
    };
    CliError {
        message: e.to_string(),
        hint,
        ..Default::default()
    }
}

/// `--fail-on` over references none of which could be compared: the gate would pass having
/// checked nothing (a clone not mapped, a shallow one without the pinned commit, a mistyped
/// `--source`), so it is an error that names the most common reason.
fn nothing_compared(report: &drift::DriftReport, t: Status) -> Result<(), CliError> {
    let total: usize = Status::ALL.into_iter().map(|s| report.counts.of(s)).sum();
    let unverifiable = report.counts.of(Status::Unverifiable);
    if total == 0 || unverifiable < total {
        return Ok(());
    }
    let (reason, n) = crate::report::most_common(
        report
            .references
            .iter()
            .map(|r| r.reason.as_deref().unwrap_or("")),
    );
    Err(CliError {
        message: format!(
            "the drift gate (--fail-on {}) compared nothing: all {total} references are unverifiable ({n} of them: {reason})",
            t.as_str()
        ),
        hint: Some(
            "`ontoly drift` without --fail-on lists each reference's reason: a clone to map (ontoly.toml, or --source NAME=PATH), a revision to give with --to, a registry to fix (`ontoly validate` names it)"
                .into(),
        ),
        ..Default::default()
    })
}

/// Compares every reference with its later commit (and re-anchors with `--write`).
pub fn run(ctx: &Globals, a: &Args) -> Result<Output, CliError> {
    let session = ctx.session()?;
    let opts = DriftOptions {
        symbols: true,
        digests: a.write,
        diffs: a.diff,
        ..DriftOptions::default()
    }
    .with_to_args(a.to.iter().map(String::as_str));
    let mut report = drift::drift(&session, &opts).map_err(cli_error)?;
    let reanchor = if a.write {
        let accept = reanchor::Accept {
            changed: a.accept_changed,
            relocated: a.accept_relocated,
        };
        let plan = reanchor::plan(&session, &report, accept).map_err(cli_error)?;
        session
            .replace_workspace_files(&plan.files)
            .map_err(|e| CliError::new(format!("cannot write the re-anchored files: {e}")))?;
        Some(plan)
    } else {
        None
    };
    let threshold = a.fail_on.map(|f| match f {
        FailOn::Changed => Status::Changed,
        FailOn::Moved => Status::Moved,
    });
    let failed = threshold.is_some_and(|t| report.worst().is_some_and(|w| w.at_least(t)));
    if let Some(t) = threshold {
        nothing_compared(&report, t)?;
    }
    let gate_failed = threshold.filter(|_| failed).map(|t| {
        let n: usize = Status::ALL
            .into_iter()
            .filter(|s| s.at_least(t))
            .map(|s| report.counts.of(s))
            .sum();
        let what = if t == Status::Moved {
            "moved, changed or missing"
        } else {
            "changed or missing"
        };
        format!(
            "the drift gate failed (--fail-on {}): {n} reference(s) {what}",
            t.as_str()
        )
    });
    // After the gate and the re-anchoring, which read every reference.
    if a.only_drifted {
        report.keep_only_drifted();
    }
    Ok(Output {
        report: Report::Drift(Box::new(DriftView {
            report,
            reanchor,
            structure_file: super::impact::in_repository(&session, reanchor::STRUCTURE_FILE),
            gate_failed,
        })),
        exit: if failed { EXIT_GATE } else { 0 },
    })
}
