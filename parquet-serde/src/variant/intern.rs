//! The metadata dictionary a [`VariantEncoder`](super::VariantEncoder) builds as it goes.
//!
//! Two levels of ids:
//! - *global* ids number every name the encoder has seen, across values: the names'
//!   bytes sit in one buffer, found through a small open-addressing hash table (no
//!   allocation per name). The table is emptied between values once it passes
//!   [`MAX_NAMES`] names or [`MAX_BYTES`] bytes, so maps with ever new keys cannot grow it
//!   without bound.
//! - *local* ids are the value's own dictionary, in first-use order: a global id gets its
//!   local id the first time a value uses it (a stamp per global id tells whether it has
//!   one in the current value).
//!
//! Two shortcuts keep the per-field cost low: each name's first 8 bytes are kept as a
//! big-endian number (its *prefix*), which decides most comparisons and settles equality
//! for names of up to 8 bytes without a byte compare; and the `&'static str` names of
//! struct fields are remembered by address, so a struct's fields skip the hash table (a
//! `&'static str` never changes, so equal address and length mean equal text).

use std::cmp::Ordering;

/// Entries of the address cache (256: indexed by the top 8 bits of a hash).
const STATIC_SLOTS: usize = 256;
/// Names kept across values at most.
const MAX_NAMES: usize = 4096;
/// Bytes of names kept across values at most.
const MAX_BYTES: usize = 1 << 16;

/// The names an encoder knows and the dictionary of the value being written.
#[derive(Debug, Clone)]
pub(crate) struct Names {
    /// Every name's bytes, one after another (by global id).
    bytes: Vec<u8>,
    /// End of name `g` in `bytes` (its start is the end before it, or 0).
    ends: Vec<usize>,
    /// The prefix of name `g`.
    prefixes: Vec<u64>,
    /// Open-addressing slots: global id + 1, 0 when empty; the length is a power of two.
    slots: Vec<u32>,
    /// Address cache: (address, length, global id, epoch) of `&'static str` names.
    statics: Vec<(usize, usize, u32, u32)>,
    /// Bumped whenever the global names are emptied (older cache entries are stale).
    epoch: u32,
    /// Bumped whenever the global names are emptied, never wrapping: equal resets and
    /// equal [`order`](Self::order)s mean equal dictionaries.
    resets: u64,
    /// Per global id: its local id, valid when its stamp is the current generation.
    local: Vec<u32>,
    stamp: Vec<u32>,
    /// The current value's generation.
    generation: u32,
    /// Local id to global id: the value's dictionary in order.
    order: Vec<u32>,
    /// Per global id: the global id of the key interned after it last time (`NONE`), and
    /// the last key interned (`START` at a value's start, whose guess is `first`). Maps of
    /// one shape give their keys in one order, so the guess skips the hash table.
    next: Vec<u32>,
    last: u32,
    first: u32,
}

/// No global id.
const NONE: u32 = u32::MAX;

impl Default for Names {
    fn default() -> Names {
        Names {
            bytes: Vec::with_capacity(256),
            ends: Vec::with_capacity(32),
            prefixes: Vec::with_capacity(32),
            slots: vec![0; 64],
            statics: vec![(0, 0, 0, 0); STATIC_SLOTS],
            epoch: 1,
            resets: 0,
            local: Vec::with_capacity(32),
            stamp: Vec::with_capacity(32),
            generation: 1,
            order: Vec::with_capacity(32),
            next: Vec::with_capacity(32),
            last: NONE,
            first: NONE,
        }
    }
}

/// The first 8 bytes of `name`, big-endian, zero-padded: numbers ordered as the names'
/// first 8 bytes are.
#[inline]
fn prefix(name: &[u8]) -> u64 {
    word(name).swap_bytes()
}

/// Up to 8 bytes as a little-endian number, zero-padded (built in registers from at most
/// two overlapping loads: a partial copy into a stack buffer read back whole stalls the
/// load, and a loop per byte is slow for the short names most keys are).
#[inline]
fn word(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    if let Some(w) = bytes.first_chunk::<8>() {
        return u64::from_le_bytes(*w);
    }
    if let (Some(lo), Some(hi)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        // 4 to 7 bytes: the last 4 overlap the first 4 by 8 - n bytes; shifting them up
        // to byte n - 4 puts each byte at its own place (the overlap is the same bytes).
        let lo = u64::from(u32::from_le_bytes(*lo));
        let hi = u64::from(u32::from_le_bytes(*hi));
        return lo | hi << (8 * (n - 4));
    }
    match *bytes {
        [] => 0,
        [a] => u64::from(a),
        [a, b] => u64::from(a) | u64::from(b) << 8,
        [a, b, c, ..] => u64::from(a) | u64::from(b) << 8 | u64::from(c) << 16,
    }
}

