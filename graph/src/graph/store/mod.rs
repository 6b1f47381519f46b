//! A graph snapshot that opens instead of loading (issue 10, phase 1 prototype).
//!
//! [`write()`] lays a [`Graph`] out in a [`container`] as columns that a fresh process
//! memory-maps and reads in place; [`MappedGraph`] answers the queries the capabilities ask
//! (`node`, `out_edges`, `in_edges`, `nodes_of`, texts) by touching only the blocks that hold
//! the answer. Nothing is decoded up front.
//!
//! Sections (all integers little-endian; "ref" = index into the string pool, `u32::MAX` = none):
//!
//! | section | content |
//! | --- | --- |
//! | `meta` | postcard: graph version, graph hash, counts per kind |
//! | `str.off`, `str.bytes` | the string pool: offsets (n + 1, width `W`), UTF-8 bytes. Node ids come first, in node order, so node `i`'s id is string `i`; every other string (names, files, metadata keys and values, origins) is interned once |
//! | `node.rows` | 25 + 2·W bytes per node, in id order: kind (1 byte), name, file, package, span file, metadata start and length (`u32` each), span start and end (W each) |
//! | `edge.rows` | 38 + W bytes per edge, in id order: kind and id form (1 byte each), from and to node indices, origin file, metadata start and length (`u32` each), origin line (W), the 16 bytes of the edge id's hash |
//! | `meta.pairs` | `(key ref, value ref)` pairs; identical metadata maps are stored once |
//! | `out.off`, `out.edges`, `in.off`, `in.edges` | CSR adjacency: per node, its edge indices (ascending = id order) |
//! | `kind.off`, `kind.nodes` | node indices grouped by kind (counts and `nodes_of` without a scan) |
//! | `id.table` | open addressing table (FNV-1a of the id, linear probing) of node index + 1 |
//! | `node.text` | per node, its text's index + 1 (0: none); texts under other keys are found by search |
//! | `text.keys`, `text.off`, `text.bytes` | texts sorted by key: key refs, offsets (width `W`), bytes |
//!
//! `W`, the width of byte offsets and line numbers, is 4 bytes unless one of them needs more
//! (`wide` in `meta`: then 8): at 100k sections the narrow form is 5.6 MB (6 %) smaller.
//!
//! Edge ids are `edge:<KIND>:<32 hex>` (see [`crate::graph::model::edge_id`]); the row keeps the 16
//! bytes behind the hex and rebuilds the string on demand. An id of any other form is kept in
//! the string pool instead (id form 1), so any graph round-trips exactly. The graph hash is
//! stored, never recomputed, and [`MappedGraph::to_graph`] gives back the same canonical form,
//! so the hash of the decoded graph equals the stored one (the tests check it).

pub mod container;

use crate::graph::fasthash::FastMap;
use crate::graph::model::{
    meta_key, Edge, EdgeKind, Metadata, Node, NodeKind, Origin, SharedStr, Span,
};
use crate::graph::Graph;
use container::{Container, Handle, OpenError, Section, Writer};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::Path;

/// The container kind of a graph snapshot.
pub const KIND: [u8; 8] = *b"graph\0\0\0";
const NONE: u32 = u32::MAX;

// Field positions in a node row (`u32` fields after a 1-byte kind, then two lines of width W).
const N_NAME: usize = 1;
const N_FILE: usize = 5;
const N_PACKAGE: usize = 9;
const N_SPAN: usize = 13;
const N_META: usize = 17;
const N_META_LEN: usize = 21;
const N_LINES: usize = 25;
// Field positions in an edge row (kind and id form bytes, `u32` fields, a line of width W, the
// 16 bytes of the id's hash or, for an id of another form, its string ref).
const E_FROM: usize = 2;
const E_TO: usize = 6;
const E_ORIGIN: usize = 10;
const E_META: usize = 14;
const E_META_LEN: usize = 18;
const E_LINE: usize = 22;

/// The widths of a snapshot's rows and offset columns: byte offsets and line numbers take 4
/// bytes unless the graph has one that does not fit (then 8).
#[derive(Debug, Clone, Copy)]
struct Layout {
    w: usize,
}

impl Layout {
    fn of(wide: bool) -> Layout {
        Layout {
            w: if wide { 8 } else { 4 },
        }
    }

    fn node_row(self) -> usize {
        N_LINES + 2 * self.w
    }

    fn edge_row(self) -> usize {
        E_LINE + self.w + 16
    }

    fn edge_hash(self) -> usize {
        E_LINE + self.w
    }

    fn put(self, buf: &mut Vec<u8>, x: u64) {
        // The writer chose the width from the largest value: nothing is cut.
        if self.w == 4 {
            buf.extend_from_slice(&(x as u32).to_le_bytes());
        } else {
            buf.extend_from_slice(&x.to_le_bytes());
        }
    }

    fn num(self, row: &[u8], at: usize) -> u64 {
        if self.w == 4 {
            u64::from(row_u32(row, at))
        } else {
            row_u64(row, at)
        }
    }

