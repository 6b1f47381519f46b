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

use crate::formats::confined::{Confined, ConfinedError};
use crate::sources::git::GitRepo;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The configuration file at the workspace root.
pub const CONFIG_FILE: &str = "ontoly.toml";

/// Why a mapped clone does not open when nothing is at its path.
pub const MISSING_CLONE: &str = "does not exist";

/// A configuration problem (bad `ontoly.toml`, bad `--source`). Messages name the file, never
/// an absolute path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct CloneError {
    /// One line.
    pub message: String,
}

/// The identity of a remote for matching clones: `host/owner/repo`, lowercase host, without
/// scheme, credentials, port, trailing `/` or `.git`. Lenient on purpose (any host, any
/// transport): this is a lookup key, not a web URL. `None` when nothing host-like is left.
pub fn remote_key(remote: &str) -> Option<String> {
    let r = remote.trim();
    // A scheme is what precedes a `://` that comes before any `@` or `/` (in
    // `u:pw@host/x?next=https://y` the `://` belongs to the query).
    let after_scheme = match r.split_once("://") {
        Some((scheme, rest)) if !scheme.contains(['@', '/']) => Some(rest),
        _ => None,
    };
    // User-info ends at the last `@` before the first `/`. It is dropped before anything else
    // reads the text: gix-url would take `u:pw@host/x` for scp-like host `u`, and the fallback
    // below would keep whatever gix-url could not parse.
    let without_userinfo = |s: &'_ str| -> String {
        let authority_end = s.find('/').unwrap_or(s.len());
        s[..authority_end]
            .rfind('@')
            .map_or(s, |at| &s[at + 1..])
            .to_string()
    };
    let for_gix = match after_scheme {
        Some(_) => r.to_string(),
        None => without_userinfo(r),
    };
    // URLs and scp-like `host:owner/repo` are git's own syntax (gix-url parses them, with
    // credentials and port split off); a bare `host/owner/repo` is a key already written.
    let parsed = gix::url::parse(for_gix.as_bytes())
        .ok()
        .filter(|u| u.scheme != gix::url::Scheme::File)
        .and_then(|u| Some((u.host()?.to_string(), u.path.to_string())));
    let (host, path) = match parsed {
        Some(hp) => hp,
        None => {
            let bare = without_userinfo(after_scheme.unwrap_or(r));
            let (h, p) = bare.split_once('/')?;
            // A key written by hand is `host/owner/repo`: an `@` or a `://` after the host
            // means this is no remote at all (and trimming would hide a URL's `//`).
            let before_query = p.split(['?', '#']).next().unwrap_or("");
            if before_query.contains('@') || before_query.contains("://") {
                return None;
            }
            (h.to_string(), p.to_string())
        }
    };
    let host = host.to_ascii_lowercase();
    let path = path.split(['?', '#']).next()?;
    let path = path.trim_matches('/');
    let path = path
        .strip_suffix(".git")
        .unwrap_or(path)
        .trim_end_matches('/');
    if host.is_empty() || path.is_empty() {
        return None;
    }
    // A URL inside the path (`host:team/x/https://u:p@y`) is not this remote's user-info, but
    // a key is shown in messages: it carries no credential either.
    Some(crate::formats::remote::redact(&format!("{host}/{path}")))
}

/// Why a clone's name is refused when it carries credentials; the name itself is not shown.
const CREDENTIALS_IN_NAME: &str = "this clone's NAME holds credentials (user-info before an `@`, or a query or fragment): name the repository without them, as host/owner/repo or <source>/<module> (the name is not shown, so that the secret is not either)";

/// Whether a configured name carries what may be a secret: user-info (any `@` but the SSH
/// user `git`'s), or a query or fragment (`?token=`). Such a name would be echoed in messages
/// and kept in the cache; a repository is named as well without it.
fn holds_credentials(name: &str) -> bool {
    crate::formats::remote::has_credentials(name) || name.contains(['?', '#'])
}

