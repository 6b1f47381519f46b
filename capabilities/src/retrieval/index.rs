//! The retrieval index: an inverted index over the fields of sections, articles, files and
//! symbols, scored with BM25F.
//!
//! A section is indexed in five fields: its heading, its section id, its body, its article's
//! title and description, and the names of what it cites (symbols and file paths). Field
//! weights and length normalisation are applied at query time ([`Params`]), so one stored index
//! serves any weighting, and the weights can be fit on one question set and tested on another
//! (`examples/quality.rs`).
//!
//! Built once with the graph and stored beside the snapshot as container sections that a query
//! process maps and reads in place ([`Index`]): a query decodes the term-table blocks of its
//! terms, their postings, and the records of the documents it touches or shows, so its cost
//! follows the answer, not the corpus. Our own BM25F rather than a search
//! library: the corpus is small documents, the tokenizer must understand identifiers and flags,
//! and the postings must serialize deterministically next to the graph.

use super::builder::{self, DocFields};
use super::columns::{le_vec, Postings};
use super::stored::{blocks, BlockWriter, Blocked, Reader};
use ontoly_graph::graph::model::{EdgeKind, Node, NodeKind};
use ontoly_graph::graph::store::container::{Container, Handle, OpenError};
use ontoly_graph::graph::{snapshot, Graph};
use ontoly_graph::{Artifacts, Session, SessionError};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::Arc;

pub use super::tokens::{query_terms, tokenize, QueryTerm, MAX_QUERY_TERMS};

/// Name of the snapshot artifact that holds the index of a graph.
pub const INDEX_ARTIFACT: &str = "search-index";

/// Format version of the serialized index; bump when the layout or tokenizer changes.
pub const INDEX_VERSION: &str = "ontoly.index.v26";

/// Fields of a document.
pub const FIELDS: usize = 5;
/// A section's heading; an article's title; a file's path; a symbol's qualified name.
pub const F_HEADING: usize = 0;
/// A section's id (slugs are often the best keywords).
pub const F_SLUG: usize = 1;
/// A section's body; an article's description; a symbol's kind.
pub const F_BODY: usize = 2;
/// A section's article: title and description.
pub const F_ARTICLE: usize = 3;
/// What a section cites: symbol names and file paths.
pub const F_CODE: usize = 4;

/// Scoring parameters (BM25F). The shipped values are fit on three blind question sets and
/// tested on four others; see docs/evidence.md.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Term-frequency saturation.
    pub k1: f64,
    /// Length normalisation per field.
    pub b: [f64; FIELDS],
    /// Weight of each field.
    pub weight: [f64; FIELDS],
    /// Weight of a pair of neighbouring query words found together (0: off).
    pub pair_weight: f64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            k1: 2.5,
            b: [0.3, 0.0, 0.75, 0.3, 0.5],
            weight: [2.5, 1.5, 1.0, 0.6, 0.0],
            pair_weight: 0.25,
        }
    }
}

/// One indexed document while the index is built: a node and its kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doc {
    /// The node id.
    pub id: String,
    /// The node kind.
    pub kind: NodeKind,
}

/// What a search found in one document.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Hit {
    /// BM25F score.
    pub score: f64,
    /// Query terms (bit per term) matched in the doc's own fields.
    pub own: u64,
    /// Query terms matched in the doc's article field.
    pub art: u64,
    /// Query terms matched in the doc's code field.
    pub code: u64,
    /// Pairs of neighbouring query words found together in the doc (heading or body).
    pub pair_hits: u16,
}

impl Hit {
    /// Terms matched in any field.
    pub fn mask(&self) -> u64 {
        self.own | self.art | self.code
    }
}

/// Search results: one entry per document the query's terms touched (a per-doc slot number
/// aside, nothing per document of the corpus is written, so a search costs what its postings
/// cost).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Dense {
    /// Docs with at least one term, in doc order.
    pub touched: Vec<u32>,
    /// Per doc: its entry in `kinds` and `hits` plus one (0: not touched).
    slot: Vec<u32>,
    /// The kinds of the touched docs, in the order they were first touched.
    kinds: Vec<NodeKind>,
    /// What was found in each, same order.
    hits: Vec<Hit>,
    /// Sections matched but not scored ([`Index::search_best`]).
    unscored: usize,
}

/// A doc's slot once it is counted and not scored.
const COUNTED: u32 = u32::MAX;

impl Dense {
    fn entry(&self, doc: u32) -> Option<usize> {
        match self.slot.get(doc as usize) {
            Some(&s) if s > 0 && s != COUNTED => Some(s as usize - 1),
            _ => None,
        }
    }

    /// Sections with a positive score that were counted but not scored: they cannot be among
    /// the best the search was asked to keep.
    pub fn unscored(&self) -> usize {
        self.unscored
    }

    /// What was found in `doc` (all zero when it was not touched).
    pub fn hit(&self, doc: u32) -> Hit {
        self.entry(doc).map_or_else(Hit::default, |s| self.hits[s])
    }

    /// BM25F score of `doc` (0 when it was not touched).
    pub fn score(&self, doc: u32) -> f64 {
        self.hit(doc).score
    }

    /// Terms matched in any field of `doc`.
    pub fn mask(&self, doc: u32) -> u64 {
        self.hit(doc).mask()
    }

    /// The touched docs in doc order: doc, kind, score.
    pub fn iter(&self) -> impl Iterator<Item = (u32, NodeKind, f64)> + '_ {
        self.touched.iter().filter_map(|&d| {
            let s = self.entry(d)?;
            Some((d, self.kinds[s], self.hits[s].score))
        })
    }
}

/// Terms per block of the stored term table (a lookup decodes one block).
const TERMS_PER_BLOCK: usize = 32;
/// Documents per block of the stored per-document columns.
const DOCS_PER_BLOCK: usize = 16;

/// A search that touches more than one doc in this many lists them by a pass over all docs
/// instead of a sort.
const TOUCHED_SCAN: usize = 32;

/// The small part of a stored index, decoded at open.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Meta {
    /// [`INDEX_VERSION`].
    version: String,
    /// Hash of the graph this index was built from.
    graph_hash: String,
    /// Documents, in node-id order.
    docs: u32,
    /// Distinct terms.
    terms: u32,
    /// Sections indexed.
    sections: u32,
    /// Per node kind and field (`kind * FIELDS + field`): average length (at least 1).
    #[serde(with = "le_vec")]
    avg_len: Vec<f64>,
    /// The graph's facts, counted once at build (a pack reports them on every query).
    facts: crate::walk::GraphFacts,
    /// Ids of the graph's error-severity `Diagnostic` nodes, in id order.
    errors: Vec<String>,
}

/// One term of the table.
#[derive(Debug, Clone, Copy)]
struct TermRec {
    /// Sections holding it in any field.
    df_section: u32,
    /// Documents of any kind holding it.
    df_all: u32,
    /// Its postings are `start..end`.
    start: u32,
    end: u32,
}

/// The inverted index, stored as container sections and read in place (a built index is held
/// in the same form, in memory): a query decodes the blocks of its terms, its postings, and the
/// per-document records of the documents it touches or shows.
///
/// Sections: `index` (postcard `Meta`); `terms` (sorted distinct terms in blocks of
/// `TERMS_PER_BLOCK`, front-coded, each followed by its section and document frequency and its
/// number of postings) with `terms.idx` (byte offset per block) and `terms.start` (the first
/// posting of each block's first term, and the total); `doc.ids` (node ids, front-coded),
/// `doc.flen` (per field, the length in tokens), `doc.links` (propagation links: for a section,
/// the file and symbol docs it cites and its article doc; for a file, symbol or article, the
/// section docs citing or holding it; as differences), each in blocks of `DOCS_PER_BLOCK`
/// with their `.idx`; `doc.kind` (one byte per doc); `doc.fp` (per doc, a fingerprint of
/// its fields' texts, `fingerprint`: what lets the next build reuse this index for the
/// documents that did not change, `update`); `post.data`/`post.skip` (see [`Postings`]).
#[derive(Clone)]
pub struct Index {
    meta: Meta,
    origin: Origin,
    c: Arc<Container>,
    terms: Blocked,
    term_start: Handle,
    ids: Blocked,
    kinds: Handle,
    fps: Handle,
    flen: Blocked,
    links: Blocked,
    postings: Postings,
    /// Why this process could not store the index it built (see [`Index::store_note`]).
    store_note: Option<String>,
}

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Index({} docs, {} terms, {:?})",
            self.meta.docs, self.meta.terms, self.postings
        )
    }
}

