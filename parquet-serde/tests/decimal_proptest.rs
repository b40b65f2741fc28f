//! Property tests: decimals are exact both ways at every precision the Parquet type allows.
//! A random unscaled value of at most `precision` digits, with a random scale, is written as a
//! `rust_decimal::Decimal` / `bigdecimal::BigDecimal` into a `DECIMAL(precision, scale)`
//! column (INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY by the precision); the stored
//! unscaled integer is the value's, and reading back gives the same number.

#![cfg(any(feature = "rust_decimal", feature = "bigdecimal"))]

use std::cell::Cell;

use parquet_serde::core::schema::typed::{DecimalSpec, FieldAttrs};
use parquet_serde::core::schema::SchemaNode;
use parquet_serde::ParquetSchema;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

thread_local! {
    /// The column of [`Dec`] fields: set before writing (the schema is built on this thread).
    static SPEC: Cell<Option<DecimalSpec>> = const { Cell::new(None) };
}

/// A decimal of type `T` whose column is the one in [`SPEC`], so one type serves every
/// precision and scale.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(transparent)]
struct Dec<T>(T);

impl<T: ParquetSchema> ParquetSchema for Dec<T> {
    fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
        let mut attrs = FieldAttrs::new();
        attrs.decimal = SPEC.with(Cell::get);
        T::parquet_node(name, &attrs)
    }
}

/// A row of one decimal field `d`.
#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
struct One<T: ParquetSchema> {
    d: Dec<T>,
}

/// Writes `value` into a `DECIMAL(precision, scale)` column.
fn write<T: Serialize + ParquetSchema>(
    value: T,
    precision: u32,
    scale: u32,
) -> parquet_serde::Result<Vec<u8>> {
    SPEC.with(|s| s.set(DecimalSpec::new_wide(precision, scale)));
    parquet_serde::to_vec(&[One { d: Dec(value) }])
}

/// Decimal digits of `unscaled` with the point `scale` digits from the right.
fn text(unscaled: &str, scale: u32) -> String {
    let (neg, digits) = match unscaled.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, unscaled),
    };
    let scale = scale as usize;
    let padded = format!("{:0>width$}", digits, width = scale + 1);
    let (int, frac) = padded.split_at(padded.len() - scale);
    let sign = if neg { "-" } else { "" };
    if frac.is_empty() {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    }
}

/// A random unscaled value of at most `max_digits` digits, as text, and a precision and scale
/// that hold it.
fn case(max_precision: u32) -> impl Strategy<Value = (String, u32, u32)> {
    (1..=max_precision)
        .prop_flat_map(|p| (Just(p), 0..=p, 1..=p as usize, any::<bool>()))
        .prop_flat_map(|(p, s, n, neg)| {
            let digits = proptest::collection::vec(0u8..10, n);
            (Just(p), Just(s), digits, Just(neg))
        })
        .prop_map(|(p, s, digits, neg)| {
            let mut t: String = digits.iter().map(|d| (b'0' + d) as char).collect();
            t = t.trim_start_matches('0').to_string();
            if t.is_empty() {
                t.push('0');
            } else if neg {
                t.insert(0, '-');
            }
            (t, p, s)
        })
}

/// The unscaled values stored in column `d`, as decimal text, read as `Value`s.
fn stored(bytes: &[u8]) -> Vec<String> {
    let values: Vec<parquet_serde::Value> = parquet_serde::from_slice(bytes).unwrap();
    values
        .iter()
        .map(|v| match v.get("d") {
            Some(parquet_serde::Value::Decimal { unscaled, .. }) => big_endian_text(unscaled),
            other => panic!("not a decimal: {other:?}"),
        })
        .collect()
}

/// A big-endian two's complement integer as decimal text (long division).
fn big_endian_text(b: &[u8]) -> String {
    let negative = b.first().is_some_and(|x| x & 0x80 != 0);
    let mut mag: Vec<u8> = b.to_vec();
    if negative {
        for x in mag.iter_mut() {
            *x = !*x;
        }
        for x in mag.iter_mut().rev() {
            let (v, c) = x.overflowing_add(1);
            *x = v;
            if !c {
                break;
            }
        }
    }
    let mut digits = Vec::new();
    while mag.iter().any(|&x| x != 0) {
        let mut rem = 0u32;
        for x in mag.iter_mut() {
            let cur = rem << 8 | *x as u32;
            *x = (cur / 10) as u8;
            rem = cur % 10;
        }
        digits.push(b'0' + rem as u8);
    }
    if digits.is_empty() {
        return "0".into();
    }
    let mut s: String = digits.iter().rev().map(|&d| d as char).collect();
    if negative {
        s.insert(0, '-');
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[cfg(feature = "rust_decimal")]
    #[test]
    fn rust_decimal_is_exact((unscaled, precision, scale) in case(28)) {
        use rust_decimal::Decimal;
        let value: Decimal = text(&unscaled, scale).parse().unwrap();
        let bytes = write(value, precision, scale).unwrap();
        prop_assert_eq!(stored(&bytes), vec![unscaled.clone()]);
        let back: Vec<One<Decimal>> = parquet_serde::from_slice(&bytes).unwrap();
        prop_assert_eq!(back[0].d.0, value);
        prop_assert_eq!(back[0].d.0.scale(), scale);
    }

    #[cfg(feature = "bigdecimal")]
    #[test]
    fn big_decimal_is_exact((unscaled, precision, scale) in case(76)) {
        use bigdecimal::BigDecimal;
        let value: BigDecimal = text(&unscaled, scale).parse().unwrap();
        let bytes = write(value.clone(), precision, scale).unwrap();
        prop_assert_eq!(stored(&bytes), vec![unscaled.clone()]);
        let back: Vec<One<BigDecimal>> = parquet_serde::from_slice(&bytes).unwrap();
        prop_assert_eq!(&back[0].d.0, &value);
    }

    #[cfg(feature = "bigdecimal")]
    #[test]
    fn too_many_digits_is_an_error((unscaled, precision, scale) in case(60)) {
        use bigdecimal::BigDecimal;
        // One more digit than the precision allows: ±10^precision, or that with the case's
        // digits after it.
        let sign = if unscaled.starts_with('-') { "-" } else { "" };
        let tail = unscaled.trim_start_matches('-');
        let wide = format!("{sign}1{}{}", "0".repeat(precision as usize), if tail == "0" { "" } else { tail });
        let value: BigDecimal = text(&wide, scale).parse().unwrap();
        match write(value, precision, scale) {
            Ok(_) => prop_assert!(false, "{} fits DECIMAL({}, {})", wide, precision, scale),
            Err(e) => prop_assert_eq!(e.location().column.as_deref(), Some("d")),
        }
    }
}

#[test]
fn text_places_the_point() {
    assert_eq!(text("-5", 3), "-0.005");
    assert_eq!(text("12345", 2), "123.45");
    assert_eq!(text("7", 0), "7");
    assert_eq!(big_endian_text(&[0xff, 0x7f]), "-129");
    assert_eq!(big_endian_text(&[0, 0x80]), "128");
}
