//! The graph model: node and edge kinds, serialized nodes and edges, stable ids.
//!
//! Ids are derived from identity alone (never from build order), so two builds of the same
//! inputs agree on every id whatever the thread count.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::Arc;

/// Schema version of the graph model; bump it when the model changes.
pub const GRAPH_VERSION: &str = "ontoly.graph.v1";

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum NodeKind {
    /// The knowledge workspace itself.
    Workspace,
    /// One knowledge page.
    Article,
    /// One marked section of a page.
    Section,
    /// A registered source (repo module, document, note, session, repo-content).
    Source,
    /// A git repository.
    Repository,
    /// A pinned commit.
    Commit,
    /// A file at a commit.
    File,
    /// A cited line range.
    Range,
    /// A code definition that a cited range overlaps.
    Symbol,
    /// A validation fact attached to what it concerns.
    Diagnostic,
}

impl NodeKind {
    /// Every kind, in a fixed order (for statistics).
    pub const ALL: [NodeKind; 10] = [
        Self::Workspace,
        Self::Article,
        Self::Section,
        Self::Source,
        Self::Repository,
        Self::Commit,
        Self::File,
        Self::Range,
        Self::Symbol,
        Self::Diagnostic,
    ];

    /// The kind's name as serialized (`Section`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Workspace => "Workspace",
            Self::Article => "Article",
            Self::Section => "Section",
            Self::Source => "Source",
            Self::Repository => "Repository",
            Self::Commit => "Commit",
            Self::File => "File",
            Self::Range => "Range",
            Self::Symbol => "Symbol",
            Self::Diagnostic => "Diagnostic",
        }
    }

    /// The id prefix of this kind (`section`).
    pub fn prefix(self) -> &'static str {
        match self {
            Self::Workspace => "workspace",
            Self::Article => "article",
            Self::Section => "section",
            Self::Source => "source",
            Self::Repository => "repo",
            Self::Commit => "commit",
            Self::File => "file",
            Self::Range => "range",
            Self::Symbol => "symbol",
            Self::Diagnostic => "diag",
        }
    }
}

/// What a relationship is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum EdgeKind {
    /// workspace → article → section.
    Contains,
    /// section → range, carrying the recorded `content_digest`.
    Cites,
    /// range → file.
    InFile,
    /// file → commit.
    AtCommit,
    /// commit → repository.
    OfRepository,
    /// source → repository or document.
    RegisteredAs,
    /// range → symbol.
    Overlaps,
    /// article → article, from markdown links.
    LinksTo,
    /// diagnostic → subject.
    Concerns,
}

impl EdgeKind {
    /// Every kind, in a fixed order (for statistics).
    pub const ALL: [EdgeKind; 9] = [
        Self::Contains,
        Self::Cites,
        Self::InFile,
        Self::AtCommit,
        Self::OfRepository,
        Self::RegisteredAs,
        Self::Overlaps,
        Self::LinksTo,
        Self::Concerns,
    ];

    /// The kind's name as serialized (`CITES`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Contains => "CONTAINS",
            Self::Cites => "CITES",
            Self::InFile => "IN_FILE",
            Self::AtCommit => "AT_COMMIT",
            Self::OfRepository => "OF_REPOSITORY",
            Self::RegisteredAs => "REGISTERED_AS",
            Self::Overlaps => "OVERLAPS",
            Self::LinksTo => "LINKS_TO",
            Self::Concerns => "CONCERNS",
        }
    }
}

/// An immutable string that clones by reference count: an edge's endpoints and an origin's
/// file, which a large build repeats hundreds of thousands of times (every citation of a range
/// names the same range id, every reference of a section its section id, every origin the same
/// structure file). It reads, compares, orders, hashes and serializes as the string it holds.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SharedStr(Arc<str>);

impl SharedStr {
    /// The string.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for SharedStr {
    fn default() -> Self {
        SharedStr(Arc::from(""))
    }
}

impl std::ops::Deref for SharedStr {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for SharedStr {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for SharedStr {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for SharedStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&*self.0, f)
    }
}

impl std::fmt::Display for SharedStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<String> for SharedStr {
    fn from(s: String) -> Self {
        SharedStr(s.into())
    }
}

impl From<&String> for SharedStr {
    fn from(s: &String) -> Self {
        SharedStr(s.as_str().into())
    }
}

impl From<&str> for SharedStr {
    fn from(s: &str) -> Self {
        SharedStr(s.into())
    }
}

