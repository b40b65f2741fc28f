//! Round trips of the logical types that have a Rust type of their own beyond the standard
//! library's: INTERVAL (`Interval`), FLOAT16 (`half::f16`), DECIMAL (`rust_decimal::Decimal`,
//! `bigdecimal::BigDecimal`), dates and times of the `time` crate and of `jiff`, JSON (any
//! serde type through `parquet_serde::json`) and BSON (`#[parquet(bson)]`).
//!
//! Each writes rows, checks the column's physical and logical type, reads the rows back equal,
//! and where a value does not fit, checks the error names the field.

use parquet_serde::core::file::FileReader;
use parquet_serde::core::schema::{ConvertedType, LogicalType, PhysicalType as Type};
use parquet_serde::core::schema::{NodeKind, SchemaNode};
use parquet_serde::{Interval, ParquetSchema, Value};
use serde::{Deserialize, Serialize};

/// The top-level field `name` of `bytes`' schema.
fn field(bytes: &[u8], name: &str) -> SchemaNode {
    let reader = FileReader::new(bytes.to_vec()).expect("open");
    reader
        .schema()
        .fields()
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no field {name}"))
        .clone()
}

/// Physical type, type length, precision and scale of a leaf.
fn physical(node: &SchemaNode) -> (Type, i32, i32, i32) {
    match node.kind {
        NodeKind::Primitive {
            physical_type,
            type_length,
            precision,
            scale,
        } => (physical_type, type_length, precision, scale),
        NodeKind::Group { .. } => panic!("{} is a group", node.name),
    }
}

fn round_trip<T>(rows: &[T]) -> Vec<u8>
where
    T: Serialize + for<'de> Deserialize<'de> + ParquetSchema + PartialEq + std::fmt::Debug,
{
    let bytes = parquet_serde::to_vec(rows).expect("write");
    let back: Vec<T> = parquet_serde::from_slice(&bytes).expect("read");
    assert_eq!(back, rows);
    bytes
}

// ---------------------------------------------------------------------------------------------
// INTERVAL

#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
struct Intervals {
    iv: Interval,
    maybe: Option<Interval>,
    many: Vec<Interval>,
}

#[test]
fn interval_round_trips() {
    let rows = vec![
        Intervals {
            iv: Interval::new(1, 2, 3),
            maybe: None,
            many: vec![],
        },
        Intervals {
            iv: Interval::new(u32::MAX, 0, 86_400_000),
            maybe: Some(Interval::new(0, 31, 0)),
            many: vec![Interval::default(), Interval::new(12, 0, 1)],
        },
    ];
    let bytes = round_trip(&rows);
    let iv = field(&bytes, "iv");
    assert_eq!(physical(&iv), (Type::FixedLenByteArray, 12, 0, 0));
    assert_eq!(iv.converted_type, Some(ConvertedType::Interval));
    // `Value` reads the 12 bytes, little-endian words.
    let values: Vec<Value> = parquet_serde::from_slice(&bytes).unwrap();
    assert_eq!(
        values[1].get("iv"),
        Some(&Value::Bytes(
            Interval::new(u32::MAX, 0, 86_400_000)
                .to_le_bytes()
                .to_vec()
        ))
    );
}

// ---------------------------------------------------------------------------------------------
// FLOAT16

#[cfg(feature = "half")]
mod float16 {
    use super::*;
    use half::f16;

    #[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
    struct Halves {
        h: f16,
        maybe: Option<f16>,
        many: Vec<f16>,
    }

