//! The references of a returned page range: what an agent receives beside the page text.
//!
//! For a knowledge page and a line range, every section overlapping the range contributes the
//! references recorded for it in `knowledge/structure.yaml`, resolved through the registries;
//! problems become diagnostics. The rendering is byte-compatible with Context's evidence
//! plugin: YAML in the serde_yaml family's block style, `diagnostics:` before `references:`,
//! keys sorted, a pinned repository reference reduced to its URL.
//!
//! One function serves the plugin contract, a section-references capability and pinned reads:
//! [`ReferenceContext::references_for_range`]. Files are read through [`WorkspaceFiles`]
//! lazily — the structure only when some section overlaps, a registry only when a reference
//! needs it — so that a failure in a file nobody needs never shows.

use crate::diagnostics::Code;
use crate::formats::markers::{overlapping, parse_sections, SectionSpan};
use crate::formats::parsed::{Parsed, StructureParse};
use crate::formats::source_ref::{
    check_managed_file, resolve, DocumentIdentity, ResolveError, ResolvedRef,
};
use crate::formats::source_registry::{
    is_safe_relative_path, join_path, load_registry, read_text, FileProblem, Registries,
    RegistryKind, RegistryState, WorkspaceFiles,
};
use crate::formats::structure::{ReferenceEntry, Structure, SCHEMA_VERSION};
use crate::formats::yaml::YamlErrorKind;
use serde_json::{json, Map, Value};
use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// The note attached to `+worktree` references.
pub const WORKTREE_NOTE: &str =
    "Uncommitted evidence; HEAD alone cannot reproduce the recorded content";

/// The structure a context answers from: its own read, or the build's parse.
enum StructureRef<'a> {
    Read(Arc<Structure>),
    Parsed(&'a Structure),
}

impl std::ops::Deref for StructureRef<'_> {
    type Target = Structure;
    fn deref(&self) -> &Structure {
        match self {
            StructureRef::Read(s) => s,
            StructureRef::Parsed(s) => s,
        }
    }
}

/// One diagnostic of the references output.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// The code: [`Code::SectionUnresolved`], [`Code::SourceUnresolved`] or
    /// [`Code::EvidenceUnavailable`].
    pub code: Code,
    /// Context's message.
    pub message: String,
    /// The page path as requested (repository-relative).
    pub path: String,
    /// The section, for section and source diagnostics.
    pub section_id: Option<String>,
    /// For source diagnostics: `source_ref` as recorded (a string, another scalar, or null
    /// when absent), echoed as Context does.
    pub source_ref: Option<Value>,
}

impl Diagnostic {
    /// The diagnostic as a JSON object (keys sorted on serialization).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("code".into(), json!(self.code.as_str()));
        m.insert("message".into(), json!(self.message));
        m.insert("path".into(), json!(self.path));
        if let Some(id) = &self.section_id {
            m.insert("section_id".into(), json!(id));
        }
        if let Some(r) = &self.source_ref {
            m.insert("source_ref".into(), r.clone());
        }
        Value::Object(m)
    }
}

/// The resolved references of one section (after in-section de-duplication).
#[derive(Debug, Clone, PartialEq)]
pub struct SectionReferences {
    /// The section id.
    pub section_id: String,
    /// Its first marker line and last marker line.
    pub span: (u64, u64),
    /// The references that resolved, in recorded order.
    pub resolved: Vec<ResolvedRef>,
}

/// The references output of one page range.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReferencesOutput {
    /// Diagnostics, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// The rendered references, de-duplicated across sections, in document order.
    pub references: Vec<Value>,
    /// The typed resolution, per overlapping section (empty when evidence is unavailable).
    pub sections: Vec<SectionReferences>,
}

impl ReferencesOutput {
    /// Whether there is nothing to say (no references and no diagnostics).
    pub fn is_empty(&self) -> bool {
        self.references.is_empty() && self.diagnostics.is_empty()
    }