    fn off(self, col: &Section<'_>, i: usize) -> Option<u64> {
        if self.w == 4 {
            col.u32(i).map(u64::from)
        } else {
            col.u64(i)
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Meta {
    version: String,
    hash: String,
    nodes: u32,
    edges: u32,
    strings: u32,
    texts: u32,
    node_kinds: Vec<u32>,
    edge_kinds: Vec<u32>,
    /// Offsets and lines are 8 bytes wide (see [`Layout`]).
    wide: bool,
}

/// `k`'s position in [`NodeKind::ALL`]: its code in the store, and its slot in an owned graph's
/// per-kind indices.
pub(crate) fn node_kind_code(k: NodeKind) -> u8 {
    NodeKind::ALL.iter().position(|&x| x == k).unwrap_or(0) as u8
}

/// `k`'s position in [`EdgeKind::ALL`] (see [`node_kind_code`]).
pub(crate) fn edge_kind_code(k: EdgeKind) -> u8 {
    EdgeKind::ALL.iter().position(|&x| x == k).unwrap_or(0) as u8
}

/// The 16 bytes behind a canonical edge id, when `id` is exactly what
/// [`crate::graph::model::edge_id`] writes for `kind`.
fn canonical_edge_hash(kind: EdgeKind, id: &str) -> Option<[u8; 16]> {
    let hex = id
        .strip_prefix("edge:")?
        .strip_prefix(kind.as_str())?
        .strip_prefix(':')?;
    if hex.len() != 32 || !hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    let mut out = [0u8; 16];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

fn canonical_edge_id(kind: EdgeKind, hash: &[u8]) -> String {
    let mut s = String::with_capacity(5 + kind.as_str().len() + 1 + 32);
    s.push_str("edge:");
    s.push_str(kind.as_str());
    s.push(':');
    for b in hash {
        s.push(char::from(b"0123456789abcdef"[(b >> 4) as usize]));
        s.push(char::from(b"0123456789abcdef"[(b & 15) as usize]));
    }
    s
}

/// Why a graph cannot be laid out (the caller then keeps no snapshot; it is never a user error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutError(pub String);

impl std::fmt::Display for LayoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LayoutError {}

/// A string or a map with its hash computed ahead, on all cores: the serial interning below
/// then probes with the stored hash and reads the contents only to compare on a hit.
struct Hashed<'g, T: ?Sized> {
    h: u64,
    v: &'g T,
}

impl<'g, T: ?Sized + std::hash::Hash> Hashed<'g, T> {
    fn of(v: &'g T) -> Hashed<'g, T> {
        use std::hash::{BuildHasher, BuildHasherDefault};
        Hashed {
            h: BuildHasherDefault::<crate::graph::fasthash::FxHasher>::default().hash_one(v),
            v,
        }
    }
}

impl<T: ?Sized> Clone for Hashed<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for Hashed<'_, T> {}

impl<T: ?Sized + PartialEq> PartialEq for Hashed<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.h == other.h && self.v == other.v
    }
}

impl<T: ?Sized + Eq> Eq for Hashed<'_, T> {}

impl<T: ?Sized> std::hash::Hash for Hashed<'_, T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.h);
    }
}

struct Pool<'g> {
    ix: FastMap<Hashed<'g, str>, u32>,
    strs: Vec<&'g str>,
}

impl<'g> Pool<'g> {
    fn add(&mut self, s: &'g str) -> u32 {
        self.add_hashed(Hashed::of(s))
    }

    fn add_hashed(&mut self, s: Hashed<'g, str>) -> u32 {
        let n = self.strs.len() as u32;
        *self.ix.entry(s).or_insert_with(|| {
            self.strs.push(s.v);
            n
        })
    }

    fn opt(&mut self, s: Option<Hashed<'g, str>>) -> u32 {
        s.map_or(NONE, |s| self.add_hashed(s))
    }
}

/// A node's strings and map, hashed ahead.
struct NodeKeys<'g> {
    name: Hashed<'g, str>,
    file: Option<Hashed<'g, str>>,
    package: Option<Hashed<'g, str>>,
    span_file: Option<Hashed<'g, str>>,
    meta: Hashed<'g, Metadata>,
}

/// An edge's endpoints, id bytes, origin file and map, found and hashed ahead.
struct EdgeKeys<'g> {
    ends: Result<(u32, u32), &'g str>,
    id: Option<[u8; 16]>,
    origin_file: Option<Hashed<'g, str>>,
    meta: Hashed<'g, Metadata>,
}

struct Pairs<'g> {
    /// Maps already laid out, by content: a repeated map costs one probe and one comparison.
    maps: FastMap<Hashed<'g, Metadata>, (u32, u32)>,
    flat: Vec<(u32, u32)>,
}

impl<'g> Pairs<'g> {
    fn add(&mut self, pool: &mut Pool<'g>, m: Hashed<'g, Metadata>) -> (u32, u32) {
        if m.v.is_empty() {
            return (0, 0);
        }
        if let Some(&r) = self.maps.get(&m) {
            return r;
        }
        let r = self.add_new(pool, m.v);
        self.maps.insert(m, r);
        r
    }

    fn add_new(&mut self, pool: &mut Pool<'g>, m: &'g Metadata) -> (u32, u32) {
        // Only a map `maps` has not seen comes here, and interning is one to one: its pairs
        // cannot equal an earlier map's, so they are appended without a lookup by pairs.
        let start = self.flat.len() as u32;
        self.flat
            .extend(m.iter().map(|(k, v)| (pool.add(k), pool.add(v))));
        (start, self.flat.len() as u32 - start)
    }
}

fn put_u32s(buf: &mut Vec<u8>, xs: impl IntoIterator<Item = u32>) {
    for x in xs {
        buf.extend_from_slice(&x.to_le_bytes());
    }
}

