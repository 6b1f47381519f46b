//! A fast, fixed hasher for in-process maps of strings and small integers whose iteration
//! order never reaches an output (FxHash: a rotate, xor and multiply per 8 bytes). Std's
//! SipHash, or FNV's multiply per byte, cost more than the rest of a lookup on ids of 40–100
//! bytes; the build makes millions of such lookups.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// The hasher (unseeded: the same on every run, so timings repeat; nothing may depend on a
/// map's iteration order).
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w) ^ (rest.len() as u64) << 59);
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` with [`FxHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// A `HashSet` with [`FxHasher`].
pub type FastSet<K> = HashSet<K, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn h<T: Hash>(t: T) -> u64 {
        BuildHasherDefault::<FxHasher>::default().hash_one(t)
    }

    #[test]
    fn equal_keys_hash_alike_and_near_keys_apart() {
        assert_eq!(h("section:a.md#x"), h(String::from("section:a.md#x")));
        // Lengths and tails that differ only past a multiple of 8 bytes still differ.
        let keys = [
            "",
            "a",
            "a\0",
            "abcdefgh",
            "abcdefgh\0",
            "abcdefghi",
            "abcdefgi",
        ];
        let hashes: FastSet<u64> = keys.iter().map(h).collect();
        assert_eq!(hashes.len(), keys.len());
        let m: FastMap<(u32, u32), u32> = (0..1000).map(|i| ((i, i + 1), i)).collect();
        assert_eq!(m.get(&(500, 501)), Some(&500));
    }
}
