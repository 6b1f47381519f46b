//! The knowledge repository at its commit: the top section's page lines are the pack's first
//! next step, a `read` call pinned to the workspace repository's `HEAD` (the provenance's
//! `knowledgeCommit`), so an agent can read the section's own text the way it reads code (a
//! workspace in no git repository is read as a work tree, without a revision). That read takes
//! the place of one pinned read of cited code; when no commit holds those lines (the page has
//! uncommitted changes) there is no such call, and the page is a `filesToInspect` entry with no
//! commit instead, which a diagnostic names.

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

/// Gives `page`, the top section's page lines, its place among the `max` reads of a pack in a
/// git workspace (the last source read gives way, as it did when the page was an entry), and
/// makes it an entry of `reads` only when no commit holds its lines ([`page_read`]): one with
/// no commit, which `diagnostics` name. When a commit holds them, the pack's first next step
/// is the `read` of those lines ([`PageRead::tool_call`]); an entry too said the same read
/// twice, and those 250 bytes came out of the excerpts (stop 55). A fourth cited range in its
/// place was measured and not kept: it costs more than the entry did (on the httpx set, 559
/// excerpt sentences where the entry left 633 and its place left empty 748). Nothing for a
/// workspace in no git repository, whose page was never an entry.
pub(crate) fn add_page_read(
    ctx: &Context<'_>,
    top_sections: &[&Node],
    page: Option<&PageRead>,
    reads: &mut Vec<FileToInspect>,
    diagnostics: &mut Vec<Diagnostic>,
    max: usize,
) {
    let Some(commit) = ctx.identity().knowledge_commit.as_deref() else {
        return;
    };
    let (Some(section), Some(page)) = (top_sections.first(), page) else {
        return;
    };
    let was_committed = match page.lines {
        PageLines::Uncommitted(was) => was,
        PageLines::Committed(_) => {
            reads.truncate(max.saturating_sub(1));
            return;
        }
        PageLines::WorkTree => return,
    };
    let why = if was_committed {
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
                commit.get(..12).unwrap_or(commit)
            ),
        )
        .about(section.id.clone()),
    );
    let read = FileToInspect {
        repository: page.repository.clone(),
        commit: None,
        path: page.path.clone(),
        start_line: page.start_line,
        end_line: page.end_line,
        url: None,
        reason: format!(
            "the text of {} in its page as it is on disk, which {why}: no commit holds these lines (a `read` shows the committed page)",
            section.id
        ),
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

/// Appends `read`, the last source read giving way when there are `max` already: the page
/// entry says where the pack's lines are when no read can show them.
fn push_last(reads: &mut Vec<FileToInspect>, read: FileToInspect, max: usize) {
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
    fn the_page_entry_takes_the_last_place_of_a_full_list() {
        let page = "the text of section:a.md#x in its page as it is on disk";
        let mut reads = vec![read("src/x.rs", 1, "cited by section:a.md#x")];
        push_last(&mut reads, read("knowledge/a.md", 5, page), 4);
        assert_eq!(reads.len(), 2);
        assert_eq!(reads[1].reason, page);
        let mut full: Vec<FileToInspect> = (1..=4)
            .map(|i| read("src/x.rs", i * 10, "cited by section:a.md#x"))
            .collect();
        push_last(&mut full, read("knowledge/a.md", 5, page), 4);
        assert_eq!(full.len(), 4);
        assert_eq!(full[2].start_line, 30);
        assert_eq!(full[3].reason, page);
    }
}
