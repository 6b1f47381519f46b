//! The retrieval index: an inverted index over the fields of sections, articles, files and
//! symbols, scored with BM25F.
//!
//! A section is indexed in five fields: its heading, its section id, its body, its article's
//! title and description, and the names of what it cites (symbols and file paths). Field
//! weights and length normalisation are applied at query time ([`Params`]), so one stored index
//! serves any weighting, and the weights can be fit on one question set and tested on another
//! (`examples/quality.rs`).
//!
//! Built once with the graph and stored in the snapshot ([`Index::to_bytes`]); a query only
//! walks the postings of its own terms. The layout is flat arrays (postings as `Vec<u32>` with
//! offsets), so it can later be mapped from disk as it is. Our own BM25F rather than a search
//! library: the corpus is small documents, the tokenizer must understand identifiers and flags,
//! and the postings must serialize deterministically next to the graph.

use super::builder::{self, DocFields};
use super::columns::{delta_vec, le_vec, varint_vec, Postings, Strings};
use ontoly_graph::graph::model::{EdgeKind, Node, NodeKind};
use ontoly_graph::graph::Graph;
use ontoly_graph::{Session, SessionError};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

pub use super::tokens::{query_terms, tokenize, QueryTerm, MAX_QUERY_TERMS};

/// Name of the snapshot artifact that holds the index of a graph.
pub const INDEX_ARTIFACT: &str = "search-index";

/// Format version of the serialized index; bump when the layout or tokenizer changes.
pub const INDEX_VERSION: &str = "ontoly.index.v11";

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

/// Scoring parameters (BM25F). The shipped values are fit on one question set and tested on
/// the others; see docs/evidence.md.
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
            k1: 1.2,
            b: [0.3, 0.0, 0.75, 0.3, 0.5],
            weight: [2.5, 1.5, 1.0, 0.6, 0.5],
            pair_weight: 0.5,
        }
    }
}

/// One indexed document: a node and its length in tokens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Doc {
    /// The node id.
    pub id: String,
    /// The node kind.
    pub kind: NodeKind,
    /// Length in tokens, all fields.
    pub len: u32,
}

/// `#[serde(with = "docs_column")]`: the documents as columns (ids front-coded, as they are
/// sorted and share their page's path; kinds as bytes; lengths as varints).
mod docs_column {
    use super::*;

    #[derive(Serialize, Deserialize)]
    struct Columns {
        ids: Strings,
        #[serde(with = "le_vec")]
        kinds: Vec<u8>,
        #[serde(with = "varint_vec")]
        lens: Vec<u32>,
    }

