//! VARIANT groups on the write path: serde's value at a VARIANT node is encoded whole as a
//! Variant (through [`to_variant`](crate::variant::to_variant)) into the group's `metadata`
//! and `value` columns; `None` at the top makes the group null, anything else (a unit, a
//! JSON null) is a present Variant null.

use serde::ser::{self, Impossible, Serialize};

use crate::error::{Error, Result};
use crate::variant::{blob, to_variant};

use super::plan::Kind;
use super::serializer::At;
use super::shredder::Shredder;

/// Serializes `value` at `node`: a Variant for a VARIANT node, else the ordinary shredding.
#[inline]
pub(crate) fn put<T: Serialize + ?Sized>(
    sh: &mut Shredder,
    node: u32,
    rep: i16,
    value: &T,
) -> Result<()> {
    let Kind::Variant { metadata, value: v } = sh.nodes[node as usize].kind else {
        return value.serialize(At::new(sh, node, rep));
    };
    if value.serialize(IsNone).unwrap_or(false) {
        return sh.null_at(node, rep);
    }
    let variant = to_variant(value).map_err(|e| sh.locate(e, node))?;
    let (m, b) = variant.encode();
    sh.put_bytes(metadata, rep, &m)?;
    sh.put_bytes(v, rep, &b)
}

/// Answers whether a value serializes as serde's `None` (looking through newtypes only).
struct IsNone;

/// Ends the look at the first compound value.
fn compound() -> Error {
    Error::data("compound")
}

macro_rules! not_none {
    ($($m:ident($($t:ty),*)),*) => {$(
        fn $m(self, $(_: $t),*) -> Result<bool> { Ok(false) }
    )*};
}

impl ser::Serializer for IsNone {
    type Ok = bool;
    type Error = Error;
    type SerializeSeq = Impossible<bool, Error>;
    type SerializeTuple = Impossible<bool, Error>;
    type SerializeTupleStruct = Impossible<bool, Error>;
    type SerializeTupleVariant = Impossible<bool, Error>;
    type SerializeMap = Impossible<bool, Error>;
    type SerializeStruct = Impossible<bool, Error>;
    type SerializeStructVariant = Impossible<bool, Error>;

    fn serialize_none(self) -> Result<bool> {
        Ok(true)
    }
    not_none!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str)
    );
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<bool> {
        Ok(false)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<bool> {
        if name == blob::TOKEN {
            return Ok(false);
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<bool> {
        Ok(false)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(compound())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(compound())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(compound())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(compound())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(compound())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(compound())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(compound())
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}
