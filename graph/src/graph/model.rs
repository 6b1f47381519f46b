//! The graph model: node and edge kinds, serialized nodes and edges, stable ids.
//!
//! Ids are derived from identity alone (never from build order), so two builds of the same
//! inputs agree on every id whatever the thread count.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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

/// Where something was read from: a workspace-relative file and a 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Origin {
    /// Workspace-relative path, `/`-separated (never absolute).
    pub file: String,
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
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metadata: BTreeMap<String, String>,
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
    pub from: String,
    /// Target node id.
    pub to: String,
    /// The file and line this relationship was read from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
    /// Compact facts (for `CITES`: `content_digest`, `status`…); sorted by key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metadata: BTreeMap<String, String>,
}

impl Edge {
    /// A new edge with its stable id computed from `kind|from|to|origin`.
    pub fn new(
        kind: EdgeKind,
        from: impl Into<String>,
        to: impl Into<String>,
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
            metadata: BTreeMap::new(),
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