/// A multiply-rotate hash (FxHash's mixing) over 8-byte words, the first being the
/// prefix: names are short and come from the caller's own data, so speed matters more
/// than resistance to chosen collisions (a collision costs a probe, never a wrong id:
/// names are compared in full).
#[inline]
fn hash(first: u64, name: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = ((name.len() as u64).rotate_left(5) ^ first).wrapping_mul(K);
    if name.len() > 8 {
        for c in name[8..].chunks(8) {
            h = (h.rotate_left(5) ^ word(c)).wrapping_mul(K);
        }
    }
    // The high bits are the best mixed: fold them down for the slot index.
    h ^ (h >> 32)
}

impl Names {
    /// Starts a new value: an empty dictionary (the global names stay unless too many).
    pub(crate) fn clear(&mut self) {
        self.order.clear();
        self.last = NONE;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Stamps of generation 0 would look current after a wrap: forget them.
            self.stamp.fill(0);
            self.generation = 1;
        }
        if self.ends.len() > MAX_NAMES || self.bytes.len() > MAX_BYTES {
            self.bytes.clear();
            self.ends.clear();
            self.prefixes.clear();
            self.local.clear();
            self.stamp.clear();
            self.next.clear();
            self.first = NONE;
            self.slots = vec![0; 64];
            self.resets += 1;
            self.epoch = self.epoch.wrapping_add(1);
            if self.epoch == 0 {
                self.statics.fill((0, 0, 0, 0));
                self.epoch = 1;
            }
        }
    }

    /// Global name `g`.
    #[inline]
    fn global(&self, g: u32) -> &[u8] {
        let i = g as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.bytes[start..self.ends[i]]
    }

    /// Name `id` of the value's dictionary (ids come from [`intern`](Self::intern)).
    #[inline]
    pub(crate) fn get(&self, id: u32) -> &[u8] {
        self.global(self.order[id as usize])
    }

    /// The prefix of name `id` of the value's dictionary.
    #[inline]
    pub(crate) fn prefix(&self, id: u32) -> u64 {
        self.prefixes[self.order[id as usize] as usize]
    }

    /// The value's dictionary as one run of bytes and the end of each name in it, when
    /// its names are the first global names in global order (then their bytes are
    /// already in place: the usual case of an encoder writing values of one shape).
    pub(crate) fn in_place(&self) -> Option<(&[u8], &[usize])> {
        let n = self.order.len();
        if !self.order.iter().enumerate().all(|(i, &g)| g as usize == i) {
            return None;
        }
        let end = if n == 0 { 0 } else { self.ends[n - 1] };
        Some((&self.bytes[..end], &self.ends[..n]))
    }

    /// The value's dictionary as global ids in local id order, and the count of resets of
    /// the global names (the pair identifies the dictionary: an encoder whose last value
    /// had the same one can keep its metadata bytes).
    pub(crate) fn order(&self) -> (&[u32], u64) {
        (&self.order, self.resets)
    }

    /// Number of names in the value's dictionary.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.order.len()
    }

    /// The order of names `a` and `b` of the value's dictionary whose prefixes are
    /// `pa` and `pb` (unsigned bytes, as the encoding sorts them).
    #[inline]
    pub(crate) fn cmp(&self, (pa, a): (u64, u32), (pb, b): (u64, u32)) -> Ordering {
        match pa.cmp(&pb) {
            Ordering::Equal if a != b => self.get(a).cmp(self.get(b)),
            other => other,
        }
    }

    /// The local id of global id `g`, given the next one when the value has not used it.
    #[inline]
    fn local(&mut self, g: u32) -> u32 {
        let i = g as usize;
        if self.stamp[i] == self.generation {
            return self.local[i];
        }
        let id = self.order.len() as u32;
        self.order.push(g);
        self.stamp[i] = self.generation;
        self.local[i] = id;
        id
    }

    /// The id of a struct field's name: [`intern`](Self::intern) behind the address
    /// cache.
    #[inline]
    pub(crate) fn intern_static(&mut self, name: &'static str) -> u32 {
        let addr = name.as_ptr() as usize;
        let mixed = (addr ^ name.len().rotate_left(48)) as u64;
        let at = (mixed.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as usize;
        let (a, len, g, epoch) = self.statics[at];
        if a == addr && len == name.len() && epoch == self.epoch {
            return self.local(g);
        }
        let g = self.global_id(name);
        self.statics[at] = (addr, name.len(), g, self.epoch);
        self.local(g)
    }

    /// The id of `name` in the value's dictionary, given the next one when it is new.
    #[inline]
    pub(crate) fn intern(&mut self, name: &str) -> u32 {
        let guess = match self.last {
            NONE => self.first,
            l => self.next[l as usize],
        };
        let bytes = name.as_bytes();
        let g = if guess != NONE
            && self.prefixes[guess as usize] == prefix(bytes)
            && self.global(guess).len() == bytes.len()
            && (bytes.len() <= 8 || self.global(guess) == bytes)
        {
            guess
        } else {
            let g = self.global_id(name);
            match self.last {
                NONE => self.first = g,
                l => self.next[l as usize] = g,
            }
            g
        };
        self.last = g;
        self.local(g)
    }

    /// The global id of `name`, given the next one when it is new.
    fn global_id(&mut self, name: &str) -> u32 {
        let bytes = name.as_bytes();
        let first = prefix(bytes);
        let mask = self.slots.len() - 1;
        let mut at = hash(first, bytes) as usize & mask;
        loop {
            match self.slots[at] {
                0 => break,
                s => {
                    let g = s - 1;
                    if self.prefixes[g as usize] == first
                        && self.global(g).len() == bytes.len()
                        && (bytes.len() <= 8 || self.global(g) == bytes)
                    {
                        return g;
                    }
                    at = (at + 1) & mask;
                }
            }
        }
        // New: ids stay far below u32::MAX (each name takes a slot in a table twice the
        // number of names, far more memory than a Vec can hold before ids run out).
        let g = self.ends.len() as u32;
        self.bytes.extend_from_slice(bytes);
        self.ends.push(self.bytes.len());
        self.prefixes.push(first);
        self.local.push(0);
        self.stamp.push(0);
        self.next.push(NONE);
        self.slots[at] = g + 1;
        // Keep the load at most one half.
        if self.ends.len() * 2 > self.slots.len() {
            self.grow();
        }
        g
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let mut slots = vec![0u32; size];
        let mask = size - 1;
        for g in 0..self.ends.len() as u32 {
            let mut at = hash(self.prefixes[g as usize], self.global(g)) as usize & mask;
            while slots[at] != 0 {
                at = (at + 1) & mask;
            }
            slots[at] = g + 1;
        }
        self.slots = slots;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_the_bytes_little_endian() {
        let text = b"abcdefghij";
        for n in 0..=text.len() {
            let mut padded = [0u8; 8];
            let k = n.min(8);
            padded[..k].copy_from_slice(&text[..k]);
            assert_eq!(word(&text[..n]), u64::from_le_bytes(padded), "{n}");
        }
    }

    fn order(n: &Names, a: u32, b: u32) -> Ordering {
        n.cmp((n.prefix(a), a), (n.prefix(b), b))
    }

    #[test]
    fn ids_follow_first_use_and_survive_growth() {
        let mut n = Names::default();
        let names: Vec<String> = (0..1000).map(|i| format!("name{i}")).collect();
        for (i, s) in names.iter().enumerate() {
            assert_eq!(n.intern(s), i as u32);
        }
        for (i, s) in names.iter().enumerate().rev() {
            assert_eq!(n.intern(s), i as u32);
            assert_eq!(n.get(i as u32), s.as_bytes());
        }
        assert_eq!(n.intern(""), 1000);
        assert_eq!(n.intern(""), 1000);
        // Equal prefixes: zero padding, long names that differ after 8 bytes.
        let a = n.intern("a");
        let a0 = n.intern("a\0");
        let long1 = n.intern("abcdefgh1");
        let long2 = n.intern("abcdefgh2");
        assert_ne!(a, a0);
        assert_ne!(long1, long2);
        assert_eq!(n.intern("abcdefgh2"), long2);
        assert_eq!(order(&n, a, a0), Ordering::Less);
        assert_eq!(order(&n, long2, long1), Ordering::Greater);
        assert_eq!(order(&n, long1, long1), Ordering::Equal);
        // A new value: local ids start again, in its own first-use order.
        n.clear();
        assert_eq!(n.len(), 0);
        assert_eq!(n.intern("name5"), 0);
        assert_eq!(n.intern("a"), 1);
        assert_eq!(n.intern("name5"), 0);
        assert_eq!(n.get(1), b"a");
    }

    #[test]
    fn the_address_cache_gives_local_ids() {
        let mut n = Names::default();
        let x: &'static str = "x";
        assert_eq!(n.intern("y"), 0);
        assert_eq!(n.intern_static(x), 1);
        assert_eq!(n.intern_static(x), 1);
        n.clear();
        assert_eq!(n.intern_static(x), 0);
        assert_eq!(n.intern("x"), 0);
        assert_eq!(n.intern("y"), 1);
        // A shorter name at the same address is another name.
        assert_eq!(n.intern_static(&"zw"[..1]), 2);
        assert_eq!(n.intern_static("zw"), 3);
        assert_eq!(n.get(2), b"z");
    }

    #[test]
    fn the_global_names_are_bounded() {
        let mut n = Names::default();
        for v in 0..20 {
            n.clear();
            for i in 0..1000 {
                let name = format!("v{v}k{i}");
                let id = n.intern(&name);
                assert_eq!(n.get(id), name.as_bytes());
            }
            assert!(n.ends.len() <= MAX_NAMES + 1000);
        }
        // A static name cached before an emptying is found again after it.
        n.clear();
        let s: &'static str = "static";
        let id = n.intern_static(s);
        for i in 0..MAX_NAMES + 1 {
            n.intern(&format!("fill{i}"));
        }
        n.clear();
        assert_eq!(n.ends.len(), 0);
        let again = n.intern_static(s);
        assert_eq!((id, again), (0, 0));
        assert_eq!(n.get(again), b"static");
    }
}
