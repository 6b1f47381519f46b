//! Resolving a recorded reference (`source_ref` + `locator` + `content_digest`) to what it
//! cites: a module of a registered repository, a commit of the knowledge repository itself, a
//! document source, or a committed note or session record.
//!
//! The checks run in the order of Context's evidence plugin, so that a reference with several
//! faults reports the same first fault.
//!
//! Difference from Context's plugin, following formats.md: `content_digest` is required (and
//! must be `sha256:` + 64 hex) on every reference, not only when digests are requested or the
//! reference is `+worktree`. A knowledge repository identity without `://` that carries
//! credentials-like user-info (`user:token@host/x`) is refused instead of echoed.

use crate::formats::remote::{self, NormalizedRemote};
use crate::formats::source_registry::{
    is_safe_relative_path, FileProblem, LookupError, Registries, RegistryKind, RegistryState,
};
use crate::formats::structure::{ReferenceEntry, MAX_LINE};
use crate::formats::text::is_full_commit;

/// The kinds of `source_ref`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SourceKind {
    /// `repo:<source>/<module>`.
    Repo,
    /// `repo-content:<id>@<commit>[+worktree]`.
    RepoContent,
    /// `file:<ns>/<module>` or `file:<name>`.
    File,
    /// `lark:<ns>/<module>` or `lark:<name>`.
    Lark,
    /// `note:<YYYYMMDD>/<name>.md`.
    Note,
    /// `sessions:<YYYYMMDD>/<name>.md`.
    Sessions,
}

impl SourceKind {
    /// The prefix as written before `:`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Repo => "repo",
            Self::RepoContent => "repo-content",
            Self::File => "file",
            Self::Lark => "lark",
            Self::Note => "note",
            Self::Sessions => "sessions",
        }
    }
}

/// What every resolved reference carries: the recorded citation, validated.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Citation {
    /// `source_ref` as written.
    pub source_ref: String,
    /// `locator.path` as written (relative to the source's root).
    pub path: String,
    /// First cited line (≥ 1).
    pub start_line: u64,
    /// Last cited line (≥ start).
    pub end_line: u64,
    /// `content_digest` as written (`sha256:` + 64 hex, either case).
    pub content_digest: String,
}

/// A module of a registered repository.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RepoRef {
    /// The citation.
    pub citation: Citation,
    /// The source (namespace) name.
    pub source: String,
    /// The module's name.
    pub module: String,
    /// `git.remote` exactly as written (checked credential-free).
    pub remote: String,
    /// The remote's web location, when its shape is supported.
    pub normalized: Option<NormalizedRemote>,
    /// `git.ref` as written.
    pub git_ref: String,
    /// Whether `git_ref` is a full 40/64-hex commit.
    pub pinned: bool,
    /// `subpath` ("" for the repository root).
    pub subpath: String,
}

/// A commit (or uncommitted state) of the knowledge repository itself.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RepoContentRef {
    /// The citation (`path` is repository-root relative).
    pub citation: Citation,
    /// The content id before `@`.
    pub id: String,
    /// The full commit.
    pub commit: String,
    /// Whether the reference is `+worktree` (uncommitted content).
    pub worktree: bool,
    /// The knowledge repository identity, when known (as given by the host).
    pub repository: Option<String>,
    /// Its web location, when it is a supported remote.
    pub normalized: Option<NormalizedRemote>,
}

/// `file` or `lark`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DocumentKind {
    /// A materialized file document.
    File,
    /// An online (lark) document.
    Lark,
}

/// How a lark document is identified.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum DocumentIdentity {
    /// `url` (http or https, no credentials), without its query and fragment, which often
    /// carry access tokens.
    Url(String),
    /// `docToken`.
    DocToken(String),
    /// `wikiToken`.
    WikiToken(String),
}