fn csr(n: usize, pairs: impl Iterator<Item = (u32, u32)>) -> (Vec<u32>, Vec<u32>) {
    // Counting sort by node keeps each list in ascending edge order (= edge id order).
    let pairs: Vec<(u32, u32)> = pairs.collect();
    let mut off = vec![0u32; n + 1];
    for &(node, _) in &pairs {
        off[node as usize + 1] += 1;
    }
    for i in 0..n {
        off[i + 1] += off[i];
    }
    let mut fill = off.clone();
    let mut items = vec![0u32; pairs.len()];
    for (node, e) in pairs {
        let slot = &mut fill[node as usize];
        items[*slot as usize] = e;
        *slot += 1;
    }
    (off, items)
}

/// FNV-1a, 64 bit: a fixed, dependency-free hash for the id table (the file must mean the same
/// on every machine, so no randomly seeded hasher).
fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in s.as_bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Open addressing table (linear probing, a power of two at least twice the node count) of
/// node index + 1 by the id's hash (0 = empty): an id lookup reads one or two table slots and
/// one id, where a binary search reads ~17 ids in as many blocks.
fn id_table(nodes: &[Node]) -> Vec<u32> {
    let size = (nodes.len() * 2).next_power_of_two().max(2);
    let mut t = vec![0u32; size];
    for (i, n) in nodes.iter().enumerate() {
        let mut slot = (fnv(&n.id) as usize) & (size - 1);
        while t[slot] != 0 {
            slot = (slot + 1) & (size - 1);
        }
        t[slot] = i as u32 + 1;
    }
    t
}

