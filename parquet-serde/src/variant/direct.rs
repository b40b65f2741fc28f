//! The serde `Serializer` of [`VariantEncoder`](super::VariantEncoder): each call appends
//! a value's bytes to the encoder's buffer (the mapping of [`to_variant`](super::to_variant),
//! checked against it by the tests).

use serde::ser::{self, Serialize};

use crate::error::{Error, Result};

use super::blob;
use super::encode::encode_str;
use super::encoder::{len32, VariantEncoder};
use super::key::KeyId;
use super::value::MAX_DECIMAL16;
use super::view::{ValueRef, VariantRef, MAX_DEPTH, SHORT_STRING};

/// Writes one value into the encoder.
pub(super) struct Direct<'a> {
    pub(super) enc: &'a mut VariantEncoder,
}

#[inline]
pub(super) fn primitive(out: &mut Vec<u8>, type_id: u8, bytes: &[u8]) {
    out.push(type_id << 2);
    out.extend_from_slice(bytes);
}

/// The narrowest of int8, int16, int32, int64 (as [`Variant::int`]).
#[inline]
pub(super) fn int(out: &mut Vec<u8>, x: i64) {
    if let Ok(v) = i8::try_from(x) {
        primitive(out, 3, &v.to_le_bytes());
    } else if let Ok(v) = i16::try_from(x) {
        primitive(out, 4, &v.to_le_bytes());
    } else if let Ok(v) = i32::try_from(x) {
        primitive(out, 5, &v.to_le_bytes());
    } else {
        primitive(out, 6, &x.to_le_bytes());
    }
}

/// An integer beyond `i64`: a decimal16 of scale 0 (an error above 38 digits).
pub(super) fn wide(out: &mut Vec<u8>, v: i128) -> Result<()> {
    if let Ok(x) = i64::try_from(v) {
        int(out, x);
        return Ok(());
    }
    if v.unsigned_abs() > MAX_DECIMAL16 {
        return Err(Error::data(format!(
            "{v} has more than the 38 digits of a variant decimal"
        )));
    }
    out.push(10 << 2);
    out.push(0);
    out.extend_from_slice(&v.to_le_bytes());
    Ok(())
}

impl<'a> Direct<'a> {
    fn out(&mut self) -> &mut Vec<u8> {
        &mut self.enc.value
    }

    /// Starts an object of one field named `variant` (an enum's newtype, tuple or struct
    /// variant); returns where it starts and its field stack base.
    fn open_wrapper(&mut self, variant: &'static str) -> (usize, usize) {
        let start = self.enc.value.len();
        let base = self.enc.fields.len();
        let id = self.enc.names.intern_static(variant);
        self.enc.push_field(id, 0);
        (start, base)
    }

    fn seq(self, len: Option<usize>, wrap: Option<(usize, usize)>) -> Compound<'a> {
        let start = self.enc.value.len();
        let base = self.enc.offsets.len();
        self.enc.offsets.reserve(len.unwrap_or(0).min(4096));
        Compound {
            enc: self.enc,
            start,
            base,
            wrap,
            key: 0,
        }
    }

    fn map(self, wrap: Option<(usize, usize)>) -> Compound<'a> {
        let start = self.enc.value.len();
        let base = self.enc.fields.len();
        Compound {
            enc: self.enc,
            start,
            base,
            wrap,
            key: u32::MAX,
        }
    }

    /// Writes a value held as Variant bytes, re-encoding its objects against this
    /// encoder's dictionary (its primitives are copied as they are).
    fn embedded(&mut self, v: VariantRef<'_>, depth: usize) -> Result<()> {
        match v.value()? {
            ValueRef::Array(a) => {
                let depth = deeper(depth)?;
                let start = self.enc.value.len();
                let base = self.enc.offsets.len();
                for item in a.iter() {
                    self.enc.offsets.push(self.enc.value.len() - start);
                    self.embedded(item?, depth)?;
                }
                self.enc.finish_array(start, base)
            }
            ValueRef::Object(o) => {
                let depth = deeper(depth)?;
                let start = self.enc.value.len();
                let base = self.enc.fields.len();
                for f in o.iter() {
                    let (name, item) = f?;
                    let id = self.enc.names.intern(name);
                    self.enc.push_field(id, self.enc.value.len() - start);
                    self.embedded(item, depth)?;
                }
                self.enc.finish_object(start, base)
            }
            _ => {
                self.out().extend_from_slice(v.value_bytes());
                Ok(())
            }
        }
    }
}

pub(super) fn deeper(depth: usize) -> Result<usize> {
    if depth >= MAX_DEPTH {
        return Err(Error::data(format!(
            "a variant nested deeper than {MAX_DEPTH} arrays and objects"
        )));
    }
    Ok(depth + 1)
}

