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

pub(super) fn float(f: f64) -> Json {
    match Number::from_f64(f) {
        Some(n) => Json::Number(n),
        None if f.is_nan() => Json::String("NaN".into()),
        None if f > 0.0 => Json::String("Infinity".into()),
        None => Json::String("-Infinity".into()),
    }
}

pub(super) fn decimal(unscaled: i128, scale: u8) -> Json {
    if scale == 0 {
        if let Ok(i) = i64::try_from(unscaled) {
            return Json::Number(i.into());
        }
        if let Ok(u) = u64::try_from(unscaled) {
            return Json::Number(u.into());
        }
    }
    let text = text::decimal(unscaled, scale);
    float(text.parse::<f64>().unwrap_or(f64::NAN))
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
            Variant::Float(x) => float((*x).into()),
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
    /// Back to JSON: integers and whole decimals as integers (a decimal beyond `u64`/`i64` as
    /// a float), other decimals and floats as numbers (NaN and infinities as the strings
    /// `"NaN"`, `"Infinity"`, `"-Infinity"`, as `parquet-serde cat` prints them), binary as
    /// base64 text, date, time, timestamps and uuid as text (see [`from_variant`](super::from_variant)).
    pub fn to_json(&self) -> Json {
        Json::from(self)
    }

    /// The variant of a JSON value.
    pub fn from_json(json: &Json) -> Variant {
        Variant::from(json)
    }
}
