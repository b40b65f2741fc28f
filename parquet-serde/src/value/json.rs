//! The JSON form of rows (the mapping `parquet-serde cat` prints).
//!
//! | Parquet | JSON |
//! |---|---|
//! | integers, FLOAT, DOUBLE, FLOAT16 | numbers; NaN and infinities as `"NaN"`, `"Infinity"`, `"-Infinity"` |
//! | STRING, ENUM, JSON | strings |
//! | other BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY | base64 strings |
//! | DATE | `"YYYY-MM-DD"` |
//! | TIMESTAMP | RFC 3339 with the unit's digits, `Z` when adjusted to UTC |
//! | TIME | `"HH:MM:SS"` with the unit's digits |
//! | DECIMAL | decimal string |
//! | UUID | hyphenated string |
//! | INT96 | RFC 3339 with nanoseconds and `Z` |
//! | groups / LIST / MAP | objects / arrays / arrays of `{"key": .., "value": ..}` |
//! | VARIANT | its JSON ([`Variant::to_json`](crate::variant::Variant::to_json)): objects, arrays, numbers, strings; decimals with every digit, as strings unless whole and of scale 0 |
//!
//! Years outside 0000..=9999 are written with a sign and at least four digits (ISO 8601
//! expanded years), so every stored value prints.

use std::io;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};

use crate::core::values::text::{self, Formatted};
use crate::error::Result;

use super::Value;

impl Value {
    /// Appends the JSON form of the value to `out` (the mapping of `parquet-serde cat`).
    ///
    /// ```
    /// use parquet_serde::record::Value;
    /// use parquet_serde::core::schema::TimeUnit;
    /// let row = Value::Group(vec![
    ///     ("ts".into(), Value::Timestamp { value: 1_500, unit: TimeUnit::Millis, utc: true }),
    ///     ("x".into(), Value::Double(f64::NAN)),
    ///     ("tags".into(), Value::List(vec![Value::String("a\"b".into())])),
    /// ]);
    /// let mut s = String::new();
    /// row.write_json(&mut s);
    /// assert_eq!(s, r#"{"ts":"1970-01-01T00:00:01.500Z","x":"NaN","tags":["a\"b"]}"#);
    /// ```
    pub fn write_json(&self, out: &mut String) {
        let mut bytes = Vec::with_capacity(128);
        // Cannot fail: the sink is a `Vec`, every map key is a string and the formatter
        // writes only whole UTF-8 text.
        if self.write_json_to(&mut bytes).is_ok() {
            out.push_str(&String::from_utf8_lossy(&bytes));
        }
    }

    /// Writes the JSON form of the value (as [`write_json`](Self::write_json) makes it) to
    /// `writer`.
    ///
    /// ```
    /// use parquet_serde::record::Value;
    /// let mut out = Vec::new();
    /// Value::List(vec![Value::Float(0.5), Value::Double(2.0)]).write_json_to(&mut out)?;
    /// assert_eq!(out, b"[0.5,2.0]");
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    pub fn write_json_to(&self, writer: impl io::Write) -> Result<()> {
        let mut ser = serde_json::Serializer::with_formatter(writer, CatFormatter);
        Json(self).serialize(&mut ser).map_err(|e| {
            let e = io::Error::from(e);
            crate::Error::from(e).context("writing a row as JSON")
        })
    }
}

/// serde_json's compact output, with numbers and escapes as `cat` has always printed them:
/// floats in Rust's shortest round-trip form without exponent and with at least one
/// fractional digit (`1.0`, `1000000000000000000000.0`, `-0.0`; serde_json would print
/// `1e21`), and backspace and form feed as `\u0008` and `\u000c` (serde_json: `\b`, `\f`).
struct CatFormatter;

impl CatFormatter {
    fn write_float<W: ?Sized + io::Write>(writer: &mut W, shortest: String) -> io::Result<()> {
        writer.write_all(shortest.as_bytes())?;
        if !shortest.contains(['.', 'e', 'E']) {
            writer.write_all(b".0")?;
        }
        Ok(())
    }
}

