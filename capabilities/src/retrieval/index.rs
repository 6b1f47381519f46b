//! The retrieval index: identifier-aware tokens, an inverted index over sections, articles,
//! files and symbols, and BM25 scoring.
//!
//! Built once with the graph and stored in the snapshot ([`Index::to_bytes`]); a query only
//! walks the postings of its own terms. Our own BM25 rather than a search library: the corpus is
//! small (tens of thousands of short documents), the tokenizer must understand identifiers, and
//! the postings must serialize deterministically next to the graph (see `benches/` for figures).

use ontoly_graph::graph::model::{EdgeKind, Node, NodeKind};
use ontoly_graph::graph::Graph;
use ontoly_graph::{Session, SessionError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Name of the snapshot artifact that holds the index of a graph.
pub const INDEX_ARTIFACT: &str = "search-index";

/// Format version of the serialized index; bump when the layout or tokenizer changes.
pub const INDEX_VERSION: &str = "ontoly.index.v3";

/// BM25 term-frequency saturation.
const K1: f64 = 1.2;
/// BM25 length normalization.
const B: f64 = 0.75;
/// At most this many distinct query terms are scored (the match mask is a `u64`).
pub const MAX_QUERY_TERMS: usize = 64;

const STOPWORDS: &[&str] = &[
    "a",
    "about",
    "across",
    "after",
    "all",
    "also",
    "although",
    "am",
    "among",
    "an",
    "and",
    "another",
    "any",
    "anything",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "both",
    "but",
    "by",
    "can",
    "cannot",
    "certain",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "done",
    "during",
    "each",
    "either",
    "else",
    "ever",
    "every",
    "everything",
    "for",
    "from",
    "get",
    "gets",
    "got",
    "had",
    "happen",
    "happened",
    "happening",
    "happens",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "him",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "just",
    "kind",
    "least",
    "less",
    "many",
    "maybe",
    "me",
    "mean",
    "means",
    "meant",
    "more",
    "most",
    "much",
    "must",
    "my",
    "neither",
    "no",
    "nor",
    "not",
    "nothing",
    "now",
    "of",
    "often",
    "on",
    "once",
    "one",
    "ones",
    "only",
    "onto",
    "or",
    "other",
    "our",
    "out",
    "over",
    "own",
    "per",
    "perhaps",
    "please",
    "quite",
    "rather",
    "really",
    "regarding",
    "said",
    "same",
    "say",
    "says",
    "several",
    "she",
    "should",
    "since",
    "so",
    "some",
    "something",
    "sometimes",
    "somewhat",
    "still",
    "such",
    "sure",
    "tell",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "thing",
    "things",
    "this",
    "those",
    "though",
    "through",
    "to",
    "together",
    "too",
    "toward",
    "towards",
    "under",
    "until",
    "up",
    "upon",
    "us",
    "use",
    "used",
    "using",
    "very",
    "via",
    "want",
    "wants",
    "was",
    "way",
    "ways",
    "we",
    "were",
    "what",
    "when",
    "where",
    "whether",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "within",
    "without",
    "would",
    "yet",
    "you",
    "your",
];

fn is_stopword(t: &str) -> bool {
    STOPWORDS.binary_search(&t).is_ok()
}

/// A light suffix stemmer (a small subset of Porter's steps), applied alike to documents and
/// queries so `retried`/`retries`/`retry`, `cancelled`/`cancel`, `configure`/`configuration`
/// and `charging`/`charge` meet. Words with digits or non-ASCII letters are kept whole.
fn stem(word: &str) -> String {
    let mut w = word.to_ascii_lowercase();
    if !w.bytes().all(|b| b.is_ascii_lowercase()) || w.len() <= 3 {
        return w;
    }
    let strip = |w: &mut String, suffix: &str, replace: &str, min_stem: usize| -> bool {
        if w.len() >= suffix.len() + min_stem && w.ends_with(suffix) {
            w.truncate(w.len() - suffix.len());
            w.push_str(replace);
            true
        } else {
            false
        }
    };
    // Plurals and third person.
    let plural = strip(&mut w, "sses", "ss", 1) || strip(&mut w, "ies", "y", 2);
    let keeps_s = ["ss", "us", "is"].iter().any(|x| w.ends_with(x));
    if !plural && !keeps_s && w.ends_with('s') {
        w.pop();
    }
    // Past tense, gerund and the common nominal suffixes.
    let _ = strip(&mut w, "ied", "y", 2)
        || strip(&mut w, "iation", "", 4)
        || strip(&mut w, "ation", "", 4)
        || strip(&mut w, "ing", "", 3)
        || strip(&mut w, "ed", "", 3)
        || strip(&mut w, "er", "", 4)
        || strip(&mut w, "ly", "", 4);
    // A final silent e, then a doubled final consonant (s and z stay doubled).
    if w.len() > 3 && w.ends_with('e') {
        w.pop();
    }
    let b = w.as_bytes();
    let n = b.len();
    if n > 3 && b[n - 1] == b[n - 2] && !b"aeiousz".contains(&b[n - 1]) {
        w.pop();
    }
    w
}

/// Splits one identifier into its words: `parseSections` → parse, Sections; `HTTPServer` →
/// HTTP, Server; `snake_case`, `a/b.rs`, `mod::fn` → their parts.
fn split_identifier(chunk: &str, out: &mut Vec<String>) {
    for part in chunk.split(|c: char| !c.is_alphanumeric()) {
        if part.is_empty() {
            continue;
        }
        let chars: Vec<char> = part.chars().collect();
        let mut start = 0;
        for i in 1..chars.len() {
            let (p, c) = (chars[i - 1], chars[i]);
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if (p.is_lowercase() && c.is_uppercase())
                || (p.is_uppercase() && c.is_uppercase() && next_lower)
            {
                out.push(chars[start..i].iter().collect());
                start = i;
            }
        }
        out.push(chars[start..].iter().collect());
    }
}

/// Identifier-aware tokens of `text`, in order, with repeats (term frequency matters).
///
/// A compound chunk (`graph/src/text.rs`, `parse_sections`, `parseSections`, `a::b`) yields its
/// whole lowercased form, so an exact identifier or path matches strongly, plus each of its
/// words, so a natural-language question still finds it. Words are lowercased and plural-folded;
/// stopwords and one-letter words are dropped.
pub fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut parts = Vec::new();
    for raw in text.split(|c: char| !(c.is_alphanumeric() || "_./:-#".contains(c))) {
        let chunk = raw.trim_matches(|c: char| !c.is_alphanumeric());
        if chunk.is_empty() {
            continue;
        }
        parts.clear();
        split_identifier(chunk, &mut parts);
        if parts.len() > 1 {
            out.push(chunk.to_lowercase());
        }
        for p in &parts {
            if is_stopword(&p.to_lowercase()) {
                continue;
            }
            let t = stem(p);
            if t.chars().count() > 1 && !is_stopword(&t) {
                out.push(t);
            }
        }
    }
    out
}

