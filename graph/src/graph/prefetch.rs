//! Software prefetch of the heap strings behind nodes and edges, for the passes that read every
//! one of them in id order (the graph hash, the edge endpoints' lookups at assembly and in the
//! search index's links).
//!
//! A built graph's strings were allocated in build order, by size class, and the graph is then
//! sorted by id: a pass in id order reads ~4 million short strings at scattered addresses, and
//! each first read waits for memory (the profile charged the graph hash's serde_json loop with
//! ~0.6 s of such stalls at 100k sections, on its first load of each string's bytes). Asking
//! for the lines of an item a few items ahead lets those reads overlap the work on the current
//! one. A prefetch is only a hint: it changes no result and never faults.

use crate::graph::model::{Edge, Metadata, Node};

/// Asks the cache for the line at `p` and, when `len` spans more, the next one. Any address
/// is allowed (a dangling or unaligned one is ignored by the hardware).
#[inline(always)]
fn lines(p: *const u8, len: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: `prefetcht0` reads nothing the program sees and cannot fault, whatever the
        // address; SSE is part of the x86_64 baseline.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(p.cast());
            if len > 64 {
                _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(64).cast());
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (p, len);
}

/// Asks for the first bytes of `s` (a string a pass will hash or compare).
pub fn str(s: &str) {
    lines(s.as_ptr(), s.len());
}

fn opt(s: Option<&str>) {
    if let Some(s) = s {
        str(s);
    }
}

/// Something whose heap data a pass will read: `far` asks for what the item points at
/// directly, `near` (called later, when `far`'s lines have arrived) for what those point at.
pub(crate) trait Prefetch {
    /// The item's own strings and its metadata's pair buffer.
    fn far(&self);
    /// Its metadata's values (their pointers are in the buffer `far` asked for).
    fn near(&self);
}

fn pairs(m: &Metadata) {
    let p = m.pairs_slice();
    lines(p.as_ptr().cast(), std::mem::size_of_val(p));
}

fn values(m: &Metadata) {
    for v in m.values() {
        str(v);
    }
}

impl Prefetch for Node {
    fn far(&self) {
        str(&self.id);
        str(&self.name);
        opt(self.file.as_deref());
        opt(self.span.as_ref().map(|s| s.file.as_str()));
        opt(self.package.as_deref());
        pairs(&self.metadata);
    }

    fn near(&self) {
        values(&self.metadata);
    }
}

impl Prefetch for Edge {
    fn far(&self) {
        str(&self.id);
        str(&self.from);
        str(&self.to);
        opt(self.origin.as_ref().map(|o| o.file.as_str()));
        pairs(&self.metadata);
    }

    fn near(&self) {
        values(&self.metadata);
    }
}

const FAR: usize = 8;
const NEAR: usize = 4;

/// Calls `f` on each item in order, first calling `far` on the item `FAR` places further and
/// `near` on the one `NEAR` places further (`near` may read what `far` asked for).
fn each_with<'a, T>(
    items: &'a [T],
    far: impl Fn(&'a T),
    near: impl Fn(&'a T),
    mut f: impl FnMut(&'a T),
) {
    for it in items.iter().take(FAR) {
        far(it);
    }
    for it in items.iter().take(NEAR) {
        near(it);
    }
    for (i, it) in items.iter().enumerate() {
        if let Some(a) = items.get(i + FAR) {
            far(a);
        }
        if let Some(a) = items.get(i + NEAR) {
            near(a);
        }
        f(it);
    }
}

/// Calls `f` on each item in order, first calling `ahead` on the item a few places further
/// (`FAR`), so that what `f` reads has arrived when it gets there.
pub fn each_ahead<'a, T>(items: &'a [T], ahead: impl Fn(&'a T), f: impl FnMut(&'a T)) {
    each_with(items, ahead, |_| (), f);
}

/// [`each_with`] with the item's own [`Prefetch`].
pub(crate) fn each<'a, T: Prefetch>(items: &'a [T], f: impl FnMut(&'a T)) {
    each_with(items, T::far, T::near, f);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_is_visited_once_in_order_and_asked_for_ahead() {
        for n in [0usize, 1, 3, FAR, FAR + 1, 100] {
            let items: Vec<usize> = (0..n).collect();
            let mut seen = Vec::new();
            let far = std::cell::RefCell::new(Vec::new());
            let near = std::cell::RefCell::new(Vec::new());
            each_with(
                &items,
                |&x| far.borrow_mut().push(x),
                |&x| near.borrow_mut().push(x),
                |&x| seen.push(x),
            );
            assert_eq!(seen, items);
            // Every item is asked for once by each stage, in order.
            assert_eq!(far.into_inner(), items);
            assert_eq!(near.into_inner(), items);
        }
    }
}
