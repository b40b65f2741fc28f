//! Appending the values that a list of dictionary indices names: dictionary decoding on the
//! read path, and on the write path turning buffered indices back into values when a
//! dictionary is dropped.

use super::{ByteArrays, ColumnValues, FixedLenByteArrays};

/// Why [`gather`] appended nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GatherError {
    /// An index at or past the end of the dictionary (the first such index).
    OutOfRange {
        /// The index.
        index: u32,
        /// The dictionary's number of values.
        len: usize,
    },
    /// The dictionary and the output hold different physical types.
    TypeMismatch,
}

/// Appends `dict[i]` for each of `indices` to `out` (the same variant as `dict`). Every
/// index is checked first: on error nothing is appended.
pub(crate) fn gather(
    dict: &ColumnValues,
    indices: &[u32],
    out: &mut ColumnValues,
) -> Result<(), GatherError> {
    let len = dict.len();
    if let Some(&index) = indices.iter().find(|&&i| i as usize >= len) {
        return Err(GatherError::OutOfRange { index, len });
    }
    // Every index is < len from here on.
    match (dict, out) {
        (ColumnValues::Boolean(d), ColumnValues::Boolean(o)) => copy(d, indices, o),
        (ColumnValues::Int32(d), ColumnValues::Int32(o)) => copy(d, indices, o),
        (ColumnValues::Int64(d), ColumnValues::Int64(o)) => copy(d, indices, o),
        (ColumnValues::Int96(d), ColumnValues::Int96(o)) => copy(d, indices, o),
        (ColumnValues::Float(d), ColumnValues::Float(o)) => copy(d, indices, o),
        (ColumnValues::Double(d), ColumnValues::Double(o)) => copy(d, indices, o),
        (ColumnValues::ByteArray(d), ColumnValues::ByteArray(o)) => bytes(d, indices, o),
        (ColumnValues::FixedLenByteArray(d), ColumnValues::FixedLenByteArray(o)) => {
            fixed(d, indices, o)
        }
        _ => return Err(GatherError::TypeMismatch),
    }
    Ok(())
}

fn copy<T: Copy>(dict: &[T], indices: &[u32], out: &mut Vec<T>) {
    out.reserve(indices.len());
    out.extend(indices.iter().map(|&i| dict[i as usize]));
}

/// Values up to this length are copied as one fixed-size block (which the compiler turns
/// into a couple of register moves) rather than through a `memcpy` call of the exact
/// length: dictionary values are mostly short words (levels, tags, keys).
const SHORT: usize = 32;

/// Dictionaries of byte arrays up to this size are padded for [`bytes`].
const PAD_DICTIONARY_BYTES: usize = 4096;

/// Byte arrays: the output grows once by the total length (plus `SHORT` bytes of slack, so
/// that a short value may be copied as a whole block past its end), then each value is
/// copied into place and the slack cut off.
fn bytes(dict: &ByteArrays, indices: &[u32], out: &mut ByteArrays) {
    let offsets = &dict.offsets;
    let total: usize = indices
        .iter()
        .map(|&i| offsets[i as usize + 1] - offsets[i as usize])
        .sum();
    // A small dictionary is copied with slack after it, so that its last values are short
    // block copies too (most of a small dictionary's values are near its end).
    let padded: Vec<u8>;
    let src = if dict.data.len() <= PAD_DICTIONARY_BYTES {
        padded = [dict.data.as_slice(), &[0; SHORT]].concat();
        padded.as_slice()
    } else {
        dict.data.as_slice()
    };
    let start = out.data.len();
    out.data.resize(start + total + SHORT, 0);
    out.offsets.reserve(indices.len());
    let dst = out.data.as_mut_slice();
    let mut pos = start;
    for &i in indices {
        let (a, b) = (offsets[i as usize], offsets[i as usize + 1]);
        let n = b - a;
        if n <= SHORT && a + SHORT <= src.len() {
            // The block ends within the slack: pos + n <= start + total.
            dst[pos..pos + SHORT].copy_from_slice(&src[a..a + SHORT]);
        } else {
            dst[pos..pos + n].copy_from_slice(&src[a..b]);
        }
        pos += n;
        out.offsets.push(pos);
    }
    out.data.truncate(pos);
}

