//! [`Sbbf`]: the split block Bloom filter bitset and its header.

use super::hash;
use crate::core::format::{
    self, BloomFilterAlgorithm, BloomFilterCompression, BloomFilterHash, BloomFilterHeader,
};
use crate::core::values::Int96;
use crate::error::{Error, Result};

/// Smallest bitset: one block of 32 bytes.
pub const MIN_BYTES: usize = 32;
/// Largest bitset this library writes or reads: 128 MiB.
pub const MAX_BYTES: usize = 128 << 20;

/// The eight odd constants of the specification that pick one bit per word.
const SALT: [u32; 8] = [
    0x47b6_137b,
    0x4497_4d91,
    0x8824_ad5b,
    0xa2b7_289d,
    0x7054_95c7,
    0x2df1_424b,
    0x9efc_4947,
    0x5c6b_fb31,
];

type Block = [u32; 8];

#[inline]
fn mask(x: u32) -> Block {
    let mut out = [0u32; 8];
    for i in 0..8 {
        let y = x.wrapping_mul(SALT[i]);
        out[i] = 1 << (y >> 27);
    }
    out
}

/// A split block Bloom filter: `num_bytes / 32` blocks of 256 bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sbbf {
    blocks: Vec<Block>,
}

impl Sbbf {
    /// An empty filter of `num_bytes` bytes, rounded up to a power of two within 32 bytes
    /// ..= 128 MiB.
    pub fn new(num_bytes: usize) -> Self {
        let bytes = num_bytes.clamp(MIN_BYTES, MAX_BYTES).next_power_of_two();
        Sbbf {
            blocks: vec![[0; 8]; bytes / 32],
        }
    }

    /// An empty filter sized for `ndv` distinct values at false positive probability `fpp`
    /// (clamped to 1e-9..=0.5).
    pub fn with_ndv_fpp(ndv: u64, fpp: f64) -> Self {
        Self::new(Self::optimal_num_bytes(ndv, fpp))
    }

    /// The bitset size for `ndv` distinct values at false positive probability `fpp`:
    /// `-8 * ndv / ln(1 - fpp^(1/8))` bits, as the specification derives it, before rounding.
    pub fn optimal_num_bytes(ndv: u64, fpp: f64) -> usize {
        let fpp = if fpp.is_nan() {
            0.01
        } else {
            fpp.clamp(1e-9, 0.5)
        };
        let bits = -8.0 * ndv as f64 / (1.0 - fpp.powf(1.0 / 8.0)).ln();
        let bytes = (bits / 8.0).ceil();
        if bytes >= MAX_BYTES as f64 {
            MAX_BYTES
        } else {
            (bytes as usize).max(MIN_BYTES)
        }
    }

    /// A filter over a bitset read from a file: a non-empty multiple of 32 bytes, at most
    /// 128 MiB.
    pub fn from_bitset(bitset: &[u8]) -> Result<Self> {
        if bitset.is_empty() || !bitset.len().is_multiple_of(32) || bitset.len() > MAX_BYTES {
            return Err(Error::corrupt(format!(
                "Bloom filter bitset of {} bytes (must be a non-empty multiple of 32 up to 128 MiB)",
                bitset.len()
            )));
        }
        let blocks = bitset
            .chunks_exact(32)
            .map(|b| {
                let mut block = [0u32; 8];
                for (w, bytes) in block.iter_mut().zip(b.chunks_exact(4)) {
                    *w = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
                }
                block
            })
            .collect();
        Ok(Sbbf { blocks })
    }

    /// Size of the bitset in bytes.
    pub fn num_bytes(&self) -> usize {
        self.blocks.len() * 32
    }

    #[inline]
    fn block_index(&self, hash: u64) -> usize {
        (((hash >> 32) * self.blocks.len() as u64) >> 32) as usize
    }

    /// Inserts a 64-bit hash (`filter_insert` of the specification).
    #[inline]
    pub fn insert_hash(&mut self, hash: u64) {
        let i = self.block_index(hash);
        let m = mask(hash as u32);
        // i < len: (top32 * len) >> 32 < len.
        let block = &mut self.blocks[i];
        for w in 0..8 {
            block[w] |= m[w];
        }
    }

    /// Whether a hash may have been inserted (`filter_check`): `false` means certainly not.
    #[inline]
    pub fn check_hash(&self, hash: u64) -> bool {
        let i = self.block_index(hash);
        let m = mask(hash as u32);
        let block = &self.blocks[i];
        (0..8).all(|w| block[w] & m[w] != 0)
    }

