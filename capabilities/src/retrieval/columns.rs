//! How the index's columns are encoded: numbers as little-endian byte blocks or varints, terms
//! in memory as one string with end offsets (not one allocation per term), and the postings as
//! a compressed stream in runs that a query reads in place, a term's range at a time. The
//! stored term table and per-document records are in `stored.rs`.

use ontoly_graph::graph::store::container::{Container, Handle};
use serde::de::{Error, Visitor};
use serde::{Deserializer, Serializer};
use std::borrow::Cow;
use std::sync::Arc;

/// A number with a fixed little-endian width.
pub trait Le: Copy {
    /// Bytes per value.
    const WIDTH: usize;
    /// Appends the value's bytes.
    fn put(self, out: &mut Vec<u8>);
    /// The value of exactly [`Le::WIDTH`] bytes.
    fn get(b: &[u8]) -> Self;
}

macro_rules! le {
    ($($t:ty),*) => {$(
        impl Le for $t {
            const WIDTH: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(b: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(b);
                <$t>::from_le_bytes(a)
            }
        }
    )*};
}
le!(u8, u16, u32, u64, f64);

/// `#[serde(with = "columns::le_vec")]`: a `Vec` of numbers as one byte block.
pub mod le_vec {
    use super::*;

    /// Serializes `v` as its little-endian bytes.
    pub fn serialize<T: Le, S: Serializer>(v: &[T], s: S) -> Result<S::Ok, S::Error> {
        let mut out = Vec::with_capacity(v.len() * T::WIDTH);
        for &x in v {
            x.put(&mut out);
        }
        s.serialize_bytes(&out)
    }

    /// Decodes a byte block written by [`serialize`].
    pub fn deserialize<'de, T: Le, D: Deserializer<'de>>(d: D) -> Result<Vec<T>, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<T: Le> Visitor<'_> for V<T> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "a block of {}-byte little-endian numbers", T::WIDTH)
            }
            fn visit_bytes<E: Error>(self, b: &[u8]) -> Result<Vec<T>, E> {
                if !b.len().is_multiple_of(T::WIDTH) {
                    return Err(E::invalid_length(b.len(), &self));
                }
                Ok(b.chunks_exact(T::WIDTH).map(T::get).collect())
            }
        }
        d.deserialize_bytes(V(std::marker::PhantomData))
    }
}

/// Strings held as one string and the end offset of each (the index build's terms: one
/// allocation, not one per term). Stored front-coded in blocks (`stored.rs`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Strings {
    text: String,
    ends: Vec<u32>,
}

impl Strings {
    /// The strings of `items`, in order.
    pub fn new<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> Strings {
        let mut out = Strings::default();
        for s in items {
            out.text.push_str(s.as_ref());
            out.ends.push(out.text.len() as u32);
        }
        out
    }

    /// No strings yet, with room for `strings` of `bytes` bytes in all (one allocation each,
    /// where growing by doubling copies and touches about twice the final size).
    pub(crate) fn with_capacity(strings: usize, bytes: usize) -> Strings {
        Strings {
            text: String::with_capacity(bytes),
            ends: Vec::with_capacity(strings),
        }
    }

    /// Appends one string, the concatenation of `parts`.
    pub(crate) fn push(&mut self, parts: &[&str]) {
        for p in parts {
            self.text.push_str(p);
        }
        self.ends.push(self.text.len() as u32);
    }

    /// True when every string is above the one before it (sorted and distinct).
    pub(crate) fn is_strictly_sorted(&self) -> bool {
        (1..self.len()).all(|i| self.get(i - 1) < self.get(i))
    }

    /// Number of strings.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// String `i` ("" when out of range or when the offsets are not consistent).
    pub fn get(&self, i: usize) -> &str {
        let a = if i == 0 {
            0
        } else {
            self.ends.get(i - 1).copied().unwrap_or(0)
        };
        let b = self.ends.get(i).copied().unwrap_or(0);
        self.text.get(a as usize..b as usize).unwrap_or("")
    }
}

