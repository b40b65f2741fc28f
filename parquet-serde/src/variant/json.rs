//! Variants and `serde_json::Value`.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use serde_json::{Number, Value as Json};

use super::text;
use super::value::Variant;

impl From<&Json> for Variant {
    fn from(j: &Json) -> Variant {
        match j {
            Json::Null => Variant::Null,
            Json::Bool(b) => Variant::Bool(*b),
            Json::Number(n) => number(n),
            Json::String(s) => Variant::String(s.clone()),
            Json::Array(items) => Variant::Array(items.iter().map(Variant::from).collect()),
            Json::Object(fields) => Variant::Object(
                fields
                    .iter()
                    .map(|(k, v)| (k.clone(), Variant::from(v)))
                    .collect(),
            ),
        }
    }
}

impl From<Json> for Variant {
    fn from(j: Json) -> Variant {
        match j {
            Json::String(s) => Variant::String(s),
            Json::Array(items) => Variant::Array(items.into_iter().map(Variant::from).collect()),
            Json::Object(fields) => Variant::Object(
                fields
                    .into_iter()
                    .map(|(k, v)| (k, Variant::from(v)))
                    .collect(),
            ),
            other => Variant::from(&other),
        }
    }
}

fn number(n: &Number) -> Variant {
    if let Some(i) = n.as_i64() {
        Variant::int(i)
    } else if let Some(u) = n.as_u64() {
        Variant::decimal(u.into(), 0).unwrap_or(Variant::Double(u as f64))
    } else {
        Variant::Double(n.as_f64().unwrap_or(f64::NAN))
    }
}

/// A double's JSON: a number, or the strings `"NaN"`, `"Infinity"`, `"-Infinity"`.
pub(super) fn float(f: f64) -> Json {
    match Number::from_f64(f) {
        Some(n) => Json::Number(n),
        None if f.is_nan() => Json::String("NaN".into()),
        None if f > 0.0 => Json::String("Infinity".into()),
        None => Json::String("-Infinity".into()),
    }
}

/// A float's JSON: the number of the f32's own shortest text (`0.1`, not the
/// `0.10000000149011612` of the f64 it widens to), which reads back to the same f32, as
/// `cat` prints a FLOAT column; non-finite values as [`float`] writes them.
pub(super) fn float32(f: f32) -> Json {
    if !f.is_finite() {
        return float(f.into());
    }
    // Rust prints an f32 as the shortest decimal text that reads back to it; that text
    // always parses as an f64.
    float(f.to_string().parse().unwrap_or(f.into()))
}

/// A decimal's JSON, never through `f64`: a whole decimal of scale 0 that fits `i64` or
/// `u64` is an integer; every other decimal is its exact decimal text as a string, with
/// every digit of its scale (`"-123456789.987654321"`, `"1.50"`), as `cat` prints a DECIMAL
/// column.
pub(super) fn decimal(unscaled: i128, scale: u8) -> Json {
    if scale == 0 {
        if let Ok(i) = i64::try_from(unscaled) {
            return Json::Number(i.into());
        }
        if let Ok(u) = u64::try_from(unscaled) {
            return Json::Number(u.into());
        }
    }
    Json::String(text::decimal(unscaled, scale))
}

impl From<&Variant> for Json {
    fn from(v: &Variant) -> Json {
        match v {
            Variant::Null => Json::Null,
            Variant::Bool(b) => Json::Bool(*b),
            Variant::Int8(x) => Json::Number((*x).into()),
            Variant::Int16(x) => Json::Number((*x).into()),
            Variant::Int32(x) => Json::Number((*x).into()),
            Variant::Int64(x) => Json::Number((*x).into()),
            Variant::Float(x) => float32(*x),
            Variant::Double(x) => float(*x),
            Variant::Decimal4 { unscaled, scale } => decimal((*unscaled).into(), *scale),
            Variant::Decimal8 { unscaled, scale } => decimal((*unscaled).into(), *scale),
            Variant::Decimal16 { unscaled, scale } => decimal(*unscaled, *scale),
            Variant::Binary(b) => Json::String(BASE64.encode(b)),
            Variant::String(s) => Json::String(s.clone()),
            Variant::Array(items) => Json::Array(items.iter().map(Json::from).collect()),
            Variant::Object(fields) => Json::Object(
                fields
                    .iter()
                    .map(|(k, v)| (k.clone(), Json::from(v)))
                    .collect(),
            ),
            other => Json::String(text::temporal(other).unwrap_or_default()),
        }
    }
}

impl From<Variant> for Json {
    fn from(v: Variant) -> Json {
        Json::from(&v)
    }
}

impl Variant {
    /// The value as JSON, mapped as follows (and from JSON as [`Variant::from_json`] does).
    ///
    /// | JSON | Variant |
    /// |---|---|
    /// | null, true/false, string | null, boolean, string |
    /// | integer number | the narrowest of int8/16/32/64; above `i64` a decimal16 of scale 0 |
    /// | other number | double |
    /// | array / object | array / object |
    ///
    /// Back to JSON, with no digit lost:
    ///
    /// | Variant | JSON |
    /// |---|---|
    /// | int8/16/32/64 | integer |
    /// | decimal of scale 0 that fits `i64` or `u64` | integer |
    /// | any other decimal | string of its exact decimal text, every digit of its scale (`"-123456789.987654321"`, `"1.50"`), never through `f64` |
    /// | double | number (its shortest round-trip form) |
    /// | float | number of the float's own shortest form (`0.1`, which reads back to the same `f32`) |
    /// | NaN, infinities | the strings `"NaN"`, `"Infinity"`, `"-Infinity"` |
    /// | binary | base64 text |
    /// | date, time, timestamps, uuid | text: `"2024-01-30"`, `"12:00:00.000000"`, RFC 3339 with the unit's digits (nanoseconds for the nanosecond types) and `Z` when adjusted to UTC, hyphenated uuid |
    ///
    /// This is what `parquet-serde cat` prints. Decimals are strings because a JSON number
    /// with more digits than an `f64` holds is read as an `f64` by most JSON readers
    /// (JavaScript, Python's `json`, `serde_json` without `arbitrary_precision`), and a
    /// `serde_json::Value` could not hold it without that feature, which would change how
    /// every crate of a build parses numbers; a DECIMAL column prints the same way.
    ///
    /// ```
    /// use parquet_serde::variant::Variant;
    /// let d = Variant::decimal(-123_456_789_987_654_321, 9).unwrap();
    /// assert_eq!(d.to_json(), serde_json::json!("-123456789.987654321"));
    /// assert_eq!(Variant::Float(0.1).to_json().to_string(), "0.1");
    /// assert_eq!(Variant::decimal(7, 0).unwrap().to_json(), serde_json::json!(7));
    /// ```
    pub fn to_json(&self) -> Json {
        Json::from(self)
    }

    /// The variant of a JSON value.
    pub fn from_json(json: &Json) -> Variant {
        Variant::from(json)
    }
}