    pub fn serialize<S: serde::Serializer>(docs: &[Doc], s: S) -> Result<S::Ok, S::Error> {
        Columns {
            ids: Strings::new(docs.iter().map(|d| d.id.as_str())),
            kinds: docs
                .iter()
                .map(|d| NodeKind::ALL.iter().position(|&k| k == d.kind).unwrap_or(0) as u8)
                .collect(),
            lens: docs.iter().map(|d| d.len).collect(),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Doc>, D::Error> {
        use serde::de::Error;
        let c = Columns::deserialize(d)?;
        if c.kinds.len() != c.ids.len() || c.lens.len() != c.ids.len() {
            return Err(D::Error::custom("document columns of different lengths"));
        }
        (0..c.ids.len())
            .map(|i| {
                let kind = NodeKind::ALL
                    .get(c.kinds[i] as usize)
                    .ok_or_else(|| D::Error::custom("unknown node kind"))?;
                Ok(Doc {
                    id: c.ids.get(i).to_string(),
                    kind: *kind,
                    len: c.lens[i],
                })
            })
            .collect()
    }
}

/// Dense search results: per doc its score and which query terms it matched in its own text,
/// its article and its code (zero when untouched), and the docs hit.
#[derive(Debug, Clone, PartialEq)]
pub struct Dense {
    /// BM25F score per doc.
    pub score: Vec<f64>,
    /// Query terms (bit per term) matched in the doc's own fields.
    pub own: Vec<u64>,
    /// Query terms matched in the doc's article field.
    pub art: Vec<u64>,
    /// Query terms matched in the doc's code field.
    pub code: Vec<u64>,
    /// Pairs of neighbouring query words found together in the doc (heading or body).
    pub pair_hits: Vec<u16>,
    /// Docs with at least one term, in doc order.
    pub touched: Vec<u32>,
}

impl Dense {
    /// Terms matched in any field.
    pub fn mask(&self, doc: u32) -> u64 {
        let d = doc as usize;
        self.own[d] | self.art[d] | self.code[d]
    }
}

/// The inverted index. Terms are sorted (binary search, deterministic bytes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Index {
    /// [`INDEX_VERSION`].
    pub version: String,
    /// Hash of the graph this index was built from.
    pub graph_hash: String,
    /// Documents in node-id order.
    #[serde(with = "docs_column")]
    pub docs: Vec<Doc>,
    /// Sorted distinct terms.
    terms: Strings,
    /// Postings of `terms[i]` are `postings[term_start[i]..term_start[i + 1]]`, by doc then
    /// field.
    #[serde(with = "delta_vec")]
    term_start: Vec<u32>,
    /// The postings: (doc, field, term frequency in that field). Stored as sections of their
    /// own beside the rest ([`Index::to_sections`]), so a query process maps them and reads only
    /// its terms' ranges.
    #[serde(skip)]
    postings: Postings,
    /// Per term: sections holding it in any field.
    #[serde(with = "varint_vec")]
    df_section: Vec<u32>,
    /// Per term: documents of any kind holding it.
    #[serde(with = "varint_vec")]
    df_all: Vec<u32>,
    /// Sections indexed.
    n_sections: u32,
    /// Per doc and field (`doc * FIELDS + field`): length in tokens.
    #[serde(with = "varint_vec")]
    field_len: Vec<u32>,
    /// Per node kind and field (`kind * FIELDS + field`): average length (at least 1).
    #[serde(with = "le_vec")]
    avg_len: Vec<f64>,
    /// Propagation links of doc `d` are `links[link_start[d]..link_start[d + 1]]`: for a
    /// section, the file and symbol docs it cites and its article doc; for a file, symbol or
    /// article, the section docs citing or holding it. Precomputed so a query never walks the
    /// graph for ranking.
    #[serde(with = "delta_vec")]
    link_start: Vec<u32>,
    /// See `link_start`.
    #[serde(with = "varint_vec")]
    links: Vec<u32>,
    /// The graph's facts, counted once at build (a pack reports them on every query).
    pub facts: crate::walk::GraphFacts,
    /// Ids of the graph's error-severity `Diagnostic` nodes, in id order (a pack on a broken
    /// workspace carries them).
    pub errors: Vec<String>,
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
            f[F_HEADING] = Cow::Borrowed(&n.name);
            f[F_BODY] = Cow::Borrowed(n.metadata.get("kind").map_or("", String::as_str));
        }
        _ => return None,
    }
    Some(f)
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

