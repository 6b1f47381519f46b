//! Every repository that reads can name for one workspace: the workspace's own repository
//! (found upwards from the workspace) and each module of the repository registry, opened once
//! through the local clones of [`CloneMap`].

use super::clones::{config_key, registered_modules, remote_key, CloneMap};
use super::git::GitRepo;
use std::path::Path;

/// A repository that reads can name.
#[derive(Debug, Clone)]
pub struct ReadableRepo {
    /// The name reads report: `owner/name` from the remote, else the configured name.
    pub name: String,
    /// Every name that selects it (`owner/name`, `host/owner/name`, `<source>/<module>`…).
    pub aliases: Vec<String>,
    /// The normalized remote key, when there is a remote.
    pub remote_key: Option<String>,
    /// The local clone, when one is configured and opens.
    pub repo: Option<GitRepo>,
    /// Whether this is the knowledge workspace's own repository.
    pub is_workspace: bool,
    /// For the workspace repository: the workspace directory relative to its root.
    pub workspace_root: String,
    /// For a workspace that is in no git repository: its directory, read as a work tree
    /// (reads at the pseudo-commit [`WORKTREE`]).
    pub worktree: Option<std::path::PathBuf>,
}

/// The commit reported for reads of a work tree that is not a git repository.
pub const WORKTREE: &str = "worktree";

/// Every repository the engine can read for one workspace.
#[derive(Debug, Clone, Default)]
pub struct Repositories {
    /// In a fixed order: the workspace repository first, then modules in registry order.
    pub repos: Vec<ReadableRepo>,
    /// The `<source>/<module>` names of the repository registry, in its order.
    pub modules: Vec<String>,
    /// Clone names shaped like `<source>/<module>` (no host) that no module of the registry
    /// has: most likely a typo, which leaves the module it meant without a clone.
    pub unmatched_clones: Vec<String>,
}

/// Why a repository name selects nothing readable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RepoLookupError {
    /// No repository has this name.
    Unknown,
    /// The repository is registered but has no (openable) local clone.
    NoClone,
    /// The name selects several different repositories.
    Ambiguous,
}

/// Whether a configured clone key names a remote (`github.com/acme/x`: a host has a dot)
/// rather than a registry module (`acme/x`).
fn is_remote_key(key: &str) -> bool {
    key.contains('.')
}

fn owner_name(key: &str) -> Option<String> {
    let (_, path) = key.split_once('/')?;
    Some(path.to_string())
}

