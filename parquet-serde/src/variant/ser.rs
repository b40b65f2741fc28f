//! [`to_variant`]: any `T: Serialize` as an owned [`Variant`].

use std::collections::BTreeMap;

use serde::ser::{self, Serialize};

use crate::error::{Error, Result};

use super::blob;
use super::value::Variant;

/// Serializes `value` as a [`Variant`], mapped as follows.
///
/// | serde data model | Variant |
/// |---|---|
/// | `bool` | boolean |
/// | any integer | the narrowest of int8, int16, int32, int64 holding the value (the encoding's exact numeric types are one class; a JSON number written from `serde_json::Value` takes 2 bytes, not 9); above `i64` a decimal16 with scale 0 (an error above 38 digits) |
/// | `f32`, `f64` | float, double |
/// | `char`, `str` | string |
/// | `bytes` | binary |
/// | `none`, `unit`, unit struct | null |
/// | `some(x)`, newtype struct | `x` |
/// | unit variant | the variant's name as a string |
/// | newtype / tuple / struct variant | an object of one field named after the variant |
/// | `seq`, tuple, tuple struct | array |
/// | map, struct | object (map keys: strings, chars, integers and booleans, as text) |
///
/// The serializer is not human-readable, so types that serialize differently for binary
/// formats (a `uuid::Uuid`: 16 bytes) use that form; a [`Variant`] nested in `T` is kept
/// exactly.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Event { status: u16, path: String, tags: Vec<&'static str> }
/// let v = parquet_serde::variant::to_variant(&Event { status: 500, path: "/".into(), tags: vec!["a"] })?;
/// assert_eq!(v.get("status"), Some(&parquet_serde::variant::Variant::Int16(500)));
/// # Ok::<(), parquet_serde::Error>(())
/// ```
pub fn to_variant<T: Serialize + ?Sized>(value: &T) -> Result<Variant> {
    value.serialize(VariantSerializer)
}

/// The serde `Serializer` whose output is a [`Variant`] (what [`to_variant`] uses).
#[derive(Debug, Clone, Copy, Default)]
pub struct VariantSerializer;

pub(super) fn key_error() -> Error {
    Error::data("a variant object key must be a string, char, integer or bool")
}

/// The text of a map key serialized as `v` (strings, booleans and integers; anything else
/// is an error).
pub(super) fn key_text(v: Variant) -> Result<String> {
    Ok(match v {
        Variant::String(s) => s,
        Variant::Bool(b) => b.to_string(),
        Variant::Decimal16 { unscaled, scale: 0 } => unscaled.to_string(),
        v @ (Variant::Int8(_) | Variant::Int16(_) | Variant::Int32(_) | Variant::Int64(_)) => {
            v.as_i64().map(|i| i.to_string()).ok_or_else(key_error)?
        }
        _ => return Err(key_error()),
    })
}

fn wide(v: i128) -> Result<Variant> {
    match i64::try_from(v) {
        Ok(x) => Ok(Variant::int(x)),
        Err(_) => Variant::decimal(v, 0).ok_or_else(|| {
            Error::data(format!(
                "{v} has more than the 38 digits of a variant decimal"
            ))
        }),
    }
}

impl ser::Serializer for VariantSerializer {
    type Ok = Variant;
    type Error = Error;
    type SerializeSeq = SeqBuilder;
    type SerializeTuple = SeqBuilder;
    type SerializeTupleStruct = SeqBuilder;
    type SerializeTupleVariant = SeqBuilder;
    type SerializeMap = MapBuilder;
    type SerializeStruct = MapBuilder;
    type SerializeStructVariant = MapBuilder;

