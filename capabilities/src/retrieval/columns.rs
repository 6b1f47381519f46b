//! How the index's large columns are stored: numbers as one block of little-endian bytes each
//! (not one varint per element), terms as one string with end offsets (not one allocation per
//! term). A query process decodes the whole index; with these forms that is a few bulk copies
//! instead of tens of millions of element visits and allocations.

use ontoly_graph::graph::store::container::{Container, Handle};
use serde::de::{Error, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
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
le!(u8, u16, u32, f64);

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

/// Sorted distinct strings stored as one string and the end offset of each.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strings {
    text: String,
    #[serde(with = "le_vec")]
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

    /// True when every offset is in order, within the text and on a character boundary (what
    /// [`Strings::get`] needs to return every string exactly).
    pub fn is_consistent(&self) -> bool {
        let mut last = 0u32;
        self.ends.iter().all(|&e| {
            let ok = e >= last && self.text.is_char_boundary(e as usize);
            last = e;
            ok
        }) && last as usize == self.text.len()
    }

    /// The position of `s` (strings are sorted).
    pub fn find(&self, s: &str) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.get(mid).cmp(s) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// The first position whose string is not below `s`.
    pub fn lower_bound(&self, s: &str) -> usize {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.get(mid) < s {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

/// The index's postings: (doc, field, term frequency) in three columns, either in memory (a
/// build) or read in place from the mapped index artifact, a range at a time.
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
    /// Sections `post.doc`, `post.field`, `post.tf` of a mapped container.
    Mapped(Arc<Mapped>),
}

/// The posting sections of a mapped index artifact.
pub struct Mapped {
    c: Container,
    doc: Handle,
    field: Handle,
    tf: Handle,
    len: usize,
}

const SECTIONS: [&str; 3] = ["post.doc", "post.field", "post.tf"];

fn decode<T: Le>(b: &[u8]) -> Vec<T> {
    b.chunks_exact(T::WIDTH).map(T::get).collect()
}

fn encode<T: Le>(v: &[T]) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.len() * T::WIDTH);
    for &x in v {
        x.put(&mut out);
    }
    out
}

impl Postings {
    /// Postings in memory (the three columns have one entry per posting).
    pub fn owned(doc: Vec<u32>, field: Vec<u8>, tf: Vec<u16>) -> Postings {
        Postings::Owned { doc, field, tf }
    }

    /// The postings of a mapped index artifact (`None` when its sections are missing or their
    /// lengths disagree).
    pub fn mapped(c: Container) -> Option<Postings> {
        let [doc, field, tf] = SECTIONS.map(|n| c.handle(n));
        let (doc, field, tf) = (doc?, field?, tf?);
        let (dl, fl, tl) = (c.get(doc).len(), c.get(field).len(), c.get(tf).len());
        let len = fl;
        if dl != len * 4 || tl != len * 2 {
            return None;
        }
        Some(Postings::Mapped(Arc::new(Mapped {
            c,
            doc,
            field,
            tf,
            len,
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
    /// A range whose blocks fail their sums is empty and marks the container corrupt.
    #[allow(clippy::type_complexity)]
    pub fn range(&self, a: usize, b: usize) -> (Cow<'_, [u32]>, Cow<'_, [u8]>, Cow<'_, [u16]>) {
        let b = b.min(self.len());
        let a = a.min(b);
        match self {
            Postings::Empty => (Cow::Borrowed(&[]), Cow::Borrowed(&[]), Cow::Borrowed(&[])),
            Postings::Owned { doc, field, tf } => (
                Cow::Borrowed(&doc[a..b]),
                Cow::Borrowed(&field[a..b]),
                Cow::Borrowed(&tf[a..b]),
            ),
            Postings::Mapped(m) => {
                let n = b - a;
                let read = |h: Handle, w: usize| m.c.get(h).bytes(a * w, n * w);
                match (read(m.doc, 4), read(m.field, 1), read(m.tf, 2)) {
                    (Some(d), Some(f), Some(t)) => (
                        Cow::Owned(decode(d)),
                        Cow::Borrowed(f),
                        Cow::Owned(decode(t)),
                    ),
                    _ => (Cow::Borrowed(&[]), Cow::Borrowed(&[]), Cow::Borrowed(&[])),
                }
            }
        }
    }

    /// The three columns as little-endian blocks, named as [`Postings::mapped`] reads them.
    pub fn blocks(&self) -> Vec<(&'static str, Vec<u8>)> {
        let (d, f, t) = self.range(0, self.len());
        vec![
            (SECTIONS[0], encode(&d)),
            (SECTIONS[1], f.into_owned()),
            (SECTIONS[2], encode(&t)),
        ]
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

impl Serialize for Postings {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTuple;
        let blocks = self.blocks();
        let mut t = s.serialize_tuple(3)?;
        for (_, b) in &blocks {
            t.serialize_element(&serde_bytes_ref(b))?;
        }
        t.end()
    }
}

/// A byte slice that serializes as bytes (not as a sequence of numbers).
struct Bytes<'a>(&'a [u8]);

fn serde_bytes_ref(b: &[u8]) -> Bytes<'_> {
    Bytes(b)
}

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

impl<'de> Deserialize<'de> for Postings {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Postings, D::Error> {
        #[derive(Deserialize)]
        struct Cols(
            #[serde(with = "le_vec")] Vec<u32>,
            #[serde(with = "le_vec")] Vec<u8>,
            #[serde(with = "le_vec")] Vec<u16>,
        );
        let Cols(doc, field, tf) = Cols::deserialize(d)?;
        if doc.len() != field.len() || doc.len() != tf.len() {
            return Err(D::Error::custom("posting columns of different lengths"));
        }
        Ok(Postings::Owned { doc, field, tf })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        s: Strings,
    }

    #[test]
    fn columns_round_trip_and_strings_search() {
        let cols = Cols {
            a: vec![0, 1, u32::MAX, 70_000],
            b: vec![0, 4, 255],
            c: vec![1, u16::MAX],
            d: vec![1.5, -0.25, f64::MAX],
            s: Strings::new(["alpha", "beta", "béta", "gamma"]),
        };
        let bytes = postcard::to_stdvec(&cols).unwrap();
        let back: Cols = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(back, cols);
        assert!(back.s.is_consistent());
        assert_eq!(back.s.find("béta"), Some(2));
        assert_eq!(back.s.find("delta"), None);
        assert_eq!(back.s.lower_bound("b"), 1);
        assert_eq!(back.s.lower_bound("zzz"), 4);
        assert_eq!(back.s.get(9), "");
        // A block whose length is not a multiple of the width does not decode.
        let bad = postcard::to_stdvec(&serde_bytes_like(&[1, 2, 3])).unwrap();
        assert!(postcard::from_bytes::<OnlyU32>(&bad).is_err());
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
