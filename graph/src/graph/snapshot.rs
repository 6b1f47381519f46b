//! The snapshot cache under `<workspace>/.ontoly/`.
//!
//! - `graph.bin`: the built graph, keyed by the build's cache key (graph version, builder
//!   version, the hash of every input file). A warm run loads it instead of building.
//! - `parse.bin`: the build's parses (each page and the structure keyed by their own content
//!   hash, so a change to one page re-parses that page only; the registries), which also
//!   answer `ontoly refs` on a warm cache without parsing anything again.
//! - `artifacts/<name>.bin`: named blobs tied to a graph hash (e.g. a search index), so other
//!   layers can cache what they derive from the graph next to it.
//!
//! Every file is framed as `MAGIC | payload length | blake3(payload) | payload` and written to a
//! temporary file, fsynced and renamed into place: a build killed halfway leaves either the
//! previous file or a stray temporary file, and a truncated or altered file fails its checksum
//! and is ignored (rebuilt), never loaded.

use crate::formats::parsed::Parsed;
use crate::graph::model::{Edge, EdgeKind, Node, NodeKind, Origin, Span};
use crate::graph::Graph;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The cache directory's name inside the workspace.
pub const CACHE_DIR: &str = ".ontoly";
const MAGIC: &[u8; 8] = b"ONTOLYS1";
const HEADER: usize = 8 + 8 + 32;

/// A graph together with the artifacts stored for it.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The graph.
    pub graph: Graph,
    /// Named blobs stored for exactly this graph hash.
    pub artifacts: BTreeMap<String, Vec<u8>>,
}

impl Snapshot {
    /// `graph` with every artifact in the workspace cache that was stored for its hash.
    pub fn with_artifacts(root: &Path, graph: Graph) -> Snapshot {
        let mut artifacts = BTreeMap::new();
        if let Ok(rd) = std::fs::read_dir(cache_dir(root).join("artifacts")) {
            let mut names: Vec<String> = rd
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter_map(|n| n.strip_suffix(".bin").map(str::to_string))
                .collect();
            names.sort();
            for n in names {
                if let Some(b) = read_artifact(root, &graph.hash, &n) {
                    artifacts.insert(n, b);
                }
            }
        }
        Snapshot { graph, artifacts }
    }
}

/// `<root>/.ontoly`.
pub fn cache_dir(root: &Path) -> PathBuf {
    root.join(CACHE_DIR)
}

// postcard is not self-describing, so the model's `skip_serializing_if` fields cannot go
// through it as they are: these mirrors carry every field.
#[derive(Serialize, Deserialize)]
struct WireNode {
    id: String,
    kind: NodeKind,
    name: String,
    file: Option<String>,
    span: Option<Span>,
    package: Option<String>,
    metadata: BTreeMap<String, String>,
}

#[derive(Serialize, Deserialize)]
struct WireEdge {
    id: String,
    kind: EdgeKind,
    from: String,
    to: String,
    origin: Option<Origin>,
    metadata: BTreeMap<String, String>,
}

#[derive(Serialize, Deserialize)]
struct WireGraph {
    version: String,
    nodes: Vec<WireNode>,
    edges: Vec<WireEdge>,
    texts: BTreeMap<String, String>,
    hash: String,
}

// Borrowed mirrors for writing: the same postcard bytes as the owned ones, without cloning.
#[derive(Serialize)]
struct WireNodeRef<'a> {
    id: &'a str,
    kind: NodeKind,
    name: &'a str,
    file: &'a Option<String>,
    span: &'a Option<Span>,
    package: &'a Option<String>,
    metadata: &'a BTreeMap<String, String>,
}

#[derive(Serialize)]
struct WireEdgeRef<'a> {
    id: &'a str,
    kind: EdgeKind,
    from: &'a str,
    to: &'a str,
    origin: &'a Option<Origin>,
    metadata: &'a BTreeMap<String, String>,
}