    fn serialize_bool(self, v: bool) -> Result<Variant> {
        Ok(Variant::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Variant> {
        Ok(Variant::Int8(v))
    }
    fn serialize_i16(self, v: i16) -> Result<Variant> {
        Ok(Variant::int(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result<Variant> {
        Ok(Variant::int(v.into()))
    }
    fn serialize_i64(self, v: i64) -> Result<Variant> {
        Ok(Variant::int(v))
    }
    fn serialize_i128(self, v: i128) -> Result<Variant> {
        wide(v)
    }
    fn serialize_u8(self, v: u8) -> Result<Variant> {
        Ok(Variant::int(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<Variant> {
        Ok(Variant::int(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<Variant> {
        Ok(Variant::int(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Result<Variant> {
        wide(v.into())
    }
    fn serialize_u128(self, v: u128) -> Result<Variant> {
        wide(
            i128::try_from(v)
                .map_err(|_| Error::data(format!("{v} is too large for a variant")))?,
        )
    }
    fn serialize_f32(self, v: f32) -> Result<Variant> {
        Ok(Variant::Float(v))
    }
    fn serialize_f64(self, v: f64) -> Result<Variant> {
        Ok(Variant::Double(v))
    }
    fn serialize_char(self, v: char) -> Result<Variant> {
        Ok(Variant::String(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Variant> {
        Ok(Variant::String(v.to_owned()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Variant> {
        Ok(Variant::Binary(v.to_vec()))
    }
    fn serialize_none(self) -> Result<Variant> {
        Ok(Variant::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Variant> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Variant> {
        Ok(Variant::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Variant> {
        Ok(Variant::Null)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Variant> {
        Ok(Variant::String(variant.to_owned()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Variant> {
        if name == blob::TOKEN {
            let bytes = value.serialize(blob::Capture)?;
            return blob::decode(&bytes);
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Variant> {
        Ok(Variant::object([(variant, value.serialize(self)?)]))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder> {
        Ok(SeqBuilder {
            items: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<SeqBuilder> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SeqBuilder> {
        let mut b = self.serialize_seq(Some(len))?;
        b.variant = Some(variant);
        Ok(b)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<MapBuilder> {
        Ok(MapBuilder {
            fields: BTreeMap::new(),
            key: None,
            variant: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<MapBuilder> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<MapBuilder> {
        let mut b = self.serialize_map(Some(len))?;
        b.variant = Some(variant);
        Ok(b)
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

/// Builds an array (or the array of a tuple variant).
#[doc(hidden)]
pub struct SeqBuilder {
    items: Vec<Variant>,
    variant: Option<&'static str>,
}

impl SeqBuilder {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.items.push(value.serialize(VariantSerializer)?);
        Ok(())
    }

    fn done(self) -> Variant {
        let array = Variant::Array(self.items);
        match self.variant {
            Some(name) => Variant::object([(name, array)]),
            None => array,
        }
    }
}

macro_rules! seq_impl {
    ($($tr:ident :: $m:ident),*) => {$(
        impl ser::$tr for SeqBuilder {
            type Ok = Variant;
            type Error = Error;
            fn $m<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                self.push(value)
            }
            fn end(self) -> Result<Variant> {
                Ok(self.done())
            }
        }
    )*};
}

seq_impl!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// Builds an object (or the object of a struct variant).
#[doc(hidden)]
pub struct MapBuilder {
    fields: BTreeMap<String, Variant>,
    key: Option<String>,
    variant: Option<&'static str>,
}

impl MapBuilder {
    fn done(self) -> Variant {
        let object = Variant::Object(self.fields);
        match self.variant {
            Some(name) => Variant::object([(name, object)]),
            None => object,
        }
    }
}

impl ser::SerializeMap for MapBuilder {
    type Ok = Variant;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.key = Some(key_text(key.serialize(VariantSerializer)?)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let key = self
            .key
            .take()
            .ok_or_else(|| Error::data("a map value came before its key"))?;
        self.fields.insert(key, value.serialize(VariantSerializer)?);
        Ok(())
    }
    fn end(self) -> Result<Variant> {
        Ok(self.done())
    }
}

impl ser::SerializeStruct for MapBuilder {
    type Ok = Variant;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.fields
            .insert(key.to_owned(), value.serialize(VariantSerializer)?);
        Ok(())
    }
    fn end(self) -> Result<Variant> {
        Ok(self.done())
    }
}

impl ser::SerializeStructVariant for MapBuilder {
    type Ok = Variant;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    fn end(self) -> Result<Variant> {
        Ok(self.done())
    }
}
