//! The snapshot cache under `<workspace>/.ontoly/`.
//!
//! - `graph.map`: the built graph as a mapped container ([`crate::graph::store`]), keyed by
//!   the build's cache key (graph version, builder version, the hash of every input file), with
//!   a [`Manifest`] of the inputs' file status so a later process can tell the inputs are
//!   unchanged without reading them. A process opens it in place instead of loading it.
//! - `parse.bin`: the build's parses (each page and the structure keyed by their own content
//!   hash, so a change to one page re-parses that page only; the registries), which also
//!   answer `ontoly refs` on a warm cache without parsing anything again.
//! - `artifacts/<name>.map`: named blobs tied to a graph hash (e.g. the search index), in the
//!   same container format, so other layers can cache what they derive from the graph next to
//!   it and map it.
//!
//! Every file is written to a new temporary file, fsynced and renamed into place: a build
//! killed halfway leaves either the previous file or a stray temporary file. A file that is
//! truncated, altered, written by another version or for other inputs is refused (and rebuilt),
//! never trusted. Cache files are opened only when they are regular files (never through a
//! symbolic link, never a FIFO or device), their size is checked against their header before
//! anything is read or mapped, and a `.ontoly` (or `artifacts/`) directory that is a symbolic
//! link leaving the workspace is not used at all.

use crate::formats::parsed::Parsed;
use crate::graph::store::container::{open_regular, Container, OpenError, Writer};
use crate::graph::store::{self, MappedGraph};
use crate::graph::Graph;
use serde::{Deserialize, Serialize};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The cache directory's name inside the workspace.
pub const CACHE_DIR: &str = ".ontoly";
/// The mapped graph snapshot, inside [`CACHE_DIR`].
pub const GRAPH_FILE: &str = "graph.map";
/// The parse cache, inside [`CACHE_DIR`].
pub const PARSE_FILE: &str = "parse.bin";
const ARTIFACT_KIND: [u8; 8] = *b"artifact";
const MAGIC: &[u8; 8] = b"ONTOLYS1";
const HEADER: usize = 8 + 8 + 32;

/// `<root>/.ontoly`, as a path (not checked; see [`usable_cache_dir`]).
pub fn cache_dir(root: &Path) -> PathBuf {
    root.join(CACHE_DIR)
}

/// Why the cache directory cannot be used.
fn dir_note(what: &str) -> String {
    format!("cache not used: {what} is a symbolic link that leaves the workspace")
}

/// `dir` when it is a directory inside `root` (or absent): a symbolic link is followed only
/// when it resolves inside the workspace.
fn inside(root: &Path, dir: &Path, what: &str) -> Result<(), String> {
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.file_type().is_symlink() => {
            let (Ok(real), Ok(base)) = (std::fs::canonicalize(dir), std::fs::canonicalize(root))
            else {
                return Err(dir_note(what));
            };
            if real.starts_with(&base) && real != base && real.is_dir() {
                Ok(())
            } else {
                Err(dir_note(what))
            }
        }
        Ok(m) if !m.is_dir() => Err(format!("cache not used: {what} is not a directory")),
        _ => Ok(()),
    }
}

/// `<root>/.ontoly` when it may be used: absent, a directory, or a link to a directory inside
/// the workspace. Otherwise the note says why not (the build then neither reads nor writes it).
pub fn usable_cache_dir(root: &Path) -> Result<PathBuf, String> {
    let dir = cache_dir(root);
    inside(root, &dir, CACHE_DIR)?;
    Ok(dir)
}

/// The directory of the artifacts under the cache directory.
const ARTIFACTS_DIR: &str = "artifacts";

/// Where artifact `name` of the workspace at `root` is stored (whether or not it is): for a
/// long-lived reader to tell the file it mapped is still there as it was.
pub fn artifact_path(root: &Path, name: &str) -> PathBuf {
    root.join(CACHE_DIR)
        .join(ARTIFACTS_DIR)
        .join(artifact_file(name))
}

/// The file name of artifact `name` in the artifacts directory.
fn artifact_file(name: &str) -> String {
    format!("{name}.map")
}

fn artifacts_dir(root: &Path) -> Result<PathBuf, String> {
    let dir = usable_cache_dir(root)?.join(ARTIFACTS_DIR);
    inside(root, &dir, ".ontoly/artifacts")?;
    Ok(dir)
}

/// Writes `data` to `dir/name` atomically: a new temporary file (never an existing one, nor
/// through a link), fsync, rename over the old entry (a link there is replaced, not followed),
/// fsync of the directory.
fn write_atomic(dir: &Path, name: &str, data: &[u8]) -> std::io::Result<()> {
    write_atomic_with(dir, name, |f| f.write_all(data))
}

