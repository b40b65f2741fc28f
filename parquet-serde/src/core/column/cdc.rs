//! Content-defined chunking: data pages cut where a rolling hash of the values says, so that
//! an insert or a delete leaves the pages around it byte for byte the same (and deduplicated
//! by content-addressed storage).
//!
//! The rules are Arrow C++'s (`parquet/chunker_internal.cc`, pyarrow's
//! `use_content_defined_chunking`, arrow-rs `CdcOptions`), so that pages of the same values
//! are cut at the same places whichever of these writers wrote them:
//! - each (definition level, repetition level, value) of a column is fed to a gear hash,
//!   byte by byte: the levels as 2-byte little-endian integers (the definition level when the
//!   column's maximum is above 0, the repetition level when its maximum is), then the value,
//!   if not null: fixed-width values as their little-endian bytes, byte arrays as their
//!   bytes (no length), booleans as one byte 0 or 1;
//! - the first `min_chunk_size` bytes of a chunk are counted, not hashed;
//! - a match is the hash ANDed with the mask being 0; a cut needs a match in each of the 8
//!   gear tables in turn (a run), and happens after the triplet that completed the run, or
//!   once a chunk has `max_chunk_size` bytes; the triplet after it starts the next page;
//! - a repeated column is cut only where a row starts (repetition level 0);
//! - the hash is never reset.
//!
//! Where this writer differs: a cut that falls on the first level of a batch ends the page
//! before it too (Arrow C++ drops it for repeated columns, as its batches are its own); the
//! chunker starts anew in each column chunk; INT32 columns annotated as 8- or 16-bit integers
//! are hashed on 1 or 2 bytes (as Arrow hashes its narrow integer arrays), other types on
//! their Parquet width (Arrow's decimals and INT96 timestamps hash their Arrow form instead,
//! so those pages do not match).

use super::cdc_gear::{GEAR, GEAR_TABLES};
use super::ColumnBatch;
use crate::core::values::ColumnValues;
use crate::error::{Error, Result};

/// Settings of content-defined chunking (see
/// [`WriterOptions::content_defined_chunking`](crate::WriterOptions::content_defined_chunking)):
/// the chunk sizes, in bytes of the levels and values fed to the hash (before any encoding),
/// and the normalization level. The defaults are pyarrow's and arrow-rs's: 256 KiB, 1 MiB, 0.
///
/// ```
/// use parquet_serde::core::column::CdcOptions;
/// let o = CdcOptions::default();
/// assert_eq!((o.min_chunk_size(), o.max_chunk_size(), o.norm_level()), (256 << 10, 1 << 20, 0));
/// assert!(CdcOptions::new(64 << 10, 256 << 10, 1).is_ok());
/// // The maximum must be above the minimum.
/// assert!(CdcOptions::new(1 << 20, 1 << 20, 0).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CdcOptions {
    min_chunk_size: usize,
    max_chunk_size: usize,
    norm_level: i32,
}

impl Default for CdcOptions {
    fn default() -> Self {
        CdcOptions {
            min_chunk_size: 256 << 10,
            max_chunk_size: 1 << 20,
            norm_level: 0,
        }
    }
}

impl CdcOptions {
    /// Chunks of `min_chunk_size` to `max_chunk_size` bytes; `norm_level` above 0 makes a
    /// match likelier (chunks nearer the average size, more small pages), below 0 rarer.
    /// Fails unless `max_chunk_size > min_chunk_size` and the mask keeps 1 to 63 bits.
    pub fn new(min_chunk_size: usize, max_chunk_size: usize, norm_level: i32) -> Result<Self> {
        let o = CdcOptions {
            min_chunk_size,
            max_chunk_size,
            norm_level,
        };
        o.mask()?;
        Ok(o)
    }

    /// Bytes a chunk has before the hash can cut it.
    pub fn min_chunk_size(&self) -> usize {
        self.min_chunk_size
    }

