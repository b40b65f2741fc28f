//! Plain containers for column values, shared by the encoding, column and typed layers.
//!
//! Hot loops work on these slices directly: byte arrays are one contiguous buffer plus
//! offsets, never one allocation per value.
//!
//! The text forms of logical values (dates, times, timestamps, decimals, UUIDs), printed and
//! parsed, live in the crate-internal `text` module; what an annotated byte value must be
//! (UTF-8, JSON text, a BSON document) in [`ByteCheck`]; numeric conversions of stored values
//! (INT96 to nanoseconds, big-endian bytes to 128-bit integers, FLOAT16) in `numeric`.

mod annotated;
pub(crate) mod calendar;
mod gather;
mod interval;
mod json_text;
pub(crate) mod numeric;
pub(crate) mod text;

pub use annotated::ByteCheck;
pub(crate) use gather::{gather, GatherError};
pub use interval::Interval;

/// A 96-bit value as stored by the deprecated INT96 type: three little-endian `u32` words.
/// Legacy timestamps store nanoseconds of the day in the first two words (as a `u64`) and the
/// Julian day in the third.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Int96(pub [u32; 3]);

impl Int96 {
    /// Julian day of the Unix epoch (1970-01-01).
    pub const JULIAN_DAY_OF_EPOCH: i64 = 2_440_588;

    /// Interprets the value as a legacy timestamp: nanoseconds since the Unix epoch, or `None`
    /// when it does not fit in an `i64`.
    pub fn to_nanos(self) -> Option<i64> {
        let nanos_of_day = (self.0[0] as u64 | ((self.0[1] as u64) << 32)) as i64;
        // The Julian day is read as unsigned, as Arrow C++ and arrow-rs read it.
        let day = self.0[2] as i64 - Self::JULIAN_DAY_OF_EPOCH;
        day.checked_mul(86_400_000_000_000)?
            .checked_add(nanos_of_day)
    }

    /// A legacy timestamp from nanoseconds since the Unix epoch.
    pub fn from_nanos(nanos: i64) -> Self {
        let day = nanos.div_euclid(86_400_000_000_000) + Self::JULIAN_DAY_OF_EPOCH;
        let nanos_of_day = nanos.rem_euclid(86_400_000_000_000) as u64;
        Int96([nanos_of_day as u32, (nanos_of_day >> 32) as u32, day as u32])
    }
}

impl std::fmt::Display for Int96 {
    /// The legacy timestamp as UTC RFC 3339 text with nanoseconds, as `cat` prints it.
    ///
    /// ```
    /// use parquet_serde::core::values::Int96;
    /// assert_eq!(Int96::from_nanos(1).to_string(), "1970-01-01T00:00:00.000000001Z");
    /// ```
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        text::int96(*self, f)
    }
}

/// Variable-length byte strings in one buffer: value `i` is `data[offsets[i]..offsets[i + 1]]`.
///
/// ```
/// use parquet_serde::core::values::ByteArrays;
/// let mut v = ByteArrays::new();
/// v.push(b"hello");
/// v.push(b"");
/// assert_eq!(v.len(), 2);
/// assert_eq!(v.get(0), b"hello");
/// assert_eq!(v.iter().collect::<Vec<_>>(), vec![&b"hello"[..], &b""[..]]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByteArrays {
    /// `len() + 1` offsets into `data`, starting with 0, non-decreasing.
    pub offsets: Vec<usize>,
    /// The concatenated bytes.
    pub data: Vec<u8>,
}

impl Default for ByteArrays {
    fn default() -> Self {
        Self::new()
    }
}

impl ByteArrays {
    /// An empty buffer.
    pub fn new() -> Self {
        ByteArrays {
            offsets: vec![0],
            data: Vec::new(),
        }
    }

    /// An empty buffer with room for `values` values of `bytes` bytes in all.
    pub fn with_capacity(values: usize, bytes: usize) -> Self {
        let mut offsets = Vec::with_capacity(values + 1);
        offsets.push(0);
        ByteArrays {
            offsets,
            data: Vec::with_capacity(bytes),
        }
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Whether there is no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends a value.
    #[inline]
    pub fn push(&mut self, value: &[u8]) {
        self.data.extend_from_slice(value);
        self.offsets.push(self.data.len());
    }

    /// Value `i`. Panics if `i >= len()`, like slice indexing.
    #[inline]
    pub fn get(&self, i: usize) -> &[u8] {
        &self.data[self.offsets[i]..self.offsets[i + 1]]
    }

    /// The values in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        self.offsets.windows(2).map(move |w| &self.data[w[0]..w[1]])
    }

    /// Removes every value, keeping the allocations.
    pub fn clear(&mut self) {
        self.offsets.truncate(1);
        self.data.clear();
    }
}

/// Fixed-length byte strings in one buffer: value `i` is `data[i * width..(i + 1) * width]`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FixedLenByteArrays {
    /// Bytes per value.
    pub width: usize,
    /// The concatenated values (`len() * width` bytes).
    pub data: Vec<u8>,
}

impl FixedLenByteArrays {
    /// An empty buffer for values of `width` bytes.
    pub fn new(width: usize) -> Self {
        FixedLenByteArrays {
            width,
            data: Vec::new(),
        }
    }

    /// Number of values (0 when `width` is 0).
    pub fn len(&self) -> usize {
        self.data.len().checked_div(self.width).unwrap_or(0)
    }

    /// Whether there is no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Value `i`. Panics if out of range, like slice indexing.
    #[inline]
    pub fn get(&self, i: usize) -> &[u8] {
        &self.data[i * self.width..(i + 1) * self.width]
    }

    /// Appends a value; its length must be `width`.
    #[inline]
    pub fn push(&mut self, value: &[u8]) {
        debug_assert_eq!(value.len(), self.width);
        self.data.extend_from_slice(value);
    }

    /// The values in order.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> + '_ {
        self.data.chunks_exact(self.width.max(1))
    }
}

/// The non-null values of one leaf column, one variant per physical type.
#[derive(Debug, Clone, PartialEq)]
pub enum ColumnValues {
    /// BOOLEAN values.
    Boolean(Vec<bool>),
    /// INT32 values.
    Int32(Vec<i32>),
    /// INT64 values.
    Int64(Vec<i64>),
    /// INT96 values.
    Int96(Vec<Int96>),
    /// FLOAT values.
    Float(Vec<f32>),
    /// DOUBLE values.
    Double(Vec<f64>),
    /// BYTE_ARRAY values.
    ByteArray(ByteArrays),
    /// FIXED_LEN_BYTE_ARRAY values.
    FixedLenByteArray(FixedLenByteArrays),
}

impl ColumnValues {
    /// Number of values.
    pub fn len(&self) -> usize {
        match self {
            ColumnValues::Boolean(v) => v.len(),
            ColumnValues::Int32(v) => v.len(),
            ColumnValues::Int64(v) => v.len(),
            ColumnValues::Int96(v) => v.len(),
            ColumnValues::Float(v) => v.len(),
            ColumnValues::Double(v) => v.len(),
            ColumnValues::ByteArray(v) => v.len(),
            ColumnValues::FixedLenByteArray(v) => v.len(),
        }
    }

    /// Whether there is no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int96_nanos_round_trip() {
        for nanos in [0i64, 1, -1, 1_600_000_000_123_456_789, -86_400_000_000_001] {
            assert_eq!(Int96::from_nanos(nanos).to_nanos(), Some(nanos));
        }
        // Julian day 2440588, midnight = epoch.
        assert_eq!(Int96([0, 0, 2_440_588]).to_nanos(), Some(0));
    }
}