/// Lays `graph` out as a container for the inputs identified by `key`. Other layers may add
/// their own sections (e.g. the search index) before writing it.
pub fn write<'g>(graph: &'g Graph, key: &str) -> Result<Writer<'g>, LayoutError> {
    let Some((nodes, edges, texts)) = graph.parts() else {
        return Err(LayoutError("a mapped graph is laid out already".into()));
    };
    let n = nodes.len();
    if n >= NONE as usize || edges.len() >= NONE as usize {
        return Err(LayoutError("graph too large for 32-bit indices".into()));
    }
    use rayon::prelude::*;
    let mut pool = Pool {
        ix: FastMap::with_capacity_and_hasher(n * 3, Default::default()),
        strs: Vec::with_capacity(n * 3),
    };
    // Everything that does not depend on the interning order is hashed or looked up on all
    // cores first; the serial loops below only probe and append, in the same order as before.
    let node_ids: Vec<Hashed<'_, str>> = nodes.par_iter().map(|n| Hashed::of(&*n.id)).collect();
    for (i, id) in node_ids.into_iter().enumerate() {
        if pool.add_hashed(id) as usize != i {
            return Err(LayoutError(format!("duplicate node id {}", id.v)));
        }
    }
    fn opt(s: Option<&str>) -> Option<Hashed<'_, str>> {
        s.map(Hashed::of)
    }
    let node_keys: Vec<NodeKeys<'_>> = nodes
        .par_iter()
        .map(|nd| NodeKeys {
            name: Hashed::of(&*nd.name),
            file: opt(nd.file.as_deref()),
            package: opt(nd.package.as_deref()),
            span_file: opt(nd.span.as_ref().map(|s| s.file.as_str())),
            meta: Hashed::of(&nd.metadata),
        })
        .collect();
    // Only node ids are in the pool yet, each at its node's index: an endpoint's string is
    // the node's index, which the graph found at assembly.
    let ends = graph
        .edge_ends()
        .ok_or_else(|| LayoutError("a mapped graph is laid out already".into()))?;
    let edge_keys: Vec<EdgeKeys<'_>> = edges
        .par_iter()
        .zip(ends)
        .map(|(e, end)| EdgeKeys {
            ends: end.ok_or_else(|| {
                if graph.node(&e.from).is_none() {
                    e.from.as_str()
                } else {
                    e.to.as_str()
                }
            }),
            id: canonical_edge_hash(e.kind, &e.id),
            origin_file: opt(e.origin.as_ref().map(|o| o.file.as_str())),
            meta: Hashed::of(&e.metadata),
        })
        .collect();
    let narrow = |x: u64| x <= u64::from(u32::MAX);
    let wide = !(narrow(pool_bytes(nodes, edges, texts))
        && narrow(texts.values().map(|t| t.len() as u64).sum())
        && nodes.iter().all(|n| {
            n.span
                .as_ref()
                .is_none_or(|s| narrow(s.start_line) && narrow(s.end_line))
        })
        && edges
            .iter()
            .all(|e| e.origin.as_ref().is_none_or(|o| narrow(o.line))));
    let lay = Layout::of(wide);
    let mut pairs = Pairs {
        maps: FastMap::default(),
        flat: Vec::new(),
    };
    let mut node_rows = Vec::with_capacity(n * lay.node_row());
    let mut node_kinds = vec![0u32; NodeKind::ALL.len()];
    for (node, k) in nodes.iter().zip(node_keys) {
        let (ms, ml) = pairs.add(&mut pool, k.meta);
        let span = node.span.as_ref();
        node_kinds[node_kind_code(node.kind) as usize] += 1;
        node_rows.push(node_kind_code(node.kind));
        put_u32s(
            &mut node_rows,
            [
                pool.add_hashed(k.name),
                pool.opt(k.file),
                pool.opt(k.package),
                pool.opt(k.span_file),
                ms,
                ml,
            ],
        );
        lay.put(&mut node_rows, span.map_or(0, |s| s.start_line));
        lay.put(&mut node_rows, span.map_or(0, |s| s.end_line));
    }
    let mut edge_rows = Vec::with_capacity(edges.len() * lay.edge_row());
    let mut ends = Vec::with_capacity(edges.len());
    let mut edge_kinds = vec![0u32; EdgeKind::ALL.len()];
    for (e, k) in edges.iter().zip(edge_keys) {
        let (from, to) = k
            .ends
            .map_err(|id| LayoutError(format!("edge endpoint {id} is not a node")))?;
        ends.push((from, to));
        let (ms, ml) = pairs.add(&mut pool, k.meta);
        let (form, idbytes) = match k.id {
            Some(h) => (0u8, h),
            None => {
                let mut b = [0u8; 16];
                b[..4].copy_from_slice(&pool.add(&e.id).to_le_bytes());
                (1u8, b)
            }
        };
        edge_kinds[edge_kind_code(e.kind) as usize] += 1;
        edge_rows.extend_from_slice(&[edge_kind_code(e.kind), form]);
        put_u32s(&mut edge_rows, [from, to, pool.opt(k.origin_file), ms, ml]);
        lay.put(&mut edge_rows, e.origin.as_ref().map_or(0, |o| o.line));
        edge_rows.extend_from_slice(&idbytes);
    }
    let text_keys: Vec<u32> = texts.keys().map(|k| pool.add(k)).collect();
    // Interning is done: its maps go before the file's buffer fills (the search index is
    // built on the other thread meanwhile, and the two together set the cold build's peak).
    let strs = pool.strs;
    drop(pool.ix);
    let flat = pairs.flat;
    drop(pairs.maps);
    let (out_off, out_edges) = csr(n, ends.iter().enumerate().map(|(i, e)| (e.0, i as u32)));
    let (in_off, in_edges) = csr(n, ends.iter().enumerate().map(|(i, e)| (e.1, i as u32)));
    drop(ends);
    let (kind_off, kind_nodes) = csr(
        NodeKind::ALL.len(),
        nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (u32::from(node_kind_code(n.kind)), i as u32)),
    );
    if strs.len() >= NONE as usize {
        return Err(LayoutError("too many strings".into()));
    }
    let meta = Meta {
        version: graph.version.clone(),
        hash: graph.hash.clone(),
        nodes: n as u32,
        edges: edges.len() as u32,
        strings: strs.len() as u32,
        texts: texts.len() as u32,
        node_kinds,
        edge_kinds,
        wide,
    };
    let mut w = Writer::new(KIND, key);
    // The large sections are written to the file from where they are, when it is written
    // (`section_later`): the strings and texts from the graph, the rows and adjacency from
    // their own vectors. Held in the writer they made a second copy of most of the file
    // (~80 MB at 100k sections) beside the search index build on the other thread.
    w.section(
        "meta",
        &postcard::to_stdvec(&meta).map_err(|e| LayoutError(e.to_string()))?,
    );
    w.section_with("str.off", |b| {
        let mut at = 0u64;
        lay.put(b, 0);
        for s in &strs {
            at += s.len() as u64;
            lay.put(b, at);
        }
    });
    let str_bytes: usize = strs.iter().map(|s| s.len()).sum();
    w.section_later("str.bytes", str_bytes, move |out| {
        strs.iter().try_for_each(|s| out.write_all(s.as_bytes()))
    });
    w.section_later("node.rows", node_rows.len(), move |out| {
        out.write_all(&node_rows)
    });
    w.section_later("edge.rows", edge_rows.len(), move |out| {
        out.write_all(&edge_rows)
    });
    w.section_with("meta.pairs", |b| {
        put_u32s(b, flat.iter().flat_map(|&(k, v)| [k, v]))
    });
    drop(flat);
    let later_u32s = |w: &mut Writer<'g>, name: &str, v: Vec<u32>| {
        w.section_later(name, 4 * v.len(), move |out| {
            let mut b = Vec::with_capacity(4 * v.len());
            put_u32s(&mut b, v);
            out.write_all(&b)
        });
    };
    later_u32s(&mut w, "out.off", out_off);
    later_u32s(&mut w, "out.edges", out_edges);
    later_u32s(&mut w, "in.off", in_off);
    later_u32s(&mut w, "in.edges", in_edges);
    w.section_with("kind.off", |b| put_u32s(b, kind_off));
    w.section_with("kind.nodes", |b| put_u32s(b, kind_nodes));
    w.section_with("id.table", |b| put_u32s(b, id_table(nodes)));
    w.section_with("node.text", |b| {
        let mut slot = vec![0u32; n];
        for (t, &k) in text_keys.iter().enumerate() {
            if (k as usize) < n {
                slot[k as usize] = t as u32 + 1;
            }
        }
        put_u32s(b, slot)
    });
    w.section_with("text.keys", |b| put_u32s(b, text_keys.iter().copied()));
    w.section_with("text.off", |b| {
        let mut at = 0u64;
        lay.put(b, 0);
        for t in texts.values() {
            at += t.len() as u64;
            lay.put(b, at);
        }
    });
    let text_bytes: usize = texts.values().map(|t| t.len()).sum();
    w.section_later("text.bytes", text_bytes, move |out| {
        texts.values().try_for_each(|t| out.write_all(t.as_bytes()))
    });
    Ok(w)
}