fn fixed(dict: &FixedLenByteArrays, indices: &[u32], out: &mut FixedLenByteArrays) {
    out.data.reserve(indices.len() * dict.width);
    for &i in indices {
        out.data.extend_from_slice(dict.get(i as usize));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn byte_arrays(values: &[&[u8]]) -> ByteArrays {
        let mut v = ByteArrays::new();
        for x in values {
            v.push(x);
        }
        v
    }

    #[test]
    fn byte_arrays_short_long_and_at_the_end_of_the_dictionary() {
        // Values shorter than the block, one longer, an empty one, and the last value of
        // the dictionary (no block fits after it: copied at its length).
        let long = [b'x'; 40];
        let dict = byte_arrays(&[b"a", b"bc", &long, b"", b"tail"]);
        let mut out = ColumnValues::ByteArray(byte_arrays(&[b"kept"]));
        let indices = [4, 0, 2, 1, 3, 4, 1];
        gather(&ColumnValues::ByteArray(dict.clone()), &indices, &mut out).unwrap();
        let ColumnValues::ByteArray(o) = out else {
            unreachable!()
        };
        let mut want: Vec<&[u8]> = vec![b"kept"];
        want.extend(indices.iter().map(|&i| dict.get(i as usize)));
        assert_eq!(o.iter().collect::<Vec<_>>(), want);
        // No slack is left behind.
        assert_eq!(o.data.len(), *o.offsets.last().unwrap());
    }

    #[test]
    fn byte_arrays_of_every_length_around_the_block() {
        let values: Vec<Vec<u8>> = (0..=2 * SHORT + 1)
            .map(|n| (0..n).map(|k| (n * 7 + k) as u8).collect())
            .collect();
        let refs: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
        let dict = ColumnValues::ByteArray(byte_arrays(&refs));
        let indices: Vec<u32> = (0..values.len() as u32).rev().chain(0..3).collect();
        let mut out = ColumnValues::ByteArray(ByteArrays::new());
        gather(&dict, &indices, &mut out).unwrap();
        let ColumnValues::ByteArray(o) = out else {
            unreachable!()
        };
        let got: Vec<&[u8]> = o.iter().collect();
        let want: Vec<&[u8]> = indices.iter().map(|&i| refs[i as usize]).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn byte_arrays_from_a_large_dictionary() {
        // Not padded: its short last values are copied at their length.
        let big = vec![b'b'; PAD_DICTIONARY_BYTES];
        let dict = byte_arrays(&[&big, b"mid", b"x", b"yz"]);
        let mut out = ColumnValues::ByteArray(ByteArrays::new());
        let indices = [3, 2, 1, 0, 3];
        gather(&ColumnValues::ByteArray(dict.clone()), &indices, &mut out).unwrap();
        let ColumnValues::ByteArray(o) = out else {
            unreachable!()
        };
        let want: Vec<&[u8]> = indices.iter().map(|&i| dict.get(i as usize)).collect();
        assert_eq!(o.iter().collect::<Vec<_>>(), want);
        assert_eq!(o.data.len(), *o.offsets.last().unwrap());
    }

    #[test]
    fn numbers_and_fixed_width() {
        let mut out = ColumnValues::Int64(vec![7]);
        gather(&ColumnValues::Int64(vec![5, 6]), &[1, 1, 0], &mut out).unwrap();
        assert_eq!(out, ColumnValues::Int64(vec![7, 6, 6, 5]));
        let dict = FixedLenByteArrays {
            width: 2,
            data: b"abcd".to_vec(),
        };
        let mut out = ColumnValues::FixedLenByteArray(FixedLenByteArrays::new(2));
        gather(&ColumnValues::FixedLenByteArray(dict), &[1, 0], &mut out).unwrap();
        let ColumnValues::FixedLenByteArray(o) = out else {
            unreachable!()
        };
        assert_eq!(o.data, b"cdab");
    }

    #[test]
    fn a_bad_index_or_type_appends_nothing() {
        let dict = ColumnValues::ByteArray(byte_arrays(&[b"a", b"b"]));
        let mut out = ColumnValues::ByteArray(byte_arrays(&[b"kept"]));
        let before = out.clone();
        assert_eq!(
            gather(&dict, &[0, 2, 1], &mut out),
            Err(GatherError::OutOfRange { index: 2, len: 2 })
        );
        assert_eq!(out, before);
        let mut ints = ColumnValues::Int32(vec![]);
        assert_eq!(
            gather(&dict, &[0], &mut ints),
            Err(GatherError::TypeMismatch)
        );
        assert_eq!(ints, ColumnValues::Int32(vec![]));
    }
}
