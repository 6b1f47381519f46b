//! The knowledge repository at its commit: when the workspace is in git, the page of the top
//! section is a pinned read too, at the workspace repository's `HEAD` (the provenance's
//! `knowledgeCommit`), so an agent can read the section's own text the way it reads code; and
//! the top section's page lines are the pack's first next step, a `read` call (a workspace in
//! no git repository is read as a work tree, without a revision).

use super::FileToInspect;
use crate::context::Context;
use crate::evidence::Diagnostic;
use ontoly_graph::diagnostics::Code;
use ontoly_graph::graph::model::Node;

/// Where a `read` finds the lines of a section as the graph has them.
pub(crate) enum PageLines {
    /// At the knowledge commit, whose page is the one on disk.
    Committed(String),
    /// On disk: the workspace is in no git repository, and reads its files as a work tree.
    WorkTree,
    /// Nowhere: the page on disk has uncommitted changes (`true`) or was never committed.
    Uncommitted(bool),
}

/// A section's lines in its page as reads name them: the workspace repository's name, the
/// page's path in that repository, and where those lines are. `None` when the workspace has no
/// readable repository or the section no span.
pub(crate) struct PageRead {
    /// The workspace repository, as reads name it.
    pub repository: String,
    /// The page's path in the repository.
    pub path: String,
    /// The section's first line.
    pub start_line: u64,
    /// The section's last line, inclusive.
    pub end_line: u64,
    /// Where the lines are.
    pub lines: PageLines,
}

impl PageRead {
    /// The `read` tool call (MCP) that shows these lines, when one does: pinned to the
    /// knowledge commit, or of the work tree without a revision.
    pub fn tool_call(&self) -> Option<serde_json::Value> {
        let mut args = serde_json::json!({
            "repository": self.repository,
            "path": self.path,
            "startLine": self.start_line,
            "endLine": self.end_line,
        });
        match &self.lines {
            PageLines::Committed(c) => args["revision"] = serde_json::json!(c),
            PageLines::WorkTree => {}
            PageLines::Uncommitted(_) => return None,
        }
        Some(serde_json::json!({"tool": "read", "arguments": args}))
    }

    /// The `ontoly read` arguments after `read` that show these lines, when any do:
    /// `--repo R [--rev C] PATH:START-END`, each word shell-quoted.
    pub fn command_args(&self) -> Option<String> {
        let rev = match &self.lines {
            PageLines::Committed(c) => format!(" --rev {}", super::shell_quote(c)),
            PageLines::WorkTree => String::new(),
            PageLines::Uncommitted(_) => return None,
        };
        Some(format!(
            "--repo {}{rev} {}",
            super::shell_quote(&self.repository),
            super::shell_quote(&format!(
                "{}:{}-{}",
                self.path, self.start_line, self.end_line
            ))
        ))
    }
}

/// The lines of `section` in its page, as [`PageRead`] (see there).
///
/// The section's lines come from the page on disk, which the graph was built from. When that
/// page is not the one committed (uncommitted edits, or never committed), no commit holds them:
/// at the knowledge commit those lines can hold another section (the plugin-reads walk,
/// `repro_dirty_pack.py`). Only this one page is compared.
pub(crate) fn page_read(ctx: &Context<'_>, section: &Node) -> Option<PageRead> {
    let session = ctx.session()?;
    let repos = session.repositories().ok()?;
    let ws = repos.workspace()?;
    let span = section.span.as_ref()?;
    let path = if ws.workspace_root.is_empty() {
        span.file.clone()
    } else {
        format!("{}/{}", ws.workspace_root, span.file)
    };
    let lines = match (&ctx.identity().knowledge_commit, &ws.repo) {
        (Some(commit), Some(git)) => {
            let on_disk = session.read_workspace_file(&span.file).ok();
            let committed = git.local().file_at(commit, &path);
            match (&on_disk, &committed) {
                (Some(disk), Some(blob)) if same_lines(disk, blob) => {
                    PageLines::Committed(commit.clone())
                }
                _ => PageLines::Uncommitted(committed.is_some()),
            }
        }
        (_, None) if ws.worktree.is_some() => PageLines::WorkTree,
        _ => return None,
    };
    Some(PageRead {
        repository: ws.name.clone(),
        path,
        start_line: span.start_line,
        end_line: span.end_line,
        lines,
    })
}

/// Appends `page`, the read of the first top section's lines of its page, at the knowledge
/// commit, keeping at most `max` reads (the last source read gives way). Nothing when the
/// workspace is not in git. A page whose lines no commit holds ([`page_read`]) is a read with
/// no commit, and `diagnostics` name the page.
pub(crate) fn add_page_read(
    ctx: &Context<'_>,
    top_sections: &[&Node],
    page: Option<&PageRead>,
    reads: &mut Vec<FileToInspect>,
    diagnostics: &mut Vec<Diagnostic>,
    max: usize,
) {
    let Some(commit) = ctx.identity().knowledge_commit.clone() else {
        return;
    };
    let (Some(section), Some(page)) = (top_sections.first(), page) else {
        return;
    };
    let (commit, reason) = match &page.lines {
        PageLines::Committed(c) => (
            Some(c.clone()),
            format!(
                "the text of {} in its page, at the knowledge commit",
                section.id
            ),
        ),
        PageLines::WorkTree => return,
        PageLines::Uncommitted(was_committed) => {
            let why = if *was_committed {
                "has uncommitted changes"
            } else {
                "is not committed"
            };
            diagnostics.push(
                Diagnostic::new(
                    Code::KnowledgePageUncommitted,
                    format!(
                        "{} {why}: the pack's sections and lines are those on disk, which the knowledge commit {} does not hold; commit the page to read them with `read`",
                        page.path,
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
        }
    };
    let read = FileToInspect {
        repository: page.repository.clone(),
        commit,
        path: page.path.clone(),
        start_line: page.start_line,
        end_line: page.end_line,
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
