//! ULEB128 and zigzag integers, as the DELTA_* encodings store their headers.

use crate::error::{Error, Result};

/// Appends `v` as ULEB128 (7 bits a byte, low bits first, high bit set on all but the last).
pub(crate) fn put_uleb(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Appends `v` zigzag-encoded (0, -1, 1, -2, ... map to 0, 1, 2, 3, ...) as ULEB128.
pub(crate) fn put_zigzag(v: i64, out: &mut Vec<u8>) {
    put_uleb(((v << 1) ^ (v >> 63)) as u64, out);
}

/// Reads a ULEB128 integer of at most 64 bits at `*pos`, advancing `pos`. `what` names the
/// field in errors.
pub(crate) fn get_uleb(input: &[u8], pos: &mut usize, what: &str) -> Result<u64> {
    let mut v = 0u64;
    let mut shift = 0u32;
    loop {
        let Some(&b) = input.get(*pos) else {
            return Err(
                Error::corrupt(format!("{what}: the data ends inside a varint"))
                    .with_offset(*pos as u64),
            );
        };
        *pos += 1;
        if shift == 63 && b > 1 {
            return Err(
                Error::corrupt(format!("{what}: varint does not fit in 64 bits"))
                    .with_offset(*pos as u64 - 1),
            );
        }
        v |= u64::from(b & 0x7F) << shift;
        if b & 0x80 == 0 {
            return Ok(v);
        }
        shift += 7;
        if shift > 63 {
            return Err(
                Error::corrupt(format!("{what}: varint longer than 10 bytes"))
                    .with_offset(*pos as u64),
            );
        }
    }
}

/// Reads a zigzag ULEB128 integer at `*pos`, advancing `pos`.
pub(crate) fn get_zigzag(input: &[u8], pos: &mut usize, what: &str) -> Result<i64> {
    let u = get_uleb(input, pos, what)?;
    Ok((u >> 1) as i64 ^ -((u & 1) as i64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_bytes() {
        let mut out = Vec::new();
        put_uleb(624_485, &mut out);
        assert_eq!(out, [0xE5, 0x8E, 0x26]);
        out.clear();
        for v in [0i64, -1, 1, -2, 2147483647, -2147483648] {
            put_zigzag(v, &mut out);
        }
        assert_eq!(
            out,
            [0, 1, 2, 3, 0xFE, 0xFF, 0xFF, 0xFF, 0x0F, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]
        );
    }

    #[test]
    fn round_trips_and_errors() {
        let mut out = Vec::new();
        let vals = [0i64, 1, -1, i64::MIN, i64::MAX, 300, -300];
        for &v in &vals {
            put_zigzag(v, &mut out);
        }
        put_uleb(u64::MAX, &mut out);
        let mut pos = 0;
        for &v in &vals {
            assert_eq!(get_zigzag(&out, &mut pos, "x").unwrap(), v);
        }
        assert_eq!(get_uleb(&out, &mut pos, "x").unwrap(), u64::MAX);
        assert_eq!(pos, out.len());
        // Truncated, too long, too wide.
        assert!(get_uleb(&[0x80], &mut 0, "x").is_err());
        assert!(get_uleb(&[0x80; 11], &mut 0, "x").is_err());
        let mut wide = vec![0xFF; 9];
        wide.push(0x02);
        assert!(get_uleb(&wide, &mut 0, "x").is_err());
    }
}