    #[test]
    fn f16_round_trips_bit_for_bit() {
        let specials = [
            f16::from_f32(1.5),
            f16::from_f32(-2.0),
            f16::MAX,
            f16::MIN,
            f16::MIN_POSITIVE_SUBNORMAL,
            f16::NEG_INFINITY,
            f16::from_bits(0x8000), // -0
            f16::from_f32(65504.0),
        ];
        let rows: Vec<Halves> = specials
            .iter()
            .enumerate()
            .map(|(i, &h)| Halves {
                h,
                maybe: (i % 2 == 0).then_some(h),
                many: specials[..i].to_vec(),
            })
            .collect();
        let bytes = round_trip(&rows);
        let h = field(&bytes, "h");
        assert_eq!(physical(&h), (Type::FixedLenByteArray, 2, 0, 0));
        assert_eq!(h.logical_type, Some(LogicalType::Float16));
        // Bit for bit, -0 included.
        let back: Vec<Halves> = parquet_serde::from_slice(&bytes).unwrap();
        let bits: Vec<u16> = back.iter().map(|r| r.h.to_bits()).collect();
        let want: Vec<u16> = specials.iter().map(|h| h.to_bits()).collect();
        assert_eq!(bits, want);
        // NaN survives as a NaN.
        let nan = vec![Halves {
            h: f16::NAN,
            maybe: None,
            many: vec![],
        }];
        let bytes = parquet_serde::to_vec(&nan).unwrap();
        let back: Vec<Halves> = parquet_serde::from_slice(&bytes).unwrap();
        assert!(back[0].h.is_nan());
        // Value reads the number.
        let values: Vec<Value> = parquet_serde::from_slice(&round_trip(&rows)).unwrap();
        assert_eq!(values[0].get("h"), Some(&Value::Float16(1.5)));
    }

    #[test]
    fn f16_statistics_order_by_value() {
        #[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
        struct H {
            h: f16,
        }
        // By bits, -2.0 (0xc000) is the largest and 0.5 (0x3800) the smallest.
        let rows: Vec<H> = [0.5f32, -2.0, 3.0, -0.25]
            .into_iter()
            .map(|x| H {
                h: f16::from_f32(x),
            })
            .collect();
        let bytes = round_trip(&rows);
        let reader = FileReader::new(bytes).unwrap();
        let md = reader.metadata();
        let s = md
            .row_group(0)
            .and_then(|rg| rg.column(0))
            .and_then(|c| c.raw_statistics())
            .expect("statistics");
        let min = f16::from_f32(-2.0).to_le_bytes().to_vec();
        let max = f16::from_f32(3.0).to_le_bytes().to_vec();
        assert_eq!(s.min_value(), Some(&min[..]));
        assert_eq!(s.max_value(), Some(&max[..]));
    }

    #[test]
    fn f16_column_takes_exact_floats_only() {
        #[derive(Serialize, ParquetSchema)]
        struct F {
            #[parquet(as_type = "half::f16")]
            h: f32,
        }
        assert!(parquet_serde::to_vec(&[F { h: 0.5 }]).is_ok());
        let e = parquet_serde::to_vec(&[F { h: 0.1 }]).unwrap_err();
        assert!(e.to_string().contains("not exactly a half float"), "{e}");
        assert_eq!(e.location().column.as_deref(), Some("h"));
    }
}

// ---------------------------------------------------------------------------------------------
// DECIMAL

#[cfg(feature = "rust_decimal")]
mod rust_decimals {
    use super::*;
    use rust_decimal::Decimal;
    use std::str::FromStr;

    #[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
    struct Money {
        default: Decimal,
        #[parquet(decimal(precision = 9, scale = 2))]
        small: Decimal,
        #[parquet(decimal(precision = 18, scale = 4))]
        medium: Option<Decimal>,
        #[parquet(decimal(precision = 28, scale = 10))]
        large: Vec<Decimal>,
    }

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn rust_decimal_round_trips_in_each_storage() {
        let rows = vec![
            Money {
                default: d("12345678901234567890.123456789012345678"),
                small: d("-9999999.99"),
                medium: Some(d("99999999999999.9999")),
                large: vec![d("999999999999999999.9999999999"), d("-0.0000000001")],
            },
            Money {
                default: d("0"),
                small: d("0.5"),
                medium: None,
                large: vec![],
            },
        ];
        let bytes = round_trip(&rows);
        assert_eq!(
            physical(&field(&bytes, "default")),
            (Type::FixedLenByteArray, 16, 38, 18)
        );
        assert_eq!(physical(&field(&bytes, "small")), (Type::Int32, 0, 9, 2));
        assert_eq!(physical(&field(&bytes, "medium")), (Type::Int64, 0, 18, 4));
        let large = field(&bytes, "large");
        let NodeKind::Group { fields } = &large.kind else {
            panic!("a list")
        };
        let element = &fields[0].fields()[0];
        assert_eq!(physical(element), (Type::FixedLenByteArray, 12, 28, 10));
        assert_eq!(
            element.logical_type,
            Some(LogicalType::Decimal {
                scale: 10,
                precision: 28
            })
        );
        // The scale of what is read is the column's.
        let back: Vec<Money> = parquet_serde::from_slice(&bytes).unwrap();
        assert_eq!(back[1].small.scale(), 2);
        assert_eq!(back[1].small.to_string(), "0.50");
    }

