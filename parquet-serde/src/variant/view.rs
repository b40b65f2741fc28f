//! [`VariantRef`]: a borrowed Variant that decodes lazily from its metadata and value bytes.
//! Every header, count, offset, id and length is checked before it is used; nested values
//! are only looked at when asked for.

use std::collections::BTreeMap;

use crate::error::{Error, Result};

use super::metadata::{read_uint, Metadata};
use super::value::{Variant, MAX_DECIMAL_DIGITS};

/// Deepest nesting of arrays and objects decoded into owned values (deeper input is
/// refused, so hostile bytes cannot exhaust the stack).
pub const MAX_DEPTH: usize = 128;

/// Basic types (the low 2 bits of a value's first byte).
pub(crate) const PRIMITIVE: u8 = 0;
pub(crate) const SHORT_STRING: u8 = 1;
pub(crate) const OBJECT: u8 = 2;
pub(crate) const ARRAY: u8 = 3;

/// A Variant value borrowed from its bytes: the metadata (checked whole) and one value
/// (its header and extent checked; what it holds decoded on demand).
///
/// ```
/// use parquet_serde::__internals::variant::{ValueRef, VariantRef};
/// use parquet_serde::variant::Variant;
/// let v = Variant::object([("status", Variant::Int16(500)), ("path", "/a".into())]);
/// let (metadata, value) = v.encode();
/// let view = VariantRef::new(&metadata, &value)?;
/// let status = view.get("status")?.expect("field");
/// assert!(matches!(status.value()?, ValueRef::Int16(500)));
/// assert_eq!(view.to_variant()?, v);
/// # Ok::<(), parquet_serde::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct VariantRef<'a> {
    pub(super) metadata: Metadata<'a>,
    /// Exactly the bytes of this value.
    pub(super) value: &'a [u8],
}