/// Distinct query terms in first-seen order, at most [`MAX_QUERY_TERMS`].
pub fn query_terms(query: &str) -> Vec<String> {
    let mut seen = std::collections::BTreeSet::new();
    let mut terms = Vec::new();
    for t in tokenize(query) {
        if terms.len() == MAX_QUERY_TERMS {
            break;
        }
        if seen.insert(t.clone()) {
            terms.push(t);
        }
    }
    terms
}

/// One indexed document: a node and its length in tokens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Doc {
    /// The node id.
    pub id: String,
    /// The node kind.
    pub kind: NodeKind,
    /// Length in tokens.
    pub len: u32,
}

/// A scored document of one query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// Index into [`Index::docs`].
    pub doc: u32,
    /// BM25 score.
    pub score: f64,
    /// Bit `i` set when query term `i` occurs in the document.
    pub mask: u64,
}

/// Dense search results: `score[doc]`, `mask[doc]` (zero when untouched), and the docs hit.
#[derive(Debug, Clone, PartialEq)]
pub struct Dense {
    /// BM25 score per doc.
    pub score: Vec<f64>,
    /// Matched query terms per doc.
    pub mask: Vec<u64>,
    /// Docs with at least one term, in doc order.
    pub touched: Vec<u32>,
}

/// The inverted index. Terms are sorted (binary search, deterministic bytes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Index {
    /// [`INDEX_VERSION`].
    pub version: String,
    /// Hash of the graph this index was built from.
    pub graph_hash: String,
    /// Documents in node-id order.
    pub docs: Vec<Doc>,
    /// Sorted distinct terms.
    terms: Vec<String>,
    /// Postings of `terms[i]`: `(doc, term frequency)` in doc order.
    postings: Vec<Vec<(u32, u32)>>,
    /// Average document length per node kind (BM25 compares like with like).
    avg_len: BTreeMap<NodeKind, f64>,
    /// Propagation links, by doc: for a section, the file and symbol docs it cites and its
    /// article doc; for a file, symbol or article, the section docs citing or holding it.
    /// Precomputed so a query never walks the graph for ranking.
    links: Vec<Vec<u32>>,
    /// `K1 · (1 − B + B · len / avg_len[kind])` per doc: the BM25 length normalization,
    /// precomputed so scoring a posting is one multiply-add.
    norms: Vec<f64>,
    /// The graph's facts, counted once at build (a pack reports them on every query).
    pub facts: crate::walk::GraphFacts,
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

