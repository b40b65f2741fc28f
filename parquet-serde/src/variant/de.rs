//! [`from_variant`]: any `T: Deserialize` from a [`Variant`].

use std::collections::btree_map;
use std::fmt;

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess,
    SeqAccess, VariantAccess, Visitor,
};

use crate::error::{Error, Result};

use super::blob;
use super::text;
use super::value::Variant;

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::data(msg.to_string())
    }
}

/// Deserializes a `T` from `value`.
///
/// `deserialize_any` hands over the plain data model: null as unit, booleans, integers of
/// their own width, float, double; a decimal as an integer when it is whole (and fits
/// `i128`), else as `f64` when that `f64`'s shortest form is the same number (`1.50` as
/// `1.5`), else as its decimal text (`"0.29999999999999999"`, `"-123456789.987654321"`); date, time, timestamps and uuid as text (`"2024-01-30"`, `"12:00:00.000000"`,
/// RFC 3339 with `Z` for the time-zone-aware ones, hyphenated uuid); binary as bytes;
/// strings; arrays as sequences; objects as maps. Asking for what the type wants
/// converts where nothing is lost: any whole exact number reads as any integer type it
/// fits, any number as a float, a uuid or a string as bytes, a one-field object or a string
/// as an enum. The deserializer is not human-readable (a `uuid::Uuid` reads 16 bytes).
///
/// ```
/// use std::collections::HashMap;
/// use parquet_serde::variant::{from_variant, Variant};
/// let v = Variant::object([("a", Variant::Int8(1)), ("b", Variant::Int64(2))]);
/// let m: HashMap<String, u32> = from_variant(&v)?;
/// assert_eq!(m["b"], 2);
/// # Ok::<(), parquet_serde::Error>(())
/// ```
pub fn from_variant<T: DeserializeOwned>(value: &Variant) -> Result<T> {
    T::deserialize(VariantDeserializer::new(value))
}

/// The serde `Deserializer` over a [`Variant`] (what [`from_variant`] uses).
#[derive(Debug, Clone, Copy)]
pub struct VariantDeserializer<'a> {
    value: &'a Variant,
}

impl<'a> VariantDeserializer<'a> {
    /// A deserializer of `value`.
    pub fn new(value: &'a Variant) -> Self {
        VariantDeserializer { value }
    }
}

/// The plain-model form of a decimal.
pub(crate) enum PlainDecimal {
    Int(i128),
    Float(f64),
    Text(String),
}

/// A decimal as the plain data model carries it (see the module docs).
pub(crate) fn plain_decimal(unscaled: i128, scale: u8) -> PlainDecimal {
    if scale == 0 {
        return PlainDecimal::Int(unscaled);
    }
    let text = text::decimal(unscaled, scale);
    match text.parse::<f64>() {
        Ok(f) if shortest_is(f, unscaled, scale) => PlainDecimal::Float(f),
        _ => PlainDecimal::Text(text),
    }
}

/// Whether the shortest form of `f` (what serde_json and `Display` print) is the number
/// `unscaled × 10^-scale` (`1.5` is `150` at scale 2; `0.3` is not `29999999999999999` at
/// scale 17, though `0.29999999999999999` parses to the same `f64`).
fn shortest_is(f: f64, unscaled: i128, scale: u8) -> bool {
    let shortest = f.to_string();
    let (negative, digits) = match shortest.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, shortest.as_str()),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let Some(zeros) = usize::from(scale).checked_sub(frac.len()) else {
        return false;
    };
    let padded = format!("{int}{frac}{}", "0".repeat(zeros));
    padded
        .parse::<i128>()
        .is_ok_and(|u| (if negative { -u } else { u }) == unscaled)
}

fn whole(v: &Variant) -> Option<i128> {
    match v.as_decimal() {
        Some((u, s)) => {
            let p = 10i128.checked_pow(s.into())?;
            (u % p == 0).then_some(u / p)
        }
        None => v.as_i64().map(i128::from),
    }
}

macro_rules! int_method {
    ($($m:ident => $visit:ident : $t:ty),*) => {$(
        fn $m<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match whole(self.value).and_then(|w| <$t>::try_from(w).ok()) {
                Some(x) => visitor.$visit(x),
                None => self.deserialize_any(visitor),
            }
        }
    )*};
}

