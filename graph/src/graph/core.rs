//! The built graph: nodes and edges sorted by id, adjacency over them, texts for retrieval,
//! and the blake3 hash that identifies the whole.
//!
//! A [`Graph`] has one of two backings with the same answers: **owned** (what a build
//! assembles: vectors of nodes and edges) and **mapped** (a snapshot read in place, see
//! [`crate::graph::store`]). A mapped graph decodes a node or an edge the first time it is
//! asked for and keeps it, so callers get `&Node` and `&Edge` from either backing while a query
//! process touches only what its answer needs.

use crate::graph::canonical::Canonical;
use crate::graph::model::{Edge, EdgeKind, Node, NodeKind, SharedStr, GRAPH_VERSION};
use crate::graph::prefetch::{self, Prefetch};
use crate::graph::store::{edge_kind_code, node_kind_code, MappedGraph};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// The evidence graph of one workspace. Immutable once built; cheap to query. It holds content
/// only: how the workspace is named or where it sits is the [`crate::Session`]'s business.
///
/// Invariants: nodes and edges are in id order (byte order) with unique ids; every edge
/// endpoint is a node id; `hash` is [`Graph::compute_hash`] of the contents.
#[derive(Debug, Clone)]
pub struct Graph {
    /// Graph model version ([`GRAPH_VERSION`]).
    pub version: String,
    /// blake3 hex over the canonical form.
    pub hash: String,
    repr: Repr,
}

#[derive(Debug, Clone)]
enum Repr {
    Owned(Box<Owned>),
    Mapped(Box<Mapped>),
}

#[derive(Debug, Clone)]
struct Owned {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    texts: BTreeMap<String, SharedStr>,
    /// Each edge's `(from, to)` node indices: found once at assembly (which looks every
    /// endpoint up to drop dangling edges anyway), else on first use. The snapshot writer and
    /// the adjacency rows read them instead of looking 2 × 373k id strings up again at 100k.
    ends: OnceLock<Vec<Option<(u32, u32)>>>,
    adjacency: OnceLock<Adjacency>,
    /// Nodes of each kind and edge counts per kind, found on first use: a pack asks for edge
    /// counts per section it shows, and a scan of 373k edges each time cost an owned graph (a
    /// build's, an MCP server's after a rebuild) ~37 ms a pack at 100k.
    kinds: OnceLock<Kinds>,
}

/// An owned graph's nodes per [`NodeKind::ALL`] position (indices, in id order) and edge
/// counts per [`EdgeKind::ALL`] position: what a mapped graph stores.
#[derive(Debug, Clone)]
struct Kinds {
    nodes: [Vec<u32>; NodeKind::ALL.len()],
    edges: [usize; EdgeKind::ALL.len()],
}

impl Kinds {
    fn of(o: &Owned) -> Kinds {
        let mut k = Kinds {
            nodes: Default::default(),
            edges: [0; EdgeKind::ALL.len()],
        };
        for (i, n) in o.nodes.iter().enumerate() {
            k.nodes[usize::from(node_kind_code(n.kind))].push(i as u32);
        }
        for e in &o.edges {
            k.edges[usize::from(edge_kind_code(e.kind))] += 1;
        }
        k
    }
}

/// Out and in edges per node as compressed rows (edge indices ascending, i.e. in id order).
#[derive(Debug, Clone)]
struct Adjacency {
    out_off: Vec<u32>,
    out: Vec<u32>,
    in_off: Vec<u32>,
    inc: Vec<u32>,
}

struct Mapped {
    m: Arc<MappedGraph>,
    nodes: Lazy<Node>,
    edges: Lazy<Edge>,
}

impl std::fmt::Debug for Mapped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mapped")
            .field("nodes", &self.m.node_count())
            .field("edges", &self.m.edge_count())
            .finish()
    }
}

impl Clone for Mapped {
    fn clone(&self) -> Self {
        Mapped::new(self.m.clone())
    }
}