impl From<std::sync::Arc<str>> for SharedStr {
    /// The same allocation, not a copy.
    fn from(s: Arc<str>) -> Self {
        SharedStr(s)
    }
}

impl From<&SharedStr> for SharedStr {
    fn from(s: &SharedStr) -> Self {
        s.clone()
    }
}

impl From<&SharedStr> for String {
    fn from(s: &SharedStr) -> Self {
        s.as_str().to_string()
    }
}

impl From<SharedStr> for String {
    fn from(s: SharedStr) -> Self {
        s.as_str().to_string()
    }
}

impl PartialEq<str> for SharedStr {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SharedStr {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for SharedStr {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<SharedStr> for String {
    fn eq(&self, other: &SharedStr) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<SharedStr> for str {
    fn eq(&self, other: &SharedStr) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<SharedStr> for &str {
    fn eq(&self, other: &SharedStr) -> bool {
        *self == other.as_str()
    }
}

impl Serialize for SharedStr {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for SharedStr {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(SharedStr::from)
    }
}

/// Where something was read from: a workspace-relative file and a 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Origin {
    /// Workspace-relative path, `/`-separated (never absolute).
    pub file: SharedStr,
    /// 1-based line.
    pub line: u64,
}

/// A line span in a file.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Span {
    /// Workspace-relative (knowledge) or repository-relative (source) path.
    pub file: String,
    /// 1-based first line.
    pub start_line: u64,
    /// 1-based last line, inclusive.
    pub end_line: u64,
}

/// A metadata key: the keys the build writes are known at compile time and borrowed; keys read
/// back from JSON or a snapshot are owned.
pub type MetaKey = Cow<'static, str>;

/// Declares `known_key` (and, for its tests, `KNOWN_KEYS`) from one list of keys.
macro_rules! known_keys {
    ($($k:literal),* $(,)?) => {
        /// The keys, in the order listed.
        #[cfg(test)]
        const KNOWN_KEYS: &[&str] = &[$($k),*];

        /// The `'static` copy of `key` when it is one the build writes (a `match` on string
        /// literals: a switch on the length and a comparison or two). A key read back from a
        /// snapshot or from JSON is borrowed from here rather than allocated: a command that
        /// decodes a 100k-section snapshot would otherwise allocate 1.5M copies of a dozen
        /// words.
        fn known_key(key: &str) -> Option<&'static str> {
            match key {
                $($k => Some($k),)*
                _ => None,
            }
        }
    };
}

known_keys![
    "alias",
    "article",
    "article_id",
    "code",
    "collection",
    "commit",
    "content_digest",
    "description",
    "kind",
    "manifest",
    "marked",
    "materialized_at",
    "message",
    "name",
    "page",
    "path",
    "pinned",
    "ref",
    "registered",
    "remote",
    "section_id",
    "severity",
    "source_kind",
    "source_ref",
    "status",
    "title",
    "url",
    "visibility",
];

/// `key` as a [`MetaKey`]: borrowed when it is one the build writes, else an owned copy.
pub fn meta_key(key: &str) -> MetaKey {
    known_key(key).map_or_else(|| Cow::Owned(key.to_string()), Cow::Borrowed)
}

/// The metadata map of a node or edge: a few `(key, value)` pairs kept sorted by key, with the
/// interface of the `BTreeMap<String, String>` it replaces (the same iteration order, equality,
/// and JSON form, so hashes and outputs do not change).
///
/// A graph holds one per section and one per `CITES` edge (350k at 100k sections), each of 1–7
/// entries: a `BTreeMap` allocates a 540-byte leaf even for one entry, plus a heap string per
/// key; this is one allocation of 48 bytes per entry, at exact capacity when built with
/// [`Metadata::with_capacity`] or collected from an iterator whose length is known.
#[derive(Clone, Default)]
pub struct Metadata {
    pairs: Pairs,
}

/// One `(key, value)` entry of a [`Metadata`].
type Pair = (MetaKey, String);

/// A metadata map's entries: owned while it is built, or shared once [`Metadata::share`] froze
/// it. The 250k `CITES` edges of a 100k build repeat a few thousand maps: shared, a repeated
/// citation's map is a reference count, where it was five allocations and ~330 bytes copied.
#[derive(Clone)]
enum Pairs {
    Own(Vec<Pair>),
    Shared(Arc<[Pair]>),
}

impl Default for Pairs {
    fn default() -> Self {
        Pairs::Own(Vec::new())
    }
}

impl std::fmt::Debug for Metadata {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metadata")
            .field("pairs", &self.pairs_slice())
            .finish()
    }
}

// Equality, order and hash are those of the entries, whichever way they are held.
impl PartialEq for Metadata {
    fn eq(&self, other: &Self) -> bool {
        self.pairs_slice() == other.pairs_slice()
    }
}

impl Eq for Metadata {}

impl std::hash::Hash for Metadata {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.pairs_slice().hash(state);
    }
}