/// [`write_atomic`] of what `fill` writes to the new file.
fn write_atomic_with(
    dir: &Path,
    name: &str,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(crate::graph::store::container::temp_name(name));
    let create = || {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
    };
    let mut f = match create() {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            // A stale temporary file of a killed process with our id and count.
            std::fs::remove_file(&tmp)?;
            create()?
        }
        Err(e) => return Err(e),
    };
    let written = fill(&mut f).and_then(|()| f.sync_all());
    drop(f);
    if let Err(e) = written.and_then(|()| std::fs::rename(&tmp, dir.join(name))) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    if let Ok(d) = std::fs::File::open(dir) {
        // Persists the rename; not all platforms allow syncing a directory.
        let _ = d.sync_all();
    }
    sweep_stale(dir, name);
    Ok(())
}

/// Removes the temporary files of `name` that killed processes left (`.name.tmp-PID-N`, or
/// `.name.tmp-PID` as earlier versions named them, of a process that no longer runs): a build killed mid-write leaves one, up to the size of the
/// file, and nothing else would ever remove it. Only where a process's liveness can be told
/// (`/proc`); elsewhere they stay, as before.
fn sweep_stale(dir: &Path, name: &str) {
    let proc_fs = Path::new("/proc");
    if !proc_fs.join("self").exists() {
        return;
    }
    let prefix = format!(".{name}.tmp-");
    let own = std::process::id().to_string();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let Some(pid) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|rest| match rest.split_once('-') {
                Some((pid, n)) => digits(n).then_some(pid),
                None => Some(rest),
            })
            .filter(|pid| digits(pid))
        else {
            continue;
        };
        if pid != own && !proc_fs.join(pid).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// A file's status as the manifest records it: enough to tell that a file is unchanged
/// without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStat {
    /// Size in bytes.
    pub len: u64,
    /// Modification time, nanoseconds since the epoch.
    pub mtime: i128,
    /// Status change time (any write, rename or chmod moves it; it cannot be set back).
    pub ctime: i128,
    /// Inode number (0 where the platform has none).
    pub ino: u64,
}

impl FileStat {
    /// The status of a file's metadata.
    pub fn of(m: &std::fs::Metadata) -> FileStat {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let ns = |s: i64, n: i64| i128::from(s) * 1_000_000_000 + i128::from(n);
            FileStat {
                len: m.len(),
                mtime: ns(m.mtime(), m.mtime_nsec()),
                ctime: ns(m.ctime(), m.ctime_nsec()),
                ino: m.ino(),
            }
        }
        #[cfg(not(unix))]
        {
            let t = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos() as i128);
            FileStat {
                len: m.len(),
                mtime: t,
                ctime: t,
                ino: 0,
            }
        }
    }
}

/// One input as the build read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestEntry {
    /// Workspace-relative path.
    pub path: String,
    /// Its status just before it was read (`None`: it could not be opened).
    pub stat: Option<FileStat>,
    /// The hash the cache key used (blake3 hex, or the `unreadable:` note).
    pub hash: String,
}

/// What the build read, so a later process can tell the inputs are unchanged by their status
/// alone. A file is trusted by status only when its status is identical and it was last
/// changed well before the build began (`stamp`, taken from the file system's own clock);
/// any other file is read and hashed again. Results never depend on the clock: when in doubt,
/// the file is hashed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The file system's time when the build began to read (nanoseconds), if it could be taken.
    pub stamp: Option<i128>,
    /// Whether `structure.yaml` names `repo-content:` references (part of the cache salt).
    pub repo_content: bool,
    /// Every input, sorted by path.
    pub files: Vec<ManifestEntry>,
}

/// A file changed this close to the build's start (or after) may have changed again within
/// the same timestamp tick; 2 s covers the coarsest file systems (FAT).
pub const RACY_NS: i128 = 2_000_000_000;

impl Manifest {
    /// True when `now` is the same status as `entry`'s and the file was last modified well
    /// before the build began. (A write changes the status time, which cannot be set back, so
    /// a file whose modification time was restored still differs; a file modified within the
    /// same timestamp tick as its previous version, after the build read it, keeps both times
    /// only if that tick is after `stamp - RACY_NS`, which this refuses.)
    pub fn trusts(&self, entry: &ManifestEntry, now: &FileStat) -> bool {
        let Some(stamp) = self.stamp else {
            return false;
        };
        entry.stat.as_ref() == Some(now) && now.mtime < stamp - RACY_NS
    }
}

