//! [`ColumnBatch`]: values of one leaf column with their levels.

use crate::core::format::Type;
use crate::core::values::{ByteArrays, ColumnValues, FixedLenByteArrays};

/// Values of one leaf column with their definition and repetition levels (Dremel form).
///
/// `values` holds only the non-null values. A level vector is empty when the column's
/// maximum level is 0 (every level is then 0 and there is one value per row).
///
/// ```
/// use parquet_serde::core::column::ColumnBatch;
/// use parquet_serde::core::values::ColumnValues;
/// // optional int32 with values [1, null, 3]:
/// let b = ColumnBatch {
///     values: ColumnValues::Int32(vec![1, 3]),
///     def_levels: vec![1, 0, 1],
///     rep_levels: vec![],
/// };
/// assert_eq!(b.num_levels(), 3);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnBatch {
    /// The non-null values.
    pub values: ColumnValues,
    /// Definition levels, one per value slot (empty when the max definition level is 0).
    pub def_levels: Vec<i16>,
    /// Repetition levels, one per value slot (empty when the max repetition level is 0).
    pub rep_levels: Vec<i16>,
}

impl ColumnBatch {
    /// An empty batch for a physical type (`type_length` for FIXED_LEN_BYTE_ARRAY).
    pub fn new(physical_type: Type, type_length: i32) -> Self {
        ColumnBatch {
            values: empty_values(physical_type, type_length),
            def_levels: Vec::new(),
            rep_levels: Vec::new(),
        }
    }

    /// Number of value slots (levels), nulls included.
    pub fn num_levels(&self) -> usize {
        if !self.def_levels.is_empty() {
            self.def_levels.len()
        } else if !self.rep_levels.is_empty() {
            self.rep_levels.len()
        } else {
            self.values.len()
        }
    }
}

/// What a column chunk claims it decodes to: a hint to size the decoded buffers with once,
/// instead of growing them page after page (each doubling copies everything decoded so far
/// into memory never touched before).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct SizeHint {
    /// Level entries (the chunk's `num_values`): an upper bound on its values.
    pub values: usize,
    /// Bytes of its BYTE_ARRAY values (`SizeStatistics.unencoded_byte_array_data_bytes`;
    /// 0 when unknown).
    pub value_bytes: usize,
    /// Stored bytes of the chunk.
    pub stored: usize,
}

/// The most a chunk's claims may reserve per stored byte. Past that a claim is ignored
/// and the buffers grow as they fill, so a footer that lies reserves at most a bounded
/// multiple of the bytes actually read.
pub(crate) const RESERVE_PER_STORED_BYTE: usize = 64;

impl ColumnBatch {
    /// Reserves room for what `hint` claims (levels for the maximum levels given, values of
    /// this batch's type), when that fits in [`RESERVE_PER_STORED_BYTE`] times the stored
    /// bytes; otherwise, or when the memory is not there, nothing. Only ever a hint: the
    /// buffers still grow as decoding needs.
    pub(crate) fn reserve(&mut self, hint: SizeHint, max_def: i16, max_rep: i16) {
        let n = hint.values;
        let levels = usize::from(max_def > 0) + usize::from(max_rep > 0);
        let level_bytes = n.saturating_mul(2 * levels);
        let value_bytes = match &self.values {
            ColumnValues::Boolean(_) => n,
            ColumnValues::Int32(_) | ColumnValues::Float(_) => n.saturating_mul(4),
            ColumnValues::Int64(_) | ColumnValues::Double(_) => n.saturating_mul(8),
            ColumnValues::Int96(_) => n.saturating_mul(12),
            ColumnValues::ByteArray(_) => n
                .saturating_mul(std::mem::size_of::<usize>())
                .saturating_add(hint.value_bytes),
            ColumnValues::FixedLenByteArray(v) => n.saturating_mul(v.width),
        };
        if level_bytes.saturating_add(value_bytes)
            > hint.stored.saturating_mul(RESERVE_PER_STORED_BYTE)
        {
            return;
        }
        // Failures leave the buffers as they are: they grow as they fill.
        if max_def > 0 {
            let _ = self.def_levels.try_reserve_exact(n);
        }
        if max_rep > 0 {
            let _ = self.rep_levels.try_reserve_exact(n);
        }
        let _ = match &mut self.values {
            ColumnValues::Boolean(v) => v.try_reserve_exact(n),
            ColumnValues::Int32(v) => v.try_reserve_exact(n),
            ColumnValues::Int64(v) => v.try_reserve_exact(n),
            ColumnValues::Int96(v) => v.try_reserve_exact(n),
            ColumnValues::Float(v) => v.try_reserve_exact(n),
            ColumnValues::Double(v) => v.try_reserve_exact(n),
            ColumnValues::ByteArray(v) => v
                .offsets
                .try_reserve_exact(n)
                .and_then(|()| v.data.try_reserve_exact(hint.value_bytes)),
            ColumnValues::FixedLenByteArray(v) => {
                v.data.try_reserve_exact(n.saturating_mul(v.width))
            }
        };
    }
}

