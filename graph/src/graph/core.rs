//! The built graph: nodes and edges sorted by id, a petgraph index over them, texts for
//! retrieval, and the blake3 hash that identifies the whole.

use crate::graph::model::{Edge, EdgeKind, Node, NodeKind, GRAPH_VERSION};
use petgraph::graph::{DiGraph, EdgeIndex, NodeIndex};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The evidence graph of one workspace. Immutable once built; cheap to query. It holds content
/// only: how the workspace is named or where it sits is the [`crate::Session`]'s business.
///
/// Invariants: `nodes` and `edges` are sorted by id (byte order) with unique ids; every edge
/// endpoint is a node id; `hash` is [`Graph::compute_hash`] of the contents.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Graph {
    /// Graph model version ([`GRAPH_VERSION`]).
    pub version: String,
    /// Nodes sorted by id.
    pub nodes: Vec<Node>,
    /// Edges sorted by id.
    pub edges: Vec<Edge>,
    /// Searchable text by node id (section bodies, article titles and descriptions), sorted.
    pub texts: BTreeMap<String, String>,
    /// blake3 hex over the canonical form.
    pub hash: String,
    #[serde(skip)]
    index: std::sync::OnceLock<Index>,
}

#[derive(Debug, Clone)]
struct Index {
    g: DiGraph<usize, usize>,
}

impl Graph {
    /// Assembles a graph from unsorted, possibly duplicated parts. Duplicate nodes (same id) keep
    /// the first in id order after a stable sort, so the result never depends on input order
    /// as long as duplicates are identical; edges whose endpoints are missing are dropped.
    pub fn assemble(
        mut nodes: Vec<Node>,
        mut edges: Vec<Edge>,
        texts: BTreeMap<String, String>,
    ) -> Graph {
        use rayon::slice::ParallelSliceMut;
        // Parallel stable sorts: the order is fully determined by the comparator.
        nodes.par_sort_by(|a, b| a.id.cmp(&b.id).then_with(|| cmp_json(a, b)));
        nodes.dedup_by(|a, b| a.id == b.id);
        edges.par_sort_by(|a, b| a.id.cmp(&b.id).then_with(|| cmp_json(a, b)));
        edges.dedup_by(|a, b| a.id == b.id);
        let keep: Vec<bool> = {
            use rayon::prelude::*;
            // Ids share long prefixes, so hashing beats binary search here.
            let ids: std::collections::HashSet<&str> =
                nodes.iter().map(|n| n.id.as_str()).collect();
            edges
                .par_iter()
                .map(|e| ids.contains(e.from.as_str()) && ids.contains(e.to.as_str()))
                .collect()
        };
        let mut k = keep.iter();
        edges.retain(|_| k.next().copied().unwrap_or(false));
        let mut g = Graph {
            version: GRAPH_VERSION.to_string(),
            nodes,
            edges,
            texts,
            hash: String::new(),
            index: std::sync::OnceLock::new(),
        };
        g.hash = g.compute_hash();
        g.reindex();
        g
    }

    /// A graph from parts already in canonical form (a verified snapshot): no sorting or
    /// re-hashing, only the index is rebuilt. The caller vouches for the invariants above; the
    /// snapshot layer does so with a checksum over exactly what [`Graph::assemble`] produced.
    pub fn from_snapshot(
        version: String,
        nodes: Vec<Node>,
        edges: Vec<Edge>,
        texts: BTreeMap<String, String>,
        hash: String,
    ) -> Graph {
        let mut g = Graph {
            version,
            nodes,
            edges,
            texts,
            hash,
            index: std::sync::OnceLock::new(),
        };
        g.reindex();
        g
    }

    /// Drops the in-memory index; it is rebuilt on first use (after the nodes or edges were
    /// changed, or after deserializing).
    pub fn reindex(&mut self) {
        self.index = std::sync::OnceLock::new();
    }

    fn build_index(&self) -> Index {
        use rayon::prelude::*;
        // Nodes are sorted by id, so a node's position is its petgraph index and lookups are
        // binary searches: no hash map of cloned ids to build.
        let mut g = DiGraph::with_capacity(self.nodes.len(), self.edges.len());
        for i in 0..self.nodes.len() {
            g.add_node(i);
        }
        let ends: Vec<Option<(usize, usize)>> = self
            .edges
            .par_iter()
            .map(|e| Some((self.position(&e.from)?, self.position(&e.to)?)))
            .collect();
        for (i, end) in ends.into_iter().enumerate() {
            if let Some((a, b)) = end {
                g.add_edge(NodeIndex::new(a), NodeIndex::new(b), i);
            }
        }
        Index { g }
    }

    fn position(&self, id: &str) -> Option<usize> {
        self.nodes.binary_search_by(|n| n.id.as_str().cmp(id)).ok()
    }

    /// The index, built on first use: commands that only need counts and the hash (a warm
    /// `ontoly build`) never pay for it.
    fn idx(&self) -> &Index {
        self.index.get_or_init(|| self.build_index())
    }