    /// The output as a JSON object `{diagnostics?, references?}`, or `None` when empty.
    pub fn to_json(&self) -> Option<Value> {
        if self.is_empty() {
            return None;
        }
        let mut body = Map::new();
        if !self.diagnostics.is_empty() {
            body.insert(
                "diagnostics".into(),
                Value::Array(self.diagnostics.iter().map(Diagnostic::to_json).collect()),
            );
        }
        if !self.references.is_empty() {
            body.insert("references".into(), Value::Array(self.references.clone()));
        }
        Some(Value::Object(body))
    }

    /// The output as YAML text, byte-compatible with Context's plugin, or `None` when empty.
    pub fn to_yaml(&self) -> Option<String> {
        yaml_serde::to_string(&self.to_json()?).ok()
    }
}

/// A returned page range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeQuery<'a> {
    /// The page's repository-relative path, e.g. `knowledge/faq/guide.md` (with the workspace
    /// root in front when the workspace is not the repository root).
    pub path: &'a str,
    /// First returned line (1-based).
    pub start_line: u64,
    /// Last returned line (inclusive).
    pub end_line: u64,
    /// Whether pinned URLs come with their `content_digest` (structured references then carry
    /// it too).
    pub include_digest: bool,
}

/// Everything needed to answer range queries over one workspace, with lazily loaded, cached
/// structure and registries. `Sync`: one context can serve many threads.
pub struct ReferenceContext<'f> {
    files: &'f dyn WorkspaceFiles,
    workspace_root: String,
    knowledge_repository: Option<String>,
    structure: OnceLock<Result<Arc<Structure>, FileProblem>>,
    /// The registries, and which kinds have been loaded (lazily, on first need).
    registries: Mutex<(Registries, [bool; 3])>,
    /// The build's parses, when the context answers from them instead of reading files.
    parsed: Option<Arc<Parsed>>,
    /// Parses of structure texts kept across contexts (a server's reads), by content.
    cache: Option<Arc<StructureCache>>,
}

/// The last structure text parsed, by its blake3, and what its parse gave: kept by whoever
/// serves many reads of one workspace (a server's reader, `read-many`), so that each read of a
/// page re-reads the structure but parses it only when its bytes changed (a 74 MB structure
/// took 0.25–0.6 s to parse on every read of a page at 100k sections). One entry: reads name one
/// workspace, and two structures alive at once would double the memory held.
#[derive(Debug, Default)]
pub struct StructureCache {
    last: Mutex<Option<(blake3::Hash, StructureResult)>>,
}

/// A structure text's parse, or why it has none.
type StructureResult = Result<Arc<Structure>, FileProblem>;

impl StructureCache {
    /// The parse of `text`, from the cache when the last text parsed had the same bytes.
    fn parse(&self, text: &str) -> StructureResult {
        let key = blake3::hash(text.as_bytes());
        if let Some((k, parsed)) = lock(&self.last).as_ref() {
            if *k == key {
                return parsed.clone();
            }
        }
        let parsed = parse_structure_text(text);
        *lock(&self.last) = Some((key, parsed.clone()));
        parsed
    }
}

/// The structure as the references output reads it (it must have a JSON form).
fn parse_structure_text(text: &str) -> StructureResult {
    crate::formats::structure::load_structure(text)
        .map(Arc::new)
        .map_err(|e| FileProblem::Yaml {
            kind: e.kind,
            line: e.line,
            detail: e.message,
        })
}

/// Locks a mutex whose data stays consistent even if a holder panicked (every update is a
/// single assignment).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn kind_index(kind: RegistryKind) -> usize {
    match kind {
        RegistryKind::Repo => 0,
        RegistryKind::File => 1,
        RegistryKind::Lark => 2,
    }
}