/// A registered document source.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DocumentRef {
    /// The citation.
    pub citation: Citation,
    /// File or lark.
    pub kind: DocumentKind,
    /// The namespace, for a module.
    pub namespace: Option<String>,
    /// The module's or flat entry's name.
    pub name: String,
    /// Where the snapshot is, relative to the workspace.
    pub materialized_at: String,
    /// The snapshot manifest, relative to the workspace.
    pub manifest: Option<String>,
    /// The document identity (lark only).
    pub identity: Option<DocumentIdentity>,
}

/// `note` or `sessions`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ManagedKind {
    /// `sources/note/…`.
    Note,
    /// `sources/sessions/…`.
    Sessions,
}

/// A committed note or session record.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ManagedRef {
    /// The citation.
    pub citation: Citation,
    /// Note or sessions.
    pub kind: ManagedKind,
    /// `sources/<kind>/<YYYYMMDD>/<name>.md`, relative to the workspace.
    pub materialized_at: String,
}

/// A resolved reference.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ResolvedRef {
    /// `repo:`.
    Repo(RepoRef),
    /// `repo-content:`.
    RepoContent(RepoContentRef),
    /// `file:` / `lark:`.
    Document(DocumentRef),
    /// `note:` / `sessions:`.
    Managed(ManagedRef),
}

impl ResolvedRef {
    /// The source kind.
    pub fn kind(&self) -> SourceKind {
        match self {
            Self::Repo(_) => SourceKind::Repo,
            Self::RepoContent(_) => SourceKind::RepoContent,
            Self::Document(d) => match d.kind {
                DocumentKind::File => SourceKind::File,
                DocumentKind::Lark => SourceKind::Lark,
            },
            Self::Managed(m) => match m.kind {
                ManagedKind::Note => SourceKind::Note,
                ManagedKind::Sessions => SourceKind::Sessions,
            },
        }
    }

    /// The validated citation.
    pub fn citation(&self) -> &Citation {
        match self {
            Self::Repo(r) => &r.citation,
            Self::RepoContent(r) => &r.citation,
            Self::Document(r) => &r.citation,
            Self::Managed(r) => &r.citation,
        }
    }

    /// A stable identity of the cited repository: the normalized remote (`github.com/acme/
    /// server`) when its shape is supported, else the raw remote or repository name with any
    /// credentials redacted. `None` for documents and notes.
    pub fn repository_key(&self) -> Option<String> {
        match self {
            Self::Repo(r) => Some(match &r.normalized {
                Some(n) => n.key(),
                None => remote::redact(&r.remote),
            }),
            Self::RepoContent(r) => match (&r.normalized, &r.repository) {
                (Some(n), _) => Some(n.key()),
                (None, Some(name)) => Some(remote::redact(name)),
                (None, None) => None,
            },
            _ => None,
        }
    }

    /// The commit the content is pinned to, when it is pinned (a full commit, not `+worktree`).
    pub fn commit(&self) -> Option<&str> {
        match self {
            Self::Repo(r) if r.pinned => Some(&r.git_ref),
            Self::RepoContent(r) if !r.worktree => Some(&r.commit),
            _ => None,
        }
    }

    /// The path of the cited file inside its source: `<subpath>/<locator.path>` for a
    /// repository module, `locator.path` otherwise.
    pub fn cited_path(&self) -> String {
        match self {
            Self::Repo(r) => {
                crate::formats::source_registry::join_path(&r.subpath, &r.citation.path)
            }
            other => other.citation().path.clone(),
        }
    }

    /// The commit-pinned web URL, when the reference has one.
    pub fn web_url(&self) -> Option<String> {
        let c = self.citation();
        match self {
            Self::Repo(r) => r.normalized.as_ref()?.blob_url(
                &r.git_ref,
                &self.cited_path(),
                c.start_line,
                c.end_line,
            ),
            Self::RepoContent(r) if !r.worktree => {
                r.normalized
                    .as_ref()?
                    .blob_url(&r.commit, &c.path, c.start_line, c.end_line)
            }
            _ => None,
        }
    }
}