/// Empty values of a physical type. Unknown types get an empty byte-array buffer (they
/// cannot be decoded; the reader rejects them first).
pub fn empty_values(physical_type: Type, type_length: i32) -> ColumnValues {
    match physical_type {
        Type::Boolean => ColumnValues::Boolean(Vec::new()),
        Type::Int32 => ColumnValues::Int32(Vec::new()),
        Type::Int64 => ColumnValues::Int64(Vec::new()),
        Type::Int96 => ColumnValues::Int96(Vec::new()),
        Type::Float => ColumnValues::Float(Vec::new()),
        Type::Double => ColumnValues::Double(Vec::new()),
        Type::FixedLenByteArray => {
            ColumnValues::FixedLenByteArray(FixedLenByteArrays::new(type_length.max(0) as usize))
        }
        Type::ByteArray | Type::Unknown(_) => ColumnValues::ByteArray(ByteArrays::new()),
    }
}

/// Empty values of the same physical type (and width) as `values`.
pub fn empty_values_like(values: &ColumnValues) -> ColumnValues {
    match values {
        ColumnValues::Boolean(_) => ColumnValues::Boolean(Vec::new()),
        ColumnValues::Int32(_) => ColumnValues::Int32(Vec::new()),
        ColumnValues::Int64(_) => ColumnValues::Int64(Vec::new()),
        ColumnValues::Int96(_) => ColumnValues::Int96(Vec::new()),
        ColumnValues::Float(_) => ColumnValues::Float(Vec::new()),
        ColumnValues::Double(_) => ColumnValues::Double(Vec::new()),
        ColumnValues::ByteArray(_) => ColumnValues::ByteArray(ByteArrays::new()),
        ColumnValues::FixedLenByteArray(v) => {
            ColumnValues::FixedLenByteArray(FixedLenByteArrays::new(v.width))
        }
    }
}

/// Appends `src[range]` to `dst` (same variant; a mismatch appends nothing).
pub(crate) fn extend_values(
    dst: &mut ColumnValues,
    src: &ColumnValues,
    range: std::ops::Range<usize>,
) {
    match (dst, src) {
        (ColumnValues::Boolean(d), ColumnValues::Boolean(s)) => d.extend_from_slice(&s[range]),
        (ColumnValues::Int32(d), ColumnValues::Int32(s)) => d.extend_from_slice(&s[range]),
        (ColumnValues::Int64(d), ColumnValues::Int64(s)) => d.extend_from_slice(&s[range]),
        (ColumnValues::Int96(d), ColumnValues::Int96(s)) => d.extend_from_slice(&s[range]),
        (ColumnValues::Float(d), ColumnValues::Float(s)) => d.extend_from_slice(&s[range]),
        (ColumnValues::Double(d), ColumnValues::Double(s)) => d.extend_from_slice(&s[range]),
        (ColumnValues::ByteArray(d), ColumnValues::ByteArray(s)) => {
            if range.is_empty() {
                return;
            }
            let (start, end) = (s.offsets[range.start], s.offsets[range.end]);
            let base = d.data.len();
            d.data.extend_from_slice(&s.data[start..end]);
            d.offsets.extend(
                s.offsets[range.start + 1..=range.end]
                    .iter()
                    .map(|&o| o - start + base),
            );
        }
        (ColumnValues::FixedLenByteArray(d), ColumnValues::FixedLenByteArray(s)) => {
            d.data
                .extend_from_slice(&s.data[range.start * s.width..range.end * s.width]);
        }
        _ => {}
    }
}

/// Keeps the first `n` values (all when there are fewer); a byte array's bytes past its
/// last kept value go too.
pub(crate) fn truncate_values(values: &mut ColumnValues, n: usize) {
    match values {
        ColumnValues::Boolean(v) => v.truncate(n),
        ColumnValues::Int32(v) => v.truncate(n),
        ColumnValues::Int64(v) => v.truncate(n),
        ColumnValues::Int96(v) => v.truncate(n),
        ColumnValues::Float(v) => v.truncate(n),
        ColumnValues::Double(v) => v.truncate(n),
        ColumnValues::ByteArray(v) => {
            if n < v.offsets.len() {
                v.offsets.truncate(n + 1);
            }
            // Also drops bytes of a value that was being collected.
            let end = v.offsets.last().copied().unwrap_or(0);
            v.data.truncate(end);
        }
        ColumnValues::FixedLenByteArray(v) => {
            let end = n.saturating_mul(v.width).min(v.data.len());
            let whole = if v.width == 0 { 0 } else { end - end % v.width };
            v.data.truncate(whole);
        }
    }
}

/// Removes every value, keeping allocations.
pub(crate) fn clear_values(values: &mut ColumnValues) {
    match values {
        ColumnValues::Boolean(v) => v.clear(),
        ColumnValues::Int32(v) => v.clear(),
        ColumnValues::Int64(v) => v.clear(),
        ColumnValues::Int96(v) => v.clear(),
        ColumnValues::Float(v) => v.clear(),
        ColumnValues::Double(v) => v.clear(),
        ColumnValues::ByteArray(v) => v.clear(),
        ColumnValues::FixedLenByteArray(v) => v.data.clear(),
    }
}

