//! A file of named byte sections that a process memory-maps and reads in place, verified lazily.
//!
//! Layout (all integers little-endian):
//!
//! ```text
//! header   [0, header_len)          fixed fields, the table of sections, the root sums;
//!                                    checked whole at open (its size grows by 16 bytes per MiB)
//! data     [header_len, sums_off)    the sections, 8-byte aligned, padded to whole blocks
//! sums     [sums_off, file_len)      one 16-byte xxh3-128 sum per data block, padded to blocks
//! ```
//!
//! Integrity is a two-level tree of xxh3-128 checksums: every data block (1 KiB by default,
//! [`Writer::with_block`]) has a 16-byte leaf sum; every 4 KiB page of leaf sums (256 of them)
//! has a root sum in the header; the header has its own sum. `open` checks the header only (magic, format, kind,
//! file length, header sum, key), so its cost does not grow with the file. A data block is
//! checked the first time any byte of it is read (its sums block first, then the block), and
//! remembered in a bitmap: every byte a reader gets has been checked, and a reader that touches
//! 100 nodes checks a few hundred KiB, not the file. A mismatch marks the container corrupt
//! ([`Container::is_corrupt`]): the read returns `None`, and the caller discards what it
//! computed and rebuilds.
//!
//! Files are written to a temporary name, fsynced and renamed, so a mapped file is never
//! changed in place by ontoly (a rebuild replaces the directory entry, not the inode).
//!
//! The sums are checksums, not digests: they catch truncation, flipped bytes and torn or stray
//! writes, which is what a local cache meets; what the file is of (its key) stays a blake3
//! digest of the inputs. blake3 runs one 1 KiB block at a time at ~0.8 GB/s (each block is its
//! own root, so its SIMD path cannot batch them), xxh3 at ~9 GB/s: ~0.2 s of CPU per build at
//! 100k sections (docs/scale.md §32).

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// First bytes of every container file.
pub const MAGIC: [u8; 8] = *b"ONTOLYMS";
/// Layout version of the container and of the graph's sections in it; bump when either byte
/// layout changes (2: graph rows and offsets 4 bytes wide where they fit, see
/// [`crate::graph::store`]; 3: xxh3-128 sums instead of truncated blake3).
pub const FORMAT_VERSION: u32 = 3;
/// Bytes per checked data block, by default (see [`Writer::with_block`]).
pub const BLOCK: usize = 1024;
/// Regions (header, data, sums) are padded to this; a page of sums holds 256 block sums.
const PAGE: usize = 4096;
const SUM: usize = 16;
const SUMS_PER_PAGE: usize = PAGE / SUM;
const FIXED: usize = 128;
const TOC_ENTRY: usize = 32;
const NAME: usize = 16;

/// Why a container file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenError {
    /// No file.
    NotFound,
    /// The file exists but could not be read or mapped.
    Io(String),
    /// Not a container (wrong magic) or a container of another kind.
    Foreign,
    /// Written by another layout version.
    Version(u32),
    /// Shorter or longer than its header says.
    Truncated,
    /// A sum does not match.
    Corrupt(&'static str),
    /// Intact, but built from other inputs.
    Stale,
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::NotFound => f.write_str("no snapshot"),
            OpenError::Io(m) => write!(f, "snapshot could not be read: {m}"),
            OpenError::Foreign => f.write_str("snapshot is not an ontoly snapshot of this kind"),
            OpenError::Version(v) => {
                write!(f, "snapshot layout version {v} is not {FORMAT_VERSION}")
            }
            OpenError::Truncated => f.write_str("snapshot is truncated"),
            OpenError::Corrupt(w) => write!(f, "snapshot checksum mismatch ({w})"),
            OpenError::Stale => f.write_str("snapshot was built from other inputs"),
        }
    }
}

impl std::error::Error for OpenError {}

fn sum(bytes: &[u8]) -> [u8; SUM] {
    xxhash_rust::xxh3::xxh3_128(bytes).to_le_bytes()
}

fn key_sum(key: &str) -> [u8; 32] {
    *blake3::hash(key.as_bytes()).as_bytes()
}

fn round_up(n: usize, to: usize) -> usize {
    n.div_ceil(to) * to
}

/// What writes a section's bytes when the container is written ([`Writer::section_later`]).
type Fill<'a> = Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()> + Send + 'a>;

/// A section whose bytes are written only when the container is.
struct Later<'a> {
    /// Its offset in the data region.
    at: usize,
    len: usize,
    /// Where it goes among the bytes held in `Writer::data`.
    held_at: usize,
    fill: Fill<'a>,
}

