//! How a [`Variant`] passes through serde unchanged between this crate's own serializers and
//! deserializers: a newtype struct named [`TOKEN`] holding the metadata length (4 bytes,
//! little-endian), the metadata and the value. Human-readable formats never see it.

use serde::ser::{self, Impossible, Serialize};

use crate::error::{Error, Result};

use super::value::Variant;
use crate::reject::{reject, reject_containers};

/// The newtype-struct name that marks a Variant's own bytes.
pub(crate) const TOKEN: &str = "$parquet_serde::private::Variant";

/// The framed bytes of `v`.
pub(crate) fn encode(v: &Variant) -> Vec<u8> {
    let (metadata, value) = v.encode();
    frame(&metadata, &value)
}

/// Frames metadata and value bytes.
pub(crate) fn frame(metadata: &[u8], value: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(4 + metadata.len() + value.len());
    out.extend_from_slice(&(metadata.len() as u32).to_le_bytes());
    out.extend_from_slice(metadata);
    out.extend_from_slice(value);
    out
}

/// The metadata and value bytes of a frame.
pub(crate) fn split(bytes: &[u8]) -> Result<(&[u8], &[u8])> {
    let bad = || Error::corrupt("malformed variant frame");
    let len: [u8; 4] = bytes
        .get(..4)
        .and_then(|b| b.try_into().ok())
        .ok_or_else(bad)?;
    let len = u32::from_le_bytes(len) as usize;
    let rest = &bytes[4..];
    if len > rest.len() {
        return Err(bad());
    }
    Ok(rest.split_at(len))
}

/// Decodes a frame.
pub(crate) fn decode(bytes: &[u8]) -> Result<Variant> {
    let (metadata, value) = split(bytes)?;
    Variant::decode(metadata, value)
}

/// `Serialize` of a frame: its bytes.
pub(crate) struct Frame<'a>(pub &'a [u8]);

impl Serialize for Frame<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

/// A serializer that accepts bytes only: takes a frame back out of [`Frame`].
pub(crate) struct Capture;

impl Capture {
    fn reject(&self) -> Error {
        Error::data("expected the bytes of a variant")
    }
}

impl ser::Serializer for Capture {
    type Ok = Vec<u8>;
    type Error = Error;
    type SerializeSeq = Impossible<Vec<u8>, Error>;
    type SerializeTuple = Impossible<Vec<u8>, Error>;
    type SerializeTupleStruct = Impossible<Vec<u8>, Error>;
    type SerializeTupleVariant = Impossible<Vec<u8>, Error>;
    type SerializeMap = Impossible<Vec<u8>, Error>;
    type SerializeStruct = Impossible<Vec<u8>, Error>;
    type SerializeStructVariant = Impossible<Vec<u8>, Error>;

    fn serialize_bytes(self, v: &[u8]) -> Result<Vec<u8>> {
        Ok(v.to_vec())
    }
    reject!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str)
    );
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<Vec<u8>> {
        Err(self.reject())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<Vec<u8>> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Vec<u8>> {
        Err(self.reject())
    }
    reject_containers!();
}
