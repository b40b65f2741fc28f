//! DELTA_BYTE_ARRAY (incremental or front coding) for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY:
//! for each value the length of the prefix it shares with the previous value
//! (DELTA_BINARY_PACKED INT32), then the suffixes as DELTA_LENGTH_BYTE_ARRAY.
//!
//! The first value of a page shares nothing (the previous value is empty). Decoded values can
//! be far larger than the page (every value may repeat a long prefix): the decoder computes
//! the decoded size before allocating and refuses pages above [`MAX_DECODED_BYTES`].

use super::delta_binary_packed as dbp;
use super::delta_length_byte_array::{decode_lengths, encode_parts, lengths_of, total_length};
use crate::core::values::{ByteArrays, FixedLenByteArrays};
use crate::error::{Error, Result};

/// Largest decoded size of one page of DELTA_BYTE_ARRAY values.
pub const MAX_DECODED_BYTES: usize = 1 << 30;

/// Appends byte arrays. Fails for a value of 2 GiB or more.
pub fn encode(values: &ByteArrays, out: &mut Vec<u8>) -> Result<()> {
    encode_iter(values.iter(), out)
}

/// Appends fixed-length byte arrays (every length is stored, as the specification says).
pub fn encode_fixed(values: &FixedLenByteArrays, out: &mut Vec<u8>) -> Result<()> {
    if values.width == 0 {
        return encode_iter(std::iter::empty(), out);
    }
    encode_iter(values.iter(), out)
}

fn encode_iter<'a>(values: impl Iterator<Item = &'a [u8]>, out: &mut Vec<u8>) -> Result<()> {
    let mut prefixes = Vec::new();
    let mut suffix_lengths = Vec::new();
    let mut suffixes = Vec::new();
    let mut prev: &[u8] = &[];
    for v in values {
        let p = common_prefix(prev, v);
        prefixes.push(p);
        suffix_lengths.push(v.len() - p);
        suffixes.extend_from_slice(&v[p..]);
        prev = v;
    }
    let prefixes = lengths_of(prefixes.into_iter())?;
    let suffix_lengths = lengths_of(suffix_lengths.into_iter())?;
    dbp::encode(&prefixes, out);
    encode_parts(&suffix_lengths, &suffixes, out);
    Ok(())
}