    /// Bytes after which a chunk is cut whatever the hash.
    pub fn max_chunk_size(&self) -> usize {
        self.max_chunk_size
    }

    /// The normalization level.
    pub fn norm_level(&self) -> i32 {
        self.norm_level
    }

    /// The mask a match leaves 0: the top `floor(log2(target)) - norm_level` bits, where the
    /// target is `((min + max) / 2 - min) / 8`.
    fn mask(&self) -> Result<u64> {
        if self.max_chunk_size <= self.min_chunk_size {
            return Err(Error::invalid_argument(format!(
                "content-defined chunking: max_chunk_size {} must be greater than min_chunk_size {}",
                self.max_chunk_size, self.min_chunk_size
            )));
        }
        let avg = (self.min_chunk_size as u64 + self.max_chunk_size as u64) / 2;
        let target = (avg - self.min_chunk_size as u64) / GEAR_TABLES as u64;
        let mask_bits = (64 - target.leading_zeros() as i64 - 1).max(0);
        let bits = mask_bits - self.norm_level as i64;
        if !(1..=63).contains(&bits) {
            return Err(Error::invalid_argument(format!(
                "content-defined chunking: the mask must keep 1 to 63 bits, these sizes and \
                 norm_level {} give {bits}",
                self.norm_level
            )));
        }
        Ok(u64::MAX << (64 - bits))
    }
}

/// The rolling state of one column chunk's chunker.
#[derive(Debug, Clone)]
pub(crate) struct Chunker {
    mask: u64,
    min: u64,
    max: u64,
    max_def: i16,
    max_rep: i16,
    /// Bytes an INT32 value is hashed on (4, or 1 / 2 for 8- and 16-bit integers).
    int32_width: usize,
    hash: u64,
    size: u64,
    run: usize,
    matched: bool,
}

impl Chunker {
    /// A chunker for a column with these maximum levels.
    pub(crate) fn new(options: CdcOptions, max_def: i16, max_rep: i16) -> Result<Self> {
        Ok(Chunker {
            mask: options.mask()?,
            min: options.min_chunk_size as u64,
            max: options.max_chunk_size as u64,
            max_def,
            max_rep,
            int32_width: 4,
            hash: 0,
            size: 0,
            run: 0,
            matched: false,
        })
    }

    /// Hashes INT32 values on their low `width` bytes (1, 2 or 4).
    pub(crate) fn set_int32_width(&mut self, width: usize) {
        self.int32_width = width.clamp(1, 4);
    }

    #[inline]
    fn roll(&mut self, bytes: &[u8]) {
        self.size += bytes.len() as u64;
        if self.size < self.min {
            return;
        }
        let table = &GEAR[self.run];
        for &b in bytes {
            self.hash = (self.hash << 1).wrapping_add(table[b as usize]);
            self.matched |= self.hash & self.mask == 0;
        }
    }

    #[inline]
    fn roll_level(&mut self, level: i16) {
        self.roll(&level.to_le_bytes());
    }

    /// Whether the chunk ends here (and if so, starts the next one).
    #[inline]
    fn need_new_chunk(&mut self) -> bool {
        if self.matched {
            self.matched = false;
            self.run += 1;
            if self.run >= GEAR_TABLES {
                self.run = 0;
                self.size = 0;
                return true;
            }
        }
        if self.size >= self.max {
            self.size = 0;
            return true;
        }
        false
    }

