//! Printing the text forms (see the [module](super) for the forms): into any `fmt::Write`,
//! such as a [`StackStr`] on the stack for the deserializer's hot path.

use std::fmt::{self, Write};

use super::{civil_from_days, unit_scale};
use crate::core::format::TimeUnit;
use crate::core::values::numeric::{be_i128, int96_nanos};
use crate::core::values::Int96;

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

/// A text form as a `Display` value (for `format!` and serde's `collect_str`): the closure
/// writes the text, such as `|f| text::uuid(bytes, f)`.
pub(crate) struct Formatted<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result>(pub F);

impl<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result> fmt::Display for Formatted<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (self.0)(f)
    }
}

/// Proleptic Gregorian `YYYY-MM-DD` of a day count since 1970-01-01 (years outside
/// 0..=9999 get a sign, as ISO 8601 extended years).
pub(crate) fn date(days: i64, out: &mut impl Write) -> fmt::Result {
    let (y, m, d) = civil_from_days(days);
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

/// The decimal text of a big-endian two's complement unscaled value of any length: on the
/// stack when it fits 16 bytes, else by long division ([`decimal_long`]).
pub(crate) fn decimal_be(unscaled: &[u8], scale: i32) -> String {
    let mut s = StackStr::new();
    match be_i128(unscaled) {
        Some(x) if decimal(x, scale, &mut s).is_ok() => s.as_str().to_owned(),
        _ => decimal_long(unscaled, scale),
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
