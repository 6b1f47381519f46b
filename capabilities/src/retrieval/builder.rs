//! Building the index's terms and postings fast: documents are tokenized in parallel chunks,
//! each chunk interning its terms (every distinct word is lowercased and stemmed once per
//! chunk, a bigram is a pair of term ids until its string is first needed), and the chunks are
//! merged into globally sorted terms with postings by (doc, field) — the same terms, postings
//! and counts, byte for byte, as one `BTreeMap` of owned term strings per document and one for
//! the whole corpus gave, in a small multiple of the cost of tokenizing the text once.

use super::columns::Strings;
use super::tokens::{for_each_token_with, TermMaker};
use ontoly_graph::graph::fasthash::FastMap;
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Documents per chunk at least: a chunk's word cache must pay for itself.
const MIN_CHUNK_DOCS: usize = 1024;

/// What the caller knows about a document: its fields' texts, which fields yield bigrams, and
/// whether it is a section (for the section document frequency).
#[derive(Clone)]
pub(super) struct DocFields<'a> {
    /// The fields' texts (`None`: not indexed).
    pub fields: Option<[Cow<'a, str>; super::index::FIELDS]>,
    /// A section counts in the section document frequency.
    pub section: bool,
}

/// The terms and postings of a corpus, in the stored layout.
pub(super) struct Built {
    /// Sorted distinct terms.
    pub terms: Strings,
    /// Postings of term `i` are `term_start[i]..term_start[i + 1]`.
    pub term_start: Vec<u32>,
    /// The postings (documents, fields and saturating term frequencies), compressed: the
    /// `post.data` and `post.skip` sections ([`super::columns::join_pieces`]).
    pub postings: (Vec<u8>, Vec<u8>),
    /// Per term: sections holding it.
    pub df_section: Vec<u32>,
    /// Per term: documents holding it.
    pub df_all: Vec<u32>,
    /// Per doc and field: length in tokens.
    pub field_len: Vec<u32>,
}

/// One chunk's terms: local ids, with the surface forms already seen. Words and compounds
/// (unigrams) get ids below [`BIGRAM`]; a bigram is `BIGRAM | i`, its pair `pairs[i]`, and gets
/// no string until the merge. Surface forms are keys borrowed from the chunk's text (`'t`):
/// a lookup per token allocates nothing.
struct Interner<'t> {
    /// Local unigram id → term.
    terms: Vec<String>,
    /// Term → local unigram id.
    ids: FastMap<String, u32>,
    /// A word of at most [`SHORT`] bytes as written, packed into a number ([`short_key`]) →
    /// its term (`None`: a stopword or too short). Most words are short: the key compares
    /// as two integers in the table itself, where a `&str` key is a pointer into the text,
    /// far from the table, to follow on every hit.
    short_words: FastMap<u128, Option<u32>>,
    /// A longer word as written → its term.
    words: FastMap<&'t str, Option<u32>>,
    /// A compound or long flag as written → its lowercased term.
    lowers: FastMap<&'t str, u32>,
    /// Local bigram id → its two unigram ids.
    pairs: Vec<(u32, u32)>,
    /// Two neighbouring words' unigram ids → the local bigram id.
    pair_ids: FastMap<(u32, u32), u32>,
}

/// The longest word, in bytes, kept in [`Interner::short_words`].
const SHORT: usize = 15;

/// A word of at most [`SHORT`] bytes as one number: its bytes, zero-padded, and its length in
/// the last byte (so no two words share a key, whatever bytes they hold).
fn short_key(word: &str) -> Option<u128> {
    let b = word.as_bytes();
    if b.len() > SHORT {
        return None;
    }
    let mut k = [0u8; 16];
    k[..b.len()].copy_from_slice(b);
    k[SHORT] = b.len() as u8;
    Some(u128::from_le_bytes(k))
}

/// The bit that marks a local bigram id.
const BIGRAM: u32 = 1 << 31;

