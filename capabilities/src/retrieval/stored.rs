//! Columns of the stored index that a query reads in place: records (front-coded strings and
//! varints) in blocks of a fixed number, with the byte offset of every block in a second
//! section, so reading record `i` decodes only its block. Nothing is decoded when the index is
//! opened; a query's cost follows the terms and documents it touches, not the corpus.

use super::columns::{get_varint, put_varint};
use ontoly_graph::graph::store::container::{Container, Handle};

/// Writes records in blocks of `per`: `<name>` holds the records, `<name>.idx` the byte offset
/// (u32, little-endian) of every block and the end. Strings are front-coded against the
/// previous record's string in the same block (a block's first string is whole).
pub(crate) struct BlockWriter {
    data: Vec<u8>,
    idx: Vec<u8>,
    per: usize,
    n: usize,
    prev: Vec<u8>,
}

/// An offset as stored: a column over 4 GiB (far beyond a million sections' index) saturates,
/// and its reads past that point fail their bounds checks instead of answering wrongly.
fn offset(n: usize) -> [u8; 4] {
    u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes()
}

impl BlockWriter {
    pub(crate) fn new(per: usize) -> BlockWriter {
        BlockWriter {
            data: Vec::new(),
            idx: Vec::new(),
            per,
            n: 0,
            prev: Vec::new(),
        }
    }

    /// Starts the next record.
    pub(crate) fn record(&mut self) {
        if self.n.is_multiple_of(self.per) {
            self.idx.extend_from_slice(&offset(self.data.len()));
            self.prev.clear();
        }
        self.n += 1;
    }

    /// Appends a string, front-coded.
    pub(crate) fn string(&mut self, s: &[u8]) {
        let shared = self.prev.iter().zip(s).take_while(|(a, b)| a == b).count();
        put_varint(&mut self.data, shared as u64);
        put_varint(&mut self.data, (s.len() - shared) as u64);
        self.data.extend_from_slice(&s[shared..]);
        self.prev.clear();
        self.prev.extend_from_slice(s);
    }

    /// Appends a number.
    pub(crate) fn varint(&mut self, x: u64) {
        put_varint(&mut self.data, x);
    }

    /// The records and the block offsets.
    pub(crate) fn finish(mut self) -> (Vec<u8>, Vec<u8>) {
        self.idx.extend_from_slice(&offset(self.data.len()));
        (self.data, self.idx)
    }
}

/// Number of blocks of `n` records, `per` to a block.
pub(crate) fn blocks(n: usize, per: usize) -> usize {
    n.div_ceil(per)
}

/// A column written by [`BlockWriter`], in a container.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Blocked {
    data: Handle,
    idx: Handle,
    blocks: usize,
}

impl Blocked {
    /// Sections `name` and `idx` of `c`, holding `blocks` blocks (`None` when a section is
    /// missing or the offsets' length disagrees).
    pub(crate) fn open(c: &Container, name: &str, idx: &str, blocks: usize) -> Option<Blocked> {
        let (data, idx) = (c.handle(name)?, c.handle(idx)?);
        (c.get(idx).len() == (blocks + 1) * 4).then_some(Blocked { data, idx, blocks })
    }

    /// Number of blocks.
    pub(crate) fn blocks(&self) -> usize {
        self.blocks
    }

    /// The bytes of block `b` (checked against their sums on first read), `None` when out of
    /// range, inconsistent or corrupt.
    pub(crate) fn block<'a>(&self, c: &'a Container, b: usize) -> Option<&'a [u8]> {
        if b >= self.blocks {
            return None;
        }
        let idx = c.get(self.idx);
        let (from, to) = (idx.u32(b)? as usize, idx.u32(b + 1)? as usize);
        c.get(self.data).bytes(from, to.checked_sub(from)?)
    }
}

/// Reads the records of one block in order.
pub(crate) struct Reader<'a> {
    b: &'a [u8],
    at: usize,
    /// The current string (front coding continues from it).
    pub(crate) s: Vec<u8>,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(b: &'a [u8]) -> Reader<'a> {
        Reader {
            b,
            at: 0,
            s: Vec::new(),
        }
    }

    /// True when every byte is read.
    pub(crate) fn done(&self) -> bool {
        self.at >= self.b.len()
    }

    /// The next number.
    pub(crate) fn varint(&mut self) -> Option<u64> {
        get_varint(self.b, &mut self.at)
    }

    /// The next number as a `u32`.
    pub(crate) fn u32(&mut self) -> Option<u32> {
        self.varint().and_then(|x| u32::try_from(x).ok())
    }

    /// The next string, into [`Reader::s`].
    pub(crate) fn string(&mut self) -> Option<()> {
        let shared = usize::try_from(self.varint()?).ok()?;
        let rest = usize::try_from(self.varint()?).ok()?;
        let end = self.at.checked_add(rest).filter(|&e| e <= self.b.len())?;
        if shared > self.s.len() {
            return None;
        }
        self.s.truncate(shared);
        self.s.extend_from_slice(&self.b[self.at..end]);
        self.at = end;
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ontoly_graph::graph::store::container::Writer;

    #[test]
    fn blocked_records_read_back_and_refuse_garbage() {
        let words = ["", "a", "a b", "ab", "café", "cafê", "日本", "日本語", "z"];
        let mut w = BlockWriter::new(3);
        for (i, s) in words.iter().enumerate() {
            w.record();
            w.string(s.as_bytes());
            w.varint(i as u64 * 1000);
        }
        let (data, idx) = w.finish();
        let mut cw = Writer::new(*b"testblck", "k");
        cw.section("d", &data);
        cw.section("d.idx", &idx);
        let c = Container::from_bytes(cw.finish().expect("held sections"), *b"testblck", "k")
            .expect("container");
        assert!(Blocked::open(&c, "d", "d.idx", 4).is_none(), "wrong count");
        let col = Blocked::open(&c, "d", "d.idx", blocks(words.len(), 3)).expect("opens");
        let mut back = Vec::new();
        for b in 0..col.blocks() {
            let mut r = Reader::new(col.block(&c, b).expect("block"));
            while !r.done() {
                r.string().expect("string");
                let n = r.u32().expect("number");
                back.push((String::from_utf8(r.s.clone()).expect("utf-8"), n));
            }
        }
        let want: Vec<(String, u32)> = words
            .iter()
            .enumerate()
            .map(|(i, s)| (s.to_string(), i as u32 * 1000))
            .collect();
        assert_eq!(back, want);
        assert!(col.block(&c, 3).is_none());
        // Shares more than the string before, runs past the end, cut varint: `None`.
        for bad in [&[0u8, 1, b'a', 2, 0][..], &[0, 5, b'a'], &[0x80]] {
            let mut r = Reader::new(bad);
            let ok = r.string().and_then(|_| r.string());
            assert!(ok.is_none(), "{bad:?}");
        }
    }
}