/// What a [`VariantRef`] holds: a primitive (strings and binary borrowed), or an object or
/// array whose members are decoded when asked for.
#[derive(Debug, Clone, Copy)]
pub enum ValueRef<'a> {
    /// null.
    Null,
    /// boolean.
    Bool(bool),
    /// int8.
    Int8(i8),
    /// int16.
    Int16(i16),
    /// int32.
    Int32(i32),
    /// int64.
    Int64(i64),
    /// float.
    Float(f32),
    /// double.
    Double(f64),
    /// decimal4: unscaled value and scale.
    Decimal4(i32, u8),
    /// decimal8: unscaled value and scale.
    Decimal8(i64, u8),
    /// decimal16: unscaled value and scale.
    Decimal16(i128, u8),
    /// date: days since 1970-01-01.
    Date(i32),
    /// time without time zone, microseconds.
    Time(i64),
    /// timestamp with time zone, microseconds.
    TimestampMicros(i64),
    /// timestamp without time zone, microseconds.
    TimestampNtzMicros(i64),
    /// timestamp with time zone, nanoseconds.
    TimestampNanos(i64),
    /// timestamp without time zone, nanoseconds.
    TimestampNtzNanos(i64),
    /// binary.
    Binary(&'a [u8]),
    /// string or short string.
    String(&'a str),
    /// uuid (big-endian bytes).
    Uuid([u8; 16]),
    /// array.
    Array(ArrayRef<'a>),
    /// object.
    Object(ObjectRef<'a>),
}

/// The members of an array value.
#[derive(Debug, Clone, Copy)]
pub struct ArrayRef<'a> {
    metadata: Metadata<'a>,
    len: usize,
    offset_size: usize,
    offsets: &'a [u8],
    fields: &'a [u8],
}

/// The fields of an object value, in the encoding's order (sorted by name).
#[derive(Debug, Clone, Copy)]
pub struct ObjectRef<'a> {
    metadata: Metadata<'a>,
    len: usize,
    id_size: usize,
    offset_size: usize,
    ids: &'a [u8],
    offsets: &'a [u8],
    fields: &'a [u8],
}

pub(super) fn corrupt(what: impl std::fmt::Display) -> Error {
    Error::corrupt(format!("variant value: {what}"))
}

/// Header of an object or array: element count, bytes of the count, id size (0 for
/// arrays), offset size, bytes before the values, bytes of the values.
pub(super) struct Container {
    pub(super) len: usize,
    pub(super) count_size: usize,
    pub(super) id_size: usize,
    pub(super) offset_size: usize,
    pub(super) head: usize,
    pub(super) body: usize,
}

pub(super) fn container(bytes: &[u8], basic: u8, header: u8) -> Result<Container> {
    let (is_large, id_size, offset_size) = if basic == OBJECT {
        (
            header & 0x10 != 0,
            usize::from((header >> 2) & 3) + 1,
            usize::from(header & 3) + 1,
        )
    } else {
        if header & 0x38 != 0 {
            return Err(corrupt("array header has reserved bits set"));
        }
        (header & 0x04 != 0, 0, usize::from(header & 3) + 1)
    };
    let count_size = if is_large { 4 } else { 1 };
    let len =
        read_uint(bytes, 1, count_size).ok_or_else(|| corrupt("element count is cut short"))?;
    // ids and offsets must fit in the bytes before anything is sized by `len`.
    let offsets_at = len
        .checked_mul(id_size)
        .and_then(|n| n.checked_add(1 + count_size))
        .ok_or_else(|| corrupt("element count overflows"))?;
    let head = len
        .checked_add(1)
        .and_then(|n| n.checked_mul(offset_size))
        .and_then(|n| n.checked_add(offsets_at))
        .filter(|&h| h <= bytes.len())
        .ok_or_else(|| {
            corrupt(format!(
                "{len} elements do not fit in {} bytes",
                bytes.len()
            ))
        })?;
    let body = read_uint(bytes, head - offset_size, offset_size)
        .ok_or_else(|| corrupt("last offset is cut short"))?;
    Ok(Container {
        len,
        count_size,
        id_size,
        offset_size,
        head,
        body,
    })
}

/// The byte length of the value starting at `bytes[0]`, from its header (no member is
/// looked at); an error when the header is unknown or the value runs past `bytes`.
pub(crate) fn value_size(bytes: &[u8]) -> Result<usize> {
    let &first = bytes.first().ok_or_else(|| corrupt("empty value"))?;
    let basic = first & 3;
    let header = first >> 2;
    let size = match basic {
        PRIMITIVE => match header {
            0..=2 => 1,
            3 => 2,
            4 => 3,
            5 | 11 | 14 => 5,
            6 | 7 | 12 | 13 | 17 | 18 | 19 => 9,
            8 => 6,
            9 => 10,
            10 => 18,
            15 | 16 => {
                let n = read_uint(bytes, 1, 4).ok_or_else(|| corrupt("length is cut short"))?;
                n.checked_add(5)
                    .ok_or_else(|| corrupt("length overflows"))?
            }
            20 => 17,
            other => return Err(corrupt(format!("unknown primitive type {other}"))),
        },
        SHORT_STRING => 1 + usize::from(header),
        _ => {
            let c = container(bytes, basic, header)?;
            c.head
                .checked_add(c.body)
                .ok_or_else(|| corrupt("size overflows"))?
        }
    };
    if size > bytes.len() {
        return Err(corrupt(format!(
            "a value of {size} bytes in {} bytes",
            bytes.len()
        )));
    }
    Ok(size)
}

fn fixed<const N: usize>(bytes: &[u8], at: usize) -> Result<[u8; N]> {
    bytes
        .get(at..at + N)
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| corrupt("primitive is cut short"))
}

fn scale(bytes: &[u8]) -> Result<u8> {
    let s = *bytes
        .get(1)
        .ok_or_else(|| corrupt("decimal is cut short"))?;
    if s > MAX_DECIMAL_DIGITS {
        return Err(corrupt(format!("decimal scale {s} is above 38")));
    }
    Ok(s)
}