/// The index's postings: (doc, field, term frequency) in three columns, either in memory (a
/// build) or read in place from the mapped index artifact, a range at a time.
///
/// Stored compressed ([`Postings::blocks`]): `post.data` holds the postings in runs of
/// [`RUN`], each posting as its doc's difference from the previous posting's doc (zigzag
/// varint; a run starts from 0) and one byte for field and frequency (`field | tf << 3` when
/// the field is below 8 and tf within 1..=30, else 0xFF, the field byte and tf as a varint);
/// `post.skip` holds the number of postings (u64) and the byte offset (u32) of every run and
/// of the end, so a range is read from the run that holds its start. About 3–4 bytes per
/// posting instead of 7.
#[derive(Clone, Default)]
pub enum Postings {
    /// Built in this process (or decoded from bytes).
    #[default]
    Empty,
    /// In memory.
    Owned {
        /// The doc of each posting.
        doc: Vec<u32>,
        /// The field.
        field: Vec<u8>,
        /// The term frequency in that field.
        tf: Vec<u16>,
    },
    /// Sections `post.data` and `post.skip` of a mapped container.
    Mapped(Arc<Mapped>),
}

/// The posting sections of a mapped index artifact.
pub struct Mapped {
    c: Arc<Container>,
    data: Handle,
    skip: Handle,
    len: usize,
    runs: usize,
}

impl Mapped {
    /// The compressed bytes of the runs that hold postings `a..b` (`a < b`) and the index of
    /// the first posting they start with; `None` when a run offset or the bytes cannot be read
    /// (a failed block sum marks the container corrupt).
    fn runs_of(&self, a: usize, b: usize) -> Option<(&[u8], usize)> {
        let (first, last) = (a / RUN, (b - 1) / RUN + 1);
        let offset = |run: usize| {
            let at = 8 + run.min(self.runs) * 4;
            self.c
                .get(self.skip)
                .bytes(at, 4)
                .map(|b| u32::get(b) as usize)
        };
        let (from, to) = (offset(first)?, offset(last)?);
        let bytes = self.c.get(self.data).bytes(from, to.checked_sub(from)?)?;
        Some((bytes, first * RUN))
    }
}

/// Postings [`Postings::read_into`] reserves room for at most, before any is decoded.
const RESERVE_MAX: usize = 1 << 20;

/// Postings per run of the compressed stream (a range read decodes at most this many before
/// its start).
pub const RUN: usize = 64;

const SECTIONS: [&str; 2] = ["post.data", "post.skip"];

/// The escape byte of a field and frequency that do not fit one byte.
const WIDE: u8 = 0xFF;

