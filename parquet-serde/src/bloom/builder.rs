//! [`BloomFilterBuilder`]: collects the hashes of a column chunk's values and builds its
//! filter, sized from options or from the distinct hashes it saw.

use std::ops::Range;

use super::hash::hash_values;
use super::sbbf::Sbbf;
use crate::values::ColumnValues;

/// Bloom filter settings of a column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BloomFilterOptions {
    /// Expected distinct values per column chunk. `None` sizes each filter from the
    /// distinct values the chunk actually holds (the hashes are buffered until the chunk
    /// closes).
    pub ndv: Option<u64>,
    /// Target false positive probability (default 0.01).
    pub fpp: f64,
}

impl Default for BloomFilterOptions {
    fn default() -> Self {
        BloomFilterOptions {
            ndv: None,
            fpp: 0.01,
        }
    }
}

impl BloomFilterOptions {
    /// Options with an expected distinct count and false positive probability.
    pub fn new(ndv: u64, fpp: f64) -> Self {
        BloomFilterOptions {
            ndv: Some(ndv),
            fpp,
        }
    }
}

/// Hashes buffered before the builder sizes its filter from what it has (32 MiB).
const MAX_BUFFERED: usize = 1 << 22;

/// Builds the Bloom filter of one column chunk.
///
/// With an expected distinct count the filter exists from the start and hashes go straight
/// in. Without one, hashes are buffered and deduplicated, and the filter is sized from the
/// distinct count when the chunk closes (or once more than 4 Mi distinct hashes are
/// buffered, for twice that many).
#[derive(Debug, Clone)]
pub struct BloomFilterBuilder {
    fpp: f64,
    hashes: Vec<u64>,
    filter: Option<Sbbf>,
    scratch: Vec<u64>,
}

impl BloomFilterBuilder {
    /// A builder with `options`.
    pub fn new(options: BloomFilterOptions) -> Self {
        BloomFilterBuilder {
            fpp: options.fpp,
            hashes: Vec::new(),
            filter: options.ndv.map(|n| Sbbf::with_ndv_fpp(n, options.fpp)),
            scratch: Vec::new(),
        }
    }

    /// Inserts the values `values[range]`.
    pub fn insert_values(&mut self, values: &ColumnValues, range: Range<usize>) {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        hash_values(values, range, &mut scratch);
        for &h in &scratch {
            self.insert_hash(h);
        }
        self.scratch = scratch;
    }

    /// Inserts one hash.
    #[inline]
    pub fn insert_hash(&mut self, hash: u64) {
        match &mut self.filter {
            Some(f) => f.insert_hash(hash),
            None => {
                self.hashes.push(hash);
                if self.hashes.len() >= MAX_BUFFERED {
                    self.compact();
                }
            }
        }
    }

    fn compact(&mut self) {
        self.hashes.sort_unstable();
        self.hashes.dedup();
        if self.hashes.len() >= MAX_BUFFERED / 2 {
            let mut f = Sbbf::with_ndv_fpp(2 * self.hashes.len() as u64, self.fpp);
            for &h in &self.hashes {
                f.insert_hash(h);
            }
            self.hashes = Vec::new();
            self.filter = Some(f);
        }
    }

    /// The finished filter.
    pub fn finish(mut self) -> Sbbf {
        if let Some(f) = self.filter.take() {
            return f;
        }
        self.hashes.sort_unstable();
        self.hashes.dedup();
        let mut f = Sbbf::with_ndv_fpp(self.hashes.len() as u64, self.fpp);
        for &h in &self.hashes {
            f.insert_hash(h);
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bloom::hash::hash_i64;

    #[test]
    fn sized_from_distinct_values() {
        let mut b = BloomFilterBuilder::new(BloomFilterOptions::default());
        let v = ColumnValues::Int64((0..10_000).map(|i| i % 1000).collect());
        b.insert_values(&v, 0..10_000);
        let f = b.finish();
        // 1000 distinct at 1%: ~1.3 KB, rounded up to 2 KiB.
        assert_eq!(f.num_bytes(), 2048);
        assert!((0..1000).all(|i| f.check_hash(hash_i64(i))));
    }

    #[test]
    fn fixed_size_from_ndv() {
        let mut b = BloomFilterBuilder::new(BloomFilterOptions::new(100_000, 0.05));
        b.insert_values(&ColumnValues::Int64(vec![1, 2]), 0..2);
        let f = b.finish();
        assert_eq!(f.num_bytes(), Sbbf::with_ndv_fpp(100_000, 0.05).num_bytes());
        assert!(f.check_hash(hash_i64(2)));
    }

    #[test]
    fn empty_chunk_gives_smallest_filter() {
        let f = BloomFilterBuilder::new(BloomFilterOptions::default()).finish();
        assert_eq!(f.num_bytes(), 32);
        assert!(!f.check_hash(hash_i64(1)));
    }
}
