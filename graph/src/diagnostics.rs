//! The one vocabulary of diagnostic codes and severities, for every layer.
//!
//! A code says what happened; its severity belongs to the code (one code never means an error
//! here and a warning there). Builds, the references output of the plugin contract, pinned
//! reads, capabilities and MCP tools all report in these codes, and a severity written into a
//! graph or a cache is read back through [`Severity::parse`] alone.

use serde::{Deserialize, Serialize};

/// How serious a diagnostic is. Ordered from the least to the most serious.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A fact worth knowing.
    Info,
    /// Probably a mistake, or an answer weaker than asked for; evidence is still usable.
    Warning,
    /// The workspace is inconsistent (`ontoly validate` exits 1), or an operation could not
    /// answer.
    Error,
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

    /// Reads a severity written by [`Severity::as_str`]. Anything else reads as
    /// [`Severity::Error`]: a severity nobody can interpret must not make a workspace look
    /// cleaner than it is.
    pub fn parse(s: &str) -> Severity {
        match s {
            "info" => Self::Info,
            "warning" => Self::Warning,
            _ => Self::Error,
        }
    }
}

macro_rules! codes {
    ($( $(#[doc = $doc:literal])* $variant:ident = $name:literal, $sev:ident; )*) => {
        /// Every diagnostic and error code ontoly reports, in every layer.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl Code {
            /// Every code, in declaration order (for documentation and tests).
            pub const ALL: &'static [Code] = &[$( Code::$variant, )*];

            /// The code as written in outputs (`REFERENCE_DIGEST_MISMATCH`).
            pub fn as_str(self) -> &'static str {
                match self { $( Code::$variant => $name, )* }
            }

            /// The severity every diagnostic of this code has.
            pub fn severity(self) -> Severity {
                match self { $( Code::$variant => Severity::$sev, )* }
            }

            /// What the code means: the first line of its documentation.
            pub fn description(self) -> &'static str {
                match self { $( Code::$variant => first_doc(&[$($doc),*]), )* }
            }

            /// The code written as `as_str` gives it; `None` for an unknown string.
            pub fn parse(s: &str) -> Option<Code> {
                match s { $( $name => Some(Code::$variant), )* _ => None }
            }
        }
    };
}