impl Mapped {
    fn new(m: Arc<MappedGraph>) -> Mapped {
        Mapped {
            nodes: Lazy::new(m.node_count()),
            edges: Lazy::new(m.edge_count()),
            m,
        }
    }

    fn node(&self, i: u32) -> Option<&Node> {
        self.nodes
            .get_or(i as usize, || self.m.node_at(i)?.to_node())
    }

    fn edge(&self, i: u32) -> Option<&Edge> {
        self.edges
            .get_or(i as usize, || self.m.edge_at(i)?.to_edge())
    }
}

/// Values decoded on first use and kept: chunks of slots allocated when first touched, so a
/// query that reads 100 nodes of a million allocates a few chunks, not a million slots.
struct Lazy<T> {
    chunks: Vec<OnceLock<Box<[OnceLock<T>]>>>,
    len: usize,
}

const LAZY_CHUNK: usize = 64;

impl<T> Lazy<T> {
    fn new(len: usize) -> Lazy<T> {
        Lazy {
            chunks: (0..len.div_ceil(LAZY_CHUNK))
                .map(|_| OnceLock::new())
                .collect(),
            len,
        }
    }

    fn get_or(&self, i: usize, decode: impl FnOnce() -> Option<T>) -> Option<&T> {
        if i >= self.len {
            return None;
        }
        let chunk = self.chunks[i / LAZY_CHUNK]
            .get_or_init(|| (0..LAZY_CHUNK).map(|_| OnceLock::new()).collect());
        let slot = &chunk[i % LAZY_CHUNK];
        if let Some(v) = slot.get() {
            return Some(v);
        }
        // Two threads may decode the same slot; the first one stored wins, both are equal.
        let _ = slot.set(decode()?);
        slot.get()
    }
}

/// A built graph's nodes, edges and texts, borrowed (see [`Graph::parts`]).
pub type Parts<'g> = (&'g [Node], &'g [Edge], &'g BTreeMap<String, SharedStr>);

/// Iterator over a graph's nodes or edges in id order, whatever the backing.
pub struct Items<'g, T> {
    inner: ItemsInner<'g, T>,
}

