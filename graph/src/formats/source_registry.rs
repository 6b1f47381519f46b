//! Source registries (`sources/repo|file|lark/index.yaml`) and the small file-reading
//! abstraction through which every workspace reader sees files.
//!
//! Files are addressed by repository-relative paths: a workspace that is its own repository
//! has the workspace root `""`; in a monorepo the plugin passes e.g. `docs/kb`. The same
//! readers therefore serve a workspace directory and the plugin's `--root DIR`.
//!
//! Registries are parsed tolerantly into typed entries; a lookup reproduces Context's rules,
//! including that one nameless entry makes the whole registry unusable ("Missing source name")
//! — a registry with a hole cannot say that a match is unique.

use crate::diagnostics::Code;
use crate::formats::confined::{Confined, ConfinedError};
use crate::formats::yaml::{get_str, parse_json_compatible, NodeBudget, YamlErrorKind};
use std::path::{Path, PathBuf};
use yaml_serde::Value;

pub use crate::formats::location::{is_safe_relative_path, join_path, MAX_PATH_BYTES};

/// Why a file could not be read. The underlying error is deliberately not kept: it can name
/// private paths, and the format allows only one message for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileReadError {
    /// Missing, a directory, unreadable: anything the host could not read.
    Unreadable,
    /// Larger than the reader's budget.
    TooLarge,
}

/// Read access to the files of the repository that holds a workspace.
pub trait WorkspaceFiles: Sync {
    /// The bytes of the file at the repository-relative `path` (already checked safe).
    fn read(&self, path: &str) -> Result<Vec<u8>, FileReadError>;
}

impl<F> WorkspaceFiles for F
where
    F: Fn(&str) -> Result<Vec<u8>, FileReadError> + Sync,
{
    fn read(&self, path: &str) -> Result<Vec<u8>, FileReadError> {
        self(path)
    }
}

/// Files under a directory on disk, optionally with a per-file byte budget. A file is read
/// only where it resolves inside the directory ([`Confined`]): a link that leaves it reads as
/// a file that is not there.
#[derive(Debug, Clone)]
pub struct DirFiles {
    root: Confined,
    max_bytes: Option<u64>,
}

impl DirFiles {
    /// Files under `root`, without a size budget.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self {
            root: Confined::new(root),
            max_bytes: None,
        }
    }

    /// Refuses files larger than `max_bytes` with [`FileReadError::TooLarge`].
    pub fn with_max_bytes(mut self, max_bytes: u64) -> Self {
        self.max_bytes = Some(max_bytes);
        self
    }

    /// The directory files are read from.
    pub fn root(&self) -> &Path {
        self.root.dir()
    }
}

impl WorkspaceFiles for DirFiles {
    fn read(&self, path: &str) -> Result<Vec<u8>, FileReadError> {
        if !is_safe_relative_path(path) {
            return Err(FileReadError::Unreadable);
        }
        self.root.read(path, self.max_bytes).map_err(|e| match e {
            ConfinedError::TooLarge => FileReadError::TooLarge,
            _ => FileReadError::Unreadable,
        })
    }
}

/// Why a workspace file (page, structure, registry, note) cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum FileProblem {
    /// The path is not a safe relative path.
    UnsafePath,
    /// The file could not be read.
    Unreadable,
    /// The file is over the reader's budget.
    TooLarge,
    /// The bytes are not UTF-8.
    NotUtf8,
    /// The file is there but was not read (a symbolic link that leaves the workspace, a FIFO,
    /// no permission): why, as the reader said it.
    Refused(String),
    /// The YAML could not be parsed (or has no JSON form).
    Yaml {
        /// Which of the two YAML failures.
        kind: YamlErrorKind,
        /// 1-based line, when known.
        line: Option<u64>,
        /// Parser detail (no paths).
        detail: String,
    },
}

impl FileProblem {
    /// The message Context's evidence plugin uses for this problem.
    pub fn message(&self) -> &'static str {
        match self {
            Self::UnsafePath => "Unsafe repository-relative path",
            Self::Unreadable | Self::Refused(_) => {
                "Host could not read the requested repository file"
            }
            Self::TooLarge => "File exceeds plugin read budget",
            Self::NotUtf8 => "File is not UTF-8",
            Self::Yaml { kind, .. } => kind.message(),
        }
    }

    /// The line the problem concerns, when known.
    pub fn line(&self) -> Option<u64> {
        match self {
            Self::Yaml { line, .. } => *line,
            _ => None,
        }
    }
}