/// A configured name: a remote (normalized with [`remote_key`]) or a `<source>/<module>`.
pub(crate) fn config_key(name: &str) -> String {
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
/// absolute path of the clone. Cloning a map shares its opened repositories: each clone on disk
/// is opened once per process, whoever asks ([`CloneMap::open`]).
#[derive(Debug, Clone, Default)]
pub struct CloneMap {
    entries: BTreeMap<String, PathBuf>,
    origins: BTreeMap<String, Mapping>,
    opened: Arc<Mutex<BTreeMap<PathBuf, Option<GitRepo>>>>,
}

/// Where a clone was mapped: a line of `ontoly.toml`, or a `--source` argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mapping {
    /// `ontoly.toml`, or `--source` for a command-line override.
    pub file: String,
    /// The line in `ontoly.toml`; for `--source`, the argument's position (1 = the first).
    pub line: u64,
    /// The name as written.
    pub name: String,
    /// The path as written (relative to the workspace, or absolute).
    pub path: String,
}

impl Mapping {
    /// Whether the mapping was typed on the command line (`--source`), not read from
    /// `ontoly.toml`.
    pub fn is_typed(&self) -> bool {
        self.file != CONFIG_FILE
    }

    /// The mapping as the user wrote it, for messages: the path only when relative (an
    /// absolute path is a disk location, which outputs never carry).
    pub fn shown(&self) -> String {
        let path = if Path::new(&self.path).is_absolute() {
            "<absolute path>".to_string()
        } else if holds_credentials(&self.path) {
            // A remote's URL given where a local path belongs may carry a credential.
            "<a path with an `@`, `?` or `#`, not shown>".to_string()
        } else {
            format!("{:?}", self.path)
        };
        if !self.is_typed() {
            format!("{:?} = {path}", self.name)
        } else {
            format!("--source {}={}", self.name, path.trim_matches('"'))
        }
    }
}