impl PartialOrd for Metadata {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Metadata {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.pairs_slice().cmp(other.pairs_slice())
    }
}

impl Metadata {
    /// An empty map (allocates nothing).
    pub const fn new() -> Self {
        Metadata {
            pairs: Pairs::Own(Vec::new()),
        }
    }

    /// An empty map with room for `n` entries.
    pub fn with_capacity(n: usize) -> Self {
        Metadata {
            pairs: Pairs::Own(Vec::with_capacity(n)),
        }
    }

    /// The same map, its entries now shared: a clone is then a reference count, not a copy of
    /// every value (for a map that many edges repeat). A later change copies them back.
    pub fn share(self) -> Self {
        match self.pairs {
            Pairs::Own(v) if !v.is_empty() => Metadata {
                pairs: Pairs::Shared(v.into()),
            },
            pairs => Metadata { pairs },
        }
    }

    /// The entries, owned (copied out of a shared map first).
    fn pairs_mut(&mut self) -> &mut Vec<Pair> {
        if let Pairs::Shared(s) = &self.pairs {
            self.pairs = Pairs::Own(s.to_vec());
        }
        match &mut self.pairs {
            Pairs::Own(v) => v,
            Pairs::Shared(_) => unreachable!("made owned above"),
        }
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        self.pairs_slice().binary_search_by(|(k, _)| (**k).cmp(key))
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&String> {
        self.find(key).ok().map(|i| &self.pairs_slice()[i].1)
    }

    /// True when `key` has a value.
    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// Sets `key` to `value`, returning the value it replaces (as `BTreeMap::insert`).
    pub fn insert(&mut self, key: MetaKey, value: String) -> Option<String> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.pairs_mut()[i].1, value)),
            Err(i) => {
                self.pairs_mut().insert(i, (key, value));
                None
            }
        }
    }

    /// Removes `key`, returning its value.
    pub fn remove(&mut self, key: &str) -> Option<String> {
        let i = self.find(key).ok()?;
        Some(self.pairs_mut().remove(i).1)
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.pairs_slice().len()
    }

    /// True when there is no entry.
    pub fn is_empty(&self) -> bool {
        self.pairs_slice().is_empty()
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &String)> + Clone + '_ {
        self.pairs_slice().iter().map(|(k, v)| (&**k, v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.pairs_slice().iter().map(|(k, _)| &**k)
    }

    /// The values in key order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &String> + '_ {
        self.pairs_slice().iter().map(|(_, v)| v)
    }

    /// The pairs' buffer (for a prefetch of what a pass will read).
    pub(crate) fn pairs_slice(&self) -> &[Pair] {
        match &self.pairs {
            Pairs::Own(v) => v,
            Pairs::Shared(s) => s,
        }
    }
}

impl<K: Into<MetaKey>, V: Into<String>> FromIterator<(K, V)> for Metadata {
    /// Entries in any order; of equal keys the last one stays, as `BTreeMap` keeps it.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut pairs: Vec<(MetaKey, String)> = iter
            .into_iter()
            .map(|(k, v)| (k.into(), v.into()))
            .collect();
        // Stable: equal keys stay in input order, so keeping the last of a run keeps the last.
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        let before = pairs.len();
        pairs.reverse();
        pairs.dedup_by(|later, earlier| later.0 == earlier.0);
        pairs.reverse();
        if pairs.len() != before {
            pairs.shrink_to_fit();
        }
        Metadata {
            pairs: Pairs::Own(pairs),
        }
    }
}

impl<K: Into<MetaKey>, V: Into<String>, const N: usize> From<[(K, V); N]> for Metadata {
    fn from(entries: [(K, V); N]) -> Self {
        entries.into_iter().collect()
    }
}

impl<'a> IntoIterator for &'a Metadata {
    type Item = (&'a str, &'a String);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (MetaKey, String)>,
        fn(&'a (MetaKey, String)) -> (&'a str, &'a String),
    >;

    fn into_iter(self) -> Self::IntoIter {
        fn pair(p: &(MetaKey, String)) -> (&str, &String) {
            (&p.0, &p.1)
        }
        self.pairs_slice().iter().map(pair)
    }
}

impl std::ops::Index<&str> for Metadata {
    type Output = String;