impl Index {
    /// Indexes every section, article, file and symbol of `graph`.
    pub fn build(graph: &Graph) -> Index {
        use rayon::prelude::*;
        let nodes: Vec<&Node> = graph
            .nodes()
            .filter(|n| {
                matches!(
                    n.kind,
                    NodeKind::Section | NodeKind::Article | NodeKind::File | NodeKind::Symbol
                )
            })
            .collect();
        let mut docs: Vec<Doc> = nodes
            .iter()
            .map(|n| Doc {
                id: n.id.clone(),
                kind: n.kind,
                len: 0,
            })
            .collect();
        let link_lists = build_links(graph, &docs);
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
        let built = builder::build(&fields);
        drop(fields);
        for (doc, &len) in docs.iter_mut().zip(&built.doc_len) {
            doc.len = len;
        }
        let field_len = built.field_len;
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
        let (terms, term_start) = (built.terms, built.term_start);
        let (post_doc, post_field, post_tf) = (built.post_doc, built.post_field, built.post_tf);
        let (df_section, df_all) = (built.df_section, built.df_all);
        let mut link_start = vec![0u32];
        let mut links = Vec::new();
        for l in link_lists {
            links.extend(l);
            link_start.push(links.len() as u32);
        }
        let n_sections = docs.iter().filter(|d| d.kind == NodeKind::Section).count() as u32;
        Index {
            version: INDEX_VERSION.to_string(),
            graph_hash: graph.hash.clone(),
            docs,
            terms,
            term_start,
            postings: Postings::owned(post_doc, post_field, post_tf),
            df_section,
            df_all,
            n_sections,
            field_len,
            avg_len,
            link_start,
            links,
            facts: crate::walk::GraphFacts::of(graph),
            errors: graph
                .nodes_of(NodeKind::Diagnostic)
                .filter(|n| {
                    crate::walk::diagnostic_of_node(n).severity
                        == ontoly_graph::diagnostics::Severity::Error
                })
                .map(|n| n.id.clone())
                .collect(),
        }
    }

    /// The serialized index (postcard, the postings as little-endian blocks after the rest),
    /// deterministic for a given graph.
    pub fn to_bytes(&self) -> Vec<u8> {
        postcard::to_stdvec(&(self, &self.postings)).unwrap_or_default()
    }

    /// The index as named sections of a container: `index` (everything but the postings,
    /// postcard, counts and offsets as varints) and the postings, compressed in runs a reader
    /// maps and decodes a term's range at a time (see [`Postings`]).
    pub fn to_sections(&self) -> Vec<(&'static str, Vec<u8>)> {
        let mut out = vec![("index", postcard::to_stdvec(self).unwrap_or_default())];
        out.extend(self.postings.blocks());
        out
    }

    /// Decodes a stored index and checks that it was built from `graph`.
    pub fn from_bytes(bytes: &[u8], graph: &Graph) -> Result<Index, IndexError> {
        let (mut ix, postings): (Index, Postings) =
            postcard::from_bytes(bytes).map_err(|e| IndexError::Corrupt(e.to_string()))?;
        ix.postings = postings;
        ix.checked(graph)
    }

    /// The index stored as sections in `c` ([`Index::to_sections`]): all but the postings is
    /// decoded, the postings are read in place, block by block, as queries reach them.
    pub fn from_container(
        c: ontoly_graph::graph::store::container::Container,
        graph: &Graph,
    ) -> Result<Index, IndexError> {
        let meta = c
            .section("index")
            .and_then(|s| s.all())
            .ok_or_else(|| IndexError::Corrupt("no index section".into()))?;
        let mut ix: Index =
            postcard::from_bytes(meta).map_err(|e| IndexError::Corrupt(e.to_string()))?;
        ix.postings = Postings::mapped(c).ok_or_else(|| IndexError::Corrupt("postings".into()))?;
        ix.checked(graph)
    }

    /// `self` when it is of this version, for `graph`, and its columns agree with each other.
    fn checked(self, graph: &Graph) -> Result<Index, IndexError> {
        let ix = self;
        if ix.version != INDEX_VERSION {
            return Err(IndexError::Version(ix.version));
        }
        if ix.graph_hash != graph.hash {
            return Err(IndexError::Stale);
        }
        let n = ix.docs.len();
        let consistent = ix.term_start.len() == ix.terms.len() + 1
            && ix
                .term_start
                .last()
                .is_some_and(|&e| e as usize == ix.postings.len())
            && ix.df_section.len() == ix.terms.len()
            && ix.df_all.len() == ix.terms.len()
            && ix.field_len.len() == n * FIELDS
            && ix.avg_len.len() == NodeKind::ALL.len() * FIELDS
            && ix.link_start.len() == n + 1
            && ix
                .link_start
                .last()
                .is_some_and(|&e| e as usize == ix.links.len())
            && ix.terms.is_consistent()
            && ix.term_start.windows(2).all(|w| w[0] <= w[1])
            && ix.link_start.windows(2).all(|w| w[0] <= w[1])
            && ix.postings.owned_within(n, FIELDS)
            && ix.links.iter().all(|&d| (d as usize) < n);
        if !consistent {
            return Err(IndexError::Corrupt("inconsistent lengths".into()));
        }
        Ok(ix)
    }

