//! The decode/encode traits, their entry points, and how each Thrift value type maps to Rust.

use super::compact::{CompactReader, CompactWriter, DecodeLimits, WireType};
use super::enums::{
    BoundaryOrder, CompressionCodec, ConvertedType, EdgeInterpolationAlgorithm, Encoding,
    FieldRepetitionType, PageType, Type,
};
use crate::{Error, Result};

/// A Thrift struct or union that can be read from the compact protocol.
///
/// The lifetime is that of the input bytes; the structures of this module own their data, but
/// the trait leaves room for borrowing ones.
pub trait ThriftDecode<'a>: Sized {
    /// Reads one value (a whole struct, stop byte included).
    fn decode(r: &mut CompactReader<'a>) -> Result<Self>;
}

/// A Thrift struct or union that can be written in the compact protocol.
pub trait ThriftEncode {
    /// Writes the whole value, stop byte included.
    fn encode(&self, w: &mut CompactWriter);
}

/// Decodes one `T` from the start of `bytes` with [`DecodeLimits::default`].
///
/// Returns the value and the number of bytes it took: whatever follows (page data after a page
/// header, a bitset after a Bloom filter header) is left alone.
pub fn decode<'a, T: ThriftDecode<'a>>(bytes: &'a [u8]) -> Result<(T, usize)> {
    decode_with_limits(bytes, DecodeLimits::default())
}

/// Like [`decode`] with explicit limits.
pub fn decode_with_limits<'a, T: ThriftDecode<'a>>(
    bytes: &'a [u8],
    limits: DecodeLimits,
) -> Result<(T, usize)> {
    let mut r = CompactReader::with_limits(bytes, limits);
    let value = T::decode(&mut r)?;
    Ok((value, r.position()))
}

/// Appends the compact encoding of `value` to `out`.
pub fn encode<T: ThriftEncode + ?Sized>(value: &T, out: &mut Vec<u8>) {
    let mut w = CompactWriter::with_buffer(std::mem::take(out));
    value.encode(&mut w);
    *out = w.into_inner();
}

/// The error for a required field that is absent.
pub(crate) fn missing_field(strct: &str, field: &str, id: i16, offset: usize) -> Error {
    let field = field.strip_prefix("r#").unwrap_or(field);
    Error::corrupt(format!(
        "thrift: required field {strct}.{field} (id {id}) is missing"
    ))
    .with_offset(offset as u64)
}

/// Reads the one member header of a union (after `struct_begin`); a union with no member is
/// an error.
pub(crate) fn union_member(
    r: &mut CompactReader<'_>,
    union: &str,
    last_id: &mut i16,
) -> Result<(WireType, i16)> {
    match r.field_begin(last_id)? {
        Some(member) => Ok(member),
        None => Err(r.error(format!("thrift: union {union} has no member set"))),
    }
}

/// Checks the wire type of a known union member (all parquet.thrift members are structs).
pub(crate) fn union_member_is_struct(
    r: &CompactReader<'_>,
    union: &str,
    id: i16,
    wire: WireType,
) -> Result<()> {
    if wire == WireType::Struct {
        Ok(())
    } else {
        Err(r.error(format!(
            "thrift: union {union} member {id} has wire type {wire:?}, not a struct"
        )))
    }
}

/// Reads the stop byte after a union's member; a second member is an error.
pub(crate) fn union_end(r: &mut CompactReader<'_>, union: &str, last_id: &mut i16) -> Result<()> {
    match r.field_begin(last_id)? {
        None => {
            r.struct_end();
            Ok(())
        }
        Some((_, id)) => Err(r.error(format!(
            "thrift: union {union} has more than one member set (also id {id})"
        ))),
    }
}

/// The wire type a Rust field type is written as.
pub(crate) trait Wire {
    /// The wire type.
    const WIRE: WireType;
}

/// A value that can be read as a struct field or list element.
pub(crate) trait FieldDecode<'a>: Wire + Sized {
    /// Reads the value (the field header is already read).
    fn read(r: &mut CompactReader<'a>) -> Result<Self>;
}

/// A value that can be written as a struct field or list element.
pub(crate) trait FieldEncode: Wire {
    /// Writes the value alone (as a list element).
    fn write(&self, w: &mut CompactWriter);

    /// Writes a field header with `id`, then the value.
    #[inline]
    fn write_field(&self, id: i16, w: &mut CompactWriter) {
        w.write_field_header(Self::WIRE, id);
        self.write(w);
    }
}