/// The searchable text of a node: its name and stored text, with names and headings repeated
/// so that a title match outweighs a passing mention in a body.
fn node_text(graph: &Graph, n: &Node) -> Option<String> {
    let body = graph.text(&n.id).unwrap_or("");
    match n.kind {
        NodeKind::Section => {
            // The heading twice (a title match outweighs a passing mention), the section id
            // once (slugs are often the best keywords), then the body.
            let heading = n
                .metadata
                .get("heading")
                .or_else(|| n.metadata.get("title"))
                .unwrap_or(&n.name);
            let sid = n
                .metadata
                .get("section_id")
                .map(String::as_str)
                .unwrap_or("");
            Some(format!("{heading} {heading} {sid} {body}"))
        }
        NodeKind::Article => {
            // Article texts already hold the title and description.
            let title = n.metadata.get("title").unwrap_or(&n.name);
            Some(format!("{title} {body}"))
        }
        NodeKind::File => {
            let path = n
                .span
                .as_ref()
                .map(|s| s.file.as_str())
                .or(n.file.as_deref())
                .unwrap_or(&n.name);
            Some(format!("{path} {body}"))
        }
        NodeKind::Symbol => {
            let kind = n.metadata.get("kind").map(String::as_str).unwrap_or("");
            Some(format!("{0} {0} {kind} {body}", n.name))
        }
        _ => None,
    }
}

impl Index {
    /// Indexes every section, article, file and symbol of `graph`.
    pub fn build(graph: &Graph) -> Index {
        let mut docs = Vec::new();
        let mut tf_by_doc: Vec<BTreeMap<String, u32>> = Vec::new();
        for n in graph.nodes() {
            let Some(text) = node_text(graph, n) else {
                continue;
            };
            let toks = tokenize(&text);
            let mut tf = BTreeMap::new();
            for t in &toks {
                *tf.entry(t.clone()).or_insert(0u32) += 1;
            }
            docs.push(Doc {
                id: n.id.clone(),
                kind: n.kind,
                len: toks.len() as u32,
            });
            tf_by_doc.push(tf);
        }
        let mut by_term: BTreeMap<String, Vec<(u32, u32)>> = BTreeMap::new();
        for (d, tf) in tf_by_doc.into_iter().enumerate() {
            for (t, f) in tf {
                by_term.entry(t).or_default().push((d as u32, f));
            }
        }
        let mut sums: BTreeMap<NodeKind, (f64, f64)> = BTreeMap::new();
        for d in &docs {
            let e = sums.entry(d.kind).or_insert((0.0, 0.0));
            e.0 += f64::from(d.len);
            e.1 += 1.0;
        }
        let avg_len: BTreeMap<NodeKind, f64> = sums
            .into_iter()
            .map(|(k, (s, c))| (k, if c > 0.0 { (s / c).max(1.0) } else { 1.0 }))
            .collect();
        let (terms, postings) = by_term.into_iter().unzip();
        let links = build_links(graph, &docs);
        let norms = docs
            .iter()
            .map(|d| {
                let avg: f64 = avg_len.get(&d.kind).copied().unwrap_or(1.0);
                K1 * (1.0 - B + B * f64::from(d.len) / avg)
            })
            .collect();
        Index {
            version: INDEX_VERSION.to_string(),
            graph_hash: graph.hash.clone(),
            docs,
            terms,
            postings,
            avg_len,
            links,
            norms,
            facts: crate::walk::GraphFacts::of(graph),
        }
    }

    /// The serialized index (postcard), deterministic for a given graph.
    pub fn to_bytes(&self) -> Vec<u8> {
        postcard::to_stdvec(self).unwrap_or_default()
    }

    /// Decodes a stored index and checks that it was built from `graph`.
    pub fn from_bytes(bytes: &[u8], graph: &Graph) -> Result<Index, IndexError> {
        let ix: Index =
            postcard::from_bytes(bytes).map_err(|e| IndexError::Corrupt(e.to_string()))?;
        if ix.version != INDEX_VERSION {
            return Err(IndexError::Version(ix.version));
        }
        if ix.graph_hash != graph.hash {
            return Err(IndexError::Stale);
        }
        Ok(ix)
    }

