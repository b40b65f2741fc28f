//! Text forms the serializer accepts at typed leaves: dates, times and date-times as chrono
//! writes them (ISO 8601 / RFC 3339), decimal numbers, UUIDs. Pure functions on `&str`; each
//! returns `None` for text that is not of its form.

use crate::format::TimeUnit;

const NANOS_PER_SEC: i128 = 1_000_000_000;

/// Nanoseconds per `unit` (1 for an unknown unit, which the plan rejects earlier).
pub(crate) fn nanos_per(unit: TimeUnit) -> i128 {
    match unit {
        TimeUnit::Millis => 1_000_000,
        TimeUnit::Micros => 1_000,
        _ => 1,
    }
}

/// Days from 1970-01-01 to the proleptic Gregorian date `y-m-d` (H. Hinnant's algorithm).
pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A cursor over ASCII text.
struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    fn new(s: &'a str) -> Self {
        Cursor {
            s: s.as_bytes(),
            i: 0,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// Between `min` and `max` decimal digits; their value and count.
    fn digits(&mut self, min: usize, max: usize) -> Option<(u64, usize)> {
        let mut v = 0u64;
        let mut n = 0;
        while n < max {
            match self.peek() {
                Some(c @ b'0'..=b'9') => {
                    v = v * 10 + (c - b'0') as u64;
                    n += 1;
                    self.i += 1;
                }
                _ => break,
            }
        }
        (n >= min).then_some((v, n))
    }

    fn done(&self) -> bool {
        self.i == self.s.len()
    }
}

/// `[+-]YYYY-MM-DD` (at least 4 year digits) at the cursor: days since the epoch.
fn date_at(c: &mut Cursor<'_>) -> Option<i64> {
    let neg = if c.eat(b'-') {
        true
    } else {
        c.eat(b'+');
        false
    };
    let (y, _) = c.digits(4, 9)?;
    let y = if neg { -(y as i64) } else { y as i64 };
    if !c.eat(b'-') {
        return None;
    }
    let (m, _) = c.digits(2, 2)?;
    if !c.eat(b'-') {
        return None;
    }
    let (d, _) = c.digits(2, 2)?;
    let m = m as u32;
    let d = d as u32;
    if !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
        return None;
    }
    Some(days_from_civil(y, m, d))
}

/// `HH:MM[:SS[.fraction]]` at the cursor: nanoseconds since midnight (a leap second `:60`
/// counts as the next second).
fn time_at(c: &mut Cursor<'_>) -> Option<i64> {
    let (h, _) = c.digits(2, 2)?;
    if !c.eat(b':') {
        return None;
    }
    let (m, _) = c.digits(2, 2)?;
    let (mut s, mut nanos) = (0, 0u64);
    if c.eat(b':') {
        s = c.digits(2, 2)?.0;
        if c.eat(b'.') || c.eat(b',') {
            let (f, n) = c.digits(1, 9)?;
            nanos = f * 10u64.pow(9 - n as u32);
            // Digits beyond nanoseconds are dropped.
            while matches!(c.peek(), Some(b'0'..=b'9')) {
                c.i += 1;
            }
        }
    }
    if h > 23 || m > 59 || s > 60 {
        return None;
    }
    Some(((h * 3600 + m * 60 + s) * 1_000_000_000 + nanos) as i64)
}

/// `YYYY-MM-DD`: days since 1970-01-01.
pub(crate) fn parse_date(s: &str) -> Option<i64> {
    let mut c = Cursor::new(s);
    let d = date_at(&mut c)?;
    c.done().then_some(d)
}

/// `HH:MM:SS[.fraction]`: nanoseconds since midnight.
pub(crate) fn parse_time(s: &str) -> Option<i64> {
    let mut c = Cursor::new(s);
    let t = time_at(&mut c)?;
    c.done().then_some(t)
}

/// An ISO 8601 / RFC 3339 date-time, `YYYY-MM-DD(T| )HH:MM[:SS[.f]][Z|±HH[:MM]]`: nanoseconds
/// since the epoch (an offset is applied, so the result is the instant; without one the
/// wall-clock time is taken as UTC).
pub(crate) fn parse_timestamp(s: &str) -> Option<i128> {
    let mut c = Cursor::new(s);
    let days = date_at(&mut c)?;
    if !(c.eat(b'T') || c.eat(b't') || c.eat(b' ')) {
        return None;
    }
    let t = time_at(&mut c)?;
    let mut offset_secs = 0i64;
    if c.eat(b'Z') || c.eat(b'z') {
    } else if let Some(sign @ (b'+' | b'-')) = c.peek() {
        c.i += 1;
        let (h, _) = c.digits(2, 2)?;
        c.eat(b':');
        let m = c.digits(2, 2).map_or(0, |(m, _)| m);
        if h > 23 || m > 59 {
            return None;
        }
        offset_secs = (h * 3600 + m * 60) as i64;
        if sign == b'-' {
            offset_secs = -offset_secs;
        }
    }
    if !c.done() {
        return None;
    }
    Some((days as i128 * 86_400 - offset_secs as i128) * NANOS_PER_SEC + t as i128)
}