impl From<FileReadError> for FileProblem {
    fn from(e: FileReadError) -> Self {
        match e {
            FileReadError::Unreadable => Self::Unreadable,
            FileReadError::TooLarge => Self::TooLarge,
        }
    }
}

/// Reads a UTF-8 text file through `files`, without a leading byte order mark (see
/// [`crate::formats::text::strip_bom`]).
pub fn read_text(files: &dyn WorkspaceFiles, path: &str) -> Result<String, FileProblem> {
    if !is_safe_relative_path(path) {
        return Err(FileProblem::UnsafePath);
    }
    let bytes = files.read(path)?;
    let mut text = String::from_utf8(bytes).map_err(|_| FileProblem::NotUtf8)?;
    let bom = text.len() - crate::formats::text::strip_bom(&text).len();
    text.drain(..bom);
    Ok(text)
}

/// Reads and parses a YAML file through `files` (it must have a JSON form).
pub fn read_yaml(files: &dyn WorkspaceFiles, path: &str) -> Result<Value, FileProblem> {
    let text = read_text(files, path)?;
    parse_json_compatible(&text).map_err(|e| FileProblem::Yaml {
        kind: e.kind,
        line: e.line,
        detail: e.message,
    })
}

/// The three registry kinds.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum RegistryKind {
    /// `sources/repo/index.yaml`.
    Repo,
    /// `sources/file/index.yaml`.
    File,
    /// `sources/lark/index.yaml`.
    Lark,
}

impl RegistryKind {
    /// `repo`, `file` or `lark`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Repo => "repo",
            Self::File => "file",
            Self::Lark => "lark",
        }
    }

    /// The registry's path relative to the workspace.
    pub fn index_path(self) -> String {
        format!("sources/{}/index.yaml", self.as_str())
    }
}

/// One registered module (or flat entry): every field Context reads, each present only when it
/// is a string.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RegistryModule {
    /// 1-based line of the entry in its index.yaml (0 when unknown).
    pub line: u64,
    /// 1-based line of its `ref:` key (repo modules; 0 when unknown), where a commit is pinned.
    #[serde(default)]
    pub ref_line: u64,
    /// `name`.
    pub name: Option<String>,
    /// `id`, an alternative name.
    pub id: Option<String>,
    /// `subpath` (repo modules).
    pub subpath: Option<String>,
    /// `git.remote` (repo modules).
    pub remote: Option<String>,
    /// `git.ref` (repo modules).
    pub git_ref: Option<String>,
    /// What YAML read `git.ref` as when it is there but no text (`ref: 1234567` is "a
    /// number"): a reference through the module is told to quote it.
    #[serde(default)]
    pub git_ref_not_text: Option<String>,
    /// `materializedAt` (documents).
    pub materialized_at: Option<String>,
    /// `snapshot.manifest` (documents).
    pub manifest: Option<String>,
    /// `url` (lark documents).
    pub url: Option<String>,
    /// `docToken` (lark documents).
    pub doc_token: Option<String>,
    /// `wikiToken` (lark documents).
    pub wiki_token: Option<String>,
}

/// One entry of `sources:`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RegistryEntry {
    /// An entry with a `modules:` sequence: a namespace.
    Namespace {
        /// The namespace entry's own fields (`name` is the namespace).
        entry: RegistryModule,
        /// Its modules.
        modules: Vec<RegistryModule>,
    },
    /// An entry without `modules:` (a flat document source; ignored for repositories).
    Flat(RegistryModule),
}

/// A parsed registry.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Registry {
    /// Which registry.
    pub kind: RegistryKind,
    /// `sources`, when it is a sequence.
    pub sources: Option<Vec<RegistryEntry>>,
}

/// A registry file's state: absent, unusable, or parsed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RegistryState {
    /// The file could not be read (usually: it does not exist).
    Absent,
    /// The file exists but cannot be used.
    Unusable(FileProblem),
    /// Parsed.
    Loaded(Registry),
}

/// A match found by [`Registry::lookup`].
#[derive(Debug, Clone, Copy)]
pub struct RegistryMatch<'a> {
    /// The module or flat entry.
    pub module: &'a RegistryModule,
    /// The namespace, for a module.
    pub namespace: Option<&'a str>,
}

/// Why a registry lookup failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LookupError {
    /// `sources` is not a sequence.
    MissingSources,
    /// Some namespace, module or flat entry has no non-empty string `name`.
    MissingName,
    /// No entry, or more than one, matches.
    MissingOrAmbiguous,
}

