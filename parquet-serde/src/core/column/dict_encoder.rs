//! Dictionary building while writing: interns values and hands out their indices.
//!
//! An open-addressing table of entry indices (linear probing, at most half full) keyed by a
//! hash: a multiply-xorshift of the bits for fixed-width values and short byte strings, XXH3
//! for longer ones. Slots keep part of the hash beside the index, so that probes rarely look
//! at entries that differ. Each physical type runs its own loop over the values.

use twox_hash::XxHash3_64;

use crate::core::values::{ByteArrays, ColumnValues, FixedLenByteArrays, Int96};

#[inline]
fn mix(x: u64) -> u64 {
    // A multiply-xorshift finalizer: spreads integer keys over the table.
    let x = (x ^ (x >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^ (x >> 33)
}

/// The words of a byte string of up to 16 bytes, from overlapping loads: with its length
/// they are the string itself (the common case of dictionary columns: levels, names, short
/// keys). `None` for longer strings.
#[inline(always)]
fn short_words(x: &[u8]) -> Option<(u64, u64)> {
    let n = x.len();
    Some(match n {
        0 => (0, 0),
        1..=3 => {
            let v = u64::from(x[0]) | u64::from(x[n / 2]) << 8 | u64::from(x[n - 1]) << 16;
            (v, 0)
        }
        4..=8 => (
            u64::from(u32::from_le_bytes(*x.first_chunk()?)),
            u64::from(u32::from_le_bytes(*x.last_chunk()?)),
        ),
        9..=16 => (
            u64::from_le_bytes(*x.first_chunk()?),
            u64::from_le_bytes(*x.last_chunk()?),
        ),
        _ => return None,
    })
}

/// A short string as [`short_words`] and its length: equal keys, equal strings. Entries
/// longer than 16 bytes have the key [`LONG`].
type ShortKey = (u64, u64, usize);

/// The [`ShortKey`] of a dictionary entry longer than 16 bytes (no short string has it).
const LONG: ShortKey = (0, 0, usize::MAX);

/// Hash of a short string from its words and length.
#[inline(always)]
fn hash_short(a: u64, b: u64, n: usize) -> u64 {
    mix(a ^ mix(b ^ (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)))
}

/// Hash of a string longer than 16 bytes: up to 32 bytes from four overlapping words (the
/// first and last two folded before the final mix: module targets, URL paths), longer ones
/// with XXH3.
#[inline(always)]
fn hash_long(x: &[u8]) -> u64 {
    match (x.len(), x.first_chunk::<16>(), x.last_chunk::<16>()) {
        (17..=32, Some(head), Some(tail)) => {
            let (h0, h1) = head.split_at(8);
            let (t0, t1) = tail.split_at(8);
            let word = |w: &[u8]| w.try_into().map_or(0, u64::from_le_bytes);
            hash_short(word(h0) ^ mix(word(h1)), word(t1) ^ mix(word(t0)), x.len())
        }
        _ => XxHash3_64::oneshot(x),
    }
}

/// Hash of any byte string (short ones as [`hash_short`]).
#[inline(always)]
fn hash_bytes(x: &[u8]) -> u64 {
    match short_words(x) {
        Some((a, b)) => hash_short(a, b, x.len()),
        None => hash_long(x),
    }
}

/// Whether two byte strings are equal; short ones compared by their words.
#[inline(always)]
fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    match (short_words(a), short_words(b)) {
        (Some(x), Some(y)) => x == y,
        _ => long_eq(a, b),
    }
}

/// Whether two byte strings of the same length above 16 bytes are equal: up to 32 bytes
/// by their first and last 16 (no call to `memcmp`).
#[inline(always)]
fn long_eq(a: &[u8], b: &[u8]) -> bool {
    match (a.len(), a.first_chunk::<16>(), b.first_chunk::<16>()) {
        (17..=32, Some(ha), Some(hb)) => ha == hb && a.last_chunk::<16>() == b.last_chunk::<16>(),
        _ => a == b,
    }
}

/// Slots of a new table (a power of two).
const INITIAL_SLOTS: usize = 64;

/// The open-addressing table. A slot is 0 when free, else an entry's index plus one (low 32
/// bits) under the high 32 bits of the entry's hash (its tag): probes compare tags before
/// looking at entries, and the table grows from the tags alone. The tag also picks the
/// home slot.
#[derive(Debug)]
struct Table {
    slots: Vec<u64>,
    mask: usize,
    len: usize,
}

impl Table {
    fn new() -> Self {
        Table {
            slots: vec![0; INITIAL_SLOTS],
            mask: INITIAL_SLOTS - 1,
            len: 0,
        }
    }

    /// The entry with hash `hash` for which `same(index)` holds, or the free slot where it
    /// goes.
    #[inline(always)]
    fn find(&self, hash: u64, mut same: impl FnMut(usize) -> bool) -> Result<u32, usize> {
        let tag = hash >> 32;
        let mut pos = tag as usize & self.mask;
        loop {
            let slot = self.slots[pos];
            if slot == 0 {
                return Err(pos);
            }
            // A used slot holds index + 1 >= 1 in its low bits.
            let index = (slot as u32).wrapping_sub(1);
            if slot >> 32 == tag && same(index as usize) {
                return Ok(index);
            }
            pos = (pos + 1) & self.mask;
        }
    }

    /// The index of the entry of `dict` with hash `hash` for which `same` holds; else
    /// `add` appends it to `dict` (returning its index), and it is recorded.
    #[inline(always)]
    fn find_or_add<D: ?Sized>(
        &mut self,
        dict: &mut D,
        hash: u64,
        mut same: impl FnMut(&D, usize) -> bool,
        add: impl FnOnce(&mut D) -> usize,
    ) -> u32 {
        match self.find(hash, |i| same(dict, i)) {
            Ok(index) => index,
            Err(pos) => {
                let index = add(dict);
                self.insert_at(pos, hash, index);
                index as u32
            }
        }
    }

    /// Records entry `index` with hash `hash` at the free slot `pos` (from `find`); grows
    /// the table once it is half full.
    #[inline]
    fn insert_at(&mut self, pos: usize, hash: u64, index: usize) {
        // Dictionaries stay far below u32::MAX entries: the writer falls back to PLAIN once
        // the dictionary page passes its size limit (at most i32::MAX bytes).
        self.slots[pos] = (hash >> 32) << 32 | (index as u64 + 1);
        self.len += 1;
        if self.len * 2 > self.slots.len() {
            self.grow();
        }
    }

    #[cold]
    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        self.mask = size - 1;
        for slot in old.into_iter().filter(|&s| s != 0) {
            let mut pos = (slot >> 32) as usize & self.mask;
            while self.slots[pos] != 0 {
                pos = (pos + 1) & self.mask;
            }
            self.slots[pos] = slot;
        }
    }
}

