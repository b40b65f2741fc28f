//! The hashes Bloom filters store: XXH64 with seed 0 of a value's PLAIN encoding (byte
//! arrays without their 4-byte length prefix).

use std::ops::Range;

use twox_hash::XxHash64;

use crate::core::values::{ColumnValues, Int96};

/// Hash of raw bytes: BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values.
#[inline]
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    XxHash64::oneshot(0, bytes)
}

/// Hash of an INT32 value (4 bytes little-endian).
#[inline]
pub fn hash_i32(v: i32) -> u64 {
    hash_bytes(&v.to_le_bytes())
}

/// Hash of an INT64 value (8 bytes little-endian).
#[inline]
pub fn hash_i64(v: i64) -> u64 {
    hash_bytes(&v.to_le_bytes())
}

/// Hash of a FLOAT value (its IEEE 754 bits, little-endian).
#[inline]
pub fn hash_f32(v: f32) -> u64 {
    hash_bytes(&v.to_le_bytes())
}

/// Hash of a DOUBLE value (its IEEE 754 bits, little-endian).
#[inline]
pub fn hash_f64(v: f64) -> u64 {
    hash_bytes(&v.to_le_bytes())
}

/// Hash of an INT96 value (12 bytes: three little-endian words).
#[inline]
pub fn hash_int96(v: Int96) -> u64 {
    let mut b = [0u8; 12];
    for (i, w) in v.0.iter().enumerate() {
        b[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    hash_bytes(&b)
}

/// Appends the hashes of `values[range]` to `out`. BOOLEAN values get no hashes (Bloom
/// filters are not defined for them); an out-of-range `range` is clamped.
pub fn hash_values(values: &ColumnValues, range: Range<usize>, out: &mut Vec<u64>) {
    let range = range.start.min(values.len())..range.end.min(values.len());
    out.reserve(range.len());
    match values {
        ColumnValues::Boolean(_) => {}
        ColumnValues::Int32(v) => out.extend(v[range].iter().map(|&x| hash_i32(x))),
        ColumnValues::Int64(v) => out.extend(v[range].iter().map(|&x| hash_i64(x))),
        ColumnValues::Int96(v) => out.extend(v[range].iter().map(|&x| hash_int96(x))),
        ColumnValues::Float(v) => out.extend(v[range].iter().map(|&x| hash_f32(x))),
        ColumnValues::Double(v) => out.extend(v[range].iter().map(|&x| hash_f64(x))),
        ColumnValues::ByteArray(v) => out.extend(range.map(|i| hash_bytes(v.get(i)))),
        ColumnValues::FixedLenByteArray(v) => out.extend(range.map(|i| hash_bytes(v.get(i)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xxh64_reference_values() {
        // XXH64 test vectors (seed 0).
        assert_eq!(hash_bytes(b""), 0xef46_db37_51d8_e999);
        assert_eq!(hash_bytes(b"a"), 0xd24e_c4f1_a98c_6e5b);
        assert_eq!(hash_bytes(b"abc"), 0x44bc_2cf5_ad77_0999);
    }

    #[test]
    fn plain_encodings() {
        assert_eq!(hash_i32(1), hash_bytes(&[1, 0, 0, 0]));
        assert_eq!(hash_i64(-1), hash_bytes(&[0xff; 8]));
        assert_eq!(hash_f64(1.0), hash_bytes(&1.0f64.to_le_bytes()));
        assert_eq!(
            hash_int96(Int96([1, 2, 3])),
            hash_bytes(&[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0])
        );
        let mut out = Vec::new();
        hash_values(&ColumnValues::Int32(vec![5, 6, 7]), 1..9, &mut out);
        assert_eq!(out, vec![hash_i32(6), hash_i32(7)]);
        out.clear();
        hash_values(&ColumnValues::Boolean(vec![true]), 0..1, &mut out);
        assert!(out.is_empty());
    }
}