impl PartialEq for Index {
    /// Same stored bytes, section by section.
    fn eq(&self, other: &Index) -> bool {
        self.to_sections() == other.to_sections()
    }
}

/// How this process came by an index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Read as it was stored for this graph.
    Stored,
    /// Built from the graph's documents.
    Built,
    /// Updated from the index stored for an earlier graph: only `tokenized` documents (the
    /// changed and the new) were tokenized again.
    Updated {
        /// Documents tokenized again.
        tokenized: usize,
    },
}

/// Why a stored index cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    /// The bytes do not decode.
    #[error("search index does not decode: {0}")]
    Corrupt(String),
    /// Written by another index version.
    #[error("search index version {0} is not {INDEX_VERSION}")]
    Version(String),
    /// Built from another graph.
    #[error("search index was built from another graph")]
    Stale,
}

fn heading_of(n: &Node) -> &str {
    n.metadata
        .get("heading")
        .or_else(|| n.metadata.get("title"))
        .unwrap_or(&n.name)
}

fn file_path(n: &Node) -> &str {
    n.span
        .as_ref()
        .map(|s| s.file.as_str())
        .or(n.file.as_deref())
        .unwrap_or(&n.name)
}

/// The fields of a node's document, or `None` when the kind is not indexed. `linked` are the
/// docs a section links to (its cited files and symbols, its article).
fn node_fields<'g>(
    graph: &'g Graph,
    n: &'g Node,
    linked: &[&'g Node],
) -> Option<[Cow<'g, str>; FIELDS]> {
    let body = graph.text(&n.id).unwrap_or("");
    let mut f: [Cow<'g, str>; FIELDS] = Default::default();
    match n.kind {
        NodeKind::Section => {
            f[F_HEADING] = Cow::Borrowed(heading_of(n));
            f[F_SLUG] = Cow::Borrowed(n.metadata.get("section_id").map_or("", String::as_str));
            f[F_BODY] = Cow::Borrowed(body);
            let mut code = String::new();
            for l in linked {
                match l.kind {
                    NodeKind::Article => {
                        let art = graph.text(&l.id);
                        f[F_ARTICLE] = Cow::Borrowed(art.unwrap_or(heading_of(l)));
                    }
                    NodeKind::File => {
                        code.push_str(file_path(l));
                        code.push('\n');
                    }
                    _ => {
                        code.push_str(&l.name);
                        code.push('\n');
                        push_own_name(&mut code, l);
                    }
                }
            }
            f[F_CODE] = Cow::Owned(code);
        }
        NodeKind::Article => {
            // Article texts hold the title and description.
            f[F_HEADING] = Cow::Borrowed(heading_of(n));
            f[F_BODY] = Cow::Borrowed(body);
        }
        NodeKind::File => {
            f[F_HEADING] = Cow::Borrowed(file_path(n));
            f[F_BODY] = Cow::Borrowed(body);
        }
        NodeKind::Symbol => {
            let mut name = n.name.clone();
            name.push('\n');
            push_own_name(&mut name, n);
            f[F_HEADING] = Cow::Owned(name);
            f[F_BODY] = Cow::Borrowed(n.metadata.get("kind").map_or("", String::as_str));
        }
        _ => return None,
    }
    Some(f)
}

/// A symbol's own name (`getDeviceNameSync` of `com.acme.RNDeviceModule.getDeviceNameSync`,
/// `From<E> for Error` of an impl qualified `Error`) when its qualified name does not end
/// with it as a term of its own: a qualified name is one compound and its words, so the name
/// a person types was "not in this workspace" although a section cites it (Java walk, stop
/// 48). Also a JavaScript function expression's own name (`parseQueryStringValues` of `var
/// parseValues = function parseQueryStringValues`), which stack traces print and `cites
/// --symbol` finds, but which no page writes (qs walk, stop 50).
fn push_own_name(out: &mut String, symbol: &Node) {
    for key in ["name", "alias"] {
        if let Some(own) = symbol.metadata.get(key) {
            if own != &symbol.name && own.chars().any(char::is_alphanumeric) {
                out.push_str(own);
                out.push('\n');
            }
        }
    }
}

/// The term of two neighbouring words (headings and bodies are indexed with them, so a query
/// whose words stand together in a section scores higher there).
pub fn bigram(a: &str, b: &str) -> String {
    format!("{a} {b}")
}

/// BM25 inverse document frequency (never negative).
pub fn bm25_idf(n: f64, df: f64) -> f64 {
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// A fingerprint of a document's fields: its kind of document and each field's text, with
/// their lengths (no two lists of texts run together the same). Equal fingerprints mean equal
/// postings and field lengths, so an update keeps a document's postings by it. xxh3-64, not
/// blake3: a false "unchanged" is as unlikely (one in 2^64 per changed document; the pages'
/// writer could as well write what they want indexed), and blake3's setup per small input made
/// these 105k hashes 0.19–0.20 s of a one-page build at 100k sections (docs/scale.md §44).
pub(super) fn fingerprint(d: &DocFields<'_>) -> u64 {
    let Some(fields) = &d.fields else {
        return 0;
    };
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(&[u8::from(d.section)]);
    for f in fields {
        h.update(&(f.len() as u64).to_le_bytes());
        h.update(f.as_bytes());
    }
    h.digest()
}

/// The stored sections of an index, in writing order.
fn encode(
    meta: &Meta,
    docs: &[Doc],
    built: builder::Built,
    links: &[Vec<u32>],
    fps: &[u64],
) -> Vec<(&'static str, Vec<u8>)> {
    let mut terms = BlockWriter::new(TERMS_PER_BLOCK);
    let mut term_start = Vec::new();
    for i in 0..built.terms.len() {
        if i.is_multiple_of(TERMS_PER_BLOCK) {
            term_start.extend_from_slice(&built.term_start[i].to_le_bytes());
        }
        terms.record();
        terms.string(built.terms.get(i).as_bytes());
        terms.varint(u64::from(built.df_section[i]));
        terms.varint(u64::from(built.df_all[i]));
        terms.varint(u64::from(built.term_start[i + 1] - built.term_start[i]));
    }
    let total = built.term_start.last().copied().unwrap_or(0);
    term_start.extend_from_slice(&total.to_le_bytes());
    let (terms, terms_idx) = terms.finish();
    let (mut ids, mut flen, mut link) = (
        BlockWriter::new(DOCS_PER_BLOCK),
        BlockWriter::new(DOCS_PER_BLOCK),
        BlockWriter::new(DOCS_PER_BLOCK),
    );
    let mut kinds = Vec::with_capacity(docs.len());
    for (d, doc) in docs.iter().enumerate() {
        ids.record();
        ids.string(doc.id.as_bytes());
        kinds.push(
            NodeKind::ALL
                .iter()
                .position(|&k| k == doc.kind)
                .unwrap_or(0) as u8,
        );
        flen.record();
        for f in 0..FIELDS {
            flen.varint(u64::from(built.field_len[d * FIELDS + f]));
        }
        link.record();
        let l = links.get(d).map_or(&[][..], Vec::as_slice);
        link.varint(l.len() as u64);
        let mut prev = 0;
        for &t in l {
            // Sorted and distinct (`build_links`): differences never wrap.
            link.varint(u64::from(t.wrapping_sub(prev)));
            prev = t;
        }
    }
    let (ids, ids_idx) = ids.finish();
    let (flen, flen_idx) = flen.finish();
    let (link, link_idx) = link.finish();
    let mut out = vec![
        ("index", postcard::to_stdvec(meta).unwrap_or_default()),
        ("terms", terms),
        ("terms.idx", terms_idx),
        ("terms.start", term_start),
        ("doc.ids", ids),
        ("doc.ids.idx", ids_idx),
        ("doc.kind", kinds),
        ("doc.fp", fps.iter().flat_map(|f| f.to_le_bytes()).collect()),
        ("doc.flen", flen),
        ("doc.flen.idx", flen_idx),
        ("doc.links", link),
        ("doc.links.idx", link_idx),
    ];
    out.extend(super::columns::sections_of(built.postings));
    out
}

/// Reads the field lengths of documents, each block decoded once per search: every query
/// term's postings walk the same blocks in doc order, and a common term touches most of them.
struct FieldLens<'a> {
    ix: &'a Index,
    /// Per block: whether its lengths are in `lens`.
    decoded: Vec<bool>,
    /// Per doc and field, once its block is decoded (zeroed by the allocator, so only the
    /// pages of decoded blocks are written).
    lens: Vec<u32>,
}

impl<'a> FieldLens<'a> {
    fn new(ix: &'a Index) -> Self {
        let n = ix.len();
        FieldLens {
            ix,
            decoded: vec![false; n.div_ceil(DOCS_PER_BLOCK)],
            lens: vec![0; n * FIELDS],
        }
    }

    fn get(&mut self, doc: usize, field: usize) -> u32 {
        let b = doc / DOCS_PER_BLOCK;
        if !self.decoded.get(b).copied().unwrap_or(true) {
            self.decoded[b] = true;
            // A block that does not decode (a corrupt read marks the index) reads as zero.
            if let Some(bytes) = self.ix.flen.block(&self.ix.c, b) {
                let mut r = Reader::new(bytes);
                let start = b * DOCS_PER_BLOCK * FIELDS;
                let end = (start + DOCS_PER_BLOCK * FIELDS).min(self.lens.len());
                for slot in &mut self.lens[start..end] {
                    match r.u32() {
                        Some(x) => *slot = x,
                        None => break,
                    }
                }
            }
        }
        self.lens.get(doc * FIELDS + field).copied().unwrap_or(0)
    }
}

/// Whether nodes of this kind are documents of the index.
fn indexed(kind: NodeKind) -> bool {
    matches!(
        kind,
        NodeKind::Section | NodeKind::Article | NodeKind::File | NodeKind::Symbol
    )
}

impl Index {
    /// Indexes every section, article, file and symbol of `graph`.
    pub fn build(graph: &Graph) -> Index {
        Index::build_from(graph, None)
    }

    /// [`Index::build`], reusing `base` (an index of an earlier graph) for the documents whose
    /// fields did not change when few did: the same bytes as a build from nothing (its
    /// [`Index::origin`] says whether `base` was used).
    fn build_from(graph: &Graph, base: Option<&Index>) -> Index {
        use rayon::prelude::*;
        let stages = ontoly_graph::timings::Timer::from_env();
        let nodes: Vec<&Node> = graph.nodes().filter(|n| indexed(n.kind)).collect();
        let docs: Vec<Doc> = nodes
            .iter()
            .map(|n| Doc {
                id: n.id.clone(),
                kind: n.kind,
            })
            .collect();
        let link_lists = build_links(graph, &docs);
        stages.lap("  index: documents and links");
        let fields: Vec<DocFields> = nodes
            .par_iter()
            .zip(&link_lists)
            .map(|(&n, links)| {
                let linked: Vec<&Node> = if n.kind == NodeKind::Section {
                    links.iter().map(|&l| nodes[l as usize]).collect()
                } else {
                    Vec::new()
                };
                DocFields {
                    fields: node_fields(graph, n, &linked),
                    section: n.kind == NodeKind::Section,
                }
            })
            .collect();
        let fps: Vec<u64> = fields.par_iter().map(fingerprint).collect();
        stages.lap("  index: fields");
        let updated = base.and_then(|b| super::update::update(b, &docs, &fields, &fps));
        let mut origin = Origin::Built;
        let built = match updated {
            Some((built, tokenized)) => {
                origin = Origin::Updated { tokenized };
                drop(fields);
                stages.lap("  index: updated from the stored index");
                built
            }
            None => builder::build(fields, &stages),
        };
        let field_len = &built.field_len;
        let n_kinds = NodeKind::ALL.len();
        let mut sums = vec![(0.0f64, 0.0f64); n_kinds * FIELDS];
        for (d, doc) in docs.iter().enumerate() {
            for fi in 0..FIELDS {
                let e = &mut sums[doc.kind as usize * FIELDS + fi];
                e.0 += f64::from(field_len[d * FIELDS + fi]);
                e.1 += 1.0;
            }
        }
        let avg_len = sums
            .into_iter()
            .map(|(s, c)| if c > 0.0 { (s / c).max(1.0) } else { 1.0 })
            .collect();
        let meta = Meta {
            version: INDEX_VERSION.to_string(),
            graph_hash: graph.hash.clone(),
            docs: docs.len() as u32,
            terms: built.terms.len() as u32,
            sections: docs.iter().filter(|d| d.kind == NodeKind::Section).count() as u32,
            avg_len,
            facts: crate::walk::GraphFacts::of(graph),
            errors: graph
                .nodes_of(NodeKind::Diagnostic)
                .filter(|n| {
                    crate::walk::diagnostic_of_node(n).severity
                        == ontoly_graph::diagnostics::Severity::Error
                })
                .map(|n| n.id.clone())
                .collect(),
        };
        stages.lap("  index: lengths and facts");
        let sections = encode(&meta, &docs, built, &link_lists, &fps);
        drop(link_lists);
        stages.lap("  index: encode");
        // Our own bytes, just written: they always open. They are the artifact file's bytes,
        // so storing the index writes them as they are.
        let c = snapshot::artifact_from_bytes(container_bytes(sections, &graph.hash), &graph.hash);
        let ix = c
            .ok()
            .and_then(|c| Index::from_container(c, graph).ok())
            .expect("a freshly built index reads back");
        stages.lap("  index: container");
        Index { origin, ..ix }
    }

    /// The stored sections (what [`Index::open`] writes as the artifact), read back.
    pub fn to_sections(&self) -> Vec<(String, Vec<u8>)> {
        self.c
            .sections()
            .into_iter()
            .map(|(name, _)| {
                let bytes = self
                    .c
                    .section(&name)
                    .and_then(|s| s.all())
                    .map(<[u8]>::to_vec)
                    .unwrap_or_default();
                (name, bytes)
            })
            .collect()
    }

    /// The index as one container's bytes, the artifact file's (deterministic for a given
    /// graph).
    pub fn to_bytes(&self) -> Vec<u8> {
        container_bytes(self.to_sections(), &self.meta.graph_hash)
    }

    /// Reads an index from the bytes of [`Index::to_bytes`] and checks it was built from
    /// `graph`.
    pub fn from_bytes(bytes: &[u8], graph: &Graph) -> Result<Index, IndexError> {
        let c =
            snapshot::artifact_from_bytes(bytes.to_vec(), &graph.hash).map_err(|e| match e {
                OpenError::Stale => IndexError::Stale,
                e => IndexError::Corrupt(e.to_string()),
            })?;
        Index::from_container(c, graph)
    }

    /// The index stored as sections in `c`: only its small `index` section is decoded; every
    /// other is read in place, block by block, as queries reach them.
    pub fn from_container(c: Container, graph: &Graph) -> Result<Index, IndexError> {
        let ix = Index::from_container_of_any_graph(c)?;
        if ix.meta.graph_hash != graph.hash {
            return Err(IndexError::Stale);
        }
        Ok(ix)
    }

    /// [`Index::from_container`] whatever graph the index was built from: for a base to
    /// update, never to answer from.
    fn from_container_of_any_graph(c: Container) -> Result<Index, IndexError> {
        let c = Arc::new(c);
        let bad = |what: &str| IndexError::Corrupt(what.to_string());
        let meta = c
            .section("index")
            .and_then(|s| s.all())
            .ok_or_else(|| bad("no index section"))?;
        let meta: Meta = postcard::from_bytes(meta).map_err(|e| bad(&e.to_string()))?;
        if meta.version != INDEX_VERSION {
            return Err(IndexError::Version(meta.version));
        }
        let (n_docs, n_terms) = (meta.docs as usize, meta.terms as usize);
        let (term_blocks, doc_blocks) = (
            blocks(n_terms, TERMS_PER_BLOCK),
            blocks(n_docs, DOCS_PER_BLOCK),
        );
        let terms =
            Blocked::open(&c, "terms", "terms.idx", term_blocks).ok_or_else(|| bad("terms"))?;
        let term_start = c
            .handle("terms.start")
            .filter(|&h| c.get(h).len() == (term_blocks + 1) * 4)
            .ok_or_else(|| bad("term starts"))?;
        let doc_col = |name: &str, idx: &str| {
            Blocked::open(&c, name, idx, doc_blocks).ok_or_else(|| bad(name))
        };
        let (ids, flen, links) = (
            doc_col("doc.ids", "doc.ids.idx")?,
            doc_col("doc.flen", "doc.flen.idx")?,
            doc_col("doc.links", "doc.links.idx")?,
        );
        let kinds = c
            .handle("doc.kind")
            .filter(|&h| c.get(h).len() == n_docs)
            .ok_or_else(|| bad("kinds"))?;
        let fps = c
            .handle("doc.fp")
            .filter(|&h| c.get(h).len() == n_docs * 8)
            .ok_or_else(|| bad("fingerprints"))?;
        let postings = Postings::mapped(c.clone()).ok_or_else(|| bad("postings"))?;
        let total = c.get(term_start).u32(term_blocks);
        if meta.avg_len.len() != NodeKind::ALL.len() * FIELDS
            || total != Some(postings.len() as u32)
            || u32::try_from(postings.len()).is_err()
        {
            return Err(bad("inconsistent lengths"));
        }
        Ok(Index {
            meta,
            origin: Origin::Stored,
            c,
            terms,
            term_start,
            ids,
            kinds,
            fps,
            flen,
            links,
            postings,
            store_note: None,
        })
    }

    /// True when a read of the mapped index failed its checksum: results computed from this
    /// index may miss what the block held.
    pub fn is_corrupt(&self) -> bool {
        self.c.is_corrupt()
    }

    /// The index of a session's graph: the one stored beside the snapshot for exactly this
    /// graph (mapped; checked whole first when the session distrusts its snapshot), or a new one
    /// (then stored, atomically, for the next process). When this call builds the graph, the
    /// index is found or built while the graph's snapshot is written. A session without the
    /// cache never touches the disk.
    pub fn open(session: &Session) -> Result<Index, SessionError> {
        let (out, done) = session.build_alongside("indexing", Index::stored_or_built)?;
        match done {
            Some(ix) => Ok(ix),
            None => {
                // A graph opened from its snapshot: finding its index is quick, building it
                // is a phase of its own (seconds on a large workspace).
                if let Some(p) = session.progress() {
                    p.stage("indexing", 1);
                }
                Ok(Index::stored_or_built(&out.graph, &session.artifacts()?))
            }
        }
    }

    fn stored_or_built(graph: &Graph, artifacts: &Artifacts<'_>) -> Index {
        // The stored index, whatever graph it was built from: this graph's is the answer; an
        // earlier graph's is a base for the new one (after an edit, most documents are as
        // they were).
        let stored = artifacts
            .open_any(INDEX_ARTIFACT)
            .and_then(|c| Index::from_container_of_any_graph(c).ok());
        let base = match stored {
            Some(ix) if ix.meta.graph_hash == graph.hash => return ix,
            other => other,
        };
        let timer = ontoly_graph::timings::Timer::from_env();
        let ix = Index::build_from(graph, base.as_ref());
        timer.lap("search index build");
        // The container just built is the artifact file: written as it is.
        let mut ix = ix;
        ix.store_note = artifacts
            .store_container(INDEX_ARTIFACT, &ix.c)
            .err()
            .map(|e| format!("search index not written ({e}): every run builds it again"));
        timer.lap("search index store");
        ix
    }

    /// Why the index just built could not be stored for the next process, when it could not.
    pub fn store_note(&self) -> Option<&str> {
        self.store_note.as_deref()
    }

    /// How this process came by the index: read as stored, built, or updated from an earlier
    /// graph's.
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// Number of indexed documents.
    pub fn len(&self) -> usize {
        self.meta.docs as usize
    }

    /// True when nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.meta.docs == 0
    }

    /// Number of distinct terms.
    pub fn term_count(&self) -> usize {
        self.meta.terms as usize
    }

    /// Number of sections indexed.
    pub fn sections(&self) -> usize {
        self.meta.sections as usize
    }

    /// The graph's facts, counted when the index was built.
    pub fn facts(&self) -> &crate::walk::GraphFacts {
        &self.meta.facts
    }

    /// Ids of the graph's error-severity `Diagnostic` nodes, in id order.
    pub fn errors(&self) -> &[String] {
        &self.meta.errors
    }

    /// The first string of block `b` of a front-coded column.
    fn head(&self, col: &Blocked, b: usize) -> Option<Vec<u8>> {
        let mut r = Reader::new(col.block(&self.c, b)?);
        r.string()?;
        Some(r.s)
    }

    /// The last block of `col` whose first string is not above `s` (`Ok(None)`: `s` is below
    /// every string; `Err`: a block did not read).
    fn block_of(&self, col: &Blocked, s: &[u8]) -> Result<Option<usize>, ()> {
        let (mut lo, mut hi) = (0, col.blocks());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.head(col, mid).ok_or(())?.as_slice() <= s {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Ok(lo.checked_sub(1))
    }

    /// Visits the terms of block `b` in order until `f` returns false; `None` when the block
    /// does not read or decode.
    fn term_block(&self, b: usize, mut f: impl FnMut(&[u8], TermRec) -> bool) -> Option<()> {
        let mut r = Reader::new(self.terms.block(&self.c, b)?);
        let mut start = self.c.get(self.term_start).u32(b)?;
        while !r.done() {
            r.string()?;
            let (df_section, df_all, n) = (r.u32()?, r.u32()?, r.u32()?);
            let end = start.checked_add(n)?;
            let rec = TermRec {
                df_section,
                df_all,
                start,
                end,
            };
            if !f(&r.s, rec) {
                break;
            }
            start = end;
        }
        Some(())
    }

    fn term(&self, term: &str) -> Option<TermRec> {
        let t = term.as_bytes();
        let b = self.block_of(&self.terms, t).ok()??;
        let mut found = None;
        self.term_block(b, |s, rec| {
            if s == t {
                found = Some(rec);
            }
            s < t
        })?;
        found
    }

    /// Number of documents (of any kind) containing `term`.
    pub fn df(&self, term: &str) -> usize {
        self.term(term).map_or(0, |r| r.df_all as usize)
    }

    /// Number of sections containing `term` in any field.
    pub fn df_sections(&self, term: &str) -> usize {
        self.term(term).map_or(0, |r| r.df_section as usize)
    }

    /// Inverse document frequency of `term` among sections (BM25, never negative). A term
    /// absent from the corpus gets the highest value, so an unknown word weighs fully against
    /// coverage.
    pub fn idf(&self, term: &str) -> f64 {
        bm25_idf(f64::from(self.meta.sections), self.df_sections(term) as f64)
    }

    /// The first indexed term at or above `key` in byte order.
    fn first_at_least(&self, key: &[u8]) -> Option<Vec<u8>> {
        let first = self.block_of(&self.terms, key).ok()?.unwrap_or(0);
        for b in first..self.terms.blocks() {
            let mut found = None;
            self.term_block(b, |s, _| {
                if s >= key {
                    found = Some(s.to_vec());
                }
                found.is_none()
            })?;
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// The distinct characters that follow `prefix` in the indexed terms, in order: each is
    /// found by one jump over the sorted terms, so a prefix that thousands of terms share
    /// costs as many jumps as it has next characters, not a scan of them all.
    pub fn next_chars(&self, prefix: &str) -> Vec<char> {
        let mut out = Vec::new();
        let mut key = prefix.as_bytes().to_vec();
        while let Some(t) = self.first_at_least(&key) {
            let Some(rest) = t.strip_prefix(prefix.as_bytes()) else {
                break;
            };
            // `rest` is empty only for `prefix` itself, which sorts first.
            let next = std::str::from_utf8(rest)
                .ok()
                .and_then(|r| r.chars().next())
                .or_else(|| {
                    // A term cut inside a character cannot be stored; read it leniently.
                    String::from_utf8_lossy(rest).chars().next()
                });
            key.truncate(prefix.len());
            match next {
                None => key.push(0),
                Some(c) => {
                    out.push(c);
                    // The next character in code point order is the next in byte order.
                    let Some(after) =
                        (u32::from(c) + 1..=u32::from(char::MAX)).find_map(char::from_u32)
                    else {
                        break;
                    };
                    let mut buf = [0u8; 4];
                    key.extend_from_slice(after.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
        out
    }

    /// Visits the indexed terms that start with `prefix`, in order, with the number of
    /// sections holding each, until `f` returns false (for spelling suggestions).
    pub fn terms_with_prefix(&self, prefix: &str, mut f: impl FnMut(&str, usize) -> bool) {
        let p = prefix.as_bytes();
        let Ok(first) = self.block_of(&self.terms, p) else {
            return;
        };
        let mut go = true;
        for b in first.unwrap_or(0)..self.terms.blocks() {
            let read = self.term_block(b, |s, rec| {
                if s < p {
                    return true;
                }
                go = s.starts_with(p)
                    && std::str::from_utf8(s).is_ok_and(|s| f(s, rec.df_section as usize));
                go
            });
            if read.is_none() || !go {
                return;
            }
        }
    }

    /// Visits the node ids of the indexed documents that start with `prefix` (`file:`: the
    /// cited files), in id order, until `f` returns false.
    pub fn ids_with_prefix(&self, prefix: &str, mut f: impl FnMut(&str) -> bool) {
        let p = prefix.as_bytes();
        let Ok(first) = self.block_of(&self.ids, p) else {
            return;
        };
        for b in first.unwrap_or(0)..self.ids.blocks() {
            let Some(block) = self.ids.block(&self.c, b) else {
                return;
            };
            let mut r = Reader::new(block);
            while !r.done() {
                if r.string().is_none() {
                    return;
                }
                if r.s.as_slice() < p {
                    continue;
                }
                let go = r.s.starts_with(p) && std::str::from_utf8(&r.s).is_ok_and(&mut f);
                if !go {
                    return;
                }
            }
        }
    }

    /// The kind of doc `doc`.
    pub fn kind(&self, doc: u32) -> Option<NodeKind> {
        let b = self.c.get(self.kinds).bytes(doc as usize, 1)?;
        NodeKind::ALL.get(b[0] as usize).copied()
    }

    /// The node id of doc `doc`.
    pub fn doc_id(&self, doc: u32) -> Option<String> {
        let d = doc as usize;
        if d >= self.len() {
            return None;
        }
        let mut r = Reader::new(self.ids.block(&self.c, d / DOCS_PER_BLOCK)?);
        for _ in 0..=d % DOCS_PER_BLOCK {
            r.string()?;
        }
        String::from_utf8(r.s).ok()
    }

    /// Scores every document containing at least one of `terms` (each with a weight that
    /// multiplies its idf; 1 for a term as typed) with BM25F under `p`.
    pub fn search(&self, terms: &[(String, f64)], pairs: &[String], p: &Params) -> Dense {
        self.search_best(terms, pairs, p, usize::MAX)
    }

    /// [`Index::search`], exact for the best `keep` sections and every other kind of doc: a
    /// section that cannot be among the best `keep` is counted ([`Dense::unscored`]) but not
    /// scored.
    ///
    /// Why it is exact: a term adds less than `idf · (k1 + 1)` to any section's score (BM25's
    /// saturation), so once the best `keep` sections' partial scores all exceed what the terms
    /// left could add together, a section none of the terms so far matched cannot join them.
    /// Terms are taken by that bound, largest first (rare words before common ones); from then
    /// on, only the sections already found and the other kinds are scored. A common word's
    /// postings are then decoded, for the count, but mostly not scored: that is most of a
    /// query's work on a large workspace. With fewer than `keep` sections found nothing is
    /// pruned.
    pub fn search_best(
        &self,
        terms: &[(String, f64)],
        pairs: &[String],
        p: &Params,
        keep: usize,
    ) -> Dense {
        let n = self.len();
        let terms = terms
            .iter()
            .take(MAX_QUERY_TERMS)
            .map(|(t, w)| (t, *w, true));
        let pairs = pairs.iter().map(|t| (t, p.pair_weight, false));
        let mut searched: Vec<(usize, TermRec, f64, bool)> = terms
            .chain(pairs)
            .enumerate()
            .filter(|(_, (_, w, _))| *w > 0.0)
            .filter_map(|(i, (t, w, counted))| Some((i, self.term(t)?, w, counted)))
            .collect();
        let n_sec = f64::from(self.meta.sections);
        let n_all = n as f64;
        // What a term can add to a section at most (see above); infinite when the parameters
        // break the argument, which turns pruning off.
        let bound = |rec: &TermRec, w: f64| {
            let b = w * bm25_idf(n_sec, f64::from(rec.df_section)) * (p.k1 + 1.0);
            if p.k1 > 0.0 && b.is_finite() && b >= 0.0 {
                b
            } else {
                f64::INFINITY
            }
        };
        searched.sort_by(|a, b| {
            bound(&b.1, b.2)
                .total_cmp(&bound(&a.1, a.2))
                .then_with(|| a.0.cmp(&b.0))
        });
        let bounds: Vec<f64> = searched.iter().map(|(_, r, w, _)| bound(r, *w)).collect();
        // At most this many docs are touched: sized once, the entries never move.
        let most = searched
            .iter()
            .map(|(_, rec, _, _)| rec.df_all as usize)
            .sum::<usize>()
            .min(n);
        let mut found = Dense {
            touched: Vec::with_capacity(most),
            // Zeroed lazily by the allocator: only the pages of touched docs are written.
            slot: vec![0u32; n],
            kinds: Vec::with_capacity(most),
            hits: Vec::with_capacity(most),
            unscored: 0,
        };
        let mut lens = FieldLens::new(self);
        let avg_len = &self.meta.avg_len;
        // The kinds column once (one byte per doc): a common term's postings look up the kind
        // of most docs, each lookup through the container's block check otherwise.
        let kinds = self.c.get(self.kinds).all();
        let kind_of = |doc: u32| match kinds {
            Some(k) => NodeKind::ALL.get(*k.get(doc as usize)? as usize).copied(),
            None => self.kind(doc),
        };
        // Past this term, sections not yet found are counted, not scored.
        let mut pruned = false;
        let mut partial: Vec<f64> = Vec::new();
        let mut list = Vec::new();
        for (at, (i, rec, w, counted)) in searched.into_iter().enumerate() {
            if !pruned && keep < n {
                let rest: f64 = bounds[at..].iter().sum();
                let done: f64 = bounds[..at].iter().sum();
                // No section scores more than the bounds of the terms so far add up to.
                if rest < done {
                    partial.clear();
                    partial.extend(
                        found
                            .kinds
                            .iter()
                            .zip(&found.hits)
                            .filter(|(k, _)| **k == NodeKind::Section)
                            .map(|(_, h)| h.score),
                    );
                    if partial.len() >= keep.max(1) {
                        let (_, &mut theta, _) =
                            partial.select_nth_unstable_by(keep.max(1) - 1, |a, b| b.total_cmp(a));
                        pruned = rest < theta;
                    }
                }
            }
            let bit = if counted { 1u64 << i } else { 0 };
            let idf_sec = w * bm25_idf(n_sec, f64::from(rec.df_section));
            let idf_all = w * bm25_idf(n_all, f64::from(rec.df_all));
            // The doc being summed (its postings are consecutive, one per field): its doc,
            // entry, kind and weighted term frequency so far.
            let mut cur: Option<(u32, usize, NodeKind, f64)> = None;
            let flush = |cur: &mut Option<(u32, usize, NodeKind, f64)>, found: &mut Dense| {
                if let Some((_, s, kind, wtf)) = cur.take() {
                    let idf = if kind == NodeKind::Section {
                        idf_sec
                    } else {
                        idf_all
                    };
                    found.hits[s].score += idf * wtf * (p.k1 + 1.0) / (p.k1 + wtf);
                }
            };
            self.postings
                .read_into(rec.start as usize, rec.end as usize, &mut list);
            for &(doc, field, tf) in &list {
                let (d, f) = (doc as usize, field as usize);
                if cur.is_some_and(|(c, ..)| c != doc) {
                    flush(&mut cur, &mut found);
                }
                if d >= n || f >= FIELDS {
                    // Only a stored index can hold this (its blocks passed their sums, so it
                    // was written so): skip rather than index out of bounds.
                    flush(&mut cur, &mut found);
                    continue;
                }
                if cur.is_none() {
                    let s = match found.slot[d] {
                        COUNTED => continue,
                        0 => {
                            let Some(kind) = kind_of(doc) else {
                                continue;
                            };
                            if pruned && kind == NodeKind::Section {
                                // Counted once, when one of its fields weighs something: as a
                                // positive score would be.
                                if p.weight[f] > 0.0 {
                                    found.slot[d] = COUNTED;
                                    found.unscored += 1;
                                }
                                continue;
                            }
                            found.touched.push(doc);
                            found.kinds.push(kind);
                            found.hits.push(Hit::default());
                            found.slot[d] = found.hits.len() as u32;
                            found.hits.len() - 1
                        }
                        s => s as usize - 1,
                    };
                    if !counted {
                        let h = &mut found.hits[s];
                        h.pair_hits = h.pair_hits.saturating_add(1);
                    }
                    cur = Some((doc, s, found.kinds[s], 0.0));
                }
                let Some((_, s, kind, wtf)) = cur.as_mut() else {
                    continue;
                };
                let tf = f64::from(tf);
                let len = f64::from(lens.get(d, f));
                let avg = avg_len
                    .get(*kind as usize * FIELDS + f)
                    .copied()
                    .unwrap_or(1.0);
                *wtf += p.weight[f] * tf / (1.0 - p.b[f] + p.b[f] * len / avg);
                let h = &mut found.hits[*s];
                match f {
                    F_ARTICLE => h.art |= bit,
                    F_CODE => h.code |= bit,
                    _ => h.own |= bit,
                }
            }
            flush(&mut cur, &mut found);
        }
        if found.touched.len() > n / TOUCHED_SCAN {
            // Most docs touched: reading them off in order beats sorting them.
            found.touched.clear();
            found.touched.extend(
                found
                    .slot
                    .iter()
                    .enumerate()
                    .filter(|(_, &s)| s != 0 && s != COUNTED)
                    .map(|(d, _)| d as u32),
            );
        } else {
            found.touched.sort_unstable();
        }
        found
    }

    /// Propagation links of a doc (see [`Index`]), sorted.
    pub fn links(&self, doc: u32) -> Vec<u32> {
        let d = doc as usize;
        let mut out = Vec::new();
        let Some(bytes) = self.links.block(&self.c, d / DOCS_PER_BLOCK) else {
            return out;
        };
        let mut r = Reader::new(bytes);
        for i in 0..=d % DOCS_PER_BLOCK {
            let Some(count) = r.u32() else {
                return Vec::new();
            };
            out.clear();
            let mut at = 0u32;
            for _ in 0..count {
                let Some(delta) = r.u32() else {
                    return Vec::new();
                };
                at = at.wrapping_add(delta);
                if i == d % DOCS_PER_BLOCK && (at as usize) < self.len() {
                    out.push(at);
                }
            }
        }
        out
    }

    /// The node ids of all documents, in order (`None` when a block does not read).
    pub(super) fn doc_ids(&self) -> Option<Vec<Vec<u8>>> {
        let mut out = Vec::with_capacity(self.len());
        for b in 0..self.ids.blocks() {
            let mut r = Reader::new(self.ids.block(&self.c, b)?);
            while !r.done() {
                r.string()?;
                out.push(r.s.clone());
            }
        }
        (out.len() == self.len()).then_some(out)
    }

    /// The fingerprint of doc `doc`'s fields ([`fingerprint`]).
    pub(super) fn fingerprint_of(&self, doc: usize) -> Option<u64> {
        let b = self.c.get(self.fps).bytes(doc.checked_mul(8)?, 8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Some(u64::from_le_bytes(a))
    }

    /// Every document's field lengths, `FIELDS` per document (`None` when a block does not
    /// read).
    pub(super) fn field_lens(&self) -> Option<Vec<u32>> {
        let mut out = Vec::with_capacity(self.len() * FIELDS);
        for b in 0..self.flen.blocks() {
            let mut r = Reader::new(self.flen.block(&self.c, b)?);
            while !r.done() {
                out.push(r.u32()?);
            }
        }
        (out.len() == self.len() * FIELDS).then_some(out)
    }

    /// Visits every term in order with the range of its postings until `f` returns false
    /// (`None` when a block does not read or decode).
    pub(super) fn each_term(&self, mut f: impl FnMut(&[u8], u32, u32) -> bool) -> Option<()> {
        let mut go = true;
        for b in 0..self.terms.blocks() {
            self.term_block(b, |s, rec| {
                go = f(s, rec.start, rec.end);
                go
            })?;
            if !go {
                break;
            }
        }
        Some(())
    }

    /// The postings, in term order.
    pub(super) fn postings(&self) -> &Postings {
        &self.postings
    }

    /// The document index of a node id.
    pub fn doc_of(&self, id: &str) -> Option<u32> {
        let b = self.block_of(&self.ids, id.as_bytes()).ok()??;
        let mut r = Reader::new(self.ids.block(&self.c, b)?);
        let mut d = b * DOCS_PER_BLOCK;
        while !r.done() {
            r.string()?;
            if r.s == id.as_bytes() {
                return Some(d as u32);
            }
            d += 1;
        }
        None
    }
}

/// One artifact container holding `sections`, for the graph with hash `graph_hash`. Each
/// section is freed once copied: at 100k the index's sections are ~45 MB, and holding them
/// beside the container's buffer set the cold build's peak.
fn container_bytes<N: AsRef<str>>(sections: Vec<(N, Vec<u8>)>, graph_hash: &str) -> Vec<u8> {
    let mut w = snapshot::artifact_writer(graph_hash);
    w.reserve(sections.iter().map(|(_, b)| b.len() + 8).sum());
    for (name, bytes) in sections {
        w.section(name.as_ref(), &bytes);
    }
    // Only held sections: nothing can fail (an empty result would not open as a container).
    w.finish().unwrap_or_default()
}

/// The propagation links of every doc (see [`Index`]), from one pass over the edges: a
/// section links to the file and symbol docs that what it cites is in or overlaps, and to the
/// article that contains it; each of those links back. (Walking each section's edges through
/// the graph's adjacency gave the same links, but building the adjacency alone took longer
/// than this whole pass, and a cold build needs it for nothing else.)
fn build_links<'g>(graph: &'g Graph, docs: &[Doc]) -> Vec<Vec<u32>> {
    use ontoly_graph::graph::fasthash::FastMap;
    let doc_of: FastMap<&str, u32> = docs
        .iter()
        .enumerate()
        .map(|(i, d)| (d.id.as_str(), i as u32))
        .collect();
    let is_section = |d: u32| docs[d as usize].kind == NodeKind::Section;
    // Every endpoint as a number: a doc's is its position, any other node's one past the docs.
    // An endpoint's id is its node's one string (see `Graph::edge_endpoints`: a build's shared
    // id, a snapshot's one stored string), so its number is kept by the string's address: one
    // hash of the id per node, not per endpoint (~620 000 endpoints, ~110 000 nodes at 100k
    // generated sections). The address only saves the lookup: equal strings at two addresses
    // get the same number.
    let mut by_address: FastMap<(usize, usize), u32> = FastMap::default();
    let mut other: FastMap<&'g str, u32> = FastMap::default();
    let mut number = |s: &'g str| -> u32 {
        let key = (s.as_ptr() as usize, s.len());
        if let Some(&k) = by_address.get(&key) {
            return k;
        }
        let n = match doc_of.get(s) {
            Some(&d) => d,
            None => {
                let next = (docs.len() + other.len()) as u32;
                *other.entry(s).or_insert(next)
            }
        };
        by_address.insert(key, n);
        n
    };
    // What each node is in or overlaps (docs), what each section cites, and its article.
    let mut located: FastMap<u32, Vec<u32>> = FastMap::default();
    let mut cites: Vec<(u32, u32)> = Vec::new();
    let mut targets: Vec<Vec<u32>> = vec![Vec::new(); docs.len()];
    let n_docs = docs.len() as u32;
    let is_doc = |k: u32| k < n_docs;
    // Endpoints read in place: a mapped graph decoding and keeping its 373k edges here cost
    // ~0.7 s and ~200 MB at 100k (an index built after another command rebuilt the graph).
    for (kind, from, to) in graph.edge_endpoints() {
        match kind {
            EdgeKind::Cites => {
                let s = number(from);
                if is_doc(s) && is_section(s) {
                    cites.push((s, number(to)));
                }
            }
            EdgeKind::InFile | EdgeKind::Overlaps => {
                let t = number(to);
                if is_doc(t) {
                    located.entry(number(from)).or_default().push(t);
                }
            }
            EdgeKind::Contains => {
                let (a, s) = (number(from), number(to));
                if is_doc(a)
                    && is_doc(s)
                    && docs[a as usize].kind == NodeKind::Article
                    && is_section(s)
                {
                    targets[s as usize].push(a);
                }
            }
            _ => {}
        }
    }
    for (s, cited) in cites {
        // Every edge endpoint is a node (a graph invariant), as the adjacency walk required.
        if let Some(t) = located.get(&cited) {
            targets[s as usize].extend_from_slice(t);
        }
    }
    with_reverse_links(targets, docs)
}

/// Each section's targets (sorted, unique) as its links, and each section as a link of every
/// one of its targets: propagation runs both ways.
fn with_reverse_links(targets: Vec<Vec<u32>>, docs: &[Doc]) -> Vec<Vec<u32>> {
    let mut links: Vec<Vec<u32>> = vec![Vec::new(); docs.len()];
    for (i, mut t) in targets.into_iter().enumerate() {
        if docs[i].kind != NodeKind::Section {
            continue;
        }
        t.sort_unstable();
        t.dedup();
        for &x in &t {
            links[x as usize].push(i as u32);
        }
        links[i] = t;
    }
    for l in &mut links {
        l.sort_unstable();
        l.dedup();
    }
    links
}

#[cfg(test)]
mod tests {
    use super::*;
    use ontoly_graph::{CachePolicy, Session, SessionOptions};

    /// The links as they were first computed: each section's edges walked through the
    /// graph's adjacency.
    fn links_by_adjacency(graph: &Graph, docs: &[Doc]) -> Vec<Vec<u32>> {
        let doc_of = |id: &str| {
            docs.binary_search_by(|d| d.id.as_str().cmp(id))
                .ok()
                .map(|i| i as u32)
        };
        use rayon::prelude::*;
        // Each section's targets in parallel (graph reads only), then the reverse links in order.
        graph.prepare_adjacency();
        let targets: Vec<Vec<u32>> = docs
            .par_iter()
            .map(|d| {
                let mut targets = Vec::new();
                if d.kind != NodeKind::Section {
                    return targets;
                }
                for c in graph.out_edges(&d.id, Some(EdgeKind::Cites)) {
                    for e in graph.out_edges(&c.to, None) {
                        if matches!(e.kind, EdgeKind::InFile | EdgeKind::Overlaps) {
                            targets.extend(doc_of(&e.to));
                        }
                    }
                }
                for e in graph.in_edges(&d.id, Some(EdgeKind::Contains)) {
                    if let Some(a) = doc_of(&e.from) {
                        if docs[a as usize].kind == NodeKind::Article {
                            targets.push(a);
                        }
                    }
                }
                targets
            })
            .collect();
        with_reverse_links(targets, docs)
    }

    /// The graph's documents, as [`Index::build`] takes them.
    fn docs_of(graph: &Graph) -> Vec<Doc> {
        graph
            .nodes()
            .filter(|n| indexed(n.kind))
            .map(|n| Doc {
                id: n.id.clone(),
                kind: n.kind,
            })
            .collect()
    }

    #[test]
    fn links_from_one_pass_are_the_adjacency_walks() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata");
        let mut checked = 0;
        for ws in [
            "demo",
            "fixtures/references",
            "fixtures/sources",
            "fixtures/valid",
        ] {
            let ws = root.join(ws);
            let session = Session::open(
                SessionOptions::new(&ws)
                    .workspace(&ws)
                    .cache(CachePolicy::Off),
            )
            .expect("the workspace opens");
            let graph = session.graph().expect("the graph builds");
            let docs = docs_of(graph);
            let links = build_links(graph, &docs);
            assert_eq!(links, links_by_adjacency(graph, &docs), "{}", ws.display());
            checked += links.iter().filter(|l| !l.is_empty()).count();
        }
        assert!(checked > 20, "links to compare: {checked}");
    }

    /// A workspace of `articles` pages of 20 sections each, in words drawn log-uniformly from
    /// 512 made-up ones (a few common, most rare, as in prose), from a fixed seed.
    fn zipf_workspace(root: &std::path::Path, articles: usize) {
        let syl = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi"];
        let word = |i: usize| format!("{}{}{}", syl[i % 8], syl[(i / 8) % 8], syl[(i / 64) % 8]);
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut draw = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let r = (seed >> 11) as f64 / (1u64 << 53) as f64;
            512f64.powf(r) as usize - 1
        };
        let mut structure =
            String::from("schema_version: context.approved-structure.v1\narticles:\n");
        std::fs::create_dir_all(root.join("knowledge/pages")).expect("mkdir");
        for a in 0..articles {
            let mut page = format!("# Page {a}\n\n");
            structure.push_str(&format!(
                "  - article_id: p{a}\n    path: pages/p{a}.md\n    collection: pages\n    visibility: public\n    sections:\n"
            ));
            for s in 0..20 {
                let heading: Vec<String> = (0..3).map(|_| word(draw())).collect();
                let body: Vec<String> = (0..30).map(|_| word(draw())).collect();
                page.push_str(&format!(
                    "<!-- context:section id=\"s{s}\" -->\n## {}\n\n{}.\n\n<!-- /context:section -->\n\n",
                    heading.join(" "),
                    body.join(" ")
                ));
                structure.push_str(&format!("      - id: s{s}\n        references: []\n"));
            }
            std::fs::write(root.join(format!("knowledge/pages/p{a}.md")), page).expect("page");
        }
        structure.push_str("processed_scopes: []\ninput_hash: sha256:0000\n");
        std::fs::write(root.join("knowledge/structure.yaml"), structure).expect("structure");
    }

    /// Sections in the order a ranking takes them: best score first, then by doc.
    fn best_sections(d: &Dense, keep: usize) -> Vec<(u32, Hit)> {
        let mut v: Vec<(u32, Hit)> = d
            .iter()
            .filter(|&(_, k, s)| k == NodeKind::Section && s > 0.0)
            .map(|(doc, _, _)| (doc, d.hit(doc)))
            .collect();
        v.sort_by(|a, b| b.1.score.total_cmp(&a.1.score).then(a.0.cmp(&b.0)));
        v.truncate(keep);
        v
    }

    /// A search that leaves sections unscored finds the same best sections, with the same
    /// scores and matched terms, as one that scores every posting; it scores every other kind
    /// of doc alike and counts the sections it left out, so the number matched is the same.
    #[test]
    fn a_pruned_search_keeps_the_best_sections_and_the_count() {
        let tmp = tempfile::tempdir().expect("tempdir");
        zipf_workspace(tmp.path(), 60);
        let graph = graph_of(tmp.path());
        let ix = Index::build(&graph);
        assert_eq!(ix.sections(), 1200);
        let p = Params::default();
        let mut pruned = 0;
        for q in 0..80usize {
            // Queries of 2 to 6 words, some in every page, some in a handful of sections.
            let words: Vec<String> = (0..2 + q % 5)
                .map(|i| {
                    let syl = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi"];
                    let w = ((q * 37 + i * 101) % 512) >> (i % 4 * 2);
                    format!("{}{}{}", syl[w % 8], syl[(w / 8) % 8], syl[(w / 64) % 8])
                })
                .collect();
            let (_, terms) = crate::retrieval::rank::analyze(&ix, &words.join(" "));
            let pairs: Vec<String> = words.windows(2).map(|w| bigram(&w[0], &w[1])).collect();
            let all = ix.search(&terms, &pairs, &p);
            assert_eq!(all.unscored(), 0);
            for keep in [5, 40, 400] {
                let best = ix.search_best(&terms, &pairs, &p, keep);
                pruned += best.unscored();
                let q = words.join(" ");
                assert_eq!(
                    best_sections(&best, keep),
                    best_sections(&all, keep),
                    "{q}, {keep}"
                );
                let positive = |d: &Dense| {
                    d.iter()
                        .filter(|&(_, k, s)| k == NodeKind::Section && s > 0.0)
                        .count()
                };
                assert_eq!(
                    positive(&best) + best.unscored(),
                    positive(&all),
                    "{q}, {keep}"
                );
                for (doc, kind, _) in all.iter().filter(|x| x.1 != NodeKind::Section) {
                    assert_eq!(best.hit(doc), all.hit(doc), "{q}, {keep}: {kind:?} {doc}");
                }
            }
        }
        // The test means something only if searches were pruned.
        assert!(pruned > 1000, "sections left unscored: {pruned}");
    }

    /// A copy of a workspace without its cache.
    fn copy(from: &std::path::Path, to: &std::path::Path) {
        std::fs::create_dir_all(to).expect("mkdir");
        for e in std::fs::read_dir(from).expect("read_dir") {
            let e = e.expect("entry");
            let (src, dst) = (e.path(), to.join(e.file_name()));
            if e.file_type().expect("type").is_dir() {
                if e.file_name() != ".ontoly" {
                    copy(&src, &dst);
                }
            } else {
                std::fs::copy(&src, &dst).expect("copy");
            }
        }
    }

    /// A copy of the demo workspace in a temporary directory (kept while the guard lives).
    fn demo_copy() -> (tempfile::TempDir, std::path::PathBuf) {
        let tmp = tempfile::tempdir().expect("tempdir");
        let ws = tmp.path().join("demo");
        let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/demo");
        copy(&demo, &ws);
        (tmp, ws)
    }

    /// The graph of a workspace, built without the cache.
    fn graph_of(ws: &std::path::Path) -> Graph {
        let session = Session::open(
            SessionOptions::new(ws)
                .workspace(ws)
                .cache(CachePolicy::Off),
        )
        .expect("the workspace opens");
        session.graph().expect("the graph builds").clone()
    }

    /// Replaces `from` by `to` in the workspace file `rel` (which must hold it).
    fn edit(ws: &std::path::Path, rel: &str, from: &str, to: &str) {
        let p = ws.join(rel);
        let text = std::fs::read_to_string(&p).expect("read");
        assert!(text.contains(from), "{rel} holds {from:?}");
        std::fs::write(&p, text.replacen(from, to, 1)).expect("write");
    }

    fn all_terms(ix: &Index) -> std::collections::BTreeSet<String> {
        let mut out = std::collections::BTreeSet::new();
        ix.terms_with_prefix("", |t, _| {
            out.insert(t.to_string());
            true
        });
        out
    }

    fn doc_ids(ix: &Index) -> Vec<String> {
        (0..ix.len() as u32).filter_map(|d| ix.doc_id(d)).collect()
    }

    /// An index updated from an earlier graph's is the index built from nothing, byte for
    /// byte: after a section's words change (terms appear and vanish), an article's title
    /// changes (every section of the article indexes it), sections come and go, and the graph
    /// changes while no document's fields do.
    #[test]
    fn an_updated_index_is_the_index_built_from_nothing() {
        type Edit = fn(&std::path::Path);
        let cases: [(&str, Edit); 4] = [
            ("words of one section", |ws| {
                edit(
                    ws,
                    "knowledge/guides/checkout.md",
                    "a non-numeric quantity or price",
                    "a quantity or price zyzzyva could not read",
                )
            }),
            ("an article's title", |ws| {
                edit(
                    ws,
                    "knowledge/guides/checkout.md",
                    "title: Checkout and payments",
                    "title: Checkout, payments and quokka refunds",
                )
            }),
            ("a section gone, another new", |ws| {
                let p = ws.join("knowledge/guides/checkout.md");
                let text = std::fs::read_to_string(&p).expect("read");
                let start = text.find("<!-- context:section id=\"cart-format\" -->");
                let start = start.expect("the cart-format section");
                let len = text[start..]
                    .find("<!-- /context:section -->")
                    .expect("its end");
                let gone = &text[start..start + len + "<!-- /context:section -->".len()];
                let new = "<!-- context:section id=\"gift-wrap\" -->\n## Gift wrapping\n\n\
                           Wrapping is a line of its own, `wrap:1:250`.\n\n<!-- /context:section -->";
                std::fs::write(&p, text.replacen(gone, new, 1)).expect("write");
                edit(
                    ws,
                    "knowledge/structure.yaml",
                    "      - id: cart-format\n",
                    "      - id: gift-wrap\n",
                );
            }),
            ("the graph, no document's fields", |ws| {
                edit(
                    ws,
                    "knowledge/structure.yaml",
                    "start_line: 30",
                    "start_line: 31",
                )
            }),
        ];
        for (name, change) in cases {
            let (_tmp, ws) = demo_copy();
            let base = Index::build(&graph_of(&ws));
            change(&ws);
            let graph = graph_of(&ws);
            assert_ne!(
                graph.hash, base.meta.graph_hash,
                "{name}: the graph changed"
            );
            let updated = Index::build_from(&graph, Some(&base));
            assert!(
                matches!(updated.origin(), Origin::Updated { tokenized } if tokenized > 0 || name.starts_with("the graph")),
                "{name}: the base was used: {:?}",
                updated.origin()
            );
            let built = Index::build(&graph);
            assert!(updated == built, "{name}: the same stored bytes");
            let (before, after) = (all_terms(&base), all_terms(&built));
            match name {
                "words of one section" | "an article's title" => {
                    assert!(
                        after.difference(&before).next().is_some(),
                        "{name}: a term came"
                    );
                }
                "a section gone, another new" => {
                    let (a, b) = (doc_ids(&base), doc_ids(&built));
                    assert!(a.iter().any(|d| !b.contains(d)), "{name}: a document went");
                    assert!(b.iter().any(|d| !a.contains(d)), "{name}: a document came");
                }
                _ => assert_eq!(before, after, "{name}"),
            }
            if name == "words of one section" {
                assert!(
                    before.difference(&after).next().is_some(),
                    "{name}: a term went"
                );
            }
        }
    }

    /// When too many documents changed, the base is not used; with a byte of the base flipped
    /// (every 61st, one at a time), the index is still the one built from nothing (a block that
    /// fails its sum voids the update; a byte the update does not read cannot change it).
    #[test]
    fn a_damaged_or_distant_base_never_changes_the_index() {
        let (_tmp, ws) = demo_copy();
        let base = Index::build(&graph_of(&ws));
        let bytes = base.to_bytes();
        // Every page's words: far more than one document in eight.
        for e in std::fs::read_dir(ws.join("knowledge/guides")).expect("guides") {
            let p = e.expect("entry").path();
            let text = std::fs::read_to_string(&p).expect("read");
            std::fs::write(&p, text.replace("the ", "a ")).expect("write");
        }
        let graph = graph_of(&ws);
        let built = Index::build(&graph);
        let updated = Index::build_from(&graph, Some(&base));
        assert_eq!(
            updated.origin(),
            Origin::Built,
            "too many changed documents"
        );
        assert!(updated == built);

        // One section's words changed: the update runs on an intact base.
        let (_tmp, ws) = demo_copy();
        edit(
            &ws,
            "knowledge/guides/checkout.md",
            "Blank rows are",
            "Empty rows are",
        );
        let graph = graph_of(&ws);
        let built = Index::build(&graph);
        let intact = Index::from_container_of_any_graph(
            snapshot::artifact_from_bytes(bytes.clone(), &base.meta.graph_hash)
                .expect("the base opens"),
        )
        .expect("the base reads");
        assert_eq!(
            Index::build_from(&graph, Some(&intact)).origin(),
            Origin::Updated { tokenized: 1 },
            "an intact base is used; one section changed"
        );
        let (mut declined, mut flips) = (0, 0);
        for at in (0..bytes.len()).step_by(61) {
            let mut bad = bytes.clone();
            bad[at] ^= 0x5A;
            let Ok(c) = snapshot::artifact_from_bytes(bad, &base.meta.graph_hash) else {
                continue; // the header's own sum
            };
            let Ok(damaged) = Index::from_container_of_any_graph(c) else {
                continue; // a section the open reads whole
            };
            let updated = Index::build_from(&graph, Some(&damaged));
            assert!(updated == built, "byte {at} flipped");
            flips += 1;
            declined += usize::from(updated.origin() == Origin::Built);
        }
        assert!(
            flips > 50 && declined > 10,
            "{flips} flips, {declined} declined"
        );
    }

    /// A graph read from its snapshot gives each endpoint as its node's one stored string, read
    /// in place, where a built graph gives the build's shared id: the links must come out the
    /// same.
    #[test]
    fn links_of_a_mapped_graph_are_those_of_the_built_one() {
        let (_tmp, ws) = demo_copy();
        let open =
            || Session::open(SessionOptions::new(&ws).workspace(&ws)).expect("the workspace opens");
        let built = open();
        let built_graph = built.graph().expect("the graph builds");
        assert!(built_graph.parts().is_some(), "a first open builds");
        let mapped = open();
        let mapped_graph = mapped.graph().expect("the snapshot opens");
        assert!(
            mapped_graph.parts().is_none(),
            "a second open maps the snapshot"
        );
        let mapped_docs = docs_of(mapped_graph);
        let expected = links_by_adjacency(mapped_graph, &mapped_docs);
        assert_eq!(build_links(mapped_graph, &mapped_docs), expected);
        assert_eq!(build_links(built_graph, &docs_of(built_graph)), expected);
        assert!(expected.iter().filter(|l| !l.is_empty()).count() > 20);
    }
}