fn non_empty(s: &Option<String>) -> Option<&str> {
    s.as_deref().filter(|s| !s.is_empty())
}

/// A whole `sources/repo/index.yaml` on one line (YAML flow style), for messages to a user who
/// has none yet: one source `acme` with one module `payments` (`repo:acme/payments`), its
/// remote and the commit it is pinned to, to replace with theirs.
pub const REPO_EXAMPLE: &str = "sources: [{name: acme, modules: [{name: payments, subpath: \"\", git: {remote: https://github.com/acme/payments, ref: <full commit>}}]}]";

impl Registry {
    /// Parses a registry from its YAML value.
    pub fn from_value(kind: RegistryKind, value: &Value) -> Self {
        let sources = value.get("sources").and_then(Value::as_sequence).map(|s| {
            s.iter()
                .map(
                    |batch| match batch.get("modules").and_then(Value::as_sequence) {
                        Some(modules) => RegistryEntry::Namespace {
                            entry: module(batch),
                            modules: modules.iter().map(module).collect(),
                        },
                        None => RegistryEntry::Flat(module(batch)),
                    },
                )
                .collect()
        });
        Self { kind, sources }
    }

    /// Finds the entry a `source_ref` name (`<ns>/<module>` or, for documents, `<name>`)
    /// designates. A module matches by `name` or by `id`; a flat entry likewise.
    pub fn lookup(&self, name: &str) -> Result<RegistryMatch<'_>, LookupError> {
        let sources = self.sources.as_ref().ok_or(LookupError::MissingSources)?;
        let mut found = Vec::new();
        for entry in sources {
            match entry {
                RegistryEntry::Namespace { entry, modules } => {
                    let ns = non_empty(&entry.name).ok_or(LookupError::MissingName)?;
                    for m in modules {
                        let module_name = non_empty(&m.name).ok_or(LookupError::MissingName)?;
                        let id = m.id.as_deref().unwrap_or(module_name);
                        let matches = |n: &str| {
                            name.len() == ns.len() + 1 + n.len()
                                && name.starts_with(ns)
                                && name.as_bytes()[ns.len()] == b'/'
                                && name.ends_with(n)
                        };
                        if matches(module_name) || matches(id) {
                            found.push(RegistryMatch {
                                module: m,
                                namespace: Some(ns),
                            });
                        }
                    }
                }
                RegistryEntry::Flat(m) if self.kind != RegistryKind::Repo => {
                    let entry_name = non_empty(&m.name).ok_or(LookupError::MissingName)?;
                    if name == entry_name || m.id.as_deref() == Some(name) {
                        found.push(RegistryMatch {
                            module: m,
                            namespace: None,
                        });
                    }
                }
                RegistryEntry::Flat(_) => {}
            }
        }
        match found.as_slice() {
            [one] => Ok(*one),
            _ => Err(LookupError::MissingOrAmbiguous),
        }
    }
}

fn module(v: &Value) -> RegistryModule {
    let s = |k: &str| get_str(v, k).map(str::to_string);
    let git = v.get("git");
    let snapshot = v.get("snapshot");
    RegistryModule {
        line: 0,
        ref_line: 0,
        name: s("name"),
        id: s("id"),
        subpath: s("subpath"),
        remote: git.and_then(|g| get_str(g, "remote")).map(str::to_string),
        git_ref: git.and_then(|g| get_str(g, "ref")).map(str::to_string),
        git_ref_not_text: git.and_then(|g| g.get("ref")).and_then(|r| match r {
            Value::Number(_) => Some("a number".to_string()),
            Value::Bool(_) => Some("a boolean".to_string()),
            _ => None,
        }),
        materialized_at: s("materializedAt"),
        manifest: snapshot
            .and_then(|g| get_str(g, "manifest"))
            .map(str::to_string),
        url: s("url"),
        doc_token: s("docToken"),
        wiki_token: s("wikiToken"),
    }
}

/// A problem with a registry file, for diagnostics that name file and line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistryProblem {
    /// `REGISTRY_UNUSABLE` for the file, `PATH_TOO_LONG` for one field of an entry.
    pub code: Code,
    /// The registry's repository-relative path.
    pub path: String,
    /// 1-based line, when known.
    pub line: Option<u64>,
    /// What is wrong.
    pub message: String,
}