impl<'f> ReferenceContext<'f> {
    /// A context over `files` for the workspace at `workspace_root` (repository-relative, `""`
    /// or `"."` for the repository root). `knowledge_repository` identifies the repository
    /// holding the workspace, for `repo-content:` references.
    pub fn new(
        files: &'f dyn WorkspaceFiles,
        workspace_root: &str,
        knowledge_repository: Option<&str>,
    ) -> Self {
        let root = if workspace_root == "." {
            ""
        } else {
            workspace_root
        };
        let mut registries = Registries::empty();
        registries.workspace_root = root.to_string();
        Self {
            files,
            workspace_root: root.to_string(),
            knowledge_repository: knowledge_repository.map(str::to_string),
            structure: OnceLock::new(),
            registries: Mutex::new((registries, [false; 3])),
            parsed: None,
            cache: None,
        }
    }

    /// Parses the structure through `cache`: a structure whose bytes it last saw is not
    /// parsed again.
    pub fn with_structure_cache(mut self, cache: Arc<StructureCache>) -> Self {
        self.cache = Some(cache);
        self
    }

    /// A context over a workspace's working tree that answers from the build's parses (the
    /// page's sections, the structure and the registries as the graph was built from them):
    /// `files` is read only to check that `note:` and `sessions:` documents exist.
    pub fn from_parsed(files: &'f dyn WorkspaceFiles, parsed: Arc<Parsed>) -> Self {
        let mut cx = Self::new(files, "", None);
        *lock(&cx.registries) = (parsed.registries.clone(), [true; 3]);
        cx.parsed = Some(parsed);
        cx
    }

    /// Uses an already parsed structure instead of reading `knowledge/structure.yaml`.
    pub fn with_structure(self, structure: Arc<Structure>) -> Self {
        let _ = self.structure.set(Ok(structure));
        self
    }

    /// Uses already loaded registries instead of reading them.
    pub fn with_registries(self, registries: Registries) -> Self {
        *lock(&self.registries) = (registries, [true; 3]);
        self
    }

    /// The workspace root, normalized (`""` for the repository root).
    pub fn workspace_root(&self) -> &str {
        &self.workspace_root
    }