/// An upper bound of the string pool's bytes (every string the writer may intern, counted
/// as often as it occurs): when it fits 32 bits, so do the pool's offsets.
fn pool_bytes(nodes: &[Node], edges: &[Edge], texts: &BTreeMap<String, SharedStr>) -> u64 {
    let map = |m: &Metadata| -> u64 { m.iter().map(|(k, v)| (k.len() + v.len()) as u64).sum() };
    let opt = |s: Option<&str>| s.map_or(0, |s| s.len() as u64);
    let n: u64 = nodes
        .iter()
        .map(|n| {
            (n.id.len() + n.name.len()) as u64
                + opt(n.file.as_deref())
                + opt(n.package.as_deref())
                + opt(n.span.as_ref().map(|s| s.file.as_str()))
                + map(&n.metadata)
        })
        .sum();
    let e: u64 = edges
        .iter()
        .map(|e| {
            e.id.len() as u64 + opt(e.origin.as_ref().map(|o| o.file.as_str())) + map(&e.metadata)
        })
        .sum();
    n + e + texts.keys().map(|k| k.len() as u64).sum::<u64>()
}

/// A graph read in place from a mapped snapshot.
pub struct MappedGraph {
    c: Container,
    meta: Meta,
    lay: Layout,
    h: [Handle; 16],
}

const COLUMNS: [&str; 16] = [
    "str.off",
    "str.bytes",
    "node.rows",
    "edge.rows",
    "meta.pairs",
    "out.off",
    "out.edges",
    "in.off",
    "in.edges",
    "kind.off",
    "kind.nodes",
    "text.keys",
    "text.off",
    "text.bytes",
    "id.table",
    "node.text",
];

/// The sections a reader needs, looked up once.
#[derive(Clone, Copy)]
struct Cols<'a> {
    str_off: Section<'a>,
    str_bytes: Section<'a>,
    node_rows: Section<'a>,
    edge_rows: Section<'a>,
    pairs: Section<'a>,
    out_off: Section<'a>,
    out_edges: Section<'a>,
    in_off: Section<'a>,
    in_edges: Section<'a>,
    kind_off: Section<'a>,
    kind_nodes: Section<'a>,
    text_keys: Section<'a>,
    text_off: Section<'a>,
    text_bytes: Section<'a>,
    id_table: Section<'a>,
    node_text: Section<'a>,
}

impl MappedGraph {
    /// Maps the snapshot at `path` written for `key` and reads its small `meta` section.
    pub fn open(path: &Path, key: &str) -> Result<MappedGraph, OpenError> {
        MappedGraph::from_container(Container::open(path, KIND, key)?)
    }

    /// A graph over an opened container.
    pub fn from_container(c: Container) -> Result<MappedGraph, OpenError> {
        let bad = OpenError::Corrupt("graph sections");
        let meta_bytes = c.section("meta").and_then(|s| s.all()).ok_or(bad.clone())?;
        let meta: Meta = postcard::from_bytes(meta_bytes).map_err(|_| bad.clone())?;
        if meta.version != crate::graph::model::GRAPH_VERSION {
            return Err(OpenError::Stale);
        }
        let mut h = Vec::with_capacity(COLUMNS.len());
        for name in COLUMNS {
            h.push(c.handle(name).ok_or(bad.clone())?);
        }
        let h: [Handle; 16] = h.try_into().map_err(|_| bad.clone())?;
        let lay = Layout::of(meta.wide);
        let g = MappedGraph { c, meta, lay, h };
        // Every section must exist with the length its counts imply: later reads then only
        // fail on a sum mismatch, never on a short column.
        let n = g.meta.nodes as usize;
        let m = g.meta.edges as usize;
        let cols = g.cols().ok_or(bad.clone())?;
        let w = lay.w;
        let ok = cols.str_off.len() == w * (g.meta.strings as usize + 1)
            && cols.node_rows.len() == lay.node_row() * n
            && cols.edge_rows.len() == lay.edge_row() * m
            && cols.pairs.len().is_multiple_of(8)
            && cols.out_off.len() == 4 * (n + 1)
            && cols.in_off.len() == 4 * (n + 1)
            && cols.out_edges.len() == 4 * m
            && cols.in_edges.len() == 4 * m
            && cols.kind_off.len() == 4 * (NodeKind::ALL.len() + 1)
            && cols.kind_nodes.len() == 4 * n
            && cols.text_keys.len() == 4 * g.meta.texts as usize
            && cols.text_off.len() == w * (g.meta.texts as usize + 1)
            && cols.node_text.len() == 4 * n
            && cols.id_table.len().is_multiple_of(4)
            && (cols.id_table.len() / 4).is_power_of_two()
            && g.meta.node_kinds.len() == NodeKind::ALL.len()
            && g.meta.edge_kinds.len() == EdgeKind::ALL.len();
        if !ok {
            return Err(bad);
        }
        Ok(g)
    }