    /// The false positive probability of the filter as it is, for a hash not inserted: the
    /// mean over blocks of the product, over the block's 8 words, of the share of the word's
    /// bits that are set (a check picks a block, then one bit in each word). With `folds`,
    /// that of the filter [`fold`](Self::fold)ed that many times (computed without folding).
    pub(crate) fn false_positive_rate(&self, folds: u32) -> f64 {
        let group = 1usize << folds;
        if self.blocks.len() < group {
            return 1.0;
        }
        let mut sum = 0.0;
        for blocks in self.blocks.chunks_exact(group) {
            let mut p = 1.0;
            for w in 0..8 {
                let word = blocks.iter().fold(0u32, |acc, b| acc | b[w]);
                p *= word.count_ones() as f64 / 32.0;
            }
            sum += p;
        }
        sum / (self.blocks.len() / group) as f64
    }

    /// Halves the filter: block `i` of the result is blocks `2i` and `2i + 1` ORed. A hash
    /// found in block `j` of a filter of `2m` blocks is found in block `j / 2` of `m`
    /// blocks (`(h * 2m) >> 32` halved is `(h * m) >> 32`), so every hash inserted is still
    /// found. The size must be a power of two of at least 2 blocks (as [`new`](Self::new)
    /// makes); otherwise nothing changes.
    pub(crate) fn fold(&mut self) {
        let n = self.blocks.len();
        if n < 2 || !n.is_power_of_two() {
            return;
        }
        for i in 0..n / 2 {
            let (a, b) = (self.blocks[2 * i], self.blocks[2 * i + 1]);
            let mut block = [0u32; 8];
            for w in 0..8 {
                block[w] = a[w] | b[w];
            }
            self.blocks[i] = block;
        }
        self.blocks.truncate(n / 2);
    }