enum ItemsInner<'g, T> {
    Slice(std::slice::Iter<'g, T>),
    Mapped {
        m: &'g Mapped,
        get: fn(&'g Mapped, u32) -> Option<&'g T>,
        range: std::ops::Range<u32>,
    },
}

impl<'g, T> Iterator for Items<'g, T> {
    type Item = &'g T;
    fn next(&mut self) -> Option<&'g T> {
        match &mut self.inner {
            ItemsInner::Slice(s) => s.next(),
            ItemsInner::Mapped { m, get, range } => {
                // A corrupt row is skipped (the graph is then marked corrupt; see
                // `Graph::is_corrupt`).
                for i in range.by_ref() {
                    if let Some(v) = get(m, i) {
                        return Some(v);
                    }
                }
                None
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.inner {
            ItemsInner::Slice(s) => s.size_hint(),
            ItemsInner::Mapped { range, .. } => (0, Some(range.len())),
        }
    }
}

impl Graph {
    /// Assembles a graph from unsorted, possibly duplicated parts. Duplicate nodes (same id) keep
    /// the first in id order after a stable sort, so the result never depends on input order
    /// as long as duplicates are identical; edges whose endpoints are missing are dropped.
    pub fn assemble(
        mut nodes: Vec<Node>,
        mut edges: Vec<Edge>,
        texts: BTreeMap<String, SharedStr>,
    ) -> Graph {
        use rayon::slice::ParallelSliceMut;
        // Parallel stable sorts: the order is fully determined by the comparator.
        nodes.par_sort_by(|a, b| a.id.cmp(&b.id).then_with(|| cmp_json(a, b)));
        nodes.dedup_by(|a, b| a.id == b.id);
        edges = sort_edges(edges);
        edges.dedup_by(|a, b| a.id == b.id);
        let ends = edge_ends(&nodes, &edges);
        let mut k = ends.iter();
        edges.retain(|_| k.next().is_some_and(Option::is_some));
        let ends: Vec<Option<(u32, u32)>> = ends.into_iter().filter(Option::is_some).collect();
        let mut g = Graph::from_snapshot(
            GRAPH_VERSION.to_string(),
            nodes,
            edges,
            texts,
            String::new(),
        );
        if let Repr::Owned(o) = &g.repr {
            // A fresh lock: it cannot be set already.
            let _ = o.ends.set(ends);
        }
        g.hash = g.compute_hash();
        g
    }

    /// Each edge's `(from, to)` node indices in a built graph (`None` for a mapped one; an
    /// entry is `None` when an endpoint is not a node, which an assembled graph never has).
    pub(crate) fn edge_ends(&self) -> Option<&[Option<(u32, u32)>]> {
        match &self.repr {
            Repr::Owned(o) => Some(Graph::ends(o)),
            Repr::Mapped(_) => None,
        }
    }

    fn kinds(o: &Owned) -> &Kinds {
        o.kinds.get_or_init(|| Kinds::of(o))
    }

    fn ends(o: &Owned) -> &[Option<(u32, u32)>] {
        o.ends.get_or_init(|| edge_ends(&o.nodes, &o.edges))
    }

    /// A graph from parts already in canonical form (a verified snapshot): no sorting or
    /// re-hashing. The caller vouches for the invariants above.
    pub fn from_snapshot(
        version: String,
        nodes: Vec<Node>,
        edges: Vec<Edge>,
        texts: BTreeMap<String, SharedStr>,
        hash: String,
    ) -> Graph {
        Graph {
            version,
            hash,
            repr: Repr::Owned(Box::new(Owned {
                nodes,
                edges,
                texts,
                ends: OnceLock::new(),
                adjacency: OnceLock::new(),
                kinds: OnceLock::new(),
            })),
        }
    }

    /// A graph read in place from a mapped snapshot: nothing is decoded until asked for.
    pub fn mapped(m: MappedGraph) -> Graph {
        Graph {
            version: m.version().to_string(),
            hash: m.hash().to_string(),
            repr: Repr::Mapped(Box::new(Mapped::new(Arc::new(m)))),
        }
    }

    /// The mapped snapshot behind this graph, when it has one.
    pub fn as_mapped(&self) -> Option<&MappedGraph> {
        match &self.repr {
            Repr::Mapped(m) => Some(&m.m),
            Repr::Owned(_) => None,
        }
    }

    /// True once a read of a mapped snapshot found bytes that fail their checksum: every answer
    /// computed from this graph must be discarded and the snapshot rebuilt. Never true for a
    /// built graph.
    pub fn is_corrupt(&self) -> bool {
        self.as_mapped().is_some_and(MappedGraph::is_corrupt)
    }

    /// The nodes, edges and texts of a built graph (`None` for a mapped one).
    pub fn parts(&self) -> Option<Parts<'_>> {
        match &self.repr {
            Repr::Owned(o) => Some((&o.nodes, &o.edges, &o.texts)),
            Repr::Mapped(_) => None,
        }
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        match &self.repr {
            Repr::Owned(o) => o.nodes.len(),
            Repr::Mapped(m) => m.m.node_count(),
        }
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        match &self.repr {
            Repr::Owned(o) => o.edges.len(),
            Repr::Mapped(m) => m.m.edge_count(),
        }
    }

    /// True when the graph is read in place from a snapshot, false when a build assembled it
    /// in memory (the two answer the same; their costs differ).
    pub fn is_mapped(&self) -> bool {
        matches!(self.repr, Repr::Mapped(_))
    }

    /// Number of nodes of one kind (no scan on a mapped graph).
    pub fn count_of(&self, kind: NodeKind) -> usize {
        match &self.repr {
            Repr::Owned(o) => Graph::kinds(o).nodes[usize::from(node_kind_code(kind))].len(),
            Repr::Mapped(m) => m.m.count_of(kind),
        }
    }

    /// Number of edges of one kind (no scan on a mapped graph).
    pub fn edge_count_of(&self, kind: EdgeKind) -> usize {
        match &self.repr {
            Repr::Owned(o) => Graph::kinds(o).edges[usize::from(edge_kind_code(kind))],
            Repr::Mapped(m) => m.m.edge_count_of(kind),
        }
    }

    /// How many edges of `kind` have each value of metadata `key` (`None`: the key is absent),
    /// read in place on a mapped graph: no edge is decoded, so counting the 250k `CITES`
    /// edges of a 100k-section snapshot by status reads their rows, not the whole graph.
    pub fn edge_meta_counts(&self, kind: EdgeKind, key: &str) -> BTreeMap<Option<String>, usize> {
        let mut counts: BTreeMap<Option<String>, usize> = BTreeMap::new();
        match &self.repr {
            Repr::Owned(o) => {
                for e in o.edges.iter().filter(|e| e.kind == kind) {
                    *counts.entry(e.metadata.get(key).cloned()).or_default() += 1;
                }
            }
            Repr::Mapped(m) => {
                let mut by: BTreeMap<Option<&str>, usize> = BTreeMap::new();
                for i in 0..m.m.edge_count() as u32 {
                    let Some(e) = m.m.edge_at(i).filter(|e| e.kind() == Some(kind)) else {
                        continue;
                    };
                    *by.entry(e.meta(key)).or_default() += 1;
                }
                for (v, n) in by {
                    counts.insert(v.map(str::to_string), n);
                }
            }
        }
        counts
    }

    /// Every node in id order (a mapped graph decodes each one: use counts and
    /// [`Graph::nodes_of`] where they do).
    pub fn nodes(&self) -> Items<'_, Node> {
        match &self.repr {
            Repr::Owned(o) => Items {
                inner: ItemsInner::Slice(o.nodes.iter()),
            },
            Repr::Mapped(m) => Items {
                inner: ItemsInner::Mapped {
                    m: m.as_ref(),
                    get: Mapped::node,
                    range: 0..m.m.node_count() as u32,
                },
            },
        }
    }

    /// Every edge in id order (see [`Graph::nodes`]).
    pub fn edges(&self) -> Items<'_, Edge> {
        match &self.repr {
            Repr::Owned(o) => Items {
                inner: ItemsInner::Slice(o.edges.iter()),
            },
            Repr::Mapped(m) => Items {
                inner: ItemsInner::Mapped {
                    m: m.as_ref(),
                    get: Mapped::edge,
                    range: 0..m.m.edge_count() as u32,
                },
            },
        }
    }

    /// Each edge's kind and its endpoints' ids, in id order, without decoding an edge: read in
    /// place on a mapped graph, borrowed on a built one. Each node's id is one string on both
    /// backings (a build hands its node's shared id to every edge), so an endpoint's address
    /// identifies its node. A row that does not read is left out (the graph is then marked
    /// corrupt, see [`Graph::is_corrupt`]).
    pub fn edge_endpoints(&self) -> Box<dyn Iterator<Item = (EdgeKind, &str, &str)> + '_> {
        match &self.repr {
            Repr::Owned(o) => Box::new(
                o.edges
                    .iter()
                    .map(|e| (e.kind, e.from.as_str(), e.to.as_str())),
            ),
            Repr::Mapped(m) => Box::new((0..m.m.edge_count() as u32).filter_map(|i| {
                let r = m.m.edge_at(i)?;
                Some((r.kind()?, r.from()?, r.to()?))
            })),
        }
    }

    /// The searchable text stored for a node id (section bodies, article titles and
    /// descriptions).
    pub fn text(&self, id: &str) -> Option<&str> {
        match &self.repr {
            Repr::Owned(o) => o.texts.get(id).map(SharedStr::as_str),
            Repr::Mapped(m) => m.m.text(id),
        }
    }

    /// Every stored text as `(node id, text)`, in id order.
    pub fn texts(&self) -> Box<dyn Iterator<Item = (&str, &str)> + '_> {
        match &self.repr {
            Repr::Owned(o) => Box::new(o.texts.iter().map(|(k, v)| (k.as_str(), v.as_str()))),
            Repr::Mapped(m) => Box::new(m.m.texts()),
        }
    }

    /// Builds a built graph's adjacency rows now rather than on the first edge read. Call it
    /// before reading edges from parallel tasks: the rows are built with rayon under a
    /// once-lock, and a worker waiting in that build may pick up another task that reads edges
    /// and waits on the same lock.
    pub fn prepare_adjacency(&self) {
        if let Repr::Owned(o) = &self.repr {
            Graph::adjacency(o);
        }
    }

    fn adjacency(o: &Owned) -> &Adjacency {
        o.adjacency.get_or_init(|| {
            let ends = Graph::ends(o);
            let n = o.nodes.len();
            let (out_off, out) = csr(
                n,
                ends.iter()
                    .enumerate()
                    .filter_map(|(i, e)| Some((e.as_ref()?.0, i as u32))),
            );
            let (in_off, inc) = csr(
                n,
                ends.iter()
                    .enumerate()
                    .filter_map(|(i, e)| Some((e.as_ref()?.1, i as u32))),
            );
            Adjacency {
                out_off,
                out,
                in_off,
                inc,
            }
        })
    }

    /// blake3 hex over the version, then every node and edge in id order, as canonical JSON.
    /// Independent of paths, machines, thread counts and time.
    pub fn compute_hash(&self) -> String {
        use rayon::prelude::*;
        // Serialization runs in parallel chunks, a bounded window of them at a time (a few MB in
        // flight instead of the whole canonical JSON, 2× the input: measured 18 % less CPU at
        // 100k); the hasher sees the same bytes in the same order as a serial loop would feed it.
        // Each window is hashed while the next one is written (blake3 takes one thread; it was
        // ~a third of the pass once the writing stopped going through serde_json).
        fn feed<T: Canonical + Sync + Prefetch>(h: &mut blake3::Hasher, items: &[T]) {
            let write = |window: &[T]| -> Vec<Vec<u8>> {
                window
                    .par_chunks(4096)
                    .map(|chunk| {
                        let mut buf = Vec::with_capacity(chunk.len() * 160);
                        prefetch::each(chunk, |item| {
                            item.write_canonical(&mut buf);
                            buf.push(b'\n');
                        });
                        buf
                    })
                    .collect()
            };
            let mut written: Vec<Vec<u8>> = Vec::new();
            for window in items.chunks(4096 * 8) {
                let (done, hasher) = (std::mem::take(&mut written), &mut *h);
                let hash = move || {
                    for b in &done {
                        hasher.update(b);
                    }
                };
                written = rayon::join(hash, || write(window)).1;
            }
            for b in &written {
                h.update(b);
            }
        }
        let mut h = blake3::Hasher::new();
        h.update(self.version.as_bytes());
        h.update(b"\n");
        match &self.repr {
            Repr::Owned(o) => {
                feed(&mut h, &o.nodes);
                feed(&mut h, &o.edges);
            }
            Repr::Mapped(_) => {
                let nodes: Vec<Node> = self.nodes().cloned().collect();
                let edges: Vec<Edge> = self.edges().cloned().collect();
                feed(&mut h, &nodes);
                feed(&mut h, &edges);
            }
        }
        // Gathered into large pieces: blake3 hashes a long input several chunks at a time, but
        // the four short pieces of each text one block after another.
        let mut buf = Vec::with_capacity(1 << 20);
        for (k, v) in self.texts() {
            buf.extend_from_slice(k.as_bytes());
            buf.push(b'\0');
            buf.extend_from_slice(v.as_bytes());
            buf.push(b'\n');
            if buf.len() >= 1 << 20 {
                h.update(&buf);
                buf.clear();
            }
        }
        h.update(&buf);
        h.finalize().to_hex().to_string()
    }

    /// The node with this id.
    pub fn node(&self, id: &str) -> Option<&Node> {
        match &self.repr {
            Repr::Owned(o) => o
                .nodes
                .binary_search_by(|n| n.id.as_str().cmp(id))
                .ok()
                .map(|i| &o.nodes[i]),
            Repr::Mapped(m) => m.node(m.m.node_index(id)?),
        }
    }

    /// Edges leaving `id`, optionally of one kind, in id order.
    pub fn out_edges(&self, id: &str, kind: Option<EdgeKind>) -> Vec<&Edge> {
        self.edges_dir(id, kind, true)
    }

    /// Edges arriving at `id`, optionally of one kind, in id order.
    pub fn in_edges(&self, id: &str, kind: Option<EdgeKind>) -> Vec<&Edge> {
        self.edges_dir(id, kind, false)
    }

    fn edges_dir(&self, id: &str, kind: Option<EdgeKind>, out: bool) -> Vec<&Edge> {
        match &self.repr {
            Repr::Owned(o) => {
                let Ok(i) = o.nodes.binary_search_by(|n| n.id.as_str().cmp(id)) else {
                    return Vec::new();
                };
                let a = Graph::adjacency(o);
                let (off, items) = if out {
                    (&a.out_off, &a.out)
                } else {
                    (&a.in_off, &a.inc)
                };
                items[off[i] as usize..off[i + 1] as usize]
                    .iter()
                    .map(|&e| &o.edges[e as usize])
                    .filter(|e| kind.is_none_or(|k| e.kind == k))
                    .collect()
            }
            Repr::Mapped(m) => {
                let Some(i) = m.m.node_index(id) else {
                    return Vec::new();
                };
                m.m.adjacent_indices(i, kind, out)
                    .into_iter()
                    .filter_map(|e| m.edge(e))
                    .collect()
            }
        }
    }

    /// Nodes of one kind, in id order (a mapped graph reads only that kind's nodes).
    pub fn nodes_of(&self, kind: NodeKind) -> Box<dyn Iterator<Item = &Node> + '_> {
        match &self.repr {
            Repr::Owned(o) => {
                let at = &Graph::kinds(o).nodes[usize::from(node_kind_code(kind))];
                Box::new(at.iter().filter_map(|&i| o.nodes.get(i as usize)))
            }
            Repr::Mapped(m) => Box::new(m.m.node_indices_of(kind).filter_map(move |i| m.node(i))),
        }
    }
}

