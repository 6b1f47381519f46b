//! Stage 1: every input file of a build, read and blake3-hashed in parallel; their hashes key
//! the snapshot cache.

use super::BuildError;
use crate::formats::confined::{Confined, ConfinedError};

/// How the message of an input over its size limit begins.
pub(crate) const TOO_LARGE: &str = "file is larger than";
use crate::formats::layout::{Workspace, REGISTRY_FILES, STRUCTURE_FILE};
use crate::graph::snapshot::{FileStat, Manifest, ManifestEntry};
use rayon::prelude::*;

/// One input file: workspace-relative path, content, blake3 hex.
#[derive(Debug, Clone)]
pub struct InputFile {
    /// Workspace-relative, `/`-separated.
    pub path: String,
    /// Content (`None` when it could not be read; the message says why).
    pub bytes: Result<Vec<u8>, String>,
    /// blake3 hex of the content (of the error message when unreadable).
    pub hash: String,
    /// Its status just before it was read (`None` when it could not be opened).
    pub stat: Option<FileStat>,
}

/// Every input of a build, sorted by path.
#[derive(Debug, Clone)]
pub struct Inputs {
    /// Files sorted by path.
    pub files: Vec<InputFile>,
}

impl Inputs {
    /// `(path, hash)` pairs: the identity of the inputs.
    pub fn key(&self) -> Vec<(String, String)> {
        self.files
            .iter()
            .map(|f| (f.path.clone(), f.hash.clone()))
            .collect()
    }

    /// `(path, hash)` pairs borrowed, in path order (for [`cache_key`]).
    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.files
            .iter()
            .map(|f| (f.path.as_str(), f.hash.as_str()))
    }

    /// Total bytes read.
    pub fn bytes(&self) -> u64 {
        self.files
            .iter()
            .map(|f| f.bytes.as_ref().map_or(0, |b| b.len() as u64))
            .sum()
    }

    /// Each input's size in bytes (0 when unreadable), by path.
    pub fn sizes(&self) -> std::collections::HashMap<String, u64> {
        (self.files.iter())
            .map(|f| {
                (
                    f.path.clone(),
                    f.bytes.as_ref().map_or(0, |b| b.len() as u64),
                )
            })
            .collect()
    }

    /// Knowledge pages, as paths relative to `knowledge/`, sorted.
    pub fn pages(&self) -> impl Iterator<Item = &str> {
        self.files
            .iter()
            .filter_map(|f| f.path.strip_prefix("knowledge/"))
            .filter(|p| p.ends_with(".md"))
    }

    /// The directories under `knowledge/` that could not be listed, workspace-relative (with
    /// their trailing `/`), and why.
    pub fn unlisted(&self) -> impl Iterator<Item = (&str, &str)> {
        self.files
            .iter()
            .filter(|f| f.path.starts_with("knowledge/") && f.path.ends_with('/'))
            .map(|f| {
                (
                    f.path.as_str(),
                    f.bytes.as_ref().err().map_or("", String::as_str),
                )
            })
    }

    /// Drops every input but those under `sources/` (the registries and the managed documents
    /// that resolution reads): the knowledge files, once parsed, are not read again.
    pub fn keep_only_sources(&mut self) {
        self.files.retain(|f| f.path.starts_with("sources/"));
    }

    /// The input at a workspace-relative path.
    pub fn get(&self, path: &str) -> Option<&InputFile> {
        self.files
            .binary_search_by(|f| f.path.as_str().cmp(path))
            .ok()
            .map(|i| &self.files[i])
    }
}

/// Why an entry under `knowledge/` whose name is not UTF-8 is left out.
pub const NOT_UTF8: &str = "its name is not UTF-8";

