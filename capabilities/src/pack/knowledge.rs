//! The knowledge repository at its commit: when the workspace is in git, the page of the top
//! section is a pinned read too, at the workspace repository's `HEAD` (the provenance's
//! `knowledgeCommit`), so an agent can read the section's own text the way it reads code.

use super::FileToInspect;
use crate::context::Context;
use crate::evidence::Diagnostic;
use ontoly_graph::diagnostics::Code;
use ontoly_graph::graph::model::Node;

/// Appends the read of the first top section's lines of its page, at the knowledge commit,
/// keeping at most `max` reads (the last source read gives way). Nothing when the workspace is
/// not in git.
///
/// The section's lines come from the page on disk, which the graph was built from. When that
/// page is not the one committed (uncommitted edits, or never committed), the read names no
/// commit and `diagnostics` name the page: at the knowledge commit those lines can hold another
/// section (the plugin-reads walk, `repro_dirty_pack.py`). Only this one page is compared.
pub(crate) fn add_page_reads(
    ctx: &Context<'_>,
    top_sections: &[&Node],
    reads: &mut Vec<FileToInspect>,
    diagnostics: &mut Vec<Diagnostic>,
    max: usize,
) {
    let Some(commit) = ctx.identity().knowledge_commit.clone() else {
        return;
    };
    let Some(session) = ctx.session() else { return };
    let Some(repos) = session.repositories().ok() else {
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
    let on_disk = session.read_workspace_file(&span.file).ok();
    let committed = (ws.repo.as_ref()).and_then(|git| git.local().file_at(&commit, &path));
    let clean = match (&on_disk, &committed) {
        (Some(disk), Some(blob)) => same_lines(disk, blob),
        _ => false,
    };
    let (commit, reason) = if clean {
        (
            Some(commit),
            format!(
                "the text of {} in its page, at the knowledge commit",
                section.id
            ),
        )
    } else {
        let why = if committed.is_some() {
            "has uncommitted changes"
        } else {
            "is not committed"
        };
        diagnostics.push(
            Diagnostic::new(
                Code::KnowledgePageUncommitted,
                format!(
                    "{path} {why}: the pack's sections and lines are those on disk, which the knowledge commit {} does not hold; commit the page to read them with `read`",
                    commit.get(..12).unwrap_or(&commit)
                ),
            )
            .about(section.id.clone()),
        );
        (
            None,
            format!(
                "the text of {} in its page as it is on disk, which {why}: no commit holds these lines (a `read` shows the committed page)",
                section.id
            ),
        )
    };
    let read = FileToInspect {
        repository: ws.name.clone(),
        commit,
        path,
        start_line: span.start_line,
        end_line: span.end_line,
        url: None,
        reason,
        drift: None,
    };
    push_last(reads, read, max);
}

/// Whether the page on disk has the committed page's lines: the same bytes, or the same but
/// for carriage returns a checkout's line-ending conversion adds (line numbers are the same).
fn same_lines(disk: &[u8], blob: &[u8]) -> bool {
    disk == blob || {
        let lf = |b: &[u8]| -> Vec<u8> { b.iter().copied().filter(|&c| c != b'\r').collect() };
        lf(disk) == lf(blob)
    }
}

/// Appends `read`, the last source read giving way when there are `max` already; when its
/// lines are a read already (a section whose page, at the knowledge commit, is cited as a
/// source), that entry says both reasons instead.
fn push_last(reads: &mut Vec<FileToInspect>, read: FileToInspect, max: usize) {
    if let Some(same) = reads.iter_mut().find(|r| r.same_range(&read)) {
        if !same.reason.split("; ").any(|r| r == read.reason) {
            same.reason = format!("{}; {}", same.reason, read.reason);
        }
        return;
    }
    if reads.len() >= max {
        reads.truncate(max.saturating_sub(1));
    }
    reads.push(read);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &str, start: u64, reason: &str) -> FileToInspect {
        FileToInspect {
            repository: "acme/docs".into(),
            commit: Some("0123456789abcdef0123456789abcdef01234567".into()),
            path: path.into(),
            start_line: start,
            end_line: start + 9,
            url: None,
            reason: reason.into(),
            drift: None,
        }
    }

    #[test]
    fn a_page_read_that_is_a_cited_range_is_one_entry_with_both_reasons() {
        let page = "the text of section:a.md#x in its page, at the knowledge commit";
        let mut reads = vec![
            read("src/x.rs", 1, "cited by section:a.md#x"),
            read("knowledge/a.md", 5, "cited by section:b.md#y"),
        ];
        push_last(&mut reads, read("knowledge/a.md", 5, page), 4);
        assert_eq!(reads.len(), 2);
        assert_eq!(reads[1].reason, format!("cited by section:b.md#y; {page}"));
        // Once only, however often it is added.
        push_last(&mut reads, read("knowledge/a.md", 5, page), 4);
        assert_eq!(reads[1].reason, format!("cited by section:b.md#y; {page}"));
        // Another range takes the last place when the list is full.
        let mut full: Vec<FileToInspect> = (1..=4)
            .map(|i| read("src/x.rs", i * 10, "cited by section:a.md#x"))
            .collect();
        push_last(&mut full, read("knowledge/a.md", 5, page), 4);
        assert_eq!(full.len(), 4);
        assert_eq!(full[3].reason, page);
    }
}
