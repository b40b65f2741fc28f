//! Text forms of logical values, for targets that deserialize from strings (chrono's types,
//! `#[parquet(decimal)]` and `#[parquet(uuid)]` strings): ISO 8601 dates, times and
//! timestamps, decimal numbers and hyphenated UUIDs. Formatted into a stack buffer.

use std::fmt::{self, Write};

use crate::format::TimeUnit;
use crate::values::Int96;

/// A small string on the stack (a formatting target that never allocates).
pub(crate) struct StackStr {
    bytes: [u8; 80],
    len: usize,
}

impl StackStr {
    /// An empty string.
    pub fn new() -> Self {
        StackStr {
            bytes: [0; 80],
            len: 0,
        }
    }

    /// The text written so far.
    pub fn as_str(&self) -> &str {
        // Only whole `&str`s are ever appended (`write_str`), so the prefix is UTF-8; an
        // impossible failure yields "" rather than a panic.
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

impl Write for StackStr {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self
            .len
            .checked_add(s.len())
            .filter(|&e| e <= self.bytes.len())
            .ok_or(fmt::Error)?;
        self.bytes[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Units per second and fraction digits of a time unit.
pub(crate) fn unit_scale(unit: TimeUnit) -> (i64, usize) {
    match unit {
        TimeUnit::Millis => (1_000, 3),
        TimeUnit::Nanos => (1_000_000_000, 9),
        TimeUnit::Micros | TimeUnit::Unknown(_) => (1_000_000, 6),
    }
}

/// Proleptic Gregorian `YYYY-MM-DD` of a day count since 1970-01-01 (years outside
/// 0..=9999 get a sign, as ISO 8601 extended years).
pub(crate) fn date(days: i64, out: &mut impl Write) -> fmt::Result {
    let z = days as i128 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i128;
    if (0..=9999).contains(&y) {
        write!(out, "{y:04}-{m:02}-{d:02}")
    } else if y > 0 {
        write!(out, "+{y:04}-{m:02}-{d:02}")
    } else {
        write!(out, "-{:04}-{m:02}-{d:02}", -y)
    }
}

fn clock(secs_of_day: i128, frac: i64, digits: usize, out: &mut impl Write) -> fmt::Result {
    let s = secs_of_day;
    write!(
        out,
        "{:02}:{:02}:{:02}.{frac:0digits$}",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// `HH:MM:SS.fff…` of a time of day in `unit`s since midnight.
pub(crate) fn time(value: i64, unit: TimeUnit, out: &mut impl Write) -> fmt::Result {
    let (per_sec, digits) = unit_scale(unit);
    clock(
        value.div_euclid(per_sec) as i128,
        value.rem_euclid(per_sec),
        digits,
        out,
    )
}

fn datetime(secs: i128, frac: i64, digits: usize, utc: bool, out: &mut impl Write) -> fmt::Result {
    let days = secs.div_euclid(86_400);
    let days = i64::try_from(days).map_err(|_| fmt::Error)?;
    date(days, out)?;
    out.write_char('T')?;
    clock(secs.rem_euclid(86_400), frac, digits, out)?;
    if utc {
        out.write_char('Z')?;
    }
    Ok(())
}

/// `YYYY-MM-DDTHH:MM:SS.fff…` of `unit`s since the epoch, with `Z` when adjusted to UTC.
pub(crate) fn timestamp(
    value: i64,
    unit: TimeUnit,
    utc: bool,
    out: &mut impl Write,
) -> fmt::Result {
    let (per_sec, digits) = unit_scale(unit);
    datetime(
        value.div_euclid(per_sec) as i128,
        value.rem_euclid(per_sec),
        digits,
        utc,
        out,
    )
}

/// Nanoseconds since the epoch of a legacy INT96 timestamp (any value: i128 holds it).
pub(crate) fn int96_nanos(v: Int96) -> i128 {
    let nanos_of_day = (v.0[0] as u64 | (v.0[1] as u64) << 32) as i128;
    let day = v.0[2] as i128 - Int96::JULIAN_DAY_OF_EPOCH as i128;
    day * 86_400_000_000_000 + nanos_of_day
}

/// An INT96 timestamp as UTC text with nanoseconds.
pub(crate) fn int96(v: Int96, out: &mut impl Write) -> fmt::Result {
    let total = int96_nanos(v);
    datetime(
        total.div_euclid(1_000_000_000),
        total.rem_euclid(1_000_000_000) as i64,
        9,
        true,
        out,
    )
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

/// The decimal text of `unscaled × 10^-scale`.
pub(crate) fn decimal(unscaled: i128, scale: i32, out: &mut impl Write) -> fmt::Result {
    let mut digits = StackStr::new();
    write!(digits, "{}", unscaled.unsigned_abs())?;
    let digits = digits.as_str();
    if unscaled < 0 {
        out.write_char('-')?;
    }
    if scale <= 0 {
        out.write_str(digits)?;
        for _ in 0..(-(scale as i64)).min(4096) {
            out.write_char('0')?;
        }
        return Ok(());
    }
    let scale = scale as usize;
    if digits.len() > scale {
        let (int, frac) = digits.split_at(digits.len() - scale);
        write!(out, "{int}.{frac}")
    } else {
        out.write_str("0.")?;
        for _ in 0..scale - digits.len() {
            out.write_char('0')?;
        }
        out.write_str(digits)
    }
}

/// The decimal text of a big-endian two's complement integer of any length, scaled.
pub(crate) fn decimal_long(unscaled: &[u8], scale: i32) -> String {
    let negative = unscaled.first().is_some_and(|b| b & 0x80 != 0);
    let mut mag: Vec<u8> = if negative {
        let mut m: Vec<u8> = unscaled.iter().map(|b| !b).collect();
        for b in m.iter_mut().rev() {
            let (v, carry) = b.overflowing_add(1);
            *b = v;
            if !carry {
                break;
            }
        }
        m
    } else {
        unscaled.to_vec()
    };
    let mut digits = Vec::new();
    while mag.iter().any(|&b| b != 0) {
        let mut rem = 0u32;
        for b in mag.iter_mut() {
            let cur = rem << 8 | *b as u32;
            *b = (cur / 10) as u8;
            rem = cur % 10;
        }
        digits.push(b'0' + rem as u8);
    }
    if digits.is_empty() {
        digits.push(b'0');
    }
    let mut out = String::with_capacity(digits.len() + 3);
    if negative {
        out.push('-');
    }
    if scale <= 0 {
        out.extend(digits.iter().rev().map(|&d| d as char));
        out.extend(std::iter::repeat_n(
            '0',
            (-(scale as i64)).min(4096) as usize,
        ));
        return out;
    }
    let scale = scale as usize;
    while digits.len() <= scale {
        digits.push(b'0');
    }
    for (i, &d) in digits.iter().enumerate().rev() {
        out.push(d as char);
        if i == scale {
            out.push('.');
        }
    }
    out
}

/// The hyphenated lowercase form of a 16-byte UUID.
pub(crate) fn uuid(b: &[u8], out: &mut impl Write) -> fmt::Result {
    for (i, byte) in b.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.write_char('-')?;
        }
        write!(out, "{byte:02x}")?;
    }
    Ok(())
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

/// `unscaled × 10^-scale` as the nearest double (via the decimal text, so it rounds once).
pub(crate) fn decimal_f64(unscaled: i128, scale: i32) -> f64 {
    let mut s = StackStr::new();
    // Long scales overflow the buffer; scale with floats then.
    if decimal(unscaled, scale, &mut s).is_ok() {
        if let Ok(v) = s.as_str().parse::<f64>() {
            return v;
        }
    }
    unscaled as f64 / 10f64.powi(scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(f: impl FnOnce(&mut StackStr) -> fmt::Result) -> String {
        let mut s = StackStr::new();
        f(&mut s).unwrap();
        s.as_str().to_owned()
    }

    #[test]
    fn dates_and_times() {
        assert_eq!(text(|o| date(0, o)), "1970-01-01");
        assert_eq!(text(|o| date(19_723, o)), "2024-01-01");
        assert_eq!(text(|o| date(-719_529, o)), "-0001-12-31");
        assert_eq!(
            text(|o| time(3_723_000_001, TimeUnit::Micros, o)),
            "01:02:03.000001"
        );
        assert_eq!(
            text(|o| timestamp(1_700_000_000_123, TimeUnit::Millis, true, o)),
            "2023-11-14T22:13:20.123Z"
        );
        assert_eq!(
            text(|o| timestamp(-1, TimeUnit::Nanos, false, o)),
            "1969-12-31T23:59:59.999999999"
        );
        assert_eq!(
            text(|o| int96(Int96([0, 0, 2_440_589]), o)),
            "1970-01-02T00:00:00.000000000Z"
        );
    }

    #[test]
    fn decimals() {
        assert_eq!(text(|o| decimal(12345, 2, o)), "123.45");
        assert_eq!(text(|o| decimal(-5, 3, o)), "-0.005");
        assert_eq!(text(|o| decimal(7, 0, o)), "7");
        assert_eq!(text(|o| decimal(7, -2, o)), "700");
        assert_eq!(
            text(|o| decimal(i128::MIN, 38, o)),
            "-1.70141183460469231731687303715884105728"
        );
        assert_eq!(decimal_long(&[0xff, 0x85], 1), "-12.3");
        assert_eq!(decimal_long(&[0x00; 20], 2), "0.00");
        assert_eq!(decimal_f64(-12345, 2), -123.45);
    }

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
    fn uuids_and_halves() {
        let b: Vec<u8> = (0u8..16).collect();
        assert_eq!(
            text(|o| uuid(&b, o)),
            "00010203-0405-0607-0809-0a0b0c0d0e0f"
        );
        assert_eq!(f16_to_f32([0x00, 0x3c]), 1.0);
        assert_eq!(f16_to_f32([0x00, 0xc0]), -2.0);
        assert!(f16_to_f32([0x00, 0x7e]).is_nan());
        assert_eq!(f16_to_f32([0x01, 0x00]), 2f32.powi(-24));
        assert_eq!(f16_to_f32([0x00, 0x7c]), f32::INFINITY);
        assert_eq!(f16_to_f32([0x00, 0x80]).to_bits(), (-0.0f32).to_bits());
    }

    #[test]
    fn stack_string_overflows_cleanly() {
        let mut s = StackStr::new();
        assert!(s.write_str(&"x".repeat(81)).is_err());
        assert!(s.write_str(&"x".repeat(80)).is_ok());
        assert_eq!(s.as_str().len(), 80);
    }
}
