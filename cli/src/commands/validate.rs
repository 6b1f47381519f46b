//! `ontoly validate`: every diagnostic with `file:line`; exit 1 when any is an error.
//! `--require-verified` adds an error for every repository reference that is not `verified`.

use super::{CliError, Globals, Output};
use crate::render::Format;
use crate::report::{Report, SeverityCounts, ValidateView};
use ontoly_graph::diagnostics::{Code, Severity};
use ontoly_graph::graph::findings::{
    diagnostics_of, every_diagnostic, fold_repeats, DiagnosticView,
};
use ontoly_graph::graph::{EdgeKind, Graph};
use ontoly_graph::sources::verify::Status;

/// The formats `ontoly validate` renders.
pub const FORMATS: &[Format] = &[
    Format::Text,
    Format::Json,
    Format::Yaml,
    Format::Github,
    Format::Sarif,
];

/// Arguments of `ontoly validate`.
#[derive(clap::Args)]
pub struct Args {
    /// Fail (exit 1) while any repository reference (`repo:`, `repo-content:`) is not
    /// `verified`: no clone, unpinned, uncommitted (`+worktree`) or wrong all count.
    #[arg(long)]
    require_verified: bool,
    /// Output format (github: workflow annotations; sarif: SARIF 2.1.0).
    #[arg(long, value_parser = crate::render::parser(FORMATS))]
    format: Option<Format>,
}

/// The `--format` given to this command.
pub fn format(a: &Args) -> Option<Format> {
    a.format
}

/// A `REFERENCE_UNVERIFIED` error for every repository reference that is not `verified` but
/// has no error of its own already (a digest mismatch is reported as itself).
fn unverified(g: &Graph) -> Vec<DiagnosticView> {
    let mut out = Vec::new();
    for e in g.edges().filter(|e| e.kind == EdgeKind::Cites) {
        let kind = e.metadata.get("source_kind").map_or("", String::as_str);
        if kind != "repo" && kind != "repo-content" {
            continue;
        }
        let status = e.metadata.get("status").and_then(|s| Status::parse(s));
        let Some(status) = status.filter(|s| *s != Status::Verified && !s.is_error()) else {
            continue;
        };
        let (file, line) = e
            .origin
            .as_ref()
            .map(|o| (o.file.clone(), o.line))
            .unwrap_or_default();
        let target = g
            .node(&e.to)
            .map_or_else(|| e.to.to_string(), |n| n.name.clone());
        out.push(DiagnosticView {
            code: Code::ReferenceUnverified.as_str().to_string(),
            severity: Severity::Error,
            message: format!(
                "{}: reference `{}` {target} is not verified: {}",
                status.as_str(),
                e.metadata.get("source_ref").map_or("", String::as_str),
                status.message()
            ),
            location: format!("{file}:{line}"),
            subject: Some(e.from.to_string()),
        });
    }
    out
}

/// How many references are neither verified nor an error (what `--require-verified` would
/// add), counted from the `CITES` rows in place: listing them costs seconds at 100k sections.
fn not_verified(g: &Graph) -> usize {
    g.edge_meta_counts(EdgeKind::Cites, "status")
        .into_iter()
        .filter_map(|(status, n)| {
            let s = Status::parse(status.as_deref()?)?;
            (s != Status::Verified && !s.is_error()).then_some(n)
        })
        .sum()
}

/// Lists diagnostics ordered by file, line and code.
pub fn run(ctx: &Globals, a: &Args) -> Result<Output, CliError> {
    let session = ctx.session()?;
    let g = session.graph()?;
    let diagnostics = if a.require_verified {
        let extra = unverified(g);
        let mut all = every_diagnostic(g);
        all.extend(extra);
        all.sort_by(|x, y| {
            let key = |d: &DiagnosticView| {
                let (f, l) = d.location.rsplit_once(':').unwrap_or((&d.location, "0"));
                (f.to_string(), l.parse::<u64>().unwrap_or(0), d.code.clone())
            };
            key(x).cmp(&key(y)).then_with(|| x.message.cmp(&y.message))
        });
        // A clone missing is one cause of every reference it leaves unverified: listed once,
        // and counted once, as the graph's own folded causes are.
        fold_repeats(all)
    } else {
        diagnostics_of(g)
    };
    let summary = SeverityCounts::listed(&diagnostics);
    Ok(Output {
        report: Report::Validate(ValidateView {
            workspace: session.name().to_string(),
            graph_hash: g.hash.clone(),
            valid: summary.error == 0,
            summary,
            diagnostics,
            root: super::ci::Anchor::of(&session).workspace_dir().to_string(),
            not_verified: if a.require_verified {
                0
            } else {
                not_verified(g)
            },
        }),
        exit: u8::from(summary.error > 0),
    })
}