/// Each edge's `(from, to)` indices among `nodes` (sorted by id, unique), `None` where an
/// endpoint is not a node.
fn edge_ends(nodes: &[Node], edges: &[Edge]) -> Vec<Option<(u32, u32)>> {
    use rayon::prelude::*;
    // A node's position is its index. Ids share long prefixes, so one hash of the id beats a
    // binary search's ~17 comparisons of them; the map borrows the ids.
    let index: crate::graph::fasthash::FastMap<&str, u32> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.as_str(), i as u32))
        .collect();
    let position = |id: &str| index.get(id).copied();
    // In chunks, each read in order with its endpoints' strings asked for a few edges ahead
    // (see `prefetch`): the lookups wait on scattered memory, not on the hashing.
    let mut ends = vec![None; edges.len()];
    ends.par_chunks_mut(4096)
        .zip(edges.par_chunks(4096))
        .for_each(|(out, chunk)| {
            let mut slot = out.iter_mut();
            prefetch::each_ahead(
                chunk,
                |e| {
                    prefetch::str(&e.from);
                    prefetch::str(&e.to);
                },
                |e| {
                    if let Some(s) = slot.next() {
                        *s = position(&e.from).zip(position(&e.to));
                    }
                },
            );
        });
    ends
}

/// Counting sort of `(row, item)` pairs into compressed rows; items keep their order within a
/// row.
pub(crate) fn csr(n: usize, pairs: impl Iterator<Item = (u32, u32)>) -> (Vec<u32>, Vec<u32>) {
    let pairs: Vec<(u32, u32)> = pairs.collect();
    let mut off = vec![0u32; n + 1];
    for &(row, _) in &pairs {
        off[row as usize + 1] += 1;
    }
    for i in 0..n {
        off[i + 1] += off[i];
    }
    let mut fill = off.clone();
    let mut items = vec![0u32; pairs.len()];
    for (row, e) in pairs {
        let slot = &mut fill[row as usize];
        items[*slot as usize] = e;
        *slot += 1;
    }
    (off, items)
}