/// Why a reference does not resolve. [`ResolveError::message`] is Context's exact message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResolveError {
    /// "Missing source source_ref".
    MissingSourceRef,
    /// "Invalid source_ref" (no `:`).
    InvalidSourceRef,
    /// "Missing source path".
    MissingPath,
    /// "Invalid source start line".
    InvalidStartLine,
    /// "Invalid source end line".
    InvalidEndLine,
    /// "Unsafe source path" (locator path or the name after `:`).
    UnsafeSourcePath,
    /// "Missing source content_digest".
    MissingDigest,
    /// "Invalid content digest".
    InvalidDigest,
    /// "Repository content requires a full commit".
    RepoContentNeedsCommit,
    /// "Invalid repository content identity".
    InvalidRepoContentId,
    /// "Repository identity is unsafe or contains credentials".
    UnsafeRepositoryIdentity,
    /// "Invalid managed document identity".
    InvalidManagedIdentity,
    /// "Unsupported source type".
    UnsupportedType,
    /// The registry (or a note file) cannot be used; the message is the file problem's.
    File(FileProblem),
    /// "Missing registry sources".
    MissingRegistrySources,
    /// "Missing source name".
    MissingSourceName,
    /// "Source registration is missing or ambiguous".
    Unregistered,
    /// "Missing source remote".
    MissingRemote,
    /// "Source remote is unsafe or contains credentials".
    UnsafeRemote,
    /// "Missing source ref".
    MissingRef,
    /// "Invalid source ref".
    InvalidRef,
    /// "Unsafe source subpath".
    UnsafeSubpath,
    /// "Unsafe source snapshot path".
    UnsafeSnapshotPath,
    /// "Ambiguous document identity".
    AmbiguousDocumentIdentity,
    /// "Missing source url" / "Missing source docToken" / "Missing source wikiToken".
    EmptyDocumentIdentity(&'static str),
    /// "Unsafe document identity".
    UnsafeDocumentIdentity,
    /// "Document URL contains credentials".
    DocumentUrlCredentials,
    /// "Unsafe snapshot manifest".
    UnsafeManifest,
}

impl ResolveError {
    /// The message Context's evidence plugin reports.
    pub fn message(&self) -> &'static str {
        match self {
            Self::MissingSourceRef => "Missing source source_ref",
            Self::InvalidSourceRef => "Invalid source_ref",
            Self::MissingPath => "Missing source path",
            Self::InvalidStartLine => "Invalid source start line",
            Self::InvalidEndLine => "Invalid source end line",
            Self::UnsafeSourcePath => "Unsafe source path",
            Self::MissingDigest => "Missing source content_digest",
            Self::InvalidDigest => "Invalid content digest",
            Self::RepoContentNeedsCommit => "Repository content requires a full commit",
            Self::InvalidRepoContentId => "Invalid repository content identity",
            Self::UnsafeRepositoryIdentity => {
                "Repository identity is unsafe or contains credentials"
            }
            Self::InvalidManagedIdentity => "Invalid managed document identity",
            Self::UnsupportedType => "Unsupported source type",
            Self::File(p) => p.message(),
            Self::MissingRegistrySources => "Missing registry sources",
            Self::MissingSourceName => "Missing source name",
            Self::Unregistered => "Source registration is missing or ambiguous",
            Self::MissingRemote => "Missing source remote",
            Self::UnsafeRemote => "Source remote is unsafe or contains credentials",
            Self::MissingRef => "Missing source ref",
            Self::InvalidRef => "Invalid source ref",
            Self::UnsafeSubpath => "Unsafe source subpath",
            Self::UnsafeSnapshotPath => "Unsafe source snapshot path",
            Self::AmbiguousDocumentIdentity => "Ambiguous document identity",
            Self::EmptyDocumentIdentity(field) => match *field {
                "url" => "Missing source url",
                "docToken" => "Missing source docToken",
                _ => "Missing source wikiToken",
            },
            Self::UnsafeDocumentIdentity => "Unsafe document identity",
            Self::DocumentUrlCredentials => "Document URL contains credentials",
            Self::UnsafeManifest => "Unsafe snapshot manifest",
        }
    }
}

impl std::fmt::Display for ResolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for ResolveError {}