    fn cols(&self) -> Option<Cols<'_>> {
        let s = |i: usize| self.c.get(self.h[i]);
        Some(Cols {
            str_off: s(0),
            str_bytes: s(1),
            node_rows: s(2),
            edge_rows: s(3),
            pairs: s(4),
            out_off: s(5),
            out_edges: s(6),
            in_off: s(7),
            in_edges: s(8),
            kind_off: s(9),
            kind_nodes: s(10),
            text_keys: s(11),
            text_off: s(12),
            text_bytes: s(13),
            id_table: s(14),
            node_text: s(15),
        })
    }

    /// The container (integrity state, sizes).
    pub fn container(&self) -> &Container {
        &self.c
    }

    /// True once a read found corrupt bytes: discard what was computed and rebuild.
    pub fn is_corrupt(&self) -> bool {
        self.c.is_corrupt()
    }

    /// The graph hash as stored (the hash of the graph that was written).
    pub fn hash(&self) -> &str {
        &self.meta.hash
    }

    /// Graph model version.
    pub fn version(&self) -> &str {
        &self.meta.version
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.meta.nodes as usize
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.meta.edges as usize
    }

    /// Number of nodes of `kind` (no scan).
    pub fn count_of(&self, kind: NodeKind) -> usize {
        self.meta.node_kinds[node_kind_code(kind) as usize] as usize
    }

    /// Number of edges of `kind` (no scan).
    pub fn edge_count_of(&self, kind: EdgeKind) -> usize {
        self.meta.edge_kinds[edge_kind_code(kind) as usize] as usize
    }

    fn str_at<'a>(&'a self, cols: &Cols<'a>, r: u32) -> Option<&'a str> {
        let a = self.lay.off(&cols.str_off, r as usize)? as usize;
        let b = self.lay.off(&cols.str_off, r as usize + 1)? as usize;
        let bytes = cols.str_bytes.bytes(a, b.checked_sub(a)?)?;
        std::str::from_utf8(bytes).ok()
    }

    fn opt_str<'a>(&'a self, cols: &Cols<'a>, r: u32) -> Option<Option<&'a str>> {
        if r == NONE {
            Some(None)
        } else {
            self.str_at(cols, r).map(Some)
        }
    }

    /// The index of the node with this id (through the id hash table).
    pub fn node_index(&self, id: &str) -> Option<u32> {
        let cols = self.cols()?;
        let size = cols.id_table.len() / 4;
        let mut slot = (fnv(id) as usize) & (size - 1);
        // Bounded by the table size: a corrupt table full of entries cannot loop forever.
        for _ in 0..size {
            let v = cols.id_table.u32(slot)?;
            if v == 0 {
                return None;
            }
            if self.str_at(&cols, v - 1)? == id {
                return Some(v - 1);
            }
            slot = (slot + 1) & (size - 1);
        }
        None
    }

    /// The index of the node with this id by binary search over the sorted ids (no table; kept
    /// to measure against).
    pub fn node_index_by_search(&self, id: &str) -> Option<u32> {
        let cols = self.cols()?;
        let (mut lo, mut hi) = (0u32, self.meta.nodes);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.str_at(&cols, mid)?.cmp(id) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// The node with this id.
    pub fn node(&self, id: &str) -> Option<NodeRef<'_>> {
        self.node_at(self.node_index(id)?)
    }

    /// The node at index `i` (id order).
    pub fn node_at(&self, i: u32) -> Option<NodeRef<'_>> {
        let cols = self.cols()?;
        let row = (cols.node_rows).bytes(i as usize * self.lay.node_row(), self.lay.node_row())?;
        Some(NodeRef {
            g: self,
            cols,
            i,
            row,
        })
    }

    /// The edge at index `i` (id order).
    pub fn edge_at(&self, i: u32) -> Option<EdgeRef<'_>> {
        let cols = self.cols()?;
        let row = (cols.edge_rows).bytes(i as usize * self.lay.edge_row(), self.lay.edge_row())?;
        Some(EdgeRef { g: self, cols, row })
    }

    fn adjacent(&self, id: &str, kind: Option<EdgeKind>, out: bool) -> Vec<EdgeRef<'_>> {
        match self.node_index(id) {
            Some(i) => self.adjacent_at(i, kind, out),
            None => Vec::new(),
        }
    }

    /// Edges of the node at index `i` (`out`: leaving it, else arriving), optionally of one
    /// kind, in id order: no id lookup.
    pub fn adjacent_at(&self, i: u32, kind: Option<EdgeKind>, out: bool) -> Vec<EdgeRef<'_>> {
        self.adjacent_indices(i, kind, out)
            .into_iter()
            .filter_map(|e| self.edge_at(e))
            .collect()
    }

    /// Indices of the edges of the node at index `i` (`out`: leaving it, else arriving),
    /// optionally of one kind, ascending (= id order).
    pub fn adjacent_indices(&self, i: u32, kind: Option<EdgeKind>, out: bool) -> Vec<u32> {
        let Some(cols) = self.cols() else {
            return Vec::new();
        };
        let (off, items) = if out {
            (cols.out_off, cols.out_edges)
        } else {
            (cols.in_off, cols.in_edges)
        };
        let (Some(a), Some(b)) = (off.u32(i as usize), off.u32(i as usize + 1)) else {
            return Vec::new();
        };
        // Offsets come from the file: never walk past the list, whatever they say.
        let b = b.min((items.len() / 4) as u32);
        (a..b)
            .filter_map(|k| items.u32(k as usize))
            .filter(|&e| {
                kind.is_none_or(|k| {
                    cols.edge_rows
                        .bytes(e as usize * self.lay.edge_row(), 1)
                        .is_some_and(|b| b[0] == edge_kind_code(k))
                })
            })
            .collect()
    }

    /// Indices of the nodes of one kind, in id order.
    pub fn node_indices_of(&self, kind: NodeKind) -> impl Iterator<Item = u32> + '_ {
        let cols = self.cols();
        let k = node_kind_code(kind) as usize;
        let range = cols
            .and_then(|c| {
                let end = c.kind_off.u32(k + 1)?.min((c.kind_nodes.len() / 4) as u32);
                Some(c.kind_off.u32(k)?..end)
            })
            .unwrap_or(0..0);
        range.filter_map(move |j| cols?.kind_nodes.u32(j as usize))
    }

    /// Every stored text as `(key, text)`, in key order (a corrupt entry ends the walk; the
    /// graph is then marked corrupt).
    pub fn texts(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        let cols = self.cols();
        (0..self.meta.texts as usize).map_while(move |t| {
            let cols = cols?;
            let key = self.str_at(&cols, cols.text_keys.u32(t)?)?;
            let a = self.lay.off(&cols.text_off, t)? as usize;
            let b = self.lay.off(&cols.text_off, t + 1)? as usize;
            let v = std::str::from_utf8(cols.text_bytes.bytes(a, b.checked_sub(a)?)?).ok()?;
            Some((key, v))
        })
    }

    /// Edges leaving `id`, optionally of one kind, in id order.
    pub fn out_edges(&self, id: &str, kind: Option<EdgeKind>) -> Vec<EdgeRef<'_>> {
        self.adjacent(id, kind, true)
    }

    /// Edges arriving at `id`, optionally of one kind, in id order.
    pub fn in_edges(&self, id: &str, kind: Option<EdgeKind>) -> Vec<EdgeRef<'_>> {
        self.adjacent(id, kind, false)
    }

    /// Nodes of one kind, in id order (reads only that kind's index list and rows).
    pub fn nodes_of(&self, kind: NodeKind) -> impl Iterator<Item = NodeRef<'_>> + '_ {
        self.node_indices_of(kind)
            .filter_map(move |i| self.node_at(i))
    }

    /// The searchable text stored for `id`.
    pub fn text(&self, id: &str) -> Option<&str> {
        match self.node_index(id) {
            Some(i) => self.text_at(i),
            None => self.text_by_search(id),
        }
    }

    /// The text of the node at index `i` (one slot, no search).
    pub fn text_at(&self, i: u32) -> Option<&str> {
        let cols = self.cols()?;
        let t = cols.node_text.u32(i as usize)?.checked_sub(1)? as usize;
        let a = self.lay.off(&cols.text_off, t)? as usize;
        let b = self.lay.off(&cols.text_off, t + 1)? as usize;
        std::str::from_utf8(cols.text_bytes.bytes(a, b.checked_sub(a)?)?).ok()
    }

    /// A text whose key is not a node id (binary search over the keys).
    fn text_by_search(&self, id: &str) -> Option<&str> {
        let cols = self.cols()?;
        let (mut lo, mut hi) = (0usize, self.meta.texts as usize);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let key = self.str_at(&cols, cols.text_keys.u32(mid)?)?;
            match key.cmp(id) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    let a = self.lay.off(&cols.text_off, mid)? as usize;
                    let b = self.lay.off(&cols.text_off, mid + 1)? as usize;
                    return std::str::from_utf8(cols.text_bytes.bytes(a, b.checked_sub(a)?)?).ok();
                }
            }
        }
        None
    }

    /// The whole graph decoded (what a build that changes the graph needs); `None` when a
    /// block is corrupt.
    pub fn to_graph(&self) -> Option<Graph> {
        let cols = self.cols()?;
        let nodes: Option<Vec<Node>> = (0..self.meta.nodes)
            .map(|i| self.node_at(i)?.to_node())
            .collect();
        let edges: Option<Vec<Edge>> = (0..self.meta.edges)
            .map(|i| self.edge_at(i)?.to_edge())
            .collect();
        let mut texts = BTreeMap::new();
        for t in 0..self.meta.texts as usize {
            let key = self.str_at(&cols, cols.text_keys.u32(t)?)?;
            let a = self.lay.off(&cols.text_off, t)? as usize;
            let b = self.lay.off(&cols.text_off, t + 1)? as usize;
            let v = std::str::from_utf8(cols.text_bytes.bytes(a, b.checked_sub(a)?)?).ok()?;
            texts.insert(key.to_string(), SharedStr::from(v));
        }
        Some(Graph::from_snapshot(
            self.meta.version.clone(),
            nodes?,
            edges?,
            texts,
            self.meta.hash.clone(),
        ))
    }
}

