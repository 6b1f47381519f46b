//! Local clones: which git repository on disk holds each registered source repository.
//!
//! Registries name remotes, never disk locations. `ontoly.toml` at the workspace root maps a
//! normalized remote (`github.com/acme/server`) or a `<source>/<module>` name to a local git
//! repository (work tree or bare), relative to the workspace; `--source NAME=PATH` adds or
//! overrides entries. The workspace's own repository is found by walking up from the
//! workspace. Nothing here touches the network.
//!
//! ```toml
//! [sources]
//! "github.com/acme/server" = "../clones/server"
//! "acme/tools" = "/srv/git/tools.git"
//! ```

use crate::git::GitRepo;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The configuration file at the workspace root.
pub const CONFIG_FILE: &str = "ontoly.toml";

/// A configuration problem (bad `ontoly.toml`, bad `--source`). Messages name the file, never
/// an absolute path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CloneError {
    /// One line.
    pub message: String,
}

impl std::fmt::Display for CloneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CloneError {}

/// The identity of a remote for matching clones: `host/owner/repo`, lowercase host, without
/// scheme, credentials, port, trailing `/` or `.git`. Lenient on purpose (any host, any
/// transport): this is a lookup key, not a web URL. `None` when nothing host-like is left.
pub fn remote_key(remote: &str) -> Option<String> {
    let r = remote.trim();
    let (authority_and_path, scp) = match r.split_once("://") {
        Some((_, rest)) => (rest, false),
        None => (r, true),
    };
    let (host_part, path) = if scp {
        // scp-like `user@host:owner/repo`, or a bare `host/owner/repo`.
        match authority_and_path.split_once(':') {
            Some((h, p)) if !h.contains('/') => (h, p),
            _ => authority_and_path.split_once('/')?,
        }
    } else {
        authority_and_path.split_once('/')?
    };
    let host = host_part.rsplit('@').next()?;
    let host = host.split(':').next()?.to_ascii_lowercase();
    let path = path.split(['?', '#']).next()?;
    let path = path.trim_matches('/');
    let path = path
        .strip_suffix(".git")
        .unwrap_or(path)
        .trim_end_matches('/');
    if host.is_empty() || path.is_empty() {
        return None;
    }
    Some(format!("{host}/{path}"))
}

/// A configured name: a remote (normalized with [`remote_key`]) or a `<source>/<module>`.
fn config_key(name: &str) -> String {
    let n = name.trim();
    if n.contains("://") || (n.contains('@') && n.contains(':')) {
        if let Some(k) = remote_key(n) {
            return k;
        }
    }
    let n = n.trim_matches('/');
    n.strip_suffix(".git").unwrap_or(n).to_string()
}

/// The `[sources]` mapping of `ontoly.toml` merged with command-line overrides: config key →
/// absolute path of the clone.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CloneMap {
    entries: BTreeMap<String, PathBuf>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    sources: BTreeMap<String, String>,
}

/// Splits a `--source NAME=PATH` argument.
pub fn parse_override(arg: &str) -> Result<(String, String), CloneError> {
    match arg.split_once('=') {
        Some((n, p)) if !n.trim().is_empty() && !p.trim().is_empty() => {
            Ok((n.trim().to_string(), p.trim().to_string()))
        }
        _ => Err(CloneError {
            message: "--source expects NAME=PATH (a remote like github.com/acme/server or a <source>/<module> name, and a local git repository)".into(),
        }),
    }
}