/// Decimal text `[+-]digits[.digits]` as an unscaled integer with `scale` digits after the
/// point. More fractional digits than `scale` are accepted only when they are zeros.
pub(crate) fn parse_decimal(s: &str, scale: u32) -> Option<i128> {
    let b = s.as_bytes();
    let (neg, b) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    let (int, frac) = match b.iter().position(|&c| c == b'.') {
        Some(p) => (&b[..p], &b[p + 1..]),
        None => (b, &b[..0]),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut v: i128 = 0;
    let digit = |c: u8| c.is_ascii_digit().then(|| (c - b'0') as i128);
    for &c in int {
        v = v.checked_mul(10)?.checked_add(digit(c)?)?;
    }
    for (i, &c) in frac.iter().enumerate() {
        let d = digit(c)?;
        if i < scale as usize {
            v = v.checked_mul(10)?.checked_add(d)?;
        } else if d != 0 {
            return None;
        }
    }
    for _ in frac.len()..scale as usize {
        v = v.checked_mul(10)?;
    }
    Some(if neg { -v } else { v })
}

/// A UUID as text: 32 hex digits, hyphens anywhere between them, optionally in braces or
/// after `urn:uuid:`.
pub(crate) fn parse_uuid(s: &str) -> Option<[u8; 16]> {
    let s = s.strip_prefix("urn:uuid:").unwrap_or(s);
    let s = s
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .unwrap_or(s);
    let mut out = [0u8; 16];
    let mut n = 0;
    for c in s.bytes() {
        if c == b'-' {
            continue;
        }
        let d = (c as char).to_digit(16)? as u8;
        if n >= 32 {
            return None;
        }
        out[n / 2] |= if n % 2 == 0 { d << 4 } else { d };
        n += 1;
    }
    (n == 32).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_days() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(days_from_civil(1969, 12, 31), -1);
        assert_eq!(days_from_civil(2024, 2, 29), 19_782);
        assert_eq!(days_from_civil(1, 1, 1), -719_162);
    }

    #[test]
    fn dates() {
        assert_eq!(parse_date("2024-02-29"), Some(19_782));
        assert_eq!(
            parse_date("+10000-01-01"),
            Some(days_from_civil(10_000, 1, 1))
        );
        assert_eq!(parse_date("-0001-01-01"), Some(days_from_civil(-1, 1, 1)));
        for bad in [
            "2023-02-29",
            "2023-13-01",
            "2023-1-01",
            "23-01-01",
            "2023-01-01x",
            "",
            "2023-00-10",
        ] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn times() {
        assert_eq!(parse_time("00:00:00"), Some(0));
        assert_eq!(parse_time("12:34:56.789"), Some(45_296_789_000_000));
        assert_eq!(parse_time("23:59:59.123456789"), Some(86_399_123_456_789));
        assert_eq!(parse_time("01:02"), Some(3_720_000_000_000));
        assert_eq!(parse_time("00:00:00.0000000019"), Some(1));
        for bad in ["24:00:00", "12:60:00", "1:00:00", "12:00:00.", "12:00:00Z"] {
            assert_eq!(parse_time(bad), None, "{bad}");
        }
    }

    #[test]
    fn timestamps() {
        assert_eq!(parse_timestamp("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_timestamp("1970-01-01T00:00:00.000001Z"), Some(1_000));
        assert_eq!(
            parse_timestamp("2021-06-01T12:00:00+02:00"),
            parse_timestamp("2021-06-01T10:00:00Z")
        );
        assert_eq!(
            parse_timestamp("2021-06-01 10:00:00-0130"),
            parse_timestamp("2021-06-01T11:30:00")
        );
        assert_eq!(parse_timestamp("1969-12-31T23:59:59.5"), Some(-500_000_000));
        assert_eq!(
            parse_timestamp("2023-11-14T22:13:20Z"),
            Some(1_700_000_000 * NANOS_PER_SEC)
        );
        for bad in [
            "2021-06-01",
            "2021-06-01T",
            "2021-06-01T10:00:00+25:00",
            "2021-06-01T10:00:00 Z",
        ] {
            assert_eq!(parse_timestamp(bad), None, "{bad}");
        }
    }

    #[test]
    fn decimals() {
        assert_eq!(parse_decimal("123.45", 2), Some(12_345));
        assert_eq!(parse_decimal("-1.5", 3), Some(-1_500));
        assert_eq!(parse_decimal("+7", 0), Some(7));
        assert_eq!(parse_decimal(".5", 1), Some(5));
        assert_eq!(parse_decimal("2.50", 1), Some(25));
        assert_eq!(parse_decimal("2.51", 1), None);
        for bad in ["", "-", ".", "1e5", "1.2.3", "abc", " 1"] {
            assert_eq!(parse_decimal(bad, 2), None, "{bad}");
        }
        assert_eq!(
            parse_decimal("999999999999999999999999999999999999999999", 0),
            None
        );
    }

    #[test]
    fn uuids() {
        let want = [
            0x67, 0xe5, 0x50, 0x44, 0x10, 0xb1, 0x42, 0x6f, 0x92, 0x47, 0xbb, 0x68, 0x0e, 0x5f,
            0xe0, 0xc8,
        ];
        assert_eq!(
            parse_uuid("67e55044-10b1-426f-9247-bb680e5fe0c8"),
            Some(want)
        );
        assert_eq!(parse_uuid("67E5504410B1426F9247BB680E5FE0C8"), Some(want));
        assert_eq!(
            parse_uuid("{67e55044-10b1-426f-9247-bb680e5fe0c8}"),
            Some(want)
        );
        assert_eq!(
            parse_uuid("urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8"),
            Some(want)
        );
        assert_eq!(parse_uuid("67e55044-10b1-426f-9247-bb680e5fe0c"), None);
        assert_eq!(parse_uuid("67e55044-10b1-426f-9247-bb680e5fe0c8a"), None);
        assert_eq!(parse_uuid("g7e55044-10b1-426f-9247-bb680e5fe0c8"), None);
    }
}
