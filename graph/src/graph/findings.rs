//! Build diagnostics: the codes, their severities, and how a finding becomes a `Diagnostic`
//! node with a `CONCERNS` edge to its subject.
//!
//! Codes are stable strings (documented in the README); the severity belongs to the code, so
//! one code never means an error here and a warning there.

use crate::graph::model::{ids, Edge, EdgeKind, Node, NodeKind, Origin, Span};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The workspace is inconsistent: `ontoly validate` exits 1.
    Error,
    /// Probably a mistake; evidence is still usable.
    Warning,
    /// A fact worth knowing.
    Info,
}

impl Severity {
    /// `error`, `warning` or `info`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Error => "error",
            Self::Warning => "warning",
            Self::Info => "info",
        }
    }
}

/// Every diagnostic code the builder emits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Code {
    /// `knowledge/structure.yaml` could not be read or is not UTF-8.
    StructureUnreadable,
    /// A workspace YAML file (structure, registry, front matter) is not valid YAML.
    YamlInvalid,
    /// `schema_version` is missing or not `context.approved-structure.v1`.
    SchemaUnsupported,
    /// `articles` is missing or not a list.
    ArticlesMissing,
    /// A key the reader does not know (tolerated).
    UnknownKey,
    /// An article or section entry lacks a required field (`path`, `id`, `source_ref`).
    EntryIncomplete,
    /// An article of the structure has no page.
    ArticlePageMissing,
    /// A page with section markers that the structure does not list.
    ArticleNotInStructure,
    /// Two articles share an `article_id` or a `path`.
    ArticleDuplicate,
    /// Two sections of one article share an id in the structure.
    SectionDuplicate,
    /// A marked section that the structure does not list.
    SectionNotInStructure,
    /// A structure section with no marker in its page.
    SectionMissingMarker,
    /// More than 3 references on one section.
    TooManyReferences,
    /// A reference without a usable locator (start < 1, end < start, no path).
    LocatorInvalid,
    /// A reference without `content_digest`.
    DigestMissing,
    /// A `content_digest` that is not `sha256:` + 64 hex.
    DigestInvalid,
    /// A section marker error (the page then has no sections).
    MarkerError,
    /// A page that is not UTF-8.
    PageNotUtf8,
    /// A page that could not be read.
    PageUnreadable,
    /// A reference whose `source_ref` does not resolve.
    SourceUnresolved,
    /// A repository reference pinned to something that is not a full commit.
    SourceUnpinned,
    /// A markdown link to a page that does not exist.
    LinkUnresolved,
    /// A registry file (`sources/<kind>/index.yaml`) exists but cannot be used.
    RegistryUnusable,
    /// A cited range whose lines at the pinned commit do not match its `content_digest`.
    ReferenceDigestMismatch,
    /// A cited commit that the local clone does not have.
    ReferenceCommitMissing,
    /// A cited file that does not exist at the pinned commit.
    ReferenceFileMissing,
    /// A cited line range past the end of the file at the pinned commit.
    ReferenceRangeOutOfBounds,
}