/// The three registries of a workspace.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Registries {
    /// `sources/repo/index.yaml`.
    pub repo: RegistryState,
    /// `sources/file/index.yaml`.
    pub file: RegistryState,
    /// `sources/lark/index.yaml`.
    pub lark: RegistryState,
    /// The workspace root the registries were read under (`""` for the repository root).
    pub workspace_root: String,
}

impl Default for Registries {
    fn default() -> Self {
        Self::empty()
    }
}

impl Registries {
    /// Registries with no files at all.
    pub fn empty() -> Self {
        Self {
            repo: RegistryState::Absent,
            file: RegistryState::Absent,
            lark: RegistryState::Absent,
            workspace_root: String::new(),
        }
    }

    /// Reads the three registries of the workspace at `workspace_root` (repository-relative,
    /// `""` for the repository root). A missing file means no registry of that kind.
    pub fn load(files: &dyn WorkspaceFiles, workspace_root: &str) -> Self {
        let load = |kind| load_registry(files, workspace_root, kind);
        Self {
            repo: load(RegistryKind::Repo),
            file: load(RegistryKind::File),
            lark: load(RegistryKind::Lark),
            workspace_root: workspace_root.to_string(),
        }
    }

    /// The state of one registry.
    pub fn get(&self, kind: RegistryKind) -> &RegistryState {
        match kind {
            RegistryKind::Repo => &self.repo,
            RegistryKind::File => &self.file,
            RegistryKind::Lark => &self.lark,
        }
    }

    /// Sets the state of one registry.
    pub fn set(&mut self, kind: RegistryKind, state: RegistryState) {
        match kind {
            RegistryKind::Repo => self.repo = state,
            RegistryKind::File => self.file = state,
            RegistryKind::Lark => self.lark = state,
        }
    }

    /// Problems of registry files that exist but cannot be used, and of path-like fields
    /// over [`MAX_PATH_BYTES`], in kind order.
    pub fn problems(&self) -> Vec<RegistryProblem> {
        let mut out = Vec::new();
        for k in [RegistryKind::Repo, RegistryKind::File, RegistryKind::Lark] {
            let path = join_path(&self.workspace_root, &k.index_path());
            match self.get(k) {
                RegistryState::Unusable(p) => out.push(RegistryProblem {
                    code: Code::RegistryUnusable,
                    path,
                    line: p.line(),
                    message: match p {
                        FileProblem::Yaml { detail, kind, .. } => {
                            format!("{}: {detail}", kind.message())
                        }
                        FileProblem::Refused(why) => format!("the registry is not read: {why}"),
                        other => other.message().to_string(),
                    },
                }),
                RegistryState::Loaded(r) => {
                    for m in r.modules() {
                        for (field, value) in m.path_fields() {
                            if value.len() > MAX_PATH_BYTES {
                                out.push(RegistryProblem {
                                    code: Code::PathTooLong,
                                    path: path.clone(),
                                    line: (m.line > 0).then_some(m.line),
                                    message: format!(
                                        "`{field}` of {} bytes is longer than {MAX_PATH_BYTES}: references to this entry do not resolve",
                                        value.len()
                                    ),
                                });
                            }
                        }
                    }
                }
                RegistryState::Absent => {}
            }
        }
        out
    }
}

impl Registry {
    /// Every namespace entry, module and flat entry, in file order.
    pub fn modules(&self) -> impl Iterator<Item = &RegistryModule> {
        self.sources.iter().flatten().flat_map(|e| match e {
            RegistryEntry::Namespace { entry, modules } => std::iter::once(entry)
                .chain(modules.iter())
                .collect::<Vec<_>>(),
            RegistryEntry::Flat(m) => vec![m],
        })
    }
}

impl RegistryModule {
    /// The fields that name paths: `subpath`, `materializedAt`, `snapshot.manifest`.
    pub fn path_fields(&self) -> impl Iterator<Item = (&'static str, &str)> {
        [
            ("subpath", &self.subpath),
            ("materializedAt", &self.materialized_at),
            ("snapshot.manifest", &self.manifest),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_deref().map(|v| (k, v)))
    }
}

/// The nodes a registry may build: a node costs the YAML crate and [`RegistryModule`] about
/// 560 bytes (measured), and a registry of Context's about 13 bytes a node (a module with a
/// subpath, 11 nodes in 147 bytes), so 30 000 nodes (3 000 modules) and then one per 24 bytes:
/// registries up to about 6 000 modules, 900 KB.
pub const REGISTRY_NODES: NodeBudget = NodeBudget {
    floor: 30_000,
    bytes_per_node: 24,
};