    /// Feeds the first `n` levels of `batch` and pushes onto `cuts` each level index where a
    /// new page starts (`cuts` is cleared first).
    pub(crate) fn cuts(&mut self, batch: &ColumnBatch, n: usize, cuts: &mut Vec<usize>) {
        cuts.clear();
        let values = &batch.values;
        match values {
            ColumnValues::Boolean(v) => self.walk(batch, n, cuts, |c, i| c.roll(&[v[i] as u8])),
            ColumnValues::Int32(v) => {
                let w = self.int32_width;
                self.walk(batch, n, cuts, |c, i| c.roll(&v[i].to_le_bytes()[..w]))
            }
            ColumnValues::Int64(v) => self.walk(batch, n, cuts, |c, i| c.roll(&v[i].to_le_bytes())),
            ColumnValues::Int96(v) => self.walk(batch, n, cuts, |c, i| {
                let mut b = [0u8; 12];
                for (k, word) in v[i].0.iter().enumerate() {
                    b[4 * k..4 * k + 4].copy_from_slice(&word.to_le_bytes());
                }
                c.roll(&b)
            }),
            ColumnValues::Float(v) => self.walk(batch, n, cuts, |c, i| c.roll(&v[i].to_le_bytes())),
            ColumnValues::Double(v) => {
                self.walk(batch, n, cuts, |c, i| c.roll(&v[i].to_le_bytes()))
            }
            ColumnValues::ByteArray(v) => self.walk(batch, n, cuts, |c, i| c.roll(v.get(i))),
            ColumnValues::FixedLenByteArray(v) => {
                self.walk(batch, n, cuts, |c, i| c.roll(v.get(i)))
            }
        }
    }