    /// The index of a session's graph: the one stored beside the snapshot for exactly this
    /// graph, or a new one (then stored, atomically, for the next process). A session without
    /// the cache never touches the disk.
    pub fn open(session: &Session) -> Result<Index, SessionError> {
        let graph = session.graph()?;
        let stored = session
            .artifact(INDEX_ARTIFACT)
            .and_then(|b| Index::from_bytes(&b, graph).ok());
        if let Some(ix) = stored {
            return Ok(ix);
        }
        let ix = Index::build(graph);
        session.store_artifact(INDEX_ARTIFACT, &ix.to_bytes());
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

    fn postings_of(&self, term: &str) -> &[(u32, u32)] {
        match self.terms.binary_search_by(|t| t.as_str().cmp(term)) {
            Ok(i) => &self.postings[i],
            Err(_) => &[],
        }
    }

    /// Number of documents containing `term`.
    pub fn df(&self, term: &str) -> usize {
        self.postings_of(term).len()
    }

    /// Inverse document frequency (BM25, never negative). A term absent from the corpus gets
    /// the highest value, so an unknown word weighs fully against coverage.
    pub fn idf(&self, term: &str) -> f64 {
        let n = self.docs.len() as f64;
        let df = self.postings_of(term).len() as f64;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// Scores every document containing at least one term. Hits come back in doc order.
    pub fn search(&self, terms: &[String]) -> Vec<Hit> {
        let d = self.search_dense(terms);
        d.touched
            .iter()
            .map(|&doc| Hit {
                doc,
                score: d.score[doc as usize],
                mask: d.mask[doc as usize],
            })
            .collect()
    }

    /// [`Index::search`] as dense per-doc arrays plus the touched docs (in doc order): what
    /// ranking needs, with O(1) lookups and no hashing.
    pub fn search_dense(&self, terms: &[String]) -> Dense {
        let n = self.docs.len();
        let mut score = vec![0f64; n];
        let mut mask = vec![0u64; n];
        let mut touched = Vec::new();
        for (i, t) in terms.iter().take(MAX_QUERY_TERMS).enumerate() {
            let idf = self.idf(t);
            let w = idf * (K1 + 1.0);
            for &(d, tf) in self.postings_of(t) {
                let d = d as usize;
                let tf = f64::from(tf);
                if mask[d] == 0 {
                    touched.push(d as u32);
                }
                score[d] += w * tf / (tf + self.norms[d]);
                mask[d] |= 1 << i;
            }
        }
        touched.sort_unstable();
        Dense {
            score,
            mask,
            touched,
        }
    }

    /// Propagation links of a doc (see the field's description), sorted.
    pub fn links(&self, doc: u32) -> &[u32] {
        self.links
            .get(doc as usize)
            .map(Vec::as_slice)
            .unwrap_or(&[])
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
    let mut links: Vec<Vec<u32>> = vec![Vec::new(); docs.len()];
    for (i, d) in docs.iter().enumerate() {
        if d.kind != NodeKind::Section {
            continue;
        }
        let i = i as u32;
        let mut targets = Vec::new();
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
        for &t in &targets {
            links[t as usize].push(i);
        }
        links[i as usize] = targets;
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

    #[test]
    fn stopwords_are_sorted_for_binary_search() {
        let mut s = STOPWORDS.to_vec();
        s.sort();
        assert_eq!(s, STOPWORDS);
    }

    #[test]
    fn identifiers_split_and_keep_their_whole() {
        assert_eq!(
            tokenize("parseSections"),
            vec!["parsesections", "pars", "section"]
        );
        assert_eq!(
            tokenize("HTTPServer snake_case"),
            vec!["httpserver", "http", "serv", "snake_case", "snak", "cas"]
        );
        assert_eq!(
            tokenize("see graph/src/text.rs."),
            vec!["see", "graph/src/text.rs", "graph", "src", "text", "rs"]
        );
        assert_eq!(
            tokenize("How are the Sections stored?"),
            vec!["section", "stor"]
        );
    }

    #[test]
    fn inflections_fold_but_short_words_stay() {
        for (a, b) in [
            ("retried", "retries"),
            ("retry", "retries"),
            ("cancelled", "cancel"),
            ("configure", "configuration"),
            ("configured", "configure"),
            ("charging", "charge"),
            ("declined", "decline"),
            ("failing", "fails"),
            ("reconciling", "reconciliation"),
            ("represented", "representation"),
            ("libraries", "library"),
            ("classes", "class"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} ~ {b}");
        }
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("gas"), "gas");
        assert_eq!(stem("sha256s"), "sha256s");
        assert_ne!(stem("order"), stem("ord"));
    }

    #[test]
    fn query_terms_are_distinct_in_order() {
        assert_eq!(query_terms("cache the caches Cache"), vec!["cach"]);
    }
}