    /// blake3 hex over the version, then every node and edge in id order, as canonical JSON.
    /// Independent of paths, machines, thread counts and time.
    pub fn compute_hash(&self) -> String {
        use rayon::prelude::*;
        // Serialization runs in parallel chunks; the hasher sees the same bytes in the same
        // order as a serial loop would feed it.
        fn lines<T: Serialize + Sync>(items: &[T]) -> Vec<Vec<u8>> {
            items
                .par_chunks(4096)
                .map(|chunk| {
                    let mut buf = Vec::with_capacity(chunk.len() * 160);
                    for item in chunk {
                        // Writing into a Vec cannot fail; a failing Serialize impl would write
                        // nothing, exactly as `to_vec(..).unwrap_or_default()` did.
                        let mark = buf.len();
                        if serde_json::to_writer(&mut buf, item).is_err() {
                            buf.truncate(mark);
                        }
                        buf.push(b'\n');
                    }
                    buf
                })
                .collect()
        }
        let mut h = blake3::Hasher::new();
        h.update(self.version.as_bytes());
        h.update(b"\n");
        for chunk in lines(&self.nodes) {
            h.update(&chunk);
        }
        for chunk in lines(&self.edges) {
            h.update(&chunk);
        }
        for (k, v) in &self.texts {
            h.update(k.as_bytes());
            h.update(b"\0");
            h.update(v.as_bytes());
            h.update(b"\n");
        }
        h.finalize().to_hex().to_string()
    }

    /// The node with this id.
    pub fn node(&self, id: &str) -> Option<&Node> {
        self.position(id).map(|i| &self.nodes[i])
    }

    /// Edges leaving `id`, optionally of one kind, in id order.
    pub fn out_edges(&self, id: &str, kind: Option<EdgeKind>) -> Vec<&Edge> {
        self.edges_dir(id, kind, petgraph::Direction::Outgoing)
    }

    /// Edges arriving at `id`, optionally of one kind, in id order.
    pub fn in_edges(&self, id: &str, kind: Option<EdgeKind>) -> Vec<&Edge> {
        self.edges_dir(id, kind, petgraph::Direction::Incoming)
    }

    fn edges_dir(&self, id: &str, kind: Option<EdgeKind>, dir: petgraph::Direction) -> Vec<&Edge> {
        let ix = self.idx();
        let Some(n) = self.position(id).map(NodeIndex::new) else {
            return Vec::new();
        };
        let mut out: Vec<&Edge> =
            ix.g.edges_directed(n, dir)
                .map(|e: petgraph::graph::EdgeReference<'_, usize>| &self.edges[*e.weight()])
                .filter(|e| kind.is_none_or(|k| e.kind == k))
                .collect();
        out.sort_by(|a, b| a.id.cmp(&b.id));
        out
    }

    /// Nodes of one kind, in id order.
    pub fn nodes_of(&self, kind: NodeKind) -> impl Iterator<Item = &Node> {
        self.nodes.iter().filter(move |n| n.kind == kind)
    }

    /// The petgraph view (node weights index [`Graph::nodes`], edge weights index
    /// [`Graph::edges`]) for traversal algorithms.
    pub fn petgraph(&self) -> &DiGraph<usize, usize> {
        &self.idx().g
    }

    /// The petgraph index of a node id.
    pub fn node_index(&self, id: &str) -> Option<NodeIndex> {
        self.position(id).map(NodeIndex::new)
    }

    /// The edge at a petgraph edge index.
    pub fn edge_at(&self, e: EdgeIndex) -> Option<&Edge> {
        self.idx().g.edge_weight(e).map(|&i| &self.edges[i])
    }
}

fn cmp_json<T: Serialize>(a: &T, b: &T) -> std::cmp::Ordering {
    serde_json::to_vec(a)
        .unwrap_or_default()
        .cmp(&serde_json::to_vec(b).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::model::{ids, Edge, EdgeKind};

    fn node(id: &str, kind: NodeKind) -> Node {
        Node {
            id: id.into(),
            kind,
            name: id.into(),
            file: None,
            span: None,
            package: None,
            metadata: Default::default(),
        }
    }

    #[test]
    fn hash_ignores_input_order() {
        let a = node(&ids::article("a.md"), NodeKind::Article);
        let s = node(&ids::section("a.md", "x"), NodeKind::Section);
        let e = Edge::new(EdgeKind::Contains, a.id.clone(), s.id.clone(), None);
        let g1 = Graph::assemble(
            vec![a.clone(), s.clone()],
            vec![e.clone()],
            Default::default(),
        );
        let g2 = Graph::assemble(vec![s, a.clone(), a], vec![e], Default::default());
        assert_eq!(g1.hash, g2.hash);
        assert_eq!(g1.out_edges("article:a.md", None).len(), 1);
        assert_eq!(
            g1.in_edges("section:a.md#x", Some(EdgeKind::Contains))
                .len(),
            1
        );
    }
}
