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

/// An input that was not read: the snapshot's manifest vouches for its hash (its status is the
/// one recorded and old enough to trust, [`Manifest::trusts`]), and nothing in this build
/// needs its bytes (`structure.yaml` when the parse cache holds its parse).
#[derive(Debug, Clone)]
pub struct Vouched {
    /// Workspace-relative, `/`-separated.
    pub path: String,
    /// The hash the manifest recorded for it.
    pub hash: String,
    /// Its status now (the recorded one).
    pub stat: FileStat,
    /// Whether it holds `repo-content:` references (the manifest's word, for the structure).
    pub repo_content: bool,
}

/// An input's path, hash, size and status, whether it was read or vouched for.
struct Entry<'a> {
    path: &'a str,
    hash: &'a str,
    len: u64,
    stat: Option<FileStat>,
}

/// Every input of a build, sorted by path.
#[derive(Debug, Clone)]
pub struct Inputs {
    /// Files sorted by path.
    pub files: Vec<InputFile>,
    /// Inputs not read, sorted by path (none in a build that had no snapshot to trust).
    pub vouched: Vec<Vouched>,
}

impl Inputs {
    /// Every input, read or vouched for, in path order.
    fn entries(&self) -> impl Iterator<Item = Entry<'_>> {
        let read = self.files.iter().map(|f| Entry {
            path: &f.path,
            hash: &f.hash,
            len: f.bytes.as_ref().map_or(0, |b| b.len() as u64),
            stat: f.stat,
        });
        let vouched = self.vouched.iter().map(|v| Entry {
            path: &v.path,
            hash: &v.hash,
            len: v.stat.len,
            stat: Some(v.stat),
        });
        let (mut read, mut vouched) = (read.peekable(), vouched.peekable());
        std::iter::from_fn(move || match (read.peek(), vouched.peek()) {
            (Some(r), Some(v)) if v.path < r.path => vouched.next(),
            (Some(_), _) => read.next(),
            (None, _) => vouched.next(),
        })
    }

    /// `(path, hash)` pairs: the identity of the inputs.
    pub fn key(&self) -> Vec<(String, String)> {
        self.entries()
            .map(|e| (e.path.to_string(), e.hash.to_string()))
            .collect()
    }

    /// `(path, hash)` pairs borrowed, in path order (for [`cache_key`]).
    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries().map(|e| (e.path, e.hash))
    }

    /// Total bytes of the inputs (of those vouched for, by their status).
    pub fn bytes(&self) -> u64 {
        self.entries().map(|e| e.len).sum()
    }

    /// Each input's size in bytes (0 when unreadable), by path.
    pub fn sizes(&self) -> std::collections::HashMap<String, u64> {
        self.entries()
            .map(|e| (e.path.to_string(), e.len))
            .collect()
    }

    /// The hash of the input at `path` when it was vouched for and not read.
    pub fn vouched_hash(&self, path: &str) -> Option<&str> {
        self.vouched
            .iter()
            .find(|v| v.path == path)
            .map(|v| v.hash.as_str())
    }

    /// Number of inputs, read or vouched for.
    pub fn len(&self) -> usize {
        self.files.len() + self.vouched.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
        self.vouched.retain(|v| v.path.starts_with("sources/"));
    }

    /// Reads the input at `path` that was vouched for and not read, when a stage turns out to
    /// need its bytes (the parse cache did not hold the structure's parse). Read as any input
    /// is, its hash from what was read.
    pub fn read_vouched(&mut self, ws: &Workspace, path: &str) {
        let Ok(i) = self.vouched.binary_search_by(|v| v.path.as_str().cmp(path)) else {
            return;
        };
        let v = self.vouched.remove(i);
        let f = read_one(ws, &Confined::new(&ws.root), v.path);
        let at = self.files.partition_point(|g| g.path < f.path);
        self.files.insert(at, f);
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
    Ok(Inputs {
        files,
        vouched: Vec::new(),
    })
}

/// Whether `structure.yaml` holds `repo-content:` references (they make the cache depend on
/// the workspace's own repository).
pub fn uses_repo_content(structure: &[u8]) -> bool {
    memchr::memmem::find(structure, b"repo-content:").is_some()
}