/// Builds a container, then writes it atomically: sections are held in memory, or written
/// straight to the file from their owner ([`Writer::section_later`]).
pub struct Writer<'a> {
    kind: [u8; 8],
    block: usize,
    key: String,
    /// The held sections' bytes and the padding before every section, in order (a later
    /// section's bytes are not here).
    data: Vec<u8>,
    /// The data region's length so far.
    len: usize,
    toc: Vec<([u8; NAME], u64, u64)>,
    later: Vec<Later<'a>>,
}

impl std::fmt::Debug for Writer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer")
            .field("sections", &self.toc.len())
            .field("len", &self.len)
            .finish()
    }
}

/// Data blocks hashed as they are written, each then passed on: a container's data written
/// without holding it.
struct Blocks<W: Write> {
    out: W,
    block: Vec<u8>,
    size: usize,
    leaves: Vec<u8>,
    written: usize,
}

impl<W: Write> Write for Blocks<W> {
    fn write(&mut self, mut buf: &[u8]) -> std::io::Result<usize> {
        let n = buf.len();
        while !buf.is_empty() {
            let take = (self.size - self.block.len()).min(buf.len());
            self.block.extend_from_slice(&buf[..take]);
            buf = &buf[take..];
            if self.block.len() == self.size {
                self.leaves.extend_from_slice(&sum(&self.block));
                self.out.write_all(&self.block)?;
                self.block.clear();
            }
        }
        self.written += n;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// The zero bytes that pad data to a section's start or a region's end.
fn zeros(out: &mut impl Write, n: usize) -> std::io::Result<()> {
    const Z: [u8; 4096] = [0; 4096];
    let mut left = n;
    while left > 0 {
        let k = left.min(Z.len());
        out.write_all(&Z[..k])?;
        left -= k;
    }
    Ok(())
}

impl<'a> Writer<'a> {
    /// A container of `kind` (8 bytes, e.g. `b"graph\0\0\0"`) for the inputs identified by `key`.
    pub fn new(kind: [u8; 8], key: &str) -> Writer<'a> {
        Writer {
            kind,
            block: BLOCK,
            key: key.to_string(),
            data: Vec::new(),
            len: 0,
            toc: Vec::new(),
            later: Vec::new(),
        }
    }

    /// Checks data in blocks of `block` bytes (a power of two from 512 to 65536; smaller
    /// blocks mean less hashing per scattered read and a larger sums region).
    pub fn with_block(mut self, block: usize) -> Writer<'a> {
        if block.is_power_of_two() && (512..=65536).contains(&block) {
            self.block = block;
        }
        self
    }

    /// Appends a section. Names are at most 16 bytes and unique (a later duplicate is ignored by
    /// readers, which take the first).
    pub fn section(&mut self, name: &str, bytes: &[u8]) {
        self.section_with(name, |buf| buf.extend_from_slice(bytes));
    }

    /// The next section's name and start, with the padding before it held.
    fn start(&mut self, name: &str) -> ([u8; NAME], usize) {
        let mut n = [0u8; NAME];
        let b = name.as_bytes();
        n[..b.len().min(NAME)].copy_from_slice(&b[..b.len().min(NAME)]);
        let start = round_up(self.len, 8);
        self.data.resize(self.data.len() + (start - self.len), 0);
        (n, start)
    }

    /// Appends a section whose bytes `fill` writes at the end of the buffer it is given (no
    /// intermediate copy of large sections).
    pub fn section_with(&mut self, name: &str, fill: impl FnOnce(&mut Vec<u8>)) {
        let (n, start) = self.start(name);
        let held = self.data.len();
        fill(&mut self.data);
        let len = self.data.len() - held;
        self.toc.push((n, start as u64, len as u64));
        self.len = start + len;
    }

    /// Appends a section of exactly `len` bytes that `fill` writes only when the container is
    /// written: bytes that live elsewhere (a graph's texts) go to the file from there, never
    /// copied into the writer. Writing fails if `fill` writes another length or fails.
    pub fn section_later(
        &mut self,
        name: &str,
        len: usize,
        fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()> + Send + 'a,
    ) {
        let (n, start) = self.start(name);
        self.later.push(Later {
            at: start,
            len,
            held_at: self.data.len(),
            fill: Box::new(fill),
        });
        self.toc.push((n, start as u64, len as u64));
        self.len = start + len;
    }

    /// Reserves room for `bytes` more bytes of held sections (a writer that knows its size
    /// spares the buffer's doublings and their copies).
    pub fn reserve(&mut self, bytes: usize) {
        self.data.reserve(bytes);
    }