    /// The value of `key`; panics when there is none (as `BTreeMap`'s index does).
    fn index(&self, key: &str) -> &String {
        self.get(key).expect("no metadata entry for key")
    }
}

impl Serialize for Metadata {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Metadata {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Metadata;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map of strings")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<Metadata, A::Error> {
                let mut pairs: Vec<(MetaKey, String)> =
                    Vec::with_capacity(m.size_hint().unwrap_or(0).min(64));
                while let Some((k, v)) = m.next_entry::<String, String>()? {
                    pairs.push((meta_key(&k), v));
                }
                Ok(pairs.into_iter().collect())
            }
        }
        d.deserialize_map(Visit)
    }
}

/// A graph node as serialized in evidence: `{id, type, name, file?, span?, package?, metadata?}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    /// Stable id, prefixed by kind.
    pub id: String,
    /// What the node is.
    #[serde(rename = "type")]
    pub kind: NodeKind,
    /// A short readable name.
    pub name: String,
    /// The file the node lives in, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Its line span, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<Span>,
    /// The source module or repository it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// Compact, bounded facts (status, kind, digest…); sorted by key.
    #[serde(default, skip_serializing_if = "Metadata::is_empty")]
    pub metadata: Metadata,
}

/// A graph edge as serialized in evidence: `{id, type, from, to, origin?, metadata?}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edge {
    /// `edge:<type>:<blake3 hex of type|from|to|origin>`.
    pub id: String,
    /// What the relationship is.
    #[serde(rename = "type")]
    pub kind: EdgeKind,
    /// Source node id.
    pub from: SharedStr,
    /// Target node id.
    pub to: SharedStr,
    /// The file and line this relationship was read from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
    /// Compact facts (for `CITES`: `content_digest`, `status`…); sorted by key.
    #[serde(default, skip_serializing_if = "Metadata::is_empty")]
    pub metadata: Metadata,
}

impl Edge {
    /// A new edge with its stable id computed from `kind|from|to|origin`.
    pub fn new(
        kind: EdgeKind,
        from: impl Into<SharedStr>,
        to: impl Into<SharedStr>,
        origin: Option<Origin>,
    ) -> Self {
        let from = from.into();
        let to = to.into();
        let id = edge_id(kind, &from, &to, origin.as_ref());
        Edge {
            id,
            kind,
            from,
            to,
            origin,
            metadata: Metadata::new(),
        }
    }
}

/// `edge:<type>:<hex>` where hex is the blake3 digest of `type|from|to|origin`.
pub fn edge_id(kind: EdgeKind, from: &str, to: &str, origin: Option<&Origin>) -> String {
    let mut h = blake3::Hasher::new();
    h.update(kind.as_str().as_bytes());
    h.update(b"|");
    h.update(from.as_bytes());
    h.update(b"|");
    h.update(to.as_bytes());
    h.update(b"|");
    if let Some(o) = origin {
        h.update(o.file.as_bytes());
        h.update(b":");
        h.update(o.line.to_string().as_bytes());
    }
    format!("edge:{}:{}", kind.as_str(), &h.finalize().to_hex()[..32])
}