impl<'a> VariantRef<'a> {
    /// Checks `metadata` whole and the header and extent of `value` (which must be exactly
    /// one value).
    pub fn new(metadata: &'a [u8], value: &'a [u8]) -> Result<VariantRef<'a>> {
        VariantRef::with_metadata(Metadata::new(metadata)?, value)
    }

    /// A view of `value` with already checked metadata.
    pub fn with_metadata(metadata: Metadata<'a>, value: &'a [u8]) -> Result<VariantRef<'a>> {
        let size = value_size(value)?;
        if size != value.len() {
            return Err(corrupt(format!(
                "{} bytes after a value of {size} bytes",
                value.len() - size
            )));
        }
        Ok(VariantRef { metadata, value })
    }

    /// The metadata.
    pub fn metadata(&self) -> Metadata<'a> {
        self.metadata
    }

    /// The bytes of this value (exactly its extent).
    pub fn value_bytes(&self) -> &'a [u8] {
        self.value
    }

    /// Decodes this value's type and primitive (members of objects and arrays are not
    /// looked at).
    pub fn value(&self) -> Result<ValueRef<'a>> {
        let b = self.value;
        let first = b[0];
        let header = first >> 2;
        Ok(match first & 3 {
            PRIMITIVE => match header {
                0 => ValueRef::Null,
                1 => ValueRef::Bool(true),
                2 => ValueRef::Bool(false),
                3 => ValueRef::Int8(i8::from_le_bytes(fixed(b, 1)?)),
                4 => ValueRef::Int16(i16::from_le_bytes(fixed(b, 1)?)),
                5 => ValueRef::Int32(i32::from_le_bytes(fixed(b, 1)?)),
                6 => ValueRef::Int64(i64::from_le_bytes(fixed(b, 1)?)),
                7 => ValueRef::Double(f64::from_le_bytes(fixed(b, 1)?)),
                8 => ValueRef::Decimal4(i32::from_le_bytes(fixed(b, 2)?), scale(b)?),
                9 => ValueRef::Decimal8(i64::from_le_bytes(fixed(b, 2)?), scale(b)?),
                10 => {
                    let v = i128::from_le_bytes(fixed(b, 2)?);
                    if v.unsigned_abs() > super::value::MAX_DECIMAL16 {
                        return Err(corrupt("decimal16 has more than 38 digits"));
                    }
                    ValueRef::Decimal16(v, scale(b)?)
                }
                11 => ValueRef::Date(i32::from_le_bytes(fixed(b, 1)?)),
                12 => ValueRef::TimestampMicros(i64::from_le_bytes(fixed(b, 1)?)),
                13 => ValueRef::TimestampNtzMicros(i64::from_le_bytes(fixed(b, 1)?)),
                14 => ValueRef::Float(f32::from_le_bytes(fixed(b, 1)?)),
                15 => ValueRef::Binary(&b[5..]),
                16 => ValueRef::String(
                    std::str::from_utf8(&b[5..])
                        .map_err(|e| corrupt("string is not UTF-8").with_source(e))?,
                ),
                17 => ValueRef::Time(i64::from_le_bytes(fixed(b, 1)?)),
                18 => ValueRef::TimestampNanos(i64::from_le_bytes(fixed(b, 1)?)),
                19 => ValueRef::TimestampNtzNanos(i64::from_le_bytes(fixed(b, 1)?)),
                20 => ValueRef::Uuid(fixed(b, 1)?),
                other => return Err(corrupt(format!("unknown primitive type {other}"))),
            },
            SHORT_STRING => ValueRef::String(
                std::str::from_utf8(&b[1..])
                    .map_err(|e| corrupt("short string is not UTF-8").with_source(e))?,
            ),
            basic => {
                let c = container(b, basic, header)?;
                let count_size = 1 + c.count_size;
                let ids_end = count_size + c.len * c.id_size;
                let fields = &b[c.head..];
                let offsets = &b[ids_end..c.head];
                if basic == OBJECT {
                    ValueRef::Object(ObjectRef {
                        metadata: self.metadata,
                        len: c.len,
                        id_size: c.id_size,
                        offset_size: c.offset_size,
                        ids: &b[count_size..ids_end],
                        offsets,
                        fields,
                    })
                } else {
                    ValueRef::Array(ArrayRef {
                        metadata: self.metadata,
                        len: c.len,
                        offset_size: c.offset_size,
                        offsets,
                        fields,
                    })
                }
            }
        })
    }

    /// The field `name` of an object (`None` for a missing field or a value that is not an
    /// object).
    pub fn get(&self, name: &str) -> Result<Option<VariantRef<'a>>> {
        match self.value()? {
            ValueRef::Object(o) => o.get(name),
            _ => Ok(None),
        }
    }

    /// Element `i` of an array (`None` past the end or for a value that is not an array).
    pub fn index(&self, i: usize) -> Result<Option<VariantRef<'a>>> {
        match self.value()? {
            ValueRef::Array(a) if i < a.len() => a.get(i).map(Some),
            _ => Ok(None),
        }
    }

    /// Decodes the whole value into an owned [`Variant`], checking everything below it
    /// (nesting deeper than [`MAX_DEPTH`], duplicate field names, bad members are errors).
    pub fn to_variant(&self) -> Result<Variant> {
        self.owned(0)
    }

    fn owned(&self, depth: usize) -> Result<Variant> {
        Ok(match self.value()? {
            ValueRef::Null => Variant::Null,
            ValueRef::Bool(b) => Variant::Bool(b),
            ValueRef::Int8(x) => Variant::Int8(x),
            ValueRef::Int16(x) => Variant::Int16(x),
            ValueRef::Int32(x) => Variant::Int32(x),
            ValueRef::Int64(x) => Variant::Int64(x),
            ValueRef::Float(x) => Variant::Float(x),
            ValueRef::Double(x) => Variant::Double(x),
            ValueRef::Decimal4(unscaled, scale) => Variant::Decimal4 { unscaled, scale },
            ValueRef::Decimal8(unscaled, scale) => Variant::Decimal8 { unscaled, scale },
            ValueRef::Decimal16(unscaled, scale) => Variant::Decimal16 { unscaled, scale },
            ValueRef::Date(x) => Variant::Date(x),
            ValueRef::Time(x) => Variant::Time(x),
            ValueRef::TimestampMicros(x) => Variant::TimestampMicros(x),
            ValueRef::TimestampNtzMicros(x) => Variant::TimestampNtzMicros(x),
            ValueRef::TimestampNanos(x) => Variant::TimestampNanos(x),
            ValueRef::TimestampNtzNanos(x) => Variant::TimestampNtzNanos(x),
            ValueRef::Binary(b) => Variant::Binary(b.to_vec()),
            ValueRef::String(s) => Variant::String(s.to_owned()),
            ValueRef::Uuid(u) => Variant::Uuid(u),
            ValueRef::Array(a) => {
                let depth = deeper(depth)?;
                // `len` offsets were checked to fit in the bytes, so this is bounded.
                let mut items = Vec::with_capacity(a.len());
                for i in 0..a.len() {
                    items.push(a.get(i)?.owned(depth)?);
                }
                Variant::Array(items)
            }
            ValueRef::Object(o) => {
                let depth = deeper(depth)?;
                let mut fields = BTreeMap::new();
                for i in 0..o.len() {
                    let (name, v) = o.field(i)?;
                    if fields.insert(name.to_owned(), v.owned(depth)?).is_some() {
                        return Err(corrupt(format!("field {name:?} appears twice")));
                    }
                }
                Variant::Object(fields)
            }
        })
    }
}

