//! `Serialize` and `Deserialize` for [`Variant`].
//!
//! Human-readable formats (JSON, YAML, ...) see the plain data model of
//! [`from_variant`](super::from_variant)'s `deserialize_any` (a date as its text, binary as
//! bytes) and read back the plain mapping of [`to_variant`](super::to_variant) (JSON
//! numbers as the narrowest integer type or double). Binary formats, and this crate's own
//! serializers (the Variant serializer, Parquet rows), carry the value's own bytes, so every
//! type survives.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};

use super::blob;
use super::de::{plain_decimal, PlainDecimal};
use super::text;
use super::value::Variant;

impl Serialize for Variant {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if !s.is_human_readable() {
            let frame = blob::encode(self);
            return s.serialize_newtype_struct(blob::TOKEN, &blob::Frame(&frame));
        }
        Plain(self).serialize(s)
    }
}

/// The plain data model of a variant.
struct Plain<'a>(&'a Variant);

impl Serialize for Plain<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Variant::Null => s.serialize_unit(),
            Variant::Bool(b) => s.serialize_bool(*b),
            Variant::Int8(x) => s.serialize_i8(*x),
            Variant::Int16(x) => s.serialize_i16(*x),
            Variant::Int32(x) => s.serialize_i32(*x),
            Variant::Int64(x) => s.serialize_i64(*x),
            Variant::Float(x) => s.serialize_f32(*x),
            Variant::Double(x) => s.serialize_f64(*x),
            v @ (Variant::Decimal4 { .. }
            | Variant::Decimal8 { .. }
            | Variant::Decimal16 { .. }) => {
                let (u, sc) = v.as_decimal().unwrap_or_default();
                match plain_decimal(u, sc) {
                    PlainDecimal::Int(i) => match i64::try_from(i) {
                        Ok(x) => s.serialize_i64(x),
                        Err(_) => s.serialize_i128(i),
                    },
                    PlainDecimal::Float(f) => s.serialize_f64(f),
                    PlainDecimal::Text(t) => s.serialize_str(&t),
                }
            }
            Variant::Binary(b) => s.serialize_bytes(b),
            Variant::String(x) => s.serialize_str(x),
            Variant::Array(items) => s.collect_seq(items.iter().map(Plain)),
            Variant::Object(fields) => {
                let mut m = s.serialize_map(Some(fields.len()))?;
                for (k, v) in fields {
                    m.serialize_entry(k, &Plain(v))?;
                }
                m.end()
            }
            other => s.serialize_str(&text::temporal(other).unwrap_or_default()),
        }
    }
}

impl<'de> Deserialize<'de> for Variant {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        if d.is_human_readable() {
            d.deserialize_any(PlainVisitor)
        } else {
            d.deserialize_newtype_struct(blob::TOKEN, PlainVisitor)
        }
    }
}

/// Builds a variant from the plain data model, or from a [`blob`] frame.
struct PlainVisitor;

impl<'de> Visitor<'de> for PlainVisitor {
    type Value = Variant;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Variant, E> {
        Ok(Variant::Bool(v))
    }
    fn visit_i8<E: de::Error>(self, v: i8) -> Result<Variant, E> {
        Ok(Variant::Int8(v))
    }
    fn visit_i16<E: de::Error>(self, v: i16) -> Result<Variant, E> {
        Ok(Variant::Int16(v))
    }
    fn visit_i32<E: de::Error>(self, v: i32) -> Result<Variant, E> {
        Ok(Variant::Int32(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Variant, E> {
        Ok(Variant::int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Variant, E> {
        self.visit_i128(v.into())
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Variant, E> {
        match i64::try_from(v) {
            Ok(x) => Ok(Variant::int(x)),
            Err(_) => Variant::decimal(v, 0)
                .ok_or_else(|| E::custom(format!("{v} has more than 38 digits"))),
        }
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Variant, E> {
        let v = i128::try_from(v).map_err(|_| E::custom(format!("{v} has more than 38 digits")))?;
        self.visit_i128(v)
    }
    fn visit_f32<E: de::Error>(self, v: f32) -> Result<Variant, E> {
        Ok(Variant::Float(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Variant, E> {
        Ok(Variant::Double(v))
    }
    fn visit_char<E: de::Error>(self, v: char) -> Result<Variant, E> {
        Ok(Variant::String(v.to_string()))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Variant, E> {
        Ok(Variant::String(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Variant, E> {
        Ok(Variant::String(v))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Variant, E> {
        Ok(Variant::Binary(v.to_vec()))
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Variant, E> {
        Ok(Variant::Binary(v))
    }
    fn visit_none<E: de::Error>(self) -> Result<Variant, E> {
        Ok(Variant::Null)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Variant, E> {
        Ok(Variant::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Variant, D::Error> {
        Variant::deserialize(d)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Variant, D::Error> {
        // Reached through the token: the frame's bytes follow.
        d.deserialize_byte_buf(FrameVisitor)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Variant, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(v) = seq.next_element::<Variant>()? {
            items.push(v);
        }
        Ok(Variant::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Variant, A::Error> {
        let mut fields = BTreeMap::new();
        while let Some((k, v)) = map.next_entry::<String, Variant>()? {
            fields.insert(k, v);
        }
        Ok(Variant::Object(fields))
    }
}

struct FrameVisitor;

impl<'de> Visitor<'de> for FrameVisitor {
    type Value = Variant;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the bytes of a variant")
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Variant, E> {
        blob::decode(v).map_err(E::custom)
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Variant, E> {
        self.visit_bytes(&v)
    }
}
