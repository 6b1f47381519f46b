//! The pack's size budget: an agent reads the whole pack into its context, so at the default
//! limit it stays under [`PACK_BYTES`] as it is sent (compact JSON, MCP `structuredContent`).
//! A pack over the budget gives up, in this order, the excerpt sentences of its second and
//! third sections, its pinned reads after the first two, and the answer's excerpt sentences
//! after the first, and a diagnostic says what it left out. The canonical fields and the ranked
//! nodes are never cut.

use super::{EvidencePack, DEFAULT_LIMIT};
use crate::evidence::{Code, Diagnostic};

/// Bytes of compact JSON a pack at the default limit stays under.
pub const PACK_BYTES: usize = 16 * 1024;

/// Pinned reads a pack keeps whatever its size.
const KEPT_READS: usize = 2;

/// The budget of a pack of `limit` entities: [`PACK_BYTES`], more in proportion for a limit
/// above the default (a wider pack was asked for).
pub fn budget(limit: usize) -> usize {
    PACK_BYTES.max(PACK_BYTES * limit / DEFAULT_LIMIT)
}

#[derive(Default)]
struct LeftOut {
    sentences: usize,
    reads: usize,
}

/// Trims `pack` to its budget. `workspace_arg` is the ` --workspace <root>` its commands
/// carry (empty when none): the workspace path is not counted, so the same question gets the
/// same pack wherever the workspace lies.
pub(super) fn fit(pack: &mut EvidencePack, workspace_arg: &str) {
    let budget = budget(pack.limit);
    let mut left = LeftOut::default();
    while size(pack, workspace_arg) >= budget && trim_one(pack, &mut left) {
        let note = Diagnostic::new(
            Code::CapabilityEvidenceTruncated,
            format!(
                "left out to keep the pack under {} KB: {} excerpt sentence(s), {} pinned read(s)",
                budget / 1024,
                left.sentences,
                left.reads
            ),
        );
        if left.sentences + left.reads > 1 {
            if let Some(last) = pack.diagnostics.last_mut() {
                *last = note;
            }
        } else {
            pack.diagnostics.push(note);
        }
    }
}

/// The pack's compact JSON bytes as they would be at the current directory's workspace (a
/// root of `.`, no `--workspace` in its commands).
fn size(pack: &EvidencePack, workspace_arg: &str) -> usize {
    let mut root = pack.provenance.root.len();
    if let Ok(s) = serde_json::to_string(&pack.provenance.root) {
        root = s.len() - 2;
    }
    let root = root.saturating_sub(1);
    let mut in_commands = 0;
    if !workspace_arg.is_empty() {
        if let Ok(s) = serde_json::to_string(workspace_arg) {
            let n = pack
                .suggested_commands
                .iter()
                .map(|c| c.matches(workspace_arg).count())
                .sum::<usize>();
            in_commands = n * (s.len() - 2);
        }
    }
    serde_json::to_vec(pack)
        .map_or(0, |b| b.len())
        .saturating_sub(root + in_commands)
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
    if let Some(t) = answer.and_then(|i| pack.top_nodes.get_mut(i)) {
        if t.excerpt.len() > 1 {
            t.excerpt.pop();
            left.sentences += 1;
            return true;
        }
    }
    false
}
