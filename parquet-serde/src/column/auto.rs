//! The `Auto` choice of a value encoding, made once per column chunk from the values of its
//! first page that is not dictionary-encoded.
//!
//! | physical type | choice |
//! |---|---|
//! | BOOLEAN | RLE (runs shrink; random bits cost under 1% more than PLAIN) |
//! | INT32, INT64 | DELTA_BINARY_PACKED when it is at most 7/8 of PLAIN (sorted or near-sorted values such as timestamps, ids, small ranges), else PLAIN |
//! | FLOAT, DOUBLE | BYTE_STREAM_SPLIT when the pages are compressed, else PLAIN |
//! | BYTE_ARRAY | DELTA_BYTE_ARRAY when values share prefixes (a quarter of the bytes or more), else DELTA_LENGTH_BYTE_ARRAY |
//! | FIXED_LEN_BYTE_ARRAY | DELTA_BYTE_ARRAY when values share prefixes, else PLAIN (BYTE_STREAM_SPLIT only when asked: DuckDB 2.0 cannot read it on this type) |
//! | INT96 | PLAIN |
//!
//! Whether the dictionary pays is decided by the writer (see `writer.rs`): dictionary
//! encoding is kept while the dictionary and its indices stay under 3/4 of the PLAIN size.

use crate::encoding::delta_binary_packed;
use crate::encoding::delta_byte_array::common_prefix;
use crate::format::Encoding;
use crate::values::ColumnValues;

/// Dictionary encoding pays while `dictionary + indices <= PLAIN * PAYS_NUM / PAYS_DEN`.
pub(crate) const PAYS_NUM: usize = 3;
/// See [`PAYS_NUM`].
pub(crate) const PAYS_DEN: usize = 4;

/// The encoding for `values` (a page's worth), given whether pages are compressed.
/// `scratch` is working space.
pub(crate) fn choose(values: &ColumnValues, compressed: bool, scratch: &mut Vec<u8>) -> Encoding {
    match values {
        ColumnValues::Boolean(_) => Encoding::Rle,
        ColumnValues::Int32(v) => delta_or_plain(v, scratch),
        ColumnValues::Int64(v) => delta_or_plain(v, scratch),
        ColumnValues::Int96(_) => Encoding::Plain,
        ColumnValues::Float(_) | ColumnValues::Double(_) => {
            if compressed {
                Encoding::ByteStreamSplit
            } else {
                Encoding::Plain
            }
        }
        ColumnValues::ByteArray(v) => {
            if shares_prefixes(v.iter(), v.data.len()) {
                Encoding::DeltaByteArray
            } else {
                Encoding::DeltaLengthByteArray
            }
        }
        ColumnValues::FixedLenByteArray(v) => {
            if v.width > 0 && shares_prefixes(v.iter(), v.data.len()) {
                Encoding::DeltaByteArray
            } else {
                Encoding::Plain
            }
        }
    }
}

fn delta_or_plain<T: delta_binary_packed::DeltaInt>(
    values: &[T],
    scratch: &mut Vec<u8>,
) -> Encoding {
    scratch.clear();
    delta_binary_packed::encode(values, scratch);
    let plain = std::mem::size_of_val(values);
    if scratch.len() * 8 <= plain * 7 {
        Encoding::DeltaBinaryPacked
    } else {
        Encoding::Plain
    }
}

/// Whether consecutive values share at least a quarter of all the bytes.
fn shares_prefixes<'a>(values: impl Iterator<Item = &'a [u8]>, total: usize) -> bool {
    let mut prev: &[u8] = &[];
    let mut shared = 0usize;
    for v in values {
        shared += common_prefix(prev, v);
        prev = v;
    }
    total > 0 && shared * 4 >= total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::{ByteArrays, FixedLenByteArrays};

    #[test]
    fn choices() {
        let mut s = Vec::new();
        let ts: Vec<i64> = (0..1000)
            .map(|i| 1_700_000_000_000_000 + i * 1_000_003)
            .collect();
        assert_eq!(
            choose(&ColumnValues::Int64(ts), false, &mut s),
            Encoding::DeltaBinaryPacked
        );
        let random: Vec<i64> = (0..1000u64)
            .map(|i| {
                let x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9) as i64
            })
            .collect();
        assert_eq!(
            choose(&ColumnValues::Int64(random), true, &mut s),
            Encoding::Plain
        );
        assert_eq!(
            choose(&ColumnValues::Double(vec![1.0]), true, &mut s),
            Encoding::ByteStreamSplit
        );
        assert_eq!(
            choose(&ColumnValues::Float(vec![1.0]), false, &mut s),
            Encoding::Plain
        );
        assert_eq!(
            choose(&ColumnValues::Boolean(vec![true]), false, &mut s),
            Encoding::Rle
        );

        let mut urls = ByteArrays::new();
        let mut words = ByteArrays::new();
        for i in 0..100 {
            urls.push(format!("https://example.com/api/v1/items/{i}").as_bytes());
            words.push(format!("{}-{i}", ["x", "yy", "zzz"][i % 3]).as_bytes());
        }
        assert_eq!(
            choose(&ColumnValues::ByteArray(urls), false, &mut s),
            Encoding::DeltaByteArray
        );
        assert_eq!(
            choose(&ColumnValues::ByteArray(words), false, &mut s),
            Encoding::DeltaLengthByteArray
        );
        let mut f = FixedLenByteArrays::new(2);
        for i in 0..100u16 {
            f.push(&i.wrapping_mul(40503).to_le_bytes());
        }
        assert_eq!(
            choose(&ColumnValues::FixedLenByteArray(f), true, &mut s),
            Encoding::Plain
        );
    }
}