impl CloneMap {
    /// Reads `ontoly.toml` (when present) in `workspace`, then applies `overrides`
    /// (`(name, path)` pairs, later ones winning). Relative paths are relative to `workspace`.
    pub fn load(workspace: &Path, overrides: &[(String, String)]) -> Result<CloneMap, CloneError> {
        let mut map = CloneMap::default();
        let file = workspace.join(CONFIG_FILE);
        match std::fs::read_to_string(&file) {
            Ok(text) => {
                let cfg: ConfigFile = toml::from_str(&text).map_err(|e| CloneError {
                    message: format!("{CONFIG_FILE}: {}", e.message()),
                })?;
                for (name, path) in cfg.sources {
                    map.insert(workspace, &name, &path);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(_) => {
                return Err(CloneError {
                    message: format!("{CONFIG_FILE}: could not be read"),
                })
            }
        }
        for (name, path) in overrides {
            map.insert(workspace, name, path);
        }
        Ok(map)
    }

    fn insert(&mut self, workspace: &Path, name: &str, path: &str) {
        let p = Path::new(path);
        let abs = if p.is_absolute() {
            p.to_path_buf()
        } else {
            workspace.join(p)
        };
        self.entries.insert(config_key(name), abs);
    }

    /// The clone of a registered module: by `<source>/<module>` name first, then by remote.
    pub fn find(&self, name: Option<&str>, remote: Option<&str>) -> Option<&Path> {
        if let Some(p) = name.and_then(|n| self.entries.get(&config_key(n))) {
            return Some(p);
        }
        let key = remote.and_then(remote_key)?;
        self.entries.get(&key).map(PathBuf::as_path)
    }

    /// Every configured `(key, path)`.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &Path)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v.as_path()))
    }
}

/// One module of `sources/repo/index.yaml`, as far as clones and reads need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoModule {
    /// `<source>/<module>`.
    pub name: String,
    /// `subpath` ("" when absent).
    pub subpath: String,
    /// `git.remote` as written (may contain credentials: never print it raw).
    pub remote: Option<String>,
    /// `git.ref` as written.
    pub git_ref: Option<String>,
}

/// The modules of `sources/repo/index.yaml` under `workspace`, read through
/// [`crate::registry`] (none when the file is missing or unusable: the workspace parsers
/// report those problems).
pub fn repo_modules(workspace: &Path) -> Vec<RepoModule> {
    use crate::registry::{load_registry, DirFiles, RegistryEntry, RegistryKind, RegistryState};
    let RegistryState::Loaded(registry) =
        load_registry(&DirFiles::new(workspace), "", RegistryKind::Repo)
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in registry.sources.iter().flatten() {
        let RegistryEntry::Namespace { entry, modules } = entry else {
            continue;
        };
        let Some(source) = entry.name.as_deref() else {
            continue;
        };
        for m in modules {
            let Some(module) = m.name.as_deref() else {
                continue;
            };
            out.push(RepoModule {
                name: format!("{source}/{module}"),
                subpath: m.subpath.clone().unwrap_or_default(),
                remote: m.remote.clone(),
                git_ref: m.git_ref.clone(),
            });
        }
    }
    out
}

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
}