impl<'de> Deserializer<'de> for VariantDeserializer<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.value {
            Variant::Null => visitor.visit_unit(),
            Variant::Bool(b) => visitor.visit_bool(*b),
            Variant::Int8(x) => visitor.visit_i8(*x),
            Variant::Int16(x) => visitor.visit_i16(*x),
            Variant::Int32(x) => visitor.visit_i32(*x),
            Variant::Int64(x) => visitor.visit_i64(*x),
            Variant::Float(x) => visitor.visit_f32(*x),
            Variant::Double(x) => visitor.visit_f64(*x),
            v @ (Variant::Decimal4 { .. }
            | Variant::Decimal8 { .. }
            | Variant::Decimal16 { .. }) => {
                let (u, s) = v.as_decimal().unwrap_or_default();
                match plain_decimal(u, s) {
                    PlainDecimal::Int(i) => match i64::try_from(i) {
                        Ok(x) => visitor.visit_i64(x),
                        Err(_) => visitor.visit_i128(i),
                    },
                    PlainDecimal::Float(f) => visitor.visit_f64(f),
                    PlainDecimal::Text(t) => visitor.visit_string(t),
                }
            }
            v @ (Variant::Date(_)
            | Variant::Time(_)
            | Variant::TimestampMicros(_)
            | Variant::TimestampNtzMicros(_)
            | Variant::TimestampNanos(_)
            | Variant::TimestampNtzNanos(_)
            | Variant::Uuid(_)) => visitor.visit_string(text::temporal(v).unwrap_or_default()),
            Variant::Binary(b) => visitor.visit_bytes(b),
            Variant::String(s) => visitor.visit_str(s),
            Variant::Array(items) => {
                let mut seq = Seq {
                    items: items.iter(),
                };
                visitor.visit_seq(&mut seq)
            }
            Variant::Object(fields) => visitor.visit_map(Map {
                fields: fields.iter(),
                value: None,
            }),
        }
    }

    int_method!(
        deserialize_i8 => visit_i8: i8,
        deserialize_i16 => visit_i16: i16,
        deserialize_i32 => visit_i32: i32,
        deserialize_i64 => visit_i64: i64,
        deserialize_i128 => visit_i128: i128,
        deserialize_u8 => visit_u8: u8,
        deserialize_u16 => visit_u16: u16,
        deserialize_u32 => visit_u32: u32,
        deserialize_u64 => visit_u64: u64,
        deserialize_u128 => visit_u128: u128
    );

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.value {
            Variant::Float(x) => visitor.visit_f32(*x),
            v => match v.as_f64() {
                Some(f) => visitor.visit_f64(f),
                None => self.deserialize_any(visitor),
            },
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.value.as_f64() {
            Some(f) => visitor.visit_f64(f),
            None => self.deserialize_any(visitor),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.value {
            Variant::Binary(b) => visitor.visit_bytes(b),
            Variant::String(s) => visitor.visit_bytes(s.as_bytes()),
            Variant::Uuid(u) => visitor.visit_bytes(u),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.value {
            Variant::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == blob::TOKEN {
            return visitor.visit_newtype_struct(OwnedBytes(blob::encode(self.value)));
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.value {
            Variant::String(s) => visitor.visit_enum(s.as_str().into_deserializer()),
            Variant::Object(fields) if fields.len() == 1 => {
                let Some((name, value)) = fields.iter().next() else {
                    return Err(Error::data("an enum needs one field"));
                };
                visitor.visit_enum(Enum { name, value })
            }
            other => Err(Error::data(format!(
                "an enum is a string or an object of one field, not a variant {}",
                other.type_name()
            ))),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.value {
            Variant::Null => visitor.visit_unit(),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        false
    }

    serde::forward_to_deserialize_any! {
        bool char str string unit_struct seq tuple tuple_struct map struct identifier
    }
}

struct Seq<'a> {
    items: std::slice::Iter<'a, Variant>,
}

impl<'de> SeqAccess<'de> for Seq<'_> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        self.items
            .next()
            .map(|v| seed.deserialize(VariantDeserializer::new(v)))
            .transpose()
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Map<'a> {
    fields: btree_map::Iter<'a, String, Variant>,
    value: Option<&'a Variant>,
}

impl<'de> MapAccess<'de> for Map<'_> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        match self.fields.next() {
            Some((k, v)) => {
                self.value = Some(v);
                seed.deserialize(Key(k)).map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        let v = self
            .value
            .take()
            .ok_or_else(|| Error::data("a map value asked for before its key"))?;
        seed.deserialize(VariantDeserializer::new(v))
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.fields.len())
    }
}

/// An object key: text, or a number or bool parsed from it for map types with such keys.
struct Key<'a>(&'a str);

macro_rules! key_parse {
    ($($m:ident => $visit:ident),*) => {$(
        fn $m<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.0.parse() {
                Ok(x) => visitor.$visit(x),
                Err(_) => visitor.visit_str(self.0),
            }
        }
    )*};
}

impl<'de> Deserializer<'de> for Key<'_> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_str(self.0)
    }
    key_parse!(
        deserialize_bool => visit_bool,
        deserialize_i8 => visit_i8,
        deserialize_i16 => visit_i16,
        deserialize_i32 => visit_i32,
        deserialize_i64 => visit_i64,
        deserialize_i128 => visit_i128,
        deserialize_u8 => visit_u8,
        deserialize_u16 => visit_u16,
        deserialize_u32 => visit_u32,
        deserialize_u64 => visit_u64,
        deserialize_u128 => visit_u128
    );
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(self.0.into_deserializer())
    }
    fn is_human_readable(&self) -> bool {
        false
    }
    serde::forward_to_deserialize_any! {
        f32 f64 char str string bytes byte_buf option unit unit_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

struct Enum<'a> {
    name: &'a str,
    value: &'a Variant,
}

impl<'de, 'a> EnumAccess<'de> for Enum<'a> {
    type Error = Error;
    type Variant = VariantDeserializer<'a>;
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self::Variant)> {
        let tag = seed.deserialize(de::value::StrDeserializer::<Error>::new(self.name))?;
        Ok((tag, VariantDeserializer::new(self.value)))
    }
}

impl<'de> VariantAccess<'de> for VariantDeserializer<'_> {
    type Error = Error;
    fn unit_variant(self) -> Result<()> {
        match self.value {
            Variant::Null => Ok(()),
            other => Err(Error::data(format!(
                "a unit enum variant holds null, not a variant {}",
                other.type_name()
            ))),
        }
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_map(visitor)
    }
}

/// Owned bytes as a deserializer (a [`blob`] frame).
pub(crate) struct OwnedBytes(pub Vec<u8>);

impl<'de> Deserializer<'de> for OwnedBytes {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_byte_buf(self.0)
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}