    /// The bitset, little-endian words.
    pub fn bitset(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.num_bytes());
        for block in &self.blocks {
            for w in block {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out
    }

    /// Whether a BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY value may have been inserted: `false`
    /// means certainly not.
    pub fn check_bytes(&self, value: &[u8]) -> bool {
        self.check_hash(hash::hash_bytes(value))
    }

    /// Whether an INT32 value may have been inserted: `false` means certainly not.
    pub fn check_i32(&self, value: i32) -> bool {
        self.check_hash(hash::hash_i32(value))
    }

    /// Whether an INT64 value may have been inserted: `false` means certainly not.
    pub fn check_i64(&self, value: i64) -> bool {
        self.check_hash(hash::hash_i64(value))
    }

    /// Whether a FLOAT value (by its bits) may have been inserted: `false` means certainly
    /// not.
    pub fn check_f32(&self, value: f32) -> bool {
        self.check_hash(hash::hash_f32(value))
    }

    /// Whether a DOUBLE value (by its bits) may have been inserted: `false` means certainly
    /// not.
    pub fn check_f64(&self, value: f64) -> bool {
        self.check_hash(hash::hash_f64(value))
    }

    /// Whether an INT96 value may have been inserted: `false` means certainly not.
    pub fn check_int96(&self, value: Int96) -> bool {
        self.check_hash(hash::hash_int96(value))
    }

    /// The Thrift header describing this filter (BLOCK, XXHASH, UNCOMPRESSED).
    pub(crate) fn header(&self) -> BloomFilterHeader {
        BloomFilterHeader {
            // At most MAX_BYTES = 2^27: fits an i32.
            num_bytes: self.num_bytes() as i32,
            algorithm: BloomFilterAlgorithm::Block,
            hash: BloomFilterHash::XxHash,
            compression: BloomFilterCompression::Uncompressed,
        }
    }

    /// Appends the header and the bitset, as stored at `bloom_filter_offset`.
    pub fn write(&self, out: &mut Vec<u8>) {
        format::encode(&self.header(), out);
        for block in &self.blocks {
            for w in block {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
    }

    /// Decodes a header at the start of `bytes`: the header and its length. Fails for
    /// algorithms, hashes and compressions other than BLOCK, XXHASH and UNCOMPRESSED.
    pub(crate) fn read_header(bytes: &[u8]) -> Result<(BloomFilterHeader, usize)> {
        let (header, len) = format::decode::<BloomFilterHeader>(bytes)
            .map_err(|e| e.context("Bloom filter header"))?;
        if header.algorithm != BloomFilterAlgorithm::Block
            || header.hash != BloomFilterHash::XxHash
            || header.compression != BloomFilterCompression::Uncompressed
        {
            return Err(Error::unsupported(format!(
                "Bloom filter with {:?}, {:?}, {:?}",
                header.algorithm, header.hash, header.compression
            )));
        }
        let n = header.num_bytes;
        if n <= 0 || n as usize > MAX_BYTES || n % 32 != 0 {
            return Err(Error::corrupt(format!("Bloom filter of {n} bytes")));
        }
        Ok((header, len))
    }

    /// Decodes a header and its bitset from the start of `bytes`; returns the filter and
    /// the bytes used.
    pub fn read(bytes: &[u8]) -> Result<(Self, usize)> {
        let (header, len) = Self::read_header(bytes)?;
        let n = header.num_bytes as usize;
        let bitset = bytes.get(len..len + n).ok_or_else(|| {
            Error::corrupt(format!(
                "Bloom filter bitset of {n} bytes runs past the {} bytes available",
                bytes.len() - len
            ))
        })?;
        Ok((Self::from_bitset(bitset)?, len + n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_keeps_every_hash_and_the_computed_rate_is_the_measured_one() {
        let mut f = Sbbf::new(64 << 10);
        for i in 0..20_000 {
            f.insert_hash(hash::hash_i64(i));
        }
        for folds in 0..4 {
            let predicted = f.false_positive_rate(1);
            let mut g = f.clone();
            g.fold();
            assert_eq!(g.num_bytes(), f.num_bytes() / 2);
            assert!(
                (0..20_000).all(|i| g.check_hash(hash::hash_i64(i))),
                "fold {folds}"
            );
            assert_eq!(g.false_positive_rate(0), predicted);
            let probes = 100_000;
            let hits = (0..probes)
                .filter(|i| g.check_hash(hash::hash_i64(-1 - i)))
                .count() as f64
                / probes as f64;
            let sd = (predicted * (1.0 - predicted) / probes as f64).sqrt();
            assert!(
                (hits - predicted).abs() <= 5.0 * sd + 1e-4,
                "{hits} vs {predicted}"
            );
            f = g;
        }
        // The smallest filter does not fold.
        let mut one = Sbbf::new(32);
        one.fold();
        assert_eq!(one.num_bytes(), 32);
    }
    use crate::core::bloom::hash::hash_bytes;

    #[test]
    fn sizes() {
        assert_eq!(Sbbf::new(0).num_bytes(), 32);
        assert_eq!(Sbbf::new(33).num_bytes(), 64);
        assert_eq!(Sbbf::new(usize::MAX).num_bytes(), MAX_BYTES);
        // -8 / ln(1 - 0.01^(1/8)) = 9.68 bits per value for 1%.
        let b = Sbbf::optimal_num_bytes(1_000_000, 0.01);
        assert_eq!(b, 1_210_191);
        assert_eq!(Sbbf::optimal_num_bytes(u64::MAX, 0.01), MAX_BYTES);
        assert_eq!(Sbbf::optimal_num_bytes(0, 0.01), MIN_BYTES);
    }

    #[test]
    fn mask_sets_one_bit_per_word() {
        for x in [0u32, 1, 0xdead_beef, u32::MAX] {
            assert!(mask(x).iter().all(|w| w.count_ones() == 1));
        }
        // Hand-computed: 1 * salt[0] = 0x47b6137b, >> 27 = 8.
        assert_eq!(mask(1)[0], 1 << 8);
        // salt[7] = 0x5c6bfb31, >> 27 = 11.
        assert_eq!(mask(1)[7], 1 << 11);
    }

    #[test]
    fn no_false_negatives_and_few_false_positives() {
        let mut f = Sbbf::with_ndv_fpp(10_000, 0.01);
        for i in 0..10_000u32 {
            f.insert_hash(hash_bytes(format!("key-{i}").as_bytes()));
        }
        for i in 0..10_000u32 {
            assert!(f.check_hash(hash_bytes(format!("key-{i}").as_bytes())));
        }
        let fp = (0..100_000u32)
            .filter(|i| f.check_hash(hash_bytes(format!("other-{i}").as_bytes())))
            .count();
        assert!(fp < 1_000, "{fp} false positives in 100000");
    }

    #[test]
    fn serialization_round_trip() {
        let mut f = Sbbf::new(64);
        f.insert_hash(42);
        f.insert_hash(u64::MAX);
        let mut out = Vec::new();
        f.write(&mut out);
        let (g, used) = Sbbf::read(&out).unwrap();
        assert_eq!((g, used), (f.clone(), out.len()));
        assert_eq!(f.bitset().len(), 64);
        for cut in 0..out.len() {
            assert!(Sbbf::read(&out[..cut]).is_err(), "cut {cut}");
        }
    }

    #[test]
    fn bad_headers() {
        assert!(Sbbf::from_bitset(&[0; 33]).is_err());
        assert!(Sbbf::from_bitset(&[]).is_err());
        let mut h = Sbbf::new(32).header();
        h.num_bytes = 48;
        let mut out = Vec::new();
        format::encode(&h, &mut out);
        assert!(Sbbf::read_header(&out).is_err());
        h.num_bytes = 32;
        h.hash = BloomFilterHash::Unknown(2);
        out.clear();
        format::encode(&h, &mut out);
        assert_eq!(
            Sbbf::read_header(&out).unwrap_err().kind(),
            crate::ErrorKind::Unsupported
        );
    }
}