pub(crate) fn put_varint(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// The varint at `b[*at..]` (at most 10 bytes), advancing `at`; `None` when malformed.
#[inline(always)]
pub(crate) fn get_varint(b: &[u8], at: &mut usize) -> Option<u64> {
    // Most values (lengths, counts, small differences) fit one byte: that path is inlined
    // into every decoding loop, the rest is a call.
    if let Some(&byte) = b.get(*at) {
        if byte < 0x80 {
            *at += 1;
            return Some(u64::from(byte));
        }
    }
    get_long_varint(b, at)
}

#[cold]
fn get_long_varint(b: &[u8], at: &mut usize) -> Option<u64> {
    let mut x = 0u64;
    for shift in (0..70).step_by(7) {
        let byte = *b.get(*at)?;
        *at += 1;
        x |= u64::from(byte & 0x7F).checked_shl(shift)?;
        if byte & 0x80 == 0 {
            return Some(x);
        }
    }
    None
}

/// Runs of postings compressed by one task (the runs are independent: each starts from 0).
const GROUP_RUNS: usize = 2048;

/// The compressed stream of postings (see [`Postings`]) and its run offsets, groups of runs
/// compressed in parallel and joined in order: the same bytes whatever the number of threads.
pub(crate) fn compress(doc: &[u32], field: &[u8], tf: &[u16]) -> (Vec<u8>, Vec<u8>) {
    use rayon::prelude::*;
    let group = RUN * GROUP_RUNS;
    let pieces: Vec<Piece> = (0..doc.len().div_ceil(group))
        .into_par_iter()
        .map(|g| {
            let (a, b) = (g * group, ((g + 1) * group).min(doc.len()));
            compress_piece(a, &doc[a..b], &field[a..b], &tf[a..b])
        })
        .collect();
    join_pieces(pieces)
}

/// Postings as three columns, one entry per posting.
#[derive(Default)]
struct Loose {
    doc: Vec<u32>,
    field: Vec<u8>,
    tf: Vec<u16>,
}

impl Loose {
    fn extend(&mut self, other: &Loose) {
        self.doc.extend_from_slice(&other.doc);
        self.field.extend_from_slice(&other.field);
        self.tf.extend_from_slice(&other.tf);
    }

    fn of(doc: &[u32], field: &[u8], tf: &[u16]) -> Loose {
        Loose {
            doc: doc.to_vec(),
            field: field.to_vec(),
            tf: tf.to_vec(),
        }
    }
}

/// Consecutive postings of the stream, compressed on their own ([`compress_piece`]): the runs
/// that lie wholly inside them, and, loose, the postings before their first run boundary and
/// after their last, whose runs they share with the pieces beside them. [`join_pieces`] makes
/// the stream of pieces that follow each other. The index builder lays its postings out by
/// ranges of terms, each range's task compressing its own piece, so the postings are never
/// held uncompressed all at once (84 MB at 100k generated sections, against 31 compressed).
pub(crate) struct Piece {
    head: Loose,
    runs: Vec<u8>,
    /// Where each run of `runs` starts in it (every one is [`RUN`] postings long).
    starts: Vec<usize>,
    tail: Loose,
}

/// The piece of postings `doc`, `field`, `tf` (one entry per posting), the first of which is
/// posting `at` of the stream.
pub(crate) fn compress_piece(at: usize, doc: &[u32], field: &[u8], tf: &[u16]) -> Piece {
    let end = at + doc.len();
    let first = at.next_multiple_of(RUN).min(end);
    let last = (end / RUN * RUN).max(first);
    let (i, j) = (first - at, last - at);
    let (runs, starts) = compress_runs(&doc[i..j], &field[i..j], &tf[i..j]);
    Piece {
        head: Loose::of(&doc[..i], &field[..i], &tf[..i]),
        runs,
        starts,
        tail: Loose::of(&doc[j..], &field[j..], &tf[j..]),
    }
}

/// The compressed stream and its run offsets (the `post.data` and `post.skip` sections) of
/// pieces that follow each other from the stream's first posting. Each piece is dropped once
/// copied.
pub(crate) fn join_pieces(pieces: Vec<Piece>) -> (Vec<u8>, Vec<u8>) {
    let total: usize = pieces
        .iter()
        .map(|p| p.head.doc.len() + p.starts.len() * RUN + p.tail.doc.len())
        .sum();
    // The loose postings' runs take at most a few bytes per posting beyond the runs'.
    let loose: usize = pieces
        .iter()
        .map(|p| p.head.doc.len() + p.tail.doc.len())
        .sum();
    let mut data =
        Vec::with_capacity(pieces.iter().map(|p| p.runs.len()).sum::<usize>() + loose * 8);
    let mut skip = Vec::with_capacity(8 + (total / RUN + 1) * 4);
    skip.extend_from_slice(&(total as u64).to_le_bytes());
    // Offsets over 4 GiB saturate (their reads then fail the bounds checks): far beyond the
    // postings of a million sections (~0.3 GB).
    let off = |n: usize| u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes();
    let mut append = |data: &mut Vec<u8>, bytes: &[u8], starts: &[usize]| {
        for &s in starts {
            skip.extend_from_slice(&off(data.len() + s));
        }
        data.extend_from_slice(bytes);
    };
    // Postings from a run boundary on, not yet compressed; `at` is the position after them.
    let mut pending = Loose::default();
    let mut at = 0usize;
    for p in pieces {
        pending.extend(&p.head);
        at += p.head.doc.len();
        if at.is_multiple_of(RUN) && !pending.doc.is_empty() {
            let (bytes, starts) = compress_runs(&pending.doc, &pending.field, &pending.tf);
            append(&mut data, &bytes, &starts);
            pending = Loose::default();
        }
        append(&mut data, &p.runs, &p.starts);
        at += p.starts.len() * RUN;
        pending.extend(&p.tail);
        at += p.tail.doc.len();
    }
    if !pending.doc.is_empty() {
        let (bytes, starts) = compress_runs(&pending.doc, &pending.field, &pending.tf);
        append(&mut data, &bytes, &starts);
    }
    skip.extend_from_slice(&off(data.len()));
    (data, skip)
}

/// The compressed stream and its run offsets ([`join_pieces`]) as the two named sections
/// [`Postings::mapped`] reads.
pub(crate) fn sections_of((data, skip): (Vec<u8>, Vec<u8>)) -> [(&'static str, Vec<u8>); 2] {
    [(SECTIONS[0], data), (SECTIONS[1], skip)]
}

/// Postings that start at a run boundary, compressed: their bytes and where each run starts.
fn compress_runs(doc: &[u32], field: &[u8], tf: &[u16]) -> (Vec<u8>, Vec<usize>) {
    let mut data = Vec::with_capacity(doc.len() * 4);
    let mut starts = Vec::with_capacity(doc.len().div_ceil(RUN));
    let mut prev = 0i64;
    for (i, ((&d, &f), &t)) in doc.iter().zip(field).zip(tf).enumerate() {
        if i % RUN == 0 {
            starts.push(data.len());
            prev = 0;
        }
        let delta = i64::from(d) - prev;
        put_varint(&mut data, ((delta << 1) ^ (delta >> 63)) as u64);
        prev = i64::from(d);
        if f < 8 && (1..=30).contains(&t) {
            data.push(f | (t as u8) << 3);
        } else {
            data.push(WIDE);
            data.push(f);
            put_varint(&mut data, u64::from(t));
        }
    }
    (data, starts)
}

/// Calls `f(doc, field, tf)` for postings `skip`..`take` of the run(s) in `b` (starting at a
/// run boundary); `None` when the bytes stop decoding (the postings before that were given).
fn decode_each(b: &[u8], skip: usize, take: usize, mut f: impl FnMut(u32, u8, u16)) -> Option<()> {
    let mut at = 0;
    let mut prev = 0i64;
    for i in 0..take {
        if i % RUN == 0 {
            prev = 0;
        }
        let z = get_varint(b, &mut at)?;
        let d = prev + ((z >> 1) as i64 ^ -((z & 1) as i64));
        let d = u32::try_from(d).ok()?;
        prev = i64::from(d);
        let ft = *b.get(at)?;
        at += 1;
        let (fd, t) = if ft == WIDE {
            let fd = *b.get(at)?;
            at += 1;
            (fd, u16::try_from(get_varint(b, &mut at)?).ok()?)
        } else {
            (ft & 7, u16::from(ft >> 3))
        };
        if i >= skip {
            f(d, fd, t);
        }
    }
    Some(())
}

/// Postings `skip`..`take` of the run(s) in `b` as columns, or `None` when the bytes do not
/// decode.
#[allow(clippy::type_complexity)]
fn decompress(b: &[u8], skip: usize, take: usize) -> Option<(Vec<u32>, Vec<u8>, Vec<u16>)> {
    let n = take - skip;
    let (mut doc, mut field, mut tf) = (Vec::with_capacity(n), Vec::with_capacity(n), Vec::new());
    tf.reserve(n);
    decode_each(b, skip, take, |d, f, t| {
        doc.push(d);
        field.push(f);
        tf.push(t);
    })?;
    Some((doc, field, tf))
}

impl Postings {
    /// Postings in memory (the three columns have one entry per posting).
    pub fn owned(doc: Vec<u32>, field: Vec<u8>, tf: Vec<u16>) -> Postings {
        Postings::Owned { doc, field, tf }
    }

    /// The postings of a mapped index artifact (`None` when its sections are missing or their
    /// lengths disagree).
    pub fn mapped(c: Arc<Container>) -> Option<Postings> {
        let [data, skip] = SECTIONS.map(|n| c.handle(n));
        let (data, skip) = (data?, skip?);
        let len = u64::get(c.get(skip).bytes(0, 8)?) as usize;
        let runs = len.div_ceil(RUN);
        if c.get(skip).len() != 8 + (runs + 1) * 4 {
            return None;
        }
        Some(Postings::Mapped(Arc::new(Mapped {
            c,
            data,
            skip,
            len,
            runs,
        })))
    }

    /// Number of postings.
    pub fn len(&self) -> usize {
        match self {
            Postings::Empty => 0,
            Postings::Owned { doc, .. } => doc.len(),
            Postings::Mapped(m) => m.len,
        }
    }

    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Postings `a..b` (clamped): borrowed in memory, read (and block-checked) from a mapping.
    /// A range whose blocks fail their sums, or whose bytes do not decode, is empty (a failed
    /// sum marks the container corrupt).
    #[allow(clippy::type_complexity)]
    pub fn range(&self, a: usize, b: usize) -> (Cow<'_, [u32]>, Cow<'_, [u8]>, Cow<'_, [u16]>) {
        let b = b.min(self.len());
        let a = a.min(b);
        let empty = || {
            (
                Cow::Borrowed(&[][..]),
                Cow::Borrowed(&[][..]),
                Cow::Borrowed(&[][..]),
            )
        };
        match self {
            Postings::Empty => empty(),
            Postings::Owned { doc, field, tf } => (
                Cow::Borrowed(&doc[a..b]),
                Cow::Borrowed(&field[a..b]),
                Cow::Borrowed(&tf[a..b]),
            ),
            Postings::Mapped(_) if a == b => empty(),
            Postings::Mapped(m) => {
                match m
                    .runs_of(a, b)
                    .and_then(|(bytes, base)| decompress(bytes, a - base, b - base))
                {
                    Some((d, f, t)) => (Cow::Owned(d), Cow::Owned(f), Cow::Owned(t)),
                    None => empty(),
                }
            }
        }
    }

    /// Calls `f(doc, field, tf)` for postings `a..b` (clamped) in order, without collecting
    /// them. A range whose blocks fail their sums gives nothing (a failed sum marks the
    /// container corrupt); bytes that stop decoding end it early.
    pub fn for_each(&self, a: usize, b: usize, mut f: impl FnMut(u32, u8, u16)) {
        let b = b.min(self.len());
        let a = a.min(b);
        match self {
            Postings::Empty => {}
            Postings::Owned { doc, field, tf } => {
                for i in a..b {
                    f(doc[i], field[i], tf[i]);
                }
            }
            Postings::Mapped(_) if a == b => {}
            Postings::Mapped(m) => {
                if let Some((bytes, base)) = m.runs_of(a, b) {
                    let _ = decode_each(bytes, a - base, b - base, f);
                }
            }
        }
    }

    /// Postings `a..b` (clamped) into `out`, cleared first, as [`Postings::for_each`] gives
    /// them: a search reads a term's list into one buffer it reuses, so the loop over it keeps
    /// its state in registers instead of calling back once per posting.
    pub fn read_into(&self, a: usize, b: usize, out: &mut Vec<(u32, u8, u16)>) {
        out.clear();
        // Reserved up to a bound, not to a length a damaged artifact could overstate: the rest
        // grows with what actually decodes (and the buffer is reused).
        out.reserve(b.min(self.len()).saturating_sub(a).min(RESERVE_MAX));
        self.for_each(a, b, |d, f, t| out.push((d, f, t)));
    }

    /// The compressed stream and its run offsets, named as [`Postings::mapped`] reads them.
    pub fn blocks(&self) -> Vec<(&'static str, Vec<u8>)> {
        let (d, f, t) = self.range(0, self.len());
        sections_of(compress(&d, &f, &t)).into()
    }

    /// For postings in memory, whether every doc is below `docs` and every field below
    /// `fields`; mapped postings are checked as they are read.
    pub fn owned_within(&self, docs: usize, fields: usize) -> bool {
        match self {
            Postings::Owned { doc, field, tf } => {
                doc.len() == field.len()
                    && doc.len() == tf.len()
                    && doc.iter().all(|&d| (d as usize) < docs)
                    && field.iter().all(|&f| (f as usize) < fields)
            }
            _ => true,
        }
    }

    /// True when a mapped read failed its checksum.
    pub fn is_corrupt(&self) -> bool {
        matches!(self, Postings::Mapped(m) if m.c.is_corrupt())
    }
}

impl std::fmt::Debug for Postings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Postings({})", self.len())
    }
}

