//! Sorting an object's fields by name for the [`VariantEncoder`](super::VariantEncoder):
//! values of one shape give their fields in one order, so the order found for a sequence
//! of name prefixes is remembered and applied again without comparing.

/// A field being written: name prefix, field id, member offset.
pub(crate) type Entry = (u64, u32, usize);

/// Remembered shapes (64: indexed by the top 6 bits of a hash).
const SLOTS: usize = 64;
/// Objects with more fields are sorted each time (the memory kept stays small).
const MAX_FIELDS: usize = 64;

/// The remembered orders and room to sort in.
#[derive(Debug, Clone, Default)]
pub(crate) struct Sorter {
    /// Per slot: the prefixes in written order, and the written positions in sorted order.
    memo: Vec<(Vec<u64>, Vec<u32>)>,
    keys: Vec<(u64, u32)>,
    moved: Vec<Entry>,
}

impl Sorter {
    /// Sorts `fields` by prefix when their prefixes are all distinct (then the prefixes
    /// alone give the names' order) and there are at most [`MAX_FIELDS`]; returns `false`,
    /// leaving them as they are, otherwise.
    pub(crate) fn sort(&mut self, fields: &mut [Entry]) -> bool {
        if fields.len() > MAX_FIELDS {
            return false;
        }
        if self.memo.is_empty() {
            self.memo = vec![(Vec::new(), Vec::new()); SLOTS];
        }
        let mut h = fields.len() as u64;
        for f in fields.iter() {
            h = (h.rotate_left(5) ^ f.0).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
        let slot = (h >> 58) as usize & (SLOTS - 1);
        let (key, _) = &self.memo[slot];
        let seen =
            key.len() == fields.len() && key.iter().zip(fields.iter()).all(|(k, f)| *k == f.0);
        if !seen {
            self.keys.clear();
            self.keys
                .extend(fields.iter().enumerate().map(|(i, f)| (f.0, i as u32)));
            self.keys.sort_unstable();
            if self.keys.windows(2).any(|w| w[0].0 == w[1].0) {
                return false;
            }
            let (key, perm) = &mut self.memo[slot];
            key.clear();
            key.extend(fields.iter().map(|f| f.0));
            perm.clear();
            perm.extend(self.keys.iter().map(|k| k.1));
        }
        // Positions below `fields.len()`: the key matched its length.
        let perm = &self.memo[slot].1;
        self.moved.clear();
        self.moved.extend(perm.iter().map(|&i| fields[i as usize]));
        fields.copy_from_slice(&self.moved);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_are_found_then_remembered() {
        let mut s = Sorter::default();
        let mut f = vec![(5, 0, 0), (1, 1, 10), (3, 2, 20)];
        for _ in 0..2 {
            let mut g = f.clone();
            assert!(s.sort(&mut g));
            assert_eq!(g, [(1, 1, 10), (3, 2, 20), (5, 0, 0)]);
        }
        // Same prefixes, other ids and offsets: the same order applies to them.
        f = vec![(5, 7, 1), (1, 8, 2), (3, 9, 3)];
        assert!(s.sort(&mut f));
        assert_eq!(f, [(1, 8, 2), (3, 9, 3), (5, 7, 1)]);
        // Equal prefixes are left to the caller.
        let mut tie = vec![(2, 0, 0), (2, 1, 5)];
        assert!(!s.sort(&mut tie));
        assert_eq!(tie, [(2, 0, 0), (2, 1, 5)]);
        let mut big: Vec<Entry> = (0..100).rev().map(|i| (i, i as u32, 0)).collect();
        assert!(!s.sort(&mut big));
    }
}