/// Length of the common prefix of `a` and `b`, eight bytes at a time.
#[inline]
pub(crate) fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut i = 0;
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        let x = u64::from_le_bytes([x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]]);
        let y = u64::from_le_bytes([y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7]]);
        let diff = x ^ y;
        if diff != 0 {
            return i + (diff.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i + a[i..]
        .iter()
        .zip(&b[i..])
        .take_while(|(x, y)| x == y)
        .count()
}

/// Decodes `n` values at the start of `input`, appending them to `out`; returns the bytes
/// consumed. On error `out` is left as it was.
pub fn decode(input: &[u8], n: usize, out: &mut ByteArrays) -> Result<usize> {
    let mut prefixes = Vec::new();
    let mut pos = decode_lengths(input, n, &mut prefixes).map_err(|e| e.context("prefix"))?;
    let mut suffix_lengths = Vec::new();
    pos +=
        decode_lengths(&input[pos..], n, &mut suffix_lengths).map_err(|e| e.context("suffix"))?;
    let data_len = total_length(&suffix_lengths, input.len() - pos)?;
    let suffixes = &input[pos..pos + data_len];
    // Check every prefix against the previous value and size the output first.
    let mut prev_len = 0usize;
    let mut total = 0usize;
    for (i, (&p, &s)) in prefixes.iter().zip(&suffix_lengths).enumerate() {
        if p < 0 || p as usize > prev_len {
            return Err(Error::corrupt(format!(
                "value {i} shares a prefix of {p} bytes with a previous value of {prev_len}"
            )));
        }
        prev_len = p as usize + s as usize;
        total = total.saturating_add(prev_len);
    }
    if total > MAX_DECODED_BYTES {
        return Err(Error::unsupported(format!(
            "DELTA_BYTE_ARRAY page decodes to {total} bytes, above the limit of {MAX_DECODED_BYTES}"
        )));
    }
    out.data.reserve(total);
    out.offsets.reserve(n);
    let mut prev_start = out.data.len();
    let mut at = 0usize;
    for (&p, &s) in prefixes.iter().zip(&suffix_lengths) {
        let start = out.data.len();
        out.data
            .extend_from_within(prev_start..prev_start + p as usize);
        out.data.extend_from_slice(&suffixes[at..at + s as usize]);
        at += s as usize;
        out.offsets.push(out.data.len());
        prev_start = start;
    }
    Ok(pos + data_len)
}

/// Decodes `n` values of `width` bytes at the start of `input`, appending them to `out`;
/// returns the bytes consumed. A value of another length is an error.
pub fn decode_fixed(input: &[u8], n: usize, width: usize, out: &mut Vec<u8>) -> Result<usize> {
    let mut values = ByteArrays::new();
    let used = decode(input, n, &mut values)?;
    if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| v.len() != width) {
        return Err(Error::corrupt(format!(
            "FIXED_LEN_BYTE_ARRAY value {i} has {} bytes, the column {width}",
            v.len()
        )));
    }
    out.extend_from_slice(&values.data);
    Ok(used)
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
        let v = arrays(&[b"axis", b"axle", b"babble", b"babyhood"]);
        let mut page = Vec::new();
        encode(&v, &mut page).unwrap();
        let mut expect = Vec::new();
        dbp::encode(&[0i32, 2, 0, 3], &mut expect);
        dbp::encode(&[4i32, 2, 6, 5], &mut expect);
        expect.extend_from_slice(b"axislebabbleyhood");
        assert_eq!(page, expect);
        let mut out = ByteArrays::new();
        assert_eq!(decode(&page, 4, &mut out).unwrap(), page.len());
        assert_eq!(out, v);
    }

    #[test]
    fn common_prefixes() {
        assert_eq!(common_prefix(b"", b"abc"), 0);
        assert_eq!(common_prefix(b"abcdefghijk", b"abcdefghijz"), 10);
        assert_eq!(common_prefix(b"abcdefgh", b"abcdefgh"), 8);
        assert_eq!(common_prefix(b"abcdefgh", b"abcdefghij"), 8);
        assert_eq!(common_prefix(b"abcXefgh", b"abcdefgh"), 3);
    }

    #[test]
    fn long_shared_prefixes_and_fixed() {
        let base = vec![b'p'; 3000];
        let vals: Vec<Vec<u8>> = (0..100u32)
            .map(|i| {
                let mut v = base.clone();
                v.extend_from_slice(&i.to_be_bytes());
                v
            })
            .collect();
        let v = arrays(&vals.iter().map(|x| &x[..]).collect::<Vec<_>>());
        let mut page = Vec::new();
        encode(&v, &mut page).unwrap();
        assert!(page.len() < 3000 + 1000, "{}", page.len());
        let mut out = ByteArrays::new();
        decode(&page, 100, &mut out).unwrap();
        assert_eq!(out, v);

        let mut f = FixedLenByteArrays::new(4);
        for i in [1u32, 2, 3, 0x0100_0000, 0x0100_0001] {
            f.push(&i.to_be_bytes());
        }
        let mut page = Vec::new();
        encode_fixed(&f, &mut page).unwrap();
        let mut out = vec![9];
        decode_fixed(&page, 5, 4, &mut out).unwrap();
        assert_eq!(out[1..], f.data);
        let e = decode_fixed(&page, 5, 3, &mut out).unwrap_err();
        assert!(e.to_string().contains("has 4 bytes, the column 3"), "{e}");
    }

    #[test]
    fn bad_prefixes_and_bombs() {
        // The first value cannot share a prefix.
        let mut page = Vec::new();
        dbp::encode(&[1i32], &mut page);
        dbp::encode(&[1i32], &mut page);
        page.push(b'a');
        let e = decode(&page, 1, &mut ByteArrays::new()).unwrap_err();
        assert!(e.to_string().contains("prefix of 1 bytes"), "{e}");
        // A megabyte repeated a million times: refused before allocating.
        let n = 1_000_000;
        let mut prefixes = vec![1 << 20; n];
        prefixes[0] = 0;
        let mut suffixes = vec![0i32; n];
        suffixes[0] = 1 << 20;
        let mut page = Vec::new();
        dbp::encode(&prefixes, &mut page);
        dbp::encode(&suffixes, &mut page);
        page.resize(page.len() + (1 << 20), b'x');
        let e = decode(&page, n, &mut ByteArrays::new()).unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Unsupported, "{e}");
    }

    #[test]
    fn every_truncation_fails() {
        let v = arrays(&[b"prefix-one", b"prefix-two", b"", b"other"]);
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
        fn round_trip(v in proptest::collection::vec(proptest::collection::vec(0u8..3, 0..20), 0..300)) {
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
            let _ = decode_fixed(&bytes, n, 3, &mut Vec::new());
        }
    }
}

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn module_example() {
        use crate::core::encoding::delta_byte_array::{decode, encode};
        use crate::core::values::ByteArrays;
        let mut values = ByteArrays::new();
        for s in ["axis", "axle", "babble", "babyhood"] {
            values.push(s.as_bytes());
        }
        let mut page = Vec::new();
        encode(&values, &mut page).unwrap();
        assert!(page.ends_with(b"axislebabbleyhood"));
        let mut out = ByteArrays::new();
        assert_eq!(decode(&page, 4, &mut out).unwrap(), page.len());
        assert_eq!(out, values);
    }
}
