//! The pack's size budget: an agent reads the whole pack into its context, so at the default
//! limit it stays under [`PACK_BYTES`] as it is sent (compact JSON, MCP `structuredContent`).
//! A pack over the budget gives up, in this order, the excerpt sentences of its second and
//! third sections, its pinned reads after the first two, its relevant files after the first
//! two, the answer's excerpt sentences after the first, and its reads after the first, and a
//! diagnostic says what it left out. The canonical fields and the ranked nodes are never cut.

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
}

/// Trims `pack` to its budget, measured as it is sent: its workspace path counts too (an MCP
/// server's is often absolute, and in every next command), so a pack asked with a long
/// `--workspace` may give up a sentence more than one asked from inside the workspace.
pub(super) fn fit(pack: &mut EvidencePack) {
    let budget = budget(pack.limit);
    let echoes = echoes(pack);
    let mut left = LeftOut::default();
    // Where the note goes: it is rewritten as more is left out.
    let note_at = pack.diagnostics.len();
    while size(pack).saturating_sub(echoes) >= budget && trim_one(pack, &mut left) {
        let note = Diagnostic::new(
            Code::CapabilityEvidenceTruncated,
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