    /// The walk over the levels, `roll_value(self, i)` hashing the `i`th non-null value.
    fn walk<F: FnMut(&mut Self, usize)>(
        &mut self,
        batch: &ColumnBatch,
        n: usize,
        cuts: &mut Vec<usize>,
        mut roll_value: F,
    ) {
        if self.max_def == 0 && self.max_rep == 0 {
            for i in 0..n {
                roll_value(self, i);
                if self.need_new_chunk() {
                    cuts.push(i);
                }
            }
        } else if self.max_rep == 0 {
            let mut value = 0;
            for (i, &def) in batch.def_levels[..n].iter().enumerate() {
                self.roll_level(def);
                if def == self.max_def {
                    roll_value(self, value);
                    value += 1;
                }
                if self.need_new_chunk() {
                    cuts.push(i);
                }
            }
        } else {
            let mut value = 0;
            for i in 0..n {
                let def = batch.def_levels.get(i).copied().unwrap_or(0);
                let rep = batch.rep_levels[i];
                self.roll_level(def);
                self.roll_level(rep);
                if def == self.max_def {
                    roll_value(self, value);
                    value += 1;
                }
                if rep == 0 && self.need_new_chunk() {
                    cuts.push(i);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gear_tables_are_arrows() {
        // Entries of Arrow C++'s chunker_internal_generated.h.
        assert_eq!(GEAR[0][0], 0xf09f35a563783945);
        assert_eq!(GEAR[0][1], 0x0dcc5b3bc5ae410a);
        assert_eq!(GEAR[0][255], 0x15a28844e64cb211);
        assert_eq!(GEAR[1][0], 0xecfcba92fe5691a3);
        assert_eq!(GEAR[1][255], 0xc281fb8acc6ec1d3);
        assert_eq!(GEAR[2][0], 0xdd16cb672ba6979c);
        assert_eq!(GEAR[2][3], 0xf57ed8eb0d0294f2);
    }

    #[test]
    fn default_mask_is_arrows() {
        // ((256 KiB + 1 MiB) / 2 - 256 KiB) / 8 = 48 KiB: floor(log2) = 15 bits.
        assert_eq!(CdcOptions::default().mask().unwrap(), u64::MAX << 49);
        assert_eq!(
            CdcOptions::new(256 << 10, 1 << 20, 1)
                .unwrap()
                .mask()
                .unwrap(),
            u64::MAX << 50
        );
        assert!(CdcOptions::new(0, 8, 0).is_err(), "target 0 keeps no bit");
        assert!(CdcOptions::new(10, 5, 0).is_err());
    }

    fn cuts_of(chunker: &mut Chunker, batch: &ColumnBatch) -> Vec<usize> {
        let mut cuts = Vec::new();
        chunker.cuts(batch, batch.num_levels(), &mut cuts);
        cuts
    }

    #[test]
    fn max_size_cuts_without_a_match() {
        // min 0 would hash everything; a 63-bit mask practically never matches 8 times.
        let o = CdcOptions {
            min_chunk_size: 0,
            max_chunk_size: 80,
            norm_level: -60,
        };
        assert!(o.mask().is_ok());
        let mut c = Chunker::new(o, 0, 0).unwrap();
        let b = ColumnBatch {
            values: ColumnValues::Int64((0..40).collect()),
            def_levels: vec![],
            rep_levels: vec![],
        };
        // 8 bytes a value: the chunk reaches 80 bytes at the 10th value, so the 11th starts
        // the next page.
        assert_eq!(cuts_of(&mut c, &b), vec![9, 19, 29, 39]);
    }

    #[test]
    fn same_values_cut_alike_after_an_insert() {
        let o = CdcOptions::new(1 << 10, 4 << 10, 0).unwrap();
        let values: Vec<i64> = (0..20_000i64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15u64 as i64))
            .collect();
        let mut edited = values.clone();
        edited.splice(5000..5000, [1, 2, 3, 4, 5]);
        let batch = |v: &[i64]| ColumnBatch {
            values: ColumnValues::Int64(v.to_vec()),
            def_levels: vec![],
            rep_levels: vec![],
        };
        let a = cuts_of(&mut Chunker::new(o, 0, 0).unwrap(), &batch(&values));
        let b = cuts_of(&mut Chunker::new(o, 0, 0).unwrap(), &batch(&edited));
        assert!(a.len() > 20, "{}", a.len());
        let before: Vec<_> = a.iter().filter(|&&c| c < 5000).collect();
        assert_eq!(before, b.iter().filter(|&&c| c < 5000).collect::<Vec<_>>());
        // After the insert the cuts come back, 5 values later.
        let after: Vec<_> = a.iter().filter(|&&c| c > 12_000).map(|c| c + 5).collect();
        let b_after: Vec<_> = b.iter().filter(|&&c| c > 12_005).copied().collect();
        assert_eq!(after, b_after);
    }

    #[test]
    fn batches_cut_as_one() {
        let o = CdcOptions::new(256, 1024, 0).unwrap();
        let strings: Vec<String> = (0..3000)
            .map(|i| format!("row {i} {}", i * 7919 % 113))
            .collect();
        let defs: Vec<i16> = (0..3000).map(|i| (i % 5 != 0) as i16).collect();
        let batch = |r: std::ops::Range<usize>| {
            let mut v = crate::core::values::ByteArrays::new();
            for i in r.clone() {
                if defs[i] == 1 {
                    v.push(strings[i].as_bytes());
                }
            }
            ColumnBatch {
                values: ColumnValues::ByteArray(v),
                def_levels: defs[r].to_vec(),
                rep_levels: vec![],
            }
        };
        let whole = cuts_of(&mut Chunker::new(o, 1, 0).unwrap(), &batch(0..3000));
        let mut c = Chunker::new(o, 1, 0).unwrap();
        let mut split = cuts_of(&mut c, &batch(0..1234));
        split.extend(cuts_of(&mut c, &batch(1234..3000)).iter().map(|i| i + 1234));
        assert!(whole.len() > 10);
        assert_eq!(whole, split);
    }

    #[test]
    fn repeated_columns_cut_where_rows_start() {
        let o = CdcOptions::new(64, 256, 0).unwrap();
        let n = 5000;
        let rep: Vec<i16> = (0..n).map(|i| (i % 3 != 0) as i16).collect();
        let b = ColumnBatch {
            values: ColumnValues::Int32((0..n as i32).collect()),
            def_levels: vec![2; n],
            rep_levels: rep.clone(),
        };
        let cuts = cuts_of(&mut Chunker::new(o, 2, 1).unwrap(), &b);
        assert!(cuts.len() > 10);
        assert!(cuts.iter().all(|&i| rep[i] == 0));
    }
}