#[derive(Serialize)]
struct WireGraphRef<'a> {
    version: &'a str,
    nodes: Vec<WireNodeRef<'a>>,
    edges: Vec<WireEdgeRef<'a>>,
    texts: &'a BTreeMap<String, String>,
    hash: &'a str,
}

fn to_wire(g: &Graph) -> WireGraphRef<'_> {
    WireGraphRef {
        version: &g.version,
        nodes: g
            .nodes
            .iter()
            .map(|n| WireNodeRef {
                id: &n.id,
                kind: n.kind,
                name: &n.name,
                file: &n.file,
                span: &n.span,
                package: &n.package,
                metadata: &n.metadata,
            })
            .collect(),
        edges: g
            .edges
            .iter()
            .map(|e| WireEdgeRef {
                id: &e.id,
                kind: e.kind,
                from: &e.from,
                to: &e.to,
                origin: &e.origin,
                metadata: &e.metadata,
            })
            .collect(),
        texts: &g.texts,
        hash: &g.hash,
    }
}

fn from_wire(w: WireGraph) -> Graph {
    let nodes = w
        .nodes
        .into_iter()
        .map(|n| Node {
            id: n.id,
            kind: n.kind,
            name: n.name,
            file: n.file,
            span: n.span,
            package: n.package,
            metadata: n.metadata,
        })
        .collect();
    let edges = w
        .edges
        .into_iter()
        .map(|e| Edge {
            id: e.id,
            kind: e.kind,
            from: e.from,
            to: e.to,
            origin: e.origin,
            metadata: e.metadata,
        })
        .collect();
    Graph::from_snapshot(w.version, nodes, edges, w.texts, w.hash)
}

/// A framed file whose payload `fill` appends to the buffer it is given. The payload is
/// serialized in place after a reserved header, which is filled in last: a graph snapshot is
/// hundreds of MB at 100k sections, and copying it between intermediate buffers cost as much
/// as serializing it.
fn framed(fill: impl FnOnce(Vec<u8>) -> postcard::Result<Vec<u8>>) -> std::io::Result<Vec<u8>> {
    let mut out = fill(vec![0; HEADER]).map_err(std::io::Error::other)?;
    let len = (out.len() - HEADER) as u64;
    let sum = blake3::hash(&out[HEADER..]);
    out[..8].copy_from_slice(MAGIC);
    out[8..16].copy_from_slice(&len.to_le_bytes());
    out[16..HEADER].copy_from_slice(sum.as_bytes());
    Ok(out)
}

/// The payload of a framed file, or why it is unusable.
fn unframe(bytes: &[u8]) -> Result<&[u8], String> {
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err("cache file has no valid header".into());
    }
    let mut len = [0u8; 8];
    len.copy_from_slice(&bytes[8..16]);
    let len = u64::from_le_bytes(len);
    let payload = &bytes[HEADER..];
    if payload.len() as u64 != len {
        return Err("cache file is truncated".into());
    }
    if blake3::hash(payload).as_bytes() != &bytes[16..48] {
        return Err("cache file checksum mismatch".into());
    }
    Ok(payload)
}

fn read_framed(path: &Path) -> Result<Option<Vec<u8>>, String> {
    match std::fs::read(path) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(_) => Err("cache file could not be read".into()),
    }
}

/// Writes `data` to `dir/name` atomically: temporary file, fsync, rename, fsync of the dir.
fn write_atomic(dir: &Path, name: &str, data: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(data)?;
        f.sync_all()?;
    }
    if let Err(e) = std::fs::rename(&tmp, dir.join(name)) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    if let Ok(d) = std::fs::File::open(dir) {
        // Persists the rename; not all platforms allow syncing a directory.
        let _ = d.sync_all();
    }
    Ok(())
}