/// The knowledge repository identity as usable: non-empty and free of control characters.
fn usable_repository(repository: Option<&str>) -> Option<&str> {
    repository.filter(|r| !r.is_empty() && !r.chars().any(char::is_control))
}

/// Resolves one recorded reference. `knowledge_repository` is the identity of the repository
/// holding the workspace (a remote URL or a name such as `team/knowledge`), used by
/// `repo-content:` references.
///
/// `note:`/`sessions:` references are checked for shape only; whether their file exists and
/// is UTF-8 is [`check_managed_file`]'s job, because this function does no I/O.
pub fn resolve(
    reference: &ReferenceEntry,
    registries: &Registries,
    knowledge_repository: Option<&str>,
) -> Result<ResolvedRef, ResolveError> {
    let source_ref = reference
        .source_ref
        .as_deref()
        .filter(|s| reference.source_ref_is_string && !s.is_empty())
        .ok_or(ResolveError::MissingSourceRef)?;
    let (kind, name) = source_ref
        .split_once(':')
        .ok_or(ResolveError::InvalidSourceRef)?;
    let parts = &reference.locator_parts;
    let path = parts
        .path
        .as_deref()
        .filter(|p| !p.is_empty())
        .ok_or(ResolveError::MissingPath)?;
    let start_line = parts
        .start_line
        .filter(|&v| v > 0 && v <= MAX_LINE)
        .ok_or(ResolveError::InvalidStartLine)?;
    let end_line = parts
        .end_line
        .filter(|&v| v >= start_line && v <= MAX_LINE)
        .ok_or(ResolveError::InvalidEndLine)?;
    if !is_safe_relative_path(path) || !is_safe_relative_path(name) {
        return Err(ResolveError::UnsafeSourcePath);
    }
    let digest = reference
        .content_digest
        .as_deref()
        .filter(|d| !d.is_empty())
        .ok_or(ResolveError::MissingDigest)?;
    if !crate::formats::text::is_sha256_digest(digest) {
        return Err(ResolveError::InvalidDigest);
    }
    let citation = Citation {
        source_ref: remote::redact(source_ref),
        path: path.to_string(),
        start_line,
        end_line,
        content_digest: digest.to_string(),
    };
    match kind {
        "repo-content" => resolve_repo_content(citation, name, knowledge_repository),
        "note" | "sessions" => {
            let (date, file) = name
                .split_once('/')
                .ok_or(ResolveError::InvalidManagedIdentity)?;
            if date.len() != 8
                || !date.bytes().all(|b| b.is_ascii_digit())
                || file.contains('/')
                || !file.ends_with(".md")
            {
                return Err(ResolveError::InvalidManagedIdentity);
            }
            Ok(ResolvedRef::Managed(ManagedRef {
                citation,
                kind: if kind == "note" {
                    ManagedKind::Note
                } else {
                    ManagedKind::Sessions
                },
                materialized_at: format!("sources/{kind}/{name}"),
            }))
        }
        "repo" => resolve_registered(citation, RegistryKind::Repo, name, registries),
        "file" => resolve_registered(citation, RegistryKind::File, name, registries),
        "lark" => resolve_registered(citation, RegistryKind::Lark, name, registries),
        _ => Err(ResolveError::UnsupportedType),
    }
}

/// Checks that a `note:`/`sessions:` reference's committed file exists and is UTF-8 text
/// (other references pass). `workspace_root` is repository-relative.
pub fn check_managed_file(
    resolved: &ResolvedRef,
    files: &dyn crate::formats::source_registry::WorkspaceFiles,
    workspace_root: &str,
) -> Result<(), ResolveError> {
    if let ResolvedRef::Managed(m) = resolved {
        let path = crate::formats::source_registry::join_path(workspace_root, &m.materialized_at);
        crate::formats::source_registry::read_text(files, &path).map_err(ResolveError::File)?;
    }
    Ok(())
}

