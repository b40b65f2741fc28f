//! Map keys of the [`VariantEncoder`](super::VariantEncoder): a serde `Serializer` that
//! interns a key's text in the value's dictionary and gives its id.

use serde::ser::{self, Impossible, Serialize};

use crate::error::{Error, Result};

use super::blob;
use super::intern::Names;
use super::ser::{key_text, VariantSerializer};
use super::value::Variant;
use crate::reject::reject_containers;

/// Interns a map key: strings directly; chars, integers and booleans through their text;
/// anything else through [`to_variant`](super::to_variant)'s key rule (so both paths agree
/// on what is a key and what is an error).
pub(super) struct KeyId<'a> {
    pub(super) names: &'a mut Names,
    /// Room for a key's text (cleared before each use).
    pub(super) text: &'a mut String,
}

impl KeyId<'_> {
    /// Containers are not keys.
    fn reject(&self) -> Error {
        super::ser::key_error()
    }

    fn owned(self, v: Result<Variant>) -> Result<u32> {
        let text = key_text(v?)?;
        Ok(self.names.intern(&text))
    }
    fn int(self, v: impl std::fmt::Display) -> Result<u32> {
        use std::fmt::Write;
        self.text.clear();
        // Writing to a String cannot fail.
        let _ = write!(self.text, "{v}");
        Ok(self.names.intern(self.text))
    }
}

impl ser::Serializer for KeyId<'_> {
    type Ok = u32;
    type Error = Error;
    type SerializeSeq = Impossible<u32, Error>;
    type SerializeTuple = Impossible<u32, Error>;
    type SerializeTupleStruct = Impossible<u32, Error>;
    type SerializeTupleVariant = Impossible<u32, Error>;
    type SerializeMap = Impossible<u32, Error>;
    type SerializeStruct = Impossible<u32, Error>;
    type SerializeStructVariant = Impossible<u32, Error>;

    fn serialize_str(self, v: &str) -> Result<u32> {
        Ok(self.names.intern(v))
    }
    fn serialize_char(self, v: char) -> Result<u32> {
        Ok(self.names.intern(v.encode_utf8(&mut [0u8; 4])))
    }
    fn serialize_bool(self, v: bool) -> Result<u32> {
        Ok(self.names.intern(if v { "true" } else { "false" }))
    }
    fn serialize_i8(self, v: i8) -> Result<u32> {
        self.int(v)
    }
    fn serialize_i16(self, v: i16) -> Result<u32> {
        self.int(v)
    }
    fn serialize_i32(self, v: i32) -> Result<u32> {
        self.int(v)
    }
    fn serialize_i64(self, v: i64) -> Result<u32> {
        self.int(v)
    }
    fn serialize_u8(self, v: u8) -> Result<u32> {
        self.int(v)
    }
    fn serialize_u16(self, v: u16) -> Result<u32> {
        self.int(v)
    }
    fn serialize_u32(self, v: u32) -> Result<u32> {
        self.int(v)
    }
    fn serialize_u64(self, v: u64) -> Result<u32> {
        self.int(v)
    }
    fn serialize_i128(self, v: i128) -> Result<u32> {
        self.owned(ser::Serializer::serialize_i128(VariantSerializer, v))
    }
    fn serialize_u128(self, v: u128) -> Result<u32> {
        self.owned(ser::Serializer::serialize_u128(VariantSerializer, v))
    }
    fn serialize_f32(self, v: f32) -> Result<u32> {
        self.owned(ser::Serializer::serialize_f32(VariantSerializer, v))
    }
    fn serialize_f64(self, v: f64) -> Result<u32> {
        self.owned(ser::Serializer::serialize_f64(VariantSerializer, v))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<u32> {
        self.owned(ser::Serializer::serialize_bytes(VariantSerializer, v))
    }
    fn serialize_none(self) -> Result<u32> {
        self.owned(ser::Serializer::serialize_none(VariantSerializer))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<u32> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<u32> {
        self.owned(ser::Serializer::serialize_unit(VariantSerializer))
    }
    fn serialize_unit_struct(self, name: &'static str) -> Result<u32> {
        self.owned(ser::Serializer::serialize_unit_struct(
            VariantSerializer,
            name,
        ))
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<u32> {
        Ok(self.names.intern_static(variant))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<u32> {
        if name == blob::TOKEN {
            return self.owned(ser::Serializer::serialize_newtype_struct(
                VariantSerializer,
                name,
                value,
            ));
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<u32> {
        self.owned(ser::Serializer::serialize_newtype_variant(
            VariantSerializer,
            name,
            index,
            variant,
            value,
        ))
    }
    reject_containers!();
    fn is_human_readable(&self) -> bool {
        false
    }
}
