use super::*;
use crate::ErrorKind;
use proptest::prelude::*;

fn encode(values: &[u32], width: u8) -> Vec<u8> {
    let mut enc = RleEncoder::new(width);
    enc.put_u32(values);
    enc.finish()
}

fn decode_all(data: &[u8], width: u8, n: usize) -> Result<Vec<u32>> {
    let mut out = vec![0u32; n];
    let got = RleDecoder::new(data, width).next_batch_u32(&mut out)?;
    out.truncate(got);
    Ok(out)
}

#[test]
fn spec_bit_packed_example() {
    // Encodings.md: 0..=7 with bit width 3, one bit-packed run of one group.
    let data = [0x03, 0b1000_1000, 0b1100_0110, 0b1111_1010];
    assert_eq!(decode_all(&data, 3, 8).unwrap(), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(encode(&[0, 1, 2, 3, 4, 5, 6, 7], 3), data);
}

#[test]
fn rle_run_bytes() {
    // Ten 5s, width 3: header 10 << 1 = 0x14, then the value in one byte.
    assert_eq!(encode(&[5; 10], 3), [0x14, 0x05]);
    assert_eq!(decode_all(&[0x14, 0x05], 3, 10).unwrap(), [5; 10]);
    // Width 12: two value bytes, little endian.
    assert_eq!(encode(&[0xABC; 300], 12), [0xD8, 0x04, 0xBC, 0x0A]);
    assert_eq!(
        decode_all(&[0xD8, 0x04, 0xBC, 0x0A], 12, 300).unwrap(),
        [0xABC; 300]
    );
    // Width 32: four value bytes.
    assert_eq!(encode(&[u32::MAX; 8], 32), [0x10, 0xFF, 0xFF, 0xFF, 0xFF]);
    // Width 0: no value bytes.
    assert_eq!(encode(&[0; 9], 0), [0x12]);
}

#[test]
fn mixed_runs_bytes() {
    // 8 sevens then 1 2 3: an RLE run of 8, then one padded bit-packed group.
    let data = encode(&[7, 7, 7, 7, 7, 7, 7, 7, 1, 2, 3], 3);
    assert_eq!(data, [0x10, 0x07, 0x03, 0b1101_0001, 0x00, 0x00]);
    // 1 2 3 then 8 sevens: the sevens do not start at a group boundary, so the
    // first group (1 2 3 7 7 7 7 7) is packed and the 3 sevens left join it: 2 groups.
    let v = [1, 2, 3, 7, 7, 7, 7, 7, 7, 7, 7];
    let data = encode(&v, 3);
    assert_eq!(data[0], 0x05); // 2 groups
    assert_eq!(decode_all(&data, 3, 11).unwrap(), v);
}

#[test]
fn single_value_is_a_short_rle_run() {
    assert_eq!(encode(&[1], 1), [0x02, 0x01]);
    assert_eq!(encode(&[], 1), Vec::<u8>::new());
}

#[test]
fn long_packed_runs_are_split_at_63_groups() {
    let v: Vec<u32> = (0..63 * 8 + 8).map(|i| i % 2).collect();
    let data = encode(&v, 1);
    assert_eq!(data[0], 63 << 1 | 1);
    assert_eq!(data[1 + 63], 1 << 1 | 1);
    assert_eq!(data.len(), 1 + 63 + 1 + 1);
    assert_eq!(decode_all(&data, 1, v.len()).unwrap(), v);
}

#[test]
fn i16_and_bool_outputs() {
    let levels: Vec<i16> = (0..1000).map(|i| (i % 7 / 3) as i16).collect();
    let mut enc = RleEncoder::new(2);
    enc.put_i16(&levels);
    let data = enc.finish();
    let mut out = vec![0i16; 1000];
    assert_eq!(
        RleDecoder::new(&data, 2).next_batch_i16(&mut out).unwrap(),
        1000
    );
    assert_eq!(out, levels);

    let bools: Vec<bool> = (0..777).map(|i| i % 3 == 0 || i > 500).collect();
    let mut enc = RleEncoder::new(1);
    enc.put_bools(&bools);
    let data = enc.finish();
    let mut out = vec![false; 777];
    assert_eq!(
        RleDecoder::new(&data, 1).next_batch_bool(&mut out).unwrap(),
        777
    );
    assert_eq!(out, bools);
}

#[test]
fn zero_length_runs_do_not_spin() {
    // RLE runs of 0 (header 0, value byte) and bit-packed runs of 0 groups (header 1).
    let mut data = Vec::new();
    for _ in 0..1000 {
        data.extend_from_slice(&[0x00, 0x01, 0x01]);
    }
    data.extend_from_slice(&[0x06, 0x01]);
    assert_eq!(decode_all(&data, 1, 10).unwrap(), [1, 1, 1]);
    let mut dec = RleDecoder::new(&data, 1);
    assert_eq!(dec.skip(10).unwrap(), 3);
}

#[test]
fn malformed_headers_and_values() {
    let overlong = [0xFF, 0xFF, 0xFF, 0xFF, 0x1F, 0x00];
    assert_eq!(
        decode_all(&overlong, 1, 1).unwrap_err().kind(),
        ErrorKind::Corrupt
    );
    // The largest 5-byte header is fine: 2^31 - 1 values of an RLE run... of 0 length
    // after the shift? 0xFFFFFFFE >> 1 = 2^31 - 1.
    let big = [0xFE, 0xFF, 0xFF, 0xFF, 0x0F, 0x01];
    let mut dec = RleDecoder::new(&big, 1);
    let mut out = [0u32; 100];
    assert_eq!(dec.next_batch_u32(&mut out).unwrap(), 100);
    assert_eq!(out, [1; 100]);
    assert_eq!(dec.skip(usize::MAX).unwrap(), (1 << 31) - 1 - 100);
    // A value wider than the bit width.
    assert_eq!(
        decode_all(&[0x10, 0x02], 1, 8).unwrap_err().kind(),
        ErrorKind::Corrupt
    );
    assert_eq!(
        decode_all(&[0x10, 0x00, 0x02], 9, 8).unwrap_err().kind(),
        ErrorKind::Corrupt
    );
    // A bit width above 32.
    assert!(decode_all(&[0x10, 0x00], 33, 8).is_err());
    assert!(RleDecoder::new(&[0x10, 0x00], 33).skip(1).is_err());
    let mut levels = [0i16; 8];
    assert!(RleDecoder::new(&[0x10, 0x00, 0x00, 0x00], 16)
        .next_batch_i16(&mut levels)
        .is_err());
}

#[test]
fn truncated_bit_packed_run_keeps_complete_values() {
    // Header says 100 groups of width 4, only 3 bytes follow: 6 values.
    let data = [0xC9, 0x01, 0x21, 0x43, 0x65];
    assert_eq!(decode_all(&data, 4, 1000).unwrap(), [1, 2, 3, 4, 5, 6]);
    // Width 3, 4 bytes: 32 bits, 10 complete values.
    let data = [0x03 | 0x40, 0x88, 0xC6, 0xFA, 0x88];
    assert_eq!(decode_all(&data, 3, 100).unwrap().len(), 10);
}

#[test]
fn width_zero() {
    let mut out = [9u32; 5];
    assert_eq!(RleDecoder::new(&[], 0).next_batch_u32(&mut out).unwrap(), 5);
    assert_eq!(out, [0; 5]);
    // A bit-packed run of width 0 holds 8 zeros per group and no bytes.
    assert_eq!(decode_all(&[0x05], 0, 100).unwrap(), [0; 16]);
    assert_eq!(decode_all(&[0x06], 0, 100).unwrap(), [0; 3]);
}

#[test]
fn dict_indices() {
    let values: Vec<u32> = (0..5000).map(|i| (i * 7919 % 1000) as u32).collect();
    let mut page = vec![10u8];
    page.extend(encode(&values, 10));
    let mut out = vec![1234];
    decode_dict_indices(&page, 5000, 1000, &mut out).unwrap();
    assert_eq!(out[0], 1234);
    assert_eq!(&out[1..], &values[..]);

    let mut out = Vec::new();
    let err = decode_dict_indices(&page, 5000, 999, &mut out).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Corrupt);
    assert!(out.is_empty());
    assert!(decode_dict_indices(&page, 5001, 1000, &mut out).is_err());
    assert!(decode_dict_indices(&[], 1, 1000, &mut out).is_err());
    assert!(decode_dict_indices(&[33, 0x02, 0], 1, 1000, &mut out).is_err());
    assert!(out.is_empty());
    decode_dict_indices(&[], 0, 0, &mut out).unwrap();
    // Width 0 with no runs: a dictionary of one value.
    decode_dict_indices(&[0], 3, 1, &mut out).unwrap();
    assert_eq!(out, [0, 0, 0]);
    // No dictionary at all.
    out.clear();
    assert!(decode_dict_indices(&[0], 3, 0, &mut out).is_err());
}