/// The distinct values of a column chunk in first-seen order, with a hash index.
#[derive(Debug)]
pub(crate) struct DictEncoder {
    values: ColumnValues,
    table: Table,
    plain_bytes: usize,
    /// For a BYTE_ARRAY dictionary, each entry's [`ShortKey`]: a short value is found by
    /// comparing keys, without reading the entries' offsets and bytes.
    short: Vec<ShortKey>,
}

impl DictEncoder {
    /// An empty dictionary holding values like `empty` (an empty container of the column's type).
    pub fn new(empty: ColumnValues) -> Self {
        DictEncoder {
            values: empty,
            table: Table::new(),
            plain_bytes: 0,
            short: Vec::new(),
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

    /// Interns `src[range]`, appending each value's index to `out`. `src` has the
    /// dictionary's physical type (other values are ignored).
    pub fn intern(
        &mut self,
        src: &ColumnValues,
        range: std::ops::Range<usize>,
        out: &mut Vec<u32>,
    ) {
        out.reserve(range.len());
        let table = &mut self.table;
        let plain = &mut self.plain_bytes;
        let short = &mut self.short;
        match (&mut self.values, src) {
            (ColumnValues::Boolean(d), ColumnValues::Boolean(v)) => {
                *plain += intern_fixed(table, d, &v[range], out, |x| x as u64, mix, 1);
            }
            (ColumnValues::Int32(d), ColumnValues::Int32(v)) => {
                *plain += intern_fixed(table, d, &v[range], out, |x| x as u32 as u64, mix, 4);
            }
            (ColumnValues::Int64(d), ColumnValues::Int64(v)) => {
                *plain += intern_fixed(table, d, &v[range], out, |x| x as u64, mix, 8);
            }
            (ColumnValues::Float(d), ColumnValues::Float(v)) => {
                *plain += intern_fixed(table, d, &v[range], out, |x| x.to_bits() as u64, mix, 4);
            }
            (ColumnValues::Double(d), ColumnValues::Double(v)) => {
                *plain += intern_fixed(table, d, &v[range], out, f64::to_bits, mix, 8);
            }
            (ColumnValues::Int96(d), ColumnValues::Int96(v)) => {
                *plain += intern_fixed(table, d, &v[range], out, |x| x, int96_hash, 12);
            }
            (ColumnValues::ByteArray(d), ColumnValues::ByteArray(v)) => {
                *plain += intern_bytes(table, d, short, v, range, out);
            }
            (ColumnValues::FixedLenByteArray(d), ColumnValues::FixedLenByteArray(v)) => {
                *plain += intern_fixed_bytes(table, d, v, range, out);
            }
            _ => debug_assert!(false, "interning values of another physical type"),
        }
    }
}

/// The dictionary entries the page being filled refers to, in the order the page first uses
/// them. A page's min and max are those of these entries: a few comparisons per page instead
/// of one per value (a `level` column has 5 entries for a million values).
#[derive(Debug)]
pub(crate) struct PageEntries {
    /// Per dictionary entry, the number of the last page that used it.
    stamps: Vec<u32>,
    /// Number of the page being filled (from 1: a stamp of 0 is no page).
    page: u32,
    /// Entries the page uses that were not folded into its statistics yet.
    used: Vec<u32>,
}

impl Default for PageEntries {
    fn default() -> Self {
        PageEntries {
            stamps: Vec::new(),
            page: 1,
            used: Vec::new(),
        }
    }
}

impl PageEntries {
    /// Notes the entries `indices` (into a dictionary of `dict_len` entries) refer to: per
    /// index one load and compare, a store only for an entry new to the page.
    #[inline]
    pub fn note(&mut self, indices: &[u32], dict_len: usize) {
        if self.stamps.len() < dict_len {
            self.stamps.resize(dict_len, 0);
        }
        let page = self.page;
        for &i in indices {
            let stamp = &mut self.stamps[i as usize];
            if *stamp != page {
                *stamp = page;
                self.used.push(i);
            }
        }
    }

    /// Entries noted and not yet [`folded`](Self::folded), in first-use order.
    pub fn used(&self) -> &[u32] {
        &self.used
    }

    /// The entries in [`used`](Self::used) are in the page's statistics: forget them (later
    /// uses in the same page are not noted again).
    pub fn folded(&mut self) {
        self.used.clear();
    }

    /// Starts the next page.
    pub fn next_page(&mut self) {
        self.used.clear();
        self.page = self.page.wrapping_add(1);
        if self.page == 0 {
            // After 2^32 - 1 pages the numbers come round: old stamps must not match.
            self.stamps.fill(0);
            self.page = 1;
        }
    }
}

/// Interns fixed-width values compared by `key(x)` (equal keys: equal values; for floats,
/// their bits) and hashed by `hash(key)`; each new entry adds `width` PLAIN bytes. Returns
/// the PLAIN bytes added.
#[inline]
fn intern_fixed<T: Copy, K: PartialEq + Copy>(
    table: &mut Table,
    dict: &mut Vec<T>,
    src: &[T],
    out: &mut Vec<u32>,
    key: impl Fn(T) -> K + Copy,
    hash: impl Fn(K) -> u64,
    width: usize,
) -> usize {
    let before = dict.len();
    for &x in src {
        let k = key(x);
        let index = table.find_or_add(
            dict,
            hash(k),
            |d, i| key(d[i]) == k,
            |d| {
                d.push(x);
                d.len() - 1
            },
        );
        out.push(index);
    }
    (dict.len() - before) * width
}

fn int96_hash(x: Int96) -> u64 {
    mix((x.0[0] as u64 | (x.0[1] as u64) << 32) ^ mix(x.0[2] as u64))
}

fn intern_bytes(
    table: &mut Table,
    dict: &mut ByteArrays,
    short: &mut Vec<ShortKey>,
    src: &ByteArrays,
    range: std::ops::Range<usize>,
    out: &mut Vec<u32>,
) -> usize {
    let before = dict.data.len() + 4 * dict.len();
    let mut both = (dict, short);
    for w in src.offsets[range.start..=range.end].windows(2) {
        let x = &src.data[w[0]..w[1]];
        let add = |(d, s): &mut (&mut ByteArrays, &mut Vec<ShortKey>), key: ShortKey| {
            d.push(x);
            s.push(key);
            d.len() - 1
        };
        let index = match short_words(x) {
            Some((a, b)) => {
                let key = (a, b, x.len());
                table.find_or_add(
                    &mut both,
                    hash_short(a, b, x.len()),
                    |(_, s), i| s.get(i) == Some(&key),
                    |d| add(d, key),
                )
            }
            None => table.find_or_add(
                &mut both,
                hash_long(x),
                |(d, s), i| {
                    s.get(i) == Some(&LONG) && {
                        let e = d.get(i);
                        e.len() == x.len() && long_eq(e, x)
                    }
                },
                |d| add(d, LONG),
            ),
        };
        out.push(index);
    }
    let dict = both.0;
    dict.data.len() + 4 * dict.len() - before
}

fn intern_fixed_bytes(
    table: &mut Table,
    dict: &mut FixedLenByteArrays,
    src: &FixedLenByteArrays,
    range: std::ops::Range<usize>,
    out: &mut Vec<u32>,
) -> usize {
    let before = dict.data.len();
    let width = src.width;
    for i in range {
        let x = src.get(i);
        let index = table.find_or_add(
            dict,
            hash_bytes(x),
            |d, j| bytes_eq(&d.data[j * width..(j + 1) * width], x),
            |d| {
                let index = d.data.len() / width.max(1);
                d.data.extend_from_slice(x);
                index
            },
        );
        out.push(index);
    }
    dict.data.len() - before
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// Indices a naive map gives, and the PLAIN size of the distinct values.
    fn naive(values: &[Vec<u8>]) -> (Vec<u32>, usize) {
        let mut seen = HashMap::new();
        let mut plain = 0;
        let idx = values
            .iter()
            .map(|v| {
                let n = seen.len() as u32;
                *seen.entry(v.clone()).or_insert_with(|| {
                    plain += 4 + v.len();
                    n
                })
            })
            .collect();
        (idx, plain)
    }

    proptest! {
        #[test]
        fn bytes_agree_with_a_map(values in proptest::collection::vec(
            proptest::collection::vec(0u8..4, 0..5), 0..400), split in 0usize..400) {
            let mut src = ByteArrays::new();
            for v in &values {
                src.push(v);
            }
            let src = ColumnValues::ByteArray(src);
            let split = split.min(values.len());
            let mut d = DictEncoder::new(ColumnValues::ByteArray(ByteArrays::new()));
            let mut idx = vec![];
            d.intern(&src, 0..split, &mut idx);
            d.intern(&src, split..values.len(), &mut idx);
            let (want, plain) = naive(&values);
            prop_assert_eq!(idx, want);
            prop_assert_eq!(d.plain_bytes(), plain);
        }

        #[test]
        fn short_and_long_bytes_agree_with_a_map(values in proptest::collection::vec(
            proptest::collection::vec(0u8..2, 0..40), 0..300)) {
            // Lengths on both sides of the 16-byte short keys and the 32-byte word hash,
            // over two letters: many values share their first and last words.
            let mut src = ByteArrays::new();
            for v in &values {
                src.push(v);
            }
            let src = ColumnValues::ByteArray(src);
            let mut d = DictEncoder::new(ColumnValues::ByteArray(ByteArrays::new()));
            let mut idx = vec![];
            d.intern(&src, 0..values.len(), &mut idx);
            let (want, plain) = naive(&values);
            prop_assert_eq!(idx, want);
            prop_assert_eq!(d.plain_bytes(), plain);
        }

        #[test]
        fn ints_agree_with_a_map(values in proptest::collection::vec(-300i64..300, 0..2000)) {
            let mut d = DictEncoder::new(ColumnValues::Int64(vec![]));
            let mut idx = vec![];
            d.intern(&ColumnValues::Int64(values.clone()), 0..values.len(), &mut idx);
            let as_bytes: Vec<Vec<u8>> = values.iter().map(|v| v.to_le_bytes().to_vec()).collect();
            let (want, _) = naive(&as_bytes);
            prop_assert_eq!(&idx, &want);
            prop_assert_eq!(d.plain_bytes(), 8 * d.len());
            let ColumnValues::Int64(dict) = d.values() else { unreachable!() };
            for (i, v) in idx.iter().zip(&values) {
                prop_assert_eq!(dict[*i as usize], *v);
            }
        }
    }

    #[test]
    fn short_strings_compare_and_hash_by_content() {
        let words: Vec<Vec<u8>> = (0..40usize)
            .map(|n| (0..n).map(|i| (i * 7 + n) as u8).collect())
            .collect();
        for a in &words {
            assert!(bytes_eq(a, &a.clone()));
            assert_eq!(hash_bytes(a), hash_bytes(&a.clone()));
            for b in &words {
                assert_eq!(bytes_eq(a, b), a == b, "{a:?} {b:?}");
            }
            // One changed byte anywhere is seen.
            for i in 0..a.len() {
                let mut c = a.clone();
                c[i] ^= 1;
                assert!(!bytes_eq(a, &c));
                assert_ne!(hash_bytes(a), hash_bytes(&c), "{a:?} at {i}");
            }
        }
    }

    #[test]
    fn every_type_and_growth() {
        // 5000 distinct values force several table growths; each comes back twice.
        let n = 5000;
        let cases = [
            ColumnValues::Int32((0..n).map(|i| i as i32 * 7).collect()),
            ColumnValues::Float((0..n).map(|i| i as f32 * 0.5).collect()),
            ColumnValues::Int96((0..n).map(|i| Int96([i as u32, 1, i as u32 * 3])).collect()),
            ColumnValues::FixedLenByteArray(FixedLenByteArrays {
                width: 3,
                data: (0..n).flat_map(|i| [(i >> 8) as u8, i as u8, 9]).collect(),
            }),
        ];
        for values in cases {
            let width = match &values {
                ColumnValues::Int96(_) => 12,
                ColumnValues::FixedLenByteArray(_) => 3,
                _ => 4,
            };
            let mut d = DictEncoder::new(crate::core::column::empty_values_like(&values));
            let mut idx = vec![];
            d.intern(&values, 0..n, &mut idx);
            d.intern(&values, 0..n, &mut idx);
            assert_eq!(d.len(), n);
            assert_eq!(d.plain_bytes(), n * width);
            let want: Vec<u32> = (0..n as u32).chain(0..n as u32).collect();
            assert_eq!(idx, want);
            assert_eq!(d.values(), &values);
        }
        let mut d = DictEncoder::new(ColumnValues::Boolean(vec![]));
        let mut idx = vec![];
        d.intern(
            &ColumnValues::Boolean(vec![true, false, true]),
            0..3,
            &mut idx,
        );
        assert_eq!(idx, [0, 1, 0]);
        assert_eq!(d.plain_bytes(), 2);
    }

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