impl Code {
    /// The code as written in outputs.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::StructureUnreadable => "STRUCTURE_UNREADABLE",
            Self::YamlInvalid => "YAML_INVALID",
            Self::SchemaUnsupported => "SCHEMA_UNSUPPORTED",
            Self::ArticlesMissing => "ARTICLES_MISSING",
            Self::UnknownKey => "UNKNOWN_KEY",
            Self::EntryIncomplete => "ENTRY_INCOMPLETE",
            Self::ArticlePageMissing => "ARTICLE_PAGE_MISSING",
            Self::ArticleNotInStructure => "ARTICLE_NOT_IN_STRUCTURE",
            Self::ArticleDuplicate => "ARTICLE_DUPLICATE",
            Self::SectionDuplicate => "SECTION_DUPLICATE",
            Self::SectionNotInStructure => "SECTION_NOT_IN_STRUCTURE",
            Self::SectionMissingMarker => "SECTION_MISSING_MARKER",
            Self::TooManyReferences => "TOO_MANY_REFERENCES",
            Self::LocatorInvalid => "LOCATOR_INVALID",
            Self::DigestMissing => "DIGEST_MISSING",
            Self::DigestInvalid => "DIGEST_INVALID",
            Self::MarkerError => "MARKER_ERROR",
            Self::PageNotUtf8 => "PAGE_NOT_UTF8",
            Self::PageUnreadable => "PAGE_UNREADABLE",
            Self::SourceUnresolved => "SOURCE_UNRESOLVED",
            Self::SourceUnpinned => "SOURCE_UNPINNED",
            Self::LinkUnresolved => "LINK_UNRESOLVED",
            Self::ReferenceDigestMismatch => "REFERENCE_DIGEST_MISMATCH",
            Self::ReferenceCommitMissing => "REFERENCE_COMMIT_MISSING",
            Self::ReferenceFileMissing => "REFERENCE_FILE_MISSING",
            Self::ReferenceRangeOutOfBounds => "REFERENCE_RANGE_OUT_OF_BOUNDS",
            Self::RegistryUnusable => "REGISTRY_UNUSABLE",
        }
    }

    /// The severity every diagnostic of this code has.
    pub fn severity(self) -> Severity {
        match self {
            Self::UnknownKey | Self::SourceUnpinned | Self::LinkUnresolved => Severity::Warning,
            Self::ArticleNotInStructure => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

/// One finding, before it becomes graph nodes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// What kind of finding.
    pub code: Code,
    /// One line, no absolute paths.
    pub message: String,
    /// Workspace-relative file and 1-based line.
    pub at: Origin,
    /// The node id this concerns (a section, an article, the workspace, a source).
    pub subject: String,
    /// Makes the id unique when one line has several findings of one code (e.g. a key name).
    pub discriminator: String,
}

impl Finding {
    /// A finding at `file:line` about `subject`.
    pub fn new(
        code: Code,
        message: impl Into<String>,
        file: &str,
        line: u64,
        subject: impl Into<String>,
    ) -> Finding {
        Finding {
            code,
            message: message.into(),
            at: Origin {
                file: file.to_string(),
                line,
            },
            subject: subject.into(),
            discriminator: String::new(),
        }
    }

    /// The same finding with a discriminator.
    pub fn with_discriminator(mut self, d: impl Into<String>) -> Finding {
        self.discriminator = d.into();
        self
    }

    /// The `Diagnostic` node and its `CONCERNS` edge.
    pub fn to_graph(&self) -> (Node, Edge) {
        let id = ids::diagnostic(
            self.code.as_str(),
            &self.at.file,
            self.at.line,
            &self.discriminator,
        );
        let mut metadata = BTreeMap::new();
        metadata.insert("code".to_string(), self.code.as_str().to_string());
        metadata.insert(
            "severity".to_string(),
            self.code.severity().as_str().to_string(),
        );
        metadata.insert("message".to_string(), self.message.clone());
        let node = Node {
            id: id.clone(),
            kind: NodeKind::Diagnostic,
            name: self.code.as_str().to_string(),
            file: Some(self.at.file.clone()),
            span: Some(Span {
                file: self.at.file.clone(),
                start_line: self.at.line,
                end_line: self.at.line,
            }),
            package: None,
            metadata,
        };
        let edge = Edge::new(
            EdgeKind::Concerns,
            id,
            self.subject.clone(),
            Some(self.at.clone()),
        );
        (node, edge)
    }
}

/// A diagnostic as read back from a graph (for `validate`, `stats`, evidence).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiagnosticView {
    /// The code string.
    pub code: String,
    /// `error`, `warning` or `info`.
    pub severity: String,
    /// The message.
    pub message: String,
    /// `file:line`.
    pub location: String,
    /// What it concerns (node id), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
}

/// Every diagnostic of a graph, ordered by file, line, code, then id.
pub fn diagnostics_of(graph: &crate::graph::Graph) -> Vec<DiagnosticView> {
    let mut v: Vec<(String, u64, DiagnosticView)> = graph
        .nodes_of(NodeKind::Diagnostic)
        .map(|n| {
            let (file, line) = n
                .span
                .as_ref()
                .map(|s| (s.file.clone(), s.start_line))
                .unwrap_or_default();
            let get = |k: &str| n.metadata.get(k).cloned().unwrap_or_default();
            let subject = graph
                .out_edges(&n.id, Some(EdgeKind::Concerns))
                .first()
                .map(|e| e.to.clone());
            (
                file.clone(),
                line,
                DiagnosticView {
                    code: get("code"),
                    severity: get("severity"),
                    message: get("message"),
                    location: format!("{file}:{line}"),
                    subject,
                },
            )
        })
        .collect();
    v.sort_by(|a, b| {
        (&a.0, a.1, &a.2.code, &a.2.message).cmp(&(&b.0, b.1, &b.2.code, &b.2.message))
    });
    v.into_iter().map(|x| x.2).collect()
}