impl Repositories {
    /// Collects the workspace repository (found upwards from `workspace`) and every module of
    /// the repository registry, opening the clones that `clones` maps.
    pub fn discover(workspace: &Path, clones: &CloneMap) -> Repositories {
        let mut repos = Vec::new();
        let ws_name = workspace
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().and_then(|n| n.to_str()).map(str::to_string));
        if let Some((repo, root)) = GitRepo::discover(workspace) {
            let key = repo.origin_url().and_then(|u| remote_key(&u));
            let mut aliases = Vec::new();
            let name = key
                .as_deref()
                .and_then(owner_name)
                .or_else(|| ws_name.clone())
                .unwrap_or_else(|| "workspace".to_string());
            aliases.push(name.clone());
            if let Some(k) = &key {
                aliases.push(k.clone());
            }
            if let Some(w) = &ws_name {
                aliases.push(w.clone());
            }
            repos.push(ReadableRepo {
                name,
                aliases,
                remote_key: key,
                repo: Some(repo),
                is_workspace: true,
                workspace_root: root,
                worktree: None,
            });
        } else if let Some(name) = &ws_name {
            // Not in a git repository: its knowledge pages are still readable, from disk.
            repos.push(ReadableRepo {
                name: name.clone(),
                aliases: vec![name.clone()],
                remote_key: None,
                repo: None,
                is_workspace: true,
                workspace_root: String::new(),
                worktree: workspace.canonicalize().ok(),
            });
        }
        let registered = registered_modules(workspace);
        let readable = registered.is_some();
        let modules = registered.unwrap_or_default();
        let names: Vec<String> = modules.iter().map(|m| m.name.clone()).collect();
        // A remote may name a repository the registry does not list (reads use it). A
        // registry that cannot be read matches no name and refutes none: its
        // `REGISTRY_UNUSABLE` is the finding, not a warning that each clone names nothing.
        let unmatched_clones: Vec<String> = (clones.entries().map(|(k, _)| k))
            .filter(|_| readable)
            .filter(|k| !is_remote_key(k) && !names.iter().any(|n| config_key(n) == *k))
            .map(str::to_string)
            .collect();
        // The clone each entry of `repos` reads, by index.
        let mut paths: Vec<Option<&Path>> = vec![None; repos.len()];
        for m in modules {
            // A key that still holds user-info once the remote's own is dropped
            // (`host/owner/repo/u:pw@x`) names no repository: it would be echoed in lists of
            // the known ones. The module is still known by its name.
            let key = m
                .remote
                .as_deref()
                .and_then(remote_key)
                .filter(|k| !crate::formats::remote::has_credentials(k));
            let path = clones.find(Some(&m.name), m.remote.as_deref());
            // Several modules of one remote (a monorepo) are one repository, unless a module
            // is mapped to a clone of its own (`--source app/src=../checkout`): then that
            // module reads its clone, as validation does, under its module name only.
            if let Some(k) = &key {
                let shared = repos
                    .iter()
                    .position(|r| !r.is_workspace && r.remote_key.as_ref() == Some(k));
                if let Some(i) = shared {
                    if path.is_none() || paths[i].is_none() || path == paths[i] {
                        let existing = &mut repos[i];
                        existing.aliases.push(m.name.clone());
                        if let Some(source) = source_of(&m.name) {
                            if !existing.aliases.iter().any(|a| a == source) {
                                existing.aliases.push(source.to_string());
                            }
                        }
                        if existing.repo.is_none() {
                            existing.repo = path.and_then(|p| clones.open(p));
                            paths[i] = path;
                        }
                        continue;
                    }
                    repos.push(ReadableRepo {
                        name: m.name.clone(),
                        aliases: vec![m.name.clone()],
                        remote_key: key.clone(),
                        repo: path.and_then(|p| clones.open(p)),
                        is_workspace: false,
                        workspace_root: String::new(),
                        worktree: None,
                    });
                    paths.push(path);
                    continue;
                }
            }
            let repo = path.and_then(|p| clones.open(p));
            let name = key
                .as_deref()
                .and_then(owner_name)
                .unwrap_or_else(|| m.name.clone());
            let mut aliases = vec![name.clone(), m.name.clone()];
            if let Some(k) = &key {
                aliases.push(k.clone());
            }
            // A `<source>` names its modules' repository, as impact's `source` takes it (two
            // repositories under one source make the name ambiguous, which lookup says).
            if let Some(source) = source_of(&m.name) {
                if !aliases.iter().any(|a| a == source) {
                    aliases.push(source.to_string());
                }
            }
            repos.push(ReadableRepo {
                name,
                aliases,
                remote_key: key,
                repo,
                is_workspace: false,
                workspace_root: String::new(),
                worktree: None,
            });
            paths.push(path);
        }
        // Clones configured for remotes that no module registers are readable too.
        for (k, path) in clones.entries() {
            if repos.iter().any(|r| r.aliases.iter().any(|a| a == k)) {
                continue;
            }
            let repo = clones.open(path);
            let name = if is_remote_key(k) {
                owner_name(k).unwrap_or_else(|| k.to_string())
            } else {
                k.to_string()
            };
            repos.push(ReadableRepo {
                name: name.clone(),
                aliases: vec![name, k.to_string()],
                remote_key: is_remote_key(k).then(|| k.to_string()),
                repo,
                is_workspace: false,
                workspace_root: String::new(),
                worktree: None,
            });
        }
        Repositories {
            repos,
            modules: names,
            unmatched_clones,
        }
    }

    /// The repository named `name` (any of its aliases; remotes are normalized first). A
    /// repository's own name wins over another's alias (a workspace named like a source).
    pub fn lookup(&self, name: &str) -> Result<&ReadableRepo, RepoLookupError> {
        let key = config_key(name);
        let named: Vec<&ReadableRepo> = self.repos.iter().filter(|r| r.name == key).collect();
        let hits: Vec<&ReadableRepo> = if let [one] = named.as_slice() {
            vec![*one]
        } else {
            self.repos
                .iter()
                .filter(|r| r.aliases.contains(&key))
                .collect()
        };
        match hits.as_slice() {
            [] => Err(RepoLookupError::Unknown),
            [one] if one.repo.is_some() || one.worktree.is_some() => Ok(*one),
            [_] => Err(RepoLookupError::NoClone),
            _ => Err(RepoLookupError::Ambiguous),
        }
    }

    /// The workspace's own repository, when the workspace is in one.
    pub fn workspace(&self) -> Option<&ReadableRepo> {
        self.repos.iter().find(|r| r.is_workspace)
    }
}

/// The `<source>` of a `<source>/<module>` name.
fn source_of(module: &str) -> Option<&str> {
    module
        .split_once('/')
        .map(|(s, _)| s)
        .filter(|s| !s.is_empty())
}