impl Inputs {
    /// Whether the structure holds `repo-content:` references.
    pub fn repo_content(&self) -> bool {
        if let Some(v) = self.vouched.iter().find(|v| v.path == STRUCTURE_FILE) {
            return v.repo_content;
        }
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
                .entries()
                .map(|e| ManifestEntry {
                    path: e.path.to_string(),
                    stat: e.stat,
                    hash: e.hash.to_string(),
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
/// hash, any other is read and hashed (as a build after a stale snapshot starts). `None` when
/// the inputs differ (a file added, removed or changed): the snapshot is stale.
pub fn check_manifest(
    ws: &Workspace,
    manifest: &Manifest,
) -> Result<Option<Unchanged>, BuildError> {
    // No stamp: nothing surveyed here is built from or recorded.
    Ok(survey(ws, manifest, || None)?.unchanged(manifest))
}

/// The inputs as a snapshot's manifest let them be known: listed and their status taken; a
/// file the manifest trusts by its status is vouched for by its recorded hash, any other is
/// read and hashed. Either the inputs are the manifest's ([`Survey::unchanged`]) or they are
/// what a partial build starts from ([`Survey::into_inputs`]), so a file is read at most once.
#[derive(Debug)]
pub(crate) struct Survey {
    /// Every input in path order: read, or vouched for.
    files: Vec<Checked>,
    /// Whether the manifest's inputs are exactly these paths, in order.
    same_paths: bool,
    /// The file system's time taken before the first read of this survey (`None` inside:
    /// it could not be taken); `None` when nothing was read.
    pub stamp: Option<Option<i128>>,
}

/// One input of a [`Survey`].
#[derive(Debug)]
enum Checked {
    /// Read and hashed.
    Read(InputFile),
    /// Vouched for by the manifest, not read.
    Vouched(Vouched),
}

/// Lists the inputs and takes their status; the files `manifest` trusts are vouched for by
/// its hashes, the others read and hashed, after the file system's time is taken (`stamp`:
/// a file changed after it is never trusted by a later manifest).
pub(crate) fn survey(
    ws: &Workspace,
    manifest: &Manifest,
    stamp: impl FnOnce() -> Option<i128>,
) -> Result<Survey, BuildError> {
    let paths = list_inputs(ws)?;
    let same_paths = paths.len() == manifest.files.len()
        && paths.iter().zip(&manifest.files).all(|(p, e)| *p == e.path);
    let trusted: Vec<Option<Vouched>> = paths
        .par_iter()
        .map(|p| {
            let i = manifest
                .files
                .binary_search_by(|e| e.path.as_str().cmp(p))
                .ok()?;
            let e = &manifest.files[i];
            let now = FileStat::of(&std::fs::metadata(ws.path(p)).ok()?);
            manifest.trusts(e, &now).then(|| Vouched {
                path: e.path.clone(),
                hash: e.hash.clone(),
                stat: now,
                repo_content: e.path == STRUCTURE_FILE && manifest.repo_content,
            })
        })
        .collect();
    let stamp = trusted.iter().any(Option::is_none).then(stamp);
    let dir = Confined::new(&ws.root);
    let files = paths
        .into_par_iter()
        .zip(trusted)
        .map(|(p, t)| match t {
            Some(v) => Checked::Vouched(v),
            None => Checked::Read(read_one(ws, &dir, p)),
        })
        .collect();
    Ok(Survey {
        files,
        same_paths,
        stamp,
    })
}

impl Survey {
    /// The inputs as the manifest recorded them, when they are (same paths, every file read
    /// hashing as recorded); `None` when anything differs.
    pub(crate) fn unchanged(&self, manifest: &Manifest) -> Option<Unchanged> {
        if !self.same_paths {
            return None;
        }
        let mut out = Unchanged {
            key: Vec::with_capacity(self.files.len()),
            bytes: 0,
            pages: 0,
            repo_content: false,
            rehashed: 0,
        };
        for (f, e) in self.files.iter().zip(&manifest.files) {
            match f {
                Checked::Read(f) => {
                    if f.hash != e.hash {
                        return None;
                    }
                    out.bytes += f.bytes.as_ref().map_or(0, |b| b.len() as u64);
                    out.repo_content |=
                        f.path == STRUCTURE_FILE && f.bytes.as_deref().is_ok_and(uses_repo_content);
                    out.rehashed += 1;
                }
                Checked::Vouched(v) => {
                    out.bytes += v.stat.len;
                    out.repo_content |= v.repo_content;
                }
            }
            if e.path.starts_with("knowledge/") && e.path.ends_with(".md") {
                out.pages += 1;
            }
            out.key.push((e.path.clone(), e.hash.clone()));
        }
        Some(out)
    }

    /// The inputs of a build: every file vouched for is read now except `structure.yaml`,
    /// which is read only if [`Inputs::read_vouched`] is asked to (the parse cache may hold
    /// its parse). Pages, registries and the documents under `sources/` are read (pages for
    /// their sections' texts, which the parse cache does not keep; the others for resolution);
    /// a file read here is hashed from its bytes, as any read is.
    pub(crate) fn into_inputs(self, ws: &Workspace) -> Inputs {
        let dir = Confined::new(&ws.root);
        let all: Vec<Checked> = self
            .files
            .into_par_iter()
            .map(|f| match f {
                Checked::Vouched(v) if v.path != STRUCTURE_FILE => {
                    Checked::Read(read_one(ws, &dir, v.path))
                }
                f => f,
            })
            .collect();
        let mut inputs = Inputs {
            files: Vec::with_capacity(all.len()),
            vouched: Vec::new(),
        };
        for f in all {
            match f {
                Checked::Read(f) => inputs.files.push(f),
                Checked::Vouched(v) => inputs.vouched.push(v),
            }
        }
        inputs
    }
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