fn row_u32(row: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([row[at], row[at + 1], row[at + 2], row[at + 3]])
}

fn row_u64(row: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&row[at..at + 8]);
    u64::from_le_bytes(a)
}

fn metadata<'a>(
    g: &'a MappedGraph,
    cols: &Cols<'a>,
    start: u32,
    len: u32,
) -> Option<Vec<(&'a str, &'a str)>> {
    // A length from the file is checked against the section before anything is allocated.
    let end = start.checked_add(len)?;
    if end as usize > cols.pairs.len() / 8 {
        return None;
    }
    (start..end)
        .map(|p| {
            let k = cols.pairs.u32(2 * p as usize)?;
            let v = cols.pairs.u32(2 * p as usize + 1)?;
            Some((g.str_at(cols, k)?, g.str_at(cols, v)?))
        })
        .collect()
}

/// A node read in place. Accessors return `None` only when the snapshot is corrupt.
#[derive(Clone, Copy)]
pub struct NodeRef<'a> {
    g: &'a MappedGraph,
    cols: Cols<'a>,
    i: u32,
    row: &'a [u8],
}

impl<'a> NodeRef<'a> {
    /// Its index (id order).
    pub fn index(&self) -> u32 {
        self.i
    }

    /// Its id.
    pub fn id(&self) -> Option<&'a str> {
        self.g.str_at(&self.cols, self.i)
    }

    /// Its kind.
    pub fn kind(&self) -> Option<NodeKind> {
        NodeKind::ALL.get(usize::from(self.row[0])).copied()
    }

    /// Its name.
    pub fn name(&self) -> Option<&'a str> {
        self.g.str_at(&self.cols, row_u32(self.row, N_NAME))
    }

    /// The file it lives in (outer `None`: corrupt).
    pub fn file(&self) -> Option<Option<&'a str>> {
        self.g.opt_str(&self.cols, row_u32(self.row, N_FILE))
    }

    /// The metadata value of `key`.
    pub fn meta(&self, key: &str) -> Option<&'a str> {
        let m = metadata(
            self.g,
            &self.cols,
            row_u32(self.row, N_META),
            row_u32(self.row, N_META_LEN),
        )?;
        m.into_iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// Edges leaving this node, optionally of one kind, in id order.
    pub fn out_edges(&self, kind: Option<EdgeKind>) -> Vec<EdgeRef<'a>> {
        self.g.adjacent_at(self.i, kind, true)
    }

    /// Edges arriving at this node, optionally of one kind, in id order.
    pub fn in_edges(&self, kind: Option<EdgeKind>) -> Vec<EdgeRef<'a>> {
        self.g.adjacent_at(self.i, kind, false)
    }

    /// Its stored text.
    pub fn text(&self) -> Option<&'a str> {
        self.g.text_at(self.i)
    }

    /// The owned node, exactly as it was written.
    pub fn to_node(&self) -> Option<Node> {
        let r = self.row;
        let lay = self.g.lay;
        let span = self
            .g
            .opt_str(&self.cols, row_u32(r, N_SPAN))?
            .map(|f| Span {
                file: f.to_string(),
                start_line: lay.num(r, N_LINES),
                end_line: lay.num(r, N_LINES + lay.w),
            });
        Some(Node {
            id: self.id()?.to_string(),
            kind: self.kind()?,
            name: self.name()?.to_string(),
            file: self.file()?.map(str::to_string),
            span,
            package: self
                .g
                .opt_str(&self.cols, row_u32(r, N_PACKAGE))?
                .map(str::to_string),
            metadata: metadata(
                self.g,
                &self.cols,
                row_u32(r, N_META),
                row_u32(r, N_META_LEN),
            )?
            .into_iter()
            .map(|(k, v)| (meta_key(k), v))
            .collect(),
        })
    }
}