fn resolve_repo_content(
    citation: Citation,
    name: &str,
    knowledge_repository: Option<&str>,
) -> Result<ResolvedRef, ResolveError> {
    let (id, version) = name
        .rsplit_once('@')
        .ok_or(ResolveError::RepoContentNeedsCommit)?;
    if id.is_empty()
        || !id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
    {
        return Err(ResolveError::InvalidRepoContentId);
    }
    let (commit, worktree) = match version.strip_suffix("+worktree") {
        Some(c) => (c, true),
        None => (version, false),
    };
    if !is_full_commit(commit) {
        return Err(ResolveError::RepoContentNeedsCommit);
    }
    let repository = usable_repository(knowledge_repository);
    if let Some(repo) = repository {
        let unsafe_url = repo.contains("://") && !remote::is_acceptable_remote(repo);
        if unsafe_url || remote::has_credentials(repo) {
            return Err(ResolveError::UnsafeRepositoryIdentity);
        }
    }
    Ok(ResolvedRef::RepoContent(RepoContentRef {
        citation,
        id: id.to_string(),
        commit: commit.to_string(),
        worktree,
        repository: repository.map(str::to_string),
        normalized: repository.and_then(remote::normalize),
    }))
}

fn resolve_registered(
    citation: Citation,
    kind: RegistryKind,
    name: &str,
    registries: &Registries,
) -> Result<ResolvedRef, ResolveError> {
    let registry = match registries.get(kind) {
        RegistryState::Absent => return Err(ResolveError::File(FileProblem::Unreadable)),
        RegistryState::Unusable(p) => return Err(ResolveError::File(p.clone())),
        RegistryState::Loaded(r) => r,
    };
    let found = registry.lookup(name).map_err(|e| match e {
        LookupError::MissingSources => ResolveError::MissingRegistrySources,
        LookupError::MissingName => ResolveError::MissingSourceName,
        LookupError::MissingOrAmbiguous => ResolveError::Unregistered,
    })?;
    let m = found.module;
    let module_name = m.name.clone().unwrap_or_default();
    if kind == RegistryKind::Repo {
        let remote_str = m
            .remote
            .as_deref()
            .filter(|s| !s.is_empty())
            .ok_or(ResolveError::MissingRemote)?;
        if !remote::is_acceptable_remote(remote_str) {
            return Err(ResolveError::UnsafeRemote);
        }
        let git_ref = m
            .git_ref
            .as_deref()
            .filter(|s| !s.is_empty())
            .ok_or(ResolveError::MissingRef)?;
        if git_ref.chars().any(char::is_control) {
            return Err(ResolveError::InvalidRef);
        }
        let subpath = m.subpath.as_deref().unwrap_or("");
        if !subpath.is_empty() && !is_safe_relative_path(subpath) {
            return Err(ResolveError::UnsafeSubpath);
        }
        return Ok(ResolvedRef::Repo(RepoRef {
            citation,
            source: found.namespace.unwrap_or_default().to_string(),
            module: module_name,
            remote: remote_str.to_string(),
            normalized: remote::normalize(remote_str),
            git_ref: git_ref.to_string(),
            pinned: is_full_commit(git_ref),
            subpath: subpath.to_string(),
        }));
    }
    let base = format!(
        "sources/{}/{}",
        kind.as_str(),
        found.namespace.unwrap_or(&module_name)
    );
    let materialized = m.materialized_at.as_deref().unwrap_or(&base);
    let inside = |p: &str| {
        p.len() > base.len() && p.starts_with(base.as_str()) && p.as_bytes()[base.len()] == b'/'
    };
    if !is_safe_relative_path(materialized) || !(materialized == base || inside(materialized)) {
        return Err(ResolveError::UnsafeSnapshotPath);
    }
    let mut identity = None;
    if kind == RegistryKind::Lark {
        let given: Vec<(&'static str, &str)> = [
            ("url", &m.url),
            ("docToken", &m.doc_token),
            ("wikiToken", &m.wiki_token),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_deref().map(|v| (k, v)))
        .collect();
        let [(field, value)] = given.as_slice() else {
            return Err(ResolveError::AmbiguousDocumentIdentity);
        };
        if value.is_empty() {
            return Err(ResolveError::EmptyDocumentIdentity(field));
        }
        let is_url = *field == "url";
        if is_url && !(value.starts_with("https://") || value.starts_with("http://"))
            || value.chars().any(char::is_control)
        {
            return Err(ResolveError::UnsafeDocumentIdentity);
        }
        if is_url && value.split('/').nth(2).is_some_and(|a| a.contains('@')) {
            return Err(ResolveError::DocumentUrlCredentials);
        }
        identity = Some(match *field {
            "url" => DocumentIdentity::Url(remote::redact_url(value)),
            "docToken" => DocumentIdentity::DocToken(value.to_string()),
            _ => DocumentIdentity::WikiToken(value.to_string()),
        });
    }
    let manifest = m
        .manifest
        .clone()
        .or_else(|| found.namespace.map(|_| format!("{base}/manifest.json")));
    if let Some(manifest) = &manifest {
        if !is_safe_relative_path(manifest) || !inside(manifest) {
            return Err(ResolveError::UnsafeManifest);
        }
    }
    Ok(ResolvedRef::Document(DocumentRef {
        citation,
        kind: if kind == RegistryKind::File {
            DocumentKind::File
        } else {
            DocumentKind::Lark
        },
        namespace: found.namespace.map(str::to_string),
        name: module_name,
        materialized_at: materialized.to_string(),
        manifest,
        identity,
    }))
}