    /// True when a read of the mapped postings failed its checksum: results computed from this
    /// index may miss what the block held.
    pub fn is_corrupt(&self) -> bool {
        self.postings.is_corrupt()
    }

    /// The index of a session's graph: the one stored beside the snapshot for exactly this
    /// graph (mapped; checked whole first when the session distrusts its snapshot), or a new one
    /// (then stored, atomically, for the next process). A session without the cache never
    /// touches the disk.
    pub fn open(session: &Session) -> Result<Index, SessionError> {
        let graph = session.graph()?;
        let stored = session
            .open_artifact(INDEX_ARTIFACT)
            .filter(|c| !session.verifies_snapshot() || c.verify_all())
            .and_then(|c| Index::from_container(c, graph).ok());
        if let Some(ix) = stored {
            return Ok(ix);
        }
        // Stage timings on stderr with `ONTOLY_TIMINGS`, as the graph build prints its own.
        let timings = std::env::var_os("ONTOLY_TIMINGS").map(|_| std::time::Instant::now());
        let ix = Index::build(graph);
        let built = timings.map(|t| {
            eprintln!("{:>8.3}s  search index build", t.elapsed().as_secs_f64());
            std::time::Instant::now()
        });
        let sections = ix.to_sections();
        let parts: Vec<(&str, &[u8])> = sections.iter().map(|(n, b)| (*n, b.as_slice())).collect();
        session.store_artifact_sections(INDEX_ARTIFACT, &parts);
        if let Some(t) = built {
            eprintln!("{:>8.3}s  search index store", t.elapsed().as_secs_f64());
        }
        Ok(ix)
    }

    /// Number of indexed documents.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// True when nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// Number of sections indexed.
    pub fn sections(&self) -> usize {
        self.n_sections as usize
    }

    fn term_id(&self, term: &str) -> Option<usize> {
        self.terms.find(term)
    }

    /// Number of documents (of any kind) containing `term`.
    pub fn df(&self, term: &str) -> usize {
        self.term_id(term).map_or(0, |i| self.df_all[i] as usize)
    }

    /// Number of sections containing `term` in any field.
    pub fn df_sections(&self, term: &str) -> usize {
        self.term_id(term)
            .map_or(0, |i| self.df_section[i] as usize)
    }

    /// Inverse document frequency of `term` among sections (BM25, never negative). A term
    /// absent from the corpus gets the highest value, so an unknown word weighs fully against
    /// coverage.
    pub fn idf(&self, term: &str) -> f64 {
        bm25_idf(f64::from(self.n_sections), self.df_sections(term) as f64)
    }