/// The file system's current time, read from the status of a file created for the purpose in
/// the cache directory (so it is the same clock that stamps the inputs). `None` when the cache
/// directory cannot be written: then nothing is trusted by status.
pub fn fs_stamp(root: &Path) -> Option<i128> {
    let dir = usable_cache_dir(root).ok()?;
    std::fs::create_dir_all(&dir).ok()?;
    let p = dir.join(format!(".stamp-{}", std::process::id()));
    // Whatever is there (a stamp of a killed process with this id, or a planted link) is
    // removed, not opened: opening with truncation would empty the file a link points to.
    let _ = std::fs::remove_file(&p);
    let f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&p)
        .ok()?;
    let stat = f.metadata().ok().map(|m| FileStat::of(&m));
    drop(f);
    let _ = std::fs::remove_file(&p);
    let s = stat?;
    Some(s.mtime.min(s.ctime))
}

/// An opened graph snapshot whose key has not been checked yet: its manifest says what to
/// check.
pub struct Opened {
    container: Container,
    /// The inputs as the build that wrote it read them.
    pub manifest: Manifest,
}

impl Opened {
    /// Checks every block now; false when any fails its sum.
    pub fn verify_all(&self) -> bool {
        self.container.verify_all()
    }

    /// The graph, when the snapshot was written for `key` (else `Err(Stale)`). With `verify`,
    /// every block is checked now instead of on first read.
    pub fn into_graph(self, key: &str, verify: bool) -> Result<Graph, OpenError> {
        if !self.container.key_matches(key) {
            return Err(OpenError::Stale);
        }
        if verify && !self.container.verify_all() {
            return Err(OpenError::Corrupt("data"));
        }
        Ok(Graph::mapped(MappedGraph::from_container(self.container)?))
    }
}

/// Opens `graph.map` (header checked, key not yet) and reads its manifest. `Ok(None)`: no
/// snapshot. `Err`: a snapshot that cannot be used, and why.
pub fn open_graph(root: &Path) -> Result<Option<Opened>, String> {
    let dir = usable_cache_dir(root)?;
    let container = match Container::open_unkeyed(&dir.join(GRAPH_FILE), store::KIND) {
        Ok(c) => c,
        Err(OpenError::NotFound) => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    let bytes = container
        .section("manifest")
        .and_then(|s| s.all())
        .ok_or_else(|| OpenError::Corrupt("manifest").to_string())?;
    let manifest: Manifest =
        postcard::from_bytes(bytes).map_err(|_| OpenError::Corrupt("manifest").to_string())?;
    Ok(Some(Opened {
        container,
        manifest,
    }))
}

/// Writes the framed file `dir/name` atomically ([`write_atomic`]): a header (magic, the
/// payload's length and blake3) and the payload `fill` writes.
fn write_framed(
    dir: &Path,
    name: &str,
    fill: impl FnOnce(&mut dyn Write) -> postcard::Result<()>,
) -> std::io::Result<()> {
    write_atomic_with(dir, name, |f| {
        f.write_all(&[0; HEADER])?;
        // The payload goes to the file as it is serialized, hashed on its way, in blocks:
        // never whole in memory (49 MB at 100k sections, beside the graph's layout).
        let mut w = std::io::BufWriter::with_capacity(
            1 << 18,
            Hashing {
                file: &mut *f,
                hasher: blake3::Hasher::new(),
                len: 0,
            },
        );
        fill(&mut w).map_err(std::io::Error::other)?;
        let Hashing { hasher, len, .. } = w.into_inner().map_err(|e| e.into_error())?;
        let mut head = [0u8; HEADER];
        head[..8].copy_from_slice(MAGIC);
        head[8..16].copy_from_slice(&len.to_le_bytes());
        head[16..].copy_from_slice(hasher.finalize().as_bytes());
        f.seek(std::io::SeekFrom::Start(0))?;
        f.write_all(&head)
    })
}

/// A file writer that hashes what it writes and counts it.
struct Hashing<'f> {
    file: &'f mut std::fs::File,
    hasher: blake3::Hasher,
    len: u64,
}