    /// Writes the data region (the sections and the padding between them, not the padding
    /// at its end) to `out`, the later sections' bytes from their owners.
    fn write_data(data: &[u8], later: Vec<Later<'a>>, out: &mut impl Write) -> std::io::Result<()> {
        let mut held = 0;
        let mut pos = 0;
        for l in later {
            out.write_all(&data[held..l.held_at])?;
            pos += l.held_at - held;
            debug_assert_eq!(pos, l.at);
            let mut counted = Counted {
                out: &mut *out,
                n: 0,
            };
            (l.fill)(&mut counted)?;
            if counted.n != l.len {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("a section of {} bytes wrote {}", l.len, counted.n),
                ));
            }
            pos += l.len;
            held = l.held_at;
        }
        out.write_all(&data[held..])
    }

    /// The whole file. Fails only when a later section's fill fails or writes another length
    /// than it announced.
    pub fn finish(self) -> std::io::Result<Vec<u8>> {
        let [head, mut data, sums] = self.into_parts()?;
        // The file is made in the data's own buffer: growing a large allocation remaps it
        // rather than copying, and the header moves the data up once, where a second buffer of
        // the whole file's size held beside the data raised the peak by as much.
        data.reserve_exact(head.len() + sums.len());
        data.extend_from_slice(&sums);
        data.splice(0..0, head);
        Ok(data)
    }

    /// The data region's padded length, the sums region's, and the number of root sums.
    fn regions(&self) -> (usize, usize, usize) {
        let data_len = round_up(self.len.max(1), self.block.max(PAGE));
        let sums_len = round_up(data_len / self.block * SUM, PAGE);
        (data_len, sums_len, sums_len / PAGE)
    }

    /// The header's length with `nroots` root sums: the data region starts there.
    fn header_len(&self, nroots: usize) -> usize {
        round_up(FIXED + TOC_ENTRY * self.toc.len() + SUM * nroots, PAGE)
    }

    /// The header: fixed fields, the table of sections and the root sums.
    fn header(&self, roots: &[[u8; SUM]], data_len: usize, sums_len: usize) -> Vec<u8> {
        let header_len = self.header_len(roots.len());
        let sums_off = header_len + data_len;
        let file_len = sums_off + sums_len;
        let mut out = Vec::with_capacity(header_len);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(self.block as u32).to_le_bytes());
        out.extend_from_slice(&(file_len as u64).to_le_bytes());
        out.extend_from_slice(&(header_len as u64).to_le_bytes());
        out.extend_from_slice(&(sums_off as u64).to_le_bytes());
        out.extend_from_slice(&(self.toc.len() as u32).to_le_bytes());
        out.extend_from_slice(&(roots.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.kind);
        out.extend_from_slice(&key_sum(&self.key));
        // 88: the header sum, filled in below.
        out.resize(FIXED, 0);
        for (name, off, len) in &self.toc {
            out.extend_from_slice(name);
            out.extend_from_slice(&off.to_le_bytes());
            out.extend_from_slice(&len.to_le_bytes());
        }
        for r in roots {
            out.extend_from_slice(r);
        }
        out.resize(header_len, 0);
        let hs = sum(&out);
        out[88..88 + SUM].copy_from_slice(&hs);
        out
    }

    /// The file as its three regions (header, data, sums), to be written one after another:
    /// no copy of the data into one buffer (the later sections are written into it). Fails as
    /// [`Writer::finish`] does.
    fn into_parts(mut self) -> std::io::Result<[Vec<u8>; 3]> {
        use rayon::prelude::*;
        let (data_len, sums_len, _) = self.regions();
        let mut data = std::mem::take(&mut self.data);
        let later = std::mem::take(&mut self.later);
        if !later.is_empty() {
            let mut all = Vec::with_capacity(data_len);
            Self::write_data(&data, later, &mut all)?;
            data = all;
        }
        data.resize(data_len, 0);
        let mut leaves: Vec<u8> = data.par_chunks(self.block).flat_map_iter(sum).collect();
        leaves.resize(sums_len, 0);
        let roots: Vec<[u8; SUM]> = leaves.chunks(PAGE).map(sum).collect();
        let head = self.header(&roots, data_len, sums_len);
        Ok([head, data, leaves])
    }

    /// Writes the container to `file` (a new, empty file) without holding its data: the data
    /// region first, each block hashed as it passes, then the sums, then the header at the
    /// start. The same bytes as [`Writer::finish`].
    pub fn write_streamed(mut self, file: &mut std::fs::File) -> std::io::Result<()> {
        use std::io::{Seek, SeekFrom};
        let (data_len, sums_len, nroots) = self.regions();
        let header_len = self.header_len(nroots);
        file.seek(SeekFrom::Start(header_len as u64))?;
        let mut blocks = Blocks {
            out: std::io::BufWriter::with_capacity(1 << 16, &mut *file),
            block: Vec::with_capacity(self.block),
            size: self.block,
            leaves: Vec::with_capacity(sums_len),
            written: 0,
        };
        let data = std::mem::take(&mut self.data);
        let later = std::mem::take(&mut self.later);
        Self::write_data(&data, later, &mut blocks)?;
        drop(data);
        let pad = data_len - blocks.written;
        zeros(&mut blocks, pad)?;
        debug_assert!(blocks.block.is_empty());
        let mut leaves = std::mem::take(&mut blocks.leaves);
        leaves.resize(sums_len, 0);
        blocks.out.write_all(&leaves)?;
        blocks.out.flush()?;
        drop(blocks);
        let roots: Vec<[u8; SUM]> = leaves.chunks(PAGE).map(sum).collect();
        let head = self.header(&roots, data_len, sums_len);
        debug_assert_eq!(head.len(), header_len);
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&head)
    }

    /// Writes the container to `path` atomically (temporary file, fsync, rename).
    pub fn write_to(self, path: &Path) -> std::io::Result<()> {
        let dir = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = dir.join(temp_name(&name));
        {
            // Never through what is there already (a leftover, or a link to another file).
            let _ = std::fs::remove_file(&tmp);
            let mut f = std::fs::File::create_new(&tmp)?;
            self.write_streamed(&mut f)?;
            f.sync_all()?;
        }
        if let Err(e) = std::fs::rename(&tmp, path) {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

/// The temporary name one write of the file `name` stages its bytes under, beside it:
/// `.NAME.tmp-PID-N`. `N` counts this process's writes, so writers of one file in one process
/// (an MCP server's calls, each storing the artifact it computed) never share a temporary file:
/// with a name per process, one writer removed and recreated the file another was filling, and
/// that writer's rename published it half-written. The pid tells whose it is, so the leftovers
/// of killed processes can be swept.
pub(crate) fn temp_name(name: &str) -> String {
    static WRITES: AtomicU64 = AtomicU64::new(0);
    format!(
        ".{name}.tmp-{}-{}",
        std::process::id(),
        WRITES.fetch_add(1, Ordering::Relaxed)
    )
}

/// A writer that counts what passes through it (a later section's length is checked).
struct Counted<'w, W: Write> {
    out: &'w mut W,
    n: usize,
}

impl<W: Write> Write for Counted<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let k = self.out.write(buf)?;
        self.n += k;
        Ok(k)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

static CORRUPTION_SEEN: AtomicBool = AtomicBool::new(false);

/// True once any container of this process found a block that fails its sum. A command-line
/// process asks after answering: an answer computed while a read came back empty must be
/// discarded and computed again from a checked (or rebuilt) snapshot.
pub fn corruption_seen() -> bool {
    CORRUPTION_SEEN.load(Ordering::Relaxed)
}

/// Opens a file for reading only when it is a regular file: never through a symbolic link,
/// and without blocking on a FIFO (the type is checked on the open handle, so nothing can be
/// swapped in between). `Ok(None)`: no such file; `Err`: something else is there.
pub fn open_regular(path: &Path) -> Result<Option<(std::fs::File, u64)>, String> {
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let f = match opts.open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(_) => return Err("not a regular file, or it cannot be opened".into()),
    };
    let meta = f
        .metadata()
        .map_err(|_| "cannot read its status".to_string())?;
    if !meta.file_type().is_file() {
        return Err("not a regular file".into());
    }
    Ok(Some((f, meta.len())))
}