/// The cached graph when it was built from exactly the inputs behind `key`.
/// `Ok(None)`: no cache or another key. `Err`: a cache that is corrupt (it is then ignored).
pub fn load_graph(root: &Path, key: &str) -> Result<Option<Graph>, String> {
    let Some(bytes) = read_framed(&cache_dir(root).join("graph.bin"))? else {
        return Ok(None);
    };
    let payload = unframe(&bytes)?;
    let (stored_key, rest): (String, &[u8]) =
        postcard::take_from_bytes(payload).map_err(|_| "cache file is not readable".to_string())?;
    if stored_key != key {
        return Ok(None);
    }
    let wire: WireGraph =
        postcard::from_bytes(rest).map_err(|_| "cache file is not readable".to_string())?;
    if wire.version != crate::graph::model::GRAPH_VERSION {
        return Ok(None);
    }
    Ok(Some(from_wire(wire)))
}

/// The build's parses, when present and intact.
pub fn load_parsed(root: &Path) -> Result<Option<Parsed>, String> {
    let Some(bytes) = read_framed(&cache_dir(root).join("parse.bin"))? else {
        return Ok(None);
    };
    let payload = unframe(&bytes)?;
    let (version, rest): (String, &[u8]) = postcard::take_from_bytes(payload)
        .map_err(|_| "parse cache is not readable".to_string())?;
    if version != crate::formats::parsed::PARSED_VERSION {
        return Ok(None);
    }
    postcard::from_bytes(rest)
        .map(Some)
        .map_err(|_| "parse cache is not readable".to_string())
}

/// Stores the graph under `key` and the per-file parse cache, each atomically.
pub fn store(root: &Path, key: &str, graph: &Graph, parses: &Parsed) -> std::io::Result<()> {
    let dir = cache_dir(root);
    std::fs::create_dir_all(&dir)?;
    let ignore = dir.join(".gitignore");
    if !ignore.exists() {
        write_atomic(&dir, ".gitignore", b"*\n")?;
    }
    // Parse cache first: a kill between the two writes leaves a graph.bin that does not match
    // the new inputs (so it is not loaded) and a parse cache that does. The smaller parse
    // cache is written while the graph is still being serialized, so its I/O costs no time.
    let (g, p) = rayon::join(
        || framed(|buf| postcard::to_extend(&to_wire(graph), postcard::to_extend(key, buf)?)),
        || {
            let data = framed(|buf| {
                postcard::to_extend(
                    parses,
                    postcard::to_extend(crate::formats::parsed::PARSED_VERSION, buf)?,
                )
            })?;
            write_atomic(&dir, "parse.bin", &data)
        },
    );
    p?;
    write_atomic(&dir, "graph.bin", &g?)?;
    Ok(())
}

fn artifact_name_ok(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
}

/// Stores a named blob for the graph with hash `graph_hash` (atomically). Names are
/// `[A-Za-z0-9._-]`, at most 64 bytes, not starting with a dot.
pub fn write_artifact(
    root: &Path,
    graph_hash: &str,
    name: &str,
    bytes: &[u8],
) -> std::io::Result<()> {
    if !artifact_name_ok(name) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "invalid artifact name",
        ));
    }
    let data = framed(|buf| {
        let mut buf = postcard::to_extend(graph_hash, buf)?;
        buf.extend_from_slice(bytes);
        Ok(buf)
    })?;
    write_atomic(
        &cache_dir(root).join("artifacts"),
        &format!("{name}.bin"),
        &data,
    )
}

/// The blob stored under `name` for exactly this graph hash; `None` when absent, stale or
/// corrupt.
pub fn read_artifact(root: &Path, graph_hash: &str, name: &str) -> Option<Vec<u8>> {
    if !artifact_name_ok(name) {
        return None;
    }
    let path = cache_dir(root)
        .join("artifacts")
        .join(format!("{name}.bin"));
    let bytes = read_framed(&path).ok()??;
    let payload = unframe(&bytes).ok()?;
    let (h, rest): (String, &[u8]) = postcard::take_from_bytes(payload).ok()?;
    (h == graph_hash).then(|| rest.to_vec())
}