/// The graph as `{version, nodes, edges, texts, hash}` (what `ontoly graph --format json`
/// prints), from either backing.
impl Serialize for Graph {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        struct Seq<'a, T>(&'a Graph, fn(&'a Graph) -> Items<'a, T>);
        impl<T: Serialize> Serialize for Seq<'_, T> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq((self.1)(self.0))
            }
        }
        struct Texts<'a>(&'a Graph);
        impl Serialize for Texts<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_map(self.0.texts())
            }
        }
        let mut st = s.serialize_struct("Graph", 5)?;
        st.serialize_field("version", &self.version)?;
        st.serialize_field("nodes", &Seq(self, Graph::nodes))?;
        st.serialize_field("edges", &Seq(self, Graph::edges))?;
        st.serialize_field("texts", &Texts(self))?;
        st.serialize_field("hash", &self.hash)?;
        st.end()
    }
}

/// Edges in id order (equal ids by their canonical JSON), as a stable sort by
/// `(id, JSON)` gives them. When every id is canonical (`edge:<KIND>:<32 hex>`, see
/// [`crate::graph::model::edge_id`]) the ids are compared as numbers: [`edge_sort_key`].
fn sort_edges(mut edges: Vec<Edge>) -> Vec<Edge> {
    use rayon::prelude::*;
    let keys: Option<Vec<(u8, u128)>> = edges.par_iter().map(edge_sort_key).collect();
    let Some(keys) = keys else {
        edges.par_sort_by(|a, b| a.id.cmp(&b.id).then_with(|| cmp_json(a, b)));
        return edges;
    };
    let mut order: Vec<u32> = (0..edges.len() as u32).collect();
    order.par_sort_unstable_by(|&a, &b| {
        let (a, b) = (a as usize, b as usize);
        keys[a]
            .cmp(&keys[b])
            .then_with(|| cmp_json(&edges[a], &edges[b]))
    });
    let mut slots: Vec<Option<Edge>> = edges.into_iter().map(Some).collect();
    // Sized once: a `filter_map` collect starts empty and doubles, copying 373k edges
    // (~56 MB) several times over fresh pages at 100k.
    let mut sorted = Vec::with_capacity(slots.len());
    sorted.extend(
        order
            .iter()
            .filter_map(|&i| slots.get_mut(i as usize).and_then(Option::take)),
    );
    sorted
}