#[test]
fn huge_n_does_not_allocate_up_front() {
    let page = [1u8, 0x10, 0x01];
    let mut out = Vec::new();
    assert!(decode_dict_indices(&page, usize::MAX, 2, &mut out).is_err());
    assert!(out.capacity() <= 64 * 1024);
}

/// Values with long runs, short runs and noise.
fn arb_values() -> impl Strategy<Value = (u8, Vec<u32>)> {
    (0u8..=32).prop_flat_map(|w| {
        let mask = ((1u64 << w) - 1) as u32;
        let run = (any::<u32>(), 1usize..40).prop_map(move |(v, n)| vec![v & mask; n]);
        let noise = prop::collection::vec(any::<u32>().prop_map(move |v| v & mask), 0..20);
        let chunks = prop::collection::vec(prop_oneof![run, noise], 0..30);
        (Just(w), chunks.prop_map(|c| c.concat()))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn round_trip_every_width((w, values) in arb_values(), batch in 1usize..100) {
        let data = encode(&values, w);
        prop_assert_eq!(&decode_all(&data, w, values.len()).unwrap(), &values);
        // In batches of any size, the same values; then the end.
        let mut dec = RleDecoder::new(&data, w);
        let mut got = Vec::new();
        let mut buf = vec![0u32; batch];
        // (Width 0 without data yields zeros without end: stop after enough.)
        while got.len() < values.len() + 16 {
            let n = dec.next_batch_u32(&mut buf).unwrap();
            got.extend_from_slice(&buf[..n]);
            if n < batch {
                break;
            }
        }
        if w == 0 && data.is_empty() {
            got.truncate(values.len());
        }
        // Padding of the last group may follow the values.
        prop_assert!(got.len() >= values.len() && got.len() < values.len() + 8);
        prop_assert_eq!(&got[..values.len()], &values[..]);
    }

    #[test]
    fn skip_then_read((w, values) in arb_values(), skip in 0usize..200) {
        let data = encode(&values, w);
        let mut dec = RleDecoder::new(&data, w);
        let skipped = dec.skip(skip.min(values.len())).unwrap();
        prop_assert_eq!(skipped, skip.min(values.len()));
        let mut out = vec![0u32; values.len() - skipped];
        prop_assert_eq!(dec.next_batch_u32(&mut out).unwrap(), out.len());
        prop_assert_eq!(&out[..], &values[skipped..]);
    }

    #[test]
    fn every_truncation_is_a_prefix((w, values) in arb_values()) {
        let data = encode(&values, w);
        for len in 0..data.len() {
            let got = decode_all(&data[..len], w, values.len()).unwrap();
            prop_assert_eq!(&got[..], &values[..got.len()]);
        }
    }

    #[test]
    fn garbage_never_panics(data in prop::collection::vec(any::<u8>(), 0..200), w in 0u8..=34, n in 0usize..500) {
        let mut out = vec![0u32; n];
        let mut dec = RleDecoder::new(&data, w);
        if let Ok(got) = dec.next_batch_u32(&mut out) {
            prop_assert!(got <= n);
        }
        let _ = RleDecoder::new(&data, w).skip(n);
        let mut levels = vec![0i16; n];
        let _ = RleDecoder::new(&data, w).next_batch_i16(&mut levels);
        let mut idx = Vec::new();
        let _ = decode_dict_indices(&data, n, 1 << 20, &mut idx);
    }
}
