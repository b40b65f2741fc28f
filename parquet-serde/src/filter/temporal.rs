//! Date and time text literals as exact numbers: an instant as seconds since the epoch, a
//! time of day as seconds since midnight, with every fraction digit written (never cut to
//! a unit), so that [`exact`](super::exact) can place them among a column's integers.
//!
//! Forms (ISO 8601): `YYYY-MM-DD`, `YYYY-MM-DD(T| )HH:MM[:SS[.fraction]][Z|±HH[:MM]]`, and
//! `HH:MM[:SS[.fraction]]` for times. What an offset means depends on the column, as in
//! DuckDB's casts: on a UTC-adjusted TIMESTAMP the offset gives the instant (none means
//! UTC); on a TIMESTAMP not adjusted to UTC, and on TIME, the wall-clock reading is taken
//! and an offset is ignored; on DATE a day is its midnight (UTC) compared with the literal's
//! instant.

use crate::core::column::Decimal;
use crate::core::values::text;

use super::exact::{self, Scaled};

/// A date-time literal's parts.
struct Parsed {
    days: i64,
    /// Seconds since midnight of the wall-clock reading.
    secs: i64,
    /// The fraction's digits, as written.
    fraction: String,
    /// Seconds east of UTC.
    offset: i64,
}

/// `HH:MM[:SS[.fraction]]` at the start of `s`: seconds, fraction digits, and the rest.
fn time_of_day(s: &str) -> Option<(i64, String, &str)> {
    let b = s.as_bytes();
    let two = |i: usize| -> Option<i64> {
        let d = b.get(i..i + 2)?;
        d.iter()
            .all(u8::is_ascii_digit)
            .then(|| ((d[0] - b'0') * 10 + (d[1] - b'0')) as i64)
    };
    let h = two(0)?;
    if b.get(2) != Some(&b':') {
        return None;
    }
    let m = two(3)?;
    let mut at = 5;
    let mut sec = 0;
    let mut fraction = String::new();
    if b.get(at) == Some(&b':') {
        sec = two(at + 1)?;
        at += 3;
        if matches!(b.get(at), Some(b'.' | b',')) {
            let start = at + 1;
            let end = start + b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
            if end == start {
                return None;
            }
            fraction = s[start..end].to_string();
            at = end;
        }
    }
    // A leap second `:60` counts as the next second, as the serializer reads it.
    if h > 23 || m > 59 || sec > 60 {
        return None;
    }
    Some((h * 3600 + m * 60 + sec, fraction, &s[at..]))
}

/// `Z`, `±HH[:MM]` or nothing, then RFC 9557 `[...]` suffixes: seconds east of UTC.
fn offset(s: &str) -> Option<i64> {
    let (off, rest) = if let Some(r) = s.strip_prefix(['Z', 'z']) {
        (0, r)
    } else if let Some(sign @ ('+' | '-')) = s.chars().next() {
        let b = &s.as_bytes()[1..];
        let num = |d: &[u8]| -> Option<i64> {
            (d.len() == 2 && d.iter().all(u8::is_ascii_digit))
                .then(|| ((d[0] - b'0') * 10 + (d[1] - b'0')) as i64)
        };
        let h = num(b.get(0..2)?)?;
        let mut used = 2;
        let mut m = 0;
        if b.get(2) == Some(&b':') {
            m = num(b.get(3..5)?)?;
            used = 5;
        } else if let Some(d) = b.get(2..4).filter(|d| d.iter().all(u8::is_ascii_digit)) {
            m = num(d)?;
            used = 4;
        }
        if h > 23 || m > 59 {
            return None;
        }
        let secs = h * 3600 + m * 60;
        (if sign == '-' { -secs } else { secs }, &s[1 + used..])
    } else {
        (0, s)
    };
    let mut rest = rest;
    while let Some(r) = rest.strip_prefix('[') {
        rest = &r[r.find(']')? + 1..];
    }
    rest.is_empty().then_some(off)
}

fn parse(s: &str) -> Option<Parsed> {
    let s = s.trim();
    if let Some(days) = text::parse_date(s) {
        return Some(Parsed {
            days,
            secs: 0,
            fraction: String::new(),
            offset: 0,
        });
    }
    let split = s.find(['T', 't', ' '])?;
    let days = text::parse_date(&s[..split])?;
    let (secs, fraction, rest) = time_of_day(&s[split + 1..])?;
    Some(Parsed {
        days,
        secs,
        fraction,
        offset: offset(rest)?,
    })
}

/// `secs + 0.fraction` exactly.
fn seconds(secs: i128, fraction: &str) -> Decimal {
    let text = if secs >= 0 || fraction.bytes().all(|b| b == b'0') {
        format!("{secs}.{fraction}0")
    } else {
        // -|secs| + 0.f = -((|secs| - 1) + (1 - 0.f)).
        let mut comp: Vec<u8> = fraction.bytes().collect();
        let last = comp.iter().rposition(|&b| b != b'0').unwrap_or(0);
        for (i, c) in comp.iter_mut().enumerate() {
            *c = match i.cmp(&last) {
                std::cmp::Ordering::Less => b'9' - (*c - b'0'),
                std::cmp::Ordering::Equal => b'0' + (10 - (*c - b'0')),
                std::cmp::Ordering::Greater => b'0',
            };
        }
        let comp = String::from_utf8(comp).unwrap_or_default();
        format!("-{}.{comp}", secs.unsigned_abs() - 1)
    };
    text.parse().unwrap_or_else(|_| Decimal::from(secs))
}

