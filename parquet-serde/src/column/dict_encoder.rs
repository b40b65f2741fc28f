//! Dictionary building while writing: interns values and hands out their indices.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use twox_hash::XxHash3_64;

use crate::values::{ColumnValues, Int96};

const NONE: u32 = u32::MAX;

#[inline]
fn mix(x: u64) -> u64 {
    // A multiply-xorshift finalizer: spreads integer keys over the table.
    let x = (x ^ (x >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^ (x >> 33)
}

/// The distinct values of a column chunk in first-seen order, with a hash index.
#[derive(Debug)]
pub(crate) struct DictEncoder {
    values: ColumnValues,
    heads: HashMap<u64, u32, BuildHasherDefault<KeyIsHash>>,
    chain: Vec<u32>,
    plain_bytes: usize,
}

/// A hasher for keys that already are hashes.
#[derive(Default, Debug)]
struct KeyIsHash(u64);

impl Hasher for KeyIsHash {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys are hashed here; fold anything else in for completeness.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

impl DictEncoder {
    /// An empty dictionary holding values like `empty` (an empty container of the column's type).
    pub fn new(empty: ColumnValues) -> Self {
        DictEncoder {
            values: empty,
            heads: HashMap::default(),
            chain: Vec::new(),
            plain_bytes: 0,
        }
    }

    /// Number of distinct values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Size of the dictionary page once PLAIN encoded.
    pub fn plain_bytes(&self) -> usize {
        self.plain_bytes
    }

    /// The distinct values.
    pub fn values(&self) -> &ColumnValues {
        &self.values
    }

    /// Interns `src[range]`, appending each value's index to `out`.
    pub fn intern(
        &mut self,
        src: &ColumnValues,
        range: std::ops::Range<usize>,
        out: &mut Vec<u32>,
    ) {
        out.reserve(range.len());
        match src {
            ColumnValues::Boolean(v) => {
                for &x in &v[range] {
                    out.push(self.intern_fixed(x as u64, |d| push_as(d, x)));
                }
            }
            ColumnValues::Int32(v) => {
                for &x in &v[range] {
                    out.push(self.intern_fixed(x as u32 as u64, |d| push_as(d, x)));
                }
            }
            ColumnValues::Int64(v) => {
                for &x in &v[range] {
                    out.push(self.intern_fixed(x as u64, |d| push_as(d, x)));
                }
            }
            ColumnValues::Float(v) => {
                for &x in &v[range] {
                    out.push(self.intern_fixed(x.to_bits() as u64, |d| push_as(d, x)));
                }
            }
            ColumnValues::Double(v) => {
                for &x in &v[range] {
                    out.push(self.intern_fixed(x.to_bits(), |d| push_as(d, x)));
                }
            }
            ColumnValues::Int96(v) => {
                for &x in &v[range] {
                    let key = (x.0[0] as u64 | (x.0[1] as u64) << 32) ^ mix(x.0[2] as u64);
                    out.push(self.intern_int96(key, x));
                }
            }
            ColumnValues::ByteArray(v) => {
                for i in range {
                    out.push(self.intern_bytes(v.get(i)));
                }
            }
            ColumnValues::FixedLenByteArray(v) => {
                for i in range {
                    out.push(self.intern_bytes(v.get(i)));
                }
            }
        }
    }

    /// Interns a fixed-width value whose bits are `key` (equal bits = equal value).
    #[inline]
    fn intern_fixed(&mut self, key: u64, push: impl FnOnce(&mut ColumnValues)) -> u32 {
        let hash = mix(key);
        let mut i = self.heads.get(&hash).copied().unwrap_or(NONE);
        while i != NONE {
            if self.key_at(i as usize) == key {
                return i;
            }
            i = self.chain[i as usize];
        }
        self.insert(hash, push)
    }

    fn intern_int96(&mut self, hash: u64, x: Int96) -> u32 {
        let hash = mix(hash);
        let mut i = self.heads.get(&hash).copied().unwrap_or(NONE);
        while i != NONE {
            if let ColumnValues::Int96(d) = &self.values {
                if d[i as usize] == x {
                    return i;
                }
            }
            i = self.chain[i as usize];
        }
        self.insert(hash, |d| push_as(d, x))
    }

    fn intern_bytes(&mut self, x: &[u8]) -> u32 {
        let hash = XxHash3_64::oneshot(x);
        let mut i = self.heads.get(&hash).copied().unwrap_or(NONE);
        while i != NONE {
            let same = match &self.values {
                ColumnValues::ByteArray(d) => d.get(i as usize) == x,
                ColumnValues::FixedLenByteArray(d) => d.get(i as usize) == x,
                _ => false,
            };
            if same {
                return i;
            }
            i = self.chain[i as usize];
        }
        self.insert(hash, |d| match d {
            ColumnValues::ByteArray(d) => d.push(x),
            ColumnValues::FixedLenByteArray(d) => d.push(x),
            _ => {}
        })
    }

    fn insert(&mut self, hash: u64, push: impl FnOnce(&mut ColumnValues)) -> u32 {
        let index = self.values.len() as u32;
        let before = value_bytes(&self.values);
        push(&mut self.values);
        self.plain_bytes += value_bytes(&self.values) - before;
        let head = self.heads.insert(hash, index).unwrap_or(NONE);
        self.chain.push(head);
        index
    }

    fn key_at(&self, i: usize) -> u64 {
        match &self.values {
            ColumnValues::Boolean(d) => d[i] as u64,
            ColumnValues::Int32(d) => d[i] as u32 as u64,
            ColumnValues::Int64(d) => d[i] as u64,
            ColumnValues::Float(d) => d[i].to_bits() as u64,
            ColumnValues::Double(d) => d[i].to_bits(),
            _ => u64::MAX,
        }
    }
}

/// PLAIN-encoded size of the values (booleans counted as a byte each, an upper bound).
pub(crate) fn value_bytes(values: &ColumnValues) -> usize {
    match values {
        ColumnValues::Boolean(v) => v.len(),
        ColumnValues::Int32(v) => v.len() * 4,
        ColumnValues::Float(v) => v.len() * 4,
        ColumnValues::Int64(v) => v.len() * 8,
        ColumnValues::Double(v) => v.len() * 8,
        ColumnValues::Int96(v) => v.len() * 12,
        ColumnValues::ByteArray(v) => v.data.len() + 4 * v.len(),
        ColumnValues::FixedLenByteArray(v) => v.data.len(),
    }
}

trait PushAs<T> {
    fn push_as(&mut self, x: T);
}

macro_rules! push_as_impl {
    ($t:ty, $variant:ident) => {
        impl PushAs<$t> for ColumnValues {
            fn push_as(&mut self, x: $t) {
                if let ColumnValues::$variant(v) = self {
                    v.push(x);
                }
            }
        }
    };
}
push_as_impl!(bool, Boolean);
push_as_impl!(i32, Int32);
push_as_impl!(i64, Int64);
push_as_impl!(f32, Float);
push_as_impl!(f64, Double);
push_as_impl!(Int96, Int96);

fn push_as<T>(d: &mut ColumnValues, x: T)
where
    ColumnValues: PushAs<T>,
{
    d.push_as(x);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::ByteArrays;

    #[test]
    fn interns_ints_and_bytes() {
        let mut d = DictEncoder::new(ColumnValues::Int64(vec![]));
        let mut idx = vec![];
        d.intern(&ColumnValues::Int64(vec![5, 7, 5, -1, 7]), 0..5, &mut idx);
        assert_eq!(idx, vec![0, 1, 0, 2, 1]);
        assert_eq!(d.values(), &ColumnValues::Int64(vec![5, 7, -1]));
        assert_eq!(d.plain_bytes(), 24);

        let mut d = DictEncoder::new(ColumnValues::ByteArray(ByteArrays::new()));
        let mut src = ByteArrays::new();
        for s in ["a", "", "bb", "a", ""] {
            src.push(s.as_bytes());
        }
        let mut idx = vec![];
        d.intern(&ColumnValues::ByteArray(src), 1..5, &mut idx);
        assert_eq!(idx, vec![0, 1, 2, 0]);
        assert_eq!(d.plain_bytes(), 4 + 6 + 5);
    }

    #[test]
    fn float_bits_distinguish_zeros() {
        let mut d = DictEncoder::new(ColumnValues::Double(vec![]));
        let mut idx = vec![];
        d.intern(
            &ColumnValues::Double(vec![0.0, -0.0, f64::NAN, f64::NAN]),
            0..4,
            &mut idx,
        );
        assert_eq!(idx, vec![0, 1, 2, 2]);
    }
}
