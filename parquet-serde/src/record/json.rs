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

use crate::format::TimeUnit;
use crate::values::Int96;

use super::Value;

/// Appends the JSON form of `value` to `out`.
///
/// ```
/// use parquet_serde::record::{write_json, Value};
/// use parquet_serde::format::TimeUnit;
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
        Value::Date(d) => {
            out.push('"');
            civil_date(*d as i64, out);
            out.push('"');
        }
        Value::Time { value, unit } => {
            out.push('"');
            let (per, digits) = unit_scale(*unit);
            let secs = value.div_euclid(per);
            let _ = write!(
                out,
                "{:02}:{:02}:{:02}",
                secs / 3600,
                secs / 60 % 60,
                secs % 60
            );
            fraction(value.rem_euclid(per), digits, out);
            out.push('"');
        }
        Value::Timestamp { value, unit, utc } => {
            out.push('"');
            let (per, digits) = unit_scale(*unit);
            datetime(
                value.div_euclid(per) as i128,
                value.rem_euclid(per),
                digits,
                *utc,
                out,
            );
            out.push('"');
        }
        Value::Int96(v) => {
            out.push('"');
            int96(*v, out);
            out.push('"');
        }
        Value::Decimal { unscaled, scale } => {
            out.push('"');
            decimal(unscaled, *scale, out);
            out.push('"');
        }
        Value::Uuid(u) => {
            out.push('"');
            for (i, b) in u.iter().enumerate() {
                if matches!(i, 4 | 6 | 8 | 10) {
                    out.push('-');
                }
                let _ = write!(out, "{b:02x}");
            }
            out.push('"');
        }
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

fn unit_scale(unit: TimeUnit) -> (i64, usize) {
    match unit {
        TimeUnit::Millis => (1_000, 3),
        TimeUnit::Nanos => (1_000_000_000, 9),
        TimeUnit::Micros | TimeUnit::Unknown(_) => (1_000_000, 6),
    }
}

fn fraction(value: i64, digits: usize, out: &mut String) {
    let _ = write!(out, ".{value:0digits$}");
}

/// Proleptic Gregorian civil date of a day count since 1970-01-01 (any year).
fn civil_date(days: i64, out: &mut String) {
    let z = days as i128 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i128;
    if (0..=9999).contains(&y) {
        let _ = write!(out, "{y:04}-{m:02}-{d:02}");
    } else if y > 0 {
        let _ = write!(out, "+{y:04}-{m:02}-{d:02}");
    } else {
        let _ = write!(out, "-{:04}-{m:02}-{d:02}", -y);
    }
}

fn datetime(secs: i128, frac: i64, digits: usize, utc: bool, out: &mut String) {
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400);
    civil_date(days as i64, out);
    let _ = write!(
        out,
        "T{:02}:{:02}:{:02}",
        sod / 3600,
        sod / 60 % 60,
        sod % 60
    );
    fraction(frac, digits, out);
    if utc {
        out.push('Z');
    }
}

fn int96(v: Int96, out: &mut String) {
    let nanos_of_day = (v.0[0] as u64 | (v.0[1] as u64) << 32) as i128;
    // Unsigned Julian day, as Arrow C++ and arrow-rs read it.
    let day = v.0[2] as i128 - Int96::JULIAN_DAY_OF_EPOCH as i128;
    let total = day * 86_400_000_000_000 + nanos_of_day;
    datetime(
        total.div_euclid(1_000_000_000),
        total.rem_euclid(1_000_000_000) as i64,
        9,
        true,
        out,
    );
}

/// Decimal string of a big-endian two's complement integer scaled by 10^-scale.
fn decimal(unscaled: &[u8], scale: i32, out: &mut String) {
    out.push_str(&crate::de::text::decimal_long(unscaled, scale));
}

#[cfg(test)]
mod tests {
    use super::*;

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