enum Backing {
    Map(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl Backing {
    fn bytes(&self) -> &[u8] {
        match self {
            Backing::Map(m) => m,
            Backing::Owned(v) => v,
        }
    }
}

/// An opened container: header checked, data checked block by block on first read.
pub struct Container {
    backing: Backing,
    key: [u8; 32],
    block: usize,
    header_len: usize,
    sums_off: usize,
    toc: Vec<([u8; NAME], usize, usize)>,
    roots: Vec<[u8; SUM]>,
    data_ok: Vec<AtomicU64>,
    sums_ok: Vec<AtomicU64>,
    corrupt: AtomicBool,
    blocks_checked: AtomicU64,
}

fn le_u32(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

fn le_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

impl Container {
    /// Maps `path` and checks its header: magic, layout version, `kind`, length, header sum and
    /// that it was written for `key`.
    pub fn open(path: &Path, kind: [u8; 8], key: &str) -> Result<Container, OpenError> {
        let c = Container::open_unkeyed(path, kind)?;
        if !c.key_matches(key) {
            return Err(OpenError::Stale);
        }
        Ok(c)
    }

    /// Maps `path` and checks its header (magic, layout version, `kind`, length, header sum) but
    /// not its key: for a caller that reads a section (e.g. a manifest of the inputs) to find
    /// the key it must have, then asks [`Container::key_matches`]. The file is opened only
    /// when it is a regular file (see [`open_regular`]), and its size is checked against its
    /// header before it is mapped.
    pub fn open_unkeyed(path: &Path, kind: [u8; 8]) -> Result<Container, OpenError> {
        let (mut f, size) = match open_regular(path) {
            Ok(Some(f)) => f,
            Ok(None) => return Err(OpenError::NotFound),
            Err(m) => return Err(OpenError::Io(m)),
        };
        let mut head = [0u8; FIXED];
        let got = {
            use std::io::Read;
            let mut n = 0;
            while n < FIXED {
                match f.read(&mut head[n..]) {
                    Ok(0) => break,
                    Ok(k) => n += k,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => return Err(OpenError::Io("cannot read".into())),
                }
            }
            n
        };
        if got < FIXED || head[..8] != MAGIC {
            return Err(if got < FIXED && MAGIC.starts_with(&head[..got.min(8)]) {
                OpenError::Truncated
            } else {
                OpenError::Foreign
            });
        }
        let version = le_u32(&head, 8);
        if version != FORMAT_VERSION {
            return Err(OpenError::Version(version));
        }
        if le_u64(&head, 16) != size {
            return Err(OpenError::Truncated);
        }
        // Safety: the mapping is read-only and ontoly never writes a snapshot in place (it
        // writes a new file and renames it over the old one). Another program truncating or
        // rewriting the file while it is mapped could still change what we read or fault; that
        // is the accepted contract of memory-mapped caches, and every byte read is checked
        // against its block sum before use.
        let map =
            unsafe { memmap2::Mmap::map(&f) }.map_err(|_| OpenError::Io("cannot map".into()))?;
        Container::from_backing(Backing::Map(map), kind, None)
    }

    /// True when the container was written for the inputs identified by `key`.
    pub fn key_matches(&self, key: &str) -> bool {
        self.key == key_sum(key)
    }

    /// A container over bytes in memory (tests, and platforms without mapping).
    pub fn from_bytes(bytes: Vec<u8>, kind: [u8; 8], key: &str) -> Result<Container, OpenError> {
        Container::from_backing(Backing::Owned(bytes), kind, Some(key))
    }

    fn from_backing(
        backing: Backing,
        kind: [u8; 8],
        key: Option<&str>,
    ) -> Result<Container, OpenError> {
        let b = backing.bytes();
        if b.len() < FIXED || b[..8] != MAGIC {
            return Err(
                if b.len() < FIXED && MAGIC.starts_with(&b[..b.len().min(8)]) {
                    OpenError::Truncated
                } else {
                    OpenError::Foreign
                },
            );
        }
        let version = le_u32(b, 8);
        if version != FORMAT_VERSION {
            return Err(OpenError::Version(version));
        }
        let file_len = le_u64(b, 16);
        if file_len != b.len() as u64 {
            return Err(OpenError::Truncated);
        }
        let block = le_u32(b, 12) as usize;
        let header_len = le_u64(b, 24) as usize;
        let sums_off = le_u64(b, 32) as usize;
        let sections = le_u32(b, 40) as usize;
        let nroots = le_u32(b, 44) as usize;
        let need = FIXED
            .checked_add(
                sections
                    .checked_mul(TOC_ENTRY)
                    .ok_or(OpenError::Corrupt("header"))?,
            )
            .and_then(|n| n.checked_add(nroots.checked_mul(SUM)?))
            .ok_or(OpenError::Corrupt("header"))?;
        if !block.is_power_of_two()
            || !(512..=65536).contains(&block)
            || header_len < need
            || header_len > b.len()
            || !header_len.is_multiple_of(PAGE)
            || sums_off < header_len
            || sums_off > b.len()
            || !(sums_off - header_len).is_multiple_of(block.max(PAGE))
            || !(b.len() - sums_off).is_multiple_of(PAGE)
        {
            return Err(OpenError::Corrupt("header"));
        }
        // The header's sum over the header with its own field zeroed, as written.
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        h.update(&b[..88]);
        h.update(&[0u8; SUM]);
        h.update(&b[88 + SUM..header_len]);
        if h.digest128().to_le_bytes()[..] != b[88..88 + SUM] {
            return Err(OpenError::Corrupt("header"));
        }
        if b[48..56] != kind {
            return Err(OpenError::Foreign);
        }
        if key.is_some_and(|k| b[56..88] != key_sum(k)) {
            return Err(OpenError::Stale);
        }
        let mut stored_key = [0u8; 32];
        stored_key.copy_from_slice(&b[56..88]);
        let data_blocks = (sums_off - header_len) / block;
        let sum_blocks = (b.len() - sums_off) / PAGE;
        if sum_blocks != nroots || data_blocks > sum_blocks * SUMS_PER_PAGE {
            return Err(OpenError::Corrupt("header"));
        }
        let data_len = sums_off - header_len;
        let mut toc = Vec::with_capacity(sections);
        for i in 0..sections {
            let at = FIXED + i * TOC_ENTRY;
            let mut name = [0u8; NAME];
            name.copy_from_slice(&b[at..at + NAME]);
            let off = le_u64(b, at + NAME) as usize;
            let len = le_u64(b, at + NAME + 8) as usize;
            if off.checked_add(len).is_none_or(|end| end > data_len) {
                return Err(OpenError::Corrupt("section table"));
            }
            toc.push((name, header_len + off, len));
        }
        let roots_at = FIXED + sections * TOC_ENTRY;
        let roots = (0..nroots)
            .map(|i| {
                let mut r = [0u8; SUM];
                r.copy_from_slice(&b[roots_at + i * SUM..roots_at + (i + 1) * SUM]);
                r
            })
            .collect();
        let bits = |n: usize| (0..n.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
        Ok(Container {
            key: stored_key,
            block,
            header_len,
            sums_off,
            toc,
            roots,
            data_ok: bits(data_blocks),
            sums_ok: bits(sum_blocks),
            corrupt: AtomicBool::new(false),
            blocks_checked: AtomicU64::new(0),
            backing,
        })
    }

    /// True when this is a container of `kind` for the inputs identified by `key` (as
    /// [`Container::open`] checks them).
    pub fn is(&self, kind: [u8; 8], key: &str) -> bool {
        self.backing.bytes().get(48..56) == Some(&kind[..]) && self.key_matches(key)
    }

    /// The file's bytes (unchecked; for tests, size reports and storing a container built in
    /// memory as it is).
    pub fn raw(&self) -> &[u8] {
        self.backing.bytes()
    }

    /// True once any read found a block whose sum does not match: whatever was computed from
    /// this container must be discarded.
    pub fn is_corrupt(&self) -> bool {
        self.corrupt.load(Ordering::Relaxed)
    }

    /// Data blocks checked so far (for benchmarks: what a query touched).
    pub fn blocks_checked(&self) -> u64 {
        self.blocks_checked.load(Ordering::Relaxed)
    }

    /// Bytes per checked data block.
    pub fn block_size(&self) -> usize {
        self.block
    }

    /// Where the section called `name` lies in the file: its first byte and its length (for
    /// tests that alter one section).
    pub fn span_of(&self, name: &str) -> Option<(usize, usize)> {
        self.handle(name).map(|h| (h.start, h.len))
    }

    /// The section called `name`.
    pub fn section(&self, name: &str) -> Option<Section<'_>> {
        self.handle(name).map(|h| self.get(h))
    }

    /// A handle to the section called `name`, to keep without borrowing the container.
    pub fn handle(&self, name: &str) -> Option<Handle> {
        let nb = name.as_bytes();
        self.toc
            .iter()
            .find(|(n, _, _)| {
                let end = n.iter().position(|&c| c == 0).unwrap_or(NAME);
                &n[..end] == nb
            })
            .map(|&(_, start, len)| Handle { start, len })
    }

    /// The section behind a handle of this container.
    pub fn get(&self, h: Handle) -> Section<'_> {
        Section {
            c: self,
            start: h.start,
            len: h.len,
        }
    }

    /// Section names and lengths, in file order.
    pub fn sections(&self) -> Vec<(String, usize)> {
        self.toc
            .iter()
            .map(|(n, _, len)| {
                let end = n.iter().position(|&c| c == 0).unwrap_or(NAME);
                (String::from_utf8_lossy(&n[..end]).into_owned(), *len)
            })
            .collect()
    }

    /// Checks every block now (what `ontoly validate` or a test does); false when corrupt.
    pub fn verify_all(&self) -> bool {
        let blocks = (self.sums_off - self.header_len) / self.block;
        (0..blocks).all(|i| self.check_block(i)) && !self.is_corrupt()
    }

    fn bit(bits: &[AtomicU64], i: usize) -> bool {
        bits[i / 64].load(Ordering::Acquire) & (1 << (i % 64)) != 0
    }

    fn set(bits: &[AtomicU64], i: usize) {
        bits[i / 64].fetch_or(1 << (i % 64), Ordering::AcqRel);
    }

    fn fail(&self) -> bool {
        self.corrupt.store(true, Ordering::Relaxed);
        CORRUPTION_SEEN.store(true, Ordering::Relaxed);
        false
    }

    fn check_block(&self, i: usize) -> bool {
        if Self::bit(&self.data_ok, i) {
            return true;
        }
        let b = self.backing.bytes();
        let page = i / SUMS_PER_PAGE;
        if !Self::bit(&self.sums_ok, page) {
            let at = self.sums_off + page * PAGE;
            if sum(&b[at..at + PAGE]) != self.roots[page] {
                return self.fail();
            }
            Self::set(&self.sums_ok, page);
        }
        let at = self.header_len + i * self.block;
        let s = self.sums_off + i * SUM;
        if sum(&b[at..at + self.block])[..] != b[s..s + SUM] {
            return self.fail();
        }
        self.blocks_checked.fetch_add(1, Ordering::Relaxed);
        Self::set(&self.data_ok, i);
        true
    }

    /// `len` checked bytes at absolute offset `at`.
    fn checked(&self, at: usize, len: usize) -> Option<&[u8]> {
        if len == 0 {
            return Some(&[]);
        }
        let first = (at - self.header_len) / self.block;
        let last = (at + len - 1 - self.header_len) / self.block;
        for i in first..=last {
            if !self.check_block(i) {
                return None;
            }
        }
        self.backing.bytes().get(at..at + len)
    }
}

/// Where a section lies in its container (see [`Container::handle`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Handle {
    start: usize,
    len: usize,
}

/// One named section of a [`Container`]; every read is bounds-checked and block-checked.
#[derive(Clone, Copy)]
pub struct Section<'a> {
    c: &'a Container,
    start: usize,
    len: usize,
}