/// Whether `values` is the variant of `physical_type`.
pub(crate) fn matches_type(values: &ColumnValues, physical_type: Type) -> bool {
    matches!(
        (values, physical_type),
        (ColumnValues::Boolean(_), Type::Boolean)
            | (ColumnValues::Int32(_), Type::Int32)
            | (ColumnValues::Int64(_), Type::Int64)
            | (ColumnValues::Int96(_), Type::Int96)
            | (ColumnValues::Float(_), Type::Float)
            | (ColumnValues::Double(_), Type::Double)
            | (ColumnValues::ByteArray(_), Type::ByteArray)
            | (ColumnValues::FixedLenByteArray(_), Type::FixedLenByteArray)
    )
}

/// How many of `levels` equal `level`: counted in 16-bit lanes, a chunk at a time, so the
/// loop vectorizes (a `filter().count()` widens every comparison to a `usize`).
#[inline]
pub(crate) fn count_level(levels: &[i16], level: i16) -> usize {
    levels
        .chunks(1 << 15)
        .map(|chunk| {
            // At most 2^15 matches: no overflow.
            chunk
                .iter()
                .fold(0u16, |n, &l| n.wrapping_add(u16::from(l == level))) as usize
        })
        .sum()
}

/// The first of `levels` outside `0..=max`, if any. The common case (none) is one
/// vectorized pass for the smallest and largest level; only then is the culprit searched.
#[inline]
pub(crate) fn level_outside(levels: &[i16], max: i16) -> Option<i16> {
    let (lo, hi) = levels
        .iter()
        .fold((0i16, 0i16), |(lo, hi), &l| (lo.min(l), hi.max(l)));
    if lo >= 0 && hi <= max {
        return None;
    }
    levels.iter().copied().find(|&l| l < 0 || l > max)
}

#[cfg(test)]
mod reserve_tests {
    use super::*;

    #[test]
    fn claims_reserve_up_to_a_multiple_of_the_stored_bytes() {
        let mut b = ColumnBatch::new(Type::ByteArray, 0);
        let hint = SizeHint {
            values: 1000,
            value_bytes: 5000,
            stored: 1000,
        };
        b.reserve(hint, 1, 0);
        let ColumnValues::ByteArray(v) = &b.values else {
            unreachable!()
        };
        assert!(v.offsets.capacity() >= 1000 && v.data.capacity() >= 5000);
        assert!(b.def_levels.capacity() >= 1000 && b.rep_levels.capacity() == 0);
        // A claim past RESERVE_PER_STORED_BYTE per stored byte reserves nothing.
        let mut b = ColumnBatch::new(Type::Int64, 0);
        let lie = SizeHint {
            values: 1 << 40,
            value_bytes: 0,
            stored: 1000,
        };
        b.reserve(lie, 1, 1);
        assert_eq!(b.def_levels.capacity(), 0);
        assert_eq!(b.values.len(), 0);
        let ColumnValues::Int64(v) = &b.values else {
            unreachable!()
        };
        assert_eq!(v.capacity(), 0);
        // Within the budget, every level vector the maximum levels call for.
        let fits = SizeHint {
            values: 1000,
            value_bytes: 0,
            stored: (1000usize * (8 + 4)).div_ceil(RESERVE_PER_STORED_BYTE),
        };
        b.reserve(fits, 1, 1);
        assert!(b.def_levels.capacity() >= 1000 && b.rep_levels.capacity() >= 1000);
    }
}

#[cfg(test)]
mod level_scan_tests {
    use super::{count_level, level_outside};

    #[test]
    fn counts_and_ranges_match_the_plain_loops() {
        // Long enough to cross the 2^15 chunks; every value of a small range, and extremes.
        let levels: Vec<i16> = (0..100_000u32)
            .map(|i| match i % 11 {
                10 if i % 7 == 0 => i16::MIN,
                10 => 9,
                k => (k % 4) as i16,
            })
            .collect();
        for level in [-1i16, 0, 1, 2, 3, 9, i16::MIN] {
            let want = levels.iter().filter(|&&l| l == level).count();
            assert_eq!(count_level(&levels, level), want, "level {level}");
        }
        // All 65 536 equal: more than one 16-bit lane could count in a single chunk.
        assert_eq!(count_level(&vec![1; 1 << 16], 1), 1 << 16);
        assert_eq!(count_level(&[], 0), 0);
        assert_eq!(level_outside(&levels, 3), Some(9));
        assert_eq!(level_outside(&levels, 9), Some(i16::MIN));
        assert_eq!(level_outside(&levels[..10], 3), None);
        assert_eq!(level_outside(&[0, 1, -1, 5], 4), Some(-1));
        assert_eq!(level_outside(&[0, 1, 5, -1], 4), Some(5));
        assert_eq!(level_outside(&[], 0), None);
    }
}