/// Every input's workspace-relative path (structure, pages, registries, notes, sessions,
/// `ontoly.toml`), sorted.
pub fn list_inputs(ws: &Workspace) -> Result<Vec<String>, BuildError> {
    let (pages, unlisted) = ws
        .pages_and_unlisted()
        .map_err(|e| BuildError(format!("cannot list knowledge/: {}", e.kind())))?;
    // A directory that could not be listed is an input too (`knowledge/private/`, read as
    // unreadable): its diagnostic is part of the graph, and its listing part of the key.
    let mut paths: Vec<String> = pages
        .iter()
        .map(|p| format!("knowledge/{p}"))
        // An unlisted directory is `dir/`; `knowledge/` itself is the empty name.
        .chain(unlisted.iter().map(|d| match d.as_str() {
            "" => "knowledge/".to_string(),
            d => format!("knowledge/{d}"),
        }))
        .collect();
    paths.push(STRUCTURE_FILE.to_string());
    // A registry that is there in any form (a FIFO, a link out of the workspace, dangling or
    // not) is an input that could not be read, which says why; only one that is not there at
    // all is absent.
    for r in REGISTRY_FILES {
        if ws.path(r).symlink_metadata().is_ok() {
            paths.push(r.to_string());
        }
    }
    if ws.path("ontoly.toml").is_file() {
        paths.push("ontoly.toml".to_string());
    }
    paths.extend(ws.managed_documents());
    paths.sort();
    paths.dedup();
    Ok(paths)
}

/// Reads and hashes one input under `dir` (the workspace, confined: a file is read only where
/// it resolves inside it, within its size limit), with its status taken before the read: a file
/// changed after that is seen as changed later and hashed again, never vouched for with the
/// hash of other bytes. The status is kept only for a file that was read.
pub fn read_one(ws: &Workspace, dir: &Confined, path: String) -> InputFile {
    if path.ends_with('/') {
        // A directory the listing could not read: why, in words without its location.
        let why = match std::fs::read_dir(ws.path(path.trim_end_matches('/'))) {
            // The listing names an entry whose name is not UTF-8 in its lossy spelling, which
            // is no path on disk.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && path.contains('\u{FFFD}') => {
                NOT_UTF8.to_string()
            }
            _ if dir.leaves_root(path.trim_end_matches('/')) => {
                "it is a symlink that leaves the workspace".to_string()
            }
            Err(e) => crate::graph::snapshot::why(&e),
            Ok(_) => "it changed while the workspace was listed".to_string(),
        };
        return InputFile {
            hash: format!("unlisted:{why}"),
            bytes: Err(why),
            path,
            stat: None,
        };
    }
    let stat = std::fs::metadata(ws.path(&path))
        .ok()
        .map(|m| FileStat::of(&m));
    let max = crate::formats::layout::max_bytes(&path);
    let bytes = dir.read(&path, Some(max)).map_err(|e| match e {
        ConfinedError::TooLarge => format!("{TOO_LARGE} {max} bytes"),
        e => e.to_string(),
    });
    let hash = match &bytes {
        Ok(b) => blake3::hash(b).to_hex().to_string(),
        Err(m) => format!("unreadable:{m}"),
    };
    let stat = stat.filter(|_| bytes.is_ok());
    InputFile {
        path,
        bytes,
        hash,
        stat,
    }
}

/// Stage 1: lists every input (structure, pages, registries, notes, sessions, `ontoly.toml`)
/// and reads and hashes them in parallel. A file is read only where it resolves inside the
/// workspace: a link that leaves it is an input that could not be read, and says so.
pub fn read_inputs(ws: &Workspace) -> Result<Inputs, BuildError> {
    let dir = Confined::new(&ws.root);
    let files = list_inputs(ws)?
        .into_par_iter()
        .map(|path| read_one(ws, &dir, path))
        .collect();
    Ok(Inputs { files })
}

/// Whether `structure.yaml` holds `repo-content:` references (they make the cache depend on
/// the workspace's own repository).
pub fn uses_repo_content(structure: &[u8]) -> bool {
    memchr::memmem::find(structure, b"repo-content:").is_some()
}