    #[test]
    fn rust_decimal_overflow_names_the_field() {
        #[derive(Serialize, ParquetSchema)]
        struct P {
            #[parquet(decimal(precision = 5, scale = 2))]
            price: Decimal,
        }
        let e = parquet_serde::to_vec(&[P { price: d("1234.5") }]).unwrap_err();
        assert_eq!(e.location().column.as_deref(), Some("price"), "{e}");
        assert!(
            e.to_string().contains("more than the column's precision 5"),
            "{e}"
        );
        let e = parquet_serde::to_vec(&[P { price: d("1.234") }]).unwrap_err();
        assert_eq!(e.location().column.as_deref(), Some("price"), "{e}");
        assert!(e.to_string().contains("beyond the column's scale 2"), "{e}");
        // Trailing zeros beyond the scale lose nothing.
        assert!(parquet_serde::to_vec(&[P { price: d("1.2300") }]).is_ok());
    }

    #[test]
    fn wider_columns_read_where_the_value_fits() {
        #[derive(Serialize, ParquetSchema)]
        struct Wide {
            #[parquet(decimal(precision = 38, scale = 0))]
            v: i128,
        }
        #[derive(Deserialize, Debug)]
        struct Narrow {
            v: Decimal,
        }
        let ok = parquet_serde::to_vec(&[Wide { v: 10i128.pow(27) }]).unwrap();
        let back: Vec<Narrow> = parquet_serde::from_slice(&ok).unwrap();
        assert_eq!(back[0].v, Decimal::from_i128_with_scale(10i128.pow(27), 0));
        let too_wide = parquet_serde::to_vec(&[Wide { v: 10i128.pow(30) }]).unwrap();
        let e = parquet_serde::from_slice::<Narrow>(&too_wide).unwrap_err();
        assert_eq!(e.location().column.as_deref(), Some("v"), "{e}");
    }
}

#[cfg(feature = "bigdecimal")]
mod big_decimals {
    use super::*;
    use bigdecimal::BigDecimal;
    use std::str::FromStr;

    #[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
    struct Big {
        default: BigDecimal,
        #[parquet(decimal(precision = 4, scale = 4))]
        tiny: BigDecimal,
        #[parquet(decimal(precision = 38, scale = 0))]
        widest_fixed: BigDecimal,
        #[parquet(decimal(precision = 76, scale = 20))]
        huge: Option<BigDecimal>,
    }

    fn b(s: &str) -> BigDecimal {
        BigDecimal::from_str(s).unwrap()
    }

    #[test]
    fn big_decimal_round_trips_beyond_38_digits() {
        let nines = |n: usize| "9".repeat(n);
        let rows = vec![
            Big {
                default: b("-1.5E+10"),
                tiny: b("0.0001"),
                widest_fixed: b(&nines(38)),
                huge: Some(b(&format!("-{}.{}", nines(56), nines(20)))),
            },
            Big {
                default: b("1E-18"),
                tiny: b("-0.9999"),
                widest_fixed: b(&format!("-{}", nines(38))),
                huge: None,
            },
            Big {
                default: b("0"),
                tiny: b("0"),
                widest_fixed: b("1E+37"),
                huge: Some(b("1E+55")),
            },
        ];
        let bytes = round_trip(&rows);
        assert_eq!(
            physical(&field(&bytes, "widest_fixed")),
            (Type::FixedLenByteArray, 16, 38, 0)
        );
        assert_eq!(
            physical(&field(&bytes, "huge")),
            (Type::ByteArray, 0, 76, 20)
        );
        assert_eq!(physical(&field(&bytes, "tiny")), (Type::Int32, 0, 4, 4));
    }