impl Formatter for CatFormatter {
    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        Self::write_float(writer, value.to_string())
    }

    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        Self::write_float(writer, value.to_string())
    }

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        char_escape: CharEscape,
    ) -> io::Result<()> {
        match char_escape {
            CharEscape::Backspace => writer.write_all(b"\\u0008"),
            CharEscape::FormFeed => writer.write_all(b"\\u000c"),
            other => CompactFormatter.write_char_escape(writer, other),
        }
    }
}

/// A value in the JSON mapping of the module (what `cat` prints), for serde_json.
struct Json<'a>(&'a Value);

impl Serialize for Json<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self.0 {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Int(i) => s.serialize_i64(*i),
            Value::UInt(u) => s.serialize_u64(*u),
            Value::Float(f) | Value::Float16(f) => match non_finite(*f as f64) {
                Some(name) => s.serialize_str(name),
                None => s.serialize_f32(*f),
            },
            Value::Double(f) => match non_finite(*f) {
                Some(name) => s.serialize_str(name),
                None => s.serialize_f64(*f),
            },
            Value::String(v) => s.serialize_str(v),
            Value::Bytes(b) => s.serialize_str(&BASE64.encode(b)),
            Value::Date(d) => s.collect_str(&Formatted(|f| text::date(*d as i64, f))),
            Value::Time { value, unit } => {
                s.collect_str(&Formatted(|f| text::time(*value, *unit, f)))
            }
            Value::Timestamp { value, unit, utc } => {
                s.collect_str(&Formatted(|f| text::timestamp(*value, *unit, *utc, f)))
            }
            Value::Int96(v) => s.collect_str(&Formatted(|f| text::int96(*v, f))),
            Value::Decimal { unscaled, scale } => {
                s.serialize_str(&text::decimal_be(unscaled, *scale))
            }
            Value::Uuid(u) => s.collect_str(&Formatted(|f| text::uuid(u, f))),
            Value::List(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for v in items {
                    seq.serialize_element(&Json(v))?;
                }
                seq.end()
            }
            Value::Map(pairs) => {
                let mut seq = s.serialize_seq(Some(pairs.len()))?;
                for (k, v) in pairs {
                    seq.serialize_element(&Entry(k, v))?;
                }
                seq.end()
            }
            Value::Group(fields) => {
                let mut map = s.serialize_map(Some(fields.len()))?;
                for (name, v) in fields {
                    map.serialize_entry(name, &Json(v))?;
                }
                map.end()
            }
            Value::Variant(v) => serde_json::Value::from(v).serialize(s),
        }
    }
}

/// One entry of a MAP: `{"key": .., "value": ..}`.
struct Entry<'a>(&'a Value, &'a Value);

impl Serialize for Entry<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("key", &Json(self.0))?;
        map.serialize_entry("value", &Json(self.1))?;
        map.end()
    }
}

