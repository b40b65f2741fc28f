//! Numeric conversions of stored values: INT96 timestamps to nanoseconds, big-endian
//! decimal and UUID bytes to 128-bit integers, FLOAT16 to `f32`.

use super::Int96;

/// Nanoseconds since the epoch of a legacy INT96 timestamp (any value: i128 holds it).
pub(crate) fn int96_nanos(v: Int96) -> i128 {
    let nanos_of_day = (v.0[0] as u64 | (v.0[1] as u64) << 32) as i128;
    let day = v.0[2] as i128 - Int96::JULIAN_DAY_OF_EPOCH as i128;
    day * 86_400_000_000_000 + nanos_of_day
}

/// A big-endian two's complement integer of up to 16 bytes (or longer, when the extra
/// leading bytes are only sign extension).
pub(crate) fn be_i128(b: &[u8]) -> Option<i128> {
    let negative = b.first().is_some_and(|&x| x & 0x80 != 0);
    let (head, tail) = b.split_at(b.len().saturating_sub(16));
    let ext = if negative { 0xff } else { 0 };
    if head.iter().any(|&x| x != ext)
        || tail.first().is_some_and(|&x| (x & 0x80 != 0) != negative) && !head.is_empty()
    {
        return None;
    }
    let mut buf = [ext; 16];
    buf[16 - tail.len()..].copy_from_slice(tail);
    Some(i128::from_be_bytes(buf))
}

/// A big-endian unsigned integer of up to 16 bytes.
pub(crate) fn be_u128(b: &[u8]) -> Option<u128> {
    if b.len() > 16 {
        return None;
    }
    let mut buf = [0u8; 16];
    buf[16 - b.len()..].copy_from_slice(b);
    Some(u128::from_be_bytes(buf))
}

/// IEEE 754 half precision (little-endian bytes) to single precision (exact).
pub(crate) fn f16_to_f32(b: [u8; 2]) -> f32 {
    let h = u16::from_le_bytes(b);
    let sign = if h & 0x8000 != 0 { -1.0f32 } else { 1.0 };
    let exp = (h >> 10) & 0x1f;
    let frac = (h & 0x3ff) as f32;
    match exp {
        0 => sign * frac * 2f32.powi(-24),
        0x1f if frac == 0.0 => sign * f32::INFINITY,
        0x1f => f32::NAN,
        e => sign * (1.0 + frac / 1024.0) * 2f32.powi(e as i32 - 15),
    }
}

/// The half precision bits (little-endian) of `v` when a half float holds it exactly (NaN
/// becomes the quiet NaN `0x7e00`); `None` otherwise.
pub(crate) fn f16_from_f64_exact(v: f64) -> Option<[u8; 2]> {
    if v.is_nan() {
        return Some(0x7e00u16.to_le_bytes());
    }
    let f = v as f32;
    if f as f64 != v {
        return None;
    }
    let bits = f.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let mant = bits & 0x7f_ffff;
    let h = if exp == 0xff {
        // Infinity (NaN was handled above).
        sign | 0x7c00
    } else if exp == 0 && mant == 0 {
        sign
    } else {
        let e = exp - 127;
        if (-14..=15).contains(&e) {
            if mant & 0x1fff != 0 {
                return None;
            }
            sign | ((e + 15) as u16) << 10 | (mant >> 13) as u16
        } else if (-24..-14).contains(&e) {
            // A subnormal half: (2^23 + mant) × 2^(e+1) units of 2^-24.
            let full = 0x80_0000 | mant;
            let shift = (-(e + 1)) as u32;
            if full & ((1 << shift) - 1) != 0 {
                return None;
            }
            sign | (full >> shift) as u16
        } else {
            return None;
        }
    };
    Some(h.to_le_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_endian_integers() {
        assert_eq!(be_i128(&[0xff, 0x85]), Some(-123));
        assert_eq!(be_i128(&[0x01, 0x00]), Some(256));
        assert_eq!(be_i128(&[]), Some(0));
        let mut long = vec![0xff; 4];
        long.extend_from_slice(&(-5i128).to_be_bytes());
        assert_eq!(be_i128(&long), Some(-5));
        let mut bad = vec![0x00; 4];
        bad.extend_from_slice(&(-5i128).to_be_bytes());
        assert_eq!(be_i128(&bad), None);
        assert_eq!(be_u128(&[1, 0]), Some(256));
        assert_eq!(be_u128(&[0; 17]), None);
    }

    #[test]
    fn halves_from_doubles() {
        for h in 0..=u16::MAX {
            let x = f16_to_f32(h.to_le_bytes());
            if x.is_nan() {
                continue;
            }
            assert_eq!(
                f16_from_f64_exact(x as f64),
                Some(h.to_le_bytes()),
                "{h:#06x}"
            );
        }
        assert_eq!(f16_from_f64_exact(f64::NAN), Some([0x00, 0x7e]));
        assert_eq!(f16_from_f64_exact(0.1), None);
        assert_eq!(f16_from_f64_exact(65520.0), None);
        assert_eq!(f16_from_f64_exact(2f64.powi(-25)), None);
        assert_eq!(f16_from_f64_exact(1.0 + 2f64.powi(-11)), None);
    }

    #[test]
    fn halves() {
        assert_eq!(f16_to_f32([0x00, 0x3c]), 1.0);
        assert_eq!(f16_to_f32([0x00, 0xc0]), -2.0);
        assert!(f16_to_f32([0x00, 0x7e]).is_nan());
        assert_eq!(f16_to_f32([0x01, 0x00]), 2f32.powi(-24));
        assert_eq!(f16_to_f32([0x00, 0x7c]), f32::INFINITY);
        assert_eq!(f16_to_f32([0x00, 0x80]).to_bits(), (-0.0f32).to_bits());
    }

    #[test]
    fn int96_nanos_matches_to_nanos() {
        for nanos in [0i64, 1, -1, 1_600_000_000_123_456_789, i64::MIN, i64::MAX] {
            assert_eq!(int96_nanos(Int96::from_nanos(nanos)), nanos as i128);
        }
        // Beyond i64: the largest Julian day.
        let far = Int96([0, 0, u32::MAX]);
        assert_eq!(far.to_nanos(), None);
        assert_eq!(
            int96_nanos(far),
            (u32::MAX as i128 - Int96::JULIAN_DAY_OF_EPOCH as i128) * 86_400_000_000_000
        );
    }
}