/// `source_ref` (already [`remote::redact`]ed) as an unresolved reference is shown, in the
/// graph's messages and Source nodes and in drift's and impact's reports: as written, unless it holds a `?`, a
/// `#`, or an `@` that is neither the SSH user `git`'s nor a revision's (`…@<hex commit>`,
/// `…@HEAD`); then its kind and `***`.
pub fn shown_unresolved(source_ref: &str) -> String {
    let revision = |after: &str| {
        after.starts_with("HEAD") || after.bytes().take_while(u8::is_ascii_hexdigit).count() >= 7
    };
    let suspicious = source_ref.contains(['?', '#'])
        || source_ref
            .match_indices('@')
            .any(|(i, _)| !revision(&source_ref[i + 1..]) && !source_ref[..i].ends_with("git"));
    if suspicious {
        format!("{}:***", source_ref.split(':').next().unwrap_or(""))
    } else {
        source_ref.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::source_registry::{Registry, RegistryState};
    use crate::formats::structure::{parse_structure, ReferenceEntry};

    const C40: &str = "9fceb02d0ae598e95dc970b74767f19372d61af8";
    const D: &str = "sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae";

    fn reference(source_ref: &str, path: &str, start: u64, end: u64) -> ReferenceEntry {
        let text = format!(
            "schema_version: x\narticles:\n- path: a.md\n  sections:\n  - id: s\n    references:\n    - source_ref: '{source_ref}'\n      locator: {{path: '{path}', start_line: {start}, end_line: {end}}}\n      content_digest: {D}\n"
        );
        let s = parse_structure(&text).expect("structure");
        s.articles.expect("articles")[0]
            .sections
            .as_ref()
            .expect("sections")[0]
            .references
            .as_ref()
            .expect("references")[0]
            .clone()
    }

    fn registries(repo: &str) -> Registries {
        let mut r = Registries::empty();
        let v = crate::formats::yaml::parse_value(repo).expect("yaml");
        r.repo = RegistryState::Loaded(Registry::from_value(RegistryKind::Repo, &v));
        r
    }

    #[test]
    fn repo_module_helpers() {
        let regs = registries(&format!(
            "sources:\n- name: acme\n  modules:\n  - name: server\n    subpath: crates/server\n    git: {{remote: 'git@github.com:acme/server.git', ref: '{C40}'}}\n  - name: branch\n    git: {{remote: 'https://example.org:8443/acme/x', ref: main}}\n"
        ));
        let r = resolve(
            &reference("repo:acme/server", "src/lib.rs", 3, 9),
            &regs,
            None,
        )
        .expect("resolves");
        assert_eq!(r.kind(), SourceKind::Repo);
        assert_eq!(
            r.repository_key().as_deref(),
            Some("github.com/acme/server")
        );
        assert_eq!(r.commit(), Some(C40));
        assert_eq!(r.cited_path(), "crates/server/src/lib.rs");
        assert_eq!(
            r.web_url().as_deref(),
            Some("https://github.com/acme/server/blob/9fceb02d0ae598e95dc970b74767f19372d61af8/crates/server/src/lib.rs#L3-L9")
        );
        let ResolvedRef::Repo(repo) = &r else {
            panic!("{r:?}")
        };
        assert_eq!(
            (repo.source.as_str(), repo.module.as_str()),
            ("acme", "server")
        );
        assert_eq!(repo.remote, "git@github.com:acme/server.git");

        let b = resolve(&reference("repo:acme/branch", "x", 1, 1), &regs, None).expect("resolves");
        assert_eq!(b.commit(), None);
        assert_eq!(b.web_url(), None);
        assert_eq!(
            b.repository_key().as_deref(),
            Some("https://example.org:8443/acme/x")
        );
    }

    #[test]
    fn repo_content_identity() {
        let regs = Registries::empty();
        let r = resolve(
            &reference(&format!("repo-content:kb.v2@{C40}"), "docs/a.md", 1, 1),
            &regs,
            Some("https://github.com/acme/kb.git"),
        )
        .expect("resolves");
        assert_eq!(r.commit(), Some(C40));
        assert_eq!(r.repository_key().as_deref(), Some("github.com/acme/kb"));
        assert!(r.web_url().is_some());
        let w = resolve(
            &reference(
                &format!("repo-content:kb@{C40}+worktree"),
                "docs/a.md",
                1,
                1,
            ),
            &regs,
            Some("acme/kb"),
        )
        .expect("resolves");
        assert_eq!(w.commit(), None);
        assert_eq!(w.web_url(), None);
        assert_eq!(w.repository_key().as_deref(), Some("acme/kb"));
        for (sr, err) in [
            (
                "repo-content:kb@abc1234",
                ResolveError::RepoContentNeedsCommit,
            ),
            ("repo-content:kb", ResolveError::RepoContentNeedsCommit),
            (
                &format!("repo-content:a/b@{C40}") as &str,
                ResolveError::InvalidRepoContentId,
            ),
            (
                &format!("repo-content:@{C40}"),
                ResolveError::InvalidRepoContentId,
            ),
        ] {
            assert_eq!(
                resolve(&reference(sr, "x", 1, 1), &regs, None),
                Err(err),
                "{sr}"
            );
        }
        assert_eq!(
            resolve(
                &reference(&format!("repo-content:kb@{C40}"), "x", 1, 1),
                &regs,
                Some("https://u:p@github.com/acme/kb")
            ),
            Err(ResolveError::UnsafeRepositoryIdentity)
        );
    }

    #[test]
    fn errors_carry_context_messages() {
        let regs = Registries::empty();
        let e = resolve(&reference("repo:a/b", "x", 1, 1), &regs, None).unwrap_err();
        assert_eq!(
            e.message(),
            "Host could not read the requested repository file"
        );
        let e = resolve(&reference("lark:doc", "x", 1, 1), &regs, None).unwrap_err();
        assert_eq!(e, ResolveError::File(FileProblem::Unreadable));
        assert_eq!(
            resolve(&reference("svn:a", "x", 1, 1), &regs, None)
                .unwrap_err()
                .message(),
            "Unsupported source type"
        );
        let managed = resolve(&reference("note:20260901/n.md", "x", 1, 1), &regs, None)
            .expect("shape is valid");
        assert_eq!(managed.kind(), SourceKind::Note);
        assert_eq!(managed.repository_key(), None);
        let files = |_: &str| Err(crate::formats::source_registry::FileReadError::Unreadable);
        assert_eq!(
            check_managed_file(&managed, &files, "kb"),
            Err(ResolveError::File(FileProblem::Unreadable))
        );
    }
}