/// Stable id constructors. Each id is `<prefix>:<identity>`; identities are readable.
pub mod ids {
    /// The id of the workspace node. A workspace has no identity of its own beyond its files
    /// (its directory's name is where it sits, not what it is), so every graph has this one
    /// workspace node and two copies of a workspace hash the same.
    pub const WORKSPACE: &str = "workspace:.";
    /// The name of the workspace node (display names are kept outside the graph).
    pub const WORKSPACE_NAME: &str = ".";
    /// `article:<path under knowledge/>`.
    pub fn article(path: &str) -> String {
        format!("article:{path}")
    }
    /// `section:<article path>#<section id>`.
    pub fn section(article_path: &str, section_id: &str) -> String {
        format!("section:{article_path}#{section_id}")
    }
    /// `source:<source_ref>`.
    pub fn source(source_ref: &str) -> String {
        format!("source:{source_ref}")
    }
    /// `repo:<normalized remote or name>`.
    pub fn repository(repo: &str) -> String {
        format!("repo:{repo}")
    }
    /// `commit:<repo>@<full commit>`.
    pub fn commit(repo: &str, commit: &str) -> String {
        format!("commit:{repo}@{commit}")
    }
    /// `file:<repo>@<commit12>:<path>`.
    pub fn file(repo: &str, commit: &str, path: &str) -> String {
        format!("file:{repo}@{}:{path}", short(commit))
    }
    /// `range:<repo>@<commit12>:<path>#L<start>-L<end>`.
    pub fn range(repo: &str, commit: &str, path: &str, start: u64, end: u64) -> String {
        format!("range:{repo}@{}:{path}#L{start}-L{end}", short(commit))
    }
    /// `symbol:<repo>@<commit12>:<path>#<kind>:<qualified name>@L<start>-L<end>`.
    pub fn symbol(
        repo: &str,
        commit: &str,
        path: &str,
        kind: &str,
        qualified: &str,
        start: u64,
        end: u64,
    ) -> String {
        format!(
            "symbol:{repo}@{}:{path}#{kind}:{qualified}@L{start}-L{end}",
            short(commit)
        )
    }
    /// `diag:<code>@<file>:<line>[#<discriminator>]`.
    pub fn diagnostic(code: &str, file: &str, line: u64, discriminator: &str) -> String {
        if discriminator.is_empty() {
            format!("diag:{code}@{file}:{line}")
        } else {
            format!("diag:{code}@{file}:{line}#{discriminator}")
        }
    }