    #[test]
    fn big_decimal_overflow_names_the_field() {
        #[derive(Serialize, ParquetSchema)]
        struct P {
            #[parquet(decimal(precision = 40, scale = 2))]
            total: BigDecimal,
        }
        let e = parquet_serde::to_vec(&[P { total: b("1E+38") }]).unwrap_err();
        assert_eq!(e.location().column.as_deref(), Some("total"), "{e}");
        assert!(
            e.to_string()
                .contains("more than the column's precision 40"),
            "{e}"
        );
        let e = parquet_serde::to_vec(&[P { total: b("1E-3") }]).unwrap_err();
        assert!(e.to_string().contains("beyond the column's scale 2"), "{e}");
    }
}

// ---------------------------------------------------------------------------------------------
// Dates and times

#[cfg(feature = "time")]
mod time_crate {
    use super::*;
    use time::macros::{date, datetime, time};
    use time::{Date, OffsetDateTime, PrimitiveDateTime, Time};

    #[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
    struct Row {
        d: Date,
        t: Time,
        #[parquet(time = "millis")]
        t_ms: Time,
        local: PrimitiveDateTime,
        #[parquet(timestamp = "nanos")]
        instant: OffsetDateTime,
        maybe: Option<Date>,
        days: Vec<Date>,
    }

    #[test]
    fn time_types_round_trip() {
        let rows = vec![
            Row {
                d: date!(2024 - 02 - 29),
                t: time!(23:59:59.123456),
                t_ms: time!(00:00:01.5),
                local: datetime!(1969-12-31 23:59:59.999999),
                instant: datetime!(2024-06-01 12:00:00.123456789 +02:30),
                maybe: None,
                days: vec![date!(-0044 - 03 - 15), date!(9999 - 12 - 31)],
            },
            Row {
                d: date!(1970 - 01 - 01),
                t: Time::MIDNIGHT,
                t_ms: Time::MIDNIGHT,
                local: datetime!(2000-01-01 0:00),
                instant: OffsetDateTime::UNIX_EPOCH,
                maybe: Some(date!(2000 - 12 - 31)),
                days: vec![],
            },
        ];
        let bytes = round_trip(&rows);
        assert_eq!(field(&bytes, "d").logical_type, Some(LogicalType::Date));
        assert_eq!(physical(&field(&bytes, "t_ms")).0, Type::Int32);
        // The offset is not kept: the instant comes back in UTC.
        let back: Vec<Row> = parquet_serde::from_slice(&bytes).unwrap();
        assert_eq!(back[0].instant.offset(), time::UtcOffset::UTC);
        // Other readers see the same instant.
        let values: Vec<Value> = parquet_serde::from_slice(&bytes).unwrap();
        assert_eq!(
            values[0].get("instant"),
            Some(&Value::Timestamp {
                value: rows[0].instant.unix_timestamp_nanos() as i64,
                unit: parquet_serde::core::schema::TimeUnit::Nanos,
                utc: true
            })
        );
    }

    #[test]
    fn time_types_keep_the_columns_unit() {
        #[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
        struct Ms {
            #[parquet(timestamp = "millis")]
            at: PrimitiveDateTime,
        }
        let rows = [Ms {
            at: datetime!(2024-01-01 10:00:00.123999),
        }];
        let bytes = parquet_serde::to_vec(&rows).unwrap();
        let back: Vec<Ms> = parquet_serde::from_slice(&bytes).unwrap();
        assert_eq!(back[0].at, datetime!(2024-01-01 10:00:00.123));
    }
}

#[cfg(feature = "jiff")]
mod jiff_crate {
    use super::*;
    use jiff::civil::{date, time, Date, DateTime, Time};
    use jiff::{Timestamp, Zoned};