pub(super) fn deeper(depth: usize) -> Result<usize> {
    if depth >= MAX_DEPTH {
        return Err(corrupt(format!(
            "nested deeper than {MAX_DEPTH} arrays and objects"
        )));
    }
    Ok(depth + 1)
}

/// The member starting at `fields[start..]` whose extent must end by `end`.
fn member<'a>(
    metadata: Metadata<'a>,
    fields: &'a [u8],
    start: usize,
    end: usize,
) -> Result<VariantRef<'a>> {
    let slice = fields
        .get(start..end)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| corrupt(format!("member offset {start} is outside 0..{end}")))?;
    let size = value_size(slice)?;
    Ok(VariantRef {
        metadata,
        value: &slice[..size],
    })
}

impl<'a> ArrayRef<'a> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the array is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn offset(&self, i: usize) -> usize {
        read_uint(self.offsets, i * self.offset_size, self.offset_size).unwrap_or(usize::MAX)
    }

    /// Element `i` (an error past the end or when its bytes are bad).
    pub fn get(&self, i: usize) -> Result<VariantRef<'a>> {
        if i >= self.len {
            return Err(corrupt(format!("element {i} of an array of {}", self.len)));
        }
        let (start, end) = (self.offset(i), self.offset(i + 1));
        if start > end {
            return Err(corrupt(format!("array offsets {start} and {end} go back")));
        }
        member(self.metadata, self.fields, start, end)
    }

    /// The elements in order.
    pub fn iter(&self) -> impl Iterator<Item = Result<VariantRef<'a>>> + '_ {
        (0..self.len).map(|i| self.get(i))
    }
}

impl<'a> ObjectRef<'a> {
    /// Number of fields.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the object has no field.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn name(&self, i: usize) -> Result<&'a str> {
        let id = read_uint(self.ids, i * self.id_size, self.id_size).unwrap_or(usize::MAX);
        self.metadata.get(id).ok_or_else(|| {
            corrupt(format!(
                "field id {id} is not in the metadata ({} names)",
                self.metadata.len()
            ))
        })
    }

    /// Field `i` in the encoding's order: its name and value.
    pub fn field(&self, i: usize) -> Result<(&'a str, VariantRef<'a>)> {
        if i >= self.len {
            return Err(corrupt(format!("field {i} of an object of {}", self.len)));
        }
        let name = self.name(i)?;
        let start =
            read_uint(self.offsets, i * self.offset_size, self.offset_size).unwrap_or(usize::MAX);
        Ok((
            name,
            member(self.metadata, self.fields, start, self.fields.len())?,
        ))
    }

    /// The field `name` (binary search over the sorted field ids).
    pub fn get(&self, name: &str) -> Result<Option<VariantRef<'a>>> {
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.name(mid)?.cmp(name) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return self.field(mid).map(|(_, v)| Some(v)),
            }
        }
        Ok(None)
    }

    /// The fields in the encoding's order.
    pub fn iter(&self) -> impl Iterator<Item = Result<(&'a str, VariantRef<'a>)>> + '_ {
        (0..self.len).map(|i| self.field(i))
    }
}
