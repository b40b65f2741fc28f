//! RLE encoding of BOOLEAN values: a 4-byte little-endian length, then the RLE /
//! bit-packing hybrid with bit width 1. The length is there in data pages v1 and v2 alike
//! (the table in Encodings.md).

use super::rle::{RleDecoder, RleEncoder};
use crate::error::{Error, Result};

/// Appends `values`: the length prefix and the hybrid runs.
pub fn encode(values: &[bool], out: &mut Vec<u8>) {
    let mut enc = RleEncoder::new(1);
    enc.put_bools(values);
    let body = enc.finish();
    // A page is far below 4 GiB (the page writer checks sizes against i32).
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend_from_slice(&body);
}

/// Decodes `n` booleans, appending them to `out`; returns the bytes consumed (4 plus the
/// length). On error `out` is left as it was.
pub fn decode(input: &[u8], n: usize, out: &mut Vec<bool>) -> Result<usize> {
    let (len, rest) = input
        .split_first_chunk::<4>()
        .ok_or_else(|| Error::corrupt("RLE booleans: the 4-byte length is missing"))?;
    let len = u32::from_le_bytes(*len) as usize;
    let body = rest.get(..len).ok_or_else(|| {
        Error::corrupt(format!(
            "RLE booleans: length {len} runs past the {} bytes of the page",
            rest.len()
        ))
    })?;
    // Each byte of the body holds at most 8 values of a bit-packed run, or one run header
    // that may stand for many: `n` is checked as the values are produced.
    let start = out.len();
    let mut dec = RleDecoder::new(body, 1);
    let mut got = 0;
    while got < n {
        let chunk = (n - got).min(1 << 16);
        let at = out.len();
        out.resize(at + chunk, false);
        let k = dec
            .next_batch_bool(&mut out[at..])
            .inspect_err(|_| out.truncate(start))?;
        got += k;
        if k < chunk {
            out.truncate(start);
            return Err(Error::corrupt(format!(
                "RLE booleans: the page holds {got} values, expected {n}"
            )));
        }
    }
    Ok(4 + len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn mixed_runs() {
        let v: Vec<bool> = (0..1000).map(|i| (i / 7) % 3 == 0 || i % 11 == 0).collect();
        let mut page = Vec::new();
        encode(&v, &mut page);
        let mut out = vec![true];
        assert_eq!(decode(&page, v.len(), &mut out).unwrap(), page.len());
        assert_eq!(&out[1..], &v[..]);
    }

    #[test]
    fn errors() {
        assert!(decode(&[1, 0, 0], 1, &mut vec![]).is_err());
        let e = decode(&[5, 0, 0, 0, 2, 1], 1, &mut vec![]).unwrap_err();
        assert!(e.to_string().contains("length 5 runs past"), "{e}");
        let mut out = vec![];
        let e = decode(&[2, 0, 0, 0, 8, 1], 5, &mut out).unwrap_err();
        assert!(e.to_string().contains("holds 4 values, expected 5"), "{e}");
        assert!(out.is_empty());
    }

    proptest! {
        #[test]
        fn round_trip(v in proptest::collection::vec(any::<bool>(), 0..2000)) {
            let mut page = Vec::new();
            encode(&v, &mut page);
            let mut out = vec![];
            prop_assert_eq!(decode(&page, v.len(), &mut out).unwrap(), page.len());
            prop_assert_eq!(out, v);
        }

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..100), n in 0usize..5000) {
            let _ = decode(&bytes, n, &mut vec![]);
        }
    }
}

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn module_example() {
        use crate::core::encoding::rle_boolean::{decode, encode};
        let mut page = Vec::new();
        encode(&[true; 100], &mut page);
        // Length 3, then one RLE run: header 100 << 1 (ULEB128, two bytes), value 1.
        assert_eq!(page, [3, 0, 0, 0, 0xC8, 0x01, 1]);
        let mut out = Vec::new();
        assert_eq!(decode(&page, 100, &mut out).unwrap(), page.len());
        assert_eq!(out, vec![true; 100]);
    }
}