impl<'a> Section<'a> {
    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `len` bytes at `off`, or `None` when out of bounds or corrupt.
    pub fn bytes(&self, off: usize, len: usize) -> Option<&'a [u8]> {
        let end = off.checked_add(len)?;
        if end > self.len {
            return None;
        }
        self.c.checked(self.start + off, len)
    }

    /// The `i`-th little-endian `u32`.
    pub fn u32(&self, i: usize) -> Option<u32> {
        let b = self.bytes(i.checked_mul(4)?, 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// The `i`-th little-endian `u64`.
    pub fn u64(&self, i: usize) -> Option<u64> {
        let b = self.bytes(i.checked_mul(8)?, 8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Some(u64::from_le_bytes(a))
    }

    /// The whole section (checks every block of it).
    pub fn all(&self) -> Option<&'a [u8]> {
        self.bytes(0, self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIND: [u8; 8] = *b"test\0\0\0\0";

    fn sample() -> Vec<u8> {
        sample_with(BLOCK)
    }

    fn sample_with(block: usize) -> Vec<u8> {
        let mut w = Writer::new(KIND, "key-1").with_block(block);
        w.section("small", b"hello");
        let big: Vec<u8> = (0..5_000u32).flat_map(|i| i.to_le_bytes()).collect();
        w.section("big", &big);
        w.section("empty", b"");
        w.finish().expect("held sections only")
    }

    fn read_everything(c: &Container) -> bool {
        let all = ["small", "big", "empty"]
            .iter()
            .all(|n| c.section(n).and_then(|s| s.all()).is_some());
        all && c.verify_all()
    }

    /// Held and later sections mixed: a later one first, two in a row, an empty one, one
    /// spanning blocks, one last.
    fn mixed<'a>(block: usize, big: &'a [u8]) -> Writer<'a> {
        let mut w = Writer::new(KIND, "key-1").with_block(block);
        w.section_later("first", 3, |o| o.write_all(b"abc"));
        w.section("small", b"hello");
        w.section_later("big", big.len(), move |o| {
            big.chunks(1000).try_for_each(|c| o.write_all(c))
        });
        w.section_later("empty", 0, |_| Ok(()));
        w.section_with("held", |b| b.extend_from_slice(&[7u8; 2049]));
        w.section_later("last", 5, |o| o.write_all(b"tail!"));
        w
    }

    fn streamed(w: Writer<'_>) -> std::io::Result<Vec<u8>> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("c.map");
        let mut f = std::fs::File::create_new(&path)?;
        w.write_streamed(&mut f)?;
        drop(f);
        std::fs::read(&path)
    }

    #[test]
    fn later_sections_stream_to_the_bytes_held_ones_make() {
        let big: Vec<u8> = (0..70_000u32).flat_map(|i| i.to_le_bytes()).collect();
        for block in [512, BLOCK, 4096, 65536] {
            let held = {
                let mut w = Writer::new(KIND, "key-1").with_block(block);
                w.section("first", b"abc");
                w.section("small", b"hello");
                w.section("big", &big);
                w.section("empty", b"");
                w.section("held", &[7u8; 2049]);
                w.section("last", b"tail!");
                w.finish().expect("held")
            };
            assert_eq!(mixed(block, &big).finish().expect("in memory"), held);
            assert_eq!(streamed(mixed(block, &big)).expect("streamed"), held);
            let c = Container::from_bytes(held, KIND, "key-1").expect("opens");
            assert_eq!(c.section("last").and_then(|s| s.all()), Some(&b"tail!"[..]));
            assert_eq!(c.section("big").and_then(|s| s.u32(69_999)), Some(69_999));
            assert!(c.verify_all());
        }
        // Nothing but a later section, and nothing at all.
        let mut w = Writer::new(KIND, "k");
        w.section_later("only", 4, |o| o.write_all(b"only"));
        let mut held = Writer::new(KIND, "k");
        held.section("only", b"only");
        let held = held.finish().expect("held");
        assert_eq!(streamed(w).expect("streamed"), held);
        let empty = Writer::new(KIND, "k").finish().expect("empty");
        assert_eq!(streamed(Writer::new(KIND, "k")).expect("streamed"), empty);
    }

    #[test]
    fn a_later_section_of_another_length_or_failing_is_an_error() {
        let short = || {
            let mut w = Writer::new(KIND, "k");
            w.section("a", b"a");
            w.section_later("b", 4, |o| o.write_all(b"abc"));
            w
        };
        let long = || {
            let mut w = Writer::new(KIND, "k");
            w.section_later("b", 2, |o| o.write_all(b"abc"));
            w
        };
        let failing = || {
            let mut w = Writer::new(KIND, "k");
            w.section_later("b", 3, |_| Err(std::io::Error::other("the owner failed")));
            w
        };
        for w in [short(), long(), failing()] {
            assert!(w.finish().is_err());
        }
        for w in [short(), long(), failing()] {
            assert!(streamed(w).is_err());
        }
    }

    #[test]
    fn round_trip_and_lazy_checks() {
        let c = Container::from_bytes(sample(), KIND, "key-1").unwrap();
        assert_eq!(c.blocks_checked(), 0, "open checks no data block");
        assert_eq!(c.section("small").unwrap().all().unwrap(), b"hello");
        assert_eq!(c.blocks_checked(), 1);
        let big = c.section("big").unwrap();
        assert_eq!(big.u32(4_999), Some(4_999));
        assert_eq!(big.u32(5_000), None, "past the end");
        assert!(c.blocks_checked() <= 3);
        assert!(c.section("missing").is_none());
        assert!(read_everything(&c));
    }

    #[test]
    fn small_blocks_check_less_per_read() {
        let c = Container::from_bytes(sample_with(512), KIND, "key-1").unwrap();
        assert_eq!(c.block_size(), 512);
        assert_eq!(c.section("big").unwrap().u32(4_000), Some(4_000));
        assert_eq!(c.blocks_checked(), 1);
        assert!(read_everything(&c));
        for at in (0..c.raw().len()).step_by(7) {
            let mut v = c.raw().to_vec();
            v[at] ^= 0x10;
            if let Ok(bad) = Container::from_bytes(v, KIND, "key-1") {
                assert!(!read_everything(&bad), "flip at {at}");
            }
        }
    }

    #[test]
    fn rejects_foreign_stale_and_other_versions() {
        let bytes = sample();
        assert!(matches!(
            Container::from_bytes(bytes.clone(), KIND, "key-2"),
            Err(OpenError::Stale)
        ));
        assert!(matches!(
            Container::from_bytes(bytes.clone(), *b"other\0\0\0", "key-1"),
            Err(OpenError::Foreign)
        ));
        let mut v = bytes.clone();
        v[8] = 1; // the layout before graph rows and offsets narrowed
        assert!(matches!(
            Container::from_bytes(v, KIND, "key-1"),
            Err(OpenError::Version(1))
        ));
        let mut v = bytes.clone();
        v[8] = (FORMAT_VERSION + 1) as u8;
        assert!(matches!(
            Container::from_bytes(v, KIND, "key-1"),
            Err(OpenError::Version(v)) if v == FORMAT_VERSION + 1
        ));
        assert!(matches!(
            Container::from_bytes(b"not a snapshot at all".repeat(10), KIND, "key-1"),
            Err(OpenError::Foreign)
        ));
    }

    #[test]
    fn truncation_at_every_byte_is_rejected_at_open() {
        let bytes = sample();
        for cut in 0..bytes.len() {
            let r = Container::from_bytes(bytes[..cut].to_vec(), KIND, "key-1");
            assert!(r.is_err(), "cut at {cut} was accepted");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Container::from_bytes(longer, KIND, "key-1").is_err());
    }

    #[test]
    fn a_flipped_byte_anywhere_is_found_before_it_is_used() {
        let bytes = sample();
        for at in 0..bytes.len() {
            let mut v = bytes.clone();
            v[at] ^= 0x40;
            match Container::from_bytes(v, KIND, "key-1") {
                Err(_) => {}
                Ok(c) => {
                    assert!(!read_everything(&c), "flip at {at} went unnoticed");
                    assert!(c.is_corrupt());
                }
            }
        }
    }
}
