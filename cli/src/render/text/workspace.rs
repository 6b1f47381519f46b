//! Text of the workspace commands: `build`, `stats`, `validate`.

use crate::report::{BuildView, StatsView, ValidateView};
use std::collections::BTreeMap;

pub(super) fn build(v: &BuildView) -> String {
    let (c, d) = (&v.counts, &v.diagnostics);
    // Why the cache was not used or not written: without it, a cache that cannot be written
    // shows only as every build being a miss.
    let note = v
        .cache
        .note
        .as_deref()
        .map(|n| format!("cache note  {n}\n"))
        .unwrap_or_default();
    let text = format!(
        "workspace   {}\narticles    {}\nsections    {}\nreferences  {}\nnodes       {}\nedges       {}\ndiagnostics {}{}\ngraph hash  {}\ncache       {} ({} of {} pages parsed)\n",
        v.workspace,
        c.articles,
        c.sections,
        c.references,
        c.nodes,
        c.edges,
        d.tally(),
        if d.error + d.warning > 0 {
            " (ontoly validate lists them)"
        } else {
            ""
        },
        v.graph_hash,
        v.cache.status,
        v.cache.pages_parsed,
        v.cache.pages,
    );
    let index = v
        .search_index
        .as_ref()
        .map(|i| match i.status.as_str() {
            "updated" => format!(
                "search index updated ({} of {} documents tokenized again)\n",
                i.tokenized, i.documents
            ),
            status => format!("search index {status} ({} documents)\n", i.documents),
        } + &i
            .note
            .as_deref()
            .map(|n| format!("cache note  {n}\n"))
            .unwrap_or_default())
        .unwrap_or_default();
    text + &index + &note
}

pub(super) fn stats(v: &StatsView) -> String {
    fn table(text: &mut String, m: &BTreeMap<String, usize>) {
        for (k, v) in m {
            text.push_str(&format!("  {k:<26} {v}\n"));
        }
    }
    let mut text = format!(
        "workspace {}\ngraph hash {}\n\nnodes\n",
        v.workspace, v.graph_hash
    );
    table(&mut text, &v.nodes);
    text.push_str("\nedges\n");
    table(&mut text, &v.edges);
    text.push_str("\nreferences by source kind\n");
    if v.references_by_source_kind.is_empty() {
        text.push_str("  (none)\n");
    }
    table(&mut text, &v.references_by_source_kind);
    text.push_str("\nreferences by status\n");
    table(&mut text, &v.references_by_status);
    text.push_str("\nsymbols by kind\n");
    table(&mut text, &v.symbols_by_kind);
    text.push_str("\ncited files by language\n");
    table(&mut text, &v.cited_files_by_language);
    text.push_str("\ncited files in no parsed language, by extension (no symbols read)\n");
    if v.cited_files_unparsed_by_extension.is_empty() {
        text.push_str("  (none)\n");
    }
    table(&mut text, &v.cited_files_unparsed_by_extension);
    text.push_str("\ndiagnostics by code\n");
    if v.diagnostics_by_code.is_empty() {
        text.push_str("  (none)\n");
    }
    table(&mut text, &v.diagnostics_by_code);
    text
}

pub(super) fn validate(v: &ValidateView) -> String {
    let mut text = String::new();
    // Causes first (`sarif::is_cause`): one unusable registry is read before the hundreds of
    // references it leaves unresolved.
    for d in crate::render::sarif::causes_first(&v.diagnostics) {
        text.push_str(&format!(
            "{}: {} {}: {}\n",
            d.location,
            d.severity.as_str(),
            d.code,
            d.message
        ));
    }
    let s = &v.summary;
    text.push_str(&format!("{}: {}\n", v.workspace, s.tally()));
    text
}

/// On standard error, beside the list: "0 errors" alone reads as "all checked".
pub(super) fn validate_note(v: &ValidateView) -> Option<String> {
    (v.not_verified > 0).then(|| {
        format!(
            "note: {} reference(s) are not verified (no local clone, not pinned to a commit, or read from the work tree); `ontoly stats` counts them by status, and `validate --require-verified` fails on them\n",
            v.not_verified
        )
    })
}
