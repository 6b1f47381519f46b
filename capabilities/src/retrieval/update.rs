//! The index of a graph from the stored index of an earlier graph. After an edit most
//! documents' fields are as they were: only the documents whose fields changed (by their
//! fingerprints, [`super::index::fingerprint`]) are tokenized again, and their postings are
//! merged into the stored ones in one pass over the stored stream. The result is the same
//! terms, postings, frequencies and lengths — the same bytes — as a build from nothing;
//! [`update`] declines (and the caller builds) whenever it cannot be sure of that.

use super::builder::{self, Built, DocFields, Posting};
use super::columns::{compress_piece, join_pieces, Piece, Strings};
use super::index::{Doc, Index, FIELDS};
use ontoly_graph::graph::model::NodeKind;
use std::borrow::Cow;
use std::cmp::Ordering;

/// An update runs when at most one document in this many changed: past it, tokenizing the
/// changed ones on one thread costs about what the parallel build of all of them does.
const MAX_CHANGED_SHARE: usize = 8;

/// Stored postings decoded per read (a read decodes from the start of a run, so reads of a
/// few postings each, one per term, would decode most runs many times).
const WINDOW: usize = 1 << 16;

/// Postings per piece of the new stream: compressed as they come, so the new postings are
/// never all held uncompressed.
const PIECE: usize = 1 << 20;

/// The terms and postings of `docs` (with their `fields` and fingerprints `fps`) from `base`,
/// an index of an earlier graph, and how many documents were tokenized again: `None` when the
/// documents' ids are not in order, too many changed, or a read of `base` failed (a corrupt
/// block, or bytes that do not decode).
pub(super) fn update(
    base: &Index,
    docs: &[Doc],
    fields: &[DocFields<'_>],
    fps: &[u64],
) -> Option<(Built, usize)> {
    let (new_of, changed) = match_docs(base, docs, fps)?;
    if changed.len() * MAX_CHANGED_SHARE > docs.len() {
        return None;
    }
    let again: Vec<DocFields<'_>> = changed
        .iter()
        .map(|&d| fields[d as usize].clone())
        .collect();
    let (fresh, fresh_len) = builder::postings_by_term(&again);
    drop(again);

    let old_len = base.field_lens()?;
    let mut field_len = vec![0u32; docs.len() * FIELDS];
    for (old, &new) in new_of.iter().enumerate() {
        if new != GONE {
            let (o, n) = (old * FIELDS, new as usize * FIELDS);
            field_len[n..n + FIELDS].copy_from_slice(&old_len[o..o + FIELDS]);
        }
    }
    for (k, &d) in changed.iter().enumerate() {
        let n = d as usize * FIELDS;
        field_len[n..n + FIELDS].copy_from_slice(&fresh_len[k * FIELDS..(k + 1) * FIELDS]);
    }

    let is_section: Vec<bool> = docs.iter().map(|d| d.kind == NodeKind::Section).collect();
    let mut out = Out::new(base.term_count() + fresh.len(), &is_section);
    let mut window = Window::default();
    let mut fresh = fresh.into_iter().map(|(t, ps)| {
        // The changed documents' own numbers, from their places among the changed.
        let ps: Vec<Posting> = ps
            .into_iter()
            .map(|(k, f, tf)| (changed[k as usize], f, tf))
            .collect();
        (t, ps)
    });
    let mut next_fresh = fresh.next();
    let mut ok = true;
    let mut kept: Vec<Posting> = Vec::new();
    base.each_term(|term, start, end| {
        // Terms only the changed documents hold, before this one.
        while let Some((t, ps)) = next_fresh.take() {
            if t.as_bytes() < term {
                out.term(&t, &[], &ps);
                next_fresh = fresh.next();
            } else {
                next_fresh = Some((t, ps));
                break;
            }
        }
        let Ok(term) = std::str::from_utf8(term) else {
            ok = false;
            return false;
        };
        let here = match next_fresh.take() {
            Some((t, ps)) if t == term => {
                next_fresh = fresh.next();
                ps
            }
            other => {
                next_fresh = other;
                Vec::new()
            }
        };
        let Some(old) = window.get(base, start as usize, end as usize) else {
            ok = false;
            return false;
        };
        kept.clear();
        kept.extend(old.filter_map(|(d, f, tf)| {
            let n = *new_of.get(d as usize)?;
            (n != GONE).then_some((n, f, tf))
        }));
        out.term(term, &kept, &here);
        true
    })?;
    if !ok {
        return None;
    }
    while let Some((t, ps)) = next_fresh {
        out.term(&t, &[], &ps);
        next_fresh = fresh.next();
    }
    // Every read above gives nothing for a block that fails its sum, and the update declines;
    // the container's flag is checked too, so a read that ever fell back to a default could
    // not slip a damaged base through.
    if base.is_corrupt() {
        return None;
    }
    Some((out.finish(field_len), changed.len()))
}

/// A stored document that is not kept: gone from the graph, or changed.
const GONE: u32 = u32::MAX;

/// For each stored document, its number among `docs` when it is kept (same id, kind and
/// fingerprint) or [`GONE`]; and the documents of `docs` that are not kept (changed or new),
/// in order. `None` when either list of ids is not strictly in order (numbers would then not
/// keep the postings' order) or `base` does not read.
fn match_docs(base: &Index, docs: &[Doc], fps: &[u64]) -> Option<(Vec<u32>, Vec<u32>)> {
    let old = base.doc_ids()?;
    let in_order = |a: &[u8], b: &[u8]| a < b;
    if !old.windows(2).all(|w| in_order(&w[0], &w[1]))
        || !docs
            .windows(2)
            .all(|w| in_order(w[0].id.as_bytes(), w[1].id.as_bytes()))
    {
        return None;
    }
    let mut new_of = vec![GONE; old.len()];
    let mut kept = vec![false; docs.len()];
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < docs.len() {
        match old[i].as_slice().cmp(docs[j].id.as_bytes()) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                if base.fingerprint_of(i)? == fps[j] && base.kind(i as u32) == Some(docs[j].kind) {
                    new_of[i] = j as u32;
                    kept[j] = true;
                }
                i += 1;
                j += 1;
            }
        }
    }
    let changed = (0..docs.len() as u32)
        .filter(|&d| !kept[d as usize])
        .collect();
    Some((new_of, changed))
}

