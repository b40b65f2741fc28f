//! [`BloomFilterBuilder`]: collects the hashes of a column chunk's values and builds its
//! filter, sized from options or from the distinct hashes it saw.

use std::ops::Range;

use super::hash::hash_values;
use super::sbbf::Sbbf;
use crate::core::values::ColumnValues;

/// Bloom filter settings of a column: from [`WriterOptions`](crate::WriterOptions), or from
/// `#[parquet(bloom_filter(ndv = N, fpp = F))]` on a field (the options win).
///
/// ```
/// use parquet_serde::core::bloom::BloomFilterOptions;
/// let o = BloomFilterOptions::DEFAULT;
/// assert_eq!((o.ndv, o.fpp), (None, 0.01));
/// assert_eq!(BloomFilterOptions::new(1000, 0.001).ndv, Some(1000));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct BloomFilterOptions {
    /// Expected distinct values per column chunk. `None` sizes each filter from the
    /// distinct values the chunk actually holds (the hashes are buffered until the chunk
    /// closes).
    pub ndv: Option<u64>,
    /// Target false positive probability (default 0.01).
    pub fpp: f64,
}

/// [`BloomFilterOptions::DEFAULT`].
impl Default for BloomFilterOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Equal when `ndv` is and `fpp` is bit for bit.
impl PartialEq for BloomFilterOptions {
    fn eq(&self, other: &Self) -> bool {
        self.ndv == other.ndv && self.fpp.to_bits() == other.fpp.to_bits()
    }
}

impl Eq for BloomFilterOptions {}

impl BloomFilterOptions {
    /// `bloom_filter` alone: sized from each chunk's values, 1% false positives.
    pub const DEFAULT: BloomFilterOptions = BloomFilterOptions {
        ndv: None,
        fpp: 0.01,
    };

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

/// HyperLogLog registers: distinct hashes estimated within about 1.6%.
const HLL_BITS: u32 = 12;

/// A HyperLogLog sketch of the distinct hashes seen (the hashes are XXH64, uniform).
#[derive(Debug, Clone)]
struct DistinctEstimate {
    registers: Vec<u8>,
}

impl DistinctEstimate {
    fn new() -> Self {
        DistinctEstimate {
            registers: vec![0; 1 << HLL_BITS],
        }
    }

    #[inline]
    fn insert(&mut self, hash: u64) {
        let i = (hash >> (64 - HLL_BITS)) as usize;
        // A guard bit bounds the rank at 64 - HLL_BITS + 1.
        let rank = ((hash << HLL_BITS) | (1 << (HLL_BITS - 1))).leading_zeros() as u8 + 1;
        // i < 2^HLL_BITS = registers.len().
        let r = &mut self.registers[i];
        if rank > *r {
            *r = rank;
        }
    }

    fn estimate(&self) -> u64 {
        let m = self.registers.len() as f64;
        let sum: f64 = self.registers.iter().map(|&r| 2f64.powi(-(r as i32))).sum();
        let raw = 0.7213 / (1.0 + 1.079 / m) * m * m / sum;
        let zeros = self.registers.iter().filter(|&&r| r == 0).count();
        let e = if raw <= 2.5 * m && zeros > 0 {
            m * (m / zeros as f64).ln()
        } else {
            raw
        };
        e.ceil() as u64
    }
}

/// Builds the Bloom filter of one column chunk.
///
/// With an expected distinct count the filter exists from the start and hashes go straight
/// in. Without one, hashes are buffered while a HyperLogLog sketch estimates how many are
/// distinct; when the chunk closes the filter is sized for that estimate (plus 5%, the
/// sketch's error) and the buffered hashes inserted. Past 4 Mi buffered hashes the filter
/// is built for twice the estimate so far and later hashes go straight in.
#[derive(Debug, Clone)]
pub struct BloomFilterBuilder {
    fpp: f64,
    hashes: Vec<u64>,
    distinct: DistinctEstimate,
    filter: Option<Sbbf>,
    /// Sized from the data (no `ndv` given): folded down at the end.
    from_data: bool,
    scratch: Vec<u64>,
}

impl BloomFilterBuilder {
    /// A builder with `options`.
    pub fn new(options: BloomFilterOptions) -> Self {
        BloomFilterBuilder {
            fpp: options.fpp,
            hashes: Vec::new(),
            distinct: DistinctEstimate::new(),
            filter: options.ndv.map(|n| Sbbf::with_ndv_fpp(n, options.fpp)),
            from_data: options.ndv.is_none(),
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
                self.distinct.insert(hash);
                if self.hashes.len() >= MAX_BUFFERED {
                    self.filter = Some(self.build(2));
                    self.hashes = Vec::new();
                }
            }
        }
    }

    /// A filter for `factor` times the distinct hashes estimated, holding the buffered ones.
    fn build(&self, factor: u64) -> Sbbf {
        let n = self.hashes.len() as u64;
        // Never more than the hashes seen; 5% over the estimate covers its error.
        let ndv = (self.distinct.estimate() * 105 / 100).min(n) * factor;
        let mut f = Sbbf::with_ndv_fpp(ndv, self.fpp);
        for &h in &self.hashes {
            f.insert_hash(h);
        }
        f
    }

