//! `ontoly impact --from A --to B [--source NAME]` and `ontoly impact --diff FILE|-`: the
//! sections and pages whose cited code a change touches. Exit 0, or 3 with
//! `--fail-on-affected` when the change touches any.

use super::{CliError, Globals, Output, EXIT_GATE};
use crate::render::Format;
use crate::report::{ImpactView, Report};
use ontoly_capabilities::impact::{self, ImpactError, ImpactOptions};
use ontoly_graph::Session;
use std::io::Read;
use std::path::PathBuf;

/// The formats `ontoly impact` renders.
pub const FORMATS: &[Format] = &[Format::Text, Format::Json, Format::Github, Format::Sarif];

/// Arguments of `ontoly impact`. The source the change is on is chosen with the global
/// `--source NAME` (a NAME without `=PATH`): `<source>/<module>`, `<source>` or
/// `repo-content`; by default, the one repository the workspace cites.
#[derive(clap::Args)]
pub struct Args {
    /// The old side of the change: a branch, tag or commit of the source, with git's `~N` and
    /// `^N` if wanted (`HEAD~1`) (for --diff: default the clone's HEAD).
    #[arg(long, value_name = "REV")]
    from: Option<String>,
    /// The new side of the change.
    #[arg(long, value_name = "REV", conflicts_with = "diff", requires = "from")]
    to: Option<String>,
    /// A unified diff (`git diff` output, any context), from a file or `-` (standard input).
    #[arg(long, value_name = "FILE|-")]
    diff: Option<PathBuf>,
    /// Exit 3 when the change touches any section.
    #[arg(long)]
    fail_on_affected: bool,
    /// Only sections whose cited lines the change touches (or whose cited file it renames or
    /// deletes), not those touched only through the function or class around their lines.
    #[arg(long)]
    lines_only: bool,
    /// Output format (github: workflow annotations on the changed lines; sarif: SARIF 2.1.0).
    #[arg(long, value_parser = crate::render::parser(FORMATS))]
    format: Option<Format>,
}

/// The `--format` given to this command.
pub fn format(a: &Args) -> Option<Format> {
    a.format
}

/// `rel` (workspace-relative) relative to the root of the repository the workspace is in,
/// else to the current directory as the user named the workspace (the paths annotations
/// carry; see [`super::ci::Anchor`]). An absolute workspace path would leak a disk location,
/// so the workspace root is then the base.
pub fn in_repository(session: &Session, rel: &str) -> String {
    let anchor = super::ci::Anchor::of(session);
    let dir = anchor.workspace_dir();
    let dir = if dir.starts_with('/') || std::path::Path::new(dir).is_absolute() {
        ""
    } else {
        dir.trim_end_matches('/')
    };
    match (dir.is_empty(), rel.is_empty()) {
        (true, _) => rel.to_string(),
        (false, true) => dir.to_string(),
        (false, false) => format!("{dir}/{rel}"),
    }
}

/// `--fail-on-affected` when no reference of the source could be brought to the change's old
/// side: the gate would pass having assessed nothing (a shallow CI checkout without the pinned
/// commits, found in the stop-44 CI walk), so it is an error naming the most common reason, as
/// drift's gate is.
fn nothing_assessed(report: &impact::ImpactReport) -> Result<(), CliError> {
    if report.counts.assessed > 0 || report.unassessed.is_empty() {
        return Ok(());
    }
    let total = report.unassessed.len();
    let (reason, n) =
        crate::report::most_common(report.unassessed.iter().map(|u| u.reason.as_str()));
    Err(CliError {
        message: format!(
            "the impact gate (--fail-on-affected) assessed nothing: none of the {total} references of {} could be located at the change's old side ({n} of them: {reason})",
            report.source
        ),
        hint: Some(
            "`ontoly impact` without --fail-on-affected lists each reference's reason".into(),
        ),
        ..Default::default()
    })
}

/// Finds the sections the change touches.
pub fn run(ctx: &Globals, a: &Args) -> Result<Output, CliError> {
    if a.to.is_none() && a.diff.is_none() {
        // `--from` alone is half a change: say which half is missing.
        let message = match &a.from {
            Some(from) => format!("impact needs the new side of the change from {from}"),
            None => "impact needs a change".into(),
        };
        return Err(CliError {
            message,
            hint: Some("give --from A --to B, or --diff FILE (- for standard input)".into()),
            ..Default::default()
        });
    }
    // The global --source takes NAME=PATH clone overrides; a bare NAME names the source.
    let (names, overrides): (Vec<String>, Vec<String>) =
        ctx.sources.iter().cloned().partition(|s| !s.contains('='));
    if names.len() > 1 {
        return Err(CliError::new("impact takes one --source NAME"));
    }
    let globals = Globals {
        sources: overrides,
        ..ctx.clone()
    };
    let diff = match &a.diff {
        None => None,
        Some(p) if p.as_os_str() == "-" => {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s).map_err(|e| {
                CliError::new(format!(
                    "cannot read the diff from standard input: {}",
                    e.kind()
                ))
            })?;
            Some(s)
        }
        Some(p) => Some(std::fs::read_to_string(p).map_err(|e| {
            CliError::unreadable(&format!("diff file {}", p.to_string_lossy()), &e)
        })?),
    };
    let session = globals.session()?;
    let opts = ImpactOptions {
        from: a.from.clone(),
        to: a.to.clone(),
        diff,
        source: names.into_iter().next(),
        lines_only: a.lines_only,
    };
    let report = impact::impact(&session, &opts).map_err(|e| {
        let hint = match e {
            ImpactError::Source(_) => Some("choose the source with --source NAME".to_string()),
            // Another source would not help: the old side has to be named.
            ImpactError::NoHead(_) => {
                Some("give the commit the change starts from with --from REV".to_string())
            }
            ImpactError::Revision(side, ..) => Some(format!(
                "give {} a branch, tag or commit of the source's clone",
                if side == "old" { "--from" } else { "--to" }
            )),
            ImpactError::NoClone(_) => Some(
                "map the repository's local clone in ontoly.toml [sources] or with --source \
                 NAME=PATH (`ontoly validate` names mapped clones that are missing)"
                    .to_string(),
            ),
            ImpactError::Registry(_) => {
                Some("fix the registry (`ontoly validate` lists its errors)".to_string())
            }
            ImpactError::DiffBase(_) => Some(
                "give the commit the diff was made from with --from (for `git diff main...`, \
                 the merge base: --from $(git merge-base main HEAD))"
                    .to_string(),
            ),
            _ => None,
        };
        CliError {
            message: e.to_string(),
            hint,
            ..Default::default()
        }
    })?;
    if a.fail_on_affected {
        nothing_assessed(&report)?;
    }
    let failed = a.fail_on_affected && !report.pages.is_empty();
    Ok(Output {
        report: Report::Impact(Box::new(ImpactView {
            report,
            workspace_root: in_repository(&session, ""),
        })),
        exit: if failed { EXIT_GATE } else { 0 },
    })
}
