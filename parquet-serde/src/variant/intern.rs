//! The metadata dictionary a [`VariantEncoder`](super::VariantEncoder) builds as it goes:
//! names get ids in first-use order, found again through a small open-addressing table over
//! the names' own bytes (no allocation per name; cleared, not freed, between values).

/// Names in id order, their bytes in one buffer, and a hash table from name to id.
#[derive(Debug, Default, Clone)]
pub(crate) struct Names {
    /// Every name's bytes, one after another.
    bytes: Vec<u8>,
    /// End of name `i` in `bytes` (its start is the end before it, or 0).
    ends: Vec<usize>,
    /// Open-addressing slots: id + 1, 0 when empty; the length is a power of two.
    slots: Vec<u32>,
}

/// A multiply-rotate hash (FxHash's mixing) over 8-byte words: names are short and come
/// from the caller's own data, so speed matters more than resistance to chosen collisions
/// (a collision costs a probe, never a wrong id: names are compared byte for byte).
#[inline]
fn hash(name: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = name.len() as u64;
    let mut chunks = name.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
    }
    // The high bits are the best mixed: fold them down for the slot index.
    h ^ (h >> 29)
}

impl Names {
    /// Forgets every name (keeps the buffers).
    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
        self.ends.clear();
        self.slots.fill(0);
    }

    /// Name `id` (ids come from [`intern`](Self::intern), so they are in range).
    #[inline]
    pub(crate) fn get(&self, id: u32) -> &[u8] {
        let i = id as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.bytes[start..self.ends[i]]
    }

    /// Every name's bytes, one after another, and the end of each.
    pub(crate) fn parts(&self) -> (&[u8], &[usize]) {
        (&self.bytes, &self.ends)
    }

    /// The id of `name`, given the next one when it is new.
    #[inline]
    pub(crate) fn intern(&mut self, name: &str) -> u32 {
        if self.slots.is_empty() {
            self.slots = vec![0; 64];
        }
        let mask = self.slots.len() - 1;
        let mut at = hash(name.as_bytes()) as usize & mask;
        loop {
            match self.slots[at] {
                0 => break,
                s => {
                    if self.get(s - 1) == name.as_bytes() {
                        return s - 1;
                    }
                    at = (at + 1) & mask;
                }
            }
        }
        // New: at most u32::MAX - 1 names (each takes a slot, and the table would need more
        // memory than a Vec can hold long before that).
        let id = self.ends.len() as u32;
        self.bytes.extend_from_slice(name.as_bytes());
        self.ends.push(self.bytes.len());
        self.slots[at] = id + 1;
        // Keep the load at most one half.
        if self.ends.len() * 2 > self.slots.len() {
            self.grow();
        }
        id
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let mut slots = vec![0u32; size];
        let mask = size - 1;
        for id in 0..self.ends.len() as u32 {
            let mut at = hash(self.get(id)) as usize & mask;
            while slots[at] != 0 {
                at = (at + 1) & mask;
            }
            slots[at] = id + 1;
        }
        self.slots = slots;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        n.clear();
        assert!(n.parts().1.is_empty());
        assert_eq!(n.intern("name5"), 0);
    }
}