impl Write for Hashing<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.file.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// The checked payload of the framed file at `path`: its header is read first and its length
/// checked against the file's size before the rest is read.
fn read_framed(path: &Path) -> Result<Option<Vec<u8>>, String> {
    let Some((mut f, size)) = open_regular(path).map_err(|m| format!("cache file is {m}"))? else {
        return Ok(None);
    };
    let mut head = [0u8; HEADER];
    if size < HEADER as u64 || f.read_exact(&mut head).is_err() || &head[..8] != MAGIC {
        return Err("cache file has no valid header".into());
    }
    let mut len = [0u8; 8];
    len.copy_from_slice(&head[8..16]);
    if u64::from_le_bytes(len) != size - HEADER as u64 {
        return Err("cache file is truncated".into());
    }
    let mut payload = Vec::new();
    payload
        .try_reserve_exact((size - HEADER as u64) as usize)
        .map_err(|_| "cache file could not be read".to_string())?;
    f.take(size - HEADER as u64)
        .read_to_end(&mut payload)
        .map_err(|_| "cache file could not be read".to_string())?;
    if payload.len() as u64 != size - HEADER as u64 {
        return Err("cache file is truncated".into());
    }
    if blake3::hash(&payload).as_bytes() != &head[16..48] {
        return Err("cache file checksum mismatch".into());
    }
    Ok(Some(payload))
}

/// The build's parses, when present and intact.
pub fn load_parsed(root: &Path) -> Result<Option<Parsed>, String> {
    let dir = usable_cache_dir(root)?;
    let Some(payload) = read_framed(&dir.join(PARSE_FILE))? else {
        return Ok(None);
    };
    let (version, rest): (String, &[u8]) = postcard::take_from_bytes(&payload)
        .map_err(|_| "parse cache is not readable".to_string())?;
    if version != crate::formats::parsed::PARSED_VERSION {
        return Ok(None);
    }
    postcard::from_bytes(rest)
        .map(Some)
        .map_err(|_| "parse cache is not readable".to_string())
}

/// Stores the graph as `graph.map` under `key` with the inputs' `manifest`, and the per-file
/// parse cache, each atomically. The error is a note for the build report (it never names a
/// path). The parses are given up as soon as the parse cache holds them (they are read back
/// with [`load_parsed`] when asked for): at 100k sections they are ~170 MB that would otherwise
/// stay live through whatever runs beside the write (the search index build). They are dropped
/// once serialized, before the file is synced and renamed; they come back when the parse cache
/// could not be begun (no cache directory, no new file). If the write fails after that, they
/// are gone, and `Session::parsed` parses the workspace again when a caller asks.
pub fn store(
    root: &Path,
    key: &str,
    graph: &Graph,
    parses: Parsed,
    manifest: &Manifest,
) -> (Result<(), String>, Option<Parsed>) {
    let dir = match usable_cache_dir(root) {
        Ok(dir) => dir,
        Err(e) => return (Err(e), Some(parses)),
    };
    let (stored, back) = store_in(&dir, key, graph, parses, manifest);
    // The kind of failure only (`is a directory`, `permission denied`, `storage full`…): an
    // error's own message may name the path.
    let stored = stored.map_err(|e| format!("cache not written: {}", why(&e)));
    (stored, back)
}

/// Why a cache write failed, without the path an I/O error's own message may carry: its kind
/// (`permission denied`, `no storage space`), or when the kind says nothing (`other error`),
/// the operating system's words for its code (`Not a directory (os error 20)`).
pub fn why(e: &std::io::Error) -> String {
    match (e.kind(), e.raw_os_error()) {
        (std::io::ErrorKind::Other, Some(code)) => {
            std::io::Error::from_raw_os_error(code).to_string()
        }
        // This module's own words (`.ontoly/artifacts is not a directory`), workspace-relative.
        (std::io::ErrorKind::Other, None) if e.get_ref().is_some() => e.to_string(),
        (kind, _) => kind.to_string(),
    }
}

/// Writes `.ontoly/.gitignore` when it is missing, as every store does; a directory that
/// cannot be written is left as it is (the answer does not depend on it).
pub fn keep_ignored(root: &Path) {
    if let Ok(dir) = usable_cache_dir(root) {
        if std::fs::symlink_metadata(dir.join(".gitignore")).is_err() {
            let _ = write_atomic(&dir, ".gitignore", b"*\n");
        }
    }
}