/// A canonical edge id as numbers that order like the id string: the rank of its kind's name
/// among all kind names, then the 128 bits behind the hex. No kind name is a prefix of another
/// followed by `:` in the order (`:` sorts below every letter and `_`, so a prefix sorts first,
/// as the shorter name does), and lowercase hex digits order as their values. `None` for an id
/// of any other form.
fn edge_sort_key(e: &Edge) -> Option<(u8, u128)> {
    let name = e.kind.as_str();
    let hex =
        e.id.strip_prefix("edge:")?
            .strip_prefix(name)?
            .strip_prefix(':')?;
    if hex.len() != 32 || !hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    let rank = EdgeKind::ALL.iter().filter(|k| k.as_str() < name).count() as u8;
    Some((rank, u128::from_str_radix(hex, 16).ok()?))
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
    fn edges_sort_by_numeric_keys_as_by_id_strings() {
        // Every kind, ids that share long prefixes, duplicates, and one id of another form
        // (which sends the whole sort down the string path).
        let mut edges = Vec::new();
        for (i, k) in EdgeKind::ALL.iter().enumerate() {
            for j in 0..40u64 {
                let from = format!("section:a.md#{}", j % 7);
                let to = format!("file:r@c:{}", (j * 31 + i as u64) % 11);
                edges.push(Edge::new(*k, from, to, None));
            }
        }
        edges.extend(edges.clone().into_iter().take(30));
        let mut other = edges[5].clone();
        other.metadata.insert("status".into(), "verified".into());
        edges.push(other);
        edges.reverse();
        let by_string = |mut v: Vec<Edge>| {
            v.sort_by(|a, b| a.id.cmp(&b.id).then_with(|| cmp_json(a, b)));
            v
        };
        assert!(edges.iter().all(|e| edge_sort_key(e).is_some()));
        assert_eq!(sort_edges(edges.clone()), by_string(edges.clone()));
        let mut odd = edges[3].clone();
        odd.id = "edge:custom".into();
        edges.push(odd);
        assert_eq!(edge_sort_key(edges.last().unwrap()), None);
        assert_eq!(sort_edges(edges.clone()), by_string(edges));
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

    #[test]
    fn edge_ends_are_found_at_assembly_and_on_first_use() {
        let ids: Vec<String> = (0..9)
            .map(|i| ids::section("a.md", &format!("s{i}")))
            .collect();
        let nodes: Vec<Node> = ids
            .iter()
            .rev()
            .map(|i| node(i, NodeKind::Section))
            .collect();
        let mut edges: Vec<Edge> = (0..9)
            .flat_map(|i| {
                let ids = &ids;
                (0..9).map(move |j| Edge::new(EdgeKind::Contains, &ids[i], &ids[j], None))
            })
            .collect();
        // Dangling at either end: dropped at assembly.
        edges.push(Edge::new(EdgeKind::Contains, "section:gone", &ids[0], None));
        edges.push(Edge::new(EdgeKind::Contains, &ids[0], "section:gone", None));
        let g = Graph::assemble(nodes, edges, Default::default());
        let (nodes, edges, texts) = g.parts().expect("built");
        assert_eq!(edges.len(), 81);
        let ends = g.edge_ends().expect("built");
        assert_eq!(ends.len(), edges.len());
        for (e, end) in edges.iter().zip(ends) {
            let (f, t) = end.expect("both ends are nodes");
            assert_eq!(
                (nodes[f as usize].id.as_str(), nodes[t as usize].id.as_str()),
                (e.from.as_str(), e.to.as_str())
            );
        }
        // A graph from parts finds them on first use, the same, and marks a dangling edge.
        let mut more = edges.to_vec();
        more.push(Edge::new(EdgeKind::Contains, &ids[1], "section:gone", None));
        let h = Graph::from_snapshot(
            g.version.clone(),
            nodes.to_vec(),
            more,
            texts.clone(),
            String::new(),
        );
        let found = h.edge_ends().expect("built");
        assert_eq!(&found[..81], ends);
        assert_eq!(found[81], None);
        assert_eq!(h.out_edges(&ids[1], None).len(), 9);
        let Err(err) = crate::graph::store::write(&h, "key") else {
            panic!("a dangling edge is refused");
        };
        assert!(
            err.0.contains("edge endpoint section:gone is not a node"),
            "{}",
            err.0
        );
    }
}
