//! Parsing the text forms (see the [module](super) for the forms), as the serializer does for
//! strings written into DATE, TIME, TIMESTAMP, DECIMAL and UUID columns. Pure functions on
//! `&str`; each returns `None` for text that is not of its form.

use super::{days_from_civil, days_in_month, NANOS_PER_SEC};

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
    // RFC 9557 suffixes (`[Europe/Paris]`, `[u-ca=iso8601]`): the offset decides the instant.
    while c.eat(b'[') {
        while !c.eat(b']') {
            c.peek()?;
            c.i += 1;
        }
    }
    if !c.done() {
        return None;
    }
    Some((days as i128 * 86_400 - offset_secs as i128) * NANOS_PER_SEC + t as i128)
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