impl PartialEq for Postings {
    fn eq(&self, other: &Postings) -> bool {
        self.len() == other.len() && self.range(0, self.len()) == other.range(0, other.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Cols {
        #[serde(with = "le_vec")]
        a: Vec<u32>,
        #[serde(with = "le_vec")]
        b: Vec<u8>,
        #[serde(with = "le_vec")]
        c: Vec<u16>,
        #[serde(with = "le_vec")]
        d: Vec<f64>,
    }

    /// Pieces cut anywhere (empty, inside one run, across several, on run boundaries) join
    /// into the stream compressed whole.
    #[test]
    fn pieces_join_into_the_stream_compressed_whole() {
        let mut x = 11u64;
        let mut next = |m: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        let n = 5 * RUN * 7 + 13;
        let doc: Vec<u32> = (0..n).map(|_| next(5000) as u32).collect();
        let field: Vec<u8> = (0..n).map(|_| next(10) as u8).collect();
        let tf: Vec<u16> = (0..n)
            .map(|_| [1, 2, 30, 31, 300, u16::MAX][next(6) as usize])
            .collect();
        let whole = compress(&doc, &field, &tf);
        let mut cuts: Vec<Vec<usize>> = vec![
            vec![],
            vec![0, 0, n],
            vec![RUN, 2 * RUN, 2 * RUN],
            (0..n).step_by(1).collect(),
            (0..n).step_by(RUN - 1).collect(),
            (0..n).step_by(RUN + 1).collect(),
        ];
        for _ in 0..20 {
            let mut c: Vec<usize> = (0..next(12)).map(|_| next(n as u64 + 1) as usize).collect();
            c.sort_unstable();
            cuts.push(c);
        }
        for c in cuts {
            let mut bounds = vec![0];
            bounds.extend(c);
            bounds.push(n);
            let pieces: Vec<Piece> = bounds
                .windows(2)
                .map(|w| {
                    compress_piece(w[0], &doc[w[0]..w[1]], &field[w[0]..w[1]], &tf[w[0]..w[1]])
                })
                .collect();
            assert!(join_pieces(pieces) == whole, "cut at {bounds:?}");
        }
        // The stream reads back as the postings it was made of.
        let (data, skip) = whole;
        let back = decompress(&data, 0, n).expect("decodes");
        assert_eq!(back, (doc, field, tf));
        assert_eq!(skip.len(), 8 + (n.div_ceil(RUN) + 1) * 4);
    }

    #[test]
    fn columns_round_trip_and_strings_read_back() {
        let cols = Cols {
            a: vec![0, 1, u32::MAX, 70_000],
            b: vec![0, 4, 255],
            c: vec![1, u16::MAX],
            d: vec![1.5, -0.25, f64::MAX],
        };
        let bytes = postcard::to_stdvec(&cols).unwrap();
        let back: Cols = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(back, cols);
        // A block whose length is not a multiple of the width does not decode.
        let bad = postcard::to_stdvec(&serde_bytes_like(&[1, 2, 3])).unwrap();
        assert!(postcard::from_bytes::<OnlyU32>(&bad).is_err());
        let mut s = Strings::new(["alpha", "beta", "béta"]);
        s.push(&["gam", "ma"]);
        assert_eq!(s.len(), 4);
        assert_eq!(s.get(2), "béta");
        assert_eq!(s.get(3), "gamma");
        assert_eq!(s.get(9), "");
        assert!(s.is_strictly_sorted());
        assert!(!Strings::new(["b", "a"]).is_strictly_sorted());
    }

    #[test]
    fn compressed_postings_read_back_any_range() {
        // Docs rising within runs of "terms" and falling between them, every field, term
        // frequencies that fit the shared byte and ones that need the escape.
        let mut doc = Vec::new();
        let (mut field, mut tf) = (Vec::new(), Vec::new());
        for i in 0..1000u32 {
            doc.push(if i % 7 == 0 { 5 } else { i * 131 % 100_003 });
            field.push((i % 9) as u8);
            tf.push(match i % 5 {
                0 => 1,
                1 => 30,
                2 => 31,
                3 => u16::MAX,
                _ => (i % 300) as u16,
            });
        }
        doc.push(u32::MAX);
        field.push(255);
        tf.push(0);
        let (data, skip) = compress(&doc, &field, &tf);
        assert!(data.len() < doc.len() * 7);
        let runs = doc.len().div_ceil(RUN);
        assert_eq!(skip.len(), 8 + (runs + 1) * 4);
        let offset = |r: usize| u32::get(&skip[8 + r * 4..12 + r * 4]) as usize;
        for (a, b) in [
            (0, doc.len()),
            (0, 1),
            (63, 65),
            (64, 128),
            (500, 999),
            (1000, 1001),
        ] {
            let (first, last) = (a / RUN, (b - 1) / RUN + 1);
            let bytes = &data[offset(first)..offset(last)];
            let got = decompress(bytes, a - first * RUN, b - first * RUN).expect("decodes");
            assert_eq!(
                got,
                (doc[a..b].to_vec(), field[a..b].to_vec(), tf[a..b].to_vec())
            );
        }
        // Cut or garbled bytes give `None` or wrong postings, never a panic.
        for cut in 0..data.len().min(300) {
            let _ = decompress(&data[..cut], 0, RUN);
        }
        assert_eq!(decompress(&[0xFF; 12], 0, 1), None);
    }

    #[derive(Serialize)]
    struct Raw<'a>(#[serde(with = "raw")] &'a [u8]);
    mod raw {
        pub fn serialize<S: serde::Serializer>(b: &[u8], s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(b)
        }
    }
    fn serde_bytes_like(b: &[u8]) -> Raw<'_> {
        Raw(b)
    }
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct OnlyU32(#[serde(with = "le_vec")] Vec<u32>);
}