/// The stored postings read in windows of [`WINDOW`], in order.
#[derive(Default)]
struct Window<'a> {
    start: usize,
    doc: Cow<'a, [u32]>,
    field: Cow<'a, [u8]>,
    tf: Cow<'a, [u16]>,
}

impl<'a> Window<'a> {
    /// Postings `a..b` of `base` (`a` at or past the last call's), or `None` when they do not
    /// read.
    fn get(
        &mut self,
        base: &'a Index,
        a: usize,
        b: usize,
    ) -> Option<impl Iterator<Item = Posting> + '_> {
        if a < self.start || b > self.start + self.doc.len() {
            let until = b.max(a + WINDOW).min(base.postings().len());
            (self.doc, self.field, self.tf) = base.postings().range(a, until);
            self.start = a;
            if self.doc.len() != until - a || b > until {
                return None;
            }
        }
        let (i, j) = (a - self.start, b - self.start);
        Some(
            self.doc[i..j]
                .iter()
                .zip(&self.field[i..j])
                .zip(&self.tf[i..j])
                .map(|((&d, &f), &t)| (d, f, t)),
        )
    }
}

/// The new index's terms and postings as they are laid out, term by term.
struct Out<'a> {
    terms: Strings,
    term_start: Vec<u32>,
    df_section: Vec<u32>,
    df_all: Vec<u32>,
    is_section: &'a [bool],
    /// Postings not yet compressed, from posting `at` of the stream.
    doc: Vec<u32>,
    field: Vec<u8>,
    tf: Vec<u16>,
    at: usize,
    pieces: Vec<Piece>,
}

impl<'a> Out<'a> {
    fn new(terms: usize, is_section: &'a [bool]) -> Out<'a> {
        Out {
            terms: Strings::with_capacity(terms, terms * 12),
            term_start: {
                let mut v = Vec::with_capacity(terms + 1);
                v.push(0);
                v
            },
            df_section: Vec::with_capacity(terms),
            df_all: Vec::with_capacity(terms),
            is_section,
            doc: Vec::with_capacity(PIECE),
            field: Vec::with_capacity(PIECE),
            tf: Vec::with_capacity(PIECE),
            at: 0,
            pieces: Vec::new(),
        }
    }

    /// Term `term` with the kept postings `a` and the new ones `b` (each in document, then
    /// field order; no document in both): merged in that order, or nothing when both are
    /// empty (a term no document holds any more).
    fn term(&mut self, term: &str, a: &[Posting], b: &[Posting]) {
        if a.is_empty() && b.is_empty() {
            return;
        }
        let (mut i, mut j) = (0, 0);
        let (mut docs, mut sections, mut last) = (0u32, 0u32, u32::MAX);
        while i < a.len() || j < b.len() {
            let p = if j == b.len() || (i < a.len() && (a[i].0, a[i].1) < (b[j].0, b[j].1)) {
                i += 1;
                a[i - 1]
            } else {
                j += 1;
                b[j - 1]
            };
            if p.0 != last {
                last = p.0;
                docs += 1;
                sections += u32::from(self.is_section[p.0 as usize]);
            }
            self.doc.push(p.0);
            self.field.push(p.1);
            self.tf.push(p.2);
        }
        self.terms.push(&[term]);
        let total = self.at + self.doc.len();
        self.term_start.push(total as u32);
        self.df_all.push(docs);
        self.df_section.push(sections);
        if self.doc.len() >= PIECE {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if !self.doc.is_empty() {
            self.pieces
                .push(compress_piece(self.at, &self.doc, &self.field, &self.tf));
            self.at += self.doc.len();
            self.doc.clear();
            self.field.clear();
            self.tf.clear();
        }
    }

    fn finish(mut self, field_len: Vec<u32>) -> Built {
        self.flush();
        Built {
            terms: self.terms,
            term_start: self.term_start,
            postings: join_pieces(self.pieces),
            df_section: self.df_section,
            df_all: self.df_all,
            field_len,
        }
    }
}