fn store_in(
    dir: &Path,
    key: &str,
    graph: &Graph,
    parses: Parsed,
    manifest: &Manifest,
) -> (std::io::Result<()>, Option<Parsed>) {
    let dir = dir.to_path_buf();
    let prepared = std::fs::create_dir_all(&dir).and_then(|()| {
        let ignore = dir.join(".gitignore");
        if std::fs::symlink_metadata(&ignore).is_err() {
            write_atomic(&dir, ".gitignore", b"*\n")?;
        }
        Ok(())
    });
    if let Err(e) = prepared {
        return (Err(e), Some(parses));
    }
    // Parse cache first: a kill between the two writes leaves a graph.map that does not match
    // the new inputs (so it is not used) and a parse cache that does. The parse cache is
    // written while the graph is being laid out.
    let (g, (p, back)) = rayon::join(
        || -> std::io::Result<Writer<'_>> {
            let mut w = store::write(graph, key).map_err(std::io::Error::other)?;
            w.section(
                "manifest",
                &postcard::to_stdvec(manifest).map_err(std::io::Error::other)?,
            );
            Ok(w)
        },
        || {
            // Taken by the writer and dropped as soon as serialized: syncing 49 MB at 100k
            // takes a few tenths of a second, and the search index build starts meanwhile.
            let mut held = Some(parses);
            let written = write_framed(&dir, PARSE_FILE, |w| {
                postcard::to_io(crate::formats::parsed::PARSED_VERSION, &mut *w)?;
                let serialized = match &held {
                    Some(parses) => postcard::to_io(parses, w).map(drop),
                    None => Ok(()),
                };
                held = None;
                serialized
            });
            (written, held)
        },
    );
    let stored = p
        .and(g)
        .and_then(|w| write_atomic_with(&dir, GRAPH_FILE, |f| w.write_streamed(f)));
    (stored, back)
}

fn artifact_name_ok(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
}

/// Stores a named blob for the graph with hash `graph_hash` (atomically), as a container with
/// one section `data`. Names are `[A-Za-z0-9._-]`, at most 64 bytes, not starting with a dot.
pub fn write_artifact(
    root: &Path,
    graph_hash: &str,
    name: &str,
    bytes: &[u8],
) -> std::io::Result<()> {
    write_artifact_sections(root, graph_hash, name, &[("data", bytes)])
}

/// A writer of an artifact of the graph with hash `graph_hash`: what it finishes is the
/// artifact file's bytes, which [`artifact_from_bytes`] reads in memory and
/// [`write_artifact_container`] stores as they are.
pub fn artifact_writer(graph_hash: &str) -> Writer<'static> {
    Writer::new(ARTIFACT_KIND, graph_hash).with_block(4096)
}

/// An artifact of the graph with hash `graph_hash` from its file's bytes, in memory.
pub fn artifact_from_bytes(bytes: Vec<u8>, graph_hash: &str) -> Result<Container, OpenError> {
    Container::from_bytes(bytes, ARTIFACT_KIND, graph_hash)
}

/// Stores named sections for the graph with hash `graph_hash` (atomically) as the container
/// `name`, so a reader can map them and read each in place (see [`open_artifact`]).
pub fn write_artifact_sections(
    root: &Path,
    graph_hash: &str,
    name: &str,
    sections: &[(&str, &[u8])],
) -> std::io::Result<()> {
    let mut w = artifact_writer(graph_hash);
    for (section, bytes) in sections {
        w.section(section, bytes);
    }
    write_artifact_file(root, name, &w.finish()?)
}

/// Stores an artifact container of the graph with hash `graph_hash` (from [`artifact_writer`]
/// or [`open_artifact`]) as `name`, atomically, byte for byte: no copy of its sections.
pub fn write_artifact_container(
    root: &Path,
    graph_hash: &str,
    name: &str,
    container: &Container,
) -> std::io::Result<()> {
    if !container.is(ARTIFACT_KIND, graph_hash) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not an artifact of this graph",
        ));
    }
    write_artifact_file(root, name, container.raw())
}

fn write_artifact_file(root: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    if !artifact_name_ok(name) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "invalid artifact name",
        ));
    }
    let dir = artifacts_dir(root).map_err(std::io::Error::other)?;
    write_atomic(&dir, &artifact_file(name), bytes)
}

/// The container stored under `name` for exactly this graph hash, mapped (its blocks are
/// checked as they are read); `None` when absent, stale or not usable.
pub fn open_artifact(root: &Path, graph_hash: &str, name: &str) -> Option<Container> {
    open_artifact_of_any_graph(root, name).filter(|c| c.key_matches(graph_hash))
}

/// The artifact container `name`, whatever graph it was stored for (its header checked, its
/// blocks as they are read): a base for a derived artifact of a new graph, never an answer.
pub fn open_artifact_of_any_graph(root: &Path, name: &str) -> Option<Container> {
    if !artifact_name_ok(name) {
        return None;
    }
    let path = artifacts_dir(root).ok()?.join(artifact_file(name));
    Container::open_unkeyed(&path, ARTIFACT_KIND).ok()
}

/// The blob stored under `name` for exactly this graph hash; `None` when absent, stale or
/// corrupt (every block is checked).
pub fn read_artifact(root: &Path, graph_hash: &str, name: &str) -> Option<Vec<u8>> {
    let c = open_artifact(root, graph_hash, name)?;
    let bytes = c.section("data")?.all()?.to_vec();
    (!c.is_corrupt()).then_some(bytes)
}
