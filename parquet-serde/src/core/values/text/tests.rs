//! Printing and parsing of the text forms: examples of each form, then round trips over the
//! full range of every stored type (printed text parses back to the same value).

use std::fmt::{self, Write};

use proptest::prelude::*;

use super::*;
use crate::core::format::TimeUnit;
use crate::core::values::numeric::int96_nanos;
use crate::core::values::Int96;

fn text(f: impl FnOnce(&mut StackStr) -> fmt::Result) -> String {
    let mut s = StackStr::new();
    f(&mut s).unwrap();
    s.as_str().to_owned()
}

#[test]
fn print_dates_and_times() {
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
fn print_decimals() {
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
fn print_uuids() {
    let b: Vec<u8> = (0u8..16).collect();
    assert_eq!(
        text(|o| uuid(&b, o)),
        "00010203-0405-0607-0809-0a0b0c0d0e0f"
    );
}

#[test]
fn stack_string_overflows_cleanly() {
    let mut s = StackStr::new();
    assert!(s.write_str(&"x".repeat(81)).is_err());
    assert!(s.write_str(&"x".repeat(80)).is_ok());
    assert_eq!(s.as_str().len(), 80);
}

#[test]
fn civil_days() {
    assert_eq!(days_from_civil(1970, 1, 1), 0);
    assert_eq!(days_from_civil(2000, 3, 1), 11_017);
    assert_eq!(days_from_civil(1969, 12, 31), -1);
    assert_eq!(days_from_civil(2024, 2, 29), 19_782);
    assert_eq!(days_from_civil(1, 1, 1), -719_162);
}

#[test]
fn parse_dates() {
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
fn parse_times() {
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
fn parse_timestamps() {
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

/// Decimal text as an `i128` unscaled value (`None`: not a decimal of this scale, or more
/// than 38 digits).
fn parse_decimal(s: &str, scale: u32) -> Option<i128> {
    parse_decimal_exact(s, scale).ok()?.to_i128()
}

/// Decimal text as the `i128` its big-endian bytes hold (any digit count).
fn parse_decimal_bytes(s: &str, scale: u32) -> Option<i128> {
    crate::core::values::numeric::be_i128(&parse_decimal_exact(s, scale).ok()?.to_be_bytes())
}

#[test]
fn parse_decimals() {
    assert_eq!(parse_decimal("123.45", 2), Some(12_345));
    assert_eq!(parse_decimal("-1.5", 3), Some(-1_500));
    assert_eq!(parse_decimal("+7", 0), Some(7));
    assert_eq!(parse_decimal(".5", 1), Some(5));
    assert_eq!(parse_decimal("2.50", 1), Some(25));
    assert_eq!(parse_decimal("2.51", 1), None);
    // Exponents (BigDecimal's text) are decimal text too.
    assert_eq!(parse_decimal("1e5", 2), Some(10_000_000));
    for bad in ["", "-", ".", "1.2.3", "abc", " 1", "1e", "e5"] {
        assert_eq!(parse_decimal(bad, 2), None, "{bad}");
    }
    assert_eq!(
        parse_decimal("999999999999999999999999999999999999999999", 0),
        None
    );
}

#[test]
fn parse_uuids() {
    let want = [
        0x67, 0xe5, 0x50, 0x44, 0x10, 0xb1, 0x42, 0x6f, 0x92, 0x47, 0xbb, 0x68, 0x0e, 0x5f, 0xe0,
        0xc8,
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

#[test]
fn parse_decimal_extremes() {
    let min = text(|o| decimal(i128::MIN, 0, o));
    assert_eq!(parse_decimal_bytes(&min, 0), Some(i128::MIN));
    let max = text(|o| decimal(i128::MAX, 0, o));
    assert_eq!(parse_decimal_bytes(&max, 0), Some(i128::MAX));
    // One past either end needs a 17th byte.
    assert_eq!(
        parse_decimal_bytes("170141183460469231731687303715884105728", 0),
        None
    );
    assert_eq!(
        parse_decimal_bytes("-170141183460469231731687303715884105729", 0),
        None
    );
}

#[test]
fn print_extreme_dates_and_instants() {
    assert_eq!(text(|o| date(i32::MIN as i64, o)), "-5877641-06-23");
    assert_eq!(text(|o| date(i32::MAX as i64, o)), "+5881580-07-11");
    assert_eq!(
        text(|o| timestamp(i64::MIN, TimeUnit::Millis, true, o)),
        "-292275055-05-16T16:47:04.192Z"
    );
    assert_eq!(
        text(|o| timestamp(i64::MAX, TimeUnit::Nanos, false, o)),
        "2262-04-11T23:47:16.854775807"
    );
    assert_eq!(
        text(|o| int96(Int96([0, 0, 0]), o)),
        "-4713-11-24T00:00:00.000000000Z"
    );
}

#[test]
fn decimal_be_takes_any_length() {
    assert_eq!(decimal_be(&[0xff, 0x85], 1), "-12.3");
    assert_eq!(decimal_be(&[], 2), "0.00");
    let mut wide = vec![0x01];
    wide.extend_from_slice(&[0; 16]);
    // 2^128, past i128: the long division path.
    assert_eq!(
        decimal_be(&wide, 0),
        "340282366920938463463374607431768211456"
    );
}

fn unit() -> impl Strategy<Value = TimeUnit> {
    prop_oneof![
        Just(TimeUnit::Millis),
        Just(TimeUnit::Micros),
        Just(TimeUnit::Nanos)
    ]
}

proptest! {
    #[test]
    fn civil_round_trips(days in any::<i32>()) {
        let (y, m, d) = civil_from_days(days as i64);
        prop_assert_eq!(days_from_civil(y as i64, m, d), days as i64);
        prop_assert!(d <= days_in_month(y as i64, m));
    }

    #[test]
    fn dates_round_trip(days in any::<i32>()) {
        let s = text(|o| date(days as i64, o));
        prop_assert_eq!(parse_date(&s), Some(days as i64), "{}", s);
    }

    #[test]
    fn times_round_trip(unit in unit(), frac in 0.0f64..1.0) {
        let (per_sec, _) = unit_scale(unit);
        let value = (frac * (86_400 * per_sec) as f64) as i64;
        let s = text(|o| time(value, unit, o));
        let nanos = parse_time(&s).map(|n| n as i128 / nanos_per(unit));
        prop_assert_eq!(nanos, Some(value as i128), "{}", s);
    }

    #[test]
    fn timestamps_round_trip(value in any::<i64>(), unit in unit(), utc in any::<bool>()) {
        let s = text(|o| timestamp(value, unit, utc, o));
        let nanos = parse_timestamp(&s);
        prop_assert_eq!(nanos.map(|n| n / nanos_per(unit)), Some(value as i128), "{}", s);
        prop_assert_eq!(nanos.map(|n| n % nanos_per(unit)), Some(0));
    }

    #[test]
    fn int96_round_trips(day in any::<u32>(), nanos_of_day in 0u64..86_400_000_000_000) {
        let v = Int96([nanos_of_day as u32, (nanos_of_day >> 32) as u32, day]);
        let s = text(|o| int96(v, o));
        prop_assert_eq!(parse_timestamp(&s), Some(int96_nanos(v)), "{}", s);
    }

    #[test]
    fn decimals_round_trip(unscaled in any::<i128>(), scale in 0u32..=38) {
        let s = text(|o| decimal(unscaled, scale as i32, o));
        prop_assert_eq!(parse_decimal_bytes(&s, scale), Some(unscaled), "{}", s);
        // The long division gives the same text as the i128 path.
        prop_assert_eq!(decimal_long(&unscaled.to_be_bytes(), scale as i32), s.clone());
        prop_assert_eq!(decimal_be(&unscaled.to_be_bytes(), scale as i32), s);
    }

    #[test]
    fn uuids_round_trip(bytes in any::<[u8; 16]>()) {
        let s = text(|o| uuid(&bytes, o));
        prop_assert_eq!(parse_uuid(&s), Some(bytes));
        prop_assert_eq!(parse_uuid(&s.to_uppercase()), Some(bytes));
    }
}