    /// The first 12 characters of a commit (ids stay readable; the full commit is in metadata).
    pub fn short(commit: &str) -> &str {
        commit.get(..12).unwrap_or(commit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_ids_are_stable_and_distinct() {
        let o = Origin {
            file: "knowledge/structure.yaml".into(),
            line: 42,
        };
        let a = Edge::new(EdgeKind::Cites, "section:a#b", "range:x", Some(o.clone()));
        let b = Edge::new(EdgeKind::Cites, "section:a#b", "range:x", Some(o));
        let c = Edge::new(EdgeKind::Cites, "section:a#b", "range:x", None);
        assert_eq!(a.id, b.id);
        assert_ne!(a.id, c.id);
        assert!(a.id.starts_with("edge:CITES:"));
    }

    /// The map behaves as the `BTreeMap<String, String>` it replaced: the same order, the same
    /// last-wins insertion, the same JSON (which the graph hash and every output are made of).
    #[test]
    fn metadata_matches_a_btreemap() {
        use std::collections::BTreeMap;
        let entries = [
            ("status", "no_clone"),
            ("content_digest", "sha256:ab"),
            ("source_ref", "repo:x"),
            ("status", "verified"),
            ("a", ""),
            ("zé", "ü"),
            ("source_kind", "repo"),
        ];
        let mut tree = BTreeMap::new();
        let mut meta = Metadata::new();
        for (k, v) in entries {
            assert_eq!(
                meta.insert(k.into(), v.to_string()),
                tree.insert(k.to_string(), v.to_string())
            );
        }
        let collected: Metadata = entries.into_iter().collect();
        assert_eq!(collected, meta);
        assert_eq!(meta.len(), tree.len());
        assert!(meta.iter().eq(tree.iter().map(|(k, v)| (k.as_str(), v))));
        let json = serde_json::to_string(&meta).unwrap();
        assert_eq!(json, serde_json::to_string(&tree).unwrap());
        let back: Metadata = serde_json::from_str(&json).unwrap();
        assert_eq!(back, meta);
        // Duplicate keys in JSON: the last one stays, as serde's BTreeMap keeps it.
        let dup = r#"{"k":"1","a":"2","k":"3"}"#;
        let tree: BTreeMap<String, String> = serde_json::from_str(dup).unwrap();
        let meta: Metadata = serde_json::from_str(dup).unwrap();
        assert!(meta.iter().eq(tree.iter().map(|(k, v)| (k.as_str(), v))));
        assert_eq!(meta.get("k").map(String::as_str), Some("3"));
        assert!(meta.contains_key("a") && !meta.contains_key("b"));
        assert_eq!(meta["a"], "2");
        assert!(serde_json::from_str::<Metadata>(r#"{"k":1}"#).is_err());
        assert!(serde_json::from_str::<Metadata>("[]").is_err());
    }

    /// A shared map is the same map: equal, ordered, hashed and serialized as the owned one,
    /// and a change to one clone leaves the others as they were.
    #[test]
    fn shared_metadata_is_the_same_map_and_copies_on_write() {
        use std::hash::{BuildHasher, RandomState};
        let owned = Metadata::from([("status", "no_clone"), ("content_digest", "sha256:ab")]);
        let shared = owned.clone().share();
        assert!(matches!(shared.pairs, Pairs::Shared(_)));
        assert_eq!(shared, owned);
        assert_eq!(shared.cmp(&owned), std::cmp::Ordering::Equal);
        let h = RandomState::new();
        assert_eq!(h.hash_one(&shared), h.hash_one(&owned));
        assert_eq!(
            serde_json::to_string(&shared).unwrap(),
            serde_json::to_string(&owned).unwrap()
        );
        let mut changed = shared.clone();
        assert_eq!(
            changed
                .insert("status".into(), "verified".into())
                .as_deref(),
            Some("no_clone")
        );
        assert_eq!(shared.get("status").map(String::as_str), Some("no_clone"));
        assert_eq!(changed.get("status").map(String::as_str), Some("verified"));
        assert!(changed > shared);
        assert_eq!(
            changed.remove("content_digest").as_deref(),
            Some("sha256:ab")
        );
        assert_eq!(changed.len(), 1);
        assert_eq!(shared.len(), 2);
        // An empty map stays empty and unshared.
        assert!(matches!(Metadata::new().share().pairs, Pairs::Own(_)));
    }

    /// An edge whose endpoints and origin are shared serializes, compares and identifies as
    /// one built from its own copies, and a clone of a shared string is the same allocation.
    #[test]
    fn shared_strings_are_the_strings() {
        let section = SharedStr::from("section:a.md#b");
        let file = SharedStr::from("knowledge/structure.yaml");
        let o = |f: SharedStr| Some(Origin { file: f, line: 7 });
        let shared = Edge::new(EdgeKind::Cites, &section, section.clone(), o(file.clone()));
        let own = Edge::new(
            EdgeKind::Cites,
            "section:a.md#b".to_string(),
            "section:a.md#b",
            o("knowledge/structure.yaml".into()),
        );
        assert_eq!(shared, own);
        assert_eq!(
            serde_json::to_string(&shared).unwrap(),
            serde_json::to_string(&own).unwrap()
        );
        assert!(std::ptr::eq(shared.from.as_str(), section.as_str()));
        assert!(std::ptr::eq(shared.to.as_str(), section.as_str()));
        assert!(!std::ptr::eq(own.from.as_str(), section.as_str()));
        let json = serde_json::to_string(&shared).unwrap();
        assert_eq!(serde_json::from_str::<Edge>(&json).unwrap(), own);
        assert_eq!(format!("{file}"), "knowledge/structure.yaml");
        assert_eq!(format!("{file:?}"), "\"knowledge/structure.yaml\"");
        let (a, b) = (SharedStr::from("a"), SharedStr::from("b"));
        assert!(a < b && file == "knowledge/structure.yaml");
    }

    /// A node without metadata serializes without the key; with it, the map in key order.
    #[test]
    fn metadata_in_a_node_serializes_as_before() {
        let mut n = Node {
            id: "section:a.md#b".into(),
            kind: NodeKind::Section,
            name: "b".into(),
            file: None,
            span: None,
            package: None,
            metadata: Metadata::new(),
        };
        assert_eq!(
            serde_json::to_string(&n).unwrap(),
            r#"{"id":"section:a.md#b","type":"Section","name":"b"}"#
        );
        n.metadata = Metadata::from([("section_id", "b"), ("article", "a.md")]);
        let json = serde_json::to_string(&n).unwrap();
        assert_eq!(
            json,
            r#"{"id":"section:a.md#b","type":"Section","name":"b","metadata":{"article":"a.md","section_id":"b"}}"#
        );
        assert_eq!(serde_json::from_str::<Node>(&json).unwrap(), n);
    }

    #[test]
    fn known_keys_are_sorted_and_borrowed() {
        assert!(KNOWN_KEYS.windows(2).all(|w| w[0] < w[1]));
        for &k in KNOWN_KEYS {
            assert!(matches!(meta_key(k), Cow::Borrowed(b) if b == k));
        }
        assert!(matches!(meta_key("heading"), Cow::Owned(o) if o == "heading"));
    }

    #[test]
    fn kinds_serialize_as_spec_names() {
        assert_eq!(
            serde_json::to_string(&EdgeKind::OfRepository).unwrap(),
            "\"OF_REPOSITORY\""
        );
        assert_eq!(
            serde_json::to_string(&NodeKind::Section).unwrap(),
            "\"Section\""
        );
    }
}