impl<'a> ser::Serializer for Direct<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(mut self, v: bool) -> Result<()> {
        self.out().push(if v { 1 << 2 } else { 2 << 2 });
        Ok(())
    }
    fn serialize_i8(mut self, v: i8) -> Result<()> {
        primitive(self.out(), 3, &v.to_le_bytes());
        Ok(())
    }
    fn serialize_i16(mut self, v: i16) -> Result<()> {
        int(self.out(), v.into());
        Ok(())
    }
    fn serialize_i32(mut self, v: i32) -> Result<()> {
        int(self.out(), v.into());
        Ok(())
    }
    fn serialize_i64(mut self, v: i64) -> Result<()> {
        int(self.out(), v);
        Ok(())
    }
    fn serialize_i128(mut self, v: i128) -> Result<()> {
        wide(self.out(), v)
    }
    fn serialize_u8(mut self, v: u8) -> Result<()> {
        int(self.out(), v.into());
        Ok(())
    }
    fn serialize_u16(mut self, v: u16) -> Result<()> {
        int(self.out(), v.into());
        Ok(())
    }
    fn serialize_u32(mut self, v: u32) -> Result<()> {
        int(self.out(), v.into());
        Ok(())
    }
    fn serialize_u64(mut self, v: u64) -> Result<()> {
        wide(self.out(), v.into())
    }
    fn serialize_u128(mut self, v: u128) -> Result<()> {
        let v = i128::try_from(v)
            .map_err(|_| Error::data(format!("{v} is too large for a variant")))?;
        wide(self.out(), v)
    }
    fn serialize_f32(mut self, v: f32) -> Result<()> {
        primitive(self.out(), 14, &v.to_le_bytes());
        Ok(())
    }
    fn serialize_f64(mut self, v: f64) -> Result<()> {
        primitive(self.out(), 7, &v.to_le_bytes());
        Ok(())
    }
    fn serialize_char(mut self, v: char) -> Result<()> {
        let mut b = [0u8; 4];
        let s = v.encode_utf8(&mut b);
        self.out().push(SHORT_STRING | ((s.len() as u8) << 2));
        self.out().extend_from_slice(s.as_bytes());
        Ok(())
    }
    fn serialize_str(mut self, v: &str) -> Result<()> {
        encode_str(v, self.out())
    }
    fn serialize_bytes(mut self, v: &[u8]) -> Result<()> {
        let n = len32(v.len(), "binary length")? as u32;
        let out = self.out();
        primitive(out, 15, &n.to_le_bytes());
        out.extend_from_slice(v);
        Ok(())
    }
    fn serialize_none(mut self) -> Result<()> {
        self.out().push(0);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(mut self) -> Result<()> {
        self.out().push(0);
        Ok(())
    }
    fn serialize_unit_struct(mut self, _name: &'static str) -> Result<()> {
        self.out().push(0);
        Ok(())
    }
    fn serialize_unit_variant(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        encode_str(variant, self.out())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        mut self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        if name == blob::TOKEN {
            let bytes = value.serialize(blob::Capture)?;
            let (metadata, v) = blob::split(&bytes)?;
            return self.embedded(VariantRef::new(metadata, v)?, 0);
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        let (start, base) = self.open_wrapper(variant);
        value.serialize(Direct { enc: self.enc })?;
        self.enc.finish_object(start, base)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a>> {
        Ok(self.seq(len, None))
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>> {
        Ok(self.seq(Some(len), None))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>> {
        Ok(self.seq(Some(len), None))
    }
    fn serialize_tuple_variant(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>> {
        let wrap = self.open_wrapper(variant);
        Ok(self.seq(Some(len), Some(wrap)))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a>> {
        Ok(self.map(None))
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Compound<'a>> {
        Ok(self.map(None))
    }
    fn serialize_struct_variant(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>> {
        let wrap = self.open_wrapper(variant);
        Ok(self.map(Some(wrap)))
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

/// An array or object being written (or the one of an enum variant, inside the object
/// that names the variant).
#[doc(hidden)]
pub struct Compound<'a> {
    enc: &'a mut VariantEncoder,
    /// Where the members start.
    start: usize,
    /// Where this container's offsets (arrays) or fields (objects) start on their stack.
    base: usize,
    /// The start and field base of the enum-variant object around this container.
    wrap: Option<(usize, usize)>,
    /// The id of the map key waiting for its value (`u32::MAX`: none).
    key: u32,
}

impl Compound<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let at = self.enc.value.len() - self.start;
        self.enc.offsets.push(at);
        value.serialize(Direct { enc: self.enc })
    }

    fn field<T: Serialize + ?Sized>(&mut self, id: u32, value: &T) -> Result<()> {
        let at = self.enc.value.len() - self.start;
        self.enc.push_field(id, at);
        value.serialize(Direct { enc: self.enc })
    }

    fn end_array(self) -> Result<()> {
        self.enc.finish_array(self.start, self.base)?;
        self.end_wrap()
    }

    fn end_object(self) -> Result<()> {
        self.enc.finish_object(self.start, self.base)?;
        self.end_wrap()
    }

    fn end_wrap(self) -> Result<()> {
        match self.wrap {
            Some((start, base)) => self.enc.finish_object(start, base),
            None => Ok(()),
        }
    }
}

macro_rules! seq_impl {
    ($($tr:ident :: $m:ident),*) => {$(
        impl ser::$tr for Compound<'_> {
            type Ok = ();
            type Error = Error;
            fn $m<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                self.element(value)
            }
            fn end(self) -> Result<()> {
                self.end_array()
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

impl Compound<'_> {
    /// The id of a map key (interned).
    #[inline]
    fn key_id<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<u32> {
        let enc = &mut *self.enc;
        key.serialize(KeyId {
            names: &mut enc.names,
            text: &mut enc.key,
        })
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.key = self.key_id(key)?;
        Ok(())
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<()> {
        let id = self.key_id(key)?;
        self.field(id, value)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        if self.key == u32::MAX {
            return Err(Error::data("a map value came before its key"));
        }
        let id = std::mem::replace(&mut self.key, u32::MAX);
        self.field(id, value)
    }
    fn end(self) -> Result<()> {
        self.end_object()
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        let id = self.enc.names.intern_static(key);
        self.field(id, value)
    }
    fn end(self) -> Result<()> {
        self.end_object()
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    fn end(self) -> Result<()> {
        self.end_object()
    }
}