impl Interner<'_> {
    /// An interner sized for a chunk of `bytes` bytes of text, so its maps are not rehashed
    /// as they grow: the generated corpora have about one distinct bigram per 34 bytes of a
    /// chunk's text, one distinct term per 360, one compound per 480 and one word per 850
    /// (an estimate, not a limit: a map outgrows it as it must).
    fn with_text_bytes(bytes: usize) -> Self {
        let sized = |per: usize| bytes / per;
        Interner {
            terms: Vec::with_capacity(sized(256)),
            ids: FastMap::with_capacity_and_hasher(sized(256), Default::default()),
            short_words: FastMap::with_capacity_and_hasher(sized(512), Default::default()),
            words: FastMap::with_capacity_and_hasher(sized(4096), Default::default()),
            lowers: FastMap::with_capacity_and_hasher(sized(256), Default::default()),
            pairs: Vec::with_capacity(sized(32)),
            pair_ids: FastMap::with_capacity_and_hasher(sized(32), Default::default()),
        }
    }

    fn intern(&mut self, term: Cow<'_, str>) -> u32 {
        if let Some(&id) = self.ids.get(term.as_ref()) {
            return id;
        }
        let id = self.terms.len() as u32;
        let term = term.into_owned();
        self.terms.push(term.clone());
        self.ids.insert(term, id);
        id
    }

    fn pair(&mut self, a: u32, b: u32) -> u32 {
        let pairs = &mut self.pairs;
        *self.pair_ids.entry((a, b)).or_insert_with(|| {
            pairs.push((a, b));
            BIGRAM | (pairs.len() as u32 - 1)
        })
    }
}

impl<'t> TermMaker<'t> for Interner<'t> {
    type Term = u32;

    fn word(&mut self, word: &'t str) -> Option<u32> {
        if let Some(key) = short_key(word) {
            if let Some(&t) = self.short_words.get(&key) {
                return t;
            }
            let t = super::tokens::word_term(word).map(|t| self.intern(Cow::Owned(t)));
            self.short_words.insert(key, t);
            return t;
        }
        if let Some(&t) = self.words.get(word) {
            return t;
        }
        let t = super::tokens::word_term(word).map(|t| self.intern(Cow::Owned(t)));
        self.words.insert(word, t);
        t
    }

    fn lower(&mut self, chunk: &'t str) -> u32 {
        if let Some(&t) = self.lowers.get(chunk) {
            return t;
        }
        let t = self.intern(Cow::Owned(chunk.to_lowercase()));
        self.lowers.insert(chunk, t);
        t
    }

    fn exact(&mut self, chunk: &'t str) -> u32 {
        self.intern(Cow::Borrowed(chunk))
    }
}

/// One chunk of documents, tokenized.
struct Chunk {
    terms: Vec<String>,
    pairs: Vec<(u32, u32)>,
    /// Per doc of the chunk: the end of its postings in `post`.
    doc_end: Vec<u32>,
    /// Each doc's `(term, field, tf)` as [`put_posting`] writes them: after tokenizing, keyed
    /// by local term ([`local_key`]) and sorted by it, then by field; once laid out, grouped by
    /// range of global terms and keyed by the term's place in its range (a term's postings
    /// still together, in field order). One word a posting where the tuple took two:
    /// all chunks' postings are held from the first chunk tokenized to the last range laid
    /// out (12 M postings at 100k generated sections, 96 MB as tuples, at the build's peak).
    post: Vec<u32>,
    field_len: Vec<u32>,
}

/// The low byte of a posting word that holds no posting but announces one in the next two
/// words (a field is below 7, so no one-word posting has this byte).
const WIDE: u32 = 0xFF;
const _: () = assert!(super::index::FIELDS < 7);

/// One posting's words: `key << 8 | tf << 3 | field` in one word when the key fits 24 bits and
/// the frequency 5 (below 31), which is nearly every posting; else [`WIDE`], the key, and
/// `tf << 8 | field`. Fixed words, not varints: every pass reads every posting (12 M at 100k
/// sections, four passes), and a varint's length is a branch the processor cannot guess.
#[inline]
fn posting(key: u32, f: u8, tf: u16) -> ([u32; 3], usize) {
    if key < 1 << 24 && tf < 31 {
        ([key << 8 | u32::from(tf) << 3 | u32::from(f), 0, 0], 1)
    } else {
        ([WIDE, key, u32::from(tf) << 8 | u32::from(f)], 3)
    }
}

/// Appends one posting ([`posting`]).
#[inline]
fn put_posting(out: &mut Vec<u32>, key: u32, f: u8, tf: u16) {
    let (words, n) = posting(key, f, tf);
    out.extend_from_slice(&words[..n]);
}

/// Calls `f(key, field, tf)` with each posting of `words` (as [`put_posting`] wrote them).
#[inline]
fn each_posting(words: &[u32], mut f: impl FnMut(u32, u8, u16)) {
    let mut i = 0;
    while let Some(&w) = words.get(i) {
        if w & 0xFF == WIDE {
            // Written by this build a moment ago: a wide posting has its two words.
            let (key, x) = (words[i + 1], words[i + 2]);
            f(key, x as u8, (x >> 8) as u16);
            i += 3;
        } else {
            f(w >> 8, (w & 7) as u8, (w >> 3 & 31) as u16);
            i += 1;
        }
    }
}

