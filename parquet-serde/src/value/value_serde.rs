//! serde for [`Value`].
//!
//! # Serialize (to any serde format)
//!
//! | `Value` | serde data model |
//! |---|---|
//! | `Null` | `none` |
//! | `Bool`, `Int`, `UInt`, `Float`, `Double` | `bool`, `i64`, `u64`, `f32`, `f64` |
//! | `Float16` | `f32` |
//! | `String` | `str` |
//! | `Bytes` | `bytes` |
//! | `Date` | `i32`: days since 1970-01-01 |
//! | `Time`, `Timestamp` | `i64`: the raw count of the value's unit (the unit is not written) |
//! | `Int96` | `i64`: nanoseconds since the epoch (a tuple of its three `u32` words when that overflows) |
//! | `Decimal` | `str`: the exact decimal number, as `"-12.345"` |
//! | `Uuid` | `str`: hyphenated lowercase |
//! | `List` | `seq` |
//! | `Map` | `map` with `Value` keys (formats that need string keys reject other keys) |
//! | `Group` | `map` from field name to value, in schema order |
//! | `Variant` | the variant's own serialization (plain data for human-readable formats) |
//!
//! Self-describing formats therefore see plain data (`serde_json` writes a timestamp as a
//! number); the logical type is not kept, so deserializing that output gives the plain
//! variants back (`Int` for a timestamp).
//!
//! # Deserialize
//!
//! From this crate's own deserializer ([`from_slice::<Value>`](crate::from_slice)) a
//! `Value` keeps every logical type. From other formats: `null`/unit → `Null`, booleans, `i64` → `Int`, `u64` →
//! `UInt`, `f32` → `Float`, `f64` → `Double`, strings and chars → `String`, bytes →
//! `Bytes`, sequences → `List`, maps with string keys → `Group` (other keys → `Map`),
//! enum variants → a one-field `Group` named after the variant.

use std::fmt;

use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};
use serde::ser::{Serialize, SerializeTuple, Serializer};

use crate::core::format::TimeUnit;
use crate::core::values::text::{self, Formatted};
use crate::core::values::Int96;
use crate::variant::Variant;