impl Inputs {
    /// Whether the structure holds `repo-content:` references.
    pub fn repo_content(&self) -> bool {
        self.get(STRUCTURE_FILE)
            .and_then(|f| f.bytes.as_deref().ok())
            .is_some_and(uses_repo_content)
    }

    /// The manifest of these inputs, with the file system's time taken before they were read.
    pub fn manifest(&self, stamp: Option<i128>) -> Manifest {
        Manifest {
            stamp,
            repo_content: self.repo_content(),
            files: self
                .files
                .iter()
                .map(|f| ManifestEntry {
                    path: f.path.clone(),
                    stat: f.stat,
                    hash: f.hash.clone(),
                })
                .collect(),
        }
    }
}

/// The inputs as they are now, known without reading the files a manifest vouches for.
#[derive(Debug, Clone)]
pub struct Unchanged {
    /// `(path, hash)` of every input, sorted: what [`cache_key`] needs.
    pub key: Vec<(String, String)>,
    /// Total bytes.
    pub bytes: u64,
    /// Knowledge pages.
    pub pages: usize,
    /// Whether the structure holds `repo-content:` references.
    pub repo_content: bool,
    /// Files that had to be read and hashed (status changed or too recent to trust).
    pub rehashed: usize,
}

/// Checks the workspace against a snapshot's manifest: lists the inputs and takes their
/// status; a file whose status is unchanged and old enough is vouched for by its recorded
/// hash, any other is read and hashed. `None` as soon as the inputs are known to differ (a
/// file added, removed or changed): the snapshot is stale.
pub fn check_manifest(
    ws: &Workspace,
    manifest: &Manifest,
) -> Result<Option<Unchanged>, BuildError> {
    let paths = list_inputs(ws)?;
    if paths.len() != manifest.files.len()
        || paths.iter().zip(&manifest.files).any(|(p, e)| *p != e.path)
    {
        return Ok(None);
    }
    let dir = Confined::new(&ws.root);
    let checked: Vec<Option<(u64, bool, bool)>> = manifest
        .files
        .par_iter()
        .map(|e| {
            let now = std::fs::metadata(ws.path(&e.path))
                .ok()
                .map(|m| FileStat::of(&m));
            if let Some(now) = now.filter(|now| manifest.trusts(e, now)) {
                let rc = e.path == STRUCTURE_FILE && manifest.repo_content;
                return Some((now.len, rc, false));
            }
            let f = read_one(ws, &dir, e.path.clone());
            if f.hash != e.hash {
                return None;
            }
            let len = f.bytes.as_ref().map_or(0, |b| b.len() as u64);
            let rc = e.path == STRUCTURE_FILE && f.bytes.as_deref().is_ok_and(uses_repo_content);
            Some((len, rc, true))
        })
        .collect();
    let mut out = Unchanged {
        key: Vec::with_capacity(paths.len()),
        bytes: 0,
        pages: 0,
        repo_content: false,
        rehashed: 0,
    };
    for (e, c) in manifest.files.iter().zip(checked) {
        let Some((len, rc, read)) = c else {
            return Ok(None);
        };
        out.bytes += len;
        out.repo_content |= rc;
        out.rehashed += usize::from(read);
        if e.path.starts_with("knowledge/") && e.path.ends_with(".md") {
            out.pages += 1;
        }
        out.key.push((e.path.clone(), e.hash.clone()));
    }
    Ok(Some(out))
}

/// The cache key: graph and builder versions, the source stage's salt, every input's
/// `(path, hash)` in path order.
pub fn cache_key<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>, salt: &str) -> String {
    let mut h = blake3::Hasher::new();
    for part in [
        crate::graph::model::GRAPH_VERSION,
        super::BUILDER_VERSION,
        salt,
    ] {
        h.update(part.as_bytes());
        h.update(b"\0");
    }
    for (path, hash) in files {
        h.update(path.as_bytes());
        h.update(b"\0");
        h.update(hash.as_bytes());
        h.update(b"\n");
    }
    h.finalize().to_hex().to_string()
}