/// A local term (a unigram id, or [`BIGRAM`] and a bigram's) as a posting's key: the id
/// doubled, plus one for a bigram, so both kinds fit 24 bits up to 8 M ids.
fn local_key(t: u32) -> u32 {
    if t & BIGRAM != 0 {
        (t & !BIGRAM) << 1 | 1
    } else {
        t << 1
    }
}

fn tokenize_chunk(docs: &[DocFields<'_>]) -> Chunk {
    use super::index::{FIELDS, F_ARTICLE, F_BODY, F_HEADING};
    let mut doc_end = Vec::with_capacity(docs.len());
    // About one posting per three bytes of text (100k generated sections: 12 M postings of
    // 38 MB): sized once, so the largest vector of the chunk is not copied as it grows (pages
    // reserved and not written cost no memory).
    let bytes: usize = docs
        .iter()
        .filter_map(|d| d.fields.as_ref())
        .flat_map(|f| f.iter().map(|t| t.len()))
        .sum();
    let mut post: Vec<u32> = Vec::with_capacity(bytes / 3);
    let mut it = Interner::with_text_bytes(bytes);
    let mut field_len = vec![0u32; docs.len() * FIELDS];
    // (term, field) as one number, term above field: sorted as the pairs are.
    let mut toks: Vec<u64> = Vec::new();
    let mut seen: Vec<(u32, bool)> = Vec::new();
    // A field without bigrams whose text is borrowed from the graph, by its address: its
    // terms, in order. Every section of an article indexes the article's text (title and
    // description) as its own field: at 100k generated sections that is about a quarter of
    // all tokens, the same few hundred bytes tokenized once per section. The same text gives
    // the same terms, so the section's postings are those of its first tokenizing.
    let mut shared: FastMap<(usize, usize), Vec<(u32, bool)>> = FastMap::default();
    for (d, doc) in docs.iter().enumerate() {
        if let Some(fields) = &doc.fields {
            toks.clear();
            for (fi, text) in fields.iter().enumerate() {
                let mut len = 0u32;
                let mut prev: Option<u32> = None;
                let pairs = fi == F_HEADING || fi == F_BODY;
                let f = fi as u8;
                seen.clear();
                match text {
                    // Borrowed texts live as long as `docs`: an address names one text.
                    Cow::Borrowed(t) if fi == F_ARTICLE && !t.is_empty() => {
                        let key = (t.as_ptr() as usize, t.len());
                        let terms = shared.entry(key).or_insert_with(|| {
                            let mut v = Vec::new();
                            for_each_token_with(t, &mut it, |t, _, whole| v.push((t, whole)));
                            v
                        });
                        seen.extend_from_slice(terms);
                    }
                    _ => for_each_token_with(text, &mut it, |t, _, whole| seen.push((t, whole))),
                }
                for &(t, whole) in &seen {
                    if pairs && !whole {
                        if let Some(p) = prev.replace(t) {
                            toks.push(u64::from(it.pair(p, t)) << 8 | u64::from(f));
                        }
                    }
                    toks.push(u64::from(t) << 8 | u64::from(f));
                    len += 1;
                }
                field_len[d * FIELDS + fi] = len;
            }
            toks.sort_unstable();
            let mut k = 0;
            while k < toks.len() {
                let key = toks[k];
                let mut n = 0u32;
                while k < toks.len() && toks[k] == key {
                    n += 1;
                    k += 1;
                }
                let (t, f) = ((key >> 8) as u32, key as u8);
                let tf = n.min(u32::from(u16::MAX)) as u16;
                put_posting(&mut post, local_key(t), f, tf);
            }
        }
        doc_end.push(post.len() as u32);
    }
    Chunk {
        terms: it.terms,
        pairs: it.pairs,
        doc_end,
        post,
        field_len,
    }
}

/// A posting as the index lays it out: document, field, term frequency.
pub(super) type Posting = (u32, u8, u16);

/// The postings of a few documents by term, each term's in the order the index lays them out
/// (by document, then field), and the documents' field lengths (`FIELDS` per document): what
/// an update of a stored index tokenizes again ([`super::update`]). One chunk, on one thread.
pub(super) fn postings_by_term(
    docs: &[DocFields<'_>],
) -> (BTreeMap<String, Vec<Posting>>, Vec<u32>) {
    let ch = tokenize_chunk(docs);
    // Every local term's string once: unigrams, then bigrams (as `local_key` numbers them).
    let names: Vec<String> = ch
        .terms
        .iter()
        .cloned()
        .chain(
            ch.pairs
                .iter()
                .map(|&(a, b)| super::index::bigram(&ch.terms[a as usize], &ch.terms[b as usize])),
        )
        .collect();
    let unigrams = ch.terms.len();
    let mut by_term: BTreeMap<String, Vec<Posting>> = BTreeMap::new();
    let mut start = 0usize;
    for (d, &end) in ch.doc_end.iter().enumerate() {
        each_posting(&ch.post[start..end as usize], |key, f, tf| {
            let local = if key & 1 != 0 {
                unigrams + (key >> 1) as usize
            } else {
                (key >> 1) as usize
            };
            let postings = match by_term.get_mut(&names[local]) {
                Some(p) => p,
                None => by_term.entry(names[local].clone()).or_default(),
            };
            postings.push((d as u32, f, tf));
        });
        start = end as usize;
    }
    (by_term, ch.field_len)
}

/// The sorted terms of all chunks and, per chunk, the position of each local term in them.
///
/// Terms never hold a space (the tokenizer splits on it) and every byte of a term is above it
/// (letters, digits, `_./:-#=`), so `"a b"` sorts right after `a` and before anything else
/// that starts with `a`: the sorted terms are each unigram followed by its bigrams in the order
/// of their second word. Unigrams are sorted as strings, bigrams as pairs of unigram ranks, and
/// no bigram string is compared. The result is checked to be strictly sorted, and sorted as
/// strings instead if it is not, so the rule is an optimisation, never a premise.
fn merge_terms(chunks: &[Chunk]) -> (Strings, Vec<Vec<u32>>) {
    // Unigrams: all chunks' strings sorted together; equal strings share a rank.
    // The vectors of all chunks' terms and pairs are sized once: collected from a flat map
    // they would grow by doubling, copying and touching fresh pages about twice their size
    // (tens of MB at 100k sections).
    let mut all: Vec<(&str, u32, u32)> =
        Vec::with_capacity(chunks.iter().map(|c| c.terms.len()).sum());
    all.extend(chunks.iter().enumerate().flat_map(|(c, ch)| {
        ch.terms
            .iter()
            .enumerate()
            .map(move |(l, t)| (t.as_str(), c as u32, l as u32))
    }));
    all.par_sort_unstable_by(|a, b| a.0.cmp(b.0));
    let mut uni_rank: Vec<Vec<u32>> = chunks.iter().map(|c| vec![0; c.terms.len()]).collect();
    let mut unigrams: Vec<&str> = Vec::new();
    for (t, c, l) in all {
        if unigrams.last() != Some(&t) {
            unigrams.push(t);
        }
        uni_rank[c as usize][l as usize] = unigrams.len() as u32 - 1;
    }
    // Bigrams: pairs of unigram ranks, sorted as numbers.
    let mut keys: Vec<(u64, u32, u32)> =
        Vec::with_capacity(chunks.iter().map(|c| c.pairs.len()).sum());
    keys.extend(chunks.iter().enumerate().flat_map(|(c, ch)| {
        let rank = &uni_rank[c];
        ch.pairs.iter().enumerate().map(move |(l, &(a, b))| {
            let key = u64::from(rank[a as usize]) << 32 | u64::from(rank[b as usize]);
            (key, c as u32, l as u32)
        })
    }));
    keys.par_sort_unstable_by_key(|k| k.0);
    let mut bigrams: Vec<u64> = Vec::new();
    let mut bi_index: Vec<Vec<u32>> = chunks.iter().map(|c| vec![0; c.pairs.len()]).collect();
    for (key, c, l) in keys {
        if bigrams.last() != Some(&key) {
            bigrams.push(key);
        }
        bi_index[c as usize][l as usize] = bigrams.len() as u32 - 1;
    }
    // Positions: unigram r, then its bigrams.
    let mut uni_pos = vec![0u32; unigrams.len()];
    let mut bi_pos = vec![0u32; bigrams.len()];
    let uni_bytes: usize = unigrams.iter().map(|u| u.len()).sum();
    let bi_bytes: usize = bigrams
        .iter()
        .map(|&k| {
            unigrams[(k >> 32) as usize].len() + 1 + unigrams[(k & 0xffff_ffff) as usize].len()
        })
        .sum();
    let mut terms = Strings::with_capacity(unigrams.len() + bigrams.len(), uni_bytes + bi_bytes);
    let mut j = 0;
    let mut pos = 0u32;
    for (r, u) in unigrams.iter().enumerate() {
        uni_pos[r] = pos;
        terms.push(&[u]);
        pos += 1;
        while j < bigrams.len() && (bigrams[j] >> 32) as usize == r {
            bi_pos[j] = pos;
            // As `super::index::bigram` writes it.
            terms.push(&[u, " ", unigrams[(bigrams[j] & 0xffff_ffff) as usize]]);
            pos += 1;
            j += 1;
        }
    }
    let local = |c: usize, ch: &Chunk| -> Vec<u32> {
        let mut m: Vec<u32> = uni_rank[c].iter().map(|&r| uni_pos[r as usize]).collect();
        m.extend(bi_index[c].iter().map(|&i| bi_pos[i as usize]));
        debug_assert_eq!(m.len(), ch.terms.len() + ch.pairs.len());
        m
    };
    let maps: Vec<Vec<u32>> = chunks
        .iter()
        .enumerate()
        .map(|(c, ch)| local(c, ch))
        .collect();
    if terms.is_strictly_sorted() {
        return (terms, maps);
    }
    // Not reached with this tokenizer (see above); kept so a tokenizer change cannot corrupt
    // the index: sort the strings themselves, merge equal ones, and map the positions.
    sort_strings(&terms, maps)
}

/// `terms` sorted and de-duplicated as strings, with `maps` moved to the new positions.
fn sort_strings(terms: &Strings, maps: Vec<Vec<u32>>) -> (Strings, Vec<Vec<u32>>) {
    let mut order: Vec<u32> = (0..terms.len() as u32).collect();
    order.par_sort_unstable_by(|&a, &b| terms.get(a as usize).cmp(terms.get(b as usize)));
    let mut rank = vec![0u32; order.len()];
    let mut sorted = Strings::default();
    let mut last: Option<&str> = None;
    for &o in &order {
        let t = terms.get(o as usize);
        if last != Some(t) {
            sorted.push(&[t]);
            last = Some(t);
        }
        rank[o as usize] = sorted.len() as u32 - 1;
    }
    let maps = maps
        .into_iter()
        .map(|m| m.into_iter().map(|p| rank[p as usize]).collect())
        .collect();
    (sorted, maps)
}

/// Calls `f(doc, term, field, tf)` for the postings of term range `r` (of the ranges starting
/// at `starts`) in doc order: `bounds` holds where each range starts in each doc of each chunk,
/// `doc_base` each chunk's first doc.
fn postings_in(
    chunks: &[Chunk],
    bounds: &[Vec<u32>],
    doc_base: &[u32],
    r: usize,
    starts: &[u32],
    mut f: impl FnMut(u32, u32, u8, u16),
) {
    for ((ch, bounds), &base) in chunks.iter().zip(bounds).zip(doc_base) {
        let n = ch.doc_end.len();
        let begins = &bounds[r * n..(r + 1) * n];
        let ends = if r + 1 < starts.len() {
            &bounds[(r + 1) * n..(r + 2) * n]
        } else {
            &ch.doc_end[..]
        };
        for (i, (&a, &b)) in begins.iter().zip(ends).enumerate() {
            let doc = base + i as u32;
            let base = starts[r];
            each_posting(&ch.post[a as usize..b as usize], |key, fd, tf| {
                f(doc, base + key, fd, tf)
            });
        }
    }
}

/// `n` terms cut into at most `parts` ranges of nearly equal size (none empty).
fn term_ranges(n: usize, parts: usize) -> Vec<(u32, u32)> {
    let parts = parts.clamp(1, n.max(1));
    (0..parts)
        .map(|r| ((n * r / parts) as u32, (n * (r + 1) / parts) as u32))
        .filter(|(a, b)| a < b)
        .collect()
}

/// Tokenizes every document and lays out the sorted terms and their postings.
///
/// Takes the documents' fields to free them once tokenized (the sections' owned code fields,
/// ~30 MB at 100k sections), before the postings are laid out.
pub(super) fn build(docs: Vec<DocFields<'_>>, stages: &ontoly_graph::timings::Timer) -> Built {
    use super::index::FIELDS;
    // A few chunks per thread: enough to balance, few enough that little is tokenized and
    // interned twice (each chunk has its own word cache and terms).
    let per = docs
        .len()
        .div_ceil(4 * rayon::current_num_threads())
        .max(MIN_CHUNK_DOCS);
    let chunks: Vec<Chunk> = docs.par_chunks(per).map(tokenize_chunk).collect();
    let n_docs = docs.len();
    let is_section: Vec<bool> = docs.iter().map(|d| d.section).collect();
    drop(docs);
    stages.lap("  index: tokenize");
    let (terms, maps) = merge_terms(&chunks);
    stages.lap("  index: merge terms");

    // Postings by term, then doc (chunks and their docs are in doc order), then field. Each
    // chunk's postings get their global terms and each doc's are grouped by range of terms,
    // with where each range starts in each doc (a doc's postings are sorted by local term,
    // then field, and a chunk's terms map to distinct global ones); then every range of
    // terms is laid out by its own task into its own part of the columns, reading each doc's
    // postings in that range: the same bytes whatever the number of threads or ranges.
    let n_terms = terms.len();
    // At most 256 ranges (a range's number is a byte).
    let ranges = term_ranges(n_terms, (4 * rayon::current_num_threads()).min(256));
    let starts: Vec<u32> = ranges.iter().map(|&(a, _)| a).collect();
    let mut chunks = chunks;
    let bounds: Vec<Vec<u32>> = chunks
        .par_iter_mut()
        .zip(&maps)
        .map(|(ch, map)| {
            let unigrams = ch.terms.len();
            // The chunk's own terms are not needed past here: freed before the columns are.
            (ch.terms, ch.pairs) = (Vec::new(), Vec::new());
            // Each doc's postings with global terms, partitioned by range stably (a term's
            // postings stay together, in field order) and keyed by their place in their
            // range; `bounds[r * docs + i]` is where range `r` starts in doc `i` (range-major,
            // so a range's task reads one row).
            let n = ch.doc_end.len();
            let mut bounds = vec![0u32; ranges.len() * n];
            let mut out: Vec<u32> = Vec::with_capacity(ch.post.len());
            let mut doc: Vec<(u32, u8, u16, u8)> = Vec::new();
            let mut at = vec![0usize; ranges.len()];
            let mut start = 0usize;
            for (i, end) in ch.doc_end.iter_mut().enumerate() {
                doc.clear();
                at.fill(0);
                each_posting(&ch.post[start..*end as usize], |key, f, tf| {
                    let local = if key & 1 != 0 {
                        unigrams + (key >> 1) as usize
                    } else {
                        (key >> 1) as usize
                    };
                    let t = map[local];
                    let r = starts.partition_point(|&a| a <= t) - 1;
                    let key = t - starts[r];
                    at[r] += posting(key, f, tf).1;
                    doc.push((key, f, tf, r as u8));
                });
                start = *end as usize;
                let mut sum = out.len();
                for (r, a) in at.iter_mut().enumerate() {
                    bounds[r * n + i] = sum as u32;
                    (*a, sum) = (sum, sum + *a);
                }
                out.resize(sum, 0);
                for &(key, f, tf, r) in &doc {
                    let a = &mut at[usize::from(r)];
                    let (words, w) = posting(key, f, tf);
                    out[*a..*a + w].copy_from_slice(&words[..w]);
                    *a += w;
                }
                *end = sum as u32;
            }
            ch.post = out;
            bounds
        })
        .collect();
    drop(maps);
    let mut doc_base = Vec::with_capacity(chunks.len());
    let mut d = 0u32;
    for ch in &chunks {
        doc_base.push(d);
        d += ch.doc_end.len() as u32;
    }
    // Per range: postings per term and document frequencies. A term's three counters are
    // side by side (postings, docs, sections): a range's postings visit its terms in no
    // order, and one cache line per posting is what that costs.
    let counted: Vec<Vec<[u32; 3]>> = ranges
        .par_iter()
        .enumerate()
        .map(|(r, &(a, b))| {
            let mut per = vec![[0u32; 3]; (b - a) as usize];
            let mut last = (u32::MAX, u32::MAX);
            postings_in(&chunks, &bounds, &doc_base, r, &starts, |doc, t, _, _| {
                let c = &mut per[(t - a) as usize];
                c[0] += 1;
                if (doc, t) != last {
                    last = (doc, t);
                    c[1] += 1;
                    c[2] += u32::from(is_section[doc as usize]);
                }
            });
            per
        })
        .collect();
    let mut term_start = Vec::with_capacity(n_terms + 1);
    let (mut df_section, mut df_all) = (Vec::with_capacity(n_terms), Vec::with_capacity(n_terms));
    term_start.push(0u32);
    let mut total = 0u32;
    for [count, docs, sections] in counted.into_iter().flatten() {
        total += count;
        term_start.push(total);
        df_all.push(docs);
        df_section.push(sections);
    }
    // Each range's postings laid out by its own task in columns of its own, compressed as a
    // piece of the stream and freed: the postings are never all held uncompressed.
    let pieces: Vec<super::columns::Piece> = ranges
        .par_iter()
        .enumerate()
        .map(|(r, &(a, b))| {
            let base = term_start[a as usize];
            let n = (term_start[b as usize] - base) as usize;
            let (mut pd, mut pf, mut pt) = (vec![0u32; n], vec![0u8; n], vec![0u16; n]);
            let mut cursor: Vec<u32> = term_start[a as usize..b as usize]
                .iter()
                .map(|&s| s - base)
                .collect();
            postings_in(&chunks, &bounds, &doc_base, r, &starts, |doc, t, fd, tf| {
                let slot = &mut cursor[(t - a) as usize];
                let p = *slot as usize;
                *slot += 1;
                pd[p] = doc;
                pf[p] = fd;
                pt[p] = tf;
            });
            super::columns::compress_piece(base as usize, &pd, &pf, &pt)
        })
        .collect();
    let mut field_len = Vec::with_capacity(n_docs * FIELDS);
    for ch in &chunks {
        field_len.extend_from_slice(&ch.field_len);
    }
    drop(chunks);
    let postings = super::columns::join_pieces(pieces);
    stages.lap("  index: postings");
    Built {
        terms,
        term_start,
        postings,
        df_section,
        df_all,
        field_len,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::index::{bigram, FIELDS, F_BODY, F_HEADING};
    use crate::retrieval::tokens::for_each_token;
    use std::collections::BTreeMap;

    /// The build as it was written first: owned term strings in ordered maps, the postings
    /// compressed whole. Also: whether a term frequency saturated.
    fn reference(docs: &[DocFields<'_>]) -> (Built, bool) {
        let mut by_term: BTreeMap<String, Vec<Posting>> = BTreeMap::new();
        let mut field_len = vec![0u32; docs.len() * FIELDS];
        for (d, doc) in docs.iter().enumerate() {
            let Some(f) = &doc.fields else { continue };
            let mut tf: BTreeMap<(String, u8), u16> = BTreeMap::new();
            for (fi, text) in f.iter().enumerate() {
                let mut len = 0u32;
                let mut prev: Option<String> = None;
                let pairs = fi == F_HEADING || fi == F_BODY;
                for_each_token(text, |t, _, whole| {
                    if pairs && !whole {
                        if let Some(p) = prev.replace(t.clone()) {
                            let e = tf.entry((bigram(&p, &t), fi as u8)).or_insert(0);
                            *e = e.saturating_add(1);
                        }
                    }
                    let e = tf.entry((t, fi as u8)).or_insert(0);
                    *e = e.saturating_add(1);
                    len += 1;
                });
                field_len[d * FIELDS + fi] = len;
            }
            for ((t, fi), n) in tf {
                by_term.entry(t).or_default().push((d as u32, fi, n));
            }
        }
        let mut out = Built {
            terms: Strings::default(),
            term_start: vec![0],
            postings: (Vec::new(), Vec::new()),
            df_section: Vec::new(),
            df_all: Vec::new(),
            field_len,
        };
        let (mut post_doc, mut post_field, mut post_tf) = (Vec::new(), Vec::new(), Vec::new());
        for (t, mut ps) in by_term {
            ps.sort_unstable();
            let (mut ds, mut da, mut last) = (0u32, 0u32, u32::MAX);
            for &(d, f, n) in &ps {
                if d != last {
                    da += 1;
                    ds += u32::from(docs[d as usize].section);
                    last = d;
                }
                post_doc.push(d);
                post_field.push(f);
                post_tf.push(n);
            }
            out.terms.push(&[&t]);
            out.term_start.push(post_doc.len() as u32);
            out.df_section.push(ds);
            out.df_all.push(da);
        }
        out.postings = super::super::columns::compress(&post_doc, &post_field, &post_tf);
        (out, post_tf.contains(&u16::MAX))
    }

    fn doc(fields: [&str; FIELDS], section: bool) -> DocFields<'_> {
        DocFields {
            fields: Some(fields.map(Cow::Borrowed)),
            section,
        }
    }

    fn assert_same(a: &Built, b: &Built) {
        assert_eq!(a.terms, b.terms);
        assert_eq!(a.term_start, b.term_start);
        assert_eq!(a.postings, b.postings);
        assert_eq!(a.df_section, b.df_section);
        assert_eq!(a.df_all, b.df_all);
        assert_eq!(a.field_len, b.field_len);
    }

    #[test]
    fn same_terms_and_postings_as_ordered_maps_of_strings() {
        let many = "retry ".repeat(70_000);
        let texts = [
            "How the checkout service retries failed payments: see `src/checkout.rs` and \
             `retry_payment`, with --max-retries=3 or -r/--retry.",
            "Crème brûlée naïve Éclair 日本語 テキスト ÄÖÜ straße STRASSE a-b a_b a.b",
            "retries retried retry RETRY Retrying parseSections HTTPServer snake_case \
             internationalization Internationalizations abcdefghijklmno abcdefghijklmnop",
            "the a an of and to with", // only stopwords
            "",
            "z zz zzz a aa aaa ab a-b ab-c abc abc-d -H -h --hidden -1 a1 a11",
        ];
        let mut docs = Vec::new();
        for i in 0..3000 {
            let t = |k: usize| texts[(i * 7 + k * 3) % texts.len()];
            if i % 13 == 5 {
                docs.push(DocFields {
                    fields: None,
                    section: false,
                });
            } else {
                docs.push(doc([t(0), t(1), t(2), t(3), t(4)], i % 3 != 0));
            }
        }
        docs[1500] = doc(["", "", &many, "", ""], true);
        // Frequencies at and past the largest one a posting's byte holds.
        let (at, past) = ("refund ".repeat(31), "refund cache ".repeat(40));
        docs[1501] = doc(["", &at, &past, "", ""], true);
        let fast = build(docs.clone(), &Default::default());
        let (slow, saturated) = reference(&docs);
        assert!(saturated, "a saturated term frequency");
        assert!(fast.terms.is_strictly_sorted());
        assert_same(&fast, &slow);
    }

    #[test]
    fn posting_words_read_back_at_every_width() {
        let keys = [0, 1, (1 << 24) - 1, 1 << 24, BIGRAM - 1, u32::MAX];
        let mut words = Vec::new();
        let mut expected = Vec::new();
        for &key in &keys {
            for f in 0..FIELDS as u8 {
                for tf in [1, 30, 31, 32, u16::MAX] {
                    put_posting(&mut words, key, f, tf);
                    expected.push((key, f, tf));
                }
            }
        }
        let mut read = Vec::new();
        each_posting(&words, |key, f, tf| read.push((key, f, tf)));
        assert_eq!(read, expected);
        // One word for nearly all: the small keys with small frequencies.
        assert_eq!(posting(3, 2, 30).1, 1);
        assert_eq!(posting(1 << 24, 2, 1).1, 3);
        assert_eq!(posting(3, 2, 31).1, 3);
        let (a, b) = (local_key(5), local_key(BIGRAM | 5));
        assert_eq!((a, b), (10, 11), "a unigram and a bigram of one id differ");
    }

    #[test]
    fn documents_without_terms_build_an_empty_index() {
        let docs = vec![
            doc(["the a an", "", "", "of and", ""], true),
            DocFields {
                fields: None,
                section: false,
            },
            doc(["", "", "", "", ""], false),
        ];
        let built = build(docs.clone(), &Default::default());
        assert_eq!(built.terms.len(), 0);
        assert_eq!(built.term_start, vec![0]);
        assert_same(&built, &reference(&docs).0);
    }

    #[test]
    fn same_layout_whatever_the_number_of_threads() {
        let words = [
            "retry",
            "payment",
            "checkout_service",
            "--max-retries",
            "-H",
            "parseSections",
            "cache",
            "eviction",
            "a/b.rs",
            "Crème",
            "HTTPServer",
            "zz",
            "timeout",
            "refund",
        ];
        // Docs of varied words (a fixed pseudo-random walk), so chunks hold different terms.
        let mut x = 7u64;
        let mut texts = Vec::new();
        for _ in 0..9000 {
            let mut t = String::new();
            for _ in 0..12 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                t.push_str(words[(x >> 33) as usize % words.len()]);
                t.push_str(if x.is_multiple_of(5) { "-x " } else { " " });
            }
            texts.push(t);
        }
        let docs: Vec<DocFields<'_>> = texts
            .iter()
            .enumerate()
            .map(|(i, t)| doc([t, "", t, "", ""], i % 4 != 0))
            .collect();
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool");
            pool.install(|| build(docs.clone(), &Default::default()))
        };
        let one = on(1);
        assert_same(&one, &on(3));
        assert_same(&one, &reference(&docs).0);
    }

    #[test]
    fn short_word_keys_are_distinct_and_only_for_short_words() {
        let words = [
            "",
            "a",
            "a\0",
            "\0a",
            "ab",
            "ba",
            "abcdefghijklmno",
            "abcdefghijklmn",
            "é",
            "e",
            "日本",
            "\0",
            "\0\0",
        ];
        let keys: Vec<u128> = words.iter().map(|w| short_key(w).expect("short")).collect();
        for (i, a) in keys.iter().enumerate() {
            for (j, b) in keys.iter().enumerate() {
                assert_eq!(a == b, i == j, "{:?} {:?}", words[i], words[j]);
            }
        }
        assert_eq!(short_key("abcdefghijklmnop"), None, "16 bytes");
        assert_eq!(short_key("日本語テキスト"), None, "21 bytes");
    }

    #[test]
    fn terms_out_of_order_are_sorted_and_merged() {
        let mut terms = Strings::default();
        for t in ["b", "a b", "a", "a b", "c"] {
            terms.push(&[t]);
        }
        assert!(!terms.is_strictly_sorted());
        let (sorted, maps) = sort_strings(&terms, vec![vec![0, 1, 2, 3, 4]]);
        assert!(sorted.is_strictly_sorted());
        let got: Vec<&str> = (0..sorted.len()).map(|i| sorted.get(i)).collect();
        assert_eq!(got, ["a", "a b", "b", "c"]);
        assert_eq!(maps, vec![vec![2, 1, 0, 1, 3]]);
    }
}
