//! The pack's size budget: an agent reads the whole pack into its context, so at the default
//! limit it stays under [`PACK_BYTES`] as it is sent (compact JSON, MCP `structuredContent`).
//! A pack over the budget gives up, in this order, the excerpt sentences of its sections below
//! the answer, lowest first (the one sentence of each section below the third, then those of
//! the third and second), its pinned reads after the first two, its relevant files after the first
//! two, the answer's excerpt sentences after the first, and its reads after the first, and a
//! diagnostic says what it left out. The canonical fields and the ranked nodes are never cut.
//! The question and the workspace path are not what the budget weighs: the first is the
//! asker's own, and the second would make the evidence depend on where the workspace was
//! opened from.

use super::{EvidencePack, DEFAULT_LIMIT};
use crate::evidence::{Code, Diagnostic};

/// Bytes of compact JSON a pack at the default limit stays under.
pub const PACK_BYTES: usize = 16 * 1024;

/// Pinned reads a pack keeps before it gives up the answer's excerpt (one it always keeps).
const KEPT_READS: usize = 2;

/// Relevant files a pack keeps whatever its size (they are its pages and cited files, which
/// its nodes and reads also name).
const KEPT_FILES: usize = 2;

/// The budget of a pack of `limit` entities: [`PACK_BYTES`], more in proportion for a limit
/// above the default (a wider pack was asked for).
pub fn budget(limit: usize) -> usize {
    PACK_BYTES.max(PACK_BYTES * limit / DEFAULT_LIMIT)
}

#[derive(Default)]
struct LeftOut {
    sentences: usize,
    reads: usize,
    files: usize,
    /// Of `sentences`, those of sections below the third: each such section's one sentence is
    /// given only where the budget has room for it, so leaving it out is no loss to report.
    later: usize,
}

/// The bytes a pack's workspace path is measured at wherever the pack prints it, whatever its
/// length: what a pack keeps must not depend on where the workspace was opened from (the
/// httpx MCP walk, stop 54: the server's absolute path left out an excerpt sentence that the
/// CLI asked from a short path kept). A longer path makes the pack larger than it is measured.
pub const MEASURED_ROOT_BYTES: usize = 64;

/// Trims `pack` to its budget, measured as it is sent except for the question
/// ([`echoes`]) and the workspace path, which is measured at [`MEASURED_ROOT_BYTES`] in
/// `provenance.root` and in every next command, given with `--workspace` or not
/// ([`root_excess`]): the same question asked through any path to the workspace keeps the
/// same evidence.
pub(super) fn fit(pack: &mut EvidencePack) {
    let budget = budget(pack.limit);
    let echoes = echoes(pack);
    let excess = root_excess(pack);
    let mut left = LeftOut::default();
    // Where the note goes: it is rewritten as more is left out.
    let note_at = pack.diagnostics.len();
    let measured = |pack: &EvidencePack| {
        let bytes = size(pack).saturating_sub(echoes) as isize - excess;
        usize::try_from(bytes).unwrap_or(0)
    };
    while measured(pack) >= budget && trim_one(pack, &mut left) {
        // A pack that gave up only later sections' sentences kept what it promises; a note on
        // it would be on most packs (the fd, httpx and click sets: 69, 70 and 85 of 90).
        if left.sentences == left.later && left.reads == 0 && left.files == 0 {
            continue;
        }
        let note = Diagnostic::new(
            Code::CapabilityPackTrimmed,
            format!(
                "left out to keep the pack under {} KB: {} excerpt sentence(s), {} pinned read(s), {} relevant file(s)",
                budget / 1024,
                left.sentences,
                left.reads,
                left.files
            ),
        );
        pack.diagnostics.truncate(note_at);
        pack.diagnostics.push(note);
    }
}

/// The bytes the query takes where the pack repeats it (`query`, the wider pack's next call
/// and command): the asker's own words, which evidence is never cut to make room for (a
/// pasted 108 KB log left out every excerpt but one in the stop-44 MCP walk).
fn echoes(pack: &EvidencePack) -> usize {
    let q = pack.query.as_str();
    let escaped = serde_json::to_string(q).map_or(0, |s| s.len().saturating_sub(2));
    let calls = (pack.next_tool_calls.iter())
        .filter(|c| c["arguments"]["query"].as_str() == Some(q))
        .count();
    let quoted = super::shell_quote(q);
    let commands = (pack.suggested_commands.iter())
        .filter(|c| c.ends_with(&quoted))
        .count();
    escaped * (1 + calls + commands)
}

/// The bytes the workspace path takes in the pack beyond (or short of) a path of
/// [`MEASURED_ROOT_BYTES`]: in `provenance.root`, and in each next command and fallback that
/// runs `ontoly` (with ` --workspace <path>` when the path is not the current directory's
/// workspace, without it when it is: both are measured as ` --workspace ` and the stand-in).
/// Trimming never changes these strings, so the excess is the same before and after.
fn root_excess(pack: &EvidencePack) -> isize {
    let json_len = |s: &str| serde_json::to_string(s).map_or(0, |j| j.len().saturating_sub(2));
    let root = pack.provenance.root.as_str();
    let arg = super::workspace_arg(root);
    let ontoly = format!("ontoly{arg} ");
    let quoted = format!("`{ontoly}");
    let commands = (pack.suggested_commands.iter())
        .filter(|c| c.starts_with(&ontoly))
        .count()
        + (pack.fallbacks.iter())
            .filter(|f| f.contains(&quoted))
            .count();
    let stand_in_arg = " --workspace ".len() + MEASURED_ROOT_BYTES;
    let per_command = json_len(&arg) as isize - stand_in_arg as isize;
    json_len(root) as isize - MEASURED_ROOT_BYTES as isize + per_command * commands as isize
}

/// The pack's compact JSON bytes.
fn size(pack: &EvidencePack) -> usize {
    serde_json::to_vec(pack).map_or(0, |b| b.len())
}

/// Leaves out the next thing in the budget's order; false when nothing is left to give up.
fn trim_one(pack: &mut EvidencePack, left: &mut LeftOut) -> bool {
    let excerpted: Vec<usize> = (0..pack.top_nodes.len())
        .filter(|&i| !pack.top_nodes[i].excerpt.is_empty())
        .collect();
    let answer = pack
        .top_nodes
        .iter()
        .position(|t| t.node.kind == ontoly_graph::graph::model::NodeKind::Section);
    if let Some(&i) = excerpted.iter().rev().find(|&&i| Some(i) != answer) {
        pack.top_nodes[i].excerpt.pop();
        left.sentences += 1;
        let sections_above = (pack.top_nodes[..i].iter())
            .filter(|t| t.node.kind == ontoly_graph::graph::model::NodeKind::Section)
            .count();
        if sections_above >= 3 {
            left.later += 1;
        }
        return true;
    }
    if pack.files_to_inspect.len() > KEPT_READS {
        pack.files_to_inspect.pop();
        left.reads += 1;
        return true;
    }
    if pack.relevant_files.len() > KEPT_FILES {
        pack.relevant_files.pop();
        left.files += 1;
        return true;
    }
    if let Some(t) = answer.and_then(|i| pack.top_nodes.get_mut(i)) {
        if t.excerpt.len() > 1 {
            t.excerpt.pop();
            left.sentences += 1;
            return true;
        }
    }
    // Last: the answer's first pinned read is what verifies it.
    if pack.files_to_inspect.len() > 1 {
        pack.files_to_inspect.pop();
        left.reads += 1;
        return true;
    }
    false
}