    fn structure(&self) -> Result<StructureRef<'_>, FileProblem> {
        if let Some(p) = &self.parsed {
            return match &p.structure.1 {
                StructureParse::Parsed(s) => Ok(StructureRef::Parsed(s)),
                StructureParse::Invalid(detail, line) => Err(FileProblem::Yaml {
                    kind: YamlErrorKind::Invalid,
                    line: *line,
                    detail: detail.clone(),
                }),
                StructureParse::NotUtf8 { .. } => Err(FileProblem::NotUtf8),
                StructureParse::Unreadable(_) => Err(FileProblem::Unreadable),
            };
        }
        self.structure
            .get_or_init(|| {
                let path = join_path(&self.workspace_root, "knowledge/structure.yaml");
                let text = read_text(self.files, &path)?;
                match &self.cache {
                    Some(cache) => cache.parse(&text),
                    None => parse_structure_text(&text),
                }
            })
            .clone()
            .map(StructureRef::Read)
    }

    /// Resolves one reference, loading the registry it needs and checking note files.
    pub fn resolve(&self, reference: &ReferenceEntry) -> Result<ResolvedRef, ResolveError> {
        let needed = reference
            .source_ref
            .as_deref()
            .and_then(|s| s.split_once(':'))
            .and_then(|(k, _)| match k {
                "repo" => Some(RegistryKind::Repo),
                "file" => Some(RegistryKind::File),
                "lark" => Some(RegistryKind::Lark),
                _ => None,
            });
        let resolved = {
            let mut guard = lock(&self.registries);
            let (registries, loaded) = &mut *guard;
            if let Some(kind) = needed {
                let i = kind_index(kind);
                if !loaded[i] {
                    let state: RegistryState =
                        load_registry(self.files, &self.workspace_root, kind);
                    registries.set(kind, state);
                    loaded[i] = true;
                }
            }
            resolve(reference, registries, self.knowledge_repository.as_deref())?
        };
        check_managed_file(&resolved, self.files, &self.workspace_root)?;
        Ok(resolved)
    }

    /// The references output for a returned range of a page. A path outside
    /// `<workspace_root>/knowledge/` or not ending in `.md` has no references (empty output).
    pub fn references_for_range(&self, query: &RangeQuery) -> ReferencesOutput {
        let mut out = ReferencesOutput::default();
        let prefix = join_path(&self.workspace_root, "knowledge/");
        let Some(article_path) = query.path.strip_prefix(prefix.as_str()) else {
            return out;
        };
        if !article_path.ends_with(".md") {
            return out;
        }
        let result = self.collect(query, article_path, &mut out.diagnostics);
        match result {
            Ok(sections) => {
                let mut seen = HashSet::new();
                for (_, values) in &sections {
                    for v in values {
                        if seen.insert(v.to_string()) {
                            out.references.push(v.clone());
                        }
                    }
                }
                out.sections = sections.into_iter().map(|(s, _)| s).collect();
            }
            Err(message) => out.diagnostics.push(Diagnostic {
                code: Code::EvidenceUnavailable,
                message: message.to_string(),
                path: query.path.to_string(),
                section_id: None,
                source_ref: None,
            }),
        }
        out
    }

    /// The sections of a page that overlap the query, from the page itself.
    fn selected_sections(&self, query: &RangeQuery) -> Result<Vec<SectionSpan>, &'static str> {
        if !is_safe_relative_path(query.path)
            || query.start_line == 0
            || query.end_line < query.start_line
        {
            return Err("Invalid returned file range");
        }
        if let Some(parsed) = &self.parsed {
            let page = query
                .path
                .strip_prefix("knowledge/")
                .and_then(|p| parsed.pages.get(p))
                .ok_or(FileProblem::Unreadable.message())?;
            match &page.unusable {
                Some((Code::PageNotUtf8, _, _)) => return Err(FileProblem::NotUtf8.message()),
                Some(_) => return Err(FileProblem::Unreadable.message()),
                None => {}
            }
            if let Some(first) = page.marker_errors.first() {
                return Err(first.kind.message());
            }
            return Ok(
                overlapping(&page.sections, query.start_line, query.end_line)
                    .cloned()
                    .collect(),
            );
        }
        let text = read_text(self.files, query.path).map_err(|p| p.message())?;
        let page = parse_sections(&text);
        if let Some(first) = page.errors.first() {
            return Err(first.kind.message());
        }
        Ok(
            overlapping(&page.sections, query.start_line, query.end_line)
                .cloned()
                .collect(),
        )
    }

    #[allow(clippy::type_complexity)]
    fn collect(
        &self,
        query: &RangeQuery,
        article_path: &str,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<Vec<(SectionReferences, Vec<Value>)>, &'static str> {
        let selected = self.selected_sections(query)?;
        if selected.is_empty() {
            return Ok(Vec::new());
        }
        let structure = self.structure().map_err(|p| p.message())?;
        if structure.schema_version.as_deref() != Some(SCHEMA_VERSION) {
            return Err("Unsupported approved structure schema");
        }
        let articles = structure
            .articles
            .as_ref()
            .ok_or("Missing structure articles")?;
        let mut matching = articles
            .iter()
            .filter(|a| a.path.as_deref() == Some(article_path));
        let (Some(article), None) = (matching.next(), matching.next()) else {
            return Err("Article structure is missing or ambiguous");
        };
        let registered = article
            .sections
            .as_ref()
            .ok_or("Missing structure sections")?;
        let mut results = Vec::new();
        for span in selected {
            let mut matching = registered
                .iter()
                .filter(|s| s.id.as_deref() == Some(span.id.as_str()));
            let (Some(section), None) = (matching.next(), matching.next()) else {
                diagnostics.push(Diagnostic {
                    code: Code::SectionUnresolved,
                    message: "Section registration is missing or ambiguous".into(),
                    path: query.path.to_string(),
                    section_id: Some(span.id.clone()),
                    source_ref: None,
                });
                continue;
            };
            let refs = section
                .references
                .as_ref()
                .ok_or("Missing section references")?;
            let mut seen = HashSet::new();
            let mut values = Vec::new();
            let mut resolved = Vec::new();
            for reference in refs {
                match self.resolve(reference) {
                    Ok(r) => {
                        let v = render(&r, query.include_digest, &self.workspace_root);
                        if seen.insert(v.to_string()) {
                            values.push(v);
                            resolved.push(r);
                        }
                    }
                    Err(e) => diagnostics.push(Diagnostic {
                        code: Code::SourceUnresolved,
                        message: e.message().to_string(),
                        path: query.path.to_string(),
                        section_id: Some(span.id.clone()),
                        source_ref: Some(reference.source_ref_json()),
                    }),
                }
            }
            results.push((
                SectionReferences {
                    section_id: span.id.clone(),
                    span: (span.start, span.end),
                    resolved,
                },
                values,
            ));
        }
        Ok(results)
    }
}