macro_rules! primitive_field {
    ($ty:ty, $wire:ident, $read:ident, $write:ident) => {
        impl Wire for $ty {
            const WIRE: WireType = WireType::$wire;
        }
        impl<'a> FieldDecode<'a> for $ty {
            #[inline]
            fn read(r: &mut CompactReader<'a>) -> Result<Self> {
                r.$read()
            }
        }
        impl FieldEncode for $ty {
            #[inline]
            fn write(&self, w: &mut CompactWriter) {
                w.$write(*self)
            }
        }
    };
}

primitive_field!(i8, I8, read_i8, write_i8);
primitive_field!(i16, I16, read_i16, write_i16);
primitive_field!(i32, I32, read_i32, write_i32);
primitive_field!(i64, I64, read_i64, write_i64);
primitive_field!(f64, Double, read_double, write_double);

impl Wire for bool {
    const WIRE: WireType = WireType::Bool;
}
impl<'a> FieldDecode<'a> for bool {
    #[inline]
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        r.read_bool()
    }
}
impl FieldEncode for bool {
    #[inline]
    fn write(&self, w: &mut CompactWriter) {
        w.write_bool(*self)
    }
    #[inline]
    fn write_field(&self, id: i16, w: &mut CompactWriter) {
        w.write_bool_field(id, *self)
    }
}

impl Wire for String {
    const WIRE: WireType = WireType::Binary;
}
impl<'a> FieldDecode<'a> for String {
    /// Invalid UTF-8 is replaced (U+FFFD) rather than rejected: some writers put arbitrary
    /// bytes in strings such as `created_by` or key/value metadata.
    #[inline]
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        Ok(String::from_utf8_lossy(r.read_binary()?).into_owned())
    }
}
impl FieldEncode for String {
    #[inline]
    fn write(&self, w: &mut CompactWriter) {
        w.write_str(self)
    }
}

impl Wire for Vec<u8> {
    const WIRE: WireType = WireType::Binary;
}
impl<'a> FieldDecode<'a> for Vec<u8> {
    #[inline]
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        Ok(r.read_binary()?.to_vec())
    }
}
impl FieldEncode for Vec<u8> {
    #[inline]
    fn write(&self, w: &mut CompactWriter) {
        w.write_binary(self)
    }
}

/// At most this many bytes are reserved for a list before its elements are read, so a count
/// that passes the bytes-left check still cannot reserve much for large element types.
const MAX_PREALLOC_BYTES: usize = 1 << 20;

impl<T: Wire> Wire for Vec<T> {
    const WIRE: WireType = WireType::List;
}
impl<'a, T: FieldDecode<'a>> FieldDecode<'a> for Vec<T> {
    fn read(r: &mut CompactReader<'a>) -> Result<Self> {
        let (elem, len) = r.list_begin()?;
        if len == 0 {
            return Ok(Vec::new());
        }
        if elem != T::WIRE {
            return Err(r.error(format!(
                "thrift: list of {elem:?} where a list of {:?} was expected",
                T::WIRE
            )));
        }
        let cap = len.min((MAX_PREALLOC_BYTES / std::mem::size_of::<T>().max(1)).max(1));
        let mut out = Vec::with_capacity(cap);
        for _ in 0..len {
            out.push(T::read(r)?);
        }
        Ok(out)
    }
}
impl<T: FieldEncode> FieldEncode for Vec<T> {
    fn write(&self, w: &mut CompactWriter) {
        w.write_list_header(T::WIRE, self.len());
        for item in self {
            item.write(w);
        }
    }
}

macro_rules! enum_field {
    ($($ty:ident),*) => {$(
        impl Wire for $ty {
            const WIRE: WireType = WireType::I32;
        }
        impl<'a> FieldDecode<'a> for $ty {
            #[inline]
            fn read(r: &mut CompactReader<'a>) -> Result<Self> {
                Ok($ty::from_i32(r.read_i32()?))
            }
        }
        impl FieldEncode for $ty {
            #[inline]
            fn write(&self, w: &mut CompactWriter) {
                w.write_i32(self.to_i32())
            }
        }
    )*};
}

enum_field!(
    Type,
    ConvertedType,
    FieldRepetitionType,
    Encoding,
    CompressionCodec,
    PageType,
    BoundaryOrder,
    EdgeInterpolationAlgorithm
);