    /// Indexed terms that start with `prefix`, in order (for spelling suggestions).
    pub fn terms_with_prefix<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        let from = self.terms.lower_bound(prefix);
        (from..self.terms.len())
            .map(|i| self.terms.get(i))
            .take_while(move |t| t.starts_with(prefix))
    }

    /// Scores every document containing at least one of `terms` (each with a weight that
    /// multiplies its idf; 1 for a term as typed) with BM25F under `p`.
    pub fn search(&self, terms: &[(String, f64)], pairs: &[String], p: &Params) -> Dense {
        let n = self.docs.len();
        let mut score = vec![0f64; n];
        let mut own = vec![0u64; n];
        let mut art = vec![0u64; n];
        let mut code = vec![0u64; n];
        let mut pair_hits = vec![0u16; n];
        let mut touched = Vec::new();
        let n_sec = f64::from(self.n_sections);
        let n_all = n as f64;
        let terms = terms
            .iter()
            .take(MAX_QUERY_TERMS)
            .map(|(t, w)| (t, *w, true));
        let pairs = pairs.iter().map(|t| (t, p.pair_weight, false));
        for (i, (t, w, counted)) in terms.chain(pairs).enumerate() {
            if w <= 0.0 {
                continue;
            }
            let Some(ti) = self.term_id(t) else {
                continue;
            };
            let bit = if counted { 1u64 << i } else { 0 };
            let idf_sec = w * bm25_idf(n_sec, f64::from(self.df_section[ti]));
            let idf_all = w * bm25_idf(n_all, f64::from(self.df_all[ti]));
            let (post_doc, post_field, post_tf) = self.postings.range(
                self.term_start[ti] as usize,
                self.term_start[ti + 1] as usize,
            );
            let (post_doc, post_field, post_tf) = (&*post_doc, &*post_field, &*post_tf);
            let b = post_doc.len();
            let mut k = 0;
            while k < b {
                let d = post_doc[k] as usize;
                if d >= n || post_field[k] as usize >= FIELDS {
                    // Only a mapped index can hold this (its blocks passed their sums, so it
                    // was written so); skip rather than index out of bounds.
                    k += 1;
                    continue;
                }
                let kind = self.docs[d].kind;
                if score[d] == 0.0 && own[d] | art[d] | code[d] == 0 {
                    touched.push(d as u32);
                }
                let mut wtf = 0.0;
                if !counted {
                    pair_hits[d] = pair_hits[d].saturating_add(1);
                }
                while k < b && post_doc[k] as usize == d && (post_field[k] as usize) < FIELDS {
                    let f = post_field[k] as usize;
                    let tf = f64::from(post_tf[k]);
                    let len = f64::from(self.field_len[d * FIELDS + f]);
                    let avg = self.avg_len[kind as usize * FIELDS + f];
                    wtf += p.weight[f] * tf / (1.0 - p.b[f] + p.b[f] * len / avg);
                    match f {
                        F_ARTICLE => art[d] |= bit,
                        F_CODE => code[d] |= bit,
                        _ => own[d] |= bit,
                    }
                    k += 1;
                }
                let idf = if kind == NodeKind::Section {
                    idf_sec
                } else {
                    idf_all
                };
                score[d] += idf * wtf * (p.k1 + 1.0) / (p.k1 + wtf);
            }
        }
        touched.sort_unstable();
        Dense {
            score,
            own,
            art,
            code,
            pair_hits,
            touched,
        }
    }

    /// Propagation links of a doc (see the field's description), sorted.
    pub fn links(&self, doc: u32) -> &[u32] {
        let d = doc as usize;
        match (self.link_start.get(d), self.link_start.get(d + 1)) {
            (Some(&a), Some(&b)) => &self.links[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The document index of a node id.
    pub fn doc_of(&self, id: &str) -> Option<u32> {
        self.docs
            .binary_search_by(|d| d.id.as_str().cmp(id))
            .ok()
            .map(|i| i as u32)
    }
}

fn build_links(graph: &Graph, docs: &[Doc]) -> Vec<Vec<u32>> {
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
            targets.sort_unstable();
            targets.dedup();
            targets
        })
        .collect();
    let mut links: Vec<Vec<u32>> = vec![Vec::new(); docs.len()];
    for (i, targets) in targets.into_iter().enumerate() {
        if docs[i].kind != NodeKind::Section {
            continue;
        }
        for &t in &targets {
            links[t as usize].push(i as u32);
        }
        links[i] = targets;
    }
    for l in &mut links {
        l.sort_unstable();
        l.dedup();
    }
    links
}
