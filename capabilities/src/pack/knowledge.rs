//! The knowledge repository at its commit: when the workspace is in git, the page of the top
//! section is a pinned read too, at the workspace repository's `HEAD` (the provenance's
//! `knowledgeCommit`), so an agent can read the section's own text the way it reads code.

use super::FileToInspect;
use crate::context::Context;
use ontoly_graph::graph::model::Node;

/// Appends the read of the first top section's lines of its page, at the knowledge commit,
/// keeping at most `max` reads (the last source read gives way). Nothing when the workspace is
/// not in git.
pub(crate) fn add_page_reads(
    ctx: &Context<'_>,
    top_sections: &[&Node],
    reads: &mut Vec<FileToInspect>,
    max: usize,
) {
    let Some(commit) = ctx.identity().knowledge_commit.clone() else {
        return;
    };
    let Some(repos) = ctx.session().and_then(|s| s.repositories().ok()) else {
        return;
    };
    let Some(ws) = repos.workspace() else { return };
    let Some(section) = top_sections.first() else {
        return;
    };
    let Some(span) = &section.span else { return };
    let path = if ws.workspace_root.is_empty() {
        span.file.clone()
    } else {
        format!("{}/{}", ws.workspace_root, span.file)
    };
    let read = FileToInspect {
        repository: ws.name.clone(),
        commit,
        path,
        start_line: span.start_line,
        end_line: span.end_line,
        url: None,
        reason: format!(
            "the text of {} in its page, at the knowledge commit",
            section.id
        ),
        drift: None,
    };
    if reads.contains(&read) {
        return;
    }
    if reads.len() >= max {
        reads.truncate(max.saturating_sub(1));
    }
    reads.push(read);
}