    #[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
    struct Row {
        d: Date,
        t: Time,
        local: DateTime,
        #[parquet(timestamp = "nanos")]
        at: Timestamp,
        maybe: Option<Timestamp>,
        times: Vec<Time>,
    }

    #[test]
    fn jiff_types_round_trip() {
        let rows = vec![
            Row {
                d: date(2024, 2, 29),
                t: time(23, 59, 59, 123_456_000),
                local: date(1969, 12, 31).at(23, 59, 59, 999_999_000),
                at: Timestamp::new(1_700_000_000, 123_456_789).unwrap(),
                maybe: None,
                times: vec![time(0, 0, 0, 0), time(12, 30, 0, 1_000)],
            },
            Row {
                d: date(44, 3, 15),
                t: Time::midnight(),
                local: date(2000, 1, 1).at(0, 0, 0, 0),
                at: Timestamp::UNIX_EPOCH,
                maybe: Some(Timestamp::new(-1, 0).unwrap()),
                times: vec![],
            },
        ];
        let bytes = round_trip(&rows);
        assert_eq!(
            field(&bytes, "local").logical_type,
            Some(LogicalType::Timestamp {
                is_adjusted_to_utc: false,
                unit: parquet_serde::core::schema::TimeUnit::Micros
            })
        );
    }

    #[test]
    fn zoned_is_written_as_its_instant() {
        #[derive(Serialize, ParquetSchema)]
        struct W {
            at: Zoned,
        }
        #[derive(Deserialize, Debug)]
        struct R {
            at: Timestamp,
        }
        let zoned = Timestamp::new(1_700_000_000, 0)
            .unwrap()
            .to_zoned(jiff::tz::TimeZone::fixed(jiff::tz::offset(-5)));
        let bytes = parquet_serde::to_vec(&[W { at: zoned.clone() }]).unwrap();
        let back: Vec<R> = parquet_serde::from_slice(&bytes).unwrap();
        assert_eq!(back[0].at, zoned.timestamp());
    }

    #[test]
    fn zoned_reads_back_in_utc_through_zoned_utc() {
        #[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
        struct Z {
            #[serde(with = "parquet_serde::zoned_utc")]
            #[parquet(timestamp = "nanos")]
            at: Zoned,
            #[serde(with = "parquet_serde::zoned_utc")]
            until: Option<Zoned>,
        }
        let zone = jiff::tz::TimeZone::fixed(jiff::tz::offset(9));
        let rows: Vec<Z> = (0..3)
            .map(|i| Z {
                at: Timestamp::new(1_700_000_000 + i, 123_456_789)
                    .unwrap()
                    .to_zoned(zone.clone()),
                until: (i != 1).then(|| Timestamp::new(i, 0).unwrap().to_zoned(zone.clone())),
            })
            .collect();
        let bytes = parquet_serde::to_vec(&rows).unwrap();
        let schema = schema_text(&bytes);
        assert!(
            schema.contains("required int64 at (TIMESTAMP(NANOS,true))"),
            "{schema}"
        );
        assert!(
            schema.contains("optional int64 until (TIMESTAMP(MICROS,true))"),
            "{schema}"
        );
        let back: Vec<Z> = parquet_serde::from_slice(&bytes).unwrap();
        for (b, r) in back.iter().zip(&rows) {
            assert_eq!(b.at.time_zone(), &jiff::tz::TimeZone::UTC);
            assert_eq!(b.at.timestamp(), r.at.timestamp(), "nanoseconds kept");
            assert_eq!(
                b.until.as_ref().map(Zoned::timestamp),
                r.until.as_ref().map(Zoned::timestamp)
            );
        }
    }
}

#[cfg(feature = "bson")]
mod bson_crate {
    use super::*;

    #[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
    struct Meta {
        source: String,
        attempts: i32,
    }

    #[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
    struct Row {
        #[serde(with = "parquet_serde::bson")]
        doc: bson::Document,
        #[serde(with = "parquet_serde::bson")]
        meta: Meta,
        #[serde(with = "parquet_serde::bson")]
        extra: Option<bson::Document>,
        /// The second spelling of the same functions.
        #[serde(with = "parquet_serde::bson::option")]
        older: Option<Meta>,
    }

