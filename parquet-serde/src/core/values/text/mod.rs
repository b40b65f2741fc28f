//! Text forms of logical values, printed and parsed in one place: ISO 8601 dates, times and
//! date-times (TIMESTAMP and legacy INT96), decimal numbers and hyphenated UUIDs.
//!
//! The deserializer prints them for string targets (chrono's types, `#[parquet(decimal)]`
//! and `#[parquet(uuid)]` strings), `Value`'s `Serialize` and `cat`'s JSON print them, and
//! the serializer parses them when a string is written into a DATE, TIME, TIMESTAMP,
//! DECIMAL or UUID column.
//!
//! | value | printed | parsed |
//! |---|---|---|
//! | DATE (days) | `YYYY-MM-DD` | the same |
//! | TIME (unit) | `HH:MM:SS.fff` with the unit's digits (3, 6 or 9) | `HH:MM[:SS[.f…]]`, `,` for `.` too |
//! | TIMESTAMP (unit) | `YYYY-MM-DDTHH:MM:SS.fff`, `Z` when adjusted to UTC | also a space or `t` for `T`, `z` or `±HH[:MM]` offsets, no zone (taken as UTC), RFC 9557 `[…]` suffixes (ignored) |
//! | INT96 | as a UTC TIMESTAMP with nanoseconds | as a TIMESTAMP |
//! | DECIMAL | `-123.45`: exactly `scale` fractional digits, `0.05` below one | `[+-]digits[.digits][e[+-]digits]`, any number of digits; digits beyond the scale only if zeros |
//! | UUID | lowercase hyphenated `8-4-4-4-12` | any case, hyphens anywhere, `{…}` or `urn:uuid:` |
//!
//! Dates use the proleptic Gregorian calendar with astronomical year numbering (year 0 is
//! 1 BC). Years 0000 to 9999 print with four digits and no sign; others print with a sign
//! and at least four digits (ISO 8601 expanded years: `+10000-01-01`, `-0001-12-31`), so
//! every stored value prints. Parsing takes 4 to 9 year digits after an optional sign, which
//! covers every DATE (`i32` days), every TIMESTAMP in any unit (`i64`) and every INT96 day
//! (`u32`), so whatever is printed parses back to the same value. Fractions of a second
//! beyond nanoseconds are dropped when parsing; a leap second (`:60`) counts as the next
//! second. DECIMAL text of a negative scale (`unscaled × 10^-scale` with `-scale` zeros) is
//! printed but not parsed: the typed layer only writes scales from 0 to 38.

mod decimal;
mod parse;
mod print;
#[cfg(test)]
mod tests;

pub(crate) use decimal::{parse_decimal_exact, DecimalTextError};
pub(crate) use parse::{parse_date, parse_time, parse_timestamp, parse_uuid};
pub(crate) use print::{
    date, decimal, decimal_be, decimal_f64, decimal_long, int96, time, timestamp, uuid, Formatted,
    StackStr,
};

use crate::core::format::TimeUnit;

/// Nanoseconds in a second.
pub(crate) const NANOS_PER_SEC: i128 = 1_000_000_000;

/// Units per second and fraction digits of a time unit (an unknown unit counts as micros).
pub(crate) fn unit_scale(unit: TimeUnit) -> (i64, usize) {
    match unit {
        TimeUnit::Millis => (1_000, 3),
        TimeUnit::Nanos => (1_000_000_000, 9),
        TimeUnit::Micros | TimeUnit::Unknown(_) => (1_000_000, 6),
    }
}

/// Nanoseconds per `unit` (1 for an unknown unit, which the writer rejects earlier).
pub(crate) fn nanos_per(unit: TimeUnit) -> i128 {
    match unit {
        TimeUnit::Millis => 1_000_000,
        TimeUnit::Micros => 1_000,
        TimeUnit::Nanos | TimeUnit::Unknown(_) => 1,
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

/// The proleptic Gregorian `(year, month, day)` of a day count since 1970-01-01 (the inverse
/// of [`days_from_civil`]; `i128` so that every `i64` day count has a year).
pub(crate) fn civil_from_days(days: i64) -> (i128, u32, u32) {
    let z = days as i128 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i128;
    // 1 <= m <= 12 and 1 <= d <= 31 by construction.
    (y, m as u32, d as u32)
}

/// Whether `y` is a leap year of the proleptic Gregorian calendar.
fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

/// Days in month `m` (1 to 12) of year `y`.
fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}