    /// The finished filter. Sized from the data (no `ndv` given), it is the smallest that
    /// keeps the requested false positive probability for the hashes it holds: built for
    /// the distinct count estimated, doubled while its measured rate is above the target (as
    /// long as the hashes are still buffered), then folded in half (adjacent blocks ORed,
    /// as arrow-rs does) while the folded filter's rate stays at or under the target. The
    /// rate is the exact one of the bits set (see [`Sbbf::false_positive_rate`]), not a
    /// formula of the count. A filter of an explicit `ndv` is kept as sized.
    pub fn finish(mut self) -> Sbbf {
        if let Some(f) = self.filter.take() {
            if !self.from_data {
                return f;
            }
            return fold_to(f, self.fpp);
        }
        let mut f = self.build(1);
        while f.false_positive_rate(0) > self.fpp && f.num_bytes() < super::sbbf::MAX_BYTES {
            let mut bigger = Sbbf::new(f.num_bytes() * 2);
            for &h in &self.hashes {
                bigger.insert_hash(h);
            }
            f = bigger;
        }
        fold_to(f, self.fpp)
    }
}

/// `f` folded while the folded filter's false positive rate stays within `fpp`.
fn fold_to(mut f: Sbbf, fpp: f64) -> Sbbf {
    while f.num_bytes() > super::sbbf::MIN_BYTES && f.false_positive_rate(1) <= fpp {
        f.fold();
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::bloom::hash::hash_i64;

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
    fn distinct_estimates() {
        for n in [0u64, 1, 10, 1000, 50_000, 1_000_000] {
            let mut d = DistinctEstimate::new();
            for i in 0..n {
                // Each value three times: duplicates do not count.
                for _ in 0..3 {
                    d.insert(hash_i64(i as i64));
                }
            }
            let e = d.estimate() as f64;
            assert!((e - n as f64).abs() <= 0.05 * n as f64 + 1.0, "{n}: {e}");
        }
    }

    /// The share of `probes` hashes never inserted that the filter reports.
    fn measured_fpp(f: &Sbbf, probes: i64) -> f64 {
        let hits = (0..probes)
            .filter(|i| f.check_hash(hash_i64(-1 - i)))
            .count();
        hits as f64 / probes as f64
    }

    #[test]
    fn sized_from_data_keeps_the_rate_and_is_no_larger_than_before() {
        // Today's sizing was the filter for the estimated distinct count, rounded up to a
        // power of two; the filter now is folded from there while the rate allows.
        for fpp in [0.01, 0.05, 0.1] {
            for ndv in [100i64, 3_000, 20_000, 150_000, 700_000] {
                let mut b = BloomFilterBuilder::new(BloomFilterOptions { ndv: None, fpp });
                let v = ColumnValues::Int64((0..ndv).collect());
                b.insert_values(&v, 0..ndv as usize);
                let before = b.build(1);
                let f = b.finish();
                assert!(
                    (0..ndv).all(|i| f.check_hash(hash_i64(i))),
                    "no false negative"
                );
                let (was, now) = (measured_fpp(&before, 200_000), measured_fpp(&f, 200_000));
                eprintln!(
                    "fpp {fpp} ndv {ndv}: before {} bytes, measured {was:.4}; now {} bytes, \
                     measured {now:.4} (computed {:.4})",
                    before.num_bytes(),
                    f.num_bytes(),
                    f.false_positive_rate(0)
                );
                // Larger only where the old size broke the target.
                assert!(
                    f.num_bytes() <= before.num_bytes() || before.false_positive_rate(0) > fpp,
                    "fpp {fpp} ndv {ndv}"
                );
                assert!(f.false_positive_rate(0) <= fpp);
                // Measured on 200,000 absent keys: within sampling error of the target.
                assert!(
                    now <= fpp * 1.1 + 0.001,
                    "fpp {fpp} ndv {ndv}: measured {now}"
                );
                // Folding once more would break the target (or the filter is the smallest).
                assert!(f.num_bytes() == 32 || f.false_positive_rate(1) > fpp);
            }
        }
    }

    #[test]
    fn an_explicit_ndv_is_not_folded() {
        let mut b = BloomFilterBuilder::new(BloomFilterOptions::new(1_000_000, 0.01));
        b.insert_values(&ColumnValues::Int64(vec![1, 2, 3]), 0..3);
        assert_eq!(
            b.finish().num_bytes(),
            Sbbf::with_ndv_fpp(1_000_000, 0.01).num_bytes()
        );
    }

    #[test]
    fn empty_chunk_gives_smallest_filter() {
        let f = BloomFilterBuilder::new(BloomFilterOptions::default()).finish();
        assert_eq!(f.num_bytes(), 32);
        assert!(!f.check_hash(hash_i64(1)));
    }
}