use super::tokens::{tags, MAP_TAG, VALUE_TOKEN};
use super::Value;

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_none(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Int(x) => s.serialize_i64(*x),
            Value::UInt(x) => s.serialize_u64(*x),
            Value::Float(x) | Value::Float16(x) => s.serialize_f32(*x),
            Value::Double(x) => s.serialize_f64(*x),
            Value::String(x) => s.serialize_str(x),
            Value::Bytes(b) => s.serialize_bytes(b),
            Value::Date(d) => s.serialize_i32(*d),
            Value::Time { value, .. } | Value::Timestamp { value, .. } => s.serialize_i64(*value),
            Value::Int96(v) => match v.to_nanos() {
                Some(n) => s.serialize_i64(n),
                None => {
                    let mut t = s.serialize_tuple(3)?;
                    for w in v.0 {
                        t.serialize_element(&w)?;
                    }
                    t.end()
                }
            },
            Value::Decimal { unscaled, scale } => {
                s.serialize_str(&text::decimal_be(unscaled, *scale))
            }
            Value::Uuid(b) => s.collect_str(&Formatted(|f| text::uuid(b, f))),
            Value::List(items) => s.collect_seq(items),
            Value::Map(pairs) => s.collect_map(pairs.iter().map(|(k, v)| (k, v))),
            Value::Group(fields) => s.collect_map(fields.iter().map(|(k, v)| (k, v))),
            Value::Variant(v) => v.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        // This crate's deserializer answers the token with logical types kept; others see
        // a newtype and give the plain data model.
        d.deserialize_newtype_struct(VALUE_TOKEN, ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Int(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::UInt(v))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        match i64::try_from(v) {
            Ok(x) => Ok(Value::Int(x)),
            Err(_) => Ok(Value::Decimal {
                unscaled: v.to_be_bytes().to_vec(),
                scale: 0,
            }),
        }
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        match (u64::try_from(v), i128::try_from(v)) {
            (Ok(x), _) => Ok(Value::UInt(x)),
            (_, Ok(x)) => Ok(Value::Decimal {
                unscaled: x.to_be_bytes().to_vec(),
                scale: 0,
            }),
            _ => Err(E::invalid_value(
                de::Unexpected::Other("u128 above i128::MAX"),
                &self,
            )),
        }
    }

    fn visit_f32<E: de::Error>(self, v: f32) -> Result<Value, E> {
        Ok(Value::Float(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Double(v))
    }

    fn visit_char<E: de::Error>(self, v: char) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Value, E> {
        Ok(Value::Bytes(v.to_vec()))
    }

    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Value, E> {
        Ok(Value::Bytes(v))
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(v) = seq.next_element::<Value>()? {
            items.push(v);
        }
        Ok(Value::List(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        // A group while every key is a string (built in place: rows are mostly groups);
        // the first other key turns it into a map.
        let room = map.size_hint().unwrap_or(0).min(4096);
        let mut fields: Vec<(String, Value)> = Vec::with_capacity(room);
        while let Some(key) = map.next_key::<Value>()? {
            let key = match key {
                Value::String(name) => {
                    fields.push((name, map.next_value()?));
                    continue;
                }
                other => other,
            };
            let mut pairs: Vec<(Value, Value)> = Vec::with_capacity(room.max(fields.len() + 1));
            pairs.extend(fields.into_iter().map(|(k, v)| (Value::String(k), v)));
            pairs.push((key, map.next_value()?));
            while let Some(entry) = map.next_entry::<Value, Value>()? {
                pairs.push(entry);
            }
            return Ok(Value::Map(pairs));
        }
        Ok(Value::Group(fields))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        let (tag, variant) = data.variant::<Tag>()?;
        let scalars = |variant: A::Variant| variant.tuple_variant(3, ScalarsVisitor);
        Ok(match tag {
            Tag::Map => Value::Map(variant.newtype_variant::<Vec<(Value, Value)>>()?),
            Tag::Variant => Value::Variant(variant.newtype_variant::<Variant>()?),
            Tag::Other(name) => Value::Group(vec![(name, variant.newtype_variant::<Value>()?)]),
            Tag::Date => match scalars(variant)?.as_slice() {
                [Sc::I64(d)] => Value::Date(i32::try_from(*d).map_err(de::Error::custom)?),
                _ => return Err(de::Error::custom("malformed DATE")),
            },
            Tag::Time => match scalars(variant)?.as_slice() {
                [Sc::I64(v), Sc::I64(u)] => Value::Time {
                    value: *v,
                    unit: unit_of(*u),
                },
                _ => return Err(de::Error::custom("malformed TIME")),
            },
            Tag::Timestamp => match scalars(variant)?.as_slice() {
                [Sc::I64(v), Sc::I64(u), Sc::Bool(utc)] => Value::Timestamp {
                    value: *v,
                    unit: unit_of(*u),
                    utc: *utc,
                },
                _ => return Err(de::Error::custom("malformed TIMESTAMP")),
            },
            Tag::Decimal => match scalars(variant)?.as_mut_slice() {
                [Sc::Bytes(b), Sc::I64(s)] => Value::Decimal {
                    unscaled: std::mem::take(b),
                    scale: i32::try_from(*s).map_err(de::Error::custom)?,
                },
                _ => return Err(de::Error::custom("malformed DECIMAL")),
            },
            Tag::Uuid => match scalars(variant)?.as_slice() {
                [Sc::Bytes(b)] => Value::Uuid(b.as_slice().try_into().map_err(de::Error::custom)?),
                _ => return Err(de::Error::custom("malformed UUID")),
            },
            Tag::Int96 => match scalars(variant)?.as_slice() {
                [Sc::I64(a), Sc::I64(b), Sc::I64(c)] => {
                    Value::Int96(Int96([*a as u32, *b as u32, *c as u32]))
                }
                _ => return Err(de::Error::custom("malformed INT96")),
            },
            Tag::Float16 => match scalars(variant)?.as_slice() {
                [Sc::F32(x)] => Value::Float16(*x),
                _ => return Err(de::Error::custom("malformed FLOAT16")),
            },
        })
    }
}

fn unit_of(id: i64) -> TimeUnit {
    match id {
        1 => TimeUnit::Millis,
        2 => TimeUnit::Micros,
        3 => TimeUnit::Nanos,
        other => TimeUnit::Unknown(other as i16),
    }
}

/// The variant name of an enum reaching [`ValueVisitor`].
enum Tag {
    Date,
    Time,
    Timestamp,
    Decimal,
    Uuid,
    Int96,
    Float16,
    Map,
    Variant,
    Other(String),
}

impl<'de> Deserialize<'de> for Tag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Tag, D::Error> {
        struct TagVisitor;
        impl Visitor<'_> for TagVisitor {
            type Value = Tag;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a variant name")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Tag, E> {
                Ok(match v {
                    tags::DATE => Tag::Date,
                    tags::TIME => Tag::Time,
                    tags::TIMESTAMP => Tag::Timestamp,
                    tags::DECIMAL => Tag::Decimal,
                    tags::UUID => Tag::Uuid,
                    tags::INT96 => Tag::Int96,
                    tags::FLOAT16 => Tag::Float16,
                    MAP_TAG => Tag::Map,
                    crate::variant::blob::TOKEN => Tag::Variant,
                    other => Tag::Other(other.to_owned()),
                })
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Tag, E> {
                Ok(Tag::Other(v.to_string()))
            }
        }
        d.deserialize_identifier(TagVisitor)
    }
}

/// A scalar of a tagged logical value.
enum Sc {
    I64(i64),
    Bool(bool),
    F32(f32),
    Bytes(Vec<u8>),
}

struct ScVisitor;

impl Visitor<'_> for ScVisitor {
    type Value = Sc;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer, bool, float or bytes")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Sc, E> {
        Ok(Sc::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Sc, E> {
        Ok(Sc::I64(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Sc, E> {
        i64::try_from(v).map(Sc::I64).map_err(E::custom)
    }

    fn visit_f32<E: de::Error>(self, v: f32) -> Result<Sc, E> {
        Ok(Sc::F32(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Sc, E> {
        Ok(Sc::F32(v as f32))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Sc, E> {
        Ok(Sc::Bytes(v.to_vec()))
    }

    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Sc, E> {
        Ok(Sc::Bytes(v))
    }
}

struct ScSeed;

impl<'de> DeserializeSeed<'de> for ScSeed {
    type Value = Sc;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Sc, D::Error> {
        d.deserialize_any(ScVisitor)
    }
}

struct ScalarsVisitor;

impl<'de> Visitor<'de> for ScalarsVisitor {
    type Value = Vec<Sc>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("up to three scalars")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Sc>, A::Error> {
        let mut out = Vec::with_capacity(3);
        while out.len() < 3 {
            match seq.next_element_seed(ScSeed)? {
                Some(s) => out.push(s),
                None => break,
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::value::{Error as PlainError, MapDeserializer, SeqDeserializer};
    use serde::de::IntoDeserializer;

    #[test]
    fn deserializes_from_the_plain_data_model() {
        let seq: SeqDeserializer<_, PlainError> = vec![1i64, 2].into_deserializer();
        assert_eq!(
            Value::deserialize(seq).unwrap(),
            Value::List(vec![Value::Int(1), Value::Int(2)])
        );
        let map: MapDeserializer<_, PlainError> =
            MapDeserializer::new(vec![("a", 1u64)].into_iter());
        assert_eq!(
            Value::deserialize(map).unwrap(),
            Value::Group(vec![("a".into(), Value::UInt(1))])
        );
        let map: MapDeserializer<_, PlainError> =
            MapDeserializer::new(vec![(1u64, true)].into_iter());
        assert_eq!(
            Value::deserialize(map).unwrap(),
            Value::Map(vec![(Value::UInt(1), Value::Bool(true))])
        );
        let s: de::value::StrDeserializer<'_, PlainError> = "x".into_deserializer();
        assert_eq!(Value::deserialize(s).unwrap(), Value::String("x".into()));
        let u: de::value::UnitDeserializer<PlainError> = ().into_deserializer();
        assert_eq!(Value::deserialize(u).unwrap(), Value::Null);
    }

    #[test]
    fn units_round_trip() {
        for u in [
            TimeUnit::Millis,
            TimeUnit::Micros,
            TimeUnit::Nanos,
            TimeUnit::Unknown(9),
        ] {
            assert_eq!(unit_of(super::super::tokens::unit_id(u)), u);
        }
    }
}