/// Reads one registry file.
pub fn load_registry(
    files: &dyn WorkspaceFiles,
    workspace_root: &str,
    kind: RegistryKind,
) -> RegistryState {
    let path = join_path(workspace_root, &kind.index_path());
    let text = match read_text(files, &path) {
        Ok(t) => t,
        Err(FileProblem::Unreadable) => return RegistryState::Absent,
        Err(p) => return RegistryState::Unusable(p),
    };
    // Only `sources` is read: the values of other keys are never built.
    let sources = |k: &str| k == "sources";
    match crate::formats::yaml::parse_json_compatible_keeping(&text, &sources, REGISTRY_NODES) {
        Ok(loaded) => {
            let v = loaded.value;
            let mut registry = Registry::from_value(kind, &v);
            fill_registry_lines(&mut registry, &text);
            RegistryState::Loaded(registry)
        }
        Err(e) => RegistryState::Unusable(FileProblem::Yaml {
            kind: e.kind,
            line: e.line,
            detail: e.message,
        }),
    }
}

/// The line of the first `key:` inside a block item (block or flow style), 0 when none.
fn key_line(text: &str, item: &crate::formats::structure::BlockItem, key: &str) -> u64 {
    let body = text.get(item.start..item.end).unwrap_or("");
    let plain = format!("{key}:");
    body.split('\n')
        .position(|l| {
            let t = l.trim_start().trim_start_matches("- ");
            t.starts_with(&plain)
                || l.contains(&format!("{{{plain}"))
                || l.contains(&format!("{{ {plain}"))
                || l.contains(&format!(", {plain}"))
        })
        .map_or(0, |i| item.line + i as u64)
}

