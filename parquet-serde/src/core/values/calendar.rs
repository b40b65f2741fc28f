//! Dates and times as the integer parts the `time` crate serializes them as (year and day of
//! the year; hour, minute, second, nanosecond), to and from the day and nanosecond counts the
//! columns store.

use super::text::{civil_from_days, days_from_civil};

/// Nanoseconds in a day.
pub(crate) const NANOS_PER_DAY: i128 = 86_400_000_000_000;

/// Years beyond this are refused (no stored DATE or TIMESTAMP reaches them).
const MAX_YEAR: i64 = 1_000_000_000;

/// Days since 1970-01-01 of day `ordinal` (1-based) of `year`; `None` for a day the year
/// does not have.
pub(crate) fn days_of_ordinal(year: i64, ordinal: i64) -> Option<i64> {
    if year.abs() > MAX_YEAR {
        return None;
    }
    let first = days_from_civil(year, 1, 1);
    let len = days_from_civil(year + 1, 1, 1) - first;
    (1..=len).contains(&ordinal).then(|| first + ordinal - 1)
}

/// `(year, ordinal day)` of a day count since 1970-01-01; `None` beyond `i64` years.
pub(crate) fn ordinal_of_days(days: i64) -> Option<(i64, i64)> {
    let (y, _, _) = civil_from_days(days);
    let y = i64::try_from(y).ok()?;
    Some((y, days - days_from_civil(y, 1, 1) + 1))
}

/// Nanoseconds since midnight of `h:m:s.ns`; `None` out of range.
pub(crate) fn nanos_of_time(h: i64, m: i64, s: i64, ns: i64) -> Option<i64> {
    let ok = (0..24).contains(&h)
        && (0..60).contains(&m)
        && (0..60).contains(&s)
        && (0..1_000_000_000).contains(&ns);
    ok.then(|| ((h * 60 + m) * 60 + s) * 1_000_000_000 + ns)
}

/// `[hour, minute, second, nanosecond]` of nanoseconds since midnight (taken modulo a day).
pub(crate) fn time_of_nanos(nanos: i64) -> [i64; 4] {
    let n = nanos.rem_euclid(NANOS_PER_DAY as i64);
    let secs = n / 1_000_000_000;
    [secs / 3600, secs / 60 % 60, secs % 60, n % 1_000_000_000]
}

/// `[year, ordinal, hour, minute, second, nanosecond]` of nanoseconds since the epoch.
pub(crate) fn parts_of_instant(nanos: i128) -> Option<[i64; 6]> {
    let days = i64::try_from(nanos.div_euclid(NANOS_PER_DAY)).ok()?;
    let (y, o) = ordinal_of_days(days)?;
    let [h, m, s, ns] = time_of_nanos(nanos.rem_euclid(NANOS_PER_DAY) as i64);
    Some([y, o, h, m, s, ns])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinal_days_round_trip() {
        assert_eq!(days_of_ordinal(1970, 1), Some(0));
        assert_eq!(days_of_ordinal(2000, 366), Some(11_322));
        assert_eq!(days_of_ordinal(2001, 366), None);
        assert_eq!(days_of_ordinal(2001, 0), None);
        for days in [-800_000i64, -1, 0, 59, 365, 11_322, 2_932_896] {
            let (y, o) = ordinal_of_days(days).unwrap();
            assert_eq!(days_of_ordinal(y, o), Some(days), "{days}");
        }
        assert_eq!(
            nanos_of_time(23, 59, 59, 999_999_999),
            Some(86_399_999_999_999)
        );
        assert_eq!(nanos_of_time(24, 0, 0, 0), None);
        assert_eq!(time_of_nanos(3_723_000_000_004), [1, 2, 3, 4]);
        assert_eq!(
            parts_of_instant(-1),
            Some([1969, 365, 23, 59, 59, 999_999_999])
        );
    }
}