/// One-shot form of [`ReferenceContext::references_for_range`].
pub fn references_for_range(
    query: &RangeQuery,
    files: &dyn WorkspaceFiles,
    workspace_root: &str,
    knowledge_repository: Option<&str>,
) -> ReferencesOutput {
    ReferenceContext::new(files, workspace_root, knowledge_repository).references_for_range(query)
}

/// Renders one resolved reference as the plugin does: a pinned repository reference with a
/// supported remote is its URL (with `include_digest`, `{content_digest, url}`); anything else
/// keeps its structured fields. Paths of snapshots are prefixed with the workspace root.
pub fn render(resolved: &ResolvedRef, include_digest: bool, workspace_root: &str) -> Value {
    let c = resolved.citation();
    if let Some(url) = resolved.web_url() {
        return if include_digest {
            json!({"content_digest": c.content_digest, "url": url})
        } else {
            Value::String(url)
        };
    }
    let mut m = Map::new();
    m.insert("source_ref".into(), json!(c.source_ref));
    m.insert("path".into(), json!(resolved.cited_path()));
    m.insert("start_line".into(), json!(c.start_line));
    m.insert("end_line".into(), json!(c.end_line));
    let worktree = matches!(resolved, ResolvedRef::RepoContent(r) if r.worktree);
    if include_digest || worktree {
        m.insert("content_digest".into(), json!(c.content_digest));
    }
    match resolved {
        ResolvedRef::Repo(r) => {
            m.insert("remote".into(), json!(r.remote));
            m.insert("ref".into(), json!(r.git_ref));
        }
        ResolvedRef::RepoContent(r) => {
            let version = if r.worktree {
                format!("{}+worktree", r.commit)
            } else {
                r.commit.clone()
            };
            m.insert("ref".into(), json!(version));
            if let Some(repo) = &r.repository {
                m.insert("repository".into(), json!(repo));
            }
            if r.worktree {
                m.insert("note".into(), json!(WORKTREE_NOTE));
            }
        }
        ResolvedRef::Document(d) => {
            m.insert(
                "materialized_at".into(),
                json!(join_path(workspace_root, &d.materialized_at)),
            );
            match &d.identity {
                Some(DocumentIdentity::Url(u)) => m.insert("url".into(), json!(u)),
                Some(DocumentIdentity::DocToken(t)) => m.insert("docToken".into(), json!(t)),
                Some(DocumentIdentity::WikiToken(t)) => m.insert("wikiToken".into(), json!(t)),
                None => None,
            };
            if let Some(manifest) = &d.manifest {
                m.insert(
                    "manifest".into(),
                    json!(join_path(workspace_root, manifest)),
                );
            }
        }
        ResolvedRef::Managed(n) => {
            m.insert(
                "materialized_at".into(),
                json!(join_path(workspace_root, &n.materialized_at)),
            );
        }
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::source_registry::FileReadError;
    use std::collections::BTreeMap;

    const C40: &str = "9fceb02d0ae598e95dc970b74767f19372d61af8";
    const D: &str = "sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae";

    fn workspace(
        files: &[(&str, String)],
    ) -> impl Fn(&str) -> Result<Vec<u8>, FileReadError> + Sync {
        let map: BTreeMap<String, Vec<u8>> = files
            .iter()
            .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
            .collect();
        move |p: &str| map.get(p).cloned().ok_or(FileReadError::Unreadable)
    }

    fn page() -> String {
        "# T\n<!-- context:section id=\"one\" -->\nx\n<!-- /context:section -->\n<!-- context:section id=\"two: x\" -->\ny\n<!-- /context:section -->\n".into()
    }

    fn structure() -> String {
        format!(
            "schema_version: context.approved-structure.v1\narticles:\n  - article_id: p\n    path: p.md\n    sections:\n      - id: one\n        references:\n          - source_ref: repo:acme/server\n            locator: {{path: src/a b.rs, start_line: 2, end_line: 2}}\n            content_digest: {D}\n          - source_ref: repo:acme/branch\n            locator: {{path: src/b.rs, start_line: 1, end_line: 4}}\n            content_digest: {D}\n          - source_ref: repo:acme/missing\n            locator: {{path: src/b.rs, start_line: 1, end_line: 4}}\n            content_digest: {D}\n      - id: 'two: x'\n        references:\n          - source_ref: file:ns/doc\n            locator: {{path: body.md, start_line: 1, end_line: 1}}\n            content_digest: {D}\n          - source_ref: repo:acme/server\n            locator: {{path: src/a b.rs, start_line: 2, end_line: 2}}\n            content_digest: {D}\n"
        )
    }

    fn registry() -> String {
        format!("sources:\n  - name: acme\n    modules:\n      - name: server\n        git: {{remote: https://github.com/acme/server.git, ref: '{C40}'}}\n      - name: branch\n        subpath: lib\n        git: {{remote: https://github.com/acme/server.git, ref: main}}\n")
    }

    #[test]
    fn output_yaml_snapshot() {
        let files = workspace(&[
            ("kb/knowledge/p.md", page()),
            ("kb/knowledge/structure.yaml", structure()),
            ("kb/sources/repo/index.yaml", registry()),
            (
                "kb/sources/file/index.yaml",
                "sources:\n  - name: ns\n    modules:\n      - name: doc\n".into(),
            ),
        ]);
        let ctx = ReferenceContext::new(&files, "kb", Some("acme/kb"));
        let out = ctx.references_for_range(&RangeQuery {
            path: "kb/knowledge/p.md",
            start_line: 1,
            end_line: 7,
            include_digest: false,
        });
        // The pinned reference of section "two: x" repeats one of section "one": kept once.
        assert_eq!(out.references.len(), 3);
        assert_eq!(out.sections.len(), 2);
        assert_eq!(out.sections[1].resolved.len(), 2);
        insta::assert_snapshot!(out.to_yaml().unwrap_or_default());

        let none = ctx.references_for_range(&RangeQuery {
            path: "kb/knowledge/p.md",
            start_line: 1,
            end_line: 1,
            include_digest: false,
        });
        assert!(none.is_empty());
        assert_eq!(none.to_yaml(), None);
    }

    #[test]
    fn one_context_serves_many_threads() {
        fn assert_sync<T: Sync>(_: &T) {}
        let files = workspace(&[
            ("knowledge/p.md", page()),
            ("knowledge/structure.yaml", structure()),
            ("sources/repo/index.yaml", registry()),
        ]);
        let ctx = ReferenceContext::new(&files, "", None);
        assert_sync(&ctx);
        let query = RangeQuery {
            path: "knowledge/p.md",
            start_line: 1,
            end_line: 7,
            include_digest: false,
        };
        let alone = ctx.references_for_range(&query);
        let together: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|_| s.spawn(|| ctx.references_for_range(&query)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("thread"))
                .collect()
        });
        assert!(together.iter().all(|o| o == &alone));
    }

    #[test]
    fn a_structure_cache_parses_again_only_when_the_bytes_change() {
        let cache = Arc::new(StructureCache::default());
        let q = RangeQuery {
            path: "knowledge/p.md",
            start_line: 1,
            end_line: 7,
            include_digest: false,
        };
        let answer = |structure: String| {
            let files = workspace(&[
                ("knowledge/p.md", page()),
                ("knowledge/structure.yaml", structure),
                ("sources/repo/index.yaml", registry()),
            ]);
            let out = ReferenceContext::new(&files, "", None)
                .with_structure_cache(cache.clone())
                .references_for_range(&q);
            let uncached = ReferenceContext::new(&files, "", None).references_for_range(&q);
            assert_eq!(out, uncached, "a cached parse answers as a fresh one");
            out
        };
        let first = answer(structure());
        let parsed = |c: &StructureCache| lock(&c.last).as_ref().map(|(_, p)| p.clone());
        let Some(Ok(kept)) = parsed(&cache) else {
            panic!("the parse is kept");
        };
        // The same bytes: the kept parse itself answers.
        assert_eq!(answer(structure()), first);
        assert!(matches!(parsed(&cache), Some(Ok(p)) if Arc::ptr_eq(&p, &kept)));
        // Other bytes (section two's references dropped): parsed again, never the stale parse.
        let edited = structure()
            .split("      - id: 'two: x'")
            .next()
            .unwrap_or_default()
            .to_string();
        let second = answer(edited);
        assert_ne!(second, first);
        assert!(matches!(parsed(&cache), Some(Ok(p)) if !Arc::ptr_eq(&p, &kept)));
        // A failed parse is kept as a failure too.
        let broken = answer("schema_version: [".into());
        assert!(matches!(
            parsed(&cache),
            Some(Err(FileProblem::Yaml { .. }))
        ));
        assert_eq!(broken.diagnostics.len(), 1);
        assert_eq!(answer(structure()), first);
    }

    #[test]
    fn structure_is_read_only_when_a_section_overlaps() {
        let files = workspace(&[
            ("knowledge/p.md", page()),
            ("knowledge/structure.yaml", "schema_version: [".into()),
        ]);
        let ctx = ReferenceContext::new(&files, ".", None);
        let q = |s, e| RangeQuery {
            path: "knowledge/p.md",
            start_line: s,
            end_line: e,
            include_digest: false,
        };
        assert!(ctx.references_for_range(&q(1, 1)).is_empty());
        let out = ctx.references_for_range(&q(3, 3));
        assert_eq!(out.diagnostics.len(), 1);
        assert_eq!(out.diagnostics[0].code, Code::EvidenceUnavailable);
        assert_eq!(out.diagnostics[0].message, "Invalid YAML metadata");
        assert!(out.references.is_empty() && out.sections.is_empty());
    }

    #[test]
    fn preloaded_parts_are_used() {
        let files = workspace(&[("knowledge/p.md", page())]);
        let structure = crate::formats::structure::load_structure(&structure()).expect("structure");
        let regs_files = workspace(&[("sources/repo/index.yaml", registry())]);
        let regs = Registries::load(&regs_files, "");
        let ctx = ReferenceContext::new(&files, "", None)
            .with_structure(Arc::new(structure))
            .with_registries(regs);
        let out = ctx.references_for_range(&RangeQuery {
            path: "knowledge/p.md",
            start_line: 3,
            end_line: 3,
            include_digest: true,
        });
        let yaml = out.to_yaml().unwrap_or_default();
        assert!(
            yaml.starts_with("diagnostics:\n- code: SOURCE_UNRESOLVED\n"),
            "{yaml}"
        );
        assert!(yaml.contains("- content_digest: sha256:2c26"), "{yaml}");
        assert!(yaml.contains("/blob/9fceb02d0ae598e95dc970b74767f19372d61af8/src/a%20b.rs#L2\n"));
    }
}