impl PartialEq for CloneMap {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl Eq for CloneMap {}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    sources: BTreeMap<String, toml::Spanned<String>>,
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
        let max = crate::formats::layout::MAX_CONFIG_BYTES;
        match Confined::new(workspace).read(CONFIG_FILE, Some(max)) {
            Ok(bytes) => {
                let text = String::from_utf8(bytes).map_err(|_| CloneError {
                    message: format!("{CONFIG_FILE}: is not UTF-8"),
                })?;
                let line_at = |offset: usize| {
                    1 + text
                        .get(..offset)
                        .map_or(0, |before| before.matches('\n').count() as u64)
                };
                let cfg: ConfigFile = toml::from_str(&text).map_err(|e| CloneError {
                    message: match e.span() {
                        Some(at) => {
                            // A table written twice (a second `[sources]` appended under the
                            // one `init` wrote) is reported as a duplicate key: say which.
                            let begin = text
                                .get(..at.start)
                                .and_then(|before| before.rfind('\n'))
                                .map_or(0, |n| n + 1);
                            let line = text
                                .get(begin..)
                                .and_then(|rest| rest.lines().next())
                                .map(str::trim)
                                .filter(|l| l.starts_with('[') && l.ends_with(']'))
                                // Only a header written before too: an unknown table
                                // (`[source]`) is reported at its header as well.
                                .filter(|t| {
                                    text.get(..begin)
                                        .is_some_and(|before| before.lines().any(|l| l.trim() == *t))
                                });
                            let twice = line
                                .map(|t| {
                                    format!(" (the table {t} appears twice: put every entry under the first {t})")
                                })
                                .unwrap_or_default();
                            format!("{CONFIG_FILE}:{}: {}{twice}", line_at(at.start), e.message())
                        }
                        None => format!("{CONFIG_FILE}: {}", e.message()),
                    },
                })?;
                // In the file's order: two names of one repository (`github.com/acme/x` and
                // `https://github.com/acme/x`) were settled by how the names sort, silently,
                // and the other clone was used (hostile walk, stop 43). That is refused.
                let mut sources: Vec<_> = cfg.sources.into_iter().collect();
                sources.sort_by_key(|(_, path)| path.span().start);
                let mut seen: BTreeMap<String, (u64, String)> = BTreeMap::new();
                for (name, path) in sources {
                    let line = line_at(path.span().start);
                    if holds_credentials(&name) {
                        return Err(CloneError {
                            message: format!("{CONFIG_FILE}:{line}: {CREDENTIALS_IN_NAME}"),
                        });
                    }
                    if let Some((first, as_written)) = seen.get(&config_key(&name)) {
                        return Err(CloneError {
                            message: format!(
                                "{CONFIG_FILE}:{line}: {name:?} names the same repository as {as_written:?} on line {first}: keep one of them"
                            ),
                        });
                    }
                    seen.insert(config_key(&name), (line, name.clone()));
                    map.insert(
                        workspace,
                        Mapping {
                            file: CONFIG_FILE.to_string(),
                            line,
                            name,
                            path: path.into_inner(),
                        },
                    );
                }
            }
            Err(ConfinedError::Missing) => {}
            Err(ConfinedError::LeavesRoot) => {
                return Err(CloneError {
                    message: format!("{CONFIG_FILE}: {}", ConfinedError::LeavesRoot),
                })
            }
            Err(_) => {
                return Err(CloneError {
                    message: format!("{CONFIG_FILE}: could not be read"),
                })
            }
        }
        for (i, (name, path)) in overrides.iter().enumerate() {
            if holds_credentials(name) {
                return Err(CloneError {
                    message: format!("--source (number {}): {CREDENTIALS_IN_NAME}", i + 1),
                });
            }
            map.insert(
                workspace,
                Mapping {
                    file: "--source".to_string(),
                    line: i as u64 + 1,
                    name: name.clone(),
                    path: path.clone(),
                },
            );
        }
        Ok(map)
    }

    fn insert(&mut self, workspace: &Path, mapping: Mapping) {
        let p = Path::new(&mapping.path);
        let abs = if p.is_absolute() {
            p.to_path_buf()
        } else {
            workspace.join(p)
        };
        let key = config_key(&mapping.name);
        self.entries.insert(key.clone(), abs);
        self.origins.insert(key, mapping);
    }

    /// Where the clone of config key `key` was mapped.
    pub fn mapping(&self, key: &str) -> Option<&Mapping> {
        self.origins.get(key)
    }

    /// The mappings whose clone does not open (no such directory, or not a git repository),
    /// with why, in key order.
    pub fn broken(&self) -> Vec<(&Mapping, &'static str)> {
        self.entries
            .iter()
            .filter_map(|(key, path)| self.unopened(key, path))
            .collect()
    }

    /// Where the clone [`CloneMap::find`] takes for a module was mapped.
    pub fn mapping_for(&self, name: Option<&str>, remote: Option<&str>) -> Option<&Mapping> {
        self.origins.get(&self.key_for(name, remote)?)
    }

    /// The key [`CloneMap::find`] looks a module up by: its name when mapped, else its remote;
    /// but a `--source` override of its remote beats `ontoly.toml`'s mapping of its name (the
    /// command line is what the user said last: found in the stop-44 CI walk, where
    /// `--source github.com/x/y=PATH` silently lost to a per-module key).
    fn key_for(&self, name: Option<&str>, remote: Option<&str>) -> Option<String> {
        let by_name = name
            .map(config_key)
            .filter(|k| self.entries.contains_key(k));
        let by_remote = remote.and_then(remote_key);
        let typed = |k: &str| self.origins.get(k).is_some_and(Mapping::is_typed);
        match (by_name, by_remote) {
            (Some(n), Some(r)) if typed(&r) && !typed(&n) => Some(r),
            (Some(n), _) => Some(n),
            (None, r) => r,
        }
    }

    /// The mapping [`CloneMap::find`] takes for a module, with why its clone does not open;
    /// `None` when nothing is mapped or the clone opens.
    pub fn broken_for(
        &self,
        name: Option<&str>,
        remote: Option<&str>,
    ) -> Option<(&Mapping, &'static str)> {
        let key = self.key_for(name, remote)?;
        let path = self.entries.get(&key)?;
        self.unopened(&key, path)
    }

    fn unopened(&self, key: &str, path: &Path) -> Option<(&Mapping, &'static str)> {
        if self.open(path).is_some() {
            return None;
        }
        let why = if path.exists() {
            "is not a git repository (a work tree, its .git, or a bare repository)"
        } else {
            MISSING_CLONE
        };
        Some((self.origins.get(key)?, why))
    }

    /// The clone of a registered module: by `<source>/<module>` name first, then by remote.
    pub fn find(&self, name: Option<&str>, remote: Option<&str>) -> Option<&Path> {
        self.entries
            .get(&self.key_for(name, remote)?)
            .map(PathBuf::as_path)
    }

    /// The git repository at `path` (one of this map's clones), opened on first use and shared
    /// afterwards; `None` when it does not open.
    pub fn open(&self, path: &Path) -> Option<GitRepo> {
        let mut opened = self
            .opened
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        opened
            .entry(path.to_path_buf())
            .or_insert_with(|| GitRepo::open(path).ok())
            .clone()
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
/// [`crate::formats::source_registry`] (none when the file is missing or unusable: the workspace parsers
/// report those problems).
pub fn repo_modules(workspace: &Path) -> Vec<RepoModule> {
    registered_modules(workspace).unwrap_or_default()
}

/// The modules of the workspace's repository registry, in its order (none when it is absent);
/// `None` when the registry is there but cannot be used, so which modules it registers is not
/// known (a clone name is then neither matched nor unmatched).
pub fn registered_modules(workspace: &Path) -> Option<Vec<RepoModule>> {
    use crate::formats::source_registry::{load_registry, DirFiles, RegistryKind, RegistryState};
    match load_registry(&DirFiles::new(workspace), "", RegistryKind::Repo) {
        RegistryState::Loaded(registry) => Some(modules_of(&registry)),
        RegistryState::Absent => Some(Vec::new()),
        RegistryState::Unusable(_) => None,
    }
}

/// The modules of a loaded repository registry, in its order.
pub fn modules_of(registry: &crate::formats::source_registry::Registry) -> Vec<RepoModule> {
    use crate::formats::source_registry::RegistryEntry;
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
            // User-info never reaches the key, whatever follows it.
            ("u:SECRET@github.com/acme/x", "github.com/acme/x"),
            ("SECRET@github.com/acme/x", "github.com/acme/x"),
            ("u:SECRET@github.com:acme/x.git", "github.com/acme/x"),
            (
                "u:SECRET@github.com/acme/x?next=https://y",
                "github.com/acme/x",
            ),
            // Found by fuzzing (source_ref, reads): a scheme gix-url refuses still loses the
            // user-info.
            (
                "\"https://deploy:s3cret-pass@example.org/team/source.git",
                "example.org/team/source",
            ),
            (
                "git@github.com:team/x.git?u=https://user:s3cret@docs.example.org",
                "github.com:team/x",
            ),
        ] {
            assert_eq!(remote_key(r).as_deref(), Some(k), "{r}");
        }
        assert_eq!(remote_key("nohost"), None);
        // Found by fuzzing: text that only looks like a remote is no key (`//` collapsed by
        // trimming once hid a URL's user-info from redaction).
        assert_eq!(remote_key("host/x/https://u:SECRET@y"), None);
        assert_eq!(
            remote_key("@a@hostx://u:SECRET@gm/x").as_deref(),
            Some("gm/x")
        );
        assert_eq!(remote_key("https://host/"), None);
    }

    #[test]
    fn a_table_written_twice_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "[sources]\n# \"acme/payments\" = \"../payments\"\n\n[sources]\n\"acme/tools\" = \"../tools\"\n",
        )
        .unwrap();
        let e = CloneMap::load(dir.path(), &[]).expect_err("a duplicate table");
        assert!(
            e.message.starts_with("ontoly.toml:4: ")
                && e.message.ends_with(
                    "(the table [sources] appears twice: put every entry under the first [sources])"
                ),
            "{}",
            e.message
        );
    }

    #[test]
    fn two_names_of_one_repository_are_refused_at_the_second() {
        for (first, second) in [
            (
                "github.com/acme/shop-api",
                "https://github.com/acme/shop-api",
            ),
            // Sorted the other way round: the file's order decides which line is named.
            (
                "https://github.com/acme/shop-api",
                "github.com/acme/shop-api",
            ),
        ] {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(
                dir.path().join(CONFIG_FILE),
                format!("[sources]\n{first:?} = \"repos/a.git\"\n{second:?} = \"repos/b.git\"\n"),
            )
            .unwrap();
            let e = CloneMap::load(dir.path(), &[]).expect_err("one repository mapped twice");
            assert_eq!(
                e.message,
                format!("ontoly.toml:3: {second:?} names the same repository as {first:?} on line 2: keep one of them")
            );
        }
    }

    #[test]
    fn an_unknown_table_is_not_called_a_duplicate() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "# clones\n\n[source]\n\"acme/tools\" = \"../tools\"\n",
        )
        .unwrap();
        let e = CloneMap::load(dir.path(), &[]).expect_err("an unknown table");
        assert!(
            e.message
                .starts_with("ontoly.toml:3: unknown field `source`, expected `sources`"),
            "{}",
            e.message
        );
        assert!(!e.message.contains("twice"), "{}", e.message);
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
    fn a_remote_on_the_command_line_beats_a_module_in_the_config() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "[sources]\n\"acme/tools\" = \"configured\"\n",
        )
        .unwrap();
        let remote = Some("https://github.com/acme/tools.git");
        let none = CloneMap::load(dir.path(), &[]).unwrap();
        assert_eq!(
            none.find(Some("acme/tools"), remote),
            Some(dir.path().join("configured").as_path())
        );
        let typed = [("github.com/acme/tools".to_string(), "typed".to_string())];
        let map = CloneMap::load(dir.path(), &typed).unwrap();
        assert_eq!(
            map.find(Some("acme/tools"), remote),
            Some(dir.path().join("typed").as_path())
        );
        assert_eq!(
            map.mapping_for(Some("acme/tools"), remote).unwrap().file,
            "--source"
        );
        // Both typed: the module's own name still wins over its remote.
        let both = [
            ("github.com/acme/tools".to_string(), "typed".to_string()),
            ("acme/tools".to_string(), "named".to_string()),
        ];
        let map = CloneMap::load(dir.path(), &both).unwrap();
        assert_eq!(
            map.find(Some("acme/tools"), remote),
            Some(dir.path().join("named").as_path())
        );
    }

    #[test]
    fn bad_config_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(CONFIG_FILE), "[sources\n").unwrap();
        let e = CloneMap::load(dir.path(), &[]).unwrap_err();
        assert!(e.message.starts_with("ontoly.toml:1: "), "{}", e.message);
        std::fs::write(dir.path().join(CONFIG_FILE), "[other]\nx = 1\n").unwrap();
        assert!(CloneMap::load(dir.path(), &[]).is_err());
        // The line of the mistake, as for every other input.
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "# clones\n[sources]\n\"acme/payments\" = 5\n",
        )
        .unwrap();
        let e = CloneMap::load(dir.path(), &[]).unwrap_err();
        assert!(
            e.message.starts_with("ontoly.toml:3: ") && e.message.contains("expected a string"),
            "{}",
            e.message
        );
    }
}