/// Sets each entry's line from a scan of block-style text: the `- ` items at the indentation
/// of the first item under `sources:` and, inside a namespace, under its `modules:`. Leaves 0
/// when the layout is not the plain block form.
fn fill_registry_lines(registry: &mut Registry, text: &str) {
    let Some(sources) = registry.sources.as_mut() else {
        return;
    };
    let items = crate::formats::structure::block_items(text, "sources", 0);
    if items.len() != sources.len() {
        return;
    }
    for (entry, item) in sources.iter_mut().zip(items) {
        match entry {
            RegistryEntry::Flat(m) => m.line = item.line,
            RegistryEntry::Namespace { entry, modules } => {
                entry.line = item.line;
                let sub = crate::formats::structure::block_items_in(text, &item, "modules");
                if sub.len() == modules.len() {
                    for (m, s) in modules.iter_mut().zip(sub) {
                        m.line = s.line;
                        m.ref_line = key_line(text, &s, "ref");
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn files(map: &[(&str, &str)]) -> impl Fn(&str) -> Result<Vec<u8>, FileReadError> + Sync {
        let map: BTreeMap<String, Vec<u8>> = map
            .iter()
            .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
            .collect();
        move |p: &str| map.get(p).cloned().ok_or(FileReadError::Unreadable)
    }

    #[test]
    fn safe_paths() {
        for ok in ["a", "a/b.md", "a.b/c-d_e", "中文/x"] {
            assert!(is_safe_relative_path(ok), "{ok}");
        }
        for bad in [
            "", "/a", "a/", "a//b", "./a", "a/../b", "..", "a\\b", "c:/x", "a\tb",
        ] {
            assert!(!is_safe_relative_path(bad), "{bad}");
        }
        assert!(is_safe_relative_path(&"a".repeat(MAX_PATH_BYTES)));
        assert!(!is_safe_relative_path(&"a".repeat(MAX_PATH_BYTES + 1)));
    }

    #[test]
    fn long_path_fields_are_problems_with_their_line() {
        let long = "a/".repeat(MAX_PATH_BYTES / 2) + "b";
        let f = files(&[(
            "sources/repo/index.yaml",
            &format!("sources:\n  - name: ns\n    modules:\n      - name: ok\n        subpath: x\n      - name: long\n        subpath: {long}\n"),
        )]);
        let problems = Registries::load(&f, "").problems();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].code, Code::PathTooLong);
        assert_eq!(problems[0].line, Some(6));
        assert!(problems[0].message.starts_with("`subpath` of 4097 bytes"));
        assert!(!problems[0].message.contains("a/a/"));
    }

    #[test]
    fn the_example_for_messages_is_a_registry() {
        let f = files(&[("sources/repo/index.yaml", REPO_EXAMPLE)]);
        let r = Registries::load(&f, "");
        assert!(r.problems().is_empty(), "{:?}", r.problems());
        let RegistryState::Loaded(repo) = &r.repo else {
            panic!("{:?}", r.repo)
        };
        let m = repo.lookup("acme/payments").expect("the module");
        assert_eq!(
            m.module.remote.as_deref(),
            Some("https://github.com/acme/payments")
        );
        assert_eq!(m.module.git_ref.as_deref(), Some("<full commit>"));
        assert_eq!(m.module.subpath.as_deref(), Some(""));
    }

    #[test]
    fn loads_and_looks_up() {
        let f = files(&[(
            "kb/sources/file/index.yaml",
            "sources:\n  - name: \"20260901\"\n    modules:\n      - name: input\n      - name: spec\n        id: by-id\n  - name: flat\n    id: flat-id\n",
        )]);
        let r = Registries::load(&f, "kb");
        assert_eq!(r.repo, RegistryState::Absent);
        let RegistryState::Loaded(file) = &r.file else {
            panic!("{:?}", r.file)
        };
        let m = file.lookup("20260901/by-id").unwrap();
        assert_eq!(m.module.name.as_deref(), Some("spec"));
        assert_eq!(m.namespace, Some("20260901"));
        assert_eq!(m.module.line, 5);
        assert_eq!(file.lookup("20260901/spec").unwrap().module.line, 5);
        assert_eq!(file.lookup("flat-id").unwrap().module.line, 7);
        assert_eq!(file.lookup("flat").unwrap().namespace, None);
        assert_eq!(
            file.lookup("20260901/nope").unwrap_err(),
            LookupError::MissingOrAmbiguous
        );
        assert!(r.problems().is_empty());
    }

    #[test]
    fn unquoted_numeric_namespace_poisons_the_registry() {
        let f = files(&[(
            "sources/repo/index.yaml",
            "sources:\n  - name: ok\n    modules: [{name: a}]\n  - name: 20260901\n    modules: [{name: b}]\n",
        )]);
        let r = Registries::load(&f, "");
        let RegistryState::Loaded(repo) = &r.repo else {
            panic!()
        };
        assert_eq!(repo.lookup("ok/a").unwrap_err(), LookupError::MissingName);
    }

    #[test]
    fn flat_entries_do_not_count_for_repositories() {
        let f = files(&[(
            "sources/repo/index.yaml",
            "sources:\n  - name: flat\n  - id: no-name\n",
        )]);
        let r = Registries::load(&f, "");
        let RegistryState::Loaded(repo) = &r.repo else {
            panic!()
        };
        assert_eq!(
            repo.lookup("flat").unwrap_err(),
            LookupError::MissingOrAmbiguous
        );
    }

    #[test]
    fn invalid_yaml_is_a_problem_with_a_line() {
        let f = files(&[
            (
                "sources/repo/index.yaml",
                "sources:\n  - name: a\n  - name: [\n",
            ),
            ("sources/lark/index.yaml", "sources: 1\n? [a]\n: b\n"),
        ]);
        let r = Registries::load(&f, "");
        let p = r.problems();
        assert_eq!(p.len(), 2, "{p:?}");
        assert_eq!(p[0].path, "sources/repo/index.yaml");
        assert!(p[0].line.is_some());
        assert!(p[0].message.starts_with("Invalid YAML metadata"));
        assert!(p[1].message.starts_with("Unsupported YAML metadata"));
        let RegistryState::Unusable(u) = &r.repo else {
            panic!()
        };
        assert_eq!(u.message(), "Invalid YAML metadata");
    }

    #[test]
    fn dir_files_budget_and_unsafe_paths() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "12345").unwrap();
        let f = DirFiles::new(dir.path()).with_max_bytes(4);
        assert_eq!(f.read("a.txt"), Err(FileReadError::TooLarge));
        assert_eq!(f.read("../a.txt"), Err(FileReadError::Unreadable));
        assert_eq!(f.read("missing"), Err(FileReadError::Unreadable));
        assert_eq!(
            DirFiles::new(dir.path()).read("a.txt").unwrap(),
            b"12345".to_vec()
        );
        assert_eq!(read_text(&f, "a/../b"), Err(FileProblem::UnsafePath));
    }

    #[test]
    fn read_text_drops_a_leading_byte_order_mark_only() {
        let files = |p: &str| -> Result<Vec<u8>, FileReadError> {
            Ok(format!("\u{feff}{p}\u{feff}").into_bytes())
        };
        assert_eq!(read_text(&files, "a.md"), Ok("a.md\u{feff}".to_string()));
    }
}