    #[test]
    fn documents_round_trip_as_bson_columns() {
        let rows: Vec<Row> = (0..4)
            .map(|i| Row {
                doc: bson::doc! { "i": i, "nested": { "list": [1.5, "two", null] } },
                meta: Meta {
                    source: format!("s{i}"),
                    attempts: i,
                },
                extra: (i % 2 == 0).then(|| bson::doc! { "k": i64::MAX }),
                older: (i % 3 == 0).then(|| Meta {
                    source: "o".into(),
                    attempts: -i,
                }),
            })
            .collect();
        let bytes = parquet_serde::to_vec(&rows).unwrap();
        let schema = schema_text(&bytes);
        assert!(schema.contains("required binary doc (BSON);"), "{schema}");
        assert!(schema.contains("required binary meta (BSON);"), "{schema}");
        assert!(schema.contains("optional binary extra (BSON);"), "{schema}");
        assert!(schema.contains("optional binary older (BSON);"), "{schema}");
        let back: Vec<Row> = parquet_serde::from_slice(&bytes).unwrap();
        assert_eq!(back, rows);
        // The nulls are nulls in the file, the documents their bytes.
        let raw: Vec<parquet_serde::Value> = parquet_serde::from_slice(&bytes).unwrap();
        assert_eq!(raw[1].get("extra"), Some(&parquet_serde::Value::Null));
        let doc = bson::serialize_to_vec(&bson::doc! { "k": i64::MAX }).unwrap();
        assert_eq!(raw[0].get("extra"), Some(&parquet_serde::Value::Bytes(doc)));
        // A null read into a field that is not an Option is an error naming the column.
        #[derive(Deserialize, Debug)]
        struct Required {
            #[serde(with = "parquet_serde::bson")]
            #[allow(dead_code)]
            extra: bson::Document,
        }
        let err = parquet_serde::from_slice::<Required>(&bytes).unwrap_err();
        assert!(err.to_string().contains("extra"), "{err}");
    }

    #[test]
    fn what_is_not_a_document_is_an_error_naming_the_field() {
        #[derive(Serialize, Deserialize, ParquetSchema, Debug)]
        struct NotDoc {
            #[serde(with = "parquet_serde::bson")]
            n: Vec<i32>,
        }
        let err = parquet_serde::to_vec(&[NotDoc { n: vec![1] }]).unwrap_err();
        assert!(err.to_string().contains("not a BSON document"), "{err}");
        assert_eq!(err.location().column.as_deref(), Some("n"), "{err}");

        // Bytes that are not a document: refused on write to a BSON column; read from a
        // file written by others (here a plain binary column) with an error naming it.
        #[derive(Serialize, ParquetSchema)]
        struct Annotated {
            #[parquet(bson)]
            #[serde(with = "serde_bytes")]
            doc: Vec<u8>,
        }
        let err = parquet_serde::to_vec(&[Annotated {
            doc: vec![9, 0, 0, 0, 0x10],
        }])
        .unwrap_err();
        assert!(err.to_string().contains("not a BSON document"), "{err}");
        assert_eq!(err.location().column.as_deref(), Some("doc"), "{err}");
        #[derive(Serialize, ParquetSchema)]
        struct Raw {
            #[serde(with = "serde_bytes")]
            doc: Vec<u8>,
        }
        #[derive(Deserialize, Debug)]
        struct Read {
            #[serde(with = "parquet_serde::bson")]
            #[allow(dead_code)]
            doc: bson::Document,
        }
        let bytes = parquet_serde::to_vec(&[Raw {
            doc: vec![9, 0, 0, 0, 0x10],
        }])
        .unwrap();
        let err = parquet_serde::from_slice::<Read>(&bytes).unwrap_err();
        assert!(err.to_string().contains("invalid BSON document"), "{err}");
        assert!(err.to_string().contains("doc"), "{err}");
    }
}

