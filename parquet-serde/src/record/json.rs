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
//!
//! Years outside 0000..=9999 are written with a sign and at least four digits (ISO 8601
//! expanded years), so every stored value prints.

use std::fmt::Write as _;

use crate::de::text;

use super::Value;

/// Appends the JSON form of `value` to `out`.
///
/// ```
/// use parquet_serde::record::{write_json, Value};
/// use parquet_serde::core::format::TimeUnit;
/// let row = Value::Group(vec![
///     ("ts".into(), Value::Timestamp { value: 1_500, unit: TimeUnit::Millis, utc: true }),
///     ("x".into(), Value::Double(f64::NAN)),
///     ("tags".into(), Value::List(vec![Value::String("a\"b".into())])),
/// ]);
/// let mut s = String::new();
/// write_json(&row, &mut s);
/// assert_eq!(s, r#"{"ts":"1970-01-01T00:00:01.500Z","x":"NaN","tags":["a\"b"]}"#);
/// ```
pub fn write_json(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::UInt(u) => {
            let _ = write!(out, "{u}");
        }
        Value::Float(f) | Value::Float16(f) => write_float(*f as f64, &f.to_string(), out),
        Value::Double(f) => write_float(*f, &f.to_string(), out),
        Value::String(s) => write_string(s, out),
        Value::Bytes(b) => {
            out.push('"');
            base64(b, out);
            out.push('"');
        }
        // Writing to a String cannot fail; the text forms are shared with the deserializer.
        Value::Date(d) => quoted(out, |o| text::date(*d as i64, o)),
        Value::Time { value, unit } => quoted(out, |o| text::time(*value, *unit, o)),
        Value::Timestamp { value, unit, utc } => {
            quoted(out, |o| text::timestamp(*value, *unit, *utc, o))
        }
        Value::Int96(v) => quoted(out, |o| text::int96(*v, o)),
        Value::Decimal { unscaled, scale } => {
            quoted(out, |o| o.write_str(&text::decimal_long(unscaled, *scale)))
        }
        Value::Uuid(u) => quoted(out, |o| text::uuid(u, o)),
        Value::List(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(v, out);
            }
            out.push(']');
        }
        Value::Map(pairs) => {
            out.push('[');
            for (i, (k, v)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str("{\"key\":");
                write_json(k, out);
                out.push_str(",\"value\":");
                write_json(v, out);
                out.push('}');
            }
            out.push(']');
        }
        Value::Group(fields) => {
            out.push('{');
            for (i, (name, v)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(name, out);
                out.push(':');
                write_json(v, out);
            }
            out.push('}');
        }
    }
}

/// Writes the text of `f` between double quotes.
fn quoted(out: &mut String, f: impl FnOnce(&mut String) -> std::fmt::Result) {
    out.push('"');
    let _ = f(out);
    out.push('"');
}

fn write_float(f: f64, shortest: &str, out: &mut String) {
    if f.is_nan() {
        out.push_str("\"NaN\"");
    } else if f.is_infinite() {
        out.push_str(if f > 0.0 {
            "\"Infinity\""
        } else {
            "\"-Infinity\""
        });
    } else {
        out.push_str(shortest);
        if !shortest.contains(['.', 'e', 'E']) {
            out.push_str(".0");
        }
    }
}

fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn base64(bytes: &[u8], out: &mut String) {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::TimeUnit;
    use crate::values::Int96;

    fn json(v: Value) -> String {
        let mut s = String::new();
        write_json(&v, &mut s);
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
}