const fn first_doc(lines: &[&'static str]) -> &'static str {
    // A doc line starts with the space after `///`.
    match lines.first() {
        Some(l) => l.trim_ascii_start(),
        None => "",
    }
}

codes! {
    // The workspace: build and validation findings (graph/build).
    /// `knowledge/structure.yaml` could not be read or is not UTF-8.
    StructureUnreadable = "STRUCTURE_UNREADABLE", Error;
    /// A workspace YAML file (structure, registry, front matter) is not valid YAML.
    YamlInvalid = "YAML_INVALID", Error;
    /// `schema_version` is missing or not `context.approved-structure.v1`.
    SchemaUnsupported = "SCHEMA_UNSUPPORTED", Error;
    /// `articles` is missing or not a list.
    ArticlesMissing = "ARTICLES_MISSING", Error;
    /// A key the reader does not know (tolerated).
    UnknownKey = "UNKNOWN_KEY", Warning;
    /// An article or section entry lacks a required field (`path`, `id`, `references`).
    EntryIncomplete = "ENTRY_INCOMPLETE", Error;
    /// An article of the structure has no page.
    ArticlePageMissing = "ARTICLE_PAGE_MISSING", Error;
    /// A page with section markers that the structure does not list.
    ArticleNotInStructure = "ARTICLE_NOT_IN_STRUCTURE", Warning;
    /// Two articles share an `article_id` or a `path`.
    ArticleDuplicate = "ARTICLE_DUPLICATE", Error;
    /// Two sections of one article share an id in the structure.
    SectionDuplicate = "SECTION_DUPLICATE", Error;
    /// A marked section that the structure does not list.
    SectionNotInStructure = "SECTION_NOT_IN_STRUCTURE", Error;
    /// A structure section with no marker in its page.
    SectionMissingMarker = "SECTION_MISSING_MARKER", Error;
    /// More than 3 references on one section.
    TooManyReferences = "TOO_MANY_REFERENCES", Error;
    /// A reference without a usable locator (start < 1, end < start, no path).
    LocatorInvalid = "LOCATOR_INVALID", Error;
    /// A path-like field (a locator `path`, a registry `subpath`, `materializedAt` or
    /// `snapshot.manifest`) longer than 4096 bytes: what cites it does not resolve.
    PathTooLong = "PATH_TOO_LONG", Error;
    /// A reference without `content_digest`.
    DigestMissing = "DIGEST_MISSING", Error;
    /// A `content_digest` that is not `sha256:` + 64 hex.
    DigestInvalid = "DIGEST_INVALID", Error;
    /// A section marker error (the page then has no sections).
    MarkerError = "MARKER_ERROR", Error;
    /// A page that is not UTF-8.
    PageNotUtf8 = "PAGE_NOT_UTF8", Error;
    /// A page (or a directory of pages) that could not be read.
    PageUnreadable = "PAGE_UNREADABLE", Error;
    /// A reference whose `source_ref` does not resolve.
    SourceUnresolved = "SOURCE_UNRESOLVED", Error;
    /// A repository reference pinned to something that is not a full commit.
    SourceUnpinned = "SOURCE_UNPINNED", Warning;
    /// A markdown link to a page that does not exist.
    LinkUnresolved = "LINK_UNRESOLVED", Warning;
    /// A registry file (`sources/<kind>/index.yaml`) exists but cannot be used.
    RegistryUnusable = "REGISTRY_UNUSABLE", Error;
    /// A clone mapped in `ontoly.toml` or by `--source` that does not exist or is not a git
    /// repository (nothing it should verify is verified).
    CloneNotFound = "CLONE_NOT_FOUND", Error;
    /// A clone mapped under a `<source>/<module>` name that no module of the repository
    /// registry has (a typo leaves the module it meant without a clone).
    CloneUnmatched = "CLONE_UNMATCHED", Warning;
    /// Most references of a module fail verification at its pinned commit (said once, at
    /// the pin): the `ref` is likely not the commit the pages were written from.
    SourcePinSuspect = "SOURCE_PIN_SUSPECT", Warning;
    /// A module pinned to a commit its clone does not contain (said once, at the pin, with a
    /// commit of the clone a digit or two away when there is one; each reference says it too).
    SourceCommitMissing = "SOURCE_COMMIT_MISSING", Error;
    /// A cited range whose lines at the pinned commit do not match its `content_digest`.
    ReferenceDigestMismatch = "REFERENCE_DIGEST_MISMATCH", Error;
    /// A cited commit that the local clone does not have.
    ReferenceCommitMissing = "REFERENCE_COMMIT_MISSING", Error;
    /// A cited file that does not exist at the pinned commit.
    ReferenceFileMissing = "REFERENCE_FILE_MISSING", Error;
    /// A cited line range past the end of the file at the pinned commit.
    ReferenceRangeOutOfBounds = "REFERENCE_RANGE_OUT_OF_BOUNDS", Error;
    /// A cited range in lines its language's grammar could not parse: the definitions written
    /// there are not known, so no symbol stands behind it.
    SymbolsIncomplete = "SYMBOLS_INCOMPLETE", Warning;

    /// A repository reference that is not `verified` (reported by `validate
    /// --require-verified` only: without the flag an unverifiable reference is not an error).
    ReferenceUnverified = "REFERENCE_UNVERIFIED", Error;

    // The references output of the plugin contract (formats/references).
    /// A section marker with no (or more than one) registration in the structure.
    SectionUnresolved = "SECTION_UNRESOLVED", Warning;
    /// The page or the structure cannot be used: the item keeps no references.
    EvidenceUnavailable = "EVIDENCE_UNAVAILABLE", Warning;
    /// A plugin or reads request that breaks the contract's rules.
    InvalidInput = "INVALID_INPUT", Error;
    /// The plugin's output would exceed its budget.
    OutputLimit = "OUTPUT_LIMIT", Error;

    // Pinned reads (sources/reads).
    /// The repository is unknown or has no local clone.
    RepositoryNotFound = "REPOSITORY_NOT_FOUND", Error;
    /// A commit id shorter than 7 hex digits (unique prefixes of 7 or more are accepted).
    ShortShaUnsupported = "SHORT_SHA_UNSUPPORTED", Error;
    /// A commit prefix that several commits of the repository start with.
    RevisionAmbiguous = "REVISION_AMBIGUOUS", Error;
    /// A revision that is neither a branch nor a full commit.
    InvalidRevision = "INVALID_REVISION", Error;
    /// A branch or commit the repository does not have.
    RevisionNotFound = "REVISION_NOT_FOUND", Error;
    /// A path that breaks the path rules.
    InvalidPath = "INVALID_PATH", Error;
    /// Nothing at the path.
    FileNotFound = "FILE_NOT_FOUND", Error;
    /// A directory or a submodule.
    NotAFile = "NOT_A_FILE", Error;
    /// A file with a NUL byte.
    BinaryFile = "BINARY_FILE", Error;
    /// A file that is not UTF-8 text.
    UnsupportedTextEncoding = "UNSUPPORTED_TEXT_ENCODING", Error;
    /// A start line past the end of the file.
    LineRangeNotSatisfiable = "LINE_RANGE_NOT_SATISFIABLE", Error;
    /// A start line below 1 or an end line before the start.
    InvalidLineRange = "INVALID_LINE_RANGE", Error;
    /// A `read_many` item cut or skipped by the batch budget.
    ReadBudgetExceeded = "READ_BUDGET_EXCEEDED", Error;
    /// A search pattern or glob that cannot be used.
    InvalidPattern = "INVALID_PATTERN", Error;

    // Capabilities (the evidence contract).
    /// The capability name is unknown.
    CapabilityNotRegistered = "CAPABILITY_NOT_REGISTERED", Error;
    /// The input does not match the capability's schema (the message says what was expected).
    CapabilityInvalidInput = "CAPABILITY_INVALID_INPUT", Error;
    /// Nothing in the graph matches the query or target.
    CapabilityNotFound = "CAPABILITY_NOT_FOUND", Warning;
    /// Something matched, but the confidence is below the threshold.
    CapabilityLowEvidence = "CAPABILITY_LOW_EVIDENCE", Warning;
    /// A requested limit was outside its range and was clamped.
    CapabilityLimitClamped = "CAPABILITY_LIMIT_CLAMPED", Info;
    /// More evidence existed than the result may carry.
    CapabilityEvidenceTruncated = "CAPABILITY_EVIDENCE_TRUNCATED", Info;
    /// Evidence a pack held was left out to keep it within its size budget (16 KB at the
    /// default limit): excerpt sentences, pinned reads, relevant files. Its own code, since
    /// an agent that keys on codes should tell "more matched than the limit" from "cut to fit".
    CapabilityPackTrimmed = "CAPABILITY_PACK_TRIMMED", Info;
    /// The top section's page differs on disk from the knowledge commit (uncommitted edits,
    /// or never committed): its lines are not readable at that commit.
    KnowledgePageUncommitted = "KNOWLEDGE_PAGE_UNCOMMITTED", Warning;

    // Drift and impact (sources/drift, the Drift and Impact capabilities).
    /// A cited range whose lines moved at the later commit (same lines, new place): re-anchorable.
    DriftMoved = "DRIFT_MOVED", Info;
    /// A cited range whose lines changed at the later commit: the section needs a review.
    DriftChanged = "DRIFT_CHANGED", Warning;
    /// A cited file that is gone at the later commit (no rename target): the section needs a review.
    DriftMissing = "DRIFT_MISSING", Warning;
    /// A reference drift cannot compare (no clone, unpinned, a document source, uncommitted content, an unknown commit).
    DriftUnverifiable = "DRIFT_UNVERIFIABLE", Info;
    /// A change touches code (a cited range or the definition around it) that a section describes.
    ImpactAffected = "IMPACT_AFFECTED", Warning;

    // MCP tools.
    /// A tool call whose arguments do not match the tool's input schema.
    InvalidArguments = "INVALID_ARGUMENTS", Error;
    /// A tool that the server does not have.
    UnknownTool = "UNKNOWN_TOOL", Error;
    /// The workspace's graph could not be built or loaded.
    GraphUnavailable = "GRAPH_UNAVAILABLE", Error;
    /// A call failed inside the server (a bug: please report it).
    InternalError = "INTERNAL_ERROR", Error;
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Code {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Code, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Code::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown code {s:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_are_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for &c in Code::ALL {
            assert!(seen.insert(c.as_str()), "duplicate {}", c.as_str());
            assert_eq!(Code::parse(c.as_str()), Some(c));
            assert!(!c.description().is_empty(), "{c} has no description");
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(serde_json::from_str::<Code>(&json).unwrap(), c);
        }
        assert_eq!(Code::parse("NOPE"), None);
    }

    #[test]
    fn unknown_severity_reads_as_error() {
        assert_eq!(Severity::parse("warning"), Severity::Warning);
        assert_eq!(Severity::parse("info"), Severity::Info);
        assert_eq!(Severity::parse("error"), Severity::Error);
        assert_eq!(Severity::parse("fatal"), Severity::Error);
        assert!(Severity::Error > Severity::Warning && Severity::Warning > Severity::Info);
    }
}