/// The message-type text of the schema of the file `bytes`.
#[allow(dead_code)]
fn schema_text(bytes: &[u8]) -> String {
    parquet_serde::core::file::FileReader::new(bytes)
        .unwrap()
        .schema()
        .to_string()
}

// ---------------------------------------------------------------------------------------------
// JSON and BSON

#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
struct Payload {
    kind: String,
    tags: Vec<u32>,
}

#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
struct Docs {
    #[serde(with = "parquet_serde::json")]
    any: serde_json::Value,
    #[serde(with = "parquet_serde::json")]
    typed: Payload,
    #[serde(with = "parquet_serde::json")]
    maybe: Option<Payload>,
    #[parquet(json)]
    text: String,
    #[parquet(bson)]
    #[serde(with = "serde_bytes")]
    bson: Vec<u8>,
    #[parquet(bson)]
    bson_seq: Option<Vec<u8>>,
}

#[test]
fn json_and_bson_round_trip() {
    use serde_json::json;
    let values = [
        json!({"a": [1, 2.5, null, true], "b": {"c": "d"}}),
        // A bare string and a string of digits stay what they are.
        json!("123"),
        json!(123),
        json!(null),
        json!([]),
    ];
    let rows: Vec<Docs> = values
        .iter()
        .enumerate()
        .map(|(i, v)| Docs {
            any: v.clone(),
            typed: Payload {
                kind: format!("k{i}"),
                tags: (0..i as u32).collect(),
            },
            maybe: (i % 2 == 1).then(|| Payload {
                kind: "x".into(),
                tags: vec![],
            }),
            text: format!("{{\"i\":{i}}}"),
            // A BSON document {"i": i} (int32).
            bson: vec![12, 0, 0, 0, 0x10, b'i', 0, i as u8, 0, 0, 0, 0],
            bson_seq: (i % 2 == 0).then(|| vec![5, 0, 0, 0, 0]),
        })
        .collect();
    let bytes = round_trip(&rows);
    for name in ["any", "typed", "maybe", "text"] {
        let f = field(&bytes, name);
        assert_eq!(f.logical_type, Some(LogicalType::Json), "{name}");
        assert_eq!(f.converted_type, Some(ConvertedType::Json), "{name}");
    }
    for name in ["bson", "bson_seq"] {
        let f = field(&bytes, name);
        assert_eq!(f.logical_type, Some(LogicalType::Bson), "{name}");
        assert_eq!(physical(&f).0, Type::ByteArray);
    }
    // The columns hold JSON text.
    let dynamic: Vec<Value> = parquet_serde::from_slice(&bytes).unwrap();
    assert_eq!(
        dynamic[1].get("any"),
        Some(&Value::String("\"123\"".into()))
    );
    assert_eq!(
        dynamic[0].get("typed"),
        Some(&Value::String(r#"{"kind":"k0","tags":[]}"#.into()))
    );
    assert_eq!(dynamic[0].get("maybe"), Some(&Value::String("null".into())));
}

#[test]
fn invalid_json_text_names_the_field() {
    #[derive(Serialize, ParquetSchema)]
    struct W {
        #[parquet(json)]
        doc: String,
    }
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct R {
        #[serde(with = "parquet_serde::json")]
        doc: Payload,
    }
    // Refused on write to a JSON column; read from a file written by others (here a STRING
    // column) with an error naming the column.
    let e = parquet_serde::to_vec(&[W {
        doc: "{not json".into(),
    }])
    .unwrap_err();
    assert_eq!(e.location().column.as_deref(), Some("doc"), "{e}");
    assert!(e.to_string().contains("not valid JSON"), "{e}");
    #[derive(Serialize, ParquetSchema)]
    struct Plain {
        doc: String,
    }
    let bytes = parquet_serde::to_vec(&[Plain {
        doc: "{not json".into(),
    }])
    .unwrap();
    let e = parquet_serde::from_slice::<R>(&bytes).unwrap_err();
    assert_eq!(e.location().column.as_deref(), Some("doc"), "{e}");
    assert!(e.to_string().contains("invalid JSON"), "{e}");
}