/// Every repository the engine can read for one workspace.
#[derive(Debug, Clone, Default)]
pub struct Repositories {
    /// In a fixed order: the workspace repository first, then modules in registry order.
    pub repos: Vec<ReadableRepo>,
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
            });
        }
        let mut opened: BTreeMap<PathBuf, Option<GitRepo>> = BTreeMap::new();
        for m in repo_modules(workspace) {
            let key = m.remote.as_deref().and_then(remote_key);
            // Several modules of one remote (a monorepo) are one repository.
            if let Some(k) = &key {
                if let Some(existing) = repos
                    .iter_mut()
                    .find(|r| !r.is_workspace && r.remote_key.as_ref() == Some(k))
                {
                    existing.aliases.push(m.name.clone());
                    if existing.repo.is_none() {
                        existing.repo = open_cached(&mut opened, clones.find(Some(&m.name), None));
                    }
                    continue;
                }
            }
            let repo = open_cached(&mut opened, clones.find(Some(&m.name), m.remote.as_deref()));
            let name = key
                .as_deref()
                .and_then(owner_name)
                .unwrap_or_else(|| m.name.clone());
            let mut aliases = vec![name.clone(), m.name.clone()];
            if let Some(k) = &key {
                aliases.push(k.clone());
            }
            repos.push(ReadableRepo {
                name,
                aliases,
                remote_key: key,
                repo,
                is_workspace: false,
                workspace_root: String::new(),
            });
        }
        // Clones configured for remotes that no module registers are readable too.
        for (k, path) in clones.entries() {
            if repos.iter().any(|r| r.aliases.iter().any(|a| a == k)) {
                continue;
            }
            let repo = open_cached(&mut opened, Some(path));
            let name = if k.contains('.') {
                owner_name(k).unwrap_or_else(|| k.to_string())
            } else {
                k.to_string()
            };
            repos.push(ReadableRepo {
                name: name.clone(),
                aliases: vec![name, k.to_string()],
                remote_key: k.contains('.').then(|| k.to_string()),
                repo,
                is_workspace: false,
                workspace_root: String::new(),
            });
        }
        Repositories { repos }
    }

    /// The repository named `name` (any of its aliases; remotes are normalized first).
    pub fn lookup(&self, name: &str) -> Result<&ReadableRepo, RepoLookupError> {
        let key = config_key(name);
        let hits: Vec<&ReadableRepo> = self
            .repos
            .iter()
            .filter(|r| r.aliases.contains(&key))
            .collect();
        match hits.as_slice() {
            [] => Err(RepoLookupError::Unknown),
            [one] => one
                .repo
                .as_ref()
                .map(|_| *one)
                .ok_or(RepoLookupError::NoClone),
            _ => Err(RepoLookupError::Ambiguous),
        }
    }

    /// The workspace's own repository, when the workspace is in one.
    pub fn workspace(&self) -> Option<&ReadableRepo> {
        self.repos.iter().find(|r| r.is_workspace)
    }
}

fn open_cached(
    cache: &mut BTreeMap<PathBuf, Option<GitRepo>>,
    path: Option<&Path>,
) -> Option<GitRepo> {
    let path = path?;
    cache
        .entry(path.to_path_buf())
        .or_insert_with(|| GitRepo::open(path).ok())
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_keys() {
        for (r, k) in [
            ("https://github.com/acme/server", "github.com/acme/server"),
            (
                "https://github.com/acme/server.git/",
                "github.com/acme/server",
            ),
            ("http://GitHub.com/acme/server", "github.com/acme/server"),
            ("git@github.com:acme/server.git", "github.com/acme/server"),
            (
                "ssh://git@github.com/acme/server.git",
                "github.com/acme/server",
            ),
            (
                "https://user:tok@host.example:8443/a/b.git",
                "host.example/a/b",
            ),
            ("gitlab.com/group/sub/proj", "gitlab.com/group/sub/proj"),
        ] {
            assert_eq!(remote_key(r).as_deref(), Some(k), "{r}");
        }
        assert_eq!(remote_key("nohost"), None);
        assert_eq!(remote_key("https://host/"), None);
    }

    #[test]
    fn config_keys_and_overrides() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "[sources]\n\"https://github.com/acme/server.git\" = \"../clones/server\"\n\"acme/tools\" = \"/abs/tools\"\n",
        )
        .unwrap();
        let map = CloneMap::load(dir.path(), &[("acme/tools".into(), "other".into())]).unwrap();
        assert_eq!(
            map.find(None, Some("git@github.com:acme/server")),
            Some(dir.path().join("../clones/server").as_path())
        );
        assert_eq!(
            map.find(Some("acme/tools"), None),
            Some(dir.path().join("other").as_path())
        );
        assert_eq!(map.find(Some("acme/none"), Some("https://x.org/a/b")), None);
        assert!(parse_override("noequals").is_err());
        assert_eq!(
            parse_override("acme/x=../p").unwrap(),
            ("acme/x".to_string(), "../p".to_string())
        );
    }

    #[test]
    fn bad_config_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(CONFIG_FILE), "[sources\n").unwrap();
        let e = CloneMap::load(dir.path(), &[]).unwrap_err();
        assert!(e.message.starts_with("ontoly.toml:"), "{}", e.message);
        std::fs::write(dir.path().join(CONFIG_FILE), "[other]\nx = 1\n").unwrap();
        assert!(CloneMap::load(dir.path(), &[]).is_err());
    }
}