/// The string NaN and the infinities are written as.
fn non_finite(f: f64) -> Option<&'static str> {
    if f.is_nan() {
        Some("NaN")
    } else if f.is_infinite() {
        Some(if f > 0.0 { "Infinity" } else { "-Infinity" })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::format::TimeUnit;
    use crate::core::values::Int96;

    fn json(v: Value) -> String {
        let mut s = String::new();
        v.write_json(&mut s);
        s
    }

    #[test]
    fn decimals() {
        let d = |v: i64, scale| {
            json(Value::Decimal {
                unscaled: v.to_be_bytes().to_vec(),
                scale,
            })
        };
        assert_eq!(d(123, 2), "\"1.23\"");
        assert_eq!(d(-5, 2), "\"-0.05\"");
        assert_eq!(d(0, 2), "\"0.00\"");
        assert_eq!(d(7, 0), "\"7\"");
        assert_eq!(d(i64::MIN, 0), "\"-9223372036854775808\"");
        assert_eq!(d(12, -2), "\"1200\"");
        assert_eq!(
            json(Value::Decimal {
                unscaled: vec![],
                scale: 1
            }),
            "\"0.0\""
        );
    }

    #[test]
    fn dates_and_times() {
        assert_eq!(json(Value::Date(0)), "\"1970-01-01\"");
        assert_eq!(json(Value::Date(-1)), "\"1969-12-31\"");
        assert_eq!(json(Value::Date(2_932_896)), "\"9999-12-31\"");
        assert_eq!(json(Value::Date(2_932_897)), "\"+10000-01-01\"");
        assert_eq!(
            json(Value::Time {
                value: 3_723_004,
                unit: TimeUnit::Millis
            }),
            "\"01:02:03.004\""
        );
        assert_eq!(
            json(Value::Timestamp {
                value: -1,
                unit: TimeUnit::Micros,
                utc: false
            }),
            "\"1969-12-31T23:59:59.999999\""
        );
        assert_eq!(
            json(Value::Int96(Int96::from_nanos(1))),
            "\"1970-01-01T00:00:00.000000001Z\""
        );
    }

    #[test]
    fn numbers_strings_bytes() {
        assert_eq!(json(Value::Float(0.1)), "0.1");
        assert_eq!(json(Value::Double(1.0)), "1.0");
        assert_eq!(json(Value::Double(f64::NEG_INFINITY)), "\"-Infinity\"");
        assert_eq!(json(Value::Double(f64::INFINITY)), "\"Infinity\"");
        assert_eq!(json(Value::Float(f32::NAN)), "\"NaN\"");
        assert_eq!(json(Value::Float16(f32::NEG_INFINITY)), "\"-Infinity\"");
        assert_eq!(json(Value::String("a\u{1}\n".into())), "\"a\\u0001\\n\"");
        assert_eq!(json(Value::Bytes(b"hello".to_vec())), "\"aGVsbG8=\"");
        assert_eq!(json(Value::Bytes(vec![])), "\"\"");
        assert_eq!(
            json(Value::Uuid([0xab; 16])),
            "\"abababab-abab-abab-abab-abababababab\""
        );
        assert_eq!(
            json(Value::Map(vec![(Value::Int(1), Value::Null)])),
            "[{\"key\":1,\"value\":null}]"
        );
    }

    #[test]
    fn floats_keep_their_shortest_form_without_exponent() {
        assert_eq!(json(Value::Double(1e21)), "1000000000000000000000.0");
        assert_eq!(json(Value::Double(-0.0)), "-0.0");
        assert_eq!(json(Value::Double(0.0)), "0.0");
        assert_eq!(json(Value::Double(1e-7)), "0.0000001");
        assert_eq!(
            json(Value::Double(f64::MIN_POSITIVE)),
            format!("{}", f64::MIN_POSITIVE)
        );
        assert_eq!(json(Value::Double(123.456)), "123.456");
        assert_eq!(json(Value::Float(1e10)), "10000000000.0");
        assert_eq!(json(Value::Float(-0.0)), "-0.0");
        // The f32's own shortest form, not the f64 it widens to.
        assert_eq!(json(Value::Float(0.3)), "0.3");
        assert_eq!(json(Value::Float16(0.5)), "0.5");
        assert_eq!(json(Value::Int(i64::MIN)), "-9223372036854775808");
        assert_eq!(json(Value::UInt(u64::MAX)), "18446744073709551615");
        assert_eq!(json(Value::Bool(false)), "false");
    }

    #[test]
    fn strings_escape_as_before() {
        assert_eq!(
            json(Value::String("\"\\\u{8}\u{c}\r\t\u{1f}\u{7f}é/".into())),
            "\"\\\"\\\\\\u0008\\u000c\\r\\t\\u001f\u{7f}é/\""
        );
        assert_eq!(
            json(Value::Group(vec![("a\nb".into(), Value::Null)])),
            "{\"a\\nb\":null}"
        );
        assert_eq!(json(Value::Group(vec![])), "{}");
        assert_eq!(json(Value::List(vec![])), "[]");
        assert_eq!(json(Value::Map(vec![])), "[]");
    }

    #[test]
    fn bytes_are_padded_base64() {
        assert_eq!(json(Value::Bytes(vec![0xff])), "\"/w==\"");
        assert_eq!(json(Value::Bytes(vec![0xfb, 0xff])), "\"+/8=\"");
        assert_eq!(json(Value::Bytes(b"abc".to_vec())), "\"YWJj\"");
    }

    #[test]
    fn write_json_appends() {
        let mut s = String::from("x");
        Value::Int(1).write_json(&mut s);
        Value::List(vec![Value::Null, Value::Bool(true)]).write_json(&mut s);
        assert_eq!(s, "x1[null,true]");
    }
}
