//! Stage 1: every input file of a build, read and blake3-hashed in parallel; their hashes key
//! the snapshot cache.

use super::BuildError;
use crate::formats::layout::{Workspace, REGISTRY_FILES, STRUCTURE_FILE};
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

    /// Total bytes read.
    pub fn bytes(&self) -> u64 {
        self.files
            .iter()
            .map(|f| f.bytes.as_ref().map_or(0, |b| b.len() as u64))
            .sum()
    }

    /// Knowledge pages, as paths relative to `knowledge/`, sorted.
    pub fn pages(&self) -> impl Iterator<Item = &str> {
        self.files
            .iter()
            .filter_map(|f| f.path.strip_prefix("knowledge/"))
            .filter(|p| p.ends_with(".md"))
    }

    /// The input at a workspace-relative path.
    pub fn get(&self, path: &str) -> Option<&InputFile> {
        self.files
            .binary_search_by(|f| f.path.as_str().cmp(path))
            .ok()
            .map(|i| &self.files[i])
    }
}

/// Stage 1: lists every input (structure, pages, registries, notes, sessions, `ontoly.toml`)
/// and reads and hashes them in parallel.
pub fn read_inputs(ws: &Workspace) -> Result<Inputs, BuildError> {
    let pages = ws
        .pages()
        .map_err(|e| BuildError(format!("cannot list knowledge/: {e}")))?;
    let mut paths: Vec<String> = pages.iter().map(|p| format!("knowledge/{p}")).collect();
    paths.push(STRUCTURE_FILE.to_string());
    for r in REGISTRY_FILES {
        if ws.path(r).is_file() {
            paths.push(r.to_string());
        }
    }
    if ws.path("ontoly.toml").is_file() {
        paths.push("ontoly.toml".to_string());
    }
    paths.extend(ws.managed_documents());
    paths.sort();
    paths.dedup();
    let files = paths
        .into_par_iter()
        .map(|path| {
            let bytes = std::fs::read(ws.path(&path)).map_err(|e| io_message(&e));
            let hash = match &bytes {
                Ok(b) => blake3::hash(b).to_hex().to_string(),
                Err(m) => format!("unreadable:{m}"),
            };
            InputFile { path, bytes, hash }
        })
        .collect();
    Ok(Inputs { files })
}

/// An I/O error as a message that never names a path.
pub(crate) fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "file not found".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => "file could not be read".into(),
    }
}

/// The cache key: graph and builder versions, the source stage's salt, every input's hash.
pub fn cache_key(inputs: &Inputs, salt: &str) -> String {
    let mut h = blake3::Hasher::new();
    for part in [
        crate::graph::model::GRAPH_VERSION,
        super::BUILDER_VERSION,
        salt,
    ] {
        h.update(part.as_bytes());
        h.update(b"\0");
    }
    for f in &inputs.files {
        h.update(f.path.as_bytes());
        h.update(b"\0");
        h.update(f.hash.as_bytes());
        h.update(b"\n");
    }
    h.finalize().to_hex().to_string()
}
