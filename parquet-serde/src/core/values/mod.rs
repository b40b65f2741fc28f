//! Plain containers for column values, shared by the encoding, column and typed layers.
//!
//! Hot loops work on these slices directly: byte arrays are one contiguous buffer plus
//! offsets, never one allocation per value.
//!
//! The text forms of logical values (dates, times, timestamps, decimals, UUIDs), printed and
//! parsed, live in the crate-internal `text` module; what an annotated byte value must be
//! (UTF-8, JSON text, a BSON document) in `annotated` (checked through
//! [`SchemaNode::check_bytes`](crate::core::schema::SchemaNode::check_bytes)); numeric conversions of stored values
//! (INT96 to nanoseconds, big-endian bytes to 128-bit integers, FLOAT16) in `numeric`.

mod annotated;
pub(crate) mod calendar;
mod gather;
mod interval;
mod json_text;
pub(crate) mod numeric;
pub(crate) mod text;

pub(crate) use annotated::ByteCheck;
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
    /// `len() + 1` offsets into `data`, starting with 0, non-decreasing, the last one
    /// `data.len()`. Code inside the crate that writes these keeps that invariant.
    pub(crate) offsets: Vec<usize>,
    /// The concatenated bytes.
    pub(crate) data: Vec<u8>,
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

    /// Values from their parts: `offsets` holds `len() + 1` offsets into `data`, starting
    /// with 0, non-decreasing, the last one `data.len()`. Parts that break this are an
    /// [`ErrorKind::InvalidArgument`](crate::ErrorKind) error.
    ///
    /// ```
    /// use parquet_serde::core::values::ByteArrays;
    /// let v = ByteArrays::from_parts(vec![0, 2, 2, 5], b"hiabc".to_vec())?;
    /// assert_eq!(v.iter().collect::<Vec<_>>(), [&b"hi"[..], b"", b"abc"]);
    /// assert!(ByteArrays::from_parts(vec![0, 3, 2], b"abc".to_vec()).is_err());
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    pub fn from_parts(offsets: Vec<usize>, data: Vec<u8>) -> crate::Result<Self> {
        let starts_at_zero = offsets.first() == Some(&0);
        let ends_at_len = offsets.last() == Some(&data.len());
        let sorted = offsets.windows(2).all(|w| w[0] <= w[1]);
        if !(starts_at_zero && ends_at_len && sorted) {
            return Err(crate::Error::invalid_argument(format!(
                "byte array offsets must start at 0, never decrease and end at the data's \
                 length ({}); got {} offsets from {:?} to {:?}",
                data.len(),
                offsets.len(),
                offsets.first(),
                offsets.last()
            )));
        }
        Ok(ByteArrays { offsets, data })
    }

    /// The `len() + 1` offsets: value `i` is `data()[offsets()[i]..offsets()[i + 1]]`.
    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }

    /// The concatenated bytes of every value.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The offsets and the bytes, as [`from_parts`](Self::from_parts) takes them.
    pub fn into_parts(self) -> (Vec<usize>, Vec<u8>) {
        (self.offsets, self.data)
    }
}

/// Fixed-length byte strings in one buffer: value `i` is `data[i * width..(i + 1) * width]`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FixedLenByteArrays {
    /// Bytes per value.
    pub(crate) width: usize,
    /// The concatenated values (`len() * width` bytes). Code inside the crate that writes
    /// it keeps the length a multiple of `width`.
    pub(crate) data: Vec<u8>,
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

    /// Appends a value. Panics if its length is not [`width`](Self::width), like
    /// `copy_from_slice`.
    #[inline]
    pub fn push(&mut self, value: &[u8]) {
        assert_eq!(
            value.len(),
            self.width,
            "a FIXED_LEN_BYTE_ARRAY value of the wrong width"
        );
        self.data.extend_from_slice(value);
    }

    /// The values in order.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> + '_ {
        self.data.chunks_exact(self.width.max(1))
    }

    /// Values of `width` bytes from their concatenation. A `data` whose length is not a
    /// multiple of `width` (or not empty, for width 0) is an
    /// [`ErrorKind::InvalidArgument`](crate::ErrorKind) error.
    ///
    /// ```
    /// use parquet_serde::core::values::FixedLenByteArrays;
    /// let v = FixedLenByteArrays::from_parts(2, vec![1, 2, 3, 4])?;
    /// assert_eq!(v.get(1), [3, 4]);
    /// assert!(FixedLenByteArrays::from_parts(2, vec![1, 2, 3]).is_err());
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    pub fn from_parts(width: usize, data: Vec<u8>) -> crate::Result<Self> {
        let fits = match width {
            0 => data.is_empty(),
            w => data.len().is_multiple_of(w),
        };
        if !fits {
            return Err(crate::Error::invalid_argument(format!(
                "{} bytes are not a whole number of FIXED_LEN_BYTE_ARRAY values of {width} bytes",
                data.len()
            )));
        }
        Ok(FixedLenByteArrays { width, data })
    }

    /// Bytes per value.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The concatenated values (`len() * width()` bytes).
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The width and the concatenated values, as [`from_parts`](Self::from_parts) takes
    /// them.
    pub fn into_parts(self) -> (usize, Vec<u8>) {
        (self.width, self.data)
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