/// An edge read in place. Accessors return `None` only when the snapshot is corrupt.
#[derive(Clone, Copy)]
pub struct EdgeRef<'a> {
    g: &'a MappedGraph,
    cols: Cols<'a>,
    row: &'a [u8],
}

impl<'a> EdgeRef<'a> {
    /// Its kind.
    pub fn kind(&self) -> Option<EdgeKind> {
        EdgeKind::ALL.get(self.row[0] as usize).copied()
    }

    /// Its id (rebuilt from the stored hash for canonical ids).
    pub fn id(&self) -> Option<Cow<'a, str>> {
        let kind = self.kind()?;
        match self.row[1] {
            0 => {
                let at = self.g.lay.edge_hash();
                Some(Cow::Owned(canonical_edge_id(kind, &self.row[at..at + 16])))
            }
            _ => self
                .g
                .str_at(&self.cols, row_u32(self.row, self.g.lay.edge_hash()))
                .map(Cow::Borrowed),
        }
    }

    /// The index of its source node.
    pub fn from_index(&self) -> u32 {
        row_u32(self.row, E_FROM)
    }

    /// The index of its target node.
    pub fn to_index(&self) -> u32 {
        row_u32(self.row, E_TO)
    }

    /// Its source node's id.
    pub fn from(&self) -> Option<&'a str> {
        self.g.str_at(&self.cols, self.from_index())
    }

    /// Its target node's id.
    pub fn to(&self) -> Option<&'a str> {
        self.g.str_at(&self.cols, self.to_index())
    }

    /// The metadata value of `key`.
    pub fn meta(&self, key: &str) -> Option<&'a str> {
        let m = metadata(
            self.g,
            &self.cols,
            row_u32(self.row, E_META),
            row_u32(self.row, E_META_LEN),
        )?;
        m.into_iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// Its source node.
    pub fn source(&self) -> Option<NodeRef<'a>> {
        self.g.node_at(self.from_index())
    }

    /// Its target node.
    pub fn target(&self) -> Option<NodeRef<'a>> {
        self.g.node_at(self.to_index())
    }

    /// The owned edge, exactly as it was written.
    pub fn to_edge(&self) -> Option<Edge> {
        let r = self.row;
        let origin = self
            .g
            .opt_str(&self.cols, row_u32(r, E_ORIGIN))?
            .map(|f| Origin {
                file: f.into(),
                line: self.g.lay.num(r, E_LINE),
            });
        Some(Edge {
            id: self.id()?.into_owned(),
            kind: self.kind()?,
            from: self.from()?.into(),
            to: self.to()?.into(),
            origin,
            metadata: metadata(
                self.g,
                &self.cols,
                row_u32(r, E_META),
                row_u32(r, E_META_LEN),
            )?
            .into_iter()
            .map(|(k, v)| (meta_key(k), v))
            .collect(),
        })
    }
}
