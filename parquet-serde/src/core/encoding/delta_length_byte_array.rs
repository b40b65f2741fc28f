//! DELTA_LENGTH_BYTE_ARRAY for BYTE_ARRAY: the lengths of the values (DELTA_BINARY_PACKED
//! INT32), then all their bytes back to back.

use super::delta_binary_packed as dbp;
use crate::core::values::ByteArrays;
use crate::error::{Error, Result};

/// Appends `values`. Fails for a value of 2 GiB or more (lengths are INT32).
pub fn encode(values: &ByteArrays, out: &mut Vec<u8>) -> Result<()> {
    let lengths = lengths_of(values.offsets.windows(2).map(|w| w[1] - w[0]))?;
    dbp::encode(&lengths, out);
    out.extend_from_slice(&values.data);
    Ok(())
}

/// The lengths as INT32, or an error for a length of 2 GiB or more.
pub(crate) fn lengths_of(lengths: impl ExactSizeIterator<Item = usize>) -> Result<Vec<i32>> {
    let mut out = Vec::with_capacity(lengths.len());
    for len in lengths {
        out.push(i32::try_from(len).map_err(|_| {
            Error::invalid_argument(format!(
                "a byte array of {len} bytes: the DELTA encodings store lengths below 2 GiB"
            ))
        })?);
    }
    Ok(out)
}

/// Appends INT32 `lengths` (DELTA_BINARY_PACKED) and then `data`.
pub(crate) fn encode_parts(lengths: &[i32], data: &[u8], out: &mut Vec<u8>) {
    dbp::encode(lengths, out);
    out.extend_from_slice(data);
}

/// Decodes `n` values at the start of `input`, appending them to `out`; returns the bytes
/// consumed. On error `out` is left as it was.
pub fn decode(input: &[u8], n: usize, out: &mut ByteArrays) -> Result<usize> {
    let mut lengths = Vec::new();
    let pos = decode_lengths(input, n, &mut lengths)?;
    let total = total_length(&lengths, input.len() - pos)?;
    let data = &input[pos..pos + total];
    out.data.extend_from_slice(data);
    out.offsets.reserve(n);
    let mut end = out.offsets.last().copied().unwrap_or(0);
    for &len in &lengths {
        end += len as usize;
        out.offsets.push(end);
    }
    Ok(pos + total)
}

/// Decodes the `n` lengths at the start of `input` into `lengths` (cleared first); returns
/// the bytes consumed.
pub(crate) fn decode_lengths(input: &[u8], n: usize, lengths: &mut Vec<i32>) -> Result<usize> {
    lengths.clear();
    dbp::decode(input, n, lengths).map_err(|e| e.context("lengths"))
}

/// The sum of `lengths`, checked: no negative length, and no more than `available` bytes.
pub(crate) fn total_length(lengths: &[i32], available: usize) -> Result<usize> {
    let mut total = 0usize;
    for (i, &len) in lengths.iter().enumerate() {
        if len < 0 {
            return Err(Error::corrupt(format!(
                "value {i} has negative length {len}"
            )));
        }
        total += len as usize;
    }
    if total > available {
        return Err(Error::corrupt(format!(
            "{} values of {total} bytes in all, but {available} bytes follow their lengths",
            lengths.len()
        )));
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn arrays(values: &[&[u8]]) -> ByteArrays {
        let mut out = ByteArrays::new();
        for v in values {
            out.push(v);
        }
        out
    }

    #[test]
    fn spec_example() {
        let v = arrays(&[b"Hello", b"World", b"Foobar", b"ABCDEF"]);
        let mut page = Vec::new();
        encode(&v, &mut page).unwrap();
        // Lengths 5, 5, 6, 6: header 128/4/4/first 5, min delta 0, widths 1 0 0 0, then
        // deltas 0, 1, 0 in one bit (padded to 32 values: 4 bytes).
        let mut expect = vec![0x80, 0x01, 4, 4, 10, 0, 1, 0, 0, 0, 0b010, 0, 0, 0];
        expect.extend_from_slice(b"HelloWorldFoobarABCDEF");
        assert_eq!(page, expect);
        let mut out = arrays(&[b"x"]);
        assert_eq!(decode(&page, 4, &mut out).unwrap(), page.len());
        assert_eq!(
            out,
            arrays(&[b"x", b"Hello", b"World", b"Foobar", b"ABCDEF"])
        );
    }

    #[test]
    fn empty_strings_and_empty_page() {
        let v = arrays(&[b"", b"", b"a", b""]);
        let mut page = Vec::new();
        encode(&v, &mut page).unwrap();
        let mut out = ByteArrays::new();
        decode(&page, 4, &mut out).unwrap();
        assert_eq!(out, v);
        let mut page = Vec::new();
        encode(&ByteArrays::new(), &mut page).unwrap();
        assert_eq!(decode(&page, 0, &mut out).unwrap(), page.len());
    }

    #[test]
    fn bad_lengths() {
        let mut page = Vec::new();
        dbp::encode(&[3i32, -1], &mut page);
        page.extend_from_slice(b"abcdef");
        let e = decode(&page, 2, &mut ByteArrays::new()).unwrap_err();
        assert!(e.to_string().contains("negative length -1"), "{e}");
        let mut page = Vec::new();
        dbp::encode(&[3i32, 4], &mut page);
        page.extend_from_slice(b"abcdef");
        let e = decode(&page, 2, &mut ByteArrays::new()).unwrap_err();
        assert!(e.to_string().contains("7 bytes in all, but 6"), "{e}");
    }

    #[test]
    fn every_truncation_fails() {
        let v = arrays(&[b"alpha", b"", b"gamma delta", b"\xFF\x00"]);
        let mut page = Vec::new();
        encode(&v, &mut page).unwrap();
        for cut in 0..page.len() {
            let mut out = arrays(&[b"keep"]);
            assert!(decode(&page[..cut], 4, &mut out).is_err(), "cut {cut}");
            assert_eq!(out, arrays(&[b"keep"]));
        }
    }

    proptest! {
        #[test]
        fn round_trip(v in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 0..300)) {
            let values = arrays(&v.iter().map(|x| &x[..]).collect::<Vec<_>>());
            let mut page = Vec::new();
            encode(&values, &mut page).unwrap();
            let mut out = ByteArrays::new();
            prop_assert_eq!(decode(&page, v.len(), &mut out).unwrap(), page.len());
            prop_assert_eq!(out, values);
        }

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200), n in 0usize..500) {
            let _ = decode(&bytes, n, &mut ByteArrays::new());
        }
    }
}

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn module_example() {
        use crate::core::encoding::delta_length_byte_array::{decode, encode};
        use crate::core::values::ByteArrays;
        let mut values = ByteArrays::new();
        for s in ["Hello", "World", "Foobar", "ABCDEF"] {
            values.push(s.as_bytes());
        }
        let mut page = Vec::new();
        encode(&values, &mut page).unwrap();
        assert!(page.ends_with(b"HelloWorldFoobarABCDEF"));
        let mut out = ByteArrays::new();
        assert_eq!(decode(&page, 4, &mut out).unwrap(), page.len());
        assert_eq!(out, values);
    }
}