/// An instant literal as seconds since the epoch: the offset applied when `utc` (none
/// means UTC), ignored otherwise. A date alone is its midnight.
pub(crate) fn instant_seconds(s: &str, utc: bool) -> Option<Decimal> {
    let p = parse(s)?;
    let off = if utc { p.offset } else { 0 };
    let secs = p.days as i128 * 86_400 + p.secs as i128 - off as i128;
    Some(seconds(secs, &p.fraction))
}

/// A date or date-time literal among a DATE column's days: a date alone is that day; a
/// date-time is its exact instant (an offset applied, none meaning UTC), which a day's
/// midnight is compared with (as DuckDB promotes a DATE to a TIMESTAMP), so
/// `'2024-01-01T10:00:00'` lies strictly between days 2024-01-01 and 2024-01-02.
pub(crate) fn date_scaled(s: &str) -> Option<Scaled> {
    const DAY: i128 = 86_400;
    let secs = instant_seconds(s, true)?;
    Some(match exact::scale_decimal(&secs, 0) {
        Scaled::Exact(n) if n.rem_euclid(DAY) == 0 => Scaled::Exact(n.div_euclid(DAY)),
        Scaled::Exact(n) | Scaled::Between(n) => Scaled::Between(n.div_euclid(DAY)),
        other => other,
    })
}

/// A time-of-day literal `HH:MM[:SS[.fraction]]` (an offset ignored) as seconds since midnight.
pub(crate) fn time_seconds(s: &str) -> Option<Decimal> {
    let (secs, fraction, rest) = time_of_day(s.trim())?;
    offset(rest)?;
    Some(seconds(secs as i128, &fraction))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn instants_keep_every_digit() {
        assert_eq!(
            instant_seconds("2026-11-24T13:00:00Z", true),
            Some(d("1795525200"))
        );
        assert_eq!(
            instant_seconds("2026-11-24 14:00:00+01:00", true),
            Some(d("1795525200"))
        );
        // Not adjusted to UTC: the wall clock.
        assert_eq!(
            instant_seconds("2026-11-24 14:00:00+01:00", false),
            Some(d("1795528800"))
        );
        assert_eq!(
            instant_seconds("2026-11-24T13:00:19.833999Z", true),
            Some(d("1795525219.833999"))
        );
        // Sub-nanosecond digits are kept.
        assert_eq!(
            instant_seconds("1970-01-01T00:00:00.0000000001", true),
            Some(d("0.0000000001"))
        );
        // Before the epoch the fraction still counts forward.
        assert_eq!(
            instant_seconds("1969-12-31T23:59:59.25Z", true),
            Some(d("-0.75"))
        );
        assert_eq!(
            instant_seconds("1969-12-31T23:59:58.0000000001Z", true),
            Some(d("-1.9999999999"))
        );
        assert_eq!(instant_seconds("2026-11-24", true), Some(d("1795478400")));
        assert_eq!(
            instant_seconds("2026-11-24T13:00Z[Europe/Paris]", true),
            Some(d("1795525200"))
        );
        assert_eq!(instant_seconds("2026-11-24T25:00Z", true), None);
        assert_eq!(instant_seconds("2026-11-24T13:00:00.", true), None);
        assert_eq!(instant_seconds("yesterday", true), None);
        assert_eq!(
            instant_seconds("2026-11-24T13:00:00+0530", true),
            Some(d("1795505400"))
        );
    }

    #[test]
    fn dates_and_times() {
        assert_eq!(date_scaled("2026-11-24"), Some(Scaled::Exact(20_781)));
        assert_eq!(
            date_scaled("2026-11-24T00:00:00Z"),
            Some(Scaled::Exact(20_781))
        );
        // A date-time is its instant: after midnight, before the next.
        assert_eq!(
            date_scaled("2026-11-24T10:00:00"),
            Some(Scaled::Between(20_781))
        );
        assert_eq!(
            date_scaled("2026-11-24T00:00:00.000000001"),
            Some(Scaled::Between(20_781))
        );
        // 23:59:59 at -05:00 is 04:59:59 the next day in UTC.
        assert_eq!(
            date_scaled("2026-11-24T23:59:59-05:00"),
            Some(Scaled::Between(20_782))
        );
        assert_eq!(
            date_scaled("1969-12-31T23:59:59.5Z"),
            Some(Scaled::Between(-1))
        );
        assert_eq!(date_scaled("2026-02-30"), None);
        assert_eq!(time_seconds("00:00:01.5"), Some(d("1.5")));
        assert_eq!(time_seconds("13:00"), Some(d("46800")));
        assert_eq!(
            time_seconds("13:00:00.000000000001"),
            Some(d("46800.000000000001"))
        );
        assert_eq!(time_seconds("24:00:00"), None);
    }
}
