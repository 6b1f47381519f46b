//! `Drift` and `Impact` as registered capabilities: the typed reports of [`super::drift`] and
//! [`crate::impact::impact`] in the result envelope, computed through the context's session.

use super::{drift, DriftOptions, Status};
use crate::context::Context;
use crate::evidence::{CapabilityResult, Code, Confidence, Diagnostic, Evidence};
use crate::impact::{impact, ImpactOptions};
use crate::inputs::{DriftInput, ImpactInput};
use serde_json::{json, Map, Value};

fn envelope(
    ctx: &Context<'_>,
    name: &str,
    summary: String,
    stats: Value,
    diagnostics: Vec<Diagnostic>,
    data: Value,
) -> CapabilityResult {
    let mut evidence = vec![Evidence::statistic(stats, summary.clone())];
    evidence.extend(diagnostics.iter().cloned().map(Evidence::diagnostic));
    CapabilityResult {
        capability: name.to_string(),
        version: "1".to_string(),
        summary,
        evidence,
        diagnostics,
        confidence: Confidence::exact("compared line by line at the two commits (git's rules)"),
        provenance: ctx.provenance(),
        data,
    }
}

fn failed(ctx: &Context<'_>, name: &str, code: Code, message: String) -> CapabilityResult {
    CapabilityResult::error(ctx.provenance(), name, "1", code, message)
}

fn detached(ctx: &Context<'_>, name: &str) -> CapabilityResult {
    failed(
        ctx,
        name,
        Code::CapabilityNotFound,
        format!("{name} reads repositories: it needs a workspace opened from disk"),
    )
}

/// The input as its type (the registry checked it already).
fn input_as<T: for<'de> serde::Deserialize<'de> + Default>(input: &Map<String, Value>) -> T {
    T::deserialize(Value::Object(input.clone())).unwrap_or_default()
}

/// `Drift {to?, onlyDrifted?}`: `to` holds `REV` and `NAME=REV` entries.
pub(crate) fn run_drift(ctx: &Context<'_>, input: &Map<String, Value>) -> CapabilityResult {
    let Some(session) = ctx.session() else {
        return detached(ctx, "Drift");
    };
    let input: DriftInput = input_as(input);
    let opts = DriftOptions {
        symbols: true,
        diffs: input.diff,
        ..DriftOptions::default()
    }
    .with_to_args(input.to.iter().map(String::as_str));
    let mut report = match drift(session, &opts) {
        Ok(r) => r,
        Err(e) => return failed(ctx, "Drift", Code::CapabilityInvalidInput, e.to_string()),
    };
    if input.only_drifted {
        report.keep_only_drifted();
    }
    let (limit, clamped) = input.list_limit();
    report.keep_at_most(limit);
    let c = report.counts;
    let summary = format!(
        "{} unchanged, {} moved, {} changed, {} missing, {} unverifiable",
        c.unchanged, c.moved, c.changed, c.missing, c.unverifiable
    );
    let diagnostics = [
        (Status::Moved, Code::DriftMoved),
        (Status::Changed, Code::DriftChanged),
        (Status::Missing, Code::DriftMissing),
        (Status::Unverifiable, Code::DriftUnverifiable),
    ]
    .into_iter()
    .filter(|(s, _)| c.of(*s) > 0)
    .map(|(s, code)| Diagnostic::new(code, format!("{} reference(s) {}", c.of(s), s.as_str())))
    .chain(clamped)
    .collect();
    let data = serde_json::to_value(&report).unwrap_or(Value::Null);
    envelope(ctx, "Drift", summary, json!(c), diagnostics, data)
}

/// `Impact {from?, to?, diff?, source?, linesOnly?}`.
pub(crate) fn run_impact(ctx: &Context<'_>, input: &Map<String, Value>) -> CapabilityResult {
    let Some(session) = ctx.session() else {
        return detached(ctx, "Impact");
    };
    let input: ImpactInput = input_as(input);
    let opts = ImpactOptions {
        from: input.from,
        to: input.to,
        diff: input.diff,
        source: input.source,
        lines_only: input.lines_only,
    };
    let report = match impact(session, &opts) {
        Ok(r) => r,
        Err(e) => return failed(ctx, "Impact", Code::CapabilityInvalidInput, e.to_string()),
    };
    let c = report.counts;
    let summary = format!(
        "{} hunk(s) in {} file(s) touch {} section(s) on {} page(s)",
        c.hunks, c.files, c.sections, c.pages
    );
    let diagnostics = if c.references > 0 {
        vec![Diagnostic::new(
            Code::ImpactAffected,
            format!(
                "the change touches code that {} section(s) describe",
                c.sections
            ),
        )]
    } else {
        Vec::new()
    };
    let data = serde_json::to_value(&report).unwrap_or(Value::Null);
    envelope(ctx, "Impact", summary, json!(c), diagnostics, data)
}
